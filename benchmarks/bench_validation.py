"""What scikit-learn's input validation costs in ``fit(X, y)`` on in-memory arrays, and what
``sklearn.config_context(assume_finite=True)`` saves.

laocheck's learners validate ``X`` and ``y`` as scikit-learn estimators do (``check_array``:
dtype, shape, and a scan of every entry for NaN / inf), which is O(m·d) however few attributes
the learner reads. A user who has validated the data once can skip the scan::

    import sklearn
    with sklearn.config_context(assume_finite=True):
        AERR(k=4).fit(X, y)

(laocheck's own experiments do so for the samples they draw themselves.) This benchmark fits
AERR and AELR (k = 4, one pass) on the same X with and without it: CPU seconds of ``fit``
(``time.process_time``, median of ``--repeats``), so that a loaded machine changes the numbers
little, and the ratio. The fitted coefficients must be identical (asserted): only the scan
is skipped.

    python benchmarks/bench_validation.py
    python benchmarks/bench_validation.py --m 20000 --dims 100 1000 10000 --repeats 5
    python benchmarks/bench_validation.py --json benchmarks/results/validation.json
"""
import argparse
import os
import statistics
import time

import numpy as np
import sklearn

import _results
from laocheck.learners import AELR, AERR


def data(m, d, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, (m, d)) / np.sqrt(d)
    y = np.clip(X @ rng.uniform(-1, 1, d), -1, 1)
    return X, y


def fit_seconds(make, X, y, repeats, assume_finite):
    times, coef = [], None
    for _ in range(repeats):
        est = make()
        with sklearn.config_context(assume_finite=assume_finite):
            start = time.process_time()
            est.fit(X, y)
            times.append(time.process_time() - start)
        coef = est.coef_
    return statistics.median(times), coef


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--m", type=int, default=20_000)
    parser.add_argument("--dims", type=int, nargs="+", default=[100, 1000, 10_000])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", metavar="PATH", help="write the rows as JSON. Default: none.")
    args = parser.parse_args(argv)
    rows = []
    learners = {"AERR": lambda: AERR(k=4, random_state=0),
                "AELR": lambda: AELR(k=4, random_state=0)}
    print(f"fit(X, y), m = {args.m}, k = 4: CPU seconds (median of {args.repeats})")
    print(f"{'learner':8s} {'d':>7s} {'validated':>10s} {'assume_finite':>14s} {'ratio':>6s}")
    for d in args.dims:
        X, y = data(args.m, d)
        for name, make in learners.items():
            checked, c1 = fit_seconds(make, X, y, args.repeats, False)
            trusted, c2 = fit_seconds(make, X, y, args.repeats, True)
            assert np.array_equal(c1, c2), "assume_finite changed the fitted coefficients"
            print(f"{name:8s} {d:7d} {checked:10.4f} {trusted:14.4f} {checked / trusted:6.2f}")
            rows.append({"learner": name, "m": args.m, "d": d, "k": 4,
                         "validated_cpu_s": checked, "assume_finite_cpu_s": trusted,
                         "ratio": checked / trusted})
    print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    _results.write(args.json, rows, repeats=args.repeats)


if __name__ == "__main__":
    main()
