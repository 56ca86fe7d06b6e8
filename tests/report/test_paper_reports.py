"""The papers' experiments as reports (kind ``paper``), at the specs' tiny effort on
scikit-learn's digits (a stand-in): every spec renders, the figures draw the experiment's
curves, every printed number and claim is in report.json, a stand-in is labelled as such, and
``laocheck report``'s data options (``--source``, ``--mnist``, ``--covtype``).

The experiments' computations (splits, cross-validation, claims) are tested in
tests/experiments/test_papers.py; here only what the report shows."""

import json
import shutil
from dataclasses import replace

import numpy as np
import pytest

from laocheck.cli import main
from laocheck.effort import get_profile
from laocheck.experiments import papers
from laocheck.experiments.papers import EXPERIMENTS
from laocheck.report import KINDS, Context, build_report, load_spec
from laocheck.report.paper import _caption, grid_edges, grid_edges_table

from .conftest import SPECS
from .test_reports import NUMBER, _json_tokens, _overlapping_tick_labels, _page

PAPER_SPECS = ("ks15_synthetic", "hk12_mnist", "cb11_mnist", "ks15_real", "ks15_adaptive")
DIGITS = "sklearn-digits"
SEED = 4


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """{name: BuiltReport} of the five paper specs at effort tiny on scikit-learn's digits."""
    out = tmp_path_factory.mktemp("paper_reports")
    reports = {}
    for name in PAPER_SPECS:
        spec = load_spec(SPECS / f"{name}.toml", KINDS)
        spec = replace(spec, settings={**spec.settings, "source": DIGITS})
        reports[name] = build_report(spec, out, effort="tiny",
                                     ctx=Context(seed=SEED, effort="tiny"))
    return reports


def test_the_five_specs_are_paper_reports_of_the_five_experiments():
    specs = {n: load_spec(SPECS / f"{n}.toml", KINDS) for n in PAPER_SPECS}
    assert {s.settings["experiment"] for s in specs.values()} == set(EXPERIMENTS)
    for spec in specs.values():
        assert spec.kind == "paper"
        assert {"tiny", "fast", "full"} <= set(spec.effort_tables)


@pytest.mark.parametrize("name", PAPER_SPECS)
def test_every_spec_renders_its_files(built, name):
    rep = built[name]
    for f in ("index.html", "report.md", "report.json"):
        assert (rep.path / f).is_file()
    # strict JSON (RFC 8259): no NaN or Infinity, which JavaScript and jq refuse (the claims'
    # tables hold infinite interval ends and undefined power figures at this effort)
    doc = json.loads((rep.path / "report.json").read_text(encoding="utf-8"),
                     parse_constant=lambda c: pytest.fail(f"report.json holds {c}"))
    result = doc["data"]["result"]
    assert doc["kind"] == "paper" and result["experiment"] == name
    assert result["effort"] == "tiny" and result["seed"] == SEED
    assert "provenance" in doc
    # one figure per panel, each written as PNG and SVG
    assert len(doc["figures"]) == len(result["panels"]) == len(rep.figures)
    for entry in doc["figures"]:
        assert (rep.path / entry["png"]).is_file() and (rep.path / entry["svg"]).is_file()
    tables = {t["name"]: t for t in doc["tables"]}
    # the printed numbers: paper says, measured, interval, source, for each of the result's
    assert [r[:8] for r in tables["numbers"]["rows"]] == [
        [n["quantity"], n["citation"], n["paper_says"], n["measured"], n["low"], n["high"],
         n["delta"], n["source"]] for n in result["numbers"]]
    # the claims: status, delta, runs, source
    assert [r[:5] for r in tables["claims"]["rows"]] == [
        [c["claim"], c["citation"], c["status"], c["delta"], c["runs"]]
        for c in result["claims"]]
    assert all(r[2] in ("HOLDS", "DOES NOT HOLD", "INCONCLUSIVE")
               for r in tables["claims"]["rows"])
    html = (rep.path / "index.html").read_text(encoding="utf-8")
    for c in result["claims"]:
        assert c["claim"] in html or c["claim"].replace("'", "&#x27;") in html


