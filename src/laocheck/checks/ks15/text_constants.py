"""KS15: the constants of the text (the prose around the statements) (ids ``KS15.*``).

The helpers these checks share with the other papers' are in
:mod:`laocheck.checks._kinds.text_constants`, which says how this kind of check works.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np

from ... import bounds, estimators
from ..._lazy import load
from .._errata import note_erratum
from .._kinds.text_constants import ORDER_CLAIM, _verdict
from .._proofs import sympy_zero
from .._registry import Result, Status, register

# sympy is imported on first use (laocheck list imports every check module)
sp = load("sympy")

__all__ = []


def _ks15_thm31(eta_):
    m, B, G = sp.symbols("m B G", positive=True)
    return 2 * B ** 2 / (eta_ * m) + eta_ / 2 * G ** 2        # KS15 Thm 3.1's bound


def _ks15_thm41(eta_):
    d, m, B, G = sp.symbols("d m B G", positive=True)
    return B * (sp.log(2 * d) / (eta_ * m) + 5 * eta_ * G ** 2)   # KS15 Thm 4.1's bound


@register("KS15.Thm3.1.text_aerr_eta", citation="KS15 Sec. 3 (after Thm 3.1)",
          statement="G² <= 8B²d/k (HK12 Lemma 3.3) with Theorem 3.1 and η = 2B/(G√m) yields "
          "4B²√(2d/(km))", assumptions="B, d, k, m > 0", method="sympy: Thm 3.1's bound at that "
          "η and G = 2B√(2d/k)", delta=0.0, detectable=0.0)
def check_ks15_text_aerr(ctx):
    """KS15 Sec. 3: the AERR rate recovered from Theorem 3.1."""
    d, k, m, B, G = sp.symbols("d k m B G", positive=True)
    val = _ks15_thm31(2 * B / (G * sp.sqrt(m))).subs(G, 2 * B * sp.sqrt(2 * d / k))
    return _verdict(sympy_zero(val - 4 * B ** 2 * sp.sqrt(2 * d / (k * m))), {"value": str(sp.simplify(val))})


def ks15_text_aelr_eta():
    """KS15 Sec. 4 (after Thm 4.1) as printed: η = 2B/(G√m)."""
    m, B, G = sp.symbols("m B G", positive=True)
    return 2 * B / (G * sp.sqrt(m))


@register("KS15.Thm4.1.text_aelr_eta", citation="KS15 Sec. 4 (after Thm 4.1)",
          statement="G² <= 8B²d/k (HK12 Lemma 3.8) with Theorem 4.1 and η = 2B/(G√m) yields "
          "4B²√(10d log 2d/(km))", assumptions="‖x‖∞ <= 1, |y| <= B: KS15 Thm 4.1, “Assume the "
          "distribution D is such that ‖x‖∞ ≤ 1 and |y| < B with probability 1”; η <= 1/(2G): KS15 "
          "Thm 4.1, “when run with step size η ≤ 1/(2G)”; G² = 8B²d/k (Lemma 3.8 of [4]); 1 <= k "
          "<= d: KS15 Sec. 1, “we have a budget of k + 1 attributes, where k ≪ d”",
          method="sympy: Thm 4.1's bound B(log 2d/(ηm) + 5ηG²) at η = 2B/(G√m) divided by the "
          "stated rate; exact at d = 2, k = 1, m = 16, B = 1 (η = 1/(2G), Thm 4.1's largest step)", delta=0.0, detectable=0.0,
          expected=Status.ERRATUM, correction="KS15.Thm4.1.text_aelr_eta_corrected")
def check_ks15_text_aelr(ctx):
    """KS15 Sec. 4: the step size 2B/(G√m) does not give the stated AELR rate."""
    d, k, m, B, G = sp.symbols("d k m B G", positive=True)
    Gv = 2 * B * sp.sqrt(2 * d / k)
    val = _ks15_thm41(ks15_text_aelr_eta()).subs(G, Gv)
    stated = 4 * B ** 2 * sp.sqrt(10 * d * sp.log(2 * d) / (k * m))
    ratio = sp.simplify(val / stated)                 # (log 2d/2 + 10B²)/(2B√(5 log 2d)) >= 1
    # an instance inside Thm 4.1's η <= 1/(2G) (2ηG = 4B/√m <= 1 iff m >= 16B²) and KS15's
    # setting k <= d: d = 2, k = 1, B = 1, m = 16 (η = 1/(2G) exactly)
    at = {d: 2, k: 1, m: 16, B: 1}
    eta_2G = sp.simplify((ks15_text_aelr_eta() * 2 * sp.Symbol("G", positive=True)).subs(at))
    r1 = sp.nsimplify(ratio.subs(at))
    figs = {"ratio_to_stated": str(ratio), "ratio_at_d=2,k=1,m=16,B=1": str(r1),
            "ratio_at_d=2,k=1,m=16,B=1_float": float(r1), "2ηG_at_instance": str(eta_2G)}
    if sp.simplify(r1 - 1).is_positive and sp.simplify(eta_2G - 1).is_nonpositive:
        return Result(Status.ERRATUM, figs, detectable=0.0, detects=1.0,
                      correction="KS15.Thm4.1.text_aelr_eta_corrected",
                      counterexample={"d": 2, "k": 1, "m": 16, "B": 1, "η·2G": str(eta_2G),
                                      "bound_at_text_eta": str(sp.simplify(val.subs(at))),
                                      "stated": str(stated.subs(at)), "ratio": str(r1)},
                      note="By AM-GM the ratio is >= 1 with equality only at B² = log(2d)/20; "
                           "η = (1/G)√(log 2d/(5m)) gives the stated rate (the corrected check).")
    return Result(Status.PASS, figs, detectable=0.0, detects=1.0)


@register("KS15.Thm4.1.text_aelr_eta_corrected", citation="KS15 Sec. 4 (corrected step size)",
          statement="with η = (1/G)√(log 2d/(5m)) and G = 2B√(2d/k), Theorem 4.1's bound is "
          "4B²√(10d log 2d/(km)), and this η minimises it", assumptions="B, d, k, m > 0",
          method="sympy", delta=0.0, detectable=0.0)
def check_ks15_text_aelr_corrected(ctx):
    """KS15 Sec. 4 with HK12 Thm 3.4's proof step size."""
    d, k, m, B, G, eta = sp.symbols("d k m B G eta", positive=True)
    e = sp.sqrt(sp.log(2 * d) / (5 * m)) / G
    val = _ks15_thm41(e).subs(G, 2 * B * sp.sqrt(2 * d / k))
    ok_val = sympy_zero(val - 4 * B ** 2 * sp.sqrt(10 * d * sp.log(2 * d) / (k * m)))
    ok_min = sympy_zero(sp.diff(_ks15_thm41(eta), eta).subs(eta, e))
    return _verdict(ok_val and ok_min, {"bound": ok_val, "stationary": ok_min})


