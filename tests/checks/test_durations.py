"""The catalog's cost model: ``laocheck verify --durations N``, the CPU seconds each record
keeps, the longest-first submission from checks/_durations.json (records unchanged by it), and
the multiset enumeration that makes HK12.Lemma4.1.attributes cheap."""
import io
import json
import time
from dataclasses import replace
from fractions import Fraction

import pytest

from laocheck.checks import _runner, checks, get, run, run_catalog
from laocheck.checks.hk12 import statements as hk12
from laocheck.checks._exchangeable import exchangeable_expectation
from laocheck.checks._registry import CheckRecord, Result, Status
from laocheck.cli import main
from laocheck.cli.verify import detects_text, print_durations
from laocheck.exceptions import InvalidParameterError
from laocheck.stats import enumerate_outcomes


def _listed(out):
    """The rows of the --durations block: (cpu, wall, id, detects text)."""
    lines = out.split("slowest", 1)[1].splitlines()[1:]
    rows = []
    for line in lines:
        if line.startswith("total"):
            break
        cpu, wall, cid, detectable = line.split(maxsplit=3)
        rows.append((float(cpu), float(wall), cid, detectable))
    return rows


def test_durations_lists_the_slowest_checks_by_cpu_with_the_factor_they_detect(
        tmp_path, capsys):
    path = tmp_path / "v.json"
    assert main(["verify", "--only", "HK12.Lemma3.3*", "--durations", "2", "--no-progress",
                 "--json", str(path)]) == 0
    out = capsys.readouterr().out
    records = json.loads(path.read_text())["checks"]
    assert f"slowest 2 of {len(checks('HK12.Lemma3.3*'))} checks" in out
    rows = _listed(out)
    by_cpu = sorted(records, key=lambda r: (-r["cpu_seconds"], r["id"]))[:2]
    assert [r[2] for r in rows] == [r["id"] for r in by_cpu]
    assert rows[0][0] >= rows[1][0]
    for row, rec in zip(rows, by_cpu):
        assert row[0] == pytest.approx(rec["cpu_seconds"], abs=0.006)
        assert row[1] == pytest.approx(rec["seconds"], abs=0.006)
        assert row[3] == "detects=" + detects_text(rec["detects"])
    total = sum(r["cpu_seconds"] for r in records)
    assert f"total {total:.1f} CPU s" in out


def test_durations_zero_lists_every_check_and_a_bad_count_is_a_usage_error(capsys):
    assert main(["verify", "--only", "KS15.Eq15", "--durations", "0", "--no-progress"]) == 0
    assert len(_listed(capsys.readouterr().out)) == len(checks("KS15.Eq15"))
    for bad in ("-1", "two", "1.5"):
        with pytest.raises(SystemExit) as exc:
            main(["verify", "--durations", bad])
        assert exc.value.code == 2
        assert "`--durations` must be an integer >= 0" in capsys.readouterr().err


def _timed(func):
    return replace(get("KS15.Eq15"), func=func, estimator=None, kwargs={})


def test_a_record_keeps_cpu_seconds_apart_from_wall_seconds():
    def sleeps(ctx):
        time.sleep(0.3)
        return Result(Status.PASS, {"slept": 0.3})

    def spins(ctx):
        end = time.process_time() + 0.3
        while time.process_time() < end:
            pass
        return Result(Status.PASS, {"spun": 0.3})

    idle, busy = run(_timed(sleeps)), run(_timed(spins))
    assert idle.seconds >= 0.3 and idle.cpu_seconds < 0.1
    assert busy.cpu_seconds >= 0.3
    # an old record (a results log written before cpu_seconds) still reads; wall stands in
    doc = idle.to_dict()
    del doc["cpu_seconds"]
    old = CheckRecord.from_dict(doc)
    assert old.cpu_seconds is None
    with pytest.raises(InvalidParameterError, match="cpu_seconds"):
        CheckRecord.from_dict({**busy.to_dict(), "cpu_seconds": -1.0})
    out = io.StringIO()
    print_durations([busy, replace(old, seconds=5.0)], 1, out)
    assert "slowest 1 of 2 checks" in out.getvalue()
    assert _listed(out.getvalue())[0][:2] == (5.0, 5.0)      # the old record ranks by its wall


