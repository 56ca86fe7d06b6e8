"""The ridge family as scikit-learn style estimators: AERR, GAERR, DDAERR.

HK12 Alg. 1 (AERR: uniform q), KS15 Alg. 1 (GAERR: any q) and KS15 Sec. 3.1 (DDAERR: q from
known second moments, eq. (4)). Each step observes at most k + 1 attributes of its example and
costs O(k + log d) (``_ridge.pyx``); ``coef_`` is the averaged iterate w̄ (line 14).
"""

import numpy as np

from .. import bounds
from .._validation import (check_distribution, check_int, check_nonnegative_vector,
                           check_positive, check_rng, check_vector)
from ..estimators import AliasTable
from ..exceptions import InvalidParameterError
from ._base import BudgetedLearner
from ._ridge import RidgeState

__all__ = ["GAERR", "AERR", "DDAERR", "theory_step_size"]


def check_k(k, d, low=1):
    """k, an integer with low <= k <= d (k attributes of the d of an example: HK12, KS15 and
    CB11 sample within one example; k > d is no budget at all)."""
    k = check_int("k", k, low=low)
    if k > d:
        raise InvalidParameterError(
            f"`k` must satisfy k <= d (k of the d attributes of an example); got k={k} with "
            f"n_features = {d}.")
    return k


