"""Literal transcriptions of the per-example estimates of CB11, HK12 and KS15 (the oracle).

Each function is one paper box (or the part of it that builds an estimate), written line by
line with the paper's line numbers in the comments, with no optimisation. It draws through a
*randomness source* (``laocheck.stats.exact``): ``src.uniform_int(n)``, ``src.categorical(p)``,
``src.subset(n, s)``, ``src.split_halves(items)``, ``src.geometric(p)``. With a
``RandomSource(rng)`` it is a slow sampler; with the exact enumerator every outcome is visited
with its exact probability, so its expectation can be computed with ``fractions.Fraction``.

Every function returns ``(value, observed)``: the estimate and the frozenset of attribute indices
of x it looked at (the label is always visible and not counted). Numbers may be floats or
Fractions (numpy ``object`` arrays); the arithmetic is the paper's, in the paper's order.

Where text and pseudo-code disagree both readings are here, named (CB11 eq. (7): "without
replacement according to P" in the text, independent draws in Fig. 2).

Fallbacks that are laocheck's, not the paper's, are marked FALLBACK: HK12 Alg. 1 line 1 and
KS15 Alg. 1 line 1 require w ≠ 0 and give no rule for w = 0 later; there wᵀx = 0 is known
without looking, so the residual estimate is −y and no attribute is observed.
"""

from fractions import Fraction
from math import factorial, isqrt, pi, sqrt
from numbers import Integral

import numpy as np

from ..exceptions import InvalidParameterError

__all__ = [
    "aesvr_coefficients",
    "cb11_baseline",
    "cb11_aer",
    "hk12_data_point",
    "hk12_aerr_residual",
    "hk12_aelr_residual",
    "hk12_gradient",
    "hk12_clip",
    "hk12_genest",
    "genest_sample_size",
    "genest_small_orders",
    "hk12_aesvr",
    "ks15_data_point",
    "ks15_residual",
    "ks15_gradient",
    "exact_sqrt",
    "check_source",
]


def check_source(src, *methods):
    """Refuse, before any draw, a ``src`` that is not a randomness source with ``methods``.

    A ``numpy.random.Generator`` is the commonest mistake: it has no ``uniform_int``,
    ``categorical``, ``subset`` or ``split_halves``, and its own ``geometric`` counts from 1
    (this module's from 0), so it would fail deep inside with an AttributeError or, worse, draw
    from the wrong distribution. ``laocheck.stats.exact.RandomSource(rng)`` wraps one.

    Raises
    ------
    InvalidParameterError
        Naming what to pass instead.
    """
    if isinstance(src, (np.random.Generator, np.random.RandomState)) or \
            not all(callable(getattr(src, m, None)) for m in methods):
        kind = "a numpy Generator" if isinstance(src, np.random.Generator) else \
            "a numpy RandomState" if isinstance(src, np.random.RandomState) else \
            f"{type(src).__name__} without " + \
            ", ".join(m for m in methods if not callable(getattr(src, m, None)))
        raise InvalidParameterError(
            f"`src` must be a randomness source with {', '.join(methods)}: wrap a numpy "
            f"Generator as laocheck.stats.exact.RandomSource(rng) (or use the exact "
            f"enumerator's source); got {kind}.")


def _zeros(d, like):
    """A length-d zero vector of the number type of ``like`` (float or object/Fraction)."""
    like = np.asarray(like)
    if like.dtype == object:
        return np.array([Fraction(0)] * d, dtype=object)
    return np.zeros(d, dtype=np.float64)


def _sgn(v):
    return int(v > 0) - int(v < 0)


def _norm1(w):
    return sum(abs(v) for v in w)


def _norm2_sq(w):
    return sum(v * v for v in w)


def exact_sqrt(v):
    """√v, exact (a Fraction) when v is the square of a rational, else a float."""
    if isinstance(v, (Fraction, int)):
        v = Fraction(v)
        rn, rd = isqrt(v.numerator), isqrt(v.denominator)
        if rn * rn == v.numerator and rd * rd == v.denominator:
            return Fraction(rn, rd)
    return float(v) ** 0.5