#: the text's claims, named so that a mutation witness can change what they state: the factor of
#: d in ‖E_D[x²]‖_{1/2} <= d, the power of log d in O(log² d), the 1 of Σ_{i<=d} 1/i <= 1 + ln d
_LE_D_FACTOR = Fraction(1)
_POLY_LOG_POWER = 2
_HARMONIC_ONE = 1


@register("KS15.Thm3.5.text_le_d", citation="KS15 Sec. 3.1 (after Thm 3.5)",
          statement="with ‖x‖₂ <= 1, ‖E_D[x²]‖_{1/2} := (Σ_i √E[x_i²])² <= d (so DDAERR is never "
          "worse than AERR)", assumptions="‖x‖₂ <= 1 w.p. 1",
          method="sympy: (Σ√s_i)² <= dΣ s_i (Cauchy-Schwarz) as a sum of squares, d = 2..5, and "
          "Σ s_i = E‖x‖² <= 1", delta=0.0, detectable=0.0)
def check_ks15_text_le_d(ctx):
    """KS15 Sec. 3.1: the half-norm of the second moments is at most d."""
    ok = True
    for n in range(2, 6):
        r = sp.symbols(f"r1:{n + 1}", nonnegative=True)       # r_i = √s_i
        gap = _LE_D_FACTOR * n * sum(v ** 2 for v in r) - sum(r) ** 2
        sos = sum((r[i] - r[j]) ** 2 for i in range(n) for j in range(i + 1, n))
        ok &= sp.expand(gap - sos) == 0
    return _verdict(ok, {"sum_of_squares_identity_d_2_to_5": bool(ok)})


@register("KS15.Thm3.5.text_poly_decay", citation="KS15 Sec. 3.1 (after Thm 3.5)",
          statement="E_D[x_i²] = i^−2/Σ_j j^−2 gives ‖E_D[x²]‖_{1/2} = O(log² d)",
          assumptions="d >= 2", method="exact partial sums (mpmath-free: floats of harmonic "
          "numbers) for d = 2..10⁶ (powers of 2): the ratio ‖·‖_{1/2}/log² d is bounded and "
          "decreasing for d >= 8, limit 6/π²", delta=0.0, detectable=0.0)
def check_ks15_text_poly(ctx):
    """KS15 Sec. 3.1: the polynomial-decay example."""
    ratios = []
    h1, h2, i = 0.0, 0.0, 0
    for e in range(1, 21):
        n = 2 ** e
        while i < n:
            i += 1
            h1 += 1 / i
            h2 += 1 / (i * i)
        ratios.append((n, h1 * h1 / h2 / math.log(n) ** _POLY_LOG_POWER))
    tail = [r for n, r in ratios if n >= 8]
    ok = all(a >= b for a, b in zip(tail, tail[1:])) and tail[-1] > 6 / math.pi ** 2
    return _verdict(ok, {"ratio_at_d=2^e": {str(n): r for n, r in ratios[::4]},
                         "largest_ratio": max(r for _, r in ratios)},
                    detects=ORDER_CLAIM)


note_erratum(
    "KS15.Thm4.1.text_aelr_eta", where="Section 4 (after Theorem 4.1)", order=(4, 1, 1),
    literal="“The authors prove (Lemma 3.8 in [4]) that for the AELR algorithm, G² ≤ 8B²d/k, "
            "which together with Theorem 4.1 and using η = 2B/(G√m) yields an expected risk "
            "bound of 4B²√(10d log 2d/(km)).”",
    why="Theorem 4.1's bound B(log 2d/(ηm) + 5ηG²) at η = 2B/(G√m) is (G/√m)(log(2d)/2 + 10B²), "
        "which exceeds the stated 2BG√(5 log 2d/m) = 4B²√(10d log 2d/(km)) by the factor "
        "(log(2d)/2 + 10B²)/(2B√(5 log 2d)) ≥ 1 (AM-GM; equality only at B² = log(2d)/20). At "
        "d = 2, k = 1, B = 1, m = 16 (where η = 2B/(G√m) = 1/(2G), inside Theorem 4.1's η ≤ "
        "1/(2G)): (log 2 + 10)/(2√(10 log 2)) ≈ 2.03 (sympy, exact). An earlier version took "
        "m = 1, where η = 2/G is above Theorem 4.1's range; the factor does not depend on m.",
    corrected="η = (1/G)√(log 2d/(5m)) (the step of HK12's proof of Thm 3.4) gives "
              "4B²√(10d log 2d/(km)) and minimises the bound.")


# --- KS15 Sec. 4.1-4.2 (after Theorems 4.6 and 4.7) ---------------------------------------------

# symbols _S = ‖E_D[x²]‖₁, _L2d = log 2d (made in each function: sympy loads when a check runs)


