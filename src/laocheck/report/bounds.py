"""The ``bounds`` report: each excess-risk theorem's bound against what its learner does.

Data (:func:`collect`): :func:`laocheck.experiments.sweeps.sweep` over m for every theorem of
the spec (the excess-risk theorems of CB11, HK12 and KS15: CB11 Thm 12, HK12 Thm 3.1, 3.4,
4.4, KS15 Thm 3.1, 3.5, 3.12, 4.1, 4.6, 4.7), over d and k for the spec's ``scaling`` theorems,
:func:`laocheck.experiments.sweeps.tune_step` for the spec's ``tune`` theorems, and the catalog
records of the spec's ``errata`` checks (the empirical errata with their counterexamples and the
checks of their corrections). Rendering (:func:`render`) only draws and tabulates those.
"""

from __future__ import annotations

import math

from ..experiments import learner_settings
from ..experiments.sweeps import sweep, tune_step
from ..experiments.theorems import THEOREMS, available, default_distribution, theorem_setup
from ..experiments.user_learners import user_sweep
from ..exceptions import InvalidParameterError
from ..stats import DEFAULT_DELTA
from ._document import FigureRef, Paragraph, Section, Table, fmt, record_verdict
from ._style import COLORS, MARKERS, band_floor, integer_ticks, new_figure, styled

__all__ = ["collect", "render", "FIGURES", "TABLES"]

FIGURES = ("m_sweeps", "scaling", "steps", "errata")
TABLES = ("theorems", "scaling", "steps", "errata", "not_run")

_XLABEL = {"m": "m (training examples)", "d": "d (dimension)",
           "k": "k (attributes observed per example: k + 1 for most learners)"}
_YLABEL = "excess risk E[L_D(w̄)] − L_D(w*)"


def _not_run_reason(theorem, settings):
    avail = available().get(theorem)
    if avail is None:
        return f"{theorem} is not a theorem of laocheck.experiments.theorems"
    if avail is not True:
        return avail
    if theorem == "HK12.Thm4.4":
        try:
            theorem_setup(theorem, None, settings["k"], settings["m"], settings["B"])
        except InvalidParameterError as exc:
            return str(exc)
    return None


def required(settings):
    """The settings keys this report needs (given the spec's choices)."""
    keys = ["theorems", "d", "k", "m", "B", "R", "m_values"]
    if settings.get("scaling"):
        keys += ["d_values", "k_values"]
    if settings.get("tune"):
        keys += ["R_tune", "R_eval"]
    return keys


def collect(settings, ctx):
    """Run the sweeps, tunings and errata checks of ``settings``; a JSON-ready dict."""
    cfg = {key: settings[key] for key in ("d", "k", "m", "B", "R")}
    delta = float(settings.get("delta", DEFAULT_DELTA))
    kind = settings.get("dist", "hard")
    common = dict(B=cfg["B"], R=cfg["R"], delta=delta, kind=kind, n_jobs=ctx.jobs,
                  scheduler=ctx.scheduler,
                  alpha=float(settings.get("alpha", -1.0)), progress=ctx.progress)
    base = dict(d=cfg["d"], k=cfg["k"], m=cfg["m"])
    m_sweeps, not_run = {}, {}
    for t in theorems_of(settings):
        reason = _not_run_reason(t, cfg)
        if reason is not None:
            not_run[t] = reason
            continue
        over = settings.get("overrides", {}).get(t, {})
        args = {**base, **common, **{key: v for key, v in over.items() if key != "m_values"}}
        try:
            m_sweeps[t] = sweep(t, "m", over.get("m_values", settings["m_values"]),
                                seed=ctx.task_seed(f"bounds.m.{t}"), **args).to_dict()
        except Exception as exc:       # shown in the report (and on stderr), not hidden
            not_run[t] = f"the run failed: {type(exc).__name__}: {exc}"
            ctx.progress(f"{t}: {not_run[t]}")
    users = {}
    for t in m_sweeps if ctx.learners else ():
        over = settings.get("overrides", {}).get(t, {})
        args = {**base, **common, **{key: v for key, v in over.items() if key != "m_values"}}
        args.pop("m")
        args.pop("progress")
        users[t] = []
        for learner in ctx.learners:
            ctx.progress(f"{t}: user learner {learner.name}")
            users[t].append(user_sweep(learner, t, over.get("m_values", settings["m_values"]),
                                       seed=ctx.task_seed(f"bounds.m.{t}"), **args))
    learners = {}
    for t, sw in m_sweeps.items():
        ctx.progress(f"{t}: the learners' settings")
        learners[t] = _settings_of(t, sw, ctx, users.get(t, ()), common["alpha"])
        _mark_budgets(users.get(t, ()), learners[t], sw["k"])
    scaling = {}
    for t in settings.get("scaling", []):
        scaling[t] = {}
        for var in ("d", "k"):
            scaling[t][var] = sweep(t, var, settings[f"{var}_values"],
                                    seed=ctx.task_seed(f"bounds.{var}.{t}"), **base,
                                    **common).to_dict()
    steps = {}
    for t in settings.get("tune", []):
        ctx.progress(f"{t} step size tuning")
        steps[t] = tune_step(t, **base, B=cfg["B"], R_tune=settings["R_tune"],
                             R_eval=settings["R_eval"], delta=delta, kind=kind,
                             seed=ctx.task_seed(f"bounds.tune.{t}"), n_jobs=ctx.jobs,
                             scheduler=ctx.scheduler).to_dict()
    ids = list(settings.get("errata", []))
    ctx.progress(f"errata checks {', '.join(ids)}")
    records = ctx.run_checks(ids, ctx.seed, ctx.checks_effort(settings)) if ids else []
    return {"config": {**cfg, "delta": delta, "dist": kind, "m_values": list(settings["m_values"])},
            "m_sweeps": m_sweeps, "learners": learners, "not_run": not_run, **({"user_learners": users} if users else {}), "scaling": scaling, "steps": steps,
            "errata": [r.to_dict() for r in records]}


