"""Helpers of the proof-step checks (``cb11.proofs``, ``hk12.proofs``, ``ks15.proofs``).

A displayed step of a proof is checked in one of three ways:

* **sympy**: an identity or an algebraic consequence (a step size substituted into a bound)
  simplified symbolically (:func:`sympy_zero`);
* **exact enumeration of runs**: a step about expectations over the algorithm's randomness
  (and over a finite distribution of examples) on small instances: the whole run of the box
  (m steps) is enumerated with :func:`laocheck.stats.exact.enumerate_outcomes`, so the
  expectation is the exact weighted sum over every path (float arithmetic inside a path);
  instances are drawn from the check's generator and the worst ratio lhs/rhs is reported;
* **seeded search** (``laocheck.checks._search.adversarial_max``) for deterministic
  inequalities over sequences, with a counterexample re-checked in exact arithmetic.

Hand-written here: only the loop over seeded instances and the verdict; the enumeration and
the search are the package's own (no library enumerates a program's random choices).

Each of the three compares numbers with numbers (Fractions, sympy expressions that are
number-valued for every value of their symbols, floats to :data:`PROOF_TOL`), so every result
of the proof modules carries the power of an exact check, ``detects`` = 1 + PROOF_TOL
(:func:`ProofResult`); the one statistical proof check (a coverage by Monte Carlo) sets its
own.
"""

from __future__ import annotations

import math

import numpy as np

from .._lazy import load
from ._registry import Result, Status

# start-up: sympy loads on first use, when a check runs; `laocheck list` reads only the
# registrations
sp = load("sympy")

__all__ = ["worst_instance", "ratio_verdict", "sympy_zero", "ball_point", "PROOF_TOL",
           "ProofResult"]

#: Rounding tolerance of a float ratio lhs/rhs (enumerated expectations are sums of at most
#: a few thousand float terms).
PROOF_TOL = 1e-9


def ProofResult(status, figures=None, *, detects=1.0 + PROOF_TOL, **kwargs):  # noqa: N802
    """The :class:`~laocheck.checks.Result` of a proof-step check: an exact comparison of
    numbers, so ``detects`` defaults to 1 + :data:`PROOF_TOL` (a statement off by more than the
    rounding tolerance is refuted on every run); a statistical proof check passes its own."""
    return Result(status, {} if figures is None else figures, detects=detects, **kwargs)


def worst_instance(rng, count, draw, ratio):
    """(worst ratio, instance) over ``count`` instances ``draw(rng)``; ``ratio(inst)`` is
    lhs/rhs (or lhs − rhs scaled, as the caller documents); NaN counts as −inf."""
    best, where = -math.inf, None
    for _ in range(count):
        inst = draw(rng)
        r = float(ratio(inst))
        if math.isfinite(r) and r > best:
            best, where = r, inst
    return best, where


def _plain(value):
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (np.floating, np.integer)):
        return value.item()
    return value


def ratio_verdict(worst, *, figures=None, tol=PROOF_TOL, note="", what="lhs/rhs"):
    """PASS when the worst ratio is at most 1 + tol, FAIL otherwise (a proof step that is
    registered as true; an erratum of a step is a separate exact check)."""
    ratio, inst = worst
    figs = dict(figures or {})
    figs["worst_ratio"] = ratio
    figs["ratio"] = what
    if ratio <= 1 + tol:          # an exact comparison of numbers: detects 1 + tol
        return Result(Status.PASS, figs, detectable=f"{what} > 1 + {tol:g} at a searched instance",
                      note=note, detects=1.0 + tol)
    return Result(Status.FAIL, figs, counterexample=_plain(inst), note=note,
                  detectable="the instance shown", detects=1.0 + tol)


def sympy_zero(expr):
    """True when sympy simplifies ``expr`` to 0."""
    return sp.simplify(sp.sympify(expr)) == 0


def ball_point(rng, d, radius, p=2, *, boundary=0.3):
    """A random point of the closed L_p ball (p = 1, 2, inf) of ``radius``; with probability
    ``boundary`` on its sphere (where proofs' bounds are tightest)."""
    u = rng.normal(size=d)
    if p == np.inf:
        u = rng.uniform(-1, 1, size=d)
        norm = np.max(np.abs(u))
    else:
        norm = np.linalg.norm(u, ord=p)
    r = radius if rng.random() < boundary else radius * rng.random()
    return u * (r / norm) if norm > 0 else u
