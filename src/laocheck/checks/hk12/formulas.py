"""HK12: the formulas of laocheck.bounds and the papers' tables (ids ``HK12.*``).

The helpers these checks share with the other papers' are in
:mod:`laocheck.checks._kinds.formulas`, which says how this kind of check works.
"""

from __future__ import annotations

import itertools
import math

from ... import bounds
from ..._lazy import load
from .._kinds.formulas import _argmin, _status, _zero
from .._registry import Result, Status, register

# sympy is imported on first use (laocheck list imports every check module)
sp = load("sympy")


# ------------------------------------------------------------------------------------------
# HK12
@register("HK12.Thm3.1.algebra", citation="HK12 Thm 3.1",
          statement="AERR with eta = sqrt(k/(2dm)): E L(w-bar) <= L(w*) + 4B^2 sqrt(2d/(km))",
          assumptions="||x||_2 <= 1, |y| <= B; G^2 = 8B^2 d/k (Lemma 3.3)",
          method="sympy: minimiser of 2B^2/(eta m) + eta G^2/2; substitution of Lemma 3.3's G",
          delta=0.0, detectable=0.0)
def check_hk12_thm31(ctx):
    """HK12 Thm 3.1: the printed η is the proof's 2B/(G√m) and the bound is 2BG/√m."""
    eta, G = (bounds.SYMBOLS[n] for n in ("eta", "G"))
    F = bounds.FORMULAS
    gen = F["HK12.Thm3.1.generic"].expr
    Gv = sp.sqrt(F["HK12.Lemma3.3.G2"].expr)
    ok1 = _zero(_argmin(gen, eta) - F["HK12.Thm3.1.eta_proof"].expr)
    ok2 = _zero(F["HK12.Thm3.1.eta_proof"].expr.subs(G, Gv) - F["HK12.Thm3.1.eta"].expr)
    ok3 = _zero(gen.subs(eta, F["HK12.Thm3.1.eta"].expr).subs(G, Gv) - F["HK12.Thm3.1.bound"].expr)
    return Result(_status(ok1 and ok2 and ok3), {"argmin": ok1, "eta_literal": ok2, "bound": ok3},
                  detects=1.0)


@register("HK12.Thm3.4.eta", citation="HK12 Thm 3.4",
          statement="AELR run with eta = (1/(4B^2)) sqrt(2k log 2d/(5md)) has E L(w-bar) <= L(w*) + "
          "4B^2 sqrt(10 d log 2d/(km))", assumptions="‖x‖∞ <= 1, |y| <= B: HK12 Thm 3.4, “Assume "
          "the distribution D is such that ‖x‖∞ ≤ 1 and |y| ≤ B with probability 1”; m >= log 2d: "
          "HK12 proof of Thm 3.4, “as we originally assumed that m ≥ log 2d”; 1 <= k <= d: HK12 "
          "Sec. 2, “only k attributes of x (where k ≥ 1 is a parameter …)”",
          method="sympy: the printed eta vs the proof's (1/G) sqrt(log 2d/(5m)) with G = 2B sqrt(2d/k); "
          "the proof's generic bound at the printed eta", delta=0.0, detectable=0.0,
          expected=Status.ERRATUM, correction="HK12.Thm3.4.eta_proof")
def check_hk12_thm34_eta(ctx):
    """HK12 Thm 3.4: the printed η is 1/B times the proof's (wrong power of B)."""
    eta, G = (bounds.SYMBOLS[n] for n in ("eta", "G"))
    F = bounds.FORMULAS
    Gv = sp.sqrt(F["HK12.Lemma3.8.G2"].expr)
    proof = F["HK12.Thm3.4.eta_proof"].expr.subs(G, Gv)
    lit = F["HK12.Thm3.4.eta"].expr
    ratio = sp.simplify(lit / proof)
    gen = F["HK12.Thm3.4.generic"].expr.subs(G, Gv)
    at_lit = sp.simplify(gen.subs(eta, lit) / F["HK12.Thm3.4.bound"].expr)
    if _zero(ratio - 1):
        return Result(Status.PASS, {"ratio": str(ratio)}, detects=1.0)
    ce = {"d": 10, "k": 2, "m": 1000, "B": 2.0}
    vals = {bounds.SYMBOLS[n]: v for n, v in ce.items()}
    return Result(Status.ERRATUM, {
        "literal_over_proof": str(ratio), "generic_bound_at_literal_over_stated": str(at_lit)},
        counterexample={**ce, "eta_literal": float(lit.subs(vals)), "eta_proof": float(proof.subs(vals)),
                        "proof_bound_at_literal_eta": float(gen.subs(eta, lit).subs(vals)),
                        "stated_bound": float(F["HK12.Thm3.4.bound"].expr.subs(vals))},
        correction="HK12.Thm3.4.eta_proof",
        note="Printed eta = proof eta / B: it scales as B^-2 (EG's step must scale as 1/B under "
             "(x, y, B) -> (x, cy, cB)); with it the proof's bound exceeds the stated one by "
             "(B + 1/B)/2 for B != 1. At B = 1 the two agree.", detects=1.0)