def theory_step_size(m, k, B, q=None, second_moments=None, d=None):
    """The step size of the theorem behind GAERR, from ``laocheck.bounds`` (one source).

    With ``second_moments``: η = 2B/(G√m), the minimiser of KS15 Thm 3.1's bound
    2B²/(ηm) + ηG²/2 with G² = 4B²((1/k) Σ_i E[x_i²]/q_i + 1) (KS15 Lemma 3.4, eq. (2));
    for DDAERR (q ∝ √E[x²]) this is KS15 Thm 3.5's η. Without them (AERR): HK12 Thm 3.1's
    η = √(k/(2dm)) (needs ``d``; None is returned when d is not given).
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


class GAERR(BudgetedLearner):
    """General Attribute Efficient Ridge Regression (KS15 Alg. 1; HK12 Alg. 1 for uniform q).

    Parameters
    ----------
    k : int, >= 1
        Attributes sampled for x̃ per example; one more is sampled for φ̃ (budget k + 1).
    B : float, > 0
        Radius of the L2 ball of the predictors.
    eta : "theory" or float > 0
        Step size. ``"theory"`` uses :func:`theory_step_size` with m = the rows of ``fit``
        (or ``n_total`` for ``partial_fit``).
    q : array or None
        Data-point distribution (KS15 Alg. 1 line 4); None is uniform (AERR).
    second_moments : array, float or None
        E[x_i²], used only for the theory step size (DDAERR: also for q). A float is the same
        moment for every attribute (then DDAERR's q is uniform).
    n_inner : int, >= 1
        Draws j averaged in φ̃ (budget k + n_inner). 1 is the papers' boxes (HK12 Alg. 1
        line 8, KS15 Alg. 1 line 8); KS15 Sec. 5 splits the budget "evenly" between x̃ and φ̃
        (there is no formula in the paper: ``n_inner`` is laocheck's reading of that split).
    initial : "uniform", "zero" or array
        w_1. HK12/KS15 line 1: "Initialize w_1 ≠ 0, ‖w_1‖₂ <= B arbitrarily"; the default
        ``"uniform"`` is w_1 = (B/√d)·1. ``"zero"`` starts at 0, where the residual of the
        first step is −y without a draw (laocheck's fallback).
    n_total : int or None
        The m of the theory step size for ``partial_fit``.
    random_state : None, int, SeedSequence or Generator
    record_draws : bool
        Keep the drawn indices (``draws_``, shape (m, k + n_inner), the j's −1 when none) for
        replay by the literal reference.

    Attributes
    ----------
    coef_ : the averaged iterate w̄; ``w_`` : the last iterate; ``eta_`` : the step size used;
    n_steps_ ; n_attributes_seen_ (total) ; max_attributes_per_example_ ;
    attributes_per_example_ (per step).
    """

    _algorithm = "KS15.GAERR"
    _eta_names = ("theory",)

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

    # -- validation ------------------------------------------------------------------------

    def _q(self, d):
        return None if self.q is None else check_distribution("q", self.q, d=d)

    def _moments(self, d):
        """``second_moments`` as a vector of length d (a float is broadcast)."""
        if self.second_moments is None:
            raise InvalidParameterError(
                f"`second_moments` (E[x_i²]) is required for {type(self).__name__}.")
        if np.ndim(self.second_moments) == 0:
            value = check_nonnegative_vector("second_moments", [self.second_moments])[0]
            return np.full(d, value)
        return check_nonnegative_vector("second_moments", self.second_moments, d=d)

    def _setup(self, d, m_theory):
        k = check_k(self.k, d)
        B = check_positive("B", self.B)
        n_inner = check_int("n_inner", self.n_inner, low=1)
        q = self._q(d)
        moments = None
        if self.second_moments is not None:
            moments = self._moments(d)
        if isinstance(self.eta, str):
            if self.eta not in self._eta_names:
                names = " or ".join(repr(n) for n in self._eta_names)
                raise InvalidParameterError(
                    f"`eta` must be {names} or a float > 0; got {self.eta!r}.")
            eta = self._theory_eta(m_theory, k, B, q, moments, d)
        else:
            eta = check_positive("eta", self.eta)
        w1 = self._initial(d, B)
        q_rows = None
        if q is not None:
            payload = np.zeros(d)
            payload[q > 0] = 1.0 / (k * q[q > 0])
            q_rows = AliasTable(q).with_payload(payload)
        return k, n_inner, B, q, eta, w1, q_rows

    def _theory_eta(self, m, k, B, q, moments, d):
        return theory_step_size(m, k, B, q, moments, d=d)

    def _new_state(self, d, B, w1):
        return RidgeState(w1, B)

    def _initial(self, d, B):
        if isinstance(self.initial, str):
            if self.initial == "uniform":
                w1 = np.full(d, B / np.sqrt(d))
            elif self.initial == "zero":
                w1 = np.zeros(d)
            else:
                raise InvalidParameterError(
                    f"`initial` must be 'uniform', 'zero' or an array; got {self.initial!r}.")
        else:
            w1 = check_vector("initial", self.initial, d=d)
            if np.linalg.norm(w1) > B * (1 + 1e-12):
                raise InvalidParameterError(
                    f"`initial` must satisfy ‖w_1‖₂ <= B; got ‖w_1‖₂={np.linalg.norm(w1):.6g}, B={B}.")
        return w1

    # -- scikit-learn API --------------------------------------------------------------------
    def fit(self, X, y):
        """One pass over (X, y) from w_1, as in the papers; returns self."""
        for attr in ("_state", "coef_"):
            if hasattr(self, attr):
                delattr(self, attr)
        X, y = self._data(X, y, reset=True)
        return self._partial(X, y, m_theory=X.shape[0] if self.n_total is None else self.n_total)

    def partial_fit(self, X, y):
        """Continue the pass with more rows (the state, the average and the stream go on).

        With ``eta="theory"`` the theorem's m is ``n_total`` if given, else the number of rows
        of the first call (the step size is fixed once, at the first call)."""
        first = not hasattr(self, "_state")
        X, y = self._data(X, y, reset=first)
        m_theory = self.n_total if self.n_total is not None else X.shape[0]
        return self._partial(X, y, m_theory=m_theory)

    def fit_stream(self, X, y, n_steps):
        """``n_steps`` steps from w_1, the rows of (X, y) taken cyclically: a stream from a
        pool of rows, for runs longer than any array one would hold (no m × d array; the
        benchmarks use it at d = 10⁵). The same as ``fit`` on the pool tiled to n_steps rows;
        ``eta="theory"`` takes m = n_steps (or ``n_total``). Returns self."""
        n_steps = check_int("n_steps", n_steps, low=1)
        for attr in ("_state", "coef_"):
            if hasattr(self, attr):
                delattr(self, attr)
        X, y = self._data(X, y, reset=True)
        return self._partial(X, y, n_steps if self.n_total is None else self.n_total,
                             n_steps=n_steps)

    def _partial(self, X, y, m_theory, n_steps=None):
        d = X.shape[1]
        if not hasattr(self, "_state"):
            k, n_inner, B, q, eta, w1, q_rows = self._setup(d, m_theory)
            self._rng = check_rng(self.random_state)
            self._state = self._new_state(d, B, w1)
            self._run_args = (k, q_rows, eta, n_inner)
            self.q_ = q
            self.eta_ = eta
            self.n_attributes_seen_ = 0
            self.max_attributes_per_example_ = 0
            self.attributes_per_example_ = np.zeros(0, dtype=np.int64)
            self.draws_ = (np.zeros((0, k + n_inner), dtype=np.int64) if self.record_draws
                           else None)
        k, q_rows, eta, n_inner = self._run_args
        if self.q_ is not None and not getattr(self, "_allow_zero_q", False):
            missing = (self.q_ == 0) & np.any(X != 0, axis=0)
            if np.any(missing):
                i = int(np.flatnonzero(missing)[0])
                raise InvalidParameterError(
                    f"`q` must be positive wherever X is nonzero (else x̃ is biased); got "
                    f"q[{i}]=0 with a nonzero X[:, {i}].")
        m = X.shape[0] if n_steps is None else n_steps
        attributes = np.zeros(m, dtype=np.int_)
        record = (np.full((m, k + n_inner), -1, dtype=np.int_) if self.record_draws
                  else None)
        self._state.run(self._rng, X, y, k, q_rows, eta, attributes, record, n_inner,
                        -1 if n_steps is None else n_steps)
        self.attributes_per_example_ = np.concatenate([self.attributes_per_example_, attributes])
        self.n_attributes_seen_ = int(self.attributes_per_example_.sum())
        self.max_attributes_per_example_ = int(self.attributes_per_example_.max(initial=0))
        if record is not None:
            self.draws_ = np.vstack([self.draws_, record])
        self.n_steps_ = self._state.t
        self.coef_ = self._state.average()
        self.w_ = self._state.coef()
        return self





class AERR(GAERR):
    """HK12 Alg. 1 (Attribute Efficient Ridge Regression): GAERR with uniform q.

    ``eta="theory"`` is HK12 Thm 3.1's η = √(k/(2dm)).
    """

    _algorithm = "HK12.AERR"

    def __init__(self, k=4, B=1.0, eta="theory", initial="uniform", n_total=None,
                 random_state=None, record_draws=False):
        super().__init__(k=k, B=B, eta=eta, q=None, second_moments=None, initial=initial,
                         n_total=n_total, random_state=random_state, record_draws=record_draws)


class DDAERR(GAERR):
    """KS15 Sec. 3.1 (DDAERR): GAERR with q_i ∝ √E[x_i²] (eq. (4)) from known moments.

    ``eta="theory"`` is KS15 Thm 3.5's η = 1/√(m((1/k)‖E[x²]‖_{1/2} + 1)).
    """

    _algorithm = "KS15.DDAERR"

    def __init__(self, k=4, B=1.0, eta="theory", second_moments=None, n_inner=1,
                 initial="uniform", n_total=None, random_state=None, record_draws=False):
        super().__init__(k=k, B=B, eta=eta, q=None, second_moments=second_moments,
                         n_inner=n_inner, initial=initial, n_total=n_total,
                         random_state=random_state, record_draws=record_draws)

    def _q(self, d):
        m = self._moments(d)
        return np.sqrt(m) / np.sqrt(m).sum()                  # KS15 eq. (4)
