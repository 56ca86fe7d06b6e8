"""Properties of every estimator ("Properties of every estimator and learner").

One check per (estimator, property), each taking the estimator object of the protocol, so that
``check.with_estimator(mine)`` runs it on a user's own estimator:

* ``unbiased.exact``: exact expectation of the literal reference version (enumeration of every
  sampling outcome, Fractions) equals the target written from the paper;
* ``unbiased.monte_carlo``: the Cython kernel's mean (kernel-side sums, simultaneous empirical
  Bernstein intervals at δ) contains the target;
* ``budget``: no draw observes more attributes than the budget (exact over every outcome, and
  every kernel draw);
* ``kernel_matches_reference``: the kernel draws come from the exact distribution of the
  reference version (multinomial test at δ over the finite support);
* ``scaling``: (w, x, y) → (c·w, x, c·y) multiplies the residual/gradient estimate by c and leaves
  x̃ unchanged, exactly in distribution;
* ``clip_threshold``: the clipped gradient is the image of the unclipped one under clip(·, 1/η).

Which checks an estimator gets is read from its :class:`~laocheck.estimators.EstimatorSpec`
(the claims the papers make and the support), never from its name: ``unbiased.*`` when the spec
claims unbiasedness and the support is finite (the exact enumeration and the Monte Carlo range
need it), ``budget`` when the support is finite and the budget holds for every draw,
``kernel_matches_reference`` when the support is finite, ``scaling`` when the spec states how
the estimate scales, ``clip_threshold`` when it claims clipping. Each check is bound to its
spec (``spec=``), so a rebound user estimator is held to the registered estimator's claims.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction as F

import numpy as np

from .. import estimators
from ..estimators.instances import INSTANCES, as_float, params_for
from ._common import (draw_moments, estimator_params, exact_distribution, exact_mean, fstr,
                      mc_mean_verdict, sampler_matches_exact)
from ._registry import Result, Status, register

INSTANCE = "d4"


def claims_unbiased(spec):
    """Unbiasedness checks apply: claimed, and a finite support to enumerate."""
    return spec.unbiased and spec.finite


def claims_max_budget(spec):
    """The per-draw budget check applies: finite support, budget kept by every draw."""
    return spec.finite and spec.budget.kind == "exact"


def claims_scaling(spec):
    """The scaling check applies: the spec states how the estimate scales (finite support)."""
    return spec.finite and spec.scaling is not None


def claims_clipping(spec):
    """The clipping check applies: the spec claims ḡ = clip(g̃, 1/η) (finite support)."""
    return spec.finite and spec.clipping is not None


def _params(spec):
    return params_for(spec, len(INSTANCES[INSTANCE][0]), spec.check_k)


def _own_params(spec, estimator):
    """The parameters the estimator runs with: the example parameters of the exact instance,
    overridden by the estimator's own (a user's k is the user's k, not laocheck's)."""
    return {**_params(spec), **estimator_params(estimator)}


def _literal(spec, estimator):
    """The literal reference the kernel is judged against: the registered estimator of the
    spec (laocheck's transcription of the paper's box) at the estimator's own parameters, or the
    estimator's own reference when the spec names no registered estimator (a new estimator
    checked before registration) or its parameters do not build laocheck's."""
    if spec.name in estimators.names():
        try:
            return estimators.get(spec.name, **_own_params(spec, estimator))
        except (TypeError, ValueError):     # a user's params laocheck's estimator does not take
            return estimators.get(spec.name, **_params(spec))
    return estimator


def paper_target(spec, w, x, y):
    """What the estimate claims to estimate, written from the papers (the spec's ``target``,
    exact arithmetic): x for x̃ (HK12 Alg. 1 line 7, KS15 eq. (1), CB11 eq. (6)), wᵀx − y for
    φ̃ (HK12 Alg. 1 line 9, KS15 eq. (5), CB11 eq. (7)), (wᵀx − y)·x for g̃ (HK12 Lemma 3.3,
    KS15 Lemma B.2), 2(wᵀx − y)·x for CB11's ∇̃ℓ (eq. (8), CB11 Lemma 11: no factor ½)."""
    return spec.target(w, x, y, **_params(spec))


def _support_range(dist, size):
    vals = np.array([np.asarray(np.asarray(v[0], dtype=object).ravel(), dtype=float)
                     for _, v in dist]).reshape(-1, size)
    return vals.min(axis=0), vals.max(axis=0)


