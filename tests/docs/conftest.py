"""The built documentation site, shared by the docs tests of one session.

``LAOCHECK_DOCS_HTML=DIR`` names a build to test (CI builds once, in ``.ci/run``); otherwise
``docs/_build/html`` is used when it holds a build, and built there (with ``-W --keep-going``,
the gallery run) when it does not. A failing build fails the tests; nothing is skipped."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
DEFAULT = DOCS / "_build" / "html"


def build_docs(out):
    """``python -m sphinx -W --keep-going -b html docs OUT``; the build's output on failure."""
    result = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q",
                             "-b", "html", str(DOCS), str(out)], cwd=ROOT, capture_output=True,
                            text=True, timeout=3600)
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
