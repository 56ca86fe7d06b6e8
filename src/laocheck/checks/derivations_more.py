"""More derivations: the reference estimators' pieces rebuilt from what the papers derive them
from, at the boundary inputs where a slip in the code shows (issue 47, the mutation engine's
survivors of ``laocheck/reference/estimators.py``).

* KS15 Sec. 3 (after Lemma 3.3) obtains the improved inner-product probabilities
  p_i ∝ √(w_i² E[x_i²]) by "a similar optimization strategy" as eq. (4): minimising the
  second moment Σ_i w_i² E[x_i²] / p_i of the estimate over the simplex. By Cauchy-Schwarz the
  minimum is (Σ_i √(w_i² E[x_i²]))²; the check evaluates the reference's p in that objective
  and compares it with the minimum computed by sympy, on rationals whose products w_i² E[x_i²]
  are squares, are not, or have only a square numerator (the exact and the float branch of
  :func:`laocheck.reference.estimators.exact_sqrt`).
* CB11 eq. (6) / Lemma 11: the data-point estimate v of Fig. 2 is unbiased, E v = x, whatever
  the (even) budget k; checked by exact enumeration of the draws, in rational and in float
  arithmetic, at k = 2, 4, 6 (k >= 4 is where an integer division 2 // k would vanish).
* HK12 eq. (7): the coefficients AESVR hands to GenEst are those of erf's Taylor series; sympy
  gives them (``erf(x).taylor_term``); every one that a double holds (a_0 .. a_340) is
  compared, and the documented domain of ``n_terms`` ([1, 341]) is exercised at both ends.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from .. import bounds
from ..exceptions import InvalidParameterError
from .._lazy import load
from ..reference import estimators as ref_est
from ..stats.exact import enumerate_outcomes
from ._registry import Result, Status, register
from .derivations import derive, nonnegative
from .formulas import scale_report

# start-up: sympy loads on first use, when a check runs; `laocheck list` reads only the
# registrations
sp = load("sympy")

__all__ = []

#: relative tolerance of a float comparison: a few units in the last place of sums of <= 8 terms
_RTOL = 1e-12


def _verdict(ok, figures, counterexample=None):
    if ok:
        return Result(Status.PASS, figures, detectable=0.0, detects=1.0)
    return Result(Status.FAIL, figures, counterexample=counterexample, detectable=0.0,
                  detects=1.0)


#: (w, E[x²]) instances: every product w_i² E[x_i²] a square; only the numerator a square (1/2,
#: 4/3); only the denominator (2/9); neither (3/5); and one zero weight.
_KS15_IMPROVED = [
    ((Fraction(1), Fraction(1, 2)), (Fraction(1), Fraction(1))),
    ((Fraction(1), Fraction(1), Fraction(1, 2)), (Fraction(4, 3), Fraction(1, 4), Fraction(1))),
    ((Fraction(1, 3), Fraction(-2), Fraction(1)), (Fraction(2), Fraction(1, 9), Fraction(3, 5))),
    ((Fraction(0), Fraction(3, 2), Fraction(-1, 2)), (Fraction(1, 2), Fraction(1, 4), Fraction(1))),
    ((Fraction(1, 2), Fraction(1, 4)), (Fraction(1, 4), Fraction(1, 16))),
]


@register("KS15.Sec3.improved_p.derivation", citation="KS15 Sec. 3 (after Lemma 3.3: the "
          "optimal inner-product probabilities, by the optimisation of eq. (4))",
          statement="the improved p of the reference (ks15_inner_distribution, kind='improved') "
          "minimises the second moment Σ w_i² E[x_i²] / p_i of the inner-product estimate over "
          "the simplex: its value equals the Cauchy-Schwarz minimum (Σ √(w_i² E[x_i²]))²",
          assumptions="E[x_i²] > 0, w ≠ 0 (p_i = 0 where w_i = 0)",
          method="sympy: the minimum (Σ √(w_i² E[x_i²]))² exactly, against the objective at the "
          "reference's p (Fractions or floats), relative 1e-12, on rational instances whose "
          "products are squares, have a square numerator only, a square denominator only, or "
          "neither", delta=0.0, detectable=0.0)
def check_ks15_improved_p(ctx):
    """KS15 Sec. 3: p_i ∝ √(w_i² E[x_i²]) is the minimiser (not a restatement: the objective)."""
    worst, bad = 0.0, None
    for w, m in _KS15_IMPROVED:
        p = ref_est.ks15_inner_distribution(list(w), "improved", list(m))
        minimum = sp.Add(*[sp.sqrt(sp.Rational(wi.numerator, wi.denominator) ** 2
                                   * sp.Rational(mi.numerator, mi.denominator))
                           for wi, mi in zip(w, m)]) ** 2
        value = sum(float(wi * wi * mi) / float(pi) for wi, mi, pi in zip(w, m, p)
                    if wi != 0)
        total = float(sum(p))
        gap = abs(value - float(minimum)) / float(minimum) + abs(total - 1.0)
        worst = max(worst, gap)
        if gap > _RTOL and bad is None:
            bad = {"w": [str(v) for v in w], "second_moments": [str(v) for v in m],
                   "p": [str(v) for v in p], "objective_at_p": value,
                   "minimum": str(minimum), "sum_p": total}
    return _verdict(bad is None, {"instances": len(_KS15_IMPROVED), "worst_relative_gap": worst},
                    bad)


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


#: the largest n_terms a double holds (a_0 .. a_340: 169! (2·169 + 1) < 1.8e308)
_N_MAX = 341


@register("HK12.eq7.coefficients.derivation", citation="HK12 eq. (7) (AESVR, Alg. 4: ρ′ = erf "
          "and its Taylor series)", statement="the reference's aesvr_coefficients are the "
          "Taylor coefficients of erf at 0 (sympy's erf(x).taylor_term), a_0 .. a_340; n_terms "
          "is accepted exactly on [1, 341]", assumptions="double precision",
          method="sympy: erf(x).taylor_term(n, x) / xⁿ for n = 0 .. 340, evaluated to 30 "
          "digits, against the floats, relative 1e-13; n_terms = 1 and 341 give 1 and 341 "
          "coefficients, n_terms = 0 and 342 raise InvalidParameterError",
          delta=0.0, detectable=0.0)
def check_hk12_eq7_coefficients(ctx):
    """HK12 eq. (7) derived from erf by sympy; the domain of n_terms at both ends."""
    t = sp.Symbol("t")
    a = ref_est.aesvr_coefficients()
    worst, bad = 0.0, None
    if len(a) != _N_MAX:
        bad = {"len_default": len(a), "expected": _N_MAX}
    for n in range(min(len(a), _N_MAX)):
        exact = sp.simplify(sp.erf(t).taylor_term(n, t) / t ** n) if n % 2 else sp.Integer(0)
        ref = float(sp.N(exact, 30))
        err = abs(float(a[n]) - ref) / abs(ref) if ref else abs(float(a[n]))
        worst = max(worst, err)
        if err > 1e-13 and bad is None:
            bad = {"n": n, "a_n": float(a[n]), "erf_taylor": ref}
    domain = {}
    for n_terms, expect in ((1, 1), (_N_MAX, _N_MAX), (0, None), (_N_MAX + 1, None)):
        try:
            got = len(ref_est.aesvr_coefficients(n_terms))
        except InvalidParameterError:
            got = None
        domain[str(n_terms)] = "refused" if got is None else got
        if got != expect and bad is None:
            bad = {"n_terms": n_terms, "got": domain[str(n_terms)],
                   "expected": "refused" if expect is None else expect}
    if not math.isfinite(worst):
        bad = bad or {"worst": worst}
    return _verdict(bad is None, {"worst_relative_error": worst, "n_terms": domain}, bad)


# =============================================================================================
# Formulas of laocheck.bounds that no derivation covered (the mutation engine's survivors)
# =============================================================================================

_KIND_ORDER = "O() entries and sample complexities"


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


def bounds_sym(name):
    """The symbol of laocheck.bounds called ``name``."""
    return bounds.SYMBOLS[name]


def _q(c):
    c = Fraction(c)
    return sp.Rational(c.numerator, c.denominator)


#: KS15 eq. (15) (App. B): A[i] <= 2E[x_i²] + (7/6)ε and A[i] >= (1/2)E[x_i²] − (5/3)ε
_EQ15_UP, _EQ15_UP_EPS = 2, Fraction(7, 6)
_EQ15_LOW, _EQ15_LOW_EPS = Fraction(1, 2), Fraction(5, 3)


@register("KS15.Lemma3.11.derivation", citation="KS15 Lemma 3.11 (proof, with eq. (15))",
          statement="H = ‖2A + (10/3)ε‖_{1/2}: the shift 10/3 = 2·(5/3) makes H >= ‖E x²‖_{1/2} "
          "by (15)'s second inequality; (15)'s first inequality, ‖a + b‖_{1/2} <= 2‖a‖_{1/2} + "
          "2‖b‖_{1/2} and ‖c·1‖_{1/2} = d²c give H <= 8‖E x²‖_{1/2} + (34/3)d²ε",
          assumptions="d >= 1, ε > 0; (15) holds (w.p. >= 1 − δ)",
          method="sympy: the upper bound rebuilt from (15) and the quasi-norm identity and "
          "compared with laocheck.bounds KS15.Lemma3.11.H_upper (simplify); the shift and the "
          "identity's constant checked on symbols", delta=0.0, detectable=0.0)
def check_ks15_lemma311(ctx):
    """KS15 Lemma 3.11's H_upper derived from eq. (15)."""
    d, eps, N = (bounds_sym(n) for n in ("d", "eps", "N_half"))
    shift = 2 * _q(_EQ15_LOW_EPS)                            # 2A + 2(5/3)ε >= E x² by (15)
    lower_ok = sp.simplify(2 * _q(_EQ15_LOW) - 1) == 0       # 2·(1/2) E x² = E x²
    # (15) first: 2A + shift·ε <= 2·2 E x² + (2·(7/6) + shift) ε, coordinatewise
    a_coef = 2 * _EQ15_UP
    b_const = (2 * _q(_EQ15_UP_EPS) + shift) * eps
    quasi = 2                                                # ‖a + b‖_{1/2} <= 2‖a‖ + 2‖b‖
    # √(a_i + b_i) <= √a_i + √b_i, then (x + y)² <= 2x² + 2y² at x = Σ√a_i, y = Σ√b_i
    ra, rb = sp.symbols("x y", nonnegative=True)
    identity = nonnegative(quasi * (ra ** 2 + rb ** 2) - (ra + rb) ** 2)
    norm_b = (d * sp.sqrt(b_const)) ** 2                     # ‖c·1_d‖_{1/2} = (Σ √c)²
    derived = quasi * a_coef * N + quasi * norm_b
    return derive([("KS15.Lemma3.11.H_upper", derived, "(15) + quasi-norm identity")],
                  [("the shift 10/3 = 2·(5/3) undoes (15)'s lower −(5/3)ε, and 2·(1/2) = 1",
                    lower_ok and shift == sp.Rational(10, 3)),
                   ("(x + y)² <= 2x² + 2y²: the quasi-norm identity's constant 2", identity)])