# ----------------------------------------------------------------------------------------------
# CB11 (Cesa-Bianchi, Shalev-Shwartz, Shamir 2011)
# ----------------------------------------------------------------------------------------------

def cb11_baseline(x, y, k, src):
    """One iteration of CB11 Fig. 1 (Baseline): the per-example (A, 2·y·v).

    Returns a (d + 1, d) array: rows 0..d-1 hold A, row d holds 2·y·v (the per-example term
    that Fig. 1 adds to v̄, and whose expectation CB11 Lemma 9 states).
    """
    check_source(src, "subset", "split_halves")
    d = len(x)
    ratio = Fraction(d, k) if np.asarray(x).dtype == object else d / k
    v = _zeros(d, x)                                  # v = 0 ∈ R^d
    A = np.array([_zeros(d, x) for _ in range(d)])    # A = 0 ∈ R^{d×d}
    C = src.subset(d, k)                              # choose C of k entries, uniformly w/o repl.
    for c in C:                                       # for each c ∈ C
        v[c] = v[c] + ratio * x[c]                    #   v_c = v_c + (d/k) x_c
    I, J = src.split_halves(C)                        # randomly split C into I, J of size k/2
    ratio_sq = ratio ** 2
    for i in I:                                       # for each (i, j) ∈ I × J
        for j in J:
            A[i, j] = A[i, j] + 2 * ratio_sq * x[i] * x[j]
            A[j, i] = A[j, i] + 2 * ratio_sq * x[i] * x[j]
    out = np.vstack([A, (2 * y * v)[None, :]])
    return out, frozenset(C)


def cb11_aer(w, x, y, k, src, *, part="gradient", reading="figure"):
    """The estimates of one iteration of CB11 Fig. 2 (AER): v (eq. (6)), ŷ − y, 2(ŷ − y)v (eq. (8)).

    ``reading="figure"``: i drawn k/2 times independently from P (Fig. 2's loop).
    ``reading="text"``: j_1..j_{k/2} "without replacement according to the distribution defined
    by w" (Sec. 6, before eq. (7)), read as successive sampling: each draw from P restricted to
    the indices not yet drawn, renormalised.
    """
    check_source(src, "subset", "categorical")
    d = len(x)
    exact = np.asarray(x).dtype == object
    half = k // 2
    observed = set()
    v = _zeros(d, x)                                  # v = 0 ∈ R^d ; ŷ = 0
    yhat = Fraction(0) if exact else 0.0
    if part in ("data_point", "gradient"):
        C = src.subset(d, half)                       # choose C uniformly among k/2-subsets
        for j in C:                                   # for each j ∈ C
            observed.add(j)
            v[j] = v[j] + (Fraction(2, k) if exact else 2 / k) * d * x[j]   # v_j += (2/k) d x_j
        if part == "data_point":
            return v, frozenset(observed)
    norm1 = _norm1(w)
    if norm1 == 0:                                    # "if w = 0 set P(i) = 1/d"
        P = [Fraction(1, d) if exact else 1.0 / d] * d
    else:
        P = [abs(wi) / norm1 for wi in w]             # P(i) = |w_i| / ‖w‖₁
    drawn = []
    for _r in range(half):                            # for r = 1, ..., k/2
        if reading == "figure":
            i = src.categorical(P)                    # sample i from [d] based on P
        else:
            rest = sum(P[j] for j in range(d) if j not in drawn)
            i = src.categorical([0 if j in drawn else P[j] / rest for j in range(d)])
        drawn.append(i)
        observed.add(i)
        # ŷ += (2/k) sgn(w_i) ‖w‖₁ x_i
        yhat = yhat + (Fraction(2, k) if exact else 2 / k) * _sgn(w[i]) * norm1 * x[i]
    if part == "residual":
        return yhat - y, frozenset(observed)
    return 2 * (yhat - y) * v, frozenset(observed)   # eq. (8): ∇̃ℓ(w) = 2(ŷ − y)v


# ----------------------------------------------------------------------------------------------
# HK12 (Hazan and Koren 2012)
# ----------------------------------------------------------------------------------------------

