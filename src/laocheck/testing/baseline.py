"""Regression baselines for an altered sampler: ``save_baseline`` and ``compare_baseline``.

A baseline is the fingerprint of an estimator on the small exact (dyadic) instances that
:func:`laocheck.testing.check_estimator` enumerates (d3, d4, w0 of
:mod:`laocheck.estimators.instances`, those the estimator accepts):

* the exact distribution of one draw of its ``reference`` (outcome -> probability, exact
  fractions stored as strings), by the enumeration of every sampling outcome that the
  ``unbiased.exact`` checks use (:func:`laocheck.checks._common.exact_distribution`);
* the exact distribution of the number of attributes one draw reads;
* the exact mean and second moment E‖v‖²;
* the statuses of :func:`~laocheck.testing.check_estimator` (seed, budget, δ as given).

:func:`compare_baseline` gives one :class:`BaselineComparison` per instance, and one for the
sampler itself (instance ``"checks"``: the check statuses, which also cover the ``sample``
kernel that the enumeration of ``reference`` does not see):

* ``SAME DISTRIBUTION``: the exact distribution and the attribute-count distribution are
  identical (exact: the smallest difference it could detect is 0); for ``"checks"``: the same
  statuses;
* ``CHANGED BUT STILL CORRECT``: the distribution differs, but the new one is exactly unbiased
  for the claimed target (CB11 Lemma 11, HK12 Lemmas 3.3 / 3.8, KS15 Lemma B.2 for laocheck's
  own estimators), keeps the attribute budget (every outcome, or in expectation, as claimed) and
  the claimed second-moment bound if any; the figures give the exact ratio new/old of E‖v‖²;
  for ``"checks"``: statuses changed, none FAILs;
* ``BROKEN``: a claim fails (``claim`` names it; ``counterexample`` gives the instance and the
  figures), or a check of ``check_estimator`` FAILs.

Only estimators with a finite support and a ``reference`` are supported (the fingerprint is
exact); an estimator without one (``spec.support == "unbounded"``, or no ``reference``) is
refused with :class:`~laocheck.exceptions.InvalidParameterError` — moments with intervals and
two-sample tests for those are not implemented. A baseline needs an unbiasedness claim (a
target), since a changed distribution is judged against it.

The file is versioned JSON (``format``, ``format_version``, the laocheck version and the
provenance), written atomically; an existing file is never overwritten unless ``force=True``.
A corrupt, foreign or other-format-version file raises :class:`InvalidParameterError` naming
the file and the fault. A baseline written by a different laocheck version is compared with a
:class:`BaselineVersionWarning` (the exact distributions do not depend on laocheck's version;
the check statuses may, when the checks changed).

Hand-written: no library fingerprints a sampler's exact distribution.
"""

from __future__ import annotations

import json
import re
import warnings
from dataclasses import dataclass, field
from fractions import Fraction as F
from pathlib import Path

import numpy as np

from .._io import write_json_atomic
from .._provenance import provenance
from .._version import __version__
from ..checks._common import exact_distribution, fstr
from ..estimators.instances import INSTANCES
from ..exceptions import InvalidParameterError
from ..stats import DEFAULT_DELTA
from ._checks import _equal, _instances, _label, check_estimator, resolve_claims

__all__ = ["save_baseline", "compare_baseline", "load_baseline", "BaselineComparison",
           "BaselineVersionWarning", "VERDICTS", "FORMAT", "FORMAT_VERSION", "baseline_path"]

FORMAT = "laocheck-baseline"
FORMAT_VERSION = 1
SAME = "SAME DISTRIBUTION"
CHANGED = "CHANGED BUT STILL CORRECT"
BROKEN = "BROKEN"
VERDICTS = (SAME, CHANGED, BROKEN)
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


class BaselineVersionWarning(UserWarning):
    """The baseline was written by a different laocheck version."""


@dataclass(frozen=True)
class BaselineComparison:
    """The verdict on one instance (or ``"checks"``: the check statuses of the sampler).

    ``verdict`` is one of :data:`VERDICTS`; ``claim`` names the failing claim when BROKEN
    (``"unbiased"``, ``"budget"``, ``"second_moment"`` or a check id); ``figures`` holds the
    exact figures (``second_moment_ratio`` new/old as a fraction string when CHANGED);
    ``detectable`` is the smallest difference the comparison could detect (0: exact)."""

    instance: str
    verdict: str
    figures: dict = field(default_factory=dict)
    claim: str | None = None
    counterexample: dict | None = None
    detectable: float | str = 0.0

    def to_dict(self):
        return {"instance": self.instance, "verdict": self.verdict, "claim": self.claim,
                "figures": self.figures, "counterexample": self.counterexample,
                "detectable": self.detectable}


