"""Tests of the error budget."""

import math

import pytest

from laocheck.exceptions import InvalidParameterError
from laocheck.stats import DEFAULT_DELTA, ErrorBudget


def test_default_per_check():
    alloc = ErrorBudget().allocate(["a", "b", "c"])
    assert alloc["a"] == DEFAULT_DELTA == 1e-6
    assert alloc.family_wise == pytest.approx(3e-6) and len(alloc) == 3
    assert ErrorBudget().family_wise(3) == pytest.approx(3e-6)


def test_total_split_with_weights():
    names = [f"check{i}" for i in range(7)]
    alloc = ErrorBudget(total=1e-4).allocate(names, weights={"check0": 4.0})
    assert alloc.family_wise <= 1e-4
    assert alloc.family_wise == pytest.approx(1e-4, rel=1e-9)
    assert alloc["check0"] / alloc["check1"] == pytest.approx(4.0)
    assert math.fsum(alloc.deltas.values()) == alloc.family_wise
    assert list(alloc) == names


def test_equal_split_never_exceeds_total():
    for k in (1, 3, 7, 10, 1000):
        assert ErrorBudget(total=1e-6).allocate([str(i) for i in range(k)]).family_wise <= 1e-6


class TestIV:
    def test_errors(self):
        with pytest.raises(InvalidParameterError, match="`total` must satisfy 0 < total < 1"):
            ErrorBudget(total=1.0)
        with pytest.raises(InvalidParameterError, match="`per_check` must satisfy"):
            ErrorBudget(per_check=0)
        with pytest.raises(InvalidParameterError, match="distinct check names"):
            ErrorBudget().allocate(["a", "a"])
        with pytest.raises(InvalidParameterError, match="unknown"):
            ErrorBudget(total=0.1).allocate(["a"], weights={"b": 1})
        with pytest.raises(InvalidParameterError, match="finite and > 0"):
            ErrorBudget(total=0.1).allocate(["a"], weights={"a": 0})
        with pytest.raises(InvalidParameterError, match="`name` must be one of"):
            ErrorBudget().allocate(["a"])["b"]
