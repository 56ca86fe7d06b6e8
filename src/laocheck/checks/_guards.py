"""Calls into a user's code: what it raised, where, and what it must leave untouched.

DESIGN.md "What a verdict means": a user's code is untrusted. Its randomness must come from
the ``rng`` it is given, its inputs stay unchanged, and an exception or ``sys.exit`` inside it
is the status ERROR (never a verdict, its own exit code), reported with the user's file and
line, never with a traceback of laocheck's internals.

* :func:`guard_estimator` wraps a user's estimator (any object with ``sample`` that is not one
  of laocheck's own): each call of its ``sample``, ``target``, ``reference`` and
  ``accumulate`` goes through :meth:`Guard.call`, which snapshots the global states of
  Python's :mod:`random`, of numpy's legacy global generator (``np.random.rand``,
  ``np.random.seed``) and of every generator (``numpy.random.Generator``, ``RandomState``,
  ``BitGenerator``, ``random.Random``) reachable from the estimator's module globals, its
  class and its own attributes, and copies the inputs ``w``, ``x``, ``y``; after the call, a
  changed state or input raises :class:`GuardViolation` (the check's FAIL, with the reason).
  :func:`guard_callable` does the same for a callable claim (a target).
* An exception leaving the user's code is tagged with the call (``sample()``) and re-raised
  unchanged, so that laocheck's documented fallbacks still see it (a sampler failing on
  Fractions is run on floats; a sampler refusing an instance by ``ValueError`` is not run
  there); one that reaches :func:`laocheck.checks.run` is the record's ERROR
  (:func:`user_error`). The exceptions laocheck raises itself inside the call (the choice
  tree's :class:`~laocheck.stats.choice_tree.NotEnumerable`) are not tagged: a bug of
  laocheck stays a bug (a FAIL with its traceback).
* :func:`user_error` also recognises an untagged exception by its traceback: one that passed
  through a frame of the user's code (a file outside laocheck's package, the standard library
  and site-packages: a learner's ``fit``), and a ``SystemExit`` anywhere in a check.

A snapshot of numpy's legacy global state costs about 100 µs, so the global generators are
compared around the first calls of each method (which names it) and over the whole check
(which finds a draw on any call); the inputs and the user's own generators around every call.
``benchmarks/bench_guards.py`` measures the guards' share of ``check_estimator``.
"""

from __future__ import annotations

import os
import random
import sys
import sysconfig
import traceback
import types

import numpy as np

from ..exceptions import LaocheckError

__all__ = ["GuardViolation", "UserCodeError", "guard_estimator", "guard_callable",
           "user_error", "user_location", "is_users"]

#: the attribute an exception leaving a user's code carries: the call it left (``sample()``)
USER_CALL = "_laocheck_user_call"
#: the methods of an estimator the guards wrap
GUARDED_METHODS = ("sample", "target", "reference", "accumulate")
#: calls of each method on which the global generators are compared around the call (then
#: every FULL_EVERY-th call; the whole check is compared too: Guard.begin / Guard.end)
FULL_CALLS = 4
FULL_EVERY = 64

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_LIBRARIES = tuple(sorted({os.path.abspath(p) + os.sep for p in (
    sysconfig.get_paths().get(k) for k in ("stdlib", "platstdlib", "purelib", "platlib"))
    if p}))


class GuardViolation(LaocheckError):
    """A user's code broke the protocol without raising: it drew from a generator other than
    the ``rng`` it was given, or changed its inputs. The check's FAIL, with ``reason``.

    Parameters
    ----------
    reason : str
        What the call did, in one sentence.
    counterexample : dict
        The call and what changed.
    """

    def __init__(self, reason, counterexample):
        super().__init__(reason)
        self.reason = reason
        self.counterexample = counterexample


class UserCodeError(LaocheckError):
    """The user's code raised or exited inside a check: the status ERROR, never a verdict.

    Raised by ``laocheck.testing.check_estimator`` (and the tests of
    ``parametrize_with_checks``) when a record is ERROR; not an ``AssertionError``, so that
    pytest shows an error of the code under test, not a failed claim.

    Parameters
    ----------
    message : str
        The report: each ERROR record with the exception and the user's file and line.
    records : list of CheckRecord
        The ERROR records.
    """

    def __init__(self, message, records=()):
        super().__init__(message)
        self.records = list(records)


