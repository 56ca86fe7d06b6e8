"""The user-facing testing API: exact instances for checking an estimator (more to come:
``check_estimator`` by claims, the pytest plugin, hypothesis strategies, baselines).

``laocheck.testing.instances`` is :mod:`laocheck.estimators.instances`: small dyadic (w, x, y)
that the Cython kernels (floats) and the literal references (Fractions) see identically.
"""
from ..estimators import instances

__all__ = ["instances"]
