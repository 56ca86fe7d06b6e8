"""KS15: the formulas of laocheck.bounds derived from the proofs (ids ``KS15.*``).

The helpers these checks share with the other papers' are in
:mod:`laocheck.checks._kinds.derivations`, which says how this kind of check works.
"""

from __future__ import annotations

from fractions import Fraction

from ... import bounds
from ..._lazy import load
from ...reference import estimators as ref_est
from .._kinds.derivations import (_DETECTS, _eg_excess, _L36_VARIANCE, _L37_CLIP, _METHOD,
                                  _minimiser, _on_domain, _q, _RTOL, _S, _verdict, bounds_sym,
                                  derive, nonnegative, same)
from .._registry import register
from . import proofs as proofs_ks15

# sympy is imported on first use (laocheck list imports every check module)
sp = load("sympy")

__all__ = []


def _ks15_second_moment(S_sym):
    """KS15 Lemma 3.4 (3.2 with 3.3) / Lemma 4.5 (4.2 with 4.4): E‖x̃‖² = (1/k)S +
    ((k − 1)/k)E‖x‖² <= S/k + 1 (‖x‖ <= 1) times E φ̃² <= 4B² (independence). Returns (G²,
    steps)."""
    k, B = _S("k", "B")
    s = sp.Symbol("s", nonnegative=True)
    ex2 = sp.Symbol("ex2", positive=True)                # E‖x‖²   (or E‖x‖∞²)
    e_x = S_sym / k + (k - 1) / k * ex2                  # Lemma 3.2 / 4.2
    upper = S_sym / k + 1
    step = nonnegative((upper - e_x).subs(ex2, 1), k=1 + s) and nonnegative(
        sp.diff(e_x, ex2), k=1 + s)                      # increasing in E‖x‖², at E‖x‖² <= 1
    return 4 * B ** 2 * upper, [("Lemma 3.2/4.2: S/k + ((k − 1)/k)E‖x‖² <= S/k + 1", step)]


# =============================================================================================
# KS15
# =============================================================================================

_KS15_RIDGE = "d >= k >= 1, m >= 1, B > 0; ‖x‖₂ <= 1, |y| <= B, ‖w*‖₂ <= B"
_KS15_LASSO = "d >= k >= 1, m >= log 2d, B > 0; ‖x‖∞ <= 1, |y| <= B, ‖w*‖₁ <= B"


def _ks15_ogd(eta, G, m):
    """KS15 Thm 3.1 (App. B.1): (2B²/η + (η/2)G²m)/m with the constants of ``proofs_ks15``."""
    B = _S("B")
    return (_q(proofs_ks15._T31_DIAMETER) * B ** 2 / eta
            + _q(proofs_ks15._T31_VARIANCE) * eta * G ** 2 * m) / m


@register("KS15.Lemma3.4.derivation", citation="KS15 Lemma 3.4 (with eq. (2))",
          statement="E‖g̃_t‖² <= 4B²(S/k + 1) from Lemma 3.2 (E‖x̃‖² = S/k + ((k − 1)/k)E‖x‖²) "
          "and Lemma 3.3 (E φ̃² <= 4B²)", assumptions=_KS15_RIDGE, method=_METHOD, delta=0.0,
          detectable=_DETECTS)
def check_ks15_lemma34(ctx):
    """KS15 Lemma 3.4: ``KS15.Lemma3.4.G2`` derived."""
    G2, steps = _ks15_second_moment(_S("S"))
    return derive([("KS15.Lemma3.4.G2", G2, "Lemma 3.3 × Lemma 3.2")], steps)


@register("KS15.Lemma4.5.derivation", citation="KS15 Lemma 4.5 (with eq. (7))",
          statement="‖E g̃_t²‖∞ <= 4B²(S_∞/k + 1) from Lemma 4.2 and Lemma 4.4",
          assumptions=_KS15_LASSO, method=_METHOD, delta=0.0, detectable=_DETECTS)
def check_ks15_lemma45(ctx):
    """KS15 Lemma 4.5: ``KS15.Lemma4.5.G2`` derived."""
    G2, steps = _ks15_second_moment(_S("S_inf"))
    return derive([("KS15.Lemma4.5.G2", G2, "Lemma 4.4 × Lemma 4.2")], steps)


@register("KS15.Thm3.1.derivation", citation="KS15 Thm 3.1 (App. B.1)",
          statement="OGD's regret in expectation / m is 2B²/(ηm) + ηG²/2, minimised at "
          "η = 2B/(G√m) where it is 2BG/√m", assumptions=_KS15_RIDGE, method=_METHOD,
          delta=0.0, detectable=_DETECTS)
def check_ks15_thm31(ctx):
    """KS15 Thm 3.1: the generic bound, the step size and its value derived."""
    eta, G, m = _S("eta", "G", "m")
    generic = _ks15_ogd(eta, G, m)
    best = _minimiser(generic, eta)
    return derive([("KS15.Thm3.1.generic", generic, "App. B.1"),
                   ("KS15.Thm3.1.eta", best, "solve(d generic / d eta = 0)"),
                   ("KS15.Thm3.1.bound", generic.subs(eta, best), "generic at the minimiser")])


@register("KS15.Thm4.1.derivation", citation="KS15 Thm 4.1 (App. B.8)",
          statement="EG with clipping: B(log 2d/(ηm) + 5ηG²), minimised at "
          "η = √(log 2d/(5G²m)) (<= 1/(2G) when m >= log 2d) where it is 2BG√(5 log 2d/m)",
          assumptions=_KS15_LASSO, method=_METHOD, delta=0.0, detectable=_DETECTS)
def check_ks15_thm41(ctx):
    """KS15 Thm 4.1: generic bound (HK12 Lemmas 3.6 + 3.7, as App. B.8 repeats them), step
    size and value derived."""
    eta, G, m, d = _S("eta", "G", "m", "d")
    generic = _eg_excess(eta, G, m)
    best = _minimiser(generic, eta)
    s = sp.Symbol("s", nonnegative=True)
    side = nonnegative((1 / (2 * G)) ** 2 - best.subs(m, (1 + s) * sp.log(2 * d)) ** 2)
    return derive([("KS15.Thm4.1.generic", generic, "App. B.8"),
                   ("KS15.Thm4.1.eta", best, "solve(d generic / d eta = 0)"),
                   ("KS15.Thm4.1.bound", generic.subs(eta, best), "generic at the minimiser")],
                  [("η <= 1/(2G) when m >= log 2d", side),
                   ("1 + 4 = the inventory's 5", _L36_VARIANCE + _L37_CLIP
                    == proofs_ks15._T41_VARIANCE)])


