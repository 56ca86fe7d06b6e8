"""HK12: the constants of the text (the prose around the statements) (ids ``HK12.*``).

The helpers these checks share with the other papers' are in
:mod:`laocheck.checks._kinds.text_constants`, which says how this kind of check works.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ... import bounds
from ..._lazy import load
from ...reference.estimators import hk12_gradient
from ...stats.exact import enumerate_outcomes
from .._kinds.text_constants import ORDER_CLAIM, _verdict
from .._proofs import sympy_zero
from .._registry import register

# sympy is imported on first use (laocheck list imports every check module)
sp = load("sympy")

__all__ = []


@register("HK12.Thm3.1.text_G", citation="HK12 Thm 3.1 (proof: “using G <= 2B√(2d/k) "
          "(according to Lemma 3.3)”)", statement="E_t‖g̃_t‖² <= 8B²d/k gives G <= 2B√(2d/k)",
          assumptions="B, d, k > 0", method="sympy", delta=0.0, detectable=0.0)
def check_hk12_text_g(ctx):
    """HK12 Thm 3.1, proof: Lemma 3.3's second moment (laocheck.bounds) as G."""
    d, k, B = sp.symbols("d k B", positive=True)
    G2 = bounds.FORMULAS["HK12.Lemma3.3.G2"].expr
    return _verdict(sympy_zero(sp.sqrt(G2) - 2 * B * sp.sqrt(2 * d / k)), {"G2": str(G2)})


# --- HK12 Sec. 4 (AESVR) ------------------------------------------------------------------------

def _rho_f(u):
    return u * sp.erf(u) + sp.exp(-u ** 2) / sp.sqrt(sp.pi)


@register("HK12.Sec4.text_2eps", citation="HK12 Sec. 4 (“Clearly, any ε-suboptimal regressor of "
          "the approximate problem is an 2ε-suboptimal regressor of the original problem”)",
          statement="E L^ε(w) <= min L^ε + ε implies E L(w) <= min L + 2ε for "
          "L^ε = E f_ε(wᵀx − y), L = E|wᵀx − y|_δ", assumptions="ε > 0, δ >= 0 (f_ε of Sec. 4.2)",
          method="sympy: f_ε − |·|_δ = (ε/2)[g(u₁) + g(u₂)], g = ρ − |·| in (0, 1/√π] (g(0) = "
          "1/√π, g′ = erf − 1 < 0 on u > 0, g -> 0): 0 < f_ε − |·|_δ <= ε/√π, so the excess is "
          "<= ε + ε/√π < 2ε (Claim 4.2's two-sided bound alone would give 3ε)",
          delta=0.0, detectable=0.0)
def check_hk12_text_2eps(ctx):
    """HK12 Sec. 4: the factor 2 (through the one-sided bound)."""
    up = sp.symbols("up", positive=True)
    g = _rho_f(up) - up
    ok = sympy_zero(sp.diff(g, up) - (sp.erf(up) - 1)) and \
        sympy_zero(_rho_f(sp.Integer(0)) - 1 / sp.sqrt(sp.pi)) and sp.limit(g, up, sp.oo) == 0
    const = 1 + 1 / sp.sqrt(sp.pi)
    ok = ok and bool(const < 2)
    return _verdict(ok, {"excess_constant": str(const), "value": float(const)})


def hk12_insensitive_identity(x, dl):
    """HK12 Sec. 4.2's right-hand side, as printed: ½|x − δ| + ½|x + δ| − δ."""
    return (abs(x - dl) + abs(x + dl)) / 2 - dl


@register("HK12.Claim4.2.text_identity", citation="HK12 Sec. 4.2 (“the identity |x|_δ = "
          "½|x − δ| + ½|x + δ| − δ”)", statement="max(|x| − δ, 0) = ½|x − δ| + ½|x + δ| − δ",
          assumptions="δ >= 0", method="exact (Fractions) on a grid of 81 x and 9 δ, and sympy on "
          "the three pieces x <= −δ, |x| <= δ, x >= δ", delta=0.0, detectable=0.0)
def check_hk12_text_identity(ctx):
    """HK12 Sec. 4.2: the δ-insensitive loss as a combination of absolute values."""
    bad = 0
    for i in range(-40, 41):
        x = Fraction(i, 8)
        for j in range(9):
            dl = Fraction(j, 4)
            if max(abs(x) - dl, 0) != hk12_insensitive_identity(x, dl):
                bad += 1
    xs, dls, t = sp.symbols("x delta t", nonnegative=True)   # x >= 0 by symmetry
    inner = sp.simplify(((dls - xs) + (xs + dls)) / 2 - dls)          # 0 <= x <= δ: 0
    outer = sp.simplify((t + (2 * dls + t)) / 2 - dls - t)           # x = δ + t: x − δ = t
    ok = bad == 0 and inner == 0 and outer == 0
    return _verdict(ok, {"grid_violations": bad})


# --- HK12 Sec. 2.3 and 3 (AERR, AELR) -----------------------------------------------------------

