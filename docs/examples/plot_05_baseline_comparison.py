"""
A baseline comparison: three versions of one sampler
====================================================

The regression-testing workflow of the tutorial, in Python
(:func:`laocheck.testing.save_baseline`, :func:`laocheck.testing.compare_baseline`): the
baseline is the exact distribution of one draw of a sampler on small dyadic instances; each
altered version is compared with it and gets, per instance, SAME DISTRIBUTION (an equivalent
rewrite), CHANGED BUT STILL CORRECT or BROKEN. The sampler reads one attribute i ~ q and returns (x_i / q_i)·e_i
(HK12 Alg. 1 line 7 with k = 1). The figure shows, per instance, the exact ratio new/old of
E‖v‖² of the version whose q changed (the price or gain of the new q), and the verdicts.
"""
import tempfile
from fractions import Fraction
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import MaxNLocator

from laocheck.estimators import Draws
from laocheck.testing import compare_baseline, save_baseline


class OneAttribute:
    """x̃ = (x_i / q_i)·e_i with i ~ q: unbiased for x, reads one attribute."""

    budget = 1

    def __init__(self, probabilities, weight):
        self.probabilities, self.weight = probabilities, weight

    def target(self, w, x, y):
        return x

    def reference(self, w, x, y, src):
        q = self.probabilities(len(x))
        i = src.categorical(q)
        v = [0 * xi for xi in x]
        v[i] = x[i] * self.weight(q[i], len(x))
        return v, frozenset({i})

    def sample(self, w, x, y, *, n=1, rng=None):
        rng = np.random.default_rng(rng)
        x = np.asarray(x, dtype=float)
        q = self.probabilities(len(x))
        i = rng.choice(len(x), size=n, p=np.array(q, dtype=float))
        v = np.zeros((n, len(x)))
        v[np.arange(n), i] = x[i] * np.array([float(self.weight(p, len(x))) for p in q])[i]
        return Draws(v, np.ones(n, dtype=np.int64))


def uniform(d):
    return [Fraction(1, d)] * d


def linear(d):                                   # attribute i with probability ∝ i
    return [Fraction(2 * i, d * (d + 1)) for i in range(1, d + 1)]


versions = {
    "new q": OneAttribute(linear, lambda q_i, d: 1 / q_i),
    "new q, old weight": OneAttribute(linear, lambda q_i, d: d),       # the bug
}
claims = {"unbiased": True, "budget": 1}
with tempfile.TemporaryDirectory() as tmp:
    path = Path(tmp) / "onehot.json"
    save_baseline(OneAttribute(uniform, lambda q_i, d: 1 / q_i), path, claims=claims)
    results = {name: compare_baseline(version, path, claims=claims)
               for name, version in versions.items()}

for name, comparisons in results.items():
    print(name)
    for c in comparisons:
        print(f"    {c.instance:8s} {c.verdict:26s} {c.claim or ''}")

fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.5))
changed = [c for c in results["new q"] if "second_moment_ratio" in c.figures]
left.bar([c.instance for c in changed],
         [float(Fraction(c.figures["second_moment_ratio"])) for c in changed])
left.axhline(1.0, color="k", lw=0.8)
left.set_ylabel("E‖v‖², new / old (exact)")
left.set_title("CHANGED BUT STILL CORRECT: new q")
verdicts = ["SAME DISTRIBUTION", "CHANGED BUT STILL CORRECT", "BROKEN"]
for j, (name, comparisons) in enumerate(results.items()):
    counts = [sum(c.verdict == v for c in comparisons if c.instance != "checks")
              for v in verdicts]
    right.bar(np.arange(3) + 0.4 * (j - 0.5), counts, width=0.4, label=name)
right.set_xticks(range(3), ["SAME", "CHANGED,\nCORRECT", "BROKEN"])
right.set_ylabel("instances")
right.set_title("verdicts per version")
right.yaxis.set_major_locator(MaxNLocator(integer=True))       # counts of instances
right.set_ylim(0, 1.4 * right.get_ylim()[1])     # room above the bars for the legend
right.legend(fontsize=8, loc="upper left")
fig.tight_layout()