def _optimal_q(power, n=3):
    """KS15 eq. (4) / Lemma 4.3 on n symbolic second moments a_i: the q of the paper and
    the value of S (ridge: Σ a_i/q_i, power 1/2) or S_∞ (lasso: max a_i/q_i, power 1) at it,
    with the Lagrange stationarity of eq. (3) checked for the ridge. Returns (value, norm,
    ok): ``norm`` is ‖a‖_{1/2} (ridge) or ‖a‖₁ (lasso)."""
    a = sp.symbols(f"a1:{n + 1}", positive=True)
    q = [ai ** power / sum(aj ** power for aj in a) for ai in a]
    if power == sp.Rational(1, 2):
        value = sum(ai / qi for ai, qi in zip(a, q))
        norm = sum(sp.sqrt(ai) for ai in a) ** 2
        lam = sp.Symbol("lam", positive=True)
        # eq. (3): d/dq_i (Σ a_i/q_i + λ(Σ q_i − 1)) = 0 has the solution eq. (4)
        qi_ = sp.Symbol("q", positive=True)
        stat = [sp.solve(-ai / qi_ ** 2 + lam, qi_) for ai in a]       # each q_i(λ)
        ok = all(len(x) == 1 for x in stat)
        lam_sol = sp.solve(sum(x[0] for x in stat) - 1, lam) if ok else []
        ok = ok and len(lam_sol) == 1 and all(
            same(x[0].subs(lam, lam_sol[0]), qv) for x, qv in zip(stat, q))
    else:
        ratios = [sp.simplify(ai / qi) for ai, qi in zip(a, q)]
        value = ratios[0]
        norm = sum(a)
        ok = all(same(r, value) for r in ratios)           # all equal: the max is any of them
    return value, norm, ok and same(value, norm)


@register("KS15.Thm3.5.derivation", citation="KS15 Thm 3.5 (proof)",
          statement="with eq. (4)'s q, S = ‖E x²‖_{1/2}; Lemma 3.4's G² in Thm 3.1's "
          "η = 2B/(G√m) and 2BG/√m give the stated η and bound", assumptions=_KS15_RIDGE,
          method=_METHOD, delta=0.0, detectable=_DETECTS)
def check_ks15_thm35(ctx):
    """KS15 Thm 3.5: DDAERR's η and bound derived (Thm 3.1, Lemma 3.4, eq. (2), eq. (4))."""
    eta, G, m, S, N = _S("eta", "G", "m", "S", "N_half")
    value, norm, q_ok = _optimal_q(sp.Rational(1, 2))
    G2, steps = _ks15_second_moment(S)
    generic = _ks15_ogd(eta, G, m)
    best = _minimiser(generic, eta)
    at = {G: sp.sqrt(G2.subs(S, N))}
    return derive([("KS15.Thm3.5.eta", best.subs(at), "Thm 3.1's minimiser at Lemma 3.4's G"),
                   ("KS15.Thm3.5.bound", generic.subs(eta, best).subs(at),
                    "Thm 3.1 at its minimiser")],
                  steps + [("eq. (4) solves eq. (3) and gives S = ‖E x²‖_{1/2} (d = 3)", q_ok)])


@register("KS15.Thm4.6.derivation", citation="KS15 Thm 4.6 (proof)",
          statement="with Lemma 4.3's q, S_∞ = ‖E x²‖₁; Lemma 4.5's G² in Thm 4.1's minimiser and "
          "bound give the stated η and bound", assumptions=_KS15_LASSO, method=_METHOD,
          delta=0.0, detectable=_DETECTS)
def check_ks15_thm46(ctx):
    """KS15 Thm 4.6: DDAELR's η and bound derived (Thm 4.1, Lemma 4.5, eq. (7), Lemma 4.3)."""
    eta, G, m, S_inf, N = _S("eta", "G", "m", "S_inf", "N_one")
    value, norm, q_ok = _optimal_q(sp.Integer(1))
    G2, steps = _ks15_second_moment(S_inf)
    generic = _eg_excess(eta, G, m)
    best = _minimiser(generic, eta)
    at = {G: sp.sqrt(G2.subs(S_inf, N))}
    return derive([("KS15.Thm4.6.eta", best.subs(at), "Thm 4.1's minimiser at Lemma 4.5's G"),
                   ("KS15.Thm4.6.bound", generic.subs(eta, best).subs(at),
                    "Thm 4.1 at its minimiser")],
                  steps + [("Lemma 4.3's q gives S_∞ = ‖E x²‖₁ (d = 3)", q_ok)])


_EPS_TERM = Fraction(5, 3)           # √(5/3) of KS15 Lemma 3.7's second bound (typed: ε term)


def _lemma37_hp(H, eps_root):
    """KS15 Lemma 3.7, second bound, with H >= ‖E x²‖_{1/2}: 2H + 2√(5/3) d √H √ε (``eps_root``
    is the √ε factor, so that the printed '+ k' / '+ 1' readings can be formed)."""
    d = _S("d")
    return 2 * H + 2 * sp.sqrt(_q(_EPS_TERM)) * d * sp.sqrt(H) * eps_root


@register("KS15.Lemma3.8.derivation", citation="KS15 Lemma 3.8 (App. B.5)",
          statement="Lemma 3.7's 5d in Lemma 3.4: G² <= 4B²(5d/k + 1) <= 24B²d/k (k <= d); "
          "η = 2B/(G√m₂) = √(k/(6dm₂)) and 2BG/√m₂ = 4B²√(6d/(km₂))",
          assumptions=_KS15_RIDGE.replace("m >= 1", "m₂ >= 1"), method=_METHOD, delta=0.0,
          detectable=_DETECTS)
