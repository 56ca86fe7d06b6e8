"""The learning-curve engine: the papers' protocol (CB11 Sec. 7, HK12 Sec. 5, KS15 Sec. 5) run
over independent runs.

:func:`~laocheck.experiments.papers.learning_curves` runs ``runs`` runs (one task each, on
``laocheck._execution.executor``); a run (:func:`_one_run`) splits the data (or samples the
distribution), tunes each learner by cross-validation on the training part (:func:`_search`),
fits it on the prefixes and measures its test errors; the runs' errors become
:class:`~laocheck.experiments.papers.Curve` s with their intervals (:func:`_curve_of`).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV, KFold
from threadpoolctl import threadpool_limits

from ... import learners as _learners
from ..._execution import executor
from ..._progress import EVERY, ProgressLines
from ..._validation import check_int
from ...bounds import second_moments_of
from ...data import max_row_norm
from ...exceptions import InvalidParameterError
from ...learners import OfflineLasso, OfflineRidge, OnlineLasso, OnlineRidge
from ...stats import DEFAULT_DELTA, mean_interval
from .._runs import child_seeds
from .._settings import estimator_settings
from ..user_learners import load_learner
from ._records import SAME_ATTRIBUTES, Curve
from ._rows import _OnRows, _Rows, _seed_int, _UserOnRows

__all__ = ["RunProgress", "learning_curves", "matched_sizes", "grid_limits", "alg_has_step"]


class RunProgress:
    """Progress of an experiment's runs as text lines for ``report(text)``.

    ``laocheck report`` prints them on stderr. ``stage`` starts a counted stage (a panel's
    runs, or the runs of CB11's 45-pair table) and returns the ``on_run`` callback of
    :func:`learning_curves`; each stage writes a line when it starts, at most every ``every``
    seconds, and when its last run is in.

    Parameters
    ----------
    report : callable or None, default=None
        ``report(text)``; None: silent.
    every : float, default=60.0
        The most seconds between two lines of a stage.
    """

    def __init__(self, report=None, every=EVERY):
        self.report, self.every = report, every

    def stage(self, label, runs):
        """The ``on_run`` callback of a stage of ``runs`` runs named ``label`` (None when
        silent)."""
        if self.report is None:
            return None
        lines = ProgressLines(label, runs, self.report, every=self.every, unit=" runs")
        return lines.advance


def _user_grid(user, grid):
    """What cross-validation tunes for a user's learner: its radius ``B`` on the panel's grid
    of B when its factory accepts ``B`` and its ``params`` do not fix it, and the grids its
    ``[[learners]]`` table declares (``grid = {name = [values]}``); the rest as given."""
    out = {}
    if user.accepts("B") and "B" not in user.params:
        out["B"] = list(grid)
    out.update({name: list(values) for name, values in user.grid.items()})
    return out


@dataclass(frozen=True)
class _Task:
    """Everything one run needs (picklable for joblib)."""

    X: np.ndarray | None
    y: np.ndarray | None
    distribution: object | None
    m_synthetic: int
    test_fraction: float
    prefixes: tuple
    folds: int
    grid: tuple
    step_scales: tuple
    k: int
    algorithms: tuple
    keep_indices: bool
    grid_extensions: int = 0
    budget: int | None = None
    max_train: int | None = None
    users: tuple = ()


def _prefix_sizes(n_train, prefixes, minimum=10):
    sizes = sorted({max(minimum, int(round(f * n_train))) for f in prefixes})
    return tuple(min(s, n_train) for s in sizes)


def matched_sizes(sizes, budget, d):
    """The prefixes on which a full-information learner sees as many attributes as a budgeted one.

    A learner of d attributes per example against one of ``budget`` on ``sizes``: n·budget/d
    examples, rounded, at least 1 and at most n (the papers' attribute axis: HK12 Sec. 5, "Lasso
    ... completes this budget after seeing merely 62 examples"; CB11 Sec. 7; KS15 Sec. 5).

    Parameters
    ----------
    sizes : sequence of int
        The prefix sizes of the budgeted learner.
    budget : int
        Its attributes per example.
    d : int
        The dimension.

    Returns
    -------
    tuple of int
        The matched prefix sizes.
    """
    return tuple(max(1, min(n, int(round(n * budget / d)))) for n in sizes)


#: the full-information learners: they read every attribute of an example
_FULL_INFORMATION = (OnlineRidge, OnlineLasso, OfflineRidge, OfflineLasso,
                     _learners.AdaOnlineRidge)


def _with_seed(est, seq):
    if "random_state" in est.get_params():
        est.set_params(random_state=_seed_int(seq))
    return est


def _tunable(est, data, grid, step_scales):
    """What GridSearchCV tunes (:class:`_OnRows` on the run's rows) and its grid: B always;
    the step multiplier when the learner has a theory step (``eta`` or AER's ``lam``)."""
    if alg_has_step(est.get_params()) and len(step_scales) > 1:
        return _OnRows(est, data), {"B": list(grid), "step_scale": list(step_scales)}
    return _OnRows(est, data), {"B": list(grid)}


def grid_limits(values, extensions):
    """The smallest and largest value cross-validation may choose from a geometric grid.

    Parameters
    ----------
    values : sequence of float
        The grid (> 0).
    extensions : int
        The values cross-validation may add at each end.

    Returns
    -------
    low : float
        The smallest value.
    high : float
        The largest value.
    """
    values = sorted(values)
    if len(values) < 2:
        return values[0], values[0]
    low_ratio, high_ratio = values[1] / values[0], values[-1] / values[-2]
    return values[0] / low_ratio ** extensions, values[-1] * high_ratio ** extensions


def _search(est, grid, folds, rows, y, extensions):
    """Cross-validated choice of ``est``'s parameters on the grid ``grid`` ({name: values}),
    extended where the choice sits at an end.

    One :class:`~sklearn.model_selection.GridSearchCV` (the same folds, scoring by mean squared
    error) scores the grid; while the best configuration sits at an end of a parameter's values
    (a geometric grid), that parameter gets one more value beyond the end (the grid's ratio
    there), up to ``extensions`` values at each end, and only the new configurations are scored.
    A fixed grid caps a curve when the data want a larger step or a smaller radius than it
    holds (measured on KS15 Sec. 5.1 at ``--effort full``, α = −1: every online learner chose
    the smallest B and the largest step multiplier in all 30 runs); the extension lets the data
    choose, and what is still at an end after ``extensions`` is reported (``grid_edges`` of the
    paper reports, at :func:`grid_limits`). Ties go to the first configuration in the grid's
    order (GridSearchCV's rule), so with no extension this is GridSearchCV's choice on ``grid``.

    Returns ``(best, extended)``: the chosen parameters, and how many values each parameter
    gained at its (lower, upper) end."""
    names = sorted(grid)                                # ParameterGrid's order of the keys
    axes = {n: sorted(float(v) for v in grid[n]) for n in names}
    added = {n: [0, 0] for n in names}
    scores = {}
    while True:
        combos = list(itertools.product(*(axes[n] for n in names)))
        todo = [c for c in combos if c not in scores]
        if todo:
            search = GridSearchCV(est, [{n: [v] for n, v in zip(names, c)} for c in todo],
                                  cv=folds, scoring="neg_mean_squared_error", refit=False,
                                  n_jobs=1, error_score="raise")
            search.fit(rows, y)
            scores.update(zip(todo, search.cv_results_["mean_test_score"]))
        best = combos[max(range(len(combos)), key=lambda i: (scores[combos[i]], -i))]
        grew = False
        for n, v in zip(names, best):
            vals, ends = axes[n], added[n]
            if len(vals) < 2:
                continue
            if v == vals[0] and ends[0] < extensions:
                vals.insert(0, vals[0] * vals[0] / vals[1])
                ends[0] += 1
                grew = True
            elif v == vals[-1] and ends[1] < extensions:
                vals.append(vals[-1] * vals[-1] / vals[-2])
                ends[1] += 1
                grew = True
        if not grew:
            return dict(zip(names, best)), {n: tuple(e) for n, e in added.items()}


def alg_has_step(params):
    return params.get("eta", None) == "theory" or params.get("lam", None) == "theory"


def _one_run(task, child):
    """One run: split (or sample), CV on the training part, prefixes, test errors.

    Linear algebra runs on one BLAS thread: the runs are the parallel unit (``n_jobs``), and
    OpenBLAS's threads inside one eigendecomposition (the offline solvers at d = 500) made it 12
    times slower in wall time and 14 times in CPU time on a loaded 2-core machine; one thread
    also makes a run's arithmetic the same whatever ``n_jobs`` is (joblib's workers otherwise
    get fewer BLAS threads than the main process)."""
    with threadpool_limits(limits=1, user_api="blas"):
        return _one_run_body(task, child)


def _one_run_body(task, child):
    split_seed, cv_seed, learner_seed = child_seeds(child, 3)
    rng = np.random.default_rng(split_seed)
    record = {}
    if task.distribution is not None:
        X_train, y_train = task.distribution.sample(task.m_synthetic, rng)
        zero = task.distribution.risk(np.zeros(task.distribution.d), "squared")
        test = None
    else:
        n = task.X.shape[0]
        perm = rng.permutation(n)
        n_test = max(1, int(round(task.test_fraction * n)))
        test_idx, train_idx = np.sort(perm[:n_test]), perm[n_test:]
        if task.max_train is not None:        # the rest is in random order: a random subset
            train_idx = train_idx[:task.max_train]
        X_train, y_train = task.X[train_idx], task.y[train_idx]
        X_test, y_test = task.X[test_idx], task.y[test_idx]
        zero = float(np.mean(y_test ** 2))
        test = (X_test, y_test)
        if task.keep_indices:
            record["train_index"], record["test_index"] = train_idx, test_idx
    n_train = X_train.shape[0]
    moments = second_moments_of(X_train)         # "prior knowledge" (KS15 Sec. 5), train only
    kf = KFold(n_splits=task.folds, shuffle=True,
               random_state=int(cv_seed.generate_state(1)[0] >> 1))
    folds = list(kf.split(X_train))
    if task.keep_indices and test is not None:
        record["cv_folds"] = [(record["train_index"][a], record["train_index"][b])
                              for a, b in folds]
    sizes = _prefix_sizes(n_train, task.prefixes)
    data = _Rows(X_train, y_train)
    row_numbers = np.arange(n_train).reshape(-1, 1)
    def evaluate(w):
        """(relative test error, classification error) of the predictor w."""
        if test is None:
            return task.distribution.risk(w, "squared") / zero, float("nan")
        pred = test[0] @ w
        return (float(np.mean((pred - test[1]) ** 2)) / zero,
                float(np.mean(np.where(pred >= 0, 1.0, -1.0) != test[1])))

    alg_seeds = child_seeds(learner_seed, len(task.algorithms))
    out = []
    for alg, aseed in zip(task.algorithms, alg_seeds):
        cv_s, *prefix_s = child_seeds(aseed, 1 + len(sizes))
        ctx = {"k": task.k, "second_moments": moments}
        est, grid = _tunable(_with_seed(alg.build(ctx), cv_s), data, task.grid,
                             task.step_scales)
        best, _ = _search(est, grid, folds, row_numbers, data.y, task.grid_extensions)

        def prefixes(prefix_sizes):
            errs, cls, attrs = [], [], []
            for m, ps in zip(prefix_sizes, prefix_s):
                model = _OnRows(_with_seed(alg.build(ctx), ps), data, **best)
                model.fit(row_numbers[:m], data.y[:m])
                err, cl = evaluate(model.coef_)
                errs.append(err)
                cls.append(cl)
                attrs.append(float(model.n_attributes_seen_))
            return {"errors": errs, "classification": cls, "attributes": attrs,
                    "settings": estimator_settings(model.fitted_)}

        out.append({**prefixes(sizes), "tuned": best})
        if task.budget is not None and isinstance(est.estimator, _FULL_INFORMATION):
            matched = matched_sizes(sizes, task.budget, X_train.shape[1])
            out[-1]["matched"] = {"sizes": matched, **prefixes(matched)}
    if task.users:        # after the papers' learners, from a stream of their own (see below)
        user_seeds = child_seeds(child_seeds(child, _USER_STREAM + 1)[_USER_STREAM],
                                 len(task.users))
        record["users"] = [_user_run(u, s, task.k, moments, data, folds, row_numbers, sizes,
                                     task.grid_extensions, task.grid, evaluate)
                           for u, s in zip(task.users, user_seeds)]
    return {"sizes": sizes, "algorithms": out, "n_train": n_train,
            "n_test": 0 if test is None else len(test[1]), **record}


#: The child of a run's seed that users' learners draw from: the papers' learners use
#: children 0-2 (split, folds, learners), so users' learners never shift their streams, and
#: the same seed gives the papers' learners the same numbers with or without users' learners.
_USER_STREAM = 3


def _user_run(user, seq, k, moments, data, folds, row_numbers, sizes, extensions, grid,
              evaluate):
    """One run of a user's learner on a run's training part: cross-validated on the run's
    folds over :func:`_user_grid` (extended at an end as the papers' grids), then fitted on
    each prefix. Any exception of the user's code makes the run's errors NaN (infinitely bad
    in the comparisons) and is kept as the run's ``error``."""
    cv_s, *prefix_s = child_seeds(seq, 1 + len(sizes))
    est = _UserOnRows(user, data, k=k, second_moments=moments, seed=_seed_int(cv_s))
    try:
        tune = _user_grid(user, grid)
        best = _search(est, tune, folds, row_numbers, data.y, extensions)[0] if tune else {}
        errs, cls, attrs = [], [], []
        for m, ps in zip(sizes, prefix_s):
            model = clone(est).set_params(seed=_seed_int(ps), **best)
            model.fit(row_numbers[:m], data.y[:m])
            err, cl = evaluate(model.coef_)
            errs.append(err)
            cls.append(cl)
            attrs.append(model.n_attributes_seen_)
        return {"errors": errs, "classification": cls, "attributes": attrs, "tuned": best,
                "settings": estimator_settings(model.fitted_)}
    except Exception as exc:               # the user's code: any failure is a result here
        nan = [math.nan] * len(sizes)
        return {"errors": nan, "classification": nan, "attributes": nan, "tuned": {},
                "error": f"{type(exc).__name__}: {exc}"}


def learning_curves(algorithms, *, data=None, distribution=None, m=None, k, runs, prefixes,
                    folds, grid, step_scales=(1.0,), grid_extensions=0, seed=0,
                    delta=DEFAULT_DELTA, test_fraction=0.1, n_jobs=1, keep_indices=False,
                    scheduler=None, on_run=None, budget=None, max_train=None, users=()):
    """Test-error curves of ``algorithms`` over ``runs`` runs (the papers' protocol).

    On ``data`` (random splits) or ``distribution`` (``m`` examples per run, exact test risk);
    cross-validation extends the geometric grids at an end (:mod:`laocheck.experiments.papers`).

    Parameters
    ----------
    algorithms : sequence of Algorithm
        The learners.
    data : LabelledData or None, default=None
        A data set (:class:`laocheck.data.LabelledData`), split at random per run.
    distribution : Distribution or None, default=None
        A distribution, instead of ``data``.
    m : int or None, default=None
        The training examples per run from ``distribution``.
    k : int
        The budget parameter passed to ``build``.
    runs : int
        The runs, >= 2.
    prefixes : sequence of float
        The prefixes, as fractions of the training part.
    folds : int
        The cross-validation folds.
    grid : sequence of float
        The geometric grid of B.
    step_scales : sequence of float, default=(1.0,)
        The geometric grid of step multipliers
        (:class:`~laocheck.experiments.papers.StepScaled`).
    grid_extensions : int, default=0
        The values cross-validation may add at an end of a grid.
    seed : int or numpy.random.SeedSequence, default=0
        The seed.
    delta : float, default=1e-6
        The level of the intervals.
    test_fraction : float, default=0.1
        The test part of ``data``.
    n_jobs : int, default=1
        The number of joblib workers.
    keep_indices : bool, default=False
        Keep ``train_index``, ``test_index``, ``cv_folds`` in the raw records.
    scheduler : str or None, default=None
        A Dask scheduler address.
    on_run : callable or None, default=None
        Called as each run's result arrives (progress lines:
        :class:`~laocheck.experiments.papers.RunProgress`); no result depends on it.
    budget : int or None, default=None
        The attributes per example of the attribute-efficient algorithms: each full-information
        one also gets a budget-matched curve (:mod:`~laocheck.experiments.papers`).
    max_train : int or None, default=None
        With ``data``: at most this many training examples per run (a random subset of its
        training part; the test part is unchanged).
    users : sequence, default=()
        Users' learners (``UserLearner`` or ``"module:factory"`` paths), run beside the papers'
        (:mod:`laocheck.experiments.papers`); their curves follow the papers' in ``curves``.

    Returns
    -------
    curves : tuple of Curve
        One per algorithm (and per budget-matched one).
    runs_raw : list of dict
        The raw per-run records.

    Raises
    ------
    ValueError
        If not exactly one of ``data`` and ``distribution`` is given, or a size or grid is bad.
    """
    users, runs, task, upper = _learning_curves_iv(
        algorithms, users, data, distribution, m, k, runs, prefixes, folds, grid, step_scales,
        grid_extensions, test_fraction, keep_indices, budget, max_train)
    with executor(n_jobs, scheduler) as ex:            # one task per run, results in run order
        raw = ex.map(_one_run, [(ch,) for ch in child_seeds(seed, runs)], shared=(task,),
                     on_result=on_run)
    synthetic = distribution is not None
    curves = _paper_curves(algorithms, raw, k=k, upper=upper, delta=delta, synthetic=synthetic)
    return curves + _user_curves(users, raw, delta=delta, synthetic=synthetic), raw


def _learning_curves_iv(algorithms, users, data, distribution, m, k, runs, prefixes, folds,
                        grid, step_scales, grid_extensions, test_fraction, keep_indices,
                        budget, max_train):
    """:func:`learning_curves`' arguments validated: ``(users, runs, task, upper)``, the
    users' learners loaded, the validated run count, the :class:`_Task` of every run and
    ``upper(geometry)``, the proven range of one run's relative test error."""
    users = _users_iv(algorithms, users)
    runs = check_int("runs", runs, low=1)
    folds = check_int("folds", folds, low=2)
    if budget is not None:
        budget = check_int("budget", budget, low=1)
    if max_train is not None:
        max_train = check_int("max_train", max_train, low=folds)
    grid_extensions = check_int("grid_extensions", grid_extensions, low=0)
    for name, values in (("grid", grid), ("step_scales", step_scales)):
        if (len(values) == 0 or not all(np.isfinite(v) and v > 0 for v in values)
                or len(set(values)) != len(values)):
            raise InvalidParameterError(
                f"`{name}` must be a non-empty grid of distinct finite values > 0; "
                f"got {tuple(values)!r}.")
    if (data is None) == (distribution is None):
        raise InvalidParameterError("exactly one of `data` and `distribution` must be given.")
    if distribution is not None and max_train is not None:
        raise InvalidParameterError(
            f"`max_train`={max_train!r} caps a data set's training part; with `distribution` "
            "the training size is `m`.")
    design = (tuple(prefixes), folds, tuple(grid), tuple(step_scales), k, tuple(algorithms),
              keep_indices, grid_extensions, budget)
    if distribution is not None:
        m = check_int("m", m, low=folds)
        xmax, ymax, zero_min = _distribution_range(distribution)
        task = _Task(None, None, distribution, m, test_fraction, *design, users=users)
    else:
        xmax = {"l2": max_row_norm(data.X, "l2"), "l1": max_row_norm(data.X, "linf")}
        ymax = float(np.abs(data.y).max())
        # the zero predictor's error is the test mean of y², exactly 1 for ±1 labels
        zero_min = 1.0
        task = _Task(data.X, data.y, None, 0, test_fraction, *design, max_train, users)

    def upper(geometry):
        # a run's error is <= (B_max max‖x‖ + max|y|)² / (zero predictor's error)
        return (max(grid) * xmax[geometry] + ymax) ** 2 / zero_min

    return users, runs, task, upper


def _users_iv(algorithms, users):
    """The users' learners loaded (:func:`~laocheck.experiments.user_learners.load_learner`),
    each with a name that no paper learner (nor its budget-matched curve) nor another user's
    learner has."""
    users = tuple(load_learner(u) for u in users)
    taken = {a.name for a in algorithms} | {a.name + SAME_ATTRIBUTES for a in algorithms}
    for u in users:
        if u.name in taken:
            raise InvalidParameterError(
                f"`learners`: the name {u.name!r} of {u.path!r} is taken (by a paper's learner "
                "or another user's learner); give it another `name`.")
        taken.add(u.name)
    return users


def _distribution_range(distribution):
    """``(xmax, ymax, zero)`` of a distribution with exact risk: the largest ‖x‖₂ and
    ‖x‖∞ (by the geometry of a learner's ball), sup|y| and the zero predictor's risk E[y²]
    (which must be > 0: the curves are relative to it)."""
    zero = distribution.risk(np.zeros(distribution.d), "squared")
    if not zero > 0:
        raise InvalidParameterError(
            f"`distribution`={distribution.name} has E[y²] = 0 (the zero predictor is "
            "optimal); the curves are test errors relative to the zero predictor's risk "
            "E[y²], which must be > 0.")
    return {"l2": distribution.x_l2, "l1": distribution.x_linf}, distribution.y_sup, zero


def _paper_curves(algorithms, raw, *, k, upper, delta, synthetic):
    """The papers' learners' curves from the runs' raw records: one per algorithm, followed
    by its budget-matched one where the runs have it."""
    curves = []
    for a, alg in enumerate(algorithms):
        records = [r["algorithms"][a] for r in raw]
        tuned = tuple(r["tuned"] for r in records)
        common = dict(k=k, upper=upper(alg.geometry), delta=delta, synthetic=synthetic)
        curves.append(_curve_of(alg.name, alg, raw[0]["sizes"], records, tuned, False,
                                **common))
        if "matched" in records[0]:
            curves.append(_curve_of(alg.name + SAME_ATTRIBUTES, alg,
                                    records[0]["matched"]["sizes"],
                                    [r["matched"] for r in records], tuned, True, **common))
    return tuple(curves)


def _curve_of(name, alg, sizes, records, tuned, matched, *, k, upper, delta, synthetic):
    """One :class:`~laocheck.experiments.papers.Curve` of a paper's learner: the mean and
    standard deviation over runs at each prefix, and a confidence interval at ``delta`` for the
    expected relative test error on its proven range [0, ``upper``]."""
    E = np.array([r["errors"] for r in records])
    C = np.array([r["classification"] for r in records])
    A = np.array([r["attributes"] for r in records])
    lows, highs = [], []
    for p in range(E.shape[1]):
        iv = mean_interval(np.clip(E[:, p], 0, upper), lower=0.0, upper=upper, delta=delta)
        lows.append(iv.low)
        highs.append(iv.high)
    learner = alg.build({"k": k, "second_moments": np.ones(2)})
    runs = E.shape[0]
    return Curve(
        algorithm=name, learner=type(learner).__name__, citation=alg.citation,
        examples=tuple(int(s) for s in sizes), attributes=tuple(A.mean(axis=0)),
        mean=tuple(E.mean(axis=0)), sd=tuple(E.std(axis=0, ddof=1) if runs > 1
                                             else np.zeros(E.shape[1])),
        low=tuple(lows), high=tuple(highs), delta=delta,
        classification=None if synthetic else tuple(C.mean(axis=0)),
        per_run=tuple(tuple(row) for row in E),
        tuned=tuned, budget_matched=matched, settings=records[0].get("settings"))


def _user_curves(users, raw, *, delta, synthetic):
    """The users' learners' curves, after the papers' (no confidence band: a user's learner
    has no proven range of its error; the attributes it reports)."""
    curves = []
    sizes = raw[0]["sizes"]
    for i, u in enumerate(users):
        records = [r["users"][i] for r in raw]
        E = np.array([r["errors"] for r in records], dtype=float)
        nan = (math.nan,) * len(sizes)
        runs = E.shape[0]
        curves.append(Curve(
            algorithm=u.name, learner=u.path, citation="user's learner (not in the paper)",
            examples=tuple(int(s) for s in sizes),
            # Python floats: to_dict writes a NaN (a run the user's code failed) as null
            attributes=_floats(np.array([r["attributes"] for r in records]).mean(axis=0)),
            mean=_floats(E.mean(axis=0)),
            sd=_floats(E.std(axis=0, ddof=1) if runs > 1 else np.zeros(E.shape[1])),
            low=nan, high=nan, delta=delta,
            classification=(None if synthetic else _floats(
                np.array([r["classification"] for r in records]).mean(axis=0))),
            per_run=tuple(_floats(row) for row in E), tuned=tuple(r["tuned"] for r in records),
            settings=next((r["settings"] for r in records if "settings" in r), None)))
    return tuple(curves)


def _floats(values):
    return tuple(float(v) for v in values)
