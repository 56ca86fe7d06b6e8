"""The residual w.x - y estimated from one coordinate j drawn with p_j = |w_j| / ||w||_1 but
weighted as if p_j = w_j^2 / ||w||^2: wrong probabilities, biased."""
import numpy as np


class Residual:
    budget = 1

    def target(self, w, x, y):
        return np.array([w @ x - y])

    def sample(self, w, x, y, n=1, rng=None):
        w = np.asarray(w, dtype=float)
        x = np.asarray(x, dtype=float)
        a = np.abs(w)
        if a.sum() == 0:
            return np.full((n, 1), -y), np.zeros(n, dtype=int)
        j = rng.choice(len(w), size=n, p=a / a.sum())
        phi = (w @ w) * x[j] / w[j] - y
        return phi[:, None], np.ones(n, dtype=int)


est = Residual()
CLAIMS = {"unbiased": True, "scaling": "degree1"}
BROKEN = "unbiased.exact"
