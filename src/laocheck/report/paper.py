"""The ``paper`` report: one of the papers' experiments (CB11 Sec. 7, HK12 Sec. 5, KS15 Sec. 5
and App. A) rerun, beside what the paper says.

Data (:func:`collect`): the :class:`laocheck.experiments.papers.PaperExperiment` of the spec's
``experiment`` (a name of :data:`laocheck.experiments.papers.EXPERIMENTS`), as its ``to_dict()``.
Rendering (:func:`render`) only draws and tabulates it:

* one learning-curve figure per panel: test error relative to the zero predictor against the
  cumulative number of attributes seen (and against the number of training examples where the
  paper plots that too: the spec's ``axes``), the mean over runs (and the median, crosses: a
  few diverging runs set a mean, never a median) with ±1 standard deviation
  (the papers' error bars) and the betting confidence band at δ where it lies within the axis;
  the y axis at most max(2, 1.5 × the highest mean), so that one noisy point does not flatten
  the other curves; more than 7 algorithms are told apart by marker; the data source in the title
  and, for a stand-in (a data set other than the paper's), "STAND-IN" in title and caption;
* the numbers the paper prints beside the measured ones with their interval and data source; a
  value measured on a stand-in is labelled so and is not compared with the printed one;
* the paper's qualitative claims as printed, with their status (HOLDS / DOES NOT HOLD /
  INCONCLUSIVE), δ, runs and data source, per check point the runs above the margin and the
  interval for the median ratio of the paired errors, the margin, the runs HOLDS needs and the
  effect the run count detects (laocheck.experiments.papers: paired order-statistic bounds,
  the power calculation in ``claims_design``), and the claims of the text not decided over the runs with the reason
  (a similarity with no margin, a claim about variability);
* on the attribute axis, each full-information algorithm also on the prefixes where it sees as
  many attributes as the attribute-efficient learners (dashed, "(same attributes)"; the
  papers' comparison by the budget used);
* beside each curve's mean, its median over runs and the number of runs worse than the zero
  predictor at each prefix (:func:`spread`): a few diverging runs can lift a mean above the
  zero predictor's error while the median stays below it, and the caption says where;
* the parts that could not run here (e.g. Covertype not given) with the reason, and the notes;
* users' learners (``laocheck report NAME --learner mod:factory``, or ``[[learners]]`` tables
  in the spec: the report's ``ctx.learners``), run by the experiment beside the papers' on the
  same splits, folds, prefixes and k (:func:`laocheck.experiments.papers.learning_curves`'
  ``users``): their curves in each panel in their own style (a colour and marker of
  :data:`laocheck.report.bounds.USER_STYLES`, dash-dotted, "(user)" in the legend, no band:
  a user's learner has no proven range), a table of their curves and one of their pairwise
  comparisons with each paper learner, decided as the papers' claims; the paper's claims are
  not applied to them.

Settings: ``experiment`` (required); the experiment runs at the report's effort profile
(:mod:`laocheck.effort`; ``experiment_budget``, deprecated, names another); the experiment's own
keyword arguments where set (``runs``, ``m``, ``d``, ``alphas``, ``pairs``, ``delta``);
``source``, ``mnist``, ``covtype`` (the data options ``laocheck report`` sets from its command
line); ``axes`` (``["attributes"]`` or ``["attributes", "examples"]``).
"""

from __future__ import annotations

import inspect
import math
import textwrap

import numpy as np

from ..exceptions import InvalidParameterError
from ..effort import resolve
from ..experiments.papers import EXPERIMENTS, SAME_ATTRIBUTES, grid_limits
from ._document import FigureRef, Paragraph, Section, Table, fmt
from ._style import COLORS, new_figure, styled
from .bounds import MAIN_PARAMS, USER_STYLES, initial_point

__all__ = ["collect", "render", "required", "FIGURES", "TABLES", "EXPERIMENT_PARAMS",
           "DATA_PARAMS"]

FIGURES = ("panels",)
TABLES = ("panels", "numbers", "claims", "unavailable", "grid_edges", "unchecked", "spread")
#: the tables added when users' learners ran (none otherwise: a report without them is the
#: one laocheck wrote before they could be added)
USER_TABLES = ("user_curves", "user_comparisons", "user_settings")

#: keyword arguments of the experiments a spec may set
EXPERIMENT_PARAMS = ("runs", "m", "d", "alphas", "pairs", "delta")
#: the data options (``laocheck report --source/--mnist/--covtype``), passed where accepted
DATA_PARAMS = ("source", "mnist", "covtype")

#: the colours and markers of a panel's curves (Okabe-Ito, as every report)
_PALETTE = (COLORS["empirical"], COLORS["bound"], COLORS["tuned"], COLORS["violation"],
            COLORS["printed"], COLORS["neutral"], COLORS["exact"])
