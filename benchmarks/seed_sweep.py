"""The catalog's verdicts at many seeds: every check's status against its declared one.

Issue 51 asks every check's verdict, and its witnesses' detection, unchanged at seed 0 and 20
other seeds. For each seed this runs ``laocheck verify --seed S --effort EFFORT --jobs JOBS
--json TMP`` in a fresh interpreter and keeps, per seed: the number of checks, the count per
status, every check whose status differs from the status it declares (``expected`` in the
record: the registry's), the CPU seconds (the checks' own ``cpu_seconds`` summed, and the
verify process's CPU time from ``resource``) and the wall time. With ``--witnesses`` it also
runs ``laocheck verify --witnesses`` at each seed (the mutation witnesses of
``laocheck.checks._witness``; serial, all of them unless ``--witness-share``) and keeps the
witnesses detected, the survivors, and the survivors not listed as known in
``tests/checks/witness_survivors.txt``.

The JSON written by ``--json OUT`` is ``{"meta": {...}, "rows": [...]}`` as the other benchmarks'
(``benchmarks/_results.py``: date, commit, machine, load average), one row per seed, with the
totals in the meta (``all_as_declared``, ``differences``: every (seed, check, status,
declared) that differs). A status different from the declared one at any seed is a finding to
report, never a number to average away.

Usage::

    python benchmarks/seed_sweep.py --seeds 1-20 --json benchmarks/results/seeds_fast.json
    python benchmarks/seed_sweep.py --seeds 1,2,3 --effort full --json seeds_full.json
    python benchmarks/seed_sweep.py --seeds 1-3 --witnesses --witness-share 0 --json w.json
    python benchmarks/seed_sweep.py --seeds 0-20 --only 'KS15.Lemma4.8.*' --detects --json l48.json
    python benchmarks/seed_sweep.py --seeds 0-20 --only 'KS15.Thm3.1.proof.*' --witnesses --pairs \
        --json t31.json
    python benchmarks/seed_sweep.py --from-json /tmp/fast11.json /tmp/fast12.json --json s.json

``--from-json`` summarises existing ``laocheck verify --json`` (or ``--witnesses --json``) files
instead of running them (their seed and budget are read from the files), or merges earlier
summaries of this script; the rows say which.
Exit status 1 when a check's status differs from its declared one (or a witness outside the
known survivors survives), else 0.
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _results  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
KNOWN_SURVIVORS = ROOT / "tests" / "checks" / "witness_survivors.txt"
STATUSES = ("PASS", "FAIL", "ERRATUM", "INCONCLUSIVE", "READING", "ERROR")


def parse_seeds(text):
    """``"1-3,7"`` -> ``[1, 2, 3, 7]`` (ranges inclusive, each seed once, in order)."""
    out = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        lo, _, hi = part.partition("-")
        if not lo.isdigit() or (hi and not hi.isdigit()):
            raise argparse.ArgumentTypeError(f"`--seeds` {text!r}: expected e.g. 1-20 or 1,2,5")
        out += range(int(lo), int(hi or lo) + 1)
    if not out:
        raise argparse.ArgumentTypeError(f"`--seeds` {text!r}: no seed")
    return list(dict.fromkeys(out))


def _child_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_verify(seed, budget, jobs, witnesses=False, share=None, only=()):
    """``(document, wall s, CPU s of the process, exit code)`` of one ``laocheck verify``."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "verify.json"
        command = [sys.executable, "-m", "laocheck", "verify", "--effort", budget, "--seed",
                   str(seed), "--no-progress", "--json", str(out)]
        for pattern in only:
            command += ["--only", pattern]
        if witnesses:
            command += ["--witnesses"] + ([] if share is None else ["--witness-share",
                                                                    str(share)])
        else:
            command += ["--jobs", str(jobs)]
        cpu, start = _child_cpu(), time.perf_counter()
        proc = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True, check=False)
        wall, cpu = time.perf_counter() - start, _child_cpu() - cpu
        if not out.exists():
            sys.exit(f"{' '.join(command)} exited {proc.returncode} without its JSON:\n"
                     f"{proc.stderr}")
        return json.loads(out.read_text()), wall, cpu, proc.returncode


