"""The check registry: one registered check per statement of shared/CATALOG.md.

A check is a plain function ``func(ctx) -> Result`` registered with its id (the CATALOG id, one
per part: ``HK12.Lemma3.3.unbiased``), the citation, the literal statement as printed, the
assumptions, the method, its false-failure probability δ and the smallest violation it can
detect. A check of an estimate takes the estimator object of the protocol
(:mod:`laocheck.estimators._protocol`) as a keyword argument, like scikit-learn's estimator
checks, so the same check runs on a user's own estimator::

    >>> from laocheck import lemmas
    >>> check = lemmas.checks("HK12.Lemma3.3.unbiased.exact")[0]      # doctest: +SKIP
    >>> record = lemmas.run(check, seed=0, budget="fast")             # doctest: +SKIP
    >>> record["status"]                                              # doctest: +SKIP
    'PASS'
    >>> mine = check.with_estimator(my_estimator)     # the same check on a user's estimator

Writing a check (another module of ``laocheck.lemmas``, or one of ``_EXTRA_CHECK_MODULES``)::

    from laocheck.lemmas import Result, Status, register

    @register("KS15.LemmaB.4", citation="KS15 Lemma B.4",
              statement="f(max(η1, η2)) <= min(f(η1), f(η2)) for f(η) = a/η + bη",
              assumptions="a, b > 0", method="sympy", delta=0.0, detectable=0.0)
    def check_lemma_b4(ctx):
        ...
        return Result(Status.PASS, {"worst_ratio": 1.0})

Parametrised checks: ``register(..., estimator="HK12.AERR.gradient", params={...})`` binds
the estimator built with ``laocheck.estimators.get(name, **params)`` to the function's
``estimator`` keyword; :meth:`Check.with_estimator` rebinds it to any object implementing the
protocol.

``run(check, seed, budget)`` seeds the check from ``SeedSequence(seed)`` keyed by its id (never
per worker), so the same seed gives the same records for any number of jobs.

A literal statement that is false is registered with ``expected=Status.ERRATUM`` and
``correction=<id of the corrected check>``; the corrected statement is its own check expecting
PASS. The pytest suite asserts ``status == check.expected`` (strict, like scikit-learn's
``xfail_checks``: a literal erratum that starts to pass is reported too).
"""

from __future__ import annotations

import enum
import fnmatch
import hashlib
import importlib
import math
import pkgutil
import time
import traceback
from dataclasses import dataclass, field, replace
from typing import Any, Callable

import numpy as np

from ..exceptions import InvalidParameterError

__all__ = ["Status", "Result", "Context", "Check", "register", "checks", "run", "check_seed",
           "run_on", "BUDGETS", "DEFAULT_DELTA", "ERRATA_FIELDS", "errata"]

#: Default false-failure probability of one statistical check (DESIGN.md, "never flake").
DEFAULT_DELTA = 1e-6
BUDGETS = ("fast", "full")
ERRATA_FIELDS = ("id", "literal", "counterexample", "correction")

#: Modules outside ``laocheck/lemmas/`` holding checks (section-3 and bound-formula checks).
#: A module of this tuple that does not exist yet is skipped; any other import error propagates.
_EXTRA_CHECK_MODULES = ("laocheck.bounds.checks", "laocheck.experiments.checks")
_NOT_CHECK_MODULES = frozenset({"command"})    # and every private module (``_*``)


class Status(str, enum.Enum):
    """The verdict of a check."""

    PASS = "PASS"              # the statement holds (exactly, or at the stated δ)
    FAIL = "FAIL"              # the implementation (or a corrected statement) is refuted
    ERRATUM = "ERRATUM"        # the literal statement as printed is false (counterexample given)
    INCONCLUSIVE = "INCONCLUSIVE"  # the budget cannot decide

    def __str__(self):
        return self.value


