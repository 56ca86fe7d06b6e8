"""The algorithm boxes line by line: each line that defines an estimate, an objective, an update,
a projection or an output, checked for what it claims (CB11 Fig. 1, Fig. 2 and eq. (7); HK12
Alg. 1, Alg. 2; KS15 Alg. 2 line 12).

Lines whose claim is already a statement of the catalog are not repeated here: the
unbiasedness of HK12's x̃, φ̃, g̃ (``HK12.Lemma3.3.*``, ``HK12.Lemma3.8.*``), KS15's (``KS15.Eq4``,
``KS15.Lemma3.*``), CB11's A (``CB11.Lemma8.*``), 2yv (``CB11.Lemma9.*``) and Fig. 2's gradient
(``CB11.Lemma11.*``), and every box's attribute budget (``*.budget``).

Methods: exact enumeration with ``fractions.Fraction`` of one iteration of a box (the literal
transcriptions of :mod:`laocheck.reference.estimators`), exact rational counterexamples, and
the invariants of the learners' updates on seeded runs. HK12 Proc. 3 (lines 1/3, 4-6, 9-11, 14)
and Alg. 4 line 2 are also checked in the estimator kernels (``HK12.Proc3.*.kernel``,
``HK12.Alg4.line2.kernel``): every kernel draw is matched to an outcome of the law written
from the lines (exact) and the frequencies get a multinomial test at δ.

Power (``Result.detects``): 1.0 where numbers are compared exactly (Fractions, sympy), 1 + tol
where floats are compared within a relative tol; None where no factor applies: a property
(``CB11.Fig1.convexity``: definiteness), an undefined 0/0 (``*.line9``), an output compared
with 0 (``KS15.Alg4.line1_corrected``).
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np

from .. import estimators, learners, stats
from .._lazy import load
from ..reference import estimators as ref_est
from ..reference import learners as ref_learners
from ..reference.estimators import cb11_aer, cb11_baseline, hk12_clip
from ..stats.exact import enumerate_outcomes
from .cb11 import proofs as proofs_cb11
from .hk12 import proofs as proofs_hk12
from ._common import as_objects, categorical_detects, distinct_rows, fstr, multinomial_verdict
from ._errata import note_erratum
from ._proofs import ratio_verdict, worst_instance
from ._registry import DEFAULT_DELTA, Result, Status, register

# start-up: sympy loads on first use, when a check runs; `laocheck list` reads only the
# registrations
sp = load("sympy")

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
          assumptions="k <= d", method="exact enumeration (Fractions) of the package's Fig. 1 "
          "(laocheck.reference.estimators.cb11_baseline, row d at y = 1) on the listed cases",
          delta=0.0, detectable=0.0)
def check_fig1_v(ctx):
    """CB11 Fig. 1: the estimate of x is unbiased (the 2yv of Lemma 9, divided by 2y)."""
    worst = F(0)
    for x, y, _w, k in _FIG1_CASES:
        xs = _obj(x)

        def v_of(src, xs=xs, k=k):
            # the package's transcription of Fig. 1 (laocheck.reference.estimators.cb11_baseline)
            # at y = 1: its row d is 2y·v
            out, _seen = cb11_baseline(xs, F(1), k, src)
            return tuple(out[len(xs)] / 2)

        mean = enumerate_outcomes(v_of).expectation()
        worst = max(worst, max(abs(a - b) for a, b in zip(mean, xs)))
    return Result(Status.PASS if worst == 0 else Status.FAIL,
                  {"largest_exact_difference": str(worst), "cases": len(_FIG1_CASES)},
                  detectable=0.0, detects=1.0)


@register("CB11.Fig1.objective", citation="CB11 Fig. 1 (Let L̃_S(w) = wᵀĀw + wᵀv̄ + ȳ) and "
          "the expansion above it", statement="L̃_S(w) = wᵀĀw + wᵀv̄ + ȳ estimates L_S(w) = "
          "(1/m)Σ(⟨w, x⟩ − y)² = wᵀXw − 2(1/m)Σ y xᵀw + ȳ (the problem (1) with the estimated "
          "values)", assumptions="‖x‖∞ <= 1, |y| <= B: CB11 Sec. 3, “Throughout the paper we "
          "assume that ‖x‖∞ ≤ 1 and |y| ≤ B”; k even, 2 <= k <= d: CB11 Sec. 5, Fig. 1, “local "
          "budget k ≥ 2 (with k even)”, “Choose a set C of k entries from [d], uniformly without "
          "replacement”", method="exact enumeration (Fractions) of "
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
                               "off-diagonal (CB11.Lemma8.expectation).", detects=1.0)
    return Result(Status.PASS, {"cases": len(_FIG1_CASES)}, detectable=0.0, detects=1.0)


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
                  detectable=0.0, detects=1.0)


@register("CB11.Fig1.convexity", citation="CB11 Sec. 5 (text before Fig. 1)",
          statement="symmetrising the estimated matrix (A_ij and A_ji) overcomes the "
          "non-convexity: the problem (1) with Fig. 1's Ā is convex",
          assumptions="‖x‖∞ <= 1, |y| <= B: CB11 Sec. 3, “Throughout the paper we assume that ‖x‖∞ "
          "≤ 1 and |y| ≤ B”; k even, 2 <= k <= d: CB11 Sec. 5, Fig. 1, “local budget k ≥ 2 (with k "
          "even)”, “Choose a set C of k entries from [d], uniformly without replacement”",
          method="exact: Ā has a zero diagonal on every outcome, so "
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
                   "a_realised_indefinite_A": indefinite}, detectable=0.0, detects=1.0)


# --- CB11 eq. (7) and Fig. 2 (AER) ---------------------------------------------------------------

@register("CB11.Eq7.vector", citation="CB11 eq. (7)",
          statement="ŷ = (2/k)‖w‖₁ Σ_s sgn(w_{j_s}) x_{j_s} e_{j_s} estimates ⟨w, x⟩ (as printed, with "
          "e_{j_s})", assumptions="w ≠ 0, j_s ~ P, P(i) = |w_i|/‖w‖₁; ‖x‖∞ <= 1, |y| <= B: CB11 "
          "Sec. 3, “Throughout the paper we assume that ‖x‖∞ ≤ 1 and |y| ≤ B”; k even, k >= 2, k/2 "
          "<= d: CB11 Sec. 6, Fig. 2, “local budget k ≥ 2 (with k even)”, eq. (7), “we randomly "
          "pick j_1, …, j_{k/2} from [d] without replacement according to the distribution defined "
          "by w”",
          method="exact enumeration (Fractions): E of the printed vector", delta=0.0,
          detectable=0.0, expected=Status.ERRATUM, correction="CB11.Fig2.yhat")
def check_eq7_vector(ctx):
    """CB11 eq. (7): the printed ŷ is a vector of R^d with mean w∘x, not the scalar ⟨w, x⟩.

    The verdict is computed: ERRATUM when E[ŷ] of :func:`eq7_printed` (with the e_{j_s} of
    the print, :data:`EQ7_BASIS_VECTOR`) is not the scalar ⟨w, x⟩; read without e_{j_s} (Fig. 2's
    line) the same enumeration gives ⟨w, x⟩ and the check PASSes (its witness)."""
    w, x, k = _obj((1, F(-1, 2))), _obj((F(1, 2), 1)), 2
    mean = enumerate_outcomes(lambda src: eq7_printed(w, x, k, src)).expectation()
    inner = w @ x
    is_scalar = np.ndim(mean) == 0
    holds = is_scalar and mean == inner
    figures = {"E[ŷ]": fstr(mean), "⟨w, x⟩": str(inner), "E[ŷ] is a vector": not is_scalar}
    if holds:
        return Result(Status.PASS, figures, detectable=0.0, detects=1.0)
    return Result(Status.ERRATUM, figures,
                  counterexample={"w": fstr(w), "x": fstr(x), "k": k, "E[ŷ]": fstr(mean),
                                  "<w, x>": str(inner)},
                  correction="CB11.Fig2.yhat", detectable=0.0,
                  note="E[ŷ] = w∘x (coordinatewise), a vector; Fig. 2's line (no e_{j_s}) is the "
                       "scalar whose mean is ⟨w, x⟩.", detects=1.0)


#: CB11 eq. (7) as printed multiplies each term by the basis vector e_{j_s}; False reads the
#: line as Fig. 2 does (a scalar): the corrected statement, the witness of the ERRATUM
EQ7_BASIS_VECTOR = True


def eq7_printed(w, x, k, src):
    """CB11 eq. (7): ŷ = (2/k)‖w‖₁ Σ_{s ≤ k/2} sgn(w_{j_s}) x_{j_s} e_{j_s}, j_s ~ |w_j|/‖w‖₁
    (the vector e_{j_s} kept when :data:`EQ7_BASIS_VECTOR`)."""
    d = len(w)
    norm1 = sum(abs(v) for v in w)
    out = as_objects([F(0)] * d) if EQ7_BASIS_VECTOR else F(0)
    for _s in range(k // 2):
        j = src.categorical([abs(v) / norm1 for v in w])
        term = F(2, k) * norm1 * (1 if w[j] > 0 else -1) * x[j]
        if EQ7_BASIS_VECTOR:
            out[j] += term
        else:
            out += term
    return out


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
                  {"instances": n, "largest_exact_difference": str(worst)}, detectable=0.0,
                  detects=1.0)


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
        est = learners.AER(k=4, B=B, lam=0.01, random_state=ctx.spawn()).fit(X, B * y)
        worst = max(worst, np.abs(est.w_).sum() / B, np.abs(est.coef_).sum() / B)
    ok = worst <= 1 + 1e-12
    return Result(Status.PASS if ok else Status.FAIL, {"largest_norm1_over_B": worst},
                  detectable="‖w‖₁ > B(1 + 1e-12)", detects=1.0 + 1e-12)


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
        est = learners.AERR(k=4, B=B, eta=10.0 / B, random_state=ctx.spawn()).fit(X, B * y)
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
                  detectable=0.0, detects=1.0 + 1e-12)


@register("HK12.Alg2.line3", citation="HK12 Alg. 2 line 3 and Output (‖w̄‖₁ <= B)",
          statement="w_t = (z⁺ − z⁻)·B/(‖z⁺‖₁ + ‖z⁻‖₁) has ‖w_t‖₁ <= B for all z± > 0, so the "
          "output w̄ has ‖w̄‖₁ <= B", assumptions="B > 0, z± > 0 (lines 14-15 keep them positive)",
          method="exact (Fractions) at seeded rational z±: ‖z⁺ − z⁻‖₁ <= ‖z⁺‖₁ + ‖z⁻‖₁; seeded "
          "runs of AELR (η = 1/B: the iterates near the ball's boundary, ‖w̄‖₁ ≈ 0.9B) for the "
          "last iterate and the output", delta=0.0, detectable=0.0)
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
        est = learners.AELR(k=4, B=B, eta=1.0 / B, random_state=ctx.spawn()).fit(X, B * y)
        run_worst = max(run_worst, np.abs(est.coef_).sum() / B, np.abs(est.w_).sum() / B)
    ok = worst <= 1 and run_worst <= 1 + 1e-12
    return Result(Status.PASS if ok else Status.FAIL,
                  {"largest_exact_norm1_over_B": str(worst),
                   "largest_norm1_over_B_of_AELR_last_iterate_and_output": run_worst},
                  detectable=0.0, detects=1.0 + 1e-12)


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
    return Result(Status.PASS if bad == 0 else Status.FAIL, {"violations": bad}, detectable=0.0,
                  detects=1.0)


# --- KS15 Alg. 2 line 12 ------------------------------------------------------------------------

#: the 13/6 of KS15 Alg. 2 line 12's q_i ∝ √(A[i] + 13ε/6) (the floor that keeps every q_i > 0)
_ALG2_EPS_FLOOR = F(13, 6)


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
    roots = [sp.sqrt(v + _ALG2_EPS_FLOOR * eps) for v in a]
    q = [r / sum(roots) for r in roots]
    ok = sp.simplify(sum(q) - 1) == 0 and all(qi.is_positive for qi in q)
    return Result(Status.PASS if ok else Status.FAIL, {"sums_to_one_and_positive": bool(ok)},
                  detectable=0.0, detects=1.0)


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
            "⟨w, x⟩”.",
    why="A typo, not an extraction artefact: CB11 has one version, and an extraction does not "
        "add a symbol; eq. (7) repeats the e_{i_s} of eq. (6) just above it, while the sentence "
        "(“we estimate the term ⟨w, x⟩”) and Fig. 2 (a scalar ŷ) make the intended reading "
        "clear. With e_{j_s} the printed ŷ is a vector of R^d, with mean w∘x (coordinatewise products), "
        "not the scalar ⟨w, x⟩. At w = (1, −1/2), x = (1/2, 1), k = 2: E[ŷ] = (1/2, −1/2) "
        "(exact), while ⟨w, x⟩ = 0.",
    corrected="Without e_{j_s} (as in Fig. 2's line ŷ = ŷ + (2/k) sgn(w_i)‖w‖₁ x_i), "
              "E[ŷ] = ⟨w, x⟩ exactly.")


# --- HK12 Procedure 3 (GenEst) -------------------------------------------------------------------
#
# The reference is checked exactly here; the kernels of the estimators and learners that call
# GenEst replay the reference step by step in ``HK12.AESVR.steps_match_reference`` and
# ``HK12.Lemma4.1.unbiased_monte_carlo``; line 2 is also tested on the GenEst kernel below.

@register("HK12.Proc3.line1", citation="HK12 Proc. 3 lines 1 and 3 (N = ⌈4B²⌉; n <= 2 log₂ N)",
          statement="the reference's N is ⌈4B²⌉ and its line-3 branch takes exactly the orders "
          "n <= 2 log₂ N", assumptions="B > 0",
          method="exact: ⌈4B²⌉ from the definition on 400 rational B "
          "in (0, 20]; the reference's orders against ⌊2 log₂ N⌋ (integer arithmetic, sympy at "
          "seven N) for N = 1..1000",
          delta=0.0, detectable=0.0)
def check_proc3_line1(ctx):
    """HK12 Procedure 3 lines 1 and 3 in the reference transcription."""
    def ceil_4b2(b):                                    # ⌈4B²⌉ from its definition
        q = 4 * b * b
        n = q.numerator // q.denominator
        return n if n == q else n + 1

    def floor_2log2(N):                                 # ⌊2 log₂ N⌋: 2ⁿ <= N² < 2^{n+1}
        n = int(2 * math.log2(N))
        while 2 ** n > N * N:
            n -= 1
        while 2 ** (n + 1) <= N * N:
            n += 1
        return n

    bad_n = [str(b) for b in (F(i, 20) for i in range(1, 401))
             if ref_est.genest_sample_size(b) != ceil_4b2(b)]
    bad_nu = [N for N in range(1, 1001) if ref_est.genest_small_orders(N) != floor_2log2(N)]
    bad_nu += [N for N in (1, 2, 3, 4, 5, 100, 1000)        # sympy on a few, as a cross-check
               if ref_est.genest_small_orders(N) != int(sp.floor(2 * sp.log(N, 2)))]
    ok = not bad_n and not bad_nu
    return Result(Status.PASS if ok else Status.FAIL,
                  {"B_mismatches": len(bad_n), "N_mismatches": len(bad_nu)}, detectable=0.0,
                  counterexample=None if ok else {"B": bad_n[:3], "N": bad_nu[:3]}, detects=1.0)


@register("HK12.Proc3.line2", citation="HK12 Proc. 3 line 2 (choose n >= 0 with Pr[n] = (1/2)^{n+1})",
          statement="the order n of GenEst has Pr[n] = (1/2)^{n+1}, n >= 0, in the reference "
          "and in the kernel", assumptions="d = 1, w = (1), x = (1), y = −1, B = 1, a_n = 1 "
          "(θ̃_r = θ = 2, so φ̂ = 2^{2n+1} identifies n)",
          method="exact enumeration (Fractions) of the estimator HK12.GenEst.derivative's "
          "literal reference, orders < 12; its kernel: every draw must be 2^{2n+1} for some "
          "n < 12 or 0 (1e-9 relative), and a multinomial test at δ of the categories "
          "n = 0..5 and n >= 6 against (1/2)^{n+1}", delta=DEFAULT_DELTA,
          detectable="reported per run (multinomial test)")
def check_proc3_line2(ctx):
    """HK12 Procedure 3 line 2: the geometric order, reference (exact) and kernel (test)."""
    est = estimators.get("HK12.GenEst.derivative", coefficients=[1.0] * 12, B=1.0)
    dist = enumerate_outcomes(lambda src: est.reference([F(1)], [F(1)], F(-1), src)[0],
                              max_depth=12)
    probs = {}
    for p, v in dist:
        probs[v] = probs.get(v, F(0)) + p
    ref_ok = all(probs.get(F(2) ** (2 * n + 1), F(0)) == F(1, 2 ** (n + 1)) for n in range(12))
    n = ctx.n(20_000, 400_000)
    vals = np.asarray(est.sample(np.array([1.0]), np.array([1.0]), -1.0, n=n,
                                 rng=ctx.rng).values, dtype=float).ravel()
    orders = np.full(vals.shape, 12)                  # φ̂ = 0: an order >= 12 (a_n = 0 there)
    nz = vals != 0
    orders[nz] = np.rint((np.log2(np.maximum(np.abs(vals[nz]), 1.0)) - 1) / 2).astype(int)
    orders = np.clip(orders, 0, 12)
    written = np.where(orders < 12, 2.0 ** (2 * orders + 1), 0.0)
    impossible = int(np.sum(np.abs(vals - written) > 1e-9 * np.abs(written)))
    if impossible:
        bad = float(vals[np.abs(vals - written) > 1e-9 * np.abs(written)][0])
        return Result(Status.FAIL, {"reference_exact": ref_ok, "kernel_n": n,
                                    "impossible_kernel_draws": impossible}, detectable=0.0,
                      counterexample={"impossible_kernel_draw": bad})
    counts = np.bincount(np.minimum(orders, 6), minlength=7)
    expected = np.array([0.5 ** (j + 1) for j in range(6)] + [0.5 ** 6])
    test = stats.multinomial_test(counts, expected, delta=ctx.delta)
    ok = ref_ok and test.status == "PASS"
    return Result(Status.PASS if ok else Status.FAIL,
                  {"reference_exact": ref_ok, "kernel_n": n, "kernel_test": test.status,
                   "worst_discrepancy": float(test.worst_discrepancy)},
                  detects=categorical_detects(expected, n, ctx.delta / expected.size),
                  detectable=f"a category probability off by more than {float(test.detectable):.3g}")


def _genest_leaves(w, x, y, n, B):
    coeffs = [F(0)] * n + [F(1)]
    dist = enumerate_outcomes(lambda src: ref_est.hk12_genest(w, x, y, coeffs, B, src),
                              max_depth=n + 1)
    out = {}
    for p, (v, a) in dist:                             # the other orders give φ̂ = 0 (a_j = 0)
        if v != 0:
            out[(v, a)] = out.get((v, a), F(0)) + p
    return out


@register("HK12.Proc3.lines4-6", citation="HK12 Proc. 3 lines 4-6 and 14 (n <= 2 log₂ N)",
          statement="for n <= 2 log₂ N each θ̃_r draws one j w.p. w[j]²/‖w‖₂², observes x[j] "
          "and is ‖w‖₂²x[j]/w[j] − y; φ̂ = 2^{n+1}a_nθ̃_1···θ̃_n",
          assumptions="w ≠ 0", method="exact: the reference's outcomes (value, observed "
          "attributes) at order n = 1 (B = 1: N = 4) against those written from the lines, at "
          "w = (1/2, −1/4, 1/3), x = (1, 1/2, −1), y = 1/5", delta=0.0, detectable=0.0)
def check_proc3_lines4_6(ctx):
    """HK12 Procedure 3 lines 4-6 and 14 (one factor, single draw)."""
    w, x, y = [F(1, 2), F(-1, 4), F(1, 3)], [F(1), F(1, 2), F(-1)], F(1, 5)
    ns = sum(v * v for v in w)
    want = {}
    for j in range(3):
        key = (4 * (ns * x[j] / w[j] - y), frozenset({j}))       # 2^{1+1}·a_1·θ̃_1
        want[key] = want.get(key, F(0)) + F(1, 4) * w[j] ** 2 / ns  # Pr[n = 1] = 1/4
    got = _genest_leaves(w, x, y, 1, F(1))
    return Result(Status.PASS if got == want else Status.FAIL,
                  {"outcomes": len(want), "equal": got == want}, detectable=0.0, detects=1.0)


@register("HK12.Proc3.lines9-11", citation="HK12 Proc. 3 lines 9-11 and 14 (n > 2 log₂ N)",
          statement="for n > 2 log₂ N each θ̃_r is the mean of N i.i.d. draws ‖w‖₂²x[j_s]/w[j_s] − y, "
          "j_s ∝ w[j]², observing x[j_1..j_N]; φ̂ = 2^{n+1}a_nθ̃_1···θ̃_n",
          assumptions="w ≠ 0", method="exact: the reference's outcome distribution at order "
          "n = 3 with B = 3/5 (N = 2, 2 log₂ N = 2) against the one written from the lines "
          "(three independent means of two draws), d = 2, w = (1/2, −1/3), x = (1, 1/2), y = 1/4",
          delta=0.0, detectable=0.0)
def check_proc3_lines9_11(ctx):
    """HK12 Procedure 3 lines 9-11 and 14 (averaged factors)."""
    w, x, y = [F(1, 2), F(-1, 3)], [F(1), F(1, 2)], F(1, 4)
    ns = sum(v * v for v in w)
    p = [v * v / ns for v in w]

    def lines(src):
        prod, seen = F(1), set()
        for _r in range(3):
            js = [src.categorical(p) for _s in range(2)]
            seen.update(js)
            prod *= sum(ns * x[j] / w[j] for j in js) / 2 - y
        return 16 * prod, frozenset(seen)

    want = {}
    for q, (v, a) in enumerate_outcomes(lines):
        if v != 0:
            want[(v, a)] = want.get((v, a), F(0)) + q / 16             # Pr[n = 3] = 1/16
    got = _genest_leaves(w, x, y, 3, F(3, 5))
    return Result(Status.PASS if got == want else Status.FAIL,
                  {"outcomes": len(want), "equal": got == want}, detectable=0.0, detects=1.0)


# --- HK12 Alg. 4 (AESVR) lines 1-2 ---------------------------------------------------------------

@register("HK12.Alg4.line1", citation="HK12 Alg. 4 line 1, eq. (7)",
          statement="a_{2n} = 0 and a_{2n+1} = (2/√π)(−1)ⁿ/(n!(2n + 1)): the coefficients the "
          "reference and the kernels use", assumptions="n >= 0",
          method="exact formula (sympy, evaluated to 30 digits) against "
          "laocheck.estimators.aesvr_coefficients (the kernels') and "
          "laocheck.reference.estimators.aesvr_coefficients (the reference's; typed twice, "
          "they must also agree exactly), relative 1e-15, all 341 coefficients", delta=0.0,
          detectable="a relative difference above 1e-15")
def check_alg4_line1(ctx):
    """HK12 Alg. 4 line 1: eq. (7)."""
    a = estimators.aesvr_coefficients()
    worst = 0.0
    for m_, v in enumerate(a):
        if m_ % 2 == 0:
            exact = 0.0
        else:
            n = m_ // 2
            exact = float(sp.N(2 / sp.sqrt(sp.pi) * (-1) ** n / (sp.factorial(n) * (2 * n + 1)), 30))
        worst = max(worst, abs(float(v) - exact) / max(abs(exact), 1e-300) if exact else abs(float(v)))
    agree = bool(np.array_equal(a, ref_est.aesvr_coefficients()))
    ok = worst <= 1e-15 and agree
    return Result(Status.PASS if ok else Status.FAIL,
                  {"worst_relative_difference": worst, "coefficients": len(a),
                   "reference_and_kernels_agree": agree},
                  detectable="a relative difference above 1e-15", detects=1.0 + 1e-15)


@register("HK12.Alg4.line2", citation="HK12 Alg. 4 line 2 (x′ ← x/ε; y± ← (y ± δ)/ε; "
          "φ̃ ← ½[GenEst(w, x′, y⁺) + GenEst(w, x′, y⁻)]) and Output (‖w̄‖₂ <= B)",
          statement="E[φ̃] = ½[f′(wᵀx/ε − (y + δ)/ε) + f′(wᵀx/ε − (y − δ)/ε)] for the reference's "
          "φ̃; the AESVR learner's output has ‖w̄‖₂ <= B", assumptions="ε > 0, δ >= 0",
          method="exact enumeration (Fractions) of the reference residual per order n <= 2 of f′ "
          "on three rational instances (orders above n lumped: φ̂ = 0 there); seeded runs of "
          "laocheck.learners.AESVR (d = 10, k = 2, m = 300, B in {0.5, 2}, η = 10/B: the "
          "projection active) for the norms of the last iterate and the output",
          delta=0.0, detectable=0.0)
def check_alg4_line2(ctx):
    """HK12 Alg. 4 line 2: the smoothed residual, reference exactly, learner's output norm."""
    cases = [([F(1, 2), F(-1, 3)], [F(1, 2), F(1, 2)], F(1, 4), F(1), F(1, 2), F(1, 3)),
             ([F(1, 3)], [F(-1)], F(-1, 2), F(1, 2), F(1), F(0)),
             ([F(1, 4), F(1, 4), F(-1, 2)], [F(1, 3), F(-1, 3), F(1, 3)], F(0), F(3, 4), F(1, 2), F(2))]
    bad = []
    for w, x, y, B, eps, dl in cases:
        inst = {"w": w, "x": x, "y": y, "B": B, "eps": eps, "delta": dl, "k": 1}
        inner = sum(a * b for a, b in zip(w, x)) / eps
        for n in range(3):
            mean = proofs_hk12._aesvr_dist(inst, n, "residual").expectation()
            if mean != ((inner - (y + dl) / eps) ** n + (inner - (y - dl) / eps) ** n) / 2:
                bad.append({"n": n, "w": fstr(w), "x": fstr(x), "y": str(y)})
    worst = 0.0
    for B in (0.5, 2.0):
        X, y = _data(ctx.rng, ctx.n(300, 3000), 10, 2)
        est = learners.AESVR(k=2, B=B, eps=0.5, delta=0.1, eta=10.0 / B,
                    random_state=ctx.spawn()).fit(X, B * y)
        worst = max(worst, float(np.linalg.norm(est.coef_)) / B,
                    float(np.linalg.norm(est.w_)) / B)
    ok = not bad and worst <= 1 + 1e-12
    return Result(Status.PASS if ok else Status.FAIL,
                  {"reference_mismatches": len(bad),
                   "largest_norm2_over_B_of_last_iterate_and_output": worst},
                  counterexample=bad[0] if bad else None, detectable=0.0, detects=1.0 + 1e-12)


