"""Issue 51 item 2 outside the grids: the draws of the Monte Carlo kernel comparisons, the
sequential stopping of HK12's grid checks and the draws they share."""
import numpy as np
import pytest

from laocheck import estimators
from laocheck.checks.algorithms.estimator_properties import MalformedDraws, draws_values
from laocheck.estimators import Draws
from laocheck.estimators.instances import INSTANCES, as_float
from laocheck.stats.choice_tree import draws_of


class _Fixed:
    """A user's sampler that returns the draws it was built with (any dtype)."""

    def __init__(self, values, attributes, wrap=Draws):
        self.values, self.attributes, self.wrap = values, attributes, wrap

    def sample(self, w, x, y, n, rng):
        return self.wrap(self.values[:n], self.attributes[:n])


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int8, np.bool_])
def test_draws_values_numeric_arrays_match_the_object_path(dtype):
    rng = np.random.default_rng(3)
    raw = (rng.normal(size=(500, 4)) * 1e3).astype(dtype)
    att = rng.integers(0, 5, size=500)
    got, got_att = draws_values(_Fixed(raw, att), "d4", 500, rng)
    ref = np.asarray(draws_of(Draws(raw, att), 500)[0], dtype=float)
    assert got.dtype == np.float64 and got.shape == (500, 4)
    assert np.array_equal(got, ref) and np.array_equal(got_att, att)


def test_draws_values_of_a_kernel_equal_the_object_path():
    est = estimators.get("HK12.AERR.gradient", k=2)
    wf, xf, yf = as_float(INSTANCES["d4"])
    direct, att = draws_values(est, "d4", 20_000, np.random.default_rng(7))
    drawn = est.sample(wf, xf, yf, n=20_000, rng=np.random.default_rng(7))
    values, attributes = draws_of(drawn, 20_000)
    assert np.array_equal(direct, np.asarray(values, dtype=float))
    assert np.array_equal(att, attributes)


def test_draws_values_still_refuses_malformed_draws():
    raw = np.ones((10, 4))
    raw[3, 1] = np.nan
    with pytest.raises(MalformedDraws, match="draw 3, coordinate 1"):
        draws_values(_Fixed(raw, np.ones(10, dtype=int)), "d4", 10, None)
    with pytest.raises(MalformedDraws, match="attribute count 1.5"):
        draws_values(_Fixed(np.ones((10, 4)), np.full(10, 1.5)), "d4", 10, None)
    # complex values are not real numbers: the object path refuses them, never a silent cast
    with pytest.raises((MalformedDraws, TypeError, ValueError)):
        draws_values(_Fixed(np.ones((10, 4)) + 1j, np.ones(10, dtype=int)), "d4", 10, None)
