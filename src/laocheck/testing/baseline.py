"""Regression baselines for an altered sampler: ``save_baseline`` and ``compare_baseline``.

A baseline is the fingerprint of an estimator on the small exact (dyadic) instances that
:func:`laocheck.testing.check_estimator` enumerates (d3, d4, w0 of
:mod:`laocheck.estimators.instances`, those the estimator accepts):

* the exact distribution of one draw (outcome -> probability, exact fractions stored as
  strings), by the engine's enumeration that the ``unbiased.exact`` checks use
  (:func:`laocheck.checks.algorithms.estimator_properties.enumerate_estimate`: its ``reference``, or its
  plain numpy ``sample`` driven through every path of its random choices);
* the exact distribution of the number of attributes one draw reads;
* the exact mean and second moment E‖v‖²;
* the statuses of :func:`~laocheck.testing.check_estimator` (seed, effort, δ as given).

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

An estimator whose draws can be enumerated gets the exact fingerprint above. One that cannot
(``spec.support == "unbounded"`` — HK12's GenEst and AESVR, whose random series order has no
bound — or a sampler with continuous draws or too many paths) gets a *sampled* fingerprint per instance (``"kind":
"sampled"``): a stored sample of :data:`SAMPLE_SIZE` draws (values and attribute counts, in the
JSON), and from ``n`` further draws (:data:`MOMENT_DRAWS` per check tier of the effort profile) the mean, E‖v‖² with its
lower confidence bound (:func:`laocheck.stats.nonnegative_lower_bound`, valid for any
nonnegative variable), the mean's median-of-means interval when a second-moment bound is
claimed, and the attribute-count distribution. Compared, on each instance, at δ split as stated:

* SAME DISTRIBUTION: no two-sample Kolmogorov-Smirnov test (DKW threshold,
  :func:`laocheck.stats.two_sample_ks_test`; no bound on the values needed) between the stored
  sample and :data:`SAMPLE_SIZE` fresh draws rejects — one per coordinate of v and one for the
  attribute count, at δ/2 shared equally (Bonferroni). An unchanged estimator comes out SAME
  with probability >= 1 − δ/2; ``detectable`` is the sup-distance between CDFs that would be
  detected with probability >= 1 − δ/2 (2× the threshold): the test is blind to smaller changes.
* otherwise the claims, at δ/2 shared by the budget, the second moment and the mean (δ/6 each;
  the mean's δ/6 shared by the coordinates): BROKEN when the budget is refuted (exact kind: a
  draw over it; expectation kind: the lower confidence bound of the mean count above it), when
  the lower confidence bound of E‖v‖² exceeds the claimed G², or when the target is outside
  the mean's median-of-means interval (HK12 Lemma 4.1's unbiasedness, checked the way the
  catalog's ``HK12.Lemma4.1.unbiased_monte_carlo`` does: Chebyshev per block needs a variance
  bound, and the claimed G² is one — each coordinate's variance is at most E‖v‖²). If none is
  refuted: CHANGED BUT STILL CORRECT (no claim refuted at δ/2; the figures give the ratio
  new/old of the sample means of ‖v‖², a point estimate).
* What is *not* decidable: without a bound on the second moment no finite sample can bound a
  mean (the mean of a variable with an unbounded support can be moved arbitrarily by mass too
  rare to be sampled), so an estimator claiming unbiasedness but no second moment gets
  :data:`UNDECIDED` ("CHANGED, CORRECTNESS UNDECIDED") when its distribution changed and no
  claim is refuted. The G² used: the ``second_moment`` claim, else for HK12's GenEst and AESVR
  specs the exact closed form of E[φ̂²] of HK12 Procedure 3 (corrected Lemma 4.1, the variance
  bound of the catalog's ``HK12.Lemma4.1.unbiased_monte_carlo``), times E‖x̃‖² = (d/k + 1 −
  1/k)‖x‖² for AESVR's gradient (x̃ independent of the two GenEst calls, HK12 Alg. 4). For a
  changed sampler it is a claim the comparison tests (one-sided), not a fact: under the claims
  the false-BROKEN probability is at most δ/2 per instance.

A baseline needs an unbiasedness claim (a target), since a changed distribution is judged
against it.

The file is versioned JSON (``format``, ``format_version``, the laocheck version and the
provenance), written atomically; an existing file is never overwritten unless ``force=True``.
A corrupt, foreign or other-format-version file raises :class:`~laocheck.exceptions.InvalidParameterError` naming
the file and the fault. A baseline written by a different laocheck version is compared with a
:class:`BaselineVersionWarning` (the exact distributions do not depend on laocheck's version;
the check statuses may, when the checks changed).

Hand-written: no library fingerprints a sampler's exact distribution.
"""

