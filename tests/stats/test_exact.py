"""Tests of the exact-enumeration oracle: CB11 Lemma 7, unbiased single-draw estimates,
geometric tails, sampling agrees with enumeration, guards."""

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from laocheck.exceptions import InvalidParameterError
from laocheck.stats import (IIDDraws, Plan, RandomHalves, RandomSource, TruncatedGeometric,
                            UniformSubset, enumerate_outcomes, multinomial_test)

from .conftest import TEST_DELTA


def subset_average(src, a, k):
    """(1/k) sum_{i in S} a_i for a uniform k-subset S of range(len(a))."""
    return sum(a[i] for i in src.subset(len(a), k)) / k


def test_cb11_lemma7_all_small_cases():
    """CB11 Lemma 7: sampling k of n without replacement and averaging preserves the mean,
    exactly (Fractions), for every n <= 7 and 1 <= k <= n."""
    for n in range(1, 8):
        a = [Fraction((-1) ** i * (i * i + 1), i + 2) for i in range(n)]
        for k in range(1, n + 1):
            dist = enumerate_outcomes(subset_average, a, k)
            assert dist.total_mass == 1 and dist.residual_mass == 0
            assert dist.n_runs == math.comb(n, k)
            assert dist.expectation() == sum(a, Fraction(0)) / n


@settings(max_examples=40, deadline=None)
@given(st.lists(st.fractions(min_value=-10, max_value=10, max_denominator=50), min_size=1,
                max_size=6), st.data())
def test_cb11_lemma7_property(a, data):
    """Lemma 7 for arbitrary rational a (hypothesis shrinks towards short, small lists)."""
    k = data.draw(st.integers(1, len(a)))
    assert enumerate_outcomes(subset_average, a, k).expectation() == sum(a, Fraction(0)) / len(a)


X = [Fraction(3), Fraction(-1, 2), Fraction(0), Fraction(7, 3), Fraction(-5), Fraction(1, 9)]


def uniform_estimate(src, x):
    """d x_i e_i for i uniform on range(d), as a numpy object array of Fractions."""
    d = len(x)
    i = src.uniform_int(d)
    out = np.array([Fraction(0)] * d, dtype=object)
    out[i] = d * x[i]
    return out


def weighted_estimate(src, x, q):
    """(x_i / q_i) e_i for i ~ q, as a tuple."""
    i = src.categorical(q)
    return tuple(x[i] / q[i] if j == i else Fraction(0) for j in range(len(x)))


def test_uniform_single_draw_unbiased():
    dist = enumerate_outcomes(uniform_estimate, X)
    assert list(dist.expectation()) == X and len(dist) == len(X)


@pytest.mark.parametrize("q", [
    [Fraction(1, 6)] * 6,
    [Fraction(1, 21) * (i + 1) for i in range(6)],
    [sympy.Rational(1, 2), sympy.Rational(1, 4), sympy.Rational(1, 8), sympy.Rational(1, 16),
     sympy.Rational(1, 32), sympy.Rational(1, 32)],
])
def test_weighted_single_draw_unbiased(q):
    qf = [Fraction(int(v.p), int(v.q)) if isinstance(v, sympy.Basic) else v for v in q]
    dist = enumerate_outcomes(weighted_estimate, X, qf)
    assert dist.expectation() == tuple(X)


def test_float_probabilities_are_exact_binary_values():
    """Floats enter as Fraction(float): the q-weighted estimate stays exactly unbiased with
    respect to those probabilities, and the total mass is their exact sum."""
    q = [0.1, 0.2, 0.3, 0.4]

    def program(src):
        i = src.categorical(q)  # floats go to the source
        return tuple(X[i] / Fraction(q[i]) if j == i else Fraction(0) for j in range(4))

    dist = enumerate_outcomes(program)
    assert dist.expectation() == tuple(X[:4])
    assert dist.total_mass == sum(Fraction(v) for v in q)


def test_geometric_tail_is_residual():
    p = Fraction(1, 3)
    dist = enumerate_outcomes(lambda src: src.geometric(p), max_depth=6)
    assert dist.residual_mass == (1 - p) ** 6
    assert dist.total_mass + dist.residual_mass == 1
    assert dist.as_dict() == {n: (1 - p) ** n * p for n in range(6)}
    # per-call depth overrides the global cap; the tail is booked once per parent path
    two = enumerate_outcomes(lambda src: (src.bernoulli(Fraction(1, 2)),
                                          src.geometric(p, max_depth=2)))
    assert two.residual_mass == (1 - p) ** 2 and len(two) == 4