_MARKS = ("o", "s", "^", "D", "v", "P", "X", "*", "h", "<")
_XLABEL = {"attributes": "attributes seen (cumulative, mean over runs)",
           "examples": "training examples (prefix of the training part)"}
_YLABEL = "test error / zero predictor's"
STAND_IN = "STAND-IN"


def required(settings):
    """The settings keys this report needs."""
    return ["experiment"]


def _accepts(function):
    params = inspect.signature(function).parameters
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return None                                   # takes any keyword
    return set(params)


def experiment_kwargs(settings, effort):
    """The experiment's function and the keyword arguments ``settings`` give it at the
    report's effort profile ``effort`` (without ``seed`` and ``n_jobs``)."""
    name = settings["experiment"]
    if name not in EXPERIMENTS:
        raise InvalidParameterError(
            f"`experiment` must be one of {sorted(EXPERIMENTS)}; got {name!r}.")
    function = EXPERIMENTS[name]
    effort = resolve(settings.get("experiment_budget", effort),   # the key: deprecated
                     name="experiment_budget" if "experiment_budget" in settings else "effort")
    accepts = _accepts(function)
    kwargs = {"effort": effort}
    for key in EXPERIMENT_PARAMS:
        if key in settings:
            if accepts is not None and key not in accepts:
                raise InvalidParameterError(
                    f"`{key}` is not a parameter of experiment {name!r} (it takes "
                    f"{sorted(accepts)}); got {key} = {settings[key]!r}.")
            value = settings[key]
            kwargs[key] = ([tuple(v) for v in value] if key == "pairs" else
                           tuple(value) if isinstance(value, list) else value)
    for key in DATA_PARAMS:                           # ignored by experiments without data
        if settings.get(key) is not None and (accepts is None or key in accepts):
            kwargs[key] = settings[key]
    return function, kwargs


def collect(settings, ctx):
    """Run the experiment; its ``to_dict()`` (JSON-ready) under ``result``."""
    function, kwargs = experiment_kwargs(settings, ctx.effort)
    ctx.progress(f"{settings['experiment']} (effort {kwargs['effort'].name}, seed {ctx.seed}, "
                 f"{ctx.jobs} jobs)")
    accepts = _accepts(function)
    if accepts is None or "progress" in accepts:      # lines as the runs finish
        kwargs = dict(kwargs, progress=ctx.progress)
    arguments = {k: (v.name if k == "effort" else v) for k, v in kwargs.items()
                 if k != "progress"}
    if ctx.learners:                                  # users' learners beside the papers'
        if accepts is not None and "learners" not in accepts:
            raise InvalidParameterError(
                f"experiment {settings['experiment']!r} takes no users' learners (`--learner`, "
                "[[learners]]).")
        kwargs = dict(kwargs, learners=tuple(ctx.learners))
    result = function(seed=ctx.seed, n_jobs=ctx.jobs, scheduler=ctx.scheduler, **kwargs)
    return {"experiment": settings["experiment"], "arguments": arguments,
            "result": result.to_dict()}


# -- figures ---------------------------------------------------------------------------------


def _num(v):
    """A JSON value of a curve as a float (None, "inf" from ``to_dict``)."""
    if v is None:
        return math.nan
    if isinstance(v, str):
        return math.inf if v == "inf" else -math.inf
    return float(v)


def panel_title(panel):
    """The figure's title: the paper's figure, the panel and its data source (STAND-IN first
    when the data set is not the paper's)."""
    mark = f"{STAND_IN}: " if panel["stand_in"] else ""
    return f"{panel['figure']}: {panel['title']} ({mark}{panel['source']})"


def curve_style(j):
    """(colour, marker, hollow) of a panel's j-th algorithm: the colour cycles through the 7 of
    the palette and the marker through 10 shapes, so no two of the first 70 algorithms look
    alike; from the 8th on the markers are hollow, told apart at a glance from the first 7."""
    return _PALETTE[j % len(_PALETTE)], _MARKS[j % len(_MARKS)], j >= len(_PALETTE)


def y_range(curves):
    """(bottom, top) of a panel's y axis before its margin. Relative test errors are >= 0, so
    the bottom is 0 (lower when a mean is negative). The top is the highest mean + sd, but at
    most max(2, 1.5 × the highest mean of the curves that are not budget-matched): one noisy
    point (a learner after a handful of examples, or a full-information learner on the
    attribute budget of a few examples, whose relative error can be in the thousands) would
    otherwise squeeze every other curve against the bottom. What is cut stays in the data."""
    means = [m for c in curves for m in c["mean"] if math.isfinite(m)]
    tops = [m + s for c in curves for m, s in zip(c["mean"], c["sd"]) if math.isfinite(m + s)]
    regular = [m for c in curves if not c.get("budget_matched")
               for m in c["mean"] if math.isfinite(m)]
    top = max(tops) if tops else 1.0
    if regular:
        top = min(top, max(2.0, 1.5 * max(regular)))
    return min([0.0] + means), top


