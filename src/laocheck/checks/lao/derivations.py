"""LAO: the formulas of laocheck.bounds derived from the proofs (ids ``LAO.*``).

The helpers these checks share with the other papers' are in
:mod:`laocheck.checks._kinds.derivations`, which says how this kind of check works.
"""

from __future__ import annotations

from ... import bounds
from ..._lazy import load
from .._kinds.derivations import _verdict, bounds_sym
from .._registry import register
from .formulas import scale_report

# sympy is imported on first use (laocheck list imports every check module)
sp = load("sympy")

__all__ = []


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
          method="sympy: LAO.Bounds.scaling's report (laocheck.checks.lao.formulas.scale_report) "
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
