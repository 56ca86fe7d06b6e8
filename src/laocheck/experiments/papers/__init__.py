"""The papers' experiments (CB11 Sec. 7, HK12 Sec. 5, KS15 Sec. 5 and App. A), recomputed.

Pure, seeded computations returning frozen dataclasses with ``to_dict()``; rendering (figures,
tables) belongs to the report layer. One function per experiment:

===============================  ==============================================================
function                         paper
===============================  ==============================================================
:func:`ks15_synthetic`           KS15 Sec. 5.1, Figs. 1-2: power-law data, d = 500, k + 1 = 5
:func:`hk12_mnist`               HK12 Sec. 5, Figs. 1-2: "3 vs 5", AELR/AER/Lasso (k = 4),
                                 AERR/AER/Ridge (k = 56)
:func:`cb11_mnist`               CB11 Sec. 7, Fig. 4 and its table over the 45 digit pairs
:func:`ks15_real`                KS15 Secs. 5.2-5.3, Figs. 3-6: "3 vs 5" (k + 1 = 57 ridge,
                                 5 lasso) and Covertype when given
:func:`ks15_adaptive`            KS15 App. A, Figs. 7-8: adaptive (AdaGrad) variants
===============================  ==============================================================

The package is laid out as a benchmark (benchopt's): the records, the effort table, the
engine and the deciders are shared, and each experiment is one module that describes it
(its learners, data, sizes, and claims as data) with the little code that is its own:

===============================  ==============================================================
module                           holds
===============================  ==============================================================
``_records``                     the result records (:class:`PaperExperiment`, :class:`Panel`,
                                 :class:`Curve`, :class:`ClaimCheck`, ...)
``_effort``                      the experiments' sizes of an effort profile
                                 (:mod:`laocheck.effort`, the one registry)
``_rows``, ``_curves``           the learning-curve engine (:func:`learning_curves`: a run's
                                 split, cross-validation, prefixes and test errors)
``_claims``                      the claim deciders (:func:`claim_order`, ...) and the power
                                 calculation (:func:`claims_design`)
``_common``, ``_ks15``           what the experiments share (one call's setting; KS15 Sec. 5's
                                 learners)
``_ks15_synthetic``, ...         one module per experiment (its name with a leading ``_``: the
                                 public name is the function, importable from here)
===============================  ==============================================================

Method, as the papers describe it (CB11 Sec. 7, HK12 Sec. 5, KS15 Sec. 5): for each run, a
random train/test split (test part 10%, CB11 Sec. 7); each algorithm's parameters (the radius
``B`` of its ball from a fixed grid and, for learners with a theory step size, a multiplier of
that step, :class:`~laocheck.experiments.papers.StepScaled`) are tuned by K-fold
cross-validation on the training part only (:class:`sklearn.model_selection.GridSearchCV` on
explicit folds of the training indices); then the algorithm is run on increasingly long prefixes
of the training part and its test error is measured. GridSearchCV splits the column of row
numbers of the training part, and each fit reads its rows from the run's one validated copy
(``_Rows``): the attribute-efficient learners through a sequential attribute oracle (only the
k + 1 attributes a step chooses; bit-identical to ``fit`` on the rows), the offline solvers from
the fold's XᵀX/m and its eigendecomposition, formed once per fold (``fit_moments``), the online
full-information learners' C loops on the fold's rows in place, and the step multiplier from
``theory_step`` without a second fit (one cross-validated run of KS15 Sec. 5.1's AERR at
``--effort full``, 10 folds × 40 configurations: 22.7 CPU s by fitting copied arrays, 7.2 this
way). On KS15 Sec. 5.1's synthetic data the test error is the exact risk of the distribution (no
test sample). Test errors are relative to the zero predictor's (KS15 Sec. 5; for ±1 labels the
zero predictor's squared error is 1, so this is CB11's and HK12's squared error up to the test
sample's mean of y², exactly 1).

Budget-matched curves. With a ``budget`` (attributes per example),
:func:`learning_curves` also gives each full-information algorithm (online and offline ridge and
lasso, AdaGrad's online ridge) a curve ``"<name> (same attributes)"`` on
:func:`matched_sizes`: the prefixes where it sees as many attributes as a learner of ``budget``
attributes per example on each prefix, with the parameters tuned for it. This is the comparison
of the papers' attribute axis (HK12 Sec. 5: "Lasso ... completes this budget after seeing merely
62 examples"; CB11 Sec. 7; KS15 Sec. 5: "compare the algorithms by the total budget they use").

Users' learners (``users`` of :func:`learning_curves`, ``learners`` of each experiment) run in
each run after the papers' on the same split (or sample), folds, prefixes and ``k``, each from
its own child seed of the run (the papers' learners' numbers do not change); cross-validated
over B on ``grid`` when the factory accepts ``B``, and over the grids its table declares, else
run as given. Their curves follow the papers', with no confidence band (a user's learner has
no proven range of its error) and the attributes the learner reports; a run whose user code
raised has NaN errors and its message in the raw record's ``users[i]["error"]``.

Every experiment takes ``progress``: None, or a callable that receives text lines as the runs
finish (a line when each panel starts, at most one a minute, and one when its last run is in;
:class:`~laocheck.experiments.papers.RunProgress`); ``laocheck report`` prints them on stderr,
so an hour-long run at ``--effort full`` shows how far it is. The results do not depend on it.

Every run r gets the child seed ``child_seeds(seed, runs)[r]`` (spawned per run, never per
worker), so the same seed gives the same numbers for any ``n_jobs`` or ``scheduler`` (the runs
are the tasks of ``laocheck._execution.executor``: joblib processes here, or a Dask cluster
at a scheduler address / ``$LAOCHECK_SCHEDULER``).

Statistics. For each curve: the mean over runs and one standard deviation (the papers' error
bars), and a betting confidence interval (:func:`laocheck.stats.mean_interval`) for the expected
test error at the stated ``delta`` on the proven range [0, (B_max·max‖x‖ + max|y|)²] of one
run's error (every learner's output lies in its ball of radius B <= B_max, so |⟨w, x⟩| <=
B_max‖x‖₂ for the L2 ball and B_max‖x‖∞ for the L1 ball), divided by the zero predictor's
error.

Claims. A qualitative claim "A performs better than B" is read on the paired runs (the same
split, sample and seeds for both learners): at every checked prefix p, the median over the
random runs of the ratio err_B / err_A of the two test errors exceeds a margin c (c = 1 for
"better"; c = ``CONSIDERABLE`` = 1.1 where the paper says "considerably", "significantly" or "a
large gap": in the typical run the worse error is at least 10% above the better one). The
figures' values are not in the papers' text, so 1.1 is a stated reading of those words, not a
number measured off a figure; each claim's interval for the median ratio is shown beside it.
Decision (:func:`laocheck.stats.paired_median_test` on D = log(err_B / err_A), runs × prefixes):
HOLDS when at every prefix the order-statistic lower bound at level δ for the median of D
exceeds log c (an intersection-union test: no split of δ over the prefixes is needed); DOES
NOT HOLD when at some prefix the upper bound at level δ/P (P prefixes, Bonferroni) is below
log c; INCONCLUSIVE otherwise. Each wrong decision has probability at most δ for every
distribution of the runs' errors: the bounds need only that the runs are independent and
identically distributed (independent child seeds), not symmetry, continuity, finite moments
or normality, so a diverging run (an infinite or huge error) is one extreme rank, never a
broken assumption. A run whose error is NaN counts as infinitely bad; two infinite errors are a
tie (ratio 1). A t-interval for the mean difference would decide more at 24 runs, but rests on
normality, which nothing guarantees this far in the tail (δ = 1e-6); a mean interval that needs
no normality needs a range, and the runs' proven range is hundreds of times the errors.

Power (:func:`laocheck.stats.sign_test_detectable`): HOLDS needs, at each prefix, more runs
with the ratio above c than the sign test's rank allows (``needed`` in each claim: all 24 of
24 at ``fast``, 68 of 90 at ``full``). If in each run P(ratio > c) >= q at every prefix, HOLDS
has probability >= 1 − P·P(Bin(R, q) < needed). The paper's visible effect: two curves whose
±1 sd error bars do not overlap have a mean gap of at least sd_A + sd_B, which is at least the
standard deviation of the paired difference whatever the correlation, so under a normal model
of the paired difference (for the design only) q >= Φ(1) = 0.841. ``full`` uses R = 90 runs
(P = 6 prefixes): q = 0.837 is decided with probability >= 0.9 (87 runs is the least that
does). ``fast`` keeps 24 runs (P = 3): only q >= 0.9986, i.e. a unanimous panel, is decided
with that power; the papers' 10 runs can decide nothing at δ = 1e-6 (2^−10 > δ). Each claim
states its R, ``needed`` and ``detectable`` (the q decided with probability 0.9).
"A converges towards B" is read as: the median over runs of |err_A − err_B| at the first prefix
divided by |err_A − err_B| at the last prefix exceeds 1, decided the same way at one point.
"""

