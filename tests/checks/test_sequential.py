"""Issue 51 item 2 outside the grids: the draws of the Monte Carlo kernel comparisons, the
sequential stopping of HK12's grid checks and the draws they share."""
import numpy as np
import pytest

from laocheck import estimators
from laocheck.checks.algorithms.estimator_properties import MalformedDraws, draws_values
from laocheck.estimators import Draws
from laocheck.estimators.instances import INSTANCES, as_float
from laocheck.stats.choice_tree import draws_of


class _Fixed:
    """A user's sampler that returns the draws it was built with (any dtype)."""

    def __init__(self, values, attributes, wrap=Draws):
        self.values, self.attributes, self.wrap = values, attributes, wrap

    def sample(self, w, x, y, n, rng):
        return self.wrap(self.values[:n], self.attributes[:n])


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int8, np.bool_])
def test_draws_values_numeric_arrays_match_the_object_path(dtype):
    rng = np.random.default_rng(3)
    raw = (rng.normal(size=(500, 4)) * 1e3).astype(dtype)
    att = rng.integers(0, 5, size=500)
    got, got_att = draws_values(_Fixed(raw, att), "d4", 500, rng)
    ref = np.asarray(draws_of(Draws(raw, att), 500)[0], dtype=float)
    assert got.dtype == np.float64 and got.shape == (500, 4)
    assert np.array_equal(got, ref) and np.array_equal(got_att, att)


def test_draws_values_of_a_kernel_equal_the_object_path():
    est = estimators.get("HK12.AERR.gradient", k=2)
    wf, xf, yf = as_float(INSTANCES["d4"])
    direct, att = draws_values(est, "d4", 20_000, np.random.default_rng(7))
    drawn = est.sample(wf, xf, yf, n=20_000, rng=np.random.default_rng(7))
    values, attributes = draws_of(drawn, 20_000)
    assert np.array_equal(direct, np.asarray(values, dtype=float))
    assert np.array_equal(att, attributes)


def test_draws_values_still_refuses_malformed_draws():
    raw = np.ones((10, 4))
    raw[3, 1] = np.nan
    with pytest.raises(MalformedDraws, match="draw 3, coordinate 1"):
        draws_values(_Fixed(raw, np.ones(10, dtype=int)), "d4", 10, None)
    with pytest.raises(MalformedDraws, match="attribute count 1.5"):
        draws_values(_Fixed(np.ones((10, 4)), np.full(10, 1.5)), "d4", 10, None)
    # complex values are not real numbers: the object path refuses them, never a silent cast
    with pytest.raises((MalformedDraws, TypeError, ValueError)):
        draws_values(_Fixed(np.ones((10, 4)) + 1j, np.ones(10, dtype=int)), "d4", 10, None)


# ------------------------------------------------------------------ HK12's grids, sequential

def test_hk12_thm31_grid_stops_early_where_decided_and_keeps_its_former_power():
    from laocheck.checks import run
    from laocheck.checks._kinds import empirical

    record = run("HK12.Thm3.1.empirical", seed=0, effort="fast")
    assert record.status == "PASS"
    grid = record.figures["grid"]
    assert [(r["d"], r["k"], r["B"]) for r in grid] == \
        [(d, k, B) for d, k, B in empirical._GRIDS["HK12.Thm3.1"]["fast"]["points"]]
    # the fixed design ran 600 runs at every point (2400); the points decided early stop
    assert record.figures["runs"] < 4 * 600
    assert any(r["R"] < r["max_R"] for r in grid if r["role"] == "other")
    # the power of the former fixed-R check (3.456 at seed 0) is kept
    assert record.detects <= empirical.DETECTS_TARGET["HK12.Thm3.1.empirical"]["fast"]
    assert record.detects == min(r["detects"] for r in grid)
    # every look's lower end at its own level: the levels of the looks sum to at most δ/points
    for r in grid:
        assert r["delta_last_look"] <= 1e-6 / len(grid)


def test_hk12_thm31_grid_fails_a_bound_halved_at_the_first_looks(monkeypatch):
    """The user's slip: HK12 Thm 3.1's bound typed with 1/2 for its 4 (÷8)."""
    import dataclasses

    from laocheck import bounds
    from laocheck.checks import run

    entry = bounds.FORMULAS["HK12.Thm3.1.bound"]
    monkeypatch.setitem(bounds.FORMULAS, "HK12.Thm3.1.bound",
                        dataclasses.replace(entry, expr=entry.expr / 8))
    record = run("HK12.Thm3.1.empirical", seed=0, effort="fast")
    assert record.status == "FAIL"
    assert record.counterexample["excess_low"] > record.counterexample["bound"]
    assert record.figures["runs"] < 600           # refuted long before the former 4 x 600 runs


# ------------------------------------------------------------------ shared draws (homogeneity in B)

