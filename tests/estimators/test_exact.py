"""Exact expectations of the literal reference versions, by enumerating every sampling outcome.

For every estimator and small instance (d <= 4, k <= 3; CB11's even k <= 4) the reference
version is run once per outcome of its random choices (``laocheck.stats.exact``), each outcome
weighted by its exact probability as a ``fractions.Fraction``. The exact expectation is then
compared, with ``==`` on Fractions, against the target computed here independently.

Estimates that are biased as printed are kept literal, and their exact bias is asserted here:
* CB11 Fig. 1 (Baseline): E[A_t] has a zero diagonal and off-diagonal d/(d−1)·x_i x_j, not
  x xᵀ as CB11 Lemma 8's proof states;
* CB11 eq. (7) read as in the text ("without replacement according to P"): ŷ is biased.
"""
from fractions import Fraction as F

import numpy as np
import pytest

from laocheck import estimators
from laocheck.stats.exact import enumerate_outcomes
from laocheck.estimators.instances import INSTANCES, cases, params_for

UNBIASED = [n for n in estimators.names()
            if not n.startswith(("CB11.Baseline", "HK12.GenEst", "HK12.AESVR"))
            and not n.endswith("clipped_gradient")]


def exact_target(name, w, x, y):
    """What the estimate claims to estimate, in exact arithmetic (written from the papers)."""
    part = name.rsplit(".", 1)[1]
    residual = sum(wi * xi for wi, xi in zip(w, x)) - y
    if part == "data_point":
        return list(x)
    if part == "residual":
        return residual
    factor = 2 if name.startswith("CB11.AER") else 1        # CB11's loss has no factor ½
    return [factor * residual * xi for xi in x]


def distribution(est, w, x, y, **kw):
    return enumerate_outcomes(lambda src: est.reference(w, x, y, src), **kw)


def as_list(value):
    arr = np.asarray(value, dtype=object)
    return arr.tolist() if arr.ndim else arr.item()


@pytest.mark.parametrize("name,inst,k", cases(UNBIASED, instances=("d3", "d4", "w0", "d6")))
def test_reference_is_exactly_unbiased(name, inst, k):
    w, x, y = INSTANCES[inst]
    est = estimators.get(name, **params_for(name, len(x), k))
    dist = distribution(est, w, x, y)
    assert dist.residual_mass == 0
    assert dist.total_mass == 1
    mean = as_list(dist.expectation(lambda v: v[0]))
    assert mean == exact_target(name, w, x, y)
    # every value is an exact Fraction: nothing was silently computed in floating point
    assert all(isinstance(v, (F, int)) for v in np.ravel(np.asarray(mean, dtype=object)))


@pytest.mark.parametrize("name,inst,k", cases(UNBIASED) + cases([
    "CB11.Baseline.loss", "HK12.AELR.clipped_gradient", "KS15.GAELR.clipped_gradient"]))
def test_reference_attribute_counts_within_budget(name, inst, k):
    w, x, y = INSTANCES[inst]
    est = estimators.get(name, **params_for(name, len(x), k))
    counts = distribution(est, w, x, y).distribution_of(lambda v: len(v[1]))
    assert est.budget_kind == "max"
    assert max(c for _, c in counts) <= est.budget


@pytest.mark.parametrize("name", ["HK12.AELR.clipped_gradient", "KS15.GAELR.clipped_gradient",
                                  "KS15.DDAELR.clipped_gradient"])
@pytest.mark.parametrize("inst", ["d3", "d4"])
def test_clipping_inactive_is_unbiased_and_active_clips(name, inst):
    """HK12 Alg. 2 line 13: ḡ = clip(g̃, 1/η); with 1/η above every |g̃_i| nothing changes."""
    w, x, y = INSTANCES[inst]
    params = params_for(name, len(x), 2)
    loose = estimators.get(name, **{**params, "eta": 1e-6})
    dist = distribution(loose, w, x, y)
    assert as_list(dist.expectation(lambda v: v[0])) == exact_target(name, w, x, y)
    tight = estimators.get(name, **{**params, "eta": 4.0})      # clip at 1/4
    values = [np.asarray(v[0], dtype=object) for _, v in distribution(tight, w, x, y)]
    assert max(abs(c) for v in values for c in v) <= F(1, 4)
    assert any(abs(c) == F(1, 4) for v in values for c in v)


@pytest.mark.parametrize("inst,k", [("d3", 2), ("d4", 2), ("d4", 4)])
def test_baseline_literal_expectation_has_zero_diagonal(inst, k):
    """CB11 Fig. 1 as printed: E[A_t]_{ij} = d/(d−1)·x_i x_j for i ≠ j and 0 on the diagonal.

    Derivation: i ≠ j land in C together w.p. k(k−1)/(d(d−1)) and then in different halves w.p.
    (k/2)/(k−1); each such outcome adds 2(d/k)² x_i x_j to A_ij. I and J are disjoint, so the
    diagonal is never written. CB11 Lemma 8's proof claims E[A_t] = x_t x_tᵀ: an erratum.
    E[2 y v] = 2 y x holds (CB11 Lemma 9).
    """
    w, x, y = INSTANCES[inst]
    d = len(x)
    est = estimators.get("CB11.Baseline.loss", k=k)
    dist = distribution(est, w, x, y)
    mean = np.asarray(dist.expectation(lambda v: v[0]), dtype=object)
    for i in range(d):
        for j in range(d):
            expected = 0 if i == j else F(d, d - 1) * x[i] * x[j]
            assert mean[i, j] == expected
        assert mean[d, i] == 2 * y * x[i]
    assert dist.distribution_of(lambda v: len(v[1])).as_dict() == {k: 1}


