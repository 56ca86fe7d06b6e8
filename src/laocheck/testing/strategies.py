"""Hypothesis strategies for the papers' instances, constraints built in by construction.

Plural nouns, keyword-only options; each shrinks towards zero vectors (and d towards its
minimum). Every strategy satisfies the papers' assumptions exactly — never by filtering:

* :func:`weight_vectors` ``(d, *, norm="l2", bound=1.0)``: ‖w‖ <= bound (L2: ‖w‖₂, L1: ‖w‖₁);
* :func:`data_points` ``(d, *, norm="l2")``: ‖x‖ <= 1 (L2: ‖x‖₂, L1 papers: ‖x‖∞);
* :func:`problem_instances` ``(*, min_d=1, max_d=6, norm="l2", bound=1.0)``: (w, x, y, B)
  with |y| <= B (floats);
* :func:`dyadic_instances` ``(*, min_d=1, max_d=4, norm="l2", bound=1, denominator=16)``: the
  same with dyadic Fractions (exactly representable as floats: the kernels and the literal
  references see the same instance, enumerable with ``laocheck.stats.exact``);
* :func:`sampling_distributions` ``(d, *, min_mass=1/64)``: strictly positive q summing to 1;
* :func:`second_moment_vectors` ``(d, *, norm="l2")``: E[x_i²] >= 0 possible under ‖x‖ <= 1
  (L2: Σ_i E[x_i²] <= 1; L1: each E[x_i²] <= 1).

Needs hypothesis (``pip install "laocheck[test]"``).
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
from hypothesis import strategies as st

from ..exceptions import InvalidParameterError

__all__ = ["weight_vectors", "data_points", "problem_instances", "dyadic_instances",
           "sampling_distributions", "second_moment_vectors"]


def _norm_name(norm):
    if norm not in ("l1", "l2"):
        raise InvalidParameterError(f"`norm` must be 'l1' or 'l2'; got {norm!r}.")
    return norm


def _dim(d):
    if isinstance(d, bool) or not isinstance(d, int) or d < 1:
        raise InvalidParameterError(f"`d` must be an integer >= 1; got {d!r}.")
    return d


def _bound(bound):
    """A finite radius > 0 (a radius of inf or nan would make vectors of inf or nan)."""
    ok = isinstance(bound, (int, float, F)) and not isinstance(bound, bool)
    try:
        ok = ok and bound > 0 and math.isfinite(float(bound))
    except OverflowError:                        # an int or Fraction beyond the doubles
        ok = False
    if not ok:
        raise InvalidParameterError(
            f"`bound` must be a finite number > 0 (at most {np.finfo(np.float64).max:.6g}); "
            f"got {bound!r}.")
    return bound


_UNIT = st.floats(-1.0, 1.0, allow_nan=False, allow_infinity=False)
_FRACTION = st.floats(0.0, 1.0, allow_nan=False, allow_infinity=False)


def _size(v, norm):
    """‖v‖₁ or ‖v‖₂ without overflow on the way (math.fsum is exact, math.hypot scaled), so
    a vector near the largest double is measured, not turned into inf."""
    entries = [float(t) for t in v]
    try:
        return math.fsum(abs(t) for t in entries) if norm == "l1" else math.hypot(*entries)
    except OverflowError:                        # the norm itself exceeds the doubles
        return math.inf


def _numpy_size(v, norm):
    """‖v‖ as a user measures it (``np.abs(v).sum()``, ``np.linalg.norm(v)``): rounded, and
    inf beyond about 1e154 for l2 (then not a test of anything)."""
    with np.errstate(over="ignore"):
        return float(np.abs(v).sum() if norm == "l1" else np.linalg.norm(v))


def _outside(v, norm, bound):
    numpy_size = _numpy_size(v, norm)
    return _size(v, norm) > bound or (math.isfinite(numpy_size) and numpy_size > bound)


def _scale_into(v, norm, bound):
    """v scaled into the ball of radius bound: v·min(1, bound/‖v‖), rounding corrected so
    that the exact norm and numpy's rounded one both stay within bound (a user asserts
    ``np.abs(v).sum() <= bound``, which may exceed the exact sum by an ulp)."""
    if _outside(v, norm, bound):
        v = v * (bound / _size(v, norm))
        while _outside(v, norm, bound):        # floating-point rounding: shrink by one ulp
            v = np.nextafter(v, 0.0)
    return v


@st.composite
def _ball_vectors(draw, d, norm, bound):
    direction = np.array(draw(st.lists(_UNIT, min_size=d, max_size=d)), dtype=np.float64)
    radius = draw(_FRACTION)
    size = _size(direction, norm)
    # in the unit ball first, scaled by the bound last: no intermediate overflows (bound up to
    # the largest double) and no division by a subnormal size
    unit = direction if size == 0 else (direction / size) * radius
    unit = _scale_into(unit, norm, 1.0)
    return _scale_into(unit * bound, norm, bound)


def weight_vectors(d, *, norm="l2", bound=1.0):
    """Weight vectors w in R^d within the ball of the papers' predictors.

    Shrinks towards w = 0.

    Parameters
    ----------
    d : int
        The dimension.
    norm : {"l2", "l1"}, default="l2"
        ‖w‖₂ <= bound (``"l2"``, ridge: HK12 Alg. 1, KS15 Alg. 1) or ‖w‖₁ <= bound (``"l1"``,
        lasso and CB11).
    bound : float, default=1.0
        The radius B: finite and > 0 (up to the largest double; the vectors are drawn in the
        unit ball and scaled last, so they stay finite).

    Returns
    -------
    hypothesis.strategies.SearchStrategy
        A strategy of float64 arrays of shape (d,).

    Raises
    ------
    ValueError
        If a dimension is not a positive integer, ``norm`` is not "l2" or "l1", or a bound
        breaks its rule.
    """
    return _ball_vectors(_dim(d), _norm_name(norm), float(_bound(bound)))


def data_points(d, *, norm="l2"):
    """Data points x in R^d within the papers' assumption on the examples.

    Shrinks towards x = 0.

    Parameters
    ----------
    d : int
        The dimension.
    norm : {"l2", "l1"}, default="l2"
        ‖x‖₂ <= 1 (``"l2"``, HK12 Sec. 2 ridge, KS15) or ‖x‖∞ <= 1 (``"l1"``: the lasso
        papers' assumption).

    Returns
    -------
    hypothesis.strategies.SearchStrategy
        A strategy of float64 arrays of shape (d,).

    Raises
    ------
    ValueError
        If a dimension is not a positive integer, ``norm`` is not "l2" or "l1", or a bound
        breaks its rule.
    """
    d, norm = _dim(d), _norm_name(norm)
    if norm == "l1":
        return st.lists(_UNIT, min_size=d, max_size=d).map(lambda v: np.array(v, np.float64))
    return _ball_vectors(d, "l2", 1.0)


def problem_instances(*, min_d=1, max_d=6, norm="l2", bound=1.0):
    """Instances (w, x, y, B): w from :func:`weight_vectors`, x from :func:`data_points`, |y| <= B.

    Parameters
    ----------
    min_d : int, default=1
        The smallest dimension.
    max_d : int, default=6
        The largest dimension.
    norm : {"l2", "l1"}, default="l2"
        The geometry, as :func:`weight_vectors` and :func:`data_points`.
    bound : float, default=1.0
        The radius B (and the bound on |y|): finite and > 0, up to the largest double.

    Returns
    -------
    hypothesis.strategies.SearchStrategy
        A strategy of tuples (w, x, y, B).

    Raises
    ------
    ValueError
        If a dimension is not a positive integer, ``norm`` is not "l2" or "l1", or a bound
        breaks its rule.
    """
    return _problem_instances(_dim(min_d), _dim(max_d), _norm_name(norm), float(_bound(bound)))


@st.composite
def _problem_instances(draw, min_d, max_d, norm, bound):
    d = draw(st.integers(min_d, max_d))
    w = draw(weight_vectors(d, norm=norm, bound=bound))
    x = draw(data_points(d, norm=norm))
    y = draw(_UNIT) * bound
    return w, x, float(min(max(y, -bound), bound)), bound


@st.composite
def _dyadic_ball(draw, d, norm, radius_units):
    """Integers n_1..n_d with Σ|n_i| <= R (L1), Σ n_i² <= R² (L2) or |n_i| <= R (Linf),
    drawn coordinate by coordinate within what remains (by construction)."""
    out = []
    left = radius_units if norm == "l1" else radius_units ** 2
    for _ in range(d):
        top = left if norm == "l1" else (math.isqrt(left) if norm == "l2" else radius_units)
        n = draw(st.integers(-top, top))
        out.append(n)
        if norm == "l1":
            left -= abs(n)
        elif norm == "l2":
            left -= n * n
    return out


def dyadic_instances(*, min_d=1, max_d=4, norm="l2", bound=1, denominator=16):
    """Instances (w, x, y, B) of dyadic Fractions satisfying the assumptions exactly.

    Multiples of B/denominator with ‖w‖ <= B, ‖x‖ <= 1 (L2: ‖·‖₂ both; L1: ‖w‖₁, ‖x‖∞),
    |y| <= B. ``as_float`` of ``laocheck.estimators.instances`` gives the equal floats.

    Parameters
    ----------
    min_d : int, default=1
        The smallest dimension.
    max_d : int, default=4
        The largest dimension.
    norm : {"l2", "l1"}, default="l2"
        The geometry.
    bound : int or Fraction, default=1
        The radius B.
    denominator : int, default=16
        A power of 2: the grid of the entries.

    Returns
    -------
    hypothesis.strategies.SearchStrategy
        A strategy of tuples (w, x, y, B) of Fractions.

    Raises
    ------
    ValueError
        If ``denominator`` is not a power of 2, ``bound`` is not dyadic, a dimension is not a
        positive integer or ``norm`` is not "l2" or "l1".
    """
    norm = _norm_name(norm)
    if not (isinstance(denominator, int) and denominator >= 1
            and denominator & (denominator - 1) == 0):
        raise InvalidParameterError(
            f"`denominator` must be a power of 2 (dyadic numbers); got {denominator!r}.")
    B = F(_bound(bound))
    if B.denominator & (B.denominator - 1):
        raise InvalidParameterError(f"`bound` must be dyadic (e.g. 1, 1/2, 3/4); got {bound!r}.")
    return _dyadic_instances(_dim(min_d), _dim(max_d), norm, B, denominator)


@st.composite
def _dyadic_instances(draw, min_d, max_d, norm, B, denominator):
    d = draw(st.integers(min_d, max_d))
    w = [B * F(n, denominator) for n in draw(_dyadic_ball(d, norm, denominator))]
    x = [F(n, denominator) for n in draw(_dyadic_ball(d, "l2" if norm == "l2" else "linf",
                                                      denominator))]
    y = B * F(draw(st.integers(-denominator, denominator)), denominator)
    return w, x, y, B


def sampling_distributions(d, *, min_mass=1 / 64):
    """Distributions q in the simplex with every q_i >= min_mass.

    q = min_mass + (1 − d·min_mass)·p (every q_i > 0, so importance weights are finite, as
    KS15 Alg. 1 needs); shrinks towards the uniform distribution.

    Parameters
    ----------
    d : int
        The dimension.
    min_mass : float, default=1/64
        The least mass of a coordinate, > 0 with d·min_mass <= 1.

    Returns
    -------
    hypothesis.strategies.SearchStrategy
        A strategy of float64 arrays of shape (d,) summing to 1.

    Raises
    ------
    ValueError
        If d is not a positive integer or ``min_mass`` is not in (0, 1/d].
    """
    d = _dim(d)
    if not 0 < min_mass <= 1 / d:
        raise InvalidParameterError(f"`min_mass` must satisfy 0 < min_mass <= 1/d; got {min_mass!r}.")
    return _sampling_distributions(d, min_mass)


@st.composite
def _sampling_distributions(draw, d, min_mass):
    raw = np.array(draw(st.lists(st.integers(1, 64), min_size=d, max_size=d)), dtype=np.float64)
    p = raw / raw.sum()
    q = min_mass + (1 - d * min_mass) * p
    return q / q.sum()


def second_moment_vectors(d, *, norm="l2"):
    """Vectors of second moments E[x_i²], i = 1..d, possible for a distribution with ‖x‖ <= 1.

    Nonnegative with Σ_i E[x_i²] <= 1 (``"l2"``) or each E[x_i²] <= 1 (``"l1"``: ‖x‖∞ <= 1),
    as DDAERR (KS15 Sec. 3.1) and DDAELR (KS15 Sec. 4.1) take them.

    Parameters
    ----------
    d : int
        The dimension.
    norm : {"l2", "l1"}, default="l2"
        The assumption on x.

    Returns
    -------
    hypothesis.strategies.SearchStrategy
        A strategy of float64 arrays of shape (d,).

    Raises
    ------
    ValueError
        If a dimension is not a positive integer, ``norm`` is not "l2" or "l1", or a bound
        breaks its rule.
    """
    return _second_moment_vectors(_dim(d), _norm_name(norm))


@st.composite
def _second_moment_vectors(draw, d, norm):
    v = np.array(draw(st.lists(_FRACTION, min_size=d, max_size=d)), dtype=np.float64)
    if norm == "l2" and v.sum() > 1:
        v = _scale_into(v, "l1", 1.0)
    return v
