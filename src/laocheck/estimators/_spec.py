"""Declarative specs: one :class:`EstimatorSpec` per estimator, one :class:`LearnerSpec` per learner.

A spec states, in one place, every fact the papers give about an algorithm: its citation, what it
estimates and the target function (written from the paper, exact arithmetic), the attribute
budget as a formula in the parameters and whether it holds for every draw (``"exact"``) or in
expectation (``"expectation"``), the geometry of the assumptions (L2: ‖x‖₂ ≤ 1, ‖w‖₂ ≤ B; L1:
‖x‖∞ ≤ 1, ‖w‖₁ ≤ B), whether the outcomes have finite support (so they can be enumerated exactly),
the claims (unbiased, a second-moment bound, clipping, scaling) and the parameters of the small
exact instances used by the checks. The checks of :mod:`laocheck.checks` select what applies
from these fields — the way scikit-learn's estimator checks read estimator tags — never from
name prefixes.

A second-moment bound is named by its formula id in ``laocheck.bounds.FORMULAS`` (a string,
resolved by the checks layer: the estimators sit below ``bounds`` in the layering and never
import it).

The estimator classes of :mod:`laocheck.estimators._families` carry their specs (``spec`` on
an instance; ``specs`` on a class that implements several registered estimators); a user's own
estimator declares ``spec = EstimatorSpec(...)`` on its class. Learners carry theirs as
``spec`` on the class too, declared in ``laocheck.learners._specs`` (so that the catalog can
read them without importing scikit-learn).

Hand-written (no library states algorithm claims as data); frozen dataclasses, so a spec is a
value: equal specs compare equal and none can be changed after declaration.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Callable

from ..exceptions import InvalidParameterError

__all__ = ["Budget", "SecondMomentClaim", "ClippingClaim", "EstimatorSpec", "TheoremClaim",
           "LearnerSpec", "BUDGET_KINDS", "GEOMETRIES", "SUPPORTS", "SCALINGS",
           "data_point_target", "residual_target", "gradient_target", "cb11_gradient_target"]

#: "exact": every draw observes at most the budget; "expectation": the mean count does
BUDGET_KINDS = ("exact", "expectation")
#: "l2": ‖x‖₂ <= 1, ‖w‖₂ <= B (ridge); "l1": ‖x‖∞ <= 1, ‖w‖₁ <= B (lasso, CB11)
GEOMETRIES = ("l1", "l2")
#: "finite": finitely many outcomes (exact enumeration applies); "unbounded": e.g. GenEst's
#: random series order
SUPPORTS = ("finite", "unbounded")
#: How the estimate transforms under (w, x, y) -> (c·w, x, c·y), in distribution:
#: "degree0" unchanged (x̃), "degree1" times c (residual, gradient), "last_row" only the last
#: row times c (CB11 Fig. 1's stacked (A, 2·y·v)); None: no claim (clipping breaks it)
SCALINGS = (None, "degree0", "degree1", "last_row")


def _choice(name, value, allowed):
    if value not in allowed:
        raise InvalidParameterError(f"`{name}` must be one of {list(allowed)}; got {value!r}.")


# -- targets written from the papers (exact arithmetic: Fractions in, Fractions out) -----------
def _residual(w, x, y):
    return sum(wi * xi for wi, xi in zip(w, x)) - y


def data_point_target(w, x, y, **params):
    """The data point x: the target of HK12 Alg. 1 line 7, KS15 eq. (1), CB11 eq. (6).

    Parameters
    ----------
    w : sequence of numbers, length d
        The weight vector (Fractions for the exact checks, or floats).
    x : sequence of numbers, length d
        The example's attributes.
    y : number
        The label.
    **params
        The estimator's parameters (ignored: the target does not depend on them).

    Returns
    -------
    list
        The attributes x, as a list.
    """
    return list(x)


def residual_target(w, x, y, **params):
    """The residual wᵀx − y: the target of HK12 Alg. 1 line 9, KS15 eq. (5), CB11 eq. (7).

    Parameters
    ----------
    w : sequence of numbers, length d
        The weight vector (Fractions for the exact checks, or floats).
    x : sequence of numbers, length d
        The example's attributes.
    y : number
        The label.
    **params
        The estimator's parameters (ignored: the target does not depend on them).

    Returns
    -------
    number
        The residual wᵀx − y, exact for exact input.
    """
    return _residual(w, x, y)


def gradient_target(w, x, y, **params):
    """The gradient (wᵀx − y)·x of the loss ½(wᵀx − y)² (HK12 Lemma 3.3, KS15 Lemma B.2).

    Parameters
    ----------
    w : sequence of numbers, length d
        The weight vector (Fractions for the exact checks, or floats).
    x : sequence of numbers, length d
        The example's attributes.
    y : number
        The label.
    **params
        The estimator's parameters (ignored: the target does not depend on them).

    Returns
    -------
    list
        The vector (wᵀx − y)·x, exact for exact input.
    """
    r = _residual(w, x, y)
    return [r * xi for xi in x]


def cb11_gradient_target(w, x, y, **params):
    """The gradient 2(wᵀx − y)·x of CB11's loss (wᵀx − y)² (CB11 eq. (8) and Lemma 11).

    Parameters
    ----------
    w : sequence of numbers, length d
        The weight vector (Fractions for the exact checks, or floats).
    x : sequence of numbers, length d
        The example's attributes.
    y : number
        The label.
    **params
        The estimator's parameters (ignored: the target does not depend on them).

    Returns
    -------
    list
        The vector 2(wᵀx − y)·x (no factor ½ in CB11's loss), exact for exact input.
    """
    r = _residual(w, x, y)
    return [2 * r * xi for xi in x]


@dataclass(frozen=True)
class Budget:
    """An attribute budget: the formula as printed, as a function, and its kind.

    Each parameter is an attribute of the same name; :meth:`of` evaluates the budget.

    Parameters
    ----------
    text : str
        The formula as printed, e.g. ``"k + n_inner"``.
    formula : callable
        A function of the parameters it names (``lambda k, n_inner=1: k + n_inner``);
        parameters it has defaults for may be absent.
    kind : {"exact", "expectation"}
        ``"exact"``: every draw observes at most the budget; ``"expectation"``: the mean count
        does (GenEst, AESVR: HK12 Lemma 4.1, Thm 4.4). Default ``"exact"``.

    Raises
    ------
    InvalidParameterError
        ``kind`` is not one of ``BUDGET_KINDS``.
    """

    text: str
    formula: Callable[..., int]
    kind: str = "exact"

    def __post_init__(self):
        _choice("kind", self.kind, BUDGET_KINDS)

    def of(self, params):
        """The budget at ``params`` (a dict; only the names the formula takes are passed)."""
        sig = inspect.signature(self.formula)
        args = {n: params[n] for n in sig.parameters if n in params and params[n] is not None}
        try:
            return int(self.formula(**args))
        except TypeError as exc:
            raise InvalidParameterError(
                f"`params` must give the budget formula {self.text!r} its parameters "
                f"{list(sig.parameters)}; got {sorted(params)} ({exc}).") from None


@dataclass(frozen=True)
class SecondMomentClaim:
    """A paper's bound on the second moment of an estimate.

    Each parameter is an attribute of the same name.

    Parameters
    ----------
    formula : str
        An id of ``laocheck.bounds.FORMULAS`` (resolved by the checks), e.g.
        ``"HK12.Lemma3.3.G2"``.
    citation : str
        Where the paper states the bound (``"HK12 Lemma 3.3"``).
    quantity : str
        What it bounds: ``"E‖v‖²"`` (default, the L2 papers) or ``"‖E[v²]‖∞"`` (the L1 ones).
    """

    formula: str
    citation: str
    quantity: str = "E‖v‖²"


@dataclass(frozen=True)
class ClippingClaim:
    """A clipped estimate ḡ[i] = clip(g̃[i], 1/η) (HK12 Alg. 2 lines 12-13, KS15 Alg. 3).

    Each parameter is an attribute of the same name.

    Parameters
    ----------
    unclipped : str
        The registered estimator whose image under clip(·, 1/η) this one is.
    eta : str
        The name of the estimator's parameter holding η. Default ``"eta"``.
    example_eta : float
        An η at which the clipping is active on the exact instance. Default 4.
    citation : str
        Where the paper clips. Default ``"HK12 Alg. 2 line 13"``.
    """

    unclipped: str
    eta: str = "eta"
    example_eta: float = 4.0
    citation: str = "HK12 Alg. 2 line 13"


def _no_examples(d, *, k=2, B=1.0):
    return {}


@dataclass(frozen=True)
class EstimatorSpec:
    """Everything the papers state about one per-example estimate.

    Each parameter is an attribute of the same name; an estimator class carries its specs and
    the catalog's checks select what applies from them.

    Parameters
    ----------
    name : str
        ``"<PAPER>.<Algo>.<estimate>"``: the catalog id the estimator's checks are named after.
    citation : str
        The box or section defining it (``"HK12 Alg. 1"``).
    estimates : str
        The estimated quantity in words or symbols (``"(wᵀx − y)·x"``).
    target : callable ``(w, x, y, **params) -> value``
        The target written from the paper; works on Fractions (exact checks) and floats.
    budget : :class:`Budget`
        Attributes of x one draw observes: the formula and its kind.
    geometry : {"l2", "l1"}
        The paper's assumptions: ``"l2"`` ‖x‖₂ ≤ 1, ‖w‖₂ ≤ B (ridge); ``"l1"`` ‖x‖∞ ≤ 1,
        ‖w‖₁ ≤ B (lasso, CB11). Default ``"l2"``.
    support : {"finite", "unbounded"}
        ``"finite"``: finitely many outcomes, so exact enumeration applies; ``"unbounded"``:
        e.g. GenEst's random series order. Default ``"finite"``.
    unbiased : bool
        The papers claim E[estimate] = target (and it is true; a literal claim that is false is
        a registered ERRATUM check of its own, not a spec claim).
    unbiased_citation : str
        Where the paper states the unbiasedness (``"HK12 Lemma 3.3"``).
    second_moment : :class:`SecondMomentClaim` or None
        The paper's bound on E‖estimate‖², with its citation.
    clipping : :class:`ClippingClaim` or None
        The paper's clipping lemma, with its citation.
    scaling : {None, "degree0", "degree1", "last_row"}
        How the estimate transforms in distribution under (w, x, y) -> (c·w, x, c·y):
        unchanged (x̃), times c (residual, gradient), or only its last row times c (CB11 Fig. 1);
        None: no claim (clipping breaks it). See ``SCALINGS``.
    example_params : callable ``(d, *, k=2, B=1.0) -> dict``
        A valid parameter set in dimension d, for small exact instances (tests and checks).
    exact_k : tuple of int
        The k of the exact instances (``(0,)``: the estimator has no k).
    k_max : callable ``d -> int`` or None
        The largest valid k in dimension d (None: no limit).
    check_k : int
        The k of the catalog's property checks (on the 4-dimensional instance).
    notes : str
        Anything else a reader needs (e.g. the erratum a literal claim is registered as).

    Raises
    ------
    InvalidParameterError
        ``name`` not of the form ``"<PAPER>.<Algo>.<estimate>"``, a ``geometry``, ``support``
        or ``scaling`` outside its choices, a ``target`` that is not callable, or a ``budget``
        that is not a :class:`Budget`.
    """

    name: str
    citation: str
    estimates: str
    target: Callable
    budget: Budget
    geometry: str = "l2"
    support: str = "finite"
    unbiased: bool = False
    unbiased_citation: str = ""
    second_moment: SecondMomentClaim | None = None
    clipping: ClippingClaim | None = None
    scaling: str | None = None
    example_params: Callable = _no_examples
    exact_k: tuple = (1, 2, 3)
    k_max: Callable | None = None
    check_k: int = 2
    notes: str = ""

    def __post_init__(self):
        if not isinstance(self.name, str) or self.name.count(".") < 2:
            raise InvalidParameterError(
                f"`name` must read '<PAPER>.<Algo>.<estimate>'; got {self.name!r}.")
        _choice("geometry", self.geometry, GEOMETRIES)
        _choice("support", self.support, SUPPORTS)
        _choice("scaling", self.scaling, SCALINGS)
        if not callable(self.target):
            raise InvalidParameterError(f"`target` must be callable; got {self.target!r}.")
        if not isinstance(self.budget, Budget):
            raise InvalidParameterError(f"`budget` must be a Budget; got {self.budget!r}.")

    # -- derived facts -----------------------------------------------------------------------
    @property
    def paper(self):
        return self.name.split(".", 1)[0]

    @property
    def algorithm(self):
        """``"<PAPER>.<Algo>"``."""
        return self.name.rsplit(".", 1)[0]

    @property
    def part(self):
        """The estimate: ``"data_point"``, ``"residual"``, ``"gradient"``, ..."""
        return self.name.rsplit(".", 1)[1]

    @property
    def finite(self):
        return self.support == "finite"

    def k_values(self, d):
        """The k of the exact instances valid in dimension d."""
        ks = [k for k in self.exact_k if self.k_max is None or k <= self.k_max(d)]
        return tuple(ks)

    def claims(self):
        """The names of the claims this spec makes (for listings and selection)."""
        out = ["budget"]
        if self.unbiased:
            out.append("unbiased")
        if self.second_moment is not None:
            out.append("second_moment")
        if self.clipping is not None:
            out.append("clipping")
        if self.scaling is not None:
            out.append("scaling")
        if self.finite:
            out.append("finite_support")
        return out


@dataclass(frozen=True)
class TheoremClaim:
    """An excess-risk theorem about a learner, and its bound.

    Each parameter is an attribute of the same name.

    Parameters
    ----------
    id : str
        The theorem, e.g. ``"HK12.Thm3.1"``.
    bound : str
        The id of its bound in ``laocheck.bounds.FORMULAS`` (resolved by the experiments and
        checks layers), e.g. ``"HK12.Thm3.1.bound"``.
    """

    id: str
    bound: str


@dataclass(frozen=True)
class LearnerSpec:
    """Everything the papers state about one learner.

    Each parameter is an attribute of the same name; a learner class declares
    ``spec = LearnerSpec(...)``.

    Parameters
    ----------
    name : str
        ``"<PAPER>.<Algo>"``, e.g. ``"HK12.AERR"``.
    citation : str
        The box or section defining the learner (``"HK12 Alg. 1"``).
    budget : Budget
        The attributes of each example it observes, a formula in k.
    geometry : {"l2", "l1"}
        The paper's assumptions, as in :class:`EstimatorSpec`. Default ``"l2"``.
    estimator : str or None
        The registered estimator of its gradient step, or None. Default None.
    theorems : sequence of TheoremClaim
        Its excess-risk theorems (kept as a tuple).
    example_params : callable or None
        ``X -> dict``: the parameters a fit needs beyond k (e.g. E[x²] for DDAERR), or None.
    notes : str
        Anything else a reader needs.

    Raises
    ------
    InvalidParameterError
        ``name`` not of the form ``"<PAPER>.<Algo>"``, an unknown ``geometry``, or a
        ``budget`` that is not a :class:`Budget`.
    """

    name: str
    citation: str
    budget: Budget
    geometry: str = "l2"
    estimator: str | None = None
    theorems: tuple = ()
    example_params: Callable | None = None
    notes: str = ""

    def __post_init__(self):
        if not isinstance(self.name, str) or self.name.count(".") != 1:
            raise InvalidParameterError(f"`name` must read '<PAPER>.<Algo>'; got {self.name!r}.")
        _choice("geometry", self.geometry, GEOMETRIES)
        if not isinstance(self.budget, Budget):
            raise InvalidParameterError(f"`budget` must be a Budget; got {self.budget!r}.")
        object.__setattr__(self, "theorems", tuple(self.theorems))

    @property
    def paper(self):
        return self.name.split(".", 1)[0]

    @property
    def algorithm(self):
        """The class name in :mod:`laocheck.learners` (``"AERR"``)."""
        return self.name.split(".", 1)[1]

    def fit_params(self, X):
        """The parameters a fit on X needs beyond k and random_state."""
        return {} if self.example_params is None else dict(self.example_params(X))
