"""The property engine: the claims about a per-example estimate, checked on any estimator.

One suite serves the catalog (``laocheck verify``: every registered estimator, from its
:class:`~laocheck.estimators.EstimatorSpec`) and users (``laocheck.testing.check_estimator``,
``parametrize_with_checks``, ``laocheck check``, baselines: from a claims dict, a spec or an
estimator's own ``spec``). Both turn what is claimed into a :class:`Claims` and call
:func:`property_checks`; the checks are the same functions with the same ids, statements and
seeds, so ``check_estimator(get(name, **params))`` and ``laocheck verify --only 'name.*'``
give the same records.

The checks (ids ``<label>.<property>``; ``label`` is the spec's name in the catalog):

* ``unbiased.exact``: the exact mean of one draw equals the claimed target on the exact
  instances d3, d4, w0 and the boundary instances l2_edge, l1_edge, kd_edge, w0_edge (‖w‖ = B,
  ‖x‖ = 1, |y| = B, k = d, w = 0 and a zero w_j; :mod:`laocheck.estimators.instances`) — CB11 Lemma 11,
  HK12 Lemmas 3.3 / 3.8, KS15 Lemma B.2 for laocheck's estimators;
* ``unbiased.monte_carlo``: the sampler's mean (``sample`` / ``accumulate``) contains the target,
  simultaneous intervals at δ on d4: empirical Bernstein over the enumerated range (or a
  declared ``range``), else median-of-means with the claimed second-moment bound;
* ``budget``: attributes per draw within the budget (exact kind: every enumerated outcome and
  every sampled draw; expectation kind: the exact mean, else a lower confidence bound at δ);
* ``kernel_matches_reference``: ``sample`` draws from the exact distribution (a multinomial test
  at δ) of the estimator's literal reference — laocheck's transcription of the paper's box —
  or, for a sampler without one, of its own single-draw path enumerated by the choice tree;
* ``second_moment`` / ``second_moment_inf``: E‖v‖² (HK12 Lemma 3.3, KS15 Lemma 3.4) or
  ‖E[v²]‖∞ (HK12 Lemma 3.8 as used in App. A.5, KS15 Lemma 4.5) at most the claimed G², exactly;
* ``clipping``: every coordinate of every draw within a claimed threshold;
  ``clip_threshold``: the clipped estimate is the image of the unclipped one under clip(·, 1/η)
  (HK12 Alg. 2 lines 12-13, KS15 Alg. 3), exactly in distribution;
* ``scaling``: (w, x, y) → (2w, x, 2y) transforms the estimate as claimed, exactly.

How an estimate is enumerated: its ``reference(w, x, y, src)`` when it has one (laocheck's
literal boxes, :func:`laocheck.stats.exact.enumerate_outcomes`), else its own ``sample`` driven
through every path of its random choices (:mod:`laocheck.stats.choice_tree`), first on object
arrays of Fractions (exact), else on floats taken at their exact binary values (compared within
the documented tolerance γ = 2⁻³⁶, reported as the smallest detectable violation). When the
draws cannot be enumerated (continuous draws, too many paths), the exact checks fall back to
Monte Carlo or, where Monte Carlo cannot decide, are INCONCLUSIVE; the record says which and
why. No claim is dropped: a check that examined nothing is INCONCLUSIVE with its reason.
"""

from __future__ import annotations

import contextlib
import math
import signal
import threading
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from fractions import Fraction as F
from typing import Any, Callable

import numpy as np

from ... import bounds, estimators, stats
from ...estimators.instances import BOUNDARY_INSTANCES, INSTANCES, as_float, params_for
from ...exceptions import InvalidParameterError
from ...stats.choice_tree import (FLOAT_TOLERANCE, MAX_SECONDS, NotEnumerable, draws_of,
                                 enumerate_sampler, guarded)
from ...stats.exact import EnumerationLimit, enumerate_outcomes
from .._common import (POWER, distinct_rows, fstr, instance_counterexample,
                      is_laocheck_estimator, lower_bound_detects, mc_mean_verdict, mean_detects,
                      multinomial_verdict)
from .. import _registry
from .._guards import (USER_CALL, GuardedEstimator, GuardViolation, guard_callable,
                      guard_estimator)
from .._common import estimator_params
from .._registry import Check, Result, Status

__all__ = ["Claims", "claims_from_spec", "property_checks", "PROPERTIES", "EXACT_INSTANCES",
           "MC_INSTANCE", "enumerate_estimate", "Enumeration", "exact_target", "fits",
           "instances_of", "enumerable", "draws_values", "second_moment_bound", "MAX_PATHS",
           "unchecked"]

#: Every property, in the order the checks run.
PROPERTIES = ("unbiased.exact", "unbiased.monte_carlo", "budget", "kernel_matches_reference",
              "second_moment", "second_moment_inf", "clipping", "clip_threshold", "scaling")
#: The exact instances every exact check enumerates (those the estimator accepts).
EXACT_INSTANCES = ("d3", "d4", "w0") + BOUNDARY_INSTANCES
#: The instance of the Monte Carlo checks (the first accepted instance when it is refused).
MC_INSTANCE = "d4"
#: Most paths of random choices enumerated per instance (beyond: Monte Carlo).
MAX_PATHS = 50_000
#: Relative slack of a second-moment comparison with a bound given as a float (its rounding).
BOUND_RTOL = F(1, 10 ** 12)

_MOMENTS = {"second_moment": ("E‖v‖²", "l2", "S"),
            "second_moment_inf": ("‖E[v²]‖∞", "l1", "S_inf")}


# -- what is claimed ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Claims:
    """What an estimator claims, resolved to values the checks use (the engine's spec).

    Made by :func:`~laocheck.testing.resolve_claims` from a dict of claims or an
    :class:`~laocheck.estimators.EstimatorSpec`.

    Parameters
    ----------
    target : callable or None, default=None
        ``(w, x, y) -> value``, the quantity the estimate is unbiased for; None:
        unbiasedness not claimed.
    budget : int or None, default=None
        The attributes observed per draw; None: not claimed.
    budget_kind : str, default='exact'
        ``"exact"`` (at most ``budget`` every draw) or ``"expectation"`` (on average).
    second_moment : callable or None, default=None
        ``(w, x, y, d) -> G²``, the claimed bound on E‖v‖² (see
        ``second_moment_bound`` of ``laocheck.checks.algorithms.estimator_properties``); None: not claimed.
    second_moment_inf : callable or None, default=None
        ``(w, x, y, d) -> G²``, the claimed bound on ‖E[v²]‖∞; None: not claimed.
    clipping : float or None, default=None
        A threshold the estimate's coordinates never exceed; None: not claimed.
    clip : object, default=None
        A :class:`~laocheck.estimators.ClippingClaim` of a spec (with ``eta``).
    eta : float or None, default=None
        The step size of a clipping claim.
    scaling : str or None, default=None
        How the estimate transforms under (w, x, y) → (2w, x, 2y), exactly: ``"degree0"``,
        ``"degree1"`` or ``"last_row"``; None: not claimed.
    range : tuple or None, default=None
        The declared (low, high) of every coordinate of the estimate, for Monte Carlo.
    reference : str or None, default=None
        A registered estimator name whose literal reference judges the sampler.
    params : dict, optional
        The formula parameters.
    source : str, default='claims'
        Where the claims came from.
    finite_support : bool, default=True
        Whether the estimate's support is finite (exact enumeration is possible).
    spec : object, default=None
        The spec the claims were read from, if any.
    support_note : str, optional
        Why the support is not finite, for the records.
    claimed : tuple, default=()
        The names of the claims made, each of which must get a record.
    """

    target: Callable | None = None
    budget: int | None = None
    budget_kind: str = "exact"
    second_moment: Callable | None = None
    second_moment_inf: Callable | None = None
    clipping: float | None = None
    clip: Any = None
    eta: float | None = None
    scaling: str | None = None
    range: tuple | None = None
    reference: str | None = None
    params: dict = field(default_factory=dict)
    source: str = "claims"
    finite_support: bool = True
    spec: Any = None
    support_note: str = "the estimate has an unbounded support (its spec says so)"
    claimed: tuple = ()


def _smallest_B(w, y, geometry):
    """The smallest B the papers' assumptions allow: ‖w‖ <= B (‖·‖₂ for L2, ‖·‖₁ for L1) and
    |y| <= B (the strongest claim)."""
    if geometry == "l1":
        norm = sum(abs(float(v)) for v in w)
    else:
        norm = math.sqrt(sum(float(v) ** 2 for v in w))
    return max(norm, abs(float(y)), 1e-300)


