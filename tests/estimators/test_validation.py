"""Input validation at the Python boundary (property tests with hypothesis).

Malformed input of every kind gets an ``InvalidParameterError`` (a ``ValueError``) whose message
names the parameter in backticks; nothing reaches a kernel unvalidated, nothing crashes, and
valid input of any shape the assumptions allow runs and respects the attribute budget.
"""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from laocheck import InvalidParameterError, estimators

NAMES = estimators.names()
SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

finite = st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False)
bad_float = st.sampled_from([np.nan, np.inf, -np.inf])


def valid_instance(d, seed=0):
    rng = np.random.default_rng(seed)
    return rng.uniform(-1, 1, d), rng.uniform(-1, 1, d) / d, 0.25


@st.composite
def bad_vectors(draw, d):
    """Vectors that are not a finite 1-d array of length d."""
    kind = draw(st.sampled_from(["nan", "shape2d", "length", "empty", "text", "complex", "none"]))
    if kind == "nan":
        v = draw(hnp.arrays(np.float64, d, elements=finite))
        v[draw(st.integers(0, d - 1))] = draw(bad_float)
        return v
    if kind == "shape2d":
        return np.ones((d, 2))
    if kind == "length":
        return np.ones(draw(st.sampled_from([1, d + 1, 2 * d + 3])) if d != 1 else 2)
    if kind == "empty":
        return np.array([])
    if kind == "text":
        return ["a"] * d
    if kind == "complex":
        return np.ones(d) * 1j
    return None


@pytest.mark.parametrize("name", NAMES)
@SETTINGS
@given(data=st.data())
def test_bad_instances_raise_value_error(name, data):
    d = data.draw(st.integers(3, 6))
    est = estimators.get(name, **estimators.example_params(name, d))
    w, x, y = valid_instance(d)
    which = data.draw(st.sampled_from(["w", "x", "y"]))
    if which == "y":
        y = data.draw(st.one_of(bad_float, st.just(np.ones(2)), st.just("0.5"), st.none()))
    elif which == "w":
        w = data.draw(bad_vectors(d))
    else:
        x = data.draw(bad_vectors(d))
        if x is not None and np.ndim(x) == 1 and len(x) not in (0, d) and which == "x":
            which = "w"          # x sets d: a mismatch is then reported on w
    method = data.draw(st.sampled_from(["sample", "accumulate", "target"]))
    with pytest.raises(ValueError, match=f"`{which}`"):
        if method == "target":
            est.target(w, x, y)
        else:
            getattr(est, method)(w, x, y, n=10, rng=0)


@pytest.mark.parametrize("name", NAMES)
@SETTINGS
@given(n=st.one_of(st.integers(max_value=0), st.just(1.5), st.just("3"), st.just(True)))
def test_bad_draw_counts_raise(name, n):
    est = estimators.get(name, **estimators.example_params(name, 4))
    with pytest.raises(InvalidParameterError, match="`n`"):
        est.sample(*valid_instance(4), n=n, rng=0)


@pytest.mark.parametrize("name", NAMES)
def test_bad_rng_and_huge_dense_requests_raise(name):
    est = estimators.get(name, **estimators.example_params(name, 4))
    with pytest.raises(InvalidParameterError, match="`rng`"):
        est.sample(*valid_instance(4), n=1, rng="seed")
    with pytest.raises(InvalidParameterError, match="`rng`"):
        est.sample(*valid_instance(4), n=1, rng=np.random.RandomState(0))
    with pytest.raises(InvalidParameterError, match="`n`"):
        est.sample(*valid_instance(4), n=2**40, rng=0)


BAD_PARAMS = {
    "k": [0, -1, 1.5, True, "2", None],
    "q": [[0.5, 0.6, -0.1, 0.0], [0.1, 0.1, 0.1, 0.1], [np.nan, 0.5, 0.25, 0.25], [0.5, 0.5],
          [[0.25] * 4]],
    "second_moments": [[-1.0, 1.0, 1.0, 1.0], [0.0] * 4, [np.inf, 1, 1, 1], [1.0, 1.0]],
    "eta": [0.0, -1.0, np.nan, np.inf],
    "B": [0.0, -2.0, np.nan],
    "eps": [0.0, -0.5, np.nan],
    "delta": [-0.1, np.nan],
    "coefficients": [[], [np.nan, 1.0], "abc"],
    "n_inner": [0, 2.5],
    "reading": ["both", None],
}


def _bad_param_cases():
    out = []
    for name in NAMES:
        params = estimators.example_params(name, 4)
        for key, values in BAD_PARAMS.items():
            if key not in params and not (key == "n_inner" and name.startswith("KS15")
                                          and not name.endswith("data_point")) \
                    and not (key == "reading" and name.startswith("CB11.AER")):
                continue
            for value in values:
                out.append((name, key, value))
    return out


@pytest.mark.parametrize("name,key,value", _bad_param_cases())
def test_bad_parameters_raise_naming_the_parameter(name, key, value):
    params = estimators.example_params(name, 4)
    params[key] = value
    with pytest.raises(InvalidParameterError, match=f"`{key}`"):
        est = estimators.get(name, **params)
        est.sample(*valid_instance(4), n=5, rng=0)


