"""Every number of a checkout, record by record: a change detector for refactorings.

Issue 50 asks that a restructuring change no number: every verify record at seed 0, every
number of every report and the papers' experiments at the ``tiny`` effort unchanged bit for
bit, compared with the records of the commit before. This script keeps those records in one
JSON file and compares two such files, in the manner of the regression data numpy and
scikit-learn keep (pytest-regressions' ``data_regression``): it says *that* a number changed and
which, never whether the change is right. A change that is meant is committed by regenerating
the file (the ``save`` command below) in the same commit, and the differences are named in its
message.

``save OUT`` runs, in fresh interpreters of the current environment (``python -m laocheck``, so
that the script also records an older checkout put on ``PYTHONPATH``):

* ``laocheck verify --effort EFFORT --seed SEED --json ...``: one record ``verify/<id>`` per
  check with its status, declared status, every figure, ``detects``, ``detectable``, the
  counterexample, the correction, the note and the seed (``seed``, ``entropy``,
  ``spawn_key``). Left out: the wall and CPU times (``seconds``, ``cpu_seconds``, at any
  depth: a figure ``seconds`` too), which vary from run to run, and the registry's prose
  (``citation``, ``statement``, ``assumptions``, ``method``), which is text, not a result;
* ``laocheck report --all --effort EFFORT --seed SEED --source digits``: one record
  ``report/<name>`` per report with its whole ``report.json`` (every number shown, the data of
  every figure, the tables and, for the papers' reports, the experiment's result at the spec's
  EFFORT table) but its provenance and run times (the keys ``provenance``, ``seconds``,
  ``cpu_seconds``). The digit data are scikit-learn's digits (installed with scikit-learn, the
  same on every machine); KS15 Sec. 5.3's Covertype is not given (its panels are listed as not
  run).

Every run has one BLAS thread (:data:`THREADS`): the last bits of some BLAS results depend
on the number of threads, which is the core count in laocheck's main process and 1 in its
joblib workers, so that unpinned a record could differ between ``--jobs 1`` and ``--jobs 2``
and between machines (it does, for KS15.Eq4's ``worst_ratio``).

Strings naming the installed package's directory are written with ``<laocheck>`` in its place
(a traceback in an ERROR's note), so that two checkouts in two directories compare. Floats are
written as JSON numbers, which Python writes with ``repr`` and reads back to the same double;
a NaN or an infinity, which strict JSON has no number for, as ``{"$float": "nan"}`` (``"inf"``,
``"-inf"``). Beside the records, ``meta`` holds the provenance (``benchmarks/_results.py``: date,
commit, machine, versions) and the machine's floating-point fingerprint (numpy's SIMD
extensions, the BLAS library, its kernel architecture and threads, the C library), ``rows`` the
count of checks per status and the reports (the documentation's benchmarks page shows these
two), ``cpu_seconds`` each check's CPU seconds; none of them is compared.

``compare OLD NEW`` lists every difference, one line each: the record, the field (a path into
it, ``figures/ratio``, ``data/result/panels/0/curves/2/mean/1``), the old and the new value;
a record present in one file only is one line. Exit status 1 on any difference, 0 when there is
none, 2 on a usage error. Floats are compared bit for bit (by ``repr``: ``-0.0`` differs from
``0.0``; NaN equals NaN) unless ``--rtol R`` allows a relative difference of R for floats (never
for statuses, integers or text). Bit for bit holds on one machine (``meta["fingerprint"]``:
numpy's SIMD extensions, the BLAS, its kernels and threads, the C library): with ``--jobs 1``
and ``--jobs 2``, from two directories, run after run. Across machines it does not, and no
small tolerance restores it: with numpy's AVX-512 loops turned off and OpenBLAS's Haswell
kernels in place of SkylakeX ones (``NPY_DISABLE_CPU_FEATURES="X86_V4 AVX512_ICL"
OPENBLAS_CORETYPE=Haswell``), 784 numbers of 43 records differed, 135 of 22 records by more
than a relative 1e-12 (rounding-sized figures such as a kernel's distance from its reference,
learning curves after thousands of steps, a worst grid point among ties), and no status. Two
files of two machines are compared with ``--statuses``: the checks' statuses and seeds, and
which records exist.

Usage::

    python benchmarks/records_snapshot.py save benchmarks/results/records_tiny.json --jobs 2
    python benchmarks/records_snapshot.py save new.json --only 'HK12.*' --reports rho
    python benchmarks/records_snapshot.py compare benchmarks/results/records_tiny.json new.json
    python benchmarks/records_snapshot.py compare old.json new.json --rtol 1e-12

Cost at ``tiny`` (the catalog's fast sample counts, the reports' tiny tables): see
``meta["cpu_seconds_total"]`` of the committed file; ``tests/test_records_snapshot.py`` reruns
the cheapest share of it on every test run and compares.
"""
import argparse
import fnmatch
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _results  # noqa: E402

