"""Full-information baselines: online ridge (projected OGD), online lasso (EG±), and the
constrained empirical risk minimisers (offline ridge and lasso) of CB11 Sec. 7, HK12 Sec. 5 and
KS15 Sec. 5.

They see every attribute of every example (d per example), which ``n_attributes_seen_``
records, so that budgets can be compared by attributes seen (KS15 Sec. 5's x-axis).

The offline solvers are written here because scikit-learn and scipy solve the *penalised*
problems (``Ridge``, ``Lasso``) and not the norm-*constrained* ones the papers compare with:

* :class:`OfflineRidge`: min ½‖Xw − y‖²/m s.t. ‖w‖₂ <= B, by the eigendecomposition of XᵀX/m
  and the secular equation ‖w(λ)‖₂ = B (scipy.optimize.brentq), as in trust-region methods
  (Nocedal and Wright 2006, Sec. 4.3), with the KKT residual reported;
* :class:`OfflineLasso`: min ½‖Xw − y‖²/m s.t. ‖w‖₁ <= B, by FISTA (Beck and Teboulle 2009)
  with Euclidean projection onto the L1 ball (Duchi, Shalev-Shwartz, Singer and Chandra 2008,
  Fig. 1), stopped by a duality-gap certificate (Frank-Wolfe gap, Jaggi 2013).
"""

import math
import warnings

import numpy as np
from scipy.optimize import brentq
from sklearn.exceptions import ConvergenceWarning
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from .._validation import check_int, check_positive, check_real, check_vector
from ..exceptions import InvalidParameterError
from . import _full
from ._base import check_data_range, check_scale
from ._docstrings import shared_docstring

__all__ = ["OnlineRidge", "OnlineLasso", "OfflineRidge", "OfflineLasso", "project_l1_ball"]


def project_l1_ball(v, B):
    """Euclidean projection of v onto {‖w‖₁ <= B} (Duchi et al. 2008, Fig. 1), O(d log d).

    Works over the whole range of doubles (the projection is scale-equivariant): v any finite
    vector, B any positive normal double. Computed in the gaps g_i = max_j |v_j| − |v_i| to
    the largest entry, scaled by a power of two so that B is about 1: the kept entries have
    g_i < B, and w_i = t − g_i with t = (B + Σ_kept g)/ρ, so nothing of the size of max|v|
    is ever subtracted from something of the size of B (the textbook form |v_i| − θ loses
    every digit when max|v| ≫ B). The L1 projection step of HK12 Alg. 2 and KS15 Alg. 3.

    Parameters
    ----------
    v : array_like of shape (d,)
        The point to project (finite).
    B : float
        The radius of the L1 ball, a positive normal double.

    Returns
    -------
    ndarray of shape (d,)
        The projection, in the ball to rounding (relative 1e-15).

    Raises
    ------
    ValueError
        If v is not a finite vector or B is not a positive normal double.
    """
    v = check_vector("v", v)
    B = check_real("B", B, low=np.finfo(np.float64).tiny,
                   rule="a positive normal double; the ball of a subnormal radius has no "
                        "relative precision")
    return _project_l1(v, B)


def _project_l1(v, B):
    """``project_l1_ball`` without the validation (v finite float64, B a positive normal): the
    C loop ``_full.project_l1`` (the algorithm of ``_project_l1_reference``, which it matches
    to rounding); the solvers project at every iteration."""
    return _full.project_l1(np.ascontiguousarray(v, dtype=np.float64), float(B))


