"""HK12 Alg. 1 with the importance weight (d - 1)/k instead of d/k: biased."""
import numpy as np


class MyGradient:
    def __init__(self, k=2):
        self.k = k
        self.budget = k + 1

    def target(self, w, x, y):
        return (w @ x - y) * x

    def sample(self, w, x, y, n=1, rng=None):
        w = np.asarray(w, dtype=float)
        x = np.asarray(x, dtype=float)
        d = len(x)
        idx = rng.integers(d, size=(n, self.k))
        xt = np.zeros((n, d))
        for r in range(self.k):
            xt[np.arange(n), idx[:, r]] += x[idx[:, r]] * (d - 1) / self.k
        norm2 = w @ w
        j = rng.choice(d, size=n, p=w ** 2 / norm2) if norm2 > 0 else np.zeros(n, int)
        phi = norm2 * x[j] / w[j] - y if norm2 > 0 else np.full(n, -y)
        seen = [len(set(row) | {jj}) for row, jj in zip(idx.tolist(), j.tolist())]
        return phi[:, None] * xt, np.array(seen)


est = MyGradient(k=2)
CLAIMS = {"unbiased": True, "second_moment": "HK12.Lemma3.3.G2", "budget": 3}
BROKEN = "unbiased.exact"
