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
``integers(low, high, size)``, ``choice(a, size, replace, p)``, ``permutation``, ``shuffle``,
``binomial(n, p, size)`` (integer n) and ``random(size)`` used only through comparisons with a
number (``rng.random() < p``: each comparison splits the uniform's interval, exactly). Any
other draw (``normal``, ``uniform``, ``geometric``, a ``random()`` used as a number, the bit
generator itself) raises :class:`NotEnumerable` with its reason; so does a sampler with more
than ``max_paths`` paths. The caller then falls back to Monte Carlo and says so.

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
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .exact import ExactDistribution, enumerate_outcomes

__all__ = ["NotEnumerable", "DrivenGenerator", "SamplerEnumeration", "enumerate_sampler",
           "draws_of", "guarded", "FLOAT_TOLERANCE", "DEFAULT_MAX_PATHS"]

#: Relative tolerance γ of a float-mode enumeration (see the module docstring): 2⁻³⁶.
FLOAT_TOLERANCE = 2.0 ** -36
#: Most paths enumerated before falling back to Monte Carlo.
DEFAULT_MAX_PATHS = 50_000
#: Most options of one choice (a larger ``integers(high)`` is not enumerated).
MAX_OPTIONS = 10_000
#: numpy's own check on a float p: |Σ p − 1| <= sqrt(machine epsilon) (``Generator.choice``).
_NUMPY_P_ATOL = math.sqrt(np.finfo(np.float64).eps)


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
        raise NotEnumerable("a draw of rng.random() is used as a number (only comparisons of it "
                            "with a number are enumerable)")

    __float__ = __int__ = __index__ = __bool__ = _number
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _number
    __truediv__ = __rtruediv__ = __neg__ = __pow__ = __rpow__ = __floordiv__ = _number
    __eq__ = __ne__ = _number
    __hash__ = None


def _shape(size):
    if size is None:
        return None
    return (int(size),) if np.ndim(size) == 0 else tuple(int(s) for s in size)


class DrivenGenerator(np.random.Generator):
    """A ``numpy.random.Generator`` whose draws are the choices of an enumeration.

    Made by :func:`enumerate_sampler`; a sampler receives it as its ``rng`` (``default_rng``
    returns it unchanged). Its bit generator is a stub: a sampler that draws from it directly
    (a Cython kernel, ``rng.bit_generator``) is detected and reported as not enumerable.
    """

    def __init__(self, src):
        super().__init__(np.random.PCG64(0))
        self._src = src
        self.float_probabilities = False

    def _choose(self, options):
        options = [(v, p) for v, p in options if p > 0]
        if len(options) > MAX_OPTIONS:
            raise NotEnumerable(f"a draw has {len(options)} outcomes (more than {MAX_OPTIONS})")
        return self._src._choose(options)

    def _fill(self, size, draw):
        shape = _shape(size)
        if shape is None:
            return draw()
        out = np.empty(int(np.prod(shape, dtype=np.int64)), dtype=object)
        for i in range(out.size):
            out[i] = draw()
        if all(isinstance(v, (int, np.integer)) for v in out):
            out = out.astype(np.int64)
        return out.reshape(shape)

    # -- the enumerable draws -------------------------------------------------------------
    def integers(self, low, high=None, size=None, dtype=np.int64, endpoint=False):
        if high is None:
            low, high = 0, low
        if np.ndim(low) or np.ndim(high):
            raise NotEnumerable("integers() with array bounds")
        low, high = int(low), int(high) + (1 if endpoint else 0)
        if high <= low:
            raise ValueError(f"high <= low in integers({low}, {high})")   # as numpy does
        n = high - low
        if n > MAX_OPTIONS:
            raise NotEnumerable(f"integers() with {n} outcomes (more than {MAX_OPTIONS})")
        options = [(np.int64(low + i), Fraction(1, n)) for i in range(n)]
        return self._fill(size, lambda: self._choose(options))

    def _weights(self, p, n):
        if p is None:
            return [Fraction(1, n)] * n
        p = np.asarray(p, dtype=object).ravel()
        if p.size != n:
            raise ValueError("a and p must have same size")                # as numpy does
        exact = [_exact(v, "a probability given to choice()") for v in p]
        weights = [v for v, _ in exact]
        if any(v < 0 for v in weights):
            raise ValueError("probabilities are not non-negative")       # as numpy does
        total = sum(weights, Fraction(0))
        rounded = any(r for _, r in exact)
        if rounded and abs(float(total) - 1) > _NUMPY_P_ATOL:
            raise ValueError("probabilities do not sum to 1")             # as numpy does
        if not rounded and total != 1:
            raise ValueError("probabilities do not sum to 1")
        self.float_probabilities |= rounded
        return [v / total for v in weights]          # Fraction(p_i) / Σ Fraction(p_j), exact

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        pop = np.arange(int(a)) if np.ndim(a) == 0 else np.asarray(a)
        n = pop.shape[0] if pop.ndim else 0
        if n == 0:
            raise ValueError("a cannot be empty unless no samples are taken")
        weights = self._weights(p, n)
        shape = _shape(size)
        count = 1 if shape is None else int(np.prod(shape, dtype=np.int64))
        if replace:
            options = [(i, q) for i, q in enumerate(weights)]
            picks = [self._choose(options) for _ in range(count)]
        else:
            if count > sum(q > 0 for q in weights):
                raise ValueError("Cannot take a larger sample than population when replace is "
                                 "False" if p is None else "Fewer non-zero entries in p than size")
            picks, left = [], dict(enumerate(weights))
            for _ in range(count):              # successive sampling, as numpy's choice does
                mass = sum(left.values(), Fraction(0))
                i = self._choose([(j, q / mass) for j, q in left.items()])
                picks.append(i)
                del left[i]
        chosen = pop[np.array(picks, dtype=np.int64)]
        return chosen[0] if shape is None else chosen.reshape(shape + pop.shape[1:])

    def permutation(self, x):
        arr = np.arange(int(x)) if np.ndim(x) == 0 else np.array(x, copy=True)
        self.shuffle(arr)
        return arr

    def shuffle(self, x, axis=0):
        n = len(x)
        order, left = [], list(range(n))
        for _ in range(n):
            i = self._choose([(j, Fraction(1, len(left))) for j in left])
            order.append(i)
            left.remove(i)
        if isinstance(x, np.ndarray):
            x[...] = x[order].copy()
        else:
            x[:] = [x[i] for i in order]

    def binomial(self, n, p, size=None):
        if np.ndim(n) or np.ndim(p):
            raise NotEnumerable("binomial() with array parameters")
        n = int(n)
        q, rounded = _exact(p, "the p of binomial()")
        self.float_probabilities |= rounded
        if not 0 <= q <= 1:
            raise ValueError("p < 0, p > 1 or p is NaN")                  # as numpy does
        options = [(np.int64(j), math.comb(n, j) * q ** j * (1 - q) ** (n - j))
                   for j in range(n + 1)]
        return self._fill(size, lambda: self._choose(options))

    def random(self, size=None, dtype=np.float64, out=None):
        if out is not None:
            raise NotEnumerable("random(out=...)")
        return self._fill(size, lambda: _LazyUniform(self))


def _not_enumerable(name):
    def method(self, *args, **kwargs):
        raise NotEnumerable(f"rng.{name}() is a draw the choice tree cannot enumerate "
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
                raise NotEnumerable(f"about {size} paths of random choices (more than "
                                    f"{max_paths})")
        return value
    return run


def _run(sample, w, x, y, max_paths):
    flags = {"p": False, "v": False}

    def program(src):
        gen = DrivenGenerator(src)
        state = gen.bit_generator.state
        result = sample(w, x, y, n=1, rng=gen)
        if gen.bit_generator.state != state:
            raise NotEnumerable("the sampler draws from rng.bit_generator directly (a compiled "
                                "kernel?), not through the Generator's methods")
        values, attributes = draws_of(result, 1)
        out = []
        for v in values[0]:
            f, rounded = _exact(v, "a value the sampler returned")
            flags["v"] |= rounded
            out.append(f)
        flags["p"] |= gen.float_probabilities
        att = None if attributes is None else int(attributes[0])
        return tuple(out), att

    try:
        dist = enumerate_outcomes(guarded(program, max_paths), max_leaves=max_paths)
    except ValueError as exc:
        if "max_leaves" in str(exc):
            raise NotEnumerable(f"more than {max_paths} paths of random choices") from None
        raise
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
