"""Reports that show their settings (issue 49, item 4), read from the HTML a reader opens:
every learner of the bounds report has its parameters (initial point, step rule, radius, k,
the rest) in a table, a user's learner read the same way as laocheck's; each page has a table
of contents linking to its sections; check ids break only after their dots; a PASS whose power
factor exceeds 2 says what it could detect, and a claim with a lower bound <= 0 that it has no
power. Reuses the session's tiny reports (conftest) and the user report of
test_user_learners (module fixtures imported), so it adds no report build of its own."""

import re

import pytest

from laocheck.report import KINDS, SPECS_DIR, Context, build_report, fmt, load_spec
from laocheck.report._document import (NO_POWER, Paragraph, Section, Table, record_verdict,
                                       to_html, verdict)

from .conftest import NAMES, SEED
from .test_user_learners import importable, user_report  # noqa: F401  (module fixtures)


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
            assert "no `initial` parameter" in cells[2]
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
        assert "no `initial` parameter" in rows["AbsAERR"][2]
    # the case of issue 49: AERR's initial point is shown, so a user's differing one is seen
    aerr = data["learners"]["HK12.Thm3.1"][0]
    assert aerr["params"]["initial"] == "uniform"
    assert "uniform = (B/√d)·1" in _settings_rows(page, "settings_HK12.Thm3.1")["AERR"][2]
    assert "Seed policy:" in page


@pytest.mark.parametrize("name", NAMES)
def test_a_table_of_contents_links_every_section(built, name):
    page = _html(built[name])
    nav = re.search(r'<nav class="toc"[^>]*>(.*?)</nav>', page, re.S)
    assert nav, "no table of contents"
    links = re.findall(r'<a href="#([^"]+)">', nav.group(1))
    sections = re.findall(r'<section id="([^"]+)">', page)
    assert links == sections and len(sections) >= 1
    assert len(set(sections)) == len(sections)
    assert page.index("<nav") < page.index("<section")


def test_ids_break_only_after_dots(built):
    page = _html(built["verification"])
    css = re.search(r"<style>(.*?)</style>", page, re.S).group(1)
    assert re.search(r"\.id \{[^}]*word-break: keep-all", css)
    assert "overflow-wrap: anywhere" not in css
    ids = [r["id"] for r in built["verification"].doc["data"]["records"]]
    dotted = [i for i in ids if "." in i]
    assert dotted
    for i in dotted:
        shown = i.replace(".", ".<wbr>")
        assert f'<span class="id">{shown}</span>' in page, i
    # an id ending a sentence keeps its period outside; a file name is not an id
    html = to_html("t", (), (Section("s", (Table("x", ("a",), (
        ["see KS15.Thm3.1. and covtype.data.gz"],)),)),), "f")
    assert '<span class="id">KS15.<wbr>Thm3.<wbr>1</span>. and covtype.data.gz' in html
    # a plain word and a number are left alone
    assert "<wbr>" not in to_html("t", (), (Section("s", (Table("x", ("a",), (["word"], [1.5])),)),),
                                  "f").split("<body>")[1]


def test_a_pass_says_what_it_detects(built, tmp_path):
    """From a verify JSON (``laocheck report verification --from``) of the session's records,
    one PASS given the power factor 3.25 (a statistical check at a small budget) and one the
    excess-risk figures of the tutorial's case (lower bound -1e-12)."""
    records = [dict(r) for r in built["verification"].doc["data"]["records"]]
    passes = [r for r in records if r["status"] == "PASS"]
    weak, powerless, exact = passes[0], passes[1], passes[2]
    weak["detects"] = 3.25
    powerless["figures"] = {**(powerless["figures"] or {}), "excess_low": -1e-12,
                            "excess_mean": 1e-6, "excess_high": 2e-6, "bound": 0.5}
    spec = load_spec(SPECS_DIR / "verification.toml", KINDS)
    report = build_report(spec, tmp_path, budget="tiny", from_doc={"checks": records},
                          ctx=Context(seed=SEED, budget="tiny"))
    page = _html(report)
    assert '<td class="status-PASS">PASS (detects ≥ 3.25×)</td>' in page
    assert f'<td class="status-PASS">PASS ({NO_POWER})</td>' in page
    assert exact["detects"] <= 2
    row = re.search(rf'<tr data-key="{re.escape(exact["id"])}">(.*?)</tr>', page).group(1)
    assert '<td class="status-PASS">PASS</td>' in row
    assert "PASS (detects ≥ F×)" in page        # and the intro says what it means
    table = next(t for t in report.doc["tables"] if t["name"].startswith("checks_")
                 and any(row[0] == weak["id"] for row in t["rows"]))
    assert [row[1] for row in table["rows"] if row[0] == weak["id"]] == ["PASS (detects ≥ 3.25×)"]


def test_verdict_rules():
    assert verdict("PASS", 1.0) == "PASS"
    assert verdict("PASS", 2.0) == "PASS"                      # at 2 it is not shown
    assert verdict("PASS", 3.25) == "PASS (detects ≥ 3.25×)"
    assert verdict("FAIL", 30.0) == "FAIL"                     # a refutation needs no power
    assert verdict("PASS", None, lower=-1e-12) == f"PASS ({NO_POWER})"
    assert verdict("PASS", 5.0, lower=0.0) == f"PASS (detects ≥ 5×; {NO_POWER})"
    assert verdict("PASS", 5.0, lower=1e-3) == "PASS (detects ≥ 5×)"
    # the tutorial's case: an excess-risk claim whose lower confidence bound is -1e-12
    record = {"status": "PASS", "detects": 1.5, "figures": {"excess_low": -1e-12}}
    assert record_verdict(record) == f"PASS ({NO_POWER})"
    html = to_html("t", (Paragraph("x"),), (Section("s", (Table(
        "c", ("check", "status"), (["a.b", record_verdict(record)],)),)),), "f")
    assert f'<td class="status-PASS">PASS ({NO_POWER.replace("≤", "≤")})</td>' in html
