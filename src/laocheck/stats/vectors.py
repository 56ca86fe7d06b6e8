"""Simultaneous intervals for the coordinates of a mean vector, and for its squared norm.

Numerically valid range: as :func:`~laocheck.stats.mean_interval` per coordinate (every
0 < delta < 1, even split d ways; any finite ranges). A squared norm beyond the largest double
is reported as +inf, with the reason in ``details``.
"""

from __future__ import annotations

import math

from dataclasses import dataclass

import numpy as np

from .._validation import (check_choice, check_count, check_probability, check_sample,
                           check_within, fail)
from .intervals import (ALTERNATIVES, MAX_N, METHODS, SUM_METHODS, MeanInterval, _interval,
                        _Summary, _sum_statistics, to_unit)

__all__ = ["VectorMeanInterval", "vector_mean_interval", "vector_mean_interval_from_sums",
           "squared_norm_interval"]


@dataclass(frozen=True, eq=False, repr=False)
class VectorMeanInterval:
    """Simultaneous confidence intervals for the d coordinates of a mean vector.

    Returned by :func:`vector_mean_interval` and :func:`vector_mean_interval_from_sums`; each
    parameter is an attribute of the same name.

    Parameters
    ----------
    low, high : ndarray, shape (d,)
        ``P(low_j <= E[Z_j] <= high_j for every j) >= 1 - delta``.
    n : int
        Number of draws used.
    delta : float
        Simultaneous miscoverage; each coordinate used ``delta / d`` (Bonferroni).
    method : str
        The coordinate method (see :data:`~laocheck.stats.METHODS`).
    alternative : {"two-sided", "greater", "less"}
        Sidedness of every coordinate interval, as in :class:`MeanInterval`.
    mean : ndarray, shape (d,)
        Sample mean.
    """

    low: np.ndarray
    high: np.ndarray
    n: int
    delta: float
    method: str
    alternative: str
    mean: np.ndarray

    @property
    def width(self):
        """Per-coordinate widths ``high - low``."""
        return self.high - self.low

    def contains(self, x) -> bool:
        """Whether every coordinate of ``x`` lies in its interval."""
        x = np.asarray(x, dtype=np.float64)
        return bool(np.all((self.low <= x) & (x <= self.high)))

    def coordinate(self, j) -> MeanInterval:
        """Coordinate ``j`` as a :class:`MeanInterval` (its delta is the simultaneous delta)."""
        return MeanInterval(low=float(self.low[j]), high=float(self.high[j]), n=self.n,
                            delta=self.delta, method=self.method, alternative=self.alternative,
                            mean=float(self.mean[j]))

    def __repr__(self):
        return (f"VectorMeanInterval(d={self.low.size}, n={self.n}, delta={self.delta:g}, "
                f"method={self.method!r}, alternative={self.alternative!r}, "
                f"max width={np.max(self.width):.6g})")


def _bounds_array(name, value, d):
    try:
        arr = np.asarray(value)
        if arr.dtype.kind not in "biuf":
            raise TypeError
        return np.broadcast_to(arr.astype(np.float64), (d,)).copy()
    except (TypeError, ValueError):
        fail(name, value, f"be a real number or an array of {d} real numbers")


def _ranges_iv(lower, upper, d):
    lo, hi = _bounds_array("lower", lower, d), _bounds_array("upper", upper, d)
    for name, arr, given in (("lower", lo, lower), ("upper", hi, upper)):
        if not np.all(np.isfinite(arr)):
            fail(name, given, "be finite")
    if np.any(lo >= hi):
        j = int(np.argmax(lo >= hi))
        fail("lower", lower, f"satisfy lower < upper in every coordinate; coordinate {j} has "
             f"lower={float(lo[j])!r}, upper={float(hi[j])!r}")
    return lo, hi


def _assemble(summaries, lo, hi, delta, method, alternative):
    per_coordinate = delta / len(summaries)  # may underflow; the level is passed as a logarithm
    log_level = math.log(delta) - math.log(len(summaries))
    parts = [_interval(s, lower=a, upper=b, delta=per_coordinate, method=method,
                       alternative=alternative, log_delta=log_level)
             for s, a, b in zip(summaries, lo, hi)]
    return VectorMeanInterval(low=np.array([p.low for p in parts]),
                              high=np.array([p.high for p in parts]), n=parts[0].n, delta=delta,
                              method=method, alternative=alternative,
                              mean=np.array([p.mean for p in parts]))


