"""``laocheck verify``'s table explains itself (issue 49, item 3): the legend lists every
status, INCONCLUSIVE and READING rows give their reason, key figures are never cut in the middle
of an expression and never blank."""
import io
import os
import pathlib
import re
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

from laocheck.checks import CheckRecord, Status
from laocheck.cli import verify

_BREAKS = ",+-*/ "
ROOT = pathlib.Path(__file__).resolve().parents[2]


def _record(rid="X.check", status="PASS", figures=None, note="", delta=0.0):
    return CheckRecord(id=rid, status=status, expected="PASS", citation="X Thm 1",
                       statement="s", assumptions="", method="m", delta=delta, detectable=0.0,
                       figures=figures or {}, counterexample=None, correction=None, note=note,
                       seconds=0.0, seed=0, effort="fast", entropy=0, spawn_key=())


def _table(records):
    out = io.StringIO()
    verify.print_table(records, out=out)
    return out.getvalue()


def test_the_legend_lists_every_status():
    assert list(verify.STATUS_LEGEND) == [s.value for s in Status]
    out = io.StringIO()
    verify.print_legend(out)
    helptext = verify.EPILOG
    for status in Status:
        assert re.search(rf"^  {status.value} +\S", out.getvalue(), re.M), status
        assert re.search(rf"^  {status.value} +\S", helptext, re.M), status


def test_inconclusive_and_reading_rows_give_their_reason_from_the_note():
    records = [
        _record("A.undecided", "INCONCLUSIVE", {"eta_printed": 0.165}, note="Not established: "
                "the printed bound is smaller than the proved one. The typeset version would "
                "settle it."),
        _record("B.reading", "READING", {"extracted": 1.0008}, note="a dropped minus sign: a "
                "typesetting slip, not an error of the proof"),
        _record("C.pass", "PASS", {"worst_ratio": 0.5}, note="Held. Nothing to say."),
        _record("D.silent", "INCONCLUSIVE", {"n": 3})]
    lines = _table(records).splitlines()
    at = {ln.split()[0]: i for i, ln in enumerate(lines) if ln and not ln.startswith(" ")}
    assert lines[at["A.undecided"] + 1].strip() == ("reason: Not established: the printed bound "
                                                    "is smaller than the proved one.")
    assert lines[at["B.reading"] + 1].strip().startswith("reason: a dropped minus sign")
    assert at["D.silent"] == at["C.pass"] + 1                 # a PASS row has no reason line
    assert "reason: none recorded" in lines[at["D.silent"] + 1]


def test_a_long_reason_ends_at_a_clause_boundary_within_three_lines():
    note = ("ridge alpha=-2: exact 0.0562 rounds to 0.06, not 0.05: the printed value is the "
            "exact one truncated to two decimals, or a plug-in estimate from a finite sample — "
            "estimating E[x_i^2] from m examples biases rho_ridge downwards (sqrt is concave and "
            "unseen attributes count as 0; laocheck measured a mean of 0.047)")
    lines = verify.reason_lines(_record(status="INCONCLUSIVE", note=note))
    assert len(lines) <= verify.REASON_LINES
    text = " ".join(ln.strip() for ln in lines)
    assert text.endswith("… (the note in --json)")
    kept = text[len("reason: "):-len(" … (the note in --json)")]
    assert note.startswith(kept) and note[len(kept):].startswith(("; ", ": ", ", ", " — "))


def _pieces_are_whole(text, pieces):
    """The pieces rebuild ``text`` (up to the spaces at the breaks) and every break follows
    one of ``, + - * /`` or a space, never inside a name or a number."""
    assert re.sub(r"\s", "", "".join(pieces)) == re.sub(r"\s", "", text)
    pos = 0
    for piece in pieces[:-1]:
        pos = text.index(piece, pos) + len(piece)
        assert text[pos - 1] in _BREAKS or text[pos] == " ", (text, pieces)


