# cython: language_level=3
"""O(k + log d) steps of the lasso family: HK12 Alg. 2 (AELR), KS15 Alg. 3 (GAELR, DDAELR).

EG± is kept in the log domain: a_i = log z⁺_i and b_i = log z⁻_i never overflow or underflow
(each step moves them by at most 1, as η·|ḡ_i| <= 1 after clipping). The linear values are
taken relative to a common offset c, z±_i = exp(a_i − c), and

* only the k coordinates of x̃ change per step (ḡ_i = clip(φ̃ x̃_i, 1/η) is k-sparse);
* the normaliser Z = Σ_i z⁺_i + z⁻_i is updated incrementally and recomputed exactly every
  max(d, 1024) steps;
* j ∝ |w_j| = |z⁺_j − z⁻_j| (line 9) is drawn from a sum tree;
* w_t = B (z⁺ − z⁻)/Z_t = s_t u with s_t = B/Z_t: the average w̄ is accumulated lazily as in
  ``_ridge.pyx`` (C = Σ_τ s_τ; a coordinate is flushed when it changes);
* when Z leaves [2⁻⁸, 2⁸] the offset moves to c + log Z (so Z ≈ 1 again): every coordinate is
  flushed and C restarts. This keeps every s_τ within a factor 2¹⁶ of the others in one
  C (no cancellation in C − C_i) and every exp(a_i − c) <= 2⁸ (no overflow), at O(d) per
  256-fold change of Z.
"""
import numpy as np
from libc.math cimport exp, fabs, log
from numpy.random cimport bitgen_t

from laocheck.estimators._samplers cimport SumTree, bitgen_of

from ._common cimport draw_data_point


