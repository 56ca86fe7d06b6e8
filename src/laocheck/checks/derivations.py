"""Derivations of the formulas of :mod:`laocheck.bounds` from the pieces their proofs combine.

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

from .. import bounds
from .._lazy import load
from .cb11 import proofs as proofs_cb11
from .hk12 import proofs as proofs_hk12
from .ks15 import proofs as proofs_ks15
from ._errata import note_erratum
from ._errata_readings import read
from ._registry import Result, Status, register

# start-up: sympy loads on first use, when a check runs; `laocheck list` reads only the
# registrations
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


# =============================================================================================
# Shared pieces
# =============================================================================================

def _ogd_excess(eta, G, m):
    """HK12 Lemma 3.2 (OGD regret, Zinkevich), in expectation and divided by m (HK12 Thm 3.1's
    proof, displays 1-2; KS15 Thm 3.1): (2B²/η + (η/2)G²m)/m, the printed constants of the
    proof inventory (``proofs_hk12``)."""
    B = _S("B")
    return (_q(proofs_hk12._T31_DIAMETER) * B ** 2 / eta
            + _q(proofs_hk12._T31_VARIANCE) * eta * G ** 2 * m) / m


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


def _hk12_second_moment():
    """HK12 Lemma 3.3 (proof, App. A.1) and Lemma 3.8 (App. A.5): the pieces and the bound.

    E‖x̃_{t,r}‖² = d‖x‖² (uniform i, x̃_r = d x[i] e_i), k(k − 1) cross terms ‖x‖²: (9)
    E‖x̃‖² = (1/k²)(k·d‖x‖² + k(k − 1)‖x‖²); then E‖x̃‖² <= 2d/k (k <= d, ‖x‖ <= 1); (10)
    E φ̃² <= 2(‖w‖²‖x‖² + y²) <= 4B²; by independence G² = (2d/k)(4B²). Returns
    (G², steps)."""
    d, k, B = _S("d", "k", "B")
    x2 = sp.Symbol("x2", positive=True)                  # ‖x‖² (or x_i² for Lemma 3.8)
    s = sp.Symbol("s", nonnegative=True)
    e_xr = d * x2                                        # E‖x̃_{t,r}‖²
    e_x = (k * e_xr + k * (k - 1) * x2) / k ** 2         # (9) before simplification
    bound_x = 2 * d / k
    step9 = nonnegative((bound_x - e_x).subs(x2, 1), d=k + s) and nonnegative(
        sp.diff(e_x, x2), k=1 + s)                       # increasing in ‖x‖², at ‖x‖² <= 1
    phi = 2 * (B ** 2 * 1 + B ** 2)                      # (10) at ‖w‖ <= B, ‖x‖ <= 1, |y| <= B
    steps = [("(9): E‖x̃‖² = (d + k − 1)/k ‖x‖² <= 2d/k for k <= d, ‖x‖ <= 1", step9),
             ("(9) simplifies to (d + k − 1)/k ‖x‖²",
              same(e_x, (d + k - 1) / k * x2))]
    return bound_x * phi, steps


def _ks15_second_moment(S_sym):
    """KS15 Lemma 3.4 (3.2 with 3.3) / Lemma 4.5 (4.2 with 4.4): E‖x̃‖² = (1/k)S +
    ((k − 1)/k)E‖x‖² <= S/k + 1 (‖x‖ <= 1) times E φ̃² <= 4B² (independence). Returns (G²,
    steps)."""
    k, B = _S("k", "B")
    s = sp.Symbol("s", nonnegative=True)
    ex2 = sp.Symbol("ex2", positive=True)                # E‖x‖²   (or E‖x‖∞²)
    e_x = S_sym / k + (k - 1) / k * ex2                  # Lemma 3.2 / 4.2
    upper = S_sym / k + 1
    step = nonnegative((upper - e_x).subs(ex2, 1), k=1 + s) and nonnegative(
        sp.diff(e_x, ex2), k=1 + s)                      # increasing in E‖x‖², at E‖x‖² <= 1
    return 4 * B ** 2 * upper, [("Lemma 3.2/4.2: S/k + ((k − 1)/k)E‖x‖² <= S/k + 1", step)]


# =============================================================================================
# HK12
# =============================================================================================

_HK12_ASSUME = "d >= k >= 1, m >= 1, B > 0; ‖x‖ <= 1, |y| <= B, ‖w‖ <= B"


@register("HK12.Lemma3.3.derivation", citation="HK12 Lemma 3.3 (proof, App. A.1)",
          statement="E‖g̃_t‖² <= 8B²d/k follows from (9) E‖x̃_t‖² <= 2d/k and (10) E φ̃_t² <= 4B² "
          "by independence", assumptions=_HK12_ASSUME, method=_METHOD, delta=0.0,
          detectable=_DETECTS)
def check_hk12_lemma33(ctx):
    """HK12 Lemma 3.3: G² = 8B²d/k (laocheck.bounds ``HK12.Lemma3.3.G2``) derived."""
    G2, steps = _hk12_second_moment()
    return derive([("HK12.Lemma3.3.G2", G2, "(2d/k)·4B², App. A.1 (9)-(10)")], steps)


@register("HK12.Lemma3.8.derivation", citation="HK12 Lemma 3.8 (proof, App. A.5)",
          statement="‖E g̃_t²‖∞ <= 8B²d/k follows from E x̃_t² = ((d + k − 1)/k) x_t² <= 2d/k "
          "and E φ̃_t² <= 4B² (as in Lemma 3.3)", assumptions=_HK12_ASSUME.replace(
              "‖x‖ <= 1", "‖x‖∞ <= 1").replace("‖w‖ <= B", "‖w‖₁ <= B"),
          method=_METHOD, delta=0.0, detectable=_DETECTS)
def check_hk12_lemma38(ctx):
    """HK12 Lemma 3.8: G² = 8B²d/k (``HK12.Lemma3.8.G2``) derived coordinatewise."""
    G2, steps = _hk12_second_moment()
    return derive([("HK12.Lemma3.8.G2", G2, "(2d/k)·4B², App. A.5")], steps)


@register("HK12.Thm3.1.derivation", citation="HK12 Thm 3.1 (proof)",
          statement="Lemma 3.2's regret in expectation, divided by m, is 2B²/(ηm) + ηG²/2; its "
          "minimiser is η = 2B/(G√m), where it is 2BG/√m; with G = 2B√(2d/k) (Lemma 3.3) "
          "η = √(k/(2dm)) and the bound is 4B²√(2d/(km))", assumptions=_HK12_ASSUME,
          method=_METHOD, delta=0.0, detectable=_DETECTS)
def check_hk12_thm31(ctx):
    """HK12 Thm 3.1: the generic bound, both step sizes and the bound derived."""
    eta, G, m = _S("eta", "G", "m")
    generic = _ogd_excess(eta, G, m)
    best = _minimiser(generic, eta)
    G2, steps = _hk12_second_moment()
    at_g = {G: sp.sqrt(G2)}
    return derive([
        ("HK12.Thm3.1.generic", generic, "Lemma 3.2 in expectation / m"),
        ("HK12.Thm3.1.eta_proof", best, "solve(d generic / d eta = 0)"),
        ("HK12.Thm3.1.eta", best.subs(at_g), "the minimiser at Lemma 3.3's G"),
        ("HK12.Thm3.1.bound", generic.subs(eta, best).subs(at_g),
         "generic at the minimiser, Lemma 3.3's G"),
    ], steps)


@register("HK12.Thm3.4.derivation", citation="HK12 Thm 3.4 (proof)",
          statement="Lemmas 3.6 + 3.7 give B(log 2d/η + 5ηG²m); divided by m, its minimiser is "
          "η = (1/G)√(log 2d/(5m)) (<= 1/(2G) when m >= log 2d), where it is 2BG√(5 log 2d/m); "
          "with G = 2B√(2d/k) (Lemma 3.8) the bound is 4B²√(10d log 2d/(km)); the printed η is "
          "the derived one divided by B (the registered erratum)",
          assumptions=_HK12_ASSUME.replace("‖x‖ <= 1", "‖x‖∞ <= 1").replace(
              "‖w‖ <= B", "‖w‖₁ <= B") + ", m >= log 2d", method=_METHOD, delta=0.0,
          detectable=_DETECTS)
def check_hk12_thm34(ctx):
    """HK12 Thm 3.4: the generic bound, the proof's η, the bound, and the printed η's relation
    to the derived one (ERRATUM ``HK12.Thm3.4.eta``: a factor 1/B)."""
    eta, G, m, d, B = _S("eta", "G", "m", "d", "B")
    generic = _eg_excess(eta, G, m)
    best = _minimiser(generic, eta)
    G2, steps = _hk12_second_moment()
    at_g = {G: sp.sqrt(G2)}
    s = sp.Symbol("s", nonnegative=True)
    side = nonnegative((1 / (2 * G)) ** 2 - best.subs(m, (1 + s) * sp.log(2 * d)) ** 2)
    steps = steps + [("η <= 1/(2G) (Lemma 3.7's condition) when m >= log 2d", side),
                     ("Lemmas 3.6 + 3.7: 1 + 4 = the inventory's 5",
                      _L36_VARIANCE + _L37_CLIP == proofs_hk12._T34_VARIANCE)]
    return derive([
        ("HK12.Thm3.4.generic", generic, "Lemmas 3.6 + 3.7 in expectation / m"),
        ("HK12.Thm3.4.eta_proof", best, "solve(d generic / d eta = 0)"),
        ("HK12.Thm3.4.bound", generic.subs(eta, best).subs(at_g),
         "generic at the minimiser, Lemma 3.8's G"),
        ("HK12.Thm3.4.eta", best.subs(at_g) / B,
         "the printed step size = the derived one / B (ERRATUM HK12.Thm3.4.eta)"),
    ], steps)


@register("HK12.Thm4.4.derivation", citation="HK12 Thm 4.4 (proof)",
          statement="E‖g̃_t‖² = E[φ̃_t²]·E‖x̃_t‖² with E‖x̃_t‖² <= 2d/k (Lemma 3.3's (9) on the "
          "unscaled x_t, which the proof repeats) gives G² = Φ·2d/k, Φ := E[φ̃²]; Thm 3.1's "
          "2B²/(ηm) + ηG²/2 at its minimiser is 2BG/√m = 2B√(2Φd/(km)); the proof's display "
          "prints exp(O(log²(B/ε)))·d/k, the factor 2 inside its O",
          assumptions="‖x‖₂ <= 1, |y| <= B: HK12 Thm 4.4, “Assume the distribution D is such "
          "that ‖x‖₂ ≤ 1 and |y| ≤ B with probability 1”; ‖w‖₂ <= B (the ball of Alg. 4); "
          "1 <= k <= d", method=_METHOD, delta=0.0, detectable=_DETECTS)
def check_hk12_thm44(ctx):
    """HK12 Thm 4.4: ``HK12.Thm4.4.bound_G`` derived from the second moment and Thm 3.1.

    Read with the display's constant (G² = Φ·d/k) the formula would be √2 below what the
    proof's pieces give: E‖x̃‖² = ((d + k − 1)/k)‖x‖² exceeds d/k at ‖x‖ = 1, k >= 2."""
    eta, G, m, B = _S("eta", "G", "m", "B")
    Phi = _S("Phi")
    generic = _ogd_excess(eta, G, m)
    best = _minimiser(generic, eta)
    G2_hk, steps = _hk12_second_moment()                 # (2d/k)·4B²: its 2d/k is (9)'s
    bound_x = sp.simplify(G2_hk / (4 * B ** 2))
    return derive([("HK12.Thm4.4.bound_G", generic.subs(eta, best).subs(G, sp.sqrt(Phi * bound_x)),
                    "Thm 3.1 at its minimiser, G² = Φ·E‖x̃‖² <= Φ·2d/k")], steps)


