"""The empirical bound checks of KS15 and CB11 Thm 12 on their designed points (issue 51): a
bound planted too small FAILs, the power factor ``detects`` means what it says, and the points,
seeds and δ are those of the design."""
import dataclasses

import numpy as np
import pytest

from laocheck import bounds
from laocheck.checks import run
from laocheck.checks._kinds import empirical


# ------------------------------------------------------------------ the bug the check is named for

def test_ks15_thm31_fails_when_its_bound_formula_is_divided_by_4(monkeypatch):
    """The user's slip: KS15 Thm 3.1's bound typed with 1/2 B^2 / (eta m) instead of 2 B^2 /
    (eta m) and eta G^2 / 8 instead of eta G^2 / 2 (the formula the check reads, divided by 4)."""
    entry = bounds.FORMULAS["KS15.Thm3.1.generic"]
    monkeypatch.setitem(bounds.FORMULAS, "KS15.Thm3.1.generic",
                        dataclasses.replace(entry, expr=entry.expr / 4))
    record = run("KS15.Thm3.1.empirical")
    assert record.status == "FAIL"
    # refuted with the runs of the first points, long before the points' largest R
    assert record.counterexample["B"] == 1000.0
    assert record.counterexample["excess_low"] > record.counterexample["bound"]
    assert record.figures["runs"] < 1000


def test_ks15_thm31_holds_and_detects_a_bound_four_times_too_small():
    record = run("KS15.Thm3.1.empirical")
    assert record.status == "PASS"
    # power: a bound 4 times too small is refuted with probability >= 0.9 (the planted bug
    # above), and no factor below b / mean excess can be (the runs' own limit)
    power = next(r for r in record.figures["grid"] if r["role"] == "power")
    assert 1 / power["ratio"] < record.detects < 4
    assert record.detects == min(r["detects"] for r in record.figures["grid"])


# ------------------------------------------------------------------ the power factor

def test_detects_factor_tends_to_bound_over_mean_and_is_1_for_a_refuted_bound():
    rng = np.random.default_rng(5)
    bound = 1.0
    small = rng.uniform(0.2, 0.4, 200)          # mean 0.3: the bound is 3.3 times the mean
    large = rng.uniform(0.2, 0.4, 20000)
    f_small = empirical.detects_factor(small, bound, 1e-7)
    f_large = empirical.detects_factor(large, bound, 1e-7)
    assert 1 / 0.3 < f_large < f_small                # more runs, more power
    assert f_large < 1.05 / 0.3
    # a bound below the mean is refuted outright
    assert empirical.detects_factor(large, 0.2, 1e-7) == 1.0


def test_a_bound_detects_times_too_small_is_refuted_in_nine_runs_of_ten():
    """``detects`` is a promise about fresh runs: a bound F times too small is refuted with
    probability >= 0.9 at the same sample size (checked on 200 fresh samples)."""
    rng = np.random.default_rng(11)
    draw = lambda n: rng.gamma(4.0, 0.075, n)          # noqa: E731  mean 0.3, a right tail
    bound, n, delta = 1.0, 400, 1e-7
    F = empirical.detects_factor(draw(n), bound, delta)
    refuted = [empirical._lower_bound(x, bound / F, delta) > bound / F
               for x in (draw(n) for _ in range(200))]
    assert np.mean(refuted) >= 0.9


# ------------------------------------------------------------------ points, seeds, δ

def test_grid_points_are_at_b_1000_with_delta_split_over_them_and_the_standard_point_first(
        monkeypatch):
    calls = []
    real = empirical.run_theorem

    def recorded(theorem, **kw):
        calls.append(kw)
        return real(theorem, **kw)

    monkeypatch.setattr(empirical, "run_theorem", recorded)
    record = run("KS15.Thm4.6.empirical", seed=3)
    assert record.status == "PASS"
    grid = record.figures["grid"]
    assert [r["role"] for r in grid] == ["standard", "power"]
    assert [(r["B"], r["d"], r["k"]) for r in grid] == [(1.0, 100, 4), (1000.0, 4096, 16)]
    assert record.figures["delta_per_point"] == pytest.approx(1e-6 / 2)
    # each look a batch of fresh runs at delta_j = 6 delta_p / (pi^2 j^2) of the point
    for row in grid:
        j = row["looks"]
        assert row["delta_last_look"] == pytest.approx(6 * 1e-6 / 2 / (np.pi ** 2 * j ** 2))
        assert row["R"] <= row["max_R"]
    assert sum(c["R"] for c in calls) == record.figures["runs"]
    # the same seed gives the same record
    again = run("KS15.Thm4.6.empirical", seed=3)
    assert again.figures == record.figures and again.detects == record.detects