@register("HK12.ThmB.1.derivation", citation="HK12 Thm B.1 (proof, App. B.2 with Corollary B.3)",
          statement="Corollary B.3's Ω(dk) entries read, at the hard instance's k = 1/ε² rows, "
          "is Ω(d/ε²) attributes", assumptions="ε = Ω(1/√d)",
          method="sympy: d·k at k = 1/ε² compared with laocheck.bounds HK12.ThmB.1.attributes "
          "(simplify)", delta=0.0, detectable=0.0)
def check_hk12_thmb1(ctx):
    """HK12 Thm B.1's attribute count derived from Corollary B.3."""
    d, k, eps = (bounds_sym(n) for n in ("d", "k", "eps"))
    return derive([("HK12.ThmB.1.attributes", (d * k).subs(k, 1 / eps ** 2),
                    "Corollary B.3's dk at k = 1/ε²")])


def _solve_m(bound, eps):
    """The m at which ``bound`` (decreasing in m) equals ``eps``."""
    m = bounds_sym("m")
    sols = [s for s in sp.solve(sp.Eq(bound, eps), m) if s.is_positive is not False]
    if len(sols) != 1:
        raise RuntimeError(f"expected one solution of {bound} = ε in m: {sols}")
    return sols[0]


def _same_order(entry, derived, free_of, limit_in=None):
    """``entry / derived`` is free of the symbols ``free_of`` and, when ``limit_in`` is given,
    tends to a finite positive constant as that symbol → ∞ (an O() reading drops constants and
    lower-order factors such as log 2d / log d only)."""
    ratio = sp.simplify(entry / derived)
    syms = {bounds_sym(n) for n in free_of}
    ok = not (ratio.free_symbols & syms)
    if ok and limit_in is not None:
        lim = sp.limit(ratio, bounds_sym(limit_in), sp.oo)
        ok = bool(lim.is_finite) and bool(lim.is_positive)
    return ok, str(ratio)


