# cython: language_level=3
"""Inline pieces shared by the learner kernels (``_ridge.pyx``, ``_lasso.pyx``, ``_aer.pyx``).

They work on raw pointers, taken once per call of a kernel's ``run``: the hot loops then keep
their scalars in registers (a store through a ``double*`` cannot be proven not to alias a
field of ``self``, so fields would be reloaded after every store).
"""
from libc.math cimport fabs
from libc.stdlib cimport free, malloc, realloc
from numpy.random cimport bitgen_t

from laocheck.data._oracle cimport RowOracle
from laocheck.estimators._rng cimport bounded, uniform01


# --- the data a step reads ------------------------------------------------------------------
# The learners check each entry of X and y they read, when they read it (O(1) per read, no
# pass over X): finite and within SCALE_RANGE's upper end (``_base.SCALE_RANGE``). An entry no
# step reads is never inspected (the point of a model that sees k + 1 attributes of an
# example). A kernel stops at the first bad entry it reads, before the step that read it
# changes anything, and reports where (``Fault``); the learner raises and is left unfitted.

cdef inline bint bad_entry(double v) noexcept nogil:
    """|v| > 1e100 (SCALE_RANGE[1]), inf or NaN (a NaN fails every comparison)."""
    return not (fabs(v) <= 1e100)


cdef struct Fault:
    # the first bad entry a kernel read: X[row, col] (col = −1: y[row]) and its value
    long row
    long col
    double value


cdef inline void fault_clear(Fault* F) noexcept nogil:
    F.row, F.col, F.value = -1, -1, 0.0


cdef inline bint fault_set(Fault* F, long row, long col, double value) noexcept nogil:
    """Note the bad entry; returns True (for ``if bad_entry(v) and fault_set(...): break``)."""
    F.row, F.col, F.value = row, col, value
    return True


cdef inline long alias_pick(const double* table, long u, double coin,
                            double* value) noexcept nogil:
    """Row u of a raw (n, 4) alias table with its coin: u itself or its alias, the payload to
    ``value``."""
    if coin < table[4 * u]:
        value[0] = table[4 * u + 2]
        return u
    value[0] = table[4 * u + 3]
    return <long>table[4 * u + 1]


cdef inline long payload_draw_ptr(const double* table, long n, bitgen_t* bg,
                                  double* value) noexcept nogil:
    """``laocheck.estimators._rng.payload_draw`` on a raw (n, 4) table: the same random
    numbers, the same index and payload."""
    cdef long u = <long>bounded(bg, <unsigned int>n)
    return alias_pick(table, u, uniform01(bg), value)


cdef inline long draw_x_tilde(
    bitgen_t* bg, const double* xrow, RowOracle oracle, long d, long k, bint uniform_q,
    const double* q_rows, long* idx, double* val, long* rec, long* bad,
) noexcept nogil:
    """x̃ = (1/k) Σ_r x_{i_r}/q_{i_r} e_{i_r} (HK12 Alg. 1 lines 3-7, KS15 Alg. 1 lines 3-7),
    merged per index into ``idx[:nnz]``, ``val[:nnz]``; returns nnz. x_i is ``xrow[i]``, or
    ``oracle.attribute(i)`` when ``xrow`` is NULL, read once per draw either way.

    Uniform q draws i by an unbiased bounded integer (weight d/k); otherwise ``q_rows`` is q's
    alias table (d rows) with payload 1/(k q_i). The drawn indices go to ``rec[:k]`` unless
    ``rec`` is NULL.
    """
    cdef long r, i, a, nnz = 0
    cdef double weight = <double>d / k
    for r in range(k):
        if uniform_q:
            i = <long>bounded(bg, <unsigned int>d)
        else:
            i = payload_draw_ptr(q_rows, d, bg, &weight)
        if rec != NULL:
            rec[r] = i
        for a in range(nnz):
            if idx[a] == i:
                break
        else:
            a = nnz
            idx[a] = i
            val[a] = 0.0
            nnz += 1
        x = xrow[i] if xrow != NULL else oracle.attribute(i)
        if bad_entry(x) and bad[0] < 0:
            bad[0] = i
        val[a] += x * weight
    return -1 if bad[0] >= 0 else nnz


