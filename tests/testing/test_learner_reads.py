"""What a learner read is judged by what its output depends on (issue 48, item 1), and a learner
without claims is checked for its budget and determinism by default, with the claims not checked
listed (item 4, the learner half).

Every learner here is written as a user writes one: plain numpy, their own names, the usual
first line ``X = np.asarray(X)``. The cheats read every attribute of an example in some way the
recording matrix cannot see (np.asarray, X.T, X @ w, np.dot, X.sum(), a copy, pandas, a compiled
loop over a memoryview) and report k + 1 = 3: each must FAIL, with an example and attribute
named. The honest ones, counting or listing exactly what they read, must PASS.

False alarms: none possible. The budget check is a deterministic comparison (δ = 0): a FAIL
needs a refit whose output differs bit for bit, confirmed against a refit on X itself.
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from laocheck import learners
from laocheck.checks import run
from laocheck.checks.algorithms.learner_properties import SEARCH_REFITS
from laocheck.learners import OnlineRidge
from laocheck.testing import check_learner, learner_checks

from .learner_zoo.numpy_aerr import NumpyAERR

pd = pytest.importorskip("pandas")

BUDGET = {"budget": 3}


def budget_record(learner, claims=BUDGET, seed=0):
    check = next(c for c in learner_checks(learner, claims) if c.id.endswith(".budget"))
    return run(check, seed=seed)


class SGD:
    """Plain SGD on ½(wᵀx − y)² reading every attribute, reporting k + 1 per example."""

    def __init__(self, k=2, random_state=None):
        self.k = k
        self.random_state = random_state

    def rows(self, X):
        X = np.asarray(X)
        return X, X.shape

    def gradient(self, X, t, w, y):
        return (X[t] @ w - y[t]) * X[t]

    def fit(self, X, y):
        X, (m, d) = self.rows(X)
        w = np.zeros(d)
        self.attributes_per_example_ = []
        for t in range(m):
            w = w - 0.1 * self.gradient(X, t, w, y)
            self.attributes_per_example_.append(self.k + 1)
        self.coef_ = w
        return self


class ThroughTranspose(SGD):
    def rows(self, X):
        XT = X.T
        return XT.T, (XT.shape[1], XT.shape[0])


class ThroughMatmul(SGD):
    def gradient(self, X, t, w, y):
        residual = (X @ w)[t] - y[t]
        return residual * X[t]


class ThroughDot(SGD):
    def gradient(self, X, t, w, y):
        return (np.dot(X, w)[t] - y[t]) * np.eye(X.shape[1])[t % X.shape[1]]


class ThroughSum(SGD):
    """Reads k + 1 attributes per step honestly, and rescales by X.sum() (all of X)."""

    def fit(self, X, y):
        scale = 1.0 + abs(float(X.sum()))
        rng = np.random.default_rng(self.random_state)
        X = np.asarray(X)
        m, d = X.shape
        w = np.zeros(d)
        self.attributes_per_example_ = []
        for t in range(m):
            idx = rng.choice(d, self.k + 1, replace=False)
            w[idx] -= 0.1 * (X[t, idx] @ w[idx] - y[t]) * X[t, idx] / scale
            self.attributes_per_example_.append(self.k + 1)
        self.coef_ = w
        return self


class ThroughCopy(SGD):
    def rows(self, X):
        X = np.array(X, copy=True)
        return X, X.shape


class ThroughPandas(SGD):
    def rows(self, X):
        frame = pd.DataFrame(np.asarray(X))
        return frame.to_numpy(), frame.shape


class ThroughCompiled:
    """Hands X to a compiled loop (laocheck's OnlineRidge reads it through a Cython
    memoryview, every attribute) and reports k + 1 per example."""

    def __init__(self, k=2):
        self.k = k

    def fit(self, X, y):
        X = np.ascontiguousarray(X, dtype=float)
        inner = OnlineRidge(B=1.0).fit(X, y)
        self.coef_ = inner.coef_
        self.attributes_per_example_ = [self.k + 1] * X.shape[0]
        return self


class EveryTenthRow(SGD):
    """Honest k + 1 reads, except that every tenth example is read whole."""

    def fit(self, X, y):
        rng = np.random.default_rng(self.random_state)
        X = np.asarray(X)
        m, d = X.shape
        w = np.zeros(d)
        self.attributes_per_example_ = []
        for t in range(m):
            idx = np.arange(d) if t % 10 == 9 else rng.choice(d, self.k + 1, replace=False)
            w[idx] -= 0.1 * (X[t, idx] @ w[idx] - y[t]) * X[t, idx]
            self.attributes_per_example_.append(self.k + 1)
        self.coef_ = w
        return self


class Honest:
    """Converts X first, reads k + 1 distinct attributes of each example, reports the counts."""

    def __init__(self, k=2, random_state=None, say_which=False):
        self.k = k
        self.random_state = random_state
        self.say_which = say_which

    def fit(self, X, y):
        rng = np.random.default_rng(self.random_state)
        X = np.asarray(X)
        m, d = X.shape
        w = np.zeros(d)
        self.attributes_per_example_, read = [], []
        for t in range(m):
            idx = rng.choice(d, self.k + 1, replace=False)
            w[idx] -= 0.1 * (X[t, idx] @ w[idx] * d / (self.k + 1) - y[t]) * X[t, idx]
            self.attributes_per_example_.append(len(idx))
            read.append(idx)
        self.coef_ = w
        if self.say_which:
            self.attributes_read_ = read
        return self


class ListsOneLess(Honest):
    """Lists which attributes it read, leaving out the first of each example."""

    def fit(self, X, y):
        super().fit(X, y)
        self.attributes_read_ = [idx[1:] for idx in self.attributes_read_]
        return self


class CentredIntercept(Honest):
    """Honest coef_, but an intercept_ from the mean of every column of X."""

    def fit(self, X, y):
        super().fit(X, y)
        self.intercept_ = float(np.asarray(X).mean())
        return self


class RemembersX(Honest):
    """Honest coef_, but predict adds a term from the stored training X (kept whole)."""

    def fit(self, X, y):
        super().fit(X, y)
        self._train = np.asarray(X).copy()
        return self

    def predict(self, X):
        return np.asarray(X) @ self.coef_ + self._train.mean()


@pytest.mark.parametrize("cheat", [SGD, ThroughTranspose, ThroughMatmul, ThroughDot, ThroughSum,
                                   ThroughCopy, ThroughPandas, ThroughCompiled])
def test_reading_everything_and_reporting_k_plus_1_fails_whatever_the_way_to_x(cheat):
    record = budget_record(cheat(k=2))
    assert record.status == "FAIL", (record.note, record.figures)
    ce = record.counterexample
    assert ce["count"] > ce["limit"] == 3 and ce["limit_from"] == "attributes_per_example_"
    assert 0 <= ce["example"] < record.figures["examples"]
    assert f"example {ce['example']}" in record.note


def test_check_learner_raises_on_the_cheat_and_exits_nothing_as_pass():
    with pytest.raises(AssertionError, match="SGD.budget: FAIL"):
        check_learner(SGD(k=2), BUDGET)


def test_an_excess_on_some_examples_only_is_found_on_one_of_them():
    record = budget_record(EveryTenthRow(k=2))
    assert record.status == "FAIL"
    assert record.counterexample["example"] % 10 == 9
    assert record.counterexample["count"] == 8


def test_an_honest_learner_that_converts_x_and_reports_counts_passes():
    record = budget_record(Honest(k=2))
    assert record.status == "PASS", (record.note, record.figures)
    # every example searched one attribute at a time: m·d refits (64 · 8 <= 512)
    assert record.figures["examples_searched"] == record.figures["examples"] == 64
    assert record.figures["refits"] == 64 * 8 <= SEARCH_REFITS[0]


def test_an_honest_learner_that_lists_its_reads_is_checked_with_one_refit_and_a_control():
    record = budget_record(Honest(k=2, say_which=True))
    assert record.status == "PASS", (record.note, record.figures)
    assert record.figures["reads_from"] == "attributes_read_"
    assert record.figures["refits"] == 2
    assert record.figures["unreported_replaced"] == 64 * (8 - 3)


def test_a_list_of_reads_that_leaves_one_out_fails_with_the_entry_named():
    record = budget_record(ListsOneLess(k=2, say_which=True))
    assert record.status == "FAIL"
    ce = record.counterexample
    assert ce["reads_reported_by"] == "attributes_read_"
    assert ce["attribute"] not in ce["reported_reads_of_example"]
    assert len(ce["entries"]) == 1 and record.figures["refits"] <= 2 + 2 * 9 + 1


@pytest.mark.parametrize("cheat,output", [(CentredIntercept, "intercept_"),
                                          (RemembersX, "predict")])
def test_a_dependence_through_intercept_or_predict_fails(cheat, output):
    record = budget_record(cheat(k=2, say_which=True))
    assert record.status == "FAIL"
    assert record.counterexample["output"] == output


def test_a_report_of_1_9_attributes_is_not_truncated():
    class Fractional(Honest):
        def fit(self, X, y):
            super().fit(X, y)
            self.attributes_per_example_ = [1.9] * len(self.attributes_per_example_)
            return self
    record = budget_record(Fractional(k=2))
    assert record.status == "FAIL" and record.counterexample["reported"] == 1.9


@pytest.mark.parametrize("name", ["AERR", "AELR", "AER", "DDAERR", "TwoPhaseDDAELR",
                                  "AdaGAERR", "Baseline", "AESVR"])
def test_laocheck_own_learners_pass_their_budget_by_dependence(name):
    record = next(r for r in check_learner(getattr(learners, name)(k=2), on_fail=None)
                  if r.id.endswith(".budget"))
    assert record.status == "PASS", (record.note, record.figures)
    # their draws_ (record_draws=True; AESVR's flat record parsed): one refit per method (fit,
    # fit_stream, partial_fit), and a control each
    assert record.figures["reads_from"] == "draws_ (record_draws=True)"
    assert record.figures["partial_fit: reads_from"] == "draws_ (record_draws=True)"
    assert record.figures["refits"] == 6


class SaysWhich(Honest):
    """Reports its reads in one of the accepted forms (or an ambiguous one)."""

    def __init__(self, k=2, random_state=None, form="mask"):
        super().__init__(k, random_state, say_which=True)
        self.form = form

    def fit(self, X, y):
        super().fit(X, y)
        m, d = np.shape(X)
        mask = np.zeros((m, d), dtype=bool)
        for i, idx in enumerate(self.attributes_read_):
            mask[i, idx] = True
        if self.form == "mask":
            self.attributes_read_ = mask
        elif self.form == "padded":
            self.attributes_read_ = np.full((m, d), -1)
            for i, idx in enumerate(np.nonzero(mask)[1].reshape(m, -1)):
                self.attributes_read_[i, :len(idx)] = idx
        else:                           # 0/1 ints: a mask or indices 0 and 1?
            self.attributes_read_ = mask.astype(int)
        return self


@pytest.mark.parametrize("form,status", [("mask", "PASS"), ("padded", "PASS"),
                                         ("zeros_and_ones", "INCONCLUSIVE")])
def test_the_forms_of_attributes_read_(form, status):
    record = budget_record(SaysWhich(k=2, form=form))
    assert record.status == status, (record.note, record.figures)
    if status == "INCONCLUSIVE":
        assert "0 and 1" in record.note


class WantsAnArray(SGD):
    """Refuses anything but an ndarray (as some libraries do), then reads everything."""

    def rows(self, X):
        if not isinstance(X, np.ndarray):
            raise RuntimeError("X must be a numpy array")
        return X, X.shape


def test_a_learner_that_refuses_the_recording_matrix_is_refitted_on_arrays_and_judged():
    record = budget_record(WantsAnArray(k=2))
    assert record.status == "FAIL" and record.counterexample["count"] == 8
    assert "RuntimeError" in record.figures["counted"]


class IndexesX(Honest):
    """Honest, indexing X entry by entry (no conversion: its reads are recorded)."""

    def fit(self, X, y):
        rng = np.random.default_rng(self.random_state)
        m, d = X.shape
        w = np.zeros(d)
        self.attributes_per_example_ = []
        for t in range(m):
            idx = rng.choice(d, self.k + 1, replace=False)
            xs = np.array([X[t, j] for j in idx])
            w[idx] -= 0.1 * (xs @ w[idx] - y[t]) * xs
            self.attributes_per_example_.append(self.k + 1)
        self.coef_ = w
        return self


class FastPathForArrays(IndexesX):
    """Reads k + 1 entries one by one, except that an ndarray (the real use) takes a
    "fast path" that computes each residual from the whole row, still reporting k + 1."""

    def fit(self, X, y):
        if not isinstance(X, np.ndarray):
            return super().fit(X, y)
        rng = np.random.default_rng(self.random_state)
        m, d = X.shape
        w = np.zeros(d)
        self.attributes_per_example_ = []
        for t in range(m):
            idx = rng.choice(d, self.k + 1, replace=False)
            w[idx] -= 0.1 * (X[t] @ w - y[t]) * X[t, idx]
            self.attributes_per_example_.append(self.k + 1)
        self.coef_ = w
        return self


class OtherDrawsForArrays(IndexesX):
    """Honest on both paths, but an ndarray draws its indices in one call up front (other
    random numbers than the one-by-one path): the recording matrix's record does not describe
    the array's run."""

    def fit(self, X, y):
        if not isinstance(X, np.ndarray):
            return super().fit(X, y)
        rng = np.random.default_rng(self.random_state)
        m, d = X.shape
        w = np.zeros(d)
        picks = np.argsort(rng.random((m, d)), axis=1)[:, :self.k + 1]
        for t in range(m):
            idx = picks[t]
            w[idx] -= 0.1 * (X[t, idx] @ w[idx] - y[t]) * X[t, idx]
        self.coef_ = w
        self.attributes_per_example_ = [self.k + 1] * m
        return self


