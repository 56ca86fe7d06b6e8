"""``laocheck verify``: run the check catalog, print the verdicts and the errata, write JSON.

Exit status: 0 when no check FAILs (ERRATUM and INCONCLUSIVE are reported, not failures), 1 when
one does (the output then ends with a failure summary: per failing check its id, citation,
figures, counterexample and the command that reruns it alone), 2 on a usage error, 3 when the run
cannot finish because the Dask scheduler cannot be reached or was lost (with ``--json``,
``--resume`` continues it), 4 when a check is ERROR (the user's code it runs — a user bound
registered by an imported module — raised or exited; never a verdict), 130 / 143 when
interrupted by Ctrl-C / SIGTERM (the checks that had finished are kept in the results log when
``--json`` is given; nothing else is written).

Work is dispatched by the engine's runner (:func:`laocheck.checks.run_catalog`, through
:mod:`laocheck._execution`), one task per check: here (``--jobs``)
or on a Dask cluster (``--scheduler ADDRESS`` or ``$LAOCHECK_SCHEDULER``). With ``--json
PATH`` every record is also appended, as its check finishes, to ``PATH``'s results log
(``verify.json`` -> ``verify.results.jsonl``); ``--resume`` reuses the records of that log
with the same (check, seed, budget, laocheck version).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time

from .._execution import SchedulerError, scheduler_address
from .._io import WriteError, check_output_path, write_json_atomic
from .._provenance import provenance
from ..checks import BUDGETS, DEFAULT_DELTA, Status, checks, errata
# the runner is the engine's (laocheck.checks._runner); its names stay importable from here
from ..checks._runner import (LONG_CHECKS, _failed_record, _run_one,  # noqa: F401
                              results_path, run_catalog, submission_order)
from ..exceptions import InvalidParameterError
from ._common import add_scheduler_option, progress as progress_line

EPILOG = """examples:
  laocheck verify                         the whole catalog, fast budget, seed 0
  laocheck verify --only 'HK12.Lemma3.*'  only the ids matching a glob (repeatable, any case)
  laocheck verify --budget full --jobs 2 --json verify.json
  laocheck verify --seed 7                another seed: the same verdicts are expected
  laocheck verify --durations 15          also list the 15 slowest checks (CPU s, wall s, power)
  laocheck verify --budget full --scheduler tcp://HOST:8786 --json verify.json
                                          on a Dask cluster (dask scheduler / dask worker)
  laocheck verify --budget full --scheduler tcp://HOST:8786 --json verify.json --resume
                                          continue an interrupted run (verify.results.jsonl)

