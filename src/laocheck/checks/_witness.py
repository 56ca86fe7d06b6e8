"""Mutation witnesses: every check proves it can fail.

A *witness* of a check is a named mutation of what the check verifies (the estimator's kernel
or its literal reference, a learner's recorded run, a formula of :mod:`laocheck.bounds`, a
transcription of :mod:`laocheck.reference`, a constant of the paper) applied in-process, by
patching module attributes (:func:`unittest.mock.patch`) or by rebinding the check to a mutated
object (:meth:`~laocheck.checks.Check.with_estimator`); files are never edited. Under its
witness a check that expects PASS must FAIL (or report ERRATUM); a check that expects ERRATUM
has the corrected statement as its witness and must then PASS. A witness under which the check
keeps its verdict *survives*: the check cannot tell the mutation from the truth.

The idea is mutation testing (mutmut, cosmic-ray) restricted to the mutations that matter for a
theory check: one mutation of the object of the statement, not of the check's own code.

Declarations live in :mod:`laocheck.checks._witnesses`, which re-exports this module's API
(import it, not this module, to run witnesses): *generators* keyed by id pattern give
families of checks the same kind of witness (every ``*.kernel_matches_reference`` with its
kernel biased); ids that cannot have one carry a reason from :data:`REASONS`.

>>> from laocheck.checks import _witnesses
>>> [w.name for w in _witnesses.witnesses_of("HK12.AERR.gradient.budget")][:1]
['kernel_reads_one_more_attribute']
"""

from __future__ import annotations

import contextlib
import datetime
import fnmatch
import hashlib
import time
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Callable

import numpy as np
import sympy as sp

from ..effort import resolve
from ..exceptions import InvalidParameterError
from ._registry import Check, Status, checks, get, run

__all__ = ["Witness", "WitnessRecord", "REASONS", "declare", "declare_reason", "witnesses_of",
           "reason_of", "missing", "run_witness", "run_witnesses", "rotation_share",
           "scaled", "patched_callee", "SHARE_DAYS"]

#: The closed list of reasons a check may have no witness.
REASONS = {
    "restatement": "a pure restatement of another check, named in the detail: a mutation that "
                   "fails that check is the witness of both",
    "definition": "a definition or a convention of the paper, not a claim: nothing to mutate "
                  "that would make it false without changing what is defined",
}

#: How many days the rotating CI share takes to cover every witness (a week of commits).
SHARE_DAYS = 7


@dataclass(frozen=True)
class Witness:
    """One mutation of what a check verifies.

    ``name``: short, stable (the report's key); ``description``: what is mutated, in words;
    ``apply(check)``: a context manager yielding the check to run under the mutation (the same
    check with module attributes patched, or the check rebound to a mutated object);
    ``must``: the status the check must then return (``"FAIL"``: FAIL or ERRATUM, i.e. not
    PASS; ``"PASS"``: the corrected statement of an ERRATUM holds).
    """

    name: str
    description: str
    apply: Callable
    must: str = "FAIL"
    #: further ways to apply the same mutation (a constant of an inequality scaled up and
    #: down: only the tightening can be detected); the witness is detected when one of them is
    alternatives: tuple = ()


@dataclass(frozen=True)
class WitnessRecord:
    """The outcome of one witness: ``killed`` when the check returned what the witness
    requires (the mutation was detected), else the witness *survives*; ``crashed`` when the
    mutated run raised inside the check (reported apart: a crash is not a detection)."""

    id: str
    witness: str
    description: str
    must: str
    status: str
    killed: bool
    crashed: bool
    seconds: float
    note: str = ""

    def to_dict(self):
        return dict(self.__dict__)


_GENERATORS: list[tuple[tuple[str, ...], Callable]] = []
_REASONS: dict[str, tuple[str, str]] = {}


def declare(*patterns):
    """Decorator: ``gen(check) -> list[Witness]`` gives witnesses to every check whose id
    matches one of the glob ``patterns`` (case-sensitive). A generator may return ``[]`` for a
    check it does not apply to."""
    def deco(gen):
        _GENERATORS.append((tuple(patterns), gen))
        return gen
    return deco


def declare_reason(id, reason, detail):
    """State why check ``id`` has no witness: ``reason`` from :data:`REASONS`, ``detail`` names
    the check it restates or the definition."""
    if reason not in REASONS:
        raise InvalidParameterError(
            f"`reason` must be one of {sorted(REASONS)}; got reason={reason!r}.")
    if not detail:
        raise InvalidParameterError(f"`detail` must name what check {id!r} restates or defines.")
    _REASONS[id] = (reason, detail)


#: set by :mod:`laocheck.checks._witnesses` once every declaration is made
_DECLARED = False


