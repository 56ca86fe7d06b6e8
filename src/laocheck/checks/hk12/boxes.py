"""HK12: the algorithm boxes (procedures, algorithms and figures, line by line; ids ``HK12.*``).

The helpers these checks share with the other papers' are in
:mod:`laocheck.checks._kinds.boxes`, which says how this kind of check works.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np

from ... import estimators, learners, stats
from ..._lazy import load
from ...reference import estimators as ref_est
from ...reference.estimators import hk12_clip
from ...stats.exact import enumerate_outcomes
from .._common import as_objects, categorical_detects, distinct_rows, fstr, multinomial_verdict
from .._errata import note_erratum
from .._kinds.boxes import _data, _LINE9_ASSUME, _line9_at_w1, _line9_corrected_named
from .._registry import DEFAULT_DELTA, Result, Status, register
from . import proofs as proofs_hk12

# sympy is imported on first use (laocheck list imports every check module)
sp = load("sympy")

__all__ = []


# --- HK12 Alg. 1, Alg. 2 ------------------------------------------------------------------------

@register("HK12.Alg1.line12", citation="HK12 Alg. 1 line 12 (w_{t+1} ← v·B/max{‖v‖, B})",
          statement="line 12 is the Euclidean projection onto {‖w‖₂ <= B}, so ‖w_t‖₂ <= B and the "
          "output ‖w̄‖₂ <= B", assumptions="B > 0",
          method="exact: for rational v, the projection's optimality condition ⟨v − p, u − p⟩ <= 0 "
          "at the ball's extreme points u = ±B e_i and at u = 0 (Fractions, exact norms where "
          "rational); seeded runs of AERR (η = 10/B, the projection active) for the invariant", delta=0.0, detectable=0.0)
def check_alg1_line12(ctx):
    """HK12 Alg. 1 line 12: the rescaling is the projection; the invariant ‖w‖₂ <= B."""
    worst = 0.0
    for B in (0.1, 1.0, 10.0):
        X, y = _data(ctx.rng, ctx.n(2000, 20000), 20, 2)
        est = learners.AERR(k=4, B=B, eta=10.0 / B, random_state=ctx.spawn()).fit(X, B * y)
        worst = max(worst, np.linalg.norm(est.coef_) / B, np.linalg.norm(est.w_) / B)
    # optimality of p = v·B/max(‖v‖, B): ⟨v − p, u − p⟩ <= 0 for all u in the ball; with
    # p = (B/‖v‖)v, ⟨v − p, u − p⟩ = (1 − B/‖v‖)(⟨v, u⟩ − B‖v‖) <= 0 by Cauchy-Schwarz;
    # checked on (3, 4) scaled (‖v‖ = 5 rational)
    bad = 0
    for B in (F(1), F(5, 2), F(5), F(7)):
        v = as_objects([F(3), F(4)])
        nv = F(5)
        p = v * (B / max(nv, B))
        for u in ([B, 0], [-B, 0], [0, B], [0, -B], [0, 0]):
            u = as_objects(u)
            if (v - p) @ (u - p) > 0:
                bad += 1
    ok = worst <= 1 + 1e-12 and bad == 0
    return Result(Status.PASS if ok else Status.FAIL,
                  {"largest_norm2_over_B_of_AERR_last_iterate_and_output": worst, "optimality_violations": bad},
                  detectable=0.0, detects=1.0 + 1e-12)


@register("HK12.Alg2.line3", citation="HK12 Alg. 2 line 3 and Output (‖w̄‖₁ <= B)",
          statement="w_t = (z⁺ − z⁻)·B/(‖z⁺‖₁ + ‖z⁻‖₁) has ‖w_t‖₁ <= B for all z± > 0, so the "
          "output w̄ has ‖w̄‖₁ <= B", assumptions="B > 0, z± > 0 (lines 14-15 keep them positive)",
          method="exact (Fractions) at seeded rational z±: ‖z⁺ − z⁻‖₁ <= ‖z⁺‖₁ + ‖z⁻‖₁; seeded "
          "runs of AELR (η = 1/B: the iterates near the ball's boundary, ‖w̄‖₁ ≈ 0.9B) for the "
          "last iterate and the output", delta=0.0, detectable=0.0)
def check_alg2_line3(ctx):
    """HK12 Alg. 2 line 3: the EG± weights map into the L1 ball of radius B."""
    worst = F(0)
    for _ in range(ctx.n(200, 2000)):
        d = int(ctx.rng.integers(1, 6))
        zp = [F(int(v), 7) for v in ctx.rng.integers(1, 50, size=d)]
        zm = [F(int(v), 7) for v in ctx.rng.integers(1, 50, size=d)]
        w = [(a - b) / (sum(zp) + sum(zm)) for a, b in zip(zp, zm)]    # B = 1
        worst = max(worst, sum(abs(v) for v in w))
    run_worst = 0.0
    for B in (0.1, 1.0, 10.0):
        X, y = _data(ctx.rng, ctx.n(2000, 20000), 20, np.inf)
        est = learners.AELR(k=4, B=B, eta=1.0 / B, random_state=ctx.spawn()).fit(X, B * y)
        run_worst = max(run_worst, np.abs(est.coef_).sum() / B, np.abs(est.w_).sum() / B)
    ok = worst <= 1 and run_worst <= 1 + 1e-12
    return Result(Status.PASS if ok else Status.FAIL,
                  {"largest_exact_norm1_over_B": str(worst),
                   "largest_norm1_over_B_of_AELR_last_iterate_and_output": run_worst},
                  detectable=0.0, detects=1.0 + 1e-12)


@register("HK12.Alg2.line13", citation="HK12 Alg. 2 line 13 (ḡ[i] ← clip(g̃[i], 1/η))",
          statement="clip(x, c) = max{min{x, c}, −c}: |ḡ[i]| <= 1/η, and ḡ[i] = g̃[i] when "
          "|g̃[i]| <= 1/η", assumptions="η > 0", method="exact (Fractions) on a grid",
          delta=0.0, detectable=0.0)
def check_alg2_line13(ctx):
    """HK12 Alg. 2 line 13: the clip operation."""
    bad = 0
    for eta in (F(1, 3), F(1), F(5, 2)):
        g = as_objects([F(i, 4) for i in range(-20, 21)])
        gb = hk12_clip(g, eta)
        for a, b in zip(g, gb):
            if abs(b) > 1 / eta or (abs(a) <= 1 / eta and a != b) or (abs(a) > 1 / eta and
                                                                      b != (1 / eta) * (1 if a > 0 else -1)):
                bad += 1
    return Result(Status.PASS if bad == 0 else Status.FAIL, {"violations": bad}, detectable=0.0,
                  detects=1.0)


# --- HK12 Procedure 3 (GenEst) -------------------------------------------------------------------
#
# The reference is checked exactly here; the kernels of the estimators and learners that call
# GenEst replay the reference step by step in ``HK12.AESVR.steps_match_reference`` and
# ``HK12.Lemma4.1.unbiased_monte_carlo``; line 2 is also tested on the GenEst kernel below.

@register("HK12.Proc3.line1", citation="HK12 Proc. 3 lines 1 and 3 (N = ⌈4B²⌉; n <= 2 log₂ N)",
          statement="the reference's N is ⌈4B²⌉ and its line-3 branch takes exactly the orders "
          "n <= 2 log₂ N", assumptions="B > 0",
          method="exact: ⌈4B²⌉ from the definition on 400 rational B "
          "in (0, 20]; the reference's orders against ⌊2 log₂ N⌋ (integer arithmetic, sympy at "
          "seven N) for N = 1..1000",
          delta=0.0, detectable=0.0)
def check_proc3_line1(ctx):
    """HK12 Procedure 3 lines 1 and 3 in the reference transcription."""
    def ceil_4b2(b):                                    # ⌈4B²⌉ from its definition
        q = 4 * b * b
        n = q.numerator // q.denominator
        return n if n == q else n + 1

    def floor_2log2(N):                                 # ⌊2 log₂ N⌋: 2ⁿ <= N² < 2^{n+1}
        n = int(2 * math.log2(N))
        while 2 ** n > N * N:
            n -= 1
        while 2 ** (n + 1) <= N * N:
            n += 1
        return n

    bad_n = [str(b) for b in (F(i, 20) for i in range(1, 401))
             if ref_est.genest_sample_size(b) != ceil_4b2(b)]
    bad_nu = [N for N in range(1, 1001) if ref_est.genest_small_orders(N) != floor_2log2(N)]
    bad_nu += [N for N in (1, 2, 3, 4, 5, 100, 1000)        # sympy on a few, as a cross-check
               if ref_est.genest_small_orders(N) != int(sp.floor(2 * sp.log(N, 2)))]
    ok = not bad_n and not bad_nu
    return Result(Status.PASS if ok else Status.FAIL,
                  {"B_mismatches": len(bad_n), "N_mismatches": len(bad_nu)}, detectable=0.0,
                  counterexample=None if ok else {"B": bad_n[:3], "N": bad_nu[:3]}, detects=1.0)


@register("HK12.Proc3.line2", citation="HK12 Proc. 3 line 2 (choose n >= 0 with Pr[n] = (1/2)^{n+1})",
          statement="the order n of GenEst has Pr[n] = (1/2)^{n+1}, n >= 0, in the reference "
          "and in the kernel", assumptions="d = 1, w = (1), x = (1), y = −1, B = 1, a_n = 1 "
          "(θ̃_r = θ = 2, so φ̂ = 2^{2n+1} identifies n)",
          method="exact enumeration (Fractions) of the estimator HK12.GenEst.derivative's "
          "literal reference, orders < 12; its kernel: every draw must be 2^{2n+1} for some "
          "n < 12 or 0 (1e-9 relative), and a multinomial test at δ of the categories "
          "n = 0..5 and n >= 6 against (1/2)^{n+1}", delta=DEFAULT_DELTA,
          detectable="reported per run (multinomial test)")
def check_proc3_line2(ctx):
    """HK12 Procedure 3 line 2: the geometric order, reference (exact) and kernel (test)."""
    est = estimators.get("HK12.GenEst.derivative", coefficients=[1.0] * 12, B=1.0)
    dist = enumerate_outcomes(lambda src: est.reference([F(1)], [F(1)], F(-1), src)[0],
                              max_depth=12)
    probs = {}
    for p, v in dist:
        probs[v] = probs.get(v, F(0)) + p
    ref_ok = all(probs.get(F(2) ** (2 * n + 1), F(0)) == F(1, 2 ** (n + 1)) for n in range(12))
    n = ctx.n(20_000, 400_000)
    vals = np.asarray(est.sample(np.array([1.0]), np.array([1.0]), -1.0, n=n,
                                 rng=ctx.rng).values, dtype=float).ravel()
    orders = np.full(vals.shape, 12)                  # φ̂ = 0: an order >= 12 (a_n = 0 there)
    nz = vals != 0
    orders[nz] = np.rint((np.log2(np.maximum(np.abs(vals[nz]), 1.0)) - 1) / 2).astype(int)
    orders = np.clip(orders, 0, 12)
    written = np.where(orders < 12, 2.0 ** (2 * orders + 1), 0.0)
    impossible = int(np.sum(np.abs(vals - written) > 1e-9 * np.abs(written)))
    if impossible:
        bad = float(vals[np.abs(vals - written) > 1e-9 * np.abs(written)][0])
        return Result(Status.FAIL, {"reference_exact": ref_ok, "kernel_n": n,
                                    "impossible_kernel_draws": impossible}, detectable=0.0,
                      counterexample={"impossible_kernel_draw": bad})
    counts = np.bincount(np.minimum(orders, 6), minlength=7)
    expected = np.array([0.5 ** (j + 1) for j in range(6)] + [0.5 ** 6])
    test = stats.multinomial_test(counts, expected, delta=ctx.delta)
    ok = ref_ok and test.status == "PASS"
    return Result(Status.PASS if ok else Status.FAIL,
                  {"reference_exact": ref_ok, "kernel_n": n, "kernel_test": test.status,
                   "worst_discrepancy": float(test.worst_discrepancy)},
                  detects=categorical_detects(expected, n, ctx.delta / expected.size),
                  detectable=f"a category probability off by more than {float(test.detectable):.3g}")


def _genest_leaves(w, x, y, n, B):
    coeffs = [F(0)] * n + [F(1)]
    dist = enumerate_outcomes(lambda src: ref_est.hk12_genest(w, x, y, coeffs, B, src),
                              max_depth=n + 1)
    out = {}
    for p, (v, a) in dist:                             # the other orders give φ̂ = 0 (a_j = 0)
        if v != 0:
            out[(v, a)] = out.get((v, a), F(0)) + p
    return out


@register("HK12.Proc3.lines4-6", citation="HK12 Proc. 3 lines 4-6 and 14 (n <= 2 log₂ N)",
          statement="for n <= 2 log₂ N each θ̃_r draws one j w.p. w[j]²/‖w‖₂², observes x[j] "
          "and is ‖w‖₂²x[j]/w[j] − y; φ̂ = 2^{n+1}a_nθ̃_1···θ̃_n",
          assumptions="w ≠ 0", method="exact: the reference's outcomes (value, observed "
          "attributes) at order n = 1 (B = 1: N = 4) against those written from the lines, at "
          "w = (1/2, −1/4, 1/3), x = (1, 1/2, −1), y = 1/5", delta=0.0, detectable=0.0)
def check_proc3_lines4_6(ctx):
    """HK12 Procedure 3 lines 4-6 and 14 (one factor, single draw)."""
    w, x, y = [F(1, 2), F(-1, 4), F(1, 3)], [F(1), F(1, 2), F(-1)], F(1, 5)
    ns = sum(v * v for v in w)
    want = {}
    for j in range(3):
        key = (4 * (ns * x[j] / w[j] - y), frozenset({j}))       # 2^{1+1}·a_1·θ̃_1
        want[key] = want.get(key, F(0)) + F(1, 4) * w[j] ** 2 / ns  # Pr[n = 1] = 1/4
    got = _genest_leaves(w, x, y, 1, F(1))
    return Result(Status.PASS if got == want else Status.FAIL,
                  {"outcomes": len(want), "equal": got == want}, detectable=0.0, detects=1.0)


@register("HK12.Proc3.lines9-11", citation="HK12 Proc. 3 lines 9-11 and 14 (n > 2 log₂ N)",
          statement="for n > 2 log₂ N each θ̃_r is the mean of N i.i.d. draws ‖w‖₂²x[j_s]/w[j_s] − y, "
          "j_s ∝ w[j]², observing x[j_1..j_N]; φ̂ = 2^{n+1}a_nθ̃_1···θ̃_n",
          assumptions="w ≠ 0", method="exact: the reference's outcome distribution at order "
          "n = 3 with B = 3/5 (N = 2, 2 log₂ N = 2) against the one written from the lines "
          "(three independent means of two draws), d = 2, w = (1/2, −1/3), x = (1, 1/2), y = 1/4",
          delta=0.0, detectable=0.0)
def check_proc3_lines9_11(ctx):
    """HK12 Procedure 3 lines 9-11 and 14 (averaged factors)."""
    w, x, y = [F(1, 2), F(-1, 3)], [F(1), F(1, 2)], F(1, 4)
    ns = sum(v * v for v in w)
    p = [v * v / ns for v in w]

    def lines(src):
        prod, seen = F(1), set()
        for _r in range(3):
            js = [src.categorical(p) for _s in range(2)]
            seen.update(js)
            prod *= sum(ns * x[j] / w[j] for j in js) / 2 - y
        return 16 * prod, frozenset(seen)

    want = {}
    for q, (v, a) in enumerate_outcomes(lines):
        if v != 0:
            want[(v, a)] = want.get((v, a), F(0)) + q / 16             # Pr[n = 3] = 1/16
    got = _genest_leaves(w, x, y, 3, F(3, 5))
    return Result(Status.PASS if got == want else Status.FAIL,
                  {"outcomes": len(want), "equal": got == want}, detectable=0.0, detects=1.0)


# --- HK12 Alg. 4 (AESVR) lines 1-2 ---------------------------------------------------------------

@register("HK12.Alg4.line1", citation="HK12 Alg. 4 line 1, eq. (7)",
          statement="a_{2n} = 0 and a_{2n+1} = (2/√π)(−1)ⁿ/(n!(2n + 1)): the coefficients the "
          "reference and the kernels use", assumptions="n >= 0",
          method="exact formula (sympy, evaluated to 30 digits) against "
          "laocheck.estimators.aesvr_coefficients (the kernels') and "
          "laocheck.reference.estimators.aesvr_coefficients (the reference's; typed twice, "
          "they must also agree exactly), relative 1e-15, all 341 coefficients", delta=0.0,
          detectable="a relative difference above 1e-15")
def check_alg4_line1(ctx):
    """HK12 Alg. 4 line 1: eq. (7)."""
    a = estimators.aesvr_coefficients()
    worst = 0.0
    for m_, v in enumerate(a):
        if m_ % 2 == 0:
            exact = 0.0
        else:
            n = m_ // 2
            exact = float(sp.N(2 / sp.sqrt(sp.pi) * (-1) ** n / (sp.factorial(n) * (2 * n + 1)), 30))
        worst = max(worst, abs(float(v) - exact) / max(abs(exact), 1e-300) if exact else abs(float(v)))
    agree = bool(np.array_equal(a, ref_est.aesvr_coefficients()))
    ok = worst <= 1e-15 and agree
    return Result(Status.PASS if ok else Status.FAIL,
                  {"worst_relative_difference": worst, "coefficients": len(a),
                   "reference_and_kernels_agree": agree},
                  detectable="a relative difference above 1e-15", detects=1.0 + 1e-15)


@register("HK12.Alg4.line2", citation="HK12 Alg. 4 line 2 (x′ ← x/ε; y± ← (y ± δ)/ε; "
          "φ̃ ← ½[GenEst(w, x′, y⁺) + GenEst(w, x′, y⁻)]) and Output (‖w̄‖₂ <= B)",
          statement="E[φ̃] = ½[f′(wᵀx/ε − (y + δ)/ε) + f′(wᵀx/ε − (y − δ)/ε)] for the reference's "
          "φ̃; the AESVR learner's output has ‖w̄‖₂ <= B", assumptions="ε > 0, δ >= 0",
          method="exact enumeration (Fractions) of the reference residual per order n <= 2 of f′ "
          "on three rational instances (orders above n lumped: φ̂ = 0 there); seeded runs of "
          "laocheck.learners.AESVR (d = 10, k = 2, m = 300, B in {0.5, 2}, η = 10/B: the "
          "projection active) for the norms of the last iterate and the output",
          delta=0.0, detectable=0.0)
def check_alg4_line2(ctx):
    """HK12 Alg. 4 line 2: the smoothed residual, reference exactly, learner's output norm."""
    cases = [([F(1, 2), F(-1, 3)], [F(1, 2), F(1, 2)], F(1, 4), F(1), F(1, 2), F(1, 3)),
             ([F(1, 3)], [F(-1)], F(-1, 2), F(1, 2), F(1), F(0)),
             ([F(1, 4), F(1, 4), F(-1, 2)], [F(1, 3), F(-1, 3), F(1, 3)], F(0), F(3, 4), F(1, 2), F(2))]
    bad = []
    for w, x, y, B, eps, dl in cases:
        inst = {"w": w, "x": x, "y": y, "B": B, "eps": eps, "delta": dl, "k": 1}
        inner = sum(a * b for a, b in zip(w, x)) / eps
        for n in range(3):
            mean = proofs_hk12._aesvr_dist(inst, n, "residual").expectation()
            if mean != ((inner - (y + dl) / eps) ** n + (inner - (y - dl) / eps) ** n) / 2:
                bad.append({"n": n, "w": fstr(w), "x": fstr(x), "y": str(y)})
    worst = 0.0
    for B in (0.5, 2.0):
        X, y = _data(ctx.rng, ctx.n(300, 3000), 10, 2)
        est = learners.AESVR(k=2, B=B, eps=0.5, delta=0.1, eta=10.0 / B,
                    random_state=ctx.spawn()).fit(X, B * y)
        worst = max(worst, float(np.linalg.norm(est.coef_)) / B,
                    float(np.linalg.norm(est.w_)) / B)
    ok = not bad and worst <= 1 + 1e-12
    return Result(Status.PASS if ok else Status.FAIL,
                  {"reference_mismatches": len(bad),
                   "largest_norm2_over_B_of_last_iterate_and_output": worst},
                  counterexample=bad[0] if bad else None, detectable=0.0, detects=1.0 + 1e-12)


