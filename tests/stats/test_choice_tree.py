"""The choice tree (laocheck.stats.choice_tree): a user's numpy sampler enumerated exactly by
driving its Generator. Every expected distribution below is computed by hand (binomial
coefficients, uniform weights), never by the module under test."""

from fractions import Fraction as F
from math import comb

import numpy as np
import pytest

from laocheck.checks import Context
from laocheck.checks.algorithms.estimator_properties import Claims, check_unbiased_exact
from laocheck.estimators.instances import INSTANCES
from laocheck.stats.choice_tree import (FLOAT_TOLERANCE, DrivenGenerator, NotEnumerable,
                                        enumerate_sampler)

W, X, Y = [F(1, 2), F(-1, 4), F(1, 8), F(3, 8)], [F(1, 2), F(1, 4), F(-3, 4), F(1, 8)], F(-1, 4)


def _dist(sample):
    out = enumerate_sampler(sample, W, X, Y)
    return out, {v: p for p, v in out.distribution}


def test_integers_choice_and_binomial_are_enumerated_with_their_exact_probabilities():
    def sample(w, x, y, n=1, rng=None):
        i = rng.integers(1, 4)                      # uniform on {1, 2, 3}
        j = rng.choice(4, p=[F(1, 2), F(1, 4), F(1, 8), F(1, 8)])
        b = rng.binomial(3, F(1, 3))
        return np.array([[i, j, b]]), np.array([2])
    out, dist = _dist(sample)
    assert out.mode == "exact" and out.paths == 3 * 4 * 4
    pj = [F(1, 2), F(1, 4), F(1, 8), F(1, 8)]
    for i in (1, 2, 3):
        for j in range(4):
            for b in range(4):
                pb = comb(3, b) * F(1, 3) ** b * F(2, 3) ** (3 - b)
                assert dist[((F(i), F(j), F(b)), 2)] == F(1, 3) * pj[j] * pb
    assert sum(dist.values()) == 1


def test_without_replacement_permutation_and_shuffle_are_uniform():
    def sample(w, x, y, n=1, rng=None):
        s = rng.choice(4, size=2, replace=False)
        perm = rng.permutation(3)
        items = [0, 1]
        rng.shuffle(items)
        return np.array([[*s, *perm, *items]]), np.array([1])
    out, dist = _dist(sample)
    assert len(dist) == 12 * 6 * 2 and set(dist.values()) == {F(1, 144)}


def test_weighted_draws_without_replacement_are_successive_sampling():
    """numpy's choice(p=..., replace=False) draws proportionally to the remaining weights."""
    p = [F(1, 2), F(1, 4), F(1, 4)]

    def sample(w, x, y, n=1, rng=None):
        return np.array([rng.choice(3, size=2, replace=False, p=p)]), np.array([2])
    _, dist = _dist(sample)
    for a in range(3):
        for b in range(3):
            if a != b:
                assert dist[((F(a), F(b)), 2)] == p[a] * p[b] / (1 - p[a])


def test_uniforms_compared_with_numbers_split_exactly():
    def sample(w, x, y, n=1, rng=None):
        u = rng.random()
        return np.array([[int(u < F(1, 3)), int(u < F(1, 2))]]), None
    _, dist = _dist(sample)
    assert dist == {((F(1), F(1)), None): F(1, 3), ((F(0), F(1)), None): F(1, 6),
                    ((F(0), F(0)), None): F(1, 2)}


def test_object_arrays_make_a_float_slip_free_sampler_exact():
    """p = w**2 / (w @ w) on object arrays of Fractions is an exact distribution."""
    def sample(w, x, y, n=1, rng=None):
        j = rng.choice(len(w), p=w ** 2 / (w @ w))
        return np.array([[(w @ w) * x[j] / w[j] - y]]), np.array([1])
    out, dist = _dist(sample)
    assert out.mode == "exact" and not out.float_probabilities
    mean = sum(p * v[0][0] for v, p in dist.items())
    assert mean == sum(a * b for a, b in zip(W, X)) - Y