def test_hk12_high_dim_b100_point_shares_the_b1_runs_scaled_by_b_squared():
    from laocheck.checks import run

    record = run("HK12.Thm3.1.high_dim.empirical", seed=0, effort="fast")
    assert record.status == "PASS"
    rows = {(r["d"], r["k"], r["B"]): r for r in record.figures["points"]}
    b1, b100 = rows[(10**4, 4, 1.0)], rows[(10**4, 4, 100.0)]
    assert b100["runs_shared_with_B"] == 1.0
    assert b100["ratio"] == b1["ratio"] and b100["detects"] == b1["detects"]
    for key in ("mean", "low", "high", "bound"):
        assert b100[key] == pytest.approx(1e4 * b1[key], rel=1e-12)


def test_a_learner_not_homogeneous_in_b_is_run_in_full(monkeypatch):
    """A learner whose runs are not homogeneous in B (here its excess risks at B = 100 are
    10⁴ x 1.001 times those at B = 1): the probe refuses to share, and the point is run with
    its own R, as the fixed design did."""
    from laocheck.checks import run
    from laocheck.checks._kinds import empirical

    calls = []
    real = empirical.run_theorem

    def spy(theorem, **kw):
        calls.append((kw["B"], kw["R"]))
        comp, figs = real(theorem, **kw)
        if kw["B"] == 100.0:                       # a learner whose runs at B = 100 differ
            comp = dataclasses_replace(comp, excess=np.asarray(comp.excess) * 1.001)
        return comp, figs

    monkeypatch.setattr(empirical, "run_theorem", spy)
    record = run("HK12.Thm3.1.high_dim.empirical", seed=0, effort="fast")
    assert (100.0, empirical.HOMOGENEITY_PROBE) in calls and (100.0, 100) in calls
    assert "runs_shared_with_B" not in record.figures["points"][3]


def dataclasses_replace(obj, **changes):
    import dataclasses
    return dataclasses.replace(obj, **changes)


# ------------------------------------------------------------------ errata drawn sequentially

def _compare_of(draw, bound):
    """compare() for runs drawn from a user's numpy law on the range [0, 10]."""
    from laocheck.experiments import Comparison
    from laocheck.stats import mean_interval

    def run(size, seed):
        excess = draw(size, np.random.default_rng(seed))
        iv = mean_interval(excess, lower=0.0, upper=10.0, delta=1e-6)
        return Comparison(theorem="T", learner="L", distribution="D", d=2, k=1, m=10, B=1.0,
                          R=size, bound=bound, interval=iv, excess=excess, range=(0.0, 10.0))
    return run


def test_sequential_comparison_stops_once_refuted_with_full_power():
    from laocheck.checks._kinds.empirical import interval_detects_factor, sequential_comparison

    draw = lambda n, rng: rng.uniform(2.0, 4.0, n)          # noqa: E731  mean 3, bound 1
    comp, looks = sequential_comparison(_compare_of(draw, 1.0), np.random.SeedSequence(1),
                                        800, 1e-6)
    assert comp.violation and interval_detects_factor(comp) == 1.0
    assert looks == 1 and comp.R == 100 and comp.excess.size == 100
    assert comp.interval.delta < 1e-6                   # the first look's share of δ


def test_sequential_comparison_of_a_true_bound_runs_to_max_n_and_never_fails():
    from laocheck.checks._kinds.empirical import sequential_comparison

    draw = lambda n, rng: rng.uniform(0.0, 1.0, n)          # noqa: E731  mean 0.5, bound 0.6
    comp, looks = sequential_comparison(_compare_of(draw, 0.6), np.random.SeedSequence(2),
                                        800, 1e-6)
    assert not comp.violation and comp.R == 800 and looks == 4
    # the runs of every look are fresh: no draw repeated
    assert np.unique(comp.excess).size == 800


def test_hk12_thm34_proof_eta_b1_point_shares_the_b100_runs():
    from laocheck.checks import run

    record = run("HK12.Thm3.4.proof_eta.empirical", seed=0, effort="fast")
    assert record.status == "PASS"
    rows = {(r["d"], r["k"], r["B"]): r for r in record.figures["points"]}
    b100, b1 = rows[(2, 1, 100.0)], rows[(2, 1, 1.0)]
    assert b1["runs_shared_with_B"] == 100.0 and b1["ratio"] == b100["ratio"]
    assert b1["bound"] == pytest.approx(1e-4 * b100["bound"], rel=1e-12)
    assert "runs_shared_with_B" not in b100


# ------------------------------------------------------------------ grouping the kernel draws

def test_distinct_rows_by_hash_equals_the_lexicographic_grouping():
    from laocheck.checks._common import _distinct_rows_by_hash, distinct_rows

    rng = np.random.default_rng(4)
    table = rng.integers(0, 5, size=(50_000, 3)).astype(float) / 4 - 0.5
    table[::3, 1] = -0.0 * table[::3, 1]                    # -0.0 and 0.0 are one value
    rows, counts = distinct_rows(table)
    want_rows, want_counts = np.unique(table + 0.0, axis=0, return_counts=True)
    assert np.array_equal(rows, want_rows) and np.array_equal(counts, want_counts)
    # a NaN equals nothing: the hash refuses, the lexicographic sort decides (a row of its own)
    table[7, 0] = np.nan
    assert _distinct_rows_by_hash(table) is None
    rows, counts = distinct_rows(table)
    assert counts.sum() == 50_000 and np.isnan(rows).any(axis=1).sum() == 1
