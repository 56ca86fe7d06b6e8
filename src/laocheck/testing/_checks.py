"""``check_estimator``: the papers' claims checked on a user's own estimator, as written.

The estimator is an object with ``target(w, x, y)``, ``sample(w, x, y, n=, rng=)`` and
(optionally) ``budget``, written in plain numpy: ``sample`` draws from the ``rng`` it is given
(a ``numpy.random.Generator``) and returns ``(values, attributes)`` — values of shape (n, d),
the number of attributes of x each draw observed — or an object with ``.values`` and
``.attributes``. No ``reference`` is needed: the exact checks enumerate ``sample`` itself by
driving its generator through every path of its random choices
(:mod:`laocheck.stats.choice_tree`); a sampler whose draws cannot be enumerated is checked by
Monte Carlo, and a claim nothing can decide is INCONCLUSIVE with the reason and what would
decide it — never dropped.

This module only turns what the user claims into the engine's :class:`~laocheck.checks.
estimator_properties.Claims` and runs the engine's checks
(:func:`laocheck.checks.algorithms.estimator_properties.property_checks`): the catalog runs the very
same checks on laocheck's own estimators.

Claims (a dict; or an :class:`~laocheck.estimators.EstimatorSpec`; default: the estimator's
``spec``):

``unbiased``          True (for ``est.target``, the default) or a callable target
                      ``(w, x, y)``; False: unbiasedness is not checked (listed as such)
``budget``            attributes per draw (default: ``est.params['budget']``, else ``est.budget``)
``budget_kind``       ``"exact"`` (every draw) or ``"expectation"`` (the mean)
``second_moment``     a bound on E‖v‖²: a number, a callable ``(w, x, y)`` or a formula id of
                      ``laocheck.bounds`` (HK12 Lemma 3.3, KS15 Lemma 3.4)
``second_moment_inf`` the same for ‖E[v²]‖∞ (HK12 Lemma 3.8, KS15 Lemma 4.5)
``q``                 the data-point distribution KS15's formulas in S / S_inf read
``clipping``          a threshold no coordinate of a draw exceeds
``scaling``           ``"degree0"``, ``"degree1"`` or ``"last_row"``
``range``             [low, high] of every coordinate of the estimate (Monte Carlo of a
                      sampler that cannot be enumerated)
``k`` / ``params``    formula parameters (a dict), see below
``finite_support``    False: do not try to enumerate the sampler

Parameters of formulas (k for ``"HK12.Lemma3.3.G2"``, ...) are read, in this order, from the
claims (``claims['k']``, ``claims['params']['k']``), the estimator's ``params`` dict
(``est.params['k']``) and its attributes (``est.k``); the error when none has it names every
place looked at.

Every property the claims do not select is listed with the reason beside the records
(``records.unchecked``); a run that checks nothing is an error, never a silent pass.

The estimator's code is untrusted (``laocheck.checks._guards``): its ``sample`` must draw
from the ``rng`` it is given (a draw from Python's ``random``, numpy's global generator or a
module-level generator is a FAIL) and leave ``w``, ``x``, ``y`` unchanged (FAIL); an exception
or ``sys.exit`` inside it is the status ERROR with the user's file and line, raised as
:class:`UserCodeError` (not an ``AssertionError``).

How ``target`` is called: in the exact checks with numpy object arrays of Fractions (so
``(w @ x - y) * x`` is exact), falling back to float arrays (their rounding accounted for by
the tolerance γ of :mod:`laocheck.stats.choice_tree`) when it fails on those or returns floats;
in the Monte Carlo checks with float arrays.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction as F
from typing import Any, Callable

import numpy as np

from .. import estimators
from ..checks import Status, run
from ..checks._common import instance_counterexample
from ..checks._guards import GuardViolation, UserCodeError, guard_estimator, user_error
from ..checks.algorithms.estimator_properties import (PROPERTIES, Claims,
                                           claims_from_spec, enumerable, instances_of,
                                           property_checks, second_moment_bound, unchecked)
from ..effort import NOVALUE, resolve
from ..estimators import EstimatorSpec
from ..estimators.instances import INSTANCES
from ..exceptions import InvalidParameterError
from ..stats import DEFAULT_DELTA
from ._claims_schema import check_estimator_claim_values

__all__ = ["Claims", "resolve_claims", "estimator_checks", "check_estimator",
           "estimator_checks_generator", "CheckFailure", "UserCodeError", "Records",
           "PROPERTIES", "labels"]

_CLAIM_KEYS = {"unbiased", "target", "budget", "budget_kind", "second_moment",
               "second_moment_inf", "q", "clipping", "finite_support", "scaling", "range",
               "params", "k"}
#: Smallest δ accepted: below it the intervals' arithmetic (δ split over coordinates and
#: instances, log 1/δ) leaves the normal doubles.
MIN_DELTA = 1e-300


class CheckFailure(AssertionError):
    """Raised by :func:`check_estimator` and :func:`check_learner` when checks fail.

    An ``AssertionError``, so that pytest reports it as a failed test.

    Parameters
    ----------
    message : str
        The report: each failing (or undecided) check with its figures.
    records : list of CheckRecord
        Every failing (or undecided) check's record, kept in ``records``.
    """

    def __init__(self, message, records):
        super().__init__(message)
        self.records = list(records)


class Records(list):
    """The records of a run (a list of :class:`~laocheck.checks.CheckRecord`), with
    ``unchecked``: {property: why it was not checked}, for the properties the claims did not
    select.

    Parameters
    ----------
    records : iterable of CheckRecord, default=()
        The records, in order.
    unchecked : dict or None, default=None
        {property: why it was not checked}.
    """

    def __init__(self, records=(), unchecked=None):
        super().__init__(records)
        self.unchecked = dict(unchecked or {})

    @property
    def decided(self):
        """The records that decided their claim (PASS, FAIL, ERRATUM)."""
        return [r for r in self if r.status in (Status.PASS.value, Status.FAIL.value,
                                                Status.ERRATUM.value)]


def unchecked_text(unchecked):
    """``not checked: prop (why); ...`` lines, or ''."""
    return "\n".join(f"    not checked: {prop}: {why}" for prop, why in unchecked.items())


def _params(est):
    try:
        return dict(getattr(est, "params", {}) or {})
    except Exception:                      # a user's params property that fails: no params
        return {}


def _lookup(est, claims):
    """``lookup(name, who)``: a formula parameter from the claims, else ``est.params``, else
    the attribute ``est.<name>``; the error names every place looked at."""
    own = _params(est)
    extra = claims.get("params") or {}
    if not isinstance(extra, dict):
        raise InvalidParameterError(f"`claims['params']` must be a dict; got {extra!r}.")

    def lookup(name, who):
        for value in (claims.get(name), extra.get(name), own.get(name),
                      getattr(est, name, None)):
            if value is not None and not callable(value):
                return value
        raise InvalidParameterError(
            f"{who} needs {name}; looked in claims[{name!r}], claims['params'][{name!r}], "
            f"the estimator's params[{name!r}] and its attribute `{name}`: none is set.")
    return lookup


def _sampling_distribution(est, spec=None, claimed=None):
    """q of KS15's S-formulas: ``claims['q']``, else the estimator's ``q`` attribute, else —
    an estimator declaring a registered spec — the q of laocheck's own estimator at the same
    parameters; None: unknown."""
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
    return claims_from_spec(spec, _params(est),
                            q=lambda: _sampling_distribution(est, spec))


def _integer(name, value):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or \
            value < 0:
        raise InvalidParameterError(f"`{name}` must be an integer >= 0; got {value!r}.")
    return int(value)


def resolve_claims(est, claims=None):
    """Resolve the claims an estimator is checked against.

    A formula id is evaluated per instance at its d, the parameter k (claims, then
    ``est.params``, then ``est.k``), the smallest B the paper's assumptions allow (‖w‖₂ and
    |y| for E‖v‖², ‖w‖₁ and |y| for ‖E[v²]‖∞), and S = Σ_i x_i²/q_i or S_inf = max_i
    x_i²/q_i of the instance.

    Parameters
    ----------
    est : object
        An instance implementing the estimator protocol.
    claims : dict, EstimatorSpec, Claims or None, default=None
        A dict (see the module docstring), an :class:`~laocheck.estimators.EstimatorSpec`, or
        :class:`Claims`; None: the estimator's own ``spec``.

    Returns
    -------
    Claims
        The engine's claims of ``est``.

    Raises
    ------
    ValueError
        If a claim is malformed (naming the key and the value) or ``est`` has no ``spec`` and
        no claims are given.
    """
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
    claims = check_estimator_claim_values(claims)
    lookup = _lookup(est, claims)
    unbiased = claims.get("unbiased", claims.get("target"))
    if unbiased is None:                # checked by default: `target` is the protocol's own
        unbiased = True
    if unbiased is True:
        target = est.target
    elif callable(unbiased):
        target = unbiased
    elif unbiased is False:
        target = None
    else:
        raise InvalidParameterError(
            f"`claims['unbiased']` must be True, False or a callable target; got {unbiased!r}.")
    budget = claims.get("budget")
    if budget is None:
        budget = _params(est).get("budget")
    if budget is None and not callable(getattr(est, "budget", None)):
        budget = getattr(est, "budget", None)
    budget = None if budget is None else _integer("claims['budget']", budget)
    default_kind = {"max": "exact"}.get(getattr(est, "budget_kind", "exact"),
                                        getattr(est, "budget_kind", "exact"))
    kind = claims.get("budget_kind", default_kind)
    if kind not in ("exact", "expectation"):
        raise InvalidParameterError(
            f"`claims['budget_kind']` must be 'exact' or 'expectation'; got {kind!r}.")
    clip = claims.get("clipping")
    if clip is not None and not (isinstance(clip, (int, float)) and not isinstance(clip, bool)
                                 and math.isfinite(clip) and clip > 0):
        raise InvalidParameterError(f"`claims['clipping']` must be a threshold > 0; got {clip!r}.")
    scaling = claims.get("scaling")
    if scaling not in (None, "degree0", "degree1", "last_row"):
        raise InvalidParameterError(
            f"`claims['scaling']` must be None, 'degree0', 'degree1' or 'last_row'; got "
            f"{scaling!r}.")
    span = claims.get("range")
    if span is not None:
        try:
            lo, hi = (float(v) for v in span)
        except (TypeError, ValueError):
            lo = hi = math.nan
        if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
            raise InvalidParameterError(
                f"`claims['range']` must be [low, high] with finite low < high; got {span!r}.")
        span = (lo, hi)
    spec = getattr(est, "spec", None)
    spec = spec if isinstance(spec, EstimatorSpec) else None
    q_value = claims.get("q")
    q_cache = {}

    def q():
        if "q" not in q_cache:
            q_cache["q"] = _sampling_distribution(est, spec, q_value)
        return q_cache["q"]
    if q_value is not None:
        q()                                         # a malformed claims['q'] is refused now
    finite = claims.get("finite_support", True)
    if not isinstance(finite, bool):
        raise InvalidParameterError(
            f"`claims['finite_support']` must be True or False; got {finite!r}.")
    note = "claims['finite_support'] is False"
    if finite and not callable(getattr(est, "reference", None)):
        guarded = guard_estimator(est)
        try:
            accepted = instances_of(guarded)
            finite, why = enumerable(guarded, accepted[0]) if accepted else \
                (False, "no instance fits")
        except KeyboardInterrupt:
            raise
        except BaseException as exc:    # noqa: BLE001 - the user's code raised or exited: each
            if user_error(exc) is None and not isinstance(exc, GuardViolation):   # check
                raise                   # that runs sample() reports it (ERROR or FAIL)
            finite, why = False, f"sample() raised {type(exc).__name__}"
        note = f"sample() cannot be enumerated: {why}"
    return Claims(target=target, budget=budget, budget_kind=kind,
                  second_moment=second_moment_bound(claims.get("second_moment"), lookup, q=q),
                  second_moment_inf=second_moment_bound(claims.get("second_moment_inf"),
                                                        lookup, key="second_moment_inf", q=q),
                  clipping=None if clip is None else float(clip), scaling=scaling, range=span,
                  params={**_params(est), **(claims.get("params") or {})}, source="claims",
                  finite_support=finite, support_note=note,
                  claimed=tuple(sorted(k for k in claims if claims[k] not in (None, False))))


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


def _label(est):
    """The estimator's label: its spec's name for laocheck's own estimators, else its
    ``name``, else its class name."""
    name = getattr(est, "name", None)
    return name if isinstance(name, str) and name else type(est).__name__


def labels(estimators_):
    """The labels of several estimators, made unique (``Mine``, ``Mine-2``, ...)."""
    seen, out = {}, []
    for est in estimators_:
        label = _label(est)
        seen[label] = seen.get(label, 0) + 1
        out.append(label if seen[label] == 1 else f"{label}-{seen[label]}")
    return out


def _citation(est, claims):
    spec = getattr(est, "spec", None)
    cite = getattr(spec, "citation", None) or getattr(est, "citation", None)
    if isinstance(cite, str) and cite:
        return cite
    return f"claims of {_label(est)}" + ("" if claims.source == "claims" else
                                         f" ({claims.source})")


def _instances(est):
    return instances_of(est)


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


def _check_delta(delta):
    if isinstance(delta, bool) or not isinstance(delta, (int, float)) or \
            not MIN_DELTA <= delta <= 1e-6:
        raise InvalidParameterError(
            f"`delta` must satisfy {MIN_DELTA:g} <= delta <= 1e-6 (a check must never flake; "
            f"smaller values underflow in the intervals' arithmetic); got {delta!r}.")


def estimator_checks(est, claims=None, *, delta=DEFAULT_DELTA, label=None):
    """The :class:`~laocheck.checks.Check` objects the claims of ``est`` select.

    The engine's checks (``laocheck.checks.algorithms.estimator_properties.property_checks``), not
    registered in the catalog; run them with :func:`laocheck.checks.run`.

    Parameters
    ----------
    est : object
        An instance implementing the estimator protocol.
    claims : dict, EstimatorSpec or None, default=None
        What the estimator claims (see :func:`resolve_claims`); None: its ``spec``.
    delta : float, default=1e-6
        False-failure probability of each statistical check, <= 1e-6.
    label : str or None, default=None
        The prefix of the check ids; None: the estimator's ``name``, else its class name.

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
    resolved = resolve_claims(est, claims)
    return property_checks(est, resolved, label=label or _label(est),
                           citation=_citation(est, resolved), delta=delta)


