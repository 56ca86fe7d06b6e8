"""CB11: the formulas of laocheck.bounds derived from the proofs (ids ``CB11.*``).

The helpers these checks share with the other papers' are in
:mod:`laocheck.checks._kinds.derivations`, which says how this kind of check works.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ... import bounds
from ..._lazy import load
from ...reference import estimators as ref_est
from ...stats.exact import enumerate_outcomes
from .._kinds.derivations import (_DETECTS, _METHOD, _minimiser, _q, _RTOL, _S, _verdict,
                                  bounds_sym, derive, nonnegative, same)
from .._registry import register
from . import proofs as proofs_cb11

# sympy is imported on first use (laocheck list imports every check module)
sp = load("sympy")

__all__ = []


# =============================================================================================
# CB11
# =============================================================================================

def _hoeffding_union(half_range, count):
    """Hoeffding for a mean of m variables in [−a, a] and a union bound over ``count``
    entries: count·2 exp(−2mε²/(2a)²) = δ solved for ε (CB11 Lemmas 8 and 9)."""
    m, delta = _S("m", "delta")
    e = sp.Symbol("e", positive=True)
    tail = count * 2 * sp.exp(-2 * m * e ** 2 / (2 * half_range) ** 2)
    sols = [s for s in sp.solve(sp.Eq(tail, delta), e) if s.is_positive is not False]
    if len(sols) != 1:
        raise RuntimeError(f"expected one positive width, got {sols}")
    return sols[0]


def _cb11_pieces():
    d, k, B = _S("d", "k", "B")
    w8 = _hoeffding_union(2 * (d / k) ** 2, d ** 2)     # A_t entries in [−2(d/k)², 2(d/k)²]
    w9 = _hoeffding_union(2 * d * B / k, d)             # 2y v_t entries in [−2dB/k, 2dB/k]
    return w8, w9


@register("CB11.Lemma10.derivation.hoeffding", citation="CB11 Lemmas 8, 9 and 10 (proofs)",
          statement="Hoeffding with a union bound over d² (entries in ±2(d/k)²) and d (entries "
          "in ±2dB/k) gives Lemmas 8 and 9; Hölder with ‖w‖₁ <= B gives (4) + (5); each term is "
          "at most (Bd/k)²√((8/m) ln(2d²/δ)) (k <= d), so the sum is at most "
          "(Bd/k)²√((32/m) ln(2d²/δ)); at δ/2 for each lemma, ln(4d²/δ)",
          assumptions="d >= k >= 1, d >= 1, 0 < δ < 1, ‖x‖∞ <= 1, |y| <= B, ‖w‖₁ <= B",
          method=_METHOD, delta=0.0, detectable=_DETECTS)
def check_cb11_lemma10(ctx):
    """CB11 Lemmas 8, 9, 10: the widths, the two terms, the simplified and union forms."""
    d, k, B, m, delta = _S("d", "k", "B", "m", "delta")
    w8, w9 = _cb11_pieces()
    terms = B ** 2 * w8 + B * w9                          # Hölder: ‖w‖₁²·(8), ‖w‖₁·(9)
    top = B ** 2 * w8
    s, u, v = sp.symbols("s u v", nonnegative=True)
    # (5) <= (4): squares times m k⁴/(8B⁴) are d² ln(2d²/δ) and k² d² ln(2d/δ)/d²·... written
    # d²·L1 − k²·L2 = d²(L1 − L2) + (d² − k²)L2 with L1 = ln(2d²/δ), L2 = ln(2d/δ):
    # L1 − L2 = ln d >= 0 (d >= 1), d² − k² >= 0 (k <= d), L2 >= 0 (d >= 1, δ < 1)
    r = sp.simplify((top ** 2 - (B * w9) ** 2) * m * k ** 4 / (8 * B ** 4 * d ** 2))
    L1, L2 = sp.log(2 * d ** 2 / delta), sp.log(2 * d / delta)
    split = same(r, d ** 2 * (L1 - L2) + (d ** 2 - k ** 2) * L2)
    at = {d: 1 + v, delta: 1 / (1 + u)}
    step = split and all(sp.expand_log(t.subs(at), force=True).is_nonnegative
                         for t in (L1 - L2, L2)) and nonnegative(d ** 2 - k ** 2, d=k + s)
    half = {delta: delta / 2}
    return derive([("CB11.Lemma8.width", w8, "Hoeffding, union over d² entries"),
                   ("CB11.Lemma9.width", w9, "Hoeffding, union over d entries"),
                   ("CB11.Lemma10.proof_terms", terms, "Hölder: B²·(Lemma 8) + B·(Lemma 9)"),
                   ("CB11.Lemma10.bound", 2 * top, "2 × the larger term (4)"),
                   ("CB11.Lemma10.union", 2 * top.subs(half), "Lemma 8 at δ/2")],
                  [("(5) <= (4) for k <= d, 0 < δ < 1", step)])


@register("CB11.Thm6.derivation", citation="CB11 Thm 6 (proof, with Lemma 4 and Lemma 10)",
          statement="2 sup |L_D − L̃_S| <= 2(Lemma 4 at δ/2 with L_max = 4B, ℓ_max = 4B² + "
          "Lemma 10's union form at δ/2)", assumptions="‖x‖∞ <= 1, |y| <= B, ‖w‖₁ <= B, "
          "0 < δ < 1", method=_METHOD, delta=0.0, detectable=_DETECTS)
def check_cb11_thm6(ctx):
    """CB11 Thm 6: the explicit-constant bound (``CB11.Thm6.bound_proof``) derived."""
    d, B, m, delta = _S("d", "B", "m", "delta")
    L_max, l_max = 4 * B, 4 * B ** 2                    # Lemma 4's proof
    rademacher = (L_max * B * sp.sqrt(2 / m * sp.log(2 * d))
                  + l_max * sp.sqrt(1 / (2 * m) * sp.log(2 / delta)))   # Kakade et al.
    w8, _ = _cb11_pieces()
    lemma10_union = 2 * B ** 2 * w8.subs(delta, delta / 2)
    total = 2 * (rademacher.subs(delta, delta / 2) + lemma10_union.subs(delta, delta / 2))
    return derive([("CB11.Thm6.bound_proof", total,
                    "2 × (Lemma 4 at δ/2 + Lemma 10 union form at δ/2)")])


@register("CB11.Thm6.derivation.constant", citation="CB11 Thm 6 (statement, from its proof)",
          statement="the proof's bound 8√2(B d/k)²√(ln(8d²/δ)/m) + 8√2B²√(ln(2d)/m) + "
          "4√2B²√(ln(4/δ)/m) is at most the statement's c(dB/k)²√((1/m) ln(d/δ)) with "
          "c = 8√10 + 16 + 4√6 (term by term: ln(8d²/δ) <= 5 ln(d/δ), ln 2d <= 2 ln(d/δ), "
          "ln(4/δ) <= 3 ln(d/δ) for d >= 2, and (d/k)⁴ >= 1)",
          assumptions="2 <= k <= d (CB11 Fig. 1 splits the k sampled entries into two halves: "
                      "k even), m >= 1, 0 < δ < 1",
          method=_METHOD + "; squares compared term by term with nonnegative slacks "
          "(d = 2(1 + v), d = k + s, δ = 1/(1 + u))", delta=0.0, detectable=_DETECTS)
def check_cb11_thm6_constant(ctx):
    """CB11 Thm 6: the statement's unspecified c made explicit from the proof's constants
    (``CB11.Thm6.bound_proof``, derived by ``CB11.Thm6.derivation``)."""
    d, k, B, m, delta, c = _S("d", "k", "B", "m", "delta", "c")
    s, u, v = sp.symbols("s u v", nonnegative=True)
    L = sp.log(d / delta)
    form = (B * d / k) ** 2 * sp.sqrt(L / m)
    t1 = 8 * sp.sqrt(2) * (B * d / k) ** 2 * sp.sqrt(sp.log(8 * d ** 2 / delta) / m)
    t2 = 8 * sp.sqrt(2) * B ** 2 * sp.sqrt(sp.log(2 * d) / m)
    t3 = 4 * sp.sqrt(2) * B ** 2 * sp.sqrt(sp.log(4 / delta) / m)
    consts = (8 * sp.sqrt(10), sp.Integer(16), 4 * sp.sqrt(6))
    half, inv = sp.symbols("half_d inv_delta", positive=True)   # d = 2·half_d, δ = 1/inv_delta

    def log_nonneg(expr):                               # d >= 2 (half_d >= 1), 0 < δ < 1
        e = sp.expand_log(expr.subs({d: 2 * half, delta: 1 / inv}), force=True)
        return bool(sp.expand(e.subs({half: 1 + v, inv: 1 + u})).is_nonnegative)

    step1 = same(consts[0] ** 2 * form ** 2 - t1 ** 2,
                 128 * (B * d / k) ** 4 / m * (5 * L - sp.log(8 * d ** 2 / delta))) and \
        log_nonneg(5 * L - sp.log(8 * d ** 2 / delta))
    # 256(d/k)⁴ L − 128 ln 2d = 256((d/k)⁴ − 1)L + 128(2L − ln 2d)
    step2 = same((consts[1] ** 2 * form ** 2 - t2 ** 2) * m / B ** 4,
                 256 * ((d / k) ** 4 - 1) * L + 128 * (2 * L - sp.log(2 * d))) and \
        log_nonneg(2 * L - sp.log(2 * d)) and log_nonneg(L) and \
        nonnegative(d ** 4 - k ** 4, d=k + s)
    step3 = same((consts[2] ** 2 * form ** 2 - t3 ** 2) * m / B ** 4,
                 96 * ((d / k) ** 4 - 1) * L + 32 * (3 * L - sp.log(4 / delta))) and \
        log_nonneg(3 * L - sp.log(4 / delta)) and log_nonneg(L) and \
        nonnegative(d ** 4 - k ** 4, d=k + s)
    stated = bounds.FORMULAS["CB11.Thm6.bound"].expr.subs(c, sum(consts))
    return derive([], [("the proof's bound is t1 + t2 + t3",
                        same(bounds.FORMULAS["CB11.Thm6.bound_proof"].expr, t1 + t2 + t3)),
                       ("t1 <= 8√10 (dB/k)²√(ln(d/δ)/m): ln(8d²/δ) <= 5 ln(d/δ), d >= 2", step1),
                       ("t2 <= 16 (dB/k)²√(ln(d/δ)/m): ln 2d <= 2 ln(d/δ), k <= d", step2),
                       ("t3 <= 4√6 (dB/k)²√(ln(d/δ)/m): ln(4/δ) <= 3 ln(d/δ), k <= d", step3),
                       ("the statement at c = 8√10 + 16 + 4√6 is the sum of the upper terms",
                        same(stated, sum(consts) * form))])


@register("CB11.Thm12.derivation", citation="CB11 Thm 12 (proof)",
          statement="‖∇f_t‖ <= λ‖w_t‖ + 4Bd√(2/k) with ‖w_t‖ <= (1/λ)4Bd√(2/k) gives 8Bd√(2/k); "
          "the strongly convex regret (1/λ)G² ln m plus m(λ/2)B² is minimised at "
          "λ = 16d√(ln m/(km)) with value 16dB²√((m/k) ln m); online-to-batch adds "
          "4B²√((2/m) ln(1/δ)); the printed λ is 3/4 of the derived one (the registered erratum)",
          assumptions="‖x‖∞ <= 1, |y| <= B, ‖w*‖₁ <= B, m >= 2, 0 < δ < 1", method=_METHOD,
          delta=0.0, detectable=_DETECTS)
def check_cb11_thm12(ctx):
    """CB11 Thm 12: gradient norm, regret, λ, the expectation and high-probability bounds, and
    the printed λ's relation to the derived one (ERRATUM ``CB11.Thm12.lambda``)."""
    d, k, B, m, delta, lam = _S("d", "k", "B", "m", "delta", "lam")
    half_grad = 4 * B * d * sp.sqrt(sp.Rational(2, 1) / k)   # 2|ŷ − y|‖v‖ <= 4Bd√(2/k)
    w_norm = half_grad / lam                                 # the inductive invariant
    grad = lam * w_norm + half_grad
    regret = grad ** 2 / lam * sp.log(m) + m * lam / 2 * B ** 2
    best = _minimiser(regret, lam)
    value = regret.subs(lam, best)
    o2b = 4 * B ** 2 * sp.sqrt(2 / m * sp.log(1 / delta))   # Cesa-Bianchi et al. 2004, ℓ <= 4B²
    return derive([("CB11.Thm12.gradient_norm", grad, "λ‖w_t‖ + 4Bd√(2/k), invariant"),
                   ("CB11.Thm12.iterate_norm", w_norm, "the invariant as printed"),
                   ("CB11.Thm12.regret", regret, "(1/λ)G² ln m + m(λ/2)B²"),
                   ("CB11.Thm12.lambda_proof", best, "solve(d regret / d λ = 0)"),
                   ("CB11.Thm12.bound_expectation", value / m, "regret at λ* / m"),
                   ("CB11.Thm12.bound_proof", value / m + o2b, "+ online-to-batch"),
                   ("CB11.Thm12.lambda", best * sp.Rational(3, 4),
                    "printed 12 = 3/4 of the derived 16 (ERRATUM CB11.Thm12.lambda)")],
                  [("the inventory's 128 = G²k/(dB)²",
                    same(grad ** 2, _q(proofs_cb11._STEP11_G2) * (d * B) ** 2 / k)),
                   ("the inventory's λ constant 16", same(best, _q(proofs_cb11._STEP13_LAMBDA)
                                                          * d * sp.sqrt(sp.log(m) / (k * m))))])


