"""Estimators written as a user would write them (no laocheck kernel), for the testing API's
tests: HK12 Alg. 1's gradient estimate, correct or with one slip."""
import numpy as np

from laocheck import estimators
from laocheck.estimators import Draws


class UserAERRGradient:
    """HK12 Alg. 1 lines 3-10, written independently: x̃ from k uniform draws with replacement
    (weight d/k), φ̃ = (‖w‖²/w_j)·x_j − y with j ~ w_j²/‖w‖², g̃ = φ̃·x̃ (−y·x̃ when w = 0).

    ``weight(d)`` replaces the importance weight d (a slip); ``name`` defaults to the protocol's
    suggestion, the registered name."""

    def __init__(self, k=2, *, name="HK12.AERR.gradient", weight=None):
        self.k = k
        self.name = name
        self.citation = "HK12 Alg. 1 (user's transcription)"
        self._weight = weight or (lambda d: d)

    @property
    def params(self):
        return {"k": self.k}

    @property
    def budget(self):
        return self.k + 1

    def target(self, w, x, y):
        w, x = np.asarray(w, float), np.asarray(x, float)
        return (float(w @ x) - float(y)) * x

    def reference(self, w, x, y, src):
        d = len(x)
        xt = [x[0] * 0] * d
        seen = set()
        for _ in range(self.k):
            i = src.uniform_int(d)
            seen.add(i)
            xt[i] = xt[i] + self._weight(d) * x[i] / self.k
        ns = sum(v * v for v in w)
        if ns == 0:
            phi = -y
        else:
            j = src.categorical([v * v / ns for v in w])
            seen.add(j)
            phi = ns * x[j] / w[j] - y
        return [phi * v for v in xt], frozenset(seen)

    def sample(self, w, x, y, *, n=1, rng=None):
        rng = np.random.default_rng(rng)
        w, x = np.asarray(w, float), np.asarray(x, float)
        d = x.shape[0]
        idx = rng.integers(d, size=(n, self.k))
        xt = np.zeros((n, d))
        np.add.at(xt, (np.repeat(np.arange(n), self.k), idx.ravel()),
                  (self._weight(d) * x[idx] / self.k).ravel())
        ns = float(w @ w)
        if ns > 0:
            j = rng.choice(d, size=n, p=w * w / ns)
            phi = ns * x[j] / w[j] - y
            seen = [len(set(row) | {jj}) for row, jj in zip(idx.tolist(), j.tolist())]
        else:
            phi = np.full(n, -float(y))
            seen = [len(set(row)) for row in idx.tolist()]
        return Draws(phi[:, None] * xt, np.array(seen, dtype=np.int64))


class SampleOnly:
    """The protocol's minimum: target, sample and budget (no reference, no params)."""

    def __init__(self, k=2):
        self._inner = UserAERRGradient(k)
        self.name = "HK12.AERR.gradient"
        self.budget = k + 1

    def target(self, w, x, y):
        return self._inner.target(w, x, y)

    def sample(self, w, x, y, *, n=1, rng=None):
        return self._inner.sample(w, x, y, n=n, rng=rng)


class KernelOnly:
    """The protocol's minimum around laocheck's compiled kernel: no reference, and draws taken
    from the generator's bit generator, which the choice tree cannot enumerate (so its
    baselines are sampled). ``factor`` scales every draw (a wrong weight when not 1)."""

    def __init__(self, k=2, factor=1.0):
        self._inner = estimators.get("HK12.AERR.gradient", k=k)
        self.name = "HK12.AERR.gradient"
        self.budget = k + 1
        self.factor = factor

    def target(self, w, x, y):
        return self._inner.target(w, x, y)

    def sample(self, w, x, y, *, n=1, rng=None):
        draws = self._inner.sample(w, x, y, n=n, rng=rng)
        return Draws(self.factor * np.asarray(draws.values), draws.attributes)