#: the command that regenerates the committed snapshot
REGENERATE = "python benchmarks/records_snapshot.py save benchmarks/results/records_tiny.json"
#: fields of a check record that are not kept: the registry's prose (and, at any depth, the
#: run times of :data:`TIMES`)
RECORD_DROPPED = ("citation", "statement", "assumptions", "method")
#: keys dropped at any depth of a record: run times (a check's ``figures["seconds"]`` too)
TIMES = ("seconds", "cpu_seconds")
#: keys dropped at any depth of a report's JSON: where and how long it ran
REPORT_DROPPED = ("provenance",) + TIMES
#: the environment of every run: one BLAS thread. The rounding of some BLAS calls depends on
#: the number of threads (KS15.Eq4's SLSQP optimum differs in its 14th digit between 1 and 2
#: OpenBLAS threads), and that number is the machine's core count in the main process and 1 in
#: joblib's workers: unpinned, a record would depend on the machine and on ``--jobs``.
THREADS = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
#: the digit data the papers' reports run on (``laocheck report --source``)
SOURCE = "digits"
MISSING = "<missing>"


def _env():
    return {**os.environ, **THREADS}


def laocheck_command():
    """``python -m laocheck`` of this interpreter (its ``PYTHONPATH`` picks the checkout)."""
    return [sys.executable, "-m", "laocheck"]


def package_dir():
    """The directory of the laocheck the subprocesses import (asked of one of them)."""
    out = subprocess.run([sys.executable, "-c", "import laocheck, os; "
                          "print(os.path.dirname(os.path.abspath(laocheck.__file__)))"],
                         capture_output=True, text=True, check=True, env=_env())
    return out.stdout.strip()


def fingerprint():
    """What decides the last bits of a float on this machine: numpy's SIMD extensions in use,
    the BLAS (name, version, kernel architecture: threadpoolctl) and the C library."""
    script = (
        "import json, platform, numpy as np\n"
        "cfg = np.show_config(mode='dicts')\n"
        "simd = cfg.get('SIMD Extensions', {})\n"
        "try:\n"
        "    from threadpoolctl import threadpool_info\n"
        "    blas = [{k: i.get(k) for k in ('internal_api', 'version', 'architecture',\n"
        "                                   'num_threads')}\n"
        "            for i in threadpool_info() if i.get('user_api') == 'blas']\n"
        "except ImportError:\n"
        "    blas = None\n"
        "print(json.dumps({'numpy': np.__version__, 'simd_baseline': simd.get('baseline'),\n"
        "                  'simd_found': simd.get('found'), 'blas': blas,\n"
        "                  'libc': list(platform.libc_ver()),\n"
        "                  'python': platform.python_version(),\n"
        "                  'machine': platform.machine()}))\n")
    out = subprocess.run([sys.executable, "-c", "import numpy, scipy.linalg\n" + script],
                         capture_output=True, text=True, check=True, env=_env())
    return json.loads(out.stdout)


def same_machine(a, b):
    """Whether two fingerprints (:func:`fingerprint`) are of one machine's arithmetic (the BLAS
    libraries in any order: their load order is not fixed)."""
    def norm(fp):
        fp = dict(fp or {})
        fp["blas"] = sorted(fp.get("blas") or [], key=lambda e: json.dumps(e, sort_keys=True))
        return fp
    return a is not None and b is not None and norm(a) == norm(b)


def _child_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(command):
    proc = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          check=False, env=_env())
    return proc


def run_verify(effort, seed, jobs, only=(), tmp=None):
    """The records (dicts, as ``laocheck verify --json`` writes them) of one verify run."""
    with tempfile.TemporaryDirectory(dir=tmp) as where:
        out = Path(where) / "verify.json"
        command = laocheck_command() + ["verify", "--effort", effort, "--seed", str(seed),
                                        "--jobs", str(jobs), "--no-progress", "--json", str(out)]
        for pattern in only:
            command += ["--only", pattern]
        proc = _run(command)
        if not out.exists():
            sys.exit(f"{' '.join(command)} exited {proc.returncode} without its JSON:\n"
                     f"{proc.stderr}")
        return json.loads(out.read_text(encoding="utf-8"))["checks"]