@register("CB11.Thm12.derivation.constant", citation="CB11 Thm 12 (statement, from its proof)",
          statement="the proof's bound 16dB²√(ln m/(km)) + 4B²√((2/m) ln(1/δ)) is at most the "
          "statement's c·dB²√(ln(m/δ)/(km)) with c = 16 + 4√2 (term by term: ln m <= ln(m/δ), "
          "k ln(1/δ) <= d² ln(m/δ))", assumptions="1 <= k <= d, m >= 1, 0 < δ < 1",
          method=_METHOD + "; the inequality proved term by term with nonnegative slacks "
          "(d = k + s, k = 1 + v, m = 1 + w, δ = 1/(1 + u))", delta=0.0, detectable=_DETECTS)
def check_cb11_thm12_constant(ctx):
    """CB11 Thm 12: the statement's unspecified c made explicit from the proof's constants."""
    d, k, B, m, delta, c = _S("d", "k", "B", "m", "delta", "c")
    s, u, v, w = sp.symbols("s u v w", nonnegative=True)
    proof = bounds.FORMULAS["CB11.Thm12.bound_proof"].expr
    stated = bounds.FORMULAS["CB11.Thm12.bound"].expr.subs(c, 16 + 4 * sp.sqrt(2))
    t1 = 16 * d * B ** 2 * sp.sqrt(sp.log(m) / (k * m))
    t2 = 4 * B ** 2 * sp.sqrt(2 / m * sp.log(1 / delta))
    u1 = 16 * d * B ** 2 * sp.sqrt(sp.log(m / delta) / (k * m))
    u2 = 4 * sp.sqrt(2) * d * B ** 2 * sp.sqrt(sp.log(m / delta) / (k * m))
    at = {d: k + s, delta: 1 / (1 + u), m: 1 + w}
    at_k = {k: 1 + v}

    def nonneg(expr):
        e = sp.expand(sp.expand_log(expr.subs(at).subs(at_k), force=True))
        return bool(e.is_nonnegative)

    # squares of nonnegative terms: t1² <= u1² and t2² <= u2² (times km/(32·...B⁴) for t2)
    step1 = same(u1 ** 2 - t1 ** 2, 256 * d ** 2 * B ** 4 / (k * m) * sp.log(1 / delta)) and \
        nonneg(sp.log(1 / delta))
    gap2 = d ** 2 * sp.log(m / delta) - k * sp.log(1 / delta)
    step2 = same((u2 ** 2 - t2 ** 2) * k * m / (32 * B ** 4), gap2) and nonneg(
        (d ** 2 - k) * sp.log(m / delta)) and nonneg(k * sp.log(m)) and same(
        gap2, (d ** 2 - k) * sp.log(m / delta) + k * sp.log(m))
    return derive([], [("the proof's bound is t1 + t2", same(proof, t1 + t2)),
                       ("t1 <= 16dB²√(ln(m/δ)/(km)) (δ < 1)", step1),
                       ("t2 <= 4√2 dB²√(ln(m/δ)/(km)) (k <= d, m >= 1)", step2),
                       ("the statement at c = 16 + 4√2 is the sum of the two upper terms",
                        same(stated, u1 + u2))])


