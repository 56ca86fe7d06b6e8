"""Validation of the values of a formula's symbols (shared by the sympy formulas and the
generated numeric functions, so both refuse the same input)."""

from .._validation import check_int, check_positive, check_scalar
from ..exceptions import InvalidParameterError

__all__ = ["validated", "INTEGER_SYMBOLS"]

#: symbols that take integer values >= 1
INTEGER_SYMBOLS = frozenset({"d", "k", "m", "m1", "m2"})


def validated(values):
    """The values of a formula's symbols, checked: d, k, m, m1, m2 integers >= 1, 0 < delta < 1,
    the others > 0, and k <= d when both are given."""
    out = {}
    for n, v in values.items():
        if n in INTEGER_SYMBOLS:
            out[n] = check_int(n, v, low=1)
        elif n == "delta":
            x = check_scalar(n, v)
            if not 0 < x < 1:
                raise InvalidParameterError(f"`delta` must satisfy 0 < delta < 1; got delta={x}.")
            out[n] = x
        else:
            out[n] = check_positive(n, v)
    if "k" in out and "d" in out and out["k"] > out["d"]:
        raise InvalidParameterError(
            f"`k` must satisfy 1 <= k <= d; got k={out['k']} with d={out['d']}.")
    return out