# --- HK12 Procedure 3 and Alg. 4 line 2 in the estimator kernels ---------------------------------
#
# The kernels (``laocheck.estimators``: ``HK12.GenEst.derivative``, ``HK12.AESVR.residual``) do
# not record their draws; on instances whose outcomes are told apart by their values (distinct
# rational θ̃ per index, a few nonzero a_n), each kernel draw is matched to the outcome written
# from the box's lines (value exact to 1e-9 relative, attributes read exactly), an impossible
# draw is a FAIL, and the frequencies are tested against the lines' exact law at δ.

_P3_W, _P3_X, _P3_Y = (F(1, 2), F(-1, 3)), (F(3, 5), F(1, 2)), F(1, 4)


def _ceil_4b2(b):
    """HK12 Proc. 3 line 1, N = ⌈4B²⌉, from its definition (exact)."""
    q = 4 * F(b) ** 2
    n = q.numerator // q.denominator
    return n if n == q else n + 1


def _proc3_written(src, w, x, y, coeffs, N):
    """One φ̂ of HK12 Procedure 3 written from its lines (orders >= len(coeffs), where
    a_n = 0, lumped: their value is 0 and their attributes are not compared)."""
    top = len(coeffs)
    n = src.categorical([F(1, 2 ** (j + 1)) for j in range(top)] + [F(1, 2 ** top)])   # line 2
    if n == top:
        return F(0), None
    ns = sum(v * v for v in w)
    p = [v * v / ns for v in w]
    small = 2 ** n <= N * N                                       # line 3: n <= 2 log₂ N
    prod, seen = F(1), set()
    for _r in range(n):
        if small:                                                 # lines 4-6
            j = src.categorical(p)
            seen.add(j)
            theta = ns * x[j] / w[j] - y
        else:                                                     # lines 9-11
            js = [src.categorical(p) for _s in range(N)]
            seen.update(js)
            theta = sum(ns * x[j] / w[j] for j in js) / N - y
        prod *= theta
    value = 2 ** (n + 1) * coeffs[n] * prod                        # line 14
    return value, (None if value == 0 else len(seen))


