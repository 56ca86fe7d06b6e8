"""The sparse states (``SparseRidgeState``: HK12 Alg. 1 / KS15 Alg. 1, ``SparseLassoState``: HK12
Alg. 2 / KS15 Alg. 3, keeping only the coordinates a run moves) on data where most coordinates
never move: the literal reference on the recorded draws, the exact law of line 8's j ∝ w_j²,
folds, offset shifts, growth, the switch to every coordinate, pickling, the choice of state by
d and the law of the excess risk against the dense states. (``test_ridge.py``, ``test_lasso.py``,
``test_oracle.py`` and ``test_two_phase.py`` run all their tests on both kinds of state.)"""
import pickle

import numpy as np
import pytest

from laocheck import InvalidParameterError
from laocheck.data import HK12HardInstance
from laocheck.data import PowerLawBernoulli
from laocheck.learners import AELR, AERR, DDAELR, DDAERR, GAELR, GAERR
from laocheck.learners._base import DataPointSampling
from laocheck.learners._lasso import LassoState, SparseLassoState
from laocheck.learners._ridge import RidgeState, SparseRidgeState
from laocheck.reference.learners import ReplaySource, gaelr, gaerr
from laocheck.stats import multinomial_test


@pytest.fixture
def sparse_everywhere(monkeypatch):
    """Every named w_1 runs on the sparse state, whatever d."""
    monkeypatch.setattr(DataPointSampling, "_sparse_min_d", 1)


def data(m, d, density, seed=0):
    """Rows with about ``density``·d nonzero attributes (‖x‖₂ <= 1), labels in [−1, 1]."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, (m, d)) * (rng.random((m, d)) < density)
    X /= max(1.0, np.linalg.norm(X, axis=1).max())
    w_star = rng.normal(size=d)
    w_star /= 2 * np.linalg.norm(w_star)
    y = np.clip(X @ w_star + 0.1 * rng.normal(size=m), -1, 1)
    return X, y


def make(index, d, **kw):
    q = np.arange(1, d + 1) / np.arange(1, d + 1).sum()
    moments = np.linspace(1.0, 3.0, d) ** 2 / (3 * d)
    return [AERR(k=3, **kw), GAERR(k=2, q=q, eta=0.02, **kw),
            DDAERR(k=4, second_moments=moments, **kw),
            DDAERR(k=2, second_moments=moments, n_inner=3, **kw)][index]


def replay(est, X, y, w1):
    flat = [i for row in est.draws_ for i in row if i >= 0]
    return gaerr(X, y, est.k, est.B, est.eta_, w1, ReplaySource(flat), q=est.q_,
                 n_inner=est.n_inner)


def agree(est, w_bar):
    # rounding differs (w = s·u, incremental ‖u‖², the lazy average): 1e-12 of ‖w̄‖∞
    assert np.max(np.abs(est.coef_ - w_bar)) <= 1e-12 * max(np.max(np.abs(w_bar)), 1e-300)


@pytest.mark.parametrize("index", range(4))
@pytest.mark.parametrize("initial", ["uniform", "zero"])
@pytest.mark.parametrize("d,density", [(12, 1.0),       # every coordinate moves at once
                                       (1000, 0.08),    # a quarter moved mid-run: the switch
                                       (5000, 0.05)])   # most never move; > 256 slots
def test_same_average_as_the_literal_reference_on_the_same_draws(sparse_everywhere, index,
                                                                   initial, d, density):
    X, y = data(3000, d, density)
    est = make(index, d, random_state=5, record_draws=True, initial=initial).fit(X, y)
    w1 = np.full(d, est.B / np.sqrt(d)) if initial == "uniform" else np.zeros(d)
    w_bar, seen = replay(est, X, y, w1)
    agree(est, w_bar)
    np.testing.assert_array_equal(est.attributes_per_example_, seen)
    assert np.linalg.norm(est.coef_) <= est.B * (1 + 1e-12)
    state = est._state
    if d <= 1000:                 # a quarter moved: the run went on on the dense kernel
        assert isinstance(state, RidgeState) and state.t == 3000
    else:                         # slots grown, unmoved ones drawn by rejection
        assert isinstance(state, SparseRidgeState) and 256 < state.n_moved < d // 4
    # w_ is the last iterate: coordinates never moved keep w_1's value times the scale
    untouched = np.flatnonzero(~np.any(X != 0, axis=0))
    if untouched.size:
        assert np.all(est.w_[untouched] == est.w_[untouched[0]])


def test_folds_keep_agreement(sparse_everywhere):
    """Folding s into u (forced after nearly every projection) folds the shared record of the
    unmoved coordinates too: the average stays the reference's."""
    d = 2000
    X, y = data(5000, d, 0.01, seed=2)
    est = AERR(k=2, B=0.3, eta=0.5, random_state=9, record_draws=True)
    est.fit(X[:10], y[:10])
    est._state.fold_low = 0.999
    est.partial_fit(X[10:], y[10:])
    assert est._state.n_folds > 50 and est._state.n_moved < d
    w_bar, _ = replay(est, X, y, np.full(d, 0.3 / np.sqrt(d)))
    agree(est, w_bar)


