"""The estimators the papers' protocol fits, and the run's training part they read.

:class:`~laocheck.experiments.papers.StepScaled` is a learner with its radius ``B`` and a
multiple of its theory step (what cross-validation tunes, KS15 Sec. 5, CB11 Sec. 7).
Inside a run, cross-validation fits each learner hundreds of times on subsets of one training
part: :class:`_Rows` holds that part once (validated, read-only), and :class:`_OnRows`
(the papers' learners) and :class:`_UserOnRows` (users' learners) are fitted on a column of
row numbers of it, as ``GridSearchCV`` splits them (the package docstring of
:mod:`laocheck.experiments.papers` says what each learner reads and what it saves).
"""

from __future__ import annotations

import hashlib
import math

import numpy as np
from sklearn import config_context
from sklearn.base import BaseEstimator, RegressorMixin, clone

from ...data._oracle import EmpiricalOracle
from ...exceptions import InvalidParameterError
from ...learners import has_oracle_path

__all__ = ["StepScaled"]


class StepScaled(RegressorMixin, BaseEstimator):
    """``estimator`` with radius ``B`` and its theory step size times ``step_scale``.

    The papers tuned step sizes by cross-validation (KS15 Sec. 5, CB11 Sec. 7); a fixed grid
    of absolute step sizes would not follow the 1/√m of the prefix a learner is run on, so
    laocheck tunes a multiplier c of each learner's theory step: ``fit`` runs the learner with
    ``eta="theory"`` (AER: ``lam="theory"``) to read the step it uses for these rows
    (``eta_`` / ``lam_``), then refits with c times it (AER: λ/c, its step is 1/(λt)). c = 1
    is the theory step (one fit). The attributes counted are the final fit's.

    Parameters
    ----------
    estimator : estimator or None, default=None
        The learner (cloned at each fit).
    B : float, default=1.0
        The radius set on it.
    step_scale : float, default=1.0
        The multiplier c of its theory step.
    """

    def __init__(self, estimator=None, B=1.0, step_scale=1.0):
        self.estimator = estimator
        self.B = B
        self.step_scale = step_scale

    def fit(self, X, y):
        est = clone(self.estimator).set_params(B=self.B)
        name = _step_name(est)
        est.fit(X, y)
        if self.step_scale != 1.0 and name is not None:
            base = float(getattr(est, name + "_"))
            value = base * self.step_scale if name == "eta" else base / self.step_scale
            est = clone(self.estimator).set_params(B=self.B, **{name: value}).fit(X, y)
        self.fitted_ = est
        self.coef_ = np.asarray(est.coef_, dtype=float)
        self.n_attributes_seen_ = getattr(est, "n_attributes_seen_", X.shape[0] * X.shape[1])
        return self

    def predict(self, X):
        return np.asarray(X, dtype=float) @ self.coef_