@pytest.mark.parametrize("page", ["index.html", "report.md"])
@pytest.mark.parametrize("name", PAPER_SPECS)
def test_every_number_shown_is_in_the_json(built, name, page):
    rep = built[name]
    allowed = _json_tokens(json.loads((rep.path / "report.json").read_text(encoding="utf-8")),
                           set())
    text = (" ".join(_page(rep).text) if page == "index.html"
            else (rep.path / page).read_text(encoding="utf-8"))
    shown = set(NUMBER.findall(text))
    assert shown and shown <= allowed, sorted(shown - allowed)


@pytest.mark.parametrize("name", ["ks15_synthetic", "hk12_mnist", "cb11_mnist", "ks15_real"])
def test_each_figure_draws_the_curves_of_its_panel(built, name):
    rep = built[name]
    panels = rep.doc["data"]["result"]["panels"]
    assert panels
    axes_names = rep.doc["settings"]["axes"]
    for (ref, fig, data), panel in zip(rep.figures, panels):
        axes = fig.get_axes()
        assert len(axes) == len(axes_names)
        for ax, axis in zip(axes, axes_names):
            labels = ax.get_legend_handles_labels()[1] if ax is axes[0] else None
            if labels is not None:
                assert labels == [c["algorithm"] for c in panel["curves"]]
            lines = [ln for ln in ax.get_lines() if len(ln.get_xdata()) > 1
                     or ln.get_linestyle() != "None"]
            for curve in panel["curves"]:
                x = np.asarray(curve[axis], dtype=float)
                y = np.asarray(curve["mean"], dtype=float)
                drawn = any(np.array_equal(np.asarray(ln.get_xdata(), float), x)
                            and np.array_equal(np.asarray(ln.get_ydata(), float), y)
                            for ln in lines)
                # a budget-matched curve compares attributes: drawn on that axis only
                assert drawn == (axis == "attributes" or not curve["budget_matched"]), \
                    (name, curve["algorithm"], axis)
        # the band and the error bars in the figure's JSON data are the curve's
        for fc, curve in zip(data["curves"], panel["curves"]):
            assert fc["low"] == curve["low"] and fc["high"] == curve["high"]
            assert fc["sd"] == curve["sd"]


def test_cb11_draws_against_examples_too(built):
    doc = built["cb11_mnist"].doc
    assert doc["settings"]["axes"] == ["attributes", "examples"]
    fig = built["cb11_mnist"].figures[0][1]
    assert [ax.get_xlabel().split(" ")[0] for ax in fig.get_axes()] == ["attributes", "training"]


@pytest.mark.parametrize("name", ["hk12_mnist", "cb11_mnist", "ks15_real"])
def test_a_stand_in_is_labelled_and_never_compared(built, name):
    rep = built[name]
    result = rep.doc["data"]["result"]
    assert all(p["stand_in"] and "scikit-learn digits" in p["source"] for p in result["panels"])
    for ref, fig, _ in rep.figures:
        assert "STAND-IN" in ref.title and "STAND-IN" in ref.caption
        assert "STAND-IN" in fig._suptitle.get_text()
    tables = {t["name"]: t for t in rep.doc["tables"]}
    cols = tables["numbers"]["columns"]
    on = cols.index("measured on")
    for row, number in zip(tables["numbers"]["rows"], result["numbers"]):
        assert number["stand_in"]
        assert row[on].startswith("STAND-IN") and "not comparable" in row[on]
    md = (rep.path / "report.md").read_text(encoding="utf-8")
    assert "STAND-IN" in md and "is not the paper's data set" in md