def check_ks15_lemma38(ctx):
    """KS15 Lemma 3.8: the step size and bound derived from Thm 3.1, Lemma 3.4, Lemma 3.7."""
    eta, G, m2, d, k, S, B = _S("eta", "G", "m2", "d", "k", "S", "B")
    G2, steps = _ks15_second_moment(S)
    s = sp.Symbol("s", nonnegative=True)
    g2 = 24 * B ** 2 * d / k                           # App. B.5's displayed upper value
    steps = steps + [("4B²(5d/k + 1) <= 24B²d/k for k <= d",
                      nonnegative(g2 - G2.subs(S, 5 * d), d=k + s))]
    generic = _ks15_ogd(eta, G, m2)
    best = _minimiser(generic, eta)
    at = {G: sp.sqrt(g2)}
    return derive([("KS15.Lemma3.8.eta", best.subs(at), "Thm 3.1's minimiser, G² = 24B²d/k"),
                   ("KS15.Lemma3.8.bound", generic.subs(eta, best).subs(at),
                    "Thm 3.1 at its minimiser")], steps)


@register("KS15.Lemma3.9.derivation", citation="KS15 Lemma 3.9 (App. B.6)",
          statement="Lemma 3.7's second bound (H >= ‖E x²‖_{1/2}) in Lemma 3.4 gives Ĝ²; "
          "η = 2B/(Ĝ√m₂) and 2BĜ/√m₂ are the stated step size and bound",
          assumptions=_KS15_RIDGE.replace("m >= 1", "m₂ >= 1") + ", H >= ‖E x²‖_{1/2}",
          method=_METHOD, delta=0.0, detectable=_DETECTS)
def check_ks15_lemma39(ctx):
    """KS15 Lemma 3.9: the step size and bound derived."""
    eta, G, m2, S, H, eps = _S("eta", "G", "m2", "S", "H", "eps")
    G2, steps = _ks15_second_moment(S)
    generic = _ks15_ogd(eta, G, m2)
    best = _minimiser(generic, eta)
    at = {G: sp.sqrt(G2.subs(S, _lemma37_hp(H, sp.sqrt(eps))))}
    return derive([("KS15.Lemma3.9.eta", best.subs(at), "Thm 3.1's minimiser at Ĝ"),
                   ("KS15.Lemma3.9.bound", generic.subs(eta, best).subs(at),
                    "Thm 3.1 at its minimiser")], steps)


#: KS15 Lemma B.3 / eq. (15): A[i] <= 2E[x_i²] + (7/6)ε and A[i] >= (1/2)E[x_i²] − (5/3)ε; the
#: smoothing (13/6)ε of Alg. 2/4 line 12 (typed here with their labels)
_EQ15_UP, _EQ15_LOW, _SMOOTH = Fraction(7, 6), Fraction(5, 3), Fraction(13, 6)


def _eq15_pieces():
    """(upper, lower) of A[i] + (13/6)ε under eq. (15), as multiples of (s + 5ε/3) and
    (s + ε): the proofs' 2(s + 5ε/3) and (s + ε)/2 (App. B.4, B.12), checked exactly."""
    s_, e_ = sp.symbols("s e", nonnegative=True)
    up = 2 * s_ + _q(_EQ15_UP) * e_ + _q(_SMOOTH) * e_
    low = s_ / 2 - _q(_EQ15_LOW) * e_ + _q(_SMOOTH) * e_
    return same(up, 2 * (s_ + sp.Rational(5, 3) * e_)) and same(low, (s_ + e_) / 2)


@register("KS15.Lemma3.7.derivation", citation="KS15 Lemma 3.7 (proof, App. B.4)",
          statement="E‖x̃_{t,r}‖² = Σ_j √(A[j] + 13ε/6)·Σ_i E[x_i²]/√(A[i] + 13ε/6); with (15) it "
          "is at most 2Σ_j √(s_j + 5ε/3)·Σ_i s_i/√(s_i + ε) (s_i = E[x_i²]); with √(a + b) <= "
          "√a + √b and s/√(s + ε) <= √s this is 2‖E x²‖_{1/2} + 2√(5/3)d√‖E x²‖_{1/2}√ε "
          "(the second bound); with s/√(s + ε) <= s/√ε instead in the ε-term, ‖E x²‖_{1/2} <= "
          "d‖E x²‖₁ and ‖E x²‖₁ <= 1, it is at most (2 + 2√(5/3))d <= 5d (the first)",
          assumptions=_KS15_RIDGE + "; eq. (15) (probability >= 1 − δ, or ε >= 1)",
          method=_METHOD + "; the elementwise inequalities proved for nonnegative symbols, "
          "Cauchy-Schwarz (Σ√s_i)² <= dΣs_i as the sum-of-squares identity at d = 3",
          delta=0.0, detectable=_DETECTS)
