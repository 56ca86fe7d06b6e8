"""The helpers shared by the checks of the displayed proof lines with instance-dependent truth of
several papers (their checks: ``cb11/proof_lines.py``, ``hk12/proof_lines.py``,
``ks15/proof_lines.py``).

Displayed proof lines whose truth depends on the instance, one check each, where no check of
``cb11.proofs`` / ``hk12.proofs`` / ``ks15.proofs`` covered them (the proof inventory,
:mod:`laocheck.checks.proof_inventory`, names every displayed line and what checks it).

Each check takes the line as printed and evaluates both sides on instances:

* the clipping steps of HK12 Lemma 3.7 (App. A.4) and KS15 Lemma B.9 (App. B.8) on the exact
  distribution of AELR's gradient estimate (HK12 Alg. 2, enumerated with Fractions), scaled to
  a norm bound B (w, y -> B·w, B·y: the estimate, G and 1/η scale by B, the proof's left side by
  B²), with the worst comparator w* in closed form (the vertex of the L1 ball, B‖E[g̃ − ḡ]‖∞);
* the clipping lemma's own proof (HK12 Lemma A.2, KS15 Lemma B.8) on discrete distributions;
* the multiplicative-weights proof (HK12 Lemma A.1, KS15 Lemma B.5) on random loss sequences
  with c_t[i] >= −1/η;
* the chains of KS15 Lemma 3.7 and Lemma 4.8 (App. B.4, B.12) relation by relation, on second
  moments s_i = E_D[x_i²] (with Σ s_i <= 1 for ridge, s_i <= 1 for lasso), ε in (0, 1] and
  A inside the box of eq. (15);
* the arithmetic-geometric steps of KS15 Lemma B.3's proof with sympy.

The worst ratio lhs/rhs over the searched instances is reported; a printed line that fails is an
ERRATUM with its counterexample, and the corrected line is a separate check that must pass.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np

from ..._lazy import load
from .._common import worst_ratio_verdict
from .._proofs import ProofResult
from .._registry import Status, register
from ..hk12.statements import _clip_step_cases

# sympy is imported on first use (laocheck list imports every check module)
sp = load("sympy")

__all__ = []


def _with_doc(doc, func):
    """``func`` with the docstring ``doc`` (the checks registered in loops below)."""
    func.__doc__ = doc
    return func

#: Rounding tolerance of a float ratio (sums of at most a few hundred float terms).
_TOL = 1e-9

#: The norm bounds B the clipping steps are evaluated at (the estimate is built at B = 1 and
#: scaled: every quantity of the step is homogeneous in B).
_BS = (1, 8, 64)

# The constants of the printed lines, named so that a mutation witness
# (laocheck.checks._witnesses) can change what a line states and see its check fail:
#: the exponent of ‖E g̃‖∞ in HK12 Lemma 3.7 / KS15 Lemma B.9's first display (Jensen)
_JENSEN_POWER = 2
#: the 2 of 2ηE[g̃[i]²] (the clipping gap, Lemma A.2 / B.8 with C = 1/η)
_CLIP_GAP = 2
#: the exponent of B in 4B^pηG² (Hölder with ‖w_t − w*‖₁ <= 2B): 1 in HK12 App. A.4
_HOLDER_B_POWER = 1
#: the same exponent as KS15 App. B.8 prints the last display (4ηG²: B dropped)
_KS15_B9_B_POWER = 0
#: the 2 of the clipping lemma's 2(x − E X)(x − C) and (2/C)∫(x − E X)²dμ (Lemma A.2 / B.8)
_A2_FACTOR = 2


# --- HK12 Lemma 3.7 (App. A.4) and KS15 Lemma B.9 (App. B.8): the clipping steps --------------

def _scaled_clip_cases(ctx):
    """(B, per-coordinate E[g̃], E[g̃²], E[g̃ − ḡ], G², η, instance) for AELR's exact gradient
    distribution at B = 1 scaled to each B of :data:`_BS` (g̃ -> B·g̃, G -> B·G, η -> η/B)."""
    for w, x, y, k, g, G2, eta in _clip_step_cases(ctx):
        d = len(x)
        mean = np.array([float(sum(p * gv[i] for p, gv in g)) for i in range(d)])
        second = np.array([float(sum(p * gv[i] ** 2 for p, gv in g)) for i in range(d)])
        c = 1 / eta
        gap = np.zeros(d)
        for p, gv in g:
            gf = np.array([float(v) for v in gv])
            gap += float(p) * (gf - np.clip(gf, -c, c))
        inst = {"w_at_B=1": [str(v) for v in w], "x": [str(v) for v in x], "y_at_B=1": str(y),
                "k": k, "eta_at_B=1": eta, "G2_at_B=1": G2}
        for B in _BS:
            yield B, B * mean, B * B * second, B * gap, B * B * G2, eta / B, inst


def _in_lasso_box(inst):
    """Whether an instance (at B = 1) is inside the lasso setting: ‖w‖₁ <= 1, ‖x‖∞ <= 1,
    |y| <= 1 (HK12 Sec. 3.2, KS15 Sec. 4)."""
    w, x = [F(v) for v in inst["w_at_B=1"]], [F(v) for v in inst["x"]]
    return sum(abs(v) for v in w) <= 1 and max(abs(v) for v in x) <= 1 and \
        abs(F(inst["y_at_B=1"])) <= 1


def _clip_step(ctx, which, with_B):
    worst = (-math.inf, None)
    for B, mean, second, gap, G2, eta, inst in _scaled_clip_cases(ctx):
        if which == 1:      # ‖E g̃‖∞² = ‖(E g̃)²‖∞ <= ‖E g̃²‖∞
            r = float(np.max(np.abs(mean) ** _JENSEN_POWER) / np.max(second))
        elif which == 2:    # |E ḡ[i] − E g̃[i]| <= 2η E[g̃[i]²] <= 2ηG² for every i
            r = max(float(np.max(np.abs(gap) / np.where(second > 0, _CLIP_GAP * eta * second,
                                                        np.inf))),
                    float(np.max(_CLIP_GAP * eta * second) / (_CLIP_GAP * eta * G2)))
        else:               # E[(g̃ − ḡ)ᵀ(w_t − w*)] <= 4ηG² (printed) or 4BηG²
            if not _in_lasso_box(inst):
                continue    # the step's ‖w_t − w*‖₁ <= 2B needs ‖w_t‖₁ <= B (Alg. 2/3's ball)
            w = np.array([float(F(v)) for v in inst["w_at_B=1"]]) * B
            lhs = float(gap @ w) + B * float(np.max(np.abs(gap)))   # worst ‖w*‖₁ <= B
            r = lhs / (4 * eta * G2 * B ** (_HOLDER_B_POWER if with_B else _KS15_B9_B_POWER))
        if r > worst[0]:
            worst = (r, dict(inst, B=B, ratio=r))
    return worst


_CLIP_ASSUME = ("‖x‖∞ <= 1, |y| <= B: HK12 Thm 3.4 / KS15 Thm 4.1, “Assume the distribution "
                "D is such that ‖x‖∞ ≤ 1 and |y| ≤ B with probability 1”; ‖w_t‖₁, ‖w*‖₁ <= B: "
                "HK12 Lemma 3.6 / KS15 Thm 4.1, “for any w* … with ‖w*‖₁ ≤ B”, and the "
                "proof's “‖w_t − w*‖₁ ≤ 2B”; 0 < η <= 1/(2G): HK12 Lemma 3.7 / KS15 Lemma B.9, "
                "“for 0 ≤ η ≤ 1/2G”; G² = ‖E g̃²‖∞ (the smallest admissible G), η in "
                "{1/(2G), 1/(4G)}; B in {1, 8, 64}")
_CLIP_METHOD = ("exact distribution of AELR's g̃ (HK12 Alg. 2, Fractions) on the instances of "
                "HK12.Lemma3.7, scaled to B; the worst w* in closed form (B‖E[g̃ − ḡ]‖∞); worst "
                "ratio lhs/rhs")


# --- HK12 Lemma A.2 (App. A.4) and KS15 Lemma B.8 (App. B.8): the clipping lemma's proof --------

def _discrete(u, atoms):
    """A discrete X (values, probabilities) and C >= 2|E X| from an unconstrained vector."""
    v = 4 * np.asarray(u[1:1 + atoms])
    p = np.exp(u[1 + atoms:] - np.max(u[1 + atoms:]))
    p /= p.sum()
    C = 2 * abs(float(p @ v)) + math.exp(u[0])
    return v, p, C


def _clip_terms(v, p, C):
    mean = float(p @ v)
    lower = float(p @ np.where(v < -C, v + C, 0.0))        # ∫_{x<−C}(x + C)dμ <= 0
    upper = float(p @ np.where(v > C, v - C, 0.0))         # ∫_{x>C}(x − C)dμ >= 0
    sq = float(p @ np.where(v > C, (v - mean) ** 2, 0.0))  # ∫_{x>C}(x − E X)²dμ
    var = float(p @ (v - mean) ** 2)
    gap = float(p @ (v - np.clip(v, -C, C)))               # E X − E X̄ (signed)
    return mean, lower, upper, sq, var, gap


def _lemma_a2_chain(ctx, signed):
    """Worst ratio of each relation of the chain; ``signed``: HK12's first member E X − E X̄,
    else KS15's |E X̄ − E X|."""
    rng = ctx.rng
    worst = {name: (-math.inf, None) for name in ("first", "second", "third", "fourth")}
    for _ in range(ctx.n(4000, 40_000)):
        atoms = int(rng.integers(2, 5))
        u = rng.normal(scale=1.5, size=1 + 2 * atoms)
        v, p, C = _discrete(u, atoms)
        mean, lower, upper, sq, var, gap = _clip_terms(v, p, C)
        first = gap if signed else abs(gap)
        rows = {"first": (first, lower + upper) if not signed else
                (abs(first - (lower + upper)) + 1.0, 1.0),        # an identity for HK12
                "second": (lower + upper, upper), "third": (upper, _A2_FACTOR * sq / C),
                "fourth": (_A2_FACTOR * sq / C, _A2_FACTOR * var / C)}
        for name, (lhs, rhs) in rows.items():
            if lhs <= 0 and rhs >= 0:
                r = 0.0 if lhs < 0 or rhs > 0 else 1.0
            elif rhs <= 0:
                r = math.inf if lhs > rhs + _TOL else 1.0
            else:
                r = lhs / rhs
            if r > worst[name][0]:
                worst[name] = (r, {"values": v.tolist(), "probs": p.tolist(), "C": C,
                                   "lhs": lhs, "rhs": rhs})
    return worst