@register("KS15.Thm4.6.text_vs_aelr", citation="KS15 Sec. 4.1 (after Thm 4.6: “‖E_D[x²]‖₁ <= d, "
          "therefore the DDAELR algorithm always performs at least as well as the AELR algorithm”)",
          statement="‖E_D[x²]‖₁ <= d (‖x‖∞ <= 1), so Thm 4.6's 4B²√(5 log 2d((1/k)‖E_D[x²]‖₁ + 1)/m) "
          "<= AELR's 4B²√(10d log 2d/(km))", assumptions="‖x‖∞ <= 1, k <= d (k + 1 of the d "
          "attributes are read; not stated)", method="sympy: the squared ratio is "
          "(S + k)/(2d) <= 1 for S <= d, k <= d", delta=0.0, detectable=0.0)
def check_ks15_text_vs_aelr(ctx):
    """KS15 Sec. 4.1: DDAELR's rate is at most AELR's (needs k <= d)."""
    d, k = sp.symbols("d k", positive=True)
    _S = sp.Symbol("S", positive=True)
    F, N1 = bounds.FORMULAS, bounds.SYMBOLS["N_one"]
    ratio2 = sp.simplify((F["KS15.Thm4.6.bound"].expr / F["HK12.Thm3.4.bound"].expr) ** 2
                         ).subs(N1, _S)              # Thm 4.6 over AELR's (HK12 Thm 3.4), squared
    ok = sympy_zero(ratio2 - (_S + k) / (2 * d)) and sympy_zero(ratio2.subs({_S: d, k: d}) - 1)
    return _verdict(ok, {"ratio_squared": str(ratio2)})


def footnote4_moment(v):
    """KS15 footnote 4 as printed: the first moment E_D[x_i] (v ↦ v)."""
    return v


@register("KS15.Thm4.6.text_footnote4", citation="KS15 Sec. 4.1, footnote 4 (“If ‖E_D[x²]‖₁ = d "
          "it is easy to see that E_D[x_i] = 1 for all i ∈ [d]”)",
          statement="‖x‖∞ <= 1 and ‖E_D[x²]‖₁ = d imply E_D[x_i] = 1 for all i",
          assumptions="‖x‖∞ <= 1, |y| <= B: KS15 Thm 4.6, “Assume the distribution D is such that "
          "‖x‖∞ ≤ 1 and |y| ≤ B with probability 1”; footnote 4's own: ‖E_D[x²]‖₁ = d",
          method="exact (Fractions): x uniform on {−1, 1}^d, d = 2",
          delta=0.0, detectable=0.0, expected=Status.ERRATUM,
          correction="KS15.Thm4.6.text_footnote4_corrected")
def check_ks15_text_footnote4(ctx):
    """KS15 footnote 4: the first moment is printed where the second is meant."""
    support = [(a, b) for a in (-1, 1) for b in (-1, 1)]
    p = Fraction(1, 4)
    second = [sum(p * x[i] ** 2 for x in support) for i in range(2)]
    first = [sum(p * footnote4_moment(x[i]) for x in support) for i in range(2)]
    figs = {"‖E[x²]‖₁": str(sum(second)), "E[x_i]": [str(v) for v in first]}
    if all(v == 1 for v in first):
        return _verdict(True, figs)
    return Result(Status.ERRATUM, figs, detectable=0.0, detects=1.0,
                  correction="KS15.Thm4.6.text_footnote4_corrected",
                  counterexample={"D": "x uniform on {−1, 1}², d = 2", "‖E[x²]‖₁": str(sum(second)),
                                  "E[x_i]": [str(v) for v in first]})


@register("KS15.Thm4.6.text_footnote4_corrected", citation="KS15 Sec. 4.1, footnote 4 (corrected)",
          statement="‖x‖∞ <= 1 and ‖E_D[x²]‖₁ = d imply E_D[x_i²] = 1 for all i, so Lemma 4.3's "
          "q_i = 1/d and DDAELR is AELR", assumptions="‖x‖∞ <= 1",
          method="sympy: Σ_i E[x_i²] = d with each E[x_i²] <= 1 forces every E[x_i²] = 1 "
          "(d − Σ = Σ(1 − E[x_i²]) is a sum of nonnegative terms, symbolic d = 4); q from Lemma "
          "4.3", delta=0.0, detectable=0.0)
def check_ks15_text_footnote4_corrected(ctx):
    """KS15 footnote 4, corrected: the second moments are all 1 and q is uniform."""
    s = sp.symbols("s1:5", nonnegative=True)            # s_i = 1 − E[x_i²] >= 0 (‖x‖∞ <= 1)
    gap = sp.expand(4 - sum(1 - v for v in s))           # d − ‖E[x²]‖₁ = Σ s_i
    ok1 = sympy_zero(gap - sum(s)) and bool(gap.is_nonnegative)   # = 0 only at every s_i = 0
    # an instance of the premise: x uniform on {−1, 1}⁴ (‖x‖∞ = 1, ‖E[x²]‖₁ = 4 = d), its
    # second moments exact, and DDAELR's q (Lemma 4.3) from the package's estimator
    support = list(itertools.product((-1, 1), repeat=4))
    second = [sum(Fraction(x[i] ** 2, len(support)) for x in support) for i in range(4)]
    est = estimators.get("KS15.DDAELR.data_point", k=2,
                         second_moments=np.array([float(v) for v in second]))
    q = np.asarray(est.q, dtype=float)
    ok2 = sum(second) == 4 and bool(np.allclose(q, 0.25, rtol=0, atol=1e-15))
    return _verdict(ok1 and ok2, {"d_minus_norm": str(gap), "second_moments":
                                  [str(v) for v in second], "q": q.tolist()},
                    detects=1.0 + 1e-15 / 0.25)     # q = 1/4 to 1e-15 absolute


@register("KS15.Thm4.6.text_harmonic", citation="KS15 Sec. 4.1 (“E_D[x_i²] = 1/i … ‖E_D[x²]‖₁ = "
          "O(log d)”)", statement="Σ_{i<=d} 1/i <= 1 + ln d", assumptions="d >= 1",
          method="exact (Fractions) for d <= 300 against floats of 1 + ln d; sympy: the "
          "difference H_d − ln d decreases to the Euler-Mascheroni constant", delta=0.0,
          detectable=0.0)
