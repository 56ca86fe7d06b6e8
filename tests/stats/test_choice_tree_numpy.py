"""The choice tree's Generator against numpy's own draws: for every modelled method and
argument combination (hypothesis generates them), the enumerated distribution of the output
must contain every output numpy produces and match numpy's frequencies.

The statistical test, derived: on N draws of numpy, the count c_o of each enumerated outcome o
is Binomial(N, p_o) when the enumeration is right. Each count is tested with scipy's exact
two-sided binomial test at level δ_e / K (K outcomes), so by the union bound one example
fails falsely with probability <= δ_e; with δ_e = δ / MAX_EXAMPLES and δ = 1e-6 a whole test
fails falsely with probability <= 1e-6 (over the seeds; the seeds are fixed, so it never
flakes). An outcome numpy produces that the enumeration gives probability 0 fails at once.
"""

from collections import Counter
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binomtest

from laocheck.stats.choice_tree import DrivenGenerator, NotEnumerable, enumerate_sampler
from laocheck.stats.exact import enumerate_outcomes

DELTA = 1e-6
MAX_EXAMPLES = 25
DELTA_EXAMPLE = DELTA / MAX_EXAMPLES
N_DRAWS = 20_000


def key(out):
    """A hashable image of an output that keeps its type, dtype and shape."""
    if isinstance(out, np.ndarray):
        return ("ndarray", out.dtype.str, out.shape, tuple(out.ravel().tolist()))
    if isinstance(out, list):
        return ("list", tuple(out))
    if isinstance(out, tuple):
        return ("tuple", tuple(key(v) for v in out))
    return (type(out).__name__, out)


def enumerated(call):
    """{key of call(rng): exact probability} over every path of a driven rng."""
    dist = enumerate_outcomes(lambda src: key(call(DrivenGenerator(src))), max_leaves=5_000)
    assert dist.residual_mass == 0 and dist.total_mass == 1
    return dist.as_dict()


def numpy_counts(call, seed, n=N_DRAWS):
    rng = np.random.default_rng(seed)
    return Counter(key(call(rng)) for _ in range(n))


def disagreement(exact, counts, delta=DELTA_EXAMPLE):
    """'' when numpy's counts are consistent with ``exact`` at level delta, else why not."""
    outside = [o for o in counts if o not in exact]
    if outside:
        return f"numpy produced outcomes the enumeration lacks: {outside[:3]}"
    n = sum(counts.values())
    level = delta / len(exact)
    for outcome, p in exact.items():
        test = binomtest(counts.get(outcome, 0), n, float(p))
        if test.pvalue < level:
            return (f"{outcome}: {counts.get(outcome, 0)} of {n} draws, enumerated p = {p} "
                    f"(p-value {test.pvalue:.3g} < {level:.3g})")
    return ""


def agrees(call, seed=0):
    exact = enumerated(call)
    why = disagreement(exact, numpy_counts(call, seed))
    assert not why, why


SETTINGS = settings(max_examples=MAX_EXAMPLES, deadline=None, derandomize=True)
sizes = st.sampled_from([None, (), 1, 2, (2, 1), (1, 2)])


def _count(size):
    return 1 if size is None else int(np.prod(size))


# -- one test per modelled method -------------------------------------------------------------
@SETTINGS
@given(low=st.integers(-3, 3), span=st.integers(1, 4), endpoint=st.booleans(),
       dtype=st.sampled_from([np.int64, np.int8, np.uint16, "i4"]), high_none=st.booleans(),
       size=sizes)
def test_integers_matches_numpy(low, span, endpoint, dtype, high_none, size):
    if high_none:
        low = 0
    if np.dtype(dtype).kind == "u" and low < 0:
        low = 0
    high = low + span - (1 if endpoint else 0)
    if high_none:
        agrees(lambda rng: rng.integers(high, size=size, dtype=dtype, endpoint=endpoint))
    else:
        agrees(lambda rng: rng.integers(low, high, size=size, dtype=dtype, endpoint=endpoint))