def _project_l1_reference(v, B):
    """The NumPy form of ``_project_l1`` (tests compare the two)."""
    a = np.abs(v)
    with np.errstate(over="ignore"):       # the sum may round to inf: then it is > B anyway
        inside = a.sum() <= B
    if inside:
        return v.copy()
    top = a.max()
    gaps = top - a                         # exact within a factor 2 of top; <= top: no overflow
    cand = np.flatnonzero(gaps < B)        # the support lies here (g_(ρ) < B, see above)
    e = np.frexp(B)[1]                     # B·2^-e in [1/2, 1): sums of <= d gaps < d
    g = np.sort(np.ldexp(gaps[cand], -e))
    b = np.ldexp(B, -e)
    csum = np.cumsum(g)
    j = np.arange(1, g.size + 1)
    # Duchi et al.'s rule in the gaps: ρ = max{j : g_(j) < (b + Σ_{r<=j} g_(r))/j}
    keep = np.flatnonzero(g * j < b + csum)
    rho = int(keep[-1]) + 1                # j = 1 (g = 0 < b) always qualifies
    t = (b + csum[rho - 1]) / rho
    w = np.maximum(t - np.ldexp(gaps[cand], -e), 0.0)
    total = w.sum()
    if total > b:                          # rounding in the last bits: shrink onto the ball
        w *= b / total                     # (in the scaled units: the sum cannot overflow)
    out = np.zeros_like(v)
    out[cand] = np.sign(v[cand]) * np.ldexp(w, e)
    return out


def _check_moments(est, H, b, n_samples, spectrum):
    """``fit_moments``' input: H (d, d) symmetric and finite, b (d,) finite, n_samples >= 1,
    ``spectrum`` None or (eigenvalues (d,), eigenvectors (d, d)); sets ``n_features_in_``."""
    H = np.asarray(H, dtype=np.float64)
    if H.ndim != 2 or H.shape[0] != H.shape[1] or H.shape[0] < 1:
        raise InvalidParameterError(f"`H` must be a square (d, d) matrix XᵀX/m; got shape "
                                    f"{H.shape}.")
    d = H.shape[0]
    b = check_vector("b", b, d=d)
    if not np.all(np.isfinite(H)) or not np.allclose(H, H.T, rtol=1e-12, atol=0.0):
        raise InvalidParameterError("`H` must be finite and symmetric (XᵀX/m).")
    n = check_int("n_samples", n_samples, low=1)
    if spectrum is not None:
        evals, evecs = (np.asarray(a, dtype=np.float64) for a in spectrum)
        if evals.shape != (d,) or evecs.shape != (d, d):
            raise InvalidParameterError(
                f"`spectrum` must be numpy.linalg.eigh(H): eigenvalues ({d},) and eigenvectors "
                f"({d}, {d}); got shapes {evals.shape}, {evecs.shape}.")
    est.n_features_in_ = d
    return H, b, n


class _FullInformation(RegressorMixin, BaseEstimator):
    def _step_size(self, theory):
        """``eta="theory"`` → ``theory`` (the caller's formula); else a float > 0."""
        if isinstance(self.eta, str):
            if self.eta != "theory":
                raise InvalidParameterError(f"`eta` must be 'theory' or a float > 0; got {self.eta!r}.")
            return theory
        return check_scale("eta", self.eta, "a step size")

    def _data(self, X, y):
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        y = np.asarray(y, dtype=np.float64)
        check_data_range(X, y)
        return X, y

    def _begin(self, X, y, theory):
        """Validated C-contiguous (X, y), m, d, B and the step (``theory(m, d, B)`` for
        ``eta="theory"``), for the online learners' ``fit`` and ``_reference_fit``."""
        X, y = self._data(X, y)
        m, d = X.shape
        B = check_scale("B", self.B, "a radius")
        eta = self._step_size(theory(m, d, B))
        return np.ascontiguousarray(X), np.ascontiguousarray(y), m, d, B, eta

    def _check_run(self, failed):
        """Raise when a kernel stopped at a non-finite iterate (step ``failed`` >= 1)."""
        if failed:
            raise InvalidParameterError(
                f"`X`, `y` and the parameters of {type(self).__name__} (B={self.B!r}, "
                f"eta={self.eta!r}) gave a non-finite iterate at step {failed}; rescale X and y "
                f"towards the papers' ‖x‖ <= 1, |y| <= B, or pass a smaller `eta`.")

    def predict(self, X):
        """Predictions ⟨w, x⟩ of the learner's output ``coef_``.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)
            The examples.

        Returns
        -------
        ndarray of shape (n_samples,)
            ``X @ coef_``.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            Before the first ``fit``.
        ValueError
            If X is malformed or its ``n_features`` differs from the fit's.
        """
        check_is_fitted(self, "coef_")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return X @ self.coef_

    def _record(self, m, d):
        self.n_steps_ = m
        self.n_attributes_seen_ = m * d
        self.max_attributes_per_example_ = d