class _Rows:
    """The training part of one run, validated once and shared by every fit of the run.

    Cross-validation runs each learner up to 400 times per run (10 folds × 8 radii × 5 step
    multipliers at ``--effort full``). Fitted on arrays, each fit would copy its fold
    (``X[train]``, 72 MB at KS15 Sec. 5.1's sizes) and scan it for finiteness and range, which
    cost 4 times the learner's own steps. So ``GridSearchCV`` is given the column of row
    numbers 0..n−1 in place of X (it splits that column, as it would split X) and
    :class:`_OnRows` reads the rows through this object: the attribute-efficient learners
    through a sequential attribute oracle on the fold's rows (bit-identical to ``fit`` on
    ``X[rows]``, and reading only the k + 1 attributes a step chooses), the offline solvers
    from the fold's XᵀX/m and Xᵀy/m and eigendecomposition, formed once per fold
    (``fit_moments``), the online full-information learners' C loops on the rows in place
    (``_fit_rows``), the others on ``X[rows]`` without a second finiteness scan.

    ``copy.deepcopy`` (what ``sklearn.base.clone`` does to a non-estimator parameter) returns
    the object itself: clones share it, the data are never copied. X and y are read-only.
    """

    def __init__(self, X, y):
        X = np.ascontiguousarray(X, dtype=np.float64)
        y = np.ascontiguousarray(y, dtype=np.float64)
        if X.ndim != 2 or y.shape != (X.shape[0],) or X.shape[0] < 1:
            raise InvalidParameterError(f"the training part must be X (n, d) and y (n,) with "
                                        f"n >= 1; got {X.shape} and {y.shape}.")
        if not (np.all(np.isfinite(X)) and np.all(np.isfinite(y))):
            raise InvalidParameterError("the training part has non-finite entries.")
        X, y = X.view(), y.view()              # read-only views: the caller's flags unchanged
        X.setflags(write=False)
        y.setflags(write=False)
        self.X, self.y = X, y
        self._stats, self._grams, self._blocks = {}, {}, {}
        self._block_bytes = 0
        self._full_gram = None

    def __deepcopy__(self, memo):
        return self

    def rows(self, X):
        """The row numbers of a column GridSearchCV passed (validated: integers in [0, n))."""
        col = np.asarray(X)
        if col.ndim != 2 or col.shape[1] != 1 or col.shape[0] < 1:
            raise InvalidParameterError(f"expected a column (n, 1) of row numbers; got shape "
                                        f"{col.shape}.")
        rows = col[:, 0]
        if rows.dtype.kind not in "iu":
            raise InvalidParameterError(f"row numbers must be integers; got {rows.dtype}.")
        if rows.min() < 0 or rows.max() >= self.X.shape[0]:
            raise InvalidParameterError(f"row numbers must lie in [0, {self.X.shape[0]}).")
        return rows.astype(np.intp, copy=False)

    @staticmethod
    def _key(rows):
        return rows.shape[0], hashlib.blake2b(rows.tobytes(), digest_size=16).digest()

    def stats(self, rows):
        """(sup|x_i|, sup|y|, E[x_i²]) over ``rows`` (what ``fit`` on X[rows] checks)."""
        key = self._key(rows)
        if key not in self._stats:
            Xr, yr = self.X[rows], self.y[rows]
            self._stats[key] = (float(np.abs(Xr).max(initial=0.0)),
                                float(np.abs(yr).max(initial=0.0)), np.mean(Xr * Xr, axis=0))
        return self._stats[key]

    def block(self, rows):
        """X[rows] as one array, kept for row sets that are scored repeatedly (a CV fold's
        held-out rows are scored once per configuration), up to ``_BLOCK_BYTES`` in all."""
        key = self._key(rows)
        block = self._blocks.get(key)
        if block is None:
            block = self.X[rows]
            if self._block_bytes + block.nbytes <= _BLOCK_BYTES:
                block.setflags(write=False)
                self._blocks[key] = block
                self._block_bytes += block.nbytes
        return block

    def oracle(self, rows):
        """A sequential attribute oracle on X[rows] (the rows in order, as ``fit`` reads)."""
        x_max, y_max, moments = self.stats(rows)
        return EmpiricalOracle(self.X, self.y, np.random.default_rng(0), moments,
                               sequential=True, index=rows, x_max=x_max, y_max=y_max)

    def gram(self, rows):
        """(XᵀX/m, Xᵀy/m, eigh(XᵀX/m)) over ``rows``, once per set of rows. For distinct rows
        that are most of the training part (a CV fold's), the fold's sums are the whole
        part's minus the held-out rows' (one O(n d²) product per run, not one per fold)."""
        key = self._key(rows)
        if key not in self._grams:
            n, m = self.X.shape[0], rows.shape[0]
            mask = np.zeros(n, dtype=bool)
            mask[rows] = True
            distinct = int(mask.sum()) == m
            if distinct and 2 * m > n and m < n:
                if self._full_gram is None:
                    self._full_gram = (self.X.T @ self.X, self.X.T @ self.y)
                out = np.flatnonzero(~mask)
                Xo, yo = self.X[out], self.y[out]
                H = (self._full_gram[0] - Xo.T @ Xo) / m
                b = (self._full_gram[1] - Xo.T @ yo) / m
                H = (H + H.T) / 2
            else:
                Xr = self.X[rows]
                H, b = Xr.T @ Xr / m, Xr.T @ self.y[rows] / m
            self._grams[key] = (H, b, np.linalg.eigh(H))
        return self._grams[key]


#: Memory one run's ``_Rows`` may keep in held-out blocks (10 folds of KS15 Sec. 5.1's 2,000
#: rows × 500 attributes: 80 MB). Scoring a fold copies its rows once, not once per
#: configuration (a tenth of a cross-validated AERR run's CPU time was those copies).
_BLOCK_BYTES = 256 * 2**20


