"""Exact enumeration of a user's sampler by driving its ``numpy.random.Generator``.

A sampler written as a user writes it — ``sample(w, x, y, n=1, rng=rng)`` drawing from
``rng.integers``, ``rng.choice`` (with or without ``p``, with or without replacement),
``rng.permutation``, ``rng.shuffle``, ``rng.binomial`` or ``rng.random() < p`` — is run with a
:class:`DrivenGenerator` in place of its generator. Each draw becomes a choice of
:func:`laocheck.stats.exact.enumerate_outcomes`: the program is replayed depth-first, once per
path of its random choices, and every path is weighted by the exact product of its choice
probabilities (``fractions.Fraction``). This is hypothesis' idea of recording and replaying every
choice a program makes, taken to every path (a choice tree); no second, laocheck-specific
version of the sampler is needed.

What is enumerable
------------------
``integers(low, high, size, dtype, endpoint)``, ``choice(a, size, replace, p, axis,
shuffle)``, ``permutation(x, axis)``, ``shuffle(x, axis)``, ``binomial(n, p, size)`` (integer
n) and ``random(size)`` used only through comparisons with a number (``rng.random() < p``:
each comparison splits the uniform's interval, exactly). Each follows numpy's ``Generator``
(``numpy/random/_generator.pyx``) exactly in its arguments, errors, shapes, dtypes and the
probability of every output — including ``axis``, the order of ``choice(..., replace=False,
shuffle=False)`` (Floyd's algorithm, not uniform) and successive sampling for
``replace=False`` with ``p`` (see :class:`DrivenGenerator`); the tests compare every method
with numpy's own draws. Any other draw (``normal``, ``uniform``, ``geometric``, a
``random()`` used as a number, ``random(dtype=float32)``, array-valued parameters, the bit
generator itself) raises :class:`NotEnumerable` with its reason, and the caller falls back
to Monte Carlo and says so.

Bounds
------
Enumeration never hangs and never allocates before checking. It raises
:class:`NotEnumerable` at the first of: more than ``max_paths`` paths
(:data:`DEFAULT_MAX_PATHS`, also predicted on the first path from the numbers of options
along it); a draw with more than :data:`MAX_OPTIONS` outcomes (from its arguments:
``integers(10**9)``, ``choice(10**9)``, ``binomial(200000, .5)``); more than
:data:`MAX_DRAWS` draws on one path (rejection sampling, ``while rng.random() < p``; a
``size`` is checked before its array exists); more than :data:`MAX_DRAW_BITS` bits of one
draw's exact probabilities; a path probability of more than
:data:`~laocheck.stats.exact.MAX_PROBABILITY_BITS` bits; more than :data:`MAX_VALUES`
numbers in one returned draw; more than :data:`MAX_BYTES` of outcomes kept; more than
:data:`MAX_SECONDS` of wall time (checked at every draw and between paths; the only bound
that depends on the machine). A refusal the sampler catches is a refusal all the same.

Exact and float probabilities (the soundness of a float p)
-----------------------------------------------------------
The sampler is first run on the instance as numpy *object arrays of Fractions*, so that
``p = w**2 / (w @ w)`` is an exact probability vector and ``x[i] / p[i]`` an exact value; the
enumeration is then exact (``mode="exact"``). If it fails on object arrays (``np.sqrt``, a
``dtype=float`` conversion, ...) it is run again on the equal float arrays (the instances are
dyadic, so the floats are exact) and every float it uses is taken at its exact binary value:

* a float probability vector ``p`` given to ``choice`` is taken as the exact distribution
  ``Fraction(p_i) / Σ_j Fraction(p_j)`` (normalised exactly, as numpy's ``choice`` normalises
  its cumulative sum); a float threshold ``c`` in ``rng.random() < c`` as ``Fraction(c)``;
* a float value the sampler returns is ``Fraction(value)``, its exact binary value.

The enumerated distribution is then the exact distribution of the program *as it computes in
floating point*, not of the ideal real-number program. The two differ by rounding only: with
unit roundoff u = 2⁻⁵³, a path of L choices over at most m options and a value formed by at
most f floating-point operations, each path probability is off by a relative ≤ 2L(m + 2)u and
each value by ≤ f·u, so each coordinate of any expectation is off by at most
(2L(m + 2) + f)·u · E|v_i| (first order). :data:`FLOAT_TOLERANCE` γ = 2⁻³⁶ covers
2L(m + 2) + f ≤ 2¹⁷, far above the small instances enumerated (d ≤ 6, L ≤ 8); the checks
compare with the tolerance γ·(E|v_i| + |target_i|) and report it as the smallest detectable
violation. Hence a float-mode PASS proves |bias_i| ≤ 2γ·(E|v_i| + |target_i|) for the ideal
program, and a sampler biased by more FAILs: rounding cannot turn it into a PASS.
``mode="float"`` and the flags ``float_probabilities`` / ``float_values`` record which.

References
----------
.. [1] D. R. MacIver, Z. Hatfield-Dodds et al., "Hypothesis: A new approach to property-based
   testing", JOSS 4(43), 1891 (2019): choice sequences recorded and replayed.
.. [2] N. J. Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed., SIAM (2002),
   Sec. 3.1: the (1 + δ) model of rounding, |δ| <= u.
"""

