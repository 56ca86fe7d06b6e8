"""CB11's learners: AER (Fig. 2, Pegasos with the adaptive gradient estimate) and Baseline
(Fig. 1, the estimated loss minimised over the L1 ball).

AER runs in O(k log d) per step (``_aer.pyx``: scale factor, lazy average, an augmented treap
for the L1 projection and the draws ∝ |w_i|). Baseline accumulates its d × d estimate in O(k²)
per example and solves once at the end.
"""

import numpy as np

from .. import bounds
from .._validation import check_int, check_positive, check_rng
from ..exceptions import InvalidParameterError
from ._aer import AERState, baseline_accumulate
from ._base import BudgetedLearner
from .full_information import project_l1_ball
from .ridge import check_k

__all__ = ["AER", "Baseline", "aer_lambda"]


def aer_lambda(m, k, d, which="statement"):
    """λ of CB11 Thm 12.

    ``"statement"``: λ = 12 d √(log(m)/(mk)), as the theorem states it;
    ``"proof"``: λ = 16 d √(log(m)/(km)), the value the proof chooses ("Choosing λ = 16d…").
    The two differ (an inconsistency of the paper, kept both ways; see the lemma catalog).
    """
    if m < 2:
        raise InvalidParameterError(
            f"`lam`='theory' needs m >= 2 examples (CB11 Thm 12's λ has log m, 0 at m = 1); "
            f"got m={m} ({m} sample{'s' if m != 1 else ''}). Pass n_total or a float λ.")
    fid = {"statement": "CB11.Thm12.lambda", "proof": "CB11.Thm12.lambda_proof"}[which]
    return float(bounds.evaluate(fid, d=d, k=k, m=m))


def _check_even_k(k, d):
    k = check_k(k, d, low=2)
    if k % 2:
        raise InvalidParameterError(f"`k` must be even (CB11: k/2 attributes for v and k/2 for "
                                    f"ŷ; Fig. 1 splits C in halves); got k={k}.")
    return k


class _CB11Learner(BudgetedLearner):

    def _record(self, attributes, record):
        self.attributes_per_example_ = np.concatenate(
            [getattr(self, "attributes_per_example_", np.zeros(0, dtype=np.int64)), attributes])
        self.n_attributes_seen_ = int(self.attributes_per_example_.sum())
        self.max_attributes_per_example_ = int(self.attributes_per_example_.max(initial=0))
        if record is not None:
            self.draws_ = np.vstack([getattr(self, "draws_", record[:0]), record])





