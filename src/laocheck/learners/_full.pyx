# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""C loops of the full-information online baselines (``full_information.py``, ``adaptive.py``).

Each step of these learners reads a whole row: O(d) arithmetic, which NumPy spends in a dozen
calls of Python overhead (about 10 µs per step at d = 500: 160 CPU s of one cross-validated run
of KS15 Sec. 5.1 went to OnlineRidge's loop). Here the same steps are one C loop over the m
rows, without the GIL. The NumPy loops stay in ``full_information.py`` / ``adaptive.py`` as the
literal references (``_reference_fit``); the kernels follow them operation by operation except
for the order of summation in dot products and norms (NumPy's BLAS sums in blocks), so they agree
to rounding, not bit for bit (tests/learners/test_full_information_kernel.py).

Each kernel steps over the rows ``X[rows[0]], X[rows[1]], ...`` (``fit``: rows 0..m−1; the
papers' cross-validation: a fold's rows of one array, without copying them), fills ``w`` (the
last iterate) and ``total`` (the sum of the iterates entering the average) in place and returns
0, or the step t >= 1 at which the iterate became non-finite (the caller raises; the arrays are
then meaningless). The caller guarantees 0 <= rows[t] < len(X) = len(Y).
"""
import numpy as np

from libc.math cimport exp, isfinite, sqrt


cdef inline double _average_and_predict(const double* x, const double* w, double* total,
                                        Py_ssize_t d) noexcept nogil:
    """total += w (w_t enters the average); returns ⟨x, w⟩."""
    cdef Py_ssize_t i
    cdef double p = 0.0
    for i in range(d):
        total[i] += w[i]
        p += x[i] * w[i]
    return p


def online_ridge(const double[:, ::1] X, const double[::1] Y, const Py_ssize_t[::1] rows,
                 double eta, double B, double[::1] w, double[::1] total):
    """Projected OGD (HK12 Alg. 1 with the exact gradient): total += w; v = w − η(⟨x, w⟩ − y)x;
    w = v·B/max(‖v‖₂, B)."""
    cdef Py_ssize_t m = rows.shape[0], d = X.shape[1], t, i, r, failed = 0
    cdef const double* x
    cdef double p, nrm, scale
    with nogil:
        for t in range(m):
            r = rows[t]
            x = &X[r, 0]
            p = _average_and_predict(x, &w[0], &total[0], d)
            p = eta * (p - Y[r])
            nrm = 0.0
            for i in range(d):
                w[i] = w[i] - p * x[i]
                nrm += w[i] * w[i]
            nrm = sqrt(nrm)
            if not isfinite(nrm):
                failed = t + 1
                break
            if nrm > B:
                scale = B / nrm
                for i in range(d):
                    w[i] = w[i] * scale
    return failed


def online_lasso(const double[:, ::1] X, const double[::1] Y, const Py_ssize_t[::1] rows,
                 double eta, double B, double[::1] log_p, double[::1] log_m, double[::1] w,
                 double[::1] total):
    """EG± in the log domain (Kivinen and Warmuth 1997; HK12 Alg. 2 with the exact gradient):
    w = B(z⁺ − z⁻)/(Σz⁺ + Σz⁻) with z± = exp(log± − ref); total += w; g = (⟨x, w⟩ − y)x;
    log⁺ −= ηg, log⁻ += ηg. After the loop ``w`` is the last iterate w_{m+1} (the reference's
    ``w_``).

    The reference shifts the logs by their current maximum at every step and so takes 2d
    exponentials per step; w does not depend on the shift, so here z± are kept for a shift
    ``ref`` that changes only when some log weight exceeds it by 64 or the largest falls 64
    below it (then every z is recomputed), and a step recomputes the z of the coordinates with
    x_i ≠ 0 only (g_i = 0 leaves the others' log weights unchanged): 2·nnz(x) exponentials per
    step. The z stay in [e⁻⁶⁴, e⁶⁴·e^(one step)] relative to the largest, so Σz neither
    overflows nor loses the largest terms; the values agree with the reference's to rounding."""
    cdef Py_ssize_t m = rows.shape[0], d = X.shape[1], t, i, r, failed = 0
    cdef const double* x
    cdef double ref, hi, Z, p, c, g, wi
    cdef double[::1] zp = np.empty(d)
    cdef double[::1] zm = np.empty(d)
    with nogil:
        ref = _rebase(log_p, log_m, zp, zm)
        hi = ref
        for t in range(m + 1):
            Z = 0.0
            for i in range(d):
                Z += zp[i] + zm[i]
            if Z < 1.6e-28:                        # the largest z fell below e^-64: rebase
                ref = _rebase(log_p, log_m, zp, zm)
                hi = ref
                Z = 0.0
                for i in range(d):
                    Z += zp[i] + zm[i]
            c = B / Z
            if not isfinite(c) or not isfinite(Z) or not isfinite(ref):
                failed = t + 1
                break
            if t == m:
                for i in range(d):
                    w[i] = (zp[i] - zm[i]) * c
                break
            r = rows[t]
            x = &X[r, 0]
            p = 0.0
            for i in range(d):
                wi = (zp[i] - zm[i]) * c
                total[i] += wi
                p += x[i] * wi
            p = p - Y[r]
            for i in range(d):
                if x[i] != 0.0:                    # g_i = 0 leaves both log weights as they are
                    g = eta * (p * x[i])
                    log_p[i] = log_p[i] - g
                    log_m[i] = log_m[i] + g
                    zp[i] = exp(log_p[i] - ref)
                    zm[i] = exp(log_m[i] - ref)
                    if log_p[i] > hi:
                        hi = log_p[i]
                    if log_m[i] > hi:
                        hi = log_m[i]
            if hi - ref > 64.0 or not isfinite(hi):
                ref = _rebase(log_p, log_m, zp, zm)
                hi = ref
    return failed


cdef double _rebase(double[::1] log_p, double[::1] log_m, double[::1] zp,
                    double[::1] zm) noexcept nogil:
    """Shift ``ref`` to the largest log weight and recompute every z± = exp(log± − ref);
    returns ref (NaN propagates: the caller stops)."""
    cdef Py_ssize_t i, d = log_p.shape[0]
    cdef double ref = log_p[0] if log_p[0] > log_m[0] else log_m[0]
    for i in range(d):
        if log_p[i] > ref:
            ref = log_p[i]
        if log_m[i] > ref:
            ref = log_m[i]
    for i in range(d):
        zp[i] = exp(log_p[i] - ref)
        zm[i] = exp(log_m[i] - ref)
    return ref


def ada_online_ridge(const double[:, ::1] X, const double[::1] Y, const Py_ssize_t[::1] rows,
                     double eta0, double B, double[::1] w, double[::1] G, double[::1] total):
    """KS15 App. A eq. (13) on the exact gradient, then the Euclidean projection: total += w;
    g = (⟨x, w⟩ − y)x; G += g²; w_i −= η₀ g_i/√G_i where G_i > 0; w = w·B/‖w‖₂ if ‖w‖₂ > B."""
    cdef Py_ssize_t m = rows.shape[0], d = X.shape[1], t, i, r, failed = 0
    cdef const double* x
    cdef double p, g, nrm
    with nogil:
        for t in range(m):
            r = rows[t]
            x = &X[r, 0]
            p = _average_and_predict(x, &w[0], &total[0], d)
            p = p - Y[r]
            nrm = 0.0
            for i in range(d):
                g = p * x[i]
                G[i] = G[i] + g * g
                if G[i] > 0.0:
                    w[i] = w[i] - eta0 / sqrt(G[i]) * g
                nrm += w[i] * w[i]
            nrm = sqrt(nrm)
            if not isfinite(nrm):
                failed = t + 1
                break
            if nrm > B:
                for i in range(d):
                    w[i] = w[i] * B / nrm
    return failed


cdef extern from "stdlib.h":
    void qsort(void* base, size_t n, size_t size,
               int (*compar)(const void*, const void*) noexcept nogil) noexcept nogil


cdef extern from "math.h":
    double ldexp(double x, int e) noexcept nogil
    double frexp(double x, int* e) noexcept nogil
    double fabs(double x) noexcept nogil


cdef int _ascending(const void* a, const void* b) noexcept nogil:
    cdef double x = (<const double*>a)[0], y = (<const double*>b)[0]
    return (x > y) - (x < y)


def project_l1(const double[::1] v, double B):
    """Euclidean projection of v onto {‖w‖₁ <= B}: ``full_information._project_l1``'s
    algorithm (Duchi et al. 2008, Fig. 1, in the gaps to the largest entry, scaled by a power of
    two so that B is about 1) in one C pass plus a sort of the candidates, for the solvers that
    project at every iteration (OfflineLasso's FISTA, Baseline's projected gradient). v finite,
    B a positive normal double (the caller validates). Agrees with the NumPy version to
    rounding (its sums are pairwise, these sequential)."""
    cdef Py_ssize_t d = v.shape[0], i, n = 0, rho = 1
    out_arr = np.zeros(d)
    cdef double[::1] out = out_arr
    cdef double[::1] g_arr = np.empty(max(d, 1))
    cdef long[::1] cand_arr = np.empty(max(d, 1), dtype=np.int_)
    cdef double* g = &g_arr[0]
    cdef long* cand = &cand_arr[0]
    cdef double total = 0.0, top = 0.0, b, csum, t, wi, keep_sum = 0.0
    cdef int e
    with nogil:
        for i in range(d):
            total += fabs(v[i])
            if fabs(v[i]) > top:
                top = fabs(v[i])
        if total <= B:
            for i in range(d):
                out[i] = v[i]
        else:
            frexp(B, &e)
            b = ldexp(B, -e)
            for i in range(d):
                if top - fabs(v[i]) < B:
                    cand[n] = i
                    g[n] = ldexp(top - fabs(v[i]), -e)
                    n += 1
            qsort(g, n, sizeof(double), _ascending)
            # ρ = max{j : g_(j) < (b + Σ_{r<=j} g_(r))/j}; j = 1 always qualifies
            csum = 0.0
            for i in range(n):
                csum += g[i]
                if g[i] * (i + 1) < b + csum:
                    rho = i + 1
                    keep_sum = csum
            t = (b + keep_sum) / rho
            total = 0.0
            for i in range(n):
                wi = t - ldexp(top - fabs(v[cand[i]]), -e)
                g[i] = wi if wi > 0.0 else 0.0
                total += g[i]
            if total > b:                       # rounding in the last bits: onto the ball
                for i in range(n):
                    g[i] = g[i] * (b / total)
            for i in range(n):
                wi = ldexp(g[i], e)
                out[cand[i]] = wi if v[cand[i]] > 0 else (-wi if v[cand[i]] < 0 else 0.0)
    return out_arr
