"""Users' learners in the papers' experiment reports (issue 38): the worked example AbsAERR
(tests/testing/learner_zoo/abs_aerr.py, plain numpy) runs beside the papers' learners of each of
the five experiments, on the same splits, folds and prefixes, from seeds of its own; the papers'
learners' numbers (the report's JSON) are those of the report without it; its curves are drawn
in each panel in its own style and compared with each paper learner as the papers' claims are
decided; the page opens in a headless browser with its curves."""
import json
import math
import re
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from laocheck.cli import main
from laocheck.experiments.papers import EXPERIMENTS, HOLDS
from laocheck.experiments.user_learners import UserLearner
from laocheck.report import KINDS, SPECS_DIR, Context, build_report, find_specs, load_spec
from laocheck.report.paper import experiment_kwargs

ZOO_DIR = Path(__file__).resolve().parents[1] / "testing"
ABS = "learner_zoo.abs_aerr:AbsAERR"            # a class: gets k and a cross-validated B
MAKE = "learner_zoo.abs_aerr:make"              # a function of random_state only: as given
SEED = 5
PAPERS = tuple(EXPERIMENTS)
DIGITS = "sklearn-digits"
#: the tiny experiments of tests/report/test_paper_reports.py (scikit-learn's digits)
SETTINGS = {"source": DIGITS}


def _fresh_workers():
    """Shut joblib's reusable workers down: workers an earlier test started have the sys.path
    of then, and a worker started afterwards takes this process's (as a user's workers take
    their PYTHONPATH)."""
    from joblib.externals.loky import get_reusable_executor
    get_reusable_executor().shutdown(wait=True)


@pytest.fixture(scope="module")
def importable():
    sys.path.insert(0, str(ZOO_DIR))              # the user's package, as on their PYTHONPATH
    _fresh_workers()
    yield
    sys.path.remove(str(ZOO_DIR))
    _fresh_workers()


def _user_spec(directory, name, learners):
    """The standard spec of ``name`` renamed ``mine_<name>``, with ``[[learners]]`` tables."""
    text = (SPECS_DIR / f"{name}.toml").read_text().replace(f'name = "{name}"',
                                                            f'name = "mine_{name}"', 1)
    for factory, label in learners:
        text += f'\n[[learners]]\nfactory = "{factory}"\nname = "{label}"\n'
    (directory / f"mine_{name}.toml").write_text(text)
    spec, = find_specs(directory, KINDS, [f"mine_{name}"])
    return spec


@pytest.fixture(scope="module")
def report(importable, tmp_path_factory):
    """The worked example: ks15_synthetic's report at tiny without users' learners and with
    AbsAERR and make ([[learners]] tables of a user spec)."""
    specs, out = tmp_path_factory.mktemp("specs"), tmp_path_factory.mktemp("out")
    plain = load_spec(SPECS_DIR / "ks15_synthetic.toml", KINDS)
    mine = _user_spec(specs, "ks15_synthetic", [(ABS, "AbsAERR"), (MAKE, "AbsAERR k=2")])
    ctx = Context(seed=SEED, effort="tiny")
    return tuple(build_report(s, out, effort="tiny", ctx=ctx) for s in (plain, mine))


@pytest.fixture(scope="module")
def results(importable):
    """{experiment: (result without users' learners, with AbsAERR and make)} at tiny, with the
    settings of the specs' tiny tables (scikit-learn's digits)."""
    out = {}
    for name in PAPERS:
        spec = load_spec(SPECS_DIR / f"{name}.toml", KINDS)
        settings = {**spec.check_settings("tiny", KINDS["paper"].required), **SETTINGS}
        function, kwargs = experiment_kwargs(settings, "tiny")
        out[name] = tuple(function(seed=SEED, learners=users, **kwargs).to_dict()
                          for users in ((), (UserLearner(ABS, "AbsAERR"),
                                             UserLearner(MAKE, "AbsAERR k=2"))))
    return out


def _json(report):
    return json.loads((report.path / "report.json").read_text(encoding="utf-8"))


def _without_users(result):
    """The result without the run time and the users' learners' keys."""
    out = {k: v for k, v in result.items() if k not in ("seconds", "user_learners")}
    out["panels"] = [{k: v for k, v in p.items() if not k.startswith("user_")}
                     for p in result["panels"]]
    return out


def test_the_reports_numbers_do_not_change(report):
    plain, mine = (_json(r) for r in report)
    assert "user_learners" not in plain["data"]["result"]
    assert all(not any(k.startswith("user_") for k in p) for p in plain["data"]["result"]["panels"])
    assert _without_users(mine["data"]["result"]) == _without_users(plain["data"]["result"])
    assert mine["data"]["arguments"] == plain["data"]["arguments"]
    # every table of the plain report is in the user's, row for row; the user's adds two
    tables = {t["name"]: t for t in mine["tables"]}
    for t in plain["tables"]:
        assert tables[t["name"]] == t, t["name"]
    assert set(tables) - {t["name"] for t in plain["tables"]} == {"user_curves",
                                                                  "user_comparisons",
                                                                  "user_settings"}


