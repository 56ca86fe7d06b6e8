"""The full-information baselines the three papers' experiments compare with, line by line
(:mod:`laocheck.learners.full_information`).

CB11 Sec. 7 runs "ridge regression and Lasso ... in the full information setting" (its eq. (1),
min ½‖Xw − y‖²/m over ‖w‖_p <= B, p = 2 and 1); HK12 Sec. 5 compares AELR with the offline
Lasso and "an online Lasso solver"; KS15 Sec. 5 with "the online full-information algorithms"
(its Table 1's last column, the O(√(1/m)) rate of online gradient descent) and the offline
ridge. The checks here type each of them from its definition with numpy and compare the
learner's output (its compiled kernel and, for the online ones, its literal NumPy twin
``_reference_fit``):

* ``LAO.FullInformation.online_ridge``: projected online gradient descent on ½(wᵀx − y)² over
  {‖w‖₂ <= B} from w_1 = 0 (HK12 Alg. 1 with the exact gradient x(wᵀx − y)), the average of
  the iterates, with the step of HK12 Lemma 3.2's bound 2B²/η + (η/2)Σ‖g_t‖² at G = 2B
  (‖x‖₂ <= 1, |y| <= B): η = 2B/(G√m) = 1/√m;
* ``LAO.FullInformation.online_lasso``: EG± over {‖w‖₁ <= B} from z⁺ = z⁻ = 1 (HK12 Alg. 2
  with the exact gradient), z^± ← z^± exp(∓η g), with KS15 Thm 4.1's minimising step at
  G² = 4B²: η = √(log 2d/(5G²m)) = √(log 2d/(20B²m));
* ``LAO.FullInformation.online_ridge_adagrad``: the same with KS15 eq. (13)'s per-coordinate
  AdaGrad step η₀/√(Σ g_i²), η₀ = √2·B (AdaGrad's D_∞/√2, D_∞ = 2B);
* ``LAO.FullInformation.offline_ridge`` and ``.offline_lasso``: the constrained minimisers of
  CB11 eq. (1), judged by their optimality certificates computed here from H = XᵀX/m and
  b = Xᵀy/m (the KKT conditions of the ball; the Frank-Wolfe duality gap of the L1 ball), and
  the lasso's first FISTA iterations (Beck and Teboulle 2009 with the gradient restart of
  O'Donoghue and Candès 2015, the solver the class documents) replayed;
* ``LAO.FullInformation.l1_projection``: the Euclidean projection onto the L1 ball (Duchi et
  al. 2008, Fig. 1, the projection of HK12 Alg. 2 and the lasso solver) against its textbook
  form w = sign(v) max(|v| − θ, 0), ‖w‖₁ = B.

All are exact up to float rounding (δ = 0): the tolerances are first-order rounding bounds
stated where they are computed.
"""

from __future__ import annotations

import importlib
import math
import warnings

import numpy as np

from ... import learners
from .._registry import Result, Status, register

_U = np.finfo(float).eps / 2          # unit roundoff
_D, _M, _B = 6, 200, 1.5


def _data(rng, m=_M, d=_D, B=_B):
    """m rows with ‖x‖₂ <= 1 and unequal attribute scales, |y| <= B."""
    X = rng.uniform(-1, 1, (m, d)) * 2.0 ** -np.arange(d)
    X /= np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None]
    y = np.clip(X @ rng.uniform(-1, 1, d) + 0.1 * rng.uniform(-1, 1, m), -B, B)
    return X, y


def _online_tolerance(m, d, scale):
    """An m-step online run forms each update from at most 2d + 4 rounded terms (the inner
    product, the residual, the step, the projection or the normalisation), each off by u
    relative to the scale of w; the updates are non-expansive (projection, averaging), so the
    errors add: m·(2d + 4)·u·scale, times 16 for a different order of operations (the kernel's
    log-domain weights, its incremental sums)."""
    return 16.0 * m * (2 * d + 4) * _U * max(scale, 1e-300)


def _verdict(rows, figures, detects=1.0):
    """rows: (name, difference, tolerance); FAIL at the first difference above its tolerance."""
    bad = None
    for name, diff, tol in rows:
        figures[name] = {"difference": float(diff), "tolerance": float(tol)}
        if not diff <= tol and bad is None:      # NaN is not <=
            bad = {"part": name, "difference": float(diff), "tolerance": float(tol)}
    if bad is not None:
        return Result(Status.FAIL, figures, counterexample=bad, detects=detects,
                      detectable=0.0)
    return Result(Status.PASS, figures, detects=detects,
                  detectable="a difference above the rounding tolerance of each part")


