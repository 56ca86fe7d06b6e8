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
with the same (check, seed, effort profile, laocheck version).

Power: the table's ``detects`` column is each record's ``detects``, the factor F by which the
statement could be off (a bound F times too small, a mean or a probability F times its
stated value) and still be refuted with probability >= 0.9 at the run's sample sizes: "1×"
for an exact comparison of numbers (any discrepancy), "—" where no factor applies (a text or
structure check, a sympy identity, a record without it). A PASS whose F is above
:data:`WEAK_FACTOR` = 2 is printed "not refuted (detects ≥ F×)": it says only that no
violation of F or more was seen. The JSON status stays PASS (exit codes and ``passed`` do not
change). ``--durations`` prints the same factor.
"""

from __future__ import annotations

import argparse
import json
import math
import shlex
import sys
import textwrap
import time

from .._execution import SchedulerError, scheduler_address
from .._io import WriteError, check_output_path, write_json_atomic
from .._provenance import provenance
from ..checks import DEFAULT_DELTA, Status, checks, errata
# the runner is the engine's (laocheck.checks._runner); its names stay importable from here
from ..checks._runner import (LONG_CHECKS, _failed_record, _run_one,  # noqa: F401
                              results_path, run_catalog, submission_order)
from ..exceptions import InvalidParameterError
from ._common import add_effort_option, add_scheduler_option, parse_seed, progress as progress_line

EPILOG = """examples:
  laocheck verify                         the whole catalog, fast effort, seed 0
  laocheck verify --only 'HK12.Lemma3.*'  only the ids matching a glob (repeatable, any case)
  laocheck verify --effort full --jobs 2 --json verify.json
  laocheck verify --seed 7                another seed: the same verdicts are expected
  laocheck verify --durations 15          also list the 15 slowest checks (CPU s, wall s, detects)
  laocheck verify --effort full --scheduler tcp://HOST:8786 --json verify.json
                                          on a Dask cluster (dask scheduler / dask worker)
  laocheck verify --effort full --scheduler tcp://HOST:8786 --json verify.json --resume
                                          continue an interrupted run (verify.results.jsonl)

status legend:
{legend}
exit status: 0 no FAIL; 1 a check FAILs; 2 usage error, or the --json file or its results log
cannot be written (one line naming the file; no partial file); 3 Dask scheduler unreachable or
lost; 4 a check is ERROR; 130 / 143 interrupted (Ctrl-C / SIGTERM).
`laocheck list --checks` lists every check id with its citation.
"""

#: What each status means, one entry per :class:`~laocheck.checks.Status` (the ``--help``
#: legend and the legend printed under the table; tests/cli check that none is missing).
STATUS_LEGEND = {
    Status.PASS.value: "the statement held (exactly, or at the stated delta); the detects "
    "column gives the factor F a violation must reach to be found with probability >= 0.9 (1× "
    "exact, — none); a PASS with F > 2 reads \"not refuted (detects ≥ F×)\"",
    Status.FAIL.value: "refuted, with a counterexample (exit 1)",
    Status.ERRATUM.value: "the literal statement of the paper is false (counterexample given; "
    "the corrected statement is its own check)",
    Status.INCONCLUSIVE.value: "the effort cannot decide; the row's reason says why and what "
    "would",
    Status.READING.value: "false only as a text extraction reads it (the typeset paper reads "
    "otherwise), or not derivable from what the paper displays (the missing step named); the "
    "row's reason says which",
    Status.ERROR.value: "the user's code raised or exited, not a verdict (exit 4)",
}


def legend_lines(indent="  ", width=96):
    """The status legend, one status per entry, wrapped at ``width`` columns."""
    lines = []
    for status, meaning in STATUS_LEGEND.items():
        lines += textwrap.wrap(f"{status:<12}  {meaning}", width, initial_indent=indent,
                               subsequent_indent=indent + " " * 14)
    return lines


EPILOG = EPILOG.format(legend="\n".join(legend_lines()))


def add_parser(subparsers):
    p = subparsers.add_parser(
        "verify", help="run the check catalog and report each check's status (see its legend)",
        description="Run every registered check of the catalog: the statements of CB11, HK12 and "
        "KS15 and the properties of every estimator and learner.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--only", metavar="GLOB", action="append", default=None,
                   help="run only the checks whose id matches GLOB (repeatable; case-insensitive; "
                   "a GLOB matching no check is an error). Default: all.")
    add_effort_option(p, "the sample counts of the checks (tiny runs fast's)")
    p.add_argument("--seed", type=parse_seed, default=0,
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
                   "effort profile and laocheck version; run only the others. Default: start "
                   "afresh.")
    p.add_argument("--durations", metavar="N", type=_durations, default=None,
                   help="after the table, list the N slowest checks (0: all) by CPU seconds, "
                   "with their wall seconds and the factor each detects (the power the time "
                   "buys), as pytest's --durations. Default: not listed.")
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
    and wall seconds, id, and the factor the check ``detects`` (:func:`detects_text`)
    (``laocheck verify --durations N``); then the total and the share of the listed ones."""
    out = sys.stdout if out is None else out
    ranked = sorted(records, key=lambda r: (-_cpu(r), r.id))
    shown = ranked if n == 0 else ranked[:n]
    total = sum(_cpu(r) for r in records)
    out.write(f"\nslowest {len(shown)} of {len(records)} checks (CPU s, wall s, detects: "
              "the factor found with probability >= 0.9):\n")
    for r in shown:
        out.write(f"{_cpu(r):9.2f}  {r.seconds:9.2f}  {r.id}  detects={detects_text(r.detects)}\n")
    listed = sum(_cpu(r) for r in shown)
    share = 100 * listed / total if total > 0 else 0.0
    out.write(f"total {total:.1f} CPU s; these {len(shown)}: {listed:.1f} CPU s "
              f"({share:.0f} %)\n")


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


