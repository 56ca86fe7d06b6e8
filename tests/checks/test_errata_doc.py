"""ERRATA.md is the rendering of the catalog (``laocheck errata``), and every ERRATUM check has
its registered note (CB11, HK12, KS15 errata)."""
from pathlib import Path

import pytest

from laocheck import checks as catalog
from laocheck.checks._errata import KINDS, PAPERS, note_erratum, notes
from laocheck.cli import main
from laocheck.cli.errata import render
from laocheck.exceptions import InvalidParameterError

ROOT = Path(__file__).resolve().parents[2]


def test_errata_md_is_up_to_date():
    committed = (ROOT / "ERRATA.md").read_text(encoding="utf-8")
    assert committed == render(), "ERRATA.md is out of date: run `laocheck errata` at the root"


def test_every_erratum_check_has_one_note_and_back():
    note_ids = [n.id for n in notes()]
    assert len(note_ids) == len(set(note_ids))
    for kind, status in KINDS.items():
        ids = {c.id for c in catalog.checks() if c.expected.value == status}
        noted = {n.id for n in notes() if n.kind == kind}
        if kind == "unsettled":          # INCONCLUSIVE checks with a note: downgraded errata
            assert noted <= ids and all(n.settle for n in notes() if n.kind == kind)
        elif kind == "withdrawn":        # PASS checks with a note: errata of earlier versions
            assert noted <= ids and all(n.assumption for n in notes() if n.kind == kind)
        else:
            assert noted == ids, kind


def test_readings_and_unsettled_are_listed_apart_and_not_counted():
    text = render()
    errata = [n for n in notes() if n.kind == "erratum"]
    assert f"{len(errata)} errata (" in text
    for n in notes():
        section = {"erratum": 0, "reading": text.index("## Readings"),
                   "unsettled": text.index("## Not established"),
                   "withdrawn": text.index("## Withdrawn")}[n.kind]
        assert text.index(f"`{n.id}` (") > section, n.id
    assert {n.id for n in notes() if n.kind == "reading"} == {
        c.id for c in catalog.checks() if c.expected == catalog.Status.READING}


def test_note_rejects_unknown_kind_and_unsettled_without_settle():
    with pytest.raises(InvalidParameterError, match="kind"):
        note_erratum("KS15.X", where="w", order=(0,), literal="l", why="w", corrected="c",
                     kind="maybe")
    with pytest.raises(InvalidParameterError, match="settle"):
        note_erratum("KS15.Y", where="w", order=(0,), literal="l", why="w", corrected="c",
                     kind="unsettled")


def test_notes_are_complete_and_in_reading_order():
    all_notes = notes()
    for n in all_notes:
        assert n.literal.strip() and n.why.strip() and n.corrected.strip() and n.where.strip()
        if n.kind == "withdrawn":        # it holds: no corrected statement of its own
            assert not catalog.get(n.id).correction and n.related, n.id
        else:
            assert catalog.get(n.id).correction, n.id
        for rid in n.related:
            catalog.get(rid)
    for kind in KINDS:
        these = [n for n in all_notes if n.kind == kind]
        papers = [PAPERS.index(n.paper) for n in these]
        assert papers == sorted(papers)
        for p in PAPERS:
            orders = [n.order for n in these if n.paper == p]
            assert orders == sorted(orders)


def test_every_erratum_appears_once_with_its_reproduce_command():
    text = render()
    for n in notes():
        assert text.count(f"`{n.id}` ({KINDS[n.kind]}") == 1
        assert f"laocheck verify --only '{n.id}'" in text
    proof_steps = [n for n in notes() if n.proof_step]
    assert text.count("**proof step**") == len(proof_steps) + 1   # + the preface's mention


def test_note_rejects_bad_ids():
    with pytest.raises(InvalidParameterError, match="`id`"):
        note_erratum("XX99.Lemma1", where="w", order=(1,), literal="l", why="w", corrected="c")
    existing = notes()[0].id
    with pytest.raises(InvalidParameterError, match="unique"):
        note_erratum(existing, where="w", order=(1,), literal="l", why="w", corrected="c")


def test_cli_writes_and_checks(tmp_path, capsys):
    out = tmp_path / "E.md"
    assert main(["errata", "--output", str(out), "--check"]) == 1
    assert main(["errata", "--output", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == render()
    assert main(["errata", "--output", str(out), "--check"]) == 0
    out.write_text("stale\n", encoding="utf-8")
    assert main(["errata", "--output", str(out), "--check"]) == 1
    capsys.readouterr()
    assert main(["errata", "--output", "-"]) == 0
    assert capsys.readouterr().out == render()


def test_every_erratum_was_read_in_every_text_of_its_paper():
    """HK12 and KS15 exist in two texts each, CB11 in one: every erratum, reading and unsettled
    note records what each text prints, and its classification is the note's kind."""
    from laocheck.checks._errata_readings import ABSENT, TEXTS, readings

    recorded = readings()
    noted = {n.id: n for n in notes()}
    assert set(recorded) == set(noted), (sorted(set(noted) - set(recorded)),
                                         sorted(set(recorded) - set(noted)))
    for cid, reading in recorded.items():
        assert reading.verdict == noted[cid].kind, cid
        assert set(reading.prints) == set(TEXTS[reading.paper]), cid
        assert all(v.strip() for v in reading.prints.values()), cid
        # a place absent from every text was not read anywhere
        assert not all(v.startswith(ABSENT) for v in reading.prints.values()), cid
    text = render()
    for cid in noted:
        entry = text[:text.index(f"`{cid}` (")].rsplit("### ", 1)[1]
        assert "* **Read in.**" in entry, cid


def test_read_rejects_missing_texts_unknown_verdicts_and_repeats():
    from laocheck.checks._errata_readings import read

    with pytest.raises(InvalidParameterError, match="verdict"):
        read("HK12.X", verdict="typo", PDF="a", HTML="b")
    with pytest.raises(InvalidParameterError, match="every text of HK12"):
        read("HK12.Y", PDF="only one text")
    with pytest.raises(InvalidParameterError, match="unique"):
        read("HK12.Lemma3.3.eq9", PDF="a", HTML="b")


def test_withdrawn_errata_say_what_they_are_read_under_and_pass():
    """An erratum withdrawn (its counterexample broke a standing assumption of the paper, or the
    line was unused rather than false) quotes the assumption with its location, and its check
    expects PASS; ERRATA.md lists it apart, never among the counted errata."""
    withdrawn = [n for n in notes() if n.kind == "withdrawn"]
    assert {"HK12.Thm4.4.proof.step3", "KS15.Thm4.7.proof.step10",
            "KS15.Alg4.line1", "CB11.Thm6.proof.step2"} <= {n.id for n in withdrawn}
    text = render()
    for n in withdrawn:
        assert catalog.get(n.id).expected == catalog.Status.PASS, n.id
        assert "“" in n.assumption and any(p in n.assumption for p in ("Sec.", "App.")), n.id
        entry = text[text.index(f"`{n.id}` (PASS") - 3000:text.index(f"`{n.id}` (PASS")]
        assert "* **Read under.**" in entry.rsplit("### ", 1)[1], n.id
    with pytest.raises(InvalidParameterError, match="assumption"):
        note_erratum("KS15.Z", where="w", order=(0,), literal="l", why="w", corrected="c",
                     kind="withdrawn")
