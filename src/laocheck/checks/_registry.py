"""The check registry: one registered check per statement of CB11, HK12 and KS15.

A check is a plain function ``func(ctx) -> Result`` registered with its id, the citation, the
literal statement as printed, the assumptions, the method, its false-failure probability δ and
the smallest violation it can detect. A check of an estimate takes the estimator object of the
protocol (:mod:`laocheck.estimators`) as a keyword argument, like scikit-learn's estimator
checks, so the same check runs on a user's own estimator::

    >>> from laocheck import checks
    >>> check = checks.get("HK12.Lemma3.3.unbiased")
    >>> record = checks.run(check, seed=0, effort="fast")
    >>> record.status
    'PASS'

Ids
---
* a statement of a paper: ``<PAPER>.<Label>[.<part>]`` — the paper's short name and its own
  label (``HK12.Lemma3.3.eq9``, ``KS15.Thm4.7.constant61``, ``CB11.Lemma8.expectation``);
  a corrected reading of an erratum adds ``_corrected`` (or names the proof's version:
  ``HK12.Thm3.4.eta_proof``); an empirical check of a theorem ends in ``.empirical``;
* a property of an algorithm: ``<PAPER>.<Algo>[.<estimate>].<property>`` — the estimator
  properties ``HK12.AERR.gradient.unbiased.exact``, ``KS15.DDAELR.residual.budget``, the
  learners' ``HK12.AERR.budget``; properties of all three papers at once use ``LAO`` as the
  paper (``LAO.Bounds.scaling``).

Writing a check: a module of :data:`CHECK_MODULES` (the list is explicit; a module that fails to
import makes the catalog raise with the module's name)::

    from laocheck.checks import Result, Status, register

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

``run(check, seed, effort)`` seeds the check from ``SeedSequence(seed)`` with a spawn key
derived from its id (never per worker), so the same seed gives the same records for any number
of jobs; the record keeps the entropy and the spawn key, so one check can be rerun alone.

A literal statement that is false is registered with ``expected=Status.ERRATUM`` and
``correction=<id of the corrected check>``; the corrected statement is its own check expecting
PASS. The test suite asserts ``status == check.expected`` (strict, like scikit-learn's
``xfail_checks``: a literal erratum that starts to pass is reported too).
"""

from __future__ import annotations

import enum
import fnmatch
import hashlib
import importlib
import math
import time
import traceback
import warnings
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Callable

import numpy as np
from threadpoolctl import threadpool_limits

from .. import estimators
from ..effort import CHECK_TIERS, NOVALUE, Effort, deprecated, resolve
from .._files import AnyJSON, Int, List, Null, Obj, OneOf, Real, Str, validate
from ..exceptions import InvalidParameterError
from ..stats import DEFAULT_DELTA
from ._counterexamples import COUNTEREXAMPLE_SCHEMA, complete_instance
from ._guards import GuardViolation, user_error

__all__ = ["Status", "Result", "Context", "Check", "CheckRecord", "register", "checks", "get",
           "run", "check_seed", "run_on", "CHECK_TIERS", "DEFAULT_DELTA", "ERRATA_FIELDS", "errata",
           "CHECK_MODULES", "CatalogImportError"]

ERRATA_FIELDS = ("id", "literal", "counterexample", "correction")

