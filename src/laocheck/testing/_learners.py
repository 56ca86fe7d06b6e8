"""``check_learner``: what a learning algorithm claims, checked on a user's own learner as written.

The learner is any object with ``fit(X, y)`` and ``coef_`` — a plain numpy class needs no
laocheck import — and, where it has them, ``partial_fit``, ``w_`` (the last iterate), ``eta_``
(the step size used), ``attributes_per_example_`` and a ``random_state`` parameter (set by the
checks through ``set_params`` or as an attribute, on a copy: the caller's object is never
fitted). This module turns the claims into the engine's
:class:`~laocheck.checks.algorithms.learner_properties.LearnerClaims` and runs the engine's checks
(:func:`laocheck.checks.algorithms.learner_records.learner_checks`, the generator the catalog registers
from too: a laocheck learner also gets its class's settings and sampler checks, the catalog's
very checks); every claim made gets a record,
PASS, FAIL or INCONCLUSIVE with the reason. Without claims, a learner is checked for its
budget (its reports true, and its ``budget`` where it has one) and its determinism; every
property not checked is listed with the reason (``check_learner(...).not_checked``).

Claims (a dict; default: a laocheck learner's :class:`~laocheck.estimators.LearnerSpec`):

``budget``         attributes read per example (an int; default: the learner's ``budget``
                   attribute or parameter, else none: the check then verifies only that the
                   learner's reports of its reads are true; False: not checked),
                   ``budget_kind`` "exact" or "expectation". Judged by what the output depends
                   on: refits on X with the attributes not reported replaced (see
                   :func:`laocheck.checks.algorithms.learner_properties.check_budget`); a learner may
                   report which attributes it read of each example in ``attributes_read_``
``constraint``     "l2" or "l1": ‖w‖ <= B for coef_ and every exposed iterate
``geometry``       "l2" or "l1" (default: the constraint's, else "l2"): the distributions of the
                   excess-risk check and the ball of w*
``B``, ``k``       the radius and the budget parameter (default: the learner's ``B`` and ``k``)
``bound``          E[L_D(w̄)] − L_D(w*) <= bound: a formula id of ``laocheck.bounds``, a user
                   bound (``laocheck.bounds.user_bound``) or its name, a sympy expression in
                   d, k, m, B, N_half, N_one, N_inf and ``params``, or a callable taking
                   those names as keywords
``step_size``      ``eta_`` equals this formula (same forms as ``bound``)
``deterministic``  True (default): the same seed gives the same coef_;
``randomized``     True / False (default: whether it has ``random_state``): different seeds
                   give different coef_
``sklearn``        True: a subset of scikit-learn's estimator checks (default: True when the
                   learner has ``get_params``)
``params``         more values of the bound's symbols (a dict)
``loss``           "half" (HK12, KS15: ½(wᵀx − y)², the default) or "squared" (CB11)
``d``, ``m``, ``R``  the dimension, examples per run and replicates of the excess-risk check
                   (``m`` and ``R`` an int or (fast, full); default d = max(8, 2k),
                   m = (200, 2000), R = (20, 100))
``distributions``  laocheck.data distributions for the excess-risk check (default: by geometry)
``fit_params``     a callable X -> dict of parameters set before each fit
"""

from __future__ import annotations

import inspect
import math
from dataclasses import replace

import numpy as np
import sympy as sp

from .. import bounds
from ..checks.algorithms.learner_properties import LearnerClaims
from ..checks.algorithms.learner_records import learner_checks as _yield_checks, record_of, spec_claims
from ..estimators import LearnerSpec
from ..effort import NOVALUE, resolve
from ..exceptions import InvalidParameterError
from ..stats import DEFAULT_DELTA
from ._checks import _Callable, run_checks
from ._claims_schema import check_learner_claim_values

__all__ = ["check_learner", "learner_checks", "learner_checks_generator",
           "resolve_learner_claims", "is_learner", "LearnerClaims", "LearnerRecords"]

_CLAIM_KEYS = {"budget", "budget_kind", "constraint", "geometry", "B", "k", "bound",
               "step_size", "deterministic", "randomized", "sklearn", "params", "loss", "d", "m",
               "R", "distributions", "fit_params"}


def is_learner(obj):
    """True for an object of the learner protocol (``fit``, no estimator ``sample``)."""
    return callable(getattr(obj, "fit", None)) and not callable(getattr(obj, "sample", None))


