"""Issue 34's acceptance: a zoo of samplers written in plain numpy as users write them
(``tests/testing/zoo/``: ``target``, ``sample(w, x, y, n=, rng=)``, ``budget``, their own k,
no ``reference``, no laocheck import). Every broken one is caught by the check its module names
(``BROKEN``) through ``check_estimator``, through ``parametrize_with_checks`` in a pytest
subprocess and through ``laocheck check``; every correct one passes on 20 seeds.

False alarms. The exact checks (enumeration) cannot false-FAIL, nor can ``budget`` of the
exact kind or ``clipping`` (a draw over the bound is a real violation). The statistical checks
of the correct samplers are ``unbiased.monte_carlo`` and ``kernel_matches_reference`` (and,
for the one sampler that cannot be enumerated, its Monte Carlo ``unbiased.exact``): at most
3 per sampler × 4 samplers × 20 seeds = 240 runs, each at δ = 1e-6 / 240, so the family-wise
false-FAIL probability of ``test_the_correct_samplers_pass_on_20_seeds`` is at most 1e-6.
The other tests run each statistical check once at δ = 1e-6 (family-wise <= 14 × 3 × 1e-6).
"""

import ast
import importlib
import json
import pathlib
import pkgutil
import xml.etree.ElementTree as ET

import pytest

from importlib.metadata import entry_points

from laocheck.checks import run
from laocheck.cli import main
from laocheck.testing import check_estimator, estimator_checks

from . import zoo

pytest_plugins = ["pytester"]

ZOO_DIR = pathlib.Path(zoo.__file__).parent
NAMES = sorted(m.name for m in pkgutil.iter_modules(zoo.__path__))
MODULES = {n: importlib.import_module(f"{zoo.__name__}.{n}") for n in NAMES}
BROKEN = {n: m.BROKEN for n, m in MODULES.items() if m.BROKEN}
CORRECT = [n for n, m in MODULES.items() if not m.BROKEN]
#: The claims a correct sampler cannot have decided, and why (nothing else may be undecided).
UNDECIDABLE = {("gaussian_dither", "second_moment"):
               "a continuous draw: Monte Carlo cannot prove an upper bound on E‖v‖²"}


def _props(records):
    return {r.id.split(".", 1)[1]: r.status for r in records}


def test_the_zoo_is_plain_user_code():
    """At least 12 samplers, 3 of them correct and written differently; none imports
    laocheck or defines a reference; each has target, sample and a budget."""
    assert len(NAMES) >= 12 and len(CORRECT) >= 3 and len(BROKEN) >= 9
    for name, module in MODULES.items():
        tree = ast.parse((ZOO_DIR / f"{name}.py").read_text(encoding="utf-8"))
        imported = {a.name.split(".")[0] for node in ast.walk(tree)
                    if isinstance(node, (ast.Import, ast.ImportFrom))
                    for a in getattr(node, "names", [])}
        imported |= {node.module.split(".")[0] for node in ast.walk(tree)
                     if isinstance(node, ast.ImportFrom) and node.module}
        assert imported <= {"numpy"}, (name, imported)
        est = module.est
        assert callable(est.target) and callable(est.sample) and not hasattr(est, "reference")
        assert hasattr(est, "budget"), name


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_check_estimator_catches_every_broken_sampler(name):
    module = MODULES[name]
    statuses = _props(check_estimator(module.est, module.CLAIMS, seed=0, on_fail=None))
    assert statuses[module.BROKEN] == "FAIL", statuses


@pytest.mark.parametrize("name", CORRECT)
def test_the_correct_samplers_pass_every_exact_check(name):
    module = MODULES[name]
    records = check_estimator(module.est, module.CLAIMS, seed=0, on_fail=None)
    for r in records:
        prop = r.id.split(".", 1)[1]
        expected = "INCONCLUSIVE" if (name, prop) in UNDECIDABLE else "PASS"
        assert r.status == expected, (r.id, r.status, r.note, r.counterexample)
    if name != "gaussian_dither":       # the others are enumerated by the choice tree
        exact = next(r for r in records if r.id.endswith(".unbiased.exact"))
        assert any("choice tree" in m for m in exact.figures["methods"]), exact.figures
    else:
        undecided = next(r for r in records if r.status == "INCONCLUSIVE")
        assert "rng.normal()" in undecided.note and "to decide it" in undecided.note