def baseline_path(name, directory="laocheck-baselines"):
    """The file of baseline ``name`` in ``directory``: ``directory/name.json``."""
    if not isinstance(name, str) or not _NAME.match(name):
        raise InvalidParameterError(
            f"`NAME` must be letters, digits, '.', '_' or '-' (no path separator); got {name!r}.")
    return Path(directory) / f"{name}.json"


def _supported(est, claims):
    resolved = resolve_claims(est, claims)
    label = _label(est)
    spec = getattr(est, "spec", None)
    if getattr(spec, "support", None) == "unbounded" or not resolved.finite_support:
        raise InvalidParameterError(
            f"`estimator` {label} has no finite support: an exact baseline cannot be taken "
            "(baselines of moments with intervals and two-sample tests are not implemented).")
    if not callable(getattr(est, "reference", None)):
        raise InvalidParameterError(
            f"`estimator` {label} has no `reference(w, x, y, src)`: its exact distribution "
            "cannot be enumerated, so no exact baseline can be taken.")
    if resolved.target is None:
        raise InvalidParameterError(
            f"`estimator` {label} claims no target (unbiasedness): a changed distribution could "
            "not be judged; pass claims={'unbiased': True, ...} or give it a spec.")
    instances = _instances(est)
    if not instances:
        raise InvalidParameterError(
            f"`estimator` {label} accepts none of the exact instances d3, d4, w0.")
    return resolved, instances


def _vec(value):
    return [fstr(v) if not isinstance(v, str) else v
            for v in np.ravel(np.asarray(value, dtype=object)).tolist()]


def _exact_str(value):
    """An exact number as a fraction string: 0, 0.0 and Fraction(0) are all "0" (a float is
    converted exactly, so a rewrite returning floats on the dyadic instances matches)."""
    if isinstance(value, (F, int, float, np.integer, np.floating)) and not isinstance(value, bool):
        try:
            return str(F(value))
        except (ValueError, OverflowError):      # nan, inf: kept as they are
            return str(value)
    return str(value)


def _fingerprint(est, inst):
    """The exact distributions of one draw on instance ``inst`` (Fractions)."""
    w, x, y = INSTANCES[inst]
    dist = exact_distribution(est, w, x, y)
    if dist.residual_mass != 0:
        raise InvalidParameterError(
            f"`estimator` {_label(est)}: the enumeration on {inst} left probability "
            f"{dist.residual_mass} unexplored; the support is not finite enough for a baseline.")
    outcomes, attributes = {}, {}
    mean = None
    second = F(0)
    for p, v in dist:
        values = np.ravel(np.asarray(v[0], dtype=object))
        key = json.dumps([_exact_str(c) for c in values.tolist()])
        outcomes[key] = outcomes.get(key, F(0)) + p
        count = len(v[1])
        attributes[count] = attributes.get(count, F(0)) + p
        mean = p * values if mean is None else mean + p * values
        second += p * sum(c * c for c in values.tolist())
    return {"outcomes": {k: str(outcomes[k]) for k in sorted(outcomes)},
            "attributes": {str(k): str(attributes[k]) for k in sorted(attributes)},
            "mean": _vec(mean), "second_moment": str(second)}


def save_baseline(estimator, path, *, seed=0, budget="fast", claims=None, delta=DEFAULT_DELTA,
                  force=False):
    """Write the baseline of ``estimator`` to ``path`` (JSON); return the document.

    ``claims`` as :func:`~laocheck.testing.check_estimator` (default: the estimator's spec);
    ``force``: overwrite an existing baseline (otherwise an InvalidParameterError)."""
    path = Path(path)
    if path.exists() and not force:
        raise InvalidParameterError(
            f"baseline file {str(path)!r} exists; pass force=True (--force) to overwrite it.")
    _, instances = _supported(estimator, claims)
    parent = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise InvalidParameterError(f"baseline path {str(path)!r} is a directory.")
    records = check_estimator(estimator, claims, seed=seed, budget=budget, delta=delta,
                              on_fail=None)
    label = _label(estimator)
    doc = {"format": FORMAT, "format_version": FORMAT_VERSION, "laocheck": __version__,
           "estimator": label, "seed": seed, "budget": budget, "delta": delta,
           "instances": {inst: _fingerprint(estimator, inst) for inst in instances},
           "checks": {r.id[len(label) + 1:]: r.status for r in records},
           "provenance": provenance(seed=seed, budget=budget)}
    parent.mkdir(parents=True, exist_ok=True)
    write_json_atomic(path, doc)
    return doc