def check_unbiased_exact(ctx, *, estimator, spec):
    """Unbiasedness claimed by CB11 Lemma 11, HK12 Lemmas 3.3 / 3.8, KS15 Lemma B.2 (exact)."""
    w, x, y = INSTANCES[INSTANCE]
    dist = exact_distribution(estimator, w, x, y)
    mean = exact_mean(dist)
    target = np.asarray(paper_target(spec, w, x, y), dtype=object)
    diff = mean - target
    ok = dist.residual_mass == 0 and all(v == 0 for v in np.ravel(diff))
    figures = {"instance": INSTANCE, "outcomes": len(dist), "exact_mean": fstr(mean),
               "target": fstr(target), "max_abs_bias": fstr(max(abs(v) for v in np.ravel(diff)))}
    if ok:
        return Result(Status.PASS, figures, detectable=0.0)
    return Result(Status.FAIL, figures, detectable=0.0,
                  counterexample={"instance": INSTANCE, "bias": fstr(diff)})


def check_unbiased_monte_carlo(ctx, *, estimator, spec):
    """Unbiasedness (CB11 Lemma 11, HK12 Lemmas 3.3 / 3.8, KS15 Lemma B.2) of the kernel, at δ."""
    w, x, y = INSTANCES[INSTANCE]
    ref = _literal(spec, estimator)
    dist = exact_distribution(ref, w, x, y)          # the range of the estimate (finite support)
    target = np.asarray(paper_target(spec, w, x, y), dtype=float).ravel()
    lo, hi = _support_range(dist, target.size)
    wf, xf, yf = as_float(INSTANCES[INSTANCE])
    n = ctx.n(200_000, 10_000_000)
    moments = draw_moments(estimator, wf, xf, yf, n, ctx.rng)
    return mc_mean_verdict(moments, target, lo, hi, ctx.delta)


def check_budget(ctx, *, estimator, spec):
    """The attribute budget (k + 1 of HK12 Sec. 2 / KS15 Sec. 2, k of CB11 Sec. 4) per draw."""
    w, x, y = INSTANCES[INSTANCE]
    budget = spec.budget.of(_own_params(spec, estimator))   # the paper's formula, own params
    figures = {"budget": budget}
    worst = 0
    if hasattr(estimator, "reference"):
        dist = exact_distribution(estimator, w, x, y)
        worst = max(len(v[1]) for _, v in dist)
        figures["exact_max_attributes"] = worst
    wf, xf, yf = as_float(INSTANCES[INSTANCE])
    n = ctx.n(20_000, 1_000_000)
    moments = draw_moments(estimator, wf, xf, yf, n, ctx.rng)
    figures.update({"n": n, "kernel_max_attributes": int(moments.attributes_max),
                    "kernel_mean_attributes": moments.attributes_mean})
    worst = max(worst, int(moments.attributes_max))
    if worst <= budget:
        return Result(Status.PASS, figures, detectable="any draw over budget seen")
    return Result(Status.FAIL, figures, counterexample={"attributes": worst, "budget": budget})


def check_kernel_matches_reference(ctx, *, estimator, spec):
    """The kernel samples the distribution of the literal box (HK12 Alg. 1-2, KS15 Alg. 1/3,
    CB11 Fig. 1-2), by a multinomial test at δ against the exact enumeration."""
    return sampler_matches_exact(ctx, estimator, _literal(spec, estimator), INSTANCE)


def check_scaling(ctx, *, estimator, spec):
    """Scaling (HK12 Alg. 1 line 9, KS15 eq. (5), CB11 eqs. (6)-(8) are
    homogeneous of degree 1 in (w, y) and of degree 0 for x̃)."""
    w, x, y = INSTANCES[INSTANCE]
    c = F(2)
    base = exact_distribution(estimator, w, x, y)
    scaled = exact_distribution(estimator, [c * v for v in w], x, c * y)

    def transform(value):
        arr = np.asarray(value, dtype=object).copy()
        if spec.scaling == "last_row":
            arr[-1] = arr[-1] * c          # 2 y v scales by c, A does not depend on (w, y)
            return arr
        return arr if spec.scaling == "degree0" else arr * c

    def as_dict(dist, f):
        out = Counter()
        for p, v in dist:
            out[tuple(np.ravel(np.asarray(f(v[0]), dtype=object)).tolist())] += p
        return out

    ok = as_dict(scaled, lambda v: v) == as_dict(base, transform)
    figures = {"c": str(c), "outcomes": len(base)}
    if ok:
        return Result(Status.PASS, figures, detectable=0.0)
    return Result(Status.FAIL, figures, detectable=0.0,
                  counterexample={"instance": INSTANCE, "c": str(c)})


