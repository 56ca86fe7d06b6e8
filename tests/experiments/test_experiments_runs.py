"""laocheck.experiments: seeding (identical for any n_jobs, replicates re-derivable by hand),
the proven per-run range, violation detection, slopes, and the section-3 checks' statuses.

The statistical decisions here are the section-3 checks themselves (betting intervals at
delta = 1e-6 each) and are deterministic given their seeds.
"""

import math

import numpy as np
import pytest

from laocheck import checks as catalog
from laocheck.data import HK12HardInstance, PowerLawBernoulli
from laocheck.exceptions import InvalidParameterError
from laocheck.experiments import (LearnerConfig, compare, excess_risk_range, replicate,
                                  scaling_slope)
from laocheck.experiments.theorems import (THEOREMS, available, default_distribution,
                                           oracle_available, run_theorem, theorem_setup)
from laocheck import learners as learners_module
from laocheck.learners import AELR, AERR
from laocheck.stats import mean_interval


def test_replicate_identical_for_any_n_jobs():
    dist = PowerLawBernoulli(20, -1.0, scenario="ridge")
    spec = LearnerConfig(AERR, dict(k=2, B=1.0, eta=0.05))
    a, _ = replicate(spec, dist, 200, norm="l2", B=1.0, R=6, seed=7, n_jobs=1)
    b, _ = replicate(spec, dist, 200, norm="l2", B=1.0, R=6, seed=7, n_jobs=2)
    assert np.array_equal(a, b)
    c, _ = replicate(spec, dist, 200, norm="l2", B=1.0, R=6, seed=8, n_jobs=1)
    assert not np.array_equal(a, c)


def test_replicate_seeds_rederived_by_hand():
    dist = HK12HardInstance(20, 0.5)
    spec = LearnerConfig(AERR, dict(k=2, B=1.0, eta=0.05))
    excess, attrs = replicate(spec, dist, 100, norm="l2", B=1.0, R=4, seed=3)
    child = np.random.SeedSequence(3).spawn(4)[2]
    data_seed, learner_seed = child.spawn(2)
    X, y = dist.sample(100, np.random.default_rng(data_seed))
    w = AERR(k=2, B=1.0, eta=0.05, random_state=np.random.default_rng(learner_seed)).fit(X, y).coef_
    direct = 0.5 * np.mean([(x @ w - t) ** 2 for x, t in zip(*dist.sample(1, np.random.default_rng(0)))])
    assert direct >= 0
    assert excess[2] == dist.excess_risk(w, "l2", 1.0)
    assert attrs[2] <= 100 * 3                           # at most k + 1 attributes per example


@pytest.mark.parametrize("norm", ["l2", "l1"])
def test_excess_risk_range_holds_over_the_ball(norm):
    dist = PowerLawBernoulli(30, -0.5, scenario="ridge" if norm == "l2" else "lasso")
    low, high = excess_risk_range(dist, norm, 1.0)
    rng = np.random.default_rng(1)
    worst = -np.inf
    for _ in range(2000):
        v = rng.standard_normal(30) * (rng.random(30) < 0.3)
        if not v.any():
            continue
        v /= np.linalg.norm(v) if norm == "l2" else np.abs(v).sum()
        w = v * (1.0 if rng.random() < 0.5 else rng.random())
        e = dist.excess_risk(w, norm, 1.0)
        worst = max(worst, e)
        assert low <= e <= high
    # the range is not vacuous: it is below the generic (B + sup|y|)^2/2 bound
    assert high <= dist.excess_risk_bound(norm, 1.0) * (1 + 1e-8)


def test_compare_detects_a_violation_and_reports_ratio():
    dist = HK12HardInstance(20, 0.5)
    spec = LearnerConfig(AERR, dict(k=2, B=1.0, eta=1e-4))      # barely moves: large excess
    comp = compare("test", spec, dist, 200, 1e-6, norm="l2", B=1.0, R=40, delta=1e-6)
    assert comp.violation and comp.interval.low > 1e-6
    assert comp.ratio == pytest.approx(np.mean(comp.excess) / 1e-6)
    ok = compare("test", spec, dist, 200, 10.0, norm="l2", B=1.0, R=40, delta=1e-6)
    assert not ok.violation


