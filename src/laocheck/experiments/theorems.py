"""One standard bound-vs-empirical configuration per excess-risk theorem of CB11, HK12 and KS15.

Each theorem is run with the step size it prescribes, computed by :mod:`laocheck.bounds` (the
printed formula, passed to the learner as a float — so the learners' own ``eta="theory"`` is not
used here), on KS15 Sec. 5.1's power-law Bernoulli data (:class:`laocheck.data.PowerLawBernoulli`,
scaled so that the theorem's assumptions hold) or a user-chosen distribution, and compared with
the theorem's bound (:func:`laocheck.experiments.compare`).

Which theorems exist, their learner, geometry and bound are read from the learners'
:class:`~laocheck.estimators.LearnerSpec` (``theorems``); the step size each theorem prescribes
is set up per theorem in :func:`theorem_setup`.
"""

from __future__ import annotations

import math
import re

import numpy as np

from .. import bounds, learners
from ..data import (CB11HardInstance, CorrelatedSigns, HK12HardInstance, PowerLawBernoulli,
                    digits_distribution)
from ..estimators import LearnerSpec
from ..learners._specs import SPECS
from ..exceptions import InvalidParameterError
from ..stats import DEFAULT_DELTA
from ._runs import LearnerConfig, _fit, child_seeds, compare

__all__ = ["THEOREMS", "available", "learner_specs", "oracle_available", "run_theorem",
           "theorem_setup"]

def learner_specs():
    """(class, spec) of every learner of :mod:`laocheck.learners` that declares its own
    :class:`~laocheck.estimators.LearnerSpec` as ``spec`` (an inherited spec does not count),
    sorted by class name."""
    out = []
    for attr in sorted(dir(learners)):
        cls = getattr(learners, attr)
        spec = vars(cls).get("spec") if isinstance(cls, type) else None
        if isinstance(spec, LearnerSpec):
            out.append((cls, spec))
    return out


def _label_key(theorem_id):
    """Sort key: the paper, then the theorem's number as integers (Thm 3.5 before Thm 3.12)."""
    paper, label = theorem_id.split(".", 1)
    return paper, [int(n) for n in re.findall(r"\d+", label)], label


def _theorems():
    # from the specs, not the classes (start-up: the catalog lists the theorems' checks without
    # importing scikit-learn); SPECS holds exactly the classes' own specs (tests/checks/test_specs)
    out = {}
    for name, spec in SPECS.items():
        for claim in spec.theorems:
            out[claim.id] = (spec.geometry, name, claim.bound)
    return {t: out[t] for t in sorted(out, key=_label_key)}


#: theorem id -> (geometry, learner class name in laocheck.learners, bound formula id), read
#: from the learners' specs (``LearnerSpec.theorems``); sorted by paper and theorem number
THEOREMS = _theorems()


#: delta of the two-phase algorithms' confidence width (KS15 Alg. 2/4 line 11)
TWO_PHASE_DELTA = 0.05

#: theorems stated for CB11's loss (ŷ − y)² (no ½)
LOSS = {"CB11.Thm12": "squared"}


def _learner(name):
    return getattr(learners, name, None)


def available():
    """{theorem: True, or the name of the missing learner class}."""
    return {t: (True if _learner(v[1]) is not None else f"laocheck.learners.{v[1]} missing")
            for t, v in THEOREMS.items()}


def oracle_available(theorem):
    """True when ``theorem``'s learner reads examples through an attribute oracle
    (``fit_oracle``, so ``run_theorem(..., source="oracle")`` works): its class has its own
    oracle path, not the base class's refusal."""
    cls = _learner(THEOREMS[theorem][1])
    return cls is not None and learners.has_oracle_path(cls)


def _two_phase_step_check(theorem, spec, dist, m, seed, source="rows"):
    """One fit (through ``source``, as the replicates): the learner's phase-2 step size
    against laocheck.bounds at its own estimate A."""
    data_seed, learner_seed = seed.spawn(2)
    est = _fit(spec, dist, m, np.random.default_rng(data_seed),
               np.random.default_rng(learner_seed), source)
    p = spec.params
    m1 = p["m1"]
    args = dict(k=p["k"], d=dist.d, m2=m - m1, delta=p["delta"], m1=m1)
    if theorem == "KS15.Thm3.12":
        H = bounds.two_phase_H(est.moments_, est.eps_)                    # Lemma 3.11
        ref = bounds.FORMULAS["KS15.Thm3.12.eta"](H=H, **args)
    else:
        ref = bounds.FORMULAS["KS15.Thm4.7.eta"](B=p["B"], A_one=float(est.moments_.sum()), **args)
    return {"learner_eta": float(est.eta_), "bounds_eta": ref,
            "eta_rel_diff": abs(est.eta_ - ref) / ref}


