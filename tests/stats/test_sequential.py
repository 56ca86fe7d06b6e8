"""Tests of the sequential tests: error control, early stopping, PASS semantics, validation."""

import math

import numpy as np
import pytest
from scipy import stats

from laocheck.exceptions import InvalidParameterError
from laocheck.stats import look_schedule, sequential_bound_test, sequential_mean_test
from laocheck.stats.calibration import sequential_savings

from .conftest import TEST_DELTA


def bernoulli(p):
    return lambda n, rng: (rng.random(n) < p).astype(float)


def test_schedule_spends_at_most_delta():
    looks = look_schedule(1000, 2.0, 10 ** 7, 1e-6)
    assert looks[-1][0] == 10 ** 7 and all(a[0] < b[0] for a, b in zip(looks, looks[1:]))
    assert math.fsum(d for _, d in looks) <= 1e-6
    assert looks[0][1] == pytest.approx(6e-6 / math.pi ** 2)


@pytest.mark.parametrize("method", ["betting", "bernstein"])
def test_false_failure_rate_loose_delta(method):
    """Claim true (E Z = 0.3), delta = 0.05, 300 replicates: FAIL in <= 5% (binomial test at
    level 1e-6)."""
    seeds = np.random.SeedSequence([11, len(method)]).spawn(300)
    fails = sum(sequential_mean_test(bernoulli(0.3), target=0.3, lower=0, upper=1, delta=0.05,
                                     epsilon=0.05, max_n=4000, batch=100, method=method,
                                     rng=s).status == "FAIL" for s in seeds)
    assert stats.binomtest(fails, 300, 0.05, alternative="greater").pvalue > TEST_DELTA


def test_large_violation_stops_early():
    """E Z = 0.8 vs claim 0.5 (budget: the fixed-n design, > 1e5 draws): every replicate FAILs
    at the first look, 1000 draws. Not stopping there needs the betting interval of 1000
    Bernoulli(0.8) draws to reach 0.5, a deviation of ~24 standard errors (probability
    far below 1e-6 per replicate)."""
    rows = sequential_savings(shifts=(0.3,), replicates=10)
    row = rows[0]
    assert row["fail"] == 10 and row["mean_n"] == 1000 and row["fixed_n"] > 100 * 1000


def test_pass_means_within_tolerance(rng):
    """A true claim with a generous budget PASSes with an interval inside target +- epsilon."""
    result = sequential_mean_test(bernoulli(0.4), target=0.4, lower=0, upper=1,
                                  delta=TEST_DELTA, epsilon=0.05, max_n=10 ** 6, rng=rng)
    assert result.status == "PASS"
    assert 0.35 <= result.interval.low <= result.interval.high <= 0.45
    assert result.detectable == pytest.approx(result.interval.width) and result.n < 10 ** 6


def test_inconclusive_when_budget_too_small(rng):
    result = sequential_mean_test(bernoulli(0.4), target=0.4, lower=0, upper=1,
                                  delta=TEST_DELTA, epsilon=0.001, max_n=5000, rng=rng)
    assert result.status == "INCONCLUSIVE" and result.n == 5000


def test_bound_test(rng):
    """E Z = 0.3: "E Z <= 0.5" PASSes, "E Z <= 0.1" FAILs (each wrong with prob <= 1e-6)."""
    ok = sequential_bound_test(bernoulli(0.3), bound=0.5, lower=0, upper=1, delta=TEST_DELTA,
                               epsilon=0.01, max_n=10 ** 6, rng=rng)
    bad = sequential_bound_test(bernoulli(0.3), bound=0.1, lower=0, upper=1, delta=TEST_DELTA,
                                epsilon=0.01, max_n=10 ** 6, rng=rng)
    assert ok.status == "PASS" and bad.status == "FAIL" and bad.n == 1000
    assert ok.claim == "E[Z] <= 0.5"


class TestIV:
    def test_errors(self):
        kw = dict(lower=0, upper=1, delta=0.1, epsilon=0.1, max_n=100)
        with pytest.raises(InvalidParameterError, match="`draw` must be a callable"):
            sequential_mean_test(None, target=0.5, **kw)
        with pytest.raises(InvalidParameterError, match="`target` must be a finite"):
            sequential_mean_test(bernoulli(0.5), target=float("nan"), **kw)
        with pytest.raises(InvalidParameterError, match="`growth` must be"):
            sequential_mean_test(bernoulli(0.5), target=0.5, growth=1, **kw)
        with pytest.raises(InvalidParameterError, match=r"`draw` must return 10 finite values"):
            sequential_mean_test(lambda n, rng: np.full(n, 2.0), target=0.5, batch=10, **kw)
