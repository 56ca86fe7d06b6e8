"""Adaptive (AdaGrad-style) variants of the ridge learners: KS15 App. A, eq. (13), Figs. 7-8.

KS15 App. A replaces the global step size of OGD by a per-coordinate one,

    η_{t,i} = O(1/√(Σ_{s<=t} g̃_{s,i}²))                                   (KS15 eq. (13))

("running a separate copy of OGD for each attribute"), on the same unbiased gradient
estimates g̃_t as the non-adaptive algorithms, and compares them by simulation only (no theorem
is claimed). laocheck's reading, for every learner here:

* **Step**: G_{t,i} = Σ_{s<=t} g̃_{s,i}² (the sum includes the current step, as eq. (13)), and
  v = w_t − η₀ g̃_t / √G_t coordinate-wise; a coordinate with G_{t,i} = 0 has g̃_{s,i} = 0 for
  all s <= t and does not move (:func:`adagrad_step`). When all coordinates have the same
  G_{t,i} = G_t, this is exactly OGD with the global step η₀/√G_t.
* **Constant** η₀ (the O(·) of eq. (13), the parameter ``eta``): ``eta="theory"`` is
  η₀ = ``ADAGRAD_CONSTANT``·B = √2·B, AdaGrad's D_∞/√2 with D_∞ = 2B the ℓ∞-diameter bound of
  the L2 ball of radius B (Duchi, Hazan and Singer, JMLR 12 (2011), KS15 ref. [12]: the
  diagonal bound √2·D_∞·Σ_i ‖g_{1:T,i}‖₂ at η = D_∞/√2). A float is η₀ itself, so the
  experiments' ``StepScaled`` tunes a multiple of √2·B.
* **Projection**: KS15 does not say which; laocheck uses the *Euclidean* projection onto
  {‖w‖₂ <= B}, w ← v·B/max(‖v‖₂, B), the projection of the non-adaptive algorithms (HK12 Alg. 1
  line 12), so that an adaptive learner differs from its non-adaptive version in the step
  only. AdaGrad's own analysis projects in the Mahalanobis norm of diag(√G_t); its regret bound
  is therefore not claimed for these learners (neither does KS15).
* **Output**: the average w̄ of the iterates w_1..w_m (HK12 Alg. 1 line 14), as the
  non-adaptive learners.

Learners: :class:`AdaGAERR` (KS15 Alg. 1's estimate with any q), :class:`AdaAERR` (HK12
Alg. 1's, uniform q), :class:`AdaDDAERR` (KS15 Sec. 3.1's, q ∝ √E[x²], eq. (4)),
:class:`AdaTwoPhaseDDAERR` (KS15 Alg. 2: phase 1 as printed, then AdaGAERR with line 12's q),
each observing at most k + n_inner attributes per example (k + 1 in the papers' boxes), and the
full-information :class:`AdaOnlineRidge` (OGD on the exact gradient with the steps of eq. (13)).
KS15 App. A's adaptive "offline ERM" is the same constrained minimiser as offline ridge ("both
perform the same"): :class:`~laocheck.learners.OfflineRidge` serves for both, and no class is
added for it.

Implementation: O(d) per step, in C (``learners/_adaptive.pyx``: a few passes over d doubles
per step; the NumPy loop it replaced made a dozen interpreter round trips per step, about 40 µs
at d = 5). The non-adaptive learners' kernels keep w = s·u to make steps O(k + log d);
AdaGrad's per-coordinate steps break that representation, and App. A's experiments run at
d <= 784 where O(d) is cheap. Correctness first: the literal per-step transcription is
``laocheck.reference.learners.ada_gaerr``, and the catalog replays each learner on its
recorded draws (``<PAPER>.<Algo>.steps_match_reference``).

Randomness: x̃'s indices i ~ q and the uniforms of the draws j ∝ w_j² (by inversion of the
cumulative sums of w², which needs the iterate) are drawn from the learner's Generator in
blocks of ``BLOCK`` steps counted from the first step, so ``fit``, ``partial_fit`` in batches
and ``fit_stream`` consume the stream identically: the same seed gives the same numbers.
"""

