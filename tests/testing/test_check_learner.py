"""check_learner: a learner's claims (budget, ball, step size, excess-risk bound, seeds,
scikit-learn's API) checked on laocheck's learners, a user's plain numpy learners and a zoo of
user-style slips, each caught by the claim it breaks.

False alarms. Only ``excess_risk`` is statistical (δ = 1e-6 per run, split over its
distributions); ``budget`` (exact kind), ``constraint``, ``step_size``, ``deterministic`` and
``sklearn`` are deterministic comparisons and cannot false-FAIL. The family-wise false-FAIL
probability of this module is at most (2 learners × 20 seeds + 6 spec learners + 3 single
runs) × 1e-6 < 5e-5.
"""
import numpy as np
import pytest
import sympy as sp

from laocheck import bounds, learners
from laocheck.checks import run
from laocheck.checks.algorithms.learner_properties import LEARNER_PROPERTIES, CountingMatrix
from laocheck.exceptions import InvalidParameterError
from laocheck.testing import (CheckFailure, check_learner, learner_checks,
                              parametrize_with_checks)

from .learner_zoo.abs_aerr import AbsAERR
from .learner_zoo.broken import STREAM_ZOO, ZOO
from .learner_zoo.numpy_aerr import CLAIMS, NumpyAERR

d_, k_, m_, B_ = sp.symbols("d k m B", positive=True)
ABS_BOUND = bounds.user_bound("AbsAERR.Thm1", 4 * B_**2 * sp.sqrt(d_ * (sp.sqrt(d_) + 1) / (k_ * m_)),
                              assumptions=[k_ <= d_], citation="AbsAERR Thm 1", replace=True)
ABS_ETA = bounds.user_bound("AbsAERR.eta", sp.sqrt(k_ / (d_ * (sp.sqrt(d_) + 1) * m_)),
                            assumptions=[k_ <= d_], citation="AbsAERR Thm 1", replace=True)
ABS_CLAIMS = {"budget": 3, "constraint": "l2", "bound": "AbsAERR.Thm1",
              "step_size": "AbsAERR.eta"}


# -- laocheck's own learners, from their LearnerSpec -----------------------------------------------
@pytest.mark.parametrize("name", ["AERR", "AELR", "AER", "DDAERR", "TwoPhaseDDAELR", "AdaGAERR"])
def test_laocheck_learners_pass_their_spec_claims(name):
    learner = getattr(learners, name)(k=2)
    records = check_learner(learner)                  # raises on FAIL or INCONCLUSIVE
    props = {r.id.rsplit(".", 1)[1] for r in records}
    assert {"budget", "constraint", "deterministic", "sklearn"} <= props
    assert not hasattr(learner, "coef_")              # the caller's object is never fitted


def test_aesvr_bound_without_constant_is_inconclusive_with_its_reason():
    records = check_learner(learners.AESVR(k=2), on_fail=None)
    status = {r.id: r for r in records}
    assert all(r.status == "PASS" for i, r in status.items() if not i.endswith("excess_risk"))
    rec = status["HK12.AESVR.excess_risk"]
    assert rec.status == "INCONCLUSIVE" and "eps" in rec.note and "HK12 Thm 4.4" in rec.note


# -- the user's own learners ------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("make,claims", [(lambda: NumpyAERR(k=2), CLAIMS),
                                         (lambda: AbsAERR(k=2), ABS_CLAIMS)],
                         ids=["NumpyAERR", "AbsAERR"])
def test_correct_user_learners_pass_on_20_seeds(make, claims):
    """Every claim PASSes on seeds 0..19 (the excess-risk runs at m = 100, R = 10 to keep the
    suite fast; the deterministic checks are unchanged by it)."""
    for seed in range(20):
        records = check_learner(make(), {**claims, "m": 100, "R": 10}, seed=seed)
        assert len(records) == 6


@pytest.mark.parametrize("name,make,claims,catches", ZOO, ids=[z[0] for z in ZOO])
def test_every_broken_learner_is_caught_by_the_claim_it_breaks(name, make, claims, catches):
    learner = make()
    check = next(c for c in learner_checks(learner, claims) if c.id.endswith("." + catches))
    record = run(check, seed=0)
    assert record.status == "FAIL", (record.note, record.figures)
    assert record.counterexample


