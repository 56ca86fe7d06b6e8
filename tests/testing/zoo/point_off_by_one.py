"""x estimated from one uniform coordinate drawn with rng.integers(1, d): coordinate 0 is
never drawn (wrong probabilities), biased."""
import numpy as np


class OffByOne:
    budget = 1

    def target(self, w, x, y):
        return x

    def sample(self, w, x, y, n=1, rng=None):
        d = len(x)
        i = rng.integers(1, d, size=n)
        out = np.zeros((n, d), dtype=x.dtype)
        out[np.arange(n), i] = d * x[i]
        return out, np.ones(n, dtype=int)


est = OffByOne()
CLAIMS = {"unbiased": True}
BROKEN = "unbiased.exact"