#: Every module of ``laocheck.checks`` that registers checks, imported in this order on first use
#: of the catalog. The list is total: a test asserts it names every public module of the package
#: and of its subpackages. The content has one axis, read from a check's id
#: (``tests/checks/test_layout.py``): ``<paper>/`` (``cb11``, ``hk12``, ``ks15``) holds the
#: statements of that paper, one module per kind (statements, proofs, ...); ``algorithms/`` the
#: properties of the estimators and learners (``<PAPER>.<Algo>.*``, drawn from their specs);
#: ``lao/`` the statements about all three papers (``LAO.*``). The engine (``_*.py``) stays here.
CHECK_MODULES = (
    # each paper's statements, by kind: the statements (lemmas, theorems, equations), the steps
    # of the proofs, the displayed proof lines with instance-dependent truth, the algorithm
    # boxes line by line, the constants of the text, the formulas of laocheck.bounds and the
    # tables, the bounds against empirical runs, the formulas derived from the proofs
    *(f"laocheck.checks.{paper}.{kind}" for paper in ("cb11", "hk12", "ks15")
      for kind in ("statements", "proofs", "proof_lines", "boxes", "text_constants", "formulas",
                   "empirical", "derivations")),
    "laocheck.checks.cb11.empirical_baseline",     # CB11 Thm 6 against its Baseline's runs
    # the statements about all three papers (LAO.*)
    "laocheck.checks.lao.formulas", "laocheck.checks.lao.empirical",
    "laocheck.checks.lao.derivations",
    "laocheck.checks.lao.boxes",      # the full-information baselines of the experiments
    # the algorithms' properties, drawn from the estimators' and learners' specs
    "laocheck.checks.algorithms.estimator_properties",  # unbiasedness, budget, kernel = reference
    "laocheck.checks.algorithms.estimator_families",  # each spec's own declarations (examples, k)
    "laocheck.checks.algorithms.learner_records",   # each learner's checks, from its record
    "laocheck.checks.algorithms.learner_samplers",  # the learners' samplers (records register)
    "laocheck.checks.algorithms.learner_properties",  # check_learner's engine (registers nothing)
    "laocheck.checks.algorithms.learner_settings",  # eta="theory", q, w_1 (records register)
)


class CatalogImportError(ImportError):
    """A check module failed to import: the catalog would be partial, so it is not built."""


class Status(str, enum.Enum):
    """The verdict of a check (a ``str`` enum: ``Status.PASS == "PASS"``).

    Attributes
    ----------
    PASS : str
        The statement holds (exactly, or at the stated δ).
    FAIL : str
        The implementation (or a corrected statement) is refuted.
    ERRATUM : str
        The literal statement as printed is false (counterexample given).
    INCONCLUSIVE : str
        The run's sample sizes cannot decide.
    READING : str
        False only as one text extraction reads it; the typeset text reads otherwise (an
        extraction artefact, never counted as an erratum); or a formula not derivable from
        what the paper displays, the missing step named (never a PASS).
    ERROR : str
        The user's code raised or exited (``sys.exit``) inside the check: never a verdict.
        The figures name the exception, its message and the user's file and line.
    """

    PASS = "PASS"              # the statement holds (exactly, or at the stated δ)
    FAIL = "FAIL"              # the implementation (or a corrected statement) is refuted
    ERRATUM = "ERRATUM"        # the literal statement as printed is false (counterexample given)
    INCONCLUSIVE = "INCONCLUSIVE"  # the sample sizes cannot decide
    READING = "READING"        # false only as one text extraction reads it; the typeset text reads
    #                            otherwise (an extraction artefact, never counted as an erratum)
    ERROR = "ERROR"            # the user's code raised or exited; never a verdict

    def __str__(self):
        return self.value


