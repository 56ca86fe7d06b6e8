"""AER's ordered structure (the B+-tree of ``laocheck.learners._aer``) against a plain sorted
NumPy model: random insert/erase/projection/renormalisation sequences at small d compare the
kept keys and their order exactly, and θ of the projection (11) (Duchi et al. 2008, Fig. 1) and
the law of the i ∝ |w_i| draws (CB11 Fig. 2) to a derived rounding bound.

Rounding bounds (u = 2⁻⁵³, n active keys, all keys a_i > Θ >= 0 so every summand is positive):
a sum of n positive terms in any order is within (n − 1)·u·Σ of the exact sum (Higham, Accuracy
and Stability of Numerical Algorithms, eq. (4.4)); a subtree's weight Σa − Θ·count adds the
rounding of the product and of the difference (2u of Σa + Θ·n); a descent subtracts at most
BMAX = 15 weights per level (u·total each) over at most 4 levels at d <= 300. So every
computed cumulative weight is within E = (n + 2 + 60 + 2)·u·(Σa + Θ·n) of the exact one, and
θ = (S_ρ − R)/ρ within (n + 3)·u·(Σa + R) (S_ρ's sum, the subtraction and the division; a
rank ρ that differs at a near tie gives the same θ to that bound, θ being continuous).
"""
import math
import pickle

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from laocheck.learners._aer import AERState