# --- HK12 Procedure 3 and Alg. 4 line 2 in the estimator kernels ---------------------------------
#
# The kernels (``laocheck.estimators``: ``HK12.GenEst.derivative``, ``HK12.AESVR.residual``) do
# not record their draws; on instances whose outcomes are told apart by their values (distinct
# rational θ̃ per index, a few nonzero a_n), each kernel draw is matched to the outcome written
# from the box's lines (value exact to 1e-9 relative, attributes read exactly), an impossible
# draw is a FAIL, and the frequencies are tested against the lines' exact law at δ.

_P3_W, _P3_X, _P3_Y = (F(1, 2), F(-1, 3)), (F(3, 5), F(1, 2)), F(1, 4)


def _ceil_4b2(b):
    """HK12 Proc. 3 line 1, N = ⌈4B²⌉, from its definition (exact)."""
    q = 4 * F(b) ** 2
    n = q.numerator // q.denominator
    return n if n == q else n + 1


def _proc3_written(src, w, x, y, coeffs, N):
    """One φ̂ of HK12 Procedure 3 written from its lines (orders >= len(coeffs), where
    a_n = 0, lumped: their value is 0 and their attributes are not compared)."""
    top = len(coeffs)
    n = src.categorical([F(1, 2 ** (j + 1)) for j in range(top)] + [F(1, 2 ** top)])   # line 2
    if n == top:
        return F(0), None
    ns = sum(v * v for v in w)
    p = [v * v / ns for v in w]
    small = 2 ** n <= N * N                                       # line 3: n <= 2 log₂ N
    prod, seen = F(1), set()
    for _r in range(n):
        if small:                                                 # lines 4-6
            j = src.categorical(p)
            seen.add(j)
            theta = ns * x[j] / w[j] - y
        else:                                                     # lines 9-11
            js = [src.categorical(p) for _s in range(N)]
            seen.update(js)
            theta = sum(ns * x[j] / w[j] for j in js) / N - y
        prod *= theta
    value = 2 ** (n + 1) * coeffs[n] * prod                        # line 14
    return value, (None if value == 0 else len(seen))