class _Exprs:
    """``F[fid]`` is the expression of formula ``fid`` (read on demand: the mutation engine's
    map records the formulas a check reads)."""

    def __getitem__(self, fid):
        return bounds.FORMULAS[fid].expr


@register("LAO.Tables.derivation", citation="HK12 Table 1 and eq. (8); KS15 Table 1",
          statement="each O() entry is the theorem it summarises with constants dropped: "
          "KS15 Table 1's ridge/lasso rates are HK12 Thm 3.1 / 3.4 (old) and KS15 Thm 3.5 / 4.6 "
          "(new); HK12 Table 1's sample complexities and Thm 4.4's eq. (8) are HK12 Thm 3.1, "
          "3.4, 4.4 solved for m at excess risk ε, and CB11 Thm 12's (the previous ridge) with "
          "log m read as log(d/ε)",
          assumptions="B, c fixed (the O() constants); exp(O(log²)) absorbs powers of 1/ε",
          method="sympy: solve(bound = ε, m), the ratio entry / derived simplified: free of the "
          "symbols the entry keeps (d, k, m, ε as listed per row) and with a finite positive "
          "limit as d → ∞ where a log 2d is read as log d", delta=0.0, detectable=0.0)
def check_tables(ctx):
    """The O() entries of HK12 Table 1 (and eq. (8)) and KS15 Table 1 derived from the
    theorems' bounds."""
    F = _Exprs()
    eps, m, k, d = (bounds_sym(n) for n in ("eps", "m", "k", "d"))
    L = sp.Symbol("L", positive=True)                      # log m, solved as a constant
    cb11 = F["CB11.Thm12.bound_expectation"].subs(sp.log(m), L)
    m_cb11 = _solve_m(cb11, eps).subs(L, sp.log(d / eps))
    rows = [
        ("KS15.Table1.ridge_old", F["HK12.Thm3.1.bound"], ("d", "k", "m"), None),
        ("KS15.Table1.lasso_old", F["HK12.Thm3.4.bound"], ("k", "m"), "d"),
        ("KS15.Table1.ridge_new", F["KS15.Thm3.5.bound"], ("d", "k", "m", "N_half"), None),
        ("KS15.Table1.lasso_new", F["KS15.Thm4.6.bound"], ("k", "m", "N_one"), "d"),
        ("HK12.Table1.ridge", _solve_m(F["HK12.Thm3.1.bound"], eps), ("d", "k", "eps"), None),
        ("HK12.Table1.lasso", _solve_m(F["HK12.Thm3.4.bound"], eps), ("k", "eps"), "d"),
        ("HK12.Thm4.4.samples", _solve_m(F["HK12.Thm4.4.bound"], eps), ("d", "k"), None),
        ("HK12.Table1.svr", _solve_m(F["HK12.Thm4.4.bound"], eps), ("d", "k"), None),
        ("HK12.Table1.prev_ridge", m_cb11, ("d", "k", "eps"), None),
    ]
    compared, bad = [], None
    for fid, derived, keep, lim in rows:
        ok, ratio = _same_order(F[fid], derived, keep, lim)
        compared.append({"formula": fid, "ratio": ratio, "free_of": list(keep), "equal": ok})
        if not ok and bad is None:
            bad = {"formula": fid, "registered": str(F[fid]), "derived": str(derived),
                   "ratio": ratio}
    return _verdict(bad is None, {"compared": compared}, bad)