def _exact_number(name, value):
    """A claimed bound as an exact Fraction (ints and Fractions exactly, floats at their binary
    value); NaN, infinities, bools and nonpositive values refused."""
    if isinstance(value, (bool, np.bool_)):
        raise InvalidParameterError(f"{name} must be a number > 0, not a bool; got {value!r}.")
    if isinstance(value, (int, np.integer, F)):
        out = F(value)
    else:
        v = float(value)
        if not math.isfinite(v):
            raise InvalidParameterError(f"{name} must be a finite number > 0; got {value!r}.")
        out = F(v)
    if out <= 0:
        raise InvalidParameterError(f"{name} must be > 0; got {value!r}.")
    return out


def second_moment_bound(value, lookup, *, key="second_moment", q=None):
    """G² as a callable ``(w, x, y, d) -> Fraction`` bounding the quantity of claim ``key``
    (E‖v‖² or ‖E[v²]‖∞), or None.

    ``value``: a number (exact: ``10**400`` is kept as an integer), a callable ``(w, x, y)``,
    or a formula id of :data:`laocheck.bounds.FORMULAS` evaluated at the instance's d, the
    parameter k (``lookup("k")``: claims, then ``est.params``, then ``est.k``), B the smallest
    the assumptions allow, and — KS15's data-dependent formulas — S = Σ_i x_i²/q_i (KS15 eq.
    (2)) or S_inf = max_i x_i²/q_i (eq. (7)) with ``q()`` the data-point distribution. A
    formula whose assumptions the instance breaks (k > d) raises
    :class:`~laocheck.exceptions.InvalidParameterError` for that instance; the check says so.
    """
    quantity, geometry, data_symbol = _MOMENTS[key]
    name = f"`claims[{key!r}]`"
    if value is None:
        return None
    if isinstance(value, (int, float, F, np.integer, np.floating)) or \
            isinstance(value, (bool, np.bool_)):
        bound = _exact_number(name, value)
        return lambda w, x, y, d: bound
    if isinstance(value, str):
        # the formula's arguments from laocheck.bounds.info, without sympy: the catalog builds
        # these claims when it registers (start-up of `laocheck list`); the sympy formula
        # loads when the bound is evaluated
        try:
            args = set(bounds.info(value)["args"])
        except InvalidParameterError:
            raise InvalidParameterError(
                f"{name} must be a number, a callable or a formula id of "
                f"laocheck.bounds.FORMULAS; got {value!r}.") from None
        known = {"B", "d", "k", data_symbol}
        if not args <= known:
            other = {"S": "second_moment", "S_inf": "second_moment_inf"}
            hint = "".join(f" (a formula in {s} belongs to claim {other[s]!r})"
                           for s in args & set(other))
            raise InvalidParameterError(
                f"{name}={value!r} needs {sorted(args - known)}, which the checks cannot "
                f"supply for {quantity}{hint}; pass a number or a callable instead.")
        k = lookup("k", f"{name}={value!r}") if "k" in args else None
        if data_symbol in args and q is not None and q() is None:
            raise InvalidParameterError(
                f"{name}={value!r} needs {data_symbol}, which reads the data-point "
                "distribution q (KS15 eqs. (2), (7)): pass claims['q'] or give the estimator "
                "a `q` attribute.")

        def formula_bound(w, x, y, d):
            formula = bounds.FORMULAS[value]
            values = {"B": _smallest_B(w, y, geometry), "d": d, "k": k}
            if data_symbol in args:
                qv = np.asarray(q(), dtype=float)
                if qv.shape != (d,):
                    raise InvalidParameterError(
                        f"`claims['q']` must have length d={d}; got {qv.shape[0]}.")
                x2 = np.array([float(v) ** 2 for v in x])
                values[data_symbol] = (bounds.sampling_sum(x2, qv) if data_symbol == "S"
                                       else bounds.sampling_max(x2, qv))
            return _exact_number(f"{name}={value!r} at d={d}",
                                 formula(**{a: values[a] for a in args}))
        return formula_bound
    if callable(value):
        guarded = guard_callable(value, f"claims[{key!r}]()")

        def user_bound(w, x, y, d):
            # on object arrays of Fractions (exact), else — it fails on those, as
            # np.linalg.norm does — on floats (a float bound: compared within BOUND_RTOL)
            try:
                out = guarded(np.array(w, dtype=object), np.array(x, dtype=object), y)
            except (TypeError, ValueError, AttributeError, ArithmeticError):
                out = guarded(*as_float((w, x, y)))
            return _exact_number(f"{name} (its value at this instance)", out)
        return user_bound
    raise InvalidParameterError(
        f"{name} must be a number, a callable or a formula id; got {value!r}.")


def _spec_q(spec, params):
    """q of KS15's S-formulas for a registered spec: laocheck's own estimator's at the same
    parameters (DDAERR/DDAELR derive it from ``second_moments``: KS15 eq. (4), Lemma 4.3)."""
    def q():
        try:
            return estimators.get(spec.name, **params).q
        except (InvalidParameterError, KeyError, TypeError, AttributeError):
            return None
    return q


def catalog_params(spec):
    """The parameters of the catalog's checks of ``spec``: its example parameters on d4 at
    its ``check_k``."""
    return params_for(spec, len(INSTANCES[MC_INSTANCE][0]), spec.check_k)


def claims_from_spec(spec, params, *, q=None):
    """The :class:`Claims` a spec makes at ``params`` (the catalog: :func:`catalog_params`;
    a user's estimator declaring the spec: its own ``params``). Selected as the catalog always
    has: unbiasedness and scaling where the support is finite, the budget of its kind, the
    spec's second-moment bound, clipping (checked as clip_threshold)."""
    params = dict(params)

    def lookup(name, who):
        if params.get(name) is None:
            raise InvalidParameterError(f"{who} needs {name}; the parameters {params} have none.")
        return params[name]

    def spec_target(w, x, y):
        return spec.target(w, x, y, **params)

    try:
        budget = spec.budget.of(params)
    except InvalidParameterError:
        budget = None
    moments = {"second_moment": None, "second_moment_inf": None}
    claim = spec.second_moment
    key = None if claim is None else {"E‖v‖²": "second_moment",
                                      "‖E[v²]‖∞": "second_moment_inf"}.get(claim.quantity)
    if key is not None and spec.finite:
        try:
            moments[key] = second_moment_bound(claim.formula, lookup, key=key,
                                               q=q or _spec_q(spec, params))
        except InvalidParameterError:
            pass                # the formula's quantities are not those of the instances
    eta = None
    if spec.clipping is not None:
        eta = params.get(spec.clipping.eta, spec.clipping.example_eta)
    return Claims(target=spec_target if spec.unbiased else None,
                  budget=budget, budget_kind=spec.budget.kind,
                  second_moment=moments["second_moment"],
                  second_moment_inf=moments["second_moment_inf"],
                  clip=spec.clipping if spec.finite else None, eta=eta,
                  scaling=spec.scaling if spec.finite else None,
                  reference=spec.name, params=params, source=f"spec {spec.name}",
                  finite_support=spec.finite, spec=spec)


def _own(claims, estimator):
    """The claims of a spec at the estimator's own parameters (a catalog check rebound with
    ``with_estimator`` to an estimator with another k: its own budget, bound and target) —
    its ``params``, else its attributes named like the spec's parameters (``est.k``)."""
    if claims.spec is None:
        return claims
    own = estimator_params(estimator) or {     # no params dict: its attributes (est.k)
        key: getattr(estimator, key) for key in claims.params
        if isinstance(getattr(estimator, key, None), (int, float, np.integer, np.floating))
        and not isinstance(getattr(estimator, key), bool)}
    if not own or all(_same(claims.params.get(k), v) for k, v in own.items()):
        return claims
    return claims_from_spec(claims.spec, {**claims.params, **own})


def _same(a, b):
    """Equal parameters (numbers, strings or arrays such as q)."""
    try:
        return bool(np.array_equal(np.asarray(a, dtype=object), np.asarray(b, dtype=object)))
    except (TypeError, ValueError):
        return a is b