from __future__ import annotations

import json
import os
import re
import warnings
from dataclasses import dataclass, field, replace
from fractions import Fraction as F
from pathlib import Path

import numpy as np

from .. import estimators, stats
from .._files import (FractionStr, Int, List, Map, Null, Obj, OneOf, Real, Str, read_json,
                      validate)
from .._io import MAX_NAME, check_output_path, write_error, write_json_atomic
from .._provenance import provenance
from .._version import __version__
from ..effort import NOVALUE, resolve
from ..checks import check_seed
from ..checks._common import fstr, instance_counterexample
from ..checks.algorithms.estimator_properties import (_Undecidable, draws_values, enumerate_estimate,
                                           exact_target)
from ..checks.hk12.statements import genest_second_moment
from ..estimators.instances import BOUNDARY_INSTANCES, INSTANCES, as_float
from ..exceptions import InvalidParameterError
from ..stats.choice_tree import NotEnumerable
from ..stats import DEFAULT_DELTA
from ._checks import _instances, _label, _params, check_estimator, resolve_claims

__all__ = ["save_baseline", "compare_baseline", "load_baseline", "BaselineComparison",
           "BaselineVersionWarning", "VERDICTS", "FORMAT", "FORMAT_VERSION", "baseline_path",
           "SAMPLE_SIZE", "MOMENT_DRAWS", "UNDECIDED"]

FORMAT = "laocheck-baseline"
FORMAT_VERSION = 2
#: Versions this laocheck reads (1: exact fingerprints only).
READABLE_VERSIONS = (1, 2)
SAME = "SAME DISTRIBUTION"
CHANGED = "CHANGED BUT STILL CORRECT"
BROKEN = "BROKEN"
#: A sampled fingerprint whose distribution changed, with no claim refuted, and no second-moment
#: bound to decide unbiasedness with.
UNDECIDED = "CHANGED, CORRECTNESS UNDECIDED"
VERDICTS = (SAME, CHANGED, BROKEN, UNDECIDED)
#: Draws stored per instance in a sampled fingerprint (and drawn afresh to compare with them).
SAMPLE_SIZE = 4000
#: Draws for the moments of a sampled fingerprint, per check tier (an effort profile's ``checks``).
MOMENT_DRAWS = {"fast": 100_000, "full": 1_000_000}
#: a baseline's name: one plain file name (the file is DIR/NAME.json)
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,%d}" % (MAX_NAME - 10))
#: Largest baseline file read (bytes): a sampled fingerprint of 3 instances is about 1 MB.
MAX_BASELINE_BYTES = 2**24
_STATUSES = ("PASS", "FAIL", "ERRATUM", "INCONCLUSIVE", "ERROR")
_EXACT_NUMBER = FractionStr(4000)
_PROFILE = Str(50, pattern=r"[A-Za-z0-9_-]+", what="be an effort profile's name")
#: the file as a whole; each instance is then checked against the schema of its kind
BASELINE_SCHEMA = Obj(required={
    "format": Str(choices=(FORMAT,)), "format_version": Int(min(READABLE_VERSIONS), max(READABLE_VERSIONS)),
    "instances": Map(Str(choices=tuple(INSTANCES)), Obj(), min_len=1, max_len=len(INSTANCES)),
    "checks": Map(Str(300), Str(choices=_STATUSES), max_len=10_000)},
    optional={"laocheck": Str(100), "estimator": Str(10_000), "seed": Int(0, 2**128),
              "effort": _PROFILE, "budget": _PROFILE,     # "budget": a file before 0.1
              "delta": Real(0, 1), "provenance": Obj()})
