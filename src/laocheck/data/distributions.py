"""Distributions with exactly known population risk and constrained optimum.

For any distribution of (x, y) the population risk of a linear predictor is a quadratic in w:

    L_D(w) = ½ E[(wᵀx − y)²] = ½ (wᵀΣw − 2cᵀw + E[y²]),   Σ = E[xxᵀ], c = E[xy],

so L_D is exact once (Σ, c, E[y²]) are (HK12 eq. (1), KS15 Sec. 1; CB11 uses (wᵀx − y)², twice
this: ``risk(w, loss="squared")``). Each class here computes these moments in closed form
(or, for a finite data set, by exact averaging), samples from the distribution with a numpy
``Generator``, states the sup of ‖x‖₂, ‖x‖∞ and |y| (so a theorem's assumptions can be checked),
and gives the certified minimiser over an L2 or L1 ball (:mod:`laocheck.data._solvers`).

Σ is kept in the structure the distribution has (:class:`~laocheck.data.SecondMoments`):
diagonal for independent attributes (CB11's and HK12's hard instances), diagonal + rank one for
KS15 Sec. 5.1's Bernoulli attributes and the correlated signs, so L_D(w), w* and its certificate
cost O(d) time and memory at any d; ``Sigma`` builds the d × d matrix on request (small d).
A finite data set keeps its dense Σ.

``oracle(rng)`` is the attribute-efficient alternative to ``sample``: an example source whose
attributes are drawn when a learner's kernel asks for them (``laocheck.data._oracle``, with
the cost per example and the exactness argument per distribution), for the learners'
``fit_oracle``.

Sampling draws whole rows (the learners' ``fit(X, y)`` reads a matrix); the correlated signs
take their sign and Bernoulli bits from one 64-bit draw per attribute (the Bernoulli bit
compares the top 53 bits with √ρ exactly as ``Generator.random() < √ρ`` does, the sign is the
lowest bit), so their law is the one stated, at a fraction of the cost.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .._validation import check_int, check_positive, check_rng, check_scalar, check_vector
from ..exceptions import InvalidParameterError
from ._oracle import (CB11HardOracle, CorrelatedSignsOracle, EmpiricalOracle, HK12HardOracle,
                      PowerLawOracle)
from ._solvers import SecondMoments, minimize_l1_ball, minimize_l2_ball

__all__ = ["Distribution", "ScaledLabels", "PowerLawBernoulli", "CorrelatedSigns", "CB11HardInstance",
           "HK12HardInstance", "EmpiricalDistribution", "digits_distribution"]

#: Certificates laocheck accepts for w* (duality gap or KKT residual <= 1e-10).
CERTIFICATE_TOL = 1e-10


@dataclass(frozen=True, eq=False)
class Distribution:
    """A distribution of (x, y) through its exact moments.

    The population risk L_D(w) = ½(wᵀΣw − 2cᵀw + E[y²]) (HK12 eq. (1), KS15 Sec. 1) is exact
    from these moments. This base class holds the moments; the concrete distributions below
    (its subclasses) also sample. Each parameter is an attribute of the same name.

    Parameters
    ----------
    moments : SecondMoments
        Σ = E[xxᵀ] in its structure (diagonal, diagonal + low rank, or dense).
    cross : ndarray, shape (d,)
        The cross moment c = E[xy].
    y2 : float
        The label's second moment E[y²].
    x_l2, x_linf, y_sup : float
        Sup of ‖x‖₂, ‖x‖∞ and |y| over the support (a theorem's assumptions are checked on
        them, e.g. ‖x‖₂ ≤ 1 and |y| ≤ B for HK12 Thm 3.1).
    name : str
        A readable name.
    citation : str
        The paper and label the distribution comes from (``"laocheck"`` for our own).
    scaling : str
        How attributes and labels were scaled so that a theorem's assumptions hold.

    Attributes
    ----------
    d : int
        The dimension, ``cross.shape[0]``.
    Sigma : ndarray, shape (d, d)
        Σ as a dense array (built on first use; small d only).
    second_moments : ndarray, shape (d,)
        E[x_i²], the diagonal of Σ (read-only).
    """

    moments: SecondMoments
    cross: np.ndarray
    y2: float
    x_l2: float
    x_linf: float
    y_sup: float
    name: str = ""
    citation: str = ""
    scaling: str = ""
    _cache: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def d(self):
        return self.cross.shape[0]

    @property
    def Sigma(self):
        """Σ = E[xxᵀ] as a d × d array (built from ``moments``; small d only)."""
        if "Sigma" not in self._cache:
            self._cache["Sigma"] = self.moments.dense()
        return self._cache["Sigma"]

    @property
    def second_moments(self):
        """E[x_i²] (the diagonal of Σ; computed once, read-only)."""
        if "second_moments" not in self._cache:
            diag = self.moments.diag()
            diag.flags.writeable = False
            self._cache["second_moments"] = diag
        return self._cache["second_moments"]

    def risk(self, w, loss="half"):
        """Exact L_D(w) = ½E[(wᵀx − y)²] (``loss="half"``, HK12/KS15) or E[(wᵀx − y)²]
        (``loss="squared"``, CB11)."""
        w = check_vector("w", w, d=self.d)
        nonzero = w != 0
        if self.moments.structured and np.count_nonzero(nonzero) <= self.d // 8:
            # w is sparse (e.g. a lasso run that moved few coordinates): O(d) for the mask,
            # then O(nnz·rank) (a mask's nonzero() is ~5x faster than flatnonzero(w))
            support = np.nonzero(nonzero)[0]
            ws = w[support]
            val = 0.5 * (self.moments.quad_on(support, ws) - 2 * float(self.cross[support] @ ws)
                         + self.y2)
        else:
            val = 0.5 * (self.moments.quad(w) - 2 * self._cross_dot(w) + self.y2)
        val = max(float(val), 0.0)
        if loss == "half":
            return val
        if loss == "squared":
            return 2 * val
        raise InvalidParameterError(f"`loss` must be 'half' or 'squared'; got loss={loss!r}.")

    def _cross_dot(self, w):
        """E[xy]ᵀw, over the support of E[xy] when it has at most d/8 nonzeros (O(nnz))."""
        if "cross_support" not in self._cache:
            nz = np.flatnonzero(self.cross)
            self._cache["cross_support"] = nz if nz.shape[0] <= self.d // 8 else None
        support = self._cache["cross_support"]
        if support is None:
            return float(self.cross @ w)
        return float(self.cross[support] @ w[support])

    def minimizer(self, norm, B):
        """The certified argmin of L_D over {‖w‖ ≤ B} (norm "l2" or "l1"); cached."""
        B = check_positive("B", B)
        key = (norm, B)
        if key not in self._cache:
            if norm == "l2":
                sol = minimize_l2_ball(self.moments, self.cross, B)
            elif norm == "l1":
                sol = minimize_l1_ball(self.moments, self.cross, B)
            else:
                raise InvalidParameterError(f"`norm` must be 'l2' or 'l1'; got norm={norm!r}.")
            self._cache[key] = sol
        return self._cache[key]

    def optimal_risk(self, norm, B, loss="half"):
        """L_D(w*) over the ball: ½(2 f(w*) + E[y²])."""
        sol = self.minimizer(norm, B)
        val = max(0.0, sol.value + 0.5 * self.y2)
        return val if loss == "half" else 2 * val

    def excess_risk(self, w, norm, B, loss="half"):
        """L_D(w) − L_D(w*) (exact up to the certificate of w*)."""
        return self.risk(w, loss) - self.optimal_risk(norm, B, loss)

    def excess_risk_bound(self, norm, B, loss="half"):
        """Sup of the excess risk over predictors with ‖w‖ ≤ B (the range used for intervals).

        |wᵀx| ≤ ‖w‖₂‖x‖₂ (L2) or ‖w‖₁‖x‖∞ (L1), so (wᵀx − y)² ≤ (B·X + Y)² with X = sup‖x‖,
        Y = sup|y|; the excess risk is in [0, ½(B·X + Y)²] (twice that for CB11's loss).
        """
        X = self.x_l2 if norm == "l2" else self.x_linf
        top = 0.5 * (B * X + self.y_sup) ** 2
        return top if loss == "half" else 2 * top

    def sample(self, m, rng):
        """(X, y): m i.i.d. examples. Abstract: every concrete distribution (the subclasses of
        ``_Sampled`` below) implements it."""
        raise NotImplementedError(f"{type(self).__name__} does not define sample()")

    def oracle(self, rng):
        """An attribute oracle of this distribution drawing from ``rng`` (a seed or Generator):
        examples whose attributes are drawn on request, with the law of :meth:`sample`'s rows
        (``laocheck.data._oracle``). Abstract: the concrete distributions implement it."""
        raise NotImplementedError(f"{type(self).__name__} does not define oracle()")

    def scaled(self, factor):
        """(x, y) -> (x, factor·y) (the scale check): cross·factor, y2·factor²; samples are the
        same draws with the labels multiplied by ``factor``."""
        return ScaledLabels(self, factor)

    def assumptions(self, norm, B):
        """Which paper assumptions hold: ‖x‖₂ ≤ 1 (ridge), ‖x‖∞ ≤ 1 (lasso), |y| ≤ B."""
        return {"x_l2<=1": self.x_l2 <= 1 + 1e-12, "x_linf<=1": self.x_linf <= 1 + 1e-12,
                "|y|<=B": self.y_sup <= B * (1 + 1e-12)}


def _row_dot(X, w):
    """X @ w row by row in a fixed order (numpy's pairwise sum along each row, over the nonzero
    weights), so a row's label does not depend on how many rows are drawn at once (BLAS may
    sum differently for different shapes)."""
    nz = np.flatnonzero(w)
    return np.add.reduce(X[:, nz] * w[nz], axis=1)


class _Sampled(Distribution):
    def sample(self, m, rng):
        m = check_int("m", m, low=1)
        return self._draw(m, check_rng(rng))


class ScaledLabels(_Sampled):
    """The distribution of (x, c·y) for (x, y) from ``base``: same draws, labels times c.

    The scale check of a theorem's bound runs on it: under (x, y, B) -> (x, c·y, c·B) the
    excess risk and a bound such as HK12 Thm 3.1's 4B²√(2d/(km)) are multiplied by c²
    (``Formula.scaling``). E[xy] and |y| are multiplied by c, E[y²] by c².

    Parameters
    ----------
    base : Distribution
        A sampled distribution (one of the concrete classes of :mod:`laocheck.data`).
    factor : float
        The label factor c, finite and nonzero.

    Raises
    ------
    InvalidParameterError
        ``factor`` is zero or not a finite real number.
    """

    def __init__(self, base, factor):
        f = check_scalar("factor", factor)
        if f == 0:
            raise InvalidParameterError("`factor` must be nonzero.")
        super().__init__(moments=base.moments, cross=base.cross * f, y2=base.y2 * f * f,
                         x_l2=base.x_l2, x_linf=base.x_linf, y_sup=base.y_sup * abs(f),
                         name=f"{base.name} (y x {f:g})", citation=base.citation,
                         scaling=base.scaling + f"; y x {f:g}")
        object.__setattr__(self, "base", base)
        object.__setattr__(self, "factor", f)

    def _draw(self, m, rng):
        X, y = self.base.sample(m, rng)
        return X, self.factor * y

    def oracle(self, rng):
        """The base's oracle with labels times the factor."""
        o = self.base.oracle(rng)
        o.label_factor *= self.factor
        o.y_max *= abs(self.factor)
        return o


