"""The ``laocheck`` command.

Subcommands: ``list`` (the estimators with their attribute budgets and citations, the registered
checks with theirs, and the registered effort profiles) here, and one module of this package per
other command (``verify``, ``check``, ``report``, ``bounds``, ``errata``, ``baseline``;
``_common`` holds what they share): each has
``add_parser(subparsers)``, which adds its subcommand and sets ``func`` (returning the exit
status). A command module imports at its top only what its parser needs; what the command runs
(the catalog, the experiments, the renderers) is imported inside its ``func``, so that
``laocheck --help`` and ``laocheck <cmd> --help`` load no sympy, matplotlib, pandas, Dask,
scipy.stats or scikit-learn (``tests/test_startup.py``).

Exit status: 0 on success, 1 when a check FAILs (``verify``, ``check``) or a baseline comparison
finds the sampler BROKEN (``baseline compare``), 2 on a usage error (one line on stderr, before
any work: bad arguments, an output path that cannot be written, a pattern that matches nothing)
and when an output file cannot be written after the work (a full disk, a file over the size
limit, a read-only file system: one line naming the file and the OS error; no partial file),
3 when the Dask scheduler is unreachable or lost, 4 when the user's code raised or exited inside
a check (the status ERROR, with the user's file and line: never a verdict), 130 after Ctrl-C
and 143 after SIGTERM (one line saying what was finished), 141 when the reader
of standard output went away.
"""

import argparse
import fnmatch
import os
import sys
import warnings

from .. import __version__
from .._io import check_output_path, write_json_atomic
from .._provenance import provenance
from ..checks import checks
from .._execution import SchedulerError
from ..exceptions import InvalidParameterError
from . import baseline, bounds, check, errata, report, verify
from ..effort import PROFILES, BUILTIN
from ._common import ArgumentParser, Terminated, parse_effort, sigterm_raises, usage_error

#: The modules adding a subcommand, in the order of ``laocheck --help``.
_COMMAND_MODULES = (verify, check, report, bounds, errata, baseline)

EPILOG_LIST = """examples:
  laocheck list                      every estimator and every check, with citations
  laocheck list --json -             the same as JSON on standard output
  laocheck list --match hk12         only the names containing HK12 (any case)
  laocheck list --match '*.budget'   a glob: only the names matching it
  laocheck list --checks             only the checks (id, expected status, citation)
  laocheck list --proof-coverage     per paper and proof: displayed lines, checked, reasoned
  laocheck list --profiles           the effort profiles: name, parent, what differs from it
  laocheck list --profiles --effort my_profiles:nightly
                                     ... with the profiles your module my_profiles registers
"""


