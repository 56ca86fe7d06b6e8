"""Experiment design: the smallest detectable violation and the sample size to detect one.

Following TensorFlow Probability's ``statistical_testing`` triple, each mean test comes with
``assert_*`` (a decision on data, :mod:`laocheck.stats.assertions`),
:func:`detectable_violation` (``min_discrepancy_...``: what n draws can detect) and
:func:`required_samples` (``min_num_samples_...``: the draws needed to detect a violation).
Both functions here are deterministic. The power of a check as one factor F (the record's
``detects``, issue "every PASS is evidence") comes from :func:`factor_of_shift` (a mean or a
bound: the shift :func:`detectable_violation` gives, as a factor of the stated value) and
:func:`proportion_detectable_factor` (a probability under an exact Clopper-Pearson test).

"Detect" means: if the true mean differs from the tested value by ``epsilon`` (in the tested
direction), the interval of the given method at level delta excludes the tested value with
probability >= 1 - beta.

Numerically valid range: every 0 < delta, beta < 1 (levels are used through their logarithms),
1 <= n <= 2**63 - 1, any finite range, epsilon > 0 (an epsilon needing more than 1e15 draws is
refused with that reason).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special

from .._validation import (check_choice, check_count, check_positive, check_probability,
                           check_range, fail)
from .intervals import ALTERNATIVES, MAX_N
from .unbounded import median_of_means_blocks

__all__ = ["detectable_violation", "required_samples", "DESIGN_METHODS", "factor_of_shift",
           "proportion_detectable_factor"]

#: Methods with a sample-size calculation.
DESIGN_METHODS = ("betting", "prpl-eb", "bernstein", "hoeffding", "median-of-means")
_MAX_N = 10 ** 15


# The levels arrive as logarithms: log_side = ln(1/delta'), log_beta = ln(1/beta).

def _hoeffding_violation(n, scale, sigma2, log_side, log_beta):
    # interval radius at delta' + deviation of the sample mean at beta (both Hoeffding)
    return scale * (math.sqrt(log_side) + math.sqrt(log_beta)) / math.sqrt(2 * n)


def _bernstein_violation(n, scale, sigma2, log_side, log_beta):
    if n < 2:
        return math.inf
    log_d = math.log(2) + log_side  # Maurer-Pontil term, ln(2/delta')
    log_b = math.log(2) + log_beta  # beta/2 for the variance estimate, beta/2 for the mean
    sigma = math.sqrt(sigma2)
    # sqrt(V) <= sigma + scale sqrt(2 ln(2/beta) / (n-1)) w.p. >= 1 - beta/2 (MP09 Thm 10)
    sd_high = sigma + scale * math.sqrt(2 * log_b / (n - 1))
    radius = math.sqrt(2 * log_d / n) * sd_high + 7 * scale * log_d / (3 * (n - 1))
    # Bernstein: mean >= mu - sqrt(2 sigma^2 ln(2/beta) / n) - scale ln(2/beta) / (3n)
    deviation = math.sqrt(2 * sigma2 * log_b / n) + scale * log_b / (3 * n)
    return radius + deviation


def _mom_violation(n, scale, sigma2, delta, log_beta):
    blocks = median_of_means_blocks(delta)
    size = n // blocks
    fail_share = 0.5 - math.sqrt(log_beta / (2 * blocks))
    if size < 1 or fail_share <= 0:
        return math.inf
    # radius 2 sigma / sqrt(m) plus a deviation sigma / sqrt(m q) exceeded by the median with
    # probability <= exp(-2 k (1/2 - q)^2) = beta (Chebyshev per block, Hoeffding over blocks)
    sigma = math.sqrt(sigma2)
    return sigma * (2 + 1 / math.sqrt(fail_share)) / math.sqrt(size)


_VIOLATION = {
    "hoeffding": _hoeffding_violation,
    "bernstein": _bernstein_violation,
    # no finite-sample width guarantee exists for these two; their intervals are narrower than
    # Maurer-Pontil's in every calibration run, so its design is used (a heuristic, measured
    # by laocheck.stats.calibration).
    "betting": _bernstein_violation,
    "prpl-eb": _bernstein_violation,
}


def _design_iv(lower, upper, delta, beta, method, variance, alternative):
    delta = check_probability("delta", delta)
    beta = check_probability("beta", beta)
    method = check_choice("method", method, DESIGN_METHODS)
    alternative = check_choice("alternative", alternative, ALTERNATIVES)
    if method == "median-of-means":
        if variance is None:
            fail("variance", variance, "be given for method='median-of-means'")
        return None, check_positive("variance", variance), delta, beta, method, alternative
    lower, upper = check_range(lower, upper)
    scale = upper - lower
    if not math.isfinite(scale * scale):
        fail("upper", upper, f"satisfy (upper - lower)**2 < 1.8e308 (the largest double) with "
             f"lower={lower}: rescale the variable")
    if variance is None:
        variance = scale ** 2 / 4  # the largest variance on [lower, upper]
    else:
        variance = check_positive("variance", variance)
        if not variance <= scale ** 2 / 4:
            fail("variance", variance, f"satisfy 0 < variance <= (upper - lower)**2 / 4 = "
                 f"{scale ** 2 / 4}")
    return scale, float(variance), delta, beta, method, alternative


def _violation(n, scale, variance, delta, beta, method, alternative):
    if method == "median-of-means":
        return _mom_violation(n, scale, variance, delta, -math.log(beta))
    log_side = -math.log(delta) + (math.log(2) if alternative == "two-sided" else 0.0)
    return _VIOLATION[method](n, scale, variance, log_side, -math.log(beta))


def detectable_violation(n, *, lower=None, upper=None, delta, beta=0.1, method="bernstein",
                         variance=None, alternative="two-sided"):
    r"""Smallest mean shift that n draws detect with probability >= 1 - beta at level delta.

    Parameters
    ----------
    n : int
        Number of i.i.d. draws.
    lower, upper : float
        Declared range (not used by ``"median-of-means"``).
    delta : float
        Level of the interval (false-failure probability of the test).
    beta : float
        Allowed false-pass probability at the returned shift. Default 0.1.
    method : {"bernstein", "hoeffding", "betting", "prpl-eb", "median-of-means"}
    variance : float, optional
        Upper bound on Var Z; defaults to (upper - lower)^2 / 4 (required for median of means).
    alternative : {"two-sided", "greater", "less"}
        Sidedness of the interval used by the test.

    Returns
    -------
    float
        The shift epsilon(n): if |E Z - target| >= epsilon(n) (in the tested direction) the test fails
        with probability >= 1 - beta. Nonincreasing in n; ``inf`` if n is too small.

    Raises
    ------
    InvalidParameterError
        ``n`` not a positive integer, ``delta`` or ``beta`` outside (0, 1), an unknown
        ``method`` or ``alternative``, ``lower`` >= ``upper`` (or not finite), a ``variance``
        that is not in (0, (upper - lower)**2 / 4], or no ``variance`` for median of means.

    Notes
    -----
    With delta' = delta/2 (two-sided) or delta, R = upper - lower and sigma^2 = ``variance``:

    * Hoeffding [1]: epsilon = R (sqrt(ln(1/delta')) + sqrt(ln(1/beta))) / sqrt(2n): the
      interval radius plus the deviation of the sample mean exceeded with probability beta.
    * Maurer-Pontil empirical Bernstein [2]: the radius sqrt(2 V L / n) + 7 R L / (3(n-1)),
      L = ln(2/delta'), with sqrt(V) <= sigma + R sqrt(2 ln(2/beta) / (n-1)) (probability
      >= 1 - beta/2, [2] Thm 10), plus Bernstein's deviation of the mean at beta/2
      sqrt(2 sigma^2 ln(2/beta) / n) + R ln(2/beta) / (3n). A guarantee.
    * Betting and PrPl-EB [3]: no finite-sample width bound is known; the empirical-Bernstein
      figure is used as a conservative proxy, and the calibration script measures the power.
    * Median of means [4]: k = ceil(8 ln(1/delta)) blocks of size m = floor(n/k); radius
      2 sigma / sqrt(m) plus sigma / sqrt(m q), q = 1/2 - sqrt(ln(1/beta) / (2k)).

    References
    ----------
    .. [1] W. Hoeffding, JASA 58 (1963), Theorem 2.
    .. [2] A. Maurer and M. Pontil, COLT 2009, Theorems 4 and 10.
    .. [3] I. Waudby-Smith and A. Ramdas, JRSS-B 86(1) (2024).
    .. [4] G. Lugosi and S. Mendelson, Found. Comput. Math. 19 (2019), Theorem 2.
    """
    n = check_count("n", n, maximum=MAX_N)
    args = _design_iv(lower, upper, delta, beta, method, variance, alternative)
    return _violation(n, *args)


def required_samples(epsilon, *, lower=None, upper=None, delta, beta=0.1, method="bernstein",
                     variance=None, alternative="two-sided"):
    r"""Number of draws needed to detect a mean shift ``epsilon`` with probability 1 - beta.

    Parameters
    ----------
    epsilon : float
        The violation to detect (same units as the variable).
    lower, upper : float
        Declared range (not used by ``"median-of-means"``).
    delta : float
        Level of the interval (false-failure probability of the test).
    beta : float
        Allowed false-pass probability at ``epsilon``. Default 0.1.
    method : {"bernstein", "hoeffding", "betting", "prpl-eb", "median-of-means"}
        As in :func:`detectable_violation`. Default ``"bernstein"``.
    variance : float, optional
        Upper bound on Var Z, as in :func:`detectable_violation`.
    alternative : {"two-sided", "greater", "less"}
        Sidedness of the interval used by the test. Default ``"two-sided"``.

    Returns
    -------
    int
        The smallest n with ``detectable_violation(n, ...) <= epsilon``.

    Raises
    ------
    InvalidParameterError
        ``epsilon`` <= 0, one that no feasible number of draws detects, or a bad argument as in
        :func:`detectable_violation`.

    Notes
    -----
    The inverse of :func:`detectable_violation` (see its Notes for the formulas and
    references), found by doubling and integer bisection; exact for that formula.

    References
    ----------
    .. [1] A. Maurer and M. Pontil, COLT 2009, Theorems 4 and 10; W. Hoeffding, JASA 58 (1963).
    """
    epsilon = check_positive("epsilon", epsilon)
    args = _design_iv(lower, upper, delta, beta, method, variance, alternative)
    hi = 2
    while _violation(hi, *args) > epsilon:
        hi *= 2
        if hi > _MAX_N:
            fail("epsilon", epsilon, f"be detectable with at most {_MAX_N:.0e} draws")
    lo = hi // 2  # violation(lo) > epsilon unless lo < 2
    if lo >= 1 and _violation(lo, *args) <= epsilon:
        return lo
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _violation(mid, *args) <= epsilon:
            hi = mid
        else:
            lo = mid
    return hi


#: the sides of a factor: the true value above the stated one, below it, or either
FACTOR_SIDES = ("greater", "less", "both")


def factor_of_shift(value, epsilon, *, side="both"):
    r"""The detectable shift ``epsilon`` of a quantity stated as ``value``, as a factor F >= 1.

    Parameters
    ----------
    value : float
        The stated value (a claimed mean, a bound); its magnitude is used.
    epsilon : float
        The shift detected with probability >= 1 - beta (:func:`detectable_violation`), >= 0.
    side : {"both", "greater", "less"}
        ``"greater"``: the true value is F·|value| (a bound F times too small);
        ``"less"``: |value|/F; ``"both"``: either (the larger factor of the two).

    Returns
    -------
    float or None
        F = 1 + ε/|v| (greater), 1/(1 − ε/|v|) (less, both); None when no factor is
        detectable (value 0, or ε >= |v| below).

    Raises
    ------
    InvalidParameterError
        ``epsilon`` negative or not finite, ``value`` not finite, an unknown ``side``.

    Notes
    -----
    A true value F·v differs from v by (F − 1)|v| and v/F by (1 − 1/F)|v|; each is detected
    once it reaches ε. F = 1 is an exact comparison.

    Examples
    --------
    >>> factor_of_shift(2.0, 0.5, side="greater")
    1.25
    >>> factor_of_shift(2.0, 1.0)
    2.0
    """
    side = check_choice("side", side, FACTOR_SIDES)
    value, epsilon = float(value), float(epsilon)
    if not math.isfinite(value):
        fail("value", value, "be finite")
    if not (math.isfinite(epsilon) and epsilon >= 0):
        fail("epsilon", epsilon, "be finite and >= 0")
    size = abs(value)
    if size == 0:
        return None
    r = epsilon / size
    if side == "greater":
        return 1.0 + r
    return 1.0 / (1.0 - r) if r < 1 else None


def _refuting_count(n, alpha, p, above):
    """Vectorised over p: the smallest count whose two-sided Clopper-Pearson interval at
    ``alpha`` lies above p (``above``), or the largest whose interval lies below it; -1 where
    no count does. Integer bisection (the interval's ends increase with the count)."""
    p = np.asarray(p, dtype=float)

    def low_end(c):                                     # lower end, 0 at c = 0
        return np.where(c > 0, special.betaincinv(np.maximum(c, 1), n - c + 1, alpha / 2), 0.0)

    def high_end(c):                                    # upper end, 1 at c = n
        return np.where(c < n, special.betaincinv(c + 1, np.maximum(n - c, 1), 1 - alpha / 2),
                        1.0)

    lo = np.zeros(p.shape, dtype=np.int64)
    hi = np.full(p.shape, n, dtype=np.int64)
    with np.errstate(all="ignore"):
        if above:                   # invariant: low_end(lo) <= p < low_end(hi)
            exists = low_end(hi) > p
            while np.any(hi - lo > 1):
                mid = (lo + hi) // 2
                good = low_end(mid) > p
                hi, lo = np.where(good, mid, hi), np.where(good, lo, mid)
            return np.where(exists, hi, -1)
        exists = high_end(lo) < p   # invariant: high_end(lo) < p <= high_end(hi)
        while np.any(hi - lo > 1):
            mid = (lo + hi) // 2
            good = high_end(mid) < p
            lo, hi = np.where(good, mid, lo), np.where(good, hi, mid)
        return np.where(exists, lo, -1)


def proportion_detectable_factor(p, n, *, alpha, beta=0.1, side="both"):
    r"""The factor by which a probability ``p`` must be off for an exact Clopper-Pearson test
    with ``n`` trials at level ``alpha`` to refute it with probability >= 1 - beta.

    Parameters
    ----------
    p : float or array_like
        The stated probabilities (each in [0, 1]).
    n : int
        Trials.
    alpha : float
        Miscoverage of each two-sided interval (:func:`~laocheck.stats.clopper_pearson`'s
        ``alpha``: the test at δ/K of a Bonferroni split passes δ/K).
    beta : float, default=0.1
        Allowed false-pass probability at the returned factor.
    side : {"both", "greater", "less"}
        The true probability F·p (``"greater"``), p/F (``"less"``) or either (the larger
        factor).

    Returns
    -------
    ndarray of float
        F per entry, ``inf`` where no factor is refuted with probability >= 1 - beta (p = 0,
        or a count that no true probability in [0, 1] reaches often enough).

    Raises
    ------
    InvalidParameterError
        ``n`` not a positive integer, ``alpha`` or ``beta`` outside (0, 1), ``p`` outside
        [0, 1], an unknown ``side``.

    Notes
    -----
    The test refutes p when the count C ~ Binomial(n, p') reaches c₊, the smallest count
    whose interval's lower end exceeds p (or falls to c₋, the largest whose upper end is
    below it). P(C >= c₊) = I_{p'}(c₊, n − c₊ + 1) (the regularised incomplete beta), so the
    smallest p' with power 1 − beta is exactly I⁻¹(c₊, n − c₊ + 1; 1 − beta), and the largest
    below is I⁻¹(c₋ + 1, n − c₋; beta). Exact: no approximation.

    Examples
    --------
    A claimed probability 1/2 tested on 20,000 trials at alpha = 1e-6 is refuted with
    probability 0.9 once the true one is 4.4 % above it:

    >>> f = proportion_detectable_factor(0.5, 20_000, alpha=1e-6, side="greater")
    >>> round(float(f), 3)
    1.044
    """
    n = check_count("n", n, maximum=MAX_N)
    alpha = check_probability("alpha", alpha)
    beta = check_probability("beta", beta)
    side = check_choice("side", side, FACTOR_SIDES)
    arr = np.asarray(p, dtype=float)
    if not np.all((arr >= 0) & (arr <= 1)):
        fail("p", p if arr.size <= 10 else f"<array of shape {arr.shape}>", "lie in [0, 1]")
    out = np.ones(arr.shape)
    with np.errstate(all="ignore"):
        if side in ("greater", "both"):
            c = _refuting_count(n, alpha, arr, above=True)
            top = np.where(c >= 1, special.betaincinv(np.maximum(c, 1), n - np.maximum(c, 1) + 1,
                                                      1 - beta), np.nan)
            up = np.where((c >= 1) & (arr > 0), top / np.where(arr > 0, arr, 1.0), np.inf)
            # p = 1 cannot be exceeded: only the other side remains (or none, for "greater")
            out = np.maximum(out, np.where((arr < 1) | (side == "greater"), up, 1.0))
        if side in ("less", "both"):
            c = _refuting_count(n, alpha, arr, above=False)
            bottom = np.where(c >= 0, special.betaincinv(np.maximum(c, 0) + 1,
                                                         n - np.maximum(c, 0), beta), np.nan)
            down = np.where((c >= 0) & (bottom > 0), arr / np.where(bottom > 0, bottom, 1.0),
                            np.inf)
            out = np.maximum(out, down)
    return np.where(arr > 0, out, np.inf)