def hk12_data_point(x, k, src):
    """HK12 Alg. 1 lines 3-7 (= Alg. 2 lines 4-8): x̃ from k uniform draws."""
    check_source(src, "uniform_int")
    d = len(x)
    observed = set()
    parts = []
    for _r in range(k):                               # 3: for r = 1 to k do
        i = src.uniform_int(d)                        # 4: pick i_{t,r} ∈ [d] uniformly, observe
        observed.add(i)
        xr = _zeros(d, x)
        xr[i] = d * x[i]                              # 5: x̃_{t,r} ← d x_t[i_{t,r}] e_{i_{t,r}}
        parts.append(xr)
    xt = sum(parts[1:], parts[0]) / k                 # 7: x̃_t ← (1/k) Σ_r x̃_{t,r}
    return xt, frozenset(observed)


def hk12_aerr_residual(w, x, y, src):
    """HK12 Alg. 1 lines 8-9: j ∝ w[j]², φ̃ = ‖w‖₂² x[j]/w[j] − y."""
    check_source(src, "categorical")
    norm_sq = _norm2_sq(w)
    if norm_sq == 0:
        return -y, frozenset()                        # FALLBACK (module docstring)
    j = src.categorical([wj * wj / norm_sq for wj in w])   # 8: j w.p. w[j]²/‖w‖₂², observe
    return norm_sq * x[j] / w[j] - y, frozenset([j])       # 9: φ̃ ← ‖w‖₂² x[j]/w[j] − y


def hk12_aelr_residual(w, x, y, src):
    """HK12 Alg. 2 lines 9-10: j ∝ |w[j]|, φ̃ = ‖w‖₁ sign(w[j]) x[j] − y."""
    check_source(src, "categorical")
    norm1 = _norm1(w)
    if norm1 == 0:
        return -y, frozenset()                        # FALLBACK (module docstring)
    j = src.categorical([abs(wj) / norm1 for wj in w])     # 9: j w.p. |w[j]|/‖w‖₁, observe
    return norm1 * _sgn(w[j]) * x[j] - y, frozenset([j])   # 10: φ̃ ← ‖w‖₁ sign(w[j]) x[j] − y


def hk12_gradient(w, x, y, k, src, *, lasso=False):
    """HK12 Alg. 1 lines 3-10 (``lasso=False``) or Alg. 2 lines 4-11: g̃ ← φ̃ · x̃."""
    check_source(src, "uniform_int", "categorical")
    xt, seen_x = hk12_data_point(x, k, src)
    residual = hk12_aelr_residual if lasso else hk12_aerr_residual
    phi, seen_phi = residual(w, x, y, src)
    return phi * xt, seen_x | seen_phi                # 10 (Alg. 2: 11): g̃_t ← φ̃_t · x̃_t


def hk12_clip(g, eta):
    """HK12 Alg. 2 lines 12-13: ḡ[i] ← clip(g̃[i], 1/η), clip(x, c) = max{min{x, c}, −c}."""
    c = 1 / eta
    return np.array([max(min(gi, c), -c) for gi in g], dtype=np.asarray(g).dtype)


