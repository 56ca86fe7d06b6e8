"""Provenance of every JSON file laocheck writes: versions, commit, machine, seed and effort.

One function, :func:`provenance`, used by ``laocheck verify --json``, ``laocheck bounds --json``
and the reports, so that every result file says what produced it.
"""

from __future__ import annotations

import os
import platform
import re
import subprocess
import sys
from pathlib import Path

from ._version import __version__

__all__ = ["provenance", "git_commit"]

_PACKAGES = ("numpy", "scipy", "sympy", "scikit-learn", "joblib", "hypothesis", "matplotlib", "dask",
             "distributed")


def _version_of(package):
    # start-up: importlib.metadata (about 20 ms) loads only when provenance is written
    from importlib import metadata
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def _checkout_commit():
    here = Path(__file__).resolve().parent
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                             cwd=here, timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    commit = out.stdout.strip()
    return commit if out.returncode == 0 and re.fullmatch(r"[0-9a-f]{40}", commit) else None


def _built_commit():
    try:  # optional module: only a package that setup.py's build_py built has it
        from . import _build_commit
    except ImportError:                  # a source checkout (editable install): never built
        return None, None
    return _build_commit.COMMIT, _build_commit.DIRTY


def git_commit():
    """The commit laocheck's code comes from: that of the git checkout it runs from (an editable
    install or the source tree), else the one ``pip install .`` recorded when it built the
    package (``laocheck/_build_commit.py``), with "+dirty" when tracked files differed from
    that commit; None when neither is known (a build outside a git checkout)."""
    commit = _checkout_commit()
    if commit is not None:
        return commit
    commit, dirty = _built_commit()
    if commit is None:
        return None
    return commit + ("+dirty" if dirty else "")


def provenance(*, seed=None, effort=None, command=None, **extra):
    """A JSON-ready dict: laocheck's version and commit, the Python and library versions (None
    for one that is not installed, such as the optional dask and distributed), the
    machine (architecture, processor, CPU count, platform), and the run's seed, effort profile
    (its name) and command line when given; ``extra`` items are added as they are."""
    out = {
        "laocheck": __version__,
        "commit": git_commit(),
        "python": platform.python_version(),
        "versions": {name: _version_of(name) for name in _PACKAGES},
        "machine": {"architecture": platform.machine(), "processor": platform.processor() or None,
                    "cpu_count": os.cpu_count(), "platform": platform.platform()},
        "seed": seed,
        "effort": getattr(effort, "name", effort),
        "command": command if command is not None else " ".join(
            [Path(sys.argv[0]).name, *sys.argv[1:]]),
    }
    out.update(extra)
    return out
