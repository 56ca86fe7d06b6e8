"""Robustness of every learner on generated input (issue 13's rule as the assertion).

Every public learner is fitted on data and parameters drawn by hypothesis: extreme floats
(±1e308, subnormals, 0), huge integers, wrong types (strings, datetimes, bools, None, lists),
empty and mismatched shapes, non-contiguous, Fortran-ordered and read-only arrays, NaN and inf.
The rule: ``fit`` (and ``partial_fit``, ``fit_stream``) either returns a finite ``coef_`` whose
iterate lies in the learner's ball (‖·‖₂ or ‖·‖₁ <= B to 1e-12 relative), or raises ValueError
or TypeError whose message names what is wrong (a parameter in backticks, or scikit-learn's
"Input X ..."/"Found array ..." messages for X and y). Nothing else escapes (no
OverflowError, IndexError, ZeroDivisionError, RuntimeError), and nothing crashes or hangs.

Derandomized, with bounded examples: a deterministic run of well under a minute.
"""
import re
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from laocheck.learners import (AELR, AER, AERR, AESVR, DDAELR, DDAERR, GAELR, GAERR, Baseline,
                               OfflineLasso, OfflineRidge, OnlineLasso, OnlineRidge,
                               TwoPhaseDDAELR, TwoPhaseDDAERR)
from laocheck.learners.aer import AER_BALL_RTOL

# (function_scoped_fixture: state_kind's setting holds for every example of a test)
SETTINGS = settings(derandomize=True, max_examples=25, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])

L2 = {"AERR": lambda **kw: AERR(**kw), "GAERR": lambda **kw: GAERR(eta=0.05, **kw),
      "DDAERR": lambda **kw: DDAERR(second_moments=0.2, **kw),
      "AESVR": lambda **kw: AESVR(**kw), "TwoPhaseDDAERR": lambda **kw: TwoPhaseDDAERR(**kw)}
L1 = {"AELR": lambda **kw: AELR(**kw), "GAELR": lambda **kw: GAELR(eta=0.05, **kw),
      "DDAELR": lambda **kw: DDAELR(second_moments=0.2, **kw),
      "AER": lambda **kw: AER(**kw), "Baseline": lambda **kw: Baseline(**kw),
      "TwoPhaseDDAELR": lambda **kw: TwoPhaseDDAELR(**kw)}
FULL_L2 = {"OnlineRidge": OnlineRidge, "OfflineRidge": OfflineRidge}
FULL_L1 = {"OnlineLasso": OnlineLasso, "OfflineLasso": OfflineLasso}
BUDGETED = {**L2, **L1}
# the ball's relative tolerance: 1e-12, AER's documented accuracy for its offset treap
RTOL = {"AER": AER_BALL_RTOL}

EXTREME = [0.0, -0.0, 1.0, -1.0, 0.5, 1e-308, 5e-324, -5e-324, 1e-150, 1e150, 1e300, -1e300,
           1.7976931348623157e308, -1.7976931348623157e308, 1e100, 1e-100]
BAD = [np.nan, np.inf, -np.inf]
WRONG = ["1.0", b"1", None, [1.0], np.datetime64("2020-01-01"), np.timedelta64(3, "s"),
         True, 1 + 2j, 10**400, -(10**400), object()]

# what a refusal must say: a parameter in backticks or scikit-learn's data messages
MESSAGE = re.compile(r"`[A-Za-z_0-9]+`|Input [Xy]|Found array|Found input|sample|feature|"
                     r"2D array|Expected|dtype|complex|could not convert|numeric|n_features")

floats = st.one_of(st.sampled_from(EXTREME), st.floats(-10, 10, allow_nan=False),
                   st.floats(allow_nan=False, allow_infinity=False))
scales = st.one_of(st.sampled_from(EXTREME + BAD + [-1.0, 2.0, 0.1]), st.sampled_from(WRONG),
                   st.floats(1e-3, 1e3))


@st.composite
def datasets(draw, bad_values=True):
    """(X, y): shapes m x d (m may be 0, y may mismatch), values mostly moderate with some
    extreme, NaN or inf entries, and a layout: C, Fortran, strided view, read-only, int,
    bool, float32 or object dtype."""
    m = draw(st.integers(0, 7))
    d = draw(st.integers(1, 5))
    base = draw(st.floats(-1, 1))
    values = st.one_of(st.floats(-1, 1), floats,
                       st.sampled_from(BAD) if bad_values else st.floats(-1, 1))
    X = np.array([[draw(values) if draw(st.booleans()) else base for _ in range(d)]
                  for _ in range(m)], dtype=np.float64).reshape(m, d)
    y = np.array([draw(values) for _ in range(m)], dtype=np.float64)
    if draw(st.integers(0, 9)) == 0:
        y = y[:-1] if m else np.zeros(1)                        # mismatched lengths
    layout = draw(st.sampled_from(["C", "F", "strided", "readonly", "int", "bool", "float32",
                                   "object", "list", "1d"]))
    if layout == "F":
        X = np.asfortranarray(X)
    elif layout == "strided":
        wide = np.zeros((m, 2 * d))
        wide[:, ::2] = X
        X = wide[:, ::2]
    elif layout == "readonly":
        X.flags.writeable = False
        y.flags.writeable = False
    elif layout == "int":
        X = np.nan_to_num(np.clip(X, -1e9, 1e9)).astype(np.int64)
    elif layout == "bool":
        X = X > 0
    elif layout == "float32":
        with np.errstate(over="ignore"):
            X = X.astype(np.float32)
    elif layout == "object":
        X = X.astype(object)
    elif layout == "list":
        X = X.tolist()
    elif layout == "1d":
        X = X.ravel()
    return X, y


