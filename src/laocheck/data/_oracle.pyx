# cython: language_level=3
"""Attribute oracles: examples whose attributes are drawn when a learner asks for them.

A section-3 learner reads k + 1 of the d attributes of each example (HK12 Alg. 1-2, KS15
Alg. 1 and 3), but ``Distribution.sample`` makes all d of them: O(m·d) time for O(m·k)
information. An oracle is a row source the learners' kernels call instead: per step,
``next_example()`` draws what the example's label needs, then ``attribute(i)`` returns x_i for
each attribute the learner chooses. A run costs O(m·(k + c)) with c the cost of one label, and
its memory is O(d) (the distribution's parameters), not O(block·d).

Per distribution (``Distribution.oracle(rng)`` builds the oracle; c is the label's cost):

=============================  =====================================================  =========
distribution                   what ``next_example`` draws; ``attribute(i)``          c
=============================  =====================================================  =========
HK12HardInstance               the row index (x = r_row e_{T[row]}); a compare         O(1)
CB11HardInstance               y and the example's key; x_i's bit hashed from (key, i)  O(1)
CorrelatedSigns                z_0, ζ and the key; (b_i, z_i) hashed from (key, i);    O(nnz(w))
                               y = Σ_{w_l ≠ 0} w_l x_l + a ζ reads w's support
PowerLawBernoulli              the support {i : x_i = 1} (geometric skips, below);     O(Σ μ_i)
                               membership by binary search
EmpiricalDistribution          a row index (with replacement); X[row, i]               O(1)
ScaledLabels                   its base's oracle, labels times the factor              base's
=============================  =====================================================  =========

Where the label is not O(k + log d): y = ⟨w, x⟩ needs every attribute in w's support, so
CorrelatedSigns costs O(nnz(w)) per example (O(d) for a dense w: the oracle is then exact but no
faster than a row), and PowerLawBernoulli — whose w is dense — needs the support of x_raw, of
expected size Σ μ_i: O(log d) for α = −1 (KS15 Sec. 5's exponent; Σ 1/i = H_d), but
Θ(d^(1+α)) for −1 < α ≤ 0 (α = 0 is a full row). No exact shortcut exists for a dense w with
independent attributes: the law of y given the revealed x_S is that of Σ_{i ∉ S} w_i x_i, a sum
over the attributes the learner did not choose.

Exactness (the revealed attributes have the law of ``Distribution.sample``'s rows):

* PowerLawBernoulli's support: positions are cut into blocks growing by 2^(1/4) and each
  block b has the bound p_b = μ at its first position ≥ every μ_i in it (μ is nonincreasing,
  α ≤ 0). Every position is a candidate with probability p_b independently, and a candidate
  is accepted with probability μ_i/p_b, so the x_i are independent Bernoulli(μ_i) exactly —
  up to the rounding of the clock below. The candidates come from one exponential clock on
  the cumulative hazard Λ (−log(1 − p_b) per position of block b): T ← T + Exp(1), the
  candidate is the position i with Λ(i) ≤ T < Λ(i + 1), and the clock restarts at Λ(i + 1)
  (the geometric skips of every block at once; a block without a candidate costs one
  comparison). Positions whose bound is 1 (a leading run of μ_i = 1) are all candidates.
  Expected candidates: Σ_b p_b·|block b|, about 1.1·Σ μ_i for μ_i = 1/i (H_d ≈ 14.4 ones,
  15.4 candidates at d = 10⁶). The candidates' positions do not depend on μ, so all their
  reads of μ_i and w_i are issued (prefetched) before the acceptance pass.
* A Bernoulli bit b ~ Bernoulli(p) compares the top 53 bits of a uniform 64-bit word with
  ⌈p·2⁵³⌉, which is the law of ``Generator.random() < p``; a sign takes the lowest bit.

Hashed attributes (CB11HardInstance, CorrelatedSigns). Attribute i of an example must have the
same value however often and in whatever order the learner asks for it, so it is a function of
the example's key and i: two 64-bit keys k₁, k₂ are drawn from the Generator per example and
attribute i's word is SplitMix64's (i + 1)-th output from k₁ XOR its (i + 1)-th output from k₂
(SplitMix64: G. Steele, D. Lea, C. Flood, "Fast splittable pseudorandom number generators",
OOPSLA 2014; the output function of Java's SplittableRandom, passes BigCrush). Two streams of
one key overlap only when two examples' keys differ by a multiple ≤ d of the increment; with two
keys both must, at the same offset: probability ≤ m²·d²/2¹²⁸ per run. It is hand-written
because numpy's counter-based Philox offers no per-(key, counter) call from C (a Philox object
per example or attribute costs microseconds); SplitMix64 is five lines and about 1 ns.

A :class:`TapOracle` wraps another oracle and records the first reads of each example (index
and value), for a learner that needs afterwards the values its kernel read (KS15 Sec. 5's
practical Two-Phased learners); it draws nothing itself.

Reproducibility: everything is drawn from the Generator the oracle was built on, example by
example in order, and the number of words an example consumes does not depend on which
attributes the learner reads; a replicate's examples are thus a function of its seed alone, for
any number of workers (replicates are seeded by index, :mod:`laocheck.experiments`).
"""
import numpy as np
cimport cython
from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.math cimport ceil, floor, log
from libc.stdint cimport uint32_t, uint64_t
from libc.stdlib cimport free, realloc
from numpy.random cimport bitgen_t

