"""The gradient estimate clipped at 2 while its author claims every coordinate within 1."""
import numpy as np


class ClippedGradient:
    k = 2
    budget = 3

    def target(self, w, x, y):
        return (w @ x - y) * x

    def sample(self, w, x, y, n=1, rng=None):
        w = np.asarray(w, dtype=float)
        x = np.asarray(x, dtype=float)
        d = len(x)
        idx = rng.integers(d, size=(n, self.k))
        xt = np.zeros((n, d))
        for r in range(self.k):
            xt[np.arange(n), idx[:, r]] += x[idx[:, r]] * d / self.k
        s = w @ w
        j = rng.choice(d, size=n, p=w ** 2 / s) if s > 0 else np.zeros(n, dtype=int)
        phi = s * x[j] / w[j] - y if s > 0 else np.full(n, -y)
        seen = [len(set(row) | {jj}) for row, jj in zip(idx.tolist(), j.tolist())]
        return np.clip(10 * phi[:, None] * xt, -2, 2), np.array(seen)


est = ClippedGradient()
CLAIMS = {"clipping": 1.0}
BROKEN = "clipping"
