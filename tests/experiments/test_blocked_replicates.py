"""A replicate whose sample exceeds BLOCK_ENTRIES is drawn and fitted in blocks of rows
(``partial_fit`` with n_total = m): it must be the very run ``fit`` makes on the whole sample
(same numbers, bit for bit), for every learner the experiments use, and independent of n_jobs."""

import numpy as np
import pytest

from laocheck.data import CorrelatedSigns, PowerLawBernoulli
from laocheck.experiments import LearnerConfig, _runs, block_rows, replicate
from laocheck.learners import AELR, AER, AERR, DDAELR, DDAERR, GAELR, GAERR

D = 12


def _specs():
    mom = PowerLawBernoulli(D, -1.0, scenario="lasso").second_moments
    q = np.full(D, 1.0 / D)
    return [LearnerConfig(AERR, dict(k=3, B=1.0, eta=0.05)),
            LearnerConfig(AERR, dict(k=3, B=1.0)),                        # eta="theory" needs m
            LearnerConfig(AELR, dict(k=3, B=1.0, eta=0.05)),
            LearnerConfig(GAERR, dict(k=3, B=1.0, eta=0.05, q=q)),
            LearnerConfig(GAELR, dict(k=3, B=1.0, eta=0.05, q=q)),
            LearnerConfig(DDAERR, dict(k=3, B=1.0, second_moments=mom)),
            LearnerConfig(DDAELR, dict(k=3, B=1.0, second_moments=mom)),
            LearnerConfig(AER, dict(k=4, B=1.0))]


def test_block_rows():
    assert block_rows(100, 10) == 100                                   # fits: one block
    assert block_rows(10**6, 10**6) == max(1, _runs.BLOCK_ENTRIES // 10**6)
    assert block_rows(10, 10**9) == 1


@pytest.mark.parametrize("spec", _specs(), ids=lambda s: s.describe())
@pytest.mark.parametrize("dist", [PowerLawBernoulli(D, -1.0, scenario="lasso"),
                                  CorrelatedSigns(np.ones(D), np.full(D, 1 / D), corr=0.3)],
                         ids=lambda d: d.name)
def test_blocked_replicates_equal_whole_sample_replicates(spec, dist, monkeypatch):
    norm = "l2" if spec.cls in (AERR, GAERR, DDAERR) else "l1"
    m = 500
    whole, attrs = replicate(spec, dist, m, norm=norm, B=1.0, R=3, seed=5)
    monkeypatch.setattr(_runs, "BLOCK_ENTRIES", 7 * D)                 # blocks of 7 rows
    assert block_rows(m, D) == 7
    blocked, attrs_b = replicate(spec, dist, m, norm=norm, B=1.0, R=3, seed=5)
    assert np.array_equal(whole, blocked) and np.array_equal(attrs, attrs_b)
    parallel, _ = replicate(spec, dist, m, norm=norm, B=1.0, R=3, seed=5, n_jobs=2)
    assert np.array_equal(whole, parallel)


def test_learners_without_n_total_fit_the_whole_sample(monkeypatch):
    """A learner without partial_fit / n_total is fitted once on the whole sample (never in
    blocks with a different step size)."""
    class NoPartial(AERR):
        partial_fit = property(doc="absent")                           # hasattr -> False

        def __getattribute__(self, name):
            if name == "partial_fit":
                raise AttributeError(name)
            return super().__getattribute__(name)

    dist = PowerLawBernoulli(D, -1.0, scenario="ridge")
    a, _ = replicate(LearnerConfig(NoPartial, dict(k=3, B=1.0, eta=0.05)), dist, 300, norm="l2",
                     B=1.0, R=2, seed=1)
    monkeypatch.setattr(_runs, "BLOCK_ENTRIES", 7 * D)
    b, _ = replicate(LearnerConfig(NoPartial, dict(k=3, B=1.0, eta=0.05)), dist, 300, norm="l2",
                     B=1.0, R=2, seed=1)
    assert np.array_equal(a, b)