def check_ks15_text_harmonic(ctx):
    """KS15 Sec. 4.1: the harmonic decay example."""
    h, worst = Fraction(0), 0.0
    for i in range(1, 301):
        h += Fraction(1, i)
        worst = max(worst, float(h) / (_HARMONIC_ONE + math.log(i)))
    n = sp.symbols("n", positive=True, integer=True)
    lim = sp.limit(sp.harmonic(n) - sp.log(n), n, sp.oo)
    ok = worst <= 1 + 1e-12 and sp.simplify(lim - sp.EulerGamma) == 0
    return _verdict(ok, {"worst_ratio": worst, "limit_H_d_minus_ln_d": str(lim)},
                    detects=1.0 + 1e-12)


def ks15_text_m1_rate(m2):
    """KS15 Sec. 4.2 as printed: the rate B²√((‖E_D[x²]‖₁ + k)/(km₂)) of the last regime."""
    k, B = sp.symbols("k B", positive=True)
    _S = sp.Symbol("S", positive=True)
    return B ** 2 * sp.sqrt((_S + k) / (k * m2))


@register("KS15.Thm4.7.text_m1_regime", citation="KS15 Sec. 4.2 (after Thm 4.7: “If m₁ >= "
          "d² log(2d/δ)/((k+1)‖E_D[x²]‖₁), the expected risk bound turns to "
          "O(B²√(‖E_D[x²]‖₁ + k)/√(km₂))”)",
          statement="at m₁ >= d² log(2d/δ)/((k+1)‖E_D[x²]‖₁), Thm 4.7's second bound is "
          "O((B²/√(km₂))·√(‖E_D[x²]‖₁ + k))", assumptions="δ in (0, 1): KS15 Thm 4.7, “with "
          "probability 1 − δ over the first phase”; ‖x‖∞ <= 1, |y| <= B: KS15 Thm 4.7, “Assume the "
          "distribution D is such that ‖x‖∞ ≤ 1 and |y| ≤ B with probability 1”; 1 <= k <= d: KS15 "
          "Sec. 1, “we have a budget of k + 1 attributes, where k ≪ d”; m₂ >= log 2d: Thm 4.7, “If "
          "m₂ ≥ log 2d”",
          method="sympy: at that m₁ the bound is 4B²√(5(16S + (88/3)S + k) log 2d/(km₂)) (ε <= S/d); "
          "its ratio to B²√((S + k)/(km₂)) at S = k = 1 tends to ∞ with d (√log 2d)",
          delta=0.0, detectable=0.0, expected=Status.ERRATUM,
          correction="KS15.Thm4.7.text_m1_regime_corrected")
def check_ks15_text_m1_regime(ctx):
    """KS15 Sec. 4.2: the last regime's rate drops the log d the theorem carries."""
    d, k, B = sp.symbols("d k B", positive=True)
    _S = sp.Symbol("S", positive=True)
    m2 = sp.symbols("m_2", positive=True)
    eps_at = _S / d                                    # d log(2d/δ)/((k+1)m₁) at that m₁
    bound = 4 * B ** 2 * sp.sqrt(5 * (16 * _S + sp.Rational(88, 3) * d * eps_at + k)
                                 * sp.log(2 * d) / (k * m2))
    ratio = sp.simplify(bound / ks15_text_m1_rate(m2))
    lim = sp.limit(ratio.subs({_S: 1, k: 1}), d, sp.oo)
    figs = {"ratio": str(ratio), "limit_d_to_infinity": str(lim)}
    if lim.is_finite:
        return _verdict(True, figs, detects=ORDER_CLAIM)
    return Result(Status.ERRATUM, figs, detectable=0.0, detects=ORDER_CLAIM,
                  correction="KS15.Thm4.7.text_m1_regime_corrected",
                  counterexample={"S = ‖E[x²]‖₁": 1, "k": 1, "ratio at d = 10⁶":
                                  float(ratio.subs({_S: 1, k: 1, d: 10 ** 6})),
                                  "ratio at d = 10": float(ratio.subs({_S: 1, k: 1, d: 10})),
                                  "d -> ∞": str(lim)})


@register("KS15.Thm4.7.text_m1_regime_corrected", citation="KS15 Sec. 4.2 (corrected rate)",
          statement="at m₁ >= d² log(2d/δ)/((k+1)‖E_D[x²]‖₁), Thm 4.7's second bound is at most "
          "4√(5·(16 + 88/3))·B²√((‖E_D[x²]‖₁ + k) log 2d/(km₂)), i.e. "
          "O((B²/√(km₂))√((‖E_D[x²]‖₁ + k) log d)) as for DDAELR (Thm 4.6)",
          assumptions="δ in (0, 1), S = ‖E_D[x²]‖₁ > 0", method="sympy: the squared ratio is "
          "5(16S + (88/3)S + k)/(S + k) <= 5(16 + 88/3) for S, k > 0", delta=0.0, detectable=0.0)
