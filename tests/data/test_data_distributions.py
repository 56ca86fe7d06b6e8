"""laocheck.data: exact moments (against enumeration), risks, certified minimisers (against scipy
on small cases), certificates <= 1e-10 on every distribution laocheck uses, validation.

Statistical assertion (sample moments): a betting interval at delta = 1e-7 per attribute,
Bonferroni over at most 10 attributes, so the false-failure probability is <= 1e-6.
"""

import itertools
import math

import numpy as np
import pytest
from scipy.optimize import minimize

from laocheck.data import (CERTIFICATE_TOL, CB11HardInstance, CorrelatedSigns,
                           EmpiricalDistribution, HK12HardInstance, PowerLawBernoulli,
                           digits_distribution, minimize_l1_ball, minimize_l2_ball)
from laocheck.exceptions import InvalidParameterError
from laocheck.stats import mean_interval


def _scipy_l2(S, c, B):
    res = minimize(lambda w: 0.5 * w @ S @ w - c @ w, np.zeros(len(c)), jac=lambda w: S @ w - c,
                   constraints=[{"type": "ineq", "fun": lambda w: B * B - w @ w,
                                 "jac": lambda w: -2 * w}], method="SLSQP",
                   options={"ftol": 1e-15, "maxiter": 1000})
    return res.fun


def _scipy_l1(S, c, B):
    d = len(c)
    f = lambda z: 0.5 * (z[:d] - z[d:]) @ S @ (z[:d] - z[d:]) - c @ (z[:d] - z[d:])
    def jac(z):
        g = S @ (z[:d] - z[d:]) - c
        return np.concatenate([g, -g])
    res = minimize(f, np.zeros(2 * d), jac=jac, bounds=[(0, None)] * (2 * d), method="SLSQP",
                   constraints=[{"type": "ineq", "fun": lambda z: B - z.sum(),
                                 "jac": lambda z: -np.ones(2 * d)}],
                   options={"ftol": 1e-15, "maxiter": 1000})
    return res.fun


@pytest.mark.parametrize("seed", range(6))
def test_minimizers_match_scipy_small_cases(seed):
    rng = np.random.default_rng(seed)
    d = 5
    A = rng.standard_normal((3 if seed % 2 else 8, d))     # singular Sigma for odd seeds
    S = A.T @ A / A.shape[0]
    c = rng.standard_normal(d) if seed % 2 == 0 else S @ rng.standard_normal(d)
    for B in (0.2, 1.0, 20.0):
        l2 = minimize_l2_ball(S, c, B)
        l1 = minimize_l1_ball(S, c, B)
        assert l2.certificate <= CERTIFICATE_TOL and l1.certificate <= CERTIFICATE_TOL
        assert np.linalg.norm(l2.w) <= B * (1 + 1e-12)
        assert np.abs(l1.w).sum() <= B * (1 + 1e-12)
        # SLSQP is accurate to ~1e-8 here; ours must be at least as low (up to that accuracy)
        assert l2.value <= _scipy_l2(S, c, B) + 1e-8
        assert l1.value <= _scipy_l1(S, c, B) + 1e-8
        assert l2.value == pytest.approx(_scipy_l2(S, c, B), abs=1e-6)
        assert l1.value == pytest.approx(_scipy_l1(S, c, B), abs=1e-6)


def test_l2_interior_equals_linear_solve():
    S = np.diag([2.0, 1.0, 4.0])
    c = np.array([0.2, -0.1, 0.4])
    sol = minimize_l2_ball(S, c, 10.0)
    assert np.allclose(sol.w, [0.1, -0.1, 0.1], atol=1e-15) and sol.multiplier == 0.0
    assert not sol.on_boundary


def test_l1_gap_is_a_valid_upper_bound_on_suboptimality():
    rng = np.random.default_rng(5)
    A = rng.standard_normal((20, 6))
    S, c = A.T @ A / 20, rng.standard_normal(6)
    sol = minimize_l1_ball(S, c, 0.7)
    f = lambda w: 0.5 * w @ S @ w - c @ w
    for _ in range(200):                 # random feasible points are never better than w* - gap
        v = rng.standard_normal(6)
        v *= 0.7 * rng.random() / np.abs(v).sum()
        assert f(v) >= sol.value - sol.gap - 1e-15


