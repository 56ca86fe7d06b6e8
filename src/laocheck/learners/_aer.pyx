# cython: language_level=3
"""O(k log d) steps of CB11 Fig. 2 (AER): Pegasos with the adaptive gradient estimate (8) and
the L1-ball projection (11) after a sparse update, without touching all d coordinates.

Representation. w = s·u, where the (1 − 1/t) shrink of eq. (10) multiplies s only, and the
active coordinates (u_i ≠ 0) are u_i = sign_i·(a_i − Θ) with one global offset Θ. The L1
projection (11) is w_i ← sign(w_i)·max(|w_i| − θ, 0) (Duchi, Shalev-Shwartz, Singer and Chandra
2008, eq. (4) and Sec. 5): it raises Θ by θ/s and removes the coordinates whose a_i <= Θ. The
keys a_i live in a B+-tree ordered by (a_i, i): nodes of up to 15 entries (at least 7 but at
the root; a node that overflows splits in halves, one that underflows merges with or borrows
from a neighbour), every leaf at one depth (5 levels at d = 10⁵). A leaf entry is a coordinate
and its key; an internal entry is a child with its subtree's smallest (key, index), number of
keys and sum of keys (recomputed from the child's entries on each change, in entry order).
Nodes are 512 bytes in one 64-aligned pool with a free list: what a leaf uses (its count,
keys and int indices) fills the first 4 cache lines, what only an internal node uses (sums,
counts, children) the last 4, so a leaf (9 nodes in 10) costs the cache 4 lines; each descent
prefetches the lines its next node uses at once, so an operation waits about one memory
latency per level (the treap it replaces, same semantics, waited one per level of ~40 at
d = 10⁵). It serves

* the projection: θ from one descent (the sort-free pivot of Duchi et al. 2008, Sec. 5, on an
  augmented search tree instead of their red-black tree; the same O(log d)): a node's entries
  are taken from the largest; a subtree whose smallest key is kept is kept whole;
* the sampling of i ∝ |w_i| (Fig. 2): a subtree's weight is Σ a − Θ·count, so one descent
  laying the intervals of width a_i − Θ in key order (the law of the draws is exact; a draw's
  index differs from another summation order's only where rounding moves an interval's end;
  the k/2 draws of a step descend together, level by level, so that their misses overlap);
* removals of the smallest keys (each coordinate is removed at most once per insertion).

Why by hand: no maintained library offers an augmented order-statistics tree callable without
the GIL (Duchi et al.'s own code is O(d) per projection; sortedcontainers' lists hold Python
objects and keep no subtree sums).

The average w̄ (Fig. 2: w̄ += w/m after each update) is accumulated lazily: with C1 = Σ_τ s_τ
and C2 = Σ_τ s_τ Θ_τ, a coordinate active with fixed (sign, a) over a stretch contributes
sign·(a ΔC1 − ΔC2); it is flushed when it changes or leaves. When s < 2⁻⁸ or Θ·s > 2⁸·B
(cancellation in a_i − Θ) everything is renormalised (a_i ← s(a_i − Θ), Θ ← 0, s ← 1; the
map is non-decreasing, so the tree keeps its shape; keys it rounds together get their indices
re-sorted), in O(active coordinates).

Examples come from the rows of X (``run``) or from an attribute oracle (``run_oracle``,
:mod:`laocheck.data._oracle`): one loop body (``_steps``) reads x_j from the row or through
``oracle.attribute(j)``, for the k/2 attributes of C and the k/2 draws i only.

Memory at large d. A coordinate's key, flushed sum and marks are one 32-byte record (one cache
line to wait for, not four). A step's misses are overlapped where the order of the random
numbers and of the tree's operations allows it, so that runs are bit-identical to the plain
order: the next step's C is shuffled as soon as a step has drawn its last random number, and
its records, row entries and (through ``leaf_of``, a hint kept by every move of a leaf entry)
leaves are loaded during the rest of the step; the update's first flush and erase, which need
neither ŷ nor an unchanged tree once the draws are made, run while the draws' x_i load.
"""
import numpy as np

cimport cython
from libc.math cimport fabs, isfinite
from libc.stdlib cimport free, malloc
from libc.string cimport memmove
from numpy.random cimport bitgen_t

from laocheck.estimators._rng cimport bounded, partial_shuffle, uniform01
from laocheck.estimators._samplers cimport bitgen_of

from laocheck.data._oracle cimport RowOracle

from ._common cimport Fault, bad_entry, fault_clear, fault_set


cdef enum:
    NSLOT = 16     # entries a node can hold (one more than BMAX: a node overflows, then splits)
    BMAX = 15      # entries per node between operations
    BMIN = 7       # entries per node other than the root between operations (2·BMIN <= BMAX)
    MAXDEPTH = 64  # levels (the height is <= log_BMIN(d) + 1 < 24 for any long d)


cdef struct BNode:
    # Leaf entry e: the coordinate id[e] with key a_i (sum, cnt and child unused: a leaf
    # entry counts 1 and sums its key). Internal entry e: the child node child[e], the
    # smallest (key, id) of its subtree, its subtree's number of keys and sum of keys.
    # Entries are in (key, id) order. 512 bytes (the pool is 64-aligned): what a leaf uses
    # (n, leaf, height, key, id) is in the first 4 cache lines, what only an internal node
    # uses (sum, cnt, child) in the last 4, so a leaf, 9 in 10 nodes, occupies 4 lines of the
    # cache (indices are int: d < 2³¹, checked by AERState).
    int n
    int leaf
    int height     # 0 for a leaf, 1 + its children's otherwise
    double key[16]
    int id[16]
    char pad[48]
    double sum[16]
    int cnt[16]
    int child[16]


cdef extern from *:
    """
    #define AER_PREFETCH(p) __builtin_prefetch((const void*)(p))
    """
    void AER_PREFETCH(const void* p) noexcept nogil


cdef struct Coord:
    # A coordinate's state in one place (two to a cache line; the array is 64-aligned): its
    # key a_i while active, the flushed Σ_τ w_τ,i, and C1 and C2 at its last flush.
    double key
    double acc
    double m1
    double m2


