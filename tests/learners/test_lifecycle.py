"""The lifecycle every budgeted learner shares (``BudgetedLearner``: fit, partial_fit,
fit_stream, validation, bookkeeping, theory step), checked the same way for each learner:

* each entry point (one ``fit``, ``partial_fit`` in three batches, ``fit_stream`` from a
  pool) gives, for a fixed seed, the ``coef_`` that the literal reference
  (``laocheck.reference.learners``, the paper's box line by line) computes on the same draws
  and the same rows (tiled for the stream), and the same attributes per step;
* the same seed gives the same coefficients through every entry point;
* no learner subclasses an unrelated one to borrow its code (issue 11).
"""
import numpy as np
import pytest

from laocheck.learners import (AELR, AER, AERR, AESVR, DDAELR, DDAERR, GAELR, GAERR, AdaAERR,
                               AdaDDAERR, AdaGAERR, AdaTwoPhaseDDAERR, Baseline, TwoPhaseDDAELR,
                               TwoPhaseDDAERR)
from laocheck.learners._base import BudgetedLearner, DataPointSampling
from laocheck.reference.learners import (ReplaySource, aer, aesvr, baseline, gaelr, gaerr,
                                         two_phase_ddaelr, two_phase_ddaerr)

D, M, POOL = 8, 600, 37
RNG = np.random.default_rng(11)
X_ALL = RNG.uniform(-1, 1, (M, D)) * np.arange(1, D + 1) ** -0.5
X_ALL /= np.max(np.linalg.norm(X_ALL, axis=1))                       # ‖x‖₂ <= 1
Y_ALL = np.clip(X_ALL @ RNG.uniform(-0.4, 0.4, D) + 0.1 * RNG.uniform(-1, 1, M), -1, 1)
Q = np.arange(1, D + 1) / np.arange(1, D + 1).sum()
MOMENTS = np.mean(X_ALL ** 2, axis=0)


def flat(*records):
    return [int(i) for r in records for i in np.ravel(r) if i >= 0]


def ridge_ref(est, X, y):
    w1 = np.full(D, est.B / np.sqrt(D))
    return gaerr(X, y, est.k, est.B, est.eta_, w1, ReplaySource(flat(est.draws_)), q=est.q_,
                 n_inner=est.n_inner)


def lasso_ref(est, X, y):
    return gaelr(X, y, est.k, est.B, est.eta_, ReplaySource(flat(est.draws_)), q=est.q_,
                 n_inner=est.n_inner)


def aesvr_ref(est, X, y):
    w1 = np.full(D, est.B / np.sqrt(D))
    return aesvr(X, y, est.k, est.B, est.eta_, w1, est.eps, est.delta, 2 * est.B / est.eps,
                 ReplaySource(est.draws_))


def aer_ref(est, X, y):
    return aer(X, y, est.k, est.B, est.lam_, ReplaySource(est.draws_.ravel()))


def two_phase_ref(est, X, y):
    src = ReplaySource(flat(est.phase1_draws_, est.phase2_draws_))
    if isinstance(est, TwoPhaseDDAERR):
        return two_phase_ddaerr(X, y, est.k, est.B, est.m1, est.delta,
                                np.full(D, est.B / np.sqrt(D)), src)
    return two_phase_ddaelr(X, y, est.k, est.B, est.m1, est.delta, src)


# (make(n_total), reference, relative tolerance of ‖w̄‖∞: the kernels keep w = s·u, lazy
# averages and incremental norms, so they round differently from the literal loops; the
# tolerances are those of the learners' own reference tests)
CASES = {
    "AERR": (lambda n: AERR(k=3, n_total=n, random_state=1, record_draws=True), ridge_ref, 1e-12),
    "GAERR": (lambda n: GAERR(k=2, q=Q, eta=0.05, n_inner=2, n_total=n, random_state=2,
                              record_draws=True), ridge_ref, 1e-12),
    "DDAERR": (lambda n: DDAERR(k=4, second_moments=MOMENTS, n_total=n, random_state=3,
                                record_draws=True), ridge_ref, 1e-12),
    "AELR": (lambda n: AELR(k=3, n_total=n, random_state=4, record_draws=True), lasso_ref,
             1e-12),
    "GAELR": (lambda n: GAELR(k=2, q=Q, eta=0.05, n_inner=3, n_total=n, random_state=5,
                              record_draws=True), lasso_ref, 1e-12),
    "DDAELR": (lambda n: DDAELR(k=2, second_moments=MOMENTS, n_total=n, random_state=6,
                                record_draws=True), lasso_ref, 1e-12),
    "AESVR": (lambda n: AESVR(k=3, eps=0.4, delta=0.05, n_total=n, random_state=7,
                              record_draws=True), aesvr_ref, 1e-10),
    "AER": (lambda n: AER(k=4, n_total=n, random_state=8, record_draws=True), aer_ref, 1e-11),
    "TwoPhaseDDAERR": (lambda n: TwoPhaseDDAERR(k=3, m1=60, delta=0.1, n_total=n,
                                                random_state=9, record_draws=True),
                       two_phase_ref, 1e-12),
    "TwoPhaseDDAELR": (lambda n: TwoPhaseDDAELR(k=3, m1=60, delta=0.1, n_total=n,
                                                random_state=10, record_draws=True),
                       two_phase_ref, 1e-12),
}


