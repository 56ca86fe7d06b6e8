"""KS15 Sec. 5's learners, shared by its three experiments (Secs. 5.1-5.3 and App. A): the
even split of the k + 1 attributes and the five ridge and five lasso algorithms of its figures.
"""

from __future__ import annotations

from ...learners import (DDAELR, DDAERR, GAELR, GAERR, OfflineLasso, OfflineRidge, OnlineLasso,
                         OnlineRidge, TwoPhaseDDAELR, TwoPhaseDDAERR)
from ._records import Algorithm

__all__ = ["ks15_ridge", "ks15_lasso", "split"]


def split(budget_total):
    """KS15 Sec. 5's even split of k + 1 attributes between x̃ and φ̃ (as the learners')."""
    k = budget_total - 1
    k_x = (k + 2) // 2
    return k_x, k + 1 - k_x


def ks15_ridge(total):
    """KS15 Sec. 5's ridge algorithms (Figs. 1, 3, 5) with ``total`` = k + 1 attributes per
    example."""
    kx, ni = split(total)
    return (
        Algorithm("DDAERR",
                  lambda c: DDAERR(k=kx, n_inner=ni, second_moments=c["second_moments"]),
                  "KS15 Sec. 3.1 (budget split of Sec. 5)"),
        Algorithm("Two-Phased DDAERR", lambda c: TwoPhaseDDAERR(k=total - 1, variant="practical"),
                  "KS15 Alg. 2, Sec. 5 (m1 = m/10, eps = 0)"),
        Algorithm("AERR", lambda c: GAERR(k=kx, n_inner=ni), "HK12 Alg. 1 (budget split)"),
        Algorithm("Online ridge", lambda c: OnlineRidge(), "full information, projected OGD"),
        Algorithm("Offline ridge", lambda c: OfflineRidge(), "full information, constrained ERM"),
    )


def ks15_lasso(total):
    """KS15 Sec. 5's lasso algorithms (Figs. 2, 4, 6) with ``total`` = k + 1 attributes per
    example."""
    kx, ni = split(total)
    return (
        Algorithm("DDAELR",
                  lambda c: DDAELR(k=kx, n_inner=ni, second_moments=c["second_moments"]),
                  "KS15 Sec. 4.1 (budget split of Sec. 5)", geometry="l1"),
        Algorithm("Two-Phased DDAELR", lambda c: TwoPhaseDDAELR(k=total - 1, variant="practical"),
                  "KS15 Alg. 4, Sec. 5 (m1 = m/10, eps = 0)", geometry="l1"),
        Algorithm("AELR", lambda c: GAELR(k=kx, n_inner=ni), "HK12 Alg. 2 (budget split)",
                  geometry="l1"),
        Algorithm("Online lasso", lambda c: OnlineLasso(), "full information, EG±", geometry="l1"),
        Algorithm("Offline lasso", lambda c: OfflineLasso(tol=1e-5),
                  "full information, constrained ERM", geometry="l1"),
    )


#: the notes of KS15 Sec. 5's panels (Secs. 5.1-5.3)
_NOTES_KS15 = (
    "Two-Phased: KS15 Sec. 5's practical variant (AERR/AELR in phase 1, m1 = m/10, eps = 0, "
    "budget split evenly). AERR/AELR and DDAERR/DDAELR use the same split of the k + 1 "
    "attributes (Sec. 5: 'our algorithms used the improved inner product estimation'). The "
    "radius B is tuned by CV; step sizes are each learner's theory step for the prefix run.")
