# cython: language_level=3
"""O(k log d) steps of CB11 Fig. 2 (AER): Pegasos with the adaptive gradient estimate (8) and
the L1-ball projection (11) after a sparse update, without touching all d coordinates.

Representation. w = s·u, where the (1 − 1/t) shrink of eq. (10) multiplies s only, and the
active coordinates (u_i ≠ 0) are u_i = sign_i·(a_i − Θ) with one global offset Θ. The L1
projection (11) is w_i ← sign(w_i)·max(|w_i| − θ, 0) (Duchi, Shalev-Shwartz, Singer and Chandra
2008, eq. (4) and Sec. 5): it raises Θ by θ/s and removes the coordinates whose a_i <= Θ. The
keys a_i live in a treap (a randomised search tree ordered by (a_i, i), node priorities from a
fixed hash of i) whose nodes carry their subtree's count and sum of keys; it serves

* the projection: θ from one descent (the sort-free pivot of Duchi et al. 2008, Sec. 5, on an
  augmented search tree instead of their red-black tree; the same O(log d));
* the sampling of i ∝ |w_i| (Fig. 2): a subtree's weight is Σ a − Θ·count, so one descent;
* removals of the smallest keys (each coordinate is removed at most once per insertion).

Why by hand: no maintained library offers an augmented order-statistics tree callable without
the GIL (Duchi et al.'s own code is O(d) per projection).

The average w̄ (Fig. 2: w̄ += w/m after each update) is accumulated lazily: with C1 = Σ_τ s_τ
and C2 = Σ_τ s_τ Θ_τ, a coordinate active with fixed (sign, a) over a stretch contributes
sign·(a ΔC1 − ΔC2); it is flushed when it changes or leaves. When s < 2⁻⁸ or Θ·s > 2⁸·B
(cancellation in a_i − Θ) everything is renormalised (a_i ← s(a_i − Θ), Θ ← 0, s ← 1; the
map is increasing, so the tree keeps its shape), in O(active coordinates).

Examples come from the rows of X (``run``) or from an attribute oracle (``run_oracle``,
:mod:`laocheck.data._oracle`): one loop body (``_steps``) reads x_j from the row or through
``oracle.attribute(j)``, for the k/2 attributes of C and the k/2 draws i only.
"""
import numpy as np
from libc.math cimport fabs, isfinite
from libc.stdint cimport uint64_t
from numpy.random cimport bitgen_t

from laocheck.estimators._rng cimport bounded, partial_shuffle, uniform01
from laocheck.estimators._samplers cimport bitgen_of

from laocheck.data._oracle cimport RowOracle


cdef packed struct Node:
    double key       # a_i
    double sum       # Σ key over the subtree
    double prio
    long left
    long right
    long cnt         # nodes in the subtree


cdef inline double hash_prio(long i) noexcept nogil:
    """splitmix64 of i, as a double in [0, 1): fixed priorities (they shape the tree only)."""
    cdef uint64_t z = <uint64_t>i + 0x9E3779B97F4A7C15ULL
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    z = z ^ (z >> 31)
    return <double>(z >> 11) * (1.0 / 9007199254740992.0)


cdef inline bint less(Node* T, long i, long j) noexcept nogil:
    """The order of the treap: (a_i, i) < (a_j, j)."""
    return T[i].key < T[j].key or (T[i].key == T[j].key and i < j)


cdef inline void pull(Node* T, long x) noexcept nogil:
    cdef long l = T[x].left, r = T[x].right
    T[x].cnt = 1
    T[x].sum = T[x].key
    if l >= 0:
        T[x].cnt += T[l].cnt
        T[x].sum += T[l].sum
    if r >= 0:
        T[x].cnt += T[r].cnt
        T[x].sum += T[r].sum


cdef long merge(Node* T, long a, long b) noexcept nogil:
    """Every key of a below every key of b."""
    if a < 0:
        return b
    if b < 0:
        return a
    if T[a].prio > T[b].prio:
        T[a].right = merge(T, T[a].right, b)
        pull(T, a)
        return a
    T[b].left = merge(T, a, T[b].left)
    pull(T, b)
    return b


cdef void split(Node* T, long x, long i, long* lo, long* hi) noexcept nogil:
    """Split subtree x into the keys below node i's and the rest."""
    if x < 0:
        lo[0] = -1
        hi[0] = -1
        return
    if less(T, x, i):
        split(T, T[x].right, i, &T[x].right, hi)
        pull(T, x)
        lo[0] = x
    else:
        split(T, T[x].left, i, lo, &T[x].left)
        pull(T, x)
        hi[0] = x


