"""Mean bounds that need no declared range: median of means, and truncation for Z >= 0.

Numerically valid range: every 0 < delta < 1, any finite draws (up to +-1.8e308: the draws are
scaled by a power of two before they are summed, so block sums and variances never overflow).
An interval end beyond the largest double is reported as -inf / +inf with the reason in
``details["overflow"]``; no result is NaN.
"""

from __future__ import annotations

import math

import numpy as np

from .._validation import (check_choice, check_positive, check_probability, check_sample,
                           fail)
from .intervals import ALTERNATIVES, METHODS, MeanInterval, _interval, _Summary


def _power_of_two_scale(x):
    """A power of two s with max|x| / s in [1, 2) (1 for an all-zero sample): dividing by it is
    exact (barring subnormals) and keeps sums of up to 2**52 terms far from overflow."""
    peak = float(np.max(np.abs(x)))
    return 1.0 if peak == 0 else math.ldexp(1.0, math.frexp(peak)[1] - 1)

__all__ = ["median_of_means_interval", "nonnegative_lower_bound", "median_of_means_blocks"]


def median_of_means_blocks(delta):
    """Number of blocks k = ceil(8 ln(1/delta)) used by :func:`median_of_means_interval`."""
    return math.ceil(-8.0 * math.log(check_probability("delta", delta)))


def _median_of_means_interval_iv(values, variance_bound, delta, alternative):
    delta = check_probability("delta", delta)
    variance_bound = check_positive("variance_bound", variance_bound)
    alternative = check_choice("alternative", alternative, ALTERNATIVES)
    blocks = median_of_means_blocks(delta)
    x = check_sample("values", values)
    if x.size < blocks:
        fail("values", f"<array of size {x.size}>",
             f"contain at least k = ceil(8 ln(1/delta)) = {blocks} observations for "
             f"delta={delta}")
    return x, variance_bound, delta, alternative, blocks


def median_of_means_interval(values, *, variance_bound, delta, alternative="two-sided"):
    r"""Median-of-means confidence interval for a variable with a known variance bound.

    Parameters
    ----------
    values : array_like, shape (n,)
        I.i.d. draws of Z (any range) with Var Z <= ``variance_bound``.
    variance_bound : float
        An upper bound sigma^2 on the variance (an assumption; e.g. a proven second-moment bound).
    delta : float
        Miscoverage probability, 0 < delta < 1.
    alternative : {"two-sided", "greater", "less"}
        One-sided versions report -inf / +inf on the open side.

    Returns
    -------
    MeanInterval
        Centred at the median of the block means, with ``details["blocks"]`` = k and
        ``details["block_size"]`` = the smallest block size m.

    Raises
    ------
    InvalidParameterError
        ``delta`` outside (0, 1), ``variance_bound`` <= 0, an unknown ``alternative``, or
        ``values`` not finite or with fewer than k = ceil(8 ln(1/delta)) observations.

    Notes
    -----
    The n draws are split into k = ceil(8 ln(1/delta)) consecutive blocks of sizes m or m + 1,
    m = floor(n / k). By Chebyshev each block mean is farther than 2 sigma / sqrt(m) from the
    mean with probability at most 1/4, and the median is that far only if at least k/2 blocks
    are; by Hoeffding's inequality for the binomial count this has probability at most
    exp(-2k (1/2 - 1/4)^2) = exp(-k/8) <= delta. Hence
    ``|median - E Z| <= 2 sigma / sqrt(m)`` ~= sigma sqrt(32 ln(1/delta) / n) with probability
    >= 1 - delta ([1], Theorem 2; [2], Sec. 4.1). The same radius holds for each one-sided
    bound at level delta. Needs only a finite variance: made for heavy-tailed estimates.

    References
    ----------
    .. [1] G. Lugosi and S. Mendelson, "Mean estimation and regression under heavy-tailed
       distributions: a survey", Found. Comput. Math. 19 (2019), Theorem 2.
    .. [2] L. Devroye, M. Lerasle, G. Lugosi and R. I. Oliveira, "Sub-Gaussian mean
       estimators", Ann. Statist. 44(6) (2016), Sec. 4.1.
    """
    x, variance_bound, delta, alternative, blocks = _median_of_means_interval_iv(
        values, variance_bound, delta, alternative)
    block_size, extra = divmod(x.size, blocks)
    sizes = np.full(blocks, block_size)
    sizes[:extra] += 1  # the first n mod k blocks get one more draw, as np.array_split does
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    scale = _power_of_two_scale(x)  # exact scaling: the block sums cannot overflow
    centre = float(np.median(np.add.reduceat(x / scale, starts) / sizes)) * scale
    radius = 2.0 * math.sqrt(variance_bound / block_size)
    details = {"blocks": blocks, "block_size": block_size, "variance_bound": variance_bound}
    with np.errstate(over="ignore"):
        low = centre - radius if alternative != "less" else -math.inf
        high = centre + radius if alternative != "greater" else math.inf
    if (alternative != "less" and math.isinf(low)) or (alternative != "greater"
                                                       and math.isinf(high)):
        details["overflow"] = ("centre +- radius exceeds the largest double: that end is "
                               "reported as infinite")
    return MeanInterval(low=low, high=high, n=x.size, delta=delta, method="median-of-means",
                        alternative=alternative, mean=centre, details=details)


