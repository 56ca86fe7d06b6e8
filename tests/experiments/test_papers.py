"""The papers' experiments on small budgets: splits, cross-validation, seeds, claim checks."""

import json

import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin, clone
from sklearn.model_selection import GridSearchCV, KFold

from laocheck.data import LabelledData, PowerLawBernoulli, load_sklearn_digits
from laocheck.effort import get_profile
from laocheck.experiments.papers import (DOES_NOT_HOLD, HOLDS, INCONCLUSIVE, Algorithm, Curve,
                                         StepScaled, claim_better, claim_converges,
                                         ks15_adaptive, ks15_synthetic, learning_curves)
from laocheck.exceptions import InvalidParameterError
from laocheck.experiments import papers
from laocheck.experiments.papers import _curves, _rows
from laocheck.learners import (AELR, AER, AERR, DDAERR, AdaOnlineRidge, Baseline, OfflineLasso,
                               OfflineRidge, OnlineLasso, OnlineRidge, TwoPhaseDDAELR,
                               TwoPhaseDDAERR)

SEEN = []


class Spy(RegressorMixin, BaseEstimator):
    """Records the example ids (last column) of every row it is fitted on; predicts 0."""

    def __init__(self, B=1.0):
        self.B = B

    def fit(self, X, y):
        SEEN.append(np.rint(X[:, -1] * 1e4).astype(int))
        self.coef_ = np.zeros(X.shape[1])
        return self

    def predict(self, X):
        return X @ self.coef_


class Zero(Spy):
    def fit(self, X, y):
        self.coef_ = np.zeros(X.shape[1])
        return self


def test_cross_validation_never_sees_test_data():
    pair = load_sklearn_digits().pair(3, 5)
    ids = np.arange(pair.n) / 1e4                       # a column that names each example
    data = LabelledData(X=np.column_stack([pair.X[:, :-1], ids]), y=pair.y, source="test",
                        kind="sklearn-digits", is_mnist=False, preprocessing="")
    SEEN.clear()
    _, raw = learning_curves([Algorithm("spy", lambda c: Spy(), "none")], data=data, k=4, runs=3,
                             prefixes=(0.5, 1.0), folds=4, grid=(0.5, 2.0), seed=1,
                             keep_indices=True)
    assert len(SEEN) == 3 * (4 * 2 + 2)                 # 4 folds x 2 radii + 2 prefixes per run
    for r, run in enumerate(raw):
        train, test = set(run["train_index"]), set(run["test_index"])
        assert not train & test and len(train | test) == pair.n
        assert len(test) == round(0.1 * pair.n)
        for fit_tr, fit_va in run["cv_folds"]:
            assert set(fit_tr) | set(fit_va) <= train and not set(fit_va) & set(fit_tr)
        folds = {i for _, va in run["cv_folds"] for i in va}
        assert folds == train                           # the folds cover the training part
        for seen in SEEN[r * 10:(r + 1) * 10]:          # every fit: training examples only
            assert set(seen) <= train and not set(seen) & test


def test_max_train_takes_a_random_subset_of_the_training_part_and_keeps_the_test_part():
    """The fast budget's cap (``max_train``): each run fits on at most that many of its
    training examples, drawn from the training part only (cross-validation and prefixes too),
    and tests on the same test part as without the cap."""
    pair = load_sklearn_digits().pair(3, 5)
    ids = np.arange(pair.n) / 1e4
    data = LabelledData(X=np.column_stack([pair.X[:, :-1], ids]), y=pair.y, source="test",
                        kind="sklearn-digits", is_mnist=False, preprocessing="")
    kw = dict(data=data, k=4, runs=3, prefixes=(0.5, 1.0), folds=4, grid=(0.5, 2.0), seed=1,
              keep_indices=True)
    alg = [Algorithm("spy", lambda c: Spy(), "none")]
    SEEN.clear()
    _, capped = learning_curves(alg, max_train=100, **kw)
    _, whole = learning_curves(alg, **kw)
    subsets = []
    for r, (run, ref) in enumerate(zip(capped, whole)):
        train = set(run["train_index"])
        assert run["n_train"] == len(train) == 100 and run["sizes"] == (50, 100)
        assert train < set(ref["train_index"])                    # a subset of the training part
        assert np.array_equal(run["test_index"], ref["test_index"])
        assert {i for _, va in run["cv_folds"] for i in va} == train
        for seen in SEEN[r * 10:(r + 1) * 10]:
            assert set(seen) <= train
        subsets.append(frozenset(train))
    assert len(set(subsets)) == 3                                 # a fresh subset each run
    with pytest.raises(InvalidParameterError, match="max_train"):
        learning_curves(alg, max_train=3, **kw)                   # fewer than the folds
    with pytest.raises(InvalidParameterError, match="max_train.*distribution"):
        learning_curves(alg, distribution=PowerLawBernoulli(5, -1.0), m=50, k=2, runs=2,
                        prefixes=(1.0,), folds=2, grid=(1.0,), max_train=20)


