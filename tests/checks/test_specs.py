"""The specs: one EstimatorSpec per estimator and one LearnerSpec per learner, from which the
checks select what applies — and the proof that an estimator from a fourth paper needs only its
sampler, its reference and its spec to get its property checks."""

import numpy as np
import pytest

from laocheck import checks as catalog
from laocheck import estimators, learners
from laocheck.checks import _registry
from laocheck.checks.algorithms import estimator_properties, learner_records
from laocheck.estimators import (Budget, Draws, EstimatorSpec, LearnerSpec,
                                 data_point_target)
from laocheck.estimators import _registry as estimator_registry
from laocheck.estimators.instances import INSTANCES, as_float
from laocheck.exceptions import InvalidParameterError
from laocheck.experiments.theorems import THEOREMS, learner_specs


# --------------------------------------------------------------------------- the declared facts
@pytest.mark.parametrize("name", estimators.names())
def test_each_estimator_carries_the_spec_it_is_registered_with(name):
    spec = estimators.spec_of(name)
    est = estimators.get(name, **estimators.example_params(name, 4))
    assert est.spec is spec and spec.name == name
    assert est.citation == spec.citation
    assert spec.budget.of(est.params) == est.budget
    assert (spec.budget.kind == "exact") == (est.budget_kind == "max")
    assert spec.geometry == est.geometry


@pytest.mark.parametrize("name", [n for n in estimators.names()
                                  if estimators.spec_of(n).finite])
def test_spec_target_is_the_estimators_target(name):
    """The spec's target (written from the paper, exact arithmetic) equals the class's float
    target on the exact instance d4, exactly (dyadic numbers)."""
    spec = estimators.spec_of(name)
    params = estimators.example_params(name, 4, k=spec.check_k)
    est = estimators.get(name, **params)
    w, x, y = INSTANCES["d4"]
    exact = np.asarray(spec.target(w, x, y, **params), dtype=object)
    assert np.array_equal(np.asarray(exact, dtype=float), np.asarray(est.target(*as_float(
        INSTANCES["d4"])), dtype=float))


def test_selection_follows_the_claims():
    """Each registered estimator gets exactly the property checks its spec's claims select."""
    ids = {c.id for c in catalog.checks()}
    for spec in estimators.specs():
        expected = set()
        if spec.unbiased and spec.finite:
            expected |= {"unbiased.exact", "unbiased.monte_carlo"}
        expected.add("budget")                 # of its kind: every draw, or the mean
        if spec.finite and spec.second_moment is not None:
            expected.add({"E‖v‖²": "second_moment",
                          "‖E[v²]‖∞": "second_moment_inf"}[spec.second_moment.quantity])
        if spec.finite:
            expected.add("kernel_matches_reference")
        if spec.finite and spec.scaling is not None:
            expected.add("scaling")
        if spec.clipping is not None:
            expected.add("clip_threshold")
        # the property checks (checks.algorithms.estimator_families' checks of the spec's own fields
        # share the prefix)
        got = {i[len(spec.name) + 1:] for i in ids if i.startswith(spec.name + ".") and
               catalog.get(i).func.__module__ == "laocheck.checks.algorithms.estimator_properties"}
        assert got == expected, spec.name


def test_spec_validation_names_the_field():
    good = dict(name="XY26.Toy.data_point", citation="XY26 Alg. 1", estimates="x",
                target=data_point_target, budget=Budget("k", lambda k: k))
    EstimatorSpec(**good)
    for field, value in (("geometry", "l3"), ("support", "countable"), ("scaling", "degree2"),
                         ("name", "Toy"), ("budget", 3)):
        with pytest.raises(InvalidParameterError, match=field):
            EstimatorSpec(**{**good, field: value})
    with pytest.raises(InvalidParameterError, match="kind"):
        Budget("k", lambda k: k, kind="sometimes")
    with pytest.raises(InvalidParameterError, match="params"):
        Budget("k + n", lambda k, n: k + n).of({"k": 2})


def test_every_budgeted_learner_declares_a_spec():
    """Every learner that observes part of each example has its own spec (not inherited), named
    after its class, and gets its budget check; the theorems' table is read from the specs."""
    budgeted = {name for name in learners.__all__
                if isinstance(getattr(learners, name), type)
                and issubclass(getattr(learners, name), learners._base.BudgetedLearner)}
    declared = {cls.__name__: spec for cls, spec in learner_specs()}
    assert set(declared) == budgeted
    for name, spec in declared.items():
        assert isinstance(spec, LearnerSpec) and spec.algorithm == name
        check = catalog.get(f"{spec.name}.budget")
        assert check.citation == spec.citation
        budget = spec.budget.of({"k": learner_records.K})
        assert f"at most {budget} of its attributes" in check.statement
    assert {t: v[1] for t, v in THEOREMS.items()} == {
        c.id: cls.__name__ for cls, spec in learner_specs() for c in spec.theorems}


def test_the_specs_table_is_exactly_the_classes_own_specs():
    """``laocheck.learners._specs.SPECS`` (read by the catalog without importing the classes,
    for ``laocheck list``) holds each learner class's own spec, the same object, under the
    class name, and nothing else: the table cannot drift from the classes."""
    from laocheck.learners._specs import SPECS
    assert {cls.__name__: spec for cls, spec in learner_specs()} == SPECS
    for name, spec in SPECS.items():
        assert vars(getattr(learners, name))["spec"] is spec


