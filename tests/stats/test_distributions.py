"""Tests of the sampler-distribution tests: false-failure rate, power, exactness, validation."""

import numpy as np
import pytest
from scipy import stats

from laocheck.exceptions import InvalidParameterError
from laocheck.stats import (clopper_pearson, multinomial_test, two_sample_ks_test,
                            two_sample_mean_test, two_sample_test)

from .conftest import TEST_DELTA

LOOSE = 0.05  # level under calibration: false failures must be measurable
PROBS = np.array([0.5, 0.3, 0.15, 0.04, 0.01, 0.0])


def _rate_ok(failures, replicates, delta):
    """One-sided binomial test of "failure rate <= delta" at level TEST_DELTA."""
    return stats.binomtest(failures, replicates, delta, alternative="greater").pvalue > TEST_DELTA


def _rng(*key):
    return np.random.default_rng(np.random.SeedSequence(list(key)))


@pytest.mark.parametrize("method", ["binomial", "gtest"])
def test_multinomial_false_failure_rate(method):
    """Counts from the claimed probabilities, 2000 replicates at delta=0.05: the test fails in
    at most 5% of them (binomial test at 1e-6)."""
    counts = _rng(1, len(method)).multinomial(400, PROBS, size=2000)
    failures = sum(multinomial_test(c, PROBS, delta=LOOSE, method=method).status == "FAIL"
                   for c in counts)
    assert _rate_ok(failures, 2000, LOOSE), failures


def test_multinomial_detects_beyond_detectable(rng):
    """A claim off by more than the realised ``detectable`` is refuted (probability >= 1 - 1e-6
    by construction of the intervals)."""
    true = np.array([0.5, 0.3, 0.2])
    counts = rng.multinomial(50_000, true)
    ok = multinomial_test(counts, true, delta=TEST_DELTA)
    assert ok.passed and ok.low.shape == (3,)
    shift = 1.01 * ok.detectable
    claim = true + np.array([shift, -shift, 0.0])
    bad = multinomial_test(counts, claim, delta=TEST_DELTA)
    assert bad.status == "FAIL" and bad.worst_category in (0, 1)


def test_zero_probability_category_fails():
    result = multinomial_test([10, 0, 1], [0.5, 0.5, 0.0], delta=1e-6)
    assert result.status == "FAIL" and result.worst_category == 2
    assert multinomial_test([10, 0, 1], [0.5, 0.5, 0.0], delta=1e-6,
                            method="gtest").status == "FAIL"


def test_clopper_pearson_matches_scipy():
    for c, n in [(0, 10), (3, 10), (10, 10), (17, 400)]:
        ci = stats.binomtest(c, n).proportion_ci(confidence_level=1 - 1e-3, method="exact")
        low, high = clopper_pearson([c], n, 1e-3)
        assert low[0] == pytest.approx(ci.low, abs=1e-12)
        assert high[0] == pytest.approx(ci.high, abs=1e-12)


def test_gtest_threshold_is_method_of_types():
    """Threshold = 2 (ln C(N + K - 1, K - 1) + ln(1/delta)) over the support of the claim."""
    from math import comb, log

    result = multinomial_test([30, 50, 20, 0], [0.3, 0.5, 0.2, 0.0], delta=1e-3, method="gtest")
    assert result.threshold == pytest.approx(2 * (log(comb(102, 2)) + log(1e3)))
    assert result.statistic == pytest.approx(0.0, abs=1e-12) and result.passed


def test_two_sample_false_failure_rate():
    """Two samples from the same law, 2000 replicates at delta=0.05: <= 5% failures
    (binomial test at 1e-6)."""
    rng = _rng(2)
    a, b = rng.multinomial(300, PROBS, size=2000), rng.multinomial(500, PROBS, size=2000)
    failures = sum(two_sample_test(x, y, delta=LOOSE).status == "FAIL" for x, y in zip(a, b))
    assert _rate_ok(failures, 2000, LOOSE), failures


def test_two_sample_power(rng):
    """Category 0 has probability 0.5 vs 0.4 with 20000 draws each: the per-category exact
    test rejects (p-value far below 1e-6 / K for such a gap: z ~ 20)."""
    a = rng.multinomial(20_000, [0.5, 0.3, 0.2])
    b = rng.multinomial(20_000, [0.4, 0.4, 0.2])
    result = two_sample_test(a, b, delta=TEST_DELTA)
    assert result.status == "FAIL" and result.worst_category in (0, 1)
    assert result.pvalues.shape == (3,)


def test_ks_false_failure_rate():
    """Same continuous law, delta=0.05, 2000 replicates: <= 5% failures (binomial, 1e-6)."""
    rng = _rng(3)
    failures = sum(two_sample_ks_test(rng.random(100), rng.random(150), delta=LOOSE).status
                   == "FAIL" for _ in range(2000))
    assert _rate_ok(failures, 2000, LOOSE), failures


def test_ks_detects_beyond_detectable(rng):
    """CDFs differing by more than ``detectable`` are told apart (probability >= 1 - 1e-6)."""
    same = two_sample_ks_test(rng.random(20_000), rng.random(20_000), delta=TEST_DELTA)
    gap = 1.01 * same.detectable  # U[0,1] vs U[gap, 1+gap]: sup CDF difference = gap
    diff = two_sample_ks_test(rng.random(20_000), gap + rng.random(20_000), delta=TEST_DELTA)
    assert same.passed and diff.status == "FAIL"


def test_two_sample_mean(rng):
    """Means differing by more than the sum of widths are told apart (prob >= 1 - 1e-6)."""
    a = rng.random(5000)
    same = two_sample_mean_test(a, rng.random(5000), lower=0, upper=1, delta=TEST_DELTA)
    shift = 3 * same.detectable
    b = shift + (1 - shift) * rng.random(5000)  # mean (1 + shift) / 2, values in [0, 1]
    diff = two_sample_mean_test(a, b, lower=0, upper=1, delta=TEST_DELTA)
    assert shift / 2 > diff.detectable  # the gap of means exceeds what the test guarantees
    assert same.passed and diff.status == "FAIL"
    assert set(same.details) == {"interval_a", "interval_b"}


class TestIV:
    def test_counts(self):
        with pytest.raises(InvalidParameterError, match="`counts` must be a nonempty 1-D"):
            multinomial_test([1.5, 2], [0.5, 0.5], delta=0.1)
        with pytest.raises(InvalidParameterError, match="`counts` must contain at least one"):
            multinomial_test([0, 0], [0.5, 0.5], delta=0.1)

    def test_probs(self):
        with pytest.raises(InvalidParameterError, match="`probs` must be finite, nonnegative"):
            multinomial_test([1, 2], [0.6, 0.6], delta=0.1)
        with pytest.raises(InvalidParameterError, match="`probs` must have one entry"):
            multinomial_test([1, 2], [1.0], delta=0.1)

    def test_method_delta_shapes(self):
        with pytest.raises(InvalidParameterError, match="`method` must be one of"):
            multinomial_test([1, 2], [0.5, 0.5], delta=0.1, method="chi2")
        with pytest.raises(InvalidParameterError, match="`delta` must satisfy"):
            two_sample_test([1, 2], [2, 1], delta=0)
        with pytest.raises(InvalidParameterError, match="`counts_b` must have the shape"):
            two_sample_test([1, 2], [2, 1, 0], delta=0.1)
        with pytest.raises(InvalidParameterError, match="`a` must contain only finite"):
            two_sample_ks_test([np.nan], [1.0], delta=0.1)