cdef extern from *:
    # gcc/clang builtin: a hint to load the cache line of an address (never faults)
    void __builtin_prefetch(const void* addr) noexcept nogil
    # gcc/clang builtin: the number of trailing zero bits (x != 0)
    int __builtin_ctzl(unsigned long x) noexcept nogil


cdef inline void draw_indices(bitgen_t* bg, long d, long k, bint uniform_q,
                              const double* q_rows, long* ii, double* ww) noexcept nogil:
    """The k draws of x̃ (HK12 Alg. 1 line 4, KS15 Alg. 1 line 4) without reading x: the
    indices to ``ii[:k]``, their weights (d/k, or the payload 1/(k q_i)) to ``ww[:k]``. The
    same random numbers in the same order as :func:`draw_x_tilde`; with
    :func:`merge_x_tilde` it gives the same x̃, bit for bit. Split so that a kernel can draw
    step t+1's indices while step t waits for memory, and prefetch them.

    With q's alias table (:func:`payload_draw_ptr`'s numbers: a row, then a uniform, per
    draw), all 2k numbers are drawn first and the k rows requested at once, then read: at
    large d a row is a cache miss, and the k misses overlap instead of following each other."""
    cdef long r
    cdef double weight = <double>d / k
    if uniform_q:
        for r in range(k):
            ii[r] = <long>bounded(bg, <unsigned int>d)
            ww[r] = weight
        return
    for r in range(k):
        ii[r] = <long>bounded(bg, <unsigned int>d)     # the row
        __builtin_prefetch(q_rows + 4 * ii[r])
        ww[r] = uniform01(bg)                          # the coin
    for r in range(k):
        ii[r] = alias_pick(q_rows, ii[r], ww[r], &ww[r])


cdef inline long merge_x_tilde(const double* xrow, RowOracle oracle, long k, const long* ii,
                               const double* ww, long* idx, double* val,
                               Fault* F, long row) noexcept nogil:
    """x̃ from the draws of :func:`draw_indices`, merged per index into ``idx[:nnz]``,
    ``val[:nnz]`` in draw order (the arithmetic of :func:`draw_x_tilde`); returns nnz. x_i is
    ``xrow[i]``, or ``oracle.attribute(i)`` when ``xrow`` is NULL, read once per draw. An x_i
    that is not finite or beyond 1e100: noted in ``F`` (row ``row``), −1 returned."""
    cdef long r, i, a, nnz = 0
    cdef double x
    for r in range(k):
        i = ii[r]
        for a in range(nnz):
            if idx[a] == i:
                break
        else:
            a = nnz
            idx[a] = i
            val[a] = 0.0
            nnz += 1
        x = xrow[i] if xrow != NULL else oracle.attribute(i)
        if bad_entry(x):
            fault_set(F, row, i, x)
            return -1
        val[a] += x * ww[r]
    return nnz


cdef inline long draw_data_point(
    bitgen_t* bg, const double* xrow, long d, long k, bint uniform_q, const double* q_rows,
    long* idx, double* val, long* rec, long* bad,
) noexcept nogil:
    """x̃ of one row ``xrow`` (:func:`draw_x_tilde`)."""
    return draw_x_tilde(bg, xrow, None, d, k, uniform_q, q_rows, idx, val, rec, bad)


cdef inline bint contains(const long* idx, long nnz, long j) noexcept nogil:
    cdef long a
    for a in range(nnz):
        if idx[a] == j:
            return True
    return False


cdef inline long add_seen(long* idx, long seen, long j) noexcept nogil:
    """Note attribute j as observed: appended to ``idx[:seen]`` unless there; returns the new
    count of distinct attributes."""
    if contains(idx, seen, j):
        return seen
    idx[seen] = j
    return seen + 1


# --- blocked sum tree ------------------------------------------------------------------------
# The learners' w-dependent sampling (j ∝ w_j² or ∝ |w_j|) uses a sum tree whose leaves are
# blocks of BLOCK = 8 consecutive weights (one cache line of ``wt``): the tree has d/8 leaves,
# so at d = 10⁵ it is 256 KB and stays in L2, and an update or a draw touches one line of
# ``wt`` plus a path of log2(d/8) nodes. ``wt`` has length nblocks·8 (zero padding).