@register("HK12.Thm3.4.eta_proof", citation="HK12 Thm 3.4 (proof)",
          statement="eta = (1/G) sqrt(log 2d/(5m)) with G = 2B sqrt(2d/k) gives 4B^2 sqrt(10 d log 2d/(km)) "
          "and eta <= 1/(2G) when m >= log 2d", assumptions="m >= log 2d",
          method="sympy", delta=0.0, detectable=0.0)
def check_hk12_thm34_proof(ctx):
    """HK12 Thm 3.4 proof: η minimises B(log 2d/(ηm) + 5ηG²), the value and η ≤ 1/(2G)."""
    d, m, eta, G = (bounds.SYMBOLS[n] for n in ("d", "m", "eta", "G"))
    F = bounds.FORMULAS
    gen = F["HK12.Thm3.4.generic"].expr
    ep = F["HK12.Thm3.4.eta_proof"].expr
    ok1 = _zero(_argmin(gen, eta) - ep)
    Gv = sp.sqrt(F["HK12.Lemma3.8.G2"].expr)
    ok2 = _zero(gen.subs(eta, ep).subs(G, Gv) - F["HK12.Thm3.4.bound"].expr)
    # eta <= 1/(2G)  <=>  log 2d / (5m) <= 1/4  <=>  m >= (4/5) log 2d, implied by m >= log 2d
    cond = sp.solve(sp.Eq(ep * 2 * G, 1), m)
    ok3 = len(cond) == 1 and _zero(cond[0] - sp.Rational(4, 5) * sp.log(2 * d))
    return Result(_status(ok1 and ok2 and ok3), {"argmin": ok1, "bound": ok2,
                                                 "eta<=1/(2G)_iff_m>=": str(cond)}, detects=1.0)


@register("HK12.Thm4.4.form", citation="HK12 Thm 4.4",
          statement="m = O(d/k) exp(O(log^2(B/eps))) examples give E L(w-bar) <= L(w*) + eps; at most "
          "k + 6 attributes per example in expectation", assumptions="||x||_2 <= 1, |y| <= B",
          method="sympy: inverting exp(c L^2) sqrt(d/(km)) <= eps (L = ln(B/eps)) gives "
          "m = (d/k) exp(2c L^2 + 2 ln(1/eps)) <= (d/k) exp((2c + 2) L^2) for B >= 1, L >= 1; "
          "k + 2 x 3 attributes (two GenEst calls, Lemma 4.1)", delta=0.0, detectable=0.0)
def check_hk12_thm44(ctx):
    """HK12 Thm 4.4: the bound's form inverts to the printed sample complexity."""
    d, k, m, B, eps, c = (bounds.SYMBOLS[n] for n in ("d", "k", "m", "B", "eps", "c"))
    F = bounds.FORMULAS
    bound = F["HK12.Thm4.4.bound"].expr
    msol = sp.solve(sp.Eq(bound, eps), m)
    L = sp.log(B / eps)
    ok1 = len(msol) == 1 and _zero(msol[0] - d / k * sp.exp(2 * c * L ** 2) / eps ** 2)
    # 1/eps^2 = exp(2 ln(1/eps)) = exp(2L - 2 ln B) <= exp(2 L^2) when B >= 1 and L >= 1
    worst = max((2 * math.log(1 / ev)) / (2 * math.log(bv / ev) ** 2)
                for bv in (1.0, 2.0, 10.0) for ev in (1e-6, 1e-3, 0.1, 0.3) if math.log(bv / ev) >= 1)
    ok2 = worst <= 1
    ok3 = F["HK12.Thm4.4.attributes"].expr == k + 2 * 3
    return Result(_status(ok1 and ok2 and ok3), {"m_solution": str(msol), "max_ratio": worst,
                                                 "attributes": str(F["HK12.Thm4.4.attributes"].expr)})


@register("HK12.ThmB.1.exact", citation="HK12 Thm B.1 / Lemma B.4 / Lemma B.5",
          statement="hard instance (k = 1/eps^2 rows r_i e_i, y = 1): L(w*) = (1 - eps)^2 with "
          "w* = sum_T eps r_i e_i; L(w) = (1/k) sum_T (1 - 2 w_i r_i + w_i^2)",
          assumptions="loss without 1/2 (as in App. B); ||w||_2 <= 1",
          method="exact (sympy Rationals, eps = 1/2, d = 6): risk identity, w* is the minimiser "
          "over the unit L2 ball (KKT), L(w*) = (1 - eps)^2; with HK12 eq. (1)'s 1/2 it is "
          "(1 - eps)^2/2", delta=0.0, detectable=0.0)