def _check_protocol(learner):
    if isinstance(learner, type):
        raise InvalidParameterError(
            f"`learner` must be a learner object, not the class {learner.__name__}: pass "
            f"{learner.__name__}(...) with its parameters.")
    if not callable(getattr(learner, "fit", None)):
        raise InvalidParameterError(
            f"`learner` must have fit(X, y) and set coef_; {type(learner).__name__} has no fit.")


def _own_params(learner):
    try:
        return dict(learner.get_params(deep=False))
    except Exception:                  # a plain learner: get_params absent or failing
        return {k: v for k, v in vars(learner).items() if not k.startswith("_")}


def _lookup(learner, claims, name):
    for value in (claims.get(name), (claims.get("params") or {}).get(name),
                  _own_params(learner).get(name)):
        if value is not None and not callable(value) and not isinstance(value, str):
            return value
    return None


def _formula(value, what, params):
    """``value`` (formula id, user bound, its name, sympy expression, callable) as
    (callable ``values -> float``, text, the names it needs)."""
    if callable(value) and not isinstance(value, sp.Expr) and not hasattr(value, "expr"):
        sig = inspect.signature(value)
        takes_all = any(p.kind == p.VAR_KEYWORD for p in sig.parameters.values())
        names = tuple(n for n, p in sig.parameters.items()
                      if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))

        def call(values):
            args = values if takes_all else {n: values[n] for n in names if n in values}
            missing = [n for n in names if n not in values and
                       sig.parameters[n].default is inspect.Parameter.empty]
            if missing:
                raise InvalidParameterError(
                    f"{what} ({getattr(value, '__name__', 'a callable')}) needs {missing}; "
                    f"the checks supply {sorted(values)} (add the others to claims['params']).")
            return float(value(**args))
        label = getattr(value, "__name__", "a callable")
        return call, label, names
    resolved = bounds.resolve_bound(value, what)

    def call(values):
        return float(resolved(**{n: values[n] for n in resolved.args if n in values}))
    cite = getattr(resolved, "citation", "")
    text = f"{resolved.id}" if isinstance(value, str) else str(resolved.expr)
    if cite:
        text += f" ({cite})"
    return call, text, tuple(resolved.args)


def _pair(name, value):
    if isinstance(value, (tuple, list)) and len(value) == 2:
        a, b = value
    else:
        a = b = value
    for v in (a, b):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
            raise InvalidParameterError(
                f"`claims[{name!r}]` must be an integer >= 1 or a pair (fast, full); got "
                f"{value!r}.")
    return int(a), int(b)


def _choice(name, value, allowed):
    if value not in allowed:
        raise InvalidParameterError(
            f"`claims[{name!r}]` must be one of {list(allowed)}; got {value!r}.")
    return value


