"""The per-example estimates of CB11, HK12 and KS15 behind the protocol of ``_protocol``.

Four families share the kernels of ``_kernels.pyx``:

* :class:`ImportanceEstimator`: x̃ from k i.i.d. draws from q, φ̃ from draws from p — HK12
  Alg. 1-2 (AERR, AELR; q uniform), KS15 Alg. 1/3 (GAERR, GAELR; any q), KS15 Sec. 3.1/4.1
  (DDAERR q ∝ √E[x²] by eq. (4), DDAELR q ∝ E[x²] by Lemma 4.3) and KS15's improved inner
  product p ∝ |w|·√E[x²] (Sec. 3 after Lemma 3.3, Sec. 5);
* :class:`AEREstimator`: CB11 Fig. 2 and eqs. (6)-(8), in both readings of eq. (7);
* :class:`BaselineEstimator`: CB11 Fig. 1's per-example (A, 2·y·v);
* :class:`GenEstEstimator` and :class:`AESVREstimator`: HK12 Procedure 3 and Alg. 4.
"""

import math
from fractions import Fraction
from functools import partial

import numpy as np

from .._lazy import load
from .._validation import (check_distribution, check_int, check_nonnegative_vector,
                           check_positive, check_scalar, check_vector)
from ..exceptions import InvalidParameterError
# the literal reference serves the protocol's reference side only (``_reference`` and its
# helper ``_exact_distributions``); the kernels' constants are the fast side's own
# (``_paper_constants``): pyproject's import-linter contract allows this one import, and
# tests/estimators/test_paper_constants.py checks where ``ref`` is used
from ..reference import estimators as ref
from ._kernels import aer_kernel, baseline_kernel, genest_kernel, importance_kernel
from ._paper_constants import aesvr_coefficients, genest_sample_size, genest_small_orders
from ._protocol import MAX_MAGNITUDE, Estimator
from ._spec import (Budget, ClippingClaim, EstimatorSpec, SecondMomentClaim, cb11_gradient_target,
                    data_point_target, gradient_target, residual_target)
from ._samplers import AliasTable

# start-up: scipy.special loads on first use (AESVR's erf); `laocheck list` reads the specs only
special = load("scipy.special")

__all__ = [
    "ImportanceEstimator",
    "AEREstimator",
    "BaselineEstimator",
    "GenEstEstimator",
    "AESVREstimator",
    "aesvr_coefficients",
]

# -- the specs ---------------------------------------------------------------------------------
# One EstimatorSpec per registered estimator: the facts the papers state about it (citation,
# target, budget, geometry, support, claims, example parameters). The checks select from them.

