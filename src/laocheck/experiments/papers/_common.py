"""What the five paper experiments share: one call's setting (:class:`Experiment`: its effort
profile, level, workers, progress and users' learners, which runs the learning curves of each
panel and assembles the result), the data (:func:`_digits_pair`, :func:`_rhos`), the shared
parts of their docstrings (:func:`_experiment_doc`) and the reasons given for the claims that
are not decided over the runs.
"""

from __future__ import annotations

import time

from ..._validation import check_int
from ...bounds import rho_lasso, rho_ridge
from ...data import digit_source, mean_squares, scale_to_unit_ball
from ...stats import DEFAULT_DELTA
from ..user_learners import load_learner
from ._claims import _user_part, claims_design
from ._curves import RunProgress, learning_curves
from ._effort import sizes
from ._records import Panel, PaperExperiment

__all__ = ["Experiment"]


class Experiment:
    """One call of a paper experiment: its effort profile (a copy, with ``runs`` and the
    synthetic ``m`` when given), level ``delta``, workers, progress and users' learners,
    validated before any run.

    :meth:`curves` runs one panel's learning curves with them (every panel of an experiment
    the same way), :meth:`split_users` separates the users' curves and compares them,
    :meth:`panel` and :meth:`finish` assemble the result.

    Parameters
    ----------
    name : str
        The experiment's name.
    citation : str
        The paper's section and figures.
    effort : Effort
        The effort profile (:mod:`laocheck.effort`).
    seed : int or numpy.random.SeedSequence
        The seed.
    delta : float
        The level of the intervals and the claims.
    n_jobs : int
        The number of joblib workers.
    scheduler : str or None
        A Dask scheduler address.
    runs : int or None
        The runs per panel, >= 2 (None: the profile's).
    progress : callable or None
        ``progress(text)`` for progress lines.
    learners : sequence
        Users' learners.
    m : int or None, default=None
        The training examples per run of synthetic data (None: the profile's).
    """

    def __init__(self, name, citation, effort, seed, *, delta, n_jobs, scheduler, runs,
                 progress, learners, m=None):
        self.t0 = time.perf_counter()
        self.name, self.citation, self.effort, self.seed = name, citation, effort, seed
        self.delta, self.n_jobs, self.scheduler = delta, n_jobs, scheduler
        self.users = _users(learners)
        self.cfg = sizes(effort)
        if runs is not None:
            self.cfg["runs"] = check_int("runs", runs, low=2)
        if m is not None:
            self.cfg["synthetic_m"] = check_int("m", m, low=self.cfg["folds"])
        self.track = RunProgress(progress)

    def curves(self, algorithms, stage, *, seed, k, data=None, distribution=None, users=True,
               **options):
        """:func:`~laocheck.experiments.papers.learning_curves` of one panel on ``data`` (with
        the profile's ``max_train``) or ``distribution`` (with its ``synthetic_m``), with the
        profile's runs, prefixes, folds and grids, the users' learners (unless ``users`` is
        False) and progress lines under ``stage``; ``options`` override any of these."""
        cfg = self.cfg
        kw = dict(runs=cfg["runs"], prefixes=cfg["prefixes"], folds=cfg["folds"],
                  grid=cfg["grid"], step_scales=cfg["step_scales"],
                  grid_extensions=cfg["grid_extensions"], delta=self.delta,
                  n_jobs=self.n_jobs, scheduler=self.scheduler)
        if data is not None:
            kw.update(data=data, max_train=cfg["max_train"])
        else:
            kw.update(distribution=distribution, m=cfg["synthetic_m"])
        if users:
            kw["users"] = self.users
        kw.update(options)
        if "on_run" not in kw:
            kw["on_run"] = self.track.stage(stage, kw["runs"])
        return learning_curves(algorithms, seed=seed, k=k, **kw)

    def split_users(self, curves, raw, *, source, stand_in):
        """``(paper_curves, panel_fields)``: the users' curves apart, each compared with each
        paper learner of the panel (:func:`_user_part`)."""
        return _user_part(curves, raw, self.users, source=source, stand_in=stand_in,
                          delta=self.delta)

    @staticmethod
    def panel(figure, title, data_source, stand_in, preprocessing, d, raw, budget_text, X,
              curves, **users):
        """A :class:`~laocheck.experiments.papers.Panel` on a data set (ρ of its rows ``X``,
        sizes from the first run's ``raw`` record)."""
        rr, rl = _rhos(X)
        return Panel(figure=figure, title=title, source=data_source, stand_in=stand_in,
                     preprocessing=preprocessing, d=int(d), n_train=int(raw[0]["n_train"]),
                     n_test=int(raw[0]["n_test"]), attributes_per_example=budget_text,
                     rho_ridge=rr, rho_lasso=rl, curves=curves, **users)

    def finish(self, panels, numbers, claims, notes, *, unavailable=(), unchecked=()):
        """The :class:`~laocheck.experiments.papers.PaperExperiment`, with how it was run."""
        cfg, users = self.cfg, self.users
        return PaperExperiment(
            experiment=self.name, citation=self.citation, effort=self.effort.name,
            seed=int(self.seed), runs=cfg["runs"], folds=cfg["folds"], grid=tuple(cfg["grid"]),
            step_scales=tuple(cfg["step_scales"]), grid_extensions=cfg["grid_extensions"],
            panels=tuple(panels), numbers=tuple(numbers), claims=tuple(claims),
            unavailable=tuple(unavailable), notes=notes, seconds=time.perf_counter() - self.t0,
            unchecked=tuple(unchecked),
            # the cap was applied only if a panel was fitted on a data set (synthetic panels
            # have an exact test risk and no test part)
            max_train=cfg["max_train"] if any(p.n_test for p in panels) else None,
            claims_design=claims_design(cfg["runs"], len(cfg["prefixes"]),
                                        claims[0].delta if claims else DEFAULT_DELTA),
            user_learners=tuple({"name": u.name, "factory": u.path, "params": dict(u.params),
                                 "grid": dict(u.grid)} for u in users))


