"""The lasso family as scikit-learn style estimators: AELR, GAELR, DDAELR.

HK12 Alg. 2 (AELR: uniform q), KS15 Alg. 3 (GAELR: any q) and KS15 Sec. 4.1 (DDAELR: q from
known second moments, Lemma 4.3). EG± with the clipped gradient, kept in the log domain
(``_lasso.pyx``); each step observes at most k + 1 attributes and costs O(k + log d).

From d = ``_sparse_min_d`` (2¹⁶) on, a run (other than from a warm start) keeps only the
coordinates it moves (``SparseLassoState``: no O(d) pass or array per run besides ``coef_`` and
``w_``); its draws have the dense state's law, not its random numbers.
"""

import numpy as np

from .. import bounds
from ..exceptions import InvalidParameterError
from ._base import DataPointSampling
from ._docstrings import shared_docstring
from ._lasso import LassoState, SparseLassoState
from ._specs import SPECS
from .ridge import MomentsGiveQ

__all__ = ["GAELR", "AELR", "DDAELR", "lasso_theory_step_size"]


def lasso_theory_step_size(m, k, B, q, second_moments, d, which="statement"):
    """The step size of the theorem behind GAELR, from ``laocheck.bounds`` (one source).

    With ``second_moments``: η = √(log 2d/(5 m G²)), the minimiser of KS15 Thm 4.1's
    B(log 2d/(ηm) + 5ηG²) with G² = 4B²((1/k) max_i E[x_i²]/q_i + 1) (KS15 Lemma 4.5,
    eq. (7)); for DDAELR (q ∝ E[x²]) this is KS15 Thm 4.6's η. Without them (AELR):
    HK12 Thm 3.4's η.

    Parameters
    ----------
    m : int
        The number of examples.
    k : int
        The attributes sampled for x̃ per example.
    B : float
        The L1 radius.
    q : ndarray of shape (d,) or None
        The data-point distribution (None: uniform).
    second_moments : ndarray of shape (d,) or None
        E[x_i²]; required when q is given.
    d : int
        The dimension.
    which : {"statement", "proof"}, default="statement"
        Without ``second_moments``: ``"statement"`` is HK12 Thm 3.4's η as printed,
        (1/(4B²))√(2k log 2d/(5md)); ``"proof"`` the proof's η = (1/G)√(log 2d/(5m)) with
        G² = 8B²d/k (HK12 Lemma 3.8), B times the printed one (the printed η is an erratum for
        B ≠ 1; see the lemma catalog).

    Returns
    -------
    float
        The step size η.

    Raises
    ------
    ValueError
        If q is given without ``second_moments``.
    """
    if second_moments is None:
        if q is not None:
            raise InvalidParameterError(
                "`eta`='theory' for GAELR needs `second_moments` (G² of KS15 Lemma 4.5); "
                "pass them or a float step size.")
        if which == "proof":
            return float(bounds.evaluate("HK12.Thm3.4.eta_proof", G=np.sqrt(8 * B * B * d / k),
                                         d=d, m=m))
        return float(bounds.evaluate("HK12.Thm3.4.eta", B=B, d=d, k=k, m=m))
    G2 = bounds.lasso_gradient_bound(B, k, second_moments, q)
    return float(bounds.lasso_step_size(m, d, G2))


@shared_docstring
class GAELR(DataPointSampling):
    """General Attribute Efficient Lasso Regression (KS15 Alg. 3; HK12 Alg. 2 for uniform q).

    As :class:`~laocheck.learners.GAERR` (``n_inner`` draws j ∝ |w_j| averaged in φ̃), without
    ``initial``: EG± starts at z⁺ = z⁻ = 1 (line 1), that is w_1 = 0, where the first residual
    is −y without a draw (laocheck's fallback; HK12/KS15 give no rule). The clipping threshold
    is 1/η (line 13). ``eta="theory"`` is :func:`lasso_theory_step_size` (KS15 Thm 4.1).

    Parameters
    ----------
    %(k)s
    B : float, default=1.0
        Radius of the L1 ball of the predictors, in [1e-100, 1e100].
    eta : "theory" or float, default="theory"
        Step size, a float in [1e-100, 1e100]; ``"theory"`` is the theorem's value (above) for
        m = the rows of ``fit`` (or ``n_total``).
    %(q)s
    %(second_moments)s
    %(n_inner)s
    %(n_total)s
    %(random_state)s
    %(record_draws)s

    Attributes
    ----------
    %(coef_)s
    %(w_)s
    %(eta_)s
    %(q_)s
    %(n_steps_)s
    %(n_attributes_seen_)s
    %(max_attributes_per_example_)s
    %(attributes_per_example_)s
    %(draws_)s
    %(n_features_in_)s
    """

    spec = SPECS["GAELR"]

    _algorithm = "KS15.GAELR"
    _step_names = ("theory", "proof")
    _warm_start = None          # set by TwoPhaseDDAELR's practical variant (KS15 Sec. 5)

    def __init__(self, k=4, B=1.0, eta="theory", q=None, second_moments=None, n_inner=1,
                 n_total=None, random_state=None, record_draws=False):
        self.k = k
        self.B = B
        self.eta = eta
        self.q = q
        self.second_moments = second_moments
        self.n_inner = n_inner
        self.n_total = n_total
        self.random_state = random_state
        self.record_draws = record_draws

    def _theory_step(self, name, m, d, config):
        k, B, q, moments = config
        which = "proof" if name == "proof" else "statement"
        return lasso_theory_step_size(m, k, B, q, moments, d, which=which)

    def _initial(self, d, B):
        return np.zeros(d)

    def _new_state(self, d, B, w1):
        if self._warm_start is None and d >= self._sparse_min_d:
            return SparseLassoState(d, B)
        state = LassoState(d, B)
        if self._warm_start is not None:
            state.warm_start(self._warm_start)
        return state


