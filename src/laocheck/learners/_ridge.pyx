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

The two states' step loops (``dense_steps``, ``sparse_steps``) are written once for this
module and ``_lasso.pyx``, in the Tempita template ``_steps.pxi.tp``; setup.py renders it at
every build into ``_ridge_steps.pxi``, included below.
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


@cython.final
cdef class RidgeState:
    """The state of an OGD run with L2-ball projection, in the w = s·u representation."""
    cdef public double s, norm_sq, C, B
    cdef public double fold_low   # fold s into u below this (tests raise it to force folds)
    cdef public long t, d, since_exact, n_folds
    cdef public long failed       # 0, or the step whose iterate became non-finite (run stops)
    cdef double[::1] u
    cdef double[::1] am           # am[2i] = flushed Σ of coordinate i, am[2i + 1] = its mark
    cdef double[::1] wt           # u_i² padded to whole blocks of 8
    cdef double[::1] tree
    cdef long cap, nblocks
    cdef long[::1] idx
    cdef double[::1] val
    cdef Fault F                  # the first bad entry of X or y a run read (row −1: none)

    def __init__(self, w1, double B):
        w1 = np.ascontiguousarray(w1, dtype=np.float64)
        self.d = w1.shape[0]
        self.B = B
        self.u = w1.copy()
        self.s = 1.0
        self.norm_sq = float(w1 @ w1)
        self.C = 0.0
        self.t = 0
        self.since_exact = 0
        self.fold_low = 1.0 / 256.0
        self.n_folds = 0
        self.failed = 0
        self.am = np.zeros(2 * self.d)
        self.nblocks = (self.d + 7) // 8
        self.cap = 1
        while self.cap < self.nblocks:
            self.cap *= 2
        self.wt = np.zeros(8 * self.nblocks)
        self.tree = np.zeros(2 * self.cap)
        self.rebuild_tree()
        self.idx = np.zeros(self.d, dtype=np.int_)
        self.val = np.zeros(self.d)
        fault_clear(&self.F)

    def fault(self):
        """(row, column, value) of the first entry of X (column −1: of y) a run read that is
        not finite or beyond 1e100, at which it stopped before changing anything; None."""
        return None if self.F.row < 0 else (self.F.row, self.F.col, self.F.value)

    cdef void rebuild_tree(self) noexcept nogil:
        cdef long i
        for i in range(self.d):
            self.wt[i] = self.u[i] * self.u[i]
        btree_build(&self.wt[0], &self.tree[0], self.cap, self.nblocks)

    def __reduce__(self):
        scalars = (self.s, self.norm_sq, self.C, self.t, self.since_exact, self.n_folds,
                   self.fold_low)
        return (_restore_ridge, (np.asarray(self.u).copy(), self.B, scalars,
                                 np.asarray(self.am).copy()))

    def _load(self, scalars, am):
        (self.s, self.norm_sq, self.C, self.t, self.since_exact, self.n_folds,
         self.fold_low) = scalars
        am = np.array(am, dtype=np.float64)
        if am.shape != (2 * self.d,):
            raise ValueError(f"a pickled RidgeState has an average record of shape {am.shape} "
                             f"for d={self.d} (needs ({2 * self.d},)): a corrupted pickle")
        if self.t < 0 or self.since_exact < 0:
            raise ValueError(f"a pickled RidgeState has t={self.t}, "
                             f"since_exact={self.since_exact} (needs >= 0)")
        self.am = am

    def coef(self):
        """The current iterate w = s·u."""
        return np.asarray(self.u) * self.s

    def average(self):
        """w̄ = (1/t) Σ_{τ<=t} w_τ (HK12 Alg. 1 line 14), without changing the state."""
        if self.t == 0:
            return self.coef()
        avg = np.empty(self.d)
        cdef double[::1] av = avg
        self.fill_average(&av[0])
        return avg

    def outputs(self):
        """(average(), coef()) (a learner's ``coef_`` and ``w_``), the average in one pass."""
        w = self.coef()
        return (w.copy() if self.t == 0 else self.average()), w

    cdef void fill_average(self, double* out) noexcept nogil:
        """(flushed + u_i (C − mark_i))/t per coordinate (the lazy average, read only)."""
        cdef long i
        cdef double C = self.C, t = <double>self.t
        for i in range(self.d):
            out[i] = (self.am[2 * i] + self.u[i] * (C - self.am[2 * i + 1])) / t

    def sampling_weights(self):
        """The weights the sum tree holds (u_j², for tests)."""
        return np.asarray(self.wt)[:self.d].copy()

    cdef void flush_all(self) noexcept nogil:
        cdef long i
        for i in range(self.d):
            self.am[2 * i] += self.u[i] * (self.C - self.am[2 * i + 1])
            self.am[2 * i + 1] = self.C

    cdef void fold_scale(self) noexcept nogil:
        """w = s·u → u ← s·u, s ← 1, keeping every flushed average (O(d))."""
        cdef long i
        cdef double total = 0.0
        self.flush_all()
        for i in range(self.d):
            self.u[i] *= self.s
            total += self.u[i] * self.u[i]
        self.rebuild_tree()
        # C and the marks counted Σ s_τ in the old units: both restart at 0 with s = 1.
        for i in range(self.d):
            self.am[2 * i + 1] = 0.0
        self.C = 0.0
        self.s = 1.0
        self.norm_sq = total
        self.since_exact = 0
        self.n_folds += 1

    cdef void exact_norm(self) noexcept nogil:
        cdef long i
        cdef double total = 0.0
        for i in range(self.d):
            total += self.u[i] * self.u[i]
        self.norm_sq = total
        self.since_exact = 0

    cdef void upkeep(self, double s, double C, double norm_sq) noexcept nogil:
        """Store the loop's scalars, then fold s into u (s left [fold_low, 1e100]) or
        recompute ‖u‖² exactly (every max(d, 1024) steps)."""
        self.s, self.C, self.norm_sq = s, C, norm_sq
        if s < self.fold_low or s > 1e100:
            self.fold_scale()
        else:
            self.exact_norm()

    cdef inline bint upkeep_due(self, double s) noexcept nogil:
        """One step done: is the exact ‖u‖² or a fold due?"""
        self.t += 1
        self.since_exact += 1
        return (self.since_exact >= self.d and self.since_exact >= 1024) \
            or s < self.fold_low or s > 1e100

    def run(self, object rng, const double[:, ::1] X, const double[::1] Y, long k,
            object q_rows, double eta, long[::1] attributes, object record,
            long n_inner=1, long n_steps=-1, long row0=0):
        """Steps of HK12 Alg. 1 lines 2-13 / KS15 Alg. 1 lines 2-13 over the rows of X.

        ``q_rows``: None for uniform q, else q's alias rows with payload 1/(k q_i).
        ``n_inner``: φ̃ averages this many i.i.d. draws j ∝ w_j² (1 in the papers' boxes;
        KS15 Sec. 5 splits the budget between x̃ and φ̃).
        ``n_steps``: -1 makes one pass (m = rows of X); otherwise that many steps, the rows
        taken cyclically (a stream from a pool of rows, without an m × d array).
        ``record``: None, or an (m, k + n_inner) int array receiving the drawn indices of each
        step (i_1..i_k, then the j's; −1 when w = 0 and no j is drawn) for the reference.
        ``attributes``: (m,) receives the distinct attributes observed at each step.
        ``row0``: the first step reads row ``row0`` (a run continued from another state).
        Returns the number of steps made (all of them; the sparse states may stop early).
        """
        m = X.shape[0] if n_steps < 0 else n_steps
        with rng.bit_generator.lock:
            dense_steps(self, rng, X, Y, None, k, q_rows, eta, attributes, record, n_inner, m,
                        row0)
        return m

    def run_oracle(self, object rng, RowOracle oracle, long k, object q_rows, double eta,
                   long[::1] attributes, object record, long n_inner, long n_steps):
        """``run``'s steps on ``n_steps`` examples drawn by ``oracle`` (a
        :class:`laocheck.data._oracle.RowOracle`): the same learner random numbers, draws and
        arithmetic, with x_i read through ``oracle.attribute(i)`` for the k + n_inner chosen
        attributes only and y from ``oracle.y``. O(k + log d) per step plus the oracle's cost."""
        if oracle.d != self.d:
            raise ValueError(f"the oracle has d={oracle.d}, the state d={self.d}")
        with rng.bit_generator.lock, oracle.rng.bit_generator.lock:
            dense_steps(self, rng, None, None, oracle, k, q_rows, eta, attributes, record,
                        n_inner, n_steps, 0)
        return n_steps

    def run_aesvr(self, object rng, const double[:, ::1] X, const double[::1] Y, long k,
                  double eta, const double[::1] a, long big_n, long threshold, double eps,
                  double delta, long[::1] attributes, object record, long n_steps=-1):
        """HK12 Alg. 4 (AESVR): Alg. 1 with lines 8-9 replaced by
        φ̃ = ½[GenEst(w, x/ε, (y+δ)/ε) + GenEst(w, x/ε, (y−δ)/ε)] (HK12 Procedure 3, with the
        Taylor coefficients ``a`` of ρ′, eq. (7)); N = ``big_n`` draws per factor for orders
        above ``threshold`` = ⌊2 log₂ N⌋.

        ``record``: None or a 1-d int array that receives, per step, the k indices of x̃ and,
        for each GenEst call, its order n then the indices j it draws (the order the literal
        reference consumes them). Returns the number of entries written, or −1 when the
        array was too short (the recording stops; the run does not). ``n_steps``: as in
        ``run`` (−1: one pass; else that many steps, the rows taken cyclically).
        """
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


