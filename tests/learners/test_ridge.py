"""AERR, GAERR, DDAERR (HK12 Alg. 1, KS15 Alg. 1, Sec. 3.1): the O(k + log d) learners against
their literal reference on the same draws, budget, reproducibility and validation."""
import numpy as np
import pytest

from laocheck import InvalidParameterError
from laocheck.learners import AERR, DDAERR, GAERR, theory_step_size
from laocheck.reference.learners import ReplaySource, gaerr

D = 12



# every test on the dense states and on the sparse ones (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("state_kind")


def data(m, d=D, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, (m, d)) / np.sqrt(d)            # ‖x‖₂ <= 1
    w_star = rng.normal(size=d)
    w_star /= 2 * np.linalg.norm(w_star)
    y = np.clip(X @ w_star + 0.1 * rng.normal(size=m), -1, 1)
    return X, y


MOMENTS = np.linspace(1.0, 3.0, D) ** 2 / (3 * D)


def learners(**kw):
    q = np.arange(1, D + 1) / np.arange(1, D + 1).sum()
    return [AERR(k=3, **kw), GAERR(k=2, q=q, eta=0.02, **kw),
            DDAERR(k=4, second_moments=MOMENTS, **kw),
            DDAERR(k=2, second_moments=MOMENTS, n_inner=3, **kw)]     # KS15 Sec. 5 split


def replay(est, X, y, w1):
    flat = [i for row in est.draws_ for i in row if i >= 0]
    return gaerr(X, y, est.k, est.B, est.eta_, w1, ReplaySource(flat), q=est.q_,
                 n_inner=est.n_inner)


@pytest.mark.parametrize("index", range(4))
@pytest.mark.parametrize("initial", ["uniform", "zero"])
def test_same_average_as_the_literal_reference_on_the_same_draws(index, initial):
    X, y = data(3000)
    est = learners(random_state=5, record_draws=True, initial=initial)[index].fit(X, y)
    w1 = np.full(D, est.B / np.sqrt(D)) if initial == "uniform" else np.zeros(D)
    w_bar, seen = replay(est, X, y, w1)
    # rounding differs (w = s·u, incremental ‖u‖²): agreement to 1e-12 of ‖w̄‖∞
    assert np.max(np.abs(est.coef_ - w_bar)) <= 1e-12 * np.max(np.abs(w_bar))
    np.testing.assert_array_equal(est.attributes_per_example_, seen)
    assert est.max_attributes_per_example_ <= est.k + est.n_inner
    assert np.linalg.norm(est.coef_) <= est.B * (1 + 1e-12)


def test_scale_folding_and_exact_norm_keep_agreement():
    """Folding s into u (forced every few steps here) and the periodic exact ‖u‖² leave the
    average equal to the reference's (the O(d) housekeeping is exact, not approximate)."""
    X, y = data(5000)
    est = AERR(k=2, B=0.3, eta=0.5, random_state=9, record_draws=True)
    est.fit(X[:10], y[:10])
    est._state.fold_low = 0.999                      # fold after nearly every projection
    est.partial_fit(X[10:], y[10:])
    assert est._state.n_folds > 100
    w_bar, _ = replay(est, X, y, np.full(D, 0.3 / np.sqrt(D)))
    assert np.max(np.abs(est.coef_ - w_bar)) <= 1e-12 * np.max(np.abs(w_bar))


@pytest.mark.parametrize("index", range(3))
def test_budget_reproducibility_and_partial_fit(index):
    X, y = data(2000)
    a = learners(random_state=3, n_total=2000)[index].fit(X, y)
    b = learners(random_state=3, n_total=2000)[index].fit(X, y)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    assert a.max_attributes_per_example_ <= a.k + 1
    assert a.n_attributes_seen_ == a.attributes_per_example_.sum()
    c = learners(random_state=3, n_total=2000)[index]
    c.partial_fit(X[:700], y[:700]).partial_fit(X[700:], y[700:])
    np.testing.assert_array_equal(a.coef_, c.coef_)     # one pass, split in two calls
    d = learners(random_state=4, n_total=2000)[index].fit(X, y)
    assert not np.array_equal(a.coef_, d.coef_)
    assert a.predict(X[:5]).shape == (5,)


def test_theory_step_sizes():
    """HK12 Thm 3.1: η = √(k/(2dm)); KS15 Thm 3.5: η = 1/√(m((1/k)‖E[x²]‖_{1/2} + 1))."""
    X, y = data(400)
    assert AERR(k=3).fit(X, y).eta_ == pytest.approx(np.sqrt(3 / (2 * D * 400)), rel=1e-14)
    half_norm = np.sqrt(MOMENTS).sum() ** 2
    expected = 1 / np.sqrt(400 * (half_norm / 4 + 1))
    assert DDAERR(k=4, second_moments=MOMENTS).fit(X, y).eta_ == pytest.approx(expected, rel=1e-12)
    assert theory_step_size(400, 4, 2.0, None, MOMENTS * 0 + 1 / D) == pytest.approx(
        2 * 2.0 / (2 * 2.0 * np.sqrt(D / 4 + 1) * np.sqrt(400)))


