"""``laocheck bounds``: every theorem's bound beside the empirical excess risk, and the ρ table.

    laocheck bounds [--d D --k K --m M --B B --R R --alpha A --seed S --json PATH]
    laocheck bounds --rho [--data NAME_OR_PATH ...] [--json PATH]

Every argument is checked before any work (exit status 2 and one line naming the allowed
range); a progress line on stderr counts the theorems (the runs take minutes).

Sizes are bounded so that a typo cannot start a run that allocates or computes for days:
``--d`` <= :data:`MAX_D` (10^6: a row of the sample and the learner's iterate are O(d)),
``--m`` <= :data:`MAX_M` (10^9), ``--R`` <= :data:`MAX_R` (10^5), and the examples' entries
drawn per theorem, R·m·d (d = 64 for ``--dist digits``), <= :data:`MAX_WORK` (10^11; the
default run draws 10^7, and 10^11 takes hours on two cores).
"""

from __future__ import annotations

import argparse
import math
import os

from .._files import open_regular
from .._io import check_output_path, write_json_atomic
from .._validation import check_memory
from .._provenance import provenance
from ..exceptions import InvalidParameterError
from ..stats import DEFAULT_DELTA
from ._common import add_scheduler_option, parse_seed, progress, reach_scheduler
from .verify import MAX_JOBS

__all__ = ["add_parser", "MAX_D", "MAX_M", "MAX_R", "MAX_WORK"]

#: Largest --d: a row of the sample, the moments and the iterate are O(d) doubles (8 MB at 10^6)
MAX_D = 10**6
#: Largest --m (examples per run; drawn in blocks, so memory stays O(block·d))
MAX_M = 10**9
#: Largest --R (independent runs per theorem)
MAX_R = 10**5
#: --B's range: within it every theorem's step size (about 1/B² for HK12 Thm 3.4) stays in the
#: learners' range 1e-100..1e100, so every theorem runs
MIN_B, MAX_B = 1e-40, 1e40
#: Smallest --alpha: KS15 Sec. 5.1's E[x_i] ∝ i^alpha stays a normal double at i = 10^6 (-50)
MIN_ALPHA = -50.0
#: Largest R·m·d: the entries of the examples drawn per theorem (default run: 50·2000·100 = 10^7)
MAX_WORK = 10**11

EPILOG = """examples:
  laocheck bounds                         bounds and empirical excess risk at d=100, k=4, m=2000, B=1
  laocheck bounds --d 500 --m 5000 --json out.json
  laocheck bounds --dist hard             the instances where the bounds are tightest
  laocheck bounds --dist digits           real data (scikit-learn digits, 3 vs 5), exact risk on it
  laocheck bounds --rho                   rho_ridge, rho_lasso of KS15 Sec. 5.1 (d = 500) vs the paper
  laocheck bounds --rho --data digits --data X.npy
legend: ratio = empirical mean / bound; [low, high] is a confidence interval at delta
(betting, Waudby-Smith and Ramdas 2024) on the proven per-run range; VIOLATION when low > bound.
"""

def _print_bounds(rows, args):
    dtext = "64 (digits)" if args.dist == "digits" else args.d
    print(f"laocheck bounds: d={dtext} k={args.k} m={args.m} B={args.B} R={args.R} "
          f"dist={args.dist} alpha={args.alpha} seed={args.seed} delta={args.delta}")
    print(f"{'theorem':<14} {'bound':>10} {'excess mean':>12} {'interval':>24} {'ratio':>9}  status")
    for r in rows:
        if r["status"] == "not run":
            print(f"{r['theorem']:<14} {'-':>10} {'-':>12} {'-':>24} {'-':>9}  not run: {r['reason']}")
            continue
        iv = f"[{r['excess_low']:.3g}, {r['excess_high']:.3g}]"
        print(f"{r['theorem']:<14} {r['bound']:>10.4g} {r['excess_mean']:>12.4g} {iv:>24} "
              f"{r['ratio']:>9.3g}  {r['status']}")
    print("\nlegend: ratio = mean excess / bound; interval at delta (betting CI on the proven "
          "per-run range); VIOLATION when the interval's low end exceeds the bound.")