class _OnlineFit:
    """``fit``, ``theory_step`` and the engine's row-indexed fit of the online learners, whose
    steps run in ``_full``'s C loops (each class supplies ``_theory(m, d, B)``, its
    ``eta="theory"``, and ``_kernel(X, y, rows, B, eta)``)."""

    def fit(self, X, y):
        """One pass over the rows of (X, y), in order (a C loop).

        The class's update on each row (its paper label in the class docstring).

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)
            The examples, one per row (all attributes are read).
        y : array_like of shape (n_samples,)
            The labels.

        Returns
        -------
        self
            The fitted learner (``coef_``, ``w_``, ``eta_``, ``n_steps_``).

        Raises
        ------
        ValueError
            If X or y is malformed or not finite, max|X| or max|y| exceeds 1e100, a parameter
            breaks its rule, or the iterate becomes non-finite.
        """
        X, y = self._data(X, y)
        return self._fit_rows(np.ascontiguousarray(X), np.ascontiguousarray(y),
                              np.arange(X.shape[0], dtype=np.intp))

    def _fit_rows(self, X, y, rows):
        """One pass over the rows X[rows] in that order, without copying them: for callers that
        validated X and y once (finite, within ``check_data_range``, C-contiguous float64) and
        fit many subsets of their rows (``laocheck.experiments.papers``' cross-validation).
        ``rows``: a 1-d intp array of indices into X."""
        m, d = rows.shape[0], X.shape[1]
        if m < 1 or (m and (rows.min() < 0 or rows.max() >= X.shape[0])):
            raise InvalidParameterError(f"`rows` must name 1 or more rows of X in [0, "
                                        f"{X.shape[0]}); got {m} rows.")
        B = check_scale("B", self.B, "a radius")
        eta = self._step_size(self._theory(m, d, B))
        self.n_features_in_ = d
        self._kernel(X, y, rows, B, eta)
        self._record(m, d)
        return self

    def theory_step(self, n_samples, n_features):
        """The step ``eta_`` a fit on ``n_samples`` rows of ``n_features`` attributes would use.

        Computed without the fit, as the budgeted learners' ``theory_step``.

        Parameters
        ----------
        n_samples : int
            The number of rows m.
        n_features : int
            The dimension d.

        Returns
        -------
        float
            The step size (``eta`` itself when it is a float).

        Raises
        ------
        ValueError
            If a size is not a positive integer or ``B`` or ``eta`` breaks its rule.
        """
        m = check_int("n_samples", n_samples, low=1)
        d = check_int("n_features", n_features, low=1)
        return self._step_size(self._theory(m, d, check_scale("B", self.B, "a radius")))


def _eg_theory(m, d, B):
    """OnlineLasso's ``eta="theory"``: KS15 Thm 4.1's minimiser with G² = 4B²."""
    return np.sqrt(np.log(2 * d) / (20 * B ** 2 * m))


class _Online(_OnlineFit, _FullInformation):
    def __init__(self, B=1.0, eta="theory"):
        self.B = B
        self.eta = eta


@shared_docstring
class OnlineRidge(_Online):
    """Projected online gradient descent on ½(wᵀx − y)² over {‖w‖₂ <= B}, all attributes seen.

    HK12 Alg. 1 with the exact gradient; ``coef_`` is the average of the iterates.
    ``eta="theory"``: η = 2B/(G√m) with G = 2B (‖x‖₂ <= 1, |y| <= B), i.e. 1/√m, the step of
    HK12 Lemma 3.2's bound 2B²/η + (η/2) Σ‖g_t‖².

    Parameters
    ----------
    B : float, default=1.0
        The radius of the constraint set (and the bound |y| <= B of the theory step).
    eta : float or "theory", default="theory"
        The step size; "theory" is the value given below.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
        The average of the iterates (the output).
    %(w_)s
    %(eta_)s
    %(n_steps_)s
    n_attributes_seen_ : int
        Attributes read, d per example.
    max_attributes_per_example_ : int
        d.
    """

    @staticmethod
    def _theory(m, d, B):
        return 1.0 / np.sqrt(m)

    def _kernel(self, X, y, rows, B, eta):
        d = X.shape[1]
        w, total = np.zeros(d), np.zeros(d)
        self._check_run(_full.online_ridge(X, y, rows, eta, B, w, total))
        self.coef_, self.w_, self.eta_ = total / rows.shape[0], w, eta

    def _reference_fit(self, X, y):
        """The literal NumPy loop ``fit``'s kernel follows (tests compare the two)."""
        X, y, m, d, B, eta = self._begin(X, y, self._theory)
        w = np.zeros(d)
        total = np.zeros(d)
        for t in range(m):
            total += w
            v = w - eta * (X[t] @ w - y[t]) * X[t]
            w = v * (B / max(np.linalg.norm(v), B))
        self.coef_, self.w_, self.eta_ = total / m, w, eta
        self._record(m, d)
        return self