_T44_FORM_MISSING = ("an explicit constant c with 2B√(2Φ) <= exp(c·log²(B/ε)), Φ = sup_t "
                     "E_t[φ̃_t²]: the proof takes E_t[φ̃_t²] = exp(O(log²(B/ε))) from Lemma 4.1 "
                     "(“according to the same lemma”), which displays no constant (its proof's "
                     "E[φ̂²] <= (4B)^{2ν}·2(f′₊(1))² is the registered erratum "
                     "HK12.Lemma4.1.proof.step10), and 2B√2 (in the bound) and 8B²/ε² (in (8)) "
                     "are absorbed into exp(O(log²(B/ε))) only where log²(B/ε) is bounded "
                     "below")


@register("HK12.Thm4.4.form_constant", citation="HK12 Thm 4.4 (statement, eq. (8); Table 1's "
          "AESVR entry)",
          statement="from 2B√(2Φd/(km)) (HK12.Thm4.4.derivation) the O-forms "
          "exp(c log²(B/ε))√(d/(km)) and m = (d/k)·exp(c log²(B/ε)) (eq. (8); Table 1 at B = 1): "
          "their d, k and m dependence is derived; the step from Φ to exp(c log²(B/ε)) is not "
          "displayed (READING: " + _T44_FORM_MISSING + ")",
          assumptions="‖x‖₂ <= 1, |y| <= B: HK12 Thm 4.4, “Assume the distribution D is such "
          "that ‖x‖₂ ≤ 1 and |y| ≤ B with probability 1”; 0 <= δ <= B: HK12 Sec. 4",
          method=_METHOD + "; bound_G / bound and (bound_G = ε solved for m) / samples must be "
          "free of d, k and m, and Table 1's entry eq. (8) at B = 1; the rest (B, ε, Φ, c) is "
          "the missing step", delta=0.0, detectable=_DETECTS, expected=Status.READING,
          correction="HK12.Thm4.4.derivation")
def check_hk12_thm44_form(ctx):
    """HK12 Thm 4.4: the O-forms ``HK12.Thm4.4.bound``, ``HK12.Thm4.4.samples`` and
    ``HK12.Table1.svr`` against the derived bound in Φ: READING (the constant of the O is not
    derivable from the displays), FAIL when their d, k or m dependence is not the derived one."""
    d, k, m, B, eps = _S("d", "k", "m", "B", "eps")
    F = bounds.FORMULAS
    bound_G = F["HK12.Thm4.4.bound_G"].expr
    r_bound = sp.simplify(bound_G / F["HK12.Thm4.4.bound"].expr)
    m_G = sp.solve(sp.Eq(bound_G, eps), m)
    r_samples = sp.simplify(m_G[0] / F["HK12.Thm4.4.samples"].expr) if len(m_G) == 1 else None
    table = same(F["HK12.Table1.svr"].expr, F["HK12.Thm4.4.samples"].expr.subs(B, 1))
    scale = {d, k, m}
    figures = {"bound_G/bound": str(r_bound), "m(bound_G = ε)/samples": str(r_samples),
               "Table1.svr = samples at B = 1": table}
    bad = [name for name, r in (("HK12.Thm4.4.bound", r_bound),
                                ("HK12.Thm4.4.samples", r_samples))
           if r is None or r.free_symbols & scale]
    if not table:
        bad.append("HK12.Table1.svr")
    if bad:
        return Result(Status.FAIL, figures, detectable=0.0,
                      counterexample={"formula": bad[0], "note": "its d, k, m dependence is not "
                                      "that of 2B√(2Φd/(km)) (HK12.Thm4.4.derivation)"})
    return Result(Status.READING, figures, detectable=0.0, correction="HK12.Thm4.4.derivation",
                  counterexample={"missing_step": _T44_FORM_MISSING,
                                  "derived": str(bound_G), "remaining_factor": str(r_bound)},
                  note="not derivable from the displays: " + _T44_FORM_MISSING)


note_erratum(
    "HK12.Thm4.4.form_constant", where="Theorem 4.4 (the O-forms of the bound and of eq. (8))",
    order=(4, 4, 8), kind="reading",
    literal="E[L_D(w̄)] ≤ L_D(w⋆) + exp(O(log²(B/ε)))·√(d/(km)) (the proof's third display), "
            "hence m = O(d/k)·exp(O(log²(B/ε))) (8).",
    why="Not an extraction artefact and not shown false: a step the paper does not display. "
        "The proof's pieces give 2B√(2Φd/(km)) with Φ = sup_t E_t[φ̃_t²] (E‖x̃_t‖² ≤ 2d/k by "
        "Lemma 3.3, which the proof repeats; the check HK12.Thm4.4.derivation). Its d, k and m "
        "dependence is that of the O-forms (derived); what is missing is " + _T44_FORM_MISSING
        + ". laocheck's formulas keep the form with an unspecified c.",
    corrected="2B√(2Φd/(km)) in Φ = sup_t E_t[φ̃_t²], derived from Lemma 3.3 and Theorem 3.1's "
              "proof (the check HK12.Thm4.4.derivation, PASS).")