def estimator_checks_generator(est, claims=None, *, delta=DEFAULT_DELTA, label=None):
    """Yield ``(est, check)`` pairs, scikit-learn style.

    ``check(est, seed=0, effort="fast")`` runs one check and raises :class:`CheckFailure` when
    it FAILs or cannot decide.

    Parameters
    ----------
    est : object
        An instance implementing the estimator protocol.
    claims : dict, EstimatorSpec or None, default=None
        What the estimator claims (see :func:`resolve_claims`); None: its ``spec``.
    delta : float, default=1e-6
        False-failure probability of each statistical check, <= 1e-6.
    label : str or None, default=None
        The prefix of the check ids; None: the estimator's ``name``, else its class name.

    Yields
    ------
    tuple
        ``(est, check)``, check a callable named after the check's id.

    Raises
    ------
    ValueError
        If ``delta`` is out of range or a claim is malformed.
    """
    checks = estimator_checks(est, claims, delta=delta, label=label)
    if not checks:
        raise InvalidParameterError(
            f"`claims` select no check of {label or _label(est)}: nothing would be checked "
            "(claim unbiased, budget, second_moment, clipping or scaling).")
    for check in checks:
        yield est, _Callable(check)


def _bind_estimator(check, est):
    return check.with_estimator(est)


