"""What a user's sample() returns must be draws: a NaN or an infinite value, or an attribute
count that is not a whole number, is the FAIL of every check that reads it (issue 48: a NaN in
one draw made the clipping check PASS values of 3 against a limit of 1; a count of 1.9 was
truncated to 1)."""
import numpy as np
import pytest

from laocheck.testing import check_estimator
from laocheck.testing._checks import CheckFailure


class Gradient:
    """HK12 Alg. 1's gradient estimate, written as a user writes it (README's sampler)."""
    k, budget = 2, 3

    def target(self, w, x, y):
        return (w @ x - y) * x

    def sample(self, w, x, y, n=1, rng=None):
        d = len(x)
        idx = rng.integers(d, size=(n, self.k))
        xt = np.zeros((n, d), dtype=x.dtype)
        for r in range(self.k):
            xt[np.arange(n), idx[:, r]] += x[idx[:, r]] * d / self.k
        s = w @ w
        j = rng.choice(d, size=n, p=w * w / s) if s > 0 else np.zeros(n, dtype=int)
        phi = s * x[j] / w[j] - y if s > 0 else np.full(n, -y)
        seen = [len(set(a) | {b}) for a, b in zip(idx.tolist(), j.tolist())]
        return phi[:, None] * xt, np.array(seen)


class ThreesAndOneNan(Gradient):
    """Every value 3 (over a clipping level of 1), and one NaN in the first draw."""

    def sample(self, w, x, y, n=1, rng=None):
        v, a = super().sample(w, x, y, n=n, rng=rng)
        v = np.full_like(v, 3.0)
        v[0, 0] = np.nan
        return v, a


class InfiniteDraw(Gradient):
    def sample(self, w, x, y, n=1, rng=None):
        v, a = super().sample(w, x, y, n=n, rng=rng)
        v[-1, -1] = np.inf
        return v, a


class FractionalCount(Gradient):
    """Reports 1.9 attributes per draw: a budget of 1 would pass if 1.9 were cut to 1."""
    budget = 1

    def sample(self, w, x, y, n=1, rng=None):
        v, _ = super().sample(w, x, y, n=n, rng=rng)
        return v, np.full(n, 1.9)


def _failed(records, prop):
    [rec] = [r for r in records if r.id.endswith("." + prop)]
    return rec


@pytest.mark.parametrize("claims", [{"clipping": 1.0, "unbiased": False, "budget": 3},
                                    {"clipping": 1e9, "unbiased": False, "budget": 3}])
def test_a_nan_in_one_draw_fails_the_clipping_check(claims):
    with pytest.raises(CheckFailure) as info:
        check_estimator(ThreesAndOneNan(), claims)
    rec = _failed(info.value.records, "clipping")
    assert rec.status == "FAIL" and "nan" in rec.note and "finite" in rec.note


def test_an_infinite_value_fails_the_unbiasedness_check():
    with pytest.raises(CheckFailure) as info:
        check_estimator(InfiniteDraw(), {"unbiased": True, "finite_support": False,
                                         "range": [-100, 100]})
    rec = _failed(info.value.records, "unbiased.monte_carlo")
    assert rec.status == "FAIL" and "inf" in rec.note


def test_an_attribute_count_of_1_9_is_not_truncated_to_1():
    with pytest.raises(CheckFailure) as info:
        check_estimator(FractionalCount(), {"budget": 1, "unbiased": False})
    rec = _failed(info.value.records, "budget")
    assert rec.status == "FAIL" and "1.9" in rec.note and "whole number" in rec.note


def test_the_same_samplers_with_good_draws_pass():
    check_estimator(Gradient(), {"unbiased": True, "budget": 3, "clipping": 1e9})
