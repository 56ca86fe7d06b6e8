"""Validation at the Python boundary (shared by every public entry point).

Each helper returns the normalised value or raises :class:`~laocheck.exceptions.InvalidParameterError` with a message
that names the parameter in backticks, states the rule and shows the value, in scipy's style:
"`k` must satisfy 1 <= k <= d; got k=12 with d=10." The name of the parameter always comes
first, so that the message names the user's argument, never an internal variable.
"""

import math
import os
import numbers
import operator

import numpy as np

from .exceptions import InvalidParameterError

__all__ = [
    "check_int",
    "check_scalar",
    "check_positive",
    "check_vector",
    "check_distribution",
    "check_nonnegative_vector",
    "check_rng",
    "check_probability",
    "check_count",
    "check_range",
    "check_choice",
    "check_sample",
    "check_within",
    "fail",
    "check_real",
    "available_memory",
    "check_memory",
]


def fail(name, value, rule):
    """Raise :class:`~laocheck.exceptions.InvalidParameterError` for parameter ``name`` breaking ``rule``."""
    raise InvalidParameterError(f"`{name}` must {rule}; got {name}={_show(value)}.")


def _is_real(value):
    return (isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_)))


def _show(value, limit=60):
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def check_int(name, value, *, low=None, high=None, high_name=None, even=False):
    """An integer (bools and non-integral floats refused) within [low, high]."""
    if isinstance(value, (bool, np.bool_)):
        raise InvalidParameterError(f"`{name}` must be an integer, not a bool; got {name}={value}.")
    if not isinstance(value, numbers.Integral):
        try:
            value = operator.index(value)
        except TypeError:
            raise InvalidParameterError(
                f"`{name}` must be an integer; got {name}={_show(value)}."
            ) from None
    value = int(value)
    if low is not None and high is not None and not low <= value <= high:
        bound = high_name or str(high)
        extra = f" with {high_name}={high}" if high_name else ""
        raise InvalidParameterError(
            f"`{name}` must satisfy {low} <= {name} <= {bound}; got {name}={value}{extra}."
        )
    if low is not None and value < low:
        raise InvalidParameterError(f"`{name}` must satisfy {name} >= {low}; got {name}={value}.")
    if even and value % 2:
        raise InvalidParameterError(f"`{name}` must be even; got {name}={value}.")
    return value


def check_scalar(name, value):
    """A finite real number, returned as float."""
    if isinstance(value, (bool, np.bool_)) or isinstance(value, (str, bytes)):
        raise InvalidParameterError(f"`{name}` must be a finite real number; got {_show(value)}.")
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
        raise InvalidParameterError(
            f"`{name}` must be a finite real number; got {name}={_show(value)}."
        ) from None
    if arr.ndim != 0:
        raise InvalidParameterError(
            f"`{name}` must be a scalar; got an array of shape {arr.shape}."
        )
    out = float(arr)
    if not np.isfinite(out):
        raise InvalidParameterError(f"`{name}` must be finite; got {name}={out}.")
    return out


def check_positive(name, value):
    """A finite real number > 0."""
    out = check_scalar(name, value)
    if not out > 0:
        raise InvalidParameterError(f"`{name}` must be > 0; got {name}={out}.")
    return out


def check_vector(name, value, *, d=None, d_name="d"):
    """A nonempty, finite, 1-d float64 array (C-contiguous copy when needed), of length d if given."""
    if isinstance(value, (str, bytes)):
        raise InvalidParameterError(f"`{name}` must be a 1-d array of real numbers; got a string.")
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError) as exc:
        raise InvalidParameterError(f"`{name}` must be a 1-d array of real numbers: {exc}") from None
    if arr.dtype.kind == "c" or (arr.dtype == object and any(isinstance(v, complex)
                                                            for v in arr.ravel()[:1000])):
        raise InvalidParameterError(f"`{name}` must be real; got complex values.")
    if arr.dtype == object or arr.dtype.kind not in "biuf":
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError, OverflowError):      # OverflowError: an int beyond doubles
            raise InvalidParameterError(
                f"`{name}` must be a 1-d array of real numbers (finite doubles); got dtype "
                f"{arr.dtype}."
            ) from None
    if arr.ndim != 1:
        raise InvalidParameterError(f"`{name}` must be 1-d; got shape {arr.shape}.")
    if arr.shape[0] == 0:
        raise InvalidParameterError(f"`{name}` must not be empty.")
    if d is not None and arr.shape[0] != d:
        raise InvalidParameterError(
            f"`{name}` must have length {d_name}={d}; got length {arr.shape[0]}."
        )
    arr = np.ascontiguousarray(arr, dtype=np.float64)
    if not np.all(np.isfinite(arr)):
        bad = int(np.flatnonzero(~np.isfinite(arr))[0])
        raise InvalidParameterError(
            f"`{name}` must be finite; got {name}[{bad}]={arr[bad]}."
        )
    if arr.shape[0] >= 2**31:
        raise InvalidParameterError(f"`{name}` must have fewer than 2**31 entries.")
    return arr


