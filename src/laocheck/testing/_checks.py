"""``check_estimator``: the papers' claims checked on a user's own estimator, selected by claims.

The estimator implements the protocol of :mod:`laocheck.estimators` — at least ``target(w, x,
y)``, ``sample(w, x, y, n=, rng=)`` (a :class:`~laocheck.estimators.Draws`) and ``budget``;
``accumulate`` is optional (derived from ``sample``), ``reference(w, x, y, src)`` (one draw
through a randomness source, enumerable with Fractions) is optional and enables the exact
checks. What is checked is what the estimator claims: its ``spec``
(:class:`~laocheck.estimators.EstimatorSpec`, inherited by an estimator that wraps one of
laocheck's) or the ``claims`` argument. Each check is run on the estimator *as given* — its own
k, budget, target and sampler; nothing is replaced by laocheck's own estimator.

Checks (ids ``<label>.<property>``, label = the estimator's ``name`` or class name):

* ``unbiased.exact`` (reference, finite support): the exact mean of the reference equals the
  claimed target on each exact instance (d3, d4, w0 of :mod:`laocheck.estimators.instances`);
* ``unbiased.monte_carlo`` (finite support: the range comes from the enumeration): the sampler's
  mean, simultaneous empirical-Bernstein intervals at δ, contains the target;
* ``budget``: every draw (exact kind) or the mean count at δ (expectation kind) within the budget;
* ``kernel_matches_reference`` (reference, finite support): the sampler draws from the
  reference's exact distribution (multinomial test at δ);
* ``second_moment`` (reference, finite support): E‖v‖² <= the claimed G², exactly (the L2
  papers' claim: HK12 Lemma 3.3, KS15 Lemma 3.4 with eq. (2));
* ``second_moment_inf`` (reference, finite support): ‖E[v²]‖∞ <= the claimed G², exactly (the
  L1 papers' claim used by the lasso estimators: HK12 Lemma 3.8 as used in its Appendix A.5,
  KS15 Lemma 4.5 with eq. (7));
* ``clipping``: every coordinate of every draw within the threshold;
* ``scaling`` (reference, finite support): (c·w, x, c·y) transforms the estimate as claimed.

A check that examined nothing (no instance fits the estimator, zero draws) is INCONCLUSIVE.

Hand-written: scikit-learn's ``check_estimator`` is the model but checks other properties.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction as F
from typing import Any, Callable

import numpy as np

from .. import bounds, estimators, stats
from ..checks import Check, Result, Status, run
from ..checks._common import (draw_moments, exact_distribution, exact_mean, fstr,
                               mc_mean_verdict, sampler_matches_exact)
from ..estimators import EstimatorSpec
from ..estimators.instances import INSTANCES, as_float
from ..exceptions import InvalidParameterError
from ..stats import DEFAULT_DELTA

__all__ = ["Claims", "resolve_claims", "estimator_checks", "check_estimator",
           "estimator_checks_generator", "CheckFailure", "PROPERTIES"]

#: Every property check, in the order they run.
PROPERTIES = ("unbiased.exact", "unbiased.monte_carlo", "budget", "kernel_matches_reference",
              "second_moment", "second_moment_inf", "clipping", "scaling")
EXACT_INSTANCES = ("d3", "d4", "w0")
_CLAIM_KEYS = {"unbiased", "target", "budget", "budget_kind", "second_moment",
               "second_moment_inf", "q", "clipping", "finite_support", "scaling"}
#: The second-moment claims: claim key -> (the quantity bounded, the geometry whose smallest
#: B the formulas are evaluated at, the data-dependent symbol of KS15's formulas).
_MOMENTS = {"second_moment": ("E‖v‖²", "l2", "S"),
            "second_moment_inf": ("‖E[v²]‖∞", "l1", "S_inf")}


class CheckFailure(AssertionError):
    """Raised by :func:`check_estimator`: ``records`` holds every failing check's record."""

    def __init__(self, message, records):
        super().__init__(message)
        self.records = list(records)


