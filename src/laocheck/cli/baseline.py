"""``laocheck baseline save|compare NAME --estimator module:factory``: regression baselines.

``save`` writes the fingerprint of the estimator (see :mod:`laocheck.testing.baseline`: exact
for a finite support, sampled — a stored sample and moments with intervals — otherwise) to
``DIR/NAME.json`` (default ``laocheck-baselines/``; an existing file only with ``--force``);
``compare`` prints, per instance, SAME DISTRIBUTION, CHANGED BUT STILL CORRECT, BROKEN or (a
sampled fingerprint without a second-moment bound) CHANGED, CORRECTNESS UNDECIDED.

Exit status: 0 when every instance is SAME DISTRIBUTION or CHANGED BUT STILL CORRECT, 1 when one
is BROKEN or CHANGED, CORRECTNESS UNDECIDED (nothing certifies the change), 2 on a usage error
(an object that cannot be imported or does not implement the protocol, a missing, corrupt or
foreign baseline file, an existing file without ``--force``) or when the baseline or ``--json``
file cannot be written (a full disk, a file over the size limit, a read-only directory: one
line naming the file and the OS error; no partial file is left).
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings

from .._io import check_output_path, write_json_atomic
from .._provenance import provenance
from ..checks import DEFAULT_DELTA
from ..exceptions import InvalidParameterError
from ._common import add_effort_option, parse_seed
from .check import _claims, _delta, load_object

EPILOG = """examples:
  laocheck baseline save grad --estimator mypkg.samplers:make_gradient
  (change the sampler)
  laocheck baseline compare grad --estimator mypkg.samplers:make_gradient
  laocheck baseline compare grad --estimator mypkg.samplers:make_gradient --json cmp.json

exit status: 0 SAME DISTRIBUTION or CHANGED BUT STILL CORRECT everywhere (save: written);
1 BROKEN or CHANGED, CORRECTNESS UNDECIDED somewhere; 2 a usage error, or a file that could
not be written (disk full, too large, read-only: one line, no partial file).
"""


def add_parser(subparsers):
    p = subparsers.add_parser(
        "baseline", help="save an estimator's fingerprint; compare a changed sampler to it",
        description="Regression baselines for an altered sampler: `save` stores the exact "
        "outcome and attribute-count distributions on small dyadic instances (a finite "
        "support; otherwise a stored sample, moments with intervals and the attribute counts) "
        "and the check statuses; `compare` says per instance SAME DISTRIBUTION, CHANGED BUT "
        "STILL CORRECT (unbiased, budget kept; second-moment ratio new/old), BROKEN, or "
        "CHANGED, CORRECTNESS UNDECIDED (sampled, and no second-moment bound to decide "
        "unbiasedness with).",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("action", choices=("save", "compare"), help="save or compare")
    p.add_argument("name", metavar="NAME", help="the baseline's name (file DIR/NAME.json)")
    p.add_argument("--estimator", metavar="MODULE:OBJECT", required=True,
                   help="the estimator, or a callable returning it, as module.path:name")
    p.add_argument("--dir", default="laocheck-baselines",
                   help="directory of the baselines. Default: laocheck-baselines/.")
    p.add_argument("--claims", metavar="JSON", default=None,
                   help="the claims as a JSON object or file (as `laocheck check`). Default: "
                   "the estimator's spec.")
    p.add_argument("--sampled", action="store_true",
                   help="save: a sampled fingerprint even for a finite support (when its exact "
                   "enumeration is too large). Default: exact when possible.")
    p.add_argument("--force", action="store_true",
                   help="save: overwrite an existing baseline. Default: refuse.")
    p.add_argument("--seed", type=parse_seed, default=0, help="seed of the checks. Default: 0.")
    add_effort_option(p, "the sample counts of the checks (compare: default the baseline's; "
                      "save: default fast)", default=None)
    p.add_argument("--delta", type=_delta, default=DEFAULT_DELTA,
                   help=f"false-failure probability of each statistical check. Default: "
                   f"{DEFAULT_DELTA:g}.")
    p.add_argument("--json", metavar="PATH", default=None,
                   help="compare: write the verdicts (with provenance) as JSON. Default: none.")
    p.set_defaults(func=cmd_baseline)
    return p


def cmd_baseline(args):
    # start-up: the baselines' checks (sympy, scipy) load only when the command runs
    from ..testing.baseline import (BROKEN, UNDECIDED, BaselineVersionWarning, baseline_path,
                                    compare_baseline, save_baseline)
    prog = f"laocheck baseline {args.action}"
    try:
        if args.json:
            check_output_path("--json", args.json)
        path = baseline_path(args.name, args.dir)
        est = load_object(args.estimator)
        claims = _claims(args.claims)
        if args.action == "save":
            doc = save_baseline(est, path, seed=args.seed, effort=args.effort or "fast",
                                claims=claims, delta=args.delta, force=args.force,
                                fingerprint="sampled" if args.sampled else "auto")
            print(f"baseline {args.name!r} of {args.estimator} written to {path}: instances "
                  f"{', '.join(doc['instances'])}; checks "
                  + ", ".join(f"{k} {v}" for k, v in doc["checks"].items()) + ".")
            return 0
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", BaselineVersionWarning)
            results = compare_baseline(est, path, seed=args.seed, effort=args.effort,
                                       claims=claims, delta=args.delta)
        for w in caught:
            sys.stderr.write(f"{prog}: warning: {w.message}\n")
    except InvalidParameterError as exc:
        sys.stderr.write(f"{prog}: error: {exc}\n")
        return 2
    for r in results:
        line = f"{r.instance:<7} {r.verdict}"
        ratio = r.figures.get("second_moment_ratio")
        if ratio is not None and r.verdict not in (BROKEN, UNDECIDED):
            line += f"  (E‖v‖² new/old = {ratio})"
        if r.verdict == BROKEN:
            line += f"  claim {r.claim}: counterexample " + json.dumps(
                r.counterexample, ensure_ascii=False, default=str)
        elif r.verdict == UNDECIDED:
            line += f"  ({r.counterexample['why']})"
        print(line)
    broken = sum(r.verdict == BROKEN for r in results)
    undecided = sum(r.verdict == UNDECIDED for r in results)
    print(f"\n{len(results)} comparisons with baseline {args.name!r}: {broken} BROKEN"
          + (f", {undecided} UNDECIDED." if undecided else "."))
    if args.json:
        write_json_atomic(args.json, {
            "run": {"baseline": str(path), "estimator": args.estimator, "seed": args.seed,
                    "provenance": provenance(seed=args.seed, effort=args.effort)},
            "comparisons": [r.to_dict() for r in results]})
    return 1 if broken or undecided else 0
