"""HK12 Alg. 1, the ridge gradient estimate, one loop over the k draws, keeping the dtype of
its input (correct)."""
import numpy as np


class GradientEstimate:
    def __init__(self, k):
        self.k = k

    @property
    def params(self):
        return {"k": self.k}

    budget = 3

    def target(self, w, x, y):
        return (w @ x - y) * x

    def sample(self, w, x, y, n=1, rng=None):
        d = len(x)
        xt = np.zeros((n, d), dtype=x.dtype)
        read = np.zeros((n, d), dtype=bool)
        for _ in range(self.k):
            i = rng.integers(d, size=n)
            xt[np.arange(n), i] += x[i] * d / self.k
            read[np.arange(n), i] = True
        norm = w @ w
        if norm == 0:
            return -y * xt, read.sum(axis=1)
        j = rng.choice(d, size=n, p=w * w / norm)
        read[np.arange(n), j] = True
        phi = norm / w[j] * x[j] - y
        return phi[:, None] * xt, read.sum(axis=1)


est = GradientEstimate(k=2)
CLAIMS = {"unbiased": True, "second_moment": "HK12.Lemma3.3.G2", "budget": 3}
BROKEN = None
