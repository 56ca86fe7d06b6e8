"""Each theorem's formula of CB11, HK12 and KS15, cited, from one sympy source of truth.

Every formula is a :class:`Formula` in :data:`FORMULAS` (id ``"<paper>.<label>.<part>"``): a sympy
expression, its citation, whether it is literal (as printed) or a proof's version, and — where
the literal one disagrees with its proof — the erratum text and the id of the proof version.
The numbers come from those same expressions: :func:`evaluate` and the functions below call
plain-numpy functions printed from them once (``python -m laocheck.bounds._generate`` writes
``laocheck.bounds._numeric``; a test checks that it is up to date and equal to its source),
so importing ``laocheck.bounds`` and computing a step size or a bound loads no sympy (start-up
time of the learners). The sympy objects (:data:`FORMULAS`, :class:`Formula`, :data:`SYMBOLS`,
:func:`formula`, :func:`formulas`, :func:`sym`) load on first access; the symbolic checks of the
catalog verify exactly the expressions the numbers come from.

>>> from laocheck import bounds
>>> round(bounds.evaluate("HK12.Thm3.1.bound", d=100, k=4, m=10_000, B=1.0), 6)
0.282843
>>> [f.id for f in bounds.formulas("HK12.Thm3.4.eta*")]
['HK12.Thm3.4.eta', 'HK12.Thm3.4.eta_proof']

Step sizes for the learners (``eta="theory"``): :func:`ridge_step_size` (KS15 Thm 3.1's
minimiser 2B/(G√m), with G² of :func:`ridge_gradient_bound`) and :func:`lasso_step_size`
(KS15 Thm 4.1's minimiser √(log 2d/(5G²m)), with :func:`lasso_gradient_bound`); the printed step
sizes of each theorem are :func:`evaluate` of ``"HK12.Thm3.1.eta"``, ``"HK12.Thm3.4.eta"``,
``"KS15.Thm3.5.eta"``, ``"KS15.Thm4.6.eta"``, ``"KS15.Thm3.12.eta"``, ``"KS15.Thm4.7.eta"``,
``"CB11.Thm12.lambda"``.
"""

import numpy as np

from .._validation import check_int, check_nonnegative_vector
from ._evaluate import evaluate, info
from ._moments import (norm_half, norm_inf, norm_one, rho_lasso, rho_ridge, sampling_max,
                       sampling_sum, second_moments_of, two_phase_H)

__all__ = ["Formula", "FORMULAS", "SYMBOLS", "formula", "formulas", "evaluate", "info", "sym",
           "norm_half", "norm_one", "norm_inf", "sampling_sum", "sampling_max", "rho_ridge",
           "rho_lasso", "second_moments_of", "two_phase_H", "ridge_gradient_bound", "lasso_gradient_bound",
           "ridge_step_size", "lasso_step_size", "theorem_bounds", "UserBound", "user_bound",
           "user_bounds", "get_user_bound", "USER_BOUNDS", "resolve_bound", "parse_formula"]


_SYMPY_NAMES = frozenset({"Formula", "FORMULAS", "SYMBOLS", "formula", "formulas", "sym"})
#: a user's own bounds (``laocheck.bounds._user``), sympy too
_USER_NAMES = frozenset({"UserBound", "user_bound", "user_bounds", "get_user_bound",
                         "USER_BOUNDS", "resolve_bound", "parse_formula"})