class PowerLawBernoulli(_Sampled):
    """KS15 Sec. 5.1's synthetic data: independent x_i ~ Bernoulli(μ_i), y = ⟨w, x⟩.

    Parameters
    ----------
    d : int
        Dimension, >= 1.
    alpha : float
        Power-law exponent, <= 0 (KS15 Sec. 5.1 uses 0, −0.5, −1 and −2).
    scenario : {"ridge", "lasso"}
        Which of KS15's two settings (the projection of u and the law of w). Default "ridge".
    B : float
        Bound on |y|, > 0. Default 1.
    weight_seed : int, SeedSequence or Generator
        Seed of the draw of w (unused when ``w`` is given). Default 0.
    w : array_like, shape (d,), optional
        The weight vector instead of KS15's random one; not all zeros.

    Attributes
    ----------
    mu : ndarray, shape (d,)
        The Bernoulli means μ.
    label_weights : ndarray, shape (d,)
        B·w/‖w‖₁, the weights of the label on the raw 0/1 vector.
    attribute_scale : float
        s = 1/√d (ridge) or 1 (lasso).

    Raises
    ------
    InvalidParameterError
        ``d`` not an integer >= 1, ``alpha`` > 0, an unknown ``scenario``, ``B`` <= 0, or ``w``
        of the wrong shape or all zeros.

    Notes
    -----
    u_i = i^α (α ≤ 0); μ = u projected on the unit L2 ball (``scenario="ridge"``, μ = u/‖u‖₂ since
    ‖u‖₂ ≥ u_1 = 1) or on the unit L∞ ball (``"lasso"``, μ = u since u_i ≤ 1). The weight vector
    is drawn as in KS15 Sec. 5.1 from ``weight_seed``: ±1 with probability ½ (ridge); ±1 with
    probability 0.15 each, 0 with 0.7 (lasso).

    Scaling (documented, so that the theorems' assumptions hold): ridge attributes are divided
    by √d (‖x‖₂ ≤ 1, HK12 Thm 3.1 / KS15 Thm 3.5; the 0/1 vectors of the paper have ‖x‖₂ up to √d),
    lasso attributes are the 0/1 values (‖x‖∞ ≤ 1); labels are y = B·⟨w, x_raw⟩/‖w‖₁, so
    |y| ≤ B. ρ_ridge and ρ_lasso are invariant under these scalings.

    Moments: Σ = s²(μμᵀ + diag(μ − μ²)) with s the attribute scale; E[x_i²] = s²μ_i.
    """

    def __init__(self, d, alpha, *, scenario="ridge", B=1.0, weight_seed=0, w=None):
        d = check_int("d", d, low=1)
        alpha = check_scalar("alpha", alpha)
        if alpha > 0:
            raise InvalidParameterError(f"`alpha` must be <= 0 (KS15 Sec. 5.1); got alpha={alpha}.")
        if scenario not in ("ridge", "lasso"):
            raise InvalidParameterError(
                f"`scenario` must be 'ridge' or 'lasso'; got scenario={scenario!r}.")
        B = check_positive("B", B)
        u = np.arange(1, d + 1, dtype=float) ** alpha
        mu = u / np.linalg.norm(u) if scenario == "ridge" else np.minimum(u, 1.0)
        rng = np.random.default_rng(weight_seed)
        if w is None:
            if scenario == "ridge":
                w = rng.choice([-1.0, 1.0], size=d)
            else:
                w = rng.choice([-1.0, 0.0, 1.0], size=d, p=[0.15, 0.7, 0.15])
                if not np.any(w):
                    w[0] = 1.0
        w = check_vector("w", w, d=d)
        if not np.any(w):
            raise InvalidParameterError("`w` must not be all zeros.")
        s = 1 / np.sqrt(d) if scenario == "ridge" else 1.0
        wt = B * w / np.abs(w).sum()                      # label weights on the raw 0/1 vector
        Sraw = SecondMoments(mu - mu * mu, mu, [[1.0]])      # μμᵀ + diag(μ − μ²)
        Sraw_wt = Sraw.matvec(wt)
        super().__init__(moments=SecondMoments(s * s * (mu - mu * mu), s * mu, [[1.0]]),
                         cross=s * Sraw_wt, y2=float(wt @ Sraw_wt),
                         x_l2=s * np.sqrt(d), x_linf=s, y_sup=B,
                         name=f"PowerLawBernoulli(d={d}, alpha={alpha:g}, {scenario})",
                         citation="KS15 Sec. 5.1",
                         scaling=("x = x_raw/sqrt(d); " if scenario == "ridge" else "x = x_raw; ")
                         + "y = B <w, x_raw>/||w||_1")
        object.__setattr__(self, "mu", mu)
        object.__setattr__(self, "label_weights", wt)
        object.__setattr__(self, "attribute_scale", s)
        object.__setattr__(self, "alpha", alpha)
        object.__setattr__(self, "scenario", scenario)

    def _draw(self, m, rng):
        raw = (rng.random((m, self.d)) < self.mu).astype(float)
        return raw * self.attribute_scale, _row_dot(raw, self.label_weights)

    def oracle(self, rng):
        """The support of x_raw per example by geometric skips over μ: O(Σ μ_i) per example
        (O(log d) at α = −1, a whole row at α = 0; the label y = B⟨w, x_raw⟩/‖w‖₁ with a dense
        w needs the support)."""
        return PowerLawOracle(self.mu, self.label_weights, self.attribute_scale, check_rng(rng),
                              self.second_moments, self.y_sup, checked=True)   # μ built nonincreasing