def test_same_seed_same_numbers_and_prefixes():
    dist = PowerLawBernoulli(20, -1.0)
    algs = [Algorithm("AERR", lambda c: AERR(k=3), "HK12 Alg. 1"),
            Algorithm("Online ridge", lambda c: OnlineRidge(), "OGD")]
    kw = dict(distribution=dist, m=300, k=3, runs=3, prefixes=(0.1, 0.5, 1.0), folds=3,
              grid=(0.5, 1.0))
    a, _ = learning_curves(algs, seed=5, **kw)
    b, _ = learning_curves(algs, seed=5, **kw)
    c, _ = learning_curves(algs, seed=6, **kw)
    assert a[0].per_run == b[0].per_run and a[0].per_run != c[0].per_run
    assert a[0].examples == (30, 150, 300)
    # AERR sees at most k + 1 attributes per example, online ridge all d
    assert all(att <= 4 * m for att, m in zip(a[0].attributes, a[0].examples))
    assert a[1].attributes == tuple(20.0 * m for m in a[1].examples)
    for cv in a:
        assert all(lo <= mu <= hi for lo, mu, hi in zip(cv.low, cv.mean, cv.high))
        assert cv.classification is None                # exact risk, no test sample


def fake(name, per_run):
    per_run = np.asarray(per_run, dtype=float)
    P = per_run.shape[1]
    return Curve(algorithm=name, learner="x", citation="", examples=tuple(range(1, P + 1)),
                 attributes=(0.0,) * P, mean=tuple(per_run.mean(0)), sd=(0.0,) * P,
                 low=(0.0,) * P, high=(1.0,) * P, delta=1e-6, classification=None,
                 per_run=tuple(map(tuple, per_run)), tuned=())


CLAIM = dict(claim="c", citation="t", source="s", stand_in=False, delta=1e-6)


def test_claim_better_true_false_and_undecidable():
    rng = np.random.default_rng(0)
    good = rng.uniform(0.1, 0.2, (30, 4))
    bad = good + rng.uniform(0.01, 0.1, (30, 4))
    curves = (fake("A", good), fake("B", bad))
    assert claim_better(curves, "A", "B", **CLAIM).status == HOLDS
    assert claim_better(curves, "B", "A", **CLAIM).status == DOES_NOT_HOLD
    # 10 runs (the papers' count): unanimity has probability 2^-10 > 1e-6/4, so undecided
    ten = (fake("A", good[:10]), fake("B", bad[:10]))
    assert claim_better(ten, "A", "B", **CLAIM).status == INCONCLUSIVE
    # a coin flip between A and B at one prefix: neither
    mixed = bad.copy()
    mixed[::2, 2] = good[::2, 2] - 0.05
    res = claim_better((fake("A", good), fake("B", mixed)), "A", "B", **CLAIM)
    assert res.status == INCONCLUSIVE and res.counts[2] == 15 and res.counts[0] == 30