cdef inline double block_sum(const double* wt, long b) noexcept nogil:
    cdef const double* p = wt + 8 * b
    return ((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7]))


cdef inline void btree_set(double* wt, double* tree, long cap, long i,
                           double weight) noexcept nogil:
    """Set weight i; its block's sum and the path above are recomputed (no drift)."""
    cdef long node
    wt[i] = weight
    node = cap + (i >> 3)
    tree[node] = block_sum(wt, i >> 3)
    node >>= 1
    while node >= 1:
        tree[node] = tree[2 * node] + tree[2 * node + 1]
        node >>= 1


cdef inline void btree_refresh(const double* wt, double* tree, long cap, const long* idx,
                               long n) noexcept nogil:
    """After the weights ``idx[:n]`` changed in ``wt``: their blocks' sums and the paths
    above, one path after the other as ``btree_set`` on each index in turn would (the last
    path through a node passes through the child it does not take after every other path
    there, so every node ends as the sum of its two children's final values: the same tree,
    bit for bit). A path's sum is carried in a register, v ← v + sibling (IEEE addition is
    commutative: the same bits as left + right), so its additions wait for each other but not
    for stores, the siblings' loads are issued at once, and the n paths overlap."""
    cdef long a, node
    cdef double v
    for a in range(n):
        node = cap + (idx[a] >> 3)
        v = block_sum(wt, idx[a] >> 3)
        tree[node] = v
        while node > 1:
            v = v + tree[node ^ 1]
            node >>= 1
            tree[node] = v


cdef inline void btree_build(const double* wt, double* tree, long cap,
                             long nblocks) noexcept nogil:
    """Every block sum and node from ``wt`` (the same sums as ``btree_set`` computes)."""
    cdef long b, node
    for b in range(cap):
        tree[cap + b] = block_sum(wt, b) if b < nblocks else 0.0
    for node in range(cap - 1, 0, -1):
        tree[node] = tree[2 * node] + tree[2 * node + 1]


cdef inline long block_scan(const double* wt, long base, double u) noexcept nogil:
    """The entry of the block at ``base`` where mass ``u`` (>= 0, finite) falls: the first r
    with u − (w_0 + ... + w_{r−1}) < w_r, subtracting in that order; −1 past the block's end.
    Counted without a branch (a scan that stops there mispredicts its exit): u − w < 0 holds
    exactly when u < w (for doubles, u − w is 0 only when u = w, and its sign is exact), and
    once negative the running u stays so, so the count of r with u − w_0 − ... − w_r >= 0 is
    that first r, and every entry returned has a positive weight."""
    cdef long r, c = 0
    for r in range(8):
        u -= wt[base + r]
        c += u >= 0.0
    return base + c if c < 8 else -1


cdef inline long tree_walk(const double* tree, long cap, long node, double* u) noexcept nogil:
    """The plain descent from ``node`` to a block's leaf node (returned), ``u[0]`` reduced by
    the masses passed on the left."""
    cdef double left, v = u[0]
    while node < cap:
        left = tree[2 * node]
        if v < left:
            node = 2 * node
        else:
            v -= left
            node = 2 * node + 1
    u[0] = v
    return node


cdef inline long block_at(const double* wt, const double* tree, long cap, long nblocks,
                          long node, double u) noexcept nogil:
    """The index at the remaining mass ``u`` of leaf node ``node`` (:func:`block_scan`); −1
    past the last block or on an empty one."""
    if node - cap >= nblocks or tree[node] <= 0.0:
        return -1
    return block_scan(wt, 8 * (node - cap), u)


cdef inline long btree_descend(const double* wt, const double* tree, long cap, long nblocks,
                               double u) noexcept nogil:
    """The index at mass ``u`` (0 <= u < tree[1]): descend to a block, then scan its 8
    weights; −1 when rounding pushes ``u`` past the end of a block or onto an empty one (the
    caller draws again, so every index returned has a positive weight)."""
    cdef long node = tree_walk(tree, cap, 1, &u)
    return block_at(wt, tree, cap, nblocks, node, u)


