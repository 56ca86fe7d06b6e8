"""x estimated from k draws with replacement, duplicates dropped (each distinct coordinate
once, weight d/k): biased, since a coordinate is seen with probability 1 - (1 - 1/d)^k, not
k/d."""
import numpy as np


class DedupPoint:
    k = 2
    budget = 2

    def target(self, w, x, y):
        return x

    def sample(self, w, x, y, n=1, rng=None):
        d = len(x)
        idx = rng.integers(d, size=(n, self.k))
        mask = np.zeros((n, d), dtype=bool)
        for r in range(self.k):
            mask[np.arange(n), idx[:, r]] = True
        out = np.where(mask, x * d / self.k, 0 * x)
        return out, mask.sum(axis=1)


est = DedupPoint()
CLAIMS = {"unbiased": True, "budget": 2}
BROKEN = "unbiased.exact"
