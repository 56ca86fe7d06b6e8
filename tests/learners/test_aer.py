"""AER and Baseline (CB11 Fig. 2 and Fig. 1): against their literal references on the same
draws, the tree's invariants, budget, reproducibility, the corrected Baseline's estimate and
its solver, and validation."""
import numpy as np
import pytest
from scipy.optimize import minimize

from laocheck import InvalidParameterError
from laocheck.learners import AER, Baseline, aer_lambda, minimise_quadratic_l1, project_l1_ball
from laocheck.reference.learners import ReplaySource, aer, baseline

D = 12


def data(m, d=D, seed=0):
    """CB11's assumptions: ‖x‖∞ <= 1, |y| <= B (B = 1 below, ‖w*‖₁ <= 1/2)."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, (m, d))
    w_star = rng.normal(size=d)
    w_star /= 2 * np.abs(w_star).sum()
    return X, np.clip(X @ w_star + 0.1 * rng.normal(size=m), -1, 1), w_star


@pytest.mark.parametrize("k,B,lam,renorm_low", [
    (4, 1.0, "theory", None),        # the projection rarely binds
    (2, 0.05, "proof", None),        # it binds at nearly every step
    (6, 0.02, "theory", 0.999),      # renormalisation forced at nearly every step
    (4, 0.3, 0.2, None),             # a small λ: large steps, many coordinates leave the ball
])
def test_aer_same_average_as_the_literal_reference_on_the_same_draws(k, B, lam, renorm_low):
    X, y, _ = data(3000)
    est = AER(k=k, B=B, lam=lam, random_state=5, record_draws=True)
    if renorm_low is None:
        est.fit(X, y)
    else:
        est.partial_fit(X[:5], y[:5])
        est._state.renorm_low = renorm_low
        est.partial_fit(X[5:], y[5:])
        assert est._state.n_renorms > 1000
    est._state.check_tree()
    w_bar, seen = aer(X, y, k, B, est.lam_, ReplaySource(est.draws_.ravel()))
    # w = s·u with the offset Θ and a tree-based pivot round differently from the sorting
    # projection: agreement to 1e-11 of ‖w̄‖∞ over 3000 steps
    assert np.max(np.abs(est.coef_ - w_bar)) <= 1e-11 * np.max(np.abs(w_bar))
    np.testing.assert_array_equal(est.attributes_per_example_, seen)
    assert est.max_attributes_per_example_ <= k
    assert np.abs(est.w_).sum() <= B * (1 + 1e-12)
    assert np.abs(est.coef_).sum() <= B * (1 + 1e-12)


def test_aer_projection_equals_the_sorting_projection_at_every_step():
    """After each partial_fit of one row the iterate is what the sorting projection of the
    literal update gives (checks the pivot descent and the removals one step at a time)."""
    X, y, _ = data(400)
    est = AER(k=4, B=0.05, lam=0.5, random_state=2, record_draws=True)
    w = np.zeros(D)
    for t in range(400):
        est.partial_fit(X[t:t + 1], y[t:t + 1])
        C = est.draws_[t, :2]
        I = est.draws_[t, 2:]
        norm1 = np.abs(w).sum()
        yhat = sum((2 / 4) * np.sign(w[i]) * norm1 * X[t, i] for i in I)
        v = np.zeros(D)
        v[C] = (2 / 4) * D * X[t, C]
        w = project_l1_ball((1 - 1 / (t + 1)) * w - 2 / (0.5 * (t + 1)) * (yhat - y[t]) * v,
                            0.05)
        np.testing.assert_allclose(est.w_, w, rtol=0, atol=1e-13)
    est._state.check_tree()


def test_aer_budget_reproducibility_and_partial_fit():
    X, y, _ = data(2000)
    a = AER(k=4, n_total=2000, random_state=3).fit(X, y)
    b = AER(k=4, n_total=2000, random_state=3).fit(X, y)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    c = AER(k=4, n_total=2000, random_state=3).partial_fit(X[:700], y[:700])
    c.partial_fit(X[700:], y[700:])
    np.testing.assert_array_equal(a.coef_, c.coef_)
    assert a.max_attributes_per_example_ <= 4
    assert a.n_attributes_seen_ == a.attributes_per_example_.sum()
    assert a.n_steps_ == 2000


def test_aer_lambda_statement_and_proof():
    """CB11 Thm 12 states λ = 12d√(log m/(mk)); its proof chooses λ = 16d√(log m/(km))."""
    m, k, d = 1000, 4, 50
    assert aer_lambda(m, k, d) == pytest.approx(12 * d * np.sqrt(np.log(m) / (m * k)))
    assert aer_lambda(m, k, d, "proof") == pytest.approx(16 * d * np.sqrt(np.log(m) / (k * m)))
    X, y, _ = data(300)
    assert AER(k=4, lam="proof").fit(X, y).lam_ == pytest.approx(aer_lambda(300, 4, D, "proof"))


def test_aer_learns_on_cb11_data():
    """A sanity run, not a theorem check: with m = 40000 the average is closer to w* than
    with m = 500 (the excess risk of the theorem is checked in laocheck.experiments)."""
    X, y, w_star = data(40_000, d=8, seed=4)
    errs = [np.linalg.norm(AER(k=4, B=1.0, random_state=1).fit(X[:m], y[:m]).coef_ - w_star)
            for m in (500, 40_000)]
    assert errs[1] < errs[0]


@pytest.mark.parametrize("make,X,y,param", [
    (lambda: AER(k=3), None, None, "`k`"),
    (lambda: AER(k=0), None, None, "`k`"),
    (lambda: AER(k=14), None, None, "`k`"),              # k = 14 > d = 12
    (lambda: AER(B=0.0), None, None, "`B`"),
    (lambda: AER(lam=-1.0), None, None, "`lam`"),
    (lambda: AER(lam="fast"), None, None, "`lam`"),
    (lambda: Baseline(k=14), None, None, "`k`"),         # k > d
    (lambda: Baseline(k=5), None, None, "`k`"),
    (lambda: Baseline(B=-1.0), None, None, "`B`"),
    (lambda: Baseline(variant="x"), None, None, "`variant`"),
])
def test_malformed_parameters_get_a_clear_value_error(make, X, y, param):
    X, y, _ = data(50)
    with pytest.raises(InvalidParameterError, match=param):
        make().fit(X, y)


@pytest.mark.parametrize("Model", [AER, Baseline])
def test_malformed_data_gets_a_value_error(Model):
    X, y, _ = data(50)
    bad = X.copy()
    bad[3] = np.nan        # a whole row: every step reads some attribute of its row
    with pytest.raises(ValueError, match="NaN"):
        Model(k=2).fit(bad, y)
    with pytest.raises(ValueError, match="0 sample"):
        Model(k=2).fit(X[:0], y[:0])
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        Model(k=2).fit(X, y[:10])


def test_baseline_literal_accumulation_equals_the_reference():
    X, y, _ = data(1500, d=8)
    est = Baseline(k=4, variant="literal", random_state=3, record_draws=True).fit(X, y)
    A, v, ybar, seen = baseline(X, y, 4, ReplaySource(est.draws_.ravel()))
    np.testing.assert_allclose(est.A_bar_, A, rtol=0, atol=1e-13)
    np.testing.assert_allclose(est.v_bar_, v, rtol=0, atol=1e-13)
    assert est.y_bar_ == pytest.approx(ybar, rel=1e-13)
    np.testing.assert_array_equal(est.attributes_per_example_, seen)
    assert np.all(np.diag(est.A_bar_) == 0)                   # Fig. 1 never writes A_ii


def test_baseline_corrected_estimate_is_unbiased_for_x_xT():
    """The corrected Ā on m copies of one x: each entry is an average of m i.i.d. bounded
    terms, so Hoeffding with δ = 1e-6 / (d² + d) per entry (union bound: δ = 1e-6 overall)
    bounds its distance to E[Ā] = xxᵀ; the literal Ā misses the diagonal by far more."""
    d, k, m = 6, 4, 200_000
    x = np.array([0.9, -0.5, 0.25, 1.0, -0.75, 0.4])
    X = np.tile(x, (m, 1))
    y = np.full(m, 0.5)
    est = Baseline(k=k, variant="corrected", random_state=0).fit(X, y)
    # ranges: off-diagonal terms 2(d/k)²x_ix_j·(d−1)/d·{0, 1, 2}; diagonal (d/k)x_i²·{0, 1}
    ratio = d / k
    off_range = 2 * 2 * ratio ** 2 * (d - 1) / d
    diag_range = ratio
    log_term = np.log(2 * (d * d + d) / 1e-6)
    tol = np.full((d, d), off_range) * np.sqrt(log_term / (2 * m))
    tol[np.diag_indices(d)] = diag_range * np.sqrt(log_term / (2 * m))
    assert np.all(np.abs(est.A_bar_ - np.outer(x, x)) <= tol)
    v_tol = 2 * 0.5 * ratio * np.sqrt(log_term / (2 * m))
    assert np.all(np.abs(est.v_bar_ + 2 * 0.5 * x) <= v_tol)   # corrected: −2y·E[v] = −2yx
    literal = Baseline(k=k, variant="literal", random_state=0).fit(X, y)
    assert np.all(np.abs(np.diag(literal.A_bar_) - x * x) > np.diag(tol))


def test_quadratic_l1_solver_matches_scipy_on_convex_problems():
    rng = np.random.default_rng(1)
    for _ in range(5):
        M = rng.normal(size=(6, 6))
        A = M @ M.T / 6
        b = rng.normal(size=6)
        B = 0.7
        w, f, res, _ = minimise_quadratic_l1(A, b, 0.0, B)
        assert np.abs(w).sum() <= B * (1 + 1e-12)
        assert res <= 1e-8
        # scipy on the split form w = p − n, p, n >= 0, Σ p + n <= B
        obj = lambda z: (z[:6] - z[6:]) @ A @ (z[:6] - z[6:]) + (z[:6] - z[6:]) @ b  # noqa: E731
        cons = [{"type": "ineq", "fun": lambda z: B - z.sum()}]
        ref = minimize(obj, np.zeros(12), bounds=[(0, None)] * 12, constraints=cons,
                       method="SLSQP", options={"ftol": 1e-14, "maxiter": 1000})
        assert f <= ref.fun + 1e-9


def test_baseline_sanity_excess_risk_decreases_with_m():
    X, y, w_star = data(60_000, d=6, seed=7)
    cov = X.T @ X / len(X)
    risks = []
    for m in (500, 60_000):
        w = Baseline(k=4, random_state=2).fit(X[:m], y[:m]).coef_
        risks.append((w - w_star) @ cov @ (w - w_star))
    assert risks[1] < risks[0]