def check_ks15_lemma37(ctx):
    """KS15 Lemma 3.7: ``KS15.Lemma3.7.S_hp`` derived and ``KS15.Lemma3.7.S_as`` proved an
    upper bound of the chain (its probability-1 claim is the registered erratum
    ``KS15.Lemma3.7.prob1``: the chain needs eq. (15))."""
    d, eps, N = _S("d", "eps", "N_half")
    n, e, a, b = sp.symbols("n e a b", nonnegative=True)         # n = Σ√s_i = √‖E x²‖_{1/2}
    x, ep = sp.symbols("x ep", positive=True)                     # s_i > 0, √ε > 0
    N1 = sp.Symbol("N1", nonnegative=True)                        # ‖E x²‖₁ = E‖x‖² <= 1
    root_split = nonnegative(sp.expand((sp.sqrt(a) + sp.sqrt(b)) ** 2 - (a + b)))
    shrink = nonnegative(x - x ** 2 / (x + ep ** 2))              # s/√(s+ε) <= √s, squared
    shrink_eps = nonnegative(x ** 2 / ep ** 2 - x ** 2 / (x + ep ** 2))  # s/√(s+ε) <= s/√ε
    five_thirds = sp.sqrt(sp.Rational(5, 3))
    hp = 2 * (n + d * five_thirds * e) * n                        # the second bound, N = n²
    as_chain = 2 * n ** 2 + 2 * five_thirds * d * N1              # before n² <= dN1, N1 <= 1
    s3 = sp.symbols("s1:4", nonnegative=True)
    cauchy = same(3 * sum(s3) - sum(sp.sqrt(t) for t in s3) ** 2,
                  sum((sp.sqrt(s3[i]) - sp.sqrt(s3[j])) ** 2
                      for i in range(3) for j in range(i + 1, 3)))
    at_worst = as_chain.subs(n, sp.sqrt(d * N1)).subs(N1, 1)      # increasing in n² and N1
    stated_as = bounds.FORMULAS["KS15.Lemma3.7.S_as"].expr
    return derive([("KS15.Lemma3.7.S_hp", hp.subs({n: sp.sqrt(N), e: sp.sqrt(eps)}),
                    "2(√N + d√(5ε/3))·√N, App. B.4's last chain")],
                  [("(15) with the smoothing 13ε/6: A + 13ε/6 <= 2(s + 5ε/3) and >= (s + ε)/2",
                    _eq15_pieces()),
                   ("√(a + b) <= √a + √b", root_split),
                   ("s/√(s + ε) <= √s", shrink), ("s/√(s + ε) <= s/√ε", shrink_eps),
                   ("(Σ√s_i)² <= dΣs_i (Cauchy-Schwarz; d = 3)", cauchy),
                   ("5d >= 2d + 2√(5/3)d (the first bound at ‖E x²‖_{1/2} <= d, ‖E x²‖₁ <= 1)",
                    nonnegative(stated_as - at_worst))])


@register("KS15.Lemma4.8.derivation", citation="KS15 Lemma 4.8 (proof, App. B.12)",
          statement="‖E x̃_{t,r}²‖∞ = Σ_j (A[j] + 13ε/6)·max_i E[x_i²]/(A[i] + 13ε/6); with (15) "
          "at most Σ_j 2(s_j + 5ε/3)·max_i 2s_i/(s_i + ε) <= 4‖E x²‖₁ + (20/3)dε "
          "(s/(s + ε) <= 1)", assumptions=_KS15_LASSO + "; eq. (15) (probability >= 1 − δ, or "
          "ε = 1)", method=_METHOD, delta=0.0, detectable=_DETECTS)
def check_ks15_lemma48(ctx):
    """KS15 Lemma 4.8: ``KS15.Lemma4.8.S_inf`` derived."""
    d, eps, N = _S("d", "eps", "N_one")
    x, e = sp.symbols("x e", positive=True)
    at_most_one = nonnegative(1 - x / (x + e))
    derived = 2 * (N + sp.Rational(5, 3) * d * eps) * 2            # Σ_j 2(s_j + 5ε/3) · 2
    return derive([("KS15.Lemma4.8.S_inf", derived, "Σ_j 2(s_j + 5ε/3)·max_i 2s_i/(s_i + ε)")],
                  [("(15) with the smoothing 13ε/6: A + 13ε/6 <= 2(s + 5ε/3) and >= (s + ε)/2",
                    _eq15_pieces()), ("s/(s + ε) <= 1", at_most_one)])


@register("KS15.Eq11-12.derivation", citation="KS15 eqs. (11), (12) (Sec. 5)",
          statement="ρ_ridge is S at eq. (4)'s q over S at the uniform q (Σ E[x_i²]/(1/d) = "
          "dE‖x‖²): ‖E x²‖_{1/2}/(d‖E x²‖₁); ρ_lasso is S_∞ at Lemma 4.3's q over S_∞ at the "
          "uniform q (d‖E x²‖∞): ‖E x²‖₁/(d‖E x²‖∞) — “the potential improvement according to "
          "our analysis”", assumptions="E[x_i²] > 0 (d = 3 symbolic second moments)",
          method=_METHOD, delta=0.0, detectable=_DETECTS)
def check_ks15_eq11_12(ctx):
    """KS15 eqs. (11)-(12): ``KS15.Eq11.rho_ridge`` and ``KS15.Eq12.rho_lasso`` derived as
    ratios of the variance terms of Lemma 3.4 / 4.5 (eq. (2), (7))."""
    half, q_ok_r = _optimal_q(sp.Rational(1, 2))[0], _optimal_q(sp.Rational(1, 2))[2]
    one, q_ok_l = _optimal_q(sp.Integer(1))[0], _optimal_q(sp.Integer(1))[2]
    a = sp.symbols("a1:4", positive=True)                 # as in _optimal_q
    d3 = 3
    uniform_r = sum(ai * d3 for ai in a)                  # Σ a_i/(1/d)
    top = sp.Symbol("top", positive=True)                 # max a_i, a_i = top − slack_i
    N_half, N_one, N_inf, d = _S("N_half", "N_one", "N_inf", "d")
    rho_r = bounds.FORMULAS["KS15.Eq11.rho_ridge"].expr
    rho_l = bounds.FORMULAS["KS15.Eq12.rho_lasso"].expr
    norms = {N_half: sum(sp.sqrt(ai) for ai in a) ** 2, N_one: sum(a), d: d3}
    return derive([], [("eq. (4)'s S over the uniform S is the registered ρ_ridge (d = 3)",
                        q_ok_r and same(half / uniform_r, rho_r.subs(norms))),
                       ("Lemma 4.3's S_∞ over the uniform S_∞ (d·max a_i) is the registered "
                        "ρ_lasso (d = 3, at max a_i = top)",
                        q_ok_l and same(one / (d3 * top), rho_l.subs({**norms, N_inf: top})))])


def _lemma310(H, eps_root):
    """KS15 Lemma 3.10 (App. B.7, Lemma B.4): the larger of Lemma 3.8's and Lemma 3.9's step
    sizes, and the two bounds; ``eps_root`` the √ε factor with ε of Alg. 2 line 11."""
    eta, G, m2, d, k, S, B = _S("eta", "G", "m2", "d", "k", "S", "B")
    G2, _ = _ks15_second_moment(S)
    generic = _ks15_ogd(eta, G, m2)
    best = _minimiser(generic, eta)
    g_as = sp.sqrt(24 * B ** 2 * d / k)
    g_hp = sp.sqrt(G2.subs(S, _lemma37_hp(H, eps_root)))
    eta_as = best.subs(G, g_as)
    eta_max = sp.Max(eta_as, best.subs(G, g_hp))
    return (eta_max, generic.subs(eta, best).subs(G, g_as), generic.subs(eta, best).subs(G, g_hp),
            eta_as)