@pytest.mark.parametrize("name,make,claims,catches", STREAM_ZOO, ids=[z[0] for z in STREAM_ZOO])
def test_a_broken_fit_stream_alone_is_caught_on_fit_stream(name, make, claims, catches):
    learner = make()
    check = next(c for c in learner_checks(learner, claims) if c.id.endswith("." + catches))
    record = run(check, seed=0)
    assert record.status == "FAIL", (record.note, record.figures)
    where = record.counterexample.get("method") or record.counterexample.get("source")
    assert where.startswith("fit_stream"), record.counterexample
    # the same learner without fit_stream passes: its fit is right
    hidden = type(f"{type(learner).__name__}NoStream", (type(learner),), {"fit_stream": None})
    check = next(c for c in learner_checks(hidden(k=2), claims)
                 if c.id.endswith("." + catches))
    assert run(check, seed=0).status == "PASS"


def test_a_correct_fit_stream_is_checked_and_passes():
    records = {r.id.rsplit(".", 1)[1]: r for r in
               check_learner(NumpyAERR(k=2), {**CLAIMS, "m": 100, "R": 10})}
    assert records["deterministic"].figures["methods"] == ["fit", "fit_stream"]
    assert "fit_stream: counted_max" in records["budget"].figures
    assert records["budget"].figures["fit_stream: counted_max"] <= 3


def test_the_zoo_has_at_least_eight_learners_and_every_property():
    assert len(ZOO) >= 8
    assert {z[3] for z in ZOO} == {"budget", "constraint", "step_size", "excess_risk",
                                   "deterministic", "sklearn"}


def test_check_learner_raises_with_the_counterexample():
    make = dict((z[0], z[1]) for z in ZOO)["whole-row-phi"]
    with pytest.raises(CheckFailure) as info:
        check_learner(make(), {"budget": 3}, seed=0)
    assert "WholeRowPhi.budget: FAIL" in str(info.value)
    assert "attributes=8" in str(info.value)


def test_a_too_small_user_bound_fails_with_the_violating_configuration():
    small = bounds.user_bound("AbsAERR.too_small", B_**2 * sp.sqrt(d_ / (k_ * m_)) / 10,
                              replace=True)
    check = next(c for c in learner_checks(AbsAERR(k=2), {**ABS_CLAIMS, "bound": small.id,
                                                          "R": (40, 100)})
                 if c.id.endswith("excess_risk"))
    record = run(check, seed=0)
    assert record.status == "FAIL"
    ce = record.counterexample
    assert ce["distribution"].startswith("HK12HardInstance") and ce["d"] == 8 and ce["k"] == 2
    assert ce["lower_confidence_bound"] > ce["bound"] == pytest.approx(
        small(d=8, k=2, m=200, B=1.0))


def test_bound_as_sympy_expression_and_callable():
    expr_claims = {**ABS_CLAIMS, "bound": 4 * B_**2 * sp.sqrt(d_ * (sp.sqrt(d_) + 1) / (k_ * m_))}
    rec = [r for r in check_learner(AbsAERR(k=2), expr_claims, on_fail=None)
           if r.id.endswith("excess_risk")][0]
    assert rec.status == "PASS"

    def tiny(d, k, m, B):
        return 1e-3 * B**2 * np.sqrt(d / (k * m))
    check = next(c for c in learner_checks(AbsAERR(k=2), {**ABS_CLAIMS, "bound": tiny,
                                                          "R": (40, 100)})
                 if c.id.endswith("excess_risk"))
    assert run(check, seed=1).status == "FAIL"


# -- reading X -----------------------------------------------------------------------------------
def test_counting_matrix_records_each_way_of_reading():
    X = np.arange(12.0).reshape(3, 4)
    C = CountingMatrix(X)
    assert C[0, 1] == 1.0 and C[1][2] == 6.0
    assert np.array_equal(C[2, [0, 3]], [8.0, 11.0])
    assert list(C.per_example()) == [1, 1, 2]
    w = np.ones(4)
    assert C[1] @ w == X[1].sum() and w @ C[0] == X[0].sum()   # a whole row: all d
    assert list(C.per_example()) == [4, 4, 2]
    assert C.reads.converted is None
    np.asarray(C)
    assert C.reads.converted