def _vector_mean_interval_iv(values, lower, upper, delta, method, alternative, name="values"):
    x = check_sample(name, values, ndim=2)
    if x.shape[1] == 0:
        fail(name, f"<array of shape {x.shape}>", "have at least one coordinate")
    lo, hi = _ranges_iv(lower, upper, x.shape[1])
    check_within(name, x, lo, hi)
    return (x, lo, hi, check_probability("delta", delta), check_choice("method", method, METHODS),
            check_choice("alternative", alternative, ALTERNATIVES))


def vector_mean_interval(values, *, lower, upper, delta, method="betting",
                         alternative="two-sided"):
    r"""Simultaneous confidence intervals for every coordinate of a mean vector.

    Parameters
    ----------
    values : array_like, shape (n, d)
        I.i.d. draws of a vector Z with ``lower_j <= Z_j <= upper_j``.
    lower, upper : float or array_like, shape (d,)
        Coordinate ranges.
    delta : float
        Simultaneous miscoverage probability.
    method : {"betting", "prpl-eb", "bernstein", "hoeffding"}
        The coordinate method, as in :func:`~laocheck.stats.mean_interval`. Default
        ``"betting"``.
    alternative : {"two-sided", "greater", "less"}
        Sidedness of every coordinate interval. Default ``"two-sided"``.

    Returns
    -------
    VectorMeanInterval
        The d intervals (``low``, ``high``, ``mean``), valid simultaneously at ``delta``.

    Raises
    ------
    InvalidParameterError
        ``values`` not a finite 2-d array with at least one row and one column, draws outside
        their coordinate's range, ``lower`` >= ``upper`` in a coordinate, or a bad ``delta``,
        ``method`` or ``alternative``.

    Notes
    -----
    Each coordinate gets :func:`~laocheck.stats.mean_interval` at level delta / d, so by the
    union (Bonferroni) bound all d intervals hold together with probability >= 1 - delta,
    whatever the dependence between coordinates.

    References
    ----------
    .. [1] C. E. Bonferroni, "Teoria statistica delle classi e calcolo delle probabilità" (1936);
       the coordinate methods are referenced in :func:`~laocheck.stats.mean_interval`.
    """
    x, lo, hi, delta, method, alternative = _vector_mean_interval_iv(values, lower, upper, delta,
                                                                     method, alternative)
    summaries = [_Summary.of(to_unit(x[:, j], lo[j], hi[j])) for j in range(x.shape[1])]
    return _assemble(summaries, lo, hi, delta, method, alternative)


def _vector_mean_interval_from_sums_iv(n, totals, totals_sq, lower, upper, delta, method,
                                       alternative):
    n = check_count("n", n, minimum=2, maximum=MAX_N)
    arrays = []
    for name, value in (("totals", totals), ("totals_sq", totals_sq)):
        try:
            arr = np.asarray(value)
            if arr.dtype.kind not in "biuf":
                raise TypeError
            arrays.append(np.atleast_1d(arr.astype(np.float64)))
        except (TypeError, ValueError):
            fail(name, value, "be a 1-d array of real numbers")
    totals, totals_sq = arrays
    if totals.ndim != 1 or totals.size == 0:
        fail("totals", f"<array of shape {totals.shape}>", "be a nonempty 1-d array")
    if totals_sq.shape != totals.shape:
        fail("totals_sq", f"<array of shape {totals_sq.shape}>",
             f"have the shape of `totals` {totals.shape}")
    lo, hi = _ranges_iv(lower, upper, totals.size)
    return (n, totals, totals_sq, lo, hi, check_probability("delta", delta),
            check_choice("method", method, SUM_METHODS), check_choice("alternative", alternative, ALTERNATIVES))


