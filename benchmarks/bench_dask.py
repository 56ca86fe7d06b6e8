"""``laocheck verify`` on a 2-worker Dask LocalCluster against ``--jobs 2`` (joblib), and the
records of both against each other.

Method: the same command, ``python -m laocheck verify --budget fast --no-progress --json ...``
(plus any ``--only``), runs in a fresh process, once with ``--jobs 2`` and once with
``--scheduler ADDRESS`` of a ``distributed.LocalCluster(n_workers=2, threads_per_worker=1,
processes=True)`` on 127.0.0.1 started beforehand (its start-up is timed separately: a cluster
is long-lived). Both are cold: the joblib workers and the Dask workers import the catalog on
their first task. Wall-clock seconds of each command, best of ``--repeat`` runs; a new cluster
for every repeat. The two JSON files are then compared with the timing fields (every
``seconds``), the command line and ``jobs`` removed: they must be identical.

    python benchmarks/bench_dask.py                     # the whole catalog, fast budget
    python benchmarks/bench_dask.py --only 'HK12.*'     # a part of it

Needs ``laocheck[distributed]``. Nothing listens beyond 127.0.0.1.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import distributed


def _without_timings(value):
    if isinstance(value, dict):
        return {k: _without_timings(v) for k, v in value.items() if k != "seconds"}
    if isinstance(value, list):
        return [_without_timings(v) for v in value]
    return value


def _strip(doc):
    """Every ``seconds`` (the run's, each check's, those in the empirical checks' figures)
    removed, and what the two commands differ in by design (command line, --jobs)."""
    doc = _without_timings(doc)
    doc["run"]["provenance"].pop("command")
    doc["run"].pop("jobs")
    return doc


def _verify(out, only, extra):
    argv = [sys.executable, "-m", "laocheck", "verify", "--budget", "fast", "--no-progress",
            "--json", str(out)]
    for glob in only:
        argv += ["--only", glob]
    start = time.perf_counter()
    proc = subprocess.run(argv + extra, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise SystemExit(f"verify failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return wall


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", default=[], metavar="GLOB")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="bench_dask."))
    joblib_times, dask_times, startups = [], [], []
    for r in range(args.repeat):
        joblib_times.append(_verify(tmp / f"jobs2.{r}.json", args.only, ["--jobs", "2"]))
        start = time.perf_counter()
        with distributed.LocalCluster(host="127.0.0.1", n_workers=2, threads_per_worker=1,
                                      processes=True, dashboard_address=None) as cluster:
            startups.append(time.perf_counter() - start)
            dask_times.append(_verify(tmp / f"dask.{r}.json", args.only,
                                      ["--scheduler", cluster.scheduler_address]))
    a = _strip(json.loads((tmp / "jobs2.0.json").read_text()))
    b = _strip(json.loads((tmp / "dask.0.json").read_text()))
    n = len(a["checks"])
    tj, td = min(joblib_times), min(dask_times)
    print(f"checks: {n} ({' '.join(args.only) or 'the whole catalog'}), budget fast")
    runs = [", ".join(f"{t:.1f}" for t in times) for times in (joblib_times, dask_times)]
    print(f"--jobs 2:                  {tj:7.1f} s  (runs: {runs[0]})")
    print(f"--scheduler (2 workers):   {td:7.1f} s  (runs: {runs[1]})")
    print(f"LocalCluster start-up:     {min(startups):7.1f} s  (not in the time above)")
    print(f"dask / joblib:             {td / tj:7.2f}x")
    print(f"records identical (timings aside): {a == b}")
    print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    return 0 if a == b else 1


if __name__ == "__main__":
    sys.exit(main())