def _law(dist):
    out = {}
    for p, key in dist:
        out[key] = out.get(key, F(0)) + p
    return out


def _kernel_against_law(ctx, est, w, x, y, law, figures):
    """Match every kernel draw to an outcome of ``law`` ({(value, attributes or None): p}) and
    test the frequencies (multinomial, δ)."""
    keys = sorted(law, key=lambda k_: (k_[0], -1 if k_[1] is None else k_[1]))
    vals = np.array([float(k_[0]) for k_ in keys])
    atts = np.array([-1 if k_[1] is None else k_[1] for k_ in keys])
    n = ctx.n(20_000, 400_000)
    draws = est.sample(np.array([float(v) for v in w]), np.array([float(v) for v in x]),
                       float(y), n=n, rng=ctx.rng)
    got_v = np.asarray(draws.values, dtype=float).ravel()
    got_a = np.asarray(draws.attributes, dtype=np.int64).ravel()
    rows, sizes = distinct_rows(np.c_[got_v, got_a])
    counts = np.zeros(len(keys), dtype=np.int64)
    figs = {"n": n, "outcomes": len(keys), **figures}
    for r, (v, a) in enumerate(rows):
        close = np.abs(vals - v) <= 1e-9 * (1 + np.abs(vals))
        hit = np.flatnonzero(close & ((atts == a) | (atts == -1)))
        if hit.size == 0:
            return Result(Status.FAIL, figs, detectable=0.0,
                          counterexample={"impossible_kernel_draw": float(v), "attributes": int(a),
                                          "instance": {"w": fstr(w), "x": fstr(x), "y": str(y)}})
        counts[hit[0]] += int(sizes[r])
    return multinomial_verdict(ctx, counts, keys, law, n, figs)


