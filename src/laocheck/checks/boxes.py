"""The algorithm boxes line by line: each line that defines an estimate, an objective, an update,
a projection or an output, checked for what it claims (CB11 Fig. 1, Fig. 2 and eq. (7); HK12
Alg. 1, Alg. 2; KS15 Alg. 2 line 12).

Lines whose claim is already a statement of the catalog are not repeated here: the
unbiasedness of HK12's x̃, φ̃, g̃ (``HK12.Lemma3.3.*``, ``HK12.Lemma3.8.*``), KS15's (``KS15.Eq4``,
``KS15.Lemma3.*``), CB11's A (``CB11.Lemma8.*``), 2yv (``CB11.Lemma9.*``) and Fig. 2's gradient
(``CB11.Lemma11.*``), and every box's attribute budget (``*.budget``).

Methods: exact enumeration with ``fractions.Fraction`` of one iteration of a box (the literal
transcriptions of :mod:`laocheck.reference.estimators`), exact rational counterexamples, and
the invariants of the learners' updates on seeded runs.
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import sympy as sp

from ..learners import AELR, AER, AERR
from ..reference.estimators import cb11_aer, cb11_baseline, hk12_clip
from ..stats.exact import enumerate_outcomes
from ._common import as_objects, fstr
from ._errata import note_erratum
from ._registry import Result, Status, register

__all__ = []


def _obj(values):
    return as_objects([F(v) for v in values])


# --- CB11 Fig. 1 (Baseline) --------------------------------------------------------------------

def _baseline_dist(x, y, k):
    return enumerate_outcomes(lambda src: cb11_baseline(x, y, k, src))


def _literal_objective(out, w, y):
    """Fig. 1's L̃ for one example (m = 1): wᵀAw + wᵀ(2yv) + y²."""
    d = len(w)
    A, two_y_v = out[:d], out[d]
    return (w @ A @ w) + (w @ two_y_v) + y * y


def _corrected_objective(out, seen, x, w, y, k):
    """laocheck's corrected reading (``Baseline(variant="corrected")``): off-diagonal times
    (d − 1)/d, diagonal (d/k)Σ_{c∈C} x_c², and −wᵀ(2yv)."""
    d = len(w)
    A = out[:d] * F(d - 1, d)
    for c in seen:
        A[c, c] = F(d, k) * x[c] * x[c]
    return (w @ A @ w) - (w @ out[d]) + y * y


_FIG1_CASES = [  # (x, y, w, k): d <= 4, k even <= d
    ((1, 0), 1, (1, 0), 2),
    ((1, 1), 0, (1, -1), 2),
    ((F(1, 2), -1, F(1, 3)), F(1, 2), (1, F(1, 2), -2), 2),
    ((1, F(-1, 2), F(1, 4), 1), F(-1, 3), (F(1, 2), 1, 0, -1), 2),
    ((1, F(-1, 2), F(1, 4), 1), F(1, 3), (F(1, 2), 1, 1, -1), 4),
]


@register("CB11.Fig1.v", citation="CB11 Fig. 1 (v_c = v_c + (d/k)x_c) and eq. (3)",
          statement="E[v] = x for v = (d/k)Σ_{c∈C} x_c e_c, C a uniform k-subset",
          assumptions="k <= d", method="exact enumeration (Fractions) on the listed cases",
          delta=0.0, detectable=0.0)
def check_fig1_v(ctx):
    """CB11 Fig. 1: the estimate of x is unbiased (the 2yv of Lemma 9, divided by 2y)."""
    worst = F(0)
    for x, y, _w, k in _FIG1_CASES:
        xs = _obj(x)

        def v_of(src, xs=xs, k=k):
            C = set(src.subset(len(xs), k))
            return tuple(F(len(xs), k) * xs[c] if c in C else F(0) for c in range(len(xs)))

        mean = enumerate_outcomes(v_of).expectation()
        worst = max(worst, max(abs(a - b) for a, b in zip(mean, xs)))
    return Result(Status.PASS if worst == 0 else Status.FAIL,
                  {"largest_exact_difference": str(worst), "cases": len(_FIG1_CASES)},
                  detectable=0.0)


