"""Robustness of ``laocheck.stats`` on any input (issue 13, section 2).

The rule, asserted for every public function: it either returns a result whose figures are
never NaN (finite and correct, or infinite on the side that overflows with the reason in the
result), or raises ``InvalidParameterError`` (a ``ValueError``) whose message names the
user's argument in backticks, before any work. No other exception escapes (no
ZeroDivisionError, OverflowError, IndexError), and no RuntimeWarning is emitted.

"Correct" is checked where it is decidable without randomness: a sample of one repeated value
c has mean c, so every interval must contain c; every interval lies inside its declared range.

The first tests are the defects named in the issue, one test each; the hypothesis tests below
throw extreme floats and integers, NaN/inf, wrong types and empty or mis-shaped arrays at
every function. Deterministic: hypothesis' derandomized profile (fixed examples).
"""
import math
import re
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from laocheck import stats
from laocheck.exceptions import InvalidParameterError

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])
TINY = 5e-324                                         # the smallest positive double
HUGE = np.finfo(float).max                            # 1.7976931348623157e308

EXTREME_FLOATS = [0.0, -0.0, TINY, -TINY, 1e-308, 1e-300, 0.5, 1.0, -1.0, 1e300, 1e308, HUGE,
                  -HUGE, math.nan, math.inf, -math.inf]
EXTREME_INTS = [0, 1, -1, 2, 2 ** 31, 2 ** 53 + 1, 2 ** 63, 10 ** 400, -10 ** 400]
WRONG_TYPES = [None, "0.1", b"1", True, 1 + 2j, object(), [0.1], (0.5,), {}, np.datetime64(1, "s"),
               np.array([0.1, 0.2])]

scalars = st.one_of(st.sampled_from(EXTREME_FLOATS), st.sampled_from(EXTREME_INTS),
                    st.floats(allow_nan=True, allow_infinity=True), st.integers(),
                    st.sampled_from(WRONG_TYPES))
probabilities = st.one_of(st.sampled_from([TINY, 1e-300, 1e-6, 0.5, 1 - 1e-16]),
                          st.floats(min_value=TINY, max_value=1 - 1e-16), scalars)
finite = st.floats(allow_nan=False, allow_infinity=False)
# sizes: small valid ones, or invalid ones (a valid size of 2**53 would only measure the memory)
sizes = st.one_of(st.integers(-2, 30), st.sampled_from([10 ** 400, -10 ** 400, 2 ** 63, math.nan,
                                                        math.inf, 1.5, 2.0] + WRONG_TYPES))
samples = st.one_of(st.lists(st.one_of(finite, st.sampled_from(EXTREME_FLOATS)), max_size=12),
                    st.lists(finite, min_size=1, max_size=12), st.sampled_from(WRONG_TYPES),
                    st.just([]), st.just([[0.1, 0.2]]), st.just(np.zeros((0, 3))))


