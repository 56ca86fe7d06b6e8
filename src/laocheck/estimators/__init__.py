"""Per-example estimates of CB11, HK12 and KS15: Cython kernels behind one protocol.

>>> import numpy as np
>>> from laocheck import estimators
>>> est = estimators.get("HK12.AERR.gradient", k=4)
>>> w, x, y = np.array([0.5, -0.5, 0.0]), np.array([0.6, 0.0, 0.8]), 0.1
>>> draws = est.sample(w, x, y, n=1000, rng=0)
>>> draws.values.shape, int(draws.attributes.max()) <= est.budget
((1000, 3), True)

See ``laocheck.estimators._protocol`` for the protocol, ``names()`` for the catalogue
(``_registry``) and ``spec_of(name)`` for what the papers state about each estimate
(:class:`EstimatorSpec`).
"""

from .._lazy import attach

# every name loads ``_families`` first: importing it registers every estimator
__getattr__, __dir__ = attach(__name__, {
    "_families": ("AEREstimator", "AESVREstimator", "BaselineEstimator", "GenEstEstimator",
                  "ImportanceEstimator", "aesvr_coefficients"),
    "_protocol": ("Draws", "Estimator", "Moments"),
    "_registry": ("example_params", "get", "names", "register", "spec_of", "specs"),
    "_spec": ("Budget", "ClippingClaim", "EstimatorSpec", "LearnerSpec", "SecondMomentClaim",
              "TheoremClaim", "cb11_gradient_target", "data_point_target", "gradient_target",
              "residual_target"),
    "_samplers": ("AliasTable", "SumTree"),
}, first=("_families",))

__all__ = [
    "AEREstimator",
    "AESVREstimator",
    "AliasTable",
    "BaselineEstimator",
    "Budget",
    "ClippingClaim",
    "Draws",
    "Estimator",
    "EstimatorSpec",
    "GenEstEstimator",
    "ImportanceEstimator",
    "LearnerSpec",
    "Moments",
    "SumTree",
    "aesvr_coefficients",
    "cb11_gradient_target",
    "data_point_target",
    "example_params",
    "get",
    "gradient_target",
    "names",
    "register",
    "residual_target",
    "SecondMomentClaim",
    "spec_of",
    "specs",
    "TheoremClaim",
]
