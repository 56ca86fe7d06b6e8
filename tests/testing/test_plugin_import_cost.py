"""The pytest plugin costs nothing (issue 50 item 5): pytest imports it in every run of every
project where laocheck is installed, so importing it loads none of numpy, sympy, scipy,
matplotlib, scikit-learn or laocheck's checks; they load on first use, and the plugin's
options and fixtures still work. Measured with ``python -X importtime`` and in a pytest run."""
import subprocess
import sys
from importlib.metadata import entry_points

import pytest

pytest_plugins = ["pytester"]

#: what the plugin must not import (top-level packages, and laocheck's check catalog)
HEAVY = ("numpy", "sympy", "scipy", "matplotlib", "sklearn", "laocheck.checks")


def _heavy(modules):
    return sorted({m for m in modules for h in HEAVY if m == h or m.startswith(h + ".")})


def _imported(code):
    """The modules ``python -X importtime -c code`` imports (its stderr's third column)."""
    result = subprocess.run([sys.executable, "-X", "importtime", "-c", code],
                            capture_output=True, text=True, check=True)
    return [line.split("|")[2].strip() for line in result.stderr.splitlines()
            if line.startswith("import time:") and "|" in line][1:]   # [0] is the header


def _plugin_args():
    """``-p laocheck.testing.plugin`` unless the installed entry point loads it already."""
    installed = any(ep.name == "laocheck" for ep in entry_points(group="pytest11"))
    return [] if installed else ["-p", "laocheck.testing.plugin"]


def test_importing_the_plugin_imports_nothing_heavy():
    modules = _imported("import laocheck.testing.plugin")
    assert "laocheck.testing.plugin" in modules
    assert _heavy(modules) == []


def test_the_measure_sees_a_plugin_that_imports_a_heavy_module():
    """The bug the test is named for, planted: a plugin importing sympy at its top (as the
    one before issue 50 did through laocheck's checks) is caught by the same measure."""
    modules = _imported("import laocheck.testing.plugin, sympy")
    assert "sympy" in _heavy(modules)
    assert "laocheck.checks" in _heavy(_imported("import laocheck.testing.plugin, "
                                                 "laocheck.testing._pytest"))


SUITE = '''
import sys

HEAVY = {heavy!r}


def test_nothing_heavy_is_loaded():
    assert "laocheck.testing.plugin" in sys.modules             # the plugin is loaded
    heavy = sorted({{m for m in sys.modules for h in HEAVY if m == h or m.startswith(h + ".")}})
    print("HEAVY", heavy)
'''


def test_a_pytest_run_that_uses_no_laocheck_imports_nothing_heavy(pytester):
    pytester.makepyfile(test_plain=SUITE.format(heavy=HEAVY))
    result = pytester.runpytest_subprocess(*_plugin_args(), "-p", "no:cacheprovider", "-s",
                                           "-q")
    result.assert_outcomes(passed=1)
    assert "HEAVY []" in result.stdout.str()


RNG_SUITE = '''
import sys


def test_rng(laocheck_rng):
    print("DRAW", laocheck_rng.random(), "laocheck.checks" in sys.modules)


def test_options(laocheck_options):
    print("OPTIONS", laocheck_options["seed"], laocheck_options["effort"],
          laocheck_options["delta"])
'''


def test_the_fixtures_load_what_they_need_on_first_use(pytester):
    """laocheck_rng needs numpy only (not the checks), and the same seed gives the same draw;
    laocheck_options shows the options given and the defaults for the others."""
    pytester.makepyfile(test_suite=RNG_SUITE)

    def run(*options):
        result = pytester.runpytest_subprocess(*_plugin_args(), "-p", "no:cacheprovider", "-s",
                                               "-q", *options)
        result.assert_outcomes(passed=2)
        out = result.stdout.str()                    # -q's progress dots may precede a line
        draw = out.split("DRAW ", 1)[1].split()[:2]
        opts = out.split("OPTIONS ", 1)[1].split()[:3]
        return draw, opts
    (draw, checks), opts = run()
    assert checks == "False" and opts == ["0", "fast", "1e-06"]
    (again, _), opts = run("--laocheck-seed", "0", "--laocheck-effort", "full")
    assert again == draw and opts == ["0", "full", "1e-06"]
    (other, _), opts = run("--laocheck-seed", "7", "--laocheck-delta", "1e-7")
    assert other != draw and opts == ["7", "fast", "1e-07"]


@pytest.mark.parametrize("option, value", [("--laocheck-effort", "quick"),
                                           ("--laocheck-seed", "-1"),
                                           ("--laocheck-delta", "0.1")])
def test_a_bad_option_is_a_usage_error(pytester, option, value):
    pytester.makepyfile(test_plain="def test_ok():\n    pass\n")
    result = pytester.runpytest_subprocess(*_plugin_args(), "-p", "no:cacheprovider",
                                           f"{option}={value}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert option in result.stderr.str()


def test_the_plugin_s_defaults_are_those_parametrize_with_checks_starts_from():
    """A run with the default options sets nothing: parametrize_with_checks' own defaults
    (``laocheck.testing._pytest.OPTIONS``, fresh) must be the plugin's."""
    code = ("from laocheck.testing import _pytest, plugin; from laocheck.stats import "
            "DEFAULT_DELTA; assert _pytest.OPTIONS == {**plugin._DEFAULTS, 'delta': "
            "DEFAULT_DELTA}, _pytest.OPTIONS")
    subprocess.run([sys.executable, "-c", code], check=True)


OWN_PROFILE_CONFTEST = '''
from laocheck import effort

effort.register_profile("nightly", parent="fast", runs=48)
'''

OWN_PROFILE_SUITE = '''
def test_options(laocheck_options):
    print("EFFORT", laocheck_options["effort"])
'''


def test_a_suite_s_own_profile_and_the_deprecated_option(pytester):
    """A profile the suite registers in its conftest.py is accepted by --laocheck-effort; the
    spelling before 0.1, --laocheck-budget, still works with a DeprecationWarning naming the
    new option (pytest's warnings summary), and -W error makes it an error."""
    pytester.makeconftest(OWN_PROFILE_CONFTEST)
    pytester.makepyfile(test_suite=OWN_PROFILE_SUITE)

    def run(*options):
        return pytester.runpytest_subprocess(*_plugin_args(), "-p", "no:cacheprovider", "-s",
                                             *options)
    own = run("--laocheck-effort", "nightly")
    own.assert_outcomes(passed=1)
    assert "EFFORT nightly" in own.stdout.str()
    old = run("--laocheck-budget", "full")
    old.assert_outcomes(passed=1)
    out = old.stdout.str()
    assert "EFFORT full" in out and "DeprecationWarning" in out and "--laocheck-effort" in out
    strict = run("--laocheck-budget", "full", "-W", "error::DeprecationWarning")
    assert strict.ret != 0