def _examples(*inputs, **fixed):
    """``example_params`` of a spec: the inputs the estimator takes, at fixed, non-uniform,
    strictly positive values — q_i ∝ i, E[x_i²] ∝ i², η = 1/(2B); ``k_even`` rounds k down to
    an even k >= 2 (CB11)."""
    def example_params(d, *, k=2, B=1.0):
        weights = np.arange(1, d + 1, dtype=np.float64)
        out = {}
        for name in inputs:
            if name == "k":
                out["k"] = k
            elif name == "k_even":
                out["k"] = 2 * max(1, k // 2)
            elif name == "q":
                out["q"] = weights / weights.sum()
            elif name == "second_moments":
                out["second_moments"] = weights ** 2 / np.sum(weights ** 2)
            elif name == "eta":
                out["eta"] = 1 / (2 * B)
            elif name == "B":
                out["B"] = B
        out.update(fixed)
        return out
    return example_params


_ESTIMATES = {"data_point": ("x", data_point_target, "degree0"),
              "residual": ("wᵀx − y", residual_target, "degree1"),
              "gradient": ("(wᵀx − y)·x", gradient_target, "degree1"),
              "clipped_gradient": ("clip((wᵀx − y)·x, 1/η) coordinatewise", gradient_target, None)}
_IMPORTANCE_BUDGETS = {"data_point": Budget("k", lambda k: k),
                       "residual": Budget("n_inner", lambda n_inner=1: n_inner),
                       "gradient": Budget("k + n_inner", lambda k, n_inner=1: k + n_inner),
                       "clipped_gradient": Budget("k + n_inner", lambda k, n_inner=1: k + n_inner)}


def _importance_specs(algorithm, citation, *, geometry, parts, inputs, unbiased_citation,
                      second_moment=None):
    """The specs of one importance-sampling algorithm (HK12 Alg. 1-2, KS15 Alg. 1/3 and its
    data-dependent variants): one per estimate it defines."""
    out = []
    for part in parts:
        estimates, target, scaling = _ESTIMATES[part]
        takes = [i for i in inputs.get(part, inputs["*"])]
        clip = None
        if part == "clipped_gradient":
            clip = ClippingClaim(unclipped=f"{algorithm}.gradient",
                                 citation="HK12 Alg. 2 line 13")
        out.append(EstimatorSpec(
            name=f"{algorithm}.{part}", citation=citation, estimates=estimates, target=target,
            budget=_IMPORTANCE_BUDGETS[part], geometry=geometry, support="finite",
            unbiased=part != "clipped_gradient", unbiased_citation=unbiased_citation,
            second_moment=second_moment if part == "gradient" else None,
            clipping=clip, scaling=scaling, example_params=_examples(*takes),
            exact_k=(1, 2, 3), check_k=2))
    return tuple(out)


_LASSO_PARTS = ("data_point", "residual", "gradient", "clipped_gradient")
_RIDGE_PARTS = ("data_point", "residual", "gradient")
_K_ETA = ("k", "eta")

HK12_AERR = _importance_specs(
    "HK12.AERR", "HK12 Alg. 1", geometry="l2", parts=_RIDGE_PARTS,
    inputs={"*": ("k",), "residual": ()}, unbiased_citation="HK12 Lemma 3.3",
    second_moment=SecondMomentClaim("HK12.Lemma3.3.G2", "HK12 Lemma 3.3", "E‖v‖²"))
HK12_AELR = _importance_specs(
    "HK12.AELR", "HK12 Alg. 2", geometry="l1", parts=_LASSO_PARTS,
    inputs={"*": ("k",), "residual": (), "clipped_gradient": _K_ETA},
    unbiased_citation="HK12 Lemma 3.8",
    second_moment=SecondMomentClaim("HK12.Lemma3.8.G2", "HK12 Lemma 3.8", "‖E[v²]‖∞"))
KS15_GAERR = _importance_specs(
    "KS15.GAERR", "KS15 Alg. 1", geometry="l2", parts=_RIDGE_PARTS,
    inputs={"*": ("k", "q"), "residual": ()}, unbiased_citation="KS15 Lemma B.2",
    second_moment=SecondMomentClaim("KS15.Lemma3.4.G2", "KS15 Lemma 3.4 with eq. (2)", "E‖v‖²"))
KS15_GAELR = _importance_specs(
    "KS15.GAELR", "KS15 Alg. 3", geometry="l1", parts=_LASSO_PARTS,
    inputs={"*": ("k", "q"), "residual": (), "clipped_gradient": ("k", "q", "eta")},
    unbiased_citation="KS15 Lemma B.2",
    second_moment=SecondMomentClaim("KS15.Lemma4.5.G2", "KS15 Lemma 4.5 with eq. (7)",
                                    "‖E[v²]‖∞"))
KS15_DDAERR = _importance_specs(
    "KS15.DDAERR", "KS15 Sec. 3.1, eq. (4)", geometry="l2", parts=_RIDGE_PARTS,
    inputs={"*": ("k", "second_moments"), "residual": ("second_moments",)},
    unbiased_citation="KS15 Lemma B.2",
    second_moment=SecondMomentClaim("KS15.Lemma3.4.G2", "KS15 Lemma 3.4 with eq. (2)", "E‖v‖²"))
KS15_DDAELR = _importance_specs(
    "KS15.DDAELR", "KS15 Sec. 4.1, Lemma 4.3", geometry="l1", parts=_LASSO_PARTS,
    inputs={"*": ("k", "second_moments"), "residual": ("second_moments",),
            "clipped_gradient": ("k", "second_moments", "eta")},
    unbiased_citation="KS15 Lemma B.2",
    second_moment=SecondMomentClaim("KS15.Lemma4.5.G2", "KS15 Lemma 4.5 with eq. (7)",
                                    "‖E[v²]‖∞"))
KS15_IMPROVED = _importance_specs(
    "KS15.ImprovedInnerProduct", "KS15 Sec. 3 (after Lemma 3.3), Sec. 5", geometry="l2",
    parts=("residual", "gradient"),
    inputs={"*": ("k", "second_moments"), "residual": ("second_moments",)},
    unbiased_citation="KS15 Sec. 3 (after Lemma 3.3)")

_CB11_AER_BUDGETS = {"data_point": Budget("k/2", lambda k: k // 2),
                     "residual": Budget("k/2", lambda k: k // 2),
                     "gradient": Budget("k", lambda k: k)}
CB11_AER = tuple(
    EstimatorSpec(
        name=f"CB11.AER.{part}", citation="CB11 Fig. 2, eqs. (6)-(8)",
        estimates=("2(wᵀx − y)·x" if part == "gradient" else _ESTIMATES[part][0]),
        target=cb11_gradient_target if part == "gradient" else _ESTIMATES[part][1],
        budget=_CB11_AER_BUDGETS[part], geometry="l1", support="finite", unbiased=True,
        unbiased_citation="CB11 Lemma 11", scaling=_ESTIMATES[part][2],
        example_params=_examples("k_even"), exact_k=(2, 4), k_max=lambda d: 2 * d, check_k=4)
    for part in ("data_point", "residual", "gradient"))

CB11_BASELINE = EstimatorSpec(
    name="CB11.Baseline.loss", citation="CB11 Fig. 1",
    estimates="(A = x xᵀ, 2y·x) stacked: rows 0..d-1 and row d",
    target=lambda w, x, y, **params: [[xi * xj for xj in x] for xi in x] + [[2 * y * xi
                                                                             for xi in x]],
    budget=Budget("k", lambda k: k), geometry="l1", support="finite",
    unbiased=False,        # CB11 Lemma 8's E[A_t] = x xᵀ is an ERRATUM (the diagonal is 0)
    unbiased_citation="CB11 Lemmas 8-9", scaling="last_row",
    example_params=_examples("k_even"), exact_k=(2, 4), k_max=lambda d: d, check_k=4,
    notes="CB11 Lemma 8's E[A_t] = x xᵀ is false as printed: registered as the ERRATUM "
          "CB11.Lemma8.expectation, its correction CB11.Lemma8.expectation_corrected")

HK12_GENEST = EstimatorSpec(
    name="HK12.GenEst.derivative", citation="HK12 Procedure 3",
    estimates="f′(wᵀx − y) = Σ_n a_n (wᵀx − y)^n",
    target=lambda w, x, y, coefficients=(), **params: sum(
        a * (sum(wi * xi for wi, xi in zip(w, x)) - y) ** n for n, a in enumerate(coefficients)),
    budget=Budget("3", lambda: 3, kind="expectation"), geometry="l2", support="unbounded",
    unbiased=True, unbiased_citation="HK12 Lemma 4.1",
    example_params=_examples("B", coefficients=[1.0, 0.5, -0.125, 0.0625]), exact_k=(0,),
    notes="f′(z) = 1 + z/2 − z²/8 + z³/16 in the examples (a cubic: finite expectation to "
          "enumerate); the series order is random, so the support is unbounded")


def _aesvr_target(part):
    def target(w, x, y, eps=0.5, delta=0.0, **params):
        z = float(sum(wi * xi for wi, xi in zip(w, x)) - y)
        fprime = 0.5 * (special.erf((z - delta) / eps) + special.erf((z + delta) / eps))
        return fprime if part == "residual" else [fprime * float(xi) for xi in x]
    return target


HK12_AESVR = tuple(
    EstimatorSpec(
        name=f"HK12.AESVR.{part}", citation="HK12 Alg. 4, eq. (7)",
        estimates="f_ε′(wᵀx − y)" + ("·x" if part == "gradient" else ""),
        target=_aesvr_target(part),
        budget=(Budget("k + 6", lambda k: k + 6, kind="expectation") if part == "gradient"
                else Budget("6", lambda: 6, kind="expectation")),
        geometry="l2", support="unbounded", unbiased=True,
        unbiased_citation="HK12 Lemma 4.1, Claim 4.3",
        example_params=(_examples("B", "k", eps=0.5, delta=0.1) if part == "gradient"
                        else _examples("B", eps=0.5, delta=0.1)),
        exact_k=(1, 2, 3), check_k=2,
        notes="unbiased up to the truncation of eq. (7)'s series at n = 170")
    for part in ("residual", "gradient"))


# -- finite range: bounds on every number a kernel forms (see _protocol, "Finite range") ---------
# Magnitudes are nonnegative; a product of magnitudes is 0 when a factor is 0 and inf on
# overflow, never NaN (0·inf). Called under np.errstate(all="ignore").

#: Largest k and n_inner: the kernels count a draw's k + n_inner reads in C longs and loop over
#: them per draw (2^31 − 1 reads of one draw already take seconds; more only repeats indices)
MAX_K = 2**31 - 1


def _mul(*factors):
    """The product of nonnegative magnitudes (arrays broadcast): 0 where a factor is 0."""
    out = np.float64(1.0)
    zero = False
    for f in factors:
        f = np.asarray(f, dtype=np.float64)
        zero = zero | (f == 0)
        out = out * f
    return np.where(zero, 0.0, out)


def _top(values):
    """max of a magnitude array (0 for an empty one), as float."""
    values = np.asarray(values, dtype=np.float64)
    return float(values.max()) if values.size else 0.0


def _target_bounds(part, w, x, y, factor=1.0):
    """Bounds on the residual target wᵀx − y (Σ|w_i x_i| + |y|) and the gradient target."""
    r0 = float(np.sum(_mul(np.abs(w), np.abs(x)))) + abs(y)
    if part in ("residual", "derivative"):
        return [(r0, "Σ|w_i x_i| + |y| (the target wᵀx − y)")]
    if part in ("gradient", "clipped_gradient"):
        return [(r0, "Σ|w_i x_i| + |y| (the target's wᵀx − y)"),
                (float(_mul(factor, r0, np.max(np.abs(x)))),
                 "(Σ|w_i x_i| + |y|)·max|x_i| (the target (wᵀx − y)·x)")]
    return []


def _gradient_target(w, x, y):
    return (float(w @ x) - y) * x


def _check_part(part, allowed):
    if part not in allowed:
        raise InvalidParameterError(f"`part` must be one of {sorted(allowed)}; got {part!r}.")
    return part


class ImportanceEstimator(Estimator):
    """The importance-sampled estimates of HK12 Alg. 1-2 and KS15 Alg. 1/3 and their variants.

    x̃ = (1/k) Σ_r x_{i_r}/q_{i_r} e_{i_r} (i_r ~ q i.i.d.), φ̃ = (w_j/p_j) x_j − y (j ~ p) and
    g̃ = φ̃ x̃, and for the lasso algorithms ḡ, g̃ clipped coordinatewise at 1/η.

    Parameters
    ----------
    algorithm : str
        Catalog id: ``"HK12.AERR"``, ``"HK12.AELR"``, ``"KS15.GAERR"``, ``"KS15.GAELR"``,
        ``"KS15.DDAERR"``, ``"KS15.DDAELR"`` or ``"KS15.ImprovedInnerProduct"``.
    part : {"data_point", "residual", "gradient", "clipped_gradient"}
    k : int, >= 1
        Draws for x̃ (with replacement, so any k >= 1 is allowed; k > d is legal but wasteful).
    q : array or None
        Data-point distribution of GAERR/GAELR (KS15 Alg. 1 line 4); uniform for HK12; derived
        from ``second_moments`` for DDAERR (eq. (4)) and DDAELR (Lemma 4.3).
    second_moments : array or None
        E[x_i²], i = 1..d (DDAERR, DDAELR, improved inner product).
    n_inner : int, >= 1
        Inner-product draws averaged in φ̃ (KS15 Sec. 5's even budget split; 1 in the papers'
        analysis and always 1 for HK12).
    eta : float, > 0
        Step size; ``clipped_gradient`` clips every coordinate at 1/η (HK12 Alg. 2 line 13).
    B : float, optional
        Norm bound, only used to report the paper's assumptions.
    check_assumptions : bool
        Refuse instances that break the paper's assumptions (see
        :class:`~laocheck.estimators.Estimator`). Default False.

    Raises
    ------
    InvalidParameterError
        An unknown ``algorithm`` or ``part``; ``k`` or ``n_inner`` not an integer >= 1
        (``n_inner`` must be 1 for HK12); ``eta`` missing or <= 0 for ``clipped_gradient``;
        ``second_moments`` negative or missing where required; an invalid ``q``; ``B`` <= 0.

    Notes
    -----
    Budget: k + n_inner attributes at most (k for ``data_point``, n_inner for ``residual``).
    When w = 0 the residual is −y and observes nothing (laocheck's fallback; see
    ``laocheck.reference.estimators``). q_i = 0 is allowed, but an instance with x_i ≠ 0 where
    q_i = 0 is refused: the estimate would be biased.
    """

    specs = HK12_AERR + HK12_AELR + KS15_GAERR + KS15_GAELR + KS15_DDAERR + KS15_DDAELR + \
        KS15_IMPROVED

    def __init__(self, algorithm, part, *, k=None, q=None, second_moments=None, n_inner=1,
                 eta=None, B=None, check_assumptions=False):
        super().__init__(B=B, check_assumptions=check_assumptions)
        if algorithm not in {s.algorithm for s in self.specs}:
            raise InvalidParameterError(f"unknown importance-sampling algorithm {algorithm!r}")
        self.algorithm = algorithm
        self.part = _check_part(part, {"data_point", "residual", "gradient", "clipped_gradient"})
        self.name = f"{algorithm}.{part}"
        self.citation = self.spec.citation
        self.paper = algorithm.split(".")[0]
        lasso = algorithm in ("HK12.AELR", "KS15.GAELR", "KS15.DDAELR")
        self.geometry = "l1" if lasso else "l2"
        self.kind = "improved" if algorithm == "KS15.ImprovedInnerProduct" else (
            "lasso" if lasso else "ridge")
        self.k = None if part == "residual" and k is None else check_int("k", k, low=1, high=MAX_K)
        self.n_inner = check_int("n_inner", n_inner, low=1, high=MAX_K)
        if self.paper == "HK12" and self.n_inner != 1:
            raise InvalidParameterError(
                f"`n_inner` must be 1 for {algorithm} (HK12 draws one inner-product index); "
                f"got n_inner={self.n_inner}.")
        self.eta = None
        if part == "clipped_gradient":
            if eta is None:
                raise InvalidParameterError("`eta` is required for the clipped gradient "
                                            "(HK12 Alg. 2 line 13 clips at 1/eta).")
            self.eta = check_positive("eta", eta)
        self.second_moments = None
        if second_moments is not None:
            moments = check_nonnegative_vector("second_moments", second_moments)
            with np.errstate(over="ignore"):
                if not np.isfinite(moments.sum()):
                    # only their ratios matter (q, p): a power of two keeps them exact and the
                    # sums finite (entries 2^64 times below the largest double ~ 0 in q anyway)
                    moments = moments * 2.0**-64
            self.second_moments = moments
        needs_moments = algorithm in ("KS15.DDAERR", "KS15.DDAELR", "KS15.ImprovedInnerProduct")
        if needs_moments and self.second_moments is None:
            raise InvalidParameterError(f"`second_moments` (E[x_i²]) is required for {algorithm}.")
        self.q = self._data_point_distribution(q)

    def _data_point_distribution(self, q):
        algorithm = self.algorithm
        self._q_rule = None
        if algorithm in ("HK12.AERR", "HK12.AELR"):
            if q is not None:
                raise InvalidParameterError(f"`q` is uniform in {algorithm}; use KS15.GAERR/GAELR "
                                            "for another data-point distribution.")
            return None
        if algorithm in ("KS15.GAERR", "KS15.GAELR"):
            if q is None:
                if self.part == "residual":
                    return None
                raise InvalidParameterError(f"`q` (the data-point distribution) is required for "
                                            f"{algorithm}.")
            return check_distribution("q", q)
        m = self.second_moments
        if algorithm == "KS15.ImprovedInnerProduct" and not (q is None or isinstance(q, str)):
            return check_distribution("q", q, d=m.shape[0])
        rule = {"KS15.DDAERR": "ridge", "KS15.DDAELR": "lasso"}.get(algorithm, q or "ridge")
        self._q_rule = rule
        if rule not in ("ridge", "lasso"):
            raise InvalidParameterError(f"`q` must be 'ridge', 'lasso' or an array; got {q!r}.")
        if q is not None and algorithm != "KS15.ImprovedInnerProduct":
            raise InvalidParameterError(f"`q` is computed from `second_moments` in {algorithm}.")
        weights = np.sqrt(m) if rule == "ridge" else m      # eq. (4) / Lemma 4.3
        return weights / weights.sum()

    def _params(self):
        out = []
        if self.k is not None:
            out.append(("k", self.k))
        if self.algorithm in ("KS15.GAERR", "KS15.GAELR") and self.q is not None:
            out.append(("q", self.q))
        if self.second_moments is not None:
            out.append(("second_moments", self.second_moments))
        if self.n_inner != 1:
            out.append(("n_inner", self.n_inner))
        if self.eta is not None:
            out.append(("eta", self.eta))
        if self.B is not None:
            out.append(("B", self.B))
        return out

    @property
    def budget(self):
        return {"data_point": self.k, "residual": self.n_inner}.get(
            self.part, (self.k or 0) + self.n_inner)

    def target_shape(self, d):
        return () if self.part == "residual" else (d,)

    def _validate_dims(self, d):
        for name, arr in (("second_moments", self.second_moments), ("q", self.q)):
            if arr is not None and arr.shape[0] != d:
                raise InvalidParameterError(
                    f"`{name}` must have length d={d} (the length of x); got {arr.shape[0]}.")

    def _target(self, w, x, y):
        if self.part == "data_point":
            return x.copy()
        if self.part == "residual":
            return float(w @ x) - y
        return _gradient_target(w, x, y)

    def _magnitude(self, w, x, y):
        """x̃ <= |x_i|/q_i (d|x_i| for uniform q), φ̃ <= max_{p_j>0} |w_j/p_j|·|x_j| + |y|,
        g̃ <= φ̃·x̃ entrywise; the coefficients w_j/p_j themselves; the targets."""
        ax = np.abs(x)
        out = _target_bounds(self.part, w, x, y)
        data = 0.0
        if self.part != "residual":
            if self.q is None:
                data = float(_mul(x.shape[0], _top(ax)))
                out.append((data, "d·max|x_i| (x̃ with uniform q)"))
            else:
                nz = self.q > 0
                data = _top(np.where(ax[nz] > 0, ax[nz] / self.q[nz], 0.0))
                out.append((data, "max |x_i|/q_i (x̃)"))
        if self.part != "data_point":
            p, coef = self._inner(w)
            phi = abs(y)
            if p is not None:
                nz = p > 0
                payload = _top(_mul(np.abs(coef[nz]), ax[nz]))
                out.append((_top(np.abs(coef[nz])), "max |w_j/p_j| (the inner-product weights)"))
                out.append((float(_mul(self.n_inner, payload)),
                            "n_inner·max |w_j/p_j|·|x_j| (the inner-product sum)"))
                phi = payload + abs(y)
            out.append((phi, "max |w_j/p_j|·|x_j| + |y| (φ̃)"))
            if self.part in ("gradient", "clipped_gradient"):
                # the clipped gradient forms g̃ before clipping it to 1/η: the same bound
                out.append((float(_mul(phi, data)), "|φ̃|·|x̃_i| (g̃)"))
        return out

    def _inner(self, w):
        """p and coef_j = w_j / p_j in the paper's own arithmetic (None if w has no mass)."""
        top = np.max(np.abs(w))
        scaled = w / top if top > 0 else w          # p is scale-free; scaling avoids underflow
        if self.kind == "ridge":
            weights = scaled * scaled
        elif self.kind == "lasso":
            weights = np.abs(scaled)
        else:
            weights = np.abs(scaled) * np.sqrt(self.second_moments)
        total = weights.sum()
        if not total > 0:
            return None, np.zeros_like(w)
        p = weights / total
        coef = np.zeros_like(w)
        nz = p > 0
        if self.paper == "HK12" and self.kind == "ridge":
            coef[nz] = float(w @ w) / w[nz]                     # HK12 Alg. 1 line 9
        elif self.paper == "HK12":
            coef[nz] = np.abs(w).sum() * np.sign(w[nz])         # HK12 Alg. 2 line 10
        else:
            coef[nz] = w[nz] / p[nz]                            # KS15 eq. (5)
        return p, coef

    def _prepare(self, w, x, y):
        d = x.shape[0]
        if self.part != "residual":
            if self.q is None:
                q_table, x_weight = None, np.full(d, d / self.k)
            else:
                missing = (self.q == 0) & (x != 0)
                if np.any(missing):
                    i = int(np.flatnonzero(missing)[0])
                    raise InvalidParameterError(
                        f"`q` must be positive wherever x is nonzero (else x̃ is biased); got "
                        f"q[{i}]=0 with x[{i}]={x[i]}.")
                q_table = AliasTable(self.q)
                x_weight = None
                xw = np.zeros(d)
                nz = self.q > 0                 # x_i/(k q_i) directly: 1/(k q_i) may overflow
                xw[nz] = x[nz] / (self.k * self.q[nz])
        else:
            q_table, x_weight = None, np.zeros(d)
        # x̃ does not read w: its w-dependent numbers are not formed (w may be any finite vector)
        p, coef = (None, np.zeros_like(w)) if self.part == "data_point" else self._inner(w)
        if p is not None and self.part != "data_point":
            self._check_inner_support(p, w, x)
        p_table = AliasTable(p if p is not None else np.ones(d))
        if x_weight is not None:
            xw = x * x_weight
        q_rows = None if q_table is None else q_table.with_payload(xw)
        p_rows = p_table.with_payload(coef * x)
        return (xw, q_rows, p_rows, y, self.k or 0, self.n_inner, p is None,
                (1.0 / self.eta) if self.eta else 0.0)

    def _check_inner_support(self, p, w, x):
        """Refuse p_j = 0 where w_j x_j ≠ 0 unless that part of wᵀx is below rounding.

        A zero p_j with w_j ≠ 0 comes from E[x_j²] = 0 (improved inner product) or from
        underflow when the |w_j| span more than ~150 orders of magnitude; the estimate then
        misses w_j x_j, which is tolerated only when it is below double-precision rounding of
        the scale ‖w‖₁‖x‖∞ of wᵀx.
        """
        with np.errstate(over="ignore"):                   # an infinite scale tolerates all
            contribution = np.abs(w * x)
            scale = np.abs(w).sum() * np.abs(x).max()      # Hölder: |wᵀx| <= ‖w‖₁‖x‖∞
        missing = (p == 0) & (contribution > 0)
        if np.any(missing) and contribution[missing].sum() > 1e-15 * scale:
            i = int(np.flatnonzero(missing)[np.argmax(contribution[missing])])
            if self.kind == "improved" and self.second_moments[i] == 0:
                raise InvalidParameterError(
                    f"`second_moments` must be positive wherever w·x is nonzero (else φ̃ is "
                    f"biased); got second_moments[{i}]=0 with w[{i}]·x[{i}]={w[i] * x[i]}.")
            raise InvalidParameterError(
                f"`w` spans too many orders of magnitude: the sampling weight of w[{i}]={w[i]} "
                f"underflows to 0 while w[{i}]·x[{i}] is not negligible.")

    def _run(self, rng, sink, n, prepared):
        importance_kernel(rng, sink, n, self.part, *prepared)

    def _exact_distributions(self):
        """q and E[x²] as exact Fractions (floats at their binary value), q renormalised
        exactly and, for the data-dependent rules, recomputed from the exact moments."""
        moments = None
        if self.second_moments is not None:
            moments = [Fraction(v) for v in self.second_moments]
        if self.q is None:
            return None, moments
        if self._q_rule is not None:
            weights = [ref.exact_sqrt(m) for m in moments] if self._q_rule == "ridge" else moments
        else:
            weights = [Fraction(v) for v in self.q]
        total = sum(weights)
        return [v / total for v in weights], moments

    def _reference(self, w, x, y, src):
        if self.paper == "HK12":
            lasso = self.kind == "lasso"
            if self.part == "data_point":
                return ref.hk12_data_point(x, self.k, src)
            if self.part == "residual":
                return (ref.hk12_aelr_residual if lasso else ref.hk12_aerr_residual)(w, x, y, src)
            g, seen = ref.hk12_gradient(w, x, y, self.k, src, lasso=lasso)
            if self.part == "clipped_gradient":
                eta = self.eta if w.dtype != object else Fraction(self.eta)
                g = ref.hk12_clip(g, eta)
            return g, seen
        q, moments = self.q, self.second_moments
        if w.dtype == object:
            q, moments = self._exact_distributions()
        kw = dict(kind=self.kind, second_moments=moments, n_inner=self.n_inner)
        if self.part == "data_point":
            return ref.ks15_data_point(x, self.k, q, src)
        if self.part == "residual":
            return ref.ks15_residual(w, x, y, src, **kw)
        g, seen = ref.ks15_gradient(w, x, y, self.k, q, src, **kw)
        if self.part == "clipped_gradient":
            eta = self.eta if w.dtype != object else Fraction(self.eta)
            g = ref.hk12_clip(g, eta)
        return g, seen


class AEREstimator(Estimator):
    """CB11's AER estimates (Fig. 2): v (eq. (6)), ŷ − y (eq. (7)) and 2(ŷ − y)v (eq. (8)).

    Parameters
    ----------
    part : {"data_point", "residual", "gradient"}
        The estimate: v (eq. (6)), ŷ − y (eq. (7)) or 2(ŷ − y)v (eq. (8)).
    k : int, even, >= 2, with k/2 <= d
        The budget: k/2 attributes for v (a uniform k/2-subset) and k/2 draws for ŷ.
    reading : {"figure", "text"}
        ``"figure"`` (default): the k/2 draws for ŷ are independent, as in Fig. 2's loop.
        ``"text"``: "without replacement according to the distribution defined by w" (the text
        before eq. (7)), read as successive sampling; it needs at least k/2 nonzero w_i
        (w = 0 samples uniformly in both readings).
    B : float, optional
        Norm bound, only used to report the paper's assumptions (CB11: ‖x‖∞ ≤ 1, ‖w‖₁ ≤ B).
    check_assumptions : bool
        Refuse instances that break the paper's assumptions (see
        :class:`~laocheck.estimators.Estimator`). Default False.

    Raises
    ------
    InvalidParameterError
        An unknown ``part`` or ``reading``, ``k`` not an even integer >= 2, or ``B`` <= 0
        (k/2 <= d is checked against each instance).

    Notes
    -----
    The target is CB11 Lemma 11's: E[2(ŷ − y)v] = 2(⟨w, x⟩ − y)x (the loss is (⟨w, x⟩ − y)²,
    without HK12's factor ½).
    """

    specs = CB11_AER
    geometry = "l1"

    def __init__(self, part, *, k, reading="figure", B=None, check_assumptions=False):
        super().__init__(B=B, check_assumptions=check_assumptions)
        self.part = _check_part(part, {"data_point", "residual", "gradient"})
        self.name = f"CB11.AER.{part}"
        self.citation = self.spec.citation
        self.k = check_int("k", k, low=2, high=MAX_K, even=True)
        if reading not in ("figure", "text"):
            raise InvalidParameterError(f"`reading` must be 'figure' or 'text'; got {reading!r}.")
        self.reading = reading

    def _params(self):
        out = [("k", self.k)]
        if self.reading != "figure":
            out.append(("reading", self.reading))
        if self.B is not None:
            out.append(("B", self.B))
        return out

    @property
    def budget(self):
        return self.k if self.part == "gradient" else self.k // 2

    def target_shape(self, d):
        return () if self.part == "residual" else (d,)

    def _validate_dims(self, d):
        if self.k // 2 > d:
            raise InvalidParameterError(
                f"`k` must satisfy 2 <= k <= 2*d for CB11 AER (a k/2-subset of the d "
                f"attributes); got k={self.k} with d={d}.")

    def _target(self, w, x, y):
        if self.part == "data_point":
            return x.copy()
        if self.part == "residual":
            return float(w @ x) - y
        return 2 * _gradient_target(w, x, y)

    def _magnitude(self, w, x, y):
        """v <= (2d/k)·max|x_i|; ŷ <= ‖w‖₁·max_{w_i≠0}|x_i| (its running sum k/2 times that);
        2(ŷ − y)v; ‖w‖₁ itself; the targets."""
        ax = np.abs(x)
        d = x.shape[0]
        out = _target_bounds(self.part, w, x, y, factor=2.0)
        data = float(_mul(2.0 * d / self.k, _top(ax)))
        if self.part != "residual":
            out.append((data, "(2d/k)·max|x_i| (v)"))
        if self.part != "data_point":
            norm1 = float(np.sum(np.abs(w)))
            top_x = _top(ax[w != 0])
            out.append((norm1, "‖w‖₁"))
            out.append((float(_mul(self.k // 2, norm1, top_x)), "(k/2)·‖w‖₁·max|x_i| (Σ of ŷ)"))
            res = float(_mul(norm1, top_x)) + abs(y)
            out.append((res, "‖w‖₁·max|x_i| + |y| (ŷ − y)"))
            if self.part == "gradient":
                out.append((float(_mul(2.0, res, data)), "2|ŷ − y|·|v_i| (the gradient)"))
        return out

    def _prepare(self, w, x, y):
        d = x.shape[0]
        # v does not read w: its w-dependent numbers are not formed (w may be any finite vector)
        norm1 = 0.0 if self.part == "data_point" else float(np.abs(w).sum())
        if norm1 > 0:
            top = np.max(np.abs(w))
            p = np.abs(w / top) / float(np.abs(w / top).sum())
            signed_norm = np.sign(w) * norm1
        else:
            p = np.full(d, 1.0 / d)                  # "if w = 0 set P(i) = 1/d"
            signed_norm = np.zeros(d)
        if self.reading == "text" and self.part != "data_point" and norm1 > 0:
            support = int(np.count_nonzero(p))
            if support < self.k // 2:
                raise InvalidParameterError(
                    f"`w` must have at least k/2={self.k // 2} nonzero entries for "
                    f"reading='text' (k/2 draws without replacement from P ∝ |w|); got "
                    f"{support}.")
        return x, y, self.k, AliasTable(p), signed_norm, self.reading == "text", p

    def _run(self, rng, sink, n, prepared):
        x, y, k, table, signed_norm, without, p = prepared
        aer_kernel(rng, sink, n, self.part, x, y, k, table, signed_norm, without, p)

    def _reference(self, w, x, y, src):
        return ref.cb11_aer(w, x, y, self.k, src, part=self.part, reading=self.reading)


class BaselineEstimator(Estimator):
    """CB11 Fig. 1's per-example estimates, stacked: rows 0..d-1 are A_t, row d is 2·y·v_t.

    The target is what CB11 Lemmas 8 and 9 state: E[A_t] = x xᵀ and E[2 y v_t] = 2 y x.
    (As printed, Fig. 1 never fills the diagonal of A_t; laocheck keeps the box literal and
    reports the discrepancy as an erratum.)

    Parameters
    ----------
    k : int, even, >= 2, with k <= d
        The budget: k attributes of x, a uniform k-subset (without replacement).
    B : float, optional
        Norm bound, only used to report the paper's assumptions (CB11: ‖x‖∞ ≤ 1, ‖w‖₁ ≤ B).
    check_assumptions : bool
        Refuse instances that break the paper's assumptions (see
        :class:`~laocheck.estimators.Estimator`). Default False.

    Raises
    ------
    InvalidParameterError
        ``k`` not an even integer >= 2, or ``B`` <= 0 (k <= d is checked against each
        instance).
    """

    specs = (CB11_BASELINE,)
    geometry = "l1"

    def __init__(self, *, k, B=None, check_assumptions=False):
        super().__init__(B=B, check_assumptions=check_assumptions)
        self.part = "loss"
        self.name = "CB11.Baseline.loss"
        self.citation = self.spec.citation
        self.k = check_int("k", k, low=2, high=MAX_K, even=True)

    def _params(self):
        return [("k", self.k)] + ([("B", self.B)] if self.B is not None else [])

    @property
    def budget(self):
        return self.k

    def target_shape(self, d):
        return (d + 1, d)

    def _validate_dims(self, d):
        if self.k > d:
            raise InvalidParameterError(
                f"`k` must satisfy 2 <= k <= d for CB11 Baseline (k attributes without "
                f"replacement); got k={self.k} with d={d}.")

    def _target(self, w, x, y):
        return np.vstack([np.outer(x, x), 2 * y * x[None, :]])

    def _magnitude(self, w, x, y):
        """A_ij <= 2(d/k)²·|x_i x_j| (formed as (2(d/k)²·x_i)·x_j), 2|y|·(d/k)·|x_i|; x xᵀ."""
        top = _top(np.abs(x))
        ratio = x.shape[0] / self.k
        a_scale = 2.0 * ratio * ratio
        return [(float(_mul(a_scale, top)), "2(d/k)²·max|x_i|"),
                (float(_mul(a_scale, top, top)), "2(d/k)²·max|x_i|² (A)"),
                (float(_mul(top, top)), "max|x_i|² (the target x xᵀ)"),
                (float(_mul(2.0, abs(y), ratio)), "2|y|·d/k"),
                (float(_mul(2.0, abs(y), ratio, top)), "2|y|·(d/k)·max|x_i| (2y·v)")]

    def _prepare(self, w, x, y):
        return x, y, self.k

    def _run(self, rng, sink, n, prepared):
        baseline_kernel(rng, sink, n, *prepared)

    def _reference(self, w, x, y, src):
        return ref.cb11_baseline(x, y, self.k, src)


class _GenEstBase(Estimator):
    """Shared set-up of HK12 Procedure 3: N = ⌈4B²⌉ and the table of p ∝ w²."""

    budget_kind = "expectation"

    def _genest_tables(self, w):
        norm_sq = float(w @ w)
        d = w.shape[0]
        if norm_sq > 0:
            scaled = w / np.max(np.abs(w))                 # avoids underflow of w_j²
            p = scaled * scaled / float(scaled @ scaled)
            coef = np.zeros(d)
            coef[p > 0] = norm_sq / w[p > 0]
            return AliasTable(p), coef, False
        return AliasTable(np.ones(d)), np.zeros(d), True

    def _genest_magnitude(self, w, x, labels, x_scale, k=0):
        """HK12 Procedure 3's deterministic numbers: ‖w‖², the ‖w‖²/|w_j| over p_j > 0, one
        factor θ̃ <= Θ = max (‖w‖²/|w_j|)·|x_j|·x_scale + max|label|, the N-draw sums, the
        2^(n+1)|a_n|; for the gradient, x̃ <= d·max|x_i|.

        The product φ̂ = 2^(n+1) a_n θ̃_1···θ̃_n has a random number n of random factors: its
        worst case over every order and every index overflows on ordinary instances for events
        of negligible probability (an index of probability 1e-195, an order of probability
        2^-60), so it is not bounded up front; a draw that does overflow makes the call raise
        after the draws (``Estimator._check_finite_result``), never return inf or NaN.
        """
        ax = np.abs(x)
        out = []
        norm_sq = float(w @ w)
        theta_w = 0.0
        top = np.max(np.abs(w))
        if top > 0:
            scaled = w / top
            nz = scaled * scaled > 0                      # p_j > 0, as in _genest_tables
            coef = np.abs(norm_sq / w[nz])
            out.append((norm_sq, "‖w‖₂²"))
            out.append((_top(coef), "max ‖w‖₂²/|w_j|"))
            payload = _top(_mul(coef, ax[nz]))
            out.append((payload, "max (‖w‖₂²/|w_j|)·|x_j|"))
            theta_w = float(_mul(payload, x_scale))
        big_theta = theta_w + max(abs(v) for v in labels)
        out.append((big_theta, "Θ = max (‖w‖₂²/|w_j|)·|x_j|·x_scale + |y| (a factor θ̃)"))
        a = np.abs(np.asarray(self.coefficients, dtype=np.float64))
        N, small = self._genest_constants()
        orders = np.flatnonzero(a > 0)
        if np.any(orders > small):
            out.append((float(_mul(N, theta_w)), "N·max (‖w‖₂²/|w_j|)·|x_j|·x_scale"))
        if orders.size:
            log_a = float(np.max(np.log(a[orders]) + (orders + 1) * math.log(2.0)))
            out.append((math.exp(log_a) if log_a < 709.0 else math.inf, "max 2^(n+1)·|a_n|"))
        if k:
            out.append((float(_mul(x.shape[0], _top(ax))), "d·max|x_i| (x̃)"))
        return out

    def _genest_constants(self):
        N = genest_sample_size(self.B)
        if N > 2**62:                                      # the kernel's count is 64-bit
            raise InvalidParameterError(
                f"`B` must satisfy B <= 2^30 (GenEst draws N = ⌈4B²⌉ per factor, a 64-bit "
                f"count); got B={self.B!r}.")
        return N, genest_small_orders(N)


class GenEstEstimator(_GenEstBase):
    """HK12 Procedure 3: an unbiased estimate of f′(wᵀx − y) = Σ_n a_n (wᵀx − y)^n.

    Parameters
    ----------
    coefficients : array
        The coefficients a_0, a_1, ... (a_n = 0 beyond the array): the Taylor coefficients of f′.
    B : float, > 0
        The norm bound of the procedure; N = ⌈4B²⌉ draws per factor for orders n > 2 log₂ N.
    check_assumptions : bool
        Refuse instances that break the paper's assumptions (see
        :class:`~laocheck.estimators.Estimator`). Default False.

    Raises
    ------
    InvalidParameterError
        ``coefficients`` not a nonempty vector of finite numbers, or ``B`` missing or <= 0.

    Notes
    -----
    Budget: HK12 Lemma 4.1 states at most 3 attributes in expectation (under its assumptions
    ‖x‖₂ ≤ 1, ‖w‖₂ ≤ B, |y| ≤ B). When w = 0 each factor is −y, observed for free (fallback).
    """

    specs = (HK12_GENEST,)

    def __init__(self, *, coefficients, B, check_assumptions=False):
        super().__init__(B=B, check_assumptions=check_assumptions)
        if self.B is None:
            raise InvalidParameterError("`B` is required by GenEst (N = ⌈4B²⌉).")
        self.part = "derivative"
        self.name = "HK12.GenEst.derivative"
        self.citation = self.spec.citation
        self.coefficients = check_vector("coefficients", coefficients)

    def _params(self):
        return [("coefficients", self.coefficients), ("B", self.B)]

    budget = 3

    def target_shape(self, d):
        return ()

    def _target(self, w, x, y):
        theta = float(w @ x) - y
        return float(np.polynomial.polynomial.polyval(theta, self.coefficients))

    def _magnitude(self, w, x, y):
        """The numbers of Procedure 3 (``_genest_magnitude``) and the target Σ a_n θ^n at
        θ = wᵀx − y (<= Σ|a_n|·max(1, |θ|)^n, its Horner steps included; θ itself is bounded
        by Σ|w_i x_i| + |y|)."""
        out = self._genest_magnitude(w, x, [y], 1.0)
        (r0, text), = _target_bounds("residual", w, x, y)
        out.append((r0, text))
        if r0 <= MAX_MAGNITUDE:
            a = np.abs(np.asarray(self.coefficients, dtype=np.float64))
            base = max(1.0, abs(float(w @ x) - y))
            with np.errstate(divide="ignore"):
                log_terms = np.log(a) + np.arange(a.shape[0]) * math.log(base)
            log_sum = float(np.logaddexp.reduce(log_terms)) if a.size else -math.inf
            out.append((math.exp(log_sum) if log_sum < 709.0 else math.inf,
                        "Σ|a_n|·max(1, |wᵀx − y|)^n (the target)"))
        return out

    def _prepare(self, w, x, y):
        table, coef, w_zero = self._genest_tables(w)
        N, small = self._genest_constants()
        return x, table, coef, w_zero, N, small, np.array([y])

    def _run(self, rng, sink, n, prepared):
        x, table, coef, w_zero, N, small, labels = prepared
        genest_kernel(rng, sink, n, "derivative", x, 0, table, coef, w_zero,
                      self.coefficients, N, float(small), 1.0, labels)

    def _reference(self, w, x, y, src):
        a = self.coefficients
        if w.dtype == object:
            a = [Fraction(v) for v in a]
        return ref.hk12_genest(w, x, y, a, self.B, src)


class AESVREstimator(_GenEstBase):
    """HK12 Alg. 4 (AESVR): GenEst estimates of the smoothed loss's derivative and gradient.

    φ̃ = ½[GenEst(w, x/ε, (y+δ)/ε) + GenEst(w, x/ε, (y−δ)/ε)] and g̃ = φ̃ x̃.

    Parameters
    ----------
    part : {"residual", "gradient"}
        The estimate of the residual f_ε′(wᵀx − y), or of the gradient (times x).
    B, eps, delta : float
        Norm bound B > 0, smoothing accuracy ε > 0 and insensitivity δ >= 0 of f_ε (HK12
        Sec. 4.2). Default δ = 0.
    k : int, >= 1 (gradient only)
        Coordinates of x sampled for the gradient (HK12 Alg. 4).
    check_assumptions : bool
        Refuse instances that break the paper's assumptions (see
        :class:`~laocheck.estimators.Estimator`). Default False.

    Raises
    ------
    InvalidParameterError
        An unknown ``part``, ``B`` or ``eps`` not > 0, ``delta`` < 0, or (gradient) ``k``
        not an integer >= 1.

    Notes
    -----
    Target: f_ε′(wᵀx − y) (times x for the gradient) with f_ε′(z) = ½[ρ′((z−δ)/ε) + ρ′((z+δ)/ε)]
    and ρ′ = erf (Claim 4.3). The series of eq. (7) is truncated where its coefficients
    underflow (n = 170), which biases the estimate only when |wᵀx − y ± δ|/ε is large.
    Budget: k + 6 attributes in expectation (HK12 Thm 4.4), 6 for the residual.
    """

    specs = HK12_AESVR

    def __init__(self, part, *, B, eps, delta=0.0, k=None, check_assumptions=False):
        super().__init__(B=B, check_assumptions=check_assumptions)
        self.part = _check_part(part, {"residual", "gradient"})
        self.name = f"HK12.AESVR.{part}"
        self.citation = self.spec.citation
        self.eps = check_positive("eps", eps)
        self.delta = check_scalar("delta", delta)
        if self.delta < 0:
            raise InvalidParameterError(f"`delta` must be >= 0; got delta={self.delta}.")
        self.k = check_int("k", k, low=1, high=MAX_K) if part == "gradient" else None
        self.coefficients = aesvr_coefficients()

    def _params(self):
        out = [("B", self.B), ("eps", self.eps), ("delta", self.delta)]
        return ([("k", self.k)] if self.k else []) + out

    @property
    def budget(self):
        return 6 + (self.k or 0)

    def target_shape(self, d):
        return () if self.part == "residual" else (d,)

    def _target(self, w, x, y):
        z = float(w @ x) - y
        fprime = 0.5 * (special.erf((z - self.delta) / self.eps)
                        + special.erf((z + self.delta) / self.eps))
        return fprime if self.part == "residual" else fprime * x

    def _magnitude(self, w, x, y):
        """The numbers of the two GenEst calls on (x/ε, (y ± δ)/ε) (``_genest_magnitude``),
        |y| + δ, and the target's (wᵀx − y ± δ)/ε."""
        shifted = abs(y) + self.delta
        labels = [shifted / self.eps]
        out = [(shifted, "|y| + δ"), (labels[0], "(|y| + δ)/ε (the labels)"),
               (1.0 / self.eps, "1/ε (the scale of x/ε)")]
        out += self._genest_magnitude(w, x, labels, 1.0 / self.eps, k=self.k or 0)
        (r0, text), = _target_bounds("residual", w, x, y)
        out.append(((r0 + self.delta) / self.eps, "(Σ|w_i x_i| + |y| + δ)/ε (the target)"))
        if self.part == "gradient":
            out.append((float(_mul(1.0, _top(np.abs(x)))), "max|x_i| (the target)"))
        return out

    def _prepare(self, w, x, y):
        table, coef, w_zero = self._genest_tables(w)
        N, small = self._genest_constants()
        labels = np.array([(y + self.delta) / self.eps, (y - self.delta) / self.eps])
        return x, table, coef, w_zero, N, small, labels

    def _run(self, rng, sink, n, prepared):
        x, table, coef, w_zero, N, small, labels = prepared
        genest_kernel(rng, sink, n, self.part, x, self.k or 0, table, coef, w_zero,
                      self.coefficients, N, float(small), 1.0 / self.eps, labels)

    def _reference(self, w, x, y, src):
        return ref.hk12_aesvr(w, x, y, self.k, self.coefficients, self.B, self.eps, self.delta,
                              src, part=self.part)


def _registrations():
    """(name, factory, spec) of every estimator the classes declare a spec for (one name per
    spec), registered by :mod:`laocheck.estimators._registry` on its first lookup."""
    out = []
    for cls in (ImportanceEstimator, AEREstimator, BaselineEstimator, GenEstEstimator,
                AESVREstimator):
        for spec in cls.specs:
            if cls is ImportanceEstimator:
                factory = partial(cls, spec.algorithm, spec.part)
            elif cls in (AEREstimator, AESVREstimator):
                factory = partial(cls, spec.part)
            else:
                factory = cls
            out.append((spec.name, factory, spec))
    return tuple(out)


#: (name, factory, spec) of every estimator of CB11, HK12 and KS15, in registration order
REGISTRATIONS = _registrations()
