"""The helpers shared by the checks of the algorithm boxes (procedures, algorithms and figures,
line by line) of several papers (their checks: ``cb11/boxes.py``, ``hk12/boxes.py``,
``ks15/boxes.py``).

The algorithm boxes line by line: each line that defines an estimate, an objective, an update,
a projection or an output, checked for what it claims (CB11 Fig. 1, Fig. 2 and eq. (7); HK12
Alg. 1, Alg. 2; KS15 Alg. 2 line 12).

Lines whose claim is already a statement of the catalog are not repeated here: the
unbiasedness of HK12's x̃, φ̃, g̃ (``HK12.Lemma3.3.*``, ``HK12.Lemma3.8.*``), KS15's (``KS15.Eq4``,
``KS15.Lemma3.*``), CB11's A (``CB11.Lemma8.*``), 2yv (``CB11.Lemma9.*``) and Fig. 2's gradient
(``CB11.Lemma11.*``), and every box's attribute budget (``*.budget``).

Methods: exact enumeration with ``fractions.Fraction`` of one iteration of a box (the literal
transcriptions of :mod:`laocheck.reference.estimators`), exact rational counterexamples, and
the invariants of the learners' updates on seeded runs. HK12 Proc. 3 (lines 1/3, 4-6, 9-11, 14)
and Alg. 4 line 2 are also checked in the estimator kernels (``HK12.Proc3.*.kernel``,
``HK12.Alg4.line2.kernel``): every kernel draw is matched to an outcome of the law written
from the lines (exact) and the frequencies get a multinomial test at δ.

Power (``Result.detects``): 1.0 where numbers are compared exactly (Fractions, sympy), 1 + tol
where floats are compared within a relative tol; None where no factor applies: a property
(``CB11.Fig1.convexity``: definiteness), an undefined 0/0 (``*.line9``), an output compared
with 0 (``KS15.Alg4.line1_corrected``).
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np

from ... import estimators
from ...reference import estimators as ref_est
from ...stats.exact import enumerate_outcomes
from .._common import fstr
from .._registry import Result, Status

__all__ = []


def _data(rng, m, d, p):
    X = rng.uniform(-1, 1, size=(m, d))
    if p == 2:
        X /= np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None]
    return X, rng.uniform(-1, 1, size=m)


# --- HK12 Alg. 2 / KS15 Alg. 3 line 9 at w_1 = 0 -------------------------------------------------

def _w1_lasso(d):
    """w_1 of HK12 Alg. 2 / KS15 Alg. 3 from lines 1 and 3, exactly: z⁺_1 = z⁻_1 = 1_d."""
    zp = zm = [F(1)] * d
    return [(a - b) * F(1) / (sum(zp) + sum(zm)) for a, b in zip(zp, zm)]


def _line9_at_w1(ctx, *, paper):
    """HK12 Alg. 2 / KS15 Alg. 3 line 9 at t = 1: p_j = |w_1[j]|/‖w_1‖₁ with w_1 = 0 from lines
    1 and 3 is 0/0."""
    w1 = _w1_lasso(3)
    norm1 = sum(abs(v) for v in w1)
    figs = {"w_1": fstr(w1), "‖w_1‖₁": str(norm1)}
    if norm1 != 0:
        return Result(Status.PASS, figs, detectable=0.0)
    return Result(Status.ERRATUM, figs, detectable=0.0, correction=f"{paper}.line9_corrected",
                  counterexample={"t": 1, "d": 3, "z⁺_1": "1_d", "z⁻_1": "1_d", "w_1": fstr(w1),
                                  "p_j": "|w_1[j]|/‖w_1‖₁ = 0/0"},
                  note="Every run starts at w_1 = 0, so line 9 is undefined at t = 1 on every "
                       "input.")


def _line9_corrected(ctx, *, estimator):
    """HK12 Alg. 2 / KS15 Alg. 3 line 9, corrected: at w = 0, ⟨w, x⟩ = 0 is known without a
    draw, φ̃ = −y is exact and unbiased; the reference and the kernel both do this (no attribute
    read)."""
    x, y = [F(1, 2), F(-1), F(1, 4)], F(3, 10)
    w0 = [F(0)] * 3
    kind = "lasso"
    dist = enumerate_outcomes(lambda src: ref_est.ks15_residual(w0, x, y, src, kind=kind)
                              if estimator.startswith("KS15") else
                              ref_est.hk12_aelr_residual(w0, x, y, src))
    ref_ok = all(v == (-y, frozenset()) or (v[0] == -y and not v[1]) for _p, v in dist)
    est = estimators.get(estimator)
    s = est.sample(np.zeros(3), np.array([0.5, -1.0, 0.25]), 0.3, n=ctx.n(100, 1000), rng=ctx.rng)
    vals = np.asarray(s.values, dtype=float).ravel()
    kernel_ok = bool(np.all(vals == -0.3) and np.all(np.asarray(s.attributes) == 0))
    ok = ref_ok and kernel_ok
    return Result(Status.PASS if ok else Status.FAIL,
                  {"reference_phi_is_minus_y": ref_ok, "kernel_phi_is_minus_y_no_attribute": kernel_ok},
                  detectable=0.0, detects=1.0)


def _line9_corrected_named(ctx, *, estimator_name):
    """HK12 Alg. 2 / KS15 Alg. 3 line 9, corrected (the estimator named by the registration)."""
    return _line9_corrected(ctx, estimator=estimator_name)


#: The standing assumptions of HK12 Alg. 2 and KS15 Alg. 3, quoted with their places
_LINE9_ASSUME = {
    "HK12.Alg2": ("d >= 1, B > 0; ‖x‖∞ <= 1, |y| <= B: HK12 Thm 3.4, “Assume the distribution "
                  "D is such that ‖x‖∞ ≤ 1 and |y| ≤ B with probability 1”; z⁺_1 = z⁻_1 = 1_d: "
                  "HK12 Alg. 2, line 1"),
    "KS15.Alg3": ("d >= 1, B > 0; ‖x‖∞ <= 1, |y| <= B: KS15 Sec. 4, Thm 4.1, “Assume the "
                  "distribution D is such that ‖x‖∞ ≤ 1 and |y| < B with probability 1”; "
                  "z⁺_1 = z⁻_1 = 1_d: KS15 App. A.3, Alg. 3, line 1"),
}