def test_claim_order_best_and_between_true_false_and_points():
    rng = np.random.default_rng(2)
    low = rng.uniform(0.1, 0.2, (30, 3))
    mid = low + rng.uniform(0.01, 0.05, (30, 3))
    high = mid + rng.uniform(0.01, 0.05, (30, 3))
    curves = (fake("L", low), fake("M", mid), fake("H", high))
    order = papers.claim_order
    assert order(curves, (["L"], ["M", "H"]), **CLAIM).status == HOLDS          # L best
    assert order(curves, (["L"], ["M"], ["H"]), **CLAIM).status == HOLDS        # M between
    assert order(curves, (["M"], ["L", "H"]), **CLAIM).status == DOES_NOT_HOLD  # M not best
    assert order(curves, (["L"], ["H"], ["M"]), **CLAIM).status == DOES_NOT_HOLD
    res = order(curves, (["L", "M"], ["H"]), **CLAIM)
    assert res.status == HOLDS and "(each below each)" in res.formal
    # two groups of one are claim_better, text and all
    assert order(curves, (["L"], ["M"]), **CLAIM) == claim_better(curves, "L", "M", **CLAIM)
    # M beats H at the first prefix only: decided there, not over all three
    flipped = high.copy()
    flipped[:, 1:] = low[:, 1:] - 0.05
    curves = (fake("M", mid), fake("H", flipped))
    first = claim_better(curves, "M", "H", points=(0,), **CLAIM)
    assert first.status == HOLDS and first.counts == (30,) and "at prefix 1 of 3" in first.formal
    assert claim_better(curves, "M", "H", **CLAIM).status == DOES_NOT_HOLD
    with pytest.raises(InvalidParameterError, match="groups"):
        order(curves, (["M"],), **CLAIM)


def test_full_information_algorithms_get_a_curve_at_the_same_attributes():
    """With ``budget``, each full-information algorithm is also run on the prefixes where it
    sees about as many attributes as a ``budget``-per-example learner on each prefix (the
    papers' attribute axis); its parameters are the ones tuned for it; the other curves are
    exactly those of a run without ``budget``."""
    pair = load_sklearn_digits().pair(3, 5)
    algs = [Algorithm("AERR", lambda c: AERR(k=4), "HK12 Alg. 1"),
            Algorithm("Online ridge", lambda c: OnlineRidge(), "OGD"),
            Algorithm("Offline ridge", lambda c: OfflineRidge(), "ERM")]
    kw = dict(data=pair, k=4, runs=2, prefixes=(0.2, 1.0), folds=2, grid=(0.5, 2.0), seed=4)
    plain, _ = learning_curves(algs, **kw)
    curves, _ = learning_curves(algs, budget=5, **kw)
    names = [c.algorithm for c in curves]
    assert names == ["AERR", "Online ridge", "Online ridge (same attributes)", "Offline ridge",
                     "Offline ridge (same attributes)"]
    by = {c.algorithm: c for c in curves}
    assert [c.to_dict() for c in curves if not c.budget_matched] == \
        [c.to_dict() for c in plain]
    d, sizes = pair.d, by["AERR"].examples
    for name in ("Online ridge", "Offline ridge"):
        m = by[name + " (same attributes)"]
        assert m.budget_matched and m.tuned == by[name].tuned
        assert m.examples == papers.matched_sizes(sizes, 5, d)
        assert m.attributes == tuple(float(n * d) for n in m.examples)
        for n_fi, n in zip(m.examples, sizes):         # as many attributes, to rounding
            assert abs(n_fi * d - 5 * n) <= d / 2
    assert papers.matched_sizes((10, 1000), 5, 784) == (1, 6)
    assert papers.matched_sizes((3,), 500, 100) == (3,)  # never more than the prefix
    with pytest.raises(InvalidParameterError, match="budget"):
        learning_curves(algs, budget=0, **kw)


def test_claim_converges():
    rng = np.random.default_rng(1)
    target = rng.uniform(0.1, 0.2, (30, 3))
    shrinking = target + np.array([0.3, 0.1, 0.01]) * rng.uniform(0.5, 1.0, (30, 1))
    growing = target + np.array([0.01, 0.1, 0.3]) * rng.uniform(0.5, 1.0, (30, 1))
    curves = (fake("T", target), fake("S", shrinking), fake("G", growing))
    assert claim_converges(curves, "S", "T", **CLAIM).status == HOLDS
    assert claim_converges(curves, "G", "T", **CLAIM).status == DOES_NOT_HOLD