def _lemma_b4():
    """KS15 Lemma B.4 (f(max(η₁, η₂)) <= min(f(η₁), f(η₂)) for f = A/η + ηBG², G <= G_i):
    at η_i = (1/G_i)√(A/B) the larger η is that of the smaller G_i, f(η_i) decreasing in
    ... proved here as: f(η)'s value at η_i is √(AB)(G_i + G²/G_i), increasing in G_i for
    G_i >= G."""
    A, Bc, G, Gi = sp.symbols("A B_c G G_i", positive=True)
    s = sp.Symbol("s", nonnegative=True)
    f_at = A / (sp.sqrt(A / Bc) / Gi) + sp.sqrt(A / Bc) / Gi * Bc * G ** 2
    slope = sp.diff(f_at, Gi).subs(Gi, G + s)
    return nonnegative(slope)


@register("KS15.Lemma3.10.derivation", citation="KS15 Lemma 3.10 (App. B.7)",
          statement="η = max(Lemma 3.8's η, Lemma 3.9's η at ε = d log(2d/δ)/((k+1)m₁)) by "
          "Lemma B.4, with both bounds; B.7's printed √(k/(12dm₂)) is Lemma 3.8's η / √2 (the "
          "registered erratum)", assumptions=_KS15_RIDGE.replace("m >= 1", "m₁, m₂ >= 1")
          + ", H >= ‖E x²‖_{1/2}, 0 < δ < 1", method=_METHOD, delta=0.0, detectable=_DETECTS)
def check_ks15_lemma310(ctx):
    """KS15 Lemma 3.10: the step size, both bounds, and B.7's printed step size (ERRATUM text
    of ``KS15.Lemma3.10.eta_proof_text``) derived."""
    H = _S("H")
    eps = bounds.FORMULAS["KS15.Alg2.eps"].expr
    eta_max, b_as, b_hp, eta_as = _lemma310(H, sp.sqrt(eps))
    d, k, m2 = _S("d", "k", "m2")
    return derive([("KS15.Lemma3.10.eta", eta_max, "Lemma B.4's max of the two minimisers"),
                   ("KS15.Lemma3.10.bound_as", b_as, "Lemma 3.8's bound"),
                   ("KS15.Lemma3.10.bound_hp", b_hp, "Lemma 3.9's bound at Alg. 2's ε"),
                   ("KS15.Lemma3.10.eta_proof_text", eta_as / sp.sqrt(2),
                    "B.7's printed η = Lemma 3.8's / √2 (erratum)")],
                  [("Lemma B.4: f(η_i) increasing in G_i >= G", _lemma_b4()),
                   ("Alg. 2 line 11's ε (KS15.Alg2.eps) as typed here",
                    same(eps, _S("d") * sp.log(2 * _S("d") / _S("delta"))
                         / ((_S("k") + 1) * _S("m1"))))])


@register("KS15.Thm3.6.derivation", citation="KS15 Thm 3.6 (via Lemma 3.10)",
          statement="Lemma 3.10 at H = ‖E x²‖_{1/2} gives the proof's η and bounds; the printed "
          "η and high-probability bound are those with √ε replaced by √(ε + k) and √(ε + 1) "
          "(the registered erratum readings)", assumptions=_KS15_RIDGE.replace(
              "m >= 1", "m₁, m₂ >= 1") + ", 0 < δ < 1", method=_METHOD, delta=0.0,
          detectable=_DETECTS)
def check_ks15_thm36(ctx):
    """KS15 Thm 3.6: proof versions derived; the printed ones' relation to them checked."""
    N = _S("N_half")
    eps = bounds.FORMULAS["KS15.Alg2.eps"].expr
    k = _S("k")
    eta_max, b_as, b_hp, eta_as = _lemma310(N, sp.sqrt(eps))
    # the printed readings: Lemma 3.10's '+ k' (step size) and '+ 1' (bound) moved under √ε
    B, m2, d = _S("B", "m2", "d")
    eta_k = sp.Max(eta_as, sp.sqrt(k / (m2 * _lemma37_hp(N, sp.sqrt(eps + k)))))
    printed_hp = 4 * B ** 2 / sp.sqrt(m2) * sp.sqrt(_lemma37_hp(N, sp.sqrt(eps + 1)) / k)
    # Lemma 3.9's Ĝ²/(4B²) = X/k + 1: the derived bound is the printed one's X with √ε and + 1
    moved = same(b_hp ** 2 - 16 * B ** 4 / m2,
                 16 * B ** 4 / m2 * _lemma37_hp(N, sp.sqrt(eps)) / k)
    return derive([("KS15.Thm3.6.eta_proof", eta_max, "Lemma 3.10 at H = ‖E x²‖_{1/2}"),
                   ("KS15.Thm3.6.bound_as", b_as, "Lemma 3.10, w.p. 1"),
                   ("KS15.Thm3.6.bound_hp_proof", b_hp, "Lemma 3.10, w.p. >= 1 − δ"),
                   ("KS15.Thm3.6.eta", eta_k, "printed: √ε read as √(ε + k) (erratum)"),
                   ("KS15.Thm3.6.bound_hp", printed_hp,
                    "printed: the '+ 1' moved under √ε (erratum)")],
                  [("the printed bound is Lemma 3.10's with '+ 1' moved under √ε", moved)])


@register("KS15.Thm4.7.derivation", citation="KS15 Thm 4.7 (Sec. 4.2.1)",
          statement="Lemma 4.8 in Lemma 4.5 gives "
          "Ĝ² = 4B²((4/k)‖2A + (10/3)ε‖₁ + (20/(3k))dε + 1); "
          "Thm 4.1's minimiser at Ĝ with ε of Alg. 4 line 11 is the stated η; with (10), "
          "‖2A + (10/3)ε‖₁ <= 4‖E x²‖₁ + (14/6 + 10/3)dε, 2B√(5Ĝ² log 2d/m₂) is the stated "
          "high-probability bound", assumptions=_KS15_LASSO.replace("m >= log 2d",
                                                                   "m₂ >= log 2d")
          + ", A >= 0 (the phase-1 estimate of E[x²]), 0 < δ < 1", method=_METHOD, delta=0.0,
          detectable=_DETECTS)
