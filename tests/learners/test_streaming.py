"""The kernels' streaming mode (``n_steps``: rows taken cyclically from a pool, no m × d
array) and long runs: m = 10⁷ EG± steps neither overflow nor underflow (the issue's numeric
requirement), and cycling a pool equals fitting the tiled rows bit for bit."""
import numpy as np
import pytest

from laocheck.learners import AELR, AER, AERR, DDAERR, TwoPhaseDDAELR, TwoPhaseDDAERR
from laocheck.learners._lasso import LassoState
from laocheck.learners._ridge import RidgeState


def pool(P=7, d=9, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, (P, d)) / np.sqrt(d)
    return np.ascontiguousarray(X), rng.uniform(-1, 1, P)


@pytest.mark.parametrize("make", [lambda d: RidgeState(np.full(d, 0.3), 1.0),
                                  lambda d: LassoState(d, 1.0)])
def test_cycling_a_pool_equals_the_tiled_rows(make):
    X, y = pool()
    reps = 50
    tiled_X, tiled_y = np.tile(X, (reps, 1)), np.tile(y, reps)
    m = tiled_X.shape[0]
    a, b = make(X.shape[1]), make(X.shape[1])
    att_a, att_b = np.zeros(m, dtype=np.int_), np.zeros(m, dtype=np.int_)
    a.run(np.random.default_rng(1), tiled_X, tiled_y, 3, None, 0.05, att_a, None, 2)
    b.run(np.random.default_rng(1), X, y, 3, None, 0.05, att_b, None, 2, m)
    np.testing.assert_array_equal(a.average(), b.average())
    np.testing.assert_array_equal(att_a, att_b)


def test_ten_million_eg_steps_stay_finite_and_on_the_ball():
    """x = (1, 0), y = 2, η = 1: the log-weight of coordinate 1 moves by 1 per sampled step,
    10⁷ times (exp overflows past 709): w stays finite, on the L1 ball, at the vertex e_1."""
    X = np.array([[1.0, 0.0]])
    y = np.array([2.0])
    state = LassoState(2, 1.0)
    m = 10_000_000
    state.run(np.random.default_rng(2), X, y, 1, None, 1.0, np.zeros(m, dtype=np.int_), None,
              1, m)
    assert state.t == m and state.n_shifts > 10_000
    w, w_bar = state.coef(), state.average()
    assert np.all(np.isfinite(w)) and np.all(np.isfinite(w_bar))
    np.testing.assert_allclose(w, [1.0, 0.0], atol=1e-12)
    assert np.abs(w_bar).sum() <= 1 + 1e-12


def test_ten_million_ridge_steps_keep_the_norm_exact():
    """10⁷ projected steps: the incremental ‖u‖² is recomputed every max(d, 1024) steps and
    s folded into u; at the end the state's ‖w‖ equals a fresh computation to 1e-12."""
    X, y = pool(P=13, d=50, seed=3)
    state = RidgeState(np.full(50, 1 / np.sqrt(50)), 1.0)
    m = 10_000_000
    state.run(np.random.default_rng(4), X, y, 4, None, 0.5, np.zeros(m, dtype=np.int_), None,
              1, m)
    w = state.coef()
    assert np.all(np.isfinite(w)) and np.linalg.norm(w) <= 1 + 1e-12
    assert state.s * np.sqrt(state.norm_sq) == pytest.approx(np.linalg.norm(w), rel=1e-12)


@pytest.mark.parametrize("make", [
    lambda: AERR(k=3, random_state=5),
    lambda: AELR(k=3, random_state=5),
    lambda: AER(k=4, random_state=5),
    lambda: DDAERR(k=2, second_moments=np.linspace(0.1, 1, 9), n_inner=2, random_state=5),
    lambda: TwoPhaseDDAELR(k=3, random_state=5),
    lambda: TwoPhaseDDAERR(k=3, variant="practical", random_state=5),
])
def test_fit_stream_equals_fit_on_the_tiled_pool(make):
    """``fit_stream`` (the learners' row source for long runs) is ``fit`` on the tiled pool."""
    X, y = pool()
    n = 7 * 40 + 3                     # not a multiple of the pool: the phases cut mid-pool
    tiled_X = np.tile(X, (41, 1))[:n]
    tiled_y = np.tile(y, 41)[:n]
    a = make().fit(tiled_X, tiled_y)
    b = make().fit_stream(X, y, n)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.attributes_per_example_, b.attributes_per_example_)
