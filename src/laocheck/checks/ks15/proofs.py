"""The displayed steps of KS15's proofs behind Theorems 3.1, 3.5 and 3.6 (full version with
appendix), one check each (``KS15.<Label>.proof.step<N>``, N in printed order).

* Theorem 3.1 (GAERR, Appendix B.1): (14) (Lemma B.1, OGD's regret), its expectation, the
  convexity step and the expectation over D; Lemma B.2's display (E_A φ̃ = wᵀx − y).
* Theorem 3.5 (DDAERR): its proof is one sentence ("follows directly from Theorem 3.1, Lemma
  3.4, equation (2) and the q_i of (4)"); the two computations it stands for are the steps.
* Theorem 3.6 rests on Lemma 3.10 (Appendix B.7, whose first display is the registered erratum
  ``KS15.Lemma3.10.proof_step_size``), which rests on Lemmas 3.8 (B.5) and 3.9 (B.6): their
  displays and the constants of their sentences are the steps here.

Methods: exact enumeration of every path of GAERR (KS15 Alg. 1 through the literal estimator
of :mod:`laocheck.reference.estimators`) and of the training set drawn from a two-point D, on
seeded instances with arbitrary q (the second phase of Alg. 2 is GAERR with the q of its line
12, fixed given the first phase); seeded adversarial search for (14); sympy for the algebra.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from ... import bounds, estimators
from ..._lazy import load
from ...reference.estimators import ks15_gradient, ks15_residual
from ...stats.exact import enumerate_outcomes
from .._errata import note_erratum
from .._proofs import ProofResult, ball_point, ratio_verdict, sympy_zero, worst_instance
from .._registry import Status, register
from .._search import adversarial_max

# start-up: sympy loads on first use, when a check runs; `laocheck list` reads only the
# registrations
sp = load("sympy")

__all__ = []


def _formula(key, **subs):
    """The expression of ``laocheck.bounds`` formula ``key`` (read when the check runs, so that a
    mutation of the formula is seen) in this module's symbols (ε, m₂), with ``subs`` (symbol
    name -> value) substituted; a ``Min(1, ε-expression)`` of Alg. 4 read as ε."""
    _eps, _m2 = sp.symbols("epsilon m_2", positive=True)
    expr = bounds.FORMULAS[key].expr.subs({bounds.SYMBOLS["eps"]: _eps, bounds.SYMBOLS["m2"]: _m2})
    expr = expr.replace(lambda e: isinstance(e, sp.Min), lambda e: _eps)
    return expr.subs({bounds.SYMBOLS[n]: v for n, v in subs.items()})


# The printed terms of the online bounds the proof steps apply, read by the checks at run time
# (the witnesses of laocheck.checks._witnesses change them in place): 2B²/η and (η/2)G² of Thm
# 3.1's displays (App. B.1) and of (16) (Lemma 3.8), log 2d/η and 5ηG² of Thm 4.1's last display
# (App. B.8) and of (9) (Thm 4.7).
_T31_DIAMETER = 2
_T31_VARIANCE = Fraction(1, 2)
_T41_ENTROPY = 1
_T41_VARIANCE = 5


def _ogd_bound(B, eta, G2, m):
    """Thm 3.1's 2B²/(ηm) + (η/2)G², with the printed constants of this module."""
    return _T31_DIAMETER * B ** 2 / (eta * m) + float(_T31_VARIANCE) * eta * G2


def _project(v, B):
    return v * B / max(np.linalg.norm(v), B)          # Alg. 1 line 12


def _cond_second_moment(w, x, y, k, q, cache=None):
    """E_t‖g̃_t‖² at (w, x, y) by enumeration of one draw (memoised per instance: the
    enumeration replays shared path prefixes)."""
    key = (tuple(w), tuple(x), float(y))
    if cache is not None and key in cache:
        return cache[key]
    dist = enumerate_outcomes(lambda src: ks15_gradient(w, x, y, k, q, src)[0])
    value = sum(float(p) * float(g @ g) for p, g in dist)
    if cache is not None:
        cache[key] = value
    return value


def _path(src, inst, eta):
    """One path of GAERR (KS15 Alg. 1) on m examples drawn from D (two support points): per
    path Σ g_tᵀw_t, Σ g_t, Σ ℓ_t(w_t), Σ ℓ_t(w*-free parts), Σ_t L_D(w_t), and per step the
    conditional E_t‖g̃_t‖² (enumerated)."""
    X, Y, B, k, m, q = inst["X"], inst["Y"], inst["B"], inst["k"], inst["m"], inst["q"]
    pw = np.array([float(v) for v in inst["p"]])
    d = X.shape[1]
    w = np.array(inst["w1"], dtype=float)
    lin, gsum, loss, risk = 0.0, np.zeros(d), 0.0, 0.0
    xsum, xy, yy = np.zeros((d, d)), np.zeros(d), 0.0
    second = []
    for _t in range(m):
        i = src.categorical(inst["p"])
        x, y = X[i], Y[i]
        second.append(_cond_second_moment(w, x, y, k, q, inst.setdefault("_cache", {})))
        g_true = (w @ x - y) * x                      # g_t = (w_tᵀx_t − y_t)x_t
        lin += float(g_true @ w)
        gsum = gsum + g_true
        loss += 0.5 * float(w @ x - y) ** 2
        xsum, xy, yy = xsum + np.outer(x, x), xy + y * x, yy + y * y
        risk += 0.5 * float(np.sum(pw * (X @ w - Y) ** 2))
        g, _ = ks15_gradient(w, x, y, k, q, src)
        w = _project(w - eta * g, B)
    return {"lin": lin, "gsum": gsum, "loss": loss, "risk": risk, "second": second,
            "xx": xsum, "xy": xy, "yy": yy}


def _paths(inst, eta):
    """Every path of :func:`_path` with its probability (a float of the exact one).

    The tree is expanded step by step: one step's draws (the example, then the estimator's
    draws) are enumerated once per node and each outcome extends the node, instead of
    replaying all m steps per leaf as ``enumerate_outcomes(_path, inst, eta)`` does. The
    leaves, their order (depth-first, first option first), their exact probabilities and
    their values (the same float operations in the same order) are those of the replay."""
    X, Y, B, k, m, q = inst["X"], inst["Y"], inst["B"], inst["k"], inst["m"], inst["q"]
    pw = np.array([float(v) for v in inst["p"]])
    d = X.shape[1]
    out = []
    # the example's exact probabilities, as the step's first draw has them
    example = {i: p for p, i in enumerate_outcomes(lambda src: src.categorical(inst["p"]))}

    def step(src, w):
        i = src.categorical(inst["p"])
        g, _ = ks15_gradient(w, X[i], Y[i], k, q, src)
        return [i, g]                                 # a list: the outcomes are never merged

    def expand(prob, w, acc, t):
        if t == m:
            lin, gsum, loss, risk, second, xsum, xy, yy = acc
            out.append((float(prob), {"lin": lin, "gsum": gsum, "loss": loss, "risk": risk,
                                      "second": list(second), "xx": xsum, "xy": xy,
                                      "yy": yy}))
            return
        lin, gsum, loss, risk, second, xsum, xy, yy = acc
        leaves = list(enumerate_outcomes(step, w))
        # E_t‖g̃_t‖² given the example i, from the step's own leaves: the estimator's outcomes
        # given i in their order, with the exact conditional probabilities, summed as
        # _cond_second_moment sums them (the same float)
        moments = {i: sum(float(p / example[i]) * float(g @ g) for p, (j, g) in leaves
                          if j == i) for i in example}
        for p, (i, g) in leaves:
            x, y = X[i], Y[i]
            g_true = (w @ x - y) * x                  # as in _path, operation by operation
            new = (lin + float(g_true @ w), gsum + g_true, loss + 0.5 * float(w @ x - y) ** 2,
                   risk + 0.5 * float(np.sum(pw * (X @ w - Y) ** 2)), second + (moments[i],),
                   xsum + np.outer(x, x), xy + y * x, yy + y * y)
            expand(prob * p, _project(w - eta * g, B), new, t + 1)

    expand(Fraction(1), np.array(inst["w1"], dtype=float),
           (0.0, np.zeros(d), 0.0, 0.0, (), np.zeros((d, d)), np.zeros(d), 0.0), 0)
    return out


def _instance(rng):
    d, k = 2, 1
    m = int(rng.integers(2, 4))
    B = float(np.exp(rng.uniform(np.log(0.25), np.log(4.0))))
    X = np.array([ball_point(rng, d, 1.0, 2, boundary=0.6) for _ in range(2)])
    Y = B * rng.uniform(-1, 1, size=2)
    w1 = ball_point(rng, d, B, 2, boundary=0.5)
    if not np.any(w1):
        w1[0] = B
    q0 = Fraction(int(rng.integers(1, 8)), 8)
    pr = Fraction(int(rng.integers(1, 8)), 8)
    eta = float(np.exp(rng.uniform(np.log(0.05), np.log(20.0)))) / B
    return {"X": X, "Y": Y, "B": B, "k": k, "m": m, "w1": w1, "q": [q0, 1 - q0],
            "p": [pr, 1 - pr], "eta": eta}


def _g2(paths, m):
    """G² = max_t E_{D,A}‖g̃_t‖² (KS15 Thm 3.1's definition: expectation over D and A)."""
    return max(sum(p * v["second"][t] for p, v in paths) for t in range(m))


def _min_risk(inst):
    """min over the L2 ball of L_D (projected gradient descent on a convex quadratic)."""
    pw = np.array([float(v) for v in inst["p"]])
    X, Y, B = inst["X"], inst["Y"], inst["B"]
    H, b = (X.T * pw) @ X, (X.T * pw) @ Y
    L = max(np.linalg.eigvalsh(H).max(), 1e-12)
    w = np.zeros(X.shape[1])
    for _ in range(2000):
        nxt = _project(w - (H @ w - b) / L, B)
        if np.array_equal(nxt, w):        # a fixed point: the remaining steps repeat it
            break
        w = nxt
    return 0.5 * float(np.sum(pw * (X @ w - Y) ** 2)), w