def spread(panel):
    """Per curve of ``panel``, in order: at each prefix the median relative test error over
    the runs and the number of runs worse than the zero predictor (relative error above 1, or
    not finite), from the curve's per-run errors. The figures draw the mean (the papers'
    curve); a mean far above the median says that a few runs, not the typical one, set it."""
    return [_curve_spread(c) for c in panel["curves"]]


def _curve_spread(c):
    """:func:`spread` of one curve (medians nan and no runs for a curve without per-run
    errors)."""
    per_run = c.get("per_run") or ()
    E = np.asarray(per_run, dtype=float).reshape(len(per_run), len(c["mean"]))
    E = np.where(np.isnan(E), np.inf, E)            # a failed run is worse than any other
    return {"algorithm": c["algorithm"], "examples": list(c["examples"]),
            "mean": [_num(v) for v in c["mean"]],
            "median": ([_num(v) for v in np.median(E, axis=0)] if len(E)
                       else [math.nan] * E.shape[1]),
            "worse_than_zero": [int(v) for v in np.sum(E > 1.0, axis=0)],
            "runs": len(E)}


def _spread_sentence(panel):
    """Two sentences on the curves that fail the zero predictor's error (1).

    First, the curves whose mean is above 1 at a prefix where their median is at most 1 (a few
    runs set the mean): the largest such prefix of each. Second, the solid curves whose median
    is above 1 at some prefix (more than half the runs are worse than predicting 0: the
    typical run, not a few, is there), every such prefix with its count of runs. The dashed
    (budget-matched) curves are left to the caption's own sentence on them: trained on a
    handful of examples, they are expected above 1."""
    lifted, sunk = [], []
    for c in panel["curves"]:
        if not c.get("per_run"):
            continue
        row = _curve_spread(c)
        flagged = [p for p, (mean, med) in enumerate(zip(row["mean"], row["median"]))
                   if mean > 1.0 >= med]
        if flagged:
            p = flagged[-1]
            lifted.append(f"{row['algorithm']} at {row['examples'][p]} examples: mean "
                          f"{fmt(row['mean'][p])}, median {fmt(row['median'][p])}, "
                          f"{row['worse_than_zero'][p]} of {row['runs']} runs worse than the "
                          "zero predictor")
        above = [p for p, med in enumerate(row["median"]) if med > 1.0]
        if above and not c.get("budget_matched"):
            sunk.append(f"{row['algorithm']} at "
                        + ", ".join(f"{row['examples'][p]} examples ({row['worse_than_zero'][p]}"
                                    f" of {row['runs']} runs)" for p in above))
    text = ""
    if lifted:
        text += (" A mean above the zero predictor's error with the median below it (at least "
                 "half the runs do better than predicting 0, the others set the mean) — "
                 + "; ".join(lifted) + " (every prefix in the table of medians).")
    if sunk:
        text += (" A median above the zero predictor's error (more than half the runs do worse "
                 "than predicting 0: the typical run, not a few, is there) — " + "; ".join(sunk)
                 + ".")
    return text


def spread_table(result):
    """One row per (panel, curve): the prefixes, the means, the medians over runs and the runs
    worse than the zero predictor (:func:`spread`)."""
    rows = []
    for panel in result["panels"]:
        for row in spread(panel):
            rows.append([panel["figure"], row["algorithm"], row["examples"], row["mean"],
                         row["median"], row["worse_than_zero"], row["runs"]])
    return Table("spread", ("figure", "algorithm", "training examples", "mean", "median",
                            "runs worse than the zero predictor", "runs"), tuple(rows))