def check_nonnegative_vector(name, value, *, d=None, positive_sum=True):
    """A finite 1-d array with entries >= 0 and (unless ``positive_sum=False``) a positive sum."""
    arr = check_vector(name, value, d=d)
    if np.any(arr < 0):
        bad = int(np.flatnonzero(arr < 0)[0])
        raise InvalidParameterError(f"`{name}` must be >= 0 entrywise; got {name}[{bad}]={arr[bad]}.")
    with np.errstate(over="ignore"):           # a sum beyond the doubles is inf: positive
        positive = arr.sum() > 0
    if positive_sum and not positive:
        raise InvalidParameterError(f"`{name}` must have a positive sum; got all zeros.")
    return arr


def check_distribution(name, value, *, d=None, rtol=1e-9):
    """A probability vector: entries >= 0 summing to 1 within ``rtol`` (then renormalised)."""
    arr = check_nonnegative_vector(name, value, d=d)
    with np.errstate(over="ignore"):           # an infinite sum is refused just below
        total = float(arr.sum())
    if abs(total - 1.0) > rtol * max(1.0, arr.shape[0] ** 0.5):
        raise InvalidParameterError(
            f"`{name}` must be a probability vector (entries >= 0 summing to 1); "
            f"got sum({name})={total!r}."
        )
    return arr / total


def check_rng(rng, *, name="rng"):
    """A ``numpy.random.Generator`` from a Generator, a seed, a SeedSequence or None.

    ``name`` is the user's name for the argument (``random_state`` in a learner)."""
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, np.random.RandomState):
        raise InvalidParameterError(
            f"`{name}` must be a numpy.random.Generator, a seed or a SeedSequence; "
            "RandomState (legacy global-style state) is not supported."
        )
    if isinstance(rng, (bool, np.bool_, float, np.floating, str, bytes)):
        raise InvalidParameterError(
            f"`{name}` must be a numpy.random.Generator, a seed (an integer >= 0) or a "
            f"SeedSequence; got {name}={_show(rng)}.")
    try:
        return np.random.default_rng(rng)
    except (TypeError, ValueError, OverflowError) as exc:
        raise InvalidParameterError(
            f"`{name}` must be a numpy.random.Generator, a seed (an integer >= 0) or a "
            f"SeedSequence; got {name}={_show(rng)} ({exc})."
        ) from None


def check_probability(name, value):
    """A float with 0 < value < 1 (every such double, down to 5e-324, is accepted)."""
    if not _is_real(value) or not 0 < value < 1:
        fail(name, value, f"satisfy 0 < {name} < 1")
    return float(value)


def check_count(name, value, *, minimum=1, maximum=None):
    """A whole number (an int, or a float with an integral value) within [minimum, maximum]."""
    ok = _is_real(value)
    if ok and not isinstance(value, numbers.Integral):
        ok = _finite(value) and float(value).is_integer()
    if not ok or value < minimum or (maximum is not None and value > maximum):
        rule = f"be an integer >= {minimum}" + ("" if maximum is None else f" and <= {maximum}")
        fail(name, value, rule)
    return int(value)


def _finite(value):
    """Whether ``value`` is a real number that is a finite double (huge ints are not)."""
    if not _is_real(value):
        return False
    try:
        return math.isfinite(float(value))
    except OverflowError:
        return False


def check_range(lower, upper, *, lower_name="lower", upper_name="upper"):
    """``(lower, upper)`` as finite floats with lower < upper."""
    for name, value in ((lower_name, lower), (upper_name, upper)):
        if not _finite(value):
            fail(name, value, "be a finite real number")
    if not lower < upper:
        raise InvalidParameterError(
            f"`{lower_name}` and `{upper_name}` must satisfy {lower_name} < {upper_name}; got "
            f"{lower_name}={lower!r}, {upper_name}={upper!r}.")
    return float(lower), float(upper)