cdef long insert(Node* T, long root, long i) noexcept nogil:
    cdef long lo, hi
    T[i].left = -1
    T[i].right = -1
    pull(T, i)
    split(T, root, i, &lo, &hi)
    return merge(T, merge(T, lo, i), hi)


cdef long erase(Node* T, long x, long i) noexcept nogil:
    """Remove node i (present) from subtree x; returns the new subtree root (a node that is
    not found, which only a broken order could cause, leaves the subtree as it is)."""
    cdef long r
    if x < 0:
        return x
    if x == i:
        r = merge(T, T[x].left, T[x].right)
        T[i].left = -1
        T[i].right = -1
        return r
    if less(T, i, x):
        T[x].left = erase(T, T[x].left, i)
    else:
        T[x].right = erase(T, T[x].right, i)
    pull(T, x)
    return x


cdef long minimum(Node* T, long x) noexcept nogil:
    while T[x].left >= 0:
        x = T[x].left
    return x


cdef void renormalise_keys(Node* T, long x, double s, double theta) noexcept nogil:
    """a ← s(a − Θ) on the subtree (increasing: the order is kept); sums recomputed."""
    if x < 0:
        return
    renormalise_keys(T, T[x].left, s, theta)
    renormalise_keys(T, T[x].right, s, theta)
    T[x].key = s * (T[x].key - theta)
    pull(T, x)


