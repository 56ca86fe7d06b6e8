"""x estimated from k uniform coordinates, but it also reads x at a random extra coordinate
to 'check the scale': k + 1 attributes against a budget of k."""
import numpy as np


class PointEstimate:
    def __init__(self, k=2):
        self.k = k
        self.budget = k

    def target(self, w, x, y):
        return x

    def sample(self, w, x, y, n=1, rng=None):
        d = len(x)
        idx = rng.integers(d, size=(n, self.k))
        extra = rng.integers(d, size=n)
        out = np.zeros((n, d), dtype=x.dtype)
        for r in range(self.k):
            out[np.arange(n), idx[:, r]] += x[idx[:, r]] * d / self.k
        _ = x[extra]                       # the extra read
        seen = [len(set(row) | {e}) for row, e in zip(idx.tolist(), extra.tolist())]
        return out, np.array(seen)


est = PointEstimate(k=2)
CLAIMS = {"unbiased": True}
BROKEN = "budget"
