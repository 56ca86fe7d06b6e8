"""Tests that a sampler draws from a claimed distribution, and two-sample tests.

Each test has a stated false-failure probability ``delta``: when the claim is true, the test
returns ``"FAIL"`` with probability at most ``delta``, exactly (no asymptotic approximation).

Numerically valid range: every 0 < delta < 1 (thresholds use ln(1/delta), so delta = 5e-324
works; a Bonferroni share that underflows to 0 only makes a test more conservative), counts
up to 2**63 - 1 in total, samples of finite numbers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

import numpy as np
from scipy import special, stats

from .._validation import check_choice, check_count, check_probability, check_sample, fail
from .intervals import _interval, _mean_interval_iv, _Summary, to_unit

__all__ = ["CategoricalTestResult", "TwoSampleResult", "multinomial_test", "two_sample_test",
           "two_sample_ks_test", "two_sample_mean_test", "clopper_pearson"]


@dataclass(frozen=True, eq=False, repr=False)
class CategoricalTestResult:
    """Decision on counts of sampled categories.

    Returned by :func:`multinomial_test` and :func:`two_sample_test`; each parameter is an
    attribute of the same name.

    Parameters
    ----------
    status : {"PASS", "FAIL"}
        ``"FAIL"`` means the claim is refuted; its probability under the claim is <= delta.
    delta : float
        The false-failure probability of the test (the probability of ``"FAIL"`` when the
        claim holds).
    method : str
        The test's name.
    n : int or tuple of int
        Number of draws (per sample for two-sample tests).
    statistic, threshold : float
        The test statistic and the value above which the test fails.
    worst_category : int
        The category closest to (or farthest past) rejection.
    worst_discrepancy : float
        Signed difference of frequencies at ``worst_category`` (observed - claimed, or a - b).
    low, high : ndarray or None
        Simultaneous per-category intervals for the true probabilities (one-sample tests).
    pvalues : ndarray or None
        Per-category p-values (two-sample test), to be compared with delta / K.
    detectable : float
        With probability >= 1 - delta, any category whose probability differs from the claim
        by more than this would have been flagged (the widest realised interval; NaN if none).
    """

    status: str
    delta: float
    method: str
    n: Any
    statistic: float
    threshold: float
    worst_category: int
    worst_discrepancy: float
    low: np.ndarray | None = None
    high: np.ndarray | None = None
    pvalues: np.ndarray | None = None
    detectable: float = math.nan

    @property
    def passed(self) -> bool:
        return self.status == "PASS"

    def __repr__(self):
        return (f"CategoricalTestResult(status={self.status!r}, method={self.method!r}, "
                f"n={self.n}, delta={self.delta:g}, statistic={self.statistic:.6g}, "
                f"threshold={self.threshold:.6g}, worst_category={self.worst_category}, "
                f"worst_discrepancy={self.worst_discrepancy:.6g})")


@dataclass(frozen=True, repr=False)
class TwoSampleResult:
    """Decision of a two-sample test on real-valued samples.

    Returned by :func:`two_sample_ks_test` and :func:`two_sample_mean_test`; each parameter is
    an attribute of the same name.

    Parameters
    ----------
    status : {"PASS", "FAIL"}
        ``"FAIL"``: the two samples do not come from the same distribution (probability <= delta
        when they do).
    delta : float
        The false-failure probability of the test.
    method : str
        The test's name.
    n : tuple of int
        The two sample sizes.
    statistic, threshold : float
        FAIL iff statistic > threshold.
    detectable : float
        The discrepancy (sup-distance of CDFs, or difference of means) above which a failure is
        guaranteed with probability >= 1 - delta, given these sample sizes.
    details : Mapping
        Method-specific figures (read-only); not compared.
    """

    status: str
    delta: float
    method: str
    n: tuple
    statistic: float
    threshold: float
    detectable: float
    details: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "details", MappingProxyType(dict(self.details)))

    @property
    def passed(self) -> bool:
        return self.status == "PASS"

    def __repr__(self):
        return (f"TwoSampleResult(status={self.status!r}, method={self.method!r}, n={self.n}, "
                f"delta={self.delta:g}, statistic={self.statistic:.6g}, "
                f"threshold={self.threshold:.6g}, detectable={self.detectable:.6g})")


def _status(failed):
    return "FAIL" if failed else "PASS"


def _counts_iv(counts, name):
    try:
        arr = np.asarray(counts)
        if arr.dtype.kind not in "biuf":
            raise TypeError
        arr = arr.astype(np.float64)
    except (TypeError, ValueError):
        fail(name, type(counts).__name__, "be convertible to a 1-D array of counts")
    if (arr.ndim != 1 or arr.size == 0 or not np.all(np.isfinite(arr)) or np.any(arr < 0)
            or np.any(arr != np.round(arr))):
        fail(name, counts if arr.size <= 10 else f"<array of shape {arr.shape}>",
             "be a nonempty 1-D array of nonnegative integers")
    if arr.sum() < 1:
        fail(name, counts if arr.size <= 10 else "<array of zeros>", "contain at least one draw")
    if not arr.sum() < 2.0 ** 63:
        fail(name, f"<array with sum {arr.sum():g}>", "sum to less than 2**63")
    return arr.astype(np.int64)


def _probs_iv(probs, size):
    try:
        p = np.asarray(probs)
        if p.dtype.kind not in "biuf":
            raise TypeError
        p = p.astype(np.float64)
    except (TypeError, ValueError):
        fail("probs", type(probs).__name__, "be convertible to a 1-D float array")
    shown = probs if p.size <= 10 else f"<array of shape {p.shape}>"
    if p.shape != (size,):
        fail("probs", shown, f"have one entry per category (shape ({size},))")
    if not np.all(np.isfinite(p)) or np.any(p < 0) or abs(p.sum() - 1.0) > 1e-9:
        fail("probs", shown, "be finite, nonnegative and sum to 1 (within 1e-9)")
    return p


def _clopper_pearson_iv(counts, n, alpha):
    n = check_count("n", n, maximum=2 ** 63 - 1)
    if not isinstance(alpha, (int, float, np.integer, np.floating)) or isinstance(
            alpha, (bool, np.bool_)) or not 0 <= alpha <= 1:
        fail("alpha", alpha, "satisfy 0 <= alpha <= 1")
    try:
        c = np.asarray(counts)
        if c.dtype.kind not in "biuf":
            raise TypeError
        c = c.astype(np.float64)
    except (TypeError, ValueError):
        fail("counts", counts, "be an array of integers")
    shown = counts if c.size <= 10 else f"<array of shape {c.shape}>"
    if not (np.all(np.isfinite(c)) and np.all(c == np.round(c))):
        fail("counts", shown, "be integers (no NaN, inf or fractions)")
    if np.any(c < 0) or np.any(c > n):
        fail("counts", shown, f"satisfy 0 <= counts <= n with n={n}")
    return c, n, float(alpha)


def clopper_pearson(counts, n, alpha):
    """Exact two-sided Clopper-Pearson intervals (vectorised) at level 1 - alpha.

    Parameters
    ----------
    counts : array_like of int
        Successes, each an integer with 0 <= count <= n.
    n : int
        Trials, 1 <= n <= 2**63 - 1.
    alpha : float
        Miscoverage of each interval, 0 <= alpha <= 1 (alpha = 0 gives [0, 1]; an alpha that
        underflowed from a Bonferroni split is therefore safe).

    Returns
    -------
    low : ndarray
        Lower ends, finite, with 0 <= low <= count / n.
    high : ndarray
        Upper ends, finite, with count / n <= high <= 1.

    Raises
    ------
    InvalidParameterError
        ``n`` not an integer in [1, 2**63 - 1], ``alpha`` outside [0, 1], or ``counts`` not
        integers in [0, n].

    Notes
    -----
    low = Beta^{-1}(alpha/2; c, n - c + 1), high = Beta^{-1}(1 - alpha/2; c + 1, n - c), with
    low = 0 when c = 0 and high = 1 when c = n ([1]; the "exact" method of
    ``scipy.stats.binomtest(...).proportion_ci``).

    References
    ----------
    .. [1] C. J. Clopper and E. S. Pearson, "The use of confidence or fiducial limits
       illustrated in the case of the binomial", Biometrika 26 (1934).
    """
    c, n, alpha = _clopper_pearson_iv(counts, n, alpha)
    with np.errstate(all="ignore"):
        low = np.where(c > 0, special.betaincinv(c, n - c + 1, alpha / 2), 0.0)
        high = np.where(c < n, special.betaincinv(c + 1, n - c, 1 - alpha / 2), 1.0)
    return low, high


def _multinomial_test_iv(counts, probs, delta, method):
    counts = _counts_iv(counts, "counts")
    return (counts, _probs_iv(probs, counts.size), check_probability("delta", delta),
            check_choice("method", method, ("binomial", "gtest")))


def multinomial_test(counts, probs, *, delta, method="binomial"):
    r"""Test that category counts come from the claimed probabilities.

    Parameters
    ----------
    counts : array_like of int, shape (K,)
        Number of draws that fell in each category (N = sum of counts draws in total).
    probs : array_like, shape (K,)
        Claimed probabilities (nonnegative, summing to 1).
    delta : float
        False-failure probability: P(FAIL) <= delta when the draws are i.i.d. from ``probs``.
    method : {"binomial", "gtest"}
        ``"binomial"`` (default): exact per-category intervals with Bonferroni. ``"gtest"``: the
        likelihood-ratio statistic G = 2 sum c_i ln(c_i / (N p_i)) with a finite-sample
        threshold from the method of types.

    Returns
    -------
    CategoricalTestResult
        With the simultaneous per-category Clopper-Pearson intervals ``low``, ``high`` (at
        delta / K each) whichever method decides.

    Raises
    ------
    InvalidParameterError
        ``counts`` not a nonempty 1-d array of nonnegative integers with at least one draw,
        ``probs`` not one finite nonnegative entry per category summing to 1, ``delta`` outside
        (0, 1), or an unknown ``method``.

    Notes
    -----
    ``"binomial"``: each count c_i ~ Binomial(N, p_i); the Clopper-Pearson interval [1] at
    level delta / K covers p_i with probability >= 1 - delta / K, so all K cover with
    probability >= 1 - delta (Bonferroni). FAIL iff some claimed p_i lies outside its interval.
    A category with p_i = 0 fails as soon as it is drawn. Strong against a few badly wrong
    categories.

    ``"gtest"``: G = 2 N D(p_hat || p). With K' categories of positive claimed probability,
    each type (empirical distribution) T has P(p_hat = T) <= exp(-N D(T || p)) and there are
    binom(N + K' - 1, K' - 1) types ([2], Thms 11.1.1 and 11.1.4), so
    P(D(p_hat || p) >= t) <= binom(N + K' - 1, K' - 1) exp(-N t). FAIL iff
    G > 2 (ln binom(N + K' - 1, K' - 1) + ln(1/delta)). Rigorous for every N (no chi-squared
    approximation) but conservative when K' is large; sensitive to many small discrepancies.

    References
    ----------
    .. [1] C. J. Clopper and E. S. Pearson, Biometrika 26 (1934).
    .. [2] T. M. Cover and J. A. Thomas, "Elements of Information Theory", 2nd ed. (2006),
       Theorems 11.1.1 and 11.1.4.
    """
    counts, p, delta, method = _multinomial_test_iv(counts, probs, delta, method)
    total, size = int(counts.sum()), counts.size
    freq = counts / total
    low, high = clopper_pearson(counts, total, delta / size)
    # distance of each claimed probability outside its interval, scaled by the interval side
    side = np.where(p < freq, freq - low, high - freq)
    with np.errstate(divide="ignore", invalid="ignore"):
        closeness = np.where(side > 0, np.abs(freq - p) / side, np.inf)
    worst = int(np.argmax(closeness))
    outside = np.maximum(low - p, p - high).clip(min=0.0)
    common = dict(delta=delta, n=total, worst_category=worst,
                  worst_discrepancy=float(freq[worst] - p[worst]), low=low, high=high,
                  detectable=float(np.max(high - low)))
    if method == "binomial":
        stat = float(np.max(outside))
        return CategoricalTestResult(status=_status(stat > 0), method=method, statistic=stat,
                                     threshold=0.0, **common)
    support = p > 0
    if np.any(counts[~support] > 0):
        stat = math.inf
    else:
        c, q = counts[support], p[support]
        nz = c > 0
        stat = float(2.0 * np.sum(c[nz] * np.log(c[nz] / (total * q[nz]))))
    k = int(support.sum())
    log_types = special.gammaln(total + k) - special.gammaln(k) - special.gammaln(total + 1)
    threshold = float(2.0 * (log_types - math.log(delta)))
    return CategoricalTestResult(status=_status(stat > threshold), method=method,
                                 statistic=stat, threshold=threshold, **common)


def _two_sample_test_iv(counts_a, counts_b, delta):
    a, b = _counts_iv(counts_a, "counts_a"), _counts_iv(counts_b, "counts_b")
    if a.shape != b.shape:
        fail("counts_b", f"<array of shape {b.shape}>", f"have the shape of `counts_a` {a.shape}")
    return a, b, check_probability("delta", delta)


def two_sample_test(counts_a, counts_b, *, delta):
    r"""Test that two samplers draw from the same categorical distribution.

    Parameters
    ----------
    counts_a, counts_b : array_like of int, shape (K,)
        Category counts of N_a i.i.d. draws from sampler A and N_b from sampler B.
    delta : float
        False-failure probability when A and B have the same distribution.

    Returns
    -------
    CategoricalTestResult
        ``pvalues`` per category; ``worst_discrepancy`` = frequency in A - frequency in B at the
        category with the smallest p-value.

    Raises
    ------
    InvalidParameterError
        ``counts_a`` or ``counts_b`` not a nonempty 1-d array of nonnegative integers with at
        least one draw, the two of different shapes, or ``delta`` outside (0, 1).

    Notes
    -----
    Under the null, given the pooled counts t_i = a_i + b_i the A/B labels of the
    N_a + N_b draws are exchangeable, so a_i | t ~ Hypergeometric(N_a + N_b, N_a, t_i)
    exactly (Fisher's exact conditional test [1]). The per-category p-value is
    min(1, 2 min(P(X <= a_i), P(X >= a_i))), valid (conservative). With K' = #{i : t_i > 0}
    (fixed given t), FAIL iff some p-value <= delta / K' (Bonferroni).

    References
    ----------
    .. [1] R. A. Fisher, "Statistical Methods for Research Workers", 5th ed. (1934), Sec. 21.02;
       E. L. Lehmann and J. P. Romano, "Testing Statistical Hypotheses", 3rd ed. (2005),
       Sec. 4.5.
    """
    a, b, delta = _two_sample_test_iv(counts_a, counts_b, delta)
    n_a, n_b = int(a.sum()), int(b.sum())
    t = a + b
    occupied = t > 0
    dist = stats.hypergeom(n_a + n_b, n_a, t)
    pvalues = np.minimum(1.0, 2.0 * np.minimum(dist.cdf(a), dist.sf(a - 1)))
    pvalues = np.where(occupied, pvalues, 1.0)
    threshold = delta / int(occupied.sum())
    worst = int(np.argmin(pvalues))
    return CategoricalTestResult(status=_status(pvalues[worst] <= threshold), delta=delta,
                                 method="fisher-bonferroni", n=(n_a, n_b),
                                 statistic=float(pvalues[worst]), threshold=threshold,
                                 worst_category=worst,
                                 worst_discrepancy=float(a[worst] / n_a - b[worst] / n_b),
                                 pvalues=pvalues)


def dkw_radius(n, delta, *, log_delta=None):
    """Radius eps with P(sup |F_n - F| > eps) <= delta: sqrt(ln(2/delta) / (2n)) (Massart 1990).

    ``log_delta`` (default ln(delta)) gives the level as a logarithm (no underflow)."""
    log_delta = math.log(delta) if log_delta is None else log_delta
    return math.sqrt((math.log(2.0) - log_delta) / (2.0 * n))


def two_sample_ks_test(a, b, *, delta):
    r"""Test that two real-valued samples have the same distribution (Kolmogorov-Smirnov, DKW).

    Parameters
    ----------
    a, b : array_like, shape (n_a,), (n_b,)
        I.i.d. samples (any distributions, continuous or not, no range needed).
    delta : float
        False-failure probability when both come from the same distribution.

    Returns
    -------
    TwoSampleResult
        ``statistic`` = sup_x |F_a(x) - F_b(x)|, ``threshold`` = eps_a + eps_b.

    Raises
    ------
    InvalidParameterError
        ``a`` or ``b`` not a nonempty 1-d array of finite numbers, or ``delta`` outside (0, 1).

    Notes
    -----
    By the Dvoretzky-Kiefer-Wolfowitz inequality with Massart's constant [1],
    P(sup |F_n - F| > eps) <= 2 exp(-2 n eps^2); with eps_s = sqrt(ln(4/delta) / (2 n_s)) each
    empirical CDF is within eps_s of the common F with probability >= 1 - delta/2, so
    sup |F_a - F_b| <= eps_a + eps_b with probability >= 1 - delta. When the true CDFs differ
    by more than 2 (eps_a + eps_b) somewhere the test fails with probability >= 1 - delta
    (``detectable``).

    References
    ----------
    .. [1] P. Massart, "The tight constant in the Dvoretzky-Kiefer-Wolfowitz inequality",
       Ann. Probab. 18(3) (1990), Theorem 1.
    """
    delta = check_probability("delta", delta)
    a, b = check_sample("a", a), check_sample("b", b)
    # the two-sided KS statistic sup |F_a - F_b|, attained at a pooled data point; computed
    # here because scipy's ks_2samp also computes a p-value (not needed: the DKW threshold
    # decides), which warns on tiny samples
    pooled = np.concatenate([a, b])
    f_a = np.searchsorted(np.sort(a), pooled, side="right") / a.size
    f_b = np.searchsorted(np.sort(b), pooled, side="right") / b.size
    statistic = float(np.max(np.abs(f_a - f_b)))
    log_half = math.log(delta) - math.log(2.0)
    threshold = (dkw_radius(a.size, delta / 2, log_delta=log_half)
                 + dkw_radius(b.size, delta / 2, log_delta=log_half))
    return TwoSampleResult(status=_status(statistic > threshold), delta=delta, method="ks-dkw",
                           n=(a.size, b.size), statistic=statistic, threshold=threshold,
                           detectable=2 * threshold)


def two_sample_mean_test(a, b, *, lower, upper, delta, method="betting"):
    r"""Test that two bounded samples have the same mean.

    Parameters
    ----------
    a, b : array_like
        I.i.d. samples with values in [lower, upper].
    lower, upper : float
        Declared range.
    delta : float
        False-failure probability when E a = E b.
    method : str
        Interval method of :func:`~laocheck.stats.mean_interval`. Default ``"betting"``.

    Returns
    -------
    TwoSampleResult
        ``statistic`` = gap between the two intervals (positive iff disjoint), ``threshold`` 0;
        ``details`` holds both intervals.

    Raises
    ------
    InvalidParameterError
        A sample empty, not finite or outside [lower, upper], or a bad ``lower``, ``upper``,
        ``delta`` or ``method`` (as :func:`~laocheck.stats.mean_interval`).

    Notes
    -----
    Each mean gets a two-sided interval at delta / 2; if the means are equal both intervals
    contain it with probability >= 1 - delta, so they intersect. FAIL iff they are disjoint.
    ``detectable`` = the sum of the two widths: a larger difference of means always separates
    the intervals when both cover.

    References
    ----------
    .. [1] I. Waudby-Smith and A. Ramdas, JRSS-B 86(1) (2024) (default method); see
       :func:`~laocheck.stats.mean_interval` for the others.
    """
    a, lower, upper, delta, method, _ = _mean_interval_iv(a, lower, upper, delta, method,
                                                          "two-sided", name="a")
    b = _mean_interval_iv(b, lower, upper, delta, method, "two-sided", name="b")[0]
    # each interval at delta / 2, its level carried as a logarithm (no underflow)
    ia, ib = (_interval(_Summary.of(to_unit(x, lower, upper)), lower=lower, upper=upper,
                        delta=delta / 2, method=method, alternative="two-sided",
                        log_delta=math.log(delta) - math.log(2.0)) for x in (a, b))
    gap = max(ia.low - ib.high, ib.low - ia.high)
    return TwoSampleResult(status=_status(gap > 0), delta=delta, method=f"mean-{method}",
                           n=(ia.n, ib.n), statistic=float(gap), threshold=0.0,
                           detectable=ia.width + ib.width,
                           details={"interval_a": ia, "interval_b": ib})
