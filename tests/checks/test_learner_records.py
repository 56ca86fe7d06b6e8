"""One record per learner, one generator of its checks (laocheck.checks.algorithms.learner_records): the
catalog and check_learner draw the same checks from it, so an id is one check, with one sample
size and one evidence, and a record's expected failures reach both.

No false alarms: the checks compared here are those of the catalog (exact, δ = 0, or
attribute_inclusion at δ = 1e-6 per run), each run at seed 0 as the catalog runs them.
"""
import dataclasses

import pytest

from laocheck import checks as catalog
from laocheck import learners
from laocheck.checks.algorithms import learner_records
from laocheck.checks.algorithms.learner_records import (CATALOG_PROPERTIES, RECORDS, learner_checks,
                                             record_of)
from laocheck.exceptions import InvalidParameterError
from laocheck.learners._specs import SPECS
from laocheck.testing import CheckFailure, check_learner


def _same_fields(record):
    doc = record.to_dict()
    for timing in ("seconds", "cpu_seconds"):
        doc.pop(timing, None)
    return doc


def test_every_learner_with_a_spec_has_one_record():
    assert set(RECORDS) == set(SPECS)
    for name, record in RECORDS.items():
        assert record.spec is SPECS[name] and record.label == SPECS[name].name
        assert record_of(getattr(learners, name)(k=2)) is record


def test_a_subclass_inheriting_a_spec_has_no_record():
    class MyAERR(learners.AERR):
        pass
    assert record_of(MyAERR(k=2)) is None
    with pytest.raises(InvalidParameterError, match="`claims`"):
        list(learner_checks(MyAERR(k=2)))


def test_the_catalog_registers_what_the_generator_yields():
    """Every learner check of the catalog is the generator's check for the record: the same
    id, function, statement and δ; the catalog holds no other check of a learner."""
    registered = {c.id: c for c in catalog.checks([f"{s.name}.*" for s in SPECS.values()])
                  if c.id.count(".") == 2}
    yielded = {c.id: c for r in RECORDS.values()
               for c in learner_checks(r, properties=CATALOG_PROPERTIES)}
    assert set(registered) == set(yielded)
    assert len(yielded) == 2 * len(SPECS) + len(CATALOG_PROPERTIES) * len(SPECS) + sum(
        r.settings is not None for r in RECORDS.values())
    for cid, check in yielded.items():
        got = registered[cid]
        assert (got.func, got.statement, got.delta, got.citation, got.expected) == (
            check.func, check.statement, check.delta, check.citation, check.expected)


@pytest.mark.parametrize("name", ["AERR", "AESVR", "AER", "TwoPhaseDDAELR"])
def test_one_id_is_one_check_in_the_catalog_and_in_check_learner(name):
    """check_learner on the catalog's instance (k = 2) gives, for every catalog id of the
    learner, the catalog's record bit for bit (figures, statement, seed): one sample size, one
    evidence. Its other records are the property checks the catalog does not hold."""
    ours = {r.id: r for r in check_learner(getattr(learners, name)(k=2), on_fail=None)}
    spec = SPECS[name]
    ids = [c.id for c in catalog.checks(f"{spec.name}.*") if c.id.count(".") == 2]
    assert len(ids) >= 3 and set(ids) <= set(ours)
    for cid in ids:
        assert _same_fields(catalog.run(catalog.get(cid), seed=0)) == _same_fields(ours[cid])


def test_an_expected_failure_on_the_record_reaches_both(monkeypatch):
    """A reason in a record's ``xfail`` makes its check expected to FAIL in the generator
    (so in the catalog) and in check_learner, strictly: a check that passes is reported."""
    record = dataclasses.replace(RECORDS["AERR"], xfail={"budget": "planted for the test"})
    monkeypatch.setitem(learner_records.RECORDS, "AERR", record)
    by_id = {c.id: c for c in learner_checks(learners.AERR(k=2))}
    assert by_id["HK12.AERR.budget"].expected == "FAIL"
    assert by_id["HK12.AERR.constraint"].expected == "PASS"
    with pytest.raises(CheckFailure, match="HK12.AERR.budget"):
        check_learner(learners.AERR(k=2))


class OverBudgetAERR(learners.AERR):
    """AERR that reports one more attribute per example than it read: over its k + 1."""

    spec = learners.AERR.spec

    def fit(self, X, y):
        super().fit(X, y)
        self.attributes_per_example_ = self.attributes_per_example_ + 1
        return self


def test_the_one_budget_check_fails_a_learner_over_its_budget_on_both_routes(monkeypatch):
    """The bug the budget check is named for, planted in a learner class with its own spec
    and record: the catalog's check rebound to it and check_learner on it both FAIL."""
    monkeypatch.setitem(learner_records.RECORDS, "OverBudgetAERR", dataclasses.replace(
        RECORDS["AERR"], name="OverBudgetAERR"))
    check = catalog.get("HK12.AERR.budget")
    rebound = dataclasses.replace(check, kwargs={**check.kwargs, "learner": OverBudgetAERR})
    record = catalog.run(rebound, seed=0)
    assert record.status == "FAIL" and record.counterexample["attributes"] == 4
    records = {r.id: r for r in check_learner(OverBudgetAERR(k=2), on_fail=None)}
    assert records["HK12.AERR.budget"].status == "FAIL"
    assert records["HK12.AERR.budget"].counterexample == record.counterexample
