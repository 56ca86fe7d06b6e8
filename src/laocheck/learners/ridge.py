"""The ridge family as scikit-learn style estimators: AERR, GAERR, DDAERR.

HK12 Alg. 1 (AERR: uniform q), KS15 Alg. 1 (GAERR: any q) and KS15 Sec. 3.1 (DDAERR: q from
known second moments, eq. (4)). Each step observes at most k + 1 attributes of its example and
costs O(k + log d) (``_ridge.pyx``); ``coef_`` is the averaged iterate w̄ (line 14).

From d = ``_sparse_min_d`` (2¹⁶) on, a run from a named initial point (``"uniform"``,
``"zero"``) keeps only the coordinates it moves (``SparseRidgeState``: no O(d) pass or array
per run besides ``coef_`` and ``w_``); its draws have the dense state's law, not its random
numbers. An array initial point always runs on the dense state.
"""

import numpy as np

from .. import bounds
from .._validation import check_vector
from ..exceptions import InvalidParameterError
from ._base import DataPointSampling
from ._docstrings import shared_docstring
from ._ridge import RidgeState, SparseRidgeState
from ._specs import SPECS

__all__ = ["GAERR", "AERR", "DDAERR", "theory_step_size", "initial_point"]


def initial_point(initial, d, B):
    """w_1 of HK12/KS15 line 1 ("Initialize w_1 ≠ 0, ‖w_1‖₂ <= B arbitrarily"): ``"uniform"``
    is (B/√d)·1, ``"zero"`` is 0 (laocheck's fallback), an array must lie in the ball."""
    if isinstance(initial, str):
        return np.full(d, initial_coordinate(initial, d, B))
    w1 = check_vector("initial", initial, d=d)
    if np.linalg.norm(w1) > B * (1 + 1e-12):
        raise InvalidParameterError(
            f"`initial` must satisfy ‖w_1‖₂ <= B; got ‖w_1‖₂={np.linalg.norm(w1):.6g}, B={B}.")
    return w1


def initial_coordinate(initial, d, B):
    """The common coordinate of a named w_1: B/√d (``"uniform"``) or 0 (``"zero"``)."""
    if initial == "uniform":
        return float(B / np.sqrt(d))
    if initial == "zero":
        return 0.0
    raise InvalidParameterError(
        f"`initial` must be 'uniform', 'zero' or an array; got {initial!r}.")


def theory_step_size(m, k, B, q=None, second_moments=None, d=None):
    """The step size of the theorem behind GAERR, from ``laocheck.bounds`` (one source).

    With ``second_moments``: η = 2B/(G√m), the minimiser of KS15 Thm 3.1's bound
    2B²/(ηm) + ηG²/2 with G² = 4B²((1/k) Σ_i E[x_i²]/q_i + 1) (KS15 Lemma 3.4, eq. (2));
    for DDAERR (q ∝ √E[x²]) this is KS15 Thm 3.5's η. Without them (AERR): HK12 Thm 3.1's
    η = √(k/(2dm)).

    Parameters
    ----------
    m : int
        The number of examples.
    k : int
        The attributes sampled for x̃ per example.
    B : float
        The L2 radius.
    q : ndarray of shape (d,) or None, default=None
        The data-point distribution (None: uniform).
    second_moments : ndarray of shape (d,) or None, default=None
        E[x_i²]; required when q is given.
    d : int or None, default=None
        The dimension, needed without ``second_moments``.

    Returns
    -------
    float or None
        The step size η; None without ``second_moments`` and d.

    Raises
    ------
    ValueError
        If q is given without ``second_moments``.
    """
    if second_moments is None:
        if q is not None:
            raise InvalidParameterError(
                "`eta`='theory' for GAERR needs `second_moments` (G² of KS15 Lemma 3.4); "
                "pass them or a float step size.")
        if d is None:
            return None
        return float(bounds.evaluate("HK12.Thm3.1.eta", d=d, k=k, m=m))
    G2 = bounds.ridge_gradient_bound(B, k, second_moments, q)
    return float(bounds.ridge_step_size(m, B, G2))


