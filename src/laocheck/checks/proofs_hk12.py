"""The displayed steps of HK12's proofs of Theorem 3.1 (AERR) and Theorem 3.4 (AELR), one check
each (``HK12.Thm3.1.proof.step<N>``, N in printed order).

Each displayed (in)equality of a proof is checked as printed:

* steps about expectations over the algorithm's randomness (and over the training set) are
  evaluated exactly on small instances (d = 2, k = 1, m <= 3, and a distribution D with two
  support points where the step takes the expectation over D): every path of the box (HK12
  Alg. 1 or Alg. 2, through the literal estimator of :mod:`laocheck.reference.estimators`) is
  enumerated, so E[·] is an exact weighted sum; G² is the largest conditional second moment
  E_t‖g̃_t‖² (Alg. 1) or ‖E_t[g̃_t²]‖∞ (Alg. 2) over every path and step, itself enumerated;
  instances come from the check's seeded generator and the worst ratio lhs/rhs is reported;
* the algebra between displays (a step size substituted into a bound) is checked with sympy.

The comparator w* enters the steps linearly (step 1) or through L(w*) (steps 2, 3): the checks
take the worst w* in the ball in closed form (step 1) or a minimiser of the loss over the ball
(projected gradient descent, steps 2, 3), which makes lhs as large as the step allows.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import sympy as sp

from ..reference.estimators import hk12_clip, hk12_gradient
from ..stats.exact import enumerate_outcomes
from ._proofs import ball_point, ratio_verdict, sympy_zero, worst_instance
from ._registry import Result, Status, register

__all__ = []

_d, _k, _m, _B, _G, _eta = sp.symbols("d k m B G eta", positive=True)


# --- the boxes, enumerable ---------------------------------------------------------------------

def _second_moment(w, x, y, k, lasso, cache):
    """E_t‖g̃‖² (Alg. 1) or ‖E_t[g̃²]‖∞ (Alg. 2) at (w, x, y), by enumeration of one draw
    (memoised per instance: the enumeration replays shared path prefixes)."""
    key = (tuple(w), tuple(x), float(y))
    if key in cache:
        return cache[key]
    cache[key] = _second_moment_uncached(w, x, y, k, lasso)
    return cache[key]


def _second_moment_uncached(w, x, y, k, lasso):
    dist = enumerate_outcomes(lambda src: hk12_gradient(w, x, y, k, src, lasso=lasso)[0])
    if lasso:
        return float(np.max(sum(float(p) * g * g for p, g in dist)))
    return sum(float(p) * float(g @ g) for p, g in dist)


def _aelr_w(zp, zm, B):
    return (zp - zm) * B / (zp.sum() + zm.sum())      # Alg. 2 line 3


def _path(src, inst, eta, lasso, from_d):
    """One path of HK12 Alg. 1 (``lasso=False``, with w_1) or Alg. 2 (z± = 1): per path the
    sums Σ g_tᵀw_t, Σ g_t (true gradients), Σ ℓ_t(w_t), the iterates' mean, the largest
    conditional second moment, and the examples' indices."""
    X, Y, B, k, m = inst["X"], inst["Y"], inst["B"], inst["k"], inst["m"]
    d = X.shape[1]
    w = np.array(inst["w1"], dtype=float)
    zp, zm = np.ones(d), np.ones(d)
    lin, gsum, loss, G2, risk = 0.0, np.zeros(d), 0.0, 0.0, 0.0
    iterates, idx = [], []
    pw = np.array([float(q) for q in inst["p"]])
    for t in range(m):
        if lasso:
            w = _aelr_w(zp, zm, B)
        i = src.categorical(inst["p"]) if from_d else t
        idx.append(i)
        x, y = X[i], Y[i]
        G2 = max(G2, _second_moment(w, x, y, k, lasso, inst.setdefault("_cache", {})))
        g_true = (w @ x - y) * x                      # ∇ℓ_t(w_t), ℓ_t(w) = ½(wᵀx_t − y_t)²
        lin += float(g_true @ w)
        gsum = gsum + g_true
        loss += 0.5 * float(w @ x - y) ** 2
        if from_d:
            risk += _risk(w, X, Y, pw)
        iterates.append(w.copy())
        g, _ = hk12_gradient(w, x, y, k, src, lasso=lasso)
        if lasso:
            gbar = hk12_clip(g, eta)                  # Alg. 2 lines 13-15
            zp, zm = zp * np.exp(-eta * gbar), zm * np.exp(eta * gbar)
        else:
            v = w - eta * g                           # Alg. 1 lines 11-12
            w = v * B / max(np.linalg.norm(v), B)
    w_bar = np.mean(iterates, axis=0)
    risk_bar = _risk(w_bar, X, Y, pw) if from_d else 0.0
    return lin, tuple(gsum), loss, tuple(w_bar), G2, tuple(idx), risk, risk_bar


