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
from libc.math cimport exp, isfinite, sqrt


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
            p = 0.0
            for i in range(d):
                total[i] += w[i]
                p += x[i] * w[i]
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
    w = B(z⁺ − z⁻)/(Σz⁺ + Σz⁻) with z± = exp(log± − top), top the largest log weight;
    total += w; g = (⟨x, w⟩ − y)x; log⁺ −= ηg, log⁻ += ηg. After the loop ``w`` is the last
    iterate w_{m+1} (as the reference's ``w_``)."""
    cdef Py_ssize_t m = rows.shape[0], d = X.shape[1], t, i, r, failed = 0
    cdef const double* x
    cdef double top, Z, p, c, ep, em
    with nogil:
        for t in range(m + 1):
            top = log_p[0] if log_p[0] > log_m[0] else log_m[0]
            for i in range(d):
                if log_p[i] > top:
                    top = log_p[i]
                if log_m[i] > top:
                    top = log_m[i]
            Z = 0.0
            for i in range(d):
                ep = exp(log_p[i] - top)
                em = exp(log_m[i] - top)
                w[i] = ep - em
                Z += ep + em
            c = B / Z
            for i in range(d):
                w[i] = w[i] * c
            if not isfinite(c) or not isfinite(top):
                failed = t + 1
                break
            if t == m:
                break
            r = rows[t]
            x = &X[r, 0]
            p = 0.0
            for i in range(d):
                total[i] += w[i]
                p += x[i] * w[i]
            p = p - Y[r]
            for i in range(d):
                if x[i] != 0.0:                    # g_i = 0 leaves both log weights as they are
                    c = eta * (p * x[i])
                    log_p[i] = log_p[i] - c
                    log_m[i] = log_m[i] + c
    return failed


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
            p = 0.0
            for i in range(d):
                total[i] += w[i]
                p += x[i] * w[i]
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
