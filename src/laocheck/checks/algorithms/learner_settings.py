"""The learners' settings against the papers: ``eta="theory"`` (CB11's ``lam="theory"``), the
sampling distribution q and the initial point of each fitted learner, compared with the paper's
formulas.

The expected values are typed here from the papers with numpy (HK12 Thm 3.1's
η = √(k/(2dm)), KS15 eq. (4)'s q ∝ √E[x²], ...), never read from the learner (its ``eta_``,
``q_``, ``lam_`` are what is checked) and never from :mod:`laocheck.bounds`, which the learners
use: a formula slipped there moves the learner and leaves the expectation where the paper has
it (the formulas of ``laocheck.bounds`` are derived from the proofs by
the papers' ``derivations`` modules). The steps themselves are compared with the literal
reference by ``*.steps_match_reference``, which replays with the learner's own η: this module
is what says that η is the paper's.

The instance: d = 6, m = 40, k = 2, B = 3/2 (B ≠ 1, so that a power of B slipped into a step
size shows), E[x_i²] spread over two orders of magnitude (so that a slipped power of q shows).
Exact up to float rounding: relative tolerance 1e-12, δ = 0.
"""

from __future__ import annotations

import math

import numpy as np

from ... import learners
from .._registry import Result, Status

__all__ = ["SETTINGS"]

#: ``{class name: (check, registration)}``: the settings check of each learner, read by the
#: learner records (:mod:`laocheck.checks.algorithms.learner_records`), which yield it as
#: ``<spec name>.settings`` for the catalog and for ``check_learner`` alike.
SETTINGS = {}


def _setting(id, *, learner, **registration):
    """Keep the settings check of class ``learner`` (its id ``<spec name>.settings`` and its
    registration, as :func:`~laocheck.checks.register` takes them) for the learner records."""
    def keep(func):
        SETTINGS[learner] = (func, {"id": id, **registration})
        return func
    return keep

_D, _M, _K, _B = 6, 40, 2, 1.5
#: float rounding of a step size computed by another order of operations (a few ulps)
_RTOL = 1e-12


def _data(rng):
    """m rows with ‖x‖₂ <= 1, attribute scales 1, 1/2, ..., 1/32 (E[x²] spread), |y| <= B."""
    scale = 2.0 ** -np.arange(_D)
    X = rng.uniform(-1, 1, (_M, _D)) * scale
    X /= np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None]
    y = np.clip(X @ rng.uniform(-1, 1, _D) + rng.normal(0, 0.05, _M), -_B, _B)
    return X, y


def _fit(cls, rng, **params):
    X, y = _data(rng)
    model = cls(k=_K, B=_B, random_state=int(rng.integers(2 ** 31)), **params).fit(X, y)
    return model, X


def _close(a, b):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return a.shape == b.shape and bool(np.all(np.abs(a - b) <= _RTOL * np.maximum(1, np.abs(b))))


def _factor(rows):
    """``detects`` of the comparisons (an exact comparison of numbers up to rounding): a
    setting F times the paper's differs from it by (F − 1)|b|, found once above
    ``_RTOL · max(1, |b|)``; the smallest such F over the nonzero paper values (None: all 0)."""
    found = [1.0 + _RTOL * max(1.0, abs(b)) / abs(b)
             for _, _, expected, _ in rows
             for b in np.asarray(expected, dtype=float).ravel() if b != 0 and np.isfinite(b)]
    return min(found) if found else None


def _verdict(rows, note=""):
    """rows: (name, observed, expected, citation)."""
    figures, bad = {"checked": len(rows)}, None
    for name, observed, expected, cite in rows:
        ok = _close(observed, expected)
        figures[name] = {"observed": np.asarray(observed, dtype=float).tolist(),
                         "paper": np.asarray(expected, dtype=float).tolist(), "citation": cite,
                         "equal": ok}
        if not ok and bad is None:
            bad = {"setting": name, "observed": figures[name]["observed"],
                   "paper": figures[name]["paper"], "citation": cite}
    if bad is not None:
        return Result(Status.FAIL, figures, counterexample=bad, detectable=0.0, note=note,
                      detects=_factor(rows))
    return Result(Status.PASS, figures, detectable=f"a relative change > {_RTOL:g}", note=note,
                  detects=_factor(rows))


def _cls(learner):
    """The class of ``learner``: a class, its name in :mod:`laocheck.learners` (the catalog:
    the class loads when the check runs) or an instance (``check_learner``)."""
    if isinstance(learner, str):
        return getattr(learners, learner)
    return learner if isinstance(learner, type) else type(learner)


def _moments(X):
    return np.mean(X * X, axis=0)


