"""Assertions on Monte Carlo draws (the ``assert_*`` member of each TFP-style triple).

Each raises ``AssertionError`` with the interval, delta and method in its message when the
claim is refuted, with false-failure probability at most ``delta`` when the claim holds. The
matching experiment-design functions are :func:`~laocheck.stats.detectable_violation` and
:func:`~laocheck.stats.required_samples`. Valid inputs as :func:`~laocheck.stats.mean_interval`
(every 0 < delta < 1, any finite range, finite draws within it).
"""

from __future__ import annotations

from .intervals import mean_interval

__all__ = ["assert_mean_equal", "assert_mean_at_most", "assert_mean_at_least"]


def _raise(claim, interval):
    __tracebackhide__ = True
    raise AssertionError(f"{claim} is refuted at false-failure probability "
                         f"{interval.delta:g}: {interval!r}")


def assert_mean_equal(values, target, *, lower, upper, delta, method="betting"):
    """Assert E[Z] = target: fails iff the two-sided interval excludes ``target``.

    Parameters
    ----------
    values : array_like
        I.i.d. draws in [lower, upper].
    target : float
        The claimed mean E[Z].
    lower, upper : float
        The declared range of Z (every draw must lie in it).
    delta : float
        False-failure probability, 0 < delta < 1.
    method : str
        Interval method, one of :data:`~laocheck.stats.METHODS`. Default ``"betting"``.

    Returns
    -------
    MeanInterval
        The interval, when the assertion holds.

    Raises
    ------
    AssertionError
        The claim E[Z] = target is refuted: the two-sided interval excludes ``target``.
    InvalidParameterError
        Bad input, as :func:`~laocheck.stats.mean_interval`.

    Notes
    -----
    P(AssertionError) <= delta when E[Z] = target (coverage of the interval).

    References
    ----------
    .. [1] TensorFlow Probability, ``tfp.distributions.internal.statistical_testing``
       (``assert_true_mean_equal_by_dkwm``), for the design; intervals as referenced in
       :func:`~laocheck.stats.mean_interval`.
    """
    __tracebackhide__ = True
    interval = mean_interval(values, lower=lower, upper=upper, delta=delta, method=method)
    if not interval.contains(target):
        _raise(f"E[Z] == {target:g}", interval)
    return interval


def assert_mean_at_most(values, bound, *, lower, upper, delta, method="betting"):
    """Assert E[Z] <= bound: fails iff the one-sided lower confidence bound exceeds ``bound``.

    Parameters
    ----------
    values : array_like
        I.i.d. draws of Z in [lower, upper].
    bound : float
        The claimed upper bound on E[Z].
    lower, upper : float
        The declared range of Z (every draw must lie in it).
    delta : float
        False-failure probability, 0 < delta < 1.
    method : str
        Interval method, one of :data:`~laocheck.stats.METHODS`. Default ``"betting"``.

    Returns
    -------
    MeanInterval
        The one-sided interval (``alternative="greater"``), when the assertion holds.

    Raises
    ------
    AssertionError
        The claim E[Z] <= bound is refuted: the interval's low is above ``bound``.
        P(AssertionError) <= delta when E[Z] <= bound.
    InvalidParameterError
        Bad input: draws outside [lower, upper] or not finite, delta not in (0, 1), an unknown
        method (as :func:`~laocheck.stats.mean_interval`).

    References
    ----------
    .. [1] As :func:`assert_mean_equal`.
    """
    __tracebackhide__ = True
    interval = mean_interval(values, lower=lower, upper=upper, delta=delta, method=method,
                             alternative="greater")
    if interval.low > bound:
        _raise(f"E[Z] <= {bound:g}", interval)
    return interval


def assert_mean_at_least(values, bound, *, lower, upper, delta, method="betting"):
    """Assert E[Z] >= bound: fails iff the one-sided upper confidence bound is below ``bound``.

    Parameters
    ----------
    values : array_like
        I.i.d. draws of Z in [lower, upper].
    bound : float
        The claimed lower bound on E[Z].
    lower, upper : float
        The declared range of Z (every draw must lie in it).
    delta : float
        False-failure probability, 0 < delta < 1.
    method : str
        Interval method, one of :data:`~laocheck.stats.METHODS`. Default ``"betting"``.

    Returns
    -------
    MeanInterval
        The one-sided interval (``alternative="less"``), when the assertion holds.

    Raises
    ------
    AssertionError
        The claim E[Z] >= bound is refuted: the interval's high is below ``bound``.
        P(AssertionError) <= delta when E[Z] >= bound.
    InvalidParameterError
        Bad input: draws outside [lower, upper] or not finite, delta not in (0, 1), an unknown
        method (as :func:`~laocheck.stats.mean_interval`).

    References
    ----------
    .. [1] As :func:`assert_mean_equal`.
    """
    __tracebackhide__ = True
    interval = mean_interval(values, lower=lower, upper=upper, delta=delta, method=method,
                             alternative="less")
    if interval.high < bound:
        _raise(f"E[Z] >= {bound:g}", interval)
    return interval
