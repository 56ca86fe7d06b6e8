"""The papers' experimental claims of a paper report decided as the report decides them (issue
37: the median ratio of the paired test errors against a margin, order-statistic bounds per
prefix, :func:`laocheck.experiments.papers.claim_order`) and by the rule laocheck used before
(P(err_better < err_worse) > 1/2 at each prefix, Clopper-Pearson at 2δ/P, margin 1) on the
first ``--old-runs`` runs: the full effort had 30 runs before, 90 now (the first 30 of them are
the old 30: run r's seed is ``child_seeds(seed, runs)[r]``, the same for any run count).

The report's own decisions are recomputed from its ``per_run`` test errors and must equal the
statuses it printed (the script stops otherwise).

Usage::

    laocheck report hk12_mnist --effort full --out out
    python benchmarks/claims_before_after.py out/hk12_mnist/report.json --old-runs 30
"""
import argparse
import json
import re

import numpy as np

from laocheck.experiments import papers
from laocheck.stats import clopper_pearson


def old_decide(counts, runs, delta, points):
    low, high = clopper_pearson(np.asarray(counts), runs, 2 * delta / points)
    low, high = np.atleast_1d(low), np.atleast_1d(high)
    if np.all(low > 0.5):
        return "HOLDS"
    if np.any(high < 0.5):
        return "DOES NOT HOLD"
    return "INCONCLUSIVE"


def names(text):
    text = text.strip()
    for pre in ("min err ", "max err ", "err "):
        if text.startswith(pre):
            return [n.strip() for n in text[len(pre):].split(", ")]
    raise ValueError(text)


def parse(claim):
    st = claim["statistic"]
    m = re.match(r"\|err (.+) - err (.+)\| at the first prefix / at the last prefix$", st)
    if m:
        return "converges", (m.group(1), m.group(2)), None
    st = st.replace("the smallest of ", "").replace(" (each below each)", "")
    terms = re.split(r", (?=(?:min |max )?err )", st)
    groups = None
    for t in terms:
        nxt, prev = t.split(" / ")
        if groups is None:
            groups = [names(prev)]
        groups.append(names(nxt))
    f = claim["formal"]
    pm = re.match(r"at prefix ([\d, ]+) of (\d+)", f)
    points = None if not pm else [int(p) - 1 for p in pm.group(1).split(", ")]
    return "order", groups, points


def panel_for(result, claim, needed):
    cands = [p for p in result["panels"]
             if needed <= {c["algorithm"] for c in p["curves"]}]
    if len(cands) > 1:
        fig = re.search(r"Fig\. (\d+)", claim["citation"])
        cands = [p for p in cands if fig and p["figure"].endswith(f"Fig. {fig.group(1)}")] or cands
    if len(cands) > 1:
        alpha = re.search(r"alpha = (-?[\d.]+)", claim["claim"])
        cands = [p for p in cands if alpha and p["figure"].endswith(f"alpha = {alpha.group(1)}")]
    assert len(cands) == 1, (claim["claim"], [p["figure"] for p in cands])
    return cands[0]


def curves_of(panel, runs=None):
    out = []
    for c in panel["curves"]:
        pr = np.array([[np.nan if v is None or v == "NaN" else float(v) for v in row]
                       for row in c["per_run"]], dtype=float)
        if runs is not None:
            pr = pr[:runs]
        out.append(papers.Curve(**{**{k: c[k] for k in c if k in papers.Curve.__dataclass_fields__},
                                   "per_run": pr.tolist()}))
    return out


def main(path, old_runs):
    rep = json.load(open(path))
    result = rep["data"]["result"]
    rows = []
    for cl in result["claims"]:
        if cl["status"] not in ("HOLDS", "DOES NOT HOLD", "INCONCLUSIVE"):
            rows.append((cl["claim"], cl["status"], "-", "-"))
            continue
        kind, groups, points = parse(cl)
        needed = set(groups) if kind == "converges" else set(sum(groups, []))
        panel = panel_for(result, cl, needed)
        kw = dict(claim=cl["claim"], citation=cl["citation"], source=cl["source"],
                  stand_in=cl["stand_in"], delta=cl["delta"])
        curves = curves_of(panel)
        if kind == "converges":
            new = papers.claim_converges(curves, *groups, **kw)
        else:
            new = papers.claim_order(curves, groups, points=points, margin=cl["margin"], **kw)
        assert new.status == cl["status"], (cl["claim"], new.status, cl["status"])
        old_curves = curves_of(panel, old_runs)
        errs = {c.algorithm: np.array(c.per_run, dtype=float) for c in old_curves}
        if kind == "converges":
            gap = np.abs(errs[groups[0]] - errs[groups[1]])
            counts = (int((gap[:, 0] > gap[:, -1]).sum()),)
            old = old_decide(counts, gap.shape[0], cl["delta"], 1)
        else:
            e = [np.array([errs[n] for n in g]) for g in groups]
            held = np.ones(e[0].shape[1:], dtype=bool)
            for lo, up in zip(e, e[1:]):
                held &= lo.max(axis=0) < up.min(axis=0)
            pts = list(range(held.shape[1])) if points is None else points
            counts = tuple(int(v) for v in held[:, pts].sum(axis=0))
            old = old_decide(counts, held.shape[0], cl["delta"], len(pts))
        rows.append((cl["claim"], cl["status"], old,
                     f"{cl['runs']} runs, needed {cl.get('needed')}, counts {cl.get('counts')}"))
    return result, rows


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", help="a paper report's report.json")
    parser.add_argument("--old-runs", type=int, default=30,
                        help="runs of the old rule (the first of the report's). Default: 30.")
    args = parser.parse_args()
    result, rows = main(args.report, args.old_runs)
    dec = lambda s: s in ("HOLDS", "DOES NOT HOLD")          # noqa: E731
    effort = result.get("effort", result.get("budget"))         # "budget": a report before 0.1
    print(f"{result['experiment']} effort {effort} runs {result['runs']}")
    for claim, new, old, info in rows:
        print(f"  new {new:14s} old {old:14s} | {claim[:70]} | {info}")
    print(f"  decided: before {sum(dec(r[2]) for r in rows)}, after {sum(dec(r[1]) for r in rows)}"
          f" of {len(rows)}")