#: an exact fingerprint: the distributions as exact fractions (bounded digits and exponents,
#: so reading them cannot take forever)
EXACT_SCHEMA = Obj(required={
    "outcomes": Map(Str(100_000, pattern=r'\[\s*("[^"\\]{1,4100}"\s*,\s*)*("[^"\\]{1,4100}"\s*)?\]',
                        what="be a JSON list of exact numbers"),
                    FractionStr(4000, nonnegative=True), min_len=1, max_len=10**5),
    "attributes": Map(Str(pattern=r"\d{1,6}", what="be a count of attributes"),
                      FractionStr(4000, nonnegative=True), min_len=1, max_len=10**5),
    "mean": List(_EXACT_NUMBER, min_len=1, max_len=10**4),
    "second_moment": FractionStr(4000, nonnegative=True)},
    optional={"kind": Str(choices=("exact",))})
#: a sampled fingerprint: the stored sample, the number of moment draws (at most the full
#: tier's) and the moments
SAMPLED_SCHEMA = Obj(required={
    "kind": Str(choices=("sampled",)), "n": Int(2, max(MOMENT_DRAWS.values())),
    "sample": List(List(Real(), min_len=1, max_len=10**4), min_len=2, max_len=10**5),
    "sample_attributes": List(Int(0, 10**9), min_len=2, max_len=10**5),
    "attributes": Map(Str(pattern=r"\d{1,9}", what="be a count of attributes"), Int(0, 2**63),
                      min_len=1, max_len=10**5),
    "second_moment": Real(0)},
    optional={"mean": List(Real(), max_len=10**4), "mean_interval": OneOf(Null(), Obj()),
              "second_moment_lower": Obj()})


class BaselineVersionWarning(UserWarning):
    """The baseline was written by a different laocheck version."""


@dataclass(frozen=True)
class BaselineComparison:
    """The verdict on one instance (or ``"checks"``: the check statuses of the sampler).

    Parameters
    ----------
    instance : str
        The instance's name, or ``"checks"``.
    verdict : str
        One of ``VERDICTS``: "SAME DISTRIBUTION", "CHANGED BUT STILL CORRECT", "BROKEN" or
        "CHANGED, CORRECTNESS UNDECIDED".
    figures : dict
        The exact figures (``second_moment_ratio`` new/old as a fraction string when CHANGED).
    claim : str or None, default=None
        The failing claim when BROKEN (``"unbiased"``, ``"budget"``, ``"second_moment"`` or a
        check id).
    counterexample : dict or None, default=None
        What shows a BROKEN verdict.
    detectable : float or str, default=0.0
        The smallest difference the comparison could detect (0: exact).
    """

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
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise InvalidParameterError(
            f"`NAME` must be letters, digits, '.', '_' or '-', starting with a letter or digit, "
            f"at most {MAX_NAME - 9} characters (no path separator); got {_short(name)}.")
    directory = Path(directory)
    if os.path.lexists(directory) and not directory.is_dir():
        raise InvalidParameterError(
            f"`--dir` must be a directory of baselines; got {str(directory)!r}, which is a "
            "file.")
    return directory / f"{name}.json"


def _short(value, limit=60):
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _supported(est, claims):
    """The resolved claims, the instances, and whether the fingerprint is exact (finite
    support and a ``reference``) or sampled."""
    resolved = resolve_claims(est, claims)
    label = _label(est)
    spec = getattr(est, "spec", None)
    exact = getattr(spec, "support", None) != "unbounded" and resolved.finite_support
    if resolved.target is None:
        raise InvalidParameterError(
            f"`estimator` {label} claims no target (unbiasedness): a changed distribution could "
            "not be judged; pass claims={'unbiased': True, ...} or give it a spec.")
    # the fingerprint keeps the instances it was defined on (d3, d4, w0), so that stored
    # baselines stay comparable; the boundary instances are the checks' (check_estimator)
    instances = [i for i in _instances(est) if i not in BOUNDARY_INSTANCES]
    if not instances:
        raise InvalidParameterError(
            f"`estimator` {label} accepts none of the exact instances d3, d4, w0.")
    return resolved, instances, exact