def _declarations():
    if not _DECLARED:
        raise RuntimeError("the witness declarations are not loaded: import "
                           "laocheck.checks._witnesses (it re-exports this module's API)")


def witnesses_of(check):
    """Every witness declared for ``check`` (a :class:`Check` or an id)."""
    _declarations()
    if isinstance(check, str):
        check = get(check)
    out = []
    for patterns, gen in _GENERATORS:
        if any(fnmatch.fnmatchcase(check.id, p) for p in patterns):
            out.extend(gen(check))
    return out


def reason_of(id):
    """The stated reason ``(reason, detail)`` check ``id`` has no witness, or None."""
    _declarations()
    return _REASONS.get(id)


def missing(pattern=None):
    """Ids of the checks with neither a witness nor a stated reason (each must get one)."""
    return [c.id for c in checks(pattern) if not witnesses_of(c) and reason_of(c.id) is None]


def _killed(status, must):
    if must == "PASS":
        return status == Status.PASS.value
    return status in (Status.FAIL.value, Status.ERRATUM.value)


def run_witness(check, witness, seed=0, effort="fast"):
    """Run ``check`` under ``witness``; its :class:`WitnessRecord` (with ``alternatives``: the
    first alternative the check detects, else the last one run)."""
    start = time.perf_counter()
    for apply in witness.alternatives:
        rec = _run_witness(check, replace(witness, apply=apply, alternatives=()), seed, effort)
        if rec.killed:
            return replace(rec, seconds=round(time.perf_counter() - start, 4))
    return replace(_run_witness(check, replace(witness, alternatives=()), seed, effort),
                   seconds=round(time.perf_counter() - start, 4))


def _run_witness(check, witness, seed, effort):
    start = time.perf_counter()
    crashed, note = False, ""
    try:
        with witness.apply(check) as mutated:
            rec = run(mutated, seed, effort)
        status = rec.status
        crashed = rec.note.startswith("error:")
        note = rec.note.strip().splitlines()[-1][:200] if rec.note else ""
    except Exception as exc:            # the mutation itself could not be applied
        status, crashed, note = "ERROR", True, f"{type(exc).__name__}: {exc}"[:200]
    killed = not crashed and _killed(status, witness.must)
    return WitnessRecord(id=check.id, witness=witness.name, description=witness.description,
                         must=witness.must, status=status, killed=killed, crashed=crashed,
                         seconds=round(time.perf_counter() - start, 4), note=note)


def rotation_share(key, days=SHARE_DAYS):
    """The share ``key % days`` of the rotation: ``key`` is an integer, for example the
    ordinal of a commit's date (:func:`commit_day`), so that ``days`` consecutive days of commits
    run every witness once."""
    return int(key) % days


def _in_share(check_id, witness_name, share, days):
    digest = hashlib.sha256(f"{check_id}/{witness_name}".encode()).digest()
    return int.from_bytes(digest[:4], "little") % days == share


def commit_day(date=None):
    """The day ordinal of ``date`` (a :class:`datetime.date`; default today, UTC)."""
    date = date or datetime.datetime.now(datetime.timezone.utc).date()
    return date.toordinal()


def run_witnesses(pattern=None, seed=0, effort="fast", *, share=None, days=SHARE_DAYS,
                  progress=None):
    """Run the witnesses of the checks matching ``pattern`` (every check by default);
    ``share`` (0 .. days - 1) keeps the witnesses of that share of the rotation only.
    Returns the list of :class:`WitnessRecord`. Serial: a patch is process-wide."""
    out = []
    for check in checks(pattern):
        for witness in witnesses_of(check):
            if share is not None and not _in_share(check.id, witness.name, share, days):
                continue
            rec = run_witness(check, witness, seed, effort)
            out.append(rec)
            if progress:
                progress(rec)
    return out