def test_a_learner_is_judged_on_the_path_it_takes_for_arrays():
    record = budget_record(IndexesX(k=2))
    assert record.status == "PASS" and record.figures["reads_from"] == "the recording matrix"
    record = budget_record(FastPathForArrays(k=2))
    assert record.status == "FAIL", (record.note, record.figures)
    assert "recording" in record.figures                # its record was not used
    record = budget_record(OtherDrawsForArrays(k=2))
    assert record.status == "PASS", (record.note, record.figures)
    assert record.figures["examples_searched"] == 64


class PartialWholeRow(NumpyAERR):
    """HK12's AERR in fit and fit_stream; partial_fit called by the user ("online, rows are
    cheap") computes φ from the whole row, still reporting k + 1 per example."""

    def fit(self, X, y):
        self._in_fit = True
        try:
            return super().fit(X, y)
        finally:
            self._in_fit = False

    def partial_fit(self, X, y):
        self._whole = not getattr(self, "_in_fit", False)
        try:
            return super().partial_fit(X, y)
        finally:
            self._whole = False

    def sample_phi(self, X, t, y, d):
        if not getattr(self, "_whole", False):
            return super().sample_phi(X, t, y, d)
        return float(np.asarray(X)[t] @ self.w_) - y[t], {0}


def test_partial_fit_is_judged_too():
    record = budget_record(NumpyAERR(k=2))
    assert record.status == "PASS", (record.note, record.figures)
    assert record.figures["partial_fit: reads_from"] == "the recording matrix"
    record = budget_record(PartialWholeRow(k=2))
    assert record.status == "FAIL", (record.note, record.figures)
    assert record.counterexample["method"] == "partial_fit"