@register("HK12.Sec3.text_k_plus_1", citation="HK12 Sec. 3 (“For convenience, we show algorithms "
          "that use k+1 attributes of each instance, for k >= 1”)",
          statement="one step of AERR (Alg. 1 lines 3-10) and of AELR (Alg. 2 lines 4-11) observes "
          "at most k + 1 attributes of x_t, and exactly k + 1 on some draw when d >= k + 1",
          assumptions="k >= 1, w_t != 0", method="exact enumeration of every draw of the literal "
          "boxes (laocheck.reference.estimators.hk12_gradient, Fractions) at d = 3, k = 1, 2 and "
          "d = 2, k = 2 (k + 1 > d); the largest observed set", delta=0.0, detectable=0.0)
def check_hk12_text_k_plus_1(ctx):
    """HK12 Sec. 3: the k + 1 attributes per example of AERR and AELR."""
    figs, ok = {}, True
    for d_, k_ in ((3, 1), (3, 2), (2, 2)):
        x = np.array([Fraction(i + 1, d_ + 1) for i in range(d_)], dtype=object)
        w = np.array([Fraction(1, 2)] + [Fraction(-1, 3)] * (d_ - 1), dtype=object)
        for lasso in (False, True):
            dist = enumerate_outcomes(lambda src: hk12_gradient(w, x, Fraction(1, 5), k_, src,
                                                                lasso=lasso)[1])
            largest = max(len(s) for _p, s in dist)
            figs[f"{'AELR' if lasso else 'AERR'}_d={d_}_k={k_}"] = largest
            ok &= largest == min(k_ + 1, d_)
    return _verdict(ok, figs)


@register("HK12.Sec2.3.text_rates", citation="HK12 Sec. 2.3 (“we prove the risk bound … "
          "O(B²√(d/(km))) … for our Lasso regression algorithm … O(B²√(d log d/(km)))”)",
          statement="Thm 3.1's 4B²√(2d/(km)) is O(B²√(d/(km))) (constant 4√2) and Thm 3.4's "
          "4B²√(10d log 2d/(km)) is O(B²√(d log d/(km))) (at most 8√5 for d >= 2)",
          assumptions="d >= 2 for the Lasso rate (log d = 0 at d = 1)",
          method="sympy: the ratios of the bounds of laocheck.bounds (HK12.Thm3.1.bound, "
          "HK12.Thm3.4.bound) to the rates; log 2d/log d = 1 + log 2/log d <= 2 for d >= 2, "
          "decreasing",
          delta=0.0, detectable=0.0)
def check_hk12_text_rates(ctx):
    """HK12 Sec. 2.3: the orders of Theorems 3.1 and 3.4."""
    d, k, m, B = sp.symbols("d k m B", positive=True)
    F = bounds.FORMULAS
    r1 = sp.simplify(F["HK12.Thm3.1.bound"].expr / (B ** 2 * sp.sqrt(d / (k * m))))
    r2 = sp.simplify(F["HK12.Thm3.4.bound"].expr / (B ** 2 * sp.sqrt(d * sp.log(d) / (k * m))))
    at2 = sp.simplify(r2.subs(d, 2))
    decreasing = bool(sp.simplify(sp.diff(sp.log(2 * d) / sp.log(d), d)
                                  + sp.log(2) / (d * sp.log(d) ** 2)) == 0)
    ok = sympy_zero(r1 - 4 * sp.sqrt(2)) and sympy_zero(at2 - 8 * sp.sqrt(5)) and decreasing
    return _verdict(ok, {"ridge_constant": str(r1), "lasso_ratio": str(r2),
                         "lasso_ratio_at_d=2": str(at2)},
                    detects=ORDER_CLAIM)


@register("HK12.Thm2.2.text_tight", citation="HK12 Sec. 2.2 (after Thm 2.2: “Our algorithm for LAO "
          "Ridge regression (see section 3) imply this lower bound to be tight up to constants”)",
          statement="Thm 3.1 reaches excess risk ε with m = 32B⁴d/(kε²) examples, a constant (32 at "
          "B = 1, Thm 2.2's ‖w*‖₂ <= 1, |y| = 1) times Thm 2.2's Ω(d/(kε²))",
          assumptions="B = 1 (Thm 2.2's class)", method="sympy: solve Thm 3.1's bound "
          "(laocheck.bounds, HK12.Thm3.1.bound) = ε for m",
          delta=0.0, detectable=0.0)
def check_hk12_text_tight(ctx):
    """HK12 Sec. 2.2: Theorem 3.1's sample size against the lower bound of Theorem 2.2."""
    d, k, m, B = sp.symbols("d k m B", positive=True)
    e = sp.symbols("epsilon", positive=True)
    m_star = sp.solve(sp.Eq(bounds.FORMULAS["HK12.Thm3.1.bound"].expr, e), m)[0]
    ratio = sp.simplify(m_star.subs(B, 1) / (d / (k * e ** 2)))
    ok = sympy_zero(m_star - 32 * B ** 4 * d / (k * e ** 2)) and ratio.free_symbols == set()
    return _verdict(ok, {"m": str(m_star), "ratio_at_B=1": str(ratio)},
                    detects=ORDER_CLAIM)
