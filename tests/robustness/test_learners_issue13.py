"""Issue 13 section 1, one test per defect found in the learners and the projection.

The rule: a public entry point returns a finite, correct answer (the projection's output in
the ball to 1e-12 relative, the learner's iterate in its ball) or raises ValueError/TypeError
naming the parameter, before any work. Inputs that crashed the interpreter or hung run in a
subprocess with a time limit, so a segmentation fault or a hang fails the test instead of
killing or stalling pytest.
"""
import subprocess
import sys
import textwrap
from fractions import Fraction

import numpy as np
import pytest

from laocheck.learners import (AELR, AER, AERR, AESVR, DDAERR, GAELR, GAERR, Baseline,
                               OfflineLasso, TwoPhaseDDAERR, project_l1_ball)
from laocheck.learners.aer import AER_BALL_RTOL, AER_MAX_STEP_RATIO
from laocheck.reference.learners import ReplaySource, aer

SIGNS = np.random.default_rng(0).choice([-1.0, 1.0], (200, 5))      # ±1 data


def in_subprocess(body, timeout=240):
    """Run ``body`` in a fresh interpreter; returns its stdout. A crash (signal), an
    exception or no exit within ``timeout`` seconds fails the test."""
    code = textwrap.dedent("""
        import numpy as np
        from laocheck.learners import AER, AESVR
        X = np.random.default_rng(0).choice([-1.0, 1.0], (200, 5))
        y = X[:, 0].copy()
        def refused(make, name):
            try:
                est = make()
            except ValueError as exc:
                assert f"`{name}`" in str(exc), str(exc)
                print("refused", name)
                return
            raise AssertionError(f"accepted: coef_={est.coef_}")
    """) + textwrap.dedent(body)
    try:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        pytest.fail(f"no return within {timeout} s (a hang)")
    assert done.returncode == 0, (f"exit status {done.returncode} (negative: killed by a "
                                  f"signal, -11 a segfault)\n{done.stderr[-2000:]}")
    return done.stdout


def test_aer_tiny_lambda_does_not_crash_the_interpreter():
    """AER(lam=1e-16) on ±1 data was a segmentation fault."""
    out = in_subprocess("refused(lambda: AER(k=2, lam=1e-16, random_state=0).fit(X, y), 'lam')")
    assert "refused lam" in out


def test_aer_huge_labels_do_not_crash_the_interpreter():
    """y = 1e308 was a segmentation fault (or a hang); y = 1e18 broke the L1 projection."""
    out = in_subprocess("""
        refused(lambda: AER(k=2, random_state=0).fit(X, y * 1e308), 'y')
        refused(lambda: AER(k=2, random_state=0).fit(X, y * 1e18), 'lam')
    """)
    assert out.split() == ["refused", "y", "refused", "lam"]


def test_aesvr_huge_entry_does_not_hang():
    """An entry 1e308 in X made AESVR loop forever in its sum tree."""
    out = in_subprocess("""
        X2 = X / 3
        X2[3] = 1e308          # a whole row: a step reads it (an unread entry is never inspected)
        refused(lambda: AESVR(k=2, random_state=0).fit(X2, y), 'X')
    """)
    assert "refused X" in out


def test_aesvr_tiny_eps_does_not_hang():
    """eps = 1e-100 hung (GenEst's N = ⌈4(2B/ε)²⌉ draws per factor)."""
    out = in_subprocess("refused(lambda: AESVR(k=2, eps=1e-100, random_state=0).fit(X / 3, y),"
                        " 'eps')")
    assert "refused eps" in out


def test_aer_small_lambda_keeps_the_iterate_in_the_ball_or_refuses():
    """lam = 1e-15 returned ‖w‖₁ > B: now refused (the first step would move w by ~1e16 B,
    beyond what the O(log d) projection resolves), and a λ just above the documented bound
    keeps w and w̄ in the ball (to the documented AER_BALL_RTOL)."""
    X, y = SIGNS, SIGNS[:, 0]
    with pytest.raises(ValueError, match="`lam`"):
        AER(k=2, lam=1e-15, random_state=0).fit(X, y)
    # the bound: 4 d max|x| (B max|x| + max|y|)/(k λ B) <= 2^16, ball to AER_BALL_RTOL
    lam = 4 * 5 * 1 * (1 + 1) / (2 * AER_MAX_STEP_RATIO) * 1.01
    est = AER(k=2, lam=lam, random_state=0).fit(X, y)
    assert np.abs(est.w_).sum() <= 1 + AER_BALL_RTOL
    assert np.abs(est.coef_).sum() <= 1 + AER_BALL_RTOL
    assert np.all(np.isfinite(est.coef_))


def test_aesvr_fit_stream_accepts_n_steps():
    """AESVR.fit_stream raised TypeError (unexpected keyword n_steps)."""
    X, y = SIGNS / 3, SIGNS[:, 0] / 3
    est = AESVR(k=2, random_state=1).fit_stream(X[:7], y[:7], 40)
    assert est.n_steps_ == 40 and np.all(np.isfinite(est.coef_))
    assert np.linalg.norm(est.w_) <= 1 + 1e-12