def _extreme_eta_instances():
    """Two instances (fresh dicts) on which one term of Thm 3.1's bound 2B²/(ηm) + (η/2)G²
    carries the whole bound, so that the display without the other term is refuted.

    B = 1, D uniform on (x, y) = ((1, 0), 1) and ((0, 1), 0): w* = (1, 0) = B·e₁, L_D(w*) = 0,
    and w_1 = −w* (‖w_1 − w*‖₂ = 2B, the diameter the term 2B²/η pays for), L_D(w_1) = 1. Every
    left side of the displays is at least its first step's gap L_D(w_1) − L_D(w*) = 1 over m
    (= 2): at η = 1/100 the iterates stay within ηmG of w_1 while (η/2)G² is below 1/10, so
    only 2B²/(ηm) = 100 covers the left side; at η = 100, 2B²/(ηm) = 1/100 is below the first
    step's gap, so only (η/2)G² does. Both lie outside the seeded η·B in [1/20, 20], where
    either term alone can hold at every instance drawn."""
    out = []
    for eta in (0.01, 100.0):
        out.append({"X": np.array([[1.0, 0.0], [0.0, 1.0]]), "Y": np.array([1.0, 0.0]),
                    "B": 1.0, "k": 1, "m": 2, "w1": np.array([-1.0, 0.0]),
                    "q": [Fraction(1, 2), Fraction(1, 2)], "p": [Fraction(1, 2), Fraction(1, 2)],
                    "eta": eta})
    return out


def _enumerated(ctx, ratio, fast=4, full=100, *, extremes=False):
    """The worst ratio over the seeded instances (and, with ``extremes``, the two of
    :func:`_extreme_eta_instances`, after them: the seeded draws are the same either way)."""
    n = ctx.n(fast, full)
    worst = worst_instance(ctx.rng, n, _instance, ratio)
    figures = {"instances": n}
    if extremes:
        fixed = _extreme_eta_instances()
        figures["fixed_instances"] = len(fixed)
        for inst in fixed:
            r = float(ratio(inst))
            if math.isfinite(r) and r > worst[0]:
                worst = (r, inst)
    return ratio_verdict(worst, figures=figures)


# --- Theorem 3.1 (Appendix B.1) ------------------------------------------------------------------

@register("KS15.Thm3.1.proof.step1", citation="KS15 Thm 3.1 (proof, App. B.1, eq. (14))",
          statement="Σ_t g̃_tᵀ(w_t − w*) <= 2B²/η + (η/2)Σ_t‖g̃_t‖² (Lemma B.1, Zinkevich 2003) for "
          "w_{t+1} = Π_B(w_t − ηg̃_t)", assumptions="‖w*‖₂ <= B, ‖w_1‖₂ <= B, any g̃_t, η > 0",
          method="seeded adversarial search (random starts + Nelder-Mead) over d = 2, m = 4 "
          "sequences; the worst w* in closed form (B‖Σ g̃_t‖); worst ratio",
          delta=0.0, detectable=0.0)
def check_thm31_step1(ctx):
    """KS15 Thm 3.1, proof: the OGD regret bound (14) as printed."""
    m, d = 4, 2

    def ratio(u):
        B, eta = math.exp(u[0]), math.exp(u[1])
        w = _project(u[2:4], B)
        g = u[4:].reshape(m, d)
        lin, sq = 0.0, 0.0
        for t in range(m):
            lin += float(g[t] @ w)
            sq += float(g[t] @ g[t])
            w = _project(w - eta * g[t], B)
        lhs = lin + B * float(np.linalg.norm(g.sum(0)))
        return lhs / (2 * B ** 2 / eta + eta / 2 * sq)

    worst = adversarial_max(ratio, 4 + m * d, ctx.rng, starts=ctx.n(100, 1000), refine=3)
    return ratio_verdict(worst)


@register("KS15.Thm3.1.proof.step2", citation="KS15 Thm 3.1 (proof, App. B.1, first display)",
          statement="E_{D,A}[Σ_t g_tᵀ(w_t − w*)] <= 2B²/η + (η/2)G²m, G² = max_t E_{D,A}‖g̃_t‖²",
          assumptions="‖x‖₂ <= 1, |y| <= B, ‖w*‖₂ <= B, any q", method="exact enumeration of "
          "GAERR's paths and of D^m (d = 2, k = 1, m <= 3, two support points); worst w* in "
          "closed form; worst ratio", delta=0.0, detectable=0.0)
def check_thm31_step2(ctx):
    """KS15 Thm 3.1, proof: the expectation of (14) with Lemma B.2."""
    def ratio(inst):
        paths = _paths(inst, inst["eta"])
        lin = sum(p * v["lin"] for p, v in paths)
        gs = sum(p * v["gsum"] for p, v in paths)
        lhs = lin + inst["B"] * float(np.linalg.norm(gs))
        return lhs / (_T31_DIAMETER * inst["B"] ** 2 / inst["eta"]
                      + float(_T31_VARIANCE) * inst["eta"] * _g2(paths, inst["m"]) * inst["m"])
    return _enumerated(ctx, ratio, extremes=True)


def _expected_loss_at(paths, w):
    return sum(p * (0.5 * float(w @ v["xx"] @ w) - float(w @ v["xy"]) + 0.5 * v["yy"])
               for p, v in paths)


@register("KS15.Thm3.1.proof.step3", citation="KS15 Thm 3.1 (proof, App. B.1, second display)",
          statement="E_{D,A}[(1/m)Σ_t ℓ_t(w_t)] <= E_{D,A}[(1/m)Σ_t ℓ_t(w*)] + 2B²/(ηm) + (η/2)G²",
          assumptions="‖x‖₂ <= 1, |y| <= B, ‖w*‖₂ <= B", method="exact enumeration as in step 2; "
          "w* minimises L_D over the ball; worst ratio (lhs − E ℓ(w*) terms)/(2B²/(ηm) + ηG²/2)",
          delta=0.0, detectable=0.0)
def check_thm31_step3(ctx):
    """KS15 Thm 3.1, proof: convexity of ℓ_t."""
    def ratio(inst):
        paths = _paths(inst, inst["eta"])
        m = inst["m"]
        _, ws = _min_risk(inst)
        lhs = (sum(p * v["loss"] for p, v in paths) - _expected_loss_at(paths, ws)) / m
        return lhs / _ogd_bound(inst["B"], inst["eta"], _g2(paths, m), m)
    return _enumerated(ctx, ratio, extremes=True)


@register("KS15.Thm3.1.proof.step4", citation="KS15 Thm 3.1 (proof, App. B.1, third display)",
          statement="E_{D,A}[(1/m)Σ_t L_D(w_t)] <= L_D(w*) + 2B²/(ηm) + (η/2)G²",
          assumptions="‖x‖₂ <= 1, |y| <= B, ‖w*‖₂ <= B, examples i.i.d. from D",
          method="exact enumeration as in step 2; w* minimises L_D over the ball; worst ratio",
          delta=0.0, detectable=0.0)
def check_thm31_step4(ctx):
    """KS15 Thm 3.1, proof: the expectation over the training set (w_t independent of x_t)."""
    def ratio(inst):
        paths = _paths(inst, inst["eta"])
        m = inst["m"]
        best, _ = _min_risk(inst)
        lhs = sum(p * v["risk"] for p, v in paths) / m - best
        return lhs / _ogd_bound(inst["B"], inst["eta"], _g2(paths, m), m)
    # 6 instances at the fast effort: with 3 the display without its term (η/2)G² still held
    # (before the extreme-η instances were added)
    return _enumerated(ctx, ratio, fast=6, extremes=True)


@register("KS15.LemmaB.2.proof.step1", citation="KS15 Lemma B.2 (proof, App. B.1)",
          statement="E_A[φ̃_t] = Σ_j p_j((w_{t,j}/p_j)x_t[j] − y_t) = w_tᵀx_t − y_t",
          assumptions="p_j = w_j²/‖w‖² (Alg. 1 line 8), w ≠ 0",
          method="exact enumeration with Fractions on seeded rational instances (d <= 4)",
          delta=0.0, detectable=0.0)
def check_lemma_b2_step1(ctx):
    """KS15 Lemma B.2, proof: the inner-product estimate is unbiased (exact)."""
    worst = Fraction(0)
    n = ctx.n(40, 400)
    for _ in range(n):
        d = int(ctx.rng.integers(1, 5))
        w = [Fraction(int(v), 7) for v in ctx.rng.integers(-7, 8, size=d)]
        if not any(w):
            w[0] = Fraction(1)
        x = [Fraction(int(v), 5) for v in ctx.rng.integers(-5, 6, size=d)]
        y = Fraction(int(ctx.rng.integers(-9, 10)), 9)
        dist = enumerate_outcomes(lambda src: ks15_residual(np.array(w, dtype=object),
                                                            np.array(x, dtype=object), y, src)[0])
        mean = dist.expectation()
        worst = max(worst, abs(mean - (sum(a * b for a, b in zip(w, x)) - y)))
    return ProofResult(Status.PASS if worst == 0 else Status.FAIL,
                       {"instances": n, "largest_exact_difference": str(worst)}, detectable=0.0)


# --- Theorem 3.5 -----------------------------------------------------------------------------

@register("KS15.Thm3.5.proof.step1", citation="KS15 Thm 3.5 (proof: eq. (2) with the q of (4))",
          statement="with q_i = √E[x_i²]/Σ_j √E[x_j²] (eq. (4)): E‖x̃_{t,r}‖² = Σ_i E[x_i²]/q_i "
          "= ‖E_D[x²]‖_{1/2} := (Σ_i √E[x_i²])²", assumptions="E[x_i²] > 0",
          method="sympy (d = 1..5, symbolic second moments)", delta=0.0, detectable=0.0)
