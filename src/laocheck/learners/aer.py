"""CB11's learners: AER (Fig. 2, Pegasos with the adaptive gradient estimate) and Baseline
(Fig. 1, the estimated loss minimised over the L1 ball).

AER runs in O(k log d) per step (``_aer.pyx``: scale factor, lazy average, an augmented B+-tree
for the L1 projection and the draws ∝ |w_i|), on rows (``fit``) or through an attribute oracle
(``fit_oracle``: the same kernel loop reads x_j only for the k/2 attributes of C and the k/2
draws i, so a step never touches a row). Baseline accumulates its d × d estimate in O(k²) per
example and solves once at the end.
"""

import math

import numpy as np

from .. import bounds
from .._validation import check_int, check_positive, check_real
from ..exceptions import InvalidParameterError
from ._aer import AERState, baseline_accumulate
from ._base import BudgetedLearner, check_k, raise_fault
from ._docstrings import shared_docstring
from ._specs import SPECS
from .full_information import _project_l1, project_l1_ball

__all__ = ["AER", "Baseline", "aer_lambda"]


def aer_lambda(m, k, d, which="statement"):
    """λ of CB11 Thm 12.

    The two readings differ (an inconsistency of the paper, kept both ways; see the lemma
    catalog).

    Parameters
    ----------
    m : int
        The number of examples.
    k : int
        The attributes per example.
    d : int
        The dimension.
    which : {"statement", "proof"}, default="statement"
        ``"statement"``: λ = 12 d √(log(m)/(mk)), as the theorem states it; ``"proof"``:
        λ = 16 d √(log(m)/(km)), the value the proof chooses ("Choosing λ = 16d…").

    Returns
    -------
    float
        The λ of the chosen reading.
    """
    if m < 2:
        raise InvalidParameterError(
            f"`lam`='theory' needs m >= 2 examples (CB11 Thm 12's λ has log m, 0 at m = 1); "
            f"got m={m} ({m} sample{'s' if m != 1 else ''}). Pass n_total or a float λ.")
    fid = {"statement": "CB11.Thm12.lambda", "proof": "CB11.Thm12.lambda_proof"}[which]
    return float(bounds.evaluate(fid, d=d, k=k, m=m))


def _check_even_k(k, d, half_of_d=False):
    """An even k >= 2 with k <= d (Baseline: a k-subset of [d]) or, ``half_of_d``, k/2 <= d
    (AER: C is a k/2-subset; the k/2 draws i may repeat coordinates)."""
    if half_of_d:
        k = check_int("k", k, low=2)
        if k // 2 > d:
            raise InvalidParameterError(
                f"`k` must satisfy k/2 <= d (C is a k/2-subset of the d attributes); got k={k} "
                f"with n_features = {d}.")
    else:
        k = check_k(k, d, low=2)
    if k % 2:
        raise InvalidParameterError(f"`k` must be even (CB11: k/2 attributes for v and k/2 for "
                                    f"ŷ; Fig. 1 splits C in halves); got k={k}.")
    return k


#: AER's first step moves w by at most Q·B with Q = 4 d max|x| (B max|x| + max|y|)/(k λ B)
#: (eq. (10) at t = 1 with |ŷ| <= (2/k)(k/2)‖w‖₁ max|x|... <= B max|x| and v_j <= (2/k) d |x_j|);
#: the O(log d) projection keeps its keys relative to one offset, so it is accurate to about
#: (256 + Q)·(k/2) units in the last place: Q is kept below 2^16, so that ‖w‖₁ <= B holds to
#: AER_BALL_RTOL (~1e-10 relative; scikit-learn's standardized test data have Q ~ 10⁴).
AER_MAX_STEP_RATIO = 2.0 ** 16
AER_BALL_RTOL = 1e-10


def aer_step_ratio_of(xmax, ymax, d, k, lam, B):
    """Q above, the largest first-step update of CB11 Fig. 2 in units of the radius B, from
    max|x| and max|y|: the largest entries a run on rows has read (the kernel checks Q as it
    reads them), or an oracle's sup|x_i|, sup|y|."""
    return 4.0 * d * xmax * (B * xmax + ymax) / (k * lam * B)


