"""Robustness of the L1-ball projection (``laocheck.learners.project_l1_ball``) over the whole
double range, against the exact projection in rational arithmetic (issue 13's rule: the
output lies in the ball to 1e-12 relative and is the projection; bad input is a ValueError
naming ``v`` or ``B``). Derandomized, bounded examples."""
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from laocheck.learners import project_l1_ball

SETTINGS = settings(derandomize=True, max_examples=300, deadline=None, database=None)
TINY = np.finfo(np.float64).tiny

finite = st.floats(allow_nan=False, allow_infinity=False)
radii = st.floats(min_value=TINY, max_value=np.finfo(np.float64).max)


def exact_projection(v, B):
    """Duchi et al. (2008), Fig. 1, in Fractions: the projection without rounding."""
    a = [abs(Fraction(x)) for x in v]
    B = Fraction(B)
    if sum(a) <= B:
        return [Fraction(x) for x in v]
    mu = sorted(a, reverse=True)
    total, theta = Fraction(0), None
    for j, m in enumerate(mu, 1):
        total += m
        if m - (total - B) / j > 0:
            theta = (total - B) / j
    return [(1 if x > 0 else -1) * max(abs(Fraction(x)) - theta, Fraction(0)) for x in v]


@SETTINGS
@given(v=st.lists(finite, min_size=1, max_size=12), B=radii)
def test_projection_is_exact_to_rounding_and_in_the_ball(v, B):
    w = project_l1_ball(v, B)
    exact = exact_projection(v, B)
    assert w.shape == (len(v),) and np.all(np.isfinite(w))
    # in the ball to 1e-12 relative (sums in Fractions: no overflow in the check itself)
    assert sum(abs(Fraction(x)) for x in w) <= Fraction(B) * (1 + Fraction(1, 10**12))
    # every entry within 1e-12·B of the exact projection (the kept entries are O(B))
    scale = Fraction(B) if sum(abs(Fraction(x)) for x in v) > B else \
        max(abs(Fraction(x)) for x in v)
    for got, want in zip(w, exact):
        assert abs(Fraction(got) - want) <= scale * Fraction(1, 10**12)


@SETTINGS
@given(v=st.lists(finite, min_size=1, max_size=8), B=radii,
       layout=st.sampled_from(["strided", "readonly", "fortran2d", "int", "list"]))
def test_projection_accepts_any_layout_and_never_writes_its_input(v, B, layout):
    arr = np.array(v)
    if layout == "strided":
        wide = np.zeros(2 * arr.size)
        wide[::2] = arr
        arr = wide[::2]
    elif layout == "readonly":
        arr.flags.writeable = False
    elif layout == "int":
        arr = np.clip(np.nan_to_num(arr), -2**62, 2**62).astype(np.int64)
    elif layout == "list":
        arr = list(v)
    elif layout == "fortran2d":
        with pytest.raises(ValueError, match="`v`"):
            project_l1_ball(np.asfortranarray(np.array(v).reshape(1, -1)), B)
        return
    before = np.array(arr, dtype=np.float64, copy=True)
    w = project_l1_ball(arr, B)
    np.testing.assert_array_equal(np.asarray(arr, dtype=np.float64), before)
    assert np.abs(w).sum() <= B * (1 + 1e-12) or not np.isfinite(np.abs(w).sum())
    assert np.all(np.isfinite(w))


@pytest.mark.parametrize("v,B,name", [
    ([np.nan, 1.0], 1.0, "v"), ([np.inf], 1.0, "v"), ([], 1.0, "v"), ([[1.0]], 1.0, "v"),
    ("ab", 1.0, "v"), ([1.0], 0.0, "B"), ([1.0], -1.0, "B"), ([1.0], np.nan, "B"),
    ([1.0], np.inf, "B"), ([1.0], 5e-324, "B"), ([1.0], np.datetime64("2020"), "B"),
    ([1.0], "1", "B"), ([1.0], 10**400, "B"), ([1 + 2j], 1.0, "v"),
])
def test_projection_refuses_bad_input_by_name(v, B, name):
    with pytest.raises(ValueError, match=f"`{name}`"):
        project_l1_ball(v, B)