import numpy as np

from . import _adaptive
from . import _full
from ._base import DataPointSampling, check_scale, raise_fault
from ._docstrings import shared_docstring
from ._specs import SPECS
from .full_information import _FullInformation, _OnlineFit
from .ridge import initial_point
from .two_phase import _TwoPhase, two_phase_ridge_phase2

__all__ = ["ADAGRAD_CONSTANT", "AdaAERR", "AdaDDAERR", "AdaGAERR", "AdaOnlineRidge",
           "AdaTwoPhaseDDAERR", "adagrad_step", "adagrad_theory_constant"]

#: η₀ = ADAGRAD_CONSTANT·B for ``eta="theory"``: AdaGrad's D_∞/√2 with D_∞ = 2B (module
#: docstring).
ADAGRAD_CONSTANT = float(np.sqrt(2.0))

#: Steps whose draws are taken from the Generator at once (counted from the first step).
BLOCK = 1024


def adagrad_theory_constant(B):
    """η₀ = √2·B, the ``eta="theory"`` constant of KS15 eq. (13) (module docstring).

    Parameters
    ----------
    B : float
        The L2 radius.

    Returns
    -------
    float
        √2·B (AdaGrad's D_∞/√2 with D_∞ = 2B).
    """
    return ADAGRAD_CONSTANT * check_scale("B", B, "a radius")


def adagrad_step(w, g, G, eta0):
    """One step of KS15 eq. (13) in place: G += g², then w_i −= η₀ g_i / √G_i where G_i > 0.

    A coordinate with G_i = 0 has had g_i = 0 throughout and stays. With G_i equal to one G for
    every i after the update, this is w − (η₀/√G)·g: OGD with the global step η₀/√G.

    Parameters
    ----------
    w : ndarray of shape (d,)
        The iterate, updated in place (not projected).
    g : ndarray of shape (d,)
        The gradient estimate g̃_t.
    G : ndarray of shape (d,)
        The accumulated squares Σ_{s<t} g̃_{s,i}², updated in place to include g.
    eta0 : float
        The constant η₀ of eq. (13).

    Returns
    -------
    ndarray of shape (d,)
        ``w`` (the same array), unprojected.
    """
    G += g * g
    w -= eta0 / np.sqrt(np.where(G > 0, G, 1.0)) * g        # G_i = 0: g_i = 0, w_i − 0
    return w


def _project_l2(w, B):
    """HK12 Alg. 1 line 12: w ← w·B/max(‖w‖₂, B) (in place)."""
    norm = float(np.sqrt(w @ w))
    if norm > B:
        w[:] = w * B / norm
    return norm


class _AdaState:
    """The state of an adaptive run: w, the accumulated squares G, Σ w_t, the step count and
    the block of pending draws."""

    def __init__(self, w1, B, d, k, n_inner, q):
        self.w = np.array(w1, dtype=float)
        self.G = np.zeros(d)
        self.total = np.zeros(d)
        self.B = B
        self.t = 0
        self.failed = 0
        self.k, self.n_inner = k, n_inner
        self.cq = None if q is None else np.cumsum(q) / np.sum(q)
        self.last_q = None if q is None else int(np.flatnonzero(np.asarray(q) > 0)[-1])
        self.I = self.U = None
        self.pos = BLOCK

    def coef(self):
        return self.w.copy()

    def average(self):
        """w̄ = (1/t) Σ_{τ<=t} w_τ (HK12 Alg. 1 line 14); the current w before any step."""
        return self.coef() if self.t == 0 else self.total / self.t

    def refill(self, rng, d):
        """Take the next block of draws from the Generator when the current one is used up:
        BLOCK rows of x̃'s k indices i ~ q and of n_inner uniforms for j."""
        if self.pos == BLOCK:
            if self.cq is None:
                self.I = rng.integers(0, d, size=(BLOCK, self.k))
            else:
                idx = np.searchsorted(self.cq, rng.random((BLOCK, self.k)), side="right")
                self.I = np.minimum(idx, self.last_q)       # q_i > 0 (rounding at the top)
            self.U = rng.random((BLOCK, self.n_inner))
            self.pos = 0


