"""Tests of laocheck.stats.intervals: validity (coverage), width, running sums, validation."""

import math

import numpy as np
import pytest

from laocheck.exceptions import InvalidParameterError
from laocheck.stats import (METHODS, MeanInterval, mean_interval, mean_interval_from_sums)
from laocheck.stats.calibration import LAWS, coverage, sums_coverage, width_table

from .conftest import TEST_DELTA

COVERAGE_DELTA = 0.05  # loose on purpose: miscoverage must be measurable


@pytest.mark.parametrize("law", LAWS, ids=lambda law: law.name)
@pytest.mark.parametrize("method", METHODS)
def test_coverage(method, law):
    """2000 intervals at delta=0.05 miss the true mean no more often than 5%.

    Decision: one-sided binomial test of "miscoverage <= 0.05" at level 1e-6, so the test
    fails falsely with probability <= 1e-6.
    """
    cell = coverage(method, law, replicates=2000, delta=COVERAGE_DELTA)
    assert cell.pvalue > TEST_DELTA, cell


@pytest.mark.parametrize("law", LAWS, ids=lambda law: law.name)
def test_coverage_one_sided_betting(law):
    """One-sided (lower) betting bounds: miscoverage <= 0.05 (binomial test at 1e-6)."""
    cell = coverage("betting", law, replicates=2000, delta=COVERAGE_DELTA, alternative="greater")
    assert cell.pvalue > TEST_DELTA, cell


@pytest.mark.parametrize("law", LAWS, ids=lambda law: law.name)
def test_coverage_from_sums(law):
    """Empirical Bernstein from (n, sum, sum sq): miscoverage <= 0.05 (binomial test, 1e-6)."""
    cell = sums_coverage(law, replicates=2000, delta=COVERAGE_DELTA)
    assert cell.pvalue > TEST_DELTA, cell


def test_width_acceptance():
    """Bernoulli(0.01), n=1e4, delta=1e-6: betting >= 3x and empirical Bernstein >= 1.8x
    narrower than Hoeffding (median of 5 samples; deterministic given the seed)."""
    widths = width_table(sizes=(10_000,))[10_000]
    assert widths["hoeffding"] / widths["betting"] >= 3.0, widths
    assert widths["hoeffding"] / widths["bernstein"] >= 1.8, widths


def test_widths_shrink_with_n():
    """Every method's width decreases from n=1e3 to 1e5 (by at least sqrt(10)x for Hoeffding,
    whose width is deterministic given the clipping)."""
    table = width_table(sizes=(1000, 100_000), seeds=3)
    for method in METHODS:
        assert table[100_000][method] < table[1000][method], method
    assert table[1000]["hoeffding"] / table[100_000]["hoeffding"] >= math.sqrt(10) * 0.99


@pytest.mark.parametrize("method", METHODS)
def test_interval_properties(method, rng):
    """The interval lies in the range, contains the sample mean, and shrinks as delta grows."""
    x = rng.uniform(-2, 3, size=400)
    wide = mean_interval(x, lower=-2, upper=3, delta=1e-9, method=method)
    narrow = mean_interval(x, lower=-2, upper=3, delta=1e-2, method=method)
    assert -2 <= wide.low <= x.mean() <= wide.high <= 3
    assert wide.low <= narrow.low <= narrow.high <= wide.high
    assert isinstance(wide, MeanInterval) and wide.n == 400 and wide.method == method
    assert wide.mean == pytest.approx(x.mean())


@pytest.mark.parametrize("method", METHODS)
def test_alternatives(method, rng):
    """One-sided bounds are at least as tight as the two-sided interval's side at the same delta
    and leave the range bound on the open side."""
    x = rng.random(300)
    both = mean_interval(x, lower=0, upper=1, delta=1e-4, method=method)
    greater = mean_interval(x, lower=0, upper=1, delta=1e-4, method=method, alternative="greater")
    less = mean_interval(x, lower=0, upper=1, delta=1e-4, method=method, alternative="less")
    assert greater.high == 1 and less.low == 0
    assert greater.low >= both.low and less.high <= both.high
    two_sided_at_double = mean_interval(x, lower=0, upper=1, delta=2e-4, method=method)
    assert greater.low == pytest.approx(two_sided_at_double.low, rel=1e-9, abs=1e-12)


def test_reflection_symmetry(rng):
    """Betting on 1 - x gives the mirror image of betting on x."""
    x = rng.beta(2, 7, size=500)
    a = mean_interval(x, lower=0, upper=1, delta=1e-6)
    b = mean_interval(1 - x, lower=0, upper=1, delta=1e-6)
    tol = 1e-4 * a.width
    assert a.low == pytest.approx(1 - b.high, abs=tol) and a.high == pytest.approx(1 - b.low,
                                                                                    abs=tol)


