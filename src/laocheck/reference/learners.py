"""Literal transcriptions of the learners' boxes (the oracle of ``laocheck.learners``).

O(d) per step, numpy on floats, line numbers of the papers in the comments. Randomness comes
from a randomness source (``laocheck.stats.exact``); :class:`ReplaySource` replays the indices
a Cython learner recorded, so that both run on the same draws and must agree to rounding.
"""

import math

import numpy as np

from .estimators import aesvr_coefficients, cb11_baseline, check_source, hk12_aesvr

__all__ = ["ReplaySource", "ada_gaerr", "ada_two_phase_ddaerr", "aer", "aesvr", "baseline", "gaerr", "gaelr", "two_phase_ddaerr",
           "two_phase_ddaelr"]


class ReplaySource:
    """A randomness source that returns recorded indices in order (forced index sequence).

    ``uniform_int(n)`` and ``categorical(p)`` return the next recorded index and check that
    it is possible (``0 <= i < n``, ``p[i] > 0``), so a replay cannot silently diverge.
    """

    def __init__(self, indices):
        self._it = iter(int(i) for i in indices)

    def _next(self):
        try:
            return next(self._it)
        except StopIteration:
            raise AssertionError("the replay ran out of recorded indices") from None

    def uniform_int(self, n):
        i = self._next()
        if not 0 <= i < n:
            raise AssertionError(f"recorded index {i} is not in range({n})")
        return i

    def subset(self, n, s):
        out = tuple(self._next() for _ in range(s))
        if len(set(out)) != s or not all(0 <= i < n for i in out):
            raise AssertionError(f"recorded subset {out} is not an {s}-subset of range({n})")
        return out

    def split_halves(self, items):
        """The recorded order already puts I first: the halves in that order."""
        items = tuple(items)
        if len(items) % 2:
            raise AssertionError(f"cannot split {items} into halves")
        return items[:len(items) // 2], items[len(items) // 2:]

    def geometric(self, p):
        """The next recorded count (GenEst's order n)."""
        n = self._next()
        if n < 0:
            raise AssertionError(f"recorded count {n} is negative")
        return n

    def categorical(self, p):
        i = self._next()
        if not (0 <= i < len(p) and p[i] > 0):
            raise AssertionError(f"recorded index {i} has probability 0")
        return i


def gaerr(X, Y, k, B, eta, w1, src, *, q=None, n_inner=1):
    """HK12 Alg. 1 (AERR, ``q=None``: uniform) and KS15 Alg. 1 (GAERR, q given).

    Returns the average w̄ (line 14) and the number of distinct attributes seen per step.
    ``n_inner`` > 1 averages that many φ̃'s (independent j's): KS15 Sec. 5's budget split, in
    laocheck's reading (``GAERR(n_inner=...)``).
    With w_t = 0 (possible only by cancellation) the residual is −y and no j is drawn: the
    fallback of ``laocheck.reference.estimators``.
    """
    check_source(src, "uniform_int", "categorical")
    X = np.asarray(X, dtype=float)
    m, d = X.shape
    w = np.array(w1, dtype=float)                     # 1: initialize w_1 (≠ 0, ‖w_1‖ <= B)
    iterates = []
    seen = np.zeros(m, dtype=np.int64)
    for t in range(m):                                # 2: for t = 1 to m do
        iterates.append(w.copy())
        xt = np.zeros(d)
        observed = set()
        for _r in range(k):                           # 3: for r = 1 to k do
            if q is None:
                i = src.uniform_int(d)                # 4: pick i_{t,r} uniformly, observe
                xt[i] += d * X[t, i]                  # 5: x̃_{t,r} ← d x_t[i] e_i
            else:
                i = src.categorical(q)                # KS15 4: pick i w.p. q_i, observe
                xt[i] += X[t, i] / q[i]               # KS15 5: x̃_{t,r} ← x_t[i]/q_i e_i
            observed.add(i)
        xt = xt / k                                   # 7: x̃_t ← (1/k) Σ_r x̃_{t,r}
        norm_sq = float(w @ w)
        if norm_sq > 0:
            phis = []
            for _s in range(n_inner):
                j = src.categorical(w * w / norm_sq)  # 8: j w.p. w[j]²/‖w‖², observe x[j]
                observed.add(j)
                phis.append(norm_sq * X[t, j] / w[j] - Y[t])   # 9: φ̃ ← ‖w‖² x[j]/w[j] − y
            phi = sum(phis) / n_inner
        else:
            phi = -Y[t]                               # FALLBACK (w = 0)
        g = phi * xt                                  # 10: g̃ ← φ̃ · x̃
        v = w - eta * g                               # 11: v ← w − η g̃
        w = v * B / max(np.linalg.norm(v), B)         # 12: w_{t+1} ← v · B / max{‖v‖, B}
        seen[t] = len(observed)
    return np.mean(iterates, axis=0), seen            # 14: w̄ ← (1/m) Σ_t w_t


def ada_gaerr(X, Y, k, B, eta0, w1, src, *, q=None, n_inner=1):
    """KS15 App. A: HK12 Alg. 1 / KS15 Alg. 1 with the per-coordinate step of KS15 eq. (13),
    η_{t,i} = η₀/√(Σ_{s<=t} g̃_{s,i}²), in laocheck's reading (``laocheck.learners.AdaGAERR``):
    Euclidean projection (line 12 unchanged), a coordinate whose sum is 0 does not move.

    Returns the average w̄ and the number of distinct attributes seen per step.
    """
    check_source(src, "uniform_int", "categorical")
    X = np.asarray(X, dtype=float)
    m, d = X.shape
    w = np.array(w1, dtype=float)                     # 1: initialize w_1
    G = [0.0] * d                                     # eq. (13): Σ_{s<=t} g̃_{s,i}²
    iterates = []
    seen = np.zeros(m, dtype=np.int64)
    for t in range(m):                                # 2: for t = 1 to m do
        iterates.append(w.copy())
        xt = np.zeros(d)
        observed = set()
        for _r in range(k):                           # 3: for r = 1 to k do
            if q is None:
                i = src.uniform_int(d)                # 4: pick i uniformly, observe x_t[i]
                xt[i] += d * X[t, i]                  # 5: x̃_{t,r} ← d x_t[i] e_i
            else:
                i = src.categorical(q)                # KS15 4: pick i w.p. q_i, observe
                xt[i] += X[t, i] / q[i]               # KS15 5: x̃_{t,r} ← x_t[i]/q_i e_i
            observed.add(i)
        xt = xt / k                                   # 7: x̃_t ← (1/k) Σ_r x̃_{t,r}
        norm_sq = _sum_of_squares(w)
        if norm_sq > 0:
            phis = []
            for _s in range(n_inner):
                j = src.categorical(w * w / norm_sq)  # 8: j w.p. w[j]²/‖w‖², observe x[j]
                observed.add(j)
                phis.append(norm_sq * X[t, j] / w[j] - Y[t])   # 9: φ̃ ← ‖w‖² x[j]/w[j] − y
            phi = sum(phis) / n_inner
        else:
            phi = -Y[t]                               # FALLBACK (w = 0)
        g = phi * xt                                  # 10: g̃ ← φ̃ · x̃
        v = w.copy()
        for i in range(d):                            # 11, eq. (13): v_i ← w_i − η_{t,i} g̃_i
            G[i] += g[i] ** 2
            if G[i] > 0:
                v[i] = w[i] - eta0 / np.sqrt(G[i]) * g[i]
        w = v * B / max(math.sqrt(_sum_of_squares(v)), B)   # 12: w_{t+1} ← v·B/max{‖v‖, B}
        seen[t] = len(observed)
    return np.mean(iterates, axis=0), seen            # 14: w̄ ← (1/m) Σ_t w_t


def _sum_of_squares(v):
    """Σ_i v_i², added from i = 1 to d as written (not in a BLAS's order, which depends on the
    machine: AdaGrad's steps η₀/√G amplify a last-bit difference of ‖w‖ over a run, so the
    replay of ``ada_gaerr`` must sum as its kernel does to agree with it on any CPU)."""
    total = 0.0
    for x in np.asarray(v, dtype=float).tolist():
        total += x * x
    return total


def gaelr(X, Y, k, B, eta, src, *, q=None, n_inner=1, z1=None):
    """HK12 Alg. 2 (AELR, ``q=None``) and KS15 Alg. 3 (GAELR), literally (linear-domain z±).

    Returns w̄ (line 18) and the distinct attributes seen per step. At w_t = 0 (w_1, since
    z⁺_1 = z⁻_1) the residual is −y and no j is drawn (laocheck's fallback).
    """
    check_source(src, "uniform_int", "categorical")
    X = np.asarray(X, dtype=float)
    m, d = X.shape
    zp, zm = np.ones(d), np.ones(d)                   # 1: z⁺_1 ← 1_d, z⁻_1 ← 1_d
    if z1 is not None:                                # (KS15 Sec. 5's warm start: given z±)
        zp, zm = np.array(z1[0], dtype=float), np.array(z1[1], dtype=float)
    iterates = []
    seen = np.zeros(m, dtype=np.int64)
    for t in range(m):                                # 2: for t = 1 to m do
        w = (zp - zm) * B / (zp.sum() + zm.sum())     # 3: w_t ← (z⁺ − z⁻) B/(‖z⁺‖₁ + ‖z⁻‖₁)
        iterates.append(w)
        xt = np.zeros(d)
        observed = set()
        for _r in range(k):                           # 4: for r = 1 to k do
            if q is None:
                i = src.uniform_int(d)                # 5: pick i uniformly, observe x[i]
                xt[i] += d * X[t, i]                  # 6: x̃_{t,r} ← d x[i] e_i
            else:
                i = src.categorical(q)                # KS15 5: pick i w.p. q_i
                xt[i] += X[t, i] / q[i]               # KS15 6: x̃_{t,r} ← x[i]/q_i e_i
            observed.add(i)
        xt = xt / k                                   # 8: x̃_t ← (1/k) Σ_r x̃_{t,r}
        norm1 = np.abs(w).sum()
        if norm1 > 0:
            phis = []
            for _s in range(n_inner):
                j = src.categorical(np.abs(w) / norm1)     # 9: j w.p. |w[j]|/‖w‖₁, observe
                observed.add(j)
                phis.append(norm1 * np.sign(w[j]) * X[t, j] - Y[t])  # 10: φ̃ ← ‖w‖₁ sgn x − y
            phi = sum(phis) / n_inner
        else:
            phi = -Y[t]                               # FALLBACK (w = 0)
        g = phi * xt                                  # 11: g̃ ← φ̃ · x̃
        for i in range(d):                            # 12: for i = 1 to d do
            gbar = max(min(g[i], 1 / eta), -1 / eta)  # 13: ḡ[i] ← clip(g̃[i], 1/η)
            zp[i] = zp[i] * np.exp(-eta * gbar)       # 14: z⁺[i] ← z⁺[i] exp(−η ḡ[i])
            zm[i] = zm[i] * np.exp(+eta * gbar)       # 15: z⁻[i] ← z⁻[i] exp(+η ḡ[i])
        seen[t] = len(observed)
    return np.mean(iterates, axis=0), seen            # 18: w̄ ← (1/m) Σ_t w_t


def _project_l1_sorting(w, B):
    """argmin_{‖u‖₁ <= B} ‖u − w‖₂ by sorting (Duchi et al. 2008, Fig. 1), O(d log d)."""
    a = np.abs(w)
    if a.sum() <= B:
        return w.copy()
    mu = np.sort(a)[::-1]
    cums = np.cumsum(mu)
    ranks = np.arange(1, len(mu) + 1)
    rho = np.nonzero(mu - (cums - B) / ranks > 0)[0][-1]
    theta = (cums[rho] - B) / (rho + 1)
    return np.sign(w) * np.maximum(a - theta, 0.0)


def aer(X, Y, k, B, lam, src):
    """CB11 Fig. 2 (AER), literally: Pegasos with the estimate (8) and the L1 projection (11).

    Returns w̄ (Fig. 2's output: the average of w after each update) and the distinct
    attributes seen per step (C and the k/2 draws i, also those drawn at w = 0).
    """
    check_source(src, "subset", "categorical")
    X = np.asarray(X, dtype=float)
    m, d = X.shape
    w = np.zeros(d)                                   # INITIALIZATION: w = 0 ; w̄ = w ; t = 1
    w_bar = w.copy()
    t = 1
    seen = np.zeros(m, dtype=np.int64)
    for s in range(m):                                # for each (x, y) ∈ S
        x, y = X[s], Y[s]
        v = np.zeros(d)                               # v = 0 ; ŷ = 0
        yhat = 0.0
        C = src.subset(d, k // 2)                     # C uniform among the k/2-subsets of [d]
        observed = set(C)
        for j in C:                                   # for each j ∈ C
            v[j] = v[j] + (2 / k) * d * x[j]          #   v_j = v_j + (2/k) d x_j
        norm1 = np.abs(w).sum()
        P = np.abs(w) / norm1 if norm1 > 0 else np.full(d, 1.0 / d)   # (if w = 0, P = 1/d)
        for _r in range(k // 2):                      # for r = 1, ..., k/2
            i = src.categorical(P)                    #   sample i from [d] based on P
            observed.add(i)
            yhat = yhat + (2 / k) * np.sign(w[i]) * norm1 * x[i]   # ŷ += (2/k) sgn ‖w‖₁ x_i
        w = (1 - 1 / t) * w - (2 / (lam * t)) * (yhat - y) * v    # eq. (10)
        w = _project_l1_sorting(w, B)                 # eq. (11)
        w_bar = w_bar + w / m                         # w̄ = w̄ + w/m ; t = t + 1
        t = t + 1
        seen[s] = len(observed)
    return w_bar, seen


def baseline(X, Y, k, src):
    """CB11 Fig. 1 (Baseline) up to its OUTPUT line, literally: returns (Ā, v̄, ȳ) of
    L̃_S(w) = wᵀĀw + wᵀv̄ + ȳ and the attributes seen per step (the per-example (A, 2yv) are
    ``laocheck.reference.estimators.cb11_baseline``)."""
    check_source(src, "subset", "split_halves")
    X = np.asarray(X, dtype=float)
    m, d = X.shape
    A_bar = np.zeros((d, d))                          # INITIALIZE: Ā = 0 ; v̄ = 0 ; ȳ = 0
    v_bar = np.zeros(d)
    y_bar = 0.0
    seen = np.zeros(m, dtype=np.int64)
    for t in range(m):                                # for each (x, y) ∈ S
        out, observed = cb11_baseline(X[t], Y[t], k, src)
        A, two_y_v = out[:d], out[d]
        A_bar = A_bar + A / m                         # Ā = Ā + A/m
        v_bar = v_bar + two_y_v / m                   # v̄ = v̄ + 2y v/m
        y_bar = y_bar + Y[t] ** 2 / m                 # ȳ = ȳ + y²/m
        seen[t] = len(observed)
    return A_bar, v_bar, y_bar, seen


def aesvr(X, Y, k, B, eta, w1, eps, delta, genest_B, src):
    """HK12 Alg. 4 (AESVR), literally: Alg. 1 with lines 8-9 replaced by the GenEst residual
    (``laocheck.reference.estimators.hk12_aesvr``, Procedure 3 with eq. (7)'s coefficients and
    N = ⌈4·genest_B²⌉). Returns w̄ and the distinct attributes seen per step."""
    check_source(src, "uniform_int", "geometric", "categorical")
    X = np.asarray(X, dtype=float)
    m, d = X.shape
    coefficients = aesvr_coefficients()
    w = np.array(w1, dtype=float)                     # 1: initialize w_1 (Alg. 1)
    iterates = []
    seen = np.zeros(m, dtype=np.int64)
    for t in range(m):                                # 2: for t = 1 to m do
        iterates.append(w.copy())
        # Alg. 1 lines 3-7 (x̃), Alg. 4's lines 8-9 (φ̃) and line 10 (g̃ = φ̃ x̃)
        g, observed = hk12_aesvr(w, X[t], Y[t], k, coefficients, genest_B, eps, delta, src)
        v = w - eta * g                               # 11: v ← w − η g̃
        w = v * B / max(np.linalg.norm(v), B)         # 12: w_{t+1} ← v · B / max{‖v‖, B}
        seen[t] = len(observed)
    return np.mean(iterates, axis=0), seen            # 14: w̄ ← (1/m) Σ_t w_t


def _phase1_moments(X, k, m1, src):
    """KS15 Alg. 2/4 lines 2-10: k + 1 uniform attributes of each of the first m₁ examples."""
    d = X.shape[1]
    A, counts, square_sums = np.zeros(d), np.zeros(d), np.zeros(d)   # 2: A, counts, sums
    seen = []
    for t in range(m1):                               # 3: for t = 1 to m₁ do
        observed = set()
        for _r in range(k + 1):                       # 4: for r = 1 to k + 1 do
            i = src.uniform_int(d)                    # 5: pick i_{t,r} uniformly at random
            counts[i] = counts[i] + 1                 # 6: counts[i] += 1
            square_sums[i] = square_sums[i] + X[t, i] ** 2   # 7: square_sums[i] += x_t[i]²
            A[i] = square_sums[i] / counts[i]         # 8: A[i] ← square_sums[i]/counts[i]
            observed.add(i)
        seen.append(len(observed))
    return A, np.array(seen, dtype=np.int64)


def two_phase_ddaerr(X, Y, k, B, m1, delta, w1, src):
    """KS15 Alg. 2 (Two-Phased DDAERR) with Thm 3.12's η, literally. Returns w̄ and the
    attributes seen per step."""
    check_source(src, "uniform_int", "categorical")
    X = np.asarray(X, dtype=float)
    d = X.shape[1]
    m2 = X.shape[0] - m1
    A, seen1 = _phase1_moments(X, k, m1, src)
    eps = d * np.log(2 * d / delta) / ((k + 1) * m1)                     # 11: ε
    q = np.sqrt(A + 13 / 6 * eps) / np.sum(np.sqrt(A + 13 / 6 * eps))   # 12: q_i
    H = np.sum(np.sqrt(2 * A + 10 / 3 * eps)) ** 2                       # Lemma 3.11: H
    eta = max(np.sqrt(k / (6 * d * m2)),                                  # Thm 3.12: η
              np.sqrt(k / (m2 * (2 * H + 2 * np.sqrt(5 / 3) * d * np.sqrt(H)
                                 * np.sqrt(d * np.log(2 * d / delta) / ((k + 1) * m1)) + k))))
    w_bar, seen2 = gaerr(X[m1:], Y[m1:], k, B, eta, w1, src, q=q)        # 12: run GAERR
    return w_bar, np.concatenate([seen1, seen2])


def ada_two_phase_ddaerr(X, Y, k, B, m1, delta, eta0, w1, src):
    """KS15 App. A on KS15 Alg. 2: lines 2-12 as printed (phase 1's estimate A, ε, q), then
    :func:`ada_gaerr` with q and η₀ in place of GAERR (``laocheck.learners.AdaTwoPhaseDDAERR``,
    theory variant). Returns w̄ and the attributes seen per step."""
    check_source(src, "uniform_int", "categorical")
    X = np.asarray(X, dtype=float)
    d = X.shape[1]
    A, seen1 = _phase1_moments(X, k, m1, src)
    eps = d * np.log(2 * d / delta) / ((k + 1) * m1)                     # 11: ε
    q = np.sqrt(A + 13 / 6 * eps) / np.sum(np.sqrt(A + 13 / 6 * eps))   # 12: q_i
    w_bar, seen2 = ada_gaerr(X[m1:], Y[m1:], k, B, eta0, w1, src, q=q)   # 12: run (Ada)GAERR
    return w_bar, np.concatenate([seen1, seen2])


def two_phase_ddaelr(X, Y, k, B, m1, delta, src):
    """KS15 Alg. 4 (Two-Phased DDAELR) with Thm 4.7's η, literally."""
    check_source(src, "uniform_int", "categorical")
    X = np.asarray(X, dtype=float)
    d = X.shape[1]
    m2 = X.shape[0] - m1
    A, seen1 = _phase1_moments(X, k, m1, src)
    eps = min(d * np.log(2 * d / delta) / ((k + 1) * m1), 1)            # 11: ε
    q = (A + 13 / 6 * eps) / np.sum(A + 13 / 6 * eps)                    # 12: q_i
    eta = np.sqrt(k * np.log(2 * d) / (20 * B ** 2 * m2 * (8 * np.sum(A) + 20 * d * eps + k)))
    w_bar, seen2 = gaelr(X[m1:], Y[m1:], k, B, eta, src, q=q)            # 12: run GAELR
    return w_bar, np.concatenate([seen1, seen2])