__all__ = ["RowOracle", "HK12HardOracle", "CB11HardOracle", "CorrelatedSignsOracle",
           "PowerLawOracle", "EmpiricalOracle", "TapOracle", "splitmix64_word",
           "splitmix64_output"]

cdef uint64_t GAMMA = 0x9E3779B97F4A7C15ULL


cdef extern from *:
    # gcc/clang builtin: a hint to load the cache line of an address (never faults)
    void __builtin_prefetch(const void* addr) noexcept nogil


cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    """SplitMix64's output function (Steele, Lea, Flood 2014)."""
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint64_t attribute_word(uint64_t k1, uint64_t k2, long i) noexcept nogil:
    """The example's 64-bit word of attribute i: SplitMix64's (i + 1)-th outputs from k₁ and
    from k₂, XORed."""
    cdef uint64_t step = (<uint64_t>i + 1) * GAMMA
    return mix64(k1 + step) ^ mix64(k2 + step)


def splitmix64_word(k1, k2, i):
    """``attribute_word`` from Python (for tests)."""
    return attribute_word(<uint64_t>k1, <uint64_t>k2, <long>i)


def splitmix64_output(seed, i):
    """SplitMix64's (i + 1)-th output from ``seed`` (for tests against the reference)."""
    return mix64(<uint64_t>seed + (<uint64_t>i + 1) * GAMMA)


cdef inline uint64_t threshold53(double p):
    """⌈p·2⁵³⌉ for p in [0, 1]: (w >> 11) < it has probability p (as Generator.random() < p)."""
    if p <= 0.0:
        return 0
    if p >= 1.0:
        return 1ULL << 53
    return <uint64_t>ceil(p * 9007199254740992.0)


cdef inline uint32_t bounded32(bitgen_t* bg, uint32_t n) noexcept nogil:
    """Uniform on {0, ..., n − 1} (1 <= n < 2³²), Lemire's multiply-and-reject (D. Lemire,
    ACM TOMACS 29(1), 2019, Alg. 5), the method of laocheck's kernels."""
    cdef uint64_t m = <uint64_t>bg.next_uint32(bg.state) * <uint64_t>n
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t thr
    if low < n:
        thr = (<uint32_t>0 - n) % n
        while low < thr:
            m = <uint64_t>bg.next_uint32(bg.state) * <uint64_t>n
            low = <uint32_t>m
    return <uint32_t>(m >> 32)


