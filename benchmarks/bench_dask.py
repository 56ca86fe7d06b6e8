"""``laocheck verify`` on a 2-worker Dask LocalCluster against ``--jobs 2`` (joblib), and the
records of both against each other.

Method: the same command, ``python -m laocheck verify --effort fast --no-progress --json ...``
(plus any ``--only``), runs in a fresh process, once with ``--jobs 2`` and once with
``--scheduler ADDRESS`` of a ``distributed.LocalCluster(n_workers=2, threads_per_worker=1,
processes=True)`` on 127.0.0.1 started beforehand (its start-up is timed separately: a cluster
is long-lived). Both are cold: the joblib workers and the Dask workers import the catalog on
their first task. Wall-clock seconds of each command, best of ``--repeat`` runs; a new cluster
for every repeat. Beside them the CPU seconds (user + system) of every process involved, which
a loaded machine changes much less than the wall times: for ``--jobs 2`` the command and its
joblib workers; for the cluster the command (the Dask client), the workers, and this process
(where a LocalCluster keeps its scheduler and nannies). The two JSON files are then compared
with the timing fields (every ``seconds``), the command line and ``jobs`` removed: they must be
identical.

    python benchmarks/bench_dask.py                     # the whole catalog, fast effort
    python benchmarks/bench_dask.py --only 'HK12.*'     # a part of it
    python benchmarks/bench_dask.py --no-worker-profile # Dask's statistical profiler off

Dask's workers sample their task threads' stacks every 10 ms for the dashboard's profile
(``distributed.worker.profile``); ``--no-worker-profile`` starts the cluster with it off, as
``DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED=False dask worker ...`` would. ``--quiet-cluster``
starts it with :data:`QUIET` (the settings `docs/guide/cluster.md` suggests for a cluster that runs laocheck:
the profiler off and Dask's periodic monitors slower), and ``--idle SECONDS`` first measures the
CPU the cluster spends doing nothing (scheduler, nannies and workers) over that many seconds.

Needs ``laocheck[distributed]``. Nothing listens beyond 127.0.0.1.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import dask
import distributed
import psutil


#: Dask settings for a cluster that runs laocheck's CPU-bound tasks (docs/guide/cluster.md,
#: "Running on a cluster"): the workers' statistical profiler off, and the event-loop tick, the system monitor
#: and the nanny's memory monitor at 1 s, 5 s and 1 s instead of 20 ms, 500 ms and 100 ms
QUIET = {"distributed.worker.profile.enabled": False,
         "distributed.admin.tick.interval": "1s",
         "distributed.admin.system-monitor.interval": "5s",
         "distributed.worker.memory.monitor-interval": "1s"}


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


def _cpu(times):
    return times.user + times.system


def _children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _verify(out, only, extra):
    """(wall seconds, CPU seconds of the command and the processes it waited for)."""
    argv = [sys.executable, "-m", "laocheck", "verify", "--effort", "fast", "--no-progress",
            "--json", str(out)]
    for glob in only:
        argv += ["--only", glob]
    cpu0, start = _children_cpu(), time.perf_counter()
    proc = subprocess.run(argv + extra, capture_output=True, text=True, check=False)
    wall, cpu = time.perf_counter() - start, _children_cpu() - cpu0
    if proc.returncode not in (0, 1):
        raise SystemExit(f"verify failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return wall, cpu


def _on_cluster(out, only, settings, idle=0.0):
    """(start-up, wall, CPU of client, workers, this process, idle CPU per second) of verify on
    a new cluster; with ``idle`` > 0, the cluster's CPU per second over ``idle`` seconds of
    doing nothing is measured first."""
    start = time.perf_counter()
    with dask.config.set(settings), \
            distributed.LocalCluster(host="127.0.0.1", n_workers=2, threads_per_worker=1,
                                     processes=True, dashboard_address="127.0.0.1:0") as cluster:
        startup = time.perf_counter() - start
        me = psutil.Process()
        workers = me.children(recursive=True)

        def cpu_now():
            return _cpu(me.cpu_times()), [_cpu(w.cpu_times()) for w in workers]

        idle_rate = None
        if idle > 0:
            here0, workers0 = cpu_now()
            time.sleep(idle)
            here1, workers1 = cpu_now()
            idle_rate = (here1 - here0 + sum(workers1) - sum(workers0)) / idle
        here0, workers0 = cpu_now()
        wall, client = _verify(out, only, ["--scheduler", cluster.scheduler_address])
        here1, workers1 = cpu_now()
    return startup, wall, (client, sum(workers1) - sum(workers0), here1 - here0), idle_rate


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", default=[], metavar="GLOB")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--worker-profile", action=argparse.BooleanOptionalAction, default=True,
                        help="Dask's statistical profiler on the workers (Dask's default: on)")
    parser.add_argument("--quiet-cluster", action="store_true",
                        help="start the cluster with QUIET (profiler off, slower monitors)")
    parser.add_argument("--idle", type=float, default=0.0, metavar="SECONDS",
                        help="measure the idle cluster's CPU over SECONDS before each run")
    args = parser.parse_args(argv)
    settings = dict(QUIET) if args.quiet_cluster else {}
    if not args.worker_profile:
        settings["distributed.worker.profile.enabled"] = False
    tmp = Path(tempfile.mkdtemp(prefix="bench_dask."))
    joblib_runs, dask_runs, startups, idle_rates = [], [], [], []
    for r in range(args.repeat):
        joblib_runs.append(_verify(tmp / f"jobs2.{r}.json", args.only, ["--jobs", "2"]))
        startup, wall, cpus, idle_rate = _on_cluster(tmp / f"dask.{r}.json", args.only,
                                                     settings, args.idle)
        startups.append(startup)
        idle_rates.append(idle_rate)
        dask_runs.append((wall, cpus))
    a = _strip(json.loads((tmp / "jobs2.0.json").read_text()))
    b = _strip(json.loads((tmp / "dask.0.json").read_text()))
    n = len(a["checks"])
    tj, cj = min(joblib_runs)
    td, (client, workers, here) = min(dask_runs)
    cd = client + workers + here
    seconds = [sum(c["seconds"] for c in json.loads((tmp / f"{kind}.0.json").read_text())["checks"])
               for kind in ("jobs2", "dask")]
    print(f"checks: {n} ({' '.join(args.only) or 'the whole catalog'}), effort fast; "
          f"cluster settings: {settings or 'Dask defaults'}")
    runs = [", ".join(f"{t:.1f}" for t, _ in times) for times in (joblib_runs, dask_runs)]
    ratios = [d / j for (j, _), (d, _) in zip(joblib_runs, dask_runs)]
    print(f"--jobs 2:                  {tj:7.1f} s  (runs: {runs[0]}); CPU {cj:.1f} s")
    print(f"--scheduler (2 workers):   {td:7.1f} s  (runs: {runs[1]}); CPU {cd:.1f} s = "
          f"client {client:.1f} + workers {workers:.1f} + scheduler and nannies {here:.1f}")
    print(f"LocalCluster start-up:     {min(startups):7.1f} s  (not in the time above)")
    print(f"checks' own seconds:       {seconds[0]:7.1f} s (joblib), {seconds[1]:.1f} s (Dask)")
    if args.idle > 0:
        print(f"idle cluster CPU:          {min(idle_rates):7.3f} cores (runs: "
              f"{', '.join(f'{v:.3f}' for v in idle_rates)})")
    print(f"dask / joblib:             {td / tj:7.2f}x wall (best of each), {cd / cj:.2f}x CPU; "
          f"pair by pair {', '.join(f'{v:.2f}' for v in ratios)}, median "
          f"{statistics.median(ratios):.2f}")
    print(f"records identical (timings aside): {a == b}")
    print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    return 0 if a == b else 1


if __name__ == "__main__":
    sys.exit(main())
