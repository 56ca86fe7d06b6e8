"""The estimator protocol shared by every per-example estimate, and its registry.

An estimator is an object with

* ``name`` (``"<catalog id>.<part>"``), ``citation``, ``params``;
* ``budget`` and ``budget_kind``: the attributes of x one draw may observe, a maximum
  (``"max"``) or a bound on the expectation (``"expectation"``, GenEst and AESVR);
* ``target(w, x, y)``: what the estimate claims to estimate;
* ``sample(w, x, y, n=..., rng=...)``: ``n`` independent draws from the Cython kernel
  (:class:`Draws`: ``values`` of shape ``(n, *target_shape)``, ``attributes`` of shape ``(n,)``);
* ``accumulate(w, x, y, n=..., rng=...)``: the kernel-side running sums of ``n`` draws
  (:class:`Moments`) without materialising them;
* ``reference(w, x, y, src)``: one draw of the literal transcription (``laocheck.reference``)
  through a randomness source, so that it can be enumerated exactly;
* ``sample_reference(w, x, y, n=..., rng=...)``: draws of the literal version (slow);
* ``assumptions(w, x, y)``: the paper's assumptions this instance violates;
* ``spec``: its :class:`~laocheck.estimators.EstimatorSpec` — citation, target, budget formula
  and kind, geometry, support and the claims of the papers — from which the catalog's checks
  select what applies (:mod:`laocheck.estimators._spec`).

Finite range. ``target``, ``sample``, ``accumulate`` and ``sample_reference`` refuse, before any
work, an instance (w, x, y) on which a draw, the target or an intermediate of the kernel would
leave the doubles: each estimator bounds, from w, x, y and its parameters, the magnitude of
every number its kernel forms (``_magnitude``: e.g. ‖w‖₂²·|x_j|/|w_j| + |y| for HK12's
residual, |x_i|/q_i for x̃) and the bound must be at most :data:`MAX_MAGNITUDE` (a quarter of
the largest double, 4.49e307); ``accumulate`` also needs n·size²·M⁴ <= MAX_MAGNITUDE for the
sums of ‖v‖⁴ when the support is finite (the bound is then a value the draws reach). The error
(an :class:`~laocheck.exceptions.InvalidParameterError` naming `w`, `x`, `y` or `n`) gives the bound, the formula
that reached it and the limit; every estimate is homogeneous in (w, x, y), so scaling the
instance down brings it into range. GenEst's product of a random number of factors is not bounded
up front (its worst case overflows on ordinary instances for events of negligible
probability); should a draw or a moment sum overflow, the call raises the same kind of error
after the draws instead of returning inf or NaN.

A user's own estimator implements the same methods (``sample`` and ``target`` at least) to be
checked by the same checks, and declares ``spec = EstimatorSpec(...)`` on its class to have
them selected.
"""

import math
from dataclasses import dataclass, field

import numpy as np

from .._validation import check_int, check_memory, check_rng, check_scalar, check_vector
from ..exceptions import InvalidParameterError
from ..stats.exact import RandomSource
from ._kernels import Sink

__all__ = ["Draws", "Moments", "Estimator"]

#: Largest number of doubles ``sample`` materialises (4 GiB); use ``accumulate`` beyond it.
MAX_DENSE = 2**29
#: Largest ``n`` of one ``sample`` / ``accumulate`` call: 10^10 draws take minutes at the
#: kernels' 10^7-10^8 draws per second (10^11 took 70 minutes); split larger runs (the sums of
#: :class:`Moments` add up).
MAX_DRAWS = 10**10

#: Largest magnitude a draw, the target or an intermediate of a kernel may reach: a quarter of
#: the largest double (4.49e307), so that the few sums the kernels form stay finite.
MAX_MAGNITUDE = float(np.finfo(np.float64).max) / 4


@dataclass(frozen=True, repr=False)
class Draws:
    """Independent draws of an estimate: ``values[t]`` and the attributes draw t observed.

    Returned by an estimator's ``sample`` and ``sample_reference``; each parameter is an
    attribute of the same name.

    Parameters
    ----------
    values : ndarray, shape (n,) + target_shape
        The n draws of the estimate.
    attributes : ndarray of int, shape (n,)
        The number of attributes of x each draw observed: the budget checks compare it with
        the paper's budget (e.g. k + 1 for HK12 Alg. 1's gradient).
    """

    values: np.ndarray
    attributes: np.ndarray

    def __repr__(self):
        return (f"Draws(n={self.attributes.shape[0]}, shape={self.values.shape[1:]}, "
                f"max_attributes={int(self.attributes.max(initial=0))})")


