"""``parametrize_with_checks``: one pytest test per (estimator, check), scikit-learn style.

The seed, effort profile and δ come from the laocheck pytest plugin's options
(``--laocheck-seed``, ``--laocheck-effort``, ``--laocheck-delta``) when it is active, else seed 0,
"fast", 1e-6.
"""

from __future__ import annotations

from ..stats import DEFAULT_DELTA
from ._checks import CheckFailure, estimator_checks_generator, labels
from ._learners import is_learner, learner_checks_generator

__all__ = ["parametrize_with_checks", "OPTIONS"]

#: The run's options, set by the pytest plugin (``laocheck.testing.plugin``) at configure time.
OPTIONS = {"seed": 0, "effort": "fast", "delta": DEFAULT_DELTA}


class _Bound:
    """A check bound to the run's options: ``check(est)`` runs it at the plugin's seed and
    effort profile (pytest shows it by the check's id)."""

    def __init__(self, inner):
        self.inner = inner
        self.__name__ = inner.__name__

    def __call__(self, est, **kwargs):
        kwargs.setdefault("seed", OPTIONS["seed"])
        if "budget" not in kwargs:          # the deprecated spelling warns in the check
            kwargs.setdefault("effort", OPTIONS["effort"])
        return self.inner(est, **kwargs)

    def __repr__(self):
        return repr(self.inner)


def parametrize_with_checks(estimators, *, claims=None, expected_failed_checks=None):
    """A ``pytest.mark.parametrize("estimator, check", ...)`` over estimators and their checks.

    Every estimator (or learner: any object with ``fit`` and no ``sample``, checked by
    :func:`check_learner`'s checks) and every check its claims select; test ids are
    ``<label>-<property>`` (``Mine-unbiased.exact``), the label being the estimator's
    ``name``, else its class name, made unique (``Mine-2-budget`` for a second estimator
    labelled ``Mine``)::

        @parametrize_with_checks([MyEstimator(k=2)])
        def test_laocheck(estimator, check):
            check(estimator)

    A test whose check FAILs raises :class:`CheckFailure` (an ``AssertionError``); one whose
    estimator's code raised or exited (ERROR) raises :class:`UserCodeError`, naming the
    exception and the user's file and line.

    Parameters
    ----------
    estimators : list of object
        The estimators (instances) and learners to check.
    claims : dict, EstimatorSpec, LearnerClaims, callable or None, default=None
        One claims argument for every estimator (see :func:`check_estimator`), or a callable
        ``est -> claims``; None: each one's ``spec``.
    expected_failed_checks : callable or None, default=None
        ``est -> {property: reason}``; those checks become strict xfails.

    Returns
    -------
    pytest.MarkDecorator
        The parametrize mark.

    Raises
    ------
    ValueError
        If an estimator breaks the protocol, its claims are malformed or select no check.
    """
    import pytest  # optional dependency: only needed inside a pytest run

    params = []
    estimators = list(estimators)
    for est, label in zip(estimators, labels(estimators)):
        est_claims = claims(est) if callable(claims) else claims
        xfails = expected_failed_checks(est) if expected_failed_checks else {}
        generator = learner_checks_generator if is_learner(est) else estimator_checks_generator
        for e, check in generator(est, est_claims, delta=OPTIONS["delta"], label=label):
            prop = check.__name__[len(label) + 1:]
            marks = []
            reason = xfails.get(check.__name__) or xfails.get(prop)
            if reason:
                # only a FAIL is the expected failure: an ERROR of the user's code (a
                # UserCodeError) stays an error of the test
                marks.append(pytest.mark.xfail(reason=reason, strict=True, raises=CheckFailure))
            params.append(pytest.param(e, _Bound(check), id=f"{label}-{prop}", marks=marks))
    return pytest.mark.parametrize("estimator, check", params)
