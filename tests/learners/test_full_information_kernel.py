"""The C loops of the full-information online learners against their literal NumPy loops.

OnlineRidge (projected OGD, HK12 Alg. 1 with the exact gradient), OnlineLasso (EG±, HK12 Alg. 2
with the exact gradient) and AdaOnlineRidge (KS15 App. A eq. (13)) run ``_full``'s kernels in
``fit`` and keep the NumPy loop as ``_reference_fit``. The kernels do the reference's
operations in its order except the summation order of dot products and norms, so they agree to
rounding. Tolerance: each step's rounding discrepancy is at most about 2·d·u times the step's
magnitude (u = 2⁻⁵³); for OGD with η‖x‖² <= 2 the step map w ↦ w − η x(xᵀw − y) and the
projection are non-expansive, so discrepancies add up over the m steps without growing:
|Δw| <= m·2d·u·(B + η‖x‖(B‖x‖ + |y|)). With m <= 400, d <= 40, B, |y| <= 4, ‖x‖ <= 1 and
η <= 2 that is below 400·80·1.1e-16·(4 + 2·8) ≈ 7e-11: ``ATOL = 1e-9``. EG± and AdaGrad are
not non-expansive maps in general, so for OnlineLasso and AdaOnlineRidge the 1e-9 (times 2B
for EG±, whose w = B(z⁺ − z⁻)/Σz moves by at most 2B times its log weights' change) is stated
against a measurement, not derived: 500 random cases of these shapes (m < 400, d < 40, B up
to 4) gave largest discrepancies 3.6e-15 (AdaOnlineRidge), 3.3e-16 (OnlineRidge), and for
OnlineLasso 2.8e-16·B at the theory step, 1.2e-15·B at η = 0.5, 4.8e-11·B at η = 2 — and
0.79·B at η = 5, where EG± with η·B ≈ 20 is chaotic and any two roundings part ways (so the
lasso cases keep η <= 0.5; OnlineLasso's kernel shifts its log weights differently from the
reference, see ``_full.online_lasso``).
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from laocheck.exceptions import InvalidParameterError
from laocheck.learners import AdaOnlineRidge, OnlineLasso, OnlineRidge, full_information

ATOL = 1e-9
MODELS = [OnlineRidge, OnlineLasso, AdaOnlineRidge]


def _rows(m, d, seed, kind="uniform"):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, (m, d)) / np.sqrt(d)
    if kind == "sparse":
        X *= rng.random((m, d)) < 0.2
    elif kind == "zeros":
        X[::2] = 0.0
    elif kind == "boundary":                     # rows on the unit sphere
        X /= np.maximum(np.linalg.norm(X, axis=1, keepdims=True), 1e-300)
    y = np.clip(X @ rng.uniform(-2, 2, d) + 0.1 * rng.normal(size=m), -4, 4)
    return X, y


def _same(Model, params, X, y):
    a = Model(**params).fit(X, y)
    b = Model(**params)._reference_fit(X, y)
    B = float(params.get("B", 1.0))
    tol = ATOL * (2 * B if Model is OnlineLasso else 1.0) * max(B, 1.0)
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=0, atol=tol)
    np.testing.assert_allclose(a.w_, b.w_, rtol=0, atol=tol)
    if Model is AdaOnlineRidge:
        np.testing.assert_allclose(a.G_, b.G_, rtol=1e-12, atol=0)
    assert a.eta_ == b.eta_ and a.n_steps_ == b.n_steps_
    assert a.n_attributes_seen_ == b.n_attributes_seen_ == X.shape[0] * X.shape[1]
    return a


CASES = [(1, 1, {}), (1, 7, {}), (200, 1, {}), (300, 20, {}), (300, 20, {"B": 4.0}),
         (400, 40, {"B": 0.25}), (300, 20, {"eta": 1e-6}), (300, 20, {"eta": 2.0})]


@pytest.mark.parametrize("Model", MODELS)
@pytest.mark.parametrize("m, d, params", CASES)
@pytest.mark.parametrize("kind", ["uniform", "sparse", "zeros", "boundary"])
def test_kernel_matches_the_numpy_loop(Model, m, d, params, kind):
    if Model is not OnlineRidge and "eta" in params:          # see the module docstring
        params = {**params, "eta": min(params["eta"], 0.5)}
    X, y = _rows(m, d, seed=m * 31 + d, kind=kind)
    _same(Model, params, X, y)


@settings(max_examples=150, deadline=None)
@given(Model=st.sampled_from(MODELS), m=st.integers(1, 60), d=st.integers(1, 12),
       B=st.sampled_from([0.1, 1.0, 3.0]), seed=st.integers(0, 2**32 - 1),
       kind=st.sampled_from(["uniform", "sparse", "zeros", "boundary"]))
def test_kernel_in_the_ball_and_equal_to_the_reference(Model, m, d, B, seed, kind):
    X, y = _rows(m, d, seed, kind)
    est = _same(Model, {"B": B}, X, y)
    order = 1 if Model is OnlineLasso else 2
    for v in (est.w_, est.coef_):               # w̄ is an average of points of the ball
        assert np.linalg.norm(v, ord=order) <= B * (1 + 1e-12)


@pytest.mark.parametrize("Model", [OnlineRidge, OnlineLasso])
def test_a_non_finite_iterate_is_refused(Model):
    """η and entries at the top of the accepted range overflow the iterate: a refusal naming
    the parameters, never inf or NaN in coef_ (the kernel stops at the first such step).
    AdaOnlineRidge cannot overflow so: its step η₀g_i/√G_i is at most η₀ per coordinate."""
    X = np.full((6, 3), 1e100)
    y = np.full(6, 1e100)
    with pytest.raises(InvalidParameterError, match=r"non-finite iterate at step \d+"):
        Model(B=1e100, eta=1e100).fit(X, y)


def test_adagrad_steps_stay_finite_at_the_top_of_the_range():
    X = np.full((6, 3), 1e100)
    est = AdaOnlineRidge(B=1e100, eta=1e100).fit(X, np.full(6, 1e100))
    assert np.all(np.isfinite(est.coef_)) and np.linalg.norm(est.w_) <= 1e100 * (1 + 1e-12)


def test_the_kernels_read_any_layout():
    """Fortran-ordered, strided or read-only X, y: the same model as C-contiguous copies."""
    X, y = _rows(120, 9, seed=5)
    F = np.asfortranarray(X)
    wide = np.zeros((120, 18))
    wide[:, ::2] = X
    ro = X.copy()
    ro.setflags(write=False)
    for Model in MODELS:
        base = Model().fit(X, y).coef_
        for Xv, yv in ((F, y), (wide[:, ::2], y), (ro, y), (X, np.repeat(y, 2)[::2])):
            np.testing.assert_array_equal(Model().fit(Xv, yv).coef_, base)


@settings(max_examples=400, deadline=None)
@given(d=st.integers(1, 60), exponent=st.integers(-100, 100), seed=st.integers(0, 2**32 - 1),
       zeros=st.booleans(), ties=st.booleans(), radius=st.floats(0.01, 1.2))
def test_l1_projection_in_c_matches_numpy(d, exponent, seed, zeros, ties, radius):
    """``_full.project_l1`` (the solvers' projection) against the NumPy form of the same
    algorithm: equal to rounding (sequential against pairwise sums: a few ulps of B), inside
    the ball, and v itself when v is inside."""
    rng = np.random.default_rng(seed)
    scale = 10.0 ** exponent
    v = rng.normal(size=d)
    if zeros:
        v[rng.random(d) < 0.5] = 0.0
    if ties:
        v = np.round(4 * v)
    v = v * scale
    B = max(float(np.abs(v).sum()) * radius, 1e-300)
    a = full_information._project_l1(v, B)
    b = full_information._project_l1_reference(v, B)
    np.testing.assert_allclose(a, b, rtol=0, atol=16 * np.finfo(float).eps * B)
    assert np.abs(a).sum() <= B * (1 + 1e-15)
    # inside the ball by more than the rounding of the two sums of |v| (sequential in C,
    # pairwise in NumPy: each within d·eps·Σ|v_i| of the exact sum, d <= 60, so 1e-12 is
    # ~40 times their largest gap): at the boundary (radius = 1) either may project
    if np.abs(v).sum() <= B * (1 - 1e-12):
        np.testing.assert_array_equal(a, v)
