"""KS15's two-phased learners: TwoPhaseDDAERR (Alg. 2) and TwoPhaseDDAELR (Alg. 4).

Phase 1 (the first m₁ examples) estimates E[x_i²] from uniformly sampled attributes; phase 2
(the next m₂) runs GAERR / GAELR with q from the estimate, smoothed by the confidence width ε.

``variant="theory"`` is the algorithm box with the step size of KS15 Thm 3.12 / Thm 4.7.
``variant="practical"`` is what KS15 Sec. 5 ran: AERR / AELR during phase 1 (its x̃ draws are
uniform, so they estimate the moments too) and its output as phase 2's starting point, ε = 0,
and the k + 1 attributes split evenly between x̃ and φ̃ (``n_inner``). Sec. 5 tuned the step
sizes by cross-validation; laocheck's practical default is each phase's own theory step
(AERR/AELR: HK12 Thm 3.1/3.4; phase 2: DDAERR/DDAELR's KS15 Thm 3.5/4.6 with the estimated
moments plugged in), and a float ``eta`` is used in both phases.

``fit_oracle`` runs both phases on consecutive examples of one attribute oracle: phase 1 reads
its k + 1 uniform attributes with ``oracle.reveal`` (theory) or runs AERR / AELR's
``fit_oracle`` through a ``TapOracle`` that keeps the x̃ values the kernel read (practical: the
estimate needs them after the run), then phase 2's ``fit_oracle`` takes the next examples; the
same random numbers and arithmetic as ``fit`` on rows.
"""

import numpy as np

from .. import bounds
from .._validation import check_int, check_real
from ..data._oracle import TapOracle
from ..exceptions import InvalidParameterError
from ._base import SCALE_RANGE, BadEntryError, BudgetedLearner, check_k, check_scale
from ._docstrings import shared_docstring
from ._specs import SPECS
from .lasso import AELR, GAELR
from .ridge import AERR, GAERR

__all__ = ["TwoPhaseDDAERR", "TwoPhaseDDAELR", "two_phase_ridge_phase2",
           "two_phase_lasso_phase2"]


def two_phase_ridge_phase2(A, k, m1, m2, delta):
    """q and η of KS15 Alg. 2 lines 11-12 and Thm 3.12 from the phase-1 moments ``A``.

    The formulas come from ``laocheck.bounds``: ε = d log(2d/δ)/((k+1)m₁);
    q_i ∝ √(A_i + 13ε/6); H = ‖2A + 10ε/3‖_{1/2} (Lemma 3.11);
    η = max(√(k/(6dm₂)), √(k/(m₂(2H + 2√(5/3)·d·√H·√(d log(2d/δ)/((k+1)m₁)) + k)))).

    Parameters
    ----------
    A : array_like of shape (d,)
        Phase 1's estimate of E[x_i²].
    k : int
        The budget parameter (k + 1 attributes per example).
    m1 : int
        Phase 1's examples.
    m2 : int
        Phase 2's examples.
    delta : float
        The confidence δ of ε.

    Returns
    -------
    q : ndarray of shape (d,)
        Phase 2's data-point distribution.
    eta : float
        Phase 2's step size.
    eps : float
        The confidence width ε.
    H : float
        The H of Lemma 3.11.
    """
    A = np.asarray(A, dtype=float)
    d = A.size
    eps = float(bounds.evaluate("KS15.Alg2.eps", d=d, delta=delta, k=k, m1=m1))
    root = np.sqrt(A + 13.0 / 6.0 * eps)
    q = root / root.sum()
    H = float(bounds.two_phase_H(A, eps))
    eta = bounds.evaluate("KS15.Thm3.12.eta", H=H, d=d, delta=delta, k=k, m1=m1, m2=m2)
    return q, float(eta), eps, H