@shared_docstring
class AER(BudgetedLearner):
    """Attribute Efficient Regression (CB11 Fig. 2, Sec. 6): Pegasos with an estimated gradient.

    Pegasos with the gradient estimate 2(ŷ − y)v of eq. (8) and the projection (11) onto
    {‖w‖₁ <= B}; output the average w̄. Each example: v from a uniform k/2-subset C (eq. (6)),
    ŷ from k/2 independent draws i ∝ |w_i| (eq. (7), Fig. 2's loop: the "figure" reading,
    unbiased; CB11 Lemma 11), so at most k attributes are observed.

    Parameters
    ----------
    k : int, default=4
        Even, >= 2, with k/2 <= d: k/2 attributes for v, k/2 draws for ŷ.
    B : float, default=1.0
        Radius of the L1 ball of the predictors, in [1e-100, 1e100].
    lam : "theory", "proof" or float, default="theory"
        Pegasos' λ, a float in [1e-100, 1e100] large enough for the data (the first step may
        move w by at most 2^16 B, see ``AER_MAX_STEP_RATIO``; a smaller λ raises before any
        step). ``"theory"``: CB11 Thm 12's λ = 12 d √(log m/(mk)) as stated (m = the rows of
        ``fit``, or ``n_total``); ``"proof"``: the proof's λ = 16 d √(log m/(km)).
    n_total : int or None, default=None
        The m of the theory λ when the run is fed by ``partial_fit``.
    %(random_state)s
    record_draws : bool, default=False
        Keep C and the draws i of each step (``draws_``, shape (m, k)).

    Attributes
    ----------
    %(coef_)s
    %(w_)s
    %(n_steps_)s
    lam_ : float
        The λ used.
    %(n_attributes_seen_)s
    %(max_attributes_per_example_)s
    %(attributes_per_example_)s
    %(draws_)s
    %(n_features_in_)s
    """

    spec = SPECS["AER"]

    _algorithm = "CB11.AER"

    def __init__(self, k=4, B=1.0, lam="theory", n_total=None, random_state=None,
                 record_draws=False):
        self.k = k
        self.B = B
        self.lam = lam
        self.n_total = n_total
        self.random_state = random_state
        self.record_draws = record_draws

    _step_param = "lam"
    _step_names = ("theory", "proof")

    def _theory_step(self, name, m, d, config):
        if config > d:
            raise InvalidParameterError(
                f"`k` must satisfy k <= d for lam={name!r} (CB11 Thm 12 takes k of the d "
                f"attributes); got k={config} with n_features = {d}. Pass a float lam (the "
                f"algorithm itself needs only k/2 <= d).")
        return aer_lambda(m, config, d, "statement" if name == "theory" else "proof")

    def _validate(self, d, m):
        k = _check_even_k(self.k, d, half_of_d=True)
        B = self._radius()
        lam = self._step_size(m, d, k)
        return k, B, lam

    def _start(self, d, config):
        k, B, lam = config
        self._state = AERState(d, B, lam)
        self._state.max_ratio = AER_MAX_STEP_RATIO
        self._k = k
        self.lam_ = lam

    def _check_step_ratio(self, ratio, data):
        if ratio > AER_MAX_STEP_RATIO:
            raise InvalidParameterError(
                f"`lam`={self.lam_!r} is too small for {data} and B={self._state.B!r}: "
                f"CB11 Fig. 2's first step moves w by up to {ratio:.3g} times B, and the "
                f"O(log d) projection is accurate (iterate in the ball to {AER_BALL_RTOL:g}) only up to "
                f"{AER_MAX_STEP_RATIO:g}; need lam >= "
                f"{self.lam_ * ratio / AER_MAX_STEP_RATIO:.6g} (or smaller max|x|, max|y|).")

    def _advance(self, X, y, n_steps):
        """The kernel's steps on the rows; it checks each entry it reads (finite, <= 1e100)
        and, from the largest |x| and |y| read so far, the first step's move Q of
        ``aer_step_ratio_of`` (<= ``AER_MAX_STEP_RATIO``): an entry no step reads is never
        inspected, so Q is that of the entries the run uses."""
        k = self._k
        st = self._state
        attributes, record = self._step_buffers(X.shape[0] if n_steps is None else n_steps, k)
        st.run(self._rng, X, y, k, attributes, record, -1 if n_steps is None else n_steps)
        if st.ratio_fault:
            row, col, value = st.fault()
            where = f"y[{int(row)}]" if col < 0 else f"X[{int(row)}, {int(col)}]"
            self._check_step_ratio(
                aer_step_ratio_of(st.x_seen, st.y_seen, X.shape[1], k, self.lam_, st.B),
                f"the entries read (max|x| {st.x_seen!r}, max|y| {st.y_seen!r}, the last "
                f"{where}={value!r})")
        self._check_state(st.failed)
        return attributes, record

    def _advance_oracle(self, oracle, n_steps):
        """``_advance`` on ``n_steps`` examples of an attribute oracle: the same kernel loop,
        x_j read for the k/2 attributes of C and the k/2 draws i only (``AERState.run_oracle``);
        the step-ratio check uses the oracle's sup|x_i| and sup|y|."""
        k = self._k
        ratio = aer_step_ratio_of(oracle.x_max, oracle.y_max, oracle.d, k, self.lam_,
                                  self._state.B)
        self._check_step_ratio(ratio, "the oracle's sup|x|, sup|y|")
        attributes, record = self._step_buffers(n_steps, k)
        self._state.run_oracle(self._rng, oracle, k, attributes, record, n_steps)
        self._check_state(self._state.failed)
        return attributes, record