class AER(_CB11Learner):
    """Attribute Efficient Regression (CB11 Fig. 2, Sec. 6): Pegasos with the gradient estimate
    2(ŷ − y)v of eq. (8) and the projection (11) onto {‖w‖₁ <= B}; output the average w̄.

    Each example: v from a uniform k/2-subset C (eq. (6)), ŷ from k/2 independent draws
    i ∝ |w_i| (eq. (7), Fig. 2's loop: the "figure" reading, unbiased; CB11 Lemma 11), so at
    most k attributes are observed.

    Parameters
    ----------
    k : even int >= 2 (k/2 <= d)
    B : float > 0, the L1 radius.
    lam : "theory", "proof" or float > 0
        Pegasos' λ. ``"theory"``: CB11 Thm 12's λ = 12 d √(log m/(mk)) as stated (m = the rows
        of ``fit``, or ``n_total``); ``"proof"``: the proof's λ = 16 d √(log m/(km)).
    n_total : int or None, the m of the theory λ for ``partial_fit``.
    random_state : None, int, SeedSequence or Generator
    record_draws : bool, keep C and the draws i of each step (``draws_``, shape (m, k)).

    Attributes
    ----------
    coef_ (w̄), w_ (last iterate), lam_, n_steps_, n_attributes_seen_,
    max_attributes_per_example_, attributes_per_example_.
    """

    _algorithm = "CB11.AER"

    def __init__(self, k=4, B=1.0, lam="theory", n_total=None, random_state=None,
                 record_draws=False):
        self.k = k
        self.B = B
        self.lam = lam
        self.n_total = n_total
        self.random_state = random_state
        self.record_draws = record_draws

    def _lam(self, m, k, d):
        if isinstance(self.lam, str):
            if self.lam == "theory":
                return aer_lambda(m, k, d, "statement")
            if self.lam == "proof":
                return aer_lambda(m, k, d, "proof")
            raise InvalidParameterError(
                f"`lam` must be 'theory', 'proof' or a float > 0; got {self.lam!r}.")
        return check_positive("lam", self.lam)

    def fit(self, X, y):
        """One pass over (X, y) from w = 0 (Fig. 2); returns self."""
        for attr in ("_state", "coef_", "attributes_per_example_", "draws_"):
            if hasattr(self, attr):
                delattr(self, attr)
        X, y = self._data(X, y, reset=True)
        return self._partial(X, y, self.n_total if self.n_total is not None else X.shape[0])

    def fit_stream(self, X, y, n_steps):
        """``n_steps`` steps from w = 0 with the rows of (X, y) taken cyclically (a stream
        from a pool; no m × d array). ``lam="theory"`` takes m = n_steps (or ``n_total``)."""
        n_steps = check_int("n_steps", n_steps, low=1)
        for attr in ("_state", "coef_", "attributes_per_example_", "draws_"):
            if hasattr(self, attr):
                delattr(self, attr)
        X, y = self._data(X, y, reset=True)
        return self._partial(X, y, self.n_total if self.n_total is not None else n_steps,
                             n_steps=n_steps)

    def partial_fit(self, X, y):
        """Continue the pass (t, w, w̄ and the stream go on). ``lam="theory"`` takes m from
        ``n_total``, else from the first batch."""
        first = not hasattr(self, "_state")
        X, y = self._data(X, y, reset=first)
        return self._partial(X, y, self.n_total if self.n_total is not None else X.shape[0])

    def _partial(self, X, y, m_theory, n_steps=None):
        d = X.shape[1]
        if not hasattr(self, "_state"):
            k = _check_even_k(self.k, d)
            B = check_positive("B", self.B)
            lam = self._lam(m_theory, k, d)
            self._rng = check_rng(self.random_state)
            self._state = AERState(d, B, lam)
            self._k = k
            self.lam_ = lam
        k = self._k
        m = X.shape[0] if n_steps is None else n_steps
        attributes = np.zeros(m, dtype=np.int_)
        record = np.full((m, k), -1, dtype=np.int_) if self.record_draws else None
        self._state.run(self._rng, X, y, k, attributes, record,
                        -1 if n_steps is None else n_steps)
        self._record(attributes, record)
        self.n_steps_ = self._state.t
        self.coef_ = self._state.average()
        self.w_ = self._state.coef()
        return self