_METHOD = ("fit on a seeded instance (d = 6, m = 40, k = 2, B = 3/2, E[x²] spread); the fitted "
           "setting against the paper's formula typed in the check (numpy), relative tolerance "
           "1e-12")
_DETECT = "a relative change > 1e-12 of η, λ, q or w_1"


@_setting("HK12.AERR.settings", citation="HK12 Thm 3.1, Alg. 1 line 1",
          statement="eta='theory' is η = √(k/(2dm)); x̃ samples uniformly (q_i = 1/d); w_1 "
          "satisfies w_1 ≠ 0, ‖w_1‖₂ <= B", assumptions="d = 6, m = 40, k = 2, B = 3/2",
          method=_METHOD, delta=0.0, detectable=_DETECT, learner="AERR")
def check_aerr(ctx, *, learner):
    """HK12 Alg. 1 with Thm 3.1's step size."""
    model, X = _fit(_cls(learner), ctx.rng)
    q = np.full(_D, 1.0 / _D) if model.q_ is None else model.q_
    w1 = model._initial(_D, _B)
    ok_w1 = float(np.linalg.norm(w1)) <= _B * (1 + _RTOL) and bool(np.any(w1 != 0))
    return _verdict([("eta", model.eta_, math.sqrt(_K / (2 * _D * _M)), "HK12 Thm 3.1"),
                     ("q", q, np.full(_D, 1.0 / _D), "HK12 Alg. 1 line 4 (uniform)"),
                     ("w1_in_ball_nonzero", float(ok_w1), 1.0, "HK12 Alg. 1 line 1")])


@_setting("HK12.AELR.settings", citation="HK12 Thm 3.4, Alg. 2 line 1",
          statement="eta='theory' is Thm 3.4's printed η = (1/(4B²))√(2k log 2d/(5md)); x̃ "
          "samples uniformly; w_1 = 0 (z⁺ = z⁻ = 1)", assumptions="d = 6, m = 40, k = 2, B = 3/2",
          method=_METHOD, delta=0.0, detectable=_DETECT, learner="AELR")
def check_aelr(ctx, *, learner):
    """HK12 Alg. 2 with Thm 3.4's step size as printed (the learner's default reading)."""
    model, X = _fit(_cls(learner), ctx.rng)
    q = np.full(_D, 1.0 / _D) if model.q_ is None else model.q_
    eta = 1 / (4 * _B ** 2) * math.sqrt(2 * _K * math.log(2 * _D) / (5 * _M * _D))
    return _verdict([("eta", model.eta_, eta, "HK12 Thm 3.4"),
                     ("q", q, np.full(_D, 1.0 / _D), "HK12 Alg. 2 line 4 (uniform)"),
                     ("w1", model._initial(_D, _B), np.zeros(_D), "HK12 Alg. 2 line 1")])


def _g2_ridge(a, q):
    """KS15 Lemma 3.4 with eq. (2): G² = 4B²((1/k) Σ_i E[x_i²]/q_i + 1)."""
    return 4 * _B ** 2 * (np.sum(a / q) / _K + 1)


def _g2_lasso(a, q):
    """KS15 Lemma 4.5 with eq. (7): G² = 4B²((1/k) max_i E[x_i²]/q_i + 1)."""
    return 4 * _B ** 2 * (np.max(a / q) / _K + 1)


@_setting("KS15.GAERR.settings", citation="KS15 Thm 3.1, Lemma 3.4, eq. (2)",
          statement="eta='theory' with a given q is η = 2B/(G√m), "
          "G² = 4B²((1/k)Σ E[x_i²]/q_i + 1); "
          "q is the one given", assumptions="d = 6, m = 40, k = 2, B = 3/2, q ∝ 1, 2, ..., 6",
          method=_METHOD, delta=0.0, detectable=_DETECT, learner="GAERR")
def check_gaerr(ctx, *, learner):
    """KS15 Alg. 1 with Thm 3.1's minimising step size."""
    X, _ = _data(np.random.default_rng(ctx.spawn()))
    a = _moments(X)
    q = np.arange(1.0, _D + 1) / np.sum(np.arange(1.0, _D + 1))
    model, X = _fit(_cls(learner), ctx.rng, q=q, second_moments=a)
    eta = 2 * _B / (math.sqrt(_g2_ridge(a, q)) * math.sqrt(_M))
    return _verdict([("eta", model.eta_, eta, "KS15 Thm 3.1 with Lemma 3.4"),
                     ("q", model.q_, q, "KS15 Alg. 1 (the given q)")])


