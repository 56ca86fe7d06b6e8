"""TwoPhaseDDAERR / TwoPhaseDDAELR (KS15 Alg. 2 and 4, Thm 3.12 / 4.7, Sec. 5's practical
variant): against literal references on the same draws, budget, reproducibility, partial_fit
across the phase boundary, validation."""
import numpy as np
import pytest

from laocheck import InvalidParameterError
from laocheck.learners import TwoPhaseDDAELR, TwoPhaseDDAERR
from laocheck.reference.learners import (ReplaySource, gaelr, gaerr, two_phase_ddaelr,
                                         two_phase_ddaerr)

D = 10



# every test on the dense states and on the sparse ones (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("state_kind")


def data(m, d=D, seed=0, lasso=False):
    rng = np.random.default_rng(seed)
    scale = np.arange(1, d + 1) ** -1.0                     # unequal second moments
    X = rng.uniform(-1, 1, (m, d)) * scale
    if not lasso:
        X /= np.sqrt((scale ** 2).sum())                    # ‖x‖₂ <= 1 (Thm 3.12)
    w_star = rng.normal(size=d)
    w_star /= 2 * (np.abs(w_star).sum() if lasso else np.linalg.norm(w_star))
    return X, np.clip(X @ w_star + 0.1 * rng.normal(size=m), -1, 1)


def flat(*records):
    return [int(i) for r in records for i in np.ravel(r) if i >= 0]


class Tap:
    """Forwards to a source and keeps the uniform draws (phase 1's x̃ indices)."""

    def __init__(self, src):
        self.src, self.uniform = src, []

    def uniform_int(self, n):
        i = self.src.uniform_int(n)
        self.uniform.append(i)
        return i

    def categorical(self, p):
        return self.src.categorical(p)


@pytest.mark.parametrize("m1", [300, 1])
def test_theory_ridge_equals_the_literal_reference(m1):
    X, y = data(2000)
    est = TwoPhaseDDAERR(k=3, m1=m1, delta=0.1, random_state=4, record_draws=True).fit(X, y)
    src = ReplaySource(flat(est.phase1_draws_, est.phase2_draws_))
    w_bar, seen = two_phase_ddaerr(X, y, 3, 1.0, m1, 0.1, np.full(D, 1 / np.sqrt(D)), src)
    assert np.max(np.abs(est.coef_ - w_bar)) <= 1e-12 * np.max(np.abs(w_bar))
    np.testing.assert_array_equal(est.attributes_per_example_, seen)
    assert est.max_attributes_per_example_ <= 3 + 1


@pytest.mark.parametrize("m1", [300, 1])
def test_theory_lasso_equals_the_literal_reference(m1):
    X, y = data(2000, lasso=True)
    est = TwoPhaseDDAELR(k=3, m1=m1, delta=0.1, random_state=4, record_draws=True).fit(X, y)
    src = ReplaySource(flat(est.phase1_draws_, est.phase2_draws_))
    w_bar, seen = two_phase_ddaelr(X, y, 3, 1.0, m1, 0.1, src)
    assert np.max(np.abs(est.coef_ - w_bar)) <= 1e-12 * np.max(np.abs(w_bar))
    np.testing.assert_array_equal(est.attributes_per_example_, seen)
    assert est.max_attributes_per_example_ <= 3 + 1