@register("CB11.Fig1.objective", citation="CB11 Fig. 1 (Let L̃_S(w) = wᵀĀw + wᵀv̄ + ȳ) and "
          "the expansion above it", statement="L̃_S(w) = wᵀĀw + wᵀv̄ + ȳ estimates L_S(w) = "
          "(1/m)Σ(⟨w, x⟩ − y)² = wᵀXw − 2(1/m)Σ y xᵀw + ȳ (the problem (1) with the estimated "
          "values)", assumptions="k even, k <= d", method="exact enumeration (Fractions) of "
          "E[L̃_S(w)] at m = 1 on the listed cases", delta=0.0, detectable=0.0,
          expected=Status.ERRATUM, correction="CB11.Fig1.objective_corrected")
def check_fig1_objective(ctx):
    """CB11 Fig. 1: the printed objective is not an unbiased estimate of the empirical loss."""
    for x, y, w, k in _FIG1_CASES:
        xs, ws, yv = _obj(x), _obj(w), F(y)
        dist = _baseline_dist(xs, yv, k)
        mean = dist.expectation(lambda res: _literal_objective(res[0], ws, yv))
        true = (ws @ xs - yv) ** 2
        if mean != true:
            return Result(Status.ERRATUM, {"E[L̃_S(w)]": str(mean), "L_S(w)": str(true)},
                          counterexample={"m": 1, "x": fstr(xs), "y": str(yv), "w": fstr(ws),
                                          "k": k, "E[L̃_S(w)]": str(mean), "L_S(w)": str(true)},
                          correction="CB11.Fig1.objective_corrected", detectable=0.0,
                          note="Two departures: +wᵀv̄ (the expansion has −2y xᵀw: the figure "
                               "estimates the loss of −w) and Ā's zero diagonal and d/(d − 1) "
                               "off-diagonal (CB11.Lemma8.expectation).")
    return Result(Status.PASS, {"cases": len(_FIG1_CASES)}, detectable=0.0)


@register("CB11.Fig1.objective_corrected", citation="CB11 Fig. 1 (corrected reading)",
          statement="with −wᵀv̄, Ā's off-diagonal times (d − 1)/d and the diagonal "
          "(d/k)Σ_{c∈C} x_c² (Baseline(variant=\"corrected\")): E[L̃_S(w)] = L_S(w)",
          assumptions="k even, k <= d", method="exact enumeration (Fractions) on the listed cases",
          delta=0.0, detectable=0.0)
def check_fig1_objective_corrected(ctx):
    """CB11 Fig. 1, corrected: an exactly unbiased estimate of the empirical loss."""
    worst = F(0)
    for x, y, w, k in _FIG1_CASES:
        xs, ws, yv = _obj(x), _obj(w), F(y)
        dist = enumerate_outcomes(lambda src: cb11_baseline(xs, yv, k, src))
        mean = dist.expectation(lambda res: _corrected_objective(res[0], res[1], xs, ws, yv, k))
        worst = max(worst, abs(mean - (ws @ xs - yv) ** 2))
    return Result(Status.PASS if worst == 0 else Status.FAIL,
                  {"largest_exact_difference": str(worst), "cases": len(_FIG1_CASES)},
                  detectable=0.0)


@register("CB11.Fig1.convexity", citation="CB11 Sec. 5 (text before Fig. 1)",
          statement="symmetrising the estimated matrix (A_ij and A_ji) overcomes the "
          "non-convexity: the problem (1) with Fig. 1's Ā is convex",
          assumptions="k even, k <= d", method="exact: Ā has a zero diagonal on every outcome, so "
          "trace(Ā) = 0 and Ā ≠ 0 is indefinite; eigenvalues of an outcome with sympy",
          delta=0.0, detectable=0.0, expected=Status.ERRATUM,
          correction="CB11.Fig1.convexity_in_expectation")