def _sampled_second_moment(est, claims):
    """G² bounding E‖v‖² per instance, as a callable (w, x, y) on floats, or None: the
    ``second_moment`` claim, else the closed form of HK12 Procedure 3 for an estimator with
    the GenEst or AESVR spec (see the module docstring)."""
    if claims.second_moment is not None:
        return lambda w, x, y: claims.second_moment(w, x, y, len(x))
    name = getattr(getattr(est, "spec", None), "name", None)
    params = _params(est)
    try:
        if name == "HK12.GenEst.derivative":
            a, B = [float(c) for c in params["coefficients"]], float(params["B"])
            return lambda w, x, y: genest_second_moment(a, w, x, y, B)
        if name in ("HK12.AESVR.residual", "HK12.AESVR.gradient"):
            a = [float(c) for c in estimators.aesvr_coefficients()]
            B, eps, shift = float(params["B"]), float(params["eps"]), float(params["delta"])
            k = params.get("k")
        else:
            return None
    except (KeyError, TypeError, ValueError):
        return None

    def aesvr(w, x, y):
        xp = x / eps
        theta = float(w @ xp)
        ys = ((y + shift) / eps, (y - shift) / eps)
        m = [genest_second_moment(a, w, xp, yy, B) for yy in ys]           # E[GenEst²]
        f = [float(np.polynomial.polynomial.polyval(theta - yy, a)) for yy in ys]   # E[GenEst]
        phi2 = (m[0] + m[1] + 2 * f[0] * f[1]) / 4        # two independent calls, averaged
        if name == "HK12.AESVR.residual":
            return phi2
        nx, d = float(x @ x), x.shape[0]
        return phi2 * (d * nx / k + (1 - 1 / k) * nx)     # E‖x̃‖², HK12 Alg. 1 lines 3-7
    return aesvr


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
    try:
        dist = enumerate_estimate(est, inst)   # the engine's: reference, or the choice tree
    except NotEnumerable as exc:
        raise InvalidParameterError(
            f"`estimator` {_label(est)} cannot be enumerated on {inst}: {exc.reason}.") from None
    if dist.residual_mass != 0:
        raise InvalidParameterError(
            f"`estimator` {_label(est)}: the enumeration on {inst} left probability "
            f"{dist.residual_mass} unexplored; the support is not finite enough for a baseline.")
    outcomes, attributes = {}, {}
    mean = None
    second = F(0)
    for p, (flat, count) in dist.leaves:
        values = np.array(flat, dtype=object)
        key = json.dumps([_exact_str(c) for c in values.tolist()])
        outcomes[key] = outcomes.get(key, F(0)) + p
        attributes[count] = attributes.get(count, F(0)) + p
        mean = p * values if mean is None else mean + p * values
        second += p * sum(c * c for c in values.tolist())
    return {"kind": "exact", "outcomes": {k: str(outcomes[k]) for k in sorted(outcomes)},
            "attributes": {str(k): str(attributes[k]) for k in sorted(attributes)},
            "mean": _vec(mean), "second_moment": str(second)}


def _draw(est, inst, n, rng):
    """(values (n, size), attribute counts (n,)) of ``n`` draws, whatever form the protocol
    allows ``sample`` to return them in (``Draws``, a ``(values, attributes)`` tuple, ...)."""
    values, attributes = draws_values(est, inst, n, rng)
    if attributes is None:
        raise InvalidParameterError(
            f"`estimator` {_label(est)} returned no attribute counts from `sample` on {inst} "
            "(return `(values, attributes)`): a baseline stores their distribution.")
    return values, attributes


def _counts(att):
    keys, counts = np.unique(att, return_counts=True)
    return {str(int(k)): int(c) for k, c in zip(keys, counts)}


