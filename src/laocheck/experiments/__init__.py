"""Bound against empirical: replicated runs on distributions with exact risk (the theorems of CB11, HK12, KS15).

:func:`replicate` runs a learner R times with child seeds of one SeedSequence (joblib; identical
numbers for any ``n_jobs``); :func:`compare` turns the excess risks into a rigorous interval
(:func:`laocheck.stats.mean_interval` on the proven per-run range of :func:`excess_risk_range`)
and the tightness ratio against a theorem's bound; :func:`scaling_slope` gives log-log slopes
with intervals; ``laocheck.experiments.theorems`` defines one standard configuration per
theorem with an excess-risk bound; :mod:`laocheck.experiments.papers` recomputes the papers'
experiments (CB11 Sec. 7, HK12 Sec. 5, KS15 Sec. 5 and App. A) with their claims checked.
"""

from .._lazy import attach

__getattr__, __dir__ = attach(__name__, {
    "_settings": ("estimator_settings", "learner_settings"),
    "_runs": ("BLOCK_ENTRIES", "Comparison", "LearnerConfig", "as_seed_sequence", "block_rows",
              "child_seeds", "compare", "excess_risk_range", "replicate",
              "scaling_slope"),
    "papers": ("EXPERIMENTS", "ClaimCheck", "Curve", "PaperExperiment", "Panel", "PrintedNumber",
               "cb11_mnist", "hk12_mnist", "ks15_adaptive", "ks15_real", "ks15_synthetic",
               "learning_curves"),
})

__all__ = ["LearnerConfig", "learner_settings", "estimator_settings", "Comparison", "replicate",
           "compare", "excess_risk_range", "scaling_slope", "child_seeds", "as_seed_sequence", "BLOCK_ENTRIES", "block_rows",
           "EXPERIMENTS", "ClaimCheck", "Curve", "PaperExperiment", "Panel", "PrintedNumber",
           "cb11_mnist", "hk12_mnist", "ks15_adaptive", "ks15_real", "ks15_synthetic",
           "learning_curves"]