def panel_figure(panel, axes=("attributes",), runs=None):
    """One axis per x-variable of ``axes``: per curve the mean relative test error (line and
    markers), ±1 sd (error bars) and the confidence interval at δ (shaded band, drawn between
    the points where it lies within the axis: an interval wider than the axis says nothing the
    axis can show, and a few of them would shade the whole figure). The y axis is
    :func:`y_range` with a margin; error bars reaching beyond it are cut. Every value, drawn
    or not, is in the figure's data."""
    out = {"axes": list(axes), "curves": []}
    with styled():
        fig, ax_arr = new_figure(1, len(axes), size=(7.2 if len(axes) == 1 else 11.0, 4.6))
        curves = []
        users = panel.get("user_curves", ())
        for j, c in enumerate((*panel["curves"], *users)):
            curves.append({"mean": [_num(v) for v in c["mean"]],
                           "sd": [_num(v) for v in c["sd"]],
                           "low": [_num(v) for v in c["low"]],
                           "high": [_num(v) for v in c["high"]],
                           # a user's curve, like a budget-matched one, never raises the cap
                           # of the axis: a diverging learner of a user's does not flatten
                           # the paper's curves (its values are in the data)
                           "budget_matched": (bool(c.get("budget_matched"))
                                              or j >= len(panel["curves"]))})
        bottom, top = y_range(curves)
        span = max(top - bottom, 1e-12)
        ylim = (bottom - 0.05 * span if bottom < 0 else 0.0, top + 0.1 * span)
        base = {}                        # a matched curve takes its algorithm's style, dashed
        for c, v in zip(panel["curves"], curves):
            mean, sd, low, high, matched = (v["mean"], v["sd"], v["low"], v["high"],
                                            v["budget_matched"])
            j = base.setdefault(c["algorithm"].removesuffix(SAME_ATTRIBUTES), len(base))
            color, mark, hollow = curve_style(j)
            inside = [ylim[0] <= lo and hi <= ylim[1] for lo, hi in zip(low, high)]
            median = _curve_spread(c)["median"]
            for ax, axis in zip(ax_arr[0], axes):
                if matched and axis != "attributes":   # a budget-matched curve is an
                    continue                           # attribute-axis comparison only
                x = [float(v) for v in c[axis]]
                ax.fill_between(x, low, high, where=inside, color=color, alpha=0.12,
                                linewidth=0)
                ax.errorbar(x, mean, yerr=sd, color=color, marker=mark, markersize=5,
                            markerfacecolor="white" if hollow else color, capsize=3,
                            linewidth=1.4, linestyle="--" if matched else "-",
                            label=c["algorithm"])
                ax.plot(x, median, color=color, marker="x", markersize=6, linestyle="None",
                        label="_median")                # beside the mean (KS15 Fig. 2, α = 0)
            out["curves"].append({"algorithm": c["algorithm"], "learner": c["learner"],
                                  "attributes": list(c["attributes"]),
                                  "examples": list(c["examples"]), "mean": mean, "sd": sd,
                                  "median": median,
                                  "low": low, "high": high, "delta": c["delta"],
                                  "band_drawn": inside})
        for c, (color, mark) in zip(panel.get("user_curves", ()), USER_STYLES * 8):
            mean, sd = [_num(v) for v in c["mean"]], [_num(v) for v in c["sd"]]
            median = _curve_spread(c)["median"]
            for ax, axis in zip(ax_arr[0], axes):
                x = [_num(v) for v in c[axis]]
                ax.errorbar(x, mean, yerr=sd, color=color, marker=mark, markersize=6,
                            capsize=3, linewidth=1.6, linestyle="-.",
                            label=f"{c['algorithm']} (user)")
                ax.plot(x, median, color=color, marker="x", markersize=6, linestyle="None",
                        label="_median")
            out.setdefault("user_curves", []).append(
                {"algorithm": c["algorithm"], "learner": c["learner"],
                 "attributes": [_num(v) for v in c["attributes"]],
                 "examples": list(c["examples"]), "mean": mean, "sd": sd, "median": median,
                 "color": color, "marker": mark})
        for ax, axis in zip(ax_arr[0], axes):
            ax.set_xscale("log")
            ax.set_ylim(*ylim)
            ax.set_xlabel(_XLABEL[axis])
            ax.set_ylabel(_YLABEL)
        ax_arr[0][0].legend(loc="best", fontsize=8,
                            title=(f"mean ± 1 sd over {runs} runs, ×: median; band: interval "
                                   "at δ where within the axis" if runs else None),
                            title_fontsize=7)
        fig.suptitle("\n".join(textwrap.wrap(panel_title(panel), 100 if len(axes) > 1 else 80)),
                     fontsize=9.5)
        out["ylim"] = list(ylim)
    return fig, out


def _limits(result):
    """{parameter: (smallest, largest) value cross-validation could choose} for every
    parameter with more than one grid value (the grid extended by ``grid_extensions``)."""
    ext = int(result.get("grid_extensions") or 0)
    out = {}
    for name, key in (("B", "grid"), ("step_scale", "step_scales")):
        grid = list(result.get(key) or ())
        if len(grid) >= 2:
            out[name] = grid_limits(grid, ext)
    return out


def grid_edges(panel, result):
    """How often cross-validation chose a value at an end of what it could reach, per algorithm
    of ``panel``: {algorithm: {"B": (runs at the smallest, runs at the largest), "step_scale":
    ...}} for every parameter with more than one grid value and at least one run at an end.
    The ends are the grid's extended by ``grid_extensions`` values (the search extends the grid
    while its choice sits at an end). A curve whose runs mostly sit at an end was tuned on a
    grid that may be too narrow for the data: the curve is capped by the grid, not by the
    algorithm."""
    out = {}
    for curve in panel["curves"]:
        if curve.get("budget_matched"):                 # the same tuned values as its curve
            continue
        for name, (lo, hi) in _limits(result).items():
            chosen = [t[name] for t in curve.get("tuned") or () if name in t]
            low = sum(v <= lo or math.isclose(v, lo, rel_tol=1e-9) for v in chosen)
            high = sum(v >= hi or math.isclose(v, hi, rel_tol=1e-9) for v in chosen)
            if low or high:
                out.setdefault(curve["algorithm"], {})[name] = (low, high)
    return out


