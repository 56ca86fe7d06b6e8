"""``fit_oracle`` for AER (CB11 Fig. 2), the Two-Phased learners (KS15 Alg. 2 and 4) and the
adaptive learners of KS15 App. A (AdaGAERR, AdaAERR, AdaDDAERR, AdaTwoPhaseDDAERR).

* On a finite data set read in order (``EmpiricalOracle(sequential=True)``) a run is
  bit-identical to ``fit`` (and, with ``n_steps`` above the rows, to ``fit_stream``) on the
  same rows: coefficients, last iterate, draws, attribute counts and, for the Two-Phased
  learners, phase 1's estimate, q, ε and η — the oracle path changes only where the attributes
  come from.
* Every attribute a step reads through the oracle is one the algorithm drew (recorded by a
  ``TapOracle`` around the oracle), at most the learner's budget (k for AER, k + 1 for the
  Two-Phased learners), at d = 10⁵.
* Experiments: ``replicate(source="oracle")`` gives the same numbers for n_jobs = 1 and 2, and
  its excess risks have the law of ``source="rows"``'s (two-sample KS/DKW test at δ = 1e-6; the
  sample size below is derived for power), and ``run_theorem(source="oracle")`` runs the three
  theorems whose learners gained the path.
* Validation: what ``test_oracle.py`` checks for the data-point sampling learners.
"""

import functools

import numpy as np
import pytest

from laocheck.data import CB11HardInstance, CorrelatedSigns, PowerLawBernoulli
from laocheck.data._oracle import EmpiricalOracle, TapOracle
from laocheck.exceptions import InvalidParameterError
from laocheck.experiments import LearnerConfig, replicate
from laocheck.experiments.theorems import run_theorem
from laocheck.learners import (AER, AdaAERR, AdaDDAERR, AdaGAERR, AdaTwoPhaseDDAERR,
                               TwoPhaseDDAELR, TwoPhaseDDAERR, has_oracle_path)
from laocheck.stats import two_sample_ks_test

DELTA = 1e-6


def _data(m=400, d=12, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, (m, d)) / np.sqrt(d)
    return X, X @ rng.uniform(-0.2, 0.2, d)


def _sequential(X, y):
    return EmpiricalOracle(X, y, np.random.default_rng(0), None, sequential=True)


AER_CASES = [dict(k=2), dict(k=4), dict(k=6, lam="proof"), dict(k=4, lam=0.5, B=2.0),
             dict(k=8, lam=3.0)]
TWO_PHASE_CASES = [(Model, dict(k=k, variant=variant, **extra))
                   for Model in (TwoPhaseDDAERR, TwoPhaseDDAELR)
                   for variant in ("theory", "practical")
                   for k, extra in ((3, {}), (2, dict(m1=57, eta=0.05)))]
TWO_PHASE_FIELDS = ("moments_", "q_", "phase1_draws_", "phase2_draws_")


def _assert_same_run(a, b, X, fields=()):
    assert np.array_equal(a.coef_, b.coef_)
    assert np.array_equal(a.w_, b.w_)
    assert np.array_equal(a.attributes_per_example_, b.attributes_per_example_)
    assert a.n_steps_ == b.n_steps_ and b.n_features_in_ == X.shape[1]
    assert a.n_attributes_seen_ == b.n_attributes_seen_
    assert np.array_equal(a.predict(X), b.predict(X))
    for name in fields:
        assert np.array_equal(getattr(a, name), getattr(b, name)), name


def _rows_and_oracle(Model, params, X, y, n_steps):
    """The same learner (same seed) fitted on the rows (``fit``, or ``fit_stream`` for
    ``n_steps`` steps) and through a sequential oracle on the same rows."""
    a = Model(**params, random_state=7, record_draws=True)
    if n_steps is None:
        a.fit(X, y)
    else:
        a.fit_stream(X, y, n_steps)
    b = Model(**params, random_state=7, record_draws=True).fit_oracle(
        _sequential(X, y), X.shape[0] if n_steps is None else n_steps)
    return a, b


@pytest.mark.parametrize("params", AER_CASES, ids=str)
@pytest.mark.parametrize("n_steps", [None, 1000])
def test_aer_sequential_oracle_is_bit_identical_to_fit(params, n_steps):
    X, y = _data()
    a, b = _rows_and_oracle(AER, params, X, y, n_steps)
    _assert_same_run(a, b, X, ("draws_",))
    assert a.lam_ == b.lam_