def _pointwise_step(ctx):
    """C(x − C) <= 2(x − E X)(x − C) <= 2(x − E X)² for x > C >= 2|E X| (sympy: with
    x = C + a, E X = m, |m| <= C/2, both gaps are products of nonnegative factors)."""
    a, C, t = sp.symbols("a C t", nonnegative=True)   # x = C + a, m = C/2 − t (t in [0, C])
    m = C / 2 - t
    x = C + a
    two = sp.nsimplify(_A2_FACTOR)
    g1 = sp.factor(sp.expand(two * (x - m) * (x - C) - C * (x - C)))
    g2 = sp.factor(sp.expand(two * (x - m) ** 2 - two * (x - m) * (x - C)))
    ok = sp.simplify(g1 - 2 * a * t - 2 * a * a) == 0 and sp.simplify(g2 - 2 * (x - m) * (C - m)) == 0
    return ok, {"gap1": str(g1), "gap2": str(g2)}


def check_hk12_lemma_a2_step2(ctx):
    """HK12 Lemma A.2, proof (App. A.4): the chain for E X − E X̄ (signed)."""
    worst = _lemma_a2_chain(ctx, signed=True)
    top = max(worst.values(), key=lambda w: w[0])
    return worst_ratio_verdict(top, figures={f"worst_ratio_{k}": float(v[0])
                                             for k, v in worst.items()})