def _at_own_params(func):
    """A property check run with :func:`_own` claims, on the estimator guarded when it is a
    user's (:func:`~laocheck.checks._guards.guard_estimator`: its randomness from the ``rng``
    it is given, its inputs unchanged, its exceptions the record's ERROR)."""
    def check(ctx, *, estimator, claims):
        estimator = guard_estimator(estimator)
        claims = _own(claims, estimator)
        if claims.target is not None:
            claims = replace(claims, target=guard_callable(claims.target, "target()",
                                                           estimator))
        guard = getattr(estimator, "_guard", None) if isinstance(
            estimator, GuardedEstimator) else None
        try:
            if guard is None:
                return _with_instance(func(ctx, estimator=estimator, claims=claims),
                                      estimator, claims)
            guard.begin()               # a draw from a global generator anywhere in the check
            result = func(ctx, estimator=estimator, claims=claims)
            guard.end()
            return _with_instance(result, estimator, claims)
        except SlowSampler as slow:
            return _inconclusive(
                {"draws_asked": slow.n, "seconds": slow.seconds},
                f"{slow.what} (laocheck.checks.algorithms.estimator_properties.MAX_SAMPLE_SECONDS): the "
                "sampler is too slow for this check", "a faster sample() (draw the n rows at "
                "once with numpy), or claims that the exact checks decide")
    check.__name__, check.__doc__ = func.__name__, func.__doc__
    check.__wrapped__ = func
    return check


def _known(estimator, claims, name):
    """A parameter of the counterexample (``k``, ``q``): the claims', else the estimator's
    ``params``, else its attribute; None when unknown (a user's property that fails)."""
    if claims.params.get(name) is not None:
        return claims.params[name]
    try:
        value = estimator_params(estimator).get(name)
        return value if value is not None else getattr(estimator, name, None)
    except Exception:                   # noqa: BLE001 - a user's attribute that fails: unknown
        return None


def _with_instance(result, estimator, claims):
    """A FAIL's counterexample with the full instance it was found on (its w, x, y, k, q and
    a line of Python rebuilding them: :func:`~laocheck.checks._common.
    instance_counterexample`), the instance named by the counterexample or the figures."""
    if result.status not in (Status.FAIL, Status.ERRATUM) or \
            not isinstance(result.counterexample, dict):
        return result
    inst = result.counterexample.get("instance")
    if not (isinstance(inst, str) and inst in INSTANCES):
        inst = (result.figures or {}).get("instance")
    if not (isinstance(inst, str) and inst in INSTANCES):
        return result
    return replace(result, counterexample=instance_counterexample(
        result.counterexample, inst, k=_known(estimator, claims, "k"),
        q=_known(estimator, claims, "q")))


# -- enumeration ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Enumeration:
    """The exact distribution of one draw on an instance: ``leaves`` [(probability,
    (values as a tuple of Fractions, attribute count or None))], ``residual_mass``, ``method``
    (how it was obtained), ``tolerance`` (0: exact; γ: floats taken at their binary value)."""

    leaves: list
    residual_mass: F
    method: str
    tolerance: float

    def expectation(self, f):
        total = None
        for p, v in self.leaves:
            term = [p * t for t in f(v)]
            total = term if total is None else [a + b for a, b in zip(total, term)]
        return total

    @property
    def size(self):
        return len(self.leaves[0][1][0]) if self.leaves else 0


def _flat(value):
    return tuple(F(v) if not isinstance(v, F) else v
                 for v in np.ravel(np.asarray(value, dtype=object)).tolist())


def _count(observed):
    if observed is None:
        return None
    return observed if isinstance(observed, (int, np.integer)) else len(observed)


class MalformedDraws(GuardViolation):
    """What a user's ``sample()`` returned is not a draw: a value that is not a finite number
    (NaN, ±inf), or an attribute count that is not a whole number >= 0 (1.9, −1, NaN). The
    check's FAIL, whichever check read it: a NaN compares false with every threshold, and a
    count cast to an integer would be truncated (1.9 to 1), so either would hide a violation."""

    detectable = "any non-finite value, any count of attributes that is not a whole number"


def _malformed_count(c):
    """Whether one attribute count is not a whole number >= 0."""
    try:
        c = float(c)
    except (TypeError, ValueError):
        return True
    return not (math.isfinite(c) and c >= 0 and c == int(c))


def checked_draws(values, attributes, where):
    """``(values, attributes)`` of a user's draws, refused by :class:`MalformedDraws` when a
    value is not finite or an attribute count is not a whole number >= 0; the counts are
    returned as int64 (exactly: every one was checked to be integral)."""
    vals = np.asarray(values, dtype=float)
    bad = np.argwhere(~np.isfinite(vals))
    if bad.size:
        i = tuple(int(t) for t in bad[0])
        raise MalformedDraws(
            f"sample() returned {float(vals[i])!r} at draw {i[0]}, coordinate {i[-1]} ({where}): "
            "every coordinate of an estimate must be a finite number", {
                "draw": i[0], "coordinate": i[-1], "value": repr(float(vals[i])), "where": where})
    if attributes is None:
        return vals, None
    att = np.asarray(attributes)
    if att.dtype.kind not in "iu":
        flat = att.ravel()
        for j, c in enumerate(flat):
            if _malformed_count(c):
                c = c.item() if isinstance(c, np.generic) else c
                raise MalformedDraws(
                    f"sample() returned the attribute count {c!r} for draw {j} ({where}): a "
                    "count of attributes observed is a whole number >= 0 (it is not rounded)",
                    {"draw": j, "attributes": repr(c), "where": where})
    elif att.size and att.min() < 0:
        j = int(np.argmin(att))
        raise MalformedDraws(f"sample() returned the attribute count {int(att.flat[j])} for "
                             f"draw {j} ({where}): a count is >= 0",
                             {"draw": j, "attributes": int(att.flat[j]), "where": where})
    return vals, att.astype(np.int64)


def enumerate_estimate(est, instance, *, max_paths=MAX_PATHS):
    """The :class:`Enumeration` of one draw of ``est`` on ``INSTANCES[instance]`` (or on an
    instance (w, x, y) of Fractions): its ``reference`` when it has one, else its ``sample``
    driven by the choice tree. Raises :class:`~laocheck.stats.choice_tree.NotEnumerable` when
    it cannot be enumerated."""
    w, x, y = INSTANCES[instance] if isinstance(instance, str) else instance
    if callable(getattr(est, "reference", None)):
        try:
            dist = enumerate_outcomes(guarded(lambda src: est.reference(w, x, y, src),
                                              max_paths), max_leaves=max_paths,
                                      max_seconds=MAX_SECONDS)
        except EnumerationLimit as exc:
            if exc.reason.endswith("outcomes of the program"):
                raise NotEnumerable(f"more than {max_paths} paths of random choices") from None
            raise NotEnumerable(exc.reason) from None
        leaves = [(p, (_flat(v[0]), _count(v[1]))) for p, v in dist]
        return Enumeration(leaves, dist.residual_mass,
                           "exact enumeration of the reference (Fractions)", 0.0)
    # the enumerator's own wall-time bound is checked at each draw; a sampler looping
    # without drawing is stopped by this deadline (a little later than that bound)
    with _deadline(MAX_SECONDS + MAX_SAMPLE_SECONDS, 1, "sample() did not finish one path of "
                   f"its random choices within {MAX_SECONDS + MAX_SAMPLE_SECONDS:g} s (a loop "
                   "that draws nothing?)"):
        out = enumerate_sampler(est.sample, w, x, y, max_paths=max_paths)
    for _, (vals, count) in out.distribution:
        if count is not None and _malformed_count(count):
            count = count.item() if isinstance(count, np.generic) else count
            raise MalformedDraws(f"sample() returned the attribute count {count!r} on "
                                 f"instance {instance!r}: a count of attributes observed is a "
                                 "whole number >= 0 (it is not rounded)",
                                 {"instance": str(instance), "attributes": repr(count)})
        if any(isinstance(v, float) and not math.isfinite(v) for v in vals):
            raise MalformedDraws(f"sample() returned a non-finite value on instance "
                                 f"{instance!r}: every coordinate of an estimate must be a "
                                 "finite number", {"instance": str(instance),
                                                   "values": [repr(v) for v in vals]})
    how = "exact enumeration of sample() driven through every path of its rng (choice tree"
    how += ", exact)" if out.mode == "exact" else \
        f", floats at their binary values, relative tolerance {FLOAT_TOLERANCE:.3g})"
    return Enumeration(list(out.distribution), out.distribution.residual_mass, how,
                       out.tolerance)


