"""Start-up of the ``laocheck`` command: paired wall-clock times against ``import numpy``.

Each command runs in a fresh interpreter (``subprocess``, its output discarded), alternating
with the baseline ``python -c "import numpy"``: ``--repeats`` pairs per command, the baseline
first in odd pairs and second in even ones, so that a change of machine load hits both. Per
command: the median of the per-pair ratios (command / baseline) and of the per-pair differences
(command − baseline, seconds), and the median wall time of each. Then one more run under
``python -X importtime`` lists which heavy packages the command imported (sympy, matplotlib,
pandas, dask, distributed, scipy.stats, sklearn, joblib, rich).

Issue 35's acceptance: ``laocheck --help`` within 0.3 s of ``import numpy`` (the difference);
``laocheck list`` (the whole catalog's registrations) is timed beside it.
The commands are the ``laocheck`` script beside this Python (what a user types), else
``python -m laocheck``; speed is measured here, never asserted in a test.

``--before SRC`` measures a change: each command also runs with ``PYTHONPATH=SRC`` (another
source tree of laocheck, say the main branch's ``src``) inside the same rounds, the three runs of
a round (baseline, this tree, SRC) in rotating order, so that both versions see the same
machine load; per command it adds SRC's medians and the median of the per-round ratios and
differences this tree / SRC.

Usage::

    python benchmarks/bench_startup.py                        # every command, 7 pairs each
    python benchmarks/bench_startup.py --repeats 11 --json startup.json
    python benchmarks/bench_startup.py --only "--help" list   # commands containing a word
    python benchmarks/bench_startup.py --only list --before ../main/src   # before / after

One core: run nothing else meanwhile (the JSON keeps the load average before and after).
"""
import argparse
import datetime
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

BASELINE = ("python -c 'import numpy'", [sys.executable, "-c", "import numpy"])

#: the command-line arguments of each measured command (after the laocheck script)
COMMANDS = (["--help"], ["list"], ["verify", "--help"], ["check", "--help"],
            ["report", "--help"], ["bounds", "--help"], ["errata", "--help"],
            ["baseline", "--help"])

#: packages laocheck's start-up should not need (the first five are forbidden for --help)
HEAVY = ("sympy", "matplotlib", "pandas", "dask", "distributed", "scipy.stats", "sklearn",
         "joblib", "rich")


def _laocheck():
    """The ``laocheck`` console script beside this interpreter, else ``python -m laocheck``."""
    script = Path(sys.executable).with_name("laocheck")
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script)], str(script)
    found = shutil.which("laocheck")
    if found and Path(found).parent == Path(sys.executable).parent:
        return [found], found
    return [sys.executable, "-m", "laocheck"], "python -m laocheck"


def _env(src):
    """The environment of a run: this one, or with ``PYTHONPATH`` = ``src`` (``--before``)."""
    if src is None:
        return None
    return {**os.environ, "PYTHONPATH": os.fspath(src)}


def _wall(argv, src=None):
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
                   env=_env(src))
    return time.perf_counter() - start


def _imported(argv, src=None):
    """The packages of :data:`HEAVY` that the command imports (one ``-X importtime`` run)."""
    if argv[0] != sys.executable:                         # the script: run it through python
        argv = [sys.executable, "-m", "laocheck", *argv[1:]]
    out = subprocess.run([argv[0], "-X", "importtime", *argv[1:]], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True, check=True, env=_env(src)).stderr
    names = {m.group(1) for m in re.finditer(r"^import time:\s+\d+ \|\s+\d+ \|\s*(\S+)$", out,
                                             re.MULTILINE)}
    return [h for h in HEAVY if any(n == h or n.startswith(h + ".") for n in names)]


def _medians(cmd, base):
    return {"ratio_median": statistics.median(c / b for c, b in zip(cmd, base)),
            "difference_median": statistics.median(c - b for c, b in zip(cmd, base))}