# --------------------------------------------------------------------------- a fourth paper
class UniformCoordinates:
    """A fourth paper's data-point estimate (user code, no laocheck kernel): k uniform draws
    i_1..i_k with replacement, x̃ = (d/k) Σ_r x_{i_r} e_{i_r}; ``weight`` breaks it."""

    def __init__(self, *, k, weight=None):
        self.k = k
        self.weight = weight
        self.name = "XY26.Uniform.data_point"
        self.citation = "XY26 Alg. 1"
        self.budget = k
        self.budget_kind = "max"

    @property
    def params(self):
        return {"k": self.k}

    def target(self, w, x, y):
        return np.asarray(x, dtype=float)

    def _w(self, d):
        return d if self.weight is None else self.weight(d)

    def reference(self, w, x, y, src):
        d = len(x)
        out = [x[0] * 0] * d
        seen = set()
        for _ in range(self.k):
            i = src.uniform_int(d)
            seen.add(i)
            out[i] = out[i] + x[i] * self._w(d) / self.k
        return out, frozenset(seen)

    def sample(self, w, x, y, *, n=1, rng=None):
        rng = np.random.default_rng(rng)
        x = np.asarray(x, dtype=float)
        d = x.shape[0]
        idx = rng.integers(d, size=(n, self.k))
        values = np.zeros((n, d))
        np.add.at(values, (np.repeat(np.arange(n), self.k), idx.ravel()),
                  (x[idx] * self._w(d) / self.k).ravel())
        attributes = np.array([len(set(row)) for row in idx.tolist()], dtype=np.int64)
        return Draws(values, attributes)


def _toy_spec(**claims):
    declared = dict(
        name="XY26.Uniform.data_point", citation="XY26 Alg. 1", estimates="x",
        target=data_point_target, budget=Budget("k", lambda k: k), geometry="l2",
        support="finite", unbiased=True, unbiased_citation="XY26 Lemma 1", scaling="degree0",
        example_params=lambda d, *, k=2, B=1.0: {"k": k}, exact_k=(1, 2), check_k=2)
    return EstimatorSpec(**{**declared, **claims})


@pytest.fixture
def scratch(monkeypatch):
    """Copies of the estimator registry and of the check catalog, restored after the test."""
    catalog.checks()
    monkeypatch.setattr(_registry, "_CHECKS", dict(_registry._CHECKS))
    estimators.names()                           # the families registered before the copy
    monkeypatch.setattr(estimator_registry, "_REGISTRY", dict(estimator_registry._REGISTRY))
    monkeypatch.setattr(estimator_registry, "_SPECS", dict(estimator_registry._SPECS))


def _register_fourth_paper(spec, factory=UniformCoordinates):
    """What a fourth paper's module does (its class and spec), then the catalog's own
    selection pass over every registered spec — no check module is edited."""
    estimators.register(spec.name, factory, spec=spec)
    estimator_properties._register()
    return {c.id for c in catalog.checks("XY26.*")}


def test_a_fourth_papers_estimator_gets_its_checks_from_its_spec(scratch):
    ids = _register_fourth_paper(_toy_spec())
    prefix = "XY26.Uniform.data_point."
    assert ids == {prefix + p for p in ("unbiased.exact", "unbiased.monte_carlo", "budget",
                                        "kernel_matches_reference", "scaling")}
    assert "XY26.Uniform.data_point" in estimators.names()
    for cid in sorted(ids):
        record = catalog.run(cid, seed=0, effort="fast", catch=False)
        assert record.status == "PASS", (cid, record.figures, record.counterexample)
    assert estimators.spec_of("XY26.Uniform.data_point").claims() == [
        "budget", "unbiased", "scaling", "finite_support"]


def test_the_claims_not_made_select_no_check(scratch):
    ids = _register_fourth_paper(_toy_spec(unbiased=False, scaling=None))
    assert ids == {"XY26.Uniform.data_point.budget",
                   "XY26.Uniform.data_point.kernel_matches_reference"}
    unbounded = EstimatorSpec(
        name="XY26.Series.derivative", citation="XY26 Alg. 2", estimates="f′(wᵀx − y)",
        target=data_point_target, budget=Budget("3", lambda: 3, kind="expectation"),
        support="unbounded", unbiased=True)
    estimators.register(unbounded.name, UniformCoordinates, spec=unbounded)
    estimator_properties._register()
    # an unbounded support: nothing to enumerate, only its claimed budget (in expectation)
    assert [c.id for c in catalog.checks() if c.id.startswith("XY26.Series.")] == [
        "XY26.Series.derivative.budget"]


def test_a_broken_fourth_paper_estimator_fails_its_selected_checks(scratch):
    """The d − 1 importance weight (biased): the exact unbiasedness check catches it."""
    def broken(**params):
        return UniformCoordinates(weight=lambda d: d - 1, **params)
    _register_fourth_paper(_toy_spec(), factory=broken)
    record = catalog.run("XY26.Uniform.data_point.unbiased.exact", seed=0, catch=False)
    assert record.status == "FAIL"
    assert record.counterexample["instance"] == "d3"     # the first exact instance
