# cython: language_level=3
"""O(k + log d) steps of the ridge family: HK12 Alg. 1 (AERR), KS15 Alg. 1 (GAERR, DDAERR).

The iterate is kept as w = s·u (a scale s and a vector u), so that

* the gradient step w − η g̃ touches only the k coordinates of x̃ (u_i −= η φ̃ x̃_i / s);
* the projection onto {‖w‖₂ <= B} (HK12 Alg. 1 line 12) multiplies s only, with ‖u‖₂²
  maintained incrementally and recomputed exactly every max(d, 1024) steps (bounded drift);
* j ∝ w_j² (line 8) is drawn from a blocked sum tree over u_j² (``_common.pxd``), updated
  at the changed coordinates;
* every random number is drawn as early as the boxes' order of the random stream allows
  (step t+2's x̃ during step t, its j's uniform too, the index guessed on w_{t+1}:
  ``ahead_draw``), and the row entries and state it points to are requested at once, so
  that a step rarely waits for memory; runs are bit-identical to the boxes' order;
* the average w̄ = (1/m) Σ_t w_t (line 14) is accumulated lazily: C = Σ_τ s_τ is a running
  sum, and a coordinate's contribution u_i·(C − C_i) is flushed only when u_i changes (the
  flushed sum and the mark C_i of a coordinate sit side by side in ``am``: one cache line).

When s falls below 2⁻⁸ (it only shrinks, by projections) every coordinate is flushed, s is
folded into u and C restarts: all s_τ summed into one C stay within a factor 2⁸, so C − C_i
loses no precision to cancellation (O(d) per 256-fold shrinkage).
``SparseRidgeState`` runs the same lines on the coordinates a run has moved only (the others
share one value and one lazy-average record; see its docstring): the learners use it from
d = 2¹⁶ on. Its coordinate -> slot table is ``_common.pxd``'s.
Randomness: the caller's Generator through ``bitgen_t`` (see laocheck.estimators).

The two state classes are written once for this module and ``_lasso.pyx`` (both layouts,
both families) in the Tempita template ``_states.pxi.tp``, their step loops (``dense_steps``,
``sparse_steps``) in ``_steps.pxi.tp``; setup.py renders them at every build into
``_ridge_states.pxi`` and ``_ridge_steps.pxi``, included below. This module holds what only
ridge has: the OGD step and projection, and AESVR's loop (``aesvr_steps``).
"""
import numpy as np
cimport cython
from libc.math cimport isfinite, ldexp, sqrt
from libc.stdlib cimport free, malloc, realloc
from numpy.random cimport bitgen_t

from laocheck.estimators._rng cimport bounded, geometric_half, uniform01
from laocheck.estimators._samplers cimport bitgen_of

from laocheck.data._oracle cimport RowOracle

from ._common cimport (add_seen, Ahead, ahead_draw, ahead_hint_oracle, ahead_init, ahead_next,
                       ahead_settle, bad_entry, block_scan, btree_build, btree_descend,
                       btree_descend_guessed, btree_draw, btree_guess, btree_refresh, btree_set,
                       __builtin_prefetch, draw_data_point, draw_indices, Fault, fault_clear,
                       fault_set, merge_x_tilde, row_at, Slots, slots_add, slots_free, slots_grow,
                       slots_lookup, slots_to_identity)


cdef inline double sparse_step(double* u, double* am, double* wt, double* tree, long cap,
                               const long* idx, const double* val, long nnz, double eta_phi,
                               double s, double C, double norm_sq) noexcept nogil:
    """HK12 Alg. 1 lines 10-11 on the k coordinates of x̃: u_i −= η φ̃ x̃_i / s, each changed
    coordinate flushed into the lazy average first and its weight u_i² set in the sum tree.
    Returns the updated ‖u‖² (clamped at 0)."""
    cdef long a, i
    cdef double old, new
    for a in range(nnz):
        i = idx[a]
        old = u[i]
        am[2 * i] += old * (C - am[2 * i + 1])
        am[2 * i + 1] = C
        new = old - eta_phi * val[a] / s
        u[i] = new
        norm_sq += new * new - old * old
        wt[i] = new * new
    btree_refresh(wt, tree, cap, idx, nnz)
    if norm_sq < 0.0:
        norm_sq = 0.0
    return norm_sq


