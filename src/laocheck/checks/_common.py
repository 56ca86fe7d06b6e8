"""Helpers shared by the check modules (exact enumeration, Monte Carlo verdicts, searches)."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction as F

import numpy as np

from .. import estimators, stats
from ..estimators import Moments
from ..estimators.instances import INSTANCES, as_float
from ..stats.exact import enumerate_outcomes
from ._registry import Result, Status

__all__ = ["sampler_matches_exact", "exact_distribution", "exact_mean", "as_objects", "fstr", "mc_mean_verdict",
           "worst_ratio_verdict", "exact_verdict", "draw_moments", "coverage_verdict",
           "is_laocheck_estimator", "estimator_params", "multinomial_verdict", "distinct_rows",
           "instance_counterexample", "reproduce_instance", "distribution_counterexample"]


_OWN_MODULE = estimators.ImportanceEstimator.__module__     # laocheck.estimators._families


def is_laocheck_estimator(est, name=None):
    """True when ``est`` is one of laocheck's own estimator objects (a class of
    :mod:`laocheck.estimators` carrying its registered spec), named ``name`` if given — never
    for a user's object, whatever its ``name``: a check may rebuild laocheck's own estimator
    at other parameters, never a user's."""
    if not isinstance(est, estimators.Estimator) or type(est).__module__ != _OWN_MODULE:
        return False
    own = est.spec
    if own is None or own.name not in estimators.names() or \
            own is not estimators.spec_of(own.name):
        return False
    return name is None or own.name == name


def estimator_params(est):
    """The estimator's ``params`` as a dict ({} when it has none or they fail)."""
    try:
        return dict(getattr(est, "params", None) or {})
    except Exception:                        # a user's params property that fails: none
        return {}



def distinct_rows(table):
    """The distinct rows of a 2-d float array and how often each occurs (rows compared with
    ``==``, so 0.0 and −0.0 are one row). ``numpy.unique(axis=0)`` gives the same grouping but
    sorts the rows as opaque bytes (6 s for 2·10⁶ draws); a lexicographic sort of the columns
    and one pass over neighbours take a fraction of that."""
    table = np.asarray(table, dtype=float)
    if table.shape[0] == 0:
        return table, np.zeros(0, dtype=np.int64)
    ordered = table[np.lexsort(table.T[::-1])]
    starts = np.r_[0, np.flatnonzero(np.any(ordered[1:] != ordered[:-1], axis=1)) + 1]
    return ordered[starts], np.diff(np.r_[starts, table.shape[0]])


def _outcome_key(value):
    return tuple(np.asarray(value, dtype=float).ravel().tolist())


def _literal(values):
    """A float list as a numpy literal (``np.array([0.5, -0.25])``): the instances are dyadic,
    so ``repr`` of each float is its exact value."""
    return "np.array([" + ", ".join(repr(float(v)) for v in values) + "])"


def reproduce_instance(instance, *, k=None, q=None):
    """One line of Python that rebuilds ``INSTANCES[instance]`` as the floats a sampler is
    called with (``w``, ``x``, ``y``), and ``k`` and ``q`` when given, without laocheck::

        import numpy as np; w = np.array([0.5, -0.25, 0.0]); x = ...; y = 0.125; k = 2
    """
    w, x, y = as_float(INSTANCES[instance])
    parts = ["import numpy as np", f"w = {_literal(w)}", f"x = {_literal(x)}",
             f"y = {float(y)!r}"]
    if k is not None:
        parts.append(f"k = {k!r}")
    if q is not None:
        parts.append(f"q = {_literal(q)}")
    return "; ".join(parts)


def _plain_number(value):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        return None
    return int(value)


def _distribution(q):
    """``q`` as a list of floats when it is a probability vector, else None."""
    try:
        arr = np.asarray(q, dtype=float)
    except (TypeError, ValueError):
        return None
    if arr.ndim != 1 or arr.size == 0 or not np.all(np.isfinite(arr)):
        return None
    return arr.tolist()


