"""The rendered reports, read as a reader would: every number shown is in report.json, the
JSON equals the records and experiment results it comes from, every referenced file exists,
and each figure draws what its data says (asserted on the matplotlib objects)."""

import importlib.util
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

from laocheck.checks import checks, check_seed, get, run
from laocheck.checks._slack import LOOSE, tightness
from laocheck.experiments.rho import rho_table
from laocheck.report._document import fmt
from laocheck.report.bounds import _power_text
from laocheck.experiments.sweeps import sweep
from laocheck.report import fmt

from .conftest import NAMES, SEED

NUMBER = re.compile(r"\d+(?:\.\d+)?(?:e[-+]?\d+)?")


class _Page(HTMLParser):
    """Text (without <style>), references (src, href) and tables (data-table -> rows of cell
    texts) of an HTML page."""

    def __init__(self):
        super().__init__()
        self.text, self.refs, self.tables = [], [], {}
        self._style = False
        self._table = None
        self._cell = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "style":
            self._style = True
        for key in ("src", "href"):
            if key in attrs:
                self.refs.append(attrs[key])
        if tag == "table":
            self._table = self.tables.setdefault(attrs["data-table"], [])
        elif tag == "tr" and self._table is not None and "data-key" in attrs:
            self._table.append([])
        elif tag == "td" and self._table is not None:
            self._cell = []

    def handle_endtag(self, tag):
        if tag == "style":
            self._style = False
        elif tag == "td" and self._cell is not None:
            self._table[-1].append("".join(self._cell))
            self._cell = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data):
        if self._style:
            return
        self.text.append(data)
        if self._cell is not None:
            self._cell.append(data)


def _page(report):
    parser = _Page()
    parser.feed((report.path / "index.html").read_text(encoding="utf-8"))
    return parser


def _json_tokens(value, out):
    """Every number token of the JSON document: numbers as fmt shows them and as they are,
    and the number tokens inside strings and keys."""
    if isinstance(value, dict):
        for k, v in value.items():
            out.update(NUMBER.findall(str(k)))
            _json_tokens(v, out)
    elif isinstance(value, list):
        out.update(NUMBER.findall(fmt(value)))
        for v in value:
            _json_tokens(v, out)
    elif isinstance(value, (bool, int, float)):
        out.update(NUMBER.findall(fmt(value)))
        out.update(NUMBER.findall(str(value)))
    elif isinstance(value, str):
        out.update(NUMBER.findall(value))
    return out


def _doc(report):
    return json.loads((report.path / "report.json").read_text(encoding="utf-8"))


def _without_seconds(value):
    """The value with every timing field removed (wall-clock times differ run to run)."""
    if isinstance(value, dict):
        return {k: _without_seconds(v) for k, v in value.items()
                if k not in ("seconds", "cpu_seconds")}
    if isinstance(value, list):
        return [_without_seconds(v) for v in value]
    return value


