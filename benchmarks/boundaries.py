"""Which displayed conditions of CB11, HK12 and KS15 the catalog's instances meet with equality.

Issue 47 item 5: a condition such as ‖x‖₂ <= 1 or HK12 Procedure 3's n <= 2 log₂ N is tested
at its boundary only when an instance sits on it (‖x‖₂ = 1, n = 2 log₂ N); a bug that moves the
boundary (<= written <) is invisible otherwise. For each condition a check tests, this script
finds the checks (from the catalog: the exact property checks of every estimator whose
geometry the condition belongs to, or the named checks) and decides from the instances those
checks actually use whether the boundary case is among them:

* the estimators' exact checks (``*.unbiased.exact``, ``*.second_moment``, ``*.budget``, ...)
  enumerate every instance of :data:`laocheck.checks.algorithms.estimator_properties.EXACT_INSTANCES` the
  estimator accepts, at the catalog's parameters (B = 1, k = the spec's ``check_k``): the
  script asks each estimator which instances it accepts and evaluates the condition on them
  exactly (Fractions);
* HK12 Procedure 3's line 3 in the learner AESVR (``HK12.AESVR.steps_match_reference``): the
  boundary order n = 2 log₂ N exists only where N = ⌈4(2B/ε)²⌉ is a power of two; it is
  present when it is, at B = 1 and ε = ``ls.AESVR_EPS``, and the order has
  probability >= 1/64 per GenEst call; in the estimator kernel (``HK12.Proc3.line1.kernel``)
  the instance B = 7/10 (N = 2, 2 log₂ N = 2) is the check's own (its statement says so).
  ``tests/checks/test_boundaries.py`` plants the moved boundary in both and shows each check
  FAIL;
* HK12 Sec. 4's 0 <= δ <= B: the AESVR estimators' spec checks (``target_method``,
  ``magnitude_bounds``, ``target_derivative``) run at the example δ = 1/10 and at δ = 0 and
  δ = B (``estimator_families._param_sets``); ``HK12.Alg4.line2.kernel`` at δ ∈ {1/4, 0, B};
  the learner at δ = B;
* the learners' sampling lines (``learner_samplers``): KS15's q_i >= 0 (Lemmas 3.2, 4.2) at
  q_i = 0 (DDAERR, DDAELR: an attribute identically 0), the two-phase q on its floor
  (Alg. 2/4 line 12 with A[i] = 0), phase 1's counts[i] = 0 and Alg. 4's ε = min(·, 1) at 1
  (a run at m₁ = 1), CB11's k <= d at k = d (Baseline, AER); among the estimators, the
  q_support checks' point mass q = e_j (GAERR, GAELR) and the q_zero checks' E[x_j²] = 0
  (DDAERR, DDAELR, the improved inner product's gradient).

Usage::

    python benchmarks/boundaries.py                  # the table (Markdown) on stdout
    python benchmarks/boundaries.py --json out.json  # and the rows with provenance

A "no" is a gap, listed as such (never dropped).
"""
import argparse
import math
import os
import sys
from fractions import Fraction as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _results  # noqa: E402

import numpy as np  # noqa: E402

from laocheck import checks, estimators, learners  # noqa: E402
from laocheck.checks.algorithms import estimator_families as ef  # noqa: E402
from laocheck.checks.algorithms import estimator_properties as ep  # noqa: E402
from laocheck.checks.algorithms import learner_records  # noqa: E402
from laocheck.checks.algorithms import learner_samplers as ls  # noqa: E402
from laocheck.estimators import spec_of  # noqa: E402
from laocheck.estimators.instances import INSTANCES  # noqa: E402

B = F(1)          # the catalog's B (the estimators' example parameters)


def _l2sq(v):
    return sum(t * t for t in v)


