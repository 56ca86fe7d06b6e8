"""Every formula of CB11, HK12 and KS15 that laocheck evaluates, written once as a sympy expression.

The numeric functions are derived from these expressions (:meth:`Formula.__call__` lambdifies
``Formula.expr``), and the symbolic checks of :mod:`laocheck.bounds.checks` manipulate the very
same objects, so a number printed by ``laocheck bounds`` and the algebra verified by
``laocheck verify`` cannot drift apart.

Conventions
-----------
* ``log`` is the natural logarithm in all three papers' bounds (the EG/MW regret bounds behind
  ``log 2d`` are stated with ln; CB11 writes both ``log m`` and ``ln m`` for the same quantity).
* Loss: HK12 and KS15 use ℓ = ½(ŷ − y)² (HK12 eq. (1)); CB11 uses ℓ = (ŷ − y)² (CB11 eq. (9) and
  the proof of Thm 12). CB11's bounds are for the unhalved loss; :mod:`laocheck.data` reports both.
* ``N_half`` = ‖E[x²]‖_{1/2} = (Σ √E[x_i²])², ``N_one`` = ‖E[x²]‖₁ = Σ E[x_i²] (KS15 Sec. 1),
  ``N_inf`` = max_i E[x_i²]; ``S`` = Σ_i E[x_i²]/q_i (KS15 eq. (2)), ``S_inf`` = max_i E[x_i²]/q_i
  (KS15 eq. (7)).
* Each formula is either *literal* (as printed in the statement) or a *proof* version (the step
  size / constant the proof actually derives). Where the two disagree the literal one carries an
  ``erratum`` text and the proof version is registered beside it (``...proof``).
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import sympy as sp

from ..exceptions import InvalidParameterError
from ._args import INTEGER_SYMBOLS, validated

__all__ = ["Formula", "FORMULAS", "formula", "formulas", "evaluate", "SYMBOLS", "sym"]

# --------------------------------------------------------------------------------------------
# Symbols (all positive reals; integrality is enforced at evaluation time).
_NAMES = {
    "d": "dimension", "k": "attributes per example beyond the one for phi (HK12/KS15: budget k+1; "
    "CB11: budget k)", "m": "examples", "B": "norm bound", "eta": "step size",
    "G": "gradient second-moment bound G (G^2 bounds E||g||^2 or ||E g^2||_inf)",
    "S": "sum_i E[x_i^2]/q_i (KS15 eq. (2))", "S_inf": "max_i E[x_i^2]/q_i (KS15 eq. (7))",
    "N_half": "||E[x^2]||_{1/2}", "N_one": "||E[x^2]||_1", "N_inf": "||E[x^2]||_inf",
    "H": "upper estimate of ||E[x^2]||_{1/2} (KS15 Lemma 3.9)", "A_one": "||A||_1 (KS15 Alg. 4)",
    "m1": "phase-1 examples", "m2": "phase-2 examples", "delta": "failure probability",
    "eps": "accuracy / KS15 epsilon", "lam": "CB11 lambda", "p": "CB11 Thm 1 bias",
    "c": "unspecified constant / multiplier", "Phi": "second moment of the GenEst estimate",
}
SYMBOLS = {name: sp.Symbol(name, positive=True) for name in _NAMES}
_INTEGER = INTEGER_SYMBOLS
_ORDER = list(_NAMES)


def sym(*names):
    """The sympy symbols of laocheck's formulas, by name.

    Parameters
    ----------
    *names : str
        Names of :data:`SYMBOLS` (``sym("d", "k")``).

    Returns
    -------
    sympy.Symbol or tuple of sympy.Symbol
        The symbol of one name, a tuple for several.

    Raises
    ------
    KeyError
        A name that is not in :data:`SYMBOLS`.
    """
    out = tuple(SYMBOLS[n] for n in names)
    return out[0] if len(out) == 1 else out


d, k, m, B, eta, G, S, S_inf = sym("d", "k", "m", "B", "eta", "G", "S", "S_inf")
N_half, N_one, N_inf, H, A_one = sym("N_half", "N_one", "N_inf", "H", "A_one")
m1, m2, delta, eps, lam, p, c, Phi = sym("m1", "m2", "delta", "eps", "lam", "p", "c", "Phi")
log, sqrt, Rational, Max, Min = sp.log, sp.sqrt, sp.Rational, sp.Max, sp.Min

#: KS15 Alg. 2 line 11 (ridge): epsilon = d log(2d/delta) / ((k+1) m1).
EPS_RIDGE = d * log(2 * d / delta) / ((k + 1) * m1)
#: KS15 Alg. 4 line 11 (lasso): epsilon = min(d log(2d/delta) / ((k+1) m1), 1).
EPS_LASSO = Min(d * log(2 * d / delta) / ((k + 1) * m1), 1)


@dataclass(frozen=True)
class Formula:
    """One formula of a paper: a sympy expression with its citation.

    Call it with keyword values for its symbols (``FORMULAS["HK12.Thm3.1.bound"](d=100, k=4,
    m=1000, B=1)``); the numeric function is ``sympy.lambdify`` of ``expr``. Each parameter
    is an attribute of the same name; the registered formulas are :data:`FORMULAS`.

    Parameters
    ----------
    id : str
        ``"<paper>.<label>.<part>"``, e.g. ``"HK12.Thm3.4.eta"``.
    expr : sympy.Expr
        The expression, in the symbols of :data:`SYMBOLS`.
    citation : str
        Paper and label of the statement the formula comes from, e.g. ``"HK12 Thm 3.4"``.
    kind : str
        ``"bound"`` (excess risk), ``"eta"`` (step size), ``"G2"`` (gradient second moment),
        ``"lower"`` (lower bound), ``"complexity"`` (sample complexity), ``"ratio"``,
        ``"component"``.
    description : str
        One line saying what the formula is.
    literal : bool
        True when printed in the statement; False for a proof's (or laocheck's) version.
        Default True.
    erratum : str
        Non-empty when the literal formula disagrees with its proof (what and why).
    proof : str or None
        Id of the proof version of a literal formula that disagrees with it.
    scaling : int or None
        Exponent e with formula(x, c·y, c·B) = c^e · formula(x, y, B) expected by the scale
        invariance (bounds 2, ridge steps 0, lasso steps -1); None if not applicable.
    note : str
        Anything else a reader needs (conventions, the loss, the probability).
    assumptions : str
        The statement's assumptions, as printed (e.g. ``"||x||_2 <= 1, |y| <= B"``); empty
        when the citation's context gives them.
    """

    id: str
    expr: sp.Expr
    citation: str
    kind: str
    description: str
    literal: bool = True
    erratum: str = ""
    proof: str | None = None
    scaling: int | None = None
    note: str = ""
    assumptions: str = ""

    @cached_property
    def args(self):
        """Names of the symbols the formula depends on, in a canonical order."""
        names = {s.name for s in self.expr.free_symbols}
        return tuple(n for n in _ORDER if n in names)

    @cached_property
    def _func(self):
        return sp.lambdify([SYMBOLS[n] for n in self.args], self.expr, modules=["numpy"])

    def __call__(self, **values):
        """Evaluate at the given values (floats; d, k, m, m1, m2 integers >= 1; 0 < delta < 1)."""
        missing = [n for n in self.args if n not in values]
        if missing:
            raise InvalidParameterError(
                f"`{missing[0]}` is required by {self.id} ({self.citation}); it depends on "
                f"{', '.join(self.args)}.")
        vals = validated({n: values[n] for n in self.args})
        with np.errstate(all="ignore"):
            out = float(self._func(*[vals[n] for n in self.args]))
        return out

    def subs(self, **exprs):
        """The expression with symbols replaced (by name) by numbers or expressions."""
        return self.expr.subs({SYMBOLS[n]: v for n, v in exprs.items()})

    def latex(self):
        return sp.latex(self.expr)

    def describe(self):
        return {"id": self.id, "citation": self.citation, "kind": self.kind,
                "description": self.description, "literal": self.literal,
                "erratum": self.erratum, "proof": self.proof, "expr": str(self.expr),
                "args": list(self.args), "note": self.note}


FORMULAS: dict[str, Formula] = {}


def _add(id, expr, citation, kind, description, **kw):
    if id in FORMULAS:
        raise RuntimeError(f"duplicate formula {id}")
    FORMULAS[id] = Formula(id=id, expr=sp.sympify(expr), citation=citation, kind=kind,
                           description=description, **kw)
    return FORMULAS[id]


def formula(id):
    """The formula ``id``.

    Parameters
    ----------
    id : str
        A key of :data:`FORMULAS` (``"HK12.Lemma3.3.G2"``).

    Returns
    -------
    Formula
        Its sympy expression, arguments, citation and notes; calling it evaluates it.

    Raises
    ------
    InvalidParameterError
        ``id`` is not a key of :data:`FORMULAS`.
    """
    try:
        return FORMULAS[id]
    except KeyError:
        raise InvalidParameterError(
            f"`id` must be a formula of laocheck.bounds.FORMULAS; got {id!r}.") from None


def formulas(pattern="*"):
    """The formulas whose id matches a glob.

    Parameters
    ----------
    pattern : str
        A glob (``fnmatch``, case-sensitive) over the ids. Default: every formula.

    Returns
    -------
    list of Formula
        The matching formulas, sorted by id; empty when none matches.
    """
    return [FORMULAS[i] for i in sorted(FORMULAS) if fnmatch.fnmatchcase(i, pattern)]


def evaluate(id, **values):
    """``formula(id)(**values)``."""
    return formula(id)(**values)


# ============================================================================================
# CB11 (loss (ŷ − y)², no ½)
_CB11 = "N. Cesa-Bianchi, S. Shalev-Shwartz, O. Shamir, JMLR 12 (2011)"

_add("CB11.Thm1.attributes", Rational(1, 2) * sp.floor(d / (96 * eps)), "CB11 Thm 1", "lower",
     "attributes any learner must see for excess risk < eps: k >= (1/2) floor(d/(96 eps))",
     assumptions="d >= 4, 0 < eps < 1/16", note="lower bound on the total number of attributes")
_add("CB11.Thm1.risk_star", 1 - 4 * p ** 2, "CB11 Thm 1 (App. A.2)", "component",
     "risk of w* = 2p e_j under P_j (unhalved loss)")
_add("CB11.Thm2.risk", 1 - k / d, "CB11 Thm 2", "lower",
     "risk lower bound of any k-active predictor (||w*||_2 = 1)")
_add("CB11.Thm3.risk", (1 - 1 / c) / (c * k), "CB11 Thm 3", "lower",
     "risk lower bound of any k-active predictor (||w*||_1 = 1, ||w*||_0 = ck)")

_add("CB11.Lemma8.width", (d / k) ** 2 * sqrt(8 / m * log(2 * d ** 2 / delta)), "CB11 Lemma 8",
     "component", "max entrywise deviation of the averaged A_t", scaling=0)
_add("CB11.Lemma9.width", d * B / k * sqrt(8 / m * log(2 * d / delta)), "CB11 Lemma 9",
     "component", "sup-norm deviation of the averaged 2 y v_t", scaling=1)
_add("CB11.Lemma10.bound", (B * d / k) ** 2 * sqrt(32 / m * log(2 * d ** 2 / delta)),
     "CB11 Lemma 10", "component", "|L~_S(w) − L_S(w)| over the L1 ball", scaling=2)
_add("CB11.Lemma10.proof_terms",
     (B * d / k) ** 2 * sqrt(8 / m * log(2 * d ** 2 / delta))
     + B ** 2 * d / k * sqrt(8 / m * log(2 * d / delta)),
     "CB11 Lemma 10 (proof)", "component", "the two terms (4) + (5) before simplification",
     literal=False, scaling=2)
_add("CB11.Lemma10.union", (B * d / k) ** 2 * sqrt(32 / m * log(4 * d ** 2 / delta)),
     "CB11 Lemma 10 (laocheck: union bound with delta/2 per lemma)", "component",
     "Lemma 10 with Lemmas 8 and 9 each at delta/2 (the proof's union bound)", literal=False,
     scaling=2)
_add("CB11.Thm6.bound", c * (d * B / k) ** 2 * sqrt(log(d / delta) / m), "CB11 Thm 6", "bound",
     "Baseline: L(w^) − min L <= c (dB/k)^2 sqrt(ln(d/delta)/m) w.p. 1 − delta (c unspecified)",
     scaling=2, note="unhalved loss; high probability")
_add("CB11.Thm6.bound_proof",
     2 * (4 * B ** 2 * sqrt(2 * log(2 * d) / m) + 4 * B ** 2 * sqrt(log(4 / delta) / (2 * m))
          + (B * d / k) ** 2 * sqrt(32 / m * log(8 * d ** 2 / delta))),
     "CB11 Thm 6 (laocheck: explicit constants of Lemma 4 and Lemma 10)", "bound",
     "2 sup |L_D − L~_S| with Lemma 4 (L_max = 4B, l_max = 4B^2) at delta/2 and Lemma 10 "
     "(union form) at delta/2", literal=False, scaling=2, note="unhalved loss; high probability")

_add("CB11.Thm12.lambda", 12 * d * sqrt(log(m) / (m * k)), "CB11 Thm 12", "eta",
     "regularisation lambda as stated", proof="CB11.Thm12.lambda_proof", scaling=0,
     erratum="the statement's lambda = 12 d sqrt(log m/(mk)) is not the proof's 16 d sqrt(log m/(km)) "
     "(the minimiser of the proof's regret bound); with 12 the proof's regret term is "
     "(50/3) d B^2 sqrt(m ln m/k) instead of 16 d B^2 sqrt(m ln m/k)")
_add("CB11.Thm12.lambda_proof", 16 * d * sqrt(log(m) / (k * m)), "CB11 Thm 12 (proof)", "eta",
     "lambda chosen in the proof", literal=False, scaling=0)
_add("CB11.Thm12.regret", 128 * (d * B) ** 2 / (lam * k) * log(m) + m * lam / 2 * B ** 2,
     "CB11 Thm 12 (proof)", "component",
     "bound on sum_t 2(y^_t − y_t)<v_t, w_t − w*> for any lambda", literal=False)
_add("CB11.Thm12.gradient_norm", 8 * B * d * sqrt(2 / k), "CB11 Thm 12 (proof)", "component",
     "||grad f_t(w_t)|| <= 8Bd sqrt(2/k)", literal=False, scaling=1)
_add("CB11.Thm12.iterate_norm", 4 * B * d * sqrt(2 / k) / lam, "CB11 Thm 12 (proof)",
     "component", "invariant ||w_t||_2 <= (1/lambda) 4Bd sqrt(2/k)", literal=False)
_add("CB11.Thm12.bound", c * d * B ** 2 * sqrt(log(m / delta) / (k * m)), "CB11 Thm 12", "bound",
     "AER: L(w-bar) − min L <= c d B^2 sqrt(ln(m/delta)/(km)) w.p. 1 − delta (c unspecified)",
     scaling=2, note="unhalved loss")
_add("CB11.Thm12.bound_proof",
     16 * d * B ** 2 * sqrt(log(m) / (k * m)) + 4 * B ** 2 * sqrt(2 / m * log(1 / delta)),
     "CB11 Thm 12 (proof, explicit constants)", "bound",
     "16 d B^2 sqrt(ln m/(km)) + 4 B^2 sqrt((2/m) ln(1/delta)) w.p. 1 − delta",
     literal=False, scaling=2, note="unhalved loss; lambda = 16 d sqrt(ln m/(km))")
_add("CB11.Thm12.bound_expectation", 16 * d * B ** 2 * sqrt(log(m) / (k * m)),
     "CB11 Thm 12 (proof, in expectation)", "bound",
     "E[L(w-bar)] − L(w*) <= 16 d B^2 sqrt(ln m/(km)) (the proof's regret bound / m, Jensen)",
     literal=False, scaling=2, note="unhalved loss; lambda = 16 d sqrt(ln m/(km))")

# ============================================================================================
# HK12 (loss ½(ŷ − y)²)
_add("HK12.Lemma3.3.G2", 8 * B ** 2 * d / k, "HK12 Lemma 3.3", "G2",
     "E||g~||^2 <= 8 B^2 d/k (AERR)", scaling=2)
_add("HK12.Lemma3.8.G2", 8 * B ** 2 * d / k, "HK12 Lemma 3.8", "G2",
     "||E[g~^2]||_inf <= 8 B^2 d/k (AELR)", scaling=2)
_add("HK12.Thm3.1.eta", sqrt(k / (2 * d * m)), "HK12 Thm 3.1", "eta",
     "AERR step size as stated", scaling=0)
_add("HK12.Thm3.1.eta_proof", 2 * B / (G * sqrt(m)), "HK12 Thm 3.1 (proof)", "eta",
     "eta = 2B/(G sqrt m) (before substituting G)", literal=False, scaling=0)
_add("HK12.Thm3.1.generic", 2 * B ** 2 / (eta * m) + eta / 2 * G ** 2, "HK12 Lemma 3.2 / Thm 3.1",
     "bound", "excess risk for any eta: 2B^2/(eta m) + eta G^2/2", literal=False, scaling=2)
_add("HK12.Thm3.1.bound", 4 * B ** 2 * sqrt(2 * d / (k * m)), "HK12 Thm 3.1", "bound",
     "AERR: E L(w-bar) − L(w*) <= 4 B^2 sqrt(2d/(km))", scaling=2,
     assumptions="||x||_2 <= 1, |y| <= B, ||w*||_2 <= B")
_add("HK12.Thm3.4.eta", 1 / (4 * B ** 2) * sqrt(2 * k * log(2 * d) / (5 * m * d)), "HK12 Thm 3.4",
     "eta", "AELR step size as stated", proof="HK12.Thm3.4.eta_proof", scaling=-1,
     erratum="the stated eta = (1/(4B^2)) sqrt(2k log 2d/(5md)) is 1/B times the proof's "
     "(1/G) sqrt(log 2d/(5m)) with G = 2B sqrt(2d/k); it scales as 1/B^2 where the EG step "
     "must scale as 1/B, and agrees with the proof only at B = 1")
_add("HK12.Thm3.4.eta_proof", 1 / G * sqrt(log(2 * d) / (5 * m)), "HK12 Thm 3.4 (proof)", "eta",
     "eta = (1/G) sqrt(log 2d/(5m)) (before substituting G)", literal=False, scaling=-1)
_add("HK12.Thm3.4.generic", B * (log(2 * d) / (eta * m) + 5 * eta * G ** 2),
     "HK12 Thm 3.4 (proof) / KS15 Thm 4.1", "bound",
     "excess risk for any eta <= 1/(2G): B(log 2d/(eta m) + 5 eta G^2)", literal=False, scaling=2)
_add("HK12.Thm3.4.bound", 4 * B ** 2 * sqrt(10 * d * log(2 * d) / (k * m)), "HK12 Thm 3.4",
     "bound", "AELR: E L(w-bar) − L(w*) <= 4 B^2 sqrt(10 d log 2d/(km)), m >= log 2d", scaling=2,
     assumptions="||x||_inf <= 1, |y| <= B, ||w*||_1 <= B, m >= log 2d")
_add("HK12.Thm4.4.bound", sp.exp(c * log(B / eps) ** 2) * sqrt(d / (k * m)), "HK12 Thm 4.4",
     "bound", "AESVR: E L(w-bar) − L(w*) <= exp(O(log^2(B/eps))) sqrt(d/(km)) (the form; c unspecified)",
     note="the form only: the constant inside O() is not given")
_add("HK12.Thm4.4.bound_G", 2 * B * sqrt(2 * Phi * d / k) / sqrt(m), "HK12 Thm 4.4 (proof)",
     "bound", "2 B G / sqrt(m) with G^2 = E[phi~^2] 2d/k (proof: E||g~||^2 = E[phi~^2] "
     "E||x~||^2, and E||x~||^2 <= 2d/k by Lemma 3.3's (9) on the unscaled x; the proof's "
     "display prints exp(O(log^2(B/eps))) d/k, the 2 inside its O)", literal=False)
_add("HK12.Thm4.4.samples", d / k * sp.exp(c * log(B / eps) ** 2), "HK12 Thm 4.4 eq. (8)",
     "complexity", "m = O(d/k) exp(O(log^2(B/eps)))")
_add("HK12.Thm4.4.attributes", k + 6, "HK12 Thm 4.4", "component",
     "attributes queried per example in expectation (k + 2 GenEst calls of <= 3 each)")
_add("HK12.Thm2.1.samples", d / (k * eps), "HK12 Thm 2.1 (CB11)", "lower",
     "Omega(d/(k eps)) examples for LAO lasso", assumptions="0 < eps < 1/16, d >= 4k")
_add("HK12.Thm2.2.samples", d / (k * eps ** 2), "HK12 Thm 2.2", "lower",
     "Omega(d/(k eps^2)) examples for LAO ridge", assumptions="eps = Omega(1/sqrt d)")
_add("HK12.ThmB.1.attributes", d / eps ** 2, "HK12 Thm B.1", "lower",
     "Omega(d/eps^2) attributes for an O(eps)-approximate ridge solution")
_add("HK12.ThmB.1.risk_star", (1 - eps) ** 2, "HK12 Lemma B.4", "component",
     "L(w*) of the hard instance, k = 1/eps^2 rows r_i e_i, y = 1 (loss without the 1/2)",
     note="HK12 eq. (1) defines L with 1/2; Lemma B.4/B.5 drop it")
_add("HK12.Table1.ridge", d / (k * eps ** 2), "HK12 Table 1", "complexity", "new ridge bound")
_add("HK12.Table1.lasso", d * log(d) / (k * eps ** 2), "HK12 Table 1", "complexity",
     "new lasso bound")
_add("HK12.Table1.svr", d / k * sp.exp(c * log(1 / eps) ** 2), "HK12 Table 1", "complexity",
     "new SVR bound (c unspecified)")
_add("HK12.Table1.prev_ridge", d ** 2 * log(d / eps) / (k * eps ** 2), "HK12 Table 1",
     "complexity", "previous (CB11) ridge and lasso bound")
_add("HK12.Table1.prev_svr", sp.exp(d ** 2 / (k * eps ** 2)), "HK12 Table 1", "complexity",
     "previous SVR bound")

# ============================================================================================
# KS15 (loss ½(ŷ − y)²; numbering of the full version)
_add("KS15.Lemma3.4.G2", 4 * B ** 2 * (S / k + 1), "KS15 Lemma 3.4 with eq. (2)", "G2",
     "E||g~||^2 <= 4B^2((1/k) sum_i E[x_i^2]/q_i + 1)", scaling=2)
_add("KS15.Lemma4.5.G2", 4 * B ** 2 * (S_inf / k + 1), "KS15 Lemma 4.5 with eq. (7)", "G2",
     "||E g~^2||_inf <= 4B^2((1/k) max_i E[x_i^2]/q_i + 1)", scaling=2)
_add("KS15.Thm3.1.generic", 2 * B ** 2 / (eta * m) + eta / 2 * G ** 2, "KS15 Thm 3.1", "bound",
     "GAERR: E L(w-bar) − L(w*) <= 2B^2/(eta m) + eta G^2/2", scaling=2,
     assumptions="||x||_2 <= 1, |y| < B, max_t E||g~_t||^2 <= G^2")
_add("KS15.Thm3.1.eta", 2 * B / (G * sqrt(m)), "KS15 Sec. 3 (after Thm 3.1)", "eta",
     "eta = 2B/(G sqrt m), the minimiser of Thm 3.1's bound", scaling=0)
_add("KS15.Thm3.1.bound", 2 * B * G / sqrt(m), "KS15 Thm 3.1 at eta = 2B/(G sqrt m)", "bound",
     "2BG/sqrt(m)", literal=False, scaling=2)
_add("KS15.Thm4.1.generic", B * (log(2 * d) / (eta * m) + 5 * eta * G ** 2), "KS15 Thm 4.1",
     "bound", "GAELR: E L(w-bar) − L(w*) <= B(log 2d/(eta m) + 5 eta G^2), eta <= 1/(2G)",
     scaling=2, assumptions="||x||_inf <= 1, |y| < B, max_t ||E g~_t^2||_inf <= G^2, eta <= 1/(2G)")
_add("KS15.Thm4.1.eta", sqrt(log(2 * d) / (5 * G ** 2 * m)), "KS15 Thm 4.1 (minimiser)", "eta",
     "eta = sqrt(log 2d/(5 G^2 m)), the minimiser of Thm 4.1's bound", literal=False, scaling=-1)
_add("KS15.Thm4.1.bound", 2 * B * G * sqrt(5 * log(2 * d) / m), "KS15 Thm 4.1 at its minimiser",
     "bound", "2BG sqrt(5 log 2d/m)", literal=False, scaling=2)
_add("KS15.Thm3.5.eta", 1 / sqrt(m * (N_half / k + 1)), "KS15 Thm 3.5", "eta",
     "DDAERR step size", scaling=0)
_add("KS15.Thm3.5.bound", 4 * B ** 2 / sqrt(m) * sqrt(N_half / k + 1), "KS15 Thm 3.5", "bound",
     "DDAERR: 4 (B^2/sqrt m) sqrt((1/k)||E x^2||_{1/2} + 1)", scaling=2,
     assumptions="||x||_2 <= 1, |y| <= B, ||w*||_2 <= B")
_add("KS15.Thm4.6.eta", 1 / (2 * B) * sqrt(log(2 * d) / (5 * m * (N_one / k + 1))), "KS15 Thm 4.6",
     "eta", "DDAELR step size", scaling=-1)
_add("KS15.Thm4.6.bound", 4 * B ** 2 * sqrt(5 * log(2 * d) * (N_one / k + 1) / m), "KS15 Thm 4.6",
     "bound", "DDAELR: 4B^2 sqrt(5 log 2d ((1/k)||E x^2||_1 + 1)/m), m >= log 2d", scaling=2,
     assumptions="||x||_inf <= 1, |y| <= B, ||w*||_1 <= B, m >= log 2d")
# Two-phase ridge
_add("KS15.Alg2.eps", EPS_RIDGE, "KS15 Alg. 2 line 11", "component",
     "epsilon = d log(2d/delta)/((k+1) m1) (Two-Phased DDAERR)")
_add("KS15.Alg4.eps", EPS_LASSO, "KS15 Alg. 4 line 11", "component",
     "epsilon = min(d log(2d/delta)/((k+1) m1), 1) (Two-Phased DDAELR)")
_E = sqrt(Rational(5, 3))
_add("KS15.Lemma3.7.S_as", 5 * d, "KS15 Lemma 3.7 (w.p. 1)", "component",
     "E||x~_{t,r}||^2 <= 5d")
_add("KS15.Lemma3.7.S_hp", 2 * N_half + 2 * _E * d * sqrt(N_half) * sqrt(eps),
     "KS15 Lemma 3.7 (w.p. >= 1 − delta)", "component",
     "E||x~_{t,r}||^2 <= 2||E x^2||_{1/2} + 2 sqrt(5/3) d sqrt(||E x^2||_{1/2}) sqrt(eps)")
_add("KS15.Lemma3.8.eta", sqrt(k / (6 * d * m2)), "KS15 Lemma 3.8", "eta",
     "eta = sqrt(k/(6 d m2))", scaling=0)
_add("KS15.Lemma3.8.bound", 4 * B ** 2 * sqrt(6 * d / (k * m2)), "KS15 Lemma 3.8", "bound",
     "4B^2 sqrt(6d/(k m2)) w.p. 1 over phase 1", scaling=2)
_G9 = 2 * H / k + 2 / k * _E * d * sqrt(H) * sqrt(eps) + 1
_add("KS15.Lemma3.9.eta", 1 / sqrt(m2 * _G9), "KS15 Lemma 3.9", "eta", "Lemma 3.9 step size",
     scaling=0)
_add("KS15.Lemma3.9.bound", 4 * B ** 2 / sqrt(m2) * sqrt(_G9), "KS15 Lemma 3.9", "bound",
     "(4B^2/sqrt m2) sqrt((2/k)H + (2/k) sqrt(5/3) d sqrt(H) sqrt(eps) + 1)", scaling=2)
_G10 = 2 * H + 2 * _E * d * sqrt(H) * sqrt(EPS_RIDGE) + k
_add("KS15.Lemma3.10.eta", Max(sqrt(k / (6 * d * m2)), sqrt(k / (m2 * _G10))), "KS15 Lemma 3.10",
     "eta", "max of the two step sizes (Lemma B.4)", scaling=0)
_add("KS15.Lemma3.10.eta_proof_text", sqrt(k / (12 * d * m2)), "KS15 App. B.7", "eta",
     "the first step size as written in the proof of Lemma 3.10 (B.7)", literal=False,
     erratum="B.7 writes eta = sqrt(k/(12 d m2)) 'by Lemma 3.8', but Lemma 3.8 (and Lemma B.4's "
     "eta_1 = 2B/(G_1 sqrt m2) with G_1^2 = 24B^2 d/k) give sqrt(k/(6 d m2)); with 12 the bound "
     "4B^2 sqrt(6d/(k m2)) does not follow (it gives 6 sqrt(3) instead of 4 sqrt(6))", scaling=0)
_add("KS15.Lemma3.10.bound_as", 4 * B ** 2 / sqrt(m2) * sqrt(6 * d / k), "KS15 Lemma 3.10",
     "bound", "w.p. 1 over phase 1", scaling=2)
_add("KS15.Lemma3.10.bound_hp", 4 * B ** 2 / sqrt(m2) * sqrt(_G10 / k), "KS15 Lemma 3.10",
     "bound", "w.p. >= 1 − delta over phase 1", scaling=2)
_add("KS15.Thm3.6.eta",
     Max(sqrt(k / (6 * d * m2)),
         sqrt(k / (m2 * (2 * N_half + 2 * _E * d * sqrt(N_half) * sqrt(EPS_RIDGE + k))))),
     "KS15 Thm 3.6", "eta", "as printed: the '+ k' sits under the square root of epsilon",
     proof="KS15.Thm3.6.eta_proof", scaling=0,
     erratum="as printed (full version 003's text), '+ k' is inside sqrt(d log(2d/delta)/((k+1)m1) + k); "
     "Lemma 3.10 (with H = ||E x^2||_{1/2}), from which the theorem follows, has '+ k' outside "
     "(a typesetting slip, or an artefact of the text extraction: check the typeset PDF)")
_add("KS15.Thm3.6.eta_proof", FORMULAS["KS15.Lemma3.10.eta"].expr.subs(H, N_half),
     "KS15 Thm 3.6 (via Lemma 3.10, H = ||E x^2||_{1/2})", "eta", "Lemma 3.10's step size",
     literal=False, scaling=0)
_add("KS15.Thm3.6.bound_as", 4 * B ** 2 / sqrt(m2) * sqrt(6 * d / k), "KS15 Thm 3.6", "bound",
     "w.p. 1 over phase 1", scaling=2)
_add("KS15.Thm3.6.bound_hp",
     4 * B ** 2 / sqrt(m2) * sqrt(2 / k * N_half + 2 / k * _E * d * sqrt(N_half) * sqrt(EPS_RIDGE + 1)),
     "KS15 Thm 3.6", "bound", "w.p. >= 1 − delta, as printed: '+ 1' under sqrt(eps)",
     proof="KS15.Thm3.6.bound_hp_proof", scaling=2,
     erratum="as printed (003's text), '+ 1' is inside the square root of epsilon; Lemma 3.10 has it "
     "outside (typesetting or extraction; check the typeset PDF); "
     "the printed bound is smaller than the proved one when (2/k) sqrt(5/3) d sqrt(N)"
     "(sqrt(eps + 1) − sqrt(eps)) < 1")
_add("KS15.Thm3.6.bound_hp_proof", FORMULAS["KS15.Lemma3.10.bound_hp"].expr.subs(H, N_half),
     "KS15 Thm 3.6 (via Lemma 3.10)", "bound", "Lemma 3.10's bound with H = ||E x^2||_{1/2}",
     literal=False, scaling=2)
_add("KS15.Lemma3.11.H_upper", 8 * N_half + Rational(34, 3) * d ** 2 * eps, "KS15 Lemma 3.11",
     "component", "||2A + (10/3) eps||_{1/2} <= 8||E x^2||_{1/2} + (34/3) d^2 eps w.p. >= 1 − delta")
_add("KS15.Thm3.12.eta",
     Max(sqrt(k / (6 * d * m2)),
         sqrt(k / (m2 * (2 * H + 2 * _E * d * sqrt(H) * sqrt(EPS_RIDGE) + k)))),
     "KS15 Thm 3.12", "eta", "H = ||2A + (10/3) eps||_{1/2} (the phase-1 estimate)", scaling=0)
_add("KS15.Thm3.12.bound_as", 4 * B ** 2 / sqrt(m2) * sqrt(6 * d / k), "KS15 Thm 3.12", "bound",
     "w.p. 1 over phase 1", scaling=2)
_add("KS15.Thm3.12.bound_hp",
     16 * B ** 2 / sqrt(m2) * sqrt(1 / k * (sqrt(N_half) + d * sqrt(2 * EPS_RIDGE)) ** 2) + 1,
     "KS15 Thm 3.12", "bound", "w.p. >= 1 − delta, as printed: '+ 1' outside the square root",
     proof="KS15.Thm3.12.bound_hp_proof", scaling=2,
     erratum="as printed in 003's text, the '+ 1' is outside the square root (and outside the factor "
     "16B^2/sqrt(m2)), which breaks the B^2 scaling; the proof's last line has it inside (the "
     "conference version's extraction 000 is ambiguous about the radical's extent: possibly a "
     "typesetting or extraction artefact)")
_add("KS15.Thm3.12.bound_hp_proof",
     16 * B ** 2 / sqrt(m2) * sqrt(1 / k * (sqrt(N_half) + d * sqrt(2 * EPS_RIDGE)) ** 2 + 1),
     "KS15 Thm 3.12 (proof, Sec. 3.3.1)", "bound", "w.p. >= 1 − delta", literal=False, scaling=2)
# Two-phase lasso
_add("KS15.Lemma4.8.S_inf", 4 * N_one + Rational(20, 3) * d * eps, "KS15 Lemma 4.8", "component",
     "||E x~_{t,r}^2||_inf <= 4||E x^2||_1 + (20/3) d eps")
_add("KS15.Thm4.7.eta",
     sqrt(k * log(2 * d) / (20 * B ** 2 * m2 * (8 * A_one + 20 * d * EPS_LASSO + k))),
     "KS15 Thm 4.7", "eta", "Two-Phased DDAELR step size (A from phase 1)", scaling=-1)
_add("KS15.Thm4.7.G2hat", 4 * B ** 2 * (4 / k * (2 * A_one + Rational(10, 3) * eps * d)
                                        + Rational(20, 3) / k * d * eps + 1),
     "KS15 Sec. 4.2.1", "G2", "G^2-hat = 4B^2((4/k)||2A + (10/3)eps||_1 + (20/(3k)) d eps + 1)",
     literal=False, scaling=2)
_add("KS15.Thm4.7.bound_as", 61 * B ** 2 * sqrt(d * log(2 * d) / (k * m2)), "KS15 Thm 4.7",
     "bound", "61 B^2 sqrt(d log 2d/(k m2)) w.p. 1 over phase 1", scaling=2,
     assumptions="m2 >= log 2d; laocheck: holds by the proof when eps = 1 (m1 small)")
_add("KS15.Thm4.7.bound_hp",
     4 * B ** 2 * sqrt(5 * (16 * N_one + Rational(88, 3) * d * EPS_LASSO + k) * log(2 * d) / (k * m2)),
     "KS15 Thm 4.7", "bound", "w.p. >= 1 − delta over phase 1", scaling=2)
# Tables and ratios
_add("KS15.Table1.ridge_new", sqrt((N_half + k) / (k * m)), "KS15 Table 1", "bound",
     "O(sqrt((||E x^2||_{1/2} + k)/(km)))")
_add("KS15.Table1.ridge_old", sqrt(d / (k * m)), "KS15 Table 1", "bound", "O(sqrt(d/(km)))")
_add("KS15.Table1.ridge_full", sqrt(1 / m), "KS15 Table 1", "bound", "O(sqrt(1/m))")
_add("KS15.Table1.lasso_new", sqrt((N_one + k) * log(d) / (k * m)), "KS15 Table 1", "bound",
     "O(sqrt((||E x^2||_1 + k) log d/(km)))")
_add("KS15.Table1.lasso_old", sqrt(d * log(d) / (k * m)), "KS15 Table 1", "bound",
     "O(sqrt(d log d/(km)))")
_add("KS15.Table1.lasso_full", sqrt(log(d) / m), "KS15 Table 1", "bound", "O(sqrt(log d/m))")
_add("KS15.Eq11.rho_ridge", N_half / (d * N_one), "KS15 eq. (11)", "ratio",
     "rho_ridge = ||E x^2||_{1/2} / (d E||x^2||_1)", scaling=0,
     note="E||x^2||_1 = sum_i E[x_i^2] = ||E x^2||_1")
_add("KS15.Eq12.rho_lasso", N_one / (d * N_inf), "KS15 eq. (12)", "ratio",
     "rho_lasso = ||E x^2||_1 / (d ||E x^2||_inf)", scaling=0)
