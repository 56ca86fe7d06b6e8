"""CB11: the constants of the text (the prose around the statements) (ids ``CB11.*``).

The helpers these checks share with the other papers' are in
:mod:`laocheck.checks._kinds.text_constants`, which says how this kind of check works.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ... import bounds
from ..._lazy import load
from ...reference.estimators import cb11_aer
from ...stats.exact import enumerate_outcomes
from .._kinds.text_constants import ORDER_CLAIM, _verdict
from .._proofs import sympy_zero
from .._registry import register

# sympy is imported on first use (laocheck list imports every check module)
sp = load("sympy")

__all__ = []


#: the power of d in the text's λ for dense comparators, λ = d^{3/2}√(log(m)/(km))
CB11_DENSE_LAMBDA_D_POWER = Fraction(3, 2)


@register("CB11.Thm12.text_dense", citation="CB11 Sec. 6 (after Thm 12: dense w*)",
          statement="with ‖w*‖₂ <= B/√d and λ = d^{3/2}√(log(m)/(km)), the proof's "
          "(1/m)(128(dB)²/(λk) ln m + m(λ/2)‖w*‖²) is of the form cB²√((d/(km)) ln m)",
          assumptions="m >= 2", method="sympy: the ratio is the constant 257/2",
          delta=0.0, detectable=0.0)
def check_cb11_text_dense(ctx):
    """CB11 Sec. 6: AER's rate for dense comparators."""
    d, k, m, B = sp.symbols("d k m B", positive=True)
    lam_d = d ** CB11_DENSE_LAMBDA_D_POWER * sp.sqrt(sp.log(m) / (k * m))
    val = (128 * (d * B) ** 2 / (lam_d * k) * sp.log(m) + m * lam_d / 2 * B ** 2 / d) / m
    ratio = sp.simplify(val / (B ** 2 * sp.sqrt(d / (k * m) * sp.log(m))))
    ok = ratio.free_symbols == set()
    return _verdict(ok, {"constant": str(ratio)})


@register("CB11.Thm12.text_constant16", citation="CB11 Thm 12 (proof, λ = 16d√(log(m)/(km)))",
          statement="λ = 16d√(log(m)/(km)) minimises 128(dB)²ln m/(λk) + mλB²/2, and the "
          "minimum is 16dB²√((m/k) ln m)", assumptions="m >= 2", method="sympy on the formulas of "
          "laocheck.bounds (CB11.Thm12.regret, CB11.Thm12.lambda_proof, m·CB11.Thm12."
          "bound_expectation)",
          delta=0.0, detectable=0.0)
def check_cb11_text_16(ctx):
    """CB11 Thm 12, proof: the text's choice of λ is the minimiser."""
    m = sp.Symbol("m", positive=True)
    F = bounds.FORMULAS
    lam_ = bounds.SYMBOLS["lam"]
    f = F["CB11.Thm12.regret"].expr                    # 128(dB)² ln m/(λk) + mλB²/2
    lam16 = F["CB11.Thm12.lambda_proof"].expr          # 16d√(log(m)/(km))
    ok = sympy_zero(sp.diff(f, lam_).subs(lam_, lam16)) and \
        sympy_zero(f.subs(lam_, lam16) - m * F["CB11.Thm12.bound_expectation"].expr)
    return _verdict(ok, {"minimiser_and_value": ok})


# --- CB11 Sec. 6 (after Thm 12) -----------------------------------------------------------------

def _cb11_bound(key, lm=None, ld=None):
    """The formula ``key`` of :mod:`laocheck.bounds` with ln(m/δ) written ``lm`` and ln(d/δ)
    written ``ld`` (symbols, so that sympy solves for m in the rest)."""
    S = bounds.SYMBOLS
    expr = bounds.FORMULAS[key].expr
    if lm is not None:
        expr = expr.subs(sp.log(S["m"] / S["delta"]), lm)
    if ld is not None:
        expr = expr.subs(sp.log(S["d"] / S["delta"]), ld)
    return expr


@register("CB11.Thm12.text_examples_ratio", citation="CB11 Sec. 6 (after Thm 12: “AER needs a "
          "factor of d²/k more examples than the full information Lasso … the ratio between the "
          "total number of attributes … is O(d)”; dense w*: “only a factor d/k”, same attributes)",
          statement="solving Thm 12's cdB²√(ln(m/δ)/(km)) = ε and eq. (2)'s cB²√(ln(d/δ)/m) = ε "
          "for m: the ratio is (d²/k)·ln(m/δ)/ln(d/δ) (d²/k up to logarithms); attributes "
          "k·m_AER / (d·m_Lasso) = d up to logarithms; dense w*: d/k and 1",
          assumptions="the same constant c in both bounds (as the text's comparison takes it)",
          method="sympy: solve for m and take the ratios", delta=0.0, detectable=0.0)