class CorrelatedSigns(_Sampled):
    """Bounded attributes with chosen second moments and a common correlation.

    Parameters
    ----------
    sigma : array_like, shape (d,)
        The scales σ_i >= 0: E[x_i²] = σ_i², |x_i| = σ_i.
    w : array_like, shape (d,)
        The weights of the label y = ⟨w, x⟩ + noise (the attribute ``w_true``).
    corr : float
        The common correlation ρ in [0, 1]: E[x_i x_j] = ρσ_iσ_j (i ≠ j). Default 0.
    noise : float
        The label noise amplitude a >= 0. Default 0.

    Raises
    ------
    InvalidParameterError
        Negative entries in ``sigma``, ``w`` of another length, ``corr`` outside [0, 1] or
        negative ``noise``.

    Notes
    -----
    x_i = σ_i s_i with s_i = z_0 if b_i else z_i, where z_0, z_1, ..., z_d are independent fair
    signs and b_i ~ Bernoulli(√ρ) independent; then E[x_i²] = σ_i², E[x_i x_j] = ρσ_iσ_j (i ≠ j).
    y = ⟨w, x⟩ + a·ζ with ζ a fair sign (label noise). ‖x‖₂ = ‖σ‖₂, ‖x‖∞ = max σ_i,
    |y| ≤ Σ|w_i|σ_i + a. (laocheck's construction; no paper.)
    """

    def __init__(self, sigma, w, *, corr=0.0, noise=0.0):
        sigma = check_vector("sigma", sigma)
        if np.any(sigma < 0):
            raise InvalidParameterError("`sigma` must be >= 0 entrywise.")
        d = sigma.shape[0]
        w = check_vector("w", w, d=d)
        corr = check_scalar("corr", corr)
        if not 0 <= corr <= 1:
            raise InvalidParameterError(f"`corr` must satisfy 0 <= corr <= 1; got corr={corr}.")
        noise = check_scalar("noise", noise)
        if noise < 0:
            raise InvalidParameterError(f"`noise` must be >= 0; got noise={noise}.")
        Sigma = SecondMoments((1 - corr) * sigma * sigma, sigma, [[corr]])   # ρσσᵀ + (1−ρ)diag(σ²)
        Sw = Sigma.matvec(w)
        super().__init__(moments=Sigma, cross=Sw, y2=float(w @ Sw + noise ** 2),
                         x_l2=float(np.linalg.norm(sigma)), x_linf=float(sigma.max()),
                         y_sup=float(np.abs(w) @ sigma + noise),
                         name=f"CorrelatedSigns(d={d}, corr={corr:g}, noise={noise:g})",
                         citation="laocheck")
        object.__setattr__(self, "sigma", sigma)
        object.__setattr__(self, "w_true", w)
        object.__setattr__(self, "corr", corr)
        object.__setattr__(self, "noise", noise)

    def _draw(self, m, rng):
        # one 64-bit draw per attribute: b_i = (top 53 bits)·2⁻⁵³ < √ρ (the law of
        # Generator.random() < √ρ), z_i = its lowest bit (fair, independent of the top bits);
        # column 0 gives z_0 (bit 0) and the label noise sign ζ (bit 1)
        raw = rng.integers(0, 2**64, size=(m, self.d + 1), dtype=np.uint64, endpoint=False)
        p = float(np.sqrt(self.corr))
        threshold = math.ceil(p * 2.0 ** 53)            # (r >> 11) < p·2⁵³  <=>  (r >> 11) < ⌈p·2⁵³⌉
        head = raw[:, 0]
        z0 = 1.0 - 2.0 * (head & np.uint64(1)).astype(float)
        zeta = 1.0 - 2.0 * ((head >> np.uint64(1)) & np.uint64(1)).astype(float)
        body = raw[:, 1:]
        X = 1.0 - 2.0 * (body & np.uint64(1)).astype(float)
        if threshold >= 2 ** 53:
            X[:] = z0[:, None]
        elif threshold > 0:
            b = (body >> np.uint64(11)) < np.uint64(threshold)
            np.copyto(X, np.broadcast_to(z0[:, None], X.shape), where=b)
        X *= self.sigma
        return X, _row_dot(X, self.w_true) + self.noise * zeta

    def oracle(self, rng):
        """(b_i, z_i) hashed per (example, i); the label reads the nnz(w) attributes of w's
        support: O(k + nnz(w)) per step (O(d) for a dense w)."""
        return CorrelatedSignsOracle(self.sigma, self.w_true, self.corr, self.noise,
                                     check_rng(rng), self.second_moments, self.x_linf,
                                     self.y_sup)