@dataclass(frozen=True)
class Claims:
    """What an estimator claims, resolved to values the checks use.

    ``target`` (callable ``(w, x, y) -> value``, or None: unbiasedness not claimed), ``budget``
    (int) and ``budget_kind`` (``"exact"``/``"expectation"``), ``second_moment`` (callable
    ``(w, x, y, d) -> G²`` bounding E‖v‖², or None), ``second_moment_inf`` (the same for
    ‖E[v²]‖∞), ``clipping`` (threshold or None), ``finite_support``,
    ``scaling`` (one of ``laocheck.estimators.SCALINGS``), ``source`` (where they came from).
    """

    target: Callable | None
    budget: int | None
    budget_kind: str = "exact"
    second_moment: Callable | None = None
    second_moment_inf: Callable | None = None
    clipping: float | None = None
    finite_support: bool = False
    scaling: str | None = None
    source: str = "claims"


def _params(est):
    try:
        return dict(getattr(est, "params", {}) or {})
    except Exception:                      # a user's params property that fails: no params
        return {}


def _smallest_B(w, y, geometry):
    """The smallest B the papers' assumptions allow: ‖w‖ <= B (‖·‖₂ for L2, ‖·‖₁ for L1) and
    |y| <= B (the strongest claim)."""
    if geometry == "l1":
        norm = sum(abs(float(v)) for v in w)
    else:
        norm = math.sqrt(sum(float(v) ** 2 for v in w))
    return max(norm, abs(float(y)), 1e-300)


def _second_moment_callable(value, params, *, key="second_moment", q=None):
    """G² as a callable (w, x, y, d) -> bound on the quantity of claim ``key`` (E‖v‖² or
    ‖E[v²]‖∞): a number, a callable ``(w, x, y)``, or a formula id of :mod:`laocheck.bounds`
    evaluated at d, the estimator's k, B the smallest the assumptions allow, and — KS15's
    data-dependent formulas — S = Σ_i x_i²/q_i (KS15 eq. (2)) or S_inf = max_i x_i²/q_i
    (eq. (7)) of the instance (its data distribution: the point mass at x), ``q`` the
    data-point distribution (a vector; None: unknown, and a formula reading it is refused)."""
    quantity, geometry, data_symbol = _MOMENTS[key]
    name = f"`claims[{key!r}]`"
    if value is None:
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if not value > 0:
            raise InvalidParameterError(f"{name} must be > 0; got {value!r}.")
        return lambda w, x, y, d: float(value)
    if isinstance(value, str):
        formula = bounds.FORMULAS.get(value)
        if formula is None:
            raise InvalidParameterError(
                f"{name} must be a number, a callable or a formula id of "
                f"laocheck.bounds.FORMULAS; got {value!r}.")
        args = set(formula.args)
        known = {"B", "d", "k", data_symbol}
        if not args <= known:
            other = {"S": "second_moment", "S_inf": "second_moment_inf"}
            hint = "".join(f" (a formula in {s} belongs to claim {other[s]!r})"
                           for s in args & set(other))
            raise InvalidParameterError(
                f"{name}={value!r} needs {sorted(args - known)}, which check_estimator cannot "
                f"supply for {quantity}{hint}; pass a number or a callable instead.")
        if "k" in args and params.get("k") is None:
            raise InvalidParameterError(
                f"{name}={value!r} needs k, and the estimator has no `params['k']`.")
        if data_symbol in args and q is None:
            raise InvalidParameterError(
                f"{name}={value!r} needs {data_symbol}, which reads the data-point "
                "distribution q (KS15 eqs. (2), (7)): pass claims['q'] or give the estimator "
                "a `q` attribute.")
        qv = np.asarray(q, dtype=float)

        def bound(w, x, y, d):
            values = {"B": _smallest_B(w, y, geometry), "d": d, "k": params.get("k")}
            if data_symbol in args:
                if qv.shape != (d,):
                    raise InvalidParameterError(
                        f"`claims['q']` must have length d={d}; got {qv.shape[0]}.")
                x2 = np.array([float(v) ** 2 for v in x])
                values[data_symbol] = (bounds.sampling_sum(x2, qv) if data_symbol == "S"
                                       else bounds.sampling_max(x2, qv))
            return float(formula(**{a: values[a] for a in args}))
        return bound
    if callable(value):
        return lambda w, x, y, d: float(value(w, x, y))
    raise InvalidParameterError(
        f"{name} must be a number, a callable or a formula id; got {value!r}.")