def _edges_sentence(panel, result):
    edges = grid_edges(panel, result)
    limits = _limits(result)
    parts = []
    for alg, per in edges.items():
        for name, (low, high) in per.items():
            ends = []
            if high:
                ends.append(f"the largest {name} ({fmt(limits[name][1])}) in {high}")
            if low:
                ends.append(f"the smallest ({fmt(limits[name][0])}) in {low}")
            parts.append(f"{alg}: " + " and ".join(ends) + f" of {result['runs']} runs")
    if not parts:
        return ""
    return (" Cross-validation chose an end of what its grid could reach — " + "; ".join(parts)
            + ". Where most runs sit at an end, the grid may cap the curve (the full profile's "
            "grid is wider and extends further).")


def _matched_sentence(panel):
    names = [c["algorithm"] for c in panel["curves"] if c.get("budget_matched")]
    if not names:
        return ""
    return (" Dashed: " + ", ".join(names) + " — each full-information algorithm on the "
            "prefixes where it sees as many attributes as the attribute-efficient learners on "
            "theirs (the papers' attribute axis; the same tuned parameters); the solid curve "
            "of the same algorithm is on the same examples. A dashed curve trained on a handful "
            "of examples can lie far above 1; the axis stops at the larger of 2 and 1.5 times "
            "the highest solid mean, and its values are in report.json.")


def _caption(panel, result):
    stand = (f" {STAND_IN}: {panel['source']} is not the paper's data set, so these curves are "
             "not the paper's and are not compared with its figure."
             if panel["stand_in"] else "")
    deltas = sorted({c["delta"] for c in panel["curves"]})
    return (f"Data: {panel['source']}; {panel['preprocessing']}; d = {panel['d']}, "
            f"{panel['n_train']} training examples"
            + (f", {panel['n_test']} test examples" if panel["n_test"] else
               ", exact test risk of the distribution (no test sample)")
            + f"; attributes per example: {panel['attributes_per_example']}; "
            f"ρ_ridge = {fmt(panel['rho_ridge'])}, ρ_lasso = {fmt(panel['rho_lasso'])}. "
            f"Lines: mean relative test error over {result['runs']} runs; crosses: the median "
            "over the runs (a few diverging runs can set a mean, never a median); bars: ±1 "
            "standard deviation (the papers' error bars); shaded: betting confidence interval "
            f"for the expected relative test error at δ = {fmt(deltas)}, drawn where it lies "
            f"within the axis (every interval is in the figure's data). The y axis stops at the "
            f"highest mean + 1 sd or, where that is higher, at the larger of 2 and 1.5 times "
            f"the highest mean of the solid curves (error bars beyond it are cut)."
            + _matched_sentence(panel) + _edges_sentence(panel, result)
            + _spread_sentence(panel) + _user_sentence(panel) + stand)


def _user_sentence(panel):
    users = [c["algorithm"] for c in panel.get("user_curves", ())]
    if not users:
        return ""
    return (" Dash-dotted, \"(user)\": " + ", ".join(users) + " — users' learners on the same "
            "splits, folds and prefixes as the paper's, without a confidence band (a user's "
            "learner has no proven range of its error); the paper's claims are not applied to "
            "them (their comparisons with each paper learner are in the table of users' "
            "learners)." + (" Errors of the user's code: " + "; ".join(panel["user_errors"])
                            + "." if panel.get("user_errors") else ""))


# -- tables ----------------------------------------------------------------------------------


def _measured_on(row):
    if row["stand_in"]:
        return f"{STAND_IN} (not the paper's data set: not comparable with the printed value)"
    return "the paper's data set"


def numbers_table(result):
    rows = tuple([n["quantity"], n["citation"], n["paper_says"], n["measured"], n["low"],
                  n["high"], n["delta"], n["source"], _measured_on(n), n["note"]]
                 for n in result["numbers"])
    return Table("numbers", ("quantity", "citation", "paper says", "laocheck measures",
                             "interval low", "interval high", "δ (0: exact; –: no interval)",
                             "data source", "measured on", "note"), rows)