def check_fig1_convexity(ctx):
    """CB11 Fig. 1: a symmetric Ā with zero trace is indefinite, so L̃_S is not convex."""
    xs, yv = _obj((1, 1)), F(0)
    dist = _baseline_dist(xs, yv, 2)
    A = sp.Matrix(dist.leaves[0][1][0][:2].tolist())
    eig = sorted(A.eigenvals())
    if min(eig) < 0:
        return Result(Status.ERRATUM, {"A_bar": str(A.tolist()), "eigenvalues": [str(e) for e in eig]},
                      counterexample={"d": 2, "k": 2, "m": 1, "x": [1, 1], "y": 0,
                                      "A_bar": str(A.tolist()), "eigenvalues": [str(e) for e in eig]},
                      correction="CB11.Fig1.convexity_in_expectation", detectable=0.0,
                      note="Every outcome here is the same Ā = [[0, 2], [2, 0]] (probability 1).")
    return Result(Status.PASS, {"eigenvalues": [str(e) for e in eig]}, detectable=0.0)


@register("CB11.Fig1.convexity_in_expectation", citation="CB11 Fig. 1 (corrected reading)",
          statement="the corrected Ā has E[Ā] = X = (1/m)Σ x_t x_tᵀ (positive semidefinite): the "
          "expected objective is convex; a realised Ā may still be indefinite",
          assumptions="k even, k <= d", method="exact enumeration (Fractions); a realised "
          "indefinite Ā recorded", delta=0.0, detectable=0.0)
def check_fig1_convexity_expectation(ctx):
    """CB11 Fig. 1, corrected: convex in expectation, not necessarily per sample."""
    worst, indefinite = F(0), None
    for x, y, _w, k in _FIG1_CASES:
        xs, yv = _obj(x), F(y)
        d = len(xs)

        def corrected(src):
            out, seen = cb11_baseline(xs, yv, k, src)
            A = out[:d] * F(d - 1, d)
            for c in seen:
                A[c, c] = F(d, k) * xs[c] * xs[c]
            return A

        dist = enumerate_outcomes(corrected)
        mean = dist.expectation()
        outer = np.outer(xs, xs)
        worst = max(worst, max(abs(a - b) for a, b in zip(mean.ravel(), outer.ravel())))
        for _p, A in dist:
            if indefinite is None and min(sp.Matrix(A.tolist()).eigenvals()) < 0:
                indefinite = {"x": fstr(xs), "k": k, "A": fstr(A)}
    return Result(Status.PASS if worst == 0 else Status.FAIL,
                  {"largest_exact_difference_E[A]_xxT": str(worst),
                   "a_realised_indefinite_A": indefinite}, detectable=0.0)


# --- CB11 eq. (7) and Fig. 2 (AER) ---------------------------------------------------------------

@register("CB11.Eq7.vector", citation="CB11 eq. (7)",
          statement="ŷ = (2/k)‖w‖₁ Σ_s sgn(w_{j_s}) x_{j_s} e_{j_s} estimates ⟨w, x⟩ (as printed, with "
          "e_{j_s})", assumptions="w ≠ 0, j_s ~ P, P(i) = |w_i|/‖w‖₁",
          method="exact enumeration (Fractions): E of the printed vector", delta=0.0,
          detectable=0.0, expected=Status.ERRATUM, correction="CB11.Fig2.yhat")