def test_a_long_expression_is_wrapped_whole_never_cut():
    lam = "16*d*sqrt(log(m))/(sqrt(k)*sqrt(m))"
    rec = _record("CB11.Thm12.lambda", "INCONCLUSIVE", {"lambda_star": lam,
                                                        "lambda_literal": "12*d"}, note="x.")
    lines = verify.key_figure_lines(rec)
    assert len(lines) > 1 and all(len(ln) <= verify.KEY_WIDTH for ln in lines)
    assert "".join(lines) == f"lambda_star={lam}"          # wrapped, every character kept
    _pieces_are_whole(f"lambda_star={lam}", lines)
    table = _table([rec]).splitlines()
    assert "lambda_star=16*d*sqrt(log(m))/" in table[1] and table[2].strip() == "(sqrt(k)*sqrt(m))"


def test_short_figures_are_shown_whole_and_never_blank():
    rec = _record(figures={"n": 100000, "delta": 1e-6, "max_width": 0.029644,
                           "mean_low": [0.1, 0.2, 0.3, 0.4]})
    assert verify.key_figure(rec) == "max_width=0.029644, n=100000, delta=1e-06"
    lst = _record(figures={"failure_prob_interval": [0.785205, 1.0]})
    assert verify.key_figure(lst) == "failure_prob_interval=[0.785205, 1]"
    nested = _record(figures={"Thm2": {"exact_risk": "3/5", "printed": "3/5"}})
    assert verify.key_figure(nested) == "Thm2[exact_risk]=3/5, Thm2[printed]=3/5"
    assert verify.key_figure(_record(figures={})) == "exact (δ = 0), no figures kept"
    assert verify.key_figure(_record(figures={}, delta=1e-6)) == "no figures kept"
    # a figure that cannot be broken within the column gives way to the next ones, whole
    unbreakable = _record(figures={"largest_norm2_over_B_of_AERR_last_iterate_and_output": 1,
                                   "B": 1.0, "runs": 20})
    assert verify.key_figure_lines(unbreakable) == ["B=1, runs=20"]
    alone = _record(figures={"largest_norm2_over_B_of_AERR_last_iterate_and_output": 1})
    assert verify.key_figure_lines(alone) == [
        "largest_norm2_over_B_of_AERR_last_iterate_and_output=1"]
    long_list = _record(figures={"ratios": [9.0, 9.0, 9.0, 9.0, 9.0]})
    assert verify.key_figure(long_list) == "ratios=[9, 9, … (5 values)]"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["d", "k", "sqrt(", "log(", ")", "*", "/", " + ", " - ", "2",
                                 "16", "m", ", ", "(", "**"]), min_size=1, max_size=60))
def test_wrapping_keeps_every_character_and_breaks_only_between_terms(tokens):
    text = "x=" + "".join(tokens)
    pieces = verify._break_expression(text, 20)
    _pieces_are_whole(text, pieces)
    for piece in pieces:
        # longer than the width only when no break point lies within it
        assert len(piece) <= 20 or not any(ch in _BREAKS for ch in piece[:-1]), (text, pieces)


def test_verify_shows_reasons_whole_figures_and_the_legend():
    """As a user runs it: an INCONCLUSIVE and a READING check of the catalog."""
    run = subprocess.run([sys.executable, "-m", "laocheck", "verify", "--only",
                          "CB11.Thm12.lambda", "--only", "KS15.Thm3.12.bound", "--no-progress"],
                         capture_output=True, text=True, timeout=600, env=dict(os.environ))
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "reason: With the printed lambda" in out
    assert "reason: With '+ 1' outside" in out
    lines = out.splitlines()
    start = lines[0].index("key figure")
    column = "".join(ln[start:start + verify.KEY_WIDTH].strip() for ln in lines[1:3])
    assert column == "lambda_star=16*d*sqrt(log(m))/(sqrt(k)*sqrt(m))", out
    for status in Status:
        assert re.search(rf"^  {status.value} +\S", out, re.M), status
    # docs/guide/verify.md shows this very output (the table and the legend)
    page = (ROOT / "docs" / "guide" / "verify.md").read_text(encoding="utf-8")
    shown = re.search(r"```text\n(id .*?)```", page, re.S).group(1)
    table = out.split("\n\nErrata")[0].rstrip("\n") + "\n"
    assert shown == table, f"docs/guide/verify.md should show:\n{table}"