def _smallest_factor(results):
    """The smallest ``detects`` of the cases (a violation in every case is found by the most
    sensitive one); None when no case has one."""
    found = [r.detects for r in results if r.detects is not None]
    return min(found) if found else None


def _genest_kernel_check(ctx, cases, label):
    figs, results = {}, []
    for B, coeffs in cases:
        N = _ceil_4b2(B)
        law = _law(enumerate_outcomes(_proc3_written, _P3_W, _P3_X, _P3_Y, coeffs, N))
        est = estimators.get("HK12.GenEst.derivative", coefficients=[float(a) for a in coeffs],
                             B=float(B))
        res = _kernel_against_law(ctx, est, _P3_W, _P3_X, _P3_Y, law,
                                  {"B": str(B), "N": N, "a": fstr(coeffs)})
        figs[f"B={B}"] = res.figures
        if res.status != Status.PASS:
            return Result(res.status, figs, counterexample=res.counterexample,
                          detectable=res.detectable, note=label, detects=res.detects)
        results.append(res)
    return Result(Status.PASS, figs, detectable=results[-1].detectable,
                  detects=_smallest_factor(results))


_P3_KERNEL = ("exact law of the box's lines (Fractions, enumerated; orders with a_n = 0 at and "
              "above len(a) lumped as value 0) at w = (1/2, −1/3), x = (3/5, 1/2), y = 1/4, "
              "whose θ̃ per index are distinct; every draw of the kernel (estimator "
              "HK12.GenEst.derivative) matched to an outcome (value 1e-9 relative, attributes "
              "read exactly) and a multinomial test at δ of the frequencies")