@dataclass(frozen=True)
class Result:
    """What a check found.

    Parameters
    ----------
    status : Status
        The verdict.
    figures : dict, optional
        The numbers behind the verdict (intervals, n, worst ratio lhs/rhs, exact values as
        strings).
    counterexample : object, default=None
        The smallest counterexample found (dict or text).
    correction : str or None, default=None
        The id of the corrected check.
    detectable : object, default=None
        The smallest violation this run could detect (number or text).
    note : str, default=''
        A sentence for the report.
    detects : float or None, default=None
        The power of the run as one factor F >= 1 (issue "every PASS is evidence"): a
        statement whose true value is F times its stated side (a bound F times too small, a
        ratio off by F) would have been refuted with probability >= 0.9 at this run's sample
        sizes; a smaller discrepancy may PASS. 1.0 for an exact check (any discrepancy is
        found); None where no factor applies (a structural or text check).

        The rule (set by the check, never filled in by :func:`run`): a statistical check sets
        F at its power 0.9, from its design (the verdict helpers of ``checks._common`` do it
        for their mechanism: a mean, a category's probability, a failure probability or the
        bound of a coverage check, a mean under a bound); an exact comparison of a number
        with a number (an enumerated mean against its target, a worst ratio lhs/rhs against
        1, a count against a budget, two exact distributions) sets 1 + its relative rounding
        tolerance (the proof-step checks, whose sympy identities are of number-valued
        formulas, all do: ``checks._proofs.ProofResult``); a comparison of texts, structures
        or sets keeps None.
        Where a check compares several quantities (coordinates, categories, settings), F is
        for the same factor applied to all of them: the smallest over the comparisons.
    """

    status: Status
    figures: dict = field(default_factory=dict)
    counterexample: Any = None
    correction: str | None = None
    detectable: Any = None
    note: str = ""
    detects: float | None = None

    def __post_init__(self):
        object.__setattr__(self, "status", Status(self.status))
        if self.detects is not None:
            value = float(self.detects)
            if not value >= 1.0:                # NaN included
                raise InvalidParameterError(
                    f"`detects` must be a factor >= 1 (or None); got detects={self.detects!r}.")
            object.__setattr__(self, "detects", value)


@dataclass(frozen=True, init=False)
class Context:
    """Passed to every check: its random generator, the effort profile and its δ.

    :meth:`spawn` gives independent child SeedSequences of the check's for runs that seed their
    own generators (replicates, workers).

    Parameters
    ----------
    rng : np.random.Generator
        The generator drawing from the check's SeedSequence.
    effort : Effort or str, default='fast'
        The run's effort profile (:mod:`laocheck.effort`), or its registered name: its
        ``checks`` says which of a check's two sample counts runs (:meth:`n`).
    delta : float, default=1e-06
        The false-failure probability of the check.
    seed_sequence : np.random.SeedSequence or None, default=None
        The check's SeedSequence (:func:`check_seed`), the parent of :meth:`spawn`.
    budget : str, optional
        Deprecated spelling of ``effort`` (a :class:`DeprecationWarning`).
    """

    rng: np.random.Generator
    effort: Effort
    delta: float
    seed_sequence: np.random.SeedSequence | None

    def __init__(self, rng, effort="fast", delta=DEFAULT_DELTA, seed_sequence=None, *,
                 budget=NOVALUE):
        object.__setattr__(self, "rng", rng)
        object.__setattr__(self, "effort", resolve(effort, budget=budget))
        object.__setattr__(self, "delta", delta)
        object.__setattr__(self, "seed_sequence", seed_sequence)

    @property
    def budget(self):
        """Deprecated: the effort profile's check tier (``ctx.effort.checks``); use
        ``ctx.effort``."""
        warnings.warn(deprecated("ctx.budget", "ctx.effort"), DeprecationWarning, stacklevel=2)
        return self.effort.checks

    def spawn(self):
        """A new child SeedSequence of the check's own (the i-th call gives spawn key + (i,))."""
        if self.seed_sequence is None:
            raise InvalidParameterError("`seed_sequence` is not set: this context cannot spawn.")
        return self.seed_sequence.spawn(1)[0]

    def n(self, fast, full):
        """A sample count by the effort profile (it changes sample counts, never δ)."""
        return self.effort.n(fast, full)

    @property
    def full(self):
        """Whether the profile runs the checks' full sample counts."""
        return self.effort.full


