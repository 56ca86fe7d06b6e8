"""One engine (issue 34): the catalog's property checks of laocheck's own estimators and
``check_estimator`` on the same estimators are the same code path, and the claims' edge cases
of issue 36 get a correct verdict, an INCONCLUSIVE with its reason, or a ValueError naming the
parameter."""

import time

import numpy as np
import pytest

from laocheck import checks as catalog
from laocheck import estimators
from laocheck.checks.algorithms import estimator_properties as engine
from laocheck.checks.algorithms.estimator_properties import PROPERTIES
from laocheck.testing import check_estimator

from ..testing.zoo import aerr_vectorized


def _comparable(record):
    doc = record.to_dict()
    doc.pop("seconds")                        # wall and CPU time: the only fields that
    doc.pop("cpu_seconds")                    # may differ
    return doc


@pytest.mark.parametrize("name", estimators.names())
def test_check_estimator_gives_the_catalogs_records(name):
    """check_estimator(get(name, **params)) with the catalog's parameters gives, check by
    check, the records `laocheck verify --only '<name>.*'` gives: same ids, statements,
    statuses, figures, counterexamples and seeds."""
    ids = sorted(c.id for c in catalog.checks()
                 if c.id.startswith(name + ".") and c.id[len(name) + 1:] in PROPERTIES)
    assert ids, name
    params = catalog.get(ids[0]).params
    ours = {r.id: _comparable(r) for r in catalog.run_catalog(
        [catalog.get(i) for i in ids], 0, "fast", 1)}
    users = {r.id: _comparable(r) for r in check_estimator(
        estimators.get(name, **params), seed=0, on_fail=None)}
    assert users == ours


def test_the_catalog_and_the_users_build_the_same_checks():
    """Not two suites: every property check of the catalog is built by the engine, and the
    user API builds its checks with the same functions."""
    functions = {f for f, *_ in engine._FUNCS.values()}
    # the estimators' property checks (the learners' come from their records: test_learner_*)
    built = [c for c in catalog.checks() if "claims" in c.kwargs and "learner" not in c.kwargs]
    assert len(built) == 136
    assert all(c.func.__wrapped__ in functions for c in built)
    assert {c.func for c in built} <= set(engine._WRAPPED.values())


def test_a_k_above_d_is_not_a_fail():
    """Issue 36: HK12 Lemma 3.3's bound refuses k > d, which `get` accepts; the instances
    where it does not apply are skipped with the reason, the others checked."""
    records = {r.id.rsplit(".", 1)[-1]: r for r in check_estimator(
        estimators.get("HK12.AERR.gradient", k=4), on_fail=None)}
    moment = records["second_moment"]
    assert moment.status == "PASS"
    assert moment.figures["instances_checked"] == ["d4", "l2_edge", "l1_edge", "w0_edge"]
    assert "k=4 with d=3" in moment.figures["instances_skipped"]["d3"]
    assert "k=4 with d=2" in moment.figures["instances_skipped"]["kd_edge"]
    assert "FAIL" not in {r.status for r in records.values()}


def test_too_many_paths_is_refused_at_once():
    """Issue 36: k = 10 ran for more than ten minutes (4¹⁰ paths per instance). The first path
    predicts the size of the tree; the exact checks say why they cannot decide."""
    start = time.perf_counter()
    records = check_estimator(estimators.get("HK12.AERR.gradient", k=10), on_fail=None)
    assert time.perf_counter() - start < 60
    statuses = {r.id.rsplit(".", 1)[-1]: r.status for r in records}
    assert "FAIL" not in statuses.values() and statuses["budget"] == "PASS"
    for r in records:
        if r.status == "INCONCLUSIVE":
            assert "not decided" in r.note and ("paths" in r.note or "k=10" in r.note), r.note


def test_a_true_bound_beyond_the_doubles_passes():
    """Issue 36: second_moment=10**400 (a true bound) FAILed (float(10**400) overflows)."""
    records = check_estimator(aerr_vectorized.est, {"second_moment": 10 ** 400}, on_fail=None)
    assert [r.status for r in records if r.id.endswith(".second_moment")] == ["PASS"]


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -1.0, 0, True])
def test_a_bound_that_is_not_a_positive_number_is_refused(bad):
    with pytest.raises(ValueError, match=r"claims\['second_moment'\]"):
        check_estimator(aerr_vectorized.est, {"second_moment": bad})


def test_a_bound_function_returning_nan_decides_nothing():
    records = check_estimator(aerr_vectorized.est,
                              {"second_moment": lambda w, x, y: float("nan")}, on_fail=None)
    moment = next(r for r in records if r.id.endswith(".second_moment"))
    assert moment.status == "INCONCLUSIVE" and "finite number" in moment.note