#: Width of the key-figure column of the table.
KEY_WIDTH = 44
#: The figures shown first, when the record has them (the verdict's own measure).
KEY_FIGURES = ("worst_ratio", "failure_prob_interval", "max_abs_bias", "exact_bias",
               "max_attributes", "lower_confidence_bound", "max_width", "exact_max_attributes",
               "kernel_max_attributes")


def _figure_value(value):
    """A figure's value as text, whole: floats to 6 significant digits, a list of at most 3
    numbers whole (a longer one as its first 2 and its length), a list of records as its
    length, text as it is."""
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, list):
        if any(isinstance(v, (dict, list)) for v in value):    # records: --json has them
            return f"[{len(value)} entries]"
        items = [_figure_value(v) for v in value]
        if len(items) > 3:
            return "[" + ", ".join(items[:2]) + f", … ({len(items)} values)]"
        return "[" + ", ".join(items) + "]"
    return str(value)


def _figure_items(figures):
    """(key, text) of every figure that has a short value: the preferred ones first, then the
    others in order; a nested dict's scalar entries as ``key[sub]``."""
    items = []
    for key, value in figures.items():
        if isinstance(value, dict):
            items += [(f"{key}[{sub}]", _figure_value(v)) for sub, v in value.items()
                      if isinstance(v, (int, float, str, list)) and not isinstance(v, dict)]
        elif isinstance(value, (int, float, str, list)):
            items.append((key, _figure_value(value)))
    rank = {key: i for i, key in enumerate(KEY_FIGURES)}
    return sorted(items, key=lambda kv: rank.get(kv[0], len(rank)))


