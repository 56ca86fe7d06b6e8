# cython: language_level=3
"""Steps of KS15 App. A's adaptive learners (eq. (13) on KS15 Alg. 1's estimate) in C.

One call runs the steps of :class:`laocheck.learners.AdaGAERR` (and so AdaAERR, AdaDDAERR and
AdaTwoPhaseDDAERR's phases) on a stretch of pre-drawn randomness: x̃'s indices ``I`` (rows of k
draws i ~ q) and the uniforms ``U`` of the draws j ∝ w_j² (rows of n_inner), which the learner
takes from its Generator in blocks (``adaptive.BLOCK``) exactly as before. Each step is the
NumPy loop it replaces, operation for operation:

* w_t enters Σ w_τ (HK12 Alg. 1 line 14);
* x̃ = (1/k) Σ_r x_{i_r}/q_{i_r} e_{i_r} (d·x_{i_r} for uniform q), merged per index in order
  of first appearance (KS15 Alg. 1 lines 3-7);
* j ∝ w_j² by inversion of the running sums of w² (the first index whose running sum exceeds
  u·Σw², moved to the last nonzero w_j if rounding lands on a zero), φ̃ = ‖w‖² x_j/w_j − y
  averaged over the n_inner draws, and φ̃ = −y when w = 0 (lines 8-9);
* g̃ = φ̃ x̃ on x̃'s support, G_i += g̃_i², w_i −= η₀ g̃_i/√G_i where G_i > 0 (eq. (13));
* the Euclidean projection w ← w·B/‖w‖₂ when ‖w‖₂ > B (HK12 Alg. 1 line 12).

The only change from the NumPy loop is the order of two sums of d squares (‖w‖² from the running
sums and ‖w‖ for the projection are summed left to right here, by BLAS there): a rounding-level
difference, within the tolerance of the literal replay (``*.steps_match_reference``).

Examples come from the rows of X (``steps``, row ``step % P``) or from an attribute oracle
(``steps_oracle``, :mod:`laocheck.data._oracle`): one body reads x_i from the row or through
``oracle.attribute(i)``, the k draws of x̃ first, then the j's; on a sequential oracle over rows
the two are bit for bit the same run. A step is still O(d) (the running sums of w², the
average, the projection), but only k + n_inner attributes of an example are read.

Why by hand: the steps are O(d) NumPy calls on tiny vectors (about 40 µs per step at d = 5, a
dozen interpreter round trips); no library runs this recursion, and in C a step costs a few
passes over d doubles.
"""
from libc.math cimport isfinite, sqrt

import numpy as np

from laocheck.data._oracle cimport RowOracle

from ._common cimport bad_entry


def steps(const double[:, ::1] X, const double[::1] Y, long start, long n,
          const long[:, ::1] I, const double[:, ::1] U, long pos, const double[::1] q,
          double[::1] w, double[::1] G, double[::1] total, double B, double eta,
          long[::1] attributes, long[:, ::1] record, bint recording, double[::1] fault):
    """Run steps ``start``..``start + n − 1`` of an adaptive run (row ``step % P`` of X), using
    rows ``pos``.. of the draw blocks ``I``, ``U``; ``q`` empty for uniform q. Updates ``w``,
    ``G``, ``total`` in place and writes ``attributes`` (and ``record`` when ``recording``).
    Returns the number of steps made: n, or fewer if a step's ‖w‖ or Σ g̃² was not finite
    (that step counts; the caller marks the run failed) or if a step read an entry of X or y
    that is not finite or beyond 1e100 (that step does not count: (row, column, value) go to
    ``fault``, column −1 for y, and the caller raises)."""
    if (X.shape[1] != w.shape[0] or X.shape[0] < 1 or Y.shape[0] != X.shape[0]
            or fault.shape[0] != 3):
        raise ValueError("the adaptive kernel's arrays do not fit together")
    return _steps(&X[0, 0], &Y[0], X.shape[0], None, start, n, I, U, pos, q, w, G, total, B,
                  eta, attributes, record, recording, &fault[0])


def steps_oracle(RowOracle oracle, long start, long n, const long[:, ::1] I,
                 const double[:, ::1] U, long pos, const double[::1] q, double[::1] w,
                 double[::1] G, double[::1] total, double B, double eta, long[::1] attributes,
                 long[:, ::1] record, bint recording):
    """``steps`` on the next ``n`` examples of ``oracle`` (x_i through ``oracle.attribute(i)``
    for the k draws of x̃ and the j's only, y from ``oracle.y``)."""
    if oracle.d != w.shape[0]:
        raise ValueError(f"the oracle has d={oracle.d}, the state d={w.shape[0]}")
    with oracle.rng.bit_generator.lock:
        return _steps(NULL, NULL, 0, oracle, start, n, I, U, pos, q, w, G, total, B, eta,
                      attributes, record, recording, NULL)