@dataclass(frozen=True)
class Result:
    """What a check found.

    ``figures``: the numbers behind the verdict (intervals, n, worst ratio lhs/rhs, exact
    values as strings); ``counterexample``: the smallest counterexample found (dict or text);
    ``correction``: id of the corrected check; ``detectable``: the smallest violation this run
    could detect (number or text); ``note``: a sentence for the report.
    """

    status: Status
    figures: dict = field(default_factory=dict)
    counterexample: Any = None
    correction: str | None = None
    detectable: Any = None
    note: str = ""

    def __post_init__(self):
        object.__setattr__(self, "status", Status(self.status))


@dataclass(frozen=True)
class Context:
    """Passed to every check: its random generator, the budget and its δ."""

    rng: np.random.Generator
    budget: str = "fast"
    delta: float = DEFAULT_DELTA

    def n(self, fast, full):
        """A sample count by budget (the budget changes sample counts, never δ)."""
        return fast if self.budget == "fast" else full

    @property
    def full(self):
        return self.budget == "full"


@dataclass(frozen=True)
class Check:
    """A registered check; call it with a :class:`Context` (``check(ctx) -> Result``)."""

    id: str
    func: Callable
    citation: str
    statement: str
    assumptions: str
    method: str
    delta: float
    detectable: Any
    expected: Status = Status.PASS
    correction: str | None = None
    estimator: Any = None          # estimator name (str), factory, or object; bound to `estimator=`
    params: dict = field(default_factory=dict)
    kwargs: dict = field(default_factory=dict)

    def build_estimator(self):
        est = self.estimator
        if est is None:
            return None
        if isinstance(est, str):
            from .. import estimators
            return estimators.get(est, **self.params)
        if callable(est) and not hasattr(est, "sample"):
            return est()
        return est

    def __call__(self, ctx):
        kwargs = dict(self.kwargs)
        if self.estimator is not None:
            kwargs["estimator"] = self.build_estimator()
        result = self.func(ctx, **kwargs)
        if not isinstance(result, Result):
            raise TypeError(f"check {self.id} returned {type(result).__name__}, not Result")
        return result

    def with_estimator(self, estimator, **params):
        """The same check bound to another estimator (a user's own, or a name with params)."""
        if self.estimator is None:
            raise InvalidParameterError(
                f"`estimator` cannot be rebound: check {self.id!r} does not take an estimator.")
        return replace(self, estimator=estimator, params=params or dict(self.params))

    def describe(self):
        return {"id": self.id, "citation": self.citation, "statement": self.statement,
                "assumptions": self.assumptions, "method": self.method, "delta": self.delta,
                "detectable": self.detectable, "expected": self.expected.value,
                "correction": self.correction}


_CHECKS: dict[str, Check] = {}
_DISCOVERED = False


def register(id, *, citation, statement, assumptions="", method, delta=DEFAULT_DELTA,
             detectable=None, expected=Status.PASS, correction=None, estimator=None,
             params=None, **kwargs):
    """Decorator registering ``func(ctx, **kwargs) -> Result`` as the check ``id``.

    ``estimator`` (a registered estimator name, a factory, or an object) is passed as the
    keyword ``estimator``; ``kwargs`` are bound like ``functools.partial``. The same function
    may be registered under several ids (one per estimator or per part).
    """
    if not isinstance(id, str) or not id:
        raise InvalidParameterError(f"`id` must be a nonempty string; got id={id!r}.")
    if not (isinstance(delta, (int, float)) and 0 <= delta <= 1e-6):
        raise InvalidParameterError(
            f"`delta` must satisfy 0 <= delta <= 1e-6 (DESIGN.md: never flake); got delta={delta!r}.")

    def decorate(func):
        if id in _CHECKS and _CHECKS[id].func is not func:
            raise InvalidParameterError(f"`id` must be unique; a check {id!r} is already registered.")
        _CHECKS[id] = Check(id=id, func=func, citation=citation, statement=statement,
                            assumptions=assumptions, method=method, delta=float(delta),
                            detectable=detectable, expected=Status(expected),
                            correction=correction, estimator=estimator,
                            params=dict(params or {}), kwargs=dict(kwargs))
        return func

    return decorate