def _risk(w, X, Y, pw):
    """L_D(w) = ½ E_D (wᵀx − y)² for D on the rows of X with probabilities pw."""
    return 0.5 * float(np.sum(pw * (X @ w - Y) ** 2))


def _enumerate(inst, eta, lasso, from_d=False):
    dist = enumerate_outcomes(_path, inst, eta, lasso, from_d)
    probs = [float(p) for p, _ in dist]
    vals = [v for _, v in dist]
    return probs, vals


def _instance(rng, *, lasso, with_d=False):
    d, k = 2, 1
    m = int(rng.integers(2, 4))
    B = float(np.exp(rng.uniform(np.log(0.25), np.log(4.0))))
    n = 2 if with_d else m
    if lasso:                                         # ‖x‖∞ <= 1, |y| <= B
        X = np.array([ball_point(rng, d, 1.0, np.inf, boundary=0.6) for _ in range(n)])
    else:                                             # ‖x‖₂ <= 1, |y| <= B
        X = np.array([ball_point(rng, d, 1.0, 2, boundary=0.6) for _ in range(n)])
    Y = B * rng.uniform(-1, 1, size=n)
    w1 = ball_point(rng, d, B, 2, boundary=0.5)
    if not np.any(w1):
        w1[0] = B
    pr = Fraction(int(rng.integers(1, 8)), 8)
    return {"X": X, "Y": Y, "B": B, "k": k, "m": m, "w1": w1, "p": [pr, 1 - pr]}


def _min_loss(X, Y, weights, B, p):
    """min over the L_p ball (p = 1, 2) of ½ Σ weights (wᵀx − y)², by projected gradient
    descent (a convex quadratic: 2000 steps of size 1/L reach rounding accuracy in d = 2)."""
    H = (X.T * weights) @ X
    b = (X.T * weights) @ Y
    L = max(np.linalg.eigvalsh(H).max(), 1e-12)
    w = np.zeros(X.shape[1])
    for _ in range(2000):
        w = _project(w - (H @ w - b) / L, B, p)
    return 0.5 * float(np.sum(weights * (X @ w - Y) ** 2)), w


def _project(v, B, p):
    if p == 2:
        return v * B / max(np.linalg.norm(v), B)
    a = np.abs(v)
    if a.sum() <= B:
        return v
    mu = np.sort(a)[::-1]
    cums = np.cumsum(mu)
    rho = np.nonzero(mu - (cums - B) / np.arange(1, len(mu) + 1) > 0)[0][-1]
    theta = (cums[rho] - B) / (rho + 1)
    return np.sign(v) * np.maximum(a - theta, 0.0)


def _g_lemma(B, d, k):
    return 2 * B * math.sqrt(2 * d / k)               # G = 2B√(2d/k) (Lemma 3.3 / Lemma 3.8)


# --- Theorem 3.1 (AERR) ------------------------------------------------------------------------

