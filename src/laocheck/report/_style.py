"""The one figure style of every report: matplotlib's Agg backend, the Okabe-Ito colour-blind-safe
palette, one meaning per colour and marker, paper notation on the axes.

Figures are :class:`matplotlib.figure.Figure` objects on an Agg canvas (no pyplot, so no global
state and no display is ever touched); :func:`save` writes the PNG and the SVG.
"""

from __future__ import annotations

import matplotlib
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

__all__ = ["COLORS", "MARKERS", "RC", "new_figure", "save", "band_floor", "integer_ticks", "styled"]

#: Okabe and Ito (2008), "Color Universal Design": distinguishable under every common colour
#: vision deficiency; each role of the reports has one colour
COLORS = {
    "empirical": "#0072B2",     # blue: the learner's mean excess risk and its interval
    "bound": "#E69F00",         # orange: the theorem's bound
    "tuned": "#009E73",         # bluish green: the tuned step size
    "violation": "#D55E00",     # vermillion: a violated (literal, erratum) statement
    "exact": "#000000",         # black: an exact curve
    "printed": "#CC79A7",       # reddish purple: a value printed in a paper
    "neutral": "#56B4E9",       # sky blue: other series
}

#: markers by role (shape as well as colour, for greyscale prints)
MARKERS = {"empirical": "o", "bound": None, "tuned": "s", "violation": "X", "printed": "D",
           "exact": None, "neutral": "^"}

#: rcParams of every figure (matplotlib.rc_context)
RC = {
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "legend.fontsize": 9,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "savefig.dpi": 100,
    "svg.fonttype": "none",
    "svg.hashsalt": "laocheck",           # reproducible SVG ids
}

#: figure size in inches at 100 dpi: 720 px wide, readable at 100% zoom
SIZE = (7.2, 4.4)


def styled():
    """The context every figure is drawn in (``with styled(): ...``)."""
    return matplotlib.rc_context(RC)


def new_figure(nrows=1, ncols=1, *, size=SIZE, **kwargs):
    """A Figure on an Agg canvas with ``nrows`` x ``ncols`` axes (returns fig, axes array)."""
    with matplotlib.rc_context(RC):
        fig = Figure(figsize=size, layout="constrained")
        FigureCanvasAgg(fig)
        axes = fig.subplots(nrows, ncols, squeeze=False, **kwargs)
    return fig, axes


def save(fig, directory, name):
    """Write ``name``.png and ``name``.svg into ``directory``; returns the two file names."""
    png, svg = f"{name}.png", f"{name}.svg"
    with matplotlib.rc_context(RC):
        fig.savefig(directory / png, format="png", metadata={"Software": None})
        fig.savefig(directory / svg, format="svg", metadata={"Date": None})
    return png, svg


def band_floor(values):
    """The bottom of a log-scale axis for bands whose lower end may be <= 0: a third of the
    smallest positive value drawn (a band reaching 0 is drawn down to the axis)."""
    positive = [v for v in values if v is not None and v > 0]
    return min(positive) / 3 if positive else 1e-6


def integer_ticks(ax, values):
    """Ticks of a log x axis at the grid's own values, written as integers (250, 500, ...)."""
    ax.set_xticks(values, [f"{v:g}" for v in values])
    ax.minorticks_off()