def _moments_from(X, taps, k_x):
    counts, sums = np.zeros(X.shape[1]), np.zeros(X.shape[1])
    for n, i in enumerate(taps):
        counts[i] += 1
        sums[i] += X[n // k_x, i] ** 2
    return np.divide(sums, counts, out=np.zeros_like(sums), where=counts > 0)


def test_practical_ridge_equals_its_reference():
    """KS15 Sec. 5: AERR in phase 1 with the k + 1 = 4 attributes split evenly (k_x = 2 for
    x̃, n_inner = 2 for φ̃), moments from its uniform draws, ε = 0, warm start."""
    X, y = data(2000)
    k, m1, m2 = 3, 200, 1800
    est = TwoPhaseDDAERR(k=k, m1=m1, variant="practical", random_state=6,
                         record_draws=True).fit(X, y)
    src = Tap(ReplaySource(flat(est.phase1_draws_, est.phase2_draws_)))
    w1 = np.full(D, 1 / np.sqrt(D))
    eta1 = np.sqrt(2 / (2 * D * m1))                         # HK12 Thm 3.1 with k_x = 2
    w_first, seen1 = gaerr(X[:m1], y[:m1], 2, 1.0, eta1, w1, src, n_inner=2)
    A = _moments_from(X, src.uniform, 2)
    np.testing.assert_allclose(est.moments_, A, rtol=1e-14, atol=0)
    q = np.sqrt(A) / np.sqrt(A).sum()
    eta2 = 1 / np.sqrt(m2 * (np.sqrt(A).sum() ** 2 / 2 + 1))  # KS15 Thm 3.5 with A
    w_bar, seen2 = gaerr(X[m1:], y[m1:], 2, 1.0, eta2, w_first, src, q=q, n_inner=2)
    assert np.max(np.abs(est.coef_ - w_bar)) <= 1e-12 * np.max(np.abs(w_bar))
    np.testing.assert_array_equal(est.attributes_per_example_, np.concatenate([seen1, seen2]))
    assert est.eps_ == 0.0 and est.max_attributes_per_example_ <= k + 1


def test_practical_lasso_equals_its_reference_with_the_eg_warm_start():
    X, y = data(2000, lasso=True)
    k, m1, m2 = 3, 200, 1800
    est = TwoPhaseDDAELR(k=k, m1=m1, variant="practical", random_state=6,
                         record_draws=True).fit(X, y)
    src = Tap(ReplaySource(flat(est.phase1_draws_, est.phase2_draws_)))
    eta1 = np.sqrt(2 * 2 * np.log(2 * D) / (5 * m1 * D)) / 4      # HK12 Thm 3.4, k_x = 2
    w_first, _ = gaelr(X[:m1], y[:m1], 2, 1.0, eta1, src, n_inner=2)
    A = _moments_from(X, src.uniform, 2)
    q = A / A.sum()
    eta2 = np.sqrt(np.log(2 * D) / (5 * m2 * (A.sum() / 2 + 1))) / 2   # KS15 Thm 4.6 with A
    floor = (1 - np.abs(w_first).sum()) / (2 * D)                    # z± = floor + w±/B
    z1 = (floor + np.maximum(w_first, 0), floor + np.maximum(-w_first, 0))
    w_bar, _ = gaelr(X[m1:], y[m1:], 2, 1.0, eta2, src, q=q, n_inner=2, z1=z1)
    assert np.max(np.abs(est.coef_ - w_bar)) <= 1e-12 * np.max(np.abs(w_bar))


@pytest.mark.parametrize("Model", [TwoPhaseDDAERR, TwoPhaseDDAELR])
@pytest.mark.parametrize("variant", ["theory", "practical"])
def test_reproducible_and_partial_fit_across_the_phase_boundary(Model, variant):
    X, y = data(1500)
    a = Model(k=2, variant=variant, n_total=1500, random_state=9).fit(X, y)
    b = Model(k=2, variant=variant, n_total=1500, random_state=9).fit(X, y)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    c = Model(k=2, variant=variant, n_total=1500, random_state=9)
    for lo, hi in ((0, 100), (100, 700), (700, 1500)):     # m₁ = 150 falls inside a batch
        c.partial_fit(X[lo:hi], y[lo:hi])
    np.testing.assert_array_equal(a.coef_, c.coef_)
    assert a.max_attributes_per_example_ <= 3
    assert a.attributes_per_example_.size == 1500


@pytest.mark.parametrize("params,name", [
    ({"m1": 2000}, "`m1`"), ({"m1": 0}, "`m1`"), ({"delta": 1.0}, "`delta`"),
    ({"delta": 0.0}, "`delta`"), ({"variant": "fast"}, "`variant`"), ({"k": 0}, "`k`"),
    ({"B": 0.0}, "`B`"), ({"eta": -1.0}, "`eta`"), ({"eta": "x"}, "`eta`"),
])
@pytest.mark.parametrize("Model", [TwoPhaseDDAERR, TwoPhaseDDAELR])
def test_malformed_parameters_get_a_clear_value_error(Model, params, name):
    X, y = data(200)
    with pytest.raises(InvalidParameterError, match=name):
        Model(**params).fit(X, y)


def test_partial_fit_without_n_total_splits_the_first_batch():
    X, y = data(600)
    a = TwoPhaseDDAERR(random_state=1).partial_fit(X[:400], y[:400]).partial_fit(X[400:],
                                                                                 y[400:])
    b = TwoPhaseDDAERR(n_total=400, random_state=1).partial_fit(X[:400], y[:400])
    b.partial_fit(X[400:], y[400:])
    np.testing.assert_array_equal(a.coef_, b.coef_)
    assert a.n_steps_ == 600 and a.moments_.shape == (D,)


@pytest.mark.parametrize("Model", [TwoPhaseDDAERR, TwoPhaseDDAELR])
def test_a_phase_one_that_sees_only_zeros_gives_the_epsilon_only_phase_two(Model):
    """KS15 Alg. 2/4 on sparse data: when no attribute phase 1 reads is nonzero, the estimate
    A is 0 and lines 11-12 still define phase 2 (q_i ∝ √(13ε/6), resp. 13ε/6: uniform;
    H = ‖(10/3)ε‖_{1/2} = d²·(10/3)ε, KS15 Lemma 3.11); laocheck used to reject A = 0."""
    lasso = Model is TwoPhaseDDAELR
    X, y = data(600, lasso=lasso)
    X[:60] = 0.0                                            # phase 1 (m1 = 60) sees zeros
    est = Model(k=3, m1=60, delta=0.1, random_state=1, record_draws=True).fit(X, y)
    assert np.all(est.moments_ == 0) and np.all(np.isfinite(est.coef_))
    np.testing.assert_allclose(est.q_, np.full(D, 1 / D), rtol=1e-14)
    if not lasso:
        assert est.H_ == pytest.approx(D ** 2 * 10 / 3 * est.eps_, rel=1e-12)
    src = ReplaySource(flat(est.phase1_draws_, est.phase2_draws_))
    if lasso:
        w_bar, _ = two_phase_ddaelr(X, y, 3, 1.0, 60, 0.1, src)
    else:
        w_bar, _ = two_phase_ddaerr(X, y, 3, 1.0, 60, 0.1, np.full(D, 1 / np.sqrt(D)), src)
    assert np.max(np.abs(est.coef_ - w_bar)) <= 1e-12 * max(np.max(np.abs(w_bar)), 1e-300)