# --- HK12 Lemma A.1 (App. A.2) and KS15 Lemma B.5 (App. B.8): the multiplicative weights ------

#: the coefficient of x² in e^x <= 1 + x + x² (x <= 1), the η² terms of HK12 App. A.2's displays
_MW_QUAD = 1
#: the factor η of the third display's −ηΣ_t c_t[i*]
_MW_LOWER_ETA = 1
#: the factor of the last display's log n/η
_MW_REGRET = 1
#: the first relation of the second display as printed (an equality; the proof gives <=)
_A1_STEP2_PRINTED_EQUALITY = True


def _mw_runs(ctx):
    """Random (η, c_1..c_T) with c_t[i] >= −1/η; per run the members of the proof's displays."""
    rng = ctx.rng
    for _ in range(ctx.n(400, 4000)):
        n, T = int(rng.integers(1, 5)), int(rng.integers(1, 6))
        eta = float(np.exp(rng.normal(scale=1.0)))
        c = rng.uniform(-1 / eta, 3 / eta, size=(T, n))
        if rng.random() < 0.3:
            c = np.where(rng.random(c.shape) < 0.5, -1 / eta, c)   # the boundary −1/η
        z = np.ones(n)
        rows = []
        for t in range(T):
            p = z / z.sum()
            znew = z * np.exp(-eta * c[t])
            quad = z.sum() * (1 - eta * p @ c[t] + _MW_QUAD * eta ** 2 * p @ c[t] ** 2)
            lin = float(np.sum(z * (1 - eta * c[t] + _MW_QUAD * eta ** 2 * c[t] ** 2)))
            rows.append((z.copy(), p, znew.sum(), lin, quad))
            z = znew
        yield n, T, eta, c, rows, z