def _law(dist):
    out = {}
    for p, key in dist:
        out[key] = out.get(key, F(0)) + p
    return out


def _kernel_against_law(ctx, est, w, x, y, law, figures):
    """Match every kernel draw to an outcome of ``law`` ({(value, attributes or None): p}) and
    test the frequencies (multinomial, δ)."""
    keys = sorted(law, key=lambda k_: (k_[0], -1 if k_[1] is None else k_[1]))
    vals = np.array([float(k_[0]) for k_ in keys])
    atts = np.array([-1 if k_[1] is None else k_[1] for k_ in keys])
    n = ctx.n(20_000, 400_000)
    draws = est.sample(np.array([float(v) for v in w]), np.array([float(v) for v in x]),
                       float(y), n=n, rng=ctx.rng)
    got_v = np.asarray(draws.values, dtype=float).ravel()
    got_a = np.asarray(draws.attributes, dtype=np.int64).ravel()
    rows, sizes = distinct_rows(np.c_[got_v, got_a])
    counts = np.zeros(len(keys), dtype=np.int64)
    figs = {"n": n, "outcomes": len(keys), **figures}
    for r, (v, a) in enumerate(rows):
        close = np.abs(vals - v) <= 1e-9 * (1 + np.abs(vals))
        hit = np.flatnonzero(close & ((atts == a) | (atts == -1)))
        if hit.size == 0:
            return Result(Status.FAIL, figs, detectable=0.0,
                          counterexample={"impossible_kernel_draw": float(v), "attributes": int(a),
                                          "instance": {"w": fstr(w), "x": fstr(x), "y": str(y)}})
        counts[hit[0]] += int(sizes[r])
    return multinomial_verdict(ctx, counts, keys, law, n, figs)