from __future__ import annotations

import math
import numbers
import operator
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from .exact import EnumerationLimit, ExactDistribution, _about, enumerate_outcomes

__all__ = ["NotEnumerable", "DrivenGenerator", "SamplerEnumeration", "enumerate_sampler",
           "draws_of", "guarded", "FLOAT_TOLERANCE", "DEFAULT_MAX_PATHS", "MAX_OPTIONS",
           "MAX_DRAWS", "MAX_DRAW_BITS", "MAX_VALUES", "MAX_SECONDS", "MAX_BYTES"]

#: Relative tolerance γ of a float-mode enumeration (see the module docstring): 2⁻³⁶.
FLOAT_TOLERANCE = 2.0 ** -36
#: Most paths enumerated before falling back to Monte Carlo.
DEFAULT_MAX_PATHS = 50_000
#: Most outcomes of one draw (``integers(10**9)``, ``choice(10**9)``, ``binomial(200000, p)``
#: are refused from their arguments, before anything is allocated).
MAX_OPTIONS = 10_000
#: Most draws on one path: values drawn plus comparisons of ``rng.random()`` that split it (a
#: loop that draws until a condition holds is refused here; a ``size`` is checked before the
#: array is allocated).
MAX_DRAWS = 200
#: Most bits of the exact probabilities of one draw's outcomes together (``binomial(n, p)``
#: with a large n and a float p), checked before they are computed: 4 MiB.
MAX_DRAW_BITS = 2 ** 25
#: Most numbers in the draw one path returns (checked before they are converted).
MAX_VALUES = 10_000
#: Wall time of one enumeration, checked at every draw and between paths (seconds).
MAX_SECONDS = 60.0
#: Most bytes of the outcomes kept by one enumeration (estimated): 256 MiB.
MAX_BYTES = 2 ** 28
#: numpy's own check on a float p: |Σ p − 1| <= sqrt(machine epsilon) (``Generator.choice``).
_NUMPY_P_ATOL = math.sqrt(np.finfo(np.float64).eps)
#: A Generator on which numpy's own argument checks run (its draws are never used).
_SCRATCH = np.random.Generator(np.random.PCG64(0))