class Baseline(_CB11Learner):
    """CB11 Fig. 1 (Baseline): per example the estimates (A, v) from a uniform k-subset C split
    into halves I, J; the estimated loss L̃_S(w) = wᵀĀw ± wᵀv̄ + ȳ minimised over {‖w‖₁ <= B}.

    Parameters
    ----------
    k : even int >= 2, k <= d.
    B : float > 0, the L1 radius.
    variant : "corrected" (default) or "literal"
        ``"literal"`` is Fig. 1 as printed: L̃_S(w) = wᵀĀw + wᵀv̄ + ȳ with v̄ = Σ 2yv/m, and Ā
        with a zero diagonal whose off-diagonal mean is d/(d − 1)·x_i x_j. Both depart from the
        expansion (⟨w, x⟩ − y)² = wᵀxxᵀw − 2y xᵀw + y² written just above Fig. 1 (the "+"
        estimates the loss of −w) and from E[A] = xxᵀ used in the proof of Lemma 8 (errata
        in the lemma catalog). ``"corrected"`` uses −wᵀv̄, the off-diagonal times (d − 1)/d
        and the unbiased diagonal (d/k) Σ_{c ∈ C} x_c² (from the attributes C already shows,
        so the budget is unchanged): E[Ā] = E[xxᵀ].
    max_iter, tol : the solver's limits (below).
    random_state : None, int, SeedSequence or Generator
    record_draws : bool, keep each example's ordered k-sample (I = first half).

    Notes
    -----
    Ā need not be positive semidefinite (the literal Ā has trace 0, so it is indefinite unless
    0), and then the "argmin" of Fig. 1 is a nonconvex problem: CB11's remark that symmetrising
    makes it convex does not hold. The solver runs projected gradient with step 1/L,
    L = 2‖Ā‖₂, from w = 0 and from the best vertex ±B e_i of the ball, and keeps the lower
    objective; ``stationarity_`` is ‖w − Π(w − ∇L̃/L)‖₂ at the output (0 at a stationary
    point; a global minimum is certified only when ``convex_`` is True).
    """

    _algorithm = "CB11.Baseline"

    def __init__(self, k=4, B=1.0, variant="corrected", max_iter=10_000, tol=1e-10,
                 random_state=None, record_draws=False):
        self.k = k
        self.B = B
        self.variant = variant
        self.max_iter = max_iter
        self.tol = tol
        self.random_state = random_state
        self.record_draws = record_draws

    def fit(self, X, y):
        """Accumulate (Ā, v̄, ȳ) over one pass and minimise L̃_S over the L1 ball."""
        for attr in ("attributes_per_example_", "draws_"):
            if hasattr(self, attr):
                delattr(self, attr)
        X, y = self._data(X, y, reset=True)
        m, d = X.shape
        k = _check_even_k(self.k, d)
        B = check_positive("B", self.B)
        if self.variant not in ("corrected", "literal"):
            raise InvalidParameterError(
                f"`variant` must be 'corrected' or 'literal'; got {self.variant!r}.")
        max_iter = check_int("max_iter", self.max_iter, low=1)
        tol = check_positive("tol", self.tol)
        rng = check_rng(self.random_state)
        A = np.zeros((d, d))
        v = np.zeros(d)
        diag = np.zeros(d)
        attributes = np.zeros(m, dtype=np.int_)
        record = np.full((m, k), -1, dtype=np.int_) if self.record_draws else None
        baseline_accumulate(rng, X, y, k, A, v, diag, attributes, record)
        A /= m
        v /= m
        diag /= m
        ybar = float(np.mean(y * y))
        if self.variant == "corrected":
            A *= (d - 1) / d
            A[np.diag_indices(d)] = diag
            v = -v
        self._record(attributes, record)
        self.A_bar_, self.v_bar_, self.y_bar_ = A, v, ybar
        (self.coef_, self.objective_, self.stationarity_,
         self.n_iter_) = minimise_quadratic_l1(A, v, ybar, B, max_iter=max_iter, tol=tol)
        self.convex_ = bool(np.linalg.eigvalsh(A).min() >= 0.0)
        self.n_steps_ = m
        return self


def minimise_quadratic_l1(A, b, c, B, *, max_iter=10_000, tol=1e-10):
    """A minimiser (local when A is indefinite) of wᵀAw + wᵀb + c over {‖w‖₁ <= B}.

    Projected gradient with step 1/L (L = 2‖A‖₂, the gradient's Lipschitz constant) from 0
    and from the best vertex ±B e_i; returns (w, objective, stationarity residual, iterations
    of the run kept).
    """
    A = np.asarray(A, dtype=float)
    b = np.asarray(b, dtype=float)
    d = b.size
    L = max(2.0 * np.linalg.norm(A, 2), 1e-300)

    def objective(w):
        return float(w @ A @ w + w @ b + c)

    def residual(w):
        return float(np.linalg.norm(w - project_l1_ball(w - (2 * A @ w + b) / L, B)))

    # the vertices ±B e_i: f = B² A_ii ± B b_i + c
    vert = B * B * np.diag(A) - B * np.abs(b)
    i = int(np.argmin(vert))
    start_vertex = np.zeros(d)
    start_vertex[i] = -B * np.sign(b[i]) if b[i] != 0 else B
    best = None
    for w in (np.zeros(d), start_vertex):
        for it in range(1, max_iter + 1):
            w_next = project_l1_ball(w - (2 * A @ w + b) / L, B)
            if np.linalg.norm(w_next - w) <= tol * max(1.0, B):
                w = w_next
                break
            w = w_next
        f = objective(w)
        if best is None or f < best[1]:
            best = (w, f, it)
    return best[0], best[1], residual(best[0]), best[2]