def __getattr__(name):
    """The sympy side (FORMULAS, Formula, SYMBOLS, formula, formulas, sym), loaded on first use."""
    if name in _SYMPY_NAMES:
        # start-up: sympy costs about a second to import; the numbers never need it
        from . import _formulas
        return getattr(_formulas, name)
    if name in _USER_NAMES:
        # start-up: as above, sympy loads only when a user bound is used
        from . import _user
        return getattr(_user, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def ridge_gradient_bound(B, k, second_moments, q=None):
    """The bound G² = 4B²((1/k) Σ_i E[x_i²]/q_i + 1) on E‖g̃‖² (KS15 Lemma 3.4 with eq. (2)).

    Parameters
    ----------
    B : float
        The norm bound (> 0) of the ball the learner projects on.
    k : int
        Attributes sampled per example for the gradient (>= 1).
    second_moments : array_like, shape (d,)
        The attribute second moments E[x_i²].
    q : array_like, shape (d,), optional
        The sampling distribution of the attributes; uniform when None.

    Returns
    -------
    float
        G², the second-moment bound of the ridge gradient estimate.

    Raises
    ------
    InvalidParameterError
        ``B`` <= 0, ``k`` < 1, ``second_moments`` not a nonnegative vector with a positive
        sum, or ``q`` not a distribution with q_i > 0 wherever E[x_i²] > 0.
    """
    mom = np.asarray(second_moments, dtype=float)
    q = np.full(mom.shape[0], 1.0 / mom.shape[0]) if q is None else q
    return evaluate("KS15.Lemma3.4.G2", B=B, k=k, S=sampling_sum(mom, q))


def lasso_gradient_bound(B, k, second_moments, q=None):
    """The bound G² = 4B²((1/k) max_i E[x_i²]/q_i + 1) on ‖E[g̃²]‖_∞ (KS15 Lemma 4.5, eq. (7)).

    Parameters
    ----------
    B : float
        The norm bound (> 0) of the ball the learner projects on.
    k : int
        Attributes sampled per example for the gradient (>= 1).
    second_moments : array_like, shape (d,)
        The attribute second moments E[x_i²].
    q : array_like, shape (d,), optional
        The sampling distribution of the attributes; uniform when None.

    Returns
    -------
    float
        G², the coordinate-wise second-moment bound of the lasso gradient estimate.

    Raises
    ------
    InvalidParameterError
        ``B`` <= 0, ``k`` < 1, ``second_moments`` not a nonnegative vector with a positive
        sum, or ``q`` not a distribution with q_i > 0 wherever E[x_i²] > 0.
    """
    mom = np.asarray(second_moments, dtype=float)
    q = np.full(mom.shape[0], 1.0 / mom.shape[0]) if q is None else q
    return evaluate("KS15.Lemma4.5.G2", B=B, k=k, S_inf=sampling_max(mom, q))


def ridge_step_size(m, B, G2):
    """The step size η = 2B/(G√m) that minimises KS15 Thm 3.1's bound 2B²/(ηm) + ηG²/2.

    It is HK12 Thm 3.1's η for G² = 8B²d/k and KS15 Thm 3.5's η for q ∝ √E[x²].

    Parameters
    ----------
    m : int
        Number of examples (>= 1).
    B : float
        The norm bound (> 0).
    G2 : float
        The gradient second-moment bound G² (> 0), e.g. :func:`ridge_gradient_bound`.

    Returns
    -------
    float
        The step size η.

    Raises
    ------
    InvalidParameterError
        ``m`` < 1, ``B`` <= 0 or ``G2`` <= 0.
    """
    return evaluate("KS15.Thm3.1.eta", m=m, B=B, G=float(G2) ** 0.5)


def lasso_step_size(m, d, G2):
    """The step size η = √(log 2d/(5G²m)) that minimises KS15 Thm 4.1's B(log 2d/(ηm) + 5ηG²).

    It is KS15 Thm 4.6's η for q ∝ E[x²], and HK12 Thm 3.4's *proof* η for G² = 8B²d/k (not
    its printed η).

    Parameters
    ----------
    m : int
        Number of examples (>= 1).
    d : int
        Number of attributes (>= 1).
    G2 : float
        The gradient bound G² (> 0), e.g. :func:`lasso_gradient_bound`.

    Returns
    -------
    float
        The step size η.

    Raises
    ------
    InvalidParameterError
        ``m`` < 1, ``d`` < 1 or ``G2`` <= 0.
    """
    return evaluate("KS15.Thm4.1.eta", m=m, d=d, G=float(G2) ** 0.5)


def theorem_bounds(d, k, m, B, *, second_moments=None, delta=0.05, m1=None):
    """Every excess-risk theorem's bound at (d, k, m, B).

    The theorems: CB11 Thm 12, HK12 Thm 3.1 and 3.4, KS15 Thm 3.1, 3.5, 3.12, 4.1, 4.6 and 4.7.

    Parameters
    ----------
    d : int
        Number of attributes (>= 1).
    k : int
        Attributes sampled per example, 1 <= k <= d.
    m : int
        Number of examples (>= 1).
    B : float
        The norm bound (> 0).
    second_moments : array_like, shape (d,), optional
        E[x_i²], for KS15's data-dependent bounds; without them the worst case
        ‖E[x²]‖_{1/2} = ‖E[x²]‖₁ = d is used (and said so in each row's ``moments``).
    delta : float
        The failure probability of KS15's high-probability two-phase bounds. Default 0.05.
    m1 : int, optional
        Phase 1's examples of the two-phase bounds; m2 = m − m1. Default max(1, m // 10)
        (KS15 Sec. 5).

    Returns
    -------
    list of dict
        One row per bound: ``id`` (the formula), ``theorem``, ``citation``, ``value``,
        ``literal``, ``erratum``, ``note`` and ``moments``.

    Raises
    ------
    InvalidParameterError
        A value outside its range (``k`` > ``d``, ``m1`` >= ``m``, ...), named in the message.
    """
    d = check_int("d", d, low=1)
    k = check_int("k", k, low=1, high=d, high_name="d")
    m = check_int("m", m, low=2)             # two phases: m1 >= 1 and m2 = m - m1 >= 1
    if m1 is not None:
        m1 = check_int("m1", m1, low=1, high=m - 1, high_name="m - 1")
    if second_moments is not None:
        second_moments = check_nonnegative_vector("second_moments", second_moments, d=d)
    if second_moments is None:
        n_half = n_one = float(d)
        source = "worst case ||E x^2|| = d"
    else:
        mom = np.asarray(second_moments, dtype=float)
        n_half, n_one = norm_half(mom), norm_one(mom)
        source = "given second moments"
    m1 = max(1, m // 10) if m1 is None else m1
    m2 = m - m1
    rows = []

    def add(fid, label, **values):
        f = info(fid)
        rows.append({"id": fid, "theorem": label, "citation": f["citation"],
                     "value": evaluate(fid, **values), "literal": f["literal"],
                     "erratum": f["erratum"], "note": f["note"]})

    add("CB11.Thm12.bound_expectation", "CB11.Thm12", d=d, k=k, m=m, B=B)
    add("HK12.Thm3.1.bound", "HK12.Thm3.1", d=d, k=k, m=m, B=B)
    add("HK12.Thm3.4.bound", "HK12.Thm3.4", d=d, k=k, m=m, B=B)
    G2 = ridge_gradient_bound(B, k, np.full(d, 1.0 / d)) if second_moments is None else \
        ridge_gradient_bound(B, k, second_moments)
    add("KS15.Thm3.1.bound", "KS15.Thm3.1 (uniform q)", B=B, G=G2 ** 0.5, m=m)
    add("KS15.Thm3.5.bound", "KS15.Thm3.5", B=B, m=m, N_half=n_half, k=k)
    add("KS15.Thm3.12.bound_as", "KS15.Thm3.12 (w.p. 1)", B=B, m2=m2, d=d, k=k)
    add("KS15.Thm3.12.bound_hp_proof", "KS15.Thm3.12 (w.p. 1-delta)", B=B, m2=m2, k=k, d=d,
        N_half=n_half, delta=delta, m1=m1)
    G2l = lasso_gradient_bound(B, k, np.full(d, 1.0) if second_moments is None else second_moments)
    add("KS15.Thm4.1.bound", "KS15.Thm4.1 (uniform q)", B=B, G=G2l ** 0.5, d=d, m=m)
    add("KS15.Thm4.6.bound", "KS15.Thm4.6", B=B, d=d, m=m, N_one=n_one, k=k)
    add("KS15.Thm4.7.bound_as", "KS15.Thm4.7 (w.p. 1)", B=B, d=d, k=k, m2=m2)
    add("KS15.Thm4.7.bound_hp", "KS15.Thm4.7 (w.p. 1-delta)", B=B, N_one=n_one, d=d, k=k,
        m2=m2, delta=delta, m1=m1)
    for r in rows:
        r["moments"] = source
    return rows