def test_partial_fit_and_pickle_continue_the_same_run(sparse_everywhere):
    d = 400
    X, y = data(2000, d, 0.02, seed=3)
    a = AERR(k=3, random_state=3, n_total=2000).fit(X, y)
    b = AERR(k=3, random_state=3, n_total=2000).partial_fit(X[:700], y[:700])
    b = pickle.loads(pickle.dumps(b))
    assert isinstance(b._state, SparseRidgeState)
    b.partial_fit(X[700:], y[700:])
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.w_, b.w_)
    c = AERR(k=3, random_state=4, n_total=2000).fit(X, y)
    assert not np.array_equal(a.coef_, c.coef_)


def _weights_law(state, rng, size=200_000):
    w = state.sampling_weights()
    draws, uj = state._sample_j(rng, size)
    assert np.all(w[draws] > 0)
    np.testing.assert_array_equal(uj * uj, w[draws])          # the u_j handed back is u_j
    counts = np.bincount(draws, minlength=w.size)
    return multinomial_test(counts, w / w.sum(), delta=1e-6).passed


@pytest.mark.parametrize("d,base,keys,values", [
    (40, 0.1, [3, 17, 39], [0.5, -0.02, 0.3]),          # mostly unmoved mass
    (40, 0.1, [5], [0.0]),                              # a moved coordinate at 0
    (40, 0.0, [1, 2, 30], [1.0, -2.0, 0.5]),            # w_1 = 0: only moved ones drawn
    (40, 0.1, np.arange(9), np.linspace(-1, 1, 9)),     # 9 of 40: sparse
    (40, 0.1, np.arange(31), np.linspace(-1, 1, 31)),   # a quarter moved: every one in its slot
    (3000, 0.01, np.arange(0, 3000, 7), np.linspace(0.5, 2, 429)),   # slots grown
])
def test_line_8_draws_j_proportionally_to_w_j_squared(d, base, keys, values):
    """An exact multinomial test at δ = 1e-6 of j ∝ u_j² over all d coordinates (moved ones
    through the compact sum tree, unmoved ones by rejection)."""
    state = SparseRidgeState(d, base, 1.0)
    state._move(keys, values)
    assert state.n_moved == (d if 4 * len(keys) >= d else len(keys))
    assert state.identity == (4 * len(keys) >= d)
    assert _weights_law(state, np.random.default_rng(11))
    assert state.norm_sq == pytest.approx(state.sampling_weights().sum(), rel=1e-13)


def test_a_state_with_every_weight_zero_refuses_to_draw():
    state = SparseRidgeState(10, 0.0, 1.0)
    with pytest.raises(ValueError, match="every u_j is 0"):
        state._sample_j(np.random.default_rng(0), 1)