def check_hk12_thmb1(ctx):
    """HK12 Thm B.1: the lower-bound instance's exact risk and optimum."""
    e = sp.Rational(1, 2)
    kk = int(1 / e ** 2)
    dd = 6
    r = [1, -1, 1, 1]
    T = [0, 2, 3, 5]
    w = sp.Matrix(sp.symbols(f"w0:{dd}", real=True))
    risk = sum(sp.Rational(1, kk) * (1 - w[i] * ri) ** 2 for i, ri in zip(T, r))
    printed = sum(sp.Rational(1, kk) * (1 - 2 * w[i] * ri + w[i] ** 2) for i, ri in zip(T, r))
    ok1 = sp.simplify(risk - printed) == 0
    wstar = [0] * dd
    for i, ri in zip(T, r):
        wstar[i] = e * ri
    sub = dict(zip(w, wstar))
    risk_star = bounds.FORMULAS["HK12.ThmB.1.risk_star"].expr.subs(bounds.SYMBOLS["eps"], e)
    ok2 = sp.simplify(risk.subs(sub) - risk_star) == 0
    # KKT on ||w||_2 <= 1: grad L(w*) = -mu w*, mu >= 0, ||w*|| = 1
    grad = [sp.diff(risk, wi).subs(sub) for wi in w]
    mu = -grad[T[0]] / wstar[T[0]]
    ok3 = mu >= 0 and all(sp.simplify(g + mu * ws) == 0 for g, ws in zip(grad, wstar)) and \
        sp.simplify(sum(ws ** 2 for ws in wstar) - 1) == 0
    return Result(_status(ok1 and ok2 and bool(ok3)),
                  {"risk_identity": ok1, "L(w*)": str(risk.subs(sub)), "kkt_mu": str(mu),
                   "with_half_loss": str(risk.subs(sub) / 2)},
                  note="App. B drops the 1/2 of HK12 eq. (1): with it, L(w*) = (1 - eps)^2/2 and "
                       "Lemma B.5's threshold 1 - 2(1 - delta)eps halves too.", detects=1.0)


@register("HK12.Table1.algebra", citation="HK12 Table 1",
          statement="sample complexities: ridge O(d/(k eps^2)), lasso O(d log d/(k eps^2)); previous "
          "O(d^2 log(d/eps)/(k eps^2))", assumptions="d >= 2",
          method="sympy: solving Thm 3.1's and Thm 3.4's bounds = eps for m; ratio to the table "
          "entries is a constant (resp. bounded by 160 B^4 log(2d)/log d <= 320 B^4); CB11 Thm 12's "
          "bound at m = C d^2 log(d/eps)/(k eps^2) is <= eps on a grid", delta=0.0, detectable=0.0)
def check_hk12_table1(ctx):
    """HK12 Table 1: the table entries are the theorems' bounds solved for m."""
    d, m, B, eps = (bounds.SYMBOLS[n] for n in ("d", "m", "B", "eps"))
    F = bounds.FORMULAS
    mr = sp.solve(sp.Eq(F["HK12.Thm3.1.bound"].expr, eps), m)[0]
    ml = sp.solve(sp.Eq(F["HK12.Thm3.4.bound"].expr, eps), m)[0]
    r1 = sp.simplify(mr / F["HK12.Table1.ridge"].expr)
    r2 = sp.simplify(ml / F["HK12.Table1.lasso"].expr)
    ok1 = r1 == 32 * B ** 4
    ok2 = sp.simplify(r2 - 160 * B ** 4 * sp.log(2 * d) / sp.log(d)) == 0
    # previous: CB11 Thm 12 (proof, in expectation; unhalved loss) <= eps at m = C d^2 log(d/eps)/(k eps^2)
    worst = 0.0
    Cc = 2048
    for dv, kv, ev in itertools.product([2, 10, 100, 1000], [2], [0.3, 0.1, 0.01, 1e-3]):
        mv = math.ceil(Cc * dv ** 2 * math.log(dv / ev) / (kv * ev ** 2))
        worst = max(worst, F["CB11.Thm12.bound_expectation"](d=dv, k=kv, m=mv, B=1) / ev)
    ok3 = worst <= 1
    return Result(_status(ok1 and ok2 and ok3), {
        "ridge_m_over_table": str(r1), "lasso_m_over_table": str(r2),
        "prev_max_bound_over_eps_at_C=2048": worst}, detects=1.0)
