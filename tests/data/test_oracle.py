"""The attribute oracles (``Distribution.oracle``) reveal attributes with the law of ``sample``.

* whole rows at small d: the joint law of (x, y) from the oracle against ``sample``'s rows by
  Fisher's exact two-sample test, and against the product law computed by hand (power-law
  Bernoulli, CB11's and HK12's instances) by an exact multinomial test;
* at d = 10⁴ (where the geometric skips and the hashed attributes matter): the joint law of a
  set of attributes spread over [0, d) (so every marginal and pairwise law) against the exact
  law by hand; the label's law against ``sample``'s by a two-sample KS test at d = 2000;
* reproducibility: the same seed gives the same examples, whatever attributes are read, in
  whatever order, how often;
* edge cases: μ_i = 1 (every attribute one), zero weights, scaled labels, bad μ.

Every statistical test has false-failure probability δ = 1e-6 (Bonferroni inside the tests).
"""

import itertools

import numpy as np
import pytest

from laocheck.data import (CB11HardInstance, CorrelatedSigns, EmpiricalDistribution,
                           HK12HardInstance, PowerLawBernoulli, RowOracle)
from laocheck.data._oracle import PowerLawOracle, splitmix64_output, splitmix64_word
from laocheck.stats import multinomial_test, two_sample_ks_test, two_sample_test

DELTA = 1e-6


def _small():
    rng = np.random.default_rng(12)
    return [PowerLawBernoulli(6, -1.0, scenario="ridge"),
            PowerLawBernoulli(6, -1.0, scenario="lasso"),
            PowerLawBernoulli(5, -0.5, scenario="lasso", B=2.0),
            CorrelatedSigns(np.arange(1, 6) ** -0.5, np.array([0.2, 0.2, 0.0, 0.0, 0.1]), corr=0.3),
            CorrelatedSigns(np.ones(4), np.array([0.5, 0.0, -0.25, 0.0]), corr=0.0, noise=0.1),
            CorrelatedSigns(np.ones(3), np.array([0.5, 0.0, 0.0]), corr=1.0),
            CB11HardInstance(5, 0.01, j=2),
            HK12HardInstance(9, 1 / 3),
            HK12HardInstance(16, 0.25).scaled(2.0),
            EmpiricalDistribution(rng.integers(-2, 3, (7, 4)) / 2.0, rng.integers(-1, 2, 7) / 1.0)]


def _categories(X, y):
    """Each (row, label) as one category key (exact: the values are dyadic or few)."""
    return [tuple(np.round(r, 12)) + (round(float(v), 12),) for r, v in zip(X, y)]


def _counts(keys_a, keys_b):
    cats = sorted(set(keys_a) | set(keys_b))
    pos = {c: i for i, c in enumerate(cats)}
    a = np.bincount([pos[c] for c in keys_a], minlength=len(cats))
    b = np.bincount([pos[c] for c in keys_b], minlength=len(cats))
    return a, b


@pytest.mark.parametrize("dist", _small(), ids=lambda d: d.name)
def test_rows_have_the_law_of_sample(dist):
    """Fisher's exact two-sample test on the joint law of the whole row and label."""
    n = 40_000
    X, y = dist.sample(n, np.random.default_rng(1))
    oracle = dist.oracle(np.random.default_rng(2))
    assert isinstance(oracle, RowOracle) and oracle.d == dist.d
    Xo, yo = oracle.rows(n)
    a, b = _counts(_categories(X, y), _categories(Xo, yo))
    res = two_sample_test(a, b, delta=DELTA)
    assert res.passed, res
    assert oracle.t == n


def _product_probabilities(mu):
    """P(x_raw = v) for independent Bernoulli(μ_i), by hand, over v in {0, 1}^d (itertools
    order, first attribute slowest)."""
    out = []
    for v in itertools.product((0, 1), repeat=len(mu)):
        out.append(np.prod([m if b else 1 - m for m, b in zip(mu, v)]))
    return np.array(out)


def _pattern_index(bits):
    """Row of 0/1 bits -> its index in itertools.product order."""
    bits = np.asarray(bits, dtype=np.int64)
    weights = 2 ** np.arange(bits.shape[1] - 1, -1, -1)
    return bits @ weights


@pytest.mark.parametrize("scenario,alpha", [("lasso", -1.0), ("ridge", -1.0), ("lasso", -0.7),
                                            ("ridge", -2.0)])
