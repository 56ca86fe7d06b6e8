"""HK12 Alg. 1, the ridge gradient estimate, with j drawn by inverting the cumulative
distribution of w_j^2 / ||w||^2 against uniforms (correct)."""
import numpy as np


class InverseCDFGradient:
    k = 2
    budget = 3

    def target(self, w, x, y):
        return (w @ x - y) * x

    def sample(self, w, x, y, n=1, rng=None):
        w = np.asarray(w, dtype=float)
        x = np.asarray(x, dtype=float)
        d = len(x)
        picks = rng.integers(d, size=(n, self.k))
        xt = np.zeros((n, d))
        for r in range(self.k):
            xt[np.arange(n), picks[:, r]] += x[picks[:, r]] * d / self.k
        norm = w @ w
        if norm == 0:
            return -y * xt, np.array([len(set(row)) for row in picks.tolist()])
        cdf = np.cumsum(w * w / norm)[:-1]
        u = rng.random(n)
        j = (u[:, None] >= cdf[None, :]).sum(axis=1).astype(int)
        phi = norm * x[j] / w[j] - y
        seen = [len(set(row) | {jj}) for row, jj in zip(picks.tolist(), j.tolist())]
        return phi[:, None] * xt, np.array(seen)


est = InverseCDFGradient()
CLAIMS = {"unbiased": True, "second_moment": "HK12.Lemma3.3.G2"}
BROKEN = None
