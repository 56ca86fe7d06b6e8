"""Exact enumeration oracle: the exact distribution of a randomised program's outcome.

A sampler is written once against the *randomness source* protocol below and then either run
with a :class:`RandomSource` (a ``numpy.random.Generator``) or enumerated exactly with
:func:`enumerate_outcomes`, which explores every sequence of choices by depth-first replay and
weights each outcome by the exact product of its choice probabilities (``fractions.Fraction``).

Randomness source protocol (both sources implement it)::

    ``categorical(p)``      index i with probability p[i] (p sums to 1; zero entries never returned)
    ``uniform_int(n)``      uniform on range(n)
    ``subset(n, s)``        uniform s-subset of range(n), a tuple sorted increasingly
    ``split_halves(items)`` uniform split of an even-length sequence into two halves (a, b),
                            each a sorted tuple
    ``bernoulli(p)``        True with probability p
    ``geometric(p)``        N >= 0 with P(N = n) = (1 - p)^n p (failures before the first success);
                            an enumeration explores n < max_depth and books the tail mass
                            (1 - p)^max_depth as ``residual_mass``

Valid range: ``n`` and ``s`` up to 2**63 - 1 when sampling; an enumeration refuses, before
building it, a choice with more options than ``max_leaves`` (e.g. ``subset(60, 30)``).

Bounds of an enumeration
------------------------
:func:`enumerate_outcomes` stops with :class:`~laocheck.stats.exact.EnumerationLimit` (an
:class:`~laocheck.exceptions.InvalidParameterError` whose ``reason`` says which bound) at the
first bound reached, so that it never hangs and never grows without end:

* ``max_leaves`` runs of the program (paths) — default ``DEFAULT_MAX_LEAVES``;
* ``max_choices`` choices on one path — default ``DEFAULT_MAX_CHOICES`` (a loop that draws
  until a condition holds has unboundedly many);
* ``MAX_PROBABILITY_BITS`` bits of a path's exact probability (numerator or denominator;
  also keeps every probability printable under Python's int-to-string limit);
* ``max_bytes`` of the leaves kept (outcomes and probabilities, estimated) — default
  ``DEFAULT_MAX_BYTES``;
* ``max_seconds`` of wall time, checked at every choice and between paths — default None (no
  deadline: a deadline makes the outcome depend on the machine's speed; the choice tree of a
  user's sampler sets one).

Probabilities may be ``Fraction``, ``int``, ``float`` (taken at its exact binary value,
``Fraction(float)``) or sympy ``Rational``. Give exact probabilities when the leaves must sum to
exactly 1: the total mass of float probabilities is their exact (rounded) sum.
"""

from __future__ import annotations

import itertools
import math
import numbers
import sys
import time
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

from .._validation import check_count, check_rng, fail
from ..exceptions import InvalidParameterError

#: Largest n of uniform_int and subset (numpy draws 64-bit integers).
_MAX_INT = 2 ** 63 - 1

__all__ = ["RandomSource", "enumerate_outcomes", "ExactDistribution", "IIDDraws",
           "UniformSubset", "RandomHalves", "TruncatedGeometric", "Plan", "exact_fraction",
           "EnumerationLimit", "DEFAULT_MAX_CHOICES", "DEFAULT_MAX_BYTES",
           "MAX_PROBABILITY_BITS"]

#: Geometric draws explore N < max_depth (the tail is residual mass).
DEFAULT_MAX_DEPTH = 32
#: Most runs of the program (paths, leaves before merging).
DEFAULT_MAX_LEAVES = 10 ** 6
#: Most choices on one path.
DEFAULT_MAX_CHOICES = 10_000
#: Most bytes of leaves kept (outcomes and probabilities, estimated): 256 MiB.
DEFAULT_MAX_BYTES = 2 ** 28
#: Most bits of the numerator or denominator of a path's probability (4,300 decimal digits,
#: Python's default int-to-string limit, are 14,284 bits).
MAX_PROBABILITY_BITS = 2 ** 13


