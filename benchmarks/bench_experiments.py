"""Start-up time of the learners and seconds per replicate of the section-3 experiments.

Two measurements (speed is measured here, never asserted in a test):

``startup``: a fresh interpreter (``subprocess``) that imports numpy and scikit-learn only,
against one that also imports ``laocheck.learners`` and fits ``AERR(k=4)`` (η = "theory", from
``laocheck.bounds``) on 200 × 20 rows. Median wall-clock and CPU (user + sys) seconds of
``--repeats`` runs each; the difference is laocheck's own start-up cost.

``replicate``: one replicate of the experiment engine (:func:`laocheck.experiments.replicate`,
R = 1, one job) of HK12 Thm 3.1 (AERR, η = √(k/(2dm)), HK12 Thm B.1's instance with 16 rows)
and HK12 Thm 3.4 (AELR with the proof's η, KS15 Sec. 5.1's lasso power-law data, α = −1) at
m = 2·10⁴, k = 4, for d in 10², ..., 10⁶: seconds per replicate (best of ``--repeats``,
each a different replicate seed) including the sample draws, the fit and the exact excess risk
(w* is computed once per distribution, before the timer, and reported separately), and the
peak resident memory.
Two columns of sources: ``rows`` (``fit`` on sampled rows, O(m·d): the path before issue 15,
unchanged) and ``oracle`` (``fit_oracle`` on the distribution's attribute oracle,
O(m·(k + log d))). Each (run, d, source) runs in a fresh interpreter; its peak RSS is that of
the replicates alone (the kernel's peak mark is reset after w* is computed, Linux
``/proc/self/clear_refs``), beside the RSS before them (interpreter, distribution, w*). CPU
seconds (``time.process_time``) are given beside wall-clock, with the load average.

Usage::

    python benchmarks/bench_experiments.py                       # both tables
    python benchmarks/bench_experiments.py startup --repeats 7
    python benchmarks/bench_experiments.py replicate --dims 100 1000 10000
    python benchmarks/bench_experiments.py replicate --sources oracle --dims 100 1000000
    python benchmarks/bench_experiments.py --json out.json

One core: run nothing else meanwhile (the numbers in the documentation's benchmark history, `docs/benchmarks/history.md`, say how
loaded the machine was).
"""
import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time

BASELINE = "import numpy, sklearn.base"
FIRST_FIT = ("import numpy, sklearn.base\n"
             "import laocheck.learners as L\n"
             "rng = numpy.random.default_rng(0)\n"
             "X = rng.uniform(-1, 1, (200, 20)) / numpy.sqrt(20)\n"
             "L.AERR(k=4, B=1.0, random_state=0).fit(X, X @ numpy.full(20, 0.1))\n"
             "import sys; print('sympy' in sys.modules, file=sys.stderr)\n")
TIMED = ("import time, resource\n"
         "t0 = time.perf_counter()\n"
         "{code}\n"
         "t1 = time.perf_counter()\n"
         "ru = resource.getrusage(resource.RUSAGE_SELF)\n"
         "print(t1 - t0, ru.ru_utime + ru.ru_stime)\n")


def _run(code):
    out = subprocess.run([sys.executable, "-c", TIMED.format(code=code)], check=True,
                         capture_output=True, text=True, env=dict(os.environ))
    wall, cpu = map(float, out.stdout.split())
    return wall, cpu


def startup(repeats):
    rows = {}
    for name, code in (("numpy + scikit-learn", BASELINE),
                       ("+ import laocheck.learners + first AERR fit", FIRST_FIT)):
        runs = [_run(code) for _ in range(repeats)]
        rows[name] = {"wall_median": statistics.median(r[0] for r in runs),
                      "cpu_median": statistics.median(r[1] for r in runs),
                      "wall_min": min(r[0] for r in runs)}
    names = list(rows)
    print(f"{'':48s} {'wall (median)':>14s} {'cpu (median)':>13s} {'wall (min)':>11s}")
    for n in names:
        r = rows[n]
        print(f"{n:48s} {r['wall_median']:14.3f} {r['cpu_median']:13.3f} {r['wall_min']:11.3f}")
    diff = {k: rows[names[1]][k] - rows[names[0]][k] for k in rows[names[0]]}
    print(f"{'difference':48s} {diff['wall_median']:14.3f} {diff['cpu_median']:13.3f} "
          f"{diff['wall_min']:11.3f}")
    return {"rows": rows, "difference": diff}


def _peak_rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _reset_peak():
    """Reset the kernel's peak-RSS mark of this process (Linux >= 4.0: ``5`` into
    /proc/self/clear_refs resets VmHWM); False where unsupported."""
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def _vm_mb(field):
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024.0
    return float("nan")