def theorem_setup(theorem, distribution, k, m, B):
    """(LearnerConfig, bound, figures) for ``theorem`` on ``distribution``: the step size of the
    theorem (from laocheck.bounds) and its bound at (d, k, m, B) and the distribution's moments."""
    if theorem not in THEOREMS:
        raise InvalidParameterError(f"`theorem` must be one of {sorted(THEOREMS)}; got {theorem!r}.")
    norm, cls_name, bound_id = THEOREMS[theorem]
    if theorem == "HK12.Thm4.4":
        raise InvalidParameterError(
            "`theorem`='HK12.Thm4.4': its bound exp(O(log^2(B/eps))) sqrt(d/(km)) has no explicit "
            "constant (HK12 Lemma 4.1 states E[phi^2] = exp(O(log^2 B)) only), so there is no number "
            "to compare with; laocheck checks the bound's form symbolically (HK12.Thm4.4.form).")
    cls = _learner(cls_name)
    if cls is None:
        raise InvalidParameterError(
            f"`theorem`={theorem!r} needs laocheck.learners.{cls_name}, which is not available.")
    if theorem not in _SETUPS:
        raise InvalidParameterError(
            f"`theorem`={theorem!r}: its learner's interface is not wired into laocheck.experiments yet.")
    figs = {}
    params, bound, eta = _SETUPS[theorem](bounds.FORMULAS, bound_id, distribution.d,
                                          distribution.second_moments, k, m, B, figs)
    figs["eta"] = eta
    figs["bound_id"] = bound_id
    figs["assumptions"] = distribution.assumptions(norm, B)
    return LearnerConfig(cls, params), bound, figs


# One step per theorem: ``(F, bound_id, d, mom, k, m, B, figs)`` -> ``(params, bound, eta)``,
# the learner's parameters with the theorem's step size, its bound, and the step (figures of
# the theorem are added to ``figs``); F is laocheck.bounds.FORMULAS, mom the E[x_i²].


def _hk12_thm31(F, bound_id, d, mom, k, m, B, figs):
    eta = F["HK12.Thm3.1.eta"](d=d, k=k, m=m)
    return dict(k=k, B=B, eta=eta), F[bound_id](d=d, k=k, m=m, B=B), eta


def _hk12_thm34(F, bound_id, d, mom, k, m, B, figs):
    eta = F["HK12.Thm3.4.eta"](d=d, k=k, m=m, B=B)
    figs["eta_proof"] = F["HK12.Thm3.4.eta_proof"](G=math.sqrt(F["HK12.Lemma3.8.G2"](B=B, d=d, k=k)),
                                                   d=d, m=m)
    return dict(k=k, B=B, eta=eta), F[bound_id](d=d, k=k, m=m, B=B), eta


def _ks15_thm31(F, bound_id, d, mom, k, m, B, figs):
    q = mom / mom.sum()                                   # a non-optimal q (∝ E[x²])
    G2 = bounds.ridge_gradient_bound(B, k, mom, q)
    eta = bounds.ridge_step_size(m, B, G2)
    bound = F[bound_id](B=B, eta=eta, m=m, G=math.sqrt(G2))
    figs["q"] = "proportional to E[x_i^2]"
    figs["G2"] = G2
    return dict(k=k, B=B, eta=eta, q=q), bound, eta


def _ks15_thm35(F, bound_id, d, mom, k, m, B, figs):
    eta = F["KS15.Thm3.5.eta"](m=m, N_half=bounds.norm_half(mom), k=k)
    bound = F[bound_id](B=B, m=m, N_half=bounds.norm_half(mom), k=k)
    return dict(k=k, B=B, eta=eta, second_moments=mom), bound, eta


def _ks15_thm41(F, bound_id, d, mom, k, m, B, figs):
    q = np.sqrt(mom) / np.sqrt(mom).sum()                 # a non-optimal q (∝ √E[x²])
    G2 = bounds.lasso_gradient_bound(B, k, mom, q)
    eta = bounds.lasso_step_size(m, d, G2)
    figs["eta<=1/(2G)"] = eta <= 1 / (2 * math.sqrt(G2))
    bound = F[bound_id](B=B, d=d, eta=eta, m=m, G=math.sqrt(G2))
    figs["q"] = "proportional to sqrt(E[x_i^2])"
    figs["G2"] = G2
    return dict(k=k, B=B, eta=eta, q=q), bound, eta


