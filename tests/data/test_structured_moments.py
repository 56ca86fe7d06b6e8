"""Structured second moments (Σ = diag(D) + U S Uᵀ) and the sampler of the correlated signs.

* SecondMoments' products, diagonal and λ_max against the dense matrix built by hand;
* the structured minimisers against the dense ones (same value; certificates <= 1e-10) on every
  distribution laocheck uses, with edge cases (μ_1 = 1, correlation 0 and 1, zero rows of Σ);
* at d = 2·10⁵ (where no d × d matrix can be built) the certificates stay <= 1e-10;
* the correlated signs' sampler draws exactly the stated law: the joint law of (s_1, s_2, s_3, ζ)
  by an exact multinomial test against probabilities derived by hand, and against the previous
  sampler (``Generator.choice`` / ``Generator.random``) by an exact two-sample test
  (δ = 1e-6 each; Bonferroni inside the tests).
"""

import itertools

import numpy as np
import pytest

from laocheck.data import (CERTIFICATE_TOL, CB11HardInstance, CorrelatedSigns, HK12HardInstance,
                           PowerLawBernoulli, SecondMoments, minimize_l1_ball, minimize_l2_ball)
from laocheck.exceptions import InvalidParameterError
from laocheck.stats import multinomial_test, two_sample_test


def _small():
    return [PowerLawBernoulli(7, -1.0, scenario="ridge"), PowerLawBernoulli(7, -1.0, scenario="lasso"),
            PowerLawBernoulli(7, -2.0, scenario="lasso", B=3.0), PowerLawBernoulli(1, -1.0),
            CorrelatedSigns(np.arange(1, 7) ** -0.5, np.array([0.2, 0.2, 0.2, 0, 0, 0]), corr=0.3),
            CorrelatedSigns(np.array([1.0, 0.5, 0.0, 0.25]), np.array([0.5, -0.5, 0.0, 0.1]), corr=0.0),
            CorrelatedSigns(np.ones(4), np.array([0.5, 0.0, 0.0, 0.0]), corr=1.0, noise=0.1),
            CB11HardInstance(6, 0.01), HK12HardInstance(9, 1 / 3)]


def _dense_by_hand(dist):
    """Σ = E[xxᵀ] from the definitions (not from SecondMoments)."""
    if isinstance(dist, PowerLawBernoulli):
        mu, s = dist.mu, dist.attribute_scale
        return s * s * (np.outer(mu, mu) + np.diag(mu - mu * mu))
    if isinstance(dist, CorrelatedSigns):
        C = np.full((dist.d, dist.d), dist.corr)
        np.fill_diagonal(C, 1.0)
        return C * np.outer(dist.sigma, dist.sigma)
    if isinstance(dist, CB11HardInstance):
        return np.eye(dist.d)
    S = np.zeros((dist.d, dist.d))
    S[dist.T, dist.T] = 1.0 / dist.T.shape[0]
    return S


@pytest.mark.parametrize("dist", _small(), ids=lambda d: d.name)
def test_structured_products_against_the_dense_matrix(dist):
    S = _dense_by_hand(dist)
    mom = dist.moments
    assert mom.structured
    rng = np.random.default_rng(0)
    for _ in range(5):
        w = rng.standard_normal(dist.d)
        assert np.allclose(mom.matvec(w), S @ w, rtol=0, atol=1e-14)
        assert mom.quad(w) == pytest.approx(w @ S @ w, rel=1e-13, abs=1e-15)
    assert np.allclose(mom.diag(), np.diag(S), rtol=0, atol=1e-15)
    assert np.allclose(mom.dense(), S, rtol=0, atol=1e-15)
    top = np.linalg.eigvalsh(S)[-1]
    assert top - 1e-14 <= mom.max_eigenvalue() <= top * (1 + 1e-13) + 1e-15


@pytest.mark.parametrize("dist", _small(), ids=lambda d: d.name)
@pytest.mark.parametrize("norm", ["l2", "l1"])
@pytest.mark.parametrize("B", [0.05, 1.0, 4.0])
def test_structured_minimizer_equals_the_dense_one(dist, norm, B):
    solve = minimize_l2_ball if norm == "l2" else minimize_l1_ball
    structured = solve(dist.moments, dist.cross, B)
    dense = solve(_dense_by_hand(dist), dist.cross, B)
    assert structured.certificate <= CERTIFICATE_TOL and dense.certificate <= CERTIFICATE_TOL
    # both values are within their gaps of the minimum
    assert abs(structured.value - dense.value) <= structured.gap + dense.gap + 1e-14
    size = np.linalg.norm(structured.w) if norm == "l2" else np.abs(structured.w).sum()
    assert size <= B * (1 + 1e-12)