cdef long _steps(const double* X0, const double* Y0, long P, RowOracle oracle, long start,
                 long n, const long[:, ::1] I, const double[:, ::1] U, long pos,
                 const double[::1] q, double[::1] w, double[::1] G, double[::1] total,
                 double B, double eta, long[::1] attributes, long[:, ::1] record,
                 bint recording, double* fault) except -1:
    """The steps, on the rows of X (``X0``: P rows of d, row ``step % P``) or, when ``oracle``
    is given (``X0`` NULL), on the oracle's examples. Every entry read from a row is checked
    (``fault``, see ``steps``)."""
    cdef long d = w.shape[0], k = I.shape[1], n_inner = U.shape[1]
    if (pos < 0 or n < 0 or start < 0 or I.shape[0] < pos + n or U.shape[0] < pos + n
            or G.shape[0] != d
            or total.shape[0] != d or attributes.shape[0] < start + n
            or (recording and record.shape[0] < start + n)):
        raise ValueError("the adaptive kernel's arrays do not fit together")
    cdef bint rows = oracle is None
    cdef bint uniform = q.shape[0] == 0
    cdef long s, step, r, a, b, j, na, seen, last
    cdef long made = n
    cdef const double* xrow = NULL
    cdef double v, yt, norm_sq, target, phi, g, Gu, norm, xj, dd = <double>d
    cdef long bad_col = -2
    cdef bint overflow = False
    # scratch: x̃'s merged support and values, the j's of a step, the running sums of w²
    cdef long[::1] ui = np.empty(k, dtype=np.int_), js = np.empty(n_inner, dtype=np.int_)
    cdef double[::1] xv = np.empty(k), csum = np.empty(d)
    with nogil:
        for s in range(n):
            step = start + s
            if rows:
                xrow = X0 + (step % P) * d
                yt = Y0[step % P]
                if bad_entry(yt):
                    bad_col, v = -1, yt
                    break
            else:
                oracle.next_example()
                yt = oracle.y
            # line 14: w_t enters the average; running sums of w² for the draws j
            norm_sq = 0.0
            for a in range(d):
                total[a] += w[a]
                norm_sq += w[a] * w[a]
                csum[a] = norm_sq
            # lines 3-7: x̃'s support, merged per index in order of first appearance
            na = 0
            for r in range(k):
                a = I[pos + s, r]
                v = xrow[a] if rows else oracle.attribute(a)
                if rows and bad_entry(v):
                    bad_col = a
                    break
                v = dd * v if uniform else v / q[a]
                for b in range(na):
                    if ui[b] == a:
                        xv[b] += v
                        break
                else:
                    ui[na] = a
                    xv[na] = v
                    na += 1
            if bad_col >= 0:
                break
            for b in range(na):
                xv[b] = xv[b] / k
            seen = na
            if norm_sq > 0.0:
                # lines 8-9: j ∝ w_j² by inversion (numpy.searchsorted side="right")
                last = d - 1
                while w[last] == 0.0:
                    last -= 1
                phi = 0.0
                for r in range(n_inner):
                    target = U[pos + s, r] * norm_sq
                    a, b = 0, d
                    while a < b:
                        j = (a + b) // 2
                        if csum[j] > target:
                            b = j
                        else:
                            a = j + 1
                    j = a if a < d else d - 1
                    if w[j] == 0.0:
                        j = last
                    js[r] = j
                    xj = xrow[j] if rows else oracle.attribute(j)
                    if rows and bad_entry(xj):
                        bad_col, v = j, xj
                        break
                    phi = phi + (norm_sq * xj / w[j] - yt)
                    for b in range(na):
                        if ui[b] == j:
                            break
                    else:
                        for b in range(r):
                            if js[b] == j:
                                break
                        else:
                            seen += 1
                if bad_col >= 0:
                    break
                phi = phi / n_inner
            else:
                phi = -yt                                    # w = 0: wᵀx = 0
            attributes[step] = seen
            if recording:
                for r in range(k):
                    record[step, r] = I[pos + s, r]
                if norm_sq > 0.0:
                    for r in range(n_inner):
                        record[step, k + r] = js[r]
            # line 10 and eq. (13) on x̃'s support
            for b in range(na):
                a = ui[b]
                g = phi * xv[b]
                Gu = G[a] + g * g
                G[a] = Gu
                if Gu > 0.0:
                    w[a] = w[a] - eta / sqrt(Gu) * g
                if not isfinite(Gu):
                    # Σ g̃² overflowed (e.g. x and y near 1e80: g̃² near 1e320): its step
                    # η₀ g̃/√G would be 0 and the run would stay where it is; it stops instead
                    overflow = True
                    break
            if overflow:
                made = s + 1
                break
            # line 12: Euclidean projection
            norm = 0.0
            for a in range(d):
                norm += w[a] * w[a]
            norm = sqrt(norm)
            if norm > B:
                for a in range(d):
                    w[a] = w[a] * B / norm
            if not isfinite(norm):
                made = s + 1
                break
    if bad_col >= -1:
        fault[0], fault[1], fault[2] = <double>((start + s) % P), <double>bad_col, v
        return s
    return made