@register("LAO.Bounds.scaling.proof_exponent", citation="CB11, HK12, KS15 (the printed "
          "formulas and their proofs' versions)", statement="a printed formula with a proof "
          "version declares the proof version's B-exponent, and the proof version scales so "
          "(dimensional analysis: B → cB, G → cG, η → c^s η): the declared exponent of an "
          "erratum's printed formula is the one it must have", assumptions="as LAO.Bounds.scaling",
          method="sympy: LAO.Bounds.scaling's report (laocheck.checks.formulas.scale_report) "
          "read for the proof versions, whether or not an ERRATUM names them; the printed "
          "formula's declared exponent against its proof's", delta=0.0, detectable=0.0)
def check_scaling_proof_exponent(ctx):
    """The declared B-exponents of printed formulas and of their proof versions (CB11 Thm 12's
    λ, HK12 Thm 3.4's η, KS15 Thm 3.6's η and high-probability bounds, KS15 Thm 3.12's)."""
    F = bounds.FORMULAS
    report = {r["id"]: r for r in scale_report()}
    rows, bad = [], None
    for fid in sorted(F):
        f = F[fid]
        if f.proof is None or f.scaling is None:
            continue
        proof = F[f.proof]
        same_exp = proof.scaling == f.scaling
        scales = report.get(f.proof, {}).get("ok", False)
        rows.append({"formula": fid, "declared": f.scaling, "proof": f.proof,
                     "proof_declared": proof.scaling, "proof_scales": scales})
        if not (same_exp and scales) and bad is None:
            bad = rows[-1]
    return _verdict(bad is None and bool(rows), {"compared": rows}, bad)