cdef inline long btree_descend_guessed(const double* wt, const double* tree, long cap,
                                       long nblocks, double u, long guess) noexcept nogil:
    """:func:`btree_descend` (the same index, by the same arithmetic), faster when the index
    is likely ``guess`` (e.g. drawn with the same uniform on the tree before a few weights
    changed): the path to guess's block is followed, each level checked against the
    comparison the plain descent makes (a branch that is almost always predicted), and the
    plain descent takes over where they differ. The loads of the path do not wait for the
    comparisons. ``guess`` < 0: the plain descent."""
    cdef double left
    cdef long node = 1, leaf, level
    cdef bint right
    if guess < 0:
        return btree_descend(wt, tree, cap, nblocks, u)
    leaf = cap + (guess >> 3)
    level = __builtin_ctzl(<unsigned long>cap) - 1
    while level >= 0:                   # node = leaf >> (level + 1), on guess's path
        left = tree[(leaf >> level) & ~1]
        right = (leaf >> level) & 1
        if right == (u < left):         # the plain descent turns the other way here
            node = leaf >> (level + 1)
            break
        u -= left if right else 0.0     # (u − 0.0 is u: the plain descent's arithmetic)
        level -= 1
    else:
        node = leaf
    node = tree_walk(tree, cap, node, &u)   # the plain descent from where the path differs
    return block_at(wt, tree, cap, nblocks, node, u)


cdef inline long btree_guess(const double* wt, const double* tree, long cap, long nblocks,
                             double u) noexcept nogil:
    """An index at or near mass ``u``, for a guess (:func:`btree_descend_guessed`): the
    plain descent to a block, then the entries whose end lies at or below ``u`` counted
    without a branch (the plain scan's exit is a mispredicted branch; a guess is only used
    to load memory early and to guide the exact descent, never as a draw). −1: none."""
    cdef long node = tree_walk(tree, cap, 1, &u)
    if node - cap >= nblocks:
        return -1
    return block_scan(wt, 8 * (node - cap), u)


cdef inline long btree_draw(bitgen_t* bg, const double* wt, const double* tree, long cap,
                            long nblocks) noexcept nogil:
    """An index drawn ∝ its weight (:func:`btree_descend` at u·total, redrawn on −1)."""
    cdef long i
    while True:
        i = btree_descend(wt, tree, cap, nblocks, uniform01(bg) * tree[1])
        if i >= 0:
            return i


# --- drawing ahead ---------------------------------------------------------------------------
# A step reads x_i at k random attributes and x_j at j ∝ a weight of w: each a cache miss on
# a row (or a state entry) that no hardware prefetcher predicts. The kernels draw every random
# number as early as the boxes' order of the random stream allows and request the memory it
# points to at once: after step t's update come step t+1's j's (drawn on w_{t+1}) and then
# step t+2's x̃ draws and the uniform of step t+2's first j, whose index is guessed on w_{t+1}'s
# tree and settled (``btree_descend_guessed`` with the same uniform) after step t+1's update. Only
# the guess can be wrong, and a wrong guess costs a load, never a value: runs are
# bit-identical to drawing each number where the box uses it.

cdef inline const double* row_at(const double* X0, long P, long d, long row,
                                 long ahead) noexcept nogil:
    """Row ``row + ahead`` of the P rows of X0 taken cyclically (NULL without rows)."""
    if X0 == NULL:
        return NULL
    row += ahead
    while row >= P:
        row -= P
    return X0 + row * d


cdef struct Ahead:
    # The look-ahead of a dense kernel's loop (see above): x̃'s draws of the current step and
    # of the next (drawn a step before it), the next step's first-j uniform and its guess.
    long* ii                      # the current step's k draws (indices), and their weights
    double* ww
    long* ii_next                 # the next step's
    double* ww_next
    double u_next                 # the uniform of the next step's first j, when ``guessed``
    long j_guess                  # its index guessed on an earlier tree (−1: none)
    bint guessed
    const char* state             # the state read at a drawn index i: state + stride·i ...
    long stride
    const char* state2            # ... and, at an x̃ draw only, state2 + stride2·i (or NULL)
    long stride2


