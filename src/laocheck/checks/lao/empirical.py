"""LAO: the bounds against empirical runs of the learners (ids ``LAO.*``).

The helpers these checks share with the other papers' are in
:mod:`laocheck.checks._kinds.empirical`, which says how this kind of check works.
"""

from __future__ import annotations

import numpy as np

from ... import bounds, learners
from ...data import PowerLawBernoulli
from ...experiments import LearnerConfig, replicate
from .._kinds.empirical import _seed
from .._registry import Result, Status, register


#: the relative tolerance of LAO.Bounds.scaling.empirical's ratios against c²
SCALE_RTOL = 1e-6


@register("LAO.Bounds.scaling.empirical", citation="scaling (dimensional analysis); HK12 Thm 3.1, Thm 3.4",
          statement="(x, y, B) -> (x, cy, cB) multiplies the excess risk by c^2",
          assumptions="same draws (seeds) for both scales; c = 3",
          method="AERR (eta = sqrt(k/(2dm)), B-free) and AELR with the proof's eta (∝ 1/B) must give "
                 "ratio c^2 run by run (to 1e-6); AELR with HK12 Thm 3.4's printed eta (∝ 1/B^2) is "
                 "reported (it is not scale-equivariant)", delta=0.0, detectable=1e-6)
def check_scale_empirical(ctx):
    """The empirical scale check (dimensional analysis) on HK12 Alg. 1 / Alg. 2 (AERR with HK12 Thm 3.1's
    η, AELR with HK12 Thm 3.4's proof η and printed η): per-run excess risks at (x, cy, cB) over
    those at (x, y, B) must be c²."""
    F = bounds.FORMULAS
    c, d, k, m, R = 3.0, 50, 4, 1000, 5 if not ctx.full else 20
    seed = _seed(ctx)
    out = {}
    for label, scen, cls, norm in (("AERR", "ridge", learners.AERR, "l2"),
                                   ("AELR.proof_eta", "lasso", learners.AELR, "l1"),
                                   ("AELR.printed_eta", "lasso", learners.AELR, "l1")):
        dist = PowerLawBernoulli(d, -1.0, scenario=scen)
        res = []
        for Bv, dd in ((1.0, dist), (c, dist.scaled(c))):
            if scen == "ridge":
                eta = F["HK12.Thm3.1.eta"](d=d, k=k, m=m)
            elif label == "AELR.proof_eta":
                eta = F["HK12.Thm3.4.eta_proof"](d=d, m=m, G=F["HK12.Lemma3.8.G2"](B=Bv, d=d, k=k) ** 0.5)
            else:
                eta = F["HK12.Thm3.4.eta"](d=d, k=k, m=m, B=Bv)
            res.append(replicate(LearnerConfig(cls, dict(k=k, B=Bv, eta=eta)), dd, m, norm=norm,
                                 B=Bv, R=R, seed=seed)[0])
        ratio = res[1] / res[0]
        out[label] = {"ratios": ratio.tolist(), "max_rel_dev_from_c^2": float(np.max(np.abs(ratio / c ** 2 - 1)))}
    ok = out["AERR"]["max_rel_dev_from_c^2"] <= SCALE_RTOL and \
        out["AELR.proof_eta"]["max_rel_dev_from_c^2"] <= SCALE_RTOL
    # an exact comparison of numbers (ratios against c² to a relative 1e-6): detects 1 + 1e-6
    return Result(Status.PASS if ok else Status.FAIL, out, detects=1.0 + SCALE_RTOL,
                  note=f"AELR with HK12 Thm 3.4's printed eta: ratios deviate from c^2 by up to "
                       f"{out['AELR.printed_eta']['max_rel_dev_from_c^2']:.3g} (the HK12.Thm3.4.eta erratum).")