def test_claims_on_real_runs_true_and_false():
    """End to end: online ridge beats the zero predictor on KS15's data (true), not the reverse."""
    dist = PowerLawBernoulli(10, 0.0, B=1.0)
    algs = [Algorithm("Online ridge", lambda c: OnlineRidge(), "OGD"),
            Algorithm("Zero", lambda c: Zero(), "0")]
    curves, _ = learning_curves(algs, distribution=dist, m=400, k=2, runs=24, prefixes=(1.0,),
                                folds=2, grid=(4.0,), seed=0)
    assert claim_better(curves, "Online ridge", "Zero", **CLAIM).status == HOLDS
    assert claim_better(curves, "Zero", "Online ridge", **CLAIM).status == DOES_NOT_HOLD


def test_ks15_synthetic_small_and_serialisable():
    res = ks15_synthetic(effort="fast", seed=0, alphas=(-2.0,), d=12, runs=2, m=200)
    assert [p.figure for p in res.panels] == ["KS15 Fig. 1, alpha = -2", "KS15 Fig. 2, alpha = -2"]
    assert {c.algorithm for c in res.panels[0].curves} == {
        "DDAERR", "Two-Phased DDAERR", "AERR", "Online ridge", "Offline ridge",
        "Online ridge (same attributes)", "Offline ridge (same attributes)"}
    assert res.numbers == ()                            # the printed rho are for d = 500 only
    assert {c.status for c in res.claims} <= {HOLDS, DOES_NOT_HOLD, INCONCLUSIVE}
    assert all(c.status == INCONCLUSIVE for c in res.claims)    # 2 runs decide nothing
    json.dumps(res.to_dict())


def test_ks15_adaptive_small_runs_and_returns_app_a_claims():
    """KS15 App. A at a tiny size: Fig. 7 (power-law alpha = -2, exact risk) and Fig. 8 (3 vs 5)
    with each adaptive learner beside its non-adaptive version, and App. A's three claims per
    pair, in the right direction (Fig. 8: the non-adaptive attribute-efficient one better)."""
    res = ks15_adaptive(effort="fast", seed=0, d=12, m=200, runs=2, source="sklearn-digits")
    assert [p.figure for p in res.panels] == ["KS15 Fig. 7", "KS15 Fig. 8"]
    assert res.unavailable == ()
    for panel in res.panels:
        assert {c.algorithm: c.learner for c in panel.curves} == {
            "DDAERR": "DDAERR", "Ada DDAERR": "AdaDDAERR", "AERR": "GAERR",
            "Ada AERR": "AdaAERR", "Two-Phased DDAERR": "TwoPhaseDDAERR",
            "Ada Two-Phased DDAERR": "AdaTwoPhaseDDAERR", "Online ridge": "OnlineRidge",
            "Ada online ridge": "AdaOnlineRidge", "Offline ridge": "OfflineRidge",
            "Online ridge (same attributes)": "OnlineRidge",
            "Ada online ridge (same attributes)": "AdaOnlineRidge",
            "Offline ridge (same attributes)": "OfflineRidge"}
    assert 1 / 64 in res.step_scales and 8.0 in res.step_scales
    fig7 = [c for c in res.claims if c.citation == "KS15 App. A, Fig. 7"]
    fig8 = [c for c in res.claims if c.citation == "KS15 App. A, Fig. 8"]
    assert len(fig7) == 4 and len(fig8) == 4
    # the better one is the ratio's denominator: adaptive better on Fig. 7, worse on Fig. 8
    # but for online ridge
    assert all(c.statistic.split(" / ")[1].startswith("err Ada ") for c in fig7)
    assert [c.statistic.split(" / ")[1].startswith("err Ada ") for c in fig8] == \
        [False, False, False, True]
    assert all(c.runs == 2 and len(c.counts) == 3 for c in res.claims)
    assert all(c.status == INCONCLUSIVE for c in res.claims)    # 2 runs decide nothing
    assert res.panels[1].attributes_per_example == "k + 1 = 57"          # digits: d = 64
    json.dumps(res.to_dict())