def _kind(filename):
    """``"laocheck"``, ``"library"`` (standard library, site-packages, frozen) or ``"user"``."""
    path = os.path.abspath(filename) if not filename.startswith("<") else filename
    if path.startswith(_PACKAGE):
        return "laocheck"
    if filename.startswith("<frozen") or path.startswith(_LIBRARIES) or \
            filename.endswith((".pyx", ".pxd", ".pxi")) or \
            (not filename.startswith("<") and not os.path.exists(path)):
        return "library"              # compiled code (numpy's Cython: a relative .pyx name)
    return "user"


def is_users(obj):
    """True when ``obj`` (a function, a class, an object) is defined outside laocheck's
    package: the user's code, which the guards wrap."""
    func = getattr(obj, "__func__", obj)
    code = getattr(func, "__code__", None)
    if code is not None:
        return _kind(code.co_filename) != "laocheck"
    module = getattr(obj if isinstance(obj, type) else type(obj), "__module__", "") or ""
    return not (module == "laocheck" or module.startswith("laocheck."))


def user_location(exc):
    """``(filename, line, function)`` of the innermost frame of the user's code in the
    traceback of ``exc`` (else the innermost frame outside laocheck's package), or None."""
    frames = traceback.extract_tb(exc.__traceback__)
    kinds = [_kind(f.filename) for f in frames]
    chosen = [f for f, k in zip(frames, kinds) if k == "user"] or \
        [f for f, k in zip(frames, kinds) if k != "laocheck"]
    if not chosen:
        return None
    f = chosen[-1]
    return f.filename, f.lineno, f.name


def _raised_in_laocheck(exc):
    frames = traceback.extract_tb(exc.__traceback__)
    return bool(frames) and _kind(frames[-1].filename) == "laocheck"


def _tag(exc, what):
    """Tag ``exc`` as leaving the user's call ``what``, unless laocheck raised it itself (a
    refusal of the user's arguments, a ValueError, is the user's)."""
    if getattr(exc, USER_CALL, None) is not None or isinstance(exc, GuardViolation):
        return
    if _raised_in_laocheck(exc) and not isinstance(exc, (ValueError, SystemExit)):
        return                                  # laocheck's own (NotEnumerable, a bug)
    try:
        setattr(exc, USER_CALL, what)
    except (AttributeError, TypeError):         # an exception type refusing attributes
        pass


def user_error(exc, check_func=None):
    """The ERROR figures of ``exc`` when it came from the user's code, else None.

    From the user's code: tagged by a guard, a ``SystemExit``, or an exception whose
    traceback passes through a frame of the user's code other than ``check_func`` (the
    check's own function: a check registered outside laocheck that raises is a FAIL with
    its traceback, as laocheck's own).

    Returns
    -------
    dict or None
        ``{"exception": type name, "message": its text (one line), "where": "file:line",
        "function": name, "call": the call it left}``.
    """
    what = getattr(exc, USER_CALL, None)
    where = user_location(exc)
    if what is None and not isinstance(exc, SystemExit):
        code = getattr(getattr(check_func, "__wrapped__", check_func), "__code__", None)
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if code is None or not (
            f.filename == code.co_filename and f.name == code.co_name)]
        if not any(_kind(f.filename) == "user" for f in frames):
            return None
    message = " ".join(str(exc).split())
    if isinstance(exc, SystemExit):
        message = f"sys.exit({exc.code!r})"
    return {"exception": type(exc).__name__, "message": message[:500],
            "where": f"{where[0]}:{where[1]}" if where else "unknown",
            "function": where[2] if where else None, "call": what}


# -- what a call must leave unchanged -------------------------------------------------------
def _fingerprint(state):
    """A comparable form of a generator's state (its arrays as bytes)."""
    if isinstance(state, dict):
        return tuple((k, _fingerprint(v)) for k, v in sorted(state.items()))
    if isinstance(state, (tuple, list)):
        return tuple(_fingerprint(v) for v in state)
    if isinstance(state, np.ndarray):
        return (state.dtype.str, state.shape, state.tobytes())
    return state


