"""Hypothesis property tests of the for-all statements, in exact arithmetic (Fractions).

Deterministic (``derandomize=True``); ``target()`` steers towards the worst ratio lhs/rhs, and
the assertions are the statements themselves (a counterexample would be shrunk and printed).
"""
from fractions import Fraction as F

from hypothesis import HealthCheck, given, settings, target
from hypothesis import strategies as st

from laocheck import estimators
from laocheck.checks._common import exact_distribution

SETTINGS = settings(derandomize=True, max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
dyadic = st.integers(-16, 16).map(lambda n: F(n, 16))
weights = st.integers(1, 8)


def discrete_distributions(max_atoms=4):
    """(values, probabilities) with dyadic values in [−4, 4] and rational probabilities."""
    return st.lists(st.tuples(st.integers(-64, 64).map(lambda n: F(n, 16)), weights),
                    min_size=1, max_size=max_atoms).map(
        lambda atoms: ([v for v, _ in atoms],
                       [F(w, sum(w for _, w in atoms)) for _, w in atoms]))


@SETTINGS
@given(discrete_distributions(), st.integers(1, 64).map(lambda n: F(n, 8)))
def test_hk12_lemma_a2_clipping(dist, slack):
    """HK12 Lemma A.2 / KS15 Lemma B.8: |E clip(X, C) − E X| <= 2 Var X / C, |E X| <= C/2."""
    values, probs = dist
    mean = sum(p * v for p, v in zip(probs, values))
    C = 2 * abs(mean) + slack
    var = sum(p * (v - mean) ** 2 for p, v in zip(probs, values))
    gap = abs(sum(p * (v - max(min(v, C), -C)) for p, v in zip(probs, values)))
    if var:
        target(float(gap * C / (2 * var)), label="lhs/rhs")
    assert gap * C <= 2 * var


@SETTINGS
@given(st.lists(dyadic, min_size=1, max_size=4), st.integers(1, 3))
def test_hk12_eq9_corrected_and_lemma7(x, k):
    """HK12 eq. (9) corrected: E‖x̃‖² = (d + k − 1)/k·‖x‖², and E[x̃] = x (unbiasedness)."""
    d = len(x)
    est = estimators.get("HK12.AERR.data_point", k=k)
    dist = exact_distribution(est, [F(1)] * d, x, F(0))
    assert dist.expectation(lambda v: sum(c * c for c in v[0])) == F(d + k - 1, k) * sum(
        v * v for v in x)
    assert [dist.expectation(lambda v, i=i: v[0][i]) for i in range(d)] == list(x)


@SETTINGS
@given(st.lists(dyadic, min_size=2, max_size=4), st.sampled_from([2, 4]))
def test_cb11_lemma8_corrected_expectation(x, k):
    """CB11 Fig. 1: E[A_t] = d/(d−1)(x xᵀ − diag(x²)) for every x (k even, k <= d)."""
    d = len(x)
    if k > d:
        k = 2
    est = estimators.get("CB11.Baseline.loss", k=k)
    dist = exact_distribution(est, [F(0)] * d, x, F(0))
    for i in range(d):
        for j in range(d):
            expected = 0 if i == j else F(d, d - 1) * x[i] * x[j]
            assert dist.expectation(lambda v, i=i, j=j: v[0][i][j]) == expected


@SETTINGS
@given(*[st.integers(1, 100).map(lambda n: F(n, 10)) for _ in range(4)],
       st.integers(1, 100).map(lambda n: F(n, 100)))
def test_ks15_lemma_b4(r, B, G1, G2, frac):
    """KS15 Lemma B.4, exactly: A = B r² makes η_i = √(A/B)/G_i = r/G_i rational."""
    A = B * r * r
    G = frac * min(G1, G2)                  # G <= min(G1, G2)

    def f(eta):
        return A / eta + eta * B * G * G
    eta1, eta2 = r / G1, r / G2
    lhs, rhs = f(max(eta1, eta2)), min(f(eta1), f(eta2))
    target(float(lhs / rhs), label="lhs/rhs")
    assert lhs <= rhs