def resolve_learner_claims(learner, claims=None):
    """Resolve the claims a learner is checked against.

    Parameters
    ----------
    learner : object
        An instance with ``fit(X, y)`` and ``coef_``.
    claims : dict, LearnerClaims or None, default=None
        A dict (see the module docstring) or :class:`LearnerClaims`; None: the
        :class:`~laocheck.estimators.LearnerSpec` of its class.

    Returns
    -------
    LearnerClaims
        The engine's claims of ``learner``.

    Raises
    ------
    ValueError
        If a claim is malformed (naming the key and the value) or the learner has no spec and
        no claims are given.
    """
    _check_protocol(learner)
    if isinstance(claims, LearnerClaims):
        return claims
    spec = getattr(type(learner), "spec", None)
    if claims is None:
        if isinstance(spec, LearnerSpec):
            return spec_claims(spec, _own_params(learner))
        claims = {}
    if not isinstance(claims, dict):
        raise InvalidParameterError(
            f"`claims` must be a dict, LearnerClaims or None; got {type(claims).__name__}.")
    unknown = set(claims) - _CLAIM_KEYS
    if unknown:
        raise InvalidParameterError(
            f"`claims` has unknown keys {sorted(unknown)}; the claims are {sorted(_CLAIM_KEYS)}.")
    claims = check_learner_claim_values(claims)
    if not isinstance(claims.get("params", {}) or {}, dict):
        raise InvalidParameterError(f"`claims['params']` must be a dict; got {claims['params']!r}.")
    params = dict(claims.get("params") or {})
    k = _lookup(learner, claims, "k")
    B = _lookup(learner, claims, "B")
    constraint = claims.get("constraint")
    if constraint not in (None, False):
        _choice("constraint", constraint, ("l2", "l1"))
    geometry = _choice("geometry", claims.get("geometry", constraint or "l2"), ("l2", "l1"))
    if constraint and geometry != constraint:
        raise InvalidParameterError(
            f"`claims['geometry']`={geometry!r} disagrees with `claims['constraint']`="
            f"{constraint!r}.")
    undecided = {}
    bound = text = step = step_text = None
    needs_B = constraint or claims.get("bound") is not None
    if needs_B:
        if B is None:
            raise InvalidParameterError(
                "the constraint and bound claims need B; looked in claims['B'], "
                "claims['params']['B'] and the learner's B: none is set.")
        B = float(B)
        if not (math.isfinite(B) and B > 0):
            raise InvalidParameterError(f"`claims['B']` must be a number > 0; got {B!r}.")
    if k is not None:
        params["k"] = k
    if B is not None:
        params["B"] = float(B)
    if claims.get("bound") is not None:
        bound, text, names = _formula(claims["bound"], "`claims['bound']`", params)
    if claims.get("step_size") is not None:
        step, step_text, _ = _formula(claims["step_size"], "`claims['step_size']`", params)
    budget = claims.get("budget")
    reads = budget is not False                 # False: the budget check is not run at all
    if budget is False:
        budget = None
    elif budget is None:                        # the learner's own budget, where it has one
        own = _own_params(learner).get("budget", getattr(learner, "budget", None))
        if isinstance(own, (int, np.integer)) and not isinstance(own, bool) and own >= 0:
            budget = int(own)
    if budget is not None and (isinstance(budget, bool) or not isinstance(
            budget, (int, np.integer)) or budget < 0):
        raise InvalidParameterError(f"`claims['budget']` must be an integer >= 0 (or False: "
                                    f"not checked); got {budget!r}.")
    kind = _choice("budget_kind", claims.get("budget_kind", "exact"), ("exact", "expectation"))
    loss = _choice("loss", claims.get("loss", "half"), ("half", "squared"))
    d = claims.get("d", max(8, 2 * k) if isinstance(k, (int, np.integer)) else 8)
    if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 2:
        raise InvalidParameterError(f"`claims['d']` must be an integer >= 2; got {d!r}.")
    if k is not None and isinstance(k, (int, np.integer)) and k > d:
        raise InvalidParameterError(
            f"`claims['d']` must be >= k (k of the d attributes); got d={d} with k={k}.")
    dists = claims.get("distributions")
    if dists is not None:
        dists = tuple(dists)
        if not dists or not all(hasattr(x, "excess_risk") and hasattr(x, "sample")
                                for x in dists):
            raise InvalidParameterError(
                "`claims['distributions']` must be laocheck.data distributions (with exact "
                f"risk); got {claims['distributions']!r}.")
    fit_params = claims.get("fit_params")
    if fit_params is not None and not callable(fit_params):
        raise InvalidParameterError(
            f"`claims['fit_params']` must be a callable X -> dict; got {fit_params!r}.")
    has_get = callable(getattr(learner, "get_params", None))
    claimed = tuple(sorted(n for n in claims if claims[n] not in (None, False)))
    resolved = LearnerClaims(
        budget=None if budget is None else int(budget), budget_kind=kind, reads=reads,
        constraint=bool(constraint), geometry=geometry, B=None if B is None else float(B),
        bound=bound, bound_text=text or "", step_size=step, step_text=step_text or "",
        deterministic=bool(claims.get("deterministic", True)),
        randomized=claims.get("randomized"), sklearn=bool(claims.get("sklearn", has_get)),
        params=params, loss=loss, d=int(d), m=_pair("m", claims.get("m", (200, 2000))),
        R=_pair("R", claims.get("R", (20, 100))), distributions=dists, fit_params=fit_params,
        undecided=undecided, source="claims", claimed=claimed)
    return replace(resolved, not_checked=_not_checked(resolved, has_get))