def _enumerate_bernoulli(mu, wt, s):
    d = len(mu)
    Sigma, cross, y2 = np.zeros((d, d)), np.zeros(d), 0.0
    for bits in itertools.product((0, 1), repeat=d):
        b = np.array(bits, dtype=float)
        p = np.prod(np.where(b == 1, mu, 1 - mu))
        x, y = s * b, b @ wt
        Sigma += p * np.outer(x, x)
        cross += p * x * y
        y2 += p * y * y
    return Sigma, cross, y2


@pytest.mark.parametrize("scenario", ["ridge", "lasso"])
def test_power_law_moments_by_enumeration(scenario):
    dist = PowerLawBernoulli(4, -1.0, scenario=scenario, B=2.0, w=[1.0, -1.0, 0.0, 1.0])
    u = np.array([1, 1 / 2, 1 / 3, 1 / 4])
    mu = u / np.linalg.norm(u) if scenario == "ridge" else u
    s = 0.5 if scenario == "ridge" else 1.0               # 1/sqrt(d)
    wt = 2.0 * np.array([1.0, -1.0, 0.0, 1.0]) / 3
    Sigma, cross, y2 = _enumerate_bernoulli(mu, wt, s)
    assert np.allclose(dist.Sigma, Sigma, atol=1e-15) and np.allclose(dist.cross, cross, atol=1e-15)
    assert dist.y2 == pytest.approx(y2, abs=1e-15)
    w = np.array([0.3, -0.2, 0.1, 0.0])
    # risk by enumeration: 1/2 E[(w.x - y)^2]
    ref = 0.5 * (w @ Sigma @ w - 2 * cross @ w + y2)
    assert dist.risk(w) == pytest.approx(ref, abs=1e-15)
    assert dist.risk(w, loss="squared") == pytest.approx(2 * ref, abs=1e-15)
    assert dist.assumptions("l2" if scenario == "ridge" else "l1", 2.0)["|y|<=B"]


def test_correlated_signs_moments_by_enumeration():
    sigma, w, corr, a = np.array([1.0, 0.5]), np.array([0.3, -0.7]), 0.36, 0.2
    dist = CorrelatedSigns(sigma, w, corr=corr, noise=a)
    r = math.sqrt(corr)
    Sigma, cross, y2 = np.zeros((2, 2)), np.zeros(2), 0.0
    for z in itertools.product((-1, 1), repeat=3):
        for b in itertools.product((0, 1), repeat=2):
            for zeta in (-1, 1):
                p = 0.125 * 0.5 * np.prod([r if bi else 1 - r for bi in b])
                s = np.array([z[0] if b[i] else z[i + 1] for i in range(2)], dtype=float)
                x = sigma * s
                y = w @ x + a * zeta
                Sigma += p * np.outer(x, x)
                cross += p * x * y
                y2 += p * y * y
    assert np.allclose(dist.Sigma, Sigma, atol=1e-14) and np.allclose(dist.cross, cross, atol=1e-14)
    assert dist.y2 == pytest.approx(y2, abs=1e-14)
    assert dist.y_sup == pytest.approx(0.3 + 0.35 + 0.2)


def test_cb11_hard_instance_exact():
    dist = CB11HardInstance(6, 0.01, j=2)
    sol = dist.minimizer("l1", 1.0)
    # w* = 2p e_j = 0.2 e_2 (inside the L1 ball), CB11 risk 1 - 4p^2 = 0.96
    assert np.allclose(sol.w, 0.2 * np.eye(6)[2], atol=1e-14)
    assert dist.optimal_risk("l1", 1.0, loss="squared") == pytest.approx(0.96, abs=1e-14)
    with pytest.raises(InvalidParameterError, match="`eps`"):
        CB11HardInstance(6, 0.1)


