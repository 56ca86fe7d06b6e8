"""Pieces of the data-point sampling kernels that exist for speed (HK12 Alg. 1-2, KS15 Alg. 1, 3).

* ``btree_refresh`` (``_common.pxd``): after a step's weights change, the paths above them
  recomputed one after the other, each sum carried in a register, leave the tree
  ``btree_set`` one by one leaves, bit for bit, and the tree built afresh from the final
  weights.
* ``q_alias_rows`` (``_base.py``): q's alias rows with payload 1/(k q_i), reused only for the
  same k and a q equal bit for bit; any other q gets its own table.
* ``outputs`` of the ridge and lasso states: (w̄, w) as the formulas of HK12 Alg. 1 line 14 /
  Alg. 2 lines 3 and 18 give them on the states' lazy representation.
* A fresh ``LassoState``: z± = exp(0 − c) in every cell (HK12 Alg. 2 line 1), a zero tree.
* The look-ahead of the ridge and lasso kernels (``ahead_draw``, ``btree_descend_guessed``
  in ``_common.pxd``): a run draws step t+2's x̃ and the uniform of its j during step t and
  guesses j's index on an earlier tree; the guided descent returns the plain descent's index
  for any guess, and a run draws what one-step calls (which draw nothing ahead) draw, bit for
  bit (HK12 Alg. 1-2, KS15 Alg. 1 and 3: the boxes' order of the random numbers).
"""

import math

import numpy as np
import pytest

from laocheck.estimators import AliasTable
from laocheck.learners import AELR, AERR, DDAELR, DDAERR, GAELR, GAERR
from laocheck.learners._base import q_alias_rows
from laocheck.learners._lasso import LassoState
from laocheck.learners._ridge import _block_scans, _btree_descents, _btree_refresh_trees


@pytest.mark.parametrize("d", [1, 5, 8, 9, 40, 1000])
def test_btree_refresh_gives_the_tree_of_btree_set(d):
    rng = np.random.default_rng(d)
    for trial in range(30):
        w = rng.uniform(0, 1, d) * (rng.uniform(size=d) < 0.7)
        n = int(rng.integers(1, 12))
        idx = rng.integers(0, d, n)                  # repeats included
        values = rng.uniform(0, 2, n) * (rng.uniform(size=n) < 0.8)
        one_by_one, refreshed, fresh = _btree_refresh_trees(w, idx, values)
        np.testing.assert_array_equal(refreshed, one_by_one)
        np.testing.assert_array_equal(refreshed, fresh)
        final = w.copy()
        for i, v in zip(idx, values):                # the last value set wins
            final[i] = v
        assert refreshed[1] == pytest.approx(final.sum(), rel=1e-14, abs=1e-300)


def _payload_rows(q, k):
    """The rows built without the cache: AliasTable(q) with payload 1/(k q_i), 0 at q_i = 0."""
    payload = np.array([1.0 / (k * v) if v > 0 else 0.0 for v in q])
    return AliasTable(q).with_payload(payload)


def test_q_alias_rows_are_reused_only_for_the_same_q_and_k():
    rng = np.random.default_rng(1)
    q = rng.uniform(0, 1, 500) * (rng.uniform(size=500) < 0.9)
    q /= q.sum()
    rows = q_alias_rows(q, 4)
    np.testing.assert_array_equal(rows, _payload_rows(q, 4))
    assert not rows.flags.writeable                   # shared: nobody may change it
    assert q_alias_rows(q.copy(), 4) is rows          # equal contents, another object
    nudged = q.copy()
    nudged[7] = np.nextafter(nudged[7], 1.0)           # one unit in the last place
    other = q_alias_rows(nudged, 4)
    assert other is not rows
    np.testing.assert_array_equal(other, _payload_rows(nudged, 4))
    k3 = q_alias_rows(nudged, 3)                       # the payload depends on k
    np.testing.assert_array_equal(k3, _payload_rows(nudged, 3))
    assert not np.array_equal(k3, other)
    short = q_alias_rows(q[:250] / q[:250].sum(), 4)   # another length
    np.testing.assert_array_equal(short, _payload_rows(q[:250] / q[:250].sum(), 4))


def _data(m=600, d=30, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, (m, d)) / np.sqrt(d)
    return X, X @ rng.uniform(-0.3, 0.3, d) + 0.1 * rng.uniform(-1, 1, m)


