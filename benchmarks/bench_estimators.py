"""Draws per second of the gradient estimates of HK12.AERR, HK12.AELR and KS15.GAERR (k = 4).

Three implementations of the same job — n draws of g̃ for a fixed (w, x, y), reduced to the
moment sums of a check (per-coordinate sum and sum of squares, Σ‖g̃‖², attribute counts):

* ``kernel``: laocheck's Cython kernel with its kernel-side accumulator (``est.accumulate``);
* ``numpy``: a vectorised NumPy version of the same sums, in batches of 2**16 draws;
* ``reference``: the literal transcription (``est.sample_reference``), a Python loop.

Usage::

    python benchmarks/bench_estimators.py                  # the table of the issue
    python benchmarks/bench_estimators.py --quick          # smaller n, for a smoke run
    python benchmarks/bench_estimators.py --json out.json

Speed is measured here, never asserted in a test. One core: the kernels hold the GIL and are
single-threaded; run nothing else meanwhile.
"""
import argparse
import time

import numpy as np

import _results
from laocheck import estimators

NAMES = ["HK12.AERR.gradient", "HK12.AELR.gradient", "KS15.GAERR.gradient"]
DIMS = [10**2, 10**3, 10**4, 10**5]
K = 4


def problem(d, seed=0):
    rng = np.random.default_rng(seed)
    w = rng.normal(size=d)
    x = rng.uniform(-1, 1, size=d)
    x /= np.linalg.norm(x)
    q = np.sqrt(np.linspace(1.0, 2.0, d))
    return w / np.linalg.norm(w), x, 0.3, q / q.sum()


def estimator(name, q):
    return estimators.get(name, k=K, **({"q": q} if name.startswith("KS15") else {}))


def numpy_sums(name, w, x, y, q, n, rng, batch=2**16):
    """The same moment sums in vectorised NumPy (duplicates within a draw merged)."""
    d = x.shape[0]
    if name.startswith("KS15"):
        qq = q
    else:
        qq = np.full(d, 1.0 / d)
    p = w * w if name.endswith("AERR.gradient") or name.startswith("KS15") else np.abs(w)
    p = p / p.sum()
    coef = w / p
    s1, s2 = np.zeros(d), np.zeros(d)
    norm_sq = attrs = 0.0
    lower = np.tril(np.ones((K, K), dtype=bool), -1)
    done = 0
    while done < n:
        b = min(batch, n - done)
        idx = rng.choice(d, size=(b, K), p=qq) if name.startswith("KS15") else rng.integers(d, size=(b, K))
        j = rng.choice(d, size=b, p=p)
        phi = coef[j] * x[j] - y
        v = x[idx] / (K * qq[idx])
        eq = idx[:, :, None] == idx[:, None, :]
        merged = (eq * v[:, None, :]).sum(axis=2) * phi[:, None]
        first = ~np.any(eq & lower, axis=2)
        np.add.at(s1, idx[first], merged[first])
        np.add.at(s2, idx[first], merged[first] ** 2)
        sq = np.where(first, merged ** 2, 0.0).sum(axis=1)
        norm_sq += sq.sum()
        attrs += (first.sum(axis=1) + ~np.any(idx == j[:, None], axis=1)).sum()
        done += b
    return s1, s2, norm_sq, attrs


def rate(fn, n, repeat):
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(n)
        best = min(best, time.perf_counter() - t0)
    return n / best


def run(quick=False):
    n_kernel = 2 * 10**6 if quick else 2 * 10**7
    n_numpy = 2 * 10**5 if quick else 2 * 10**6
    n_ref = 2 * 10**3 if quick else 10**4
    cases = [(name, d) for name in NAMES for d in DIMS]
    # The kernels are timed first, all of them, before the NumPy and reference runs have
    # allocated (and fragmented) hundreds of MB: at d = 10^5 the kernels are bound by cache
    # and TLB misses, which depend on that.
    kernel = {}
    for name, d in cases:
        w, x, y, q = problem(d)
        est = estimator(name, q)
        kernel[name, d] = rate(lambda n: est.accumulate(w, x, y, n=n, rng=1), n_kernel, 5)
    rows = []
    for name, d in cases:
        w, x, y, q = problem(d)
        est = estimator(name, q)
        k_rate = kernel[name, d]
        np_rate = rate(lambda n: numpy_sums(name, w, x, y, q, n, np.random.default_rng(2)),
                       n_numpy, 2)
        # the literal version costs O(d) Python per draw: fewer draws at large d
        r_rate = rate(lambda n: est.sample_reference(w, x, y, n=n, rng=3),
                      max(20, min(n_ref, 10**6 // d)), 1)
        rows.append(dict(estimator=name, d=d, k=K, kernel=k_rate, numpy=np_rate,
                         reference=r_rate, vs_numpy=k_rate / np_rate,
                         vs_reference=k_rate / r_rate))
        print(f"{name:22s} d={d:>6d}  kernel {k_rate / 1e6:7.2f} M/s   numpy "
              f"{np_rate / 1e6:6.3f} M/s   reference {r_rate:9.1f} /s   "
              f"×numpy {k_rate / np_rate:6.1f}   ×reference {k_rate / r_rate:9.3g}", flush=True)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller n. Default: off.")
    parser.add_argument("--json", metavar="PATH", help="write the rows as JSON. Default: none.")
    args = parser.parse_args()
    rows = run(args.quick)
    print("\nd = 10^5 vs d = 10^2 (kernel):")
    for name in NAMES:
        r = {row["d"]: row["kernel"] for row in rows if row["estimator"] == name}
        print(f"  {name:22s} {r[10**5] / r[10**2]:.2f}")
    _results.write(args.json, rows, quick=args.quick)


if __name__ == "__main__":
    main()
