"""Deprecated since laocheck 0.1: :mod:`laocheck.stats.delta_split` (``ErrorBudget`` is
:class:`~laocheck.stats.DeltaSplit`, ``BudgetAllocation`` is
:class:`~laocheck.stats.DeltaAllocation`); importing this module warns."""

import warnings

from .delta_split import DEFAULT_DELTA, DeltaAllocation, DeltaSplit, renamed

warnings.warn("`laocheck.stats.budget` is deprecated since laocheck 0.1 and will be removed in "
              "the next release; use `laocheck.stats.delta_split` instead.", DeprecationWarning,
              stacklevel=2)

__all__ = ["DEFAULT_DELTA", "DeltaSplit", "DeltaAllocation"]


def __getattr__(name):
    if name in ("ErrorBudget", "BudgetAllocation"):
        return renamed(name, __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
