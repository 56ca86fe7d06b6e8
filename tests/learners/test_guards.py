"""The learners' guards and bookkeeping that no catalog check is about (input limits, read-only
tables, the first partial_fit's m, error locations, the phases' boundary): each test is
named for the slip it catches, found by the mutation engine (tests/mutation/known_survivors.txt
names the test of each)."""
import numpy as np
import pytest

from laocheck import InvalidParameterError
from laocheck.data._oracle import EmpiricalOracle
from laocheck.learners import (AER, AERR, AESVR, DDAELR, DDAERR, GAERR, AdaGAERR,
                               AdaTwoPhaseDDAERR, OnlineRidge, TwoPhaseDDAELR, TwoPhaseDDAERR)
from laocheck.learners._base import q_alias_rows
from laocheck.learners.adaptive import _AdaState


def rows(m, d, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, (m, d)) / np.sqrt(d)
    return X, np.clip(X @ rng.uniform(-1, 1, d), -1, 1)


@pytest.mark.parametrize("sign", [1.0, -1.0])
@pytest.mark.parametrize("where", ["X", "y"])
def test_an_entry_beyond_1e100_on_one_side_only_is_refused(sign, where):
    """max|X| <= 1e100 needs both max X <= 1e100 and min X >= -1e100 (not either); the
    full-information learners check the whole of X and y up front."""
    X, y = rows(20, 4)
    if where == "X":
        X[3, 1] = sign * 2e100
    else:
        y[3] = sign * 2e100
    with pytest.raises(InvalidParameterError, match=f"max\\|{where}\\|"):
        OnlineRidge().fit(X, y)


def test_the_cached_alias_rows_are_read_only():
    """The alias table of q is shared between learners with the same q: nobody may write it."""
    q = np.array([0.1, 0.2, 0.3, 0.4])
    table = q_alias_rows(q, 2)
    assert not table.flags.writeable
    with pytest.raises(ValueError):
        table[0] = 0


def test_the_first_partial_fit_takes_its_rows_as_m_of_the_theory_step():
    """Without n_total, eta='theory' uses the m of the first partial_fit (its rows, not d)."""
    X, y = rows(50, 4)
    est = AERR(k=2).partial_fit(X, y)
    assert est.eta_ == pytest.approx(np.sqrt(2 / (2 * 4 * 50)), rel=1e-12)


def test_theory_step_refuses_n_total_0():
    with pytest.raises(InvalidParameterError, match="n_total"):
        AERR(k=1, n_total=0).theory_step(10, 4)


def test_n_inner_above_2_to_the_20_is_refused():
    GAERR(k=1, n_inner=2**20).theory_step(10, 4)
    with pytest.raises(InvalidParameterError, match="n_inner"):
        GAERR(k=1, n_inner=2**20 + 1).theory_step(10, 4)


def test_q_zero_where_the_oracle_moments_are_small_but_positive_is_refused():
    """KS15 Alg. 1 line 5: q_i > 0 wherever E[x_i²] > 0 (moments below 1 included)."""
    X, y = rows(40, 3)
    moments = np.mean(X * X, axis=0)                       # all in (0, 1)
    oracle = EmpiricalOracle(X, y, np.random.default_rng(0), moments, sequential=True)
    est = GAERR(k=1, q=np.array([0.5, 0.5, 0.0]), eta=0.1, random_state=0)   # no moments given
    with pytest.raises(InvalidParameterError, match="x_i can be nonzero"):
        est.fit_oracle(oracle, 20)


def test_aer_takes_k_equal_to_2d():
    """CB11 Fig. 2 draws a subset of k/2 <= d attributes: k = 2d (the whole example) is the
    boundary, allowed."""
    X, y = rows(30, 3)
    est = AER(k=6, lam=0.5, random_state=0).fit(X, y)
    assert est.max_attributes_per_example_ <= 6
    with pytest.raises(InvalidParameterError, match="k"):
        AER(k=8, lam=0.5, random_state=0).fit(X, y)


def test_aer_lam_theory_without_m_says_1_sample():
    with pytest.raises(InvalidParameterError, match=r"\(1 sample\)"):
        AER(k=2, lam="theory").partial_fit(*rows(1, 3))


def test_aer_names_the_label_that_makes_its_first_step_too_large():
    X, y = rows(30, 3)
    y[7] = 1e20
    with pytest.raises(InvalidParameterError, match=r"the last y\[7\]=1e\+20"):
        AER(k=2, lam=0.5, random_state=0).fit(X, y)


@pytest.mark.parametrize("Model", [TwoPhaseDDAERR, TwoPhaseDDAELR])
def test_m1_equal_to_m_is_refused(Model):
    """Phase 2 needs m1 < m: m1 = m is the boundary, refused (fit and n_total)."""
    X, y = rows(40, 4)
    with pytest.raises(InvalidParameterError, match="m1"):
        Model(k=2, m1=40).fit(X, y)
    with pytest.raises(InvalidParameterError, match="phase 1"):
        Model(k=2, n_total=400).fit(X, y)                   # m1 = 40 = m


def test_the_n_total_message_names_the_largest_n_total_allowed():
    X, y = rows(40, 4)
    with pytest.raises(InvalidParameterError, match="n_total <= 399"):
        TwoPhaseDDAERR(k=2, n_total=400).fit(X, y)


