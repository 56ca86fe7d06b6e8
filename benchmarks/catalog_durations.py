"""The catalog's cost per check: CPU seconds of every check at one budget, for the scheduler.

Runs ``laocheck verify --effort BUDGET --jobs JOBS --json TMP`` in a fresh interpreter, reads
each record's ``cpu_seconds`` (``time.process_time`` around the check, so the number does not
depend on how many other processes share the machine as much as wall time does) and writes
them into the durations file the runner reads (``src/laocheck/checks/_durations.json``): per
budget, ``{"meta": {...}, "cpu_seconds": {check id: seconds}}``, the meta saying where and when
they were measured (``benchmarks/_results.py``: date, commit, machine, load average) and the
run's wall time and totals. The other budget's entry is kept as it was.

The runner (:func:`laocheck.checks._runner.submission_order`) submits the checks longest first
from these numbers, so that ``--jobs 2`` does not end with one long check alone; the records
and their order do not depend on it (each check is seeded by its id). A check the file does not
know is submitted first (it may be long; a new check is the likeliest to be).

Usage::

    python benchmarks/catalog_durations.py                    # fast effort, 2 jobs
    python benchmarks/catalog_durations.py --effort full --jobs 2
    python benchmarks/catalog_durations.py --only 'HK12.*' --out /tmp/d.json   # a subset
    python benchmarks/catalog_durations.py --from-json verify.json   # an existing run's records

With ``--only``, only those checks' entries are replaced (the others, and the provenance of the
run that measured them, are kept; the update is listed in the meta's ``updates``). Run it on an
idle machine when the catalog's costs change (a new slow check, a check made cheaper).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _results  # noqa: E402

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "src" / "laocheck" / "checks" / \
    "_durations.json"


def measure(budget, jobs, only=(), seed=0):
    """``(records, wall seconds)`` of one ``laocheck verify`` run in a fresh interpreter."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "verify.json"
        command = [sys.executable, "-m", "laocheck", "verify", "--effort", budget, "--jobs",
                   str(jobs), "--seed", str(seed), "--no-progress", "--json", str(out)]
        for pattern in only:
            command += ["--only", pattern]
        start = time.perf_counter()
        proc = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True, check=False)
        wall = time.perf_counter() - start
        if proc.returncode not in (0, 1):
            sys.exit(f"laocheck verify exited {proc.returncode}:\n{proc.stderr}")
        return json.loads(out.read_text())["checks"], wall


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--effort", "--budget", dest="budget", choices=("fast", "full"),
                        default="fast", help="the effort profile (--budget: its name before 0.1)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", action="append", default=[],
                        help="measure only the checks matching this glob (repeatable)")
    parser.add_argument("--from-json", type=Path, default=None, metavar="PATH",
                        help="read the records of an existing `laocheck verify --json PATH` "
                        "run instead of running one (its budget, jobs and seed are used)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help="the durations file to update (default: the package's)")
    args = parser.parse_args(argv)
    if args.from_json is None:
        records, wall = measure(args.budget, args.jobs, args.only, args.seed)
    else:
        run = json.loads(args.from_json.read_text())
        records, wall = run["checks"], run["run"]["seconds"]
        args.jobs, args.seed = (run["run"][k] for k in ("jobs", "seed"))
        args.budget = run["run"].get("effort", run["run"].get("budget"))   # "budget" before 0.1
        args.only = ["(the ids of that run)"] if args.only else []
    doc = json.loads(args.out.read_text()) if args.out.exists() else {}
    entry = doc.get(args.budget, {"cpu_seconds": {}})
    seconds = {} if not args.only else dict(entry.get("cpu_seconds", {}))
    for rec in records:
        cpu = rec.get("cpu_seconds")
        seconds[rec["id"]] = round(rec["seconds"] if cpu is None else cpu, 2)
    total = sum(seconds.values())
    run_meta = _results.meta(measured_by=(
        f"laocheck verify --effort {args.budget} --jobs {args.jobs} --seed {args.seed} --json"
        + (f" (read from {args.from_json.name})" if args.from_json else "")),
        budget=args.budget, jobs=args.jobs, seed=args.seed, only=args.only or None,
        checks_measured=len(records), wall_seconds=round(wall, 1),
        cpu_seconds_measured=round(sum(seconds[r["id"]] for r in records), 1))
    if args.from_json is not None:
        # the run's own commit, not this checkout's: the records were measured there
        measured = run["run"].get("provenance", {})
        run_meta["commit"] = measured.get("commit", run_meta.get("commit"))
        run_meta["laocheck"] = measured.get("laocheck", run_meta.get("laocheck"))
    if args.only and "meta" in entry:
        # a partial update: the whole run's provenance stays, this one is listed after it
        meta = dict(entry["meta"])
        meta["updates"] = [*meta.get("updates", []),
                           {**run_meta, "ids": sorted(r["id"] for r in records)}]
    else:
        meta = run_meta
    meta["cpu_seconds_total"] = round(total, 1)
    doc[args.budget] = {"meta": meta, "cpu_seconds": dict(sorted(seconds.items()))}
    args.out.write_text(json.dumps(dict(sorted(doc.items())), indent=1) + "\n",
                        encoding="utf-8")
    counts = {}
    for rec in records:
        counts[rec["status"]] = counts.get(rec["status"], 0) + 1
    unexpected = [rec["id"] for rec in records if rec["status"] != rec.get("expected")]
    print("statuses: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
          + (f"; NOT AS DECLARED: {', '.join(unexpected)}" if unexpected else
             "; every check at its declared status"))
    slowest = sorted(seconds.items(), key=lambda kv: -kv[1])[:5]
    print(f"{len(records)} checks at {args.budget}, jobs {args.jobs}: {wall:.1f} s wall, "
          f"{sum(seconds[r['id']] for r in records):.1f} CPU s; written to {args.out}")
    for cid, cpu in slowest:
        print(f"{cpu:9.2f}  {cid}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
