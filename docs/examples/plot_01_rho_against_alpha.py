r"""
ρ against α (KS15 Sec. 5.1)
===========================

KS15's data-dependent samplers gain over uniform sampling by the factor ρ (KS15 eqs. (11) and
(12)): :math:`ρ_{\mathrm{ridge}} = \|E[x^2]\|_{1/2} / (d\, E[\|x^2\|_1])` and
:math:`ρ_{\mathrm{lasso}}` likewise with the L1 geometry. On the power-law data of KS15 Sec. 5.1
(attribute i is Bernoulli(:math:`i^α`), up to scaling) both fall as α decreases. laocheck
computes them exactly from the distribution's second moments
(``laocheck.experiments.rho.rho_table``) and sets the values KS15 prints beside them.
"""
import matplotlib.pyplot as plt
import numpy as np

from laocheck.experiments.rho import rho_table

alphas = np.linspace(-2.0, 0.0, 21)
rows = rho_table(d=500, alphas=tuple(alphas))

fig, ax = plt.subplots(figsize=(6, 4))
for scenario, marker in (("ridge", "o"), ("lasso", "s")):
    mine = [r for r in rows if r["scenario"] == scenario]
    ax.plot([r["alpha"] for r in mine], [r["exact"] for r in mine], marker=marker,
            markersize=3, label=r"$\rho_\mathrm{" + scenario + "}$, exact")
    printed = [r for r in mine if r["printed"] is not None]
    # the printed values are the paper's text ("0.05"): as numbers, on the same axis
    ax.scatter([r["alpha"] for r in printed], [float(r["printed"]) for r in printed],
               marker="x", s=60, color="k", zorder=3)
ax.scatter([], [], marker="x", color="k", label="printed in KS15")
ax.set_xlabel(r"α (attribute i ~ Bernoulli($i^\alpha$))")
ax.set_ylabel("ρ")
ax.set_yscale("log")
ax.set_title("KS15 eqs. (11), (12) on Sec. 5.1's data, d = 500")
ax.legend()
fig.tight_layout()

for r in rows:
    if r["printed"] is not None:
        print(f"{r['scenario']:5s} α = {r['alpha']:5.2f}: exact {r['exact']:.4g}, "
              f"printed {r['printed']}")
