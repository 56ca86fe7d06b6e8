"""Users' learners in the bounds report (issue 38): the worked example AbsAERR
(tests/testing/learner_zoo/abs_aerr.py, a plain numpy learner) named in a user spec's
[[learners]] table runs beside each theorem's learner on the same replicates, is drawn in the m
figures in its own style and compared pairwise; the theorems' own numbers do not change; the
page opens in a headless browser with the user's curve."""
import re
import sys
from pathlib import Path

import pytest

from laocheck.cli import main
from laocheck.experiments.user_learners import UserLearner, load_learner
from laocheck.exceptions import InvalidParameterError
from laocheck.data import PowerLawBernoulli
from laocheck.experiments import learner_settings
from laocheck.report import KINDS, SPECS_DIR, Context, build_report, find_specs, fmt
from laocheck.report.bounds import _mark_budgets

from .conftest import SEED
from .test_reports import _overlapping_tick_labels

ZOO_DIR = Path(__file__).resolve().parents[1] / "testing"
FACTORY = "learner_zoo.abs_aerr:make"


@pytest.fixture(scope="module")
def importable():
    sys.path.insert(0, str(ZOO_DIR))              # the user's package, as on their PYTHONPATH
    yield
    sys.path.remove(str(ZOO_DIR))


@pytest.fixture(scope="module")
def user_report(importable, tmp_path_factory):
    specs = tmp_path_factory.mktemp("specs")
    text = (SPECS_DIR / "bounds.toml").read_text().replace('name = "bounds"',
                                                           'name = "mine"')
    text += f'\n[[learners]]\nfactory = "{FACTORY}"\nname = "AbsAERR"\n'
    (specs / "mine.toml").write_text(text)
    spec, = find_specs(specs, KINDS, ["mine"])
    out = tmp_path_factory.mktemp("out")
    return build_report(spec, out, effort="tiny", ctx=Context(seed=SEED, effort="tiny"))


def test_the_user_learner_runs_on_the_theorems_replicates(user_report):
    data = user_report.doc["data"]
    users = data["user_learners"]
    assert set(users) == set(data["m_sweeps"])
    for t, (u,) in users.items():
        assert u["learner"] == "AbsAERR" and u["path"] == FACTORY
        sweep = data["m_sweeps"][t]["points"]
        assert [p["m"] for p in u["points"]] == [p["m"] for p in sweep]
        # the same replicates: the theorem's learner recomputed beside it gives its numbers
        assert [p["paper_mean"] for p in u["points"]] == [p["mean"] for p in sweep]
        assert u["decision"] in ("better", "worse", "undecided")
        assert all(0 <= p["wins"] <= p["runs"] for p in u["points"])


def _numbers(value):
    """Everything but the run times."""
    if isinstance(value, dict):
        return {k: _numbers(v) for k, v in value.items() if k != "seconds"}
    if isinstance(value, list):
        return [_numbers(v) for v in value]
    return value


def _html(report):
    return (report.path / "index.html").read_text(encoding="utf-8")


def _settings_rows(page, table):
    """{learner: [cell texts]} of one settings table (tags stripped)."""
    body = re.search(rf'<table data-table="{re.escape(table)}">(.*?)</table>', page, re.S)
    assert body, f"no table {table}"
    rows = {}
    for tr in re.findall(r"<tr data-key=[^>]*>(.*?)</tr>", body.group(1), re.S):
        cells = [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)]
        rows[cells[0]] = cells
    return rows


def test_every_learner_lists_its_settings(user_report):
    page = _html(user_report)
    data = user_report.doc["data"]
    assert set(data["learners"]) == set(data["m_sweeps"])
    assert 'id="s-learners-settings"' in page
    for t, entries in data["learners"].items():
        rows = _settings_rows(page, f"settings_{t}")
        paper, user = entries
        assert set(rows) == {paper["name"], "AbsAERR"}
        # the theorem's learner: its constructor's values, as get_params() gives them
        cells = rows[paper["name"]]
        if "initial" in paper["params"]:
            assert cells[2].startswith(fmt(paper["params"]["initial"]))
        else:
            assert "no initial parameter" in cells[2]        # `initial` shown as code
        assert cells[4] == fmt(paper["params"]["B"]) and cells[5] == fmt(paper["params"]["k"])
        step = paper["params"].get("eta", paper["params"].get("lam"))
        assert fmt(step) in cells[3]
        # the user's learner: read the same way (get_params() and its fitted eta_)
        # make(random_state) takes no k: the learner keeps its own k = 2 whatever the
        # theorem's k, and the table is where a reader sees it
        assert user["params"] == {"B": 1.0, "eta": "theory", "k": 2}
        assert rows["AbsAERR"][5] == "2"
        assert "eta_" in user["fitted"] and user["fit_error"] is None
        assert f"eta_ = {fmt(user['fitted']['eta_'])}" in rows["AbsAERR"][7]
        assert "no initial parameter" in rows["AbsAERR"][2]
    # a name in backticks is shown as code, never as raw backticks
    assert "<code>initial</code>" in page and "`initial`" not in page
    # the case of issue 49: AERR's initial point is shown, so a user's differing one is seen
    aerr = data["learners"]["HK12.Thm3.1"][0]
    assert aerr["params"]["initial"] == "uniform"
    assert "uniform = (B/√d)·1" in _settings_rows(page, "settings_HK12.Thm3.1")["AERR"][2]
    assert "Seed policy:" in page