def check_thm35_step1(ctx):
    """KS15 Thm 3.5, proof: eq. (2) at the optimal q of eq. (4): symbolically, and with the q
    DDAERR's estimator computes (``KS15.DDAERR.data_point``) on seeded moment vectors."""
    ok = True
    for d in range(1, 6):
        s = sp.symbols(f"s1:{d + 1}", positive=True)
        total = sum(sp.sqrt(v) for v in s)
        q = [sp.sqrt(v) / total for v in s]
        ok &= sympy_zero(sum(v / qi for v, qi in zip(s, q)) - total ** 2)
    worst = 0.0
    for _ in range(ctx.n(20, 200)):
        sv = ctx.rng.uniform(0.01, 1.0, int(ctx.rng.integers(1, 8)))
        q = np.asarray(estimators.get("KS15.DDAERR.data_point", k=1, second_moments=sv).q)
        worst = max(worst, abs(float(np.sum(sv / q)) / float(np.sum(np.sqrt(sv))) ** 2 - 1))
    ok_pkg = worst <= 1e-12
    return ProofResult(Status.PASS if ok and ok_pkg else Status.FAIL,
                       {"identity_d_1_to_5": bool(ok), "package_q_largest_relative_gap": worst},
                       detectable=0.0)


@register("KS15.Thm3.5.proof.step2", citation="KS15 Thm 3.5 (proof: Thm 3.1 with Lemma 3.4)",
          statement="with G² = 4B²((1/k)‖E_D[x²]‖_{1/2} + 1) (Lemma 3.4 and step 1) and the "
          "printed η = 1/√(m((1/k)‖E_D[x²]‖_{1/2} + 1)) = 2B/(G√m), Thm 3.1's 2B²/(ηm) + (η/2)G² "
          "is the printed 4(B²/√m)√((1/k)‖E_D[x²]‖_{1/2} + 1)", assumptions="B, m, k, H > 0",
          method="sympy", delta=0.0, detectable=0.0)
def check_thm35_step2(ctx):
    """KS15 Thm 3.5, proof: the step size and the bound of the statement, from the formulas of
    ``laocheck.bounds`` (Lemma 3.4's G² at E‖x̃_r‖² = ‖E_D[x²]‖_{1/2}, Thm 3.1's step size and
    bound, Thm 3.5's η and bound)."""
    G2 = _formula("KS15.Lemma3.4.G2", S=bounds.SYMBOLS["N_half"])
    eta = _formula("KS15.Thm3.5.eta")
    ok_eta = sympy_zero(eta - _formula("KS15.Thm3.1.eta", G=sp.sqrt(G2)))
    ok_bound = sympy_zero(_formula("KS15.Thm3.1.generic", eta=eta, G=sp.sqrt(G2))
                          - _formula("KS15.Thm3.5.bound"))
    ok = ok_eta and ok_bound
    return ProofResult(Status.PASS if ok else Status.FAIL, {"eta": ok_eta, "bound": ok_bound},
                       detectable=0.0)


# --- Theorem 3.6: Lemmas 3.8 (B.5) and 3.9 (B.6) --------------------------------------------

@register("KS15.Lemma3.8.proof.step1", citation="KS15 Lemma 3.8 (proof, App. B.5, eq. (16))",
          statement="given the first phase, E_{D,A2}[L_D(w̄)] − L_D(w*) <= 2B²/(ηm₂) + (η/2)G² "
          "(Theorem 3.1 on the second phase)", assumptions="‖x‖₂ <= 1, |y| <= B, ‖w*‖₂ <= B; the "
          "second phase is GAERR with the q of Alg. 2 line 12, fixed given the first phase",
          method="exact enumeration of GAERR (any fixed q) and of D^m₂ (d = 2, k = 1, m₂ <= 3); "
          "checked on (1/m₂)Σ_t L_D(w_t) >= L_D(w̄) (Jensen), a stronger claim; worst ratio", delta=0.0, detectable=0.0)
def check_lemma38_step1(ctx):
    """KS15 Lemma 3.8, proof (B.5): Theorem 3.1 applied to the second phase (through w̄)."""
    def ratio(inst):
        paths = _paths(inst, inst["eta"])
        m = inst["m"]
        best, _ = _min_risk(inst)
        # Jensen: L_D(w̄) <= (1/m)Σ L_D(w_t); the display is about L_D(w̄), so bound it above
        lhs = sum(p * v["risk"] for p, v in paths) / m - best
        return lhs / _ogd_bound(inst["B"], inst["eta"], _g2(paths, m), m)
    return _enumerated(ctx, ratio, extremes=True)


@register("KS15.Lemma3.8.proof.step2", citation="KS15 Lemma 3.8 (proof, App. B.5, text)",
          statement="G² <= 4B²(5d/k + 1) <= 24B²d/k, and η = √(k/(6dm₂)) in (16) gives "
          "4B²√(6d/(km₂))", assumptions="1 <= k <= d (for 5d/k + 1 <= 6d/k)",
          method="sympy (k = d/(1 + s), s >= 0 for the inequality; the bound at η exactly)",
          delta=0.0, detectable=0.0)
def check_lemma38_step2(ctx):
    """KS15 Lemma 3.8, proof (B.5): the constant 24 (needs k <= d) and the step size."""
    _d, _k, _B, _m2 = sp.symbols("d k B m_2", positive=True)
    s = sp.symbols("s", nonnegative=True)
    # Lemma 3.4's G² at Lemma 3.7's E‖x̃_r‖² <= 5d (laocheck.bounds), against 24B²d/k
    G2 = _formula("KS15.Lemma3.4.G2", S=_formula("KS15.Lemma3.7.S_as"))
    gap = sp.simplify((24 * _B ** 2 * _d / _k - G2).subs(_k, _d / (1 + s)))   # = 4B²s
    ineq = sympy_zero(gap - 4 * _B ** 2 * s)
    eta = _formula("KS15.Lemma3.8.eta")
    at_eta = _formula("KS15.Thm3.1.generic", eta=eta, G=sp.sqrt(24 * _B ** 2 * _d / _k), m=_m2)
    bound = sympy_zero(at_eta - _formula("KS15.Lemma3.8.bound"))
    ok = ineq and bound
    return ProofResult(Status.PASS if ok else Status.FAIL,
                       {"24B²d/k − G² at k = d/(1+s)": str(gap), "bound_at_eta": bound},
                       detectable=0.0, note="5d/k + 1 <= 6d/k needs k <= d, an assumption of the "
                       "algorithm's setting (k + 1 attributes of d) that Lemma 3.8 does not state.")


def _g_hat2():
    _d, _k, _B, _H, _eps = sp.symbols("d k B H epsilon", positive=True)
    return 4 * _B ** 2 * (2 * _H / _k + 2 / _k * sp.sqrt(sp.Rational(5, 3)) * _d * sp.sqrt(_H)
                          * sp.sqrt(_eps) + 1)


@register("KS15.Lemma3.9.proof.step1", citation="KS15 Lemma 3.9 (proof, App. B.6, text)",
          statement="η = 2B/√(Ĝ²m₂) = 1/√(m₂((2/k)H + (2/k)√(5/3)d√H√ε + 1)), "
          "Ĝ² = 4B²((2/k)H + (2/k)√(5/3)d√H√ε + 1)", assumptions="B, H, ε, k, m₂ > 0",
          method="sympy", delta=0.0, detectable=0.0)
def check_lemma39_step1(ctx):
    """KS15 Lemma 3.9, proof (B.6): the two forms of the step size agree."""
    _d, _k, _B, _H, _eps, _m2 = sp.symbols("d k B H epsilon m_2", positive=True)
    inner = 2 * _H / _k + 2 / _k * sp.sqrt(sp.Rational(5, 3)) * _d * sp.sqrt(_H) * sp.sqrt(_eps) + 1
    ok = sympy_zero(2 * _B / sp.sqrt(_g_hat2() * _m2) - 1 / sp.sqrt(_m2 * inner))
    return ProofResult(Status.PASS if ok else Status.FAIL, {"equal": ok}, detectable=0.0)


@register("KS15.Lemma3.9.proof.step2", citation="KS15 Lemma 3.9 (proof, App. B.6, display, "
          "second relation)", statement="2B²/(ηm₂) + (η/2)G² <= 2B²/(ηm₂) + (η/2)Ĝ²",
          assumptions="G² <= Ĝ² (Lemma 3.7's second part, with H >= ‖E_D[x²]‖_{1/2}), η > 0",
          method="sympy: the difference is (η/2)(Ĝ² − G²)", delta=0.0, detectable=0.0)
def check_lemma39_step2(ctx):
    """KS15 Lemma 3.9, proof (B.6): monotonicity in G²."""
    _m2 = sp.Symbol("m_2", positive=True)
    _ETA = bounds.SYMBOLS["eta"]
    G, Gh = sp.symbols("G_0 Ghat", positive=True)
    diff = sp.simplify(_formula("KS15.Thm3.1.generic", G=Gh, m=_m2)
                       - _formula("KS15.Thm3.1.generic", G=G, m=_m2))       # Thm 3.1's bound
    ok = sympy_zero(diff - _ETA / 2 * (Gh ** 2 - G ** 2))
    return ProofResult(Status.PASS if ok else Status.FAIL, {"difference": str(diff)},
                       detectable=0.0)


@register("KS15.Lemma3.9.proof.step3", citation="KS15 Lemma 3.9 (proof, App. B.6, display, "
          "third relation)", statement="at η = 2B/√(Ĝ²m₂): 2B²/(ηm₂) + (η/2)Ĝ² <= (2B/√m₂)√Ĝ²",
          assumptions="B, m₂, Ĝ > 0", method="sympy (equality)", delta=0.0, detectable=0.0)
