"""Tests of simultaneous coordinate intervals and the squared-norm interval."""

import numpy as np
import pytest
from scipy import stats

from laocheck.exceptions import InvalidParameterError
from laocheck.stats import (VectorMeanInterval, squared_norm_interval, vector_mean_interval,
                            vector_mean_interval_from_sums)

from .conftest import TEST_DELTA


def _draws(rng, reps, n, mu):
    # coordinates in [-1, 1] with mean mu: +-1 with probabilities (1 +- mu) / 2, correlated
    # through a shared uniform to make the Bonferroni split matter for dependent coordinates
    u = rng.random((reps, n, 1))
    return np.where(u < (1 + mu) / 2, 1.0, -1.0)


@pytest.mark.parametrize("method", ["betting", "bernstein"])
def test_simultaneous_coverage(method):
    """d = 4 dependent coordinates, delta = 0.05, 1000 replicates: P(box misses mu) <= 0.05
    (one-sided binomial test at 1e-6); the squared-norm interval misses no more often."""
    rng = np.random.default_rng(np.random.SeedSequence([7, 4]))
    mu = np.array([0.0, 0.3, -0.5, 0.9])
    data = _draws(rng, 1000, 200, mu)
    box_misses = norm_misses = 0
    for row in data:
        box = vector_mean_interval(row, lower=-1, upper=1, delta=0.05, method=method)
        box_misses += not box.contains(mu)
        norm_misses += not squared_norm_interval(box).contains(float(mu @ mu))
    assert norm_misses <= box_misses
    assert stats.binomtest(box_misses, 1000, 0.05, alternative="greater").pvalue > TEST_DELTA


def test_box_uses_bonferroni(rng):
    """Each coordinate of a d-box equals the scalar interval at delta / d."""
    from laocheck.stats import mean_interval

    x = rng.random((500, 3))
    box = vector_mean_interval(x, lower=0, upper=1, delta=3e-6, method="bernstein")
    one = mean_interval(x[:, 1], lower=0, upper=1, delta=1e-6, method="bernstein")
    assert box.low[1] == pytest.approx(one.low) and box.high[1] == pytest.approx(one.high)
    assert isinstance(box, VectorMeanInterval) and box.coordinate(1).low == box.low[1]


def test_squared_norm_box_extremes():
    """min/max of ||m||^2 over a box: 0 from coordinates whose interval contains 0."""
    box = VectorMeanInterval(low=np.array([-0.1, 0.2, -0.5]), high=np.array([0.3, 0.4, -0.2]),
                             n=10, delta=1e-6, method="betting", alternative="two-sided",
                             mean=np.zeros(3))
    ci = squared_norm_interval(box)
    assert ci.low == pytest.approx(0.2 ** 2 + 0.2 ** 2)
    assert ci.high == pytest.approx(0.3 ** 2 + 0.4 ** 2 + 0.5 ** 2)
    assert ci.method == "box-betting" and ci.delta == 1e-6


def test_from_sums_matches(rng):
    x = rng.uniform(-1, 2, size=(800, 5))
    a = vector_mean_interval(x, lower=-1, upper=2, delta=1e-6, method="bernstein")
    b = vector_mean_interval_from_sums(800, x.sum(0), (x ** 2).sum(0), lower=-1, upper=2,
                                       delta=1e-6)
    np.testing.assert_allclose(a.low, b.low, rtol=1e-9)
    np.testing.assert_allclose(a.high, b.high, rtol=1e-9)


def test_per_coordinate_ranges(rng):
    x = np.column_stack([rng.random(300), 10 + rng.random(300)])
    box = vector_mean_interval(x, lower=[0, 10], upper=[1, 11], delta=1e-6)
    assert 0 <= box.low[0] and 10 <= box.low[1] <= box.high[1] <= 11


class TestIV:
    def test_shapes_and_ranges(self):
        with pytest.raises(InvalidParameterError, match="2-dimensional"):
            vector_mean_interval([0.1, 0.2], lower=0, upper=1, delta=0.1)
        with pytest.raises(InvalidParameterError, match="coordinate 1 has lower=1.0"):
            vector_mean_interval([[0.1, 0.2]], lower=[0, 1], upper=[1, 1], delta=0.1)
        with pytest.raises(InvalidParameterError, match="must lie in"):
            vector_mean_interval([[0.1, 2.0]], lower=0, upper=1, delta=0.1)
        with pytest.raises(InvalidParameterError, match="`totals_sq` must have the shape"):
            vector_mean_interval_from_sums(5, [1.0, 2.0], [1.0], lower=0, upper=1, delta=0.1)

    def test_squared_norm_needs_two_sided(self, rng):
        box = vector_mean_interval(rng.random((50, 2)), lower=0, upper=1, delta=0.1,
                                   alternative="greater")
        with pytest.raises(InvalidParameterError, match="two-sided"):
            squared_norm_interval(box)
