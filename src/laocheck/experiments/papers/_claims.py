"""The claim deciders: a paper's qualitative claim decided over paired runs.

:func:`~laocheck.experiments.papers.claim_order` (and its cases
:func:`~laocheck.experiments.papers.claim_better`,
:func:`~laocheck.experiments.papers.claim_converges`) decide a claim on the per-run errors of
one panel's curves by the paired median test of :mod:`laocheck.experiments.papers` (Claims,
Power); :class:`Claim` is a claim written as data, which an experiment module lists and
decides on its panel's curves; :func:`~laocheck.experiments.papers.claims_design` is the
power calculation of the effort profiles.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..._validation import check_real
from ...exceptions import InvalidParameterError
from ...stats import (DEFAULT_DELTA, paired_median_test, sign_test_detectable, sign_test_runs,
                      win_probability)
from ...effort import get_profile
from ._records import ClaimCheck, UserComparison

__all__ = ["HOLDS", "DOES_NOT_HOLD", "INCONCLUSIVE", "CONSIDERABLE", "POWER", "Claim",
           "claim_better", "claim_order", "claim_converges", "claims_design"]

#: the three decisions of a claim (:class:`~laocheck.experiments.papers.ClaimCheck`'s ``status``)
HOLDS, DOES_NOT_HOLD, INCONCLUSIVE = "HOLDS", "DOES NOT HOLD", "INCONCLUSIVE"

#: the margin c of a claim the paper words "considerably", "significantly" or "a large gap":
#: the median ratio of the worse test error to the better one exceeds 1.1
#: (:mod:`laocheck.experiments.papers`)
CONSIDERABLE = 1.1
#: the power the profiles' run counts are designed for: a claim with the paper's visible effect
#: is decided HOLDS with probability at least POWER (:mod:`laocheck.experiments.papers`)
POWER = 0.9


def _log_ratio(worse, better):
    """log(worse / better) of paired test errors (arrays of one shape): a NaN error (a failed
    run) counts as infinitely bad, and two infinite (or two zero) errors are a tie (0)."""
    worse = np.where(np.isnan(worse), np.inf, np.asarray(worse, dtype=float))
    better = np.where(np.isnan(better), np.inf, np.asarray(better, dtype=float))
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.log(worse) - np.log(better)
    return np.where(np.isnan(out), 0.0, out)


def _decide(D, margin, delta):
    """(status, test) of "the median of D (runs × points) exceeds log(margin) at every point"
    (:func:`laocheck.stats.paired_median_test`)."""
    test = paired_median_test(D, threshold=math.log(margin), delta=delta)
    status = {"above": HOLDS, "below": DOES_NOT_HOLD}.get(test.decision, INCONCLUSIVE)
    return status, test


def _claim(D, margin, delta, **fields):
    status, t = _decide(D, margin, delta)
    return ClaimCheck(status=status, delta=delta, runs=t.runs, counts=t.counts,
                      low=tuple(math.exp(v) for v in t.low),
                      high=tuple(math.exp(v) for v in t.high), margin=float(margin),
                      needed=t.needed,
                      detectable=sign_test_detectable(t.runs, delta=delta, points=t.points,
                                                      beta=1 - POWER), **fields)


def _margin_iv(margin):
    return check_real("margin", margin, low=1.0,
                      rule=f"a ratio of errors: 1 for better, {CONSIDERABLE} for considerably "
                           "better")


def _curve(curves, name):
    for c in curves:
        if c.algorithm == name:
            return c
    raise InvalidParameterError(f"`curves` has no algorithm {name!r}; "
                                f"got {[c.algorithm for c in curves]}.")


def claim_better(curves, better, worse, *, claim, citation, source, stand_in,
                 delta=DEFAULT_DELTA, points=None, margin=1.0):
    """Decide "``better`` performs better than ``worse``" (by the ratio ``margin``).

    At every prefix (or the prefixes of index ``points``), the median over runs of
    err_worse / err_better exceeds ``margin`` (:mod:`laocheck.experiments.papers`), from the
    paired runs of ``curves``.

    Parameters
    ----------
    curves : sequence of Curve
        The curves of one panel (paired runs).
    better : str
        The algorithm claimed better.
    worse : str
        The algorithm claimed worse.
    claim : str
        The claim, as the paper words it.
    citation : str
        Where the paper makes it.
    source : str
        The data set.
    stand_in : bool
        Whether the data set stands in for the paper's.
    delta : float, default=1e-6
        The level of the decision.
    points : sequence of int or None, default=None
        The prefixes checked (None: all).
    margin : float, default=1.0
        The ratio the event needs.

    Returns
    -------
    ClaimCheck
        The decision.

    Raises
    ------
    ValueError
        If an algorithm is not among the curves.
    """
    return claim_order(curves, ([better], [worse]), claim=claim, citation=citation,
                       source=source, stand_in=stand_in, delta=delta, points=points,
                       margin=margin)


def claim_order(curves, groups, *, claim, citation, source, stand_in, delta=DEFAULT_DELTA,
                points=None, margin=1.0):
    """Decide "the algorithms of ``groups[0]`` perform better than those of ``groups[1]``, ...".

    At every prefix (or the prefixes of index ``points``), the median over runs of D = min over
    consecutive groups of log(lowest error of the next group / highest error of the group)
    exceeds log(``margin``) (D > 0: in that run every test error of a group is below every test
    error of the next), decided as :func:`~laocheck.experiments.papers.claim_better`.
    ``([A], [B])`` is "A performs better than B"; ``([A], [B, C, D])`` "A performs best";
    ``([A], [B], [C])`` "B performs between A and C".

    Parameters
    ----------
    curves : sequence of Curve
        The curves of one panel (paired runs).
    groups : sequence of sequence of str
        The algorithms, best group first.
    claim : str
        The claim, as the paper words it.
    citation : str
        Where the paper makes it.
    source : str
        The data set.
    stand_in : bool
        Whether the data set stands in for the paper's.
    delta : float, default=1e-6
        The level of the decision.
    points : sequence of int or None, default=None
        The prefixes checked (None: all).
    margin : float, default=1.0
        The ratio the event needs.

    Returns
    -------
    ClaimCheck
        The decision.

    Raises
    ------
    ValueError
        If an algorithm is not among the curves or fewer than two groups are given.
    """
    groups = [list(g) for g in groups]
    if len(groups) < 2 or not all(groups):
        raise InvalidParameterError(f"`groups` must be two or more non-empty groups of "
                                    f"algorithm names; got {groups!r}.")
    margin = _margin_iv(margin)
    errs = [np.array([_curve(curves, name).per_run for name in g], dtype=float)
            for g in groups]
    errs = [np.where(np.isnan(e), np.inf, e) for e in errs]
    D = np.full(errs[0].shape[1:], np.inf)                    # runs × prefixes
    for lower, upper in zip(errs, errs[1:]):
        D = np.minimum(D, _log_ratio(upper.min(axis=0), lower.max(axis=0)))
    prefixes = D.shape[1]
    points = list(range(prefixes)) if points is None else sorted({int(p) % prefixes
                                                                   for p in points})

    def text(g):
        return f"err {g[0]}" if len(g) == 1 else f"max err {', '.join(g)}"

    def next_text(g):
        return f"err {g[0]}" if len(g) == 1 else f"min err {', '.join(g)}"

    where = (f"at each of the {prefixes} prefixes" if len(points) == prefixes else
             f"at prefix {', '.join(str(p + 1) for p in points)} of {prefixes}")
    ratios = ", ".join(f"{next_text(b)} / {text(a)}" for a, b in zip(groups, groups[1:]))
    smallest = "the smallest of " if len(groups) > 2 else ""
    every = " (each below each)" if any(len(g) > 1 for g in groups) else ""
    statistic = f"{smallest}{ratios}{every}"
    return _claim(D[:, points], margin, delta, claim=claim, citation=citation,
                  formal=(f"{where}, median over random runs of {statistic} > {margin:g}"),
                  source=source, stand_in=stand_in, statistic=statistic)


def claim_converges(curves, follower, target, *, claim, citation, source, stand_in,
                    delta=DEFAULT_DELTA):
    """Decide "``follower`` converges towards ``target``".

    The median over runs of |gap| at the first prefix / |gap| at the last prefix exceeds 1,
    gap = err_follower − err_target of the same run.

    Parameters
    ----------
    curves : sequence of Curve
        The curves of one panel (paired runs).
    follower : str
        The algorithm claimed to converge.
    target : str
        The algorithm it converges towards.
    claim : str
        The claim, as the paper words it.
    citation : str
        Where the paper makes it.
    source : str
        The data set.
    stand_in : bool
        Whether the data set stands in for the paper's.
    delta : float, default=1e-6
        The level of the decision.

    Returns
    -------
    ClaimCheck
        The decision.

    Raises
    ------
    ValueError
        If an algorithm is not among the curves.
    """
    a = np.array(_curve(curves, follower).per_run, dtype=float)
    b = np.array(_curve(curves, target).per_run, dtype=float)
    with np.errstate(invalid="ignore"):
        gap = np.abs(a - b)
    gap = np.where(np.isnan(gap), np.inf, gap)
    statistic = f"|err {follower} - err {target}| at the first prefix / at the last prefix"
    return _claim(_log_ratio(gap[:, :1], gap[:, -1:]), 1.0, delta, claim=claim,
                  citation=citation, formal=f"median over random runs of {statistic} > 1",
                  source=source, stand_in=stand_in, statistic=statistic)


@dataclass(frozen=True)
class Claim:
    """A paper's qualitative claim as data: what an experiment module lists for a panel, and
    :meth:`decide` decides on the panel's curves.

    Parameters
    ----------
    groups : tuple
        ``"order"``: the groups of algorithm names, best first (:func:`claim_order`);
        ``"converges"``: ``(follower, target)`` (:func:`claim_converges`).
    claim : str
        The claim, as the paper words it.
    citation : str
        Where the paper makes it.
    margin : float, default=1.0
        The ratio the event needs (``"order"`` only).
    points : tuple or None, default=None
        The prefixes checked (``"order"`` only; None: all).
    kind : str, default="order"
        ``"order"`` or ``"converges"``.
    """

    groups: tuple
    claim: str
    citation: str
    margin: float = 1.0
    points: tuple | None = None
    kind: str = "order"

    @classmethod
    def better(cls, better, worse, claim, citation, **options):
        """"``better`` performs better than ``worse``" (:func:`claim_better`)."""
        return cls(((better,), (worse,)), claim, citation, **options)

    @classmethod
    def converges(cls, follower, target, claim, citation):
        """"``follower`` converges towards ``target``" (:func:`claim_converges`)."""
        return cls((follower, target), claim, citation, kind="converges")

    def decide(self, curves, *, source, stand_in, delta):
        """The :class:`~laocheck.experiments.papers.ClaimCheck` of this claim on ``curves``
        (one panel's), measured on ``source``."""
        same = dict(claim=self.claim, citation=self.citation, source=source,
                    stand_in=stand_in, delta=delta)
        if self.kind == "converges":
            return claim_converges(curves, *self.groups, **same)
        return claim_order(curves, self.groups, points=self.points, margin=self.margin, **same)


def claims_design(runs, points, delta=DEFAULT_DELTA):
    """The power calculation of the claims for ``runs`` runs and ``points`` check points.

    Beside the ``full`` profile's: the runs HOLDS needs per point, the detectable P(ratio > margin)
    at power ``POWER``, the paper's visible effect Φ(1) and the margin of "considerably".

    Parameters
    ----------
    runs : int
        The paired runs.
    points : int
        The check points.
    delta : float, default=1e-6
        The level of the decisions.

    Returns
    -------
    dict
        The figures above, for this run count and the ``full`` profile's.
    """
    full = get_profile("full").experiment()
    full_points = len(full["prefixes"])
    probe = paired_median_test(np.zeros((runs, 1)), delta=delta)
    return {"power": POWER, "considerable_margin": CONSIDERABLE,
            "visible_effect": win_probability(1.0), "delta": delta, "runs": runs,
            "points": points, "needed": probe.needed,
            "detectable": sign_test_detectable(runs, delta=delta, points=points,
                                               beta=1 - POWER),
            "full_runs": full["runs"], "full_points": full_points,
            "full_needed": paired_median_test(np.zeros((full["runs"], 1)), delta=delta).needed,
            "full_detectable": sign_test_detectable(full["runs"], delta=delta,
                                                    points=full_points, beta=1 - POWER),
            "runs_for_visible_effect": sign_test_runs(win_probability(1.0), delta=delta,
                                                      points=full_points, beta=1 - POWER)}


def _user_part(curves, raw, users, *, source, stand_in, delta):
    """Split :func:`learning_curves`' ``curves`` into the papers' learners' and the users'
    (the last ``len(users)``), and compare each user's learner with each paper learner of the
    panel (its budget-matched curves aside) on the paired runs (:class:`~laocheck.experiments.papers.UserComparison`).
    Returns ``(paper_curves, panel_fields)``: the fields ``user_curves``,
    ``user_comparisons``, ``user_errors`` of the :class:`Panel`."""
    if not users:
        return curves, {}
    paper, mine = curves[:len(curves) - len(users)], curves[len(curves) - len(users):]
    comparisons = []
    for u in mine:
        for p in paper:
            if p.budget_matched:
                continue
            same = dict(citation="a user's learner beside the paper's (not a claim of the "
                        "paper)", source=source, stand_in=stand_in, delta=delta)
            better = claim_better(curves, u.algorithm, p.algorithm,
                                  claim=f"{u.algorithm} performs better than {p.algorithm}",
                                  **same)
            worse = claim_better(curves, p.algorithm, u.algorithm,
                                 claim=f"{u.algorithm} performs worse than {p.algorithm}",
                                 **same)
            decision = ("better" if better.status == HOLDS else
                        "worse" if worse.status == HOLDS else "not separated")
            comparisons.append(UserComparison(user=u.algorithm, paper_learner=p.algorithm,
                                              decision=decision, better=better, worse=worse))
    errors = sorted({f"{u.name} ({u.path}): {r['users'][i]['error']}"
                     for i, u in enumerate(users) for r in raw if "error" in r["users"][i]})
    return paper, {"user_curves": mine, "user_comparisons": tuple(comparisons),
                   "user_errors": tuple(errors)}