def _sampling_distribution(est, spec=None, claimed=None):
    """q of KS15's S-formulas: ``claims['q']``, else the estimator's ``q`` attribute, else —
    an estimator declaring a registered spec — the q of laocheck's own estimator at the same
    parameters (DDAERR/DDAELR derive it from ``second_moments``: KS15 eq. (4), Lemma 4.3);
    None: unknown."""
    if claimed is not None:
        q = np.asarray(claimed, dtype=float)
        if q.ndim != 1 or not np.all(q >= 0) or not abs(q.sum() - 1) <= 1e-9:
            raise InvalidParameterError(
                f"`claims['q']` must be a probability vector; got {claimed!r}.")
        return q
    own = getattr(est, "q", None)
    if own is not None:
        return np.asarray(own, dtype=float)
    if spec is not None:
        try:
            return estimators.get(spec.name, **_params(est)).q
        except (InvalidParameterError, KeyError, TypeError):
            return None
    return None


def _from_spec(spec, est):
    params = _params(est)
    try:
        budget = spec.budget.of(params)
    except InvalidParameterError:
        budget = getattr(est, "budget", None)
    def spec_target(w, x, y):
        return spec.target(w, x, y, **params)
    target = spec_target if spec.unbiased else None
    clip = None
    if spec.clipping is not None:
        eta = params.get(spec.clipping.eta, getattr(est, spec.clipping.eta, None))
        clip = None if eta is None else 1 / float(eta)
    moments = {"second_moment": None, "second_moment_inf": None}
    if spec.second_moment is not None:
        key = {"E‖v‖²": "second_moment", "‖E[v²]‖∞": "second_moment_inf"}.get(
            spec.second_moment.quantity)
        if key is not None:
            try:
                moments[key] = _second_moment_callable(
                    spec.second_moment.formula, params, key=key,
                    q=_sampling_distribution(est, spec))
            except InvalidParameterError:
                pass            # a formula in quantities the instance does not give
    return Claims(target=target, budget=budget, budget_kind=spec.budget.kind,
                  second_moment=moments["second_moment"],
                  second_moment_inf=moments["second_moment_inf"], clipping=clip,
                  finite_support=spec.finite, scaling=spec.scaling, source=f"spec {spec.name}")