@pytest.mark.parametrize("name", NAMES)
def test_written_files_and_references_exist(built, name):
    report = built[name]
    for f in ("index.html", "report.md", "report.json"):
        assert (report.path / f).is_file()
    doc = _doc(report)
    assert doc["report"] == name and doc["provenance"]["seed"] == SEED
    assert doc["provenance"]["effort"] == "tiny" and "versions" in doc["provenance"]
    page = _page(report)
    assert page.refs, "the page references its figures"
    for ref in page.refs:
        assert not re.match(r"[a-z]+://", ref), f"{ref} leaves the report directory"
        if ref.startswith("#"):           # the table of contents: an anchor of the page
            assert f'id="{ref[1:]}"' in (report.path / "index.html").read_text("utf-8"), ref
            continue
        assert (report.path / ref).is_file(), ref
    md = (report.path / "report.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)]+)\)", md)
    assert links
    for ref in links:
        assert (report.path / ref).is_file(), ref
    for entry in doc["figures"]:
        for key in ("png", "svg"):
            assert (report.path / entry[key]).stat().st_size > 1000
        assert f"figures/{entry['name']}.png" in page.refs
    # PNG files are PNG, SVG files are SVG
    for entry in doc["figures"]:
        assert (report.path / entry["png"]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert b"<svg" in (report.path / entry["svg"]).read_bytes()[:2000]
    # nothing but the report beside it (no temporary directory left behind)
    assert [p.name for p in report.path.parent.iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("page", ["index.html", "report.md"])
def test_every_number_shown_is_in_the_json(built, name, page):
    report = built[name]
    allowed = _json_tokens(_doc(report), set())
    if page == "index.html":
        text = " ".join(_page(report).text)
    else:
        text = (report.path / page).read_text(encoding="utf-8")
    shown = set(NUMBER.findall(text))
    assert shown, "the page shows numbers"
    assert shown <= allowed, f"numbers shown but not in report.json: {sorted(shown - allowed)}"


@pytest.mark.parametrize("name", NAMES)
def test_tables_show_the_json_values(built, name):
    report = built[name]
    doc = _doc(report)
    page = _page(report)
    md = (report.path / "report.md").read_text(encoding="utf-8")
    shown = 0
    for table in doc["tables"]:
        if table["name"] not in page.tables:
            continue                       # a table the spec does not show
        cells = page.tables[table["name"]]
        assert len(cells) == len(table["rows"])
        for row, html_row in zip(table["rows"], cells):
            # a name in backticks is shown as <code> (its text without the backticks)
            assert html_row == [re.sub(r"`([^`]+)`", r"\1", fmt(v)) for v in row]
            md_cells = [f"`{fmt(v)}`" if isinstance(v, str) and v.startswith("laocheck ")
                        else _md_literal(fmt(v)) for v in row]
            assert "| " + " | ".join(md_cells) + " |" in md
            shown += 1
    assert shown > 0


def _md_literal(text):
    """``text`` as report.md must show it: Markdown's markup characters backslash-escaped
    (so ``<script>`` or ``[a](b)`` in a value is shown, not rendered), one line."""
    out = []
    for ch in text.replace("\n", " "):
        out.append("\\" + ch if ch in "\\`*_[]<>|&" else ch)
    return "".join(out)


def test_verification_json_equals_the_records(built):
    doc = _doc(built["verification"])
    spec_only = doc["settings"]["only"]
    ids = [c.id for c in checks(spec_only)]
    records = [run(get(i), SEED, "tiny").to_dict() for i in ids]   # the report's profile
    assert _without_seconds(doc["data"]["records"]) == _without_seconds(
        json.loads(json.dumps(records)))
    statuses = [r["status"] for r in records]
    summary = next(t for t in doc["tables"] if t["name"] == "summary")
    assert sum(row[-1] for row in summary["rows"]) == len(records)
    for status, column in (("PASS", 1), ("FAIL", 2), ("ERRATUM", 3), ("INCONCLUSIVE", 4)):
        assert summary["columns"][column] == status
        assert sum(row[column] for row in summary["rows"]) == statuses.count(status)
    errata = next(t for t in doc["tables"] if t["name"] == "errata")
    assert [row[0] for row in errata["rows"]] == [r["id"] for r in records
                                                   if r["status"] == "ERRATUM"]
    assert errata["rows"], "the tiny spec includes errata"
    for row in errata["rows"]:
        assert row[-1] == f"laocheck verify --only '{row[0]}' --seed {SEED}"


def test_rho_json_equals_the_experiment(built):
    doc = _doc(built["rho"])
    s = doc["settings"]
    assert doc["data"]["table"] == rho_table(d=s["d"], alphas=tuple(s["alphas"]))
    grid = np.linspace(s["curve_from"], s["curve_to"], s["curve_points"])
    assert [r["exact"] for r in doc["data"]["curve"]] == [
        r["exact"] for r in rho_table(d=s["d"], alphas=tuple(float(a) for a in grid))]


def test_bounds_json_equals_the_sweeps(built):
    doc = _doc(built["bounds"])
    s = doc["settings"]
    t = "HK12.Thm3.1"
    again = sweep(t, "m", s["m_values"], d=s["d"], k=s["k"], m=s["m"], B=s["B"], R=s["R"],
                  delta=s["delta"], kind=s["dist"],
                  seed=check_seed(SEED, f"report:bounds.m.{t}")).to_dict()
    assert _without_seconds(doc["data"]["m_sweeps"][t]) == _without_seconds(again)
    rows = {row[0]: row for row in next(x for x in doc["tables"]
                                        if x["name"] == "theorems")["rows"]}
    last = again["points"][-1]
    assert rows[t][2:8] == [last["m"], last["bound"], last["mean"], last["low"], last["high"],
                            last["ratio"]]
    assert rows[t][10:] == [again["slope"], again["slope_low"], again["slope_high"],
                            again["bound_slope"]]
    # the power beside the verdict: the best point's F (the comparisons' own), or "no power"
    best = min(p["detects"] for p in again["points"])
    assert all(p["detects"] >= 1 for p in again["points"])
    assert rows[t][9] == ("no power" if best >= 1e12 else f"{fmt(best)}×")
    # a theorem without an explicit constant is listed with its reason, not silently dropped
    assert "HK12.Thm4.4" in doc["data"]["not_run"]
    assert "no explicit constant" in doc["data"]["not_run"]["HK12.Thm4.4"]


def test_a_comparison_without_power_says_so():
    """'violation: no' beside F: the best point's power, 'no power' when no point can refute
    any bound (F at its 1e12 limit), '–' for a file written before the figure."""
    assert _power_text({"points": [{"detects": 5.64}, {"detects": 3.84}]}) == "3.84×"
    assert _power_text({"points": [{"detects": 1e12}, {"detects": 1e12}]}) == "no power"
    assert _power_text({"points": [{"m": 100}]}) == "–"


def _lines(ax):
    return {line.get_label(): line for line in ax.get_lines()}


def test_bounds_figures_draw_their_data(built):
    report = built["bounds"]
    figs = {ref.name: (fig, data) for ref, fig, data in report.figures}
    sw = report.doc["data"]["m_sweeps"]["HK12.Thm3.1"]
    fig, data = figs["m_HK12.Thm3.1"]
    ax, axr = fig.axes
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    assert ax.get_ylabel() == "excess risk E[L_D(w̄)] − L_D(w*)"
    assert axr.get_xlabel() == "m (training examples)" and axr.get_ylabel() == "mean / bound"
    lines = _lines(ax)
    mean = lines[f"mean excess risk (R = {sw['R']} runs)"]
    bound = lines["bound of HK12.Thm3.1"]
    assert list(mean.get_xdata()) == [p["m"] for p in sw["points"]]
    assert list(mean.get_ydata()) == [p["mean"] for p in sw["points"]]
    assert list(bound.get_ydata()) == [p["bound"] for p in sw["points"]]
    assert len(ax.collections) == 1                       # the confidence band
    band = ax.collections[0].get_paths()[0].vertices
    assert np.isclose(band[:, 1].max(), max(p["high"] for p in sw["points"]))
    ratio = _lines(axr)["tightness mean / bound"]
    assert np.allclose(ratio.get_ydata(), [p["mean"] / p["bound"] for p in sw["points"]])
    # the ratio band spans [max(low, 0) / bound, high / bound], clipped at its own axis floor
    rband = axr.collections[0].get_paths()[0].vertices
    assert np.isclose(rband[:, 1].max(), max(p["high"] / p["bound"] for p in sw["points"]))
    assert np.isclose(rband[:, 1].min(), max(min(p["low"] / p["bound"] for p in sw["points"]),
                                             data["ratio_axis_floor"]))
    assert data["ratio_axis_floor"] <= min(p["ratio"] for p in sw["points"])
    assert axr.get_ylim()[0] == data["ratio_axis_floor"]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == [f"interval at δ = {fmt(sw['delta'])}", f"mean excess risk (R = {sw['R']} runs)",
                      "bound of HK12.Thm3.1"]
    assert data == next(e["data"] for e in report.doc["figures"] if e["name"] == "m_HK12.Thm3.1")
    # d and k sweeps of the headline ridge theorem
    for var, label in (("d", "d (dimension)"), ("k", "k (attributes observed per example: "
                                                      "k + 1 for most learners)")):
        fig, _ = figs[f"{var}_HK12.Thm3.1"]
        assert fig.axes[1].get_xlabel() == label
        xs = list(_lines(fig.axes[0])[f"mean excess risk (R = {sw['R']} runs)"].get_xdata())
        assert xs == report.doc["settings"][f"{var}_values"]
    # step sizes: the theory step at c = 1 and the tuned c marked
    fig, _ = figs["steps"]
    st = report.doc["data"]["steps"]["HK12.Thm3.1"]
    ax = fig.axes[0]
    lines = _lines(ax)
    assert list(lines[f"tuning runs (R = {st['R_tune']})"].get_ydata()) == st["tune_means"]
    assert list(lines["theory η (c = 1)"].get_xdata()) == [1.0, 1.0]
    assert list(lines[f"tuned c = {fmt(st['best_multiplier'])}"].get_xdata()) == [
        st["best_multiplier"]]
    assert st["tune_means"][st["multipliers"].index(st["best_multiplier"])] == min(st["tune_means"])
    # errata: one row per record with an excess-risk interval
    fig, data = figs["errata"]
    recs = report.doc["data"]["errata"]
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == [r["id"] for r in recs]
    assert data["ratio"] == [r["figures"]["excess_mean"] / r["figures"]["bound"] for r in recs]


def test_verification_figures_draw_their_data(built):
    report = built["verification"]
    figs = {ref.name: (fig, data) for ref, fig, data in report.figures}
    records = report.doc["data"]["records"]
    fig, data = figs["worst_ratios"]
    ax = fig.axes[0]
    with_ratio = sorted((r for r in records if (tightness(r) or 0) > 0), key=tightness)
    assert len(with_ratio) >= 2
    assert [t.get_text() for t in ax.get_yticklabels()] == [r["id"] for r in with_ratio]
    filled = [p for p in ax.patches if p.get_fill()]
    assert sorted(p.get_width() for p in filled) == sorted(tightness(r) for r in with_ratio)
    outlines = [p.get_width() for p in ax.patches if not p.get_fill()]
    assert sorted(outlines) == sorted(t for t in map(tightness, with_ratio) if t < LOOSE)
    assert ax.get_xscale() == "log"
    assert [line.get_xdata()[0] for line in ax.get_lines()] == [1.0, LOOSE]
    fig, data = figs["summary"]
    total = sum(p.get_width() for p in fig.axes[0].patches)
    assert total == len(records)


def test_rho_figure_draws_the_exact_curve_and_the_printed_values(built):
    report = built["rho"]
    (ref, fig, data), = report.figures
    doc = report.doc["data"]
    for ax, scen in zip(fig.axes, ("ridge", "lasso")):
        assert ax.get_yscale() == "log"
        assert ax.get_ylabel() == r"$\rho_{\mathrm{%s}}$" % scen
        assert ax.get_xlabel().startswith(r"$\alpha$ (power-law exponent")
        lines = _lines(ax)
        assert list(lines["exact"].get_ydata()) == [r["exact"] for r in doc["curve"]
                                                    if r["scenario"] == scen]
        printed = [float(r["printed"]) for r in doc["table"]
                   if r["scenario"] == scen and r["printed"] is not None]
        assert list(lines["printed in KS15"].get_ydata()) == printed and len(printed) == 4


def _overlapping_tick_labels():
    """tests/docs/_ticks.py's helper (the gallery's figure test uses the same one)."""
    path = Path(__file__).resolve().parents[1] / "docs" / "_ticks.py"
    spec = importlib.util.spec_from_file_location("_ticks", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.overlapping_tick_labels


@pytest.mark.parametrize("name", NAMES)
def test_no_two_tick_labels_of_a_report_figure_overlap(built, name):
    overlapping = _overlapping_tick_labels()
    for ref, fig, _ in built[name].figures:
        assert overlapping(fig) == [], ref.name