cdef class RowOracle:
    """Base of the oracles: an example source read attribute by attribute.

    From Python (tests, small runs): :meth:`reveal` draws examples and reads chosen attributes;
    :meth:`rows` reads every attribute (small d). Learners use ``fit_oracle`` (their kernels call
    ``next_example`` and ``attribute`` without the GIL).
    """

    def __init__(self, long d, rng, second_moments, double x_max, double y_max):
        if not isinstance(rng, np.random.Generator):
            raise TypeError("rng must be a numpy Generator")
        self.d = d
        self.t = 0
        self.y = 0.0
        self.label_factor = 1.0
        self.rng = rng
        self.bg = <bitgen_t*>PyCapsule_GetPointer(rng.bit_generator.capsule, "BitGenerator")
        self.second_moments = second_moments
        self.x_max = x_max
        self.y_max = y_max

    cdef void next_example(self) noexcept nogil:
        pass

    cdef double attribute(self, long i) noexcept nogil:
        return 0.0

    cdef void prefetch_next(self, long i) noexcept nogil:
        pass

    def reveal(self, indices):
        """Draw len(indices) examples; of example r read the attributes ``indices[r]`` (a 2-d
        int array, each entry in [0, d)). Returns (values, labels) of shapes
        ``indices.shape`` and (len(indices),)."""
        indices = np.asarray(indices)
        if indices.ndim != 2:
            raise ValueError("`indices` must be a 2-d integer array (examples x reads).")
        cdef long[:, ::1] idx = np.ascontiguousarray(indices, dtype=np.int_)
        if indices.size and (np.min(indices) < 0 or np.max(indices) >= self.d):
            raise ValueError(f"`indices` must lie in [0, {self.d}).")
        cdef double[:, ::1] out = np.zeros((idx.shape[0], idx.shape[1]))
        cdef double[::1] ys = np.zeros(idx.shape[0])
        cdef Py_ssize_t r, c
        with self.rng.bit_generator.lock, nogil:
            for r in range(idx.shape[0]):
                self.next_example()
                ys[r] = self.y
                for c in range(idx.shape[1]):
                    out[r, c] = self.attribute(idx[r, c])
        return np.asarray(out), np.asarray(ys)

    def rows(self, long m):
        """m examples with every attribute read: (X (m, d), y (m,)) — small d only."""
        return self.reveal(np.tile(np.arange(self.d), (m, 1)))


cdef class HK12HardOracle(RowOracle):
    """HK12 Thm B.1's instance: a row index per example (x = r_row e_{T[row]}, y = 1)."""
    cdef long[::1] T
    cdef double[::1] r
    cdef long pos
    cdef double value

    def __init__(self, long d, T, r, rng, second_moments):
        super().__init__(d, rng, second_moments, 1.0, 1.0)
        self.T = np.ascontiguousarray(T, dtype=np.int_)
        self.r = np.ascontiguousarray(r, dtype=np.float64)

    cdef void next_example(self) noexcept nogil:
        cdef long row = <long>bounded32(self.bg, <uint32_t>self.T.shape[0])
        self.pos = self.T[row]
        self.value = self.r[row]
        self.y = self.label_factor
        self.t += 1

    cdef double attribute(self, long i) noexcept nogil:
        return self.value if i == self.pos else 0.0


cdef class CB11HardOracle(RowOracle):
    """CB11 Thm 1's P_j: y a fair sign, x_i = y w.p. ½ + p·1{i = j} (else −y), independent;
    x_i's bit is hashed from the example's keys and i."""
    cdef long j
    cdef uint64_t thr_j, thr_other
    cdef uint64_t k2
    cdef double sign

    def __init__(self, long d, long j, double p, rng, second_moments):
        super().__init__(d, rng, second_moments, 1.0, 1.0)
        self.j = j
        self.thr_j = threshold53(0.5 + p)
        self.thr_other = threshold53(0.5)

    cdef void next_example(self) noexcept nogil:
        self.sign = 1.0 - 2.0 * <double>(self.bg.next_uint64(self.bg.state) & 1)
        self.key = self.bg.next_uint64(self.bg.state)
        self.k2 = self.bg.next_uint64(self.bg.state)
        self.y = self.sign * self.label_factor
        self.t += 1

    cdef double attribute(self, long i) noexcept nogil:
        cdef uint64_t w = attribute_word(self.key, self.k2, i)
        cdef uint64_t thr = self.thr_j if i == self.j else self.thr_other
        return self.sign if (w >> 11) < thr else -self.sign


