"""How often one fit of DDAELR (KS15 Sec. 4.1) on KS15 Sec. 5.1's data at α = 0 fails, per step
multiplier and training size: the failures behind the medians of `ks15_synthetic`'s
Fig. 2 at α = 0 (docs: "Diverging runs in the curves").

A fit is a fresh sample of m examples from ``PowerLawBernoulli(500, 0, scenario="lasso")``
(seed s for s = 0..7) and DDAELR with the report's budget split (k = 3, n_inner = 2), the
training sample's second moments, B = 8 and the step multiplier c (the theory step × c, as
the report's cross-validation sets it). A fit fails when its exact relative risk is above 1
(worse than predicting 0). Prints, per (m, c): failures of 8, the median relative risk, the
median step η over the fits (the theory step depends on the sample's second moments) and
the mean ‖w_last‖₁ of the failed fits.

Usage::

    python benchmarks/lasso_step_failures.py
"""
import numpy as np

from laocheck.data import PowerLawBernoulli
from laocheck.experiments.papers import StepScaled
from laocheck.learners import DDAELR

SIZES = (1000, 8000, 14000, 20000)
MULTIPLIERS = (64, 256, 1024)
SEEDS = range(8)
B = 8.0


def main():
    dist = PowerLawBernoulli(500, 0.0, scenario="lasso")
    zero = dist.risk(np.zeros(dist.d), "squared")
    print("m       c      failed  median rel. risk  eta       mean ||w_last||_1 of failed")
    for m in SIZES:
        samples = [dist.sample(m, np.random.default_rng(s)) for s in SEEDS]
        for c in MULTIPLIERS:
            errors, last_l1, etas = [], [], []
            for s, (X, y) in zip(SEEDS, samples):
                learner = DDAELR(k=3, n_inner=2, second_moments=np.mean(X ** 2, axis=0),
                                 random_state=s)
                fit = StepScaled(learner, B=B, step_scale=c).fit(X, y)
                err = dist.risk(fit.coef_, "squared") / zero
                errors.append(err)
                if err > 1:
                    last_l1.append(np.abs(fit.fitted_.w_).sum())
                etas.append(fit.fitted_.eta_)
            failed = sum(e > 1 for e in errors)
            l1 = f"{np.mean(last_l1):.3g}" if last_l1 else "-"
            print(f"{m:<7d} {c:<6d} {failed}/{len(errors)}     {np.median(errors):<17.3g} "
                  f"{np.median(etas):<9.3g} {l1}")


if __name__ == "__main__":
    main()