def two_phase_lasso_phase2(A, k, m1, m2, delta, B):
    """q and η of KS15 Alg. 4 lines 11-12 and Thm 4.7 from the phase-1 moments ``A``.

    The formulas come from ``laocheck.bounds``: ε = min(d log(2d/δ)/((k+1)m₁), 1);
    q_i ∝ A_i + 13ε/6; η = √(k log 2d / (20 B² m₂ (8‖A‖₁ + 20 d ε + k))).

    Parameters
    ----------
    A : array_like of shape (d,)
        Phase 1's estimate of E[x_i²].
    k : int
        The budget parameter (k + 1 attributes per example).
    m1 : int
        Phase 1's examples.
    m2 : int
        Phase 2's examples.
    delta : float
        The confidence δ of ε.
    B : float
        The L1 radius.

    Returns
    -------
    q : ndarray of shape (d,)
        Phase 2's data-point distribution.
    eta : float
        Phase 2's step size.
    eps : float
        The confidence width ε.
    """
    A = np.asarray(A, dtype=float)
    d = A.size
    eps = float(bounds.evaluate("KS15.Alg4.eps", d=d, delta=delta, k=k, m1=m1))
    q = (A + 13.0 / 6.0 * eps) / (A + 13.0 / 6.0 * eps).sum()
    eta = bounds.evaluate("KS15.Thm4.7.eta", A_one=float(A.sum()), B=B, d=d, delta=delta, k=k,
                          m1=m1, m2=m2)
    return q, float(eta), eps


