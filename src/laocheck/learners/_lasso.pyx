# cython: language_level=3
"""O(k + log d) steps of the lasso family: HK12 Alg. 2 (AELR), KS15 Alg. 3 (GAELR, DDAELR).

EG± is kept in the log domain: a_i = log z⁺_i and b_i = log z⁻_i never overflow or underflow
(each step moves them by at most 1, as η·|ḡ_i| <= 1 after clipping). The linear values are
taken relative to a common offset c, z±_i = exp(a_i − c), and

* only the k coordinates of x̃ change per step (ḡ_i = clip(φ̃ x̃_i, 1/η) is k-sparse);
* the normaliser Z = Σ_i z⁺_i + z⁻_i is updated incrementally and recomputed exactly every
  max(d, 1024) steps;
* j ∝ |w_j| = |z⁺_j − z⁻_j| (line 9) is drawn from a blocked sum tree (``_common.pxd``);
  random numbers are drawn as early as the boxes' order allows and their memory requested
  at once (``ahead_draw``, as in ``_ridge.pyx``; bit-identical runs);
* w_t = B (z⁺ − z⁻)/Z_t = s_t u with s_t = B/Z_t: the average w̄ is accumulated lazily as in
  ``_ridge.pyx`` (C = Σ_τ s_τ; a coordinate is flushed when it changes);
* when Z leaves [2⁻⁸, 2⁸] the offset moves to c + log Z (so Z ≈ 1 again): every coordinate is
  flushed and C restarts. This keeps every s_τ within a factor 2¹⁶ of the others in one
  C (no cancellation in C − C_i) and every exp(a_i − c) <= 2⁸ (no overflow), at O(d) per
  256-fold change of Z.

``SparseLassoState`` runs the same lines on the coordinates a run has moved only (the others
are at line 1's z± = 1: |w_i| = 0, a share of Z in closed form; see its docstring): the learners
use it from d = 2¹⁶ on, except from a warm start.

The two state classes are written once for this module and ``_ridge.pyx`` (both layouts,
both families) in the Tempita template ``_states.pxi.tp``, their step loops (``dense_steps``,
``sparse_steps``) in ``_steps.pxi.tp``; setup.py renders them at every build into
``_lasso_states.pxi`` and ``_lasso_steps.pxi``, included below. This module holds what only
lasso has: the EG± cell update.
"""
import numpy as np
cimport cython
from libc.math cimport exp, fabs, isfinite, log
from libc.stdlib cimport free
from libc.string cimport memcpy
from numpy.random cimport bitgen_t

from laocheck.estimators._samplers cimport bitgen_of

from laocheck.data._oracle cimport RowOracle

from ._common cimport (add_seen, Ahead, ahead_draw, ahead_hint_oracle, ahead_init, ahead_next,
                       ahead_settle, bad_entry, btree_build, btree_draw, btree_refresh,
                       __builtin_prefetch, draw_indices, Fault, fault_clear, fault_set,
                       merge_x_tilde, row_at, Slots, slots_add, slots_free, slots_grow,
                       slots_lookup, slots_to_identity)


def _aligned(long n):
    """n zero doubles starting on a 64-byte boundary (one coordinate's cell = one line)."""
    buf = np.zeros(n + 8)
    off = (-buf.ctypes.data % 64) // 8
    return buf[off:off + n]


cdef enum:
    CELL = 8   # a = log z⁺, b = log z⁻, ep = z⁺, em = z⁻ (offset units), acc, mark, -, -


cdef inline double eg_cell(double* cl, double v, double phi, double eta, double clip,
                           double C, double* weight) noexcept nogil:
    """HK12 Alg. 2 / KS15 Alg. 3 lines 11-16 on one coordinate's cell, x̃_i = ``v``:
    ḡ_i = clip(φ̃ x̃_i, 1/η), z±_i ← z±_i exp(∓η ḡ_i) (log and linear forms), its share of w̄
    flushed at C first; |z⁺_i − z⁻_i| into ``weight``; returns the change of Z."""
    cdef double g, old_p, old_m, new_p, new_m, e
    g = phi * v                        # line 11: g̃ = φ̃ x̃
    if g > clip:                       # line 13: ḡ = clip(g̃, 1/η)
        g = clip
    elif g < -clip:
        g = -clip
    old_p = cl[2]
    old_m = cl[3]
    cl[4] += (old_p - old_m) * (C - cl[5])
    cl[5] = C
    cl[0] -= eta * g                   # line 14: z⁺ ← z⁺ exp(−η ḡ)
    cl[1] += eta * g                   # line 15: z⁻ ← z⁻ exp(+η ḡ)
    e = exp(-eta * g)
    new_p = old_p * e
    new_m = old_m / e
    cl[2] = new_p
    cl[3] = new_m
    weight[0] = fabs(new_p - new_m)
    return (new_p + new_m) - (old_p + old_m)


cdef extern from "stdlib.h" nogil:
    int posix_memalign(void** ptr, size_t alignment, size_t size)


# The four state classes (LassoState and SparseLassoState here, RidgeState and
# SparseRidgeState in _ridge.pyx) and their step loops (``dense_steps``, ``sparse_steps``) are
# generated at build time by setup.py from the Tempita templates ``_states.pxi.tp`` and
# ``_steps.pxi.tp``, which hold each of them once for both families and both layouts.
include "_lasso_states.pxi"
include "_lasso_steps.pxi"


def _restore_lasso(d, B, scalars, cells):
    """Unpickle a LassoState (the sum tree is rebuilt from the cells' z±)."""
    state = LassoState(d, B)
    state._load(scalars, cells)
    return state


def _restore_sparse_lasso(d, B, scalars, keys, cells):
    """Unpickle a SparseLassoState (its tree and hash table rebuilt from the cells)."""
    state = SparseLassoState(d, B)
    state._load(scalars, keys, cells)
    return state
