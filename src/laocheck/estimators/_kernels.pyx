# cython: language_level=3
"""Cython kernels of the per-example estimates of CB11, HK12 and KS15.

Each kernel produces ``n`` independent draws of one estimate for a fixed (w, x, y). A draw is
built as a sparse vector (indices, values: duplicates merged) plus the number of distinct
attributes of x it observed, and handed to a :class:`Sink`, which either writes it densely
(``sample``) or adds it to running sums (``accumulate``: per-coordinate sum and sum of squares,
sums of squared norms and of their squares, attribute statistics), so that moment checks can
use 10**8 draws without materialising them.

The kernels assume validated input (``laocheck.estimators`` validates at the Python boundary)
and run without bounds checks (see setup.py; ``LAOCHECK_CYTHON_DEBUG=1`` turns them back on).
All randomness comes from the caller's ``numpy.random.Generator`` through its ``bitgen_t``.
"""
import numpy as np
from cpython.exc cimport PyErr_CheckSignals
from libc.math cimport ldexp
from numpy.random cimport bitgen_t

from ._rng cimport bounded, geometric_half, partial_shuffle, payload_draw, uniform01
from ._samplers cimport AliasTable, bitgen_of

cdef enum:
    HIST = 64
    POLL_MASK = 65535      # the kernels look for signals (Ctrl-C) every 65536 draws


cdef class Sink:
    """Receiver of sparse draws: dense rows (mode 0) or running sums (mode 1)."""
    cdef int mode
    cdef long size
    cdef double[:, ::1] dense
    cdef long[::1] attributes
    cdef double[:, ::1] sums    # column 0: Σ v, column 1: Σ v² (one cache line per coordinate)
    cdef public double norm2_sum, norm4_sum
    cdef public long n, attr_sum, attr_sq_sum, attr_max
    cdef long[::1] attr_hist
    cdef bint stopped
    cdef object pending

    def __init__(self, long n, long size, bint accumulate):
        self.mode = 1 if accumulate else 0
        self.size = size
        self.n = 0
        if accumulate:
            self.sums = np.zeros((size, 2), dtype=np.float64)
            self.attr_hist = np.zeros(HIST + 1, dtype=np.int_)
        else:
            self.dense = np.zeros((n, size), dtype=np.float64)
            self.attributes = np.zeros(n, dtype=np.int_)
        self.norm2_sum = 0.0
        self.norm4_sum = 0.0
        self.attr_sum = 0
        self.attr_sq_sum = 0
        self.attr_max = 0

    cdef void emit(self, long t, long* idx, double* val, long nnz, long attrs) noexcept nogil:
        cdef long r
        cdef double norm2 = 0.0, v
        if self.mode == 0:
            for r in range(nnz):
                self.dense[t, idx[r]] = val[r]
            self.attributes[t] = attrs
        else:
            for r in range(nnz):
                v = val[r]
                self.sums[idx[r], 0] += v
                self.sums[idx[r], 1] += v * v
                norm2 += v * v
            self.norm2_sum += norm2
            self.norm4_sum += norm2 * norm2
            self.attr_sum += attrs
            self.attr_sq_sum += attrs * attrs
            if attrs > self.attr_max:
                self.attr_max = attrs
            self.attr_hist[attrs if attrs < HIST else HIST] += 1
        self.n += 1

    cdef bint poll(self) noexcept nogil:
        """True once a signal handler raised (Ctrl-C: KeyboardInterrupt): the kernel stops
        drawing; :meth:`reraise` raises it after the kernel. Looks every 65536 draws (a
        microsecond with the GIL), so Ctrl-C stops any kernel within a fraction of a second."""
        if self.stopped:
            return True
        if (self.n & POLL_MASK) != 0 or self.n == 0:
            return False
        with gil:
            try:
                PyErr_CheckSignals()
            except BaseException as exc:
                self.pending = exc
                self.stopped = True
        return self.stopped

    def reraise(self):
        """Raise the exception a signal handler raised while the kernel ran (if any)."""
        if self.pending is not None:
            exc, self.pending = self.pending, None
            raise exc

    def result(self):
        if self.mode == 0:
            return np.asarray(self.dense), np.asarray(self.attributes)
        return dict(
            n=self.n,
            sum=np.asarray(self.sums[:, 0]).copy(),
            sum_sq=np.asarray(self.sums[:, 1]).copy(),
            sum_norm_sq=self.norm2_sum,
            sum_norm_sq_sq=self.norm4_sum,
            attributes_sum=self.attr_sum,
            attributes_sum_sq=self.attr_sq_sum,
            attributes_max=self.attr_max,
            attributes_hist=np.asarray(self.attr_hist),
        )