cdef class CorrelatedSignsOracle(RowOracle):
    """CorrelatedSigns: z_0 and ζ per example, (b_i, z_i) hashed from the keys and i
    (b_i: the top 53 bits against ⌈√ρ·2⁵³⌉, z_i: the lowest bit); y reads w's support."""
    cdef double[::1] sigma
    cdef long[::1] wi
    cdef double[::1] wv
    cdef uint64_t thr, k2
    cdef double noise, z0, zeta

    def __init__(self, sigma, w, double corr, double noise, rng, second_moments, double x_max,
                 double y_max):
        sigma = np.ascontiguousarray(sigma, dtype=np.float64)
        super().__init__(sigma.shape[0], rng, second_moments, x_max, y_max)
        self.sigma = sigma
        w = np.asarray(w, dtype=np.float64)
        nz = np.flatnonzero(w)
        self.wi = np.ascontiguousarray(nz, dtype=np.int_)
        self.wv = np.ascontiguousarray(w[nz])
        self.thr = threshold53(float(np.sqrt(corr)))
        self.noise = noise

    cdef double attribute(self, long i) noexcept nogil:
        cdef uint64_t w = attribute_word(self.key, self.k2, i)
        cdef double s
        if (w >> 11) < self.thr:
            s = self.z0
        else:
            s = 1.0 - 2.0 * <double>(w & 1)
        return self.sigma[i] * s

    cdef void next_example(self) noexcept nogil:
        cdef uint64_t head = self.bg.next_uint64(self.bg.state)
        cdef long a
        cdef double total = 0.0
        self.z0 = 1.0 - 2.0 * <double>(head & 1)
        self.zeta = 1.0 - 2.0 * <double>((head >> 1) & 1)
        self.key = self.bg.next_uint64(self.bg.state)
        self.k2 = self.bg.next_uint64(self.bg.state)
        for a in range(self.wi.shape[0]):
            total += self.wv[a] * self.attribute(self.wi[a])
        self.y = (total + self.noise * self.zeta) * self.label_factor
        self.t += 1


