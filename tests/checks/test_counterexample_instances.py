"""A counterexample found on an exact instance is reproducible from the verify JSON alone.

A check that fails on one of the exact instances of ``laocheck.estimators.instances`` names it
("d3"); the record ``laocheck.checks.run`` makes carries the instance's w, x, y (floats: the
instances are dyadic, so each is the exact value), k, and one line of Python that rebuilds
them. A user who has only the JSON file rebuilds the instance and sees the failure again; a
record whose counterexample names an instance with only part of its values is refused when read
(one with none of them, from an older file, is completed).
"""
import json
from fractions import Fraction

import pytest

from laocheck import estimators
from laocheck.checks import CheckRecord, register
from laocheck.checks import _registry
from laocheck.checks._counterexamples import complete_instance
from laocheck.checks.hk12.statements import check_lemma33_unbiased
from laocheck.cli import main
from laocheck.estimators.instances import INSTANCES
from laocheck.exceptions import InvalidParameterError
from laocheck.stats.exact import enumerate_outcomes


class HalvedGradient:
    """A user's AERR gradient estimate (HK12 Alg. 1) with a planted bug: laocheck's own box,
    its value halved (a factor 1/2 too many in the importance weight)."""

    k = 2

    def __init__(self):
        self.inner = estimators.get("HK12.AERR.gradient", k=2)
        self.budget = self.inner.budget

    def target(self, w, x, y):
        return self.inner.target(w, x, y)

    def reference(self, w, x, y, src):
        value, seen = self.inner.reference(w, x, y, src)
        return [v / 2 for v in value], seen

    def sample(self, w, x, y, *, n=1, rng=None):
        draws = self.inner.sample(w, x, y, n=n, rng=rng)
        return type(draws)(draws.values / 2, draws.attributes)


@pytest.fixture
def scratch_registry(monkeypatch):
    _registry.checks()                                   # discover the catalog first
    monkeypatch.setattr(_registry, "_CHECKS", dict(_registry._CHECKS))
    return _registry


def _exact_mean(estimator, w, x, y):
    dist = enumerate_outcomes(lambda src: estimator.reference(w, x, y, src))
    return [dist.expectation(lambda v, i=i: v[0][i]) for i in range(len(x))]


def test_a_verify_json_alone_rebuilds_the_instance_of_a_failure(scratch_registry, tmp_path,
                                                                capsys):
    register("User.AERR.gradient.unbiased", citation="HK12 Lemma 3.3",
             statement="E[g̃] = (wᵀx − y)·x", method="exact enumeration", delta=0.0,
             detectable=0.0, estimator=HalvedGradient())(check_lemma33_unbiased)
    path = tmp_path / "verify.json"
    assert main(["verify", "--only", "User.*", "--json", str(path), "--no-progress"]) == 1
    capsys.readouterr()
    doc = json.loads(path.read_text(encoding="utf-8"))
    record = CheckRecord.from_dict(doc["checks"][0])        # the records' schema holds
    assert record.status == "FAIL"
    ce = record.counterexample
    assert ce["instance"] in INSTANCES and ce["k"] == 2
    # the user's side: only the JSON, no laocheck
    namespace = {}
    exec(ce["reproduce"], namespace)
    w, x, y, k = (namespace[name] for name in ("w", "x", "y", "k"))
    assert (w.tolist(), x.tolist(), float(y)) == (ce["w"], ce["x"], ce["y"]) and k == 2
    exact_w, exact_x, exact_y = INSTANCES[ce["instance"]]
    assert [Fraction(v) for v in w] == exact_w and [Fraction(v) for v in x] == exact_x
    assert Fraction(y) == exact_y                         # dyadic: the floats are exact
    # ... and the failure again, at the rebuilt instance
    wf, xf, yf = [Fraction(v) for v in w], [Fraction(v) for v in x], Fraction(y)
    mean = _exact_mean(HalvedGradient(), wf, xf, yf)
    residual = sum(a * b for a, b in zip(wf, xf)) - yf
    assert [str(m) for m in mean] == ce["E[g̃]"]
    assert mean != [residual * xi for xi in xf]


def _record(counterexample):
    return {"id": "User.x", "status": "FAIL", "expected": "PASS", "citation": "c",
            "statement": "s", "assumptions": "", "method": "m", "delta": 0.0,
            "detectable": 0.0, "figures": {}, "counterexample": counterexample,
            "correction": None, "note": "", "seconds": 0.1, "seed": 0, "effort": "fast",
            "entropy": 1, "spawn_key": [0]}


def test_a_record_naming_an_instance_with_part_of_its_values_is_refused():
    good = complete_instance({"instance": "d3", "k": 2})
    with pytest.raises(InvalidParameterError, match=r"counterexample\.w"):
        CheckRecord.from_dict(_record({"instance": "d3", "k": 2, "x": good["x"]}))
    # a file written before the values were stored is read, and completed
    old = CheckRecord.from_dict(_record({"instance": "d3", "k": 2}))
    assert old.counterexample == good
    assert CheckRecord.from_dict(_record(good)).counterexample == good
    with pytest.raises(InvalidParameterError, match="3 entries of the instance d3"):
        CheckRecord.from_dict(_record({**good, "w": good["w"][:2]}))
    # a counterexample without an instance of laocheck's, or with its own values, is kept
    for other in ({"d": 2, "x": ["1", "0"]}, {"instance": "my own"}, [1, 2], None):
        assert CheckRecord.from_dict(_record(other)).counterexample == other
