"""How long the README's install takes: ``pip install .`` into a fresh virtual environment.

Creates a virtual environment in a temporary directory (``python -m venv``, as the README's
first command) and times ``pip install SOURCE`` in it: the wall time, and the CPU time of pip
and every process it started (``resource.getrusage(RUSAGE_CHILDREN)``). The build of the Cython
kernels happens inside it (pip's isolated build environment fetches setuptools, Cython and
numpy); pip's own cache is not used (``--no-cache-dir``), so every wheel is fetched and the
kernels compiled as on a fresh machine. Writes ``{"meta": ..., "rows": [...]}``
(``benchmarks/_results.py``: the date, commit, machine and load average), one row per install,
which the README's install time and the documentation's are generated from
(``docs/conf.py``; ``tests/docs/test_numbers.py`` compares the README with it).

Usage::

    python benchmarks/bench_install.py --json benchmarks/results/install.json
    python benchmarks/bench_install.py --extra test --json /tmp/install-test.json

Run it on an idle machine: the JSON keeps the load average before and after.
"""
import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _results  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _cpu_of_children():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def install(extra=None, source=ROOT):
    """One fresh ``python -m venv`` and ``pip install .[EXTRA]`` in it, from a fresh clone of
    SOURCE's committed tree (no build left by a developer): a row."""
    with tempfile.TemporaryDirectory() as tmp:
        clone = Path(tmp) / "laocheck"
        subprocess.run(["git", "clone", "--quiet", str(source), str(clone)], check=True)
        spec = f"{clone}[{extra}]" if extra else str(clone)
        venv = Path(tmp) / ".venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        pip = [str(venv / "bin" / "python"), "-m", "pip"]
        env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
        load_before = os.getloadavg()[0]
        cpu0, wall0 = _cpu_of_children(), time.perf_counter()
        subprocess.run(pip + ["install", "--no-cache-dir", "--quiet", spec], check=True, env=env)
        wall, cpu = time.perf_counter() - wall0, _cpu_of_children() - cpu0
        version = subprocess.run([str(venv / "bin" / "laocheck"), "--version"],
                                 capture_output=True, text=True, check=True).stdout.strip()
    command = f'pip install ".[{extra}]"' if extra else "pip install ."
    return {"command": command,
            "wall_seconds": round(wall, 1), "cpu_seconds": round(cpu, 1),
            "load_average_before": round(load_before, 2), "installed": version}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--extra", default=None, help="an extra to install with it")
    parser.add_argument("--json", default=None, help="write the result here")
    args = parser.parse_args(argv)
    row = install(args.extra)
    print(row)
    _results.write(args.json, [row], cpu_count_used=os.cpu_count())


if __name__ == "__main__":
    main()
