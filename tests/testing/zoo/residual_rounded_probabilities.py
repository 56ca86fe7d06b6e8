"""The residual estimate with p = w^2 / ||w||^2 rounded to 3 decimals (and renormalised) for
the draw while the weight keeps the unrounded p: a float-probability slip, biased by about
1e-3 (below what Monte Carlo resolves; the exact check sees it)."""
import numpy as np


class RoundedResidual:
    budget = 1

    def target(self, w, x, y):
        return np.array([w @ x - y])

    def sample(self, w, x, y, n=1, rng=None):
        w = np.asarray(w, dtype=float)
        x = np.asarray(x, dtype=float)
        s = w @ w
        if s == 0:
            return np.full((n, 1), -y), np.zeros(n, dtype=int)
        p = np.round(w ** 2 / s, 3)
        p = p / p.sum()
        j = rng.choice(len(w), size=n, p=p)
        phi = s * x[j] / w[j] - y
        return phi[:, None], np.ones(n, dtype=int)


est = RoundedResidual()
CLAIMS = {"unbiased": True}
BROKEN = "unbiased.exact"
