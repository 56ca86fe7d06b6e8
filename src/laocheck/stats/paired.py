"""Paired comparisons over replicated runs: distribution-free bounds on a median difference,
a decision over several check points, and its power.

The setting (the papers' experiments, :mod:`laocheck.experiments.papers`): R independent runs,
each giving two learners' test errors at P check points (prefixes of one training part, the
same split and seeds for both learners). Per run and check point, a paired statistic D (for
example the log of the ratio of the two errors) is formed; the claim is about the median of D
over the runs' randomness at every check point.

Why the median and order statistics. A run's error can diverge (a step size chosen by
cross-validation that blows up): D has heavy tails, any moment bound needs a range or a
variance bound that the runs do not give, and a t-interval rests on normality, which nothing
guarantees this far in the tail (δ = 1e-6). The order-statistic interval for a median needs only
that the R values of D are independent and identically distributed (the runs' seeds are
independent children of one seed): for every distribution, continuous or not, with the lower
median θ = inf{t : P(D <= t) >= 1/2} and the upper median θ⁺ = sup{t : P(D >= t) >= 1/2},

    P(D_(l) > θ) <= P(Bin(R, 1/2) <= l − 1)  and  P(D_(R+1−l) < θ⁺) <= the same

(D_(l) is the l-th smallest of the R values; #{D_r <= θ} is at least Bin(R, 1/2) in
distribution). :func:`sign_rank` picks the largest l with that probability at most α. Inverting
the sign test this way is the most a distribution-free bound can do with R values: the sign
test is uniformly most powerful among tests of a median that assume nothing else.

A claim over a curve, "θ_p > t at every check point p" (:func:`paired_median_test`), is an
intersection: it is decided HOLDS (``"above"``) when every lower bound at level δ exceeds t (an
intersection-union test, Berger 1982: a wrong HOLDS needs the bound at a point where the claim
is false to exceed t, probability <= δ, so no split of δ over the points is needed), and DOES
NOT HOLD (``"below"``) when some upper bound at level δ/P is below t (a union over the P
points, Bonferroni: probability <= δ when the claim holds at every point). Each kind of wrong
decision has probability at most δ; the upper bounds cover the upper medians simultaneously
with probability >= 1 − δ, each lower bound its lower median with probability >= 1 − δ.

Power (:func:`sign_test_power`): if at each point P(D > t) >= q, the number of runs with
D > t is at least Bin(R, q) in distribution, so HOLDS has probability at least
1 − P · P(Bin(R, q) < R + 1 − l) (union bound over the points). :func:`sign_test_detectable`
inverts it for q, :func:`sign_test_runs` for R. Under a normal model of D (used for design
only, never for a decision), q = Φ(μ/σ): an effect of one standard deviation of the paired
difference is q = Φ(1) = 0.841 (:func:`win_probability`).

Numerically valid range: every 0 < δ < 1 (binomial tails from :mod:`scipy.stats`, exact to
double precision), R up to 10⁶ runs.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from scipy import stats as _st
from scipy.optimize import brentq

from .._validation import check_count, check_probability, check_real, fail

__all__ = ["sign_rank", "median_bounds", "PairedMedianTest", "paired_median_test",
           "sign_test_power", "sign_test_detectable", "sign_test_runs", "win_probability",
           "MAX_RUNS"]

#: The largest number of runs the design functions search.
MAX_RUNS = 10 ** 6


def sign_rank(n, alpha):
    """Return the rank of the order statistic that bounds a median at a given level.

    The largest rank l (1-based) with P(Bin(n, 1/2) <= l − 1) <= ``alpha``, or 0 when even
    l = 1 has a larger probability (2⁻ⁿ > alpha: no order statistic bounds the median at this
    level). The l-th smallest of n i.i.d. values is then a lower confidence bound at level
    ``alpha`` for their lower median, and the l-th largest an upper one for the upper median.

    Parameters
    ----------
    n : int
        The number of i.i.d. values (1 <= n <= ``MAX_RUNS``).
    alpha : float
        The level of the bound (0 < alpha < 1).

    Returns
    -------
    int
        The rank l, between 0 (no bound) and n.

    Raises
    ------
    InvalidParameterError
        If ``n`` is not an integer in [1, ``MAX_RUNS``] or ``alpha`` is not in (0, 1).
    """
    n = check_count("n", n, maximum=MAX_RUNS)
    alpha = check_probability("alpha", alpha)
    # cdf(l − 1) is increasing in l: the last l with cdf(l − 1) <= alpha
    cdf = _st.binom.cdf(np.arange(n), n, 0.5)        # cdf[j] = P(Bin <= j), j = l − 1
    return int(np.searchsorted(cdf, alpha, side="right"))


def _values_iv(values):
    if isinstance(values, (str, bytes)):
        fail("values", values, "be an array of real numbers (runs × points)")
    try:
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        fail("values", f"<{type(values).__name__}>", "be convertible to a float array")
    if arr.ndim == 1:
        arr = arr[:, None]
    if arr.ndim != 2 or arr.shape[0] < 1 or arr.shape[1] < 1:
        fail("values", f"<array of shape {arr.shape}>",
             "be a non-empty array of runs (rows) × check points (columns)")
    if np.any(np.isnan(arr)):
        fail("values", "<array containing nan>", "contain no NaN (±inf is allowed: a "
             "diverged run is an extreme value, which order statistics handle)")
    return arr


def median_bounds(values, *, alpha_low, alpha_high):
    """Return order-statistic bounds on the median of each column of ``values``.

    Per column of ``values`` (runs × points; a 1-d array is one point): the order-statistic
    lower bound at level ``alpha_low`` on its lower median and upper bound at level
    ``alpha_high`` on its upper median (module docstring). A bound that R runs cannot give is
    −inf (lower) or +inf (upper). Values may be ±inf; NaN is refused.

    Returns ``(low, high, l_low, l_high)``: the bounds (arrays, one per point) and the ranks
    used (the l-th smallest, the l-th largest; 0: no bound).

    Parameters
    ----------
    values : array_like, shape (R, P) or (R,)
        The paired statistic D, one row per run and one column per check point; ±inf allowed.
    alpha_low : float
        The level of the lower bounds (0 < alpha_low < 1).
    alpha_high : float
        The level of the upper bounds (0 < alpha_high < 1).

    Returns
    -------
    low : ndarray, shape (P,)
        Per point, the lower bound on the lower median (-inf when R runs cannot give one).
    high : ndarray, shape (P,)
        Per point, the upper bound on the upper median (+inf when R runs cannot give one).
    l_low : int
        The rank of ``low`` among the sorted values (the l-th smallest; 0: no bound).
    l_high : int
        The rank of ``high`` from the top (the l-th largest; 0: no bound).

    Raises
    ------
    InvalidParameterError
        If ``values`` is empty, not a real array of at most 2 dimensions, or contains NaN, or
        if a level is not in (0, 1).
    """
    arr = _values_iv(values)
    n = arr.shape[0]
    l_low, l_high = sign_rank(n, alpha_low), sign_rank(n, alpha_high)
    s = np.sort(arr, axis=0)
    low = s[l_low - 1] if l_low else np.full(arr.shape[1], -np.inf)
    high = s[n - l_high] if l_high else np.full(arr.shape[1], np.inf)
    return low, high, l_low, l_high


@dataclass(frozen=True)
class PairedMedianTest:
    """The decision of :func:`paired_median_test`.

    ``decision``: ``"above"`` (the median exceeds ``threshold`` at every point), ``"below"``
    (it is below at some point) or ``"undecided"``; ``low``, ``high``: per point, the lower
    bound at level ``delta`` and the upper bound at level ``delta / points`` on the median;
    ``counts``: per point, the runs with a value above ``threshold``; ``needed``: the runs above
    ``threshold`` a point needs for ``"above"`` (R + 1 − l; None: R runs can never decide it).

    Parameters
    ----------
    decision : {"above", "below", "undecided"}
        The decision on "the median exceeds ``threshold`` at every point".
    threshold : float
        The threshold t the medians are compared with.
    delta : float
        The bound on the probability of each kind of wrong decision.
    runs : int
        The number of runs R (rows of the values).
    points : int
        The number of check points P (columns of the values).
    low : tuple of float
        Per point, the lower bound at level ``delta`` on the lower median.
    high : tuple of float
        Per point, the upper bound at level ``delta / points`` on the upper median.
    counts : tuple of int
        Per point, the number of runs with a value above ``threshold``.
    needed : int or None
        The runs above ``threshold`` a point needs for ``"above"``; None when R runs can
        never decide it.
    """

    decision: str
    threshold: float
    delta: float
    runs: int
    points: int
    low: tuple
    high: tuple
    counts: tuple
    needed: int | None


def paired_median_test(values, *, threshold=0.0, delta):
    """Decide whether the median of D exceeds a threshold at every check point.

    Decide "the median of D exceeds ``threshold`` at every check point" from ``values``
    (runs × points of D; a 1-d array is one point): an intersection-union test on
    order-statistic bounds (module docstring). Each wrong decision ("above" when the lower
    median is at most ``threshold`` at some point, "below" when it exceeds ``threshold`` at
    every point) has probability at most ``delta``, whatever the distribution of D, provided
    the runs (rows) are independent and identically distributed.

    Parameters
    ----------
    values : array_like, shape (R, P) or (R,)
        The paired statistic D, one row per run and one column per check point; ±inf allowed.
    threshold : float, default 0.0
        The threshold t the median of D is compared with.
    delta : float
        The bound on the probability of each kind of wrong decision (0 < delta < 1).

    Returns
    -------
    PairedMedianTest
        The decision, the bounds per point, and the counts of runs above ``threshold``.

    Raises
    ------
    InvalidParameterError
        If ``values`` is empty, not a real array of at most 2 dimensions, or contains NaN,
        ``threshold`` is not a finite real, or ``delta`` is not in (0, 1).
    """
    arr = _values_iv(values)
    threshold = check_real("threshold", threshold)
    delta = check_probability("delta", delta)
    n, P = arr.shape
    low, high, l_low, _ = median_bounds(arr, alpha_low=delta, alpha_high=delta / P)
    if np.all(low > threshold):
        decision = "above"
    elif np.any(high < threshold):
        decision = "below"
    else:
        decision = "undecided"
    return PairedMedianTest(
        decision=decision, threshold=threshold, delta=delta, runs=n, points=P,
        low=tuple(float(v) for v in low), high=tuple(float(v) for v in high),
        counts=tuple(int(v) for v in np.sum(arr > threshold, axis=0)),
        needed=(n + 1 - l_low) if l_low else None)


def _design_iv(delta, points, beta):
    return (check_probability("delta", delta), check_count("points", points, maximum=10 ** 6),
            check_probability("beta", beta))


def sign_test_power(runs, q, *, delta, points=1):
    """Return a lower bound on the power of :func:`paired_median_test`.

    A lower bound on the probability that :func:`paired_median_test` decides "above" with
    ``runs`` runs when, at each of ``points`` check points, P(D > threshold) >= ``q``:
    1 − points · P(Bin(runs, q) < needed), at least 0 (module docstring). 0 when ``runs`` runs
    can never decide (2⁻ʳᵘⁿˢ > delta).

    Parameters
    ----------
    runs : int
        The number of runs R (1 <= runs <= ``MAX_RUNS``).
    q : float
        A lower bound on P(D > threshold) at each point (0 <= q <= 1).
    delta : float
        The level of :func:`paired_median_test` (0 < delta < 1).
    points : int, default 1
        The number of check points P.

    Returns
    -------
    float
        A lower bound, in [0, 1], on the probability of deciding "above".

    Raises
    ------
    InvalidParameterError
        If ``runs`` or ``points`` is not a positive integer in range, ``q`` is not in [0, 1],
        or ``delta`` is not in (0, 1).
    """
    runs = check_count("runs", runs, maximum=MAX_RUNS)
    q = check_real("q", q, low=0.0, high=1.0)
    delta, points, _ = _design_iv(delta, points, 0.5)
    l_low = sign_rank(runs, delta)
    if not l_low:
        return 0.0
    needed = runs + 1 - l_low
    miss = float(_st.binom.cdf(needed - 1, runs, q))
    return max(0.0, 1.0 - points * miss)


def sign_test_detectable(runs, *, delta, points=1, beta=0.1):
    """Return the smallest win probability that a number of runs detects.

    The smallest q = P(D > threshold) at every point that :func:`paired_median_test` with
    ``runs`` runs decides "above" with probability >= 1 − ``beta`` (:func:`sign_test_power`);
    nan when no q <= 1 is enough (``runs`` too small for ``delta`` and ``points``).

    Parameters
    ----------
    runs : int
        The number of runs R (1 <= runs <= ``MAX_RUNS``).
    delta : float
        The level of :func:`paired_median_test` (0 < delta < 1).
    points : int, default 1
        The number of check points P.
    beta : float, default 0.1
        The allowed probability of not deciding "above" (0 < beta < 1).

    Returns
    -------
    float
        The smallest detectable q, in [1/2, 1], or nan when none is.

    Raises
    ------
    InvalidParameterError
        If ``runs`` or ``points`` is not a positive integer in range, or ``delta`` or
        ``beta`` is not in (0, 1).
    """
    runs = check_count("runs", runs, maximum=MAX_RUNS)
    delta, points, beta = _design_iv(delta, points, beta)
    return _detectable(runs, delta, points, beta)


@functools.lru_cache(maxsize=256)
def _detectable(runs, delta, points, beta):
    """:func:`sign_test_detectable` on validated arguments (cached: every claim of a report
    asks for the same few)."""
    if sign_test_power(runs, 1.0, delta=delta, points=points) < 1 - beta:
        return math.nan
    return float(brentq(lambda q: sign_test_power(runs, q, delta=delta, points=points)
                        - (1 - beta), 0.5, 1.0, xtol=1e-10))


def sign_test_runs(q, *, delta, points=1, beta=0.1):
    """Return the smallest number of runs that detects a given win probability.

    The smallest number of runs R with :func:`sign_test_power` >= 1 − ``beta`` at
    P(D > threshold) = ``q`` at each of ``points`` points (1/2 < q <= 1).

    Parameters
    ----------
    q : float
        P(D > threshold) at each point (1/2 < q <= 1).
    delta : float
        The level of :func:`paired_median_test` (0 < delta < 1).
    points : int, default 1
        The number of check points P.
    beta : float, default 0.1
        The allowed probability of not deciding "above" (0 < beta < 1).

    Returns
    -------
    int
        The smallest number of runs R, at most ``MAX_RUNS``.

    Raises
    ------
    InvalidParameterError
        If ``q`` is not in (1/2, 1] or needs more than ``MAX_RUNS`` runs, ``points`` is
        not a positive integer in range, or ``delta`` or ``beta`` is not in (0, 1).
    """
    q = check_real("q", q, low=0.5, high=1.0, low_open=True,
                   rule="only a median above the threshold can be detected")
    delta, points, beta = _design_iv(delta, points, beta)
    lo = 1
    while sign_test_power(lo, q, delta=delta, points=points) < 1 - beta:
        lo += 1
        if lo > MAX_RUNS:
            fail("q", q, f"be detectable with at most {MAX_RUNS} runs")
    return lo


def win_probability(effect):
    """Return the win probability of a standardised effect under a normal model.

    q = Φ(``effect``): P(D > threshold) when D is normal with mean threshold + effect·σ
    (a standardised effect; for design only, never for a decision).

    Parameters
    ----------
    effect : float
        The standardised effect: the mean of D minus the threshold, in standard deviations
        of D.

    Returns
    -------
    float
        The probability q = Φ(``effect``), in [0, 1].

    Raises
    ------
    InvalidParameterError
        If ``effect`` is not a finite real number.
    """
    effect = check_real("effect", effect)
    return float(_st.norm.cdf(effect))
