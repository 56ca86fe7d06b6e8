"""The residual estimate vectorised wrongly: one j is drawn for the whole batch
(rng.choice(d, p=p) without size=n), so the n draws are not independent. One draw alone is
right (the exact checks pass); the batch is not."""
import numpy as np


class SharedDrawResidual:
    budget = 1

    def target(self, w, x, y):
        return np.array([w @ x - y])

    def sample(self, w, x, y, n=1, rng=None):
        s = w @ w
        if s == 0:
            return np.full((n, 1), -y), np.zeros(n, dtype=int)
        j = rng.choice(len(w), p=w * w / s)
        phi = s * x[j] / w[j] - y
        return np.full((n, 1), phi), np.ones(n, dtype=int)


est = SharedDrawResidual()
CLAIMS = {"unbiased": True}
BROKEN = "kernel_matches_reference"