def paired(name, argv, repeats, before=None):
    """``repeats`` rounds of (baseline, command) in alternating order, or of (baseline,
    command, command under ``PYTHONPATH=before``) in rotating order; medians of the per-round
    ratios and differences."""
    runs = {"baseline": lambda: _wall(BASELINE[1]), "command": lambda: _wall(argv)}
    if before is not None:
        runs["before"] = lambda: _wall(argv, before)
    for run in runs.values():                             # warm the file cache, not counted
        run()
    names = list(runs)
    walls = {n: [] for n in names}
    for i in range(repeats):
        shift = i % len(names)
        order = names[shift:] + names[:shift] if before is not None else \
            names[::-1 if i % 2 else 1]
        for n in order:
            walls[n].append(runs[n]())
    cmd, base = walls["command"], walls["baseline"]
    row = {"command": name, "repeats": repeats, **_medians(cmd, base),
           "wall_median": statistics.median(cmd), "baseline_wall_median": statistics.median(base),
           "wall": cmd, "baseline_wall": base, "imports": _imported(argv)}
    line = (f"{name:32s} {row['wall_median']:7.3f} {row['baseline_wall_median']:9.3f} "
            f"{row['ratio_median']:6.2f} {row['difference_median']:+7.3f}")
    if before is not None:
        old = walls["before"]
        row["before"] = {"src": os.fspath(before), **_medians(old, base),
                         "wall_median": statistics.median(old), "wall": old,
                         "imports": _imported(argv, before),
                         "after_over_before": _medians(cmd, old)}
        b = row["before"]
        line += (f"   {b['wall_median']:7.3f} {b['ratio_median']:6.2f} "
                 f"{b['difference_median']:+7.3f}  {b['after_over_before']['ratio_median']:6.2f} "
                 f"{b['after_over_before']['difference_median']:+7.3f}")
    print(f"{line}  {' '.join(row['imports']) or '-'}", flush=True)
    return row


def _cpu_model():
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8")
    except OSError:
        return None
    models = sorted(set(re.findall(r"^model name\s*:\s*(.+)$", text, re.MULTILINE)))
    return "; ".join(models) or None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7,
                        help="pairs (baseline, command) per command. Default: 7.")
    parser.add_argument("--only", nargs="+", metavar="WORD", default=None,
                        help="only the commands whose text contains one of the WORDs "
                        "('import' selects python -c 'import laocheck'). Default: all.")
    parser.add_argument("--json", metavar="PATH", default=None,
                        help="also write the results (machine, date, commit) as JSON to PATH.")
    parser.add_argument("--before", metavar="SRC", default=None,
                        help="also run each command with PYTHONPATH=SRC (another laocheck source "
                        "tree, e.g. the main branch's src) in the same rounds, and report "
                        "this tree / SRC. Default: none.")
    args = parser.parse_args()
    if args.before is not None and not (Path(args.before) / "laocheck" / "__init__.py").is_file():
        parser.error(f"--before {args.before!r}: no laocheck package there (give a src directory)")
    laocheck, shown = _laocheck()
    commands = [("python -c 'import laocheck'", [sys.executable, "-c", "import laocheck"])]
    commands += [(" ".join(["laocheck", *c]), laocheck + c) for c in COMMANDS]
    if args.only:
        commands = [c for c in commands if any(w in c[0] for w in args.only)]
    load_before = os.getloadavg()
    print(f"laocheck = {shown}; baseline {BASELINE[0]}; {args.repeats} alternating rounds; "
          f"load average {load_before[0]:.2f}")
    header = f"{'command':32s} {'wall':>7s} {'baseline':>9s} {'ratio':>6s} {'diff':>7s}"
    if args.before is not None:
        print(f"before: PYTHONPATH={args.before} (wall, ratio and diff against the baseline; "
              "then this tree / before: ratio and diff)")
        header += f"   {'before':>7s} {'ratio':>6s} {'diff':>7s}  {'a/b':>6s} {'a-b':>7s}"
    print(f"{header}  heavy imports")
    rows = [paired(name, argv, args.repeats, args.before) for name, argv in commands]
    if args.json:
        import laocheck as package  # the package under test: its commit and library versions
        from laocheck._provenance import provenance
        doc = {"benchmark": "startup", "date": datetime.datetime.now(datetime.timezone.utc)
               .isoformat(timespec="seconds"), "laocheck_command": shown,
               "laocheck_path": str(Path(package.__file__).parent), "baseline": BASELINE[0],
               "cpu_model": _cpu_model(), "load_average_before": load_before,
               "load_average_after": os.getloadavg(), "rows": rows,
               "provenance": provenance(command=" ".join(sys.argv))}
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(doc, fh, indent=2)
            fh.write("\n")


if __name__ == "__main__":
    main()