def _gd_ridge(X, y, B, eta):
    """Projected OGD from w_1 = 0: (average of w_1..w_m, w_{m+1})."""
    m, d = X.shape
    w, total = np.zeros(d), np.zeros(d)
    for t in range(m):
        total += w
        g = (X[t] @ w - y[t]) * X[t]                      # ∇ ½(wᵀx − y)²
        v = w - eta * g
        norm = np.linalg.norm(v)
        w = v if norm <= B else v * (B / norm)            # Π onto {‖w‖₂ <= B}
    return total / m, w


def _eg_pm(X, y, B, eta):
    """EG± from z⁺ = z⁻ = 1 (linear domain): (average of w_1..w_m, w_{m+1})."""
    m, d = X.shape
    zp, zm = np.ones(d), np.ones(d)
    total = np.zeros(d)
    for t in range(m):
        w = B * (zp - zm) / (zp.sum() + zm.sum())
        total += w
        g = (X[t] @ w - y[t]) * X[t]
        zp, zm = zp * np.exp(-eta * g), zm * np.exp(eta * g)
    return total / m, B * (zp - zm) / (zp.sum() + zm.sum())


def _online(ctx, cls, eta, replay):
    X, y = _data(ctx.rng)
    m, d = X.shape
    want, want_last = replay(X, y, _B, eta)
    scale = max(float(np.max(np.abs(want_last))), float(np.max(np.abs(want))))
    tol = _online_tolerance(m, d, scale)
    fitted = cls(B=_B).fit(X, y)
    twin = cls(B=_B)._reference_fit(X, y)
    rows = [("eta", abs(fitted.eta_ - eta), 4 * _U * eta),
            ("theory_step", abs(cls(B=_B).theory_step(m, d) - eta), 4 * _U * eta),
            ("coef", float(np.max(np.abs(fitted.coef_ - want))), tol),
            ("last_iterate", float(np.max(np.abs(fitted.w_ - want_last))), tol),
            ("reference_fit_coef", float(np.max(np.abs(twin.coef_ - want))), tol),
            ("reference_fit_last_iterate", float(np.max(np.abs(twin.w_ - want_last))), tol),
            ("attributes_seen", abs(fitted.n_attributes_seen_ - m * d), 0)]
    return _verdict(rows, {"m": m, "d": d, "B": _B, "eta": eta})


_METHOD_ONLINE = ("a seeded instance (d = 6, m = 200, B = 3/2, ‖x‖₂ <= 1, |y| <= B); the update "
                  "and the step typed in the check (numpy) against fit (the C loop) and "
                  "_reference_fit (the NumPy twin); rounding tolerance 16·m·(2d + 4)·u·max|w|")


@register("LAO.FullInformation.online_ridge",
          citation="HK12 Alg. 1 and Lemma 3.2 (full information); KS15 Table 1; KS15 Sec. 5",
          statement="OnlineRidge is projected online gradient descent on ½(wᵀx − y)² over "
          "‖w‖₂ <= B from w_1 = 0 with the exact gradient, its output the average of the "
          "iterates, and eta='theory' is η = 2B/(G√m) with G = 2B, i.e. 1/√m",
          assumptions="‖x‖₂ <= 1, |y| <= B (so ‖g_t‖₂ <= 2B); d = 6, m = 200, B = 3/2",
          method=_METHOD_ONLINE, delta=0.0,
          detectable="a change of η or of one step above the rounding tolerance")
def check_online_ridge(ctx):
    """The full-information online ridge baseline (HK12 Alg. 1 with the exact gradient, KS15
    Sec. 5) against its definition."""
    return _online(ctx, learners.OnlineRidge, 2 * _B / (2 * _B * math.sqrt(_M)), _gd_ridge)


@register("LAO.FullInformation.online_lasso",
          citation="HK12 Alg. 2 (full information); KS15 Thm 4.1; HK12 Sec. 5; KS15 Sec. 5",
          statement="OnlineLasso is EG± on ½(wᵀx − y)² over ‖w‖₁ <= B from z⁺ = z⁻ = 1 with the "
          "exact gradient, its output the average of the iterates, and eta='theory' is KS15 "
          "Thm 4.1's η = √(log 2d/(5G²m)) at G² = 4B²",
          assumptions="‖x‖∞ <= 1, |y| <= B (so |g_i| <= 2B); d = 6, m = 200, B = 3/2",
          method=_METHOD_ONLINE, delta=0.0,
          detectable="a change of η or of one step above the rounding tolerance")