def check_ks15_text_m1_regime_corrected(ctx):
    """KS15 Sec. 4.2, corrected: with the log d factor. Thm 4.7's second bound is read from
    laocheck.bounds (``KS15.Thm4.7.bound_hp``) at m₁ = d² log(2d/δ)/((k+1)S) (ε = S/d) and
    divided by B²√((S + k) log 2d/(km₂)); the ratio must stay below the constant
    4√(5(16 + 88/3)) over a grid of (S, k, d) with S <= d (its supremum, approached as S/k grows:
    the worst ratio is reported)."""
    f = bounds.FORMULAS["KS15.Thm4.7.bound_hp"]
    c = 4 * sp.sqrt(5 * (16 + sp.Rational(88, 3)))
    worst = 0.0
    for dv in (10, 10 ** 3, 10 ** 6):
        for Sv in (1e-3 * dv, 0.5 * dv, float(dv)):
            for kv in (1, 4, 10):
                delta_v = 0.1
                m1v = math.ceil(dv ** 2 * math.log(2 * dv / delta_v) / ((kv + 1) * Sv))
                bound = float(f(d=dv, k=kv, B=1, m2=1, N_one=Sv, m1=m1v, delta=delta_v))
                ref = math.sqrt((Sv + kv) * math.log(2 * dv) / kv)
                worst = max(worst, bound / ref / float(c))
    ok = worst <= 1 + 1e-12
    return _verdict(ok, {"worst_ratio": worst, "constant": str(c), "constant_value": float(c)},
                    detects=1.0 + 1e-12)


note_erratum(
    "KS15.Thm4.6.text_footnote4", where="Section 4.1, footnote 4", order=(4, 6, 1),
    literal="“If ‖E_D[x²]‖₁ = d it is easy to see that E_D[x_i] = 1 for all i ∈ [d]. In this case, "
            "all the q_i-s are equal to 1/d and the DDAELR and AELR algorithms coincide.”",
    why="A typo (a dropped square) printed alike in the full and the conference version; the "
        "intended E_D[x_i²] = 1 is clear from the hypothesis and from q (a function of the "
        "second moments). With ‖x‖∞ ≤ 1, ‖E_D[x²]‖₁ = d forces E_D[x_i²] = 1, not E_D[x_i] = 1: "
        "for x uniform on "
        "{−1, 1}², ‖E[x²]‖₁ = 2 = d while E[x_i] = 0 (exact).",
    corrected="E_D[x_i²] = 1 for all i, hence q_i = 1/d (Lemma 4.3) and DDAELR is AELR.")

note_erratum(
    "KS15.Thm4.7.text_m1_regime", where="Section 4.2 (after Theorem 4.7, the large-m₁ regime)",
    order=(4, 7, 1),
    literal="“If m₁ ≥ d² log(2d/δ)/((k+1)‖E_D[x²]‖₁), the expected risk bound turns to "
            "O((B²/√(km₂))·√(‖E_D[x²]‖₁ + k)), which is the same bound as in the regular DDAELR "
            "algorithm.”",
    why="At that m₁ the theorem's bound is 4B²√(5(16S + (88/3)S + k) log 2d/(km₂)) with "
        "S = ‖E_D[x²]‖₁: its ratio to B²√((S + k)/(km₂)) grows as √(log 2d) (at S = k = 1: "
        "≈ 74.5 at d = 10, ≈ 164 at d = 10⁶; unbounded, sympy). Theorem 4.6's DDAELR bound carries "
        "the same log 2d.",
    corrected="O((B²/√(km₂))·√((‖E_D[x²]‖₁ + k) log d)), as for DDAELR (Theorem 4.6).")


@register("KS15.Thm3.12.text_m1_regime", citation="KS15 Sec. 3.3 (after Thm 3.12: “If m₁ >= "
          "d³ log(2d/δ)/((k+1)‖E_D[x²]‖_{1/2}), the bound becomes O((B²/√(km₂))√(‖E_D[x²]‖_{1/2} "
          "+ k))”)", statement="at m₁ >= d³ log(2d/δ)/((k+1)N), N = ‖E_D[x²]‖_{1/2}, the rate "
          "(B²/√(km₂))√((√N + d√(d log(2d/δ)/((k+1)m₁)))² + k) is at most "
          "2(B²/√(km₂))√(N + k)", assumptions="δ in (0, 1), N > 0",
          method="sympy: at equality m₁ = d³ log(2d/δ)/((k+1)N) the inner square is 4N (smaller "
          "for larger m₁), and 4N + k <= 4(N + k)", delta=0.0, detectable=0.0)
def check_ks15_text_ridge_m1_regime(ctx):
    """KS15 Sec. 3.3: the ridge regime (no log d here, unlike the lasso one)."""
    d, k = sp.symbols("d k", positive=True)
    _N, _Lg = sp.symbols("N L", positive=True)
    N, Lg, m1 = _N, _Lg, sp.symbols("m_1", positive=True)    # L = log(2d/δ)
    m1_star = _threshold("Thm3.12.regime")
    inner = (sp.sqrt(N) + d * sp.sqrt(d * Lg / ((k + 1) * m1))) ** 2
    at_star = sp.simplify(inner.subs(m1, m1_star))
    decreasing = sp.simplify(sp.diff(inner, m1)).is_negative
    ok = sympy_zero(at_star - 4 * N) and bool(decreasing) and \
        sympy_zero(4 * (N + k) - (4 * N + k) - 3 * k)
    return _verdict(ok, {"inner_square_at_threshold": str(at_star)})


# --- KS15 Sec. 3.2, 3.3, 4.2: the phase-1 length conditions (“m₁ ≫ …”) ---------------------------

# symbols _r = m₁/threshold, _N = ‖E[x²]‖, _Lg = log(2d/δ) (made in each function)


def _tends_to_zero(expr):
    _r = sp.Symbol("r", positive=True)
    return sp.limit(expr, _r, sp.oo) == 0


#: the phase-1 lengths m₁ the text of KS15 Sec. 3.2, 3.3 and 4.2 names (N the norm of E_D[x²]
#: of the scenario, L = log(2d/δ)), transcribed once: the checks of the regimes read them here
KS15_M1_THRESHOLDS = {
    "Thm3.6.gg": "d*N*L/(k + 1)",                 # “m₁ ≫ dN log(2d/δ)/(k+1)”
    "Thm3.6.regime": "d**3*L/((k + 1)*N)",        # “m₁ >= d³ log(2d/δ)/((k+1)N)”
    "Thm3.12.gg": "d**2*L/(k + 1)",               # “m₁ ≫ d² log(2d/δ)/(k+1)”
    "Thm3.12.regime": "d**3*L/((k + 1)*N)",       # “m₁ >= d³ log(2d/δ)/((k+1)N)”
    "Thm4.7.gg": "d*L/(k + 1)",                   # “m₁ ≫ d log(2d/δ)/(k+1)”
    "Thm4.7.regime": "d**2*L/((k + 1)*N)",        # “m₁ >= d² log(2d/δ)/((k+1)N)”
}