@SETTINGS
@given(data=st.data(), n=st.integers(1, 5), form=st.sampled_from(["int", "1d", "2d"]),
       replace=st.booleans(), shuffle=st.booleans(), with_p=st.booleans(), size=sizes)
def test_choice_matches_numpy(data, n, form, replace, shuffle, with_p, size):
    if not replace and _count(size) > n:
        size = None
    axis = 0
    if form == "int":
        a = n
    elif form == "1d":
        a = np.arange(n) * 0.5 - 1
    else:
        axis = data.draw(st.sampled_from([0, 1, -1]), label="axis")
        a = np.arange(2 * n).reshape((2, n) if axis else (n, 2))
    p = None
    if with_p:
        ks = data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n).filter(
            lambda ks: sum(k > 0 for k in ks) >= (_count(size) if not replace else 1)),
            label="weights")
        p = np.array(ks, dtype=float) / sum(ks)
    agrees(lambda rng: rng.choice(a, size=size, replace=replace, p=p, axis=axis,
                                  shuffle=shuffle))


@SETTINGS
@given(n=st.integers(0, 4), form=st.sampled_from(["int", "list", "1d", "2d"]),
       axis=st.sampled_from([0, 1, -1]))
def test_permutation_matches_numpy(n, form, axis):
    if form == "int":
        agrees(lambda rng: rng.permutation(n))
    elif form == "list":
        agrees(lambda rng: rng.permutation(list(range(n))))
    elif form == "1d":
        agrees(lambda rng: rng.permutation(np.arange(n) + 0.25))
    else:
        base = np.arange(3 * max(n, 1)).reshape(3, max(n, 1))
        agrees(lambda rng: rng.permutation(base, axis=axis))


@SETTINGS
@given(n=st.integers(0, 4), form=st.sampled_from(["list", "1d", "2d", "3d", "object"]),
       axis=st.sampled_from([0, 1, -1]))
def test_shuffle_matches_numpy(n, form, axis):
    if form == "list":
        make, axis = (lambda: list(range(n))), 0
    elif form == "1d":
        make, axis = (lambda: np.arange(n)), 0
    elif form == "object":
        make, axis = (lambda: np.array([F(i, 2) for i in range(n)] or [F(0)], dtype=object)), 0
    elif form == "2d":
        make = (lambda: np.arange(2 * max(n, 1)).reshape(2, max(n, 1)))
    else:
        make = (lambda: np.arange(2 * 3 * max(n, 1)).reshape(2, 3, max(n, 1)))

    def call(rng):
        x = make()
        rng.shuffle(x, axis=axis)
        return x
    agrees(call)


@SETTINGS
@given(n=st.integers(0, 6), p=st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0, F(1, 3)]),
       size=st.sampled_from([None, 2, (1, 2)]))
def test_binomial_matches_numpy(n, p, size):
    agrees(lambda rng: rng.binomial(n, p, size=size))


@SETTINGS
@given(c=st.lists(st.sampled_from([0.0, 0.125, 0.25, 0.5, 0.75, 1.0]), min_size=1,
                  max_size=3),
       size=st.sampled_from([None, 2]))
def test_random_compared_with_numbers_matches_numpy(c, size):
    def call(rng):
        u = rng.random(size)
        if size is None:
            return tuple(bool(u < t) for t in c)
        return tuple(bool(v < t) for v in u for t in c)
    agrees(call)


# -- the test has power: the models the choice tree used to have are rejected -------------------
def test_shuffle_false_order_is_numpys_floyd_order_not_uniform():
    """numpy's choice(3, 2, replace=False, shuffle=False) never starts with 2 and returns
    (0, 2) with probability 1/3: Floyd's algorithm step by step, worked out by hand."""
    exact = enumerated(lambda rng: tuple(rng.choice(3, 2, replace=False, shuffle=False)
                                         .tolist()))
    by_hand = {(0, 1): F(1, 6), (1, 0): F(1, 6), (0, 2): F(1, 3), (1, 2): F(1, 3)}
    assert exact == {("tuple", tuple(("int", v) for v in k)): p for k, p in by_hand.items()}
    uniform = {("tuple", (("int", a), ("int", b))): F(1, 6)
               for a in range(3) for b in range(3) if a != b}
    counts = numpy_counts(lambda rng: tuple(rng.choice(3, 2, replace=False, shuffle=False)
                                            .tolist()), seed=1)
    assert disagreement(uniform, counts)          # the old, uniform model is rejected
    assert not disagreement(exact, counts)


