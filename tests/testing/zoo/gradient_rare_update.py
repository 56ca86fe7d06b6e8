"""The ridge gradient estimate computed on one draw in 20 only and rescaled by 20 ("to save
work"): still unbiased, but its second moment is 20 times larger and exceeds HK12 Lemma
3.3's bound."""
import numpy as np

RATE = 20


class RareGradient:
    k = 2
    budget = 3

    def target(self, w, x, y):
        return (w @ x - y) * x

    def sample(self, w, x, y, n=1, rng=None):
        d = len(x)
        idx = rng.integers(d, size=(n, self.k))
        xt = np.zeros((n, d), dtype=x.dtype)
        for r in range(self.k):
            xt[np.arange(n), idx[:, r]] += x[idx[:, r]] * d / self.k
        s = w @ w
        j = rng.choice(d, size=n, p=w * w / s) if s > 0 else np.zeros(n, dtype=int)
        phi = s * x[j] / w[j] - y if s > 0 else np.full(n, -y)
        keep = rng.binomial(1, 1 / RATE, size=n)
        seen = [len(set(row) | {jj}) for row, jj in zip(idx.tolist(), j.tolist())]
        return (RATE * keep * phi)[:, None] * xt, np.array(seen)


est = RareGradient()
CLAIMS = {"unbiased": True, "second_moment": "HK12.Lemma3.3.G2"}
BROKEN = "second_moment"