def instance_counterexample(counterexample, instance, *, k=None, q=None):
    """``counterexample`` (a dict) with the full instance it was found on: ``instance`` (its
    name in :mod:`laocheck.testing.instances`), ``w``, ``x``, ``y`` (the floats the sampler
    was called with, exact dyadics), ``k`` and ``q`` (the sampling distribution) when known,
    and ``reproduce``: one line of Python rebuilding them (:func:`reproduce_instance`).
    The keys the check set come first and are kept."""
    w, x, y = as_float(INSTANCES[instance])
    k = _plain_number(k)
    q = None if q is None else _distribution(q)
    out = dict(counterexample or {})
    out["instance"] = instance
    out.update({"w": w.tolist(), "x": x.tolist(), "y": float(y)})
    if k is not None:
        out["k"] = k
    if q is not None and len(q) == len(w):
        out["q"] = q
    else:
        q = None
    out["reproduce"] = reproduce_instance(instance, k=k, q=q)
    return out


def sampler_matches_exact(ctx, estimator, reference, instance, figures=None):
    """Does ``estimator.sample`` draw from the exact distribution of ``reference`` (a literal
    box, enumerated by :func:`exact_distribution`) on ``INSTANCES[instance]``?

    Outcomes are (value, number of attributes read); each distinct sampled value is matched to
    the exact support point it equals up to rounding (1e-9 relative: exact values are
    Fractions), attribute counts exactly; then a multinomial test at ``ctx.delta``. Shared by
    the catalog's ``kernel_matches_reference`` checks and ``laocheck.testing``'s."""
    w, x, y = INSTANCES[instance]
    probs = Counter()
    for p, v in exact_distribution(reference, w, x, y):
        probs[(_outcome_key(v[0]), len(v[1]))] += p
    keys = sorted(probs)
    support = np.array([k[0] for k in keys], dtype=float).reshape(len(keys), -1)
    support_att = np.array([k[1] for k in keys])
    wf, xf, yf = as_float(INSTANCES[instance])
    n = ctx.n(50_000, 2_000_000)
    draws = estimator.sample(wf, xf, yf, n=n, rng=ctx.rng)
    values = np.asarray(draws.values, dtype=float).reshape(n, -1)
    rows, sizes = distinct_rows(np.c_[values, np.asarray(draws.attributes)])
    counts = np.zeros(len(keys), dtype=np.int64)
    figures = {"n": n, "categories": len(keys), **(figures or {})}
    for r, row in enumerate(rows):
        close = np.all(np.abs(support - row[:-1]) <= 1e-9 * (1 + np.abs(support)), axis=1) & \
            (support_att == row[-1])
        if not close.any():
            return Result(Status.FAIL, figures,
                          counterexample={"impossible_outcome": row[:-1].tolist(),
                                          "attributes": int(row[-1])})
        counts[int(np.argmax(close))] += int(sizes[r])
    return multinomial_verdict(ctx, counts, keys, probs, n, figures)


def _seed_text(seq):
    return (f"np.random.SeedSequence({seq.entropy!r}, "
            f"spawn_key={tuple(int(v) for v in seq.spawn_key)!r})")