cdef class Scratch:
    """Per-call work arrays: a sparse accumulator with merging and a distinct-attribute set.

    With few draws per estimate (``linear``: at most 16) an index is looked up by a scan of
    the current sparse list, which stays in cache whatever d is. Otherwise
    ``mark[i, 0] == draw`` marks attribute i as observed in the current draw and ``mark[i, 1]``
    is its position in the list; stamps make clearing unnecessary between draws.
    """
    cdef long[:, ::1] mark     # column 0: stamp, column 1: slot (one cache line per attribute)
    cdef long[::1] idx
    cdef double[::1] val
    cdef long nnz, draw, attrs
    cdef bint linear

    def __init__(self, long d, long draws_per_estimate=-1):
        # at most d distinct attributes get a slot in one draw
        self.linear = 0 <= draws_per_estimate <= 16
        self.mark = np.zeros((1 if self.linear else d, 2), dtype=np.int_)
        self.mark[:, 0] = -1
        capacity = min(d, draws_per_estimate) if self.linear else d
        self.idx = np.zeros(max(capacity, 1), dtype=np.int_)
        self.val = np.zeros(max(capacity, 1), dtype=np.float64)
        self.draw = -1

    cdef inline void start(self) noexcept nogil:
        self.draw += 1
        self.nnz = 0
        self.attrs = 0

    cdef inline long observe(self, long i) noexcept nogil:
        """The slot of attribute i in this draw; the first time, a new slot with value 0
        (attribute bookkeeping and sparse merging are the same operation)."""
        cdef long r
        if self.linear:
            for r in range(self.nnz):
                if self.idx[r] == i:
                    return r
        elif self.mark[i, 0] == self.draw:
            return self.mark[i, 1]
        r = self.nnz
        self.idx[r] = i
        self.val[r] = 0.0
        self.nnz += 1
        self.attrs += 1
        if not self.linear:
            self.mark[i, 0] = self.draw
            self.mark[i, 1] = r
        return r

    cdef inline void add(self, long i, double v) noexcept nogil:
        self.val[self.observe(i)] += v


# --------------------------------------------------------------------------------------------
# HK12 Alg. 1-2, KS15 Alg. 1/3 and their data-dependent variants: k i.i.d. draws from q for the
# data point, n_inner i.i.d. draws from p for the inner product.
# --------------------------------------------------------------------------------------------

cdef inline double residual_draw(
    Scratch sc, bitgen_t* bg, const double[:, ::1] p_table, double y, long n_inner, bint w_zero,
) noexcept nogil:
    """φ̃ = (1/n_inner) Σ_s (w_j/p_j) x_j − y with j ~ p; φ̃ = −y observing nothing if w = 0.

    ``p_table`` carries the payload (w_j/p_j) x_j."""
    cdef long s, j
    cdef double acc = 0.0, value
    if w_zero:
        return -y
    for s in range(n_inner):
        j = payload_draw(p_table, bg, &value)
        sc.observe(j)
        acc += value
    return acc / n_inner - y


def importance_kernel(
    object rng, Sink sink, long n, str part,
    const double[::1] xw, const double[:, ::1] q_table, const double[:, ::1] p_table,
    double y, long k, long n_inner, bint w_zero, double clip,
):
    """Draws of x̃ (``part='data_point'``), φ̃ (``'residual'``), g̃ = φ̃ x̃ (``'gradient'``) or
    clip(g̃, clip) (``'clipped_gradient'``).

    x̃ = (1/k) Σ_r x_{i_r}/q_{i_r} e_{i_r}: for uniform q (``q_table`` None) i is an unbiased
    bounded integer and ``xw[i] = x_i/(k q_i)``; otherwise ``q_table`` is q's alias table with
    payload x_i/(k q_i) (``AliasTable.with_payload``). ``p_table`` is p's alias table with
    payload (w_j / p_j) x_j. A draw thus reads one row per index it draws.
    """
    cdef bitgen_t* bg = bitgen_of(rng)
    cdef long d = xw.shape[0]
    cdef Scratch sc = Scratch(d, k + n_inner)
    cdef int mode = {"data_point": 0, "residual": 1, "gradient": 2, "clipped_gradient": 3}[part]
    cdef bint uniform_q = q_table is None
    cdef long t, r, i
    cdef double phi, v, value
    cdef long zero = 0
    cdef double phi_out
    with rng.bit_generator.lock, nogil:
        for t in range(n):
            if sink.poll():
                break
            sc.start()
            if mode != 1:
                for r in range(k):
                    if uniform_q:
                        i = <long>bounded(bg, <unsigned int>d)
                        value = xw[i]
                    else:
                        i = payload_draw(q_table, bg, &value)
                    sc.add(i, value)
            if mode == 0:
                sink.emit(t, &sc.idx[0], &sc.val[0], sc.nnz, sc.attrs)
                continue
            # x̃'s slots are [0, nnz_x); the inner-product draws may add attribute-only slots
            # after them, which carry no value of the output.
            r = sc.nnz
            phi = residual_draw(sc, bg, p_table, y, n_inner, w_zero)
            if mode == 1:
                phi_out = phi
                sink.emit(t, &zero, &phi_out, 1, sc.attrs)
                continue
            for i in range(r):
                v = phi * sc.val[i]
                if mode == 3:
                    if v > clip:
                        v = clip
                    elif v < -clip:
                        v = -clip
                sc.val[i] = v
            sink.emit(t, &sc.idx[0], &sc.val[0], r, sc.attrs)


