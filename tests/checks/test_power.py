"""Power on the record (issue "every PASS is evidence", item 6): the factor ``detects`` each
mechanism records is what it claims. Per mechanism, a violation of factor 1.2·F (the true
value 1.2·F times the stated side) is planted where the check reads its stated value, and the
check must FAIL at fast budget and seed 0; for the categorical test the power at exactly F is
shown to be 0.9 (exact) and measured over 200 seeds.
"""
import dataclasses

import numpy as np
import pytest
from scipy import stats as sps

from laocheck import estimators, learners
from laocheck.checks import _common, get, run
from laocheck.checks.algorithms import estimator_properties, learner_records
from laocheck.checks.cb11 import proof_lines
from laocheck.checks._common import (POWER, categorical_detects, coverage_verdict,
                                     multinomial_verdict, worst_ratio_verdict)
from laocheck.checks._proofs import PROOF_TOL
from laocheck.checks._registry import Context, Status
from laocheck.exceptions import InvalidParameterError
from laocheck.stats import clopper_pearson
from laocheck.stats.design import factor_of_shift, proportion_detectable_factor

PLANT = 1.2          # the planted violation is PLANT times the recorded factor


def _with_claims(check, **changes):
    claims = dataclasses.replace(check.kwargs["claims"], **changes)
    return dataclasses.replace(check, kwargs={**check.kwargs, "claims": claims})


# -- the design functions ------------------------------------------------------------------------
def test_factor_of_shift_is_the_shift_over_the_stated_value():
    assert factor_of_shift(2.0, 0.5, side="greater") == 1.25      # 2.5 = 1.25 · 2
    assert factor_of_shift(-2.0, 1.0, side="less") == 2.0         # |−1| = |−2| / 2
    assert factor_of_shift(2.0, 1.0) == 2.0                       # "both": the larger side
    assert factor_of_shift(0.0, 1.0) is None                      # a zero never scales
    assert factor_of_shift(1.0, 1.0, side="less") is None         # 0 is not 1/F of 1
    with pytest.raises(InvalidParameterError, match="`epsilon` must be finite and >= 0"):
        factor_of_shift(1.0, -0.1)
    with pytest.raises(InvalidParameterError, match="`side`"):
        factor_of_shift(1.0, 0.1, side="up")


@pytest.mark.parametrize("p, n, alpha", [(0.05, 4000, 1e-6 / 3), (0.3, 50_000, 1e-6 / 40),
                                         (0.002, 20_000, 1e-7)])
def test_the_proportion_factor_has_power_exactly_0_9(p, n, alpha):
    up = float(proportion_detectable_factor(p, n, alpha=alpha, side="greater"))
    down = float(proportion_detectable_factor(p, n, alpha=alpha, side="less"))
    counts = np.arange(n + 1)
    low, high = clopper_pearson(counts, n, alpha)
    refuted_above, refuted_below = counts[low > p], counts[high < p]
    # P(refuted) under the true probability F·p (p/F) is 0.9, and below it at a smaller factor
    assert sps.binom.sf(refuted_above[0] - 1, n, up * p) == pytest.approx(POWER, abs=1e-9)
    assert sps.binom.cdf(refuted_below[-1], n, p / down) == pytest.approx(POWER, abs=1e-9)
    assert sps.binom.sf(refuted_above[0] - 1, n, up * p * 0.999) < POWER
    both = float(proportion_detectable_factor(p, n, alpha=alpha))
    assert both == max(up, down)


def test_the_proportion_factor_refuses_bad_input_and_says_when_nothing_is_reachable():
    assert np.isinf(proportion_detectable_factor(0.0, 100, alpha=0.01))
    assert np.isinf(proportion_detectable_factor(0.9, 10, alpha=1e-6, side="greater"))
    with pytest.raises(InvalidParameterError, match=r"`p` must lie in \[0, 1\]"):
        proportion_detectable_factor(1.5, 100, alpha=0.01)
    with pytest.raises(InvalidParameterError, match="`alpha` must satisfy 0 < alpha < 1"):
        proportion_detectable_factor(0.5, 100, alpha=0.0)


# -- a mean against its claimed value (mc_mean_verdict; median of means) ---------------------------
@pytest.mark.parametrize("scale", ["up", "down"])
def test_a_mean_off_by_the_recorded_factor_fails(scale):
    check = get("HK12.AERR.gradient.unbiased.monte_carlo")
    honest = run(check, seed=0)
    assert honest.status == "PASS" and 1 < honest.detects < 2
    target = check.kwargs["claims"].target
    # the true mean 1.2·F times the stated target ("up") or 1/(1.2·F) times it ("down")
    c = PLANT * honest.detects if scale == "up" else 1 / (PLANT * honest.detects)

    def planted(w, x, y):
        return np.asarray(target(w, x, y), dtype=float) / c

    rec = run(_with_claims(check, target=planted), seed=0)
    assert rec.status == "FAIL", rec.figures


