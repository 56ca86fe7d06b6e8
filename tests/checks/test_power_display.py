"""``laocheck verify`` prints each record's ``detects`` factor in its own column, and a PASS
that could miss a violation of factor 2 as "not refuted (detects ≥ F×)"; the JSON status, the
exit status and ``passed`` stay those of a PASS."""
import io
import json
import re
from dataclasses import replace

from hypothesis import given, strategies as st

from laocheck.checks import _common, get, run
from laocheck.cli import main
from laocheck.cli.verify import WEAK_FACTOR, detects_text, print_table, status_text


def _record(status="PASS", detects=None):
    rec = run(get("KS15.Lemma3.9.proof.step1"), seed=0)
    return replace(rec, status=status, detects=detects)


def test_verify_and_the_pairing_use_one_weak_factor():
    assert WEAK_FACTOR == _common.WEAK_FACTOR == 2.0


def test_the_factor_column_reads_exact_none_and_rounded_factors():
    assert [detects_text(f) for f in (None, 1.0, 1 + 1e-9, 1.3, 1.47, 2.0, 200.0)] == \
        ["—", "1×", "1×", "1.3×", "1.47×", "2×", "200×"]
    assert detects_text(8405.93) == "8406×" and detects_text(123456.0) == "1.3e+05×"


@given(st.floats(min_value=1.0, max_value=1e12))
def test_the_printed_factor_is_never_below_the_recorded_one(factor):
    printed = float(detects_text(factor).rstrip("×"))
    assert printed >= factor * (1 - 1e-9) or factor < 1.0005
    assert printed <= factor * 1.11 + 1      # rounded up to the printed digits, no further


def test_a_weak_pass_says_what_it_did_not_refute_and_other_statuses_stay():
    weak, strong = _record(detects=3.08), _record(detects=1.3)
    assert status_text(weak) == "not refuted (detects ≥ 3.08×)"
    assert status_text(strong) == "PASS" and status_text(_record(detects=None)) == "PASS"
    assert status_text(_record(detects=WEAK_FACTOR)) == "PASS"     # 2 itself is not weak
    assert status_text(_record("FAIL", detects=50.0)) == "FAIL"
    assert status_text(_record("INCONCLUSIVE", detects=50.0)) == "INCONCLUSIVE"
    assert weak.passed and weak.status == "PASS"
    out = io.StringIO()
    print_table([weak, strong, _record("FAIL")], out)
    header, *rows = out.getvalue().splitlines()
    assert re.match(r"id\s+status\s+detects\s+key figure\s+citation", header)
    assert "not refuted (detects ≥ 3.08×)  3.08×" in rows[0]
    assert re.search(r"  PASS\s+1\.3×  ", rows[1]) and re.search(r"  FAIL\s+—  ", rows[2])


def test_verify_prints_the_factor_and_keeps_pass_in_json_and_exit_status(tmp_path, capsys):
    path = tmp_path / "v.json"
    code = main(["verify", "--only", "CB11.Thm6.corrected.empirical", "--only", "KS15.Eq15",
                 "--no-progress", "--json", str(path), "--durations", "0"])
    out = capsys.readouterr().out
    assert code == 0
    recs = {r["id"]: r for r in json.loads(path.read_text())["checks"]}
    weak, eq15 = recs["CB11.Thm6.corrected.empirical"], recs["KS15.Eq15"]
    assert weak["status"] == "PASS" and weak["detects"] > WEAK_FACTOR       # R = 60 runs
    assert eq15["status"] == "PASS" and 1 < eq15["detects"] <= WEAK_FACTOR
    assert f"not refuted (detects ≥ {detects_text(weak['detects'])})" in out
    assert f"detects={detects_text(eq15['detects'])}" in out                 # --durations
    assert "paired with CB11.Thm6.derivation" in weak["note"]
