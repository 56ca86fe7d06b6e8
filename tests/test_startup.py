"""Start-up: ``import laocheck`` and the help of every ``laocheck`` command import only what they
need, and the lazy package attributes (PEP 562, ``laocheck._lazy``) keep the public API.

Each check runs a fresh interpreter under ``python -X importtime`` (this process has long
imported everything); a failure names the chain of imports that brought the package in. Speed
itself is measured in ``benchmarks/bench_startup.py``, never asserted here.
"""
import importlib
import json
import re
import subprocess
import sys

import pytest

#: never loaded to print a help (issue 35): seconds of import time, or optional
FORBIDDEN = ("sympy", "matplotlib", "pandas", "dask", "distributed")
#: not needed for a help either (about a second between them)
AVOIDED = ("scipy.stats", "sklearn")

COMMANDS = ("verify", "check", "report", "bounds", "errata", "baseline", "list")

#: each argv runs through ``laocheck.cli.main`` in one interpreter, a marker line on stderr
#: before it, so that each import is charged to the first command that needed it
_SCRIPT = """
import sys
sys.stderr.write("@@ import laocheck\\n"); sys.stderr.flush()
import laocheck
sys.stderr.write("@@ laocheck --help\\n"); sys.stderr.flush()
from laocheck.cli import main
for argv in {argvs!r}:
    sys.stderr.write("@@ laocheck " + " ".join(argv) + "\\n"); sys.stderr.flush()
    try:
        main(argv)
    except SystemExit:
        pass
"""


def _importtime_sections():
    """``{section: [(depth, module), ...]}`` from one ``-X importtime`` run of every help."""
    argvs = [["--help"]] + [[c, "--help"] for c in COMMANDS]
    out = subprocess.run([sys.executable, "-X", "importtime", "-c", _SCRIPT.format(argvs=argvs)],
                         capture_output=True, text=True, check=True, timeout=300)
    sections, current = {}, None
    for line in out.stderr.splitlines():
        if line.startswith("@@ "):
            current = sections.setdefault(line[3:], [])
            continue
        m = re.match(r"import time:\s+\d+ \|\s+\d+ \|( *)(\S+)$", line)
        if m and current is not None:
            current.append((len(m.group(1)) // 2, m.group(2)))
    return sections


def _chain(rows, index):
    """The modules that imported ``rows[index]``, outermost first (importtime prints a module
    after the modules it imported, one level deeper)."""
    depth, name = rows[index]
    chain = [name]
    for d, parent in rows[index + 1:]:
        if d < depth:
            chain.append(parent)
            depth = d
    return " <- ".join(chain)


def _loaded(rows, packages):
    return {pkg: _chain(rows, i) for i, (_, name) in enumerate(rows) for pkg in packages
            if name == pkg or name.startswith(pkg + ".")}


@pytest.fixture(scope="module")
def sections():
    return _importtime_sections()


def test_import_laocheck_loads_no_third_party_package(sections):
    """``import laocheck`` is the version and the exceptions: not even numpy."""
    loaded = _loaded(sections["import laocheck"], FORBIDDEN + AVOIDED + ("numpy", "scipy"))
    assert not loaded, loaded


@pytest.mark.parametrize("command", ["--help"] + [f"{c} --help" for c in COMMANDS])
def test_help_imports_no_heavy_package(sections, command):
    """``laocheck --help`` and ``laocheck <cmd> --help`` build the parsers only; the commands'
    implementations (the checks, the experiments, the renderers) load when a command runs."""
    rows = sections[f"laocheck {command}"]
    assert any(name == "laocheck.cli" for _, name in sections["laocheck --help"])
    loaded = _loaded(rows, FORBIDDEN + AVOIDED)
    assert not loaded, f"`laocheck {command}` imported: " + "; ".join(loaded.values())


LAZY_PACKAGES = ("laocheck.stats", "laocheck.estimators", "laocheck.data",
                 "laocheck.experiments", "laocheck.learners", "laocheck.testing")


@pytest.mark.parametrize("package", LAZY_PACKAGES)
def test_lazy_package_keeps_its_public_api(package):
    """Every name of ``__all__`` resolves (to the object of the submodule that defines it), is
    listed by ``dir()``, and an unknown name is an AttributeError naming the package."""
    mod = importlib.import_module(package)
    for name in mod.__all__:
        value = getattr(mod, name)
        assert value is not None
        assert name in dir(mod)
    namespace = {}
    exec(f"from {package} import *", namespace)
    assert set(mod.__all__) <= set(namespace)
    with pytest.raises(AttributeError, match=re.escape(package)):
        getattr(mod, "no_such_name")


def test_lazy_package_loads_a_submodule_on_first_use():
    """In a fresh interpreter: importing the packages loads none of their submodules' heavy
    dependencies; one name loads its own submodule only; the estimators register on their
    first lookup whichever module asks first (``laocheck.estimators.instances`` here)."""
    code = """
import json, sys
import laocheck.stats, laocheck.estimators, laocheck.data, laocheck.experiments
import laocheck.learners, laocheck.testing
after_import = sorted(m for m in ("scipy.stats", "scipy.special", "sklearn", "sympy")
                      if m in sys.modules)
from laocheck.stats import DEFAULT_DELTA
after_delta = "laocheck.stats.intervals" in sys.modules
from laocheck.estimators import instances
cases = len(instances.cases())
import laocheck.estimators as est
print(json.dumps({"after_import": after_import, "after_delta": after_delta, "cases": cases,
                  "names": len(est.names()), "delta": DEFAULT_DELTA,
                  "submodule": est._kernels.__name__}))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=300)
    doc = json.loads(out.stdout)
    assert doc["after_import"] == [] and doc["after_delta"] is False
    from laocheck.estimators import instances, names
    from laocheck.stats import DEFAULT_DELTA
    assert doc["cases"] == len(instances.cases()) > 0
    assert doc["names"] == len(names()) > 0
    assert doc["delta"] == DEFAULT_DELTA
    assert doc["submodule"] == "laocheck.estimators._kernels"