def resolve_claims(est, claims=None):
    """The :class:`Claims` of ``est``: ``claims`` (a dict, an
    :class:`~laocheck.estimators.EstimatorSpec` or :class:`Claims`) or else the estimator's own
    ``spec``. Dict keys: ``unbiased`` (True: for ``est.target``; a callable target), ``budget``
    (int; default ``est.budget``), ``budget_kind``, ``second_moment`` (number, callable
    ``(w, x, y) -> G²`` or a formula id of ``laocheck.bounds``) bounding E‖v‖² (HK12 Lemma
    3.3, KS15 Lemma 3.4), ``second_moment_inf`` (the same forms) bounding ‖E[v²]‖∞ (the lasso
    estimators: HK12 Lemma 3.8, KS15 Lemma 4.5), ``q`` (the data-point distribution that
    KS15's formulas in S / S_inf read; default the estimator's ``q``, else — a registered
    spec — laocheck's own estimator's at the same parameters),
    ``clipping`` (threshold), ``finite_support`` (bool), ``scaling``.

    A formula id is evaluated per instance at its d, the estimator's ``params['k']``, the
    smallest B the paper's assumptions allow (‖w‖₂ and |y| for E‖v‖², ‖w‖₁ and |y| for
    ‖E[v²]‖∞), and S = Σ_i x_i²/q_i or S_inf = max_i x_i²/q_i of the instance."""
    _check_protocol(est)
    if isinstance(claims, Claims):
        return claims
    if isinstance(claims, EstimatorSpec):
        return _from_spec(claims, est)
    if claims is None:
        spec = getattr(est, "spec", None)
        if isinstance(spec, EstimatorSpec):
            return _from_spec(spec, est)
        claims = {}
    if not isinstance(claims, dict):
        raise InvalidParameterError(
            f"`claims` must be a dict, an EstimatorSpec or None; got {type(claims).__name__}.")
    unknown = set(claims) - _CLAIM_KEYS
    if unknown:
        raise InvalidParameterError(
            f"`claims` has unknown keys {sorted(unknown)}; the claims are {sorted(_CLAIM_KEYS)}.")
    unbiased = claims.get("unbiased", claims.get("target"))
    if unbiased is True:
        target = est.target
    elif callable(unbiased):
        target = unbiased
    elif unbiased in (None, False):
        target = None
    else:
        raise InvalidParameterError(
            f"`claims['unbiased']` must be True, False or a callable target; got {unbiased!r}.")
    budget = claims.get("budget", getattr(est, "budget", None))
    if budget is not None and (isinstance(budget, bool) or not isinstance(budget, (int, np.integer))
                               or budget < 0):
        raise InvalidParameterError(f"`claims['budget']` must be an integer >= 0; got {budget!r}.")
    kind = claims.get("budget_kind", {"max": "exact"}.get(getattr(est, "budget_kind", "exact"),
                                                          getattr(est, "budget_kind", "exact")))
    if kind not in ("exact", "expectation"):
        raise InvalidParameterError(
            f"`claims['budget_kind']` must be 'exact' or 'expectation'; got {kind!r}.")
    clip = claims.get("clipping")
    if clip is not None and not (isinstance(clip, (int, float)) and clip > 0):
        raise InvalidParameterError(f"`claims['clipping']` must be a threshold > 0; got {clip!r}.")
    scaling = claims.get("scaling")
    if scaling not in (None, "degree0", "degree1", "last_row"):
        raise InvalidParameterError(
            f"`claims['scaling']` must be None, 'degree0', 'degree1' or 'last_row'; got "
            f"{scaling!r}.")
    finite = bool(claims.get("finite_support", hasattr(est, "reference")))
    spec = getattr(est, "spec", None)
    q = _sampling_distribution(est, spec if isinstance(spec, EstimatorSpec) else None,
                               claims.get("q"))
    return Claims(target=target, budget=None if budget is None else int(budget),
                  budget_kind=kind,
                  second_moment=_second_moment_callable(claims.get("second_moment"),
                                                        _params(est), q=q),
                  second_moment_inf=_second_moment_callable(
                      claims.get("second_moment_inf"), _params(est), key="second_moment_inf",
                      q=q),
                  clipping=None if clip is None else float(clip), finite_support=finite,
                  scaling=scaling, source="claims")


def _check_protocol(est):
    if isinstance(est, type):
        raise InvalidParameterError(
            f"`est` must be an estimator object, not the class {est.__name__}: pass "
            f"{est.__name__}(...) with its parameters.")
    missing = [m for m in ("target", "sample") if not callable(getattr(est, m, None))]
    if missing:
        raise InvalidParameterError(
            f"`est` must implement the estimator protocol (target, sample, budget); "
            f"{type(est).__name__} has no {', '.join(missing)}.")


# -- the instances an estimator accepts -----------------------------------------------------------
def _fits(est, inst):
    """True when the estimator accepts the instance (its dimension, its assumptions)."""
    w, x, y = as_float(INSTANCES[inst])
    try:
        est.sample(w, x, y, n=1, rng=np.random.default_rng(0))
    except (ValueError, TypeError, IndexError):
        return False
    return True


def _instances(est):
    return [i for i in EXACT_INSTANCES if _fits(est, i)]


def _nothing(figures, what):
    return Result(Status.INCONCLUSIVE, figures,
                  note=f"nothing was examined: {what}; the check cannot pass")


def _exact_target(claims, w, x, y):
    return np.asarray(claims.target(w, x, y), dtype=object)


def _equal(a, b):
    """Exact equality when both sides are exact; otherwise 1e-12 relative (a float target)."""
    a = np.ravel(np.asarray(a, dtype=object))
    b = np.ravel(np.asarray(b, dtype=object))
    if a.shape != b.shape:
        return False
    for u, v in zip(a, b):
        if isinstance(u, (F, int)) and isinstance(v, (F, int)):
            if u != v:
                return False
        elif abs(float(u) - float(v)) > 1e-12 * (1 + abs(float(v))):
            return False
    return True