class CB11HardInstance(_Sampled):
    """CB11 Thm 1's hard distribution P_j (CB11 App. A.1).

    y is a fair sign, x_i = y with probability ½ + p·1{i = j} (else −y), independently,
    p = √ε. Σ = I, E[xy] = 2p e_j, E[y²] = 1; w* = 2p e_j with CB11-risk 1 − 4p² (App. A.2).
    ‖x‖∞ = 1, |y| = 1 (B ≥ 1 for |y| ≤ B).

    Parameters
    ----------
    d : int
        Dimension, >= 4 (CB11 Thm 1).
    eps : float
        The excess risk ε of the theorem, 0 < ε < 1/16 (CB11 Thm 1).
    j : int
        The informative attribute, 0 <= j <= d − 1. Default 0.

    Attributes
    ----------
    p : float
        √ε, the agreement bias of attribute j.

    Raises
    ------
    InvalidParameterError
        ``d`` < 4, ``eps`` outside (0, 1/16) or ``j`` outside [0, d − 1].
    """

    def __init__(self, d, eps, j=0):
        d = check_int("d", d, low=4)
        eps = check_scalar("eps", eps)
        if not 0 < eps < 1 / 16:
            raise InvalidParameterError(f"`eps` must satisfy 0 < eps < 1/16 (CB11 Thm 1); got eps={eps}.")
        j = check_int("j", j, low=0, high=d - 1, high_name="d - 1")
        p = np.sqrt(eps)
        cross = np.zeros(d)
        cross[j] = 2 * p
        super().__init__(moments=SecondMoments(np.ones(d)), cross=cross, y2=1.0, x_l2=np.sqrt(d), x_linf=1.0,
                         y_sup=1.0, name=f"CB11HardInstance(d={d}, eps={eps:g}, j={j})",
                         citation="CB11 Thm 1, App. A.1")
        object.__setattr__(self, "p", p)
        object.__setattr__(self, "j", j)

    def _draw(self, m, rng):
        y = rng.choice([-1.0, 1.0], size=m)
        agree = np.full(self.d, 0.5)
        agree[self.j] += self.p
        same = rng.random((m, self.d)) < agree
        return np.where(same, y[:, None], -y[:, None]), y

    def oracle(self, rng):
        """y per example, each x_i's agreement bit hashed per (example, i): O(1) per read."""
        return CB11HardOracle(self.d, self.j, float(self.p), check_rng(rng), self.second_moments)