@pytest.mark.parametrize("case", range(len(TWO_PHASE_CASES)))
@pytest.mark.parametrize("n_steps", [None, 1000])
def test_two_phase_sequential_oracle_is_bit_identical_to_fit(case, n_steps):
    X, y = _data()
    Model, params = TWO_PHASE_CASES[case]
    a, b = _rows_and_oracle(Model, params, X, y, n_steps)
    _assert_same_run(a, b, X, TWO_PHASE_FIELDS)
    assert (a.eta_, a.eps_) == (b.eta_, b.eps_)
    # phase 1 really ran on the first m1 examples and phase 2 on the rest
    m1 = params.get("m1", (X.shape[0] if n_steps is None else n_steps) // 10)
    assert b.phase1_draws_.shape[0] == m1
    assert b.n_steps_ == (X.shape[0] if n_steps is None else n_steps)


ADAPTIVE_CASES = [(AdaGAERR, dict(k=3)), (AdaGAERR, dict(k=2, n_inner=3, eta=0.3, B=2.0)),
                  (AdaGAERR, dict(k=4, q=np.arange(1, 13) / 78.0)), (AdaAERR, dict(k=4)),
                  (AdaDDAERR, dict(k=3, second_moments=np.linspace(0.5, 1.5, 12))),
                  (AdaTwoPhaseDDAERR, dict(k=3)), (AdaTwoPhaseDDAERR, dict(k=3, variant="practical")),
                  (AdaTwoPhaseDDAERR, dict(k=2, m1=57, eta=0.05))]


@pytest.mark.parametrize("case", range(len(ADAPTIVE_CASES)))
@pytest.mark.parametrize("n_steps", [None, 1000])
def test_adaptive_sequential_oracle_is_bit_identical_to_fit(case, n_steps):
    """KS15 App. A's learners through an oracle: the same run as on the rows, bit for bit
    (coefficients, last iterate, draws, attributes, AdaGrad's accumulated squares)."""
    X, y = _data()
    Model, params = ADAPTIVE_CASES[case]
    assert has_oracle_path(Model)
    a, b = _rows_and_oracle(Model, params, X, y, n_steps)
    two_phase = Model is AdaTwoPhaseDDAERR
    _assert_same_run(a, b, X, TWO_PHASE_FIELDS if two_phase else ("draws_", "G_"))
    assert a.eta_ == b.eta_


@pytest.mark.parametrize("Model", [AdaGAERR, AdaTwoPhaseDDAERR])
def test_adaptive_reads_only_drawn_attributes_within_budget(Model):
    dist = PowerLawBernoulli(10**4, -1.0, scenario="ridge")
    k, m = 4, 2000
    tap = TapOracle(dist.oracle(np.random.default_rng(2)), k + 2, m)
    est = Model(k=k, random_state=1, record_draws=True).fit_oracle(tap, m)
    draws = est.draws_ if Model is AdaGAERR else np.vstack([est.phase1_draws_,
                                                            est.phase2_draws_])
    _read_within_draws(est, tap, draws, k + 1)
    assert est.max_attributes_per_example_ <= k + 1


@pytest.mark.parametrize("Model", [TwoPhaseDDAERR, TwoPhaseDDAELR])
def test_two_phase_oracle_with_n_total_as_partial_fit(Model):
    """``n_total`` fixes the split; the oracle run equals ``partial_fit`` in two batches."""
    X, y = _data()
    a = Model(k=3, n_total=400, random_state=5, record_draws=True)
    a.partial_fit(X[:150], y[:150]).partial_fit(X[150:], y[150:])
    b = Model(k=3, n_total=400, random_state=5, record_draws=True).fit_oracle(
        _sequential(X, y), 400)
    _assert_same_run(a, b, X, TWO_PHASE_FIELDS)


def test_tap_oracle_passes_examples_through_and_records_the_first_reads():
    dist = CorrelatedSigns(np.arange(1, 41) ** -0.5, np.r_[0.3, 0.2, np.zeros(38)], corr=0.3)
    idx = np.random.default_rng(1).integers(0, 40, size=(30, 5))
    plain = dist.oracle(np.random.default_rng(4)).reveal(idx)
    tap = TapOracle(dist.oracle(np.random.default_rng(4)), 3, 20)
    tapped = tap.reveal(idx)
    assert np.array_equal(plain[0], tapped[0]) and np.array_equal(plain[1], tapped[1])
    read, values = tap.recorded()
    assert read.shape == values.shape == (20, 3)
    assert np.array_equal(read, idx[:20, :3])              # 20 examples kept, 3 reads each
    assert np.array_equal(values, plain[0][:20, :3])
    assert tap.t == 30 and tap.d == 40


def _read_within_draws(est, tap, draws, budget):
    read, _ = tap.recorded()
    assert np.all(read[:, budget] == -1)                    # nothing read beyond the budget
    for t in range(read.shape[0]):
        got = set(read[t][read[t] >= 0].tolist())
        assert got <= set(draws[t][draws[t] >= 0].tolist()), t
        assert len(got) <= est.attributes_per_example_[t] <= budget


def test_aer_reads_only_drawn_attributes_within_budget():
    dist = CB11HardInstance(10**5, 0.01)
    k, m = 6, 3000
    tap = TapOracle(dist.oracle(np.random.default_rng(2)), k + 1, m)
    est = AER(k=k, lam="proof", random_state=1, record_draws=True).fit_oracle(tap, m)
    _read_within_draws(est, tap, est.draws_, k)
    assert est.max_attributes_per_example_ <= k
    assert np.abs(est.coef_).sum() <= 1 + 1e-9


@pytest.mark.parametrize("Model", [TwoPhaseDDAERR, TwoPhaseDDAELR])
@pytest.mark.parametrize("variant", ["theory", "practical"])
def test_two_phase_reads_only_drawn_attributes_within_budget(Model, variant):
    dist = PowerLawBernoulli(10**5, -1.0, scenario="lasso" if Model._lasso else "ridge")
    k, m = 4, 3000
    tap = TapOracle(dist.oracle(np.random.default_rng(2)), k + 2, m)
    est = Model(k=k, variant=variant, random_state=1, record_draws=True).fit_oracle(tap, m)
    draws = np.vstack([est.phase1_draws_, est.phase2_draws_])
    assert draws.shape[0] == m
    _read_within_draws(est, tap, draws, k + 1)
    assert est.max_attributes_per_example_ <= k + 1


def _cases():
    d = 60
    w = np.zeros(d)
    w[:5] = 0.2
    return {
        "AER": (LearnerConfig(AER, dict(k=4, B=1.0, lam="proof")), CB11HardInstance(d, 0.01),
                "l1", "squared"),
        "TwoPhaseDDAERR": (LearnerConfig(TwoPhaseDDAERR, dict(k=4, B=1.0)),
                           PowerLawBernoulli(d, -1.0, scenario="ridge"), "l2", "half"),
        "TwoPhaseDDAELR": (LearnerConfig(TwoPhaseDDAELR, dict(k=4, B=1.0, variant="practical")),
                           CorrelatedSigns(np.arange(1, d + 1) ** -0.5, w, corr=0.3), "l1",
                           "half"),
    }


@pytest.mark.parametrize("which", ["AER", "TwoPhaseDDAELR"])
def test_replicate_oracle_same_numbers_any_jobs(which):
    spec, dist, norm, loss = _cases()[which]
    a = replicate(spec, dist, 300, norm=norm, B=1.0, R=6, seed=3, source="oracle", loss=loss)
    b = replicate(spec, dist, 300, norm=norm, B=1.0, R=6, seed=3, source="oracle", loss=loss,
                  n_jobs=2)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


#: Runs per path. The DKW two-sample test at δ fails with probability <= δ when the paths
#: have one law, whatever R; its threshold is 2·√(ln(4/δ)/(2R)), and a wrong path whose
#: excess-risk CDF differs from the right one's anywhere by more than ``detectable`` =
#: 4·√(ln(4/δ)/(2R)) fails with probability >= 1 − δ. R = 800 makes detectable = 0.39 at
#: δ = 1e-6 (R >= 8 ln(4/δ)/0.4² = 760 for 0.4).
R_LAW = 800
M_LAW = 400


@functools.cache
def _rows_excess(which):
    spec, dist, norm, loss = _cases()[which]
    return replicate(spec, dist, M_LAW, norm=norm, B=1.0, R=R_LAW, seed=11, loss=loss)[0]


@pytest.mark.parametrize("which", ["AER", "TwoPhaseDDAERR", "TwoPhaseDDAELR"])
def test_excess_risk_same_law_as_rows(which):
    spec, dist, norm, loss = _cases()[which]
    orc = replicate(spec, dist, M_LAW, norm=norm, B=1.0, R=R_LAW, seed=12, source="oracle",
                    loss=loss)[0]
    res = two_sample_ks_test(_rows_excess(which), orc, delta=DELTA)
    assert res.detectable < 0.4
    assert res.passed, res


@pytest.mark.parametrize("which", ["AER", "TwoPhaseDDAERR", "TwoPhaseDDAELR"])
def test_law_test_rejects_a_path_that_drops_examples(which):
    """Power at R_LAW: a path that makes 1/16 of the steps (the kind of wrong path that loses a
    phase or stops early) is rejected. Measured with 2000 runs per path, its excess-risk CDF is
    at KS distance 0.74 (AER), 0.61 (TwoPhaseDDAERR), 1.00 (TwoPhaseDDAELR) from the right
    one's, so (DKW, 99.9% confidence) at least 0.52 > ``detectable`` = 0.39: the test then
    rejects with probability >= 1 − δ. (A quarter of the steps is at 0.34-0.43 on the first
    two: the learners move little in 400 steps on these instances, which is why the law test
    only backs up the bit-identity tests above.)"""
    spec, dist, norm, loss = _cases()[which]
    short = replicate(spec, dist, M_LAW // 16, norm=norm, B=1.0, R=R_LAW, seed=12,
                      source="oracle", loss=loss)[0]
    res = two_sample_ks_test(_rows_excess(which), short, delta=DELTA)
    assert not res.passed, res


@pytest.mark.parametrize("theorem", ["CB11.Thm12", "KS15.Thm3.12", "KS15.Thm4.7"])
def test_run_theorem_through_the_oracle(theorem):
    comp, figs = run_theorem(theorem, d=40, k=4, m=400, R=4, kind="hard", source="oracle")
    assert comp.excess.shape == (4,) and np.all(np.isfinite(comp.excess))
    assert comp.attributes_per_run <= 400 * 5
    if theorem != "CB11.Thm12":
        assert figs["eta_rel_diff"] < 1e-12                 # the step check, through the oracle


def test_validation():
    dist = CB11HardInstance(40, 0.01)
    X, y = _data()
    with pytest.raises(InvalidParameterError, match="oracle"):
        AER(k=2).fit_oracle((X, y), 10)
    with pytest.raises(InvalidParameterError, match="oracle"):
        TwoPhaseDDAERR(k=2).fit_oracle((X, y), 10)
    with pytest.raises(InvalidParameterError, match="n_steps"):
        AER(k=2).fit_oracle(dist.oracle(0), 0)
    with pytest.raises(InvalidParameterError, match="n_steps"):
        TwoPhaseDDAELR(k=2).fit_oracle(dist.oracle(0), 0)
    with pytest.raises(InvalidParameterError, match="`k` must be even"):
        AER(k=3).fit_oracle(dist.oracle(0), 10)
    with pytest.raises(InvalidParameterError, match="`k`"):
        AER(k=82).fit_oracle(dist.oracle(0), 10)
    with pytest.raises(InvalidParameterError, match="`k`"):
        TwoPhaseDDAERR(k=41).fit_oracle(dist.oracle(0), 100)
    with pytest.raises(InvalidParameterError, match="too small for the oracle"):
        AER(k=2, lam=1e-9).fit_oracle(dist.oracle(0), 10)
    with pytest.raises(InvalidParameterError, match="`m1`"):
        TwoPhaseDDAERR(k=2, m1=100).fit_oracle(dist.oracle(0), 100)
    with pytest.raises(InvalidParameterError, match="`variant`"):
        TwoPhaseDDAELR(k=2, variant="other").fit_oracle(dist.oracle(0), 100)
    q = np.zeros(100)
    q[:50] = 1 / 50
    with pytest.raises(InvalidParameterError, match="positive wherever x_i can be nonzero"):
        AdaGAERR(k=2, q=q).fit_oracle(PowerLawBernoulli(100, -1.0).oracle(0), 100)
    # a fit_oracle that fails after a good one leaves no fitted attribute behind; a good one
    # after it works
    for est, bad, good in ((AER(k=2, lam="proof", random_state=0), dict(lam=1e-9),
                            dict(lam="proof")),
                           (TwoPhaseDDAERR(k=2, random_state=0), dict(m1=10**6), dict(m1=None))):
        est.fit_oracle(dist.oracle(0), 50)
        est.set_params(**bad)
        with pytest.raises(InvalidParameterError):
            est.fit_oracle(dist.oracle(0), 50)
        assert not hasattr(est, "coef_") and not hasattr(est, "n_steps_")
        est.set_params(**good).fit_oracle(dist.oracle(0), 60)
        assert est.n_steps_ == 60 and est.attributes_per_example_.shape == (60,)