@_setting("KS15.DDAERR.settings", citation="KS15 Thm 3.5, eq. (4)",
          statement="q_i = √E[x_i²] / Σ_j √E[x_j²] and eta='theory' is "
          "η = 1/√(m((1/k)‖E x²‖_{1/2} + 1))", assumptions="d = 6, m = 40, k = 2, B = 3/2",
          method=_METHOD, delta=0.0, detectable=_DETECT, learner="DDAERR")
def check_ddaerr(ctx, *, learner):
    """KS15 DDAERR: eq. (4)'s q and Thm 3.5's η."""
    X, _ = _data(np.random.default_rng(ctx.spawn()))
    a = _moments(X)
    model, _ = _fit(_cls(learner), ctx.rng, second_moments=a)
    n_half = np.sum(np.sqrt(a)) ** 2
    return _verdict([("q", model.q_, np.sqrt(a) / np.sum(np.sqrt(a)), "KS15 eq. (4)"),
                     ("eta", model.eta_, 1 / math.sqrt(_M * (n_half / _K + 1)), "KS15 Thm 3.5")])


@_setting("KS15.GAELR.settings", citation="KS15 Thm 4.1, Lemma 4.5, eq. (7)",
          statement="eta='theory' with a given q is η = √(log 2d/(5G²m)), "
          "G² = 4B²((1/k) max_i E[x_i²]/q_i + 1); q is the one given",
          assumptions="d = 6, m = 40, k = 2, B = 3/2, q ∝ 1, 2, ..., 6", method=_METHOD,
          delta=0.0, detectable=_DETECT, learner="GAELR")
def check_gaelr(ctx, *, learner):
    """KS15 Alg. 3 with Thm 4.1's minimising step size."""
    X, _ = _data(np.random.default_rng(ctx.spawn()))
    a = _moments(X)
    q = np.arange(1.0, _D + 1) / np.sum(np.arange(1.0, _D + 1))
    model, _ = _fit(_cls(learner), ctx.rng, q=q, second_moments=a)
    eta = math.sqrt(math.log(2 * _D) / (5 * _g2_lasso(a, q) * _M))
    return _verdict([("eta", model.eta_, eta, "KS15 Thm 4.1 with Lemma 4.5"),
                     ("q", model.q_, q, "KS15 Alg. 3 (the given q)"),
                     ("w1", model._initial(_D, _B), np.zeros(_D), "KS15 Alg. 3 line 1")])


@_setting("KS15.DDAELR.settings", citation="KS15 Thm 4.6, Lemma 4.3",
          statement="q_i = E[x_i²] / Σ_j E[x_j²] and eta='theory' is "
          "η = (1/(2B))√(log 2d/(5m((1/k)‖E x²‖₁ + 1)))", assumptions="d = 6, m = 40, k = 2, "
          "B = 3/2", method=_METHOD, delta=0.0, detectable=_DETECT, learner="DDAELR")
def check_ddaelr(ctx, *, learner):
    """KS15 DDAELR: Lemma 4.3's q and Thm 4.6's η."""
    X, _ = _data(np.random.default_rng(ctx.spawn()))
    a = _moments(X)
    model, _ = _fit(_cls(learner), ctx.rng, second_moments=a)
    n_one = np.sum(a)
    eta = 1 / (2 * _B) * math.sqrt(math.log(2 * _D) / (5 * _M * (n_one / _K + 1)))
    return _verdict([("q", model.q_, a / n_one, "KS15 Lemma 4.3"),
                     ("eta", model.eta_, eta, "KS15 Thm 4.6")])


@_setting("CB11.AER.settings", citation="CB11 Thm 12 (statement and proof)",
          statement="lam='theory' is the stated λ = 12d√(log m/(mk)); lam='proof' is the proof's "
          "λ = 16d√(log m/(km))", assumptions="d = 6, m = 40, k = 2, B = 3/2", method=_METHOD,
          delta=0.0, detectable=_DETECT, learner="AER")
def check_aer(ctx, *, learner):
    """CB11 Fig. 2 with Thm 12's λ (both readings)."""
    cls = _cls(learner)
    stated, _ = _fit(cls, ctx.rng)
    proof, _ = _fit(cls, ctx.rng, lam="proof")
    return _verdict([("lam", stated.lam_, 12 * _D * math.sqrt(math.log(_M) / (_M * _K)),
                      "CB11 Thm 12"),
                     ("lam_proof", proof.lam_, 16 * _D * math.sqrt(math.log(_M) / (_K * _M)),
                      "CB11 Thm 12 (proof)")])


