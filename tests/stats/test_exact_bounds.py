"""The bounds of laocheck.stats.exact.enumerate_outcomes: each one stops an enumeration that
would otherwise hang or grow without end, with EnumerationLimit and its reason, even when the
program catches it."""

from fractions import Fraction as F

import pytest

from laocheck.exceptions import InvalidParameterError
from laocheck.stats.exact import (MAX_PROBABILITY_BITS, EnumerationLimit, enumerate_outcomes)


def heads_before_tail(src):
    """Unbounded: the number of heads before the first tail of a fair coin."""
    heads = 0
    while src.bernoulli(F(1, 2)):
        heads += 1
    return heads


def test_a_loop_that_draws_until_a_condition_holds_stops_at_max_choices():
    with pytest.raises(EnumerationLimit, match="max_choices") as stop:
        enumerate_outcomes(heads_before_tail, max_choices=50)
    assert "more than 50 draws on one path" in stop.value.reason
    assert isinstance(stop.value, InvalidParameterError)


def test_a_bound_the_program_catches_is_still_raised():
    def stubborn(src):
        try:
            return heads_before_tail(src)
        except Exception:       # a broad except must not turn the bound into an outcome
            return -1
    with pytest.raises(EnumerationLimit, match="max_choices"):
        enumerate_outcomes(stubborn, max_choices=50)


def test_a_path_probability_stops_at_its_bit_bound():
    def thin(src):
        return tuple(src.bernoulli(F(1, 3 ** 40)) for _ in range(MAX_PROBABILITY_BITS))
    with pytest.raises(EnumerationLimit, match="MAX_PROBABILITY_BITS") as stop:
        enumerate_outcomes(thin)
    assert "bits" in stop.value.reason


def test_the_outcomes_kept_stop_at_max_bytes():
    def wide(src):
        return (src.uniform_int(4),) + (F(1, 3),) * 10_000
    with pytest.raises(EnumerationLimit, match="max_bytes"):
        enumerate_outcomes(wide, max_bytes=10 ** 6)
    assert len(enumerate_outcomes(wide, max_bytes=10 ** 7)) == 4


def test_a_deadline_stops_the_enumeration():
    def slow(src):
        return tuple(src.uniform_int(10) for _ in range(5))     # 10**5 paths
    with pytest.raises(EnumerationLimit, match="max_seconds"):
        enumerate_outcomes(slow, max_seconds=0.05)


def test_the_bounds_are_validated():
    for bad in ({"max_choices": 0}, {"max_bytes": -1}, {"max_seconds": 0},
                {"max_seconds": "1"}):
        with pytest.raises(InvalidParameterError):
            enumerate_outcomes(heads_before_tail, **bad)


def test_a_huge_choice_is_refused_in_words_not_digits():
    """subset(4000, 2000) has more options than Python prints as an int by default."""
    with pytest.raises(EnumerationLimit) as stop:
        enumerate_outcomes(lambda src: src.subset(4000, 2000))
    assert len(str(stop.value)) < 300 and "max_leaves" in str(stop.value)