@register("HK12.Thm3.1.proof.step1", citation="HK12 Thm 3.1 (proof, first display)",
          statement="E[Σ_t g_tᵀ(w_t − w*)] <= 2B²/η + (η/2)G²m, G² := max_t E_t‖g̃_t‖² "
          "(expectation of (4), E_t g̃_t = g_t)",
          assumptions="‖x‖₂ <= 1, |y| <= B, ‖w*‖₂ <= B, ‖w_1‖₂ <= B, any η > 0",
          method="exact enumeration of every path of Alg. 1 (d = 2, k = 1, m <= 3) on seeded "
          "instances; worst w* in closed form (E[Σ g_tᵀw_t] + B‖E Σ g_t‖₂); worst ratio lhs/rhs",
          delta=0.0, detectable=0.0)
def check_thm31_step1(ctx):
    """HK12 Thm 3.1, proof, display 1: the expectation of Lemma 3.2's (4)."""
    def ratio(inst):
        probs, vals = _enumerate(inst, inst["eta"], False)
        lin = sum(p * v[0] for p, v in zip(probs, vals))
        gs = sum(p * np.array(v[1]) for p, v in zip(probs, vals))
        G2 = max(v[4] for v in vals)
        lhs = lin + inst["B"] * float(np.linalg.norm(gs))
        rhs = 2 * inst["B"] ** 2 / inst["eta"] + inst["eta"] / 2 * G2 * inst["m"]
        return lhs / rhs

    def draw(rng):
        inst = _instance(rng, lasso=False)
        inst["eta"] = float(np.exp(rng.uniform(np.log(0.05), np.log(20.0)))) / inst["B"]
        return inst

    return ratio_verdict(worst_instance(ctx.rng, ctx.n(12, 200), draw, ratio),
                         figures={"instances": ctx.n(12, 200)})


@register("HK12.Thm3.1.proof.step2", citation="HK12 Thm 3.1 (proof, second display)",
          statement="for η = 2B/(G√m): E[(1/m)Σ_t ℓ_t(w_t)] <= (1/m)Σ_t ℓ_t(w*) + 2BG/√m",
          assumptions="‖x‖₂ <= 1, |y| <= B, ‖w*‖₂ <= B; G >= max_t (E_t‖g̃_t‖²)^½ (here "
          "G = 2B√(2d/k), Lemma 3.3)",
          method="sympy: (1/m)(2B²/η + (η/2)G²m) at η = 2B/(G√m) is 2BG/√m; exact enumeration "
          "of Alg. 1's paths on seeded instances with w* the loss minimiser over the ball",
          delta=0.0, detectable=0.0)
def check_thm31_step2(ctx):
    """HK12 Thm 3.1, proof, display 2 (convexity and the choice of η)."""
    eta_p = 2 * _B / (_G * sp.sqrt(_m))
    algebra = sympy_zero((2 * _B ** 2 / eta_p + eta_p / 2 * _G ** 2 * _m) / _m
                         - 2 * _B * _G / sp.sqrt(_m))

    def ratio(inst):
        B, m = inst["B"], inst["m"]
        G = _g_lemma(B, 2, inst["k"])
        probs, vals = _enumerate(inst, 2 * B / (G * math.sqrt(m)), False)
        loss = sum(p * v[2] for p, v in zip(probs, vals)) / m
        best, _ = _min_loss(inst["X"], inst["Y"], np.full(m, 1.0 / m), B, 2)
        return (loss - best) / (2 * B * G / math.sqrt(m))

    worst = worst_instance(ctx.rng, ctx.n(12, 200), lambda r: _instance(r, lasso=False), ratio)
    res = ratio_verdict(worst, figures={"algebra": algebra})
    if not algebra:
        return Result(Status.FAIL, res.figures, note="the algebra of the step does not hold")
    return res


@register("HK12.Thm3.1.proof.step3", citation="HK12 Thm 3.1 (proof, third display)",
          statement="E[(1/m)Σ_t L_D(w_t)] <= L_D(w*) + 4B²√(2d/(km)) (expectation over the "
          "training set, G <= 2B√(2d/k))",
          assumptions="‖x‖₂ <= 1, |y| <= B w.p. 1, ‖w*‖₂ <= B, η = 2B/(G√m)",
          method="sympy: 2BG/√m at G = 2B√(2d/k) is 4B²√(2d/(km)); exact enumeration over D^m "
          "(D with two support points) and Alg. 1's paths; w* minimises L_D over the ball",
          delta=0.0, detectable=0.0)