@register("HK12.Proc3.line1.kernel", citation="HK12 Proc. 3 lines 1 and 3 (N = ⌈4B²⌉; n <= "
          "2 log₂ N) in the GenEst kernel", statement="the kernel's averaged factors are means of "
          "exactly N = ⌈4B²⌉ draws, and it takes the single-draw branch exactly for n <= 2 log₂ N",
          assumptions="w ≠ 0", method=_P3_KERNEL + "; B = 1/2 (4B² = 1, N = 1, only n = 0 is "
          "'small'; a_3 = 1) and B = 7/10 (4B² = 1.96, N = 2, 2 log₂ 2 = 2: a_2 = a_3 = 1 on both "
          "sides of the threshold); a wrong N (a floor for the ceiling) or threshold gives "
          "impossible values",
          delta=DEFAULT_DELTA, detectable="an impossible draw, or a category off (figures)")
def check_proc3_line1_kernel(ctx):
    """HK12 Procedure 3 lines 1 and 3 in the kernel."""
    return _genest_kernel_check(ctx, [(F(1, 2), [F(0)] * 3 + [F(1)]),
                                      (F(7, 10), [F(0)] * 2 + [F(1), F(1)])], "line 1")


@register("HK12.Proc3.lines4-6.kernel", citation="HK12 Proc. 3 lines 2, 4-6 and 14 (n <= 2 log₂ N) "
          "in the GenEst kernel", statement="for n <= 2 log₂ N the kernel's φ̂ is 2^{n+1}a_nθ̃_1···θ̃_n "
          "with θ̃_r = ‖w‖₂²x[j]/w[j] − y, j ∝ w[j]², and reads the x[j] drawn",
          assumptions="w ≠ 0", method=_P3_KERNEL + "; B = 1 (N = 4, orders <= 4 single-draw), "
          "a = (1, −1/2, 1/3)", delta=DEFAULT_DELTA,
          detectable="an impossible draw, or a category off (figures)")
