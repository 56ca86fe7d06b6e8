"""Floating-point drift of the O(k + log d) learners against their literal references.

Each learner runs m steps with ``record_draws=True``; the literal reference
(``laocheck.reference.learners``, O(d) per step, the papers' boxes line by line) replays the
same draws. The drift is max_i |w̄_i − w̄ref_i| / max_i |w̄ref_i| after m steps: what the scale
factors, lazy averages, incremental norms, log-domain EG± and the B+-tree cost in accuracy, with
their periodic exact recomputations in place.

Usage::

    python benchmarks/drift.py                 # m = 200 000, d = 50
    python benchmarks/drift.py --m 20000       # quicker
    python benchmarks/drift.py --json benchmarks/results/drift.json
"""
import argparse
import time

import numpy as np

import _results
from laocheck.learners import AELR, AER, AERR, DDAERR
from laocheck.reference.learners import ReplaySource, aer, gaelr, gaerr


def data(m, d, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, (m, d)) / np.sqrt(d)
    w = rng.normal(size=d)
    w /= 2 * np.linalg.norm(w)
    return X, np.clip(X @ w + 0.1 * rng.normal(size=m), -1, 1)


def flat(draws):
    return [int(i) for i in np.ravel(draws) if i >= 0]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--m", type=int, default=200_000)
    parser.add_argument("--d", type=int, default=50)
    parser.add_argument("--json", metavar="PATH", help="write the rows as JSON. Default: none.")
    args = parser.parse_args(argv)
    rows = []
    m, d = args.m, args.d
    X, y = data(m, d)
    moments = np.mean(X * X, axis=0)
    cases = {
        "AERR": (AERR(k=4, random_state=1, record_draws=True),
                 lambda e: gaerr(X, y, 4, 1.0, e.eta_, np.full(d, 1 / np.sqrt(d)),
                                 ReplaySource(flat(e.draws_)))[0]),
        "DDAERR": (DDAERR(k=4, second_moments=moments, random_state=1, record_draws=True),
                   lambda e: gaerr(X, y, 4, 1.0, e.eta_, np.full(d, 1 / np.sqrt(d)),
                                   ReplaySource(flat(e.draws_)), q=e.q_)[0]),
        "AELR": (AELR(k=4, random_state=1, record_draws=True),
                 lambda e: gaelr(X, y, 4, 1.0, e.eta_, ReplaySource(flat(e.draws_)))[0]),
        "AER": (AER(k=4, random_state=1, record_draws=True),
                lambda e: aer(X, y, 4, 1.0, e.lam_, ReplaySource(flat(e.draws_)))[0]),
    }
    print(f"m = {m}, d = {d}, k = 4")
    for name, (est, reference) in cases.items():
        est.fit(X, y)
        start = time.perf_counter()
        w_ref = reference(est)
        drift = np.max(np.abs(est.coef_ - w_ref)) / np.max(np.abs(w_ref))
        replay = time.perf_counter() - start
        print(f"{name:>7}: relative drift of w̄ {drift:.2e}  "
              f"(reference replay {replay:.0f} s)", flush=True)
        rows.append({"learner": name, "m": m, "d": d, "k": 4, "relative_drift": float(drift),
                     "replay_s": replay})
    _results.write(args.json, rows)


if __name__ == "__main__":
    main()