# -- the checks (each takes ctx, the estimator and its claims) ----------------------------------
def check_unbiased_exact(ctx, *, estimator, claims, instances):
    """E[reference] = target exactly on every exact instance (CB11 Lemma 11, HK12 Lemmas 3.3 /
    3.8, KS15 Lemma B.2 for laocheck's own estimators)."""
    checked = 0
    for inst in instances:
        w, x, y = INSTANCES[inst]
        dist = exact_distribution(estimator, w, x, y)
        mean = exact_mean(dist)
        target = _exact_target(claims, w, x, y)
        checked += 1
        if dist.residual_mass != 0 or not _equal(mean, target):
            return Result(Status.FAIL, {"instances_checked": checked},
                          counterexample={"instance": inst, "exact_mean": fstr(mean),
                                          "target": fstr(target)}, detectable=0.0)
    if not checked:
        return _nothing({"instances_checked": 0}, "no exact instance fits the estimator")
    return Result(Status.PASS, {"instances_checked": checked, "instances": list(instances)},
                  detectable=0.0)


def check_unbiased_monte_carlo(ctx, *, estimator, claims, instances):
    """The sampler's mean contains the target (simultaneous empirical-Bernstein intervals at δ
    per instance; the range of the estimate from the reference's enumeration)."""
    if not instances:
        return _nothing({"instances_checked": 0}, "no exact instance fits the estimator")
    inst = "d4" if "d4" in instances else instances[0]
    w, x, y = INSTANCES[inst]
    dist = exact_distribution(estimator, w, x, y)
    target = np.asarray(np.asarray(claims.target(*as_float(INSTANCES[inst])), dtype=float))
    size = target.size
    vals = np.array([np.asarray(np.asarray(v[0], dtype=object).ravel(), dtype=float)
                     for _, v in dist]).reshape(-1, size)
    wf, xf, yf = as_float(INSTANCES[inst])
    n = ctx.n(200_000, 10_000_000)
    moments = draw_moments(estimator, wf, xf, yf, n, ctx.rng)
    if moments.n == 0:
        return _nothing({"n": 0}, "zero draws")
    result = mc_mean_verdict(moments, target.ravel(), vals.min(0), vals.max(0), ctx.delta)
    return replace(result, figures={**result.figures, "instance": inst})


def check_budget(ctx, *, estimator, claims, instances):
    """Attributes per draw within the budget: every draw (exact kind: exact enumeration when
    there is a reference, and every sampled draw) or the mean at δ (expectation kind)."""
    budget = claims.budget
    if not instances:
        return _nothing({"budget": budget, "instances_checked": 0},
                        "no exact instance fits the estimator")
    figures = {"budget": budget, "budget_kind": claims.budget_kind}
    worst, total = 0, 0
    if claims.budget_kind == "exact":
        for inst in instances:
            if hasattr(estimator, "reference") and claims.finite_support:
                w, x, y = INSTANCES[inst]
                dist = exact_distribution(estimator, w, x, y)
                worst = max(worst, max(len(v[1]) for _, v in dist))
            wf, xf, yf = as_float(INSTANCES[inst])
            n = ctx.n(20_000, 1_000_000)
            m = draw_moments(estimator, wf, xf, yf, n, ctx.rng)
            total += m.n
            worst = max(worst, int(m.attributes_max))
        figures.update({"draws": total, "max_attributes": worst})
        if total == 0:
            return _nothing(figures, "zero draws")
        if worst <= budget:
            return Result(Status.PASS, figures, detectable="one draw over budget")
        return Result(Status.FAIL, figures, counterexample={"attributes": worst,
                                                            "budget": budget})
    inst = "d4" if "d4" in instances else instances[0]
    wf, xf, yf = as_float(INSTANCES[inst])
    n = ctx.n(20_000, 1_000_000)
    draws = estimator.sample(wf, xf, yf, n=n, rng=ctx.rng)
    att = np.asarray(draws.attributes, dtype=float)
    if att.size == 0:
        return _nothing(figures, "zero draws")
    iv = stats.nonnegative_lower_bound(att, delta=ctx.delta)
    figures.update({"draws": int(att.size), "mean_attributes": float(att.mean()),
                    "lower_confidence_bound": float(iv.low), "instance": inst})
    if iv.low > budget:
        return Result(Status.FAIL, figures, counterexample={"lower_bound": float(iv.low)})
    return Result(Status.PASS, figures, detectable="a mean above the budget by more than "
                  f"mean − lower bound = {float(att.mean() - iv.low):.3g}")