def check_proc3_lines4_6_kernel(ctx):
    """HK12 Procedure 3 lines 4-6 and 14 in the kernel."""
    return _genest_kernel_check(ctx, [(F(1), [F(1), F(-1, 2), F(1, 3)])], "lines 4-6")


@register("HK12.Proc3.lines9-11.kernel", citation="HK12 Proc. 3 lines 9-11 and 14 (n > 2 log₂ N) "
          "in the GenEst kernel", statement="for n > 2 log₂ N each of the kernel's factors is the "
          "mean of N i.i.d. ‖w‖₂²x[j_s]/w[j_s] − y, j_s ∝ w[j]², reading x[j_1..j_N]",
          assumptions="w ≠ 0", method=_P3_KERNEL + "; B = 3/5 (N = 2, 2 log₂ N = 2), a_3 = 1 "
          "(three averaged factors) and a_2 = −1 (the last single-draw order)",
          delta=DEFAULT_DELTA, detectable="an impossible draw, or a category off (figures)")
def check_proc3_lines9_11_kernel(ctx):
    """HK12 Procedure 3 lines 9-11 and 14 in the kernel."""
    return _genest_kernel_check(ctx, [(F(3, 5), [F(0), F(0), F(-1), F(1)])], "lines 9-11")


@register("HK12.Alg4.line2.kernel", citation="HK12 Alg. 4 line 2 (x′ ← x/ε; y± ← (y ± δ)/ε; "
          "φ̃ ← ½[GenEst(w, x′, y⁺) + GenEst(w, x′, y⁻)]) in the AESVR residual kernel",
          statement="the kernel's φ̃ is the mean of two independent GenEst draws on (x/ε, (y + δ)/ε) "
          "and (x/ε, (y − δ)/ε)", assumptions="ε > 0, δ >= 0, w ≠ 0",
          method="the estimator HK12.AESVR.residual with its coefficient array set to "
          "a = (1, 1/2) (line 1's eq. (7) has infinitely many orders; line 2 is linear in the "
          "a_n): every kernel draw matched by value (1e-9 relative) to the exact law of ½(φ̂⁺ + "
          "φ̂⁻) written from the lines (Fractions, orders >= 2 lumped as 0), at w = (1/2, −1/3), "
          "x = (3/5, 1/2), y = 1/4, B = 1, (ε, δ) in {(1/2, 1/4), (2, 0), (1/2, 1)}: δ = 0 and "
          "δ = B the ends of HK12 Sec. 4's 0 <= δ <= B; multinomial test at δ",
          delta=DEFAULT_DELTA, detectable="an impossible draw, or a category off (figures)")
