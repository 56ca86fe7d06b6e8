"""check_estimator: the checks a user's estimator claims, run on it as given; and
``laocheck check module:object``."""
import json

import pytest

from laocheck import estimators
from laocheck.cli import main
from laocheck.exceptions import InvalidParameterError
from laocheck.testing import CheckFailure, check_estimator, estimator_checks, resolve_claims

from .user_estimators import SampleOnly, UserAERRGradient

CLAIMS = {"unbiased": True, "second_moment": "HK12.Lemma3.3.G2"}


def _props(records, label):
    return {r.id[len(label) + 1:]: r.status for r in records}


def test_a_correct_user_estimator_passes_every_check_its_claims_select():
    est = UserAERRGradient(k=2, name="mine")
    records = check_estimator(est, CLAIMS, seed=0)
    assert _props(records, "mine") == {p: "PASS" for p in (
        "unbiased.exact", "unbiased.monte_carlo", "budget", "kernel_matches_reference",
        "second_moment")}
    assert records[0].citation == est.citation


def test_the_claims_select_the_checks():
    est = UserAERRGradient(k=2, name="mine")
    # unbiasedness for `target` is checked unless the claims turn it off (issue 48)
    assert [c.id for c in estimator_checks(est, {})] == [
        "mine.unbiased.exact", "mine.unbiased.monte_carlo", "mine.budget",
        "mine.kernel_matches_reference"]
    assert [c.id for c in estimator_checks(est, {"unbiased": False})] == [
        "mine.budget", "mine.kernel_matches_reference"]
    assert [c.id for c in estimator_checks(est, {"unbiased": True, "scaling": "degree1",
                                                  "clipping": 100.0})] == [
        "mine.unbiased.exact", "mine.unbiased.monte_carlo", "mine.budget",
        "mine.kernel_matches_reference", "mine.clipping", "mine.scaling"]
    # no reference: its numpy sampler is enumerated by the choice tree, so the same checks
    assert [c.id for c in estimator_checks(SampleOnly(2), {"unbiased": True})] == [
        "HK12.AERR.gradient.unbiased.exact", "HK12.AERR.gradient.unbiased.monte_carlo",
        "HK12.AERR.gradient.budget", "HK12.AERR.gradient.kernel_matches_reference"]
    # a sampler drawing from laocheck's kernel (the bit generator: not enumerable): every
    # claim still gets its check (Monte Carlo, or INCONCLUSIVE with the reason)
    kernel = estimators.get("HK12.AERR.gradient", k=2)
    kernel.reference = None
    assert [c.id for c in estimator_checks(kernel, {"unbiased": True})] == [
        "HK12.AERR.gradient.unbiased.exact", "HK12.AERR.gradient.unbiased.monte_carlo",
        "HK12.AERR.gradient.budget"]


def test_a_wrapper_of_a_registered_estimator_inherits_its_claims():
    own = estimators.get("HK12.AERR.gradient", k=2)
    claims = resolve_claims(own)
    assert claims.source == "spec HK12.AERR.gradient" and claims.budget == 3
    assert claims.second_moment is not None and claims.target is not None


def test_a_slip_is_reported_with_its_figures_delta_and_power():
    broken = UserAERRGradient(k=2, name="broken", weight=lambda d: d - 1)
    with pytest.raises(AssertionError) as info:
        check_estimator(broken, CLAIMS, seed=0)
    assert isinstance(info.value, CheckFailure)
    text = str(info.value)
    assert "broken.unbiased.exact: FAIL" in text and "δ = 0;" in text
    assert "smallest detectable violation" in text and "measured:  exact_mean=" in text
    assert "instance:  d3: w=[0.5, -0.25, 0], x=[0.75, -0.5, 0.25], y=0.125, k=2" in text
    failing = {r.id for r in info.value.records}
    assert "broken.unbiased.exact" in failing and "broken.budget" not in failing
    records = check_estimator(broken, CLAIMS, seed=0, on_fail=None)
    assert _props(records, "broken")["unbiased.exact"] == "FAIL"
    # declared as expected: no raise; an expected failure that passes is reported
    check_estimator(broken, {"unbiased": True}, seed=0, expected_failed_checks={
        "unbiased.exact": "the d - 1 slip", "unbiased.monte_carlo": "the d - 1 slip"})
    with pytest.raises(CheckFailure, match="expected to FAIL"):
        check_estimator(UserAERRGradient(k=2, name="mine"), CLAIMS, seed=0,
                        expected_failed_checks={"budget": "not really"})


