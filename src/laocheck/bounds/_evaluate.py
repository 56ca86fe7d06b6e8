"""The numbers of laocheck.bounds without sympy: validated evaluation of the generated functions.

``laocheck.bounds._numeric`` holds one plain-numpy function per formula of
:mod:`laocheck.bounds._formulas`, printed from its sympy expression by
``python -m laocheck.bounds._generate`` (sympy's NumPy printer, the code ``sympy.lambdify``
would build), with the formula's citation and errata bookkeeping. :func:`evaluate` validates
the arguments as :meth:`laocheck.bounds.Formula.__call__` does and calls that function, so the
learners' step sizes (``eta="theory"``) and every number of :func:`laocheck.bounds.theorem_bounds`
cost no sympy import at run time. ``tests/bounds/test_numeric.py`` checks that every generated
function equals its sympy source on random points and that the generated file is up to date.
"""

import numpy as np

from ..exceptions import InvalidParameterError
from ._args import validated
from ._numeric import FUNCTIONS, INFO

__all__ = ["evaluate", "info"]


def _entry(id):
    try:
        return FUNCTIONS[id], INFO[id]
    except KeyError:
        raise InvalidParameterError(
            f"`id` must be a formula of laocheck.bounds.FORMULAS; got {id!r}.") from None


def info(id):
    """The bookkeeping of formula ``id``, without importing sympy.

    Parameters
    ----------
    id : str
        A key of :data:`laocheck.bounds.FORMULAS` (``"HK12.Thm3.1.bound"``).

    Returns
    -------
    dict
        The keys ``id``, ``args``, ``citation``, ``kind``, ``description``, ``literal``,
        ``erratum``, ``proof``, ``scaling``, ``note`` and ``assumptions``.

    Raises
    ------
    InvalidParameterError
        ``id`` is not a formula of :data:`laocheck.bounds.FORMULAS`.
    """
    return dict(_entry(id)[1])


def evaluate(id, **values):
    """The value of formula ``id`` at the given values, without importing sympy.

    The same number as ``laocheck.bounds.formula(id)(**values)``: the numeric function is
    generated from the formula's sympy expression.

    Parameters
    ----------
    id : str
        A key of :data:`laocheck.bounds.FORMULAS` (``"HK12.Thm3.1.bound"``).
    **values : float
        A value for each of the formula's arguments (``info(id)["args"]``); others are
        ignored.

    Returns
    -------
    float
        The formula's value.

    Raises
    ------
    InvalidParameterError
        ``id`` is not a formula, an argument is missing, or a value breaks the formula's
        assumptions (for example ``k`` < 1 or ``B`` <= 0).
    """
    func, meta = _entry(id)
    args = meta["args"]
    missing = [n for n in args if n not in values]
    if missing:
        raise InvalidParameterError(
            f"`{missing[0]}` is required by {id} ({meta['citation']}); it depends on "
            f"{', '.join(args)}.")
    vals = validated({n: values[n] for n in args})
    with np.errstate(all="ignore"):
        return float(func(*[vals[n] for n in args]))