def check_alg4_line2_kernel(ctx):
    """HK12 Alg. 4 line 2 in the AESVR residual kernel."""
    coeffs = [F(1), F(1, 2)]
    N = _ceil_4b2(1)
    figs, last, done = {}, None, []
    for eps, dl in ((F(1, 2), F(1, 4)), (F(2), F(0)), (F(1, 2), F(1))):
        xs = tuple(v / eps for v in _P3_X)

        def line2(src, xs=xs, eps=eps, dl=dl):
            vp, _ = _proc3_written(src, _P3_W, xs, (_P3_Y + dl) / eps, coeffs, N)
            vm, _ = _proc3_written(src, _P3_W, xs, (_P3_Y - dl) / eps, coeffs, N)
            return (vp + vm) / 2, None

        law = _law(enumerate_outcomes(line2))
        est = estimators.get("HK12.AESVR.residual", B=1.0, eps=float(eps), delta=float(dl))
        est.coefficients = np.array([float(a) for a in coeffs])
        res = _kernel_against_law(ctx, est, _P3_W, _P3_X, _P3_Y, law,
                                  {"eps": str(eps), "delta": str(dl)})
        figs[f"eps={eps},delta={dl}"] = res.figures
        if res.status != Status.PASS:
            return Result(res.status, figs, counterexample=res.counterexample,
                          detectable=res.detectable, detects=res.detects)
        last = res
        done.append(res)
    return Result(Status.PASS, figs, detectable=last.detectable, detects=_smallest_factor(done))