def test_a_target_returning_nan_decides_nothing():
    """Issue 36: a target returning NaN PASSed."""
    class NanTarget:
        budget = 1

        def target(self, w, x, y):
            return np.full(len(x), np.nan)

        def sample(self, w, x, y, n=1, rng=None):
            i = rng.integers(len(x), size=n)
            out = np.zeros((n, len(x)))
            out[np.arange(n), i] = len(x) * np.asarray(x, dtype=float)[i]
            return out, np.ones(n, dtype=int)

    records = check_estimator(NanTarget(), {"unbiased": True}, on_fail=None)
    unbiased = [r for r in records if ".unbiased." in r.id]
    assert len(unbiased) == 2
    assert all(r.status == "INCONCLUSIVE" and "not finite" in r.note for r in unbiased)


@pytest.mark.parametrize("delta", [5e-324, 0.0, 1e-301, 2e-6, float("nan")])
def test_a_delta_the_intervals_cannot_use_is_refused(delta):
    """Issue 36: an accepted delta = 5e-324 FAILed a correct estimator."""
    with pytest.raises(ValueError, match="`delta`"):
        check_estimator(aerr_vectorized.est, {"unbiased": True}, delta=delta)


def test_the_smallest_delta_accepted_passes_a_correct_estimator():
    records = check_estimator(aerr_vectorized.est, {"unbiased": True}, delta=1e-300,
                              on_fail=None)
    assert {r.status for r in records} == {"PASS"}


def test_the_users_own_k_is_found_and_a_missing_one_is_named():
    """Issue 34: the estimator's own attribute `k` is used; without one, the error names
    every place looked at."""
    records = check_estimator(aerr_vectorized.est, {"second_moment": "HK12.Lemma3.3.G2",
                                                    "budget": 3}, on_fail=None)
    assert {r.status for r in records} == {"PASS"}

    class NoK:
        budget = 3
        target = aerr_vectorized.est.target
        sample = aerr_vectorized.est.sample

    with pytest.raises(ValueError, match=r"claims\['k'\].*params\['k'\].*attribute `k`"):
        check_estimator(NoK(), {"second_moment": "HK12.Lemma3.3.G2"})
    assert {r.status for r in check_estimator(NoK(), {"second_moment": "HK12.Lemma3.3.G2",
                                                      "k": 2}, on_fail=None)} == {"PASS"}


class _UniformDither:
    """x from one uniform coordinate (weight d) plus uniform(-0.1, 0.1) dither: unbiased, a
    continuous draw (not enumerable); with a shift of at most 0.3 every coordinate lies within
    [-4.5, 4.5] on the instances (|d·x_i| <= 4·3/4 = 3)."""

    budget = 1

    def __init__(self, shift=0.0):
        self.shift = shift

    def target(self, w, x, y):
        return np.asarray(x, dtype=float)

    def sample(self, w, x, y, n=1, rng=None):
        x = np.asarray(x, dtype=float)
        i = rng.integers(len(x), size=n)
        out = rng.uniform(-0.1, 0.1, size=(n, len(x))) + self.shift
        out[np.arange(n), i] += len(x) * x[i]
        return out, np.ones(n, dtype=int)


def test_unbiasedness_from_sample_alone_needs_a_range_or_a_bound():
    """Issue 34: a sampler that cannot be enumerated is tested by empirical Bernstein over a
    declared range, by median-of-means with a claimed second-moment bound, else INCONCLUSIVE
    naming the missing claims; a biased one FAILs either way."""
    def statuses(est, claims):
        return {r.id.split(".", 1)[1]: r for r in check_estimator(est, claims, on_fail=None)}

    bare = statuses(_UniformDither(), {"unbiased": True})
    assert bare["unbiased.monte_carlo"].status == "INCONCLUSIVE"
    assert "claims['range']" in bare["unbiased.monte_carlo"].note
    assert "rng.uniform()" in bare["unbiased.monte_carlo"].note
    # E‖v‖² <= d‖x‖² + d·0.1² <= 4.04, plus the shift's 4·0.3² for the biased one: 4.5
    for claim in ({"range": [-4.5, 4.5]}, {"second_moment": 4.5}):
        good = statuses(_UniformDither(), {"unbiased": True, **claim})
        assert good["unbiased.monte_carlo"].status == "PASS", claim
        assert good["unbiased.monte_carlo"].delta == 1e-6
        bad = statuses(_UniformDither(shift=0.3), {"unbiased": True, **claim})
        assert bad["unbiased.monte_carlo"].status == "FAIL", claim