def test_a_distribution_with_zero_labels_is_refused_before_any_run():
    """KS15 Sec. 5.1's lasso scenario at alpha = 0 has mu = 1: x_raw is all ones and, with the
    drawn w (as many +1 as -1 at d = 20), y = 0 always; the curves divide by E[y^2]."""
    dist = PowerLawBernoulli(20, 0.0, scenario="lasso")
    assert dist.risk(np.zeros(20), "squared") == 0.0
    algs = [Algorithm("Online ridge", lambda c: OnlineRidge(), "OGD")]
    with pytest.raises(ValueError, match=r"`distribution`=PowerLawBernoulli\(d=20.*E\[y²\] = 0"):
        learning_curves(algs, distribution=dist, m=40, k=3, runs=2, prefixes=(1.0,), folds=2,
                        grid=(1.0,))


def test_learning_curves_validation():
    with pytest.raises(ValueError, match="exactly one"):
        learning_curves([], k=1, runs=1, prefixes=(1.0,), folds=2, grid=(1.0,))


def test_step_scaled_multiplies_the_theory_step():
    rng = np.random.default_rng(0)
    X = rng.uniform(0, 1, (200, 10)) / np.sqrt(10)
    y = np.sign(X[:, 0] - 0.15)
    base = AERR(k=3, B=2.0, random_state=0).fit(X, y).eta_
    scaled = StepScaled(AERR(k=3, random_state=0), B=2.0, step_scale=8.0).fit(X, y)
    assert scaled.fitted_.eta_ == pytest.approx(8 * base) and scaled.fitted_.B == 2.0
    np.testing.assert_array_equal(scaled.predict(X), X @ scaled.coef_)
    assert scaled.n_attributes_seen_ <= 4 * 200


ROWS_LEARNERS = [
    lambda mom: AERR(k=4, random_state=3), lambda mom: AELR(k=4, random_state=3),
    lambda mom: AER(k=4, random_state=3),
    lambda mom: DDAERR(k=3, n_inner=2, second_moments=mom, random_state=3),
    lambda mom: TwoPhaseDDAERR(k=4, variant="practical", random_state=3),
    lambda mom: TwoPhaseDDAELR(k=4, variant="practical", random_state=3),
    lambda mom: OnlineRidge(), lambda mom: OnlineLasso(), lambda mom: AdaOnlineRidge(),
    lambda mom: Baseline(k=4, random_state=3),
    lambda mom: OfflineRidge(), lambda mom: OfflineLasso(tol=1e-9)]


@pytest.mark.parametrize("build", ROWS_LEARNERS, ids=lambda b: type(b(None)).__name__)
@pytest.mark.parametrize("B, scale", [(1.0, 1.0), (2.0, 4.0)])
def test_fits_on_row_numbers_equal_fits_on_the_rows(build, B, scale):
    """The engine's cross-validation fits (row numbers in place of X: oracle paths, per-fold
    XᵀX) give StepScaled's model on X[rows]: bit-identical for every learner that reads rows
    or an oracle; the offline solvers, whose fold XᵀX is the whole part's minus the held-out
    rows', agree to rounding (the solutions are Lipschitz in H and b; 1e-10 is 10⁵ times the
    differences seen)."""
    rng = np.random.default_rng(0)
    n, d = 300, 24
    X = rng.uniform(0, 1, (n, d)) / np.sqrt(d)
    y = np.sign(X[:, 0] - 0.1)
    data = _rows._Rows(X, y)
    rows = np.sort(rng.choice(n, 270, replace=False))
    est = build(np.mean(X ** 2, axis=0))
    tuned = _rows._OnRows(est, data, B=B, step_scale=scale)
    fitted = clone(tuned).fit(rows.reshape(-1, 1), y[rows])
    plain = StepScaled(est, B=B, step_scale=scale).fit(X[rows], y[rows])
    if isinstance(est, (OfflineRidge, OfflineLasso)):
        np.testing.assert_allclose(fitted.coef_, plain.coef_, rtol=0, atol=1e-10)
    else:
        np.testing.assert_array_equal(fitted.coef_, plain.coef_)
    assert fitted.n_attributes_seen_ == plain.n_attributes_seen_
    test = np.setdiff1d(np.arange(n), rows)
    np.testing.assert_allclose(fitted.predict(test.reshape(-1, 1)), X[test] @ fitted.coef_)
    assert clone(tuned).data is data                     # clones share the rows, no copy
    assert X.flags.writeable and not data.X.flags.writeable   # a read-only view of X