# -- user bounds ----------------------------------------------------------------------------------
def test_user_bound_evaluates_renders_and_checks_its_assumptions():
    assert ABS_BOUND.args == ("d", "k", "m", "B")
    assert ABS_BOUND(d=16, k=4, m=100, B=1.0) == pytest.approx(4 * np.sqrt(16 * 5 / 400))
    assert "\\sqrt" in ABS_BOUND.latex()
    assert sp.simplify(ABS_BOUND.simplified() - ABS_BOUND.expr) == 0
    with pytest.raises(InvalidParameterError, match="k <= d|k must satisfy"):
        ABS_BOUND(d=2, k=4, m=100, B=1.0)
    own = bounds.user_bound("mine.with_c", "c * B**2 / sqrt(m)", symbols=["c", "B", "m"],
                            assumptions=["m >= 10"], replace=True)
    with pytest.raises(InvalidParameterError, match="assumes m >= 10"):
        own(c=2.0, B=1.0, m=5)
    assert own(c=2.0, B=1.0, m=100) == pytest.approx(0.2)
    with pytest.raises(InvalidParameterError, match="not among `symbols`"):
        bounds.user_bound("mine.typo", "kk * B", symbols=["k", "B"])
    with pytest.raises(InvalidParameterError, match="formula of the papers"):
        bounds.user_bound("HK12.Thm3.1.bound", "B")
    assert bounds.get_user_bound("AbsAERR.Thm1") is ABS_BOUND


# -- claims ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("learner,claims,match", [
    (NumpyAERR, {}, "not the class NumpyAERR"),
    (NumpyAERR(), {"bugdet": 3}, "unknown keys"),
    (NumpyAERR(), {"constraint": "linf"}, "constraint"),
    (NumpyAERR(), {"bound": "no.such.formula"}, "formula id"),
    (NumpyAERR(), {"m": 0}, "`claims\\['m'\\]`"),
    (NumpyAERR(), {"params": [1]}, "`claims\\['params'\\]` must be a dict"),
    (object(), {}, "has no fit"),
])
def test_bad_claims_are_refused_with_the_parameter_named(learner, claims, match):
    with pytest.raises(InvalidParameterError, match=match):
        learner_checks(learner, claims)


def test_a_claim_without_what_it_needs_is_inconclusive():
    class NoEta(NumpyAERR):
        def fit(self, X, y):
            super().fit(X, y)
            del self.eta_
            return self
    rec = [r for r in check_learner(NoEta(k=2), {"step_size": "HK12.Thm3.1.eta"},
                                    on_fail=None) if r.id.endswith("step_size")][0]
    assert rec.status == "INCONCLUSIVE" and "eta_" in rec.note


@parametrize_with_checks([AbsAERR(k=2)], claims=ABS_CLAIMS)
def test_parametrize_with_checks_on_a_learner(estimator, check):
    check(estimator)


class _Dense:
    """A full-information learner (least squares on all of X), reporting nothing."""

    def __init__(self, uses_transpose=False):
        self.uses_transpose = uses_transpose

    def fit(self, X, y):
        if self.uses_transpose:
            X.T                                        # not offered by the recording matrix
        X = np.asarray(X)
        self.coef_ = np.linalg.lstsq(X, y, rcond=None)[0]
        return self


@pytest.mark.parametrize("uses_transpose", [False, True])
def test_a_learner_that_converts_x_and_reports_nothing_is_judged_by_what_its_output_depends_on(
        uses_transpose):
    rec, = check_learner(_Dense(uses_transpose), {"budget": 3, "deterministic": False},
                         on_fail=None)
    assert rec.status == "FAIL"                       # least squares depends on all 8
    assert rec.counterexample["count"] == 8 and rec.counterexample["limit"] == 3
    # with no budget claimed there is nothing to judge its reads by: said so, not PASSed
    rec, = check_learner(_Dense(uses_transpose), {"deterministic": False}, on_fail=None)
    assert rec.status == "INCONCLUSIVE"
    assert "no budget is claimed" in rec.note and "attributes_per_example_" in rec.note


def test_the_user_bound_docstring_example_runs():
    import doctest                              # the module's own example, run as written

    import laocheck.bounds._user as module
    module.USER_BOUNDS.pop("mine.Thm1", None)   # registered by the example itself
    assert doctest.testmod(module).failed == 0


def test_the_dimension_follows_a_large_k():
    """k = 6 > d / 2 of the default d = 8: the property checks run at d = 2k (k of the d
    attributes); the class's own checks (settings, samplers) keep their fixed instance."""
    records = check_learner(learners.AERR(k=6))
    props = [r for r in records if r.id.rsplit(".", 1)[1] in LEARNER_PROPERTIES]
    assert len(props) == 5 and all("d = 12" in r.assumptions for r in props)
    assert {r.id for r in records} - {r.id for r in props} == {
        "HK12.AERR.settings", "HK12.AERR.steps_match_reference", "HK12.AERR.attribute_inclusion"}


