"""``BudgetedLearner.theory_step``: the step a run would use, without the run.

The papers' experiments tune a multiple of each learner's theory step (KS15 Sec. 5, CB11
Sec. 7); ``theory_step(n, d)`` must be exactly the ``eta_`` (AER: ``lam_``) that ``fit`` on n
rows of d attributes sets, for every learner whose step does not depend on the rows, and None
for the Two-Phased learners (KS15 Alg. 2 and 4: phase 2's step comes from phase 1's estimate).
"""

import numpy as np
import pytest

from laocheck.exceptions import InvalidParameterError
from laocheck.learners import (AELR, AER, AERR, AESVR, DDAELR, DDAERR, GAELR, GAERR, AdaAERR,
                               AdaDDAERR, AdaOnlineRidge, OnlineLasso, OnlineRidge,
                               TwoPhaseDDAELR, TwoPhaseDDAERR)

D = 24
MOM = np.linspace(0.5, 1.5, D) / D

CASES = [AERR(k=4), AERR(k=4, B=3.0), AERR(k=4, eta=0.3), AERR(k=4, n_total=1000),
         GAERR(k=3, n_inner=2), DDAERR(k=3, n_inner=2, second_moments=MOM), AELR(k=4),
         GAELR(k=3), DDAELR(k=3, second_moments=MOM), AER(k=4), AER(k=4, lam="proof"),
         AER(k=6, lam=2.5), AdaAERR(k=4), AdaDDAERR(k=3, second_moments=MOM), AESVR(k=4),
         OnlineRidge(), OnlineRidge(eta=0.2), OnlineLasso(B=2.0), AdaOnlineRidge(B=3.0)]


@pytest.mark.parametrize("est", CASES, ids=repr)
@pytest.mark.parametrize("n", [1, 57, 300])
def test_theory_step_is_the_step_fit_sets(est, n):
    rng = np.random.default_rng(n)
    X = rng.uniform(0.05, 1, (n, D)) / np.sqrt(D)
    y = np.sign(X[:, 0] - 0.1)
    try:
        est.fit(X, y)
    except InvalidParameterError as exc:       # AER's theory λ needs m >= 2: both refuse
        with pytest.raises(InvalidParameterError, match=str(exc).split("(")[0]):
            est.theory_step(n, D)
        return
    assert est.theory_step(n, D) == (est.lam_ if isinstance(est, AER) else est.eta_)


@pytest.mark.parametrize("Model", [TwoPhaseDDAERR, TwoPhaseDDAELR])
def test_two_phased_steps_depend_on_the_rows(Model):
    assert Model(k=4).theory_step(300, D) is None


def test_theory_step_validates_like_fit():
    with pytest.raises(InvalidParameterError, match="`k`"):
        AERR(k=30).theory_step(100, D)
    with pytest.raises(InvalidParameterError, match="n_samples"):
        AERR(k=4).theory_step(0, D)
    with pytest.raises(InvalidParameterError, match="`eta`"):
        AERR(k=4, eta="nope").theory_step(100, D)