class ScaledSampler:
    """A user's sampler that shrinks the GenEst estimate by a constant (a dropped factor)."""

    def __init__(self, factor):
        self.inner = estimators.get("HK12.GenEst.derivative",
                                    coefficients=[1.0, 0.5, -0.125, 0.0625], B=1.0)
        self.factor = factor

    def target(self, w, x, y):
        return self.inner.target(w, x, y)

    def budget(self):
        return self.inner.budget()

    def sample(self, w, x, y, n, rng):
        draws = self.inner.sample(w, x, y, n=n, rng=rng)
        return dataclasses.replace(draws, values=np.asarray(draws.values) / self.factor)


def test_a_median_of_means_check_finds_an_estimate_shrunk_by_the_factor():
    check = get("HK12.Lemma4.1.unbiased_monte_carlo")
    honest = run(check, seed=0)
    assert honest.status == "PASS" and honest.detects > 1
    rec = run(check.with_estimator(ScaledSampler(PLANT * honest.detects)), seed=0)
    assert rec.status == "FAIL", rec.figures


# -- a distribution (multinomial_verdict, Clopper-Pearson per category) ------------------------------
def _ctx(seed=0, delta=1e-6):
    return Context(rng=np.random.default_rng(seed), delta=delta)


def _moved(p, c, factor):
    """``p`` with category c's probability times ``factor``, the rest scaled to sum 1."""
    q = np.array(p, dtype=float)
    q[c] *= factor
    rest = np.arange(q.size) != c
    q[rest] *= (1 - q[c]) / q[rest].sum()
    return q


def _most_sensitive(p, n, delta):
    factors = proportion_detectable_factor(p, n, alpha=delta / len(p), beta=1 - POWER)
    return int(np.argmin(factors)), float(np.min(factors))


def test_a_category_moved_by_the_factor_is_refuted_in_90_percent_of_runs():
    p = np.array([0.4, 0.25, 0.2, 0.1, 0.05])
    n, delta = 50_000, 1e-6
    c, factor = _most_sensitive(p, n, delta)
    assert categorical_detects(p, n, delta / len(p)) == pytest.approx(factor)
    keys = list(range(p.size))
    probs = dict(zip(keys, p))
    fails = 0
    for seed in range(200):                     # fixed seeds: the rate is one number
        rng = np.random.default_rng(seed)
        counts = rng.multinomial(n, _moved(p, c, factor))
        fails += multinomial_verdict(_ctx(seed), counts, keys, probs, n, {}).status == "FAIL"
    # the category alone is refuted with probability exactly 0.9 (the test above), and the
    # others only add to it; at that power a rate below 0.85 in 200 runs has probability 0.01
    assert fails / 200 >= 0.85
    # planted at 1.2·F the first seed already fails
    counts = np.random.default_rng(0).multinomial(n, _moved(p, c, PLANT * factor))
    assert multinomial_verdict(_ctx(), counts, keys, probs, n, {}).status == "FAIL"


def test_a_kernel_whose_category_is_off_by_the_factor_fails(monkeypatch):
    check = get("HK12.AERR.gradient.kernel_matches_reference")
    honest = run(check, seed=0)
    assert honest.status == "PASS" and 1 < honest.detects < 2
    seen = {}

    def claims_less(ctx, counts, keys, probs, n, figures):
        # the claimed probability of the most sensitive category 1.2·F times too small
        p = np.array([float(probs[k]) for k in keys])
        c, factor = _most_sensitive(p / p.sum(), n, ctx.delta)
        seen["factor"] = factor
        wrong = _moved(p / p.sum(), c, 1 / (PLANT * factor))
        return multinomial_verdict(ctx, counts, keys, dict(zip(keys, wrong)), n, figures)

    monkeypatch.setattr(estimator_properties, "multinomial_verdict", claims_less)
    rec = run(check, seed=0)
    assert seen["factor"] == pytest.approx(honest.detects)
    assert rec.status == "FAIL", rec.figures


