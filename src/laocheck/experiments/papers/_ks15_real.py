"""KS15 Secs. 5.2-5.3, Figs. 3-6 on "3 vs 5" and Covertype.

The description: the data sets (:data:`DATA_SETS`: budgets, figures, printed ρ), KS15 Sec. 5's
learners (:mod:`._ks15`), each panel's claims (:func:`_claims`) and the claims not decided
over the runs (:data:`UNCHECKED`).
"""

from __future__ import annotations

from ...data import SourceUnavailable, load_covtype, scale_to_unit_ball
from ...effort import NOVALUE, resolve
from ...stats import DEFAULT_DELTA
from .._runs import child_seeds
from ._claims import CONSIDERABLE, Claim
from ._common import (_NO_MARGIN, _VARIABILITY, Experiment, _digits_pair, _experiment_doc,
                      _rhos, _stand_in)
from ._ks15 import _NOTES_KS15, ks15_lasso, ks15_ridge
from ._records import SAME_ATTRIBUTES, PrintedNumber

__all__ = ["ks15_real"]

#: per data set: (ridge panel's figure, lasso panel's figure), the printed (ρ_ridge, ρ_lasso),
#: the section; the ridge budget k + 1 is 57 on "3 vs 5" (at most d) and 5 on Covertype, the
#: lasso budget 5 on both
DATA_SETS = {"3 vs 5": (("KS15 Fig. 3", "KS15 Fig. 4"), ("0.45", "0.2"), "KS15 Sec. 5.2"),
             "Covertype": (("KS15 Fig. 5", "KS15 Fig. 6"), ("0.49", "0.08"), "KS15 Sec. 5.3")}
#: the panels of a data set: (scenario, DD, Two-Phased, AE, learners)
SCENARIOS = (("ridge", "DDAERR", "Two-Phased DDAERR", "AERR", ks15_ridge),
             ("lasso", "DDAELR", "Two-Phased DDAELR", "AELR", ks15_lasso))

#: KS15 Secs. 5.2-5.3's claims that are not decided over the runs, per data set
UNCHECKED = {
    "3 vs 5": (
        "the DDAERR algorithm performs similarly to the online ridge algorithm (KS15 Sec. 5.2, "
        "Fig. 3): " + _NO_MARGIN + "; 'even better for a small total number of examined "
        "attributes' is decided (a claim).",
        "the DDAELR algorithm performs ... comparable with the online lasso algorithm, if not "
        "slightly better (KS15 Sec. 5.2, Fig. 4): " + _NO_MARGIN + ".",
        "the variability of the DDAELR algorithm is smaller than the variabilities of the other "
        "algorithms (KS15 Sec. 5.2, Fig. 4): " + _VARIABILITY + ".",
        "the Two-Phased DDAELR algorithm performs similarly to the AELR algorithm for small "
        "amounts of examined attributes (KS15 Sec. 5.2, Fig. 4): " + _NO_MARGIN + "."),
    "Covertype": (
        "the DDAERR algorithm performs similarly to the online ridge algorithm for a small "
        "number of examined attributes (KS15 Sec. 5.3, Fig. 5): " + _NO_MARGIN + ".",
        "for a small number of examined attributes, the DDAELR algorithm performs similarly to "
        "the online lasso algorithm, and with a smaller variability, but as the number of "
        "examined attributes grow, the algorithms drift apart (KS15 Sec. 5.3, Fig. 6): "
        + _NO_MARGIN + "; " + _VARIABILITY + "."),
}


def _claims(label, scen, dd, tp, ae, cite):
    """The claims of a panel: DD (considerably) better than AE, the Two-Phased algorithm
    converging towards DD, and beyond these the Two-Phased algorithm between AE and DD (Fig. 3
    ridge; Covertype, both), the offline ridge best and DDAERR better than online ridge at the
    smallest budget (Fig. 3), the full-information ridge algorithms better than the
    attribute-efficient ones (Fig. 5); the full-information ones at the same number of
    attributes seen (the figures' axis)."""
    plain = label == "Covertype" and scen == "lasso"   # Fig. 6: "performs better"
    out = [Claim.better(dd, ae, f"{dd} performs {'' if plain else 'considerably '}better than "
                        f"{ae} ({label})", cite, margin=1.0 if plain else CONSIDERABLE),
           Claim.converges(tp, dd, f"the Two-Phased algorithm converges towards {dd} ({label})",
                           cite)]
    on, off = ("Online ridge", "Offline ridge") if scen == "ridge" else \
        ("Online lasso", "Offline lasso")
    on, off = on + SAME_ATTRIBUTES, off + SAME_ATTRIBUTES
    if scen == "ridge" or label == "Covertype":
        out.append(Claim(((dd,), (tp,), (ae,)), f"the {tp} algorithm performs between the {ae} "
                         f"algorithm and the {dd} algorithm ({label})", cite))
    if scen == "ridge" and label == "3 vs 5":
        out.append(Claim(((off,), (dd, tp, ae, on)), "the offline ridge algorithm is still the "
                         "best algorithm (3 vs 5, at the same number of attributes seen)", cite))
        out.append(Claim.better(dd, on, "DDAERR performs even better than the online ridge "
                                "algorithm for a small total number of examined attributes "
                                "(3 vs 5; the smallest budget)", cite, points=(0,)))
    if scen == "ridge" and label == "Covertype":
        out.append(Claim(((on, off), (dd, tp, ae)), "the full-information ridge algorithms "
                         "outperform the attribute efficient ones (Covertype, at the same "
                         "number of attributes seen)", cite))
    return out