read("HK12.Thm4.4.form_constant", verdict="reading",
     PDF="“Et[‖g̃t‖²] = Et[φ̃²]·Et[‖x̃t‖²] = exp(O(log² B/ε))·d/k … E[LD(w̄)] ≤ LD(w⋆) + "
         "exp(O(log² B/ε))√(d/(km))” (proof of Theorem 4.4); (8) m = O(d/k)·exp(O(log² B/ε))",
     HTML="\\mathbf{E}_{t}[\\lVert\\tilde{\\mathbf{g}}_{t}\\rVert_{2}^{2}]=\\mathbf{E}_{t}"
          "[\\tilde{\\phi}_{t}^{2}]\\cdot\\mathbf{E}_{t}[\\lVert\\tilde{\\mathbf{x}}_{t}"
          "\\rVert_{2}^{2}]=\\exp(O(\\log^{2}{\\tfrac{B}{\\varepsilon}}))\\cdot\\frac{d}{k}; "
          "m=O\\left(\\frac{d}{k}\\right)\\cdot\\exp\\left({O\\left(\\log^{2}"
          "{\\frac{B}{\\varepsilon}}\\right)}\\right)")


@register("HK12.Thm2.1.derivation", citation="HK12 Thm 2.1 (from CB11 Thm 1)",
          statement="CB11 Thm 1's ½⌊d/(96ε)⌋ attributes, read k per example, are at least "
          "(1/576)·d/(kε) examples when d > 4k, k > 1, ε < 1/16 (then x = d/(96ε) > 3/2 and "
          "⌊x⌋ >= x − 1 >= x/3): Ω(d/(kε)) as HK12 Thm 2.1 states",
          assumptions="0 < ε < 1/16, k > 1, d > 4k: HK12 Thm 2.1, “Let 0 < ε < 1/16, k > 1 and "
          "d > 4k”; CB11 Thm 1's d >= 4 follows", method=_METHOD + "; ⌊x⌋ replaced by its lower "
          "bound x − 1, the inequality proved with nonnegative slacks (d = 9 + s, ε = "
          "1/(16 + u))", delta=0.0, detectable=_DETECTS)
def check_hk12_thm21(ctx):
    """HK12 Thm 2.1: ``HK12.Thm2.1.samples`` (Ω(d/(kε))) from ``CB11.Thm1.attributes`` divided
    by the k attributes of an example; a larger power of d or 1/ε is not implied."""
    d, k, eps = _S("d", "k", "eps")
    s, u = sp.symbols("s u", nonnegative=True)
    attributes = bounds.FORMULAS["CB11.Thm1.attributes"].expr
    floors = list(attributes.atoms(sp.floor))
    lower = attributes.subs({f: f.args[0] - 1 for f in floors})       # ⌊x⌋ >= x − 1
    samples = bounds.FORMULAS["HK12.Thm2.1.samples"].expr
    at = {d: 9 + s, eps: 1 / (16 + u)}                 # k >= 2, d > 4k: d >= 9; ε < 1/16
    x_big = nonnegative(sp.simplify((d / (96 * eps) - sp.Rational(3, 2)).subs(at)))
    # on x >= 3/2: (x − 1)/2 − x/6 = (2x − 3)/6 >= 0, x = d/(96ε) = 3/2 + v
    v = sp.Symbol("v", nonnegative=True)
    gap = (lower / k - samples / 576).subs(d, 96 * eps * (sp.Rational(3, 2) + v))
    return derive([], [("CB11 Thm 1's count is ½⌊d/(96ε)⌋ (one floor)", len(floors) == 1 and same(
                            attributes, sp.floor(d / (96 * eps)) / 2)),
                       ("d > 4k, k > 1, ε < 1/16 give d/(96ε) >= 3/2", x_big),
                       ("½(d/(96ε) − 1)/k >= (1/576)·HK12.Thm2.1.samples at d/(96ε) >= 3/2",
                        nonnegative(gap))])


_B1_MISSING = ("a constant for Fact B.2 (“folklore”, stated without proof: determining A[i] "
               "with probability > 2/3 requires reading Ω(d) entries) and for Corollary B.3 "
               "(“a corollary”, Ω(dk) entries for Ω(k) non-zero entries), on which the proof of "
               "Theorem B.1 (and Theorem 2.2 through it) rests")


@register("HK12.ThmB.1.form_constant", citation="HK12 Thm B.1 and Thm 2.2 (App. B.1-B.2)",
          statement="Theorem 2.2's Ω(d/(kε²)) examples are Theorem B.1's Ω(d/ε²) coordinates "
          "read k per example (derived); the constant of the Ω is not derivable from the "
          "displays (READING: " + _B1_MISSING + ")",
          assumptions="ε = Ω(1/√d): HK12 Thm 2.2 and Thm B.1, “Let ε = Ω(1/√d)”; ‖x‖₂ <= 1, "
          "‖w*‖₂ <= 1, y = ±1", method="sympy: HK12.Thm2.2.samples·k = HK12.ThmB.1.attributes, "
          "both of degree 1 in d and −2 in ε; the Ω constant is the missing step",
          delta=0.0, detectable=_DETECTS, expected=Status.READING, correction="HK12.ThmB.1.exact")
def check_hk12_thmb1_form(ctx):
    """HK12 Thm B.1 / Thm 2.2: the relation of the two Ω-forms derived; READING for the
    constant (the folklore Fact B.2), FAIL when the forms do not match."""
    d, k, eps = _S("d", "k", "eps")
    F = bounds.FORMULAS
    attributes, samples = F["HK12.ThmB.1.attributes"].expr, F["HK12.Thm2.2.samples"].expr
    c = sp.Symbol("c_scale", positive=True)
    related = same(samples * k, attributes)
    degrees = same(attributes.subs({d: c * d}), c * attributes) and same(
        attributes.subs({eps: c * eps}), attributes / c ** 2)
    figures = {"samples·k = attributes": related, "attributes ∝ d/ε²": degrees}
    if not (related and degrees):
        return Result(Status.FAIL, figures, detectable=0.0, counterexample={
            "formula": "HK12.Thm2.2.samples" if not related else "HK12.ThmB.1.attributes",
            "samples": str(samples), "attributes": str(attributes)})
    return Result(Status.READING, figures, detectable=0.0, correction="HK12.ThmB.1.exact",
                  counterexample={"missing_step": _B1_MISSING},
                  note="not derivable from the displays: " + _B1_MISSING)


note_erratum(
    "HK12.ThmB.1.form_constant", where="Theorem B.1 and Theorem 2.2 (the Ω-forms; App. B.1)",
    order=(2, 2, 9), kind="reading",
    literal="Any algorithm for LAO Ridge regression requires to observe at least Ω(d/ε²) "
            "coordinates in order to obtain an O(ε)-approximate solution (B.1); the algorithm "
            "must see (in expectation) at least Ω(d/(kε²)) examples (2.2).",
    why="Not an extraction artefact and not shown false: a step the paper does not display. "
        "Theorem 2.2's count is Theorem B.1's read k attributes per example (derived: the "
        "check verifies samples·k = attributes and the degrees 1 in d, −2 in ε); what is "
        "missing is " + _B1_MISSING + ". Lemma B.4 (L(w*) = (1 − ε)², exact: HK12.ThmB.1.exact) "
        "is checked; Lemma B.5's first relation is a registered erratum "
        "(HK12.ThmB.1.proof.step1).",
    corrected="The hard instance and Lemma B.4 (the check HK12.ThmB.1.exact, PASS); the Ω "
              "constant stays unspecified.")

