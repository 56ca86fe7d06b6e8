"""laocheck.testing.strategies: the constraints hold exactly (no filtering), and the strategies
drive exact property tests of laocheck's estimators."""
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from laocheck import estimators
from laocheck.checks._common import exact_distribution, exact_mean
from laocheck.exceptions import InvalidParameterError
from laocheck.testing import strategies as lst

SETTINGS = settings(derandomize=True, max_examples=60, deadline=None)


@SETTINGS
@given(st.data())
def test_vectors_are_in_their_balls(data):
    d = data.draw(st.integers(1, 6))
    B = data.draw(st.sampled_from([0.5, 1.0, 3.0]))
    w2 = data.draw(lst.weight_vectors(d, norm="l2", bound=B))
    w1 = data.draw(lst.weight_vectors(d, norm="l1", bound=B))
    x2 = data.draw(lst.data_points(d, norm="l2"))
    xi = data.draw(lst.data_points(d, norm="l1"))
    assert w2.shape == (d,) and np.linalg.norm(w2) <= B and np.abs(w1).sum() <= B
    assert np.linalg.norm(x2) <= 1 and np.abs(xi).max() <= 1
    q = data.draw(lst.sampling_distributions(d))
    assert np.all(q > 0) and abs(q.sum() - 1) <= 1e-12
    m2 = data.draw(lst.second_moment_vectors(d, norm="l2"))
    m1 = data.draw(lst.second_moment_vectors(d, norm="l1"))
    assert np.all(m2 >= 0) and m2.sum() <= 1 and np.all((0 <= m1) & (m1 <= 1))


@SETTINGS
@given(lst.problem_instances(norm="l1", bound=2.0))
def test_problem_instances_satisfy_the_assumptions(inst):
    w, x, y, B = inst
    assert np.abs(w).sum() <= B and np.abs(x).max() <= 1 and abs(y) <= B


@SETTINGS
@given(lst.dyadic_instances(norm="l2", bound=F(1, 2)), lst.dyadic_instances(norm="l1"))
def test_dyadic_instances_are_exact(ridge, lasso):
    w, x, y, B = ridge
    assert sum(v * v for v in w) <= B * B and sum(v * v for v in x) <= 1 and abs(y) <= B
    assert all(float(v) == v for v in w + x + [y])          # exactly representable
    w, x, y, B = lasso
    assert sum(abs(v) for v in w) <= B and max(abs(v) for v in x) <= 1 and abs(y) <= B


@settings(derandomize=True, max_examples=25, deadline=None)
@given(lst.dyadic_instances(max_d=3), st.integers(1, 2))
def test_hk12_gradient_is_unbiased_on_every_dyadic_instance(inst, k):
    """HK12 Lemma 3.3 (first part), exactly, on strategy-drawn instances."""
    w, x, y, _ = inst
    est = estimators.get("HK12.AERR.gradient", k=k)
    mean = exact_mean(exact_distribution(est, w, x, y))
    r = sum(a * b for a, b in zip(w, x)) - y
    assert list(mean) == [r * v for v in x]


@pytest.mark.parametrize("call,word", [
    (lambda: lst.weight_vectors(0), "d"), (lambda: lst.weight_vectors(2, norm="l3"), "norm"),
    (lambda: lst.weight_vectors(2, bound=-1), "bound"),
    (lambda: lst.dyadic_instances(denominator=10), "denominator"),
    (lambda: lst.dyadic_instances(bound=F(3, 10)), "bound"),
    (lambda: lst.sampling_distributions(4, min_mass=0.5), "min_mass"),
    (lambda: lst.problem_instances(norm="linf"), "norm"),
    (lambda: lst.second_moment_vectors(0), "d")])
def test_bad_options_are_refused(call, word):
    with pytest.raises(InvalidParameterError, match=word):
        call()