@dataclass(frozen=True)
class _Callable:
    """One check as a callable on the estimator (or, with ``bind``, on any object the check
    is rebound to: a learner), named after the check's id."""

    check: Any
    bind: Callable = _bind_estimator

    @property
    def __name__(self):                                  # pytest ids and reprs
        return self.check.id

    def __call__(self, est, *, seed=0, effort="fast", expected_failure=None,
                 allow_inconclusive=False, budget=NOVALUE):
        __tracebackhide__ = True                        # pytest: the user's frames only
        record = run(self.bind(self.check, est), seed, resolve(effort, budget=budget))
        _raise_on_failures([record], {} if expected_failure is None else
                           {self.check.id: expected_failure}, allow_inconclusive)
        return record

    def __repr__(self):
        return f"<laocheck check {self.check.id}>"


#: Most lines of the message of a :class:`CheckFailure` (pytest shows it as one block).
MAX_MESSAGE_LINES = 15
#: Most characters of the ``measured`` line: whole ``key=value`` parts only, never cut inside one.
MAX_MEASURED = 240
#: The keys of a counterexample that describe its instance (its own lines, not ``measured``):
#: an estimator's exact instance, or a learner's distribution and run.
_INSTANCE_KEYS = ("instance", "w", "x", "y", "k", "q", "reproduce")
_DISTRIBUTION_KEYS = ("distribution", "d", "m", "R", "B", "k", "run", "random_state",
                      "data_seed", "reproduce")