read("HK12.ThmB.1.form_constant", verdict="reading",
     PDF="“Fact B.2. … Then any algorithm which determines the value of A[i] with probability "
         "> 2/3 must read Ω(d) entries of A.” (the extraction's “>”) “Corollary B.3. Any algorithm that correctly "
         "determines the value of Ω(k) non-zero entries of A with probability > 2/3 must read "
         "Ω(dk) entries of A.” (App. B.1); Theorem B.1: “at least Ω(d/ε²) coordinates”",
     HTML="Our lower bound is based on the following folklore fact: … determines the value "
          "of A[i] with probability \\geqslant\\tfrac{2}{3} must read \\Omega(d) entries of A "
          "(Fact B.2); \\Omega(k) non-zero entries … must read \\Omega(dk) entries of A "
          "(Corollary B.3); Theorem B.1: \\Omega(\\frac{d}{\\varepsilon^{2}}) coordinates")


# =============================================================================================
# KS15
# =============================================================================================

_KS15_RIDGE = "d >= k >= 1, m >= 1, B > 0; ‖x‖₂ <= 1, |y| <= B, ‖w*‖₂ <= B"
_KS15_LASSO = "d >= k >= 1, m >= log 2d, B > 0; ‖x‖∞ <= 1, |y| <= B, ‖w*‖₁ <= B"


def _ks15_ogd(eta, G, m):
    """KS15 Thm 3.1 (App. B.1): (2B²/η + (η/2)G²m)/m with the constants of ``proofs_ks15``."""
    B = _S("B")
    return (_q(proofs_ks15._T31_DIAMETER) * B ** 2 / eta
            + _q(proofs_ks15._T31_VARIANCE) * eta * G ** 2 * m) / m


@register("KS15.Lemma3.4.derivation", citation="KS15 Lemma 3.4 (with eq. (2))",
          statement="E‖g̃_t‖² <= 4B²(S/k + 1) from Lemma 3.2 (E‖x̃‖² = S/k + ((k − 1)/k)E‖x‖²) "
          "and Lemma 3.3 (E φ̃² <= 4B²)", assumptions=_KS15_RIDGE, method=_METHOD, delta=0.0,
          detectable=_DETECTS)
def check_ks15_lemma34(ctx):
    """KS15 Lemma 3.4: ``KS15.Lemma3.4.G2`` derived."""
    G2, steps = _ks15_second_moment(_S("S"))
    return derive([("KS15.Lemma3.4.G2", G2, "Lemma 3.3 × Lemma 3.2")], steps)


@register("KS15.Lemma4.5.derivation", citation="KS15 Lemma 4.5 (with eq. (7))",
          statement="‖E g̃_t²‖∞ <= 4B²(S_∞/k + 1) from Lemma 4.2 and Lemma 4.4",
          assumptions=_KS15_LASSO, method=_METHOD, delta=0.0, detectable=_DETECTS)
def check_ks15_lemma45(ctx):
    """KS15 Lemma 4.5: ``KS15.Lemma4.5.G2`` derived."""
    G2, steps = _ks15_second_moment(_S("S_inf"))
    return derive([("KS15.Lemma4.5.G2", G2, "Lemma 4.4 × Lemma 4.2")], steps)


@register("KS15.Thm3.1.derivation", citation="KS15 Thm 3.1 (App. B.1)",
          statement="OGD's regret in expectation / m is 2B²/(ηm) + ηG²/2, minimised at "
          "η = 2B/(G√m) where it is 2BG/√m", assumptions=_KS15_RIDGE, method=_METHOD,
          delta=0.0, detectable=_DETECTS)
def check_ks15_thm31(ctx):
    """KS15 Thm 3.1: the generic bound, the step size and its value derived."""
    eta, G, m = _S("eta", "G", "m")
    generic = _ks15_ogd(eta, G, m)
    best = _minimiser(generic, eta)
    return derive([("KS15.Thm3.1.generic", generic, "App. B.1"),
                   ("KS15.Thm3.1.eta", best, "solve(d generic / d eta = 0)"),
                   ("KS15.Thm3.1.bound", generic.subs(eta, best), "generic at the minimiser")])


@register("KS15.Thm4.1.derivation", citation="KS15 Thm 4.1 (App. B.8)",
          statement="EG with clipping: B(log 2d/(ηm) + 5ηG²), minimised at "
          "η = √(log 2d/(5G²m)) (<= 1/(2G) when m >= log 2d) where it is 2BG√(5 log 2d/m)",
          assumptions=_KS15_LASSO, method=_METHOD, delta=0.0, detectable=_DETECTS)
def check_ks15_thm41(ctx):
    """KS15 Thm 4.1: generic bound (HK12 Lemmas 3.6 + 3.7, as App. B.8 repeats them), step
    size and value derived."""
    eta, G, m, d = _S("eta", "G", "m", "d")
    generic = _eg_excess(eta, G, m)
    best = _minimiser(generic, eta)
    s = sp.Symbol("s", nonnegative=True)
    side = nonnegative((1 / (2 * G)) ** 2 - best.subs(m, (1 + s) * sp.log(2 * d)) ** 2)
    return derive([("KS15.Thm4.1.generic", generic, "App. B.8"),
                   ("KS15.Thm4.1.eta", best, "solve(d generic / d eta = 0)"),
                   ("KS15.Thm4.1.bound", generic.subs(eta, best), "generic at the minimiser")],
                  [("η <= 1/(2G) when m >= log 2d", side),
                   ("1 + 4 = the inventory's 5", _L36_VARIANCE + _L37_CLIP
                    == proofs_ks15._T41_VARIANCE)])


def _optimal_q(power, n=3):
    """KS15 eq. (4) / Lemma 4.3 on n symbolic second moments a_i: the q of the paper and
    the value of S (ridge: Σ a_i/q_i, power 1/2) or S_∞ (lasso: max a_i/q_i, power 1) at it,
    with the Lagrange stationarity of eq. (3) checked for the ridge. Returns (value, norm,
    ok): ``norm`` is ‖a‖_{1/2} (ridge) or ‖a‖₁ (lasso)."""
    a = sp.symbols(f"a1:{n + 1}", positive=True)
    q = [ai ** power / sum(aj ** power for aj in a) for ai in a]
    if power == sp.Rational(1, 2):
        value = sum(ai / qi for ai, qi in zip(a, q))
        norm = sum(sp.sqrt(ai) for ai in a) ** 2
        lam = sp.Symbol("lam", positive=True)
        # eq. (3): d/dq_i (Σ a_i/q_i + λ(Σ q_i − 1)) = 0 has the solution eq. (4)
        qi_ = sp.Symbol("q", positive=True)
        stat = [sp.solve(-ai / qi_ ** 2 + lam, qi_) for ai in a]       # each q_i(λ)
        ok = all(len(x) == 1 for x in stat)
        lam_sol = sp.solve(sum(x[0] for x in stat) - 1, lam) if ok else []
        ok = ok and len(lam_sol) == 1 and all(
            same(x[0].subs(lam, lam_sol[0]), qv) for x, qv in zip(stat, q))
    else:
        ratios = [sp.simplify(ai / qi) for ai, qi in zip(a, q)]
        value = ratios[0]
        norm = sum(a)
        ok = all(same(r, value) for r in ratios)           # all equal: the max is any of them
    return value, norm, ok and same(value, norm)


@register("KS15.Thm3.5.derivation", citation="KS15 Thm 3.5 (proof)",
          statement="with eq. (4)'s q, S = ‖E x²‖_{1/2}; Lemma 3.4's G² in Thm 3.1's "
          "η = 2B/(G√m) and 2BG/√m give the stated η and bound", assumptions=_KS15_RIDGE,
          method=_METHOD, delta=0.0, detectable=_DETECTS)
def check_ks15_thm35(ctx):
    """KS15 Thm 3.5: DDAERR's η and bound derived (Thm 3.1, Lemma 3.4, eq. (2), eq. (4))."""
    eta, G, m, S, N = _S("eta", "G", "m", "S", "N_half")
    value, norm, q_ok = _optimal_q(sp.Rational(1, 2))
    G2, steps = _ks15_second_moment(S)
    generic = _ks15_ogd(eta, G, m)
    best = _minimiser(generic, eta)
    at = {G: sp.sqrt(G2.subs(S, N))}
    return derive([("KS15.Thm3.5.eta", best.subs(at), "Thm 3.1's minimiser at Lemma 3.4's G"),
                   ("KS15.Thm3.5.bound", generic.subs(eta, best).subs(at),
                    "Thm 3.1 at its minimiser")],
                  steps + [("eq. (4) solves eq. (3) and gives S = ‖E x²‖_{1/2} (d = 3)", q_ok)])