cdef class AERState:
    """The state of a CB11 Fig. 2 run (see the module docstring)."""
    cdef public double s, theta, C1, C2, B, lam
    cdef public long t, d, root, n_renorms
    cdef public long failed        # 0, or the step whose update was non-finite (run stops)
    cdef public double renorm_low
    cdef unsigned char[::1] buf
    cdef Node* T
    cdef signed char[::1] sign     # 0: inactive (u_i = 0)
    cdef double[::1] acc           # flushed Σ_τ w_τ,i
    cdef double[::1] m1            # C1 at the last flush
    cdef double[::1] m2            # C2 at the last flush
    cdef long[::1] perm
    cdef double[::1] v

    def __init__(self, long d, double B, double lam):
        self.d = d
        self.B = B
        self.lam = lam
        self.s = 1.0
        self.theta = 0.0
        self.C1 = 0.0
        self.C2 = 0.0
        self.t = 0
        self.root = -1
        self.n_renorms = 0
        self.failed = 0
        self.renorm_low = 1.0 / 256.0
        self.buf = np.zeros(d * sizeof(Node), dtype=np.uint8)
        self.T = <Node*>&self.buf[0]
        cdef long i
        for i in range(d):
            self.T[i].prio = hash_prio(i)
            self.T[i].left = -1
            self.T[i].right = -1
        self.sign = np.zeros(d, dtype=np.int8)
        self.acc = np.zeros(d)
        self.m1 = np.zeros(d)
        self.m2 = np.zeros(d)
        self.perm = np.arange(d, dtype=np.int_)
        self.v = np.zeros(d)

    def __reduce__(self):
        scalars = (self.s, self.theta, self.C1, self.C2, self.t, self.root, self.n_renorms,
                   self.renorm_low)
        return (_restore_aer, (self.d, self.B, self.lam, scalars, bytes(self.buf),
                               np.asarray(self.sign).copy(), np.asarray(self.acc).copy(),
                               np.asarray(self.m1).copy(), np.asarray(self.m2).copy(),
                               np.asarray(self.perm).copy()))

    def _load(self, scalars, buf, sign, acc, m1, m2, perm):
        (self.s, self.theta, self.C1, self.C2, self.t, self.root, self.n_renorms,
         self.renorm_low) = scalars
        self.buf = np.frombuffer(buf, dtype=np.uint8).copy()
        self.T = <Node*>&self.buf[0]
        self.sign = np.array(sign, dtype=np.int8)
        self.acc = np.array(acc, dtype=np.float64)
        self.m1 = np.array(m1, dtype=np.float64)
        self.m2 = np.array(m2, dtype=np.float64)
        self.perm = np.array(perm, dtype=np.int_)

    def _u(self):
        keys = np.array([self.T[i].key for i in range(self.d)])
        sign = np.asarray(self.sign).astype(float)
        return np.where(sign != 0, sign * (keys - self.theta), 0.0)

    def coef(self):
        """The current w = s·u."""
        return self.s * self._u()

    def average(self):
        """w̄ = (1/t) Σ_τ w_τ over the iterates after each update (Fig. 2's w̄ += w/m)."""
        if self.t == 0:
            return np.zeros(self.d)
        keys = np.array([self.T[i].key for i in range(self.d)])
        sign = np.asarray(self.sign).astype(float)
        pending = sign * (keys * (self.C1 - np.asarray(self.m1))
                          - (self.C2 - np.asarray(self.m2)))
        return (np.asarray(self.acc) + np.where(sign != 0, pending, 0.0)) / self.t

    def check_tree(self):
        """Verify the treap's invariants (order, heap, counts, sums to rounding); for tests.
        Returns the active coordinates in key order."""
        out = []
        self._check(self.root, out)
        active = set(np.flatnonzero(np.asarray(self.sign)))
        if set(out) != active:
            raise AssertionError("the tree's nodes are not the active coordinates")
        return out

    def _check(self, long x, list out):
        if x < 0:
            return 0, 0.0
        cdef long l = self.T[x].left, r = self.T[x].right
        if l >= 0 and (self.T[l].prio > self.T[x].prio or not less(self.T, l, x)):
            raise AssertionError(f"heap/order broken at {l} under {x}")
        if r >= 0 and (self.T[r].prio > self.T[x].prio or not less(self.T, x, r)):
            raise AssertionError(f"heap/order broken at {r} under {x}")
        cl, sl = self._check(l, out)
        out.append(x)
        cr, sr = self._check(r, out)
        if self.T[x].cnt != cl + cr + 1:
            raise AssertionError(f"count broken at {x}")
        total = sl + sr + self.T[x].key
        if abs(self.T[x].sum - total) > 1e-9 * max(1.0, abs(total)):
            raise AssertionError(f"sum broken at {x}")
        return cl + cr + 1, total

    cdef inline void flush(self, long i) noexcept nogil:
        if self.sign[i] != 0:
            self.acc[i] += self.sign[i] * (self.T[i].key * (self.C1 - self.m1[i])
                                           - (self.C2 - self.m2[i]))
        self.m1[i] = self.C1
        self.m2[i] = self.C2

    cdef void flush_tree(self, long x) noexcept nogil:
        if x < 0:
            return
        self.flush_tree(self.T[x].left)
        self.flush_tree(self.T[x].right)
        self.flush(x)

    cdef void zero_marks(self, long x) noexcept nogil:
        if x < 0:
            return
        self.zero_marks(self.T[x].left)
        self.zero_marks(self.T[x].right)
        self.m1[x] = 0.0
        self.m2[x] = 0.0

    cdef void renormalise(self) noexcept nogil:
        """Flush every active coordinate; a ← s(a − Θ), Θ ← 0, s ← 1; C1, C2 and the marks
        restart at 0 (inactive coordinates re-mark when they enter)."""
        self.flush_tree(self.root)
        renormalise_keys(self.T, self.root, self.s, self.theta)
        self.zero_marks(self.root)
        self.s = 1.0
        self.theta = 0.0
        self.C1 = 0.0
        self.C2 = 0.0
        self.n_renorms += 1

    cdef long sample_abs(self, bitgen_t* bg) noexcept nogil:
        """i with probability (a_i − Θ)/Σ_j (a_j − Θ) over the active j: one descent."""
        cdef Node* T = self.T
        cdef long x, l, r, attempt
        cdef double u, wl, wx
        for attempt in range(128):
            if attempt == 64:
                self.renormalise()     # rounding in Σa − Θ·count: make the keys exact
            x = self.root
            u = uniform01(bg) * (T[x].sum - self.theta * T[x].cnt)
            while x >= 0:
                l = T[x].left
                wl = 0.0 if l < 0 else T[l].sum - self.theta * T[l].cnt
                if u < wl:
                    x = l
                    continue
                u -= wl
                wx = T[x].key - self.theta
                if u < wx:
                    return x
                u -= wx
                r = T[x].right
                if r < 0:
                    break          # rounding walked past the last key: redraw
                x = r
        x = self.root              # unreachable in practice: the largest |w_i|
        while T[x].right >= 0:
            x = T[x].right
        return x

    cdef double pivot(self, double R) noexcept nogil:
        """T with Σ_{a_i > T} (a_i − T) = R (R < Σ (a_i − Θ)): the keys taken in decreasing
        order, the last one kept is the largest rank ρ with a_(ρ) > (S_ρ − R)/ρ (Duchi et
        al. 2008, Fig. 1), found in one descent since the test is monotone in the rank."""
        cdef Node* T = self.T
        cdef long x = self.root, r, cnt_above = 0, best_cnt = 0, j
        cdef double sum_above = 0.0, best_sum = 0.0, S
        while x >= 0:
            r = T[x].right
            j = cnt_above + 1 + (T[r].cnt if r >= 0 else 0)
            S = sum_above + T[x].key + (T[r].sum if r >= 0 else 0.0)
            if T[x].key * j > S - R:          # x is kept: look for smaller kept keys
                best_cnt = j
                best_sum = S
                cnt_above = j
                sum_above = S
                x = T[x].left
            else:
                x = r
        return (best_sum - R) / best_cnt

    def run(self, object rng, const double[:, ::1] X, const double[::1] Y, long k,
            long[::1] attributes, object record, long n_steps=-1):
        """Fig. 2's loop over the rows of X (``n_steps`` >= 0: that many steps, the rows taken
        cyclically). ``record``: None or an (m, k) int array receiving C (k/2 indices) then
        the k/2 draws i of each step."""
        with rng.bit_generator.lock:
            self._steps(rng, X, Y, None, k, attributes, record,
                        X.shape[0] if n_steps < 0 else n_steps)

    def run_oracle(self, object rng, RowOracle oracle, long k, long[::1] attributes,
                   object record, long n_steps):
        """``run``'s steps on ``n_steps`` examples drawn by ``oracle`` (a
        :class:`laocheck.data._oracle.RowOracle`): the same learner random numbers, draws and
        arithmetic, with x_j read through ``oracle.attribute(j)`` for the k/2 attributes of C
        and the k/2 draws i only, and y from ``oracle.y``. O(k log d) per step plus the
        oracle's cost."""
        if oracle.d != self.d:
            raise ValueError(f"the oracle has d={oracle.d}, the state d={self.d}")
        with rng.bit_generator.lock, oracle.rng.bit_generator.lock:
            self._steps(rng, None, None, oracle, k, attributes, record, n_steps)

    cdef void _steps(self, object rng, const double[:, ::1] X, const double[::1] Y,
                     RowOracle oracle, long k, long[::1] attributes, object record,
                     long m) except *:
        """``m`` steps of Fig. 2 on the rows of X taken cyclically or, when ``oracle`` is given
        (X and Y None), on the oracle's examples; the callers hold the generators' locks."""
        cdef bitgen_t* bg = bitgen_of(rng)
        cdef bint rows = oracle is None
        cdef long P = X.shape[0] if rows else 0, d = self.d, half = k // 2
        cdef long row = 0
        cdef bint recording = record is not None
        cdef long[:, ::1] rec = np.zeros((1, k), dtype=np.int_) if not recording else record
        cdef long* perm = &self.perm[0]
        cdef long[::1] ibuf_arr = np.zeros(max(half, 1), dtype=np.int_)
        cdef long* ibuf = &ibuf_arr[0]
        cdef double* v = &self.v[0]
        cdef Node* T = self.T
        cdef long step, r, i, j, a, seen, x
        cdef double yhat, y, norm1 = 0.0, c, unew, L, R, newtheta
        cdef const double* xrow = NULL
        with nogil:
            for step in range(m):
                if rows:
                    xrow = &X[row, 0]
                    y = Y[row]
                    row += 1
                    if row == P:
                        row = 0
                else:
                    oracle.next_example()
                    y = oracle.y
                self.t += 1
                # v: C uniform among the k/2-subsets; v_j = (2/k) d x_j
                partial_shuffle(perm, d, half, bg)
                for a in range(half):
                    j = perm[a]
                    v[a] = (2.0 / k) * d * (xrow[j] if rows else oracle.attribute(j))
                    if recording:
                        rec[step, a] = j
                seen = half
                # ŷ: k/2 draws i ∝ |w_i| (uniform when w = 0); ŷ += (2/k) sgn(w_i)‖w‖₁ x_i
                yhat = 0.0
                if self.root >= 0:
                    norm1 = self.s * (T[self.root].sum - self.theta * T[self.root].cnt)
                for r in range(half):
                    if self.root >= 0:
                        i = self.sample_abs(bg)
                        yhat += (2.0 / k) * self.sign[i] * norm1 * (
                            xrow[i] if rows else oracle.attribute(i))
                    else:
                        i = <long>bounded(bg, <unsigned int>d)
                    if recording:
                        rec[step, half + r] = i
                    ibuf[r] = i
                    for a in range(half):
                        if perm[a] == i:
                            break
                    else:
                        for a in range(r):
                            if ibuf[a] == i:
                                break
                        else:
                            seen += 1
                attributes[step] = seen
                # eq. (10): w ← (1 − 1/t) w − (2/(λt)) (ŷ − y) v  (at t = 1, w = 0 already)
                if self.t > 1:
                    self.s *= 1.0 - 1.0 / self.t
                c = 2.0 * (yhat - y) / (self.lam * self.t * self.s)
                if not isfinite(c):                    # overflow: stop (the caller raises)
                    self.failed = self.t
                    break
                for a in range(half):
                    j = perm[a]
                    if v[a] == 0.0:
                        continue
                    self.flush(j)
                    if self.sign[j] != 0:
                        unew = self.sign[j] * (T[j].key - self.theta) - c * v[a]
                        self.root = erase(T, self.root, j)
                    else:
                        unew = -c * v[a]
                    if not isfinite(unew):
                        self.failed = self.t
                        break
                    if unew != 0.0:
                        self.sign[j] = 1 if unew > 0 else -1
                        T[j].key = fabs(unew) + self.theta
                        self.root = insert(T, self.root, j)
                    else:
                        self.sign[j] = 0
                if self.failed:
                    break
                # eq. (11): projection onto {‖w‖₁ <= B}
                if self.root >= 0:
                    L = T[self.root].sum - self.theta * T[self.root].cnt
                    R = self.B / self.s
                    if L > R:
                        newtheta = self.pivot(R)
                        if newtheta > self.theta:
                            self.theta = newtheta
                        while self.root >= 0:
                            x = minimum(T, self.root)
                            if T[x].key > self.theta:
                                break
                            self.flush(x)
                            self.root = erase(T, self.root, x)
                            self.sign[x] = 0
                # w̄ += w
                self.C1 += self.s
                self.C2 += self.s * self.theta
                if self.s < self.renorm_low or self.theta * self.s > 256.0 * self.B:
                    self.renormalise()