class _OnRows(RegressorMixin, BaseEstimator):
    """``estimator`` with radius ``B`` (and its theory step times ``step_scale``, as
    :class:`~laocheck.experiments.papers.StepScaled`) fitted on the rows of a :class:`_Rows`
    named by a column of row numbers: what ``GridSearchCV`` tunes (see :class:`_Rows`). ``fit``
    on the column of rows r gives the model
    ``StepScaled(estimator, B, step_scale).fit(X[r], y[r])`` gives (exactly for the
    attribute-efficient learners; to rounding for the offline solvers, whose XᵀX is a difference
    of sums)."""

    def __init__(self, estimator=None, data=None, B=1.0, step_scale=1.0):
        self.estimator = estimator
        self.data = data
        self.B = B
        self.step_scale = step_scale

    def _fit_one(self, est, rows):
        data = self.data
        if has_oracle_path(est):
            return est.fit_oracle(data.oracle(rows), rows.shape[0])
        if hasattr(est, "fit_moments"):
            H, b, spectrum = data.gram(rows)
            return est.fit_moments(H, b, rows.shape[0], spectrum=spectrum)
        if hasattr(est, "_fit_rows"):                 # the online full-information learners
            return est._fit_rows(data.X, data.y, rows)
        with config_context(assume_finite=True):     # validated once, by _Rows
            return est.fit(data.X[rows], data.y[rows])

    def fit(self, X, y):
        rows = self.data.rows(X)
        if not np.array_equal(np.asarray(y, dtype=np.float64), self.data.y[rows]):
            raise InvalidParameterError("`y` must be the labels of the rows named by `X`.")
        est = clone(self.estimator).set_params(B=self.B)
        name = _step_name(est)
        if self.step_scale != 1.0 and name is not None:
            # the theory step for these rows without a run when the learner can say it (the
            # same value the run would set), else from a run at the theory step
            base = (est.theory_step(rows.shape[0], self.data.X.shape[1])
                    if hasattr(est, "theory_step") else None)
            if base is None:
                base = float(getattr(self._fit_one(est, rows), name + "_"))
            value = base * self.step_scale if name == "eta" else base / self.step_scale
            est = clone(self.estimator).set_params(B=self.B, **{name: value})
        est = self._fit_one(est, rows)
        self.fitted_ = est
        self.coef_ = np.asarray(est.coef_, dtype=float)
        self.n_attributes_seen_ = getattr(est, "n_attributes_seen_",
                                          rows.shape[0] * self.data.X.shape[1])
        return self

    def predict(self, X):
        return self.data.block(self.data.rows(X)) @ self.coef_


class _UserOnRows(RegressorMixin, BaseEstimator):
    """A user's learner (``laocheck.experiments.user_learners.UserLearner``) fitted on
    the rows of a :class:`_Rows` named by a column of row numbers, as :class:`_OnRows` fits
    the papers' learners: what ``GridSearchCV`` tunes. Each fit builds the learner with
    ``random_state`` a Generator from ``seed`` (the same for every fit of one configuration,
    as the papers' learners get one ``random_state``), ``k`` and ``second_moments`` (the
    training part's E[x_i²], the papers' DDAERR's "prior knowledge") where it accepts them,
    and the tuned parameters (``B``, those its ``grid`` declares), and calls its
    ``fit(X[rows], y[rows])``. The parameters tuned are any names (get/set_params below)."""

    _FIXED = ("learner", "data", "k", "second_moments", "seed")

    def __init__(self, learner=None, data=None, k=None, second_moments=None, seed=0, **tuned):
        self.learner = learner
        self.data = data
        self.k = k
        self.second_moments = second_moments
        self.seed = seed
        self.tuned = dict(tuned)

    def get_params(self, deep=True):
        return {**{n: getattr(self, n) for n in self._FIXED}, **self.tuned}

    def set_params(self, **params):
        for name, value in params.items():
            if name in self._FIXED:
                setattr(self, name, value)
            else:
                self.tuned[name] = value
        return self

    def fit(self, X, y):
        rows = self.data.rows(X)
        if not np.array_equal(np.asarray(y, dtype=np.float64), self.data.y[rows]):
            raise InvalidParameterError("`y` must be the labels of the rows named by `X`.")
        d = self.data.X.shape[1]
        learner = self.learner.at(**self.tuned, k=self.k, second_moments=self.second_moments
                                  ).build(np.random.default_rng(self.seed))
        learner.fit(self.data.X[rows], self.data.y[rows])
        self.fitted_ = learner
        coef = np.asarray(getattr(learner, "coef_", None), dtype=float).ravel()
        if coef.shape != (d,):
            raise InvalidParameterError(
                f"`learner` {self.learner.path!r}: coef_ must have shape ({d},) after fit; got "
                f"{coef.shape}.")
        self.coef_ = coef
        seen = getattr(learner, "n_attributes_seen_", None)
        if seen is None and getattr(learner, "attributes_per_example_", None) is not None:
            seen = float(np.sum(learner.attributes_per_example_))
        self.n_attributes_seen_ = math.nan if seen is None else float(seen)
        return self

    def predict(self, X):
        return self.data.block(self.data.rows(X)) @ self.coef_


def _seed_int(seq):
    """The int ``random_state`` the papers' learners get from a SeedSequence."""
    return int(seq.generate_state(1, dtype=np.uint64)[0] >> 1)



def _step_name(est):
    params = est.get_params()
    return "eta" if "eta" in params else ("lam" if "lam" in params else None)