@register("KS15.Thm4.6.derivation", citation="KS15 Thm 4.6 (proof)",
          statement="with Lemma 4.3's q, S_∞ = ‖E x²‖₁; Lemma 4.5's G² in Thm 4.1's minimiser and "
          "bound give the stated η and bound", assumptions=_KS15_LASSO, method=_METHOD,
          delta=0.0, detectable=_DETECTS)
def check_ks15_thm46(ctx):
    """KS15 Thm 4.6: DDAELR's η and bound derived (Thm 4.1, Lemma 4.5, eq. (7), Lemma 4.3)."""
    eta, G, m, S_inf, N = _S("eta", "G", "m", "S_inf", "N_one")
    value, norm, q_ok = _optimal_q(sp.Integer(1))
    G2, steps = _ks15_second_moment(S_inf)
    generic = _eg_excess(eta, G, m)
    best = _minimiser(generic, eta)
    at = {G: sp.sqrt(G2.subs(S_inf, N))}
    return derive([("KS15.Thm4.6.eta", best.subs(at), "Thm 4.1's minimiser at Lemma 4.5's G"),
                   ("KS15.Thm4.6.bound", generic.subs(eta, best).subs(at),
                    "Thm 4.1 at its minimiser")],
                  steps + [("Lemma 4.3's q gives S_∞ = ‖E x²‖₁ (d = 3)", q_ok)])


_EPS_TERM = Fraction(5, 3)           # √(5/3) of KS15 Lemma 3.7's second bound (typed: ε term)


def _lemma37_hp(H, eps_root):
    """KS15 Lemma 3.7, second bound, with H >= ‖E x²‖_{1/2}: 2H + 2√(5/3) d √H √ε (``eps_root``
    is the √ε factor, so that the printed '+ k' / '+ 1' readings can be formed)."""
    d = _S("d")
    return 2 * H + 2 * sp.sqrt(_q(_EPS_TERM)) * d * sp.sqrt(H) * eps_root


@register("KS15.Lemma3.8.derivation", citation="KS15 Lemma 3.8 (App. B.5)",
          statement="Lemma 3.7's 5d in Lemma 3.4: G² <= 4B²(5d/k + 1) <= 24B²d/k (k <= d); "
          "η = 2B/(G√m₂) = √(k/(6dm₂)) and 2BG/√m₂ = 4B²√(6d/(km₂))",
          assumptions=_KS15_RIDGE.replace("m >= 1", "m₂ >= 1"), method=_METHOD, delta=0.0,
          detectable=_DETECTS)
def check_ks15_lemma38(ctx):
    """KS15 Lemma 3.8: the step size and bound derived from Thm 3.1, Lemma 3.4, Lemma 3.7."""
    eta, G, m2, d, k, S, B = _S("eta", "G", "m2", "d", "k", "S", "B")
    G2, steps = _ks15_second_moment(S)
    s = sp.Symbol("s", nonnegative=True)
    g2 = 24 * B ** 2 * d / k                           # App. B.5's displayed upper value
    steps = steps + [("4B²(5d/k + 1) <= 24B²d/k for k <= d",
                      nonnegative(g2 - G2.subs(S, 5 * d), d=k + s))]
    generic = _ks15_ogd(eta, G, m2)
    best = _minimiser(generic, eta)
    at = {G: sp.sqrt(g2)}
    return derive([("KS15.Lemma3.8.eta", best.subs(at), "Thm 3.1's minimiser, G² = 24B²d/k"),
                   ("KS15.Lemma3.8.bound", generic.subs(eta, best).subs(at),
                    "Thm 3.1 at its minimiser")], steps)


@register("KS15.Lemma3.9.derivation", citation="KS15 Lemma 3.9 (App. B.6)",
          statement="Lemma 3.7's second bound (H >= ‖E x²‖_{1/2}) in Lemma 3.4 gives Ĝ²; "
          "η = 2B/(Ĝ√m₂) and 2BĜ/√m₂ are the stated step size and bound",
          assumptions=_KS15_RIDGE.replace("m >= 1", "m₂ >= 1") + ", H >= ‖E x²‖_{1/2}",
          method=_METHOD, delta=0.0, detectable=_DETECTS)
def check_ks15_lemma39(ctx):
    """KS15 Lemma 3.9: the step size and bound derived."""
    eta, G, m2, S, H, eps = _S("eta", "G", "m2", "S", "H", "eps")
    G2, steps = _ks15_second_moment(S)
    generic = _ks15_ogd(eta, G, m2)
    best = _minimiser(generic, eta)
    at = {G: sp.sqrt(G2.subs(S, _lemma37_hp(H, sp.sqrt(eps))))}
    return derive([("KS15.Lemma3.9.eta", best.subs(at), "Thm 3.1's minimiser at Ĝ"),
                   ("KS15.Lemma3.9.bound", generic.subs(eta, best).subs(at),
                    "Thm 3.1 at its minimiser")], steps)


#: KS15 Lemma B.3 / eq. (15): A[i] <= 2E[x_i²] + (7/6)ε and A[i] >= (1/2)E[x_i²] − (5/3)ε; the
#: smoothing (13/6)ε of Alg. 2/4 line 12 (typed here with their labels)
_EQ15_UP, _EQ15_LOW, _SMOOTH = Fraction(7, 6), Fraction(5, 3), Fraction(13, 6)


def _eq15_pieces():
    """(upper, lower) of A[i] + (13/6)ε under eq. (15), as multiples of (s + 5ε/3) and
    (s + ε): the proofs' 2(s + 5ε/3) and (s + ε)/2 (App. B.4, B.12), checked exactly."""
    s_, e_ = sp.symbols("s e", nonnegative=True)
    up = 2 * s_ + _q(_EQ15_UP) * e_ + _q(_SMOOTH) * e_
    low = s_ / 2 - _q(_EQ15_LOW) * e_ + _q(_SMOOTH) * e_
    return same(up, 2 * (s_ + sp.Rational(5, 3) * e_)) and same(low, (s_ + e_) / 2)


@register("KS15.Lemma3.7.derivation", citation="KS15 Lemma 3.7 (proof, App. B.4)",
          statement="E‖x̃_{t,r}‖² = Σ_j √(A[j] + 13ε/6)·Σ_i E[x_i²]/√(A[i] + 13ε/6); with (15) it "
          "is at most 2Σ_j √(s_j + 5ε/3)·Σ_i s_i/√(s_i + ε) (s_i = E[x_i²]); with √(a + b) <= "
          "√a + √b and s/√(s + ε) <= √s this is 2‖E x²‖_{1/2} + 2√(5/3)d√‖E x²‖_{1/2}√ε "
          "(the second bound); with s/√(s + ε) <= s/√ε instead in the ε-term, ‖E x²‖_{1/2} <= "
          "d‖E x²‖₁ and ‖E x²‖₁ <= 1, it is at most (2 + 2√(5/3))d <= 5d (the first)",
          assumptions=_KS15_RIDGE + "; eq. (15) (probability >= 1 − δ, or ε >= 1)",
          method=_METHOD + "; the elementwise inequalities proved for nonnegative symbols, "
          "Cauchy-Schwarz (Σ√s_i)² <= dΣs_i as the sum-of-squares identity at d = 3",
          delta=0.0, detectable=_DETECTS)
