"""Robustness of every public estimator on generated input (issue 13's rule as the assertion).

Every estimator of ``laocheck.estimators.specs()`` (the 30 registered ones) is called through
its public protocol (``target``, ``sample``, ``accumulate``, ``sample_reference``,
``assumptions``) on instances drawn by hypothesis: extreme floats (±1.8e308, 1e300, subnormals,
±0), huge and wrong integers, wrong types (strings, bytes, None, datetimes, complex, bools),
empty, 2-d and mismatched shapes, non-contiguous, Fortran-ordered, read-only, int, bool,
float32 and object arrays, NaN and inf; and its constructor on extreme or wrong parameters.

The rule: a call either returns a finite answer of the right shape that lies within the range
the papers' formulas prove for the given w, x, y (below, written from the boxes, not from the
code: e.g. |x̃_i| <= |x_i|/q_i, |φ̃| <= max_j |w_j x_j|/p_j + |y|, |φ̂| <= max_n 2^(n+1)|a_n|Θ^n)
with no draw observing more attributes than the budget when it is a maximum; or it raises
ValueError/TypeError (laocheck's InvalidParameterError) whose message names a parameter in
backticks. Nothing else escapes (no OverflowError, ZeroDivisionError, IndexError,
RuntimeWarning), nothing hangs, and the caller's arrays are never written.

Deterministic (hypothesis' derandomized profile, fixed seeds) and fast: see the module's
timing in the report of issue 13 (``pytest tests/robustness --durations=10``).
"""
import math
import re
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from laocheck import estimators
from laocheck.estimators import _protocol
from laocheck.estimators._protocol import MAX_MAGNITUDE
from laocheck.exceptions import InvalidParameterError

