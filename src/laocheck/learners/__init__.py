"""The papers' learners as scikit-learn style estimators.

The ridge family :class:`AERR` (HK12 Alg. 1), :class:`GAERR` (KS15 Alg. 1),
:class:`DDAERR` (KS15 Sec. 3.1) and the lasso family :class:`AELR` (HK12 Alg. 2),
:class:`GAELR` (KS15 Alg. 3), :class:`DDAELR` (KS15 Sec. 4.1), each with O(k + log d) steps and
a literal reference in ``laocheck.reference.learners``; the two-phase learners
:class:`TwoPhaseDDAERR` and :class:`TwoPhaseDDAELR` (KS15 Alg. 2 and Alg. 4,
``two_phase.py``); CB11's :class:`AER` and its :class:`Baseline`; HK12's :class:`AESVR`;
the full-information baselines
:class:`OnlineRidge`, :class:`OnlineLasso`, :class:`OfflineRidge`, :class:`OfflineLasso`;
the adaptive (AdaGrad, KS15 App. A eq. (13)) :class:`AdaGAERR`, :class:`AdaAERR`,
:class:`AdaDDAERR`, :class:`AdaTwoPhaseDDAERR` and :class:`AdaOnlineRidge` (``adaptive.py``).
The steps run in Cython kernels (``_ridge``, ``_lasso``, ``_aer``, ``_adaptive``, ``_full``), each
with a literal NumPy or pure-Python reference the tests compare it with.
:func:`has_oracle_path` says whether a learner reads examples through an attribute oracle
(``fit_oracle``).
"""
from .._lazy import attach

__getattr__, __dir__ = attach(__name__, {
    "_base": ("has_oracle_path",),
    "adaptive": ("AdaAERR", "AdaDDAERR", "AdaGAERR", "AdaOnlineRidge", "AdaTwoPhaseDDAERR",
                 "adagrad_step", "adagrad_theory_constant"),
    "aer": ("AER", "Baseline", "aer_lambda", "minimise_quadratic_l1"),
    "aesvr": ("AESVR",),
    "full_information": ("OfflineLasso", "OfflineRidge", "OnlineLasso", "OnlineRidge",
                         "project_l1_ball"),
    "lasso": ("AELR", "DDAELR", "GAELR", "lasso_theory_step_size"),
    "ridge": ("AERR", "DDAERR", "GAERR", "theory_step_size"),
    "two_phase": ("TwoPhaseDDAELR", "TwoPhaseDDAERR", "two_phase_lasso_phase2",
                  "two_phase_ridge_phase2"),
})

__all__ = ["AdaAERR", "AdaDDAERR", "AdaGAERR", "AdaOnlineRidge", "AdaTwoPhaseDDAERR",
           "adagrad_step",
           "adagrad_theory_constant", "has_oracle_path", "AER", "AELR", "AERR", "AESVR", "Baseline", "aer_lambda", "minimise_quadratic_l1", "DDAELR", "DDAERR", "GAELR", "GAERR", "OfflineLasso",
           "OfflineRidge", "OnlineLasso", "OnlineRidge", "lasso_theory_step_size",
           "project_l1_ball", "theory_step_size", "TwoPhaseDDAELR", "TwoPhaseDDAERR",
           "two_phase_lasso_phase2", "two_phase_ridge_phase2"]
