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
peak resident memory of the process after each d (``resource.getrusage``; it only grows, so
it is the peak over all sizes so far).

Usage::

    python benchmarks/bench_experiments.py                       # both tables
    python benchmarks/bench_experiments.py startup --repeats 7
    python benchmarks/bench_experiments.py replicate --dims 100 1000 10000
    python benchmarks/bench_experiments.py --json out.json

One core: run nothing else meanwhile (the numbers in the README say how loaded the machine was).
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


def replicate_table(dims, m, repeats):
    import numpy as np

    from laocheck import bounds
    from laocheck.data import HK12HardInstance, PowerLawBernoulli
    from laocheck.experiments import LearnerConfig, child_seeds, replicate
    from laocheck.learners import AELR, AERR

    k, B = 4, 1.0
    rows = []
    print(f"{'run':8s} {'d':>9s} {'w* (s)':>8s} {'s / replicate':>14s} {'excess risk':>12s} "
          f"{'peak RSS (MB)':>14s}")
    for d in dims:
        for name in ("AERR", "AELR"):
            t0 = time.perf_counter()
            if name == "AERR":
                dist = HK12HardInstance(d, 0.25)
                eta = bounds.evaluate("HK12.Thm3.1.eta", d=d, k=k, m=m)
                spec, norm = LearnerConfig(AERR, dict(k=k, B=B, eta=eta)), "l2"
            else:
                dist = PowerLawBernoulli(d, -1.0, scenario="lasso", B=B)
                G = float(np.sqrt(bounds.evaluate("HK12.Lemma3.8.G2", B=B, d=d, k=k)))
                eta = bounds.evaluate("HK12.Thm3.4.eta_proof", G=G, d=d, m=m)
                spec, norm = LearnerConfig(AELR, dict(k=k, B=B, eta=eta)), "l1"
            sol = dist.minimizer(norm, B)
            t_star = time.perf_counter() - t0
            times, excess = [], None
            for seed in child_seeds(0, repeats):
                t0 = time.perf_counter()
                excess = replicate(spec, dist, m, norm=norm, B=B, R=1, seed=seed)[0][0]
                times.append(time.perf_counter() - t0)
            row = {"run": name, "d": d, "m": m, "k": k, "w_star_seconds": t_star,
                   "seconds_per_replicate": min(times), "excess_risk": float(excess),
                   "certificate": sol.certificate, "peak_rss_mb": _peak_rss_mb()}
            rows.append(row)
            print(f"{name:8s} {d:9d} {t_star:8.3f} {row['seconds_per_replicate']:14.3f} "
                  f"{row['excess_risk']:12.4g} {row['peak_rss_mb']:14.0f}", flush=True)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", nargs="?", choices=["startup", "replicate", "all"], default="all")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--dims", type=int, nargs="+", default=[10**2, 10**3, 10**4, 10**5, 10**6])
    parser.add_argument("-m", type=int, default=20_000)
    parser.add_argument("--json")
    args = parser.parse_args()
    out = {"machine": platform.processor() or platform.machine(), "python": platform.python_version(),
           "load_average": os.getloadavg()}
    if args.what in ("startup", "all"):
        out["startup"] = startup(args.repeats)
    if args.what in ("replicate", "all"):
        out["replicate"] = replicate_table(args.dims, args.m, min(args.repeats, 3))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(out, fh, indent=2)


if __name__ == "__main__":
    main()
