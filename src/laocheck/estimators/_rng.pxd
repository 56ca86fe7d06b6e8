# cython: language_level=3
"""Inline random primitives over numpy's ``bitgen_t`` (shared by every kernel).

Every draw comes from the caller's ``numpy.random.Generator`` through its bit generator, as in
``numpy/random/_examples/cython``; nothing here keeps state of its own.
"""
from libc.stdint cimport uint32_t, uint64_t
from numpy.random cimport bitgen_t


cdef extern from *:
    # gcc/clang builtin: index of the lowest set bit of a nonzero word
    int __builtin_ctzll(unsigned long long x) noexcept nogil


cdef inline double uniform01(bitgen_t* bg) noexcept nogil:
    """A double uniform on [0, 1) with 53 random bits (numpy's ``next_double``)."""
    return bg.next_double(bg.state)


cdef inline uint32_t bounded(bitgen_t* bg, uint32_t n) noexcept nogil:
    """Uniform integer on {0, ..., n - 1}, exactly unbiased, for 1 <= n < 2**32.

    Lemire's multiply-and-reject method (D. Lemire, "Fast random integer generation in an
    interval", ACM TOMACS 29(1), 2019, Algorithm 5): never ``% n`` on a raw draw.
    """
    cdef uint64_t m = <uint64_t>bg.next_uint32(bg.state) * <uint64_t>n
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t threshold
    if low < n:
        threshold = (<uint32_t>0 - n) % n
        while low < threshold:
            m = <uint64_t>bg.next_uint32(bg.state) * <uint64_t>n
            low = <uint32_t>m
    return <uint32_t>(m >> 32)


cdef inline long geometric_half(bitgen_t* bg) noexcept nogil:
    """N >= 0 with P(N = n) = 2**-(n + 1) exactly: the trailing zero bits of fair coin flips.

    This is the number of factors of HK12 Procedure 3, line 2.
    """
    cdef long n = 0
    cdef uint64_t word = bg.next_uint64(bg.state)
    while word == 0:
        n += 64
        word = bg.next_uint64(bg.state)
    return n + __builtin_ctzll(word)



ctypedef fused index_t:
    int
    long


cdef inline void partial_shuffle(index_t* perm, long n, long s, bitgen_t* bg) noexcept nogil:
    """Move a uniformly random ordered s-sample of ``perm[0:n]`` into ``perm[0:s]``.

    Partial Fisher-Yates: from any arrangement of ``perm`` the first s entries afterwards are a
    uniformly random ordered sample without replacement, so the array is reused across draws
    without being reset (O(s) per draw, not O(n)). ``perm`` holds C ints or longs (the same
    random numbers and swaps either way; ints halve its share of the cache at large n).
    """
    cdef long i, j
    cdef index_t tmp
    for i in range(s):
        j = i + <long>bounded(bg, <uint32_t>(n - i))
        tmp = perm[i]
        perm[i] = perm[j]
        perm[j] = tmp


cdef inline long payload_draw(const double[:, ::1] table, bitgen_t* bg, double* value) noexcept nogil:
    """An alias-table draw from rows (prob, alias, payload[i], payload[alias[i]]) (see
    ``AliasTable.with_payload``): the index, with its payload written to ``value``. Consumes the
    same random numbers as ``AliasTable.draw``."""
    cdef long u = <long>bounded(bg, <unsigned int>table.shape[0])
    if uniform01(bg) < table[u, 0]:
        value[0] = table[u, 2]
        return u
    value[0] = table[u, 3]
    return <long>table[u, 1]