def _print_rho(rows, extra):
    print(f"{'scenario':<8} {'alpha':>6} {'exact rho':>12} {'printed':>8}  agrees (rounded / truncated)")
    for r in rows:
        pr = r["printed"] or "-"
        ag = "-" if r["agrees"] is None else f"{'yes' if r['agrees'] else 'NO'} / " \
            f"{'yes' if r['agrees_truncated'] else 'no'}"
        print(f"{r['scenario']:<8} {r['alpha']:>6g} {r['exact']:>12.6g} {pr:>8}  {ag}")
    for r in rows:
        if r["explanation"]:
            print(f"  note: {r['explanation']}")
    for e in extra:
        print(f"{e['data']}: n={e['n']} d={e['d']} rho_ridge={e['rho_ridge']:.6g} "
              f"rho_lasso={e['rho_lasso']:.6g}")
    print("\nrho_ridge = ||E x^2||_{1/2}/(d E||x^2||_1) (KS15 eq. (11)), rho_lasso = "
          "||E x^2||_1/(d ||E x^2||_inf) (eq. (12)); exact from the moments of KS15 Sec. 5.1 (d = 500).")


def _write_json(path, payload, args):
    doc = {"provenance": provenance(seed=args.seed), **payload}
    write_json_atomic(path, doc, indent=2)


def _int_at_least(flag, low, high=None):
    rule = f"an integer >= {low}" + ("" if high is None else f" and <= {high}")

    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"`{flag}` must be {rule}; got {text!r}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"`{flag}` must be {rule}; got {value}")
        return value
    return parse


def _real(flag, rule, accept):
    def parse(text):
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and accept(value)):
            raise argparse.ArgumentTypeError(f"`{flag}` must be {rule}; got {text!r}")
        return value
    return parse


def _dataset_rho(name):
    # start-up: the experiments (scikit-learn, scipy.stats) load only when the command runs
    from ..experiments.rho import rho_of_dataset
    try:
        return rho_of_dataset(name)
    except InvalidParameterError:         # already one line naming the file (a bad .npy)
        raise
    except (OSError, ValueError) as exc:  # unreadable, not a numeric matrix
        raise InvalidParameterError(
            f"`--data` {name!r} could not be read as a matrix ({type(exc).__name__}: {exc})."
        ) from None


def _cmd(args):
    # start-up: the experiments (scikit-learn, scipy.stats) load only when the command runs
    from ..experiments.rho import rho_table
    from ..experiments.theorems import THEOREMS, run_bounds  # start-up, as above
    if args.json is not None and args.json != "-":
        check_output_path("--json", args.json)
    if args.dist != "digits" and not args.rho and args.k > args.d:
        raise InvalidParameterError(
            f"`--k` must satisfy 1 <= k <= d; got k={args.k} with d={args.d}.")
    d = 64 if args.dist == "digits" else args.d
    if not args.rho and args.R * args.m * d > MAX_WORK:
        raise InvalidParameterError(
            f"`--R`, `--m` and `--d` must satisfy R·m·d <= {MAX_WORK:.0e} (the entries of the "
            f"examples drawn per theorem); got R={args.R}, m={args.m}, d={d}: "
            f"R·m·d={args.R * args.m * d:.3g}.")
    for name in args.data or []:
        if name != "digits" and not (name.endswith((".npy", ".csv", ".txt"))
                                     and os.path.isfile(name)):
            raise InvalidParameterError(
                f"`--data` must be 'digits' or an existing .npy/.csv/.txt file; got {name!r}.")
        if name != "digits":       # a matrix in memory takes about 4 times its text or more
            with open_regular(name, what="`--data`") as fh:
                check_memory("--data", name, 4 * os.fstat(fh.fileno()).st_size)
    if args.rho:
        extra = [_dataset_rho(name) for name in (args.data or [])]
        rows = rho_table()
        if args.json != "-":
            _print_rho(rows, extra)
        if args.json is not None:
            _write_json(args.json, {"rho": rows, "datasets": extra}, args)
        return 0
    scheduler = reach_scheduler(args.scheduler)
    with progress("bounds", len(THEOREMS), not args.no_progress) as bar:
        started = []

        def advance(theorem):  # called before each theorem: count the previous one done
            if started:
                bar.advance(started[-1])
            started.append(theorem)

        rows = run_bounds(d=args.d, k=args.k, m=args.m, B=args.B, R=args.R, alpha=args.alpha,
                          seed=args.seed, delta=args.delta, n_jobs=args.jobs, kind=args.dist,
                          progress=advance, scheduler=scheduler)
        if started:
            bar.advance(started[-1])
    ran = [r for r in rows if r["status"] != "not run"]
    reasons = {r.get("reason", "") for r in rows if r["status"] == "not run"}
    if not ran and len(reasons) > 1:          # every theorem refused these arguments
        first = next(r["reason"] for r in rows if r["status"] == "not run"
                     and "no explicit constant" not in r.get("reason", ""))
        raise InvalidParameterError(f"no theorem can run with these arguments: {first}")
    if args.json != "-":
        _print_bounds(rows, args)
    if args.json is not None:
        _write_json(args.json, {"parameters": {k: getattr(args, k) for k in
                                               ("d", "k", "m", "B", "R", "alpha", "seed", "delta",
                                                "dist")},
                                "theorems": rows}, args)
    return 1 if any(r.get("status") == "VIOLATION" for r in rows) else 0