def claims_table(result):
    """One row per claim: its text (what the paper printed), status, δ and runs, then how it
    was decided (laocheck.experiments.papers): per check point the runs where the ratio of
    errors exceeded the margin and the runs HOLDS needs, the interval for the median ratio
    (lower bound at δ, upper at δ/P), the margin, and the detectable effect at these runs."""
    rows = []
    for c in result["claims"]:
        needed = c.get("needed")
        rows.append([
            c["claim"], c["citation"], c["status"], c["delta"], c["runs"], list(c["counts"]),
            "never (too few runs)" if needed is None else needed,
            [[_num(lo), _num(hi)] for lo, hi in zip(c["low"], c["high"])],
            c.get("margin", 1.0), _num(c.get("detectable")), c["formal"],
            f"{STAND_IN}: {c['source']}" if c["stand_in"] else c["source"]])
    return Table("claims", ("claim (as the paper prints it)", "citation", "status", "δ", "runs",
                            "runs above the margin (per check point)",
                            "runs HOLDS needs per check point",
                            "median ratio: interval per check point",
                            "margin (ratio)", "detectable P(ratio > margin) at power 0.9",
                            "read as", "data source"), tuple(rows))


def unchecked_table(result):
    """The claims of the text that are not decided over the runs, with the reason."""
    rows = []
    for text in result.get("unchecked") or ():
        claim, sep, reason = text.rpartition("): ")
        rows.append([claim + ")", reason] if sep else [text, ""])
    return Table("unchecked", ("claim (citation)", "why it is not decided"), tuple(rows))


def panels_table(result):
    rows = tuple([p["figure"], p["title"], p["source"], p["stand_in"], p["d"], p["n_train"],
                  p["n_test"], p["attributes_per_example"], p["rho_ridge"], p["rho_lasso"]]
                 for p in result["panels"])
    return Table("panels", ("figure", "panel", "data source", "stand-in", "d", "training examples",
                            "test examples", "attributes per example", "ρ_ridge", "ρ_lasso"), rows)


def grid_edges_table(result):
    """One row per (panel, algorithm, parameter) whose cross-validated value was an end of
    its extended grid in some run (:func:`grid_edges`)."""
    rows = []
    for panel in result["panels"]:
        for alg, per in grid_edges(panel, result).items():
            for name, (low, high) in per.items():
                rows.append([panel["figure"], alg, name, low, high, result["runs"]])
    return Table("grid_edges", ("figure", "algorithm", "parameter", "runs at the smallest value",
                                "runs at the largest value", "runs"), tuple(rows))


def unavailable_table(result):
    rows = []
    for text in result["unavailable"]:
        part, _, reason = text.partition(": ")
        rows.append([part, reason or text])
    return Table("unavailable", ("part", "reason"), tuple(rows))


def claims_paragraph(res):
    """How the claims were decided and the power of the run count, from the result's
    ``claims_design`` (every number in it)."""
    d = res.get("claims_design") or {}
    text = (
        "Each qualitative claim of the text (first column, as printed) is read on the paired "
        "runs (the same split, sample and seeds for both learners): at every check point, the "
        "median over runs of the ratio of the worse algorithm's test error to the better one's "
        "exceeds the margin (1 for 'better'; "
        f"{fmt(d.get('considerable_margin'))} where the paper says 'considerably', "
        "'significantly' or 'a large gap': a stated reading of those words, the figures' values "
        "are not in the text). Interval per check point: order-statistic bounds on that median "
        "(lower at δ, upper at δ/P for P check points), which need only independent runs: no "
        "normality, symmetry or finite moments, so a diverging run is one extreme rank and "
        "cannot decide a claim alone. HOLDS when every lower bound exceeds the margin (an "
        "intersection-union test), DOES NOT HOLD when some upper bound is below it, "
        "INCONCLUSIVE otherwise; each wrong decision has probability at most δ. A "
        "full-information algorithm named '(same attributes)' was run on as many attributes as "
        "the attribute-efficient ones (the papers' attribute axis).")
    if d and d["needed"] is None:
        text += (f" Power: {fmt(d['runs'])} runs can decide no claim (even when every run "
                 "agrees, a median is not bounded at δ).")
    elif d:
        text += (
            f" Power: with {fmt(d['runs'])} runs a check point needs {fmt(d['needed'])} runs "
            "above the margin for HOLDS; a claim whose ratio exceeds the margin in one run with "
            f"probability {fmt(d['detectable'])} or more at each of {fmt(d['points'])} check "
            f"points is decided HOLDS with probability at least {fmt(d['power'])}.")
    if d:
        text += (
            " The paper's visible effect (curves whose ±1 sd error bars do not overlap: under a "
            "normal model of the paired difference, probability "
            f"{fmt(d['visible_effect'])}) needs {fmt(d['runs_for_visible_effect'])} runs at the "
            f"full profile's {fmt(d['full_points'])} check points; the full profile runs "
            f"{fmt(d['full_runs'])} (detects {fmt(d['full_detectable'])}).")
    return Paragraph(text)


