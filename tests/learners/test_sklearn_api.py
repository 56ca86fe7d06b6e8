"""scikit-learn's estimator checks over every learner (``parametrize_with_checks``).

One check cannot apply to the budgeted learners and online EG± and is an expected failure,
with its reason: ``check_regressors_train`` asks for R² > 0.5 after one pass over ~200
standardized examples (‖x‖₂ ≈ √d, outside the papers' ‖x‖ <= 1); a learner that sees k + 1 of
the attributes of each example once, on a norm ball of radius B = 1, does not get there.
"""
import pickle

import numpy as np
from sklearn.utils.estimator_checks import parametrize_with_checks

from laocheck.learners import (AELR, AER, AERR, AESVR, DDAELR, DDAERR, GAELR, GAERR, Baseline,
                               OfflineLasso, OfflineRidge, OnlineLasso, OnlineRidge,
                               TwoPhaseDDAELR, TwoPhaseDDAERR)


EXPECTED = {
    "check_regressors_train": "one pass with B = 1 on standardized data (‖x‖₂ ≈ √d, "
                              "outside the papers' ‖x‖ <= 1) does not reach R² > 0.5",
}
#: the budgeted learners check each entry of X where a step reads it (finite, <= 1e100) and
#: never scan X: a NaN planted in one entry raises only if a step reads it (the check plants
#: one in a 10 × 3 X; AESVR's GenEst reads enough attributes to find it with this seed)
UNREAD = {"check_estimators_nan_inf": "a NaN or inf in an attribute no step reads is never "
                                      "inspected (an attribute-efficient learner reads k + 1 "
                                      "attributes of an example, and checks those)"}


def expected_failed_checks(estimator):
    """The budgeted learners and the one-pass EG± baseline (its theory step is small); the
    other full-information baselines pass every check (a strict xfail would catch a change)."""
    budgeted = (GAERR, GAELR, AESVR, AER, TwoPhaseDDAERR, TwoPhaseDDAELR, OnlineLasso)
    expected = dict(EXPECTED) if isinstance(estimator, budgeted) else {}
    if isinstance(estimator, (GAERR, GAELR, AER, Baseline, TwoPhaseDDAERR, TwoPhaseDDAELR)):
        expected.update(UNREAD)
    return expected


@parametrize_with_checks([AERR(k=2, random_state=0), AELR(k=2, random_state=0),
                          GAERR(k=2, eta=0.01, random_state=0),
                          GAELR(k=2, eta=0.01, random_state=0), AER(k=2, random_state=0),
                          Baseline(k=2, random_state=0), AESVR(k=2, random_state=0),
                          DDAERR(k=2, second_moments=0.25, random_state=0),
                          DDAELR(k=2, second_moments=0.25, random_state=0),
                          TwoPhaseDDAERR(k=2, random_state=0),
                          TwoPhaseDDAELR(k=2, random_state=0),
                          OnlineRidge(), OnlineLasso(),
                          OfflineRidge(), OfflineLasso()],
                         expected_failed_checks=expected_failed_checks)
def test_sklearn_compatible(estimator, check):
    name = getattr(check, "func", check).__name__
    if name == "check_array_api_input":
        # array-API inputs are not supported, and the tags say so (the check itself only runs
        # with SCIPY_ARRAY_API set, for estimators that claim support)
        assert not estimator.__sklearn_tags__().array_api_support
        return
    check(estimator)


def test_fitted_learners_pickle_and_continue_identically():
    rng = np.random.default_rng(0)
    X = rng.uniform(-1, 1, (400, 6)) / np.sqrt(6)
    y = X @ np.full(6, 0.2)
    for make in (lambda: AERR(k=2, n_total=400, random_state=1),
                 lambda: AELR(k=2, n_total=400, random_state=1),
                 lambda: DDAERR(k=2, second_moments=np.full(6, 1 / 18), n_total=400,
                                random_state=1),
                 lambda: DDAELR(k=2, second_moments=np.full(6, 1 / 3), n_total=400,
                                random_state=1),
                 lambda: AER(k=2, n_total=400, random_state=1),
                 lambda: AESVR(k=2, n_total=400, random_state=1)):
        straight = make().partial_fit(X[:200], y[:200]).partial_fit(X[200:], y[200:])
        copied = pickle.loads(pickle.dumps(make().partial_fit(X[:200], y[:200])))
        copied.partial_fit(X[200:], y[200:])
        np.testing.assert_array_equal(straight.coef_, copied.coef_)