# condition -> (papers' display, geometry it belongs to (None: all), the boundary, predicate on
# (w, x, y, k) at B = 1)
INSTANCE_CONDITIONS = [
    ("‖x‖₂ <= 1", "HK12 Lemmas 3.3, 4.1; KS15 Lemmas 3.2-3.4", "l2", "‖x‖₂ = 1",
     lambda w, x, y, k: _l2sq(x) == 1),
    ("‖w‖₂ <= B", "HK12 Lemma 3.3, Thm 3.1; KS15 Lemma 3.3", "l2", "‖w‖₂ = B",
     lambda w, x, y, k: _l2sq(w) == B * B),
    ("‖x‖∞ <= 1", "CB11 Sec. 2; HK12 Lemma 3.8; KS15 Lemmas 4.2-4.5", "l1", "max |x_i| = 1",
     lambda w, x, y, k: max(abs(t) for t in x) == 1),
    ("‖w‖₁ <= B", "CB11 Lemma 11; HK12 Lemma 3.8; KS15 Lemma 4.4", "l1", "‖w‖₁ = B",
     lambda w, x, y, k: sum(abs(t) for t in w) == B),
    ("|y| <= B", "CB11 Sec. 2; HK12 Sec. 2; KS15 Sec. 2", None, "|y| = B",
     lambda w, x, y, k: abs(y) == B),
    ("k <= d", "HK12 Lemma 3.3 (9); KS15 Lemma 3.2; CB11 (k <= d attributes)", None, "k = d",
     lambda w, x, y, k: k == len(x)),
    ("w = 0 (φ̃ without a draw)", "HK12 Alg. 1 line 8; KS15 Lemma 3.3", None, "w = 0",
     lambda w, x, y, k: all(t == 0 for t in w)),
    ("p_j ∝ w_j² (ridge) or |w_j| (lasso) >= 0", "HK12 Alg. 1/2 line 8; KS15 Lemmas 3.3, 4.4",
     None, "p_j = 0 for some j, w ≠ 0",
     lambda w, x, y, k: any(t == 0 for t in w) and any(t != 0 for t in w)),
]


def _property_ids(label):
    return sorted(c.id for c in checks.checks()
                  if c.id.startswith(label + ".") and "claims" in c.kwargs)


def instance_rows():
    """One row per (condition, estimator): the estimator's property checks and whether one of
    the instances they enumerate sits on the boundary."""
    rows = []
    known = {c.id for c in checks.checks()}
    for name in estimators.names():
        spec = spec_of(name)
        params = ep.catalog_params(spec)
        est = estimators.get(name, **params)
        accepted = ep.instances_of(est)
        k = int(params.get("k", spec.check_k))
        for cond, where, geometry, boundary, on in INSTANCE_CONDITIONS:
            if geometry is not None and spec.geometry != geometry:
                continue
            if cond == "k <= d" and "k" not in params:
                continue                      # GenEst and the residuals read no x̃
            hits = [i for i in accepted if on(*INSTANCES[i], k)]
            ids = _property_ids(name)
            kd = f"{name}.k_equals_d"
            if cond == "k <= d" and not hits and kd in known:
                # the property checks again on kd_edge at k = d = 2 (a q of length 2)
                hits, ids = ["kd_edge at k = d = 2 (k_equals_d)"], ids + [kd]
            rows.append({"condition": cond, "where": where, "boundary": boundary,
                         "estimator": name, "checks": ids,
                         "instances": hits, "present": bool(hits)})
    return rows


def genest_rows():
    """HK12 Procedure 3 line 3 (n <= 2 log₂ N) in the learner and the estimator kernel."""
    genest_b = 2 * B / F(ls.AESVR_EPS)           # the learner's 2B/ε
    N = math.ceil(4 * genest_b ** 2)
    nu = (N * N).bit_length() - 1                               # the largest n <= 2 log₂ N
    on_boundary = N * N == 2 ** nu                              # n = 2 log₂ N is an integer
    learner = {"condition": "n <= 2 log₂ N", "where": "HK12 Proc. 3 line 3 (AESVR learner)",
               "boundary": "n = 2 log₂ N", "estimator": "learner AESVR",
               "checks": ["HK12.AESVR.steps_match_reference", "HK12.AESVR.attribute_inclusion"],
               "instances": [f"B = 1, ε = {ls.AESVR_EPS:g}: N = {N}, "
                             f"order {nu} w.p. 2^-{nu + 1} per call"],
               "present": bool(on_boundary and nu + 1 <= 6)}
    b_kernel = F(7, 10)                                         # HK12.Proc3.line1.kernel's B
    Nk = math.ceil(4 * b_kernel ** 2)
    kernel = {"condition": "n <= 2 log₂ N", "where": "HK12 Proc. 3 line 3 (GenEst kernel)",
              "boundary": "n = 2 log₂ N", "estimator": "HK12.GenEst.derivative",
              "checks": ["HK12.Proc3.line1.kernel"],
              "instances": [f"B = 7/10: N = {Nk}, a_2 = a_3 = 1"],
              "present": Nk * Nk == 2 ** ((Nk * Nk).bit_length() - 1)
              and "2 log₂ 2 = 2" in checks.get("HK12.Proc3.line1.kernel").method}
    return [learner, kernel]


