"""Mutation witnesses (laocheck.checks._witness): every check declares a mutation under which
it must FAIL (an ERRATUM / READING / downgraded check: a corrected reading under which it must
PASS), or a reason from the closed list; a rotating seventh of the witnesses runs here."""
import dataclasses
import datetime
import subprocess
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import sympy as sp

from laocheck import checks as catalog
from laocheck.checks import _witness
from laocheck.checks import _witnesses as W
from laocheck.checks._registry import Result, Status
from laocheck.exceptions import InvalidParameterError

HERE = Path(__file__).resolve().parent


def _lines(name):
    return {line.split("#")[0].strip() for line in (HERE / name).read_text().splitlines()
            if line.split("#")[0].strip()}


#: checks without witness on this branch (the list may only shrink; a check added by another
#: module fails the test below until its witness is declared in checks/_witnesses.py)
PENDING = _lines("witness_pending.txt")
#: (check, witness) pairs known to survive: what the checks cannot yet detect (may only shrink)
KNOWN_SURVIVORS = _lines("witness_survivors.txt")


def test_every_check_has_a_witness_or_a_reason():
    missing = W.missing()
    new = sorted(set(missing) - PENDING)
    assert not new, ("checks without a witness or a stated reason (declare one in "
                     f"laocheck/checks/_witnesses.py): {new}")
    stale = sorted(PENDING - set(missing))
    assert not stale, f"remove from witness_pending.txt (they have a witness now): {stale}"


def _share_key():
    """The day of the commit under test (the rotation covers every witness in 7 days of
    commits); today when the tree is not a git checkout."""
    try:
        out = subprocess.run(["git", "log", "-1", "--format=%cs"], cwd=HERE, text=True,
                             capture_output=True, timeout=10, check=True).stdout.strip()
        return datetime.date.fromisoformat(out).toordinal()
    except (OSError, subprocess.SubprocessError, ValueError):
        return W.commit_day()


def test_rotating_share_of_witnesses_is_detected():
    share = W.rotation_share(_share_key())
    records = W.run_witnesses(share=share)
    assert records
    survived = {f"{r.id} {r.witness}" for r in records if not r.killed}
    new = sorted(survived - KNOWN_SURVIVORS)
    assert not new, f"witnesses that survive their check (share {share}): {new}"


def test_every_survivor_is_explained_and_every_check_detects_one_witness():
    """A surviving witness is a mutation its check cannot see: the check's slack reason
    (laocheck.checks._slack) says why (a loose bound, a step true for every input); and every
    check that has witnesses detects at least one of them (the survivors never cover all of a
    check's witnesses)."""
    from laocheck.checks import _slack
    checks_of = {}
    for pair in KNOWN_SURVIVORS:
        cid, name = pair.split(" ", 1)
        checks_of.setdefault(cid, set()).add(name)
    assert not sorted(c for c in checks_of if _slack.reason(c) is None)
    for cid, names in checks_of.items():
        declared = {w.name for w in W.witnesses_of(cid)}
        assert names <= declared, (cid, names - declared)
        assert declared - names, f"{cid}: every witness survives"


def test_shares_partition_the_witnesses():
    pairs = [(c.id, w.name) for c in catalog.checks("HK12.AERR.*") for w in W.witnesses_of(c)]
    shares = [[p for p in pairs if _witness._in_share(*p, s, W.SHARE_DAYS)] for s in range(7)]
    assert sorted(sum(shares, [])) == sorted(pairs)


def test_a_check_that_cannot_fail_lets_its_witness_survive():
    check = catalog.get("HK12.AERR.gradient.unbiased.exact")
    tautology = dataclasses.replace(check, func=lambda ctx, **kw: Result(Status.PASS, {"n": 1}))
    witness = W.witnesses_of(check)[0]
    assert not W.run_witness(tautology, witness).killed
    assert W.run_witness(check, witness).killed


def test_a_corrected_reading_must_pass():
    rec = W.run_witness(catalog.get("CB11.Eq7.vector"), W.witnesses_of("CB11.Eq7.vector")[0])
    assert rec.must == "PASS" and rec.status == "PASS" and rec.killed
    assert catalog.run("CB11.Eq7.vector").status == "ERRATUM"      # restored after the patch


def test_reasons_are_a_closed_list():
    with pytest.raises(InvalidParameterError, match="reason"):
        W.declare_reason("HK12.Lemma3.2", "too hard", "x")
    with pytest.raises(InvalidParameterError, match="detail"):
        W.declare_reason("HK12.Lemma3.2", "restatement", "")


def test_scaled_mutates_numbers_only():
    assert _witness.scaled(Fraction(4)) == 5
    assert _witness.scaled(2.0) == 2.5
    assert _witness.scaled(sp.Integer(4)) == 5
    assert _witness.scaled(3) == 3 and _witness.scaled(True) is True
    v, seen = _witness.scaled((np.array([Fraction(4)], dtype=object), frozenset({1})))
    assert v[0] == 5 and seen == {1}


def test_cli_reports_survivors_and_exits_1(tmp_path, capsys):
    from laocheck.cli import main
    out = tmp_path / "w.json"
    assert main(["verify", "--witnesses", "--only", "HK12.AERR.gradient.budget",
                 "--no-progress", "--json", str(out)]) == 0
    assert "1 detected by their check, 0 survive" in capsys.readouterr().out
    # a known survivor (tests/checks/witness_survivors.txt): CB11 Thm 6's bound is loose
    assert main(["verify", "--witnesses", "--only", "CB11.Thm6.corrected.empirical",
                 "--no-progress"]) == 1
    text = capsys.readouterr().out
    assert "SURVIVES  CB11.Thm6.corrected.empirical  [formula:CB11.Thm6.bound_proof]" in text
    assert main(["verify", "--witness-share", "3", "--only", "HK12.AERR.gradient.budget"]) == 2


def test_loose_bounds_have_a_search_or_a_reason():
    """Every inequality check whose ratio lies below LOOSE in a run of the checks that report
    one searches adversarially or states why its bound is loose (the loose ones of a fast run,
    run here: the exact ones and two empirical ones)."""
    from laocheck.checks import _slack
    ids = ["HK12.Lemma3.7", "HK12.Thm3.1.proof.step3", "HK12.Thm3.4.proof.step2",
           "KS15.Thm4.7.proof.step1", "CB11.Thm12.proof.step14"]
    records = [catalog.run(i) for i in ids]
    assert not _slack.unexplained(records)
    assert all(_slack.reason(i) for i in _slack.LOOSE_REASONS)
    assert set(_slack.LOOSE_REASONS) <= {c.id for c in catalog.checks()}