SPECS = {spec.name: spec for spec in estimators.specs()}
NAMES = sorted(SPECS)
SETTINGS = settings(derandomize=True, max_examples=25, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

HUGE = float(np.finfo(np.float64).max)
EXTREME = [0.0, -0.0, 1.0, -1.0, 0.5, 1e-308, 5e-324, -5e-324, 1e-150, 1e150, -1e150, 1e300,
           -1e300, 1e308, HUGE, -HUGE, 1e100, 1e-100, 3.0]
BAD = [math.nan, math.inf, -math.inf]
WRONG = ["1.0", b"1", None, np.datetime64("2020-01-01"), np.timedelta64(3, "s"), True,
         1 + 2j, 10**400, -(10**400), object(), {}, [[1.0]]]
# a refusal names a parameter in backticks
NAMED = re.compile(r"`[A-Za-z_][\w.\[\]]*`")
RTOL = 1e-9          # the estimators' arithmetic against the bounds': a few roundings

values = st.one_of(st.floats(-1, 1), st.sampled_from(EXTREME), st.floats(allow_nan=False,
                                                                        allow_infinity=False))


@st.composite
def vectors(draw, d, bad=True):
    """A vector of length d (sometimes another length, empty or 2-d), in one of many layouts."""
    n = d
    shape = draw(st.integers(0, 19))
    if shape == 0:
        n = draw(st.sampled_from([0, d + 1, max(d - 1, 0)]))
    entries = st.one_of(values, st.sampled_from(BAD)) if bad and draw(st.integers(0, 5)) == 0 \
        else values
    v = np.array([draw(entries) for _ in range(n)], dtype=np.float64)
    layout = draw(st.sampled_from(["C", "C", "C", "strided", "readonly", "int", "bool",
                                   "float32", "object", "list", "2d", "wrong"]))
    if layout == "strided":
        wide = np.zeros(2 * n)
        wide[::2] = v
        v = wide[::2]
    elif layout == "readonly":
        v.flags.writeable = False
    elif layout == "int":
        v = np.nan_to_num(np.clip(v, -1e9, 1e9)).astype(np.int64)
    elif layout == "bool":
        v = v > 0
    elif layout == "float32":
        with np.errstate(over="ignore"):
            v = v.astype(np.float32)
    elif layout == "object":
        v = v.astype(object)
    elif layout == "list":
        v = v.tolist()
    elif layout == "2d":
        v = np.asfortranarray(np.vstack([v, v]).T)
    elif layout == "wrong":
        v = draw(st.sampled_from(WRONG))
    return v


scalars = st.one_of(values, values, st.sampled_from(BAD), st.sampled_from(WRONG),
                    st.just(np.float32(0.5)), st.just(np.array(0.25)), st.just(np.array([0.5])))
# n: small valid counts or invalid ones (a valid n of 2**63 - 1 would only measure patience)
counts = st.one_of(st.integers(1, 12), st.sampled_from([0, -1, 2**63, 10**400, 1.5, 2.0, "3",
                                                        True, None, math.nan]))


# ---------------------------------------------------------------- the papers' ranges, by family
def _ratio(num, den):
    """num/den for magnitudes (0 where num is 0), inf on overflow."""
    with np.errstate(all="ignore"):
        return np.where(num == 0, 0.0, num / np.where(den == 0, 1.0, den))


def _product(a, b):
    """a·b for magnitudes (0 where a factor is 0, never 0·inf = NaN), inf on overflow."""
    with np.errstate(all="ignore"):
        return np.where((np.asarray(a) == 0) | (np.asarray(b) == 0), 0.0, np.multiply(a, b))


def data_bound(spec, params, x):
    """|x̃_i| <= |x_i|/q_i (HK12 Alg. 1 line 7, KS15 eq. (1)): each of the k draws adds at most
    x_i/(k q_i); uniform q: d|x_i|; CB11 eq. (6): (2d/k)|x_i|."""
    ax, d = np.abs(x), x.shape[0]
    algo = spec.algorithm
    if algo == "CB11.AER":
        return ax * (2.0 * d / params["k"])
    if algo in ("HK12.AERR", "HK12.AELR") or algo.startswith("HK12.AESVR"):
        return ax * d
    if algo in ("KS15.GAERR", "KS15.GAELR"):
        q = np.asarray(params["q"], dtype=float)
    else:
        m = np.asarray(params["second_moments"], dtype=float)
        q = m if algo == "KS15.DDAELR" else np.sqrt(m)      # Lemma 4.3 / eq. (4)
        q = q / q.sum()
    return _ratio(ax, q)


def residual_bound(spec, params, w, x, y):
    """|φ̃| <= max_{w_j ≠ 0} |w_j x_j|/p_j + |y| for the inner-product distribution p:
    p ∝ w² (HK12 Alg. 1, KS15 Alg. 1), |w| (HK12 Alg. 2, KS15 Alg. 3), |w|√E[x²] (KS15 Sec. 3);
    CB11 eq. (7): |ŷ| <= ‖w‖₁ max|x_i|."""
    aw, ax = np.abs(w), np.abs(x)
    nz = aw > 0
    if not nz.any():
        return abs(y)
    with np.errstate(all="ignore"):
        algo = spec.algorithm
        if algo == "CB11.AER" or algo in ("HK12.AELR", "KS15.GAELR", "KS15.DDAELR"):
            terms = aw.sum() * ax[nz]                          # |w_j x_j| / (|w_j|/‖w‖₁)
        elif algo == "KS15.ImprovedInnerProduct":
            root = np.sqrt(np.asarray(params["second_moments"], dtype=float))
            terms = (aw * root).sum() * _ratio(ax[nz], root[nz])
        else:
            top = aw.max()
            terms = top * np.sum((aw / top) ** 2) * _ratio(ax[nz], aw[nz] / top)
        return float(np.max(np.where(ax[nz] == 0, 0.0, terms))) + abs(y)


def genest_bound(coefficients, w, x, y_labels, scale):
    """HK12 Procedure 3: |θ̃| <= Θ = max_{w_j ≠ 0} ‖w‖²|x_j|/|w_j|·scale + max|y|, so
    |φ̂| = 2^(n+1)|a_n|·|θ̃_1···θ̃_n| <= max_n 2^(n+1)|a_n|Θ^n (in logarithms)."""
    aw, ax = np.abs(w), np.abs(x)
    with np.errstate(all="ignore"):
        theta = 0.0
        if aw.max() > 0:
            top = aw.max()
            nz = aw > 0
            theta = float(np.max(top * np.sum((aw / top) ** 2) * _ratio(ax[nz], aw[nz] / top)
                                 * scale))
        theta += max(abs(v) for v in y_labels)
        a = np.abs(np.asarray(coefficients, dtype=float))
        n = np.flatnonzero(a > 0)
        if not n.size:
            return 0.0
        log_theta = math.log(theta) if theta > 0 else -math.inf
        terms = np.log(a[n]) + (n + 1) * math.log(2) + np.where(n > 0, n * log_theta, 0.0)
        top_log = float(np.max(terms))
    return math.exp(top_log) if top_log < 709 else math.inf


def value_bound(spec, est, params, w, x, y):
    """An array of the shape of the target bounding every draw entrywise."""
    part, d = spec.part, x.shape[0]
    with np.errstate(all="ignore"):
        if spec.algorithm == "CB11.Baseline":
            ratio = d / params["k"]
            ax = np.abs(x)
            return np.vstack([2 * ratio ** 2 * np.outer(ax, ax), 2 * abs(y) * ratio * ax[None]])
        if spec.algorithm == "HK12.GenEst":
            return genest_bound(est.coefficients, w, x, [y], 1.0)
        if spec.algorithm == "HK12.AESVR":
            phi = genest_bound(est.coefficients, w, x,
                               [(y + est.delta) / est.eps, (y - est.delta) / est.eps],
                               1.0 / est.eps)
            return phi if part == "residual" else _product(phi, data_bound(spec, params, x))
        if part == "data_point":
            return data_bound(spec, params, x)
        res = residual_bound(spec, params, w, x, y)
        if part == "residual":
            return res
        grad = _product(res * (2.0 if spec.algorithm == "CB11.AER" else 1),
                        data_bound(spec, params, x))
        if part == "clipped_gradient":
            grad = np.minimum(grad, 1.0 / params["eta"])
        return grad


# ---------------------------------------------------------------------------------- the rule
def make(name, d, k=2):
    spec = SPECS[name]
    k = max(k, 2) if spec.algorithm in ("CB11.AER", "CB11.Baseline") else k
    params = spec.example_params(d, k=k)
    return spec, estimators.get(name, **params), params


def as_instance(w, x, y):
    """The float view of (w, x, y) the bounds need (the call already accepted them)."""
    return (np.asarray(w, dtype=np.float64).ravel(), np.asarray(x, dtype=np.float64).ravel(),
            float(np.asarray(y, dtype=np.float64)))


def apply_rule(name, call):
    """Run ``call()``: a refusal must be a ValueError/TypeError naming a parameter; anything
    else (or a RuntimeWarning) fails. Returns the result or None when refused."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)
            return call()
    except (ValueError, TypeError) as exc:
        assert NAMED.search(str(exc)), f"{name}: refusal without a parameter name: {exc!r}"
        return None


def check_draws(name, spec, est, params, w, x, y, draws, n):
    w, x, y = as_instance(w, x, y)
    d = x.shape[0]
    shape = est.target_shape(d)
    assert draws.values.shape == (n, *shape), (name, draws.values.shape)
    assert np.all(np.isfinite(draws.values)), f"{name}: non-finite draw"
    assert np.all(np.abs(draws.values) <= MAX_MAGNITUDE), name
    bound = value_bound(spec, est, params, w, x, y)
    assert np.all(np.abs(draws.values) <= np.asarray(bound) * (1 + RTOL) + 1e-300), (
        f"{name}: a draw {np.max(np.abs(draws.values))} beyond the papers' range {bound} on "
        f"w={w!r}, x={x!r}, y={y!r}")
    assert draws.attributes.shape == (n,) and draws.attributes.min() >= 0
    if est.budget_kind == "max":
        assert draws.attributes.max() <= est.budget, name


def check_moments(name, spec, est, params, w, x, y, moments, n):
    w, x, y = as_instance(w, x, y)
    shape = est.target_shape(x.shape[0])
    assert moments.n == n and moments.sum.shape == shape and moments.sum_sq.shape == shape
    for figure in (moments.sum, moments.sum_sq, moments.sum_norm_sq, moments.sum_norm_sq_sq):
        assert np.all(np.isfinite(figure)), f"{name}: non-finite moment sum"
    bound = np.asarray(value_bound(spec, est, params, w, x, y), dtype=float)
    with np.errstate(over="ignore"):
        assert np.all(np.abs(moments.mean) <= bound * (1 + RTOL) + 1e-300), name
        assert np.all(moments.second_moment <= bound ** 2 * (1 + 4 * RTOL) + 1e-300), name
    assert moments.sum_sq.min() >= 0 and moments.sum_norm_sq >= 0
    if est.budget_kind == "max":
        assert moments.attributes_max <= est.budget, name


def check_target(name, spec, est, params, w, x, y, value):
    w, x, y = as_instance(w, x, y)
    value = np.asarray(value, dtype=float)
    assert value.shape == est.target_shape(x.shape[0]), name
    assert np.all(np.isfinite(value)), f"{name}: non-finite target"
    if spec.part in ("data_point", "residual", "gradient", "clipped_gradient") and \
            spec.algorithm != "HK12.AESVR":
        # the paper's target in plain Python arithmetic (spec.target), to rounding of Σ|w_i x_i|
        expected = np.asarray(spec.target(w.tolist(), x.tolist(), y, **params), dtype=float)
        with np.errstate(all="ignore"):
            scale = (np.sum(np.abs(w) * np.abs(x)) + abs(y)) * (
                1.0 if spec.part == "residual" else np.max(np.abs(x)))
            scale = scale * (2 if spec.algorithm == "CB11.AER" else 1)
        if np.all(np.isfinite(expected)) and np.isfinite(scale):
            assert np.all(np.abs(value - expected) <= 1e-12 * scale + 1e-300), name


@pytest.mark.parametrize("name", NAMES)
@SETTINGS
@given(data=st.data())
def test_every_estimator_on_any_instance(name, data):
    d = data.draw(st.integers(1, 5), label="d")
    spec, est, params = make(name, d, k=data.draw(st.integers(1, 4), label="k"))
    w = data.draw(vectors(d), label="w")
    x = data.draw(vectors(d), label="x")
    y = data.draw(scalars, label="y")
    n = data.draw(counts, label="n")
    seed = data.draw(st.integers(0, 3), label="seed")
    method = data.draw(st.sampled_from(["sample", "accumulate", "target", "assumptions",
                                        "sample_reference"]), label="method")
    w0, x0 = (np.array(v, copy=True) if isinstance(v, np.ndarray) else v for v in (w, x))
    if method == "sample":
        out = apply_rule(name, lambda: est.sample(w, x, y, n=n, rng=seed))
        if out is not None:
            check_draws(name, spec, est, params, w, x, y, out, n)
    elif method == "accumulate":
        out = apply_rule(name, lambda: est.accumulate(w, x, y, n=n, rng=seed))
        if out is not None:
            check_moments(name, spec, est, params, w, x, y, out, n)
    elif method == "target":
        out = apply_rule(name, lambda: est.target(w, x, y))
        if out is not None:
            check_target(name, spec, est, params, w, x, y, out)
    elif method == "sample_reference":
        small = n if isinstance(n, int) and not isinstance(n, bool) and 0 < n <= 12 else n
        if isinstance(small, int) and not isinstance(small, bool) and small > 12:
            small = 12                                     # the literal version is slow
        out = apply_rule(name, lambda: est.sample_reference(w, x, y, n=small, rng=seed))
        if out is not None:
            check_draws(name, spec, est, params, w, x, y, out, small)
    else:
        out = apply_rule(name, lambda: est.assumptions(w, x, y))
        if out is not None:
            assert isinstance(out, list) and all(isinstance(s, str) for s in out)
    for before, after in ((w0, w), (x0, x)):                # the caller's arrays are untouched
        if isinstance(before, np.ndarray):                  # repr: exact, and NaN equals NaN
            assert repr(np.asarray(after).tolist()) == repr(before.tolist()), name


# the constructor parameters each family takes, and strategies of good and bad values
PARAM_VALUES = {
    "k": st.one_of(st.integers(-2, 6), st.sampled_from([10**400, 2**63, 2.0, 2.5, True, None,
                                                        "2", math.nan])),
    "eta": st.one_of(st.sampled_from(EXTREME + BAD + WRONG), st.floats(1e-3, 1e3)),
    "eps": st.one_of(st.sampled_from(EXTREME + BAD + WRONG), st.floats(1e-3, 1e3)),
    "delta": st.one_of(st.sampled_from(EXTREME + BAD + WRONG), st.floats(0, 1)),
    "B": st.one_of(st.sampled_from(EXTREME + BAD + WRONG + [2.0**30, 2.0**31]),
                   st.floats(1e-3, 1e3)),
    "q": st.one_of(st.sampled_from(["ridge", "lasso", None, [0.5, 0.5], [1.0, 0.0, 0.0, 0.0],
                                    [-0.5, 1.5, 0, 0], [math.nan, 1, 0, 0], [5e-324, 1, 0, 0],
                                    [0.25] * 4, [[0.25] * 4]])),
    "second_moments": st.sampled_from([[0.1, 0.2, 0.3, 0.4], [0.0, 0.0, 0.0, 0.0], [1e308] * 4,
                                       [5e-324, 1, 1, 1], [-1, 1, 1, 1], [math.inf, 1, 1, 1],
                                       [0.0, 1.0, 0.0, 1.0], [1.0], "x", None]),
    "coefficients": st.sampled_from([[1.0, 0.5], [], [HUGE, HUGE], [math.nan], [1e308] * 40,
                                     [0.0] * 5, "abc", [[1.0]]]),
    "n_inner": st.one_of(st.integers(-1, 3), st.sampled_from([10**400, 1.5, True])),
}


@pytest.mark.parametrize("name", NAMES)
@SETTINGS
@given(data=st.data())
def test_every_estimator_on_any_parameters(name, data):
    """Each constructor parameter replaced by an extreme or wrong value: the estimator is
    refused at construction or on the instance (naming a parameter), or runs with finite,
    in-range draws on a moderate instance."""
    d = 4
    spec = SPECS[name]
    params = dict(spec.example_params(d, k=2))
    keys = sorted(set(params) | {"B"} | ({"n_inner"} if spec.algorithm.startswith("KS15") and
                                 spec.algorithm != "KS15.ImprovedInnerProduct" else set()))
    for key in data.draw(st.lists(st.sampled_from(keys), min_size=1, max_size=2, unique=True),
                         label="replaced"):
        params[key] = data.draw(PARAM_VALUES.get(key, st.sampled_from(WRONG)), label=key)
    est = apply_rule(name, lambda: estimators.get(name, **params))
    if est is None:
        return
    rng = np.random.default_rng(data.draw(st.integers(0, 3), label="seed"))
    w = rng.uniform(-1, 1, d)
    x = rng.uniform(-1, 1, d)
    y = float(rng.uniform(-1, 1))
    draws = apply_rule(name, lambda: est.sample(w, x, y, n=8, rng=1))
    if draws is not None:
        check_draws(name, spec, est, dict(params, **est.params), w, x, y, draws, 8)
    moments = apply_rule(name, lambda: est.accumulate(w, x, y, n=8, rng=1))
    if moments is not None:
        check_moments(name, spec, est, dict(params, **est.params), w, x, y, moments, 8)


# ----------------------------------------------------------------- the defects, one test each
@pytest.mark.parametrize("name", NAMES)
def test_extreme_instances_are_refused_naming_the_inputs_and_the_limit(name):
    """Issue 13: w, x, y near 1e308 overflowed inside the kernels (inf or NaN draws, overflow
    warnings). Now refused before any draw, naming `w`, `x`, `y` and the finite limit; the
    same instance scaled into range runs with finite, in-range draws."""
    spec, est, params = make(name, 3)
    w, x, y = np.array([1e308, 1.0, -0.5]), np.array([1e308, -1.0, 0.5]), 1e308
    if spec.part == "data_point":
        x = np.array([1e308, 1e-300, -1e308])        # x̃ ∝ d·x or x/q: d·1e308 overflows
    with pytest.raises(InvalidParameterError, match=r"`w`, `x` and `y`.*4\.494e\+307"):
        est.sample(w, x, y, n=4, rng=0)
    with pytest.raises(InvalidParameterError, match="`w`, `x` and `y`"):
        est.accumulate(w, x, y, n=4, rng=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        small = np.array([0.5, 1.0, -0.5]), np.array([0.25, -1.0, 0.5]), 0.5
        check_draws(name, spec, est, params, *small, est.sample(*small, n=16, rng=0), 16)
        check_moments(name, spec, est, params, *small, est.accumulate(*small, n=16, rng=0), 16)


@pytest.mark.parametrize("name", [n for n in NAMES if SPECS[n].part == "data_point"])
def test_data_point_estimates_accept_any_finite_w(name):
    """x̃ does not read w: an extreme w neither overflows nor is refused."""
    spec, est, params = make(name, 3)
    x = np.array([0.5, -1.0, 0.25])
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        for w in ([HUGE, -HUGE, 1e-320], [5e-324, 0.0, 0.0]):
            check_draws(name, spec, est, params, w, x, 1e308, est.sample(w, x, 1e308, n=8, rng=0),
                        8)


def test_accumulate_refuses_moment_sums_that_would_overflow():
    """Σ‖v‖⁴ of n draws of size 3 near 1e100 overflows: `n` is named before any draw, while
    the draws themselves are in range."""
    est = estimators.get("HK12.AERR.gradient", k=2)
    w, x, y = np.array([1.0, 1.0, 1.0]), np.array([1e100, 1.0, 1.0]), 0.0
    assert np.all(np.isfinite(est.sample(w, x, y, n=4, rng=0).values))
    with pytest.raises(InvalidParameterError, match=r"`n`.*n·size²·M⁴"):
        est.accumulate(w, x, y, n=4, rng=0)


def test_genest_overflowing_products_raise_instead_of_returning_inf():
    """GenEst's φ̂ = 2^(n+1) a_n θ̃₁···θ̃_n with θ̃ = ±2e120 (wᵀx − y = 0: the target is
    f′(0) = 1): order 3 (probability 1/16 per draw) overflows. Each factor and the target are
    finite, so no up-front refusal; the overflowing draw makes the call raise (naming `n` and
    the scale of the instance) instead of returning inf."""
    est = estimators.get("HK12.GenEst.derivative", coefficients=[1.0, 0.5, -0.125, 0.0625], B=1.0)
    w, x, y = np.array([1.0, 1.0]), np.array([1e120, -1e120]), 0.0
    assert est.target(w, x, y) == 1.0
    for method in (est.sample, est.accumulate):
        with pytest.raises(InvalidParameterError, match=r"`n` and the scale of `w`"):
            method(w, x, y, n=200, rng=0)


def test_the_finite_range_is_documented():
    """The docstring of the protocol states the limit and what is refused."""
    doc = _protocol.__doc__
    assert "Finite range" in doc and "4.49e307" in doc and "n·size²·M⁴" in doc
    assert MAX_MAGNITUDE == pytest.approx(4.494e307, rel=1e-3)


@pytest.mark.parametrize("name", NAMES)
def test_huge_integer_parameters_are_refused_naming_them(name):
    """A k (or n_inner) of 10**400 or 2**63 was accepted and raised OverflowError in the kernel
    (a C long); an integer entry of 10**400 in w raised OverflowError in check_vector."""
    spec = SPECS[name]
    params = dict(spec.example_params(4, k=2))
    if "k" in params:
        for k in (10**400, 2**63, 2**31):
            with pytest.raises(InvalidParameterError, match="`k`"):
                estimators.get(name, **dict(params, k=k))
    est = estimators.get(name, **params)
    with pytest.raises(InvalidParameterError, match="`w`"):
        est.sample([10**400, 1, 1, 1], [0.5, 0.5, 0.5, 0.5], 0.0, n=2, rng=0)


@pytest.mark.parametrize("name", [n for n in NAMES if "second_moments" in
                                  SPECS[n].example_params(4, k=2)])
def test_second_moments_whose_sum_overflows_are_usable(name):
    """E[x²] = (1e308, ...): their sum overflowed (RuntimeWarning) and q became 0 everywhere;
    only their ratios matter, so they now give the same q as (1, 1, 1, 1)."""
    params = dict(SPECS[name].example_params(4, k=2))
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        big = estimators.get(name, **dict(params, second_moments=[1e308] * 4))
        unit = estimators.get(name, **dict(params, second_moments=[1.0] * 4))
        w, x, y = np.array([0.5, -0.5, 0.25, 0.1]), np.array([0.5, 0.5, -0.5, 0.1]), 0.5
        a, b = big.sample(w, x, y, n=64, rng=3), unit.sample(w, x, y, n=64, rng=3)
    np.testing.assert_allclose(a.values, b.values, rtol=1e-12)
    np.testing.assert_array_equal(a.attributes, b.attributes)