def _sampled_fingerprint(est, claims, inst, seed, effort, delta):
    """The sampled fingerprint on ``inst``: a stored sample and moments with intervals at δ."""
    label = _label(est)
    rng = np.random.default_rng(check_seed(seed, f"{label}.baseline.{inst}"))
    values, att = _draw(est, inst, SAMPLE_SIZE, rng)
    n = MOMENT_DRAWS[effort.checks]
    mv, matt = _draw(est, inst, n, rng)
    sq = np.sum(mv * mv, axis=1)
    if not (np.all(np.isfinite(values)) and np.all(np.isfinite(mv))):
        raise InvalidParameterError(
            f"`estimator` {label} drew non-finite values on {inst}: no baseline can be taken.")
    lower = stats.nonnegative_lower_bound(sq, delta=delta).low
    bound = _sampled_second_moment(est, claims)
    mean_iv = None
    if bound is not None:
        w, x, y = as_float(INSTANCES[inst])
        g2 = bound(w, x, y)
        ivs = [stats.median_of_means_interval(mv[:, j], variance_bound=g2,
                                              delta=delta / mv.shape[1])
               for j in range(mv.shape[1])]
        mean_iv = {"low": [iv.low for iv in ivs], "high": [iv.high for iv in ivs],
                   "variance_bound": g2, "method": "median-of-means, Bonferroni over the "
                   "coordinates", "delta": delta}
    return {"kind": "sampled", "n": n,
            "sample": values.tolist(), "sample_attributes": att.tolist(),
            "attributes": _counts(matt),
            "mean": mv.mean(axis=0).tolist(), "mean_interval": mean_iv,
            "second_moment": float(sq.mean()),
            "second_moment_lower": {"low": float(lower), "delta": delta,
                                    "method": "nonnegative_lower_bound (truncation)"}}


FINGERPRINTS = ("auto", "exact", "sampled")


def save_baseline(estimator, path, *, seed=0, effort="fast", claims=None, delta=DEFAULT_DELTA,
                  force=False, fingerprint="auto", budget=NOVALUE):
    """Write the baseline of ``estimator`` to ``path`` (JSON); return the document.

    The baseline holds the exact (or sampled) fingerprint of its draws on each instance and its
    check statuses, for :func:`compare_baseline` after the sampler changes.

    Parameters
    ----------
    estimator : object
        An instance implementing the estimator protocol.
    path : str or os.PathLike
        The JSON file to write.
    seed : int, default=0
        The seed of the checks and of a sampled fingerprint.
    effort : Effort or str, default="fast"
        The effort profile of the checks (:mod:`laocheck.effort`) or its registered name.
    claims : dict, EstimatorSpec or None, default=None
        As :func:`~laocheck.testing.check_estimator` (default: the estimator's spec).
    delta : float, default=1e-6
        False-failure probability of each check.
    force : bool, default=False
        Overwrite an existing baseline (otherwise an InvalidParameterError).
    fingerprint : {"auto", "exact", "sampled"}, default="auto"
        ``"auto"``: exact when its draws can be enumerated (a ``reference`` or the choice tree
        of its ``sample``), else sampled; ``"exact"``: refuse one that cannot; ``"sampled"``:
        also for a finite support whose enumeration is too large (e.g. a large k).
    budget : str, optional
        Deprecated spelling of ``effort`` (a :class:`DeprecationWarning`).

    Returns
    -------
    dict
        The document written.

    Raises
    ------
    ValueError
        If ``path`` exists without ``force``, an exact fingerprint is asked for and impossible,
        or an argument is malformed.
    """
    effort = resolve(effort, budget=budget)
    if fingerprint not in FINGERPRINTS:
        raise InvalidParameterError(
            f"`fingerprint` must be one of {list(FINGERPRINTS)}; got {fingerprint!r}.")
    path = Path(path)
    if path.exists() and not force:
        raise InvalidParameterError(
            f"baseline file {str(path)!r} exists; pass force=True (--force) to overwrite it.")
    if path.parent.is_dir():          # never a link, FIFO or device; a new parent is made below
        check_output_path("path", path)
    elif os.path.lexists(path.parent):
        raise InvalidParameterError(
            f"baseline file {str(path)!r}: {str(path.parent)!r} is not a directory.")
    resolved, instances, exact = _supported(estimator, claims)
    if fingerprint == "exact" and not exact:
        raise InvalidParameterError(
            f"`estimator` {_label(estimator)} cannot be enumerated (no finite support): no "
            "exact fingerprint can be taken (fingerprint='auto' or 'sampled' samples it).")
    exact = exact and fingerprint != "sampled"
    parent = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise InvalidParameterError(f"baseline path {str(path)!r} is a directory.")
    records = check_estimator(estimator, claims, seed=seed, effort=effort, delta=delta,
                              on_fail=None)
    label = _label(estimator)
    doc = {"format": FORMAT, "format_version": FORMAT_VERSION, "laocheck": __version__,
           "estimator": label, "seed": seed, "effort": effort.name, "delta": delta,
           "instances": {inst: (_fingerprint(estimator, inst) if exact else
                                _sampled_fingerprint(estimator, resolved, inst, seed, effort,
                                                     delta))
                         for inst in instances},
           "checks": {r.id[len(label) + 1:]: r.status for r in records},
           "provenance": provenance(seed=seed, effort=effort)}
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:                 # a read-only or full file system
        raise write_error(parent, exc) from None
    write_json_atomic(path, doc)           # WriteError (one line) if the disk is full
    return doc


