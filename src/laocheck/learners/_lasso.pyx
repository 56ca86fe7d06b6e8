# cython: language_level=3
"""O(k + log d) steps of the lasso family: HK12 Alg. 2 (AELR), KS15 Alg. 3 (GAELR, DDAELR).

EG± is kept in the log domain: a_i = log z⁺_i and b_i = log z⁻_i never overflow or underflow
(each step moves them by at most 1, as η·|ḡ_i| <= 1 after clipping). The linear values are
taken relative to a common offset c, z±_i = exp(a_i − c), and

* only the k coordinates of x̃ change per step (ḡ_i = clip(φ̃ x̃_i, 1/η) is k-sparse);
* the normaliser Z = Σ_i z⁺_i + z⁻_i is updated incrementally and recomputed exactly every
  max(d, 1024) steps;
* j ∝ |w_j| = |z⁺_j − z⁻_j| (line 9) is drawn from a blocked sum tree (``_common.pxd``);
* w_t = B (z⁺ − z⁻)/Z_t = s_t u with s_t = B/Z_t: the average w̄ is accumulated lazily as in
  ``_ridge.pyx`` (C = Σ_τ s_τ; a coordinate is flushed when it changes);
* when Z leaves [2⁻⁸, 2⁸] the offset moves to c + log Z (so Z ≈ 1 again): every coordinate is
  flushed and C restarts. This keeps every s_τ within a factor 2¹⁶ of the others in one
  C (no cancellation in C − C_i) and every exp(a_i − c) <= 2⁸ (no overflow), at O(d) per
  256-fold change of Z.
"""
import numpy as np
from libc.math cimport exp, fabs, isfinite, log
from numpy.random cimport bitgen_t

from laocheck.estimators._samplers cimport bitgen_of

from laocheck.data._oracle cimport RowOracle

from ._common cimport (__builtin_prefetch, add_seen, btree_build, btree_draw, btree_refresh,
                       draw_indices, merge_x_tilde)


def _aligned(long n):
    """n zero doubles starting on a 64-byte boundary (one coordinate's cell = one line)."""
    buf = np.zeros(n + 8)
    off = (-buf.ctypes.data % 64) // 8
    return buf[off:off + n]


cdef enum:
    CELL = 8   # a = log z⁺, b = log z⁻, ep = z⁺, em = z⁻ (offset units), acc, mark, -, -