def _break_expression(text, width):
    """``text`` in pieces of at most ``width`` characters, broken only after ``", "``, ``"+"``,
    ``"-"``, ``"*"``, ``"/"`` or a space, never inside a name or a number: in the second half
    of the piece (else anywhere in it) at the shallowest nesting level of brackets it offers
    (a top-level operator before one inside parentheses); a piece with no such point stays
    whole on its own line."""
    points, depth = [], 0
    for i, ch in enumerate(text):
        depth += ch in "([{"
        depth -= ch in ")]}"
        if ch in ",+-*/ " and 0 < i + 1 < len(text) and text[i + 1] != " " and \
                not (ch in "+-" and i > 0 and text[i - 1] in "e(*/^"):
            points.append((i + 1, depth))
    pieces, start = [], 0
    while len(text) - start > width:
        fits = [(p, d) for p, d in points if start + width // 2 < p <= start + width] or \
            [(p, d) for p, d in points if start < p <= start + width]
        if fits:
            shallow = min(d for _, d in fits)
            cut = max(p for p, d in fits if d == shallow)
        else:
            cut = next((p for p, _ in points if p > start), len(text))
        pieces.append(text[start:cut].rstrip())
        start = cut
    return pieces + ([text[start:]] if start < len(text) else [])


#: the most lines one key figure may wrap over before the next figures are shown instead
KEY_LINES = 4


def key_figure_lines(rec, width=KEY_WIDTH):
    """The key figures of a record for the table, never cut: as many whole ``key=value``
    figures as fit in ``width`` (the preferred ones of :data:`KEY_FIGURES` first, joined by
    ", "); when the first does not fit, it alone, wrapped over at most :data:`KEY_LINES` lines
    at top-level operators (:func:`_break_expression`), or, when it cannot be broken so, the
    next figures that fit whole (its pieces if none does). A record with no figure shows:
    ``exact (δ = 0), no figures kept`` (or ``no figures kept``)."""
    items = _figure_items(rec.figures or {})
    if not items:
        return ["exact (δ = 0), no figures kept" if rec.delta == 0 else "no figures kept"]
    texts = [f"{key}={value}" for key, value in items]
    if len(texts[0]) > width:
        pieces = _break_expression(texts[0], width)
        if all(len(piece) <= width for piece in pieces) and len(pieces) <= KEY_LINES:
            return pieces
        # a figure with no break point in reach: the next ones that fit whole, else its pieces
        texts = [t for t in texts[1:] if len(t) <= width]
        if not texts:
            return pieces
    shown = [texts[0]]
    for text in texts[1:]:
        if len(", ".join(shown + [text])) > width:
            break
        shown.append(text)
    return [", ".join(shown)]


def key_figure(rec):
    """The key figures of a record on one line (:func:`key_figure_lines` joined)."""
    return " ".join(key_figure_lines(rec))


def reason_lines(rec, width=96):
    """An INCONCLUSIVE or READING row's reason: the first sentence of its note (the whole
    note when it has one sentence), wrapped at ``width``; a sentence longer than
    :data:`REASON_LINES` lines ends at its last clause boundary that fits, marked ``…``;
    [] for any other status."""
    if rec.status not in (Status.INCONCLUSIVE.value, Status.READING.value):
        return []
    note = " ".join((rec.note or "").split())
    if not note:
        return [f"reason: none recorded (laocheck verify --only {shlex.quote(rec.id)} --json - "
                "has the figures)"]
    first = note
    for i in range(len(note) - 2):
        if note[i] == "." and note[i + 1] == " " and note[i + 2].isupper():
            first = note[:i + 1]
            break
    lines = textwrap.wrap(f"reason: {first}", width, subsequent_indent="        ")
    if len(lines) <= REASON_LINES:
        return lines
    # a longer sentence ends at its last clause boundary ("; ", ": ", ", ", " — ") that fits
    for cut in sorted((i for i in range(len(first)) if first.startswith(("; ", ": ", ", ", " — "),
                                                                         i)), reverse=True):
        lines = textwrap.wrap(f"reason: {first[:cut]} … (the note in --json)", width,
                              subsequent_indent="        ")
        if len(lines) <= REASON_LINES:
            return lines
    return textwrap.wrap(f"reason: {first}", width, subsequent_indent="        ")


#: Most lines of an INCONCLUSIVE or READING row's reason in the table.
REASON_LINES = 3




#: A PASS whose ``detects`` factor is above this is printed "not refuted (detects ≥ F×)" (the
#: value of ``laocheck.checks._common.WEAK_FACTOR``, above which a check names its derivation
#: pair; a test holds them equal, and this module does not import that one at start-up).
WEAK_FACTOR = 2.0


def detects_text(factor):
    """A record's ``detects`` factor for a table: "1×" exact, "1.3×", "200×", "—" none.

    Rounded up (the printed factor is never below the recorded one, up to a relative 1e-12 of
    float representation: "detects ≥ F×" must not claim more power than the run has; "1×"
    stands for the factors below 1.0005): three significant digits below 10, a whole number
    below 10⁴, two significant digits in exponent form above."""
    if factor is None:
        return "—"
    factor = float(factor)
    if factor < 1.0005:
        return "1×"
    if factor < 10:
        return f"{_round_up(factor, 3):g}×"
    if factor < 1e4:
        return f"{math.ceil(factor * (1 - 1e-12)):d}×"
    return f"{_round_up(factor, 2):.1e}×"


def _round_up(value, digits):
    """``value`` rounded up to ``digits`` significant digits."""
    unit = 10.0 ** (math.floor(math.log10(value)) - digits + 1)
    return round(math.ceil(value / unit * (1 - 1e-12)) * unit, 12)


def status_text(rec):
    """The status as the table prints it: a PASS whose factor is above :data:`WEAK_FACTOR`
    reads "not refuted (detects ≥ F×)"; every other status as recorded."""
    if rec.status == Status.PASS.value and rec.detects is not None and \
            rec.detects > WEAK_FACTOR:
        return f"not refuted (detects ≥ {detects_text(rec.detects)})"
    return rec.status


def print_table(records, out=None):
    out = sys.stdout if out is None else out
    width = max([len(r.id) for r in records] + [2])
    swidth = max([len(status_text(r)) for r in records] + [12])
    out.write(f"{'id':<{width}}  {'status':<{swidth}}  {'detects':<8}  "
              f"{'key figure':<{KEY_WIDTH}}  citation\n")
    indent = " " * (width + 2 + swidth + 2 + 8 + 2)
    for r in records:
        figure, *more = key_figure_lines(r)
        out.write(f"{r.id:<{width}}  {status_text(r):<{swidth}}  {detects_text(r.detects):<8}  "
                  f"{figure:<{KEY_WIDTH}}  {r.citation}\n")
        for line in more + reason_lines(r):
            out.write(f"{indent}{line}\n")


def print_legend(out=None):
    """The status legend (:data:`STATUS_LEGEND`), printed under the table."""
    out = sys.stdout if out is None else out
    out.write("\nstatus legend:\n" + "\n".join(legend_lines()) + "\n")


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
    """The command that reruns the check of ``rec`` alone, with its seed and effort profile."""
    return (f"laocheck verify --only {shlex.quote(rec.id)} --seed {rec.seed} "
            f"--effort {rec.effort}")


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

            records = run_catalog(selected, args.seed, args.effort, args.jobs, advance,
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
    print_legend()
    rows = errata(records)
    print_errata(rows)
    if args.durations is not None:
        print_durations(records, args.durations)
    family = sum(r.delta for r in records)
    print(f"\n{len(records)} checks: " + ", ".join(f"{k} {v}" for k, v in counts.items())
          + f". seed {args.seed}, effort {args.effort.name}, "
          + (f"dask at {address}" if address else f"jobs {args.jobs}") + f", {wall:.1f} s. "
          f"Family-wise false-FAIL probability <= {family:.3g} (sum of the checks' deltas).")
    print_failures(records)
    if args.json is not None:
        doc = {"run": {"seed": args.seed, "effort": args.effort.name, "delta": DEFAULT_DELTA,
                       "family_wise_delta": family, "jobs": args.jobs,
                       "seconds": round(wall, 3), "counts": counts,
                       "provenance": provenance(seed=args.seed, effort=args.effort)},
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
    doc = run_witnesses_report(args.only, args.seed, args.effort, share=args.witness_share,
                               out=sys.stdout, progress=not args.no_progress)
    if args.json is not None:
        check_output_path("--json", args.json)
        doc["run"]["provenance"] = provenance(seed=args.seed, effort=args.effort)
        write_json_atomic(args.json, doc)
    return 1 if doc["run"]["survivors"] else 0
