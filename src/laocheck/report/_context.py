"""What a report's data collection gets from its caller: seed, budget, workers (``jobs`` here,
or the Dask cluster of ``scheduler``), progress and the function that runs catalog checks
(the engine's runner, :func:`laocheck.checks.run_catalog`; ``laocheck report`` passes it
with its workers and a progress bar)."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Callable

from ..checks import check_seed, get, run_catalog

__all__ = ["Context", "run_checks_serially", "stderr_progress"]


def run_checks_serially(ids, seed, budget):
    """The records of the checks ``ids`` run one after the other.

    The same numbers as ``laocheck verify --seed``: each check is seeded by its id.

    Parameters
    ----------
    ids : iterable of str
        Check ids.
    seed : int
        The seed of the run.
    budget : {"fast", "full"}
        The budget of the checks.

    Returns
    -------
    list of CheckRecord
        One record per check, in id order.

    Raises
    ------
    ValueError
        If an id names no check.
    """
    return run_catalog([get(i) for i in ids], seed, budget, 1)


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


@dataclass(frozen=True)
class Context:
    """What a report's data collection gets from its caller.

    Seed, budget, workers (``jobs`` here, or the Dask cluster of ``scheduler``), progress and
    the function that runs catalog checks (``laocheck report`` passes
    :func:`laocheck.checks.run_catalog` with its workers and a progress bar).

    Parameters
    ----------
    seed : int, default=0
        The seed of the report; each task's stream is keyed by its name (:meth:`task_seed`).
    budget : str, default='fast'
        The report's budget, a name of the spec's ``[budgets]``.
    jobs : int, default=1
        The number of joblib workers.
    scheduler : str or None, default=None
        The address of a Dask scheduler, or None.
    progress : callable, optional
        Called with one line of text per step (:func:`stderr_progress`); quiet by default.
    run_checks : callable, optional
        ``(ids, seed, budget) -> records``, the runner of catalog checks
        (:func:`run_checks_serially` by default).
    learners : tuple, default=()
        Users' learners run beside the papers' (``--learner``, ``[[learners]]``; the bounds
        report).
    """
    seed: int = 0
    budget: str = "fast"
    jobs: int = 1
    scheduler: str | None = None
    progress: Callable = field(default=_quiet)
    run_checks: Callable = field(default=run_checks_serially)
    #: users' learners (``laocheck.experiments.user_learners.UserLearner``) run beside
    #: the papers' (``--learner``, ``[[learners]]``; the bounds and the paper reports)
    learners: tuple = ()

    def task_seed(self, task):
        """The SeedSequence of one task of a report (keyed by its name, never by order)."""
        return check_seed(self.seed, f"report:{task}")
