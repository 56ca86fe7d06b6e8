"""Seeded adversarial search for for-all inequalities: the largest ratio lhs / rhs.

``adversarial_max(ratio, dim, rng, ...)`` evaluates ``ratio(u)`` (u an unconstrained vector,
mapped onto the statement's assumptions by the caller) at random starts drawn from ``rng``, then
refines the best starts with scipy.optimize (Nelder-Mead on −ratio). Deterministic for a given
generator state; the figure reported is the largest ratio found (the tightness), and a ratio
above 1 is a counterexample, returned with its point.
"""

from __future__ import annotations

import numpy as np

from .._lazy import load

# start-up: scipy.optimize loads on first use, when a check runs; `laocheck list` reads only the
# registrations
optimize = load("scipy.optimize")


def adversarial_max(ratio, dim, rng, *, starts=200, refine=5, scale=1.5, maxiter=400):
    """(worst ratio, u) over random starts + Nelder-Mead refinement; NaN ratios count as −inf."""

    def safe(u):
        try:
            r = float(ratio(np.asarray(u, dtype=float)))
        except (ZeroDivisionError, FloatingPointError, OverflowError, ValueError):
            return -np.inf
        return r if np.isfinite(r) else -np.inf

    points = rng.normal(scale=scale, size=(starts, dim))
    values = np.array([safe(u) for u in points])
    order = np.argsort(-values)[:refine]
    best_val, best_u = values[order[0]], points[order[0]]
    for idx in order:
        res = optimize.minimize(lambda u: -safe(u) if np.isfinite(safe(u)) else 1e300,
                                points[idx], method="Nelder-Mead",
                                options={"maxiter": maxiter, "xatol": 1e-10, "fatol": 1e-14})
        val = safe(res.x)
        if val > best_val:
            best_val, best_u = val, res.x
    return best_val, best_u


def ball(u, radius=1.0, p=2):
    """Map an unconstrained vector into the closed ball of ``radius`` (p = 1, 2 or inf)."""
    u = np.asarray(u, dtype=float)
    if p == np.inf:
        return radius * np.tanh(u)
    norm = np.linalg.norm(u, ord=p)
    return u * (radius / max(1.0, norm)) if norm > 0 else u
