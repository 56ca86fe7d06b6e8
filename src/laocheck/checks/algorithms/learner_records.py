"""One record per learner and one generator of its checks (PyTorch's OpInfo, scikit-learn's
``_yield_all_checks``): the catalog and :func:`laocheck.testing.check_learner` draw the same
checks from it, so one id is one check, with one sample size and one evidence.

A :class:`LearnerRecord` holds what laocheck knows of one learner class of
:mod:`laocheck.learners`: its :class:`~laocheck.estimators.LearnerSpec` (budget, geometry,
theorems), the parameters the catalog fits it with (``k = 2``), its settings check
(:mod:`laocheck.checks.algorithms.learner_settings`: ``eta="theory"``, q, w_1 against the papers), and
its expected failures (``xfail``: ``{property: reason}``, strict: an expected failure that
passes is reported). :func:`spec_claims` turns a spec into the engine's
:class:`~laocheck.checks.algorithms.learner_properties.LearnerClaims`, as
:func:`~laocheck.checks.algorithms.estimator_properties.claims_from_spec` does for an estimator: the one
route from a spec to its claims, for the catalog and for ``check_learner``.

:func:`learner_checks` yields, for a learner:

* the property checks its claims select (:mod:`laocheck.checks.algorithms.learner_properties`):
  ``budget``, ``constraint``, ``step_size``, ``excess_risk``, ``deterministic``, ``sklearn``,
  which judge the instance;
* the checks of its record, when the learner is an instance of a laocheck learner class (its
  own ``spec``) or the record itself: ``<spec>.settings`` (where the record has one),
  ``<spec>.steps_match_reference`` and ``<spec>.attribute_inclusion``
  (:mod:`laocheck.checks.algorithms.learner_samplers`), which judge the class.

The catalog registers, for every record, what the generator yields for the record itself
(the class named, loaded when a check runs) restricted to :data:`CATALOG_PROPERTIES` among the
property checks; ``check_learner(Cls(k=2))`` runs every check the generator yields for the
instance, the catalog's among them with the same records at a seed.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import numpy as np

from ... import bounds, learners
from ...estimators import LearnerSpec
from ...experiments.theorems import LOSS
from ...learners._specs import SPECS
from ...exceptions import InvalidParameterError
from .._registry import DEFAULT_DELTA, Check, Status, register
from .learner_properties import _EXACT, _FUNCS, LEARNER_PROPERTIES, LearnerClaims, applies
from .learner_samplers import sampler_checks
from .learner_settings import SETTINGS

__all__ = ["LearnerRecord", "RECORDS", "CATALOG_PROPERTIES", "SUPPLIED", "learner_checks",
           "record_of", "spec_claims"]

#: The budget parameter of the catalog's instance of every learner.
K = 2
#: The property checks the catalog registers for every record (the others run in
#: ``check_learner`` only; they join the catalog once each has its mutation witness,
#: tests/checks/test_witnesses.py).
CATALOG_PROPERTIES = ("budget",)
#: The names the checks give a bound's symbols (more come from ``params`` and, for laocheck's
#: learners, from the fitted learner: eta, G, m2).
SUPPLIED = ("d", "k", "m", "B", "N_half", "N_one", "N_inf")
#: Expected failures of the learners' checks: ``{class name: {property: reason}}`` (none: every
#: check of every learner holds at seed 0).
XFAIL = {}


@dataclass(frozen=True)
class LearnerRecord:
    """What laocheck knows of one learner class, the source of all its checks.

    Parameters
    ----------
    name : str
        The class name in :mod:`laocheck.learners` (``"AERR"``).
    spec : LearnerSpec
        The class's spec (:mod:`laocheck.learners._specs`).
    params : dict, optional
        The parameters of the catalog's instance (default ``{"k": 2}``).
    settings : tuple or None, default=None
        ``(check, registration)`` of its settings check
        (:data:`laocheck.checks.algorithms.learner_settings.SETTINGS`), or None.
    xfail : dict, optional
        ``{property or check suffix: reason}``: the checks expected to FAIL (strict).
    """

    name: str
    spec: LearnerSpec
    params: dict = field(default_factory=lambda: {"k": K})
    settings: tuple | None = None
    xfail: dict = field(default_factory=dict)

    @property
    def label(self):
        """The prefix of its check ids, the spec's name (``"HK12.AERR"``)."""
        return self.spec.name

    def learner(self, cls=None):
        """The catalog's instance: ``cls`` (default the record's class) with :attr:`params`."""
        cls = getattr(learners, self.name) if cls is None else cls
        return cls(**self.params)

    def class_checks(self):
        """``(suffix, check, registration)`` of the checks of the class (settings, samplers)."""
        out = []
        if self.settings is not None:
            func, registration = self.settings
            out.append(("settings", func, {k: v for k, v in registration.items() if k != "id"}))
        out.extend(sampler_checks(self.spec))
        return out


