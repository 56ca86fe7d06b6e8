"""HK12's AERR (Alg. 1) written as a user would: plain numpy, no laocheck import.

Each step reads k attributes of x drawn uniformly with replacement (x̃ = (d/k) Σ_r x_{i_r}
e_{i_r}) and one more, j ~ w_j²/‖w‖², for φ̃ = ‖w‖² x_j / w_j − y (φ̃ = −y when w = 0); then
w ← Π_B(w − η φ̃ x̃) on the L2 ball of radius B; the output is the average of the iterates w_1, ..., w_m.
HK12 Thm 3.1: with η = √(k/(2dm)), E[L_D(w̄)] − L_D(w*) <= 4B²√(2d/(km)).
"""
import numpy as np


class NumpyAERR:
    """AERR in plain numpy (fit, partial_fit, coef_, w_, eta_, attributes_per_example_)."""

    def __init__(self, k=2, B=1.0, eta="theory", random_state=None):
        self.k = k
        self.B = B
        self.eta = eta
        self.random_state = random_state

    # -- the pieces a variant changes ------------------------------------------------------
    def step_size(self, d, m):
        """HK12 Thm 3.1's η."""
        return np.sqrt(self.k / (2 * d * m))

    def sample_x(self, X, t, d):
        """x̃ and the attributes read."""
        idx = self._rng.integers(d, size=self.k)
        xt = np.zeros(d)
        np.add.at(xt, idx, X[t, idx] * d / self.k)
        return xt, set(idx.tolist())

    def sample_phi(self, X, t, y, d):
        """φ̃ (an unbiased estimate of wᵀx − y) and the attributes read."""
        w = self.w_
        sq = float(w @ w)
        if sq == 0.0:
            return -y[t], set()
        j = int(self._rng.choice(d, p=w * w / sq))
        return sq * X[t, j] / w[j] - y[t], {j}

    def project(self, v):
        """The L2 ball of radius B."""
        norm = np.linalg.norm(v)
        return v if norm <= self.B else v * (self.B / norm)

    # -- the lifecycle -----------------------------------------------------------------------
    def _start(self, d, m):
        self._rng = np.random.default_rng(self.random_state)
        self.eta_ = self.step_size(d, m) if self.eta == "theory" else float(self.eta)
        self.w_ = np.zeros(d)
        self._sum = np.zeros(d)
        self._t = 0
        self.attributes_per_example_ = []

    def _steps(self, X, y, rows, d):
        """One step per row number of ``rows`` (in order)."""
        for t in rows:
            self._sum += self.w_                     # w̄ = (1/m) Σ_t w_t (HK12 Alg. 1 line 14)
            xt, read_x = self.sample_x(X, t, d)
            phi, read_phi = self.sample_phi(X, t, y, d)
            self.w_ = self.project(self.w_ - self.eta_ * phi * xt)
            self._t += 1
            self.attributes_per_example_.append(len(read_x | read_phi))
        self.coef_ = self._sum / self._t
        return self

    def partial_fit(self, X, y):
        m, d = X.shape
        if not hasattr(self, "w_"):
            self._start(d, m)
        return self._steps(X, y, range(m), d)

    def fit_stream(self, X, y, n_steps):
        """``n_steps`` steps from the start over the rows taken cyclically (a stream from a pool
        of rows): ``fit`` on the pool tiled to n_steps rows, without making that array; the
        theorem's step size takes m = n_steps."""
        m, d = X.shape
        self._start(d, n_steps)
        return self._steps(X, y, (t % m for t in range(n_steps)), d)

    def fit(self, X, y):
        for name in ("w_", "coef_"):
            if hasattr(self, name):
                delattr(self, name)
        return self.partial_fit(X, y)

    def predict(self, X):
        return np.asarray(X) @ self.coef_

    def get_params(self, deep=True):
        return {"k": self.k, "B": self.B, "eta": self.eta, "random_state": self.random_state}

    def set_params(self, **params):
        for key, value in params.items():
            setattr(self, key, value)
        return self


#: What its author claims (HK12 Thm 3.1).
CLAIMS = {"budget": 3, "constraint": "l2", "bound": "HK12.Thm3.1.bound",
          "step_size": "HK12.Thm3.1.eta"}