cdef inline void prefetch_node(BNode* N, long x, bint inner) noexcept nogil:
    """Ask for the cache lines node x uses at once (a descent then waits for one memory
    latency per level instead of one per line): the first 4, and the last 4 when x is an
    internal node (``inner``, known from its parent's height before x is read)."""
    cdef char* base = <char*>&N[x]
    cdef long off, end = sizeof(BNode) if inner else sizeof(BNode) // 2
    for off in range(0, end, 64):
        AER_PREFETCH(base + off)


cdef inline double entry_sum(BNode* N, long x, long e) noexcept nogil:
    return N[x].key[e] if N[x].leaf else N[x].sum[e]


cdef inline long entry_cnt(BNode* N, long x, long e) noexcept nogil:
    return 1 if N[x].leaf else N[x].cnt[e]


cdef inline bint before(double ka, long ia, double kb, long ib) noexcept nogil:
    """The order of the tree: (a, i) < (b, j)."""
    return ka < kb or (ka == kb and ia < ib)


cdef inline void move_entries(BNode* N, long dst, long dpos, long src, long spos,
                              long count) noexcept nogil:
    """Entries spos..spos+count-1 of node src to dpos.. of node dst (overlap allowed)."""
    if count <= 0:
        return
    memmove(&N[dst].key[dpos], &N[src].key[spos], count * sizeof(double))
    memmove(&N[dst].id[dpos], &N[src].id[spos], count * sizeof(int))
    if N[src].leaf:
        return
    memmove(&N[dst].sum[dpos], &N[src].sum[spos], count * sizeof(double))
    memmove(&N[dst].cnt[dpos], &N[src].cnt[spos], count * sizeof(int))
    memmove(&N[dst].child[dpos], &N[src].child[spos], count * sizeof(int))


cdef inline void refresh(BNode* N, long p, long c) noexcept nogil:
    """Internal entry c of p from its (non-empty) child: smallest key, count, sum."""
    cdef long x = N[p].child[c], e, cnt = 0
    cdef double s = 0.0
    if N[x].leaf:
        for e in range(N[x].n):
            s += N[x].key[e]
        cnt = N[x].n
    else:
        for e in range(N[x].n):
            s += N[x].sum[e]
            cnt += N[x].cnt[e]
    N[p].sum[c] = s
    N[p].cnt[c] = cnt
    N[p].key[c] = N[x].key[0]
    N[p].id[c] = N[x].id[0]


cdef inline long child_of(BNode* N, long x, double k, long i) noexcept nogil:
    """The entry of internal node x whose subtree holds (k, i)'s place: the last entry whose
    smallest key is <= (k, i), or the first."""
    cdef long e, c = 0
    for e in range(1, N[x].n):
        if before(k, i, N[x].key[e], N[x].id[e]):
            break
        c = e
    return c