def check_kernel_matches_reference(ctx, *, estimator, claims, instances):
    """The sampler draws from the exact distribution of its own reference (multinomial test at
    δ, values matched to 1e-9 relative, attribute counts exactly)."""
    if not instances:
        return _nothing({"instances_checked": 0}, "no exact instance fits the estimator")
    inst = "d4" if "d4" in instances else instances[0]
    return sampler_matches_exact(ctx, estimator, estimator, inst, {"instance": inst})


def check_second_moment(ctx, *, estimator, claims, instances):
    """E‖v‖² <= the claimed G², exactly on every exact instance (HK12 Lemma 3.3 / KS15 Lemma
    3.4 for laocheck's own estimators)."""
    checked, worst = 0, 0.0
    for inst in instances:
        w, x, y = INSTANCES[inst]
        dist = exact_distribution(estimator, w, x, y)
        exact = dist.expectation(
            lambda v: sum(c * c for c in np.ravel(np.asarray(v[0], dtype=object))))
        bound = claims.second_moment(w, x, y, len(x))
        checked += 1
        worst = max(worst, float(exact) / bound)
        if float(exact) > bound * (1 + 1e-12):
            return Result(Status.FAIL, {"instances_checked": checked, "worst_ratio": worst},
                          counterexample={"instance": inst, "E|v|^2": str(exact),
                                          "bound": bound}, detectable=0.0)
    if not checked:
        return _nothing({"instances_checked": 0}, "no exact instance fits the estimator")
    return Result(Status.PASS, {"instances_checked": checked, "worst_ratio": worst},
                  detectable=0.0)


def check_second_moment_inf(ctx, *, estimator, claims, instances):
    """‖E[v²]‖∞ = max_i E[v_i²] <= the claimed G², exactly on every exact instance (HK12 Lemma
    3.8 as used in Appendix A.5, KS15 Lemma 4.5 with eq. (7) for laocheck's own lasso
    estimators)."""
    checked, worst = 0, 0.0
    for inst in instances:
        w, x, y = INSTANCES[inst]
        dist = exact_distribution(estimator, w, x, y)
        coords = np.ravel(np.asarray(dist.expectation(
            lambda v: np.ravel(np.asarray(v[0], dtype=object)) ** 2), dtype=object)).tolist()
        exact = max(coords)
        bound = claims.second_moment_inf(w, x, y, len(x))
        checked += 1
        worst = max(worst, float(exact) / bound)
        if float(exact) > bound * (1 + 1e-12):
            return Result(Status.FAIL, {"instances_checked": checked, "worst_ratio": worst},
                          counterexample={"instance": inst, "max_i E[v_i^2]": str(exact),
                                          "coordinate": int(np.argmax([float(c) for c in coords])),
                                          "bound": bound}, detectable=0.0)
    if not checked:
        return _nothing({"instances_checked": 0}, "no exact instance fits the estimator")
    return Result(Status.PASS, {"instances_checked": checked, "worst_ratio": worst},
                  detectable=0.0)


def check_clipping(ctx, *, estimator, claims, instances):
    """Every coordinate of every draw within the clipping threshold (HK12 Alg. 2 line 13)."""
    c = claims.clipping
    total, worst = 0, 0.0
    for inst in instances:
        if hasattr(estimator, "reference") and claims.finite_support:
            w, x, y = INSTANCES[inst]
            for _, v in exact_distribution(estimator, w, x, y):
                worst = max(worst, float(np.max(np.abs(np.asarray(v[0], dtype=float)))))
        wf, xf, yf = as_float(INSTANCES[inst])
        n = ctx.n(20_000, 1_000_000)
        draws = estimator.sample(wf, xf, yf, n=n, rng=ctx.rng)
        values = np.asarray(draws.values, dtype=float)
        total += values.shape[0]
        if values.size:
            worst = max(worst, float(np.max(np.abs(values))))
    figures = {"threshold": c, "draws": total, "max_abs": worst}
    if total == 0:
        return _nothing(figures, "zero draws")
    if worst <= c * (1 + 1e-12):
        return Result(Status.PASS, figures, detectable="one coordinate over the threshold")
    return Result(Status.FAIL, figures, counterexample={"max_abs": worst, "threshold": c})


