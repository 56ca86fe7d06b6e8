"""The user's path: ``fit(X, y)`` on an X larger than the last-level cache, beside
``fit_stream`` on the same number of steps and scikit-learn's ``SGDRegressor`` for one epoch.

For each d, one X of m rows (about 1-1.6 GB, m·d >= 2·10⁸: larger than any last-level cache,
so each row ``fit`` reads comes from memory) is built once; then, interleaved in one process
and best of ``--repeats``:

* ``fit``: ``Learner().fit(X, y)``, default settings (the user's call: validation included);
* ``fit_stream``: ``Learner().fit_stream(X[:P], y[:P], m)``, the same m steps over a pool of
  P rows (a view of X, no copy) that fits in 16 MB, so that it stays in the cache: the
  kernel's speed without the memory latency of fresh rows (P = 2000 at d = 10³, 200 at 10⁴,
  20 at 10⁵);
* ``SGD``: ``SGDRegressor(max_iter=1, tol=None, shuffle=False)`` on the same X, y: one epoch
  of full-information SGD (reads every entry once).

The table gives steps per second (M/s) and the ratios fit/stream (time of fit over time of
fit_stream: 1.0 is "fit costs no more than the kernel on a cached pool") and SGD/fit (how many
times faster fit is than one epoch of SGD), from wall-clock seconds and, in brackets, from the
process's CPU seconds (every call is single-threaded: on a shared machine the CPU time is the
work, the wall time adds the waits for a core). The load average is printed with every row.

Usage (one command; about 2-4 GB of memory, a few minutes)::

    python benchmarks/bench_fit_path.py
    python benchmarks/bench_fit_path.py --names AERR --dims 1000 --repeats 3
    python benchmarks/bench_fit_path.py --json benchmarks/out/fit_path.json

Speed is measured here, never asserted in a test.
"""
import argparse
import datetime
import gc
import os
import platform
import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import SGDRegressor

from laocheck._io import write_json_atomic
from laocheck._provenance import provenance
from laocheck.learners import AELR, AER, AERR

LEARNERS = {"AERR": lambda: AERR(k=4, random_state=0),
            "AELR": lambda: AELR(k=4, random_state=0),
            "AER": lambda: AER(k=4, random_state=0)}
DIMS = [10**3, 10**4, 10**5]
#: the rows of X at each d: about 1.05 GB at d = 10³ (the acceptance's X >= 1 GB), 1.6 GB at
#: d = 10⁴ (m·d = 2·10⁸) and 1.6 GB at d = 10⁵
ROWS = {10**3: 131_072, 10**4: 20_000, 10**5: 2_000}
POOL_BYTES = 16 * 2**20


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or None


def last_level_cache():
    """The largest cache size the kernel reports (bytes), or None."""
    best = None
    base = "/sys/devices/system/cpu/cpu0/cache"
    try:
        entries = os.listdir(base)
    except OSError:
        return None
    for entry in entries:
        try:
            with open(os.path.join(base, entry, "size")) as f:
                text = f.read().strip()
            size = int(text[:-1]) * {"K": 2**10, "M": 2**20}[text[-1]] \
                if text[-1] in "KM" else int(text)
        except (OSError, ValueError, IndexError):
            continue
        best = size if best is None else max(best, size)
    return best