def distribution_counterexample(counterexample, *, geometry, d, B, index, m, run_seed,
                                learner_seed, loss, R=None, run=0):
    """A learner check's ``counterexample`` with what rebuilds its run ``run``: ``reproduce``,
    one line of Python that rebuilds the distribution (the ``index``-th of
    ``laocheck.checks.learner_properties.default_distributions(geometry, d, B)``, or None
    for a distribution of the user's claims, which no line can rebuild), the run's m
    training examples ``X, y`` (drawn from ``run_seed``) and the ``random_state`` the
    learner was given, and says how the excess risk is read (``dist.excess_risk``)."""
    out = dict(counterexample or {})
    out["run"] = f"{int(run)} of {R}" if R else int(run)      # runs counted from 0
    out["data_seed"] = {"entropy": run_seed.entropy,
                        "spawn_key": [int(v) for v in run_seed.spawn_key]}
    out["random_state"] = int(learner_seed)
    if index is None:
        return out
    out["reproduce"] = (
        "import numpy as np; from laocheck.checks.learner_properties import "
        f"default_distributions; dist = default_distributions({geometry!r}, {int(d)}, "
        f"{float(B)!r})[{int(index)}]; X, y = dist.sample({int(m)}, np.random.default_rng("
        f"{_seed_text(run_seed)})); random_state = {int(learner_seed)}  # then fit your "
        f"learner with random_state on X, y: dist.excess_risk(coef_, {geometry!r}, "
        f"{float(B)!r}, {loss!r})")
    return out


def multinomial_verdict(ctx, counts, keys, probs, n, figures):
    """PASS or FAIL of the observed ``counts`` of the categories ``keys`` against their exact
    probabilities ``probs`` ({key: p}), by :func:`laocheck.stats.multinomial_test` at
    ``ctx.delta``; ``figures`` gets the test's status and worst discrepancy."""
    p = np.array([float(probs[k]) for k in keys])
    test = stats.multinomial_test(counts, p / p.sum(), delta=ctx.delta)
    figures.update({"test": test.status, "worst_discrepancy": float(test.worst_discrepancy)})
    detect = f"a category probability off by more than {float(test.detectable):.3g}"
    if test.status == "PASS":
        return Result(Status.PASS, figures, detectable=detect)
    return Result(Status.FAIL, figures, detectable=detect,
                  counterexample={"category": str(keys[test.worst_category]),
                                  "claimed": float(p[test.worst_category]),
                                  "observed": float(counts[test.worst_category] / n)})

def exact_distribution(est, w, x, y, **kw):
    """Exact distribution of one draw of ``est.reference`` on the Fraction instance."""
    return enumerate_outcomes(lambda src: est.reference(w, x, y, src), **kw)


def as_objects(value):
    return np.asarray(value, dtype=object)


def exact_mean(dist, f=None):
    f = f or (lambda v: v[0])
    return as_objects(dist.expectation(lambda v: as_objects(f(v))))


def fstr(value):
    """Exact numbers as short strings for the JSON figures."""
    arr = np.asarray(value, dtype=object)
    if arr.ndim == 0:
        v = arr.item()
        return str(v) if isinstance(v, (F, int)) else float(v)
    return [fstr(v) for v in arr.tolist()]


def exact_verdict(ok, figures, *, counterexample=None, note="", expected_false=False,
                  correction=None):
    """PASS when ``ok``; when not: ERRATUM for a literal statement of the paper
    (``expected_false``), FAIL otherwise (the implementation or a corrected statement)."""
    if ok:
        return Result(Status.PASS, figures, detectable=0.0, note=note)
    status = Status.ERRATUM if expected_false else Status.FAIL
    return Result(status, figures, counterexample=counterexample, correction=correction,
                  detectable=0.0, note=note)


def draw_moments(est, w, x, y, n, rng):
    """Moments of n kernel draws (``accumulate``), or of ``sample`` for a user's estimator
    that has no ``accumulate``."""
    if hasattr(est, "accumulate"):
        try:
            return est.accumulate(w, x, y, n=n, rng=rng)
        except NotImplementedError:
            pass
    draws = est.sample(w, x, y, n=n, rng=rng)
    v = np.asarray(draws.values, dtype=float).reshape(n, -1)
    att = np.asarray(draws.attributes, dtype=np.int64)
    hist = np.bincount(np.minimum(att, 64), minlength=65)
    return Moments(n=n, sum=v.sum(0), sum_sq=(v * v).sum(0), sum_norm_sq=float((v * v).sum()),
                   sum_norm_sq_sq=float(((v * v).sum(1) ** 2).sum()),
                   attributes_sum=int(att.sum()), attributes_sum_sq=int((att * att).sum()),
                   attributes_max=int(att.max(initial=0)), attributes_hist=hist)