def load_baseline(path):
    """The baseline document at ``path``, validated (InvalidParameterError naming the fault)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InvalidParameterError(
            f"baseline file {str(path)!r} does not exist; save one first "
            "(save_baseline / `laocheck baseline save`).") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidParameterError(f"baseline file {str(path)!r} cannot be read ({exc}).") \
            from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidParameterError(
            f"baseline file {str(path)!r} is corrupt: not valid JSON ({exc}).") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise InvalidParameterError(
            f"baseline file {str(path)!r} is not a laocheck baseline (no \"format\": "
            f"\"{FORMAT}\").")
    if doc.get("format_version") != FORMAT_VERSION:
        raise InvalidParameterError(
            f"baseline file {str(path)!r} has format version {doc.get('format_version')!r}; "
            f"this laocheck reads version {FORMAT_VERSION}: save the baseline again.")
    try:
        for inst, fp in doc["instances"].items():
            if inst not in INSTANCES:
                raise ValueError(f"unknown instance {inst!r}")
            {json.dumps(json.loads(k)): F(p) for k, p in fp["outcomes"].items()}
            {int(k): F(p) for k, p in fp["attributes"].items()}
            F(fp["second_moment"])
        if not isinstance(doc["checks"], dict):
            raise ValueError("`checks` is not an object")
    except (KeyError, TypeError, ValueError, AttributeError, ZeroDivisionError) as exc:
        raise InvalidParameterError(
            f"baseline file {str(path)!r} is corrupt: {type(exc).__name__} {exc}.") from None
    if doc.get("laocheck") != __version__:
        warnings.warn(
            f"baseline file {str(path)!r} was written by laocheck {doc.get('laocheck')!r}, this "
            f"is {__version__}: the exact distributions compare as they are; the check statuses "
            "may differ because the checks changed.", BaselineVersionWarning, stacklevel=3)
    return doc


def _judge(est, claims, inst, old, new):
    """The verdict on one instance from the old and new fingerprints (exact)."""
    if old["outcomes"] == new["outcomes"] and old["attributes"] == new["attributes"]:
        return BaselineComparison(inst, SAME, {"outcomes": len(new["outcomes"])})
    w, x, y = INSTANCES[inst]
    old_m, new_m = F(old["second_moment"]), F(new["second_moment"])
    figures = {"outcomes_old": len(old["outcomes"]), "outcomes_new": len(new["outcomes"]),
               "second_moment_old": str(old_m), "second_moment_new": str(new_m),
               "second_moment_ratio": str(new_m / old_m) if old_m else None}
    target = np.ravel(np.asarray(claims.target(w, x, y), dtype=object))
    mean = np.array([F(v) for v in new["mean"]], dtype=object)
    if not _equal(mean, target):
        return BaselineComparison(inst, BROKEN, figures, claim="unbiased", counterexample={
            "instance": inst, "exact_mean": new["mean"], "target": fstr(target),
            "bias": fstr(mean - target)})
    attributes = {int(k): F(p) for k, p in new["attributes"].items()}
    if claims.budget is not None:
        used = max(attributes) if claims.budget_kind == "exact" else \
            sum(k * p for k, p in attributes.items())
        figures["attributes"] = str(used)
        if used > claims.budget:
            return BaselineComparison(inst, BROKEN, figures, claim="budget", counterexample={
                "instance": inst, "attributes": str(used), "budget": claims.budget,
                "budget_kind": claims.budget_kind})
    if claims.second_moment is not None:
        bound = claims.second_moment(w, x, y, len(x))
        if float(new_m) > bound * (1 + 1e-12):
            return BaselineComparison(inst, BROKEN, figures, claim="second_moment",
                                      counterexample={"instance": inst, "E|v|^2": str(new_m),
                                                      "bound": bound})
    return BaselineComparison(inst, CHANGED, figures)


def compare_baseline(estimator, path, *, seed=0, budget=None, claims=None,
                     delta=DEFAULT_DELTA):
    """Compare ``estimator`` with the baseline at ``path``: a list of
    :class:`BaselineComparison`, one per instance of the baseline, then one for ``"checks"``.

    ``budget`` of the checks: default the baseline's. An instance the new estimator no longer
    accepts is BROKEN (claim ``"instances"``)."""
    doc = load_baseline(path)
    resolved, instances = _supported(estimator, claims)
    budget = doc.get("budget", "fast") if budget is None else budget
    out = []
    for inst, old in doc["instances"].items():
        if inst not in instances:
            out.append(BaselineComparison(inst, BROKEN, {}, claim="instances", counterexample={
                "instance": inst, "error": "the estimator no longer accepts this instance"}))
            continue
        out.append(_judge(estimator, resolved, inst, old, _fingerprint(estimator, inst)))
    records = check_estimator(estimator, claims, seed=seed, budget=budget, delta=delta,
                              on_fail=None)
    label = _label(estimator)
    statuses = {r.id[len(label) + 1:]: r.status for r in records}
    figures = {"old": doc["checks"], "new": statuses}
    failing = [r for r in records if r.status == "FAIL"]
    detect = f"as each check of check_estimator, at delta = {delta:g}"
    if failing:
        r = failing[0]
        out.append(BaselineComparison("checks", BROKEN, figures, claim=r.id,
                                      counterexample=r.counterexample, detectable=detect))
    else:
        verdict = SAME if statuses == doc["checks"] else CHANGED
        out.append(BaselineComparison("checks", verdict, figures, detectable=detect))
    return out