@shared_docstring
class AdaGAERR(DataPointSampling):
    """GAERR's gradient estimate (KS15 Alg. 1) with the per-coordinate steps of KS15 eq. (13).

    Each step: x̃ = (1/k) Σ_r x_{i_r}/q_{i_r} e_{i_r} from k draws i ~ q (lines 3-7), φ̃ =
    ‖w‖² x_j/w_j − y averaged over ``n_inner`` draws j ∝ w_j² (lines 8-9), g̃ = φ̃ x̃ (line
    10), then :func:`adagrad_step` and the Euclidean projection onto {‖w‖₂ <= B} (module
    docstring: the choice of projection). At most k + n_inner attributes per example. The
    adaptive GAERR of KS15 App. A (no theorem is claimed).

    Parameters
    ----------
    %(k)s
    %(B)s
    %(eta)s
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
    eta_ : float
        The η₀ used.
    %(q_)s
    %(G_)s
    %(n_steps_)s
    %(n_attributes_seen_)s
    %(max_attributes_per_example_)s
    %(attributes_per_example_)s
    %(draws_)s
    %(n_features_in_)s
    """

    spec = SPECS["AdaGAERR"]

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
        return ADAGRAD_CONSTANT * B

    def _initial(self, d, B):
        return initial_point(self.initial, d, B)

    def _start(self, d, config):
        k, n_inner, B, q, eta, w1, _q_rows = config
        self._state = _AdaState(w1, B, d, k, n_inner, q)
        self.q_ = q
        self.eta_ = eta

    def _sync(self):
        super()._sync()
        self.G_ = self._state.G.copy()

    def _advance(self, X, y, n_steps):
        self._check_q_rows(X)
        m = X.shape[0] if n_steps is None else n_steps
        fault = np.full(3, -1.0)             # the kernel's first bad entry read: row, column, value
        try:
            return self._blocks(m, X.shape[1],
                                lambda *args: _adaptive.steps(X, y, *args, fault))
        finally:
            if fault[0] >= 0:
                raise_fault(fault)

    def _advance_oracle(self, oracle, n_steps):
        """``_advance`` on an attribute oracle's next ``n_steps`` examples: the same draws and
        arithmetic, reading only x̃'s k attributes and the j's of each example."""
        self._check_q_oracle(oracle)
        return self._blocks(n_steps, oracle.d,
                            lambda *args: _adaptive.steps_oracle(oracle, *args))

    def _blocks(self, m, d, kernel):
        """``m`` steps through ``kernel(start, n, I, U, pos, q, w, G, total, B, eta,
        attributes, record, recording)``, one call per block of pre-drawn randomness."""
        st = self._state
        attributes, record = self._step_buffers(m, st.k + st.n_inner)
        q_arg = np.empty(0) if self.q_ is None else self.q_
        step = 0
        while step < m:
            st.refill(self._rng, d)
            n = min(m - step, BLOCK - st.pos)
            done = kernel(step, n, st.I, st.U, st.pos, q_arg, st.w, st.G, st.total, st.B,
                          self.eta_, attributes, record, record is not None)
            st.pos += done
            st.t += done
            step += done
            if done < n:               # a bad entry read, or ‖w‖ / Σ g̃² not finite: it stops
                st.failed = st.t
                break
        self._check_state(st.failed)
        return attributes, record