def load_baseline(path):
    """The baseline document at ``path``, validated (InvalidParameterError naming the fault)."""
    path = Path(path)
    where = f"baseline file {str(path)!r}"
    if not os.path.lexists(path):
        raise InvalidParameterError(
            f"{where} does not exist; save one first (save_baseline / `laocheck baseline "
            "save`).")
    doc = read_json(path, what="baseline file", limit=MAX_BASELINE_BYTES)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise InvalidParameterError(
            f"{where} is not a laocheck baseline (no \"format\": \"{FORMAT}\").")
    if doc.get("format_version") not in READABLE_VERSIONS:
        raise InvalidParameterError(
            f"{where} has format version {_short(doc.get('format_version'))}; this laocheck "
            f"reads versions {', '.join(map(str, READABLE_VERSIONS))}: save the baseline again.")
    validate(doc, BASELINE_SCHEMA, where)
    for inst, fp in doc["instances"].items():
        validate(fp, SAMPLED_SCHEMA if fp.get("kind") == "sampled" else EXACT_SCHEMA,
                 f"{where} instance {inst!r}")
    try:
        for inst, fp in doc["instances"].items():
            if fp.get("kind", "exact") == "sampled":
                sample = np.asarray(fp["sample"], dtype=float)
                att = np.asarray(fp["sample_attributes"], dtype=np.int64)
                if sample.ndim != 2 or att.shape != (sample.shape[0],):
                    raise ValueError(f"instance {inst!r}: `sample` is not a finite (n, d) "
                                     "array with one attribute count per draw")
                continue
            {json.dumps(json.loads(k)): F(p) for k, p in fp["outcomes"].items()}
    except (KeyError, TypeError, ValueError, AttributeError, ZeroDivisionError,
            RecursionError) as exc:
        raise InvalidParameterError(f"{where} is corrupt: {type(exc).__name__} {exc}.") \
            from None
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
    old_m, new_m = F(old["second_moment"]), F(new["second_moment"])
    figures = {"outcomes_old": len(old["outcomes"]), "outcomes_new": len(new["outcomes"]),
               "second_moment_old": str(old_m), "second_moment_new": str(new_m),
               "second_moment_ratio": str(new_m / old_m) if old_m else None}
    # the target as check_estimator calls it: object arrays of Fractions, else floats
    try:
        exact, tol = exact_target(claims, inst)
    except _Undecidable as exc:
        raise InvalidParameterError(f"`estimator` {_label(est)}: {exc}.") from None
    target = np.array(exact, dtype=object)
    mean = np.array([F(v) for v in new["mean"]], dtype=object)
    if mean.shape != target.shape or \
            any(abs(m - t) > F(tol) * (abs(m) + abs(t)) for m, t in zip(mean, target)):
        return BaselineComparison(inst, BROKEN, figures, claim="unbiased", counterexample={
            "instance": inst, "exact_mean": new["mean"], "target": fstr(target),
            "bias": fstr(mean - target) if mean.shape == target.shape else None})
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
        wf, xf, yf = as_float(INSTANCES[inst])     # a user's bound is called on floats
        bound = claims.second_moment(wf, xf, yf, len(xf))
        if float(new_m) > bound * (1 + 1e-12):
            return BaselineComparison(inst, BROKEN, figures, claim="second_moment",
                                      counterexample={"instance": inst, "E|v|^2": str(new_m),
                                                      "bound": bound})
    return BaselineComparison(inst, CHANGED, figures)


