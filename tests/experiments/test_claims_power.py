"""The papers' claims are decided with the power the budgets state, and never wrongly.

Simulated paired runs go through :func:`laocheck.experiments.papers.claim_better` (the
decision the reports use). Power: at the budgets' run counts and check points, an effect of the
size stated as detectable (P(ratio of errors > margin) = ``detectable`` in each run, at each
check point, prefixes correlated within a run) is decided HOLDS in at least 90% of simulated
experiments. Validity: in the least favourable case (the median ratio exactly at the margin at
one check point, the others clearly for the claim; heavy-tailed, skewed and diverging runs), a
wrong HOLDS or a wrong DOES NOT HOLD has probability at most δ = 1e-6.

Each assertion is an exact Clopper-Pearson test on the simulated counts at level 1e-6: it fails
only if the counts refute the stated probability, so the false-failure probability of each
test is at most 1e-6 if the procedure does what it states (and the seed is fixed)."""

import numpy as np
import pytest
from scipy import stats

from laocheck.exceptions import InvalidParameterError
from laocheck.experiments import papers
from laocheck.effort import get_profile
from laocheck.experiments.papers import (CONSIDERABLE, DOES_NOT_HOLD, HOLDS,
                                         INCONCLUSIVE, POWER,
                                         Curve, claim_better)
from laocheck.stats import clopper_pearson, sign_test_detectable

DELTA = 1e-6          # of the claims
TEST_DELTA = 1e-6     # of these tests


def _curve(name, per_run):
    P = per_run.shape[1]
    return Curve(algorithm=name, learner="x", citation="", examples=tuple(range(1, P + 1)),
                 attributes=(0.0,) * P, mean=(0.0,) * P, sd=(0.0,) * P, low=(0.0,) * P,
                 high=(1.0,) * P, delta=DELTA, classification=None,
                 per_run=tuple(map(tuple, per_run)), tuned=())


def _decide(D, margin):
    """claim_better on errors whose log ratio (worse / better) is D (runs × prefixes)."""
    better = np.full(D.shape, 0.5)                      # any positive scale: a ratio test
    with np.errstate(over="ignore"):                    # Cauchy tails: an infinite error
        worse = better * np.exp(D)
    return claim_better((_curve("A", better), _curve("B", worse)), "A", "B", claim="c",
                        citation="t", source="s", stand_in=False, delta=DELTA,
                        margin=margin).status


def _at_least(count, n, p):
    """The counts do not refute P(event) >= p at level TEST_DELTA (one-sided)."""
    _, high = clopper_pearson(count, n, 2 * TEST_DELTA)
    return float(high) >= p


def _at_most(count, n, p):
    low, _ = clopper_pearson(count, n, 2 * TEST_DELTA)
    return float(low) <= p


@pytest.mark.parametrize("effort", ["fast", "full"])
@pytest.mark.parametrize("margin", [1.0, CONSIDERABLE])
def test_the_stated_detectable_effect_is_decided_with_the_stated_power(effort, margin):
    R, P = get_profile(effort).runs, len(get_profile(effort).prefixes)
    q = sign_test_detectable(R, delta=DELTA, points=P, beta=1 - POWER)
    assert 0.5 < q < 1
    # D = log margin + mu + noise, noise N(0, 1) shared half by the run's prefixes, so that
    # P(D > log margin) = Phi(mu) = q at each prefix
    mu = stats.norm.ppf(q)
    rng = np.random.default_rng(37)
    n = 300
    held = 0
    for _ in range(n):
        noise = np.sqrt(0.5) * (rng.standard_normal((R, 1)) + rng.standard_normal((R, P)))
        held += _decide(np.log(margin) + mu + noise, margin) == HOLDS
    assert _at_least(held, n, POWER), (held, n)