@register("CB11.Lemma11.data_point.unbiased_k", citation="CB11 Fig. 2 and eq. (6) (Lemma 11: "
          "E v = x)", statement="the data-point estimate v of Fig. 2 (v_j += (2/k) d x_j over "
          "a uniform k/2-subset) has E v = x for every even k, in rational and in float "
          "arithmetic", assumptions="k even, 2 <= k <= d",
          method="exact enumeration of the k/2-subsets (laocheck.stats.exact) of the reference "
          "cb11_aer(part='data_point') at d = 6, k = 2, 4, 6, on Fractions (equality) and on "
          "floats (relative 1e-12)", delta=0.0, detectable=0.0)
def check_cb11_data_point_unbiased(ctx):
    """CB11 Lemma 11's E v = x at k >= 4 and in floats (the float branch of cb11_aer)."""
    x_q = [Fraction(1, 2), Fraction(-1, 3), Fraction(1, 5), Fraction(0), Fraction(-3, 4),
           Fraction(2, 7)]
    w = np.array([Fraction(1)] * len(x_q), dtype=object)
    figures, bad = {}, None
    for k in (2, 4, 6):
        for kind in ("exact", "float"):
            if kind == "exact":
                x = np.array(x_q, dtype=object)
                wk = w
            else:
                x = np.array([float(v) for v in x_q])
                wk = np.ones(len(x_q))
            dist = enumerate_outcomes(lambda src: ref_est.cb11_aer(
                wk, x, 0.0 if kind == "float" else Fraction(0), k, src, part="data_point")[0])
            leaves = list(dist)
            mean = sum((p * np.asarray(v, dtype=object) for p, v in leaves[1:]),
                       leaves[0][0] * np.asarray(leaves[0][1], dtype=object))
            if kind == "exact":
                err = max(abs(Fraction(a) - b) for a, b in zip(mean, x_q))
                ok = err == 0
            else:
                err = max(abs(float(a) - float(b)) for a, b in zip(mean, x_q))
                ok = err <= _RTOL
            figures[f"k={k} {kind}"] = float(err)
            if not ok and bad is None:
                bad = {"k": k, "arithmetic": kind, "E_v": [str(v) for v in mean],
                       "x": [str(v) for v in x_q]}
    return _verdict(bad is None, {"max_error": figures}, bad)