cdef inline double project_l2(double s, double norm_sq, double B) noexcept nogil:
    """HK12 Alg. 1 line 12: w ← w·B/max(‖w‖₂, B), on the scale s of w = s·u."""
    cdef double norm = s * sqrt(norm_sq)
    if norm > B:
        s *= B / norm
    return s


cdef inline long record_put(long* rec, long cap_rec, long pos, long value) noexcept nogil:
    """Append ``value`` to a flat draw record at ``pos``; −1 (recording stopped) once full."""
    if pos < 0:
        return pos
    if pos + 1 > cap_rec:
        return -1
    rec[pos] = value
    return pos + 1


# The four state classes (RidgeState and SparseRidgeState here, LassoState and
# SparseLassoState in _lasso.pyx) and their step loops (``dense_steps``, ``sparse_steps``) are
# generated at build time by setup.py from the Tempita templates ``_states.pxi.tp`` and
# ``_steps.pxi.tp``, which hold each of them once for both families and both layouts.
include "_ridge_states.pxi"
include "_ridge_steps.pxi"


cdef long aesvr_steps(RidgeState self, object rng, const double[:, ::1] X,
                      const double[::1] Y, long k, double eta, const double[::1] a,
                      long big_n, long threshold, double eps, double delta,
                      long[::1] attributes, object record, long n_steps) except *:
    """The steps of :meth:`RidgeState.run_aesvr` (HK12 Alg. 4 with Procedure 3's GenEst)."""
    cdef bitgen_t* bg = bitgen_of(rng)
    cdef long P = X.shape[0], d = self.d, n_coef = a.shape[0], row = 0
    cdef long m = P if n_steps < 0 else n_steps
    cdef bint recording = record is not None
    cdef long[::1] rec = np.zeros(1, dtype=np.int_) if not recording else record
    cdef long cap_rec = rec.shape[0], pos = 0
    cdef long* recp = &rec[0]
    cdef double* u = &self.u[0]
    cdef double* am = &self.am[0]
    cdef double* wt = &self.wt[0]
    cdef double* tree = &self.tree[0]
    cdef long cap = self.cap, nblocks = self.nblocks
    cdef long* idx = &self.idx[0]
    cdef double* val = &self.val[0]
    cdef long[::1] xrec_arr = np.zeros(k, dtype=np.int_)
    cdef long* xrec = &xrec_arr[0]
    cdef const double* xrow
    cdef long step, call, order, r, q, mcount, j, nnz, seen, bad = -1
    cdef double phi, prod, theta, ylab, y, xj
    cdef double s = self.s, C = self.C, norm_sq = self.norm_sq, B = self.B
    fault_clear(&self.F)
    with rng.bit_generator.lock, nogil:
        for step in range(m):
            xrow = &X[row, 0]
            y = Y[row]
            if bad_entry(y) and fault_set(&self.F, row, -1, y):
                break                                            # nothing changed yet
            C += s
            nnz = draw_data_point(bg, xrow, d, k, True, NULL, idx, val, xrec, &bad)
            if nnz < 0:                                          # a bad x_i: stop
                fault_set(&self.F, row, bad, xrow[bad])
                break
            if recording:
                for r in range(k):
                    pos = record_put(recp, cap_rec, pos, xrec[r])
            seen = nnz
            phi = 0.0
            for call in range(2):
                ylab = (y + delta) / eps if call == 0 else (y - delta) / eps
                order = geometric_half(bg)                       # Proc. 3 line 2
                if recording:
                    pos = record_put(recp, cap_rec, pos, order)
                mcount = 1 if order <= threshold else big_n      # line 3
                prod = 1.0
                for r in range(order):                           # lines 4-7 / 9-12
                    if norm_sq <= 0.0:
                        theta = -ylab                            # w = 0 (fallback)
                    else:
                        theta = 0.0
                        for q in range(mcount):
                            j = btree_draw(bg, wt, tree, cap, nblocks)
                            if recording:
                                pos = record_put(recp, cap_rec, pos, j)
                            seen = add_seen(idx, seen, j)
                            xj = xrow[j]
                            if bad_entry(xj) and self.F.row < 0:
                                fault_set(&self.F, row, j, xj)   # stop after the draws
                            theta += xj / u[j]
                        # ‖w‖² x′_j/w_j = s‖u‖² x_j/(ε u_j), averaged; minus y±
                        theta = s * norm_sq * theta / (mcount * eps) - ylab
                    prod *= theta
                if order < n_coef and a[order] != 0.0:       # line 14
                    phi += ldexp(a[order], <int>(order + 1)) * prod
            phi *= 0.5
            if self.F.row >= 0:
                break
            attributes[step] = seen
            norm_sq = sparse_step(u, am, wt, tree, cap, idx, val, nnz, eta * phi, s, C,
                                  norm_sq)                       # Alg. 1 lines 10-11
            if not isfinite(norm_sq):                            # overflow: stop
                self.failed = self.t + 1
                break
            s = project_l2(s, norm_sq, B)                        # line 12
            if self.upkeep_due(s):
                self.upkeep(s, C, norm_sq)
                s, C, norm_sq = self.s, self.C, self.norm_sq
            row += 1
            if row == P:
                row = 0
    self.s, self.C, self.norm_sq = s, C, norm_sq
    return pos