def check_choice(name, value, choices):
    """``value`` after checking it is one of ``choices``."""
    try:
        ok = value in choices
    except TypeError:  # an unhashable or incomparable value
        ok = False
    if not ok:
        fail(name, value, f"be one of {tuple(choices)}")
    return value


def check_sample(name, values, *, ndim=1, min_size=1):
    """A float64 array with ``ndim`` dimensions, only finite numbers and >= ``min_size`` rows."""
    if isinstance(values, (str, bytes)):
        fail(name, values, "be an array of real numbers")
    try:
        arr = np.asarray(values)
        if arr.dtype.kind == "c":
            raise TypeError
        arr = arr.astype(np.float64, copy=False)
    except (TypeError, ValueError, OverflowError):
        fail(name, f"<{type(values).__name__}>", "be convertible to a float array")
    if arr.ndim != ndim:
        fail(name, f"<array of shape {arr.shape}>", f"be a {ndim}-dimensional array")
    if arr.shape[0] < min_size:
        fail(name, f"<array of shape {arr.shape}>", f"contain at least {min_size} observation(s)")
    if not np.all(np.isfinite(arr)):
        bad = arr[~np.isfinite(arr)].flat[0]
        fail(name, f"<array containing {bad}>", "contain only finite numbers (no NaN or inf)")
    return arr


def check_within(name, arr, lower, upper):
    """Check that every entry of ``arr`` lies in [lower, upper] (broadcast over the last axis)."""
    lo, hi = np.min(arr, axis=0), np.max(arr, axis=0)
    if np.any(lo < lower) or np.any(hi > upper):
        worst = float(np.min(lo) if np.any(lo < lower) else np.max(hi))
        raise InvalidParameterError(
            f"`{name}` must lie in [lower, upper]; got a value {worst!r} outside "
            f"[{float(np.min(lower))!r}, {float(np.max(upper))!r}].")


def check_real(name, value, *, low=None, high=None, low_open=False, rule=None):
    """A finite real number within [low, high] (``low_open``: low < value), as float.

    Refuses what ``check_scalar`` lets through by coercion: datetime64/timedelta64 and other
    non-numeric numpy scalars, and integers too large for a double (an InvalidParameterError,
    not an OverflowError). ``rule`` says why the range is what it is (appended to the message).
    """
    if isinstance(value, (np.datetime64, np.timedelta64)) or (
            isinstance(value, np.ndarray) and value.dtype.kind in "mMOSUV"):
        raise InvalidParameterError(
            f"`{name}` must be a real number; got {name}={_show(value)} "
            f"(type {type(value).__name__}).")
    if isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)):
        try:
            float(value)
        except OverflowError:
            raise InvalidParameterError(
                f"`{name}` must be a finite real number; got an integer with "
                f"{len(str(abs(int(value))))} digits (beyond the largest double).") from None
    out = check_scalar(name, value)
    why = f" ({rule})" if rule else ""
    if low is not None and (out < low or (low_open and out == low)):
        span = f"{low:g} {'<' if low_open else '<='} {name}" + (f" <= {high:g}" if high is not None else "")
        raise InvalidParameterError(
            f"`{name}` must satisfy {span}{why}; got {name}={out!r}.")
    if high is not None and out > high:
        span = (f"{low:g} {'<' if low_open else '<='} " if low is not None else "") + f"{name} <= {high:g}"
        raise InvalidParameterError(
            f"`{name}` must satisfy {span}{why}; got {name}={out!r}.")
    return out


def available_memory():
    """Bytes of memory available to a new allocation: ``MemAvailable`` of /proc/meminfo
    (Linux), else free physical pages (``os.sysconf``), else None (unknown)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def check_memory(name, value, nbytes):
    """Refuse (InvalidParameterError naming ``name`` and ``value``) a size whose work needs
    ``nbytes`` bytes, more than half the memory available now."""
    free = available_memory()
    if free is not None and nbytes > free / 2:
        raise InvalidParameterError(
            f"`{name}` must be small enough for this machine's memory; got {name}={_show(value)}, "
            f"which needs about {nbytes / 2**30:.3g} GiB (available: {free / 2**30:.3g} GiB).")
    return value