def check_eq7_vector(ctx):
    """CB11 eq. (7): the printed ŷ is a vector of R^d with mean w∘x, not the scalar ⟨w, x⟩."""
    w, x, k = _obj((1, F(-1, 2))), _obj((F(1, 2), 1)), 2
    d = len(w)
    norm1 = sum(abs(v) for v in w)

    def printed(src):
        out = as_objects([F(0)] * d)
        for _s in range(k // 2):
            j = src.categorical([abs(v) / norm1 for v in w])
            out[j] += F(2, k) * norm1 * (1 if w[j] > 0 else -1) * x[j]
        return out

    mean = enumerate_outcomes(printed).expectation()
    inner = w @ x
    return Result(Status.ERRATUM, {"E[ŷ] (vector)": fstr(mean), "⟨w, x⟩": str(inner)},
                  counterexample={"w": fstr(w), "x": fstr(x), "k": k, "E[ŷ]": fstr(mean),
                                  "<w, x>": str(inner)},
                  correction="CB11.Fig2.yhat", detectable=0.0,
                  note="E[ŷ] = w∘x (coordinatewise), a vector; Fig. 2's line (no e_{j_s}) is the "
                       "scalar whose mean is ⟨w, x⟩.")


@register("CB11.Fig2.yhat", citation="CB11 Fig. 2 (ŷ = ŷ + (2/k) sgn(w_i)‖w‖₁ x_i)",
          statement="E[ŷ] = ⟨w, x⟩ for Fig. 2's k/2 independent draws i ~ P (P = 1/d at w = 0)",
          assumptions="k even", method="exact enumeration (Fractions) on seeded rational "
          "instances (d <= 4, k <= 6)", delta=0.0, detectable=0.0)
def check_fig2_yhat(ctx):
    """CB11 Fig. 2: the scalar inner-product estimate is unbiased (also at w = 0)."""
    worst = F(0)
    n = ctx.n(20, 200)
    for i in range(n):
        d = int(ctx.rng.integers(1, 5))
        k = 2 * int(ctx.rng.integers(1, 4))
        w = as_objects([F(int(v), 4) for v in ctx.rng.integers(-4, 5, size=d)])
        if i == 0:
            w = as_objects([F(0)] * d)
        x = as_objects([F(int(v), 3) for v in ctx.rng.integers(-3, 4, size=d)])
        dist = enumerate_outcomes(lambda src: cb11_aer(w, x, F(0), k, src, part="residual")[0])
        worst = max(worst, abs(dist.expectation() - w @ x))
    return Result(Status.PASS if worst == 0 else Status.FAIL,
                  {"instances": n, "largest_exact_difference": str(worst)}, detectable=0.0)


def _data(rng, m, d, p):
    X = rng.uniform(-1, 1, size=(m, d))
    if p == 2:
        X /= np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None]
    return X, rng.uniform(-1, 1, size=m)


@register("CB11.Fig2.projection", citation="CB11 Fig. 2 (w = argmin_{‖u‖₁<=B}‖u − w‖, eq. (11))",
          statement="every iterate and the output w̄ satisfy ‖w‖₁ <= B",
          assumptions="‖x‖∞ <= 1, |y| <= B", method="seeded runs of laocheck.learners.AER "
          "(d = 20, k = 4, m = 2000, B in {0.1, 1, 10}, λ = 0.01 so that the projection is "
          "active); largest ‖w‖₁/B of the last iterate and "
          "of w̄ (a convex combination of iterates)", delta=0.0, detectable=0.0)
def check_fig2_projection(ctx):
    """CB11 Fig. 2: the projection (11) keeps the iterates in the L1 ball."""
    worst = 0.0
    for B in (0.1, 1.0, 10.0):
        X, y = _data(ctx.rng, ctx.n(2000, 20000), 20, np.inf)
        est = AER(k=4, B=B, lam=0.01, random_state=ctx.spawn()).fit(X, B * y)
        worst = max(worst, np.abs(est.w_).sum() / B, np.abs(est.coef_).sum() / B)
    ok = worst <= 1 + 1e-12
    return Result(Status.PASS if ok else Status.FAIL, {"largest_norm1_over_B": worst},
                  detectable="‖w‖₁ > B(1 + 1e-12)")


# --- HK12 Alg. 1, Alg. 2 ------------------------------------------------------------------------

@register("HK12.Alg1.line12", citation="HK12 Alg. 1 line 12 (w_{t+1} ← v·B/max{‖v‖, B})",
          statement="line 12 is the Euclidean projection onto {‖w‖₂ <= B}, so ‖w_t‖₂ <= B and the "
          "output ‖w̄‖₂ <= B", assumptions="B > 0",
          method="exact: for rational v, the projection's optimality condition ⟨v − p, u − p⟩ <= 0 "
          "at the ball's extreme points u = ±B e_i and at u = 0 (Fractions, exact norms where "
          "rational); seeded runs of AERR (η = 10/B, the projection active) for the invariant", delta=0.0, detectable=0.0)
