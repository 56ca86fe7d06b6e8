"""The attribute budget of every learner ("Properties of every estimator and
learner"): no learner observes more than its budget of attributes of an example (exactly at most
k + 1 for HK12/KS15, k for CB11, and k + 6 in expectation for AESVR, HK12 Thm 4.4); the count is
the one each learner records (``attributes_per_example_``).

The budget, its kind and the citation come from each learner class's
:class:`~laocheck.estimators.LearnerSpec` (``spec``): a learner with a spec gets its check.
"""

from __future__ import annotations

import numpy as np

from .. import learners, stats
from ..learners._specs import SPECS
from ._registry import Result, Status, register

K = 2


def _data(rng, m, d=6):
    X = rng.uniform(-1, 1, (m, d)) / np.sqrt(d)          # ‖x‖₂ <= 1 (and ‖x‖∞ <= 1)
    y = np.clip(X @ rng.uniform(-1, 1, d) / d + rng.normal(0, 0.05, m), -1, 1)
    return X, y


def _fit(learner, rng, m):
    X, y = _data(rng, m)
    cls = learner if isinstance(learner, type) else getattr(learners, learner)
    kwargs = {"k": K, "random_state": int(rng.integers(2 ** 31))}
    spec = vars(cls).get("spec")
    if spec is not None:
        kwargs.update(spec.fit_params(X))        # e.g. E[x²] for DDAERR / DDAELR
    model = cls(**kwargs).fit(X, y)
    return model, np.asarray(model.attributes_per_example_, dtype=np.int64)


def check_max_budget(ctx, *, learner, budget):
    """At most k + 1 attributes per example (HK12 Sec. 2, KS15 Sec. 2; k for CB11 Sec. 4)."""
    m = ctx.n(400, 20_000)
    model, att = _fit(learner, ctx.rng, m)
    figures = {"examples": int(att.size), "max_attributes": int(att.max(initial=0)),
               "budget": budget, "mean_attributes": float(att.mean())}
    consistent = int(att.sum()) == int(model.n_attributes_seen_) and att.size >= m
    if not consistent:
        return Result(Status.FAIL, figures, note="recorded totals inconsistent")
    if att.max(initial=0) <= budget:
        return Result(Status.PASS, figures, detectable="one example over budget")
    return Result(Status.FAIL, figures, counterexample={"attributes": int(att.max()),
                                                        "budget": budget})


def check_expected_budget(ctx, *, learner, budget):
    """AESVR: at most k + 6 attributes per example in expectation (HK12 Thm 4.4)."""
    m = ctx.n(4_000, 200_000)
    _, att = _fit(learner, ctx.rng, m)
    iv = stats.nonnegative_lower_bound(att.astype(float), delta=ctx.delta)
    figures = {"examples": int(att.size), "mean_attributes": float(att.mean()),
               "lower_confidence_bound": float(iv.low), "budget": budget}
    if iv.low > budget:
        return Result(Status.FAIL, figures, counterexample={"lower_bound": float(iv.low)})
    return Result(Status.PASS, figures,
                  detectable="a mean above the budget by more than mean − lower bound = "
                  f"{float(att.mean() - iv.low):.3g}")


def register_budget(name, spec):
    """Register the budget check ``spec`` selects for the learner class named ``name`` (of
    :mod:`laocheck.learners`, loaded when the check runs): every example when the budget is
    exact, the mean count at δ when it holds in expectation."""
    common = dict(citation=spec.citation,
                  assumptions="synthetic data, d = 6, ‖x‖₂ <= 1, |y| <= 1",
                  learner=name, budget=spec.budget.of({"k": K}))
    if spec.budget.kind == "exact":
        register(f"{spec.name}.budget",
                 statement=f"{spec.algorithm} observes at most {spec.budget.text} attributes of "
                 f"every example (k = {K})",
                 method="every example of a fit (attributes_per_example_)", delta=0.0,
                 detectable="one example over budget", **common)(check_max_budget)
    else:
        register(f"{spec.name}.budget",
                 statement=f"{spec.algorithm} queries at most {spec.budget.text} attributes per "
                 f"example in expectation (k = {K})",
                 method="lower confidence bound on the mean count (nonnegative, truncation) "
                 "at δ", detectable="reported per run", **common)(check_expected_budget)


def _register():
    for name, spec in sorted(SPECS.items()):
        register_budget(name, spec)


_register()
