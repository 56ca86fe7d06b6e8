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

The two states' step loops (``dense_steps``, ``sparse_steps``) are written once for this
module and ``_ridge.pyx``, in the Tempita template ``_steps.pxi.tp``; setup.py renders it at
every build into ``_lasso_steps.pxi``, included below.
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


cdef inline double eg_update(double* cells, double* wt, double* tree, long cap,
                             const long* idx, const double* val, long nnz, double phi,
                             double eta, double clip, double C, double Z) noexcept nogil:
    """:func:`eg_cell` on x̃'s ``nnz`` coordinates, then the sum tree's |w_i| refreshed;
    returns the new normaliser Z (one function for the row and the oracle loops: the same
    arithmetic in the same order)."""
    cdef long a_, i
    for a_ in range(nnz):
        i = idx[a_]
        Z += eg_cell(cells + CELL * i, val[a_], phi, eta, clip, C, wt + i)
    btree_refresh(wt, tree, cap, idx, nnz)
    return Z


cdef class LassoState:
    """The state of an EG± run (HK12 Alg. 2), in the log domain.

    Per coordinate one 64-byte cell (a cache line): the logs a_i, b_i (the truth), the linear
    values z±_i = exp(a_i − c), exp(b_i − c) (updated multiplicatively between exact
    recomputations, one exp per update instead of four), the flushed average and its mark.
    """
    cdef public double B, C, c, Z
    cdef public long t, d, since_exact, n_shifts
    cdef public long failed       # 0, or the step whose iterate became non-finite (run stops)
    cdef double[::1] cells
    cdef double[::1] wt           # |z⁺_i − z⁻_i| (offset units), padded to blocks of 8
    cdef double[::1] tree
    cdef long cap, nblocks
    cdef long[::1] idx
    cdef double[::1] val
    cdef Fault F                  # the first bad entry of X or y a run read (row −1: none)

    def __init__(self, long d, double B):
        fault_clear(&self.F)
        self.d = d
        self.B = B
        self.cells = _aligned(CELL * d)   # line 1: z⁺_1 ← 1_d, z⁻_1 ← 1_d (logs 0)
        self.c = np.log(2.0 * d)      # offset with Z = Σ exp(a − c) + exp(b − c) = 1
        self.Z = 1.0
        self.C = 0.0
        self.t = 0
        self.since_exact = 0
        self.n_shifts = 0
        self.failed = 0
        self.nblocks = (d + 7) // 8
        self.cap = 1
        while self.cap < self.nblocks:
            self.cap *= 2
        self.wt = np.zeros(8 * self.nblocks)
        self.tree = np.zeros(2 * self.cap)
        self.idx = np.zeros(d, dtype=np.int_)
        self.val = np.zeros(d)
        self.fill_initial()

    cdef void fill_initial(self) noexcept nogil:
        """``refresh`` at line 1's state without its 2d exps: every log is 0, so every z± is
        exp(0 − c) (one exp), every |z⁺ − z⁻| is 0 and the tree (already zeros) stays 0."""
        cdef long i
        cdef double* cl
        cdef double z = exp(0.0 - self.c)
        for i in range(self.d):
            cl = &self.cells[CELL * i]
            cl[0] = 0.0
            cl[1] = 0.0
            cl[2] = z
            cl[3] = z

    cdef void refresh(self) noexcept nogil:
        """z± from the logs, the tree from z±."""
        cdef long i
        cdef double* cl
        for i in range(self.d):
            cl = &self.cells[CELL * i]
            cl[2] = exp(cl[0] - self.c)
            cl[3] = exp(cl[1] - self.c)
            self.wt[i] = fabs(cl[2] - cl[3])
        btree_build(&self.wt[0], &self.tree[0], self.cap, self.nblocks)

    def fault(self):
        """(row, column, value) of the first entry of X (column −1: of y) a run read that is
        not finite or beyond 1e100, at which it stopped before changing anything; None."""
        return None if self.F.row < 0 else (self.F.row, self.F.col, self.F.value)

    def _column(self, int j):
        return np.asarray(self.cells).reshape(self.d, CELL)[:, j]

    def __reduce__(self):
        scalars = (self.c, self.Z, self.C, self.t, self.since_exact, self.n_shifts)
        return (_restore_lasso, (self.d, self.B, scalars, np.asarray(self.cells).copy()))

    def _load(self, scalars, cells):
        self.c, self.Z, self.C, self.t, self.since_exact, self.n_shifts = scalars
        cells = np.asarray(cells, dtype=np.float64)
        if cells.shape != (CELL * self.d,):
            raise ValueError(f"a pickled LassoState has cells of shape {cells.shape} for "
                             f"d={self.d} (needs ({CELL * self.d},)): a corrupted pickle")
        if self.t < 0 or self.since_exact < 0:
            raise ValueError(f"a pickled LassoState has t={self.t}, "
                             f"since_exact={self.since_exact} (needs >= 0)")
        np.asarray(self.cells)[:] = cells
        cdef long i
        for i in range(self.d):          # the tree from the cached z± (not the logs): the
            self.wt[i] = fabs(self.cells[CELL * i + 2] - self.cells[CELL * i + 3])   # same bits
        btree_build(&self.wt[0], &self.tree[0], self.cap, self.nblocks)

    def sampling_weights(self):
        """The weights the sum tree holds (|z⁺ − z⁻| in offset units, for tests)."""
        return np.asarray(self.wt)[:self.d].copy()

    def warm_start(self, w):
        """Start EG± at w (‖w‖₁ < B) instead of line 1's z± = 1 (w = 0): z⁺ − z⁻ ∝ w with a
        common floor c > 0 on both (KS15 Sec. 5's warm start of phase 2). Only before any step."""
        if self.t != 0:
            raise RuntimeError("warm_start must precede the first step")
        w = np.asarray(w, dtype=np.float64)
        slack = 1.0 - np.abs(w).sum() / self.B
        if not slack > 0:
            raise ValueError("warm_start needs ‖w‖₁ < B")
        floor = slack / (2 * self.d)          # Z = Σ z⁺ + z⁻ = 1 with z± = floor + w±/B
        view = np.asarray(self.cells).reshape(self.d, CELL)
        view[:, 0] = np.log(floor + np.maximum(w, 0) / self.B)
        view[:, 1] = np.log(floor + np.maximum(-w, 0) / self.B)
        self.c = 0.0
        self.recompute(0.0)

    cdef inline double delta(self, long i) noexcept nogil:
        return exp(self.cells[CELL * i] - self.c) - exp(self.cells[CELL * i + 1] - self.c)

    def coef(self):
        """The current iterate w = B (z⁺ − z⁻)/Z (line 3), z± = exp(a − c), exp(b − c) from
        the logs (the truth, not the cached z±)."""
        w = np.empty(self.d)
        cdef double[::1] wv = w
        self.fill_coef(&wv[0])
        return w

    def average(self):
        """w̄ = (1/t) Σ_τ w_τ (line 18) without changing the state."""
        if self.t == 0:
            return self.coef()
        avg = np.empty(self.d)
        cdef double[::1] av = avg
        self.fill_average(&av[0])
        return avg

    def outputs(self):
        """(average(), coef()) in one pass over the cells (a learner's ``coef_`` and ``w_``)."""
        if self.t == 0:
            w = self.coef()
            return w.copy(), w
        avg, w = np.empty(self.d), np.empty(self.d)
        cdef double[::1] av = avg, wv = w
        cdef long i
        cdef const double* cl
        cdef double B = self.B, Z = self.Z, c = self.c, C = self.C, t = <double>self.t
        with nogil:
            for i in range(self.d):              # fill_average and fill_coef, fused
                cl = &self.cells[CELL * i]
                av[i] = (cl[4] + (cl[2] - cl[3]) * (C - cl[5])) / t
                if cl[0] == cl[1]:
                    wv[i] = 0.0
                else:
                    wv[i] = B * (exp(cl[0] - c) - exp(cl[1] - c)) / Z
        return avg, w

    cdef void fill_coef(self, double* out) noexcept nogil:
        """B (exp(a − c) − exp(b − c))/Z per coordinate; exactly 0 where a = b (the same
        value the formula gives, without its two exps: at d = 10⁶ most coordinates never
        move)."""
        cdef long i
        cdef const double* cl
        cdef double B = self.B, Z = self.Z, c = self.c
        for i in range(self.d):
            cl = &self.cells[CELL * i]
            if cl[0] == cl[1]:
                out[i] = 0.0
            else:
                out[i] = B * (exp(cl[0] - c) - exp(cl[1] - c)) / Z

    cdef void fill_average(self, double* out) noexcept nogil:
        """(acc + (z⁺ − z⁻)(C − mark))/t per coordinate (the lazy average's flush, read
        only)."""
        cdef long i
        cdef const double* cl
        cdef double C = self.C, t = <double>self.t
        for i in range(self.d):
            cl = &self.cells[CELL * i]
            out[i] = (cl[4] + (cl[2] - cl[3]) * (C - cl[5])) / t

    cdef void recompute(self, double new_c) noexcept nogil:
        """Flush every coordinate, move the offset to ``new_c``, recompute z± from the logs,
        Z and the tree."""
        cdef long i
        cdef double total = 0.0
        cdef double* cl
        for i in range(self.d):
            cl = &self.cells[CELL * i]
            cl[4] += (cl[2] - cl[3]) * (self.C - cl[5])
        if new_c != self.c:
            # w = s·u is unchanged when u and Z are both scaled by exp(c − new_c): s is B/Z
            self.n_shifts += 1
        self.c = new_c
        self.refresh()
        for i in range(self.d):
            cl = &self.cells[CELL * i]
            total += cl[2] + cl[3]
            cl[5] = 0.0
        self.Z = total
        # acc holds w-units (δ·s summed); C counted s = B/Z in the old units, so it restarts
        # at 0 with every mark.
        self.C = 0.0
        self.since_exact = 0

    cdef inline bint upkeep_due(self, double Z) noexcept nogil:
        """One step done: is an offset move (Z outside [2⁻⁸, 2⁸]) or the exact recomputation
        (every max(d, 1024) steps) due?"""
        self.t += 1
        self.since_exact += 1
        return Z > 256.0 or Z < 1.0 / 256.0 or (self.since_exact >= self.d
                                                  and self.since_exact >= 1024)

    cdef void upkeep(self, double C, double Z) noexcept nogil:
        """Store the loop's C and Z, then move the offset to c + log Z (Z left [2⁻⁸, 2⁸]) or
        recompute Z exactly at the same offset."""
        self.C, self.Z = C, Z
        if Z > 256.0 or Z < 1.0 / 256.0:
            self.recompute(self.c + log(Z))
        else:
            self.recompute(self.c)

    def run(self, object rng, const double[:, ::1] X, const double[::1] Y, long k,
            object q_rows, double eta, long[::1] attributes, object record,
            long n_inner=1, long n_steps=-1, long row0=0):
        """Steps of HK12 Alg. 2 lines 2-17 / KS15 Alg. 3 lines 2-17; the arguments are those
        of ``RidgeState.run`` (j ∝ |w_j| here); returns the number of steps made."""
        m = X.shape[0] if n_steps < 0 else n_steps
        with rng.bit_generator.lock:
            dense_steps(self, rng, X, Y, None, k, q_rows, eta, attributes, record, n_inner, m,
                        row0)
        return m

    def run_oracle(self, object rng, RowOracle oracle, long k, object q_rows, double eta,
                   long[::1] attributes, object record, long n_inner, long n_steps):
        """``run``'s steps on ``n_steps`` examples drawn by ``oracle`` (see
        ``RidgeState.run_oracle``): x_i read through ``oracle.attribute(i)`` for the chosen
        attributes only, y from ``oracle.y``."""
        if oracle.d != self.d:
            raise ValueError(f"the oracle has d={oracle.d}, the state d={self.d}")
        with rng.bit_generator.lock, oracle.rng.bit_generator.lock:
            dense_steps(self, rng, None, None, oracle, k, q_rows, eta, attributes, record,
                        n_inner, n_steps, 0)
        return n_steps

