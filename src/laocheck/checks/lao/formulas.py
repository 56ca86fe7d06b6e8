"""LAO: the formulas of laocheck.bounds and the papers' tables (ids ``LAO.*``).

The helpers these checks share with the other papers' are in
:mod:`laocheck.checks._kinds.formulas`, which says how this kind of check works.
"""

from __future__ import annotations

from ... import bounds
from ..._lazy import load
from .._kinds.formulas import _status
from .._registry import Result, Status, checks, register

# sympy is imported on first use (laocheck list imports every check module)
sp = load("sympy")


@register("LAO.Bounds.scaling", citation="CB11, HK12, KS15 bounds: scaling (dimensional analysis)",
          statement="(x, y, B) -> (x, cy, cB) multiplies excess risks and every bound by c^2 "
          "(ridge step sizes invariant, EG step sizes by 1/c)",
          assumptions="G -> cG (the gradient estimate scales by c), moments of x unchanged",
          method="sympy: each formula with a declared scaling exponent, B -> cB, G -> cG, "
          "eta -> c^s eta (s = 0 ridge, -1 lasso), lam unchanged", delta=0.0, detectable=0.0)
def check_scale(ctx):
    """The scale check (dimensional analysis) on every formula of CB11, HK12 and KS15 with a
    declared exponent; HK12 Thm 3.4's printed η and KS15 Thm 3.12's printed bound fail it.
    Every declared exponent is also its kind's (bound and G² c², ratio c⁰, a ridge step c⁰, an
    EG step c⁻¹), erratum or not."""
    rows = scale_report()
    bad = [r for r in rows if not r["ok"]]
    subjects = _erratum_subjects()
    unexplained = [r["id"] for r in bad if r["id"] not in subjects]
    # an erratum excuses an expression that does not scale, never a declared exponent that is
    # not its kind's (a bound's c², a ridge step's c⁰, an EG step's c⁻¹): that is checked on
    # every formula, erratum or not
    wrong_declared = [r["id"] for r in rows if not r["declared_ok"]]
    ok = not unexplained and not wrong_declared
    return Result(_status(ok), {"checked": len(rows), "not_scaling": [r["id"] for r in bad],
                                "not_scaling_without_erratum": unexplained,
                                "declared_exponent_not_its_kinds": wrong_declared},
                  note="Formulas that do not scale: " + ", ".join(
                      f"{r['id']} (ratio {r['ratio']}, {', '.join(subjects.get(r['id'], ['no erratum']))})"
                      for r in bad) + ". A formula that does not scale must be the literal "
                  "statement of a registered ERRATUM or READING check.", detects=1.0)


def _erratum_subjects():
    """Formula id -> the ERRATUM / READING checks whose code names it (the literal statements
    the catalog reports as false or as an extraction's reading)."""
    F = bounds.FORMULAS
    out = {}
    for check in checks():
        if check.expected not in (Status.ERRATUM, Status.READING):
            continue
        for key in _code_strings(check.func.__code__):
            if key in F:
                out.setdefault(key, []).append(check.id)
    return out


def _code_strings(code):
    out = set()
    for const in code.co_consts:
        if isinstance(const, str):
            out.add(const)
        elif hasattr(const, "co_consts"):
            out |= _code_strings(const)
    return out


def scale_report():
    """For each formula of CB11/HK12/KS15 with a declared scaling exponent: does B -> cB
    (G -> cG, eta -> c^s eta) multiply it by c^exponent?."""
    B, eta, G = (bounds.SYMBOLS[n] for n in ("B", "eta", "G"))
    F = bounds.FORMULAS
    cc = sp.Symbol("cc", positive=True)
    rows = []
    for fid in sorted(F):
        f = F[fid]
        if f.scaling is None:
            continue
        e = f.expr
        # a bound's eta scales like its algorithm's step: lasso formulas (log 2d with eta) by 1/c
        lasso = "Thm4" in fid or "Thm3.4" in fid or "Lemma4" in fid
        sub = {B: cc * B, G: cc * G, eta: (eta / cc if lasso else eta)}
        ratio = sp.simplify(e.xreplace(sub) / e)
        ok = sp.simplify(ratio - cc ** f.scaling) == 0
        # the exponent a quantity of this kind has, whatever its expression: an excess-risk bound
        # and a second moment of the gradient estimate scale by c², a ratio not at all, a step
        # size as its algorithm's step (above); None: a component, no fixed dimension
        dimension = {"bound": 2, "G2": 2, "ratio": 0, "eta": -1 if lasso else 0}.get(f.kind)
        rows.append({"id": fid, "expected": f"c^{f.scaling}", "ratio": str(ratio).replace("cc", "c"),
                     "ok": bool(ok), "kind": f.kind, "kind_exponent": dimension,
                     "declared_ok": dimension is None or f.scaling == dimension})
    return rows