def run(make, mode):
    """(estimator, the rows it stepped through in order)."""
    if mode == "fit":
        return make(None).fit(X_ALL, Y_ALL), X_ALL, Y_ALL
    if mode == "partial_fit":
        est = make(M)
        for part in np.array_split(np.arange(M), 3):
            est.partial_fit(X_ALL[part], Y_ALL[part])
        return est, X_ALL, Y_ALL
    est = make(None).fit_stream(X_ALL[:POOL], Y_ALL[:POOL], M)
    reps = -(-M // POOL)
    return est, np.tile(X_ALL[:POOL], (reps, 1))[:M], np.tile(Y_ALL[:POOL], reps)[:M]


@pytest.mark.parametrize("mode", ["fit", "partial_fit", "fit_stream"])
@pytest.mark.parametrize("name", list(CASES))
def test_every_entry_point_equals_the_literal_reference(name, mode):
    make, reference, rtol = CASES[name]
    est, X, y = run(make, mode)
    w_bar, seen = reference(est, X, y)
    assert est.n_steps_ == M
    assert np.max(np.abs(est.coef_ - w_bar)) <= rtol * np.max(np.abs(w_bar))
    np.testing.assert_array_equal(est.attributes_per_example_, seen)
    assert est.n_attributes_seen_ == int(seen.sum())
    assert est.max_attributes_per_example_ == int(seen.max())


@pytest.mark.parametrize("mode", ["fit", "partial_fit", "fit_stream"])
def test_baseline_entry_points_equal_the_literal_accumulation(mode):
    """Baseline (CB11 Fig. 1) through the same lifecycle: its sums over the rows stepped
    through equal the literal box's (Ā, v̄, ȳ) on the same k-samples, whichever entry point."""
    est, X, y = run(lambda n: Baseline(k=4, variant="literal", random_state=12,
                                       record_draws=True), mode)
    A, v, ybar, seen = baseline(X, y, 4, ReplaySource(est.draws_.ravel()))
    np.testing.assert_allclose(est.A_bar_, A, rtol=0, atol=1e-13)
    np.testing.assert_allclose(est.v_bar_, v, rtol=0, atol=1e-13)
    assert est.y_bar_ == pytest.approx(ybar, rel=1e-13)
    np.testing.assert_array_equal(est.attributes_per_example_, seen)
    assert est.n_steps_ == M


@pytest.mark.parametrize("name", list(CASES))
def test_same_seed_same_coefficients_through_every_entry_point(name):
    """fit on the tiled pool = fit_stream from the pool, and fit = partial_fit in batches
    (with the same m for the theory step), bit for bit."""
    make = CASES[name][0]
    reps = -(-M // POOL)
    Xt, yt = np.tile(X_ALL[:POOL], (reps, 1))[:M], np.tile(Y_ALL[:POOL], reps)[:M]
    np.testing.assert_array_equal(make(None).fit(Xt, yt).coef_, run(make, "fit_stream")[0].coef_)
    np.testing.assert_array_equal(make(M).fit(X_ALL, Y_ALL).coef_,
                                  run(make, "partial_fit")[0].coef_)


def test_aesvr_fit_stream_runs_and_equals_fit_on_the_tiled_rows():
    """AESVR.fit_stream raised TypeError (unexpected keyword n_steps) before the shared
    lifecycle: it now makes n_steps steps from the pool, as fit on the tiled rows does."""
    est = AESVR(k=2, random_state=3).fit_stream(X_ALL[:5], Y_ALL[:5], 23)
    assert est.n_steps_ == 23 and est.attributes_per_example_.shape == (23,)
    tiled = AESVR(k=2, n_total=23, random_state=3).fit(np.tile(X_ALL[:5], (5, 1))[:23],
                                                       np.tile(Y_ALL[:5], 5)[:23])
    np.testing.assert_array_equal(est.coef_, tiled.coef_)
    assert est.eta_ == tiled.eta_


BUDGETED = [AERR, GAERR, DDAERR, AELR, GAELR, DDAELR, AESVR, AER, Baseline, TwoPhaseDDAERR,
            TwoPhaseDDAELR, AdaGAERR, AdaAERR, AdaDDAERR, AdaTwoPhaseDDAERR]


@pytest.mark.parametrize("cls", BUDGETED)
def test_the_lifecycle_is_the_base_s(cls):
    assert issubclass(cls, BudgetedLearner)
    for method in ("fit", "partial_fit", "fit_stream", "predict", "_run", "_data"):
        assert getattr(cls, method) is getattr(BudgetedLearner, method), method


def test_no_learner_subclasses_an_unrelated_one():
    """Special cases subclass their general algorithm (AERR, DDAERR of GAERR; AELR, DDAELR of
    GAELR); nothing else subclasses another learner to borrow its code."""
    related = {AERR: GAERR, DDAERR: GAERR, AELR: GAELR, DDAELR: GAELR, AdaAERR: AdaGAERR,
               AdaDDAERR: AdaGAERR}
    for cls in BUDGETED:
        learner_bases = [b for b in cls.__mro__[1:] if b in BUDGETED]
        assert learner_bases == ([related[cls]] if cls in related else []), cls
    assert issubclass(GAERR, DataPointSampling) and issubclass(GAELR, DataPointSampling)
