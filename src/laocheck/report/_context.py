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
    """The records of the checks ``ids`` run one after the other (same numbers as
    ``laocheck verify --seed``: each check is seeded by its id)."""
    return run_catalog([get(i) for i in ids], seed, budget, 1)


def stderr_progress(report):
    """A progress callback writing one line per step to standard error."""
    def progress(text):
        sys.stderr.write(f"[laocheck report {report}] {text}\n")
        sys.stderr.flush()
    return progress


def _quiet(text):
    pass


@dataclass(frozen=True)
class Context:
    seed: int = 0
    budget: str = "fast"
    jobs: int = 1
    scheduler: str | None = None
    progress: Callable = field(default=_quiet)
    run_checks: Callable = field(default=run_checks_serially)
    #: users' learners (:class:`laocheck.experiments.user_learners.UserLearner`) run beside
    #: the papers' (``--learner``, ``[[learners]]``; the bounds and the paper reports)
    learners: tuple = ()

    def task_seed(self, task):
        """The SeedSequence of one task of a report (keyed by its name, never by order)."""
        return check_seed(self.seed, f"report:{task}")
