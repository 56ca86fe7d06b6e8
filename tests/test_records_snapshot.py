"""Issue 50, "How it is judged": a restructuring leaves every number unchanged. The committed
snapshot ``benchmarks/results/records_tiny.json`` (``benchmarks/records_snapshot.py``) holds
every verify record at seed 0 and every report's JSON (the papers' experiments among them) at
the ``tiny`` effort; these tests check that its comparer finds a planted difference of each
kind and none between identical files, and that the current checkout reproduces the committed
records.

Cost: the whole snapshot is about 90 CPU seconds (its ``meta``), more than a test run should
add; the comparison here reruns the cheapest checks up to :data:`CHECK_CPU` CPU seconds of the
recorded costs (about 580 of the 707 checks) and the reports of :data:`REPORTS`, about 20 CPU
seconds in all, and checks without running them that every recorded check and report still
exists. ``python benchmarks/records_snapshot.py
save new.json && python benchmarks/records_snapshot.py compare
benchmarks/results/records_tiny.json new.json`` compares all of it.

Bits: on the machine that recorded the file (the same numpy SIMD extensions, BLAS kernels and
threads, C library and versions: ``meta["fingerprint"]``) every number must be equal bit for
bit. On another one numpy's vectorised loops and the BLAS round differently, and no small
tolerance absorbs it (``benchmarks/records_snapshot.py``'s docstring: 135 numbers of 22 records
beyond a relative 1e-12 on an emulated AVX2/Haswell machine, no status): there the checks'
statuses and seeds are compared (``compare --statuses``) and the test says so.
"""
import importlib.util
import json
import math
import sys
from pathlib import Path

import numpy as np
import pytest
from threadpoolctl import threadpool_limits

from laocheck import checks
from laocheck.report import KINDS, SPECS_DIR, find_specs

ROOT = Path(__file__).resolve().parents[1]
SNAPSHOT = ROOT / "benchmarks" / "results" / "records_tiny.json"
_BENCHMARKS = ROOT / "benchmarks"
if str(_BENCHMARKS) not in sys.path:     # the script imports its sibling _results
    sys.path.append(str(_BENCHMARKS))
_spec = importlib.util.spec_from_file_location("records_snapshot",
                                               _BENCHMARKS / "records_snapshot.py")
rs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rs)

#: CPU seconds (as recorded in the snapshot) of the checks rerun here, cheapest first
CHECK_CPU = 12.0
#: the reports rerun here (the cheapest: KS15's ρ tables, a few CPU seconds)
REPORTS = ("rho",)


def _doc(records, **meta):
    return {"meta": meta, "records": records}


@pytest.fixture
def two():
    """Two identical small snapshots, as a user's runs would give."""
    records = {"verify/A.one": {"status": "PASS", "expected": "PASS", "detects": 1.5, "seed": 0,
                                "figures": {"ratio": 0.1 + 0.2, "n": 1000, "flag": True,
                                            "curve": [1.0, 0.5, 0.25]}},
               "verify/B.two": {"status": "ERRATUM", "expected": "ERRATUM", "detects": None,
                                "figures": {"gap": {"$float": "inf"}}},
               "report/rho": {"data": {"alpha": [-2.0, -1.0], "rho": [0.75, 0.5]}}}
    return _doc(json.loads(json.dumps(records))), _doc(json.loads(json.dumps(records)))


def test_identical_snapshots_have_no_difference(two):
    old, new = two
    assert rs.compare(old, new) == []


def test_a_figure_changed_in_its_last_bit_is_found(two):
    old, new = two
    ratio = old["records"]["verify/A.one"]["figures"]["ratio"]
    new["records"]["verify/A.one"]["figures"]["ratio"] = float(np.nextafter(ratio, 1.0))
    (d,) = rs.compare(old, new)
    assert (d.record, d.field) == ("verify/A.one", "figures/ratio")
    assert d.old == 0.30000000000000004 and d.new == 0.3000000000000001
    assert str(d) == "verify/A.one figures/ratio: 0.30000000000000004 -> 0.3000000000000001"
    # a relative tolerance forgives one ulp, not a status
    assert rs.compare(old, new, rtol=1e-12) == []
    new["records"]["verify/A.one"]["status"] = "FAIL"
    assert [(d.field, d.old, d.new) for d in rs.compare(old, new, rtol=1e-12)] == [
        ("status", "PASS", "FAIL")]