def test_row_numbers_are_validated():
    X = np.ones((5, 2))
    data = _rows._Rows(X, np.ones(5))
    est = _rows._OnRows(OnlineRidge(), data)
    for bad, match in ((np.array([[0], [5]]), r"\[0, 5\)"), (np.array([[0.5]]), "integers"),
                       (np.arange(3), "column")):
        with pytest.raises(InvalidParameterError, match=match):
            est.fit(bad, np.ones(len(bad)))
    with pytest.raises(InvalidParameterError, match="labels"):
        est.fit(np.array([[0], [1]]), np.array([1.0, 2.0]))
    with pytest.raises(InvalidParameterError, match="non-finite"):
        _rows._Rows(np.array([[np.nan]]), np.ones(1))


def test_held_out_blocks_are_the_rows_kept_read_only_within_the_memory_bound(monkeypatch):
    """``_Rows.block(r)`` is X[r]; a row set is copied once while the blocks fit in
    ``_BLOCK_BYTES``, and is copied afresh (not kept) beyond it."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50, 4))
    data = _rows._Rows(X, rng.normal(size=50))
    rows = rng.permutation(50)[:10]
    first = data.block(rows)
    np.testing.assert_array_equal(first, X[rows])
    assert data.block(rows.copy()) is first and not first.flags.writeable
    monkeypatch.setattr(_rows, "_BLOCK_BYTES", first.nbytes + 10 * 4 * 8 - 1)
    other = rng.permutation(50)[:10]
    again = data.block(other)
    np.testing.assert_array_equal(again, X[other])
    assert data.block(other) is not again             # over the bound: not kept
    est = _rows._OnRows(OnlineRidge(), data, B=1.0).fit(rows.reshape(-1, 1), data.y[rows])
    np.testing.assert_array_equal(est.predict(other.reshape(-1, 1)), X[other] @ est.coef_)


class TwoValues(RegressorMixin, BaseEstimator):
    """Predicts B on rows of the first kind (x₀ = 1) and step_scale on the others: the
    cross-validated squared error is smallest at B = mean label of the first kind and
    step_scale = that of the second, independently. Counts its fits."""

    fits = 0

    def __init__(self, B=1.0, step_scale=1.0):
        self.B = B
        self.step_scale = step_scale

    def fit(self, X, y):
        TwoValues.fits += 1
        return self

    def predict(self, X):
        return np.where(X[:, 0] == 1, self.B, self.step_scale)


def _two_kinds(first, second, n=40):
    X = np.zeros((n, 1))
    X[::2, 0] = 1.0
    return X, np.where(X[:, 0] == 1, first, second)


@pytest.mark.parametrize("first, second", [(5.0, 0.1), (1.2, 3.0), (0.01, 900.0)])
def test_search_without_extension_is_grid_search(first, second):
    """With no extension the choice is GridSearchCV's on the same grid and folds."""
    X, y = _two_kinds(first, second)
    folds = list(KFold(4, shuffle=True, random_state=0).split(X))
    grid = {"B": [0.5, 1.0, 2.0], "step_scale": [1.0, 4.0, 16.0]}
    best, extended = _curves._search(TwoValues(), grid, folds, X, y, 0)
    ref = GridSearchCV(TwoValues(), grid, cv=folds, scoring="neg_mean_squared_error",
                       refit=False).fit(X, y)
    assert best == ref.best_params_
    assert extended == {"B": (0, 0), "step_scale": (0, 0)}