def _value_text(value, depth=0):
    """A figure as short text: floats to 6 significant digits, lists and dicts whole up to
    8 items (then ``…``), exact numbers (Fractions as strings) as they are."""
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, (list, tuple)):
        items = [_value_text(v, depth + 1) for v in value[:8]]
        return "[" + ", ".join(items + (["…"] if len(value) > 8 else [])) + "]"
    if isinstance(value, dict):
        items = [f"{k}: {_value_text(v, depth + 1)}" for k, v in list(value.items())[:8]]
        return "{" + ", ".join(items + (["…"] if len(value) > 8 else [])) + "}"
    text = str(value)
    return text if depth == 0 or len(text) <= 80 else text[:79] + "…"


def _whole_parts(parts, limit):
    """``parts`` joined with ", " while the text stays within ``limit`` characters; the parts
    left out are counted (``(+2 more)``), never cut in the middle."""
    shown = []
    for part in parts:
        if shown and len(", ".join(shown + [part])) > limit:
            break
        shown.append(part)
    left = len(parts) - len(shown)
    return ", ".join(shown) + (f" (+{left} more)" if left else "")


def _measured(record):
    """What the check measured: the counterexample's own keys (not its instance), else the
    figures, with δ and the smallest violation the run detects."""
    ce = record.counterexample
    if isinstance(ce, dict):
        keys = _INSTANCE_KEYS if "instance" in ce or "distribution" not in ce else \
            _DISTRIBUTION_KEYS
        source = {k: v for k, v in ce.items() if k not in keys}
    elif ce not in (None, [], ""):
        source = {"counterexample": ce}
    else:
        source = {k: v for k, v in (record.figures or {}).items() if k != "instance"}
    parts = [f"{k}={_value_text(v)}" for k, v in source.items()]
    text = _whole_parts(parts, MAX_MEASURED) if parts else "-"
    return (f"{text} (δ = {record.delta:g}; smallest detectable violation: "
            f"{_value_text(record.detectable)})")