def test_scaling_slope_on_exact_power_law():
    xs = [100, 400, 1600]
    ivs = [mean_interval(np.full(50, 2.0 * x ** -0.5), lower=0, upper=1, delta=1e-6) for x in xs]
    slope, lo, hi = scaling_slope(ivs, xs)
    assert slope == pytest.approx(-0.5, abs=1e-12)
    assert lo <= -0.5 <= hi
    with pytest.raises(InvalidParameterError):
        scaling_slope(ivs[:1], xs[:1])


def test_theorem_setup_uses_bounds_step_sizes():
    dist = PowerLawBernoulli(50, -1.0, scenario="ridge")
    spec, bound, figs = theorem_setup("HK12.Thm3.1", dist, 4, 1000, 1.0)
    assert spec.params["eta"] == pytest.approx(math.sqrt(4 / (2 * 50 * 1000)))
    assert bound == pytest.approx(4 * math.sqrt(100 / 4000))
    # the learners' own "theory" step size agrees for AERR (HK12 Thm 3.1)
    X, y = dist.sample(1000, np.random.default_rng(0))
    assert AERR(k=4, B=1.0).fit(X, y).eta_ == pytest.approx(spec.params["eta"], rel=1e-12)


def test_theorem_availability_and_errors():
    av = available()
    assert set(av) == set(THEOREMS)
    assert av["HK12.Thm3.1"] is True
    with pytest.raises(InvalidParameterError, match="theorem"):
        run_theorem("HK12.Thm9.9")


def test_section3_checks_expected_status():
    ids = [c.id for c in catalog.checks() if c.func.__module__.rsplit(".", 1)[-1] == "empirical"]
    assert {"HK12.Thm3.1.empirical", "KS15.Thm4.6.empirical", "LAO.Bounds.scaling.empirical"} <= set(ids)
    for cid in ids:
        r = catalog.run(cid, seed=0, effort="fast")
        assert r.status == r.expected, (cid, r.note)
        if cid.endswith(".empirical") and "ratio" in r.figures:
            f = r.figures
            assert f["excess_low"] <= f["excess_mean"] <= f["excess_high"]
            assert f["excess_low"] <= f["bound"] and not f["violation"]
            if "w_star_certificate" in f:               # the per-theorem checks record it
                assert f["w_star_certificate"] <= 1e-10


def test_hk12_thm34_counterexample_is_decisive():
    r = catalog.run("HK12.Thm3.4.literal", seed=3)
    f = r.figures
    assert r.status == "ERRATUM" and f["excess_low"] > f["bound"]
    # the stated bound 4B^2 sqrt(10 d log 2d/(km)) at d = 2, k = 1, m = 1e4, B = 100, by hand
    assert f["bound"] == pytest.approx(4e4 * math.sqrt(20 * math.log(4) / 1e4))
    assert r.counterexample["B"] == 100.0


def test_scale_check_shows_the_printed_aelr_step_is_not_equivariant():
    r = catalog.run("LAO.Bounds.scaling.empirical", seed=1)
    assert r.figures["AERR"]["max_rel_dev_from_c^2"] <= 1e-6
    assert r.figures["AELR.printed_eta"]["max_rel_dev_from_c^2"] > 1e-3


def test_learners_local_step_sizes_equal_the_bounds_formulas():
    """The learners' eta="theory" (ridge.theory_step_size, lasso.lasso_theory_step_size,
    aer.aer_lambda) against laocheck.bounds: the integrator replaces the former by the latter."""
    from laocheck import bounds
    from laocheck.learners import aer_lambda, lasso_theory_step_size, theory_step_size
    rng = np.random.default_rng(3)
    d, k, m, B = 30, 4, 500, 1.7
    mom = rng.random(d) / d
    q = rng.random(d)
    q /= q.sum()
    assert theory_step_size(m, k, B, q, mom) == pytest.approx(
        bounds.ridge_step_size(m, B, bounds.ridge_gradient_bound(B, k, mom, q)), rel=1e-12)
    ddq = np.sqrt(mom) / np.sqrt(mom).sum()
    assert theory_step_size(m, k, B, ddq, mom) == pytest.approx(
        bounds.evaluate("KS15.Thm3.5.eta", m=m, N_half=bounds.norm_half(mom), k=k), rel=1e-12)
    assert lasso_theory_step_size(m, k, B, q, mom, d) == pytest.approx(
        bounds.lasso_step_size(m, d, bounds.lasso_gradient_bound(B, k, mom, q)), rel=1e-12)
    assert lasso_theory_step_size(m, k, B, mom / mom.sum(), mom, d) == pytest.approx(
        bounds.evaluate("KS15.Thm4.6.eta", B=B, d=d, m=m, N_one=bounds.norm_one(mom), k=k), rel=1e-12)
    assert lasso_theory_step_size(m, k, B, None, None, d) == pytest.approx(
        bounds.evaluate("HK12.Thm3.4.eta", d=d, k=k, m=m, B=B), rel=1e-12)
    assert aer_lambda(m, k, d, "statement") == pytest.approx(
        bounds.evaluate("CB11.Thm12.lambda", d=d, k=k, m=m), rel=1e-12)
    assert aer_lambda(m, k, d, "proof") == pytest.approx(
        bounds.evaluate("CB11.Thm12.lambda_proof", d=d, k=k, m=m), rel=1e-12)