def check_lemma39_step3(ctx):
    """KS15 Lemma 3.9, proof (B.6): the minimising step size (equality)."""
    _B, _m2 = sp.symbols("B m_2", positive=True)
    Gh = sp.symbols("Gh", positive=True)
    eta = _formula("KS15.Thm3.1.eta", G=Gh, m=_m2)                      # 2B/(Ĝ√m₂)
    ok = sympy_zero(_formula("KS15.Thm3.1.generic", eta=eta, G=Gh, m=_m2)
                    - _formula("KS15.Thm3.1.bound", G=Gh, m=_m2))        # (2B/√m₂)Ĝ
    return ProofResult(Status.PASS if ok else Status.FAIL, {"equality": ok}, detectable=0.0)


@register("KS15.Lemma3.9.proof.step4", citation="KS15 Lemma 3.9 (proof, App. B.6, display, "
          "last relation)", statement="(2B/√m₂)√Ĝ² = (4B²/√m₂)√((2/k)H + (2/k)√(5/3)d√H√ε + 1)",
          assumptions="B, H, ε, k, m₂ > 0", method="sympy", delta=0.0, detectable=0.0)
def check_lemma39_step4(ctx):
    """KS15 Lemma 3.9, proof (B.6): Ĝ substituted."""
    _d, _k, _B, _H, _eps, _m2 = sp.symbols("d k B H epsilon m_2", positive=True)
    inner = 2 * _H / _k + 2 / _k * sp.sqrt(sp.Rational(5, 3)) * _d * sp.sqrt(_H) * sp.sqrt(_eps) + 1
    ok = sympy_zero(2 * _B / sp.sqrt(_m2) * sp.sqrt(_g_hat2())
                    - 4 * _B ** 2 / sp.sqrt(_m2) * sp.sqrt(inner))
    return ProofResult(Status.PASS if ok else Status.FAIL, {"equal": ok}, detectable=0.0)


# --- Theorem 4.1 (GAELR, Appendix B.8) ----------------------------------------------------------

#: the factors of Lemma B.5's log n/η and ηΣ_t p_tᵀc_t² (1 as printed; named so that a mutation
#: witness can change what the display states)
_B5_LOG_N = 1
_B5_SECOND_ORDER = 1


@register("KS15.Thm4.1.proof.step1", citation="KS15 Thm 4.1 (proof, App. B.8, Lemma B.5's display)",
          statement="for z_1 = 1_n, z_{t+1}[i] = z_t[i]exp(−ηc_t[i]) and p_t = z_t/‖z_t‖₁: "
          "Σ_t p_tᵀc_t <= min_i Σ_t c_t[i] + log n/η + ηΣ_t p_tᵀc_t² (printed with z′_t for z_t)",
          assumptions="c_t[i] >= −1/η, η > 0", method="seeded adversarial search over n = 4, "
          "m = 5 sequences (c_t[i] = −1/η + softplus(u)); worst ratio "
          "(lhs − min_i Σc)/(log n/η + ηΣ pᵀc²)", delta=0.0, detectable=0.0)
def check_thm41_step1(ctx):
    """KS15 Thm 4.1, proof: the second-order bound of the EG algorithm (Lemma B.5)."""
    n, m = 4, 5

    def ratio(u):
        eta = math.exp(u[0])
        c = -1 / eta + np.logaddexp(0.0, u[1:].reshape(m, n))
        # z_t in the log domain (log z_1 = 0): exp(−η c_t) underflows to 0 for large η c_t
        log_z = np.zeros(n)
        lhs, sq = 0.0, 0.0
        for t in range(m):
            p = np.exp(log_z - log_z.max())           # rescaling leaves p unchanged
            p /= p.sum()
            lhs += float(p @ c[t])
            sq += float(p @ c[t] ** 2)
            log_z = log_z - eta * c[t]
        return (lhs - float(c.sum(0).min())) / (_B5_LOG_N * math.log(n) / eta
                                                  + _B5_SECOND_ORDER * eta * sq)

    worst = adversarial_max(ratio, 1 + m * n, ctx.rng, starts=ctx.n(100, 1000), refine=3)
    return ratio_verdict(worst)


def _cond_sq_vector(w, x, y, k, q, cache):
    key = (tuple(w), tuple(x), float(y))
    if key not in cache:
        dist = enumerate_outcomes(lambda src: ks15_gradient(w, x, y, k, q, src, kind="lasso")[0])
        cache[key] = sum(float(p) * g * g for p, g in dist)
    return cache[key]


def _path_lasso(src, inst, eta):
    """One path of GAELR (KS15 Alg. 3) on m examples drawn from D: Σ g_tᵀw_t, Σ g_t and the
    per-step conditional E_t[g̃_t²] (vectors)."""
    X, Y, B, k, m, q = inst["X"], inst["Y"], inst["B"], inst["k"], inst["m"], inst["q"]
    d = X.shape[1]
    zp, zm = np.ones(d), np.ones(d)
    lin, gsum, second, risk = 0.0, np.zeros(d), [], 0.0
    pw = np.array([float(v) for v in inst["p"]])
    for _t in range(m):
        w = (zp - zm) * B / (zp.sum() + zm.sum())     # Alg. 3 line 3
        risk += 0.5 * float(np.sum(pw * (X @ w - Y) ** 2))
        i = src.categorical(inst["p"])
        x, y = X[i], Y[i]
        second.append(_cond_sq_vector(w, x, y, k, q, inst.setdefault("_cache_l", {})))
        g_true = (w @ x - y) * x
        lin += float(g_true @ w)
        gsum = gsum + g_true
        g, _ = ks15_gradient(w, x, y, k, q, src, kind="lasso")
        gbar = np.clip(g, -1 / eta, 1 / eta)          # Alg. 3 lines 13-15
        zp, zm = zp * np.exp(-eta * gbar), zm * np.exp(eta * gbar)
    return {"lin": lin, "gsum": gsum, "second": second, "risk": risk}


def _paths_lasso(inst, eta):
    """Every path of :func:`_path_lasso` with its probability (a float of the exact one),
    expanded step by step as :func:`_paths` does for GAERR: the same leaves, order, exact
    probabilities and float values as ``enumerate_outcomes(_path_lasso, inst, eta)``."""
    X, Y, B, k, m, q = inst["X"], inst["Y"], inst["B"], inst["k"], inst["m"], inst["q"]
    d = X.shape[1]
    pw = np.array([float(v) for v in inst["p"]])
    example = {i: p for p, i in enumerate_outcomes(lambda src: src.categorical(inst["p"]))}
    out = []

    def step(src, w):
        i = src.categorical(inst["p"])
        g, _ = ks15_gradient(w, X[i], Y[i], k, q, src, kind="lasso")
        return [i, g]                                 # a list: the outcomes are never merged

    def expand(prob, zp, zm, acc, t):
        lin, gsum, second, risk = acc
        if t == m:
            out.append((float(prob), {"lin": lin, "gsum": gsum, "second": list(second),
                                      "risk": risk}))
            return
        w = (zp - zm) * B / (zp.sum() + zm.sum())     # Alg. 3 line 3
        risk = risk + 0.5 * float(np.sum(pw * (X @ w - Y) ** 2))
        leaves = list(enumerate_outcomes(step, w))
        # E_t[g̃_t²] given i from the step's leaves, summed as _cond_sq_vector sums it
        moments = {i: sum(float(p / example[i]) * g * g for p, (j, g) in leaves if j == i)
                   for i in example}
        for p, (i, g) in leaves:
            x, y = X[i], Y[i]
            g_true = (w @ x - y) * x
            new = (lin + float(g_true @ w), gsum + g_true, second + (moments[i],), risk)
            gbar = np.clip(g, -1 / eta, 1 / eta)      # Alg. 3 lines 13-15
            expand(prob * p, zp * np.exp(-eta * gbar), zm * np.exp(eta * gbar), new, t + 1)

    expand(Fraction(1), np.ones(d), np.ones(d), (0.0, np.zeros(d), (), 0.0), 0)
    return out


@register("KS15.Thm4.1.proof.step2", citation="KS15 Thm 4.1 (proof, App. B.8, last display)",
          statement="for η <= 1/(2G): E_{D,A}[Σ_t g_tᵀ(w_t − w*)] <= B log 2d/η + 5BηG²m, "
          "G² = max_t ‖E_{D,A}[g̃_t²]‖∞", assumptions="‖x‖∞ <= 1, |y| <= B, ‖w*‖₁ <= B, any q",
          method="exact enumeration of GAELR's paths and of D^m (d = 2, k = 1, m <= 3, two support "
          "points, ‖x‖∞ <= 1) on seeded instances, η = u/(2Ĝ), Ĝ² = 4B²(1/(k min q) + 1) >= G², u "
          "uniform in [0.05, 1]; worst w* in "
          "closed form (B‖E Σ g_t‖∞); worst ratio", delta=0.0, detectable=0.0)
def check_thm41_step2(ctx):
    """KS15 Thm 4.1, proof: Lemmas B.7 and B.9 combined, in expectation over D and A."""
    def draw(rng):
        inst = _instance(rng)
        inst["X"] = np.array([ball_point(rng, 2, 1.0, np.inf, boundary=0.6) for _ in range(2)])
        inst["u"] = float(rng.uniform(0.05, 1.0))
        return inst

    def ratio(inst):
        m, B = inst["m"], inst["B"]
        # |φ̃| <= 2B and E[x̃_i²] <= 1/(k q_i) + 1 give ‖E[g̃²]‖∞ <= Ĝ² = 4B²(1/(k min q) + 1),
        # so η = u/(2Ĝ) <= 1/(2G) for the enumerated G (re-checked below)
        g_hat = 2 * B * math.sqrt(1 / (inst["k"] * float(min(inst["q"]))) + 1)
        eta = inst["u"] / (2 * g_hat)
        paths = _paths_lasso(inst, eta)
        G2 = max(float(np.max(sum(p * v["second"][t] for p, v in paths))) for t in range(m))
        if eta > 1 / (2 * math.sqrt(G2)):
            return math.nan
        lin = sum(p * v["lin"] for p, v in paths)
        gs = sum(p * v["gsum"] for p, v in paths)
        lhs = lin + B * float(np.max(np.abs(gs)))
        return lhs / (_T41_ENTROPY * B * math.log(4) / eta + _T41_VARIANCE * B * eta * G2 * m)

    n = ctx.n(4, 100)
    return ratio_verdict(worst_instance(ctx.rng, n, draw, ratio), figures={"instances": n})


