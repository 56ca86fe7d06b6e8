"""The Cython kernels draw from the same distribution as the literal reference versions.

Finite-support estimates: the exact distribution of (value, attributes observed) of the
reference version is enumerated; every kernel draw must be one of its outcomes (up to rounding,
1e-9 relative), and the outcome counts of N kernel draws must pass an exact multinomial test
(Clopper-Pearson per outcome, Bonferroni) at false-failure probability δ = 1e-6 per test.

GenEst and AESVR (unbounded number of factors): a two-sample Kolmogorov-Smirnov test with the
DKW bound on the values and a two-sample test on the attribute counts, kernel against the
reference sampled with its own Generator, each at δ = 1e-6.
"""
import zlib

import numpy as np
import pytest

from laocheck import estimators
from laocheck.stats import multinomial_test, two_sample_ks_test, two_sample_test
from laocheck.stats.exact import enumerate_outcomes
from laocheck.estimators.instances import INSTANCES, as_float, cases, params_for

DELTA = 1e-6
N = 40_000
FINITE = [n for n in estimators.names() if not n.startswith(("HK12.GenEst", "HK12.AESVR"))]


def outcome_distribution(est, w, x, y):
    """{(value tuple, attributes): exact probability} of the reference version."""
    def program(src):
        value, seen = est.reference(w, x, y, src)
        return tuple(float(v) for v in np.ravel(np.asarray(value, dtype=object))), len(seen)
    return enumerate_outcomes(program).as_dict()


def match_outcomes(values, attributes, outcomes):
    """Category index of each kernel draw in ``outcomes``; fails on an impossible draw."""
    keys = list(outcomes)
    support = np.array(sorted({v for v, _ in keys}))
    index = {key: i for i, key in enumerate(keys)}
    flat = values.reshape(values.shape[0], -1)
    rounded, inverse = np.unique(np.round(flat, 9), axis=0, return_inverse=True)
    categories = np.empty(flat.shape[0], dtype=np.int64)
    for u, row in enumerate(rounded):
        members = np.flatnonzero(inverse.ravel() == u)
        dist = np.max(np.abs(support - flat[members[0]]), axis=1)
        s = int(np.argmin(dist))
        scale = 1 + np.max(np.abs(support[s]))
        assert dist[s] <= 1e-9 * scale, f"kernel value {flat[members[0]]} is not an outcome of the reference"
        for a in np.unique(attributes[members]):
            key = (tuple(support[s]), int(a))
            assert key in index, f"kernel outcome {key} has probability 0 under the reference"
            categories[members[attributes[members] == a]] = index[key]
    return categories, np.array([float(outcomes[k]) for k in keys])


@pytest.mark.parametrize("name,inst,k", cases(FINITE, instances=("d3", "d4", "w0")))
def test_kernel_matches_exact_reference_distribution(name, inst, k):
    w, x, y = INSTANCES[inst]
    est = estimators.get(name, **params_for(name, len(x), k))
    outcomes = outcome_distribution(est, w, x, y)
    wf, xf, yf = as_float(INSTANCES[inst])
    seed = zlib.crc32(f"{name}/{inst}/{k}".encode())     # fixed per test, not per process
    draws = est.sample(wf, xf, yf, n=N, rng=np.random.SeedSequence([seed, 7]))
    categories, probs = match_outcomes(draws.values, draws.attributes, outcomes)
    result = multinomial_test(np.bincount(categories, minlength=len(probs)), probs, delta=DELTA)
    assert result.passed, result


def test_kernel_matches_reference_for_cb11_text_reading():
    w, x, y = INSTANCES["d4"]
    est = estimators.get("CB11.AER.gradient", k=4, reading="text")
    outcomes = outcome_distribution(est, w, x, y)
    draws = est.sample(*as_float(INSTANCES["d4"]), n=N, rng=2024)
    categories, probs = match_outcomes(draws.values, draws.attributes, outcomes)
    assert multinomial_test(np.bincount(categories, minlength=len(probs)), probs,
                            delta=DELTA).passed