def check_online_lasso(ctx):
    """The full-information online lasso baseline (HK12 Alg. 2 with the exact gradient, KS15
    Thm 4.1's step) against its definition."""
    eta = math.sqrt(math.log(2 * _D) / (5 * 4 * _B ** 2 * _M))
    return _online(ctx, learners.OnlineLasso, eta, _eg_pm)


def _adagrad_ridge(X, y, B, eta0):
    """Projected OGD from w_1 = 0 with KS15 eq. (13)'s per-coordinate step
    η_{t,i} = η₀/√(Σ_{s<=t} g_{s,i}²) (a coordinate whose sum is still 0 does not move)."""
    m, d = X.shape
    w, G, total = np.zeros(d), np.zeros(d), np.zeros(d)
    for t in range(m):
        total += w
        g = (X[t] @ w - y[t]) * X[t]
        G = G + g * g
        step = np.divide(eta0, np.sqrt(G), out=np.zeros(d), where=G > 0)
        v = w - step * g
        norm = np.linalg.norm(v)
        w = v if norm <= B else v * (B / norm)
    return total / m, w


@register("LAO.FullInformation.online_ridge_adagrad",
          citation="KS15 App. A, eq. (13) (full information); KS15 Sec. 5",
          statement="AdaOnlineRidge is projected online gradient descent on ½(wᵀx − y)² over "
          "‖w‖₂ <= B from w_1 = 0 with the exact gradient and eq. (13)'s per-coordinate "
          "AdaGrad step η₀/√(Σ g_i²), its output the average of the iterates, and eta='theory' "
          "is AdaGrad's η₀ = D_∞/√2 with D_∞ = 2B, i.e. √2·B",
          assumptions="‖x‖₂ <= 1, |y| <= B; d = 6, m = 200, B = 3/2",
          method=_METHOD_ONLINE, delta=0.0,
          detectable="a change of η₀ or of one step above the rounding tolerance")
def check_online_ridge_adagrad(ctx):
    """The full-information AdaGrad ridge baseline (KS15 App. A, eq. (13)) against its
    definition."""
    return _online(ctx, learners.AdaOnlineRidge, math.sqrt(2) * _B, _adagrad_ridge)


# ---------------------------------------------------------------------------------------------
# offline: the certificates of CB11 eq. (1)
# ---------------------------------------------------------------------------------------------

def _offline_instances(rng):
    """(name, X, y, B): the constraint active (B = 0.2), inactive (B = 100, beyond the
    unconstrained minimiser of these 60 rows), and XᵀX/m singular (m = 4 < d = 6) with the minimum-norm least-squares solution inside the ball."""
    X, y = _data(rng, m=60)
    Xs = rng.uniform(-1, 1, (4, _D)) / math.sqrt(_D)
    ys = Xs @ (0.3 * rng.uniform(-1, 1, _D) / math.sqrt(_D))
    return [("active", X, y, 0.2), ("inactive", X, y, 100.0), ("singular", Xs, ys, 1.5)]


def _moments(X, y):
    m = X.shape[0]
    return X.T @ X / m, X.T @ y / m


def _certificate_tolerance(H, b, w):
    """A backward-stable solve of the d×d system leaves a residual of about d·u·(‖H‖‖w‖ + ‖b‖);
    64 times that covers the eigendecomposition, the secular root (relative 4u) and the
    rescaling onto the sphere."""
    return 64 * H.shape[0] * _U * (np.linalg.norm(H, 2) * np.linalg.norm(w) + np.linalg.norm(b)
                                   + 1.0)


@register("LAO.FullInformation.offline_ridge",
          citation="CB11 eq. (1) with p = 2, Sec. 7; KS15 Sec. 5",
          statement="OfflineRidge's coef_ minimises ½‖Xw − y‖²/m over ‖w‖₂ <= B: it is "
          "feasible and satisfies the KKT conditions ∇ + λw = 0 with λ >= 0, λ(‖w‖ − B) = 0 "
          "(∇ = Hw − b, H = XᵀX/m, b = Xᵀy/m); fit_moments(H, b) gives the same",
          assumptions="three instances: the constraint active, inactive, and H singular (m < d)",
          method="the certificate computed in the check from H and b (numpy); tolerance "
          "64·d·u·(‖H‖‖w‖ + ‖b‖ + 1)", delta=0.0,
          detectable="a KKT residual above the rounding tolerance")