def data(m, d, seed=0):
    """X uniform in [−1/√d, 1/√d] (‖x‖₂ <= 1), y a noisy linear label; built in row blocks so
    that no temporary as large as X exists."""
    rng = np.random.default_rng(seed)
    X = np.empty((m, d))
    step = max(1, 2**24 // d)
    for a in range(0, m, step):
        X[a:a + step] = rng.uniform(-1.0, 1.0, (min(step, m - a), d))
    X *= 1.0 / np.sqrt(d)
    w = np.zeros(d)
    w[:10] = 0.3
    y = X @ w + 0.01 * rng.standard_normal(m)
    return X, y


def timed(call):
    """(wall seconds, CPU seconds of this process) of ``call()``: every timed call runs on
    one thread, so on a shared machine the CPU time is the work and the wall time adds the
    waits for a core."""
    gc.collect()
    start, cpu = time.perf_counter(), time.process_time()
    call()
    return time.perf_counter() - start, time.process_time() - cpu


def measure(name, X, y, repeats, sgd_repeats):
    """Best times of fit, fit_stream and SGD, interleaved; the load average of each round."""
    m, d = X.shape
    P = min(m, max(8, POOL_BYTES // (8 * d)))
    make = LEARNERS[name]
    pool_X, pool_y = X[:P], y[:P]
    best = {"fit": np.inf, "fit_stream": np.inf, "sgd": np.inf}
    cpu = dict(best)
    loads = []
    make().fit_stream(pool_X, pool_y, min(m, 1000))            # warm-up (imports, pages)

    def keep(key, times):
        best[key] = min(best[key], times[0])
        cpu[key] = min(cpu[key], times[1])

    for r in range(repeats):
        keep("fit", timed(lambda: make().fit(X, y)))
        keep("fit_stream", timed(lambda: make().fit_stream(pool_X, pool_y, m)))
        if r < sgd_repeats:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                keep("sgd", timed(lambda: SGDRegressor(
                    max_iter=1, tol=None, shuffle=False, random_state=0).fit(X, y)))
        loads.append(os.getloadavg()[0])
    return {
        "learner": name, "d": d, "m": m, "pool_rows": P, "X_bytes": X.nbytes,
        "seconds": best, "cpu_seconds": cpu,
        "steps_per_second": {key: m / value for key, value in best.items()},
        "steps_per_cpu_second": {key: m / value for key, value in cpu.items()},
        "fit_over_fit_stream": best["fit"] / best["fit_stream"],
        "sgd_over_fit": best["sgd"] / best["fit"],
        "cpu_fit_over_fit_stream": cpu["fit"] / cpu["fit_stream"],
        "cpu_sgd_over_fit": cpu["sgd"] / cpu["fit"],
        "load_average": loads,
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--names", default="AERR,AELR",
                        help=f"comma-separated learners among {', '.join(LEARNERS)}")
    parser.add_argument("--dims", default=",".join(map(str, DIMS)),
                        help="comma-separated d (rows: the ROWS table, else 2·10⁸/d)")
    parser.add_argument("--repeats", type=int, default=5, help="rounds; the best is kept")
    parser.add_argument("--sgd-repeats", type=int, default=2,
                        help="rounds that also time SGDRegressor (it is slow)")
    parser.add_argument("--json", metavar="PATH", default=None,
                        help="also write the results as JSON (e.g. benchmarks/out/fit_path.json)")
    args = parser.parse_args(argv)
    names = [n for n in args.names.split(",") if n]
    for n in names:
        if n not in LEARNERS:
            parser.error(f"unknown learner {n!r}; choose among {', '.join(LEARNERS)}")
    dims = [int(float(v)) for v in args.dims.split(",") if v]
    llc = last_level_cache()
    llc_text = "unknown" if llc is None else f"{llc / 2**20:.0f} MB"
    print(f"# {cpu_model()}, last-level cache {llc_text}, "
          f"{os.cpu_count()} CPUs, {datetime.datetime.now().isoformat(timespec='seconds')}")
    print("# wall clock (best of the rounds); in brackets the same from CPU seconds, the "
          "work on a loaded machine")
    print(f"{'learner':8} {'d':>7} {'m':>7} {'X GB':>5} | {'fit M/s':>13} "
          f"{'stream M/s':>13} {'SGD M/s':>8} | {'fit/stream':>13} {'SGD/fit':>13} | load")
    rows = []
    for d in dims:
        m = ROWS.get(d, max(1, int(2e8) // d))
        X, y = data(m, d)
        for name in names:
            res = measure(name, X, y, args.repeats, args.sgd_repeats)
            rows.append(res)
            sps, cps = res["steps_per_second"], res["steps_per_cpu_second"]
            print(f"{name:8} {d:>7} {m:>7} {X.nbytes / 1e9:>5.2f} | "
                  f"{sps['fit'] / 1e6:>5.2f} ({cps['fit'] / 1e6:>5.2f}) "
                  f"{sps['fit_stream'] / 1e6:>5.2f} ({cps['fit_stream'] / 1e6:>5.2f}) "
                  f"{sps['sgd'] / 1e6:>8.3f} | "
                  f"{res['fit_over_fit_stream']:>5.2f} ({res['cpu_fit_over_fit_stream']:>5.2f}) "
                  f"{res['sgd_over_fit']:>5.1f} ({res['cpu_sgd_over_fit']:>5.1f}) | "
                  f"{min(res['load_average']):.2f}-{max(res['load_average']):.2f}", flush=True)
        del X, y
        gc.collect()
    if args.json:
        doc = provenance(command=None, benchmark="fit_path", date=datetime.datetime.now(
            datetime.timezone.utc).isoformat(timespec="seconds"), cpu=cpu_model(),
            last_level_cache_bytes=llc, repeats=args.repeats, results=rows)
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        write_json_atomic(args.json, doc)
        print(f"# wrote {args.json}")


if __name__ == "__main__":
    main()
