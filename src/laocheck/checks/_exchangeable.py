"""Exact expectations of a randomised program whose i.i.d. draws are exchangeable.

:func:`laocheck.stats.enumerate_outcomes` visits every *sequence* of choices: a program that
makes ``m`` i.i.d. draws among ``d`` options has ``d**m`` leaves (HK12 Procedure 3 at d = 2,
N = 3, order n = 5 reads 15 attributes: 32,768 leaves). When the quantity of interest is a
symmetric function of those draws (the *set* of attributes read, HK12 Lemma 4.1), the sequences
that are permutations of one another give the same value, and one representative per multiset
suffices, weighted by its number of orderings (the multinomial coefficient): C(m + d − 1, d − 1)
leaves instead of d**m (16 instead of 32,768 above). :func:`exchangeable_expectation` enumerates
so, by the same depth-first replay: within a *run* (maximal sequence of consecutive
``categorical`` calls with the same probabilities, or ``uniform_int`` calls with the same n),
each draw is restricted to options at or after the previous one of the run (non-decreasing
sequences), and a leaf's weight is the product of its choice probabilities times, per run,
``len(run)! / Π count_i!``.

Exact (the same Fraction as the full enumeration) when, for every run, (i) the value ``f`` reads
is invariant under permutations of the run's draws and (ii) the run's length does not depend
on the values drawn in it. Both hold for HK12 Procedure 3's attribute set (a set union over
draws whose number is fixed by n and N); the check that uses it compares it with the full
enumeration at a shallow depth, so a reference that broke (i) or (ii) is a FAIL, not a wrong
figure.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

from .._validation import check_count, fail
from ..stats.exact import exact_fraction

__all__ = ["exchangeable_expectation"]


class _RunSource:
    """Replays a forced prefix of choices (position among the allowed options, their number),
    then takes the first allowed option; i.i.d. runs are enumerated as multisets."""

    def __init__(self, prefix, max_depth):
        self.prefix = prefix
        self.trail = []
        self.max_depth = max_depth
        self.prob = Fraction(1)
        self._run = None        # [key, last option index, Counter of option indices]

    def _pick(self, allowed):
        depth = len(self.trail)
        if depth < len(self.prefix):
            index, count = self.prefix[depth]
            if count != allowed:
                fail("program", "<program>", "draw all its randomness from the source it is "
                     "given (it made different choices when replayed)")
        else:
            index = 0
        self.trail.append((index, allowed))
        return index

    def _close(self):
        """End the current run: its weight is multiplied by its number of orderings."""
        if self._run is not None:
            counts = self._run[2].values()
            self.prob *= math.factorial(sum(counts)) // math.prod(
                math.factorial(c) for c in counts)
            self._run = None

    def _iid(self, key, options):
        if self._run is None or self._run[0] != key:
            self._close()
            self._run = [key, 0, Counter()]
        start = self._run[1]
        i = start + self._pick(len(options) - start)
        value, p = options[i]
        self.prob *= p
        self._run[1] = i
        self._run[2][i] += 1
        return value

    def _plain(self, options):
        self._close()
        value, p = options[self._pick(len(options))]
        self.prob *= p
        return value

    def categorical(self, p):
        weights = tuple(exact_fraction(v, "p") for v in p)
        if not weights or any(v < 0 for v in weights) or abs(float(sum(weights)) - 1) > 1e-9:
            fail("p", list(p), "be a nonempty sequence of nonnegative numbers summing to 1")
        options = [(i, v) for i, v in enumerate(weights) if v > 0]
        return self._iid(("categorical", weights), options)

    def uniform_int(self, n):
        n = check_count("n", n)
        return self._iid(("uniform_int", n), [(i, Fraction(1, n)) for i in range(n)])

    def bernoulli(self, p):
        p = exact_fraction(p, "p")
        if not 0 <= p <= 1:
            fail("p", p, "satisfy 0 <= p <= 1")
        return self._plain([(v, q) for v, q in ((True, p), (False, 1 - p)) if q > 0])

    def geometric(self, p, *, max_depth=None):
        p = exact_fraction(p, "p")
        if not 0 < p <= 1:
            fail("p", p, "satisfy 0 < p <= 1")
        depth = self.max_depth if max_depth is None else check_count("max_depth", max_depth)
        if p == 1:
            return self._plain([(0, Fraction(1))])
        return self._plain([(k, (1 - p) ** k * p) for k in range(depth)])

    def subset(self, n, s):
        fail("program", "<program>", "draw only categorical, uniform_int, bernoulli and "
             "geometric choices (subset is not enumerated by runs)")

    def split_halves(self, items):
        fail("program", "<program>", "draw only categorical, uniform_int, bernoulli and "
             "geometric choices (split_halves is not enumerated by runs)")


def exchangeable_expectation(program, f, *, max_depth, max_leaves=10 ** 6):
    """Exact ``E[f(program(src))]`` over the explored outcomes, i.i.d. runs as multisets.

    Equal to ``enumerate_outcomes(program, max_depth=max_depth).expectation(f)`` (geometric
    draws explore n < max_depth; not renormalised) when ``f(program(...))`` is invariant under
    permutations of each run of consecutive i.i.d. draws and the runs' lengths do not depend on
    their values (module docstring).

    Parameters
    ----------
    program : callable
        ``program(src)``, drawing all its randomness from ``src`` (the protocol of
        :mod:`laocheck.stats.exact`; ``subset`` and ``split_halves`` are refused).
    f : callable
        The function of the program's value whose expectation is wanted (a number).
    max_depth : int
        Geometric draws explore n < max_depth.
    max_leaves : int, default=10**6
        Guard: refuse to replay the program more often than this.

    Returns
    -------
    fractions.Fraction
        The exact expectation restricted to the explored outcomes.

    Raises
    ------
    InvalidParameterError
        ``max_depth`` or ``max_leaves`` not a positive integer, more than ``max_leaves`` leaves,
        or a program that does not replay deterministically.
    """
    max_depth = check_count("max_depth", max_depth)
    max_leaves = check_count("max_leaves", max_leaves)
    total, prefix, leaves = Fraction(0), [], 0
    while True:
        leaves += 1
        if leaves > max_leaves:
            fail("max_leaves", max_leaves, "exceed the number of multiset leaves of the program")
        src = _RunSource(prefix, max_depth)
        value = program(src)
        src._close()
        total += src.prob * f(value)
        trail = src.trail
        while trail and trail[-1][0] + 1 >= trail[-1][1]:
            trail.pop()
        if not trail:
            return total
        index, count = trail.pop()
        prefix = trail + [(index + 1, count)]