@pytest.mark.parametrize("make, norms", [
    (lambda d: PowerLawBernoulli(d, -1.0, scenario="ridge"), ("l2",)),
    (lambda d: PowerLawBernoulli(d, -1.0, scenario="lasso"), ("l2", "l1")),
    (lambda d: PowerLawBernoulli(d, -2.0, scenario="lasso"), ("l2", "l1")),
    (lambda d: CorrelatedSigns(np.arange(1, d + 1) ** -0.5, np.r_[np.full(5, 0.2), np.zeros(d - 5)],
                               corr=0.3), ("l2", "l1")),
    (lambda d: HK12HardInstance(d, 0.25), ("l2", "l1")),
    (lambda d: CB11HardInstance(d, 0.01), ("l2", "l1")),
])
def test_certificates_at_a_dimension_without_dense_matrices(make, norms):
    """d = 2·10⁵: a dense Σ (320 GB) cannot exist (``dense()`` refuses d > 20000), yet w* is
    certified to 1e-10 at B = 1 (the experiments' radius) in the geometries the experiments
    use the distribution with (the ridge power law's w* on the L1 ball has an active constraint
    with a rank-one Σ, which the structured path does not solve: it refuses, see below)."""
    dist = make(200_000)
    with pytest.raises(InvalidParameterError, match="`Sigma`"):
        dist.moments.dense()
    for norm in norms:
        sol = dist.minimizer(norm, 1.0)
        assert sol.certificate <= CERTIFICATE_TOL, (dist.name, norm, sol.gap, sol.kkt_residual)
        w = np.zeros(dist.d)                     # the certified optimum is no worse than w = 0
        assert dist.optimal_risk(norm, 1.0) <= dist.risk(w) + sol.gap


def _joint_probs(p, d):
    """P(s_1..s_d, ζ) of CorrelatedSigns by hand: z_0 a fair sign; s_i = z_0 with probability p
    (= √ρ), else an independent fair sign; ζ an independent fair sign. Categories are the
    bit patterns (s_i = +1 -> bit 0), ζ last."""
    probs = []
    for bits in itertools.product((0, 1), repeat=d + 1):
        s, zeta = bits[:d], bits[d]
        total = 0.0
        for z0 in (0, 1):
            prod = 0.5
            for b in s:
                prod *= p * (b == z0) + (1 - p) / 2
            total += prod
        probs.append(total * 0.5)
    return np.array(probs)


def _categories(X, y, w, noise):
    d = X.shape[1]
    s_bits = (X < 0).astype(int)
    zeta = np.rint((y - X @ w) / noise).astype(int)
    z_bits = (zeta < 0).astype(int)
    codes = np.zeros(X.shape[0], dtype=int)
    for i in range(d):
        codes = codes * 2 + s_bits[:, i]
    codes = codes * 2 + z_bits
    return np.bincount(codes, minlength=2 ** (d + 1))


def _previous_sampler(dist, m, rng):
    """The sampler before the 64-bit-draw version (Generator.choice and Generator.random)."""
    d = dist.d
    z = rng.choice([-1.0, 1.0], size=(m, d + 1))
    b = rng.random((m, d)) < np.sqrt(dist.corr)
    X = np.where(b, z[:, :1], z[:, 1:]) * dist.sigma
    zeta = rng.choice([-1.0, 1.0], size=m)
    return X, X @ dist.w_true + dist.noise * zeta


@pytest.mark.parametrize("corr", [0.0, 0.3, 0.81, 1.0])
def test_correlated_signs_joint_law_is_exact(corr):
    w, noise = np.array([0.5, -0.25, 0.125]), 0.5
    dist = CorrelatedSigns(np.ones(3), w, corr=corr, noise=noise)
    n = 200_000
    X, y = dist.sample(n, np.random.default_rng(12))
    counts = _categories(X, y, w, noise)
    probs = _joint_probs(np.sqrt(corr), 3)
    res = multinomial_test(counts, probs / probs.sum(), delta=1e-6)
    assert res.status == "PASS", res
    Xo, yo = _previous_sampler(dist, n, np.random.default_rng(13))
    res2 = two_sample_test(counts, _categories(Xo, yo, w, noise), delta=1e-6)
    assert res2.status == "PASS", res2


def test_correlated_signs_degenerate_correlations():
    X, _ = CorrelatedSigns(np.ones(5), np.zeros(5) + 0.1, corr=1.0).sample(1000, np.random.default_rng(0))
    assert np.all(X == X[:, :1])                         # every b_i = 1: all equal z_0
    X, _ = CorrelatedSigns(np.array([1.0, 0.5]), np.array([0.1, 0.1])).sample(10, np.random.default_rng(0))
    assert set(np.unique(np.abs(X[:, 1]))) == {0.5}


@pytest.mark.parametrize("dist", [PowerLawBernoulli(30, -1.0, scenario="lasso"),
                                  CorrelatedSigns(np.ones(30), np.full(30, 0.01), corr=0.3, noise=0.1)],
                         ids=lambda d: d.name)
def test_sampling_in_blocks_gives_the_same_rows(dist):
    """Rows are drawn one after the other from the generator, so a sample drawn in blocks is the
    sample drawn at once (the experiments draw big samples in blocks)."""
    X, y = dist.sample(1000, np.random.default_rng(3))
    rng = np.random.default_rng(3)
    parts = [dist.sample(n, rng) for n in (1, 333, 666)]
    assert np.array_equal(X, np.vstack([p[0] for p in parts]))
    assert np.array_equal(y, np.concatenate([p[1] for p in parts]))


def test_structured_path_refuses_what_it_cannot_certify_at_large_d():
    dist = PowerLawBernoulli(200_000, -1.0, scenario="ridge")
    with pytest.raises(InvalidParameterError, match="did not certify"):
        dist.minimizer("l1", 1.0)


def test_structured_moments_validation():
    mom = SecondMoments(np.array([1.0, -1.0]))
    with pytest.raises(InvalidParameterError, match="`Sigma`"):
        minimize_l2_ball(mom, np.zeros(2), 1.0)
    with pytest.raises(InvalidParameterError, match="`c`"):
        minimize_l1_ball(SecondMoments(np.ones(2)), np.zeros(3), 1.0)