def test_submission_is_longest_first_from_the_durations_file(tmp_path, monkeypatch):
    path = tmp_path / "durations.json"
    path.write_text(json.dumps({"fast": {"meta": {}, "cpu_seconds": {
        "A.short": 0.1, "B.long": 9.0, "C.middle": 2.0, "D.tied": 2.0}}}))
    monkeypatch.setattr(_runner, "DURATIONS_FILE", path)
    _runner.recorded_durations.cache_clear()
    try:
        ids = ["A.short", "B.long", "C.middle", "D.tied", "E.new", "F.new.empirical"]
        # unknown checks first (a new one may be long; the .empirical ones first among
        # them), then the known by decreasing CPU seconds, ties in id order
        assert _runner.submission_order(ids) == ["F.new.empirical", "E.new", "B.long",
                                                 "C.middle", "D.tied", "A.short"]
        # a budget not measured yet is ordered by the fast budget's figures
        assert _runner.submission_order(ids, "full") == _runner.submission_order(ids)
    finally:
        _runner.recorded_durations.cache_clear()


def test_the_shipped_durations_say_where_and_when_and_cover_the_catalog():
    doc = json.loads(_runner.DURATIONS_FILE.read_text())
    meta = doc["fast"]["meta"]
    assert {"date", "commit", "machine", "cpu_count", "load_average_at_end"} <= set(meta)
    seconds = doc["fast"]["cpu_seconds"]
    assert all(v >= 0 for v in seconds.values())
    # most of the catalog is known (new checks, unknown, are submitted first)
    ids = [c.id for c in checks()]
    assert sum(i in seconds for i in ids) >= 0.9 * len(ids)


def test_records_do_not_depend_on_the_jobs_or_the_submission_order(monkeypatch):
    """Each check is seeded by its id: jobs 1 in the recorded order, jobs 2 in the reversed
    order, give the same records field for field (times aside), in id order. KS15.Eq4's
    optimiser calls LAPACK: its last bits followed the BLAS threads (the machine's here, one
    in a worker) until every check ran with one."""
    selected = checks("CB11.AER.data_point.*") + checks("KS15.Eq15") + checks("KS15.Eq4")
    ids = [c.id for c in selected]
    strip = ("seconds", "cpu_seconds")

    def fields(records):
        return [{k: v for k, v in r.to_dict().items() if k not in strip} for r in records]

    one = run_catalog(selected, 0, "fast", 1)
    order = _runner.submission_order
    monkeypatch.setattr(_runner, "submission_order",
                        lambda todo, tier="fast": order(todo, tier)[::-1])
    two = run_catalog(selected, 0, "fast", 2)
    assert [r.id for r in one] == [r.id for r in two] == ids
    assert fields(one) == fields(two)
    assert any(r.figures for r in one)


# ----------------------------------------------------------- exchangeable (multiset) enumeration

def _draws(src, m=2, p=(Fraction(1, 2), Fraction(1, 3), Fraction(1, 6))):
    """A user's sampler: a geometric order, then m i.i.d. categorical draws per order."""
    n = src.geometric(Fraction(1, 2))
    return [src.categorical(p) for _ in range(m * n)]


def test_multiset_enumeration_equals_the_full_one_for_a_symmetric_function():
    for f in (lambda v: len(set(v)), lambda v: sum(v), lambda v: max(v, default=-1)):
        full = enumerate_outcomes(_draws, max_depth=4).expectation(f)
        assert exchangeable_expectation(_draws, f, max_depth=4) == full


def test_multiset_enumeration_is_wrong_for_an_order_dependent_function():
    # what the check guards against: the first draw alone is not symmetric in the run
    def first(v):
        return v[0] if v else 0
    full = enumerate_outcomes(_draws, max_depth=3).expectation(first)
    assert exchangeable_expectation(_draws, first, max_depth=3) != full


class _FirstDrawCounted:
    """A GenEst reference that reads one attribute more when its *first* draw is index 0:
    its attribute count depends on the order of its i.i.d. draws."""

    def __init__(self, base):
        self._base = base

    def __getattr__(self, name):
        return getattr(self._base, name)

    def reference(self, w, x, y, src):
        drawn = []

        class Recorder:
            def geometric(self, p, **kw):
                return src.geometric(p, **kw)

            def categorical(self, p):
                drawn.append(src.categorical(p))
                return drawn[-1]

        value, seen = self._base.reference(w, x, y, Recorder())
        extra = {"extra"} if drawn and drawn[0] == 0 else set()
        return value, frozenset(seen) | extra


def test_lemma41_attributes_fails_when_the_count_depends_on_the_draws_order(monkeypatch):
    assert run("HK12.Lemma4.1.attributes").status == "PASS"
    real = hk12.estimators.get
    monkeypatch.setattr(hk12.estimators, "get",
                        lambda name, **kw: _FirstDrawCounted(real(name, **kw)))
    record = run("HK12.Lemma4.1.attributes")
    assert record.status == "FAIL"
    assert "not symmetric" in record.note