class EnumerationLimit(InvalidParameterError):
    """An enumeration stopped at one of its bounds; ``reason`` says which, in one line.

    Raised before the work or the memory beyond the bound is spent. An
    :class:`~laocheck.exceptions.InvalidParameterError` (the bound is a parameter of
    :func:`enumerate_outcomes`), hence a ``ValueError``.

    Parameters
    ----------
    name : str
        The bound's parameter (``max_leaves``, ``max_choices``, ``max_bytes``, ...).
    value : object
        What the enumeration reached.
    rule : str
        The bound, as the message states it (``"be at most 50000"``).
    reason : str
        One line for a record: what the program did that the bound stopped.
    """

    def __init__(self, name, value, rule, reason):
        super().__init__(f"`{name}` must {rule}; got {name}={value!r}.")
        self.reason = reason


def _about(count):
    """``count`` in words that never hit Python's int-to-string limit."""
    if not isinstance(count, int):
        return f"{count:.3g}"
    if count < 10 ** 15:
        return str(count)
    return f"10^{int(math.log10(count))}" if count.bit_length() < 1000 else \
        f"2^{count.bit_length() - 1}"


# --------------------------------------------------------------------------------------------
# exact numbers and shared argument checks
# --------------------------------------------------------------------------------------------

def exact_fraction(value, name="p"):
    """``value`` as an exact Fraction (floats at their exact binary value; sympy Rationals).

    Parameters
    ----------
    value : Fraction, int, float or sympy.Rational
        A finite number (a numpy integer or float too); not a bool.
    name : str
        The parameter name used in the error message. Default ``"p"``.

    Returns
    -------
    Fraction
        ``value`` exactly: ``Fraction(0.1)`` is 3602879701896397/36028797018963968, not 1/10.

    Raises
    ------
    InvalidParameterError
        ``value`` is a bool, a non-finite float, or not a number of the types above.
    """
    if isinstance(value, Fraction):
        return value
    if isinstance(value, bool):
        fail(name, value, "be a number, not a bool")
    if isinstance(value, numbers.Integral):
        return Fraction(int(value))
    if isinstance(value, (float, np.floating)):
        if not math.isfinite(value):
            fail(name, value, "be finite")
        return Fraction(float(value))
    if hasattr(value, "p") and hasattr(value, "q") and getattr(value, "is_Rational", False):
        return Fraction(int(value.p), int(value.q))  # sympy Rational / Integer
    if isinstance(value, numbers.Rational):
        return Fraction(value.numerator, value.denominator)
    fail(name, value, "be a Fraction, int, float or sympy Rational")


def _probability(p, name="p"):
    p = exact_fraction(p, name)
    if not 0 <= p <= 1:
        fail(name, p, f"satisfy 0 <= {name} <= 1")
    return p


def _categorical_weights(p, name="p"):
    if isinstance(p, (str, bytes)) or not hasattr(p, "__iter__"):
        fail(name, p, "be a nonempty sequence of nonnegative numbers summing to 1")
    weights = [exact_fraction(v, name) for v in p]
    if not weights or any(w < 0 for w in weights) or abs(float(sum(weights)) - 1.0) > 1e-9:
        fail(name, list(p), "be a nonempty sequence of nonnegative numbers summing to 1")
    return weights


def _sorted_tuple(values):
    try:
        return tuple(sorted(values))
    except TypeError:  # incomparable items keep their order in the sequence
        return tuple(values)


def _halves(items, chosen):
    chosen = set(chosen)
    first = [v for i, v in enumerate(items) if i in chosen]
    second = [v for i, v in enumerate(items) if i not in chosen]
    return _sorted_tuple(first), _sorted_tuple(second)


def _check_halves(items):
    items = tuple(items)
    if len(items) % 2:
        fail("items", items, "have even length")
    return items


def _check_subset(n, s):
    n = check_count("n", n, minimum=0, maximum=_MAX_INT)
    s = check_count("s", s, minimum=0, maximum=_MAX_INT)
    if s > n:
        fail("s", s, f"satisfy 0 <= s <= n with n={n}")
    return n, s


@lru_cache(maxsize=256)
def _subsets(n, s):
    return tuple(itertools.combinations(range(n), s))


# --------------------------------------------------------------------------------------------
# sampling source
# --------------------------------------------------------------------------------------------

