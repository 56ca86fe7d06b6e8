"""The gallery's figures are legible at their own size: no two tick labels of an axis overlap,
and numbers are plotted as numbers (no axis of categories that all read as numbers: KS15's
printed ρ values, strings, once sat in a row of categories on a log axis).

Each script of ``docs/examples`` runs as the docs build runs it (sphinx-gallery executes it
and saves every open pyplot figure at the figure's size), here under the Agg backend; every
figure it leaves open is drawn and its tick labels' bounding boxes are compared
(``tests/docs/_ticks.py``).
"""
import importlib.util
import runpy
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")
import matplotlib.category  # noqa: E402  (after the backend is chosen)
import matplotlib.pyplot as plt  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted((ROOT / "docs" / "examples").glob("plot_*.py"))


def _load(name):
    """A helper module beside this one (--import-mode=importlib puts nothing on sys.path)."""
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


overlapping_tick_labels = _load("_ticks").overlapping_tick_labels


def numbers_as_categories(fig):
    """[(axes title, axis name, categories)] of the axes whose categorical units hold only
    strings that read as numbers (matplotlib then places "0.05" at category 0, 1, ...)."""
    found = []
    for ax in fig.axes:
        for name, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
            units = axis.get_units()
            if isinstance(units, matplotlib.category.UnitData) and units._mapping:
                cats = list(units._mapping)
                try:
                    [float(c) for c in cats]
                except ValueError:
                    continue
                found.append((ax.get_title(), name, cats))
    return found


def test_the_gallery_has_its_scripts():
    assert len(SCRIPTS) >= 5


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_no_two_tick_labels_of_a_gallery_figure_overlap(script):
    plt.close("all")
    try:
        runpy.run_path(str(script), run_name="__main__")
        figures = [plt.figure(n) for n in plt.get_fignums()]
        assert figures, f"{script.name} drew no figure"
        for fig in figures:
            assert overlapping_tick_labels(fig) == [], script.name
            assert numbers_as_categories(fig) == [], script.name
    finally:
        plt.close("all")


def test_colliding_labels_are_seen():
    """The check itself: matplotlib's default log ticks on a narrow axis from 250 to 4000 print
    3×10², 4×10², ... into one another (the gallery's bound figure before it set its ticks), and
    long category names side by side do too; level, spaced labels do not."""
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot([250, 4000], [1, 2])
    ax.set_xscale("log")
    assert any(axis == "x" for _, axis, _, _ in overlapping_tick_labels(fig))
    fig2, ax2 = plt.subplots(figsize=(3, 3))
    ax2.bar(["PASS", "INCONCLUSIVE", "ERRATUM"], [3, 1, 2])
    assert any(axis == "x" for _, axis, _, _ in overlapping_tick_labels(fig2))
    fig3, ax3 = plt.subplots(figsize=(6, 4))
    ax3.barh(["PASS", "INCONCLUSIVE", "ERRATUM"], [3, 1, 2])
    assert overlapping_tick_labels(fig3) == []
    plt.close("all")


def test_numbers_given_as_strings_are_seen():
    """The check itself: the former ρ figure scattered KS15's printed values, strings such as
    "0.05", onto a log axis as categories; names as categories and numbers are fine."""
    fig, ax = plt.subplots()
    ax.scatter([-2.0, -1.0], ["0.05", "0.55"])
    assert [(axis, cats) for _, axis, cats in numbers_as_categories(fig)] == [
        ("y", ["0.05", "0.55"])]
    fig2, ax2 = plt.subplots()
    ax2.bar(["PASS", "FAIL"], [3, 1])
    ax2.scatter([-2.0, -1.0], [float("0.05"), float("0.55")])
    assert numbers_as_categories(fig2) == []
    plt.close("all")
