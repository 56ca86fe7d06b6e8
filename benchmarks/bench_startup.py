"""Start-up of the ``laocheck`` command: paired wall-clock times against ``import numpy``.

Each command runs in a fresh interpreter (``subprocess``, its output discarded), alternating
with the baseline ``python -c "import numpy"``: ``--repeats`` pairs per command, the baseline
first in odd pairs and second in even ones, so that a change of machine load hits both. Per
command: the median of the per-pair ratios (command / baseline) and of the per-pair differences
(command − baseline, seconds), and the median wall time of each. Then one more run under
``python -X importtime`` lists which heavy packages the command imported (sympy, matplotlib,
pandas, dask, distributed, scipy.stats, sklearn, joblib, rich).

Issue 35's acceptance: ``laocheck --help`` within 0.3 s of ``import numpy`` (the difference).
The commands are the ``laocheck`` script beside this Python (what a user types), else
``python -m laocheck``; speed is measured here, never asserted in a test.

Usage::

    python benchmarks/bench_startup.py                        # every command, 7 pairs each
    python benchmarks/bench_startup.py --repeats 11 --json startup.json
    python benchmarks/bench_startup.py --only "--help" list   # commands containing a word

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


def _wall(argv):
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def _imported(argv):
    """The packages of :data:`HEAVY` that the command imports (one ``-X importtime`` run)."""
    if argv[0] != sys.executable:                         # the script: run it through python
        argv = [sys.executable, "-m", "laocheck", *argv[1:]]
    out = subprocess.run([argv[0], "-X", "importtime", *argv[1:]], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True, check=True).stderr
    names = {m.group(1) for m in re.finditer(r"^import time:\s+\d+ \|\s+\d+ \|\s*(\S+)$", out,
                                             re.MULTILINE)}
    return [h for h in HEAVY if any(n == h or n.startswith(h + ".") for n in names)]


def paired(name, argv, repeats):
    """``repeats`` alternating (baseline, command) pairs; medians of ratios and differences."""
    _wall(argv), _wall(BASELINE[1])                       # warm the file cache, not counted
    base, cmd = [], []
    for i in range(repeats):
        if i % 2 == 0:
            base.append(_wall(BASELINE[1]))
            cmd.append(_wall(argv))
        else:
            cmd.append(_wall(argv))
            base.append(_wall(BASELINE[1]))
    row = {"command": name, "repeats": repeats,
           "ratio_median": statistics.median(c / b for c, b in zip(cmd, base)),
           "difference_median": statistics.median(c - b for c, b in zip(cmd, base)),
           "wall_median": statistics.median(cmd), "baseline_wall_median": statistics.median(base),
           "wall": cmd, "baseline_wall": base, "imports": _imported(argv)}
    print(f"{name:32s} {row['wall_median']:7.3f} {row['baseline_wall_median']:9.3f} "
          f"{row['ratio_median']:6.2f} {row['difference_median']:+7.3f}  "
          f"{' '.join(row['imports']) or '-'}", flush=True)
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
    args = parser.parse_args()
    laocheck, shown = _laocheck()
    commands = [("python -c 'import laocheck'", [sys.executable, "-c", "import laocheck"])]
    commands += [(" ".join(["laocheck", *c]), laocheck + c) for c in COMMANDS]
    if args.only:
        commands = [c for c in commands if any(w in c[0] for w in args.only)]
    load_before = os.getloadavg()
    print(f"laocheck = {shown}; baseline {BASELINE[0]}; {args.repeats} alternating pairs; "
          f"load average {load_before[0]:.2f}")
    print(f"{'command':32s} {'wall':>7s} {'baseline':>9s} {'ratio':>6s} {'diff':>7s}  "
          "heavy imports")
    rows = [paired(name, argv, args.repeats) for name, argv in commands]
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
