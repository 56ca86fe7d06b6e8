"""The user-facing testing API: the papers' claims checked on a user's own estimator.

A thin layer over the engine (``laocheck.checks.algorithms.estimator_properties``, the checks the
catalog runs on laocheck's own estimators): it turns a user's claims into the engine's
``Claims`` and adds no check of its own. A sampler written in plain numpy (``target``,
``sample(w, x, y, n=, rng=)``, ``budget``, its own ``k``) needs no ``reference``: its ``sample``
is enumerated exactly by driving its generator (``laocheck.stats.choice_tree``).

* :func:`check_estimator` — scikit-learn style: run every check the estimator's claims select
  (its ``spec``, or ``claims=``; unbiasedness for ``target`` by default), raise an
  ``AssertionError`` listing the failures and the claims that could not be decided
  (INCONCLUSIVE, with the reason), and :class:`UserCodeError` (not an ``AssertionError``) when
  the estimator's own code raised or exited (ERROR, with its file and line);
* :func:`check_learner` — the same for a learning algorithm (any object with ``fit(X, y)``
  and ``coef_``): attribute budget, constraint set, excess-risk bound on distributions with
  exact risk, step size, determinism, scikit-learn's API; the engine is
  ``laocheck.checks.algorithms.learner_properties``, this layer's part ``laocheck.testing._learners``;
* :func:`estimator_checks_generator` and :func:`parametrize_with_checks` — one pytest test per
  estimator × check, with the id ``<label>-<property>``;
* ``laocheck.testing.plugin`` — the pytest plugin (``--laocheck-seed``, ``--laocheck-effort``,
  ``--laocheck-delta``, the ``laocheck_rng`` fixture, a failure summary);
* :func:`save_baseline` and :func:`compare_baseline` (``laocheck.testing.baseline``) —
  regression baselines for an altered sampler: SAME DISTRIBUTION, CHANGED BUT STILL CORRECT or
  BROKEN per instance (exact fingerprints for a finite support, sampled ones otherwise, where a
  change without a second-moment bound is CHANGED, CORRECTNESS UNDECIDED);
* ``laocheck.testing.strategies`` — hypothesis strategies for the papers' instances;
* ``laocheck.testing.instances`` is ``laocheck.estimators.instances``: small dyadic
  (w, x, y) that the Cython kernels (floats) and the literal references (Fractions) see
  identically.
"""
from .._lazy import attach

_attached, _dir = attach(__name__, {
    "_checks": ("PROPERTIES", "CheckFailure", "Claims", "Records", "UserCodeError",
                "check_estimator", "estimator_checks", "estimator_checks_generator",
                "resolve_claims"),
    "_learners": ("LearnerClaims", "LearnerRecords", "check_learner", "learner_checks",
                  "learner_checks_generator", "resolve_learner_claims"),
    "_pytest": ("parametrize_with_checks",),
    "baseline": ("BaselineComparison", "compare_baseline", "save_baseline"),
})


def __getattr__(name):
    if name == "instances":
        # laocheck.estimators (numpy, the kernels) loads on first use, not with the pytest
        # plugin (laocheck.testing.plugin), which pytest imports in every run: start-up time
        from ..estimators import instances
        globals()["instances"] = instances
        return instances
    return _attached(name)


def __dir__():
    return sorted(set(_dir()) | {"instances"})


__all__ = ["instances", "check_estimator", "estimator_checks", "estimator_checks_generator",
           "parametrize_with_checks", "resolve_claims", "Claims", "CheckFailure",
           "UserCodeError", "Records", "PROPERTIES",
           "save_baseline", "compare_baseline", "BaselineComparison", "check_learner",
           "learner_checks", "learner_checks_generator", "resolve_learner_claims",
           "LearnerClaims", "LearnerRecords"]