_CACHE = {}


class Cached(SGD):
    """Reads every attribute, and remembers its first result for data of the same shape (a
    module-level cache: every refit on a modified X returns the first fit's coef_)."""

    def fit(self, X, y):
        key = (np.shape(X), self.random_state)
        if key not in _CACHE:
            _CACHE[key] = super().fit(X, y).coef_
        self.coef_ = _CACHE[key]
        self.attributes_per_example_ = [self.k + 1] * np.shape(X)[0]
        return self


class Constant:
    """Ignores X: coef_ = 0, reads nothing, reports nothing read."""

    def fit(self, X, y):
        self.coef_ = np.zeros(np.shape(X)[1])
        self.attributes_read_ = [[] for _ in range(np.shape(X)[0])]
        return self


@pytest.mark.parametrize("learner", [Cached(k=2), Constant()], ids=["cached", "constant"])
def test_an_output_that_no_refit_can_change_is_inconclusive_not_pass(learner):
    _CACHE.clear()
    record = budget_record(learner)
    assert record.status == "INCONCLUSIVE", (record.note, record.figures)
    assert "every entry of X replaced" in record.note


class Generated:
    """A generated learner: converts X, reads ``reads`` distinct attributes of each example
    (reported), plus one unreported attribute of each example in ``extra_rows``; reports its
    counts, or which attributes (``attributes_read_``)."""

    def __init__(self, reads=3, extra_rows=(), say_which=False, random_state=None):
        self.reads = reads
        self.extra_rows = extra_rows
        self.say_which = say_which
        self.random_state = random_state

    def fit(self, X, y):
        rng = np.random.default_rng(self.random_state)
        X = np.array(X, dtype=float)
        m, d = X.shape
        w = np.zeros(d)
        read = []
        for t in range(m):
            idx = rng.choice(d, self.reads, replace=False)
            w[idx] -= 0.1 * (X[t, idx] @ w[idx] - y[t]) * X[t, idx]
            if t in self.extra_rows:
                other = np.setdiff1d(np.arange(d), idx)
                w[other[0]] += 1e-3 * X[t, other[0]]
            read.append(idx)
        self.coef_ = w
        self.attributes_per_example_ = [len(idx) for idx in read]
        if self.say_which:
            self.attributes_read_ = read
        return self