def test_the_state_is_chosen_by_d_and_the_initial_point():
    d = DataPointSampling._sparse_min_d
    oracle = HK12HardInstance(d, 0.25).oracle(0)
    est = AERR(k=4, random_state=0).fit_oracle(oracle, 500)
    assert isinstance(est._state, SparseRidgeState)
    assert est._state.n_moved <= 16                    # x̃ is nonzero only on the 16 rows' support
    assert est.coef_.shape == (d,) and np.all(np.isfinite(est.coef_))
    small = AERR(k=4, random_state=0).fit(*data(50, 30, 1.0))
    assert isinstance(small._state, RidgeState)
    w1 = np.full(d, 1 / np.sqrt(d))
    given = AERR(k=4, initial=w1, random_state=0).fit_oracle(HK12HardInstance(d, 0.25).oracle(0),
                                                              50)
    assert isinstance(given._state, RidgeState)


def test_the_sparse_and_dense_states_agree_in_law_on_the_hard_instance(sparse_everywhere):
    """The excess risk of AERR on HK12 Thm B.1's instance (d = 64, 16 rows, m = 1000, where
    w̄ moves well away from w_1), the sparse state against the dense one (the same learner,
    forced dense by an explicit w_1), 600 independent runs each: the two-sample
    Kolmogorov–Smirnov test (exact p-value, distribution-free) does not reject at δ = 1e-6."""
    from scipy.stats import ks_2samp

    from laocheck.experiments import LearnerConfig, replicate
    d, m, R = 64, 1000, 600
    dist = HK12HardInstance(d, 0.25)
    w1 = np.full(d, 1 / np.sqrt(d))
    runs = {}
    for name, params, seed in (("sparse", {}, 1), ("dense", {"initial": w1}, 2)):
        runs[name], _ = replicate(LearnerConfig(AERR, dict(k=4, eta=0.05, **params)), dist, m,
                                  norm="l2", B=1.0, R=R, seed=seed, source="oracle")
    assert np.std(runs["sparse"]) > 0 and np.mean(runs["sparse"]) < 0.5 * dist.excess_risk(
        w1, "l2", 1.0)                                 # the runs learn (w̄ far from w_1)
    assert ks_2samp(runs["sparse"], runs["dense"]).pvalue >= 1e-6


def test_a_non_finite_step_stops_the_run(sparse_everywhere):
    """Entries, B and η at the top of the accepted range overflow φ̃ or the iterate: the run
    stops there and the learner refuses, never inf or NaN in coef_."""
    X = np.full((6, 50), 1e100)
    y = np.full(6, 1e100)
    with pytest.raises(InvalidParameterError, match=r"non-finite iterate at step \d+"):
        AERR(k=2, B=1e100, eta=1e100, random_state=0).fit(X, y)


# --- the lasso family ---------------------------------------------------------------------

def make_lasso(index, d, **kw):
    q = np.arange(1, d + 1) / np.arange(1, d + 1).sum()
    moments = np.linspace(0.2, 1.0, d)
    return [AELR(k=3, **kw), GAELR(k=2, q=q, eta=0.1, **kw),
            DDAELR(k=4, second_moments=moments, **kw),
            DDAELR(k=2, second_moments=moments, n_inner=3, **kw)][index]


