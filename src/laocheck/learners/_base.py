"""The lifecycle every budgeted learner shares.

:class:`BudgetedLearner` owns ``fit``, ``partial_fit``, ``fit_stream``, the validation of X and
y, the resolution of the step size (``eta="theory"`` or ``lam="theory"``: the theorem's value
for the m of the run), the attribute bookkeeping (``attributes_per_example_``,
``n_attributes_seen_``, ``max_attributes_per_example_``, ``draws_``) and the outputs
(``coef_`` = w̄, ``w_``, ``n_steps_``). A learner supplies only

* ``_validate(d, m)``: its parameters checked (before any work), returned as one object;
* ``_start(d, config)``: its state (a Cython kernel state, or the phases of a two-phase run);
* ``_advance(X, y, n_steps)``: the steps over the rows of X (one pass when ``n_steps`` is
  None, else ``n_steps`` steps with the rows taken cyclically), returning the distinct
  attributes observed per step and the drawn indices (or None);
* optionally ``_theory_step(name, m, d, config)`` and ``_sync()``.
"""

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from .._validation import (check_distribution, check_int, check_nonnegative_vector,
                           check_real, check_rng)
from ..data import RowOracle
from ..estimators import AliasTable
from ..exceptions import InvalidParameterError

__all__ = ["BudgetedLearner", "DataPointSampling", "check_k", "check_scale", "SCALE_RANGE",
           "MAX_STEPS", "has_oracle_path"]

#: The range of every scale a learner takes: the radius B, the step η or λ, the smoothing ε
#: and the entries of X and y (0 allowed for the data). One step multiplies at most three of
#: them (e.g. η·φ̃·x̃ with φ̃ ~ ‖w‖·x/w), so within 1e-100..1e100 no product of a step
#: overflows or underflows to 0; beyond it the papers' updates are not representable in
#: doubles. Validated before any work.
SCALE_RANGE = (1e-100, 1e100)
#: At most this many steps (m, n_total, n_steps): the step counters are 64-bit integers.
MAX_STEPS = 2**62


def check_scale(name, value, what="a scale"):
    """A float in SCALE_RANGE (see there), for B, η, λ, ε."""
    return check_real(name, value, low=SCALE_RANGE[0], high=SCALE_RANGE[1],
                      rule=f"{what}; within it no product of a step overflows or underflows")


def check_data_range(X, y):
    """max|X| and max|y| within SCALE_RANGE's upper end (0 allowed), before any work.

    Two reductions (max, min) per array, no m × d temporary; the entry is located only when
    the check does not pass at once (an entry beyond the limit, or a NaN: NaN passes here, as
    it did before, and is scikit-learn's finiteness check's to refuse)."""
    limit = SCALE_RANGE[1]
    for name, arr in (("X", X), ("y", y)):
        if arr.size and not (arr.max() <= limit and arr.min() >= -limit):
            flat = int(np.argmax(np.abs(arr)))
            top = float(np.abs(arr.flat[flat]))
            if top > SCALE_RANGE[1]:
                where = np.unravel_index(flat, arr.shape)
                raise InvalidParameterError(
                    f"`{name}` must satisfy max|{name}| <= {SCALE_RANGE[1]:g} (a step multiplies "
                    f"up to three scales such as x, y, B, η: beyond, they overflow); got "
                    f"|{name}[{', '.join(map(str, where))}]|={top!r}.")


def check_k(k, d, low=1):
    """k, an integer with low <= k <= d (k attributes of the d of an example: HK12, KS15 and
    CB11 sample within one example; k > d is no budget at all)."""
    k = check_int("k", k, low=low)
    if k > d:
        raise InvalidParameterError(
            f"`k` must satisfy k <= d (k of the d attributes of an example); got k={k} with "
            f"n_features = {d}.")
    return k