cdef inline void ahead_hint(const double* xrow, RowOracle oracle, long i) noexcept nogil:
    """Ask for x_i of the next example: of the row ``xrow``, or through the oracle's hint
    (neither when both are missing)."""
    if xrow != NULL:
        __builtin_prefetch(xrow + i)
    elif oracle is not None:
        oracle.prefetch_next(i)


cdef inline void ahead_init(Ahead* A, long* draws, double* weights, long k, const char* state,
                            long stride, const char* state2, long stride2) noexcept nogil:
    """A's two buffers of x̃ draws (``draws[:2k]``, ``weights[:2k]``), no guess pending, and
    the state a kernel reads at a drawn index (``state2``: at x̃'s draws only; NULL: none)."""
    A.ii, A.ii_next, A.ww, A.ww_next = draws, draws + k, weights, weights + k
    A.guessed, A.j_guess, A.u_next = False, -1, 0.0
    A.state, A.stride, A.state2, A.stride2 = state, stride, state2, stride2


cdef inline void ahead_draw(Ahead* A, bitgen_t* bg, long d, long k, bint uniform_q,
                            const double* qp, const double* wt, const double* tree, long cap,
                            long nblocks, const double* xrow) noexcept nogil:
    """The step after next's x̃ draws (:func:`draw_indices` to ``ii_next``, ``ww_next``) and
    the uniform of its first j (``u_next``), with the loads they need requested: x_i, wt_i
    and the state of the k draws, and x_j and the state of j guessed on the current tree
    (:func:`btree_guess`, ``j_guess``, −1 when none). ``xrow``: the row that step will read,
    or NULL (an oracle's example: :func:`ahead_hint_oracle` hints its reads when it is next).

    The box draws j only when w ≠ 0, after the step between (which changes the coordinates
    ``ii``) has updated w. So the uniform is drawn here only when that is certain: the other
    coordinates hold more than 1/1000 of the tree's total weight (``guessed``; if not, the
    kernel draws j where the box does)."""
    cdef long r, i
    cdef double rest = tree[1]
    draw_indices(bg, d, k, uniform_q, qp, A.ii_next, A.ww_next)
    for r in range(k):
        i = A.ii_next[r]
        if xrow != NULL:
            __builtin_prefetch(xrow + i)
        __builtin_prefetch(wt + i)
        __builtin_prefetch(A.state + A.stride * i)
        if A.state2 != NULL:
            __builtin_prefetch(A.state2 + A.stride2 * i)
    for r in range(k):
        rest -= wt[A.ii[r]]
    A.guessed, A.j_guess = False, -1
    if not rest > 1e-3 * tree[1]:
        return
    A.guessed = True
    A.u_next = uniform01(bg)
    i = btree_guess(wt, tree, cap, nblocks, A.u_next * tree[1])
    A.j_guess = i
    if i >= 0:
        if xrow != NULL:
            __builtin_prefetch(xrow + i)
        __builtin_prefetch(A.state + A.stride * i)


cdef inline long ahead_settle(Ahead* A, bitgen_t* bg, const double* wt, const double* tree,
                              long cap, long nblocks, long* jj, long n_inner,
                              const double* xnext, RowOracle oracle) noexcept nogil:
    """The next step's j's, on the updated tree (the caller has checked w ≠ 0, as the box
    does before it draws): the first from the uniform drawn a step before (the guess guides
    the descent), the other n_inner − 1 to ``jj[1:]``; each one's x_j (row ``xnext`` or the
    oracle's next example) and state requested unless the guess already was. Returns the
    first j."""
    cdef long j1 = -1, r
    if A.guessed:
        j1 = btree_descend_guessed(wt, tree, cap, nblocks, A.u_next * tree[1], A.j_guess)
    if j1 < 0:
        j1 = btree_draw(bg, wt, tree, cap, nblocks)
    if j1 != A.j_guess:
        ahead_hint(xnext, oracle, j1)
        __builtin_prefetch(A.state + A.stride * j1)
    for r in range(1, n_inner):
        jj[r] = btree_draw(bg, wt, tree, cap, nblocks)
        ahead_hint(xnext, oracle, jj[r])
        __builtin_prefetch(A.state + A.stride * jj[r])
    return j1


