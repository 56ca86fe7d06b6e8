# cython: language_level=3
"""Inline pieces shared by the learner kernels (``_ridge.pyx``, ``_lasso.pyx``)."""
from numpy.random cimport bitgen_t

from laocheck.estimators._rng cimport bounded, payload_draw


cdef inline long draw_data_point(
    bitgen_t* bg, const double[:, ::1] X, long step, long d, long k, bint uniform_q,
    const double[:, ::1] q_rows, long[::1] idx, double[::1] val, bint recording,
    long[:, ::1] rec,
) noexcept nogil:
    """x̃ = (1/k) Σ_r x_{i_r}/q_{i_r} e_{i_r} of row ``step`` (HK12 Alg. 1 lines 3-7, KS15
    Alg. 1 lines 3-7), merged per index into ``idx[:nnz]``, ``val[:nnz]``; returns nnz.

    Uniform q draws i by an unbiased bounded integer (weight d/k); otherwise ``q_rows`` is q's
    alias table with payload 1/(k q_i). The drawn indices go to ``rec[step, :k]`` when recording.
    """
    cdef long r, i, a, nnz = 0
    cdef double weight
    for r in range(k):
        if uniform_q:
            i = <long>bounded(bg, <unsigned int>d)
            weight = <double>d / k
        else:
            i = payload_draw(q_rows, bg, &weight)
        if recording:
            rec[step, r] = i
        for a in range(nnz):
            if idx[a] == i:
                break
        else:
            a = nnz
            idx[a] = i
            val[a] = 0.0
            nnz += 1
        val[a] += X[step, i] * weight
    return nnz