def _restore_sparse_ridge(d, B, scalars, keys, u, am):
    """Unpickle a SparseRidgeState (its tree and hash table rebuilt from the slots)."""
    state = SparseRidgeState(d, scalars[7], B)
    state._load(scalars, keys, u, am)
    return state


def _restore_ridge(u, B, scalars, am):
    """Unpickle a RidgeState (its sum tree is rebuilt from u², which is what it holds)."""
    state = RidgeState(u, B)
    state._load(scalars, am)
    return state


def _btree_of(weights):
    """(wt, tree, cap, nblocks): the learners' blocked sum tree over ``weights`` (for the
    tests' wrappers below)."""
    w = np.ascontiguousarray(weights, dtype=np.float64)
    cdef long d = w.shape[0], nblocks = (d + 7) // 8, cap = 1
    while cap < nblocks:
        cap *= 2
    wt_arr = np.zeros(8 * nblocks)
    wt_arr[:d] = w
    tree_arr = np.zeros(2 * cap)
    cdef double[::1] wt = wt_arr
    cdef double[::1] tree = tree_arr
    btree_build(&wt[0], &tree[0], cap, nblocks)
    return wt_arr, tree_arr, cap, nblocks


def _btree_sample(weights, rng, Py_ssize_t size):
    """``size`` draws ∝ ``weights`` from the learners' blocked sum tree (for its tests)."""
    cdef double[::1] w = np.ascontiguousarray(weights, dtype=np.float64)
    wt_arr, tree_arr, cap_, nblocks_ = _btree_of(w)
    cdef double[::1] wt = wt_arr
    cdef double[::1] tree = tree_arr
    cdef long d = w.shape[0], cap = cap_, nblocks = nblocks_, i
    cdef long[::1] out = np.empty(size, dtype=np.int_)
    cdef bitgen_t* bg = bitgen_of(rng)
    cdef Py_ssize_t t
    with rng.bit_generator.lock, nogil:
        for t in range(size):
            out[t] = btree_draw(bg, &wt[0], &tree[0], cap, nblocks)
    built = np.asarray(tree).copy()
    # the update path: every weight set again through btree_set must give the same tree
    for i in range(d):
        btree_set(&wt[0], &tree[0], cap, i, w[i])
    return np.asarray(out), built, np.asarray(tree).copy()