def _step_rule(theorem, params):
    """How the step size of ``theorem``'s learner was chosen, in words."""
    if "lam" in params:
        return (f"λ = {fmt(params['lam'])} from {theorem}'s proof (laocheck.bounds), Pegasos "
                "step 1/(λt)")
    eta = params.get("eta")
    if eta == "theory":
        return "η = 'theory': the learner computes it from its phase-1 estimates (eta_ below)"
    return f"η = {fmt(eta)}: the step size {theorem} prescribes at the largest m (laocheck.bounds)"


def _settings_of(theorem, sw, ctx, users, alpha):
    """The settings of ``theorem``'s learner and of each user learner beside it, read from one
    fit at the sweep's largest m (:func:`laocheck.experiments.learner_settings`)."""
    m = sw["points"][-1]["m"]
    dist = default_distribution(theorem, sw["d"], sw["B"], alpha, sw["kind"])
    config, _, _ = theorem_setup(theorem, dist, sw["k"], m, sw["B"])
    seed = ctx.task_seed(f"bounds.settings.{theorem}")
    paper = learner_settings(config, dist, m, seed)
    paper.update(name=THEOREMS[theorem][1], role="theorem's learner", m=m,
                 step_rule=_step_rule(theorem, config.params))
    out = [paper]
    by_name = {learner.name: learner for learner in ctx.learners}
    for u in users:
        learner = by_name.get(u["learner"])
        if learner is None:
            continue
        entry = learner_settings(learner.at(k=sw["k"], B=sw["B"]), dist, m, seed)
        entry.update(name=learner.name, role=f"user ({learner.path})", m=m,
                     step_rule="the user's own (its eta parameter and fitted eta_, if any)")
        out.append(entry)
    return out


def _mark_budgets(users, entries, k):
    """Each user entry of one theorem gets ``learner_k``, the k its learner ran at (its
    get_params() in the settings ``entries``; None when it has no ``k``), and
    ``like_for_like``: whether that is the theorem's learner's ``k``. A factory that takes
    ``k`` is given the theorem's; one that does not keeps its own, and the report says that the
    comparison is then between different attribute budgets."""
    by_name = {e["name"]: e for e in entries[1:]}
    for u in users:
        entry = by_name.get(u["learner"])
        own = entry["params"].get("k") if entry is not None else None
        u["learner_k"] = own
        u["like_for_like"] = own == k


def budget_text(u, k):
    """The user learner's k beside the theorem's learner's, in words."""
    if u.get("like_for_like", True):
        return f"k = {fmt(k)}, as the theorem's learner"
    own = "unknown (no `k` parameter)" if u.get("learner_k") is None else fmt(u["learner_k"])
    return f"k = {own} against the theorem's learner's k = {fmt(k)}: not like for like"


