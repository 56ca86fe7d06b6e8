"""The ``laocheck`` command.

Subcommands: ``list`` (the estimators with their budgets and citations, and the registered checks
with theirs) here, and one module of this package per other command (``verify``, ``bounds``,
``check``):
each has ``add_parser(subparsers)``, which adds its subcommand and sets ``func`` (returning the
exit status).

Exit status: 0 on success, 2 on a usage error (argparse's convention).
"""

import argparse
import json
import os
import sys

from .. import __version__
from ..checks import checks
from ..estimators import specs
from . import bounds, check, errata, report, verify

#: The modules adding a subcommand, in the order of ``laocheck --help``.
_COMMAND_MODULES = (verify, check, report, bounds, errata)

EPILOG_LIST = """examples:
  laocheck list                      every estimator and every check, with citations
  laocheck list --json -             the same as JSON on standard output
  laocheck list --match HK12         only the names containing HK12
  laocheck list --checks             only the checks (id, expected status, citation)
"""


def _build_parser():
    parser = argparse.ArgumentParser(
        prog="laocheck",
        description=("Theory verification and property testing for linear regression with "
                     "limited attribute observation (CB11, HK12, KS15)."),
    )
    parser.add_argument("--version", action="version", version=f"laocheck {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    p_list = sub.add_parser(
        "list", help="list the estimators and the checks with their citations",
        epilog=EPILOG_LIST, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p_list.add_argument("--match", metavar="TEXT", default="",
                        help="only names containing TEXT. Default: all.")
    p_list.add_argument("--json", metavar="PATH", default=None,
                        help="also write the listing as JSON to PATH ('-' for stdout). Default: none.")
    what = p_list.add_mutually_exclusive_group()
    what.add_argument("--estimators", action="store_true",
                      help="only the estimators. Default: estimators and checks.")
    what.add_argument("--checks", action="store_true",
                      help="only the checks of the catalog. Default: estimators and checks.")
    p_list.set_defaults(func=_cmd_list)
    for module in _COMMAND_MODULES:
        module.add_parser(sub)
    return parser


def _estimator_rows(match):
    rows = []
    for spec in specs():
        if match not in spec.name:
            continue
        kind = "max" if spec.budget.kind == "exact" else "expected"
        rows.append({"name": spec.name, "citation": spec.citation, "budget": spec.budget.text,
                     "budget_kind": kind})
    return rows


def _check_rows(match):
    return [{"id": c.id, "citation": c.citation, "expected": c.expected.value,
             "method": c.method, "statement": c.statement}
            for c in checks() if match in c.id]


def _cmd_list(args):
    rows = [] if args.checks else _estimator_rows(args.match)
    check_rows = [] if args.estimators else _check_rows(args.match)
    doc = {"estimators": rows, "checks": check_rows}
    if args.json == "-":
        json.dump(doc, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    if not args.checks:
        width = max([len(r["name"]) for r in rows] + [4])
        print(f"{'estimator':<{width}}  {'attributes':<18}  citation")
        for r in rows:
            budget = f"{r['budget']} ({r['budget_kind']})"
            print(f"{r['name']:<{width}}  {budget:<18}  {r['citation']}")
        print(f"\n{len(rows)} estimators. attributes: distinct attributes of x one draw observes "
              "(max = always at most; expected = in expectation).")
    if not args.estimators:
        width = max([len(r["id"]) for r in check_rows] + [5])
        print(f"\n{'check':<{width}}  {'expected':<8}  citation")
        for r in check_rows:
            print(f"{r['id']:<{width}}  {r['expected']:<8}  {r['citation']}")
        print(f"\n{len(check_rows)} checks. expected: the status the check declares (ERRATUM: "
              "the literal statement of the paper is false; its correction is a check of its "
              "own). Run them with `laocheck verify`.")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(doc, fh, indent=2, ensure_ascii=False)
    return 0


def main(argv=None):
    parser = _build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:
        # the reader went away (``laocheck verify | head``): stop quietly, as Unix tools do;
        # stdout is pointed at devnull so the interpreter's final flush cannot fail again
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141                     # 128 + SIGPIPE, the shells' status for this case


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
