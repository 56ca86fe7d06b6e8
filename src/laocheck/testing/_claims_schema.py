"""The values of a claims dict checked as data: types, integer counts, and the work they imply.

:func:`check_estimator` and :func:`check_learner` take claims as a Python dict (or, through
``laocheck check --claims``, a JSON object). Before any claim is resolved, the values that are
plain data are checked here, each refusal one
:class:`~laocheck.exceptions.InvalidParameterError` line naming the claim, the value and the
rule (never a raw ``ValueError`` or ``TypeError`` from deep inside):

* counts are integers: ``budget``, ``k``, ``d``, ``m``, ``R`` (and their pairs); ``1.9``,
  ``True`` and ``"3"`` are refused, never truncated;
* flags are booleans, choices one of their strings, ``B`` and ``params`` finite reals;
* the sizes and the work a learner's claims imply are capped as a report spec's are
  (:data:`MAX_D`, :data:`MAX_M`, :data:`MAX_R`, R·m·d <= :data:`MAX_WORK`), so no claim can
  make a check run for days or grow memory without end;
* a number beyond the doubles is kept exact where the check compares exactly, and otherwise
  saturated where that cannot change a verdict (a clipping threshold of ``10**400`` is the
  largest double: every finite double is within both).

Unknown keys are refused by the callers with the list of known ones.
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction
from numbers import Integral, Real

import numpy as np

from ..exceptions import InvalidParameterError

__all__ = ["check_estimator_claim_values", "check_learner_claim_values", "MAX_D", "MAX_M",
           "MAX_R", "MAX_WORK", "MAX_BUDGET"]

#: Largest d (as a report spec's ``d``, ``laocheck bounds --d``).
MAX_D = 10**6
#: Largest m, examples per run (as a report spec's).
MAX_M = 10**9
#: Largest R, runs (as a report spec's).
MAX_R = 10**5
#: Largest R·m·d, the entries drawn by the excess-risk check at the full profile (as a report
#: spec's, per theorem).
MAX_WORK = 10**11
#: Largest attribute budget (a count of attributes: at most d, at most 2^63 as JSON's).
MAX_BUDGET = 2**63


def _show(value, limit=60):
    text = repr(value).replace("\n", "\\n")
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _bad(name, rule, value):
    raise InvalidParameterError(f"`claims[{name!r}]` must {rule}; got {_show(value)}.")


def _is_int(value):
    return isinstance(value, (Integral, np.integer)) and not isinstance(value, (bool, np.bool_))


def _count(name, value, low, high):
    """An integer count in [low, high] (never a float, bool or string: 1.9 is not truncated)."""
    if not _is_int(value) or not low <= value <= high:
        _bad(name, f"be an integer >= {low} and <= {high}", value)
    return int(value)


def _pair(name, value, high):
    """An int or a pair (fast, full) of ints in [1, high]."""
    if isinstance(value, (tuple, list)):
        if len(value) != 2 or not all(_is_int(v) and 1 <= v <= high for v in value):
            _bad(name, f"be an integer in [1, {high}] or a pair (fast, full) of them", value)
        return tuple(int(v) for v in value)
    _count(name, value, 1, high)
    return (int(value), int(value))


def _real(name, value, *, positive=False):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (Real, np.floating,
                                                                     np.integer)):
        _bad(name, "be a finite number" + (" > 0" if positive else ""), value)
    try:
        v = float(value)
    except OverflowError:                       # an integer beyond the doubles
        v = math.inf if value > 0 else -math.inf
    if not math.isfinite(v) or (positive and not v > 0):
        _bad(name, "be a finite number" + (" > 0" if positive else ""), value)
    return value


def _flag(name, value, *, none=False):
    if not (isinstance(value, (bool, np.bool_)) or (none and value is None)):
        _bad(name, "be true or false" + (" (or None)" if none else ""), value)


def _choice(name, value, allowed):
    if not isinstance(value, str) or value not in allowed:
        _bad(name, f"be one of {list(allowed)}", value)


def _params(value):
    if not isinstance(value, dict):
        _bad("params", "be a dict of names to finite numbers", value)
    for key, v in value.items():
        if not isinstance(key, str) or not key:
            _bad("params", "have names (strings) as keys", key)
        if not callable(v):                 # a callable parameter is the caller's own code
            _real(f"params.{key}", v)


def check_estimator_claim_values(claims):
    """The claims dict of an estimator with its data values checked (a new dict).

    Parameters
    ----------
    claims : dict
        As :func:`laocheck.testing.check_estimator` takes them; keys are not checked here.

    Returns
    -------
    dict
        The same claims; a ``clipping`` beyond the doubles as the largest double.

    Raises
    ------
    InvalidParameterError
        One line naming the first claim whose value has the wrong type or range.
    """
    out = dict(claims)
    if out.get("budget") is not None:
        _count("budget", out["budget"], 0, MAX_BUDGET)
    if out.get("k") is not None:
        _count("k", out["k"], 1, MAX_D)
    for name in ("finite_support",):
        if name in out:
            _flag(name, out[name])
    if out.get("budget_kind") is not None:
        _choice("budget_kind", out["budget_kind"], ("exact", "expectation"))
    if out.get("scaling") is not None:
        _choice("scaling", out["scaling"], ("degree0", "degree1", "last_row"))
    clip = out.get("clipping")
    if clip is not None:
        if _is_int(clip) or isinstance(clip, Fraction):
            if clip > 0 and clip > sys.float_info.max:
                # every double is within 10**400 as within the largest double: same verdict
                out["clipping"] = sys.float_info.max
            else:
                _real("clipping", clip, positive=True)
        else:
            _real("clipping", clip, positive=True)
    span = out.get("range")
    if span is not None:
        if not isinstance(span, (list, tuple, np.ndarray)) or len(span) != 2:
            _bad("range", "be [low, high] with finite low < high", span)
        for v in span:
            _real("range", v)
    if out.get("params") is not None:
        _params(out["params"])
    q = out.get("q")
    if q is not None:
        if isinstance(q, (str, bytes, dict)) or not hasattr(q, "__len__") or \
                not 1 <= len(q) <= MAX_D:
            _bad("q", f"be a probability vector of 1 to {MAX_D} entries", q)
        for v in q:
            if isinstance(v, (bool, np.bool_)) or not isinstance(
                    v, (Real, np.floating, np.integer)):
                _bad("q", "be a probability vector (numbers)", q)
    for name in ("second_moment", "second_moment_inf"):
        value = out.get(name)
        if isinstance(value, (bool, np.bool_)):
            _bad(name, "be a number, a callable or a formula id", value)
        if isinstance(value, float) and not value >= 0:
            _bad(name, "be a number >= 0 (or inf), a callable or a formula id", value)
    return out


def check_learner_claim_values(claims):
    """The claims dict of a learner with its data values checked (a new dict).

    Parameters
    ----------
    claims : dict
        As :func:`laocheck.testing.check_learner` takes them; keys are not checked here.

    Returns
    -------
    dict
        The same claims, ``m`` and ``R`` given as lists turned into pairs.

    Raises
    ------
    InvalidParameterError
        One line naming the first claim whose value has the wrong type or range, or the sizes
        whose work R·m·d exceeds :data:`MAX_WORK`.
    """
    out = dict(claims)
    if out.get("budget") is not None and out["budget"] is not False:   # False: not checked
        _count("budget", out["budget"], 0, MAX_BUDGET)
    if out.get("k") is not None:
        _count("k", out["k"], 1, MAX_D)
    if out.get("d") is not None:
        _count("d", out["d"], 2, MAX_D)
    for name, high in (("m", MAX_M), ("R", MAX_R)):
        if out.get(name) is not None:
            pair = _pair(name, out[name], high)
            out[name] = pair if isinstance(out[name], (list, tuple)) else out[name]
    if out.get("B") is not None:
        _real("B", out["B"], positive=True)
    for name in ("deterministic", "sklearn"):
        if name in out:
            _flag(name, out[name])
    if "randomized" in out:
        _flag("randomized", out["randomized"], none=True)
    if out.get("constraint") not in (None, False):
        _choice("constraint", out["constraint"], ("l2", "l1"))
    if out.get("geometry") is not None:
        _choice("geometry", out["geometry"], ("l2", "l1"))
    if out.get("budget_kind") is not None:
        _choice("budget_kind", out["budget_kind"], ("exact", "expectation"))
    if out.get("loss") is not None:
        _choice("loss", out["loss"], ("half", "squared"))
    if out.get("params") is not None:
        _params(out["params"])
    for name in ("bound", "step_size"):
        value = out.get(name)
        if isinstance(value, (bool, np.bool_)):
            _bad(name, "be a formula id, a user bound, a sympy expression, a number or a "
                 "callable", value)
        if not isinstance(value, (Real, np.floating, np.integer)) or \
                type(value).__module__.startswith("sympy"):
            continue                    # an id, a formula, an expression, a callable: as is
        # start-up: sympy loads only for a numeric bound (laocheck list reads claims)
        import sympy as sp
        # a number as an exact sympy number: 10**400 stays 10**400 (evaluated exactly)
        if _is_int(value):
            out[name] = sp.Integer(int(value))
        elif isinstance(value, Fraction):
            out[name] = sp.Rational(value.numerator, value.denominator)
        else:
            out[name] = sp.Float(float(_real(name, value)))
    k = out.get("k")
    d = out.get("d", max(8, 2 * k) if _is_int(k) else 8)
    m = max(_pair("m", out.get("m") or (200, 2000), MAX_M))
    R = max(_pair("R", out.get("R") or (20, 100), MAX_R))
    if d > MAX_D:
        _bad("k", f"leave d = max(8, 2k) <= {MAX_D}", k)
    if R * m * d > MAX_WORK:
        raise InvalidParameterError(
            f"`claims['R']`, `claims['m']` and `claims['d']` must satisfy R·m·d <= "
            f"{MAX_WORK:.0e} (the entries the excess-risk check draws at the full profile, as a "
            f"report spec's); got R={R}, m={m}, d={d}.")
    return out