#: CB11 App. A.5: −ln(1 − q) <= (3/2) q for q = 4p² in [0, 1/4]; the bandit bound (14)'s
#: √((T/d)·(3/2)·4p²) = √(6Tp²/d)
_CB11_LOG_SLOPE, _CB11_Q = Fraction(3, 2), 4
#: App. A.6: d >= 4, so 1/d <= 1/4; the proof ends at k >= T/2
_CB11_D_MIN, _CB11_TARGET = 4, Fraction(1, 2)


@register("CB11.Thm1.derivation", citation="CB11 Thm 1 (proof, App. A.5-A.6)",
          statement="k >= T(1 − 1/d − √(6Tp²/d)) with −ln(1 − q) <= (3/2)q (q = 4p²), d >= 4 "
          "and T = ⌊d/(Cε)⌋ gives k >= T/2 exactly when √(6/C) <= 1/2 − 1/4, i.e. C = 96: "
          "the bound (1/2)⌊d/(96ε)⌋", assumptions="d >= 4, 0 < ε <= 1/16, p² = ε",
          method="sympy: the constant C solved from the proof's last step, the step proved at "
          "T <= d/(Cε), and (1/2)⌊d/(Cε)⌋ compared with laocheck.bounds (simplify)",
          delta=0.0, detectable=0.0)
