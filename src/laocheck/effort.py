"""Effort profiles: how much work a run spends, one named object read by every part of laocheck.

A profile (:class:`Effort`) says which of a catalog check's two sample counts runs
(``ctx.n(fast, full)``) and how many runs, prefixes, folds and grid values the papers'
experiments spend. ``laocheck verify``, :func:`laocheck.testing.check_estimator`,
:func:`laocheck.testing.check_learner`, ``laocheck report`` and
:mod:`laocheck.experiments.papers` all take it as ``effort=`` (``--effort`` on the command line),
either the profile itself or its registered name, and hand the one object on: the checks read
it from their context (``ctx.effort``), the experiments from their keyword, the reports from
their context, so that no two copies of it can disagree.

Three profiles are built in:

========  ==================================================================================
name      spends
========  ==================================================================================
``tiny``  seconds: the fast sample counts of the checks, 2 runs of each experiment (the tests
          of the code paths; decides no experimental claim)
``fast``  minutes on 2 cores: the checks' fast sample counts, 24 runs of each experiment
``full``  the papers' sizes: the checks' full sample counts, 90 runs, 10-fold CV
========  ==================================================================================

A user registers their own, in the manner of hypothesis's ``settings.register_profile``::

    >>> from laocheck import effort
    >>> nightly = effort.register_profile("nightly", parent="full", runs=200)
    >>> effort.get_profile("nightly").runs, nightly.checks, nightly.parent
    (200, 'full', 'full')

and runs anything with it: ``check_estimator(est, effort="nightly")``,
``laocheck verify --effort nightly`` (after the module registering it is imported). A report
spec without a table for ``nightly`` uses the table of its parent (``[effort.full]``).

"budget" in laocheck means the attributes an estimator or learner reads per example; the
effort tier was called ``budget`` until this release: ``budget="fast"`` keyword arguments,
``--budget`` on the command line and ``ctx.budget`` still work, with a
:class:`DeprecationWarning` naming ``effort`` (removed in the next release).
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, fields, replace
from types import MappingProxyType

from .exceptions import InvalidParameterError

__all__ = ["Effort", "register_profile", "get_profile", "profiles", "resolve", "CHECK_TIERS"]

#: The two sample counts every statistical check of the catalog declares (``ctx.n(fast, full)``).
CHECK_TIERS = ("fast", "full")

_NAME = re.compile(r"[A-Za-z0-9_-]{1,50}")


class _NoValue:
    """The default of a deprecated keyword: tells "not given" from any value (NumPy's
    ``np._NoValue``)."""

    def __repr__(self):
        return "<no value>"


NOVALUE = _NoValue()


@dataclass(frozen=True)
class Effort:
    """A named effort profile: the sample counts of the checks and the sizes of the experiments.

    Frozen: a run hands the one object to every part it calls. Make one with
    :func:`register_profile` (or :meth:`replace` for an unregistered variant); read a registered
    one with :func:`get_profile`.

    Parameters
    ----------
    name : str
        The profile's name (letters, digits, ``_`` and ``-``).
    checks : {"fast", "full"}
        Which of a catalog check's two sample counts runs (``ctx.n(fast, full)``).
    runs : int
        Runs (random splits) of each paper experiment.
    prefixes : tuple of float
        The fractions of the training part a learning curve is measured at.
    folds : int
        Cross-validation folds.
    grid : tuple of float
        The radii B tuned by cross-validation.
    step_scales : tuple of float
        The multipliers of a theory step size tuned by cross-validation.
    grid_extensions : int
        How many times a grid is extended where the tuned value sits at an end.
    synthetic_m : int
        The training size of KS15 Sec. 5.1's synthetic experiment.
    pair_runs, pair_folds : int
        Runs and folds of CB11 Sec. 7's table over the 45 digit pairs.
    max_train : int or None
        At most this many training examples per run (None: the whole training part).
    parent : str or None, default=None
        The profile this one was registered from: a report spec without a table for this
        profile uses its parent's (and so on up).
    """

    name: str
    checks: str
    runs: int
    prefixes: tuple
    folds: int
    grid: tuple
    step_scales: tuple
    grid_extensions: int
    synthetic_m: int
    pair_runs: int
    pair_folds: int
    max_train: int | None
    parent: str | None = None

    def __post_init__(self):
        if not isinstance(self.name, str) or not _NAME.fullmatch(self.name):
            raise InvalidParameterError(
                f"`name` must be a plain name (letters, digits, _ and -, at most 50); got "
                f"name={self.name!r}.")
        if self.checks not in CHECK_TIERS:
            raise InvalidParameterError(
                f"`checks` must be one of {CHECK_TIERS}; got checks={self.checks!r}.")
        for key in ("runs", "folds", "synthetic_m", "pair_runs", "pair_folds"):
            _positive_int(key, getattr(self, key), 2 if key.endswith("folds") else 1)
        _positive_int("grid_extensions", self.grid_extensions, 0)
        if self.max_train is not None:
            _positive_int("max_train", self.max_train, 1)
        for key in ("prefixes", "grid", "step_scales"):
            values = tuple(getattr(self, key))
            if not values or not all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                     and 0 < v < float("inf") for v in values):
                raise InvalidParameterError(
                    f"`{key}` must be a nonempty tuple of finite numbers > 0; got "
                    f"{key}={getattr(self, key)!r}.")
            object.__setattr__(self, key, values)

    def n(self, fast, full):
        """A sample count of a check: ``fast`` or ``full`` by its ``checks`` field."""
        return fast if self.checks == "fast" else full

    @property
    def full(self):
        """Whether the checks run their full sample counts."""
        return self.checks == "full"

    def experiment(self):
        """The experiments' sizes as a new dict (runs, prefixes, folds, grids, ...): the
        caller may adjust its copy (``runs=``, ``m=``)."""
        skip = {"name", "checks", "parent"}
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name not in skip}

    def replace(self, **changes):
        """A new profile with ``changes`` (unregistered; the fields as the constructor's)."""
        return replace(self, **changes)

    def lineage(self):
        """This profile's name, its parent's, and so on up (the report tables' fallbacks)."""
        out, seen = [self.name], {self.name}
        parent = self.parent
        while parent is not None and parent not in seen:
            out.append(parent)
            seen.add(parent)
            parent = _PROFILES[parent].parent if parent in _PROFILES else None
        return tuple(out)


def _positive_int(name, value, low):
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise InvalidParameterError(f"`{name}` must be an integer >= {low}; got {name}={value!r}.")


# The built-in profiles; the experiments' sizes are argued in laocheck.experiments.papers._effort.
_BUILTIN = (
    Effort("tiny", "fast", runs=2, prefixes=(0.5, 1.0), folds=2, grid=(1.0,), step_scales=(1.0,),
           grid_extensions=0, synthetic_m=200, pair_runs=2, pair_folds=2, max_train=None),
    Effort("fast", "fast", runs=24, prefixes=(0.1, 0.3, 1.0), folds=3, grid=(0.5, 2.0, 8.0),
           step_scales=(1.0, 8.0), grid_extensions=1, synthetic_m=1000, pair_runs=2,
           pair_folds=2, max_train=2000),
    Effort("full", "full", runs=90, prefixes=(0.05, 0.1, 0.2, 0.4, 0.7, 1.0), folds=10,
           grid=(0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0),
           step_scales=(0.25, 1.0, 4.0, 16.0, 64.0), grid_extensions=3, synthetic_m=20000,
           pair_runs=10, pair_folds=10, max_train=None),
)
_PROFILES = {p.name: p for p in _BUILTIN}
BUILTIN = tuple(p.name for p in _BUILTIN)


def register_profile(name, parent="fast", **changes):
    """Register (or replace) the profile ``name``: ``parent``'s values updated by ``changes``.

    Like hypothesis's ``settings.register_profile``. The built-in profiles (``tiny``, ``fast``,
    ``full``) cannot be replaced.

    Parameters
    ----------
    name : str
        The new profile's name (letters, digits, ``_`` and ``-``).
    parent : str or Effort, default="fast"
        The profile whose values the new one starts from.
    **changes
        Fields of :class:`Effort` to change (``checks="full"``, ``runs=200``, ...).

    Returns
    -------
    Effort
        The registered profile.

    Raises
    ------
    InvalidParameterError
        If ``name`` is a built-in profile's or not a plain name, ``parent`` is unknown, or a
        change names no field or breaks its rule.
    """
    if name in BUILTIN:
        raise InvalidParameterError(
            f"`name` must not be a built-in profile {BUILTIN}; got name={name!r}.")
    base = resolve(parent, name="parent")
    known = {f.name for f in fields(Effort)} - {"name", "parent"}
    unknown = sorted(set(changes) - known)
    if unknown:
        raise InvalidParameterError(
            f"`{unknown[0]}` is not a field of an effort profile; the fields are "
            f"{sorted(known)}.")
    profile = replace(base, name=name, parent=base.name, **changes)
    _PROFILES[name] = profile
    return profile


def get_profile(name):
    """The registered profile ``name``.

    Parameters
    ----------
    name : str
        A registered name (:func:`profiles`).

    Returns
    -------
    Effort
        The registered profile (the one object every run at this name reads).

    Raises
    ------
    InvalidParameterError
        If no profile of that name is registered (the message lists the known names).
    """
    return resolve(name, name="effort")


def profiles():
    """The names of the registered profiles, built-in first.

    Returns
    -------
    tuple of str
        ``("tiny", "fast", "full", ...)`` in the order of registration.
    """
    return tuple(_PROFILES)


def resolve(effort, *, name="effort", budget=NOVALUE, stacklevel=3):
    """The :class:`Effort` a parameter ``effort`` names (a profile, or a registered name).

    ``budget``: the deprecated spelling of the same parameter; when given (anything but
    ``NOVALUE``) it warns with a :class:`DeprecationWarning` naming ``effort`` and is used
    in place of ``effort``.

    Parameters
    ----------
    effort : Effort or str
        The profile or its name.
    name : str, default="effort"
        The parameter's name in the error message.
    budget : Effort, str or NOVALUE
        The deprecated spelling's value.
    stacklevel : int, default=3
        The warning's stack level (3: the caller of the function calling this).

    Returns
    -------
    Effort
        The profile itself, or the registered profile of that name.

    Raises
    ------
    InvalidParameterError
        If the value is neither a profile nor a registered name.
    """
    if budget is not NOVALUE:
        warnings.warn(deprecated("budget", "effort"), DeprecationWarning, stacklevel=stacklevel)
        effort, name = budget, "budget"
    if isinstance(effort, Effort):
        return effort
    if isinstance(effort, str) and effort in _PROFILES:
        return _PROFILES[effort]
    raise InvalidParameterError(
        f"`{name}` must be an effort profile or one of the registered names "
        f"{list(_PROFILES)} (laocheck.effort.register_profile adds one); got {name}={effort!r}.")


def deprecated(old, new):
    """The message of a deprecated spelling (NEP 23: what to use instead, and when it goes)."""
    return (f"`{old}` as the effort profile is deprecated since laocheck 0.1 and will be removed "
            f"in the next release; use `{new}` instead (\"budget\" now means the attributes "
            f"read per example).")


#: the registered profiles by name, read-only (:func:`register_profile` adds to it)
PROFILES = MappingProxyType(_PROFILES)