@shared_docstring
class Baseline(BudgetedLearner):
    """CB11 Fig. 1 (Baseline): the estimated loss minimised over the L1 ball.

    Per example the estimates (A, v) from a uniform k-subset C split into halves I, J; the
    estimated loss L̃_S(w) = wᵀĀw ± wᵀv̄ + ȳ minimised over {‖w‖₁ <= B}
    (:func:`minimise_quadratic_l1`).

    Parameters
    ----------
    k : int, default=4
        Even, >= 2, k <= d: the size of C.
    B : float, default=1.0
        Radius of the L1 ball of the predictors, in [1e-100, 1e100].
    variant : "corrected" or "literal", default="corrected"
        ``"literal"`` is Fig. 1 as printed: L̃_S(w) = wᵀĀw + wᵀv̄ + ȳ with v̄ = Σ 2yv/m, and Ā
        with a zero diagonal whose off-diagonal mean is d/(d − 1)·x_i x_j. Both depart from the
        expansion (⟨w, x⟩ − y)² = wᵀxxᵀw − 2y xᵀw + y² written just above Fig. 1 (the "+"
        estimates the loss of −w) and from E[A] = xxᵀ used in the proof of Lemma 8 (errata in
        the lemma catalog). ``"corrected"`` uses −wᵀv̄, the off-diagonal times (d − 1)/d and the
        unbiased diagonal (d/k) Σ_{c ∈ C} x_c² (from the attributes C already shows, so the
        budget is unchanged): E[Ā] = E[xxᵀ].
    max_iter : int, default=10000
        The solver's most iterations (Notes).
    tol : float, default=1e-10
        The solver's stationarity tolerance (Notes).
    %(random_state)s
    record_draws : bool, default=False
        Keep each example's ordered k-sample (I = first half) in ``draws_``.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
        The minimiser found, the output.
    A_bar_ : ndarray of shape (n_features, n_features)
        Ā.
    v_bar_ : ndarray of shape (n_features,)
        v̄ (with the variant's sign).
    y_bar_ : float
        ȳ, the mean of y².
    objective_ : float
        L̃_S at ``coef_``.
    stationarity_ : float
        ‖w − Π(w − ∇L̃/L)‖₂ at ``coef_`` (0 at a stationary point).
    n_iter_ : int
        The solver's iterations.
    convex_ : bool
        Whether Ā is positive semidefinite (then ``coef_`` is a global minimum).
    %(n_steps_)s
    %(n_attributes_seen_)s
    %(max_attributes_per_example_)s
    %(attributes_per_example_)s
    %(draws_)s
    %(n_features_in_)s

    Notes
    -----
    Ā need not be positive semidefinite (the literal Ā has trace 0, so it is indefinite unless
    0), and then the "argmin" of Fig. 1 is a nonconvex problem: CB11's remark that symmetrising
    makes it convex does not hold. The solver runs projected gradient with step 1/L,
    L = 2‖Ā‖₂, from w = 0 and from the best vertex ±B e_i of the ball, and keeps the lower
    objective; ``stationarity_`` is ‖w − Π(w − ∇L̃/L)‖₂ at the output (0 at a stationary
    point; a global minimum is certified only when ``convex_`` is True).
    """

    spec = SPECS["Baseline"]

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

    _step_names = ()

    def _validate(self, d, m):
        k = _check_even_k(self.k, d)
        B = self._radius()
        if self.variant not in ("corrected", "literal"):
            raise InvalidParameterError(
                f"`variant` must be 'corrected' or 'literal'; got {self.variant!r}.")
        max_iter = check_int("max_iter", self.max_iter, low=1, high=2**40)
        tol = check_positive("tol", self.tol)
        return k, B, max_iter, tol

    def _start(self, d, config):
        self._config = config
        # the sums of Fig. 1's loop and the permutation its k-samples are drawn from
        self._state = _BaselineSums(d)

    def _advance(self, X, y, n_steps):
        k = self._config[0]
        st = self._state
        P = X.shape[0]
        m = P if n_steps is None else n_steps
        attributes, record = self._step_buffers(m, k)
        fault = np.full(3, -1.0)             # the kernel's first bad entry read
        done = 0
        while done < m:                      # fit_stream: whole passes over the pool, then a part
            take = min(P, m - done)
            baseline_accumulate(self._rng, X[:take], y[:take], k, st.A, st.v, st.diag,
                                attributes[done:done + take],
                                None if record is None else record[done:done + take],
                                st.perm, fault)
            raise_fault(None if fault[0] < 0 else fault)
            st.ysq += float(np.sum(y[:take] * y[:take]))
            done += take
        st.t += m
        return attributes, record

    def _sync(self):
        """Minimise the estimated loss of the examples so far over the L1 ball."""
        k, B, max_iter, tol = self._config
        st = self._state
        m, d = st.t, st.A.shape[0]
        A = st.A / m
        v = st.v / m
        diag = st.diag / m
        ybar = st.ysq / m
        if self.variant == "corrected":
            A *= (d - 1) / d
            A[np.diag_indices(d)] = diag
            v = -v
        self.A_bar_, self.v_bar_, self.y_bar_ = A, v, ybar
        (self.coef_, self.objective_, self.stationarity_,
         self.n_iter_) = minimise_quadratic_l1(A, v, ybar, B, max_iter=max_iter, tol=tol)
        self.convex_ = bool(np.linalg.eigvalsh(A).min() >= 0.0)
        self.n_steps_ = m


