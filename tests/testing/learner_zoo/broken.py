"""Realistic slips in a user's AERR (``numpy_aerr.NumpyAERR``), each written as a user would
(plain numpy, no laocheck import), with the claims its author still makes and the check that
must catch it.

``ZOO``: (id, factory, claims, the property whose check FAILs); its last part,
``STREAM_ZOO``, are learners whose ``fit`` is right and whose ``fit_stream`` alone is broken.
"""
import numpy as np

from .numpy_aerr import CLAIMS, NumpyAERR


class WholeRowPhi(NumpyAERR):
    """"Less variance": φ = wᵀx − y computed exactly from the whole row (reads all d), while
    still reporting k + 1 attributes per example."""

    def sample_phi(self, X, t, y, d):
        return float(X[t] @ self.w_) - y[t], {0}


class ExtraRead(NumpyAERR):
    """"The intercept column is always observed": x̃[0] = x[0] on every example, one read
    beyond the budget that it does not report."""

    def sample_x(self, X, t, d):
        xt, read = super().sample_x(X, t, d)
        xt[0] = X[t, 0]
        return xt, read


class ClipsCoordinates(NumpyAERR):
    """Projects onto the L∞ ball (np.clip) instead of the L2 ball: ‖w‖₂ up to √d·B."""

    def project(self, v):
        return np.clip(v, -self.B, self.B)


class NoProjection(NumpyAERR):
    """Forgets the projection (plain SGD)."""

    def project(self, v):
        return v


class TenfoldStep(NumpyAERR):
    """A step size 10x the theorem's ("converges faster"). Caught by the step-size claim
    (eta_ against HK12 Thm 3.1's η), not by the bound claim: HK12 Thm 3.1's bound is loose
    enough (the theorem's learner reaches 4-30 % of it on HK12's hard instance) that
    10x η stays under it (measured: AERR at 10x and 100x η below the bound at d = 4..16,
    m = 400..50000)."""

    def step_size(self, d, m):
        return 10 * np.sqrt(self.k / (2 * d * m))


class ForgetsLabel(NumpyAERR):
    """φ̃ estimates wᵀx and forgets − y: a biased gradient (of ½(wᵀx)², towards w = 0)."""

    def sample_phi(self, X, t, y, d):
        phi, read = super().sample_phi(X, t, y, d)
        return phi + y[t], read


class FixedSeed(NumpyAERR):
    """Ignores random_state: always seeds its generator with 0."""

    def _start(self, d, m):
        super()._start(d, m)
        self._rng = np.random.default_rng(0)


class GlobalRandom(NumpyAERR):
    """Draws x̃'s indices from numpy's global generator, not from its own."""

    def sample_x(self, X, t, d):
        idx = np.random.randint(d, size=self.k)
        xt = np.zeros(d)
        np.add.at(xt, idx, X[t, idx] * d / self.k)
        return xt, set(idx.tolist())


class CentersXInPlace(NumpyAERR):
    """Centres the columns of X in place before fitting (changes the caller's data)."""

    def fit(self, X, y):
        X -= np.mean(X, axis=0)
        return super().fit(X, y)


class StreamWholeRowPhi(NumpyAERR):
    """fit is HK12's; fit_stream ("rows from a stream are cheap") computes φ = wᵀx − y exactly
    from the whole row, still reporting k + 1 attributes per example."""

    def fit_stream(self, X, y, n_steps):
        self._exact_phi = True
        try:
            return super().fit_stream(X, y, n_steps)
        finally:
            self._exact_phi = False

    def sample_phi(self, X, t, y, d):
        if getattr(self, "_exact_phi", False):
            return float(X[t] @ self.w_) - y[t], {0}
        return super().sample_phi(X, t, y, d)


class StreamUnseeded(NumpyAERR):
    """fit is HK12's; fit_stream restarts its generator without the seed (a fresh
    ``default_rng()``), so two streams with the same random_state differ."""

    def fit_stream(self, X, y, n_steps):
        m, d = X.shape
        self._start(d, n_steps)
        self._rng = np.random.default_rng()
        return self._steps(X, y, (t % m for t in range(n_steps)), d)


class StreamPoolStep(NumpyAERR):
    """fit is HK12's; fit_stream takes the theorem's step size for the pool's m rows instead
    of the n_steps steps it makes (a step too large by √(n_steps/m))."""

    def fit_stream(self, X, y, n_steps):
        m, d = X.shape
        self._start(d, m)
        return self._steps(X, y, (t % m for t in range(n_steps)), d)


#: the biased-gradient learner is caught on HK12 Thm B.1's hard instance (d = 4, m = 2000:
#: the bound 4B²√(2d/(km)) = 0.18; its w̄ stays at 0, excess L_D(0) − L_D(w*) = 0.375)
BIAS_CLAIMS = {**CLAIMS, "d": 4, "m": (2000, 20000), "R": (60, 200)}

ZOO = [
    ("whole-row-phi", lambda: WholeRowPhi(k=2), CLAIMS, "budget"),
    ("extra-read", lambda: ExtraRead(k=2), CLAIMS, "budget"),
    ("clips-coordinates", lambda: ClipsCoordinates(k=2), CLAIMS, "constraint"),
    ("no-projection", lambda: NoProjection(k=2), CLAIMS, "constraint"),
    ("tenfold-step", lambda: TenfoldStep(k=2), CLAIMS, "step_size"),
    ("forgets-label", lambda: ForgetsLabel(k=2), BIAS_CLAIMS, "excess_risk"),
    ("fixed-seed", lambda: FixedSeed(k=2), CLAIMS, "deterministic"),
    ("global-random", lambda: GlobalRandom(k=2), CLAIMS, "deterministic"),
    ("centers-x-in-place", lambda: CentersXInPlace(k=2), CLAIMS, "sklearn"),
]
#: learners whose fit is right and whose fit_stream alone is broken (caught only because
#: check_learner exercises fit_stream)
STREAM_ZOO = [
    ("stream-whole-row-phi", lambda: StreamWholeRowPhi(k=2), CLAIMS, "budget"),
    ("stream-unseeded", lambda: StreamUnseeded(k=2), CLAIMS, "deterministic"),
    ("stream-pool-step", lambda: StreamPoolStep(k=2), CLAIMS, "deterministic"),
]
ZOO += STREAM_ZOO


def raises_in_fit(random_state=None):
    """A factory whose learner's fit raises (an unfinished learner): the papers' experiment
    reports record its message and run the papers' learners as without it."""

    class Unfinished(NumpyAERR):
        def fit(self, X, y):
            raise NotImplementedError("fit is not written yet")

    return Unfinished(k=2, random_state=random_state)