def test_powerlaw_joint_law_exact_at_large_d(scenario, alpha):
    """d = 10⁴: six attributes spread over [0, d) against the product law (exact test); the
    label is the weighted sum over the revealed support (y is a function of x_raw)."""
    d = 10_000
    dist = PowerLawBernoulli(d, alpha, scenario=scenario)
    S = np.array([0, 1, 2, 37, 999, d - 1])
    n = 200_000
    vals, ys = dist.oracle(np.random.default_rng(3)).reveal(np.tile(S, (n, 1)))
    s = dist.attribute_scale
    assert set(np.unique(vals)) <= {0.0, s}
    counts = np.bincount(_pattern_index(vals / s), minlength=2 ** len(S))
    res = multinomial_test(counts, _product_probabilities(dist.mu[S]), delta=DELTA / 2)
    assert res.passed, res
    # the label: y = Σ_i wt_i x_raw,i; its mean is Σ wt_i μ_i exactly, |y| <= B
    assert np.all(np.abs(ys) <= dist.y_sup * (1 + 1e-12))
    mean = float(dist.label_weights @ dist.mu)
    radius = 2 * dist.y_sup * np.sqrt(np.log(4 / DELTA) / (2 * n))      # Hoeffding, δ/2
    assert abs(ys.mean() - mean) <= radius