def _judge_sampled(est, claims, inst, old, seed, delta):
    """The verdict on one instance of a sampled fingerprint (see the module docstring for the
    tests and the split of δ)."""
    label = _label(est)
    rng = np.random.default_rng(check_seed(seed, f"{label}.baseline_compare.{inst}"))
    old_values = np.asarray(old["sample"], dtype=float)
    old_att = np.asarray(old["sample_attributes"], dtype=np.int64)
    values, att = _draw(est, inst, old_values.shape[0], rng)
    if values.shape[1] != old_values.shape[1]:
        return BaselineComparison(inst, BROKEN, {}, claim="shape", counterexample={
            "instance": inst, "coordinates_old": old_values.shape[1],
            "coordinates_new": values.shape[1]})
    if not np.all(np.isfinite(values)):
        return BaselineComparison(inst, BROKEN, {}, claim="finite", counterexample={
            "instance": inst, "error": "a draw is not finite"})
    pairs = [(f"v[{j}]", old_values[:, j], values[:, j]) for j in range(values.shape[1])]
    pairs.append(("attributes", old_att.astype(float), att.astype(float)))
    same_delta = delta / 2 / len(pairs)
    tests = {name: stats.two_sample_ks_test(a, b, delta=same_delta) for name, a, b in pairs}
    detectable = max(t.detectable for t in tests.values())
    rejected = [name for name, t in tests.items() if t.status == "FAIL"]
    figures = {"method": "two-sample Kolmogorov-Smirnov (DKW threshold) per coordinate and "
               f"on the attribute count, delta/2 = {delta / 2:g} shared by {len(pairs)} tests",
               "draws": [int(old_values.shape[0]), int(values.shape[0])],
               "max_statistic": max(t.statistic for t in tests.values()),
               "threshold": tests[pairs[0][0]].threshold}
    detect = f"sup-distance of CDFs {detectable:.3g} (any coordinate or the attribute count)"
    if not rejected:
        return BaselineComparison(inst, SAME, figures, detectable=detect)
    figures["changed"] = rejected
    n = int(old.get("n", MOMENT_DRAWS["fast"]))
    mv, matt = _draw(est, inst, n, rng)
    if not np.all(np.isfinite(mv)):
        return BaselineComparison(inst, BROKEN, figures, claim="finite", counterexample={
            "instance": inst, "error": "a draw is not finite"})
    part = delta / 6                                   # budget, second moment, mean
    sq = np.sum(mv * mv, axis=1)
    figures.update({"second_moment_old": float(old["second_moment"]),
                    "second_moment_new": float(sq.mean())})
    if float(old["second_moment"]) > 0:
        figures["second_moment_ratio"] = float(sq.mean()) / float(old["second_moment"])
    if claims.budget is not None:
        if claims.budget_kind == "exact":
            used = int(matt.max())
        else:
            used = float(stats.nonnegative_lower_bound(matt.astype(float), delta=part).low)
        figures["attributes"] = used
        if used > claims.budget:
            return BaselineComparison(inst, BROKEN, figures, claim="budget", counterexample={
                "instance": inst, "attributes" if claims.budget_kind == "exact" else
                "mean_attributes_lower_bound": used, "budget": claims.budget,
                "budget_kind": claims.budget_kind, "delta": part})
    bound = _sampled_second_moment(est, claims)
    if bound is None:
        return BaselineComparison(inst, UNDECIDED, figures, detectable=detect, counterexample={
            "instance": inst, "why": "the distribution changed and no second-moment bound is "
            "claimed: with an unbounded support, unbiasedness cannot be decided from draws"})
    w, x, y = as_float(INSTANCES[inst])
    g2 = float(bound(w, x, y))
    lower = float(stats.nonnegative_lower_bound(sq, delta=part).low)
    figures.update({"second_moment_bound": g2, "second_moment_lower": lower})
    if lower > g2 * (1 + 1e-12):
        return BaselineComparison(inst, BROKEN, figures, claim="second_moment", counterexample={
            "instance": inst, "E|v|^2_lower_bound": lower, "bound": g2, "delta": part})
    target = np.ravel(np.asarray(claims.target(w, x, y), dtype=float))
    widest = 0.0
    for j in range(mv.shape[1]):
        iv = stats.median_of_means_interval(mv[:, j], variance_bound=g2,
                                            delta=part / mv.shape[1])
        widest = max(widest, iv.high - iv.low)
        if not iv.low <= target[j] <= iv.high:
            return BaselineComparison(inst, BROKEN, figures, claim="unbiased", counterexample={
                "instance": inst, "coordinate": j, "interval": [iv.low, iv.high],
                "target": float(target[j]), "delta": part / mv.shape[1],
                "method": "median-of-means with variance bound " + f"{g2:.6g}"})
    # a bias above the interval's width leaves the target outside whenever the interval covers
    return BaselineComparison(inst, CHANGED, figures, detectable=(
        f"{detect}; a bias of any coordinate above {widest:.3g} (median-of-means width)"))