def initial_point(params):
    """The initial point as a report states it: the ``initial`` parameter, or that the class
    has none (its start is fixed by the class and documented in its docstring)."""
    if "initial" not in params:
        return "no `initial` parameter: fixed by the class (see its docstring)"
    init = params["initial"]
    meaning = {"uniform": " = (B/√d)·1", "zero": " = 0"}.get(init, "") if isinstance(init, str) \
        else ""
    return f"{fmt(init)}{meaning}"


#: the parameters shown in their own column of the settings table (the rest under "other")
MAIN_PARAMS = ("k", "B", "eta", "lam", "initial")


def settings_section(learners):
    """The section listing every learner's settings: one table per theorem, one row per
    learner (the theorem's and each user's), every parameter and fitted scalar shown."""
    blocks = [Paragraph(
        "Every learner's settings, read the same way for laocheck's learners and a user's: the "
        "constructor parameters (get_params()) and the scalar fitted attributes (eta_, lam_, "
        "...) of one fit at the largest m. Two learners that differ here (an initial point, a "
        "step size, a radius) are not the same algorithm, whatever their names.")]
    tables = []
    for t, entries in learners.items():
        rows = []
        for e in entries:
            p = e["params"]
            other = {k: v for k, v in p.items() if k not in MAIN_PARAMS}
            fitted = dict(e["fitted"])
            rows.append([e["name"], e["role"], initial_point(p), e["step_rule"], p.get("B"),
                         p.get("k"), fmt(other) if other else "–",
                         fmt(fitted) if fitted else (e["fit_error"] or "–"), e["class"]])
        table = Table(f"settings_{t}", ("learner", "role", "initial point", "step rule",
                                        "radius B", "k", "other parameters (clipping, "
                                        "sampling, ...)", "fitted (one fit at m = "
                                        f"{entries[0]['m']})", "class"), tuple(rows))
        tables.append(table)
        blocks += [Paragraph(f"{t}:"), table]
    if learners:
        blocks.append(Paragraph(f"Seed policy: {next(iter(learners.values()))[0]['seed_policy']}."))
    return Section("Learners' settings", tuple(blocks)), tables


# --- figures -------------------------------------------------------------------------------

#: colours and markers of users' learners in the m figures (in order; none of the roles')
USER_STYLES = (("#000000", "v"), ("#CC79A7", "P"), ("#56B4E9", "^"), ("#009E73", "s"))


