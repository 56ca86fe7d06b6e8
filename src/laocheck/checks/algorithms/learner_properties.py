"""The learner property engine: what a learning algorithm claims, checked on any learner.

A learner is any object with ``fit(X, y)`` and ``coef_`` (``partial_fit``, ``w_``, ``eta_``,
``attributes_per_example_`` and ``random_state`` where it has them), written in plain numpy or
one of laocheck's own (:mod:`laocheck.learners`). What it claims is a :class:`LearnerClaims`
(built by :func:`laocheck.testing.check_learner` from a dict, or from a learner's
:class:`~laocheck.estimators.LearnerSpec`), and
:func:`laocheck.checks.algorithms.learner_records.learner_checks`, the one generator of learner checks,
turns the claims into :class:`~laocheck.checks.Check` objects with ids
``<label>.<property>``, run by
:func:`laocheck.checks.run` with the same records and verdicts as the estimator checks
(PASS / FAIL / INCONCLUSIVE with the reason).

The properties:

* ``budget`` — at most ``budget`` attributes of every example (HK12 Sec. 2, KS15 Sec. 2: k + 1;
  CB11 Sec. 4: k), judged by what the learner's output depends on, not only by what it reports
  (:func:`check_budget`). The counts are the learner's (``attributes_per_example_``), its list
  of the attributes read (``attributes_read_``), laocheck's recorded draws (``draws_``) and the
  reads of X that ``fit`` makes through a :class:`CountingMatrix` (``X[i, j]``, ``X[i][j]``,
  ``X[i, idx]``; a whole row ``X[i]`` used as an array reads its d entries). Then the learner
  is fitted again with the same seed on a copy of X in which every entry outside the reported
  reads is replaced (x ↦ −u·x, u ~ U(1/4, 3/4)): the output must be the same bit for bit, else
  FAIL with the example and attribute found by bisection. A learner that reports only counts
  and converts X (``np.asarray(X)``, ``X.T``, a compiled function) is searched one entry at a
  time (:data:`SEARCH_REFITS`, :data:`SEARCH_WORK`). Without a claimed budget (the default of
  a learner without claims) it checks that the reports are true. The expectation kind (AESVR,
  HK12 Thm 4.4: k + 6) compares a lower confidence bound on the mean count at δ. A learner
  with ``fit_stream(X, y, n_steps)`` (laocheck's learners: ``n_steps`` steps over the rows
  taken cyclically) is checked on it too, the same way (one pass over the pool of rows, so
  each row's reads are one step's), and one with ``partial_fit`` on four blocks of rows.
* ``constraint`` — ‖w‖₂ <= B (or ‖w‖₁ <= B) for ``coef_``, ``w_`` and every iterate exposed
  after each ``partial_fit`` call, on data whose unconstrained optimum lies far outside the ball
  (the projection binds); relative slack 1e-9 for rounding.
* ``excess_risk`` — E[L_D(w̄)] − L_D(w*) <= the claimed bound on laocheck's distributions with
  exact risk (:mod:`laocheck.data`; by geometry: KS15 Sec. 5.1's power-law data, HK12 Thm B.1's
  hard instance for L2, CB11 Thm 1's and correlated signs for L1): R replicates seeded by
  :func:`laocheck.experiments.child_seeds`; FAIL when a one-sided lower confidence bound at δ
  (split over the distributions) exceeds the bound — the betting interval of
  :func:`laocheck.stats.mean_interval` on the proven per-run range when every ``coef_`` is in the
  ball, else the truncation bound :func:`laocheck.stats.nonnegative_lower_bound` on the risk
  (L_D >= 0 for any w).
* ``step_size`` — the learner's ``eta_`` equals the claimed formula (relative 1e-9).
* ``deterministic`` — the same seed gives the same ``coef_`` bit for bit; a learner claiming
  to be randomized gives different ``coef_`` for different seeds (a learner that ignores its
  ``random_state`` does not). With ``fit_stream``, the same for ``fit_stream(X, y, n)`` with
  n = 1.5 × the rows (the pool wraps around), and its ``coef_`` is that of ``fit`` on the
  pool tiled to n rows for the same seed (the protocol of ``fit_stream``,
  :meth:`laocheck.learners.BudgetedLearner.fit_stream`; to relative 1e-9).
* ``sklearn`` — a subset of scikit-learn's estimator checks that apply to every learner:
  ``fit`` returns self, ``coef_`` has shape (d,) and is finite, ``fit`` changes neither X nor y
  nor the constructor parameters, ``predict`` (when present) is ⟨coef_, x⟩ (+ ``intercept_``),
  ``sklearn.base.clone`` (when it has ``get_params``) keeps the parameters.
"""

from __future__ import annotations

import copy
import operator
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ... import stats
from ...data import CB11HardInstance, CorrelatedSigns, HK12HardInstance, PowerLawBernoulli
from ...exceptions import InvalidParameterError
from ...experiments import child_seeds, excess_risk_range
from ...reference.estimators import genest_small_orders
from .._common import POWER, distribution_counterexample, lower_bound_detects, lower_bound_shift
from .._registry import Check, Result, Status

__all__ = ["LearnerClaims", "LEARNER_PROPERTIES", "CountingMatrix",
           "default_distributions", "NORM_RTOL", "reads_verdict", "SEARCH_REFITS", "SEARCH_WORK",
           "SHRINK"]

#: Every learner property, in the order the checks run.
LEARNER_PROPERTIES = ("budget", "constraint", "step_size", "excess_risk", "deterministic",
                      "sklearn")
#: Relative slack of ‖w‖ <= B (the rounding of a projection).
NORM_RTOL = 1e-9
#: The factor recorded for an excess-risk claim whose runs refute no bound at all (their mean
#: excess is within the design's shift of 0): a bound a trillion times too small still passes
NO_POWER = 1e12


@dataclass(frozen=True)
class LearnerClaims:
    """What a learner claims, resolved (the engine's spec of a learner).

    Made by :func:`~laocheck.testing.resolve_learner_claims` from a dict of claims or a
    :class:`~laocheck.estimators.LearnerSpec`.

    Parameters
    ----------
    budget : int or None, default=None
        Attributes observed per example; None: no number claimed (with ``reads``, the budget
        check still checks that the learner's reports of its reads are true).
    budget_kind : str, default='exact'
        ``"exact"`` (at most) or ``"expectation"`` (on average).
    constraint : bool, default=False
        Whether the output is claimed to lie in the ball of radius ``B``.
    geometry : str, default='l2'
        The ball: ``"l2"`` or ``"l1"``.
    B : float or None, default=None
        The radius of the constraint.
    bound : callable or None, default=None
        ``values -> float``, the excess-risk bound over the names d, k, m, B, N_half, N_one,
        N_inf (and ``values_hook``'s); None: not claimed.
    bound_text : str, default=''
        The bound as text, for the records.
    step_size : callable or None, default=None
        ``values -> float``, the claimed ``eta_``; None: not claimed.
    step_text : str, default=''
        The step size as text.
    reads : bool, default=True
        Whether the budget check runs without a claimed ``budget`` (the reports of the reads
        are true: no attribute the output depends on goes unreported).
    deterministic : bool, default=True
        Whether equal seeds give equal fits.
    randomized : bool or None, default=None
        Whether different seeds give different fits (None: not claimed).
    sklearn : bool, default=False
        Whether the learner is claimed to be a scikit-learn estimator.
    params : dict, optional
        The parameters k, B and the bound's own.
    loss : str, default='half'
        ``"half"`` (½(wᵀx − y)²) or CB11's ``"squared"``.
    d : int, default=8
        The dimension of the excess-risk check.
    m : tuple, default=(200, 2000)
        The examples per fit of the excess-risk check, per check tier of the effort profile
        (fast, full).
    R : tuple, default=(20, 100)
        The replicates of the excess-risk check, per check tier of the effort profile
        (fast, full).
    distributions : tuple or None, default=None
        The distributions of the excess-risk check (None: by geometry).
    fit_params : callable or None, default=None
        ``X -> dict`` set on the learner before a fit (e.g. DDAERR's E[x²]).
    values_hook : callable or None, default=None
        ``(learner, distribution, values) -> dict``: more values of the bound after a fit.
    undecided : dict, optional
        {property: reason} for claims made that cannot be checked.
    source : str, default='claims'
        Where the claims came from.
    claimed : tuple, default=()
        The properties claimed.
    not_checked : dict, optional
        {property: why it is not checked (or checked only in part)} for each property the
        claims do not select.
    """

    budget: int | None = None
    budget_kind: str = "exact"
    constraint: bool = False
    geometry: str = "l2"
    B: float | None = None
    bound: Callable | None = None
    bound_text: str = ""
    step_size: Callable | None = None
    step_text: str = ""
    reads: bool = True
    deterministic: bool = True
    randomized: bool | None = None
    sklearn: bool = False
    params: dict = field(default_factory=dict)
    loss: str = "half"
    d: int = 8
    m: tuple = (200, 2000)
    R: tuple = (20, 100)
    distributions: tuple | None = None
    fit_params: Callable | None = None
    values_hook: Callable | None = None
    undecided: dict = field(default_factory=dict)
    source: str = "claims"
    claimed: tuple = ()
    not_checked: dict = field(default_factory=dict)


