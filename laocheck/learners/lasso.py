"""The lasso family as scikit-learn style estimators: AELR, GAELR, DDAELR.

HK12 Alg. 2 (AELR: uniform q), KS15 Alg. 3 (GAELR: any q) and KS15 Sec. 4.1 (DDAELR: q from
known second moments, Lemma 4.3). EG± with the clipped gradient, kept in the log domain
(``_lasso.pyx``); each step observes at most k + 1 attributes and costs O(k + log d).
"""

import numpy as np

from ..exceptions import InvalidParameterError
from ._lasso import LassoState
from .ridge import GAERR

__all__ = ["GAELR", "AELR", "DDAELR", "lasso_theory_step_size"]


def lasso_theory_step_size(m, k, B, q, second_moments, d):
    """η = √(log 2d / (5 m G²)), the minimiser of KS15 Thm 4.1's B(log 2d/(ηm) + 5ηG²).

    G² = 4B²((1/k) max_i E[x_i²]/q_i + 1) (KS15 Lemma 4.5 with eq. (7)); for DDAELR
    (q ∝ E[x²]) this is KS15 Thm 4.6's η = (1/2B)√(log 2d / (5m((1/k)‖E[x²]‖₁ + 1))).
    For AELR without moments: HK12 Thm 3.4's η as printed, (1/(4B²))√(2k log 2d/(5md)).
    """
    if second_moments is None:
        if q is not None:
            raise InvalidParameterError(
                "`eta`='theory' for GAELR needs `second_moments` (G² of KS15 Lemma 4.5); "
                "pass them or a float step size.")
        return float(np.sqrt(2 * k * np.log(2 * d) / (5 * m * d)) / (4 * B ** 2))
    mom = np.asarray(second_moments, dtype=float)
    qq = np.full(d, 1.0 / d) if q is None else np.asarray(q, dtype=float)
    ratio = np.where(mom > 0, mom / np.where(qq > 0, qq, 1.0), 0.0)
    G_sq = 4 * B ** 2 * (ratio.max() / k + 1)
    return float(np.sqrt(np.log(2 * d) / (5 * m * G_sq)))


class GAELR(GAERR):
    """General Attribute Efficient Lasso Regression (KS15 Alg. 3; HK12 Alg. 2 for uniform q).

    Parameters as :class:`~laocheck.learners.GAERR` (``n_inner`` draws j ∝ |w_j| averaged
    in φ̃), without ``initial``: EG± starts at
    z⁺ = z⁻ = 1 (line 1), that is w_1 = 0, where the first residual is −y without a draw
    (laocheck's fallback; HK12/KS15 give no rule). ``B`` is the L1 radius. The clipping
    threshold is 1/η (line 13).
    """

    _algorithm = "KS15.GAELR"

    def __init__(self, k=4, B=1.0, eta="theory", q=None, second_moments=None, n_inner=1,
                 n_total=None, random_state=None, record_draws=False):
        super().__init__(k=k, B=B, eta=eta, q=q, second_moments=second_moments,
                         n_inner=n_inner, initial="zero", n_total=n_total,
                         random_state=random_state, record_draws=record_draws)

    def _theory_eta(self, m, k, B, q, moments, d):
        return lasso_theory_step_size(m, k, B, q, moments, d)

    def _initial(self, d, B):
        return np.zeros(d)

    def _new_state(self, d, B, w1):
        state = LassoState(d, B)
        start = getattr(self, "_warm_start", None)      # set by TwoPhaseDDAELR (KS15 Sec. 5)
        if start is not None:
            state.warm_start(start)
        return state


class AELR(GAELR):
    """HK12 Alg. 2 (Attribute Efficient Lasso Regression): GAELR with uniform q."""

    _algorithm = "HK12.AELR"

    def __init__(self, k=4, B=1.0, eta="theory", n_total=None, random_state=None,
                 record_draws=False):
        super().__init__(k=k, B=B, eta=eta, q=None, second_moments=None, n_total=n_total,
                         random_state=random_state, record_draws=record_draws)


class DDAELR(GAELR):
    """KS15 Sec. 4.1 (DDAELR): GAELR with q_i ∝ E[x_i²] (Lemma 4.3) from known moments."""

    _algorithm = "KS15.DDAELR"

    def __init__(self, k=4, B=1.0, eta="theory", second_moments=None, n_inner=1,
                 n_total=None, random_state=None, record_draws=False):
        super().__init__(k=k, B=B, eta=eta, q=None, second_moments=second_moments,
                         n_inner=n_inner, n_total=n_total, random_state=random_state,
                         record_draws=record_draws)

    def _q(self, d):
        m = self._moments(d)
        return m / m.sum()                                     # KS15 Lemma 4.3