def _mw_chain(ctx):
    """Per relation, the largest violation lhs − rhs over the runs (step 1: the largest ratio;
    ``identity``: the largest residual of the printed equalities)."""
    worst = {k: (-math.inf, None) for k in ("step1", "step2_equality", "step2_corrected", "step3",
                                            "step4")}

    def keep(key, value, inst):
        if value > worst[key][0]:
            worst[key] = (value, inst)

    for n, T, eta, c, rows, z in _mw_runs(ctx):
        inst = {"n": n, "T": T, "eta": eta, "c": c.tolist()}
        for z_t, p, znorm, lin, quad in rows:
            # ‖z_{t+1}‖₁ <= Σ z_t(1 − ηc + η²c²), and that sum = ‖z_t‖₁(1 − ηpᵀc + η²pᵀc²)
            ident = abs(lin - quad) / max(abs(quad), 1e-300)
            keep("step1", znorm / lin + (math.inf if ident > 1e-9 else 0.0), inst)
        ps = [r[1] for r in rows]
        lhs = math.log(z.sum())
        mid = math.log(n) + sum(math.log(r[4] / r[0].sum()) for r in rows)
        s1 = sum(float(p @ c[t]) for t, p in enumerate(ps))
        s2 = sum(float(p @ c[t] ** 2) for t, p in enumerate(ps))
        rhs = math.log(n) - eta * s1 + _MW_QUAD * eta ** 2 * s2
        keep("step2_equality", abs(lhs - mid), dict(inst, lhs=lhs, printed_rhs=mid))
        keep("step2_corrected", max(lhs - mid, mid - rhs), dict(inst, lhs=lhs, mid=mid, rhs=rhs))
        keep("step3", float(np.max(-_MW_LOWER_ETA * eta * c.sum(axis=0))) - lhs, inst)
        keep("step4", s1 - (float(np.min(c.sum(axis=0)))
                            + _MW_REGRET * math.log(n) / eta + eta * s2), inst)
    return worst


def _mw_verdict(ctx, key):
    worst = _mw_chain(ctx)
    value, inst = worst[key]
    figs = {f"worst_{k}": float(v[0]) for k, v in worst.items()}
    figs["measure"] = ("ratio lhs/rhs" if key == "step1" else
                       "largest residual of the equality" if key == "step2_equality" else
                       "largest lhs − rhs")
    if key == "step2_equality" and not _A1_STEP2_PRINTED_EQUALITY:   # read with <=
        value = worst["step2_corrected"][0]
        return ProofResult(Status.PASS if value <= 1e-9 else Status.FAIL, figs, detectable=0.0)
    if key == "step2_equality":
        if value > 1e-9:
            return ProofResult(Status.ERRATUM, figs, counterexample=_mw_exact_counterexample(),
                               detectable=0.0, correction="HK12.LemmaA.1.proof.step2_corrected",
                               note="the first relation is an inequality (from the first display by "
                               "induction), not an equality")
        return ProofResult(Status.PASS, figs, detectable=0.0)
    ok = value <= 1 + _TOL if key == "step1" else value <= 1e-9
    if ok:
        return ProofResult(Status.PASS, figs,
                           detectable="a sequence violating the relation by more "
                           "than 1e-9 among those drawn")
    return ProofResult(Status.FAIL, figs, counterexample=inst, detectable="the sequence shown")