def genest_sample_size(B):
    """N = ⌈4B²⌉ of HK12 Procedure 3 line 1, computed exactly (B as the rational it is)."""
    four_b_sq = 4 * Fraction(B) ** 2
    return -(-four_b_sq.numerator // four_b_sq.denominator)


def genest_small_orders(N):
    """The largest n with n ≤ 2 log₂ N (HK12 Procedure 3 line 3), i.e. with 2**n ≤ N**2."""
    return (N * N).bit_length() - 1


def hk12_genest(w, x, y, coefficients, B, src):
    """HK12 Procedure 3 (GenEst): φ̂ with E[φ̂] = f′(wᵀx − y) = Σ_n a_n (wᵀx − y)^n.

    ``coefficients[n]`` is a_n (a_n = 0 beyond the sequence). The attributes are observed as the
    procedure reads them, whether or not a_n vanishes.
    """
    check_source(src, "geometric", "categorical")
    N = genest_sample_size(B)                         # 1: N = ⌈4B²⌉
    n = src.geometric(Fraction(1, 2))                 # 2: Pr[n] = (1/2)^{n+1}, n ≥ 0
    norm_sq = _norm2_sq(w)
    p = None if norm_sq == 0 else [wj * wj / norm_sq for wj in w]
    observed = set()
    thetas = []
    small = n <= genest_small_orders(N)               # 3: if n ≤ 2 log₂ N
    for _r in range(n):                               # 4 / 9: for r = 1, ..., n
        if p is None:
            thetas.append(-y)                         # FALLBACK: w = 0, wᵀx = 0 is known
            continue
        if small:
            j = src.categorical(p)                    # 5: j w.p. w[j]²/‖w‖², observe x[j]
            observed.add(j)
            thetas.append(norm_sq * x[j] / w[j] - y)  # 6: θ̃_r ← ‖w‖² x[j]/w[j] − y
        else:
            js = [src.categorical(p) for _s in range(N)]   # 10: j_1..j_N i.i.d., observe
            observed.update(js)
            # 11: θ̃_r ← (1/N) Σ_s ‖w‖² x[j_s]/w[j_s] − y
            thetas.append(sum(norm_sq * x[js_] / w[js_] for js_ in js) / N - y)
    a_n = coefficients[n] if n < len(coefficients) else 0
    if a_n == 0:
        return a_n * 0, frozenset(observed)
    prod = 1
    for theta in thetas:
        prod = prod * theta
    return 2 ** (n + 1) * a_n * prod, frozenset(observed)   # 14: φ̂ ← 2^{n+1} a_n θ̃_1···θ̃_n


def hk12_aesvr(w, x, y, k, coefficients, B, eps, delta, src, *, part="gradient"):
    """HK12 Alg. 4: Alg. 1 with lines 8-9 replaced by the smoothed-loss residual.

    x′ ← x/ε; y± ← (y ± δ)/ε; φ̃ ← ½[GenEst(w, x′, y+) + GenEst(w, x′, y−)]; g̃ ← φ̃ x̃.
    """
    check_source(src, "uniform_int", "geometric", "categorical")
    observed = set()
    if part == "gradient":
        xt, seen = hk12_data_point(x, k, src)         # Alg. 1 lines 3-7 on the unscaled x
        observed |= seen
    x_prime = np.array([xi / eps for xi in x], dtype=np.asarray(x).dtype)   # x′_t ← x_t/ε
    y_plus, y_minus = (y + delta) / eps, (y - delta) / eps                  # y±_t ← (y_t ± δ)/ε
    g_plus, seen_plus = hk12_genest(w, x_prime, y_plus, coefficients, B, src)
    g_minus, seen_minus = hk12_genest(w, x_prime, y_minus, coefficients, B, src)
    phi = (g_plus + g_minus) / 2                      # φ̃_t ← ½[GenEst(·, y+) + GenEst(·, y−)]
    observed |= seen_plus | seen_minus
    if part == "residual":
        return phi, frozenset(observed)
    return phi * xt, frozenset(observed)              # Alg. 1 line 10: g̃ ← φ̃ · x̃


# ----------------------------------------------------------------------------------------------
# KS15 (Kukliansky and Shamir 2015)
# ----------------------------------------------------------------------------------------------

def ks15_data_point(x, k, q, src):
    """KS15 Alg. 1 lines 3-7 (= Alg. 3 lines 4-8): x̃ from k i.i.d. draws i ~ q, eq. (1)."""
    check_source(src, "categorical")
    d = len(x)
    observed = set()
    parts = []
    for _r in range(k):                               # 3: for r = 1 to k do
        i = src.categorical(q)                        # 4: pick i_{t,r} w.p. q_i, observe x[i]
        observed.add(i)
        xr = _zeros(d, x)
        xr[i] = x[i] / q[i]                           # 5: x̃_{t,r} ← (1/q_i) x_t[i] e_i
        parts.append(xr)
    xt = sum(parts[1:], parts[0]) / k                 # 7: x̃_t ← (1/k) Σ_r x̃_{t,r}
    return xt, frozenset(observed)


def ks15_inner_distribution(w, kind, second_moments=None):
    """The inner-product distribution p of KS15: Alg. 1 line 8 (``"ridge"``: p ∝ w²), Alg. 3
    line 9 (``"lasso"``: p ∝ |w|), or the improved p_i ∝ √(w_i² E[x_i²]) of KS15 Sec. 3 after
    Lemma 3.3 (``"improved"``). None when the weights all vanish."""
    if kind == "ridge":
        weights = [wi * wi for wi in w]
    elif kind == "lasso":
        weights = [abs(wi) for wi in w]
    else:
        weights = [exact_sqrt(wi * wi * m) for wi, m in zip(w, second_moments)]
    total = sum(weights)
    if total == 0:
        return None
    return [v / total for v in weights]


def ks15_residual(w, x, y, src, *, kind="ridge", second_moments=None, n_inner=1):
    """KS15 eq. (5) (Alg. 1 lines 8-9, Alg. 3 lines 9-10): φ̃ ← (w_j / p_j) x[j] − y, j ~ p.

    ``n_inner > 1`` averages n_inner i.i.d. inner-product estimates before subtracting y: the
    budget split of KS15 Sec. 5 ("split the attribute budget evenly between the data point
    estimation and the inner product estimation"), which the paper gives in words only.
    """
    check_source(src, "categorical")
    p = ks15_inner_distribution(w, kind, second_moments)
    if p is None:
        return -y, frozenset()                        # FALLBACK (module docstring)
    observed = set()
    terms = []
    for _s in range(n_inner):
        j = src.categorical(p)                        # 8: choose j w.p. p_j, observe x[j]
        observed.add(j)
        terms.append(w[j] / p[j] * x[j])              # 9: (w_j / p_j) x_t[j]
    return sum(terms[1:], terms[0]) / n_inner - y, frozenset(observed)


def ks15_gradient(w, x, y, k, q, src, *, kind="ridge", second_moments=None, n_inner=1):
    """KS15 Alg. 1 lines 3-10 / Alg. 3 lines 4-11: g̃ ← φ̃ · x̃."""
    check_source(src, "categorical")
    xt, seen_x = ks15_data_point(x, k, q, src)
    phi, seen_phi = ks15_residual(w, x, y, src, kind=kind, second_moments=second_moments,
                                  n_inner=n_inner)
    return phi * xt, seen_x | seen_phi                # 10: g̃_t ← φ̃_t · x̃_t


def aesvr_coefficients(n_terms=None):
    """Taylor coefficients of ρ′ = erf, HK12 eq. (7).

    a_{2n} = 0 and a_{2n+1} = 2(−1)^n/(√π n!(2n+1)): the series AESVR (HK12 Alg. 4) hands to
    GenEst (HK12 Procedure 3).

    Parameters
    ----------
    n_terms : int or None
        Keep the coefficients a_0..a_{n_terms-1}. Default None: truncate where the
        coefficients underflow in double precision (n! > 10^308, n = 170).

    Returns
    -------
    ndarray
        The coefficients a_0, a_1, ... as floats: 341 of them (a_0..a_340) by default, else ``n_terms``.

    Raises
    ------
    InvalidParameterError
        ``n_terms`` is not an integer in [1, 341] (beyond a_340, n! no longer converts to a
        double).
    """
    if n_terms is not None and (isinstance(n_terms, bool) or not isinstance(n_terms, Integral)
                                or not 1 <= n_terms <= 341):
        raise InvalidParameterError(
            f"`n_terms` must be None or an integer in [1, 341] (a_341 onwards underflow: n! "
            f"exceeds a double); got n_terms={n_terms!r}.")
    n_max = 170 if n_terms is None else min(170, (int(n_terms) + 1) // 2)
    a = np.zeros(2 * n_max + 1)
    for n in range(n_max):
        a[2 * n + 1] = 2.0 / sqrt(pi) * (-1) ** n / (factorial(n) * (2 * n + 1))
    return a if n_terms is None else a[:n_terms]