@pytest.mark.parametrize("name,k,d", [
    ("CB11.Baseline.loss", 6, 4), ("CB11.Baseline.loss", 3, 4), ("CB11.AER.gradient", 10, 4),
    ("CB11.AER.residual", 5, 4),
])
def test_budget_larger_than_the_paper_allows_is_refused(name, k, d):
    with pytest.raises(InvalidParameterError, match="`k`"):
        estimators.get(name, k=k).sample(*valid_instance(d), n=1, rng=0)


def test_unknown_names_and_parameters():
    with pytest.raises(InvalidParameterError, match="`name`"):
        estimators.get("HK12.AERR.gradeint", k=2)
    with pytest.raises(TypeError):
        estimators.get("HK12.AERR.gradient", k=2, kk=3)
    with pytest.raises(InvalidParameterError, match="`eta`"):
        estimators.get("HK12.AELR.clipped_gradient", k=2)
    with pytest.raises(InvalidParameterError, match="`second_moments`"):
        estimators.get("KS15.DDAERR.gradient", k=2)
    with pytest.raises(InvalidParameterError, match="`q`"):
        estimators.get("KS15.GAERR.gradient", k=2)


def test_zero_sampling_probability_where_the_estimate_needs_it_is_refused():
    """x_i ≠ 0 with q_i = 0 would bias x̃ (KS15 eq. (1) needs q_i > 0 there)."""
    est = estimators.get("KS15.GAERR.gradient", k=2, q=[0.5, 0.5, 0.0])
    with pytest.raises(InvalidParameterError, match="`q`"):
        est.sample([0.1, 0.2, 0.3], [0.1, 0.2, 0.3], 0.0, n=1, rng=0)
    est.sample([0.1, 0.2, 0.3], [0.1, 0.2, 0.0], 0.0, n=1, rng=0)       # fine: x_3 = 0
    improved = estimators.get("KS15.ImprovedInnerProduct.residual", second_moments=[1, 1, 0])
    with pytest.raises(InvalidParameterError, match="`second_moments`"):
        improved.sample([0.1, 0.2, 0.3], [0.1, 0.2, 0.3], 0.0, n=1, rng=0)


def test_cb11_text_reading_needs_enough_nonzero_weights():
    est = estimators.get("CB11.AER.residual", k=4, reading="text")
    with pytest.raises(InvalidParameterError, match="`w`"):
        est.sample([1.0, 0.0, 0.0], [0.1, 0.2, 0.3], 0.0, n=1, rng=0)
    est.sample([0.0, 0.0, 0.0], [0.1, 0.2, 0.3], 0.0, n=1, rng=0)      # w = 0: P uniform


@pytest.mark.parametrize("name", ["HK12.AERR.gradient", "HK12.AELR.gradient", "CB11.AER.gradient",
                                  "HK12.GenEst.derivative"])
def test_check_assumptions(name):
    params = {**estimators.example_params(name, 3), "B": 1.0, "check_assumptions": True}
    est = estimators.get(name, **params)
    est.sample([0.3, 0.2, 0.1], [0.5, 0.5, 0.5], 0.5, n=1, rng=0)     # all assumptions hold
    for w, x, y in (([0.3, 0.2, 0.1], [2.0, 0.0, 0.0], 0.5),             # ‖x‖ > 1
                    ([0.3, 0.2, 0.1], [0.5, 0.5, 0.5], 3.0),             # |y| > B
                    ([3.0, 0.2, 0.1], [0.5, 0.5, 0.5], 0.5)):            # ‖w‖ > B
        with pytest.raises(InvalidParameterError, match="assumptions"):
            est.sample(w, x, y, n=1, rng=0)
        assert est.assumptions(w, x, y)
    relaxed = estimators.get(name, **{**params, "check_assumptions": False})
    relaxed.sample([3.0, 0.2, 0.1], [2.0, 0.5, 0.5], 3.0, n=1, rng=0)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_valid_inputs_of_any_scale_run_within_budget(name, data):
    """Any finite instance runs; with a max budget no draw observes more attributes."""
    d = data.draw(st.integers(4, 9))
    k = data.draw(st.integers(1, 4))
    est = estimators.get(name, **estimators.example_params(name, d, k=k))
    scale = data.draw(st.sampled_from([1e-150, 1e-3, 1.0, 1e3]))
    elements = st.one_of(st.just(0.0), st.floats(-1, 1, allow_nan=False))
    w = data.draw(hnp.arrays(np.float64, d, elements=elements)) * scale
    x = data.draw(hnp.arrays(np.float64, d, elements=elements))
    y = data.draw(st.floats(-2, 2, allow_nan=False))
    draws = est.sample(w, x, y, n=50, rng=data.draw(st.integers(0, 2**32 - 1)))
    if est.budget_kind == "max":
        assert draws.attributes.max() <= est.budget
    assert draws.attributes.min() >= 0
