"""The checks of the algorithms' properties (ids ``<PAPER>.<Algo>[.<estimate>].<property>``).

They are drawn from the estimators' and learners' specs, never from their names: the engine of
:func:`laocheck.testing.check_estimator` (``estimator_properties``) and of
:func:`laocheck.testing.check_learner` (``learner_properties``), the one record per learner
(``learner_records``), its sampler and settings checks. The modules register their checks when
the catalog imports them (:data:`laocheck.checks.CHECK_MODULES`); this package imports nothing
itself.
"""
