"""A sanity run per learner: excess risk against m on a distribution with exact risk.

x uniform on [−1, 1]^d scaled by 1/√d (so ‖x‖₂ <= 1 and ‖x‖∞ <= 1), y = ⟨w*, x⟩ + ξ with ξ
independent and uniform on [−0.1, 0.1] (|y| < 1). The population risk ½E[(⟨w, x⟩ − y)²] =
½(w − w*)ᵀΣ(w − w*) + E[ξ²]/2 with Σ = I/(3d) is exact, and w* lies inside both unit balls, so
the excess risk of w is ½(w − w*)ᵀΣ(w − w*). Not a theorem check (``laocheck.experiments`` does those): it shows each
learner's excess risk falling with m, averaged over a few seeds.

Usage::

    python benchmarks/sanity_excess_risk.py
    python benchmarks/sanity_excess_risk.py --json benchmarks/results/sanity_excess_risk.json
"""
import argparse

import numpy as np

import _results

from laocheck.learners import (AELR, AER, AERR, AESVR, DDAELR, DDAERR, GAELR, GAERR, Baseline,
                               OfflineLasso, OfflineRidge, OnlineLasso, OnlineRidge,
                               TwoPhaseDDAELR, TwoPhaseDDAERR)

D = 10


def problem(m, seed):
    """(X, y, w*, Σ): w* = (1/2)e_1 + (1/4)e_2 (‖w*‖₁ = 3/4 <= B = 1, ‖w*‖₂ < 1)."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, (m, D)) / np.sqrt(D)
    w_star = np.zeros(D)
    w_star[:2] = [0.5, 0.25]
    y = X @ w_star + rng.uniform(-0.1, 0.1, m)
    return X, y, w_star, np.eye(D) / (3 * D)


def learners():
    moments = np.full(D, 1 / (3 * D))
    q = np.arange(1, D + 1) / np.arange(1, D + 1).sum()
    return {
        "AERR": lambda s: AERR(k=4, random_state=s),
        "GAERR": lambda s: GAERR(k=4, q=q, second_moments=moments, random_state=s),
        "DDAERR": lambda s: DDAERR(k=4, second_moments=moments, random_state=s),
        "TwoPhaseDDAERR": lambda s: TwoPhaseDDAERR(k=4, random_state=s),
        "TwoPhaseDDAERR practical": lambda s: TwoPhaseDDAERR(k=4, variant="practical",
                                                              random_state=s),
        "AELR": lambda s: AELR(k=4, random_state=s),
        "GAELR": lambda s: GAELR(k=4, q=q, second_moments=moments, random_state=s),
        "DDAELR": lambda s: DDAELR(k=4, second_moments=moments, random_state=s),
        "TwoPhaseDDAELR": lambda s: TwoPhaseDDAELR(k=4, random_state=s),
        "TwoPhaseDDAELR practical": lambda s: TwoPhaseDDAELR(k=4, variant="practical",
                                                              random_state=s),
        "AER": lambda s: AER(k=4, random_state=s),
        "Baseline": lambda s: Baseline(k=4, random_state=s),
        "AESVR": lambda s: AESVR(k=4, eps=0.3, random_state=s),
        "OnlineRidge": lambda s: OnlineRidge(),
        "OnlineLasso": lambda s: OnlineLasso(),
        "OfflineRidge": lambda s: OfflineRidge(),
        "OfflineLasso": lambda s: OfflineLasso(),
    }


def excess_risks(make, ms, seeds=range(5)):
    out = []
    for m in ms:
        values = []
        for s in seeds:
            X, y, w_star, cov = problem(m, 100 + s)
            w = make(s).fit(X, y).coef_
            values.append(0.5 * (w - w_star) @ cov @ (w - w_star))
        out.append(float(np.mean(values)))
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", metavar="PATH", help="write the rows as JSON. Default: none.")
    args = parser.parse_args(argv)
    ms = [1_000, 10_000, 100_000]
    rows = []
    print("| learner | " + " | ".join(f"m = {m:,}" for m in ms) + " |")
    print("|---|" + "---|" * len(ms))
    for name, make in learners().items():
        risks = excess_risks(make, ms)
        print(f"| {name} | " + " | ".join(f"{r:.2e}" for r in risks) + " |", flush=True)
        rows.append({"learner": name, **{f"m = {m:,}": r for m, r in zip(ms, risks)}})
    _results.write(args.json, rows)


if __name__ == "__main__":
    main()
