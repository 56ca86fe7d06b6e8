# cython: language_level=3
"""O(k + log d) steps of the ridge family: HK12 Alg. 1 (AERR), KS15 Alg. 1 (GAERR, DDAERR).

The iterate is kept as w = s·u (a scale s and a vector u), so that

* the gradient step w − η g̃ touches only the k coordinates of x̃ (u_i −= η φ̃ x̃_i / s);
* the projection onto {‖w‖₂ <= B} (HK12 Alg. 1 line 12) multiplies s only, with ‖u‖₂²
  maintained incrementally and recomputed exactly every max(d, 1024) steps (bounded drift);
* j ∝ w_j² (line 8) is drawn from a sum tree over u_j², updated at the changed coordinates;
* the average w̄ = (1/m) Σ_t w_t (line 14) is accumulated lazily: C = Σ_τ s_τ is a running
  sum, and a coordinate's contribution u_i·(C − C_i) is flushed only when u_i changes.

When s falls below 2⁻⁸ (it only shrinks, by projections) every coordinate is flushed, s is
folded into u and C restarts: all s_τ summed into one C stay within a factor 2⁸, so C − C_i
loses no precision to cancellation (O(d) per 256-fold shrinkage).
Randomness: the caller's Generator through ``bitgen_t`` (see laocheck.estimators).
"""
import numpy as np
from libc.math cimport sqrt
from numpy.random cimport bitgen_t

from laocheck.estimators._samplers cimport SumTree, bitgen_of

from ._common cimport draw_data_point


cdef class RidgeState:
    """The state of an OGD run with L2-ball projection, in the w = s·u representation."""
    cdef public double s, norm_sq, C, B
    cdef public double fold_low   # fold s into u below this (tests raise it to force folds)
    cdef public long t, d, since_exact, n_folds
    cdef double[::1] u
    cdef double[::1] acc
    cdef double[::1] mark
    cdef SumTree tree
    cdef long[::1] idx
    cdef double[::1] val

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
        self.acc = np.zeros(self.d)
        self.mark = np.zeros(self.d)
        self.tree = SumTree(w1 * w1)
        self.idx = np.zeros(self.d, dtype=np.int_)
        self.val = np.zeros(self.d)

    def __reduce__(self):
        scalars = (self.s, self.norm_sq, self.C, self.t, self.since_exact, self.n_folds,
                   self.fold_low)
        return (_restore_ridge, (np.asarray(self.u).copy(), self.B, scalars,
                                 np.asarray(self.acc).copy(), np.asarray(self.mark).copy()))

    def _load(self, scalars, acc, mark):
        (self.s, self.norm_sq, self.C, self.t, self.since_exact, self.n_folds,
         self.fold_low) = scalars
        self.acc = np.array(acc, dtype=np.float64)
        self.mark = np.array(mark, dtype=np.float64)

    def coef(self):
        """The current iterate w = s·u."""
        return np.asarray(self.u) * self.s

    def average(self):
        """w̄ = (1/t) Σ_{τ<=t} w_τ (HK12 Alg. 1 line 14), without changing the state."""
        if self.t == 0:
            return self.coef()
        u = np.asarray(self.u)
        return (np.asarray(self.acc) + u * (self.C - np.asarray(self.mark))) / self.t

    cdef void flush_all(self) noexcept nogil:
        cdef long i
        for i in range(self.d):
            self.acc[i] += self.u[i] * (self.C - self.mark[i])
            self.mark[i] = self.C

    cdef void fold_scale(self) noexcept nogil:
        """w = s·u → u ← s·u, s ← 1, keeping every flushed average (O(d))."""
        cdef long i
        cdef double total = 0.0
        self.flush_all()
        for i in range(self.d):
            self.u[i] *= self.s
            total += self.u[i] * self.u[i]
            self.tree.set_weight(i, self.u[i] * self.u[i])
        # C and the marks counted Σ s_τ in the old units: both restart at 0 with s = 1.
        for i in range(self.d):
            self.mark[i] = 0.0
        self.C = 0.0
        self.s = 1.0
        self.norm_sq = total
        self.n_folds += 1

    cdef void exact_norm(self) noexcept nogil:
        cdef long i
        cdef double total = 0.0
        for i in range(self.d):
            total += self.u[i] * self.u[i]
        self.norm_sq = total
        self.since_exact = 0

    def run(self, object rng, const double[:, ::1] X, const double[::1] Y, long k,
            object q_rows, double eta, long[::1] attributes, object record):
        """One pass over the rows of X (HK12 Alg. 1 lines 2-13 / KS15 Alg. 1 lines 2-13).

        ``q_rows``: None for uniform q, else q's alias rows with payload 1/(k q_i).
        ``record``: None, or a (m, k + 1) int array receiving the drawn indices of each step
        (i_1..i_k, then j, −1 when w = 0 and no j is drawn) for replay by the reference.
        """
        cdef bitgen_t* bg = bitgen_of(rng)
        cdef long m = X.shape[0], d = self.d
        cdef bint uniform_q = q_rows is None
        cdef const double[:, ::1] qr = np.zeros((1, 4)) if uniform_q else q_rows
        cdef bint recording = record is not None
        cdef long[:, ::1] rec = np.zeros((1, k + 1), dtype=np.int_) if not recording else record
        cdef long step, r, i, j, nnz, a, seen
        cdef double phi, old, new, norm, y
        with rng.bit_generator.lock, nogil:
            for step in range(m):
                y = Y[step]
                self.C += self.s                       # w_t enters the average (line 14)
                # lines 3-7: x̃ from k draws (payload x_i/(k q_i), merged per index)
                nnz = draw_data_point(bg, X, step, d, k, uniform_q, qr, self.idx, self.val,
                                      recording, rec)
                # lines 8-9: j ∝ w_j² and φ̃ = ‖w‖² x_j / w_j − y
                seen = nnz
                if self.norm_sq > 0.0:
                    j = self.tree.draw(bg)
                    phi = self.s * self.norm_sq * X[step, j] / self.u[j] - y
                    for a in range(nnz):
                        if self.idx[a] == j:
                            break
                    else:
                        seen += 1
                else:
                    j = -1
                    phi = -y                           # w = 0: wᵀx = 0 is known (fallback)
                if recording:
                    rec[step, k] = j
                attributes[step] = seen
                # lines 10-11: v = w − η φ̃ x̃, on the k coordinates of x̃
                for a in range(nnz):
                    i = self.idx[a]
                    old = self.u[i]
                    self.acc[i] += old * (self.C - self.mark[i])
                    self.mark[i] = self.C
                    new = old - eta * phi * self.val[a] / self.s
                    self.u[i] = new
                    self.norm_sq += new * new - old * old
                    self.tree.set_weight(i, new * new)
                if self.norm_sq < 0.0:
                    self.norm_sq = 0.0
                # line 12: w_{t+1} = v · B / max(‖v‖, B)
                norm = self.s * sqrt(self.norm_sq)
                if norm > self.B:
                    self.s *= self.B / norm
                self.t += 1
                self.since_exact += 1
                if self.since_exact >= d and self.since_exact >= 1024:
                    self.exact_norm()
                if self.s < self.fold_low or self.s > 1e100:
                    self.fold_scale()


def _restore_ridge(u, B, scalars, acc, mark):
    """Unpickle a RidgeState (its sum tree is rebuilt from u², which is what it holds)."""
    state = RidgeState(u, B)
    state._load(scalars, acc, mark)
    return state
