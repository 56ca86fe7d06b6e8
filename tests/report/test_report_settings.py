"""Reports that show their settings (issue 49, item 4), read from the HTML a reader opens:
each page has a table of contents linking to its sections; check ids break only after their
dots; a PASS whose power factor exceeds 2 says what it could detect, and a claim with a lower
bound <= 0 that it has no power. Reuses the session's tiny reports (conftest); the learners'
settings are tested in test_user_learners.py, on its report with a user's learner."""

import re

import pytest

from laocheck.report import KINDS, SPECS_DIR, Context, build_report, load_spec
from laocheck.report._document import (NO_POWER, Paragraph, Section, Table, record_verdict,
                                       to_html, verdict)

from .conftest import NAMES, SEED


def _html(report):
    return (report.path / "index.html").read_text(encoding="utf-8")


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
    plain = Section("s", (Table("x", ("a",), (["word"], [1.5])),))
    assert "<wbr>" not in to_html("t", (), (plain,), "f").split("<body>")[1]


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
    report = build_report(spec, tmp_path, effort="tiny", from_doc={"checks": records},
                          ctx=Context(seed=SEED, effort="tiny"))
    page = _html(report)
    assert '<td class="status-PASS">PASS (detects ≥ 3.25×)</td>' in page
    assert f'<td class="status-PASS">PASS ({NO_POWER})</td>' in page
    assert exact["detects"] <= 2
    row = re.search(rf'<tr data-key="{re.escape(exact["id"])}">(.*?)</tr>', page).group(1)
    assert '<td class="status-PASS">PASS</td>' in row
    assert "PASS (detects ≥ F×)" in page        # and the intro says what it means
    table = next(t for t in report.doc["tables"] if t["name"].startswith("checks_")
                 and any(row[0] == weak["id"] for row in t["rows"]))
    shown = [row[1] for row in table["rows"] if row[0] == weak["id"]]
    assert shown == ["PASS (detects ≥ 3.25×)"]


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