def _state(gen):
    if isinstance(gen, np.random.Generator):
        return _fingerprint(gen.bit_generator.state)
    if isinstance(gen, np.random.BitGenerator):
        return _fingerprint(gen.state)
    if isinstance(gen, np.random.RandomState):
        return _fingerprint(gen.get_state(legacy=False))
    return gen.getstate()                       # random.Random


_GENERATOR_TYPES = (np.random.Generator, np.random.BitGenerator, np.random.RandomState,
                    random.Random)
#: the global generators: Python's ``random`` and numpy's legacy ``np.random.*`` functions
_GLOBALS = (("Python's `random` module (random.random(), random.choice(), ...)",
             random.getstate),
            ("numpy's global generator (np.random.rand(), np.random.choice(), ...)",
             lambda: _fingerprint(np.random.get_state(legacy=False))))


def _generators(obj, funcs=()):
    """[(description, generator)] reachable from ``obj``: its module's globals (and those of
    ``funcs``), its class attributes and its own attributes."""
    found, seen = [], set()

    def add(where, name, value):
        if isinstance(value, _GENERATOR_TYPES) and id(value) not in seen and \
                value is not getattr(random, "_inst", None) and \
                value is not np.random.mtrand._rand:
            seen.add(id(value))
            found.append((f"the generator `{name}` of {where}", value))

    spaces = []
    module = getattr(type(obj), "__module__", None) if obj is not None else None
    for func in funcs:
        func = getattr(func, "__func__", func)
        glob = getattr(func, "__globals__", None)
        if isinstance(glob, dict):
            spaces.append((f"module {glob.get('__name__', '?')}", glob))
    if module and module in sys.modules:
        spaces.append((f"module {module}", vars(sys.modules[module])))
    if obj is not None:
        for cls in type(obj).__mro__[:-1]:
            spaces.append((f"class {cls.__name__}", dict(vars(cls))))
        try:
            spaces.append(("the estimator (self)", dict(vars(obj))))
        except TypeError:                       # no __dict__ (slots)
            pass
    for where, space in spaces:
        for name, value in list(space.items()):
            if not isinstance(value, types.ModuleType):
                add(where, name, value)
    return found


def _copy(value):
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, list):
        return list(value)
    return None                                 # immutable (a number, a Fraction): nothing


def _unchanged(before, value):
    if isinstance(value, np.ndarray):
        return value.shape == before.shape and value.dtype == before.dtype and (
            value.tobytes() == before.tobytes() or bool(np.array_equal(value, before)))
    return value == before


def _short(value):
    text = np.array2string(np.asarray(value, dtype=object), threshold=8) \
        if isinstance(value, (np.ndarray, list)) else repr(value)
    return " ".join(text.split())[:200]