def test_ks15_thm47_any_m1_counterexample():
    r = catalog.run("KS15.Thm4.7.as_any_m1", seed=5)
    f = r.figures
    assert r.status == "ERRATUM" and f["excess_low"] > f["bound"]
    # 61 B^2 sqrt(d log 2d/(k m2)) at d = 2, k = 1, m2 = 1e5, B = 1, by hand
    assert f["bound"] == pytest.approx(61 * math.sqrt(2 * math.log(4) / 1e5))
    # eps = d log(2d/delta)/((k+1) m1) = ln(80)/1e9 < 1, so Lemma 4.8 is not "w.p. 1" here
    assert f["eps"] == pytest.approx(math.log(80) / 1e9)


@pytest.mark.parametrize("theorem", sorted(THEOREMS))
def test_oracle_available_is_what_fit_oracle_does(theorem):
    """``oracle_available`` (which the full-budget empirical checks use to pick the attribute
    oracle) is True exactly when the theorem's learner fits through an oracle, and False
    exactly when fit_oracle refuses."""
    dist = default_distribution(theorem, 16, 1.0, kind="hard")
    if theorem == "HK12.Thm4.4":                  # no numeric setup (no explicit constant)
        learner = getattr(learners_module, THEOREMS[theorem][1])(k=2, random_state=0)
    else:
        spec, _, _ = theorem_setup(theorem, dist, 2, 50, 1.0)
        learner = spec.build(np.random.default_rng(0))
    oracle = dist.oracle(np.random.default_rng(1))
    if oracle_available(theorem):
        assert learner.fit_oracle(oracle, 50).n_steps_ == 50
    else:
        with pytest.raises(InvalidParameterError, match="oracle"):
            learner.fit_oracle(oracle, 50)


def test_full_budget_empirical_checks_use_the_oracle_where_it_exists(monkeypatch):
    """The empirical checks run ``run_theorem`` with source="oracle" at the full budget exactly
    for the theorems whose learner has an oracle path, and on rows at the fast budget (the
    runs themselves are replaced by a recorder: the sizes are the full budget's)."""
    from laocheck.checks._kinds import empirical
    from laocheck.checks._registry import Context
    calls = {}

    def recorder(theorem, **kw):
        calls[theorem] = kw["source"]
        raise RuntimeError("recorded")

    monkeypatch.setattr(empirical, "run_theorem", recorder)
    ids = [c for c in catalog.checks() if c.func.__module__.rsplit(".", 1)[-1] == "empirical"
           and c.id.endswith(".empirical") and c.id.rsplit(".", 1)[0] in THEOREMS]
    assert len(ids) >= 6
    for budget in ("fast", "full"):
        calls.clear()
        for c in ids:
            ctx = Context(np.random.default_rng(0), effort=budget,
                          seed_sequence=np.random.SeedSequence(0))
            with pytest.raises(RuntimeError, match="recorded"):
                c.func(ctx)
        expected = {c.id.rsplit(".", 1)[0]: "oracle" if budget == "full"
                    and oracle_available(c.id.rsplit(".", 1)[0]) else "rows" for c in ids}
        assert calls == expected
    assert sum(oracle_available(t) for t in expected) >= 6