def test_aer_text_reading_is_biased_and_figure_reading_is_not():
    """CB11 eq. (7) "without replacement according to P" makes ŷ biased (CB11 Lemma 11 fails
    for that reading); Fig. 2's independent draws are exactly unbiased."""
    w, x, y = INSTANCES["d4"]
    exact = sum(wi * xi for wi, xi in zip(w, x)) - y
    text = estimators.get("CB11.AER.residual", k=4, reading="text")
    figure = estimators.get("CB11.AER.residual", k=4)
    assert distribution(figure, w, x, y).expectation(lambda v: v[0]) == exact
    bias = distribution(text, w, x, y).expectation(lambda v: v[0]) - exact
    assert bias != 0
    # successive sampling: both draws are distinct
    assert all(len(v[1]) == 2 for _, v in distribution(text, w, x, y))


@pytest.mark.parametrize("inst", ["d3", "w0"])
@pytest.mark.parametrize("B", [0.5, 0.7, 1.0])
def test_genest_exact_expectation_per_order(inst, B):
    """HK12 Procedure 3: E[φ̂ | n] P(n) = a_n θ^n for every order n, so the expectation over the
    orders n < depth is exactly Σ_{n<depth} a_n θ^n, whichever branch (N = ⌈4B²⌉ draws per
    factor once n > 2 log₂ N) an order takes. The cubic f′ has a_n = 0 for n >= 4."""
    w, x, y = INSTANCES[inst]
    coefficients = [F(1), F(1, 2), F(-1, 8), F(1, 16)]
    est = estimators.get("HK12.GenEst.derivative", coefficients=[float(c) for c in coefficients],
                         B=B)
    depth = 5
    dist = distribution(est, w, x, y, max_depth=depth)
    assert dist.residual_mass == F(1, 2 ** depth)
    theta = sum(wi * xi for wi, xi in zip(w, x)) - y
    assert dist.expectation(lambda v: v[0]) == sum(a * theta ** n for n, a in enumerate(coefficients))
    # the attributes it reads among the explored orders: E[count; n < depth] <= 3 (Lemma 4.1)
    attrs = dist.expectation(lambda v: len(v[1]))
    assert attrs <= 3


@pytest.mark.parametrize("part", ["residual", "gradient"])
def test_aesvr_expectation_matches_truncated_series(part):
    """HK12 Alg. 4: E[φ̃ | order n] is ½ a_n [((z−δ)/ε)^n + ((z+δ)/ε)^n]; summed over the
    explored orders it is the series of f_ε′ truncated there (coefficients of eq. (7), which are
    irrational, so this comparison is in floating point)."""
    w, x, y = INSTANCES["d3"]
    eps, delta, depth = 0.5, 0.1, 5     # B = 1: N = 4, orders <= 4 read one attribute per factor
    params = dict(B=1.0, eps=eps, delta=delta, **({"k": 2} if part == "gradient" else {}))
    est = estimators.get(f"HK12.AESVR.{part}", **params)
    # two GenEst calls: each explores its own orders below `depth`
    dist = distribution(est, w, x, y, max_depth=depth)
    z = float(sum(wi * xi for wi, xi in zip(w, x)) - y)
    a = estimators.aesvr_coefficients()
    series = [sum(a[n] * u ** n for n in range(depth)) for u in ((z - delta) / eps, (z + delta) / eps)]
    explored = 1 - 2.0 ** -depth               # P(the other call's order < depth)
    expected = 0.5 * (series[0] + series[1]) * explored
    mean = np.asarray(dist.expectation(lambda v: v[0]), dtype=float)
    target = expected if part == "residual" else expected * np.array([float(v) for v in x])
    np.testing.assert_allclose(mean, target, rtol=1e-12, atol=1e-15)


def test_aesvr_coefficients_are_erf_taylor_and_reject_bad_lengths():
    """HK12 eq. (7): a_{2n+1} = 2(−1)^n/(√π n!(2n+1)) are the Taylor coefficients of erf (checked
    against scipy.special.erf, not against the formula), truncated where n! leaves the doubles;
    a length outside [1, 341] is a clear error, not numpy's or math's."""
    from scipy.special import erf

    a = estimators.aesvr_coefficients()
    u = np.linspace(-1, 1, 9)
    np.testing.assert_allclose(sum(a[n] * u ** n for n in range(len(a))), erf(u), rtol=1e-14,
                               atol=1e-15)
    np.testing.assert_array_equal(estimators.aesvr_coefficients(7), a[:7])
    np.testing.assert_array_equal(estimators.aesvr_coefficients(341), a)
    for bad in (0, -1, 342, 2.5, True):
        with pytest.raises(ValueError, match=r"`n_terms` must be None or an integer in \[1, 341\]"):
            estimators.aesvr_coefficients(bad)