cdef class PowerLawOracle(RowOracle):
    """KS15 Sec. 5.1's Bernoulli attributes: the support of x_raw per example by geometric
    skips over the nonincreasing μ under a piecewise-constant bound (see the module docstring);
    x_i = s·1{i ∈ support}."""
    cdef double[::1] mu
    cdef double[::1] wt
    cdef double scale
    cdef long* ones             # the candidates, then (compacted in place) the ones
    cdef double* cand_bound     # each candidate's bound p
    cdef long n_ones, cap_ones
    cdef long[::1] starts       # block b covers [starts[b], starts[b + 1])
    cdef double[::1] bound      # μ[starts[b]] >= every μ_i of block b
    cdef double[::1] rate       # λ_b = −log(1 − bound[b])
    cdef double[::1] hazard     # Λ at starts[b]: Σ of λ over the positions before it
    cdef long n_blocks
    cdef long full              # positions [0, full) have bound 1: every one a candidate

    def __cinit__(self):
        self.ones = NULL
        self.cand_bound = NULL

    def __init__(self, mu, label_weights, double scale, rng, second_moments, double y_max,
                 *, bint checked=False):
        mu = np.ascontiguousarray(mu, dtype=np.float64)
        if not checked and mu.shape[0] > 1 and np.any(np.diff(mu) > 0):
            raise ValueError("`mu` must be nonincreasing (the geometric skips need it).")
        super().__init__(mu.shape[0], rng, second_moments, scale, y_max)
        self.mu = mu
        self.wt = np.ascontiguousarray(label_weights, dtype=np.float64)
        self.scale = scale
        self.cap_ones = 0
        if not self.grow():
            raise MemoryError()
        self.n_ones = 0
        # blocks growing by 2^(1/4): a block's bound exceeds its μ_i by at most the decay of
        # μ over the block (a factor 2^(1/4) for μ_i = 1/i): ~ 1.1 Σ μ_i candidates. The
        # blocks whose bound is 1 (a leading run of μ_i = 1 and the block it ends in) come
        # first: [0, full).
        cdef long d = mu.shape[0], edge = 0     # (no negative indexing: wraparound is off)
        edges = [0]
        while edge < d:
            edge = min(d, max(edge + 1, <long>ceil(edge * 2 ** 0.25)))
            edges.append(edge)
        starts = np.array(edges, dtype=np.int_)
        bound = mu[starts[:-1]]
        n_full = int(np.count_nonzero(bound >= 1.0))
        self.full = int(starts[n_full])
        starts = starts[n_full:]
        bound = bound[n_full:]
        self.starts = starts
        self.n_blocks = bound.shape[0]
        self.bound = bound
        self.rate = -np.log1p(-bound)
        self.hazard = np.concatenate([[0.0], np.cumsum(np.asarray(self.rate) * np.diff(starts))])

    def __dealloc__(self):
        free(self.ones)
        free(self.cand_bound)

    cdef bint grow(self) noexcept nogil:
        """Double the candidate buffers (64 at first); False when out of memory (cannot
        happen below ~1e18 candidates: the example keeps what fits)."""
        cdef long cap = 64 if self.cap_ones == 0 else 2 * self.cap_ones
        cdef long* ones = <long*>realloc(self.ones, cap * sizeof(long))
        if ones == NULL:
            return False
        self.ones = ones
        cdef double* bounds = <double*>realloc(self.cand_bound, cap * sizeof(double))
        if bounds == NULL:
            return False
        self.cand_bound = bounds
        self.cap_ones = cap
        return True

    cdef void next_example(self) noexcept nogil:
        """Two passes: the candidates, then each accepted with probability μ_i/p (a uniform
        unless μ_i = p), compacted in place into the ones.

        Candidates: every position of [0, full), then those of an exponential clock on the
        cumulative hazard Λ (λ_b per position of block b): T += Exp(1); the candidate is the
        position whose [Λ(i), Λ(i + 1)) holds T, and the clock restarts at Λ(i + 1). Each
        position is then a candidate with probability 1 − exp(−λ_b) = p_b, independently (the
        geometric skips of all blocks at once: empty blocks cost a comparison). The gaps do
        not depend on μ, so the reads of μ_i and w_i of all candidates are prefetched at
        once."""
        cdef long b = 0, i, c, n = 0, n_cand = 0, nb = self.n_blocks, last, pos
        cdef double p, T, total = 0.0
        for i in range(self.full):
            if n_cand == self.cap_ones and not self.grow():
                break
            self.ones[n_cand] = i
            self.cand_bound[n_cand] = 1.0
            n_cand += 1
        T = 0.0                                 # Λ at pos, the next position the clock may take
        pos = self.full
        while nb > 0:
            T += -log(1.0 - self.bg.next_double(self.bg.state))
            while b < nb and self.hazard[b + 1] <= T:
                b += 1
            if b == nb:
                break                           # past the last position with μ > 0
            p = self.bound[b]
            if p <= 0.0:
                break                           # μ is 0 from here on
            i = self.starts[b] + <long>floor((T - self.hazard[b]) / self.rate[b])
            last = self.starts[b + 1] - 1
            if i > last:                        # (rounding of T − Λ against λ_b)
                i = last
            if i < pos:                         # (rounding of Λ(pos), same block)
                i = pos
            if n_cand == self.cap_ones and not self.grow():
                break
            self.ones[n_cand] = i
            self.cand_bound[n_cand] = p
            n_cand += 1
            __builtin_prefetch(&self.mu[i])
            __builtin_prefetch(&self.wt[i])
            pos = i + 1
            T = self.hazard[b + 1] if i == last else \
                self.hazard[b] + <double>(pos - self.starts[b]) * self.rate[b]
        for c in range(n_cand):
            i = self.ones[c]
            p = self.cand_bound[c]
            if self.mu[i] >= p or self.bg.next_double(self.bg.state) * p < self.mu[i]:
                self.ones[n] = i
                n += 1
                total += self.wt[i]
        self.n_ones = n
        self.y = total * self.label_factor
        self.t += 1

    cdef double attribute(self, long i) noexcept nogil:
        cdef long lo = 0, hi = self.n_ones, mid
        while lo < hi:
            mid = (lo + hi) >> 1
            if self.ones[mid] < i:
                lo = mid + 1
            else:
                hi = mid
        return self.scale if lo < self.n_ones and self.ones[lo] == i else 0.0