def _smallest_factor(results):
    """The smallest ``detects`` of the cases (a violation in every case is found by the most
    sensitive one); None when no case has one."""
    found = [r.detects for r in results if r.detects is not None]
    return min(found) if found else None


def _genest_kernel_check(ctx, cases, label):
    figs, results = {}, []
    for B, coeffs in cases:
        N = _ceil_4b2(B)
        law = _law(enumerate_outcomes(_proc3_written, _P3_W, _P3_X, _P3_Y, coeffs, N))
        est = estimators.get("HK12.GenEst.derivative", coefficients=[float(a) for a in coeffs],
                             B=float(B))
        res = _kernel_against_law(ctx, est, _P3_W, _P3_X, _P3_Y, law,
                                  {"B": str(B), "N": N, "a": fstr(coeffs)})
        figs[f"B={B}"] = res.figures
        if res.status != Status.PASS:
            return Result(res.status, figs, counterexample=res.counterexample,
                          detectable=res.detectable, note=label, detects=res.detects)
        results.append(res)
    return Result(Status.PASS, figs, detectable=results[-1].detectable,
                  detects=_smallest_factor(results))


_P3_KERNEL = ("exact law of the box's lines (Fractions, enumerated; orders with a_n = 0 at and "
              "above len(a) lumped as value 0) at w = (1/2, −1/3), x = (3/5, 1/2), y = 1/4, "
              "whose θ̃ per index are distinct; every draw of the kernel (estimator "
              "HK12.GenEst.derivative) matched to an outcome (value 1e-9 relative, attributes "
              "read exactly) and a multinomial test at δ of the frequencies")


@register("HK12.Proc3.line1.kernel", citation="HK12 Proc. 3 lines 1 and 3 (N = ⌈4B²⌉; n <= "
          "2 log₂ N) in the GenEst kernel", statement="the kernel's averaged factors are means of "
          "exactly N = ⌈4B²⌉ draws, and it takes the single-draw branch exactly for n <= 2 log₂ N",
          assumptions="w ≠ 0", method=_P3_KERNEL + "; B = 1/2 (4B² = 1, N = 1, only n = 0 is "
          "'small'; a_3 = 1) and B = 7/10 (4B² = 1.96, N = 2, 2 log₂ 2 = 2: a_2 = a_3 = 1 on both "
          "sides of the threshold); a wrong N (a floor for the ceiling) or threshold gives "
          "impossible values",
          delta=DEFAULT_DELTA, detectable="an impossible draw, or a category off (figures)")
