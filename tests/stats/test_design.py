"""Tests of the sample-size calculator: power as promised, inverse relation, validation."""

import math

import pytest

from laocheck.exceptions import InvalidParameterError
from laocheck.stats import DESIGN_METHODS, detectable_violation, required_samples
from laocheck.stats.calibration import power

from .conftest import TEST_DELTA


@pytest.mark.parametrize("method", ["betting", "bernstein", "prpl-eb", "hoeffding"])
def test_power_bounded(method):
    """A Bernoulli mean shifted by epsilon = 0.05 from the target 0.1, with
    n = required_samples(0.05, beta=0.1, delta=1e-6), is detected in >= 90% of 500 replicates:
    one-sided binomial test of "rate >= 0.9" at level 1e-6."""
    result = power(method, epsilon=0.05, replicates=500)
    assert result.pvalue > TEST_DELTA, result


def test_power_median_of_means():
    """Student-t(3) noise (variance 3) shifted by 0.5: detected in >= 90% of 500 replicates
    (binomial test at 1e-6)."""
    result = power("median-of-means", epsilon=0.5, target=0.0, replicates=500)
    assert result.pvalue > TEST_DELTA, result


@pytest.mark.parametrize("method", DESIGN_METHODS)
def test_required_samples_inverts_detectable(method):
    """n = required_samples(eps) is the least n with detectable_violation(n) <= eps."""
    kwargs = dict(delta=1e-6, beta=0.1, method=method)
    kwargs.update(variance=2.0) if method == "median-of-means" else kwargs.update(lower=0,
                                                                                   upper=1)
    for eps in (0.3, 0.05, 0.01):
        n = required_samples(eps, **kwargs)
        assert detectable_violation(n, **kwargs) <= eps
        assert n == 1 or detectable_violation(n - 1, **kwargs) > eps


def test_hoeffding_closed_form():
    """eps(n) = R (sqrt(ln(2/delta)) + sqrt(ln(1/beta))) / sqrt(2n) for a two-sided test."""
    eps = detectable_violation(1000, lower=-1, upper=1, delta=1e-6, beta=0.1, method="hoeffding")
    assert eps == pytest.approx(2 * (math.sqrt(math.log(2e6)) + math.sqrt(math.log(10)))
                                / math.sqrt(2000))


def test_variance_helps_bernstein():
    """A small variance bound needs far fewer draws than the worst case (1/4 on [0, 1])."""
    worst = required_samples(0.01, lower=0, upper=1, delta=1e-6, method="bernstein")
    small = required_samples(0.01, lower=0, upper=1, delta=1e-6, method="bernstein",
                             variance=0.01)
    one_sided = required_samples(0.01, lower=0, upper=1, delta=1e-6, method="bernstein",
                                 variance=0.01, alternative="greater")
    assert small < worst / 5 and one_sided <= small


class TestIV:
    def test_errors(self):
        with pytest.raises(InvalidParameterError, match="`epsilon` must be"):
            required_samples(0, lower=0, upper=1, delta=0.1)
        with pytest.raises(InvalidParameterError, match="`beta` must satisfy"):
            required_samples(0.1, lower=0, upper=1, delta=0.1, beta=1)
        with pytest.raises(InvalidParameterError, match="`variance` must satisfy"):
            required_samples(0.1, lower=0, upper=1, delta=0.1, variance=1.0)
        with pytest.raises(InvalidParameterError, match="`variance` must be given"):
            required_samples(0.1, delta=0.1, method="median-of-means")
        with pytest.raises(InvalidParameterError, match="`n` must be an integer"):
            detectable_violation(0, lower=0, upper=1, delta=0.1)
        with pytest.raises(InvalidParameterError, match="finite real"):
            detectable_violation(10, delta=0.1)  # bounded methods need lower and upper
