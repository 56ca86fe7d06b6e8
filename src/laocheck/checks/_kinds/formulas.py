"""The helpers shared by the checks of the formulas of laocheck.bounds and the papers' tables of
several papers (their checks: ``cb11/formulas.py``, ``hk12/formulas.py``, ``ks15/formulas.py``,
``lao/formulas.py``).

Symbolic and exact checks of the formulas, on the expressions of
:mod:`laocheck.bounds._formulas` — the same objects the numbers of ``laocheck bounds`` come from.

Each check is registered in :mod:`laocheck.checks` with its id (parts as ``ID.part``).
Method: sympy (``simplify`` of a difference, ``solve`` of a stationarity condition, exact
rationals) and exact enumeration with ``fractions.Fraction``-valued sympy Rationals; none is
statistical, so δ = 0.

Power (``Result.detects``): 1.0 for the sympy identities and exact enumerations (numbers
compared with numbers), 1 + tol where floats are compared within a relative tol, 1 + half a
unit of the last printed digit over the value for the printed ρ of KS15 Sec. 5.1; None for
``HK12.Thm4.4.form``, a claim of order (exp(O(log²(B/ε)))) that no constant factor refutes.
"""

from __future__ import annotations

import math

from ..._lazy import load
from .._registry import Status

# sympy is imported on first use (laocheck list imports every check module)
sp = load("sympy")


def _zero(expr):
    """True when expr == 0: sympy's simplify proves it, or — when simplify cannot normalise
    nested square roots — the expression vanishes to 25 digits at 8 points with every symbol in
    (2, 50) (``evalf`` at 40 digits; a nonzero algebraic expression of this size does not vanish
    at 8 generic points). The points are a Weyl sequence (frac(i·√p) for the j-th prime p),
    deterministic and rational: no random seed is involved."""
    expr = sp.sympify(expr)
    if sp.simplify(sp.expand_log(sp.simplify(expr), force=True)) == 0:
        return True
    syms = sorted(expr.free_symbols, key=lambda s_: s_.name)
    primes = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53]
    for i in range(1, 9):
        point = {s_: sp.Rational(2000 + int(48000 * math.modf(i * math.sqrt(primes[j % 16]))[0]),
                                 1000) for j, s_ in enumerate(syms)}
        val = sp.N(expr.subs(point), 40)
        scale = max(1, max(abs(sp.N(a.subs(point), 40)) for a in sp.Add.make_args(sp.expand(expr))))
        if not val.is_number or abs(val) > sp.Float(10) ** -25 * scale:
            return False
    return True


def _argmin(expr, var):
    """The positive stationary point of expr in var (sympy solve of d expr/d var = 0)."""
    sols = [s for s in sp.solve(sp.diff(expr, var), var) if s.is_positive is not False]
    if len(sols) != 1:
        raise RuntimeError(f"expected one positive stationary point, got {sols}")
    return sp.simplify(sols[0])


def _status(ok):
    return Status.PASS if ok else Status.FAIL