# --------------------------------------------------------------------------------------------
# CB11 Fig. 2 (AER): v from a uniform k/2-subset, ŷ from k/2 draws from P(i) = |w_i|/‖w‖₁.
# --------------------------------------------------------------------------------------------

def aer_kernel(
    object rng, Sink sink, long n, str part, const double[::1] x, double y, long k,
    AliasTable p_table, const double[::1] signed_norm, bint without_replacement,
    const double[::1] p,
):
    """``signed_norm[i] = sgn(w_i) ‖w‖₁`` (all zero when w = 0, where P is uniform: CB11 Fig. 2).

    ``without_replacement`` selects the reading of CB11 eq. (7) ("j_1..j_{k/2} without
    replacement according to P", successive sampling) instead of Fig. 2's independent draws.
    """
    cdef bitgen_t* bg = bitgen_of(rng)
    cdef long d = x.shape[0]
    cdef long half = k // 2
    cdef Scratch sc = Scratch(d, k)
    cdef long[::1] perm = np.arange(d, dtype=np.int_)
    cdef long[::1] chosen_stamp = np.full(d, -1, dtype=np.int_)
    cdef int mode = {"data_point": 0, "residual": 1, "gradient": 2}[part]
    cdef long t, r, i, nv, tries, last
    cdef double yhat, scale = 2.0 * d / k, u, acc
    cdef long zero = 0
    cdef double out
    with rng.bit_generator.lock, nogil:
        for t in range(n):
            if sink.poll():
                break
            sc.start()
            nv = 0
            if mode != 1:
                partial_shuffle(&perm[0], d, half, bg)
                for r in range(half):
                    sc.add(perm[r], scale * x[perm[r]])
                nv = sc.nnz
            if mode == 0:
                sink.emit(t, &sc.idx[0], &sc.val[0], nv, sc.attrs)
                continue
            yhat = 0.0
            for r in range(half):
                if without_replacement:
                    # successive sampling: P restricted to the indices not yet chosen. Rejection
                    # from the alias table is exact; after 64 rejections an O(d) scan of the
                    # remaining mass finishes the draw.
                    tries = 0
                    while True:
                        i = p_table.draw(bg)
                        if chosen_stamp[i] != t:
                            break
                        tries += 1
                        if tries == 64:
                            acc = 0.0
                            for i in range(d):
                                if chosen_stamp[i] != t:
                                    acc += p[i]
                            u = uniform01(bg) * acc
                            last = -1
                            for i in range(d):
                                if chosen_stamp[i] != t and p[i] > 0.0:
                                    last = i
                                    u -= p[i]
                                    if u < 0.0:
                                        break
                            # if rounding left u >= 0 after the whole scan, the draw is the
                            # last admissible index
                            i = last
                            break
                    chosen_stamp[i] = t
                else:
                    i = p_table.draw(bg)
                sc.observe(i)
                yhat += signed_norm[i] * x[i]
            yhat = yhat * 2.0 / k
            if mode == 1:
                out = yhat - y
                sink.emit(t, &zero, &out, 1, sc.attrs)
                continue
            for r in range(nv):
                sc.val[r] = 2.0 * (yhat - y) * sc.val[r]
            sink.emit(t, &sc.idx[0], &sc.val[0], nv, sc.attrs)


# --------------------------------------------------------------------------------------------
# CB11 Fig. 1 (Baseline): C a uniform k-subset split into halves I, J; A and v of one example.
# Output layout (d + 1, d) flattened: A at [i, j], 2·y·v at [d, c].
# --------------------------------------------------------------------------------------------