def insensitive_rows():
    """HK12 Sec. 4's 0 <= δ <= B of the δ-insensitive loss: δ = 0 and δ = B among the δ of the
    AESVR estimators' spec checks, of the kernel check and of the learner's checks."""
    out = []
    for name in ("HK12.AESVR.gradient", "HK12.AESVR.residual"):
        spec = spec_of(name)
        sets = [p for _, p in ef._param_sets(spec, 4, spec.check_k)]
        deltas = [F(p["delta"]) for p in sets]
        b = F(sets[0]["B"])
        out.append({"condition": "0 <= δ <= B", "where": "HK12 Sec. 4 (δ-insensitive loss)",
                    "boundary": "δ = 0 and δ = B", "estimator": name,
                    "checks": [f"{name}.{c}" for c in ("target_method", "magnitude_bounds",
                                                      "target_derivative")],
                    "instances": [f"δ ∈ {{{', '.join(f'{float(v):g}' for v in deltas)}}} at "
                                  f"B = {float(b):g}"],
                    "present": {F(0), b} <= set(deltas)})
    kernel = checks.get("HK12.Alg4.line2.kernel")
    out.append({"condition": "0 <= δ <= B", "where": "HK12 Sec. 4 (δ-insensitive loss)",
                "boundary": "δ = 0 and δ = B", "estimator": "HK12.AESVR.residual kernel",
                "checks": [kernel.id], "instances": ["B = 1, δ ∈ {1/4, 0, 1}"],
                "present": "δ = 0 and δ = B" in kernel.method})
    # the sampler checks at δ = B; the property checks on the catalog's instance (δ's
    # default, 0)
    record = learner_records.RECORDS["AESVR"]
    default = record.learner()
    props = sorted(c.id for c in checks.checks() if c.id.startswith("HK12.AESVR.")
                   and c.id.count(".") == 2 and "claims" in c.kwargs)
    deltas = {F(ls.AESVR_DELTA), F(default.delta)}
    out.append({"condition": "0 <= δ <= B", "where": "HK12 Sec. 4 (δ-insensitive loss)",
                "boundary": "δ = 0 and δ = B", "estimator": "learner AESVR",
                "checks": ["HK12.AESVR.steps_match_reference", "HK12.AESVR.attribute_inclusion"]
                + props,
                "instances": [f"δ = {ls.AESVR_DELTA:g} at B = 1 (sampler checks)",
                              f"δ = {default.delta:g} at B = {default.B:g} (property checks)"],
                "present": {F(0), B} <= deltas and F(default.B) == B})
    return out


def _sampler_ids(algorithm):
    spec = getattr(learners, algorithm).spec
    return [f"{spec.name}.steps_match_reference", f"{spec.name}.attribute_inclusion"]


def _learner_data(algorithm):
    """A sample of the data of the learner sampler checks of ``algorithm``."""
    return ls._data(np.random.default_rng(0), 1000, zero=ls._zero_column(algorithm))[0]