status legend: PASS the statement holds (exactly, or at the stated delta); FAIL refuted (exit 1);
ERRATUM the literal statement of the paper is false (counterexample given, the corrected
statement is its own check); INCONCLUSIVE the budget cannot decide; READING false only as a
text extraction reads it, or not derivable from what the paper displays (the missing step
named); ERROR the user's code raised or exited, not a verdict (exit 4).
exit status: 0 no FAIL; 1 a check FAILs; 2 usage error; 3 Dask scheduler unreachable or lost;
4 a check is ERROR; 130 / 143 interrupted (Ctrl-C / SIGTERM).
`laocheck list --checks` lists every check id with its citation.
"""


def add_parser(subparsers):
    p = subparsers.add_parser(
        "verify", help="run the check catalog and report PASS/FAIL/ERRATUM/INCONCLUSIVE",
        description="Run every registered check of the catalog: the statements of CB11, HK12 and "
        "KS15 and the properties of every estimator and learner.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--only", metavar="GLOB", action="append", default=None,
                   help="run only the checks whose id matches GLOB (repeatable; case-insensitive; "
                   "a GLOB matching no check is an error). Default: all.")
    p.add_argument("--budget", choices=BUDGETS, default="fast",
                   help="sample counts: fast (minutes) or full (hours). Default: fast.")
    p.add_argument("--seed", type=_seed, default=0,
                   help="run seed; each check is seeded from SeedSequence(seed) keyed by its id. "
                   "Default: 0.")
    p.add_argument("--jobs", type=_jobs, default=1,
                   help=f"parallel workers (joblib), 1 to {MAX_JOBS}; at most one per check, "
                   "per CPU and per 200 MB of free memory start; results do not depend on it. "
                   "Default: 1.")
    p.add_argument("--json", metavar="PATH", default=None,
                   help="write the run (metadata and every check) as JSON to PATH. Default: none.")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress line on stderr. Default: shown (updated in place on a "
                   "terminal, printed once at the end otherwise).")
    p.add_argument("--witnesses", action="store_true",
                   help="run every selected check under its mutation witnesses instead (each "
                   "mutation must make the check FAIL, or an ERRATUM's corrected statement "
                   "PASS) and report the witnesses that survive; serial. Exit 1 when one "
                   "survives. Default: off.")
    p.add_argument("--witness-share", metavar="DAY", type=int, default=None,
                   help="with --witnesses: run only the share DAY mod 7 of the witnesses (the "
                   "rotation that covers all of them in 7 days). Default: all.")
    add_scheduler_option(p, "the checks")
    p.add_argument("--resume", action="store_true",
                   help="with --json PATH: reuse the records already in PATH's results log "
                   "(PATH.results.jsonl, written as checks finish) for the same check, seed, "
                   "budget and laocheck version; run only the others. Default: start afresh.")
    p.add_argument("--durations", metavar="N", type=_durations, default=None,
                   help="after the table, list the N slowest checks (0: all) by CPU seconds, "
                   "with their wall seconds and the detectable effect each records (the power "
                   "the time buys), as pytest's --durations. Default: not listed.")
    p.set_defaults(func=cmd_verify)
    return p


def _durations(text):
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or value < 0:
        raise argparse.ArgumentTypeError(
            f"`--durations` must be an integer >= 0 (0: every check); got {text!r}")
    return value


def _cpu(rec):
    """The CPU seconds of a record (its wall seconds for a record that did not keep them)."""
    return rec.seconds if rec.cpu_seconds is None else rec.cpu_seconds


def print_durations(records, n, out=None):
    """The ``n`` slowest checks of ``records`` (0: all) by CPU seconds, slowest first: CPU
    and wall seconds, id, and the ``detectable`` effect the check records, printed as is
    (``laocheck verify --durations N``); then the total and the share of the listed ones."""
    out = sys.stdout if out is None else out
    ranked = sorted(records, key=lambda r: (-_cpu(r), r.id))
    shown = ranked if n == 0 else ranked[:n]
    total = sum(_cpu(r) for r in records)
    out.write(f"\nslowest {len(shown)} of {len(records)} checks (CPU s, wall s, detectable "
              "effect):\n")
    for r in shown:
        detectable = json.dumps(r.detectable, ensure_ascii=False, default=str)
        out.write(f"{_cpu(r):9.2f}  {r.seconds:9.2f}  {r.id}  detectable={detectable}\n")
    listed = sum(_cpu(r) for r in shown)
    share = 100 * listed / total if total > 0 else 0.0
    out.write(f"total {total:.1f} CPU s; these {len(shown)}: {listed:.1f} CPU s "
              f"({share:.0f} %)\n")


def _seed(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"`--seed` must be an integer >= 0; got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"`--seed` must be an integer >= 0; got {value}")
    return value


#: The most workers ``--jobs`` accepts (a typo such as --jobs 10000 must not fork-bomb).
MAX_JOBS = 1024


def _jobs(text):
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or not 1 <= value <= MAX_JOBS:
        raise argparse.ArgumentTypeError(
            f"`--jobs` must be an integer >= 1 and <= {MAX_JOBS}; got {text!r}")
    return value


def key_figure(rec):
    """One short figure for the table."""
    f = rec.figures or {}
    for key in ("worst_ratio", "failure_prob_interval", "max_abs_bias", "exact_bias",
                "max_attributes", "lower_confidence_bound",
                "max_width", "exact_max_attributes", "kernel_max_attributes"):
        if key in f:
            value = f[key]
            if isinstance(value, float):
                value = f"{value:.6g}"
            elif isinstance(value, list):
                value = "[" + ", ".join(f"{v:.3g}" if isinstance(v, float) else str(v)
                                        for v in value[:2]) + "]"
            return f"{key}={value}"
    for key, value in f.items():
        if isinstance(value, (int, float, str)) and not isinstance(value, bool):
            return f"{key}={value:.6g}" if isinstance(value, float) else f"{key}={value}"[:40]
    return ""


def print_table(records, out=None):
    out = sys.stdout if out is None else out
    width = max([len(r.id) for r in records] + [2])
    out.write(f"{'id':<{width}}  {'status':<12}  {'key figure':<44}  citation\n")
    for r in records:
        out.write(f"{r.id:<{width}}  {r.status:<12}  {key_figure(r)[:44]:<44}  "
                  f"{r.citation}\n")


def print_errata(rows, out=None):
    out = sys.stdout if out is None else out
    out.write(f"\nErrata ({len(rows)}): literal statements of the papers that are false\n")
    for row in rows:
        out.write(f"- {row['id']}\n    literal:        {row['literal']}\n"
                  f"    counterexample: {json.dumps(row['counterexample'], ensure_ascii=False)}\n"
                  f"    correction:     {row['correction']}\n")


def _figures_text(figures, limit=6):
    parts = []
    for key, value in (figures or {}).items():
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            continue
        parts.append(f"{key}={value:.6g}" if isinstance(value, float) else f"{key}={value}")
        if len(parts) == limit:
            break
    return ", ".join(parts) or "-"


def reproduce_command(rec):
    """The command that reruns the check of ``rec`` alone, with its seed and budget."""
    return (f"laocheck verify --only {shlex.quote(rec.id)} --seed {rec.seed} "
            f"--budget {rec.budget}")


def print_failures(records, out=None):
    """The failure summary: per FAILed check its id, citation, key figure against its
    threshold (every figure of the record), counterexample and reproduce command."""
    out = sys.stdout if out is None else out
    failed = [r for r in records if r.status == Status.FAIL.value]
    errors = [r for r in records if r.status == Status.ERROR.value]
    if errors:
        out.write(f"\nErrors of the code under test ({len(errors)}, not verdicts):\n")
        for r in errors:
            out.write(f"- {r.id}  {r.note}\n    reproduce:      {reproduce_command(r)}\n")
    if not failed:
        return
    out.write(f"\nFailures ({len(failed)}):\n")
    for r in failed:
        counterexample = "-" if r.counterexample in (None, {}, []) else json.dumps(
            r.counterexample, ensure_ascii=False)
        out.write(f"- {r.id}  ({r.citation})\n"
                  f"    statement:      {r.statement}\n"
                  f"    figures:        {_figures_text(r.figures)}\n"
                  f"    counterexample: {counterexample}\n")
        if r.note:
            out.write(f"    note:           {r.note.strip().splitlines()[-1][:200]}\n")
        out.write(f"    reproduce:      {reproduce_command(r)}\n")


def cmd_verify(args):
    if args.witnesses:
        return cmd_witnesses(args)
    if args.witness_share is not None:
        raise InvalidParameterError("`--witness-share` needs --witnesses")
    if args.json is not None:
        check_output_path("--json", args.json)
    log_path = results_path(args.json) if args.json not in (None, "-") else None
    if args.resume and log_path is None:
        raise InvalidParameterError(
            "--resume needs --json PATH (its results log PATH.results.jsonl holds the "
            "finished checks)")
    try:
        selected = checks(args.only)
    except InvalidParameterError as exc:  # an --only matching no check: a usage error
        raise InvalidParameterError(str(exc).replace("`pattern`", "`--only`")) from None
    start = time.perf_counter()
    done = []
    try:
        with progress_line("verify", len(selected), not args.no_progress) as bar:
            def advance(rec, running=None, resumed=False):
                done.append(rec)
                failed = sum(r.status == Status.FAIL.value for r in done)
                state = "" if running is None else f"running {running} failed {failed}"
                bar.advance(rec.id, state=state)

            records = run_catalog(selected, args.seed, args.budget, args.jobs, advance,
                                  scheduler=args.scheduler, resume=args.resume,
                                  results=log_path)
    except SchedulerError as exc:
        sys.stderr.write(f"laocheck verify: error: {exc}\n")
        return 3
    except KeyboardInterrupt as exc:
        failed = sum(r.status == Status.FAIL.value for r in done)
        kept = (f"their records are in {log_path} (rerun with --resume to continue)"
                if log_path else "no results were written")
        exc.finished = f"{len(done)} of {len(selected)} checks had finished ({failed} FAIL); {kept}"
        raise
    address = scheduler_address(args.scheduler)
    wall = time.perf_counter() - start
    counts = {s.value: sum(r.status == s.value for r in records) for s in Status}
    print_table(records)
    rows = errata(records)
    print_errata(rows)
    if args.durations is not None:
        print_durations(records, args.durations)
    family = sum(r.delta for r in records)
    print(f"\n{len(records)} checks: " + ", ".join(f"{k} {v}" for k, v in counts.items())
          + f". seed {args.seed}, budget {args.budget}, "
          + (f"dask at {address}" if address else f"jobs {args.jobs}") + f", {wall:.1f} s. "
          f"Family-wise false-FAIL probability <= {family:.3g} (sum of the checks' deltas).")
    print_failures(records)
    if args.json is not None:
        doc = {"run": {"seed": args.seed, "budget": args.budget, "delta": DEFAULT_DELTA,
                       "family_wise_delta": family, "jobs": args.jobs,
                       "seconds": round(wall, 3), "counts": counts,
                       "provenance": provenance(seed=args.seed, budget=args.budget)},
               "checks": [r.to_dict() for r in records], "errata": rows}
        try:
            write_json_atomic(args.json, doc)
        except WriteError as exc:
            log = results_path(args.json) if args.json != "-" else None
            if log is None or not log.exists():
                raise
            raise WriteError(f"{exc} The results log {str(log)!r} keeps the {len(records)} "
                             "finished checks: free space and rerun with --resume to write "
                             f"{str(args.json)!r} without running them again.", exc.errno,
                             exc.reason) from None
    return 4 if counts[Status.ERROR.value] else 1 if counts[Status.FAIL.value] else 0


def cmd_witnesses(args):
    """``laocheck verify --witnesses``: the checks' mutation witnesses (checks._witness)."""
    # start-up: the witness declarations import the whole catalog's callees (sympy,
    # scikit-learn), so only for --witnesses (tests/test_startup.py)
    from ..checks._witnesses import run_witnesses_report
    doc = run_witnesses_report(args.only, args.seed, args.budget, share=args.witness_share,
                               out=sys.stdout, progress=not args.no_progress)
    if args.json is not None:
        check_output_path("--json", args.json)
        doc["run"]["provenance"] = provenance(seed=args.seed, budget=args.budget)
        write_json_atomic(args.json, doc)
    return 1 if doc["run"]["survivors"] else 0
