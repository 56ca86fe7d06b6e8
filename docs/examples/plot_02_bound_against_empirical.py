r"""
A theorem's bound against empirical excess risk (HK12 Thm 3.1)
==============================================================

HK12 Thm 3.1 bounds AERR's expected excess risk after m examples by :math:`4B^2\sqrt{2d/(km)}`.
laocheck runs the learner R times on a distribution whose risk and constrained optimum are known
exactly, and puts a betting confidence interval at δ = 1e-6 on the mean excess risk beside the
bound (``laocheck.experiments.theorems.run_theorem``). The bound must lie above the interval;
the ratio mean / bound is the bound's tightness.

A comparison that cannot refute anything says nothing, so the settings are chosen for power:
HK12 Thm B.1's hard instance (``kind="hard"``), where the excess risk is 15-30 % of the bound
(on KS15's power-law data it is about 1 %, and no number of runs refutes a bound 10 times too
small there), and R = 500 runs per point. The power of each point is the ``detects`` factor the
checks report: a bound F times too small is refuted with probability at least 0.9 (the
interval's lower end L, less twice the Bernstein deviation D of the runs' mean at β = 0.1,
against the bound: :math:`F = (b - \mathrm{low}) / (L - 2D - \mathrm{low})`, b the bound and
[low, high] the proven range of one run's excess risk). The dotted line is b / F: any bound
below it would have been refuted. No number of runs brings F below b / mean (about 3.5 here),
the bound's own slack.
``laocheck bounds`` and ``laocheck report bounds`` run the full sizes.
"""
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import NullLocator

from laocheck.experiments.theorems import run_theorem

R = 500                                   # runs per point: F within 1.3 of bound / mean
BETA = 0.1                                # power 1 − β


def detects(comparison, beta=BETA):
    """F: a bound F times too small is refuted with probability >= 1 − beta (the checks'
    ``detects`` of an interval comparison)."""
    low, high = comparison.range
    excess = np.asarray(comparison.excess)
    n = excess.size
    log_b = np.log(1 / beta)
    dev = np.sqrt(2 * np.var(excess, ddof=1) * log_b / n) + (high - low) * log_b / (3 * n)
    reach = comparison.interval.low - 2 * dev - low
    return max(1.0, (comparison.bound - low) / reach) if reach > 0 else np.inf


ms = [100, 200, 400, 800, 1600]
results = [run_theorem("HK12.Thm3.1", d=20, k=4, m=m, R=R, kind="hard", seed=0)[0]
           for m in ms]
factors = [detects(c) for c in results]

fig, ax = plt.subplots(figsize=(6, 5), layout="constrained")
ax.plot(ms, [c.bound for c in results], "k--", label="HK12 Thm 3.1 bound 4B²√(2d/(km))")
ax.plot(ms, [c.bound / F for c, F in zip(results, factors)], "k:",
        label="bound / F: refuted w.p. ≥ 0.9")
ax.plot(ms, [c.mean for c in results], "o-", label=f"mean excess risk, R = {R} runs")
ax.fill_between(ms, [c.interval.low for c in results], [c.interval.high for c in results],
                alpha=0.3, label="confidence interval, δ = 1e-6")
ax.set_xscale("log")
ax.set_yscale("log")
# the grid's own values as ticks: the default log ticks (3×10², 4×10², ...) collide
ax.set_xticks(ms, [str(m) for m in ms])
ax.xaxis.set_minor_locator(NullLocator())
ax.set_xlabel("m (examples)")
ax.set_ylabel(r"excess risk $L_D(\bar w) - L_D(w^*)$")
ax.set_title(f"AERR, d = 20, k = 4, hard instance: detects F ≤ {min(factors):.1f}")
# below the axes: inside, a legend hides part of a curve at some m
fig.legend(loc="outside lower center", ncols=2, fontsize="small")

for m, c, F in zip(ms, results, factors):
    verdict = "VIOLATION" if c.violation else "holds"
    print(f"m = {m:4d}: bound {c.bound:.3f}, interval [{c.interval.low:.3f}, "
          f"{c.interval.high:.3f}] {verdict}; detects F = {F:.2f} "
          f"(bound/mean {c.bound / c.mean:.2f})")
