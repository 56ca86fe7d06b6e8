"""CB11 Sec. 7: Fig. 4 on "3 vs 5" and the table of median test errors over the 45 digit pairs.

The description: the learners (:data:`ALGORITHMS`, k = 4), Fig. 4's claims (:data:`CLAIMS`),
the table's printed medians (:data:`PRINTED_SQUARED`, :data:`PRINTED_CLASSIFICATION`) and the
claims not decided over the runs (:data:`UNCHECKED`); the table's runs (:func:`_table`) are
the code of its own.
"""

from __future__ import annotations

import numpy as np

from ...effort import NOVALUE, resolve
from ...learners import AER, Baseline, OfflineLasso, OfflineRidge
from ...stats import DEFAULT_DELTA
from .._runs import child_seeds
from ._claims import CONSIDERABLE, Claim
from ._common import _NO_MARGIN, Experiment, _digits_pair, _experiment_doc, _stand_in
from ._records import SAME_ATTRIBUTES, Algorithm, PrintedNumber

__all__ = ["cb11_mnist"]

#: CB11 Sec. 7's learners: the full-information Ridge and Lasso, AER and Baseline with k = 4
ALGORITHMS = (
    Algorithm("Ridge", lambda c: OfflineRidge(), "full information (CB11 Sec. 7)"),
    Algorithm("Lasso", lambda c: OfflineLasso(tol=1e-5), "full information (CB11 Sec. 7)",
              geometry="l1"),
    Algorithm("AER", lambda c: AER(k=4), "CB11 Fig. 2, k = 4", geometry="l1"),
    Algorithm("Baseline", lambda c: Baseline(k=4), "CB11 Fig. 1, k = 4", geometry="l1"))

#: the claims of CB11 Fig. 4
CLAIMS = (
    Claim.better("AER", "Baseline", "Baseline performs worse than AER", "CB11 Sec. 7, Fig. 4"),
    Claim((("AER",), ("Baseline", "Lasso" + SAME_ATTRIBUTES)),
          "for a given attribute budget, AER is significantly better than the other "
          "1-norm-based algorithms (Baseline and Lasso)", "CB11 Sec. 7, Fig. 4 (bottom)",
          margin=CONSIDERABLE),
    Claim((("Ridge" + SAME_ATTRIBUTES,), ("AER", "Baseline", "Lasso" + SAME_ATTRIBUTES)),
          "ridge regression performs best on this data set (for a given attribute budget)",
          "CB11 Sec. 7, Fig. 4 (bottom)"))

#: the table's median test squared errors over the 45 pairs
PRINTED_SQUARED = {"Ridge": "0.110", "Lasso": "0.222", "AER": "0.320", "Baseline": "0.812"}
#: the median classification errors the text quotes
PRINTED_CLASSIFICATION = {"AER": "3.5%", "Lasso": "1.1%", "Ridge": "1.3%"}

#: the claims of the text not decided over the runs
UNCHECKED = (
    "The Baseline algorithm is highly unstable at the beginning ..., although it eventually "
    "stabilizes (CB11 Sec. 7, Fig. 4): a description of one curve's spread over runs; "
    "its error bars show it, and no test of a change of variance is made.",
    "AER is even comparable to the full information 2-norm-based ridge regression "
    "algorithm (CB11 Sec. 7, Fig. 4): " + _NO_MARGIN + ".",
    "the AER algorithm manages to achieve good performance, not much worse than the full "
    "information Lasso algorithm (CB11 Sec. 7, table): " + _NO_MARGIN + "; the medians "
    "are in the table of printed numbers.",
    "AER ... usually performs only a little worse than the full information algorithms "
    "(classification error; CB11 Sec. 7): " + _NO_MARGIN + "; the medians are in the "
    "table of printed numbers.")

#: the 45 digit pairs of the table
ALL_PAIRS = tuple((a, b) for a in range(10) for b in range(a + 1, 10))


