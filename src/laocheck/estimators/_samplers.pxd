# cython: language_level=3
from numpy.random cimport bitgen_t
from ._rng cimport uniform01, bounded


cdef class Sampler:
    cdef readonly long n
    cdef long draw(self, bitgen_t* bg) noexcept nogil


cdef class AliasTable(Sampler):
    cdef double[::1] _prob
    cdef long[::1] _alias
    cdef double[:, ::1] _packed
    cdef double[::1] _p
    cdef long draw(self, bitgen_t* bg) noexcept nogil


cdef class SumTree(Sampler):
    cdef long _cap
    cdef double[::1] _tree
    cdef long draw(self, bitgen_t* bg) noexcept nogil
    cdef void set_weight(self, long i, double weight) noexcept nogil
    cdef double total_weight(self) noexcept nogil


cdef bitgen_t* bitgen_of(object rng) except NULL