@shared_docstring
class GAERR(DataPointSampling):
    """General Attribute Efficient Ridge Regression (KS15 Alg. 1; HK12 Alg. 1 for uniform q).

    Each step draws k indices i ~ q for x̃ (lines 3-7) and ``n_inner`` indices j ∝ w_j² for φ̃
    (lines 8-9), takes the step η g̃ = η φ̃ x̃ and projects onto {‖w‖₂ <= B} (lines 10-13);
    ``coef_`` is the average w̄ (line 14). ``eta="theory"`` is :func:`theory_step_size`: KS15
    Thm 3.1's η with G² of KS15 Lemma 3.4 (needs ``second_moments`` when q is given).

    Parameters
    ----------
    %(k)s
    %(B)s
    eta : "theory" or float, default="theory"
        Step size, a float in [1e-100, 1e100]; ``"theory"`` is the theorem's value (above) for
        m = the rows of ``fit`` (or ``n_total``).
    %(q)s
    %(second_moments)s
    %(n_inner)s
    %(initial)s
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

    spec = SPECS["GAERR"]

    _algorithm = "KS15.GAERR"

    def __init__(self, k=4, B=1.0, eta="theory", q=None, second_moments=None, n_inner=1,
                 initial="uniform", n_total=None, random_state=None, record_draws=False):
        self.k = k
        self.B = B
        self.eta = eta
        self.q = q
        self.second_moments = second_moments
        self.n_inner = n_inner
        self.initial = initial
        self.n_total = n_total
        self.random_state = random_state
        self.record_draws = record_draws

    def _theory_step(self, name, m, d, config):
        k, B, q, moments = config
        return theory_step_size(m, k, B, q, moments, d=d)

    def _new_state(self, d, B, w1):
        if np.ndim(w1) == 0:                    # a named w_1 at d >= _sparse_min_d (_initial)
            return SparseRidgeState(d, w1, B)
        return RidgeState(w1, B)

    def _initial(self, d, B):
        """w_1, or only its common coordinate (a float) where the sparse state will run."""
        if isinstance(self.initial, str) and d >= self._sparse_min_d:
            return initial_coordinate(self.initial, d, B)
        return initial_point(self.initial, d, B)


@shared_docstring
class AERR(GAERR):
    """HK12 Alg. 1 (Attribute Efficient Ridge Regression): GAERR with uniform q.

    ``eta="theory"`` is HK12 Thm 3.1's η = √(k/(2dm)).

    Parameters
    ----------
    %(k)s
    %(B)s
    eta : "theory" or float, default="theory"
        Step size, a float in [1e-100, 1e100]; ``"theory"`` is the theorem's value (above) for
        m = the rows of ``fit`` (or ``n_total``).
    %(initial)s
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

    spec = SPECS["AERR"]

    _algorithm = "HK12.AERR"

    def __init__(self, k=4, B=1.0, eta="theory", initial="uniform", n_total=None,
                 random_state=None, record_draws=False):
        super().__init__(k=k, B=B, eta=eta, q=None, second_moments=None, initial=initial,
                         n_total=n_total, random_state=random_state, record_draws=record_draws)


class MomentsGiveQ:
    """For the learners whose q comes from ``second_moments`` (DDAERR, DDAELR): the errors
    about q, the theory step and its constants name ``second_moments``, the parameter the
    user gave, not the q, S or G derived from it."""

    #: how q follows from the moments, for messages
    _q_rule = "q"

    def _check_q(self, nonzero, where, what):
        if self.q_ is None:
            return
        missing = (self.q_ == 0) & nonzero()
        if np.any(missing):
            i = int(np.flatnonzero(missing)[0])
            value = float(self._moments(self.q_.size)[i])
            raise InvalidParameterError(
                f"`second_moments` must give q_i > 0 wherever {where} ({self._q_rule}; else x̃ "
                f"is biased); got second_moments[{i}]={value!r}, for which q_{i} = 0, with "
                + what.format(i=i) + ".")

    def _theory_step(self, name, m, d, config):
        try:
            return super()._theory_step(name, m, d, config)
        except InvalidParameterError:
            moments = config[3]
            raise InvalidParameterError(
                f"`second_moments` must give a finite theory step size ({self._q_rule}, "
                f"then the step's constants); got entries from {moments.min():g} to "
                f"{moments.max():g}, for which they overflow or underflow: rescale X and "
                "second_moments, or pass a float `eta`.") from None

    @staticmethod
    def _scaled(m):
        """``m`` divided by its largest entry when its sum overflows (q is scale-free)."""
        return m / m.max() if not np.isfinite(m.sum()) else m


@shared_docstring
class DDAERR(MomentsGiveQ, GAERR):
    """KS15 Sec. 3.1 (DDAERR): GAERR with q_i ∝ √E[x_i²] (eq. (4)) from known moments.

    ``eta="theory"`` is KS15 Thm 3.5's η = 1/√(m((1/k)‖E[x²]‖_{1/2} + 1)).

    Parameters
    ----------
    %(k)s
    %(B)s
    eta : "theory" or float, default="theory"
        Step size, a float in [1e-100, 1e100]; ``"theory"`` is the theorem's value (above) for
        m = the rows of ``fit`` (or ``n_total``).
    second_moments : array_like of shape (n_features,) or float
        E[x_i²] (required: ``fit`` raises without them), giving q (eq. (4)) and the theory step;
        a float is the same moment for every attribute (q is then uniform).
    %(n_inner)s
    %(initial)s
    %(n_total)s
    %(random_state)s
    %(record_draws)s

    Attributes
    ----------
    %(coef_)s
    %(w_)s
    %(eta_)s
    q_ : ndarray of shape (n_features,)
        q of eq. (4).
    %(n_steps_)s
    %(n_attributes_seen_)s
    %(max_attributes_per_example_)s
    %(attributes_per_example_)s
    %(draws_)s
    %(n_features_in_)s
    """

    spec = SPECS["DDAERR"]

    _algorithm = "KS15.DDAERR"

    def __init__(self, k=4, B=1.0, eta="theory", second_moments=None, n_inner=1,
                 initial="uniform", n_total=None, random_state=None, record_draws=False):
        super().__init__(k=k, B=B, eta=eta, q=None, second_moments=second_moments,
                         n_inner=n_inner, initial=initial, n_total=n_total,
                         random_state=random_state, record_draws=record_draws)

    _q_rule = "KS15 eq. (4): q ∝ √E[x_i²]"

    def _q(self, d):
        m = self._moments(d)
        return np.sqrt(m) / np.sqrt(m).sum()                  # KS15 eq. (4)