def _ada_rows(model, q_paper, q_cite):
    """AdaGrad's η₀ (KS15 App. A, eq. (13)) and x̃'s q of an adaptive learner."""
    q = np.full(_D, 1.0 / _D) if model.q_ is None else model.q_
    return [("eta0", model.eta_, math.sqrt(2) * _B,
             "KS15 App. A eq. (13): AdaGrad's η₀ = D_∞/√2, D_∞ = 2B"),
            ("q", q, q_paper, q_cite),
            ("w1", model._initial(_D, _B), np.full(_D, _B / math.sqrt(_D)),
             "HK12 Alg. 1 line 1 (laocheck's w_1 = B/√d·1)")]


_ADA_STATEMENT = ("eta='theory' is AdaGrad's η₀ = D_∞/√2 with D_∞ = 2B, i.e. √2·B, in "
                  "eq. (13)'s η_{t,i} = η₀/√(Σ g̃²); ")


@_setting("KS15.AdaAERR.settings", citation="KS15 App. A, eq. (13); HK12 Alg. 1",
          statement=_ADA_STATEMENT + "x̃ samples uniformly; w_1 = B/√d·1",
          assumptions="d = 6, m = 40, k = 2, B = 3/2", method=_METHOD, delta=0.0,
          detectable=_DETECT, learner="AdaAERR")
def check_ada_aerr(ctx, *, learner):
    """KS15 App. A on HK12 Alg. 1."""
    model, _ = _fit(_cls(learner), ctx.rng)
    return _verdict(_ada_rows(model, np.full(_D, 1.0 / _D), "HK12 Alg. 1 line 4 (uniform)"))


@_setting("KS15.AdaGAERR.settings", citation="KS15 App. A, eq. (13); KS15 Alg. 1",
          statement=_ADA_STATEMENT + "q is the one given; w_1 = B/√d·1",
          assumptions="d = 6, m = 40, k = 2, B = 3/2, q ∝ 1, 2, ..., 6", method=_METHOD,
          delta=0.0, detectable=_DETECT, learner="AdaGAERR")
def check_ada_gaerr(ctx, *, learner):
    """KS15 App. A on KS15 Alg. 1."""
    X, _ = _data(np.random.default_rng(ctx.spawn()))
    q = np.arange(1.0, _D + 1) / np.sum(np.arange(1.0, _D + 1))
    model, _ = _fit(_cls(learner), ctx.rng, q=q, second_moments=_moments(X))
    return _verdict(_ada_rows(model, q, "KS15 Alg. 1 (the given q)"))


@_setting("KS15.AdaDDAERR.settings", citation="KS15 App. A, eq. (13); KS15 eq. (4)",
          statement=_ADA_STATEMENT + "q_i = √E[x_i²] / Σ_j √E[x_j²]; w_1 = B/√d·1",
          assumptions="d = 6, m = 40, k = 2, B = 3/2", method=_METHOD, delta=0.0,
          detectable=_DETECT, learner="AdaDDAERR")
def check_ada_ddaerr(ctx, *, learner):
    """KS15 App. A on DDAERR."""
    X, _ = _data(np.random.default_rng(ctx.spawn()))
    a = _moments(X)
    model, _ = _fit(_cls(learner), ctx.rng, second_moments=a)
    return _verdict(_ada_rows(model, np.sqrt(a) / np.sum(np.sqrt(a)), "KS15 eq. (4)"))


@_setting("HK12.AESVR.settings", citation="HK12 Alg. 4 line 2, Thm 4.4's proof, Proc. 3 line 1",
          statement="GenEst runs on x′ = x/ε, y± = (y ± δ)/ε, bounded by 2B/ε (Thm 4.4's "
          "proof), so it draws N = ⌈4(2B/ε)²⌉ (Proc. 3 line 1); eta='theory' is HK12 Thm 3.1's "
          "η = √(k/(2dm)) (Alg. 4 runs Alg. 1; Thm 4.4 leaves G implicit: laocheck's choice)",
          assumptions="d = 6, m = 40, k = 2, B = 3/2, ε = 1/2 (2B/ε = 6, N = 144), δ = 0",
          method=_METHOD, delta=0.0, detectable=_DETECT, learner="AESVR")
def check_aesvr(ctx, *, learner):
    """HK12 Alg. 4's GenEst bound and step."""
    model, _ = _fit(_cls(learner), ctx.rng, eps=0.5)
    return _verdict([("genest_N", model.genest_N_, math.ceil(4 * (2 * _B / 0.5) ** 2),
                      "HK12 Proc. 3 line 1 with Thm 4.4's bound 2B/ε"),
                     ("eta", model.eta_, math.sqrt(_K / (2 * _D * _M)), "HK12 Thm 3.1")])