def check_scaling(ctx, *, estimator, claims, instances):
    """(w, x, y) -> (2w, x, 2y) transforms the estimate as claimed, exactly in distribution."""
    checked = 0
    c = F(2)
    for inst in instances:
        w, x, y = INSTANCES[inst]
        base = exact_distribution(estimator, w, x, y)
        scaled = exact_distribution(estimator, [c * v for v in w], x, c * y)

        def transform(value):
            arr = np.asarray(value, dtype=object).copy()
            if claims.scaling == "last_row":
                arr[-1] = arr[-1] * c
                return arr
            return arr if claims.scaling == "degree0" else arr * c

        def as_dict(dist, f):
            out = Counter()
            for p, v in dist:
                out[tuple(np.ravel(np.asarray(f(v[0]), dtype=object)).tolist())] += p
            return out
        checked += 1
        if as_dict(scaled, lambda v: v) != as_dict(base, transform):
            return Result(Status.FAIL, {"instances_checked": checked}, detectable=0.0,
                          counterexample={"instance": inst, "c": str(c)})
    if not checked:
        return _nothing({"instances_checked": 0}, "no exact instance fits the estimator")
    return Result(Status.PASS, {"instances_checked": checked}, detectable=0.0)


_FUNCS = {
    "unbiased.exact": (check_unbiased_exact, "E[estimate] = the claimed target, exactly",
                       "exact enumeration of the reference (Fractions)", 0.0),
    "unbiased.monte_carlo": (check_unbiased_monte_carlo,
                             "the sampler is unbiased for the claimed target",
                             "simultaneous empirical-Bernstein intervals", None),
    "budget": (check_budget, "the attribute budget holds", "every draw / lower confidence "
               "bound on the mean count", None),
    "kernel_matches_reference": (check_kernel_matches_reference,
                                 "the sampler draws from the reference's exact distribution",
                                 "multinomial test against the enumeration", None),
    "second_moment": (check_second_moment, "E‖v‖² <= the claimed G²",
                      "exact enumeration of the reference (Fractions)", 0.0),
    "second_moment_inf": (check_second_moment_inf, "‖E[v²]‖∞ <= the claimed G²",
                          "exact enumeration of the reference (Fractions)", 0.0),
    "clipping": (check_clipping, "every coordinate within the clipping threshold",
                 "exact enumeration + every draw", 0.0),
    "scaling": (check_scaling, "(c·w, x, c·y) transforms the estimate as claimed",
                "exact enumeration, c = 2", 0.0),
}


def _applies(prop, claims, has_reference):
    exact = has_reference and claims.finite_support
    return {
        "unbiased.exact": claims.target is not None and exact,
        "unbiased.monte_carlo": claims.target is not None and exact,
        "budget": claims.budget is not None,
        "kernel_matches_reference": exact,
        "second_moment": claims.second_moment is not None and exact,
        "second_moment_inf": claims.second_moment_inf is not None and exact,
        "clipping": claims.clipping is not None,
        "scaling": claims.scaling is not None and exact,
    }[prop]


def _label(est):
    name = getattr(est, "name", None)
    return name if isinstance(name, str) and name else type(est).__name__


def _citation(est, claims):
    spec = getattr(est, "spec", None)
    cite = getattr(spec, "citation", None) or getattr(est, "citation", None)
    return cite if isinstance(cite, str) and cite else f"claims of {_label(est)} ({claims.source})"


def estimator_checks(est, claims=None, *, delta=DEFAULT_DELTA):
    """The :class:`~laocheck.checks.Check` objects that apply to ``est`` under its claims
    (not registered in the catalog; run them with :func:`laocheck.checks.run`)."""
    if not (isinstance(delta, (int, float)) and 0 < delta <= 1e-6):
        raise InvalidParameterError(
            f"`delta` must satisfy 0 < delta <= 1e-6 (a check must never flake); got {delta!r}.")
    resolved = resolve_claims(est, claims)
    has_ref = callable(getattr(est, "reference", None))
    instances = tuple(_instances(est))
    label = _label(est)
    out = []
    for prop in PROPERTIES:
        if not _applies(prop, resolved, has_ref):
            continue
        func, statement, method, fixed_delta = _FUNCS[prop]
        out.append(Check(
            id=f"{label}.{prop}", func=func, citation=_citation(est, resolved),
            statement=f"{label}: {statement}", assumptions=f"instances {', '.join(instances)}",
            method=method, delta=float(delta if fixed_delta is None else fixed_delta),
            detectable=None, estimator=est,
            kwargs={"claims": resolved, "instances": instances}))
    return out