def _users(learners):
    """The users' learners of an experiment (``learners``: :class:`laocheck.experiments.
    user_learners.UserLearner`, paths or tables), validated before any run."""
    return tuple(load_learner(u) for u in learners or ())


def _stand_in(data):
    return not data.is_mnist


def _rhos(X):
    mom = mean_squares(X)      # second_moments_of(X), by blocks: no temporary of X's size
    return float(rho_ridge(mom)), float(rho_lasso(mom))


def _digits_pair(source, mnist, negative=3, positive=5, scale=None, lazy=False):
    digits = digit_source(source, mnist=mnist)
    pair = digits.pair(negative, positive, lazy=lazy)
    if scale is not None:
        pair, _ = scale_to_unit_ball(pair, scale)
    return digits, pair


#: why a claim of similarity is not decided over the runs
_NO_MARGIN = ("a claim of similarity; the paper gives no margin, and a test of equivalence "
              "needs one, so it is not decided here")
#: why a claim about standard deviations is not decided over the runs
_VARIABILITY = ("a claim about the spread over runs; each curve shows its standard deviation "
                "(the error bars), but no test of an ordering of variances is made")


#: the Parameters, Returns and Raises entries the five paper experiments share, substituted
#: for ``%(name)s`` in their docstrings by :func:`_experiment_doc`
_EXPERIMENT_DOC = {
    "head": """effort : Effort or str, default="fast"
        The effort profile (:mod:`laocheck.effort`: ``"tiny"``, ``"fast"``, ``"full"`` or a
        registered one) or its name: the runs, prefixes and grids (``laocheck report
        --effort``).
    seed : int, default=0
        The seed.
    delta : float, default=1e-6
        The level of the intervals and the claims.""",
    "data": """source : str or None, default=None
        The digit data set (:func:`laocheck.data.digit_source`; None: the first available).
    mnist : str, os.PathLike or None, default=None
        The directory of MNIST's IDX files.""",
    "run": """n_jobs : int, default=1
        The number of joblib workers.
    scheduler : str or None, default=None
        A Dask scheduler address.
    runs : int or None, default=None
        The runs per panel, >= 2 (None: the profile's).""",
    "tail": """progress : callable or None, default=None
        ``progress(text)`` for progress lines (:class:`~laocheck.experiments.papers.RunProgress`).
    learners : sequence, default=()
        Users' learners (``"module:factory"`` paths, ``[[learners]]`` tables or
        ``laocheck.experiments.user_learners.UserLearner``), run beside the papers' on every
        panel (:func:`learning_curves`' ``users``) and compared with each of them
        (:class:`~laocheck.experiments.papers.UserComparison`); the paper's claims are not
        applied to them.
    budget : str, optional
        Deprecated spelling of ``effort`` (a :class:`DeprecationWarning`).

    Returns
    -------
    PaperExperiment
        The panels, printed numbers and claims, with how it was run.

    Raises
    ------
    ValueError
        If ``effort``, ``runs`` or another argument is invalid.
    SourceUnavailable
        If a data source that was asked for is missing.""",
}


def _experiment_doc(func):
    """``func`` with the shared entries of :data:`_EXPERIMENT_DOC` put into its docstring."""
    doc = func.__doc__
    for key, text in _EXPERIMENT_DOC.items():
        doc = doc.replace(f"%({key})s", text)
    func.__doc__ = doc
    return func
