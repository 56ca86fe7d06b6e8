"""Tests of median of means and the truncated lower bound for nonnegative variables."""

import math

import numpy as np
import pytest

from laocheck.exceptions import InvalidParameterError
from laocheck.stats import median_of_means_interval, nonnegative_lower_bound
from laocheck.stats.calibration import mom_coverage, nonnegative_coverage
from laocheck.stats.unbounded import median_of_means_blocks

from .conftest import TEST_DELTA


def test_mom_coverage_heavy_tails():
    """Student-t(3) (variance 3, infinite fourth moment), 2000 replicates at delta=0.05:
    miscoverage <= 0.05 by a one-sided binomial test at level 1e-6."""
    cell = mom_coverage(replicates=2000, delta=0.05)
    assert cell.pvalue > TEST_DELTA, cell


def test_mom_coverage_small_delta_has_no_misses():
    """At delta = 1e-3, 500 replicates: P(any miss) <= 500e-3 is not small, so instead check
    the miss count against a binomial test at 1e-6 (false-failure probability <= 1e-6)."""
    cell = mom_coverage(replicates=500, delta=1e-3, n=600)
    assert cell.pvalue > TEST_DELTA, cell


@pytest.mark.parametrize("method", ["betting", "bernstein"])
def test_truncated_lower_bound_coverage(method):
    """Lower bound on E[T^2] = 3, T ~ t(3) (T^2 has infinite variance), delta = 0.05:
    P(bound > 3) <= 0.05 by a one-sided binomial test at level 1e-6."""
    cell = nonnegative_coverage(replicates=2000, delta=0.05, method=method)
    assert cell.pvalue > TEST_DELTA, cell


def test_mom_radius_formula(rng):
    """Radius = 2 sigma / sqrt(floor(n / k)), k = ceil(8 ln(1/delta))."""
    delta, sigma2, n = 1e-6, 2.0, 5000
    ci = median_of_means_interval(rng.normal(size=n), variance_bound=sigma2, delta=delta)
    k = math.ceil(8 * math.log(1 / delta))
    assert ci.details["blocks"] == k == median_of_means_blocks(delta)
    assert ci.width / 2 == pytest.approx(2 * math.sqrt(sigma2 / (n // k)))
    one = median_of_means_interval(rng.normal(size=n), variance_bound=sigma2, delta=delta,
                                   alternative="greater")
    assert one.high == math.inf and math.isfinite(one.low)


def test_mom_uses_every_draw():
    """Block means are means of consecutive blocks covering all draws (sizes m or m + 1)."""
    delta = 0.05
    k = median_of_means_blocks(delta)
    x = np.zeros(10 * k + 3)
    x[-1] = 1e9  # lands in the last block; with k blocks the median ignores one outlier
    ci = median_of_means_interval(x, variance_bound=1.0, delta=delta)
    assert ci.mean == 0.0 and ci.n == x.size


def test_nonnegative_refutes_a_false_bound(rng):
    """E[Z] = 2 (Z = 2 Exp(1)); a claimed G^2 = 1.5 is refuted: lower bound > 1.5.
    The bound exceeds E[Z] with probability <= 1e-6, so this fails falsely only if the
    bound is not valid or the sample is extremely unusual."""
    z = 2 * rng.exponential(size=20_000)
    bound = nonnegative_lower_bound(z, delta=TEST_DELTA)
    assert 1.5 < bound.low <= 2.0
    assert bound.alternative == "greater" and bound.high == math.inf
    assert 0 < bound.details["truncation"] and bound.details["pilot"] == 4000


def test_nonnegative_fixed_truncation(rng):
    """With a fixed truncation every draw is used and the bound is <= the truncated mean."""
    z = rng.exponential(size=1000)
    bound = nonnegative_lower_bound(z, delta=1e-3, truncation=2.0, method="hoeffding")
    assert bound.details["pilot"] == 0
    assert bound.low <= np.minimum(z, 2.0).mean()


def test_nonnegative_all_zero_pilot():
    """A pilot of zeros gives the trivial bound 0 (never a negative or invalid one)."""
    z = np.zeros(100)
    z[-1] = 5.0
    assert nonnegative_lower_bound(z, delta=1e-3).low == 0.0


class TestIV:
    def test_mom(self):
        with pytest.raises(InvalidParameterError, match="`variance_bound` must be"):
            median_of_means_interval([1.0] * 200, variance_bound=0, delta=0.1)
        with pytest.raises(InvalidParameterError, match=r"at least k = .* observations"):
            median_of_means_interval([1.0] * 5, variance_bound=1, delta=1e-6)
        with pytest.raises(InvalidParameterError, match="`delta` must satisfy"):
            median_of_means_interval([1.0] * 5, variance_bound=1, delta=2)

    def test_nonnegative(self):
        with pytest.raises(InvalidParameterError, match="`values` must be nonnegative"):
            nonnegative_lower_bound([1.0, -1.0, 2.0], delta=0.1)
        with pytest.raises(InvalidParameterError, match="`truncation` must be"):
            nonnegative_lower_bound([1.0, 2.0], delta=0.1, truncation=-1)
        with pytest.raises(InvalidParameterError, match="`pilot_fraction` must"):
            nonnegative_lower_bound([1.0, 2.0, 3.0], delta=0.1, pilot_fraction=0.1)