def check_ks15_thm47(ctx):
    """KS15 Thm 4.7: Ĝ², the step size and the high-probability bound derived (the constant 61
    of the almost-sure bound is checked step by step by ``KS15.Thm4.7.proof.*``)."""
    eta, G, m2, d, k, B, A_one, N, eps = _S("eta", "G", "m2", "d", "k", "B", "A_one", "N_one",
                                            "eps")
    X = sp.Symbol("X", positive=True)                    # ‖2A + (10/3)ε‖₁
    g2_hat = 4 * B ** 2 * (4 / k * X + sp.Rational(20, 3) / k * d * eps + 1)
    generic = _eg_excess(eta, G, m2)
    best = _minimiser(generic, eta)
    l1 = 2 * A_one + sp.Rational(10, 3) * eps * d          # ‖2A + (10/3)ε‖₁ for A >= 0
    eq10 = 4 * N + (_q(proofs_ks15._EQ6_RIGHT_EPS) + sp.Rational(10, 3)) * d * eps
    eps_lasso = bounds.FORMULAS["KS15.Alg4.eps"].expr
    at_hat = {G: sp.sqrt(g2_hat.subs(X, l1))}
    return derive([("KS15.Thm4.7.G2hat", g2_hat.subs(X, l1), "Lemma 4.8 in Lemma 4.5, A >= 0"),
                   ("KS15.Thm4.7.eta", best.subs(at_hat).subs(eps, eps_lasso),
                    "Thm 4.1's minimiser at Ĝ, ε of Alg. 4 line 11"),
                   ("KS15.Thm4.7.bound_hp",
                    generic.subs(eta, best).subs(G, sp.sqrt(g2_hat.subs(X, eq10)))
                    .subs(eps, eps_lasso), "Thm 4.1 at its minimiser, Ĝ with (10)")],
                  [("Alg. 4 line 11's ε (KS15.Alg4.eps) as typed here",
                    same(eps_lasso, sp.Min(d * sp.log(2 * d / _S("delta"))
                                           / ((k + 1) * _S("m1")), 1)))])


@register("KS15.Thm4.7.derivation.as", citation="KS15 Thm 4.7 (Sec. 4.2.1, last display)",
          statement="at ε = 1 (Alg. 4 line 11's cap; Lemma 4.8 then holds with probability 1) "
          "the proof's bound 4B²√(5(16‖E x²‖₁ + (88/3)dε + k) log 2d/(km₂)), with ‖E x²‖₁ <= d "
          "(‖x‖∞ <= 1) and k <= d, is at most 61B²√(d log 2d/(km₂)): "
          "16·5(16 + 88/3)d + 80k <= 61²d",
          assumptions=_KS15_LASSO.replace("m >= log 2d", "m₂ >= log 2d") + ", ε = 1",
          method=_METHOD + "; the proof's bound rebuilt as in KS15.Thm4.7.derivation (Thm 4.1 at "
          "its minimiser, Lemma 4.8 in Lemma 4.5, (10)), then bound_as² − bound² >= 0 proved "
          "with nonnegative slacks (d = k + s), at ‖E x²‖₁ = d after proving it increasing there",
          delta=0.0, detectable=_DETECTS)
def check_ks15_thm47_as(ctx):
    """KS15 Thm 4.7: the almost-sure constant 61 (``KS15.Thm4.7.bound_as``) from the proof's
    high-probability bound at ε = 1; a smaller constant (60 already) is not proved."""
    eta, G, m2, d, k, B, N = _S("eta", "G", "m2", "d", "k", "B", "N_one")
    generic = _eg_excess(eta, G, m2)
    best = _minimiser(generic, eta)
    eq10 = 4 * N + (_q(proofs_ks15._EQ6_RIGHT_EPS) + sp.Rational(10, 3)) * d   # (10) at ε = 1
    g2_hat = 4 * B ** 2 * (4 / k * eq10 + sp.Rational(20, 3) / k * d + 1)
    proof = generic.subs(eta, best).subs(G, sp.sqrt(g2_hat))
    stated = bounds.FORMULAS["KS15.Thm4.7.bound_as"].expr
    s = sp.Symbol("s", nonnegative=True)
    slope = sp.expand(proof ** 2).coeff(N)                # the square is affine in ‖E x²‖₁
    rising = same(sp.expand(proof ** 2), sp.expand(proof ** 2).subs(N, 0) + slope * N) and \
        bool(_on_domain(slope).is_positive)               # d >= 1: log 2d > 0
    gap = (stated ** 2 - proof.subs(N, d) ** 2) * k * m2 / (B ** 4 * sp.log(2 * d))
    return derive([], [("the proof's bound is increasing in ‖E x²‖₁", rising),
                       ("61²·d·log 2d/(km₂)·B⁴ >= the proof's bound² at ‖E x²‖₁ = d, k <= d",
                        nonnegative(sp.expand(gap), d=k + s)),
                       ("the proof's bound at ε = 1 is the registered bound_hp at ε = 1",
                        same(proof, bounds.FORMULAS["KS15.Thm4.7.bound_hp"].expr.subs(
                            bounds.FORMULAS["KS15.Alg4.eps"].expr, 1)))],
                  note="the case ε < 1 (Alg. 4 line 11 below its cap) is the registered erratum "
                       "KS15.Thm4.7.as_any_m1")


@register("KS15.Thm3.12.derivation", citation="KS15 Thm 3.12 (Sec. 3.3.1, via Lemma 3.10)",
          statement="Lemma 3.10 with H = ‖2A + (10/3)ε‖_{1/2} gives the stated η and the "
          "almost-sure bound; the printed high-probability bound is the proof's last line with "
          "its '+ 1' moved outside the root and the factor 16B²/√m₂ (the registered erratum "
          "reading)", assumptions=_KS15_RIDGE.replace("m >= 1", "m₁, m₂ >= 1") + ", 0 < δ < 1",
          method=_METHOD + "; the proof's chain of inequalities from Lemma 3.11 to its last line "
          "is not derived here (KS15.Thm3.12.chain checks it)", delta=0.0, detectable=_DETECTS)