cdef inline double eg_update(double* cells, double* wt, double* tree, long cap,
                             const long* idx, const double* val, long nnz, double phi,
                             double eta, double clip, double C, double Z) noexcept nogil:
    """HK12 Alg. 2 / KS15 Alg. 3 lines 11-16 on x̃'s ``nnz`` coordinates: ḡ_i = clip(φ̃ x̃_i,
    1/η), z±_i ← z±_i exp(∓η ḡ_i) (log and linear forms), each coordinate's share of w̄
    flushed at C first, the sum tree's |w_i| updated; returns the new normaliser Z (one
    function for the row and the oracle loops: the same arithmetic in the same order)."""
    cdef long a_, i
    cdef double* cl
    cdef double g, old_p, old_m, new_p, new_m, e
    for a_ in range(nnz):
        i = idx[a_]
        cl = cells + CELL * i
        g = phi * val[a_]                  # line 11: g̃ = φ̃ x̃
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
        Z += (new_p + new_m) - (old_p + old_m)
        wt[i] = fabs(new_p - new_m)
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

    def __init__(self, long d, double B):
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

    def _column(self, int j):
        return np.asarray(self.cells).reshape(self.d, CELL)[:, j]

    def __reduce__(self):
        scalars = (self.c, self.Z, self.C, self.t, self.since_exact, self.n_shifts)
        return (_restore_lasso, (self.d, self.B, scalars, np.asarray(self.cells).copy()))

    def _load(self, scalars, cells):
        self.c, self.Z, self.C, self.t, self.since_exact, self.n_shifts = scalars
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
            long n_inner=1, long n_steps=-1):
        """Steps of HK12 Alg. 2 lines 2-17 / KS15 Alg. 3 lines 2-17; the arguments are those
        of ``RidgeState.run`` (j ∝ |w_j| here)."""
        with rng.bit_generator.lock:
            self._steps(rng, X, Y, None, k, q_rows, eta, attributes, record, n_inner,
                        X.shape[0] if n_steps < 0 else n_steps)

    def run_oracle(self, object rng, RowOracle oracle, long k, object q_rows, double eta,
                   long[::1] attributes, object record, long n_inner, long n_steps):
        """``run``'s steps on ``n_steps`` examples drawn by ``oracle`` (see
        ``RidgeState.run_oracle``): x_i read through ``oracle.attribute(i)`` for the chosen
        attributes only, y from ``oracle.y``."""
        if oracle.d != self.d:
            raise ValueError(f"the oracle has d={oracle.d}, the state d={self.d}")
        with rng.bit_generator.lock, oracle.rng.bit_generator.lock:
            self._steps(rng, None, None, oracle, k, q_rows, eta, attributes, record, n_inner,
                        n_steps)

    cdef void _steps(self, object rng, const double[:, ::1] X, const double[::1] Y,
                     RowOracle oracle, long k, object q_rows, double eta,
                     long[::1] attributes, object record, long n_inner, long m) except *:
        """``m`` steps on the rows of X taken cyclically or, when ``oracle`` is given (X and
        Y None), on the oracle's examples; the callers hold the generators' locks."""
        cdef bitgen_t* bg = bitgen_of(rng)
        cdef bint rows = oracle is None
        cdef long P = X.shape[0] if rows else 0, d = self.d
        cdef bint uniform_q = q_rows is None
        cdef const double[:, ::1] qr = np.zeros((1, 4)) if uniform_q else q_rows
        cdef bint recording = record is not None
        cdef long[:, ::1] rec = (np.zeros((1, k + n_inner), dtype=np.int_) if not recording
                                 else record)
        cdef long[::1] draws = np.empty(k + n_inner, dtype=np.int_)
        cdef double[::1] weights = np.empty(k)
        cdef double* cells = &self.cells[0]
        cdef double* wt = &self.wt[0]
        cdef double* tree = &self.tree[0]
        cdef long cap = self.cap, nblocks = self.nblocks
        cdef long* idx = &self.idx[0]
        cdef double* val = &self.val[0]
        cdef long* ii = &draws[0]                 # x̃'s k indices (drawn one step ahead)
        cdef long* jj = ii + k                    # φ̃'s n_inner indices
        cdef double* ww = &weights[0]
        cdef const double* qp = &qr[0, 0]
        cdef const double* X0 = &X[0, 0] if rows and P > 0 else NULL
        cdef long* recp = NULL
        cdef const double* xrow = NULL
        cdef const double* xnext
        cdef double* cl
        cdef long step, row = 0, r, j, i, nnz, seen, n_j, j1 = -1
        cdef double phi, s, norm1, clip = 1.0 / eta, y, xj
        cdef double C = self.C, Z = self.Z, B = self.B
        with nogil:
            if m > 0:                              # step 1's draws: x̃'s, its first j
                draw_indices(bg, d, k, uniform_q, qp, ii, ww)
                if B / Z * tree[1] > 0.0:
                    j1 = btree_draw(bg, wt, tree, cap, nblocks)
            for step in range(m):
                if rows:
                    xrow = X0 + row * d
                    y = Y[row]
                else:
                    oracle.next_example()
                    y = oracle.y
                s = B / Z                              # line 3: w_t = s (z⁺ − z⁻)
                C += s
                nnz = merge_x_tilde(xrow, oracle, k, ii, ww, idx, val)
                if recording:
                    recp = &rec[step, 0]
                    for r in range(k):
                        recp[r] = ii[r]
                norm1 = s * tree[1]
                n_j = 0
                if j1 >= 0:                            # line 9: j ∝ |w_j| (‖w‖₁ > 0)
                    n_j = n_inner
                    jj[0] = j1
                    for r in range(1, n_j):
                        jj[r] = btree_draw(bg, wt, tree, cap, nblocks)
                # Step t+1's draws of x̃ come next in the random stream: drawn now (the same
                # numbers in the same order as at step t+1's start), their entries of the
                # next row and of the state prefetched while x_j is read from memory.
                if step + 1 < m:
                    draw_indices(bg, d, k, uniform_q, qp, ii, ww)
                    if rows:
                        xnext = X0 + (row + 1 if row + 1 < P else 0) * d
                    for r in range(k):
                        i = ii[r]
                        if rows:
                            __builtin_prefetch(xnext + i)
                        else:
                            oracle.prefetch_next(i)
                        __builtin_prefetch(cells + CELL * i)
                        __builtin_prefetch(wt + i)
                seen = nnz
                if n_j > 0:
                    phi = 0.0
                    for r in range(n_j):
                        j = jj[r]
                        # line 10: ‖w‖₁ sign(w_j) x_j (the sign of w_j is that of z⁺_j − z⁻_j)
                        cl = cells + CELL * j
                        xj = xrow[j] if rows else oracle.attribute(j)
                        phi += xj if cl[2] > cl[3] else -xj
                        if recording:
                            recp[k + r] = j
                        seen = add_seen(idx, seen, j)
                    phi = norm1 * phi / n_inner - y
                else:
                    phi = -y                           # w = 0 (e.g. w_1): fallback
                attributes[step] = seen
                Z = eg_update(cells, wt, tree, cap, idx, val, nnz, phi, eta, clip, C, Z)
                if not isfinite(Z):                    # NaN from an overflowed φ̃ x̃: stop
                    self.failed = self.t + 1
                    break
                if self.upkeep_due(Z):
                    self.upkeep(C, Z)
                    C, Z = self.C, self.Z
                # Step t+1's first j comes next in the random stream (after its x̃ draws):
                # drawn now, on w_{t+1}'s tree (‖w_{t+1}‖₁ = (B/Z)·tree[1], as step t+1 will
                # compute it), and x_j and its cell prefetched for step t+1.
                j1 = -1
                if step + 1 < m and B / Z * tree[1] > 0.0:
                    j1 = btree_draw(bg, wt, tree, cap, nblocks)
                    if rows:
                        __builtin_prefetch(X0 + (row + 1 if row + 1 < P else 0) * d + j1)
                    else:
                        oracle.prefetch_next(j1)
                    __builtin_prefetch(cells + CELL * j1)
                if rows:
                    row += 1
                    if row == P:
                        row = 0
        self.C, self.Z = C, Z


def _restore_lasso(d, B, scalars, cells):
    """Unpickle a LassoState (the sum tree is rebuilt from the cells' z±)."""
    state = LassoState(d, B)
    state._load(scalars, cells)
    return state
