r"""
Learning curves of AERR and DDAERR (HK12 Alg. 1, KS15 Sec. 3.1)
================================================================

Both learners see k + 1 = 5 attributes of each example; AERR samples the attributes of x
uniformly (HK12 Alg. 1), DDAERR in proportion to the data's second moments (KS15 Sec. 3.1), which
pays off when those moments are skewed: here :math:`E[x_i^2] \propto i^{-2}` (laocheck's
:class:`~laocheck.data.CorrelatedSigns`, :math:`\|x\|_2 = 1`, :math:`y = \langle w, x\rangle`
with w on the first five attributes). The distribution's risk is known exactly, so each point is
the exact excess risk :math:`L_D(\bar w) - L_D(w^*)` of the learner fitted on m examples,
averaged over 5 runs (each on its own sample). The step sizes are the theorems'
(``eta="theory"``); DDAERR is given the exact :math:`E[x_i^2]` (``second_moments``), as KS15
Sec. 3.1 assumes.
"""
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import NullLocator

from laocheck.data import CorrelatedSigns
from laocheck.learners import AERR, DDAERR

d, k, B, runs = 50, 4, 1.0, 5
sigma = np.arange(1, d + 1) ** -1.0
sigma /= np.linalg.norm(sigma)
w = np.zeros(d)
w[:5] = 0.4
dist = CorrelatedSigns(sigma, w)
ms = [250, 500, 1000, 2000, 4000, 8000]
curves = {"AERR": [], "DDAERR": []}
for m in ms:
    for name, make in (("AERR", lambda run: AERR(k=k, B=B, random_state=run)),
                       ("DDAERR", lambda run: DDAERR(k=k, B=B, random_state=run,
                                                     second_moments=dist.second_moments))):
        excess = []
        for run in range(runs):
            rng = np.random.default_rng([run, m])
            X, y = dist.sample(m, rng)
            est = make(run).fit(X, y)
            excess.append(dist.excess_risk(est.coef_, "l2", B))
        curves[name].append(np.mean(excess))

fig, ax = plt.subplots(figsize=(6, 4))
for name, values in curves.items():
    ax.plot([m * (k + 1) for m in ms], values, "o-", label=name)
ax.set_xscale("log")
ax.set_yscale("log")
# the grid's own values as ticks (the default log axis labels only 10⁴ here)
attributes = [m * (k + 1) for m in ms]
ax.set_xticks(attributes, [f"{a:,}" for a in attributes])
ax.xaxis.set_minor_locator(NullLocator())
ax.set_xlabel("attributes seen, m·(k + 1)")
ax.set_ylabel("mean excess risk (exact), 5 runs")
ax.set_title(rf"$E[x_i^2] \propto i^{{-2}}$, d = {d}, k = {k}")
ax.legend()
fig.tight_layout()
for i, m in enumerate(ms):
    print(f"m = {m:5d}: AERR {curves['AERR'][i]:.4g}, DDAERR {curves['DDAERR'][i]:.4g}")