def _restore_lasso(d, B, scalars, cells):
    """Unpickle a LassoState (the sum tree is rebuilt from the cells' z±)."""
    state = LassoState(d, B)
    state._load(scalars, cells)
    return state


cdef extern from "stdlib.h" nogil:
    int posix_memalign(void** ptr, size_t alignment, size_t size)


@cython.final
cdef class SparseLassoState:
    """LassoState's run (HK12 Alg. 2 / KS15 Alg. 3, EG± in the log domain) keeping only the
    coordinates the run has moved.

    Line 1 starts every z±_i at 1 (w = 0). A coordinate moves when a step's x̃ is nonzero
    there (lines 11-16 multiply z±_i by exp(∓η ḡ_i) with ḡ_i = clip(φ̃ x̃_i, 1/η), nothing when
    x̃_i = 0); until then its logs are 0, its z± are exp(0 − c), its |w_i| is 0 (it is never
    drawn at line 9) and its share of w̄ is 0. So the state holds the moved coordinates only —
    their 64-byte cells in compact slots, a blocked sum tree over their |z⁺ − z⁻|, found by a
    hash table — and Z = Σ_moved (z⁺ + z⁻) + 2·(d − moved)·exp(−c). A step costs what
    LassoState's costs at d = (number moved), with no O(d) array. Once a quarter of the
    coordinates has moved (dense data), every coordinate gets the slot of its own index
    (``to_identity``, O(d) once): the state is then laid out as LassoState's, with no table.
    The same random numbers, draws and arithmetic as LassoState on the moved coordinates (j
    is drawn from the slots' tree, whose leaves are in another order than the coordinates'
    until then: the same law, other draws).
    """
    cdef public double B, C, c, Z
    cdef public long t, d, since_exact, n_shifts, failed
    cdef Slots S                  # the moved coordinates (weights |z⁺ − z⁻|)
    cdef double* cells            # per slot: the 64-byte cell (64-aligned)
    cdef long[::1] idx, sidx
    cdef double[::1] val
    cdef Fault F                  # as LassoState's

    def __cinit__(self):
        fault_clear(&self.F)
        self.S.keys = NULL
        self.S.wt = NULL
        self.S.tree = NULL
        self.S.map.table = NULL
        self.S.n = 0
        self.S.cap = 0
        self.S.identity = False
        self.cells = NULL

    def __init__(self, long d, double B):
        if d < 1:
            raise ValueError(f"SparseLassoState needs d >= 1; got d={d}")
        self.d = d
        self.B = B
        self.c = np.log(2.0 * d)      # line 1, offset with Z = Σ exp(0 − c) · 2d = 1
        self.Z = 1.0
        self.C = 0.0
        self.t = 0
        self.since_exact = 0
        self.n_shifts = 0
        self.failed = 0
        if self.grow(256) != 0:
            raise MemoryError()
        self.idx = np.zeros(64, dtype=np.int_)
        self.sidx = np.zeros(64, dtype=np.int_)
        self.val = np.zeros(64)

    def fault(self):
        """:meth:`LassoState.fault`."""
        return None if self.F.row < 0 else (self.F.row, self.F.col, self.F.value)

    def __dealloc__(self):
        slots_free(&self.S)
        free(self.cells)

    @property
    def n_moved(self):
        """The coordinates that have moved (d once every coordinate has its slot)."""
        return self.S.n

    @property
    def identity(self):
        """Every coordinate in the slot of its own index (after ``to_identity``)."""
        return bool(self.S.identity)

    cdef double* new_cells(self, long cap) noexcept nogil:
        """Room for ``cap`` cells on 64-byte lines, or NULL when out of memory."""
        cdef void* cells = NULL
        if posix_memalign(&cells, 64, CELL * cap * sizeof(double)) != 0:
            return NULL
        return <double*>cells

    cdef int grow(self, long cap) noexcept nogil:
        """Room for ``cap`` slots (a multiple of 8): the cells enlarged, then the slots; −1
        when out of memory (the state stays usable at its old size)."""
        cdef double* cells = self.new_cells(cap)
        if cells == NULL:
            return -1
        if self.S.cap:
            memcpy(cells, self.cells, CELL * self.S.cap * sizeof(double))
        free(self.cells)
        self.cells = cells
        return slots_grow(&self.S, cap)

    cdef long touch(self, long key) noexcept nogil:
        """The slot of coordinate ``key``, given one (line 1's cell) when it has none; once a
        quarter of d has moved, every coordinate gets the slot of its own index
        (``to_identity``). −1 when out of memory."""
        cdef long slot = slots_lookup(&self.S, key)
        if slot >= 0:
            return slot
        slot = self.new_slot(key)
        if slot >= 0 and 4 * self.S.n >= self.d:
            if self.to_identity() != 0:
                return -1
            return key
        return slot

    cdef inline void line1_cell(self, double* cl) noexcept nogil:
        """HK12 Alg. 2 line 1's cell at the current offset: logs 0, z± = exp(0 − c), nothing
        flushed."""
        cdef double z = exp(0.0 - self.c)
        cl[0] = 0.0
        cl[1] = 0.0
        cl[2] = z
        cl[3] = z
        cl[4] = 0.0
        cl[5] = 0.0
        cl[6] = 0.0
        cl[7] = 0.0

    cdef long new_slot(self, long key) noexcept nogil:
        """A slot for ``key`` (absent) with line 1's cell; −1 when out of memory."""
        if self.S.n == self.S.cap and \
                self.grow(min(2 * self.S.cap, 8 * ((self.d + 7) // 8))) != 0:
            return -1
        cdef long slot = slots_add(&self.S, key)
        self.line1_cell(self.cells + CELL * slot)
        return slot

    cdef int to_identity(self) noexcept nogil:
        """Every coordinate in the slot of its own index, the unmoved ones with line 1's cell
        (O(d), once; then the state is laid out as LassoState's and lookups need no table).
        −1 when out of memory (nothing changed)."""
        cdef long cap = 8 * ((self.d + 7) // 8), a, i, r
        cdef double* cells = self.new_cells(cap)
        if cells == NULL:
            return -1
        for i in range(cap):
            self.line1_cell(cells + CELL * i)
        for a in range(self.S.n):
            i = self.S.keys[a]
            for r in range(CELL):
                cells[CELL * i + r] = self.cells[CELL * a + r]
        if slots_to_identity(&self.S, self.d, 0.0) != 0:
            free(cells)
            return -1
        free(self.cells)
        self.cells = cells
        return 0

    cdef inline double unmoved_z(self) noexcept nogil:
        """Σ z⁺ + z⁻ over the coordinates never moved."""
        return 2.0 * <double>(self.d - self.S.n) * exp(0.0 - self.c)

    def __reduce__(self):
        n = self.S.n
        keys = np.array(<long[:n]>self.S.keys if n else [], dtype=np.int_)
        cells = np.array(<double[:CELL * n]>self.cells if n else [], dtype=np.float64)
        scalars = (self.c, self.Z, self.C, self.t, self.since_exact, self.n_shifts)
        return (_restore_sparse_lasso, (self.d, self.B, scalars, keys, cells))

    def _load(self, scalars, keys, cells):
        self.c, self.Z, self.C, self.t, self.since_exact, self.n_shifts = scalars
        cdef long[::1] kk = np.ascontiguousarray(keys, dtype=np.int_)
        cdef double[::1] cc = np.ascontiguousarray(cells, dtype=np.float64)
        cdef long a, slot, r
        if cc.shape[0] != CELL * kk.shape[0]:
            raise ValueError("a pickled SparseLassoState has cells for another number of slots")
        for a in range(kk.shape[0]):
            if not 0 <= kk[a] < self.d or slots_lookup(&self.S, kk[a]) >= 0:
                raise ValueError(f"a pickled SparseLassoState has an invalid coordinate "
                                 f"{kk[a]} (d={self.d})")
            slot = self.new_slot(kk[a])
            if slot < 0:
                raise MemoryError()
            for r in range(CELL):
                self.cells[CELL * slot + r] = cc[CELL * a + r]
            self.S.wt[slot] = fabs(self.cells[CELL * slot + 2] - self.cells[CELL * slot + 3])
        btree_build(self.S.wt, self.S.tree, self.S.tcap, self.S.nblocks)
        if 4 * self.S.n >= self.d and self.to_identity() != 0:
            raise MemoryError()

    def moved(self):
        """The moved coordinates, in the order they first moved."""
        n = self.S.n
        return np.array(<long[:n]>self.S.keys if n else [], dtype=np.int_)

    def sampling_weights(self):
        """|z⁺_i − z⁻_i| (offset units) for every coordinate (the weights of line 9's draw,
        for tests)."""
        out = np.zeros(self.d)
        cdef long a
        for a in range(self.S.n):
            out[self.S.keys[a]] = self.S.wt[a]
        return out

    def coef(self):
        """The current iterate w = B (z⁺ − z⁻)/Z (line 3) from the logs; 0 where never
        moved."""
        w = np.zeros(self.d)
        cdef double[::1] wv = w
        cdef long a
        cdef const double* cl
        cdef double B = self.B, Z = self.Z, c = self.c
        for a in range(self.S.n):
            cl = self.cells + CELL * a
            if cl[0] != cl[1]:
                wv[self.S.keys[a]] = B * (exp(cl[0] - c) - exp(cl[1] - c)) / Z
        return w

    def average(self):
        """w̄ = (1/t) Σ_τ w_τ (line 18) without changing the state; 0 where never moved."""
        if self.t == 0:
            return self.coef()
        avg = np.zeros(self.d)
        cdef double[::1] av = avg
        cdef long a
        cdef const double* cl
        cdef double C = self.C, t = <double>self.t
        for a in range(self.S.n):
            cl = self.cells + CELL * a
            av[self.S.keys[a]] = (cl[4] + (cl[2] - cl[3]) * (C - cl[5])) / t
        return avg

    def outputs(self):
        """(average(), coef()) (a learner's ``coef_`` and ``w_``)."""
        w = self.coef()
        return (w.copy() if self.t == 0 else self.average()), w

    cdef void recompute(self, double new_c) noexcept nogil:
        """LassoState.recompute on the moved coordinates (flush, offset, z± from the logs,
        the tree, Z exactly, C and the marks restart)."""
        cdef long a
        cdef double total = 0.0
        cdef double* cl
        for a in range(self.S.n):
            cl = self.cells + CELL * a
            cl[4] += (cl[2] - cl[3]) * (self.C - cl[5])
        if new_c != self.c:
            self.n_shifts += 1
        self.c = new_c
        for a in range(self.S.n):
            cl = self.cells + CELL * a
            cl[2] = exp(cl[0] - self.c)
            cl[3] = exp(cl[1] - self.c)
            self.S.wt[a] = fabs(cl[2] - cl[3])
            total += cl[2] + cl[3]
            cl[5] = 0.0
        btree_build(self.S.wt, self.S.tree, self.S.tcap, self.S.nblocks)
        self.Z = total + self.unmoved_z()
        self.C = 0.0
        self.since_exact = 0

    cdef inline bint upkeep_due(self, double Z) noexcept nogil:
        """One step done: an offset move (Z outside [2⁻⁸, 2⁸]) or the exact recomputation
        (every max(number moved, 1024) steps) due?"""
        self.t += 1
        self.since_exact += 1
        return Z > 256.0 or Z < 1.0 / 256.0 or (self.since_exact >= self.S.n
                                                  and self.since_exact >= 1024)

    def run(self, object rng, const double[:, ::1] X, const double[::1] Y, long k,
            object q_rows, double eta, long[::1] attributes, object record,
            long n_inner=1, long n_steps=-1, long row0=0):
        """:meth:`LassoState.run` on this state, until the step at which a quarter of the
        coordinates has moved (``to_identity``): returns the number of steps made, and the
        caller continues on :meth:`dense` (the learners do)."""
        m = X.shape[0] if n_steps < 0 else n_steps
        with rng.bit_generator.lock:
            return sparse_steps(self, rng, X, Y, None, k, q_rows, eta, attributes, record,
                                n_inner, m, row0)

    def run_oracle(self, object rng, RowOracle oracle, long k, object q_rows, double eta,
                   long[::1] attributes, object record, long n_inner, long n_steps):
        """:meth:`LassoState.run_oracle` on this state, until the switch (see ``run``)."""
        if oracle.d != self.d:
            raise ValueError(f"the oracle has d={oracle.d}, the state d={self.d}")
        with rng.bit_generator.lock, oracle.rng.bit_generator.lock:
            return sparse_steps(self, rng, None, None, oracle, k, q_rows, eta, attributes,
                                record, n_inner, n_steps, 0)

    def dense(self):
        """The same state as a LassoState (after ``to_identity``: the cells are already in
        its layout), to continue the run on the dense kernel."""
        if not self.S.identity:
            raise ValueError("dense() needs every coordinate in its own slot (to_identity)")
        state = LassoState(self.d, self.B)
        state._load((self.c, self.Z, self.C, self.t, self.since_exact, self.n_shifts),
                    np.array(<double[:CELL * self.d]>self.cells))
        return state


# The step loops of both states (``dense_steps``, ``sparse_steps``): generated at build time by
# setup.py from the template ``_steps.pxi.tp``, which holds them once for ridge and lasso.
include "_lasso_steps.pxi"


def _restore_sparse_lasso(d, B, scalars, keys, cells):
    """Unpickle a SparseLassoState (its tree and hash table rebuilt from the cells)."""
    state = SparseLassoState(d, B)
    state._load(scalars, keys, cells)
    return state