def test_a_budget_slip_is_caught():
    """Declared budget k + 1, one extra draw: the exact budget check FAILs."""
    est = UserAERRGradient(k=3, name="greedy")
    records = check_estimator(est, {"unbiased": True, "budget": 3}, seed=0, on_fail=None)
    assert _props(records, "greedy")["budget"] == "FAIL"


class _Wide(UserAERRGradient):
    """Refuses every instance of dimension < 10."""

    def sample(self, w, x, y, *, n=1, rng=None):
        if len(x) < 10:
            raise ValueError("`x` must have d >= 10")
        return super().sample(w, x, y, n=n, rng=rng)


def test_a_sampler_refusing_every_instance_is_an_error():
    """It raised on every instance laocheck has: the user's code raised (ERROR with its file
    and line), not a verdict, and nothing was examined (issue 48)."""
    records = check_estimator(_Wide(name="wide"), {"unbiased": True}, seed=0, on_fail=None)
    assert records and {r.status for r in records} == {"ERROR"}
    for r in records:
        assert "on every exact instance" in r.note and "d >= 10" in r.note
        assert r.figures["where"].endswith(f"{__file__.rsplit('/', 1)[-1]}:"
                                           f"{_Wide.sample.__code__.co_firstlineno + 2}")


@pytest.mark.parametrize("claims,word", [
    ({"unbiassed": True}, "unknown keys"), ({"budget": -1}, "budget"),
    ({"budget_kind": "often"}, "budget_kind"), ({"clipping": 0}, "clipping"),
    ({"second_moment": "No.such.formula"}, "second_moment"),
    ({"second_moment": "KS15.Lemma3.4.G2"}, "S"), ({"scaling": "cubic"}, "scaling"),
    ([1, 2], "claims")])
def test_claims_that_do_not_fit_are_refused(claims, word):
    with pytest.raises(InvalidParameterError, match=word):
        check_estimator(UserAERRGradient(k=2), claims)


def test_objects_that_are_not_estimators_are_refused():
    with pytest.raises(InvalidParameterError, match="protocol"):
        check_estimator(object())
    with pytest.raises(InvalidParameterError, match="not the class"):
        check_estimator(UserAERRGradient)
    with pytest.raises(InvalidParameterError, match="delta"):
        check_estimator(UserAERRGradient(), {}, delta=0.01)


def test_same_seed_same_records():
    est = UserAERRGradient(k=2, name="mine")
    a = [r.figures for r in check_estimator(est, CLAIMS, seed=3)]
    b = [r.figures for r in check_estimator(est, CLAIMS, seed=3)]
    assert a == b


def test_cli_check(tmp_path, monkeypatch, capsys):
    (tmp_path / "mysamplers.py").write_text(
        "from tests_user import UserAERRGradient\n"
        "good = UserAERRGradient(k=2, name='good')\n"
        "bad = UserAERRGradient(k=2, name='bad', weight=lambda d: d - 1)\n", encoding="utf-8")
    src = (__import__("pathlib").Path(__file__).with_name("user_estimators.py")).read_text(
        encoding="utf-8")
    (tmp_path / "tests_user.py").write_text(src, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    out = tmp_path / "report.json"
    assert main(["check", "mysamplers:good", "--claims", '{"unbiased": true}',
                 "--json", str(out)]) == 0
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["run"]["counts"]["PASS"] == 4 and "provenance" in doc["run"]
    assert main(["check", "mysamplers:bad", "--claims", '{"unbiased": true}']) == 1
    assert "bad.unbiased.exact: FAIL" in capsys.readouterr().out
    (tmp_path / "claims.json").write_text('{"unbiased": true}', encoding="utf-8")
    assert main(["check", "mysamplers:good", "--claims", "claims.json"]) == 0
    capsys.readouterr()
    assert main(["check", "mysamplers:nothing"]) == 2
    assert "has no 'nothing'" in capsys.readouterr().err
    assert main(["check", "no_such_module:x"]) == 2
    assert main(["check", "mysamplers:good", "--claims", '{"budget": "lots"}']) == 2
    assert main(["check", "mysamplers:good", "--claims", "[1]"]) == 2
    with pytest.raises(SystemExit) as exit_info:
        main(["check", "mysamplers:good", "--delta", "0.5"])
    assert exit_info.value.code == 2