def _not_checked(claims, has_get):
    """{property: why it is not checked} for every property ``claims`` leave out (the budget
    without a number: checked only in part)."""
    out = {}
    if not claims.reads and claims.budget is None:
        out["budget"] = "claims['budget'] is False"
    elif claims.budget is None:
        out["budget"] = ("no budget claimed (claims['budget'], or the learner's `budget`): only "
                         "that its reports of the attributes it read are true is checked")
    if not claims.constraint:
        out["constraint"] = "not claimed (claims['constraint']: 'l2' or 'l1', with B)"
    if claims.step_size is None and "step_size" not in claims.undecided:
        out["step_size"] = "not claimed (claims['step_size']: a formula of d, k, m, B)"
    if claims.bound is None and "excess_risk" not in claims.undecided:
        out["excess_risk"] = "no bound claimed (claims['bound']: a formula of d, k, m, B)"
    if not claims.deterministic:
        out["deterministic"] = "claims['deterministic'] is False"
    if not claims.sklearn:
        out["sklearn"] = ("the learner has no get_params" if not has_get else
                          "claims['sklearn'] is False") + " (claim 'sklearn': True to check it)"
    return out


def _label(learner):
    name = getattr(learner, "name", None)
    if isinstance(name, str) and name:
        return name
    spec = getattr(type(learner), "spec", None)
    if isinstance(spec, LearnerSpec) and vars(type(learner)).get("spec") is spec:
        return spec.name
    return type(learner).__name__


def _citation(learner, claims):
    spec = getattr(type(learner), "spec", None)
    cite = getattr(spec, "citation", None) or getattr(learner, "citation", None)
    if isinstance(cite, str) and cite:
        return cite
    return f"claims of {_label(learner)}" + ("" if claims.source == "claims" else
                                             f" ({claims.source})")


def _check_delta(delta):
    if isinstance(delta, bool) or not isinstance(delta, (int, float)) or \
            not 1e-300 <= delta <= 1e-6:
        raise InvalidParameterError(
            f"`delta` must satisfy 1e-300 <= delta <= 1e-6 (a check must never flake); got "
            f"{delta!r}.")


def learner_checks(learner, claims=None, *, delta=DEFAULT_DELTA, label=None):
    """The :class:`~laocheck.checks.Check` objects the claims of ``learner`` select.

    Not registered in the catalog; run them with :func:`laocheck.checks.run`.

    Parameters
    ----------
    learner : object
        An instance with ``fit(X, y)`` and ``coef_``.
    claims : dict, LearnerClaims or None, default=None
        What the learner claims; None: its class's ``spec``.
    delta : float, default=1e-6
        False-failure probability of each statistical check, <= 1e-6.
    label : str or None, default=None
        The prefix of the check ids; None: the learner's spec name, else its class name.

    Returns
    -------
    list of Check
        The checks, not yet run.

    Raises
    ------
    ValueError
        If ``delta`` is out of range or a claim is malformed.
    """
    _check_delta(delta)
    resolved = resolve_learner_claims(learner, claims)
    return list(_yield_checks(learner, resolved, label=label or _label(learner),
                              citation=_citation(learner, resolved), delta=delta))


def _bind_learner(check, learner):
    return replace(check, kwargs={**check.kwargs, "learner": learner})


def learner_checks_generator(learner, claims=None, *, delta=DEFAULT_DELTA, label=None):
    """Yield ``(learner, check)`` pairs, scikit-learn style.

    ``check(learner, seed=0, effort="fast")`` runs one check and raises
    :class:`CheckFailure` when it FAILs or cannot decide.

    Parameters
    ----------
    learner : object
        An instance with ``fit(X, y)`` and ``coef_``.
    claims : dict, LearnerClaims or None, default=None
        What the learner claims; None: its class's ``spec``.
    delta : float, default=1e-6
        False-failure probability of each statistical check, <= 1e-6.
    label : str or None, default=None
        The prefix of the check ids; None: the learner's spec name, else its class name.

    Yields
    ------
    tuple
        ``(learner, check)``, check a callable named after the check's id.

    Raises
    ------
    ValueError
        If ``delta`` is out of range or a claim is malformed.
    """
    for check in learner_checks(learner, claims, delta=delta, label=label):
        yield learner, _Callable(check, _bind_learner)