def mc_mean_verdict(moments, target, lower, upper, delta, *, label="mean"):
    """Simultaneous Bernstein intervals (level δ) for the coordinates of E[estimate] from
    kernel-side sums; FAIL when the claimed ``target`` lies outside one of them."""
    target = np.asarray(target, dtype=float).ravel()
    lo = np.broadcast_to(np.asarray(lower, float).ravel(), target.shape).copy()
    hi = np.broadcast_to(np.asarray(upper, float).ravel(), target.shape).copy()
    flat = hi <= lo                       # a constant coordinate: widen by a hair (exact check)
    hi[flat] = lo[flat] + 1e-12
    box = stats.vector_mean_interval_from_sums(
        moments.n, np.ravel(moments.sum), np.ravel(moments.sum_sq), lower=lo, upper=hi,
        delta=delta)
    slack = 1e-9 * (1 + np.abs(target))  # floating-point summation error of the kernel sums
    inside = (box.low - slack <= target) & (target <= box.high + slack)
    worst = int(np.argmax(np.maximum(box.low - target, target - box.high)))
    detect = float(max(stats.detectable_violation(moments.n, lower=float(lo[j]), upper=float(hi[j]),
                                                  delta=delta / target.size)
                       for j in range(target.size)))
    figures = {"n": moments.n, "delta": delta, f"{label}_low": box.low.tolist(),
               f"{label}_high": box.high.tolist(), "claimed": target.tolist(),
               "max_width": float(np.max(box.high - box.low))}
    if inside.all():
        return Result(Status.PASS, figures, detectable=detect)
    return Result(Status.FAIL, figures, detectable=detect,
                  counterexample={"coordinate": worst, "claimed": float(target[worst]),
                                  "interval": [float(box.low[worst]), float(box.high[worst])]})


def worst_ratio_verdict(worst, ratio_key="worst_ratio", *, figures=None, expected_false=False,
                        correction=None, tol=1e-9, note=""):
    """A for-all inequality lhs <= rhs searched adversarially: ``worst`` is
    (ratio, example). A ratio above 1 (+ rounding tolerance) is a counterexample."""
    ratio, example = worst
    figures = dict(figures or {})
    figures[ratio_key] = float(ratio)
    if ratio <= 1 + tol:
        return Result(Status.PASS, figures, detectable=f"any example with lhs/rhs > 1 + {tol:g} "
                      "reached by the search", note=note)
    return Result(Status.ERRATUM if expected_false else Status.FAIL, figures,
                  counterexample=example, correction=correction, note=note,
                  detectable="exact counterexample")


def coverage_verdict(failures, runs, claimed, delta, figures=None, *, expected_false=False,
                     correction=None, counterexample=None):
    """A probability statement "P(event fails) <= claimed" checked by Monte Carlo coverage:
    exact Clopper-Pearson interval at level δ for the failure probability."""
    lo, hi = stats.clopper_pearson(np.array([failures]), runs, delta)
    lo, hi = float(np.ravel(lo)[0]), float(np.ravel(hi)[0])
    figures = dict(figures or {})
    figures.update({"runs": runs, "failures": int(failures), "claimed_failure_prob": claimed,
                    "failure_prob_interval": [lo, hi], "delta": delta})
    detect = f"failure probability above {hi:.3g}" if hi > claimed else \
        f"failure probability above claimed + {hi - failures / runs:.3g}"
    if hi <= claimed:
        return Result(Status.PASS, figures, detectable=detect)
    if lo > claimed:
        return Result(Status.ERRATUM if expected_false else Status.FAIL, figures,
                      counterexample=counterexample, correction=correction, detectable=detect)
    return Result(Status.INCONCLUSIVE, figures, detectable=detect)


def log(x):
    return math.log(x)
