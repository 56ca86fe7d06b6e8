"""Start-up: ``import laocheck``, the help of every ``laocheck`` command and ``laocheck list``
(every form of it) import only what they need, and the lazy package attributes (PEP 562,
``laocheck._lazy``) keep the public API.

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

#: never loaded to print a help or the catalog (issue 35): seconds of import time, or optional
FORBIDDEN = ("sympy", "matplotlib", "pandas", "dask", "distributed")
#: not needed for a help or the catalog either (about a second between them)
AVOIDED = ("scipy.stats", "sklearn")

COMMANDS = ("verify", "check", "report", "bounds", "errata", "baseline", "list")

#: ``laocheck list`` reads the registrations of the catalog (ids, citations, statements,
#: expected statuses), the estimators' specs and the proof inventory, never a check's body
#: (sympy, scikit-learn, scipy.stats load when a check runs); the first form pays for all
LISTINGS = (["list"], ["list", "--checks"], ["list", "--estimators"], ["list", "--match", "hk12"],
            ["list", "--match", "*.budget", "--json", "-"], ["list", "--proof-coverage"],
            ["list", "--proof-coverage", "--markdown"])

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
    """``{section: [(depth, module), ...]}`` from one ``-X importtime`` run of every help, then
    every listing."""
    argvs = [["--help"]] + [[c, "--help"] for c in COMMANDS] + list(LISTINGS)
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


def test_every_subcommand_is_covered():
    """A new subcommand gets its ``--help`` checked here (the list is the parser's)."""
    import argparse

    from laocheck.cli import _build_parser
    sub = next(a for a in _build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert set(sub.choices) == set(COMMANDS)


@pytest.mark.parametrize("command", ["--help"] + [f"{c} --help" for c in COMMANDS])
def test_help_imports_no_heavy_package(sections, command):
    """``laocheck --help`` and ``laocheck <cmd> --help`` build the parsers only; the commands'
    implementations (the checks, the experiments, the renderers) load when a command runs."""
    rows = sections[f"laocheck {command}"]
    assert any(name == "laocheck.cli" for _, name in sections["laocheck --help"])
    loaded = _loaded(rows, FORBIDDEN + AVOIDED)
    assert not loaded, f"`laocheck {command}` imported: " + "; ".join(loaded.values())


@pytest.mark.parametrize("argv", LISTINGS, ids=" ".join)
def test_listing_imports_no_heavy_package(sections, argv):
    """``laocheck list`` imports every check module (their registrations are the catalog) but
    none of the libraries their bodies use: the check modules name them through
    ``laocheck._lazy.load`` or import them where used, and the learners' specs are read
    without the classes (``laocheck.learners._specs``)."""
    rows = sections["laocheck " + " ".join(argv)]
    if argv == ["list"]:      # the catalog was built here (a module absent from importtime's
        assert any(name == "laocheck.checks._common" for _, name in rows)   # list: a lazy one)
    loaded = _loaded(rows, FORBIDDEN + AVOIDED)
    assert not loaded, f"`laocheck {' '.join(argv)}` imported: " + "; ".join(loaded.values())


def test_lazy_load_imports_on_first_attribute():
    """``laocheck._lazy.load``: nothing is imported before the first attribute, which is then
    the module's own; the stand-in cannot be written to."""
    code = """
import json, sys
from laocheck._lazy import load
m = load("colorsys")
before = "colorsys" in sys.modules
value = m.ONE_THIRD
import colorsys
print(json.dumps({"before": before, "after": "colorsys" in sys.modules,
                  "same": m.rgb_to_hsv is colorsys.rgb_to_hsv, "value": value}))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=300)
    assert json.loads(out.stdout) == {"before": False, "after": True, "same": True,
                                      "value": 1 / 3}
    from laocheck._lazy import load
    with pytest.raises(AttributeError, match="on first use"):
        load("colorsys").x = 1
    with pytest.raises(ImportError):
        load("laocheck.no_such_module").anything


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
