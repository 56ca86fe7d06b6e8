"""Exact constrained minimisers of a quadratic risk, with certificates.

Both solve  min_w  f(w) = ½ wᵀΣw − cᵀw  (+ const)  over a norm ball, for a PSD Σ:

* :func:`minimize_l2_ball` — the trust-region subproblem: Σ = QΛQᵀ (``numpy.linalg.eigh``), then
  the secular equation ‖(Λ + μ)⁻¹Qᵀc‖ = B for the multiplier μ ≥ 0 solved with
  ``scipy.optimize.brentq`` in Moré–Sorensen's form 1/‖w(μ)‖ − 1/B (nearly linear in μ).
  Certificate: the KKT residual ‖Σw − c + μw‖∞ and the Lagrangian duality gap
  f(w) − (−½ cᵀ(Σ + μI)⁻¹c − μB²/2).
* :func:`minimize_l1_ball` — the exact lasso path (scikit-learn's ``lars_path_gram`` on
  Gram = Σ, Xy = c, n_samples = 1, i.e. ½wᵀΣw − cᵀw + α‖w‖₁) gives the active set and signs
  where ‖w(α)‖₁ crosses B; the KKT system Σ_AA w_A + α s_A = c_A, s_Aᵀ w_A = B is then solved
  exactly (``numpy.linalg.lstsq``). Certificate: the Frank–Wolfe duality gap
  ∇f(w)ᵀw + B‖∇f(w)‖∞ ≥ f(w) − min_{‖u‖₁≤B} f(u).

Structured Σ (:class:`SecondMoments`): the distributions of laocheck have Σ = diag(D) + U S Uᵀ
with r = rank(S) <= 1 (independent attributes: r = 0; one common factor: r = 1). Then w* costs
O(d·r) time and memory: the linear solves (Σ + μI)w = c are Woodbury solves of an
(r + |Z|)-square system (Z: the coordinates with D_i + μ = 0), the L2 secular equation is solved
on them, and an L1 solution whose multiplier is 0 (the unconstrained minimiser lies in the
ball) is that solve; for diagonal Σ an active L1 constraint is solved exactly too (soft
thresholding at the root of a piecewise-linear equation). The certificates are computed with the structured Σ as above; a case the
structured path does not certify (an active L1 constraint, a singular Σ) falls back to the
dense solvers when d <= :data:`DENSE_LIMIT`.

Hand-written parts (why): the secular equation and the active-set polish are a few lines around
numpy/scipy/scikit-learn calls; no library exposes the trust-region subproblem with a dense
eigendecomposition or a constrained-form lasso with a certificate, nor a diagonal-plus-low-rank
matrix type with Woodbury solves (scipy.sparse.linalg.LinearOperator has products only).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from .._lazy import load
from .._validation import check_positive
from ..exceptions import InvalidParameterError

# start-up: scipy.optimize loads on first use, when a ball is solved; `laocheck list` builds the
# catalog's distributions without it
optimize = load("scipy.optimize")

__all__ = ["Minimizer", "SecondMoments", "minimize_l2_ball", "minimize_l1_ball", "DENSE_LIMIT"]

#: largest d for which a dense d × d Σ is built when the structured path cannot certify w*
DENSE_LIMIT = 4096
#: certificate the structured path must reach before its w* is accepted (laocheck's tolerance)
_STRUCTURED_TOL = 1e-10


class SecondMoments:
    """Σ = E[xxᵀ] as ``diag(D) + U S Uᵀ``, or as a dense d × d array.

    Parameters
    ----------
    D : array_like, shape (d,)
        The diagonal part, >= 0 (ignored when ``dense`` is given).
    U : array_like, shape (d, r), optional
        The low-rank factor (a vector is one column). Default: r = 0, Σ = diag(D).
    S : array_like, shape (r, r), optional
        The positive semidefinite core. Default: zeros.
    dense : array_like, shape (d, d), optional
        Σ itself, for a finite data set; then ``D``, ``U`` and ``S`` are None.

    Notes
    -----
    Independent attributes (CB11 Thm 1's and HK12 Thm B.1's hard instances) have r = 0; KS15
    Sec. 5.1's Bernoulli attributes have Σ = diag(μ − μ²) + μμᵀ, r = 1.

    The arrays are taken as given; :func:`minimize_l2_ball` and :func:`minimize_l1_ball` check
    them (finite, D >= 0, S positive semidefinite) before solving.

    Products, quadratic forms, the diagonal and λ_max cost O(d·r); :meth:`solve_shifted`
    solves (Σ + μI)w = c in O(d·r² + r³). ``dense()`` builds the d × d matrix (small d only).
    """

    def __init__(self, D=None, U=None, S=None, *, dense=None):
        if dense is not None:
            self._dense = np.asarray(dense, dtype=float)
            self.d = self._dense.shape[0]
            self.D = self.U = self.S = None
            return
        self._dense = None
        self.D = np.asarray(D, dtype=float)
        self.d = self.D.shape[0]
        self.U = np.zeros((self.d, 0)) if U is None else np.asarray(U, dtype=float).reshape(self.d, -1)
        r = self.U.shape[1]
        self.S = np.zeros((r, r)) if S is None else np.atleast_2d(np.asarray(S, dtype=float))

    @property
    def structured(self):
        return self._dense is None

    @property
    def rank(self):
        return None if self._dense is not None else self.U.shape[1]

    def dense(self):
        """The d × d matrix."""
        if self._dense is not None:
            return self._dense
        if self.d > 20_000:
            raise InvalidParameterError(
                f"`Sigma` as a dense matrix needs d <= 20000 (d × d doubles); got d={self.d}: use "
                "the structured moments (`distribution.moments`).")
        out = self.U @ self.S @ self.U.T
        out[np.diag_indices(self.d)] += self.D
        return out

    def matvec(self, w):
        if self._dense is not None:
            return self._dense @ w
        return self.D * w + self.U @ (self.S @ (self.U.T @ w))

    def quad(self, w):
        """wᵀΣw (over the support of D when Σ is a sparse diagonal: O(nnz), not O(d))."""
        if self._dense is not None:
            return float(w @ self._dense @ w)
        support = self._diagonal_support()
        if support is not None:
            ws = w[support]
            return float(np.dot(self.D[support] * ws, ws))
        z = self.U.T @ w
        return float(np.dot(self.D * w, w) + z @ self.S @ z)

    def quad_on(self, support, values):
        """wᵀΣw for the w that is ``values`` on the indices ``support`` and 0 elsewhere
        (structured Σ only): O(len(support)·r)."""
        z = self.U[support].T @ values
        return float(np.dot(self.D[support] * values, values) + z @ self.S @ z)

    def _diagonal_support(self):
        """The indices where D > 0 when Σ = diag(D) (rank 0) has at most d/8 of them, else
        None (computed once)."""
        if not hasattr(self, "_support"):
            support = None
            if self.U.shape[1] == 0:
                nz = np.flatnonzero(self.D)
                if nz.shape[0] <= self.d // 8:
                    support = nz
            self._support = support
        return self._support

    def diag(self):
        if self._dense is not None:
            return np.diag(self._dense).copy()
        if self.U.shape[1] == 0:
            return self.D.copy()
        return self.D + np.einsum("ij,jk,ik->i", self.U, self.S, self.U)

    def max_eigenvalue(self):
        """An upper bound on λ_max(Σ) within a relative 1e-14 of it (exact eigensolver for dense
        Σ; r = 0: max D; r = 1: bisection on the secular equation 1 = s Σ u_i²/(λ − D_i),
        keeping the upper end; r > 1: Weyl's max D + λ_max(S)·‖U‖₂²)."""
        if self._dense is not None:
            return float(np.linalg.eigvalsh(self._dense)[-1])
        top = float(self.D.max())
        r = self.U.shape[1]
        if r == 0:
            return top
        if r > 1:
            return top + float(np.linalg.eigvalsh(self.S)[-1]) * float(np.linalg.norm(self.U, 2)) ** 2
        s = float(self.S[0, 0])
        u2 = self.U[:, 0] ** 2
        lo, hi = top, top + s * float(u2.sum())
        if s <= 0 or hi <= lo:
            return top
        for _ in range(200):                    # f(λ) = s Σ u²/(λ − D) − 1 decreases on (max D, ∞)
            mid = 0.5 * (lo + hi)
            if mid <= lo or mid >= hi or hi - lo <= 1e-15 * hi:
                break
            with np.errstate(divide="ignore"):
                f = s * float(np.sum(u2 / (mid - self.D))) - 1.0
            if f > 0:
                lo = mid
            else:
                hi = mid
        return hi

    def solve_shifted(self, c, mu=0.0, refine=2):
        """A solution of (Σ + μI)w = c (least squares in the reduced system if singular), with
        ``refine`` steps of iterative refinement (w += solve(c − (Σ + μI)w)): Σ's condition
        number can reach d / min D, and one step brings the residual to rounding level."""
        if self._dense is not None:
            A = self._dense + mu * np.eye(self.d)
            return np.linalg.lstsq(A, c, rcond=None)[0]
        w = self._woodbury(c, mu)
        for _ in range(refine):
            res = c - self.matvec(w) - mu * w
            w = w + self._woodbury(res, mu)
        return w

    def _woodbury(self, c, mu):
        Dm = self.D + mu
        Z = np.flatnonzero(Dm <= 0)
        P = Dm > 0
        r = self.U.shape[1]
        w = np.zeros(self.d)
        if r == 0:
            w[P] = c[P] / Dm[P]
            return w
        UP = self.U[P]
        inv = 1.0 / Dm[P]
        M = UP.T @ (UP * inv[:, None])
        rhs_z = UP.T @ (c[P] * inv)
        nz = Z.size
        K = np.zeros((r + nz, r + nz))
        K[:r, :r] = np.eye(r) + M @ self.S
        K[:r, r:] = -self.U[Z].T
        K[r:, :r] = self.U[Z] @ self.S
        rhs = np.concatenate([rhs_z, c[Z]])
        sol = np.linalg.lstsq(K, rhs, rcond=None)[0]
        z, wZ = sol[:r], sol[r:]
        w[P] = (c[P] - UP @ (self.S @ z)) * inv
        w[Z] = wZ
        return w


def as_moments(Sigma):
    """``Sigma`` (a SecondMoments or a square array) as a SecondMoments."""
    if isinstance(Sigma, SecondMoments):
        return Sigma
    return SecondMoments(dense=Sigma)


@dataclass(frozen=True)
class Minimizer:
    """A certified constrained minimiser.

    Returned by :func:`minimize_l2_ball` and :func:`minimize_l1_ball`; each parameter is an
    attribute of the same name.

    Parameters
    ----------
    w : ndarray, shape (d,)
        The minimiser.
    value : float
        The objective f(w) = ½wᵀΣw − cᵀw (add ½E[y²] for the risk).
    norm : {"l2", "l1"}
        The ball's norm.
    B : float
        The ball's radius.
    multiplier : float
        The KKT multiplier of the constraint (μ for L2, α for L1; 0 when inactive).
    gap : float
        A duality gap: an upper bound on f(w) − min f over the ball.
    kkt_residual : float
        The stationarity residual (sup norm).
    on_boundary : bool
        Whether the constraint is active.
    """

    w: np.ndarray
    value: float
    norm: str
    B: float
    multiplier: float
    gap: float
    kkt_residual: float
    on_boundary: bool

    @property
    def certificate(self):
        """max(gap, KKT residual): laocheck requires ≤ 1e-10 on every distribution it uses."""
        return max(self.gap, self.kkt_residual)


def _quad(Sigma, c, w):
    return float(0.5 * w @ Sigma @ w - c @ w)


def _iv(Sigma, c, B):
    Sigma = np.asarray(Sigma, dtype=float)
    c = np.asarray(c, dtype=float)
    if Sigma.ndim != 2 or Sigma.shape[0] != Sigma.shape[1] or c.shape != (Sigma.shape[0],):
        raise InvalidParameterError(
            f"`Sigma` must be (d, d) and `c` (d,); got {Sigma.shape} and {c.shape}.")
    if not (np.all(np.isfinite(Sigma)) and np.all(np.isfinite(c))):
        raise InvalidParameterError("`Sigma` and `c` must be finite.")
    if not np.allclose(Sigma, Sigma.T, rtol=0, atol=1e-12 * max(1.0, np.abs(Sigma).max())):
        raise InvalidParameterError("`Sigma` must be symmetric.")
    return 0.5 * (Sigma + Sigma.T), c, check_positive("B", B)


def _iv_structured(mom, c, B):
    c = np.asarray(c, dtype=float)
    if c.shape != (mom.d,) or not np.all(np.isfinite(c)):
        raise InvalidParameterError(f"`c` must be a finite vector of length {mom.d}; got {c.shape}.")
    if not (np.all(np.isfinite(mom.D)) and np.all(mom.D >= 0) and np.all(np.isfinite(mom.U))
            and np.all(np.isfinite(mom.S))):
        raise InvalidParameterError("`Sigma` (structured) must have finite D >= 0, U and S.")
    if mom.S.size and np.linalg.eigvalsh(0.5 * (mom.S + mom.S.T))[0] < -1e-12 * max(1.0, np.abs(mom.S).max()):
        raise InvalidParameterError("`Sigma` (structured) must have a positive semidefinite S.")
    return c, check_positive("B", B)


def _l2_structured(mom, c, B):
    """The trust-region subproblem with structured Σ: w(μ) = (Σ + μI)⁻¹c by Woodbury solves."""
    scale = max(1.0, mom.max_eigenvalue())
    w0 = mom.solve_shifted(c, 0.0)
    if np.linalg.norm(w0) <= B and np.max(np.abs(mom.matvec(w0) - c)) <= 1e-13 * scale * max(
            1.0, float(np.abs(w0).max())):
        w, mu = w0, 0.0
    else:
        def phi(mu):
            with np.errstate(over="ignore", divide="ignore"):
                return 1.0 / np.linalg.norm(mom.solve_shifted(c, mu)) - 1.0 / B
        hi = np.linalg.norm(c) / B + 1e-300
        if phi(hi) < 0:
            hi *= 2
        lo = max(1e-300, 1e-17 * hi)
        if phi(lo) > 0:
            mu = lo
        else:
            mu = optimize.brentq(phi, lo, hi, xtol=1e-300, rtol=4 * np.finfo(float).eps,
                                 maxiter=500)
        w = mom.solve_shifted(c, mu)
        nrm = np.linalg.norm(w)
        w = w * (B / nrm) if nrm > B else w
    grad = mom.matvec(w) - c
    value = float(0.5 * np.dot(grad - c, w))
    kkt = float(np.max(np.abs(grad + mu * w)))
    wd = mom.solve_shifted(c, mu)                     # the dual point of the multiplier
    dual = float(-0.5 * np.dot(c, wd) - 0.5 * mu * B ** 2)
    gap = max(0.0, value - dual)
    return Minimizer(w=w, value=value, norm="l2", B=B, multiplier=float(mu), gap=gap,
                     kkt_residual=kkt, on_boundary=mu > 0)


def _l1_structured(mom, c, B):
    """The L1 problem with structured Σ when the unconstrained minimiser lies in the ball
    (multiplier 0); None otherwise."""
    w = mom.solve_shifted(c, 0.0)
    if mom.rank:
        # entries at rounding level (w_i = (c_i − (USz)_i)/D_i with cancelling terms) are 0 up to
        # that rounding; summed over d they would push ‖w‖₁ past B. Snap them (the certificate
        # below judges the result).
        low = mom.U @ (mom.S @ (mom.U.T @ w))
        pos = mom.D > 0
        noise = np.zeros_like(w)
        noise[pos] = 8 * np.finfo(float).eps * (np.abs(c[pos]) + np.abs(low[pos])) / mom.D[pos]
        w = np.where(pos & (np.abs(w) <= noise), 0.0, w)
    nrm = np.abs(w).sum()
    alpha = 0.0
    if nrm > B * (1 + 1e-12):
        if mom.rank != 0 or np.any((mom.D <= 0) & (c != 0)):
            return None
        w, alpha = _l1_diagonal_active(mom.D, c, B)
        nrm = np.abs(w).sum()
    if nrm > B:
        w = w * (B / nrm)
    grad = mom.matvec(w) - c
    gap = max(0.0, float(grad @ w + B * np.max(np.abs(grad))))
    on = abs(nrm - B) <= 1e-9 * B
    supp = w != 0
    kkt = float(max(np.max(np.abs(grad[supp] + alpha * np.sign(w[supp])), initial=0.0),
                    np.max(np.abs(grad[~supp]) - alpha, initial=0.0)))
    return Minimizer(w=w, value=float(0.5 * np.dot(grad - c, w)), norm="l1", B=B,
                     multiplier=float(alpha), gap=gap, kkt_residual=kkt, on_boundary=bool(on))


def _l1_diagonal_active(D, c, B):
    """Σ = diag(D) with the constraint active: w_i = sign(c_i)(|c_i| − α)₊/D_i with α the root
    of the piecewise-linear Σ_i (|c_i| − α)₊/D_i = B (breakpoints |c_i| sorted)."""
    keep = D > 0
    t = np.abs(c[keep])
    inv = 1.0 / D[keep]
    order = np.argsort(-t)
    ts, vs = t[order], inv[order]
    A = np.cumsum(ts * vs)
    H = np.cumsum(vs)
    g_at = A - ts * H                     # g(t_(j)) with the first j coordinates active
    j = int(np.searchsorted(g_at, B, side="left"))          # g_at is nondecreasing in j
    j = min(max(j, 1), ts.size)
    alpha = max(0.0, (A[j - 1] - B) / H[j - 1])
    w = np.zeros_like(c)
    w[keep] = np.sign(c[keep]) * np.maximum(t - alpha, 0.0) * inv
    return w, alpha


def _structured_or_dense(Sigma, c, B, structured, dense, name):
    mom = Sigma
    c, B = _iv_structured(mom, c, B)
    sol = structured(mom, c, B)
    if sol is not None and sol.certificate <= _STRUCTURED_TOL:
        return sol
    if mom.d > DENSE_LIMIT:
        got = "an active L1 constraint" if sol is None else f"certificate {sol.certificate:.3g}"
        raise InvalidParameterError(
            f"`Sigma`: the structured {name} solve did not certify w* ({got}) and d={mom.d} > "
            f"{DENSE_LIMIT} is too large for the dense solver.")
    return dense(mom.dense(), c, B)


def minimize_l2_ball(Sigma, c, B):
    """argmin ½wᵀΣw − cᵀw over ‖w‖₂ ≤ B (trust-region secular equation), certified.

    With Σ = E[xxᵀ] and c = E[xy] this is the comparator w* of the ridge bounds (HK12 Thm 3.1,
    KS15 Thm 3.5: the best predictor with ‖w‖₂ ≤ B).

    Parameters
    ----------
    Sigma : array_like, shape (d, d), or SecondMoments
        The positive semidefinite Σ; a structured :class:`SecondMoments` costs O(d·r) per
        solve.
    c : array_like, shape (d,)
        The linear term c (finite).
    B : float
        The radius, > 0.

    Returns
    -------
    Minimizer
        The minimiser w* with ``norm="l2"``, its value, the multiplier μ and the certificate
        (duality gap and KKT residual).

    Raises
    ------
    InvalidParameterError
        Shapes that do not match, non-finite or non-symmetric ``Sigma`` or ``c``, a ``Sigma``
        that is not positive semidefinite, ``B`` <= 0, or a structured solve that is not
        certified when d > :data:`DENSE_LIMIT`.
    """
    if isinstance(Sigma, SecondMoments):
        if not Sigma.structured:
            return minimize_l2_ball(Sigma.dense(), c, B)
        return _structured_or_dense(Sigma, c, B, _l2_structured, minimize_l2_ball, "L2")
    Sigma, c, B = _iv(Sigma, c, B)
    lam, Q = np.linalg.eigh(Sigma)
    scale = max(1.0, float(lam[-1]))
    if lam[0] < -1e-10 * scale:
        raise InvalidParameterError(f"`Sigma` must be positive semidefinite; got eigenvalue {lam[0]:.3g}.")
    lam = np.clip(lam, 0.0, None)
    b = Q.T @ c
    tol = 1e-13 * scale
    pos = lam > tol

    def w_of(mu):
        return Q @ (b / (lam + mu))

    interior = None
    if np.all(np.abs(b[~pos]) <= 1e-13 * max(1.0, np.abs(b).max())):
        z = np.zeros_like(b)
        z[pos] = b[pos] / lam[pos]
        w0 = Q @ z
        if np.linalg.norm(w0) <= B:
            interior = w0
    if interior is not None:
        w, mu = interior, 0.0
    else:
        def phi(mu):
            with np.errstate(over="ignore", divide="ignore"):
                return 1.0 / np.linalg.norm(b / (lam + mu)) - 1.0 / B
        hi = np.linalg.norm(b) / B + 1e-300
        lo = 0.0
        if phi(hi) < 0:                              # cannot happen: ‖w(hi)‖ <= ‖b‖/hi = B
            hi *= 2
        lo = max(lo, 1e-300)
        if phi(lo) > 0:                              # ‖w(0+)‖ < B only in the interior case
            mu = lo
        else:
            mu = optimize.brentq(phi, lo, hi, xtol=1e-300, rtol=4 * np.finfo(float).eps,
                                 maxiter=500)
        w = w_of(mu)
        nrm = np.linalg.norm(w)
        w = w * (B / nrm) if nrm > B else w          # remove rounding outside the ball
    value = _quad(Sigma, c, w)
    grad = Sigma @ w - c
    kkt = float(np.max(np.abs(grad + mu * w)))
    if mu > 0:
        dual = float(-0.5 * np.sum(b ** 2 / (lam + mu)) - 0.5 * mu * B ** 2)
    else:
        dual = float(-0.5 * np.sum(b[pos] ** 2 / lam[pos]))
    gap = max(0.0, value - dual)
    return Minimizer(w=w, value=value, norm="l2", B=B, multiplier=float(mu), gap=gap,
                     kkt_residual=kkt, on_boundary=mu > 0)


def _fw_gap(Sigma, c, w, B):
    grad = Sigma @ w - c
    return max(0.0, float(grad @ w + B * np.max(np.abs(grad)))), grad


def minimize_l1_ball(Sigma, c, B):
    """argmin ½wᵀΣw − cᵀw over ‖w‖₁ ≤ B (exact lasso path + active-set KKT solve), certified.

    With Σ = E[xxᵀ] and c = E[xy] this is the comparator w* of the lasso bounds (HK12 Thm 3.4,
    KS15 Thm 4.6: the best predictor with ‖w‖₁ ≤ B).

    Parameters
    ----------
    Sigma : array_like, shape (d, d), or SecondMoments
        The positive semidefinite Σ. A structured :class:`SecondMoments` is solved in O(d·r)
        when the unconstrained minimiser lies in the ball or Σ is diagonal, else by the dense
        path (d <= :data:`DENSE_LIMIT`).
    c : array_like, shape (d,)
        The linear term c (finite).
    B : float
        The radius, > 0.

    Returns
    -------
    Minimizer
        The minimiser w* with ``norm="l1"``, its value, the multiplier α and the certificate
        (Frank-Wolfe duality gap and KKT residual).

    Raises
    ------
    InvalidParameterError
        Shapes that do not match, non-finite or non-symmetric ``Sigma`` or ``c``, ``B`` <= 0,
        or a structured solve that is not certified when d > :data:`DENSE_LIMIT`.
    """
    if isinstance(Sigma, SecondMoments):
        if not Sigma.structured:
            return minimize_l1_ball(Sigma.dense(), c, B)
        return _structured_or_dense(Sigma, c, B, _l1_structured, minimize_l1_ball, "L1")
    Sigma, c, B = _iv(Sigma, c, B)
    d = c.shape[0]
    # the minimiser is invariant under (Sigma, c) -> (Sigma, c)/s; scale so max diag = 1, which
    # keeps LARS's residual tests meaningful for tiny moments (the certificate is on the original)
    s = float(np.max(np.diag(Sigma)))
    if s > 0:
        sol = _minimize_l1_scaled(Sigma / s, c / s, B)
        w = sol
    else:
        w = np.zeros(d)
    gap, grad = _fw_gap(Sigma, c, w, B)
    on = abs(np.abs(w).sum() - B) <= 1e-9 * B
    mult = float(np.max(np.abs(grad))) if on else 0.0
    supp = np.abs(w) > 0
    res = np.abs(grad[supp] + mult * np.sign(w[supp])) if np.any(supp) else np.zeros(1)
    kkt = float(max(res.max(initial=0.0),
                    np.max(np.abs(grad[~supp]) - mult, initial=0.0)))
    if not on:
        kkt = max(kkt, float(np.max(np.abs(grad))))
    return Minimizer(w=w, value=_quad(Sigma, c, w), norm="l1", B=B, multiplier=mult, gap=gap,
                     kkt_residual=kkt, on_boundary=bool(on))


def _minimize_l1_scaled(Sigma, c, B):
    # start-up: scikit-learn (about a second) loads only when a lasso path is solved
    from sklearn.linear_model import lars_path_gram
    d = c.shape[0]
    with warnings.catch_warnings():       # early stopping is repaired by _refine_l1 and certified
        warnings.simplefilter("ignore")
        alphas, _, coefs = lars_path_gram(Xy=c.copy(), Gram=Sigma.copy(), n_samples=1,
                                          method="lasso", alpha_min=0.0, max_iter=20 * d + 100)
    norms = np.abs(coefs).sum(axis=0)
    if norms[-1] <= B:
        w = coefs[:, -1]
        alpha = 0.0
    else:
        j = int(np.argmax(norms > B))                 # first breakpoint beyond B
        t = (B - norms[j - 1]) / (norms[j] - norms[j - 1])
        w = coefs[:, j - 1] + t * (coefs[:, j] - coefs[:, j - 1])
        alpha = float(alphas[j - 1] + t * (alphas[j] - alphas[j - 1]))
    w = _polish_l1(Sigma, c, B, w, alpha)
    return _refine_l1(Sigma, c, B, w)


def _solve_support(Sigma, c, B, supp, s):
    """KKT solve on a support with signs s: unconstrained if that stays inside the ball, else
    with the constraint sᵀw = B active (multiplier >= 0)."""
    w = np.zeros_like(c)
    if supp.size == 0:
        return w
    S_AA = Sigma[np.ix_(supp, supp)]
    sol = np.linalg.lstsq(S_AA, c[supp], rcond=None)[0]
    if np.abs(sol).sum() <= B and np.allclose(S_AA @ sol, c[supp], rtol=0, atol=1e-13):
        w[supp] = sol
        return w
    n = supp.size
    K = np.zeros((n + 1, n + 1))
    K[:n, :n] = S_AA
    K[:n, n] = s
    K[n, :n] = s
    sol = np.linalg.lstsq(K, np.concatenate([c[supp], [B]]), rcond=None)[0]
    w[supp] = sol[:n]
    return w


def _refine_l1(Sigma, c, B, w, max_iter=200):
    """Active-set refinement until the Frank-Wolfe gap stops improving: add the coordinates that
    violate |∇f_i| <= max|∇f_A| (with sign −sign ∇f_i), drop those whose sign flips."""
    best, best_gap = w, _fw_gap(Sigma, c, w, B)[0]
    tol = 1e-14 * max(1.0, float(np.abs(c).max()))
    for _ in range(max_iter):
        if best_gap <= tol:
            break
        grad = Sigma @ best - c
        supp = np.abs(best) > 0
        level = np.max(np.abs(grad[supp])) if np.any(supp) else 0.0
        if np.abs(best).sum() < B * (1 - 1e-12):
            level = 0.0
        add = (~supp) & (np.abs(grad) > level + tol)
        signs = np.where(supp, np.sign(best), -np.sign(grad))
        idx = np.flatnonzero(supp | add)
        cand = _solve_support(Sigma, c, B, idx, signs[idx])
        flip = np.flatnonzero((cand[idx] != 0) & (np.sign(cand[idx]) != signs[idx]))
        if flip.size:
            idx = np.setdiff1d(idx, idx[flip])
            cand = _solve_support(Sigma, c, B, idx, signs[idx])
        if np.abs(cand).sum() > B * (1 + 1e-12):
            cand = cand * (B / np.abs(cand).sum())
        g = _fw_gap(Sigma, c, cand, B)[0]
        if g < best_gap:
            best, best_gap = cand, g
        else:
            break
    return best


def _polish_l1(Sigma, c, B, w, alpha):
    """Solve the KKT system on the active set of ``w`` exactly (least squares if singular)."""
    supp = np.flatnonzero(np.abs(w) > 1e-14 * max(1.0, np.abs(w).max()))
    if supp.size == 0:
        return w
    s = np.sign(w[supp])
    if alpha > 0:
        n = supp.size
        K = np.zeros((n + 1, n + 1))
        K[:n, :n] = Sigma[np.ix_(supp, supp)]
        K[:n, n] = s
        K[n, :n] = s
        rhs = np.concatenate([c[supp], [B]])
        sol = np.linalg.lstsq(K, rhs, rcond=None)[0]
        cand = np.zeros_like(w)
        cand[supp] = sol[:n]
    else:
        sol = np.linalg.lstsq(Sigma[np.ix_(supp, supp)], c[supp], rcond=None)[0]
        cand = np.zeros_like(w)
        cand[supp] = sol
    if np.all(np.sign(cand[supp]) == s) and np.abs(cand).sum() <= B * (1 + 1e-12):
        g_new = _fw_gap(Sigma, c, cand, B)[0]
        g_old = _fw_gap(Sigma, c, w, B)[0] if np.abs(w).sum() <= B * (1 + 1e-12) else np.inf
        if g_new <= g_old:
            return cand
    nrm = np.abs(w).sum()
    return w * (B / nrm) if nrm > B else w