# --- Lemma 3.11 (behind Thm 3.12): display (6) ---------------------------------------------------

def _half(v):
    """‖v‖_{1/2} := (Σ_i √v_i)² for v >= 0."""
    return float(np.sum(np.sqrt(v)) ** 2)


def _lemma311_search(ctx, ratio):
    def draw(rng):
        d = int(rng.integers(1, 8))
        scale = np.exp(rng.uniform(-6, 2, size=2))
        return {"a": rng.exponential(size=d) * scale[0] * (rng.random(d) < 0.8),
                "b": rng.exponential(size=d) * scale[1] * (rng.random(d) < 0.8),
                "eps": float(np.exp(rng.uniform(-8, 1)))}
    n = ctx.n(2000, 50000)
    return ratio_verdict(worst_instance(ctx.rng, n, draw, ratio), figures={"instances": n})


#: the printed constants of Lemma 3.11's proof (named so that a mutation witness can change what
#: a line states): the 2 of ‖a + b‖_{1/2} <= 2‖a‖_{1/2} + 2‖b‖_{1/2}, and eq. (6)'s 8 and 34/3
_QUASI_TRIANGLE = 2
_L311_EIGHT = 8
_L311_34_3 = Fraction(34, 3)


@register("KS15.Lemma3.11.proof.step1", citation="KS15 Lemma 3.11 (proof, the identity used)",
          statement="‖a + b‖_{1/2} <= 2‖a‖_{1/2} + 2‖b‖_{1/2} for a, b >= 0, ‖v‖_{1/2} = (Σ√v_i)²",
          assumptions="a, b >= 0 entrywise", method="seeded random search (d <= 7, sparse "
          "entries over 8 orders of magnitude); worst ratio", delta=0.0, detectable=0.0)
def check_lemma311_step1(ctx):
    """KS15 Lemma 3.11, proof: the quasi-triangle inequality of ‖·‖_{1/2}."""
    return _lemma311_search(ctx, lambda i: _half(i["a"] + i["b"])
                            / max(_QUASI_TRIANGLE * (_half(i["a"]) + _half(i["b"])), 1e-300))


@register("KS15.Lemma3.11.proof.step2", citation="KS15 Lemma 3.11 (proof, eq. (6), first relation)",
          statement="‖2A + (10/3)ε‖_{1/2} <= ‖4E_D[x²] + (14/6)ε + (10/3)ε‖_{1/2} when "
          "2A <= 4E_D[x²] + (14/6)ε entrywise (the first inequality of eq. (15))",
          assumptions="A >= 0, E_D[x²] >= 0, ε > 0; on the event (15)",
          method="seeded random search with 2A drawn below 4E + (14/6)ε; worst ratio "
          "(monotonicity of ‖·‖_{1/2} on nonnegative vectors)", delta=0.0, detectable=0.0)
def check_lemma311_step2(ctx):
    """KS15 Lemma 3.11, proof, eq. (6): monotonicity."""
    def ratio(i):
        E, eps = i["a"], i["eps"]
        two_a = (4 * E + 14 / 6 * eps) * np.minimum(1.0, i["b"] / (i["b"].max() + 1e-300))
        return _half(two_a + 10 / 3 * eps) / _half(4 * E + float(_EQ6_RIGHT_EPS) * eps + 10 / 3 * eps)
    return _lemma311_search(ctx, ratio)


@register("KS15.Lemma3.11.proof.step3", citation="KS15 Lemma 3.11 (proof, eq. (6), second relation)",
          statement="‖4E_D[x²] + (14/6)ε + (10/3)ε‖_{1/2} <= 8‖E_D[x²]‖_{1/2} + (34/3)d²ε",
          assumptions="E_D[x²] >= 0, ε > 0, d coordinates", method="seeded random search; "
          "sympy for the constant: 2·(14/6 + 10/3)·d² = (34/3)d²", delta=0.0, detectable=0.0)
def check_lemma311_step3(ctx):
    """KS15 Lemma 3.11, proof, eq. (6): the identity of step 1 applied to 4E and (34/6)ε·1."""
    const_ok = sp.Rational(2) * (sp.Rational(14, 6) + sp.Rational(10, 3)) == sp.Rational(34, 3)
    res = _lemma311_search(ctx, lambda i: _half(4 * i["a"] + 34 / 6 * i["eps"])
                           / (_L311_EIGHT * _half(i["a"])
                              + float(_L311_34_3) * len(i["a"]) ** 2 * i["eps"]))
    res.figures["constant_34/3"] = bool(const_ok)
    if not const_ok:
        return ProofResult(Status.FAIL, res.figures)
    return res


# --- Theorem 4.7 (Sec. 4.2.1) -------------------------------------------------------------------

# symbols _N1 = ‖E[x²]‖₁, _A1 = ‖A‖₁, _Gh = Ĝ and _LOG = log 2d, made in each function (sympy
# loads when a check runs)


def _g_hat2_lasso():
    """Ĝ² = 4B²((4/k)‖2A + (10/3)ε‖₁ + (20/(3k))dε + 1), with ‖2A + (10/3)ε‖₁ = 2‖A‖₁ + (10/3)dε
    for A >= 0 (ε added to every coordinate)."""
    _d, _k, _B, _eps = sp.symbols("d k B epsilon", positive=True)
    _A1 = sp.Symbol("A_1", positive=True)
    return 4 * _B ** 2 * (4 / _k * (2 * _A1 + sp.Rational(10, 3) * _d * _eps)
                          + sp.Rational(20, 3) / _k * _d * _eps + 1)


def _sympy_step(ok, figures=None, note=""):
    return ProofResult(Status.PASS if ok else Status.FAIL, dict(figures or {}), detectable=0.0,
                       note=note)


@register("KS15.Thm4.7.proof.step1", citation="KS15 Thm 4.7 (proof, Sec. 4.2.1, eq. (9))",
          statement="given the first phase, E_{D,A2}[L_D(w̄)] − L_D(w*) <= B(log 2d/(ηm₂) + 5ηG²) "
          "(Theorem 4.1 on the second phase)", assumptions="‖x‖∞ <= 1, |y| <= B, ‖w*‖₁ <= B, "
          "η <= 1/(2G); the second phase is GAELR with the q of Alg. 4, fixed given the first phase",
          method="exact enumeration of GAELR (any fixed q) and of D^m₂ (d = 2, k = 1, m₂ <= 3); "
          "checked on (1/m₂)Σ_t L_D(w_t) >= L_D(w̄) (Jensen), a stronger claim; worst ratio",
          delta=0.0, detectable=0.0)
def check_thm47_step1(ctx):
    """KS15 Thm 4.7, proof, eq. (9): Theorem 4.1 applied to the second phase."""
    def draw(rng):
        inst = _instance(rng)
        inst["X"] = np.array([ball_point(rng, 2, 1.0, np.inf, boundary=0.6) for _ in range(2)])
        inst["u"] = float(rng.uniform(0.05, 1.0))
        return inst

    def ratio(inst):
        m, B = inst["m"], inst["B"]
        g_hat = 2 * B * math.sqrt(1 / (inst["k"] * float(min(inst["q"]))) + 1)
        eta = inst["u"] / (2 * g_hat)
        paths = _paths_lasso(inst, eta)
        G2 = max(float(np.max(sum(p * v["second"][t] for p, v in paths))) for t in range(m))
        if eta > 1 / (2 * math.sqrt(G2)):
            return math.nan
        pw = np.array([float(v) for v in inst["p"]])
        X, Y = inst["X"], inst["Y"]
        risk = sum(p * v["risk"] for p, v in paths) / m
        H, b = (X.T * pw) @ X, (X.T * pw) @ Y
        L = max(np.linalg.eigvalsh(H).max(), 1e-12)
        w = np.zeros(2)
        for _ in range(2000):                          # min of L_D over the L1 ball
            v = w - (H @ w - b) / L
            a = np.abs(v)
            if a.sum() > B:
                mu = np.sort(a)[::-1]
                cums = np.cumsum(mu)
                rho = np.nonzero(mu - (cums - B) / np.arange(1, 3) > 0)[0][-1]
                v = np.sign(v) * np.maximum(a - (cums[rho] - B) / (rho + 1), 0.0)
            if np.array_equal(v, w):                   # a fixed point: the rest repeat it
                break
            w = v
        best = 0.5 * float(np.sum(pw * (X @ w - Y) ** 2))
        return (risk - best) / (B * (_T41_ENTROPY * math.log(4) / (eta * m)
                                     + _T41_VARIANCE * eta * G2))

    n = ctx.n(4, 100)
    return ratio_verdict(worst_instance(ctx.rng, n, draw, ratio), figures={"instances": n})


#: the factor under the root of the step size's first printed form √(log 2d/(·Ĝ²m₂)): 1 as
#: printed, 5 in the minimiser of (9)'s bound
_T47_FIRST_FORM_FACTOR = 1


