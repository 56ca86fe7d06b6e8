"""The helpers shared by the checks of the formulas of laocheck.bounds derived from the proofs of
several papers (their checks: ``cb11/derivations.py``, ``hk12/derivations.py``,
``ks15/derivations.py``, ``lao/derivations.py``).

Derivations of the formulas of :mod:`laocheck.bounds` from the pieces their proofs combine.

Each check here rebuilds, with sympy, the formulas one theorem or lemma contributes to
``laocheck.bounds.FORMULAS`` from what the paper displays: the regret or concentration lemma the
proof applies (online gradient descent's 2B²/η + (η/2)Σ‖g̃‖² of HK12 Lemma 3.2, the
multiplicative-weights and clipping terms of HK12 Lemmas 3.6 and 3.7, Hoeffding's inequality
with a union bound, the strongly convex regret of CB11 Thm 12's proof), the second-moment lemma
(HK12 Lemma 3.3's 4B²·2d/k, KS15 Lemma 3.4's 4B²(S/k + 1)), the step size chosen (the
minimiser of the regret bound over η, ``solve(diff(bound, η))``) and the displayed inequality
steps of the proof (each proved for positive symbols under the stated assumptions). The result
is compared with the registered formula: equal after simplification, or the check FAILs with
the difference. Nothing is statistical (δ = 0): a changed constant, exponent or factor of a
formula is a FAIL here.

Where a formula of ``laocheck.bounds`` is a printed statement the catalog already records as an
erratum, the check verifies the exact relation between the printed and the derived formula (the
stated η of HK12 Thm 3.4 is the derived one divided by B); any other change of it FAILs too.

The pieces reuse the constants the proof inventory already holds
(:mod:`laocheck.checks.hk12.proofs`, :mod:`~laocheck.checks.ks15.proofs`,
:mod:`~laocheck.checks.cb11.proofs`: the printed terms of the regret displays), so the
derivation and the proof-step checks read the same transcription. The symbolic pieces that no
module held are typed here, each with its label.
"""

from __future__ import annotations

from fractions import Fraction

from ... import bounds
from ..._lazy import load
from .._registry import Result, Status

# sympy is imported on first use (laocheck list imports every check module)
sp = load("sympy")

__all__ = ["derive", "same", "nonnegative"]

_METHOD = ("sympy: the formula rebuilt from the proof's pieces (its regret / concentration "
           "lemma, second-moment lemma, the step size minimising the bound, the displayed "
           "inequality steps proved for positive symbols) and compared with laocheck.bounds "
           "(simplify(derived − registered) == 0)")
_DETECTS = "any change of the registered formula that is not an algebraic identity"


def _q(c):
    """A printed constant (int or Fraction) as an exact sympy number."""
    c = Fraction(c)
    return sp.Rational(c.numerator, c.denominator)


def _S(*names):
    """The symbols of laocheck.bounds by name (one, or a tuple)."""
    out = tuple(bounds.SYMBOLS[n] for n in names)
    return out[0] if len(out) == 1 else out


def same(a, b):
    """True when sympy proves ``a == b``.

    ``simplify(a − b) == 0``, after ``expand_log``; for two positive expressions (radicals that
    ``simplify`` leaves nested) ``simplify(a² − b²) == 0``; for ``Max`` / ``Min`` the arguments
    pairwise. Never numeric: a False means "not proved equal".

    Parameters
    ----------
    a, b : sympy.Expr
        The two expressions.

    Returns
    -------
    bool
        Whether they are proved equal.
    """
    a, b = sp.sympify(a), sp.sympify(b)
    for cls in (sp.Max, sp.Min):
        if isinstance(a, cls) or isinstance(b, cls):
            if not (isinstance(a, cls) and isinstance(b, cls)) or len(a.args) != len(b.args):
                return False
            rest = list(b.args)
            for x in a.args:
                hit = next((y for y in rest if same(x, y)), None)
                if hit is None:
                    return False
                rest.remove(hit)
            return True
    diff = a - b
    if sp.simplify(diff) == 0 or sp.simplify(sp.expand_log(diff, force=True)) == 0:
        return True
    if _on_domain(a).is_positive and _on_domain(b).is_positive:
        sq = sp.expand(sp.expand_log(a ** 2 - b ** 2, force=True))
        return sp.simplify(sq) == 0 or sp.simplify(a ** -2 - b ** -2) == 0
    return False


def _on_domain(expr):
    """``expr`` on the papers' standing domain, for sign decisions only: d, k, m, m₁, m₂ >= 1
    and 0 < δ < 1 written with nonnegative slacks (d = 1 + v_d, δ = 1/(1 + u))."""
    names = [n for n in ("d", "k", "m", "m1", "m2") if bounds.SYMBOLS[n] in expr.free_symbols]
    at = {bounds.SYMBOLS[n]: 1 + sp.Symbol(f"v_{n}", nonnegative=True) for n in names}
    at[bounds.SYMBOLS["delta"]] = 1 / (1 + sp.Symbol("u_delta", nonnegative=True))
    return sp.expand_log(expr.subs(at), force=True)


