"""Full-information baselines: the constrained offline solvers reach their optimality
certificates and match a generic solver (scipy) on small cases; the online ones stay in their
balls and count every attribute."""
import warnings

import numpy as np
import pytest
from scipy.optimize import minimize

from laocheck.learners.full_information import (OfflineLasso, OfflineRidge, OnlineLasso,
                                                OnlineRidge, project_l1_ball)


def problem(m=60, d=5, seed=0, scale=1.0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, (m, d))
    y = X @ (scale * rng.normal(size=d)) + 0.1 * rng.normal(size=m)
    return X, y


def objective(X, y, w):
    return 0.5 * np.mean((X @ w - y) ** 2)


@pytest.mark.parametrize("B", [0.05, 0.5, 2.0, 100.0])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_offline_ridge_kkt_and_scipy(B, seed):
    X, y = problem(seed=seed, scale=3.0)
    est = OfflineRidge(B=B).fit(X, y)
    assert est.kkt_residual_ <= 1e-10
    assert np.linalg.norm(est.coef_) <= B * (1 + 1e-12)
    assert est.lambda_ >= 0
    if est.lambda_ > 0:
        assert np.linalg.norm(est.coef_) == pytest.approx(B, rel=1e-12)
    cons = [{"type": "ineq", "fun": lambda w: B ** 2 - w @ w}]
    ref = minimize(lambda w: objective(X, y, w), np.zeros(X.shape[1]), constraints=cons,
                   method="SLSQP", options={"ftol": 1e-14, "maxiter": 1000})
    assert objective(X, y, est.coef_) <= ref.fun + 1e-9


def test_offline_ridge_unconstrained_is_least_squares():
    X, y = problem()
    np.testing.assert_allclose(OfflineRidge(B=1e6).fit(X, y).coef_,
                               np.linalg.lstsq(X, y, rcond=None)[0], rtol=1e-10)


@pytest.mark.parametrize("B", [0.05, 0.5, 2.0])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_offline_lasso_duality_gap_and_scipy(B, seed):
    X, y = problem(seed=seed, scale=3.0)
    est = OfflineLasso(B=B).fit(X, y)
    assert est.duality_gap_ <= 1e-10
    assert np.abs(est.coef_).sum() <= B * (1 + 1e-12)
    d = X.shape[1]
    # generic reference: w = u − v with u, v >= 0 and Σ(u + v) <= B
    fun = lambda z: objective(X, y, z[:d] - z[d:])
    cons = [{"type": "ineq", "fun": lambda z: B - z.sum()}]
    ref = minimize(fun, np.zeros(2 * d), bounds=[(0, None)] * (2 * d), constraints=cons,
                   method="SLSQP", options={"ftol": 1e-14, "maxiter": 1000})
    assert objective(X, y, est.coef_) <= ref.fun + 1e-9


def test_project_l1_ball():
    rng = np.random.default_rng(3)
    for _ in range(200):
        v = rng.normal(size=7) * rng.uniform(0.1, 5)
        B = rng.uniform(0.1, 3)
        p = project_l1_ball(v, B)
        assert np.abs(p).sum() <= B * (1 + 1e-12)
        # optimality: no feasible point from random search is closer to v
        for _ in range(20):
            q = project_l1_ball(rng.normal(size=7), B)
            assert np.linalg.norm(v - p) <= np.linalg.norm(v - q) + 1e-12


@pytest.mark.parametrize("Model,norm", [(OnlineRidge, 2), (OnlineLasso, 1)])
def test_online_baselines_stay_in_the_ball_and_count_attributes(Model, norm):
    X, y = problem(m=500, d=6)
    X /= np.sqrt(6)
    est = Model(B=0.7).fit(X, y)
    assert np.linalg.norm(est.coef_, ord=norm) <= 0.7 * (1 + 1e-12)
    assert np.linalg.norm(est.w_, ord=norm) <= 0.7 * (1 + 1e-12)
    assert est.n_attributes_seen_ == 500 * 6 and est.max_attributes_per_example_ == 6
    assert est.eta_ > 0


@pytest.mark.parametrize("Model", [OnlineRidge, OnlineLasso, OfflineRidge, OfflineLasso])
@pytest.mark.parametrize("param,value", [("B", 0.0), ("B", -1.0)])
def test_bad_parameters(Model, param, value):
    X, y = problem()
    with pytest.raises(ValueError, match=f"`{param}`"):
        Model(**{param: value}).fit(X, y)


@pytest.mark.parametrize("Model", [OnlineRidge, OnlineLasso])
@pytest.mark.parametrize("eta", [0.0, -1.0, "fast"])
def test_bad_step_sizes(Model, eta):
    X, y = problem()
    with pytest.raises(ValueError, match="`eta`"):
        Model(eta=eta).fit(X, y)


def test_offline_ridge_on_a_singular_design_warns_nothing_and_meets_the_constraint():
    """Rank-deficient X (d > m) whose minimum-norm solution leaves the ball: the secular
    equation's bracket starts where ‖w(λ)‖ overflows; that is not a numerical failure."""
    rng = np.random.default_rng(3)
    X = rng.uniform(-1, 1, (5, 40))
    y = 10 * rng.normal(size=5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        est = OfflineRidge(B=0.5).fit(X, y)
    assert np.linalg.norm(est.coef_) == pytest.approx(0.5, rel=1e-12)
    assert est.lambda_ > 0 and est.kkt_residual_ <= 1e-10 * max(1.0, est.lambda_)