@register("KS15.Thm4.7.proof.step2", citation="KS15 Thm 4.7 (proof, Sec. 4.2.1, the step size)",
          statement="η = √(log 2d/(Ĝ²m₂)) = √(k log 2d/(20B²m₂(8‖A‖₁ + 20dε + k))) (as printed, "
          "an identity)", assumptions="‖x‖∞ <= 1, |y| <= B: KS15 Thm 4.7, “Assume the distribution "
          "D is such that ‖x‖∞ ≤ 1 and |y| ≤ B with probability 1”; 1 <= k <= d: KS15 Sec. 1, “we "
          "have a budget of k + 1 attributes, where k ≪ d”; A >= 0 (phase 1's estimates of "
          "E_D[x_i²]), ε = min(d log(2d/δ)/((k + 1)m₁), 1) > 0: KS15 Thm 4.7's η; Ĝ² = "
          "4B²((4/k)‖2A + (10/3)ε‖₁ + (20/(3k))dε + 1)",
          method="sympy: the ratio of the two printed forms", delta=0.0,
          detectable=0.0, expected=Status.ERRATUM, correction="KS15.Thm4.7.proof.step2_corrected")
def check_thm47_step2(ctx):
    """KS15 Thm 4.7, proof: the two printed forms of η differ by √5."""
    _d, _k, _B, _eps, _m2 = sp.symbols("d k B epsilon m_2", positive=True)
    _A1 = sp.Symbol("A_1", positive=True)
    _LOG = sp.log(2 * _d)
    first = sp.sqrt(_LOG / (_T47_FIRST_FORM_FACTOR * _g_hat2_lasso() * _m2))
    second = sp.sqrt(_k * _LOG / (20 * _B ** 2 * _m2 * (8 * _A1 + 20 * _d * _eps + _k)))
    ratio = sp.simplify(first / second)
    figs = {"first_over_second": str(ratio)}
    if sympy_zero(ratio - 1):
        return ProofResult(Status.PASS, figs, detectable=0.0)
    return ProofResult(Status.ERRATUM, figs, detectable=0.0,
                       correction="KS15.Thm4.7.proof.step2_corrected",
                       counterexample={"any": "B, m₂, k, d, ε > 0, A >= 0", "first/second": str(ratio)},
                       note="The second form is √(log 2d/(5Ĝ²m₂)), the minimiser of (9)'s bound that the "
                       "next display uses; the first form lacks the 5.")


@register("KS15.Thm4.7.proof.step2_corrected", citation="KS15 Thm 4.7 (proof, corrected step size)",
          statement="η = √(log 2d/(5Ĝ²m₂)) = √(k log 2d/(20B²m₂(8‖A‖₁ + 20dε + k))), the minimiser "
          "of B(log 2d/(ηm₂) + 5ηĜ²)", assumptions="A >= 0, ε > 0", method="sympy",
          delta=0.0, detectable=0.0)
def check_thm47_step2_corrected(ctx):
    """KS15 Thm 4.7, proof: the step size with the 5 (the printed second form)."""
    _d, _k, _B, _eps, _m2 = sp.symbols("d k B epsilon m_2", positive=True)
    _A1 = sp.Symbol("A_1", positive=True)
    _LOG = sp.log(2 * _d)
    eta_s = sp.symbols("eta_s", positive=True)
    g_hat2 = _formula("KS15.Thm4.7.G2hat", A_one=_A1)                   # laocheck.bounds' Ĝ²
    corr = _formula("KS15.Thm4.1.eta", G=sp.sqrt(g_hat2), m=_m2)       # √(log 2d/(5Ĝ²m₂))
    second = _formula("KS15.Thm4.7.eta", A_one=_A1)                    # Thm 4.7's printed η
    f = _B * (_LOG / (eta_s * _m2) + 5 * eta_s * g_hat2)
    ok = sympy_zero(corr - second) and sympy_zero(sp.diff(f, eta_s).subs(eta_s, corr))
    return _sympy_step(ok, {"equal_and_stationary": ok})


@register("KS15.Thm4.7.proof.step3", citation="KS15 Thm 4.7 (proof, display after (9), first "
          "relation)", statement="B(log 2d/(m₂η) + 5ηG²) <= B(log 2d/(m₂η) + 5ηĜ²)",
          assumptions="G² <= Ĝ² (Lemmas 4.8, 4.5 and eq. (15)), η > 0", method="sympy",
          delta=0.0, detectable=0.0)
def check_thm47_step3(ctx):
    """KS15 Thm 4.7, proof: monotonicity in G²."""
    _B, _m2 = sp.symbols("B m_2", positive=True)
    _ETA = bounds.SYMBOLS["eta"]
    G, Gh = sp.symbols("G_0 Ghat", positive=True)
    diff = sp.simplify(_formula("KS15.Thm4.1.generic", G=Gh, m=_m2)
                       - _formula("KS15.Thm4.1.generic", G=G, m=_m2))       # Thm 4.1's bound
    return _sympy_step(sympy_zero(diff - 5 * _B * _ETA * (Gh ** 2 - G ** 2)),
                       {"difference": str(diff)})


@register("KS15.Thm4.7.proof.step4", citation="KS15 Thm 4.7 (proof, display after (9), second "
          "relation)", statement="at η = √(log 2d/(5Ĝ²m₂)): B(log 2d/(m₂η) + 5ηĜ²) <= "
          "2B√(5Ĝ² log 2d/m₂)", assumptions="Ĝ, m₂ > 0", method="sympy (equality)",
          delta=0.0, detectable=0.0)
def check_thm47_step4(ctx):
    """KS15 Thm 4.7, proof: the value at the minimising η (equality)."""
    _m2 = sp.Symbol("m_2", positive=True)
    _Gh = sp.Symbol("Ghat", positive=True)
    e = _formula("KS15.Thm4.1.eta", G=_Gh, m=_m2)                      # √(log 2d/(5Ĝ²m₂))
    ok = sympy_zero(_formula("KS15.Thm4.1.generic", eta=e, G=_Gh, m=_m2)
                    - _formula("KS15.Thm4.1.bound", G=_Gh, m=_m2))       # 2B√(5Ĝ² log 2d/m₂)
    return _sympy_step(ok, {"equality": ok})


@register("KS15.Thm4.7.proof.step5", citation="KS15 Thm 4.7 (proof, display after (9), third "
          "relation)", statement="2B√(5Ĝ² log 2d/m₂) <= 4B²√(5(4‖2A + (10/3)ε‖₁ + (20/3)dε + k) "
          "log 2d/(km₂))", assumptions="Ĝ² as defined", method="sympy (equality)",
          delta=0.0, detectable=0.0)
def check_thm47_step5(ctx):
    """KS15 Thm 4.7, proof: Ĝ substituted."""
    _d, _k, _B, _eps, _m2 = sp.symbols("d k B epsilon m_2", positive=True)
    _A1 = sp.Symbol("A_1", positive=True)
    _LOG = sp.log(2 * _d)
    n21 = 2 * _A1 + sp.Rational(10, 3) * _d * _eps            # ‖2A + (10/3)ε‖₁
    rhs = 4 * _B ** 2 * sp.sqrt(5 * (4 * n21 + sp.Rational(20, 3) * _d * _eps + _k) * _LOG / (_k * _m2))
    g_hat = sp.sqrt(_formula("KS15.Thm4.7.G2hat", A_one=_A1))            # laocheck.bounds' Ĝ
    ok = sympy_zero(_formula("KS15.Thm4.1.bound", G=g_hat, m=_m2) - rhs)
    return _sympy_step(ok, {"equality": ok})


#: the printed constants of eq. (10) and the display after it (named so that a mutation witness
#: can change what a line states): the right member's 14/6 of eq. (6)/(10) (from eq. (15)), 17/3,
#: 68/3, 88/3
_EQ6_RIGHT_EPS = Fraction(14, 6)
_T47_17_3 = Fraction(17, 3)
_T47_68_3 = Fraction(68, 3)
_T47_88_3 = Fraction(88, 3)


@register("KS15.Thm4.7.proof.step6", citation="KS15 Thm 4.7 (proof, eq. (10), first relation)",
          statement="‖2A + (10/3)ε‖₁ <= ‖4E_D[x²] + (14/6)ε + (10/3)ε‖₁ when 2A <= 4E_D[x²] + "
          "(14/6)ε entrywise (eq. (15))", assumptions="A, E_D[x²] >= 0, ε > 0; on the event (15)",
          method="seeded random search; worst ratio (monotonicity of ‖·‖₁ on nonnegative "
          "vectors)", delta=0.0, detectable=0.0)
def check_thm47_step6(ctx):
    """KS15 Thm 4.7, proof, eq. (10): monotonicity."""
    def ratio(i):
        E, eps = i["a"], i["eps"]
        two_a = (4 * E + 14 / 6 * eps) * np.minimum(1.0, i["b"] / (i["b"].max() + 1e-300))
        return float(np.sum(two_a + 10 / 3 * eps)) / float(np.sum(4 * E + float(_EQ6_RIGHT_EPS) * eps
                                                                  + 10 / 3 * eps))
    return _lemma311_search(ctx, ratio)


@register("KS15.Thm4.7.proof.step7", citation="KS15 Thm 4.7 (proof, eq. (10), second relation)",
          statement="‖4E_D[x²] + (14/6)ε + (10/3)ε‖₁ <= 4‖E_D[x²]‖₁ + (17/3)dε",
          assumptions="E_D[x²] >= 0, ε > 0", method="sympy (equality for nonnegative entries, d "
          "coordinates)", delta=0.0, detectable=0.0)
def check_thm47_step7(ctx):
    """KS15 Thm 4.7, proof, eq. (10): 14/6 + 10/3 = 17/3."""
    _eps = sp.Symbol("epsilon", positive=True)
    e = sp.symbols("e1:5", nonnegative=True)
    lhs = sum(4 * v + sp.Rational(14, 6) * _eps + sp.Rational(10, 3) * _eps for v in e)
    ok = sympy_zero(lhs - (4 * sum(e) + _T47_17_3 * 4 * _eps))
    return _sympy_step(ok, {"equality_d=4": ok})