def nonnegative(expr, **subs):
    """True when sympy proves ``expr >= 0`` for positive symbols after ``subs``.

    ``subs`` expresses an assumption as a substitution with a nonnegative slack (``d = k + s``
    for k <= d). Never numeric: a False means "not proved".
    """
    e = sp.sympify(expr).subs({bounds.SYMBOLS[n] if n in bounds.SYMBOLS else sp.Symbol(n): v
                                for n, v in subs.items()})
    e = sp.simplify(sp.factor(sp.simplify(e)))
    return bool(e.is_nonnegative) or bool(sp.simplify(sp.expand(e)).is_nonnegative)


def _minimiser(expr, var):
    """The unique positive stationary point of ``expr`` in ``var`` (``solve(diff)``), checked to
    be a minimum (second derivative positive there)."""
    sols = [s for s in sp.solve(sp.diff(expr, var), var) if s.is_positive is not False]
    if len(sols) != 1:
        raise RuntimeError(f"expected one positive stationary point of {expr} in {var}: {sols}")
    best = sp.simplify(sols[0])
    # a/η + bη (a, b > 0 where the bound is used, e.g. log m > 0): the second derivative 2a/η³
    if sp.simplify(sp.diff(expr, var, 2).subs(var, best)).is_negative:
        raise RuntimeError(f"the stationary point {best} is not a minimum of {expr}")
    return best


def derive(rows, steps=(), note=""):
    """The verdict of a derivation.

    Parameters
    ----------
    rows : list of (str, sympy.Expr, str)
        ``(formula id, derived expression, how)``: the registered formula must equal the
        derived one.
    steps : list of (str, bool)
        The displayed inequality steps used and whether sympy proved them.
    note : str
        A sentence for the report.

    Returns
    -------
    Result
        PASS when every step holds and every formula equals its derivation, else FAIL with the
        first mismatch as counterexample.
    """
    figures, bad = {"compared": [], "steps": {}}, None
    for text, ok in steps:
        figures["steps"][text] = bool(ok)
        if not ok and bad is None:
            bad = {"step": text, "proved": False}
    for fid, derived, how in rows:
        registered = bounds.FORMULAS[fid].expr
        ok = same(derived, registered)
        figures["compared"].append({"formula": fid, "derived": str(sp.simplify(derived)),
                                    "registered": str(registered), "how": how, "equal": ok})
        if not ok and bad is None:
            bad = {"formula": fid, "derived": str(sp.simplify(derived)),
                   "registered": str(registered),
                   "difference": str(sp.simplify(derived - registered))}
    figures["checked"] = len(rows) + len(figures["steps"])
    # an identity of sympy expressions of numbers: any changed constant, exponent or factor
    # is a mismatch (detects 1x, the exact comparisons' factor of the Result docstring)
    if bad is not None:
        return Result(Status.FAIL, figures, counterexample=bad, detectable=0.0, note=note,
                      detects=1.0)
    return Result(Status.PASS, figures, detectable=0.0, note=note, detects=1.0)


#: HK12 Lemma 3.6 (multiplicative weights on the clipped ḡ_t): B(log 2d/η + 1·ηG²m), and
#: HK12 Lemma 3.7 (clipping): + 4BηG²m, as the lemmas print them.
_L36_ENTROPY, _L36_VARIANCE, _L37_CLIP = 1, 1, 4


def _eg_excess(eta, G, m):
    """HK12 Lemmas 3.6 + 3.7 in expectation, divided by m (HK12 Thm 3.4's proof, display 1;
    KS15 Thm 4.1, App. B.8): B(log 2d/η + (1 + 4)ηG²m)/m."""
    B, d = _S("B", "d")
    regret = B * (_L36_ENTROPY * sp.log(2 * d) / eta + _L36_VARIANCE * eta * G ** 2 * m)
    regret += _L37_CLIP * B * eta * G ** 2 * m
    return regret / m

#: relative tolerance of a float comparison: a few units in the last place of sums of <= 8 terms
_RTOL = 1e-12


def _verdict(ok, figures, counterexample=None):
    if ok:
        return Result(Status.PASS, figures, detectable=0.0, detects=1.0)
    return Result(Status.FAIL, figures, counterexample=counterexample, detectable=0.0,
                  detects=1.0)


# =============================================================================================
# Formulas of laocheck.bounds that no derivation covered (the mutation engine's survivors)
# =============================================================================================

_KIND_ORDER = "O() entries and sample complexities"


def bounds_sym(name):
    """The symbol of laocheck.bounds called ``name``."""
    return bounds.SYMBOLS[name]