class _BaselineSums:
    """Σ_t A_t, Σ_t 2y v_t, Σ_t (d/k) Σ_{c ∈ C} x_c², Σ_t y², t and the permutation of the
    partial Fisher-Yates draws (kept, so that batches continue one stream of k-samples)."""

    def __init__(self, d):
        self.A = np.zeros((d, d))
        self.v = np.zeros(d)
        self.diag = np.zeros(d)
        self.ysq = 0.0
        self.t = 0
        self.perm = np.arange(d, dtype=np.int_)


def minimise_quadratic_l1(A, b, c, B, *, max_iter=10_000, tol=1e-10):
    """A minimiser (local when A is indefinite) of wᵀAw + wᵀb + c over {‖w‖₁ <= B}.

    Projected gradient with step 1/L (L = 2‖A‖₂, the gradient's Lipschitz constant) from 0
    and from the best vertex ±B e_i; the run with the lower objective is kept. CB11 Fig. 1's
    argmin (Baseline).

    Parameters
    ----------
    A : ndarray of shape (d, d)
        The symmetric quadratic term.
    b : ndarray of shape (d,)
        The linear term.
    c : float
        The constant term.
    B : float
        The L1 radius.
    max_iter : int, default=10000
        The most iterations of each run.
    tol : float, default=1e-10
        The stationarity residual at which a run stops.

    Returns
    -------
    w : ndarray of shape (d,)
        The minimiser found.
    objective : float
        The value wᵀAw + wᵀb + c at w.
    stationarity : float
        The residual ‖w − Π(w − ∇/L)‖₂ at w (0 at a stationary point).
    n_iter : int
        The iterations of the run kept.

    Raises
    ------
    ValueError
        If B is not a positive normal double.
    """
    A = np.asarray(A, dtype=float)
    b = np.asarray(b, dtype=float)
    B = check_real("B", B, low=np.finfo(np.float64).tiny,
                   rule="a positive normal double (the L1 ball's radius)")
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
            v = w - (2 * A @ w + b) / L
            if not math.isfinite(v.sum()):                # checked here, then projected in C
                raise InvalidParameterError(
                    f"the projected gradient on wᵀAw + wᵀb over the L1 ball of radius B={B!r} "
                    f"overflowed (‖A‖₂ {L / 2!r}, max|b| {float(np.abs(b).max())!r}); rescale.")
            w_next = _project_l1(v, B)
            if np.linalg.norm(w_next - w) <= tol * max(1.0, B):
                w = w_next
                break
            w = w_next
        f = objective(w)
        if best is None or f < best[1]:
            best = (w, f, it)
    return best[0], best[1], residual(best[0]), best[2]