def _import_check_modules():
    global _DISCOVERED
    if _DISCOVERED:
        return
    _DISCOVERED = True
    from . import __path__ as lemmas_path
    for info in sorted(pkgutil.iter_modules(lemmas_path), key=lambda i: i.name):
        if not info.name.startswith("_") and info.name not in _NOT_CHECK_MODULES:
            importlib.import_module(f"laocheck.lemmas.{info.name}")
    for name in _EXTRA_CHECK_MODULES:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is None or not name.startswith(exc.name):
                raise


def checks(pattern=None):
    """The registered checks, sorted by id; ``pattern`` is a glob (``"HK12.*"``) or a list."""
    _import_check_modules()
    out = sorted(_CHECKS.values(), key=lambda c: c.id)
    if pattern is None:
        return out
    patterns = [pattern] if isinstance(pattern, str) else list(pattern)
    return [c for c in out if any(fnmatch.fnmatchcase(c.id, p) for p in patterns)]


def get(id):
    """The check ``id``."""
    _import_check_modules()
    try:
        return _CHECKS[id]
    except KeyError:
        raise InvalidParameterError(
            f"`id` must be a registered check (see laocheck.lemmas.checks()); got {id!r}.") from None


def check_seed(seed, id):
    """The SeedSequence of check ``id`` in a run with ``seed``: keyed by the id, so the same
    (seed, id) gives the same stream whatever the worker or the order of execution."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InvalidParameterError(f"`seed` must be an integer >= 0; got seed={seed!r}.")
    digest = hashlib.sha256(id.encode("utf-8")).digest()
    key = [int.from_bytes(digest[i:i + 4], "little") for i in range(0, 16, 4)]
    return np.random.SeedSequence(int(seed), spawn_key=tuple(key))


def _jsonable(value):
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return _jsonable(value.tolist())
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating, float)):
        v = float(value)
        return v if math.isfinite(v) else str(v)
    if isinstance(value, (np.bool_, bool)):
        return bool(value)
    if value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, enum.Enum):
        return value.value
    return str(value)


def run(check, seed=0, budget="fast", *, catch=True):
    """Run one check; return its record (a JSON-ready dict).

    Keys: id, status, expected, citation, statement, assumptions, method, delta, detectable,
    figures, counterexample, correction, note, seconds, seed. With ``catch`` (the default) an
    exception inside the check is a FAIL whose note holds the traceback.
    """
    if isinstance(check, str):
        check = get(check)
    if budget not in BUDGETS:
        raise InvalidParameterError(f"`budget` must be one of {BUDGETS}; got budget={budget!r}.")
    ctx = Context(rng=np.random.default_rng(check_seed(seed, check.id)), budget=budget,
                  delta=check.delta)
    start = time.perf_counter()
    try:
        result = check(ctx)
    except Exception:
        if not catch:
            raise
        result = Result(Status.FAIL, {}, note="error: " + traceback.format_exc(limit=6))
    seconds = time.perf_counter() - start
    record = check.describe()
    record.update({
        "status": result.status.value, "figures": _jsonable(result.figures),
        "counterexample": _jsonable(result.counterexample),
        "correction": result.correction or check.correction,
        "detectable": _jsonable(result.detectable if result.detectable is not None
                                else check.detectable),
        "note": result.note, "seconds": round(seconds, 4), "seed": int(seed), "budget": budget,
    })
    return record


def run_on(estimator, pattern=None, *, seed=0, budget="fast", **params):
    """``check_estimator``-style: every check taking an estimator, rebound to ``estimator``
    (a user's object, or a registered name with ``params``); one record per check."""
    out = []
    for check in checks(pattern):
        if check.estimator is None:
            continue
        out.append(run(check.with_estimator(estimator, **params), seed, budget))
    return out


def errata(records):
    """The errata table rows (id, literal, counterexample, correction) of a run's records."""
    rows = []
    for r in records:
        if r["status"] == Status.ERRATUM.value:
            rows.append({"id": r["id"], "literal": r["statement"],
                         "counterexample": r["counterexample"], "correction": r["correction"]})
    return rows
