"""The attribute budget of every learner ("Properties of every estimator and
learner"): no learner observes more than its budget of attributes of an example (exactly at most
k + 1 for HK12/KS15, k for CB11, and k + 6 in expectation for AESVR, HK12 Thm 4.4); the count is
the one each learner records (``attributes_per_example_``), and the record is judged by what the
output depends on: a refit with every attribute outside the recorded draws (``draws_``,
``record_draws=True``; AESVR's flat record parsed step by step) replaced gives the same output
bit for bit, or, for a learner whose draws do not parse, no searched example's output depends
on more attributes than it counted (:func:`laocheck.checks.learner_properties.reads_verdict`).

The budget, its kind and the citation come from each learner class's
:class:`~laocheck.estimators.LearnerSpec` (``spec``): a learner with a spec gets its check.
"""

from __future__ import annotations

import numpy as np

from .. import learners, stats
from ..learners._specs import SPECS
from ._common import lower_bound_detects
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
    if "record_draws" in cls().get_params():
        kwargs["record_draws"] = True            # which attributes each step read (draws_)
    model = cls(**kwargs).fit(X, y)
    att = np.asarray(model.attributes_per_example_, dtype=np.int64)

    def refit(X2):
        return cls(**kwargs).fit(X2, y.copy())
    return model, att, (X, refit)


def _reads(ctx, model, att, fitted, figures):
    """What the fit read, judged by what its output depends on
    (:func:`~laocheck.checks.learner_properties.reads_verdict`: one refit with the entries
    outside the recorded draws replaced, or a search one entry at a time on sampled
    examples, each example's dependence at most its reported count). A Result when it
    refutes the reports (or cannot compare), else None; the figures gain its numbers."""
    # the learner property engine (its distributions, the experiments) loads when a budget
    # check runs, not when the catalog is listed (start-up)
    from .learner_properties import SEARCH_REFITS, SEARCH_WORK, SHRINK, reads_verdict
    X, refit = fitted
    U = np.random.default_rng(ctx.spawn()).uniform(*SHRINK, X.shape)
    found, more = reads_verdict(refit, X, model, U=U, pick=np.random.default_rng(ctx.spawn()),
                                max_refits=ctx.n(*SEARCH_REFITS),
                                max_work=ctx.n(*SEARCH_WORK), limit=lambda i: int(att[i]))
    figures.update({k: v for k, v in more.items() if isinstance(v, (int, str))})
    if found is None:
        return None
    if isinstance(found, str):
        return Result(Status.INCONCLUSIVE, figures, note=f"not decided: the refits found the "
                      f"learner {found} (see reads_verdict)")
    return Result(Status.FAIL, figures, counterexample=found,
                  note="the output depends on an attribute the learner did not count")


def check_max_budget(ctx, *, learner, budget):
    """At most k + 1 attributes per example (HK12 Sec. 2, KS15 Sec. 2; k for CB11 Sec. 4)."""
    m = ctx.n(400, 20_000)
    model, att, fitted = _fit(learner, ctx.rng, m)
    figures = {"examples": int(att.size), "max_attributes": int(att.max(initial=0)),
               "budget": budget, "mean_attributes": float(att.mean())}
    consistent = int(att.sum()) == int(model.n_attributes_seen_) and att.size >= m
    if not consistent:
        return Result(Status.FAIL, figures, note="recorded totals inconsistent")
    refuted = _reads(ctx, model, att, fitted, figures)
    if refuted is not None:
        return refuted
    if att.max(initial=0) <= budget:
        return Result(Status.PASS, figures, detectable="one example over budget", detects=1.0)
    return Result(Status.FAIL, figures, counterexample={"attributes": int(att.max()),
                                                        "budget": budget}, detects=1.0)


def check_expected_budget(ctx, *, learner, budget):
    """AESVR: at most k + 6 attributes per example in expectation (HK12 Thm 4.4)."""
    m = ctx.n(4_000, 200_000)
    model, att, fitted = _fit(learner, ctx.rng, m)
    iv = stats.nonnegative_lower_bound(att.astype(float), delta=ctx.delta)
    figures = {"examples": int(att.size), "mean_attributes": float(att.mean()),
               "lower_confidence_bound": float(iv.low), "budget": budget}
    refuted = _reads(ctx, model, att, fitted, figures)
    if refuted is not None:
        return refuted
    detects = lower_bound_detects(iv, float(budget), ctx.delta)
    if iv.low > budget:
        return Result(Status.FAIL, figures, counterexample={"lower_bound": float(iv.low)},
                      detects=detects)
    return Result(Status.PASS, figures, detects=detects,
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
                 method="every example of a fit (attributes_per_example_), its record "
                 "checked by refits on X with the attributes not read replaced", delta=0.0,
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