@pytest.mark.parametrize("X,y,message", [
    (np.full((3, 5), np.nan), np.zeros(3), r"X\[0, [0-4]\]=nan \(NaN\)"),
    (np.zeros(3), np.zeros(3), "Expected 2D array"),
    (np.zeros((0, 2)), np.zeros(0), "0 sample"),
    (np.zeros((3, 2)), np.zeros(4), "inconsistent numbers of samples"),
    (np.zeros((3, 2)), [0, np.inf, 0], "Input y contains infinity"),
])
def test_malformed_data_gets_scikit_learn_messages(X, y, message):
    """X and y go through scikit-learn's validate_data (its messages name X or y and the rule),
    but for X's finiteness, which the kernel checks where a step reads it (row, column)."""
    with pytest.raises(ValueError, match=message):
        AERR().fit(X, y)


@pytest.mark.parametrize("make,X,y,param", [
    (lambda: AERR(k=0), np.zeros((3, 2)), np.zeros(3), "k"),
    (lambda: AERR(k=2.5), np.zeros((3, 2)), np.zeros(3), "k"),
    (lambda: AERR(k=1, B=0), np.zeros((3, 2)), np.zeros(3), "B"),
    (lambda: AERR(k=1, B=-1), np.zeros((3, 2)), np.zeros(3), "B"),
    (lambda: AERR(k=1, eta=-0.1), np.zeros((3, 2)), np.zeros(3), "eta"),
    (lambda: AERR(k=1, eta="fast"), np.zeros((3, 2)), np.zeros(3), "eta"),
    (lambda: AERR(k=1, initial=[1.0, 1.0]), np.zeros((3, 2)), np.zeros(3), "initial"),
    (lambda: AERR(k=1, initial="ones"), np.zeros((3, 2)), np.zeros(3), "initial"),
    (lambda: GAERR(k=1, q=[0.5, 0.6], eta=0.1), np.zeros((3, 2)), np.zeros(3), "q"),
    (lambda: GAERR(k=1, q=[1.0], eta=0.1), np.zeros((3, 2)), np.zeros(3), "q"),
    (lambda: GAERR(k=1, q=[1.0, 0.0], eta=0.1), np.ones((3, 2)), np.zeros(3), "q"),
    (lambda: GAERR(k=1, q=[0.5, 0.5]), np.zeros((3, 2)), np.zeros(3), "eta"),
    (lambda: DDAERR(k=1), np.zeros((3, 2)), np.zeros(3), "second_moments"),
    (lambda: DDAERR(k=1, second_moments=[-1, 1]), np.zeros((3, 2)), np.zeros(3), "second_moments"),
])
def test_malformed_input_gets_a_clear_value_error(make, X, y, param):
    with pytest.raises(ValueError, match=f"`{param}`"):
        make().fit(X, y)


def test_partial_fit_theory_step_uses_n_total_or_the_first_batch():
    X, y = data(40)
    first_batch = AERR(k=2).partial_fit(X[:10], y[:10])
    assert first_batch.eta_ == pytest.approx(np.sqrt(2 / (2 * D * 10)))
    with_total = AERR(k=2, n_total=40).partial_fit(X[:10], y[:10])
    assert with_total.eta_ == pytest.approx(np.sqrt(2 / (2 * D * 40)))
    with pytest.raises(ValueError, match="features"):
        with_total.partial_fit(X[:, :3], y)


@pytest.mark.parametrize("weights", [
    [1.0],
    [0.0, 3.0, 1.0],
    np.linspace(0.0, 1.0, 8),                        # one full block, a zero weight
    np.r_[np.zeros(17), 2.0, np.zeros(5), 1.0],      # mass in two blocks only, d % 8 != 0
    np.arange(1.0, 41.0) ** 2,                       # 5 blocks, cap 8 (padded nodes)
])
def test_blocked_sum_tree_draws_proportionally_to_its_weights(weights):
    """The learners' j ∝ w_j² / ∝ |w_j| sampler (``_common.pxd``): an exact multinomial test
    at δ = 1e-6; a zero weight is never drawn; set-after-build leaves the same tree."""
    from laocheck.learners._ridge import _btree_sample
    from laocheck.stats import multinomial_test
    w = np.asarray(weights, dtype=float)
    draws, tree, tree_after_updates = _btree_sample(w, np.random.default_rng(11), 200_000)
    assert np.all(w[draws] > 0)
    counts = np.bincount(draws, minlength=w.size)
    assert multinomial_test(counts, w / w.sum(), delta=1e-6).passed
    assert tree[1] == pytest.approx(w.sum(), rel=1e-15)
    np.testing.assert_array_equal(tree, tree_after_updates)