def baseline_kernel(object rng, Sink sink, long n, const double[::1] x, double y, long k):
    cdef bitgen_t* bg = bitgen_of(rng)
    cdef long d = x.shape[0]
    cdef long half = k // 2
    cdef long[::1] perm = np.arange(d, dtype=np.int_)
    cdef long cap = 2 * half * half + k
    cdef long[::1] idx = np.zeros(cap, dtype=np.int_)
    cdef double[::1] val = np.zeros(cap, dtype=np.float64)
    cdef double ratio = <double>d / k
    cdef double a_scale = 2.0 * ratio * ratio
    cdef long t, a, b, i, j, nnz
    with rng.bit_generator.lock, nogil:
        for t in range(n):
            if sink.poll():
                break
            # A uniformly random ordered k-sample: its first half is I and its second half J,
            # which is a uniformly random split of the set C into two halves.
            partial_shuffle(&perm[0], d, k, bg)
            nnz = 0
            for a in range(half):
                i = perm[a]
                for b in range(half, k):
                    j = perm[b]
                    idx[nnz] = i * d + j
                    val[nnz] = a_scale * x[i] * x[j]
                    idx[nnz + 1] = j * d + i
                    val[nnz + 1] = a_scale * x[i] * x[j]
                    nnz += 2
            for a in range(k):
                idx[nnz] = d * d + perm[a]
                val[nnz] = 2.0 * y * ratio * x[perm[a]]
                nnz += 1
            sink.emit(t, &idx[0], &val[0], nnz, k)


# --------------------------------------------------------------------------------------------
# HK12 Procedure 3 (GenEst) and the AESVR residual of HK12 Alg. 4.
# --------------------------------------------------------------------------------------------

cdef inline double genest_draw(
    Scratch sc, bitgen_t* bg, AliasTable p_table, const double* coef, const double* x,
    double x_scale, double y, const double* a, long n_coef, long big_n, double threshold,
    bint w_zero,
) noexcept nogil:
    """One φ̂ of HK12 Procedure 3 on the instance (x·x_scale, y); ``coef[j] = ‖w‖²/w_j``."""
    cdef long order = geometric_half(bg)                   # line 2: Pr[n] = (1/2)^{n+1}
    cdef long r, s, j, m
    cdef double prod = 1.0, theta
    m = 1 if order <= threshold else big_n                 # line 3: n <= 2 log2 N ?
    for r in range(order):                                 # lines 4-7 / 9-12
        if w_zero:
            theta = -y                                     # w = 0: wᵀx = 0 is known (fallback)
        else:
            theta = 0.0
            for s in range(m):
                j = p_table.draw(bg)
                sc.observe(j)
                theta += coef[j] * x[j] * x_scale
            theta = theta / m - y
        prod *= theta
    if order >= n_coef or a[order] == 0.0:
        return 0.0
    return ldexp(a[order], <int>(order + 1)) * prod       # line 14: 2^{n+1} a_n θ̃_1···θ̃_n


def genest_kernel(
    object rng, Sink sink, long n, str part, const double[::1] x, long k,
    AliasTable p_table, const double[::1] coef, bint w_zero,
    const double[::1] a, long big_n, double threshold,
    double x_scale, const double[::1] labels,
):
    """Draws of the mean of independent GenEst calls on the instances (x·x_scale, labels[s]).

    ``part='derivative'``: GenEst itself (one label y). ``'residual'``: the AESVR residual
    φ̃ = ½[GenEst(w, x/ε, (y+δ)/ε) + GenEst(w, x/ε, (y−δ)/ε)] (HK12 Alg. 4, line 2).
    ``'gradient'``: φ̃ · x̃ with x̃ from k uniform draws of the unscaled x (HK12 Alg. 1, 3-7).
    """
    cdef bitgen_t* bg = bitgen_of(rng)
    cdef long d = x.shape[0]
    cdef long n_calls = labels.shape[0]
    cdef Scratch sc = Scratch(d)
    cdef int mode = {"derivative": 1, "residual": 1, "gradient": 2}[part]
    cdef long t, r, i, nx
    cdef double phi
    cdef long zero = 0
    cdef double out
    cdef double ratio = <double>d / k if k > 0 else 0.0
    with rng.bit_generator.lock, nogil:
        for t in range(n):
            if sink.poll():
                break
            sc.start()
            nx = 0
            if mode == 2:
                for r in range(k):
                    i = <long>bounded(bg, <unsigned int>d)
                    sc.add(i, ratio * x[i])
                nx = sc.nnz
            phi = 0.0
            for r in range(n_calls):
                phi += genest_draw(sc, bg, p_table, &coef[0], &x[0], x_scale, labels[r],
                                   &a[0], a.shape[0], big_n, threshold, w_zero)
            phi /= n_calls
            if mode == 1:
                out = phi
                sink.emit(t, &zero, &out, 1, sc.attrs)
                continue
            for r in range(nx):
                sc.val[r] = phi * sc.val[r]
            sink.emit(t, &sc.idx[0], &sc.val[0], nx, sc.attrs)