# -- reading X: a matrix that records its reads ---------------------------------------------------
class _Reads:
    def __init__(self, m, d):
        self.cols = [set() for _ in range(m)]
        self.converted = None           # how X was turned into an array at once, if it was

    def add(self, rows, cols):
        for i in np.atleast_1d(rows):
            self.cols[int(i)].update(int(j) for j in np.atleast_1d(cols))


class _BlockReads:
    """The reads of rows a.. of a parent record (a block of rows passed to ``partial_fit``)."""

    def __init__(self, parent, offset):
        self.parent, self.offset = parent, offset

    def add(self, rows, cols):
        self.parent.add(np.atleast_1d(rows) + self.offset, cols)

    converted = property(lambda self: self.parent.converted,
                         lambda self, value: setattr(self.parent, "converted", value))


def _index(key, n):
    """The integer positions a key selects along an axis of length n (int, slice, array,
    list, boolean mask)."""
    return np.arange(n)[key]


class CountingRow:
    """Row i of a :class:`CountingMatrix`: ``row[j]`` records (i, j); the row used as an array
    (``row @ w``, ``row * c``, ``np.asarray(row)``, iteration) records all d entries."""

    def __init__(self, data, i, reads):
        self._data, self._i, self._reads = data, i, reads

    shape = property(lambda self: (self._data.shape[1],))
    ndim = 1
    dtype = property(lambda self: self._data.dtype)
    size = property(lambda self: self._data.shape[1])

    def __len__(self):
        return self._data.shape[1]

    def __getitem__(self, key):
        cols = _index(key, self._data.shape[1])
        self._reads.add(self._i, cols)
        return self._data[self._i][key].copy() if np.ndim(cols) else self._data[self._i, key]

    def _whole(self):
        self._reads.add(self._i, np.arange(self._data.shape[1]))
        return self._data[self._i].copy()

    def __array__(self, dtype=None, copy=None):
        row = self._whole()
        return row if dtype is None else row.astype(dtype)

    def __iter__(self):
        return iter(self._whole())

    def __repr__(self):
        return f"<row {self._i} of a laocheck CountingMatrix (reads are recorded)>"


def _binary(op, reflected=False):
    def method(self, other):
        a = self._whole()
        return op(other, a) if reflected else op(a, other)
    return method


for _name, _op in (("add", operator.add), ("sub", operator.sub), ("mul", operator.mul),
                   ("truediv", operator.truediv), ("matmul", operator.matmul),
                   ("pow", operator.pow)):
    setattr(CountingRow, f"__{_name}__", _binary(_op))
    setattr(CountingRow, f"__r{_name}__", _binary(_op, reflected=True))
CountingRow.__neg__ = lambda self: -self._whole()
CountingRow.__abs__ = lambda self: abs(self._whole())


class CountingMatrix:
    """X (m × d) as a user's learner reads it, recording every (row, column) read.

    Indexing returns plain numpy values (``X[i, j]``, ``X[i, idx]``, ``X[rows, cols]``) or a
    :class:`CountingRow` (``X[i]``, iteration); ``shape``, ``len``, ``ndim`` and ``dtype`` read
    nothing. Converting the whole matrix (``np.asarray(X)``) is recorded in ``converted``: its
    later reads cannot be counted."""

    def __init__(self, X):
        self._data = np.array(X, dtype=float)
        self._data.flags.writeable = False
        self.reads = _Reads(*self._data.shape)

    def block(self, a, b):
        """Rows a..b−1 as a CountingMatrix whose reads are recorded in this one's (at their
        row numbers here): what ``partial_fit`` is given, block by block."""
        out = CountingMatrix.__new__(CountingMatrix)
        out._data = self._data[a:b]
        out.reads = _BlockReads(self.reads, a)
        return out

    shape = property(lambda self: self._data.shape)
    ndim = 2
    dtype = property(lambda self: self._data.dtype)
    size = property(lambda self: self._data.size)

    def __len__(self):
        return self._data.shape[0]

    def __getitem__(self, key):
        m, d = self._data.shape
        if not isinstance(key, tuple):
            if isinstance(key, (int, np.integer)):
                return CountingRow(self._data, int(key) % m, self.reads)
            rows = _index(key, m)
            self.reads.add(rows, np.arange(d))
            return self._data[key].copy()
        if len(key) != 2:
            raise IndexError(f"a CountingMatrix is 2-d; got the key {key!r}")
        rk, ck = key
        rows, cols = _index(rk, m), _index(ck, d)
        if np.ndim(rows) == 0 or np.ndim(cols) == 0 or isinstance(rk, slice) or \
                isinstance(ck, slice):
            for i in np.atleast_1d(rows):
                self.reads.add(i, cols)
        else:                           # fancy indexing on both axes: pairs (broadcast)
            for i, j in zip(*[a.ravel() for a in np.broadcast_arrays(rows, cols)]):
                self.reads.add(i, j)
        out = self._data[key]
        return out.copy() if isinstance(out, np.ndarray) else out

    def __iter__(self):
        return (CountingRow(self._data, i, self.reads) for i in range(self._data.shape[0]))

    def __array__(self, dtype=None, copy=None):
        self.reads.converted = "np.asarray(X) (or another conversion of all of X)"
        out = self._data.copy()
        return out if dtype is None else out.astype(dtype)

    def per_example(self):
        """The number of distinct attributes read of each example."""
        return np.array([len(c) for c in self.reads.cols], dtype=np.int64)

    def __repr__(self):
        return f"<laocheck CountingMatrix {self._data.shape} (reads are recorded)>"


# -- data, seeds, fitting ----------------------------------------------------------------------------
def default_distributions(geometry, d, B):
    """The distributions with exact risk an excess-risk claim is checked on, by geometry:
    HK12 Thm B.1's hard instance (eps = 1/4 from d = 16 on, labels scaled by B; its gradients
    have full size, so it is checked first) and KS15 Sec. 5.1's power-law Bernoulli data
    (α = −1) for L2; the power-law data, CB11 Thm 1's P_j (eps = 0.01) and correlated
    signs (σ_i = i^(-1/2), correlation 0.3, y = ⟨w, x⟩ with w = (B/5)·1 on 5 coordinates) for
    L1 (the instances of :func:`laocheck.experiments.theorems.default_distribution`)."""
    if geometry == "l2":
        rows = min(16, int(np.sqrt(d)) ** 2)
        hard = HK12HardInstance(d, 1 / np.sqrt(rows))
        return (hard if B == 1.0 else hard.scaled(B),
                PowerLawBernoulli(d, -1.0, scenario="ridge", B=B))
    w = np.zeros(d)
    w[:min(5, d)] = B / min(5, d)
    cb = CB11HardInstance(d, 0.01)
    return (PowerLawBernoulli(d, -1.0, scenario="lasso", B=B),
            cb if B == 1.0 else cb.scaled(B),
            CorrelatedSigns(np.arange(1, d + 1) ** -0.5, w, corr=0.3))


