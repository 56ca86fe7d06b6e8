"""The two second-moment claim kinds of check_estimator: E‖v‖² (HK12 Lemma 3.3, KS15 Lemma 3.4
with its data-dependent S of eq. (2)) and ‖E[v²]‖∞ (the lasso estimators: HK12 Lemma 3.8 as
used, KS15 Lemma 4.5 with S_inf of eq. (7)); a wrapper of laocheck's estimators inherits them.
The checks are exact (enumeration with Fractions), so they cannot false-FAIL (δ = 0)."""
from fractions import Fraction as F

import numpy as np
import pytest

from laocheck.checks._common import exact_distribution
from laocheck.estimators import Draws
from laocheck.estimators.instances import INSTANCES, params_for
from laocheck.exceptions import InvalidParameterError
from laocheck.testing import CheckFailure, check_estimator, estimator_checks

from .mutants import Wrapper

INFLATE = 32


class Thinned(Wrapper):
    """A slip that keeps the estimate unbiased and the budget, but inflates the second moment
    INFLATE-fold: with probability 1/INFLATE it returns INFLATE·v, else 0 (a user "saving work"
    by skipping draws and reweighting the ones kept)."""

    def reference(self, w, x, y, src):
        v, seen = self.inner.reference(w, x, y, src)
        keep = src.categorical([F(1, INFLATE), 1 - F(1, INFLATE)]) == 0
        scale = INFLATE if keep else 0
        return (v * scale if not isinstance(v, list) else [u * scale for u in v]), seen

    def sample(self, w, x, y, *, n=1, rng=None):
        rng = np.random.default_rng(rng)
        d = self.inner.sample(w, x, y, n=n, rng=rng)
        keep = rng.random(n) < 1 / INFLATE
        scale = np.where(keep, float(INFLATE), 0.0)
        return Draws(d.values * scale.reshape((-1,) + (1,) * (d.values.ndim - 1)), d.attributes)


CASES = [  # (registered estimator, the claim kind its spec states)
    ("HK12.AERR.gradient", "second_moment"),
    ("HK12.AELR.gradient", "second_moment_inf"),
    ("KS15.GAERR.gradient", "second_moment"),
    ("KS15.GAELR.gradient", "second_moment_inf"),
    ("KS15.DDAERR.gradient", "second_moment"),
    ("KS15.DDAELR.gradient", "second_moment_inf"),
]


@pytest.mark.parametrize("name,prop", CASES, ids=[n for n, _ in CASES])
def test_a_wrapper_inherits_its_second_moment_claim_and_passes(name, prop):
    est = Wrapper(name, label="mine", **params_for(name, 4, 2))
    records = check_estimator(est, seed=0, on_fail=None)
    statuses = {r.id[len("mine."):]: r.status for r in records}
    assert statuses[prop] == "PASS" and "PASS" == statuses["unbiased.exact"]
    other = {"second_moment": "second_moment_inf", "second_moment_inf": "second_moment"}[prop]
    assert other not in statuses
    assert 0 < next(r for r in records if r.id == f"mine.{prop}").figures["worst_ratio"] < 1


@pytest.mark.parametrize("name,prop", CASES, ids=[n for n, _ in CASES])
def test_a_mutant_whose_second_moment_exceeds_the_claim_fails(name, prop):
    est = Thinned(name, label="thinned", **params_for(name, 4, 2))
    with pytest.raises(CheckFailure) as info:
        check_estimator(est, seed=0)
    failing = {r.id[len("thinned."):] for r in info.value.records}
    assert failing == {prop}, [(r.id, r.figures) for r in info.value.records]