def run_reports(effort, seed, jobs, names=None, tmp=None):
    """``{name: report.json}`` of ``laocheck report`` (every spec, or ``names``)."""
    with tempfile.TemporaryDirectory(dir=tmp) as where:
        out = Path(where) / "reports"
        command = laocheck_command() + ["report", *(names or ["--all"]), "--effort", effort,
                                        "--seed", str(seed), "--jobs", str(jobs), "--source",
                                        SOURCE, "--no-progress", "--out", str(out)]
        proc = _run(command)
        if proc.returncode != 0:
            sys.exit(f"{' '.join(command)} exited {proc.returncode}:\n{proc.stderr}")
        return {p.parent.name: json.loads(p.read_text(encoding="utf-8"))
                for p in sorted(out.glob("*/report.json"))}


def encode(value, package=None):
    """``value`` as the snapshot keeps it: tuples as lists, a non-finite float as
    ``{"$float": "nan"}``, the package directory in strings as ``<laocheck>``."""
    if isinstance(value, dict):
        return {str(k): encode(v, package) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [encode(v, package) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return {"$float": repr(value)}
    if isinstance(value, str) and package:
        return value.replace(package, "<laocheck>")
    return value


def _drop(value, keys):
    if isinstance(value, dict):
        return {k: _drop(v, keys) for k, v in value.items() if k not in keys}
    if isinstance(value, list):
        return [_drop(v, keys) for v in value]
    return value


def record_of_check(rec, package=None):
    """The kept fields of one check record (:data:`RECORD_DROPPED` and :data:`TIMES` left
    out)."""
    return encode(_drop({k: v for k, v in rec.items() if k not in RECORD_DROPPED and k != "id"},
                        TIMES), package)


def record_of_report(doc, package=None):
    """A report's JSON without where and how long it ran (:data:`REPORT_DROPPED`)."""
    return encode(_drop(doc, REPORT_DROPPED), package)


def snapshot(effort="tiny", seed=0, jobs=1, only=(), reports=None, tmp=None):
    """The snapshot document ``{"meta": ..., "records": {"verify/<id>": ..., "report/<name>":
    ...}}`` of the current environment's laocheck.

    Parameters
    ----------
    effort : str, default="tiny"
        The effort profile of the verify run and the reports.
    seed : int, default=0
        The root seed.
    jobs : int, default=1
        Workers of each run (the numbers do not depend on it).
    only : sequence of str, default=()
        ``laocheck verify --only`` globs (default: every check); ``["-"]``: no check.
    reports : sequence of str or None, default=None
        The reports to render (None: every spec; ``[]``: none).
    tmp : str or None
        Where the runs' temporary files go (None: the system's).

    Returns
    -------
    dict
        JSON-ready (:func:`encode`d).
    """
    package = package_dir()
    cpu = _child_cpu()
    records, cpu_seconds = {}, {}
    if list(only) != ["-"]:
        for rec in run_verify(effort, seed, jobs, only, tmp):
            records[f"verify/{rec['id']}"] = record_of_check(rec, package)
            cpu_seconds[rec["id"]] = rec.get("cpu_seconds")
    verify_cpu = _child_cpu() - cpu
    if reports is None or list(reports):
        for name, doc in run_reports(effort, seed, jobs, reports, tmp).items():
            records[f"report/{name}"] = record_of_report(doc, package)
    meta = _results.meta(
        effort=effort, seed=seed, jobs=jobs, only=list(only), reports=reports, source=SOURCE,
        fingerprint=fingerprint(), regenerate=REGENERATE,
        cpu_seconds_verify=round(verify_cpu, 1),
        cpu_seconds_reports=round(_child_cpu() - cpu - verify_cpu, 1),
        cpu_seconds_total=round(_child_cpu() - cpu, 1))
    records = dict(sorted(records.items()))
    return {"meta": meta, "rows": summary_rows(records), "cpu_seconds": cpu_seconds,
            "records": records}


def summary_rows(records):
    """The table the documentation's benchmarks page shows of a snapshot: the checks by
    status, and the reports."""
    statuses = Counter(r.get("status") for k, r in records.items() if k.startswith("verify/"))
    reports = [k.split("/", 1)[1] for k in records if k.startswith("report/")]
    return [{"records": "verify", "count": sum(statuses.values()),
             **dict(sorted(statuses.items()))},
            {"records": "report", "count": len(reports), "names": ", ".join(reports)}]


def write(path, doc):
    """Write a snapshot: one record per line (a git diff shows the records that changed),
    through a temporary file beside ``path`` (an interrupted save leaves the old file)."""
    path = Path(path)
    def dump(value, sort=True):
        return json.dumps(value, sort_keys=sort, ensure_ascii=False, allow_nan=False)

    lines = ["{"] + [f'{json.dumps(key)}: {dump(doc[key], sort=key != "rows")},'
                     for key in ("meta", "rows", "cpu_seconds") if key in doc] + ['"records": {']
    items = list(doc["records"].items())
    for i, (key, rec) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        lines.append(f"{json.dumps(key)}: {dump(rec)}{comma}")
    lines += ["}", "}"]
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write("\n".join(lines) + "\n")
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)          # mkstemp's 0600 -> as open() would create it
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def read(path):
    """A snapshot written by :func:`write` (``{"meta", "records"}``)."""
    doc = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(doc, dict) or not isinstance(doc.get("records"), dict):
        raise ValueError(f"`path` {str(path)!r} is not a records snapshot (no \"records\").")
    return doc


@dataclass(frozen=True)
class Difference:
    """One difference: the record (``verify/<id>`` or ``report/<name>``), the field (a path
    into it; ``""`` for the whole record) and the two values (:data:`MISSING` where absent)."""

    record: str
    field: str
    old: object
    new: object

    def __str__(self):
        where = f"{self.record} {self.field}" if self.field else self.record
        return f"{where}: {_show(self.old)} -> {_show(self.new)}"


def _show(value):
    if value is MISSING or value == MISSING:
        return MISSING
    if isinstance(value, float):
        return repr(value)
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 120 else text[:117] + "..."


def _float(value):
    """The float a leaf stands for (a number or ``{"$float": ...}``), else None."""
    if isinstance(value, float):
        return value
    if isinstance(value, dict) and set(value) == {"$float"}:
        return float(value["$float"])
    return None


def _same_float(a, b, rtol):
    if repr(a) == repr(b):
        return True
    if rtol <= 0 or not (math.isfinite(a) and math.isfinite(b)):
        return False
    return abs(a - b) <= rtol * max(abs(a), abs(b))


def _diff(record, path, old, new, rtol, out):
    fa, fb = _float(old), _float(new)
    if fa is not None and fb is not None:
        if not _same_float(fa, fb, rtol):
            out.append(Difference(record, path, old, new))
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(set(old) | set(new)):
            sub = f"{path}/{key}" if path else str(key)
            if key not in old or key not in new:
                out.append(Difference(record, sub, old.get(key, MISSING), new.get(key, MISSING)))
            else:
                _diff(record, sub, old[key], new[key], rtol, out)
        return
    if isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            out.append(Difference(record, f"{path}/<length>" if path else "<length>",
                                  len(old), len(new)))
        for i, (a, b) in enumerate(zip(old, new)):
            _diff(record, f"{path}/{i}" if path else str(i), a, b, rtol, out)
        return
    if type(old) is not type(new) or old != new:       # 1 and 1.0, True and 1 differ
        out.append(Difference(record, path, old, new))


#: the fields ``compare --statuses`` compares: what no rounding may change
STATUS_FIELDS = ("status", "expected", "seed", "entropy", "spawn_key")


def compare(old, new, rtol=0.0, records=None, fields=None):
    """Every difference between two snapshots' records.

    Parameters
    ----------
    old, new : dict
        Snapshots (:func:`read`).
    rtol : float, default=0.0
        Relative difference allowed between two finite floats (0: bit for bit); statuses,
        integers, text and non-finite floats are always compared exactly.
    records : collection of str or None, default=None
        Compare only these records (None: all of both files).
    fields : collection of str or None, default=None
        Compare only these top-level fields of each record (for example
        :data:`STATUS_FIELDS`; a record with none of them, a report, is compared for its
        presence only). None: every field.

    Returns
    -------
    list of Difference
        In the order of the records' names; a record in one file only is one difference with
        the field ``""``.
    """
    if not (isinstance(rtol, (int, float)) and 0 <= rtol < 1):
        raise ValueError(f"`rtol` must satisfy 0 <= rtol < 1; got rtol={rtol!r}.")
    a, b = old["records"], new["records"]
    keys = sorted(set(a) | set(b)) if records is None else sorted(records)
    out = []
    for key in keys:
        if key not in a or key not in b:
            out.append(Difference(key, "", "present" if key in a else MISSING,
                                  "present" if key in b else MISSING))
        elif fields is None:
            _diff(key, "", a[key], b[key], rtol, out)
        else:
            _diff(key, "", {f: v for f, v in a[key].items() if f in fields},
                  {f: v for f, v in b[key].items() if f in fields}, rtol, out)
    return out


def _cheapest(doc, cpu_budget):
    """The ids of the snapshot's checks, cheapest first, whose recorded CPU seconds sum to at
    most ``cpu_budget``."""
    costs = doc.get("cpu_seconds") or {}
    picked, total = [], 0.0
    for check_id, seconds in sorted(costs.items(), key=lambda kv: (kv[1] or 0.0, kv[0])):
        if total + (seconds or 0.0) > cpu_budget:
            break
        picked.append(check_id)
        total += seconds or 0.0
    return picked


def _positive_int(text):
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {text!r}")
    return int(text)


def _rtol(text):
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 <= value < 1:
        raise argparse.ArgumentTypeError(f"expected 0 <= RTOL < 1, got {text!r}")
    return value


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog="examples:\n  python benchmarks/records_snapshot.py save OUT.json --jobs 2\n"
               "  python benchmarks/records_snapshot.py compare OLD.json NEW.json\n",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    p_save = sub.add_parser("save", help="record this checkout's numbers in OUT")
    p_save.add_argument("out", metavar="OUT", help="the snapshot file to write (JSON)")
    p_save.add_argument("--effort", default="tiny",
                        help="effort profile of the verify run and the reports. Default: tiny.")
    p_save.add_argument("--seed", type=int, default=0, help="root seed. Default: 0.")
    p_save.add_argument("--jobs", type=_positive_int, default=1,
                        help="workers (the numbers do not depend on it). Default: 1.")
    p_save.add_argument("--only", action="append", default=[], metavar="GLOB",
                        help="only the checks matching GLOB (repeatable; '-': no check). "
                        "Default: every check.")
    p_save.add_argument("--reports", nargs="*", default=None, metavar="NAME",
                        help="only these reports (none when given without NAME). Default: "
                        "every report spec.")
    p_compare = sub.add_parser("compare", help="list every difference between two snapshots")
    p_compare.add_argument("old", metavar="OLD")
    p_compare.add_argument("new", metavar="NEW")
    p_compare.add_argument("--rtol", type=_rtol, default=0.0,
                           help="relative difference allowed between floats (statuses, integers "
                           "and text: always exact). Default: 0, bit for bit.")
    p_compare.add_argument("--statuses", action="store_true",
                           help="compare only the checks' statuses and seeds (status, expected, "
                           "seed, entropy, spawn_key) and which records exist: what no "
                           "rounding may change, for files recorded on two machines. Default: "
                           "every field.")
    p_compare.add_argument("--match", metavar="GLOB", default=None,
                           help="compare only the records matching GLOB (e.g. 'report/*'). "
                           "Default: all.")
    args = parser.parse_args(argv)

    if args.command == "save":
        doc = snapshot(args.effort, args.seed, args.jobs, args.only, args.reports)
        write(args.out, doc)
        n_verify = sum(k.startswith("verify/") for k in doc["records"])
        print(f"{args.out}: {n_verify} check records, {len(doc['records']) - n_verify} reports; "
              f"{doc['meta']['cpu_seconds_total']} CPU s")
        return 0
    try:
        old, new = read(args.old), read(args.new)
    except (OSError, ValueError) as exc:
        parser.exit(2, f"records_snapshot.py compare: error: {exc}\n")
    keys = None
    if args.match:
        keys = [k for k in sorted(set(old["records"]) | set(new["records"]))
                if fnmatch.fnmatchcase(k, args.match)]
    diffs = compare(old, new, args.rtol, keys, STATUS_FIELDS if args.statuses else None)
    for d in diffs:
        print(d)
    changed = sorted({d.record for d in diffs})
    print(f"{len(diffs)} differences in {len(changed)} records"
          + (" (statuses and seeds)" if args.statuses else
             f" (at rtol {args.rtol:g} for floats)" if args.rtol else " (bit for bit)")
          + f"; {args.old}: commit {old['meta'].get('commit')}, {args.new}: commit "
          f"{new['meta'].get('commit')}")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
