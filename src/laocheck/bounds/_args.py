"""Validation of the values of a formula's symbols (shared by the sympy formulas and the
generated numeric functions, so both refuse the same input)."""

from .._validation import check_int, check_positive, check_scalar
from ..exceptions import InvalidParameterError

__all__ = ["validated", "INTEGER_SYMBOLS", "NONNEGATIVE_SYMBOLS"]

#: symbols that take integer values >= 1
INTEGER_SYMBOLS = frozenset({"d", "k", "m", "m1", "m2"})

#: symbols that may be 0: ‖A‖₁ of KS15 Alg. 4's phase-1 estimate is 0 when phase 1 sees no
#: nonzero attribute (every formula using it stays finite there: A_one only appears added to
#: a positive term, so the value at 0 is the formula's limit, as for the sympy symbol)
NONNEGATIVE_SYMBOLS = frozenset({"A_one"})


def validated(values):
    """The values of a formula's symbols, checked: d, k, m, m1, m2 integers >= 1, 0 < delta < 1,
    A_one >= 0, the others > 0, and k <= d when both are given."""
    out = {}
    for n, v in values.items():
        if n in INTEGER_SYMBOLS:
            out[n] = check_int(n, v, low=1)
        elif n == "delta":
            x = check_scalar(n, v)
            if not 0 < x < 1:
                raise InvalidParameterError(f"`delta` must satisfy 0 < delta < 1; got delta={x}.")
            out[n] = x
        elif n in NONNEGATIVE_SYMBOLS:
            x = check_scalar(n, v)
            if not x >= 0:
                raise InvalidParameterError(f"`{n}` must be >= 0; got {n}={x}.")
            out[n] = x
        else:
            out[n] = check_positive(n, v)
    if "k" in out and "d" in out and out["k"] > out["d"]:
        raise InvalidParameterError(
            f"`k` must satisfy 1 <= k <= d; got k={out['k']} with d={out['d']}.")
    return out