def _cb11_thm12(F, bound_id, d, mom, k, m, B, figs):
    # the proof's lambda (the printed 12 d sqrt(log m/(mk)) is the registered erratum
    # CB11.Thm12.lambda); the bound is the proof's in-expectation constant, unhalved loss
    lam = F["CB11.Thm12.lambda_proof"](d=d, k=k, m=m)
    bound = F[bound_id](d=d, k=k, m=m, B=B)
    figs["lambda"] = lam
    figs["lambda_printed"] = F["CB11.Thm12.lambda"](d=d, k=k, m=m)
    figs["loss"] = "(w.x - y)^2 (CB11)"
    return dict(k=k, B=B, lam=lam), bound, 1 / lam          # Pegasos' step is 1/(lambda t)


def _ks15_thm46(F, bound_id, d, mom, k, m, B, figs):
    eta = F["KS15.Thm4.6.eta"](B=B, d=d, m=m, N_one=bounds.norm_one(mom), k=k)
    bound = F[bound_id](B=B, d=d, m=m, N_one=bounds.norm_one(mom), k=k)
    return dict(k=k, B=B, eta=eta, second_moments=mom), bound, eta


def _two_phase(theorem):
    """The step of KS15 Thm 3.12 or Thm 4.7: the learner computes the step size from its
    phase-1 estimate A (eta="theory"); run_theorem checks it against laocheck.bounds on one
    fit."""
    def setup(F, bound_id, d, mom, k, m, B, figs):
        m1 = max(1, m // 10)                                   # KS15 Sec. 5: m1 = m/10
        m2 = m - m1
        dl = TWO_PHASE_DELTA
        params = dict(k=k, B=B, eta="theory", m1=m1, delta=dl, variant="theory")
        eps_args = dict(d=d, k=k, m1=m1, delta=dl)
        if theorem == "KS15.Thm3.12":
            as_ = F["KS15.Thm3.12.bound_as"](B=B, m2=m2, d=d, k=k)
            hp = F["KS15.Thm3.12.bound_hp_proof"](B=B, m2=m2, N_half=bounds.norm_half(mom), **eps_args)
            figs["bound_hp_printed"] = F["KS15.Thm3.12.bound_hp"](B=B, m2=m2,
                                                                   N_half=bounds.norm_half(mom), **eps_args)
            # E over phase 1: <= P(good) hp + P(bad) as <= hp + delta * as, and <= as always
            bound = min(as_, hp + dl * as_)
        else:
            as_ = F["KS15.Thm4.7.bound_as"](B=B, d=d, k=k, m2=m2)
            hp = F["KS15.Thm4.7.bound_hp"](B=B, N_one=bounds.norm_one(mom), m2=m2, **eps_args)
            # the theorem claims the 61-bound w.p. 1 for every m1: compare E[excess] with it
            bound = as_
        figs.update({"m1": m1, "m2": m2, "delta_alg": dl, "bound_as": as_, "bound_hp": hp,
                     "bound_used": "min(as, hp + delta as)" if theorem == "KS15.Thm3.12"
                     else "61 B^2 sqrt(d log 2d/(k m2)) (claimed w.p. 1 for every m1)"})
        return params, bound, float("nan")
    return setup


#: the step of each theorem :func:`theorem_setup` can set up
_SETUPS = {"HK12.Thm3.1": _hk12_thm31, "HK12.Thm3.4": _hk12_thm34, "KS15.Thm3.1": _ks15_thm31,
           "KS15.Thm3.5": _ks15_thm35, "KS15.Thm4.1": _ks15_thm41, "CB11.Thm12": _cb11_thm12,
           "KS15.Thm4.6": _ks15_thm46, "KS15.Thm3.12": _two_phase("KS15.Thm3.12"),
           "KS15.Thm4.7": _two_phase("KS15.Thm4.7")}


def default_distribution(theorem, d, B, alpha=-1.0, kind="powerlaw"):
    """The distribution a theorem is run on, for its geometry (ridge: L2, lasso: L1).

    ``kind="hard"`` for CB11 Thm 12: CB11 Thm 1's P_j with eps = 0.01 (labels scaled by B).
    ``kind="digits"``: scikit-learn's digits, "3" vs "5", as its empirical distribution (``d`` is
    then 64; :func:`~laocheck.data.digits_distribution`).
    ``kind="powerlaw"``: KS15 Sec. 5.1's data (:class:`~laocheck.data.PowerLawBernoulli`, exponent
    ``alpha``). ``kind="hard"``: for ridge HK12 Thm B.1's instance with eps = 1/4 (16 rows
    r_i e_i, ‖x‖₂ = 1, y = B — its labels scaled by B), for lasso
    :class:`~laocheck.data.CorrelatedSigns` with σ_i = i^(-1/2) (E[x_i²] = 1/i), correlation
    0.3 and y = ⟨w, x⟩, w = (B/5)(1, 1, 1, 1, 1, 0, ...) (‖x‖∞ = 1, |y| ≤ B). On these the gradients have
    full size, so the bounds are much closer to the excess risk than on the scaled power-law data.
    """
    norm = THEOREMS[theorem][0]
    if kind == "powerlaw":
        return PowerLawBernoulli(d, alpha, scenario="ridge" if norm == "l2" else "lasso", B=B)
    if kind == "digits":
        return digits_distribution((3, 5), norm=norm, B=B)
    if kind != "hard":
        raise InvalidParameterError(
            f"`kind` must be 'powerlaw', 'hard' or 'digits'; got kind={kind!r}.")
    if theorem == "CB11.Thm12":
        base = CB11HardInstance(d, 0.01)
        return base if B == 1.0 else base.scaled(B)
    if norm == "l2":
        rows = min(16, int(np.sqrt(d)) ** 2)          # 1/eps^2 rows, at most d (eps = 1/4 for d >= 16)
        base = HK12HardInstance(d, 1 / np.sqrt(rows))
        return base if B == 1.0 else base.scaled(B)
    w = np.zeros(d)
    w[:min(5, d)] = B / min(5, d)
    return CorrelatedSigns(np.arange(1, d + 1) ** -0.5, w, corr=0.3)


def run_theorem(theorem, *, d=100, k=4, m=2000, B=1.0, R=50, delta=DEFAULT_DELTA, seed=0, n_jobs=1,
                alpha=-1.0, kind="powerlaw", distribution=None, scheduler=None, source="rows"):
    """Compare ``theorem``'s bound with R runs of its algorithm; returns (Comparison, figures).

    ``n_jobs``, ``scheduler``: where the replicates run (this machine, or the Dask cluster of a
    scheduler address; see :func:`laocheck.experiments.replicate`); the numbers do not depend
    on them. ``source="oracle"`` runs the learners through the distribution's attribute oracle
    (:func:`laocheck.experiments.replicate`): O(m (k + log d)) per run instead of O(m d), for
    the data-point sampling learners (HK12 Thm 3.1, 3.4, KS15 Thm 3.1, 3.5, 4.1, 4.6), AER
    (CB11 Thm 12: O(k log d)) and the Two-Phased learners (KS15 Thm 3.12, 4.7; the step-size
    check's one fit goes through the oracle too)."""
    if theorem not in THEOREMS:
        raise InvalidParameterError(f"`theorem` must be one of {sorted(THEOREMS)}; got {theorem!r}.")
    if theorem == "HK12.Thm4.4":
        theorem_setup(theorem, None, k, m, B)                 # raises: no explicit constant
    dist = default_distribution(theorem, d, B, alpha, kind) if distribution is None else distribution
    spec, bound, figs = theorem_setup(theorem, dist, k, m, B)
    norm = THEOREMS[theorem][0]
    runs_seed, step_seed = child_seeds(seed, 2)
    comp = compare(theorem, spec, dist, m, bound, norm=norm, B=B, R=R, delta=delta,
                   seed=runs_seed, n_jobs=n_jobs, loss=LOSS.get(theorem, "half"),
                   scheduler=scheduler, source=source)
    sol = dist.minimizer(norm, B)
    figs.update(comp.figures())
    if theorem in ("KS15.Thm3.12", "KS15.Thm4.7"):
        figs.update(_two_phase_step_check(theorem, spec, dist, m, step_seed, source))
    figs["w_star_certificate"] = sol.certificate
    return comp, figs


def run_bounds(d=100, k=4, m=2000, B=1.0, R=50, alpha=-1.0, seed=0, delta=DEFAULT_DELTA, n_jobs=1,
               kind="powerlaw", progress=None, scheduler=None):
    """Every section-3 theorem: bound, empirical excess risk with interval, ratio (dict rows);
    ``progress`` (optional) is called with each theorem's name before it runs; ``n_jobs``,
    ``scheduler`` as in :func:`run_theorem`."""
    rows = []
    avail = available()
    for t in THEOREMS:
        if progress is not None:
            progress(t)
        if avail[t] is not True:
            rows.append({"theorem": t, "status": "not run", "reason": avail[t]})
            continue
        try:
            comp, figs = run_theorem(t, d=d, k=k, m=m, B=B, R=R, delta=delta, seed=seed,
                                     n_jobs=n_jobs, alpha=alpha, kind=kind, scheduler=scheduler)
        except InvalidParameterError as exc:
            rows.append({"theorem": t, "status": "not run", "reason": str(exc)})
            continue
        figs["status"] = "VIOLATION" if comp.violation else "ok"
        rows.append(figs)
    return rows