def _instance_lines(record):
    ce = record.counterexample
    if isinstance(ce, dict) and "instance" not in ce and "distribution" in ce:
        values = ", ".join(f"{k}={_value_text(ce[k])}" for k in _DISTRIBUTION_KEYS[:-2]
                           if k in ce and ce[k] is not None)
        return [f"  data:      {values}"] + \
            ([f"  reproduce: {ce['reproduce']}"] if "reproduce" in ce else [])
    if not isinstance(ce, dict) or "reproduce" not in ce:
        # a counterexample (or the figures) naming its instance only: its values from the name
        inst = ce.get("instance") if isinstance(ce, dict) else None
        inst = inst or (record.figures or {}).get("instance")
        if not (isinstance(inst, str) and inst in INSTANCES):
            return []
        k = ce.get("k") if isinstance(ce, dict) else None
        ce = instance_counterexample({}, inst, k=k)
    values = ", ".join(f"{k}={_value_text(ce[k])}" for k in ("w", "x", "y", "k", "q")
                       if k in ce)
    return [f"  instance:  {ce['instance']}: {values}", f"  reproduce: {ce['reproduce']}"]


def _explain(record):
    """The lines of one record in a failure: what was claimed, what was measured (or why it
    was not decided) and the record's note, the instance and the line of Python that rebuilds
    it."""
    lines = [f"{record.id}: {record.status} ({record.citation})",
             f"  claimed:   {record.statement}"]
    if record.status == Status.INCONCLUSIVE.value:
        lines.append(f"  why:       {(record.note or 'no reason recorded').strip()}")
    else:
        lines.append(f"  measured:  {_measured(record)}")
        if record.note:
            lines.append(f"  note:      {' '.join(record.note.split())}")
    return lines + _instance_lines(record)