@pytest.mark.parametrize("Model", [AERR, DDAERR])
def test_ridge_outputs_are_the_lazy_average_and_the_iterate(Model):
    X, y = _data()
    kw = {"second_moments": np.mean(X * X, axis=0)} if Model is DDAERR else {}
    est = Model(k=3, random_state=2, **kw).fit(X, y)
    st = est._state
    avg, w = st.outputs()
    u, am = st.__reduce__()[1][0], st.__reduce__()[1][3]   # w = s·u; (flushed sum, mark)
    np.testing.assert_array_equal(avg, (am[0::2] + u * (st.C - am[1::2])) / st.t)
    np.testing.assert_array_equal(w, st.coef())
    np.testing.assert_array_equal(est.coef_, avg)
    np.testing.assert_array_equal(est.w_, w)


@pytest.mark.parametrize("Model", [AELR, DDAELR])
def test_lasso_outputs_are_the_lazy_average_and_the_iterate(Model):
    X, y = _data()
    kw = {"second_moments": np.mean(X * X, axis=0)} if Model is DDAELR else {}
    est = Model(k=3, random_state=2, **kw).fit(X, y)
    st = est._state
    avg, w = st.outputs()
    cells = np.asarray(st.__reduce__()[1][3]).reshape(st.d, 8)
    a, b, zp, zm, acc, mark = (cells[:, j] for j in range(6))
    np.testing.assert_array_equal(avg, (acc + (zp - zm) * (st.C - mark)) / st.t)
    # line 3 from the logs: B (exp(a − c) − exp(b − c))/Z. The kernel's exp is libm's, numpy's
    # a SIMD one that depends on the CPU; each is within 4 ulps of exp, so their difference
    # is within 4 ulps of each term (the subtraction cancels when a ≈ b: no relative bound),
    # plus the rounding of the subtraction and the two products: 8 eps (e⁺ + e⁻) B/Z in all.
    ep, em = np.exp(a - st.c), np.exp(b - st.c)
    want = st.B * (ep - em) / st.Z
    bound = 8 * np.finfo(float).eps * st.B * (ep + em) / st.Z
    assert np.all(np.abs(w - want) <= bound), np.max(np.abs(w - want) / bound)
    assert np.all(w[a == b] == 0.0)
    assert np.any(a != b)
    np.testing.assert_array_equal(est.coef_, avg)
    np.testing.assert_array_equal(est.w_, w)
    np.testing.assert_array_equal(st.average(), avg)
    np.testing.assert_array_equal(st.coef(), w)


@pytest.mark.parametrize("d", [1, 7, 1000])
def test_fresh_lasso_state_is_line_one(d):
    st = LassoState(d, 2.0)
    cells = np.asarray(st.__reduce__()[1][3]).reshape(d, 8)
    z = math.exp(0.0 - math.log(2.0 * d))
    np.testing.assert_array_equal(cells[:, :2], 0.0)   # logs of z± = 1
    np.testing.assert_array_equal(cells[:, 2:4], z)    # z± relative to the offset c
    np.testing.assert_array_equal(cells[:, 4:], 0.0)
    assert st.Z == 1.0
    np.testing.assert_array_equal(st.sampling_weights(), 0.0)
    avg, w = st.outputs()
    np.testing.assert_array_equal(avg, 0.0)
    np.testing.assert_array_equal(w, 0.0)
    assert avg is not w