cdef class LassoState:
    """The state of an EG± run (HK12 Alg. 2), in the log domain."""
    cdef public double B, C, c, Z
    cdef public long t, d, since_exact, n_shifts
    cdef double[::1] a
    cdef double[::1] b
    cdef double[::1] acc
    cdef double[::1] mark
    cdef SumTree tree
    cdef long[::1] idx
    cdef double[::1] val

    def __init__(self, long d, double B):
        self.d = d
        self.B = B
        self.a = np.zeros(d)          # line 1: z⁺_1 ← 1_d, z⁻_1 ← 1_d (logs 0)
        self.b = np.zeros(d)
        self.c = np.log(2.0 * d)      # offset with Z = Σ exp(a − c) + exp(b − c) = 1
        self.Z = 1.0
        self.C = 0.0
        self.t = 0
        self.since_exact = 0
        self.n_shifts = 0
        self.acc = np.zeros(d)
        self.mark = np.zeros(d)
        self.tree = SumTree(np.zeros(d))
        self.idx = np.zeros(d, dtype=np.int_)
        self.val = np.zeros(d)

    def __reduce__(self):
        scalars = (self.c, self.Z, self.C, self.t, self.since_exact, self.n_shifts)
        return (_restore_lasso, (self.d, self.B, scalars, np.asarray(self.a).copy(),
                                 np.asarray(self.b).copy(), np.asarray(self.acc).copy(),
                                 np.asarray(self.mark).copy()))

    def _load(self, scalars, a, b, acc, mark):
        self.c, self.Z, self.C, self.t, self.since_exact, self.n_shifts = scalars
        self.a = np.array(a, dtype=np.float64)
        self.b = np.array(b, dtype=np.float64)
        self.acc = np.array(acc, dtype=np.float64)
        self.mark = np.array(mark, dtype=np.float64)
        self.tree = SumTree(np.abs(np.exp(np.asarray(self.a) - self.c)
                                   - np.exp(np.asarray(self.b) - self.c)))

    cdef inline double delta(self, long i) noexcept nogil:
        return exp(self.a[i] - self.c) - exp(self.b[i] - self.c)

    def coef(self):
        """The current iterate w = B (z⁺ − z⁻)/Z (line 3)."""
        a, b = np.asarray(self.a), np.asarray(self.b)
        return self.B * (np.exp(a - self.c) - np.exp(b - self.c)) / self.Z

    def average(self):
        """w̄ = (1/t) Σ_τ w_τ (line 18) without changing the state."""
        if self.t == 0:
            return self.coef()
        a, b = np.asarray(self.a), np.asarray(self.b)
        u = np.exp(a - self.c) - np.exp(b - self.c)
        return (np.asarray(self.acc) + u * (self.C - np.asarray(self.mark))) / self.t

    cdef void recompute(self, double new_c) noexcept nogil:
        """Flush every coordinate, move the offset to ``new_c``, recompute Z and the tree."""
        cdef long i
        cdef double total = 0.0, u
        for i in range(self.d):
            self.acc[i] += self.delta(i) * (self.C - self.mark[i])
        if new_c != self.c:
            # w = s·u is unchanged when u and Z are both scaled by exp(c − new_c): s is B/Z
            self.n_shifts += 1
        self.c = new_c
        for i in range(self.d):
            u = self.delta(i)
            total += exp(self.a[i] - self.c) + exp(self.b[i] - self.c)
            self.tree.set_weight(i, fabs(u))
        self.Z = total
        # acc holds w-units (δ·s summed); C counted s = B/Z in the old units, so it restarts
        # at 0 with every mark.
        for i in range(self.d):
            self.mark[i] = 0.0
        self.C = 0.0
        self.since_exact = 0

    def run(self, object rng, const double[:, ::1] X, const double[::1] Y, long k,
            object q_rows, double eta, long[::1] attributes, object record):
        """One pass (HK12 Alg. 2 lines 2-17 / KS15 Alg. 3 lines 2-17); arguments as in
        ``RidgeState.run``."""
        cdef bitgen_t* bg = bitgen_of(rng)
        cdef long m = X.shape[0], d = self.d
        cdef bint uniform_q = q_rows is None
        cdef const double[:, ::1] qr = np.zeros((1, 4)) if uniform_q else q_rows
        cdef bint recording = record is not None
        cdef long[:, ::1] rec = np.zeros((1, k + 1), dtype=np.int_) if not recording else record
        cdef long step, r, i, j, nnz, a_, seen
        cdef double phi, s, norm1, wj, g, clip = 1.0 / eta, old_p, old_m, new_p, new_m, y
        with rng.bit_generator.lock, nogil:
            for step in range(m):
                y = Y[step]
                s = self.B / self.Z                    # line 3: w_t = s (z⁺ − z⁻)
                self.C += s
                nnz = draw_data_point(bg, X, step, d, k, uniform_q, qr, self.idx, self.val,
                                      recording, rec)
                seen = nnz
                norm1 = s * self.tree.total_weight()
                if norm1 > 0.0:                        # line 9: j ∝ |w_j|
                    j = self.tree.draw(bg)
                    wj = s * self.delta(j)
                    phi = norm1 * (1.0 if wj > 0 else -1.0) * X[step, j] - y   # line 10
                    for a_ in range(nnz):
                        if self.idx[a_] == j:
                            break
                    else:
                        seen += 1
                else:
                    j = -1
                    phi = -y                           # w = 0 (e.g. w_1): fallback
                if recording:
                    rec[step, k] = j
                attributes[step] = seen
                for a_ in range(nnz):                  # lines 12-16 on x̃'s coordinates
                    i = self.idx[a_]
                    g = phi * self.val[a_]             # line 11: g̃ = φ̃ x̃
                    if g > clip:                       # line 13: ḡ = clip(g̃, 1/η)
                        g = clip
                    elif g < -clip:
                        g = -clip
                    self.acc[i] += self.delta(i) * (self.C - self.mark[i])
                    self.mark[i] = self.C
                    old_p = exp(self.a[i] - self.c)
                    old_m = exp(self.b[i] - self.c)
                    self.a[i] -= eta * g               # line 14: z⁺ ← z⁺ exp(−η ḡ)
                    self.b[i] += eta * g               # line 15: z⁻ ← z⁻ exp(+η ḡ)
                    new_p = exp(self.a[i] - self.c)
                    new_m = exp(self.b[i] - self.c)
                    self.Z += (new_p + new_m) - (old_p + old_m)
                    self.tree.set_weight(i, fabs(new_p - new_m))
                self.t += 1
                self.since_exact += 1
                if self.Z > 256.0 or self.Z < 1.0 / 256.0:
                    self.recompute(self.c + log(self.Z))
                elif self.since_exact >= d and self.since_exact >= 1024:
                    self.recompute(self.c)


def _restore_lasso(d, B, scalars, a, b, acc, mark):
    """Unpickle a LassoState (its sum tree is rebuilt from a, b and c, which is what it holds)."""
    state = LassoState(d, B)
    state._load(scalars, a, b, acc, mark)
    return state