def run_witnesses_report(pattern=None, seed=0, effort="fast", *, share=None, out=None,
                         progress=False):
    """Run the witnesses (:func:`run_witnesses`), write a report to ``out`` (a text stream:
    one line per surviving or crashed witness, the checks without witness, the totals) and
    return it as a JSON-ready dict (``run``: counts and seconds; ``witnesses``: every record)."""
    effort = resolve(effort).name
    start = time.perf_counter()
    done = []

    def tick(rec):
        done.append(rec)
        if progress and len(done) % 25 == 0 and out is not None:
            out.write(f"  ... {len(done)} witnesses run\n")
            out.flush()

    records = run_witnesses(pattern, seed, effort, share=share, progress=tick)
    wall = time.perf_counter() - start
    alive = [r for r in records if not r.killed]
    surv = survivors(records)
    unwitnessed = missing(pattern)
    if out is not None:
        for r in alive:
            out.write(f"SURVIVES  {r.id}  [{r.witness}]  status {r.status}"
                      + ("  (crashed)" if r.crashed else "") + (f"  {r.note}" if r.note and
                                                                r.crashed else "") + "\n")
        if unwitnessed:
            out.write(f"\nno witness and no stated reason ({len(unwitnessed)}): "
                      + ", ".join(unwitnessed) + "\n")
        out.write(f"\n{len(records)} witnesses of {len({r.id for r in records})} checks"
                  + (f" (share {share} of {SHARE_DAYS})" if share is not None else "")
                  + f": {sum(r.killed for r in records)} detected by their check, "
                  f"{len(alive)} survive ({sum(r.crashed for r in alive)} crashed); "
                  f"{len(surv)} checks detect none of their witnesses; "
                  f"{len(unwitnessed)} checks without witness or reason. "
                  f"seed {seed}, effort {effort}, {wall:.1f} s.\n")
    return {"run": {"seed": seed, "effort": effort, "share": share, "seconds": round(wall, 3),
                    "witnesses": len(records), "killed": sum(r.killed for r in records),
                    "survivors": len(alive), "checks_detecting_none": sorted(surv),
                    "without_witness": unwitnessed},
            "witnesses": [r.to_dict() for r in records]}


def survivors(records):
    """The checks none of whose run witnesses killed them (each with its records)."""
    by = {}
    for r in records:
        by.setdefault(r.id, []).append(r)
    return {cid: recs for cid, recs in by.items() if not any(r.killed for r in recs)}


# ---------------------------------------------------------------------------------------------
# mutation helpers shared by the declarations
# ---------------------------------------------------------------------------------------------

FACTOR = Fraction(5, 4)


def scaled(value, factor=FACTOR):
    """``value`` times ``factor`` where it is a number the statement is about (Fraction, float,
    sympy expression, float or object array, the value of a ``(value, observed)`` reference
    draw); anything else unchanged (indices, booleans, strings)."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, Fraction):
        return value * factor
    if isinstance(value, (float, np.floating)):
        return value * float(factor)
    if isinstance(value, sp.Basic):
        return value * sp.Rational(factor.numerator, factor.denominator)
    if isinstance(value, np.ndarray):
        if value.dtype == object:
            return np.array([scaled(v, factor) for v in value.ravel()],
                            dtype=object).reshape(value.shape)
        if np.issubdtype(value.dtype, np.floating):
            return value * float(factor)
        return value
    if isinstance(value, tuple) and len(value) == 2 and (
            isinstance(value[1], (list, tuple, set, frozenset)) or (
                isinstance(value[1], np.ndarray) and np.issubdtype(value[1].dtype, np.integer))):
        # a reference draw (value, observed), or a reference learner's (output, attributes
        # seen per step)
        return (scaled(value[0], factor), value[1])
    if isinstance(value, list) and value and all(isinstance(v, (Fraction, float)) for v in value):
        return [scaled(v, factor) for v in value]
    if isinstance(value, int):
        return value
    return value


def _wrap_scaled(func, factor=FACTOR):
    def mutated(*args, **kwargs):
        return scaled(func(*args, **kwargs), factor)
    mutated.__wrapped__ = func
    mutated.__name__ = getattr(func, "__name__", "mutated")
    return mutated


@contextlib.contextmanager
def patched_callee(check, targets, factor=FACTOR):
    """Patch every ``(namespace, name)`` of ``targets`` (a module or a globals dict) with the
    function scaling its result by ``factor``; yield ``check`` unchanged."""
    with contextlib.ExitStack() as stack:
        for ns, name in targets:
            if isinstance(ns, dict):
                original = ns[name]
                stack.enter_context(_dict_patch(ns, name, _wrap_scaled(original, factor)))
            else:
                original = getattr(ns, name)
                stack.enter_context(_attr_patch(ns, name, _wrap_scaled(original, factor)))
        yield check


@contextlib.contextmanager
def _dict_patch(ns, name, value):
    old = ns[name]
    ns[name] = value
    try:
        yield
    finally:
        ns[name] = old


@contextlib.contextmanager
def _attr_patch(obj, name, value):
    old = getattr(obj, name)
    setattr(obj, name, value)
    try:
        yield
    finally:
        setattr(obj, name, old)


@contextlib.contextmanager
def rebound(check, **changes):
    """Yield ``check`` with fields replaced (``kwargs``, ``estimator``, ``func``)."""
    yield replace(check, **changes)


def attr_patch(obj, name, value):
    """A context manager setting ``obj.name = value`` (restored after)."""
    return _attr_patch(obj, name, value)


def dict_patch(ns, name, value):
    """A context manager setting ``ns[name] = value`` (restored after)."""
    return _dict_patch(ns, name, value)


def is_check(obj):
    return isinstance(obj, Check)