cdef inline void ahead_shift(Ahead* A) noexcept nogil:
    """The next step becomes the current one: its draws move to ``ii``, ``ww`` (the buffers
    swap), and no guess is pending until :func:`ahead_draw`."""
    cdef long* li = A.ii
    cdef double* dw = A.ww
    A.ii = A.ii_next
    A.ii_next = li
    A.ww = A.ww_next
    A.ww_next = dw
    A.guessed = False
    A.j_guess = -1


cdef inline void ahead_next(Ahead* A, bint more, bitgen_t* bg, long d, long k, bint uniform_q,
                            const double* qp, const double* wt, const double* tree, long cap,
                            long nblocks, const double* xrow) noexcept nogil:
    """After the next step's j's: :func:`ahead_shift`, then, when ``more`` steps follow it,
    :func:`ahead_draw` for the one after (whose row is ``xrow``)."""
    ahead_shift(A)
    if more:
        ahead_draw(A, bg, d, k, uniform_q, qp, wt, tree, cap, nblocks, xrow)


cdef inline void ahead_hint_oracle(const Ahead* A, RowOracle oracle, long k) noexcept nogil:
    """On an oracle (its next example known only now): the next step's x̃ draws and guessed j
    as hints."""
    cdef long r
    for r in range(k):
        oracle.prefetch_next(A.ii_next[r])
    if A.j_guess >= 0:
        oracle.prefetch_next(A.j_guess)


# --- coordinate -> slot table (the sparse states) -----------------------------------------
# The sparse states keep the coordinates a run has moved in compact slots (0, 1, 2, ... in
# the order they first moved); this open-addressing table (linear probing, Fibonacci hashing,
# load <= 1/2) finds a coordinate's slot. Written here because a dict would need the GIL in
# the kernels' loops and no C hash table ships with numpy or Cython.

cdef struct Slot:
    long key                      # a moved coordinate, or -1 (an empty entry)
    long slot                     # its slot


cdef struct SlotMap:
    Slot* table
    long shift                    # 64 − log2(entries)
    long mask                     # entries − 1


cdef inline long slotmap_home(const SlotMap* m, long key) noexcept nogil:
    return <long>((<unsigned long>key * <unsigned long>0x9E3779B97F4A7C15) >> m.shift)


cdef inline long slotmap_lookup(const SlotMap* m, long key) noexcept nogil:
    """The slot of ``key``, or −1 when it has none."""
    cdef long h = slotmap_home(m, key)
    while True:
        if m.table[h].key == key:
            return m.table[h].slot
        if m.table[h].key < 0:
            return -1
        h = (h + 1) & m.mask


cdef inline void slotmap_insert(SlotMap* m, long key, long slot) noexcept nogil:
    """Add ``key`` (absent) with ``slot``; the caller keeps the load <= 1/2."""
    cdef long h = slotmap_home(m, key)
    while m.table[h].key >= 0:
        h = (h + 1) & m.mask
    m.table[h].key = key
    m.table[h].slot = slot


cdef inline int slotmap_build(SlotMap* m, long capacity, const long* keys,
                              long n) noexcept nogil:
    """A table of at least 2·``capacity`` entries holding keys[a] -> a for a < n (the old
    table freed); −1 when out of memory (the old table kept)."""
    cdef long bits = 1, h, a
    cdef Slot* table
    while (1 << bits) < 2 * capacity:
        bits += 1
    table = <Slot*>malloc((1 << bits) * sizeof(Slot))
    if table == NULL:
        return -1
    free(m.table)
    m.table = table
    m.mask = (1 << bits) - 1
    m.shift = 64 - bits
    for h in range(1 << bits):
        table[h].key = -1
    for a in range(n):
        slotmap_insert(m, keys[a], a)
    return 0


