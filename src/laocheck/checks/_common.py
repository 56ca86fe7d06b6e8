"""Helpers shared by the check modules (exact enumeration, Monte Carlo verdicts, searches).

Power on the record (``Result.detects``, the factor F of a violation found with probability
>= 0.9): each verdict helper here sets it for its mechanism, so every check built on one
records it. The violation is the same factor applied to every quantity the check compares (a
wrong constant in a formula, a scaled estimate); it is refuted as soon as one comparison
refutes it, so F is the smallest factor over the compared quantities:

* a mean against a claimed value (:func:`mc_mean_verdict`, :func:`mean_detects`): the mean
  F·t or t/F, from the interval's design (:func:`laocheck.stats.detectable_violation`) and
  :func:`laocheck.stats.design.factor_of_shift`;
* a distribution (:func:`multinomial_verdict`, :func:`categorical_detects`): one category's
  probability F·p or p/F, exactly for the Clopper-Pearson test
  (:func:`laocheck.stats.design.proportion_detectable_factor`); the figure
  ``detects_every_category`` is the factor that every category reaches (None: some never);
* a failure probability at most its claimed value (:func:`coverage_verdict`): F·claimed, or,
  where the check passes the per-run ratios statistic/bound, the factor by which the bound
  could be too small (bound/F) and still PASS, slack included (:func:`bound_factor`, a
  plug-in estimate from the run's draws);
* a mean at most a bound, refuted by a lower confidence bound (:func:`lower_bound_detects`):
  the mean F·bound;
* an exact comparison of numbers (:func:`worst_ratio_verdict`): 1 + tol (any discrepancy
  beyond rounding).

For a bound, F includes its slack, as the issue that asked for it reads "the factor by which
the bound could be too small and still PASS": runs that sit 20 times below a bound cannot see
its constant divided by 10, and F says so (about 20). A PASS with F above :data:`WEAK_FACTOR`
is paired with a derivation check (``<id>.derivation``, :func:`paired`), which refutes a
changed constant exactly, or says that none exists yet.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace
from fractions import Fraction as F

import numpy as np

from .. import estimators, stats
from ..estimators import Moments
from ..estimators.instances import INSTANCES, as_float
from ..stats.design import factor_of_shift, proportion_detectable_factor
from ..stats.exact import enumerate_outcomes
from ._counterexamples import instance_counterexample, reproduce_instance
from ._registry import Result, Status

__all__ = ["sampler_matches_exact", "exact_distribution", "exact_mean", "as_objects", "fstr", "mc_mean_verdict",
           "worst_ratio_verdict", "exact_verdict", "draw_moments", "coverage_verdict",
           "is_laocheck_estimator", "estimator_params", "multinomial_verdict", "distinct_rows",
           "instance_counterexample", "reproduce_instance", "distribution_counterexample",
           "mean_detects", "categorical_detects", "lower_bound_detects", "lower_bound_shift",
           "bound_factor", "POWER",
           "WEAK_FACTOR", "paired"]

#: The power every ``detects`` factor is computed at: a violation of that factor is refuted
#: with probability >= POWER (beta = 1 - POWER).
POWER = 0.9
#: A check whose factor is above this cannot refute a bound twice too small: ``laocheck verify``
#: prints its PASS as "not refuted (detects ≥ F×)" and :func:`paired` names the derivation
#: check that refutes a changed constant instead.
WEAK_FACTOR = 2.0


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
    # one key per row for narrow tables; a lexicographic sort of a wide one's (mostly
    # constant) columns is faster (2·10⁶ rows: 0.25 s against 0.67 s at 5 columns, 1.8 s
    # against 0.7 s at 21)
    found = _distinct_rows_by_hash(table) if table.shape[1] <= _HASH_MAX_COLUMNS else None
    if found is not None:
        return found
    ordered = table[np.lexsort(table.T[::-1])]
    starts = np.r_[0, np.flatnonzero(np.any(ordered[1:] != ordered[:-1], axis=1)) + 1]
    return ordered[starts], np.diff(np.r_[starts, table.shape[0]])


#: the widest table :func:`distinct_rows` groups by one key per row
_HASH_MAX_COLUMNS = 8


def _distinct_rows_by_hash(table):
    """:func:`distinct_rows` by one key per row (a fixed positive combination of its columns:
    one matrix-vector product, −0.0 and 0.0 alike) and one sort of the keys instead of a sort
    per column (the kernel comparisons' 2·10⁶ draws of a few columns). Exact: every row is
    compared with its group's first row, and a collision (or a NaN, equal to nothing) returns
    None, the caller's lexicographic sort deciding instead; equal rows whose keys differ in
    rounding are merged after the groups are sorted lexicographically, as that sort's."""
    table = np.ascontiguousarray(table + 0.0)                 # -0.0 + 0.0 is 0.0
    weights = np.random.default_rng(20261128).uniform(1.0, 2.0, table.shape[1])
    with np.errstate(all="ignore"):                           # inf - inf: a NaN key, refused
        keys = table @ weights
    _, first, inverse, counts = np.unique(keys, return_index=True, return_inverse=True,
                                          return_counts=True)
    rows = table[first]
    if not np.array_equal(table, rows[inverse.ravel()]):
        return None
    order = np.lexsort(rows.T[::-1])
    rows, counts = rows[order], counts[order]
    starts = np.r_[0, np.flatnonzero(np.any(rows[1:] != rows[:-1], axis=1)) + 1]
    return rows[starts], np.add.reduceat(counts, starts)


def _outcome_key(value):
    return tuple(np.asarray(value, dtype=float).ravel().tolist())


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
    ``laocheck.checks.algorithms.learner_properties.default_distributions(geometry, d, B)``, or None
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
        "import numpy as np; from laocheck.checks.algorithms.learner_properties import "
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
    detects = categorical_detects(p / p.sum(), n, ctx.delta / len(p), figures)
    if test.status == "PASS":
        return Result(Status.PASS, figures, detectable=detect, detects=detects)
    return Result(Status.FAIL, figures, detectable=detect, detects=detects,
                  counterexample={"category": str(keys[test.worst_category]),
                                  "claimed": float(p[test.worst_category]),
                                  "observed": float(counts[test.worst_category] / n)})

def _finite_or_none(value):
    value = float(value)
    return value if math.isfinite(value) else None


def categorical_detects(p, n, alpha, figures=None):
    """The power factor of per-category Clopper-Pearson tests (each at ``alpha``, two-sided)
    of the claimed probabilities ``p`` with ``n`` trials: the smallest factor F such that one
    category's probability F·p or p/F is refuted with probability >= :data:`POWER` (the most
    sensitive category); None when no category reaches one. ``figures`` gets
    ``detects_every_category``: the factor every category with p > 0 reaches (None: some
    category never does)."""
    p = np.asarray(p, dtype=float).ravel()
    factors = proportion_detectable_factor(np.clip(p, 0.0, 1.0), int(n), alpha=alpha,
                                           beta=1 - POWER)[p > 0]
    if figures is not None:
        figures["detects_every_category"] = _finite_or_none(np.max(factors, initial=np.inf)) \
            if factors.size else None
    return _finite_or_none(np.min(factors, initial=np.inf))


def mean_detects(target, epsilon):
    """The power factor of a test of the mean against ``target`` (per coordinate) whose
    detectable shift is ``epsilon`` (per coordinate, :func:`laocheck.stats.detectable_violation`
    at the test's level): the smallest F over the coordinates such that the mean F·t or t/F is
    refuted (None when every target coordinate is 0 or out of reach)."""
    target = np.asarray(target, dtype=float).ravel()
    eps = np.broadcast_to(np.asarray(epsilon, dtype=float).ravel(), target.shape)
    found = [factor_of_shift(t, e, side="both") for t, e in zip(target, eps)
             if math.isfinite(e)]
    found = [f for f in found if f is not None]
    return min(found) if found else None


def lower_bound_shift(interval, delta):
    """The mean shift above its stated side that refutes "E[Z] <= bound" with probability >=
    :data:`POWER`, when the refutation is the lower confidence bound ``interval``
    (:func:`laocheck.stats.nonnegative_lower_bound`, truncated at c, on the draws after its
    pilot): the one-sided shift that those n draws in [0, c] detect
    (:func:`laocheck.stats.detectable_violation`, its Bernstein design; the truncation at c is
    the run's). None for a pilot that saw only zeros (no range to design for)."""
    level = float(interval.details.get("truncation", 0.0))
    n = int(interval.n) - int(interval.details.get("pilot", 0))
    if not (level > 0 and n >= 2):
        return None
    eps = stats.detectable_violation(n, lower=0.0, upper=level, delta=delta, beta=1 - POWER,
                                     method="bernstein", alternative="greater")
    return eps if math.isfinite(eps) else None


def lower_bound_detects(interval, bound, delta):
    """The power factor of "E[Z] <= bound" refuted when the lower confidence bound ``interval``
    exceeds ``bound``: the mean F·bound is found once F·bound − bound reaches
    :func:`lower_bound_shift`. None for a bound <= 0 or no shift."""
    eps = lower_bound_shift(interval, delta)
    if eps is None or not bound > 0:
        return None
    return _finite_or_none(factor_of_shift(bound, eps, side="greater"))


def bound_factor(ratios, failure_prob):
    """The factor F by which a high-probability bound "X <= b w.p. >= 1 − claimed" could be too
    small (its constant divided by F: b/F) and still pass a coverage check that refutes
    failure probabilities >= ``failure_prob`` with probability >= :data:`POWER` (see
    :func:`coverage_verdict`), from the per-run ``ratios`` X/b: b/F is refuted when
    P(X > b/F) >= failure_prob, that is when 1/F <= Q(1 − failure_prob) of the ratios, so
    (X's law taken from the runs, a plug-in estimate) F = 1 / Q(1 − failure_prob), at least 1.
    The slack of the bound is inside F: runs that sit 12 times below b leave a constant
    divided by less than about 12 unseen. None when ``failure_prob`` is None or not in (0, 1],
    or the quantile is not positive (a law at 0 that no scaling moves)."""
    ratios = np.asarray(ratios, dtype=float).ravel()
    if failure_prob is None or not 0 < failure_prob <= 1 or ratios.size == 0:
        return None
    found = float(np.quantile(ratios, 1.0 - failure_prob, method="inverted_cdf"))
    if not (found > 0 and math.isfinite(found)):
        return None
    return max(1.0, 1.0 / found)


def paired(result, derivation):
    """``result`` with its pairing named: when its factor is above :data:`WEAK_FACTOR` (or
    none), the note says which derivation check (``<id>.derivation``: the formula derived from
    the proof with sympy, exact) refutes what this run cannot, and the figures keep it as
    ``paired_with``. ``derivation=None`` (no derivation of the formula exists yet): the note
    says so, "not paired", and ``paired_with`` is None: the gap is reported, not hidden."""
    if result.detects is not None and result.detects <= WEAK_FACTOR:
        return result
    factor = "no factor" if result.detects is None else f"only a factor {result.detects:.3g}"
    if derivation is None:
        note = (f"not paired: this run can refute {factor} with probability >= {POWER:g}, and "
                "no derivation check of this bound exists yet, so a constant of it divided by "
                "less than that factor is not seen by the catalog.")
        return replace(result, figures={**result.figures, "paired_with": None},
                       note=f"{result.note} {note}".strip())
    note = (f"paired with {derivation}: this run can refute {factor} with probability "
            f">= {POWER:g}; the derivation refutes any changed constant, exponent or factor "
            "of the formula.")
    return replace(result, figures={**result.figures, "paired_with": derivation},
                   note=f"{result.note} {note}".strip())


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
        return Result(Status.PASS, figures, detectable=0.0, note=note, detects=1.0)
    status = Status.ERRATUM if expected_false else Status.FAIL
    return Result(status, figures, counterexample=counterexample, correction=correction,
                  detectable=0.0, note=note, detects=1.0)


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
    shifts = [stats.detectable_violation(moments.n, lower=float(lo[j]), upper=float(hi[j]),
                                         delta=delta / target.size, beta=1 - POWER)
              for j in range(target.size)]
    detect = float(max(shifts))
    detects = mean_detects(target, shifts)
    figures = {"n": moments.n, "delta": delta, f"{label}_low": box.low.tolist(),
               f"{label}_high": box.high.tolist(), "claimed": target.tolist(),
               "max_width": float(np.max(box.high - box.low))}
    if inside.all():
        return Result(Status.PASS, figures, detectable=detect, detects=detects)
    return Result(Status.FAIL, figures, detectable=detect, detects=detects,
                  counterexample={"coordinate": worst, "claimed": float(target[worst]),
                                  "interval": [float(box.low[worst]), float(box.high[worst])]})


def worst_ratio_verdict(worst, ratio_key="worst_ratio", *, figures=None, expected_false=False,
                        correction=None, tol=1e-9, note=""):
    """A for-all inequality lhs <= rhs searched adversarially: ``worst`` is
    (ratio, example). A ratio above 1 (+ rounding tolerance) is a counterexample; a right-hand
    side F > 1 + tol times too small at the searched examples is found (``detects`` 1 + tol)."""
    ratio, example = worst
    figures = dict(figures or {})
    figures[ratio_key] = float(ratio)
    if ratio <= 1 + tol:
        return Result(Status.PASS, figures, detectable=f"any example with lhs/rhs > 1 + {tol:g} "
                      "reached by the search", note=note, detects=1.0 + tol)
    return Result(Status.ERRATUM if expected_false else Status.FAIL, figures,
                  counterexample=example, correction=correction, note=note,
                  detectable="exact counterexample", detects=1.0 + tol)


def coverage_verdict(failures, runs, claimed, delta, figures=None, *, expected_false=False,
                     correction=None, counterexample=None, ratios=None):
    """A probability statement "P(event fails) <= claimed" checked by Monte Carlo coverage:
    exact Clopper-Pearson interval at level δ for the failure probability.

    ``detects``: without ``ratios``, the failure probability F·claimed is refuted (FAIL) with
    probability >= :data:`POWER` (None when no probability up to 1 is). With ``ratios`` (one
    per run: the statistic X over the stated bound b, a run failing when it exceeds 1), the
    event is a high-probability bound and F is the factor by which b could be too small (b/F)
    and still PASS, refuted from F on with probability >= POWER: :func:`bound_factor`, a
    plug-in estimate from the run's own draws, the bound's slack included. The figures keep
    ``detects_failure_prob``, ``detects_bound`` and ``bound_slack`` (b over the runs'
    (1 − claimed)-quantile of X: how far below the bound the runs sit, which a constant of the
    bound divided by less than it leaves unseen)."""
    lo, hi = stats.clopper_pearson(np.array([failures]), runs, delta)
    prob_factor = _finite_or_none(proportion_detectable_factor(
        min(max(float(claimed), 0.0), 1.0), int(runs), alpha=delta, beta=1 - POWER,
        side="greater")) if claimed > 0 else None
    detects = prob_factor
    if ratios is not None:
        detects = bound_factor(ratios,
                               None if prob_factor is None else prob_factor * claimed)
    lo, hi = float(np.ravel(lo)[0]), float(np.ravel(hi)[0])
    figures = dict(figures or {})
    figures.update({"runs": runs, "failures": int(failures), "claimed_failure_prob": claimed,
                    "failure_prob_interval": [lo, hi], "delta": delta})
    if ratios is not None:
        stated = float(np.quantile(np.asarray(ratios, dtype=float).ravel(),
                                   1.0 - min(max(float(claimed), 0.0), 1.0),
                                   method="inverted_cdf"))
        figures.update({"detects_failure_prob": prob_factor, "detects_bound": detects,
                        "bound_slack": 1.0 / stated if stated > 0 else None})
    detect = f"failure probability above {hi:.3g}" if hi > claimed else \
        f"failure probability above claimed + {hi - failures / runs:.3g}"
    if hi <= claimed:
        return Result(Status.PASS, figures, detectable=detect, detects=detects)
    if lo > claimed:
        return Result(Status.ERRATUM if expected_false else Status.FAIL, figures,
                      counterexample=counterexample, correction=correction, detectable=detect,
                      detects=detects)
    return Result(Status.INCONCLUSIVE, figures, detectable=detect, detects=detects)


def log(x):
    return math.log(x)