@dataclass(frozen=True, repr=False)
class Moments:
    """Running sums of n draws, accumulated inside the kernel.

    Returned by an estimator's ``accumulate``; each parameter is an attribute of the same name,
    and :meth:`merge` adds the sums of two runs.

    Parameters
    ----------
    n : int
        The number of draws v_1, ..., v_n.
    sum, sum_sq : ndarray, shape target_shape
        Σ_t v_t and Σ_t v_t² per coordinate.
    sum_norm_sq : float
        Σ_t ‖v_t‖²: the second-moment claims (e.g. HK12 Lemma 3.3's E‖g̃‖² ≤ 8B²d/k) are
        checked on it.
    sum_norm_sq_sq : float
        Σ_t ‖v_t‖⁴.
    attributes_sum, attributes_sum_sq : int
        Σ_t a_t and Σ_t a_t² of the attribute counts a_t.
    attributes_max : int
        The largest count, max_t a_t.
    attributes_hist : ndarray of int, shape (65,)
        The number of draws that observed 0, 1, ..., 63 attributes; the last bin counts 64
        or more. Default zeros.
    """

    n: int
    sum: np.ndarray
    sum_sq: np.ndarray
    sum_norm_sq: float
    sum_norm_sq_sq: float
    attributes_sum: int
    attributes_sum_sq: int
    attributes_max: int
    attributes_hist: np.ndarray = field(default_factory=lambda: np.zeros(65, dtype=np.int64))

    @property
    def mean(self):
        """Per-coordinate sample mean."""
        return self.sum / self.n

    @property
    def second_moment(self):
        """Per-coordinate mean of squares (E[v_i²] estimated)."""
        return self.sum_sq / self.n

    @property
    def mean_norm_sq(self):
        """Sample mean of ‖v‖² (E‖v‖² estimated; for a scalar estimate, E[v²])."""
        return self.sum_norm_sq / self.n

    @property
    def attributes_mean(self):
        return self.attributes_sum / self.n

    def merge(self, other):
        """The sums of both runs (e.g. two chunks or two workers)."""
        if self.sum.shape != other.sum.shape:
            raise InvalidParameterError("cannot merge Moments of different shapes")
        return Moments(
            n=self.n + other.n,
            sum=self.sum + other.sum,
            sum_sq=self.sum_sq + other.sum_sq,
            sum_norm_sq=self.sum_norm_sq + other.sum_norm_sq,
            sum_norm_sq_sq=self.sum_norm_sq_sq + other.sum_norm_sq_sq,
            attributes_sum=self.attributes_sum + other.attributes_sum,
            attributes_sum_sq=self.attributes_sum_sq + other.attributes_sum_sq,
            attributes_max=max(self.attributes_max, other.attributes_max),
            attributes_hist=self.attributes_hist + other.attributes_hist,
        )

    def __repr__(self):
        return (f"Moments(n={self.n}, shape={self.sum.shape}, mean_norm_sq={self.mean_norm_sq:.6g}, "
                f"attributes_mean={self.attributes_mean:.4g}, attributes_max={self.attributes_max})")