def test_betting_certified_bound(rng):
    """The betting lower bound is on the rejected side: recomputing the capital at the
    returned point shows it reaches 1/delta (so numerical tolerance never costs coverage)."""
    from laocheck.stats.intervals import _BET_CAP, _Summary, _betting_lower

    x = (rng.random(2000) < 0.2).astype(float)
    summary = _Summary.of(x)
    delta = 1e-6
    low = _betting_lower(summary, math.log(1 / delta))  # the level as ln(1/delta)
    lam = np.sqrt(2 * math.log(1 / delta) / (x.size * summary.predictable[0]))
    bets = np.minimum(lam, _BET_CAP / low)
    assert np.max(np.cumsum(np.log1p(bets * (x - low)))) >= math.log(1 / delta)
    assert 0 < low < x.mean()


@pytest.mark.parametrize("method", ["bernstein", "hoeffding"])
def test_from_sums_matches_data(method, rng):
    """From running sums, Hoeffding and empirical Bernstein equal the data-based intervals."""
    x = rng.uniform(1, 4, size=1000)
    direct = mean_interval(x, lower=1, upper=4, delta=1e-6, method=method)
    sums = mean_interval_from_sums(x.size, x.sum(), (x ** 2).sum(), lower=1, upper=4,
                                   delta=1e-6, method=method)
    assert sums.low == pytest.approx(direct.low, rel=1e-9)
    assert sums.high == pytest.approx(direct.high, rel=1e-9)


def test_from_sums_at_1e8_needs_only_the_sums():
    """n = 1e8 from three numbers (no data to pass over; its time is measured by the
    calibration script, not asserted here)."""
    ci = mean_interval_from_sums(10 ** 8, 0.25e8, 0.1e8, lower=0, upper=1, delta=1e-6)
    assert ci.n == 10 ** 8 and ci.contains(0.25) and ci.width < 1e-3


def test_repr_and_contains():
    ci = MeanInterval(low=0.1, high=0.3, n=10, delta=1e-6, method="betting", mean=0.2)
    assert ci.contains(0.2) and not ci.contains(0.31)
    assert ci.width == pytest.approx(0.2)
    assert "betting" in repr(ci) and "n=10" in repr(ci)
    with pytest.raises(AttributeError):
        ci.low = 0  # frozen


class TestMeanIntervalIV:
    """Bad parameters raise InvalidParameterError (a ValueError) naming parameter and rule."""

    @pytest.mark.parametrize("delta", [0, 1, 1.5, -0.1, float("nan"), "0.1"])
    def test_delta(self, delta):
        with pytest.raises(InvalidParameterError, match=r"`delta` must satisfy 0 < delta < 1"):
            mean_interval([0.5], lower=0, upper=1, delta=delta)

    def test_range(self):
        with pytest.raises(ValueError, match=r"lower < upper; got lower=1, upper=1"):
            mean_interval([0.5], lower=1, upper=1, delta=0.1)

    def test_outside(self):
        with pytest.raises(InvalidParameterError, match=r"`values` must lie in \[lower, upper\]"):
            mean_interval([0.5, 1.5], lower=0, upper=1, delta=0.1)

    def test_nan_and_empty(self):
        with pytest.raises(InvalidParameterError, match="NaN"):
            mean_interval([0.5, float("nan")], lower=0, upper=1, delta=0.1)
        with pytest.raises(InvalidParameterError, match="at least 1"):
            mean_interval([], lower=0, upper=1, delta=0.1)

    def test_method_and_alternative(self):
        with pytest.raises(InvalidParameterError, match="`method` must be one of"):
            mean_interval([0.5], lower=0, upper=1, delta=0.1, method="normal")
        with pytest.raises(InvalidParameterError, match="`alternative` must be one of"):
            mean_interval([0.5], lower=0, upper=1, delta=0.1, alternative="both")

    def test_from_sums(self):
        with pytest.raises(InvalidParameterError, match="`total` must satisfy"):
            mean_interval_from_sums(10, 20.0, 40.0, lower=0, upper=1, delta=0.1)
        with pytest.raises(InvalidParameterError, match="`total_sq` must satisfy"):
            mean_interval_from_sums(10, 5.0, 1.0, lower=0, upper=1, delta=0.1)
        with pytest.raises(InvalidParameterError, match="`method` must be one of"):
            mean_interval_from_sums(10, 5.0, 3.0, lower=0, upper=1, delta=0.1, method="betting")
        with pytest.raises(InvalidParameterError, match="`n` must be an integer >= 1"):
            mean_interval_from_sums(0, 0.0, 0.0, lower=0, upper=1, delta=0.1)
        with pytest.raises(InvalidParameterError, match="`total_sq` must be given"):
            mean_interval_from_sums(10, 5.0, lower=0, upper=1, delta=0.1)