def _restore_aer(d, B, lam, scalars, buf, sign, acc, m1, m2, perm):
    state = AERState(d, B, lam)
    state._load(scalars, buf, sign, acc, m1, m2, perm)
    return state


def baseline_accumulate(object rng, const double[:, ::1] X, const double[::1] Y, long k,
                        double[:, ::1] A, double[::1] v, double[::1] diag, long[::1] attributes,
                        object record, object start=None):
    """CB11 Fig. 1's loop: adds Σ_t A_t to ``A`` (the d × d matrix, both (i, j) and (j, i)),
    Σ_t 2 y v_t to ``v`` and Σ_t (d/k) x_c² over c ∈ C to ``diag`` (the unbiased diagonal a
    corrected estimate needs; Fig. 1 itself has none). O(k²) per example.

    A uniformly random ordered k-sample of [d]: C is its set, its first half I and its second
    half J (a uniform split of C). ``record``: None or an (m, k) array receiving that sample.
    ``start``: None, or the permutation of [d] the partial Fisher-Yates shuffles start from (a
    previous call's, so that batches continue one stream of samples); updated in place.
    """
    cdef bitgen_t* bg = bitgen_of(rng)
    cdef long m = X.shape[0], d = X.shape[1], half = k // 2
    cdef long[::1] perm_arr = np.arange(d, dtype=np.int_) if start is None else start
    cdef long* perm = &perm_arr[0]
    cdef bint recording = record is not None
    cdef long[:, ::1] rec = np.zeros((1, k), dtype=np.int_) if not recording else record
    cdef double ratio = <double>d / k, y, entry
    cdef long step, a, b, i, j
    with rng.bit_generator.lock, nogil:
        for step in range(m):
            y = Y[step]
            partial_shuffle(perm, d, k, bg)
            for a in range(k):
                i = perm[a]
                v[i] += 2.0 * y * ratio * X[step, i]        # v_c += (d/k) x_c, then 2 y v
                diag[i] += ratio * X[step, i] * X[step, i]
                if recording:
                    rec[step, a] = i
            for a in range(half):
                i = perm[a]
                for b in range(half, k):
                    j = perm[b]
                    entry = 2.0 * ratio * ratio * X[step, i] * X[step, j]
                    A[i, j] += entry
                    A[j, i] += entry
            attributes[step] = k