def _setup(name, d, m, k=4, B=1.0):
    import numpy as np

    from laocheck import bounds
    from laocheck.data import HK12HardInstance, PowerLawBernoulli
    from laocheck.experiments import LearnerConfig
    from laocheck.learners import AELR, AERR

    if name == "AERR":
        dist = HK12HardInstance(d, 0.25)
        eta = bounds.evaluate("HK12.Thm3.1.eta", d=d, k=k, m=m)
        return dist, LearnerConfig(AERR, dict(k=k, B=B, eta=eta)), "l2"
    dist = PowerLawBernoulli(d, -1.0, scenario="lasso", B=B)
    G = float(np.sqrt(bounds.evaluate("HK12.Lemma3.8.G2", B=B, d=d, k=k)))
    eta = bounds.evaluate("HK12.Thm3.4.eta_proof", G=G, d=d, m=m)
    return dist, LearnerConfig(AELR, dict(k=k, B=B, eta=eta)), "l1"


def cell(name, d, m, repeats, source):
    """One (run, d, source) in this process: w* first (timed apart), then ``repeats``
    replicates; prints one JSON line."""
    from laocheck.experiments import child_seeds, replicate

    t0 = time.perf_counter()
    dist, spec, norm = _setup(name, d, m)
    sol = dist.minimizer(norm, 1.0)
    t_star = time.perf_counter() - t0
    rss_before = _vm_mb("VmRSS")
    reset = _reset_peak()
    times, cpus, excess = [], [], None
    for seed in child_seeds(0, repeats):
        c0, t0 = time.process_time(), time.perf_counter()
        excess = replicate(spec, dist, m, norm=norm, B=1.0, R=1, seed=seed, source=source)[0][0]
        times.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    peak = _vm_mb("VmHWM") if reset else _peak_rss_mb()
    print(json.dumps({"run": name, "d": d, "m": m, "k": 4, "source": source,
                      "w_star_seconds": t_star, "seconds_per_replicate": min(times),
                      "cpu_seconds_per_replicate": min(cpus), "excess_risk": float(excess),
                      "certificate": sol.certificate, "rss_before_mb": rss_before,
                      "peak_rss_replicates_mb": peak, "peak_is_replicates_only": reset,
                      "peak_rss_process_mb": _peak_rss_mb()}))


def replicate_table(dims, m, repeats, sources, rows_max_d):
    """Each (run, d, source) in a fresh interpreter (so each peak RSS is its own)."""
    rows = []
    print(f"{'run':5s} {'source':7s} {'d':>8s} {'w* (s)':>7s} {'s/repl':>8s} {'CPU s/repl':>10s} "
          f"{'excess':>10s} {'RSS before':>10s} {'peak RSS':>9s}  load")
    for name in ("AERR", "AELR"):
        for source in sources:
            for d in dims:
                if source == "rows" and d > rows_max_d:
                    continue
                out = subprocess.run([sys.executable, __file__, "cell", "--run", name, "--d", str(d),
                                      "-m", str(m), "--repeats", str(repeats), "--source", source],
                                     check=True, capture_output=True, text=True, env=dict(os.environ))
                row = json.loads(out.stdout.strip().splitlines()[-1])
                row["load_average"] = os.getloadavg()
                rows.append(row)
                print(f"{name:5s} {source:7s} {d:8d} {row['w_star_seconds']:7.2f} "
                      f"{row['seconds_per_replicate']:8.3f} {row['cpu_seconds_per_replicate']:10.3f} "
                      f"{row['excess_risk']:10.4g} {row['rss_before_mb']:10.0f} "
                      f"{row['peak_rss_replicates_mb']:9.0f}  {row['load_average'][0]:.1f}", flush=True)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", nargs="?", choices=["startup", "replicate", "all", "cell"],
                        default="all")
    parser.add_argument("--run", choices=["AERR", "AELR"], help=argparse.SUPPRESS)
    parser.add_argument("--d", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--source", choices=["rows", "oracle"], default="oracle",
                        help=argparse.SUPPRESS)
    parser.add_argument("--sources", nargs="+", choices=["rows", "oracle"],
                        default=["rows", "oracle"])
    parser.add_argument("--rows-max-d", type=int, default=10**4,
                        help="largest d of the rows path (it costs O(m d); default 1e4)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--dims", type=int, nargs="+", default=[10**2, 10**3, 10**4, 10**5, 10**6])
    parser.add_argument("-m", type=int, default=20_000)
    parser.add_argument("--json")
    args = parser.parse_args()
    if args.what == "cell":
        cell(args.run, args.d, args.m, args.repeats, args.source)
        return
    out = {"machine": platform.processor() or platform.machine(), "python": platform.python_version(),
           "load_average": os.getloadavg()}
    if args.what in ("startup", "all"):
        out["startup"] = startup(args.repeats)
    if args.what in ("replicate", "all"):
        out["replicate"] = replicate_table(args.dims, args.m, min(args.repeats, 3), args.sources,
                                           args.rows_max_d)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(out, fh, indent=2)


if __name__ == "__main__":
    main()
