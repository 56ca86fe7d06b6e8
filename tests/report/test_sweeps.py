"""laocheck.experiments.sweeps: the computations behind the bounds report (its grid points are
the theorems' runs, its slopes laocheck.experiments.scaling_slope, its tuning independent of
its evaluation)."""

import math

import numpy as np
import pytest

from laocheck import bounds
from laocheck.exceptions import InvalidParameterError
from laocheck.experiments import child_seeds, compare, scaling_slope
from laocheck.experiments.sweeps import sweep, tune_step
from laocheck.experiments.theorems import default_distribution, run_theorem, theorem_setup


def test_sweep_points_are_the_theorem_runs_and_slopes_follow():
    values = [50, 100, 200]
    sw = sweep("HK12.Thm3.1", "m", values, d=16, k=2, R=4, seed=11)
    children = child_seeds(11, 3)
    comps = []
    for v, child, p in zip(values, children, sw.points):
        comp, _ = run_theorem("HK12.Thm3.1", d=16, k=2, m=v, R=4, seed=child, kind="hard")
        comps.append(comp)
        assert (p.m, p.bound, p.mean, p.low, p.high) == (v, comp.bound, comp.mean,
                                                         comp.interval.low, comp.interval.high)
        # HK12 Thm 3.1's bound 4 B^2 sqrt(2d/(km)) at B = 1
        assert math.isclose(p.bound, 4 * math.sqrt(2 * 16 / (2 * v)), rel_tol=1e-12)
    slope, lo, hi = scaling_slope([c.interval for c in comps], values)
    assert sw.slope == slope
    assert sw.slope_low == (None if comps[-1].interval.low <= 0 else lo)
    assert sw.slope_high == (None if comps[0].interval.low <= 0 else hi)
    assert math.isclose(sw.bound_slope, -0.5, rel_tol=1e-9)   # the bound's exponent in m
    assert sw.slope_delta == 2 * sw.delta
    d = sw.to_dict()
    assert d["values"] == values and d["points"][0]["m"] == 50


def test_sweep_is_the_same_for_any_number_of_jobs():
    one = sweep("HK12.Thm3.4", "k", [1, 2], d=8, m=100, R=3, seed=4).to_dict()
    two = sweep("HK12.Thm3.4", "k", [1, 2], d=8, m=100, R=3, seed=4, n_jobs=2).to_dict()
    for p in one["points"] + two["points"]:
        p.pop("seconds")
    assert one == two


@pytest.mark.parametrize("kwargs, message", [
    (dict(theorem="HK12.Thm9", variable="m", values=[1, 2]), "`theorem` must be one of"),
    (dict(theorem="HK12.Thm3.1", variable="B", values=[1, 2]), "`variable` must be one of"),
    (dict(theorem="HK12.Thm3.1", variable="m", values=[100]), "`values` must be at least 2"),
    (dict(theorem="HK12.Thm3.1", variable="m", values=[200, 100]), "increasing"),
    (dict(theorem="HK12.Thm3.1", variable="m", values=[0, 100]), "`m`"),
])
def test_sweep_rejects_bad_input(kwargs, message):
    with pytest.raises(InvalidParameterError, match=message):
        sweep(**kwargs, R=2)


def test_tuned_step_is_evaluated_on_independent_replicates():
    kw = dict(d=16, k=2, m=100, B=1.0)
    st = tune_step("HK12.Thm3.1", **kw, R_tune=3, R_eval=4, seed=9, multipliers=(0.5, 1.0, 4.0))
    dist = default_distribution("HK12.Thm3.1", 16, 1.0, -1.0, "hard")
    spec, bound, _ = theorem_setup("HK12.Thm3.1", dist, 2, 100, 1.0)
    assert st.theory_eta == bounds.FORMULAS["HK12.Thm3.1.eta"](d=16, k=2, m=100)
    assert st.best_multiplier == (0.5, 1.0, 4.0)[int(np.argmin(st.tune_means))]
    _, eval_seed = child_seeds(9, 2)
    theory = compare("HK12.Thm3.1", spec, dist, 100, bound, norm="l2", B=1.0, R=4,
                     delta=st.delta, seed=eval_seed)
    assert (st.theory_mean, st.theory_low, st.theory_high) == (
        theory.mean, theory.interval.low, theory.interval.high)
    # the evaluation replicates are not the tuning ones: at c = 1 the means differ
    assert st.tune_means[1] != st.theory_mean
    assert st.cost == st.theory_mean / st.tuned_mean
    with pytest.raises(InvalidParameterError, match="`multipliers` must contain 1.0"):
        tune_step("HK12.Thm3.1", **kw, multipliers=(0.5, 2.0))
    with pytest.raises(InvalidParameterError, match="`theorem` must be one of"):
        tune_step("KS15.Thm3.12", **kw)