# The last q's alias rows (k, a copy of q, the rows): replicates of one experiment build the
# same learner with the same q, and at d = 10⁶ the table costs more than their steps. Reused
# only for a q equal to the copy bit for bit (and the same k): a different q never sees it.
_LAST_Q_ROWS = None


def q_alias_rows(q, k):
    """q's alias table with payload 1/(k q_i) (0 where q_i = 0: never drawn), the rows a
    kernel's x̃ draws read (``AliasTable(q).with_payload``; KS15 Alg. 1 line 4). Read-only;
    the last one is reused when q and k are the same, bit for bit (a size-one cache)."""
    global _LAST_Q_ROWS
    last = _LAST_Q_ROWS                     # one read: another thread may replace it
    if (last is not None and last[0] == k and last[1].shape == q.shape
            and np.array_equal(last[1].view(np.int64), q.view(np.int64))):
        return last[2]
    # 1/(k q_i) where q_i > 0, else 0: one pass, no masked copies
    payload = np.divide(1.0, k * q, out=np.zeros(q.shape[0]), where=q > 0)
    rows = AliasTable(q).with_payload(payload)
    rows.flags.writeable = False
    _LAST_Q_ROWS = (k, np.array(q, dtype=np.float64), rows)
    return rows


class _NonFinite(Exception):
    """A kernel stopped: its step ``args[0]`` made the iterate non-finite."""


class BadEntryError(InvalidParameterError):
    """An entry of X or y that a step read is not finite or beyond SCALE_RANGE's upper end
    (the learners check each entry when a step reads it: an entry never read is never
    inspected). ``name`` is "X" or "y", ``row`` and ``col`` (None for y) where, ``value`` it."""

    def __init__(self, name, row, col, value):
        value = float(value)
        self.name, self.row, self.col, self.value = name, row, col, value
        where = f"{name}[{row}]" if col is None else f"{name}[{row}, {col}]"
        kind = (" (NaN)" if value != value else " (infinite)" if abs(value) == float("inf")
                else "")
        super().__init__(
            f"`{name}` must be finite with max|{name}| <= {SCALE_RANGE[1]:g} where a step reads "
            f"it (a step multiplies up to three scales such as x, y, B, η: beyond, they "
            f"overflow); got {where}={value!r}{kind}.")

    def moved(self, row):
        """The same error at another row (a learner that passed a slice or a rolled copy)."""
        return BadEntryError(self.name, row, self.col, self.value)


def raise_fault(fault):
    """Raise :class:`BadEntryError` for a kernel's fault (row, column, value), column −1 for
    y; nothing when ``fault`` is None."""
    if fault is not None:
        row, col, value = fault
        row, col = int(row), int(col)
        raise BadEntryError("y", row, None, value) if col < 0 else \
            BadEntryError("X", row, col, value)


def has_oracle_path(learner):
    """Whether ``learner`` reads examples through an attribute oracle (``fit_oracle``).

    Its class has its own oracle path, not the base class's refusal. On
    ``EmpiricalOracle(X, y, ..., sequential=True)`` such a run is bit-identical to ``fit`` on
    the same rows.

    Parameters
    ----------
    learner : estimator or type
        A learner or its class.

    Returns
    -------
    bool
        True for a subclass of ``BudgetedLearner`` with its own oracle path.
    """
    cls = learner if isinstance(learner, type) else type(learner)
    return (issubclass(cls, BudgetedLearner)
            and cls._advance_oracle is not BudgetedLearner._advance_oracle)


