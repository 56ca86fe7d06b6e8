"""AELR, GAELR, DDAELR (HK12 Alg. 2, KS15 Alg. 3, Sec. 4.1): EG± in the log domain against the
literal reference on the same draws, offset shifts, long runs, budget and validation."""
import numpy as np
import pytest

from laocheck.learners import AELR, DDAELR, GAELR, lasso_theory_step_size
from laocheck.reference.learners import ReplaySource, gaelr

D = 10
MOMENTS = np.linspace(0.2, 1.0, D)



# every test on the dense states and on the sparse ones (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("state_kind")


def data(m, d=D, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, (m, d))                          # ‖x‖∞ <= 1
    w_star = rng.normal(size=d)
    w_star /= 2 * np.abs(w_star).sum()
    return X, np.clip(X @ w_star + 0.1 * rng.normal(size=m), -1, 1)


def learners(**kw):
    q = np.arange(1, D + 1) / np.arange(1, D + 1).sum()
    return [AELR(k=3, **kw), GAELR(k=2, q=q, eta=0.1, **kw),
            DDAELR(k=4, second_moments=MOMENTS, **kw),
            DDAELR(k=2, second_moments=MOMENTS, n_inner=3, **kw)]     # KS15 Sec. 5 split


def replay(est, X, y):
    flat = [i for row in est.draws_ for i in row if i >= 0]
    return gaelr(X, y, est.k, est.B, est.eta_, ReplaySource(flat), q=est.q_,
                 n_inner=est.n_inner)


@pytest.mark.parametrize("index", range(4))
def test_same_average_as_the_literal_reference_on_the_same_draws(index):
    X, y = data(3000)
    est = learners(random_state=5, record_draws=True)[index].fit(X, y)
    w_bar, seen = replay(est, X, y)
    assert np.max(np.abs(est.coef_ - w_bar)) <= 1e-12 * np.max(np.abs(w_bar))
    np.testing.assert_array_equal(est.attributes_per_example_, seen)
    assert np.abs(est.coef_).sum() <= est.B * (1 + 1e-12)
    assert est.max_attributes_per_example_ <= est.k + est.n_inner


def consistent_data(m):
    """x = (1, 0), y = 2 (> B: a numerics test, not a paper instance): φ̃ = w_1 − 2 <= −1, so
    the clipped gradient on coordinate 1 is always −1/η and its log-weight grows by 1 whenever
    it is sampled."""
    X = np.zeros((m, 2))
    X[:, 0] = 1.0
    return X, np.full(m, 2.0)


def test_offset_shift_keeps_agreement():
    """log z⁺_1 passes 600 near step 1200: the offset moves (all coordinates flushed, Z
    recomputed) while the linear-domain reference is still finite; they agree."""
    X, y = consistent_data(1300)
    est = AELR(k=1, B=1.0, eta=1.0, random_state=3, record_draws=True).fit(X, y)
    assert est._state.n_shifts >= 1
    w_bar, _ = replay(est, X, y)
    assert np.all(np.isfinite(w_bar))
    assert np.max(np.abs(est.coef_ - w_bar)) <= 1e-12 * np.max(np.abs(w_bar))


def test_long_runs_neither_overflow_nor_underflow():
    """2·10⁵ steps with log-weights drifting by up to 1 per step (far past exp's range):
    the iterate stays finite, on the L1 ball, and converges to the vertex B·e_1."""
    X, y = consistent_data(200_000)
    est = AELR(k=1, B=1.0, eta=1.0, random_state=4).fit(X, y)
    assert est._state.n_shifts > 100
    assert np.all(np.isfinite(est.coef_)) and np.all(np.isfinite(est.w_))
    np.testing.assert_allclose(est.w_, [1.0, 0.0], atol=1e-12)
    assert np.abs(est.coef_).sum() <= 1 + 1e-12


def test_theory_step_sizes():
    """HK12 Thm 3.4 as printed: η = (1/(4B²))√(2k log 2d/(5md)); KS15 Thm 4.6:
    η = (1/2B)√(log 2d / (5m((1/k)‖E[x²]‖₁ + 1)))."""
    X, y = data(500)
    B = 2.0
    assert AELR(k=3, B=B).fit(X, y).eta_ == pytest.approx(
        np.sqrt(2 * 3 * np.log(2 * D) / (5 * 500 * D)) / (4 * B ** 2), rel=1e-14)
    expected = np.sqrt(np.log(2 * D) / (5 * 500 * (MOMENTS.sum() / 4 + 1))) / (2 * B)
    assert DDAELR(k=4, B=B, second_moments=MOMENTS).fit(X, y).eta_ == pytest.approx(
        expected, rel=1e-12)
    assert lasso_theory_step_size(500, 4, B, None, MOMENTS, D) > 0


@pytest.mark.parametrize("index", range(3))
def test_reproducible_and_partial_fit(index):
    X, y = data(1500)
    a = learners(random_state=3, n_total=1500)[index].fit(X, y)
    b = learners(random_state=3, n_total=1500)[index]
    b.partial_fit(X[:500], y[:500]).partial_fit(X[500:], y[500:])
    np.testing.assert_array_equal(a.coef_, b.coef_)
    assert a.n_attributes_seen_ == a.attributes_per_example_.sum()


@pytest.mark.parametrize("make,param", [
    (lambda: AELR(k=0), "k"), (lambda: AELR(k=1, B=0.0), "B"), (lambda: AELR(k=1, eta=0.0), "eta"),
    (lambda: GAELR(k=1, q=[0.2] * 4), "q"), (lambda: GAELR(k=1, q=[0.5, 0.5]), "eta"),
    (lambda: DDAELR(k=1), "second_moments"),
])
def test_malformed_parameters(make, param):
    X, y = data(5, d=2)
    with pytest.raises(ValueError, match=f"`{param}`"):
        make().fit(X, y)


def test_aelr_proof_step_size_is_b_times_the_printed_one():
    """HK12 Thm 3.4 prints η = (1/(4B²))√(2k log 2d/(5md)); its proof's η = (1/G)√(log 2d/(5m))
    with G² = 8B²d/k is B times that (computed here by hand)."""
    X, y = data(400)
    for B in (0.5, 1.0, 3.0):
        printed = AELR(k=3, B=B).fit(X, y).eta_
        proof = AELR(k=3, B=B, eta="proof").fit(X, y).eta_
        assert printed == pytest.approx(np.sqrt(2 * 3 * np.log(2 * D) / (5 * 400 * D))
                                        / (4 * B * B), rel=1e-12)
        assert proof == pytest.approx(B * printed, rel=1e-12)