def _threshold(key):
    """KS15_M1_THRESHOLDS[key] as a sympy expression in positive d, k, N, L (a witness may
    have put an expression there instead of text)."""
    value = KS15_M1_THRESHOLDS[key]
    if not isinstance(value, str):
        return value
    names = dict(zip(("d", "k", "N", "L"), sp.symbols("d k N L", positive=True)))
    return sp.sympify(value, locals=names)


@register("KS15.Thm3.6.text_m1_gg", citation="KS15 Sec. 3.2 (after Thm 3.6: “as m₁ increases, the "
          "expected risk bound turns to O((B²/√(km₂))√(N + d√N√(d log(2d/δ)/((k+1)m₁)) + k)). "
          "Therefore, if m₁ ≫ dN log(2d/δ)/(k+1), we achieve an improvement over the AERR "
          "algorithm”, N = ‖E_D[x²]‖_{1/2})",
          statement="at m₁ = r·dN log(2d/δ)/(k+1) the m₁-dependent term of Thm 3.6's bound, "
          "2√(5/3)·d√N√(d log(2d/δ)/((k+1)m₁)) (in units of 1/k inside the root), divided by AERR's "
          "d, is 2√(5/3)/√r: o(d) iff r -> ∞, so the bound is then O((B²/√(km₂))√(N + k)) "
          "(< AERR's √d when N, k ≪ d); at r = 1 it is of AERR's order (the condition is needed)",
          assumptions="δ in (0, 1), N > 0", method="sympy: substitution m₁ = r·threshold, "
          "simplification to a function of r alone, limit r -> ∞", delta=0.0, detectable=0.0)
def check_ks15_thm36_m1_gg(ctx):
    """KS15 Sec. 3.2: the phase-1 length for an improvement over AERR (Thm 3.6)."""
    d, k = sp.symbols("d k", positive=True)
    _r, _N, _Lg = sp.symbols("r N L", positive=True)
    m1 = sp.symbols("m_1", positive=True)
    term = 2 * sp.sqrt(sp.Rational(5, 3)) * d * sp.sqrt(_N) * sp.sqrt(d * _Lg / ((k + 1) * m1))
    rel = sp.simplify(term.subs(m1, _r * _threshold("Thm3.6.gg")) / d)
    ok = rel.free_symbols == {_r} and _tends_to_zero(rel) and \
        sympy_zero(rel - 2 * sp.sqrt(sp.Rational(5, 3)) / sp.sqrt(_r))
    at1 = rel.subs(_r, 1)
    return _verdict(ok, {"term_over_d": str(rel),
                         "at_r=1": float(at1) if at1.is_number else str(at1)},
                    detects=ORDER_CLAIM)


@register("KS15.Thm3.6.text_m1_regime", citation="KS15 Sec. 3.2 (after Thm 3.6: “If m₁ >= "
          "d³ log(2d/δ)/((k+1)‖E_D[x²]‖_{1/2}), the bound becomes O((B²/√(km₂))√(‖E_D[x²]‖_{1/2} "
          "+ k))”)", statement="for m₁ >= d³ log(2d/δ)/((k+1)N), Thm 3.6's bound (4B²/√m₂)√((2/k)N "
          "+ (2/k)√(5/3)d√N√(d log(2d/δ)/((k+1)m₁)) + 1) is at most (2 + 2√(5/3))^{1/2}·"
          "(4B²/√(km₂))√(N + k)", assumptions="δ in (0, 1), N > 0",
          method="sympy: at m₁ = r·threshold (r >= 1) the middle term is 2√(5/3)N/√r; the squared "
          "ratio is <= 2 + 2√(5/3)", delta=0.0, detectable=0.0)
def check_ks15_thm36_m1_regime(ctx):
    """KS15 Sec. 3.2: the large-m₁ regime of Theorem 3.6."""
    d, k = sp.symbols("d k", positive=True)
    _r, _N, _Lg = sp.symbols("r N L", positive=True)
    m1 = sp.symbols("m_1", positive=True)
    c = 2 * sp.sqrt(sp.Rational(5, 3))
    inner = 2 * _N + c * d * sp.sqrt(_N) * sp.sqrt(d * _Lg / ((k + 1) * m1)) + k   # k·(…) in Thm 3.6
    at = sp.simplify(inner.subs(m1, _r * _threshold("Thm3.6.regime")))
    ok_form = sympy_zero(at - (2 * _N + c * _N / sp.sqrt(_r) + k))
    # (2 + c)(N + k) − (2N + cN/√r + k) = cN(1 − 1/√r) + (1 + c)k >= 0 for r >= 1
    s = sp.symbols("s", nonnegative=True)                     # r = (1 + s)²
    gap = sp.simplify(((2 + c) * (_N + k) - at).subs(_r, (1 + s) ** 2))
    ok_gap = sympy_zero(gap - (c * _N * s / (1 + s) + (1 + c) * k))
    return _verdict(ok_form and ok_gap, {"inner_at_r": str(at), "constant_squared": str(2 + c)})


