"""What a report's data collection gets from its caller: seed, effort profile, workers (``jobs`` here,
or the Dask cluster of ``scheduler``), progress and the function that runs catalog checks
(the engine's runner, :func:`laocheck.checks.run_catalog`; ``laocheck report`` passes it
with its workers and a progress bar)."""

from __future__ import annotations

import sys
import warnings
from dataclasses import dataclass, field
from typing import Callable

from ..checks import check_seed, get, run_catalog
from ..effort import NOVALUE, Effort, deprecated, resolve

__all__ = ["Context", "run_checks_serially", "stderr_progress"]


def run_checks_serially(ids, seed, effort):
    """The records of the checks ``ids`` run one after the other.

    The same numbers as ``laocheck verify --seed``: each check is seeded by its id.

    Parameters
    ----------
    ids : iterable of str
        Check ids.
    seed : int
        The seed of the run.
    effort : Effort or str
        The effort profile of the checks (:mod:`laocheck.effort`).

    Returns
    -------
    list of CheckRecord
        One record per check, in id order.

    Raises
    ------
    ValueError
        If an id names no check.
    """
    return run_catalog([get(i) for i in ids], seed, effort, 1)


def stderr_progress(report):
    """A progress callback writing one line per step to standard error.

    Parameters
    ----------
    report : str
        The report's name, prefixed to each line.

    Returns
    -------
    callable
        ``progress(text)``.
    """
    def progress(text):
        sys.stderr.write(f"[laocheck report {report}] {text}\n")
        sys.stderr.flush()
    return progress


def _quiet(text):
    pass


@dataclass(frozen=True, init=False)
class Context:
    """What a report's data collection gets from its caller.

    Seed, effort profile, workers (``jobs`` here, or the Dask cluster of ``scheduler``),
    progress and the function that runs catalog checks (``laocheck report`` passes
    :func:`laocheck.checks.run_catalog` with its workers and a progress bar).

    Parameters
    ----------
    seed : int, default=0
        The seed of the report; each task's stream is keyed by its name (:meth:`task_seed`).
    effort : Effort or str, default='fast'
        The report's effort profile (:mod:`laocheck.effort`) or its name: the spec's
        ``[effort.<name>]`` table, the checks' sample counts and the experiments' sizes, all
        read from this one object.
    jobs : int, default=1
        The number of joblib workers.
    scheduler : str or None, default=None
        The address of a Dask scheduler, or None.
    progress : callable, optional
        Called with one line of text per step (:func:`stderr_progress`); quiet by default.
    run_checks : callable, optional
        ``(ids, seed, effort) -> records``, the runner of catalog checks
        (:func:`run_checks_serially` by default).
    learners : tuple, default=()
        Users' learners run beside the papers' (``--learner``, ``[[learners]]``; the bounds
        report).
    budget : str, optional
        Deprecated spelling of ``effort`` (a :class:`DeprecationWarning`).
    """
    seed: int = 0
    effort: Effort = None
    jobs: int = 1
    scheduler: str | None = None
    progress: Callable = field(default=_quiet)
    run_checks: Callable = field(default=run_checks_serially)
    #: users' learners (``laocheck.experiments.user_learners.UserLearner``) run beside
    #: the papers' (``--learner``, ``[[learners]]``; the bounds and the paper reports)
    learners: tuple = ()

    def __init__(self, seed=0, effort="fast", jobs=1, scheduler=None, progress=_quiet,
                 run_checks=run_checks_serially, learners=(), *, budget=NOVALUE):
        values = dict(seed=seed, effort=resolve(effort, budget=budget), jobs=jobs,
                      scheduler=scheduler, progress=progress, run_checks=run_checks,
                      learners=learners)
        for name, value in values.items():
            object.__setattr__(self, name, value)

    @property
    def budget(self):
        """Deprecated: the effort profile's name (``ctx.effort.name``); use ``ctx.effort``."""
        warnings.warn(deprecated("ctx.budget", "ctx.effort"), DeprecationWarning, stacklevel=2)
        return self.effort.name

    def checks_effort(self, settings):
        """The profile of the report's catalog checks: ``effort``, or the one a spec's
        deprecated ``checks_budget`` names (warned when the spec was loaded)."""
        if "checks_budget" in settings:
            return resolve(settings["checks_budget"], name="checks_budget")
        return self.effort

    def task_seed(self, task):
        """The SeedSequence of one task of a report (keyed by its name, never by order)."""
        return check_seed(self.seed, f"report:{task}")