@dataclass(frozen=True)
class Check:
    """A registered check; call it with a :class:`Context` (``check(ctx) -> Result``).

    Made by :func:`register`; :func:`run` runs one and returns its :class:`CheckRecord`.

    Parameters
    ----------
    id : str
        The check's id, ``<paper>.<label>[.<part>]`` (``"HK12.Lemma3.3"``).
    func : callable
        ``func(ctx, **kwargs) -> Result``, the check itself.
    citation : str
        The paper and label of the statement (``"HK12 Lemma 3.3"``).
    statement : str
        The statement checked, as the paper prints it (or as corrected).
    assumptions : str
        The assumptions under which it is claimed.
    method : str
        How it is checked (exact enumeration, a test at δ, ...).
    delta : float
        The false-failure probability, <= 1e-6 (0 for an exact check).
    detectable : object
        The smallest violation the check can detect (number or text).
    expected : Status, default=Status.PASS
        The status expected at seed 0 (ERRATUM for a misprinted statement).
    correction : str or None, default=None
        The id of the check of the corrected statement, for an erratum.
    estimator : object, default=None
        A registered estimator name, a factory or an object, passed as the keyword
        ``estimator``.
    params : dict, optional
        The parameters the estimator is built with.
    kwargs : dict, optional
        More keywords bound to ``func``, as ``functools.partial``.
    """

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
        """The same check bound to another estimator (a user's own object, or a registered
        name with params)."""
        if self.estimator is None:
            raise InvalidParameterError(
                f"`estimator` cannot be rebound: check {self.id!r} does not take an estimator.")
        if isinstance(estimator, type):
            raise InvalidParameterError(
                f"`estimator` must be an estimator object, not the class {estimator.__name__}: "
                f"pass {estimator.__name__}(...) with its parameters.")
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

    The same function may be registered under several ids (one per estimator or per part).

    Parameters
    ----------
    id : str
        The check's id, ``<paper>.<label>[.<part>]``, unique.
    citation : str
        The paper and label (``"HK12 Lemma 3.3"``).
    statement : str
        The statement checked.
    assumptions : str, default=""
        The assumptions under which it is claimed.
    method : str
        How it is checked.
    delta : float, default=1e-6
        The false-failure probability, 0 <= delta <= 1e-6.
    detectable : object, optional
        The smallest violation the check can detect.
    expected : Status, default=Status.PASS
        The status expected at seed 0.
    correction : str or None, default=None
        The id of the check of the corrected statement.
    estimator : str, callable, object or None, default=None
        A registered estimator name, a factory, or an object, passed as the keyword
        ``estimator``.
    params : dict or None, default=None
        The parameters the estimator is built with.
    **kwargs
        Bound to ``func`` like ``functools.partial``.

    Returns
    -------
    callable
        The decorator (it returns ``func`` unchanged).

    Raises
    ------
    ValueError
        If ``id`` is empty or already registered for another function, or ``delta`` is out of
        range.
    """
    if not isinstance(id, str) or not id:
        raise InvalidParameterError(f"`id` must be a nonempty string; got id={id!r}.")
    if not (isinstance(delta, (int, float)) and 0 <= delta <= 1e-6):
        raise InvalidParameterError(
            f"`delta` must satisfy 0 <= delta <= 1e-6 (a check must never flake); got delta={delta!r}.")

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
    """Import every module of :data:`CHECK_MODULES` (once); any failure raises
    :class:`CatalogImportError` naming the module, never a silently partial catalog."""
    global _DISCOVERED
    if _DISCOVERED:
        return
    for name in CHECK_MODULES:
        try:
            importlib.import_module(name)
        except Exception as exc:
            raise CatalogImportError(
                f"the check catalog is incomplete: module {name} failed to import "
                f"({type(exc).__name__}: {exc})", name=name) from exc
    _DISCOVERED = True


def checks(pattern=None):
    """The registered checks, sorted by id.

    Parameters
    ----------
    pattern : str, list of str or None, default=None
        A glob (``"HK12.*"``) or a list of globs, matched case-insensitively; None: all.

    Returns
    -------
    list of Check
        The checks matching any glob.

    Raises
    ------
    ValueError
        If a glob matches no check (a typo never selects nothing), or a pattern is not a string.
    CatalogImportError
        If a check module fails to import (the catalog would be partial).
    """
    _import_check_modules()
    out = sorted(_CHECKS.values(), key=lambda c: c.id)
    if pattern is None:
        return out
    patterns = [pattern] if isinstance(pattern, str) else list(pattern)
    for p in patterns:
        if not isinstance(p, str):
            raise InvalidParameterError(
                f"`pattern` must be a glob string or a list of them; got {p!r}.")
    lowered = [(c, c.id.lower()) for c in out]
    for p in patterns:
        if not any(fnmatch.fnmatchcase(low, p.lower()) for _, low in lowered):
            raise InvalidParameterError(
                f"`pattern` {p!r} matches no check (matching is case-insensitive; "
                "`laocheck list --checks` lists the ids).")
    return [c for c, low in lowered if any(fnmatch.fnmatchcase(low, p.lower())
                                          for p in patterns)]


def get(id):
    """The check ``id``.

    Parameters
    ----------
    id : str
        A registered check's id (``"HK12.Lemma3.3"``).

    Returns
    -------
    Check
        The registered check.

    Raises
    ------
    ValueError
        If no check has that id.
    """
    _import_check_modules()
    try:
        return _CHECKS[id]
    except KeyError:
        raise InvalidParameterError(
            f"`id` must be a registered check (see laocheck.checks.checks()); got {id!r}.") from None


def check_seed(seed, id):
    """The SeedSequence of check ``id`` in a run with ``seed``.

    ``SeedSequence(seed)`` with a spawn key derived from the id (SHA-256), so the same (seed, id)
    gives the same stream whatever the worker or the order of execution.

    Parameters
    ----------
    seed : int
        The seed of the run, >= 0.
    id : str
        The check's id.

    Returns
    -------
    numpy.random.SeedSequence
        The check's seed sequence.

    Raises
    ------
    ValueError
        If ``seed`` is not an integer >= 0.
    """
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


@dataclass(frozen=True)
class CheckRecord:
    """The outcome of one run of one check: what was checked, the verdict and the figures.

    ``entropy`` and ``spawn_key`` are the check's :class:`numpy.random.SeedSequence`
    (``SeedSequence(entropy, spawn_key=spawn_key)`` reruns it alone). :meth:`to_dict` is the
    form ``laocheck verify --json`` writes.

    Parameters
    ----------
    id : str
        The check's id, ``<paper>.<label>[.<part>]`` (``"HK12.Lemma3.3"``).
    status : str
        The verdict, a string of :class:`Status`.
    expected : str
        The expected verdict, a string of :class:`Status`.
    citation : str
        The paper and label of the statement (``"HK12 Lemma 3.3"``).
    statement : str
        The statement checked, as the paper prints it (or as corrected).
    assumptions : str
        The assumptions under which it is claimed.
    method : str
        How it is checked (exact enumeration, a test at δ, ...).
    delta : float
        The false-failure probability, <= 1e-6 (0 for an exact check).
    detectable : object
        The smallest violation this run could detect (JSON-ready).
    figures : dict
        The numbers behind the verdict (JSON-ready).
    counterexample : object
        The smallest counterexample found, or None (JSON-ready).
    correction : str or None
        The id of the check of the corrected statement, for an erratum.
    note : str
        A sentence for the report (a traceback for a check that raised).
    seconds : float
        The run time (wall clock).
    seed : int
        The seed of the run.
    effort : str
        The name of the run's effort profile (:mod:`laocheck.effort`).
    entropy : int
        The entropy of the check's SeedSequence.
    spawn_key : tuple
        The spawn key of the check's SeedSequence (:func:`check_seed`).
    cpu_seconds : float or None, default=None
        The CPU time of the process while the check ran (``time.process_time``; None in a
        record written before it was kept).
    detects : float or None, default=None
        The run's power as a factor (:class:`Result`'s ``detects``): a discrepancy of this
        factor is found with probability >= 0.9; None where no factor applies or in a record
        written before it was kept.
    """

    id: str
    status: str
    expected: str
    citation: str
    statement: str
    assumptions: str
    method: str
    delta: float
    detectable: Any
    figures: dict
    counterexample: Any
    correction: str | None
    note: str
    seconds: float
    seed: int
    effort: str
    entropy: int
    spawn_key: tuple
    cpu_seconds: float | None = None
    detects: float | None = None

    def to_dict(self):
        """A JSON-ready dict of every field (``spawn_key`` as a list)."""
        out = asdict(self)
        out["spawn_key"] = list(self.spawn_key)
        return out

    @classmethod
    def from_dict(cls, doc, where="check record"):
        """The record of :meth:`to_dict`'s output (for example one entry of a verify JSON),
        validated against ``RECORD_SCHEMA`` (a status outside :class:`Status` is refused);
        ``where`` names the source in the error (InvalidParameterError)."""
        if isinstance(doc, dict) and "budget" in doc and "effort" not in doc:
            doc = {("effort" if k == "budget" else k): v for k, v in doc.items()}  # before 0.1
        validate(doc, RECORD_SCHEMA, where)
        names = {f.name for f in fields(cls)}
        values = {k: doc[k] for k in names if k in doc}
        values["spawn_key"] = tuple(values["spawn_key"])
        # a file written before counterexamples carried their instance's values gets them here
        values["counterexample"] = complete_instance(values.get("counterexample"))
        return cls(**values)

    @property
    def passed(self):
        """True when the status is the one the check declares (PASS, or ERRATUM for a literal
        statement known to be false)."""
        return self.status == self.expected


_TEXT = Str(100_000)
_STATUS = Str(choices=tuple(s.value for s in Status))
#: a check record as files hold it (``verify --json``, its results log): every field with its
#: type and range, the statuses from the closed set of :class:`Status`
RECORD_SCHEMA = Obj(required={
    "id": Str(300, pattern=r"[^\x00-\x1f\x7f]+", what="be a one-line check id of at most 300 "
              "characters"),
    "status": _STATUS, "expected": _STATUS,
    "citation": _TEXT, "statement": _TEXT, "assumptions": _TEXT, "method": Str(1000),
    "delta": Real(0, 1), "detectable": AnyJSON(), "figures": Obj(),
    "counterexample": COUNTEREXAMPLE_SCHEMA,
    "correction": OneOf(Null(), Str(300)), "note": Str(1_000_000),
    "seconds": Real(0), "seed": Int(0, 2**128),
    "effort": Str(50, pattern=r"[A-Za-z0-9_-]+", what="be a profile name"),
    "entropy": Int(0, 2**256), "spawn_key": List(Int(0, 2**64), max_len=64)},
    optional={"cpu_seconds": OneOf(Null(), Real(0)), "detects": OneOf(Null(), Real(1))})


def run(check, seed=0, effort="fast", *, catch=True, budget=NOVALUE):
    """Run one check; return its :class:`CheckRecord`.

    Parameters
    ----------
    check : Check
        The check.
    seed : int, default=0
        The seed of the run; the check's stream is :func:`check_seed` (seed, id).
    effort : Effort or str, default="fast"
        The effort profile (:mod:`laocheck.effort`) or its registered name: the sample sizes
        of statistical checks.
    catch : bool, default=True
        Whether an exception of laocheck's own inside the check is a FAIL whose note holds the
        traceback (else it propagates). An exception or ``sys.exit`` of the user's code is
        always the record's ERROR (the exception, its message, the user's file and line; see
        ``laocheck.checks._guards``); a user's sampler that draws from another generator than
        its ``rng``, or changes its inputs, is a FAIL with the reason.
    budget : str, optional
        Deprecated spelling of ``effort`` (a :class:`DeprecationWarning`).

    Returns
    -------
    CheckRecord
        The record of the run.

    Raises
    ------
    ValueError
        If ``effort`` or ``seed`` is invalid.
    """
    if isinstance(check, str):
        check = get(check)
    effort = resolve(effort, budget=budget)
    seq = check_seed(seed, check.id)
    ctx = Context(rng=np.random.default_rng(seq), effort=effort, delta=check.delta,
                  seed_sequence=seq)
    start, cpu = time.perf_counter(), time.process_time()
    try:
        # one BLAS thread, as in a joblib or Dask worker: LAPACK's and BLAS's sums then run in
        # the same order whether the check runs here or in a worker (with the machine's threads,
        # KS15.Eq4's optimiser moved its worst ratio by 6e-15 between --jobs 1 and 2)
        with threadpool_limits(limits=1, user_api="blas"):
            result = check(ctx)
    except GuardViolation as exc:       # the user's code drew from another generator, or
        result = Result(Status.FAIL, {}, counterexample=exc.counterexample,   # changed x
                        note=exc.reason, detectable=getattr(
                            exc, "detectable", "any draw from a generator other than the "
                            "given rng, any change of an input"))
    except (Exception, SystemExit) as exc:      # SystemExit: a user's sys.exit, never ours
        missing = _missing_protocol_method(check, exc) if isinstance(exc, AttributeError) \
            else None
        error = None if missing is not None else user_error(exc, check.func)
        if missing is not None:
            result = Result(Status.INCONCLUSIVE, {},
                            note=f"nothing was examined: the estimator has no `{missing}`, "
                            "which this check needs (the protocol's minimum is target, sample "
                            "and budget)")
        elif error is not None:
            result = Result(Status.ERROR, error, note=error_note(error))
        elif not catch:
            raise
        else:
            result = Result(Status.FAIL, {}, note="error: " + traceback.format_exc(limit=6))
    if result.status == Status.PASS and _examined_nothing(result.figures):
        result = replace(result, status=Status.INCONCLUSIVE,
                         note=(result.note + " " if result.note else "") +
                         "nothing was examined (zero instances or draws): not a PASS")
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    return CheckRecord(
        id=check.id, status=result.status.value, expected=check.expected.value,
        citation=check.citation, statement=check.statement, assumptions=check.assumptions,
        method=check.method, delta=check.delta,
        detectable=_jsonable(result.detectable if result.detectable is not None
                             else check.detectable),
        figures=_jsonable(result.figures),
        # a counterexample that names an exact instance carries its (w, x, y) and a line of
        # Python rebuilding it, so that a verify JSON alone reproduces it
        counterexample=_jsonable(complete_instance(result.counterexample,
                                                   k=check.params.get("k"))),
        correction=result.correction or check.correction, note=result.note,
        seconds=round(seconds, 4), seed=int(seed), effort=effort.name, entropy=int(seq.entropy),
        spawn_key=tuple(int(v) for v in seq.spawn_key), cpu_seconds=round(max(cpu, 0.0), 4),
        detects=result.detects)


def error_note(error):
    """The one-line note of an ERROR record from its figures (:func:`~laocheck.checks.
    _guards.user_error`)."""
    call = f"{error['call']} " if error.get("call") else "the user's code "
    verb = "exited" if error["exception"] == "SystemExit" else "raised"
    return (f"{call}{verb}: {error['exception']}: {error['message']} at {error['where']}"
            + (f" (in {error['function']})" if error.get("function") else "")
            + "; an error of the code under test, not a verdict")


#: The optional methods and attributes of the estimator protocol: a check that needs one the
#: estimator lacks examined nothing (INCONCLUSIVE), it did not find a fault (FAIL).
OPTIONAL_PROTOCOL = ("reference", "accumulate", "sample_reference", "assumptions", "params",
                     "k", "eta", "spec", "citation", "name", "target_shape", "budget_kind")

#: Figures counting what a check examined; a PASS with one of them 0 is INCONCLUSIVE.
EXAMINED_FIGURES = ("instances_checked", "checked", "draws", "n", "outcomes", "examples")


def _missing_protocol_method(check, exc):
    """The protocol attribute a user's estimator lacks, when ``exc`` is exactly that."""
    if check.estimator is None or isinstance(check.estimator, str):
        return None
    name = getattr(exc, "name", None)
    if name in OPTIONAL_PROTOCOL and getattr(exc, "obj", None) is check.estimator:
        return name
    return None