def _btree_refresh_trees(weights, idx, values):
    """The sum tree of ``weights`` after weight ``idx[a]`` is set to ``values[a]`` for each a
    in turn, three ways (for the tests of ``btree_refresh``): through ``btree_set`` one by
    one, through ``btree_refresh`` once after all the weights are set, and built afresh."""
    cdef long[::1] ix = np.ascontiguousarray(idx, dtype=np.int_)
    cdef double[::1] v = np.ascontiguousarray(values, dtype=np.float64)
    wt1_arr, t1_arr, cap_, nblocks_ = _btree_of(weights)
    wt2_arr, t2_arr, _, _ = _btree_of(weights)
    cdef double[::1] wt1 = wt1_arr, wt2 = wt2_arr, t1 = t1_arr, t2 = t2_arr
    cdef double[::1] t3 = np.zeros(t1_arr.shape[0])
    cdef long cap = cap_, nblocks = nblocks_, a, n = ix.shape[0]
    for a in range(n):
        btree_set(&wt1[0], &t1[0], cap, ix[a], v[a])
        wt2[ix[a]] = v[a]
    if n > 0:
        btree_refresh(&wt2[0], &t2[0], cap, &ix[0], n)
    btree_build(&wt2[0], &t3[0], cap, nblocks)
    return np.asarray(t1).copy(), np.asarray(t2).copy(), np.asarray(t3).copy()


def _btree_descents(weights, masses, guesses):
    """For each (mass, guess): ``btree_descend``, ``btree_descend_guessed`` and
    ``btree_guess`` at that mass of the learners' sum tree over ``weights``, and the tree's
    total (for the tests of the guided descent, which must return the plain descent's index
    for any guess, and of the guess)."""
    cdef double[::1] u = np.ascontiguousarray(masses, dtype=np.float64)
    cdef long[::1] g = np.ascontiguousarray(guesses, dtype=np.int_)
    wt_arr, tree_arr, cap_, nblocks_ = _btree_of(weights)
    cdef double[::1] wt = wt_arr
    cdef double[::1] tree = tree_arr
    cdef long cap = cap_, nblocks = nblocks_, i
    cdef long[::1] plain = np.empty(u.shape[0], dtype=np.int_)
    cdef long[::1] guided = np.empty(u.shape[0], dtype=np.int_)
    cdef long[::1] guess = np.empty(u.shape[0], dtype=np.int_)
    for i in range(u.shape[0]):
        plain[i] = btree_descend(&wt[0], &tree[0], cap, nblocks, u[i])
        guided[i] = btree_descend_guessed(&wt[0], &tree[0], cap, nblocks, u[i], g[i])
        guess[i] = btree_guess(&wt[0], &tree[0], cap, nblocks, u[i])
    return np.asarray(plain), np.asarray(guided), np.asarray(guess), float(tree[1])


def _block_scans(blocks, masses):
    """``block_scan`` of each row of ``blocks`` (n, 8) at the mass of the same row (for its
    test against the scan that stops at the first entry, as the sum tree's descent read)."""
    cdef double[:, ::1] w = np.ascontiguousarray(blocks, dtype=np.float64)
    cdef double[::1] u = np.ascontiguousarray(masses, dtype=np.float64)
    cdef long[::1] out = np.empty(u.shape[0], dtype=np.int_)
    cdef Py_ssize_t i
    if w.shape[1] != 8 or w.shape[0] != u.shape[0]:
        raise ValueError("blocks must be (n, 8) and masses (n,)")
    for i in range(u.shape[0]):
        out[i] = block_scan(&w[i, 0], 0, u[i])
    return np.asarray(out)
