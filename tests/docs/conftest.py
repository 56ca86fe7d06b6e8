"""The built documentation site, shared by the docs tests of one session.

``LAOCHECK_DOCS_HTML=DIR`` names a build to test (CI builds once, in ``.ci/run``); otherwise
``docs/_build/html`` is used when it holds a build, and built there (with ``-W --keep-going``,
the gallery run) when it does not, importing only what the ``docs`` extra brings. A failing
build fails the tests; nothing is skipped."""
import importlib.util
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
DEFAULT = DOCS / "_build" / "html"


def _docs_extra_only(tmp):
    """The environment of a build that can import only what ``pip install ".[docs]"`` brings
    (tests/docs/_installed.py), as in a fresh virtual environment."""
    spec = importlib.util.spec_from_file_location(
        "_installed", Path(__file__).with_name("_installed.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    installed = module.Installed(Path(tmp))
    installed.add(".[docs]")
    return {**os.environ, **installed.env()}


def build_docs(out):
    """``python -m sphinx -W --keep-going -b html docs OUT``, with only the ``docs`` extra
    importable (the README's and Getting started's ``pip install ".[docs]"``); the build's
    output on failure."""
    with tempfile.TemporaryDirectory() as tmp:
        result = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q",
                                 "-b", "html", str(DOCS), str(out)], cwd=ROOT,
                                capture_output=True, text=True, timeout=3600,
                                env=_docs_extra_only(tmp))
    assert result.returncode == 0, f"the docs build failed:\n{result.stdout}\n{result.stderr}"
    return out


@pytest.fixture(scope="session")
def site():
    given = os.environ.get("LAOCHECK_DOCS_HTML")
    out = Path(given) if given else DEFAULT
    if not (out / "index.html").is_file():
        build_docs(out)
    assert (out / "index.html").is_file()
    return out
