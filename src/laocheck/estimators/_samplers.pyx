# cython: language_level=3
"""Samplers of a discrete distribution over {0, ..., n - 1}, drawing from a numpy Generator.

* :class:`AliasTable` for a fixed distribution (Walker's alias method as built by Vose):
  O(n) to build, O(1) per draw. Used for a fixed q (KS15 Alg. 1 line 4) and for the
  distributions of one estimate call (p ∝ w², ∝ abs(w), ∝ abs(w)·√E[x²]) when w is fixed.
* :class:`SumTree` for distributions whose weights change (w-dependent sampling inside a learner):
  O(log n) per draw and per weight update, the total kept exactly as the sum of its children.

Written by hand because numpy's ``Generator.choice`` is O(n) per call with a cumulative sum and
cannot be called from a nogil kernel; no maintained library ships either structure for Cython.

References
----------
M. D. Vose, "A linear algorithm for generating random numbers with a given distribution",
IEEE Trans. Software Eng. 17(9), 1991.
"""
import numpy as np
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid
from numpy.random cimport bitgen_t

from ._rng cimport bounded, geometric_half, partial_shuffle, uniform01


cdef bitgen_t* bitgen_of(object rng) except NULL:
    capsule = rng.bit_generator.capsule
    if not PyCapsule_IsValid(capsule, b"BitGenerator"):
        raise ValueError("`rng` must be a numpy.random.Generator")
    return <bitgen_t*>PyCapsule_GetPointer(capsule, b"BitGenerator")


cdef class Sampler:
    """A distribution over {0, ..., n - 1} that draws with a caller's bit generator."""

    cdef long draw(self, bitgen_t* bg) noexcept nogil:
        return 0

    def sample(self, rng, Py_ssize_t size):
        """Draw ``size`` indices with the caller's ``numpy.random.Generator``."""
        if size < 0:
            raise ValueError(f"`size` must be >= 0; got size={size}")
        cdef bitgen_t* bg = bitgen_of(rng)
        cdef long[::1] out = np.empty(size, dtype=np.int_)
        cdef Py_ssize_t t
        with rng.bit_generator.lock, nogil:
            for t in range(size):
                out[t] = self.draw(bg)
        return np.asarray(out)


cdef class AliasTable(Sampler):
    """Alias table of a fixed probability vector ``p`` (entries >= 0, positive sum).

    ``p`` is normalised by its sum; zero entries are never drawn. Validation is the caller's
    (``laocheck.estimators``) job; this class only checks what would make it crash.
    """

    def __init__(self, p):
        cdef double[::1] pv = np.ascontiguousarray(p, dtype=np.float64)
        cdef long n = pv.shape[0]
        if n < 1:
            raise ValueError("`p` must have at least one entry")
        cdef long i, s, l, ns = 0, nl = 0, top = 0
        cdef bint ok = True
        for i in range(n):                  # finite and nonnegative, in one pass
            if not (0.0 <= pv[i] <= 1.7976931348623157e308):
                ok = False
                break
        total = float(np.sum(pv)) if ok else 0.0
        if not ok or not (total > 0.0):
            raise ValueError("`p` must be finite, nonnegative and have a positive sum")
        self.n = n
        self._p = np.empty(n, dtype=np.float64)
        self._prob = np.empty(n, dtype=np.float64)
        self._alias = np.empty(n, dtype=np.int_)
        cdef double[::1] scaled_arr = np.empty(n, dtype=np.float64)
        cdef long[::1] small_arr = np.empty(n, dtype=np.int_)
        cdef long[::1] large_arr = np.empty(n, dtype=np.int_)
        # raw pointers: the loops below keep no Python objects and no memoryview of self
        cdef double* pn = &self._p[0]
        cdef double* prob = &self._prob[0]
        cdef long* alias = &self._alias[0]
        cdef double* scaled = &scaled_arr[0]
        cdef long* small = &small_arr[0]
        cdef long* large = &large_arr[0]
        cdef double tot = total, dn = <double>n
        with nogil:
            for i in range(n):
                pn[i] = pv[i] / tot             # p normalised by its sum
                scaled[i] = pn[i] * dn
                alias[i] = i
                if pn[i] > pn[top]:             # the first largest entry (numpy's argmax)
                    top = i
                if scaled[i] < 1.0:
                    small[ns] = i
                    ns += 1
                else:
                    large[nl] = i
                    nl += 1
            while ns > 0 and nl > 0:
                ns -= 1
                s = small[ns]
                l = large[nl - 1]
                prob[s] = scaled[s]
                alias[s] = l
                scaled[l] = (scaled[l] + scaled[s]) - 1.0
                if scaled[l] < 1.0:
                    nl -= 1
                    small[ns] = l
                    ns += 1
            # Whatever remains has weight 1 up to rounding (Vose's numerically stable finish).
            while nl > 0:
                nl -= 1
                prob[large[nl]] = 1.0
            while ns > 0:
                ns -= 1
                # a remaining "small" column only exists through rounding: never send mass to
                # an alias of a zero-probability entry
                prob[small[ns]] = 1.0 if pn[small[ns]] > 0 else 0.0
            # A column of a zero-probability entry must alias to a positive one.
            for i in range(n):
                if pn[i] == 0.0:
                    prob[i] = 0.0
                    if pn[alias[i]] == 0.0:
                        alias[i] = top
        # (probability, alias) side by side: one cache line per draw at large n
        packed = np.empty((n, 2), dtype=np.float64)
        cdef double[:, ::1] pk = packed
        with nogil:
            for i in range(n):
                pk[i, 0] = prob[i]
                pk[i, 1] = <double>alias[i]
        self._packed = packed

    @property
    def probabilities(self):
        """The normalised distribution this table draws from."""
        return np.asarray(self._p).copy()

    def with_payload(self, values):
        """Rows (prob, alias, values[i], values[alias[i]]): a table whose one row holds all a
        draw reads, for kernels that draw i and then need a per-index value (one cache line
        per draw instead of two at large n). Draws from it consume the same random numbers,
        in the same order, as :meth:`sample`."""
        values = np.ascontiguousarray(values, dtype=np.float64)
        if values.shape != (self.n,):
            raise ValueError(f"`values` must have shape ({self.n},); got {values.shape}")
        rows = np.empty((self.n, 4), dtype=np.float64)
        cdef double[:, ::1] out = rows
        cdef const double[::1] v = values
        cdef long i
        with nogil:
            for i in range(self.n):
                out[i, 0] = self._packed[i, 0]
                out[i, 1] = self._packed[i, 1]
                out[i, 2] = v[i]
                out[i, 3] = v[self._alias[i]]
        return rows

    cdef long draw(self, bitgen_t* bg) noexcept nogil:
        cdef long i = <long>bounded(bg, <unsigned int>self.n)
        if uniform01(bg) < self._packed[i, 0]:
            return i
        return <long>self._packed[i, 1]