def ball_norm(name):
    return 1 if name in L1 or name in FULL_L1 else 2


def check_outcome(name, est, call):
    """Apply the rule to ``call()``; returns True when it fitted."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            call()
    except (ValueError, TypeError) as exc:
        assert MESSAGE.search(str(exc)), f"{name}: refusal without a name: {exc!r}"
        return False
    coef = np.asarray(est.coef_)
    assert np.all(np.isfinite(coef)), f"{name}: non-finite coef_ {coef}"
    B = float(est.B)
    rtol = RTOL.get(name, 1e-12)
    norm = np.linalg.norm(coef, ord=ball_norm(name))
    assert norm <= B * (1 + rtol), f"{name}: ‖coef_‖ = {norm} > B = {B}"
    w = getattr(est, "w_", None)
    if w is not None:
        assert np.all(np.isfinite(w))
        assert np.linalg.norm(w, ord=ball_norm(name)) <= B * (1 + rtol)
    return True


@pytest.mark.usefixtures("state_kind")     # dense and sparse states (tests/conftest.py)
@pytest.mark.parametrize("name", list(BUDGETED))
@SETTINGS
@given(data=datasets(), k=st.one_of(st.integers(-1, 6), st.sampled_from([10**400, 2.0, True])),
       B=scales, seed=st.integers(0, 3))
def test_budgeted_learners_fit_any_input(name, data, k, B, seed):
    X, y = data
    est = BUDGETED[name](k=k, B=B, random_state=seed)
    check_outcome(name, est, lambda: est.fit(X, y))


@pytest.mark.usefixtures("state_kind")     # dense and sparse states (tests/conftest.py)
@pytest.mark.parametrize("name", [n for n in BUDGETED if n not in ("Baseline",)])
@SETTINGS
@given(data=datasets(bad_values=False), step=scales, seed=st.integers(0, 3),
       mode=st.sampled_from(["fit", "partial_fit", "fit_stream"]),
       n_steps=st.one_of(st.integers(-2, 40), st.sampled_from([2**63, 10**400, 3.5, "9"])))
def test_budgeted_learners_step_sizes_and_entry_points(name, data, step, seed, mode, n_steps):
    """A float step size (η or λ) of any kind, and every entry point."""
    X, y = data
    k = 2
    param = "lam" if name == "AER" else "eta"
    est = BUDGETED[name](k=k, random_state=seed)
    est.set_params(**{param: step})
    if mode == "fit":
        call = lambda: est.fit(X, y)                                       # noqa: E731
    elif mode == "partial_fit":
        call = lambda: est.partial_fit(X, y).partial_fit(X, y)             # noqa: E731
    else:
        call = lambda: est.fit_stream(X, y, n_steps)                       # noqa: E731
    check_outcome(name, est, call)


@pytest.mark.parametrize("name", ["AESVR"])
@SETTINGS
@given(data=datasets(bad_values=False), eps=scales, delta=scales,
       genest_B=st.one_of(st.none(), scales))
def test_aesvr_smoothing_parameters(name, data, eps, delta, genest_B):
    X, y = data
    est = AESVR(k=1, eps=eps, delta=delta, genest_B=genest_B, random_state=0)
    check_outcome(name, est, lambda: est.fit(X, y))


@pytest.mark.parametrize("name", list(FULL_L2) + list(FULL_L1))
@SETTINGS
@given(data=datasets(), B=scales)
def test_full_information_learners_fit_any_input(name, data, B):
    X, y = data
    est = {**FULL_L2, **FULL_L1}[name](B=B)
    check_outcome(name, est, lambda: est.fit(X, y))


@SETTINGS
@given(data=datasets(bad_values=False), seed=st.integers(0, 3))
def test_fitting_never_writes_into_the_caller_s_arrays(data, seed):
    X, y = data
    X0 = np.array(X, dtype=object, copy=True) if not isinstance(X, list) else list(X)
    y0 = y.copy()
    est = AERR(k=1, random_state=seed)
    check_outcome("AERR", est, lambda: est.fit(X, y))
    np.testing.assert_array_equal(np.asarray(X, dtype=object), np.asarray(X0, dtype=object))
    np.testing.assert_array_equal(y, y0)
