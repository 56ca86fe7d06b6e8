"""Functionals of the attribute second moments E[x_i²] used by KS15's bounds.

‖E[x²]‖_{1/2} = (Σ_i √E[x_i²])² and ‖E[x²]‖₁ = Σ_i E[x_i²] (KS15 Sec. 1), the sums
S = Σ_i E[x_i²]/q_i (KS15 eq. (2)) and S_∞ = max_i E[x_i²]/q_i (KS15 eq. (7)), and the
improvement ratios ρ_ridge (eq. (11)) and ρ_lasso (eq. (12)), evaluated through the numeric
functions generated from the sympy expressions of :mod:`laocheck.bounds._formulas` (the ratios) on numpy reductions of the moments.

numpy's ``sum`` is used instead of math.fsum: the moments are nonnegative, so the relative
rounding error of the sum is at most d·2⁻⁵³ (no cancellation), far below any printed digit.
"""

import numpy as np

from .._validation import check_distribution, check_nonnegative_vector, check_scalar
from ..exceptions import InvalidParameterError
from ._evaluate import evaluate

__all__ = ["norm_half", "norm_one", "norm_inf", "sampling_sum", "sampling_max", "rho_ridge",
           "rho_lasso", "second_moments_of", "two_phase_H"]


def _moments(second_moments):
    return check_nonnegative_vector("second_moments", second_moments)


def norm_half(second_moments):
    """The half-norm ‖E[x²]‖_{1/2} = (Σ_i √E[x_i²])² (KS15 Sec. 1; the quantity of Thm 3.5).

    Parameters
    ----------
    second_moments : array_like, shape (d,)
        The attribute second moments E[x_i²], nonnegative and finite, not all zero.

    Returns
    -------
    float
        ‖E[x²]‖_{1/2}.

    Raises
    ------
    InvalidParameterError
        ``second_moments`` is not a nonnegative finite vector with a positive sum.
    """
    mom = _moments(second_moments)
    return float(np.sqrt(mom).sum() ** 2)


def norm_one(second_moments):
    """The norm ‖E[x²]‖₁ = Σ_i E[x_i²] (KS15 Sec. 1; the quantity of Thm 4.6).

    Parameters
    ----------
    second_moments : array_like, shape (d,)
        The attribute second moments E[x_i²], nonnegative and finite, not all zero.

    Returns
    -------
    float
        ‖E[x²]‖₁.

    Raises
    ------
    InvalidParameterError
        ``second_moments`` is not a nonnegative finite vector with a positive sum.
    """
    return float(_moments(second_moments).sum())


def norm_inf(second_moments):
    """The norm ‖E[x²]‖_∞ = max_i E[x_i²] (KS15 eq. (12)).

    Parameters
    ----------
    second_moments : array_like, shape (d,)
        The attribute second moments E[x_i²], nonnegative and finite, not all zero.

    Returns
    -------
    float
        ‖E[x²]‖_∞.

    Raises
    ------
    InvalidParameterError
        ``second_moments`` is not a nonnegative finite vector with a positive sum.
    """
    return float(_moments(second_moments).max())


def _pair(second_moments, q):
    mom = _moments(second_moments)
    q = check_distribution("q", q, d=mom.shape[0])
    bad = (q == 0) & (mom > 0)
    if np.any(bad):
        i = int(np.flatnonzero(bad)[0])
        raise InvalidParameterError(
            f"`q` must be positive wherever E[x_i^2] > 0 (KS15 eq. (2)); got q[{i}]=0 with "
            f"second_moments[{i}]={mom[i]}.")
    ratio = np.zeros_like(mom)
    ratio[mom > 0] = mom[mom > 0] / q[mom > 0]
    return ratio


def sampling_sum(second_moments, q):
    """The sum S = Σ_i E[x_i²]/q_i = E‖x̃_{t,r}‖² (KS15 eq. (2)).

    Parameters
    ----------
    second_moments : array_like, shape (d,)
        The attribute second moments E[x_i²], nonnegative and finite, not all zero.
    q : array_like, shape (d,)
        A sampling distribution over the d attributes, with q_i > 0 wherever E[x_i²] > 0.

    Returns
    -------
    float
        S; terms with E[x_i²] = 0 count 0.

    Raises
    ------
    InvalidParameterError
        ``second_moments`` is not a nonnegative finite vector with a positive sum, ``q`` is
        not a distribution over d attributes, or q_i = 0 where E[x_i²] > 0.
    """
    return float(_pair(second_moments, q).sum())


