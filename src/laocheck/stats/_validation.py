"""Shared input validation for :mod:`laocheck.stats` (scipy-style messages).

Every public function validates its arguments in a ``_<func>_iv`` helper built from the
checks below; each check raises :class:`~laocheck.exceptions.InvalidParameterError` with a
message naming the parameter, its value and the rule it breaks, e.g.
"`delta` must satisfy 0 < delta < 1; got delta=1.5."
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from ..exceptions import InvalidParameterError

ALTERNATIVES = ("two-sided", "greater", "less")


def fail(name, value, rule):
    """Raise the package's error for parameter ``name`` breaking ``rule``."""
    raise InvalidParameterError(f"`{name}` must {rule}; got {name}={value!r}.")


def check_probability(value, name="delta"):
    """Return ``value`` as a float after checking 0 < value < 1."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0 < value < 1:
        fail(name, value, f"satisfy 0 < {name} < 1")
    return float(value)


def check_positive(value, name):
    """Return ``value`` as a finite float after checking value > 0."""
    if (isinstance(value, bool) or not isinstance(value, numbers.Real)
            or not math.isfinite(value) or value <= 0):
        fail(name, value, f"be a finite number with {name} > 0")
    return float(value)


def check_count(value, name, minimum=1):
    """Return ``value`` as an int after checking it is a whole number >= ``minimum``."""
    if (isinstance(value, bool) or not isinstance(value, numbers.Real)
            or not float(value).is_integer() or value < minimum):
        fail(name, value, f"be an integer >= {minimum}")
    return int(value)


def check_range(lower, upper):
    """Return ``(lower, upper)`` as floats after checking lower < upper, both finite."""
    for name, value in (("lower", lower), ("upper", upper)):
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
            fail(name, value, "be a finite real number")
    if not lower < upper:
        raise InvalidParameterError(
            f"`lower` and `upper` must satisfy lower < upper; got lower={lower!r}, upper={upper!r}.")
    return float(lower), float(upper)


def check_alternative(alternative):
    """Return ``alternative`` after checking it is one of :data:`ALTERNATIVES`."""
    if alternative not in ALTERNATIVES:
        fail("alternative", alternative, f"be one of {ALTERNATIVES}")
    return alternative


def check_method(method, methods, name="method"):
    """Return ``method`` after checking it is one of ``methods``."""
    if method not in methods:
        fail(name, method, f"be one of {tuple(methods)}")
    return method


def check_sample(values, name="values", *, ndim=1, min_size=1):
    """Return ``values`` as a float64 array with ``ndim`` dimensions, no NaN/inf, >= min_size rows."""
    try:
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        fail(name, type(values).__name__, "be convertible to a float array")
    if arr.ndim != ndim:
        fail(name, f"<array of shape {arr.shape}>", f"be a {ndim}-dimensional array")
    if arr.shape[0] < min_size:
        fail(name, f"<array of shape {arr.shape}>", f"contain at least {min_size} observation(s)")
    if not np.all(np.isfinite(arr)):
        bad = arr[~np.isfinite(arr)].flat[0]
        fail(name, f"<array containing {bad}>", "contain only finite numbers (no NaN or inf)")
    return arr


def check_within(arr, lower, upper, name="values"):
    """Check that every entry of ``arr`` lies in [lower, upper] (broadcast over the last axis)."""
    lo, hi = np.min(arr, axis=0), np.max(arr, axis=0)
    if np.any(lo < lower) or np.any(hi > upper):
        worst = float(np.min(lo) if np.any(lo < lower) else np.max(hi))
        raise InvalidParameterError(
            f"`{name}` must lie in [lower, upper]; got a value {worst!r} outside "
            f"[{float(np.min(lower))!r}, {float(np.max(upper))!r}].")