def check_ks15_thm312(ctx):
    """KS15 Thm 3.12: η and the almost-sure bound derived; the printed high-probability bound's
    relation to the proof's last line (``KS15.Thm3.12.bound_hp_proof``) checked."""
    H, B, m2 = _S("H", "B", "m2")
    eps = bounds.FORMULAS["KS15.Alg2.eps"].expr
    eta_max, b_as, _, _ = _lemma310(H, sp.sqrt(eps))
    proof = bounds.FORMULAS["KS15.Thm3.12.bound_hp_proof"].expr
    c = 16 * B ** 2 / sp.sqrt(m2)
    # the proof's line is c√(inner + 1), inner = (1/k)(√N + d√(2ε))²; printed: c√(inner) + 1
    inner_of_proof = sp.expand((proof / c) ** 2) - 1
    printed = c * sp.sqrt(inner_of_proof) + 1
    return derive([("KS15.Thm3.12.eta", eta_max, "Lemma 3.10's η with the phase-1 H"),
                   ("KS15.Thm3.12.bound_as", b_as, "Lemma 3.10's almost-sure bound"),
                   ("KS15.Thm3.12.bound_hp", printed,
                    "printed: the proof's '+ 1' outside the root and the factor (erratum)")])


@register("KS15.Thm3.12.derivation.hp", citation="KS15 Thm 3.12 (Sec. 3.3.1) and Lemma 3.11 "
          "(6)", statement="Lemma 3.11's (6) with ‖a + b‖_{1/2} <= 2‖a‖_{1/2} + 2‖b‖_{1/2} gives "
          "H <= 8‖E x²‖_{1/2} + (34/3)d²ε; Lemma 3.10's high-probability bound "
          "(4B²/√m₂)√(2H/k + (2/k)√(5/3)d√H√ε + 1), increasing in H, is then at most the "
          "proof's last line (16B²/√m₂)√((1/k)(√‖E x²‖_{1/2} + d√(2ε))² + 1) at Alg. 2's ε",
          assumptions=_KS15_RIDGE.replace("m >= 1", "m₁, m₂ >= 1") + ", 0 < δ < 1",
          method=_METHOD + "; √H replaced by √(8N) + √(34/3)d√ε >= √H (its square minus H "
          "is a product of nonnegatives), then the difference of squares times k is a "
          "polynomial in √N, √ε, d, k whose every coefficient is proved >= 0",
          delta=0.0, detectable=_DETECTS)
def check_ks15_thm312_hp(ctx):
    """KS15 Thm 3.12: ``KS15.Lemma3.11.H_upper`` derived, and ``KS15.Thm3.12.bound_hp_proof``
    proved at least Lemma 3.10's bound at that H (the proof's chain, as one inequality)."""
    d, k, B, m2, N, eps, H = _S("d", "k", "B", "m2", "N_half", "eps", "H")
    n, e = sp.symbols("n e", nonnegative=True)             # √N, √ε
    s = sp.Symbol("s", nonnegative=True)
    x, y = sp.symbols("x y", nonnegative=True)
    # (6): ‖4E x² + (14/6)ε + (10/3)ε‖_{1/2} <= 2·4N + 2‖(14/6 + 10/3)ε·1‖_{1/2}, ‖c·1‖_{1/2} = d²c
    h_upper = 2 * 4 * N + 2 * d ** 2 * (_q(proofs_ks15._EQ6_RIGHT_EPS) + sp.Rational(10, 3)) * eps
    quasi = nonnegative(2 * x ** 2 + 2 * y ** 2 - (x + y) ** 2)       # (x + y)² <= 2x² + 2y²
    S_of = _lemma37_hp(H, sp.sqrt(eps))
    rising = nonnegative(sp.diff(S_of, H))
    lemma310 = 4 * B ** 2 / sp.sqrt(m2) * sp.sqrt(S_of / k + 1)      # Lemma 3.10's b_hp
    # √H_upper <= U (U² − H_upper = 2√(8N)√(34/3)d√ε >= 0)
    U = sp.sqrt(8) * n + sp.sqrt(sp.Rational(34, 3)) * d * e
    hu = h_upper.subs({N: n ** 2, eps: e ** 2})
    root_ok = nonnegative(sp.expand(U ** 2 - hu))
    last = 16 * B ** 2 / sp.sqrt(m2) * sp.sqrt((sp.sqrt(N) + d * sp.sqrt(2 * eps)) ** 2 / k + 1)
    c = 4 * B ** 2 / sp.sqrt(m2)
    inner_last = sp.expand(((last / c) ** 2).subs({N: n ** 2, eps: e ** 2}))
    inner_310 = (2 * hu + 2 * sp.sqrt(_q(_EPS_TERM)) * d * U * e) / k + 1
    gap = sp.Poly(sp.expand((inner_last - inner_310) * k), n, e, d, k)
    chain = all(bool(cf.is_nonnegative) for cf in gap.coeffs())
    return derive([("KS15.Lemma3.11.H_upper", h_upper, "(6) with ‖a + b‖_{1/2} <= 2‖a‖ + 2‖b‖"),
                   ("KS15.Thm3.12.bound_hp_proof",
                    last.subs(eps, bounds.FORMULAS["KS15.Alg2.eps"].expr),
                    "the proof's last line at Alg. 2 line 11's ε")],
                  [("‖a + b‖_{1/2} <= 2‖a‖_{1/2} + 2‖b‖_{1/2}: (x + y)² <= 2x² + 2y²", quasi),
                   ("Lemma 3.10's bound is increasing in H", rising),
                   ("√H_upper <= √(8N) + √(34/3)d√ε", root_ok),
                   ("Lemma 3.10's bound at H_upper <= the proof's last line (squares, all "
                    "coefficients >= 0)", chain and bool(lemma310.has(H)))])