@shared_docstring
class OnlineLasso(_Online):
    """EG± (Kivinen and Warmuth 1997) on ½(wᵀx − y)² over {‖w‖₁ <= B}, all attributes seen.

    HK12 Alg. 2 with the exact gradient (|g_i| <= 2B when ‖x‖∞ <= 1, |y| <= B, so no clipping),
    in the log domain; ``coef_`` is the average of the iterates. ``eta="theory"`` is KS15
    Thm 4.1's minimiser with G² = 4B²: η = √(log 2d / (20 B² m)).

    Parameters
    ----------
    B : float, default=1.0
        The radius of the constraint set (and the bound |y| <= B of the theory step).
    eta : float or "theory", default="theory"
        The step size; "theory" is the value given below.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
        The average of the iterates (the output).
    %(w_)s
    %(eta_)s
    %(n_steps_)s
    n_attributes_seen_ : int
        Attributes read, d per example.
    max_attributes_per_example_ : int
        d.
    """

    _theory = staticmethod(_eg_theory)

    def _kernel(self, X, y, rows, B, eta):
        d = X.shape[1]
        log_p, log_m = np.zeros(d), np.zeros(d)           # z⁺ = z⁻ = 1
        w, total = np.zeros(d), np.zeros(d)
        self._check_run(_full.online_lasso(X, y, rows, eta, B, log_p, log_m, w, total))
        self.coef_, self.w_, self.eta_ = total / rows.shape[0], w, eta

    def _reference_fit(self, X, y):
        """The literal NumPy loop ``fit``'s kernel follows (tests compare the two)."""
        X, y, m, d, B, eta = self._begin(X, y, _eg_theory)
        log_p, log_m = np.zeros(d), np.zeros(d)           # z⁺ = z⁻ = 1
        total = np.zeros(d)
        for t in range(m):
            top = max(log_p.max(), log_m.max())
            zp, zm = np.exp(log_p - top), np.exp(log_m - top)
            w = B * (zp - zm) / (zp.sum() + zm.sum())
            total += w
            g = (X[t] @ w - y[t]) * X[t]
            log_p -= eta * g
            log_m += eta * g
        top = max(log_p.max(), log_m.max())
        zp, zm = np.exp(log_p - top), np.exp(log_m - top)
        self.w_ = B * (zp - zm) / (zp.sum() + zm.sum())
        self.coef_, self.eta_ = total / m, eta
        self._record(m, d)
        return self