def check_thm31_step3(ctx):
    """HK12 Thm 3.1, proof, display 3 (expectation over the training set, Lemma 3.3's G)."""
    algebra = sympy_zero(2 * _B * (2 * _B * sp.sqrt(2 * _d / _k)) / sp.sqrt(_m)
                         - 4 * _B ** 2 * sp.sqrt(2 * _d / (_k * _m)))

    def ratio(inst):
        B, m, X, Y = inst["B"], inst["m"], inst["X"], inst["Y"]
        G = _g_lemma(B, 2, inst["k"])
        probs, vals = _enumerate(inst, 2 * B / (G * math.sqrt(m)), False, from_d=True)
        pw = np.array([float(q) for q in inst["p"]])
        total = sum(p * v[6] for p, v in zip(probs, vals)) / m     # E[(1/m) Σ_t L_D(w_t)]
        best, _ = _min_loss(X, Y, pw, B, 2)
        return (total - best) / (4 * B ** 2 * math.sqrt(2 * 2 / (inst["k"] * m)))

    worst = worst_instance(ctx.rng, ctx.n(3, 60),
                           lambda r: _instance(r, lasso=False, with_d=True), ratio)
    res = ratio_verdict(worst, figures={"algebra": algebra})
    if not algebra:
        return Result(Status.FAIL, res.figures, note="the algebra of the step does not hold")
    return res



# --- Theorem 3.4 (AELR) ------------------------------------------------------------------------

@register("HK12.Thm3.4.proof.step1", citation="HK12 Thm 3.4 (proof, first display)",
          statement="for η <= 1/(2G): E[Σ_t g_tᵀ(w_t − w*)] <= B(log 2d/η + 5ηG²m) "
          "(Lemmas 3.6 and 3.7 with E_t g̃_t = g_t), G² := max_t ‖E_t[g̃_t²]‖∞",
          assumptions="‖x‖∞ <= 1, |y| <= B, ‖w*‖₁ <= B, 0 < η <= 1/(2G)",
          method="exact enumeration of every path of Alg. 2 (d = 2, k = 1, m <= 3) on seeded "
          "instances, η = u/(2·2B√(2d/k)) with u uniform in (0, 1] (instances with η > 1/(2G) "
          "for the enumerated G are skipped); worst w* in closed form (B‖E Σ g_t‖∞)",
          delta=0.0, detectable=0.0)
def check_thm34_step1(ctx):
    """HK12 Thm 3.4, proof, display 1: Lemmas 3.6 and 3.7 combined."""
    skipped = []

    def ratio(inst):
        probs, vals = _enumerate(inst, inst["eta"], True)
        G2 = max(v[4] for v in vals)
        if inst["eta"] > 1 / (2 * math.sqrt(G2)):
            skipped.append(1)
            return math.nan
        lin = sum(p * v[0] for p, v in zip(probs, vals))
        gs = sum(p * np.array(v[1]) for p, v in zip(probs, vals))
        lhs = lin + inst["B"] * float(np.max(np.abs(gs)))
        rhs = inst["B"] * (math.log(4) / inst["eta"] + 5 * inst["eta"] * G2 * inst["m"])
        return lhs / rhs

    def draw(rng):
        inst = _instance(rng, lasso=True)
        inst["eta"] = float(rng.uniform(1e-3, 1.0)) / (2 * _g_lemma(inst["B"], 2, inst["k"]))
        return inst

    n = ctx.n(12, 200)
    return ratio_verdict(worst_instance(ctx.rng, n, draw, ratio),
                         figures={"instances": n, "skipped": len(skipped)})