def test_the_theorems_numbers_do_not_change(user_report, built):
    mine, standard = user_report.doc["data"], built["bounds"].doc["data"]
    for key in ("m_sweeps", "scaling", "steps", "not_run"):
        assert _numbers(mine[key]) == _numbers(standard[key]), key
    assert "user_learners" not in built["bounds"].doc["data"]


def test_the_user_curve_is_in_the_m_figures_and_the_table(user_report):
    figs = {ref.name: (fig, data) for ref, fig, data in user_report.figures}
    fig, data = figs["m_HK12.Thm3.1"]
    curve, = data["user_learners"]
    assert curve["learner"] == "AbsAERR" and curve["decision"]
    labels = fig.axes[0].get_legend_handles_labels()[1]
    assert any(label.startswith("AbsAERR (user;") for label in labels)
    assert curve["mean"] == [p["mean"] for p in
                             user_report.doc["data"]["user_learners"]["HK12.Thm3.1"][0]["points"]]
    table = next(t for t in user_report.doc["tables"] if t["name"] == "user_learners")
    assert {row[1] for row in table["rows"]} == {"AbsAERR"}
    html = (user_report.path / "index.html").read_text()
    assert "Users&#x27; learners" in html or "Users' learners" in html


def test_a_learner_at_another_k_is_said_not_to_be_like_for_like(user_report):
    """make(random_state) takes no k: AbsAERR keeps its k = 2 while the theorems' learners run
    at k = 4 (issue 49). Every place the comparison is shown says so: the entry, the table,
    the figure's legend and a paragraph of the section."""
    data = user_report.doc["data"]
    for t, (u,) in data["user_learners"].items():
        assert u["k"] == data["m_sweeps"][t]["k"] == 4
        assert u["learner_k"] == 2 and u["like_for_like"] is False
    table = next(t for t in user_report.doc["tables"] if t["name"] == "user_learners")
    assert all(row[-1] == "k = 2 against the theorem's learner's k = 4: not like for like"
               for row in table["rows"])
    figs = {ref.name: (fig, data) for ref, fig, data in user_report.figures}
    fig, fdata = figs["m_HK12.Thm3.1"]
    assert fdata["user_learners"][0]["like_for_like"] is False
    labels = fig.axes[0].get_legend_handles_labels()[1]
    assert any(label.startswith("AbsAERR (user;") and "its k = 2, theirs 4" in label
               for label in labels)
    overlapping = _overlapping_tick_labels()
    for ref, figure, _ in user_report.figures:
        assert overlapping(figure) == [], ref.name
    page = _html(user_report)
    assert "Not like for like: AbsAERR runs with k = 2" in page
    assert "theorems&#x27; learners run at k = 4" in page or \
        "theorems' learners run at k = 4" in page


def test_a_factory_that_takes_k_runs_at_the_theorem_s_k(importable):
    """The worked example's class itself takes k: the report gives it the theorem's k and the
    comparison is like for like; its factory make() keeps k = 2 and is not."""
    dist = PowerLawBernoulli(d=8, alpha=-1.0, scenario="ridge")
    paper = {"name": "AERR", "params": {"k": 4}}
    users = [{"learner": name} for name in ("AbsAERR class", "AbsAERR make")]
    entries = [paper]
    for name, path in (("AbsAERR class", "learner_zoo.abs_aerr:AbsAERR"),
                       ("AbsAERR make", FACTORY)):
        entry = learner_settings(UserLearner(path).at(k=4, B=1.0), dist, 20, seed=0)
        entries.append({**entry, "name": name})
    _mark_budgets(users, entries, 4)
    assert [(u["learner_k"], u["like_for_like"]) for u in users] == [(4, True), (2, False)]


def test_the_user_report_opens_in_a_browser(user_report, tmp_path, chromium):
    from selenium.webdriver.common.by import By
    drv = chromium(2400)                      # tests/conftest.py: quit at the module's end
    drv.get((user_report.path / "index.html").resolve().as_uri())
    images = drv.find_elements(By.TAG_NAME, "img")
    assert len(images) == len(user_report.doc["figures"]) > 0
    for img in images:
        assert drv.execute_script("return arguments[0].complete && "
                                  "arguments[0].naturalWidth", img) > 0
    assert "AbsAERR" in drv.find_element(By.TAG_NAME, "body").text
    assert drv.save_screenshot(str(tmp_path / "user.png"))


def test_bad_learners_are_usage_errors(tmp_path, capsys):
    with pytest.raises(InvalidParameterError, match="module:factory"):
        load_learner("no_colon")
    with pytest.raises(InvalidParameterError, match="cannot be imported"):
        UserLearner("no_such_module_xyz:make")
    with pytest.raises(InvalidParameterError, match="`factory`"):
        load_learner({"name": "x"})
    assert main(["report", "bounds", "--effort", "tiny", "--out", str(tmp_path),
                 "--learner", "no_such_module_xyz:make"]) == 2
    assert "no_such_module_xyz" in capsys.readouterr().err