@pytest.mark.parametrize("name", PAPERS)
def test_the_papers_numbers_do_not_change_in_any_experiment(results, name):
    plain, mine = results[name]
    assert "user_learners" not in plain
    assert _without_users(mine) == _without_users(plain)


@pytest.mark.parametrize("name", PAPERS)
def test_every_panel_has_the_users_curves_and_comparisons(results, name):
    result = results[name][1]
    assert [u["name"] for u in result["user_learners"]] == ["AbsAERR", "AbsAERR k=2"]
    for panel in result["panels"]:
        abs_curve, make_curve = panel["user_curves"]
        assert (abs_curve["algorithm"], abs_curve["learner"]) == ("AbsAERR", ABS)
        assert panel["user_errors"] == []
        paper = [c for c in panel["curves"] if not c["budget_matched"]]
        for c in (abs_curve, make_curve):
            assert c["examples"] == paper[0]["examples"]           # the same prefixes
            assert len(c["per_run"]) == result["runs"]
            assert all(e is not None and 0 <= e for row in c["per_run"] for e in row)
        # AbsAERR reads at most k + 1 attributes per example, k the panel's
        budget = re.search(r"k \+ 1 = (\d+)", panel["attributes_per_example"])
        if budget:
            assert all(a <= int(budget[1]) * n for a, n in zip(abs_curve["attributes"],
                                                              abs_curve["examples"]))
        # B cross-validated on the paper's grid for the class; `make` takes no B: as given
        assert all(set(t) == {"B"} and t["B"] in result["grid"] for t in abs_curve["tuned"])
        assert all(t == {} for t in make_curve["tuned"])
        pairs_compared = {(c["user"], c["paper_learner"]) for c in panel["user_comparisons"]}
        assert pairs_compared == {(u, p["algorithm"]) for u in ("AbsAERR", "AbsAERR k=2")
                                  for p in paper}
        for comp in panel["user_comparisons"]:
            # 2 runs decide nothing at delta = 1e-6: neither claim HOLDS
            assert comp["decision"] == "not separated"
            assert HOLDS not in (comp["better"]["status"], comp["worse"]["status"])
            assert comp["better"]["runs"] == result["runs"]


def test_every_learner_lists_its_settings(report):
    """Issue 49: each curve's learner (the paper's and the users') has its settings row, read
    from the fitted object: the paper's DDAERR its initial point and theory step, the user's
    make its own k = 2 (the factory takes no k)."""
    plain, mine = report
    doc = _json(mine)
    tables = {t["name"]: t for t in doc["tables"]}
    page = (mine.path / "index.html").read_text(encoding="utf-8")
    assert "Learners&#x27; settings" in page and '<table data-table="user_settings">' in page
    panels = doc["data"]["result"]["panels"]
    paper = [c for p in panels for c in p["curves"] if not c["budget_matched"]]
    assert len(tables["settings"]["rows"]) == len(paper)
    columns = tables["settings"]["columns"]
    for row, curve in zip(tables["settings"]["rows"], paper):
        cell = dict(zip(columns, row))
        s = curve["settings"]
        assert cell["learner"] == curve["algorithm"] and cell["class"] == s["class"]
        assert cell["radius B (run 1)"] == s["params"]["B"] == curve["tuned"][0]["B"]
        if "initial" in s["params"]:
            assert cell["initial point"].startswith(s["params"]["initial"])
    ddaerr = next(c for c in paper if c["algorithm"] == "DDAERR")
    assert ddaerr["settings"]["params"]["initial"] == "uniform"
    assert ddaerr["settings"]["fitted"]["eta_"] > 0
    users = {r[1]: dict(zip(tables["user_settings"]["columns"], r))
             for r in tables["user_settings"]["rows"]}
    assert set(users) == {"AbsAERR", "AbsAERR k=2"}
    assert users["AbsAERR k=2"]["k"] == 2
    assert "eta_ = " in users["AbsAERR"]["fitted (run 1, largest prefix)"]


def test_the_figures_draw_the_users_curves_in_their_own_style(report):
    rep = report[1]
    result = _json(rep)["data"]["result"]
    for (ref, fig, data), panel in zip(rep.figures, result["panels"]):
        labels = fig.axes[0].get_legend_handles_labels()[1]
        assert "AbsAERR (user)" in labels and "AbsAERR k=2 (user)" in labels
        drawn = data["user_curves"]
        assert [c["mean"] for c in drawn] == [c["mean"] for c in panel["user_curves"]]
        paper_colors = {line.get_color() for line in fig.axes[0].lines
                        if not line.get_label().endswith("(user)")
                        and line.get_linestyle() != "-."}
        assert len({c["color"] for c in drawn}) == 2
        lines = [ln for ln in fig.axes[0].lines if ln.get_linestyle() == "-."]
        assert len(lines) == 2
        assert "Dash-dotted" in ref.caption and "AbsAERR" in ref.caption
        assert paper_colors                      # the paper's curves are still there