@register("KS15.Thm4.7.proof.step8", citation="KS15 Thm 4.7 (proof, display after (10), first "
          "relation)", statement="with (10): 4‖2A + (10/3)ε‖₁ + (20/3)dε + k <= 16‖E_D[x²]‖₁ + "
          "(68/3)dε + (20/3)dε + k", assumptions="(10)", method="sympy (4·(17/3) = 68/3)",
          delta=0.0, detectable=0.0)
def check_thm47_step8(ctx):
    """KS15 Thm 4.7, proof: (10) substituted."""
    _d, _eps = sp.symbols("d epsilon", positive=True)
    _N1 = sp.Symbol("N_1", positive=True)
    ok = sympy_zero(4 * (4 * _N1 + sp.Rational(17, 3) * _d * _eps) + sp.Rational(20, 3) * _d * _eps
                    - (16 * _N1 + _T47_68_3 * _d * _eps + sp.Rational(20, 3) * _d * _eps))
    return _sympy_step(ok, {"equality": ok})


@register("KS15.Thm4.7.proof.step9", citation="KS15 Thm 4.7 (proof, display after (10), second "
          "relation)", statement="16‖E_D[x²]‖₁ + (68/3)dε + (20/3)dε + k <= 16‖E_D[x²]‖₁ + (88/3)dε + k",
          assumptions="none", method="sympy (68/3 + 20/3 = 88/3)", delta=0.0, detectable=0.0)
def check_thm47_step9(ctx):
    """KS15 Thm 4.7, proof: 68/3 + 20/3 = 88/3."""
    return _sympy_step(sp.Rational(68, 3) + sp.Rational(20, 3) == _T47_88_3, {})


#: Theorem 4.7's first constant 61, and the largest k/d the step is checked at: 1, KS15's
#: setting (Sec. 1: “a budget of k + 1 attributes, where k ≪ d”)
_T47_61 = 61
_T47_STEP10_K_OVER_D = 1
_KS15_SETTING_K = ("1 <= k <= d: KS15's setting, Sec. 1 (Introduction): “we have a budget of "
                   "k + 1 attributes, where k ≪ d”")


def _step10_gap(d_, k_, s_):
    """61² d − 16·5(16S + (88/3)d + k) (exact): the last display squared and divided by
    B⁴ log 2d/(km₂); the step holds iff it is >= 0."""
    d_, k_, s_ = Fraction(d_), Fraction(k_), Fraction(s_)
    return _T47_61 ** 2 * d_ - 80 * (16 * s_ + Fraction(88, 3) * d_ + k_)


@register("KS15.Thm4.7.proof.step10", citation="KS15 Thm 4.7 (proof, last display, ε = 1)",
          statement="at ε = 1: 4B²√(5(16‖E_D[x²]‖₁ + (88/3)d + k) log 2d/(km₂)) <= "
          "61B²√(d log 2d/(km₂))",
          assumptions="‖x‖∞ <= 1 (so ‖E_D[x²]‖₁ <= d); " + _KS15_SETTING_K,
          method="exact (Fractions): the squared display 80(16S + (88/3)d + k) <= 61²d at the "
          "worst S = ‖E_D[x²]‖₁ = d (x ≡ 1) for every d <= 12 and k <= d; the exact threshold "
          "k <= 283d/240 (sympy) beside it", delta=0.0, detectable=0.0)
def check_thm47_step10(ctx):
    """KS15 Thm 4.7, proof: the constant 61, in KS15's setting k ≪ d.

    An earlier version reported this step as an erratum at d = 1, k = 2: a k above d, outside
    the setting the paper states for all its results (see the withdrawn entry of ERRATA.md).
    The step holds up to k = 283d/240."""
    _d = sp.Symbol("d", positive=True)
    kk = sp.symbols("kk", positive=True)
    thresh = sp.solve(sp.Eq(61 ** 2 * _d - 80 * (16 * _d + sp.Rational(88, 3) * _d + kk), 0), kk)[0]
    figs = {"k_threshold_at_S=d": str(sp.simplify(thresh)),
            "(4·sqrt(5(16 + 88/3 + 1)))^2": str(16 * 5 * (16 + sp.Rational(88, 3) + 1)), "61^2": 3721}
    for d_ in range(1, 13):
        for k_ in range(1, _T47_STEP10_K_OVER_D * d_ + 1):
            gap = _step10_gap(d_, k_, d_)
            if gap < 0:
                lhs2 = 80 * (16 * d_ + Fraction(88, 3) * d_ + k_)
                return ProofResult(Status.FAIL, figs, detectable=0.0,
                                   counterexample={"d": d_, "k": k_, "D": "x ≡ (1, …, 1), y = 0 "
                                              "(‖E_D[x²]‖₁ = d)", "ε": 1,
                                              "lhs²·k m₂/(B⁴ log 2d)": str(lhs2),
                                              "rhs²·k m₂/(B⁴ log 2d)": str(61 ** 2 * d_),
                                              "lhs/rhs": float(math.sqrt(lhs2 / (61 ** 2 * d_)))})
    return _sympy_step(True, figs)


@register("KS15.Thm4.7.proof.step10_corrected", citation="KS15 Thm 4.7 (proof, last display, "
          "ε = 1, with k <= d)",
          statement="at ε = 1 and k <= d: 4B²√(5(16‖E_D[x²]‖₁ + (88/3)d + k) log 2d/(km₂)) <= "
          "61B²√(d log 2d/(km₂))", assumptions="‖x‖∞ <= 1 (so ‖E_D[x²]‖₁ <= d), 1 <= k <= d",
          method="sympy: 61²d − 80(16S + (88/3)d + k) at S = d − a, k = d − b (a, b >= 0) is "
          "(43/3)d + 1280a + 80b >= 0; exact (Fractions) on every d <= 30, k <= d, S = d",
          delta=0.0, detectable=0.0)
def check_thm47_step10_corrected(ctx):
    """KS15 Thm 4.7, proof: the constant 61 under k <= d."""
    _d = sp.Symbol("d", positive=True)
    a, b = sp.symbols("a b", nonnegative=True)
    gap = sp.expand(_T47_61 ** 2 * _d - 80 * (16 * (_d - a) + sp.Rational(88, 3) * _d + (_d - b)))
    ok_sym = sympy_zero(gap - (sp.Rational(43, 3) * _d + 1280 * a + 80 * b))
    ok_grid = all(_step10_gap(d_, k_, d_) >= 0 for d_ in range(1, 31) for k_ in range(1, d_ + 1))
    worst = 16 * 5 * (16 + sp.Rational(88, 3) + 1)           # ‖E‖₁ = d and k = d
    return _sympy_step(ok_sym and ok_grid, {"gap_at_S=d-a,k=d-b": str(gap), "grid_d<=30": ok_grid,
                                            "constant_at_k=d": float(sp.sqrt(worst))})


note_erratum(
    "KS15.Thm4.7.proof.step10", where="Theorem 4.7 (proof, Sec. 4.2.1: the last display, ε = 1)",
    order=(4, 7, 10), kind="withdrawn", assumption=_KS15_SETTING_K.replace("<=", "≤"),
    literal="At ε = 1 the bound 4B²√(5(16‖E_D[x²]‖₁ + (88/3)dε + k) log 2d/(km₂)) is bounded by "
            "61B²√(d log 2d/(km₂)), the theorem's first bound.",
    why="Listed as an erratum at d = 1, k = 2, x ≡ 1 (left side squared 11360/3 > 3721), read as "
        "if Theorem 4.7 allowed any k (the k attributes are drawn with replacement). KS15 states "
        "its setting as k ≪ d; with k ≤ d the squared ratio 80(16‖E_D[x²]‖₁ + (88/3)d + k)/(3721d) "
        "is at most 80(16 + 88/3 + 1)/3721 < 1 (exact), and the step holds up to k = 283d/240.",
    corrected="3721d − 80(16‖E_D[x²]‖₁ + (88/3)d + k) ≥ (43/3)d > 0 for 1 ≤ k ≤ d (the check "
              "KS15.Thm4.7.proof.step10_corrected proves it for every d).",
    related=("KS15.Thm4.7.proof.step10_corrected",), proof_step=True)


note_erratum(
    "KS15.Thm4.7.proof.step2", where="Theorem 4.7 (proof, Sec. 4.2.1: the step size)",
    order=(4, 7, 2),
    literal="Plugging η = √(log 2d/(Ĝ²m₂)) = √(k log 2d/(20B²m₂(8‖A‖₁ + 20dε + k))) into "
            "equation (9), with Ĝ² = 4B²((4/k)‖2A + (10/3)ε‖₁ + (20/(3k))dε + 1).",
    why="The two printed forms are not equal: since ‖2A + (10/3)ε‖₁ = 2‖A‖₁ + (10/3)dε, "
        "Ĝ² = 4B²(8‖A‖₁ + 20dε + k)/k, so the first form is √5 times the second for every "
        "B, m₂, k, d, ε and A (sympy, exact).",
    corrected="η = √(log 2d/(5Ĝ²m₂)), which equals the printed second form and minimises (9)'s "
              "bound; the next display's 2B√(5Ĝ² log 2d/m₂) is its value there, so the proof's "
              "conclusion holds.",
    proof_step=True)


# --- Theorem 4.6 (DDAELR, known second moments) --------------------------------------------------

_T46 = "KS15 Thm 4.6 (proof"