def test_axis_ignored_would_be_rejected():
    """Shuffling rows instead of columns (axis ignored) is told apart from numpy's draws."""
    base = np.arange(6).reshape(2, 3)

    def wrong(rng):
        x = base.copy()
        rng.shuffle(x)        # axis 0: what the old model did for axis=1
        return x

    def right(rng):
        x = base.copy()
        rng.shuffle(x, axis=1)
        return x
    assert disagreement(enumerated(wrong), numpy_counts(right, seed=2))
    agrees(right, seed=2)


# -- numpy's errors, and refusals instead of wrong models --------------------------------------
@pytest.mark.parametrize("call", [
    lambda rng: rng.choice(0),
    lambda rng: rng.choice(2.5),
    lambda rng: rng.choice(3, 4, replace=False),
    lambda rng: rng.choice(3, p=[0.5, 0.5]),
    lambda rng: rng.choice(3, p=[0.5, 0.6, -0.1]),
    lambda rng: rng.choice(2, 2, replace=False, p=[1.0, 0.0]),
    lambda rng: rng.integers(3, 3),
    lambda rng: rng.integers(-1, 3, dtype=np.uint8),
    lambda rng: rng.integers(2, size=-1),
    lambda rng: rng.shuffle([1, 2, 3], axis=1),
    lambda rng: rng.shuffle(np.arange(3), axis=1),
    lambda rng: rng.permutation(np.arange(3), axis=2),
    lambda rng: rng.binomial(-1, 0.5),
    lambda rng: rng.binomial(3, 1.5),
])
def test_numpys_errors_are_numpys(call):
    with pytest.raises(Exception) as numpy_error:
        call(np.random.default_rng(0))
    with pytest.raises(type(numpy_error.value)):
        enumerate_outcomes(lambda src: call(DrivenGenerator(src)))


@pytest.mark.parametrize("call, reason", [
    (lambda rng: rng.integers(10 ** 9), "outcomes per draw"),
    (lambda rng: rng.choice(10 ** 9), "outcomes per draw"),
    (lambda rng: rng.choice(10 ** 9, 3, replace=False), "outcomes per draw"),
    (lambda rng: rng.permutation(10 ** 9), "draws on one path"),
    (lambda rng: rng.binomial(200_000, 0.5), "outcomes per draw"),
    (lambda rng: rng.binomial(2_000, 0.3), "bits"),
    (lambda rng: rng.integers(2, size=10 ** 9), "draws on one path"),
    (lambda rng: rng.random(10 ** 9), "draws on one path"),
    (lambda rng: rng.random(dtype=np.float32), "float32"),
    (lambda rng: rng.integers([1, 2]), "array bounds"),
    (lambda rng: rng.integers(2.5), "not an integer"),
    (lambda rng: rng.binomial(2.5, 0.5), "not an integer"),
    (lambda rng: rng.normal(), "cannot enumerate"),
    (lambda rng: float(rng.random()), "used as a number"),
])
def test_what_is_not_modelled_is_refused_before_allocating(call, reason):
    with pytest.raises(NotEnumerable, match=reason):
        enumerate_outcomes(lambda src: call(DrivenGenerator(src)))


def test_a_refusal_the_sampler_catches_is_still_a_refusal():
    def sample(w, x, y, n=1, rng=None):
        try:
            z = rng.normal()
        except Exception:     # a user's broad except must not make normal() look like 0
            z = 0.0
        return np.array([[z * x[0]]])
    with pytest.raises(NotEnumerable, match="normal"):
        enumerate_sampler(sample, [F(1)], [F(1)], F(0))
