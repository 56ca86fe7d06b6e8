"""KS15: the algorithm boxes (procedures, algorithms and figures, line by line; ids ``KS15.*``).

The helpers these checks share with the other papers' are in
:mod:`laocheck.checks._kinds.boxes`, which says how this kind of check works.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np

from ... import learners
from ..._lazy import load
from ...reference import learners as ref_learners
from .._common import fstr
from .._errata import note_erratum
from .._kinds.boxes import _data, _LINE9_ASSUME, _line9_at_w1, _line9_corrected_named, _w1_lasso
from .._registry import Result, Status, register

# sympy is imported on first use (laocheck list imports every check module)
sp = load("sympy")

__all__ = []


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

for _paper, _cite, _est in (("KS15.Alg3", "KS15 Alg. 3 lines 1, 3 and 9", "KS15.GAELR.residual"),):
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


for _paper, _where, _order in (("KS15.Alg3", "Algorithm 3 (GAELR), line 9 at t = 1", (4, 0, 9)),):
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