def test_the_tables_show_the_users_learners(report):
    doc = _json(report[1])
    tables = {t["name"]: t for t in doc["tables"]}
    curves, comps = tables["user_curves"], tables["user_comparisons"]
    assert {r[1] for r in curves["rows"]} == {"AbsAERR", "AbsAERR k=2"}
    assert len(comps["rows"]) == sum(len(p["user_comparisons"])
                                     for p in doc["data"]["result"]["panels"])
    html = (report[1].path / "index.html").read_text()
    assert "learners beside the paper" in html


def test_the_worked_example_opens_in_a_browser(report, tmp_path, chromium):
    from selenium.webdriver.common.by import By
    rep = report[1]
    drv = chromium(2400)                      # tests/conftest.py: quit at the module's end
    drv.get((rep.path / "index.html").resolve().as_uri())
    images = drv.find_elements(By.TAG_NAME, "img")
    assert len(images) == len(rep.doc["figures"]) > 0
    for img in images:
        assert drv.execute_script("return arguments[0].complete && "
                                  "arguments[0].naturalWidth", img) > 0
    text = drv.find_element(By.TAG_NAME, "body").text
    assert "AbsAERR" in text and "learners beside the paper" in text
    assert drv.save_screenshot(str(tmp_path / "ks15_user.png"))


def test_a_learner_that_raises_is_reported_and_the_paper_runs(importable):
    from laocheck.experiments.papers import ks15_synthetic
    plain = ks15_synthetic(effort="tiny", seed=SEED, d=12, alphas=(-2.0,)).to_dict()
    mine = ks15_synthetic(effort="tiny", seed=SEED, d=12, alphas=(-2.0,),
                          learners=["learner_zoo.broken:raises_in_fit"]).to_dict()
    assert _without_users(mine) == _without_users(plain)
    for panel in mine["panels"]:
        assert any("fit is not written yet" in e for e in panel["user_errors"])
        assert all(e is None or math.isnan(e)
                   for row in panel["user_curves"][0]["per_run"] for e in row)
        # NaN errors count as infinitely bad: the paper learners win every run
        assert all(c["decision"] != "better" for c in panel["user_comparisons"])


def test_the_command_line_takes_learner(importable, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(ZOO_DIR)                   # `--learner` modules from the current folder
    assert main(["report", "cb11_mnist", "--effort", "tiny", "--source", "digits",
                 "--seed", str(SEED), "--out", str(tmp_path), "--no-progress",
                 "--learner", ABS, "--learner", MAKE]) == 0
    doc = json.loads((tmp_path / "cb11_mnist" / "report.json").read_text())
    assert [u["factory"] for u in doc["data"]["result"]["user_learners"]] == [ABS, MAKE]
    assert main(["report", "cb11_mnist", "--effort", "tiny", "--out", str(tmp_path),
                 "--learner", "learner_zoo.abs_aerr:no_such"]) == 2
    assert "no callable 'no_such'" in capsys.readouterr().err


def test_a_name_taken_by_a_paper_learner_is_refused(importable):
    from laocheck.exceptions import InvalidParameterError
    from laocheck.experiments.user_learners import UserLearner
    with pytest.raises(InvalidParameterError, match="'AERR'.*taken"):
        EXPERIMENTS["ks15_synthetic"](effort="tiny", d=12, alphas=(0.0,),
                                      learners=[UserLearner(ABS, "AERR")])
    with pytest.raises(InvalidParameterError, match="grid.eta"):
        UserLearner(ABS, grid={"eta": [0.1, -1.0]})
    with pytest.raises(InvalidParameterError, match="takes no parameter 'lam'"):
        UserLearner(ABS, grid={"lam": [0.1, 1.0]})


def test_the_users_numbers_do_not_depend_on_the_workers(importable):
    """Two joblib workers (the user's module imported there from the same sys.path) give the
    numbers of one process, the users' learners' included."""
    from laocheck.experiments.papers import ks15_synthetic
    runs = [ks15_synthetic(effort="tiny", seed=SEED, d=12, alphas=(-2.0,), n_jobs=jobs,
                           learners=[ABS]).to_dict() for jobs in (1, 2)]
    for r in runs:
        del r["seconds"]
    assert runs[0] == runs[1]
    assert runs[0]["panels"][0]["user_curves"][0]["algorithm"] == "abs_aerr:AbsAERR"


def test_a_diverging_user_curve_does_not_stretch_the_axis():
    from laocheck.report.paper import panel_figure

    def curve(name, mean):
        return {"algorithm": name, "learner": name, "examples": [10, 20],
                "attributes": [50.0, 100.0], "mean": mean, "sd": [0.01, 0.01],
                "low": [0.0, 0.0], "high": [1.0, 1.0], "delta": 1e-6,
                "per_run": [mean, mean], "tuned": [{}, {}], "budget_matched": False}
    panel = {"figure": "F", "title": "t", "source": "s", "stand_in": False,
             "curves": [curve("AERR", [0.8, 0.6])],
             "user_curves": [{**curve("Mine", [5e3, 1e4]), "low": [None, None],
                              "high": [None, None]}]}
    fig, data = panel_figure(panel)
    assert data["ylim"][1] <= 2.0 * 1.1 + 1e-9        # max(2, 1.5 × the paper's highest mean)
    assert data["user_curves"][0]["mean"] == [5e3, 1e4]
