"""HK12 Alg. 4 (AESVR): AERR on the smoothed ε-insensitive loss f_ε, with HK12 Procedure 3
(GenEst) estimating f_ε′ from k + 6 attributes per example in expectation (HK12 Thm 4.4)."""

import numpy as np

from .._validation import check_positive, check_rng, check_scalar
from ..estimators import aesvr_coefficients
from ..estimators import Budget, LearnerSpec, TheoremClaim
from ..exceptions import InvalidParameterError
from ..reference.estimators import genest_sample_size, genest_small_orders
from .ridge import GAERR

__all__ = ["AESVR"]


class AESVR(GAERR):
    """Attribute Efficient Support Vector Regression (HK12 Alg. 4).

    Alg. 1 (AERR: x̃ from k uniform draws, L2-ball projection, averaged output) with lines 8-9
    replaced by φ̃ = ½[GenEst(w, x/ε, (y+δ)/ε) + GenEst(w, x/ε, (y−δ)/ε)], whose mean is
    f_ε′(wᵀx − y) for f_ε(z) = (ε/2)ρ((z−δ)/ε) + (ε/2)ρ((z+δ)/ε) − δ, ρ′ = erf (HK12 Sec. 4.2,
    Claims 4.2-4.3). The attributes per example are k + 6 in expectation, not at most
    (HK12 Thm 4.4); ``max_attributes_per_example_`` records the largest seen.

    Parameters
    ----------
    k : int >= 1
    B : float > 0, the L2 radius (and the bound |y| <= B of Thm 4.4).
    eps : float > 0, the smoothing accuracy ε of f_ε.
    delta : float >= 0, the insensitivity δ of the loss |z|_δ.
    eta : "theory" or float > 0
        HK12 Thm 4.4 leaves η "properly tuned" without a formula: ``"theory"`` is laocheck's
        choice, HK12 Thm 3.1's AERR step √(k/(2dm)) (|f_ε′| <= 1 as |f′| of the squared loss
        is at most 2B; documented as a choice, not a theorem's value).
    genest_B : float or None
        The B of GenEst's N = ⌈4B²⌉ (Procedure 3 line 1). None: 2B/ε, the bound
        |y±| <= 2B/ε the proof of Thm 4.4 uses for the scaled instance (x/ε, y±).
    initial, n_total, random_state, record_draws : as :class:`GAERR`. ``draws_`` is the flat
        stream of each step's x̃ indices, then per GenEst call its order n and its j's.
    """

    spec = LearnerSpec(
        name="HK12.AESVR",
        citation="HK12 Alg. 4, Thm 4.4",
        budget=Budget("k + 6", lambda k: k + 6, kind="expectation"),
        geometry="l2",
        estimator="HK12.AESVR.gradient",
        theorems=(TheoremClaim("HK12.Thm4.4", "HK12.Thm4.4.bound"),),
    )

    _algorithm = "HK12.AESVR"

    def __init__(self, k=4, B=1.0, eps=0.1, delta=0.0, eta="theory", genest_B=None,
                 initial="uniform", n_total=None, random_state=None, record_draws=False):
        super().__init__(k=k, B=B, eta=eta, q=None, second_moments=None, n_inner=1,
                         initial=initial, n_total=n_total, random_state=random_state,
                         record_draws=record_draws)
        self.eps = eps
        self.delta = delta
        self.genest_B = genest_B

    def _partial(self, X, y, m_theory):
        d = X.shape[1]
        if not hasattr(self, "_state"):
            k, _n_inner, B, _q, eta, w1, _rows = self._setup(d, m_theory)
            eps = check_positive("eps", self.eps)
            delta = check_scalar("delta", self.delta)
            if delta < 0:
                raise InvalidParameterError(f"`delta` must be >= 0; got delta={delta}.")
            gB = 2 * B / eps if self.genest_B is None else check_positive("genest_B",
                                                                          self.genest_B)
            N = int(genest_sample_size(gB))
            self._genest = (aesvr_coefficients(), N, int(genest_small_orders(N)), eps, delta)
            self._rng = check_rng(self.random_state)
            self._state = self._new_state(d, B, w1)
            self._k = k
            self.eta_ = eta
            self.genest_N_ = N
            self.attributes_per_example_ = np.zeros(0, dtype=np.int64)
            self.draws_ = np.zeros(0, dtype=np.int64) if self.record_draws else None
        a, N, threshold, eps, delta = self._genest
        m = X.shape[0]
        attributes = np.zeros(m, dtype=np.int_)
        record = None
        if self.record_draws:
            record = np.full(m * (self._k + 64) + 4 * N * 64, -1, dtype=np.int_)
        pos = self._state.run_aesvr(self._rng, X, y, self._k, self.eta_, a, N, threshold, eps,
                                    delta, attributes, record)
        if record is not None:
            if pos < 0:
                raise RuntimeError("the draw record overflowed; fit fewer rows per call "
                                   "with record_draws=True")
            self.draws_ = np.concatenate([self.draws_, record[:pos]])
        self.attributes_per_example_ = np.concatenate([self.attributes_per_example_, attributes])
        self.n_attributes_seen_ = int(self.attributes_per_example_.sum())
        self.max_attributes_per_example_ = int(self.attributes_per_example_.max(initial=0))
        self.n_steps_ = self._state.t
        self.coef_ = self._state.average()
        self.w_ = self._state.coef()
        return self