def _seed_int(seq):
    """An int seed from a SeedSequence (what a user's ``random_state`` accepts most widely)."""
    return int(seq.generate_state(1, np.uint32)[0])


def _has_seed(learner):
    try:
        return "random_state" in learner.get_params()
    except Exception:                     # a plain learner: get_params absent or failing
        return hasattr(learner, "random_state")


def _set(learner, **values):
    """Set constructor parameters: ``set_params`` when it has it, else attributes."""
    if not values:
        return learner
    if callable(getattr(learner, "set_params", None)):
        try:
            learner.set_params(**values)
            return learner
        except (ValueError, TypeError):
            pass
    for k, v in values.items():
        setattr(learner, k, v)
    return learner


def _configured(learner, claims, X, seed):
    """A fresh copy of ``learner`` (never the caller's object), its ``random_state`` set to
    ``seed`` (when it has one) and the claims' ``fit_params(X)`` set."""
    est = copy.deepcopy(learner)
    extra = {} if claims.fit_params is None else dict(claims.fit_params(X))
    if seed is not None and _has_seed(est):
        extra["random_state"] = seed
    return _set(est, **extra)


def _synthetic(rng, claims, m, *, far=False):
    """(X, y) on one of the default distributions of the geometry (d = claims.d); with
    ``far``, labels of a weight vector 10·B outside the ball (the projection binds)."""
    d = claims.d
    B = claims.B or 1.0
    dist = PowerLawBernoulli(d, -1.0, scenario="ridge" if claims.geometry == "l2" else "lasso",
                             B=B)
    X, y = dist.sample(m, rng)
    if far:
        w = rng.choice([-1.0, 1.0], size=d)
        w *= 10 * B / (np.linalg.norm(w) if claims.geometry == "l2" else np.abs(w).sum())
        w /= max(float(np.max(np.abs(X) @ np.abs(w))), 1e-12) / (10 * B)
        y = X @ w
    return np.ascontiguousarray(X), np.ascontiguousarray(y)


def _coef(est):
    coef = getattr(est, "coef_", None)
    if coef is None:
        raise AttributeError("coef_")
    return np.asarray(coef, dtype=float).ravel()


def _norm(w, geometry):
    return float(np.linalg.norm(w)) if geometry == "l2" else float(np.abs(w).sum())


def _inconclusive(figures, reason, needs=""):
    note = f"not decided: {reason}" + (f"; to decide it: {needs}" if needs else "")
    return Result(Status.INCONCLUSIVE, figures, note=note)


def _undecided(claims, prop):
    if prop in claims.undecided:
        return _inconclusive({}, claims.undecided[prop])
    return None


# -- what the output depends on -----------------------------------------------------------------
#: The refits of the per-entry search (fast, full): rows × d single-entry refits at most ...
SEARCH_REFITS = (512, 4096)
#: ... and at most this many examples fitted over all of them (refits × m), so that a large m
#: searches fewer examples rather than running for hours.
SEARCH_WORK = (2_000_000, 20_000_000)
#: The replacement of an unread entry: x ↦ −u·x with u ~ U(SHRINK) (see :func:`check_budget`).
SHRINK = (0.25, 0.75)


def _dense(rng, claims, m):
    """(X, y) with every entry continuous and nonzero (almost surely), so that replacing an entry
    changes it: x_ij ~ U(−s, s) with s = 1/√d for L2 (‖x‖₂ <= 1) and 1 for L1 (‖x‖∞ <= 1);
    y = ⟨w, x⟩ for a w of norm B/2 in the geometry's ball (|y| <= B/2)."""
    d = claims.d
    B = claims.B or 1.0
    s = 1 / np.sqrt(d) if claims.geometry == "l2" else 1.0
    X = rng.uniform(-s, s, (m, d))
    w = rng.standard_normal(d)
    w *= (B / 2) / (np.linalg.norm(w) if claims.geometry == "l2" else np.abs(w).sum())
    return np.ascontiguousarray(X), np.ascontiguousarray(X @ w)


def _output(est, probe):
    """What a fitted learner outputs, for a bitwise comparison: ``coef_``, ``intercept_``,
    ``w_`` (where it has them) and ``predict(probe)`` (where it has ``predict``)."""
    out = {}
    for name in ("coef_", "intercept_", "w_"):
        value = getattr(est, name, None)
        if value is not None:
            try:
                out[name] = np.array(value, dtype=float, copy=True).ravel()
            except (TypeError, ValueError):   # not numbers: compared by its text
                out[name] = repr(value)
    if callable(getattr(est, "predict", None)):
        try:
            out["predict"] = np.array(est.predict(probe.copy()), dtype=float).ravel()
        except Exception as exc:          # a predict that fails is compared by its message
            out["predict"] = f"{type(exc).__name__}: {exc}"
    return out


def _identical(a, b):
    """Two outputs equal bit for bit (NaN equal to NaN)."""
    if a.keys() != b.keys():
        return False
    for key in a:
        x, y = a[key], b[key]
        if isinstance(x, str) or isinstance(y, str):
            if x != y:
                return False
        elif x.shape != y.shape or not np.array_equal(x.view(np.int64), y.view(np.int64)):
            return False
    return True


def _first_difference(a, b):
    """The first output that differs between ``a`` and ``b`` (and where)."""
    for key in a:
        if key not in b:
            return {"output": key, "after": "absent"}
        x, y = a[key], b[key]
        if isinstance(x, str) or isinstance(y, str) or x.shape != y.shape:
            if isinstance(x, str) and isinstance(y, str) and x == y:
                continue
            return {"output": key, "before": str(x)[:80], "after": str(y)[:80]}
        where = np.flatnonzero(x.view(np.int64) != y.view(np.int64))
        if where.size:
            i = int(where[0])
            return {"output": key, "index": i, "before": float(x[i]), "after": float(y[i])}
    extra = sorted(set(b) - set(a))
    return {"output": extra[0] if extra else "none", "before": "absent"}


def _mask_of(value, m, d):
    """The (m, d) mask of a reported ``attributes_read_``: an (m, d) bool array, an (m, w)
    int array (−1 pads), or a sequence of m collections of column indices; None when it is
    none of these (the reason as a second value)."""
    try:
        if isinstance(value, np.ndarray) and value.dtype == bool:
            if value.shape != (m, d):
                return None, f"a bool mask of shape {value.shape}, not ({m}, {d})"
            return value.copy(), None
        if isinstance(value, np.ndarray) and value.shape == (m, d) and d > 2 and \
                value.dtype.kind in "iu" and np.isin(value, (0, 1)).all():
            return None, ("an (m, d) array of 0 and 1, which reads both as a mask and as "
                          "column indices")
        rows = list(value)
        if len(rows) != m:
            return None, f"{len(rows)} entries for {m} examples"
        mask = np.zeros((m, d), dtype=bool)
        for i, row in enumerate(rows):
            cols = np.asarray(list(row) if not isinstance(row, np.ndarray) else row).ravel()
            if cols.size == 0:
                continue
            if cols.dtype.kind not in "iu" or np.any(cols >= d) or np.any(cols < -1):
                return None, f"entry {i} is {cols.tolist()[:8]}, not column indices 0..{d - 1}"
            mask[i, cols[cols >= 0]] = True
        return mask, None
    except (TypeError, ValueError) as exc:
        return None, f"{type(exc).__name__}: {exc}"


