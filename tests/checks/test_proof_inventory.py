"""The proof inventory (laocheck.checks._coverage): every displayed proof line of CB11, HK12 and
KS15 has check ids from the catalog or a reason from the closed list; the docs' coverage table
is its rendering; ``laocheck list --proof-coverage``."""
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from laocheck import checks as catalog
from laocheck.checks import _coverage as cov
from laocheck.cli import main

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "explanation" / "proof_coverage.md"


@pytest.fixture(scope="module")
def lines():
    return cov.inventory()


def test_inventory_is_sound(lines):
    assert cov.problems(lines) == []


def test_every_paper_and_id_scheme(lines):
    assert {ln.paper for ln in lines} == set(cov.PAPERS)
    for ln in lines:
        assert re.fullmatch(rf"{ln.paper}\.[A-Za-z0-9.\-]+\.proof\.line[1-9][0-9]*", ln.id), ln.id
        assert ln.checked != (ln.reason is not None)


def test_every_instance_dependent_line_has_a_check(lines):
    """Issue 37's acceptance: a line whose truth depends on the instance is checked, not
    reasoned away."""
    assert [ln.id for ln in lines if ln.instance_dependent and not ln.checked] == []


def test_counts_add_up(lines):
    table = cov.coverage()
    for paper, proofs in table.items():
        for proof, row in proofs.items():
            mine = [ln for ln in lines if ln.paper == paper and ln.proof == proof]
            assert row["lines"] == len(mine) == row["checked"] + row["reasoned"]
            assert row["instance_dependent_checked"] <= row["instance_dependent"]
            assert set(row["check_ids"]) == {c for ln in mine for c in ln.checks}


def test_problems_flags_each_broken_rule(lines):
    known = {c.id for c in catalog.checks()}
    base = lines[0]
    bare = replace(base, checks=(), reason=None)
    assert any("neither" in p for p in cov.problems([bare], known))
    assert any("both" in p for p in cov.problems([replace(base, checks=("CB11.Lemma7",),
                                                          reason="prose", detail="x")], known))
    assert any("not in the catalog" in p
               for p in cov.problems([replace(base, checks=("CB11.NoSuchCheck",))], known))
    assert any("is not one of" in p
               for p in cov.problems([replace(bare, reason="obvious", detail="x")], known))
    assert any("not a check id" in p
               for p in cov.problems([replace(bare, reason="sympy", check="X.Y")], known))
    assert any("follows needs" in p
               for p in cov.problems([replace(bare, reason="follows", sources=(1,), rule="r")],
                                     known))           # line 1 cannot follow from line 1
    assert any("needs a detail" in p
               for p in cov.problems([replace(bare, reason="definition", detail="")], known))
    assert any("numbered" in p for p in cov.problems([replace(base, number=2,
                                                              id=base.id[:-1] + "2")], known))


def test_instance_dependent_lines_of_the_new_errata_are_checked(lines):
    """The audit's dropped factor (KS15 Lemma B.9, App. B.8, last display) is inventoried with
    its literal (ERRATUM) and corrected checks."""
    step = next(ln for ln in lines if ln.id == "KS15.LemmaB.9.proof.line3")
    assert step.instance_dependent
    assert set(step.checks) == {"KS15.LemmaB.9.proof.step3", "KS15.LemmaB.9.proof.step3_corrected"}
    assert catalog.get("KS15.LemmaB.9.proof.step3").expected == catalog.Status.ERRATUM
    assert "4\\eta G^2" in step.latex


def test_docs_table_is_the_rendering():
    text = DOC.read_text(encoding="utf-8")
    block = text.split("<!-- proof-coverage:start -->\n", 1)[1].split("<!-- proof-coverage:end -->")[0]
    assert block == cov.coverage_table(markdown=True), (
        "docs/explanation/proof_coverage.md is out of date: paste the output of "
        "`laocheck list --proof-coverage --markdown` between its markers")


def test_docs_python_blocks_run():
    text = DOC.read_text(encoding="utf-8")
    for block in re.findall(r"```python\n(.*?)```", text, flags=re.S):
        exec(compile(block, str(DOC), "exec"), {})


def test_cli_proof_coverage(capsys):
    assert main(["list", "--proof-coverage"]) == 0
    out = capsys.readouterr().out
    for paper in cov.PAPERS:
        assert f"\n{paper}\n" in "\n" + out
    assert "KS15.LemmaB.9.proof.step3" in out
    assert main(["list", "--proof-coverage", "--markdown"]) == 0
    assert capsys.readouterr().out == cov.coverage_table(markdown=True)
    assert main(["list", "--markdown"]) == 2
    assert "--markdown" in capsys.readouterr().err
    assert main(["list", "--proof-coverage", "--match", "x"]) == 2
    capsys.readouterr()


def test_cli_proof_coverage_json(tmp_path, capsys):
    out = tmp_path / "cov.json"
    assert main(["list", "--proof-coverage", "--json", str(out)]) == 0
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["proof_coverage"] == cov.coverage()
    assert "provenance" in doc


def test_inventory_rejects_unknown_paper():
    with pytest.raises(ValueError, match="`paper`"):
        cov.inventory("XY26")