@pytest.mark.parametrize("make,name", [
    (lambda: AESVR(k=2, eps=1e-9), "eps"),
    (lambda: AESVR(k=2, B=1e8), "eps"),               # 2B/ε = 2e9: N beyond 64 bits
    (lambda: AESVR(k=2, genest_B=1e10), "genest_B"),
    (lambda: AERR(k=2, B=10**400), "B"),
    (lambda: AERR(k=10**400), "k"),
    (lambda: GAERR(k=2, eta=0.1, n_inner=10**400), "n_inner"),
    (lambda: AERR(k=2, n_total=10**400), "n_total"),
    (lambda: AER(k=2, lam=10**400), "lam"),
    (lambda: AESVR(k=2, eps=10**400), "eps"),
    (lambda: AELR(k=2, eta=10**400), "eta"),
])
def test_overflow_error_does_not_escape(make, name):
    """OverflowError escaped from AESVR(eps=1e-9), B = 1e8 and integers such as 10**400: now
    a ValueError naming the parameter, before any step."""
    X, y = SIGNS / 3, SIGNS[:, 0] / 3
    with pytest.raises(ValueError, match=f"`{name}`"):
        make().fit(X, y)


def test_fit_stream_steps_beyond_64_bits_refused():
    with pytest.raises(ValueError, match="`n_steps`"):
        AERR(k=2).fit_stream(SIGNS / 3, SIGNS[:, 0] / 3, 2**63)


def exact_projection(v, B):
    """The L1-ball projection in exact rational arithmetic (Duchi et al. 2008, Fig. 1)."""
    a = [abs(Fraction(x)) for x in v]
    B = Fraction(B)
    if sum(a) <= B:
        return [Fraction(x) for x in v]
    mu = sorted(a, reverse=True)
    total, theta = Fraction(0), None
    for j, m in enumerate(mu, 1):
        total += m
        if m - (total - B) / j > 0:
            theta = (total - B) / j
    return [(1 if x > 0 else -1) * max(abs(Fraction(x)) - theta, Fraction(0)) for x in v]


@pytest.mark.parametrize("v,B", [([1e16, 1.0], 1.0), ([1e8, 3.0], 1e-8),
                                 ([1e308, -1e308, 5.0], 1e-300), ([-2.0, 1e-320, 3.0], 1e300)])
def test_project_l1_ball_over_the_double_range(v, B):
    """[1e16, 1] with B = 1 raised IndexError; [1e8, 3] with B = 1e-8 returned L1 norm
    1.49 B. Now the exact projection to 1e-12 relative, in the ball."""
    w = project_l1_ball(v, B)
    exact = [float(x) for x in exact_projection(v, B)]
    assert np.abs(w).sum() <= B * (1 + 1e-12)
    np.testing.assert_allclose(w, exact, rtol=1e-12, atol=1e-12 * B)


def test_projection_reached_through_baseline_and_offline_lasso():
    """The projection's IndexError was reached through Baseline and OfflineLasso on large
    data; both now return finite coefficients in the L1 ball."""
    rng = np.random.default_rng(2)
    X = rng.uniform(-1, 1, (60, 4)) * 1e16
    y = X[:, 0] * 1e-16
    for est in (Baseline(k=2, random_state=0), OfflineLasso(B=1.0)):
        coef = est.fit(X, y).coef_
        assert np.all(np.isfinite(coef)) and np.abs(coef).sum() <= 1 + 1e-12


@pytest.mark.parametrize("make,X_scale,y_scale,name", [
    (lambda: AELR(k=2, B=1e-156), 1 / 3, 1 / 3, "B"),        # returned NaN coefficients
    (lambda: AER(k=2, B=1e308), 1 / 3, 1 / 3, "B"),          # NaN
    (lambda: AERR(k=2), 1e308, 1.0, "X"),                    # NaN after inputs near 1e308
    (lambda: AELR(k=2), 1.0, 1e308, "y"),
    (lambda: DDAERR(k=2, second_moments=0.1), 1e300, 1.0, "X"),
    (lambda: TwoPhaseDDAERR(k=2), 1e307, 1.0, "X"),
    (lambda: GAELR(k=2, eta=0.1), 1.0, 1e200, "y"),
])
@pytest.mark.filterwarnings("error::RuntimeWarning")      # refused cleanly, no warning first
def test_no_silent_nan_coefficients(make, X_scale, y_scale, name):
    with pytest.raises(ValueError, match=f"`{name}`"):
        make().fit(SIGNS * X_scale, SIGNS[:, 0] * y_scale)


def test_datetime_radius_refused():
    """AERR(B=numpy.datetime64(...)) was accepted (coerced to a number)."""
    with pytest.raises((TypeError, ValueError), match="`B`"):
        AERR(k=2, B=np.datetime64("2020-01-01")).fit(SIGNS / 3, SIGNS[:, 0] / 3)


def test_aer_k2_at_d1():
    """AER rejected k = 2 at d = 1 although its docstring allows k/2 <= d: it now runs, and
    equals the literal reference on its draws."""
    X = SIGNS[:50, :1]
    y = 0.5 * X[:, 0]
    est = AER(k=2, lam=0.5, random_state=0, record_draws=True).fit(X, y)
    w_bar, seen = aer(X, y, 2, 1.0, 0.5, ReplaySource(est.draws_.ravel()))
    np.testing.assert_allclose(est.coef_, w_bar, rtol=1e-12)
    np.testing.assert_array_equal(est.attributes_per_example_, seen)
    with pytest.raises(ValueError, match="`k`"):
        AER(k=4, lam=0.5).fit(X, y)                          # k/2 = 2 > d = 1