def _own_draws(est, m, d):
    """laocheck's learners with ``record_draws=True``: their ``draws_`` (one row of indices per
    step, −1 pads) or the two phases' ``phase1_draws_`` and ``phase2_draws_``, as a mask; None
    for another layout (AESVR's flat stream)."""
    parts = [getattr(est, "draws_", None)]
    if np.ndim(parts[0]) == 1 and getattr(est, "genest_N_", None) is not None:
        return _genest_draws(est, m, d)
    if parts[0] is None:
        parts = [getattr(est, "phase1_draws_", None), getattr(est, "phase2_draws_", None)]
    if any(p is None or np.ndim(p) != 2 for p in parts) or sum(len(p) for p in parts) != m:
        return None
    mask = np.zeros((m, d), dtype=bool)
    start = 0
    for part in parts:
        rows, cols = np.nonzero(np.asarray(part) >= 0)
        mask[start + rows, np.asarray(part)[rows, cols]] = True
        start += len(part)
    return mask


def _genest_draws(est, m, d):
    """AESVR's (HK12 Alg. 4) flat record of draws as a mask: per step its k indices of x̃,
    then for each of the two GenEst calls its order n and, when w ≠ 0, the n·M indices j it
    drew (M = 1 for n <= the largest order with 2**n <= N², else N; HK12 Procedure 3). None
    unless the record parses exactly and each step's distinct indices are as many as its
    ``attributes_per_example_`` (a step with w = 0 records no j: the parse then fails and
    the reads are searched instead)."""
    stream = np.asarray(est.draws_, dtype=np.int64).tolist()
    att = getattr(est, "attributes_per_example_", None)
    if att is None or len(att) != m:
        return None
    att = np.asarray(att).tolist()
    k, N = int(est.k), int(est.genest_N_)
    small = genest_small_orders(N)
    rows, cols = [], []
    pos = 0
    try:
        for t in range(m):                  # plain ints and sets: 200,000 steps in ~1 s
            seen = set(stream[pos:pos + k])
            pos += k
            for _ in range(2):
                order = stream[pos]
                count = order * (1 if order <= small else N)
                seen.update(stream[pos + 1:pos + 1 + count])
                pos += 1 + count
            if len(seen) != att[t]:
                return None
            rows.extend([t] * len(seen))
            cols.extend(seen)
    except IndexError:                      # the record ended inside a step
        return None
    cols = np.asarray(cols, dtype=np.int64)
    if pos != len(stream) or (cols.size and (cols.min() < 0 or cols.max() >= d)):
        return None
    mask = np.zeros((m, d), dtype=bool)
    mask[np.asarray(rows, dtype=np.int64), cols] = True
    return mask


def _has_param(learner, name):
    try:
        return name in learner.get_params()
    except Exception:                     # a plain learner: get_params absent or failing
        return False


class _Refit:
    """Fresh fits on copies of X: ``output(X2)`` is the output of ``fit(X2)`` (a fitted
    learner of the same configuration: seed, fit parameters from the original X, method), or
    the exception's text; ``count`` the refits made."""

    def __init__(self, fit, probe):
        self.fit, self.probe = fit, probe
        self.count = 0

    def output(self, X2):
        self.count += 1
        try:
            est = self.fit(X2)
        except Exception as exc:          # an error on the copy: its output depends on it
            return {"error": f"{type(exc).__name__}: {exc}"}
        return _output(est, self.probe)


def _replaced(X, cells, U):
    """X with the entries ``cells`` (flat indices) replaced by −u·x."""
    X2 = X.copy()
    flat = X2.reshape(-1)
    flat[cells] = -U.reshape(-1)[cells] * flat[cells]
    return X2


def _locate(refit, X, U, base, cells):
    """Bisect the replaced ``cells`` (flat indices) whose replacement changes the output down
    to one entry that does alone (refits: about 2 log2 |cells|); the smallest set found when
    only sets do (an interaction)."""
    cells = np.asarray(cells)
    while cells.size > 1:
        half = cells.size // 2
        for part in (cells[:half], cells[half:]):
            if not _identical(base, refit.output(_replaced(X, part, U))):
                cells = part
                break
        else:
            return cells
    return cells