def test_synthetic_data_is_not_a_stand_in(built):
    rep = built["ks15_synthetic"]
    assert "STAND-IN" not in (rep.path / "index.html").read_text(encoding="utf-8")
    tables = {t["name"]: t for t in rep.doc["tables"]}
    on = tables["numbers"]["columns"].index("measured on")
    assert all(r[on] == "the paper's data set" for r in tables["numbers"]["rows"])
    col = tables["panels"]["columns"].index("stand-in")
    assert tables["panels"]["rows"] and not any(r[col] for r in tables["panels"]["rows"])
    assert not any("STAND-IN" in ref.title or "STAND-IN" in ref.caption
                   for ref, _, _ in rep.figures)


@pytest.mark.parametrize("name", ["ks15_synthetic", "hk12_mnist", "cb11_mnist", "ks15_real",
                                  "ks15_adaptive"])
def test_claims_not_decided_are_listed_with_the_reason(built, name):
    """Every claim of the text is either decided (claims table) or listed with the reason it
    is not (e.g. a similarity with no margin), in the JSON and on the page."""
    rep = built[name]
    result = rep.doc["data"]["result"]
    tables = {t["name"]: t for t in rep.doc["tables"]}
    rows = tables["unchecked"]["rows"]
    assert len(rows) == len(result["unchecked"]) >= 1
    assert all(claim.endswith(")") and "(" in claim and reason for claim, reason in rows)
    html = (rep.path / "index.html").read_text(encoding="utf-8").replace("&#x27;", "'")
    assert all(reason in html for _, reason in rows)


def test_missing_covertype_is_listed_with_its_reason(built):
    rep = built["ks15_real"]
    tables = {t["name"]: t for t in rep.doc["tables"]}
    rows = tables["unavailable"]["rows"]
    assert len(rows) == 1 and "Covertype" in rows[0][0] and "covtype" in rows[0][1]
    html = (rep.path / "index.html").read_text(encoding="utf-8")
    assert "Not run here" in html and rows[0][1] in html.replace("&#x27;", "'")


def test_source_digits_on_the_command_line(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["report", "hk12_mnist", "--effort", "tiny", "--source", "digits",
                 "--out", str(out)]) == 0
    err = capsys.readouterr().err                       # the runs' progress, per panel
    assert "panel 1/2 (HK12 Fig. 1): 2/2 runs (100%)" in err
    assert "panel 2/2 (HK12 Fig. 2): 2/2 runs (100%)" in err
    doc = json.loads((out / "hk12_mnist" / "report.json").read_text(encoding="utf-8"))
    assert doc["settings"]["source"] == DIGITS
    assert doc["data"]["arguments"]["source"] == DIGITS
    assert all("scikit-learn digits" in p["source"] for p in doc["data"]["result"]["panels"])