class Guard:
    """The checks around each call of one user's object (see the module docstring).

    Per call: the inputs and the generators of the user's module and object, always; the
    global generators (Python's ``random``, numpy's legacy one: a snapshot costs about
    100 µs) on the first :data:`FULL_CALLS` calls of each method and every
    :data:`FULL_EVERY`-th after, and over the whole check (:meth:`begin`, :meth:`end`), so
    that a draw from them anywhere in the check is found and the first calls name the method.

    Parameters
    ----------
    owner : object or None
        The user's object (its module, class and attributes are searched for generators).
    funcs : tuple of callables, default=()
        More user functions whose module globals are searched.
    """

    def __init__(self, owner, funcs=()):
        self.owner = owner
        self.generators = _generators(owner, funcs)
        self.calls = {}
        self.started = None

    def extend(self, func):
        """Search the module globals of ``func`` (a callable claim) too."""
        known = {id(g) for _, g in self.generators}
        self.generators += [(n, g) for n, g in _generators(None, (func,)) if id(g) not in known]

    def begin(self):
        """Snapshot the global generators at the start of a check."""
        self.started = [f() for _, f in _GLOBALS]

    def end(self):
        """Raise :class:`GuardViolation` when a global generator moved since :meth:`begin`."""
        if self.started is None:
            return
        before, self.started = self.started, None
        for (name, f), state in zip(_GLOBALS, before):
            if f() != state:
                called = ", ".join(sorted(self.calls)) or "the estimator's code"
                raise GuardViolation(
                    f"{called} drew from {name} during the check, not from the rng it was "
                    "given: its draws are invisible to the exact checks and not reproducible "
                    "from the seed", {"call": called, "drew_from": name})

    def _violation(self, what, name):
        return GuardViolation(
            f"{what} drew from {name}, not from the rng it was given: its draws are invisible "
            "to the exact checks and not reproducible from the seed",
            {"call": what, "drew_from": name})

    def call(self, what, func, args, kwargs):
        """``func(*args, **kwargs)``, the call ``what`` of the user's code, guarded."""
        count = self.calls.get(what, 0)
        self.calls[what] = count + 1
        full = count < FULL_CALLS or count % FULL_EVERY == 0
        inputs = [(name, value, _copy(value)) for name, value in zip(("w", "x", "y"), args)]
        glob = [f() for _, f in _GLOBALS] if full else None
        own = [_state(g) for _, g in self.generators]
        try:
            out = func(*args, **kwargs)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:            # SystemExit too: never the process's exit
            _tag(exc, what)
            raise
        if glob is not None:
            for (name, f), state in zip(_GLOBALS, glob):
                if f() != state:
                    raise self._violation(what, name)
        for (name, g), state in zip(self.generators, own):
            if _state(g) != state:
                raise self._violation(what, name)
        for name, value, before in inputs:
            if before is not None and not _unchanged(before, value):
                raise GuardViolation(
                    f"{what} changed its input `{name}` in place (before {_short(before)}, "
                    f"after {_short(value)}): the caller's data must stay unchanged",
                    {"call": what, "input": name, "before": _short(before),
                     "after": _short(value)})
        return out


class _GuardedMethod:
    __slots__ = ("guard", "what", "func", "__wrapped__")

    def __init__(self, guard, what, func):
        self.guard, self.what, self.func, self.__wrapped__ = guard, what, func, func

    def __call__(self, *args, **kwargs):
        return self.guard.call(self.what, self.func, args, kwargs)


class GuardedEstimator:
    """A user's estimator with its ``sample``, ``target``, ``reference`` and ``accumulate``
    guarded; every other attribute is the estimator's own (``estimator.params``)."""

    def __init__(self, estimator, guard=None):
        object.__setattr__(self, "_estimator", estimator)
        object.__setattr__(self, "_guard", guard or Guard(estimator))
        object.__setattr__(self, "_methods", {})

    def __getattr__(self, name):
        value = getattr(self._estimator, name)
        if name in GUARDED_METHODS and callable(value):
            if name not in self._methods:
                self._methods[name] = _GuardedMethod(self._guard, f"{name}()", value)
            return self._methods[name]
        return value

    def __repr__(self):
        return repr(self._estimator)


def guard_estimator(estimator):
    """``estimator`` guarded (:class:`GuardedEstimator`) when it is a user's estimator (an
    object with ``sample`` defined outside laocheck); laocheck's own and already guarded ones
    unchanged."""
    if estimator is None or isinstance(estimator, GuardedEstimator) or \
            not callable(getattr(estimator, "sample", None)) or not is_users(estimator.sample):
        return estimator
    return GuardedEstimator(estimator)


def guard_callable(func, what, owner=None):
    """A user's callable claim (a target ``(w, x, y)``) guarded like a method (by the guard
    of ``owner``, a :class:`GuardedEstimator`, when given); laocheck's own callables (a
    spec's target) unchanged."""
    if func is None or isinstance(func, _GuardedMethod) or not is_users(func):
        return func
    if isinstance(owner, GuardedEstimator):
        guard = owner._guard
        guard.extend(func)
    else:
        guard = Guard(owner, (func,))
    return _GuardedMethod(guard, what, func)