def summarise_verify(doc, wall=None, cpu=None, returncode=None, source=None, detects=False):
    """One row: a ``laocheck verify --json`` document's counts and its differences (and, with
    ``detects``, every check's detected factor)."""
    run, records = doc["run"], doc["checks"]
    counts = Counter(r["status"] for r in records)
    differ = [{"id": r["id"], "status": r["status"], "declared": r.get("expected"),
               "figures": r.get("figures"), "note": r.get("note")}
              for r in records if r["status"] != r.get("expected")]
    return {"seed": run["seed"], "budget": run.get("effort", run.get("budget")), "jobs": run.get("jobs"),
            "checks": len(records), **{s: counts.get(s, 0) for s in STATUSES},
            "not_as_declared": len(differ), "differences": differ,
            "cpu_seconds_checks": round(sum(r.get("cpu_seconds") or 0.0 for r in records), 1),
            "cpu_seconds_process": None if cpu is None else round(cpu, 1),
            "wall_seconds": round(wall if wall is not None else run.get("seconds", 0.0), 1),
            "exit_code": returncode, "commit": run.get("provenance", {}).get("commit"),
            "source": source or "run here",
            **({"detects": {r["id"]: r.get("detects") for r in records}} if detects else {})}


def known_survivors():
    return {line.split("#")[0].strip() for line in KNOWN_SURVIVORS.read_text().splitlines()
            if line.split("#")[0].strip()}


def summarise_witnesses(doc, wall=None, cpu=None, returncode=None, source=None, pairs=False):
    """One row: a ``laocheck verify --witnesses --json`` document's detections (with ``pairs``,
    every ``"<check> <witness>"`` with whether it was detected)."""
    run = doc["run"]
    alive = [f"{w['id']} {w['witness']}" for w in doc["witnesses"] if not w["killed"]]
    known = known_survivors()
    return {**({"pairs": {f"{w['id']} {w['witness']}": bool(w["killed"])
                          for w in doc["witnesses"]}} if pairs else {}),
            "seed": run["seed"], "budget": run.get("effort", run.get("budget")),
            "share": run.get("share"),
            "witnesses": run["witnesses"], "detected": run["killed"],
            "survivors": len(alive), "new_survivors": sorted(set(alive) - known),
            "known_survivors_detected": sorted(p for p in known if p not in alive and any(
                f"{w['id']} {w['witness']}" == p for w in doc["witnesses"])),
            "checks_detecting_none": run.get("checks_detecting_none", []),
            "cpu_seconds_process": None if cpu is None else round(cpu, 1),
            "wall_seconds": round(wall if wall is not None else run.get("seconds", 0.0), 1),
            "exit_code": returncode, "commit": run.get("provenance", {}).get("commit"),
            "source": source or "run here"}


