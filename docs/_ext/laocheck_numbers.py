"""The times, sizes and counts the README and the documentation state, read from the JSON the
benchmarks write, with the machine and the date of the measurement.

``docs/conf.py`` makes each entry of :func:`figures` a MyST substitution (``{{ verify_cpu }}``
on a page); the README, which Sphinx does not build, states them literally, and
``tests/docs/test_numbers.py`` compares its sentences (:data:`README`) with :func:`figures`,
so that a new measurement fails the test until the README says it.

The sources (each written by a benchmark, never by hand):

* ``src/laocheck/checks/_durations.json``, entries ``fast`` and ``full``: one ``laocheck verify``
  run of the whole catalog at each check tier (``benchmarks/catalog_durations.py``): its wall time,
  its CPU time, its jobs, the number of checks;
* ``benchmarks/results/install.json``: ``pip install .`` into a fresh virtual environment from a
  fresh clone (``benchmarks/bench_install.py``): its wall and CPU time.
"""
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DURATIONS = ROOT / "src" / "laocheck" / "checks" / "_durations.json"
INSTALL = ROOT / "benchmarks" / "results" / "install.json"


def _machine(meta):
    return f"{meta['cpu_count']}-core {meta['machine']} machine"


def _minutes(seconds):
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s" if minutes else f"{rest} s"


def figures(durations=DURATIONS, install=INSTALL):
    """{substitution name: text}: every number stated in prose, from its JSON."""
    verify = json.loads(Path(durations).read_text(encoding="utf-8"))["fast"]["meta"]
    out = {
        "verify_checks": str(verify["checks_measured"]),
        "verify_cpu": str(round(verify["cpu_seconds_total"])),
        "verify_wall": str(round(verify["wall_seconds"])),
        "verify_jobs": str(verify["jobs"]),
        "verify_measured": (f"{verify['date'][:10]}, {_machine(verify)}, load average "
                            f"{verify['load_average_at_end']}"),
        "verify_source": "`src/laocheck/checks/_durations.json`",
    }
    doc = json.loads(Path(durations).read_text(encoding="utf-8"))
    if "full" in doc:                      # the full profile, when measured
        full = doc["full"]["meta"]
        out.update({
            "full_checks": str(full["checks_measured"]),
            "full_cpu": str(round(full["cpu_seconds_total"])),
            "full_wall": str(round(full["wall_seconds"])),
            "full_jobs": str(full["jobs"]),
            "full_measured": (f"{full['date'][:10]}, {_machine(full)}, load average "
                              f"{full['load_average_at_end']}"),
        })
    rows = json.loads(Path(install).read_text(encoding="utf-8"))
    meta, row = rows["meta"], rows["rows"][0]
    out.update({
        "install_wall": _minutes(row["wall_seconds"]),
        "install_cpu": _minutes(row["cpu_seconds"]),
        "install_measured": (f"{meta['date'][:10]}, {_machine(meta)}, load average "
                             f"{row['load_average_before']} before"),
        "install_source": "`benchmarks/results/install.json`",
    })
    return out


#: the README's sentences that state measured numbers, as templates of :func:`figures`
README = (
    "about {verify_cpu} CPU-seconds for its {verify_checks} checks at the default `fast` "
    "profile, {verify_wall} s of wall time with {verify_jobs} jobs (`--jobs {verify_jobs}`; "
    "{verify_measured}; {verify_source}); `pip install .` compiles the kernels first: "
    "{install_wall} ({install_cpu} of CPU; {install_measured}; {install_source})",
)


def readme_sentences(**paths):
    """The README's sentences as they must read now."""
    values = figures(**paths)
    return [template.format(**values) for template in README]
