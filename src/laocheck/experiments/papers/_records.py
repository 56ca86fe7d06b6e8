"""The result records of the papers' experiments: frozen dataclasses with ``to_dict()``.

:class:`~laocheck.experiments.papers.PaperExperiment` holds an experiment's
:class:`~laocheck.experiments.papers.Panel` s (each with its
:class:`~laocheck.experiments.papers.Curve` s), its
:class:`~laocheck.experiments.papers.PrintedNumber` s and its decided
:class:`~laocheck.experiments.papers.ClaimCheck` s; ``to_dict()`` gives the JSON the reports
write (a non-finite float as ``None``, ``"inf"`` or ``"-inf"``).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

__all__ = ["Algorithm", "Curve", "ClaimCheck", "PrintedNumber", "Panel", "UserComparison",
           "PaperExperiment", "SAME_ATTRIBUTES"]

class _Dict:
    def to_dict(self):
        return _plain(asdict(self))


def _plain(obj):
    if isinstance(obj, dict):
        return {k: _plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_plain(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return _plain(obj.tolist())
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    if isinstance(obj, float) and not math.isfinite(obj):
        return None if math.isnan(obj) else ("inf" if obj > 0 else "-inf")
    return obj


@dataclass(frozen=True)
class Algorithm:
    """A named learner of an experiment.

    Parameters
    ----------
    name : str
        The name in the figure.
    build : object
        ``build(ctx)`` returns an unfitted scikit-learn estimator (ctx: ``k``,
        ``second_moments`` of the training part, ``random_state``).
    citation : str
        The paper's box.
    geometry : str, default='l2'
        The ball of its output: ``"l2"`` (‖w‖₂ <= B, so |⟨w, x⟩| <= B‖x‖₂) or ``"l1"`` (‖w‖₁
        <= B, so |⟨w, x⟩| <= B‖x‖∞).
    """

    name: str
    build: object
    citation: str
    geometry: str = "l2"


@dataclass(frozen=True)
class Curve(_Dict):
    """Test error of one algorithm on increasing prefixes (one entry per prefix).

    Parameters
    ----------
    algorithm : str
        The algorithm's name in the figure.
    learner : str
        The learner class's name.
    citation : str
        The paper's box.
    examples : tuple
        The prefix sizes.
    attributes : tuple
        The mean attributes seen (the x-axis of KS15 and HK12's figures).
    mean : tuple
        The mean relative test error over runs (the papers' curve).
    sd : tuple
        Its standard deviation over runs (the papers' error bars).
    low : tuple
        The lower end of the confidence interval for the expected relative test error at
        ``delta``.
    high : tuple
        The upper end.
    delta : float
        The level of the intervals.
    classification : tuple or None
        The mean test classification error (sign(⟨w, x⟩) ≠ y; None on synthetic data).
    per_run : tuple
        Runs × prefixes relative errors.
    tuned : tuple
        The chosen parameters per run (``B``, and ``step_scale`` for learners with a theory
        step).
    budget_matched : bool, default=False
        Whether this is a full-information algorithm run on the prefixes where it sees as
        many attributes as the panel's attribute-efficient learners on theirs
        (:func:`learning_curves`'s ``budget``; named ``"<algorithm> (same attributes)"``).
    settings : dict or None, default=None
        The learner's settings in the first run at its largest prefix, with its tuned
        parameters (:func:`laocheck.experiments.estimator_settings`: ``class``, ``params``,
        ``fitted``); None where no run fitted it.
    """

    algorithm: str
    learner: str
    citation: str
    examples: tuple
    attributes: tuple
    mean: tuple
    sd: tuple
    low: tuple
    high: tuple
    delta: float
    classification: tuple | None
    per_run: tuple
    tuned: tuple
    budget_matched: bool = False
    settings: dict | None = None


#: suffix of a full-information algorithm's budget-matched curve (:func:`learning_curves`)
SAME_ATTRIBUTES = " (same attributes)"


@dataclass(frozen=True)
class ClaimCheck(_Dict):
    """A qualitative claim of a paper, decided over paired runs
    (:mod:`laocheck.experiments.papers`).

    Parameters
    ----------
    claim : str
        The claim, as the paper words it.
    citation : str
        Where the paper makes it.
    formal : str
        The event decided, formally.
    status : str
        ``HOLDS``, ``REFUTED`` or ``UNDECIDED``.
    delta : float
        The level of the decision.
    runs : int
        The paired runs.
    counts : tuple
        Per check point p, the runs where the claim's event held by the margin (the ratio of
        errors above ``margin``).
    low : tuple
        Per check point, the lower confidence bound at level δ on the median over runs of
        that ratio (:func:`laocheck.stats.paired_median_test`).
    high : tuple
        Per check point, the upper bound at level δ/P on that median (inf where the runs
        cannot bound it).
    source : str
        The data set.
    stand_in : bool
        Whether the data set stands in for the paper's.
    margin : float, default=1.0
        The ratio the event needs.
    needed : int or None, default=None
        The runs above the margin a check point needs for HOLDS (None: ``runs`` runs can
        never decide at δ).
    detectable : float, default=nan
        The probability q = P(ratio > margin) in one run, at every check point, decided
        HOLDS with probability ``POWER`` (nan: none).
    statistic : str, default=''
        The statistic's description.
    """

    claim: str
    citation: str
    formal: str
    status: str
    delta: float
    runs: int
    counts: tuple
    low: tuple
    high: tuple
    source: str
    stand_in: bool
    margin: float = 1.0
    needed: int | None = None
    detectable: float = math.nan
    statistic: str = ""


@dataclass(frozen=True)
class PrintedNumber(_Dict):
    """A number the paper prints beside what laocheck measures.

    Parameters
    ----------
    quantity : str
        What the number is.
    citation : str
        Where the paper prints it.
    paper_says : str
        The number as printed.
    measured : float
        The number measured.
    low : float
        The lower end of its interval at ``delta``.
    high : float
        The upper end.
    delta : float
        The level (0: exact for the data set used).
    source : str
        The data set it was measured on.
    stand_in : bool
        True when that source is not the paper's data set: then the two are not comparable.
    note : str, default=''
        A remark for the report.
    """

    quantity: str
    citation: str
    paper_says: str
    measured: float
    low: float
    high: float
    delta: float
    source: str
    stand_in: bool
    note: str = ""


@dataclass(frozen=True)
class Panel(_Dict):
    """One figure panel: its curves on one data set, with the data set's ρ (KS15 eqs. (11), (12)).

    Parameters
    ----------
    figure : str
        The paper's figure.
    title : str
        The panel's title.
    source : str
        The data set.
    stand_in : bool
        Whether the data set stands in for the paper's.
    preprocessing : str
        How the data were scaled.
    d : int
        The dimension.
    n_train : int
        The training examples.
    n_test : int
        The test examples.
    attributes_per_example : str
        The budgets of the learners, as text.
    rho_ridge : float
        The ρ_ridge of the data set (KS15 eq. (11)).
    rho_lasso : float
        The ρ_lasso of the data set (KS15 eq. (12)).
    curves : tuple
        The curves (:class:`Curve`).
    user_curves : tuple, default=()
        The curves of users' learners (:class:`Curve`), in the order they were given.
    user_comparisons : tuple, default=()
        Each user's learner against each paper learner of the panel (:class:`~laocheck.experiments.papers.UserComparison`).
    user_errors : tuple, default=()
        The messages of runs whose user code raised (their errors are NaN).
    """

    figure: str
    title: str
    source: str
    stand_in: bool
    preprocessing: str
    d: int
    n_train: int
    n_test: int
    attributes_per_example: str
    rho_ridge: float
    rho_lasso: float
    curves: tuple
    user_curves: tuple = ()
    user_comparisons: tuple = ()
    user_errors: tuple = ()


@dataclass(frozen=True)
class UserComparison(_Dict):
    """A user's learner against one paper learner of a panel, on the paired runs (the same
    splits, folds and prefixes), decided as the papers' claims (:func:`claim_better`):
    ``better`` is "the user's learner performs better than the paper's", ``worse`` the
    converse; ``decision`` is "better" or "worse" when that one HOLDS, else "not separated".

    Parameters
    ----------
    user : str
        The user's learner's name.
    paper_learner : str
        The paper learner's name.
    decision : str
        ``"better"``, ``"worse"`` or ``"not separated"``.
    better : ClaimCheck
        The claim "the user's learner performs better than the paper's", decided.
    worse : ClaimCheck
        The converse claim, decided.
    """

    user: str
    paper_learner: str
    decision: str
    better: ClaimCheck
    worse: ClaimCheck


@dataclass(frozen=True)
class PaperExperiment(_Dict):
    """One experiment of a paper: its panels, printed numbers, claims, and how it was run.

    Parameters
    ----------
    experiment : str
        The experiment's name.
    citation : str
        The paper's section and figures.
    effort : str
        The name of the effort profile it ran at (:mod:`laocheck.effort`).
    seed : int
        The seed.
    runs : int
        The runs per panel.
    folds : int
        The cross-validation folds.
    grid : tuple
        The grid of B.
    step_scales : tuple
        The grid of step multipliers.
    grid_extensions : int
        The values cross-validation may add at an end of a grid.
    panels : tuple
        The figure panels (:class:`Panel`).
    numbers : tuple
        The printed numbers (:class:`PrintedNumber`).
    claims : tuple
        The decided claims (:class:`ClaimCheck`).
    unavailable : tuple
        Parts that could not run here (a missing data source or learner), with the reason.
    notes : str
        Notes for the report.
    seconds : float
        The wall-clock time of the computation.
    unchecked : tuple, default=()
        Qualitative claims of the text not decided over the runs, each ``"claim (citation):
        reason"`` (e.g. "similar" with no margin).
    max_train : int or None, default=None
        The profile's cap on a run's training examples from a data set (None: the whole
        training part).
    claims_design : dict or None, default=None
        How the claims were decided and the power of the profile's run count
        (:func:`~laocheck.experiments.papers.claims_design`).
    user_learners : tuple, default=()
        The users' learners that ran beside the papers' (their paths and names); the paper's
        claims are not applied to them.
    """

    experiment: str
    citation: str
    effort: str
    seed: int
    runs: int
    folds: int
    grid: tuple
    step_scales: tuple
    grid_extensions: int
    panels: tuple
    numbers: tuple
    claims: tuple
    unavailable: tuple
    notes: str
    seconds: float
    unchecked: tuple = ()
    max_train: int | None = None
    claims_design: dict | None = None
    user_learners: tuple = ()

    def to_dict(self):
        """JSON-ready; without users' learners, the users' keys are left out (the document
        is then the one laocheck wrote before users' learners could be added)."""
        out = super().to_dict()
        if not self.user_learners:
            del out["user_learners"]
            for panel in out["panels"]:
                for key in _USER_PANEL_KEYS:
                    if not panel[key]:
                        del panel[key]
        return out


_USER_PANEL_KEYS = ("user_curves", "user_comparisons", "user_errors")