@pytest.mark.parametrize("extensions", [0, 1, 2, 5])
def test_search_extends_the_grid_where_the_choice_sits_at_an_end(extensions):
    """Labels 5 (first kind) and 0.1 (second): B's best grid value is above the grid
    (0.5, 1, 2; ratio 2: 4, then 8, where 8 is worse than 4), the step multiplier's below it
    (1, 4; ratio 4: 0.25, 0.0625, 0.015625: 0.0625 is the closest to 0.1). Each extension
    adds one value at the end the choice sits at, scores only the new configurations, and
    stops at ``extensions``."""
    X, y = _two_kinds(5.0, 0.1)
    folds = list(KFold(4, shuffle=True, random_state=0).split(X))
    TwoValues.fits = 0
    best, extended = _curves._search(TwoValues(), {"B": [0.5, 1.0, 2.0], "step_scale": [1.0, 4.0]},
                                    folds, X, y, extensions)
    b_added = min(extensions, 2)                 # 4 is chosen, then 8 is tried and loses
    s_added = min(extensions, 3)                 # 0.0625 is chosen, then 0.015625 loses
    assert extended == {"B": (0, b_added), "step_scale": (s_added, 0)}
    assert best == {"B": [2.0, 4.0, 4.0][b_added], "step_scale": [1.0, 0.25, 0.0625,
                                                                   0.0625][s_added]}
    n_configs = (3 + b_added) * (2 + s_added)    # the final grid, each scored once per fold
    assert TwoValues.fits == n_configs * len(folds)
    lo, hi = papers.grid_limits([1.0, 4.0], extensions)
    assert lo == 4.0 ** -extensions and hi == 4.0 ** (1 + extensions)


def test_learning_curves_refuses_bad_grids():
    data = LabelledData(X=np.eye(12, 3), y=np.ones(12), source="test", kind="digits",
                        is_mnist=False, preprocessing="none")
    algs = (Algorithm("Zero", lambda c: Zero(), "none"),)
    for kw, msg in (({"grid": (1.0, -2.0)}, "`grid`"), ({"grid": ()}, "`grid`"),
                    ({"grid": (1.0, 1.0)}, "`grid`"), ({"step_scales": (np.nan,)}, "`step_scales`"),
                    ({"grid_extensions": -1}, "grid_extensions")):
        args = dict(data=data, k=1, runs=1, prefixes=(1.0,), folds=2, grid=(1.0,)) | kw
        with pytest.raises(InvalidParameterError, match=msg):
            learning_curves(algs, **args)


def test_progress_lines_count_each_panels_runs_and_leave_the_results_alone():
    """An experiment's ``progress`` gets a line when each panel starts and when its last run is
    in (every=0 in RunProgress would give one per run); the numbers are those of a silent run."""
    lines = []
    kw = dict(effort="tiny", seed=3, alphas=(-1.0,), d=12, m=60)
    loud = ks15_synthetic(progress=lines.append, **kw)
    quiet = ks15_synthetic(**kw)
    strip = lambda r: {k: v for k, v in r.to_dict().items() if k != "seconds"}   # noqa: E731
    assert strip(loud) == strip(quiet)
    runs = get_profile("tiny").runs
    expected = [f"panel {p}/2 (KS15 Fig. {p}, alpha = -1): {done}/{runs} runs ({pct}%), elapsed "
                for p in (1, 2) for done, pct in ((0, 0), (runs, 100))]
    assert len(lines) == 4 and all(line.startswith(e) for line, e in zip(lines, expected))


def test_run_progress_writes_at_most_every_interval(monkeypatch):
    from laocheck import _progress

    now = [0.0]
    monkeypatch.setattr(_progress.time, "monotonic", lambda: now[0])
    lines = []
    on_run = papers.RunProgress(lines.append, every=60.0).stage("CB11 table", 4)
    for step in (10.0, 55.0, 1.0, 1.0):                 # the second run ends at t = 65
        now[0] += step
        on_run()
    assert lines == ["CB11 table: 0/4 runs (0%), elapsed 0:00:00",
                     "CB11 table: 2/4 runs (50%), elapsed 0:01:05, eta 0:01:05",
                     "CB11 table: 4/4 runs (100%), elapsed 0:01:07"]
    assert papers.RunProgress(None).stage("silent", 3) is None
