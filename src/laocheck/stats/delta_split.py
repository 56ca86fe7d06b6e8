"""Splitting δ: a run's family-wise false-failure probability shared across its checks.

(Until 0.1 this module was ``laocheck.stats.budget`` with :class:`ErrorBudget` and
:class:`BudgetAllocation`; those names still work with a :class:`DeprecationWarning`: in
laocheck "budget" is the attributes read per example, and the checks' effort is
:mod:`laocheck.effort`.)

Numerically valid range: every 0 < total, per_check < 1; a ``total`` so small that a check's
share underflows to 0.0 is refused (with the number of checks in the message).
"""

from __future__ import annotations

import math
import numbers
import warnings
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

from .._validation import check_probability, fail

__all__ = ["DeltaSplit", "DeltaAllocation", "DEFAULT_DELTA"]

#: The default false-failure probability δ of one statistical check: the one constant every
#: check, interval and experiment defaults to (so that the suite never flakes).
DEFAULT_DELTA = 1e-6


@dataclass(frozen=True, repr=False)
class DeltaAllocation:
    """The delta handed to each named check of a run.

    Returned by :meth:`DeltaSplit.allocate`; indexing by a check's name gives its delta.

    Parameters
    ----------
    deltas : Mapping[str, float]
        Check name -> its false-failure probability (kept as a read-only mapping, the attribute
        ``deltas``).

    Attributes
    ----------
    family_wise : float
        Union bound on the probability that at least one check fails falsely:
        sum of the deltas (at most the split's ``total`` when one is set).
    """

    deltas: Mapping[str, float]
    family_wise: float = field(init=False)

    def __post_init__(self):
        object.__setattr__(self, "deltas", MappingProxyType(dict(self.deltas)))
        object.__setattr__(self, "family_wise", math.fsum(self.deltas.values()))

    def __getitem__(self, name) -> float:
        try:
            return self.deltas[name]
        except KeyError:
            fail("name", name, f"be one of the allocated checks {sorted(self.deltas)}")

    def __len__(self):
        return len(self.deltas)

    def __iter__(self):
        return iter(self.deltas)

    def __repr__(self):
        return f"DeltaAllocation(checks={len(self.deltas)}, family_wise={self.family_wise:g})"


def _delta_split_iv(total, per_check):
    if total is not None:
        total = check_probability("total", total)
    return total, check_probability("per_check", per_check)


@dataclass(frozen=True)
class DeltaSplit:
    r"""A run's family-wise false-failure probability δ and its split across checks.

    Parameters
    ----------
    total : float, optional
        Family-wise false-failure probability of the whole run. If given it is split across
        the checks (equally, or in proportion to weights).
    per_check : float
        The delta of each check when ``total`` is None. Default 1e-6.

    Notes
    -----
    By the union (Bonferroni) bound, the probability that at least one of the checks fails
    although every checked statement is true is at most the sum of their deltas; that sum is
    the run's family-wise false-failure probability (``DeltaAllocation.family_wise``). With
    ``total`` set, check i gets delta_i = total * w_i / sum_j w_j and the family-wise
    probability is at most ``total``; without it each check gets ``per_check`` and the
    family-wise probability is ``per_check`` times the number of checks. A check's effort
    profile (:mod:`laocheck.effort`) changes its sample size, never its delta.

    References
    ----------
    .. [1] C. E. Bonferroni, "Teoria statistica delle classi e calcolo delle probabilità" (1936).

    Examples
    --------
    >>> alloc = DeltaSplit(total=1e-5).allocate(["CB11-L7", "CB11-L8"], weights={"CB11-L7": 3})
    >>> round(alloc["CB11-L7"] / alloc["CB11-L8"], 12), alloc.family_wise <= 1e-5
    (3.0, True)
    """

    total: float | None = None
    per_check: float = DEFAULT_DELTA

    def __post_init__(self):
        total, per_check = _delta_split_iv(self.total, self.per_check)
        object.__setattr__(self, "total", total)
        object.__setattr__(self, "per_check", per_check)

    def allocate(self, names, weights=None) -> DeltaAllocation:
        """Hand each named check its delta.

        Parameters
        ----------
        names : iterable of str
            Distinct check names.
        weights : Mapping[str, float], optional
            Positive weights (default 1 per check) for splitting ``total``; ignored when
            ``total`` is None.

        Returns
        -------
        DeltaAllocation
        """
        names = list(names)
        if not names or len(set(names)) != len(names):
            fail("names", names, "be a nonempty list of distinct check names")
        weights = dict(weights or {})
        unknown = set(weights) - set(names)
        if unknown:
            fail("weights", weights, f"only name allocated checks; unknown {sorted(unknown)}")
        w = [weights.get(name, 1.0) for name in names]
        if any(isinstance(v, bool) or not isinstance(v, numbers.Real) or not 0 < v < math.inf
               for v in w):
            fail("weights", weights, "be finite and > 0")
        if self.total is None:
            return DeltaAllocation({name: self.per_check for name in names})
        norm = math.fsum(w)
        # round each share down by one part in 1e12 so the float sum never exceeds `total`
        shares = {name: self.total * v / norm * (1 - 1e-12) for name, v in zip(names, w)}
        if not all(share > 0 for share in shares.values()):
            fail("total", self.total, f"be large enough to split among {len(names)} checks "
                 "with these weights (a share underflows to 0.0)")
        return DeltaAllocation(shares)

    def family_wise(self, n_checks) -> float:
        """Family-wise false-failure bound of a run of ``n_checks`` equally weighted checks."""
        if self.total is not None:
            return self.total
        return min(1.0, n_checks * self.per_check)


#: the names before 0.1 (deprecated): {old name: new name}
RENAMED = {"ErrorBudget": "DeltaSplit", "BudgetAllocation": "DeltaAllocation"}


def renamed(old, module):
    """The object the deprecated name ``old`` of ``module`` stands for, with a
    :class:`DeprecationWarning` naming the new one."""
    new = RENAMED[old]
    warnings.warn(f"`{module}.{old}` is deprecated since laocheck 0.1 and will be removed in "
                  f"the next release; use `laocheck.stats.{new}` instead (in laocheck "
                  "\"budget\" is the attributes read per example).", DeprecationWarning,
                  stacklevel=3)
    return globals()[new]


def __getattr__(name):
    if name in RENAMED:
        return renamed(name, __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