@pytest.mark.parametrize("R, P", [(24, 3), (90, 6), (40, 1)])
@pytest.mark.parametrize("law", ["cauchy", "skewed", "diverging"])
def test_a_null_effect_is_never_decided_wrongly(R, P, law):
    """At one prefix the median log ratio sits exactly at log(margin) (the claim is false
    there): HOLDS must have probability <= delta. With every prefix's median there (the claim
    true nowhere but by a hair), DOES NOT HOLD is right; flipped to a hair above (the claim
    true everywhere), DOES NOT HOLD must have probability <= delta."""
    rng = np.random.default_rng(1037)
    margin = CONSIDERABLE
    t0 = np.log(margin)

    def draw(shape):
        if law == "cauchy":
            return rng.standard_cauchy(shape)
        if law == "skewed":                             # median of Exp(1) is ln 2
            return rng.exponential(1.0, shape) - np.log(2)
        x = rng.standard_normal(shape)                  # a quarter of the runs diverge,
        u = rng.random(shape)                           # as many on each side of the median
        x[u < 0.125] = np.inf
        x[u > 0.875] = -np.inf
        return x

    n = 600
    wrong_holds = wrong_fails = 0
    for _ in range(n):
        D = t0 + np.abs(draw((R, P))) + 1.0             # clearly for the claim ...
        D[:, rng.integers(P)] = t0 + draw(R)            # ... but at the margin at one prefix
        wrong_holds += _decide(D, margin) == HOLDS
        E = t0 + 1e-9 + draw((R, P))                    # true everywhere, by a hair
        wrong_fails += _decide(E, margin) == DOES_NOT_HOLD
    assert _at_most(wrong_holds, n, DELTA), wrong_holds
    assert _at_most(wrong_fails, n, DELTA), wrong_fails


def test_diverging_runs_do_not_decide_a_claim_and_nan_is_the_worst_error():
    """A few runs of the better learner that diverge (inf or NaN error) count against it as
    one rank each: a claim held in every other run still HOLDS when fewer runs than the sign
    test allows diverge, and a NaN is never counted for the learner that produced it."""
    rng = np.random.default_rng(5)
    R, P = 30, 3
    better = rng.uniform(0.1, 0.2, (R, P))
    worse = better * 1.5
    better[0, 1], better[1, 2] = np.inf, np.nan         # 2 diverging runs (28 needed of 30)
    c = claim_better((_curve("A", better), _curve("B", worse)), "A", "B", claim="c",
                     citation="t", source="s", stand_in=False, delta=DELTA)
    assert c.status == HOLDS and c.counts == (30, 29, 29) and c.needed == 28
    better[2, 1], better[3, 1] = np.nan, np.inf         # 3 at one prefix: 27 < 28
    c = claim_better((_curve("A", better), _curve("B", worse)), "A", "B", claim="c",
                     citation="t", source="s", stand_in=False, delta=DELTA)
    assert c.status == INCONCLUSIVE and c.counts == (30, 27, 29)
    # the interval for the median ratio still holds 1.5, the ratio of the typical run
    assert all(lo <= 1.5 + 1e-12 and 1.5 - 1e-12 <= hi for lo, hi in zip(c.low, c.high))


def test_full_budget_runs_detect_the_papers_visible_effect():
    """The full budget's run count comes from the power calculation: the visible effect
    (Phi(1), error bars of +-1 sd not overlapping) is detected at its check points."""
    d = papers.claims_design(get_profile("full").runs, len(get_profile("full").prefixes))
    assert d["full_runs"] >= d["runs_for_visible_effect"]
    assert d["full_detectable"] <= d["visible_effect"]


@pytest.mark.parametrize("margin", [0.9, float("inf"), float("nan"), "1.1"])
def test_a_margin_below_1_or_not_a_number_is_refused(margin):
    curves = (_curve("A", np.ones((30, 2))), _curve("B", np.ones((30, 2))))
    with pytest.raises(InvalidParameterError, match="margin"):
        claim_better(curves, "A", "B", claim="c", citation="t", source="s", stand_in=False,
                     margin=margin)