def _mw_exact_counterexample():
    """n = 2, T = 1, η = 1, c_1 = (1, 0): log‖z_2‖₁ = log(1 + e^{−1}) ≈ 0.3133 while
    log n + log(1 − ηpᵀc + η²pᵀc²) = log 2 + log(1 − 1/2 + 1/2) = log 2 ≈ 0.6931."""
    lhs = math.log(1 + math.exp(-1))
    return {"n": 2, "T": 1, "eta": 1, "c_1": [1, 0], "log‖z_2‖₁": lhs,
            "log n + Σ log(1 − ηpᵀc + η²pᵀc²)": math.log(2)}


_MW_ASSUME = ("η > 0, c_t[i] >= −1/η: HK12 Lemma A.1 (App. A.2) / KS15 Lemma B.5 (App. B.8), “Let "
              "η > 0, and let c_1, …, c_T be an arbitrary sequence of vectors in R^n with c_t[i] "
              "≥ −1/η for all t and i”; a fraction of the entries at −1/η, n <= 4, T <= 5, η "
              "log-normal")
_MW_METHOD = "random loss sequences; both sides of the relation per run (float)"


# --- exact helpers ---------------------------------------------------------------------------

def _rat(rng, lo=-8, hi=8, den=8):
    return F(int(rng.integers(lo, hi + 1)), den)


def _chain_verdict(worst, *, figures=None, note=""):
    """``worst``: {relation name: (ratio, instance)}; PASS when every ratio <= 1 + 1e-9."""
    top = max(worst.values(), key=lambda w: w[0])
    figs = dict(figures or {})
    figs.update({f"worst_ratio_{k}": float(v[0]) for k, v in worst.items()})
    return worst_ratio_verdict(top, figures=figs, note=note)


def _keep(worst, name, lhs, rhs, inst, relation="<="):
    """Record lhs/rhs of one relation ('<=': lhs <= rhs; '=': exact equality, ratio 1 or inf)."""
    if relation == "=":
        r = 1.0 if lhs == rhs else math.inf
    elif rhs > 0:
        r = float(lhs / rhs)
    else:
        r = 1.0 if lhs <= rhs else math.inf
    if name not in worst or r > worst[name][0]:
        worst[name] = (r, inst)


def register_mw_displays(paper, label, where, third, last):
    """Register the multiplicative-weights displays of HK12 Lemma A.1's proof and of KS15 Lemma
    B.5's, which repeats it: ``<paper>.<label>.proof.step1`` (first display), ``.<third>``
    (third display; KS15's as corrected) and ``.<last>`` (last display). KS15 Lemma B.5's
    second display is HK12's (one check, HK12.LemmaA.1.proof.step2), so its third and last
    displays are its steps 2 and 3."""
    register(f"{paper}.{label}.proof.step1", citation=f"{where}, first display)",
             statement="‖z_{t+1}‖₁ = Σ_i z_t[i]e^{−ηc_t[i]} <= Σ_i z_t[i](1 − ηc_t[i] + η²c_t[i]²) "
             "= ‖z_t‖₁(1 − ηp_tᵀc_t + η²p_tᵀc_t²) (e^x <= 1 + x + x² for x <= 1)",
             assumptions=_MW_ASSUME, method=_MW_METHOD, delta=0.0,
             detectable="a sequence with ratio > 1 among those drawn")(_with_doc(
        f"{paper} {label} (proof): the first display.", lambda ctx: _mw_verdict(ctx, "step1")))
    register(f"{paper}.{label}.proof.{third}",
             citation=f"{where}, third display" + (", corrected)" if paper == "KS15" else ")"),
             statement="log‖z_{T+1}‖₁ = log Σ_i Π_t e^{−ηc_t[i]} >= log Π_t e^{−ηc_t[i*]} = "
             "−ηΣ_t c_t[i*] for every i*", assumptions=_MW_ASSUME, method=_MW_METHOD, delta=0.0,
             detectable="a sequence violating the relation by more than 1e-9")(_with_doc(
        f"{paper} {label} (proof): the third display.", lambda ctx: _mw_verdict(ctx, "step3")))
    register(f"{paper}.{label}.proof.{last}", citation=f"{where}, last display)",
             statement="Σ_t p_tᵀc_t <= Σ_t c_t[i*] + log n/η + ηΣ_t p_tᵀc_t² for every i*",
             assumptions=_MW_ASSUME, method=_MW_METHOD, delta=0.0,
             detectable="a sequence violating the relation by more than 1e-9")(_with_doc(
        f"{paper} {label} (proof): the last display.", lambda ctx: _mw_verdict(ctx, "step4")))
