"""Calibration of the statistics engine on itself: coverage, width, power, savings, speed.

Run ``python -m laocheck.stats.calibration`` to print the tables (about a minute on two
cores); the test suite (tests/stats) asserts on the same experiments, built by the functions
below. Every experiment uses a fixed ``SeedSequence`` and spawns one child per replicate
batch, so the tables are reproducible.
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from scipy import stats

from .design import required_samples
from .exact import IIDDraws, Plan, UniformSubset
from .intervals import METHODS, mean_interval, mean_interval_from_sums
from .sequential import sequential_mean_test
from .unbounded import median_of_means_interval, nonnegative_lower_bound

__all__ = ["DiscreteLaw", "LAWS", "Coverage", "coverage", "mom_coverage",
           "nonnegative_coverage", "width_table", "Power", "power", "sequential_savings",
           "timings", "exact_timing", "main"]

SEED = 20240531


@dataclass(frozen=True)
class DiscreteLaw:
    """A finite distribution on [0, 1] with an exactly known mean."""

    name: str
    values: tuple
    probs: tuple

    @property
    def mean(self):
        return float(np.dot(self.values, self.probs))

    def sample(self, rng, size):
        return rng.choice(np.asarray(self.values, dtype=float), p=self.probs, size=size)


def bernoulli(p):
    return DiscreteLaw(f"Bernoulli({p:g})", (0.0, 1.0), (1 - p, p))


#: The bounded laws of the coverage acceptance test.
LAWS = (bernoulli(0.001), bernoulli(0.1), bernoulli(0.5),
        DiscreteLaw("skewed {0, .2, 1}", (0.0, 0.2, 1.0), (0.7, 0.28, 0.02)))


@dataclass(frozen=True)
class Coverage:
    """Misses of a true mean in ``replicates`` intervals at level ``delta``.

    ``pvalue``: one-sided binomial test of "miscoverage <= delta" (small = evidence of
    undercoverage); the acceptance rule is pvalue > 1e-6.
    """

    method: str
    law: str
    n: int
    delta: float
    replicates: int
    misses: int

    @property
    def rate(self):
        return self.misses / self.replicates

    @property
    def pvalue(self):
        return stats.binomtest(self.misses, self.replicates, self.delta,
                               alternative="greater").pvalue


def _children(seed, count):
    return [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(count)]


def coverage(method, law, *, n=500, replicates=2000, delta=0.05, alternative="two-sided",
             seed=SEED):
    """Miscoverage of :func:`mean_interval` with ``method`` on draws from ``law``."""
    (rng,) = _children([seed, n, replicates], 1)
    data = law.sample(rng, (replicates, n))
    mu = law.mean
    misses = sum(not mean_interval(row, lower=0, upper=1, delta=delta, method=method,
                                   alternative=alternative).contains(mu) for row in data)
    return Coverage(method if alternative == "two-sided" else f"{method} ({alternative})",
                    law.name, n, delta, replicates, misses)


def sums_coverage(law, *, n=500, replicates=2000, delta=0.05, seed=SEED):
    """Miscoverage of :func:`mean_interval_from_sums` (empirical Bernstein) on ``law``."""
    (rng,) = _children([seed, n, replicates, 1], 1)
    data = law.sample(rng, (replicates, n))
    totals, squares = data.sum(axis=1), (data ** 2).sum(axis=1)
    mu = law.mean
    misses = sum(not mean_interval_from_sums(n, t, s, lower=0, upper=1, delta=delta).contains(mu)
                 for t, s in zip(totals, squares))
    return Coverage("bernstein (sums)", law.name, n, delta, replicates, misses)


def mom_coverage(*, n=240, replicates=2000, delta=0.05, df=3, seed=SEED):
    """Median of means on Student-t(df) draws (mean 0, variance df/(df-2), heavy tails)."""
    (rng,) = _children([seed, n, replicates, 2], 1)
    data = rng.standard_t(df, size=(replicates, n))
    variance = df / (df - 2)
    misses = sum(not median_of_means_interval(row, variance_bound=variance,
                                              delta=delta).contains(0.0) for row in data)
    return Coverage("median-of-means", f"Student-t({df})", n, delta, replicates, misses)


def nonnegative_coverage(*, n=500, replicates=2000, delta=0.05, df=3, method="betting",
                         seed=SEED):
    """Truncated lower bound on E[T^2] = df/(df-2) for T ~ Student-t(df) (infinite variance)."""
    (rng,) = _children([seed, n, replicates, 3], 1)
    data = rng.standard_t(df, size=(replicates, n)) ** 2
    mu = df / (df - 2)
    misses = sum(nonnegative_lower_bound(row, delta=delta, method=method).low > mu
                 for row in data)
    return Coverage(f"truncated-{method}", f"Student-t({df})^2", n, delta, replicates, misses)


def width_table(*, p=0.01, delta=1e-6, sizes=(100, 1000, 10000, 100000), seeds=5, seed=SEED):
    """Median (over ``seeds`` samples) interval width on Bernoulli(p): {n: {method: width}}."""
    law = bernoulli(p)
    table = {}
    for n in sizes:
        rows = [law.sample(rng, n) for rng in _children([seed, n], seeds)]
        table[n] = {m: float(np.median([mean_interval(x, lower=0, upper=1, delta=delta,
                                                      method=m).width for x in rows]))
                    for m in METHODS}
    return table


@dataclass(frozen=True)
class Power:
    """Detections of a mean shifted by epsilon, with n from :func:`required_samples`."""

    method: str
    law: str
    epsilon: float
    n: int
    delta: float
    beta: float
    replicates: int
    detections: int

    @property
    def rate(self):
        return self.detections / self.replicates

    @property
    def pvalue(self):
        """One-sided binomial test of "detection rate >= 1 - beta" (small = underpowered)."""
        return stats.binomtest(self.detections, self.replicates, 1 - self.beta,
                               alternative="less").pvalue


def power(method, *, epsilon=0.05, target=0.1, variance=0.25 * 0.75, delta=1e-6, beta=0.1,
          replicates=500, shift_factor=1.0, seed=SEED):
    """Test "E Z = target" on Bernoulli(target + shift) draws, n = required_samples(epsilon),
    shift = shift_factor * epsilon: how often it fails (shift_factor < 1 shows the slack).

    For median of means the draws are target + shift + Student-t(3) noise (variance 3).
    """
    shift = shift_factor * epsilon
    (rng,) = _children([seed, replicates, int(epsilon * 1e6)], 1)
    if method == "median-of-means":
        variance = 3.0
        n = required_samples(epsilon, delta=delta, beta=beta, method=method, variance=variance)
        data = target + shift + rng.standard_t(3, size=(replicates, n))
        hits = sum(not median_of_means_interval(row, variance_bound=variance,
                                                delta=delta).contains(target) for row in data)
        law = f"{target:g} + {shift:g} + Student-t(3)"
    else:
        n = required_samples(epsilon, lower=0, upper=1, delta=delta, beta=beta, method=method,
                             variance=variance)
        law = bernoulli(target + shift)
        data = law.sample(rng, (replicates, n))
        hits = sum(not mean_interval(row, lower=0, upper=1, delta=delta,
                                     method=method).contains(target) for row in data)
        law = law.name
    return Power(method, law, shift, n, delta, beta, replicates, int(hits))


def sequential_savings(*, target=0.5, shifts=(0.3, 0.1, 0.03, 0.01, 0.0), epsilon=0.01,
                       delta=1e-6, replicates=20, method="betting", seed=SEED):
    """Mean draws used by :func:`sequential_mean_test` against the fixed-n design.

    The fixed-n test is the one that detects a violation of ``epsilon`` with probability 0.9
    (``required_samples``); the sequential test gets that n as its cap ``max_n``.
    """
    fixed_n = required_samples(epsilon, lower=0, upper=1, delta=delta, method=method)
    rows = []
    for shift in shifts:
        law = bernoulli(target + shift)
        results = [sequential_mean_test(lambda k, r: law.sample(r, k), target=target, lower=0,
                                        upper=1, delta=delta, epsilon=epsilon, max_n=fixed_n,
                                        method=method, rng=rng)
                   for rng in _children([seed, int(shift * 1e6)], replicates)]
        statuses = [r.status for r in results]
        rows.append({"shift": shift, "mean_n": float(np.mean([r.n for r in results])),
                     "fixed_n": fixed_n,
                     "fail": statuses.count("FAIL"), "pass": statuses.count("PASS"),
                     "inconclusive": statuses.count("INCONCLUSIVE"), "replicates": replicates})
    return rows


def _best_time(fn, repeat=3):
    best = math.inf
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def timings(*, n=10 ** 6, delta=1e-6, seed=SEED):
    """Seconds per interval on n uniform draws, per method, plus from sums at n = 1e8."""
    (rng,) = _children([seed, n], 1)
    x = rng.random(n)
    out = {m: _best_time(lambda m=m: mean_interval(x, lower=0, upper=1, delta=delta, method=m))
           for m in METHODS}
    out["median-of-means"] = _best_time(
        lambda: median_of_means_interval(x, variance_bound=1 / 12, delta=delta))
    out["truncated-betting"] = _best_time(lambda: nonnegative_lower_bound(x, delta=delta))
    for m in ("bernstein", "hoeffding"):
        out[f"{m} from sums (n=1e8)"] = _best_time(
            lambda m=m: mean_interval_from_sums(10 ** 8, 0.5e8, 1e8 / 3, lower=0, upper=1,
                                                delta=delta, method=m))
    out["numpy: rng.random(n) (reference)"] = _best_time(lambda: rng.random(n))
    return out


def exact_timing(d=6, k=3):
    """Seconds to enumerate k i.i.d. uniform draws from d categories, alone and with a
    uniform k-subset of range(d); returns {description: (seconds, leaves)}."""
    q = tuple(Fraction(1, d) for _ in range(d))
    out = {}
    for name, plan in ((f"IIDDraws(d={d}, k={k})", Plan(IIDDraws(q, k))),
                       (f"IIDDraws(d={d}, k={k}) x UniformSubset({d}, {k})",
                        Plan(IIDDraws(q, k), UniformSubset(d, k)))):
        start = time.perf_counter()
        dist = plan.distribution()
        out[name] = (time.perf_counter() - start, dist.n_runs)
    return out


def _print_table(title, header, rows):
    print(f"\n## {title}\n")
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" for _ in header) + "|")
    for row in rows:
        print("| " + " | ".join(str(v) for v in row) + " |")


def main(argv=None):
    """Print every calibration table (markdown)."""
    parser = argparse.ArgumentParser(prog="python -m laocheck.stats.calibration",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--replicates", type=int, default=2000,
                        help="replicates per coverage cell. Default: 2000")
    args = parser.parse_args(argv)
    reps = args.replicates
    start = time.perf_counter()

    cells = [coverage(m, law, replicates=reps) for m in METHODS for law in LAWS]
    cells += [coverage("betting", law, replicates=reps, alternative="greater") for law in LAWS]
    cells += [sums_coverage(law, replicates=reps) for law in LAWS]
    cells += [mom_coverage(replicates=reps), nonnegative_coverage(replicates=reps)]
    _print_table("Coverage (delta = 0.05; pass if one-sided binomial p-value > 1e-6)",
                 ["method", "law", "n", "replicates", "miscoverage", "p-value", "ok"],
                 [(c.method, c.law, c.n, c.replicates, f"{c.rate:.4f}", f"{c.pvalue:.3g}",
                   "yes" if c.pvalue > 1e-6 else "NO") for c in cells])

    widths = width_table()
    _print_table("Width on Bernoulli(0.01), delta = 1e-6 (median of 5 samples; "
                 "ratio = Hoeffding width / method width)",
                 ["n"] + [f"{m}" for m in METHODS] + [f"H/{m}" for m in METHODS[:3]],
                 [(n, *(f"{w[m]:.5f}" for m in METHODS),
                   *(f"{w['hoeffding'] / w[m]:.2f}" for m in METHODS[:3]))
                  for n, w in widths.items()])

    powers = [power(m, shift_factor=f) for f in (1.0, 0.5) for m in METHODS]
    powers += [power("median-of-means", epsilon=0.5, target=0.0, shift_factor=f)
               for f in (1.0, 0.5)]
    _print_table("Power (delta = 1e-6, beta = 0.1, 500 replicates, n = required_samples(0.05) "
                 "or (0.5) for median of means; rows with half the shift show the slack)",
                 ["method", "law", "shift", "n", "detected", "p-value (rate >= 0.9)"],
                 [(p.method, p.law, p.epsilon, p.n, f"{p.rate:.3f}", f"{p.pvalue:.3g}")
                  for p in powers])

    rows = sequential_savings()
    _print_table("Sequential test of E Z = 0.5 on Bernoulli(0.5 + shift), epsilon = 0.01, "
                 "delta = 1e-6, betting, 20 replicates",
                 ["shift", "mean draws", "fixed n", "saving", "FAIL", "PASS", "INCONCL."],
                 [(r["shift"], f"{r['mean_n']:.0f}", r["fixed_n"],
                   f"{r['fixed_n'] / r['mean_n']:.1f}x", r["fail"], r["pass"],
                   r["inconclusive"]) for r in rows])

    _print_table("Time per interval on 1e6 draws (best of 3)", ["method", "seconds"],
                 [(m, f"{t:.4f}") for m, t in timings().items()])
    _print_table("Exact enumeration", ["plan", "seconds", "leaves"],
                 [(name, f"{t:.4f}", leaves) for name, (t, leaves) in exact_timing().items()])
    print(f"\n(total calibration time {time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