class HK12HardInstance(_Sampled):
    """HK12 Thm B.1's hard instance (HK12 App. B.2).

    x is uniform over the rows r_i e_i (i ∈ T, |T| = 1/ε²), y = 1. Σ = ε² diag(1_T),
    E[xy] = ε² r, E[y²] = 1; w* = ε r (on T) has (1 − ε)² without the ½ (HK12 Lemma B.4).
    ‖x‖₂ = 1, |y| = 1.

    Parameters
    ----------
    d : int
        Dimension, >= 1.
    eps : float
        The accuracy ε of HK12 Thm B.1 (an O(ε)-approximate solution), in (0, 1] with 1/ε² an
        integer <= d (the size of T).
    seed : int, SeedSequence or Generator
        Seed of the draw of T (uniform 1/ε²-subset of the coordinates) and of the signs r.
        Default 0.

    Attributes
    ----------
    T : ndarray of int
        The support, sorted.
    r : ndarray
        The signs r_i (i ∈ T, in the order of T).

    Raises
    ------
    InvalidParameterError
        ``d`` < 1, or ``eps`` not making 1/ε² an integer <= d.
    """

    def __init__(self, d, eps, *, seed=0):
        d = check_int("d", d, low=1)
        eps = check_scalar("eps", eps)
        kk = 1 / eps ** 2 if eps > 0 else np.inf
        if not (0 < eps <= 1 and abs(kk - round(kk)) < 1e-9 and round(kk) <= d):
            raise InvalidParameterError(
                f"`eps` must make 1/eps^2 an integer <= d (HK12 App. B.2); got eps={eps} with d={d}.")
        kk = int(round(kk))
        rng = np.random.default_rng(seed)
        T = np.sort(rng.choice(d, size=kk, replace=False))
        r = rng.choice([-1.0, 1.0], size=kk)
        diag = np.zeros(d)
        diag[T] = 1.0 / kk
        cross = np.zeros(d)
        cross[T] = r / kk
        super().__init__(moments=SecondMoments(diag), cross=cross, y2=1.0, x_l2=1.0, x_linf=1.0, y_sup=1.0,
                         name=f"HK12HardInstance(d={d}, eps={eps:g})", citation="HK12 Thm B.1, App. B.2")
        object.__setattr__(self, "T", T)
        object.__setattr__(self, "r", r)
        object.__setattr__(self, "eps", eps)

    def _draw(self, m, rng):
        rows = rng.integers(0, self.T.shape[0], size=m)
        X = np.zeros((m, self.d))
        X[np.arange(m), self.T[rows]] = self.r[rows]
        return X, np.ones(m)

    def oracle(self, rng):
        """One row index per example: O(1) per read."""
        return HK12HardOracle(self.d, self.T, self.r, check_rng(rng), self.second_moments)


