"""Sweeps for the bound-against-empirical report: a theorem run over a grid of m, d or k (with
fitted log-log slopes beside the bound's), and the theory step size beside one tuned on
independent replicates.

Both are pure functions of their arguments and seed (children of one ``SeedSequence`` by spawn
key: grid point i uses child i of the sweep's seed; the tuning and the evaluation of
:func:`tune_step` use children 0 and 1, so the evaluation never sees the tuning replicates) and
return frozen dataclasses with ``to_dict()``. The runs themselves are
:func:`laocheck.experiments.theorems.run_theorem` and :func:`laocheck.experiments.compare`
(betting intervals at δ on the proven per-run range).

Slopes (:func:`laocheck.experiments.scaling_slope`): the point estimate is the least-squares
slope of the log means; the interval comes from the first and last intervals and holds with
probability ≥ 1 − 2δ. When either of those intervals reaches down to 0 its side of the slope
interval is unbounded (reported as ``None``). The bound's exponent over the same grid is the
least-squares slope of the log bound (exactly the exponent for a power law such as HK12 Thm
3.1's 4B²√(2d/(km)); a local exponent where a log factor enters, as in HK12 Thm 3.4's d).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

from .._validation import check_int, check_positive
from ..exceptions import InvalidParameterError
from ..stats import DEFAULT_DELTA
from ._runs import child_seeds, compare, replicate, scaling_slope
from .theorems import THEOREMS, default_distribution, run_theorem, theorem_setup

__all__ = ["SweepPoint", "Sweep", "sweep", "StepTuning", "tune_step", "TUNABLE",
           "DEFAULT_MULTIPLIERS"]

#: the variables a sweep can vary
VARIABLES = ("m", "d", "k")

#: theorems whose step size is one number the learner takes as ``eta`` (the two-phase learners
#: compute theirs from phase 1; CB11 Thm 12's AER takes a regularisation λ instead)
TUNABLE = ("HK12.Thm3.1", "HK12.Thm3.4", "KS15.Thm3.1", "KS15.Thm3.5", "KS15.Thm4.1",
           "KS15.Thm4.6")

#: step-size multipliers tried by :func:`tune_step` (powers of 2 around the theory step)
DEFAULT_MULTIPLIERS = tuple(2.0 ** i for i in range(-3, 11))          # 1/8 ... 1024


@dataclass(frozen=True)
class SweepPoint:
    """One grid point: the theorem's bound and the empirical excess risk with its interval."""

    value: float
    d: int
    k: int
    m: int
    bound: float
    mean: float
    low: float
    high: float
    ratio: float
    violation: bool
    eta: float
    seconds: float
    #: the power: a bound ``detects`` times too small is refuted w.p. >= 0.9 at these runs
    #: (:meth:`laocheck.experiments.Comparison.detects`); None in files written before it
    detects: float | None = None


@dataclass(frozen=True)
class Sweep:
    """A theorem over a grid of one variable (the others fixed); see the module docstring."""

    theorem: str
    variable: str
    values: tuple
    d: int
    k: int
    m: int
    B: float
    R: int
    delta: float
    kind: str
    distribution: str
    points: tuple
    slope: float
    slope_low: float | None
    slope_high: float | None
    slope_delta: float
    bound_slope: float

    def to_dict(self):
        out = asdict(self)
        out["values"] = list(self.values)
        out["points"] = [asdict(p) for p in self.points]
        return out


def _finite(x):
    return float(x) if x is not None and math.isfinite(x) else float("nan")


def sweep(theorem, variable, values, *, d=100, k=4, m=2000, B=1.0, R=50, delta=DEFAULT_DELTA,
          seed=0, kind="hard", alpha=-1.0, n_jobs=1, progress=None, scheduler=None):
    """Run ``theorem`` (:data:`laocheck.experiments.theorems.THEOREMS`) at each of ``values``
    of ``variable`` ('m', 'd' or 'k'), the others at ``d``, ``k``, ``m``; R replicates per
    point, intervals at ``delta``. ``progress(text)`` is called after each point. ``n_jobs``,
    ``scheduler``: where the replicates run (:func:`laocheck.experiments.replicate`)."""
    if theorem not in THEOREMS:
        raise InvalidParameterError(f"`theorem` must be one of {sorted(THEOREMS)}; got {theorem!r}.")
    if variable not in VARIABLES:
        raise InvalidParameterError(f"`variable` must be one of {VARIABLES}; got {variable!r}.")
    values = tuple(check_int(variable, v, low=1) for v in values)
    if len(values) < 2 or len(set(values)) != len(values) or list(values) != sorted(values):
        raise InvalidParameterError(
            f"`values` must be at least 2 distinct increasing integers; got values={values!r}.")
    R = check_int("R", R, low=2)
    delta = check_positive("delta", delta)
    base = {"d": check_int("d", d, low=1), "k": check_int("k", k, low=1),
            "m": check_int("m", m, low=1)}
    points, comps = [], []
    for value, child in zip(values, child_seeds(seed, len(values))):
        cfg = dict(base, **{variable: value})
        comp, figs = run_theorem(theorem, B=B, R=R, delta=delta, seed=child, n_jobs=n_jobs,
                                 alpha=alpha, kind=kind, scheduler=scheduler, **cfg)
        comps.append(comp)
        points.append(SweepPoint(value=float(value), d=cfg["d"], k=cfg["k"], m=cfg["m"],
                                 bound=float(comp.bound), mean=comp.mean,
                                 low=float(comp.interval.low), high=float(comp.interval.high),
                                 ratio=float(comp.ratio), violation=bool(comp.violation),
                                 eta=_finite(figs.get("eta")), seconds=round(comp.seconds, 3),
                                 detects=comp.detects()))
        if progress is not None:
            progress(f"{theorem} {variable}={value}")
    slope, lo, hi = scaling_slope([c.interval for c in comps], values)
    lo = None if comps[-1].interval.low <= 0 or comps[0].interval.high <= 0 else lo
    hi = None if comps[0].interval.low <= 0 else hi
    bound_slope = float(np.polyfit(np.log(values), np.log([p.bound for p in points]), 1)[0])
    return Sweep(theorem=theorem, variable=variable, values=values, B=float(B), R=R,
                 delta=float(delta), kind=kind, distribution=comps[0].distribution,
                 points=tuple(points), slope=slope, slope_low=lo, slope_high=hi,
                 slope_delta=2 * float(delta), bound_slope=bound_slope, **base)