def compare_baseline(estimator, path, *, seed=0, effort=None, claims=None,
                     delta=DEFAULT_DELTA, budget=NOVALUE):
    """Compare ``estimator`` with the baseline at ``path``.

    An instance the new estimator no longer accepts is BROKEN (claim ``"instances"``); a sampled
    fingerprint is compared by sampling (seed ``seed``, a stream other than the one
    :func:`save_baseline` drew the stored sample from).

    Parameters
    ----------
    estimator : object
        An instance implementing the estimator protocol.
    path : str or os.PathLike
        The baseline written by :func:`save_baseline`.
    seed : int, default=0
        The seed of the checks and of a sampled comparison.
    effort : Effort, str or None, default=None
        The effort profile of the checks (:mod:`laocheck.effort`); None: the baseline's.
    claims : dict, EstimatorSpec or None, default=None
        As :func:`~laocheck.testing.check_estimator`.
    delta : float, default=1e-6
        False-failure probability of each comparison.
    budget : str, optional
        Deprecated spelling of ``effort`` (a :class:`DeprecationWarning`).

    Returns
    -------
    list of BaselineComparison
        One per instance of the baseline, then one for ``"checks"``.

    Raises
    ------
    ValueError
        If ``path`` is not a baseline (missing, unreadable or of another version) or an argument
        is malformed.
    """
    doc = load_baseline(path)
    resolved, instances, exact = _supported(estimator, claims)
    if budget is not NOVALUE or effort is not None:
        effort = resolve(effort, budget=budget)
    else:                                   # the baseline's ("budget" in a file before 0.1)
        effort = resolve(doc.get("effort", doc.get("budget", "fast")))
    out = []
    for inst, old in doc["instances"].items():
        if inst not in instances:
            out.append(BaselineComparison(inst, BROKEN, {}, claim="instances", counterexample={
                "instance": inst, "error": "the estimator no longer accepts this instance"}))
            continue
        if old.get("kind", "exact") == "sampled":
            out.append(_judge_sampled(estimator, resolved, inst, old, seed, delta))
        elif not exact:
            out.append(BaselineComparison(inst, BROKEN, {}, claim="fingerprint", counterexample={
                "instance": inst, "error": "the baseline is exact, but the estimator no longer "
                "has a finite-support `reference` to enumerate"}))
        else:
            out.append(_judge(estimator, resolved, inst, old, _fingerprint(estimator, inst)))
    records = check_estimator(estimator, claims, seed=seed, effort=effort, delta=delta,
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
    return [_with_instance(c, estimator, resolved) for c in out]


def _with_instance(comparison, estimator, resolved):
    """A BROKEN comparison's counterexample with the full instance it names (w, x, y, k and
    a line of Python rebuilding them: :func:`~laocheck.checks._common.
    instance_counterexample`)."""
    ce = comparison.counterexample
    if not isinstance(ce, dict) or "reproduce" in ce or ce.get("instance") not in INSTANCES:
        return comparison
    k = resolved.params.get("k", _params(estimator).get("k"))
    if k is None:
        try:
            k = getattr(estimator, "k", None)
        except Exception:                # noqa: BLE001 - a user's property that fails: unknown
            k = None
    return replace(comparison, counterexample=instance_counterexample(ce, ce["instance"], k=k))