def vector_mean_interval_from_sums(n, totals, totals_sq, *, lower, upper, delta,
                                   method="bernstein", alternative="two-sided"):
    """Simultaneous coordinate intervals from running sums (no pass over the data).

    Parameters
    ----------
    n : int
        Number of draws (>= 2).
    totals, totals_sq : array_like, shape (d,)
        Per-coordinate sums of the draws and of their squares.
    lower, upper : float or array_like, shape (d,)
        Coordinate ranges, as in :func:`vector_mean_interval`.
    delta : float
        Simultaneous miscoverage probability.
    method : {"bernstein", "hoeffding"}
        Methods that need only the running sums. Default ``"bernstein"``.
    alternative : {"two-sided", "greater", "less"}
        As in :func:`vector_mean_interval`.

    Returns
    -------
    VectorMeanInterval
        The d intervals, valid simultaneously at ``delta``.

    Raises
    ------
    InvalidParameterError
        ``n`` < 2, ``totals`` and ``totals_sq`` not nonempty 1-d arrays of one shape, or a bad
        range, ``delta``, ``method`` or ``alternative`` (as :func:`vector_mean_interval`).

    Notes
    -----
    :func:`~laocheck.stats.mean_interval_from_sums` per coordinate at level delta / d
    (Bonferroni), O(d) work.

    References
    ----------
    .. [1] A. Maurer and M. Pontil, COLT 2009, Theorem 4; W. Hoeffding, JASA 58 (1963), Thm 2.
    """
    n, totals, totals_sq, lo, hi, delta, method, alternative = _vector_mean_interval_from_sums_iv(
        n, totals, totals_sq, lower, upper, delta, method, alternative)
    summaries = []
    for j in range(totals.size):
        mean_u, var_u, _ = _sum_statistics(n, float(totals[j]), float(totals_sq[j]), lo[j],
                                           hi[j], names=(f"totals[{j}]", f"totals_sq[{j}]"))
        summaries.append(_Summary(n, mean_u, var_u))
    return _assemble(summaries, lo, hi, delta, method, alternative)


def squared_norm_interval(box, **kwargs):
    r"""Confidence interval for the squared norm ||E[Z]||^2 of a mean vector.

    Parameters
    ----------
    box : VectorMeanInterval or array_like, shape (n, d)
        Simultaneous two-sided coordinate intervals, or draws from which to compute them with
        :func:`vector_mean_interval` (then pass its keyword arguments: ``lower``, ``upper``,
        ``delta``, ``method``).
    **kwargs
        Only when ``box`` is an array of draws: ``lower``, ``upper`` and ``delta`` (required),
        ``method`` and ``alternative`` (optional), passed to :func:`vector_mean_interval`.

    Returns
    -------
    MeanInterval
        ``method="box-<method>"``; ``mean`` is ||sample mean||^2.

    Raises
    ------
    InvalidParameterError
        ``kwargs`` missing ``lower``, ``upper`` or ``delta`` (or with other keys) for draws, or
        not empty for a :class:`VectorMeanInterval`; a box that is not two-sided; bad draws or
        ranges (as :func:`vector_mean_interval`).

    Notes
    -----
    If mu lies in the box prod_j [l_j, h_j] (probability >= 1 - delta), then
    sum_j dist(0, [l_j, h_j])^2 <= ||mu||^2 <= sum_j max(l_j^2, h_j^2): the exact minimum and
    maximum of ||m||^2 over the box. Rigorous, at the same delta as the box.

    References
    ----------
    .. [1] The coordinate box is Bonferroni's; see :func:`vector_mean_interval`.
    """
    if not isinstance(box, VectorMeanInterval):
        unknown = set(kwargs) - {"lower", "upper", "delta", "method", "alternative"}
        if unknown or not {"lower", "upper", "delta"} <= set(kwargs):
            fail("kwargs", sorted(kwargs), "give lower, upper and delta (and optionally method, "
                 "alternative) when `box` is an array of draws")
        x, lo, hi, delta, method, alternative = _vector_mean_interval_iv(
            box, kwargs["lower"], kwargs["upper"], kwargs["delta"],
            kwargs.get("method", "betting"), kwargs.get("alternative", "two-sided"), name="box")
        box = _assemble([_Summary.of(to_unit(x[:, j], lo[j], hi[j])) for j in range(x.shape[1])],
                        lo, hi, delta, method, alternative)
    elif kwargs:
        fail("kwargs", sorted(kwargs), "be empty when `box` is a VectorMeanInterval")
    if box.alternative != "two-sided":
        fail("box.alternative", box.alternative, "be 'two-sided' to bound a squared norm")
    nearest = np.clip(0.0, box.low, box.high)
    with np.errstate(over="ignore"):
        farthest = np.maximum(box.low ** 2, box.high ** 2)
        low, high = float(np.sum(nearest ** 2)), float(np.sum(farthest))
        mean = float(np.sum(box.mean ** 2))
    details = {}
    if math.isinf(high):
        details["overflow"] = ("the squared norm exceeds the largest double: the side(s) beyond "
                               "it are reported as +inf")
    return MeanInterval(low=low, high=high, n=box.n, delta=box.delta, method=f"box-{box.method}",
                        alternative="two-sided", mean=mean, details=details)
