"""The Cython sampling primitives draw from exactly the distributions they claim.

Every distribution check is an exact multinomial test (Clopper-Pearson per category,
Bonferroni) from ``laocheck.stats`` with false-failure probability δ = 1e-6; fixed seeds keep the
suite deterministic, and δ bounds the chance that a seed would have been unlucky.
"""
from itertools import permutations
from math import comb

import numpy as np
import pytest

from laocheck.estimators import AliasTable, SumTree
from laocheck.estimators._samplers import _py_bounded, _py_geometric_half, _py_subsets
from laocheck.stats import multinomial_test

DELTA = 1e-6
N = 200_000


def _counts(draws, size):
    return np.bincount(draws, minlength=size)


@pytest.mark.parametrize("p", [
    [1.0],
    [0.5, 0.5],
    [0.1, 0.0, 0.6, 0.3],
    [1e-3, 0.25, 0.0, 0.0, 0.749],
    list(np.arange(1, 17) ** 2 / np.sum(np.arange(1, 17) ** 2)),
])
def test_alias_table_distribution(p):
    table = AliasTable(p)
    draws = table.sample(np.random.default_rng(11), N)
    counts = _counts(draws, len(p))
    assert counts[np.asarray(p) == 0].sum() == 0, "a zero-probability index was drawn"
    assert multinomial_test(counts, p, delta=DELTA).passed


def test_alias_table_normalises_and_refuses_bad_weights():
    table = AliasTable([2.0, 6.0])
    np.testing.assert_allclose(table.probabilities, [0.25, 0.75])
    for bad in ([], [0.0, 0.0], [1.0, np.nan], [-1.0, 2.0]):
        with pytest.raises(ValueError):
            AliasTable(bad)


def test_sum_tree_draws_and_updates():
    rng = np.random.default_rng(12)
    tree = SumTree([1.0, 0.0, 3.0, 0.0, 4.0])
    counts = _counts(tree.sample(rng, N), 5)
    assert multinomial_test(counts, np.array([1, 0, 3, 0, 4]) / 8, delta=DELTA).passed
    tree.update(1, 8.0)
    tree.update(4, 0.0)
    assert tree.total == 12.0
    counts = _counts(tree.sample(rng, N), 5)
    assert counts[[3, 4]].sum() == 0
    assert multinomial_test(counts, np.array([1, 8, 3, 0, 0]) / 12, delta=DELTA).passed


def test_sum_tree_total_has_no_drift_after_many_updates():
    rng = np.random.default_rng(13)
    d = 1000
    tree = SumTree(np.ones(d))
    weights = np.ones(d)
    for _ in range(20_000):
        i = int(rng.integers(d))
        weights[i] = float(rng.random()) * 10 ** float(rng.integers(-8, 8))
        tree.update(i, weights[i])
    # the root is recomputed from its children: equal to a fresh pairwise sum up to rounding
    assert abs(tree.total - SumTree(weights).total) <= 1e-12 * tree.total
    np.testing.assert_array_equal(tree.weights, weights)


def test_sum_tree_validation():
    with pytest.raises(ValueError):
        SumTree([])
    tree = SumTree([1.0, 2.0])
    for i, w in ((2, 1.0), (-1, 1.0), (0, -1.0), (0, float("inf")), (0, float("nan"))):
        with pytest.raises(ValueError):
            tree.update(i, w)
    with pytest.raises(ValueError):
        SumTree([0.0, 0.0]).sample(np.random.default_rng(0), 1)


@pytest.mark.parametrize("n", [1, 2, 3, 7, 1000, 2**31 + 7])
def test_bounded_integers_are_uniform(n):
    draws = _py_bounded(np.random.default_rng(14), n, N)
    assert draws.min() >= 0 and draws.max() < n
    if n <= 1000:
        assert multinomial_test(_counts(draws, n), np.full(n, 1 / n), delta=DELTA).passed
    else:
        # for n > 2**31 a power-of-two bucketing must still be uniform: the top/bottom halves
        halves = (draws >= n // 2).astype(int)
        p_top = (n - n // 2) / n
        assert multinomial_test(_counts(halves, 2), [1 - p_top, p_top], delta=DELTA).passed


def test_geometric_half_distribution():
    draws = _py_geometric_half(np.random.default_rng(15), N)
    cap = 20
    counts = _counts(np.minimum(draws, cap), cap + 1)
    probs = np.array([2.0 ** -(n + 1) for n in range(cap)] + [2.0 ** -cap])
    assert multinomial_test(counts, probs, delta=DELTA).passed


@pytest.mark.parametrize("n,s", [(4, 2), (5, 3), (6, 6), (6, 1)])
def test_partial_shuffle_gives_uniform_ordered_samples(n, s):
    """Every ordered s-sample without replacement has probability (n - s)!/n!."""
    draws = _py_subsets(np.random.default_rng(16), n, s, N)
    assert all(len(set(row)) == s for row in draws[:1000])
    index = {perm: i for i, perm in enumerate(permutations(range(n), s))}
    cats = np.array([index[tuple(row)] for row in draws])
    k = len(index)
    assert k == comb(n, s) * np.prod(range(1, s + 1))
    assert multinomial_test(_counts(cats, k), np.full(k, 1 / k), delta=DELTA).passed


def test_same_seed_same_draws_and_streams_are_shared():
    table = AliasTable([0.2, 0.3, 0.5])
    a = table.sample(np.random.default_rng(5), 1000)
    b = table.sample(np.random.default_rng(5), 1000)
    np.testing.assert_array_equal(a, b)
    rng = np.random.default_rng(5)
    first = table.sample(rng, 10)
    second = table.sample(rng, 10)      # the Generator advanced: a new stretch of the stream
    assert not np.array_equal(first, second)