def check_learner(learner, claims=None, *, seed=0, effort="fast", delta=DEFAULT_DELTA,
                  on_fail="raise", expected_failed_checks=None, allow_inconclusive=False,
                  budget=NOVALUE):
    """Run every check ``learner``'s claims select; return the records.

    The properties a paper claims of a learner: its budget of attributes per example, its
    constraint, its step size and its excess-risk bound (e.g. HK12 Thm 3.1 for AERR).

    Parameters
    ----------
    learner : object
        An instance with ``fit(X, y)`` and ``coef_`` (not a class).
    claims : dict, LearnerClaims or None, default=None
        What the learner claims (see the module docstring); None: its class's ``spec``.
    seed : int, default=0
        The seed of the run (each check's stream is spawned from it, as ``laocheck verify``).
    effort : Effort or str, default="fast"
        The effort profile (:mod:`laocheck.effort`: ``"tiny"``, ``"fast"``, ``"full"`` or a
        registered one), or the profile itself: the sample sizes of the statistical checks,
        as ``laocheck verify --effort``.
    delta : float, default=1e-6
        False-failure probability of each statistical check, <= 1e-6 (the excess-risk check
        splits it over its distributions).
    on_fail : {"raise", None}, default="raise"
        "raise": a :class:`CheckFailure` (an ``AssertionError``) listing each failing check
        with its figures and counterexample — and each INCONCLUSIVE one, unless
        ``allow_inconclusive``; None: return the records.
    expected_failed_checks : dict or None, default=None
        {property or id: reason}: checks expected to FAIL; one that does not is reported.
        A laocheck learner's own expected failures (its record's ``xfail``,
        ``laocheck.checks.algorithms.learner_records.RECORDS``) are added.
    allow_inconclusive : bool, default=False
        Whether an INCONCLUSIVE check passes with ``on_fail="raise"``.
    budget : str, optional
        Deprecated spelling of ``effort`` (a :class:`DeprecationWarning`); ``claims['budget']``
        is the attributes per example.

    Returns
    -------
    LearnerRecords
        One record per check, in order (a list), and ``not_checked``: {check id: why} for every
        property the claims leave out (``records.summary()`` lists both).

    Raises
    ------
    CheckFailure
        With ``on_fail="raise"``, when a check FAILs or cannot decide (unless expected or
        allowed), or an expected failure does not FAIL; its message ends with the properties
        not checked and why.
    ValueError
        If ``learner`` lacks ``fit``, a claim or parameter is malformed, or
        ``expected_failed_checks`` names a check that does not exist.

    Examples
    --------
    >>> from laocheck.learners import AERR
    >>> records = check_learner(AERR(k=2), on_fail=None)
    >>> sorted(r.id for r in records)[:2]
    ['HK12.AERR.attribute_inclusion', 'HK12.AERR.budget']
    """
    __tracebackhide__ = True                            # pytest: the user's frames only
    if on_fail not in ("raise", None):
        raise InvalidParameterError(f"`on_fail` must be 'raise' or None; got {on_fail!r}.")
    effort = resolve(effort, budget=budget)
    _check_delta(delta)
    resolved = resolve_learner_claims(learner, claims)
    label = _label(learner)
    not_checked = {f"{label}.{prop}": why for prop, why in resolved.not_checked.items()}
    record = record_of(learner)
    expected = {**(record.xfail if record is not None else {}), **(expected_failed_checks or {})}
    records = run_checks(learner_checks(learner, resolved, delta=delta), label, seed,
                         effort, on_fail, expected, allow_inconclusive, unchecked=not_checked)
    return LearnerRecords(records, not_checked)


def _not_checked_text(not_checked):
    return "not checked:\n" + "\n".join(f"  {cid}: {why}" for cid, why in not_checked.items())


class LearnerRecords(list):
    """The records of :func:`check_learner` (a list of
    :class:`~laocheck.checks.CheckRecord`), with ``not_checked``: {check id: why} for each
    property of a learner that the claims leave out, or check only in part (a budget check
    without a claimed number checks only that the reports are true).

    Parameters
    ----------
    records : list of CheckRecord
        The records, in order.
    not_checked : dict
        {check id: the reason it is not checked}.
    """

    def __init__(self, records, not_checked):
        super().__init__(records)
        self.not_checked = dict(not_checked)

    @property
    def unchecked(self):
        """The same as ``not_checked``, under the name an estimator's ``Records`` use."""
        return self.not_checked

    def summary(self):
        """One line per record (id, status) and per property not checked (id, why).

        Returns
        -------
        str
            The lines, joined.
        """
        lines = [f"{r.id}: {r.status}" for r in self]
        if self.not_checked:
            lines.append(_not_checked_text(self.not_checked))
        return "\n".join(lines)