class OfflineRidge(_FullInformation):
    """min_w ½‖Xw − y‖²/m subject to ‖w‖₂ <= B (the papers' offline ridge, constrained form).

    The offline comparison of CB11 Sec. 7, HK12 Sec. 5 and KS15 Sec. 5.

    Parameters
    ----------
    B : float, default=1.0
        The radius of the L2 ball.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
        The minimiser.
    lambda_ : float
        The multiplier of the constraint (0 when it is not active).
    kkt_residual_ : float
        ‖∇ + λw‖∞ with λ >= 0 and complementary slackness.
    n_steps_ : int
        The number of rows m.
    n_attributes_seen_ : int
        m·d.
    max_attributes_per_example_ : int
        d.
    """

    def __init__(self, B=1.0):
        self.B = B

    def fit(self, X, y):
        """The constrained least squares on the rows of (X, y).

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)
            The examples, one per row (all attributes are read).
        y : array_like of shape (n_samples,)
            The labels.

        Returns
        -------
        self
            The fitted learner.

        Raises
        ------
        ValueError
            If X or y is malformed or not finite, max|X| or max|y| exceeds 1e100, a parameter
            breaks its rule, or the iterate becomes non-finite.
        """
        X, y = self._data(X, y)
        m, d = X.shape
        return self._solve(X.T @ X / m, X.T @ y / m, m, d, None)

    def fit_moments(self, H, b, n_samples, *, spectrum=None):
        """The same solution from the sufficient statistics H = XᵀX/m and b = Xᵀy/m.

        What ``fit`` computes first, so that cross-validation over B on one set of rows forms
        them, and the spectrum of H, once.

        Parameters
        ----------
        H : array_like of shape (n_features, n_features)
            XᵀX/m (symmetric, finite).
        b : array_like of shape (n_features,)
            Xᵀy/m.
        n_samples : int
            The number of rows m (recorded in ``n_steps_`` and ``n_attributes_seen_``).
        spectrum : tuple of ndarray, optional
            ``numpy.linalg.eigh(H)`` when already computed.

        Returns
        -------
        self
            The fitted learner.

        Raises
        ------
        ValueError
            If H, b or spectrum have the wrong shape or are not finite, n_samples is not a
            positive integer, or B breaks its rule.
        """
        H, b, n = _check_moments(self, H, b, n_samples, spectrum)
        return self._solve(H, b, n, H.shape[0], spectrum)

    def _solve(self, H, b, m, d, spectrum):
        B = check_scale("B", self.B, "a radius")
        evals, evecs = np.linalg.eigh(H) if spectrum is None else spectrum
        evals = np.maximum(evals, 0.0)
        c = evecs.T @ b
        tol = 1e-12 * max(evals.max(), 1e-300)

        def w_of(lam):
            return evecs @ (c / (evals + lam))

        lam = 0.0
        if evals.min() > tol:
            w = w_of(0.0)
        else:   # minimum-norm least squares on the range of H
            inv = np.where(evals > tol, 1.0 / np.where(evals > tol, evals, 1.0), 0.0)
            w = evecs @ (c * inv)
        if np.linalg.norm(w) > B:
            # secular equation: ‖w(λ)‖₂ = B has one root λ > 0 (‖w(λ)‖ decreases in λ)
            hi = np.linalg.norm(c) / B
            # near λ = 0 on a (near-)singular H, ‖w(λ)‖ overflows to +inf: the right sign for
            # the bracket's left end, not an error (brentq only compares it with 0)
            with np.errstate(over="ignore"):
                lam = brentq(lambda l: np.linalg.norm(w_of(l)) - B, 1e-300,
                             max(hi, 1e-300) * 2, xtol=1e-300, rtol=4 * np.finfo(float).eps,
                             maxiter=500)
            w = w_of(lam)
            w *= B / np.linalg.norm(w)
        grad = H @ w - b
        self.coef_, self.lambda_ = w, lam
        self.kkt_residual_ = float(np.max(np.abs(grad + lam * w)))
        self._record(m, d)
        return self