def exact_target(claims, instance):
    """The claimed target on ``INSTANCES[instance]`` as (tuple of Fractions, tolerance): called
    on numpy object arrays of Fractions (exact), or — when it fails on those or returns floats —
    on floats, whose rounding the tolerance γ accounts for."""
    w, x, y = INSTANCES[instance]
    wo = np.array(w, dtype=object)
    xo = np.array(x, dtype=object)
    try:
        value = claims.target(wo, xo, y)
        flat = np.ravel(np.asarray(value, dtype=object)).tolist()
        if all(isinstance(v, (F, int, np.integer)) and not isinstance(v, bool) for v in flat):
            return tuple(F(v) for v in flat), 0.0
    except (TypeError, ValueError, AttributeError, ArithmeticError):
        pass
    wf, xf, yf = as_float(INSTANCES[instance])
    flat = np.ravel(np.asarray(claims.target(wf, xf, yf), dtype=float)).tolist()
    if not all(math.isfinite(v) for v in flat):
        raise _Undecidable(f"the target is not finite on instance {instance} ({flat})")
    return tuple(F(v) for v in flat), FLOAT_TOLERANCE


class _Undecidable(Exception):
    """Raised inside a check: nothing can be decided, for the reason given."""


def enumerable(est, instance=MC_INSTANCE):
    """(True, "") when one draw of ``est`` on the instance can be enumerated exactly, else
    (False, the reason)."""
    try:
        enumerate_estimate(est, instance)
    except NotEnumerable as exc:
        return False, exc.reason
    except SlowSampler as slow:
        return False, slow.what
    return True, ""


def _refusal(est, instance):
    """None when ``est.sample`` accepts the instance, else the exception it refused it with."""
    w, x, y = as_float(INSTANCES[instance])
    try:
        with _deadline(MAX_SAMPLE_SECONDS, 1, f"sample() did not return one draw on instance "
                       f"{instance!r} within {MAX_SAMPLE_SECONDS:g} s"):
            est.sample(w, x, y, n=1, rng=np.random.default_rng(0))
    except (ValueError, TypeError, IndexError, ArithmeticError) as exc:  # refused (w = 0)
        return exc
    except SlowSampler as slow:                 # a draw that never ends: not accepted
        return slow
    return None


def fits(est, instance):
    """True when ``est.sample`` accepts the instance (its dimension, its assumptions)."""
    return _refusal(est, instance) is None


def instances_of(est, *, strict=False):
    """The exact instances ``est`` accepts, of :data:`EXACT_INSTANCES`.

    With ``strict``, a user's sampler (guarded) that refuses every one of them re-raises its
    first refusal: the check's ERROR with the user's file and line (a sampler that raises on
    every instance cannot be told from one that refuses them), instead of examining nothing.
    """
    accepted, first = [], None
    for inst in EXACT_INSTANCES:
        exc = _refusal(est, inst)
        if exc is None:
            accepted.append(inst)
        elif first is None:
            first = exc
        if isinstance(exc, SlowSampler):        # one endless draw is enough to know
            if strict and not accepted:
                raise exc                       # the check's INCONCLUSIVE, with the reason
            break
    if strict and not accepted and first is not None and \
            getattr(first, USER_CALL, None) is not None:
        setattr(first, USER_CALL, f"{getattr(first, USER_CALL)} on every exact instance "
                f"({', '.join(EXACT_INSTANCES)}, laocheck.testing.instances)")
        raise first
    return accepted


#: Wall-clock seconds one call of a user's ``sample()`` may take in a Monte Carlo check (the
#: n draws of one instance); past it the check is INCONCLUSIVE with the reason, never a
#: hang. Enforced with a real-time interval timer in the main thread (where checks run, in
#: one process or in each worker); elsewhere the call is not bounded.
MAX_SAMPLE_SECONDS = 60.0


class SlowSampler(BaseException):
    """A user's ``sample()`` exceeded :data:`MAX_SAMPLE_SECONDS` (a ``BaseException``, like
    ``KeyboardInterrupt``, so that an ``except Exception`` in the user's code cannot swallow
    it); the property check turns it into INCONCLUSIVE."""

    def __init__(self, n, seconds, what=None):
        super().__init__(n, seconds)
        self.n, self.seconds = n, seconds
        self.what = what or f"sample() did not return {n} draws within {seconds:g} s"


@contextlib.contextmanager
def _deadline(seconds, n, what=None):
    """Raise :class:`SlowSampler` in the block after ``seconds`` of wall-clock time (main
    thread only; an outer interval timer is re-armed with what is left of it)."""
    if threading.current_thread() is not threading.main_thread() or \
            not hasattr(signal, "setitimer"):
        yield
        return

    def on_alarm(signum, frame):
        raise SlowSampler(n, seconds, what)

    start = time.monotonic()
    old_handler = signal.signal(signal.SIGALRM, on_alarm)
    outer, _ = signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old_handler)
        if outer > 0:                    # someone else's timer (a test's guard): keep it
            signal.setitimer(signal.ITIMER_REAL, max(outer - (time.monotonic() - start), 1e-3))


def draws_values(est, instance, n, rng):
    """(values (n, size) float, attributes (n,) or None) of ``n`` draws of ``est.sample``.

    Values that ``sample`` returns as a real numeric array (bool, integer or floating dtype:
    laocheck's kernels, most numpy samplers) are converted to float directly; anything else
    (lists, object arrays of Fractions, ...) goes through
    :func:`laocheck.stats.choice_tree.draws_of`'s object array. Both give the same floats (a
    real number's nearest double); the direct path skips a boxed Python float per coordinate
    (half the CPU of ``kernel_matches_reference`` at 2·10⁶ draws)."""
    wf, xf, yf = as_float(INSTANCES[instance])
    with _deadline(MAX_SAMPLE_SECONDS, n):
        drawn = est.sample(wf, xf, yf, n=n, rng=rng)
    # draws_of's first case (an object with values and attributes: laocheck's Draws)
    raw = getattr(drawn, "values", None) if not isinstance(drawn, dict) else None
    if isinstance(raw, np.ndarray) and raw.dtype.kind in "biuf" and n > 0 \
            and raw.size % n == 0 and hasattr(drawn, "attributes"):
        values = raw.astype(float, copy=False).reshape(n, -1)
        attributes = drawn.attributes
        attributes = None if attributes is None else np.asarray(attributes).reshape(n)
    else:
        values, attributes = draws_of(drawn, n)
    return checked_draws(values, attributes, f"{n} draws on instance {instance!r}")


def _inconclusive(figures, reason, needs=""):
    note = f"not decided: {reason}" + (f"; to decide it: {needs}" if needs else "")
    return Result(Status.INCONCLUSIVE, figures, note=note)


def _enumerations(est, instances, claims):
    """{instance: Enumeration} and {instance: why not enumerable}."""
    done, why = {}, {}
    if not claims.finite_support:
        return done, {i: claims.support_note for i in instances}
    for inst in instances:
        try:
            done[inst] = enumerate_estimate(est, inst)
        except NotEnumerable as exc:
            why[inst] = exc.reason
    return done, why


def _mc_instance(instances):
    return MC_INSTANCE if MC_INSTANCE in instances else instances[0]


def _nothing(figures):
    return _inconclusive(figures, f"no exact instance ({', '.join(EXACT_INSTANCES)}) is "
                         "accepted by the estimator's sample()",
                         "accept one of laocheck.estimators.instances")