def user_curves_table(result):
    """One row per (panel, user's learner): its factory, prefixes, attributes seen (mean over
    runs), mean and sd of the relative test error, the parameters cross-validation chose per
    run, and the errors its code raised."""
    rows = []
    for panel in result["panels"]:
        for c in panel.get("user_curves", ()):
            rows.append([panel["figure"], c["algorithm"], c["learner"], list(c["examples"]),
                         [_num(v) for v in c["attributes"]], [_num(v) for v in c["mean"]],
                         [_num(v) for v in c["sd"]], [dict(t) for t in c["tuned"]],
                         "; ".join(e for e in panel.get("user_errors", ())
                                   if e.startswith(c["algorithm"] + " (")) or "none"])
    return Table("user_curves", ("figure", "learner", "factory", "training examples",
                                 "attributes seen", "mean", "sd",
                                 "chosen by cross-validation (per run)", "errors"), tuple(rows))


def user_comparisons_table(result):
    """One row per (panel, user's learner, paper learner): the decision and the two claims
    ("better", "worse") decided as the papers' (:func:`claims_table`'s columns)."""
    rows = []
    for panel in result["panels"]:
        for comp in panel.get("user_comparisons", ()):
            b, w = comp["better"], comp["worse"]
            rows.append([panel["figure"], comp["user"], comp["paper_learner"], comp["decision"],
                         b["status"], w["status"], b["runs"], list(b["counts"]),
                         list(w["counts"]),
                         [[_num(lo), _num(hi)] for lo, hi in zip(b["low"], b["high"])],
                         b["delta"]])
    return Table("user_comparisons", (
        "figure", "user's learner", "paper's learner", "decision", "user better: status",
        "user worse: status", "runs", "runs with the user's error lower (per check point)",
        "runs with the paper learner's error lower (per check point)",
        "median of paper error / user error: interval per check point", "δ"), tuple(rows))


def settings_table(result, key="curves", name="settings"):
    """Every learner's settings in each panel (the paper's and the users'), as the bounds
    report shows them: its constructor's parameters and scalar fitted attributes in the first
    run at the largest prefix (:func:`laocheck.experiments.estimator_settings`), with the
    cross-validated B and step multiplier of that run. ``key``: the panels' curves to read
    (``"user_curves"``: the users' learners', in the table ``name``)."""
    rows = []
    for panel in result["panels"]:
        for c in panel.get(key, ()):
            s = c.get("settings")
            if c.get("budget_matched") or not s:
                continue
            p = s["params"]
            step = p.get("eta", p.get("lam"))
            rule = ("–" if step is None else
                    f"{'η' if 'eta' in p else 'λ'} = {fmt(step)} in run 1")
            tuned = c["tuned"][0] if c.get("tuned") else {}
            if tuned:
                rule += f" (cross-validated: {fmt(tuned)})"
            other = {k: v for k, v in p.items() if k not in MAIN_PARAMS}
            rows.append([panel_title(panel), c["algorithm"], initial_point(p), rule, p.get("B"),
                         p.get("k"), fmt(other) if other else "–",
                         fmt(s["fitted"]) if s["fitted"] else "–", s["class"]])
    return Table(name, ("panel", "learner", "initial point", "step rule (run 1)",
                              "radius B (run 1)", "k", "other parameters (clipping, sampling, "
                              "...)", "fitted (run 1, largest prefix)", "class"), tuple(rows))