def test_float_probabilities_are_taken_at_their_binary_value_and_renormalised():
    def sample(w, x, y, n=1, rng=None):
        w = np.asarray(w, dtype=float)
        return np.array([[rng.choice(len(w), p=w ** 2 / (w @ w))]]), None
    out, dist = _dist(sample)
    assert out.mode == "float" and out.float_probabilities
    assert "TypeError" not in out.exact_inputs_error      # floats chosen by the sampler itself
    wf = np.array([float(v) for v in W])
    p = wf ** 2 / (wf @ wf)
    exact = [F(float(v)) for v in p]
    assert [dist[((F(j),), None)] for j in range(4)] == [v / sum(exact) for v in exact]
    assert sum(dist.values()) == 1


@pytest.mark.parametrize("draw, word", [
    (lambda rng: rng.normal(), "normal"), (lambda rng: rng.geometric(0.5), "geometric"),
    (lambda rng: float(rng.random()), "as a number"), (lambda rng: rng.random() + 1, "number"),
    (lambda rng: rng.bit_generator.random_raw(), "bit_generator"),
])
def test_draws_that_cannot_be_enumerated_say_why(draw, word):
    def sample(w, x, y, n=1, rng=None):
        return np.array([[draw(rng)]]), None
    with pytest.raises(NotEnumerable, match=word):
        enumerate_sampler(sample, W, X, Y)


def test_too_many_paths_is_not_enumerable():
    def sample(w, x, y, n=1, rng=None):
        return np.array([rng.integers(4, size=8)]), None      # 4**8 = 65536 paths
    with pytest.raises(NotEnumerable, match="more than 1000"):
        enumerate_sampler(sample, W, X, Y, max_paths=1000)


def test_numpy_refusals_are_kept():
    """A p that numpy refuses (negative, not summing to 1) is refused the same way."""
    def sample(w, x, y, n=1, rng=None):
        return np.array([[rng.choice(2, p=[0.7, 0.7])]]), None
    with pytest.raises(ValueError, match="sum to 1"):
        enumerate_sampler(sample, W, X, Y)


def test_the_driven_generator_is_a_generator():
    gen = DrivenGenerator(src=None)
    assert isinstance(gen, np.random.Generator) and np.random.default_rng(gen) is gen


@pytest.mark.parametrize("e", range(20, 41, 4))
def test_rounding_cannot_turn_a_biased_float_sampler_into_a_pass(e):
    """The soundness of float mode (module docstring): the enumerated mean of a float program
    is within γ·E|v| of the ideal one, and the checks tolerate γ·(E|v| + |target|). A sampler
    biased by the factor 1 + 2^-e (e = 20..40: 1e-6 .. 1e-12 relative, far below what Monte
    Carlo resolves) is detected whenever 2^-e·|target| exceeds that tolerance (certainly for
    e <= 30 here), its correct twin is within it, and a PASS always reports a detectable
    violation at least the bias it let through (PASS implies bias <= detectable)."""

    class Residual:
        factor = 1.0

        def target(self, w, x, y):
            return np.array([w @ x - y])

        def sample(self, w, x, y, n=1, rng=None):
            w = np.asarray(w, dtype=float)
            x = np.asarray(x, dtype=float)
            s = w @ w
            if s == 0:
                return np.full((n, 1), -y), np.zeros(n, dtype=int)
            j = rng.choice(len(w), size=n, p=w ** 2 / s)
            return (self.factor * (s * x[j] / w[j] - y))[:, None], np.ones(n, dtype=int)

    ctx = Context(rng=np.random.default_rng(0), delta=0.0)
    right, wrong = Residual(), Residual()
    wrong.factor = 1 + 2.0 ** -e
    claims = lambda est: Claims(target=est.target)                           # noqa: E731
    ok = check_unbiased_exact(ctx, estimator=right, claims=claims(right))
    bad = check_unbiased_exact(ctx, estimator=wrong, claims=claims(wrong))
    assert ok.status == "PASS" and 0 < ok.detectable < 20 * FLOAT_TOLERANCE
    if e <= 30:
        assert bad.status == "FAIL", (e, bad.figures)
    smallest_bias = 2.0 ** -e * min(abs(float(sum(a * b for a, b in zip(w, x)) - y))
                                    for w, x, y in (INSTANCES[i] for i in ("d3", "d4", "w0")))
    assert bad.status == "FAIL" or smallest_bias <= bad.detectable, (e, bad.detectable)
