"""HK12 Alg. 4 (AESVR): AERR on the smoothed ε-insensitive loss f_ε, with HK12 Procedure 3
(GenEst) estimating f_ε′ from k + 6 attributes per example in expectation (HK12 Thm 4.4)."""

import numpy as np

from .._validation import check_real
from ..estimators import aesvr_coefficients
from ..exceptions import InvalidParameterError
from ..estimators._paper_constants import genest_sample_size, genest_small_orders
from ._base import SCALE_RANGE, BudgetedLearner, check_k, check_scale
from ._docstrings import shared_docstring
from ._ridge import RidgeState
from ._specs import SPECS
from .ridge import initial_point, theory_step_size

__all__ = ["AESVR"]

#: GenEst's B (2B/ε by default) at most 2^30: N = ⌈4B²⌉ <= 2^62 fits the kernel's 64-bit count
#: (a larger N is never reached in practice: orders above 2 log₂ N have probability ~1/N²).
GENEST_MAX_B = 2.0 ** 30


@shared_docstring
class AESVR(BudgetedLearner):
    """Attribute Efficient Support Vector Regression (HK12 Alg. 4).

    Alg. 1 (AERR: x̃ from k uniform draws, L2-ball projection, averaged output) with lines 8-9
    replaced by φ̃ = ½[GenEst(w, x/ε, (y+δ)/ε) + GenEst(w, x/ε, (y−δ)/ε)], whose mean is
    f_ε′(wᵀx − y) for f_ε(z) = (ε/2)ρ((z−δ)/ε) + (ε/2)ρ((z+δ)/ε) − δ, ρ′ = erf (HK12 Sec. 4.2,
    Claims 4.2-4.3). The attributes per example are k + 6 in expectation, not at most
    (HK12 Thm 4.4); ``max_attributes_per_example_`` records the largest seen.

    Parameters
    ----------
    k : int, default=4
        Attributes sampled for x̃ per example, 1 <= k <= d.
    B : float, default=1.0
        The L2 radius (and the bound |y| <= B of Thm 4.4).
    eps : float, default=0.1
        The smoothing accuracy ε > 0 of f_ε.
    delta : float, default=0.0
        The insensitivity δ >= 0 of the loss |z|_δ.
    eta : "theory" or float, default="theory"
        HK12 Thm 4.4 leaves η "properly tuned" without a formula: ``"theory"`` is laocheck's
        choice, HK12 Thm 3.1's AERR step √(k/(2dm)) (|f_ε′| <= 1 as |f′| of the squared loss is
        at most 2B; documented as a choice, not a theorem's value).
    genest_B : float or None, default=None
        The B of GenEst's N = ⌈4B²⌉ (Procedure 3 line 1). None: 2B/ε, the bound |y±| <= 2B/ε the
        proof of Thm 4.4 uses for the scaled instance (x/ε, y±).
    %(initial)s
    %(n_total)s
    %(random_state)s
    record_draws : bool, default=False
        Keep the draws in ``draws_``: the flat stream of each step's x̃ indices, then per GenEst
        call its order n and its j's.

    Attributes
    ----------
    %(coef_)s
    %(w_)s
    %(eta_)s
    genest_N_ : int
        GenEst's N = ⌈4 genest_B²⌉.
    %(n_steps_)s
    %(n_attributes_seen_)s
    %(max_attributes_per_example_)s
    %(attributes_per_example_)s
    %(draws_)s
    %(n_features_in_)s
    """

    spec = SPECS["AESVR"]

    _algorithm = "HK12.AESVR"

    def __init__(self, k=4, B=1.0, eps=0.1, delta=0.0, eta="theory", genest_B=None,
                 initial="uniform", n_total=None, random_state=None, record_draws=False):
        self.k = k
        self.B = B
        self.eps = eps
        self.delta = delta
        self.eta = eta
        self.genest_B = genest_B
        self.initial = initial
        self.n_total = n_total
        self.random_state = random_state
        self.record_draws = record_draws

    def _theory_step(self, name, m, d, config):
        k, B = config
        return theory_step_size(m, k, B, d=d)            # HK12 Thm 3.1's AERR step (a choice)

    def _validate(self, d, m):
        k = check_k(self.k, d)
        B = self._radius()
        eta = self._step_size(m, d, (k, B))
        w1 = initial_point(self.initial, d, B)
        eps = check_scale("eps", self.eps, "a smoothing accuracy")
        delta = check_real("delta", self.delta, low=0.0, high=SCALE_RANGE[1],
                           rule="an insensitivity")
        if self.genest_B is None:
            gB = 2 * B / eps
            if not gB <= GENEST_MAX_B:
                raise InvalidParameterError(
                    f"`eps` must satisfy eps >= 2B/{GENEST_MAX_B:g} = {2 * B / GENEST_MAX_B:.6g} "
                    f"(GenEst draws N = ⌈4(2B/ε)²⌉ per factor, a 64-bit count); got eps={eps!r} "
                    f"with B={B!r}.")
        else:
            gB = check_real("genest_B", self.genest_B, low=SCALE_RANGE[0], high=GENEST_MAX_B,
                            rule="GenEst draws N = ⌈4B²⌉ per factor, a 64-bit count")
        N = int(genest_sample_size(gB))
        return k, B, eta, w1, eps, delta, N

    def _start(self, d, config):
        k, B, eta, w1, eps, delta, N = config
        self._genest = (aesvr_coefficients(), N, int(genest_small_orders(N)), eps, delta)
        self._state = RidgeState(w1, B)
        self._k = k
        self.eta_ = eta
        self.genest_N_ = N

    def _advance(self, X, y, n_steps):
        a, N, threshold, eps, delta = self._genest
        m = X.shape[0] if n_steps is None else n_steps
        attributes = np.zeros(m, dtype=np.int_)
        record = None
        if self.record_draws:
            record = np.full(m * (self._k + 64) + 4 * N * 64, -1, dtype=np.int_)
        pos = self._state.run_aesvr(self._rng, X, y, self._k, self.eta_, a, N, threshold, eps,
                                    delta, attributes, record,
                                    -1 if n_steps is None else n_steps)
        self._check_state(self._state.failed)
        if record is not None:
            if pos < 0:
                raise RuntimeError("the draw record overflowed; fit fewer rows per call "
                                   "with record_draws=True")
            record = record[:pos]
        return attributes, record
