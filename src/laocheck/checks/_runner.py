"""The runner: a selection of catalog checks executed here (joblib) or on a Dask cluster.

One task per check through :mod:`laocheck._execution`, each seeded by its id, so the records
do not depend on ``jobs``, the scheduler or the order of completion; a results log (JSON
lines) keeps each record as it finishes and lets an interrupted run resume. ``laocheck
verify``, ``laocheck report`` and anything else that runs a set of checks call
:func:`run_catalog`; the command line only parses, calls and prints.
"""

from __future__ import annotations

import functools
import json
from dataclasses import replace
from pathlib import Path

from .._execution import ResultLog, executor
from ..effort import NOVALUE, resolve
from ._registry import CheckRecord, Result, Status, get, run

__all__ = ["run_catalog", "results_path", "submission_order", "LONG_CHECKS", "DURATIONS_FILE",
           "recorded_durations"]


def _run_one(check_id, seed, effort):
    return run(get(check_id), seed, effort)


def results_path(json_path):
    """The JSON-lines results log beside ``--json PATH`` (``v.json`` -> ``v.results.jsonl``).

    Parameters
    ----------
    json_path : str or os.PathLike
        The path of the JSON output.

    Returns
    -------
    pathlib.Path
        The path of the results log.
    """
    p = Path(json_path)
    stem = p.name[:-len(".json")] if p.name.endswith(".json") else p.name
    return p.with_name(stem + ".results.jsonl")


def _failed_record(check_id, seed, effort, error):
    """The FAIL record of a check whose task failed outside the check itself (it raised in
    the worker, or Dask gave it up after it killed its workers); the note holds the traceback."""
    def failed(ctx):
        return Result(Status.FAIL, {}, note="error: " + error)
    return run(replace(get(check_id), func=failed, estimator=None, kwargs={}), seed, effort)


#: id suffixes of the checks that run many replicates or long samplers: among the checks the
#: durations file does not know, these are submitted first
LONG_CHECKS = (".empirical", ".attribute_inclusion", ".kernel_matches_reference")

#: the CPU seconds of every check per check tier (fast, full), measured by
#: benchmarks/catalog_durations.py
#: (with the machine and date in its "meta"): the scheduler's cost model
DURATIONS_FILE = Path(__file__).with_name("_durations.json")


@functools.lru_cache(maxsize=None)
def recorded_durations(tier):
    """``{check id: CPU seconds}`` recorded for the check tier ``tier`` (``"fast"`` or
    ``"full"``, an effort profile's ``checks``) in :data:`DURATIONS_FILE` (the fast tier's
    figures when that tier has none yet; empty without the file)."""
    if not DURATIONS_FILE.exists():
        return {}
    doc = json.loads(DURATIONS_FILE.read_text(encoding="utf-8"))
    entry = doc.get(tier) or doc.get("fast") or {}
    return dict(entry.get("cpu_seconds", {}))


def submission_order(ids, tier="fast"):
    """``ids`` longest first, from the recorded CPU seconds at the check tier ``tier``
    (:func:`recorded_durations`): the checks the record does not know first (a new check may
    be long; :data:`LONG_CHECKS` among them first), then the known ones by decreasing CPU
    seconds, ties in id order. On ``jobs`` workers this is the longest-processing-time rule:
    the run does not end with one long check alone. The records and their order do not
    depend on it (each check is seeded by its id)."""
    known = recorded_durations(tier)

    def key(cid):
        if cid not in known:
            return (0, not cid.endswith(LONG_CHECKS), 0.0, cid)
        return (1, False, -known[cid], cid)
    return sorted(ids, key=key)


def run_catalog(selected, seed, effort, jobs, progress=None, *, scheduler=None, results=None,
                resume=False, budget=NOVALUE):
    """Records of ``selected`` checks, in id order, identical for any ``jobs`` or scheduler.

    One task per check through joblib (with ``jobs``) or Dask (at ``scheduler`` /
    ``$LAOCHECK_SCHEDULER``), submitted longest first; each check is seeded by its id
    (:func:`check_seed`), so where and when it runs changes nothing. A task that fails outside
    the check is that check's FAIL with the traceback.

    Parameters
    ----------
    selected : list of Check
        The checks to run.
    seed : int
        The seed of the run.
    effort : Effort or str
        The effort profile (:mod:`laocheck.effort`) or its registered name: the sample sizes of
        statistical checks. The profile itself travels to the workers (a user's registered
        profile needs no registration there).
    jobs : int
        The number of joblib workers (1: in this process).
    progress : callable or None, default=None
        Called as ``progress(record, running=..., resumed=...)`` with each record as it arrives.
    scheduler : str or None, default=None
        The address of a Dask scheduler.
    results : str, os.PathLike or None, default=None
        A JSON-lines log each record is appended to as it finishes.
    resume : bool, default=False
        Reuse the records ``results`` holds for (id, seed, effort name, laocheck version).
    budget : str, optional
        Deprecated spelling of ``effort`` (a :class:`DeprecationWarning`).

    Returns
    -------
    list of CheckRecord
        The records, in id order.

    Raises
    ------
    SchedulerError
        When the Dask scheduler is unreachable or lost (``laocheck._execution``).
    ValueError
        If an argument is malformed or ``results`` cannot be written.
    """
    effort = resolve(effort, budget=budget)
    ids = [c.id for c in selected]
    records, todo = {}, []
    log = ResultLog(results, resume=resume) if results else None
    try:
        for cid in ids:
            doc = log.get((cid, seed, effort.name)) if log is not None else None
            if doc is None:
                todo.append(cid)
                continue
            records[cid] = CheckRecord.from_dict(doc, log.where((cid, seed, effort.name)))
            if progress:
                progress(records[cid], running=0, resumed=True)
        if todo:
            todo = submission_order(todo, effort.checks)
            with executor(jobs, scheduler) as ex:
                tasks = [(cid, seed, effort) for cid in todo]
                for out in ex.imap_unordered(_run_one, tasks, names=todo):
                    cid = todo[out.index]
                    rec = out.value if out.error is None else \
                        _failed_record(cid, seed, effort, out.error)
                    records[cid] = rec
                    if log is not None:
                        log.append((cid, seed, effort.name), rec.to_dict())
                    if progress:
                        progress(rec, running=out.running)
    finally:
        if log is not None:
            log.close()
    return [records[cid] for cid in ids]
