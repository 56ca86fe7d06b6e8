# cython: language_level=3
"""The C-level interface of an attribute oracle (``laocheck.data._oracle``).

A learner's kernel holds a :class:`RowOracle`, calls ``next_example()`` once per step, reads
the label from ``y`` and each attribute it chooses with ``attribute(i)``; all three run
without the GIL. ``prefetch_next(i)`` is a hint that attribute i of the next example will be
read (a cache prefetch where the attribute is in memory; it changes no value and draws
nothing). See the module docstring of ``_oracle.pyx``.
"""
from libc.stdint cimport uint64_t
from numpy.random cimport bitgen_t


cdef class RowOracle:
    cdef readonly long d               # attributes per example
    cdef readonly long t               # examples drawn so far
    cdef readonly double y             # the label of the current example
    cdef public double label_factor    # labels are multiplied by it (ScaledLabels)
    cdef readonly object rng           # the numpy Generator the examples are drawn from
    cdef readonly object second_moments  # E[x_i^2] (d,), for the learners' checks of q
    cdef public double x_max, y_max    # sup |x_i|, sup |y| over the support
    cdef bitgen_t* bg
    cdef uint64_t key                  # the current example's key (hash-based oracles)

    cdef void next_example(self) noexcept nogil
    cdef double attribute(self, long i) noexcept nogil
    cdef void prefetch_next(self, long i) noexcept nogil
