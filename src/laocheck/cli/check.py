"""``laocheck check module:object``: the papers' claims checked on a user's own estimator.

``object`` is an estimator (an object with ``target``, ``sample`` and optionally ``budget``,
in plain numpy: no ``reference`` needed, its ``sample`` is enumerated exactly by driving its
``rng``), or a callable returning one (a class or a factory called without arguments). Its
claims come from its ``spec`` or ``--claims`` (JSON: ``{"unbiased": true, "second_moment":
"HK12.Lemma3.3.G2", "budget": 3, "budget_kind": "exact", "clipping": 0.5, "scaling":
"degree1", "range": [-4, 4], "k": 2}``; ``"second_moment_inf"`` bounds ‖E[v²]‖∞ and ``"q"``
gives the data-point distribution KS15's S-formulas read); see
``laocheck.testing.check_estimator``. The command parses, calls the engine
(``laocheck.testing.check_estimator``) and prints.

Exit status: 0 when every check PASSes, 1 when one FAILs or — unless
``--allow-inconclusive`` — one could not decide its claim (INCONCLUSIVE, printed with the
reason and what would decide it), 2 on a usage error (an object that cannot be imported or
does not implement the protocol, claims that do not fit it).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time

from .._io import check_output_path, write_json_atomic
from .._provenance import provenance
from ..checks import BUDGETS, DEFAULT_DELTA, Status
from ..exceptions import InvalidParameterError
from ..testing import check_estimator
from .verify import print_table

EPILOG = """examples:
  laocheck check mypkg.samplers:MyGradient                the claims of its spec
  laocheck check mypkg.samplers:make --claims '{"unbiased": true, "budget": 3}'
  laocheck check mypkg.samplers:est --claims claims.json --json report.json --seed 7
"""


def add_parser(subparsers):
    p = subparsers.add_parser(
        "check", help="check your own estimator against the claims it makes",
        description="Run on a user's estimator every check its claims select (unbiasedness, "
        "the attribute budget, the sampler against its reference, second moment, clipping, "
        "scaling).", epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("target", metavar="MODULE:OBJECT",
                   help="the estimator, or a callable returning it, as module.path:name")
    p.add_argument("--claims", metavar="JSON", default=None,
                   help="the claims as a JSON object, or the path of a JSON file. Default: the "
                   "estimator's spec.")
    p.add_argument("--seed", type=_seed, default=0, help="run seed. Default: 0.")
    p.add_argument("--budget", choices=BUDGETS, default="fast",
                   help="sample counts: fast or full. Default: fast.")
    p.add_argument("--delta", type=_delta, default=DEFAULT_DELTA,
                   help=f"false-failure probability of each statistical check (<= 1e-6). "
                   f"Default: {DEFAULT_DELTA:g}.")
    p.add_argument("--json", metavar="PATH", default=None,
                   help="write the records (with provenance) as JSON to PATH. Default: none.")
    p.add_argument("--allow-inconclusive", action="store_true",
                   help="exit 0 even when a claim could not be decided (INCONCLUSIVE). "
                   "Default: such a claim makes the exit status 1.")
    p.set_defaults(func=cmd_check)
    return p


def _seed(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"`--seed` must be an integer >= 0; got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"`--seed` must be an integer >= 0; got {text!r}")
    return value


def _delta(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"`--delta` must be a number; got {text!r}") from None
    if not 0 < value <= 1e-6:
        raise argparse.ArgumentTypeError(f"`--delta` must satisfy 0 < delta <= 1e-6; got {text}")
    return value


def load_object(spec):
    """The object named ``module.path:name`` (a callable without a ``sample`` is called)."""
    if not isinstance(spec, str) or spec.count(":") != 1:
        raise InvalidParameterError(
            f"`MODULE:OBJECT` must read 'module.path:name'; got {spec!r}.")
    module_name, attr = spec.split(":")
    if os.getcwd() not in sys.path:          # as `python -m`: modules of the current directory
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:    # ImportError, a SyntaxError or any error in the user's module
        raise InvalidParameterError(
            f"`MODULE:OBJECT`={spec!r}: module {module_name!r} cannot be imported "
            f"({type(exc).__name__}: {exc}).") from None
    obj = module
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise InvalidParameterError(
                f"`MODULE:OBJECT`={spec!r}: {module_name} has no {attr!r}.") from None
    if callable(obj) and (isinstance(obj, type) or not hasattr(obj, "sample")):
        try:
            obj = obj()
        except TypeError as exc:
            raise InvalidParameterError(
                f"`MODULE:OBJECT`={spec!r} is a callable that needs arguments ({exc}); point at "
                "an estimator object or a factory without arguments.") from None
    return obj


def _claims(text):
    if text is None:
        return None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError:
        try:
            with open(text, encoding="utf-8") as fh:
                doc = json.load(fh)
        except OSError:
            raise InvalidParameterError(
                f"`--claims` must be a JSON object or the path of a JSON file; got {text!r}."
            ) from None
        except json.JSONDecodeError as exc:
            raise InvalidParameterError(f"`--claims`: {text!r} is not valid JSON ({exc}).") from None
    if not isinstance(doc, dict):
        raise InvalidParameterError(f"`--claims` must be a JSON object; got {type(doc).__name__}.")
    return doc


def cmd_check(args):
    try:
        if args.json:
            check_output_path("--json", args.json)
        est = load_object(args.target)
        start = time.perf_counter()
        records = check_estimator(est, _claims(args.claims), seed=args.seed, budget=args.budget,
                                  delta=args.delta, on_fail=None)
    except InvalidParameterError as exc:
        sys.stderr.write(f"laocheck check: error: {exc}\n")
        return 2
    wall = time.perf_counter() - start
    counts = {s.value: sum(r.status == s.value for r in records) for s in Status}
    if records:
        print_table(records)
    print(f"\n{len(records)} checks of {args.target}: "
          + ", ".join(f"{k} {v}" for k, v in counts.items())
          + f". seed {args.seed}, budget {args.budget}, {wall:.1f} s.")
    if not records:
        print("No claim selects a check: give the estimator a spec or pass --claims.")
    for r in records:
        if r.status == Status.FAIL.value:
            print(f"\n{r.id}: FAIL\n    counterexample: "
                  f"{json.dumps(r.counterexample, ensure_ascii=False)}\n    figures: "
                  f"{json.dumps(r.figures, ensure_ascii=False)}")
            if r.note and not r.note.startswith("error:"):
                print(f"    note: {r.note}")
            elif r.note:
                print(f"    error: {r.note.strip().splitlines()[-1][:300]}")
        elif r.status == Status.INCONCLUSIVE.value:
            print(f"\n{r.id}: INCONCLUSIVE\n    {r.note}")
    if args.json:
        write_json_atomic(args.json, {
            "run": {"target": args.target, "seed": args.seed, "budget": args.budget,
                    "delta": args.delta, "counts": counts, "seconds": round(wall, 3),
                    "provenance": provenance(seed=args.seed, budget=args.budget)},
            "checks": [r.to_dict() for r in records]})
    undecided = counts[Status.INCONCLUSIVE.value] and not args.allow_inconclusive
    if undecided:
        print(f"\n{counts[Status.INCONCLUSIVE.value]} claim(s) could not be decided: exit 1 "
              "(--allow-inconclusive accepts them).")
    return 1 if counts[Status.FAIL.value] or undecided else 0