def _ks15_lasso_instance(rng):
    """D on two rational points of the L∞ ball (probabilities p, 1 − p), a rational w with
    ‖w‖₁ <= B, labels |y| <= B; q of Lemma 4.3 from the exact second moments."""
    d, k = int(rng.integers(1, 4)), int(rng.integers(1, 3))
    B = Fraction(int(rng.integers(1, 9)), 4)
    X = [[Fraction(int(v), 4) for v in rng.integers(-4, 5, size=d)] for _ in range(2)]
    pr = Fraction(int(rng.integers(1, 8)), 8)
    P = [pr, 1 - pr]
    if all(x[0] == 0 for x in X):
        X[0][0] = Fraction(1)
    Y = [B * Fraction(int(v), 4) for v in rng.integers(-4, 5, size=2)]
    w = [Fraction(int(v), 4) for v in rng.integers(-4, 5, size=d)]
    n1 = sum(abs(v) for v in w)
    if n1 > B:
        w = [v * B / n1 for v in w]
    second = [sum(p * x[i] ** 2 for p, x in zip(P, X)) for i in range(d)]
    return {"d": d, "k": k, "B": B, "X": X, "P": P, "Y": Y, "w": w, "second": second}


#: the instance where the bound is nearly tight: x = (1, 1) or (−1, 1) w.p. 1/2, y = −B x_1,
#: w = B e_1 (so |φ̃| = 2B on every draw and every E[x_i²] = 1); ratio (d + k − 1)/(d + k) = 3/4
_T46_TIGHT = {"d": 2, "k": 2, "B": Fraction(1), "X": [[Fraction(1), Fraction(1)],
                                                      [Fraction(-1), Fraction(1)]],
              "P": [Fraction(1, 2), Fraction(1, 2)], "Y": [Fraction(-1), Fraction(1)],
              "w": [Fraction(1), Fraction(0)], "second": [Fraction(1), Fraction(1)]}


def _lemma43_q(second):
    """KS15 Lemma 4.3: q_i = E[x_i²]/Σ_j E[x_j²]."""
    total = sum(second)
    return [s / total for s in second]


@register("KS15.Thm4.6.proof.step1", citation=_T46 + ": Theorem 4.1's G from Lemma 4.5, eq. "
          "(7) and Lemma 4.3's q_i)",
          statement="with q_i = E_D[x_i²]/‖E_D[x²]‖₁: ‖E_{D,A}[g̃_t²]‖∞ <= G² := "
          "4B²((1/k)‖E_D[x²]‖₁ + 1) (eq. (7): max_i E[x̃_{t,r}²[i]] = max_i E[x_i²]/q_i = "
          "‖E_D[x²]‖₁)", assumptions="‖x‖∞ <= 1, |y| <= B, ‖w_t‖₁ <= B; attributes with "
          "E[x_i²] = 0 are never drawn and never needed",
          method="exact enumeration (Fractions) of one step of the reference DDAELR estimate "
          "(KS15 Alg. 3 lines 4-11 with Lemma 4.3's q, p ∝ |w|) and of D (two rational support "
          "points) on seeded instances (d <= 3, k <= 2) and a nearly tight one (ratio 3/4); worst "
          "ratio, and eq. (7)'s value exactly", delta=0.0, detectable=0.0)
def check_thm46_step1(ctx):
    """KS15 Thm 4.6, proof: the G² of DDAELR (Lemma 4.5 with eq. (7) and Lemma 4.3)."""
    worst, where, eq7_bad = None, None, 0
    for t in range(ctx.n(20, 200) + 1):
        inst = _ks15_lasso_instance(ctx.rng) if t else dict(_T46_TIGHT)
        q, k, d = _lemma43_q(inst["second"]), inst["k"], inst["d"]
        total = [Fraction(0)] * d
        xr2 = [Fraction(0)] * d
        for p, x, y in zip(inst["P"], inst["X"], inst["Y"]):
            x = np.array(x, dtype=object)
            dist = enumerate_outcomes(lambda src: ks15_gradient(inst["w"], x, y, k, q, src,
                                                                kind="lasso")[0])
            sq = dist.expectation(lambda g: np.array([v * v for v in g], dtype=object))
            total = [a + p * b for a, b in zip(total, sq)]
            for i in range(d):                      # E[x̃_{t,r}²[i]] = Σ_j q_j (x_j/q_j)² 1{i=j}
                if q[i]:
                    xr2[i] += p * q[i] * (x[i] / q[i]) ** 2
        norm1 = sum(inst["second"])
        if max(xr2) != norm1:
            eq7_bad += 1
        r = max(total) / (4 * inst["B"] ** 2 * (norm1 / k + 1))
        if worst is None or r > worst:
            worst, where = r, inst
    figs = {"worst_ratio": float(worst), "worst_ratio_exact": str(worst),
            "eq7_mismatches": eq7_bad}
    ok = worst <= 1 and eq7_bad == 0
    return ProofResult(Status.PASS if ok else Status.FAIL, figs, detectable=0.0,
                       counterexample=None if ok else {k_: str(v) for k_, v in where.items()})


@register("KS15.Thm4.6.proof.step2", citation=_T46 + ": “If m >= log 2d, we have η <= 1/(2G)”)",
          statement="η = (1/(2B))√(log 2d/(5m((1/k)‖E_D[x²]‖₁ + 1))) <= 1/(2G) for G = "
          "2B√((1/k)‖E_D[x²]‖₁ + 1) when m >= log 2d", assumptions="m >= log 2d (in fact "
          "m >= (4/5) log 2d suffices)", method="sympy: (2Gη)² = 4 log 2d/(5m) <= 4/5 at "
          "m = (1 + s) log 2d, s >= 0", delta=0.0, detectable=0.0)
def check_thm46_step2(ctx):
    """KS15 Thm 4.6, proof: the side condition of Theorem 4.1."""
    _d, _m = sp.symbols("d m", positive=True)
    s = sp.symbols("s", positive=True)
    L = sp.log(2 * _d)
    # Thm 4.6's η and Lemma 4.5's G² at ‖E[x̃_r²]‖∞ = ‖E_D[x²]‖₁ (eq. (7)), from laocheck.bounds
    eta = _formula("KS15.Thm4.6.eta")
    G = sp.sqrt(_formula("KS15.Lemma4.5.G2", S_inf=bounds.SYMBOLS["N_one"]))
    sq = sp.simplify(((2 * G * eta) ** 2).subs(_m, (1 + s) * L))
    ok = sympy_zero(sq - sp.Rational(4, 5) / (1 + s))
    return ProofResult(Status.PASS if ok else Status.FAIL, {"(2Gη)^2": str(sq)}, detectable=0.0)


@register("KS15.Thm4.6.proof.step3", citation=_T46 + ": the theorem “follows directly from "
          "Theorem 4.1”)", statement="Theorem 4.1's B(log 2d/(ηm) + 5ηG²) at the theorem's η and "
          "G² = 4B²((1/k)‖E_D[x²]‖₁ + 1) equals 4B²√(5 log 2d((1/k)‖E_D[x²]‖₁ + 1)/m)",
          assumptions="m > 0, d >= 1", method="sympy (equality)", delta=0.0, detectable=0.0)
def check_thm46_step3(ctx):
    """KS15 Thm 4.6, proof: Theorem 4.1 at the stated step size."""
    # Theorem 4.1's bound at Thm 4.6's η and Lemma 4.5's G² (eq. (7)): Thm 4.6's bound, all
    # from laocheck.bounds
    G2 = _formula("KS15.Lemma4.5.G2", S_inf=bounds.SYMBOLS["N_one"])
    val = _formula("KS15.Thm4.1.generic", eta=_formula("KS15.Thm4.6.eta"), G=sp.sqrt(G2))
    ok = sympy_zero(val - _formula("KS15.Thm4.6.bound"))
    return ProofResult(Status.PASS if ok else Status.FAIL, {"value": str(sp.simplify(val))},
                       detectable=0.0)


@register("KS15.Thm4.7.proof.step11", citation="KS15 Thm 4.7 (proof, last sentence: “Otherwise "
          "plugging in ε = min(d log(2d/δ)/((k+1)m₁), 1) finishes the proof”)",
          statement="4B²√(5(16‖E_D[x²]‖₁ + (88/3)dε + k) log 2d/(km₂)) at ε = min(d log(2d/δ)/"
          "((k+1)m₁), 1) is the theorem's second bound, with probability >= 1 − δ over the first "
          "phase (the event (15) behind G² <= Ĝ²)", assumptions="δ in (0, 1); the full version "
          "prints log(2d/5) (an extraction of log(2d/δ), Alg. 4 line 11 has δ)",
          method="sympy: substitution into the chain's last display (steps 3-9) against the "
          "statement, both branches of the min", delta=0.0, detectable=0.0)
def check_thm47_step11(ctx):
    """KS15 Thm 4.7, proof: the last sentence (the high-probability bound)."""
    _d, _k, _B, _m2 = sp.symbols("d k B m_2", positive=True)
    N1, m1, dl = sp.symbols("N_1 m_1 delta", positive=True)
    eps_val = _d * sp.log(2 * _d / dl) / ((_k + 1) * m1)

    def chain(e):                                       # the proof's display after (10)
        return 4 * _B ** 2 * sp.sqrt(5 * (16 * N1 + sp.Rational(68, 3) * _d * e
                                          + sp.Rational(20, 3) * _d * e + _k)
                                     * sp.log(2 * _d) / (_k * _m2))

    # Theorem 4.7's second display (laocheck.bounds), its ε = min(d log(2d/δ)/((k+1)m₁), 1)
    stated = bounds.FORMULAS["KS15.Thm4.7.bound_hp"].expr.subs(
        {bounds.SYMBOLS["N_one"]: N1, bounds.SYMBOLS["m1"]: m1, bounds.SYMBOLS["delta"]: dl, bounds.SYMBOLS["m2"]: _m2})
    ok = all(sympy_zero(chain(e) - stated.replace(lambda x: isinstance(x, sp.Min), lambda x: e))
             for e in (eps_val, sp.Integer(1)))
    return ProofResult(Status.PASS if ok else Status.FAIL, {"both_branches_equal": ok},
                       detectable=0.0)
