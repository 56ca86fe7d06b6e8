"""A/B timing of the ridge and lasso kernels between two builds of laocheck (for a change of the
kernels' source that must not cost speed, such as the Tempita template of their step loops).

Each build is a directory holding a built ``laocheck`` package (``src`` of a worktree after
``python setup.py build_ext --inplace``, or a copy of it). The runs alternate between the
builds (A B A B ...; each run a fresh process, best of 3 calls inside it), so that the load of
a shared machine falls on both alike; the table gives the median over the runs of each build's
CPU seconds (each call is single-threaded: on a loaded machine the CPU time is the work, the
wall time adds the waits for a core) and the ratio B/A of the medians.

The cases: AERR and AELR (k = 4) on the dense states (``fit`` on X of 10⁵ × 200 and
``fit_stream`` of 10⁶ steps over a 2,000-row pool) and on the sparse states (d = 2¹⁷, from
which the learners keep only the coordinates they move: ``fit_stream`` of 10⁶ steps over a
pool of 64 rows with 0.2 % nonzero entries, and ``fit_oracle`` on ``PowerLawBernoulli``).

Usage::

    python benchmarks/ab_fit_steps.py --a /tmp/before/src --b src --runs 7

Speed is measured here, never asserted in a test.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

CHILD = r"""
import json, sys, time
import numpy as np
from laocheck.data import PowerLawBernoulli
from laocheck.learners import AELR, AERR

def best(fn, n=3):
    out = []
    for _ in range(n):
        t = time.process_time()
        fn()
        out.append(time.process_time() - t)
    return min(out)

rng = np.random.default_rng(0)
d = 200
X = rng.uniform(-1, 1, (100_000, d)) / np.sqrt(d)
y = X @ rng.uniform(-1, 1, d) / np.sqrt(d)
D = 2 ** 17
Xs = np.where(rng.random((64, D)) < 0.002, 1.0, 0.0) / np.sqrt(D / 500)
ys = Xs @ rng.uniform(-1, 1, D) / 10
dist = PowerLawBernoulli(D, -1.0)
times = {}
for name, Model in (("AERR", AERR), ("AELR", AELR)):
    times[f"{name} dense fit"] = best(lambda: Model(k=4, random_state=0).fit(X, y))
    times[f"{name} dense fit_stream"] = best(
        lambda: Model(k=4, random_state=0).fit_stream(X[:2000], y[:2000], 1_000_000))
    times[f"{name} sparse fit_stream"] = best(
        lambda: Model(k=4, random_state=0).fit_stream(Xs, ys, 1_000_000))
    times[f"{name} sparse fit_oracle"] = best(
        lambda: Model(k=4, random_state=0).fit_oracle(dist.oracle(np.random.default_rng(0)),
                                                      1_000_000))
print(json.dumps(times))
"""


def one_run(path):
    env = dict(os.environ, PYTHONPATH=path, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", required=True, help="directory holding build A's laocheck")
    parser.add_argument("--b", required=True, help="directory holding build B's laocheck")
    parser.add_argument("--runs", type=int, default=7, help="runs of each build (alternating)")
    args = parser.parse_args(argv)
    runs = {"A": [], "B": []}
    start = time.time()
    for r in range(args.runs):
        order = ("A", "B") if r % 2 == 0 else ("B", "A")
        for which in order:
            runs[which].append(one_run(args.a if which == "A" else args.b))
        print(f"run {r + 1}/{args.runs} done ({time.time() - start:.0f} s)", file=sys.stderr)
    print(f"{'case':28s} {'A median s':>11s} {'B median s':>11s} {'B/A':>6s}")
    for case in runs["A"][0]:
        a = statistics.median(x[case] for x in runs["A"])
        b = statistics.median(x[case] for x in runs["B"])
        print(f"{case:28s} {a:11.4f} {b:11.4f} {b / a:6.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