@dataclass(frozen=True)
class StepTuning:
    """The theory step size η of a theorem beside the best multiple c·η on tuning replicates,
    both evaluated on independent replicates (intervals at ``delta``).

    ``tune_means[i]``: mean excess risk of c_i·η over the ``R_tune`` tuning replicates (the
    same replicates for every c_i); ``best_multiplier``: the c_i with the smallest mean;
    ``theory_*`` / ``tuned_*``: mean and interval over ``R_eval`` other replicates;
    ``cost``: theory mean / tuned mean (how much the theory step costs)."""

    theorem: str
    d: int
    k: int
    m: int
    B: float
    kind: str
    distribution: str
    bound: float
    theory_eta: float
    multipliers: tuple
    R_tune: int
    tune_means: tuple
    best_multiplier: float
    tuned_eta: float
    R_eval: int
    delta: float
    theory_mean: float
    theory_low: float
    theory_high: float
    tuned_mean: float
    tuned_low: float
    tuned_high: float
    cost: float

    def to_dict(self):
        out = asdict(self)
        out["multipliers"] = list(self.multipliers)
        out["tune_means"] = list(self.tune_means)
        return out


def tune_step(theorem, *, d=100, k=4, m=2000, B=1.0, R_tune=20, R_eval=50,
              delta=DEFAULT_DELTA, seed=0, multipliers=DEFAULT_MULTIPLIERS, kind="hard",
              alpha=-1.0, n_jobs=1, scheduler=None):
    """Tune ``theorem``'s step size over ``multipliers`` × the theory η on R_tune replicates,
    then evaluate the theory and the tuned step on R_eval independent replicates (``n_jobs``,
    ``scheduler``: where, :func:`laocheck.experiments.replicate`)."""
    if theorem not in TUNABLE:
        raise InvalidParameterError(
            f"`theorem` must be one of {TUNABLE} (a single step size eta); got {theorem!r}.")
    multipliers = tuple(check_positive("multipliers", c) for c in multipliers)
    if 1.0 not in multipliers:
        raise InvalidParameterError(
            f"`multipliers` must contain 1.0 (the theory step); got {multipliers!r}.")
    R_tune = check_int("R_tune", R_tune, low=1)
    R_eval = check_int("R_eval", R_eval, low=2)
    dist = default_distribution(theorem, d, B, alpha, kind)
    spec, bound, figs = theorem_setup(theorem, dist, k, m, B)
    norm = THEOREMS[theorem][0]
    eta = float(spec.params["eta"])
    tune_seed, eval_seed = child_seeds(seed, 2)
    means = []
    for c in multipliers:
        s = type(spec)(spec.cls, dict(spec.params, eta=c * eta))
        excess, _ = replicate(s, dist, m, norm=norm, B=B, R=R_tune, seed=tune_seed,
                              n_jobs=n_jobs, scheduler=scheduler)
        means.append(float(np.mean(excess)))
    best = multipliers[int(np.argmin(means))]
    theory = compare(theorem, spec, dist, m, bound, norm=norm, B=B, R=R_eval, delta=delta,
                     seed=eval_seed, n_jobs=n_jobs, scheduler=scheduler)
    tuned = compare(theorem, type(spec)(spec.cls, dict(spec.params, eta=best * eta)), dist, m,
                    bound, norm=norm, B=B, R=R_eval, delta=delta, seed=eval_seed,
                    n_jobs=n_jobs, scheduler=scheduler)
    return StepTuning(theorem=theorem, d=dist.d, k=k, m=m, B=float(B), kind=kind,
                      distribution=dist.name, bound=float(bound), theory_eta=eta,
                      multipliers=multipliers, R_tune=R_tune, tune_means=tuple(means),
                      best_multiplier=float(best), tuned_eta=best * eta, R_eval=R_eval,
                      delta=float(delta), theory_mean=theory.mean,
                      theory_low=float(theory.interval.low),
                      theory_high=float(theory.interval.high), tuned_mean=tuned.mean,
                      tuned_low=float(tuned.interval.low), tuned_high=float(tuned.interval.high),
                      cost=theory.mean / tuned.mean if tuned.mean > 0 else float("inf"))