@settings(derandomize=True, max_examples=8, deadline=None)
@given(reads=st.integers(1, 3), extra_rows=st.sets(st.integers(0, 63), max_size=3),
       say_which=st.booleans())
def test_generated_learners_fail_exactly_when_they_read_more_than_they_report(reads, extra_rows,
                                                                               say_which):
    learner = Generated(reads, tuple(sorted(extra_rows)), say_which)
    record = budget_record(learner, {"budget": 3})
    if not extra_rows:
        assert record.status == "PASS", (record.note, record.figures)
        return
    assert record.status == "FAIL", (record.note, record.figures)
    assert record.counterexample["example"] in extra_rows


# -- item 4: defaults that check, and what is not checked ---------------------------------------
def test_without_claims_budget_and_determinism_are_checked_and_the_rest_listed():
    records = check_learner(Honest(k=2), on_fail=None)
    assert [r.id for r in records] == ["Honest.budget", "Honest.deterministic"]
    assert all(r.status == "PASS" for r in records)
    assert set(records.not_checked) == {"Honest.budget", "Honest.constraint",
                                        "Honest.step_size", "Honest.excess_risk",
                                        "Honest.sklearn"}
    assert "only that its reports" in records.not_checked["Honest.budget"]
    assert "not checked:" in records.summary()


def test_without_claims_a_cheat_fails_its_reports():
    with pytest.raises(AssertionError, match="SGD.budget: FAIL") as info:
        check_learner(SGD(k=2))
    assert "not checked:" in str(info.value) and "SGD.constraint" in str(info.value)


def test_a_learner_that_reports_nothing_and_claims_nothing_is_not_passed():
    class Quiet(Honest):
        def fit(self, X, y):
            super().fit(X, y)
            del self.attributes_per_example_
            return self
    record = next(r for r in check_learner(Quiet(k=2), on_fail=None)
                  if r.id.endswith(".budget"))
    assert record.status == "INCONCLUSIVE" and "claim a budget" in record.note


def test_the_learners_own_budget_attribute_is_its_claim_and_false_opts_out():
    class Budgeted(Honest):
        budget = 2                       # claims 2, reads 3
    record = next(r for r in check_learner(Budgeted(k=2), on_fail=None)
                  if r.id.endswith(".budget"))
    assert record.status == "FAIL" and record.counterexample["budget"] == 2
    records = check_learner(Budgeted(k=2), {"budget": False}, on_fail=None)
    assert [r.id for r in records] == ["Budgeted.deterministic"]
    assert records.not_checked["Budgeted.budget"] == "claims['budget'] is False"