def test_the_default_m1_of_n_total_is_an_integer():
    """m₁ = max(1, n_total // 10) (KS15 Sec. 5): 25 // 10 = 2 examples, an integer."""
    X, y = rows(25, 4)
    est = TwoPhaseDDAERR(k=2, n_total=25, random_state=0, record_draws=True).fit(X, y)
    assert est.phase1_draws_.shape[0] == 2


@pytest.mark.parametrize("delta", [0.0, -0.5])
def test_delta_0_and_below_are_refused_before_any_step(delta):
    """Refused by the learner's own validation, at the first call, not by ε's formula when
    phase 2 starts (after phase 1 has run)."""
    X, y = rows(40, 4)
    with pytest.raises(InvalidParameterError, match="`delta` must satisfy 0 < delta; got"):
        TwoPhaseDDAERR(k=2, delta=delta, m1=30, n_total=40).partial_fit(X[:10], y[:10])


def test_m1_beyond_2_to_the_62_is_refused_as_such_with_n_total():
    X, y = rows(40, 4)
    with pytest.raises(InvalidParameterError, match="m1 <= 4611686018427387904"):
        TwoPhaseDDAERR(k=2, m1=2**62 + 1, n_total=100).fit(X, y)


def test_the_default_m1_is_named_as_an_integer_in_the_error():
    X, y = rows(2, 4)
    with pytest.raises(InvalidParameterError, match="at m1=2 examples"):
        TwoPhaseDDAERR(k=2, n_total=25).fit(X, y)


def test_the_lasso_warm_start_is_pulled_inside_the_open_ball():
    """Phase 1's output on (or rounded beyond) the L1 sphere is scaled to ‖w‖₁ = B(1 − 2⁻²⁰)
    before it becomes phase 2's EG± weights (which need ‖w‖₁ < B)."""
    est = TwoPhaseDDAELR(k=2, variant="practical")
    est._rng = np.random.default_rng(0)
    start = np.array([1.5, -0.5, 0.0, 0.0])                   # ‖·‖₁ = 2 = 2B
    model = est._phase2_learner(2, 1, 1.0, np.full(4, 0.25), 0.1, 10, start)
    assert np.abs(model._warm_start).sum() == pytest.approx(1 - 2.0 ** -20, rel=1e-15)


def test_adagrad_draws_never_land_on_a_trailing_q_0():
    """A uniform at the top of [0, 1] (searchsorted past the cumulative q) is mapped to the
    last index with q_i > 0, not to index d − 1 where q is 0."""
    class TopRng:
        def random(self, shape):
            return np.ones(shape)

    state = _AdaState(np.zeros(3), 1.0, 3, 2, 1, np.array([0.5, 0.5, 0.0]))
    state.refill(TopRng(), 3)
    assert set(np.unique(state.I)) == {1}


def test_an_adaptive_learner_refuses_a_bad_entry_in_row_0():
    X, y = rows(20, 3)
    X[0, :] = 2e100
    with pytest.raises(ValueError, match=r"X\[0, "):
        AdaGAERR(k=1, random_state=0).fit(X, y)


@pytest.mark.parametrize("Model", [DDAERR, DDAELR])
def test_moments_whose_sum_overflows_give_a_finite_q(Model):
    """q is scale-free: moments summing beyond the doubles are divided by their largest."""
    X, y = rows(20, 3)
    est = Model(k=1, eta=0.1, second_moments=[1e308, 1e308, 1e-3], random_state=0).fit(X, y)
    assert np.all(np.isfinite(est.q_)) and est.q_.sum() == pytest.approx(1.0)
    assert est.q_[0] == pytest.approx(0.5, rel=1e-6)


def test_aesvr_accepts_a_genest_bound_up_to_2_to_the_30():
    AESVR(k=1, B=1.0, eps=2 / 2 ** 29.5).theory_step(10, 3)        # 2B/ε = 2^29.5
    with pytest.raises(InvalidParameterError, match="eps"):
        AESVR(k=1, B=1.0, eps=2 / 2 ** 30.5).theory_step(10, 3)


@pytest.mark.parametrize("Model", [TwoPhaseDDAERR, TwoPhaseDDAELR, AdaTwoPhaseDDAERR])
def test_partial_fit_that_ends_exactly_at_m1_then_goes_on(Model):
    """A batch ending at the phases' boundary starts phase 2 with no rows; the next batch runs
    it, and the run equals fit's (it raised AttributeError before: phase 2's learner had seen
    nothing, found by the mutant `phase == 2 or hasattr(...)` of _TwoPhase._advance)."""
    X, y = rows(60, 4)
    whole = Model(k=2, m1=20, n_total=60, random_state=3).fit(X, y)
    est = Model(k=2, m1=20, n_total=60, random_state=3)
    est.partial_fit(X[:20], y[:20])
    est.partial_fit(X[20:], y[20:])
    np.testing.assert_array_equal(est.coef_, whole.coef_)


def test_a_bad_row_in_phase_2_is_named_by_its_row():
    X, y = rows(60, 4)
    est = TwoPhaseDDAERR(k=2, m1=20, n_total=60, random_state=3).partial_fit(X[:30], y[:30])
    X2 = X[30:].copy()
    X2[:, :] = np.nan                                       # every entry of every row
    with pytest.raises(InvalidParameterError, match=r"X\[0,"):
        est.partial_fit(X2, y[30:])


def test_online_fit_rows_refuses_row_minus_1():
    X, y = rows(10, 3)
    with pytest.raises(InvalidParameterError, match="rows"):
        OnlineRidge()._fit_rows(np.ascontiguousarray(X), np.ascontiguousarray(y),
                                np.array([-1, 0, 1], dtype=np.intp))