@pytest.mark.parametrize("d", [1, 7, 8, 9, 64, 1000, 5000])
def test_guided_descent_returns_the_plain_descents_index_for_any_guess(d):
    """``btree_guess`` finds the plain descent's index; ``btree_descend_guessed`` follows the
    path to the guess's block and hands over to the plain descent where the comparisons turn
    elsewhere: the same index (or −1) as ``btree_descend`` for every mass, with the right
    guess, a wrong one, −1, and at masses on the blocks' and nodes' boundaries (where a
    comparison is an equality)."""
    rng = np.random.default_rng(d)
    for trial in range(20):
        w = rng.uniform(0, 1, d) * (rng.uniform(size=d) < 0.6)
        if trial % 5 == 0:
            w = np.round(w * 4) / 4                    # dyadic: exact ties on boundaries
        total = _btree_descents(w, [0.0], [-1])[3]
        if total == 0:
            continue
        inside = rng.uniform(0, total, 200)
        edges = np.concatenate([np.cumsum(w)[:-1], np.cumsum(w)[7::8], [0.0]])
        masses = np.concatenate([inside, edges[edges < total]])
        plain, _, guessed, _ = _btree_descents(w, masses, np.full(masses.size, -1))
        # btree_guess (its block's entries counted without branches) is the plain descent's
        # index wherever that is one (-1: rounding past a block's end), else -1 or an entry
        # of the tree's blocks
        np.testing.assert_array_equal(guessed[plain >= 0], plain[plain >= 0])
        assert np.all((guessed >= -1) & (guessed < 8 * ((d + 7) // 8)))
        guesses = [plain,                                          # right
                   np.full(masses.size, -1),                       # none
                   rng.integers(0, d, masses.size),                # anywhere
                   np.clip(plain + rng.integers(-9, 10, masses.size), 0, d - 1)]  # nearby
        for guess in guesses:
            guided = _btree_descents(w, masses, guess)[1]
            np.testing.assert_array_equal(guided, plain)


@pytest.mark.parametrize("make", [
    lambda: AERR(k=4, eta=0.05),
    lambda: GAERR(k=3, eta=0.05, n_inner=3, q=np.linspace(1, 2, 40) / np.linspace(1, 2, 40).sum()),
    lambda: DDAERR(k=4, eta=0.05, second_moments=np.linspace(0.5, 1, 40)),
    lambda: AELR(k=4, eta=0.2),
    lambda: GAELR(k=3, eta=0.2, n_inner=3),
    lambda: DDAELR(k=4, eta=0.2, second_moments=np.linspace(0.5, 1, 40)),
], ids=["AERR", "GAERR-q-n_inner3", "DDAERR", "AELR", "GAELR-n_inner3", "DDAELR"])
def test_look_ahead_runs_equal_one_step_calls(make):
    """A run of m steps draws step t+2's x̃ and its first j's uniform during step t (the j
    guessed on w_{t+1}, settled after step t+1's update); a call of one step draws nothing
    ahead. The same random numbers must be drawn in the same order: the same draws, iterate
    and average bit for bit."""
    rng = np.random.default_rng(11)
    m, d = 600, 40
    X = rng.uniform(-1, 1, (m, d)) / np.sqrt(d)
    y = np.clip(X[:, :5].sum(axis=1) + 0.1 * rng.normal(size=m), -1, 1)
    y[:4] = 0.0        # EG± (w_1 = 0) stays at w = 0 there: no j is drawn, none may be ahead
    whole = make().set_params(random_state=5, record_draws=True).fit(X, y)
    steps = make().set_params(random_state=5, record_draws=True, n_total=m)
    for t in range(m):
        steps.partial_fit(X[t:t + 1], y[t:t + 1])
    assert np.all(whole.draws_[10:, -1] >= 0)         # j drawn (and guessed ahead) each step
    np.testing.assert_array_equal(whole.draws_, steps.draws_)
    np.testing.assert_array_equal(whole.w_, steps.w_)
    np.testing.assert_array_equal(whole.coef_, steps.coef_)


def _scan_that_stops(block, u):
    """The blocked sum tree's scan of a block as first written: stop at the first entry
    whose weight exceeds what is left of u (Python floats are the same doubles)."""
    for r, w in enumerate(block):
        if u < w:
            return r
        u -= w
    return -1


def test_block_scan_counts_to_the_entry_the_stopping_scan_returns():
    """``block_scan`` counts, without branches, the entries whose end lies at or below u:
    the entry (or −1 past the block) the stopping scan returns, for zero weights, ties on
    the entries' ends (dyadic weights), magnitudes from subnormal to 1e300, and u at 0, at
    each prefix sum and just below and above it."""
    rng = np.random.default_rng(8)
    blocks, masses = [], []
    for trial in range(4000):
        scale = 10.0 ** rng.integers(-310, 300)
        w = rng.uniform(0, 1, 8) * (rng.uniform(size=8) < 0.7)
        if trial % 3 == 0:
            w = np.round(w * 8) / 8
        w = w * scale
        ends = np.cumsum(w)
        candidates = [0.0, rng.uniform(0, max(ends[-1], 5e-324)),
                      float(ends[rng.integers(8)])]
        e = candidates[-1]
        candidates += [np.nextafter(e, 0.0), np.nextafter(e, np.inf)]
        for u in candidates:
            blocks.append(w)
            masses.append(u)
    blocks, masses = np.array(blocks), np.array(masses)
    expected = [_scan_that_stops(b, u) for b, u in zip(blocks.tolist(), masses.tolist())]
    got = _block_scans(blocks, masses)
    np.testing.assert_array_equal(got, expected)
    assert len(set(expected)) == 9                   # every entry and −1 were reached