def check_proc3_line1_kernel(ctx):
    """HK12 Procedure 3 lines 1 and 3 in the kernel."""
    return _genest_kernel_check(ctx, [(F(1, 2), [F(0)] * 3 + [F(1)]),
                                      (F(7, 10), [F(0)] * 2 + [F(1), F(1)])], "line 1")


@register("HK12.Proc3.lines4-6.kernel", citation="HK12 Proc. 3 lines 2, 4-6 and 14 (n <= 2 log₂ N) "
          "in the GenEst kernel", statement="for n <= 2 log₂ N the kernel's φ̂ is 2^{n+1}a_nθ̃_1···θ̃_n "
          "with θ̃_r = ‖w‖₂²x[j]/w[j] − y, j ∝ w[j]², and reads the x[j] drawn",
          assumptions="w ≠ 0", method=_P3_KERNEL + "; B = 1 (N = 4, orders <= 4 single-draw), "
          "a = (1, −1/2, 1/3)", delta=DEFAULT_DELTA,
          detectable="an impossible draw, or a category off (figures)")
def check_proc3_lines4_6_kernel(ctx):
    """HK12 Procedure 3 lines 4-6 and 14 in the kernel."""
    return _genest_kernel_check(ctx, [(F(1), [F(1), F(-1, 2), F(1, 3)])], "lines 4-6")


@register("HK12.Proc3.lines9-11.kernel", citation="HK12 Proc. 3 lines 9-11 and 14 (n > 2 log₂ N) "
          "in the GenEst kernel", statement="for n > 2 log₂ N each of the kernel's factors is the "
          "mean of N i.i.d. ‖w‖₂²x[j_s]/w[j_s] − y, j_s ∝ w[j]², reading x[j_1..j_N]",
          assumptions="w ≠ 0", method=_P3_KERNEL + "; B = 3/5 (N = 2, 2 log₂ N = 2), a_3 = 1 "
          "(three averaged factors) and a_2 = −1 (the last single-draw order)",
          delta=DEFAULT_DELTA, detectable="an impossible draw, or a category off (figures)")
def check_proc3_lines9_11_kernel(ctx):
    """HK12 Procedure 3 lines 9-11 and 14 in the kernel."""
    return _genest_kernel_check(ctx, [(F(3, 5), [F(0), F(0), F(-1), F(1)])], "lines 9-11")


@register("HK12.Alg4.line2.kernel", citation="HK12 Alg. 4 line 2 (x′ ← x/ε; y± ← (y ± δ)/ε; "
          "φ̃ ← ½[GenEst(w, x′, y⁺) + GenEst(w, x′, y⁻)]) in the AESVR residual kernel",
          statement="the kernel's φ̃ is the mean of two independent GenEst draws on (x/ε, (y + δ)/ε) "
          "and (x/ε, (y − δ)/ε)", assumptions="ε > 0, δ >= 0, w ≠ 0",
          method="the estimator HK12.AESVR.residual with its coefficient array set to "
          "a = (1, 1/2) (line 1's eq. (7) has infinitely many orders; line 2 is linear in the "
          "a_n): every kernel draw matched by value (1e-9 relative) to the exact law of ½(φ̂⁺ + "
          "φ̂⁻) written from the lines (Fractions, orders >= 2 lumped as 0), at w = (1/2, −1/3), "
          "x = (3/5, 1/2), y = 1/4, B = 1, ε in {1/2, 2}, δ in {1/4, 0}; multinomial test at δ",
          delta=DEFAULT_DELTA, detectable="an impossible draw, or a category off (figures)")
def check_alg4_line2_kernel(ctx):
    """HK12 Alg. 4 line 2 in the AESVR residual kernel."""
    coeffs = [F(1), F(1, 2)]
    N = _ceil_4b2(1)
    figs, last, done = {}, None, []
    for eps, dl in ((F(1, 2), F(1, 4)), (F(2), F(0))):
        xs = tuple(v / eps for v in _P3_X)

        def line2(src, xs=xs, eps=eps, dl=dl):
            vp, _ = _proc3_written(src, _P3_W, xs, (_P3_Y + dl) / eps, coeffs, N)
            vm, _ = _proc3_written(src, _P3_W, xs, (_P3_Y - dl) / eps, coeffs, N)
            return (vp + vm) / 2, None

        law = _law(enumerate_outcomes(line2))
        est = estimators.get("HK12.AESVR.residual", B=1.0, eps=float(eps), delta=float(dl))
        est.coefficients = np.array([float(a) for a in coeffs])
        res = _kernel_against_law(ctx, est, _P3_W, _P3_X, _P3_Y, law,
                                  {"eps": str(eps), "delta": str(dl)})
        figs[f"eps={eps},delta={dl}"] = res.figures
        if res.status != Status.PASS:
            return Result(res.status, figs, counterexample=res.counterexample,
                          detectable=res.detectable, detects=res.detects)
        last = res
        done.append(res)
    return Result(Status.PASS, figs, detectable=last.detectable, detects=_smallest_factor(done))


# --- CB11 Fig. 2, the averaging line -------------------------------------------------------------

