"""laocheck.stats.paired: order-statistic bounds on a median, the intersection-union decision
over check points, and the sign test's power, against independent computations (exact
binomial sums with integers, brute-force coverage)."""

import math
from fractions import Fraction

import numpy as np
import pytest

from laocheck.exceptions import InvalidParameterError
from laocheck.stats import (median_bounds, paired_median_test, sign_rank, sign_test_detectable,
                            sign_test_power, sign_test_runs, win_probability)


def _cdf_half(n, j):
    """P(Bin(n, 1/2) <= j), exactly."""
    return Fraction(sum(math.comb(n, i) for i in range(j + 1)), 2 ** n)


@pytest.mark.parametrize("n", [1, 5, 19, 20, 24, 30, 90, 200])
@pytest.mark.parametrize("alpha", [1e-6, 1e-6 / 6, 0.05])
def test_sign_rank_is_the_largest_rank_with_exact_tail_at_most_alpha(n, alpha):
    l = sign_rank(n, alpha)
    if l:
        assert _cdf_half(n, l - 1) <= Fraction(alpha)
    if l < n:
        assert _cdf_half(n, l) > Fraction(alpha)


def test_sign_rank_known_values():
    # 2^-19 > 1e-6 >= 2^-20: 20 unanimous runs are the fewest that bound a median at 1e-6
    assert sign_rank(19, 1e-6) == 0 and sign_rank(20, 1e-6) == 1
    assert sign_rank(24, 1e-6) == 1 and sign_rank(30, 1e-6) == 3 and sign_rank(90, 1e-6) == 23


def test_median_bounds_are_order_statistics_and_handle_infinities():
    x = np.array([5.0, -np.inf, 1.0, 3.0, np.inf, 2.0, 4.0, 0.0, 6.0, 7.0] * 3)
    low, high, l_low, l_high = median_bounds(x, alpha_low=0.05, alpha_high=0.05)
    s = np.sort(x)
    assert low[0] == s[l_low - 1] and high[0] == s[len(x) - l_high]
    assert l_low == sign_rank(30, 0.05) and low[0] <= np.median(x) <= high[0]
    low, high, l_low, _ = median_bounds(x[:5], alpha_low=1e-6, alpha_high=1e-6)
    assert l_low == 0 and low[0] == -np.inf and high[0] == np.inf


def test_median_bounds_cover_the_median_of_a_discrete_distribution():
    """Exact coverage for a distribution with an atom at its median (no continuity needed):
    D in {0, 1, 2} with P = (0.3, 0.4, 0.3), median 1; the lower bound is above 1 only when at
    most l - 1 values are <= 1, probability P(Bin(n, 0.7) <= l - 1) <= P(Bin(n, 1/2) <= l - 1)."""
    n, alpha = 12, 0.05
    l = sign_rank(n, alpha)
    miss = sum(math.comb(n, j) * Fraction(7, 10) ** j * Fraction(3, 10) ** (n - j)
               for j in range(l))
    assert miss <= Fraction(alpha)


def test_paired_median_test_decisions_and_counts():
    rng = np.random.default_rng(0)
    D = rng.uniform(0.5, 1.0, (30, 4))
    t = paired_median_test(D, delta=1e-6)
    assert t.decision == "above" and t.counts == (30,) * 4 and t.needed == 28
    assert paired_median_test(-D, delta=1e-6).decision == "below"
    # one point against: below there (upper bound at delta/P), never "above"
    E = D.copy()
    E[:, 2] = -E[:, 2]
    assert paired_median_test(E, delta=1e-6).decision == "below"
    # 27 of 30 above at one point: not enough (needs 28), and not below
    F = D.copy()
    F[:3, 1] = -1.0
    t = paired_median_test(F, delta=1e-6)
    assert t.decision == "undecided" and t.counts[1] == 27
    # a threshold: above 0 but not above 0.75 everywhere
    assert paired_median_test(D, threshold=0.75, delta=1e-6).decision == "undecided"
    # 1-d: one point; too few runs decide nothing
    assert paired_median_test(np.ones(19), delta=1e-6).decision == "undecided"
    assert paired_median_test(np.ones(19), delta=1e-6).needed is None


@pytest.mark.parametrize("bad, match", [
    (dict(values=[[1.0, math.nan]]), "NaN"), (dict(values="abc"), "values"),
    (dict(values=np.ones((0, 2))), "values"), (dict(values=[1.0], delta=0.0), "delta"),
    (dict(values=[1.0], threshold=math.inf), "threshold")])
def test_paired_median_test_refuses_bad_input(bad, match):
    kw = dict(values=[1.0, 2.0], delta=1e-6) | bad
    with pytest.raises(InvalidParameterError, match=match):
        paired_median_test(kw.pop("values"), **kw)


def test_power_matches_an_exact_binomial_sum():
    """sign_test_power at one point is P(Bin(n, q) >= needed), summed here with integers."""
    n, q = 30, Fraction(9, 10)
    needed = 30 + 1 - sign_rank(30, 1e-6)
    exact = sum(math.comb(n, j) * q ** j * (1 - q) ** (n - j) for j in range(needed, n + 1))
    assert sign_test_power(30, 0.9, delta=1e-6) == pytest.approx(float(exact), rel=1e-12)
    assert sign_test_power(19, 1.0, delta=1e-6) == 0.0           # 19 runs never decide


def test_design_functions_are_consistent():
    q = win_probability(1.0)
    assert q == pytest.approx(0.8413447460685429)
    R = sign_test_runs(q, delta=1e-6, points=6)
    assert R == 87
    assert sign_test_power(R, q, delta=1e-6, points=6) >= 0.9
    assert sign_test_power(R - 1, q, delta=1e-6, points=6) < 0.9
    qd = sign_test_detectable(90, delta=1e-6, points=6)
    assert 0.5 < qd < q and sign_test_power(90, qd, delta=1e-6, points=6) == pytest.approx(0.9)
    assert math.isnan(sign_test_detectable(19, delta=1e-6))
    with pytest.raises(InvalidParameterError, match="q"):
        sign_test_runs(0.5, delta=1e-6)
