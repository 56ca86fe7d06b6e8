"""The helpers shared by the checks of the constants of the text (the prose around the statements)
of several papers (their checks: ``cb11/text_constants.py``, ``hk12/text_constants.py``,
``ks15/text_constants.py``).

Step sizes, constants and rates stated in the running text of CB11, HK12 and KS15 (outside
the theorem statements), each checked against the bound it is said to give.

Methods: sympy (exact algebra on the bounds of :mod:`laocheck.bounds`'s theorems as printed),
exact evaluation on a grid where the text claims an order of growth, and exact enumeration
(Fractions) of one step of the literal boxes where the text describes what a step reads or
computes (HK12's k + 1 attributes, CB11's gradient magnitude). The KS15 "m₁ ≫ T" conditions
are checked as: at m₁ = r·T the m₁-dependent term of the theorem's bound, relative to the
AERR/AELR rate, is a function of r alone that tends to 0 as r -> ∞ and is of order 1 at r = 1.
"""

from __future__ import annotations

from .._registry import Result, Status

__all__ = []


#: ``detects`` of a claim of order of growth (O(·), "m₁ ≫ T", a rate up to constants): a constant
#: factor leaves the claim true, so no factor applies (Result's rule)
ORDER_CLAIM = None


def _verdict(ok, figures, detects=1.0, **kw):
    """PASS or FAIL; ``detects`` 1.0 by default: the checks compare numbers with numbers exactly
    (sympy identities of number-valued formulas: bounds, step sizes, constants; Fractions),
    1 + tol where floats are compared within tol, :data:`ORDER_CLAIM` for a claim of order."""
    return Result(Status.PASS if ok else Status.FAIL, figures, detectable=0.0, detects=detects,
                  **kw)