def sweep_figure(sw, users=()):
    """Top: mean excess risk with its interval (band at δ) and the bound against the swept
    variable, log-log; violations (interval above the bound) as vermillion crosses. Bottom:
    the tightness ratio mean / bound with the interval / bound. ``users``: users' learners
    (:func:`laocheck.experiments.user_learners.user_sweep`) drawn beside the theorem's, each
    in its own colour and marker, dashed, with their intervals as error bars."""
    pts = sw["points"]
    x = [p["value"] for p in pts]
    mean, low, high, bound = ([p[key] for p in pts] for key in ("mean", "low", "high", "bound"))
    floor = band_floor(mean + low + high)
    with styled():
        fig, axes = new_figure(2, 1, size=(9.2, 5.6), sharex=True,
                               gridspec_kw={"height_ratios": [2.2, 1]})
        ax, axr = axes[0, 0], axes[1, 0]
        ax.fill_between(x, [max(v, floor) for v in low], high, color=COLORS["empirical"],
                        alpha=0.2, linewidth=0, label=f"interval at δ = {fmt(sw['delta'])}")
        ax.plot(x, mean, marker=MARKERS["empirical"], color=COLORS["empirical"],
                label=f"mean excess risk (R = {sw['R']} runs)")
        ax.plot(x, bound, color=COLORS["bound"], linewidth=2, label=f"bound of {sw['theorem']}")
        drawn = []
        for u, (color, marker) in zip([u for u in users if "points" in u], USER_STYLES * 4):
            ux = [p["m"] for p in u["points"]]
            um = [p["mean"] for p in u["points"]]
            err = [[max(mu - max(p["low"], floor), 0) for mu, p in zip(um, u["points"])],
                   [max(p["high"] - mu, 0) for mu, p in zip(um, u["points"])]]
            ax.errorbar(ux, um, yerr=err, color=color, marker=marker, linestyle="--",
                        capsize=3, label=f"{u['learner']} (user; {u['decision']} vs "
                        f"{u['paper_learner']}" + ("" if u.get("like_for_like", True) else
                                                   f"; its k = {fmt(u['learner_k'])}, "
                                                   f"theirs {fmt(u['k'])}") + ")")
            axr.plot(ux, [mu / p["bound"] for mu, p in zip(um, u["points"])], color=color,
                     marker=marker, linestyle="--")
            drawn.append({"learner": u["learner"], "x": ux, "mean": um,
                          "low": [p["low"] for p in u["points"]],
                          "high": [p["high"] for p in u["points"]], "color": color,
                          "marker": marker, "decision": u["decision"],
                          "like_for_like": u.get("like_for_like", True)})
        bad = [i for i, p in enumerate(pts) if p["violation"]]
        if bad:
            ax.plot([x[i] for i in bad], [mean[i] for i in bad], linestyle="none",
                    marker=MARKERS["violation"], markersize=10, color=COLORS["violation"],
                    label="violation (interval above the bound)")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_ylim(bottom=floor)
        ax.set_ylabel(_YLABEL)
        ax.tick_params(labelbottom=False)
        ax.set_title(f"{sw['theorem']}: bound against empirical in {sw['variable']}\n"
                     f"{_family(sw)}, {_fixed(sw)}", fontsize=10)
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
        ratio = [p["ratio"] for p in pts]
        r_low = [lo / b for lo, b in zip(low, bound)]
        r_high = [h / b for h, b in zip(high, bound)]
        r_floor = band_floor(ratio + r_low + r_high)      # its own floor: ratios, not risks
        axr.fill_between(x, [max(v, r_floor) for v in r_low], r_high, color=COLORS["empirical"],
                         alpha=0.2, linewidth=0)
        axr.plot(x, ratio, marker=MARKERS["empirical"], color=COLORS["empirical"],
                 label="tightness mean / bound")
        axr.axhline(1.0, color=COLORS["bound"], linewidth=2, label="bound (ratio 1)")
        axr.set_yscale("log")
        axr.set_ylim(r_floor, 3.0)
        integer_ticks(axr, x)
        axr.set_xlabel(_XLABEL[sw["variable"]])
        axr.set_ylabel("mean / bound")
        axr.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
    data = {"x": x, "mean": mean, "low": low, "high": high, "bound": bound, "ratio": ratio,
            "violations": [x[i] for i in bad], "axis_floor": floor, "ratio_axis_floor": r_floor,
            "xlabel": _XLABEL[sw["variable"]], "ylabel": _YLABEL}
    if drawn:
        data["user_learners"] = drawn
    return fig, data


def _family(sw):
    """The distribution of a sweep (without its d when d is what varies)."""
    return sw["distribution"].split("(")[0] if sw["variable"] == "d" else sw["distribution"]


def _fixed(sw):
    """The variables held fixed in a sweep, as text."""
    return ", ".join(f"{v} = {sw[v]}" for v in ("d", "k", "m") if v != sw["variable"]) \
        + f", R = {sw['R']}"


