"""Power on the record, the rest of the catalog (issue "every PASS is evidence", item 6): the
empirical checks of ``checks/<paper>/empirical.py`` outside the designed grids, and the exact checks.
Per mechanism, a violation of 1.2·F (a bound 1.2·F times too small, a ratio off by 1.2·F) is
planted where the check reads it, and the check must FAIL at fast budget and seed 0.
"""
import numpy as np
import pytest

from laocheck import bounds
from laocheck.checks import get, run
from laocheck.checks._kinds import empirical
from laocheck.checks.cb11 import empirical as cb11_empirical
from laocheck.checks.lao import empirical as lao_empirical
from laocheck.checks.algorithms import learner_samplers, learner_settings

PLANT = 1.2          # the planted violation is PLANT times the recorded factor


class _Shrunk:
    """A formula of laocheck.bounds divided by ``factor``: the bound a maintainer who slipped
    would have typed (its exponents unchanged)."""

    def __init__(self, formula, factor):
        self.formula, self.factor = formula, factor
        self.expr = formula.expr / factor

    def __call__(self, **kw):
        return self.formula(**kw) / self.factor


def _shrink(monkeypatch, formula_id, factor):
    monkeypatch.setitem(bounds.FORMULAS, formula_id,
                        _Shrunk(bounds.FORMULAS[formula_id], factor))


# -- a mean excess against its bound, refuted by the betting interval's lower end -----------------
@pytest.mark.parametrize("check_id, formula_id", [
    ("HK12.Thm3.4.proof_eta.empirical", "HK12.Thm3.4.bound"),
    ("HK12.Thm3.4.empirical", "HK12.Thm3.4.bound"),
    ("HK12.Thm3.1.empirical", "HK12.Thm3.1.bound"),
    ("HK12.Thm3.1.scaling", "HK12.Thm3.1.bound"),
])
def test_a_bound_too_small_by_the_recorded_factor_fails(monkeypatch, check_id, formula_id):
    check = get(check_id)
    honest = run(check, seed=0)
    assert honest.status == "PASS" and honest.detects > 1
    if honest.detects > 2:                    # it cannot refute a constant halved: paired
        assert honest.figures["paired_with"] == formula_id.rsplit(".", 1)[0] + ".derivation"
    _shrink(monkeypatch, formula_id, PLANT * honest.detects)
    planted = run(check, seed=0)
    assert planted.status == "FAIL", planted


def test_the_interval_factor_is_the_bound_over_the_reach_of_the_lower_end():
    class Comp:                                # what compare() returns, by hand
        range = (0.0, 1.0)
        excess = np.full(400, 0.2)
        bound = 0.5

        class interval:                        # noqa: N801
            low = 0.15
    # zero variance: D = (high − low) ln 10 / (3n); F = bound / (low − 2D)
    reach = 0.15 - 2 * np.log(10) / (3 * 400)
    assert empirical.interval_detects_factor(Comp) == pytest.approx(0.5 / reach)
    Comp.interval.low = 0.6                    # the bound itself is refuted
    assert empirical.interval_detects_factor(Comp) == 1.0
    Comp.interval.low = 0.0                    # a lower end at the range's: nothing reachable
    assert empirical.interval_detects_factor(Comp) == 1e12


# -- a high-probability bound against the fraction of runs above it (Clopper-Pearson) -------------
def test_a_high_probability_bound_too_small_by_the_recorded_factor_fails(monkeypatch):
    check = get("CB11.Thm12.high_probability.empirical")
    honest = run(check, seed=0)
    # F is the factor the bound could be too small and still PASS, its slack included (the
    # runs sit far below it: F > 2, paired with the derivation of the bound)
    assert honest.status == "PASS" and honest.detects > 2
    assert honest.figures["paired_with"] == "CB11.Thm12.derivation"
    setting = next(honest.figures[f"B={B:g}"] for B in cb11_empirical.GRID_B
                   if honest.figures[f"B={B:g}"]["detects"] == pytest.approx(honest.detects))
    assert honest.detects >= setting["bound_slack"]
    _shrink(monkeypatch, "CB11.Thm12.bound_proof", PLANT * honest.detects)
    planted = run(check, seed=0)
    assert planted.status == "FAIL", planted