def add_parser(subparsers):
    """Add the ``bounds`` subcommand (called by laocheck.cli)."""
    p = subparsers.add_parser(
        "bounds", help="each theorem's bound beside the empirical excess risk; the rho table",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--d", type=_int_at_least("--d", 1, MAX_D), default=100,
                   help=f"dimension, 1 to {MAX_D}. Default: 100.")
    p.add_argument("--k", type=_int_at_least("--k", 1), default=4,
                   help="attributes per example (k + 1 observed), 1 <= k <= d. Default: 4.")
    p.add_argument("--m", type=_int_at_least("--m", 2, MAX_M), default=2000,
                   help=f"examples per run, 2 to {MAX_M} (the two-phase learners need one "
                   "example per phase). Default: 2000.")
    p.add_argument("--B", type=_real("--B", f"a number with {MIN_B:g} <= B <= {MAX_B:g}",
                                     lambda v: MIN_B <= v <= MAX_B),
                   default=1.0, help=f"norm bound (and label bound), {MIN_B:g} to {MAX_B:g} "
                   "(within it every theorem's step size is in the learners' range). Default: 1.0.")
    p.add_argument("--R", type=_int_at_least("--R", 1, MAX_R), default=50,
                   help=f"independent runs per theorem, 1 to {MAX_R}; R·m·d <= {MAX_WORK:.0e} "
                        f"(d = 64 for --dist digits). Default: 50.")
    p.add_argument("--alpha", type=_real("--alpha", f"a number with {MIN_ALPHA:g} <= alpha <= 0",
                                         lambda v: MIN_ALPHA <= v <= 0),
                   default=-1.0, help=f"power-law exponent of KS15 Sec. 5.1's data, {MIN_ALPHA:g} "
                   "to 0 (E[x_i] proportional to i^alpha). Default: -1.")
    p.add_argument("--dist", choices=("powerlaw", "hard", "digits"), default="powerlaw",
                   help="powerlaw: KS15 Sec. 5.1's data; hard: HK12 Thm B.1's instance (ridge), "
                        "correlated signs (lasso), CB11 Thm 1's P_j (AER); digits: scikit-learn's "
                        "digits 3 vs 5 as an empirical distribution (d = 64, --d ignored). "
                        "Default: powerlaw.")
    p.add_argument("--seed", type=parse_seed, default=0,
                   help="root seed, >= 0. Default: 0.")
    p.add_argument("--delta", type=_real("--delta", "a number with 0 < delta < 1",
                                         lambda v: 0 < v < 1), default=DEFAULT_DELTA,
                   help=f"interval miscoverage, 0 < delta < 1. Default: {DEFAULT_DELTA:g}.")
    p.add_argument("--jobs", type=_int_at_least("--jobs", 1, MAX_JOBS), default=1,
                   help=f"joblib workers, 1 to {MAX_JOBS} (same numbers for any). Default: 1.")
    add_scheduler_option(p, "the theorems' runs")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress line on stderr. Default: shown.")
    p.add_argument("--rho", action="store_true",
                   help="print the rho table of KS15 Sec. 5.1 beside the paper's values.")
    p.add_argument("--data", action="append", metavar="NAME_OR_PATH",
                   help="with --rho: also a data set ('digits' or a .npy/.csv/.txt matrix). Default: none.")
    p.add_argument("--json", metavar="PATH", default=None,
                   help="also write the results as JSON to PATH ('-' for stdout only). Default: none.")
    p.set_defaults(func=_cmd)
    return p
