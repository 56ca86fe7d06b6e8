"""The samplers that run inside the learners ("Properties of every estimator and learner").

The learners do not call the estimator kernels: each step's sampling is their own Cython code
(``learners/_ridge.pyx``, ``_lasso.pyx``, ``_aer.pyx``). Two checks per learner with a
:class:`~laocheck.estimators.LearnerSpec` exercise the samplers that actually run, through the
public debug entry point ``record_draws=True`` (``draws_``, ``phase1_draws_``,
``phase2_draws_``) and the outputs ``coef_`` (``A_bar_``, ``v_bar_`` for Baseline):

* ``<PAPER>.<Algo>.steps_match_reference``: the literal box of the paper
  (:mod:`laocheck.reference.learners`), replayed on the recorded draws, gives the learner's
  output up to a derived rounding tolerance, and the same attributes per step. A slip in the
  estimate formed from the attributes read (a wrong weight d/k or 1/q_i, a wrong attribute
  read) is caught here; a slip in *which* attributes are drawn is not (the replay follows the
  draws), hence:
* ``<PAPER>.<Algo>.attribute_inclusion``: the count of each attribute index among the draws
  whose law the paper fixes (x̃'s k i.i.d. draws i ~ q, uniform for HK12; CB11's uniform
  subsets; the two-phase learners' uniform first phase and the q of their line 12) against
  its exact binomial law, by Clopper-Pearson intervals with Bonferroni over indices and
  parts (total δ = ``DEFAULT_DELTA``); and, for i.i.d. draws, the number of steps whose
  first two draws coincide against Binomial(m, Σ q_i²) (a draw reused within a step makes
  it m). The draws j ∝ w²/‖w‖² (or |w|/‖w‖₁) of φ̃ and AER's ŷ depend on the iterate: their
  law is not a fixed binomial, and only the replay checks them.

The data sit on the boundaries of the sampling lines' conditions (issue 47 item 5): the
data-dependent learners' attribute :data:`ZERO_COLUMN` is identically 0 (DDAERR's and DDAELR's
q_1 = 0, the end of KS15 Lemmas 3.2/4.2's q_i >= 0; the two-phase q_1 on its floor, Alg. 2/4
line 12 with A[1] = 0); the two-phase learners run again at m₁ = :data:`SMALL_M1` (phase-1
counts 0, Alg. 4's ε = min(·, 1) at 1), CB11's Baseline and AER again at k = d
(:data:`K_EQUALS_D`). A check FAILs when any of its runs does.

The binomial intervals are :func:`laocheck.stats.clopper_pearson` (scipy's beta quantiles);
nothing here is hand-written statistics. The reference replays are those of the learners'
lifecycle tests, moved into the checks layer.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from ... import learners, stats
from ...reference.learners import (ReplaySource, ada_gaerr, ada_two_phase_ddaerr, aer, aesvr,
                                  baseline, gaelr, gaerr, two_phase_ddaelr, two_phase_ddaerr)
from .._common import categorical_detects
from .._registry import DEFAULT_DELTA, Result, Status

D = 5
#: AESVR's ε in these checks: 2B at B = 1, GenEst's N = 4 on the boundary n = 2 log₂ N = 4
AESVR_EPS = 2.0
#: AESVR's δ in these checks: B (= 1), the upper end of HK12 Sec. 4's 0 <= δ <= B
AESVR_DELTA = 1.0
_U = np.finfo(float).eps / 2          # unit roundoff


def _data(rng, m, d=D, zero=None):
    """Rows with ‖x‖₂ <= 1 and unequal attribute scales (so q ≠ uniform for DD*), |y| <= 1;
    the column ``zero`` (if any) identically 0 (drawn, then zeroed: the other columns are
    those of the same rng without it)."""
    X = rng.uniform(-1, 1, (m, d)) * np.arange(1, d + 1) ** -0.5
    if zero is not None:
        X[:, zero] = 0.0
    X /= max(1.0, float(np.max(np.linalg.norm(X, axis=1))))
    y = np.clip(X @ rng.uniform(-0.4, 0.4, d) + 0.1 * rng.uniform(-1, 1, m), -1, 1)
    return X, y


_Q = np.arange(1, D + 1) / np.arange(1, D + 1).sum()      # GAERR / GAELR's q (non-uniform)
# KS15 App. A's adaptive variants: GAERR's draws, AdaGrad steps (laocheck.learners.adaptive)
_ADAPTIVE = ("AdaAERR", "AdaGAERR", "AdaDDAERR")
# KS15 Alg. 2/4 and App. A's adaptive Alg. 2: phase 1's uniform draws, then q from them
_TWO_PHASE = ("TwoPhaseDDAERR", "TwoPhaseDDAELR", "AdaTwoPhaseDDAERR")
#: The attribute that is identically 0 in the data of the data-dependent learners (issue 47
#: item 5, the boundaries of their sampling lines): E[x_1²] = 0 puts DDAERR's q ∝ √E[x²]
#: (KS15 eq. (4)) and DDAELR's q ∝ E[x²] (Lemma 4.3) on q_1 = 0, the end of Lemmas 3.2/4.2's
#: q_i >= 0, and the two-phase learners' A[1] = 0 puts their q_1 ∝ √(A[1] + 13ε/6) (Alg. 2
#: line 12; Alg. 4: A[1] + 13ε/6) on its floor, the smoothing term alone. Not the last
#: attribute: a learner that never draws the last one must stay refuted
ZERO_COLUMN = 1
_ZERO_COLUMN_LEARNERS = ("DDAERR", "DDAELR", "AdaDDAERR") + _TWO_PHASE
#: CB11's learners at the end of their k <= d (issue 47 item 5), beside the d = D run:
#: Baseline's k-subset C of [d] (Fig. 1) and AER with CB11 Thm 12's λ (k of the d
#: attributes) at k = d = 4
K_EQUALS_D = {"Baseline": 4, "AER": 4}
#: The two-phase learners again with m₁ = 1 (issue 47 item 5): phase 1's k + 1 = 3 draws leave
#: at least two of the d = 5 attributes with counts[i] = 0 (A[i] = 0 as line 2 initialises it,
#: never square_sums/counts = 0/0), and ε = d log(2d/δ)/((k+1)m₁) = 7.7 puts Alg. 4 line 11's
#: min(·, 1) on its cap ε = 1 (the case "with probability 1 if ε = 1" of Lemma 4.8 / Thm 4.7)
SMALL_M1 = 1


def _cls(learner):
    """The class of ``learner``: a class, its name in :mod:`laocheck.learners` (the catalog:
    the class loads when the check runs) or an instance (``check_learner``)."""
    if isinstance(learner, str):
        return getattr(learners, learner)
    return learner if isinstance(learner, type) else type(learner)


def _flat(*records):
    return [int(i) for r in records for i in np.ravel(r) if i >= 0]


class _LawRecordingSource(ReplaySource):
    """ReplaySource that also keeps every probability vector the replayed box passes to
    ``categorical`` (the laws it would draw from): the replay follows the recorded indices,
    so a law enters the output only through the weights 1/q_i, which an AdaGrad step
    normalises away; the laws are compared apart."""

    def __init__(self, indices):
        super().__init__(indices)
        self.laws = []

    def categorical(self, p):
        self.laws.append(np.array(p, dtype=float))
        return super().categorical(p)


class _TracingSource(ReplaySource):
    """ReplaySource that also keeps every ``uniform_int`` index (AESVR's x̃ draws)."""

    def __init__(self, indices):
        super().__init__(indices)
        self.uniform = []

    def uniform_int(self, n):
        i = super().uniform_int(n)
        self.uniform.append(i)
        return i


# ---------------------------------------------------------------------------------------------
# per algorithm: the fit, the claimed law of x̃'s draws, the literal replay
# ---------------------------------------------------------------------------------------------

def _paper_q(algorithm, X):
    """The data-point distribution of the paper (None: uniform): HK12 Alg. 1/2 line 4
    uniform; KS15 Alg. 1/3 line 4 the given q; KS15 eq. (4) q ∝ √E[x²] (DDAERR);
    KS15 Lemma 4.3 q ∝ E[x²] (DDAELR)."""
    moments = np.mean(X * X, axis=0)
    if algorithm in ("GAERR", "GAELR", "AdaGAERR"):
        return _Q
    if algorithm in ("DDAERR", "AdaDDAERR"):
        return np.sqrt(moments) / np.sqrt(moments).sum()
    if algorithm == "DDAELR":
        return moments / moments.sum()
    return None


def _make(cls, algorithm, X, seed, n_total=None, m1=None):
    kw = dict(random_state=seed, record_draws=True, n_total=n_total)
    if algorithm in ("AERR", "AELR", "GAERR", "GAELR", "DDAERR", "DDAELR") + _ADAPTIVE:
        kw.update(k=2)
        if algorithm in ("GAERR", "GAELR", "AdaGAERR"):
            kw.update(q=_Q, second_moments=np.mean(X * X, axis=0))   # the theory step
        spec = vars(learners).get(algorithm).spec
        kw.update(spec.fit_params(X))
        if algorithm in _ADAPTIVE:
            # η₀ = 0.1, not √2·B: eq. (13)'s first step on a coordinate is η₀·sign(g̃_i), a jump
            # of 2η₀ when a g̃_i near 0 changes sign, so at η₀ = √2 a relative-u change of the
            # data moves w̄ by up to 8% (measured); at 0.1 by ~1e-15: the replay can then tell
            # a 1e-8 error from rounding
            kw.update(eta=0.1)
    elif algorithm in _TWO_PHASE:
        # the box (KS15 Alg. 2/4): phase 1 draws k + 1 uniform attributes per example;
        # "practical" runs AERR/AELR there, whose record mixes in the draws j
        kw.update(k=2, m1=m1 or max(20, X.shape[0] // 5), delta=0.1, variant="theory")
        if algorithm == "AdaTwoPhaseDDAERR":
            kw.update(eta=0.1)                  # η₀, as the other adaptive learners (above)
    elif algorithm == "AER":
        kw.update(k=4)
    elif algorithm == "AESVR":
        # ε = 2B (B = 1): GenEst's bound 2B/ε = 1 gives N = ⌈4⌉ = 4 and 2 log₂ N = 4 exactly,
        # so HK12 Proc. 3's line 3 (n <= 2 log₂ N) is decided at its boundary order n = 4 in
        # about one GenEst call of 32 (issue 47 item 5: at ε = 0.4, N = 100 and the threshold
        # order 13 came up once in 16,000 calls)
        # δ = B: HK12 Sec. 4's 0 <= δ <= B at its upper end, |y ± δ| up to 2B (Thm 4.4's proof)
        kw.update(k=2, eps=AESVR_EPS, delta=AESVR_DELTA)
    elif algorithm == "Baseline":
        kw = dict(k=4, variant="literal", random_state=seed, record_draws=True)
    return cls(**kw)


def _replay(algorithm, est, X, y, q, laws=None):
    """(w̄ or the Baseline sums, attributes per step) of the literal reference on the
    recorded draws; ``laws`` (a list), for the two-phase learners: gets the probability
    vectors the replayed box passed to ``categorical``, in order (the first is line 12's q)."""
    d = X.shape[1]
    if algorithm in ("AERR", "GAERR", "DDAERR"):
        w1 = np.full(d, est.B / np.sqrt(d))
        return gaerr(X, y, est.k, est.B, est.eta_, w1, ReplaySource(_flat(est.draws_)), q=q,
                     n_inner=est.n_inner)
    if algorithm in ("AELR", "GAELR", "DDAELR"):
        return gaelr(X, y, est.k, est.B, est.eta_, ReplaySource(_flat(est.draws_)), q=q,
                     n_inner=est.n_inner)
    if algorithm in _ADAPTIVE:
        w1 = np.full(d, est.B / np.sqrt(d))
        return ada_gaerr(X, y, est.k, est.B, est.eta_, w1, ReplaySource(_flat(est.draws_)),
                         q=q, n_inner=est.n_inner)
    if algorithm == "AESVR":
        w1 = np.full(d, est.B / np.sqrt(d))
        return aesvr(X, y, est.k, est.B, est.eta_, w1, est.eps, est.delta, 2 * est.B / est.eps,
                     ReplaySource(est.draws_))
    if algorithm == "AER":
        return aer(X, y, est.k, est.B, est.lam_, ReplaySource(est.draws_.ravel()))
    if algorithm == "TwoPhaseDDAERR":
        src = _LawRecordingSource(_flat(est.phase1_draws_, est.phase2_draws_))
        src.laws = laws if laws is not None else src.laws
        return two_phase_ddaerr(X, y, est.k, est.B, est.m1, est.delta,
                                np.full(d, est.B / np.sqrt(d)), src)
    if algorithm == "TwoPhaseDDAELR":
        src = _LawRecordingSource(_flat(est.phase1_draws_, est.phase2_draws_))
        src.laws = laws if laws is not None else src.laws
        return two_phase_ddaelr(X, y, est.k, est.B, est.m1, est.delta, src)
    if algorithm == "AdaTwoPhaseDDAERR":
        src = _LawRecordingSource(_flat(est.phase1_draws_, est.phase2_draws_))
        src.laws = laws if laws is not None else src.laws
        return ada_two_phase_ddaerr(X, y, est.k, est.B, est.m1, est.delta, est.eta_,
                                    np.full(d, est.B / np.sqrt(d)), src)
    if algorithm == "Baseline":
        A, v, ybar, seen = baseline(X, y, est.k, ReplaySource(est.draws_.ravel()))
        return (A, v, ybar), seen
    raise KeyError(algorithm)


def _output(algorithm, est):
    if algorithm == "Baseline":
        return np.concatenate([est.A_bar_.ravel(), est.v_bar_, [est.y_bar_]])
    return np.asarray(est.coef_, dtype=float)


def _flat_output(algorithm, out):
    if algorithm == "Baseline":
        A, v, ybar = out
        return np.concatenate([A.ravel(), v, [ybar]])
    return np.asarray(out, dtype=float)


def _rounding_tolerance(m, d, k, scale, magnitude=1.0):
    """First-order rounding bound of an m-step run: each step forms its update from at most
    d + k + 4 floating-point terms (x̃, φ̃, the scaling, the projection), each off by at most
    the unit roundoff u relative to the scale of w times the magnitude of the terms
    (``magnitude``: 1 for |x|, |y| <= 1; AESVR's GenEst multiplies x′ = x/ε and y± = (y ± δ)/ε,
    bounded by 2B/ε, in pairs: (2B/ε)²); the updates are non-expansive (projection onto a
    convex set, averaging), so errors add over the steps: m·(d + k + 4)·u·magnitude·scale,
    times a safety factor 16 for the kernels' lazy scaling w = s·u and incremental norms."""
    return 16.0 * m * (d + k + 4) * _U * magnitude * scale
# The a priori bound assumes a well-conditioned run; ``check_steps_match_reference`` adds
# 16·(d + k + 4)·s, s the change of the replayed output when X and y are perturbed by a relative
# u (one random direction): a step evaluated in floating point is the exact step on inputs
# perturbed by at most (d + k + 4)·u (first-order backward error), and s measures how this
# instance carries such a perturbation to the output (large steps η·x_i/(k q_i) amplify it).


def _zero_column(algorithm):
    return ZERO_COLUMN if algorithm in _ZERO_COLUMN_LEARNERS else None


def _runs(algorithm):
    """(d, label, m₁) of the runs of a learner's sampler checks: d = D, and CB11's learners
    also at k = d (:data:`K_EQUALS_D`), the two-phase learners also at m₁ = 1
    (:data:`SMALL_M1`; m₁ None: the default)."""
    out = [(D, "", None)]
    if algorithm in K_EQUALS_D:
        out.append((K_EQUALS_D[algorithm], "k_equals_d", None))
    if algorithm in _TWO_PHASE:
        out.append((D, "m1_equals_1", SMALL_M1))
    return out


def _steps_case(ctx, cls, algorithm, m, d, m1=None, extras=False):
    """One run of ``check_steps_match_reference`` on d attributes (two-phase: m₁ = ``m1``);
    ``extras``: also KS15 Sec. 5's practical variant (two-phase) and CB11 Fig. 1's argmin
    (Baseline)."""
    X, y = _data(ctx.rng, m, d, zero=_zero_column(algorithm))
    est = _make(cls, algorithm, X, int(ctx.rng.integers(2 ** 31)), m1=m1).fit(X, y)
    q = _paper_q(algorithm, X)
    laws = [] if algorithm in _TWO_PHASE else None
    try:
        out, seen = _replay(algorithm, est, X, y, q, laws=laws)
    except AssertionError as exc:               # the draws are not a run of the box
        return Result(Status.FAIL, {"steps": m}, counterexample=str(exc),
                      note="the recorded draws cannot be replayed by the literal box")
    seen = np.asarray(seen)
    # the two-phase boxes' line 12 (KS15 Alg. 2/4: q from phase 1's estimate A) as the literal
    # replay computes it, against this module's own transcription of lines 2-12: the replay
    # follows the recorded draws, so its q enters the output only through the weights 1/q_i,
    # which AdaTwoPhaseDDAERR's AdaGrad steps normalise away
    q_error = None
    if laws is not None:
        expected = _two_phase_q(algorithm, X, est)
        q_error = (float(np.max(np.abs(laws[0] - expected)) / np.max(expected)) if laws
                   and laws[0].shape == expected.shape else float("inf"))
    # the instance's sensitivity to rounding: the same replay on data perturbed by a relative u
    Xp = X * (1 + _U * ctx.rng.uniform(-1, 1, X.shape))
    yp = y * (1 + _U * ctx.rng.uniform(-1, 1, y.shape))
    out_p, _ = _replay(algorithm, est, Xp, yp, q)
    got = _output(algorithm, est)
    want, want_p = _flat_output(algorithm, out), _flat_output(algorithm, out_p)
    scale = max(float(np.max(np.abs(want))), 1e-300)
    err = float(np.max(np.abs(got - want)))
    sensitivity = float(np.max(np.abs(want_p - want)))
    magnitude = (2 * est.B / est.eps) ** 2 if algorithm == "AESVR" else 1.0
    k = int(est.k)
    # capped at √u·max|w̄| (half the digits): a replay that amplifies rounding beyond it is not
    # the learner's path (e.g. a record naming other attributes than those read)
    tol = (_rounding_tolerance(m, d, k, scale, magnitude)
           + min(16.0 * (d + k + 4) * sensitivity, np.sqrt(_U) * scale))
    same_seen = (np.asarray(est.attributes_per_example_).shape == seen.shape
                 and np.array_equal(est.attributes_per_example_, seen))
    figures = {"steps": m, "d": d, "k": k, "max_abs_difference": err, "tolerance": tol,
               "scale": scale, "sensitivity_to_u": sensitivity,
               "attributes_per_step_equal": bool(same_seen)}
    if _zero_column(algorithm) is not None:
        figures["zero_column"] = ZERO_COLUMN
    if m1 is not None:
        figures["m1"] = m1
    extra_bad = None
    if extras and algorithm in _PRACTICAL:
        # KS15 Sec. 5's practical variant, fitted on the same rows with its own draws
        practical, extra_bad = _check_practical(cls, algorithm, X, y,
                                                    int(ctx.rng.integers(2 ** 31)), (Xp, yp))
        figures.update(practical)
    if extras and algorithm == "Baseline":
        # CB11 Fig. 1's last line, the argmin over the L1 ball, for the fitted literal sums and
        # for the corrected variant (also on rows whose first attribute is always 0)
        X0 = X.copy()
        X0[:, 0] = 0.0
        seed = int(ctx.rng.integers(2 ** 31))
        fits = [("literal", est),
                ("corrected", cls(k=4, variant="corrected", random_state=seed).fit(X, y)),
                ("corrected_zero_attribute",
                 cls(k=4, variant="corrected", random_state=seed).fit(X0, y))]
        # and the solver alone on an indefinite Ā (the literal variant's case) where the run
        # from 0 stops at a worse stationary point than the best vertex's run
        coef, objective, stationarity, _ = learners.minimise_quadratic_l1(*_INDEFINITE, 0.0,
                                                                          1.0)
        fits.append(("indefinite", SimpleNamespace(
            A_bar_=_INDEFINITE[0], v_bar_=_INDEFINITE[1], y_bar_=0.0, B=1.0, coef_=coef,
            objective_=objective, stationarity_=stationarity,
            convex_=bool(np.linalg.eigvalsh(_INDEFINITE[0]).min() >= 0.0))))
        for name, fitted in fits:
            found = _baseline_argmin(fitted)
            figures[f"argmin_{name}"] = found
            if extra_bad is None and found["failed"]:
                extra_bad = {"variant": name, **found}
    # an exact comparison of numbers up to the rounding tolerance: an output F times the
    # replayed one differs by (F − 1)·max|w̄| at its largest coordinate, found once above tol
    detects = 1.0 + tol / scale
    if q_error is not None:
        # both sides evaluate the same closed form of A, in a different order: a few ulps
        figures["phase2_q_max_relative_difference"] = q_error
        if q_error > 64 * _U * d:
            return Result(Status.FAIL, figures, detects=detects,
                          counterexample={"phase2_q_replayed": laws[0].tolist(),
                                          "phase2_q_of_lines_2_12": expected.tolist()},
                          note="the literal box's line 12 gives another q than KS15 Alg. 2/4 "
                          "lines 2-12 computed from the recorded phase-1 draws")
    if extra_bad is not None:
        return Result(Status.FAIL, figures, detects=detects, counterexample=extra_bad,
                      note="the practical variant (KS15 Sec. 5) differs from its replay"
                      if algorithm in _PRACTICAL else "Baseline's argmin (CB11 Fig. 1) refuted")
    if err <= tol and same_seen:
        return Result(Status.PASS, figures, detects=detects,
                      detectable=f"an output difference above {tol:.3g} or one step's "
                      "attribute count")
    worst = int(np.argmax(np.abs(got - want)))
    return Result(Status.FAIL, figures, detects=detects,
                  counterexample={"index": worst, "learner": float(got[worst]),
                                  "reference": float(want[worst])})


def check_steps_match_reference(ctx, *, learner):
    """The learner's output equals the literal box replayed on its recorded draws, and so do
    the attributes per step (HK12 Alg. 1, 2, 4; KS15 Alg. 1-4, Sec. 3.1, 4.1; CB11 Fig. 1, 2,
    line by line in :mod:`laocheck.reference.learners`). The data-dependent learners' data
    have an attribute identically 0 (:data:`ZERO_COLUMN`: q_1 on its floor or at 0), CB11's
    learners run again at k = d (:data:`K_EQUALS_D`), the two-phase ones at m₁ = 1
    (:data:`SMALL_M1`). On the first run, the two-phase learners' practical variant (KS15
    Sec. 5, typed in :func:`_practical_replay`) is replayed too, and Baseline's argmin (CB11
    Fig. 1's last line) is judged from its fitted sums (:func:`_baseline_argmin`)."""
    cls = _cls(learner)
    algorithm = _algorithm_of(cls)
    m = ctx.n(2_000, 20_000) if algorithm != "AESVR" else ctx.n(600, 6_000)
    result = None
    for d, label, m1 in _runs(algorithm):
        # KS15 Sec. 5's practical variant and CB11 Fig. 1's argmin: once, on the first run
        case = _steps_case(ctx, cls, algorithm, m, d, m1, extras=result is None)
        if result is None:
            result = case
        else:
            figures = {**result.figures, label: case.figures}
            detects = min(f for f in (result.detects, case.detects) if f is not None)
            if case.status == Status.FAIL:
                counterexample = case.counterexample
                if isinstance(counterexample, dict):
                    counterexample = {"run": label, **counterexample}
                return Result(Status.FAIL, figures, counterexample=counterexample,
                              note=case.note, detects=detects)
            result = Result(result.status, figures, counterexample=result.counterexample,
                            note=result.note, detectable=result.detectable, detects=detects)
        if result.status == Status.FAIL:
            return result
    return result


#: the two-phase learners with KS15 Sec. 5's practical variant replayed by
#: ``check_steps_match_reference`` besides the box (their ``variant="practical"``)
_PRACTICAL = _TWO_PHASE


def _practical_replay(algorithm, est, X, y):
    """KS15 Sec. 5's practical two-phase variant, typed here from the text, replayed on the
    learner's recorded draws: (w̄, attributes per step, phase 2's {"q", "eta"}).

    "We split the k + 1 attributes evenly": x̃ reads k_x = ⌈(k + 1)/2⌉ uniform attributes and
    φ̃ the other n_inner = k + 1 − k_x. Phase 1 runs AERR (HK12 Alg. 1 with Thm 3.1's
    η = √(k_x/(2d m₁)), w_1 = B/√d·1) or AELR (HK12 Alg. 2 with Thm 3.4's printed
    η = (1/(4B²))√(2k_x log 2d/(5m₁d))); AdaTwoPhaseDDAERR's AdaAERR with its η₀. A_i is the
    mean of x_i² over phase 1's x̃ draws of i; ε = 0, so q ∝ √A (KS15 eq. (4)) or ∝ A
    (Lemma 4.3), and phase 2's η is KS15 Thm 3.5's 1/√(m₂((1/k_x)‖A‖_{1/2} + 1)) or Thm 4.6's
    (1/(2B))√(log 2d/(5m₂((1/k_x)‖A‖₁ + 1))) with A for E[x²]. Phase 2 starts where phase 1
    ended: w̄'s last iterate for the ridge, for the lasso the EG± weights
    z± = (1 − ‖w‖₁/B)/(2d) + w±/B (so that Σz = 1 and B(z⁺ − z⁻) = w)."""
    d, k, B, m1 = X.shape[1], int(est.k), float(est.B), int(est.m1)
    m2 = X.shape[0] - m1
    k_x = -(-(k + 1) // 2)
    n_inner = k + 1 - k_x
    src = _TracingSource(_flat(est.phase1_draws_, est.phase2_draws_))
    w1 = np.full(d, B / np.sqrt(d))
    X1, y1, X2, y2 = X[:m1], y[:m1], X[m1:], y[m1:]
    if algorithm == "TwoPhaseDDAELR":
        eta1 = np.sqrt(2 * k_x * np.log(2 * d) / (5 * m1 * d)) / (4 * B ** 2)
        w_first, seen1 = gaelr(X1, y1, k_x, B, eta1, src, n_inner=n_inner)
    elif algorithm == "AdaTwoPhaseDDAERR":
        w_first, seen1 = ada_gaerr(X1, y1, k_x, B, est.eta_, w1, src, n_inner=n_inner)
    else:
        eta1 = np.sqrt(k_x / (2 * d * m1))
        w_first, seen1 = gaerr(X1, y1, k_x, B, eta1, w1, src, n_inner=n_inner)
    counts, sums = np.zeros(d), np.zeros(d)
    for n, i in enumerate(src.uniform):
        counts[i] += 1
        sums[i] += X[n // k_x, i] ** 2
    A = np.divide(sums, counts, out=np.zeros(d), where=counts > 0)
    if algorithm == "TwoPhaseDDAELR":
        q = A / A.sum()
        eta2 = np.sqrt(np.log(2 * d) / (5 * m2 * (A.sum() / k_x + 1))) / (2 * B)
        floor = (1 - np.abs(w_first).sum() / B) / (2 * d)
        z1 = (floor + np.maximum(w_first, 0) / B, floor + np.maximum(-w_first, 0) / B)
        w_bar, seen2 = gaelr(X2, y2, k_x, B, eta2, src, q=q, n_inner=n_inner, z1=z1)
    elif algorithm == "AdaTwoPhaseDDAERR":
        q = np.sqrt(A) / np.sqrt(A).sum()
        eta2 = est.eta_                                     # η₀, the one given
        w_bar, seen2 = ada_gaerr(X2, y2, k_x, B, eta2, w_first, src, q=q, n_inner=n_inner)
    else:
        q = np.sqrt(A) / np.sqrt(A).sum()
        eta2 = 1 / np.sqrt(m2 * (np.sqrt(A).sum() ** 2 / k_x + 1))
        w_bar, seen2 = gaerr(X2, y2, k_x, B, eta2, w_first, src, q=q, n_inner=n_inner)
    return (np.asarray(w_bar, dtype=float), np.concatenate([seen1, seen2]),
            {"q": q, "eta": eta2})


def _check_practical(cls, algorithm, X, y, seed, perturbation):
    """The practical variant's fit on (X, y) against :func:`_practical_replay`: (figures,
    counterexample or None); the tolerance as for the box (a priori rounding bound plus the
    replay's change under ``perturbation``, the relative-u data perturbation)."""
    m = X.shape[0]
    kw = dict(k=2, m1=max(20, m // 5), variant="practical", random_state=seed,
              record_draws=True)
    if algorithm == "AdaTwoPhaseDDAERR":
        kw.update(eta=0.1)
    est = cls(**kw).fit(X, y)
    try:
        want, seen, settings = _practical_replay(algorithm, est, X, y)
        want_p, _, _ = _practical_replay(algorithm, est, *perturbation)
    except AssertionError as exc:               # the draws are not a run of the variant
        return {"practical_replayable": False}, str(exc)
    got = np.asarray(est.coef_, dtype=float)
    scale = max(float(np.max(np.abs(want))), 1e-300)
    d = X.shape[1]
    err = float(np.max(np.abs(got - want))) if got.shape == want.shape else float("inf")
    sensitivity = float(np.max(np.abs(want_p - want)))
    tol = (_rounding_tolerance(m, d, 3, scale)
           + min(16.0 * (d + 3 + 4) * sensitivity, np.sqrt(_U) * scale))
    same_seen = (np.asarray(est.attributes_per_example_).shape == seen.shape
                 and np.array_equal(est.attributes_per_example_, seen))
    # phase 2's q and η against the text's (both sides evaluate the same closed forms of A in
    # another order: a few ulps, 64·d·u relative)
    q_got = np.asarray(est.q_, dtype=float)
    q_err = (float(np.max(np.abs(q_got - settings["q"])) / np.max(settings["q"]))
             if q_got.shape == settings["q"].shape else float("inf"))
    eta_err = abs(float(est.eta_) - float(settings["eta"])) / float(settings["eta"])
    figures = {"practical_max_abs_difference": err, "practical_tolerance": tol,
               "practical_attributes_per_step_equal": bool(same_seen),
               "practical_q_max_relative_difference": q_err,
               "practical_eta_relative_difference": eta_err}
    if q_err > 64 * d * _U or eta_err > 64 * d * _U:
        return figures, {"variant": "practical", "q_learner": q_got.tolist(),
                         "q_text": settings["q"].tolist(), "eta_learner": float(est.eta_),
                         "eta_text": float(settings["eta"])}
    if err <= tol and same_seen:
        return figures, None
    worst = int(np.argmax(np.abs(got - want))) if got.shape == want.shape else -1
    return figures, {"variant": "practical", "index": worst,
                     "learner": got.tolist() if worst < 0 else float(got[worst]),
                     "reference": want.tolist() if worst < 0 else float(want[worst])}


def _project_l1_sorted(v, B):
    """The Euclidean projection onto {‖w‖₁ <= B} as Duchi et al. (2008) Fig. 1 prints it
    (sorted |v|, threshold θ); v itself inside the ball."""
    a = np.abs(v)
    if a.sum() <= B:
        return v.copy()
    mu = np.sort(a)[::-1]
    css = np.cumsum(mu)
    rho = int(np.flatnonzero(mu - (css - B) / np.arange(1, a.size + 1) > 0)[-1]) + 1
    return np.sign(v) * np.maximum(a - (css[rho - 1] - B) / rho, 0.0)


#: an indefinite (Ā, v̄) (B = 1) on which projected gradient from 0 stops at a stationary point
#: of f = −1.404, above the best vertex e₃ (f = B²Ā₃₃ − B|v̄₃| = −1.516): CB11 Fig. 1's argmin
#: must be below every vertex (found by a random search; a vertex start chosen by another rule
#: than f's value misses it)
_INDEFINITE = (np.array([[-0.379, 0.004, 0.032], [0.004, 0.316, -0.211],
                         [0.032, -0.211, -1.46]]), np.array([0.404, 0.018, -0.056]))


def _baseline_argmin(est):
    """CB11 Fig. 1's output w = argmin_{‖w‖₁ <= B} wᵀĀw + wᵀv̄ + ȳ, judged from the fitted
    sums (``A_bar_``, ``v_bar_``, ``y_bar_``, which the replay checks) with what a minimiser
    must satisfy: feasible; the reported ``objective_`` its value; stationary (the projected
    gradient step with 1/L, L = 2‖Ā‖₂ the gradient's Lipschitz constant, moves it by at most
    100× the solver's tol, and by the reported ``stationarity_``); no worse than w = 0 and the
    best vertex ±B e_i (a global minimiser is below every feasible point); ``convex_`` is
    λ_min(Ā) >= 0. Tolerances: rounding of a d×d quadratic form, 8·d²·u·(‖Ā‖B² + ‖v̄‖∞B + |ȳ|)."""
    A, v, c, B = est.A_bar_, est.v_bar_, float(est.y_bar_), float(est.B)
    w = np.asarray(est.coef_, dtype=float)
    d = v.size
    f = float(w @ A @ w + w @ v + c)
    tol = 8 * d * d * _U * (np.linalg.norm(A, 2) * B * B + np.max(np.abs(v)) * B + abs(c) + 1e-300)
    L = max(2.0 * np.linalg.norm(A, 2), 1e-300)
    residual = float(np.linalg.norm(w - _project_l1_sorted(w - (2 * A @ w + v) / L, B)))
    vertices = min(c, float(np.min(B * B * np.diag(A) - B * np.abs(v) + c)))
    convex = bool(np.linalg.eigvalsh(A).min() >= 0.0)
    solver_tol = 1e-10 * max(1.0, B)
    checks = {"feasible": float(np.abs(w).sum()) <= B * (1 + 4 * d * _U),
              "objective": abs(float(est.objective_) - f) <= tol,
              "stationary": residual <= 100 * solver_tol,
              "stationarity_reported": abs(float(est.stationarity_) - residual)
              <= solver_tol + 16 * d * _U * max(B, 1.0),
              "below_zero_and_vertices": f <= vertices + tol,
              "convex_flag": bool(est.convex_) == convex}
    return {"objective": f, "residual": residual, "best_vertex_or_zero": vertices,
            "convex": convex, "failed": sorted(k for k, ok in checks.items() if not ok)}


def _algorithm_of(cls):
    """The learner algorithm a (possibly wrapped) class implements: the first class of its MRO
    that declares a spec of :mod:`laocheck.learners`."""
    for base in cls.__mro__:
        if "spec" in vars(base) and getattr(learners, base.__name__, None) is base:
            return base.__name__
    raise KeyError(cls.__name__)


# ---------------------------------------------------------------------------------------------
# attribute inclusion
# ---------------------------------------------------------------------------------------------

def _iid_groups(draws, q, d, name):
    """Parts of the test for rows of i.i.d. draws from q (None: uniform): per-index counts
    over all draws ~ Binomial(draws, q_i); steps whose first two draws coincide ~
    Binomial(m, Σ q_i²)."""
    draws = np.asarray(draws)
    p = np.full(d, 1.0 / d) if q is None else np.asarray(q, dtype=float)
    parts = []
    valid = draws[(draws >= 0) & (draws < d)]
    counts = np.bincount(valid, minlength=d)[:d]
    parts.append((f"{name}.index", counts, int(draws.size), p))
    if draws.shape[1] >= 2:
        coincide = int(np.sum(draws[:, 0] == draws[:, 1]))
        parts.append((f"{name}.first_two_equal", np.array([coincide]),
                      int(draws.shape[0]), np.array([float(np.sum(p * p))])))
    return parts


def _subset_groups(draws, s, d, name):
    """Parts for rows whose first s entries are a uniform s-subset of [d]: each index is in a
    row's subset w.p. s/d, independently across rows (CB11 Fig. 1 and 2)."""
    C = np.asarray(draws)[:, :s]
    counts = np.array([int(np.sum(np.any(C == i, axis=1))) for i in range(d)])
    return [(f"{name}.index", counts, int(C.shape[0]), np.full(d, s / d))]


def _two_phase_q(algorithm, X, est):
    """KS15 Alg. 2/4 lines 2-12: the phase-2 q from phase 1's uniform draws (literal)."""
    d, k, m1 = X.shape[1], est.k, est.m1
    counts, sums = np.zeros(d), np.zeros(d)
    P = np.asarray(est.phase1_draws_)
    for t in range(m1):
        for i in P[t][P[t] >= 0]:
            counts[i] += 1
            sums[i] += X[t, i] ** 2
    A = np.divide(sums, counts, out=np.zeros(d), where=counts > 0)
    if algorithm in ("TwoPhaseDDAERR", "AdaTwoPhaseDDAERR"):
        eps = d * np.log(2 * d / est.delta) / ((k + 1) * m1)
        r = np.sqrt(A + 13 / 6 * eps)
    else:
        eps = min(d * np.log(2 * d / est.delta) / ((k + 1) * m1), 1)
        r = A + 13 / 6 * eps
    return r / r.sum()


def _inclusion_parts(algorithm, est, X, y, prefix=""):
    """The parts of ``check_attribute_inclusion`` for one fit, names prefixed ``prefix``."""
    return [(prefix + name, counts, trials, p)
            for name, counts, trials, p in _fit_parts(algorithm, est, X, y)]


def _fit_parts(algorithm, est, X, y):
    d, k = X.shape[1], est.k
    if algorithm in ("AERR", "AELR", "GAERR", "GAELR", "DDAERR", "DDAELR") + _ADAPTIVE:
        return _iid_groups(est.draws_[:, :k], _paper_q(algorithm, X), d, "x_tilde")
    if algorithm in _TWO_PHASE:
        P1 = np.asarray(est.phase1_draws_)[:est.m1]
        return (_iid_groups(P1, None, d, "phase1")
                + _iid_groups(np.asarray(est.phase2_draws_)[:, :k],
                              _two_phase_q(algorithm, X, est), d, "phase2_x_tilde"))
    if algorithm == "AER":
        return _subset_groups(est.draws_, k // 2, d, "C")
    if algorithm == "Baseline":
        return _subset_groups(est.draws_, k, d, "C")
    if algorithm == "AESVR":
        src = _TracingSource(est.draws_)
        w1 = np.full(d, est.B / np.sqrt(d))
        aesvr(X, y, k, est.B, est.eta_, w1, est.eps, est.delta, 2 * est.B / est.eps, src)
        return _iid_groups(np.asarray(src.uniform).reshape(-1, k), None, d, "x_tilde")
    raise KeyError(algorithm)


def check_attribute_inclusion(ctx, *, learner):
    """Each attribute index is drawn as often as the paper's sampling line says: x̃'s
    k i.i.d. draws i ~ q (HK12 Alg. 1 line 4, Alg. 2 line 5: uniform; KS15 Alg. 1 line 4,
    Alg. 3 line 5: q; KS15 eq. (4) and Lemma 4.3 for DDAERR/DDAELR), the two-phase learners'
    k + 1 uniform draws of phase 1 and q of line 12 (KS15 Alg. 2/4 lines 5, 12), CB11's
    uniform subset C (Fig. 1; Fig. 2 / eq. (6)). Exact Clopper-Pearson intervals, Bonferroni
    over every index and part: P(FAIL) <= δ for a correct sampler."""
    cls = _cls(learner)
    algorithm = _algorithm_of(cls)
    m = ctx.n(5_000, 50_000) if algorithm == "AESVR" else ctx.n(100_000, 1_000_000)
    parts, figures, runs = [], {}, {}
    for d, label, m1 in _runs(algorithm):
        X, y = _data(ctx.rng, m, d, zero=_zero_column(algorithm))
        est = _make(cls, algorithm, X, int(ctx.rng.integers(2 ** 31)), m1=m1).fit(X, y)
        try:
            parts += _inclusion_parts(algorithm, est, X, y, f"{label}." if label else "")
        except AssertionError as exc:
            return Result(Status.FAIL, {"steps": m}, counterexample=str(exc),
                          note="the recorded draws cannot be replayed by the literal box")
        if not label:
            figures = {"steps": m, "d": d, "k": int(est.k)}
            if _zero_column(algorithm) is not None:
                figures["zero_column"] = ZERO_COLUMN
        else:
            runs[label] = {"steps": m, "d": d, "k": int(est.k)}
            if m1 is not None:
                runs[label]["m1"] = m1
    tests = sum(counts.size for _, counts, _, _ in parts)
    alpha = ctx.delta / tests
    figures["tests"] = tests
    figures.update(runs)
    failures, factors = [], []
    widest = 0.0
    for name, counts, trials, p in parts:
        low, high = stats.clopper_pearson(counts, int(trials), alpha)
        if not name.startswith(tuple(f"{label}." for label in runs)):
            # the power of the d = D run: at k = d every inclusion probability is 1, a
            # category whose factor (~1) says nothing of the uniformity of a k-subset of d > k
            factors.append(categorical_detects(p, int(trials), alpha))
        freq = counts / trials
        figures[name] = {"frequency": [round(float(f), 5) for f in freq],
                         "claimed": [round(float(v), 5) for v in p]}
        widest = max(widest, float(np.max(high - low)))
        for i in np.flatnonzero((p < low) | (p > high)):
            failures.append({"part": name, "index": int(i), "frequency": float(freq[i]),
                             "claimed": float(p[i]),
                             "interval": [float(low[i]), float(high[i])],
                             "outside_by": float(max(low[i] - p[i], p[i] - high[i]))})
    # the intervals cover the true probabilities w.p. >= 1 - δ; a claimed probability farther
    # than an interval's width from the true one then lies outside it
    detectable = (f"an inclusion probability off by more than {widest:.3g} (widest "
                  f"Clopper-Pearson interval at δ/{tests}), e.g. an index never drawn")
    figures["detectable_shift"] = widest
    found = [f for f in factors if f is not None]      # the most sensitive index's factor
    detects = min(found) if found else None
    if failures:
        # an index never drawn (or drawn where its claimed probability is 0) first, then the
        # farthest outside its interval
        worst = max(failures, key=lambda f: ((f["frequency"] == 0) != (f["claimed"] == 0),
                                             f["outside_by"]))
        return Result(Status.FAIL, figures, counterexample=worst, detectable=detectable,
                      note=f"{len(failures)} inclusion probabilities refuted", detects=detects)
    return Result(Status.PASS, figures, detectable=detectable, detects=detects)


def sampler_checks(spec):
    """The two sampler checks of the learner of ``spec``, as ``(suffix, check, registration)``
    (the registration as :func:`~laocheck.checks.register` takes it): read by the learner
    records (:mod:`laocheck.checks.algorithms.learner_records`), which yield them as
    ``<spec name>.<suffix>`` for the catalog and for ``check_learner`` alike."""
    assumptions = f"synthetic data, d = {D}, ‖x‖₂ <= 1, |y| <= 1"
    if spec.algorithm in _ZERO_COLUMN_LEARNERS:
        assumptions += (f"; attribute {ZERO_COLUMN} identically 0 (q_{ZERO_COLUMN} at 0 or, "
                        "two-phase, on its floor ∝ √(13ε/6) or 13ε/6: KS15 Alg. 2/4 line 12)")
    if spec.algorithm in K_EQUALS_D:
        assumptions += f"; and again at k = d = {K_EQUALS_D[spec.algorithm]}"
    if spec.algorithm in _TWO_PHASE:
        assumptions += (f"; and again at m₁ = {SMALL_M1} (phase-1 counts 0; Alg. 4's "
                        "ε = min(·, 1) at 1)")
    return (
        ("steps_match_reference", check_steps_match_reference, dict(
            citation=spec.citation, assumptions=assumptions,
            statement=f"{spec.algorithm}'s output equals the literal box ({spec.citation}) "
            "replayed on its recorded draws, and so do its attributes per step",
            method="record_draws=True, replay by laocheck.reference.learners; "
            "rounding tolerance 16·m·(d + k + 4)·u·max|w̄| (AESVR: ·(2B/ε)²) + "
            "16·(d + k + 4)·(the output's change under a relative-u data perturbation), "
            "the latter capped at √u·max|w̄|" + (
                "; ε = 2B, so that GenEst's N = ⌈4(2B/ε)²⌉ = 4 puts HK12 Proc. 3's "
                "order n = 2 log₂ N = 4 (line 3's boundary) in about 1 call in 32; "
                "δ = B (HK12 Sec. 4's 0 <= δ <= B at its upper end)"
                if spec.algorithm == "AESVR" else "") + (
                "; the two-phase learners also with variant='practical' against KS15 Sec. 5's "
                "practical variant typed in the check (the even split k_x = ⌈(k + 1)/2⌉, "
                "phase 1's AERR / AELR step, q ∝ √A or A with ε = 0, Thm 3.5 / 4.6's η with A, "
                "phase 2 started at phase 1's output, the EG± weights z± for the lasso)"
                if spec.name.split(".")[-1] in _PRACTICAL else ""),
            delta=0.0, detectable="an output difference above the rounding tolerance")),
        ("attribute_inclusion", check_attribute_inclusion, dict(
            citation=spec.citation, assumptions=assumptions,
            statement=f"{spec.algorithm} draws each attribute index with the probability "
            f"of its sampling line ({spec.citation})",
            method="exact Clopper-Pearson per index (and per-step coincidence of the "
            "first two draws), Bonferroni over indices and parts",
            delta=DEFAULT_DELTA, detectable="reported per run")),
    )
