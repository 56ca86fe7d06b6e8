"""Steps per second of the learners (k = 4) against their literal reference loops.

Each learner runs ``fit_stream``: n steps over a pool of rows taken cyclically. The pool has a
fixed size in memory (16 MB by default, so P = 2**21 / d rows: 20 974 rows at d = 100, 20 at
d = 10⁵): every step reads a row the cache has not kept, as a stream of fresh examples would,
and no m × d array exists at any d. The reference is the literal transcription in
``laocheck.reference.learners`` (O(d) per step) on the same pool.

Usage::

    python benchmarks/bench_learners.py                 # the table of the issue
    python benchmarks/bench_learners.py --quick         # a smoke run
    python benchmarks/bench_learners.py --json out.json

Speed is measured here, never asserted in a test. One core: run nothing else meanwhile.
"""
import argparse
import json
import platform
import time

import numpy as np

from laocheck import __version__
from laocheck.learners import AELR, AER, AERR, DDAERR, TwoPhaseDDAELR
from laocheck.reference import learners as ref
from laocheck.stats import RandomSource

DIMS = [10**2, 10**3, 10**4, 10**5]
K = 4
NAMES = ["AERR", "AELR", "DDAERR", "AER", "TwoPhaseDDAELR"]


def pool(d, megabytes, seed=0):
    """A pool of rows with ‖x‖₂ <= 1 and unequal second moments (so DDAERR's q is not
    uniform), labels in [−1, 1]."""
    P = max(4, int(megabytes * 2**20 / 8 / d))
    rng = np.random.default_rng(seed)
    scale = 1.0 / np.sqrt(np.arange(1, d + 1))
    X = rng.uniform(-1, 1, (P, d)) * scale
    X /= np.max(np.linalg.norm(X, axis=1))
    y = rng.uniform(-1, 1, P)
    return np.ascontiguousarray(X), y


def learner(name, X):
    if name == "AERR":
        return AERR(k=K, random_state=0)
    if name == "AELR":
        return AELR(k=K, random_state=0)
    if name == "DDAERR":
        return DDAERR(k=K, second_moments=np.mean(X * X, axis=0), random_state=0)
    if name == "AER":
        return AER(k=K, random_state=0)
    return TwoPhaseDDAELR(k=K, random_state=0)


def kernel_rate(name, X, y, n, repeats):
    best = 0.0
    for _ in range(repeats):
        est = learner(name, X)
        start = time.perf_counter()
        est.fit_stream(X, y, n)
        best = max(best, n / (time.perf_counter() - start))
    assert est.max_attributes_per_example_ <= K + 1
    return best


def reference_rate(name, X, y, n):
    """The literal loop on n rows (tiled from the pool), with a Generator-backed source."""
    reps = -(-n // X.shape[0])
    Xn, yn = np.tile(X, (reps, 1))[:n], np.tile(y, reps)[:n]
    d = X.shape[1]
    src = RandomSource(0)
    start = time.perf_counter()
    if name == "AERR":
        ref.gaerr(Xn, yn, K, 1.0, np.sqrt(K / (2 * d * n)), np.full(d, 1 / np.sqrt(d)), src)
    elif name == "AELR":
        ref.gaelr(Xn, yn, K, 1.0, 0.01, src)
    elif name == "DDAERR":
        m = np.sqrt(np.mean(X * X, axis=0))
        ref.gaerr(Xn, yn, K, 1.0, 0.01, np.full(d, 1 / np.sqrt(d)), src, q=m / m.sum())
    elif name == "AER":
        ref.aer(Xn, yn, K, 1.0, 12 * d * np.sqrt(np.log(n) / (n * K)), src)
    else:
        ref.two_phase_ddaelr(Xn, yn, K, 1.0, max(1, n // 10), 0.05, src)
    return n / (time.perf_counter() - start)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer steps (a smoke run)")
    parser.add_argument("--steps", type=int, default=2_000_000, help="kernel steps per run")
    parser.add_argument("--repeats", type=int, default=3, help="best of this many runs")
    parser.add_argument("--pool-mb", type=float, default=16.0, help="pool size in MB")
    parser.add_argument("--dims", default=",".join(map(str, DIMS)))
    parser.add_argument("--names", default=",".join(NAMES))
    parser.add_argument("--json", default=None, help="write the results as JSON here")
    parser.add_argument("--no-reference", action="store_true",
                        help="skip the literal reference loops (kernel rates only: for "
                             "before/after comparisons of the kernels)")
    args = parser.parse_args(argv)
    steps = 100_000 if args.quick else args.steps
    dims = [int(v) for v in args.dims.split(",")]
    names = args.names.split(",")
    rows = []
    for name in names:
        for d in dims:
            X, y = pool(d, args.pool_mb)
            rate = kernel_rate(name, X, y, steps, 1 if args.quick else args.repeats)
            n_ref = max(20, min(2000, int(2e6 / d)))
            ref_rate = float("nan") if args.no_reference else reference_rate(name, X, y, n_ref)
            rows.append({"learner": name, "d": d, "k": K, "pool_rows": X.shape[0],
                         "steps": steps, "steps_per_s": rate, "reference_steps": n_ref,
                         "reference_steps_per_s": ref_rate,
                         "speedup_vs_reference": rate / ref_rate})
            print(f"{name:>15} d={d:>6}: {rate / 1e6:6.2f} M steps/s   reference "
                  f"{ref_rate:10.1f} steps/s   x{rate / ref_rate:,.0f}", flush=True)
    print()
    print("| learner | " + " | ".join(f"d={d:.0e}" for d in dims)
          + " | d=1e5 ÷ d=1e2 | × reference at 1e4 |")
    print("|---|" + "---|" * (len(dims) + 2))
    for name in names:
        r = {row["d"]: row for row in rows if row["learner"] == name}
        cells = [f"{r[d]['steps_per_s'] / 1e6:.2f} M/s" for d in dims]
        ratio = (f"{r[10**5]['steps_per_s'] / r[10**2]['steps_per_s']:.2f}"
                 if 10**5 in r and 10**2 in r else "–")
        speed = f"{r[10**4]['speedup_vs_reference']:,.0f}" if 10**4 in r else "–"
        print(f"| {name} | " + " | ".join(cells) + f" | {ratio} | {speed} |")
    if args.json:
        meta = {"laocheck": __version__, "python": platform.python_version(),
                "machine": platform.machine(), "processor": platform.processor(),
                "numpy": np.__version__, "pool_mb": args.pool_mb, "k": K}
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"meta": meta, "rows": rows}, fh, indent=2)


if __name__ == "__main__":
    main()
