"""Overhead of the guards around a user's code on ``check_estimator`` (issue 48: at most 10 %).

The guards (``laocheck.checks._guards``) snapshot the global states of Python's ``random`` and
of numpy's legacy generator, the states of the generators reachable from the estimator's
module and attributes, and copy the inputs, before and after every call of the user's
``sample`` / ``target``. Measured on the README's ``RidgeGradient`` (a correct plain numpy
sampler) with the README's claims, two ways:

* ``paired``: whole ``check_estimator`` runs with the guards and with them switched off (the
  guard functions replaced by the identity), alternating, the guarded run first in odd pairs
  and second in even ones so that a change of machine load hits both; the median of the
  per-pair ratios guarded / unguarded;
* ``per call``: the cost of one guarded call minus one bare call of ``sample`` (n = 1, the
  choice tree's case), times the number of calls of the user's code in one
  ``check_estimator``, over the guarded run's median time: an estimate that machine load
  perturbs less than the paired ratio.

Usage::

    python benchmarks/bench_guards.py                 # 5 pairs
    python benchmarks/bench_guards.py --pairs 9 --json guards.json

Speed is measured here, never asserted in a test. One core: run nothing else meanwhile.
"""
import argparse
import statistics
import time
from unittest import mock

import numpy as np

import _results
from laocheck.checks import _guards
from laocheck.checks.algorithms import estimator_properties
from laocheck.testing import _checks, check_estimator


class RidgeGradient:                     # the README's sampler, HK12 Alg. 1, lines 3-10
    k, budget = 2, 3

    def target(self, w, x, y):
        return (w @ x - y) * x

    def sample(self, w, x, y, n=1, rng=None):
        d = len(x)
        idx = rng.integers(d, size=(n, self.k))
        xt = np.zeros((n, d), dtype=x.dtype)
        for r in range(self.k):
            xt[np.arange(n), idx[:, r]] += x[idx[:, r]] * d / self.k
        s = w @ w
        j = rng.choice(d, size=n, p=w * w / s) if s > 0 else np.zeros(n, dtype=int)
        phi = s * x[j] / w[j] - y if s > 0 else np.full(n, -y)
        seen = [len(set(a) | {b}) for a, b in zip(idx.tolist(), j.tolist())]
        return phi[:, None] * xt, np.array(seen)


CLAIMS = {"unbiased": True, "second_moment": "HK12.Lemma3.3.G2"}     # the README's


def _identity(value, *args, **kwargs):
    return value


def unguarded():
    """The guards switched off (every place that applies them)."""
    stack = mock.patch.multiple(estimator_properties, guard_estimator=_identity,
                                guard_callable=_identity)
    other = mock.patch.object(_checks, "guard_estimator", _identity)
    return stack, other


def one_run(guarded):
    start = time.perf_counter()
    if guarded:
        check_estimator(RidgeGradient(), CLAIMS)
    else:
        a, b = unguarded()
        with a, b:
            check_estimator(RidgeGradient(), CLAIMS)
    return time.perf_counter() - start


def calls_per_run():
    """Calls of the user's sample and target in one check_estimator."""
    count = [0]
    original = _guards.Guard.call

    def counting(self, *args, **kwargs):
        count[0] += 1
        return original(self, *args, **kwargs)
    with mock.patch.object(_guards.Guard, "call", counting):
        check_estimator(RidgeGradient(), CLAIMS)
    return count[0]


def per_call_cost(repeats=3000):
    """Seconds of one guarded call minus one bare call of sample(n=1) (median of 5 rounds)."""
    est = RidgeGradient()
    guarded = _guards.guard_estimator(est)
    w, x, y = np.array([0.5, -0.25, 0.75]), np.array([0.75, -0.5, 0.25]), 0.5
    rng = np.random.default_rng(0)
    diffs = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(repeats):
            est.sample(w, x, y, n=1, rng=rng)
        t1 = time.perf_counter()
        for _ in range(repeats):
            guarded.sample(w, x, y, n=1, rng=rng)
        t2 = time.perf_counter()
        diffs.append(((t2 - t1) - (t1 - t0)) / repeats)
    return statistics.median(diffs)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    one_run(True)                                     # warm-up: imports, sympy formula
    ratios, with_, without = [], [], []
    for i in range(args.pairs):
        order = (True, False) if i % 2 == 0 else (False, True)
        times = {g: one_run(g) for g in order}
        with_.append(times[True])
        without.append(times[False])
        ratios.append(times[True] / times[False])
        print(f"pair {i + 1}: guarded {times[True]:.3f} s, unguarded {times[False]:.3f} s, "
              f"ratio {ratios[-1]:.4f}", flush=True)
    calls = calls_per_run()
    cost = per_call_cost()
    row = {"pairs": args.pairs, "guarded_median_s": statistics.median(with_),
           "unguarded_median_s": statistics.median(without),
           "median_ratio": statistics.median(ratios),
           "calls_per_check_estimator": calls, "per_call_overhead_us": cost * 1e6,
           "per_call_estimate_percent": 100 * calls * cost / statistics.median(without)}
    print(f"\nmedian guarded / unguarded: {row['median_ratio']:.4f} "
          f"({100 * (row['median_ratio'] - 1):+.1f} %) over {args.pairs} pairs; "
          f"{calls} guarded calls per check_estimator at {row['per_call_overhead_us']:.0f} µs "
          f"each: {row['per_call_estimate_percent']:.2f} % of the unguarded run "
          f"({row['unguarded_median_s']:.2f} s).")
    _results.write(args.json, [row])


if __name__ == "__main__":
    main()