# -- the checks (each takes ctx, the estimator and its claims) -----------------------------------
def check_unbiased_exact(ctx, *, estimator, claims):
    """E[estimate] = the claimed target exactly on every exact instance (CB11 Lemma 11, HK12
    Lemmas 3.3 / 3.8, KS15 Lemma B.2 for laocheck's own estimators); a sampler that cannot be
    enumerated is checked by Monte Carlo instead (the record says so)."""
    instances = instances_of(estimator, strict=True)
    if not instances:
        return _nothing({"instances_checked": 0})
    done, why = _enumerations(estimator, instances, claims)
    if not done and ctx.delta == 0:
        return _inconclusive({"not_enumerated": why}, "the estimate cannot be enumerated ("
                             f"{next(iter(why.values()))}), and this check is exact (δ = 0)",
                             "fewer paths of random choices (a smaller k); the Monte Carlo "
                             "check unbiased.monte_carlo tests the same claim at δ")
    if not done:
        result = check_unbiased_monte_carlo(ctx, estimator=estimator, claims=claims)
        return replace(result, note=(f"exact enumeration impossible ({why[instances[0]]}); "
                                     "Monte Carlo instead. " + result.note).strip())
    worst, detect, widest = F(0), 0.0, 0.0       # widest: the largest relative tolerance
    methods = sorted({e.method for e in done.values()})
    for inst, enum in done.items():
        try:
            target, t_tol = exact_target(claims, inst)
        except _Undecidable as exc:
            return _inconclusive({"instance": inst}, str(exc))
        mean = enum.expectation(lambda v: v[0])
        absmean = enum.expectation(lambda v: [abs(t) for t in v[0]])
        tol = max(enum.tolerance, t_tol)
        widest = max(widest, float(tol))
        if len(mean) != len(target):
            return Result(Status.FAIL, {"instance": inst}, detectable=0.0,
                          counterexample={"instance": inst, "estimate_size": len(mean),
                                          "target_size": len(target)})
        diff = [m - t for m, t in zip(mean, target)]
        slack = [F(tol) * (a + abs(t)) for a, t in zip(absmean, target)]
        worst = max([worst] + [abs(d) for d in diff])
        detect = max([detect] + [float(s) for s in slack])
        bad = [j for j, (d, s) in enumerate(zip(diff, slack)) if abs(d) > s]
        if enum.residual_mass != 0 or bad:
            return Result(Status.FAIL, {"instances_checked": list(done), "methods": methods,
                                        "max_abs_bias": fstr(abs(diff[bad[0]]) if bad else 0)},
                          detectable=detect, detects=_exact_factor(tol), counterexample={
                              "instance": inst, "exact_mean": fstr(np.array(mean, dtype=object)),
                              "target": fstr(np.array(target, dtype=object)),
                              "coordinate": bad[0] if bad else None,
                              "residual_mass": str(enum.residual_mass)})
    figures = {"instances_checked": list(done), "methods": methods, "max_abs_bias": fstr(worst)}
    if why:
        figures["not_enumerated"] = why
    return Result(Status.PASS, figures, detectable=detect, detects=_exact_factor(widest),
                  note="" if not detect else f"floats taken at their binary values: a bias "
                  f"within {detect:.3g} is not detectable")


def _range_from(done, inst, size):
    if inst in done:
        vals = np.array([[float(t) for t in v[0]] for _, v in done[inst].leaves]).reshape(-1, size)
        return vals.min(axis=0), vals.max(axis=0), "the enumerated range"
    return None


def check_unbiased_monte_carlo(ctx, *, estimator, claims):
    """The sampler's mean contains the claimed target, at δ (CB11 Lemma 11, HK12 Lemmas 3.3 /
    3.8, KS15 Lemma B.2 for laocheck's own estimators): simultaneous empirical-Bernstein
    intervals over the estimate's range (enumerated, or the declared ``range``), else
    median-of-means per coordinate with the claimed second-moment bound as variance bound."""
    instances = instances_of(estimator, strict=True)
    if not instances:
        return _nothing({"instances_checked": 0})
    inst = _mc_instance(instances)
    wf, xf, yf = as_float(INSTANCES[inst])
    target = np.ravel(np.asarray(claims.target(wf, xf, yf), dtype=float))
    if not np.all(np.isfinite(target)):
        return _inconclusive({"instance": inst}, f"the target is not finite ({target.tolist()})")
    size = target.size
    ref = _reference_of(claims, estimator)
    done, reason = {}, claims.support_note
    try:
        if claims.finite_support:
            done = {inst: enumerate_estimate(ref, inst)}
    except NotEnumerable as exc:
        reason = exc.reason
    rng_ = _range_from(done, inst, size)
    if rng_ is None and claims.range is not None:
        rng_ = (np.full(size, float(claims.range[0])), np.full(size, float(claims.range[1])),
                "the declared range")
    n = ctx.n(200_000, 10_000_000)
    if rng_ is not None:
        lo, hi, origin = rng_
        moments = _draw_moments(estimator, inst, n, ctx.rng)
        if moments is None or moments.n == 0:
            return _inconclusive({"n": 0}, "zero draws")
        result = mc_mean_verdict(moments, target, lo, hi, ctx.delta)
        return replace(result, figures={**result.figures, "instance": inst, "range": origin})
    bound = claims.second_moment
    if bound is None:
        return _inconclusive(
            {"instance": inst}, f"the sampler cannot be enumerated ({reason}) and no range of "
            "the estimate nor a second-moment bound is claimed",
            "claim a range (claims['range'] = [low, high]) or a bound on E‖v‖² "
            "(claims['second_moment'])")
    w, x, y = INSTANCES[inst]
    try:
        g2 = float(bound(w, x, y, len(x)))
    except InvalidParameterError as exc:
        return _inconclusive({"instance": inst}, f"the second-moment bound does not apply: {exc}")
    values, _ = draws_values(estimator, inst, n, ctx.rng)
    lows, highs = [], []
    for j in range(size):               # Var v_j <= E v_j² <= E‖v‖² <= G², union bound over j
        iv = stats.median_of_means_interval(values[:, j], variance_bound=g2,
                                            delta=ctx.delta / size)
        lows.append(float(iv.low))
        highs.append(float(iv.high))
    lows, highs = np.array(lows), np.array(highs)
    detects = mean_detects(target, stats.detectable_violation(
        n, delta=ctx.delta / size, beta=1 - POWER, method="median-of-means", variance=g2))
    inside = (lows <= target) & (target <= highs)
    figures = {"instance": inst, "n": n, "method": "median-of-means, variance <= claimed G²",
               "mean_low": lows.tolist(), "mean_high": highs.tolist(), "claimed": target.tolist(),
               "max_width": float(np.max(highs - lows)), "second_moment_bound": g2}
    note = f"not enumerable ({reason}); Monte Carlo with the claimed second-moment bound"
    if inside.all():
        return Result(Status.PASS, figures, detectable=float(np.max(highs - lows)), note=note,
                      detects=detects)
    j = int(np.argmax(np.maximum(lows - target, target - highs)))
    return Result(Status.FAIL, figures, detectable=float(np.max(highs - lows)), note=note,
                  detects=detects,
                  counterexample={"coordinate": j, "claimed": float(target[j]),
                                  "interval": [lows[j], highs[j]]})


def _exact_factor(tolerance):
    """``detects`` of an exact comparison of numbers within a relative ``tolerance`` (0 for
    Fractions, γ for floats at their binary values): a value off by more than 1 + tolerance is
    found on every run."""
    return 1.0 + float(tolerance)


def _draw_moments(est, inst, n, rng):
    wf, xf, yf = as_float(INSTANCES[inst])
    if hasattr(est, "accumulate"):
        try:
            return est.accumulate(wf, xf, yf, n=n, rng=rng)
        except NotImplementedError:
            pass
    values, att = draws_values(est, inst, n, rng)
    att = np.zeros(n, dtype=np.int64) if att is None else att
    hist = np.bincount(np.minimum(att, 64), minlength=65)
    return estimators.Moments(
        n=n, sum=values.sum(0), sum_sq=(values * values).sum(0),
        sum_norm_sq=float((values * values).sum()),
        sum_norm_sq_sq=float(((values * values).sum(1) ** 2).sum()),
        attributes_sum=int(att.sum()), attributes_sum_sq=int((att * att).sum()),
        attributes_max=int(att.max(initial=0)), attributes_hist=hist)


