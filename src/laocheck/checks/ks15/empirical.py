"""KS15: the bounds against empirical runs of the learners (ids ``KS15.*``).

The helpers these checks share with the other papers' are in
:mod:`laocheck.checks._kinds.empirical`, which says how this kind of check works.
"""

from __future__ import annotations

import numpy as np

from ... import bounds, learners
from ...data import CorrelatedSigns
from ...experiments import LearnerConfig, compare
from ...experiments.theorems import THEOREMS
from .._common import paired
from .._kinds.empirical import (_DELTA, derivation, interval_detects_factor, register_high_dim,
                                register_theorems, sequential_comparison, _seed)
from .._registry import Result, Status, register

register_theorems("KS15")
register_high_dim("KS15.Thm4.6")


#: the phase-1 outcome of the counterexample to Thm 4.7's "for any m₁" (attribute 1 never drawn)
_ANY_M1_PHASE1_A = (0.0, 1.0)


@register("KS15.Thm4.7.as_any_m1", citation="KS15 Thm 4.7",
          statement="If m2 >= log 2d then for any m1 ... with probability 1 over the first phase, "
          "E_{D,A2}[L(w-bar)] - L(w*) <= 61 B^2 sqrt(d log 2d/(k m2))",
          assumptions="‖x‖∞ <= 1, |y| <= B: KS15 Thm 4.7, “Assume the distribution D is such that "
          "‖x‖∞ ≤ 1 and |y| ≤ B with probability 1”; m₂ >= log 2d, any m₁: KS15 Thm 4.7, “If m₂ ≥ "
          "log 2d then for any m₁ and for any w* ∈ R^d with ‖w*‖₁ ≤ B, with probability 1 over the "
          "first phase”; 1 <= k <= d: KS15 Sec. 1, “we have a budget of k + 1 attributes, where k "
          "≪ d”; x uniform on {-1,+1}^2, y = B x_1 (||x||_inf = 1, |y| = B), d = 2, k = 1, B = 1, "
          "delta = 0.05, m1 = 10^9, m2 = 10^5; the phase-1 outcome A = (0, 1) (attribute 1 never "
          "drawn in phase 1: probability 2^(-2 m1) > 0)",
          method="phase 2 of KS15 Alg. 4 given that A (GAELR with q_i ∝ A_i + 13 eps/6 and Thm 4.7's "
                 "eta, from laocheck.bounds), runs in doubling looks (at most 200, full 800; look "
                 "j at 6 delta / (pi^2 j^2): anytime-valid), stopped once the lower end refutes "
                 "the bound with power 0.9 (detects = 1); betting CI at delta = 1e-6; ERRATUM iff "
                 "the CI's lower end exceeds the 61-bound",
          delta=_DELTA, detectable="a conditional mean excess above the bound by the CI width",
          expected=Status.ERRATUM, correction="KS15.Thm4.7.constant61")
def check_ks15_thm47_any_m1(ctx):
    """KS15 Thm 4.7's "w.p. 1 over the first phase, for any m1" is false when ε < 1: the proof's
    Lemma 4.8 holds w.p. 1 only for ε = 1. A phase-1 outcome that never sees the informative
    attribute makes q₁ ≈ 13ε/6 tiny; the clipped estimate (threshold 1/η) then shrinks that
    coordinate's gradient and phase 2 stays near w = 0."""
    F = bounds.FORMULAS
    d, k, B, dl, m1, m2 = 2, 1, 1.0, 0.05, 10 ** 9, 10 ** 5
    R = 400 if ctx.full else 100
    dist = CorrelatedSigns(np.ones(2), np.array([B, 0.0]), corr=0.0)
    A = np.array(_ANY_M1_PHASE1_A)
    eps = F["KS15.Alg4.eps"](d=d, delta=dl, k=k, m1=m1)
    q = (A + 13 / 6 * eps) / (A + 13 / 6 * eps).sum()           # Alg. 4 line 12
    eta = F["KS15.Thm4.7.eta"](k=k, d=d, B=B, m2=m2, A_one=float(A.sum()), delta=dl, m1=m1)
    bound = F["KS15.Thm4.7.bound_as"](B=B, d=d, k=k, m2=m2)
    spec = LearnerConfig(learners.GAELR, dict(k=k, B=B, eta=eta, q=q))
    # sequential (issue 51 item 2): looks up to twice R, stopped once refuted with full power
    comp, looks = sequential_comparison(
        lambda size, child: compare("KS15.Thm4.7", spec, dist, m2, bound, norm="l1", B=B,
                                    R=size, delta=ctx.delta, seed=child),
        _seed(ctx), 2 * R, ctx.delta)
    figs = comp.figures()
    figs.update({"looks": looks, "max_R": 2 * R})
    R = comp.R
    figs.update({"eps": eps, "q": q.tolist(), "eta": eta, "phase1_A": A.tolist(),
                 "bound_hp": F["KS15.Thm4.7.bound_hp"](B=B, N_one=2.0, d=d, k=k, m2=m2,
                                                       delta=dl, m1=m1)})
    config = {"d": d, "k": k, "B": B, "delta": dl, "m1": m1, "m2": m2, "x": "uniform on {-1,+1}^2",
              "y": "B x_1", "phase1_A": A.tolist(), "R": R}
    figs["detects"] = interval_detects_factor(comp)
    if comp.violation:
        return Result(Status.ERRATUM, figs, counterexample=config, detects=figs["detects"],
                      correction="KS15.Thm4.7.constant61",
                      note=f"E[excess | A] >= {comp.interval.low:.4g} (lower confidence bound) > "
                           f"61 B^2 sqrt(d log 2d/(k m2)) = {bound:.4g}. The proof shows the 61-bound "
                           "only for eps = 1 (Lemma 4.8 w.p. 1); for eps < 1 it holds w.p. >= 1 - delta.")
    return paired(Result(Status.PASS, figs, note="no violation detected at this effort",
                         detects=figs["detects"]), derivation("KS15.Thm4.7"))
