"""The constants of HK12 the fast path computes with, typed here a second time.

The literal reference (:mod:`laocheck.reference.estimators`) types them once; the kernels, the
estimator families and the learners use these, so that a slip in either transcription shows up
as a disagreement between the kernels and the reference (``*.kernel_matches_reference``, the
catalog's checks of HK12 Alg. 4 and Procedure 3) instead of being shared by both sides.
``tests/estimators/test_paper_constants.py`` holds the two transcriptions equal.

* HK12 eq. (7): the Taylor coefficients of ρ′ = erf, a_{2n} = 0,
  a_{2n+1} = 2(−1)ⁿ/(√π n!(2n + 1)) (AESVR, HK12 Alg. 4 line 1);
* HK12 Procedure 3 line 1: N = ⌈4B²⌉; line 3: the orders n <= 2 log₂ N.
"""

from __future__ import annotations

import math
from fractions import Fraction
from numbers import Integral

import numpy as np

from ..exceptions import InvalidParameterError

__all__ = ["aesvr_coefficients", "genest_sample_size", "genest_small_orders"]

#: a_0..a_340: beyond n = 170, n! no longer converts to a double (the coefficients underflow)
_MAX_TERMS = 341


def aesvr_coefficients(n_terms=None):
    """Taylor coefficients of ρ′ = erf, HK12 eq. (7), as AESVR's kernels use them.

    Parameters
    ----------
    n_terms : int or None
        Keep a_0..a_{n_terms-1}. Default None: all 341 (a_0..a_340), where the coefficients
        underflow in double precision.

    Returns
    -------
    ndarray
        The coefficients a_0, a_1, ... as floats.

    Raises
    ------
    InvalidParameterError
        ``n_terms`` is not an integer in [1, 341].
    """
    if n_terms is not None and (isinstance(n_terms, bool) or not isinstance(n_terms, Integral)
                                or not 1 <= n_terms <= _MAX_TERMS):
        raise InvalidParameterError(
            f"`n_terms` must be None or an integer in [1, {_MAX_TERMS}] (a_341 onwards "
            f"underflow: n! exceeds a double); got n_terms={n_terms!r}.")
    odd = (_MAX_TERMS if n_terms is None else int(n_terms)) // 2 + 1   # a_1, a_3, ... kept
    odd = min(odd, 170)
    a = np.zeros(2 * odd + 1)
    for n in range(odd):                               # eq. (7): odd orders only
        a[2 * n + 1] = 2.0 / math.sqrt(math.pi) * (-1) ** n / (math.factorial(n) * (2 * n + 1))
    return a if n_terms is None else a[:n_terms]


def genest_sample_size(B):
    """N = ⌈4B²⌉ of HK12 Procedure 3 line 1, exact (B as the rational its float is)."""
    return math.ceil(4 * Fraction(B) ** 2)


def genest_small_orders(N):
    """The largest order n with n <= 2 log₂ N (HK12 Procedure 3 line 3): 2ⁿ <= N²."""
    return (int(N) ** 2).bit_length() - 1
