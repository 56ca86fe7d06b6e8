"""The architecture as a contract: import-linter's layers (pyproject.toml) hold, and the package
has no function-local imports beyond the justified ones."""
import ast
import pathlib
import subprocess
import sys

import pytest
ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "laocheck"


def test_import_linter_contracts_are_kept():
    """An upward import (say ``laocheck.bounds`` importing ``laocheck.checks``) breaks the
    contract; the report names the chain of imports."""
    script = pathlib.Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(script), "--config", str(ROOT / "pyproject.toml")],
                            capture_output=True, text=True, cwd=ROOT, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def _local_imports(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for func in ast.walk(tree):
        if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(func):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    out.append(node.lineno)
    return out


def test_every_function_local_import_is_justified():
    """A function-local import only for an optional dependency or start-up time, with a comment
    on its line or the line above saying which."""
    unjustified = []
    for path in sorted(PACKAGE.rglob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for lineno in _local_imports(path):
            context = " ".join(lines[max(0, lineno - 2):lineno]).lower()
            if not any(word in context for word in ("optional", "start-up", "startup")):
                unjustified.append(f"{path.relative_to(ROOT)}:{lineno}: {lines[lineno - 1].strip()}")
    assert not unjustified, "\n".join(unjustified)


@pytest.mark.parametrize("module", ["laocheck.reference.estimators", "laocheck.reference.learners"])
def test_reference_does_not_import_the_kernels(module):
    """The literal references are the oracle: importing them loads no Cython kernel."""
    code = (f"import sys, {module}; "
            "bad = [m for m in sys.modules if m.startswith(('laocheck.estimators', "
            "'laocheck.learners'))]; print(bad); sys.exit(1 if bad else 0)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