#: (w, E[x²]) instances: every product w_i² E[x_i²] a square; only the numerator a square (1/2,
#: 4/3); only the denominator (2/9); neither (3/5); and one zero weight.
_KS15_IMPROVED = [
    ((Fraction(1), Fraction(1, 2)), (Fraction(1), Fraction(1))),
    ((Fraction(1), Fraction(1), Fraction(1, 2)), (Fraction(4, 3), Fraction(1, 4), Fraction(1))),
    ((Fraction(1, 3), Fraction(-2), Fraction(1)), (Fraction(2), Fraction(1, 9), Fraction(3, 5))),
    ((Fraction(0), Fraction(3, 2), Fraction(-1, 2)), (Fraction(1, 2), Fraction(1, 4), Fraction(1))),
    ((Fraction(1, 2), Fraction(1, 4)), (Fraction(1, 4), Fraction(1, 16))),
]


@register("KS15.Sec3.improved_p.derivation", citation="KS15 Sec. 3 (after Lemma 3.3: the "
          "optimal inner-product probabilities, by the optimisation of eq. (4))",
          statement="the improved p of the reference (ks15_inner_distribution, kind='improved') "
          "minimises the second moment Σ w_i² E[x_i²] / p_i of the inner-product estimate over "
          "the simplex: its value equals the Cauchy-Schwarz minimum (Σ √(w_i² E[x_i²]))²",
          assumptions="E[x_i²] > 0, w ≠ 0 (p_i = 0 where w_i = 0)",
          method="sympy: the minimum (Σ √(w_i² E[x_i²]))² exactly, against the objective at the "
          "reference's p (Fractions or floats), relative 1e-12, on rational instances whose "
          "products are squares, have a square numerator only, a square denominator only, or "
          "neither", delta=0.0, detectable=0.0)
def check_ks15_improved_p(ctx):
    """KS15 Sec. 3: p_i ∝ √(w_i² E[x_i²]) is the minimiser (not a restatement: the objective)."""
    worst, bad = 0.0, None
    for w, m in _KS15_IMPROVED:
        p = ref_est.ks15_inner_distribution(list(w), "improved", list(m))
        minimum = sp.Add(*[sp.sqrt(sp.Rational(wi.numerator, wi.denominator) ** 2
                                   * sp.Rational(mi.numerator, mi.denominator))
                           for wi, mi in zip(w, m)]) ** 2
        value = sum(float(wi * wi * mi) / float(pi) for wi, mi, pi in zip(w, m, p)
                    if wi != 0)
        total = float(sum(p))
        gap = abs(value - float(minimum)) / float(minimum) + abs(total - 1.0)
        worst = max(worst, gap)
        if gap > _RTOL and bad is None:
            bad = {"w": [str(v) for v in w], "second_moments": [str(v) for v in m],
                   "p": [str(v) for v in p], "objective_at_p": value,
                   "minimum": str(minimum), "sum_p": total}
    return _verdict(bad is None, {"instances": len(_KS15_IMPROVED), "worst_relative_gap": worst},
                    bad)


#: KS15 eq. (15) (App. B): A[i] <= 2E[x_i²] + (7/6)ε and A[i] >= (1/2)E[x_i²] − (5/3)ε
_EQ15_UP_FACTOR, _EQ15_UP_EPS = 2, Fraction(7, 6)
_EQ15_LOW_FACTOR, _EQ15_LOW_EPS = Fraction(1, 2), Fraction(5, 3)


@register("KS15.Lemma3.11.derivation", citation="KS15 Lemma 3.11 (proof, with eq. (15))",
          statement="H = ‖2A + (10/3)ε‖_{1/2}: the shift 10/3 = 2·(5/3) makes H >= ‖E x²‖_{1/2} "
          "by (15)'s second inequality; (15)'s first inequality, ‖a + b‖_{1/2} <= 2‖a‖_{1/2} + "
          "2‖b‖_{1/2} and ‖c·1‖_{1/2} = d²c give H <= 8‖E x²‖_{1/2} + (34/3)d²ε",
          assumptions="d >= 1, ε > 0; (15) holds (w.p. >= 1 − δ)",
          method="sympy: the upper bound rebuilt from (15) and the quasi-norm identity and "
          "compared with laocheck.bounds KS15.Lemma3.11.H_upper (simplify); the shift and the "
          "identity's constant checked on symbols", delta=0.0, detectable=0.0)
def check_ks15_lemma311(ctx):
    """KS15 Lemma 3.11's H_upper derived from eq. (15)."""
    d, eps, N = (bounds_sym(n) for n in ("d", "eps", "N_half"))
    shift = 2 * _q(_EQ15_LOW_EPS)                            # 2A + 2(5/3)ε >= E x² by (15)
    lower_ok = sp.simplify(2 * _q(_EQ15_LOW_FACTOR) - 1) == 0   # 2·(1/2) E x² = E x²
    # (15) first: 2A + shift·ε <= 2·2 E x² + (2·(7/6) + shift) ε, coordinatewise
    a_coef = 2 * _EQ15_UP_FACTOR
    b_const = (2 * _q(_EQ15_UP_EPS) + shift) * eps
    quasi = 2                                                # ‖a + b‖_{1/2} <= 2‖a‖ + 2‖b‖
    # √(a_i + b_i) <= √a_i + √b_i, then (x + y)² <= 2x² + 2y² at x = Σ√a_i, y = Σ√b_i
    ra, rb = sp.symbols("x y", nonnegative=True)
    identity = nonnegative(quasi * (ra ** 2 + rb ** 2) - (ra + rb) ** 2)
    norm_b = (d * sp.sqrt(b_const)) ** 2                     # ‖c·1_d‖_{1/2} = (Σ √c)²
    derived = quasi * a_coef * N + quasi * norm_b
    return derive([("KS15.Lemma3.11.H_upper", derived, "(15) + quasi-norm identity")],
                  [("the shift 10/3 = 2·(5/3) undoes (15)'s lower −(5/3)ε, and 2·(1/2) = 1",
                    lower_ok and shift == sp.Rational(10, 3)),
                   ("(x + y)² <= 2x² + 2y²: the quasi-norm identity's constant 2", identity)])