@register("KS15.Thm3.12.text_m1_gg", citation="KS15 Sec. 3.3 (after Thm 3.12: “as m₁ increases, the "
          "expected risk bound turns to O((B²/√(km₂))√((√N + d√(d log(2d/δ)/((k+1)m₁)))² + k)). "
          "Therefore, if m₁ ≫ d² log(2d/δ)/(k+1), we achieve an improvement over the AERR "
          "algorithm”, N = ‖E_D[x²]‖_{1/2})",
          statement="at m₁ = r·d² log(2d/δ)/(k+1), Thm 3.12's (√N + d√(2d log(2d/δ)/((k+1)m₁)))² "
          "divided by AERR's d is (√(N/d) + √(2/r))²: it tends to N/d (< 1, the improvement) iff "
          "r -> ∞, and is >= 2 at r = 1 (no improvement: the condition is needed)",
          assumptions="δ in (0, 1), 0 < N <= d", method="sympy: substitution, simplification to "
          "a function of r and N/d, limit r -> ∞", delta=0.0, detectable=0.0)
def check_ks15_thm312_m1_gg(ctx):
    """KS15 Sec. 3.3: the phase-1 length for an improvement over AERR (Thm 3.12)."""
    d, k = sp.symbols("d k", positive=True)
    _r, _N, _Lg = sp.symbols("r N L", positive=True)
    m1, u = sp.symbols("m_1 u", positive=True)                # u = N/d
    sq = (sp.sqrt(_N) + d * sp.sqrt(2 * d * _Lg / ((k + 1) * m1))) ** 2
    rel = sp.simplify((sq.subs(m1, _r * _threshold("Thm3.12.gg")) / d).subs(_N, u * d))
    target = (sp.sqrt(u) + sp.sqrt(2 / _r)) ** 2
    ok = sympy_zero(rel - target) and sympy_zero(sp.limit(rel, _r, sp.oo) - u) and \
        sympy_zero(sp.expand(target.subs(_r, 1)) - (u + 2 * sp.sqrt(2 * u) + 2))
    return _verdict(ok, {"ratio_to_d": str(rel), "limit": "N/d"},
                    detects=ORDER_CLAIM)


@register("KS15.Thm4.7.text_m1_gg", citation="KS15 Sec. 4.2 (after Thm 4.7: “as m₁ increases, the "
          "expected risk bound becomes O((B²/√(km₂))√((‖E_D[x²]‖₁ + d² log(2d/δ)/((k+1)m₁) + k) "
          "log d)). Therefore, if m₁ ≫ d log(2d/δ)/(k+1), we achieve an improvement over the AELR "
          "algorithm”)", statement="at m₁ = r·d log(2d/δ)/(k+1) (r >= 1, so ε < 1), Thm 4.7's "
          "m₁-dependent term (88/3)dε with ε = d log(2d/δ)/((k+1)m₁), divided by AELR's d, is "
          "(88/3)/r: o(d) iff r -> ∞, and of AELR's order at r = 1 (the condition is needed)",
          assumptions="δ in (0, 1)", method="sympy: substitution and limit", delta=0.0,
          detectable=0.0)
def check_ks15_thm47_m1_gg(ctx):
    """KS15 Sec. 4.2: the phase-1 length for an improvement over AELR (Thm 4.7)."""
    d, k = sp.symbols("d k", positive=True)
    _r, _Lg = sp.symbols("r L", positive=True)
    m1 = sp.symbols("m_1", positive=True)
    eps_ = d * _Lg / ((k + 1) * m1)
    at = _r * _threshold("Thm4.7.gg")
    rel = sp.simplify((sp.Rational(88, 3) * d * eps_).subs(m1, at) / d)
    text_term = sp.simplify((d ** 2 * _Lg / ((k + 1) * m1)).subs(m1, at) / d)
    ok = sympy_zero(rel - sp.Rational(88, 3) / _r) and _tends_to_zero(rel) and \
        sympy_zero(text_term - 1 / _r)
    return _verdict(ok, {"term_over_d": str(rel), "text_term_over_d": str(text_term)},
                    detects=ORDER_CLAIM)


@register("KS15.Thm3.6.text_vs_aerr", citation="KS15 Sec. 3.2 and 3.3 (after Thm 3.6 and Thm 3.12: "
          "“With probability 1 over the first phase, regardless of the value of m₁, the expected "
          "risk bound is at most O((B²/√(km₂))√d), which is the same bound of the AERR algorithm "
          "… up to a constant factor”) and Sec. 4.2 (after Thm 4.7: O((B²/√(km₂))√(d log d)), "
          "“the same bound of the AELR algorithm”)",
          statement="the probability-1 bounds 4B²√(6d/(km₂)) (Thm 3.6, Thm 3.12) and "
          "61B²√(d log 2d/(km₂)) (Thm 4.7) are the AERR bound 4B²√(2d/(km₂)) (HK12 Thm 3.1 on the "
          "m₂ examples of phase 2) times √3 and the AELR bound 4B²√(10d log 2d/(km₂)) (HK12 "
          "Thm 3.4) times 61/(4√10) ≈ 4.82: constant factors", assumptions="the bounds as "
          "registered in laocheck.bounds (KS15.Thm3.6.bound_as, KS15.Thm3.12.bound_as, "
          "KS15.Thm4.7.bound_as, HK12.Thm3.1.bound, HK12.Thm3.4.bound)",
          method="sympy: the ratios, with m = m₂", delta=0.0, detectable=0.0)
def check_ks15_text_vs_aerr(ctx):
    """KS15 Sec. 3.2, 3.3, 4.2: the two-phase learners are never worse than AERR / AELR."""
    FF = bounds.FORMULAS

    def expr(id_):
        e = FF[id_].expr
        return e.subs({s: sp.Symbol(s.name, positive=True) for s in e.free_symbols})

    m2 = sp.Symbol("m2", positive=True)
    aerr = expr("HK12.Thm3.1.bound").subs(sp.Symbol("m", positive=True), m2)
    aelr = expr("HK12.Thm3.4.bound").subs(sp.Symbol("m", positive=True), m2)
    ratios = {"Thm3.6": sp.simplify(expr("KS15.Thm3.6.bound_as") / aerr),
              "Thm3.12": sp.simplify(expr("KS15.Thm3.12.bound_as") / aerr),
              "Thm4.7": sp.simplify(expr("KS15.Thm4.7.bound_as") / aelr)}
    ok = sympy_zero(ratios["Thm3.6"] - sp.sqrt(3)) and sympy_zero(ratios["Thm3.12"] - sp.sqrt(3)) \
        and sympy_zero(ratios["Thm4.7"] - sp.Rational(61, 4) / sp.sqrt(10))
    return _verdict(ok, {k_: str(v) for k_, v in ratios.items()} |
                    {"Thm4.7_float": float(ratios["Thm4.7"])})