def failure_message(header, records, extra=(), footer=()):
    """The message of a :class:`CheckFailure`: ``header``, then each record's lines
    (:func:`_explain`) while the message stays within :data:`MAX_MESSAGE_LINES` lines, the
    records left out named on one line, then ``extra`` and ``footer`` (one line each)."""
    extra, footer = list(extra), list(footer)
    room = MAX_MESSAGE_LINES - 1 - len(extra) - len(footer)
    body, left = [], []
    for r in records:
        lines = _explain(r)
        if not left and len(body) + len(lines) <= room - (1 if r is not records[-1] else 0):
            body += lines
        else:
            left.append(r)
    if left:
        body.append(_whole_parts([f"{r.id} {r.status}" for r in left], 160)
                    .join(["also: ", " (each one's figures in exc.records)"]))
    return "\n".join([header] + body + extra + footer)


def _raise_on_failures(records, expected, allow_inconclusive=False, unchecked=None):
    __tracebackhide__ = True                            # pytest: the user's frames only
    errors = [r for r in records if r.status == Status.ERROR.value]
    if errors:
        raise UserCodeError(
            f"{len(errors)} laocheck check(s) could not run: the code under test raised or "
            "exited (ERROR, not a verdict):\n"
            + "\n".join(f"{r.id}: ERROR\n    {r.note}" for r in errors), errors)
    bad = {Status.FAIL.value} | (set() if allow_inconclusive else {Status.INCONCLUSIVE.value})
    failing = [r for r in records if r.status in bad and r.id not in expected]
    unexpected_pass = [r for r in records if r.id in expected and r.status != Status.FAIL.value]
    footer = [unchecked_line(unchecked)] if unchecked else []
    where = (f"seed {records[0].seed}, effort {records[0].effort!r}") if records else ""
    if not failing and not unexpected_pass:
        if records and not any(r.status in (Status.PASS.value, Status.FAIL.value,
                                            Status.ERRATUM.value) for r in records):
            raise CheckFailure(failure_message(
                f"nothing was checked: every one of the {len(records)} laocheck check(s) "
                f"could not decide (INCONCLUSIVE, allowed), so no claim holds ({where}):",
                list(records), footer=footer), list(records))
        return
    extra = [f"{r.id}: expected to FAIL ({expected[r.id]}) but is {r.status}"
             for r in unexpected_pass]
    if len(extra) > 3:                  # one line for many: the message stays one block
        extra = [_whole_parts([f"{r.id} ({r.status})" for r in unexpected_pass], 200)
                 .join(["expected to FAIL but did not: ", ""])]
    raise CheckFailure(failure_message(
        f"{len(failing) + len(unexpected_pass)} of {len(records)} laocheck check(s) failed or "
        f"could not decide ({where}):", failing, extra, footer), failing + unexpected_pass)


def unchecked_line(unchecked):
    """One line naming the properties not checked (``records.unchecked`` says why)."""
    return _whole_parts(list(unchecked), 160).join(
        ["not checked: ", " (on_fail=None returns the records; their .unchecked says why)"])