def check_alg1_line12(ctx):
    """HK12 Alg. 1 line 12: the rescaling is the projection; the invariant ‖w‖₂ <= B."""
    worst = 0.0
    for B in (0.1, 1.0, 10.0):
        X, y = _data(ctx.rng, ctx.n(2000, 20000), 20, 2)
        est = AERR(k=4, B=B, eta=10.0 / B, random_state=ctx.spawn()).fit(X, B * y)
        worst = max(worst, np.linalg.norm(est.coef_) / B, np.linalg.norm(est.w_) / B)
    # optimality of p = v·B/max(‖v‖, B): ⟨v − p, u − p⟩ <= 0 for all u in the ball; with
    # p = (B/‖v‖)v, ⟨v − p, u − p⟩ = (1 − B/‖v‖)(⟨v, u⟩ − B‖v‖) <= 0 by Cauchy-Schwarz;
    # checked on (3, 4) scaled (‖v‖ = 5 rational)
    bad = 0
    for B in (F(1), F(5, 2), F(5), F(7)):
        v = as_objects([F(3), F(4)])
        nv = F(5)
        p = v * (B / max(nv, B))
        for u in ([B, 0], [-B, 0], [0, B], [0, -B], [0, 0]):
            u = as_objects(u)
            if (v - p) @ (u - p) > 0:
                bad += 1
    ok = worst <= 1 + 1e-12 and bad == 0
    return Result(Status.PASS if ok else Status.FAIL,
                  {"largest_norm2_over_B_of_AERR_last_iterate_and_output": worst, "optimality_violations": bad},
                  detectable=0.0)


@register("HK12.Alg2.line3", citation="HK12 Alg. 2 line 3 and Output (‖w̄‖₁ <= B)",
          statement="w_t = (z⁺ − z⁻)·B/(‖z⁺‖₁ + ‖z⁻‖₁) has ‖w_t‖₁ <= B for all z± > 0, so the "
          "output w̄ has ‖w̄‖₁ <= B", assumptions="B > 0, z± > 0 (lines 14-15 keep them positive)",
          method="exact (Fractions) at seeded rational z±: ‖z⁺ − z⁻‖₁ <= ‖z⁺‖₁ + ‖z⁻‖₁; seeded "
          "runs of AELR for the output", delta=0.0, detectable=0.0)
def check_alg2_line3(ctx):
    """HK12 Alg. 2 line 3: the EG± weights map into the L1 ball of radius B."""
    worst = F(0)
    for _ in range(ctx.n(200, 2000)):
        d = int(ctx.rng.integers(1, 6))
        zp = [F(int(v), 7) for v in ctx.rng.integers(1, 50, size=d)]
        zm = [F(int(v), 7) for v in ctx.rng.integers(1, 50, size=d)]
        w = [(a - b) / (sum(zp) + sum(zm)) for a, b in zip(zp, zm)]    # B = 1
        worst = max(worst, sum(abs(v) for v in w))
    run_worst = 0.0
    for B in (0.1, 1.0, 10.0):
        X, y = _data(ctx.rng, ctx.n(2000, 20000), 20, np.inf)
        est = AELR(k=4, B=B, random_state=ctx.spawn()).fit(X, B * y)
        run_worst = max(run_worst, np.abs(est.coef_).sum() / B)
    ok = worst <= 1 and run_worst <= 1 + 1e-12
    return Result(Status.PASS if ok else Status.FAIL,
                  {"largest_exact_norm1_over_B": str(worst),
                   "largest_norm1_over_B_of_AELR_output": run_worst}, detectable=0.0)


@register("HK12.Alg2.line13", citation="HK12 Alg. 2 line 13 (ḡ[i] ← clip(g̃[i], 1/η))",
          statement="clip(x, c) = max{min{x, c}, −c}: |ḡ[i]| <= 1/η, and ḡ[i] = g̃[i] when "
          "|g̃[i]| <= 1/η", assumptions="η > 0", method="exact (Fractions) on a grid",
          delta=0.0, detectable=0.0)
def check_alg2_line13(ctx):
    """HK12 Alg. 2 line 13: the clip operation."""
    bad = 0
    for eta in (F(1, 3), F(1), F(5, 2)):
        g = as_objects([F(i, 4) for i in range(-20, 21)])
        gb = hk12_clip(g, eta)
        for a, b in zip(g, gb):
            if abs(b) > 1 / eta or (abs(a) <= 1 / eta and a != b) or (abs(a) > 1 / eta and
                                                                      b != (1 / eta) * (1 if a > 0 else -1)):
                bad += 1
    return Result(Status.PASS if bad == 0 else Status.FAIL, {"violations": bad}, detectable=0.0)


# --- KS15 Alg. 2 line 12 ------------------------------------------------------------------------

