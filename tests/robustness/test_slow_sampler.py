"""A user's sampler too slow for a Monte Carlo check makes it INCONCLUSIVE with the reason after
MAX_SAMPLE_SECONDS, never a hang (issue 48: 20,000 coin flips per draw), even when the user's
code catches every Exception."""
import time

import numpy as np
import pytest

from laocheck.checks.algorithms import estimator_properties
from laocheck.testing import check_estimator
from laocheck.testing._checks import CheckFailure


class SlowCoins:
    """A correct sampler (x_j d/1 for a uniform j) that flips 20,000 coins per draw first."""
    k, budget = 1, 1

    def target(self, w, x, y):
        return x.copy()

    def sample(self, w, x, y, n=1, rng=None):
        d = len(x)
        out = np.zeros((n, d))
        for t in range(n):
            try:
                heads = sum(rng.random() < 0.5 for _ in range(20_000))
            except Exception:               # a user's catch-all must not swallow the deadline
                heads = 0
            j = int(rng.integers(d)) + 0 * heads
            out[t, j] = x[j] * d
        return out, np.ones(n, dtype=int)


def test_a_sampler_too_slow_for_monte_carlo_is_inconclusive_with_the_reason(monkeypatch):
    monkeypatch.setattr(estimator_properties, "MAX_SAMPLE_SECONDS", 0.5)
    start = time.monotonic()
    with pytest.raises(CheckFailure) as info:
        check_estimator(SlowCoins(), {"unbiased": True, "range": [-4, 4]})
    assert time.monotonic() - start < 120        # a guard against a hang, not a timing claim
    slow = [r for r in info.value.records if r.status == "INCONCLUSIVE"
            and "within 0.5 s" in (r.note or "")]
    assert slow, [(r.id, r.status, r.note) for r in info.value.records]
    assert "too slow" in slow[0].note and slow[0].figures["draws_asked"] > 0
    assert not any(r.status in ("FAIL", "ERROR") for r in info.value.records)


def test_the_deadline_restores_an_outer_timer():
    import signal
    fired = []
    old = signal.signal(signal.SIGALRM, lambda *a: fired.append(1))
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        with estimator_properties._deadline(5.0, 10):
            pass
        assert signal.getitimer(signal.ITIMER_REAL)[0] > 0      # re-armed
        time.sleep(0.5)
        assert fired == [1]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


class LoopsForever(SlowCoins):
    """Enumerated first: a loop that never draws (the enumerator's own deadline is checked at
    draws only)."""

    def sample(self, w, x, y, n=1, rng=None):
        while True:
            pass


def test_a_sampler_looping_without_drawing_is_stopped(monkeypatch):
    monkeypatch.setattr(estimator_properties, "MAX_SAMPLE_SECONDS", 0.5)
    monkeypatch.setattr(estimator_properties, "MAX_SECONDS", 0.5)
    start = time.monotonic()
    with pytest.raises(CheckFailure) as info:
        check_estimator(LoopsForever(), {"unbiased": True, "range": [-4, 4]})
    assert time.monotonic() - start < 120        # a guard against a hang, not a timing claim
    notes = [r.note or "" for r in info.value.records]
    assert any("did not return one draw" in n or "did not finish one path" in n
               for n in notes), notes
    assert all(r.status == "INCONCLUSIVE" for r in info.value.records)