def check_budget(ctx, *, estimator, claims):
    """The attribute budget (k + 1 of HK12 Sec. 2 / KS15 Sec. 2, k of CB11 Sec. 4): every draw
    within it (exact kind: every enumerated outcome and every sampled draw), or its mean
    (expectation kind: exactly when enumerable, else a lower confidence bound at δ)."""
    budget = claims.budget
    instances = instances_of(estimator, strict=True)
    if not instances:
        return _nothing({"budget": budget, "instances_checked": 0})
    figures = {"budget": budget, "budget_kind": claims.budget_kind}
    done, why = _enumerations(estimator, instances, claims)
    counts = [c for e in done.values() for _, (_, c) in e.leaves]
    if any(c is None for c in counts):
        return _inconclusive(figures, "sample() returns no attribute counts",
                             "return (values, attributes) or an object with .values and "
                             ".attributes (the attributes each draw observed)")
    if claims.budget_kind == "exact":
        worst = max(counts, default=0)
        if done:
            figures["exact_max_attributes"] = worst
        total, worst_inst = 0, None
        if done:
            worst_inst = max(done, key=lambda i: max((c for _, (_, c) in done[i].leaves),
                                                     default=0))
        for inst in instances:
            n = ctx.n(20_000, 1_000_000)
            moments = _draw_moments(estimator, inst, n, ctx.rng) if hasattr(
                estimator, "accumulate") else None
            if moments is not None:
                att_max, total = int(moments.attributes_max), total + moments.n
            else:
                _, att = draws_values(estimator, inst, n, ctx.rng)
                if att is None:
                    return _inconclusive(figures, "sample() returns no attribute counts",
                                         "return (values, attributes)")
                att_max, total = int(att.max(initial=0)), total + att.size
            if att_max > worst:
                worst, worst_inst = att_max, inst
        figures.update({"draws": total, "max_attributes": worst})
        if worst <= budget:
            return Result(Status.PASS, figures, detectable="one draw over budget", detects=1.0)
        return Result(Status.FAIL, figures, counterexample={"attributes": worst,
                                                            "budget": budget,
                                                            "instance": worst_inst},
                      detects=1.0)
    if done:
        means = {i: sum((p * c for p, (_, c) in e.leaves), F(0)) for i, e in done.items()}
        worst_inst = max(means, key=means.get)
        figures.update({"exact_mean_attributes": fstr(means[worst_inst]),
                        "instance": worst_inst})
        if means[worst_inst] <= budget:
            return Result(Status.PASS, figures, detectable=0.0, detects=1.0)
        return Result(Status.FAIL, figures, detectable=0.0, detects=1.0,
                      counterexample={"instance": worst_inst,
                                      "mean_attributes": fstr(means[worst_inst])})
    inst = _mc_instance(instances)
    n = ctx.n(20_000, 1_000_000)
    _, att = draws_values(estimator, inst, n, ctx.rng)
    if att is None:
        return _inconclusive(figures, "sample() returns no attribute counts",
                             "return (values, attributes)")
    iv = stats.nonnegative_lower_bound(att.astype(float), delta=ctx.delta)
    figures.update({"draws": int(att.size), "mean_attributes": float(att.mean()),
                    "lower_confidence_bound": float(iv.low), "instance": inst})
    detects = lower_bound_detects(iv, float(budget), ctx.delta)
    if iv.low > budget:
        return Result(Status.FAIL, figures, counterexample={"lower_bound": float(iv.low)},
                      detects=detects)
    return Result(Status.PASS, figures, detects=detects,
                  detectable="a mean above the budget by more than "
                  f"mean − lower bound = {float(att.mean() - iv.low):.3g}")


def _reference_of(claims, estimator):
    """What judges the sampler's draws: laocheck's literal reference of the registered
    estimator ``claims.reference`` (at the claims' parameters) when ``estimator`` has no
    reference of its own, else the estimator itself (its reference, or its own sample driven
    by the choice tree)."""
    if callable(getattr(estimator, "reference", None)) or claims.reference is None or \
            claims.reference not in estimators.names():
        return estimator
    try:
        return estimators.get(claims.reference, **claims.params)
    except (TypeError, ValueError):
        return estimator


def _outcome_key(value):
    return tuple(float(v) for v in value)


def check_kernel_matches_reference(ctx, *, estimator, claims):
    """The sampler draws from the exact distribution of its literal reference (HK12 Alg. 1-2,
    KS15 Alg. 1/3, CB11 Fig. 1-2 for laocheck's kernels) or, without one, of its own
    single-draw path enumerated by the choice tree: values matched to 1e-9 relative, attribute
    counts exactly, then a multinomial test at δ."""
    instances = instances_of(estimator, strict=True)
    if not instances:
        return _nothing({"instances_checked": 0})
    ref = _reference_of(claims, estimator)
    # the Monte Carlo instance, then each accepted boundary instance (issue 47 item 5: a
    # sampler wrong only where ‖w‖ = B, ‖x‖ = 1, |y| = B or w = 0), δ split evenly
    tested = [_mc_instance(instances)]
    tested += [i for i in BOUNDARY_INSTANCES if i in instances and i not in tested]
    sub = replace(ctx, delta=ctx.delta / len(tested))
    first = _kernel_on_instance(sub, estimator, ref, tested[0])
    if first.status != Status.PASS:
        return first
    # the first instance's figures at the top (as before the boundary instances), theirs below
    edges, checked = {}, [tested[0]]
    for inst in tested[1:]:
        res = _kernel_on_instance(sub, estimator, ref, inst)
        edges[inst] = res.figures
        if res.status == Status.INCONCLUSIVE:
            continue                    # a boundary instance it cannot enumerate: the others
        if res.status != Status.PASS:
            return replace(res, figures={**first.figures, "boundary_instances": edges},
                           counterexample={"instance": inst, **(res.counterexample or {})})
        checked.append(inst)
    return replace(first, figures={**first.figures, "boundary_instances": edges,
                                   "instances_checked": checked})


def _kernel_on_instance(ctx, estimator, ref, inst):
    """:func:`check_kernel_matches_reference` on one instance, at ``ctx.delta``."""
    try:
        enum = enumerate_estimate(ref, inst)
    except NotEnumerable as exc:
        return _inconclusive({"instance": inst}, f"the sampler cannot be enumerated ({exc.reason})",
                             "a sampler whose draws the choice tree can enumerate, or a "
                             "reference(w, x, y, src)")
    probs = Counter()
    for p, (v, c) in enum.leaves:
        probs[(_outcome_key(v), -1 if c is None else c)] += p
    keys = sorted(probs)
    support = np.array([k[0] for k in keys], dtype=float).reshape(len(keys), -1)
    support_att = np.array([k[1] for k in keys])
    n = ctx.n(50_000, 2_000_000)
    values, att = draws_values(estimator, inst, n, ctx.rng)
    att = np.full(n, -1) if att is None or (support_att == -1).all() else att
    rows, sizes = distinct_rows(np.c_[values, att])
    counts = np.zeros(len(keys), dtype=np.int64)
    figures = {"n": n, "categories": len(keys), "instance": inst, "reference": enum.method}
    for r, row in enumerate(rows):
        close = np.all(np.abs(support - row[:-1]) <= 1e-9 * (1 + np.abs(support)), axis=1) & \
            (support_att == row[-1])
        if not close.any():
            return Result(Status.FAIL, figures,
                          counterexample={"impossible_outcome": row[:-1].tolist(),
                                          "attributes": int(row[-1])})
        counts[int(np.argmax(close))] += int(sizes[r])
    return multinomial_verdict(ctx, counts, keys, probs, n, figures)


def _moment_check(ctx, estimator, claims, key):
    """The exact second-moment check of claim ``key`` on every exact instance."""
    bound = getattr(claims, key)
    quantity = _MOMENTS[key][0]
    instances = instances_of(estimator, strict=True)
    if not instances:
        return _nothing({"instances_checked": 0})
    done, why = _enumerations(estimator, instances, claims)
    checked, skipped, worst = [], {}, 0.0
    for inst, enum in done.items():
        w, x, y = INSTANCES[inst]
        try:
            g2 = bound(w, x, y, len(x))
        except InvalidParameterError as exc:
            skipped[inst] = f"the bound does not apply: {exc}"
            continue
        if key == "second_moment":
            exact = sum(enum.expectation(lambda v: [sum(t * t for t in v[0])]), F(0))
            coord = None
        else:
            per = enum.expectation(lambda v: [t * t for t in v[0]])
            coord = max(range(len(per)), key=lambda j: per[j])
            exact = per[coord]
        slack = F(enum.tolerance) * 4 * exact + BOUND_RTOL * g2
        checked.append(inst)
        worst = max(worst, float(exact / g2))
        if exact > g2 + slack:
            ce = {"instance": inst, quantity: fstr(exact), "bound": fstr(g2)}
            if coord is not None:
                ce["coordinate"] = coord
            return Result(Status.FAIL, {"instances_checked": checked, "worst_ratio": worst},
                          counterexample=ce, detectable=0.0, detects=_exact_factor(BOUND_RTOL))
    figures = {"instances_checked": checked, "worst_ratio": worst}
    if skipped:
        figures["instances_skipped"] = skipped
    if why:
        figures["not_enumerated"] = why
    if checked:
        return Result(Status.PASS, figures, detectable=0.0, detects=_exact_factor(
            BOUND_RTOL + 4 * max(float(done[i].tolerance) for i in checked)))
    if done:
        return _inconclusive(figures, "the claimed bound applies to no exact instance "
                             f"({'; '.join(skipped.values())})", "a bound valid at d = 3, 4")
    return _mc_moment(ctx, estimator, claims, key, instances, why)