class _TwoPhase(BudgetedLearner):
    _lasso = False
    _chunk = None       # its phases' learners split their own runs (``_advance`` cuts phases)

    def __init__(self, k=4, B=1.0, eta="theory", m1=None, delta=0.05, variant="theory",
                 initial="uniform", n_total=None, random_state=None, record_draws=False):
        self.k = k
        self.B = B
        self.eta = eta
        self.m1 = m1
        self.delta = delta
        self.variant = variant
        self.initial = initial
        self.n_total = n_total
        self.random_state = random_state
        self.record_draws = record_draws

    # -- the lifecycle ---------------------------------------------------------------------

    def _check_whole_run(self, method, m):
        """Refuse a ``fit`` / ``fit_stream`` of m examples whose phase 1 (m₁ from ``m1``, or
        ``n_total``/10) takes them all: it would return w = 0 (theory) without a word; there
        is no predictor before phase 2. (``partial_fit`` in blocks, as the experiments feed
        a long run, may stay in phase 1 for several calls: coef_ is then 0, or phase 1's
        AERR / AELR output in the practical variant, until phase 2 starts.)"""
        if self.n_total is None:
            return                       # m₁ = m/10 < m, or ``m1`` checked by _validate
        n_total = check_int("n_total", self.n_total, low=1, high=2**62)
        m1 = max(1, n_total // 10) if self.m1 is None else check_int("m1", self.m1, low=1,
                                                                      high=2**62)
        if m1 >= m:
            cause = (f"`n_total`={n_total} puts phase 1 at m1={m1} examples" if self.m1 is None
                     else f"`m1`={m1} (with n_total={n_total}) takes {m1} examples")
            raise InvalidParameterError(
                f"{cause}, but this {method} has only {m}: the run would end inside phase 1, "
                f"where there is no predictor yet (coef_ = 0). Pass n_total <= {10 * m - 1} "
                f"(or None), an m1 below {m}, or feed the rest with partial_fit.")

    # -- the lifecycle's hooks -------------------------------------------------------------

    def _validate(self, d, m_total):
        k = check_k(self.k, d)
        B = self._radius()
        delta = check_real("delta", self.delta, low=0.0, low_open=True)
        if not delta < 1:
            raise InvalidParameterError(f"`delta` must satisfy 0 < delta < 1; got delta={delta}.")
        if self.variant not in ("theory", "practical"):
            raise InvalidParameterError(
                f"`variant` must be 'theory' or 'practical'; got {self.variant!r}.")
        if isinstance(self.eta, str):
            if self.eta != "theory":
                raise InvalidParameterError(
                    f"`eta` must be 'theory' or a float > 0; got {self.eta!r}.")
        else:
            check_scale("eta", self.eta, "a step size")
        if self.m1 is None:
            m1 = max(1, m_total // 10)             # KS15 Sec. 5: m₁ = m/10
        else:
            m1 = check_int("m1", self.m1, low=1, high=2**62)
        if m1 >= m_total:
            raise InvalidParameterError(
                f"`m1` must leave examples for phase 2 (m1 < m); got m1={m1} with m={m_total} "
                f"({m_total} sample{'s' if m_total != 1 else ''}).")
        return k, B, delta, m1, m_total - m1

    def _start(self, d, config):
        k, B, delta, m1, m2 = config
        self._cfg = config
        self._state = _Phases(d)
        self.phase1_draws_ = np.zeros((0, k + 1), dtype=np.int64)
        if self.variant == "practical":
            self._state.first = self._phase1_learner(k, B, m1)

    def _advance(self, X, y, n_steps):
        """Rows to phase 1 until m₁ are seen, then to phase 2; with ``n_steps``, the whole
        run from a pool (phase 1 on the first m₁ cyclic rows, phase 2 on the next ones).
        Returns the attributes of the steps made."""
        st = self._state
        m1 = self._cfg[3]
        seen = []
        # phase 2 may have started with no rows (a batch that ended at m₁): nothing seen yet
        n2_before = (st.second.attributes_per_example_.size
                     if st.phase == 2 and hasattr(st.second, "attributes_per_example_") else 0)
        if n_steps is not None:
            P = X.shape[0]
            seen.append(self._run_phase1(X, y, np.arange(m1) % P, stream=True))
            st.seen1 = m1
            self._start_phase2()
            shift = m1 % P
            Xr = np.ascontiguousarray(np.roll(X, -shift, axis=0))
            yr = np.ascontiguousarray(np.roll(y, -shift))
            try:
                st.second.fit_stream(Xr, yr, n_steps - m1, keep_attributes=True)
            except BadEntryError as exc:         # row r of Xr is row (r + shift) % P of X
                raise exc.moved((exc.row + shift) % P) from None
        else:
            take = 0
            if st.phase == 1:
                take = min(m1 - st.seen1, X.shape[0])
                seen.append(self._run_phase1(X[:take], y[:take], np.arange(take)))
                st.seen1 += take
                X, y = X[take:], y[take:]
                if st.seen1 == m1:
                    self._start_phase2()
            if st.phase == 2 and X.shape[0]:
                try:
                    st.second.partial_fit(X, y)
                except BadEntryError as exc:     # phase 2 read the rows after phase 1's
                    raise exc.moved(exc.row + take) from None
        if st.phase == 2 and hasattr(st.second, "attributes_per_example_"):
            seen.append(st.second.attributes_per_example_[n2_before:])
        return np.concatenate([np.zeros(0, dtype=np.int64)] + seen), None

    def _split(self, k):
        """KS15 Sec. 5: the k + 1 attributes split evenly between x̃ and φ̃."""
        k_x = (k + 2) // 2
        return k_x, k + 1 - k_x

    def _phase1_learner(self, k, B, m1):
        k_x, n_inner = self._split(k)
        eta = "theory" if isinstance(self.eta, str) else self.eta
        Model = AELR if self._lasso else AERR
        if self._lasso:
            model = Model(k=k_x, B=B, eta=eta, n_total=m1, random_state=self._rng,
                          record_draws=True)
        else:
            model = Model(k=k_x, B=B, eta=eta, initial=self.initial, n_total=m1,
                          random_state=self._rng, record_draws=True)
        model.n_inner = n_inner
        return model

    def _advance_oracle(self, oracle, n_steps):
        """``_advance`` on an attribute oracle: phase 1 on its first m₁ examples (the theory
        variant reads its k + 1 uniform attributes with ``oracle.reveal``; the practical one
        runs AERR / AELR's ``fit_oracle`` and keeps the x̃ values its kernel read), phase 2's
        ``fit_oracle`` on the next ``n_steps − m₁``: the same random numbers, draws and
        arithmetic as ``fit`` with the oracle's examples in place of rows."""
        st = self._state
        m1 = self._cfg[3]
        n1 = min(m1, n_steps)
        seen = [self._run_phase1_oracle(oracle, n1)]
        st.seen1 = n1
        if n1 == m1:
            self._start_phase2()
            if n_steps > m1:
                st.second.fit_oracle(oracle, n_steps - m1)
                seen.append(st.second.attributes_per_example_)
        return np.concatenate(seen), None

    def _run_phase1(self, X, y, rows, stream=False):
        """Phase 1 on the rows ``rows`` of X (in order); ``stream``: the whole phase at once
        from a pool (rows cyclic)."""
        st = self._state
        n = rows.size
        if n == 0:
            return np.zeros(0, dtype=np.int64)
        if self.variant == "theory":
            idx, seen = self._phase1_draws(n, X.shape[1])
            record = idx
        else:
            first = st.first
            if stream:
                first.fit_stream(X, y, n, keep_attributes=True)
                start = 0
            else:
                first.partial_fit(X[rows], y[rows])
                start = first.draws_.shape[0] - n
            record = first.draws_[start:]
            idx = record[:, :first.k]                     # the uniform x̃ draws estimate A
            seen = first.attributes_per_example_[start:]
        at = np.repeat(rows, idx.shape[1])
        values = X[at, idx.ravel()]
        bad = ~(np.abs(values) <= SCALE_RANGE[1])   # the entries read, checked (NaN too)
        if bad.any():
            a = int(np.argmax(bad))
            raise BadEntryError("X", int(at[a]), int(idx.ravel()[a]), float(values[a]))
        return self._accumulate(idx, values, record, seen)

    def _run_phase1_oracle(self, oracle, n):
        """Phase 1 on the next ``n`` examples of ``oracle`` (the whole phase at once)."""
        st = self._state
        if n == 0:
            return np.zeros(0, dtype=np.int64)
        if self.variant == "theory":
            idx, seen = self._phase1_draws(n, oracle.d)
            values = oracle.reveal(idx)[0].ravel()        # the k + 1 drawn attributes only
            record = idx
        else:
            first = st.first
            tap = TapOracle(oracle, first.k, n)           # keeps the x̃ values the kernel reads
            first.fit_oracle(tap, n)
            record = first.draws_
            idx = record[:, :first.k]
            read, values = tap.recorded()
            if not np.array_equal(read, idx):             # the kernel reads x̃'s draws first
                raise RuntimeError("phase 1's kernel did not read its x̃ draws first")
            values = values.ravel()
            seen = first.attributes_per_example_
        return self._accumulate(idx, values, record, seen)

    def _phase1_draws(self, n, d):
        """Alg. 2/4 lines 3-5: k + 1 uniform attributes per example; (indices, distinct)."""
        k = self._cfg[0]
        idx = self._rng.integers(0, d, size=(n, k + 1))
        sorted_idx = np.sort(idx, axis=1)
        return idx, 1 + np.count_nonzero(np.diff(sorted_idx, axis=1), axis=1)

    def _accumulate(self, idx, values, record, seen):
        """Alg. 2/4 lines 6-10: the counts and sums of x_i² behind A = square_sums/counts, from
        the attributes ``idx`` and their ``values`` (flattened); the draws recorded."""
        k = self._cfg[0]
        st = self._state
        n = idx.shape[0]
        np.add.at(st.counts, idx.ravel(), 1.0)
        np.add.at(st.square_sums, idx.ravel(), values ** 2)
        if self.record_draws:
            pad = np.full((n, k + 1), -1, dtype=np.int64)
            pad[:, :record.shape[1]] = record
            self.phase1_draws_ = np.vstack([self.phase1_draws_, pad])
        return np.asarray(seen, dtype=np.int64)

    def _moments(self):
        st = self._state
        return np.divide(st.square_sums, st.counts, out=np.zeros_like(st.counts),
                         where=st.counts > 0)

    def _start_phase2(self):
        k, B, delta, m1, m2 = self._cfg
        A = self._moments()
        self.moments_ = A
        theory = self.variant == "theory"
        if theory:
            q, eta, eps = self._phase2_theory(A, k, m1, m2, delta, B)
            k2, n_inner = k, 1
            start = None
        else:
            eps = 0.0                                      # KS15 Sec. 5: ε = 0
            k2, n_inner = self._split(k)
            weights = self._practical_weights(A)
            q = weights / weights.sum() if weights.sum() > 0 else np.full(A.size, 1 / A.size)
            eta = self._phase2_practical_eta(A, k2, m2, B)
            start = self._state.first.coef_
        if not isinstance(self.eta, str):
            eta = float(self.eta)
        elif not SCALE_RANGE[0] <= eta <= SCALE_RANGE[1]:
            raise InvalidParameterError(
                f"`eta`='theory' (the default) gives phase 2 the step {eta:.4g} (from B={B:g}, "
                f"k, d, m2={m2} and the moments phase 1 measured, largest {A.max():.3g}), "
                f"outside {SCALE_RANGE[0]:g}..{SCALE_RANGE[1]:g}: the scale of X, B or m is "
                "extreme; rescale X and B, or pass a float `eta`.")
        self.q_, self.eps_, self.eta_ = q, eps, eta
        self._state.second = self._phase2_learner(k2, n_inner, B, q, eta, m2, start)
        self._state.phase = 2

    def _sync(self):
        st = self._state
        if st.phase == 1:
            model = st.first if self.variant == "practical" else None
            self.coef_ = model.coef_ if model is not None and hasattr(model, "coef_") else \
                np.zeros(self.n_features_in_)
            self.n_steps_ = st.seen1
            return
        second = st.second
        if hasattr(second, "coef_"):
            self.coef_ = second.coef_                      # line 12: return its output
            self.w_ = second.w_
            self.n_steps_ = self._cfg[3] + second.attributes_per_example_.size
            if self.record_draws:
                self.phase2_draws_ = second.draws_


class _Phases:
    """A two-phase run: the phase, phase 1's counts and sums of x_i² (the estimate A), and
    the learners of the practical phase 1 and of phase 2."""

    def __init__(self, d):
        self.phase = 1
        self.seen1 = 0
        self.counts = np.zeros(d)
        self.square_sums = np.zeros(d)
        self.first = None
        self.second = None


@shared_docstring
class TwoPhaseDDAERR(_TwoPhase):
    """Two-Phased DDAERR (KS15 Alg. 2; step size of Thm 3.12; Sec. 5's practical variant).

    Phase 1 (the first m₁ examples) estimates E[x_i²] from k + 1 uniformly sampled attributes;
    phase 2 runs GAERR with q_i ∝ √(A_i + 13ε/6) (:func:`two_phase_ridge_phase2`).

    Parameters
    ----------
    k : int, default=4
        The budget parameter: k + 1 attributes per example in both phases, 1 <= k <= d.
    %(B)s
    eta : "theory" or float, default="theory"
        ``"theory"``: the theorem's η from the phase-1 estimate (``variant="theory"``), or each
        phase's theory step (``"practical"``, module docstring); a float is used in both phases.
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
        Phase 2's step size.
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

    spec = SPECS["TwoPhaseDDAERR"]

    _algorithm = "KS15.TwoPhaseDDAERR"

    def _phase2_theory(self, A, k, m1, m2, delta, B):
        q, eta, eps, H = two_phase_ridge_phase2(A, k, m1, m2, delta)
        self.H_ = H
        return q, eta, eps

    def _practical_weights(self, A):
        return np.sqrt(A)                                 # eq. (4) with ε = 0

    def _phase2_practical_eta(self, A, k2, m2, B):
        # KS15 Thm 3.5 with the estimate: η = 1/√(m₂((1/k)‖A‖_{1/2} + 1))
        return float(1.0 / np.sqrt(m2 * (np.sqrt(A).sum() ** 2 / k2 + 1)))

    def _phase2_learner(self, k2, n_inner, B, q, eta, m2, start):
        initial = self.initial if start is None else start
        model = GAERR(k=k2, B=B, eta=eta, q=q, n_inner=n_inner, initial=initial, n_total=m2,
                      random_state=self._rng, record_draws=self.record_draws)
        model._allow_zero_q = self.variant == "practical"
        return model


@shared_docstring
class TwoPhaseDDAELR(_TwoPhase):
    """Two-Phased DDAELR (KS15 Alg. 4; step size of Thm 4.7; Sec. 5's practical variant).

    As :class:`TwoPhaseDDAERR` with the lasso's phase 2 (GAELR, q_i ∝ A_i + 13ε/6:
    :func:`two_phase_lasso_phase2`); ``B`` is the L1 radius. Phase 2's GAELR starts at z± = 1
    (w = 0, Alg. 3 line 1) in the theory variant and at phase 1's output (an EG± warm start,
    ``LassoState.warm_start``) in the practical one, where ``initial`` is phase 1's w_1.

    Parameters
    ----------
    k : int, default=4
        The budget parameter: k + 1 attributes per example in both phases, 1 <= k <= d.
    B : float, default=1.0
        Radius of the L1 ball of the predictors, in [1e-100, 1e100].
    eta : "theory" or float, default="theory"
        ``"theory"``: the theorem's η from the phase-1 estimate (``variant="theory"``), or each
        phase's theory step (``"practical"``, module docstring); a float is used in both phases.
    %(m1)s
    %(delta)s
    %(variant)s
    initial : "uniform", "zero" or array_like, default="uniform"
        Not used by the theory variant (phase 2 starts at w = 0); phase 1's w_1 in the practical
        variant.
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
        Phase 2's step size.
    %(moments_)s
    q_ : ndarray of shape (n_features,)
        Phase 2's q (line 12).
    %(eps_)s
    %(n_steps_)s
    %(n_attributes_seen_)s
    %(max_attributes_per_example_)s
    %(attributes_per_example_)s
    %(n_features_in_)s
    %(phase1_draws_)s
    %(phase2_draws_)s
    """

    spec = SPECS["TwoPhaseDDAELR"]

    _algorithm = "KS15.TwoPhaseDDAELR"
    _lasso = True

    def _phase2_theory(self, A, k, m1, m2, delta, B):
        return two_phase_lasso_phase2(A, k, m1, m2, delta, B)

    def _practical_weights(self, A):
        return A                                          # Lemma 4.3 with ε = 0

    def _phase2_practical_eta(self, A, k2, m2, B):
        # KS15 Thm 4.6 with the estimate: η = (1/2B)√(log 2d/(5m₂((1/k)‖A‖₁ + 1)))
        d = A.size
        return float(np.sqrt(np.log(2 * d) / (5 * m2 * (A.sum() / k2 + 1))) / (2 * B))

    def _phase2_learner(self, k2, n_inner, B, q, eta, m2, start):
        model = GAELR(k=k2, B=B, eta=eta, q=q, n_inner=n_inner, n_total=m2,
                      random_state=self._rng, record_draws=self.record_draws)
        model._allow_zero_q = self.variant == "practical"
        if start is not None:
            l1 = np.abs(start).sum()
            if l1 >= B:                                   # keep ‖w‖₁ < B for the warm start
                start = start * (B / l1) * (1 - 2.0 ** -20)
            model._warm_start = start
        return model
