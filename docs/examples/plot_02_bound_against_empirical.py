"""
A theorem's bound against empirical excess risk (HK12 Thm 3.1)
==============================================================

HK12 Thm 3.1 bounds AERR's expected excess risk after m examples by 4B²√(2d/(km)). laocheck
runs the learner R times on a distribution whose risk and constrained optimum are known
exactly (KS15 Sec. 5.1's power-law data), and puts a betting confidence interval at
δ = 1e-6 on the mean excess risk beside the bound
(``laocheck.experiments.theorems.run_theorem``). The bound must lie above the interval;
the ratio mean / bound is the bound's tightness. Tiny sizes here (d = 20, R = 10 runs);
``laocheck bounds`` and ``laocheck report bounds`` run the full sizes.
"""
import matplotlib.pyplot as plt
from matplotlib.ticker import NullLocator

from laocheck.experiments.theorems import run_theorem

ms = [250, 500, 1000, 2000, 4000]
results = [run_theorem("HK12.Thm3.1", d=20, k=4, m=m, R=10, seed=0)[0] for m in ms]

fig, ax = plt.subplots(figsize=(6, 4), layout="constrained")
ax.plot(ms, [c.bound for c in results], "k--", label="HK12 Thm 3.1 bound 4B²√(2d/(km))")
ax.plot(ms, [c.mean for c in results], "o-", label="mean excess risk, R = 10 runs")
ax.fill_between(ms, [max(c.interval.low, 1e-6) for c in results],
                [c.interval.high for c in results], alpha=0.3,
                label="confidence interval, δ = 1e-6")
ax.set_xscale("log")
ax.set_yscale("log")
# the grid's own values as ticks: the default log ticks (3×10², 4×10², ...) collide
ax.set_xticks(ms, [str(m) for m in ms])
ax.xaxis.set_minor_locator(NullLocator())
ax.set_xlabel("m (examples)")
ax.set_ylabel("L_D(w̄) − L_D(w*)")
ax.set_title("AERR, d = 20, k = 4: bound against empirical")
ax.legend(loc="lower left")        # below the curves, over the empty end of the band

for m, c in zip(ms, results):
    print(f"m = {m:5d}: bound {c.bound:.4f}, interval [{c.interval.low:.4f}, "
          f"{c.interval.high:.4f}], violation: {c.violation}")