def test_cb11_text_reading_scan_fallback_is_exact():
    """Successive sampling with one heavy weight forces the kernel's O(d) fallback (after 64
    rejections from the alias table); the result must still match the exact distribution."""
    from fractions import Fraction as F
    w = [F(1) - F(3, 2 ** 20), F(1, 2 ** 20), F(1, 2 ** 20), F(1, 2 ** 20)]
    x = [F(1, 2), F(-1, 2), F(1, 4), F(3, 4)]
    y = F(0)
    est = estimators.get("CB11.AER.residual", k=4, reading="text")
    outcomes = outcome_distribution(est, w, x, y)
    draws = est.sample(np.array([float(v) for v in w]), np.array([float(v) for v in x]), 0.0,
                       n=N, rng=99)
    categories, probs = match_outcomes(draws.values, draws.attributes, outcomes)
    assert multinomial_test(np.bincount(categories, minlength=len(probs)), probs,
                            delta=DELTA).passed


@pytest.mark.parametrize("name,params", [
    ("HK12.GenEst.derivative", dict(coefficients=[1.0, 0.5, -0.125, 0.0625], B=0.7)),
    ("HK12.GenEst.derivative", dict(coefficients=[0.0, 1.0, 0.0, -1 / 3, 0.0, 2 / 15], B=1.0)),
    ("HK12.AESVR.residual", dict(B=1.0, eps=0.5, delta=0.1)),
    ("HK12.AESVR.gradient", dict(B=1.0, eps=0.5, delta=0.1, k=2)),
])
@pytest.mark.parametrize("inst", ["d3", "d4", "w0"])
def test_genest_kernel_matches_reference_in_distribution(name, params, inst):
    est = estimators.get(name, **params)
    w, x, y = as_float(INSTANCES[inst])
    n = 20_000
    kernel = est.sample(w, x, y, n=n, rng=31)
    reference = est.sample_reference(w, x, y, n=n, rng=32)
    values_k = kernel.values.reshape(n, -1)
    values_r = reference.values.reshape(n, -1)
    # Bonferroni over the coordinates compared and the attribute test
    m = values_k.shape[1] + 1
    for j in range(values_k.shape[1]):
        result = two_sample_ks_test(values_k[:, j], values_r[:, j], delta=DELTA / m)
        assert result.passed, (j, result)
    top = int(max(kernel.attributes.max(), reference.attributes.max())) + 1
    counts = two_sample_test(np.bincount(kernel.attributes, minlength=top),
                             np.bincount(reference.attributes, minlength=top), delta=DELTA / m)
    assert counts.passed, counts


@pytest.mark.parametrize("kernel,reference", [
    # p ∝ |w| instead of p ∝ w²: values outside the reference's support
    (("HK12.AELR.residual", {}), ("HK12.AERR.residual", {})),
    # q ∝ E[x²] instead of √E[x²]
    (("KS15.DDAELR.data_point", {"k": 2}), ("KS15.DDAERR.data_point", {"k": 2})),
    # without- instead of with-replacement: every draw is a possible outcome, only the
    # probabilities differ, so the multinomial test itself must refute it
    (("CB11.AER.residual", {"k": 4, "reading": "text"}), ("CB11.AER.residual", {"k": 4})),
])
def test_agreement_check_detects_a_different_sampler(kernel, reference):
    """Power: the same procedure refutes a kernel that samples from another distribution."""
    w, x, y = INSTANCES["d4"]
    moments = params_for("KS15.DDAERR.data_point", 4, 2)["second_moments"]
    extra = lambda name: {"second_moments": moments} if "DD" in name else {}
    ref_est = estimators.get(reference[0], **reference[1], **extra(reference[0]))
    ker_est = estimators.get(kernel[0], **kernel[1], **extra(kernel[0]))
    outcomes = outcome_distribution(ref_est, w, x, y)
    draws = ker_est.sample(*as_float(INSTANCES["d4"]), n=N, rng=5)
    try:
        categories, probs = match_outcomes(draws.values, draws.attributes, outcomes)
    except AssertionError:
        assert kernel[1].get("reading") != "text"   # that case must reach the multinomial test
        return                                      # an impossible outcome: refuted outright
    result = multinomial_test(np.bincount(categories, minlength=len(probs)), probs, delta=DELTA)
    assert not result.passed
