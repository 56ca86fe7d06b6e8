"""HK12 Alg. 1, the ridge gradient estimate, vectorised over the n draws (correct).

Written for floats: probabilities p = w**2 / (w @ w) as doubles."""
import numpy as np


class RidgeGradient:
    def __init__(self, k=2):
        self.k = k
        self.budget = k + 1

    def target(self, w, x, y):
        return (np.dot(w, x) - y) * np.asarray(x, dtype=float)

    def sample(self, w, x, y, n=1, rng=None):
        rng = np.random.default_rng(rng)
        w = np.asarray(w, dtype=float)
        x = np.asarray(x, dtype=float)
        d = x.shape[0]
        rows = np.repeat(np.arange(n), self.k)
        cols = rng.integers(0, d, size=(n, self.k))
        x_tilde = np.zeros((n, d))
        np.add.at(x_tilde, (rows, cols.ravel()), x[cols.ravel()] * d / self.k)
        seen = np.zeros((n, d), dtype=bool)
        seen[rows, cols.ravel()] = True
        s = w @ w
        if s > 0:
            j = rng.choice(d, size=n, p=w ** 2 / s)
            phi = s * x[j] / w[j] - y
            seen[np.arange(n), j] = True
        else:
            phi = np.full(n, -float(y))
        return phi[:, None] * x_tilde, seen.sum(axis=1)


est = RidgeGradient(k=2)
CLAIMS = {"unbiased": True, "second_moment": "HK12.Lemma3.3.G2"}
BROKEN = None