@_experiment_doc
def ks15_real(*, effort="fast", seed=0, delta=DEFAULT_DELTA, source=None, mnist=None,
              covtype=None, n_jobs=1, scheduler=None, runs=None, progress=None, learners=(),
               budget=NOVALUE):
    """KS15 Secs. 5.2-5.3, Figs. 3-6 on "3 vs 5" and Covertype.

    DDAERR, Two-Phased DDAERR, AERR, online and offline ridge with k + 1 = 57 (ridge; fewer
    when d is small) and the lasso counterparts with k + 1 = 5 on "3 vs 5"; Covertype
    (k + 1 = 5, both) when ``covtype`` is given. ρ_ridge, ρ_lasso of each data set beside the
    printed ones (0.45, 0.2 for MNIST; 0.49, 0.08 for Covertype).

    Parameters
    ----------
    %(head)s
    %(data)s
    covtype : str, os.PathLike or None, default=None
        Covertype's data file (:func:`laocheck.data.load_covtype`); None: its panels are listed
        as unavailable.
    %(run)s
    %(tail)s
    """
    effort = resolve(effort, budget=budget)
    exp = Experiment("ks15_real", "KS15 Secs. 5.2-5.3, Figs. 3-6", effort, seed, delta=delta,
                     n_jobs=n_jobs, scheduler=scheduler, runs=runs, progress=progress,
                     learners=learners)
    _, pair = _digits_pair(source, mnist)
    sets = [("3 vs 5", pair, _stand_in(pair), min(57, pair.d))]
    unavailable = []
    try:
        sets.append(("Covertype", load_covtype(covtype), False, 5))
    except SourceUnavailable as exc:
        unavailable.append(f"KS15 Figs. 5-6 (Covertype): {exc}")
    panels, numbers, claims = [], [], []
    seeds = iter(child_seeds(seed, 2 * len(sets)))
    for label, data, st, tot_r in sets:
        numbers += _printed_rhos(label, data, st)
        ridge_data, _ = scale_to_unit_ball(data, "l2")
        for scenario, dat, tot in ((SCENARIOS[0], ridge_data, tot_r), (SCENARIOS[1], data, 5)):
            panel, claim = _panel(exp, label, scenario, dat, st, tot, next(seeds),
                                  f"{len(panels) + 1}/{2 * len(sets)}")
            panels.append(panel)
            claims += claim
    notes = (_NOTES_KS15 + " DDAERR/DDAELR's 'prior knowledge' of E[x_i^2] is the training "
             "part's (never the test part's). Ridge panels: x scaled so ||x||_2 <= 1.")
    if pair.d < 57:
        notes += f" d = {pair.d} < 57: the ridge budget is k + 1 = {pair.d} (all attributes)."
    return exp.finish(panels, numbers, claims, notes, unavailable=unavailable,
                      unchecked=[text for label, *_ in sets for text in UNCHECKED[label]])


def _printed_rhos(label, data, stand):
    """ρ_ridge and ρ_lasso of a data set (its empirical distribution) beside the printed."""
    (_, printed, cite), rhos = DATA_SETS[label], _rhos(data.X)
    return [PrintedNumber(
        quantity=f"rho_{name} of {label}", citation=cite, paper_says=pr, measured=rho, low=rho,
        high=rho, delta=0.0, source=data.source, stand_in=stand,
        note="exact for the data set used (its empirical distribution)"
             + ("; a stand-in, not the paper's data" if stand else ""))
        for name, rho, pr in zip(("ridge", "lasso"), rhos, printed)]


def _panel(exp, label, scenario, data, stand, total, seed, count):
    """One panel of a data set (its ridge or lasso scenario) and its decided claims."""
    scen, dd, tp, ae, learners = scenario
    figs, _, cite = DATA_SETS[label]
    fig = figs[0] if scen == "ridge" else figs[1]
    curves, raw = exp.curves(learners(total), f"panel {count} ({fig}, {label})", data=data,
                             k=total - 1, seed=seed, budget=total)
    curves, mine = exp.split_users(curves, raw, source=data.source, stand_in=stand)
    panel = exp.panel(fig, f"{scen}, k + 1 = {total}, {label}", data.source, stand,
                      data.preprocessing, data.d, raw, f"k + 1 = {total}", data.X, curves,
                      **mine)
    same = dict(source=data.source, stand_in=stand, delta=exp.delta)
    return panel, [c.decide(curves, **same)
                   for c in _claims(label, scen, dd, tp, ae, f"{cite}, {fig}")]