def check_offline_ridge(ctx):
    """The full-information offline ridge baseline (CB11 eq. (1), p = 2) against its optimality
    conditions."""
    rows, figures = [], {}
    for name, X, y, B in _offline_instances(ctx.rng):
        H, b = _moments(X, y)
        fitted = learners.OfflineRidge(B=B).fit(X, y)
        w = np.asarray(fitted.coef_, dtype=float)
        g = H @ w - b
        norm = float(np.linalg.norm(w))
        tol = _certificate_tolerance(H, b, w)
        # λ from the certificate itself: 0 inside the ball, −⟨∇, w⟩/B² on its sphere (where
        # ∇ = −λw); a negative λ (the minimum outside pulled in) refutes optimality
        on_sphere = norm >= B * (1 - 1e-9)
        lam = -float(g @ w) / B ** 2 if on_sphere else 0.0
        rows += [(f"{name}.feasible", max(0.0, norm - B), 4 * _U * B),
                 (f"{name}.stationary", float(np.max(np.abs(g + max(lam, 0.0) * w))), tol),
                 (f"{name}.multiplier_sign", max(0.0, -lam) * B, tol)]
        again = learners.OfflineRidge(B=B).fit_moments(H, b, X.shape[0],
                                                       spectrum=np.linalg.eigh(H))
        rows.append((f"{name}.fit_moments", float(np.max(np.abs(again.coef_ - w))), tol))
        figures[name] = {"B": B, "norm": norm, "lambda": lam}
    return _verdict(rows, figures)


def _project_l1_textbook(v, B):
    """Duchi et al. (2008) Fig. 1 as printed: μ = |v| sorted decreasing,
    ρ = max{j : μ_j − (Σ_{r<=j} μ_r − B)/j > 0}, θ = (Σ_{r<=ρ} μ_r − B)/ρ,
    w = sign(v) max(|v| − θ, 0); v itself inside the ball."""
    a = np.abs(v)
    if a.sum() <= B:
        return v.copy()
    mu = np.sort(a)[::-1]
    css = np.cumsum(mu)
    j = np.arange(1, a.size + 1)
    rho = int(np.flatnonzero(mu - (css - B) / j > 0)[-1]) + 1
    theta = (css[rho - 1] - B) / rho
    return np.sign(v) * np.maximum(a - theta, 0.0)


def _fista(H, b, B, iterations):
    """FISTA (Beck and Teboulle 2009) on f(w) = ½wᵀHw − bᵀw over ‖w‖₁ <= B from w = 0, step
    1/L with L = λ_max(H), t_1 = 1, t_{k+1} = (1 + √(1 + 4t_k²))/2, momentum (t_k − 1)/t_{k+1},
    restarted (t_k = 1) when (z − w_{k+1})ᵀ(w_{k+1} − w_k) > 0 (O'Donoghue and Candès 2015):
    the iterate after ``iterations`` steps."""
    L = max(float(np.linalg.eigvalsh(H).max()), 1e-300)
    w = np.zeros(b.size)
    z, t = w, 1.0
    for _ in range(iterations):
        w_next = _project_l1_textbook(z - (H @ z - b) / L, B)
        if (z - w_next) @ (w_next - w) > 0:
            t = 1.0
        t_next = (1 + math.sqrt(1 + 4 * t * t)) / 2
        z = w_next + (t - 1) / t_next * (w_next - w)
        w, t = w_next, t_next
    return w


@register("LAO.FullInformation.offline_lasso",
          citation="CB11 eq. (1) with p = 1, Sec. 7; HK12 Sec. 5; KS15 Sec. 5",
          statement="OfflineLasso's coef_ minimises ½‖Xw − y‖²/m over ‖w‖₁ <= B to its duality "
          "gap: it is feasible and the Frank-Wolfe gap ⟨∇, w⟩ + B‖∇‖∞ (∇ = Hw − b) is <= tol; "
          "its first iterations are FISTA's (Beck-Teboulle, restarted as O'Donoghue-Candès) "
          "with the projection of Duchi et al.; fit_moments(H, b) gives the same",
          assumptions="the instances of offline_ridge (B = 0.2, 100; H singular, B = 3/2); FISTA "
          "replayed for 1 and 6 iterations on a correlated instance",
          method="the gap computed in the check from H and b; FISTA typed in the check; "
          "tolerances: tol + 64·d·u·(‖H‖‖w‖ + ‖b‖ + 1)·B for the gap, "
          "64·iterations·d·u·max(1, ‖w‖∞) for the replay", delta=0.0,
          detectable="a gap above tol plus rounding, or an iterate off by more than rounding")