cdef class SumTree(Sampler):
    """Binary sum tree over n nonnegative weights: draw ∝ weight and update in O(log n)."""

    def __init__(self, weights):
        w = np.ascontiguousarray(weights, dtype=np.float64)
        if w.ndim != 1 or w.shape[0] < 1:
            raise ValueError("`weights` must be a nonempty 1-d array")
        if not np.all(np.isfinite(w)) or np.any(w < 0):
            raise ValueError("`weights` must be finite and nonnegative")
        self.n = w.shape[0]
        cap = 1
        while cap < self.n:
            cap *= 2
        self._cap = cap
        tree = np.zeros(2 * cap, dtype=np.float64)
        tree[cap:cap + self.n] = w
        for i in range(cap - 1, 0, -1):
            tree[i] = tree[2 * i] + tree[2 * i + 1]
        self._tree = tree

    @property
    def total(self):
        """Sum of the weights (the root of the tree)."""
        return self._tree[1]

    @property
    def weights(self):
        return np.asarray(self._tree[self._cap:self._cap + self.n]).copy()

    cdef double total_weight(self) noexcept nogil:
        return self._tree[1]

    cdef void set_weight(self, long i, double weight) noexcept nogil:
        cdef long node = self._cap + i
        self._tree[node] = weight
        node //= 2
        while node >= 1:
            # recomputed from the children, never by adding a delta: no drift accumulates
            self._tree[node] = self._tree[2 * node] + self._tree[2 * node + 1]
            node //= 2

    def update(self, Py_ssize_t i, double weight):
        """Set weight ``i`` to ``weight`` (finite, >= 0)."""
        if not 0 <= i < self.n:
            raise ValueError(f"`i` must satisfy 0 <= i < {self.n}; got i={i}")
        if not (weight >= 0.0) or weight == float("inf"):
            raise ValueError(f"`weight` must be finite and >= 0; got weight={weight}")
        self.set_weight(i, weight)

    cdef long draw(self, bitgen_t* bg) noexcept nogil:
        cdef double u, left
        cdef long node
        while True:
            u = uniform01(bg) * self._tree[1]
            node = 1
            while node < self._cap:
                left = self._tree[2 * node]
                if u < left:
                    node = 2 * node
                else:
                    u -= left
                    node = 2 * node + 1
            # Rounding can, with probability O(machine epsilon), land on an empty leaf;
            # redrawing then keeps every drawn index inside the support.
            if node - self._cap < self.n and self._tree[node] > 0.0:
                return node - self._cap

    def sample(self, rng, Py_ssize_t size):
        """Draw ``size`` indices ∝ the current weights (which must have a positive total)."""
        if not self._tree[1] > 0.0:
            raise ValueError("cannot sample from a SumTree whose weights are all zero")
        return Sampler.sample(self, rng, size)


# -- _py hooks: the inline primitives of _rng.pxd exposed to the tests -------------------------

def _py_bounded(rng, unsigned int n, Py_ssize_t size):
    """``size`` draws of the unbiased bounded integer on {0, ..., n - 1}."""
    if n < 1:
        raise ValueError("`n` must be >= 1")
    cdef bitgen_t* bg = bitgen_of(rng)
    cdef long[::1] out = np.empty(size, dtype=np.int_)
    cdef Py_ssize_t t
    with rng.bit_generator.lock, nogil:
        for t in range(size):
            out[t] = bounded(bg, n)
    return np.asarray(out)


def _py_geometric_half(rng, Py_ssize_t size):
    """``size`` draws of N with P(N = n) = 2**-(n + 1) (HK12 Procedure 3, line 2)."""
    cdef bitgen_t* bg = bitgen_of(rng)
    cdef long[::1] out = np.empty(size, dtype=np.int_)
    cdef Py_ssize_t t
    with rng.bit_generator.lock, nogil:
        for t in range(size):
            out[t] = geometric_half(bg)
    return np.asarray(out)


def _py_subsets(rng, long n, long s, Py_ssize_t size):
    """``size`` ordered s-samples without replacement from {0..n-1} (one reused permutation)."""
    if not 0 <= s <= n:
        raise ValueError("`s` must satisfy 0 <= s <= n")
    cdef bitgen_t* bg = bitgen_of(rng)
    cdef long[::1] perm = np.arange(n, dtype=np.int_)
    cdef long[:, ::1] out = np.empty((size, s), dtype=np.int_)
    cdef Py_ssize_t t, r
    with rng.bit_generator.lock, nogil:
        for t in range(size):
            partial_shuffle(&perm[0], n, s, bg)
            for r in range(s):
                out[t, r] = perm[r]
    return np.asarray(out)
