"""x estimated from one uniform coordinate, plus zero-mean Gaussian dither (correct, but a
continuous draw: not enumerable; Monte Carlo with the claimed second-moment bound)."""
import numpy as np


class DitheredPoint:
    budget = 1

    def target(self, w, x, y):
        return np.asarray(x, dtype=float)

    def sample(self, w, x, y, n=1, rng=None):
        x = np.asarray(x, dtype=float)
        d = x.shape[0]
        i = rng.integers(d, size=n)
        out = np.zeros((n, d))
        out[np.arange(n), i] = d * x[i]
        out += rng.normal(0.0, 0.1, size=(n, d))
        return out, np.ones(n, dtype=int)


est = DitheredPoint()
# E||v||^2 = d * ||x||^2 + d * 0.01 <= 4 * 1 + 0.04 on the instances (||x|| <= 1, d <= 4)
CLAIMS = {"unbiased": True, "second_moment": 4.04}
BROKEN = None
