"""The papers' learners as scikit-learn style estimators (in progress: the ridge family).

So far: :class:`AERR` (HK12 Alg. 1), :class:`GAERR` (KS15 Alg. 1), :class:`DDAERR` (KS15
Sec. 3.1), each with O(k + log d) steps and a literal reference in ``laocheck.reference``.
"""
from .ridge import AERR, DDAERR, GAERR, theory_step_size

__all__ = ["AERR", "DDAERR", "GAERR", "theory_step_size"]