class BudgetedLearner(RegressorMixin, BaseEstimator):
    """Base of the learners that see part of each example.

    X, y go through scikit-learn's ``validate_data`` (2-d, float64, C-contiguous, no sparse or
    complex input, consistent ``n_features_in_``, y finite) without its finiteness scan of X:
    the kernels check each entry of X and y a step reads, when it reads it (finite, |x| <=
    1e100; O(1) per read, no pass over X), so an attribute no step reads is never inspected,
    which is the point of a model that observes k + 1 attributes of an example. A bad entry
    read raises :class:`BadEntryError` (a ValueError naming the row, the column, the value and
    the limit). Any error or interruption (Ctrl-C) during a run leaves the learner unfitted,
    as before its first ``fit``: no half-updated state is kept. ``predict`` = ⟨coef_, x⟩;
    randomness declared in the tags. ``fit`` makes one pass from the initial point,
    ``partial_fit`` continues it, ``fit_stream(X, y, n_steps)`` makes ``n_steps`` steps from
    the initial point over the rows taken cyclically (a stream from a pool; the same as ``fit``
    on the pool tiled to n_steps rows). The theory step size takes m = ``n_total`` when
    given, else the rows of ``fit`` (of the first ``partial_fit`` call), else ``n_steps``.
    """

    # the step-size parameter and the names it accepts besides a float > 0
    _step_param = "eta"
    _step_names = ("theory",)

    # -- what a learner supplies -----------------------------------------------------------

    def _validate(self, d, m):  # pragma: no cover - every learner overrides it
        raise NotImplementedError

    def _start(self, d, config):  # pragma: no cover
        raise NotImplementedError

    def _advance(self, X, y, n_steps):  # pragma: no cover
        raise NotImplementedError

    def _theory_step(self, name, m, d, config):  # pragma: no cover
        raise NotImplementedError

    def _sync(self):
        """``coef_`` (w̄), ``w_`` and ``n_steps_`` from the state."""
        self.n_steps_ = self._state.t
        self.coef_ = self._state.average()
        self.w_ = self._state.coef()

    # -- the shared lifecycle --------------------------------------------------------------

    def fit(self, X, y):
        """One pass over (X, y) from the initial point, as in the papers.

        One step of the class's algorithm per row, in order (the paper and label are in the
        class docstring, e.g. HK12 Alg. 1 for :class:`~laocheck.learners.AERR`). No pass over
        X of its own: each entry a step reads is checked when it is read, and an attribute no
        step reads is never inspected.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)
            The examples, one per row (converted to C-contiguous float64; not sparse).
        y : array_like of shape (n_samples,)
            The labels (finite).

        Returns
        -------
        self
            The fitted learner (``coef_`` = w̄, ``w_``, ``n_steps_`` and the attribute
            counts set).

        Raises
        ------
        ValueError
            If X or y is malformed (scikit-learn's ``validate_data``), if an entry a step reads
            is not finite or beyond 1e100 (``BadEntryError``, naming row, column and value), if
            a parameter of the learner breaks its rule, or if the iterate becomes non-finite;
            the learner is then left unfitted.
        """
        self._reset()
        X, y = self._data(X, y, reset=True)
        self._check_whole_run("fit", X.shape[0])
        return self._run(X, y, X.shape[0])

    def partial_fit(self, X, y):
        """Continue the pass with more rows (the state, the average and the random stream go on).

        The theory step's m is ``n_total`` if given, else the rows of the first call (it is
        fixed once, at the first call). Calls whose rows concatenate to those of one ``fit``
        give the same result as that ``fit``.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)
            The next examples (the same ``n_features`` as the first call).
        y : array_like of shape (n_samples,)
            Their labels.

        Returns
        -------
        self
            The learner, its outputs updated.

        Raises
        ------
        ValueError
            As :meth:`fit`, and if ``n_features`` differs from the first call's; the learner is
            then left unfitted.
        """
        first = not hasattr(self, "_state")
        X, y = self._data(X, y, reset=first)
        return self._run(X, y, X.shape[0])

    def fit_stream(self, X, y, n_steps, *, keep_attributes=None):
        """``n_steps`` steps from the initial point, the rows of (X, y) taken cyclically.

        A stream from a pool of rows, for runs longer than any array one would hold (no m × d
        array; the benchmarks use it at d = 10⁵). The same as ``fit`` on the pool tiled to
        n_steps rows; the theory step takes m = n_steps (or ``n_total``).

        Memory: O(pool + d), not O(n_steps): the steps run in chunks (the same random numbers
        and arithmetic as one call; Ctrl-C is seen between chunks). ``record_draws=True``
        asks for O(n_steps) draws and keeps them.

        Parameters
        ----------
        X : array_like of shape (n_pool, n_features)
            The pool of examples, taken cyclically.
        y : array_like of shape (n_pool,)
            Their labels.
        n_steps : int
            The number of steps (examples of the stream), 1 <= n_steps <= 2**62.
        keep_attributes : bool or None, default=None
            Whether to keep the per-step record ``attributes_per_example_`` (8 bytes a step);
            None keeps it when n_steps <= 2**20. Without it ``n_attributes_seen_`` and
            ``max_attributes_per_example_`` are still exact.

        Returns
        -------
        self
            The fitted learner.

        Raises
        ------
        ValueError
            As :meth:`fit`, and if ``n_steps`` is not an integer in range or
            ``keep_attributes`` is not None, True or False.
        """
        n_steps = check_int("n_steps", n_steps, low=1, high=MAX_STEPS)
        if keep_attributes is not None and not isinstance(keep_attributes, (bool, np.bool_)):
            raise InvalidParameterError(
                f"`keep_attributes` must be None, True or False; got {keep_attributes!r}.")
        self._reset()
        X, y = self._data(X, y, reset=True)
        self._check_whole_run("fit_stream", n_steps)
        keep = n_steps <= 2**20 if keep_attributes is None else bool(keep_attributes)
        return self._run(X, y, n_steps, n_steps=n_steps, keep=keep)

    def fit_oracle(self, oracle, n_steps):
        """``n_steps`` steps from the initial point on examples drawn by an attribute oracle.

        The kernel reads only the attributes the algorithm chooses, so a step costs
        O(k + log d) plus the oracle's cost of one label, and no row is ever materialised. The
        learner's random numbers, draws and arithmetic are those of ``fit`` (with the oracle's
        examples in place of rows of X); the theory step takes m = ``n_total`` or ``n_steps``.

        Only the learners whose kernel reads through an oracle implement it: the data-point
        sampling family (AERR, GAERR, DDAERR, AELR, GAELR, DDAELR), AER (CB11 Fig. 2) and the
        Two-Phased learners (TwoPhaseDDAERR, TwoPhaseDDAELR: KS15 Alg. 2 and 4, both phases on
        consecutive examples of the oracle), and KS15 App. A's adaptive learners (AdaGAERR,
        AdaAERR, AdaDDAERR, AdaTwoPhaseDDAERR; O(d) per step for AdaGrad's state, but only the
        drawn attributes read). The others (Baseline, AESVR) raise.

        Parameters
        ----------
        oracle : RowOracle
            An attribute oracle, ``Distribution.oracle(rng)`` of :mod:`laocheck.data`.
        n_steps : int
            The number of steps (examples drawn), 1 <= n_steps <= 2**62.

        Returns
        -------
        self
            The fitted learner.

        Raises
        ------
        ValueError
            If ``oracle`` is not an attribute oracle or its sup|x|, sup|y| exceed 1e100, if
            ``n_steps`` is out of range, if a parameter breaks its rule, if the iterate becomes
            non-finite, or if the learner has no oracle path.
        """
        n_steps = check_int("n_steps", n_steps, low=1, high=MAX_STEPS)
        if not isinstance(oracle, RowOracle):
            raise InvalidParameterError(
                f"`oracle` must be an attribute oracle (laocheck.data's Distribution.oracle(rng)); "
                f"got {type(oracle).__name__}.")
        for name, top in (("x", oracle.x_max), ("y", oracle.y_max)):
            if not top <= SCALE_RANGE[1]:
                raise InvalidParameterError(
                    f"`oracle` must have sup|{name}| <= {SCALE_RANGE[1]:g} (a step multiplies up "
                    f"to three scales); got sup|{name}|={top!r}.")
        self._reset()
        d = oracle.d
        m = n_steps
        n_total = getattr(self, "n_total", None)
        if n_total is not None:
            m = check_int("n_total", n_total, low=1, high=MAX_STEPS)
        config = self._validate(d, m)
        self._rng = check_rng(self.random_state)
        self._start(d, config)
        self.n_features_in_ = d
        self.draws_ = None
        try:
            if self._chunk is None:
                attributes, draws = self._advance_oracle(oracle, n_steps)
            else:                   # in chunks, as fit_stream (the oracle's examples go on)
                parts = [self._advance_oracle(oracle, min(self._chunk, n_steps - done))
                         for done in range(0, n_steps, self._chunk)]
                attributes = np.concatenate([a for a, _ in parts])
                draws = None if parts[0][1] is None else np.concatenate([r for _, r in parts])
        except _NonFinite as exc:
            self._reset()
            raise InvalidParameterError(
                f"the oracle's examples and the parameters of {type(self).__name__} gave a "
                f"non-finite iterate at step {exc.args[0]}; rescale towards ‖x‖ <= 1, "
                f"|y| <= B.") from None
        except BaseException:
            self._reset()               # no half-updated state (an error, Ctrl-C): unfitted
            raise
        self.attributes_per_example_ = np.asarray(attributes, dtype=np.int64)
        self.n_attributes_seen_ = int(self.attributes_per_example_.sum())
        self.max_attributes_per_example_ = int(self.attributes_per_example_.max(initial=0))
        self.draws_ = draws
        self._sync()
        return self

    def _check_whole_run(self, method, m):
        """A learner's check of a whole run of m examples (``fit``, ``fit_stream``) before it
        starts; raises InvalidParameterError. None by default."""

    def _advance_oracle(self, oracle, n_steps):
        raise InvalidParameterError(
            f"{type(self).__name__} has no attribute-oracle path (fit_oracle); use fit(X, y).")

    def _step_buffers(self, m, width):
        """A kernel's outputs for ``m`` steps: the attributes seen per step (zeros) and, with
        ``record_draws``, the (m, width) draws (−1 where a step drew fewer), else None."""
        record = np.full((m, width), -1, dtype=np.int_) if self.record_draws else None
        return np.zeros(m, dtype=np.int_), record

    def _reset(self):
        """Forget a previous run: the state and every fitted attribute (names ending in _)."""
        for name in list(vars(self)):
            if name == "_state" or (name.endswith("_") and not name.startswith("_")):
                delattr(self, name)

    def _run(self, X, y, m, n_steps=None, keep=True):
        try:
            return self._run_steps(X, y, m, n_steps, keep)
        except BaseException:
            self._reset()               # no half-updated state: unfitted, fit again
            raise

    #: steps per kernel call (a run is split into calls of at most this many steps: the same
    #: random numbers and arithmetic as one call, O(chunk) buffers, and Python sees Ctrl-C
    #: between calls, well within a second); None: one call (a learner that splits its own)
    _chunk = 2**16

    def _pieces(self, X, y, n_steps):
        """The run as (X part, y part, n_steps part, row offset) calls of ``_advance``, each of
        at most ``_chunk`` steps: ``fit`` in row slices; ``fit_stream`` in whole passes over
        the pool (each call starts at its first row) or, for a pool larger than a chunk, its
        passes in row slices."""
        P = X.shape[0]
        total = P if n_steps is None else n_steps
        chunk = self._chunk
        if chunk is None or total <= chunk:
            yield X, y, n_steps, 0
            return
        if n_steps is not None and P <= chunk:
            per = (chunk // P) * P                  # whole passes: each call starts at row 0
            for done in range(0, total, per):
                yield X, y, min(per, total - done), 0
            return
        done = 0
        while done < total:                         # slices of passes over the rows
            a = done % P
            b = min(P, a + chunk, a + total - done)
            yield X[a:b], y[a:b], None, a
            done += b - a

    def _run_steps(self, X, y, m, n_steps, keep=True):
        if not hasattr(self, "_state"):
            n_total = getattr(self, "n_total", None)
            if n_total is not None:
                m = check_int("n_total", n_total, low=1, high=MAX_STEPS)
            config = self._validate(X.shape[1], m)
            self._rng = check_rng(self.random_state)
            self._start(X.shape[1], config)
            self.attributes_per_example_ = np.zeros(0, dtype=np.int64)
            self.n_attributes_seen_ = 0
            self.max_attributes_per_example_ = 0
            self.draws_ = None
        kept = [] if keep and self.attributes_per_example_ is not None else None
        draws_parts = []
        total, top = self.n_attributes_seen_, self.max_attributes_per_example_
        try:
            for Xp, yp, n, offset in self._pieces(X, y, n_steps):
                try:
                    attributes, draws = self._advance(Xp, yp, n)
                except BadEntryError as exc:
                    raise exc.moved(exc.row + offset) from None
                attributes = np.asarray(attributes, dtype=np.int64)
                total += int(attributes.sum())
                top = max(top, int(attributes.max(initial=0)))
                if kept is not None:
                    kept.append(attributes)
                if draws is not None:
                    draws_parts.append(draws)
        except _NonFinite as exc:
            raise InvalidParameterError(
                f"`X`, `y` and the parameters of {type(self).__name__} gave a non-finite "
                f"iterate at step {exc.args[0]} (the estimate overflowed: its magnitude grows "
                f"with max|x|, max|y|, B and 1/min q, and ‖w‖²x_j/w_j is unbounded when a "
                f"sampled w_j is tiny); rescale X and y towards the papers' ‖x‖ <= 1, "
                f"|y| <= B.") from None
        self.attributes_per_example_ = (None if kept is None else
                                        np.concatenate([self.attributes_per_example_] + kept))
        self.n_attributes_seen_ = total
        self.max_attributes_per_example_ = top
        if draws_parts:
            self.draws_ = np.concatenate(([] if self.draws_ is None else [self.draws_])
                                         + draws_parts)
        self._sync()
        return self

    def _step_size(self, m, d, config=None):
        """The step-size parameter (``_step_param``): one of ``_step_names``, resolved by
        ``_theory_step`` for the m of the run, or a float > 0."""
        value = getattr(self, self._step_param)
        if isinstance(value, str):
            if value not in self._step_names:
                names = ", ".join(repr(n) for n in self._step_names)
                raise InvalidParameterError(
                    f"`{self._step_param}` must be {names} or a float > 0; got {value!r}.")
            step = self._theory_step(value, m, d, config)
            if not SCALE_RANGE[0] <= step <= SCALE_RANGE[1]:
                raise InvalidParameterError(
                    f"`{self._step_param}`={value!r} gives {step!r} for these B and m={m}, "
                    f"outside {SCALE_RANGE[0]:g}..{SCALE_RANGE[1]:g} (the theorem's step "
                    f"underflows or overflows: B, k, d or m is extreme); pass a float.")
        else:
            step = check_scale(self._step_param, value, "a step size")
        self._resolved_step = step
        return step

    def theory_step(self, n_samples, n_features):
        """The step size a run on ``n_samples`` examples of ``n_features`` attributes would use.

        The ``eta_`` (or AER's ``lam_``) that ``fit`` sets, the theorem's value for m =
        ``n_total`` when given, else ``n_samples``, computed without running: what tuning a
        multiple of the theory step needs.

        Parameters
        ----------
        n_samples : int
            The number of examples m of the run (ignored when ``n_total`` is set).
        n_features : int
            The dimension d.

        Returns
        -------
        float or None
            The step size, or None when the learner resolves its step from the examples during
            the run (the Two-Phased learners, KS15 Alg. 2 and 4: phase 2's step from phase 1's
            estimate).

        Raises
        ------
        ValueError
            As ``fit`` would for invalid parameters, or for a non-positive size.
        """
        n_samples = check_int("n_samples", n_samples, low=1, high=MAX_STEPS)
        n_features = check_int("n_features", n_features, low=1)
        n_total = getattr(self, "n_total", None)
        m = n_samples if n_total is None else check_int("n_total", n_total, low=1,
                                                          high=MAX_STEPS)
        self._resolved_step = None
        self._validate(n_features, m)
        step, self._resolved_step = self._resolved_step, None
        return step

    def _radius(self):
        return check_scale("B", self.B, "a radius")

    def _check_state(self, failed):
        """Raise (through ``_run``) when the kernel stopped at a bad entry it read
        (:class:`BadEntryError`) or at a non-finite step."""
        fault = getattr(self._state, "fault", None)
        if fault is not None:
            raise_fault(fault())
        if failed:
            raise _NonFinite(failed)

    # -- scikit-learn plumbing -------------------------------------------------------------

    def _data(self, X, y, reset):
        # no finiteness scan of X (O(md)): the kernels check each entry a step reads. y's is
        # O(m) (scikit-learn's check of y); it sums y first, and entries near the largest
        # double make that sum overflow (a RuntimeWarning, then its exact scan decides):
        # silenced, the verdict is the exact scan's
        with np.errstate(over="ignore", invalid="ignore"):
            X, y = validate_data(self, X, y, reset=reset, dtype=np.float64, order="C",
                                 y_numeric=True, ensure_all_finite=False)
        return np.ascontiguousarray(X), np.ascontiguousarray(y, dtype=np.float64)

    def predict(self, X):
        """Predictions ⟨w̄, x⟩ of the learner's output ``coef_``.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)
            The examples (all their attributes: prediction is not budgeted).

        Returns
        -------
        ndarray of shape (n_samples,)
            ``X @ coef_``.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            Before the first ``fit``.
        ValueError
            If X is malformed or its ``n_features`` differs from the fit's.
        """
        check_is_fitted(self, "coef_")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return X @ self.coef_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.non_deterministic = self.random_state is None
        return tags


class DataPointSampling(BudgetedLearner):
    """The kernel interface of the learners whose x̃ is drawn from a data-point distribution q
    (HK12 Alg. 1 and 2 for uniform q, KS15 Alg. 1 and 3 for any q): k draws i ~ q for x̃, then
    ``n_inner`` draws j ∝ a function of w for φ̃, through one Cython ``State.run`` (``_ridge``
    or ``_lasso``). A subclass names its state (``_new_state``), its initial point and its
    theory step.

    Parameters shared by the family: ``k``, ``B``, ``eta``, ``q``, ``second_moments``,
    ``n_inner``, ``n_total``, ``random_state``, ``record_draws`` (see :class:`GAERR`).
    """

    # set by TwoPhaseDDAE*R's practical variant, whose estimated q may vanish where X does not
    _allow_zero_q = False

    #: from this d on, a run from line 1's named initial point keeps only the coordinates it
    #: moves (``SparseRidgeState``, ``SparseLassoState``: O(number moved) memory, no O(d) pass
    #: per run); below it the dense states (direct indexing is faster when every coordinate
    #: moves within a few steps)
    _sparse_min_d = 2 ** 16

    def _q(self, d):
        return None if self.q is None else check_distribution("q", self.q, d=d)

    def _moments(self, d):
        """``second_moments`` as a vector of length d (a float is broadcast)."""
        if self.second_moments is None:
            raise InvalidParameterError(
                f"`second_moments` (E[x_i²]) is required for {type(self).__name__}.")
        if np.ndim(self.second_moments) == 0:
            value = check_nonnegative_vector("second_moments", [self.second_moments])[0]
            return np.full(d, value)
        return check_nonnegative_vector("second_moments", self.second_moments, d=d)

    def _sync(self):
        """``coef_`` (w̄), ``w_`` and ``n_steps_`` from the state, in one pass over it when the
        state offers it (the ridge and lasso kernels' ``outputs``)."""
        outputs = getattr(self._state, "outputs", None)
        if outputs is None:                 # e.g. AdaGAERR's state: average() and coef()
            return super()._sync()
        self.n_steps_ = self._state.t
        self.coef_, self.w_ = outputs()

    def _initial(self, d, B):  # pragma: no cover - every family overrides it
        raise NotImplementedError

    def _validate(self, d, m):
        k = check_k(self.k, d)
        B = self._radius()
        n_inner = check_int("n_inner", self.n_inner, low=1, high=2**20)
        q = self._q(d)
        moments = None if self.second_moments is None else self._moments(d)
        eta = self._step_size(m, d, (k, B, q, moments))
        w1 = self._initial(d, B)
        q_rows = None if q is None else q_alias_rows(np.ascontiguousarray(q, dtype=np.float64),
                                                     k)
        return k, n_inner, B, q, eta, w1, q_rows

    def _start(self, d, config):
        k, n_inner, B, q, eta, w1, q_rows = config
        self._state = self._new_state(d, B, w1)
        self._kernel_args = (k, q_rows, eta, n_inner)
        self.q_ = q
        self.eta_ = eta

    def _check_q(self, nonzero, where, what):
        """x̃ is unbiased only if q_i > 0 wherever x_i can be nonzero (KS15 Alg. 1 line 5):
        ``nonzero()`` marks those i (called only when q has a zero to check: it may be O(md));
        ``where`` and ``what`` (with {i}) word the error."""
        if self.q_ is None or self._allow_zero_q:
            return
        missing = (self.q_ == 0) & nonzero()
        if np.any(missing):
            i = int(np.flatnonzero(missing)[0])
            raise InvalidParameterError(
                f"`q` must be positive wherever {where} (else x̃ is biased); got q[{i}]=0 with "
                + what.format(i=i) + ".")

    def _check_q_rows(self, X):
        """``_check_q`` on the rows of X."""
        self._check_q(lambda: np.any(X != 0, axis=0), "X is nonzero", "a nonzero X[:, {i}]")

    def _check_q_oracle(self, oracle):
        """``_check_q`` on an oracle: wherever E[x_i²] > 0 (when the oracle says)."""
        if oracle.second_moments is not None:
            self._check_q(lambda: np.asarray(oracle.second_moments) > 0, "x_i can be nonzero",
                          "E[x_{i}^2] > 0")

    def _advance(self, X, y, n_steps):
        k, q_rows, eta, n_inner = self._kernel_args
        self._check_q_rows(X)
        m = X.shape[0] if n_steps is None else n_steps
        attributes, record = self._step_buffers(m, k + n_inner)
        self._steps(lambda a, r, done: self._state.run(
            self._rng, X, y, k, q_rows, eta, a, r, n_inner, m - done, done % X.shape[0]),
            m, attributes, record)
        return attributes, record

    def _advance_oracle(self, oracle, n_steps):
        k, q_rows, eta, n_inner = self._kernel_args
        self._check_q_oracle(oracle)
        attributes, record = self._step_buffers(n_steps, k + n_inner)
        self._steps(lambda a, r, done: self._state.run_oracle(
            self._rng, oracle, k, q_rows, eta, a, r, n_inner, n_steps - done),
            n_steps, attributes, record)
        return attributes, record

    def _steps(self, run, m, attributes, record):
        """``run(attributes[done:], record[done:], done)`` until m steps are made: a sparse
        state stops at the step where a quarter of the coordinates has moved, and the run
        goes on from the next example (or row) on its dense form (the same random stream:
        as a run split into two calls)."""
        done = 0
        while True:
            done += run(attributes[done:], None if record is None else record[done:], done)
            self._check_state(self._state.failed)
            if done >= m:
                return
            self._state = self._state.dense()