class EmpiricalDistribution(_Sampled):
    """The uniform distribution over the rows of a finite data set (X, y).

    Its "population" risk is the exact mean squared error on the set, Σ = XᵀX/n, c = Xᵀy/n,
    E[y²] = yᵀy/n. Sampling draws rows with replacement.

    Parameters
    ----------
    X : array_like, shape (n, d)
        The attributes (finite, n >= 1; the attribute ``X``).
    y : array_like, shape (n,)
        The labels (finite; the attribute ``y``).
    name : str
        A readable name. Default ``"empirical"``.
    citation : str
        Where the data set comes from.
    scaling : str
        How attributes and labels were scaled.

    Raises
    ------
    InvalidParameterError
        ``X`` not two-dimensional, ``y`` not of shape (n,), no rows, or non-finite values.
    """

    def __init__(self, X, y, *, name="empirical", citation="", scaling=""):
        X = np.asarray(X, dtype=float)
        y = np.asarray(y, dtype=float)
        if X.ndim != 2 or y.shape != (X.shape[0],) or X.shape[0] == 0:
            raise InvalidParameterError(
                f"`X` must be (n, d) and `y` (n,); got {X.shape} and {y.shape}.")
        if not (np.all(np.isfinite(X)) and np.all(np.isfinite(y))):
            raise InvalidParameterError("`X` and `y` must be finite.")
        n = X.shape[0]
        super().__init__(moments=SecondMoments(dense=X.T @ X / n), cross=X.T @ y / n, y2=float(y @ y / n),
                         x_l2=float(np.linalg.norm(X, axis=1).max()),
                         x_linf=float(np.abs(X).max()), y_sup=float(np.abs(y).max()),
                         name=name, citation=citation, scaling=scaling)
        object.__setattr__(self, "X", X)
        object.__setattr__(self, "y", y)

    def _draw(self, m, rng):
        rows = rng.integers(0, self.X.shape[0], size=m)
        return self.X[rows], self.y[rows]

    def oracle(self, rng):
        """One row index per example (uniform, with replacement): O(1) per read."""
        return EmpiricalOracle(self.X, self.y, check_rng(rng), self.second_moments)