def _fig2_iterates(X, Y, k, B, lam, draws):
    """w_1..w_{m+1} of Fig. 2 written from eqs. (6), (7), (10), (11) with the given draws
    (per step: the subset C, then the k/2 indices i)."""
    m, d = X.shape
    w, out, it = np.zeros(d), [np.zeros(d)], iter(draws)
    for t in range(1, m + 1):
        x, y = X[t - 1], Y[t - 1]
        C = next(it)
        v = np.zeros(d)
        v[list(C)] = (2 / k) * d * x[list(C)]
        yhat = 0.0
        for _r in range(k // 2):
            i = next(it)
            yhat += (2 / k) * np.sign(w[i]) * np.abs(w).sum() * x[i]
        w = _project_l1_box((1 - 1 / t) * w - (2 / (lam * t)) * (yhat - y) * v, B)
        out.append(w.copy())
    return out


def _project_l1_box(v, B):
    a = np.abs(v)
    if a.sum() <= B:
        return v
    mu = np.sort(a)[::-1]
    cums = np.cumsum(mu)
    rho = np.nonzero(mu - (cums - B) / np.arange(1, len(mu) + 1) > 0)[0][-1]
    return np.sign(v) * np.maximum(a - (cums[rho] - B) / (rho + 1), 0.0)


class _Scripted:
    """Replays Fig. 2's draws: ``subset`` returns the next recorded C, ``categorical`` the next
    recorded index (checked possible)."""

    def __init__(self, draws):
        self._it = iter(draws)

    def subset(self, n, s):
        return tuple(next(self._it))

    def categorical(self, p):
        i = next(self._it)
        assert p[i] > 0
        return i


@register("CB11.Fig2.average", citation="CB11 Fig. 2 (w̄ = w̄ + w/m after the update; OUTPUT w̄)",
          statement="the output is w̄ = (1/m)Σ_{t=2}^{m+1} w_t, the average of the iterates after "
          "each update (not of w_1..w_m, the predictors of Thm 12's online-to-batch conversion)",
          assumptions="k even", method="exact replays: the reference (laocheck.reference."
          "learners.aer) with scripted draws against the iterates written from eqs. (6), (7), "
          "(10), (11), m = 1..3 (rounding 1e-12); the kernel (laocheck.learners.AER) at m = 1: "
          "coef_ equals its last iterate w_2 and differs from w_1 = 0", delta=0.0, detectable=0.0)
def check_fig2_average(ctx):
    """CB11 Fig. 2's averaging line: the post-update iterates are averaged."""
    X = np.array([[1.0, -0.5], [0.25, 1.0], [-1.0, 0.5]])
    Y = np.array([0.5, -1.0, 0.25])
    draws = [(0,), 1, (1,), 0, (0,), 1]            # k = 2: one C of size 1, one i per step
    worst, gap = 0.0, 0.0
    for m in (1, 2, 3):
        d_m = draws[:2 * m]
        d_m[1] = 0                                   # w_1 = 0: P uniform, any i
        its = _fig2_iterates(X[:m], Y[:m], 2, 1.0, 0.5, d_m)
        w_bar, _ = ref_learners.aer(X[:m], Y[:m], 2, 1.0, 0.5, _Scripted(d_m))
        worst = max(worst, float(np.max(np.abs(w_bar - np.mean(its[1:], axis=0)))))
        gap = max(gap, float(np.max(np.abs(w_bar - np.mean(its[:-1], axis=0)))))
    est = learners.AER(k=2, B=1.0, lam=0.5, random_state=ctx.spawn()).fit(X[:1], Y[:1])
    kernel_ok = bool(np.allclose(est.coef_, est.w_, rtol=0, atol=1e-12) and np.any(est.coef_ != 0))
    ok = worst <= 1e-12 and kernel_ok and gap > 0
    return Result(Status.PASS if ok else Status.FAIL,
                  {"largest_difference_to_avg_w2..w_m+1": worst,
                   "largest_difference_to_avg_w1..w_m": gap, "kernel_m1_coef_is_w2": kernel_ok},
                  detectable=0.0, detects=1.0 + 1e-12)


@register("CB11.Fig2.average_vs_thm12", citation="CB11 Fig. 2 and Thm 12 (proof, last paragraph)",
          statement="for Fig. 2's w̄ = (1/m)Σ_{t=2}^{m+1} w_t: L_D(w̄) <= (1/m)Σ_{t=1}^m L_D(w_t) + "
          "4B²/m, so Thm 12's conversion (about w_1..w_m) covers Fig. 2's output with 4B²/m more "
          "(absorbed in the theorem's constant c)", assumptions="‖x‖∞ <= 1, |y| <= B, "
          "‖w_t‖₁ <= B (so 0 <= L_D <= 4B²)",
          method="exact enumeration of D^m (two support points) "
          "and of every path of Fig. 2 (d = 2, k = 2, m <= 3) on seeded instances and on the "
          "instance of a grid search (ratio 7/12); worst ratio (L_D(w̄) − (1/m)Σ L_D(w_t))/(4B²/m)", delta=0.0, detectable=0.0)
def check_fig2_average_vs_thm12(ctx):
    """CB11 Fig. 2 vs Thm 12: the shifted average costs at most 4B²/m."""
    def ratio(inst):
        worst = -np.inf
        for _p, out in enumerate_outcomes(proofs_cb11._aer_batch_path, inst, inst["lam"]):
            extra = proofs_cb11._risk_d(out["avg_fig2"], inst) - float(np.mean(out["risks"]))
            # the loss range 4B² of Thm 12's last paragraph (CB11.Thm12.proof.step14)
            worst = max(worst, extra / (proofs_cb11.STEP14_RANGE * inst["B"] ** 2 / inst["m"]))
        return worst

    n = ctx.n(4, 60)
    worst = max(worst_instance(ctx.rng, n, proofs_cb11._batch_instance, ratio),
                (ratio(_FIG2_TIGHT), _FIG2_TIGHT), key=lambda pair: pair[0])
    return ratio_verdict(worst, figures={"instances": n + 1},
                         what="(L_D(w̄_Fig.2) − avg L_D(w_t))/(4B²/m)")


#: the instance of a grid search (m, λ, y, the second support point, p) with the largest ratio,
#: 7/12: both support points x = e_1 with y = ±1, p = (1/8, 7/8), λ = 0.05, m = 3 (the seeded
#: instances reach about 1/6)
_FIG2_TIGHT = {"X": np.array([[1.0, 0.0], [1.0, 0.0]]), "Y": np.array([1.0, -1.0]), "k": 2,
               "B": 1.0, "lam": 0.05, "m": 3, "d": 2, "p": [F(1, 8), F(7, 8)],
               "wstar": np.zeros(2)}


# --- HK12 Alg. 2 / KS15 Alg. 3 line 9 at w_1 = 0 -------------------------------------------------

def _w1_lasso(d):
    """w_1 of HK12 Alg. 2 / KS15 Alg. 3 from lines 1 and 3, exactly: z⁺_1 = z⁻_1 = 1_d."""
    zp = zm = [F(1)] * d
    return [(a - b) * F(1) / (sum(zp) + sum(zm)) for a, b in zip(zp, zm)]


def _line9_at_w1(ctx, *, paper):
    """HK12 Alg. 2 / KS15 Alg. 3 line 9 at t = 1: p_j = |w_1[j]|/‖w_1‖₁ with w_1 = 0 from lines
    1 and 3 is 0/0."""
    w1 = _w1_lasso(3)
    norm1 = sum(abs(v) for v in w1)
    figs = {"w_1": fstr(w1), "‖w_1‖₁": str(norm1)}
    if norm1 != 0:
        return Result(Status.PASS, figs, detectable=0.0)
    return Result(Status.ERRATUM, figs, detectable=0.0, correction=f"{paper}.line9_corrected",
                  counterexample={"t": 1, "d": 3, "z⁺_1": "1_d", "z⁻_1": "1_d", "w_1": fstr(w1),
                                  "p_j": "|w_1[j]|/‖w_1‖₁ = 0/0"},
                  note="Every run starts at w_1 = 0, so line 9 is undefined at t = 1 on every "
                       "input.")


def _line9_corrected(ctx, *, estimator):
    """HK12 Alg. 2 / KS15 Alg. 3 line 9, corrected: at w = 0, ⟨w, x⟩ = 0 is known without a
    draw, φ̃ = −y is exact and unbiased; the reference and the kernel both do this (no attribute
    read)."""
    x, y = [F(1, 2), F(-1), F(1, 4)], F(3, 10)
    w0 = [F(0)] * 3
    kind = "lasso"
    dist = enumerate_outcomes(lambda src: ref_est.ks15_residual(w0, x, y, src, kind=kind)
                              if estimator.startswith("KS15") else
                              ref_est.hk12_aelr_residual(w0, x, y, src))
    ref_ok = all(v == (-y, frozenset()) or (v[0] == -y and not v[1]) for _p, v in dist)
    est = estimators.get(estimator)
    s = est.sample(np.zeros(3), np.array([0.5, -1.0, 0.25]), 0.3, n=ctx.n(100, 1000), rng=ctx.rng)
    vals = np.asarray(s.values, dtype=float).ravel()
    kernel_ok = bool(np.all(vals == -0.3) and np.all(np.asarray(s.attributes) == 0))
    ok = ref_ok and kernel_ok
    return Result(Status.PASS if ok else Status.FAIL,
                  {"reference_phi_is_minus_y": ref_ok, "kernel_phi_is_minus_y_no_attribute": kernel_ok},
                  detectable=0.0, detects=1.0)


def _line9_corrected_named(ctx, *, estimator_name):
    """HK12 Alg. 2 / KS15 Alg. 3 line 9, corrected (the estimator named by the registration)."""
    return _line9_corrected(ctx, estimator=estimator_name)


#: The standing assumptions of HK12 Alg. 2 and KS15 Alg. 3, quoted with their places
_LINE9_ASSUME = {
    "HK12.Alg2": ("d >= 1, B > 0; ‖x‖∞ <= 1, |y| <= B: HK12 Thm 3.4, “Assume the distribution "
                  "D is such that ‖x‖∞ ≤ 1 and |y| ≤ B with probability 1”; z⁺_1 = z⁻_1 = 1_d: "
                  "HK12 Alg. 2, line 1"),
    "KS15.Alg3": ("d >= 1, B > 0; ‖x‖∞ <= 1, |y| <= B: KS15 Sec. 4, Thm 4.1, “Assume the "
                  "distribution D is such that ‖x‖∞ ≤ 1 and |y| < B with probability 1”; "
                  "z⁺_1 = z⁻_1 = 1_d: KS15 App. A.3, Alg. 3, line 1"),
}

for _paper, _cite, _est in (("HK12.Alg2", "HK12 Alg. 2 lines 1, 3 and 9", "HK12.AELR.residual"),
                            ("KS15.Alg3", "KS15 Alg. 3 lines 1, 3 and 9", "KS15.GAELR.residual")):
    register(f"{_paper}.line9", citation=_cite,
             statement="choose j_t w.p. |w_t[j]|/‖w_t‖₁ (line 9) is defined at every t, with "
             "z⁺_1 = z⁻_1 = 1_d (line 1) and w_t from line 3", assumptions=_LINE9_ASSUME[_paper],
             method="exact (Fractions): w_1 from lines 1 and 3", delta=0.0, detectable=0.0,
             expected=Status.ERRATUM, correction=f"{_paper}.line9_corrected", paper=_paper)(_line9_at_w1)
    register(f"{_paper}.line9_corrected", citation=_cite + " (laocheck's reading at w_t = 0)",
             statement="at w_t = 0 no j is drawn and φ̃_t = −y_t (⟨w_t, x_t⟩ = 0 is known), which is "
             "exactly unbiased; the reference and the kernel read no attribute there",
             assumptions="w_t = 0", method="exact enumeration of the reference; the kernel's "
             "draws (all equal to −y, no attribute)", delta=0.0, detectable=0.0,
             estimator_name=_est)(_line9_corrected_named)


# --- KS15 Alg. 1 (GAERR), Alg. 3 (GAELR), Alg. 4 (Two-Phased DDAELR) ----------------------------
#
# Lines 3-10 of Alg. 1 and 4-11 of Alg. 3 (x̃, φ̃, g̃ unbiased) are the estimator checks
# KS15.GAERR.*.unbiased.exact and KS15.GAELR.*.unbiased.exact; the kernels replay the
# reference learners step by step in KS15.*.steps_match_reference.

class _Uniform:
    """Scripted indices for uniform_int / categorical (a replay of chosen draws)."""

    def __init__(self, draws):
        self._it = iter(draws)

    def uniform_int(self, n):
        return next(self._it)

    def categorical(self, p):
        i = next(self._it)
        assert p[i] > 0
        return i


@register("KS15.Alg1.line12", citation="KS15 Alg. 1 lines 11-12 and 14 (w_{t+1} ← v_t·B/"
          "max{‖v_t‖₂, B}; w̄ ← (1/m)Σ_{t=1}^m w_t)",
          statement="line 12 keeps ‖w_t‖₂ <= B (the full version prints w̃_{t+1}, the conference version w_{t+1}); the "
          "output is the average of w_1..w_m", assumptions="B > 0, ‖w_1‖₂ <= B",
          method="the reference GAERR on a scripted replay (d = 2, k = 1, m = 3, q = (1/4, 3/4)) "
          "against lines 4-14 written out; seeded runs of laocheck.learners.GAERR (η = 10/B, "
          "the projection active) for ‖w_t‖₂ <= B and ‖w̄‖₂ <= B", delta=0.0, detectable=0.0)
def check_ks15_alg1_line12(ctx):
    """KS15 Alg. 1 lines 12 and 14, reference (replay) and kernel (invariant)."""
    X = np.array([[1.0, -0.5], [0.25, 1.0], [-1.0, 0.5]])
    Y = np.array([0.5, -1.0, 0.25])
    q, B, eta, k = np.array([0.25, 0.75]), 1.0, 3.0, 1
    w1 = np.array([0.6, -0.8])
    draws = [1, 0, 0, 1, 1, 0]                        # per step: i (line 4), then j (line 8)
    w, its = w1.copy(), []
    it = iter(draws)
    for t in range(3):
        its.append(w.copy())
        i = next(it)
        xt = np.zeros(2)
        xt[i] = X[t, i] / q[i]
        j = next(it)
        p = w * w / (w @ w)
        phi = w[j] / p[j] * X[t, j] - Y[t]
        v = w - eta * phi * xt
        w = v * B / max(np.linalg.norm(v), B)
    w_bar, _ = ref_learners.gaerr(X, Y, k, B, eta, w1, _Uniform(draws), q=q)
    ref_diff = float(np.max(np.abs(w_bar - np.mean(its, axis=0))))
    worst = 0.0
    for Bv in (0.1, 1.0, 10.0):
        Xr, yr = _data(ctx.rng, ctx.n(2000, 20000), 20, 2)
        est = learners.GAERR(k=4, B=Bv, eta=10.0 / Bv, random_state=ctx.spawn()).fit(Xr, Bv * yr)
        worst = max(worst, np.linalg.norm(est.coef_) / Bv, np.linalg.norm(est.w_) / Bv)
    ok = ref_diff <= 1e-12 and worst <= 1 + 1e-12
    return Result(Status.PASS if ok else Status.FAIL,
                  {"reference_vs_lines": ref_diff, "largest_norm2_over_B": float(worst)},
                  detectable=0.0, detects=1.0 + 1e-12)


@register("KS15.Alg3.lines13-15", citation="KS15 Alg. 3 lines 3, 13-15 and 18 (EG± with clipped "
          "gradients; w̄ ← (1/m)Σ w_t)", statement="z⁺[i] ← z⁺[i]exp(−ηḡ[i]), z⁻[i] ← "
          "z⁻[i]exp(+ηḡ[i]) with ḡ = clip(g̃, 1/η) keep z± > 0, so every w_t of line 3 and the "
          "output have ‖·‖₁ <= B; the output is the average of w_1..w_m",
          assumptions="B, η > 0", method="the reference GAELR on a scripted replay (d = 2, k = 1, "
          "m = 3, q = (1/4, 3/4), η = 2: clipped coordinates) against lines 3-18 written "
          "out; seeded runs of laocheck.learners.GAELR for ‖w̄‖₁ <= B", delta=0.0, detectable=0.0)
def check_ks15_alg3_lines13_15(ctx):
    """KS15 Alg. 3 lines 13-15 and 18, reference (replay) and kernel (invariant)."""
    X = np.array([[1.0, -0.5], [0.25, 1.0], [-1.0, 0.5]])
    Y = np.array([0.5, -1.0, 0.25])
    q, B, eta, k = np.array([0.25, 0.75]), 1.0, 2.0, 1
    draws = [1, 0, 1, 1, 0]                           # t = 1: i only (w_1 = 0); then i, j
    zp, zm, its, clipped = np.ones(2), np.ones(2), [], 0
    it = iter(draws)
    for t in range(3):
        w = (zp - zm) * B / (zp.sum() + zm.sum())
        its.append(w)
        i = next(it)
        xt = np.zeros(2)
        xt[i] = X[t, i] / q[i]
        n1 = np.abs(w).sum()
        if n1 > 0:
            j = next(it)
            phi = w[j] / (abs(w[j]) / n1) * X[t, j] - Y[t]
        else:
            phi = -Y[t]
        g = phi * xt
        gb = np.clip(g, -1 / eta, 1 / eta)
        clipped += int(np.any(gb != g))
        zp, zm = zp * np.exp(-eta * gb), zm * np.exp(eta * gb)
    w_bar, _ = ref_learners.gaelr(X, Y, k, B, eta, _Uniform(draws), q=q)
    ref_diff = float(np.max(np.abs(w_bar - np.mean(its, axis=0))))
    worst = 0.0
    for Bv in (0.1, 1.0, 10.0):
        Xr, yr = _data(ctx.rng, ctx.n(2000, 20000), 20, np.inf)
        est = learners.GAELR(k=4, B=Bv, random_state=ctx.spawn()).fit(Xr, Bv * yr)
        worst = max(worst, np.abs(est.coef_).sum() / Bv)
    ok = ref_diff <= 1e-12 and worst <= 1 + 1e-12 and clipped > 0 and bool(np.all(zp > 0))
    return Result(Status.PASS if ok else Status.FAIL,
                  {"reference_vs_lines": ref_diff, "steps_with_clipping": clipped,
                   "largest_norm1_over_B": float(worst)}, detectable=0.0, detects=1.0 + 1e-12)


@register("KS15.Alg4.lines2-12", citation="KS15 Alg. 4 lines 2-12 (phase 1: A[i] the mean of "
          "the observed x_t[i]²; ε ← min(d log(2d/δ)/((k+1)m₁), 1); q_i ∝ A[i] + 13ε/6)",
          statement="A[i] = square_sums[i]/counts[i] over the k + 1 uniform draws of each of the "
          "first m₁ examples (0 when never drawn); ε and q as printed, in the reference and in "
          "the learner", assumptions="δ in (0, 1), m₁ >= 1",
          method="the reference phase 1 on a scripted replay (d = 3, k = 1, m₁ = 3) against the "
          "lines written out (Fractions for A); ε and q of the reference formula and of "
          "laocheck.learners.TwoPhaseDDAELR (its moments_, eps_, q_) on a seeded run, rounding "
          "1e-12", delta=0.0, detectable=0.0)
def check_ks15_alg4_lines2_12(ctx):
    """KS15 Alg. 4 lines 2-12: the first phase and the second phase's q."""
    X = np.array([[0.5, -1.0, 0.25], [1.0, 0.5, -0.5], [-0.25, 0.75, 1.0]])
    draws = [0, 1, 0, 0, 2, 2]                        # (k + 1) = 2 uniform draws per example
    counts, sums = [0] * 3, [F(0)] * 3
    it = iter(draws)
    for t in range(3):
        for _r in range(2):
            i = next(it)
            counts[i] += 1
            sums[i] += F(X[t, i]) ** 2
    A_lines = [s / c if c else F(0) for s, c in zip(sums, counts)]
    A_ref, _ = ref_learners._phase1_moments(X, 1, 3, _Uniform(draws))
    a_diff = max(abs(float(a) - b) for a, b in zip(A_lines, A_ref))
    # the learner: ε and q from its own phase 1
    d, k, m1, dl = 5, 2, 40, 0.1
    Xr, yr = _data(ctx.rng, 200, d, np.inf)
    est = learners.TwoPhaseDDAELR(k=k, B=1.0, m1=m1, delta=dl, random_state=ctx.spawn()).fit(Xr, yr)
    eps = min(d * math.log(2 * d / dl) / ((k + 1) * m1), 1.0)
    q = (est.moments_ + 13 / 6 * eps) / np.sum(est.moments_ + 13 / 6 * eps)
    e_diff = abs(est.eps_ - eps)
    q_diff = float(np.max(np.abs(est.q_ - q)))
    ok = a_diff <= 1e-15 and e_diff <= 1e-12 * eps and q_diff <= 1e-12
    return Result(Status.PASS if ok else Status.FAIL,
                  {"A_reference_vs_lines": a_diff, "eps_learner_vs_line11": e_diff,
                   "q_learner_vs_line12": q_diff, "eps": eps}, detectable=0.0, detects=1.0 + 1e-12)


@register("KS15.Alg4.line1", citation="KS15 Alg. 4 line 1 (Initialize w_1 ≠ 0, ‖w_1‖₂ <= B "
          "arbitrarily) and line 12 (run GAELR)", statement="line 1's w_1 (any w_1 ≠ 0 with "
          "‖w_1‖₂ <= B) is vacuous: the second phase (line 12, GAELR) starts from GAELR's own "
          "w_1 = 0, so Algorithm 4's output does not depend on it",
          assumptions="as printed: w_1 ≠ 0, ‖w_1‖₂ <= B arbitrary",
          method="exact (Fractions): GAELR's first iterate from its lines 1 and 3 (z± = 1_d) is 0 "
          "for d = 1..5; and laocheck.learners.TwoPhaseDDAELR (theory variant) fitted with the "
          "same seed from two admissible initial points (line 1's w_1: B/2·e_1 and −B/3·1_d/√d) "
          "gives the same output bit for bit", delta=0.0, detectable=0.0,
          correction=None)
def check_ks15_alg4_line1(ctx):
    """KS15 Alg. 4 line 1: a line of Alg. 2 that Alg. 4's second phase does not use.

    An earlier version reported the line as an erratum (“the second phase's w_1 is 0, not
    ≠ 0”); an initialisation nothing reads is vacuous, not false (see the withdrawn entry of
    ERRATA.md)."""
    firsts = {d: _w1_lasso(d) for d in range(1, 6)}
    figs = {"GAELR_first_iterate_d3": fstr(firsts[3])}
    nonzero = [d for d, w in firsts.items() if any(w)]
    if nonzero:
        d = nonzero[0]
        return Result(Status.FAIL, figs, detectable=0.0, counterexample={
            "d": d, "first iterate of GAELR (Alg. 3 lines 1, 3)": fstr(firsts[d])}, detects=1.0)
    d, B = 4, 1.0
    Xr, yr = _data(ctx.rng, 40, d, np.inf)
    seed = ctx.spawn()
    outs = []
    for initial in (np.eye(d)[0] * B / 2, -np.ones(d) * B / (3 * math.sqrt(d))):
        est = learners.TwoPhaseDDAELR(k=1, B=B, m1=10, delta=0.5, initial=initial,
                                      random_state=np.random.SeedSequence(seed.entropy,
                                                                          spawn_key=seed.spawn_key))
        outs.append(np.array(est.fit(Xr, yr).coef_, copy=True))
    figs["max_output_difference"] = float(np.max(np.abs(outs[0] - outs[1])))
    if not np.array_equal(outs[0], outs[1]):
        return Result(Status.FAIL, figs, detectable=0.0, counterexample={
            "initial_points": ["B/2·e_1", "−B/3·1_d/√d"], "outputs": [o.tolist() for o in outs]},
            note="the learner's second phase depends on line 1's w_1", detects=1.0)
    return Result(Status.PASS, figs, detectable=0.0, detects=1.0)


@register("KS15.Alg4.line1_corrected", citation="KS15 Alg. 4 (corrected reading)",
          statement="the second phase's first iterate is GAELR's w_1 = 0 (z± = 1_d)",
          assumptions="m₂ = 1", method="the learner laocheck.learners.TwoPhaseDDAELR with one "
          "second-phase example: its output (the average of w_1 alone) is exactly 0",
          delta=0.0, detectable=0.0)
def check_ks15_alg4_line1_corrected(ctx):
    """KS15 Alg. 4, corrected: the second phase starts at 0."""
    Xr, yr = _data(ctx.rng, 6, 3, np.inf)
    est = learners.TwoPhaseDDAELR(k=1, B=1.0, m1=5, delta=0.5, random_state=ctx.spawn()).fit(Xr, yr)
    ok = bool(np.all(est.coef_ == 0))
    return Result(Status.PASS if ok else Status.FAIL, {"output_with_m2_1": est.coef_.tolist()},
                  detectable=0.0)


for _paper, _where, _order in (("HK12.Alg2", "Algorithm 2 (AELR), line 9 at t = 1", (3, 4, 9)),
                               ("KS15.Alg3", "Algorithm 3 (GAELR), line 9 at t = 1", (4, 0, 9))):
    note_erratum(
        f"{_paper}.line9", where=_where, order=_order,
        literal="1: Initialize z⁺_1 ← 1_d, z⁻_1 ← 1_d; 3: w_t ← (z⁺_t − z⁻_t)B/(‖z⁺_t‖₁ + "
                "‖z⁻_t‖₁); 9: choose j_t ∈ [d] with probability |w_t[j]|/‖w_t‖₁.",
        why="Lines 1 and 3 give w_1 = 0 on every input, so line 9's distribution is 0/0 at t = 1 "
            "(exact).",
        corrected="At w_t = 0 the inner product is 0 without a draw: φ̃_t = −y_t (no attribute "
                  "read) is exactly unbiased; laocheck's reference and kernels do this.")

note_erratum(
    "KS15.Alg4.line1", where="Algorithm 4 (Two-Phased DDAELR), line 1", order=(4, 0, 41),
    kind="withdrawn", assumption="none beyond the box: line 1 itself says “Initialize w_1 ≠ 0, "
    "‖w_1‖₂ ≤ B arbitrarily” (KS15 App. A.3, Algorithm 4), and lines 2-12 never read that w_1",
    literal="1: Initialize w_1 ≠ 0, ‖w_1‖₂ ≤ B arbitrarily (then line 12: run GAELR on the next "
            "m₂ examples).",
    why="Listed as an erratum because GAELR (Algorithm 3, run by line 12) starts from "
        "z⁺_1 = z⁻_1 = 1_d, i.e. from w_1 = 0, not from line 1's w_1 ≠ 0. That makes line 1 "
        "unused (a line of Algorithm 2 left in the box), not false: no line reads its w_1, and "
        "the output is the same whatever w_1 it chose (the check fits the learner from two "
        "such w_1 and compares the outputs bit for bit).",
    corrected="The second phase starts at GAELR's w_1 = 0 (checked on the learner: "
              "KS15.Alg4.line1_corrected); line 1 can be dropped without changing the algorithm.",
    related=("KS15.Alg4.line1_corrected",))