def sampling_rows():
    """KS15's data-point distributions at their boundaries: q_i = 0 (Lemmas 3.2 and 4.2 take
    q_i >= 0), the two-phase q on its floor, phase 1's zero counts and Alg. 4's capped ε; CB11's
    learners at k = d."""
    out = []
    where = "KS15 Lemmas 3.2, 4.2 (eqs. (3), (8): q_i >= 0)"
    for algorithm in ("DDAERR", "DDAELR", "AdaDDAERR"):
        q = ls._paper_q(algorithm, _learner_data(algorithm))
        zero = [int(i) for i in np.flatnonzero(q == 0)]
        out.append({"condition": "q_i >= 0", "where": where, "boundary": "q_i = 0",
                    "estimator": f"learner {algorithm}", "checks": _sampler_ids(algorithm),
                    "instances": [f"E[x_{i}²] = 0" for i in zero], "present": bool(zero)})
    for spec in estimators.specs():
        if spec.name.startswith(("KS15.DDAE", "KS15.GAE", "KS15.Improved")) and \
                spec.part != "residual":
            found = {c.id.rsplit(".", 1)[1] for c in checks.checks()
                     if c.id in (f"{spec.name}.q_support", f"{spec.name}.q_zero")}
            instances = (["q = e_j (a point mass), x on j"] if "q_support" in found else []) + \
                (["E[x_j²] = 0 (q_j = 0) and x_j = 0 on d4"] if "q_zero" in found else [])
            out.append({"condition": "q_i >= 0", "where": where, "boundary": "q_i = 0",
                        "estimator": spec.name,
                        "checks": sorted(f"{spec.name}.{c}" for c in found),
                        "instances": instances, "present": bool(found)})
    for algorithm in ls._TWO_PHASE:
        X = _learner_data(algorithm)
        m1 = ls.SMALL_M1 if any(m for _, _, m in ls._runs(algorithm)) else None
        zero = [int(i) for i in np.flatnonzero(np.all(X == 0, axis=0))]
        out.append({"condition": "q_i ∝ √(A[i] + 13ε/6) (lasso: A[i] + 13ε/6)",
                    "where": "KS15 Alg. 2/4 line 12", "boundary": "A[i] = 0 (q_i on its floor)",
                    "estimator": f"learner {algorithm}", "checks": _sampler_ids(algorithm),
                    "instances": [f"x_{i} = 0" for i in zero], "present": bool(zero)})
        d, k = X.shape[1], 2
        out.append({"condition": "A[i] = square_sums[i]/counts[i], else 0",
                    "where": "KS15 Alg. 2/4 lines 2, 8", "boundary": "counts[i] = 0",
                    "estimator": f"learner {algorithm}", "checks": _sampler_ids(algorithm),
                    "instances": [f"m₁ = {m1}: {(k + 1) * m1} draws over d = {d}"] if m1
                    else [], "present": bool(m1) and (k + 1) * m1 < d})
        if algorithm == "TwoPhaseDDAELR":
            eps = d * math.log(2 * d / 0.1) / ((k + 1) * m1) if m1 else 0.0
            out.append({"condition": "ε = min(d log(2d/δ)/((k+1)m₁), 1)",
                        "where": "KS15 Alg. 4 line 11, Lemma 4.8", "boundary": "ε = 1 (the cap)",
                        "estimator": f"learner {algorithm}", "checks": _sampler_ids(algorithm),
                        "instances": [f"m₁ = {m1}, δ = 0.1: d log(2d/δ)/((k+1)m₁) = {eps:.3g}"]
                        if m1 else [], "present": eps >= 1})
    for algorithm in ("Baseline", "AER"):
        d = ls.K_EQUALS_D.get(algorithm)
        k = ls._make(getattr(learners, algorithm), algorithm, np.zeros((2, d or ls.D)), 0).k
        out.append({"condition": "k <= d", "where": "CB11 Fig. 1 (a k-subset of [d]), Thm 12",
                    "boundary": "k = d", "estimator": f"learner {algorithm}",
                    "checks": _sampler_ids(algorithm),
                    "instances": [f"d = k = {d}"] if d else [], "present": d == k})
    return out


def rows():
    return instance_rows() + genest_rows() + insensitive_rows() + sampling_rows()


def summary(all_rows):
    """Rows grouped by condition: the estimators with and without the boundary."""
    out = {}
    for r in all_rows:
        g = out.setdefault((r["condition"], r["where"]), {"where": r["where"], "boundary": r["boundary"],
                                            "checks": [], "yes": [], "no": [],
                                            "instances": set()})
        g["checks"] += r["checks"]
        (g["yes"] if r["present"] else g["no"]).append(r["estimator"])
        g["instances"].update(r["instances"])
    return out


def markdown(all_rows):
    lines = ["| condition | where | boundary | checks | boundary instance present |",
             "| --- | --- | --- | --- | --- |"]
    for (cond, _), g in summary(all_rows).items():
        n_checks = len(set(g["checks"]))
        who = f"{len(set(g['checks']))} checks of {len(g['yes']) + len(g['no'])} estimators" \
            if n_checks > 3 else ", ".join(f"`{c}`" for c in sorted(set(g["checks"])))
        present = "yes" if not g["no"] else "no: " + ", ".join(g["no"])
        if g["instances"]:
            present += f" ({'; '.join(sorted(g['instances']))})"
        cells = [cond, g["where"], g["boundary"], who, present]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="write the rows (with provenance) to this file")
    args = parser.parse_args(argv)
    all_rows = rows()
    print(markdown(all_rows))
    _results.write(args.json, all_rows)


if __name__ == "__main__":
    main()