def digits_distribution(digits=(3, 5), *, norm="l2", B=1.0):
    """scikit-learn's bundled 8×8 digits, two classes, as an empirical distribution.

    The "3 vs 5" task of HK12 Sec. 5 / KS15 Sec. 5.2, on digits instead of MNIST (bundled with
    scikit-learn: no network).

    Parameters
    ----------
    digits : tuple of two int
        The two distinct classes (a, b), 0 <= a, b <= 9: label −B for a, +B for b.
        Default (3, 5).
    norm : {"l2", "l1"}
        The geometry: attributes scaled so that max‖x‖₂ = 1 (``"l2"``, ridge: HK12 Thm 3.1's
        ‖x‖₂ ≤ 1) or max‖x‖∞ = 1 (``"l1"``, lasso: HK12 Thm 3.4's ‖x‖∞ ≤ 1). Default "l2".
    B : float
        The label magnitude, > 0. Default 1.

    Returns
    -------
    EmpiricalDistribution
        Uniform over the (scaled) rows of the two classes, with ``name``, ``citation`` and
        ``scaling`` set.

    Raises
    ------
    InvalidParameterError
        ``digits`` not two distinct classes in 0..9, an unknown ``norm``, or ``B`` <= 0.
    """
    B = check_positive("B", B)
    if isinstance(digits, (str, bytes)) or not hasattr(digits, "__len__") or len(digits) != 2:
        raise InvalidParameterError(
            f"`digits` must be two distinct digit classes (a, b) with 0 <= a, b <= 9; got "
            f"digits={digits!r}.")
    a, b = (check_int("digits", v, low=0, high=9) for v in digits)
    if a == b:
        raise InvalidParameterError(
            f"`digits` must be two distinct digit classes; got digits={digits!r} (one class: "
            "the labels would all be equal).")
    if norm not in ("l2", "l1"):
        raise InvalidParameterError(f"`norm` must be 'l2' or 'l1'; got norm={norm!r}.")
    # start-up: scikit-learn (about a second) loads only for the digits data set
    from sklearn.datasets import load_digits
    data = load_digits()
    keep = (data.target == a) | (data.target == b)
    X = data.data[keep].astype(float)
    y = np.where(data.target[keep] == b, B, -B)
    scale = np.linalg.norm(X, axis=1).max() if norm == "l2" else np.abs(X).max()
    return EmpiricalDistribution(X / scale, y, name=f"digits {a} vs {b} ({norm})",
                                 citation="scikit-learn digits; HK12 Sec. 5, KS15 Sec. 5.2",
                                 scaling=f"x / {scale:.6g} (max ||x||_{'2' if norm == 'l2' else 'inf'} = 1), y = +-B")