@shared_docstring
class AdaAERR(AdaGAERR):
    """HK12 Alg. 1's estimate (AERR: uniform q, x̃ weight d/k) with the steps of KS15 eq. (13).

    The adaptive AERR of KS15 App. A, Figs. 7-8 (no theorem is claimed).

    Parameters
    ----------
    %(k)s
    %(B)s
    %(eta)s
    %(n_inner)s
    %(initial)s
    %(n_total)s
    %(random_state)s
    %(record_draws)s

    Attributes
    ----------
    %(coef_)s
    %(w_)s
    eta_ : float
        The η₀ used.
    q_ : None
        Uniform q.
    %(G_)s
    %(n_steps_)s
    %(n_attributes_seen_)s
    %(max_attributes_per_example_)s
    %(attributes_per_example_)s
    %(draws_)s
    %(n_features_in_)s
    """

    spec = SPECS["AdaAERR"]

    def __init__(self, k=4, B=1.0, eta="theory", n_inner=1, initial="uniform", n_total=None,
                 random_state=None, record_draws=False):
        super().__init__(k=k, B=B, eta=eta, q=None, second_moments=None, n_inner=n_inner,
                         initial=initial, n_total=n_total, random_state=random_state,
                         record_draws=record_draws)


@shared_docstring
class AdaDDAERR(AdaGAERR):
    """DDAERR's estimate with the steps of KS15 eq. (13).

    DDAERR's q (KS15 Sec. 3.1, q_i ∝ √E[x_i²], eq. (4), from known second moments): the adaptive
    DDAERR of KS15 App. A, Figs. 7-8 (no theorem is claimed).

    Parameters
    ----------
    %(k)s
    %(B)s
    %(eta)s
    second_moments : array_like of shape (n_features,) or float
        E[x_i²] (required), giving q by eq. (4); a float is the same moment for every attribute.
    %(n_inner)s
    %(initial)s
    %(n_total)s
    %(random_state)s
    %(record_draws)s

    Attributes
    ----------
    %(coef_)s
    %(w_)s
    eta_ : float
        The η₀ used.
    q_ : ndarray of shape (n_features,)
        q of eq. (4).
    %(G_)s
    %(n_steps_)s
    %(n_attributes_seen_)s
    %(max_attributes_per_example_)s
    %(attributes_per_example_)s
    %(draws_)s
    %(n_features_in_)s
    """

    spec = SPECS["AdaDDAERR"]

    def __init__(self, k=4, B=1.0, eta="theory", second_moments=None, n_inner=1,
                 initial="uniform", n_total=None, random_state=None, record_draws=False):
        super().__init__(k=k, B=B, eta=eta, q=None, second_moments=second_moments,
                         n_inner=n_inner, initial=initial, n_total=n_total,
                         random_state=random_state, record_draws=record_draws)

    def _q(self, d):
        m = self._moments(d)
        return np.sqrt(m) / np.sqrt(m).sum()                  # KS15 eq. (4)