for _paper, _cite, _est in (("HK12.Alg2", "HK12 Alg. 2 lines 1, 3 and 9", "HK12.AELR.residual"),):
    register(f"{_paper}.line9", citation=_cite,
             statement="choose j_t w.p. |w_t[j]|/‖w_t‖₁ (line 9) is defined at every t, with "
             "z⁺_1 = z⁻_1 = 1_d (line 1) and w_t from line 3", assumptions=_LINE9_ASSUME[_paper],
             method="exact (Fractions): w_1 from lines 1 and 3", delta=0.0, detectable=0.0,
             expected=Status.ERRATUM, correction=f"{_paper}.line9_corrected", paper=_paper)(_line9_at_w1)
    register(f"{_paper}.line9_corrected", citation=_cite + " (laocheck's reading at w_t = 0)",
             statement="at w_t = 0 no j is drawn and φ̃_t = −y_t (⟨w_t, x_t⟩ = 0 is known), which is "
             "exactly unbiased; the reference and the kernel read no attribute there",
             assumptions="w_t = 0", method="exact enumeration of the reference; the kernel's "
             "draws (all equal to −y, no attribute)", delta=0.0, detectable=0.0,
             estimator_name=_est)(_line9_corrected_named)


for _paper, _where, _order in (("HK12.Alg2", "Algorithm 2 (AELR), line 9 at t = 1", (3, 4, 9)),):
    note_erratum(
        f"{_paper}.line9", where=_where, order=_order,
        literal="1: Initialize z⁺_1 ← 1_d, z⁻_1 ← 1_d; 3: w_t ← (z⁺_t − z⁻_t)B/(‖z⁺_t‖₁ + "
                "‖z⁻_t‖₁); 9: choose j_t ∈ [d] with probability |w_t[j]|/‖w_t‖₁.",
        why="Lines 1 and 3 give w_1 = 0 on every input, so line 9's distribution is 0/0 at t = 1 "
            "(exact).",
        corrected="At w_t = 0 the inner product is 0 without a draw: φ̃_t = −y_t (no attribute "
                  "read) is exactly unbiased; laocheck's reference and kernels do this.")