def test_the_S_formula_reads_the_instance_and_the_sampling_distribution():
    """KS15 Lemma 3.4 with eq. (2) on the d = 4 instances: G² = 4B²(S/k + 1), S = Σ_i x_i²/q_i,
    B = max(‖w‖₂, |y|); the check's worst ratio is the largest E‖g̃‖² / G² over the instances
    it checked (d4 and the boundary instances), each computed here by hand from the
    enumeration."""
    q = [F(1, 8), F(1, 8), F(1, 4), F(1, 2)]
    est = Wrapper("KS15.GAERR.gradient", label="mine", k=2, q=[float(v) for v in q])

    def by_hand(name):
        w, x, y = INSTANCES[name]
        S = sum(xi * xi / qi for xi, qi in zip(x, q))
        B2 = max(sum(v * v for v in w), y * y)
        G2 = 4 * B2 * (S / 2 + 1)
        second = exact_distribution(est, w, x, y).expectation(
            lambda v: sum(c * c for c in v[0]))
        return float(second / G2)

    record = check_estimator(est, seed=0, on_fail=None)
    moment = next(r for r in record if r.id == "mine.second_moment")
    assert "d4" in moment.figures["instances_checked"]
    ratio = moment.figures["worst_ratio"]
    assert ratio == pytest.approx(max(by_hand(i) for i in moment.figures["instances_checked"]),
                                  rel=1e-12)
    # the same claim declared by the user, with q given explicitly
    mine = check_estimator(est, {"unbiased": True, "second_moment": "KS15.Lemma3.4.G2",
                                 "q": [float(v) for v in q]}, seed=0, on_fail=None)
    assert next(r for r in mine if r.id == "mine.second_moment").figures["worst_ratio"] == ratio


def test_the_L1_claim_uses_the_l1_B_and_S_inf():
    """KS15 Lemma 4.5 with eq. (7) on the d = 4 instances (d4 and the boundary instances):
    ‖E[g̃²]‖∞ <= 4B²(S_inf/k + 1), S_inf = max_i x_i²/q_i, B = max(‖w‖₁, |y|)."""
    q = [F(1, 8), F(1, 8), F(1, 4), F(1, 2)]
    est = Wrapper("KS15.GAELR.gradient", label="mine", k=2, q=[float(v) for v in q])

    def by_hand(name):
        w, x, y = INSTANCES[name]
        S_inf = max(xi * xi / qi for xi, qi in zip(x, q))
        B2 = max(sum(abs(v) for v in w), abs(y)) ** 2
        G2 = 4 * B2 * (S_inf / 2 + 1)
        dist = exact_distribution(est, w, x, y)
        return max(dist.expectation(lambda v, i=i: v[0][i] ** 2) for i in range(4)), G2

    records = check_estimator(est, {"second_moment_inf": "KS15.Lemma4.5.G2"}, seed=0,
                              on_fail=None)
    moment = next(r for r in records if r.id == "mine.second_moment_inf")
    checked = moment.figures["instances_checked"]
    assert "d4" in checked
    ratio = moment.figures["worst_ratio"]
    assert ratio == pytest.approx(max(float(lhs / G2) for lhs, G2 in map(by_hand, checked)),
                                  rel=1e-12)
    lhs = max(by_hand(i)[0] for i in checked)
    # a number below the largest exact ‖E[g̃²]‖∞ fails, one above passes
    for bound, status in ((float(lhs) * 0.99, "FAIL"), (float(lhs) * 1.01, "PASS")):
        rec = check_estimator(est, {"second_moment_inf": bound}, seed=0, on_fail=None)
        assert next(r for r in rec if r.id == "mine.second_moment_inf").status == status


def test_claims_of_the_wrong_kind_are_refused_naming_them():
    est = Wrapper("KS15.GAELR.gradient", label="mine", k=2, q=[0.125, 0.125, 0.25, 0.5])
    with pytest.raises(InvalidParameterError,
                       match=r"second_moment_inf.*needs \['S'\].*belongs to claim 'second_moment'"):
        estimator_checks(est, {"second_moment_inf": "KS15.Lemma3.4.G2"})
    with pytest.raises(InvalidParameterError, match=r"`claims\['q'\]` must be a probability"):
        estimator_checks(est, {"second_moment": "KS15.Lemma3.4.G2", "q": [0.5, 0.1]})
    assert [c.id for c in estimator_checks(est, {"second_moment_inf": 1.0})] == [
        "mine.unbiased.exact", "mine.unbiased.monte_carlo",      # unbiased by default
        "mine.budget", "mine.kernel_matches_reference", "mine.second_moment_inf"]
