"""The attribute budget of every learner ("Properties of every estimator and
learner"): no learner observes more than its budget of attributes of an example (exactly at most
k + 1 for HK12/KS15, k for CB11, and k + 6 in expectation for AESVR, HK12 Thm 4.4); the count is
the one each learner records (``attributes_per_example_``).
"""

from __future__ import annotations

import numpy as np

from .. import learners, stats
from ._registry import Result, Status, register

K = 2
MAX_BUDGET = {  # learner -> (budget as a function of k, citation)
    "AERR": (1, "HK12 Alg. 1"),
    "AELR": (1, "HK12 Alg. 2"),
    "GAERR": (1, "KS15 Alg. 1"),
    "GAELR": (1, "KS15 Alg. 3"),
    "DDAERR": (1, "KS15 Sec. 3.1"),
    "DDAELR": (1, "KS15 Sec. 4.1"),
    "TwoPhaseDDAERR": (1, "KS15 Alg. 2"),
    "TwoPhaseDDAELR": (1, "KS15 Alg. 4"),
    "AER": (0, "CB11 Fig. 2"),
    "Baseline": (0, "CB11 Fig. 1"),
}
EXPECTED_BUDGET = {"AESVR": (6, "HK12 Alg. 4, Thm 4.4")}


def _data(rng, m, d=6):
    X = rng.uniform(-1, 1, (m, d)) / np.sqrt(d)          # ‖x‖₂ <= 1 (and ‖x‖∞ <= 1)
    y = np.clip(X @ rng.uniform(-1, 1, d) / d + rng.normal(0, 0.05, m), -1, 1)
    return X, y


def _fit(name, rng, m):
    X, y = _data(rng, m)
    cls = getattr(learners, name)
    kwargs = {"k": K, "random_state": int(rng.integers(2 ** 31))}
    if name in ("DDAERR", "DDAELR"):
        kwargs["second_moments"] = np.mean(X * X, axis=0)
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


def _register():
    for name, (extra, cite) in MAX_BUDGET.items():
        if not hasattr(learners, name):
            continue
        register(f"{cite.split()[0]}.{name}.budget", citation=cite,
                 statement=f"{name} observes at most k{f' + {extra}' if extra else ''} attributes "
                 "of every example "
                 f"(k = {K})", assumptions="synthetic data, d = 6, ‖x‖₂ <= 1, |y| <= 1",
                 method="every example of a fit (attributes_per_example_)", delta=0.0,
                 detectable="one example over budget", learner=name,
                 budget=K + extra)(check_max_budget)
    for name, (extra, cite) in EXPECTED_BUDGET.items():
        if not hasattr(learners, name):
            continue
        register(f"{cite.split()[0]}.{name}.budget", citation=cite,
                 statement=f"{name} queries at most k + 6 attributes per example in expectation "
                 f"(k = {K})", assumptions="synthetic data, d = 6, ‖x‖₂ <= 1, |y| <= 1",
                 method="lower confidence bound on the mean count (nonnegative, truncation) "
                 "at δ", detectable="reported per run", learner=name,
                 budget=K + extra)(check_expected_budget)


_register()