def _params(learner):
    try:
        return dict(learner.get_params(deep=False))
    except Exception:                  # a plain learner: get_params absent or failing
        return {k: v for k, v in vars(learner).items() if not k.startswith("_")}


def spec_claims(spec, params, *, with_theorem=True):
    """The claims of a laocheck learner's :class:`~laocheck.estimators.LearnerSpec` at its
    parameters ``params`` (``get_params()``): its budget, the ball of its geometry, its first
    theorem's bound (where the checks can supply the bound's symbols: d, k, m, B, the
    second-moment norms, the learner's eta_ and G of KS15 Lemmas 3.4 / 4.5 at its q_, phase 2's
    m2), determinism, scikit-learn's API.

    Parameters
    ----------
    spec : LearnerSpec
        The learner's spec.
    params : dict
        Its parameters (``k``, ``B``, ``m1``, ...).
    with_theorem : bool, default=True
        Whether to read the first theorem's bound (:mod:`laocheck.bounds`, which loads sympy);
        False: no bound claimed (the catalog's listing, whose checks do not use it).

    Returns
    -------
    LearnerClaims
        The engine's claims, ``source="spec <name>"``.
    """
    k = params.get("k")
    B = float(params.get("B", 1.0))
    undecided = {}
    bound = text = None
    loss = "half"
    if spec.theorems and with_theorem:
        theorem = spec.theorems[0]
        formula = bounds.FORMULAS[theorem.bound]
        extra = {"eta", "G", "m2"}
        missing = set(formula.args) - set(SUPPLIED) - extra
        if missing:
            undecided["excess_risk"] = (
                f"{theorem.id}'s bound {theorem.bound} has {sorted(missing)} without an "
                f"explicit value ({formula.citation}); claim a bound with values instead")
        else:
            bound, text = (lambda values, f=formula: float(f(**{
                n: values[n] for n in f.args}))), f"{theorem.bound} ({formula.citation})"
            loss = LOSS.get(theorem.id, "half")

    def hook(est, dist, values):
        out = {}
        eta = getattr(est, "eta_", None)
        if eta is not None and np.isfinite(eta):
            out["eta"] = float(eta)
        q = getattr(est, "q_", None)
        mom = np.asarray(dist.second_moments, dtype=float)
        G2 = (bounds.ridge_gradient_bound if spec.geometry == "l2" else
              bounds.lasso_gradient_bound)(B, values["k"], mom, q)
        out["G"] = math.sqrt(G2)
        m1 = params.get("m1")
        m = values["m"]
        out["m2"] = m - (max(1, m // 10) if m1 is None else int(m1))
        return out
    return LearnerClaims(
        budget=spec.budget.of({"k": k}), budget_kind=spec.budget.kind, constraint=True,
        geometry=spec.geometry, B=B, bound=bound, bound_text=text or "", sklearn=True,
        params={"k": k, "B": B}, loss=loss, d=max(8, 2 * int(k or 1)),
        fit_params=spec.fit_params if
        spec.example_params is not None else None, values_hook=hook, undecided=undecided,
        source=f"spec {spec.name}", randomized=True,
        claimed=("budget", "constraint", "excess_risk", "deterministic", "sklearn"),
        not_checked={"step_size": f"the spec of {spec.name} claims no formula for eta_ "
                     "(claims['step_size'] to check one)"})


def _record(name, spec):
    return LearnerRecord(name=name, spec=spec, settings=SETTINGS.get(name),
                         xfail=dict(XFAIL.get(name, {})))


#: ``{class name: LearnerRecord}`` of every learner class with its own spec.
RECORDS = {name: _record(name, spec) for name, spec in sorted(SPECS.items())}


def record_of(learner):
    """The record of ``learner``: a :class:`LearnerRecord` itself, or an instance of a laocheck
    learner class that declares its own spec (a subclass inheriting one has no record: it is
    checked for its claims only); else None."""
    if isinstance(learner, LearnerRecord):
        return learner
    cls = type(learner)
    spec = vars(cls).get("spec")
    record = RECORDS.get(cls.__name__)
    if record is not None and spec is record.spec:
        return record
    return None


def _on_instance(func):
    """``func(ctx, *, learner, claims)`` of the engine, run on the instance the record's class
    gives when the check names a class (the catalog: its name, loaded when the check runs; a
    mutation witness: a subclass) with the claims of its spec."""
    @functools.wraps(func)
    def check(ctx, *, learner, claims=None):
        if isinstance(learner, (str, type)):
            cls = getattr(learners, learner) if isinstance(learner, str) else learner
            learner = RECORDS[cls.spec.algorithm].learner(cls)
        if claims is None:
            claims = spec_claims(type(learner).spec, _params(learner))
        return func(ctx, learner=learner, claims=claims)
    return check


#: the engine's property checks, each taking a learner object or a class (one function per
#: property, the same in the catalog and in ``check_learner``)
PROPERTY_CHECKS = {prop: _on_instance(entry[0]) for prop, entry in _FUNCS.items()}


def _statement(prop, learner, claims, label):
    statement = _FUNCS[prop][1]
    kind = "" if claims.budget_kind == "exact" else " in expectation"
    if prop == "budget" and claims.budget is None:
        statement = ("the output of {label} depends on no attribute of an example that it "
                     "does not report reading (no budget claimed)")
    stream = ""
    if prop == "deterministic":          # the class of a record loads here, not at listing
        obj = getattr(learners, learner.name) if isinstance(learner, LearnerRecord) else learner
        if callable(getattr(obj, "fit_stream", None)):
            stream = ", from fit and from fit_stream (which fits the pool tiled)"
    return statement.format(label=label, budget=claims.budget, kind=kind,
                            norm="₂" if claims.geometry == "l2" else "₁", B=claims.B,
                            bound=claims.bound_text or "the claimed bound",
                            step=claims.step_text or "the claimed formula", stream=stream)


def _property_check(prop, learner, claims, *, bound, label, citation, delta, expected):
    if prop == "budget" and claims.budget_kind == "expectation":
        fixed = None
    else:
        fixed = _EXACT.get(prop)
    assumptions = {"excess_risk": f"geometry {claims.geometry}, B = {claims.B}, "
                   f"d = {claims.d}, loss {claims.loss}"}.get(prop, f"synthetic data of "
                                                             f"geometry {claims.geometry}, "
                                                             f"d = {claims.d}")
    return Check(id=f"{label}.{prop}", func=PROPERTY_CHECKS[prop], citation=citation,
                 statement=_statement(prop, learner, claims, label), assumptions=assumptions,
                 method=_FUNCS[prop][2], delta=float(delta if fixed is None else fixed),
                 detectable=None, expected=expected, kwargs=bound)


def _expected(record, suffix):
    return Status.FAIL if record is not None and suffix in record.xfail else Status.PASS


def learner_checks(learner, claims=None, *, label=None, citation=None, delta=DEFAULT_DELTA,
                   properties=LEARNER_PROPERTIES):
    """Yield every :class:`~laocheck.checks.Check` of ``learner``, not yet run.

    The one generator of learner checks: the catalog registers what it yields for each
    :data:`RECORDS` entry, ``check_learner`` runs what it yields for the user's instance.

    Parameters
    ----------
    learner : object or LearnerRecord
        A learner instance (``fit(X, y)``, ``coef_``), or a record (the catalog: the checks
        name its class, loaded when they run).
    claims : LearnerClaims or None, default=None
        The resolved claims; None: the spec's (:func:`spec_claims`; required for a learner
        without a record).
    label : str or None, default=None
        The prefix of the ids; None: the record's spec name.
    citation : str or None, default=None
        The citation of the property checks; None: the record's spec citation.
    delta : float, default=1e-6
        False-failure probability of each statistical property check.
    properties : tuple of str, default=LEARNER_PROPERTIES
        The property checks to yield, when the claims select them.

    Yields
    ------
    Check
        The property checks (bound to the instance and the claims, or, for a record, to the
        class name with the claims resolved when the check runs), then the record's class
        checks (bound to the class); ``expected`` FAIL for the record's ``xfail``.

    Raises
    ------
    ValueError
        If ``learner`` has no record and no ``claims`` are given.
    """
    record = record_of(learner)
    if record is None and claims is None:
        raise InvalidParameterError(
            f"`claims` must be given for {type(learner).__name__}, which has no learner record "
            "(not a laocheck learner class with its own spec).")
    label = label or record.label
    citation = citation or record.spec.citation
    if isinstance(learner, LearnerRecord):    # the catalog: claims resolved when a check runs
        target, cls, bound_claims = record.name, record.name, None
        claims = claims or spec_claims(record.spec, record.params,
                                       with_theorem="excess_risk" in properties)
    else:
        target, cls = learner, type(learner)
        claims = bound_claims = (claims if claims is not None else
                                 spec_claims(record.spec, _params(learner)))
    for prop in properties:
        if applies(prop, claims):
            yield _property_check(prop, learner, claims, bound={"learner": target,
                                                                "claims": bound_claims},
                                  label=label, citation=citation, delta=delta,
                                  expected=_expected(record, prop))
    if record is not None:
        for suffix, func, registration in record.class_checks():
            yield Check(id=f"{label}.{suffix}", func=func, expected=_expected(record, suffix),
                        kwargs={"learner": cls}, **registration)


def _register():
    """Register, for every record, the checks the generator yields for it (the class named;
    its property checks restricted to :data:`CATALOG_PROPERTIES`)."""
    for record in RECORDS.values():
        for check in learner_checks(record, properties=CATALOG_PROPERTIES):
            register(check.id, citation=check.citation, statement=check.statement,
                     assumptions=check.assumptions, method=check.method, delta=check.delta,
                     detectable=check.detectable, expected=check.expected,
                     **check.kwargs)(check.func)


_register()