def sampling_max(second_moments, q):
    """The maximum S_∞ = max_i E[x_i²]/q_i = ‖E[x̃_{t,r}²]‖_∞ (KS15 eq. (7)).

    Parameters
    ----------
    second_moments : array_like, shape (d,)
        The attribute second moments E[x_i²], nonnegative and finite, not all zero.
    q : array_like, shape (d,)
        A sampling distribution over the d attributes, with q_i > 0 wherever E[x_i²] > 0.

    Returns
    -------
    float
        S_∞; terms with E[x_i²] = 0 count 0.

    Raises
    ------
    InvalidParameterError
        ``second_moments`` is not a nonnegative finite vector with a positive sum, ``q`` is
        not a distribution over d attributes, or q_i = 0 where E[x_i²] > 0.
    """
    return float(_pair(second_moments, q).max())


def rho_ridge(second_moments):
    """KS15's improvement ratio ρ_ridge = ‖E[x²]‖_{1/2} / (d E[‖x²‖₁]) (KS15 eq. (11)).

    Parameters
    ----------
    second_moments : array_like, shape (d,)
        The attribute second moments E[x_i²], nonnegative and finite, not all zero.

    Returns
    -------
    float
        The ratio, in [1/d, 1], with E[‖x²‖₁] = Σ_i E[x_i²]; 1 for equal moments.

    Raises
    ------
    InvalidParameterError
        ``second_moments`` is not a nonnegative finite vector with a positive sum.
    """
    mom = _moments(second_moments)
    return evaluate("KS15.Eq11.rho_ridge", d=mom.shape[0], N_half=norm_half(mom),
                    N_one=norm_one(mom))


def rho_lasso(second_moments):
    """KS15's improvement ratio ρ_lasso = ‖E[x²]‖₁ / (d ‖E[x²]‖_∞) (KS15 eq. (12)).

    Parameters
    ----------
    second_moments : array_like, shape (d,)
        The attribute second moments E[x_i²], nonnegative and finite, not all zero.

    Returns
    -------
    float
        The ratio, in [1/d, 1]; 1 for equal moments.

    Raises
    ------
    InvalidParameterError
        ``second_moments`` is not a nonnegative finite vector with a positive sum.
    """
    mom = _moments(second_moments)
    return evaluate("KS15.Eq12.rho_lasso", d=mom.shape[0], N_one=norm_one(mom),
                    N_inf=norm_inf(mom))


def second_moments_of(X):
    """The second moments E[x_i²] of the empirical distribution of the rows of X.

    Parameters
    ----------
    X : array_like, shape (m, d)
        A finite data set, one example a row.

    Returns
    -------
    ndarray, shape (d,)
        (1/m) Σ_t X[t, i]², the moments KS15's bounds and samplers take (``second_moments``).

    Raises
    ------
    InvalidParameterError
        ``X`` is not a nonempty two-dimensional array of finite numbers.
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[0] == 0:
        raise InvalidParameterError(f"`X` must be a nonempty 2-d array; got shape {X.shape}.")
    if not np.all(np.isfinite(X)):
        raise InvalidParameterError("`X` must be finite.")
    return np.mean(X * X, axis=0)


def two_phase_H(A, eps):
    """The phase-1 estimate H = ‖2A + (10/3)ε‖_{1/2} of ‖E[x²]‖_{1/2} (KS15 Lemma 3.11).

    Parameters
    ----------
    A : array_like, shape (d,)
        Phase 1's estimates of E[x_i²] (KS15 Alg. 2), nonnegative; may be all zeros (phase 1
        saw no nonzero attribute: a legitimate estimate on sparse data).
    eps : float
        The accuracy ε >= 0 of Lemma 3.11, added to every coordinate.

    Returns
    -------
    float
        H, which Thm 3.12's step size uses; ‖(10/3)ε‖_{1/2} > 0 when A is zero and ε > 0.

    Raises
    ------
    InvalidParameterError
        ``A`` is not a nonnegative finite vector, ``eps`` < 0, or both are zero (H would be 0).
    """
    A = check_nonnegative_vector("A", A, positive_sum=False)
    e = check_scalar("eps", eps)
    if e < 0:
        raise InvalidParameterError(f"`eps` must be >= 0; got eps={e}.")
    if not e > 0 and not A.sum() > 0:
        raise InvalidParameterError("`A` and `eps` must not both be zero (H would be 0).")
    return norm_half(2 * A + 10.0 / 3.0 * e)