def check_ks15_lemma37(ctx):
    """KS15 Lemma 3.7: ``KS15.Lemma3.7.S_hp`` derived and ``KS15.Lemma3.7.S_as`` proved an
    upper bound of the chain (its probability-1 claim is the registered erratum
    ``KS15.Lemma3.7.prob1``: the chain needs eq. (15))."""
    d, eps, N = _S("d", "eps", "N_half")
    n, e, a, b = sp.symbols("n e a b", nonnegative=True)         # n = Σ√s_i = √‖E x²‖_{1/2}
    x, ep = sp.symbols("x ep", positive=True)                     # s_i > 0, √ε > 0
    N1 = sp.Symbol("N1", nonnegative=True)                        # ‖E x²‖₁ = E‖x‖² <= 1
    root_split = nonnegative(sp.expand((sp.sqrt(a) + sp.sqrt(b)) ** 2 - (a + b)))
    shrink = nonnegative(x - x ** 2 / (x + ep ** 2))              # s/√(s+ε) <= √s, squared
    shrink_eps = nonnegative(x ** 2 / ep ** 2 - x ** 2 / (x + ep ** 2))  # s/√(s+ε) <= s/√ε
    five_thirds = sp.sqrt(sp.Rational(5, 3))
    hp = 2 * (n + d * five_thirds * e) * n                        # the second bound, N = n²
    as_chain = 2 * n ** 2 + 2 * five_thirds * d * N1              # before n² <= dN1, N1 <= 1
    s3 = sp.symbols("s1:4", nonnegative=True)
    cauchy = same(3 * sum(s3) - sum(sp.sqrt(t) for t in s3) ** 2,
                  sum((sp.sqrt(s3[i]) - sp.sqrt(s3[j])) ** 2
                      for i in range(3) for j in range(i + 1, 3)))
    at_worst = as_chain.subs(n, sp.sqrt(d * N1)).subs(N1, 1)      # increasing in n² and N1
    stated_as = bounds.FORMULAS["KS15.Lemma3.7.S_as"].expr
    return derive([("KS15.Lemma3.7.S_hp", hp.subs({n: sp.sqrt(N), e: sp.sqrt(eps)}),
                    "2(√N + d√(5ε/3))·√N, App. B.4's last chain")],
                  [("(15) with the smoothing 13ε/6: A + 13ε/6 <= 2(s + 5ε/3) and >= (s + ε)/2",
                    _eq15_pieces()),
                   ("√(a + b) <= √a + √b", root_split),
                   ("s/√(s + ε) <= √s", shrink), ("s/√(s + ε) <= s/√ε", shrink_eps),
                   ("(Σ√s_i)² <= dΣs_i (Cauchy-Schwarz; d = 3)", cauchy),
                   ("5d >= 2d + 2√(5/3)d (the first bound at ‖E x²‖_{1/2} <= d, ‖E x²‖₁ <= 1)",
                    nonnegative(stated_as - at_worst))])


@register("KS15.Lemma4.8.derivation", citation="KS15 Lemma 4.8 (proof, App. B.12)",
          statement="‖E x̃_{t,r}²‖∞ = Σ_j (A[j] + 13ε/6)·max_i E[x_i²]/(A[i] + 13ε/6); with (15) "
          "at most Σ_j 2(s_j + 5ε/3)·max_i 2s_i/(s_i + ε) <= 4‖E x²‖₁ + (20/3)dε "
          "(s/(s + ε) <= 1)", assumptions=_KS15_LASSO + "; eq. (15) (probability >= 1 − δ, or "
          "ε = 1)", method=_METHOD, delta=0.0, detectable=_DETECTS)
def check_ks15_lemma48(ctx):
    """KS15 Lemma 4.8: ``KS15.Lemma4.8.S_inf`` derived."""
    d, eps, N = _S("d", "eps", "N_one")
    x, e = sp.symbols("x e", positive=True)
    at_most_one = nonnegative(1 - x / (x + e))
    derived = 2 * (N + sp.Rational(5, 3) * d * eps) * 2            # Σ_j 2(s_j + 5ε/3) · 2
    return derive([("KS15.Lemma4.8.S_inf", derived, "Σ_j 2(s_j + 5ε/3)·max_i 2s_i/(s_i + ε)")],
                  [("(15) with the smoothing 13ε/6: A + 13ε/6 <= 2(s + 5ε/3) and >= (s + ε)/2",
                    _eq15_pieces()), ("s/(s + ε) <= 1", at_most_one)])


@register("KS15.Eq11-12.derivation", citation="KS15 eqs. (11), (12) (Sec. 5)",
          statement="ρ_ridge is S at eq. (4)'s q over S at the uniform q (Σ E[x_i²]/(1/d) = "
          "dE‖x‖²): ‖E x²‖_{1/2}/(d‖E x²‖₁); ρ_lasso is S_∞ at Lemma 4.3's q over S_∞ at the "
          "uniform q (d‖E x²‖∞): ‖E x²‖₁/(d‖E x²‖∞) — “the potential improvement according to "
          "our analysis”", assumptions="E[x_i²] > 0 (d = 3 symbolic second moments)",
          method=_METHOD, delta=0.0, detectable=_DETECTS)
def check_ks15_eq11_12(ctx):
    """KS15 eqs. (11)-(12): ``KS15.Eq11.rho_ridge`` and ``KS15.Eq12.rho_lasso`` derived as
    ratios of the variance terms of Lemma 3.4 / 4.5 (eq. (2), (7))."""
    half, q_ok_r = _optimal_q(sp.Rational(1, 2))[0], _optimal_q(sp.Rational(1, 2))[2]
    one, q_ok_l = _optimal_q(sp.Integer(1))[0], _optimal_q(sp.Integer(1))[2]
    a = sp.symbols("a1:4", positive=True)                 # as in _optimal_q
    d3 = 3
    uniform_r = sum(ai * d3 for ai in a)                  # Σ a_i/(1/d)
    top = sp.Symbol("top", positive=True)                 # max a_i, a_i = top − slack_i
    N_half, N_one, N_inf, d = _S("N_half", "N_one", "N_inf", "d")
    rho_r = bounds.FORMULAS["KS15.Eq11.rho_ridge"].expr
    rho_l = bounds.FORMULAS["KS15.Eq12.rho_lasso"].expr
    norms = {N_half: sum(sp.sqrt(ai) for ai in a) ** 2, N_one: sum(a), d: d3}
    return derive([], [("eq. (4)'s S over the uniform S is the registered ρ_ridge (d = 3)",
                        q_ok_r and same(half / uniform_r, rho_r.subs(norms))),
                       ("Lemma 4.3's S_∞ over the uniform S_∞ (d·max a_i) is the registered "
                        "ρ_lasso (d = 3, at max a_i = top)",
                        q_ok_l and same(one / (d3 * top), rho_l.subs({**norms, N_inf: top})))])


def _lemma310(H, eps_root):
    """KS15 Lemma 3.10 (App. B.7, Lemma B.4): the larger of Lemma 3.8's and Lemma 3.9's step
    sizes, and the two bounds; ``eps_root`` the √ε factor with ε of Alg. 2 line 11."""
    eta, G, m2, d, k, S, B = _S("eta", "G", "m2", "d", "k", "S", "B")
    G2, _ = _ks15_second_moment(S)
    generic = _ks15_ogd(eta, G, m2)
    best = _minimiser(generic, eta)
    g_as = sp.sqrt(24 * B ** 2 * d / k)
    g_hp = sp.sqrt(G2.subs(S, _lemma37_hp(H, eps_root)))
    eta_as = best.subs(G, g_as)
    eta_max = sp.Max(eta_as, best.subs(G, g_hp))
    return (eta_max, generic.subs(eta, best).subs(G, g_as), generic.subs(eta, best).subs(G, g_hp),
            eta_as)


def _lemma_b4():
    """KS15 Lemma B.4 (f(max(η₁, η₂)) <= min(f(η₁), f(η₂)) for f = A/η + ηBG², G <= G_i):
    at η_i = (1/G_i)√(A/B) the larger η is that of the smaller G_i, f(η_i) decreasing in
    ... proved here as: f(η)'s value at η_i is √(AB)(G_i + G²/G_i), increasing in G_i for
    G_i >= G."""
    A, Bc, G, Gi = sp.symbols("A B_c G G_i", positive=True)
    s = sp.Symbol("s", nonnegative=True)
    f_at = A / (sp.sqrt(A / Bc) / Gi) + sp.sqrt(A / Bc) / Gi * Bc * G ** 2
    slope = sp.diff(f_at, Gi).subs(Gi, G + s)
    return nonnegative(slope)


@register("KS15.Lemma3.10.derivation", citation="KS15 Lemma 3.10 (App. B.7)",
          statement="η = max(Lemma 3.8's η, Lemma 3.9's η at ε = d log(2d/δ)/((k+1)m₁)) by "
          "Lemma B.4, with both bounds; B.7's printed √(k/(12dm₂)) is Lemma 3.8's η / √2 (the "
          "registered erratum)", assumptions=_KS15_RIDGE.replace("m >= 1", "m₁, m₂ >= 1")
          + ", H >= ‖E x²‖_{1/2}, 0 < δ < 1", method=_METHOD, delta=0.0, detectable=_DETECTS)