def render(data, settings):
    """(intro blocks, sections, figures, tables) of the report."""
    res = data["result"]
    axes = tuple(settings.get("axes", ("attributes",)))
    bad = [a for a in axes if a not in _XLABEL]
    if bad or not axes:
        raise InvalidParameterError(
            f"`axes` must be a non-empty list of {sorted(_XLABEL)}; got {list(axes)!r}.")
    sources = sorted({p["source"] for p in res["panels"]} | {c["source"] for c in res["claims"]
                                                            if c["source"] != "none"})
    stand_ins = sorted({p["source"] for p in res["panels"] if p["stand_in"]}
                       | {c["source"] for c in res["claims"] if c["stand_in"]}
                       | {n["source"] for n in res["numbers"] if n["stand_in"]})
    intro = [Paragraph(
        f"{res['citation']}, rerun by laocheck.experiments.papers.{res['experiment']} at effort "
        f"{res['effort']} (seed {res['seed']}): {res['runs']} runs (random splits"
        + (f"; at most {res['max_train']} training examples a run from a data set, a random "
           "subset of its training part" if res.get("max_train") else "") + "), "
        f"{res['folds']}-fold cross-validation on the training part only over the radii B "
        f"{fmt(list(res['grid']))} and step multipliers {fmt(list(res['step_scales']))}"
        + (f", each extended by up to {res['grid_extensions']} values (the grid's ratio) at an "
           "end where the choice sat" if res.get("grid_extensions") else "")
        + f"; {fmt(res['seconds'])} s of computation. Data: "
        + ("; ".join(sources) if sources else "none (nothing was run)") + ".")]
    if stand_ins:
        intro.append(Paragraph(
            f"{STAND_IN}: " + "; ".join(stand_ins) + " is not the paper's data set. Figures and "
            "numbers measured on it show what laocheck's algorithms do on that data; they are "
            "not the paper's results and are not compared with them. Give the full MNIST "
            "(--mnist DIR) to run on the paper's data."))
    figures, fig_blocks = [], []
    for j, panel in enumerate(res["panels"]):
        fig, fdata = panel_figure(panel, axes, runs=res["runs"])
        ref = FigureRef(f"panel_{j + 1}", panel_title(panel), _caption(panel, res))
        figures.append((ref, fig, {"panel": j, "figure": panel["figure"], **fdata}))
        fig_blocks.append(ref)
    tables = [panels_table(res), numbers_table(res), claims_table(res), unavailable_table(res),
              grid_edges_table(res), unchecked_table(res), spread_table(res)]
    sections = []
    if res["panels"]:
        reach = "; ".join(f"{name}: {fmt(lo)} to {fmt(hi)}"
                          for name, (lo, hi) in _limits(res).items())
        edges = ((Paragraph("Runs whose cross-validated parameter was an end of what the "
                            f"extended grid could reach ({reach}). Where most runs sit at an "
                            "end, the grid, not the algorithm, may limit the curve."), tables[4])
                 if tables[4].rows else ())
        medians = (Paragraph("Beside each curve's mean (what the figures draw, as the papers "
                             "do), its median over the runs and the number of runs worse than "
                             "the zero predictor (relative test error above 1) at each prefix: "
                             "a mean far above its median was set by a few runs."), tables[6])
        sections.append(Section("Learning curves", (tables[0], *fig_blocks, *edges, *medians)))
        t_settings = settings_table(res)
        t_users = settings_table(res, "user_curves", "user_settings")
        if t_settings.rows:
            tables.append(t_settings)
            if t_users.rows:
                tables.append(t_users)
            sections.append(Section("Learners' settings", (Paragraph(
                "Every learner's settings in the first run at its largest prefix, read the same "
                "way for the paper's learners and a user's: the constructor parameters "
                "(get_params()), with B and the step multiplier that run's cross-validation "
                "chose, and the scalar fitted attributes (eta_, lam_, ...). Every run draws "
                "from its own child of the experiment's SeedSequence; a user's learner from a "
                "stream of its own, so the paper's learners' numbers do not change with it."),
                t_settings, *((Paragraph("Users' learners:"), t_users) if t_users.rows
                              else ()))))
    sections.append(Section("Numbers the paper prints", (
        Paragraph("Each printed number beside the value laocheck measures, its interval and the "
                  "data set it was measured on. A value measured on a stand-in is labelled "
                  f"{STAND_IN} and is not the paper's quantity: it is shown, never compared."),
        tables[1]) if res["numbers"] else (Paragraph("None measured."),)))
    sections.append(Section("Claims of the text", (
        claims_paragraph(res),
        tables[2],
        *((Paragraph("Claims of the text that are not decided over the runs, and why."),
           tables[5]) if tables[5].rows else ()))))
    if res.get("user_learners"):
        t_curves, t_comp = user_curves_table(res), user_comparisons_table(res)
        tables += [t_curves, t_comp]
        names = ", ".join(f"{u['name']} ({u['factory']})" for u in res["user_learners"])
        sections.append(Section("Users' learners beside the paper's", (
            Paragraph(
                f"{names}: run in every run after the paper's learners, on the same split (or "
                "sample), cross-validation folds, prefixes and k, from seeds of their own (the "
                "paper's learners' numbers are those of the report without them). The radius B "
                "is cross-validated on the paper's grid when the factory takes B, with the "
                "parameters a [[learners]] table's grid declares; the rest as given (a user's "
                "step size is not multiplied by the paper's step multipliers). The paper's "
                "claims are not applied to them."), t_curves,
            Paragraph(
                "Each user's learner against each paper learner of the panel, decided as the "
                "paper's claims (see Claims of the text): 'better' when the claim 'the user's "
                "learner performs better' HOLDS (the median over runs of the paper learner's "
                "error / the user's exceeds 1 at every check point, lower bound at δ), 'worse' "
                "when the converse HOLDS, 'not separated' otherwise (each wrong decision has "
                "probability at most δ)."), t_comp)))
    if res["unavailable"]:
        sections.append(Section("Not run here", (
            Paragraph("Parts of the experiment that could not run here, with the reason. With "
                      "laocheck report, --covtype FILE gives Covertype and --mnist DIR the full "
                      "MNIST."), tables[3])))
    if res["notes"]:
        sections.append(Section("Notes", (Paragraph(res["notes"]),)))
    return tuple(intro), sections, figures, tables