@pytest.mark.parametrize("where, value, field", [
    (("verify/A.one", "status"), "FAIL", "status"),
    (("verify/A.one", "detects"), 1.4999999999999998, "detects"),
    (("verify/A.one", "figures", "n"), 1000.0, "figures/n"),           # int became float
    (("verify/A.one", "figures", "flag"), 1, "figures/flag"),          # bool became int
    (("verify/A.one", "figures", "curve", 2), 0.25000000000000006, "figures/curve/2"),
    (("verify/B.two", "figures", "gap"), {"$float": "nan"}, "figures/gap"),
    (("verify/B.two", "detects"), 3.0, "detects"),
    (("report/rho", "data", "rho", 0), 0.7500000000000001, "data/rho/0"),
])
def test_every_kind_of_change_is_found(two, where, value, field):
    old, new = two
    target = new["records"]
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = value
    assert [(d.record, d.field) for d in rs.compare(old, new)] == [(where[0], field)]


def test_statuses_mode_ignores_numbers_but_not_a_status_or_a_seed(two):
    old, new = two
    new["records"]["verify/A.one"]["figures"]["ratio"] = 0.4
    new["records"]["report/rho"]["data"]["rho"][0] = 0.7
    assert rs.compare(old, new, fields=rs.STATUS_FIELDS) == []
    new["records"]["verify/B.two"]["status"] = "PASS"
    new["records"]["verify/A.one"]["seed"] = 1
    del new["records"]["report/rho"]
    assert [(d.record, d.field) for d in rs.compare(old, new, fields=rs.STATUS_FIELDS)] == [
        ("report/rho", ""), ("verify/A.one", "seed"), ("verify/B.two", "status")]


def test_the_machine_is_recognised_whatever_the_order_of_its_blas_libraries():
    here = rs.fingerprint()
    assert rs.same_machine(here, rs.fingerprint())
    swapped = {**here, "blas": list(reversed(here["blas"]))}
    assert rs.same_machine(here, swapped)
    other = {**here, "simd_found": ["X86_V3"]}                     # no AVX-512 loops
    assert not rs.same_machine(here, other) and not rs.same_machine(None, here)


def test_minus_zero_differs_and_nan_equals_nan():
    old = _doc({"r": {"x": 0.0, "y": {"$float": "nan"}}})
    new = _doc({"r": {"x": -0.0, "y": {"$float": "nan"}}})
    assert [d.field for d in rs.compare(old, new)] == ["x"]
    assert [d.field for d in rs.compare(old, new, rtol=0.5)] == []


def test_a_record_or_a_field_missing_or_added_is_found(two):
    old, new = two
    del new["records"]["verify/B.two"]
    new["records"]["verify/C.three"] = {"status": "PASS"}
    del new["records"]["verify/A.one"]["figures"]["n"]
    new["records"]["report/rho"]["data"]["rho"].append(0.25)
    found = [(d.record, d.field, d.old, d.new) for d in rs.compare(old, new)]
    assert found == [("report/rho", "data/rho/<length>", 2, 3),
                     ("verify/A.one", "figures/n", 1000, rs.MISSING),
                     ("verify/B.two", "", "present", rs.MISSING),
                     ("verify/C.three", "", rs.MISSING, "present")]


def test_a_written_snapshot_reads_back_bit_for_bit(tmp_path):
    values = [0.1, 1 / 3, 5e-324, 1.7976931348623157e308, -0.0, float("nan"), float("inf"),
              -float("inf"), 2**60, True, None, "PASS"]
    rec = rs.encode({"figures": {"v": values, "t": (1.0, 2)}})
    assert rec["figures"]["v"][5:8] == [{"$float": "nan"}, {"$float": "inf"},
                                        {"$float": "-inf"}]
    path = tmp_path / "s.json"
    rs.write(path, _doc({"verify/X": rec}, commit="abc"))
    json.loads(path.read_text(), parse_constant=lambda c: pytest.fail(f"non-strict {c}"))
    back = rs.read(path)
    assert rs.compare(_doc({"verify/X": rec}), back) == []
    got = back["records"]["verify/X"]["figures"]["v"]
    assert [repr(x) for x in got[:5]] == [repr(x) for x in values[:5]]
    assert math.isnan(rs._float(got[5])) and got[8] == 2**60 and got[9] is True


def test_the_package_directory_is_written_as_a_placeholder():
    rec = rs.record_of_check({"id": "X", "status": "ERROR", "seconds": 1.0, "cpu_seconds": 0.9,
                              "statement": "...", "note": "File \"/some/where/laocheck/a.py\""},
                             package="/some/where/laocheck")
    assert rec == {"status": "ERROR", "note": "File \"<laocheck>/a.py\""}