def _build_parser():
    parser = ArgumentParser(
        prog="laocheck",
        description=("Theory verification and property testing for linear regression with "
                     "limited attribute observation (CB11, HK12, KS15)."),
    )
    parser.add_argument("--version", action="version", version=f"laocheck {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    p_list = sub.add_parser(
        "list", help="list the estimators and the checks with their citations, or the effort "
        "profiles",
        epilog=EPILOG_LIST, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p_list.add_argument("--match", metavar="TEXT", default="",
                        help="only names containing TEXT, or matching it if it is a glob "
                        "(*, ?, [...]); case-insensitive; an error if nothing matches. "
                        "Default: all.")
    p_list.add_argument("--json", metavar="PATH", default=None,
                        help="also write the listing as JSON to PATH ('-' for stdout). Default: none.")
    what = p_list.add_mutually_exclusive_group()
    what.add_argument("--estimators", action="store_true",
                      help="only the estimators. Default: estimators and checks.")
    what.add_argument("--checks", action="store_true",
                      help="only the checks of the catalog. Default: estimators and checks.")
    what.add_argument("--proof-coverage", action="store_true",
                      help="the proof inventory instead: per paper and proof, the displayed lines, "
                      "how many a check verifies, how many carry a reason, the instance-dependent "
                      "ones, and the check ids. Default: estimators and checks.")
    what.add_argument("--profiles", action="store_true",
                      help="the registered effort profiles instead (laocheck.effort): per profile "
                      "its name, its parent and the fields it changes from its parent (a "
                      "built-in profile, which has none: all its fields). Default: estimators "
                      "and checks.")
    p_list.add_argument("--markdown", action="store_true",
                        help="with --proof-coverage: Markdown tables. Default: plain text.")
    p_list.add_argument("--effort", metavar="PROFILE", type=parse_effort, default=None,
                        help="with --profiles: MODULE:NAME imports your MODULE first, so that "
                        "the profiles it registers (laocheck.effort.register_profile) are "
                        "listed too. Default: none.")
    p_list.set_defaults(func=_cmd_list)
    for module in _COMMAND_MODULES:
        module.add_parser(sub)
    return parser


def matches(name, pattern):
    """Case-insensitive: ``pattern`` is a glob if it has ``*?[``, else a substring."""
    if not pattern:
        return True
    name, pattern = name.lower(), pattern.lower()
    if any(c in pattern for c in "*?["):
        return fnmatch.fnmatchcase(name, pattern)
    return pattern in name


def _estimator_rows(match):
    # start-up: the estimators' kernels and scipy.special load only when they are listed
    from ..estimators import specs
    rows = []
    for spec in specs():
        if not matches(spec.name, match):
            continue
        kind = "max" if spec.budget.kind == "exact" else "expected"
        rows.append({"name": spec.name, "citation": spec.citation, "budget": spec.budget.text,
                     "budget_kind": kind})
    return rows


def _check_rows(match):
    return [{"id": c.id, "citation": c.citation, "expected": c.expected.value,
             "method": c.method, "statement": c.statement}
            for c in checks() if matches(c.id, match)]


def _profile_rows(match):
    """One row per registered effort profile: name, parent, its fields, and the fields that
    differ from its parent's (all of them for a built-in profile, which has no parent)."""
    rows = []
    for name, profile in PROFILES.items():
        if not matches(name, match):
            continue
        values = {k: list(v) if isinstance(v, tuple) else v
                  for k, v in profile.experiment().items()}
        values = {"checks": profile.checks, **values}
        parent = PROFILES.get(profile.parent) if profile.parent is not None else None
        if parent is None:
            changes = dict(values)
        else:
            base = {"checks": parent.checks, **parent.experiment()}
            changes = {k: v for k, v in values.items()
                       if (list(base[k]) if isinstance(base[k], tuple) else base[k]) != v}
        rows.append({"name": name, "parent": profile.parent, "builtin": name in BUILTIN,
                     "fields": values, "changes": changes})
    return rows


def _show_value(value):
    return str(tuple(value)) if isinstance(value, list) else str(value)


def _list_profiles(args):
    """``laocheck list --profiles``: the table, or its JSON."""
    rows = _profile_rows(args.match)
    if args.match and not rows:
        return usage_error("laocheck list", f"--match {args.match!r} matches no effort profile "
                           "(`laocheck list --profiles` shows every name)")
    if args.json is not None:
        check_output_path("--json", args.json)
        argv = ["laocheck", "list", "--profiles"] + (["--match", args.match] if args.match
                                                      else [])
        write_json_atomic(args.json, {"profiles": rows, "provenance": provenance(
            command=argv)}, indent=2)
        if args.json == "-":
            return 0
    width = max([len(r["name"]) for r in rows] + [7])
    pwidth = max([len(r["parent"] or "-") for r in rows] + [6])
    print(f"{'profile':<{width}}  {'parent':<{pwidth}}  fields (a built-in profile: all; "
          "else those that differ from its parent)")
    for r in rows:
        cells = " ".join(f"{k}={_show_value(v)}" for k, v in r["changes"].items()) or \
            "(the same as its parent)"
        print(f"{r['name']:<{width}}  {r['parent'] or '-':<{pwidth}}  {cells}")
    print(f"\n{len(rows)} effort profiles. checks: which of a check's two sample counts runs; "
          "runs, prefixes, folds, grid, ...:\nthe sizes of the papers' experiments "
          "(laocheck.effort). Run one with --effort NAME; register your own with\n"
          "laocheck.effort.register_profile and load it with --effort MODULE:NAME.")
    return 0


def _argv_of(args):
    out = []
    for flag in ("estimators", "checks"):
        if getattr(args, flag):
            out.append(f"--{flag}")
    return out + (["--match", args.match] if args.match else [])


def _cmd_list(args):
    if args.markdown and not args.proof_coverage:
        return usage_error("laocheck list", "--markdown only applies to --proof-coverage")
    if args.effort is not None and not args.profiles:
        return usage_error("laocheck list", "--effort only applies to --profiles")
    if args.profiles:
        return _list_profiles(args)
    if args.proof_coverage:
        # the inventory is read only for --proof-coverage (start-up: `list --help` stays light)
        from ..checks._coverage import coverage, coverage_table
        if args.match:
            return usage_error("laocheck list", "--match does not apply to --proof-coverage")
        if args.json is not None:
            check_output_path("--json", args.json)
            write_json_atomic(args.json, {"proof_coverage": coverage(), "provenance": provenance(
                command=["laocheck", "list", "--proof-coverage"])}, indent=2)
            if args.json == "-":
                return 0
        print(coverage_table(markdown=args.markdown), end="")
        return 0
    if args.json is not None:
        check_output_path("--json", args.json)
    rows = [] if args.checks else _estimator_rows(args.match)
    check_rows = [] if args.estimators else _check_rows(args.match)
    if args.match and not rows and not check_rows:
        what = "estimator" if args.estimators else "check" if args.checks else \
            "estimator or check"
        return usage_error("laocheck list", f"--match {args.match!r} matches no {what} "
                           "(matching is case-insensitive; `laocheck list` shows every name)")
    # the provenance (package versions, git commit: a subprocess) only for a JSON listing
    doc = {"estimators": rows, "checks": check_rows, "provenance": None if args.json is None
           else provenance(command=["laocheck", "list"] + _argv_of(args))}
    if args.json == "-":
        write_json_atomic("-", doc, indent=2)
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
    if args.json is not None:
        write_json_atomic(args.json, doc, indent=2)
    return 0


def main(argv=None):
    """Run the ``laocheck`` command (the console script and ``python -m laocheck``).

    Usage errors, interruptions and a lost scheduler become an exit status and one line on
    standard error, never a traceback (module docstring: the exit statuses).

    Parameters
    ----------
    argv : list of str or None, default=None
        The arguments after the program name; None: ``sys.argv[1:]``.

    Returns
    -------
    int
        The exit status: 0 on success, 1 when a check FAILs or a baseline is BROKEN, 2 on a
        usage error or an output file that could not be written, 3 when the Dask scheduler
        is unreachable or lost, 4 when the user's code raised or exited inside a check
        (ERROR), 130 after Ctrl-C, 143 after SIGTERM, 141 when the reader of standard output
        went away.

    Raises
    ------
    SystemExit
        From argparse, for ``--help``, ``--version`` and arguments it refuses (status 2).
    """
    parser = _build_parser()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DeprecationWarning)
        args = parser.parse_args(argv)
    prog = f"laocheck {args.command}"
    for w in caught:       # a deprecated spelling (``--budget``): one line on stderr, always
        if issubclass(w.category, DeprecationWarning):
            sys.stderr.write(f"{prog}: warning: {w.message}\n")
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)   # as raised
    try:
        with sigterm_raises():
            return args.func(args)
    except InvalidParameterError as exc:          # a usage error found before any work
        return usage_error(prog, str(exc))
    except SchedulerError as exc:                 # the Dask scheduler unreachable or lost
        sys.stderr.write(f"{prog}: error: {exc}\n")
        return 3
    except KeyboardInterrupt as exc:              # Ctrl-C, or SIGTERM (Terminated)
        signal_name = "SIGTERM" if isinstance(exc, Terminated) else "Ctrl-C"
        finished = getattr(exc, "finished", None) or "nothing was written"
        sys.stderr.write(f"\n{prog}: interrupted by {signal_name}; {finished}\n")
        return 143 if isinstance(exc, Terminated) else 130
    except BrokenPipeError:
        # the reader went away (``laocheck verify | head``): stop quietly, as Unix tools do;
        # stdout is pointed at devnull so the interpreter's final flush cannot fail again
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141                     # 128 + SIGPIPE, the shells' status for this case


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