def check_estimator(est, claims=None, *, seed=0, effort="fast", delta=DEFAULT_DELTA,
                    on_fail="raise", expected_failed_checks=None, allow_inconclusive=False,
                    budget=NOVALUE):
    """Run every check that ``est``'s claims select; return the records.

    The checks are the paper's properties of a gradient estimator (unbiasedness, budget, second
    moment: e.g. HK12 Lemma 3.3, KS15 Lemma 3.4), each judged at the false-failure probability
    ``delta``.

    Parameters
    ----------
    est : object
        An instance implementing the estimator protocol (not a class).
    claims : dict, EstimatorSpec or None, default=None
        What the estimator claims (see :func:`resolve_claims`); None: its ``spec``.
    seed : int, default=0
        The seed of the run (each check's stream is spawned from it, as ``laocheck verify``).
    effort : Effort or str, default="fast"
        The effort profile (:mod:`laocheck.effort`: ``"tiny"``, ``"fast"``, ``"full"`` or a
        registered one), or the profile itself: the sample sizes of the statistical checks,
        as ``laocheck verify --effort``.
    delta : float, default=1e-6
        False-failure probability of each statistical check, <= 1e-6.
    on_fail : {"raise", None}, default="raise"
        "raise": an ``AssertionError`` (:class:`CheckFailure`) listing each failing check with
        its figures, δ and the smallest detectable violation — and each check that could not
        decide (INCONCLUSIVE, with the reason), unless ``allow_inconclusive``; None: return
        the records.
    expected_failed_checks : dict or None, default=None
        {property or id: reason}: checks expected to FAIL (like scikit-learn's); one that does
        not FAIL is reported.
    allow_inconclusive : bool, default=False
        Whether an INCONCLUSIVE check passes with ``on_fail="raise"`` (not when every check
        is INCONCLUSIVE: then nothing was checked).
    budget : str, optional
        Deprecated spelling of ``effort`` (a :class:`DeprecationWarning`); ``claims['budget']``
        is the attributes per draw.

    Returns
    -------
    Records
        One record per check, in order (:class:`~laocheck.checks.CheckRecord`), a list with
        ``unchecked``: {property: why it was not checked}.

    Raises
    ------
    UserCodeError
        With ``on_fail="raise"``, when the estimator's code raised or exited in a check
        (ERROR), naming the exception and the user's file and line.
    CheckFailure
        With ``on_fail="raise"``, when a check FAILs or cannot decide (unless expected or
        allowed), an expected failure does not FAIL, or nothing was checked (every check
        INCONCLUSIVE).
    ValueError
        If ``est`` does not implement the protocol, a claim or parameter is malformed (naming it),
        ``expected_failed_checks`` names a check that does not exist, or the claims select no
        check (``{"unbiased": False}`` alone): nothing would be checked.
    """
    __tracebackhide__ = True                            # pytest: the user's frames only
    if on_fail not in ("raise", None):
        raise InvalidParameterError(f"`on_fail` must be 'raise' or None; got {on_fail!r}.")
    effort = resolve(effort, budget=budget)
    _check_delta(delta)
    resolved = resolve_claims(est, claims)
    skipped = unchecked(resolved)
    checks = property_checks(est, resolved, label=_label(est),
                             citation=_citation(est, resolved), delta=delta)
    if not checks:
        raise InvalidParameterError(
            f"`claims` select no check of {_label(est)}: nothing would be checked. Claim at "
            "least one of unbiased (True: E[sample] = target, the default), budget, "
            "second_moment, second_moment_inf, clipping or scaling; not checked:\n"
            + unchecked_text(skipped))
    return run_checks(checks, _label(est), seed, effort, on_fail, expected_failed_checks,
                      allow_inconclusive, unchecked=skipped)


def run_checks(checks, label, seed, effort, on_fail, expected_failed_checks,
               allow_inconclusive, *, unchecked=None):
    """Run ``checks`` (of the object labelled ``label``) and return their records, raising
    :class:`CheckFailure` when ``on_fail == "raise"`` and one FAILs unexpectedly (or is
    undecided, unless ``allow_inconclusive``); ``expected_failed_checks`` names checks by
    property or id. The body of :func:`check_estimator` and of ``check_learner``."""
    __tracebackhide__ = True                            # pytest: the user's frames only
    expected = {}
    for key, reason in (expected_failed_checks or {}).items():
        cid = key if key.startswith(label + ".") else f"{label}.{key}"
        if cid not in {c.id for c in checks}:
            raise InvalidParameterError(
                f"`expected_failed_checks` names {key!r}, which is not a check of {label} "
                f"(its checks: {[c.id[len(label) + 1:] for c in checks]}).")
        expected[cid] = reason
    records = Records((run(c, seed, effort) for c in checks), unchecked)
    if on_fail == "raise":
        _raise_on_failures(records, expected, allow_inconclusive, unchecked)
    return records