# -- laocheck check on a learner ----------------------------------------------------------------
ZOO_DIR = __import__("pathlib").Path(__file__).resolve().parent
TINY = {**CLAIMS, "m": 100, "R": 10}


def test_laocheck_check_passes_a_correct_learner(monkeypatch, tmp_path, capsys):
    import json

    from laocheck.cli import main
    monkeypatch.syspath_prepend(str(ZOO_DIR))
    out = tmp_path / "records.json"
    assert main(["check", "--learner", "learner_zoo.numpy_aerr:NumpyAERR", "--claims",
                 json.dumps(TINY), "--json", str(out)]) == 0
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["run"]["kind"] == "learner" and doc["run"]["counts"]["PASS"] == 6
    assert {r["id"] for r in doc["checks"]} == {f"NumpyAERR.{p}" for p in (
        "budget", "constraint", "step_size", "excess_risk", "deterministic", "sklearn")}
    # recognised without --learner (fit, coef_, no sample); a claims file; a bound as sympy text
    (tmp_path / "claims.json").write_text(json.dumps(
        {**TINY, "bound": "4*B**2*sqrt(2*d/(k*m))"}), encoding="utf-8")
    assert main(["check", "learner_zoo.numpy_aerr:NumpyAERR", "--claims",
                 str(tmp_path / "claims.json")]) == 0
    assert "6 checks of learner learner_zoo.numpy_aerr:NumpyAERR: PASS 6" in \
        capsys.readouterr().out


@pytest.mark.parametrize("target,fails", [
    ("learner_zoo.broken:StreamWholeRowPhi", "StreamWholeRowPhi.budget"),
    ("learner_zoo.broken:TenfoldStep", "TenfoldStep.step_size")])
def test_laocheck_check_fails_a_broken_learner_with_exit_1(monkeypatch, capsys, target, fails):
    import json

    from laocheck.cli import main
    monkeypatch.syspath_prepend(str(ZOO_DIR))
    assert main(["check", "--learner", target, "--claims", json.dumps(TINY)]) == 1
    out = capsys.readouterr().out
    assert f"{fails}: FAIL" in out and "counterexample" in out


def test_laocheck_check_learner_usage_errors(monkeypatch, capsys):
    from laocheck.cli import main
    monkeypatch.syspath_prepend(str(ZOO_DIR))
    target = "learner_zoo.numpy_aerr:NumpyAERR"
    for argv, message in [
            ([], "MODULE:OBJECT or --learner"),
            ([target, "--learner", target], "both"),
            (["--learner", target, "--claims", '{"budjet": 3}'], "`budjet` must not be there"),
            (["--learner", target, "--claims", '{"bound": "no such (formula"}'], "`bound`"),
            (["--learner", target, "--claims", '{"constraint": "l3"}'], "'constraint'"),
            (["--learner", "math:pi"], "must be a learner")]:
        assert main(["check", *argv]) == 2, argv
        assert message in capsys.readouterr().err, argv


def test_laocheck_check_learner_without_claims_checks_what_every_learner_claims(monkeypatch,
                                                                               capsys):
    from laocheck.cli import main
    monkeypatch.syspath_prepend(str(ZOO_DIR))
    assert main(["check", "learner_zoo.abs_aerr:make"]) == 0
    out = capsys.readouterr().out
    assert "AbsAERR.deterministic" in out and "AbsAERR.budget" in out    # by default
    assert "3 checks of learner" in out


@pytest.mark.parametrize("bound", ["(", "1/0", "oo", "nan", "sqrt(-1)", "lambda: 1", "foo(d)",
                                   "a.b", ""])
def test_laocheck_check_refuses_a_bound_text_that_is_no_real_expression(monkeypatch, capsys,
                                                                        bound):
    import json

    from laocheck.cli import main
    monkeypatch.syspath_prepend(str(ZOO_DIR))
    assert main(["check", "--learner", "learner_zoo.numpy_aerr:NumpyAERR", "--claims",
                 json.dumps({"bound": bound})]) == 2
    err = capsys.readouterr().err
    assert "field `bound`" in err and len(err.strip().splitlines()) == 1
