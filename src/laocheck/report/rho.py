"""The ``rho`` report: KS15's improvement ratios ρ_ridge and ρ_lasso (eqs. (11), (12)) of its
Sec. 5.1 data against the power-law exponent α, exactly, beside the values the paper prints.

Data (:func:`collect`): :func:`laocheck.experiments.rho.rho_table` at the printed α (with the
printed values and whether they agree) and on a grid of α for the curve.
"""

from __future__ import annotations

import numpy as np

from ..experiments.rho import rho_table
from ._document import FigureRef, Paragraph, Section, Table, fmt
from ._style import COLORS, MARKERS, new_figure, styled

__all__ = ["collect", "render", "FIGURES", "TABLES"]

FIGURES = ("rho",)
TABLES = ("rho",)
_SYMBOL = {"ridge": r"$\rho_{\mathrm{ridge}} = \Vert E[x^2]\Vert_{1/2}\,/\,(d\,\Vert E[x^2]\Vert_1)$"
                    " (KS15 eq. (11))",
           "lasso": r"$\rho_{\mathrm{lasso}} = \Vert E[x^2]\Vert_1\,/\,(d\,\Vert E[x^2]\Vert_\infty)$"
                    " (KS15 eq. (12))"}
#: the axis label of each ratio (matplotlib mathtext)
YLABEL = {"ridge": r"$\rho_{\mathrm{ridge}}$", "lasso": r"$\rho_{\mathrm{lasso}}$"}


def required(settings):
    """The settings keys this report needs."""
    return ["curve_from", "curve_to", "curve_points"]


def collect(settings, ctx):
    d = int(settings.get("d", 500))
    alphas = [float(a) for a in settings.get("alphas", (0.0, -0.5, -1.0, -2.0))]
    grid = np.linspace(float(settings["curve_from"]), float(settings["curve_to"]),
                       int(settings["curve_points"]))
    ctx.progress(f"rho table (d = {d}) and curve ({len(grid)} values of alpha)")
    curve = rho_table(d=d, alphas=tuple(float(a) for a in grid))
    return {"d": d, "table": rho_table(d=d, alphas=tuple(alphas)),
            "curve": [{"scenario": r["scenario"], "alpha": r["alpha"], "exact": r["exact"]}
                      for r in curve]}


def rho_figure(data):
    """Two panels (ridge, lasso): the exact ρ against α (line), the exact values at the
    printed α (circles) and the paper's printed values (diamonds), log scale."""
    out = {}
    with styled():
        fig, axes = new_figure(1, 2, size=(8.4, 3.8))
        for ax, scen in zip(axes[0], ("ridge", "lasso")):
            cur = [r for r in data["curve"] if r["scenario"] == scen]
            tab = [r for r in data["table"] if r["scenario"] == scen]
            pr = [r for r in tab if r["printed"] is not None]
            ax.plot([r["alpha"] for r in cur], [r["exact"] for r in cur], color=COLORS["exact"],
                    label="exact")
            ax.plot([r["alpha"] for r in tab], [r["exact"] for r in tab], linestyle="none",
                    marker="o", color=COLORS["exact"], label="exact at the paper's α")
            ax.plot([r["alpha"] for r in pr], [float(r["printed"]) for r in pr], linestyle="none",
                    marker=MARKERS["printed"], markersize=8, markerfacecolor="none",
                    markeredgewidth=1.5, color=COLORS["printed"], label="printed in KS15")
            ax.set_yscale("log")
            ax.set_xlabel(r"$\alpha$ (power-law exponent: $E[x_i] \propto i^{\alpha}$)")
            ax.set_ylabel(YLABEL[scen])
            ax.set_title(_SYMBOL[scen], fontsize=9)
            ax.legend(loc="best", fontsize=8)
            out[scen] = {"alpha": [r["alpha"] for r in cur], "exact": [r["exact"] for r in cur],
                         "printed_alpha": [r["alpha"] for r in pr],
                         "printed": [r["printed"] for r in pr]}
        fig.suptitle(f"KS15 Sec. 5.1 data, d = {data['d']}")
    return fig, out


def render(data, settings):
    draw = set(settings.get("figures", FIGURES))
    show = set(settings.get("tables", TABLES))
    rows = tuple([r["scenario"], r["alpha"], r["d"], r["exact"], r["printed"], r["source"],
                  r["agrees"], r["agrees_truncated"], r["explanation"]] for r in data["table"])
    table = Table("rho", ("scenario", "α", "d", "exact ρ", "printed", "source",
                          "agrees (rounded)", "agrees (truncated)", "explanation"), rows)
    intro = (Paragraph(
        "KS15's data-dependent sampling improves the bounds of HK12 by the factors ρ_ridge and "
        "ρ_lasso. On its Sec. 5.1 data (Bernoulli attributes with E[x_i] ∝ i^α) they are exact "
        f"functions of α, computed here for d = {data['d']} and set beside the values the paper "
        "prints. 'agrees (rounded)': the printed value is the exact one rounded to the printed "
        "digits; 'agrees (truncated)': truncated."),)
    blocks, figures = [], []
    if "rho" in show:
        blocks.append(table)
    if "rho" in draw:
        fig, fdata = rho_figure(data)
        ref = FigureRef("rho", "ρ_ridge and ρ_lasso against α",
                        f"exact curves over α ∈ [{fmt(data['curve'][0]['alpha'])}, "
                        f"{fmt(data['curve'][-1]['alpha'])}], the exact values at the paper's α "
                        "and the printed values (open diamonds).")
        figures.append((ref, fig, fdata))
        blocks.append(ref)
    return intro, [Section("ρ against α", tuple(blocks))], figures, [table]