# --- the sparse state: only the coordinates a run moves -------------------------------------

@cython.final
cdef class SparseRidgeState:
    """RidgeState's run (HK12 Alg. 1 / KS15 Alg. 1 in the w = s·u form) from a w_1 whose
    coordinates are all equal (``initial="uniform"``: B/√d each, or ``"zero"``), keeping only
    the coordinates the run has moved.

    A coordinate moves when a step's x̃ is nonzero there (lines 10-11 change u_i by
    −η φ̃ x̃_i / s, nothing when x̃_i = 0). Every unmoved coordinate has the same u_i = ``base``
    and the same lazy-average record (``flushed_base``, ``mark_base``), so the state is O(number
    moved): the moved ones sit in compact slots (u, the average record, a blocked sum tree
    over u², the coordinate of each slot), found through an open-addressing hash table. A step
    costs what RidgeState's costs at d = (number moved), with no O(d) array: at d = 10⁶, m =
    2·10⁴ nothing is allocated per coordinate.

    j ∝ w_j² (line 8) is drawn exactly: with total mass S_moved + n_unmoved·base², a uniform
    U·total below S_moved descends the slots' tree, otherwise an unmoved coordinate is drawn
    uniformly by rejection (a uniform index over 0..d−1, again while it has moved: at most
    4/3 tries on average, see next). Once a quarter of the coordinates has moved (dense data),
    every coordinate gets the slot of its own index (``to_identity``, O(d) once): the state is
    then laid out as RidgeState's, with no table and no rejection. The draws have RidgeState's
    law, not its random numbers (the tests check the law and replay the recorded draws
    through the literal reference).
    """
    cdef public double s, norm_sq, C, B, fold_low
    cdef public double base, flushed_base, mark_base
    cdef public long t, d, since_exact, n_folds, failed
    cdef Slots S                  # the moved coordinates (weights u²)
    cdef double* u                # per slot: u, then (flushed Σ, mark) in am
    cdef double* am
    cdef long[::1] idx, sidx
    cdef double[::1] val
    cdef Fault F                  # as RidgeState's

    def __cinit__(self):
        fault_clear(&self.F)
        self.S.keys = NULL
        self.S.wt = NULL
        self.S.tree = NULL
        self.S.map.table = NULL
        self.S.n = 0
        self.S.cap = 0
        self.S.identity = False
        self.u = NULL
        self.am = NULL

    def __init__(self, long d, double base, double B):
        if d < 1 or d >= 2 ** 32:
            raise ValueError(f"SparseRidgeState needs 1 <= d < 2**32 (uniform draws over d); "
                             f"got d={d}")
        self.d = d
        self.B = B
        self.base = base
        self.flushed_base = 0.0
        self.mark_base = 0.0
        self.s = 1.0
        self.norm_sq = <double>d * base * base
        self.C = 0.0
        self.t = 0
        self.since_exact = 0
        self.fold_low = 1.0 / 256.0
        self.n_folds = 0
        self.failed = 0
        if self.grow(256) != 0:
            raise MemoryError()
        self.idx = np.zeros(64, dtype=np.int_)
        self.sidx = np.zeros(64, dtype=np.int_)
        self.val = np.zeros(64)

    def __dealloc__(self):
        slots_free(&self.S)
        free(self.u)
        free(self.am)

    @property
    def n_moved(self):
        """The coordinates that have moved (d once every coordinate has its slot)."""
        return self.S.n

    def fault(self):
        """:meth:`RidgeState.fault`."""
        return None if self.F.row < 0 else (self.F.row, self.F.col, self.F.value)

    @property
    def identity(self):
        """Every coordinate in the slot of its own index (after ``to_identity``)."""
        return bool(self.S.identity)

    cdef int grow(self, long cap) noexcept nogil:
        """Room for ``cap`` slots (a multiple of 8): u and am enlarged, then the slots; −1
        when out of memory (the state stays usable at its old size)."""
        cdef void* p = realloc(self.u, cap * sizeof(double))
        if p == NULL:
            return -1
        self.u = <double*>p
        p = realloc(self.am, 2 * cap * sizeof(double))
        if p == NULL:
            return -1
        self.am = <double*>p
        return slots_grow(&self.S, cap)

    cdef long touch(self, long key) noexcept nogil:
        """The slot of coordinate ``key``, given one (u = base, the shared average record)
        when it has none; once a quarter of d has moved, every coordinate gets the slot of its
        own index (``to_identity``). −1 when out of memory."""
        cdef long slot = slots_lookup(&self.S, key)
        if slot >= 0:
            return slot
        slot = self.new_slot(key)
        if slot >= 0 and 4 * self.S.n >= self.d:
            if self.to_identity() != 0:
                return -1
            return key
        return slot

    cdef int to_identity(self) noexcept nogil:
        """Every coordinate in the slot of its own index, the unmoved ones with the shared
        value and record (O(d), once; then the state is laid out as RidgeState's, lookups
        need no table and j needs no rejection). −1 when out of memory (nothing changed)."""
        cdef long cap = 8 * ((self.d + 7) // 8), a, i
        cdef double* u = <double*>malloc(cap * sizeof(double))
        cdef double* am = <double*>malloc(2 * cap * sizeof(double))
        if u == NULL or am == NULL:
            free(u)
            free(am)
            return -1
        for i in range(cap):
            u[i] = self.base
            am[2 * i] = self.flushed_base
            am[2 * i + 1] = self.mark_base
        for a in range(self.S.n):
            i = self.S.keys[a]
            u[i] = self.u[a]
            am[2 * i] = self.am[2 * a]
            am[2 * i + 1] = self.am[2 * a + 1]
        if slots_to_identity(&self.S, self.d, self.base * self.base) != 0:
            free(u)
            free(am)
            return -1
        free(self.u)
        free(self.am)
        self.u, self.am = u, am
        return 0

    cdef long new_slot(self, long key) noexcept nogil:
        """A slot for ``key`` (absent) holding an unmoved coordinate's state; −1 when out of
        memory."""
        if self.S.n == self.S.cap and \
                self.grow(min(2 * self.S.cap, 8 * ((self.d + 7) // 8))) != 0:
            return -1
        cdef long slot = slots_add(&self.S, key)
        self.u[slot] = self.base
        self.am[2 * slot] = self.flushed_base
        self.am[2 * slot + 1] = self.mark_base
        self.S.wt[slot] = self.base * self.base
        return slot

    cdef inline double unmoved_mass(self) noexcept nogil:
        return <double>(self.d - self.S.n) * (self.base * self.base)

    cdef inline long draw_j(self, bitgen_t* bg, double* uj) noexcept nogil:
        """j ∝ u_j² over all d coordinates (HK12 Alg. 1 line 8); u_j into ``uj``."""
        cdef double moved = self.S.tree[1], rest = self.unmoved_mass(), r
        cdef long slot, i
        while True:
            r = uniform01(bg) * (moved + rest)
            if r < moved:
                slot = btree_descend(self.S.wt, self.S.tree, self.S.tcap, self.S.nblocks, r)
                if slot >= 0:
                    uj[0] = self.u[slot]
                    return self.S.keys[slot]
            elif rest > 0.0:
                while True:
                    i = <long>bounded(bg, <unsigned int>self.d)
                    if slots_lookup(&self.S, i) < 0:
                        uj[0] = self.base
                        return i

    def __reduce__(self):
        n = self.S.n
        keys = np.array(<long[:n]>self.S.keys if n else [], dtype=np.int_)
        u = np.array(<double[:n]>self.u if n else [], dtype=np.float64)
        am = np.array(<double[:2 * n]>self.am if n else [], dtype=np.float64)
        scalars = (self.s, self.norm_sq, self.C, self.t, self.since_exact, self.n_folds,
                   self.fold_low, self.base, self.flushed_base, self.mark_base)
        return (_restore_sparse_ridge, (self.d, self.B, scalars, keys, u, am))

    def _load(self, scalars, keys, u, am):
        (self.s, self.norm_sq, self.C, self.t, self.since_exact, self.n_folds,
         self.fold_low, self.base, self.flushed_base, self.mark_base) = scalars
        cdef long[::1] kk = np.ascontiguousarray(keys, dtype=np.int_).reshape(-1)
        cdef double[::1] uu = np.ascontiguousarray(u, dtype=np.float64).reshape(-1)
        cdef double[::1] aa = np.ascontiguousarray(am, dtype=np.float64).reshape(-1)
        cdef long a, slot
        if uu.shape[0] != kk.shape[0] or aa.shape[0] != 2 * kk.shape[0]:
            raise ValueError(f"a pickled SparseRidgeState has {kk.shape[0]} coordinates, "
                             f"{uu.shape[0]} values and {aa.shape[0]} average entries (needs "
                             f"n, n, 2n): a corrupted pickle")
        if self.t < 0 or self.since_exact < 0:
            raise ValueError(f"a pickled SparseRidgeState has t={self.t}, "
                             f"since_exact={self.since_exact} (needs >= 0)")
        for a in range(kk.shape[0]):
            if not 0 <= kk[a] < self.d or slots_lookup(&self.S, kk[a]) >= 0:
                raise ValueError(f"a pickled SparseRidgeState has an invalid coordinate "
                                 f"{kk[a]} (d={self.d})")
            slot = self.new_slot(kk[a])
            if slot < 0:
                raise MemoryError()
            self.u[slot] = uu[a]
            self.S.wt[slot] = uu[a] * uu[a]
            self.am[2 * slot] = aa[2 * a]
            self.am[2 * slot + 1] = aa[2 * a + 1]
        btree_build(self.S.wt, self.S.tree, self.S.tcap, self.S.nblocks)
        if 4 * self.S.n >= self.d and self.to_identity() != 0:
            raise MemoryError()

    def moved(self):
        """(coordinates, u) of the moved coordinates, in the order they first moved."""
        n = self.S.n
        if n == 0:
            return np.zeros(0, dtype=np.int_), np.zeros(0)
        return (np.array(<long[:n]>self.S.keys, dtype=np.int_),
                np.array(<double[:n]>self.u, dtype=np.float64))

    def coef(self):
        """The current iterate w = s·u (dense)."""
        w = np.full(self.d, self.base * self.s)
        keys, u = self.moved()
        w[keys] = u * self.s
        return w

    def average(self):
        """w̄ = (1/t) Σ_{τ<=t} w_τ (HK12 Alg. 1 line 14), without changing the state."""
        if self.t == 0:
            return self.coef()
        cdef double t = <double>self.t
        avg = np.full(self.d, (self.flushed_base + self.base * (self.C - self.mark_base)) / t)
        cdef double[::1] av = avg
        cdef long a
        for a in range(self.S.n):
            av[self.S.keys[a]] = (self.am[2 * a] + self.u[a] * (self.C - self.am[2 * a + 1])) / t
        return avg

    def outputs(self):
        """(average(), coef()) (a learner's ``coef_`` and ``w_``)."""
        w = self.coef()
        return (w.copy() if self.t == 0 else self.average()), w

    def sampling_weights(self):
        """u_j² for every coordinate (the weights j is drawn by, for tests)."""
        w = self.coef() / self.s
        return w * w

    def _move(self, keys, values):
        """Set u_i = values[a] at i = keys[a] (moving them; for the tests of the draws)."""
        cdef long[::1] kk = np.ascontiguousarray(keys, dtype=np.int_)
        cdef double[::1] vv = np.ascontiguousarray(values, dtype=np.float64)
        cdef long a, slot
        for a in range(kk.shape[0]):
            if not 0 <= kk[a] < self.d:
                raise ValueError(f"coordinate {kk[a]} is not in range(d={self.d})")
            slot = self.touch(kk[a])
            if slot < 0:
                raise MemoryError()
            self.u[slot] = vv[a]
            self.S.wt[slot] = vv[a] * vv[a]
        btree_build(self.S.wt, self.S.tree, self.S.tcap, self.S.nblocks)
        self.exact_norm()

    def _sample_j(self, object rng, Py_ssize_t size):
        """``size`` draws of line 8's j ∝ u_j² (with their u_j), for the tests of the law."""
        cdef bitgen_t* bg = bitgen_of(rng)
        out = np.empty(size, dtype=np.int_)
        uj = np.empty(size)
        cdef long[::1] o = out
        cdef double[::1] uu = uj
        cdef Py_ssize_t t
        if not self.S.tree[1] + self.unmoved_mass() > 0.0:
            raise ValueError("every u_j is 0: there is no j to draw")
        with rng.bit_generator.lock:
            for t in range(size):
                o[t] = self.draw_j(bg, &uu[t])
        return out, uj

    cdef void fold_scale(self) noexcept nogil:
        """w = s·u → u ← s·u, s ← 1, keeping every flushed average (O(number moved))."""
        cdef long a
        cdef double total = 0.0
        for a in range(self.S.n):
            self.am[2 * a] += self.u[a] * (self.C - self.am[2 * a + 1])
            self.am[2 * a + 1] = 0.0
            self.u[a] *= self.s
            self.S.wt[a] = self.u[a] * self.u[a]
            total += self.S.wt[a]
        self.flushed_base += self.base * (self.C - self.mark_base)
        self.mark_base = 0.0
        self.base *= self.s
        btree_build(self.S.wt, self.S.tree, self.S.tcap, self.S.nblocks)
        self.C = 0.0
        self.s = 1.0
        self.norm_sq = total + self.unmoved_mass()
        self.since_exact = 0
        self.n_folds += 1

    cdef void exact_norm(self) noexcept nogil:
        cdef long a
        cdef double total = 0.0
        for a in range(self.S.n):
            total += self.u[a] * self.u[a]
        self.norm_sq = total + self.unmoved_mass()
        self.since_exact = 0

    cdef inline bint upkeep_due(self, double s) noexcept nogil:
        """One step done: is the exact ‖u‖² (every max(number moved, 1024) steps) or a fold
        due?"""
        self.t += 1
        self.since_exact += 1
        return (self.since_exact >= self.S.n and self.since_exact >= 1024) \
            or s < self.fold_low or s > 1e100

    def run(self, object rng, const double[:, ::1] X, const double[::1] Y, long k,
            object q_rows, double eta, long[::1] attributes, object record,
            long n_inner=1, long n_steps=-1, long row0=0):
        """:meth:`RidgeState.run` on this state, until the step at which a quarter of the
        coordinates has moved (``to_identity``): returns the number of steps made, and the
        caller continues on :meth:`dense` (the learners do)."""
        m = X.shape[0] if n_steps < 0 else n_steps
        with rng.bit_generator.lock:
            return sparse_steps(self, rng, X, Y, None, k, q_rows, eta, attributes, record,
                                n_inner, m, row0)

    def run_oracle(self, object rng, RowOracle oracle, long k, object q_rows, double eta,
                   long[::1] attributes, object record, long n_inner, long n_steps):
        """:meth:`RidgeState.run_oracle` on this state, until the switch (see ``run``)."""
        if oracle.d != self.d:
            raise ValueError(f"the oracle has d={oracle.d}, the state d={self.d}")
        with rng.bit_generator.lock, oracle.rng.bit_generator.lock:
            return sparse_steps(self, rng, None, None, oracle, k, q_rows, eta, attributes,
                                record, n_inner, n_steps, 0)

    def dense(self):
        """The same state as a RidgeState (after ``to_identity``: the arrays are already in
        its layout), to continue the run on the dense kernel."""
        if not self.S.identity:
            raise ValueError("dense() needs every coordinate in its own slot (to_identity)")
        state = RidgeState(np.array(<double[:self.d]>self.u), self.B)
        state._load((self.s, self.norm_sq, self.C, self.t, self.since_exact, self.n_folds,
                     self.fold_low), np.array(<double[:2 * self.d]>self.am))
        return state


# The step loops of both states (``dense_steps``, ``sparse_steps``): generated at build time by
# setup.py from the template ``_steps.pxi.tp``, which holds them once for ridge and lasso.
include "_ridge_steps.pxi"


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
