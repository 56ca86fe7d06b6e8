"""Confidence intervals for the mean of a bounded variable.

Four methods, all valid for every distribution on the declared range [lower, upper] and every
sample size (no normal approximation):

``"betting"``    Waudby-Smith and Ramdas (2024), hedged capital process; the narrowest.
``"prpl-eb"``    Waudby-Smith and Ramdas (2024), predictable plug-in empirical Bernstein.
``"bernstein"``  Maurer and Pontil (2009), empirical Bernstein; needs only (n, sum, sum of squares).
``"hoeffding"``  Hoeffding (1963); needs only (n, sum); the baseline.

Every method is implemented as a one-sided *lower* bound on data rescaled to [0, 1]; upper
bounds come from the reflection x -> 1 - x, and a two-sided interval at level delta is the
intersection of a lower and an upper bound at delta / 2 each (union bound).

Numerically valid range: every ``0 < delta < 1`` (down to the smallest double, 5e-324: the
levels are carried as logarithms, ln(1/delta) <= 745, so nothing underflows), every finite
range ``lower < upper`` (up to -1.8e308 < 1.8e308: the data are mapped to [0, 1] by halving
first, so ``upper - lower`` never overflows) and every sample size a numpy array can hold.
The returned interval is never NaN.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any, Mapping

import numpy as np

from .._lazy import load
from .._validation import (check_choice, check_count, check_probability, check_range,
                           check_sample, check_within, fail)

# start-up: scipy.optimize loads on first use (one root finding); `laocheck list` builds the
# catalog without it
optimize = load("scipy.optimize")

__all__ = ["MeanInterval", "mean_interval", "mean_interval_from_sums", "METHODS", "SUM_METHODS",
           "ALTERNATIVES"]

#: Methods of :func:`mean_interval`.
METHODS = ("betting", "bernstein", "prpl-eb", "hoeffding")
#: Methods that need only running sums (n, sum, sum of squares): :func:`mean_interval_from_sums`.
SUM_METHODS = ("bernstein", "hoeffding")
#: Sidedness of an interval: two-sided, a lower confidence bound ("greater"), an upper one ("less").
ALTERNATIVES = ("two-sided", "greater", "less")

#: Cap c on the bets of the betting and PrPl-EB methods (Waudby-Smith and Ramdas use 1/2 or 3/4).
_BET_CAP = 0.5


@dataclass(frozen=True, repr=False)
class MeanInterval:
    """A confidence interval for a mean, with what it rests on.

    Returned by :func:`mean_interval` and :func:`mean_interval_from_sums`; each parameter is an
    attribute of the same name.

    Parameters
    ----------
    low, high : float
        The interval; ``P(low <= E[Z] <= high) >= 1 - delta``. A one-sided interval has the
        declared range bound (or +-inf when there is none) on its open side.
    n : int
        Number of observations used.
    delta : float
        Probability that the interval misses the true mean (the false-failure probability of any
        decision taken on it).
    method : str
        Method name (see :data:`METHODS`).
    alternative : {"two-sided", "greater", "less"}
        ``"greater"``: only ``low`` is informative (a lower confidence bound); ``"less"``: only
        ``high``.
    mean : float
        The point estimate (sample mean, or median of means).
    details : Mapping
        Method-specific figures (truncation level, number of blocks, ...); not compared.
    """

    low: float
    high: float
    n: int
    delta: float
    method: str
    alternative: str = "two-sided"
    mean: float = math.nan
    details: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "details", MappingProxyType(dict(self.details)))

    @property
    def width(self) -> float:
        """``high - low`` (infinite for a one-sided interval without a range bound)."""
        return self.high - self.low

    def contains(self, x) -> bool:
        """Whether ``low <= x <= high``."""
        return bool(self.low <= x <= self.high)

    def __repr__(self):
        return (f"MeanInterval([{self.low:.6g}, {self.high:.6g}], mean={self.mean:.6g}, "
                f"n={self.n}, delta={self.delta:g}, method={self.method!r}, "
                f"alternative={self.alternative!r})")


# --------------------------------------------------------------------------------------------
# One-sided lower bounds for data in [0, 1]
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Summary:
    """What a method may use: n, sample mean, unbiased sample variance, and the data if kept."""

    n: int
    mean: float
    var: float
    x: np.ndarray | None = None

    @classmethod
    def of(cls, x):
        var = float(np.var(x, ddof=1)) if x.size > 1 else 0.25
        return cls(x.size, float(np.mean(x)), var, x)

    @cached_property
    def predictable(self):
        """(sigma^2_{t-1}, (x_t - mu_{t-1})^2) for t = 1..n; both unchanged by x -> 1 - x."""
        mu_prev, sig2_prev = _predictable_moments(self.x)
        return sig2_prev, (self.x - mu_prev) ** 2

    def reflected(self):
        """Summary of 1 - x (same variance, same predictable variances)."""
        if self.x is None:
            return _Summary(self.n, 1.0 - self.mean, self.var)
        mirror = _Summary(self.n, 1.0 - self.mean, self.var, 1.0 - self.x)
        if "predictable" in self.__dict__:
            mirror.__dict__["predictable"] = self.predictable
        return mirror


# Each lower bound takes log_inv = ln(1/delta') (> 0), the level as a logarithm, so that no
# delta' underflows (delta = 5e-324 halved is 0.0 in floating point, its logarithm is not).

def _hoeffding_lower(s, log_inv):
    """Hoeffding (1963), Thm 2: P(mean - E X >= t) <= exp(-2 n t^2) for X in [0, 1]."""
    return s.mean - math.sqrt(log_inv / (2.0 * s.n))


def _bernstein_lower(s, log_inv):
    """Maurer and Pontil (2009), Thm 4: with probability >= 1 - delta, for X in [0, 1],
    E X >= mean - sqrt(2 V ln(2/delta) / n) - 7 ln(2/delta) / (3 (n - 1)), V unbiased variance."""
    if s.n < 2:
        return 0.0
    log_term = math.log(2.0) + log_inv
    return s.mean - math.sqrt(2.0 * s.var * log_term / s.n) - 7.0 * log_term / (3.0 * (s.n - 1))


def _predictable_moments(x):
    """Predictable estimates (mu_{t-1}, sigma^2_{t-1}) for t = 1..n.

    mu_t = (1/2 + sum_{i<=t} x_i) / (t + 1) and sigma^2_t = (1/4 + sum_{i<=t} (x_i - mu_i)^2) / (t + 1),
    as in Waudby-Smith and Ramdas (2024), Sec. 3 (predictable plug-in).
    """
    t = np.arange(2, x.size + 2, dtype=np.float64)
    mu = (0.5 + np.cumsum(x)) / t
    sig2 = (0.25 + np.cumsum((x - mu) ** 2)) / t
    mu_prev = np.concatenate(([0.5], mu[:-1]))
    sig2_prev = np.concatenate(([0.25], sig2[:-1]))
    return mu_prev, sig2_prev


def _prpl_eb_lower(s, log_inv):
    """Predictable plug-in empirical Bernstein (Waudby-Smith and Ramdas 2024, Thm 2).

    Lower bound_t = (sum lam_i x_i - ln(1/delta) - sum (x_i - mu_{i-1})^2 psi(lam_i)) / sum lam_i,
    psi(lam) = -ln(1 - lam) - lam, bets lam_i = min(c, sqrt(2 ln(1/delta) / (n sigma^2_{i-1})))
    (their fixed-n tuning). The bounds form a confidence sequence, so their maximum over
    t <= n is valid too.
    """
    sig2_prev, sq_dev = s.predictable
    lam = np.minimum(_BET_CAP, np.sqrt(2.0 * log_inv / (s.n * sig2_prev)))
    penalty = np.cumsum(sq_dev * (-np.log1p(-lam) - lam))
    return float(np.max((np.cumsum(lam * s.x) - log_inv - penalty) / np.cumsum(lam)))


def _max_partial_sum(v, checkpoints=1024):
    """max_t sum_{i<=t} v_i over t in {B, 2B, ..., n} (every t when n <= 4 checkpoints).

    Taking the maximum over fewer times keeps Ville's inequality valid (it holds for the
    supremum over all t) and costs one fast block reduction instead of a full cumsum.
    """
    if v.size <= 4 * checkpoints:
        return float(np.max(np.cumsum(v)))
    block = v.size // checkpoints
    head = block * checkpoints
    partial = np.cumsum(v[:head].reshape(checkpoints, block).sum(axis=1))
    return max(float(partial.max()), float(partial[-1] + v[head:].sum()))


def _betting_lower(s, log_inv):
    """Betting lower bound (Waudby-Smith and Ramdas 2024, capital process K^+, Sec. 4-5).

    For a candidate mean m the capital K_t(m) = prod_{i<=t} (1 + lam_i(m) (x_i - m)), with
    predictable bets lam_i(m) = min(sqrt(2 ln(1/delta) / (n sigma^2_{i-1})), c / m), is a
    nonnegative martingale when E X = m, so by Ville's inequality
    P(max_{t<=n} K_t(m) >= 1/delta) <= delta (the maximum is taken over at most ~1024
    checkpoints, see :func:`_max_partial_sum`). The confidence set {m : max_t K_t(m) < 1/delta}
    is [L, 1] since K_t(m) decreases in m; L is found by Brent's method on
    m -> max_t ln K_t(m) - ln(1/delta), then moved outwards until the returned point is
    certified rejected, so the numerical tolerance never costs coverage.
    """
    x = s.x
    lam = np.sqrt(2.0 * log_inv / (s.n * s.predictable[0]))
    lam_max = float(np.max(lam))
    buffer = np.empty_like(x)

    def excess(m):  # >= 0 iff the candidate m is rejected; one pass, no temporaries
        np.subtract(x, m, out=buffer)
        if m > 0 and _BET_CAP / m < lam_max:
            np.multiply(buffer, np.minimum(lam, _BET_CAP / m), out=buffer)
        else:
            np.multiply(buffer, lam, out=buffer)
        np.log1p(buffer, out=buffer)
        return _max_partial_sum(buffer) - log_inv

    if excess(0.0) < 0:
        return 0.0
    hi = s.mean if excess(s.mean) < 0 else 1.0  # excess(1) < 0: every factor is <= 1 there
    xtol = 1e-5 * math.sqrt(log_inv / (2.0 * s.n)) + 1e-15
    root = optimize.brentq(excess, 0.0, hi, xtol=xtol)
    step = xtol
    low = root - step
    while low > 0 and excess(low) < 0:
        step *= 4
        low = root - step
    return max(low, 0.0)


_LOWER_BOUNDS = {
    "betting": _betting_lower,
    "prpl-eb": _prpl_eb_lower,
    "bernstein": _bernstein_lower,
    "hoeffding": _hoeffding_lower,
}


def to_unit(x, lower, upper):
    """(x - lower) / (upper - lower), without overflow for any finite lower < upper."""
    scale = upper - lower
    if math.isfinite(scale):
        return (x - lower) / scale
    return (x / 2 - lower / 2) / (upper / 2 - lower / 2)  # halves: no term exceeds the range


def from_unit(u, lower, upper):
    """lower + (upper - lower) u for u in [0, 1], without overflow (the inverse of to_unit)."""
    scale = upper - lower
    if math.isfinite(scale):
        return lower + scale * u
    return lower * (1.0 - u) + upper * u  # a convex combination stays within [lower, upper]


def _interval(summary, *, lower, upper, delta, method, alternative, details=None,
              log_delta=None):
    """Assemble a :class:`MeanInterval` from one-sided bounds on the rescaled summary.

    ``log_delta`` (default ln(delta)) is the level as a logarithm; callers that split a tiny
    delta (Bonferroni, looks of a sequential test) pass it so that nothing underflows."""
    log_delta = math.log(delta) if log_delta is None else log_delta
    log_inv = -log_delta + (math.log(2.0) if alternative == "two-sided" else 0.0)
    bound = _LOWER_BOUNDS[method]
    lo = bound(summary, log_inv) if alternative != "less" else 0.0
    hi = 1.0 - bound(summary.reflected(), log_inv) if alternative != "greater" else 1.0
    lo, hi = min(max(lo, 0.0), 1.0), min(max(hi, 0.0), 1.0)
    return MeanInterval(low=from_unit(lo, lower, upper), high=from_unit(hi, lower, upper),
                        n=summary.n, delta=delta, method=method, alternative=alternative,
                        mean=from_unit(summary.mean, lower, upper), details=details or {})


def _common_iv(lower, upper, delta, method, alternative, methods):
    lower, upper = check_range(lower, upper)
    return (lower, upper, check_probability("delta", delta), check_choice("method", method, methods),
            check_choice("alternative", alternative, ALTERNATIVES))


def _mean_interval_iv(values, lower, upper, delta, method, alternative, name="values"):
    lower, upper, delta, method, alternative = _common_iv(lower, upper, delta, method,
                                                          alternative, METHODS)
    x = check_sample(name, values)
    check_within(name, x, lower, upper)
    return x, lower, upper, delta, method, alternative


def mean_interval(values, *, lower, upper, delta, method="betting", alternative="two-sided"):
    r"""Confidence interval for the mean of i.i.d. draws with a known range.

    Parameters
    ----------
    values : array_like, shape (n,)
        I.i.d. draws of a variable Z with ``lower <= Z <= upper`` almost surely.
    lower, upper : float
        The declared range (an assumption, checked against the data).
    delta : float
        Miscoverage probability, 0 < delta < 1.
    method : {"betting", "prpl-eb", "bernstein", "hoeffding"}
        See Notes. Default ``"betting"``.
    alternative : {"two-sided", "greater", "less"}
        ``"greater"`` gives a lower confidence bound (``high = upper``), ``"less"`` an upper
        confidence bound (``low = lower``).

    Returns
    -------
    MeanInterval
        ``P(low <= E[Z] <= high) >= 1 - delta`` for every distribution on [lower, upper].

    Raises
    ------
    InvalidParameterError
        ``lower`` >= ``upper`` or not finite, ``delta`` outside (0, 1), an unknown ``method`` or
        ``alternative``, ``values`` empty, not finite, or outside [lower, upper].

    Notes
    -----
    The data are rescaled to X = (Z - lower) / (upper - lower) in [0, 1]. Each method gives a
    one-sided lower bound at level delta' (delta' = delta/2 for two-sided intervals, else delta);
    upper bounds apply it to 1 - X.

    * ``"hoeffding"``: mean - sqrt(ln(1/delta') / (2n)) ([1], Thm 2). Ignores the variance.
    * ``"bernstein"``: mean - sqrt(2 V ln(2/delta') / n) - 7 ln(2/delta') / (3(n-1)), with V the
      unbiased sample variance ([2], Thm 4). Wider than Hoeffding for small n.
    * ``"prpl-eb"``: predictable plug-in empirical Bernstein ([3], Thm 2 with the fixed-n bets).
    * ``"betting"``: inverts the capital process of [3] (the hedged capital process with
      theta = 1/2 for two-sided intervals, which is the intersection of the two one-sided
      sets at delta/2), with bets min(sqrt(2 ln(1/delta') / (n sigma^2_{t-1})), c/m), c = 1/2,
      and Ville's inequality over t <= n. The boundary is found by Brent's method on the log
      capital and certified on the rejected side. Cost: about 20 passes over the data.

    All four are valid for every n and every distribution on the range; "betting" is the
    narrowest in practice, especially for low-variance data.

    References
    ----------
    .. [1] W. Hoeffding, "Probability inequalities for sums of bounded random variables",
       JASA 58 (1963), Theorem 2.
    .. [2] A. Maurer and M. Pontil, "Empirical Bernstein bounds and sample variance
       penalization", COLT 2009, Theorem 4.
    .. [3] I. Waudby-Smith and A. Ramdas, "Estimating means of bounded random variables by
       betting", JRSS-B 86(1) (2024) 1-27 (arXiv:2010.09686): Theorem 2 (PrPl-EB), the
       hedged capital process (Theorem 3) and the fixed-n bets of their Sec. 5.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> ci = mean_interval(rng.random(1000) < 0.1, lower=0, upper=1, delta=1e-6)
    >>> ci.contains(0.1)
    True
    """
    x, lower, upper, delta, method, alternative = _mean_interval_iv(values, lower, upper, delta,
                                                                    method, alternative)
    return _interval(_Summary.of(to_unit(x, lower, upper)), lower=lower, upper=upper,
                     delta=delta, method=method, alternative=alternative)


#: Largest sample size the sum-based and design functions accept (numpy's largest index).
MAX_N = 2 ** 63 - 1


def _sum_statistics(n, total, total_sq, lower, upper, *, names=("total", "total_sq")):
    """(mean, variance) of the draws rescaled to [0, 1], from n, their sum and sum of squares.

    ``total_sq`` may be +inf (a sum of squares that overflowed): the variance is then unknown and
    the largest one possible on the range is used, with the reason in ``details``. Returns
    ``(mean_u, var_u, details)``."""
    total_name, sq_name = names
    for name, value in ((total_name, total), (sq_name, 0.0 if total_sq is None else total_sq)):
        if not isinstance(value, numbers.Real) or isinstance(value, (bool, np.bool_)):
            fail(name, value, "be a real number")
    if not math.isfinite(total):
        fail(total_name, total, "be finite (accumulate Z - lower, or any shift near the mean, "
             "if the sum overflows)")
    if total_sq is not None and (math.isnan(total_sq) or total_sq == -math.inf):
        fail(sq_name, total_sq, "be a number >= 0 (+inf when the sum of squares overflowed)")
    mean = total / n
    slack = 1e-9 * (abs(lower) + abs(upper))
    if not lower - slack <= mean <= upper + slack:
        fail(total_name, total, f"satisfy lower <= {total_name} / n <= upper with n={n}, "
             f"lower={lower}, upper={upper}")
    mean_u = min(max(to_unit(min(max(mean, lower), upper), lower, upper), 0.0), 1.0)
    details = {}
    max_var_u = 0.25 * n / max(n - 1, 1)  # the largest sample variance of data in [0, 1]
    if n < 2 or total_sq is None:  # no variance needed (one draw, or Hoeffding without sums)
        return mean_u, 0.0, details
    if total_sq == math.inf:
        details["variance"] = (f"{sq_name} overflowed (+inf): the largest variance on the range "
                               "is used")
        return mean_u, max_var_u, details
    scale = upper - lower
    with np.errstate(over="ignore", invalid="ignore"):
        var = (total_sq - total * mean) / (n - 1)
        var_u, bad = var / scale ** 2, -1e-9 * (total_sq / n + scale ** 2)
    if not (math.isfinite(var_u) and math.isfinite(bad)):
        # total * mean or scale**2 overflowed: the same formula on halved, rescaled figures
        half = upper / 2 - lower / 2
        second = (total_sq / n) / half / half
        var_u = (second - (mean / half) ** 2) / 4 * n / (n - 1)
        bad = -1e-9 * (second / 4 + 1.0)
        var_unit = var_u
    else:
        var_unit, bad = var_u, bad / scale ** 2
    if var_unit < bad:
        fail(sq_name, total_sq, f"satisfy {sq_name} >= {total_name}**2 / n ({total_name}={total}, "
             f"n={n})")
    return mean_u, min(max(var_unit, 0.0), max_var_u), details


def _mean_interval_from_sums_iv(n, total, total_sq, lower, upper, delta, method, alternative):
    lower, upper, delta, method, alternative = _common_iv(lower, upper, delta, method,
                                                          alternative, SUM_METHODS)
    n = check_count("n", n, maximum=MAX_N)
    if total_sq is None:
        if method != "hoeffding":
            fail("total_sq", total_sq, f"be given for method={method!r}")
    mean_u, var_u, details = _sum_statistics(n, total, total_sq, lower, upper)
    return n, mean_u, var_u, details, lower, upper, delta, method, alternative


def mean_interval_from_sums(n, total, total_sq=None, *, lower, upper, delta, method="bernstein",
                            alternative="two-sided"):
    r"""Confidence interval for a mean from running sums, without a pass over the data.

    Parameters
    ----------
    n : int
        Number of i.i.d. draws accumulated.
    total : float
        Sum of the draws.
    total_sq : float, optional
        Sum of their squares (needed by ``"bernstein"``).
    lower, upper : float
        The declared range of the draws, as in :func:`mean_interval`.
    delta : float
        Miscoverage probability, 0 < delta < 1.
    method : {"bernstein", "hoeffding"}
        Methods that need only (n, sum, sum of squares). Default ``"bernstein"``.
    alternative : {"two-sided", "greater", "less"}
        As in :func:`mean_interval`.

    Returns
    -------
    MeanInterval
        The interval, with the method, level and sidedness it was computed at.

    Raises
    ------
    InvalidParameterError
        ``n`` not an integer in [1, 2**63 - 1], a non-finite ``total``, ``total_sq`` missing for
        ``"bernstein"`` or smaller than total**2 / n, total / n outside [lower, upper], or a bad
        ``lower``, ``upper``, ``delta``, ``method`` or ``alternative`` (as :func:`mean_interval`).

    Notes
    -----
    Identical to :func:`mean_interval` with the same method (Hoeffding [1], Maurer-Pontil
    empirical Bernstein [2]) given the sample variance V = (total_sq - total^2/n) / (n - 1).
    Cost O(1): made for kernels that accumulate sums over n = 1e8 draws. The subtraction loses
    precision when the mean is large compared with the spread; accumulate Z - lower (or any
    shift near the mean) for best accuracy. V is clipped to [0, (upper-lower)^2 n / (4(n-1))],
    the range of the sample variance of data in [lower, upper]; a ``total_sq`` of +inf (a sum
    of squares that overflowed) takes that largest value, and ``details["variance"]`` says so.
    Valid range: 1 <= n <= 2**63 - 1, finite ``total``, any finite ``lower < upper``.

    References
    ----------
    .. [1] W. Hoeffding, JASA 58 (1963), Theorem 2.
    .. [2] A. Maurer and M. Pontil, COLT 2009, Theorem 4.
    """
    n, mean_u, var_u, details, lower, upper, delta, method, alternative = \
        _mean_interval_from_sums_iv(n, total, total_sq, lower, upper, delta, method, alternative)
    return _interval(_Summary(n, mean_u, var_u), lower=lower, upper=upper, delta=delta,
                     method=method, alternative=alternative, details=details)
