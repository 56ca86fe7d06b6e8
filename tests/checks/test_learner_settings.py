"""The learners' settings checks (laocheck.checks.algorithms.learner_settings): a learner whose
``eta="theory"`` is doubled, whose step size formula in laocheck.bounds slipped, or whose
data-dependent q follows the wrong power of E[x²] FAILs, though it replays its own steps
exactly (issue 47: the one planted bug nothing caught)."""
import dataclasses

import numpy as np
import pytest

from laocheck import checks
from laocheck.learners import aer, lasso, ridge

SETTINGS = checks.checks("*.settings")


def _status(check_id):
    return checks.run(check_id, seed=0, catch=False).status


def test_every_learner_of_the_papers_has_a_settings_check():
    ids = {c.id for c in SETTINGS}
    assert ids >= {"HK12.AERR.settings", "HK12.AELR.settings", "KS15.GAERR.settings",
                   "KS15.DDAERR.settings", "KS15.GAELR.settings", "KS15.DDAELR.settings",
                   "CB11.AER.settings"}
    for check in SETTINGS:
        assert _status(check.id) == "PASS"


@pytest.mark.parametrize("module, name, check_id", [
    (ridge, "theory_step_size", "HK12.AERR.settings"),
    (ridge, "theory_step_size", "KS15.DDAERR.settings"),
    (ridge, "theory_step_size", "KS15.GAERR.settings"),
    (lasso, "lasso_theory_step_size", "HK12.AELR.settings"),
    (lasso, "lasso_theory_step_size", "KS15.DDAELR.settings"),
    (lasso, "lasso_theory_step_size", "KS15.GAELR.settings"),
    (aer, "aer_lambda", "CB11.AER.settings"),
])
def test_eta_theory_doubled_fails(monkeypatch, module, name, check_id):
    original = getattr(module, name)
    monkeypatch.setattr(module, name, lambda *a, **kw: 2 * original(*a, **kw))
    record = checks.run(check_id, seed=0, catch=False)
    assert record.status == "FAIL"
    assert record.counterexample["setting"] in ("eta", "lam")
    ratio = np.array(record.counterexample["observed"]) / np.array(record.counterexample["paper"])
    assert np.allclose(ratio, 2)


def test_a_slipped_step_size_of_bounds_moves_the_learner_and_fails(monkeypatch):
    """The expectation is typed from the paper, not read from laocheck.bounds, which the
    learners use: the ridge step size with B in place of B² (a slip in laocheck.bounds) moves
    DDAERR, and the check FAILs (B = 3/2 in the check's instance)."""
    from laocheck import bounds
    original = bounds.ridge_step_size
    monkeypatch.setattr(bounds, "ridge_step_size", lambda m, B, G2: original(m, B, G2) * B)
    assert _status("KS15.DDAERR.settings") == "FAIL"


def test_q_with_the_wrong_power_fails(monkeypatch):
    """DDAELR's q ∝ E[x²]³ in place of Lemma 4.3's q ∝ E[x²] (the audit's slip)."""
    def cubed(self, d):
        m = self._moments(d) ** 3
        return m / m.sum()
    monkeypatch.setattr(lasso.DDAELR, "_q", cubed)
    record = checks.run("KS15.DDAELR.settings", seed=0, catch=False)
    assert record.status == "FAIL" and record.counterexample["setting"] == "q"


def test_a_user_learner_with_its_own_eta_is_judged_by_the_paper():
    class MyAERR(ridge.AERR):
        def _theory_step(self, name, m, d, config):
            return 1.01 * super()._theory_step(name, m, d, config)
    check = checks.get("HK12.AERR.settings")
    rebound = dataclasses.replace(check, kwargs={**check.kwargs, "learner": MyAERR})
    assert checks.run(rebound, seed=0, catch=False).status == "FAIL"