class RandomSource:
    """The randomness-source protocol on a ``numpy.random.Generator``.

    Parameters
    ----------
    rng : None, int, SeedSequence or Generator
        Passed to ``numpy.random.default_rng``.

    Raises
    ------
    InvalidParameterError
        ``rng`` is not None, a seed (an integer >= 0), a SeedSequence or a ``Generator`` (a
        legacy ``RandomState`` is refused).
    """

    def __init__(self, rng=None):
        self.rng = check_rng(rng)

    def categorical(self, p):
        """Index i with probability p[i]."""
        weights = np.array([float(w) for w in _categorical_weights(p)])
        return int(self.rng.choice(weights.size, p=weights / weights.sum()))

    def uniform_int(self, n):
        """Uniform on range(n)."""
        return int(self.rng.integers(check_count("n", n, maximum=_MAX_INT)))

    def subset(self, n, s):
        """Uniform s-subset of range(n), sorted."""
        n, s = _check_subset(n, s)
        return tuple(sorted(int(i) for i in self.rng.choice(n, size=s, replace=False)))

    def split_halves(self, items):
        """Uniform split of ``items`` (even length) into two sorted halves."""
        items = _check_halves(items)
        order = self.rng.permutation(len(items))
        return _halves(items, order[: len(items) // 2].tolist())

    def bernoulli(self, p):
        """True with probability p."""
        return bool(self.rng.random() < float(_probability(p)))

    def geometric(self, p, *, max_depth=None):
        """Failures before the first success, P(N = n) = (1-p)^n p (``max_depth`` ignored)."""
        p = _probability(p)
        if p == 0:
            fail("p", p, "satisfy 0 < p <= 1")
        return int(self.rng.geometric(float(p))) - 1


# --------------------------------------------------------------------------------------------
# enumeration
# --------------------------------------------------------------------------------------------

class _EnumeratingSource:
    """Replays a forced prefix of choices, then takes the first option at each new choice."""

    def __init__(self, prefix, max_depth, max_leaves=DEFAULT_MAX_LEAVES,
                 max_choices=DEFAULT_MAX_CHOICES, deadline=None):
        self.prefix = prefix  # [(option index, number of options)] forced for this run
        self.trail = []
        self.max_depth = max_depth
        self.max_leaves = max_leaves
        self.max_choices = max_choices
        self.deadline = deadline  # time.monotonic() value, or None
        self.prob = Fraction(1)
        self.residual = Fraction(0)
        self.limit = None  # the EnumerationLimit raised, kept even if the program catches it

    def _stop(self, name, value, reason, rule=None):
        rule = rule or f"bound the enumeration, and it did not: {reason}"
        self.limit = EnumerationLimit(name, value, rule, reason)
        raise self.limit

    def _choose(self, options, tail=Fraction(0)):
        """Pick an option (value, probability); ``tail``: mass of the unexplored options."""
        depth = len(self.trail)
        if depth >= self.max_choices:
            self._stop("max_choices", self.max_choices, f"more than {self.max_choices} draws on "
                       "one path (a loop that draws until a condition holds, such as rejection "
                       "sampling, has unboundedly many)")
        if self.deadline is not None and time.monotonic() > self.deadline:
            self._stop("max_seconds", "deadline", "the enumeration ran past its wall-time "
                       "deadline")
        if depth < len(self.prefix):
            index, count = self.prefix[depth]
            if count != len(options):
                fail("program", "<program>", "draw all its randomness from the source it is "
                     "given (it made different choices when replayed)")
        else:
            index = 0
            self.residual += self.prob * tail  # each new node books its tail exactly once
        self.trail.append((index, len(options)))
        value, p = options[index]
        self.prob *= p
        if max(self.prob.numerator.bit_length(), self.prob.denominator.bit_length()) > \
                MAX_PROBABILITY_BITS:
            self._stop("MAX_PROBABILITY_BITS", MAX_PROBABILITY_BITS, "a path's probability "
                       f"needs more than {MAX_PROBABILITY_BITS} bits")
        return value

    def categorical(self, p):
        return self._choose(_categorical_options(tuple(p)))

    def _guard(self, count, what):
        """Refuse, before building them, more options at one choice than leaves allowed."""
        if count > self.max_leaves:
            self._stop("max_leaves", self.max_leaves, f"{what} has {_about(count)} options "
                       f"(more than {self.max_leaves})",
                       rule=f"exceed the number of options of each choice ({what} has "
                       f"{_about(count)}; raise it, or enumerate a smaller program)")

    def uniform_int(self, n):
        n = check_count("n", n, maximum=_MAX_INT)
        self._guard(n, f"uniform_int({n})")
        return self._choose(_uniform_options(n))

    def subset(self, n, s):
        n, s = _check_subset(n, s)
        # ln C(n, s) first: C(2**62, 2**61) is far too large to compute exactly
        log_count = math.lgamma(n + 1) - math.lgamma(s + 1) - math.lgamma(n - s + 1)
        count = math.comb(n, s) if log_count < 1000 else math.inf
        self._guard(count, f"subset({n}, {s})")
        return self._choose(_subset_options(n, s))

    def split_halves(self, items):
        items = _check_halves(items)
        self._guard(math.comb(len(items), len(items) // 2), "split_halves")
        weight = Fraction(1, math.comb(len(items), len(items) // 2))
        return self._choose([(_halves(items, c), weight)
                             for c in _subsets(len(items), len(items) // 2)])

    def bernoulli(self, p):
        p = _probability(p)
        return self._choose([(v, w) for v, w in ((True, p), (False, 1 - p)) if w > 0])

    def geometric(self, p, *, max_depth=None):
        p = _probability(p)
        if p == 0:
            fail("p", p, "satisfy 0 < p <= 1")
        depth = self.max_depth if max_depth is None else check_count("max_depth", max_depth)
        return self._choose(*_geometric_options(p, depth))


# Option lists are cached: a program is replayed once per leaf and asks for the same ones.
def _cached(function):
    cached = lru_cache(maxsize=1024)(function)

    def wrapper(*args):
        try:
            return cached(*args)
        except TypeError:  # unhashable arguments: build the options afresh
            return function(*args)

    return wrapper


@_cached
def _categorical_options(p):
    return [(i, w) for i, w in enumerate(_categorical_weights(p)) if w > 0]


@lru_cache(maxsize=256)
def _uniform_options(n):
    return [(i, Fraction(1, n)) for i in range(n)]


@lru_cache(maxsize=256)
def _subset_options(n, s):
    options = _subsets(n, s)
    weight = Fraction(1, len(options))
    return [(c, weight) for c in options]


@lru_cache(maxsize=256)
def _geometric_options(p, depth):
    if p == 1:
        return [(0, Fraction(1))], Fraction(0)
    return [(k, (1 - p) ** k * p) for k in range(depth)], (1 - p) ** depth


def _scaled(p, value):
    """p * value, elementwise through tuples and lists, exact for Fractions and sympy."""
    if isinstance(value, (tuple, list)):
        return tuple(_scaled(p, v) for v in value)
    try:
        return p * value
    except TypeError:
        # start-up: sympy (~1 s to import) is needed only for exact symbolic input
        import sympy

        return sympy.Rational(p.numerator, p.denominator) * value


def _added(a, b):
    if isinstance(a, tuple):
        return tuple(_added(x, y) for x, y in zip(a, b, strict=True))
    return a + b


class ExactDistribution:
    """Exact distribution of an outcome: weighted leaves plus the mass left unexplored.

    Returned by :func:`enumerate_outcomes` and :meth:`Plan.distribution`; each parameter is an
    attribute of the same name.

    Parameters
    ----------
    leaves : sequence of (Fraction, value)
        Outcomes with their exact probabilities. The attribute is a tuple in which equal
        hashable outcomes are merged (first-seen order, probabilities added) and unhashable
        ones (e.g. numpy arrays) are kept apart.
    residual_mass : Fraction
        Probability of the choice sequences not run (geometric tails beyond the depth).
        Default 0.
    n_runs : int, optional
        Number of complete runs of the program (leaves before merging). Default: the number of
        ``leaves`` given.

    Attributes
    ----------
    total_mass : Fraction
        Sum of the leaves' probabilities (1 - residual_mass for exact input probabilities).
    """

    def __init__(self, leaves, residual_mass=Fraction(0), n_runs=None):
        merged, index = [], {}
        for prob, value in leaves:
            try:
                key = (type(value), value)
                hash(key)
            except TypeError:
                merged.append([prob, value])
                continue
            if key in index:
                merged[index[key]][0] += prob
            else:
                index[key] = len(merged)
                merged.append([prob, value])
        self.leaves = tuple((p, v) for p, v in merged)
        self.residual_mass = Fraction(residual_mass)
        self.total_mass = sum((p for p, _ in self.leaves), Fraction(0))
        self.n_runs = len(leaves) if n_runs is None else n_runs

    def __len__(self):
        return len(self.leaves)

    def __iter__(self):
        return iter(self.leaves)

    def __repr__(self):
        return (f"ExactDistribution({len(self)} outcomes from {self.n_runs} runs, "
                f"total_mass={self.total_mass}, residual_mass={self.residual_mass})")

    def expectation(self, f=None):
        """Exact sum over leaves of p * f(value) (``f`` defaults to the identity).

        Numbers, sympy expressions, numpy object arrays (elementwise) and tuples or lists of
        them (elementwise, returned as tuples) are supported. Not renormalised: with a
        residual mass it is the expectation restricted to the explored outcomes.
        """
        total = None
        for prob, value in self.leaves:
            term = _scaled(prob, value if f is None else f(value))
            total = term if total is None else _added(total, term)
        return Fraction(0) if total is None else total

    def distribution_of(self, f):
        """Exact distribution of f(outcome), e.g. the number of attributes observed."""
        return ExactDistribution([(p, f(v)) for p, v in self.leaves], self.residual_mass,
                                 self.n_runs)

    def probability(self, event):
        """Exact probability that ``event(outcome)`` is true (among explored outcomes)."""
        return sum((p for p, v in self.leaves if event(v)), Fraction(0))

    def as_dict(self):
        """``{outcome: probability}`` (hashable outcomes only)."""
        return {v: p for p, v in self.leaves}


def _footprint(value, depth=0):
    """Estimated bytes held by a leaf's value or probability (exact for the containers and
    numbers an outcome is made of; ``sys.getsizeof`` for anything else)."""
    if isinstance(value, Fraction):
        return 100 + (value.numerator.bit_length() + value.denominator.bit_length()) // 8
    if isinstance(value, int):
        return 28 + value.bit_length() // 8
    if depth < 8 and isinstance(value, (tuple, list)):
        return 56 + 8 * len(value) + sum(_footprint(v, depth + 1) for v in value)
    if isinstance(value, np.ndarray):
        inner = sum(_footprint(v, depth + 1) for v in value.flat) if value.dtype.hasobject \
            and depth < 8 else 0
        return 112 + value.nbytes + inner
    return sys.getsizeof(value)


def enumerate_outcomes(program, *args, max_depth=DEFAULT_MAX_DEPTH,
                       max_leaves=DEFAULT_MAX_LEAVES, max_choices=DEFAULT_MAX_CHOICES,
                       max_bytes=DEFAULT_MAX_BYTES, max_seconds=None, **kwargs):
    """Exact distribution of ``program(src, *args, **kwargs)`` over all its random choices.

    Parameters
    ----------
    program : callable
        ``program(src, *args, **kwargs)``; must draw all its randomness from ``src`` (the
        protocol in the module docstring) and be deterministic given those draws.
    *args
        Passed to ``program``.
    max_depth : int
        Geometric draws explore N < max_depth (overridable per call with
        ``src.geometric(p, max_depth=...)``); the tail mass goes to ``residual_mass``.
    max_leaves : int
        Guard: raise :class:`~laocheck.stats.exact.EnumerationLimit` rather than run the program more often than
        this. Default 10**6.
    max_choices : int
        Guard: most choices on one path. Default ``DEFAULT_MAX_CHOICES``.
    max_bytes : int
        Guard: most bytes of leaves kept (estimated). Default ``DEFAULT_MAX_BYTES``.
    max_seconds : float or None
        Guard: wall-time deadline, checked at every choice and between paths. Default None
        (none).
    **kwargs
        Passed to ``program``.

    Returns
    -------
    ExactDistribution
        Every outcome with its exact probability (``fractions.Fraction``), and the
        ``residual_mass`` of the geometric tails not explored.

    Raises
    ------
    InvalidParameterError
        ``program`` not callable, ``max_depth``, ``max_leaves``, ``max_choices`` or
        ``max_bytes`` not a positive integer, ``max_seconds`` not a positive number.
    EnumerationLimit
        A bound was reached (see the module docstring): more than ``max_leaves`` outcomes (or
        a choice with more options than that), ``max_choices`` choices on a path, a path
        probability of more than ``MAX_PROBABILITY_BITS`` bits, ``max_bytes`` of leaves,
        or ``max_seconds``. Raised even when the program catches it.

    Notes
    -----
    Depth-first search over the tree of choices by replay: each run follows a forced prefix
    of option indices and then takes the first option at every new choice point; afterwards
    the deepest choice with an untried option is advanced. Every leaf is visited once, with
    weight the exact product of its choice probabilities. Cost: (number of leaves) runs of
    the program. Zero-probability options are never explored.

    References
    ----------
    .. [1] D. E. Knuth, "The Art of Computer Programming", Vol. 4A (2011), Sec. 7.2.1
       (backtrack enumeration of combinatorial objects).

    Examples
    --------
    >>> dist = enumerate_outcomes(lambda src: src.uniform_int(3) + src.uniform_int(3))
    >>> dist.expectation()
    Fraction(2, 1)
    """
    max_depth = check_count("max_depth", max_depth)
    max_leaves = check_count("max_leaves", max_leaves)
    max_choices = check_count("max_choices", max_choices)
    max_bytes = check_count("max_bytes", max_bytes)
    if max_seconds is not None and not (isinstance(max_seconds, numbers.Real)
                                        and max_seconds > 0):
        fail("max_seconds", max_seconds, "be None or a positive number of seconds")
    if not callable(program):
        fail("program", program, "be callable as program(src, *args, **kwargs)")
    deadline = None if max_seconds is None else time.monotonic() + float(max_seconds)
    leaves, residual, prefix, used = [], Fraction(0), [], 0
    while True:
        if len(leaves) >= max_leaves:
            raise EnumerationLimit("max_leaves", max_leaves, "exceed the number of outcomes "
                                   "of the program (raise it, or lower max_depth)",
                                   f"more than {max_leaves} outcomes of the program")
        if deadline is not None and time.monotonic() > deadline:
            raise EnumerationLimit("max_seconds", max_seconds, "bound the enumeration's wall "
                                   "time", f"more than {max_seconds} s of wall time")
        src = _EnumeratingSource(prefix, max_depth, max_leaves, max_choices, deadline)
        try:
            value = program(src, *args, **kwargs)
        except EnumerationLimit:
            raise
        except Exception:
            if src.limit is not None:   # a bound reached, then another error: the bound
                raise src.limit from None
            raise
        if src.limit is not None:       # the program caught the bound and went on
            raise src.limit
        used += _footprint(value) + _footprint(src.prob)
        if used > max_bytes:
            raise EnumerationLimit("max_bytes", max_bytes, "bound the memory of the outcomes "
                                   "kept", f"the outcomes kept take more than {max_bytes} "
                                   "bytes")
        leaves.append((src.prob, value))
        residual += src.residual
        trail = src.trail
        while trail and trail[-1][0] + 1 >= trail[-1][1]:
            trail.pop()
        if not trail:
            return ExactDistribution(leaves, residual)
        index, count = trail.pop()
        prefix = trail + [(index + 1, count)]


# --------------------------------------------------------------------------------------------
# sampling plans: compositions of independent pieces
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class IIDDraws:
    """k i.i.d. draws from a categorical distribution q; outcome: tuple of k indices.

    Parameters
    ----------
    q : sequence of numbers
        The probabilities of the categories 0, 1, ... (nonnegative, summing to 1; exact numbers
        as :func:`~laocheck.stats.exact.exact_fraction` accepts). Kept as a tuple.
    k : int
        Number of draws, >= 0.

    Raises
    ------
    InvalidParameterError
        ``q`` is not a nonempty sequence of nonnegative numbers summing to 1, or ``k`` is not
        an integer >= 0.
    """

    q: tuple
    k: int

    def __post_init__(self):
        _categorical_weights(self.q, "q")
        object.__setattr__(self, "q", tuple(self.q))
        object.__setattr__(self, "k", check_count("k", self.k, minimum=0))

    def sample(self, src):
        return tuple(src.categorical(self.q) for _ in range(self.k))


@dataclass(frozen=True)
class UniformSubset:
    """A uniform s-subset of range(n) without replacement; outcome: sorted tuple.

    Parameters
    ----------
    n : int
        Size of the ground set range(n), 0 <= n <= 2**63 - 1.
    s : int
        Size of the subset, 0 <= s <= n.

    Raises
    ------
    InvalidParameterError
        ``n`` or ``s`` is not an integer in range, or s > n.
    """

    n: int
    s: int

    def __post_init__(self):
        _check_subset(self.n, self.s)

    def sample(self, src):
        return src.subset(self.n, self.s)


@dataclass(frozen=True)
class RandomHalves:
    """A uniform split of ``items`` (even length) into two halves; outcome: (a, b).

    Parameters
    ----------
    items : sequence
        The items to split (even length; kept as a tuple). Each half of the outcome is a tuple,
        sorted when the items are comparable.

    Raises
    ------
    InvalidParameterError
        ``items`` has odd length.
    """

    items: tuple

    def __post_init__(self):
        object.__setattr__(self, "items", _check_halves(self.items))

    def sample(self, src):
        return src.split_halves(self.items)


@dataclass(frozen=True)
class TruncatedGeometric:
    """Geometric count N >= 0, P(N = n) = (1-p)^n p, enumerated for n < depth.

    The mass (1 - p)^depth of N >= depth is booked as residual mass, not run.

    Parameters
    ----------
    p : Fraction, int, float or sympy.Rational
        Success probability, 0 < p <= 1 (exact as :func:`~laocheck.stats.exact.exact_fraction`).
    depth : int
        Counts n < depth are enumerated, >= 1.

    Raises
    ------
    InvalidParameterError
        ``p`` is not a number in (0, 1], or ``depth`` is not an integer >= 1.
    """

    p: object
    depth: int

    def __post_init__(self):
        if _probability(self.p) == 0:
            fail("p", self.p, "satisfy 0 < p <= 1")
        object.__setattr__(self, "depth", check_count("depth", self.depth))

    def sample(self, src):
        return src.geometric(self.p, max_depth=self.depth)


class Plan:
    """A sampling plan: independent pieces drawn in order; outcome: tuple of their outcomes.

    Parameters
    ----------
    *pieces : IIDDraws, UniformSubset, RandomHalves, TruncatedGeometric or any object with
        ``sample(src)``.

    Raises
    ------
    InvalidParameterError
        No piece, or a piece without a ``sample(src)`` method.

    Examples
    --------
    >>> from fractions import Fraction
    >>> a = [Fraction(1), Fraction(2), Fraction(6)]
    >>> Plan(UniformSubset(3, 2)).expectation(lambda s: sum(a[i] for i in s) / 2)
    Fraction(3, 1)
    """

    def __init__(self, *pieces):
        if not pieces or not all(callable(getattr(p, "sample", None)) for p in pieces):
            fail("pieces", pieces, "be one or more objects with a sample(src) method")
        self.pieces = pieces

    def __repr__(self):
        return f"Plan{self.pieces!r}"

    def sample(self, src):
        """One outcome drawn from ``src`` (an enumerating source or a RandomSource)."""
        return tuple(piece.sample(src) for piece in self.pieces)

    def draw(self, rng=None):
        """One random outcome from a ``numpy.random.Generator`` (or seed)."""
        return self.sample(RandomSource(rng))

    def distribution(self, *, max_leaves=DEFAULT_MAX_LEAVES):
        """Exact distribution of the outcome tuple (see :func:`enumerate_outcomes`)."""
        return enumerate_outcomes(self.sample, max_leaves=max_leaves)

    def expectation(self, f, *, max_leaves=DEFAULT_MAX_LEAVES):
        """Exact ``E[f(*outcomes)]``: ``f`` takes one argument per piece."""
        return self.distribution(max_leaves=max_leaves).expectation(lambda o: f(*o))