def check_cb11_text_examples(ctx):
    """CB11 Sec. 6: sample and attribute ratios of AER against Lasso."""
    d, k, m, B = sp.symbols("d k m B", positive=True)
    e, lm, ld = sp.symbols("epsilon l_m l_d", positive=True)   # l_m = ln(m/δ), l_d = ln(d/δ)
    c = bounds.SYMBOLS["c"]
    m_aer = sp.solve(sp.Eq(_cb11_bound("CB11.Thm12.bound", lm=lm), e), m)[0]
    m_lasso = sp.solve(sp.Eq(c * B ** 2 * sp.sqrt(ld / m), e), m)[0]
    m_dense = sp.solve(sp.Eq(c * B ** 2 * sp.sqrt(d * lm / (k * m)), e), m)[0]
    r1 = sp.simplify(m_aer / m_lasso)
    r2 = sp.simplify(k * m_aer / (d * m_lasso))
    r3 = sp.simplify(m_dense / m_lasso)
    r4 = sp.simplify(k * m_dense / (d * m_lasso))
    ok = sympy_zero(r1 - d ** 2 / k * lm / ld) and sympy_zero(r2 - d * lm / ld) and \
        sympy_zero(r3 - d / k * lm / ld) and sympy_zero(r4 - lm / ld)
    return _verdict(ok, {"examples": str(r1), "attributes": str(r2), "dense_examples": str(r3),
                         "dense_attributes": str(r4)})


# --- CB11 Sec. 6 (AER and Thm 12) ---------------------------------------------------------------

#: the factor of λ‖w‖² in CB11 eq. (12), f(w) = (λ/2)‖w‖² + 2(ŷ − y)⟨v, w⟩
CB11_EQ12_HALF = Fraction(1, 2)


@register("CB11.Sec6.text_pegasos_update", citation="CB11 Sec. 6 (“w <- w − (1/(λt))∇g(w). This "
          "can be rewritten as w <- (1 − 1/t)w − (1/(λt))∇ℓ(w)”; “the right-hand side of (10) is "
          "w − (1/(λt))∇f for the function f(w) = (λ/2)‖w‖² + 2(ŷ − y)⟨v, w⟩ (12)”)",
          statement="w − (1/(λt))(λw + ∇ℓ(w)) = (1 − 1/t)w − (1/(λt))∇ℓ(w), and the right-hand side "
          "of (10), (1 − 1/t)w − (1/(λt))2(ŷ − y)v, is w − (1/(λt))∇f(w) for f of (12)",
          assumptions="λ > 0, t >= 1", method="sympy (d = 3 symbolic coordinates; ∇f by "
          "differentiation of (12))", delta=0.0, detectable=0.0)
def check_cb11_text_pegasos(ctx):
    """CB11 Sec. 6: the two rewritings of the Pegasos step."""
    lam = sp.Symbol("lambda", positive=True)
    t, yh, yy = sp.symbols("t yhat y", real=True)
    w = sp.Matrix(sp.symbols("w1:4", real=True))
    v = sp.Matrix(sp.symbols("v1:4", real=True))
    gl = sp.Matrix(sp.symbols("g1:4", real=True))                   # ∇ℓ(w), any vector
    ok1 = (w - (lam * w + gl) / (lam * t) - ((1 - 1 / t) * w - gl / (lam * t))).applyfunc(
        sp.simplify) == sp.zeros(3, 1)
    f = CB11_EQ12_HALF * lam * (w.T * w)[0] + 2 * (yh - yy) * (v.T * w)[0]
    grad = sp.Matrix([sp.diff(f, wi) for wi in w])
    ok2 = ((1 - 1 / t) * w - 2 * (yh - yy) * v / (lam * t) - (w - grad / (lam * t))).applyfunc(
        sp.simplify) == sp.zeros(3, 1)
    return _verdict(ok1 and ok2, {"pegasos_rewriting": ok1, "eq10_is_gradient_step_of_eq12": ok2})


@register("CB11.Sec6.text_gradient_magnitude", citation="CB11 Sec. 6 (“the magnitude of each "
          "element of the gradient estimate is order of d‖w‖₁”)",
          statement="every entry of ∇̃ℓ(w) = 2(ŷ − y)v (eq. (6)-(8), Fig. 2) is at most "
          "(4d/k)(‖w‖₁ + |y|) in absolute value, and the bound is attained",
          assumptions="‖x‖∞ <= 1, k even", method="exact enumeration (Fractions) of every draw of "
          "the literal Fig. 2 estimate (laocheck.reference.estimators.cb11_aer) on seeded "
          "rational instances, d <= 4, k in {2, 4}; worst ratio, and equality at x = (1, …, 1), "
          "w >= 0, y = −‖w‖₁", delta=0.0, detectable=0.0)