class OfflineLasso(_FullInformation):
    """min_w ½‖Xw − y‖²/m subject to ‖w‖₁ <= B (the papers' offline lasso, constrained form).

    FISTA with projection onto the L1 ball, stopped when the Frank-Wolfe duality gap
    ⟨∇f(w), w⟩ + B‖∇f(w)‖∞ (an upper bound on f(w) − min f) is <= ``tol``; if ``max_iter``
    iterations do not get there, a ``ConvergenceWarning`` is issued and the gap reached is kept
    in ``duality_gap_``. The offline comparison of HK12 Sec. 5 and KS15 Sec. 5.

    Parameters
    ----------
    B : float, default=1.0
        The radius of the L1 ball.
    tol : float, default=1e-10
        The duality gap at which FISTA stops (> 0).
    max_iter : int, default=100000
        The most FISTA iterations.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
        The minimiser.
    duality_gap_ : float
        The Frank-Wolfe gap reached, an upper bound on f(w) − min f.
    n_iter_ : int
        The iterations made.
    n_steps_ : int
        The number of rows m.
    n_attributes_seen_ : int
        m·d.
    max_attributes_per_example_ : int
        d.
    """

    def __init__(self, B=1.0, tol=1e-10, max_iter=100_000):
        self.B = B
        self.tol = tol
        self.max_iter = max_iter

    def fit(self, X, y):
        """The constrained least squares on the rows of (X, y).

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)
            The examples, one per row (all attributes are read).
        y : array_like of shape (n_samples,)
            The labels.

        Returns
        -------
        self
            The fitted learner.

        Raises
        ------
        ValueError
            If X or y is malformed or not finite, max|X| or max|y| exceeds 1e100, a parameter
            breaks its rule, or the iterate becomes non-finite.
        """
        X, y = self._data(X, y)
        m, d = X.shape
        return self._solve(X.T @ X / m, X.T @ y / m, m, d, None)

    def fit_moments(self, H, b, n_samples, *, spectrum=None):
        """The same solution from the sufficient statistics H = XᵀX/m and b = Xᵀy/m.

        What ``fit`` computes first; the largest eigenvalue of the spectrum is FISTA's
        Lipschitz constant. For cross-validation over B on one set of rows.

        Parameters
        ----------
        H : array_like of shape (n_features, n_features)
            XᵀX/m (symmetric, finite).
        b : array_like of shape (n_features,)
            Xᵀy/m.
        n_samples : int
            The number of rows m (recorded in ``n_steps_`` and ``n_attributes_seen_``).
        spectrum : tuple of ndarray, optional
            ``numpy.linalg.eigh(H)`` when already computed.

        Returns
        -------
        self
            The fitted learner.

        Raises
        ------
        ValueError
            If H, b or spectrum have the wrong shape or are not finite, n_samples is not a
            positive integer, or B breaks its rule.
        """
        H, b, n = _check_moments(self, H, b, n_samples, spectrum)
        return self._solve(H, b, n, H.shape[0], spectrum)

    def _solve(self, H, b, m, d, spectrum):
        B = check_scale("B", self.B, "a radius")
        tol = check_positive("tol", self.tol)
        max_iter = check_int("max_iter", self.max_iter, low=1)
        top = np.linalg.eigvalsh(H).max() if spectrum is None else np.max(spectrum[0])
        L = max(top, 1e-300)
        # FISTA with the gradient restart of O'Donoghue and Candès (2015): the momentum is
        # reset when it points against the last step, which keeps FISTA's rate and removes
        # its oscillations on ill-conditioned H (pixels that are almost always 0). One
        # product with H per iteration: H z is a combination of H w and H w_next.
        w = np.zeros(d)
        Hw = np.zeros(d)
        z, Hz, t_k = w, Hw, 1.0
        gap = np.inf
        for it in range(1, max_iter + 1):
            v = z - (Hz - b) / L                  # z lies within 3B of 0, H and b are finite
            if not math.isfinite(v.sum()):        # an inf or NaN entry (or a sum near overflow)
                raise InvalidParameterError(
                    f"`X`, `y` and `B`={B!r} made OfflineLasso's gradient step overflow "
                    f"(largest eigenvalue of XᵀX/m {top!r}, max|Xᵀy/m| "
                    f"{float(np.abs(b).max())!r}); rescale X and y.")
            w_next = _project_l1(v, B)
            Hw_next = H @ w_next
            grad = Hw_next - b
            gap = float(grad @ w_next + B * np.abs(grad).max())
            if gap <= tol:
                w = w_next
                break
            if (z - w_next) @ (w_next - w) > 0:        # restart: momentum against the step
                t_k = 1.0
            t_next = (1 + np.sqrt(1 + 4 * t_k ** 2)) / 2
            beta = (t_k - 1) / t_next
            z = w_next + beta * (w_next - w)
            Hz = Hw_next + beta * (Hw_next - Hw)
            w, Hw, t_k = w_next, Hw_next, t_next
        if gap > tol:
            warnings.warn(
                f"OfflineLasso: {max_iter} iterations did not reach duality gap <= {tol} "
                f"(reached {gap:.3g}); the certificate is in `duality_gap_`. Raise `max_iter`.",
                ConvergenceWarning, stacklevel=2)
        self.coef_, self.duality_gap_, self.n_iter_ = w, gap, it
        self._record(m, d)
        return self