def _dependence(refit, X, U, base, mask, method, source):
    """One refit with every entry outside ``mask`` replaced; None when the output is the same
    bit for bit, else the counterexample (bisected to one entry)."""
    cells = np.flatnonzero(~mask.reshape(-1))
    if cells.size == 0:
        return None
    other = refit.output(_replaced(X, cells, U))
    if _identical(base, other):
        return None
    if not _identical(base, refit.output(X)):
        return "nondeterministic"
    found = _locate(refit, X, U, base, cells)
    d = X.shape[1]
    i, j = divmod(int(found[0]), d)
    return {"method": method, "reads_reported_by": source, "example": i, "attribute": j,
            "entries": [[int(c) // d, int(c) % d] for c in found[:8]],
            "reported_reads_of_example": np.flatnonzero(mask[i]).tolist(),
            "x": float(X[i, j]), "replaced_by": float(-U[i, j] * X[i, j]),
            **_first_difference(base, refit.output(_replaced(X, found, U)))}


def _insensitive(refit, X, U, base):
    """The control: whether the output stays the same bit for bit when every entry of X is
    replaced (then no refit can see what the learner read: its output ignores X, or it keeps
    state between fits outside the learner object, such as a module-level cache)."""
    return _identical(base, refit.output(_replaced(X, np.arange(X.size), U)))


def _search(refit, X, U, base, rows, limit):
    """The attributes of each example of ``rows`` that the output depends on, one refit per
    entry (x_ij alone replaced); stops at the first example with more than ``limit(i)``.
    Returns (counts per examined row, the first row over its limit or None)."""
    d = X.shape[1]
    counts = []
    for i in rows:
        dep = [j for j in range(d)
               if not _identical(base, refit.output(_replaced(X, [i * d + j], U)))]
        counts.append(len(dep))
        if len(dep) > limit(i):
            return counts, (int(i), dep)
    return counts, None


def reads_verdict(fit, X, est, *, U, pick, max_refits, max_work, mask=None, source=None,
                  limit=None, method="fit"):
    """Judge what ``est`` (fitted on X by ``fit``) read by what its output depends on.

    The read set is ``mask`` when given, else the learner's ``attributes_read_``, else
    laocheck's ``draws_`` (``record_draws=True``); with one, a single refit on X with every
    other entry replaced by −u·x (``U``) must give the same output bit for bit (else the
    entry is bisected). Without one, the attributes each example's output depends on are
    searched one entry at a time on every example, or on min(``max_refits``, ``max_work`` / m)
    / d examples drawn by ``pick``, and an example depending on more than ``limit(i)``
    FAILs. See :func:`check_budget` for the argument.

    Parameters
    ----------
    fit : callable
        ``X2 -> fitted learner``: the same configuration as ``est``'s, on X2.
    X : ndarray of shape (m, d)
        The data ``est`` was fitted on, every entry nonzero.
    est : object
        The fitted learner.
    U : ndarray of shape (m, d)
        The factors u in [1/4, 3/4] of the replacements.
    pick : numpy.random.Generator
        Draws the examples searched when not all are.
    max_refits : int
        At most this many single-entry refits in a search.
    max_work : int
        At most this many examples fitted in a search (refits × m).
    mask : ndarray of shape (m, d) of bool, optional
        The reads reported (True: read); None: ``attributes_read_`` or ``draws_``.
    source : str, optional
        Who reported ``mask``.
    limit : callable or None, default=None
        ``i -> the most attributes example i may depend on`` in a search; None: no limit.
    method : str, default='fit'
        The method's name, for the counterexample.

    Returns
    -------
    found : dict, str or None
        The counterexample (``"kind"``: ``"unreported"`` or ``"over"``), ``"nondeterministic"``
        (two fits on X itself differ), ``"insensitive"`` (the control: the output is the same
        even with every entry of X replaced, so the refits see nothing), an error text
        (``"attributes_read_ ..."``) or None.
    figures : dict
        ``reads_from`` and ``unreported_replaced``, or ``examples_searched`` and
        ``dependence_counts``; ``refits``.
    """
    m, d = X.shape
    base = _output(est, X)
    refit = _Refit(fit, X)
    if mask is None:
        said = getattr(est, "attributes_read_", None)
        if said is not None:
            mask, why = _mask_of(said, m, d)
            if mask is None:
                return f"attributes_read_ after {method} is {why}", {"refits": 0}
            source = "attributes_read_"
        else:
            mask = _own_draws(est, m, d)
            source = None if mask is None else "draws_ (record_draws=True)"
    if mask is not None:
        found = _dependence(refit, X, U, base, mask, method, source)
        if isinstance(found, dict):
            found["kind"] = "unreported"
        elif found is None and _insensitive(refit, X, U, base):
            found = "insensitive"
        return found, {"reads_from": source, "unreported_replaced": int((~mask).sum()),
                       "read_counts": mask.sum(axis=1), "refits": refit.count}
    rows_max = max(1, min(max_refits, max_work // m) // d)
    rows = np.arange(m) if m <= rows_max else np.sort(pick.choice(m, rows_max, replace=False))
    counts, over = _search(refit, X, U, base, rows, limit or (lambda i: d))
    figures = {"examples_searched": int(len(rows)), "refits": refit.count,
               "dependence_counts": np.asarray(counts, dtype=np.int64)}
    if over is None:
        if not any(counts) and _insensitive(refit, X, U, base):
            figures["refits"] = refit.count
            return "insensitive", figures
        return None, figures
    if not _identical(base, refit.output(X)):
        figures["refits"] = refit.count
        return "nondeterministic", figures
    i, dep = over
    figures["refits"] = refit.count
    return {"kind": "over", "method": method, "example": i, "attributes_depended_on": dep,
            "count": len(dep), "limit": int(limit(i))}, figures


def _partial_fits(est, X, y):
    """``partial_fit`` on four consecutive blocks of rows (one pass; a recording matrix's
    blocks record into it)."""
    m = X.shape[0]
    for a, b in ((q * m // 4, (q + 1) * m // 4) for q in range(4)):
        est.partial_fit(X.block(a, b) if isinstance(X, CountingMatrix) else X[a:b], y[a:b])
    return est


# -- the checks ----------------------------------------------------------------------------------
def check_budget(ctx, *, learner, claims):
    """At most ``budget`` attributes of every example (HK12 Sec. 2, KS15 Sec. 2; CB11 Sec. 4),
    judged by what the learner's output depends on, not only by what it reports; in
    expectation, a lower confidence bound on the mean count at δ (HK12 Thm 4.4).

    The fit (``fit``, ``fit_stream`` for one pass over the rows and ``partial_fit`` on four
    blocks of rows, where the learner has them) is on dense data: every x_ij continuous and nonzero (:func:`_dense`). The learner's reads
    of each example are taken from, in this order:

    1. ``attributes_read_`` (the learner reports which attributes it read of each example of
       one pass: an (m, d) bool mask, an (m, w) int array padded with −1, or m collections of
       column indices);
    2. laocheck's learners: ``draws_`` (or ``phase1_draws_`` and ``phase2_draws_``) with
       ``record_draws=True``, one row of drawn indices per step (AESVR's flat record parsed
       step by step, :func:`_genest_draws`);
    3. the recording matrix (:class:`CountingMatrix`) when the learner indexed X itself, and
       its fit there gives the same output as its fit on the plain array.

    The fit judged is on the plain array X, as the learner is used (a learner that branches on
    the type of X is judged on the branch it takes for arrays). With a read set, the learner is
    fitted again with the same ``random_state`` and fit
    parameters on a copy of X in which every entry outside it is replaced by x ↦ −u·x,
    u ~ U(1/4, 3/4) independent: the output (``coef_``, ``intercept_``, ``w_``,
    ``predict`` on the original X) must be the same bit for bit. The replacement flips the
    sign and changes the magnitude of every replaced entry (a dependence through x, |x|, x²
    or sign(x) on a continuous entry stays invisible with probability 0) and shrinks it, so
    every norm bound of the data (‖x‖₂ <= 1, ‖x‖∞ <= 1) still holds and a learner that
    validates its input does not refuse the copy. A difference is a FAIL whose counterexample
    names an example i and attribute j not reported but changing the output, found by bisecting
    the replaced entries (about 2 log2(md) more refits); the counterexample is checked against a
    refit on X itself first (a learner that is not deterministic for a seed is INCONCLUSIVE
    here, and FAILs the ``deterministic`` check). Reads that do not change the output (a
    scan of X for validation, as laocheck's learners make of max|x|) are not reads in this
    sense: what is judged is what the output depends on. A control refit with every entry of
    X replaced must change the output: one that does not (a learner that ignores X, or returns
    a result cached between fits outside the learner object) makes the check INCONCLUSIVE,
    never PASS. The refits run in the process of the first fit: a cache outside the learner
    object keyed on exactly the reported entries could still hide a dependence (the control
    cannot exclude it; the refits would have to run in fresh processes).

    Without a read set (a learner that converts X, ``np.asarray(X)``, ``X.T``, a compiled
    function on X, and reports only ``attributes_per_example_`` or nothing), the attributes of
    an example that the output depends on are found one entry at a time: x_ij alone replaced,
    d refits per example, on every example when m·d <= :data:`SEARCH_REFITS` refits (and
    m²d <= :data:`SEARCH_WORK` examples fitted), else on that many refits' worth of examples
    drawn at random (seeded). An example whose output
    depends on more attributes than the learner reports for it (or, reporting nothing, than the
    budget) FAILs; with nothing reported, the examined examples' dependence counts are the
    counts judged. A PASS states how many examples were examined: a learner over its reports on
    a fraction p of the examples passes a sample of r of them with probability (1 − p)^r at
    most. With no budget claimed (the default of a learner without claims), the check is that
    the reports are true: no example's output depends on an attribute not reported; a learner
    that reports nothing and claims no budget is INCONCLUSIVE (nothing to judge it by)."""
    skip = _undecided(claims, "budget")
    if skip:
        return skip
    m = ctx.n(64, 1000) if claims.budget_kind == "exact" else ctx.n(2000, 50_000)
    X, y = _dense(ctx.rng, claims, m)
    d = X.shape[1]
    seed = _seed_int(ctx.spawn())
    U = np.random.default_rng(ctx.spawn()).uniform(*SHRINK, X.shape)
    pick = np.random.default_rng(ctx.spawn())
    figures = {"examples": m, "budget": claims.budget, "budget_kind": claims.budget_kind}
    sources = {}
    methods = [("fit", "", lambda est, X, y: est.fit(X, y))]
    if callable(getattr(learner, "fit_stream", None)):          # one pass over the pool
        methods.append(("fit_stream", "fit_stream: ",
                        lambda est, X, y: est.fit_stream(X, y, m)))
    if callable(getattr(learner, "partial_fit", None)):         # four calls, one pass
        methods.append(("partial_fit", "partial_fit: ", _partial_fits))
    extra = {"record_draws": True} if _has_param(learner, "record_draws") else {}
    examined = []
    refits = 0
    for method, prefix, call in methods:
        recorded = _set(_configured(learner, claims, X, seed), **extra)
        CX = CountingMatrix(X)
        try:
            call(recorded, CX, y.copy())
        except Exception as exc:
            # the learner uses X in a way the recording matrix does not offer (X.T, X.sum(), a
            # dtype check, a library that wants an ndarray): its reads judged by dependence
            CX.reads.converted = (f"X in a way the recording matrix does not offer "
                                  f"({type(exc).__name__}: {exc})")
        counting = CX.reads.converted is None
        counted = CX.per_example()
        # the fit judged: on a plain array, as the learner is used (an error is its own); the
        # recording matrix's record describes it only when both fits give the same output
        est = _set(_configured(learner, claims, X, seed), **extra)
        call(est, X.copy(), y.copy())
        same_run = counting and _identical(_output(recorded, X), _output(est, X))
        if counting and not same_run:
            figures[prefix + "recording"] = ("not used: the fit on the recording matrix and "
                                             "the fit on the array give different outputs")
        reported = getattr(est, "attributes_per_example_", None)
        if reported is not None:
            reported = np.asarray(reported, dtype=float).ravel()
            if reported.size < m:
                return Result(Status.FAIL, figures, counterexample={
                    "method": method, "reported_steps": int(reported.size), "examples": m},
                    note=f"attributes_per_example_ after {method} has fewer entries than the "
                    "examples of one pass")
            if not np.all(np.isfinite(reported) & (reported == np.floor(reported))):
                i = int(np.flatnonzero(~(np.isfinite(reported) &
                                         (reported == np.floor(reported))))[0])
                return Result(Status.FAIL, figures, counterexample={
                    "method": method, "example": i, "reported": float(reported[i])},
                    note=f"attributes_per_example_ after {method} is not a whole number of "
                    "attributes")
            reported = reported.astype(np.int64)
            figures[prefix + "reported_steps"] = int(reported.size)
            figures[prefix + "reported_max"] = int(reported.max(initial=0))
            sources[prefix + "reported"] = reported
        if counting:
            figures[prefix + "counted_max"] = int(counted.max(initial=0))
            sources[prefix + "counted reads of X"] = counted
        else:
            figures[prefix + "counted"] = f"not counted: the learner read {CX.reads.converted}"
        said = getattr(est, "attributes_read_", None)
        own = _own_draws(est, m, d) if extra and said is None else None
        mask = source = None
        if own is not None:
            mask, source = own, "draws_ (record_draws=True)"
        elif same_run and said is None:     # the reads the recording matrix saw
            mask = np.zeros((m, d), dtype=bool)
            for i, cols in enumerate(CX.reads.cols):
                mask[i, list(cols)] = True
            source = "the recording matrix"
        limit_reported = sources.get(prefix + "reported")
        if limit_reported is not None:
            def limit(i, c=limit_reported):
                return int(c[i])
            told = "attributes_per_example_"
        elif claims.budget is not None and claims.budget_kind == "exact":
            def limit(i):
                return claims.budget
            told = "the claimed budget"
        else:
            limit, told = None, None
        if mask is None and said is None and limit_reported is None and claims.budget is None:
            return _inconclusive(figures, f"no budget is claimed and the learner reports "
                                 f"neither attributes_per_example_ nor attributes_read_ "
                                 f"after {method} (it read {CX.reads.converted or 'the '}"
                                 f"{'' if CX.reads.converted else 'array otherwise than the '}"
                                 f"{'' if CX.reads.converted else 'recording matrix'}), so there "
                                 "is nothing to judge its reads by",
                                 "claim a budget, or report attributes_per_example_ / "
                                 "attributes_read_")

        def fit(X2, call=call):
            est = _set(_configured(learner, claims, X, seed), **extra)
            call(est, X2.copy(), y.copy())
            return est
        found, more = reads_verdict(fit, X, est, U=U, pick=pick,
                                    max_refits=ctx.n(*SEARCH_REFITS),
                                    max_work=ctx.n(*SEARCH_WORK), mask=mask, source=source,
                                    limit=limit, method=method)
        refits += more["refits"]
        figures["refits"] = refits
        if isinstance(found, str) and found.startswith("attributes_read_"):
            return _inconclusive(figures, found, "attributes_read_ as an (m, d) bool mask, an "
                                 "(m, w) int array padded with -1 or m lists of column indices")
        if found == "nondeterministic":
            return _inconclusive(figures, f"two {method} calls with the same random_state "
                                 "give different outputs, so what they depend on cannot be "
                                 "compared", "a fit that is deterministic for a seed (see the "
                                 "deterministic check)")
        if found == "insensitive":
            return _inconclusive(figures, f"the output of {method} is the same bit for bit "
                                 "even with every entry of X replaced: either it ignores X or "
                                 "it keeps state between fits (a cache outside the learner "
                                 "object), and the refits cannot see what it read",
                                 "a fit whose output is a function of its X, y and seed only")
        if found is not None and found["kind"] == "unreported":
            return Result(Status.FAIL, figures, detectable="one attribute read and not "
                          "reported", counterexample=found,
                          note=f"the output of {method} depends on x[{found['example']}, "
                          f"{found['attribute']}], which the learner did not report reading "
                          f"({found['reads_reported_by']})")
        if found is not None:
            found["limit_from"] = told
            return Result(Status.FAIL, figures, detectable="one example whose output depends "
                          "on more attributes than reported", counterexample=found,
                          note=f"the output of {method} depends on {found['count']} attributes "
                          f"of example {found['example']} ({found['attributes_depended_on']}); "
                          f"{told} allows {found['limit']}")
        if "reads_from" in more:
            figures[prefix + "reads_from"] = more["reads_from"]
            figures[prefix + "unreported_replaced"] = more["unreported_replaced"]
            if more["reads_from"] == "attributes_read_":
                sources[prefix + "attributes_read_"] = more["read_counts"]
            continue
        searched = more["dependence_counts"]
        examined.append(f"{method}: {len(searched)} of {m} examples")
        figures[prefix + "examples_searched"] = int(len(searched))
        if limit_reported is None:
            sources[prefix + "attributes depended on (searched examples)"] = searched
    figures["refits"] = refits
    if claims.budget is None:
        return Result(Status.PASS, figures, detectable="one attribute read and not reported"
                      + (f" (searched: {'; '.join(examined)})" if examined else ""),
                      note="no budget claimed: the reports are checked to be true")
    if claims.budget_kind == "exact":
        for name, counts in sources.items():
            over = np.flatnonzero(counts > claims.budget)
            if over.size:
                i = int(over[0])
                return Result(Status.FAIL, figures, detectable="one example over budget",
                              detects=1.0, counterexample={"source": name, "example": i,
                                              "attributes": int(counts[i]),
                                              "budget": claims.budget})
        return Result(Status.PASS, figures, detects=1.0, detectable="one example over budget" + (
            f" (reads searched one entry at a time on {'; '.join(examined)}: an excess on a "
            f"fraction p of the examples passes with probability (1 - p)^examined at most)"
            if examined else ""))
    factors = []
    for name, counts in sources.items():
        iv = stats.nonnegative_lower_bound(counts.astype(float), delta=ctx.delta / len(sources))
        figures[f"mean ({name})"] = float(counts.mean())
        figures[f"lower_confidence_bound ({name})"] = float(iv.low)
        factors.append(lower_bound_detects(iv, float(claims.budget), ctx.delta / len(sources)))
        if iv.low > claims.budget:
            return Result(Status.FAIL, figures, detects=factors[-1], counterexample={
                "source": name, "lower_bound": float(iv.low), "budget": claims.budget})
    return Result(Status.PASS, figures, detects=_smallest(factors),
                  detectable="a mean above the budget by more than the interval's half-width")


def check_constraint(ctx, *, learner, claims):
    """‖w‖ <= B (L2: ‖·‖₂, HK12 Alg. 1 line 12; L1: ‖·‖₁, HK12 Alg. 2, KS15 Alg. 3) for
    ``coef_``, ``w_`` and the iterate after each ``partial_fit`` call, on data pulling towards
    a weight vector 10·B outside the ball."""
    B = claims.B
    m = ctx.n(100, 2000)
    X, y = _synthetic(ctx.rng, claims, m, far=True)
    seed = _seed_int(ctx.spawn())
    limit = B * (1 + NORM_RTOL)
    seen = []

    def look(est, where):
        for attr in ("coef_", "w_"):
            w = getattr(est, attr, None)
            if w is None:
                continue
            n = _norm(np.asarray(w, dtype=float).ravel(), claims.geometry)
            seen.append(n)
            if not n <= limit:
                return {"iterate": f"{attr} {where}", "norm": n, "B": B,
                        "geometry": claims.geometry}
        return None

    est = _configured(learner, claims, X, seed)
    est.fit(X, y)
    _coef(est)
    bad = look(est, "after fit")
    chunks = 0
    if bad is None and callable(getattr(learner, "partial_fit", None)):
        est = _configured(learner, claims, X, seed)
        for start in range(0, m, max(1, m // 20)):
            est.partial_fit(X[start:start + max(1, m // 20)], y[start:start + max(1, m // 20)])
            chunks += 1
            bad = look(est, f"after partial_fit call {chunks}")
            if bad is not None:
                break
    figures = {"iterates_checked": len(seen), "max_norm": max(seen, default=0.0), "B": B,
               "geometry": claims.geometry, "partial_fit_calls": chunks}
    if bad is not None:
        return Result(Status.FAIL, figures, counterexample=bad, detectable=0.0,
                      detects=1.0 + NORM_RTOL)
    return Result(Status.PASS, figures, detectable=f"a norm above B(1 + {NORM_RTOL:g})",
                  detects=1.0 + NORM_RTOL)


def _values(claims, dist, m):
    mom = np.asarray(dist.second_moments, dtype=float)
    values = {"d": dist.d, "m": m, "N_half": float(np.sqrt(mom).sum() ** 2),
              "N_one": float(mom.sum()), "N_inf": float(mom.max())}
    values.update(claims.params)
    values.setdefault("B", claims.B)
    return values


def _run_seeds(child, run):
    """The seeds :func:`_fit_one` gives run ``run`` of ``child``: its data's SeedSequence and
    the learner's ``random_state`` (``child.spawn(2)`` on a fresh child, rebuilt without
    advancing it), for the counterexample's reproduce line."""
    data_seed, learner_seed = (np.random.SeedSequence(child.entropy, spawn_key=child.spawn_key
                                                      + (i,)) for i in (0, 1))
    return {"run_seed": data_seed, "learner_seed": _seed_int(learner_seed), "run": run}


def _fit_one(learner, claims, dist, m, child):
    data_seed, learner_seed = child.spawn(2)
    X, y = dist.sample(m, np.random.default_rng(data_seed))
    est = _configured(learner, claims, X, _seed_int(learner_seed))
    est.fit(X, y)
    return est


def check_step_size(ctx, *, learner, claims):
    """The learner's ``eta_`` equals the claimed step-size formula at the run's d, k, m, B
    (relative 1e-9), on each default distribution."""
    skip = _undecided(claims, "step_size")
    if skip:
        return skip
    m = ctx.n(*claims.m)
    rows = []
    for dist in claims.distributions or default_distributions(claims.geometry, claims.d,
                                                              claims.B or 1.0):
        est = _fit_one(learner, claims, dist, m, ctx.spawn())
        eta = getattr(est, "eta_", None)
        if eta is None:
            return _inconclusive({}, "the learner exposes no eta_ after fit",
                                 "set eta_ to the step size used")
        values = _values(claims, dist, m)
        want = float(claims.step_size(values))
        rows.append({"distribution": dist.name, "eta_": float(eta), "claimed": want})
        if not abs(float(eta) - want) <= 1e-9 * abs(want):
            return Result(Status.FAIL, {"checked": len(rows)}, detectable=0.0, detects=1 + 1e-9,
                          counterexample={**rows[-1], "ratio": float(eta) / want,
                                          "values": {k: v for k, v in values.items()
                                                     if not callable(v)}})
    return Result(Status.PASS, {"checked": len(rows), "runs": rows}, detectable="1e-9 relative",
                  detects=1 + 1e-9)


def check_excess_risk(ctx, *, learner, claims):
    """E[L_D(w̄)] − L_D(w*) <= the claimed bound on each distribution (one-sided lower
    confidence bound at δ / number of distributions; see the module docstring)."""
    skip = _undecided(claims, "excess_risk")
    if skip:
        return skip
    m = ctx.n(*claims.m)
    R = ctx.n(*claims.R)
    B = claims.B
    dists = claims.distributions or default_distributions(claims.geometry, claims.d, B)
    delta = ctx.delta / len(dists)
    rows = []
    for index, dist in enumerate(dists):
        children = child_seeds(ctx.spawn(), R)
        rerun = dict(geometry=claims.geometry, d=dist.d, B=B, m=m, R=R, loss=claims.loss,
                     index=None if claims.distributions else index)
        sol_risk = dist.optimal_risk(claims.geometry, B, claims.loss)
        excess, inside, values = [], True, None
        for run, child in enumerate(children):
            est = _fit_one(learner, claims, dist, m, child)
            w = _coef(est)
            if not np.all(np.isfinite(w)):
                return Result(Status.FAIL, {"distribution": dist.name},
                              counterexample=distribution_counterexample(
                                  {"distribution": dist.name, "coef_": "not finite"},
                                  **rerun, **_run_seeds(child, run)))
            inside &= _norm(w, claims.geometry) <= B * (1 + NORM_RTOL)
            excess.append(dist.excess_risk(w, claims.geometry, B, claims.loss))
            if values is None:
                values = _values(claims, dist, m)
                if claims.values_hook is not None:
                    values.update(claims.values_hook(est, dist, values))
        excess = np.asarray(excess)
        try:
            bound = float(claims.bound(values))
        except InvalidParameterError as exc:
            return _inconclusive({"distribution": dist.name}, f"the bound cannot be evaluated "
                                 f"on {dist.name}: {exc}")
        if inside:
            low, high = excess_risk_range(dist, claims.geometry, B, claims.loss)
            iv = stats.mean_interval(np.clip(excess, low, high), lower=low, upper=high,
                                     delta=delta, alternative="greater")
            lcb, how = float(iv.low), "betting, proven per-run range (coef_ in the ball)"
            shift = stats.detectable_violation(R, lower=low, upper=high, delta=delta,
                                               beta=1 - POWER, method="betting",
                                               alternative="greater") if high > low else None
        else:
            risk = np.maximum(excess + sol_risk, 0.0)
            iv = stats.nonnegative_lower_bound(risk, delta=delta)
            lcb, how = float(iv.low) - sol_risk, "truncation bound on L_D >= 0 (coef_ left " \
                "the ball)"
            shift = lower_bound_shift(iv, delta)
        # the factor by which the bound could be too small and still PASS (its slack
        # included, as for the catalog's bounds): a bound b/F is refuted with probability
        # >= 0.9 once the mean excess (its estimate here) exceeds b/F by the design's shift,
        # F = b / (mean − shift); runs whose mean is within the shift of 0 refute no bound
        # (capped at NO_POWER: "no power at these settings")
        factor = None
        if shift is not None and np.isfinite(shift) and 0 < bound < np.inf:
            room = float(excess.mean()) - shift
            factor = NO_POWER if room <= bound / NO_POWER else max(1.0, bound / room)
        row = {"distribution": dist.name, "d": dist.d, "m": m, "R": R, "B": B,
               "k": claims.params.get("k"), "bound": bound, "excess_mean": float(excess.mean()),
               "lower_confidence_bound": lcb, "ratio": float(excess.mean()) / bound,
               "method": how, "delta": delta, "detects": factor}
        rows.append(row)
        if lcb > bound:
            return Result(Status.FAIL, {"runs": rows, "n": R}, detectable=0.0, detects=factor,
                          counterexample=distribution_counterexample({**row, "bound_values": {
                              k: v for k, v in values.items() if isinstance(v, (int, float))}},
                              **rerun, **_run_seeds(children[0], 0)),
                          note=f"E[excess risk] > {claims.bound_text} at δ = {delta:g} on "
                          f"{dist.name}")
    factor = _smallest(row["detects"] for row in rows)
    return Result(Status.PASS, {"runs": rows, "n": R, "bound": claims.bound_text},
                  detects=factor,
                  detectable="a mean excess risk above the bound by more than mean − lower "
                  "confidence bound",
                  note="no power at these settings: the runs' mean excess risk is within the "
                  "design's shift of 0, so no bound, however small, would be refuted (more runs "
                  "R, or a harder distribution)" if factor == NO_POWER else "")


def _smallest(factors):
    """The smallest of the parts' ``detects`` (a violation in every part is found by the most
    sensitive one); None when no part has one."""
    found = [f for f in factors if f is not None]
    return min(found) if found else None


def check_deterministic(ctx, *, learner, claims):
    """The same seed gives the same ``coef_`` (bit for bit); a randomized learner gives
    different ones for different seeds (it does not ignore its ``random_state``)."""
    m = ctx.n(64, 500)
    X, y = _synthetic(ctx.rng, claims, m)
    seeds = [_seed_int(s) for s in (ctx.spawn(), ctx.spawn(), ctx.spawn())]
    has_seed = _has_seed(learner)
    randomized = claims.randomized if claims.randomized is not None else has_seed
    n = m + m // 2                        # fit_stream's steps: the pool of m rows wraps around
    methods = [("fit", lambda est: est.fit(X.copy(), y.copy()))]
    if callable(getattr(learner, "fit_stream", None)):
        methods.append(("fit_stream", lambda est: est.fit_stream(X.copy(), y.copy(), n)))
    figures = {"fits": 4 * len(methods) + (len(methods) > 1), "has_random_state": has_seed,
               "draws": m, "methods": [name for name, _ in methods]}
    first = {}
    for method, call in methods:
        fits = []
        for s in (seeds[0], seeds[0], seeds[1], seeds[2]):
            est = _configured(learner, claims, X, s if has_seed else None)
            fits.append(_coef(call(est)).copy())
        first[method] = fits[0]
        if not np.array_equal(fits[0], fits[1]):
            return Result(Status.FAIL, figures, detectable=0.0, counterexample={
                "method": method, "seed": seeds[0],
                "max_abs_difference": float(np.max(np.abs(fits[0] - fits[1]))),
                "why": f"two {method} calls with the same random_state differ (global or "
                "unseeded randomness)"})
        if randomized:
            if not has_seed:
                return _inconclusive(figures, "the learner claims to be randomized but has no "
                                     "random_state", "a random_state parameter")
            if np.array_equal(fits[0], fits[2]) and np.array_equal(fits[0], fits[3]):
                return Result(Status.FAIL, figures, detectable=0.0, counterexample={
                    "method": method, "seeds": seeds, "why": f"three different random_state "
                    f"give the same coef_ from {method}: it ignores the seed"})
    if "fit_stream" in first:             # the protocol: fit on the pool tiled to n rows
        est = _configured(learner, claims, X, seeds[0] if has_seed else None)
        tiled = _coef(est.fit(np.resize(X, (n, X.shape[1])), np.resize(y, n))).copy()
        stream = first["fit_stream"]
        if not np.allclose(stream, tiled, rtol=1e-9, atol=1e-12 * max(1.0, claims.B or 1.0)):
            return Result(Status.FAIL, figures, detectable=0.0, counterexample={
                "method": "fit_stream", "seed": seeds[0], "rows": m, "n_steps": n,
                "max_abs_difference": float(np.max(np.abs(stream - tiled))),
                "why": f"fit_stream(X, y, {n}) differs from fit on the {m} rows tiled to {n} "
                "rows with the same random_state"})
    return Result(Status.PASS, figures, detectable=0.0)


def check_sklearn(ctx, *, learner, claims):
    """A subset of scikit-learn's estimator checks (check_estimators_fit_returns_self,
    check_fit2d_predict1d's shapes, check_dont_overwrite_parameters, check_estimators_overwrite_
    params, check_parameters_default_constructible's clone) that apply to any learner."""
    m = ctx.n(32, 200)
    X, y = _synthetic(ctx.rng, claims, m)
    X0, y0 = X.copy(), y.copy()
    est = _configured(learner, claims, X, _seed_int(ctx.spawn()))
    before = _params_of(est)
    problems = []
    out = est.fit(X, y)
    if out is not est:
        problems.append("fit does not return self")
    coef = getattr(est, "coef_", None)
    if coef is None or np.shape(coef) != (X.shape[1],):
        problems.append(f"coef_ has shape {np.shape(coef)}, not (n_features,) = ({X.shape[1]},)")
    elif not np.all(np.isfinite(coef)):
        problems.append("coef_ is not finite")
    if not (np.array_equal(X, X0) and np.array_equal(y, y0)):
        problems.append("fit changed X or y in place")
    after = _params_of(est)
    changed = [k for k in before if k in after and not _same(before[k], after[k])]
    if changed:
        problems.append(f"fit changed the constructor parameters {changed}")
    if callable(getattr(est, "predict", None)) and coef is not None and not problems:
        pred = np.asarray(est.predict(X), dtype=float)
        want = X @ np.asarray(coef, dtype=float) + float(np.sum(getattr(est, "intercept_", 0.0)))
        if pred.shape != (m,) or not np.allclose(pred, want, rtol=1e-9, atol=1e-12):
            problems.append("predict(X) is not X @ coef_ (+ intercept_)")
    if callable(getattr(learner, "get_params", None)):
        # start-up: scikit-learn loads when this check runs, not when the catalog is listed
        import sklearn.base
        try:
            clone = sklearn.base.clone(learner)
            if set(_params_of(clone)) != set(_params_of(learner)):
                problems.append("clone changes the parameters")
        except Exception as exc:      # any failure of clone is the learner's
            problems.append(f"sklearn.base.clone fails: {type(exc).__name__}: {exc}")
    figures = {"checks": 6, "examples": m}
    if problems:
        return Result(Status.FAIL, figures, counterexample={"problems": problems},
                      detectable=0.0)
    return Result(Status.PASS, figures, detectable=0.0)


def _params_of(est):
    try:
        return dict(est.get_params(deep=False))
    except Exception:                 # a plain learner: its public non-fitted attributes
        return {k: v for k, v in vars(est).items()
                if not k.startswith("_") and not k.endswith("_")}


def _same(a, b):
    try:
        if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
            return np.array_equal(a, b)
        return a is b or a == b
    except Exception:                 # incomparable values: treat as unchanged
        return True


# -- building the checks -------------------------------------------------------------------------
_FUNCS = {
    "budget": (check_budget, "every example fitted by {label} has at most {budget} of its "
               "attributes read{kind}, and its output depends on no attribute it does not "
               "report reading", "reported counts and reads (attributes_per_example_, "
               "attributes_read_, a recording matrix), then refits on X with the unreported "
               "entries replaced: the same output bit for bit (fit, and fit_stream and "
               "partial_fit where the learner has them)"),
    "constraint": (check_constraint, "‖w‖{norm} <= B = {B} for coef_, w_ and every iterate "
                   "{label} exposes", "fit and partial_fit on data pulling outside the ball"),
    "step_size": (check_step_size, "the step size eta_ of {label} is {step}",
                  "eta_ after fit against the formula"),
    "excess_risk": (check_excess_risk, "E[L_D(w̄)] − L_D(w*) <= {bound} for {label}",
                    "R replicates on distributions with exact risk; one-sided lower confidence "
                    "bound at δ"),
    "deterministic": (check_deterministic, "{label} gives the same coef_ for the same seed "
                      "(and, randomized, different ones for different seeds){stream}",
                      "repeated fits, bitwise comparison"),
    "sklearn": (check_sklearn, "{label} follows the scikit-learn estimator API (fit returns "
                "self, coef_ shape, inputs and parameters unchanged, predict, clone)",
                "a subset of sklearn.utils.estimator_checks"),
}

_EXACT = {"budget": 0.0, "constraint": 0.0, "step_size": 0.0, "deterministic": 0.0,
          "sklearn": 0.0}


def applies(prop, claims):
    """Whether ``claims`` select the property check ``prop``."""
    return {"budget": claims.budget is not None or claims.reads or "budget" in claims.undecided,
            "constraint": claims.constraint,
            "step_size": claims.step_size is not None or "step_size" in claims.undecided,
            "excess_risk": claims.bound is not None or "excess_risk" in claims.undecided,
            "deterministic": claims.deterministic,
            "sklearn": claims.sklearn}[prop]