class NotEnumerable(Exception):
    """The sampler cannot be enumerated exactly; ``reason`` says why (and the checks fall
    back to Monte Carlo)."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


def _is_float(v):
    return isinstance(v, (float, np.floating))


def _exact(v, what):
    """``v`` as an exact Fraction; (Fraction, True when it was a float)."""
    if isinstance(v, (bool, np.bool_)):
        return Fraction(int(v)), False
    if isinstance(v, Fraction):
        return v, False
    if isinstance(v, numbers.Integral):
        return Fraction(int(v)), False
    if _is_float(v):
        if not math.isfinite(v):
            raise NotEnumerable(f"{what} is not finite ({v!r})")
        return Fraction(float(v)), True
    if isinstance(v, numbers.Rational):
        return Fraction(v.numerator, v.denominator), False
    if isinstance(v, _LazyUniform):
        raise NotEnumerable(f"{what} uses a draw of rng.random() as a number (only comparisons "
                            "of it with a number are enumerable)")
    raise NotEnumerable(f"{what} is a {type(v).__name__}, not a number")


def _integral(v, what):
    """``v`` as an int when it is an integer (an int, a numpy integer or an integral float),
    else :class:`NotEnumerable` (numpy truncates a fractional bound; not modelled)."""
    if isinstance(v, (numbers.Integral, np.integer)):
        return int(v)
    if _is_float(v) and math.isfinite(v) and float(v).is_integer():
        return int(v)
    raise NotEnumerable(f"{what} is {v!r}, not an integer")


class _LazyUniform:
    """A draw of ``rng.random()`` kept as an interval [lo, hi) of (0, 1): each comparison with
    a number c splits it into [lo, c) and [c, hi), a choice with probabilities proportional to
    the lengths. Any other use raises :class:`NotEnumerable`."""

    __slots__ = ("gen", "lo", "hi")
    __array_priority__ = 1000

    def __init__(self, gen):
        self.gen, self.lo, self.hi = gen, Fraction(0), Fraction(1)

    def _below(self, c, strict):
        c, rounded = _exact(c, "a threshold compared with rng.random()")
        self.gen.float_probabilities |= rounded
        if c <= self.lo:
            return False
        if c >= self.hi:
            return True
        width = self.hi - self.lo
        below = self.gen._choose([(True, (c - self.lo) / width), (False, (self.hi - c) / width)])
        if below:
            self.hi = c
        else:
            self.lo = c
        return below                      # P(U = c) = 0: < and <= are the same event

    def __lt__(self, c):
        return self._below(c, True)

    def __le__(self, c):
        return self._below(c, False)

    def __gt__(self, c):
        return not self._below(c, False)

    def __ge__(self, c):
        return not self._below(c, True)

    def _number(self, *args):
        self.gen._refuse("a draw of rng.random() is used as a number (only comparisons of it "
                         "with a number are enumerable)")

    __float__ = __int__ = __index__ = __bool__ = _number
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _number
    __truediv__ = __rtruediv__ = __neg__ = __pow__ = __rpow__ = __floordiv__ = _number
    __eq__ = __ne__ = _number
    __hash__ = None


def _shape(size):
    """``size`` as numpy reads it: None, or a tuple of non-negative ints (an int n is (n,))."""
    if size is None:
        return None
    shape = (operator.index(size),) if np.ndim(size) == 0 else \
        tuple(operator.index(s) for s in size)
    if any(s < 0 for s in shape):
        raise ValueError("negative dimensions are not allowed")              # as numpy does
    return shape


@lru_cache(maxsize=256)
def _small_uniform(n):
    return tuple((i, Fraction(1, n)) for i in range(n))


def _uniform(n):
    """The options of a uniform draw on range(n) (cached up to n = 1024: at most ~50 MB)."""
    return _small_uniform(n) if n <= 1024 else tuple((i, Fraction(1, n)) for i in range(n))


@lru_cache(maxsize=8)     # each at most MAX_DRAW_BITS bits
def _binomial_options(n, q):
    return tuple((j, math.comb(n, j) * q ** j * (1 - q) ** (n - j)) for j in range(n + 1))


class DrivenGenerator(np.random.Generator):
    """A ``numpy.random.Generator`` whose draws are the choices of an enumeration.

    Made by :func:`enumerate_sampler`; a sampler receives it as its ``rng`` (``default_rng``
    returns it unchanged). Its bit generator is a stub: a sampler that draws from it directly
    (a Cython kernel, ``rng.bit_generator``) is detected and reported as not enumerable.

    Each modelled method follows numpy's ``Generator`` (``numpy/random/_generator.pyx``) in
    its arguments, errors, output shapes and dtypes, and draws its outcomes with numpy's
    probabilities, exactly:

    * ``integers(low, high, size, dtype, endpoint)``: uniform on [low, high) or [low, high];
      scalar integer bounds only;
    * ``choice(a, size, replace, p, axis, shuffle)``: with replacement, i.i.d. (uniform, or
      ``p`` normalised); without replacement and with ``p``, successive sampling proportional
      to the remaining weights (numpy's batched redraws of duplicates have that law); without
      ``p`` and ``shuffle=True``, a uniform ordered sample; with ``shuffle=False``, Floyd's
      algorithm step by step (numpy's order, not uniform); the items taken along ``axis``;
    * ``shuffle(x, axis)`` and ``permutation(x, axis)``: numpy's Fisher–Yates swaps (along
      ``axis`` of an array);
    * ``binomial(n, p, size)`` (scalar integer n) and ``random(size)`` (float64) compared
      with numbers.

    Anything else — another method, array parameters, ``random(dtype=float32)`` (a grid of
    2⁻²⁴, not modelled), a fractional integer bound — raises :class:`NotEnumerable`, as does
    passing a bound (:data:`MAX_OPTIONS`, :data:`MAX_DRAWS`, :data:`MAX_DRAW_BITS`, the paths
    predicted on the first path beyond ``max_paths``), before any allocation. A refusal is
    remembered: a sampler that catches it is refused all the same.

    Parameters
    ----------
    src : the enumerating source of :func:`~laocheck.stats.exact.enumerate_outcomes`
        Its ``_choose(options)`` makes each choice.
    max_paths : int, optional
        On the first path, refuse as soon as the product of the numbers of options so far
        (Knuth's estimate of the size of the tree) exceeds it. Default: no such check.
    """

    def __init__(self, src, max_paths=None):
        super().__init__(np.random.PCG64(0))
        self._src = src
        self._first = not getattr(src, "prefix", None)
        self._max_paths = max_paths
        self._estimate = 1
        self.float_probabilities = False
        self.draws = 0
        self.refused = None

    def _refuse(self, reason):
        self.refused = NotEnumerable(reason)
        raise self.refused

    def _spend(self, count):
        """Book ``count`` draws on this path; refuse past :data:`MAX_DRAWS`."""
        if self.draws + count > MAX_DRAWS:
            self._refuse(f"more than {MAX_DRAWS} draws on one path (a loop that draws until a "
                         "condition holds, such as rejection sampling or `while rng.random() "
                         "< p`, has unboundedly many; so has a large size)")
        self.draws += count

    def _choose(self, options):
        options = [(v, p) for v, p in options if p > 0]
        if len(options) > MAX_OPTIONS:
            self._refuse(f"a draw has {len(options)} outcomes (more than {MAX_OPTIONS})")
        self._spend(1)
        if self._first and self._max_paths is not None:
            self._estimate *= len(options)
            if self._estimate > self._max_paths:
                self._refuse(f"about {_about(self._estimate)} paths of random choices (more "
                             f"than {self._max_paths}), predicted on the first path")
        return self._src._choose(options)

    def _interval(self, i):
        """Uniform on {0, ..., i} (numpy's ``random_interval``)."""
        return self._choose(_uniform(i + 1))

    def _options(self, count, what):
        if count > MAX_OPTIONS:
            self._refuse(f"{what} has {_about(count)} outcomes per draw (more than "
                         f"{MAX_OPTIONS})")

    def _fill(self, size, draw, dtype):
        shape = _shape(size)
        if shape is None:
            return draw()
        count = math.prod(shape)
        if self.draws + count > MAX_DRAWS:   # refused before the array is allocated; else
            self._spend(count)               # each draw below books itself
        out = np.empty(count, dtype=object)
        for i in range(count):
            out[i] = draw()
        return out.astype(dtype).reshape(shape) if dtype is not None else out.reshape(shape)

    # -- the enumerable draws -------------------------------------------------------------
    def integers(self, low, high=None, size=None, dtype=np.int64, endpoint=False):
        if np.ndim(low) or np.ndim(high):
            self._refuse("integers() with array bounds")
        # numpy's own checks of the bounds and the dtype (one draw, nothing allocated)
        proto = np.random.Generator.integers(_SCRATCH, low, high, dtype=dtype,
                                             endpoint=endpoint)
        lo, hi = (0, low) if high is None else (low, high)
        lo = _integral(lo, "a bound of integers()")
        hi = _integral(hi, "a bound of integers()") + (1 if endpoint else 0)
        self._options(hi - lo, "integers()")
        kind, options = type(proto), _uniform(hi - lo)
        return self._fill(size, lambda: kind(lo + self._choose(options)), np.dtype(dtype))

    def _weights(self, p, n):
        """The exact distribution numpy's ``choice`` draws from, after numpy's checks of p."""
        if p is None:
            return None
        atol = _NUMPY_P_ATOL
        if isinstance(p, np.ndarray) and np.issubdtype(p.dtype, np.floating):
            atol = max(atol, math.sqrt(np.finfo(p.dtype).eps))
        pf = np.asarray(p, dtype=np.float64)                     # as numpy converts it
        if pf.ndim != 1:
            raise ValueError("p must be 1-dimensional")                    # as numpy does
        if pf.size != n:
            raise ValueError("a and p must have same size")
        total = math.fsum(pf.tolist()) if np.all(np.isfinite(pf)) else float(np.sum(pf))
        if np.isnan(total):
            raise ValueError("Probabilities contain NaN")
        if np.any(pf < 0):
            raise ValueError("Probabilities are not non-negative")
        if abs(total - 1.0) > atol:
            raise ValueError("Probabilities do not sum to 1. See Notes section of docstring "
                             "for more information.")
        raw = p.ravel().tolist() if isinstance(p, np.ndarray) else list(p)
        exact = [_exact(v, "a probability given to choice()") for v in raw]
        weights = [v for v, _ in exact]
        self.float_probabilities |= any(r for _, r in exact)
        mass = sum(weights, Fraction(0))
        return [v / mass for v in weights]     # numpy normalises: cdf /= cdf[-1], exactly

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        a_original = a
        a = np.asarray(a)
        if a.ndim == 0:
            try:
                pop_size = operator.index(a.item())
            except TypeError as exc:
                raise ValueError("a must be a sequence or an integer, "
                                 f"not {type(a_original)}") from exc
            if pop_size <= 0 and np.prod(size) != 0:
                raise ValueError("a must be a positive integer unless no samples are taken")
        else:
            pop_size = a.shape[axis]
            if pop_size == 0 and np.prod(size) != 0:
                raise ValueError("a cannot be empty unless no samples are taken")
        is_scalar = size is None
        shape = () if is_scalar else _shape(size)
        count = math.prod(shape)
        if count:
            self._options(pop_size, "choice()")          # before p is read or anything built
            if self.draws + count > MAX_DRAWS:
                self._spend(count)
        weights = self._weights(p, pop_size)
        if replace:
            options = _uniform(pop_size) if weights is None else tuple(enumerate(weights))
            picks = [self._choose(options) for _ in range(count)]
        else:
            if count > pop_size:
                raise ValueError("Cannot take a larger sample than population when replace "
                                 "is False")
            if weights is not None:
                if sum(q > 0 for q in weights) < count:
                    raise ValueError("Fewer non-zero entries in p than size")
                picks, left = [], {j: q for j, q in enumerate(weights) if q > 0}
                for _ in range(count):   # successive sampling: the law of numpy's redraws
                    mass = sum(left.values(), Fraction(0))
                    i = self._choose([(j, q / mass) for j, q in left.items()])
                    picks.append(i)
                    del left[i]
            elif shuffle:                # Floyd's set, then a Fisher-Yates shuffle of it:
                picks, left = [], list(range(pop_size))   # a uniform ordered sample
                for _ in range(count):
                    i = self._choose([(j, Fraction(1, len(left))) for j in left])
                    picks.append(i)
                    left.remove(i)
            else:                        # Floyd's algorithm, in numpy's order
                picks, found = [], set()
                for j in range(pop_size - count, pop_size):
                    val = self._interval(j)
                    val = j if val in found else val
                    found.add(val)
                    picks.append(val)
        idx = np.array(picks, dtype=np.int64).reshape(shape)
        if is_scalar:
            idx = idx.item(0)
        if a.ndim == 0:
            return idx
        if not is_scalar and idx.ndim == 0 and a.ndim == 1:
            res = np.empty((), dtype=a.dtype)
            res[()] = a[idx]
            return res
        return a.take(np.asarray(idx, dtype=np.intp), axis=axis)

    def permutation(self, x, axis=0):
        if isinstance(x, (int, np.integer)):
            if x - 1 > MAX_DRAWS - self.draws:
                self._spend(int(x) - 1)                   # refuses before np.arange(x)
            arr = np.arange(x)
            self.shuffle(arr)
            return arr
        arr = np.asarray(x)
        axis = normalize_axis_index(axis, arr.ndim)
        if arr.ndim == 1:
            if np.may_share_memory(arr, x):
                arr = np.array(arr)
            self.shuffle(arr)
            return arr
        idx = np.arange(arr.shape[axis], dtype=np.intp)
        self.shuffle(idx)
        slices = [slice(None)] * arr.ndim
        slices[axis] = idx
        return arr[tuple(slices)]

    def shuffle(self, x, axis=0):
        n = len(x)
        if isinstance(x, np.ndarray):
            if not x.flags.writeable:
                raise ValueError("array is read-only")                     # as numpy does
            axis = normalize_axis_index(axis, np.ndim(x))
            if x.size == 0:
                return
            x = np.swapaxes(x, 0, axis)
            n = len(x)
            if n - 1 > MAX_DRAWS - self.draws:
                self._spend(n - 1)
            for i in reversed(range(1, n)):            # numpy's Fisher-Yates swaps
                j = self._interval(i)
                if i == j:
                    continue
                buf = x[j, ...].copy()
                x[j, ...] = x[i, ...]
                x[i, ...] = buf
            return
        if not isinstance(x, Sequence):
            warnings.warn(f"you are shuffling a '{type(x).__name__}' object which is not a "
                          "subclass of 'Sequence'; `shuffle` is not guaranteed to behave "
                          "correctly. E.g., non-numpy array/tensor objects with view semantics "
                          "may contain duplicates after shuffling.", UserWarning, stacklevel=2)
        if axis != 0:
            raise NotImplementedError("Axis argument is only supported on ndarray objects")
        if n - 1 > MAX_DRAWS - self.draws:
            self._spend(n - 1)
        for i in reversed(range(1, n)):
            j = self._interval(i)
            x[i], x[j] = x[j], x[i]

    def binomial(self, n, p, size=None):
        if np.ndim(n) or np.ndim(p):
            self._refuse("binomial() with array parameters")
        proto = np.random.Generator.binomial(_SCRATCH, n, p)     # numpy's own checks
        n = _integral(n, "the n of binomial()")
        q, rounded = _exact(p, "the p of binomial()")
        self._options(n + 1, "binomial()")
        bits = max(q.numerator.bit_length(), q.denominator.bit_length(), 1) + 2
        if (n + 1) * n * bits > MAX_DRAW_BITS:
            self._refuse(f"the exact probabilities of binomial({n}, {float(q)!r}) need about "
                         f"{(n + 1) * n * bits} bits (more than {MAX_DRAW_BITS})")
        self.float_probabilities |= rounded
        kind, options = type(proto), _binomial_options(n, q)
        return self._fill(size, lambda: kind(self._choose(options)), np.dtype(np.int64))

    def random(self, size=None, dtype=np.float64, out=None):
        if out is not None:
            self._refuse("random(out=...)")
        if np.dtype(dtype) != np.float64:
            self._refuse(f"random(dtype={np.dtype(dtype)}): its uniforms lie on a grid of "
                         "2^-24, not modelled")

        def draw():
            self._spend(1)
            return _LazyUniform(self)
        return self._fill(size, draw, None)


def _not_enumerable(name):
    def method(self, *args, **kwargs):
        self._refuse(f"rng.{name}() is a draw the choice tree cannot enumerate "
                     "(continuous, or infinitely many outcomes)")
    method.__name__ = name
    return method


for _name in dir(np.random.Generator):
    if not _name.startswith("_") and _name not in DrivenGenerator.__dict__ and \
            _name != "bit_generator" and callable(getattr(np.random.Generator, _name)):
        setattr(DrivenGenerator, _name, _not_enumerable(_name))


def draws_of(result, n):
    """(values of shape (n, size) as an object array, attributes (n,) or None) from what a
    ``sample`` returned: an object with ``values`` and ``attributes`` (laocheck's ``Draws``,
    a namedtuple), a pair ``(values, attributes)``, or the values alone (no attribute count)."""
    if hasattr(result, "values") and hasattr(result, "attributes") and \
            not isinstance(result, dict):
        values, attributes = result.values, result.attributes
    elif isinstance(result, dict) and "values" in result:
        values, attributes = result["values"], result.get("attributes")
    elif isinstance(result, tuple) and len(result) == 2:
        values, attributes = result
    else:
        values, attributes = result, None
    values = np.asarray(values, dtype=object).reshape(n, -1)
    if attributes is not None:
        attributes = np.asarray(attributes).reshape(n)
    return values, attributes


@dataclass(frozen=True)
class SamplerEnumeration:
    """The exact distribution of one draw of a sampler, and how it was obtained.

    ``distribution``: :class:`~laocheck.stats.exact.ExactDistribution` over leaves
    ``(values, attributes)`` (a tuple of Fractions, an int or None); ``mode``: ``"exact"``
    (object arrays of Fractions in, exact numbers out) or ``"float"`` (floats taken at their
    exact binary values: compare within :data:`FLOAT_TOLERANCE`); ``paths``: runs of the
    sampler; ``float_probabilities`` / ``float_values``: which floats were taken exactly;
    ``exact_inputs_error``: why the object-array run failed (float mode only)."""

    distribution: ExactDistribution
    mode: str
    paths: int
    float_probabilities: bool
    float_values: bool
    exact_inputs_error: str = ""

    @property
    def tolerance(self):
        """The relative tolerance of comparisons with this distribution (0 when exact)."""
        return 0.0 if self.mode == "exact" else FLOAT_TOLERANCE


def guarded(program, max_paths):
    """``program`` refused at once when its first path predicts more than ``max_paths`` paths:
    the product of the numbers of options along the first path (Knuth's estimate of the size
    of a tree, exact when every choice at a depth has as many options) — so that a sampler
    with, say, 4¹⁰ paths is refused after one run, not after ``max_paths`` runs."""
    first = [True]

    def run(src):
        value = program(src)
        if first[0]:
            first[0] = False
            size = math.prod(count for _, count in src.trail)
            if size > max_paths:
                raise NotEnumerable(f"about {_about(size)} paths of random choices (more than "
                                    f"{max_paths})")
        return value
    return run


def _run(sample, w, x, y, max_paths):
    flags = {"p": False, "v": False}

    def program(src):
        gen = DrivenGenerator(src, max_paths)
        state = gen.bit_generator.state
        try:
            result = sample(w, x, y, n=1, rng=gen)
        except NotEnumerable:
            raise
        except Exception:
            if gen.refused is not None:      # refused, then an error: the refusal
                raise gen.refused from None
            raise
        if gen.refused is not None:          # the sampler caught the refusal and went on
            raise gen.refused
        if gen.bit_generator.state != state:
            raise NotEnumerable("the sampler draws from rng.bit_generator directly (a compiled "
                                "kernel?), not through the Generator's methods")
        values, attributes = draws_of(result, 1)
        if values.size > MAX_VALUES:
            raise NotEnumerable(f"a draw has {values.size} values (more than {MAX_VALUES})")
        out = []
        for v in values[0]:
            f, rounded = _exact(v, "a value the sampler returned")
            flags["v"] |= rounded
            out.append(f)
        flags["p"] |= gen.float_probabilities
        att = None if attributes is None else int(attributes[0])
        return tuple(out), att

    try:
        dist = enumerate_outcomes(guarded(program, max_paths), max_leaves=max_paths,
                                  max_choices=MAX_DRAWS + 1, max_bytes=MAX_BYTES,
                                  max_seconds=MAX_SECONDS)
    except EnumerationLimit as exc:
        if exc.reason.endswith("outcomes of the program"):
            raise NotEnumerable(f"more than {max_paths} paths of random choices") from None
        raise NotEnumerable(exc.reason) from None
    return dist, flags


def enumerate_sampler(sample, w, x, y, *, max_paths=DEFAULT_MAX_PATHS):
    """The exact distribution of one draw ``sample(w, x, y, n=1, rng=<driven>)``.

    ``w``, ``x`` (sequences of Fractions) and ``y`` (a Fraction) are passed first as object
    arrays of Fractions, then — if the sampler fails on those — as float arrays (see the
    module docstring for what that implies). Raises :class:`NotEnumerable` when a draw or the
    number of paths cannot be enumerated.
    """
    wo = np.array([Fraction(v) for v in w], dtype=object)
    xo = np.array([Fraction(v) for v in x], dtype=object)
    error = ""
    try:
        dist, flags = _run(sample, wo, xo, Fraction(y), max_paths)
        return SamplerEnumeration(dist, "exact" if not (flags["p"] or flags["v"]) else "float",
                                  dist.n_runs, flags["p"], flags["v"])
    except NotEnumerable:
        raise
    except (TypeError, ValueError, AttributeError, ArithmeticError) as exc:
        error = f"{type(exc).__name__}: {exc}"
    wf = np.array([float(v) for v in w])
    xf = np.array([float(v) for v in x])
    dist, flags = _run(sample, wf, xf, float(y), max_paths)
    return SamplerEnumeration(dist, "float", dist.n_runs, flags["p"], flags["v"], error)