# --- KS15 Sec. 1 and 4.2: the size of the improvement, the regimes of the two scenarios ----------

@register("KS15.Sec1.text_sqrt_d_improvement", citation="KS15 Sec. 1 (“This improvement factor is "
          "data-dependent and may be as large as O(√d) as both values can be small as O(1), when "
          "the moments decay at a sufficient rate … When the attribute budget satisfies "
          "k = Ω(‖E_D[x²]‖_{1/2}) (or k = Ω(‖E_D[x²]‖₁) in the lasso scenario) our bounds also "
          "coincide with the online full-information scenario”)",
          statement="(i) with E_D[x_i²] ∝ i⁻³ (ridge, ‖x‖₂ <= 1) ‖E_D[x²]‖_{1/2} < ζ(3/2)² and with "
          "E_D[x_i²] = i⁻² (lasso, ‖x‖∞ <= 1) ‖E_D[x²]‖₁ < π²/6 for every d, so AERR's / DDAERR's "
          "bound ratio √(2d/(N + k)) (HK12 Thm 3.1 / KS15 Thm 3.5) and AELR's / DDAELR's "
          "√(2d/(N₁ + k)) (HK12 Thm 3.4 / KS15 Thm 4.6) are Θ(√d) at fixed k; (ii) k >= N/c gives "
          "DDAERR's 4B²√((N/k + 1)/m) <= 4B²√((c + 1)/m) = O(B²/√m), the full-information rate",
          assumptions="k fixed for (i); c > 0", method="sympy: the bound ratios; float partial "
          "sums (numpy, d = 2..2²⁰) of N against ζ(3/2)² and π²/6 (sympy)", delta=0.0,
          detectable=0.0)
def check_ks15_text_sqrt_d(ctx):
    """KS15 Sec. 1: improvements up to √d and the full-information regime of k."""
    d, k, m, B = sp.symbols("d k m B", positive=True)
    N, N1, c = sp.symbols("N N_1 c", positive=True)
    F, S_ = bounds.FORMULAS, bounds.SYMBOLS
    ridge = sp.cancel(sp.simplify((F["HK12.Thm3.1.bound"].expr / F["KS15.Thm3.5.bound"].expr) ** 2
                                  ).subs(S_["N_half"], N))                 # AERR / DDAERR, squared
    lasso = sp.cancel(sp.simplify((F["HK12.Thm3.4.bound"].expr / F["KS15.Thm4.6.bound"].expr) ** 2
                                  ).subs(S_["N_one"], N1))                 # AELR / DDAELR, squared
    ok_ratio = sp.cancel(ridge - 2 * d / (N + k)) == 0 and sp.cancel(lasso - 2 * d / (N1 + k)) == 0
    i = np.arange(1, 2 ** 20 + 1, dtype=float)
    n_half = np.cumsum(i ** -1.5) ** 2 / np.cumsum(i ** -3.0)   # (Σ√s_i)² with s_i ∝ i⁻³
    n_one = np.cumsum(i ** -2.0)                                 # Σ E[x_i²], E[x_i²] = i⁻²
    z = float(sp.zeta(sp.Rational(3, 2)) ** 2)
    ok_bounded = float(n_half.max()) < z and float(n_one.max()) < float(sp.pi ** 2 / 6)
    full = sp.simplify(F["KS15.Thm3.5.bound"].expr.subs(S_["N_half"], N).subs(k, N / c)
                       / (B ** 2 / sp.sqrt(m)))
    ok_full = sympy_zero(full - 4 * sp.sqrt(c + 1))
    return _verdict(ok_ratio and ok_bounded and ok_full,
                    {"ridge_ratio_squared": str(ridge), "lasso_ratio_squared": str(lasso),
                     "max_N_half_d<=2^20": float(n_half.max()), "zeta(3/2)^2": z,
                     "max_N_one_d<=2^20": float(n_one.max()),
                     "ddaerr_at_k=N/c_over_B2/sqrt(m)": str(full)},
                    detects=ORDER_CLAIM)


@register("KS15.Thm4.7.text_regimes_vs_ridge", citation="KS15 Sec. 4.2 (“If we analogize "
          "‖E_D[x²]‖_{1/2} to ‖E_D[x²]‖₁, the regimes for the lasso scenario are better by a factor "
          "d than the corresponding regimes for the ridge scenario”)",
          statement="the phase-1 lengths of Thm 3.12 (ridge: m₁ ≫ d² log(2d/δ)/(k+1) and m₁ >= "
          "d³ log(2d/δ)/((k+1)N)) over those of Thm 4.7 (lasso: m₁ ≫ d log(2d/δ)/(k+1) and m₁ >= "
          "d² log(2d/δ)/((k+1)N)) are both d", assumptions="N the same value in both (the "
          "text's analogy)", method="sympy: the two ratios", delta=0.0, detectable=0.0)
def check_ks15_text_regimes(ctx):
    """KS15 Sec. 4.2: the lasso regimes are a factor d shorter than the ridge ones."""
    d = sp.Symbol("d", positive=True)
    T = {key: _threshold(key) for key in KS15_M1_THRESHOLDS}
    r1 = sp.simplify(T["Thm3.12.gg"] / T["Thm4.7.gg"])
    r2 = sp.simplify(T["Thm3.12.regime"] / T["Thm4.7.regime"])
    return _verdict(sympy_zero(r1 - d) and sympy_zero(r2 - d), {"improvement": str(r1),
                                                                 "large_m1": str(r2)})
