"""Replicated runs, excess risk with rigorous intervals, tightness against a bound, scaling.

Seeds: one ``numpy.random.SeedSequence(seed)`` is spawned into R children, one per replicate
(never per worker); replicate r draws its sample from ``child_r.spawn(2)[0]`` and seeds the
learner with ``child_r.spawn(2)[1]``. Replicates run in contiguous blocks, one task per block,
through ``laocheck._execution.executor`` (here with joblib and ``n_jobs``, or on a Dask
cluster with ``scheduler=`` / ``$LAOCHECK_SCHEDULER``); results are collected in replicate
order, so every ``n_jobs``, scheduler and block size gives identical numbers.

Per-run range (the bounded variable behind the interval): for ‖w̄‖ ≤ B and the certified w*
(:mod:`laocheck.data`), with v = w̄ − w*,

    L_D(w̄) − L_D(w*) = ½ vᵀΣv + ∇L_D(w*)ᵀv ≤ ½ Q + ‖∇L_D(w*)‖_* · 2B,

where ‖v‖ ≤ 2B, Q = λ_max(Σ)(2B)² for the L2 ball and Q = (2B)² max_i Σ_ii for the L1 ball (a
convex quadratic is maximised over the L1 ball at a vertex), and ‖·‖_* is the dual norm (L2,
resp. L∞). It is also ≤ ½(B·sup‖x‖ + sup|y|)². The lower end is −(certificate of w*). The
interval is :func:`laocheck.stats.mean_interval` (betting, Waudby-Smith and Ramdas 2024) on that
range at the caller's δ.

Cost of a replicate: the moments stay structured (:class:`laocheck.data.SecondMoments`, O(d)
for the excess risk and the range); the sample is generated internally, so the learner's input
validation skips its finiteness scan (``sklearn.config_context(assume_finite=True)``); when
m × d exceeds :data:`BLOCK_ENTRIES` the sample is drawn and fed in blocks of rows through
``partial_fit`` (with ``n_total = m``, one pass exactly as ``fit`` on the whole sample), so a
replicate's memory is O(block × d), not O(m × d). Blocks have a fixed number of rows for given
(m, d), so the same seed gives the same numbers for any ``n_jobs``.

``source="oracle"`` (the attribute-efficient path): the learner's ``fit_oracle`` reads the
replicate's examples from ``distribution.oracle(data_rng)`` (``laocheck.data._oracle``),
which draws only the attributes the algorithm chooses and what the label needs: O(m (k + log d))
time and O(d) memory per replicate for the learners with an oracle path (the data-point
sampling learners of HK12 and KS15, AER, the Two-Phased learners) on the distributions where the
label is that cheap (HK12's and CB11's hard instances, CorrelatedSigns with a sparse w, the
power-law data at α = −1). Same law of the revealed attributes as ``source="rows"`` (the
default), not the same numbers.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from .._execution import executor
from .._validation import check_int, check_positive
from ..exceptions import InvalidParameterError
from ..stats import MeanInterval, mean_interval

__all__ = ["LearnerConfig", "Comparison", "replicate", "excess_risk_range", "compare",
           "scaling_slope", "child_seeds", "BLOCK_ENTRIES", "block_rows"]

#: a replicate draws its sample in blocks of at most this many entries (rows × d) when the
#: whole m × d sample would be larger (128 MB of doubles)
BLOCK_ENTRIES = 2 ** 24


@dataclass(frozen=True)
class LearnerConfig:
    """A learner class and its constructor parameters: one configuration to run.

    Picklable, for joblib and Dask workers. Not to be confused with
    :class:`laocheck.estimators.LearnerSpec`, the declarative facts (citation, budget, theorems)
    a learner class carries as ``spec``. The first field, ``cls`` (a type), is a scikit-learn
    style estimator class with ``fit(X, y)``, ``coef_`` and a ``random_state`` parameter
    (:mod:`laocheck.learners`); numpydoc reads a first parameter named ``cls`` as the class
    itself, so it is described here.

    Parameters
    ----------
    params : dict, optional
        Its constructor parameters.
    """

    cls: type
    params: dict = field(default_factory=dict)

    def build(self, random_state):
        return self.cls(**self.params, random_state=random_state)

    def describe(self):
        return f"{self.cls.__name__}({', '.join(f'{k}={_short(v)}' for k, v in self.params.items())})"


def _short(v):
    if isinstance(v, np.ndarray):
        return f"array(d={v.shape[0]})"
    return repr(v)


def as_seed_sequence(seed):
    """``seed`` as a :class:`numpy.random.SeedSequence`.

    Parameters
    ----------
    seed : int or numpy.random.SeedSequence
        An int >= 0 is the entropy; a SeedSequence is used as it is (its children continue its
        spawn key).

    Returns
    -------
    numpy.random.SeedSequence
        The sequence.

    Raises
    ------
    ValueError
        If ``seed`` is neither.
    """
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InvalidParameterError(
            f"`seed` must be an integer >= 0 or a numpy SeedSequence; got seed={seed!r}.")
    return np.random.SeedSequence(int(seed))


def child_seeds(seed, R):
    """The R children of ``seed``: spawn keys ``key + (0,)``, ..., ``key + (R-1,)``.

    The same children ``SeedSequence.spawn(R)`` gives on a fresh sequence. A pure function of
    ``seed``: unlike ``spawn`` it does not advance the parent, so the same seed gives the same
    replicates however often it is used (common random numbers).

    Parameters
    ----------
    seed : int or numpy.random.SeedSequence
        The parent.
    R : int
        The number of children.

    Returns
    -------
    list of numpy.random.SeedSequence
        The children.

    Raises
    ------
    ValueError
        If ``seed`` is not an int >= 0 or a SeedSequence.
    """
    seq = as_seed_sequence(seed)
    return [np.random.SeedSequence(seq.entropy, spawn_key=(*seq.spawn_key, i),
                                   pool_size=seq.pool_size) for i in range(R)]


def block_rows(m, d):
    """Rows per block of a replicate's sample (a function of m and d only).

    Parameters
    ----------
    m : int
        The examples of a run.
    d : int
        The dimension.

    Returns
    -------
    int
        The rows: m when m·d <= ``BLOCK_ENTRIES``, else max(1, BLOCK_ENTRIES // d).
    """
    return m if m * d <= BLOCK_ENTRIES else max(1, BLOCK_ENTRIES // d)


SOURCES = ("rows", "oracle")


def _check_source(source):
    if source not in SOURCES:
        raise InvalidParameterError(f"`source` must be one of {SOURCES}; got source={source!r}.")
    return source


def _fit(spec, distribution, m, data_rng, learner_rng, source="rows"):
    """The learner fitted on m fresh examples: one ``fit`` on the whole sample, or, above
    BLOCK_ENTRIES, ``partial_fit`` block by block with ``n_total = m`` (the same single pass);
    with ``source="oracle"``, ``fit_oracle`` on the distribution's attribute oracle."""
    learner = spec.build(learner_rng)
    if source == "oracle":
        return learner.fit_oracle(distribution.oracle(data_rng), m)
    rows = block_rows(m, distribution.d)
    # a user's plain learner may have no get_params: then it is fitted in one call
    params = learner.get_params() if callable(getattr(learner, "get_params", None)) else {}
    blocked = rows < m and hasattr(learner, "partial_fit") and "n_total" in params
    # start-up: scikit-learn (about a second) loads with the first fit, not with the catalog
    import sklearn
    with sklearn.config_context(assume_finite=True):        # internally generated, finite data
        if not blocked:
            X, y = distribution.sample(m, data_rng)
            return learner.fit(X, y)
        if params["n_total"] is None:
            learner.set_params(n_total=m)
        for start in range(0, m, rows):
            X, y = distribution.sample(min(rows, m - start), data_rng)
            learner.partial_fit(X, y)
        return learner


def _one(spec, distribution, m, norm, B, loss, child, source="rows"):
    data_seed, learner_seed = child.spawn(2)
    learner = _fit(spec, distribution, m, np.random.default_rng(data_seed),
                   np.random.default_rng(learner_seed), source)
    w = np.asarray(learner.coef_, dtype=float)
    attrs = getattr(learner, "n_attributes_seen_", None)
    return distribution.excess_risk(w, norm, B, loss), attrs


def _block(spec, distribution, m, norm, B, loss, children, source="rows"):
    """One task: the replicates of one block of child seeds, in order."""
    return [_one(spec, distribution, m, norm, B, loss, ch, source) for ch in children]


def replicate(spec, distribution, m, *, norm, B, R, seed=0, n_jobs=1, loss="half",
              scheduler=None, source="rows"):
    """Excess risks L_D(w̄_r) − L_D(w*) of R independent runs and the attributes each run observed.

    Children of ``seed`` are spawned per replicate (:func:`child_seeds`) and blocks of
    replicates are the tasks, so the result does not depend on where they run (module
    docstring: the rows and oracle sources).

    Parameters
    ----------
    spec : LearnerConfig
        The learner to run (class and parameters).
    distribution : Distribution
        The distribution the examples are drawn from (:mod:`laocheck.data`).
    m : int
        The examples per run.
    norm : {"l2", "l1"}
        ``"l2"`` or ``"l1"``: the ball of the comparator w*.
    B : float
        The radius of the ball.
    R : int
        The number of independent runs, >= 2.
    seed : int or numpy.random.SeedSequence, default=0
        The seed; the same seed gives the same result for every ``n_jobs`` and ``scheduler``.
    n_jobs : int, default=1
        The number of joblib workers.
    loss : {"half", "squared"}, default="half"
        ``"half"`` (½(wᵀx − y)²) or ``"squared"`` (CB11's).
    scheduler : str or None, default=None
        A Dask scheduler address (default ``$LAOCHECK_SCHEDULER``, else this machine).
    source : {"rows", "oracle"}, default="rows"
        ``"rows"`` (``fit`` on sampled rows) or ``"oracle"`` (``fit_oracle`` on the
        distribution's attribute oracle).

    Returns
    -------
    excess : ndarray of shape (R,)
        The excess risks.
    attributes : ndarray of shape (R,)
        The attributes each run observed.

    Raises
    ------
    ValueError
        If a size, ``norm``, ``loss`` or ``source`` is invalid, or the learner has no oracle
        path for ``source="oracle"``.
    SchedulerError
        When the Dask scheduler is unreachable or lost.
    """
    source = _check_source(source)
    m = check_int("m", m, low=1)
    R = check_int("R", R, low=1)
    B = check_positive("B", B)
    n_jobs = check_int("n_jobs", n_jobs, low=-1)
    if n_jobs == 0:
        raise InvalidParameterError("`n_jobs` must be >= 1 or -1 (all cores); got n_jobs=0.")
    children = child_seeds(seed, R)
    with executor(n_jobs, scheduler) as ex:
        blocks = ex.map(_block, [(children[a:b], source) for a, b in ex.blocks(R)],
                        shared=(spec, distribution, m, norm, B, loss))
    out = [o for block in blocks for o in block]
    excess = np.array([o[0] for o in out], dtype=float)
    attrs = np.array([o[1] if o[1] is not None else -1 for o in out], dtype=np.int64)
    return excess, attrs


def excess_risk_range(distribution, norm, B, loss="half"):
    """[low, high] of one run's excess risk for any ‖w̄‖ <= B (see the module docstring).

    Parameters
    ----------
    distribution : Distribution
        The distribution (its bounds on x and y).
    norm : {"l2", "l1"}
        The ball of w̄ and w*.
    B : float
        The radius.
    loss : {"half", "squared"}, default="half"
        The loss.

    Returns
    -------
    low : float
        The least excess risk (0 or below, for a w* that is not the minimiser of the ball).
    high : float
        The largest.
    """
    sol = distribution.minimizer(norm, B)
    mom = distribution.moments
    grad = mom.matvec(sol.w) - distribution.cross
    if norm == "l2":
        quad = mom.max_eigenvalue() * (2 * B) ** 2             # an upper bound on λ_max(Σ)
        lin = float(np.linalg.norm(grad)) * 2 * B
    else:
        quad = float(np.max(mom.diag())) * (2 * B) ** 2
        lin = float(np.max(np.abs(grad))) * 2 * B
    high = min(0.5 * quad + lin, distribution.excess_risk_bound(norm, B))
    high *= 1 + 1e-9                                   # rounding of the moments
    if loss == "squared":
        high *= 2
    low = -(sol.certificate + 1e-12) * (2 if loss == "squared" else 1)
    return low, high + 1e-15


@dataclass(frozen=True)
class Comparison:
    """Empirical excess risk against a theorem's bound.

    Properties: ``ratio`` (point estimate / bound); ``ratio_low``, ``ratio_high`` (the interval /
    bound); ``violation`` (``interval.low > bound``: the bound is refuted at level δ).

    Parameters
    ----------
    theorem : str
        The theorem's id (``"HK12.Thm3.1"``).
    learner : str
        The learner's name.
    distribution : str
        The distribution's name.
    d : int
        The dimension.
    k : int
        The budget parameter.
    m : int
        The examples per run.
    B : float
        The radius.
    R : int
        The number of runs.
    bound : float
        The theorem's bound on the expected excess risk.
    interval : MeanInterval
        The confidence interval for E[L_D(w̄)] − L_D(w*) (at ``interval.delta``).
    excess : np.ndarray
        The R excess risks.
    seconds : float, default=0.0
        The wall-clock time of the runs.
    range : tuple, default=(0.0, 0.0)
        [low, high] of one run's excess risk (:func:`excess_risk_range`).
    attributes_per_run : float, default=nan
        The mean attributes a run observed.
    """

    theorem: str
    learner: str
    distribution: str
    d: int
    k: int
    m: int
    B: float
    R: int
    bound: float
    interval: MeanInterval
    excess: np.ndarray = field(repr=False)
    seconds: float = 0.0
    range: tuple = (0.0, 0.0)
    attributes_per_run: float = math.nan

    @property
    def mean(self):
        return float(np.mean(self.excess))

    @property
    def ratio(self):
        return self.mean / self.bound

    @property
    def ratio_low(self):
        return self.interval.low / self.bound

    @property
    def ratio_high(self):
        return self.interval.high / self.bound

    @property
    def violation(self):
        return self.interval.low > self.bound

    def detects(self, beta=0.1, limit=1e12):
        r"""The power F of this comparison: a bound F times too small (b/F, both taken above
        the range's lower end) is refuted with probability >= 1 − ``beta`` by a fresh set of
        runs of this size.

        The interval does not depend on the bound (its range is the proven one of
        :func:`excess_risk_range`), so the same runs refute b/F iff L > b/F, L its lower end. A
        fresh run's L is taken as this one's minus twice the deviation D of the mean on
        [low, high] at ``beta`` (Bernstein with the sample variance: D = sqrt(2 s² ln(1/β)/n) +
        (high − low) ln(1/β)/(3n)), so F = (b − low) / (L − 2D − low), at least 1 (1: the bound
        itself is refuted), at most ``limit`` (no bound above the range's lower end is refuted).
        No number of runs brings F below b / mean, the bound's own slack.
        """
        return comparison_detects(self, beta, limit)

    def figures(self):
        return {"theorem": self.theorem, "learner": self.learner,
                "distribution": self.distribution, "d": self.d, "k": self.k, "m": self.m,
                "B": self.B, "R": self.R, "bound": self.bound, "excess_mean": self.mean,
                "excess_low": self.interval.low, "excess_high": self.interval.high,
                "delta": self.interval.delta, "ratio": self.ratio, "ratio_low": self.ratio_low,
                "ratio_high": self.ratio_high, "violation": self.violation,
                "run_range": list(self.range), "seconds": round(self.seconds, 3),
                "attributes_per_run": self.attributes_per_run}


def comparison_detects(comp, beta=0.1, limit=1e12):
    """:meth:`Comparison.detects` of anything with a comparison's ``range``, ``excess``,
    ``interval.low`` and ``bound`` (the checks call it on theirs)."""
    low, high = comp.range
    excess = np.asarray(comp.excess, dtype=float)
    n = excess.size
    if n < 2:
        return limit
    log_b = np.log(1 / beta)
    dev = np.sqrt(2 * np.var(excess, ddof=1) * log_b / n) + (high - low) * log_b / (3 * n)
    reach = comp.interval.low - 2 * dev - low
    if not reach > 0:
        return limit
    return float(min(limit, max(1.0, (comp.bound - low) / reach)))


def compare(theorem, spec, distribution, m, bound, *, norm, B, R, delta, seed=0, n_jobs=1,
            loss="half", method="betting", scheduler=None, source="rows"):
    """Run ``spec`` R times on ``distribution`` and compare the mean excess risk with ``bound``.

    The empirical side of a theorem's bound (e.g. HK12 Thm 3.1, KS15 Thm 3.1): a confidence
    interval for the expected excess risk at level ``delta``, by ``method``.

    Parameters
    ----------
    theorem : str
        The theorem's id, recorded.
    spec : LearnerConfig
        The learner to run (class and parameters).
    distribution : Distribution
        The distribution the examples are drawn from (:mod:`laocheck.data`).
    m : int
        The examples per run.
    bound : float
        The theorem's bound on the expected excess risk.
    norm : {"l2", "l1"}
        ``"l2"`` or ``"l1"``: the ball of the comparator w*.
    B : float
        The radius of the ball.
    R : int
        The number of independent runs, >= 2.
    delta : float
        The confidence level of the interval.
    seed : int or numpy.random.SeedSequence, default=0
        The seed; the same seed gives the same result for every ``n_jobs`` and ``scheduler``.
    n_jobs : int, default=1
        The number of joblib workers.
    loss : {"half", "squared"}, default="half"
        ``"half"`` (½(wᵀx − y)²) or ``"squared"`` (CB11's).
    method : str, default="betting"
        The bounded-mean interval of :func:`laocheck.stats.mean_interval`.
    scheduler : str or None, default=None
        A Dask scheduler address (default ``$LAOCHECK_SCHEDULER``, else this machine).
    source : {"rows", "oracle"}, default="rows"
        ``"rows"`` (``fit`` on sampled rows) or ``"oracle"`` (``fit_oracle`` on the
        distribution's attribute oracle).

    Returns
    -------
    Comparison
        The interval, the bound and their ratio.

    Raises
    ------
    ValueError
        As :func:`replicate`, or if ``delta`` or ``method`` is invalid.
    """
    start = time.perf_counter()
    excess, attrs = replicate(spec, distribution, m, norm=norm, B=B, R=R, seed=seed,
                              n_jobs=n_jobs, loss=loss, scheduler=scheduler, source=source)
    low, high = excess_risk_range(distribution, norm, B, loss)
    if excess.min() < low or excess.max() > high:
        raise RuntimeError(f"an excess risk left its proven range [{low}, {high}]: "
                           f"[{excess.min()}, {excess.max()}] (is ||w-bar|| <= B?)")
    ci = mean_interval(excess, lower=low, upper=high, delta=delta, method=method)
    return Comparison(theorem=theorem, learner=spec.describe(), distribution=distribution.name,
                      d=distribution.d, k=int(spec.params.get("k", 0)), m=m, B=B, R=R,
                      bound=float(bound), interval=ci, excess=excess,
                      seconds=time.perf_counter() - start, range=(low, high),
                      attributes_per_run=float(attrs.mean()) if attrs.min() >= 0 else math.nan)


def scaling_slope(intervals, xs):
    """Log-log slope of E[excess] against x from the first and last of several intervals.

    With each interval holding with probability >= 1 − δ_i, the slope between the first and
    last points lies in [ (log lo_n − log hi_1)/Δ, (log hi_n − log lo_1)/Δ ] (Δ = log x_n −
    log x_1) with probability >= 1 − δ_1 − δ_n; the point estimate is the least-squares slope of
    log means (numpy.polyfit).

    Parameters
    ----------
    intervals : sequence of MeanInterval
        The intervals, one per x.
    xs : sequence of float
        The x values (> 0), increasing.

    Returns
    -------
    slope : float
        The least-squares slope.
    low : float
        The lower end of the slope's interval.
    high : float
        The upper end.

    Raises
    ------
    ValueError
        If ``intervals`` and ``xs`` differ in length or have fewer than 2 entries.
    """
    xs = np.asarray(xs, dtype=float)
    if len(intervals) != xs.shape[0] or xs.shape[0] < 2:
        raise InvalidParameterError("`intervals` and `xs` must have the same length >= 2.")
    means = np.array([iv.mean for iv in intervals])
    slope = float(np.polyfit(np.log(xs), np.log(np.maximum(means, 1e-300)), 1)[0])
    span = math.log(xs[-1] / xs[0])
    lo1, hi1 = max(intervals[0].low, 1e-300), intervals[0].high
    lon, hin = max(intervals[-1].low, 1e-300), intervals[-1].high
    low = (math.log(lon) - math.log(hi1)) / span
    high = (math.log(hin) - math.log(lo1)) / span
    return slope, low, high
