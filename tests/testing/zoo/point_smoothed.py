"""x estimated by importance sampling with p_i proportional to w_i^2 + 0.1 (smoothed, weight
x_i / p_i): unbiased, but the distribution moves when w is scaled, against its claim that
x-tilde does not depend on the scale of (w, y)."""
import numpy as np


class SmoothedPoint:
    budget = 1

    def target(self, w, x, y):
        return np.asarray(x, dtype=float)

    def sample(self, w, x, y, n=1, rng=None):
        w = np.asarray(w, dtype=float)
        x = np.asarray(x, dtype=float)
        p = w ** 2 + 0.1
        p = p / p.sum()
        i = rng.choice(len(x), size=n, p=p)
        out = np.zeros((n, len(x)))
        out[np.arange(n), i] = x[i] / p[i]
        return out, np.ones(n, dtype=int)


est = SmoothedPoint()
CLAIMS = {"unbiased": True, "scaling": "degree0"}
BROKEN = "scaling"
