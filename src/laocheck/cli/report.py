"""``laocheck report``: render the reports of TOML specs (the standard ones are installed
with laocheck: bounds, verification, rho).

    laocheck report [NAME ...] [--budget fast|full] [--seed N] [--jobs N] [--from verify.json]
                    [--out DIR] [--specs DIR]

Each report is written to ``DIR/<name>/`` (index.html, report.md, report.json, figures/) through
a temporary directory beside it, so an interrupted run leaves the previous report in place.
Exit status 0 on success, 2 on a usage error.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from ..checks import get
from ..exceptions import InvalidParameterError
from ..report import KINDS, SPECS_DIR, Context, build_report, find_specs, stderr_progress
from ._common import add_scheduler_option, progress as progress_line, reach_scheduler
from .verify import _jobs, _seed, run_catalog

__all__ = ["add_parser"]

EPILOG = """examples:
  laocheck report                          the three standard reports at the fast budget
  laocheck report bounds --budget full --jobs 2
  laocheck report verification --from verify.json   render a laocheck verify --json run
  laocheck report rho --out /tmp/reports
Open DIR/<name>/index.html in a browser (no network needed) or read DIR/<name>/report.md.
"""


def add_parser(subparsers):
    """Add the ``report`` subcommand (called by laocheck.cli)."""
    p = subparsers.add_parser(
        "report", help="render bound-against-empirical, verification and rho reports (HTML, "
        "Markdown, JSON, figures)",
        description="Render the reports whose TOML specs are in --specs (by default the "
        "standard specs installed with laocheck).", epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("names", nargs="*", metavar="NAME",
                   help="reports to render (spec file names without .toml). Default: all.")
    p.add_argument("--budget", default="fast",
                   help="a budget of the specs: fast (minutes) or full (many more runs); the "
                   "specs also define tiny (for tests). Default: fast.")
    p.add_argument("--seed", type=_seed, default=0, help="root seed. Default: 0.")
    p.add_argument("--jobs", type=_jobs, default=1,
                   help="parallel workers (joblib); results do not depend on it. Default: 1.")
    add_scheduler_option(p, "the reports' runs and checks")
    p.add_argument("--from", dest="from_json", metavar="PATH", default=None,
                   help="a `laocheck verify --json` file: the verification report renders it "
                   "instead of running the checks. Default: run them.")
    p.add_argument("--out", metavar="DIR", default="reports/out",
                   help="output directory (DIR/<name>/index.html, ...). Default: reports/out.")
    p.add_argument("--specs", metavar="DIR", default=None,
                   help="directory of report specs (*.toml). Default: the standard specs "
                   "installed with laocheck (bounds, verification, rho).")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress lines on stderr. Default: shown.")
    p.set_defaults(func=cmd_report)
    return p


def _runner(jobs, show, scheduler=None):
    """Catalog checks through ``laocheck verify``'s runner (joblib or Dask, a progress bar)."""
    def run_checks(ids, seed, budget):
        with progress_line("report: checks", len(ids), show) as bar:
            return run_catalog([get(i) for i in ids], seed, budget, jobs,
                               lambda rec, **_: bar.advance(rec.id), scheduler=scheduler)
    return run_checks


def cmd_report(args):
    try:
        specs = find_specs(args.specs or SPECS_DIR, KINDS, args.names or None)
        for spec in specs:                                    # every spec usable up front
            spec.check_settings(args.budget, KINDS[spec.kind].required)
        from_doc = None
        if args.from_json is not None:
            if not any(s.kind == "verification" for s in specs):
                raise InvalidParameterError(
                    "`--from` is only used by a verification report; none is selected.")
            try:
                with open(args.from_json, encoding="utf-8") as fh:
                    from_doc = json.load(fh)
            except (OSError, json.JSONDecodeError) as exc:
                raise InvalidParameterError(
                    f"`--from` must be a readable laocheck verify --json file; got "
                    f"{args.from_json!r} ({exc}).") from None
        out = Path(args.out)
        if out.exists() and not out.is_dir():
            raise InvalidParameterError(f"`--out` must be a directory; got the file {args.out!r}.")
    except InvalidParameterError as exc:
        sys.stderr.write(f"laocheck report: error: {exc}\n")
        return 2
    scheduler = reach_scheduler(args.scheduler)
    for spec in specs:
        start = time.perf_counter()
        progress = (lambda text: None) if args.no_progress else stderr_progress(spec.name)
        ctx = Context(seed=args.seed, budget=args.budget, jobs=args.jobs, progress=progress,
                      scheduler=scheduler,
                      run_checks=_runner(args.jobs, not args.no_progress, scheduler))
        built = build_report(spec, out, budget=args.budget, ctx=ctx,
                             from_doc=from_doc if spec.kind == "verification" else None)
        print(f"{spec.name}: {built.path / 'index.html'} ({len(built.figures)} figures, "
              f"{time.perf_counter() - start:.1f} s)")
    return 0
