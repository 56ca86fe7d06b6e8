"""What the papers state about each learner of :mod:`laocheck.learners`: one
:class:`~laocheck.estimators.LearnerSpec` per class (its budget, geometry, gradient estimator
and excess-risk theorems), the class's ``spec`` attribute.

The specs live apart from the classes so that the catalog can list the learners' checks and
theorems without importing scikit-learn (start-up of ``laocheck list``): this module imports
numpy and the spec classes only. ``SPECS`` is keyed by the class name (``spec.algorithm``); a
test asserts that it holds exactly the classes' own specs.
"""

from __future__ import annotations

import numpy as np

from ..estimators._spec import Budget, LearnerSpec, TheoremClaim

__all__ = ["SPECS"]

_SPECS = (
    # ridge.py
    LearnerSpec(
        name="KS15.GAERR",
        citation="KS15 Alg. 1",
        budget=Budget("k + 1", lambda k: k + 1),
        geometry="l2",
        estimator="KS15.GAERR.gradient",
        theorems=(TheoremClaim("KS15.Thm3.1", "KS15.Thm3.1.generic"),),
    ),
    LearnerSpec(
        name="HK12.AERR",
        citation="HK12 Alg. 1",
        budget=Budget("k + 1", lambda k: k + 1),
        geometry="l2",
        estimator="HK12.AERR.gradient",
        theorems=(TheoremClaim("HK12.Thm3.1", "HK12.Thm3.1.bound"),),
    ),
    LearnerSpec(
        name="KS15.DDAERR",
        citation="KS15 Sec. 3.1",
        budget=Budget("k + 1", lambda k: k + 1),
        geometry="l2",
        estimator="KS15.DDAERR.gradient",
        theorems=(TheoremClaim("KS15.Thm3.5", "KS15.Thm3.5.bound"),),
        example_params=lambda X: {"second_moments": np.mean(X * X, axis=0)},
    ),
    # lasso.py
    LearnerSpec(
        name="KS15.GAELR",
        citation="KS15 Alg. 3",
        budget=Budget("k + 1", lambda k: k + 1),
        geometry="l1",
        estimator="KS15.GAELR.clipped_gradient",
        theorems=(TheoremClaim("KS15.Thm4.1", "KS15.Thm4.1.generic"),),
    ),
    LearnerSpec(
        name="HK12.AELR",
        citation="HK12 Alg. 2",
        budget=Budget("k + 1", lambda k: k + 1),
        geometry="l1",
        estimator="HK12.AELR.clipped_gradient",
        theorems=(TheoremClaim("HK12.Thm3.4", "HK12.Thm3.4.bound"),),
    ),
    LearnerSpec(
        name="KS15.DDAELR",
        citation="KS15 Sec. 4.1",
        budget=Budget("k + 1", lambda k: k + 1),
        geometry="l1",
        estimator="KS15.DDAELR.clipped_gradient",
        theorems=(TheoremClaim("KS15.Thm4.6", "KS15.Thm4.6.bound"),),
        example_params=lambda X: {"second_moments": np.mean(X * X, axis=0)},
    ),
    # aer.py
    LearnerSpec(
        name="CB11.AER",
        citation="CB11 Fig. 2",
        budget=Budget("k", lambda k: k),
        geometry="l1",
        estimator="CB11.AER.gradient",
        theorems=(TheoremClaim("CB11.Thm12", "CB11.Thm12.bound_expectation"),),
    ),
    LearnerSpec(
        name="CB11.Baseline",
        citation="CB11 Fig. 1",
        budget=Budget("k", lambda k: k),
        geometry="l1",
        estimator="CB11.Baseline.loss",
    ),
    # aesvr.py
    LearnerSpec(
        name="HK12.AESVR",
        citation="HK12 Alg. 4, Thm 4.4",
        budget=Budget("k + 6", lambda k: k + 6, kind="expectation"),
        geometry="l2",
        estimator="HK12.AESVR.gradient",
        theorems=(TheoremClaim("HK12.Thm4.4", "HK12.Thm4.4.bound"),),
    ),
    # adaptive.py
    LearnerSpec(
        name="KS15.AdaGAERR",
        citation="KS15 App. A, eq. (13) (on KS15 Alg. 1)",
        budget=Budget("k + 1", lambda k: k + 1),
        geometry="l2",
        estimator="KS15.GAERR.gradient",
        notes="adaptive variant; KS15 states no theorem for it",
    ),
    LearnerSpec(
        name="KS15.AdaAERR",
        citation="KS15 App. A, eq. (13) (on HK12 Alg. 1)",
        budget=Budget("k + 1", lambda k: k + 1),
        geometry="l2",
        estimator="HK12.AERR.gradient",
        notes="adaptive variant; KS15 states no theorem for it",
    ),
    LearnerSpec(
        name="KS15.AdaDDAERR",
        citation="KS15 App. A, eq. (13) (on KS15 Sec. 3.1)",
        budget=Budget("k + 1", lambda k: k + 1),
        geometry="l2",
        estimator="KS15.DDAERR.gradient",
        example_params=lambda X: {"second_moments": np.mean(X * X, axis=0)},
        notes="adaptive variant; KS15 states no theorem for it",
    ),
    LearnerSpec(
        name="KS15.AdaTwoPhaseDDAERR",
        citation="KS15 App. A, eq. (13) (on KS15 Alg. 2)",
        budget=Budget("k + 1", lambda k: k + 1),
        geometry="l2",
        estimator="KS15.DDAERR.gradient",
        notes="adaptive variant; KS15 states no theorem for it",
    ),
    # two_phase.py
    LearnerSpec(
        name="KS15.TwoPhaseDDAERR",
        citation="KS15 Alg. 2",
        budget=Budget("k + 1", lambda k: k + 1),
        geometry="l2",
        estimator="KS15.DDAERR.gradient",
        theorems=(TheoremClaim("KS15.Thm3.12", "KS15.Thm3.12.bound_as"),),
    ),
    LearnerSpec(
        name="KS15.TwoPhaseDDAELR",
        citation="KS15 Alg. 4",
        budget=Budget("k + 1", lambda k: k + 1),
        geometry="l1",
        estimator="KS15.DDAELR.clipped_gradient",
        theorems=(TheoremClaim("KS15.Thm4.7", "KS15.Thm4.7.bound_as"),),
    ),
)

#: ``{class name: spec}`` of every learner class that declares its own spec
SPECS = {spec.algorithm: spec for spec in _SPECS}