def test_compare_command_exit_status_and_lines(two, tmp_path, capsys):
    old, new = two
    rs.write(tmp_path / "old.json", old)
    rs.write(tmp_path / "same.json", new)
    new["records"]["verify/A.one"]["status"] = "FAIL"
    rs.write(tmp_path / "new.json", new)
    assert rs.main(["compare", str(tmp_path / "old.json"), str(tmp_path / "same.json")]) == 0
    assert "0 differences in 0 records (bit for bit)" in capsys.readouterr().out
    assert rs.main(["compare", str(tmp_path / "old.json"), str(tmp_path / "new.json")]) == 1
    out = capsys.readouterr().out
    assert out.startswith('verify/A.one status: "PASS" -> "FAIL"\n')
    assert rs.main(["compare", str(tmp_path / "old.json"), str(tmp_path / "new.json"),
                    "--match", "report/*"]) == 0
    (tmp_path / "bad.json").write_text("[]")
    with pytest.raises(SystemExit) as exc:
        rs.main(["compare", str(tmp_path / "old.json"), str(tmp_path / "bad.json")])
    assert exc.value.code == 2
    with pytest.raises(SystemExit):
        rs.main(["compare", "a", "b", "--rtol", "-1"])


# ------------------------------------------------------------- the committed snapshot
@pytest.fixture(scope="module")
def committed():
    return rs.read(SNAPSHOT)


def _fields(committed):
    """None (every field, bit for bit) on the machine that recorded the snapshot, else the
    statuses and seeds only."""
    return None if rs.same_machine(committed["meta"].get("fingerprint"), rs.fingerprint()) \
        else rs.STATUS_FIELDS


def _explain(diffs, fields):
    ids = sorted({d.record for d in diffs})
    shown = "\n".join(f"  {d}" for d in diffs[:40])
    mode = "bit for bit" if fields is None else \
        "statuses and seeds: the snapshot was recorded on another machine"
    return (f"{len(diffs)} differences from benchmarks/results/records_tiny.json in "
            f"{len(ids)} records ({mode}): "
            f"{', '.join(ids)}\n{shown}\nIf the change is meant, regenerate the snapshot in the "
            f"same commit and name the differences in its message:\n  {rs.REGENERATE}")


def test_the_snapshot_is_what_it_says(committed):
    meta = committed["meta"]
    assert (meta["effort"], meta["seed"], meta["source"]) == ("tiny", 0, "digits")
    assert meta["only"] == [] and meta["reports"] is None      # every check, every report


def test_every_recorded_check_and_report_still_exists(committed):
    """Without running anything: a check or a report spec of the snapshot that is gone (removed
    or renamed) is a difference. One added since is not (a new check has no old numbers; it is
    compared once the snapshot is regenerated), so that adding a check or an estimator touches
    the files CONTRIBUTING.md names and no other."""
    recorded = set(committed["records"])
    current = ({f"verify/{c.id}" for c in checks.checks()}
               | {f"report/{s.name}" for s in find_specs(SPECS_DIR, KINDS)})
    gone = sorted(recorded - current)
    assert gone == [], _explain([rs.Difference(k, "", "present", rs.MISSING) for k in gone],
                                None)


def test_the_cheapest_checks_and_reports_reproduce_the_snapshot(committed, tmp_path):
    existing = {c.id for c in checks.checks()}     # one gone is the test above's finding
    ids = [i for i in rs._cheapest(committed, CHECK_CPU) if i in existing]
    assert len(ids) >= 300, "the share rerun here covers fewer checks than expected"
    new = rs.snapshot("tiny", 0, 1, only=ids, reports=list(REPORTS), tmp=tmp_path)
    assert sorted(new["records"]) == sorted(
        [f"verify/{i}" for i in ids] + [f"report/{r}" for r in REPORTS])
    fields = _fields(committed)
    diffs = rs.compare(committed, new, records=new["records"], fields=fields)
    assert diffs == [], _explain(diffs, fields)


def test_a_planted_change_of_seed_is_found(committed):
    """A restructuring that changes how a check's seed is derived changes its numbers: the
    record of a Monte Carlo check run in-process (one BLAS thread, as the snapshot's runs) at
    seed 0 is the snapshot's, at seed 1 it is not."""
    key = "verify/HK12.AERR.gradient.unbiased.monte_carlo"
    with threadpool_limits(1):
        at = {s: rs.record_of_check(checks.run(checks.get(key[7:]), seed=s,
                                               effort="tiny").to_dict()) for s in (0, 1)}
    fields = _fields(committed)
    assert rs.compare(committed, _doc({key: at[0]}), records=[key], fields=fields) == []
    planted = {d.field for d in rs.compare(committed, _doc({key: at[1]}), records=[key])}
    assert {"seed", "entropy", "figures/mean_low/0", "figures/mean_high/3"} <= planted