@shared_docstring
class AELR(GAELR):
    """HK12 Alg. 2 (Attribute Efficient Lasso Regression): GAELR with uniform q.

    ``eta="theory"`` is HK12 Thm 3.4's η as printed, (1/(4B²))√(2k log 2d/(5md));
    ``eta="proof"`` the η of its proof, B times larger (they differ unless B = 1: the printed
    one is an erratum, see ``laocheck verify --only 'HK12.Thm3.4*'``).

    Parameters
    ----------
    %(k)s
    B : float, default=1.0
        Radius of the L1 ball of the predictors, in [1e-100, 1e100].
    eta : "theory", "proof" or float, default="theory"
        Step size, a float in [1e-100, 1e100], or the theorem's (above).
    %(n_total)s
    %(random_state)s
    %(record_draws)s

    Attributes
    ----------
    %(coef_)s
    %(w_)s
    %(eta_)s
    q_ : None
        Uniform q.
    %(n_steps_)s
    %(n_attributes_seen_)s
    %(max_attributes_per_example_)s
    %(attributes_per_example_)s
    %(draws_)s
    %(n_features_in_)s
    """

    spec = SPECS["AELR"]

    _algorithm = "HK12.AELR"

    def __init__(self, k=4, B=1.0, eta="theory", n_total=None, random_state=None,
                 record_draws=False):
        super().__init__(k=k, B=B, eta=eta, q=None, second_moments=None, n_total=n_total,
                         random_state=random_state, record_draws=record_draws)


@shared_docstring
class DDAELR(MomentsGiveQ, GAELR):
    """KS15 Sec. 4.1 (DDAELR): GAELR with q_i ∝ E[x_i²] (Lemma 4.3) from known moments.

    ``eta="theory"`` is KS15 Thm 4.6's η (:func:`lasso_theory_step_size` with this q).

    Parameters
    ----------
    %(k)s
    B : float, default=1.0
        Radius of the L1 ball of the predictors, in [1e-100, 1e100].
    eta : "theory" or float, default="theory"
        Step size, a float in [1e-100, 1e100]; ``"theory"`` is the theorem's value (above) for
        m = the rows of ``fit`` (or ``n_total``).
    second_moments : array_like of shape (n_features,) or float
        E[x_i²] (required: ``fit`` raises without them), giving q (Lemma 4.3) and the theory
        step; a float is the same moment for every attribute (q is then uniform).
    %(n_inner)s
    %(n_total)s
    %(random_state)s
    %(record_draws)s

    Attributes
    ----------
    %(coef_)s
    %(w_)s
    %(eta_)s
    q_ : ndarray of shape (n_features,)
        q of Lemma 4.3.
    %(n_steps_)s
    %(n_attributes_seen_)s
    %(max_attributes_per_example_)s
    %(attributes_per_example_)s
    %(draws_)s
    %(n_features_in_)s
    """

    spec = SPECS["DDAELR"]

    _algorithm = "KS15.DDAELR"

    def __init__(self, k=4, B=1.0, eta="theory", second_moments=None, n_inner=1,
                 n_total=None, random_state=None, record_draws=False):
        super().__init__(k=k, B=B, eta=eta, q=None, second_moments=second_moments,
                         n_inner=n_inner, n_total=n_total, random_state=random_state,
                         record_draws=record_draws)

    _q_rule = "KS15 Lemma 4.3: q ∝ E[x_i²]"

    def _q(self, d):
        m = self._scaled(self._moments(d))
        return m / m.sum()                                     # KS15 Lemma 4.3