def _mc_moment(ctx, estimator, claims, key, instances, why):
    """Monte Carlo for a sampler that cannot be enumerated: a lower confidence bound on the
    moment above G² refutes the claim; nothing proves it without a range."""
    inst = _mc_instance(instances)
    w, x, y = INSTANCES[inst]
    if ctx.delta == 0:
        return _inconclusive({"not_enumerated": why}, "the estimate cannot be enumerated ("
                             f"{next(iter(why.values()))}), and this check is exact (δ = 0)",
                             "fewer paths of random choices (a smaller k)")
    try:
        g2 = float(getattr(claims, key)(w, x, y, len(x)))
    except InvalidParameterError as exc:
        return _inconclusive({"instance": inst}, f"the bound does not apply: {exc}")
    n = ctx.n(200_000, 2_000_000)
    values, _ = draws_values(estimator, inst, n, ctx.rng)
    sq = values * values
    cols = [sq.sum(axis=1)] if key == "second_moment" else [sq[:, j] for j in range(sq.shape[1])]
    bounds_ = [stats.nonnegative_lower_bound(c, delta=ctx.delta / len(cols)) for c in cols]
    lows = [float(iv.low) for iv in bounds_]
    figures = {"instance": inst, "n": n, "bound": g2, "lower_confidence_bound": max(lows),
               "not_enumerated": why}
    note = (f"not enumerable ({why[inst] if inst in why else next(iter(why.values()))}); "
            "Monte Carlo")
    detects = None if g2 <= 0 else lower_bound_detects(
        bounds_[int(np.argmax(lows))], g2, ctx.delta / len(cols))
    if max(lows) > g2:
        return Result(Status.FAIL, figures, note=note, detects=detects,
                      counterexample={"instance": inst, "lower_bound": max(lows), "bound": g2})
    return _inconclusive(figures, note + " found no violation, and a sampled second moment "
                         "cannot prove an upper bound", "an enumerable sampler (finite draws "
                         "through integers/choice/permutation/binomial)")


def check_second_moment(ctx, *, estimator, claims):
    """E‖v‖² <= the claimed G², exactly on every exact instance (HK12 Lemma 3.3, KS15 Lemma
    3.4 with eq. (2) for laocheck's own estimators)."""
    return _moment_check(ctx, estimator, claims, "second_moment")


def check_second_moment_inf(ctx, *, estimator, claims):
    """‖E[v²]‖∞ = max_i E[v_i²] <= the claimed G², exactly on every exact instance (HK12 Lemma
    3.8 as used in Appendix A.5, KS15 Lemma 4.5 with eq. (7))."""
    return _moment_check(ctx, estimator, claims, "second_moment_inf")


def check_clipping(ctx, *, estimator, claims):
    """Every coordinate of every draw within the clipping threshold (HK12 Alg. 2 line 13)."""
    c = claims.clipping
    instances = instances_of(estimator, strict=True)
    if not instances:
        return _nothing({"threshold": c})
    done, _ = _enumerations(estimator, instances, claims)
    worst = max([float(abs(t)) for e in done.values() for _, (v, _) in e.leaves for t in v],
                default=0.0)
    total = 0
    worst_inst = max(done, key=lambda i: max((float(abs(t)) for _, (v, _) in done[i].leaves
                                              for t in v), default=0.0)) if done else None
    for inst in instances:
        values, _ = draws_values(estimator, inst, ctx.n(20_000, 1_000_000), ctx.rng)
        total += values.shape[0]
        if values.size and float(np.max(np.abs(values))) > worst:
            worst, worst_inst = float(np.max(np.abs(values))), inst
    figures = {"threshold": c, "draws": total, "max_abs": worst,
               "instances_enumerated": list(done)}
    if worst <= c * (1 + 1e-12):
        return Result(Status.PASS, figures, detectable="one coordinate over the threshold")
    return Result(Status.FAIL, figures, counterexample={"max_abs": worst, "threshold": c,
                                                        "instance": worst_inst})


def _as_dict(enum, f):
    out = Counter()
    for p, (v, c) in enum.leaves:
        out[(tuple(f(v)), c)] += p
    return out


def check_clip_threshold(ctx, *, estimator, claims):
    """HK12 Alg. 2 lines 12-13 (KS15 Alg. 3): ḡ[i] = clip(g̃[i], 1/η). The exact distribution of
    the clipped estimate is the image under clip(·, 1/η) of the unclipped estimate's
    distribution (same sampler), on every exact instance; η the estimator's own, else the
    spec's example η (4, at which the clipping is active on d4)."""
    clip = claims.clip
    eta = F(getattr(estimator, clip.eta, None) or claims.eta).limit_denominator(10 ** 9)
    c = 1 / eta
    params = {k: v for k, v in claims.params.items() if k != clip.eta}
    base = estimators.get(clip.unclipped, **params)
    active, checked = False, []
    for inst in instances_of(estimator, strict=True):
        try:
            clipped = _as_dict(enumerate_estimate(estimator, inst), lambda v: v)
            image = _as_dict(enumerate_estimate(base, inst),
                             lambda v: [max(min(t, c), -c) for t in v])
        except NotEnumerable as exc:
            return _inconclusive({"eta": str(eta)}, f"not enumerable ({exc.reason})")
        checked.append(inst)
        active = active or any(abs(t) == c for key in image for t in key[0])
        if {k[0]: p for k, p in clipped.items()} != {k[0]: p for k, p in image.items()}:
            return Result(Status.FAIL, {"eta": str(eta)}, detectable=0.0, detects=1.0,
                          counterexample={"instance": inst, "eta": str(eta),
                                          "threshold": str(c)})
    if not checked:
        return _nothing({"eta": str(eta)})
    n = ctx.n(20_000, 1_000_000)
    values, _ = draws_values(estimator, _mc_instance(checked), n, ctx.rng)
    worst = float(np.max(np.abs(values))) if values.size else 0.0
    if worst > float(c) * (1 + 1e-12):
        return Result(Status.FAIL, {"eta": str(eta), "draws": n, "max_abs": worst},
                      detectable=0.0, detects=1.0, counterexample={"instance": _mc_instance(checked),
                                                      "max_abs_draw": worst,
                                                      "threshold": str(c)})
    if not active:
        return _inconclusive({"eta": str(eta), "clipping_active": False},
                             "the clipping is never active at this η: nothing was tested",
                             "an η at which some |g̃[i]| exceeds 1/η")
    return Result(Status.PASS, {"eta": str(eta), "clipping_active": active,
                                "instances_checked": checked}, detectable=0.0, detects=1.0)


def check_scaling(ctx, *, estimator, claims):
    """(w, x, y) -> (2w, x, 2y) transforms the estimate as claimed, exactly in distribution
    (HK12 Alg. 1 line 9, KS15 eq. (5), CB11 eqs. (6)-(8) are homogeneous of degree 1 in
    (w, y), x̃ of degree 0; CB11 Fig. 1's stacked (A, 2·y·v) scales its last row)."""
    c = F(2)
    instances = instances_of(estimator, strict=True)
    if not instances:
        return _nothing({"c": str(c)})
    checked = []
    for inst in instances:
        w, x, y = INSTANCES[inst]
        try:
            base = enumerate_estimate(estimator, inst)
            scaled = enumerate_estimate(estimator, ([c * v for v in w], list(x), c * y))
        except NotEnumerable as exc:
            return _inconclusive({"c": str(c)}, f"not enumerable ({exc.reason}); a scaling "
                                 "claim is checked exactly only", "an enumerable sampler")
        tail = _last_row_size(estimator, len(x))

        def transform(v):
            v = list(v)
            if claims.scaling == "last_row":
                return v[:len(v) - tail] + [t * c for t in v[len(v) - tail:]]
            return v if claims.scaling == "degree0" else [t * c for t in v]
        checked.append(inst)
        if _as_dict(scaled, lambda v: v) != _as_dict(base, transform):
            return Result(Status.FAIL, {"c": str(c), "instances_checked": checked},
                          detectable=0.0, detects=1.0,
                          counterexample={"instance": inst, "c": str(c)})
    return Result(Status.PASS, {"c": str(c), "instances_checked": checked}, detectable=0.0,
                  detects=1.0)