@pytest.mark.parametrize("mu", [
    np.r_[1.0, 1.0, 1.0, 0.9, 0.9, 0.5, 0.5, 0.5, 0.2, 0.05, np.zeros(30)],   # 1s, plateaus, 0s
    np.r_[np.full(12, 0.3), np.linspace(0.3, 0.01, 500)],                     # flat, then falling
    np.ones(9),                                                               # every one a 1
])
def test_powerlaw_oracle_exact_law_across_its_blocks(mu):
    """The sampler's pieces (the leading positions with bound 1, the hazard clock over blocks,
    plateaus where μ_i equals the bound, a zero tail): eight attributes from all of them
    against the product of Bernoulli(μ_i), by an exact multinomial test at δ = 1e-6."""
    d = mu.shape[0]
    S = np.unique(np.r_[0, 2, 3, 5, 8, 9, 10, 11, d // 2, d - 1] % d)[:8]
    wt = np.linspace(-1, 1, d) / d
    oracle = PowerLawOracle(mu, wt, 1.0, np.random.default_rng(6), None, 1.0)
    n = 200_000
    vals, ys = oracle.reveal(np.tile(S, (n, 1)))
    counts = np.bincount(_pattern_index(vals), minlength=2 ** len(S))
    res = multinomial_test(counts, _product_probabilities(mu[S]), delta=DELTA)
    assert res.passed, res
    assert np.all(np.abs(ys) <= np.abs(wt).sum() + 1e-12)


@pytest.mark.parametrize("dist", [PowerLawBernoulli(2000, -1.0, scenario="lasso"),
                                  PowerLawBernoulli(2000, -0.5, scenario="ridge"),
                                  CorrelatedSigns(np.arange(1, 2001) ** -0.5,
                                                  np.r_[np.full(5, 0.2), np.zeros(1995)],
                                                  corr=0.3, noise=0.05)],
                         ids=lambda d: d.name)
def test_label_law_against_sample(dist):
    """d = 2000: the label and (x_0, label) of the oracle against ``sample``'s rows (KS
    two-sample tests at δ/2 each)."""
    n_rows, n_or = 20_000, 100_000
    rng = np.random.default_rng(4)
    ys, x0 = [], []
    for _ in range(n_rows // 2000):
        X, y = dist.sample(2000, rng)
        ys.append(y)
        x0.append(X[:, 0])
    y_rows, x0_rows = np.concatenate(ys), np.concatenate(x0)
    vals, y_or = dist.oracle(np.random.default_rng(5)).reveal(np.zeros((n_or, 1), dtype=int))
    res = two_sample_ks_test(y_rows, y_or, delta=DELTA / 2)
    assert res.passed, res
    # the pair (x_0, y) as one real number (x_0 takes two values, |y| is bounded)
    shift = 4 * (dist.y_sup + 1)
    res = two_sample_ks_test(y_rows + shift * np.sign(x0_rows), y_or + shift * np.sign(vals[:, 0]),
                             delta=DELTA / 2)
    assert res.passed, res


def _correlated_signs_law(S_size, corr):
    """P(s_S = v) for v in {−1, 1}^S (itertools order over (−1, 1)) by hand:
    Σ_{z_0} ½ Π_i (√ρ 1{v_i = z_0} + (1 − √ρ)/2)."""
    r = np.sqrt(corr)
    out = []
    for v in itertools.product((-1, 1), repeat=S_size):
        out.append(sum(0.5 * np.prod([r * (vi == z0) + (1 - r) / 2 for vi in v])
                       for z0 in (-1, 1)))
    return np.array(out)


@pytest.mark.parametrize("corr", [0.0, 0.3, 0.81])
def test_correlated_signs_joint_law_exact_at_large_d(corr):
    d = 10_000
    sigma = np.arange(1, d + 1) ** -0.5
    w = np.zeros(d)
    w[:5] = 0.2
    dist = CorrelatedSigns(sigma, w, corr=corr)
    S = np.array([0, 3, 17, 5000, d - 1])
    n = 200_000
    vals, ys = dist.oracle(np.random.default_rng(6)).reveal(np.tile(S, (n, 1)))
    signs = np.sign(vals / sigma[S])
    counts = np.bincount(_pattern_index((signs + 1) // 2), minlength=2 ** len(S))
    res = multinomial_test(counts, _correlated_signs_law(len(S), corr), delta=DELTA)
    assert res.passed, res
    assert np.all(np.abs(ys) <= dist.y_sup * (1 + 1e-12))


def test_cb11_joint_law_exact_at_large_d():
    """CB11 Thm 1's P_j at d = 10⁴: (y, x_j, x_0, x_{d−1}) against the law by hand."""
    d, j, eps = 10_000, 4321, 0.01
    dist = CB11HardInstance(d, eps, j=j)
    S = np.array([j, 0, d - 1])
    n = 200_000
    vals, ys = dist.oracle(np.random.default_rng(7)).reveal(np.tile(S, (n, 1)))
    agree = (vals == ys[:, None]).astype(int)
    keys = ((ys > 0).astype(int)[:, None], agree)
    counts = np.bincount(_pattern_index(np.hstack(keys)), minlength=16)
    p = np.sqrt(eps)
    probs = []
    for yb, a_j, a_0, a_l in itertools.product((0, 1), repeat=4):
        q = 0.5 + p
        probs.append(0.5 * (q if a_j else 1 - q) * 0.5 * 0.5)
    res = multinomial_test(counts, np.array(probs), delta=DELTA)
    assert res.passed, res


def test_hk12_exact_rows():
    """HK12 Thm B.1: each example is one of the rows r_i e_{T_i}, uniformly (exact test)."""
    dist = HK12HardInstance(10_000, 0.25, seed=3)
    o = dist.oracle(np.random.default_rng(8))
    n = 50_000
    vals, ys = o.reveal(np.tile(dist.T, (n, 1)))
    assert np.all(ys == 1.0)
    assert np.all(np.count_nonzero(vals, axis=1) == 1)
    hit = np.argmax(vals != 0, axis=1)
    assert np.array_equal(vals[np.arange(n), hit], dist.r[hit])
    res = multinomial_test(np.bincount(hit, minlength=16), np.full(16, 1 / 16), delta=DELTA)
    assert res.passed, res
    # an attribute outside T is never nonzero
    outside = np.setdiff1d(np.arange(50), dist.T)[:3]
    v, _ = dist.oracle(np.random.default_rng(9)).reveal(np.tile(outside, (1000, 1)))
    assert not np.any(v)


@pytest.mark.parametrize("dist", _small(), ids=lambda d: d.name)
def test_reads_do_not_change_the_example(dist):
    """The same seed gives the same examples whatever is read, in whatever order, how often:
    reading nothing, one attribute, all of them reversed and repeated."""
    n = 500
    _, y_none = dist.oracle(np.random.default_rng(10)).reveal(np.zeros((n, 0), dtype=int))
    full, y_full = dist.oracle(np.random.default_rng(10)).rows(n)
    order = np.r_[np.arange(dist.d)[::-1], np.arange(dist.d)]
    rev, y_rev = dist.oracle(np.random.default_rng(10)).reveal(np.tile(order, (n, 1)))
    assert np.array_equal(y_none, y_full) and np.array_equal(y_rev, y_full)
    assert np.array_equal(rev[:, :dist.d][:, ::-1], full)
    assert np.array_equal(rev[:, dist.d:], full)


def test_label_cost_is_the_support():
    """α = 0 (lasso): μ_i = 1, every attribute is one and y = Σ_i wt_i (the full row is the
    support, as in ``sample``)."""
    dist = PowerLawBernoulli(50, 0.0, scenario="lasso", B=1.5)
    X, y = dist.oracle(np.random.default_rng(0)).rows(20)
    assert np.all(X == 1.0)
    assert np.allclose(y, dist.label_weights.sum())
    assert np.allclose(y[:2], dist.sample(2, 0)[1])


def test_scaled_labels_and_bad_mu():
    base = HK12HardInstance(16, 0.25)
    o = base.scaled(-3.0).oracle(np.random.default_rng(0))
    _, y = o.rows(5)
    assert np.all(y == -3.0) and o.y_max == 3.0
    with pytest.raises(ValueError, match="nonincreasing"):
        PowerLawOracle(np.array([0.1, 0.2]), np.ones(2), 1.0, np.random.default_rng(0), None, 1.0)
    with pytest.raises(ValueError, match="indices"):
        base.oracle(0).reveal(np.array([[16]]))


def test_splitmix64_reference_outputs():
    """SplitMix64 from seed 0 gives the reference outputs (Vigna's splitmix64.c:
    0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F); an attribute's word is the
    XOR of the two keys' outputs at the same position."""
    ref = [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    assert [splitmix64_output(0, i) for i in range(3)] == ref
    for k1, k2, i in [(0, 5, 0), (2**64 - 1, 123, 7), (99, 99, 3)]:
        assert splitmix64_word(k1, k2, i) == splitmix64_output(k1, i) ^ splitmix64_output(k2, i)