class Estimator:
    """Base class: validation, the Draws/Moments plumbing and the reference sampler.

    Parameters
    ----------
    B : float or None
        The norm bound B of the paper's assumptions (|y| <= B, ‖w‖ <= B), > 0; None: not
        checked. Default None.
    check_assumptions : bool
        Whether ``target``, ``sample``, ``accumulate`` and ``sample_reference`` refuse an
        instance that breaks the paper's assumptions (‖x‖₂ <= 1 or ‖x‖∞ <= 1 by the geometry,
        and with ``B`` |y| <= B, ‖w‖ <= B: e.g. HK12 Thm 3.1's); :meth:`assumptions` lists
        them either way. Default False.

    Raises
    ------
    InvalidParameterError
        ``B`` is not a finite number > 0.

    Notes
    -----
    Subclasses declare ``specs`` (the :class:`EstimatorSpec` of every estimator the class
    implements; an instance's ``spec`` is the one named ``name``), set ``name``, ``citation``,
    ``budget``, ``budget_kind`` and implement
    ``_target(w, x, y)``, ``_prepare(w, x, y)`` (validated arrays -> kernel arguments),
    ``_run(rng, sink, n, prepared)``, ``_reference(w, x, y, src)`` and
    ``_violations(w, x, y)``.
    """

    name = None
    citation = None
    #: the EstimatorSpec of every registered estimator this class implements
    specs = ()
    budget_kind = "max"
    #: geometry of the paper's assumptions: "l2" (‖x‖₂ ≤ 1, ‖w‖₂ ≤ B) or "l1" (‖x‖∞ ≤ 1, ‖w‖₁ ≤ B)
    geometry = "l2"
    #: True when the estimate needs w ≠ 0 (none does: each has a documented fallback)
    needs_nonzero_w = False

    def __init__(self, *, B=None, check_assumptions=False):
        self.B = None if B is None else _check_B(B)
        self.check_assumptions = bool(check_assumptions)

    # -- public protocol ---------------------------------------------------------------------
    @property
    def spec(self):
        """The :class:`EstimatorSpec` of this estimator (the one of ``specs`` named ``name``)."""
        for spec in type(self).specs:
            if spec.name == self.name:
                return spec
        return None

    @property
    def params(self):
        return dict(self._params())

    def target_shape(self, d):
        return (d,)

    def target(self, w, x, y):
        w, x, y = self._validate(w, x, y)
        self._check_magnitude(w, x, y)
        return self._target(w, x, y)

    def sample(self, w, x, y, *, n=1, rng=None):
        """``n`` independent draws from the Cython kernel (:class:`Draws`)."""
        shape, sink = self._drive(w, x, y, n, rng, accumulate=False)
        values, attributes = sink.result()
        return Draws(values.reshape((sink.n, *shape)), attributes.astype(np.int64))

    def accumulate(self, w, x, y, *, n, rng=None):
        """Running sums of ``n`` draws computed inside the kernel (:class:`Moments`)."""
        shape, sink = self._drive(w, x, y, n, rng, accumulate=True)
        r = sink.result()
        return Moments(
            n=r["n"], sum=r["sum"].reshape(shape), sum_sq=r["sum_sq"].reshape(shape),
            sum_norm_sq=r["sum_norm_sq"], sum_norm_sq_sq=r["sum_norm_sq_sq"],
            attributes_sum=r["attributes_sum"], attributes_sum_sq=r["attributes_sum_sq"],
            attributes_max=r["attributes_max"],
            attributes_hist=r["attributes_hist"].astype(np.int64),
        )

    def _drive(self, w, x, y, n, rng, *, accumulate):
        """Validate, prepare the kernel's arguments, and run n draws into a sink."""
        w, x, y = self._validate(w, x, y)
        n = check_int("n", n, low=1, high=MAX_DRAWS)
        shape = self.target_shape(x.shape[0])
        size = int(np.prod(shape, dtype=np.int64))
        if not accumulate and n * size > MAX_DENSE:
            raise InvalidParameterError(
                f"`n` * target size must be <= {MAX_DENSE} to materialise the draws; got "
                f"n={n} with target size {size}. Use `accumulate` for moment sums."
            )
        if not accumulate:            # the draws and their attribute counts, materialised
            check_memory("n", n, 8 * n * (size + 1))
        self._check_magnitude(w, x, y, n=n if accumulate else None, size=size)
        rng = check_rng(rng)
        sink = Sink(n, size, accumulate)
        self._run(rng, sink, n, self._prepare(w, x, y))
        sink.reraise()                 # Ctrl-C (or another signal's exception) in the kernel
        self._check_finite_result(sink, n)
        return shape, sink

    def _check_finite_result(self, sink, n):
        """The backstop of the finite range: a draw or a moment sum that left the doubles
        anyway (GenEst's random series orders beyond the checked ones, the sums of many large
        draws of an unbounded estimate) raises instead of returning inf or NaN."""
        r = sink.result()
        if isinstance(r, tuple):
            ok = bool(np.all(np.isfinite(r[0])))
        else:
            ok = bool(np.all(np.isfinite(r["sum"])) and np.all(np.isfinite(r["sum_sq"]))
                      and math.isfinite(r["sum_norm_sq"]) and math.isfinite(r["sum_norm_sq_sq"]))
        if not ok:
            raise InvalidParameterError(
                f"`n` and the scale of `w`, `x`, `y` must keep the draws and their moment sums "
                f"of {self.name} finite; with n={n} a draw or a sum overflowed (an unbounded "
                f"estimate's rare large draw). Scale the instance down or use a smaller `n`.")

    def reference(self, w, x, y, src):
        """One draw of the literal transcription through the randomness source ``src``.

        ``w``, ``x`` may be float arrays or sequences of Fractions (exact arithmetic); no
        coercion to float happens here, so the exact enumerator sees exact numbers.
        """
        w = np.asarray(w, dtype=object) if _is_exact(w) or _is_exact(x) else np.asarray(w, float)
        x = np.asarray(x, dtype=object) if w.dtype == object else np.asarray(x, float)
        return self._reference(w, x, y, src)

    def sample_reference(self, w, x, y, *, n=1, rng=None):
        """``n`` draws of the literal reference version with a ``numpy.random.Generator``."""
        w, x, y = self._validate(w, x, y)
        n = check_int("n", n, low=1)
        self._check_magnitude(w, x, y)
        src = RandomSource(check_rng(rng))
        shape = self.target_shape(x.shape[0])
        values = np.empty((n, *shape))
        attributes = np.empty(n, dtype=np.int64)
        with np.errstate(all="ignore"):      # an overflow is reported below, not as a warning
            for t in range(n):
                value, seen = self._reference(w, x, y, src)
                values[t] = np.asarray(value, dtype=np.float64)
                attributes[t] = len(seen)
        if not np.all(np.isfinite(values)):
            raise InvalidParameterError(
                f"`n` and the scale of `w`, `x`, `y` must keep the draws of {self.name} finite; "
                f"with n={n} a draw of the literal version overflowed (an unbounded estimate's "
                f"rare large draw). Scale the instance down or use a smaller `n`.")
        return Draws(values, attributes)

    def assumptions(self, w, x, y):
        """The assumptions of the paper this instance violates (an empty list if none)."""
        w, x, y = self._validate(w, x, y, check=False)
        return self._violations(w, x, y)

    def __repr__(self):
        args = ", ".join(f"{k}={_short(v)}" for k, v in self._params())
        return f"get({self.name!r}{', ' if args else ''}{args})"

    # -- helpers for subclasses --------------------------------------------------------------
    def _params(self):
        return []

    def _validate(self, w, x, y, check=True):
        x = check_vector("x", x)
        w = check_vector("w", w, d=x.shape[0])
        y = check_scalar("y", y)
        self._validate_dims(x.shape[0])
        if check and self.check_assumptions:
            bad = self._violations(w, x, y)
            if bad:
                raise InvalidParameterError(
                    f"the instance breaks the assumptions of {self.citation}: " + "; ".join(bad)
                )
        return w, x, y

    def _validate_dims(self, d):
        """Checks of the parameters against the dimension d (e.g. k <= d)."""

    def _magnitude(self, w, x, y):
        """Bounds on the magnitude of every number the kernel, the reference and the target form
        on (w, x, y): a list of ``(bound, formula)`` (bounds may be inf on overflow, never NaN).
        None: no bound known (a user's estimator), no check."""
        return None

    def _check_magnitude(self, w, x, y, *, n=None, size=1):
        """Refuse (w, x, y) whose draws or intermediates would overflow (see "Finite range" in
        the module docstring); with ``n``, also the moment sums of ``accumulate``."""
        with np.errstate(all="ignore"):
            bounds = self._magnitude(w, x, y)
        if not bounds:
            return
        bound, formula = max(bounds, key=lambda item: (not item[0] <= MAX_MAGNITUDE, item[0]))
        if not bound <= MAX_MAGNITUDE:
            raise InvalidParameterError(
                f"`w`, `x` and `y` must keep the numbers of {self.name} finite: on this instance "
                f"{formula} reaches {bound:.4g}, beyond the limit {MAX_MAGNITUDE:.4g} (a quarter "
                f"of the largest double); the estimates are homogeneous in (w, x, y): scale the "
                f"instance down.")
        spec = self.spec
        if n is not None and spec is not None and spec.finite:
            top = max(b for b, _ in bounds)
            if top > 0 and (math.log(n) + 2 * math.log(size) + 4 * math.log(top)
                            > math.log(MAX_MAGNITUDE)):
                raise InvalidParameterError(
                    f"`n` and the scale of `w`, `x`, `y` must keep the moment sums of "
                    f"{self.name} finite: n·size²·M⁴ <= {MAX_MAGNITUDE:.4g} (Σ‖v‖⁴ of n draws); "
                    f"got n={n}, size={size}, M={top:.4g} ({formula}). Scale the instance down "
                    f"or use `sample`.")

    def _violations(self, w, x, y):
        out = []
        with np.errstate(over="ignore"):        # a norm beyond the doubles is inf: a violation
            if self.geometry == "l2":
                nx, nw, xn, wn = (float(np.linalg.norm(x)), float(np.linalg.norm(w)), "‖x‖₂",
                                  "‖w‖₂")
            else:
                nx, nw, xn, wn = (float(np.max(np.abs(x))), float(np.sum(np.abs(w))), "‖x‖∞",
                                  "‖w‖₁")
        if nx > 1 + 1e-12:
            out.append(f"{xn} <= 1 (got {nx:.6g})")
        if self.B is not None:
            if abs(y) > self.B:
                out.append(f"|y| <= B (got |y|={abs(y):.6g}, B={self.B:.6g})")
            if nw > self.B * (1 + 1e-12):
                out.append(f"{wn} <= B (got {nw:.6g}, B={self.B:.6g})")
        return out


def _check_B(B):
    B = check_scalar("B", B)
    if not B > 0:
        raise InvalidParameterError(f"`B` must be > 0; got B={B}.")
    return B


def _is_exact(v):
    try:
        arr = np.asarray(v)
    except Exception:
        return False
    return arr.dtype == object


def _short(v):
    if isinstance(v, np.ndarray):
        return f"<array shape={v.shape}>"
    return repr(v)