from __future__ import annotations

# the package's public names live in its modules (laid out above) and are imported from here
from ._cb11_mnist import cb11_mnist
from ._claims import (CONSIDERABLE, DOES_NOT_HOLD, HOLDS, INCONCLUSIVE, POWER, claim_better,
                      claim_converges, claim_order, claims_design)
from ._curves import RunProgress, alg_has_step, grid_limits, learning_curves, matched_sizes
from ._effort import budgets as _budgets
from ._hk12_mnist import hk12_mnist
from ._ks15_adaptive import ks15_adaptive
from ._ks15_real import ks15_real
from ._ks15_synthetic import ks15_synthetic
from ._records import (SAME_ATTRIBUTES, Algorithm, ClaimCheck, Curve, Panel, PaperExperiment,
                       PrintedNumber, UserComparison)
from ._rows import StepScaled

__all__ = ["Algorithm", "Curve", "ClaimCheck", "PrintedNumber", "Panel", "PaperExperiment",
           "UserComparison",
           "StepScaled", "RunProgress", "SAME_ATTRIBUTES", "CONSIDERABLE", "POWER",
           "claims_design",
           "matched_sizes",
           "learning_curves", "claim_order", "grid_limits", "claim_better", "claim_converges",
           "ks15_synthetic", "hk12_mnist", "cb11_mnist", "ks15_real", "ks15_adaptive", "EXPERIMENTS"]


# the public classes are laocheck.experiments.papers.<name> (their documented, pickled and
# canonical name, as before the package), whichever module of it defines them (numpy's
# ``set_module``)
for _cls in (Algorithm, Curve, ClaimCheck, PrintedNumber, Panel, UserComparison,
             PaperExperiment, StepScaled, RunProgress):
    _cls.__module__ = __name__
del _cls

#: The five experiments by name (the report specs' ``experiment`` key).
EXPERIMENTS = {"ks15_synthetic": ks15_synthetic, "hk12_mnist": hk12_mnist,
               "cb11_mnist": cb11_mnist, "ks15_real": ks15_real, "ks15_adaptive": ks15_adaptive}


def __getattr__(name):
    if name == "BUDGETS":           # deprecated since 0.1 (warns): laocheck.effort's profiles
        return _budgets()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
