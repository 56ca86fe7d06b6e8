"""The estimator protocol: registry, shapes, reproducibility, sample/accumulate consistency."""
import numpy as np
import pytest

from laocheck import estimators
from laocheck.stats import mean_interval_from_sums

NAMES = estimators.names()
D = 5


def instance(seed=3):
    rng = np.random.default_rng(seed)
    w = rng.uniform(-1, 1, D)
    x = rng.uniform(-1, 1, D)
    return w / np.linalg.norm(w), x / np.linalg.norm(x), 0.3


def test_registry_names_follow_catalog_ids_and_parts():
    parts = {"data_point", "residual", "gradient", "clipped_gradient", "loss", "derivative"}
    catalog = {"CB11.Baseline", "CB11.AER", "HK12.AERR", "HK12.AELR", "HK12.GenEst", "HK12.AESVR",
               "KS15.GAERR", "KS15.GAELR", "KS15.DDAERR", "KS15.DDAELR",
               "KS15.ImprovedInnerProduct"}
    seen = set()
    for name in NAMES:
        algorithm, part = name.rsplit(".", 1)
        assert algorithm in catalog and part in parts, name
        seen.add(algorithm)
    assert seen == catalog
    # every gradient estimate the issue names is there
    for algorithm in ("CB11.AER", "HK12.AERR", "HK12.AELR", "KS15.GAERR", "KS15.GAELR",
                      "KS15.DDAERR", "KS15.DDAELR"):
        assert f"{algorithm}.gradient" in NAMES


@pytest.mark.parametrize("name", NAMES)
def test_shapes_budget_and_repr(name):
    est = estimators.get(name, **estimators.example_params(name, D))
    w, x, y = instance()
    draws = est.sample(w, x, y, n=7, rng=0)
    target = np.asarray(est.target(w, x, y))
    assert draws.values.shape == (7, *target.shape) == (7, *est.target_shape(D))
    assert draws.attributes.shape == (7,)
    assert est.budget_kind in ("max", "expectation")
    assert est.citation.split()[0] in ("CB11", "HK12", "KS15")
    assert repr(est).startswith(f"get({name!r}")
    assert est.name == name


@pytest.mark.parametrize("name", NAMES)
def test_same_seed_is_bit_identical_and_seeds_differ(name):
    est = estimators.get(name, **estimators.example_params(name, D))
    w, x, y = instance()
    a = est.sample(w, x, y, n=200, rng=np.random.default_rng(42))
    b = est.sample(w, x, y, n=200, rng=np.random.default_rng(42))
    c = est.sample(w, x, y, n=200, rng=np.random.default_rng(43))
    np.testing.assert_array_equal(a.values, b.values)
    np.testing.assert_array_equal(a.attributes, b.attributes)
    assert not np.array_equal(a.values, c.values)


@pytest.mark.parametrize("name", NAMES)
def test_accumulate_equals_the_sums_of_sample(name):
    """With the same stream, the kernel-side sums are the sums of the materialised draws."""
    est = estimators.get(name, **estimators.example_params(name, D))
    w, x, y = instance()
    n = 3000
    draws = est.sample(w, x, y, n=n, rng=7)
    sums = est.accumulate(w, x, y, n=n, rng=7)
    values = draws.values.reshape(n, -1)
    assert sums.n == n
    np.testing.assert_allclose(sums.sum.ravel(), values.sum(axis=0), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(sums.sum_sq.ravel(), (values ** 2).sum(axis=0), rtol=1e-10, atol=1e-12)
    norms = (values ** 2).sum(axis=1)
    np.testing.assert_allclose(sums.sum_norm_sq, norms.sum(), rtol=1e-10)
    np.testing.assert_allclose(sums.sum_norm_sq_sq, (norms ** 2).sum(), rtol=1e-10)
    assert sums.attributes_sum == draws.attributes.sum()
    assert sums.attributes_sum_sq == (draws.attributes ** 2).sum()
    assert sums.attributes_max == draws.attributes.max()
    hist = np.bincount(np.minimum(draws.attributes, 64), minlength=65)
    np.testing.assert_array_equal(sums.attributes_hist, hist)


def test_moments_merge_is_the_sum_of_two_runs():
    est = estimators.get("HK12.AERR.gradient", k=2)
    w, x, y = instance()
    rng = np.random.default_rng(1)
    a = est.accumulate(w, x, y, n=1000, rng=rng)
    b = est.accumulate(w, x, y, n=500, rng=rng)
    both = est.accumulate(w, x, y, n=1500, rng=1)
    merged = a.merge(b)
    assert merged.n == 1500
    np.testing.assert_allclose(merged.sum, both.sum, rtol=1e-12)
    assert merged.attributes_sum == both.attributes_sum


def test_large_accumulation_unbiased_for_hk12_aerr_residual():
    """10⁷ draws accumulated without materialising them: the interval from the running sums
    (empirical Bernstein, δ = 1e-6, range from |φ̃| <= ‖w‖₂²‖x‖∞/min|w_j| + |y|) covers wᵀx − y."""
    est = estimators.get("HK12.AERR.residual")
    w, x, y = np.array([0.6, -0.8]), np.array([0.5, 0.25]), 0.1
    m = est.accumulate(w, x, y, n=10**7, rng=11)
    bound = float(w @ w) * np.max(np.abs(x)) / np.min(np.abs(w)) + abs(y)
    interval = mean_interval_from_sums(m.n, m.sum.item(), m.sum_sq.item(), lower=-bound,
                                       upper=bound, delta=1e-6)
    assert interval.low <= float(w @ x) - y <= interval.high
    assert interval.width < 1e-2


@pytest.mark.parametrize("name", NAMES)
def test_reference_sampler_runs_in_floating_point(name):
    """The literal versions run on floats too (the exact tests run them on Fractions)."""
    est = estimators.get(name, **estimators.example_params(name, D))
    w, x, y = instance()
    draws = est.sample_reference(w, x, y, n=50, rng=0)
    assert draws.values.shape == (50, *est.target_shape(D))
    assert np.all(np.isfinite(draws.values))
    if est.budget_kind == "max":
        assert draws.attributes.max() <= est.budget
    again = est.sample_reference(w, x, y, n=50, rng=0)
    np.testing.assert_array_equal(draws.values, again.values)
