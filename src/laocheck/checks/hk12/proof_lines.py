"""HK12: the displayed proof lines with instance-dependent truth (ids ``HK12.*``).

The helpers these checks share with the other papers' are in
:mod:`laocheck.checks._kinds.proof_lines`, which says how this kind of check works.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np

from ..._lazy import load
from .._common import worst_ratio_verdict
from .._errata import note_erratum
from .._kinds.proof_lines import (_chain_verdict, check_hk12_lemma_a2_step2, _CLIP_ASSUME,
                                  _CLIP_METHOD, _clip_step, _keep, _MW_ASSUME, _MW_METHOD,
                                  _mw_verdict, _pointwise_step, register_mw_displays, _with_doc)
from .._proofs import ProofResult
from .._registry import Status, register

# sympy is imported on first use (laocheck list imports every check module)
sp = load("sympy")

__all__ = []

for _paper, _label, _where in (("HK12", "Lemma3.7", "HK12 Lemma 3.7 (proof, App. A.4"),):
    register(f"{_paper}.{_label}.proof.step1", citation=f"{_where}, first display)",
             statement="‖E[g̃_t]‖∞² = ‖E[g̃_t]²‖∞ <= ‖E[g̃_t²]‖∞ (so ‖E g̃²‖∞ <= G² gives "
             "‖E g̃‖∞ <= G)", assumptions=_CLIP_ASSUME, method=_CLIP_METHOD, delta=0.0,
             detectable="an instance with ratio > 1 among those enumerated")(_with_doc(
        f"{_paper} {_label} (proof): ‖E g̃‖∞² <= ‖E g̃²‖∞.",
        lambda ctx: worst_ratio_verdict(_clip_step(ctx, 1, True))))
    register(f"{_paper}.{_label}.proof.step2", citation=f"{_where}, second display)",
             statement="|E[ḡ_t[i]] − E[g̃_t[i]]| <= 2η E[g̃_t[i]²] <= 2ηG² for all i, "
             "ḡ = clip(g̃, 1/η) (Lemma A.2 / B.8 with C = 1/η)", assumptions=_CLIP_ASSUME,
             method=_CLIP_METHOD, delta=0.0,
             detectable="an instance with ratio > 1 among those enumerated")(_with_doc(
        f"{_paper} {_label} (proof): the clipping gap per coordinate.",
        lambda ctx: worst_ratio_verdict(_clip_step(ctx, 2, True))))


@register("HK12.Lemma3.7.proof.step3", citation="HK12 Lemma 3.7 (proof, App. A.4, last display)",
          statement="E_t[(g̃_t − ḡ_t)ᵀ(w_t − w*)] <= 4ηBG² (‖E[g̃ − ḡ]‖∞ <= 2ηG², "
          "‖w_t − w*‖₁ <= 2B)", assumptions=_CLIP_ASSUME, method=_CLIP_METHOD, delta=0.0,
          detectable="an instance with ratio > 1 among those enumerated")
def check_hk12_lemma37_step3(ctx):
    """HK12 Lemma 3.7, proof (App. A.4): the last display, with its factor B."""
    return worst_ratio_verdict(_clip_step(ctx, 3, True))


for _paper, _label, _where in (("HK12", "LemmaA.2", "HK12 Lemma A.2 (proof, App. A.4"),):
    def _step1(ctx):
        """HK12 Lemma A.2 / KS15 Lemma B.8 (proof): the pointwise first display."""
        ok, figs = _pointwise_step(ctx)
        return ProofResult(Status.PASS if ok else Status.FAIL, figs, detectable=0.0)

    register(f"{_paper}.{_label}.proof.step1", citation=f"{_where}, first display)",
             statement="for x > C: C(x − C) <= 2(x − E[X])(x − C) <= 2(x − E[X])², when "
             "|E[X]| <= C/2", assumptions="C > 0, |E X| <= C/2",
             method="sympy: with x = C + a and E X = C/2 − t (a >= 0, 0 <= t <= C) the gaps are "
             "2a(a + t) and 2(x − E X)(C − E X), products of nonnegative factors", delta=0.0,
             detectable=0.0)(_step1)


register("HK12.LemmaA.2.proof.step2", citation="HK12 Lemma A.2 (proof, App. A.4, second display)",
          statement="E[X] − E[X̄] = ∫_{x<−C}(x + C)dμ + ∫_{x>C}(x − C)dμ <= ∫_{x>C}(x − C)dμ <= "
          "(2/C)∫_{x>C}(x − E[X])²dμ <= (2/C)Var[X]", assumptions="discrete X, 2-4 atoms, "
          "|E X| <= C/2", method="random discrete distributions (each relation of the chain "
          "evaluated; worst ratio lhs/rhs, 1 for an identity that holds)", delta=0.0,
          detectable="a distribution with ratio > 1 among those drawn")(check_hk12_lemma_a2_step2)

# the displays of the multiplicative-weights proof (shared with KS15 Lemma B.5)
register_mw_displays("HK12", "LemmaA.1", "HK12 Lemma A.1 (proof, App. A.2", "step3", "step4")


@register("HK12.LemmaA.1.proof.step2", citation="HK12 Lemma A.1 (proof, App. A.2, second "
          "display), KS15 Lemma B.5 (proof, App. B.8, second display)",
          statement="log‖z_{T+1}‖₁ = log n + Σ_t log(1 − ηp_tᵀc_t + η²p_tᵀc_t²) (as printed, an "
          "equality) <= log n − ηΣ_t p_tᵀc_t + η²Σ_t p_tᵀc_t²", assumptions=_MW_ASSUME,
          method=_MW_METHOD + "; the equality is tested to 1e-9", delta=0.0, detectable=0.0,
          expected=Status.ERRATUM, correction="HK12.LemmaA.1.proof.step2_corrected")
def check_lemma_a1_step2(ctx):
    """HK12 Lemma A.1 / KS15 Lemma B.5, proof: the first relation of the second display is an
    inequality (it follows from the first display by induction), printed as an equality."""
    return _mw_verdict(ctx, "step2_equality")


@register("HK12.LemmaA.1.proof.step2_corrected", citation="HK12 Lemma A.1 (proof, App. A.2, "
          "second display, corrected), KS15 Lemma B.5 (proof, App. B.8)",
          statement="log‖z_{T+1}‖₁ <= log n + Σ_t log(1 − ηp_tᵀc_t + η²p_tᵀc_t²) <= log n − "
          "ηΣ_t p_tᵀc_t + η²Σ_t p_tᵀc_t² (log(1 + z) <= z)", assumptions=_MW_ASSUME,
          method=_MW_METHOD, delta=0.0,
          detectable="a sequence violating the relation by more than 1e-9")
def check_lemma_a1_step2_corrected(ctx):
    """HK12 Lemma A.1 / KS15 Lemma B.5, proof: the second display with ≤."""
    return _mw_verdict(ctx, "step2_corrected")


note_erratum(
    "HK12.LemmaA.1.proof.step2", where="Lemma A.1 (proof, App. A.2: the second display; also "
    "KS15 Lemma B.5, App. B.8)", order=(10, 1, 2),
    literal="log‖z_{T+1}‖₁ = log n + Σ_t log(1 − ηp_tᵀc_t + η²p_tᵀc_t²) ≤ log n − ηΣ_t p_tᵀc_t "
            "+ η²Σ_t p_tᵀc_t².",
    why="A typo (“=” for “≤”) printed in every version (HK12's LaTeX and PDF extractions, KS15's "
        "App. B.8 copy): the text derives it “by induction” from the first display, an "
        "inequality, so the intended reading is clear; listed as a proof-step erratum because "
        "the printed relation is false. The first relation is an equality only when every c_t = 0: each factor "
        "‖z_{t+1}‖₁/‖z_t‖₁ = p_tᵀe^{−ηc_t} is bounded by 1 − ηp_tᵀc_t + η²p_tᵀc_t² (the first "
        "display), not equal to it. n = 2, T = 1, η = 1, c_1 = (1, 0): log‖z_2‖₁ = "
        "log(1 + e^{−1}) ≈ 0.313 while log 2 + log(1 − 1/2 + 1/2) = log 2 ≈ 0.693.",
    corrected="log‖z_{T+1}‖₁ ≤ log n + Σ_t log(1 − ηp_tᵀc_t + η²p_tᵀc_t²) ≤ log n − ηΣ_t p_tᵀc_t "
              "+ η²Σ_t p_tᵀc_t²: the chain's conclusion, and the lemma, hold.",
    proof_step=True)


# --- HK12 Lemma 3.6 (App. A.3) and KS15 Lemma B.7: the EG± bookkeeping ----------------------------

#: the 2 of log 2d (EG± runs over 2d experts)
_L36_TWO = 2


@register("HK12.Lemma3.6.proof.displays", citation="HK12 Lemma 3.6 (proof, App. A.3), KS15 Lemma B.7 "
          "(proof, App. B.8)",
          statement="Σ_t p_tᵀḡ′_t = Σ_t (z⁺_t, z⁻_t)ᵀ(ḡ_t, −ḡ_t)/(‖z⁺_t‖₁ + ‖z⁻_t‖₁) = (1/B)Σ_t "
          "w_tᵀḡ_t; min_i Σ_t ḡ′_t[i] = min_{‖w‖₁<=B}(1/B)Σ_t wᵀḡ_t <= (1/B)Σ_t w*ᵀḡ_t; hence "
          "Σ_t ḡ_tᵀ(w_t − w*) <= B(log 2d/η + ηΣ_t p_tᵀ(ḡ′_t)²)",
          assumptions="AELR's EG± update (HK12 Alg. 2 lines 3, 13-15) on arbitrary clipped vectors "
          "|ḡ_t[i]| <= 1/η; ‖w*‖₁ <= B; d <= 4, m <= 6",
          method="random runs (float); the identities to 1e-9, the inequalities as worst ratios; "
          "the minimum over the L1 ball by its vertices ±B e_i", delta=0.0,
          detectable="a run violating a relation by more than 1e-9")
def check_hk12_lemma36_steps(ctx):
    """HK12 Lemma 3.6 / KS15 Lemma B.7, proof: the three displays on EG± runs."""
    rng = ctx.rng
    worst = {}
    for _ in range(ctx.n(800, 8000)):
        d, m = int(rng.integers(1, 5)), int(rng.integers(1, 7))
        B, eta = float(np.exp(rng.normal())), float(np.exp(rng.normal()))
        zp, zm = np.ones(d), np.ones(d)
        lhs1 = rhs1 = quad = 0.0
        gsum = np.zeros(d)
        ws = []
        gs = rng.uniform(-1 / eta, 1 / eta, size=(m, d))
        for t in range(m):
            g = gs[t]
            w = (zp - zm) * B / (zp.sum() + zm.sum())
            zz = np.concatenate([zp, zm])
            p = zz / zz.sum()
            gp = np.concatenate([g, -g])
            lhs1 += float(p @ gp)
            rhs1 += float(w @ g) / B
            quad += float(p @ gp ** 2)
            gsum += g
            ws.append(w)
            zp, zm = zp * np.exp(-eta * g), zm * np.exp(eta * g)
        inst = {"d": d, "m": m, "B": B, "eta": eta, "g": gs.tolist()}
        wstar = rng.normal(size=d)
        wstar *= B * rng.random() / max(np.abs(wstar).sum(), 1e-300)
        min_i = float(np.min(np.concatenate([gsum, -gsum])))
        min_ball = min(float(B * s * gsum[i]) / B for i in range(d) for s in (1, -1))
        _keep(worst, "identity_p_g", abs(lhs1 - rhs1), 1e-9 * (1 + abs(rhs1)), inst)
        _keep(worst, "min_vertices", abs(min_i - min_ball), 1e-9 * (1 + abs(min_ball)), inst)
        _keep(worst, "min_le_wstar", min_ball - float(wstar @ gsum) / B + 1.0, 1.0 + 1e-12, inst)
        lhs3 = sum(float(g @ (w - wstar)) for g, w in zip(gs, ws))
        rhs3 = B * (math.log(_L36_TWO * d) / eta + eta * quad)
        _keep(worst, "regret", lhs3 - rhs3 + 1.0, 1.0 + 1e-9 * (1 + abs(rhs3)), inst)
    return _chain_verdict(worst, note="ratios of the identities are |residual| / tolerance")


# --- HK12 Lemma B.5 and Theorem B.1 (App. B.2) ---------------------------------------------------

_HK12_DELTA = F(1, 100000)


#: the 2 of the last relation (1 − δ)² >= 1 − 2δ
_B5_LAST_TWO = 2


@register("HK12.LemmaB.5.proof.chain", citation="HK12 Lemma B.5 (proof, App. B.2)",
          statement="for w with L_D(w) <= 1 − 2(1 − δ)ε: L_D(w) = (1/k)Σ_{i∈T}(1 − wᵀx_i)² = "
          "(1/k)Σ_{i∈T}(1 − 2w_ir_i + w_i²) >= 1 − (2/k)Σ_{i∈T}w_ir_i; Σ_T|w_i| >= Σ_T w_ir_i >= "
          "(1 − δ)kε = (1 − δ)/ε; (1/k)Σ_T w_i² >= ((1/k)Σ_T|w_i|)² >= (1 − δ)²ε²; Σ_T w_i² >= "
          "(1 − δ)² >= 1 − 2δ",
          assumptions="k = 1/ε² rows x_i = r_ie_i (r_i = ±1), y = 1, δ = 1/100000, ε in {1/2, 1/3, "
          "1/4}; w drawn around the direction r and kept when it meets the hypothesis",
          method="exact (Fractions) for each row", delta=0.0, detectable="any w violating a row")
def check_hk12_lemma_b5_chain(ctx):
    """HK12 Lemma B.5, proof: each displayed relation, exactly, on w meeting the hypothesis."""
    rng = ctx.rng
    worst = {}
    dl = _HK12_DELTA
    kept = 0
    for _ in range(ctx.n(300, 3000)):
        e = F(1, int(rng.integers(2, 5)))
        k = int(1 / (e * e))
        r = [int(s) for s in rng.choice([-1, 1], size=k)]
        w = [F(r[i]) * F(int(rng.integers(2, 40)), 8) * e + F(int(rng.integers(-4, 5)), 64)
             for i in range(k)]
        loss = sum((1 - w[i] * r[i]) ** 2 for i in range(k)) / k
        if loss > 1 - 2 * (1 - dl) * e:
            continue
        kept += 1
        inst = {"eps": str(e), "r": r, "w": [str(v) for v in w]}
        wr = sum(w[i] * r[i] for i in range(k))
        l1 = sum(abs(v) for v in w)
        sq = sum(v * v for v in w)
        _keep(worst, "expand", loss, sum(1 - 2 * w[i] * r[i] + w[i] ** 2 for i in range(k)) / k, inst, "=")
        _keep(worst, "drop_square", 1 - 2 * wr / k, loss, inst)
        _keep(worst, "l1_ge_wr", wr, l1, inst)
        _keep(worst, "wr_ge", (1 - dl) * k * e, wr, inst)
        _keep(worst, "cauchy_schwarz", (l1 / k) ** 2, sq / k, inst)
        _keep(worst, "mean_l1_ge", (1 - dl) ** 2 * e * e, (l1 / k) ** 2, inst)
        _keep(worst, "l2_ge", (1 - dl) ** 2, sq, inst)
        _keep(worst, "last", 1 - _B5_LAST_TWO * dl, (1 - dl) ** 2, inst)
    return _chain_verdict(worst, figures={"instances_meeting_the_hypothesis": kept})


#: the 2 of Lemma B.5's hypothesis L_D(w) <= 1 − 2(1 − δ)ε
_THMB1_TWO = 2


def _thmb1_final_gap(e, dl=None):
    """(1 − 2(1 − δ)ε) − (L_D(w*) + δε) with L_D(w*) = (1 − ε)² (Lemma B.4), exactly (δ: Lemma
    B.5's 1/100000 by default)."""
    dl = _HK12_DELTA if dl is None else dl
    return (1 - _THMB1_TWO * (1 - dl) * e) - ((1 - e) ** 2 + dl * e)


@register("HK12.ThmB.1.proof.step1", citation="HK12 Thm B.1 (proof, App. B.2, last display)",
          statement="L_D(w) <= L_D(w*) + δε <= 1 − 2(1 − δ)ε (the second relation, with "
          "L_D(w*) = (1 − ε)² of Lemma B.4 and δ = 1/100000 of Lemma B.5)",
          assumptions="ε = Ω(1/√d): HK12 Theorem B.1 (App. B), “Let ε = Ω(1/√d)”; k = 1/ε², δ = "
          "1/100000: App. B.2, “The matrix A is created as in the previous subsection with k = "
          "1/ε²” and Lemma B.5, “Let δ = 1/100000”; ε = 1/√k in (0, 1)",
          method="exact (Fractions) at ε = 1/10, 1/100, 1/1000; sympy: the gap is ε(δ − ε)",
          delta=0.0, detectable=0.0, expected=Status.ERRATUM,
          correction="HK12.ThmB.1.proof.step1_corrected")
def check_hk12_thmb1_final(ctx):
    """HK12 Thm B.1, proof: the last display needs ε <= δ = 1/100000."""
    e, dl = sp.symbols("epsilon delta", positive=True)
    gap = sp.factor(sp.expand((1 - 2 * (1 - dl) * e) - ((1 - e) ** 2 + dl * e)))
    figs = {"rhs − lhs (sympy)": str(gap)}
    for den in (10, 100, 1000):
        g = _thmb1_final_gap(F(1, den))
        if g < 0:
            lhs = (1 - F(1, den)) ** 2 + _HK12_DELTA * F(1, den)
            rhs = 1 - 2 * (1 - _HK12_DELTA) * F(1, den)
            return ProofResult(Status.ERRATUM, figs, detectable=0.0,
                               correction="HK12.ThmB.1.proof.step1_corrected",
                               counterexample={"epsilon": f"1/{den}", "k": den * den, "delta": "1/100000",
                                          "L(w*) + δε": str(lhs), "1 − 2(1 − δ)ε": str(rhs),
                                          "lhs − rhs": float(lhs - rhs)})
    return ProofResult(Status.PASS, figs, detectable=0.0)


@register("HK12.ThmB.1.proof.step1_corrected", citation="HK12 Thm B.1 (proof, App. B.2, last "
          "display, corrected)",
          statement="L_D(w*) + δε <= 1 − 2(1 − δ)ε exactly when ε <= δ (the gap is ε(δ − ε)); "
          "for ε > 2δ no ‖w‖₂ <= 1 meets Lemma B.5's hypothesis (min over the ball is (1 − ε)²)",
          assumptions="L_D(w*) = (1 − ε)², 0 < ε < 1, δ > 0",
          method="sympy: the factorisation of the gap; exact at ε = δ, δ/2, 2δ",
          delta=0.0, detectable=0.0)
def check_hk12_thmb1_final_corrected(ctx):
    """HK12 Thm B.1, proof: the last display's second relation holds iff ε <= δ."""
    e, dl = sp.symbols("epsilon delta", positive=True)
    gap = sp.expand((1 - _THMB1_TWO * (1 - dl) * e) - ((1 - e) ** 2 + dl * e))
    ok_sym = sp.simplify(gap - e * (dl - e)) == 0
    ok_pts = _thmb1_final_gap(_HK12_DELTA) == 0 and _thmb1_final_gap(_HK12_DELTA / 2) > 0 and \
        _thmb1_final_gap(2 * _HK12_DELTA) < 0
    # the least loss over ‖w‖₂ <= 1 is (1 − ε)² > 1 − 2(1 − δ)ε once ε > 2δ
    ok_empty = sp.simplify(sp.expand((1 - e) ** 2 - (1 - 2 * (1 - dl) * e)) - e * (e - 2 * dl)) == 0
    ok = ok_sym and ok_pts and ok_empty
    return ProofResult(Status.PASS if ok else Status.FAIL,
                       {"gap_is_eps(delta-eps)": ok_sym, "exact_points": ok_pts,
                        "hypothesis_empty_for_eps>2delta": ok_empty}, detectable=0.0)


note_erratum(
    "HK12.ThmB.1.proof.step1", where="Theorem B.1 (proof, App. B.2: the last display)",
    order=(11, 1, 1),
    literal="An algorithm attaining δε-approximation finds w with L_D(w) ≤ L_D(w*) + δε ≤ "
            "1 − 2(1 − δ)ε (δ = 1/100000, “where in the first inequality we used Lemma B.4”).",
    why="Printed alike in HK12's LaTeX and PDF extractions (not an extraction artefact). "
        "With L_D(w*) = (1 − ε)² (Lemma B.4), (1 − 2(1 − δ)ε) − ((1 − ε)² + δε) = ε(δ − ε), "
        "negative for every ε > δ = 10⁻⁵. At ε = 1/10 (k = 100): L_D(w*) + δε = 0.810001 while "
        "1 − 2(1 − δ)ε = 0.800002 (exact). Moreover for ε > 2δ no w with ‖w‖₂ ≤ 1 meets Lemma "
        "B.5's hypothesis at all (its least loss on the ball is (1 − ε)²).",
    corrected="The second relation holds exactly when ε ≤ δ; the argument needs δ ≥ ε (Lemma "
              "B.5 with δ of the order of ε rather than the fixed 1/100000), or an accuracy below "
              "ε(2δ − ε) with ε < 2δ.",
    proof_step=True, related=("HK12.LemmaB.5.proof.chain",))
