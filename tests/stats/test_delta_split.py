"""Tests of the δ split (a run's family-wise false-failure probability across its checks)."""

import importlib
import math
import sys

import pytest

from laocheck import stats
from laocheck.exceptions import InvalidParameterError
from laocheck.stats import DEFAULT_DELTA, DeltaSplit


def test_default_per_check():
    alloc = DeltaSplit().allocate(["a", "b", "c"])
    assert alloc["a"] == DEFAULT_DELTA == 1e-6
    assert alloc.family_wise == pytest.approx(3e-6) and len(alloc) == 3
    assert DeltaSplit().family_wise(3) == pytest.approx(3e-6)


def test_total_split_with_weights():
    names = [f"check{i}" for i in range(7)]
    alloc = DeltaSplit(total=1e-4).allocate(names, weights={"check0": 4.0})
    assert alloc.family_wise <= 1e-4
    assert alloc.family_wise == pytest.approx(1e-4, rel=1e-9)
    assert alloc["check0"] / alloc["check1"] == pytest.approx(4.0)
    assert math.fsum(alloc.deltas.values()) == alloc.family_wise
    assert list(alloc) == names


def test_equal_split_never_exceeds_total():
    for k in (1, 3, 7, 10, 1000):
        assert DeltaSplit(total=1e-6).allocate([str(i) for i in range(k)]).family_wise <= 1e-6


class TestIV:
    def test_errors(self):
        with pytest.raises(InvalidParameterError, match="`total` must satisfy 0 < total < 1"):
            DeltaSplit(total=1.0)
        with pytest.raises(InvalidParameterError, match="`per_check` must satisfy"):
            DeltaSplit(per_check=0)
        with pytest.raises(InvalidParameterError, match="distinct check names"):
            DeltaSplit().allocate(["a", "a"])
        with pytest.raises(InvalidParameterError, match="unknown"):
            DeltaSplit(total=0.1).allocate(["a"], weights={"b": 1})
        with pytest.raises(InvalidParameterError, match="finite and > 0"):
            DeltaSplit(total=0.1).allocate(["a"], weights={"a": 0})
        with pytest.raises(InvalidParameterError, match="`name` must be one of"):
            DeltaSplit().allocate(["a"])["b"]


def test_names_before_0_1_warn_and_name_the_new_ones():
    """``ErrorBudget``, ``BudgetAllocation`` and ``laocheck.stats.budget`` (before 0.1) still
    work, each with a DeprecationWarning naming what replaces it."""
    with pytest.warns(DeprecationWarning, match="use `laocheck.stats.DeltaSplit`"):
        assert stats.ErrorBudget is DeltaSplit
    with pytest.warns(DeprecationWarning, match="use `laocheck.stats.DeltaAllocation`"):
        assert stats.BudgetAllocation is type(DeltaSplit().allocate(["a"]))
    sys.modules.pop("laocheck.stats.budget", None)
    with pytest.warns(DeprecationWarning, match="use `laocheck.stats.delta_split`"):
        old = importlib.import_module("laocheck.stats.budget")
    with pytest.warns(DeprecationWarning, match="DeltaSplit"):
        assert old.ErrorBudget(total=1e-5).allocate(["x", "y"]).family_wise <= 1e-5