@register("KS15.Alg2.line12", citation="KS15 Alg. 2 lines 11-12",
          statement="q_i = √(A[i] + 13ε/6)/Σ_j √(A[j] + 13ε/6) with ε = d log(2d/δ)/((k+1)m₁) is a "
          "probability distribution with every q_i > 0 (so x̃ of eq. (1) is defined)",
          assumptions="A >= 0 (averages of squares), d, k, m₁ >= 1, δ in (0, 1)",
          method="sympy: q_i >= √(13ε/6)/Σ_j √(A[j] + 13ε/6) > 0 and Σ q_i = 1 (symbolic d = 3)",
          delta=0.0, detectable=0.0)
def check_ks15_alg2_line12(ctx):
    """KS15 Alg. 2 line 12: the data-dependent q is a distribution with positive entries."""
    a = sp.symbols("a1:4", nonnegative=True)
    eps = sp.symbols("epsilon", positive=True)
    roots = [sp.sqrt(v + sp.Rational(13, 6) * eps) for v in a]
    q = [r / sum(roots) for r in roots]
    ok = sp.simplify(sum(q) - 1) == 0 and all(qi.is_positive for qi in q)
    return Result(Status.PASS if ok else Status.FAIL, {"sums_to_one_and_positive": bool(ok)},
                  detectable=0.0)


note_erratum(
    "CB11.Fig1.objective", where="Figure 1 (Baseline: the estimated loss)", order=(5, 0, 2),
    literal="Let L̃_S(w) = wᵀĀw + wᵀv̄ + ȳ, with v̄ = Σ_t 2y_t v_t/m; the text above the figure "
            "expands (⟨w, x⟩ − y)² = wᵀxxᵀw − 2y xᵀw + y².",
    why="“+ wᵀv̄” estimates the term +2y xᵀw, i.e. the loss of −w, and Ā's expectation is not "
        "xxᵀ (zero diagonal, off-diagonal d/(d − 1)·x_i x_j). At m = 1, d = k = 2, x = (1, 0), "
        "y = 1, w = (1, 0): L̃_S(w) = 3 on every outcome (exact), while L_S(w) = 0.",
    corrected="L̃_S(w) = wᵀĀw − wᵀv̄ + ȳ, with Ā's off-diagonal scaled by (d − 1)/d and the "
              "diagonal (d/k)Σ_{c∈C} x_c² (observed attributes only), is exactly unbiased.")

note_erratum(
    "CB11.Fig1.convexity", where="Section 5 (symmetrising Ā, before Figure 1)", order=(5, 0, 1),
    literal="Picking two indices yields a non-symmetric matrix “which will make our optimization "
            "problem with the estimated matrix non-convex. To overcome this obstacle, we "
            "symmetrize the matrix”.",
    why="Symmetric is not positive semidefinite: Fig. 1's Ā has a zero diagonal on every "
        "outcome, so trace(Ā) = 0 and any Ā ≠ 0 is indefinite. At d = k = 2, m = 1, x = (1, 1): "
        "Ā = [[0, 2], [2, 0]] with probability 1, eigenvalues −2 and 2 (exact), so the "
        "“argmin” over the L1 ball is a nonconvex problem.",
    corrected="With the corrected Ā, E[Ā] = (1/m)Σ_t x_t x_tᵀ is positive semidefinite (the "
              "expected objective is convex); a realised Ā can still be indefinite.")

note_erratum(
    "CB11.Eq7.vector", where="Section 6, eq. (7)", order=(6, 7),
    literal="ŷ = (2/k)‖w‖₁ Σ_{s=1}^{k/2} sgn(w_{j_s}) x_{j_s} e_{j_s}, “we estimate the term "
            "⟨w, x⟩” (as extracted; laocheck has one extraction of CB11, so this may be an "
            "extraction artefact).",
    why="With e_{j_s} the printed ŷ is a vector of R^d, with mean w∘x (coordinatewise products), "
        "not the scalar ⟨w, x⟩. At w = (1, −1/2), x = (1/2, 1), k = 2: E[ŷ] = (1/2, −1/2) "
        "(exact), while ⟨w, x⟩ = 0.",
    corrected="Without e_{j_s} (as in Fig. 2's line ŷ = ŷ + (2/k) sgn(w_i)‖w‖₁ x_i), "
              "E[ŷ] = ⟨w, x⟩ exactly.")