def check_ks15_lemma310(ctx):
    """KS15 Lemma 3.10: the step size, both bounds, and B.7's printed step size (ERRATUM text
    of ``KS15.Lemma3.10.eta_proof_text``) derived."""
    H = _S("H")
    eps = bounds.FORMULAS["KS15.Alg2.eps"].expr
    eta_max, b_as, b_hp, eta_as = _lemma310(H, sp.sqrt(eps))
    d, k, m2 = _S("d", "k", "m2")
    return derive([("KS15.Lemma3.10.eta", eta_max, "Lemma B.4's max of the two minimisers"),
                   ("KS15.Lemma3.10.bound_as", b_as, "Lemma 3.8's bound"),
                   ("KS15.Lemma3.10.bound_hp", b_hp, "Lemma 3.9's bound at Alg. 2's ε"),
                   ("KS15.Lemma3.10.eta_proof_text", eta_as / sp.sqrt(2),
                    "B.7's printed η = Lemma 3.8's / √2 (erratum)")],
                  [("Lemma B.4: f(η_i) increasing in G_i >= G", _lemma_b4()),
                   ("Alg. 2 line 11's ε (KS15.Alg2.eps) as typed here",
                    same(eps, _S("d") * sp.log(2 * _S("d") / _S("delta"))
                         / ((_S("k") + 1) * _S("m1"))))])


@register("KS15.Thm3.6.derivation", citation="KS15 Thm 3.6 (via Lemma 3.10)",
          statement="Lemma 3.10 at H = ‖E x²‖_{1/2} gives the proof's η and bounds; the printed "
          "η and high-probability bound are those with √ε replaced by √(ε + k) and √(ε + 1) "
          "(the registered erratum readings)", assumptions=_KS15_RIDGE.replace(
              "m >= 1", "m₁, m₂ >= 1") + ", 0 < δ < 1", method=_METHOD, delta=0.0,
          detectable=_DETECTS)
def check_ks15_thm36(ctx):
    """KS15 Thm 3.6: proof versions derived; the printed ones' relation to them checked."""
    N = _S("N_half")
    eps = bounds.FORMULAS["KS15.Alg2.eps"].expr
    k = _S("k")
    eta_max, b_as, b_hp, eta_as = _lemma310(N, sp.sqrt(eps))
    # the printed readings: Lemma 3.10's '+ k' (step size) and '+ 1' (bound) moved under √ε
    B, m2, d = _S("B", "m2", "d")
    eta_k = sp.Max(eta_as, sp.sqrt(k / (m2 * _lemma37_hp(N, sp.sqrt(eps + k)))))
    printed_hp = 4 * B ** 2 / sp.sqrt(m2) * sp.sqrt(_lemma37_hp(N, sp.sqrt(eps + 1)) / k)
    # Lemma 3.9's Ĝ²/(4B²) = X/k + 1: the derived bound is the printed one's X with √ε and + 1
    moved = same(b_hp ** 2 - 16 * B ** 4 / m2,
                 16 * B ** 4 / m2 * _lemma37_hp(N, sp.sqrt(eps)) / k)
    return derive([("KS15.Thm3.6.eta_proof", eta_max, "Lemma 3.10 at H = ‖E x²‖_{1/2}"),
                   ("KS15.Thm3.6.bound_as", b_as, "Lemma 3.10, w.p. 1"),
                   ("KS15.Thm3.6.bound_hp_proof", b_hp, "Lemma 3.10, w.p. >= 1 − δ"),
                   ("KS15.Thm3.6.eta", eta_k, "printed: √ε read as √(ε + k) (erratum)"),
                   ("KS15.Thm3.6.bound_hp", printed_hp,
                    "printed: the '+ 1' moved under √ε (erratum)")],
                  [("the printed bound is Lemma 3.10's with '+ 1' moved under √ε", moved)])


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


@register("KS15.Thm4.7.derivation", citation="KS15 Thm 4.7 (Sec. 4.2.1)",
          statement="Lemma 4.8 in Lemma 4.5 gives "
          "Ĝ² = 4B²((4/k)‖2A + (10/3)ε‖₁ + (20/(3k))dε + 1); "
          "Thm 4.1's minimiser at Ĝ with ε of Alg. 4 line 11 is the stated η; with (10), "
          "‖2A + (10/3)ε‖₁ <= 4‖E x²‖₁ + (14/6 + 10/3)dε, 2B√(5Ĝ² log 2d/m₂) is the stated "
          "high-probability bound", assumptions=_KS15_LASSO.replace("m >= log 2d",
                                                                   "m₂ >= log 2d")
          + ", A >= 0 (the phase-1 estimate of E[x²]), 0 < δ < 1", method=_METHOD, delta=0.0,
          detectable=_DETECTS)
def check_ks15_thm47(ctx):
    """KS15 Thm 4.7: Ĝ², the step size and the high-probability bound derived (the constant 61
    of the almost-sure bound is checked step by step by ``KS15.Thm4.7.proof.*``)."""
    eta, G, m2, d, k, B, A_one, N, eps = _S("eta", "G", "m2", "d", "k", "B", "A_one", "N_one",
                                            "eps")
    X = sp.Symbol("X", positive=True)                    # ‖2A + (10/3)ε‖₁
    g2_hat = 4 * B ** 2 * (4 / k * X + sp.Rational(20, 3) / k * d * eps + 1)
    generic = _eg_excess(eta, G, m2)
    best = _minimiser(generic, eta)
    l1 = 2 * A_one + sp.Rational(10, 3) * eps * d          # ‖2A + (10/3)ε‖₁ for A >= 0
    eq10 = 4 * N + (_q(proofs_ks15._EQ6_RIGHT_EPS) + sp.Rational(10, 3)) * d * eps
    eps_lasso = bounds.FORMULAS["KS15.Alg4.eps"].expr
    at_hat = {G: sp.sqrt(g2_hat.subs(X, l1))}
    return derive([("KS15.Thm4.7.G2hat", g2_hat.subs(X, l1), "Lemma 4.8 in Lemma 4.5, A >= 0"),
                   ("KS15.Thm4.7.eta", best.subs(at_hat).subs(eps, eps_lasso),
                    "Thm 4.1's minimiser at Ĝ, ε of Alg. 4 line 11"),
                   ("KS15.Thm4.7.bound_hp",
                    generic.subs(eta, best).subs(G, sp.sqrt(g2_hat.subs(X, eq10)))
                    .subs(eps, eps_lasso), "Thm 4.1 at its minimiser, Ĝ with (10)")],
                  [("Alg. 4 line 11's ε (KS15.Alg4.eps) as typed here",
                    same(eps_lasso, sp.Min(d * sp.log(2 * d / _S("delta"))
                                           / ((k + 1) * _S("m1")), 1)))])


@register("KS15.Thm4.7.derivation.as", citation="KS15 Thm 4.7 (Sec. 4.2.1, last display)",
          statement="at ε = 1 (Alg. 4 line 11's cap; Lemma 4.8 then holds with probability 1) "
          "the proof's bound 4B²√(5(16‖E x²‖₁ + (88/3)dε + k) log 2d/(km₂)), with ‖E x²‖₁ <= d "
          "(‖x‖∞ <= 1) and k <= d, is at most 61B²√(d log 2d/(km₂)): "
          "16·5(16 + 88/3)d + 80k <= 61²d",
          assumptions=_KS15_LASSO.replace("m >= log 2d", "m₂ >= log 2d") + ", ε = 1",
          method=_METHOD + "; the proof's bound rebuilt as in KS15.Thm4.7.derivation (Thm 4.1 at "
          "its minimiser, Lemma 4.8 in Lemma 4.5, (10)), then bound_as² − bound² >= 0 proved "
          "with nonnegative slacks (d = k + s), at ‖E x²‖₁ = d after proving it increasing there",
          delta=0.0, detectable=_DETECTS)