cdef class EmpiricalOracle(RowOracle):
    """A finite data set: a row index per example (uniform with replacement, or the rows in
    order, cyclically, with ``sequential=True``: then a run reads the same rows as ``fit``).

    ``index`` (optional, integers in [0, len(X))): the examples are the rows ``X[index]``, in
    that order with ``sequential=True`` — a run then reads what ``fit(X[index], y[index])``
    reads, without the copy of ``X[index]`` (cross-validation folds of one array). ``x_max``,
    ``y_max``: sup|x_i| and sup|y| over those rows when the caller knows them (else computed,
    O(len(index)·d)); they must bound the rows read (the learners' checks rely on it)."""
    cdef const double[:, ::1] X
    cdef const double[::1] Y
    cdef const long[::1] index
    cdef long n_rows
    cdef long row
    cdef bint sequential, indexed

    def __init__(self, X, y, rng, second_moments, *, sequential=False, index=None, x_max=None,
                 y_max=None):
        X = np.ascontiguousarray(X, dtype=np.float64)
        y = np.ascontiguousarray(y, dtype=np.float64)
        if X.ndim != 2 or y.shape != (X.shape[0],):
            raise ValueError("X must be 2-d and y of length len(X)")
        if index is not None:
            index = np.ascontiguousarray(index)
            if index.ndim != 1 or not np.issubdtype(index.dtype, np.integer):
                raise ValueError("`index` must be a 1-d integer array")
            if index.size and (index.min() < 0 or index.max() >= X.shape[0]):
                raise ValueError(f"`index` must lie in [0, {X.shape[0]})")
            index = index.astype(np.int_, copy=False)
        n_rows = X.shape[0] if index is None else index.shape[0]
        if not 1 <= n_rows < 2 ** 32:
            raise ValueError(f"the oracle needs 1 to 2**32 - 1 rows; got {n_rows}")
        if x_max is None:
            x_max = float(np.abs(X if index is None else X[index]).max(initial=0.0))
        if y_max is None:
            y_max = float(np.abs(y if index is None else y[index]).max(initial=0.0))
        super().__init__(X.shape[1], rng, second_moments, float(x_max), float(y_max))
        self.X = X
        self.Y = y
        self.indexed = index is not None
        self.index = index if index is not None else np.zeros(0, dtype=np.int_)
        self.n_rows = n_rows
        self.sequential = sequential
        self.row = -1

    cdef void next_example(self) noexcept nogil:
        cdef long r
        if self.sequential:
            r = self.t % self.n_rows
        else:
            r = <long>bounded32(self.bg, <uint32_t>self.n_rows)
        self.row = self.index[r] if self.indexed else r
        self.y = self.Y[self.row] * self.label_factor
        self.t += 1

    cdef double attribute(self, long i) noexcept nogil:
        return self.X[self.row, i]

    cdef void prefetch_next(self, long i) noexcept nogil:
        # the next example's row is known only when the rows are read in order
        cdef long r
        if self.sequential:
            r = self.t % self.n_rows
            __builtin_prefetch(&self.X[self.index[r] if self.indexed else r, i])


cdef class TapOracle(RowOracle):
    """Another oracle's examples, passed through, with the first ``n_reads`` attribute reads
    of each example recorded (index and value, in the order read).

    For a learner that needs afterwards the values its kernel read: KS15 Sec. 5's practical
    Two-Phased learners estimate E[x_i²] from phase 1's x̃ draws, which AERR's / AELR's kernel
    reads first in each step. Nothing extra is drawn: the base oracle's examples, labels and
    random numbers are unchanged."""
    cdef RowOracle base
    cdef long n_reads, pos
    cdef long[:, ::1] idx
    cdef double[:, ::1] val

    def __init__(self, RowOracle base, long n_reads, long n_examples):
        if n_reads < 0 or n_examples < 0:
            raise ValueError("`n_reads` and `n_examples` must be >= 0")
        super().__init__(base.d, base.rng, base.second_moments, base.x_max, base.y_max)
        self.base = base
        self.n_reads = n_reads
        self.pos = 0
        self.idx = np.full((n_examples, n_reads), -1, dtype=np.int_)
        self.val = np.full((n_examples, n_reads), np.nan)

    cdef void next_example(self) noexcept nogil:
        self.base.next_example()
        self.y = self.base.y * self.label_factor
        self.t += 1
        self.pos = 0

    cdef double attribute(self, long i) noexcept nogil:
        cdef double x = self.base.attribute(i)
        cdef long r = self.t - 1
        if r >= 0 and r < self.idx.shape[0] and self.pos < self.n_reads:
            self.idx[r, self.pos] = i
            self.val[r, self.pos] = x
            self.pos += 1
        return x

    cdef void prefetch_next(self, long i) noexcept nogil:
        self.base.prefetch_next(i)

    def recorded(self):
        """(indices, values), each (n_examples, n_reads): the first ``n_reads`` attributes
        read of each example (−1 and NaN where fewer were read)."""
        return np.asarray(self.idx).copy(), np.asarray(self.val).copy()