@cython.final
cdef class AERState:
    """The state of a CB11 Fig. 2 run (see the module docstring)."""
    cdef public double s, theta, C1, C2, B, lam
    cdef public long t, d, root, n_renorms
    cdef public long failed        # 0, or the step whose update was non-finite (run stops)
    cdef public double renorm_low
    cdef public long n_nodes       # nodes ever allocated (the pool's high-water mark)
    cdef long free_head            # freed nodes, linked through child[0]
    cdef long capacity, offset     # nodes in the pool; the first node's byte in buf
    cdef unsigned char[::1] buf
    cdef BNode* N
    cdef unsigned char[::1] cbuf   # the d Coord records (key a_i, acc, m1, m2), 64-aligned
    cdef long coffset
    cdef Coord* cs
    cdef signed char[::1] sign     # 0: inactive (u_i = 0)
    cdef int[::1] leaf_of          # the leaf holding each active coordinate (a hint only:
                                   # read to prefetch that leaf before an erase)
    cdef int[::1] perm             # C's partial Fisher-Yates permutation (C ints: d < 2³¹)
    cdef double[::1] v
    cdef Fault F                   # the first bad entry of X or y a run read (row −1: none)
    # the largest |x| and |y| the runs on rows have read, and the first step's move they
    # allow (``aer.AER_MAX_STEP_RATIO``): ratio_coef·max|x|·(B max|x| + max|y|) <= max_ratio
    cdef public double x_seen, y_seen, ratio_coef, max_ratio
    cdef public bint ratio_fault   # a run stopped because that bound failed

    def __init__(self, long d, double B, double lam):
        if not 1 <= d < 2**31:
            raise ValueError(f"d={d}: the AER state holds coordinate indices as C ints, so it "
                             f"needs 1 <= d < 2**31")
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
        self.n_nodes = 0
        self.free_head = -1
        # Between operations every node but the root has >= BMIN entries, so a level has at
        # most 1/BMIN as many nodes as the level below has entries: at most d/(BMIN − 1) + 1
        # nodes in all. An insert only allocates and an erase only frees, so the bound holds
        # during operations too; 2·MAXDEPTH is slack.
        self.capacity = d // (BMIN - 1) + 2 * MAXDEPTH
        self.buf = np.zeros(self.capacity * sizeof(BNode) + 64, dtype=np.uint8)
        self.offset = (64 - <long>(<size_t>&self.buf[0] % 64)) % 64   # cdivision: no negatives
        self.N = <BNode*>&self.buf[self.offset]
        self.cbuf = np.zeros(d * sizeof(Coord) + 64, dtype=np.uint8)
        self.coffset = (64 - <long>(<size_t>&self.cbuf[0] % 64)) % 64
        self.cs = <Coord*>&self.cbuf[self.coffset]
        self.sign = np.zeros(d, dtype=np.int8)
        self.leaf_of = np.full(d, -1, dtype=np.intc)
        self.perm = np.arange(d, dtype=np.intc)
        self.v = np.zeros(d)
        fault_clear(&self.F)
        self.x_seen = self.y_seen = self.ratio_coef = 0.0
        self.max_ratio = float("inf")
        self.ratio_fault = False

    def fault(self):
        """(row, column, value) of the first entry of X (column −1: of y) a run read that is
        not finite or beyond 1e100, or that made the first step's move bound fail
        (``ratio_fault``), at which it stopped; None."""
        return None if self.F.row < 0 else (self.F.row, self.F.col, self.F.value)

    cdef inline bint read_bad(self, long row, long col, double v) noexcept nogil:
        """The entry X[row, col] (col −1: y[row]) = v was read: False when it is fine, True
        (noted in F) when it is not finite or beyond 1e100, or when with it the first step's
        move bound fails (``ratio_fault``)."""
        cdef double a = fabs(v)
        if bad_entry(v):
            return fault_set(&self.F, row, col, v)
        if col >= 0:
            if a <= self.x_seen:
                return False
            self.x_seen = a
        else:
            if a <= self.y_seen:
                return False
            self.y_seen = a
        if self.ratio_coef * self.x_seen * (self.B * self.x_seen + self.y_seen) > self.max_ratio:
            self.ratio_fault = True
            return fault_set(&self.F, row, col, v)
        return False

    def __reduce__(self):
        scalars = (self.s, self.theta, self.C1, self.C2, self.t, self.root, self.n_renorms,
                   self.renorm_low, self.n_nodes, self.free_head)
        nodes = bytes(self.buf[self.offset:self.offset + self.n_nodes * sizeof(BNode)])
        coords = self._coords()
        return (_restore_aer, (self.d, self.B, self.lam, scalars, nodes,
                               coords[:, 0].copy(), np.asarray(self.sign).copy(),
                               coords[:, 1].copy(), coords[:, 2].copy(), coords[:, 3].copy(),
                               np.asarray(self.perm).astype(np.int_)))

    def _coords(self):
        """The (d, 4) float64 view of the Coord records: key, acc, m1, m2 columns."""
        raw = np.asarray(self.cbuf)[self.coffset:self.coffset + self.d * sizeof(Coord)]
        return raw.view(np.float64).reshape(self.d, 4)

    def _load(self, scalars, nodes, key, sign, acc, m1, m2, perm):
        (self.s, self.theta, self.C1, self.C2, self.t, self.root, self.n_renorms,
         self.renorm_low, self.n_nodes, self.free_head) = scalars
        raw = np.frombuffer(nodes, dtype=np.uint8)
        if raw.size != self.n_nodes * sizeof(BNode) or self.n_nodes > self.capacity:
            raise ValueError(
                f"the pickled AER state's node pool ({raw.size} bytes for {self.n_nodes} nodes "
                f"of {sizeof(BNode)} bytes, at most {self.capacity}) does not fit its d={self.d}"
                f": a corrupted pickle, or one written by a laocheck whose nodes differ")
        arrays = [np.asarray(a) for a in (key, acc, m1, m2, sign, perm)]
        if any(a.shape != (self.d,) for a in arrays):
            raise ValueError(f"a pickled AER state has arrays of shapes "
                             f"{[a.shape for a in arrays]} for d={self.d}: a corrupted pickle")
        if not np.array_equal(np.sort(arrays[5]), np.arange(self.d)) or \
                not np.isin(arrays[4], (-1, 0, 1)).all():
            raise ValueError("a pickled AER state's permutation or signs are invalid: a "
                             "corrupted pickle")
        if not (-1 <= self.root < self.n_nodes and -1 <= self.free_head < self.n_nodes
                and self.t >= 0 and (self.root >= 0) == bool(np.any(arrays[4]))):
            raise ValueError(f"a pickled AER state's root {self.root}, free list "
                             f"{self.free_head} or t={self.t} do not fit its {self.n_nodes} "
                             f"nodes: a corrupted pickle")
        np.asarray(self.buf)[self.offset:self.offset + raw.size] = raw
        coords = self._coords()
        for column, values in enumerate((key, acc, m1, m2)):
            coords[:, column] = values
        self.sign = np.array(sign, dtype=np.int8)
        self.perm = np.array(perm, dtype=np.intc)
        x, seen = self.free_head, 0
        while x >= 0:                   # the free list: nodes of the pool, no cycle
            seen += 1
            if seen > self.n_nodes:
                raise ValueError("a pickled AER state's free list has a cycle")
            x = self.N[x].child[0]
            if not -1 <= x < self.n_nodes:
                raise ValueError("a pickled AER state's free list leaves the pool")
        try:
            self.check_tree(False)      # every node and index in range, the order, the sums
        except (AssertionError, RecursionError) as exc:
            raise ValueError(f"a pickled AER state's tree is invalid ({exc}): a corrupted "
                             f"pickle") from None
        if self.root >= 0:
            self.index_leaves(self.root)

    cdef void index_leaves(self, long x) noexcept nogil:
        """leaf_of for every coordinate in node x's subtree."""
        cdef long e
        if self.N[x].leaf:
            self.mark_leaf(x, 0, self.N[x].n)
            return
        for e in range(self.N[x].n):
            self.index_leaves(self.N[x].child[e])

    cdef inline void mark_leaf(self, long x, long start, long stop) noexcept nogil:
        """leaf_of of entries start..stop−1 of node x (when x is a leaf)."""
        cdef long e
        if self.N[x].leaf:
            for e in range(start, stop):
                self.leaf_of[self.N[x].id[e]] = x

    def _u(self):
        sign = np.asarray(self.sign).astype(float)
        return np.where(sign != 0, sign * (self._coords()[:, 0] - self.theta), 0.0)

    def coef(self):
        """The current w = s·u."""
        return self.s * self._u()

    def average(self):
        """w̄ = (1/t) Σ_τ w_τ over the iterates after each update (Fig. 2's w̄ += w/m)."""
        if self.t == 0:
            return np.zeros(self.d)
        keys, acc, m1, m2 = self._coords().T
        sign = np.asarray(self.sign).astype(float)
        pending = sign * (keys * (self.C1 - m1) - (self.C2 - m2))
        return (acc + np.where(sign != 0, pending, 0.0)) / self.t

    # ---- the B+-tree ------------------------------------------------------------------

    cdef inline long alloc(self, int height) noexcept nogil:
        cdef long x
        if self.free_head >= 0:
            x = self.free_head
            self.free_head = self.N[x].child[0]
        else:
            x = self.n_nodes
            self.n_nodes += 1
        self.N[x].n = 0
        self.N[x].leaf = height == 0
        self.N[x].height = height
        return x

    cdef inline void release(self, long x) noexcept nogil:
        self.N[x].n = 0
        self.N[x].child[0] = self.free_head
        self.free_head = x

    cdef void split(self, long p, long c) noexcept nogil:
        """Child c of p has NSLOT entries: its upper half moves to a new node after it."""
        cdef BNode* N = self.N
        cdef long x = N[p].child[c], h = N[x].n // 2
        cdef long y = self.alloc(N[x].height)
        move_entries(N, y, 0, x, h, N[x].n - h)
        N[y].n = N[x].n - h
        N[x].n = h
        self.mark_leaf(y, 0, N[y].n)
        move_entries(N, p, c + 2, p, c + 1, N[p].n - c - 1)
        N[p].n += 1
        N[p].child[c + 1] = y
        refresh(N, p, c)
        refresh(N, p, c + 1)

    cdef void rebalance(self, long p, long c) noexcept nogil:
        """Child c of p has < BMIN entries: merge it with a neighbour if both fit in one
        node, else share their entries evenly (p has >= 2 children)."""
        cdef BNode* N = self.N
        cdef long l = c - 1 if c > 0 else c
        cdef long a = N[p].child[l], b = N[p].child[l + 1]
        cdef long total = N[a].n + N[b].n, na, shift
        if total <= BMAX:
            move_entries(N, a, N[a].n, b, 0, N[b].n)
            self.mark_leaf(a, N[a].n, total)
            N[a].n = total
            self.release(b)
            move_entries(N, p, l + 1, p, l + 2, N[p].n - l - 2)
            N[p].n -= 1
            refresh(N, p, l)
            return
        na = total // 2
        if N[a].n > na:                       # a's tail to the front of b
            shift = N[a].n - na
            move_entries(N, b, shift, b, 0, N[b].n)
            move_entries(N, b, 0, a, na, shift)
            self.mark_leaf(b, 0, shift)
        else:                                 # b's head to the end of a
            shift = na - N[a].n
            move_entries(N, a, N[a].n, b, 0, shift)
            self.mark_leaf(a, N[a].n, N[a].n + shift)
            move_entries(N, b, 0, b, shift, N[b].n - shift)
        N[a].n = na
        N[b].n = total - na
        refresh(N, p, l)
        refresh(N, p, l + 1)

    cdef void fix_up(self, long* path, long* idx, long depth, long x) noexcept nogil:
        """After node x (child idx[depth−1] of path[depth−1]) changed: split, merge or
        refresh up to the root, then grow or shrink the root."""
        cdef BNode* N = self.N
        cdef long p, c, r
        while depth > 0:
            depth -= 1
            p = path[depth]
            c = idx[depth]
            if N[x].n > BMAX:
                self.split(p, c)
            elif N[x].n < BMIN:
                self.rebalance(p, c)
            else:
                refresh(N, p, c)
            x = p
        if N[x].n > BMAX:
            r = self.alloc(N[x].height + 1)
            N[r].n = 1
            N[r].child[0] = x
            refresh(N, r, 0)
            self.split(r, 0)
            self.root = r
        elif N[x].n == 1 and not N[x].leaf:
            self.root = N[x].child[0]
            self.release(x)
        elif N[x].n == 0:
            self.root = -1
            self.release(x)

    cdef void tree_insert(self, long i) noexcept nogil:
        """Insert coordinate i with key self.cs[i].key (i not in the tree)."""
        cdef BNode* N = self.N
        cdef double k = self.cs[i].key
        cdef long path[MAXDEPTH]
        cdef long idx[MAXDEPTH]
        cdef long depth = 0, x = self.root, c, e, p
        cdef bint inner
        if x < 0:
            x = self.alloc(0)
            self.root = x
        while not N[x].leaf:
            c = child_of(N, x, k, i)
            path[depth] = x
            idx[depth] = c
            depth += 1
            inner = N[x].height > 1
            x = N[x].child[c]
            prefetch_node(N, x, inner)
        p = N[x].n
        for e in range(N[x].n):
            if before(k, i, N[x].key[e], N[x].id[e]):
                p = e
                break
        move_entries(N, x, p + 1, x, p, N[x].n - p)
        N[x].key[p] = k
        N[x].id[p] = i
        N[x].n += 1
        self.leaf_of[i] = x                # (a split in fix_up re-marks the entries it moves)
        self.fix_up(path, idx, depth, x)

    cdef void tree_erase(self, long i) noexcept nogil:
        """Remove coordinate i, found by its key self.cs[i].key (a coordinate that is not
        found, which only a broken order could cause, leaves the tree as it is)."""
        cdef BNode* N = self.N
        cdef double k = self.cs[i].key
        cdef long path[MAXDEPTH]
        cdef long idx[MAXDEPTH]
        cdef long depth = 0, x = self.root, c, e, p = -1
        cdef bint inner
        if x < 0:
            return
        while not N[x].leaf:
            c = child_of(N, x, k, i)
            path[depth] = x
            idx[depth] = c
            depth += 1
            inner = N[x].height > 1
            x = N[x].child[c]
            prefetch_node(N, x, inner)
        for e in range(N[x].n):
            if N[x].id[e] == i:
                p = e
                break
        if p < 0:
            return
        move_entries(N, x, p, x, p + 1, N[x].n - p - 1)
        N[x].n -= 1
        self.fix_up(path, idx, depth, x)

    cdef inline long minimum(self) noexcept nogil:
        """The active coordinate with the smallest (key, id) (the tree is not empty)."""
        cdef long x = self.root
        while not self.N[x].leaf:
            x = self.N[x].child[0]
        return self.N[x].id[0]

    cdef inline void totals(self, double* total, long* count) noexcept nogil:
        """Σ a_i and the number of active coordinates (the root's entries; tree not empty)."""
        cdef long e, x = self.root
        total[0] = 0.0
        count[0] = 0
        for e in range(self.N[x].n):
            total[0] += entry_sum(self.N, x, e)
            count[0] += entry_cnt(self.N, x, e)

    cdef long descend(self, double u) noexcept nogil:
        """The coordinate i where u in [0, Σ_j (a_j − Θ)) falls when the intervals of width
        a_j − Θ are laid in key order; −1 if rounding walks past the last key."""
        cdef BNode* N = self.N
        cdef long x = self.root, e, n
        cdef bint inner
        cdef double w, theta = self.theta
        while True:
            n = N[x].n
            e = 0
            while e < n:
                w = entry_sum(N, x, e) - theta * entry_cnt(N, x, e)
                if u < w:
                    break
                u -= w
                e += 1
            if e == n:
                return -1
            if N[x].leaf:
                return N[x].id[e]
            inner = N[x].height > 1
            x = N[x].child[e]
            prefetch_node(N, x, inner)

    # ---- the average and renormalisation ------------------------------------------------

    cdef inline void flush(self, long i) noexcept nogil:
        if self.sign[i] != 0:
            self.cs[i].acc += self.sign[i] * (self.cs[i].key * (self.C1 - self.cs[i].m1)
                                           - (self.C2 - self.cs[i].m2))
        self.cs[i].m1 = self.C1
        self.cs[i].m2 = self.C2

    cdef void renormalise_node(self, long x, long* ents, long* nents) noexcept nogil:
        """Flush the subtree's coordinates, a ← s(a − Θ), marks to 0; its leaf entries
        appended to ``ents`` (as node·NSLOT + entry) in key order."""
        cdef BNode* N = self.N
        cdef long e, i
        cdef double k
        if N[x].leaf:
            for e in range(N[x].n):
                i = N[x].id[e]
                self.flush(i)
                k = self.s * (N[x].key[e] - self.theta)
                N[x].key[e] = k
                self.cs[i].key = k
                self.cs[i].m1 = 0.0
                self.cs[i].m2 = 0.0
                ents[nents[0]] = x * NSLOT + e
                nents[0] += 1
            return
        for e in range(N[x].n):
            self.renormalise_node(N[x].child[e], ents, nents)

    cdef void refresh_all(self, long x) noexcept nogil:
        cdef long e
        if self.N[x].leaf:
            return
        for e in range(self.N[x].n):
            self.refresh_all(self.N[x].child[e])
            refresh(self.N, x, e)

    cdef void renormalise(self) noexcept nogil:
        """Flush every active coordinate; a ← s(a − Θ), Θ ← 0, s ← 1; C1, C2 and the marks
        restart at 0 (inactive coordinates re-mark when they enter). The map is
        non-decreasing: the entries stay in key order, but keys that round to one value may
        leave their ids out of order; the ids of such runs of equal keys are sorted (keys,
        counts and sums do not change), so that every coordinate is found again."""
        cdef BNode* N = self.N
        cdef long nents = 0, a, b, p, q, tmp
        cdef long* ents
        if self.root >= 0:
            ents = <long*>malloc(self.d * sizeof(long))
            self.renormalise_node(self.root, ents, &nents)
            for a in range(1, nents):           # insertion sort of the ids of equal keys
                b = a
                while b > 0:
                    p = ents[b - 1]
                    q = ents[b]
                    if not (N[p // NSLOT].key[p % NSLOT] == N[q // NSLOT].key[q % NSLOT]
                            and N[p // NSLOT].id[p % NSLOT] > N[q // NSLOT].id[q % NSLOT]):
                        break
                    tmp = N[p // NSLOT].id[p % NSLOT]
                    N[p // NSLOT].id[p % NSLOT] = N[q // NSLOT].id[q % NSLOT]
                    N[q // NSLOT].id[q % NSLOT] = tmp
                    self.leaf_of[N[p // NSLOT].id[p % NSLOT]] = p // NSLOT  # (a run of equal
                    self.leaf_of[tmp] = q // NSLOT                          # keys may span leaves)
                    b -= 1
            free(ents)
            self.refresh_all(self.root)
        self.s = 1.0
        self.theta = 0.0
        self.C1 = 0.0
        self.C2 = 0.0
        self.n_renorms += 1

    cdef void descend_many(self, double* u, long* out, long* xs, long n) noexcept nogil:
        """``descend`` for u[0], ..., u[n−1] (overwritten) into out, interleaved level by
        level (every leaf is at one depth) so that their memory latencies overlap."""
        cdef BNode* N = self.N
        cdef long r, x, e, nn, pending = n
        cdef double w, theta = self.theta
        for r in range(n):
            xs[r] = self.root
            out[r] = -2
        while pending > 0:
            for r in range(n):
                if out[r] != -2:
                    continue
                x = xs[r]
                nn = N[x].n
                e = 0
                while e < nn:
                    w = entry_sum(N, x, e) - theta * entry_cnt(N, x, e)
                    if u[r] < w:
                        break
                    u[r] -= w
                    e += 1
                if e == nn:
                    out[r] = -1
                    pending -= 1
                elif N[x].leaf:
                    out[r] = N[x].id[e]
                    pending -= 1
                else:
                    xs[r] = N[x].child[e]
                    prefetch_node(N, xs[r], N[x].height > 1)

    cdef long sample_abs(self, bitgen_t* bg, const double* queue, long* qpos, long qlen,
                         long first_attempt) noexcept nogil:
        """i with probability (a_i − Θ)/Σ_j (a_j − Θ) over the active j: one descent per
        attempt, from attempt ``first_attempt``; the uniforms are queue[qpos], ...,
        queue[qlen − 1] (already drawn, in order), then the generator's."""
        cdef BNode* N = self.N
        cdef long x, attempt, count
        cdef double total, uni
        for attempt in range(first_attempt, 128):
            if attempt == 64:
                self.renormalise()     # rounding in Σa − Θ·count: make the keys exact
            self.totals(&total, &count)
            if qpos[0] < qlen:
                uni = queue[qpos[0]]
                qpos[0] += 1
            else:
                uni = uniform01(bg)
            x = self.descend(uni * (total - self.theta * count))
            if x >= 0:
                return x
        x = self.root              # unreachable in practice: the largest |w_i|
        while not N[x].leaf:
            x = N[x].child[N[x].n - 1]
        return N[x].id[N[x].n - 1]

    cdef double pivot(self, double R) noexcept nogil:
        """T with Σ_{a_i > T} (a_i − T) = R (R < Σ (a_i − Θ)): the keys taken in decreasing
        order, the last one kept is the largest rank ρ with a_(ρ) > (S_ρ − R)/ρ (Duchi et
        al. 2008, Fig. 1), found in one descent since the test is monotone in the rank: the
        entries of a node are taken from the right; a subtree whose smallest key is kept is
        kept whole, the first whose smallest key is not holds the last kept key."""
        cdef BNode* N = self.N
        cdef long x = self.root, e, cnt_above = 0, j
        cdef bint inner
        cdef double sum_above = 0.0, S
        while True:
            e = N[x].n - 1
            while e >= 0:
                j = cnt_above + entry_cnt(N, x, e)
                S = sum_above + entry_sum(N, x, e)
                if N[x].key[e] * j > S - R:   # the subtree's smallest key is kept
                    cnt_above = j
                    sum_above = S
                    e -= 1
                else:
                    break
            if e < 0 or N[x].leaf:
                break
            inner = N[x].height > 1
            x = N[x].child[e]
            prefetch_node(N, x, inner)
        return (sum_above - R) / cnt_above

    def check_tree(self, bint leaves=True):
        """Verify the B+-tree's invariants (every leaf at one depth, (key, id) order, the
        entries' smallest keys and counts exact, sums to rounding, node fill, keys equal to
        the coordinates' a_i, each coordinate's leaf_of its leaf); for tests. Returns the
        active coordinates in key order."""
        out = []
        if self.root >= 0:
            self._check(self.root, out, True, leaves)
        active = set(np.flatnonzero(np.asarray(self.sign)).tolist())
        if set(out) != active or len(out) != len(active):
            raise AssertionError("the tree's entries are not the active coordinates")
        for a in range(1, len(out)):
            if not before(self.cs[out[a - 1]].key, out[a - 1], self.cs[out[a]].key, out[a]):
                raise AssertionError(f"order broken between {out[a - 1]} and {out[a]}")
        return out

    def _check(self, long x, list out, bint is_root, bint leaves=True):
        """(height, count, sum, smallest key, its id) of node x's subtree."""
        cdef BNode* N = self.N
        cdef long n, e
        if not 0 <= x < self.n_nodes:
            raise AssertionError(f"node {x} outside the pool")
        n = N[x].n
        if n > BMAX or n < (1 if N[x].leaf else 2) or (not is_root and n < BMIN):
            raise AssertionError(f"node {x} holds {n} entries")
        if N[x].leaf:
            for e in range(n):
                i = N[x].id[e]
                if not 0 <= i < self.d:
                    raise AssertionError(f"leaf entry {e} of {x} names coordinate {i}")
                if N[x].key[e] != self.cs[i].key:
                    raise AssertionError(f"leaf entry {e} of {x} broken")
                if leaves and self.leaf_of[i] != x:
                    raise AssertionError(f"coordinate {i} is in leaf {x}, leaf_of says "
                                         f"{self.leaf_of[i]}")
                out.append(i)
            return 0, n, sum(N[x].key[e] for e in range(n)), N[x].key[0], N[x].id[0]
        heights = set()
        cnt, total = 0, 0.0
        for e in range(n):
            h, c, s, k0, i0 = self._check(N[x].child[e], out, False, leaves)
            heights.add(h)
            if N[x].cnt[e] != c or N[x].key[e] != k0 or N[x].id[e] != i0:
                raise AssertionError(f"entry {e} of {x}: count or smallest key broken")
            if abs(N[x].sum[e] - s) > 1e-9 * max(1.0, abs(s)):
                raise AssertionError(f"entry {e} of {x}: sum broken")
            cnt += c
            total += s
        if len(heights) != 1:
            raise AssertionError(f"leaves at different depths under {x}")
        return heights.pop() + 1, cnt, total, N[x].key[0], N[x].id[0]

    # ---- test hooks: the structure alone ------------------------------------------------

    def _insert(self, long i, double a):
        """Activate coordinate i with key a (sign +1); for the structure's tests."""
        if not 0 <= i < self.d or self.sign[i] != 0:
            raise ValueError(f"coordinate {i} is outside [0, d) or already active")
        self.cs[i].key = a
        self.sign[i] = 1
        self.tree_insert(i)

    def _erase(self, long i):
        """Deactivate coordinate i; for the structure's tests."""
        if not 0 <= i < self.d or self.sign[i] == 0:
            raise ValueError(f"coordinate {i} is outside [0, d) or inactive")
        self.tree_erase(i)
        self.sign[i] = 0

    def _project(self, double R):
        """The projection's step alone: if Σ (a_i − Θ) > R, raise Θ to the pivot and remove
        the keys <= Θ (as ``_steps`` does); returns the new Θ. For the structure's tests."""
        cdef double total, newtheta
        cdef long count, x
        if self.root >= 0:
            self.totals(&total, &count)
            if total - self.theta * count > R:
                newtheta = self.pivot(R)
                if newtheta > self.theta:
                    self.theta = newtheta
                while self.root >= 0:
                    x = self.minimum()
                    if self.cs[x].key > self.theta:
                        break
                    self.tree_erase(x)
                    self.sign[x] = 0
        return self.theta

    def _descend(self, double u):
        """``descend`` for the tests: the coordinate drawn for u in [0, Σ (a_i − Θ))."""
        return self.descend(u) if self.root >= 0 else -1

    def _totals(self):
        """(Σ a_i, count) over the active coordinates, as the descents see them."""
        cdef double total = 0.0
        cdef long count = 0
        if self.root >= 0:
            self.totals(&total, &count)
        return total, count

    def _renormalise(self):
        self.renormalise()

    def run(self, object rng, const double[:, ::1] X, const double[::1] Y, long k,
            long[::1] attributes, object record, long n_steps=-1, long row0=0):
        """Fig. 2's loop over the rows of X (``n_steps`` >= 0: that many steps, the rows taken
        cyclically from row ``row0``). ``record``: None or an (m, k) int array receiving C
        (k/2 indices) then the k/2 draws i of each step. Each entry read is checked
        (:meth:`fault`); ``max_ratio`` bounds the first step's move from the largest |x| and
        |y| read (``aer.aer_step_ratio_of``)."""
        self.ratio_coef = 4.0 * self.d / (k * self.lam * self.B)
        with rng.bit_generator.lock:
            self._steps(rng, X, Y, None, k, attributes, record,
                        X.shape[0] if n_steps < 0 else n_steps, row0)

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
            self._steps(rng, None, None, oracle, k, attributes, record, n_steps, 0)

    cdef inline void shuffle_c(self, int* perm, long half, bitgen_t* bg,
                               const double* xrow) noexcept nogil:
        """C, a uniformly random k/2-subset, into perm[:half]; start the loads of its
        records and, when xrow is a row (not NULL), of its entries of that row."""
        cdef long a, j
        partial_shuffle(perm, self.d, half, bg)
        for a in range(half):
            j = perm[a]
            if xrow != NULL:
                AER_PREFETCH(&xrow[j])
            AER_PREFETCH(&self.cs[j])          # key, acc, m1, m2: one line
            AER_PREFETCH(&self.sign[j])
            AER_PREFETCH(&self.leaf_of[j])

    cdef void _steps(self, object rng, const double[:, ::1] X, const double[::1] Y,
                     RowOracle oracle, long k, long[::1] attributes, object record,
                     long m, long row0) except *:
        """``m`` steps of Fig. 2 on the rows of X taken cyclically or, when ``oracle`` is given
        (X and Y None), on the oracle's examples; the callers hold the generators' locks."""
        cdef bitgen_t* bg = bitgen_of(rng)
        cdef bint rows = oracle is None
        cdef long P = X.shape[0] if rows else 0, d = self.d, half = k // 2
        cdef long row = row0, here = 0
        cdef bint recording = record is not None
        cdef long[:, ::1] rec = np.zeros((1, k), dtype=np.int_) if not recording else record
        cdef int* perm = &self.perm[0]
        cdef long[::1] ibuf_arr = np.zeros(max(half, 1), dtype=np.int_)
        cdef long* ibuf = &ibuf_arr[0]
        cdef long[::1] cur_arr = np.zeros(max(half, 1), dtype=np.int_)
        cdef long* cur = &cur_arr[0]                   # this step's C
        cdef bint ahead = False                        # the next step's C is in perm[:half]
        cdef bint drawn                                # the draws need no redraw
        cdef bint nonempty                             # w ≠ 0 when the draws were made
        cdef long early                                # C's entry flushed and erased before ŷ
        cdef long[::1] draw_arr = np.zeros(2 * max(half, 1), dtype=np.int_)
        cdef long* first = &draw_arr[0]                # first attempts' outcomes (−1: redraw)
        cdef long* xs = &draw_arr[max(half, 1)]
        cdef double[::1] uni_arr = np.zeros(2 * max(half, 1))
        cdef double* uni = &uni_arr[0]                 # the k/2 first uniforms, in order
        cdef double* wpos = &uni_arr[max(half, 1)]
        cdef long qpos
        cdef bint redrawn
        cdef double* v = &self.v[0]
        cdef long step, r, i, j, a, seen, x, count
        cdef double yhat, y, norm1 = 0.0, c, unew, L, R, newtheta, total
        cdef const double* xrow = NULL
        fault_clear(&self.F)
        self.ratio_fault = False
        with nogil:
            for step in range(m):
                if rows:
                    xrow = &X[row, 0]
                    y = Y[row]
                    if self.read_bad(row, -1, y):
                        break                  # a bad label: stop before the step
                    here = row
                    row += 1
                    if row == P:
                        row = 0
                else:
                    oracle.next_example()
                    y = oracle.y
                self.t += 1
                # v: C uniform among the k/2-subsets; v_j = (2/k) d x_j. C was shuffled into
                # perm[:half] at the previous step, after its last random number (``ahead``),
                # or is shuffled now: the same random numbers in the same order either way.
                if not ahead:
                    self.shuffle_c(perm, half, bg, xrow if rows else NULL)
                ahead = False
                for a in range(half):
                    cur[a] = perm[a]
                    x = self.leaf_of[cur[a]]   # the leaf its erase will visit: load it now
                    if self.sign[cur[a]] != 0 and 0 <= x < self.n_nodes:
                        prefetch_node(self.N, x, False)
                    if not rows:
                        v[a] = (2.0 / k) * d * oracle.attribute(cur[a])
                    if recording:
                        rec[step, a] = cur[a]
                seen = half
                # ŷ: k/2 draws i ∝ |w_i| (uniform when w = 0); ŷ += (2/k) sgn(w_i)‖w‖₁ x_i
                yhat = 0.0
                nonempty = self.root >= 0      # (the early erase below may empty the tree)
                if nonempty:
                    self.totals(&total, &count)
                    norm1 = self.s * (total - self.theta * count)
                # the k/2 draws' first attempts descend together (their uniforms are drawn
                # in the order sequential draws would take them; after a redraw the rest
                # follow sequentially, from the next of these uniforms)
                redrawn = False
                if nonempty:
                    for r in range(half):
                        uni[r] = uniform01(bg)
                        wpos[r] = uni[r] * (total - self.theta * count)
                    self.descend_many(wpos, first, xs, half)
                    for r in range(half):
                        if first[r] >= 0:
                            if rows:
                                AER_PREFETCH(&xrow[first[r]])
                            AER_PREFETCH(&self.sign[first[r]])
                # this step has drawn its last random number unless a draw is redrawn or
                # w = 0: the next step's C now, so that its loads overlap this step's work
                drawn = nonempty
                for r in range(half):
                    if first[r] < 0:
                        drawn = False
                if drawn and step + 1 < m:
                    self.shuffle_c(perm, half, bg, &X[row, 0] if rows else NULL)
                    ahead = True
                if rows:                       # x_j of C, loaded during the descents
                    for a in range(half):
                        if self.read_bad(here, cur[a], xrow[cur[a]]):
                            break
                        v[a] = (2.0 / k) * d * xrow[cur[a]]
                    if self.F.row >= 0:
                        break
                # the update's first flush and erase need neither ŷ nor the rest of the tree
                # unchanged once the draws are made: done now, while the x_i of the draws load
                # (the tree sees the same operations in the same order)
                early = -1
                if drawn:
                    for a in range(half):
                        if v[a] != 0.0:
                            early = a
                            self.flush(cur[a])
                            if self.sign[cur[a]] != 0:
                                self.tree_erase(cur[a])
                            break
                for r in range(half):
                    if nonempty:
                        if not redrawn and first[r] >= 0:
                            i = first[r]
                        elif not redrawn:
                            redrawn = True
                            qpos = r + 1
                            i = self.sample_abs(bg, uni, &qpos, half, 1)
                        else:
                            i = self.sample_abs(bg, uni, &qpos, half, 0)
                        if rows and self.read_bad(here, i, xrow[i]):
                            break
                        yhat += (2.0 / k) * self.sign[i] * norm1 * (
                            xrow[i] if rows else oracle.attribute(i))
                    else:
                        i = <long>bounded(bg, <unsigned int>d)
                    if recording:
                        rec[step, half + r] = i
                    ibuf[r] = i
                    for a in range(half):
                        if cur[a] == i:
                            break
                    else:
                        for a in range(r):
                            if ibuf[a] == i:
                                break
                        else:
                            seen += 1
                if self.F.row >= 0:
                    break
                attributes[step] = seen
                if step + 1 < m and not ahead:
                    self.shuffle_c(perm, half, bg, &X[row, 0] if rows else NULL)
                    ahead = True
                # eq. (10): w ← (1 − 1/t) w − (2/(λt)) (ŷ − y) v  (at t = 1, w = 0 already)
                if self.t > 1:
                    self.s *= 1.0 - 1.0 / self.t
                c = 2.0 * (yhat - y) / (self.lam * self.t * self.s)
                if not isfinite(c):                    # overflow: stop (the caller raises)
                    self.failed = self.t
                    break
                for a in range(half):
                    j = cur[a]
                    if v[a] == 0.0:
                        continue
                    if a != early:
                        self.flush(j)
                    if self.sign[j] != 0:
                        unew = self.sign[j] * (self.cs[j].key - self.theta) - c * v[a]
                        if a != early:
                            self.tree_erase(j)
                    else:
                        unew = -c * v[a]
                    if not isfinite(unew):
                        self.failed = self.t
                        break
                    if unew != 0.0:
                        self.sign[j] = 1 if unew > 0 else -1
                        self.cs[j].key = fabs(unew) + self.theta
                        self.tree_insert(j)
                    else:
                        self.sign[j] = 0
                if self.failed:
                    break
                # eq. (11): projection onto {‖w‖₁ <= B}
                if self.root >= 0:
                    self.totals(&total, &count)
                    L = total - self.theta * count
                    R = self.B / self.s
                    if L > R:
                        newtheta = self.pivot(R)
                        if newtheta > self.theta:
                            self.theta = newtheta
                        while self.root >= 0:
                            x = self.minimum()
                            if self.cs[x].key > self.theta:
                                break
                            self.flush(x)
                            self.tree_erase(x)
                            self.sign[x] = 0
                # w̄ += w
                self.C1 += self.s
                self.C2 += self.s * self.theta
                if self.s < self.renorm_low or self.theta * self.s > 256.0 * self.B:
                    self.renormalise()


def _restore_aer(d, B, lam, scalars, nodes, key, sign, acc, m1, m2, perm):
    state = AERState(d, B, lam)
    state._load(scalars, nodes, key, sign, acc, m1, m2, perm)
    return state


def baseline_accumulate(object rng, const double[:, ::1] X, const double[::1] Y, long k,
                        double[:, ::1] A, double[::1] v, double[::1] diag, long[::1] attributes,
                        object record, object start=None, double[::1] fault=None):
    """CB11 Fig. 1's loop: adds Σ_t A_t to ``A`` (the d × d matrix, both (i, j) and (j, i)),
    Σ_t 2 y v_t to ``v`` and Σ_t (d/k) x_c² over c ∈ C to ``diag`` (the unbiased diagonal a
    corrected estimate needs; Fig. 1 itself has none). O(k²) per example.

    A uniformly random ordered k-sample of [d]: C is its set, its first half I and its second
    half J (a uniform split of C). ``record``: None or an (m, k) array receiving that sample.
    ``start``: None, or the permutation of [d] the partial Fisher-Yates shuffles start from (a
    previous call's, so that batches continue one stream of samples); updated in place.
    ``fault``: None or 3 doubles; each entry read is checked, and at the first that is not
    finite or beyond 1e100 the loop stops before its example's sums and returns the number of
    examples added, with (row, column, value) in ``fault`` (column −1: y). Returns m otherwise.
    """
    cdef bitgen_t* bg = bitgen_of(rng)
    cdef long m = X.shape[0], d = X.shape[1], half = k // 2
    if (A.shape[0] != d or A.shape[1] != d or v.shape[0] != d or diag.shape[0] != d
            or Y.shape[0] != m or attributes.shape[0] < m or not 2 <= k <= d
            or (start is not None and (len(start) != d or not np.array_equal(
                np.sort(start), np.arange(d))))
            or (record is not None and (record.shape[0] < m or record.shape[1] != k))):
        raise ValueError("baseline_accumulate's arrays do not fit together (a corrupted "
                         "Baseline state?)")
    cdef long[::1] perm_arr = np.arange(d, dtype=np.int_) if start is None else start
    cdef long* perm = &perm_arr[0]
    cdef bint recording = record is not None
    cdef long[:, ::1] rec = np.zeros((1, k), dtype=np.int_) if not recording else record
    cdef double ratio = <double>d / k, y, entry
    cdef long step, a, b, i, j, bad_col = -2, done = m
    cdef double bad_value = 0.0
    with rng.bit_generator.lock, nogil:
        for step in range(m):
            y = Y[step]
            partial_shuffle(perm, d, k, bg)
            if bad_entry(y):
                bad_col, bad_value = -1, y
            for a in range(k):
                if bad_col == -2 and bad_entry(X[step, perm[a]]):
                    bad_col, bad_value = perm[a], X[step, perm[a]]
            if bad_col >= -1:
                done = step
                break
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
    if bad_col >= -1 and fault is not None:
        fault[0], fault[1], fault[2] = done, bad_col, bad_value
    return done
