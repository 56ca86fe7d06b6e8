"""Sequential tests: draw in batches, stop as soon as the claim is refuted or confirmed.

Anytime-valid control by a union bound over a geometric schedule of looks: look j (at
n_j = min(max_n, ceil(batch * growth**(j-1))) draws) uses level delta_j = 6 delta / (pi^2 j^2),
and sum_j delta_j = delta, so the probability that *any* look's interval misses the true mean
is at most delta, whenever the test stops.

Numerically valid range: every 0 < delta < 1 (each look's level is carried as its logarithm,
so delta_j never underflows), any finite range, 2 <= batch, max_n <= 2**63 - 1,
1 < growth < inf. ``draw`` must return finite values in the range; anything else is refused
with the look at which it happened.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._validation import (check_choice, check_count, check_positive, check_probability,
                           check_range, check_rng, check_scalar, fail)
from .intervals import MAX_N, METHODS, MeanInterval, _interval, _Summary, to_unit

__all__ = ["SequentialTestResult", "sequential_mean_test", "sequential_bound_test",
           "look_schedule"]


@dataclass(frozen=True, repr=False)
class SequentialTestResult:
    """Outcome of a sequential test.

    Returned by :func:`sequential_mean_test` and :func:`sequential_bound_test`; each parameter
    is an attribute of the same name.

    Parameters
    ----------
    status : {"PASS", "FAIL", "INCONCLUSIVE"}
        FAIL: the claim is refuted (probability <= delta when it holds). PASS: the claim holds
        up to ``epsilon`` (probability <= delta that it is violated by more). INCONCLUSIVE:
        ``max_n`` draws did not decide.
    claim : str
        The hypothesis tested, e.g. ``"E[Z] == 0.5"`` or ``"E[Z] <= 1"``.
    interval : MeanInterval
        The interval at the last look (its ``delta`` is that look's level).
    n : int
        Draws used.
    delta : float
        Overall false-failure probability (and false-pass probability beyond epsilon).
    epsilon : float
        Tolerance of a PASS.
    detectable : float
        Smallest violation the draws used could detect: with probability >= 1 - delta a true
        mean farther than this from the claim (in the tested direction) gives FAIL at the last
        look. It is the width of the last interval.
    looks : int
        Number of looks taken.
    """

    status: str
    claim: str
    interval: MeanInterval
    n: int
    delta: float
    epsilon: float
    detectable: float
    looks: int

    @property
    def passed(self) -> bool:
        return self.status == "PASS"

    def __repr__(self):
        return (f"SequentialTestResult(status={self.status!r}, claim={self.claim!r}, "
                f"n={self.n}, looks={self.looks}, delta={self.delta:g}, "
                f"epsilon={self.epsilon:g}, detectable={self.detectable:.6g}, "
                f"interval=[{self.interval.low:.6g}, {self.interval.high:.6g}])")


def _log_level(delta, j):
    """ln(delta_j) = ln(6 delta / (pi^2 j^2)), without underflow."""
    return math.log(6.0) + math.log(delta) - 2.0 * math.log(math.pi) - 2.0 * math.log(j)


def look_schedule(batch, growth, max_n, delta):
    """The looks (n_j, delta_j), j = 1, 2, ..., of a sequential test.

    Parameters
    ----------
    batch : int
        Draws before the first look.
    growth : float
        Factor (> 1) by which the number of draws grows from one look to the next.
    max_n : int
        The last look's number of draws.
    delta : float
        The test's total false-failure probability, split across the looks.

    Returns
    -------
    list of tuple
        ``(n_j, delta_j)`` with n_j = min(max_n, ceil(batch growth^(j-1))) and
        delta_j = 6 delta / (pi^2 j^2), whose sum over all j is at most delta; the last
        look has n_j = max_n. delta_j may underflow to 0 for a tiny delta; the tests use
        ln(delta_j), which does not.

    Raises
    ------
    InvalidParameterError
        A count that is not a positive integer, ``growth`` <= 1, or ``delta`` outside (0, 1).
    """
    batch = check_count("batch", batch)
    max_n = check_count("max_n", max_n, maximum=MAX_N)
    delta = check_probability("delta", delta)
    growth = check_scalar("growth", growth)
    if not growth > 1:
        fail("growth", growth, "be a finite number > 1")
    looks, j, size = [], 1, float(batch)
    while True:
        n_j = min(max_n, math.ceil(size))
        if looks and n_j <= looks[-1][0]:
            n_j = looks[-1][0] + 1
        looks.append((n_j, 6.0 * delta / (math.pi ** 2 * j ** 2)))
        if n_j >= max_n:
            return looks
        j, size = j + 1, size * growth


class _Accumulator:
    """Keeps what the method needs: all draws (betting, PrPl-EB) or running sums."""

    def __init__(self, lower, upper, keep):
        self.lower, self.upper, self.keep = lower, upper, keep
        self.parts, self.n, self.total, self.total_sq = [], 0, 0.0, 0.0

    def add(self, x):
        u = to_unit(x, self.lower, self.upper)  # in [0, 1]: sums of u keep their precision
        self.n += u.size
        if self.keep:
            self.parts.append(u)
        else:
            self.total += float(np.sum(u))
            self.total_sq += float(np.sum(u * u))

    def summary(self):
        if self.keep:
            self.parts = [np.concatenate(self.parts)]
            return _Summary.of(self.parts[0])
        mean = self.total / self.n
        var = (self.total_sq - self.total * mean) / (self.n - 1) if self.n > 1 else 0.25
        return _Summary(self.n, min(max(mean, 0.0), 1.0), min(max(var, 0.0), 0.25 * self.n
                                                                / max(self.n - 1, 1)))


def _sequential_iv(draw, value, value_name, lower, upper, delta, epsilon, max_n, batch, growth,
                   method):
    if not callable(draw):
        fail("draw", draw, "be a callable draw(n, rng) returning n draws")
    lower, upper = check_range(lower, upper)
    if isinstance(value, (bool, np.bool_)) or not isinstance(
            value, (int, float, np.integer, np.floating)) or not math.isfinite(value):
        fail(value_name, value, "be a finite real number")
    delta = check_probability("delta", delta)
    epsilon = check_positive("epsilon", epsilon)
    max_n = check_count("max_n", max_n, minimum=2, maximum=MAX_N)
    batch = check_count("batch", batch, minimum=2)
    if isinstance(growth, (bool, np.bool_)) or not isinstance(growth, (int, float, np.integer,
                                                                       np.floating)) \
            or not (growth > 1 and math.isfinite(growth)):
        fail("growth", growth, "be a finite number > 1")
    return (draw, float(value), lower, upper, delta, epsilon, max_n, batch, float(growth),
            check_choice("method", method, METHODS))


def _run(draw, rng, decide, *, lower, upper, delta, max_n, batch, growth, method, per_side,
         claim, epsilon):
    rng = check_rng(rng)
    acc = _Accumulator(lower, upper, keep=method in ("betting", "prpl-eb"))
    schedule = look_schedule(batch, growth, max_n, delta)
    for j, (n_j, delta_j) in enumerate(schedule, start=1):
        want = n_j - acc.n
        try:
            x = np.asarray(draw(want, rng), dtype=np.float64).ravel()
        except (TypeError, ValueError) as exc:
            fail("draw", draw, f"return {want} real numbers (look {j}); it gave {exc}")
        if x.size != want or not np.all(np.isfinite(x)) or np.any(x < lower) \
                or np.any(x > upper):
            fail("draw", draw, f"return {want} finite values in [lower, upper] = "
                 f"[{lower}, {upper}] (look {j})")
        acc.add(x)
        # per_side: each one-sided bound at delta_j, i.e. a two-sided interval at 2 delta_j
        log_level = _log_level(delta, j) + (math.log(2.0) if per_side else 0.0)
        level = 2 * delta_j if per_side else delta_j
        interval = _interval(acc.summary(), lower=lower, upper=upper, delta=level,
                             method=method, alternative="two-sided", log_delta=log_level)
        status = decide(interval)
        if status is not None or j == len(schedule):
            return SequentialTestResult(status=status or "INCONCLUSIVE", claim=claim,
                                        interval=interval, n=acc.n, delta=delta,
                                        epsilon=epsilon, detectable=interval.width, looks=j)
    raise AssertionError("unreachable: the schedule ends at max_n")


def sequential_mean_test(draw, *, target, lower, upper, delta, epsilon, max_n, batch=1000,
                         growth=2.0, method="betting", rng=None):
    r"""Sequential test of "E[Z] = target" for a bounded variable, with tolerance epsilon.

    Parameters
    ----------
    draw : callable
        ``draw(n, rng)`` returns n i.i.d. draws of Z in [lower, upper] (``rng`` is a
        ``numpy.random.Generator``; ignore it if the sampler has its own stream).
    target : float
        Claimed mean.
    lower, upper : float
        Declared range of Z.
    delta : float
        False-failure probability (also the false-pass probability beyond epsilon).
    epsilon : float
        Tolerance: PASS certifies |E Z - target| <= epsilon.
    max_n : int
        The most draws to take.
    batch : int
        Draws at the first look. Default 1000.
    growth : float
        Ratio of successive look sizes. Default 2.
    method : str
        Interval method (see :func:`~laocheck.stats.mean_interval`). ``"bernstein"`` and
        ``"hoeffding"`` keep only running sums; the others keep the draws. Default "betting".
    rng : None, int, SeedSequence or Generator
        Passed to ``numpy.random.default_rng``.

    Returns
    -------
    SequentialTestResult
        The decision (PASS, FAIL or INCONCLUSIVE at ``max_n``), the draws used and the last
        look's interval.

    Raises
    ------
    InvalidParameterError
        ``draw`` not callable or returning other than the asked number of finite values in
        [lower, upper], a non-finite ``target``, ``lower`` >= ``upper``, ``delta`` outside
        (0, 1), ``epsilon`` <= 0, ``max_n`` or ``batch`` not an integer >= 2, ``growth`` <= 1, an
        unknown ``method`` or a bad ``rng``.

    Notes
    -----
    At look j (n_j draws, see :func:`look_schedule`) the two-sided interval at level
    delta_j = 6 delta / (pi^2 j^2) is computed. FAIL if it excludes ``target``; PASS if it lies
    within [target - epsilon, target + epsilon]; otherwise draw more, up to ``max_n``
    (INCONCLUSIVE). Since sum_j delta_j = delta (Basel sum), all intervals cover E Z with
    probability >= 1 - delta, so P(FAIL) <= delta when E Z = target, and
    P(PASS) <= delta when |E Z - target| > epsilon, whatever the stopping look. Large
    violations stop at the first looks; a PASS needs an interval of width <= 2 epsilon, about
    :func:`~laocheck.stats.required_samples` (epsilon) draws.

    References
    ----------
    .. [1] A. Wald, "Sequential tests of statistical hypotheses", Ann. Math. Statist. 16 (1945)
       (sequential testing); the union bound over looks with delta_j proportional to 1/j^2 is
       the "stitching" of S. R. Howard et al., "Time-uniform, nonparametric, nonasymptotic
       confidence sequences", Ann. Statist. 49(2) (2021), in its simplest form.
    .. [2] I. Waudby-Smith and A. Ramdas, JRSS-B 86(1) (2024) (default interval).
    """
    draw, target, lower, upper, delta, epsilon, max_n, batch, growth, method = _sequential_iv(
        draw, target, "target", lower, upper, delta, epsilon, max_n, batch, growth, method)

    def decide(interval):
        if not interval.contains(target):
            return "FAIL"
        if target - epsilon <= interval.low and interval.high <= target + epsilon:
            return "PASS"
        return None

    return _run(draw, rng, decide, lower=lower, upper=upper, delta=delta, max_n=max_n,
                batch=batch, growth=growth, method=method, per_side=False,
                claim=f"E[Z] == {target:g}", epsilon=epsilon)


def sequential_bound_test(draw, *, bound, lower, upper, delta, epsilon, max_n, batch=1000,
                          growth=2.0, method="betting", rng=None):
    r"""Sequential test of "E[Z] <= bound" for a bounded variable, with tolerance epsilon.

    Parameters
    ----------
    draw : callable
        As in :func:`sequential_mean_test`.
    bound : float
        The claimed upper bound on E[Z].
    lower, upper : float
        Declared range of Z.
    delta : float
        False-failure probability (also the false-pass probability beyond epsilon).
    epsilon : float
        Tolerance: PASS certifies E[Z] <= bound + epsilon.
    max_n : int
        The most draws to take.
    batch : int
        Draws at the first look. Default 1000.
    growth : float
        Ratio of successive look sizes. Default 2.
    method : str
        Interval method, as in :func:`sequential_mean_test`. Default "betting".
    rng : None, int, SeedSequence or Generator
        Passed to ``numpy.random.default_rng``.

    Returns
    -------
    SequentialTestResult
        The decision (PASS, FAIL or INCONCLUSIVE at ``max_n``), the draws used and the last
        look's interval.

    Raises
    ------
    InvalidParameterError
        As :func:`sequential_mean_test` (with ``bound`` for ``target``).

    Notes
    -----
    At look j the lower and the upper confidence bounds are each taken at level delta_j
    (a two-sided interval at 2 delta_j). FAIL when the lower bound exceeds ``bound``
    (probability <= sum_j delta_j = delta when E Z <= bound); PASS when the upper bound is
    <= bound + epsilon (probability <= delta when E Z > bound + epsilon). For a nonnegative
    variable without an upper range use
    :func:`~laocheck.stats.nonnegative_lower_bound` instead (a one-shot refutation).

    References
    ----------
    .. [1] S. R. Howard, A. Ramdas, J. McAuliffe and J. Sekhon, Ann. Statist. 49(2) (2021).
    .. [2] I. Waudby-Smith and A. Ramdas, JRSS-B 86(1) (2024).
    """
    draw, bound, lower, upper, delta, epsilon, max_n, batch, growth, method = _sequential_iv(
        draw, bound, "bound", lower, upper, delta, epsilon, max_n, batch, growth, method)

    def decide(interval):
        if interval.low > bound:
            return "FAIL"
        if interval.high <= bound + epsilon:
            return "PASS"
        return None

    return _run(draw, rng, decide, lower=lower, upper=upper, delta=delta, max_n=max_n,
                batch=batch, growth=growth, method=method, per_side=True,
                claim=f"E[Z] <= {bound:g}", epsilon=epsilon)