def detection_table(witness_rows):
    """``{"<check> <witness>": "DD.D"}``: per pair, one character per seed in increasing order
    ("D" detected, "." survived, "?" not run at that seed), from rows kept with ``pairs``."""
    rows = sorted((w for w in witness_rows if "pairs" in w), key=lambda w: w["seed"])
    names = sorted({p for w in rows for p in w["pairs"]})
    return {p: "".join({True: "D", False: ".", None: "?"}[w["pairs"].get(p)] for w in rows)
            for p in names}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=parse_seeds, default=parse_seeds("1-20"),
                        help="seeds to run: ranges and lists, e.g. 1-20 or 0,5,7 "
                        "(default: 1-20)")
    parser.add_argument("--effort", "--budget", dest="budget", choices=("fast", "full"),
                        default="fast", help="the effort profile (--budget: its name before 0.1)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="workers of each verify (results do not depend on it; default 1)")
    parser.add_argument("--only", action="append", default=[], metavar="GLOB",
                        help="run only the checks matching GLOB (repeatable; default: all)")
    parser.add_argument("--witnesses", action="store_true",
                        help="also run the mutation witnesses at each seed (serial)")
    parser.add_argument("--witness-share", type=int, default=None, metavar="DAY",
                        help="with --witnesses: only the share DAY mod 7 of them")
    parser.add_argument("--no-verify", action="store_true",
                        help="with --witnesses: run only the witnesses")
    parser.add_argument("--from-json", type=Path, nargs="+", default=None, metavar="PATH",
                        help="summarise these `laocheck verify --json` files (verify or "
                        "--witnesses runs) instead of running any")
    parser.add_argument("--detects", action="store_true",
                        help="keep every check's detected factor in its seed's row (for a few "
                        "checks: --only)")
    parser.add_argument("--pairs", action="store_true",
                        help="with --witnesses: keep every (check, witness) pair's detection in "
                        "its seed's row and a table of them over the seeds in the meta "
                        "(\"D\" detected, \".\" survived, one character per seed; for a few "
                        "checks: --only)")
    parser.add_argument("--note", default=None,
                        help="a sentence kept in the summary's meta (what the runs were)")
    parser.add_argument("--json", type=Path, default=None, metavar="OUT",
                        help="write the summary JSON here")
    args = parser.parse_args(argv)

    rows, witness_rows = [], []
    if args.from_json is not None:
        for path in args.from_json:
            doc = json.loads(path.read_text())
            if "rows" in doc and doc.get("meta", {}).get("benchmark") == "seed_sweep.py":
                # an earlier summary of this script: its rows as they are
                rows += [{**r, "source": r.get("source", path.name)} for r in doc["rows"]]
                witness_rows += doc["meta"].get("witness_runs") or []
                continue
            if "run" not in doc:
                sys.exit(f"{path}: not the JSON of `laocheck verify --json` (no run)")
            if "witnesses" in doc:
                witness_rows.append(summarise_witnesses(doc, source=path.name,
                                                        pairs=args.pairs))
            else:
                rows.append(summarise_verify(doc, source=path.name, detects=args.detects))
    else:
        for seed in args.seeds:
            if not args.no_verify:
                rows.append(summarise_verify(*run_verify(seed, args.budget, args.jobs,
                                                         only=args.only),
                                             detects=args.detects))
                r = rows[-1]
                print(f"seed {seed} {args.budget}: {r['checks']} checks, "
                      + ", ".join(f"{s} {r[s]}" for s in STATUSES if r[s])
                      + f"; {len(r['differences'])} not as declared; "
                      f"{r['cpu_seconds_process']} CPU s, {r['wall_seconds']} s wall",
                      flush=True)
            if args.witnesses:
                witness_rows.append(summarise_witnesses(*run_verify(
                    seed, args.budget, args.jobs, witnesses=True, share=args.witness_share,
                    only=args.only), pairs=args.pairs))
                w = witness_rows[-1]
                print(f"seed {seed} witnesses: {w['detected']} of {w['witnesses']} detected, "
                      f"{w['survivors']} survive ({len(w['new_survivors'])} not known); "
                      f"{w['cpu_seconds_process']} CPU s", flush=True)

    differences = [{"seed": r["seed"], "budget": r["budget"], **{k: d[k] for k in
                    ("id", "status", "declared")}} for r in rows for d in r["differences"]]
    new_survivors = [{"seed": w["seed"], "pair": p} for w in witness_rows
                     for p in w["new_survivors"]]
    for d in differences:
        print(f"NOT AS DECLARED  seed {d['seed']} ({d['budget']}): {d['id']} {d['status']} "
              f"(declared {d['declared']})")
    for s in new_survivors:
        print(f"NEW SURVIVOR  seed {s['seed']}: {s['pair']}")
    print(f"{len(rows)} verify runs, {len(witness_rows)} witness runs: "
          + ("every check at its declared status" if not differences else
             f"{len(differences)} statuses not as declared")
          + ("" if not witness_rows else
             f"; {len(new_survivors)} witnesses survive outside the known list"))
    table = detection_table(witness_rows)
    for pair, marks in table.items():
        print(f"{marks}  {pair}")
    if args.json is not None:
        _results.write(args.json, rows, seeds=sorted({r["seed"] for r in rows + witness_rows}),
                       budgets=sorted({r["budget"] for r in rows + witness_rows}),
                       only=args.only or None, note=args.note,
                       all_as_declared=not differences, differences=differences,
                       witness_runs=witness_rows or None, new_survivors=new_survivors,
                       **({"detection_table": {"seeds": sorted({w["seed"] for w in witness_rows}),
                                               "pairs": table}} if table else {}),
                       cpu_seconds_total=round(sum(r["cpu_seconds_process"] or
                                                   r["cpu_seconds_checks"] for r in rows), 1))
    return 1 if differences or new_survivors else 0


if __name__ == "__main__":
    sys.exit(main())
