"""Slow, literal transcriptions of the papers' boxes: the oracle the fast kernels answer to."""
from . import estimators

__all__ = ["estimators"]
