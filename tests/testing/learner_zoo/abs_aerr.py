"""A new attribute-efficient learner, written as a user would (plain numpy, no laocheck import):
AERR (HK12 Alg. 1) with another sampling distribution for φ̃.

HK12 draws j ~ w_j²/‖w‖² and sets φ̃ = ‖w‖² x_j / w_j − y. AbsAERR draws j ~ |w_j|/‖w‖₁ and
sets φ̃ = ‖w‖₁ sign(w_j) x_j − y: unbiased for wᵀx − y, and cheaper to maintain (a sum tree of
|w_j| needs no squares).

Its own theorem (for ‖x‖₂ <= 1, |y| <= B, ‖w‖₂ <= B):

* E[φ̃²] <= 2E[(‖w‖₁ x_j)²] + 2y² = 2‖w‖₁ Σ_j |w_j| x_j² + 2y² <= 2(√d + 1)B²
  (‖w‖₁ <= √d‖w‖₂, Σ_j |w_j| x_j² <= ‖w‖₂ ‖x‖₂²);
* E‖x̃‖² <= (d/k + 1)‖x‖₂² <= 2d/k for k uniform draws with replacement, independent of j;
* so G² = 4B²d(√d + 1)/k bounds E‖φ̃x̃‖², and projected SGD with η = 2B/(G√m) gives
  E[L_D(w̄)] − L_D(w*) <= 2BG/√m = 4B²√(d(√d + 1)/(km)) (HK12 Lemma 3.2's argument).
"""
import numpy as np


class AbsAERR:
    """AERR with φ̃ drawn from |w| (fit, partial_fit, coef_, w_, eta_,
    attributes_per_example_)."""

    def __init__(self, k=2, B=1.0, eta="theory", random_state=None):
        self.k = k
        self.B = B
        self.eta = eta
        self.random_state = random_state

    def fit(self, X, y):
        for name in ("w_", "coef_"):
            if hasattr(self, name):
                delattr(self, name)
        return self.partial_fit(X, y)

    def partial_fit(self, X, y):
        m, d = X.shape
        if not hasattr(self, "w_"):
            self._rng = np.random.default_rng(self.random_state)
            # my theorem's step size: 2B/(G√m) with G² = 4B²d(√d + 1)/k
            self.eta_ = (np.sqrt(self.k / (d * (np.sqrt(d) + 1) * m))
                         if self.eta == "theory" else float(self.eta))
            self.w_ = np.zeros(d)
            self._sum = np.zeros(d)
            self._t = 0
            self.attributes_per_example_ = []
        for t in range(m):
            self._sum += self.w_                              # w̄ = (1/m) Σ_t w_t
            idx = self._rng.integers(d, size=self.k)          # x̃: k uniform draws
            xt = np.zeros(d)
            np.add.at(xt, idx, X[t, idx] * d / self.k)
            read = set(idx.tolist())
            a = np.abs(self.w_)
            l1 = a.sum()
            if l1 == 0.0:
                phi = -y[t]
            else:                                             # φ̃: j ~ |w_j| / ‖w‖₁
                j = int(self._rng.choice(d, p=a / l1))
                phi = l1 * np.sign(self.w_[j]) * X[t, j] - y[t]
                read.add(j)
            v = self.w_ - self.eta_ * phi * xt
            norm = np.linalg.norm(v)
            self.w_ = v if norm <= self.B else v * (self.B / norm)
            self._t += 1
            self.attributes_per_example_.append(len(read))
        self.coef_ = self._sum / self._t
        return self

    def predict(self, X):
        return np.asarray(X) @ self.coef_

    def get_params(self, deep=True):
        return {"k": self.k, "B": self.B, "eta": self.eta, "random_state": self.random_state}

    def set_params(self, **params):
        for key, value in params.items():
            setattr(self, key, value)
        return self


def make(random_state=None):
    """The factory a report names (``--learner learner_zoo.abs_aerr:make``)."""
    return AbsAERR(k=2, random_state=random_state)