def _examined_nothing(figures):
    return any(isinstance(figures.get(k), (int, np.integer)) and not isinstance(
        figures.get(k), bool) and figures.get(k) == 0 for k in EXAMINED_FIGURES)


def _targets(check):
    """The registered estimator name a check is about (its ``estimator`` name, or its spec)."""
    spec = check.kwargs.get("spec")
    if spec is not None:
        return spec.name
    return check.estimator if isinstance(check.estimator, str) else None


def run_on(estimator, pattern=None, *, seed=0, effort="fast", budget=NOVALUE, **params):
    """Run on ``estimator`` the catalog's checks *about it*.

    Those bound to the registered estimator it names (its ``spec``'s name, else its ``name``; or
    ``estimator`` itself when it is a registered name, built with ``params``), optionally
    narrowed by ``pattern``. For a new estimator use
    ``laocheck.testing.check_estimator(est, claims=...)``: the checks its claims select.

    Parameters
    ----------
    estimator : object or str
        An estimator naming a registered one, or a registered name.
    pattern : str, list of str or None, default=None
        Globs narrowing the checks, as :func:`checks`.
    seed : int, default=0
        The seed of the run.
    effort : Effort or str, default="fast"
        The effort profile or its registered name (:mod:`laocheck.effort`).
    budget : str, optional
        Deprecated spelling of ``effort`` (a :class:`DeprecationWarning`).
    **params
        The parameters a registered name is built with.

    Returns
    -------
    list of CheckRecord
        One record per check.

    Raises
    ------
    ValueError
        If ``estimator`` is a class or names no registered estimator, or ``pattern`` selects no
        check about it.
    """
    if isinstance(estimator, type):
        raise InvalidParameterError(
            f"`estimator` must be an estimator object, not the class {estimator.__name__}.")
    if isinstance(estimator, str):
        about = estimator
    else:
        spec = getattr(estimator, "spec", None)
        about = getattr(spec, "name", None) or getattr(estimator, "name", None)
    if about not in estimators.names():
        raise InvalidParameterError(
            f"`estimator` must name a registered estimator (its `spec` or `name`) for the "
            f"catalog's checks about it; got {about!r}. For a new estimator use "
            "laocheck.testing.check_estimator(est, claims=...).")
    effort = resolve(effort, budget=budget)
    out = []
    for check in checks(pattern):
        if check.estimator is None or _targets(check) != about:
            continue
        out.append(run(check.with_estimator(estimator, **params), seed, effort))
    if not out:
        raise InvalidParameterError(
            f"`pattern` {pattern!r} selects no check about {about!r} (see "
            "`laocheck list --checks`).")
    return out


def errata(records):
    """The errata table rows of a run's records: those with status ERRATUM.

    Parameters
    ----------
    records : iterable of CheckRecord
        The records of a run.

    Returns
    -------
    list of dict
        One row per ERRATUM record: ``id``, ``literal`` (the statement as printed),
        ``counterexample`` and ``correction``.
    """
    return [{"id": r.id, "literal": r.statement, "counterexample": r.counterexample,
             "correction": r.correction}
            for r in records if r.status == Status.ERRATUM.value]


def __getattr__(name):
    if name == "BUDGETS":           # the name before 0.1
        warnings.warn("`laocheck.checks.BUDGETS` is deprecated since laocheck 0.1 and will be "
                      "removed in the next release; use `laocheck.checks.CHECK_TIERS` (the two "
                      "sample counts of a check) or `laocheck.effort.profiles()` instead.",
                      DeprecationWarning, stacklevel=2)
        return CHECK_TIERS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