@_experiment_doc
def cb11_mnist(*, effort="fast", seed=0, delta=DEFAULT_DELTA, source=None, mnist=None,
               n_jobs=1, scheduler=None, runs=None, pairs=None, progress=None, learners=(),
               budget=NOVALUE):
    """CB11 Sec. 7: Fig. 4 and the table of median test squared errors over the 45 digit pairs.

    Fig. 4: Ridge, Lasso, AER, Baseline on "3 vs 5", k = 4, against examples and attributes.
    The table: median test squared errors (0.110, 0.222, 0.320, 0.812) with the median
    classification errors the text quotes (AER 3.5%, Lasso 1.1%, Ridge 1.3%).

    Parameters
    ----------
    %(head)s
    %(data)s
    %(run)s
    pairs : sequence of tuple or None, default=None
        A subset of the 45 digit pairs (None: all).
    %(tail)s
    """
    effort = resolve(effort, budget=budget)
    exp = Experiment("cb11_mnist", "CB11 Sec. 7, Fig. 4 and table", effort, seed, delta=delta,
                     n_jobs=n_jobs, scheduler=scheduler, runs=runs, progress=progress,
                     learners=learners)
    digits, pair = _digits_pair(source, mnist)
    stand = _stand_in(pair)
    s_fig, s_tab = child_seeds(seed, 2)
    curves, raw = exp.curves(ALGORITHMS, "CB11 Fig. 4 (3 vs 5)", data=pair, k=4, seed=s_fig,
                             budget=4)
    curves, mine = exp.split_users(curves, raw, source=pair.source, stand_in=stand)
    panels = [exp.panel("CB11 Fig. 4", "Ridge, Lasso, AER, Baseline on 3 vs 5", pair.source,
                        stand, pair.preprocessing, pair.d, raw,
                        "AER, Baseline k = 4; Ridge, Lasso all", pair.X, curves, **mine)]
    same = dict(source=pair.source, stand_in=stand, delta=delta)
    claims = [c.decide(curves, **same) for c in CLAIMS]
    all_pairs = ALL_PAIRS if pairs is None else [tuple(p) for p in pairs]
    numbers = _table(exp, digits, all_pairs, s_tab, stand)
    notes = ("CB11's loss is (<w, x> - y)^2 (no 1/2); relative to the zero predictor's error, "
             "which is exactly 1 for +-1 labels. Pixels in [0, 1].")
    return exp.finish(panels, numbers, claims, notes, unchecked=UNCHECKED)


def _table(exp, digits, all_pairs, seed, stand):
    """CB11 Sec. 7's table: each learner's test errors on the whole training part of every
    pair (the profile's ``pair_runs`` runs, ``pair_folds`` folds, intervals at δ split over
    pairs × learners), as printed numbers: the medians over pairs beside the printed ones."""
    cfg = exp.cfg
    seeds = child_seeds(seed, len(all_pairs))
    per_pair = {al.name: [] for al in ALGORITHMS}
    per_pair_cls = {al.name: [] for al in ALGORITHMS}
    per_pair_iv = {al.name: [] for al in ALGORITHMS}
    delta_pair = exp.delta / (len(all_pairs) * len(ALGORITHMS))
    on_pair_run = exp.track.stage(f"CB11 table ({len(all_pairs)} digit pairs)",
                                  len(all_pairs) * cfg["pair_runs"])
    for (a, b), ps in zip(all_pairs, seeds):
        cs, _ = exp.curves(ALGORITHMS, None, data=digits.pair(a, b), k=4, seed=ps, users=False,
                           runs=cfg["pair_runs"], prefixes=(1.0,), folds=cfg["pair_folds"],
                           delta=delta_pair, on_run=on_pair_run)
        for c in cs:
            per_pair[c.algorithm].append(c.mean[-1])
            per_pair_cls[c.algorithm].append(c.classification[-1])
            per_pair_iv[c.algorithm].append((c.low[-1], c.high[-1]))
    src = f"{digits.source}, {len(all_pairs)} digit pairs"
    return _squared(per_pair, per_pair_iv, src, stand, exp, len(all_pairs)) + _classification(
        per_pair_cls, src, stand)


def _squared(per_pair, per_pair_iv, src, stand, exp, n_pairs):
    """The medians over pairs of the test squared errors, with the medians of the per-pair
    intervals (a union bound over pairs × learners)."""
    numbers = []
    for name in PRINTED_SQUARED:
        ivs = np.array(per_pair_iv[name])
        numbers.append(PrintedNumber(
            quantity=f"median over digit pairs of the test squared error, {name}",
            citation="CB11 Sec. 7, table", paper_says=PRINTED_SQUARED[name],
            measured=float(np.median(per_pair[name])), low=float(np.median(ivs[:, 0])),
            high=float(np.median(ivs[:, 1])), delta=exp.delta, source=src, stand_in=stand,
            note=(f"{exp.cfg['pair_runs']} runs per pair; interval: medians of per-pair "
                  f"intervals at delta/{n_pairs * len(ALGORITHMS)} (union bound; the median is "
                  "monotone)")))
    return numbers


def _classification(per_pair_cls, src, stand):
    """The medians over pairs of the test classification errors (the text's percentages)."""
    return [PrintedNumber(
        quantity=f"median over digit pairs of the test classification error, {name}",
        citation="CB11 Sec. 7", paper_says=text, measured=float(np.median(per_pair_cls[name])),
        low=float(np.min(per_pair_cls[name])), high=float(np.max(per_pair_cls[name])),
        delta=float("nan"), source=src, stand_in=stand,
        note="low/high: the smallest and largest pair (no interval)")
        for name, text in PRINTED_CLASSIFICATION.items()]