def _nonnegative_lower_bound_iv(values, delta, truncation, pilot_fraction, method):
    delta = check_probability("delta", delta)
    method = check_choice("method", method, METHODS)
    x = check_sample("values", values, min_size=2)
    if np.min(x) < 0:
        fail("values", f"<array with minimum {np.min(x)!r}>", "be nonnegative")
    if truncation is not None:
        truncation = check_positive("truncation", truncation)
    else:
        pilot_fraction = check_probability("pilot_fraction", pilot_fraction)
        if not 1 <= int(pilot_fraction * x.size) < x.size:
            fail("pilot_fraction", pilot_fraction,
                 f"leave at least one pilot and one main observation out of n={x.size}")
    return x, delta, truncation, pilot_fraction, method


def _choose_truncation(pilot, n_main, delta):
    """Truncation level maximising a Maurer-Pontil proxy of the final bound on the pilot."""
    candidates = np.unique(np.quantile(pilot, np.linspace(0.5, 1.0, 65)))
    candidates = candidates[candidates > 0]
    if candidates.size == 0:
        return 0.0
    clipped = np.minimum(pilot[:, None], candidates[None, :])
    log_term = math.log(2.0 / delta)
    proxy = (clipped.mean(axis=0) - np.sqrt(2 * clipped.var(axis=0) * log_term / n_main)
             - 7 * candidates * log_term / (3 * max(n_main - 1, 1)))
    return float(candidates[np.argmax(proxy)])


def nonnegative_lower_bound(values, *, delta, truncation=None, pilot_fraction=0.2,
                            method="betting"):
    r"""Lower confidence bound on E[Z] for Z >= 0 with no upper range (truncation).

    Parameters
    ----------
    values : array_like, shape (n,)
        I.i.d. draws of Z >= 0 (e.g. squared norms ||g~||^2 whose mean is claimed <= G^2).
    delta : float
        Probability that the bound exceeds E[Z], 0 < delta < 1.
    truncation : float, optional
        A truncation level c > 0 fixed in advance. If omitted, c is chosen on the first
        ``floor(pilot_fraction * n)`` draws (the pilot) and the bound uses the rest.
    pilot_fraction : float
        Share of the draws used to choose c when ``truncation`` is None. Default 0.2.
    method : {"betting", "prpl-eb", "bernstein", "hoeffding"}
        Bounded-range method applied to min(Z, c) in [0, c]. Default ``"betting"``.

    Returns
    -------
    MeanInterval
        ``alternative="greater"``, ``high=inf``, ``details["truncation"]`` = c and
        ``details["pilot"]`` = pilot size. ``P(E[Z] >= low) >= 1 - delta``.

    Raises
    ------
    InvalidParameterError
        ``delta`` outside (0, 1), an unknown ``method``, ``values`` not finite, negative, or
        fewer than 2, ``truncation`` <= 0, or a ``pilot_fraction`` that leaves no pilot or no main
        observation.

    Notes
    -----
    For any c > 0, min(Z, c) lies in [0, c] and E[Z] >= E[min(Z, c)], so a one-sided lower
    confidence bound for the truncated mean (any method of :func:`mean_interval`) is one for
    E[Z]. When c is chosen from a pilot sample it is independent of the remaining draws, so
    the bound stays valid conditionally on c. The pilot picks c among its quantiles to maximise
    a Maurer-Pontil ([1], Thm 4) estimate of the final bound: large c keeps bias small, small c
    keeps the range (and the bound's range term) small. A check "E[Z] <= G^2" fails rigorously
    when this bound exceeds G^2.

    References
    ----------
    .. [1] A. Maurer and M. Pontil, COLT 2009, Theorem 4.
    .. [2] I. Waudby-Smith and A. Ramdas, JRSS-B 86(1) (2024) (the default bounded method).
    """
    x, delta, truncation, pilot_fraction, method = _nonnegative_lower_bound_iv(
        values, delta, truncation, pilot_fraction, method)
    pilot_size = 0
    scale = _power_of_two_scale(x)  # exact: work on x / scale in [0, 1], so nothing overflows
    z = x / scale
    if truncation is None:
        pilot_size = int(pilot_fraction * x.size)
        truncation = _choose_truncation(z[:pilot_size], x.size - pilot_size, delta) * scale
    main = z[pilot_size:]
    mean = float(np.mean(main)) * scale
    details = {"truncation": truncation, "pilot": pilot_size}
    level = truncation / scale
    if level <= 0:  # the pilot saw only zeros: nothing to gain from the data
        return MeanInterval(low=0.0, high=math.inf, n=x.size, delta=delta,
                            method=f"truncated-{method}", alternative="greater",
                            mean=mean, details=details)
    summary = _Summary.of(np.minimum(main, level) / level)
    bound = _interval(summary, lower=0.0, upper=1.0, delta=delta, method=method,
                      alternative="greater")
    return MeanInterval(low=bound.low * level * scale, high=math.inf, n=x.size, delta=delta,
                        method=f"truncated-{method}", alternative="greater",
                        mean=mean, details=details)