def check_cb11_thm1(ctx):
    """CB11 Thm 1: the constant 96 of the attribute lower bound derived from App. A.6."""
    d, eps = (bounds_sym(n) for n in ("d", "eps"))
    C, T, s = sp.symbols("C T s", positive=True)
    six = _q(_CB11_LOG_SLOPE) * _CB11_Q                       # (3/2)·4 = 6 in (14)
    slack = _q(_CB11_TARGET) - sp.Rational(1, _CB11_D_MIN)    # 1 − 1/4 − 1/2 left for the root
    sol = [c for c in sp.solve(sp.Eq(sp.sqrt(six / C), slack), C) if c.is_positive]
    if len(sol) != 1:
        return _verdict(False, {"solutions": [str(c) for c in sol]}, {"solve": "no unique C"})
    Cs = sol[0]
    # the step: at T = d/(Cε) (largest T), 1 − 1/d − √(6Tε/d) >= 1/2 for d >= 4
    factor = 1 - 1 / d - sp.sqrt(six * T * eps / d)
    step = nonnegative(factor.subs(T, d / (Cs * eps)) - _q(_CB11_TARGET), d=_CB11_D_MIN + s)
    derived = _q(_CB11_TARGET) * sp.floor(d / (Cs * eps))
    out = derive([("CB11.Thm1.attributes", derived, f"(1/2)⌊d/(Cε)⌋ with C = {Cs}")],
                 [("1 − 1/d − √(6Tε/d) >= 1/2 at T = d/(Cε), d >= 4", step)])
    out.figures["C"] = str(Cs)
    return out