@pytest.mark.slow
def test_the_correct_samplers_pass_on_20_seeds():
    """The seed-dependent checks only (the exact ones are the same on every seed), at
    δ = 1e-6 / 240 each: family-wise false-FAIL probability <= 1e-6 (module docstring)."""
    delta = 1e-6 / 240
    for name in CORRECT:
        module = MODULES[name]
        statistical = [c for c in estimator_checks(module.est, module.CLAIMS, delta=delta)
                       if c.delta > 0]
        assert 1 <= len(statistical) <= 3, [c.id for c in statistical]
        for seed in range(20):
            for check in statistical:
                record = run(check, seed, "fast")
                prop = record.id.split(".", 1)[1]
                expected = "INCONCLUSIVE" if (name, prop) in UNDECIDABLE else "PASS"
                assert record.status == expected, (name, seed, record.id, record.figures)


def test_laocheck_check_catches_every_broken_sampler_and_passes_the_correct(capsys, monkeypatch):
    """Through the command line (in process: the same code path as the `laocheck` script)."""
    monkeypatch.chdir(ZOO_DIR.parents[2])
    for name, module in MODULES.items():
        code = main(["check", f"tests.testing.zoo.{name}:est", "--claims",
                     _json(module.CLAIMS), "--seed", "0"])
        out = capsys.readouterr().out
        if module.BROKEN:
            assert code == 1 and f".{module.BROKEN}: FAIL" in out, (name, out)
        elif name == "gaussian_dither":
            assert code == 1 and "INCONCLUSIVE" in out and "--allow-inconclusive" in out
            assert main(["check", f"tests.testing.zoo.{name}:est", "--claims",
                         _json(module.CLAIMS), "--allow-inconclusive"]) == 0
            capsys.readouterr()
        else:
            assert code == 0, (name, out)


def _json(claims):
    return json.dumps(claims)


SUITE = '''
import importlib
import pkgutil

import zoo
from laocheck.testing import parametrize_with_checks

MODULES = [importlib.import_module("zoo." + m.name) for m in pkgutil.iter_modules(zoo.__path__)]


@parametrize_with_checks([m.est for m in MODULES],
                         claims=lambda est: next(m.CLAIMS for m in MODULES if m.est is est))
def test_zoo(estimator, check):
    check(estimator)
'''


def test_parametrize_with_checks_catches_every_broken_sampler(pytester):
    """In a pytest subprocess with the plugin: test ids <label>-<property>; each broken
    sampler's check FAILs, every check of the correct ones passes (but the one claim a
    continuous sampler cannot have decided, which fails as undecided: never a silent pass)."""
    pkg = pytester.mkpydir("zoo")
    for path in ZOO_DIR.glob("*.py"):
        (pkg / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    pytester.makepyfile(test_suite=SUITE)
    installed = any(ep.name == "laocheck" for ep in entry_points(group="pytest11"))
    plugin = [] if installed else ["-p", "laocheck.testing.plugin"]
    result = pytester.runpytest_subprocess(*plugin, "-p", "no:cacheprovider", "-q",
                                           "--junitxml=zoo.xml")
    outcomes = {}
    for case in ET.parse(pytester.path / "zoo.xml").getroot().iter("testcase"):
        test_id = case.get("name")[len("test_zoo["):-1]
        kinds = {child.tag for child in case} & {"failure", "error", "skipped"}
        outcomes[test_id] = kinds.pop() if kinds else "passed"
    assert "error" not in outcomes.values() and "skipped" not in outcomes.values()
    assert len(outcomes) == len(set(outcomes))
    for name, module in MODULES.items():
        label = type(module.est).__name__
        mine = {t[len(label) + 1:]: o for t, o in outcomes.items() if t.startswith(label + "-")}
        assert mine, (name, sorted(outcomes))
        if module.BROKEN:
            assert mine[module.BROKEN] == "failure", (name, mine)
        else:
            expected = {p: ("failure" if (name, p) in UNDECIDABLE else "passed") for p in mine}
            assert mine == expected, (name, mine)
    assert result.ret == 1


def test_laocheck_check_refuses_a_module_that_does_not_import(tmp_path, monkeypatch, capsys):
    """Issue 36: a SyntaxError in the user's module is a usage error (exit 2, one line)."""
    (tmp_path / "broken_syntax.py").write_text("def sample(:\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert main(["check", "broken_syntax:est"]) == 2
    err = capsys.readouterr().err
    assert "SyntaxError" in err and "Traceback" not in err and len(err.splitlines()) == 1