def register_properties(spec, estimator=None):
    """Register the property checks that ``spec``'s claims select, bound to ``estimator`` (a
    registered name, a factory or an object; default: the registered estimator ``spec.name``
    built with the example parameters of the exact instance)."""
    name = spec.name
    registered = estimator is None
    params = _params(spec) if registered else {}
    estimator = name if registered else estimator
    common = dict(assumptions=f"instance {INSTANCE} (dyadic, laocheck.testing.instances)",
                  estimator=estimator, params=params, spec=spec)
    if claims_unbiased(spec):
        register(f"{name}.unbiased.exact", citation=spec.citation,
                 statement=f"E[{name}] = its target (x, wᵀx − y or the gradient), exactly",
                 method="exact enumeration (Fractions)", delta=0.0, detectable=0.0,
                 **common)(check_unbiased_exact)
        register(f"{name}.unbiased.monte_carlo", citation=spec.citation,
                 statement=f"the Cython kernel of {name} is unbiased for its target",
                 method="Monte Carlo, simultaneous empirical-Bernstein intervals from kernel sums",
                 detectable="reported per run (Bernstein design, β = 0.1)",
                 **common)(check_unbiased_monte_carlo)
    if claims_max_budget(spec):
        budget = spec.budget.of(_params(spec))
        register(f"{name}.budget", citation=spec.citation,
                 statement=f"every draw of {name} observes at most {budget} attributes of x",
                 method="exact enumeration + every kernel draw", delta=0.0,
                 detectable="one draw over budget", **common)(check_budget)
    if spec.finite:
        register(f"{name}.kernel_matches_reference", citation=spec.citation,
                 statement=f"the kernel of {name} draws from the exact distribution of the "
                 "literal reference version",
                 method="multinomial test (per-category Clopper-Pearson, Bonferroni) against "
                 "the enumerated distribution", detectable="see multinomial_test power",
                 **common)(check_kernel_matches_reference)
    if claims_scaling(spec):
        register(f"{name}.scaling", citation=spec.citation,
                 statement="(w, x, y) -> (c·w, x, c·y) scales the residual/gradient estimate by c "
                 "(x̃ unchanged), in distribution", method="exact enumeration, c = 2",
                 delta=0.0, detectable=0.0, **common)(check_scaling)
    if claims_clipping(spec):
        clip = spec.clipping
        register(f"{name}.clip_threshold", citation=spec.citation + f" (clip, {clip.citation})",
                 statement="ḡ[i] = clip(g̃[i], 1/η) in distribution: the clipped "
                 "estimate is the image of the unclipped one under clip(·, 1/η)",
                 assumptions=f"instance {INSTANCE}, η = {clip.example_eta:g} (clipping active)",
                 method="exact enumeration (Fractions) of both estimates", delta=0.0,
                 detectable=0.0, estimator=estimator,
                 params={**params, clip.eta: clip.example_eta} if registered else params,
                 spec=spec)(check_clip_threshold)


def check_clip_threshold(ctx, *, estimator, spec):
    """HK12 Alg. 2 lines 12-13 (KS15 Alg. 3): ḡ[i] = clip(g̃[i], 1/η). The exact distribution of
    the clipped estimate is the image under clip(·, 1/η) of the unclipped estimate's
    distribution (same sampler), with η = 4 so that the clipping is active on d4."""
    clip = spec.clipping
    eta = F(getattr(estimator, clip.eta, clip.example_eta)).limit_denominator(10 ** 9)
    c = 1 / eta
    params = {k: v for k, v in _params(spec).items() if k != clip.eta}
    base = estimators.get(clip.unclipped, **params)
    active = False
    for inst in (INSTANCE,):
        w, x, y = INSTANCES[inst]

        def as_dict(dist, f):
            out = Counter()
            for p, v in dist:
                out[tuple(f(np.asarray(v[0], dtype=object)).tolist())] += p
            return out

        clipped = as_dict(exact_distribution(estimator, w, x, y), lambda a: a)
        image = as_dict(exact_distribution(base, w, x, y),
                        lambda a: np.array([max(min(v, c), -c) for v in a], dtype=object))
        active = active or any(abs(v) == c for key in image for v in key)
        if clipped != image:
            return Result(Status.FAIL, {"eta": str(eta)}, detectable=0.0,
                          counterexample={"instance": inst, "eta": str(eta),
                                          "threshold": str(c)})
    if not active:
        return Result(Status.INCONCLUSIVE, {"eta": str(eta), "clipping_active": False},
                      note="the clipping is never active at this η: nothing was tested")
    return Result(Status.PASS, {"eta": str(eta), "clipping_active": active}, detectable=0.0)


def _register():
    for spec in estimators.specs():
        register_properties(spec)


_register()