def lasso_data(m, d, density, seed=0):
    """Rows with about ``density``·d nonzero attributes in [−1, 1] (‖x‖∞ <= 1)."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, (m, d)) * (rng.random((m, d)) < density)
    w_star = rng.normal(size=d)
    w_star /= 2 * np.abs(w_star).sum()
    return X, np.clip(X @ w_star + 0.1 * rng.normal(size=m), -1, 1)


def replay_lasso(est, X, y):
    flat = [i for row in est.draws_ for i in row if i >= 0]
    return gaelr(X, y, est.k, est.B, est.eta_, ReplaySource(flat), q=est.q_,
                 n_inner=est.n_inner)


@pytest.mark.parametrize("index,d,density,m", [
    *[(i, 1000, 0.08, 3000) for i in range(4)],    # a quarter moved mid-run: the switch
    (0, 3000, 0.1, 1500),                          # most never move; > 256 slots
])
def test_lasso_same_average_as_the_literal_reference(sparse_everywhere, index, d, density, m):
    X, y = lasso_data(m, d, density)
    X[:, -50:] = 0.0                                      # attributes that are always 0
    est = make_lasso(index, d, random_state=5, record_draws=True).fit(X, y)
    state = est._state
    if d == 1000:                 # a quarter moved: the run went on on the dense kernel
        assert isinstance(state, LassoState) and state.t == m
    else:
        assert isinstance(state, SparseLassoState) and 256 < state.n_moved < d // 4
    w_bar, seen = replay_lasso(est, X, y)
    agree(est, w_bar)
    np.testing.assert_array_equal(est.attributes_per_example_, seen)
    assert np.abs(est.coef_).sum() <= est.B * (1 + 1e-12)
    never = np.arange(d - 50, d)                          # x̃ is 0 there at every step
    assert np.all(est.coef_[never] == 0) and np.all(est.w_[never] == 0)


def test_lasso_offset_shifts_keep_agreement(sparse_everywhere):
    """x = (1, 0, ..., 0), y = 2: log z⁺_1 grows by 1 per draw of coordinate 1 (a numerics
    test, as in test_lasso.py), so the offset moves; the never-moved coordinates' share of Z
    moves with it."""
    d, m = 50, 1300
    X = np.zeros((m, d))
    X[:, 0] = 1.0
    est = AELR(k=1, B=1.0, eta=1.0, random_state=3, record_draws=True).fit(X, np.full(m, 2.0))
    assert est._state.n_shifts >= 1 and est._state.n_moved == 1
    w_bar, _ = replay_lasso(est, X, np.full(m, 2.0))
    agree(est, w_bar)


def test_lasso_partial_fit_and_pickle_continue_the_same_run(sparse_everywhere):
    d = 400
    X, y = lasso_data(2000, d, 0.02, seed=3)
    a = AELR(k=3, random_state=3, n_total=2000).fit(X, y)
    b = AELR(k=3, random_state=3, n_total=2000).partial_fit(X[:700], y[:700])
    b = pickle.loads(pickle.dumps(b))
    assert isinstance(b._state, SparseLassoState)
    b.partial_fit(X[700:], y[700:])
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.w_, b.w_)
    np.testing.assert_array_equal(a._state.sampling_weights(), b._state.sampling_weights())


def test_lasso_state_is_chosen_by_d_and_the_warm_start():
    d = DataPointSampling._sparse_min_d
    est = AELR(k=4, random_state=0).fit_oracle(PowerLawBernoulli(d, -1.0, scenario="lasso")
                                               .oracle(0), 500)
    assert isinstance(est._state, SparseLassoState)
    assert est._state.n_moved < 500 * 4 and np.count_nonzero(est.coef_) <= est._state.n_moved
    small = AELR(k=4, random_state=0).fit(*lasso_data(50, 30, 1.0))
    assert isinstance(small._state, LassoState)


def test_lasso_sparse_and_dense_states_agree_in_law(monkeypatch):
    """The excess risk of AELR on KS15 Sec. 5.1's lasso data (d = 64, α = −1, m = 3000, where
    w̄ beats w = 0 clearly), the sparse state (forced) against the dense one, 600 runs each:
    the two-sample Kolmogorov–Smirnov test does not reject at δ = 1e-6."""
    from scipy.stats import ks_2samp

    from laocheck.experiments import LearnerConfig, replicate
    d, m, R = 64, 3000, 600
    dist = PowerLawBernoulli(d, -1.0, scenario="lasso")
    spec = LearnerConfig(AELR, dict(k=4, eta=0.1))
    dense, _ = replicate(spec, dist, m, norm="l1", B=1.0, R=R, seed=2, source="oracle")
    monkeypatch.setattr(DataPointSampling, "_sparse_min_d", 1)
    sparse, _ = replicate(spec, dist, m, norm="l1", B=1.0, R=R, seed=1, source="oracle")
    assert np.std(sparse) > 0 and np.mean(sparse) < 0.8 * dist.excess_risk(np.zeros(d), "l1",
                                                                            1.0)
    assert ks_2samp(sparse, dense).pvalue >= 1e-6