def call(function, *args, **kwargs):
    """``function(*args, **kwargs)`` under the rule: a result, or InvalidParameterError naming
    a parameter; RuntimeWarnings are errors."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        try:
            return function(*args, **kwargs)
        except InvalidParameterError as exc:
            assert re.search(r"`[\w.\[\]]+`", str(exc)), f"no parameter named in {exc}"
            return None


def assert_interval_sane(iv, lower=None, upper=None):
    for name in ("low", "high", "mean"):
        value = getattr(iv, name)
        assert not math.isnan(value), f"{name} is NaN in {iv!r}"
    assert iv.low <= iv.high, iv
    if lower is not None:
        assert lower <= iv.low and iv.high <= upper, (iv, lower, upper)
    if math.isinf(iv.low) and iv.alternative != "less" or (math.isinf(iv.high)
                                                           and iv.alternative != "greater"):
        assert iv.details, f"an infinite end needs its reason in details: {iv!r}"


# --------------------------------------------------------------- the defects named in issue 13
def test_delta_5e_324_does_not_divide_by_zero():
    for method in stats.METHODS:
        iv = call(stats.mean_interval, [0.1, 0.2, 0.9], lower=0, upper=1, delta=TINY,
                  method=method)
        assert iv is not None and iv.contains(0.4)
        assert_interval_sane(iv, 0, 1)
    iv = call(stats.mean_interval_from_sums, 10, 5.0, 3.0, lower=0, upper=1, delta=TINY)
    assert_interval_sane(iv, 0, 1)
    assert call(stats.median_of_means_interval, np.ones(6000), variance_bound=1.0,
                delta=TINY).contains(1.0)
    res = call(stats.sequential_mean_test, lambda n, rng: np.full(n, 0.5), target=0.5, lower=0,
               upper=1, delta=TINY, epsilon=0.5, max_n=100, batch=10)
    assert res.status in ("PASS", "INCONCLUSIVE") and not math.isnan(res.interval.low)
    for method in ("binomial", "gtest"):
        assert call(stats.multinomial_test, [5, 5], [0.5, 0.5], delta=TINY,
                    method=method).status == "PASS"
    assert call(stats.two_sample_ks_test, [0.1, 0.2], [0.1, 0.3], delta=TINY).status == "PASS"
    assert call(stats.two_sample_mean_test, [0.1, 0.2], [0.1, 0.3], lower=0, upper=1,
                delta=TINY).status == "PASS"
    assert math.isfinite(call(stats.detectable_violation, 100, lower=0, upper=1, delta=TINY))
    assert call(stats.required_samples, 0.5, lower=0, upper=1, delta=TINY) >= 1
    box = call(stats.vector_mean_interval, np.full((4, 3), 0.5), lower=0, upper=1, delta=TINY)
    assert box.contains([0.5, 0.5, 0.5])


@pytest.mark.parametrize("counts", [[math.nan, 1], [-1, 3], [1.5, 2], [7, 1]])
def test_clopper_pearson_rejects_nan_negative_fractional_and_too_large_counts(counts):
    with pytest.raises(InvalidParameterError, match="`counts`"):
        stats.clopper_pearson(counts, 5, 0.05)


@pytest.mark.parametrize("n, alpha, name", [(math.nan, 0.05, "n"), (0, 0.05, "n"),
                                            (5, math.nan, "alpha"), (5, 2.0, "alpha")])
def test_clopper_pearson_rejects_bad_n_and_alpha(n, alpha, name):
    with pytest.raises(InvalidParameterError, match=f"`{name}`"):
        stats.clopper_pearson([1, 2], n, alpha)


def test_clopper_pearson_is_finite_and_covers_the_frequency():
    counts = np.array([0, 1, 5, 9, 10])
    low, high = stats.clopper_pearson(counts, 10, 1e-6)
    assert np.all(np.isfinite(low)) and np.all(np.isfinite(high))
    assert np.all((0 <= low) & (low <= counts / 10) & (counts / 10 <= high) & (high <= 1))


def test_mean_interval_spanning_the_double_range_is_not_nan():
    for values, lower, upper in (([-1e308, 1e308], -1e308, 1e308),
                                 ([-HUGE, HUGE, 0.0], -HUGE, HUGE),
                                 ([HUGE] * 5, -HUGE, HUGE)):
        for method in stats.METHODS:
            iv = call(stats.mean_interval, values, lower=lower, upper=upper, delta=1e-6,
                      method=method)
            assert_interval_sane(iv, lower, upper)
            assert iv.contains(math.fsum(v / len(values) for v in values))
    iv = call(stats.mean_interval_from_sums, 4, 0.0, 4e300, lower=-HUGE, upper=HUGE, delta=0.1)
    assert_interval_sane(iv, -HUGE, HUGE)


def test_error_messages_name_the_users_argument():
    with pytest.raises(InvalidParameterError, match="`a`"):
        stats.two_sample_mean_test([0.5, 2.0], [0.5], lower=0, upper=1, delta=0.1)
    with pytest.raises(InvalidParameterError, match="`b`"):
        stats.two_sample_mean_test([0.5], [np.nan], lower=0, upper=1, delta=0.1)
    with pytest.raises(InvalidParameterError, match="`box`"):
        stats.squared_norm_interval([1.0, 2.0], lower=0, upper=3, delta=0.1)
    with pytest.raises(InvalidParameterError, match=r"`totals\[1\]`"):
        stats.vector_mean_interval_from_sums(4, [1.0, 9.0], [1.0, 1.0], lower=0, upper=1,
                                             delta=0.1)
    with pytest.raises(InvalidParameterError, match="`upper`"):
        stats.vector_mean_interval([[0.5]], lower=0, upper=math.inf, delta=0.1)
    with pytest.raises(InvalidParameterError, match="`rng`"):
        stats.sequential_mean_test(lambda n, rng: rng.random(n), target=0.5, lower=0, upper=1,
                                   delta=0.1, epsilon=0.1, max_n=100, rng="abc")


def test_overflowing_sums_and_huge_values_give_no_nan():
    assert_interval_sane(call(stats.median_of_means_interval, [1e308] * 200, variance_bound=1,
                              delta=1e-6))
    iv = call(stats.median_of_means_interval, [-HUGE] * 200, variance_bound=1e300, delta=1e-6)
    assert_interval_sane(iv)
    assert iv.low <= -HUGE <= iv.high
    iv = call(stats.nonnegative_lower_bound, [1e308] * 200, delta=1e-6)
    assert_interval_sane(iv)
    assert 0 < iv.low <= 1e308
    iv = call(stats.squared_norm_interval, np.full((3, 2), 1e200), lower=0, upper=1e201,
              delta=0.1)
    assert iv.high == math.inf and "overflow" in iv.details
    iv = call(stats.mean_interval_from_sums, 10, 5.0, math.inf, lower=0, upper=1, delta=0.1)
    assert_interval_sane(iv, 0, 1)
    assert "variance" in iv.details


def test_huge_integers_are_refused_not_overflowed():
    with pytest.raises(InvalidParameterError, match="`n`"):
        stats.detectable_violation(10 ** 400, lower=0, upper=1, delta=1e-6)
    with pytest.raises(InvalidParameterError, match="`n`"):
        stats.mean_interval_from_sums(10 ** 400, 1.0, 1.0, lower=0, upper=1, delta=0.1)


# --------------------------------------------------------------- every function, any input
@SETTINGS
@given(values=samples, lower=scalars, upper=scalars, delta=probabilities,
       method=st.sampled_from(stats.METHODS + ("normal", None)),
       alternative=st.sampled_from(stats.ALTERNATIVES + ("both",)))
def test_mean_interval_any_input(values, lower, upper, delta, method, alternative):
    iv = call(stats.mean_interval, values, lower=lower, upper=upper, delta=delta, method=method,
              alternative=alternative)
    if iv is not None:
        assert_interval_sane(iv, lower, upper)


@SETTINGS
@given(value=st.one_of(finite, st.sampled_from([HUGE, -HUGE, TINY, 1e308])),
       n=st.integers(1, 40), delta=st.floats(TINY, 1 - 1e-16),
       method=st.sampled_from(stats.METHODS), alternative=st.sampled_from(
           ("two-sided", "greater", "less")))
def test_constant_sample_interval_contains_the_value(value, n, delta, method, alternative):
    """A sample of n copies of c has mean c, deterministically: every interval contains it."""
    lower, upper = min(value, 0.0) - (abs(value) == 0), max(value, 0.0) + 1.0
    if not math.isfinite(upper - lower):
        lower, upper = -HUGE, HUGE
    iv = call(stats.mean_interval, [value] * n, lower=lower, upper=upper, delta=delta,
              method=method, alternative=alternative)
    assert_interval_sane(iv, lower, upper)
    assert iv.contains(value), (iv, value)


@SETTINGS
@given(n=scalars, total=scalars, total_sq=scalars, lower=scalars, upper=scalars,
       delta=probabilities, method=st.sampled_from(stats.SUM_METHODS + ("betting",)))
def test_mean_interval_from_sums_any_input(n, total, total_sq, lower, upper, delta, method):
    iv = call(stats.mean_interval_from_sums, n, total, total_sq, lower=lower, upper=upper,
              delta=delta, method=method)
    if iv is not None:
        assert_interval_sane(iv, lower, upper)


@SETTINGS
@given(values=samples, variance_bound=scalars, delta=probabilities)
def test_median_of_means_any_input(values, variance_bound, delta):
    iv = call(stats.median_of_means_interval, values, variance_bound=variance_bound, delta=delta)
    if iv is not None:
        assert_interval_sane(iv)


@SETTINGS
@given(values=samples, delta=probabilities, truncation=st.one_of(st.none(), scalars),
       pilot_fraction=probabilities)
def test_nonnegative_lower_bound_any_input(values, delta, truncation, pilot_fraction):
    iv = call(stats.nonnegative_lower_bound, values, delta=delta, truncation=truncation,
              pilot_fraction=pilot_fraction)
    if iv is not None:
        assert_interval_sane(iv)
        assert iv.low <= max(values), (iv, values)   # E[Z] <= max Z for the empirical law


matrices = st.one_of(
    st.integers(1, 4).flatmap(lambda d: st.lists(st.lists(
        st.one_of(finite, st.sampled_from(EXTREME_FLOATS)), min_size=d, max_size=d),
        max_size=5)),
    samples)


@SETTINGS
@given(values=matrices, lower=scalars, upper=scalars, delta=probabilities)
def test_vector_and_squared_norm_any_input(values, lower, upper, delta):
    box = call(stats.vector_mean_interval, values, lower=lower, upper=upper, delta=delta)
    if box is not None:
        assert not (np.any(np.isnan(box.low)) or np.any(np.isnan(box.high)))
        norm = call(stats.squared_norm_interval, box)
        assert_interval_sane(norm)


@SETTINGS
@given(n=scalars, totals=samples, totals_sq=samples, lower=scalars, upper=scalars,
       delta=probabilities)
def test_vector_from_sums_any_input(n, totals, totals_sq, lower, upper, delta):
    box = call(stats.vector_mean_interval_from_sums, n, totals, totals_sq, lower=lower,
               upper=upper, delta=delta)
    if box is not None:
        assert not (np.any(np.isnan(box.low)) or np.any(np.isnan(box.high)))


counts = st.one_of(st.lists(st.one_of(st.integers(-2, 50), st.sampled_from(
    [math.nan, 1.5, 2 ** 63, math.inf])), max_size=6), st.sampled_from(WRONG_TYPES), st.just([]))


@SETTINGS
@given(counts=counts, probs=samples, delta=probabilities,
       method=st.sampled_from(("binomial", "gtest", "chi2")))
def test_multinomial_any_input(counts, probs, delta, method):
    res = call(stats.multinomial_test, counts, probs, delta=delta, method=method)
    if res is not None:
        assert res.status in ("PASS", "FAIL") and not math.isnan(res.statistic)
        assert not np.any(np.isnan(res.low)) and not np.any(np.isnan(res.high))


@SETTINGS
@given(a=counts, b=counts, delta=probabilities)
def test_two_sample_test_any_input(a, b, delta):
    res = call(stats.two_sample_test, a, b, delta=delta)
    if res is not None:
        assert res.status in ("PASS", "FAIL") and not math.isnan(res.statistic)


@SETTINGS
@given(c=counts, n=scalars, alpha=scalars)
def test_clopper_pearson_any_input(c, n, alpha):
    out = call(stats.clopper_pearson, c, n, alpha)
    if out is not None:
        low, high = out
        assert np.all(np.isfinite(low)) and np.all(np.isfinite(high))
        assert np.all((0 <= low) & (low <= high) & (high <= 1))


@SETTINGS
@given(a=samples, b=samples, lower=scalars, upper=scalars, delta=probabilities)
def test_two_sample_real_tests_any_input(a, b, lower, upper, delta):
    res = call(stats.two_sample_ks_test, a, b, delta=delta)
    if res is not None:
        assert res.status in ("PASS", "FAIL") and math.isfinite(res.threshold)
    res = call(stats.two_sample_mean_test, a, b, lower=lower, upper=upper, delta=delta)
    if res is not None:
        assert res.status in ("PASS", "FAIL") and not math.isnan(res.statistic)


@SETTINGS
@given(n=scalars, epsilon=scalars, lower=scalars, upper=scalars, delta=probabilities,
       beta=probabilities, variance=st.one_of(st.none(), scalars),
       method=st.sampled_from(stats.DESIGN_METHODS + ("normal",)))
def test_design_any_input(n, epsilon, lower, upper, delta, beta, variance, method):
    eps = call(stats.detectable_violation, n, lower=lower, upper=upper, delta=delta, beta=beta,
               method=method, variance=variance)
    if eps is not None:
        assert not math.isnan(eps) and eps > 0
    m = call(stats.required_samples, epsilon, lower=lower, upper=upper, delta=delta, beta=beta,
             method=method, variance=variance)
    if m is not None:
        assert isinstance(m, int) and m >= 1


@SETTINGS
@given(value=scalars, lower=scalars, upper=scalars, delta=probabilities, epsilon=scalars,
       max_n=st.one_of(st.integers(-1, 300), sizes), batch=sizes,
       growth=scalars, method=st.sampled_from(stats.METHODS), bound_test=st.booleans(),
       rng=st.one_of(st.integers(0, 10), st.sampled_from(["seed", -1, 1.5, None])))
def test_sequential_any_input(value, lower, upper, delta, epsilon, max_n, batch, growth, method,
                              bound_test, rng):
    def draw(n, generator):
        return np.full(n, 0.5 * (lower + upper)) if isinstance(lower, float) else np.zeros(n)

    test = stats.sequential_bound_test if bound_test else stats.sequential_mean_test
    key = "bound" if bound_test else "target"
    res = call(test, draw, lower=lower, upper=upper, delta=delta, epsilon=epsilon,
               max_n=max_n, batch=batch, growth=growth, method=method, rng=rng, **{key: value})
    if res is not None:
        assert res.status in ("PASS", "FAIL", "INCONCLUSIVE")
        assert_interval_sane(res.interval, lower, upper)


@SETTINGS
@given(total=st.one_of(st.none(), probabilities), per_check=probabilities,
       weights=st.one_of(st.none(), st.dictionaries(st.sampled_from(["a", "b", "c"]), scalars)))
def test_delta_split_any_input(total, per_check, weights):
    split = call(stats.DeltaSplit, total=total, per_check=per_check)
    if split is not None:
        alloc = call(split.allocate, ["a", "b"], weights=weights)
        if alloc is not None:
            # family_wise is the union bound, the sum of the deltas (it may exceed 1)
            assert 0 < alloc.family_wise < math.inf
            assert all(0 < d < 1 for d in alloc.deltas.values())


@SETTINGS
@given(n=sizes, s=sizes, p=scalars, q=st.one_of(samples, st.just([0.5, 0.5])), k=sizes)
def test_exact_enumeration_any_input(n, s, p, q, k):
    src = stats.RandomSource(0)
    call(src.uniform_int, n)
    call(src.subset, n, s)
    call(src.bernoulli, p)
    call(stats.IIDDraws, q, k)
    call(stats.UniformSubset, n, s)
    call(stats.TruncatedGeometric, p, k)


@pytest.mark.parametrize("rng", ["abc", 1.5, -1, object()])
def test_random_source_names_rng(rng):
    with pytest.raises(InvalidParameterError, match="`rng`"):
        stats.RandomSource(rng)


@pytest.mark.parametrize("program", [lambda src: src.uniform_int(10 ** 9),
                                     lambda src: src.subset(2 ** 62, 2 ** 61),
                                     lambda src: src.subset(60, 30)])
def test_enumeration_refuses_a_choice_with_too_many_options_before_building_it(program):
    with pytest.raises(InvalidParameterError, match="`max_leaves`"):
        stats.enumerate_outcomes(program, max_leaves=1000)