def estimator_checks_generator(est, claims=None, *, delta=DEFAULT_DELTA):
    """Yield ``(est, check)`` pairs, scikit-learn style: ``check(est, seed=0, budget="fast")``
    runs one check and raises :class:`CheckFailure` when it FAILs."""
    for check in estimator_checks(est, claims, delta=delta):
        yield est, _Callable(check)


@dataclass(frozen=True)
class _Callable:
    """One check as a callable on the estimator, named after the check's id."""

    check: Any

    @property
    def __name__(self):                                  # pytest ids and reprs
        return self.check.id

    def __call__(self, est, *, seed=0, budget="fast", expected_failure=None):
        record = run(self.check.with_estimator(est), seed, budget)
        _raise_on_failures([record], {} if expected_failure is None else
                           {self.check.id: expected_failure})
        return record

    def __repr__(self):
        return f"<laocheck check {self.check.id}>"


def _explain(record):
    lines = [f"{record.id}: {record.status} ({record.citation})",
             f"    statement:  {record.statement}",
             f"    figures:    {record.figures}",
             f"    delta:      {record.delta:g}; smallest detectable violation: "
             f"{record.detectable}"]
    if record.counterexample is not None:
        lines.append(f"    counterexample: {record.counterexample}")
    if record.note:
        lines.append(f"    note:       {record.note}")
    lines.append(f"    reproduce:  seed={record.seed}, budget={record.budget!r}, "
                 f"SeedSequence({record.entropy}, spawn_key={tuple(record.spawn_key)})")
    return "\n".join(lines)


def _raise_on_failures(records, expected):
    failing = [r for r in records if r.status == Status.FAIL.value and r.id not in expected]
    unexpected_pass = [r for r in records if r.id in expected and r.status != Status.FAIL.value]
    if not failing and not unexpected_pass:
        return
    parts = [_explain(r) for r in failing]
    parts += [f"{r.id}: expected to FAIL ({expected[r.id]}) but is {r.status}"
              for r in unexpected_pass]
    raise CheckFailure(f"{len(failing) + len(unexpected_pass)} laocheck check(s) failed:\n"
                       + "\n".join(parts), failing + unexpected_pass)


def check_estimator(est, claims=None, *, seed=0, budget="fast", delta=DEFAULT_DELTA,
                    on_fail="raise", expected_failed_checks=None):
    """Run every check that ``est``'s claims select; return the records.

    Parameters
    ----------
    est : object implementing the estimator protocol (an instance, not a class)
    claims : dict, EstimatorSpec or None
        What the estimator claims (see :func:`resolve_claims`); None: its ``spec``.
    seed, budget : as ``laocheck verify`` (``budget`` "fast" or "full")
    delta : float, <= 1e-6
        False-failure probability of each statistical check.
    on_fail : "raise" or None
        "raise": an ``AssertionError`` (:class:`CheckFailure`) listing each failing check with
        its figures, δ and the smallest detectable violation; None: return the records.
    expected_failed_checks : dict {property or id: reason}
        Checks expected to FAIL (like scikit-learn's); one that does not FAIL is reported.
    """
    if on_fail not in ("raise", None):
        raise InvalidParameterError(f"`on_fail` must be 'raise' or None; got {on_fail!r}.")
    checks = estimator_checks(est, claims, delta=delta)
    label = _label(est)
    expected = {}
    for key, reason in (expected_failed_checks or {}).items():
        cid = key if key.startswith(label + ".") else f"{label}.{key}"
        if cid not in {c.id for c in checks}:
            raise InvalidParameterError(
                f"`expected_failed_checks` names {key!r}, which is not a check of {label} "
                f"(its checks: {[c.id[len(label) + 1:] for c in checks]}).")
        expected[cid] = reason
    records = [run(c, seed, budget) for c in checks]
    if on_fail == "raise":
        _raise_on_failures(records, expected)
    return records