def test_hk12_hard_instance_exact():
    dist = HK12HardInstance(10, 0.5, seed=3)
    sol = dist.minimizer("l2", 1.0)
    w_star = np.zeros(10)
    w_star[dist.T] = 0.5 * dist.r                         # eps r_i on T (Lemma B.4)
    assert np.allclose(sol.w, w_star, atol=1e-13)
    assert dist.optimal_risk("l2", 1.0, loss="squared") == pytest.approx(0.25, abs=1e-13)  # (1-eps)^2


def test_empirical_risk_equals_mean_squared_error():
    rng = np.random.default_rng(2)
    X, y = rng.standard_normal((30, 4)), rng.standard_normal(30)
    dist = EmpiricalDistribution(X, y)
    w = rng.standard_normal(4)
    assert dist.risk(w) == pytest.approx(0.5 * np.mean((X @ w - y) ** 2), rel=1e-13)
    Xs, ys = dist.sample(50, np.random.default_rng(0))
    assert all(any(np.array_equal(row, r) for r in X) for row in Xs)


def test_digits_distribution_scaling():
    dist = digits_distribution((3, 5), norm="l2", B=2.0)
    assert dist.x_l2 == pytest.approx(1.0) and set(np.unique(dist.y)) == {-2.0, 2.0}
    assert digits_distribution(norm="l1").x_linf == pytest.approx(1.0)


def _used_distributions():
    out = [PowerLawBernoulli(500, a, scenario=s) for s in ("ridge", "lasso")
           for a in (0.0, -0.5, -1.0, -2.0)]
    out += [HK12HardInstance(100, 0.25), HK12HardInstance(25, 0.25), HK12HardInstance(400, 0.25),
            CorrelatedSigns(np.arange(1, 101) ** -0.5, np.r_[np.full(5, 0.2), np.zeros(95)], corr=0.3),
            PowerLawBernoulli(100, -1.0, scenario="ridge"), PowerLawBernoulli(100, -1.0, scenario="lasso"),
            digits_distribution(norm="l2"), digits_distribution(norm="l1")]
    return out


def test_certificates_on_every_used_distribution():
    for dist in _used_distributions():
        for norm in ("l2", "l1"):
            sol = dist.minimizer(norm, 1.0)
            assert sol.certificate <= CERTIFICATE_TOL, (dist.name, norm, sol.gap, sol.kkt_residual)


def test_sample_second_moments_within_rigorous_interval():
    dist = PowerLawBernoulli(10, -0.5, scenario="ridge")
    X, _ = dist.sample(20_000, np.random.default_rng(11))
    top = dist.attribute_scale ** 2
    for i in range(10):                    # delta = 1e-7 each, Bonferroni: <= 1e-6 in total
        ci = mean_interval(X[:, i] ** 2, lower=0.0, upper=top, delta=1e-7)
        assert ci.low <= dist.second_moments[i] <= ci.high


def test_scaled_labels_same_draws():
    dist = PowerLawBernoulli(5, -1.0, scenario="lasso")
    X1, y1 = dist.sample(10, np.random.default_rng(4))
    X2, y2 = dist.scaled(3.0).sample(10, np.random.default_rng(4))
    assert np.array_equal(X1, X2) and np.allclose(y2, 3 * y1)
    w = np.full(5, 0.1)
    assert dist.scaled(3.0).excess_risk(3 * w, "l1", 3.0) == pytest.approx(
        9 * dist.excess_risk(w, "l1", 1.0), rel=1e-9, abs=1e-15)


@pytest.mark.parametrize("call, name", [
    (lambda: PowerLawBernoulli(5, 0.5), "alpha"),
    (lambda: PowerLawBernoulli(5, -1, scenario="x"), "scenario"),
    (lambda: CorrelatedSigns([1.0, 1.0], [1.0, 1.0], corr=2.0), "corr"),
    (lambda: HK12HardInstance(3, 0.5), "eps"),
    (lambda: PowerLawBernoulli(5, -1).risk([1.0]), "w"),
    (lambda: PowerLawBernoulli(5, -1).minimizer("l3", 1.0), "norm"),
    (lambda: minimize_l2_ball(np.eye(2), np.ones(3), 1.0), "Sigma"),
])
def test_validation(call, name):
    with pytest.raises(InvalidParameterError, match=name):
        call()