def check_offline_lasso(ctx):
    """The full-information offline lasso baseline (CB11 eq. (1), p = 1; HK12 Sec. 5) against its
    certificate and its solver."""
    rows, figures = [], {}
    for name, X, y, B in _offline_instances(ctx.rng):
        H, b = _moments(X, y)
        fitted = learners.OfflineLasso(B=B).fit(X, y)
        w = np.asarray(fitted.coef_, dtype=float)
        g = H @ w - b
        gap = float(g @ w + B * np.max(np.abs(g)))
        tol = _certificate_tolerance(H, b, w)
        rows += [(f"{name}.feasible", max(0.0, float(np.abs(w).sum()) - B), 4 * _D * _U * B),
                 (f"{name}.duality_gap", gap, fitted.tol + tol * B)]
        again = learners.OfflineLasso(B=B).fit_moments(H, b, X.shape[0])
        rows.append((f"{name}.fit_moments", float(np.max(np.abs(again.coef_ - w))),
                     tol + math.sqrt(fitted.tol)))
        figures[name] = {"B": B, "l1": float(np.abs(w).sum()), "gap": gap}
    # FISTA's first iterations on a correlated instance (no convergence within 6)
    base = ctx.rng.uniform(-1, 1, (80, 1))
    X = np.clip(base + 0.05 * ctx.rng.uniform(-1, 1, (80, _D)), -1, 1) / math.sqrt(_D)
    y = np.clip(X @ np.linspace(1, -1, _D) + 0.3, -1, 1)
    H, b = _moments(X, y)
    for iterations in (1, 6):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")         # max_iter reached: expected here
            fitted = learners.OfflineLasso(B=1.0, tol=1e-300, max_iter=iterations).fit(X, y)
        want = _fista(H, b, 1.0, iterations)
        tol = 64 * iterations * _D * _U * max(1.0, float(np.max(np.abs(want))))
        rows += [(f"fista_{iterations}.iterate", float(np.max(np.abs(fitted.coef_ - want))),
                  tol),
                 (f"fista_{iterations}.n_iter", abs(fitted.n_iter_ - iterations), 0)]
    return _verdict(rows, figures)


@register("LAO.FullInformation.l1_projection",
          citation="HK12 Alg. 2; Duchi, Shalev-Shwartz, Singer and Chandra (2008) Fig. 1",
          statement="project_l1_ball (the C loop) and its NumPy twin are the Euclidean "
          "projection onto {‖w‖₁ <= B}: sign(v) max(|v| − θ, 0) with θ from the sorted |v| "
          "(v itself inside the ball)",
          assumptions="v with d = 1, 2, 3, 7, 40 entries, inside and outside the ball, with ties",
          method="Duchi et al.'s Fig. 1 typed in the check (numpy); tolerance "
          "8·d·u·max(B, max|v|)", delta=0.0,
          detectable="an entry off by more than the rounding tolerance")
def check_l1_projection(ctx):
    """The L1-ball projection of HK12 Alg. 2 against its textbook form (Duchi et al. 2008)."""
    rows, figures = [], {"cases": 0}
    cases = [(np.array([2.0]), 1.0), (np.array([0.3, -0.2]), 1.0), (np.array([3.0, -1.0]), 1.0),
             (np.array([1.0, 1.0, -1.0]), 1.5)]
    for d in (7, 40):
        for B in (0.5, 3.0):
            cases.append((ctx.rng.normal(0, 1, d), B))
    cases.append((np.repeat(ctx.rng.normal(0, 1, 5), 3), 2.0))          # ties
    # the module loads with its learners, on first use (laocheck list imports no scikit-learn)
    full_information = importlib.import_module("laocheck.learners.full_information")
    for n, (v, B) in enumerate(cases):
        want = _project_l1_textbook(v, B)
        tol = 8 * v.size * _U * max(B, float(np.max(np.abs(v))))
        rows += [(f"case{n}.project_l1_ball",
                  float(np.max(np.abs(full_information.project_l1_ball(v, B) - want))), tol),
                 (f"case{n}.reference",
                  float(np.max(np.abs(full_information._project_l1_reference(v, B) - want))),
                  tol)]
        figures["cases"] += 1
    return _verdict(rows, figures)