U = 2.0 ** -53
D = 300
SETTINGS = settings(derandomize=True, max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

# increments above Θ: few distinct values (ties in key, broken by index) and spread ones
INCREMENTS = st.one_of(st.sampled_from([0.125, 0.5, 1.0, 3.0]),
                       st.floats(min_value=1e-3, max_value=1e3))
OPS = st.lists(st.one_of(
    st.tuples(st.just("toggle"), st.integers(0, D - 1), INCREMENTS),
    st.tuples(st.just("fill"), st.integers(0, D - 1), st.integers(1, 200), INCREMENTS),
    st.tuples(st.just("project"), st.floats(min_value=0.01, max_value=0.99)),
    st.tuples(st.just("renormalise"), st.floats(min_value=0.05, max_value=1.0)),
), min_size=1, max_size=60)


class Model:
    """The active keys as a dict; order, θ and draws computed by sorting (math.fsum sums)."""

    def __init__(self):
        self.key = {}
        self.theta = 0.0

    def order(self):
        return sorted(self.key, key=lambda i: (self.key[i], i))

    def bound(self):
        n = len(self.key)
        return (n + 64) * U * (math.fsum(self.key.values()) + self.theta * n)

    def pivot(self, R):
        """Duchi et al. 2008, Fig. 1 on the raw keys: the largest rank ρ (keys decreasing)
        with a_(ρ)·ρ > S_ρ − R; θ = (S_ρ − R)/ρ."""
        a = sorted(self.key.values(), reverse=True)
        rho, s_rho = 0, 0.0
        for j in range(1, len(a) + 1):
            s = math.fsum(a[:j])
            if a[j - 1] * j > s - R:
                rho, s_rho = j, s
        return (s_rho - R) / rho


def check_against(state, model):
    assert state.check_tree() == model.order()
    total, count = state._totals()
    n = len(model.key)
    assert count == n
    exact = math.fsum(model.key.values())
    assert abs(total - exact) <= max(n - 1, 0) * U * exact
    if n == 0:
        return
    # the draws: i owns [C_(i−1), C_i) of [0, Σ (a − Θ)) in key order (C by math.fsum)
    E = model.bound()
    widths = [model.key[i] - model.theta for i in model.order()]
    lo = 0.0
    for rank, i in enumerate(model.order()):
        hi = math.fsum(widths[:rank + 1])
        if hi - lo > 2 * E:
            assert state._descend(lo + E) == i
            assert state._descend(hi - E) == i
            assert state._descend(0.5 * (lo + hi)) == i
        lo = hi


@SETTINGS
@given(OPS)
def test_tree_matches_a_sorted_model(ops):
    state = AERState(D, 1.0, 1.0)
    model = Model()
    for op in ops:
        if op[0] == "toggle":
            _, i, inc = op
            if i in model.key:
                state._erase(i)
                del model.key[i]
            else:
                model.key[i] = model.theta + inc
                state._insert(i, model.key[i])
        elif op[0] == "fill":
            _, start, count, inc = op
            for j, i in enumerate(range(start, min(D, start + count))):
                if i not in model.key:
                    model.key[i] = model.theta + inc * (1 + (j % 7) / 8)
                    state._insert(i, model.key[i])
        elif op[0] == "project" and model.key:
            excess = math.fsum(a - model.theta for a in model.key.values())
            R = op[1] * excess
            if excess - 2 * model.bound() <= R:
                continue                      # too close to the no-op boundary to compare
            expected = max(model.theta, model.pivot(R))
            theta = state._project(R)
            n = len(model.key)
            tol = (n + 3) * U * (math.fsum(model.key.values()) + R) * 2
            assert abs(theta - expected) <= tol
            model.theta = theta               # continue from the kernel's θ, exactly
            model.key = {i: a for i, a in model.key.items() if a > theta}
        elif op[0] == "renormalise":
            state.s = op[1]                   # a ← s(a − Θ) in the kernel's arithmetic
            state._renormalise()
            model.key = {i: op[1] * (a - model.theta) for i, a in model.key.items()}
            model.theta = 0.0
            assert state.theta == 0.0 and state.s == 1.0
        check_against(state, model)
    clone = pickle.loads(pickle.dumps(state))
    assert clone.check_tree() == state.check_tree()
    assert clone._totals() == state._totals()
    for i in list(model.key)[::2]:            # the clone keeps working after a round trip
        clone._erase(i)
    clone.check_tree()


def test_renormalisation_that_rounds_keys_together_keeps_every_coordinate_findable():
    """Adjacent keys whose indices decrease: s(a − Θ) rounds some of them to one value, and
    the tie must then be ordered by index for erase to find each coordinate."""
    state = AERState(40, 1.0, 1.0)
    for i in range(40):
        state._insert(i, 1.5 + (39 - i) * 2.0 ** -52)
    state.s = 1.5           # by hand: [1.5, 2) (spacing 2⁻⁵²) onto [2.25, 3) (spacing 2⁻⁵¹)
    state._renormalise()
    keys = [1.5 * (1.5 + (39 - i) * 2.0 ** -52) for i in range(40)]
    assert len(set(keys)) < 40                # the premise: some keys collide
    order = state.check_tree()
    assert order == sorted(range(40), key=lambda i: (keys[i], i))
    for i in np.random.default_rng(0).permutation(40):
        state._erase(int(i))
        state.check_tree()
    assert state.root == -1


def test_state_refuses_a_d_its_int_indices_cannot_hold():
    """Nodes hold coordinate indices as C ints: d >= 2³¹ is refused before any allocation."""
    with pytest.raises(ValueError, match=r"d=2147483648.*d < 2\*\*31"):
        AERState(2**31, 1.0, 1.0)
    with pytest.raises(ValueError, match=r"d=0"):
        AERState(0, 1.0, 1.0)


@pytest.mark.parametrize("d,B", [(2000, 1.0), (300, 0.05)])
def test_look_ahead_steps_equal_one_step_calls(d, B):
    """A run of m steps shuffles each next C as soon as a step's last random number is drawn
    and erases the first coordinate of C before ŷ; a call of one step does neither. Both must
    draw the same random numbers in the same order and apply the same tree operations: the
    same draws, iterate and average bit for bit, and a consistent tree (every leaf_of exact)."""
    from laocheck.learners import AER

    rng = np.random.default_rng(4)
    m = 1500
    X = rng.uniform(-1, 1, (m, d)) / np.sqrt(d)
    y = np.clip(X[:, :5].sum(axis=1) + 0.1 * rng.normal(size=m), -1, 1)
    whole = AER(k=4, B=B, n_total=m, random_state=8, record_draws=True).fit(X, y)
    steps = AER(k=4, B=B, n_total=m, random_state=8, record_draws=True)
    for t in range(m):
        steps.partial_fit(X[t:t + 1], y[t:t + 1])
    np.testing.assert_array_equal(whole.draws_, steps.draws_)
    np.testing.assert_array_equal(whole.w_, steps.w_)
    np.testing.assert_array_equal(whole.coef_, steps.coef_)
    order = whole._state.check_tree()
    assert len(order) > 2 * 15                # more than one leaf: splits and merges happened


def test_renormalisation_reorders_ids_across_leaves_and_keeps_leaf_of_exact():
    """300 keys in [1.5, 2), indices decreasing with the key, renormalised with s = 2⁻¹⁰⁷⁰:
    s·a falls among the subnormals, 2⁻¹⁰⁷⁴ apart, so the keys collapse onto 9 values in runs of
    about 37, longer than a leaf (<= 15 entries). Re-sorting each run's ids by index moves ids
    between leaves; every coordinate's leaf (leaf_of, the erase's prefetch hint, checked by
    check_tree) must follow, and each coordinate stays findable."""
    n = 300
    state = AERState(n, 1.0, 1.0)
    keys = {i: 1.5 + (n - 1 - i) * (0.5 / n) for i in range(n)}
    for i, a in keys.items():
        state._insert(i, a)
    state.check_tree()
    s = 2.0 ** -1070
    state.s = s
    state._renormalise()
    new = {i: s * a for i, a in keys.items()}
    assert len(set(new.values())) <= 10        # the premise: long runs of equal keys
    order = state.check_tree()
    assert order == sorted(range(n), key=lambda i: (new[i], i))
    for i in np.random.default_rng(1).permutation(n)[:150]:
        state._erase(int(i))
        state.check_tree()


def test_a_node_pool_of_the_wrong_size_is_refused_on_unpickling():
    """A pickled state whose node bytes do not match its node count (a corrupted pickle, or
    nodes of another layout) raises a ValueError naming the sizes instead of reading garbage."""
    state = AERState(50, 1.0, 1.0)
    for i in range(40):
        state._insert(i, 1.0 + i / 64)
    restore, args = state.__reduce__()
    assert restore(*args).check_tree() == state.check_tree()      # the round trip works
    for nodes in (args[4][:-8], args[4] + bytes(64)):
        bad = args[:4] + (nodes,) + args[5:]
        with pytest.raises(ValueError, match=r"node pool .* does not fit its d=50"):
            restore(*bad)