def test_plan_composition_and_attribute_counts():
    """A plan: 2 i.i.d. draws from q on 4 attributes and a uniform 2-subset; the number of
    distinct attributes observed has an exact distribution summing to 1."""
    q = (Fraction(1, 2), Fraction(1, 4), Fraction(1, 8), Fraction(1, 8))
    plan = Plan(IIDDraws(q, 2), UniformSubset(4, 2))
    counts = plan.distribution().distribution_of(lambda o: len(set(o[0]) | set(o[1])))
    assert sum(p for p, _ in counts) == 1
    assert set(counts.as_dict()) <= {2, 3, 4}
    # brute force over the product space
    expected = {}
    for draws in itertools.product(range(4), repeat=2):
        for s in itertools.combinations(range(4), 2):
            c = len(set(draws) | set(s))
            expected[c] = expected.get(c, 0) + q[draws[0]] * q[draws[1]] / 6
    assert counts.as_dict() == expected
    assert plan.expectation(lambda draws, s: len(s)) == 2


def test_random_halves_and_truncated_geometric():
    halves = Plan(RandomHalves((4, 1, 3, 2))).distribution()
    assert len(halves) == 6 and all(p == Fraction(1, 6) for p, _ in halves)
    assert all(len(a) == 2 and a == tuple(sorted(a)) for (a, b), in
               (v for _, v in halves.leaves))
    geo = Plan(TruncatedGeometric(Fraction(1, 2), 4)).distribution()
    assert geo.residual_mass == Fraction(1, 16) and geo.probability(lambda o: o[0] >= 2) == \
        Fraction(1, 8) + Fraction(1, 16)


def test_d6_k3_enumeration_sizes():
    """d = 6, k = 3: 216 leaves (3 i.i.d. draws), 4320 with a uniform 3-subset. (Its run time
    is measured by ``python -m laocheck.stats.calibration``, not asserted here.)"""
    q = tuple(Fraction(1, 6) for _ in range(6))
    small = Plan(IIDDraws(q, 3)).distribution()
    big = Plan(IIDDraws(q, 3), UniformSubset(6, 3)).distribution()
    assert small.n_runs == 216 and big.n_runs == 4320 and big.total_mass == 1


def test_random_source_matches_enumeration():
    """Sampling the plan with a RandomSource reproduces the enumerated distribution:
    multinomial test at delta = 1e-6 on 20000 draws."""
    q = (Fraction(1, 2), Fraction(1, 3), Fraction(1, 6))
    plan = Plan(IIDDraws(q, 2), UniformSubset(3, 1))
    dist = plan.distribution()
    outcomes = [v for _, v in dist.leaves]
    index = {v: i for i, v in enumerate(outcomes)}
    src = RandomSource(np.random.default_rng(np.random.SeedSequence(5)))
    counts = np.zeros(len(outcomes), dtype=int)
    for _ in range(20_000):
        counts[index[plan.sample(src)]] += 1
    probs = np.array([float(p) for p, _ in dist.leaves])
    assert multinomial_test(counts, probs, delta=TEST_DELTA).passed


def test_random_source_protocol(rng):
    src = RandomSource(rng)
    assert src.categorical([0, 1.0, 0]) == 1
    assert 0 <= src.uniform_int(5) < 5
    s = src.subset(10, 4)
    assert len(s) == 4 and s == tuple(sorted(set(s)))
    a, b = src.split_halves([5, 3, 1, 2])
    assert sorted(a + b) == [1, 2, 3, 5] and a == tuple(sorted(a))
    assert src.bernoulli(1) is True and src.bernoulli(0) is False
    assert src.geometric(1) == 0


def test_expectation_of_sympy_values():
    x = sympy.Symbol("x")
    dist = enumerate_outcomes(lambda src: x if src.bernoulli(Fraction(1, 4)) else 2 * x)
    assert sympy.simplify(dist.expectation() - sympy.Rational(7, 4) * x) == 0


class TestIV:
    def test_guard(self):
        with pytest.raises(InvalidParameterError, match="`max_leaves` must exceed"):
            enumerate_outcomes(lambda src: src.subset(20, 10), max_leaves=1000)

    def test_bad_probabilities(self):
        with pytest.raises(InvalidParameterError, match="`p` must be a nonempty sequence"):
            enumerate_outcomes(lambda src: src.categorical([0.5, 0.6]))
        with pytest.raises(InvalidParameterError, match="`p` must satisfy 0 <= p <= 1"):
            enumerate_outcomes(lambda src: src.bernoulli(1.5))
        with pytest.raises(InvalidParameterError, match="`p` must satisfy 0 < p <= 1"):
            enumerate_outcomes(lambda src: src.geometric(0))
        with pytest.raises(InvalidParameterError, match="`s` must satisfy"):
            UniformSubset(3, 4)
        with pytest.raises(InvalidParameterError, match="`items` must have even length"):
            RandomHalves((1, 2, 3))

    def test_nondeterministic_program(self):
        counter = iter(range(100))

        def program(src):
            return src.uniform_int(2 + next(counter))

        with pytest.raises(InvalidParameterError, match="`program` must draw all"):
            enumerate_outcomes(program)
