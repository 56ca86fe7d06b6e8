"""The defects of issue 12 (a harness that fails correct code and passes broken code), each
with a test that fails on the code before the fix and passes after."""
import pytest

from laocheck import checks as catalog
from laocheck import estimators
from laocheck.exceptions import InvalidParameterError

from .user_estimators import SampleOnly, UserAERRGradient


def test_run_on_runs_only_the_checks_about_the_estimator():
    """Before: run_on ran all 137 estimator checks of every paper, each with its own
    estimator's target and budget (127 FAIL on a correct HK12 Alg. 1 estimate)."""
    records = catalog.run_on(UserAERRGradient(k=2), seed=0)
    ids = {r.id for r in records}
    assert "HK12.AERR.gradient.unbiased.exact" in ids and "HK12.Lemma3.3.unbiased" in ids
    assert not any(i.startswith(("KS15.", "CB11.", "HK12.AELR")) for i in ids), ids
    assert {r.status for r in records} == {"PASS"}, [(r.id, r.status, r.note) for r in records
                                                     if r.status != "PASS"]


@pytest.mark.parametrize("make", [lambda: UserAERRGradient(k=1),
                                  lambda: UserAERRGradient(k=3, name="mine"),
                                  lambda: _renamed(estimators.get("HK12.AERR.gradient", k=2))],
                         ids=["user-k1", "user-renamed-k3", "laochecks-own-renamed"])
def test_lemma33_second_moment_passes_a_correct_fixed_k_estimator(make):
    """Before: the check compared one fixed-k estimator with the closed forms for k = 1, 2, 3
    and FAILed every correct user estimator ("the closed form disagrees with the enumeration")."""
    record = catalog.run(catalog.get("HK12.Lemma3.3.second_moment").with_estimator(make()),
                         seed=0)
    assert record.status == "PASS", (record.figures, record.note)


def _renamed(est):
    est.name = "mine"
    return est


def test_a_broken_user_estimator_named_like_laocheck_is_not_replaced():
    """Before: an estimator named "HK12.AERR.gradient" with k and params was silently replaced
    by laocheck's own inside the Lemma 3.3 checks, so a broken one PASSed."""
    broken = UserAERRGradient(k=2, weight=lambda d: d - 1)
    for cid in ("HK12.Lemma3.3.unbiased", "HK12.Lemma3.3.second_moment"):
        record = catalog.run(catalog.get(cid).with_estimator(broken), seed=0)
        assert record.status == "FAIL", (cid, record.figures)


def test_the_users_own_k_and_budget_are_used():
    """Before: budget and kernel_matches_reference used the registered k = 2 (budget 3), so a
    correct estimator at k = 3 FAILed both."""
    est = UserAERRGradient(k=3)
    for cid in ("HK12.AERR.gradient.budget", "HK12.AERR.gradient.kernel_matches_reference"):
        record = catalog.run(catalog.get(cid).with_estimator(est), seed=0)
        assert record.status == "PASS", (cid, record.figures, record.counterexample)
    assert catalog.run(catalog.get("HK12.AERR.gradient.budget").with_estimator(est)
                       ).figures["budget"] == 4


def test_sample_and_target_suffice():
    """Before: the checks that need `reference` reported an AttributeError as FAIL; then they
    were INCONCLUSIVE. Now (issue 34) the numpy sampler itself is enumerated exactly (choice
    tree), so every property check of the catalog decides it."""
    records = catalog.run_on(SampleOnly(k=2), seed=0)
    statuses = {r.id: r.status for r in records if r.id.startswith("HK12.AERR.gradient.")}
    assert set(statuses) >= {"HK12.AERR.gradient." + p for p in (
        "unbiased.exact", "unbiased.monte_carlo", "budget", "kernel_matches_reference",
        "scaling", "second_moment")}
    assert set(statuses.values()) == {"PASS"}, statuses
    exact = next(r for r in records if r.id == "HK12.AERR.gradient.unbiased.exact")
    assert any("choice tree" in m for m in exact.figures["methods"])


def test_a_class_instead_of_an_instance_is_refused_clearly():
    """Before: a TypeError inside the check, reported as FAIL."""
    with pytest.raises(InvalidParameterError, match="not the class UserAERRGradient"):
        catalog.get("HK12.AERR.gradient.budget").with_estimator(UserAERRGradient)
    with pytest.raises(InvalidParameterError, match="class"):
        catalog.run_on(UserAERRGradient)


class _WideBaseline:
    """A user's CB11 Fig. 1 at k = 8: no instance of the check has d >= 8."""

    name = "mine"
    k = 8
    budget = 8

    def reference(self, w, x, y, src):       # pragma: no cover - never reached
        raise AssertionError("no instance should be enumerated")

    def sample(self, w, x, y, *, n=1, rng=None):  # pragma: no cover
        raise AssertionError


def test_a_check_that_examined_nothing_is_inconclusive():
    """Before: CB11.Lemma8.expectation_corrected PASSed with instances_checked: 0."""
    record = catalog.run(catalog.get("CB11.Lemma8.expectation_corrected").with_estimator(
        _WideBaseline()), seed=0)
    assert record.status == "INCONCLUSIVE" and "nothing was examined" in record.note


def test_run_on_refuses_an_estimator_naming_nothing_registered():
    with pytest.raises(InvalidParameterError, match="check_estimator"):
        catalog.run_on(UserAERRGradient(name="mine"))