def test_a_learner_not_homogeneous_in_b_is_run_at_each_b(monkeypatch):
    """The high-probability check shares the B = 1 runs with B = 1000 (scaled by B²) only after
    its probe finds them equal: runs too large at B = 1000 alone are run there and FAIL."""
    check = get("CB11.Thm12.high_probability.empirical")
    honest = run(check, seed=0)
    assert honest.figures["homogeneous_at_B=1000"] is True
    # the shared draws: the B = 1000 row is the B = 1 row scaled (ratios equal to rounding)
    rows = [honest.figures[f"B={B:g}"] for B in cb11_empirical.GRID_B]
    assert rows[1]["max_excess_over_bound"] == pytest.approx(rows[0]["max_excess_over_bound"])
    replicate = cb11_empirical.replicate

    def off(config, dist, m, *, B, **kw):         # a learner whose runs at B = 1000 are worse
        excess, rest = replicate(config, dist, m, B=B, **kw)
        return (excess * (PLANT * honest.detects if B != 1.0 else 1.0), rest)

    monkeypatch.setattr(cb11_empirical, "replicate", off)
    planted = run(check, seed=0)
    assert planted.figures["homogeneous_at_B=1000"] is False
    assert planted.status == "FAIL", planted
    # shared draws make one comparison, tested at the whole δ; runs of their own at each B
    # are two comparisons, δ/2 each (Bonferroni): the factor found at the same R is larger
    R = honest.figures["R"]
    for rec, alpha in ((honest, 2 * 1e-6), (planted, 1e-6)):
        assert rec.figures["B=1"]["detects_failure_prob"] == pytest.approx(float(
            cb11_empirical.proportion_detectable_factor(0.05, R, alpha=alpha, beta=0.1,
                                                   side="greater")))


# -- an exact comparison of numbers: the scale check's ratios against c² ---------------------------
def test_a_scale_ratio_off_by_the_recorded_factor_fails(monkeypatch):
    check = get("LAO.Bounds.scaling.empirical")
    honest = run(check, seed=0)
    assert honest.status == "PASS" and honest.detects == 1 + lao_empirical.SCALE_RTOL
    replicate = lao_empirical.replicate

    def off(config, dist, m, *, B, **kw):         # the runs at B = c come out 1.2·F too large
        excess, rest = replicate(config, dist, m, B=B, **kw)
        return (excess * (PLANT * honest.detects if B != 1.0 else 1.0), rest)

    monkeypatch.setattr(lao_empirical, "replicate", off)
    assert run(check, seed=0).status == "FAIL"


# -- exact comparisons within a rounding tolerance: the factor is 1 + tol over the scale -----------
def test_a_learner_output_off_by_the_tolerance_times_1_2_fails(monkeypatch):
    check = get("HK12.AERR.steps_match_reference")
    honest = run(check, seed=0)
    assert honest.status == "PASS" and 1 < honest.detects < 1 + 1e-6
    output = learner_samplers._output
    # the learner's output (1 + 1.2(F − 1)) times the replayed one: 1.2 tolerances off at its
    # largest coordinate
    scale = 1 + PLANT * (honest.detects - 1)
    monkeypatch.setattr(learner_samplers, "_output",
                        lambda algorithm, est: np.asarray(output(algorithm, est)) * scale)
    assert run(check, seed=0).status == "FAIL"


def test_a_learner_setting_off_by_the_tolerance_times_1_2_fails(monkeypatch):
    check = get("HK12.AERR.settings")
    honest = run(check, seed=0)
    assert honest.status == "PASS" and 1 < honest.detects <= 1 + 1e-9
    verdict = learner_settings._verdict
    scale = 1 + PLANT * (honest.detects - 1)

    def slipped(rows, note=""):                 # every setting the learner reports, scaled
        return verdict([(name, np.asarray(observed, dtype=float) * scale, expected, cite)
                        for name, observed, expected, cite in rows], note)

    monkeypatch.setattr(learner_settings, "_verdict", slipped)
    assert run(check, seed=0).status == "FAIL"


def test_the_exact_checks_record_their_factor_and_order_claims_none():
    # numbers compared with numbers: 1 (Fractions, sympy identities of number-valued formulas)
    for check_id in ("CB11.Lemma9.expectation", "HK12.Thm3.1.text_G", "KS15.Thm3.1.algebra",
                     "HK12.Proc3.line1"):
        assert run(get(check_id), seed=0).detects == 1.0, check_id
    # a printed ρ off by half a unit of its last digit: 0.91 is the tightest, 1 + 0.005/0.91
    assert run(get("KS15.Eq11-12.values"), seed=0).detects == pytest.approx(1 + 0.005 / 0.91)
    # a claim of order (no constant factor refutes it) and a definiteness property: none
    for check_id in ("HK12.Thm4.4.form", "KS15.Thm4.7.text_m1_gg", "CB11.Fig1.convexity"):
        assert run(get(check_id), seed=0).detects is None, check_id