# --- the sparse states' slots ------------------------------------------------------------
# The coordinates a run has moved, in slots 0, 1, ... (the order they first moved): each
# slot's coordinate, its weight in a blocked sum tree over the slots, and the table from
# coordinate to slot. Each state keeps its own per-slot payload beside it (SparseRidgeState:
# u and the lazy-average record; SparseLassoState: the EG± cell) and enlarges or reorders it
# together with these.

cdef struct Slots:
    long* keys                    # slot -> coordinate
    double* wt                    # the tree's weights, in slot order (zero past n)
    double* tree
    SlotMap map
    long n                        # slots in use: the coordinates moved
    long cap                      # slots allocated (a multiple of 8)
    long tcap                     # the tree's leaves (blocks of 8 weights), a power of 2
    long nblocks                  # cap / 8
    bint identity                 # slot i holds coordinate i for every i < d (no table)


cdef inline void slots_free(Slots* S) noexcept nogil:
    free(S.keys)
    free(S.wt)
    free(S.tree)
    free(S.map.table)
    S.keys = NULL
    S.wt = NULL
    S.tree = NULL
    S.map.table = NULL


cdef inline long slots_lookup(const Slots* S, long key) noexcept nogil:
    """The slot of coordinate ``key``, or −1 when it has not moved."""
    if S.identity:
        return key
    return slotmap_lookup(&S.map, key)


cdef inline long slots_add(Slots* S, long key) noexcept nogil:
    """Slot n for ``key`` (absent; the caller has made room): weight 0, in the table."""
    cdef long slot = S.n
    S.keys[slot] = key
    S.wt[slot] = 0.0
    slotmap_insert(&S.map, key, slot)
    S.n += 1
    return slot


cdef inline long tree_leaves(long cap) noexcept nogil:
    """The sum tree's leaves for ``cap`` weights: the power of 2 >= cap/8."""
    cdef long tcap = 1
    while tcap < cap // 8:
        tcap *= 2
    return tcap


cdef inline int slots_grow(Slots* S, long cap) noexcept nogil:
    """Room for ``cap`` slots (a multiple of 8): keys and weights enlarged, the tree and the
    table (2·cap entries, load <= 1/2) rebuilt; −1 when out of memory (the slots stay usable
    at their old size)."""
    cdef long tcap = tree_leaves(cap), old = S.cap, b
    cdef void* p = realloc(S.keys, cap * sizeof(long))
    if p == NULL:
        return -1
    S.keys = <long*>p
    p = realloc(S.wt, cap * sizeof(double))
    if p == NULL:
        return -1
    S.wt = <double*>p
    for b in range(old, cap):
        S.wt[b] = 0.0
    p = malloc(2 * tcap * sizeof(double))
    if p == NULL:
        return -1
    if slotmap_build(&S.map, cap, S.keys, S.n) != 0:
        free(p)
        return -1
    free(S.tree)
    S.tree = <double*>p
    S.cap = cap
    S.nblocks = cap // 8
    S.tcap = tcap
    btree_build(S.wt, S.tree, S.tcap, S.nblocks)
    return 0


cdef inline int slots_to_identity(Slots* S, long d, double weight) noexcept nogil:
    """Every coordinate i < d in slot i, the unmoved ones with ``weight``; the table freed
    (O(d), once). The caller has moved its payload the same way first, reading ``S.keys``.
    −1 when out of memory (nothing changed)."""
    cdef long cap = 8 * ((d + 7) // 8), tcap = tree_leaves(cap), a, i
    cdef long* keys = <long*>malloc(cap * sizeof(long))
    cdef double* wt = <double*>malloc(cap * sizeof(double))
    cdef double* tree = <double*>malloc(2 * tcap * sizeof(double))
    if keys == NULL or wt == NULL or tree == NULL:
        free(keys)
        free(wt)
        free(tree)
        return -1
    for i in range(cap):
        keys[i] = i
        wt[i] = weight if i < d else 0.0
    for a in range(S.n):
        wt[S.keys[a]] = S.wt[a]
    slots_free(S)
    S.keys, S.wt, S.tree = keys, wt, tree
    S.n = d
    S.cap = cap
    S.nblocks = cap // 8
    S.tcap = tcap
    S.identity = True
    btree_build(S.wt, S.tree, S.tcap, S.nblocks)
    return 0