@shared_docstring
class AdaTwoPhaseDDAERR(_TwoPhase):
    """Two-Phased DDAERR (KS15 Alg. 2) with the per-coordinate steps of KS15 eq. (13).

    The adaptive Two-Phased DDAERR of KS15 App. A, Figs. 7-8. Phase 1 is
    :class:`~laocheck.learners.TwoPhaseDDAERR`'s (Alg. 2 lines 2-10: k + 1 uniform attributes
    per example estimate A; ``variant="practical"``: KS15 Sec. 5's phase 1, here run by
    :class:`AdaAERR`, whose output starts phase 2); phase 2 is :class:`AdaGAERR` with Alg. 2
    line 12's q (q_i ∝ √(A_i + 13ε/6), line 11's ε; ε = 0 in the practical variant, as there)
    instead of GAERR. Thm 3.12's η is not used, and no theorem is claimed (KS15 App. A states
    none).

    Parameters
    ----------
    k : int, default=4
        The budget parameter: k + 1 attributes per example in both phases, 1 <= k <= d.
    %(B)s
    %(eta)s
    %(m1)s
    %(delta)s
    %(variant)s
    initial : "uniform", "zero" or array_like, default="uniform"
        The initial point w_1 of phase 2 (Alg. 2 line 1); the practical variant starts phase 2
        at phase 1's output instead and uses ``initial`` for phase 1.
    n_total : int or None, default=None
        The m of the split into the phases when the run is fed by ``partial_fit``.
    %(random_state)s
    record_draws : bool, default=False
        Keep the drawn indices of each phase (``phase1_draws_``, ``phase2_draws_``).

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
        Phase 2's averaged iterate w̄, the output.
    %(w_)s
    eta_ : float
        Phase 2's η₀.
    %(moments_)s
    q_ : ndarray of shape (n_features,)
        Phase 2's q (line 12).
    %(eps_)s
    H_ : float
        Lemma 3.11's H of the estimate (theory variant).
    %(n_steps_)s
    %(n_attributes_seen_)s
    %(max_attributes_per_example_)s
    %(attributes_per_example_)s
    %(n_features_in_)s
    %(phase1_draws_)s
    %(phase2_draws_)s
    """

    spec = SPECS["AdaTwoPhaseDDAERR"]

    _algorithm = "KS15.AdaTwoPhaseDDAERR"

    def _eta0(self, B):
        return ADAGRAD_CONSTANT * B if isinstance(self.eta, str) else float(self.eta)

    def _phase1_learner(self, k, B, m1):
        k_x, n_inner = self._split(k)
        model = AdaAERR(k=k_x, B=B, eta=self._eta0(B), initial=self.initial, n_total=m1,
                        random_state=self._rng, record_draws=True)
        model.n_inner = n_inner
        return model

    def _phase2_theory(self, A, k, m1, m2, delta, B):
        q, _, eps, H = two_phase_ridge_phase2(A, k, m1, m2, delta)     # lines 11-12
        self.H_ = H
        return q, self._eta0(B), eps

    def _practical_weights(self, A):
        return np.sqrt(A)                                 # eq. (4) with ε = 0 (KS15 Sec. 5)

    def _phase2_practical_eta(self, A, k2, m2, B):
        return self._eta0(B)

    def _phase2_learner(self, k2, n_inner, B, q, eta, m2, start):
        initial = self.initial if start is None else start
        model = AdaGAERR(k=k2, B=B, eta=eta, q=q, n_inner=n_inner, initial=initial,
                         n_total=m2, random_state=self._rng, record_draws=self.record_draws)
        model._allow_zero_q = self.variant == "practical"
        return model


@shared_docstring
class AdaOnlineRidge(_OnlineFit, _FullInformation):
    """Projected OGD with the per-coordinate steps of KS15 eq. (13), all attributes seen.

    OGD on ½(wᵀx − y)² over {‖w‖₂ <= B} on the exact gradient g_t = (wᵀx − y)x: the adaptive
    online ridge of KS15 App. A, Figs. 7-8. Euclidean projection; ``coef_`` is the average of the
    iterates w_1..w_m, which start at 0 as :class:`~laocheck.learners.OnlineRidge`'s.

    Parameters
    ----------
    %(B)s
    %(eta)s

    Attributes
    ----------
    %(coef_)s
    %(w_)s
    eta_ : float
        The η₀ used.
    %(G_)s
    %(n_steps_)s
    n_attributes_seen_ : int
        m·d.
    max_attributes_per_example_ : int
        d.
    """

    def __init__(self, B=1.0, eta="theory"):
        self.B = B
        self.eta = eta

    @staticmethod
    def _theory(m, d, B):
        return ADAGRAD_CONSTANT * B

    def _kernel(self, X, y, rows, B, eta):
        d = X.shape[1]
        w, G, total = np.zeros(d), np.zeros(d), np.zeros(d)
        self._check_run(_full.ada_online_ridge(X, y, rows, eta, B, w, G, total))
        self.coef_, self.w_, self.eta_, self.G_ = total / rows.shape[0], w, eta, G

    def _reference_fit(self, X, y):
        """The literal NumPy loop ``fit``'s kernel follows (tests compare the two)."""
        X, y, m, d, B, eta = self._begin(X, y, self._theory)
        w, G, total = np.zeros(d), np.zeros(d), np.zeros(d)
        for t in range(m):
            total += w
            adagrad_step(w, (X[t] @ w - y[t]) * X[t], G, eta)
            _project_l2(w, B)
        self.coef_, self.w_, self.eta_, self.G_ = total / m, w, eta, G
        self._record(m, d)
        return self