def check_cb11_text_magnitude(ctx):
    """CB11 Sec. 6: the gradient estimate's entries are O(d‖w‖₁) (with |y| <= B)."""
    rng = ctx.rng
    worst = Fraction(0)
    for _ in range(ctx.n(6, 60)):
        d_ = int(rng.integers(2, 5))
        k_ = int(rng.choice([2, 4])) if d_ >= 2 else 2
        k_ = min(k_, 2 * (d_ // 2)) or 2
        x = np.array([Fraction(int(v), 4) for v in rng.integers(-4, 5, size=d_)], dtype=object)
        w = np.array([Fraction(int(v), 4) for v in rng.integers(-4, 5, size=d_)], dtype=object)
        y = Fraction(int(rng.integers(-4, 5)), 4)
        dist = enumerate_outcomes(lambda src: cb11_aer(w, x, y, k_, src)[0])
        bound = Fraction(4 * d_, k_) * (sum(abs(v) for v in w) + abs(y))
        if bound == 0:
            continue
        worst = max(worst, max(max(abs(g) for g in gv) for _p, gv in dist) / bound)
    xe = np.array([Fraction(1)] * 4, dtype=object)
    we = np.array([Fraction(1, 4)] * 4, dtype=object)
    dist = enumerate_outcomes(lambda src: cb11_aer(we, xe, Fraction(-1), 2, src)[0])
    tight = max(max(abs(g) for g in gv) for _p, gv in dist) / (Fraction(4 * 4, 2) * 2)
    ok = worst <= 1 and tight == 1
    return _verdict(ok, {"worst_ratio": str(worst), "ratio_at_equality_instance": str(tight)})


@register("CB11.Thm12.text_vs_baseline", citation="CB11 Sec. 6 (after Thm 12: “the bound for AER is "
          "much better than the bound for Baseline: ignoring logarithmic factors, instead of "
          "quadratic dependence on d, we have only linear dependence on d”)",
          statement="Thm 6's c(dB/k)²√(ln(d/δ)/m) over Thm 12's cdB²√(ln(m/δ)/(km)) (same c) is "
          "(d/k^{3/2})·√(ln(d/δ)/ln(m/δ)): d² against d, and the Baseline's bound is the larger one "
          "up to logarithms whenever d > k^{3/2}", assumptions="the same constant c in both "
          "(as the text's comparison takes it); ignoring logarithmic factors",
          method="sympy: the ratio and its degrees in d", delta=0.0, detectable=0.0)
def check_cb11_text_vs_baseline(ctx):
    """CB11 Sec. 6: AER's bound is linear in d, the Baseline's quadratic."""
    d, k, m, B = sp.symbols("d k m B", positive=True)
    ld, lm = sp.symbols("l_d l_m", positive=True)             # ln(d/δ), ln(m/δ)
    c = bounds.SYMBOLS["c"]
    thm6 = _cb11_bound("CB11.Thm6.bound", ld=ld)               # c(dB/k)²√(ln(d/δ)/m)
    thm12 = _cb11_bound("CB11.Thm12.bound", lm=lm)             # cdB²√(ln(m/δ)/(km))
    ratio = sp.simplify(thm6 / thm12)
    deg6 = sp.degree(sp.simplify(thm6 / (c * B ** 2 * sp.sqrt(ld / m) / k ** 2)), d)
    deg12 = sp.degree(sp.simplify(thm12 / (c * B ** 2 * sp.sqrt(lm / (k * m)))), d)
    ok = sympy_zero(ratio - d / k ** sp.Rational(3, 2) * sp.sqrt(ld / lm)) and deg6 == 2 and deg12 == 1
    return _verdict(ok, {"thm6_over_thm12": str(ratio), "degree_in_d": {"Thm6": int(deg6),
                                                                         "Thm12": int(deg12)}},
                    detects=ORDER_CLAIM)


def cb11_footnote4_factors(X2):
    """CB11 footnote 4's factors: the theorem's d/√k and the improved d·max_t‖x_t‖₂/k."""
    d, k = sp.symbols("d k", positive=True)
    return d / sp.sqrt(k), d * X2 / k


@register("CB11.Thm12.text_footnote4", citation="CB11 Sec. 6, footnote 4 (“when d = k we still do "
          "not recover the full information bound. However, it is possible to improve the "
          "analysis and replace the factor d/√k with a factor d(max_t ‖x_t‖₂)/k”)",
          statement="at d = k the factor d/√k is √d (not a constant: the full-information Lasso "
          "bound (2) has none); the factor d·max‖x_t‖₂/k is at most √d·(d/k) (‖x‖∞ <= 1), equal "
          "to d/√k·√(d/k), so it improves on d/√k exactly when max‖x_t‖₂ < √k, and at d = k it "
          "is max‖x_t‖₂ (a constant when ‖x‖₂ is bounded)", assumptions="‖x‖∞ <= 1",
          method="sympy", delta=0.0, detectable=0.0)
def check_cb11_text_footnote4(ctx):
    """CB11 footnote 4: the two factors at d = k."""
    d, k = sp.symbols("d k", positive=True)
    X2 = sp.symbols("X", positive=True)                      # max_t ‖x_t‖₂ <= √d
    old, new = cb11_footnote4_factors(X2)
    ok = sympy_zero(old.subs(k, d) - sp.sqrt(d)) and sympy_zero(new.subs(k, d) - X2) and \
        sympy_zero(new.subs(X2, sp.sqrt(d)) - old * sp.sqrt(d / k)) and \
        sympy_zero(sp.solve(sp.Eq(new, old), X2)[0] - sp.sqrt(k))
    return _verdict(ok, {"old_at_d=k": str(old.subs(k, d)), "new_at_d=k": str(new.subs(k, d)),
                         "new_below_old_iff_X_below": "sqrt(k)"})


# --- CB11 Sec. 5 (Baseline) ---------------------------------------------------------------------

@register("CB11.Thm6.text_factor_d4", citation="CB11 Sec. 5 (after Thm 6: “to overcome the extra "
          "factor (d/k)² in the bound, which does not appear in the full information bound given "
          "in (2), we need to increase m by a factor of (d/k)⁴”)",
          statement="solving Thm 6's c(dB/k)²√(ln(d/δ)/m) = ε and eq. (2)'s cB²√(ln(d/δ)/m) = ε "
          "for m: the ratio of the two sample sizes is (d/k)⁴", assumptions="the same constant c "
          "in both (as the text's comparison takes it)", method="sympy: solve for m, ratio",
          delta=0.0, detectable=0.0)
def check_cb11_text_factor_d4(ctx):
    """CB11 Sec. 5: the Baseline's sample-size overhead."""
    d, k, m, B = sp.symbols("d k m B", positive=True)
    e, ld = sp.symbols("epsilon l_d", positive=True)          # l_d = ln(d/δ)
    c = bounds.SYMBOLS["c"]
    m_base = sp.solve(sp.Eq(_cb11_bound("CB11.Thm6.bound", ld=ld), e), m)[0]
    m_lasso = sp.solve(sp.Eq(c * B ** 2 * sp.sqrt(ld / m), e), m)[0]
    ratio = sp.simplify(m_base / m_lasso)
    return _verdict(sympy_zero(ratio - (d / k) ** 4), {"ratio": str(ratio)})


#: CB11 Lemma 4's proof: L_max = 4B, ℓ_max = 4B²
CB11_LEMMA4_L_MAX = 4
CB11_LEMMA4_LOSS_MAX = 4


@register("CB11.Lemma4.text_constants", citation="CB11 Lemma 4 (proof: “|(a − y)² − (b − y)²| <= "
          "|a − b||a + b − 2y|. Hence, L_max <= max_{a,b,y} |a + b − 2y| = 4B … ℓ_max = "
          "max_{a,y} (a − y)² = 4B²”)",
          statement="(a − y)² − (b − y)² = (a − b)(a + b − 2y), and over |a|, |b|, |y| <= B "
          "(a, b = ⟨w, x⟩ with ‖w‖₁ <= B, ‖x‖∞ <= 1) max|a + b − 2y| = 4B and max (a − y)² = 4B², "
          "attained at a = b = B, y = −B", assumptions="‖x‖∞ <= 1, |y| <= B, ‖w‖₁ <= B",
          method="sympy: the factorisation; both maxima of functions convex in (a, b, y) are at "
          "vertices of the cube [−B, B]³ (all 8 evaluated exactly)", delta=0.0, detectable=0.0)
def check_cb11_lemma4_constants(ctx):
    """CB11 Lemma 4, proof: the Lipschitz constant 4B and the loss bound 4B² of the square loss."""
    B = sp.Symbol("B", positive=True)
    a, b, y = sp.symbols("a b y", real=True)
    ok1 = sp.expand((a - y) ** 2 - (b - y) ** 2 - (a - b) * (a + b - 2 * y)) == 0
    verts = [(sa * B, sb * B, sy * B) for sa in (-1, 1) for sb in (-1, 1) for sy in (-1, 1)]
    lip = max((sp.Abs(va + vb - 2 * vy) for va, vb, vy in verts), key=lambda v: v.subs(B, 1))
    loss = max(((va - vy) ** 2 for va, _vb, vy in verts), key=lambda v: v.subs(B, 1))
    ok = ok1 and sympy_zero(lip - CB11_LEMMA4_L_MAX * B) and \
        sympy_zero(loss - CB11_LEMMA4_LOSS_MAX * B ** 2)
    return _verdict(ok, {"factorisation": ok1, "L_max": str(lip), "l_max": str(loss)})