def _last_row_size(estimator, d):
    """The size of the last row of the estimate (its ``target_shape(d)``: CB11 Fig. 1's
    (d + 1) × d array has a last row 2·y·v of d numbers); 1 for a vector."""
    try:
        shape = tuple(estimator.target_shape(d))
    except (AttributeError, TypeError):
        return 1
    return shape[-1] if len(shape) == 2 else 1


# -- building the checks --------------------------------------------------------------------------
_FUNCS = {
    "unbiased.exact": (check_unbiased_exact, "E[{label}] = its target (x, wᵀx − y or the "
                       "gradient), exactly", "exact enumeration (reference, or the choice tree "
                       "of sample()); Monte Carlo when not enumerable", 0.0),
    "unbiased.monte_carlo": (check_unbiased_monte_carlo, "the sampler of {label} is unbiased "
                             "for its target", "Monte Carlo: simultaneous empirical-Bernstein "
                             "intervals (or median-of-means with the claimed G²)", None),
    "budget": (check_budget, "every draw of {label} observes at most {budget} attributes of x",
               "exact enumeration + every sampled draw", 0.0),
    "kernel_matches_reference": (check_kernel_matches_reference, "the sampler of {label} draws "
                                 "from the exact distribution of its reference",
                                 "multinomial test (per-category Clopper-Pearson, Bonferroni) "
                                 "against the enumerated distribution", None),
    "second_moment": (check_second_moment, "E‖{label}‖² <= the claimed G²",
                      "exact enumeration (Fractions)", 0.0),
    "second_moment_inf": (check_second_moment_inf, "‖E[{label}²]‖∞ <= the claimed G²",
                          "exact enumeration (Fractions)", 0.0),
    "clipping": (check_clipping, "every coordinate of every draw of {label} within the "
                 "clipping threshold", "exact enumeration + every sampled draw", 0.0),
    "clip_threshold": (check_clip_threshold, "ḡ[i] = clip(g̃[i], 1/η) in distribution: the "
                       "clipped estimate is the image of the unclipped one under clip(·, 1/η), "
                       "and every sampled draw within 1/η", "exact enumeration (Fractions) of "
                       "both estimates + every sampled draw", 0.0),
    "scaling": (check_scaling, "(w, x, y) -> (c·w, x, c·y) transforms {label} as claimed "
                "({scaling}), in distribution", "exact enumeration, c = 2", 0.0),
}

_WRAPPED = {prop: _at_own_params(entry[0]) for prop, entry in _FUNCS.items()}

_EXPECTATION_BUDGET = ("the mean number of attributes of x a draw of {label} observes is at "
                       "most {budget}", "exact mean when enumerable, else a lower confidence "
                       "bound at δ", None)


#: The statement and method of ``kernel_matches_reference`` for a sampler with no reference
#: (a user's plain numpy sampler): its n-draw ``sample()`` against the exact distribution of
#: its own single draw, enumerated by the choice tree — no reference is involved.
_OWN_ENUMERATION = ("sample() of {label} draws n at once from the same distribution as its own "
                    "single draw, enumerated exactly (no reference: the choice tree of sample() "
                    "is what the n draws are compared with)", "multinomial test (per-category "
                    "Clopper-Pearson, Bonferroni) of n draws against the exact enumeration of "
                    "one draw of sample()")


def _judged_by_itself(estimator, claims):
    """True when :func:`check_kernel_matches_reference` compares ``estimator``'s sample()
    with its own enumeration: an object with no ``reference`` and no registered reference
    in its claims (a registered name always has its literal reference)."""
    if isinstance(estimator, str):
        return False
    try:
        own = callable(getattr(estimator, "reference", None))
    except Exception:                   # noqa: BLE001 - a user's attribute that fails: none
        own = False
    return not own and (claims.reference is None or claims.reference not in estimators.names())


def applies(prop, claims):
    """Whether ``claims`` select the property check ``prop``."""
    # a spec's unbiasedness of an unbounded estimate (GenEst, AESVR) is checked by its paper's
    # module (HK12 Lemma 4.x, Thm 4.4 proof checks), not by enumeration here
    unbiased = claims.target is not None and (claims.spec is None or claims.spec.finite)
    return {
        "unbiased.exact": unbiased,
        "unbiased.monte_carlo": unbiased,
        "budget": claims.budget is not None,
        "kernel_matches_reference": claims.finite_support,
        "second_moment": claims.second_moment is not None,
        "second_moment_inf": claims.second_moment_inf is not None,
        "clipping": claims.clipping is not None,
        "clip_threshold": claims.clip is not None,
        "scaling": claims.scaling is not None,
    }[prop]


def unchecked(claims):
    """{property: why it is not checked} for every property of :data:`PROPERTIES` that
    ``claims`` do not select (listed beside the records: nothing is dropped silently)."""
    own = claims.source == "claims"
    why = {
        "unbiased.exact": "unbiasedness not claimed (claims['unbiased'] is False)" if own else
        "the spec claims no target" if claims.target is None else "an unbounded estimate: "
        "its paper's checks (laocheck verify) decide its unbiasedness",
        "budget": "no budget claimed (claims['budget'], params['budget'] or a numeric "
        "`budget` attribute)",
        "kernel_matches_reference": claims.support_note,
        "second_moment": "no bound on E‖v‖² claimed (claims['second_moment'])",
        "second_moment_inf": "no bound on ‖E[v²]‖∞ claimed (claims['second_moment_inf'])",
        "clipping": "no clipping threshold claimed (claims['clipping'])",
        "clip_threshold": None if own else "the spec claims no clipping",
        "scaling": "no scaling claimed (claims['scaling'])"}
    why["unbiased.monte_carlo"] = why["unbiased.exact"]
    return {prop: why[prop] for prop in PROPERTIES
            if not applies(prop, claims) and why[prop] is not None}


def property_checks(estimator, claims, *, label, citation, delta=stats.DEFAULT_DELTA,
                    params=None):
    """The :class:`~laocheck.checks.Check` of every property ``claims`` select, ids
    ``<label>.<property>``, bound to ``estimator`` (an object, or a registered name built with
    ``params``)."""
    out = []
    for prop in PROPERTIES:
        if not applies(prop, claims):
            continue
        func, statement, method, fixed = _FUNCS[prop]
        func = _WRAPPED[prop]
        if prop == "budget" and claims.budget_kind == "expectation":
            statement, method, fixed = _EXPECTATION_BUDGET
        exact_anyway = prop in ("clip_threshold", "clipping") or (
            prop == "budget" and claims.budget_kind == "exact")   # any draw over is real
        if not claims.finite_support and not exact_anyway:
            fixed = None          # not enumerable: the exact checks fall back to Monte Carlo
        if prop == "kernel_matches_reference" and _judged_by_itself(estimator, claims):
            statement, method = _OWN_ENUMERATION
        text = statement.format(label=label, budget=claims.budget, scaling=claims.scaling)
        assumptions = (f"exact instances {', '.join(EXACT_INSTANCES)} (dyadic, "
                       "laocheck.estimators.instances; the last four on the boundaries "
                       "‖w‖ = B, ‖x‖ = 1, |y| = B, k = d, w = 0)")
        if prop == "clip_threshold":
            assumptions += f"; η = {claims.eta:g} unless the estimator sets its own"
        out.append(Check(id=f"{label}.{prop}", func=func, citation=citation, statement=text,
                         assumptions=assumptions, method=method,
                         delta=float(delta if fixed is None else fixed),
                         detectable=None, estimator=estimator, params=dict(params or {}),
                         kwargs={"claims": claims}))
    return out


def register_properties(spec, estimator=None):
    """Register the property checks ``spec``'s claims select (at :func:`catalog_params`),
    bound to ``estimator`` (default: the registered estimator ``spec.name`` at those
    parameters)."""
    params = catalog_params(spec)
    claims = claims_from_spec(spec, params)
    registered = estimator is None
    for check in property_checks(spec.name if registered else estimator, claims,
                                 label=spec.name, citation=spec.citation,
                                 params=params if registered else {}):
        _registry._CHECKS[check.id] = check      # (re-)registered by the selection pass


def _register():
    for spec in estimators.specs():
        register_properties(spec)


def spec_label(est):
    """The label of a registered estimator of laocheck (its spec's name), else None."""
    return est.spec.name if is_laocheck_estimator(est) else None


_register()
