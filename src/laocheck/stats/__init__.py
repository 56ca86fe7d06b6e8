"""Rigorous Monte Carlo statistics and the exact-enumeration oracle of laocheck.

Every decision here has a stated false-failure probability ``delta`` that holds for every
sample size (no normal approximations), and a stated power (:func:`detectable_violation`,
:func:`required_samples`). Choosing a method:

==========================================  ===============================================
situation                                   function
==========================================  ===============================================
bounded estimate, known range               :func:`mean_interval` (betting, prpl-eb,
                                            bernstein, hoeffding)
kernel-side running sums (n, sum, sum sq)   :func:`mean_interval_from_sums`
unbounded, known variance bound             :func:`median_of_means_interval`
Z >= 0, refute E[Z] <= G^2                  :func:`nonnegative_lower_bound`
vector mean, its squared norm               :func:`vector_mean_interval`,
                                            :func:`squared_norm_interval`
sampler's categorical distribution          :func:`multinomial_test`, :func:`two_sample_test`
two real-valued samplers                    :func:`two_sample_ks_test`,
                                            :func:`two_sample_mean_test`
paired runs, a median difference over a     :func:`paired_median_test`, :func:`median_bounds`,
curve (heavy tails; sign-test power)        :func:`sign_test_detectable`, :func:`sign_test_runs`
decide with as few draws as possible        :func:`sequential_mean_test`,
                                            :func:`sequential_bound_test`
split a run's delta across checks           :class:`DeltaSplit`
exact distribution of a sampling plan       :mod:`laocheck.stats.exact`
==========================================  ===============================================
"""

from .._lazy import attach

_lazy_getattr, __dir__ = attach(__name__, {
    "assertions": ("assert_mean_at_least", "assert_mean_at_most", "assert_mean_equal"),
    "delta_split": ("DEFAULT_DELTA", "DeltaAllocation", "DeltaSplit"),
    "design": ("DESIGN_METHODS", "detectable_violation", "required_samples"),
    "distributions": ("CategoricalTestResult", "TwoSampleResult", "clopper_pearson",
                      "multinomial_test", "two_sample_ks_test", "two_sample_mean_test",
                      "two_sample_test"),
    "exact": ("ExactDistribution", "IIDDraws", "Plan", "RandomHalves", "RandomSource",
              "TruncatedGeometric", "UniformSubset", "enumerate_outcomes"),
    "intervals": ("ALTERNATIVES", "METHODS", "SUM_METHODS", "MeanInterval", "mean_interval",
                  "mean_interval_from_sums"),
    "paired": ("PairedMedianTest", "median_bounds", "paired_median_test", "sign_rank",
               "sign_test_detectable", "sign_test_power", "sign_test_runs", "win_probability"),
    "sequential": ("SequentialTestResult", "look_schedule", "sequential_bound_test",
                   "sequential_mean_test"),
    "unbounded": ("median_of_means_interval", "nonnegative_lower_bound"),
    "vectors": ("VectorMeanInterval", "squared_norm_interval", "vector_mean_interval",
                "vector_mean_interval_from_sums"),
})

__all__ = [
    "MeanInterval", "mean_interval", "mean_interval_from_sums", "METHODS", "SUM_METHODS",
    "ALTERNATIVES",
    "median_of_means_interval", "nonnegative_lower_bound",
    "VectorMeanInterval", "vector_mean_interval", "vector_mean_interval_from_sums",
    "squared_norm_interval",
    "CategoricalTestResult", "TwoSampleResult", "multinomial_test", "two_sample_test",
    "two_sample_ks_test", "two_sample_mean_test", "clopper_pearson",
    "PairedMedianTest", "paired_median_test", "median_bounds", "sign_rank", "sign_test_power",
    "sign_test_detectable", "sign_test_runs", "win_probability",
    "SequentialTestResult", "sequential_mean_test", "sequential_bound_test", "look_schedule",
    "detectable_violation", "required_samples", "DESIGN_METHODS",
    "assert_mean_equal", "assert_mean_at_most", "assert_mean_at_least",
    "DeltaSplit", "DeltaAllocation", "DEFAULT_DELTA",
    "ExactDistribution", "RandomSource", "enumerate_outcomes", "IIDDraws", "UniformSubset",
    "RandomHalves", "TruncatedGeometric", "Plan",
]



def __getattr__(name):
    if name in ("ErrorBudget", "BudgetAllocation"):      # the names before 0.1: warn
        from .delta_split import renamed  # start-up time: loaded on first use, as attach's
        return renamed(name, __name__)
    return _lazy_getattr(name)