def test_missing_covtype_file_is_a_usage_error_naming_it(tmp_path, capsys):
    missing = tmp_path / "covtype.data.gz"
    assert main(["report", "ks15_real", "--effort", "tiny", "--covtype", str(missing),
                 "--out", str(tmp_path / "out"), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert str(missing) in err and "--covtype" in err
    assert not (tmp_path / "out" / "ks15_real").exists()


def test_mnist_directory_without_idx_files_is_a_usage_error(tmp_path, capsys):
    empty = tmp_path / "no_idx"
    empty.mkdir()
    (empty / "readme.txt").write_text("not MNIST", encoding="utf-8")
    assert main(["report", "hk12_mnist", "--effort", "tiny", "--mnist", str(empty),
                 "--out", str(tmp_path / "out"), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "MNIST" in err and str(empty) in err
    assert not (tmp_path / "out" / "hk12_mnist").exists()


def test_source_mnist_needs_the_directory(tmp_path, capsys):
    assert main(["report", "hk12_mnist", "--source", "mnist", "--out", str(tmp_path)]) == 2
    assert "`--source mnist` needs `--mnist DIR`" in capsys.readouterr().err


def test_without_names_paper_reports_only_with_all(tmp_path):
    specs = tmp_path / "specs"
    specs.mkdir()
    shutil.copy(SPECS / "rho.toml", specs / "rho.toml")
    shutil.copy(SPECS / "ks15_adaptive.toml", specs / "ks15_adaptive.toml")
    out = tmp_path / "out"
    assert main(["report", "--specs", str(specs), "--effort", "tiny", "--out", str(out),
                 "--no-progress"]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["rho"]
    assert main(["report", "--all", "--specs", str(specs), "--effort", "tiny", "--out",
                 str(out), "--no-progress"]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["ks15_adaptive", "rho"]


def test_a_bad_experiment_setting_is_refused_before_any_run(tmp_path, capsys):
    spec = tmp_path / "mine.toml"
    spec.write_text('name = "mine"\nkind = "paper"\ntitle = "t"\n[settings]\n'
                    'experiment = "ks15_synthetic"\npairs = [[3, 5]]\n[effort.tiny]\n',
                    encoding="utf-8")
    assert main(["report", "mine", "--specs", str(tmp_path), "--effort", "tiny", "--out",
                 str(tmp_path / "out"), "--no-progress"]) == 2
    assert "`pairs` is not a parameter of experiment 'ks15_synthetic'" in capsys.readouterr().err


def test_grid_edges_count_the_runs_tuned_at_an_end_of_the_grid():
    """A curve whose cross-validated B sat at the largest grid value in 2 of 3 runs (and at the
    smallest in 1) is reported with those counts, in the caption and the grid_edges table; a
    curve tuned inside the grid, and a one-value grid, are not."""
    inside = {"algorithm": "Inside", "delta": 1e-6, "tuned": [{"B": 1.0, "step_scale": 4.0}] * 3}
    edge = {"algorithm": "Edge", "delta": 1e-6, "tuned": [{"B": 2.0, "step_scale": 4.0},
                                           {"B": 2.0, "step_scale": 4.0},
                                           {"B": 0.5, "step_scale": 16.0}]}
    panel = {"figure": "Fig. X", "curves": [inside, edge], "source": "s", "stand_in": False,
             "preprocessing": "p", "d": 3, "n_train": 10, "n_test": 2,
             "attributes_per_example": "k + 1 = 2", "rho_ridge": 0.5, "rho_lasso": 0.5}
    result = {"grid": [0.5, 1.0, 2.0], "step_scales": [1.0, 4.0, 16.0], "runs": 3,
              "panels": [panel]}
    assert grid_edges(panel, result) == {"Edge": {"B": (1, 2), "step_scale": (0, 1)}}
    table = grid_edges_table(result)
    assert [list(r) for r in table.rows] == [["Fig. X", "Edge", "B", 1, 2, 3],
                                            ["Fig. X", "Edge", "step_scale", 0, 1, 3]]
    caption = _caption(panel, result)
    assert "the largest B (2) in 2" in caption and "the smallest (0.5) in 1" in caption
    assert "Inside" not in caption
    one_value = {**result, "grid": [1.0], "step_scales": [1.0]}
    assert grid_edges(panel, one_value) == {} and not grid_edges_table(one_value).rows


def test_grid_edges_are_the_ends_the_extended_grid_could_reach():
    """With ``grid_extensions`` = 1 the ends are one grid ratio beyond the grid (B: 0.25 and
    4; step multiplier 0.25 and 64): a run tuned at the grid's own end (B = 2) is inside what
    the search could reach and is not counted; runs at the extended ends are."""
    curve = {"algorithm": "A", "delta": 1e-6, "tuned": [{"B": 2.0, "step_scale": 64.0},
                                                         {"B": 4.0, "step_scale": 16.0},
                                                         {"B": 0.25, "step_scale": 0.25}]}
    panel = {"figure": "Fig. X", "curves": [curve], "source": "s", "stand_in": False,
             "preprocessing": "p", "d": 3, "n_train": 10, "n_test": 2,
             "attributes_per_example": "k + 1 = 2", "rho_ridge": 0.5, "rho_lasso": 0.5}
    result = {"grid": [0.5, 1.0, 2.0], "step_scales": [1.0, 4.0, 16.0], "runs": 3,
              "panels": [panel], "grid_extensions": 1}
    assert grid_edges(panel, result) == {"A": {"B": (1, 1), "step_scale": (1, 1)}}
    caption = _caption(panel, result)
    assert "the largest B (4) in 1" in caption and "the smallest (0.25) in 1" in caption
    # without extensions the grid's own ends are the limits (values beyond count as there)
    assert grid_edges(panel, {**result, "grid_extensions": 0}) == {
        "A": {"B": (1, 2), "step_scale": (1, 2)}}


def test_a_budget_matched_curve_far_above_one_does_not_stretch_the_axis():
    """A full-information learner on a handful of examples can have a relative error in the
    thousands (KS15 Fig. 2 at alpha = 0: y is nearly constant); the y axis stops at
    max(2, 1.5 × the solid curves' highest mean), and the dashed curve is drawn on the attribute
    axis only."""
    from laocheck.report.paper import panel_figure

    def curve(name, mean, matched):
        return {"algorithm": name, "learner": "x", "attributes": [10.0, 100.0],
                "examples": [2, 20], "mean": mean, "sd": [0.01, 0.01], "low": [0.0, 0.0],
                "high": [1.0, 1.0], "delta": 1e-6, "budget_matched": matched}

    panel = {"figure": "F", "title": "t", "source": "s", "stand_in": False,
             "curves": [curve("A", [0.9, 0.5], False), curve("On", [0.4, 0.2], False),
                        curve("On (same attributes)", [5000.0, 3.0], True)]}
    fig, data = panel_figure(panel, ("attributes", "examples"), runs=2)
    assert data["ylim"][1] == pytest.approx(2.2)          # 2 plus the 10% margin
    attr_ax, ex_ax = fig.get_axes()
    dashed = [ln for ln in attr_ax.get_lines() if ln.get_linestyle() == "--"]
    assert len(dashed) == 1 and list(dashed[0].get_ydata()) == [5000.0, 3.0]
    assert not [ln for ln in ex_ax.get_lines() if ln.get_linestyle() == "--"]


def test_twelve_algorithms_of_a_panel_are_drawn_in_twelve_styles():
    """KS15 Fig. 7 has 9 algorithms (12 curves): with a 7-colour palette the 8th and 9th used
    to repeat the 1st and 2nd exactly. Every algorithm now has its own (colour, marker,
    hollow) style, and a budget-matched curve keeps its algorithm's style, dashed."""
    from laocheck.report.paper import curve_style, panel_figure

    styles = [curve_style(j) for j in range(70)]
    assert len(set((c, m) for c, m, _ in styles)) == 70
    names = [f"alg{j}" for j in range(9)]
    curves = [{"algorithm": n, "learner": "x", "attributes": [10.0, 100.0], "examples": [2, 20],
               "mean": [0.5, 0.4], "sd": [0.01, 0.01], "low": [0.4, 0.3], "high": [0.6, 0.5],
               "delta": 1e-6} for n in names]
    curves.append({**curves[8], "algorithm": "alg8" + " (same attributes)",
                   "budget_matched": True})
    panel = {"figure": "F", "title": "t", "source": "s", "stand_in": False, "curves": curves}
    fig, _ = panel_figure(panel, ("attributes",), runs=2)
    (ax,) = fig.get_axes()
    looks = [(ln.get_color(), ln.get_marker(), ln.get_markerfacecolor(), ln.get_linestyle())
             for ln in ax.get_lines() if ln.get_linestyle() != "None"]   # not the caps
    assert len(looks) == 10 and len(set(looks[:9])) == 9
    assert looks[9][:3] == looks[8][:3] and looks[9][3] == "--" and looks[8][3] == "-"


def test_one_noisy_point_does_not_flatten_the_panel():
    """KS15 Fig. 7 on digits: Ada AERR's first point has mean 1.2 and sd 4.5 while every
    other value is below 0.6; the axis stops at max(2, 1.5 × the highest mean) = 2, not at
    5.7, and starts at 0 (relative errors are >= 0) although mean − sd < 0."""
    from laocheck.report.paper import y_range

    noisy = {"mean": [1.2, 0.3], "sd": [4.5, 0.1]}
    calm = {"mean": [0.6, 0.2], "sd": [0.05, 0.02]}
    assert y_range([noisy, calm]) == (0.0, 2.0)
    assert y_range([calm]) == (0.0, pytest.approx(0.65))      # nothing cut: the top mean + sd
    high = {"mean": [3.0, 1.0], "sd": [1.0, 0.1]}               # 1.5 × 3 = 4.5 >= 4: not cut
    assert y_range([high, calm]) == (0.0, 4.0)


def test_bands_are_drawn_only_where_they_lie_within_the_axis():
    """A betting interval over [0, (B max‖x‖ + max|y|)²/E y²] at δ = 1e-6 over 30 runs can span
    far beyond the axis; such a band would shade the whole figure. It is drawn between the
    points where it lies within the axis and recorded in the data either way."""
    from matplotlib.collections import PolyCollection

    from laocheck.report.paper import panel_figure

    c = {"algorithm": "A", "learner": "x", "attributes": [10.0, 100.0, 1000.0, 1e4],
         "examples": [2, 20, 200, 2000], "mean": [0.5, 0.4, 0.3, 0.2],
         "sd": [0.01] * 4, "low": [0.0, 0.0, 0.25, 0.15], "high": [80.0, 60.0, 0.35, 0.25],
         "delta": 1e-6}
    panel = {"figure": "F", "title": "t", "source": "s", "stand_in": False, "curves": [c]}
    fig, data = panel_figure(panel, ("attributes",), runs=30)
    assert data["curves"][0]["band_drawn"] == [False, False, True, True]
    assert data["curves"][0]["high"] == [80.0, 60.0, 0.35, 0.25]
    (ax,) = fig.get_axes()
    bands = [p for p in ax.collections if isinstance(p, PolyCollection)]
    xs = np.concatenate([path.vertices[:, 0] for b in bands for path in b.get_paths()])
    ys = np.concatenate([path.vertices[:, 1] for b in bands for path in b.get_paths()])
    assert xs.min() == 1000.0 and ys.max() <= 0.35     # only the last two points' band


def test_a_profile_cap_on_training_examples_is_applied_and_stated(tmp_path):
    """The fast profile caps a run's training examples from a data set (``max_train``): the
    panels are fitted on that many and the report says so (here a copy of ``tiny`` with a cap,
    handed to the report as the one profile it reads)."""
    from laocheck.experiments import papers

    capped = get_profile("tiny").replace(max_train=60)
    spec = load_spec(SPECS / "hk12_mnist.toml", KINDS)
    spec = replace(spec, settings={**spec.settings, "source": DIGITS})
    rep = build_report(spec, tmp_path, ctx=Context(seed=SEED, effort=capped))
    result = json.loads((rep.path / "report.json").read_text(encoding="utf-8"))["data"]["result"]
    assert result["max_train"] == 60
    assert [p["n_train"] for p in result["panels"]] == [60, 60]
    assert "at most 60 training examples a run" in (rep.path / "report.md").read_text("utf-8")
    # synthetic panels draw m examples from the distribution: no cap applies or is reported
    synthetic = papers.ks15_synthetic(effort="tiny", alphas=(-1.0,), runs=2)
    assert synthetic.max_train is None and [p.n_train for p in synthetic.panels] == [200, 200]


def test_without_a_cap_the_report_says_nothing_of_one(built):
    for rep in built.values():
        result = json.loads((rep.path / "report.json").read_text("utf-8"))["data"]["result"]
        assert result["max_train"] is None
        assert "training examples a run" not in (rep.path / "report.md").read_text("utf-8")


def test_medians_and_runs_worse_than_the_zero_predictor_beside_the_means():
    """Five runs, two prefixes: at the second one run diverges (50 × the zero predictor's
    error) and one fails (nan). The medians (0.2; 0.3 of 0.1, 0.2, 0.3, 50 and the nan counted
    as worst) and the counts (0; 2 runs above 1) are what the runs say; the caption names the
    curve whose mean (> 1) a few runs lifted above a median <= 1, and not the calm one."""
    from laocheck.report.paper import spread, spread_table

    def curve(name, per_run):
        E = np.array(per_run, dtype=float)
        return {"algorithm": name, "examples": [10, 100], "mean": list(np.nanmean(E, axis=0)),
                "per_run": per_run, "delta": 1e-6, "tuned": []}

    lifted = curve("Lifted", [[0.1, 0.2], [0.3, 50.0], [0.2, 0.1], [0.2, float("nan")],
                              [0.4, 0.3]])
    calm = curve("Calm", [[0.1, 0.2], [0.3, 0.1], [0.2, 0.3], [0.2, 0.2], [0.4, 0.3]])
    panel = {"figure": "Fig. X", "curves": [lifted, calm], "source": "s", "stand_in": False,
             "preprocessing": "p", "d": 3, "n_train": 100, "n_test": 10,
             "attributes_per_example": "k + 1 = 2", "rho_ridge": 0.5, "rho_lasso": 0.5}
    rows = spread(panel)
    assert rows[0]["median"] == [0.2, 0.3] and rows[0]["worse_than_zero"] == [0, 2]
    assert rows[1]["median"] == [0.2, 0.2] and rows[1]["worse_than_zero"] == [0, 0]
    assert rows[0]["runs"] == rows[1]["runs"] == 5
    result = {"grid": [1.0], "step_scales": [1.0], "runs": 5, "panels": [panel]}
    caption = _caption(panel, result)
    assert "Lifted at 100 examples: mean 12.65, median 0.3, 2 of 5 runs worse" in caption
    assert "Calm" not in caption
    table = spread_table(result)
    assert [r[:2] for r in table.rows] == [["Fig. X", "Lifted"], ["Fig. X", "Calm"]]
    assert table.rows[0][4] == [0.2, 0.3] and table.rows[0][5] == [0, 2]


def test_a_median_above_the_zero_predictor_is_named_with_its_runs():
    """Four runs, three prefixes. "Sunk" is worse than the zero predictor (error above 1) in
    3 of 4 runs at 10 examples and in 4 of 4 at 1000, better in 3 of 4 at 100: its median is
    above 1 at the first and third prefixes only, and the caption names those two with their
    counts. A dashed (budget-matched) curve with the same runs is not named; "Lifted" (one run
    at 5: mean 1.625 above 1, median 0.65 below) is named in the other sentence, not this one."""
    def curve(name, per_run, matched=False):
        E = np.array(per_run, dtype=float)
        return {"algorithm": name, "examples": [10, 100, 1000], "mean": list(E.mean(axis=0)),
                "per_run": per_run, "delta": 1e-6, "tuned": [], "budget_matched": matched}

    runs = [[3.0, 0.1, 2.0], [0.5, 0.2, 4.0], [5.0, 0.3, 6.0], [7.0, 9.0, 8.0]]
    sunk, dashed = curve("Sunk", runs), curve("Dashed", runs, matched=True)
    lifted = curve("Lifted", [[0.2, 0.1, 0.1], [0.4, 0.2, 0.2], [0.9, 0.3, 0.3],
                              [5.0, 0.4, 0.4]])
    panel = {"figure": "Fig. X", "curves": [sunk, dashed, lifted], "source": "s",
             "stand_in": False, "preprocessing": "p", "d": 3, "n_train": 1000, "n_test": 10,
             "attributes_per_example": "k + 1 = 2", "rho_ridge": 0.5, "rho_lasso": 0.5}
    caption = _caption(panel, {"grid": [1.0], "step_scales": [1.0], "runs": 4,
                               "panels": [panel]})
    head, sentence = caption.split("A median above the zero predictor's error")
    sentence = sentence.split(".")[0] + "."
    assert sentence.endswith("Sunk at 10 examples (3 of 4 runs), 1000 examples (4 of 4 runs).")
    assert "Dashed" not in sentence and "Lifted" not in sentence
    assert "Lifted at 10 examples: mean 1.625, median 0.65, 1 of 4 runs worse" in head


@pytest.mark.parametrize("name", ["ks15_synthetic", "cb11_mnist"])
def test_the_table_of_medians_is_the_runs_of_every_curve(built, name):
    """Each curve of each panel has a row whose medians and counts are those of its per-run
    errors in report.json, and the figure data carries the same medians."""
    doc = json.loads((built[name].path / "report.json").read_text(encoding="utf-8"))
    panels = doc["data"]["result"]["panels"]
    rows = {t["name"]: t for t in doc["tables"]}["spread"]["rows"]
    assert len(rows) == sum(len(p["curves"]) for p in panels)
    it = iter(rows)
    for panel in panels:
        for curve in panel["curves"]:
            row = next(it)
            E = np.array(curve["per_run"], dtype=float)
            assert row[:2] == [panel["figure"], curve["algorithm"]]
            np.testing.assert_allclose(row[4], np.median(E, axis=0), rtol=0, atol=0)
            assert row[5] == [int(v) for v in (E > 1).sum(axis=0)] and row[6] == E.shape[0]
    assert len(doc["figures"]) == len(panels)
    for entry in doc["figures"]:
        panel = panels[entry["data"]["panel"]]
        assert len(entry["data"]["curves"]) == len(panel["curves"])
        for fc, curve in zip(entry["data"]["curves"], panel["curves"]):
            np.testing.assert_allclose(fc["median"], np.median(curve["per_run"], axis=0))


@pytest.mark.parametrize("name", PAPER_SPECS)
def test_claims_table_shows_how_each_claim_was_decided(built, name):
    """Each claim's row carries, beside the paper's text and the status, the per-check-point
    runs above the margin, the runs HOLDS needs, the interval for the median ratio, the margin
    and the detectable effect of the result; the paragraph above it states the run count's
    power from the result's claims_design (tiny: 2 runs, which never decide)."""
    rep = built[name]
    result = rep.doc["data"]["result"]
    rows = {t["name"]: t for t in rep.doc["tables"]}["claims"]["rows"]
    assert len(rows) == len(result["claims"]) > 0
    for row, c in zip(rows, result["claims"]):
        assert row[5] == list(c["counts"]) and len(row[7]) == len(c["counts"])
        assert row[6] == ("never (too few runs)" if c["needed"] is None else c["needed"])
        assert row[8] == c["margin"] and c["margin"] in (1.0, papers.CONSIDERABLE)
        assert c["status"] == "INCONCLUSIVE" and c["needed"] is None   # 2 runs decide nothing
    design = result["claims_design"]
    assert design["runs"] == result["runs"] == 2 and design["needed"] is None
    assert design["full_runs"] == get_profile("full").runs
    text = " ".join(_page(rep).text)
    assert "2 runs can decide no claim" in text
    assert f"the full profile runs {design['full_runs']}" in text


@pytest.mark.parametrize("name", PAPER_SPECS)
def test_claims_are_recomputed_from_report_json(built, name):
    """benchmarks/claims_before_after.py decides every claim again from the per-run test errors
    in report.json (it stops when a status differs from the printed one), and by the rule before
    issue 37 on the same runs."""
    import runpy
    from pathlib import Path
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "claims_before_after.py"
    main_ = runpy.run_path(str(script))["main"]
    result, rows = main_(built[name].path / "report.json", 2)
    assert len(rows) == len(result["claims"]) > 0
    assert {r[2] for r in rows} <= {"HOLDS", "DOES NOT HOLD", "INCONCLUSIVE", "-"}


@pytest.mark.parametrize("name", PAPER_SPECS)
def test_no_two_tick_labels_of_a_paper_figure_overlap(built, name):
    overlapping = _overlapping_tick_labels()
    for ref, fig, _ in built[name].figures:
        assert overlapping(fig) == [], ref.name