@register("HK12.Thm3.4.proof.step2", citation="HK12 Thm 3.4 (proof, second display)",
          statement="choosing η = (1/G)√(log 2d/(5m)): E[L_D(w̄)] <= L_D(w*) + 2BG√(5 log 2d/m)",
          assumptions="‖x‖∞ <= 1, |y| <= B w.p. 1, ‖w*‖₁ <= B, m >= log 2d; G >= the largest "
          "(‖E_t[g̃_t²]‖∞)^½ (here G = 2B√(2d/k), Lemma 3.8 as used)",
          method="sympy: (B/m)(log 2d/η + 5ηG²m) at that η is 2BG√(5 log 2d/m); exact "
          "enumeration over D^m (two support points) and Alg. 2's paths; w* minimises L_D over "
          "the L1 ball", delta=0.0, detectable=0.0)
def check_thm34_step2(ctx):
    """HK12 Thm 3.4, proof, display 2 (the choice of η, convexity, Jensen)."""
    L = sp.log(2 * _d)
    eta_p = sp.sqrt(L / (5 * _m)) / _G
    algebra = sympy_zero(_B * (L / eta_p + 5 * eta_p * _G ** 2 * _m) / _m
                         - 2 * _B * _G * sp.sqrt(5 * L / _m))

    def ratio(inst):
        B, m, X, Y = inst["B"], inst["m"], inst["X"], inst["Y"]
        G = _g_lemma(B, 2, inst["k"])
        probs, vals = _enumerate(inst, math.sqrt(math.log(4) / (5 * m)) / G, True, from_d=True)
        pw = np.array([float(q) for q in inst["p"]])
        risk_bar = sum(p * v[7] for p, v in zip(probs, vals))
        best, _ = _min_loss(X, Y, pw, B, 1)
        return (risk_bar - best) / (2 * B * G * math.sqrt(5 * math.log(4) / m))

    worst = worst_instance(ctx.rng, ctx.n(3, 60),
                           lambda r: _instance(r, lasso=True, with_d=True), ratio)
    res = ratio_verdict(worst, figures={"algebra": algebra})
    if not algebra:
        return Result(Status.FAIL, res.figures, note="the algebra of the step does not hold")
    return res


@register("HK12.Thm3.4.proof.step3", citation="HK12 Thm 3.4 (proof, remark after display 2)",
          statement="for this choice of η we indeed have η <= 1/(2G), as m >= log 2d",
          assumptions="m >= log 2d, G > 0", method="sympy: 2Gη = √(4 log 2d/(5m)) <= √(4/5) < 1 "
          "at m = (1 + s) log 2d, s >= 0", delta=0.0, detectable=0.0)
def check_thm34_step3(ctx):
    """HK12 Thm 3.4, proof: the side condition η <= 1/(2G) of Lemma 3.7."""
    s = sp.symbols("s", nonnegative=True)
    L = sp.log(2 * _d)
    two_g_eta = sp.simplify(2 * _G * sp.sqrt(L / (5 * _m)) / _G).subs(_m, (1 + s) * L)
    sq = sp.simplify(two_g_eta ** 2)                  # = 4/(5(1 + s))
    worst = sp.simplify(sq.subs(s, 0))
    ok = sp.simplify(sq - sp.Rational(4, 5) / (1 + s)) == 0 and worst < 1
    return Result(Status.PASS if ok else Status.FAIL,
                  {"(2Gη)^2": str(sq), "largest_(2Gη)^2": str(worst)}, detectable=0.0)


@register("HK12.Thm3.4.proof.step4", citation="HK12 Thm 3.4 (proof, last sentence)",
          statement="putting G = 2B√(2d/k) (Lemma 3.8) in 2BG√(5 log 2d/m) gives the bound of the "
          "statement, 4B²√(10d log 2d/(km))", assumptions="d, k, m, B > 0",
          method="sympy", delta=0.0, detectable=0.0)
def check_thm34_step4(ctx):
    """HK12 Thm 3.4, proof: Lemma 3.8's G substituted into the bound."""
    L = sp.log(2 * _d)
    diff = (2 * _B * (2 * _B * sp.sqrt(2 * _d / _k)) * sp.sqrt(5 * L / _m)
            - 4 * _B ** 2 * sp.sqrt(10 * _d * L / (_k * _m)))
    ok = sympy_zero(diff)
    return Result(Status.PASS if ok else Status.FAIL, {"difference": str(sp.simplify(diff))},
                  detectable=0.0)