# -- a failure probability, and the bound of a coverage check -----------------------------------------
def test_a_failure_probability_above_the_claimed_by_the_factor_fails():
    claimed, runs, delta = 0.05, 4000, 1e-6 / 3
    factor = coverage_verdict(0, runs, claimed, delta).detects
    assert 1 < factor < 2
    failures = np.random.default_rng(0).binomial(runs, PLANT * factor * claimed)
    assert coverage_verdict(failures, runs, claimed, delta).status == "FAIL"


def test_a_high_probability_bound_too_small_by_the_factor_fails(monkeypatch):
    check = get("CB11.Lemma4.proof.rademacher")
    honest = run(check, seed=0)
    assert honest.status == "PASS" and honest.detects > 1
    # the setting whose factor is the check's (slack included: F >= the bound over the runs'
    # (1 − δ)-quantile)
    setting = next(v for v in honest.figures.values()
                   if v["detects_bound"] == pytest.approx(honest.detects))
    shrink = 1 / (PLANT * honest.detects)          # the bound 1.2·F times too small
    monkeypatch.setattr(proof_lines, "_L4_L_MAX", proof_lines._L4_L_MAX * shrink)
    monkeypatch.setattr(proof_lines, "_L4_LOSS_MAX", proof_lines._L4_LOSS_MAX * shrink)
    assert run(check, seed=0).status == "FAIL"


# -- a mean under a bound (a lower confidence bound) ----------------------------------------------------
def test_a_learner_reading_the_factor_more_than_its_budget_fails():
    check = get("HK12.AESVR.budget")
    honest = run(check, seed=0)
    assert honest.status == "PASS" and honest.detects > 1
    # one check for the catalog and check_learner (the learner records): the mean of each
    # fit path it reads (fit, fit_stream, partial_fit); the smallest is planted 1.2·F over
    mean = min(v for k, v in honest.figures.items() if k.startswith("mean ("))
    budget = mean / (PLANT * honest.detects)
    cls = getattr(learners, check.kwargs["learner"])
    learner = learner_records.RECORDS[cls.spec.algorithm].learner(cls)
    claims = dataclasses.replace(learner_records.spec_claims(
        cls.spec, learner_records._params(learner)), budget=budget)
    rec = run(dataclasses.replace(check, kwargs={"learner": learner, "claims": claims}), seed=0)
    assert rec.status == "FAIL", rec.figures


def test_an_estimator_reading_the_factor_more_than_its_budget_fails():
    check = get("HK12.AESVR.gradient.budget")
    honest = run(check, seed=0)
    assert honest.status == "PASS" and honest.detects > 1 and "lower_confidence_bound" in \
        honest.figures                          # the Monte Carlo branch
    budget = honest.figures["mean_attributes"] / (PLANT * honest.detects)
    assert run(_with_claims(check, budget=budget), seed=0).status == "FAIL"


# -- exact comparisons ----------------------------------------------------------------------------------
def test_an_exact_bound_too_small_by_any_factor_above_its_tolerance_fails():
    check = get("HK12.AERR.gradient.second_moment")
    honest = run(check, seed=0)
    assert honest.status == "PASS" and honest.detects == pytest.approx(1.0, abs=1e-9)
    bound, worst = check.kwargs["claims"].second_moment, honest.figures["worst_ratio"]

    def planted(w, x, y, d):                    # E‖v‖² = 1.2 times the bound at the worst instance
        return bound(w, x, y, d) * worst / (PLANT * honest.detects)

    assert run(_with_claims(check, second_moment=planted), seed=0).status == "FAIL"
    ratio = worst_ratio_verdict((1 + 2e-9, {}), tol=1e-9)
    assert ratio.status == "FAIL" and ratio.detects == 1 + 1e-9


@pytest.mark.parametrize("cid", ["KS15.Lemma3.9.proof.step1", "KS15.Thm4.7.proof.step8",
                                 "CB11.Lemma7.proof.chain"])
def test_proof_steps_are_exact_comparisons(cid):
    rec = run(get(cid), seed=0)
    assert rec.status == "PASS" and rec.detects == 1 + PROOF_TOL


def test_every_statistical_check_outside_the_empirical_module_records_a_factor():
    from laocheck.checks import checks
    mine = [c for c in checks() if c.delta > 0 and not c.func.__module__.endswith(".empirical")]
    assert len(mine) >= 80
    # the mechanisms are the shared helpers: each statistical check calls one (cheap ones run)
    for cid in ("KS15.Eq15", "CB11.Lemma9.deviation", "HK12.Proc3.line2",
                "HK12.Alg4.line2.kernel", "CB11.Lemma7.monte_carlo"):
        rec = run(get(cid), seed=0)
        assert rec.detects is not None and rec.detects >= 1, cid
    assert _common.POWER == 0.9