def check_ks15_thm47_as(ctx):
    """KS15 Thm 4.7: the almost-sure constant 61 (``KS15.Thm4.7.bound_as``) from the proof's
    high-probability bound at ε = 1; a smaller constant (60 already) is not proved."""
    eta, G, m2, d, k, B, N = _S("eta", "G", "m2", "d", "k", "B", "N_one")
    generic = _eg_excess(eta, G, m2)
    best = _minimiser(generic, eta)
    eq10 = 4 * N + (_q(proofs_ks15._EQ6_RIGHT_EPS) + sp.Rational(10, 3)) * d   # (10) at ε = 1
    g2_hat = 4 * B ** 2 * (4 / k * eq10 + sp.Rational(20, 3) / k * d + 1)
    proof = generic.subs(eta, best).subs(G, sp.sqrt(g2_hat))
    stated = bounds.FORMULAS["KS15.Thm4.7.bound_as"].expr
    s = sp.Symbol("s", nonnegative=True)
    slope = sp.expand(proof ** 2).coeff(N)                # the square is affine in ‖E x²‖₁
    rising = same(sp.expand(proof ** 2), sp.expand(proof ** 2).subs(N, 0) + slope * N) and \
        bool(_on_domain(slope).is_positive)               # d >= 1: log 2d > 0
    gap = (stated ** 2 - proof.subs(N, d) ** 2) * k * m2 / (B ** 4 * sp.log(2 * d))
    return derive([], [("the proof's bound is increasing in ‖E x²‖₁", rising),
                       ("61²·d·log 2d/(km₂)·B⁴ >= the proof's bound² at ‖E x²‖₁ = d, k <= d",
                        nonnegative(sp.expand(gap), d=k + s)),
                       ("the proof's bound at ε = 1 is the registered bound_hp at ε = 1",
                        same(proof, bounds.FORMULAS["KS15.Thm4.7.bound_hp"].expr.subs(
                            bounds.FORMULAS["KS15.Alg4.eps"].expr, 1)))],
                  note="the case ε < 1 (Alg. 4 line 11 below its cap) is the registered erratum "
                       "KS15.Thm4.7.as_any_m1")


@register("KS15.Thm3.12.derivation", citation="KS15 Thm 3.12 (Sec. 3.3.1, via Lemma 3.10)",
          statement="Lemma 3.10 with H = ‖2A + (10/3)ε‖_{1/2} gives the stated η and the "
          "almost-sure bound; the printed high-probability bound is the proof's last line with "
          "its '+ 1' moved outside the root and the factor 16B²/√m₂ (the registered erratum "
          "reading)", assumptions=_KS15_RIDGE.replace("m >= 1", "m₁, m₂ >= 1") + ", 0 < δ < 1",
          method=_METHOD + "; the proof's chain of inequalities from Lemma 3.11 to its last line "
          "is not derived here (KS15.Thm3.12.chain checks it)", delta=0.0, detectable=_DETECTS)
def check_ks15_thm312(ctx):
    """KS15 Thm 3.12: η and the almost-sure bound derived; the printed high-probability bound's
    relation to the proof's last line (``KS15.Thm3.12.bound_hp_proof``) checked."""
    H, B, m2 = _S("H", "B", "m2")
    eps = bounds.FORMULAS["KS15.Alg2.eps"].expr
    eta_max, b_as, _, _ = _lemma310(H, sp.sqrt(eps))
    proof = bounds.FORMULAS["KS15.Thm3.12.bound_hp_proof"].expr
    c = 16 * B ** 2 / sp.sqrt(m2)
    # the proof's line is c√(inner + 1), inner = (1/k)(√N + d√(2ε))²; printed: c√(inner) + 1
    inner_of_proof = sp.expand((proof / c) ** 2) - 1
    printed = c * sp.sqrt(inner_of_proof) + 1
    return derive([("KS15.Thm3.12.eta", eta_max, "Lemma 3.10's η with the phase-1 H"),
                   ("KS15.Thm3.12.bound_as", b_as, "Lemma 3.10's almost-sure bound"),
                   ("KS15.Thm3.12.bound_hp", printed,
                    "printed: the proof's '+ 1' outside the root and the factor (erratum)")])


@register("KS15.Thm3.12.derivation.hp", citation="KS15 Thm 3.12 (Sec. 3.3.1) and Lemma 3.11 "
          "(6)", statement="Lemma 3.11's (6) with ‖a + b‖_{1/2} <= 2‖a‖_{1/2} + 2‖b‖_{1/2} gives "
          "H <= 8‖E x²‖_{1/2} + (34/3)d²ε; Lemma 3.10's high-probability bound "
          "(4B²/√m₂)√(2H/k + (2/k)√(5/3)d√H√ε + 1), increasing in H, is then at most the "
          "proof's last line (16B²/√m₂)√((1/k)(√‖E x²‖_{1/2} + d√(2ε))² + 1) at Alg. 2's ε",
          assumptions=_KS15_RIDGE.replace("m >= 1", "m₁, m₂ >= 1") + ", 0 < δ < 1",
          method=_METHOD + "; √H replaced by √(8N) + √(34/3)d√ε >= √H (its square minus H "
          "is a product of nonnegatives), then the difference of squares times k is a "
          "polynomial in √N, √ε, d, k whose every coefficient is proved >= 0",
          delta=0.0, detectable=_DETECTS)
def check_ks15_thm312_hp(ctx):
    """KS15 Thm 3.12: ``KS15.Lemma3.11.H_upper`` derived, and ``KS15.Thm3.12.bound_hp_proof``
    proved at least Lemma 3.10's bound at that H (the proof's chain, as one inequality)."""
    d, k, B, m2, N, eps, H = _S("d", "k", "B", "m2", "N_half", "eps", "H")
    n, e = sp.symbols("n e", nonnegative=True)             # √N, √ε
    s = sp.Symbol("s", nonnegative=True)
    x, y = sp.symbols("x y", nonnegative=True)
    # (6): ‖4E x² + (14/6)ε + (10/3)ε‖_{1/2} <= 2·4N + 2‖(14/6 + 10/3)ε·1‖_{1/2}, ‖c·1‖_{1/2} = d²c
    h_upper = 2 * 4 * N + 2 * d ** 2 * (_q(proofs_ks15._EQ6_RIGHT_EPS) + sp.Rational(10, 3)) * eps
    quasi = nonnegative(2 * x ** 2 + 2 * y ** 2 - (x + y) ** 2)       # (x + y)² <= 2x² + 2y²
    S_of = _lemma37_hp(H, sp.sqrt(eps))
    rising = nonnegative(sp.diff(S_of, H))
    lemma310 = 4 * B ** 2 / sp.sqrt(m2) * sp.sqrt(S_of / k + 1)      # Lemma 3.10's b_hp
    # √H_upper <= U (U² − H_upper = 2√(8N)√(34/3)d√ε >= 0)
    U = sp.sqrt(8) * n + sp.sqrt(sp.Rational(34, 3)) * d * e
    hu = h_upper.subs({N: n ** 2, eps: e ** 2})
    root_ok = nonnegative(sp.expand(U ** 2 - hu))
    last = 16 * B ** 2 / sp.sqrt(m2) * sp.sqrt((sp.sqrt(N) + d * sp.sqrt(2 * eps)) ** 2 / k + 1)
    c = 4 * B ** 2 / sp.sqrt(m2)
    inner_last = sp.expand(((last / c) ** 2).subs({N: n ** 2, eps: e ** 2}))
    inner_310 = (2 * hu + 2 * sp.sqrt(_q(_EPS_TERM)) * d * U * e) / k + 1
    gap = sp.Poly(sp.expand((inner_last - inner_310) * k), n, e, d, k)
    chain = all(bool(cf.is_nonnegative) for cf in gap.coeffs())
    return derive([("KS15.Lemma3.11.H_upper", h_upper, "(6) with ‖a + b‖_{1/2} <= 2‖a‖ + 2‖b‖"),
                   ("KS15.Thm3.12.bound_hp_proof",
                    last.subs(eps, bounds.FORMULAS["KS15.Alg2.eps"].expr),
                    "the proof's last line at Alg. 2 line 11's ε")],
                  [("‖a + b‖_{1/2} <= 2‖a‖_{1/2} + 2‖b‖_{1/2}: (x + y)² <= 2x² + 2y²", quasi),
                   ("Lemma 3.10's bound is increasing in H", rising),
                   ("√H_upper <= √(8N) + √(34/3)d√ε", root_ok),
                   ("Lemma 3.10's bound at H_upper <= the proof's last line (squares, all "
                    "coefficients >= 0)", chain and bool(lemma310.has(H)))])


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