def steps_figure(steps):
    """One panel per tuned theorem: mean excess risk on the tuning replicates against the
    multiple c of the theory step size; c = 1 (theory) and the tuned c marked."""
    names = list(steps)
    ncols = min(3, len(names))
    nrows = math.ceil(len(names) / ncols)
    data = {}
    with styled():
        fig, axes = new_figure(nrows, ncols, size=(3.4 * ncols + 0.6, 2.9 * nrows + 0.4))
        for i, t in enumerate(names):
            st = steps[t]
            ax = axes[i // ncols, i % ncols]
            c, mean = st["multipliers"], st["tune_means"]
            ax.plot(c, mean, marker=MARKERS["neutral"], color=COLORS["neutral"],
                    label=f"tuning runs (R = {st['R_tune']})")
            ax.axvline(1.0, color=COLORS["empirical"], linestyle="--", label="theory η (c = 1)")
            j = c.index(st["best_multiplier"])
            ax.plot([c[j]], [mean[j]], linestyle="none", marker=MARKERS["tuned"], markersize=9,
                    color=COLORS["tuned"], label=f"tuned c = {fmt(c[j])}")
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_title(t)
            ax.set_xlabel("c (step size c·η_theory)")
            ax.set_ylabel("mean excess risk")
            ax.legend(fontsize=7, loc="best")
            data[t] = {"multipliers": c, "tune_means": mean, "best_multiplier": c[j]}
        for j in range(len(names), nrows * ncols):
            axes[j // ncols, j % ncols].set_visible(False)
    return fig, data


def errata_figure(records):
    """Each empirical erratum and its correction: the excess risk's interval divided by the
    bound (1 = the bound); literal statements refuted (ERRATUM) in vermillion crosses."""
    rows = [r for r in records if {"excess_mean", "excess_low", "excess_high", "bound"}
            <= set(r["figures"] or {})]
    labels = [r["id"] for r in rows]
    ratio = [r["figures"]["excess_mean"] / r["figures"]["bound"] for r in rows]
    lo = [r["figures"]["excess_low"] / r["figures"]["bound"] for r in rows]
    hi = [r["figures"]["excess_high"] / r["figures"]["bound"] for r in rows]
    floor = band_floor(ratio + lo + hi)
    with styled():
        fig, axes = new_figure(size=(7.2, 1.2 + 0.55 * max(len(rows), 1)))
        ax = axes[0, 0]
        for i, r in enumerate(rows):
            bad = r["status"] == "ERRATUM"
            role = "violation" if bad else "empirical"
            ax.plot([max(lo[i], floor), hi[i]], [i, i], color=COLORS[role], linewidth=3)
            ax.plot([ratio[i]], [i], linestyle="none", marker=MARKERS[role],
                    markersize=10 if bad else 7, color=COLORS[role],
                    label=("literal statement refuted (ERRATUM)" if bad
                           else "corrected statement (holds)"))
        ax.axvline(1.0, color=COLORS["bound"], linewidth=2, label="bound (ratio 1)")
        ax.set_yticks(range(len(rows)), labels)
        ax.set_xscale("log")
        ax.set_ylim(-0.7, len(rows) - 0.3)
        ax.set_xlabel("excess risk / bound (mean and interval at δ)")
        ax.set_title("Empirical errata: the literal statement against its correction")
        handles, names = ax.get_legend_handles_labels()
        uniq = dict(zip(names, handles))
        ax.legend(uniq.values(), uniq.keys(), loc="best", fontsize=8)
    data = {"ids": labels, "ratio": ratio, "ratio_low": lo, "ratio_high": hi,
            "status": [r["status"] for r in rows], "axis_floor": floor}
    return fig, data


# --- document --------------------------------------------------------------------------------

def _slope_text(sw):
    return [sw["slope"], sw["slope_low"], sw["slope_high"], sw["bound_slope"]]


def _power_text(sw):
    """The best power of a sweep's points (the smallest ``detects`` F: a bound F times too small
    is refuted w.p. >= 0.9 at that point's runs), as "F×", or "no power" when no point refutes
    anything (F at its limit, 1e12); "–" for files written before the figure existed."""
    values = [p.get("detects") for p in sw["points"] if p.get("detects") is not None]
    if not values:
        return "–"
    best = min(values)
    return "no power" if best >= 1e12 else f"{fmt(best)}×"


def render(data, settings):
    """(intro blocks, sections, figures, tables) of the report; figures are
    (FigureRef, matplotlib Figure, JSON data)."""
    cfg = data["config"]
    draw = set(settings.get("figures", FIGURES))
    show = set(settings.get("tables", TABLES))
    figures, sections, tables = [], [], []
    intro = (Paragraph(
        f"Each theorem's learner is run R = {cfg['R']} times per point with the step size the "
        f"theorem prescribes (from laocheck.bounds) on distributions with exact risk "
        f"(dist = {cfg['dist']}: HK12 Thm B.1's instance for ridge, correlated signs for lasso, "
        f"CB11 Thm 1's P_j for AER), d = {cfg['d']}, k = {cfg['k']}, m = {cfg['m']}, "
        f"B = {fmt(cfg['B'])} unless swept. Bands are betting confidence intervals at "
        f"δ = {fmt(cfg['delta'])} on the proven per-run range; a violation is an interval "
        "entirely above the bound; 'detects' is the power of the comparison: a bound F times "
        "too small would be refuted with probability ≥ 0.9 at these runs ('no power': no "
        "bound is refuted at these sizes, so 'no' says nothing). "
        "A slightly negative lower end is 0 up to the certificate of "
        "w* (an excess risk is never negative). Slope intervals hold with probability "
        "≥ 1 − 2δ; '–' is an unbounded side (an interval reaching 0)."),)

    # theorems against m
    rows, blocks = [], []
    for t, sw in data["m_sweeps"].items():
        last = sw["points"][-1]
        rows.append([t, sw["distribution"], last["m"], last["bound"], last["mean"], last["low"],
                     last["high"], last["ratio"], any(p["violation"] for p in sw["points"]),
                     _power_text(sw), *_slope_text(sw)])
        if "m_sweeps" in draw:
            name = f"m_{t}"
            fig, fdata = sweep_figure(sw, data.get("user_learners", {}).get(t, ()))
            ref = FigureRef(name, f"{t} against m",
                            f"mean excess risk of {t}'s learner (R = {sw['R']} runs per m, "
                            f"d = {sw['d']}, k = {sw['k']}) with its interval at δ = "
                            f"{fmt(sw['delta'])}, the bound, and the tightness ratio below; "
                            f"fitted slope {fmt(sw['slope'])} against the bound's "
                            f"{fmt(sw['bound_slope'])}.")
            figures.append((ref, fig, fdata))
            blocks.append(ref)
    table = Table("theorems", ("theorem", "distribution", "m (largest)", "bound",
                               "mean excess", "interval low", "interval high", "ratio",
                               "violation at any m", "detects (best m)", "slope in m",
                               "slope low", "slope high", "bound's slope"), tuple(rows))
    tables.append(table)
    if "theorems" in show:
        blocks.insert(0, table)
    sections.append(Section("Bound against empirical in m", tuple(blocks)))

    if data.get("learners"):
        section, t_settings = settings_section(data["learners"])
        sections.append(section)
        tables += t_settings

    if data.get("user_learners"):
        rows = []
        for t, entries in data["user_learners"].items():
            for u in entries:
                if "points" not in u:
                    rows.append([t, u["learner"], u["path"], "not run", u["not_run"], "", "",
                                 ""])
                    continue
                last = u["points"][-1]
                rows.append([t, u["learner"], u["path"], u["decision"], last["mean"],
                             last["paper_mean"], f"{last['wins']}/{last['runs']}",
                             budget_text(u, u["k"])])
        t_user = Table("user_learners", ("theorem", "learner", "factory",
                                         "vs the theorem's learner", "mean excess (largest m)",
                                         "theorem's learner", "runs with lower excess",
                                         "attribute budget"),
                       tuple(rows))
        tables.append(t_user)
        unequal = sorted({(u["learner"], u["learner_k"], u["k"])
                          for entries in data["user_learners"].values() for u in entries
                          if "points" in u and not u.get("like_for_like", True)},
                         key=lambda e: (e[0], str(e[1])))
        blocks = [Paragraph("Each user learner runs on the replicates of the theorem's learner "
                            "(the same samples, seeds and m) with the theorem's k and B where "
                            "its factory takes them; the theorem's bound is not applied to it. "
                            "The comparison is the papers' claims' decision: at every m a "
                            "Clopper-Pearson interval at 2δ/points on P(its excess < the "
                            "theorem's learner's), 'better' when every interval lies above "
                            "1/2, 'worse' when one lies below.")]
        for name, own, k in unequal:
            own_text = "no `k` parameter" if own is None else f"k = {fmt(own)}"
            blocks.append(Paragraph(
                f"Not like for like: {name} runs with {own_text} (its factory does not take "
                f"k, or its spec fixes it) while the theorems' learners run at k = {fmt(k)}, so "
                f"it observes a different number of attributes per example and its "
                f"'better' or 'worse' compares two attribute budgets, not two algorithms. "
                f"Give the factory a `k` parameter (laocheck then passes the theorem's k) to "
                f"compare at equal budgets."))
        sections.append(Section("Users' learners beside the theorems' learners",
                                (*blocks, t_user)))

    if data["not_run"] and "not_run" in show:
        t_nr = Table("not_run", ("theorem", "reason"),
                     tuple([t, r] for t, r in data["not_run"].items()))
        tables.append(t_nr)
        sections.append(Section("Theorems not compared (no explicit constant, or the run failed)", (t_nr,)))

    if data["scaling"]:
        rows, blocks = [], []
        for t, by_var in data["scaling"].items():
            for var, sw in by_var.items():
                rows.append([t, var, sw["values"], *_slope_text(sw),
                             any(p["violation"] for p in sw["points"]), _power_text(sw)])
                if "scaling" in draw:
                    name = f"{var}_{t}"
                    fig, fdata = sweep_figure(sw)
                    ref = FigureRef(name, f"{t} against {var}",
                                    f"as the m figures with {var} swept over {fmt(sw['values'])} "
                                    f"(m = {sw['m']}); fitted slope {fmt(sw['slope'])} against "
                                    f"the bound's {fmt(sw['bound_slope'])}.")
                    figures.append((ref, fig, fdata))
                    blocks.append(ref)
        table = Table("scaling", ("theorem", "variable", "values", "fitted slope", "slope low",
                                  "slope high", "bound's slope", "violation",
                                  "detects (best point)"), tuple(rows))
        tables.append(table)
        if "scaling" in show:
            blocks.insert(0, table)
        sections.append(Section("Scaling in d and k", tuple(blocks)))

    if data["steps"]:
        rows = [[t, st["theory_eta"], st["best_multiplier"], st["tuned_eta"], st["theory_mean"],
                 st["theory_low"], st["theory_high"], st["tuned_mean"], st["tuned_low"],
                 st["tuned_high"], st["cost"], st["bound"],
                 st["best_multiplier"] in (min(st["multipliers"]), max(st["multipliers"]))]
                for t, st in data["steps"].items()]
        table = Table("steps", ("theorem", "theory η", "tuned c", "tuned η = c·η",
                                "theory: mean excess", "low", "high", "tuned: mean excess",
                                "low", "high", "cost (theory / tuned)", "bound",
                                "tuned c at the grid's edge"), tuple(rows))
        tables.append(table)
        blocks = [Paragraph(
            "The step size is tuned over multiples c of the theory step on R_tune replicates, "
            "then the theory and the tuned step are both run on R_eval independent replicates "
            "(other seeds), with intervals at δ. The cost is how many times larger the theory "
            "step's mean excess risk is.")]
        if "steps" in show:
            blocks.append(table)
        if "steps" in draw:
            fig, fdata = steps_figure(data["steps"])
            ref = FigureRef("steps", "Theory step size against a tuned one",
                            "mean excess risk on the tuning replicates against c; the dashed "
                            "line is the theorem's step (c = 1), the square the tuned c.")
            figures.append((ref, fig, fdata))
            blocks.append(ref)
        sections.append(Section("Theory step size against a tuned one", tuple(blocks)))

    if data["errata"]:
        rows = []
        for r in data["errata"]:
            f = r["figures"] or {}
            rows.append([r["id"], record_verdict(r), r["statement"], r["counterexample"],
                         f.get("bound"), f.get("excess_mean"), f.get("excess_low"),
                         f.get("excess_high"), r["correction"],
                         f"laocheck verify --only '{r['id']}'"])
        table = Table("errata", ("check", "status", "literal statement", "counterexample",
                                 "bound", "mean excess", "low", "high", "correction",
                                 "reproduce"), tuple(rows), code_columns=(9,))
        tables.append(table)
        blocks = [Paragraph(
            "Empirical errata: configurations where a theorem as printed fails (its interval "
            "lies above the bound, status ERRATUM), beside the corrected statement's check.")]
        if "errata" in show:
            blocks.append(table)
        if "errata" in draw:
            fig, fdata = errata_figure(data["errata"])
            ref = FigureRef("errata", "Empirical errata",
                            "excess risk over bound for each erratum's counterexample "
                            "(vermillion crosses, above 1) and its corrected statement (blue); "
                            "the bars are the intervals at δ.")
            figures.append((ref, fig, fdata))
            blocks.append(ref)
        sections.append(Section("Violations: the errata", tuple(blocks)))
    return intro, sections, figures, tables


def theorems_of(settings):
    """The theorems a spec names that laocheck knows (for validation)."""
    unknown = [t for t in settings.get("theorems", []) if t not in THEOREMS]
    if unknown:
        raise InvalidParameterError(
            f"`theorems` must be among {sorted(THEOREMS)}; got unknown {unknown}.")
    return list(settings["theorems"])

