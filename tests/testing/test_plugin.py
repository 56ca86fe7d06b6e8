"""The pytest plugin and parametrize_with_checks, run in a pytest subprocess (pytester)."""
import pathlib
import time
import tomllib
import xml.etree.ElementTree as ET
from importlib.metadata import entry_points

import pytest

from .mutants import UNALTERED, ZOO

pytest_plugins = ["pytester"]
ROOT = pathlib.Path(__file__).resolve().parents[2]
USER_CODE = (pathlib.Path(__file__).with_name("user_estimators.py")).read_text(encoding="utf-8")
ZOO_CODE = (pathlib.Path(__file__).with_name("mutants.py")).read_text(encoding="utf-8")


def _plugin_args():
    """``-p laocheck.testing.plugin`` unless the installed entry point loads it already."""
    installed = any(ep.name == "laocheck" for ep in entry_points(group="pytest11"))
    return [] if installed else ["-p", "laocheck.testing.plugin"]


def test_the_plugin_is_registered_through_the_pytest11_entry_point():
    doc = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert doc["project"]["entry-points"]["pytest11"] == {"laocheck": "laocheck.testing.plugin"}


SUITE = '''
from laocheck.testing import parametrize_with_checks
from user_estimators import UserAERRGradient

CORRECT = UserAERRGradient(k=2, name="correct")
BROKEN = UserAERRGradient(k=2, name="broken", weight=lambda d: d - 1)   # the d − 1 slip


@parametrize_with_checks([CORRECT, BROKEN], claims={"unbiased": True})
def test_laocheck(estimator, check):
    check(estimator)


def test_rng(laocheck_rng, laocheck_options):
    print("DRAW", laocheck_rng.random(), laocheck_options["seed"])
'''


def test_parametrize_with_checks_and_the_failure_summary(pytester):
    pytester.makepyfile(user_estimators=USER_CODE, test_suite=SUITE)
    result = pytester.runpytest_subprocess(*_plugin_args(), "-p", "no:cacheprovider",
                                           "--laocheck-seed", "5", "-s", "-q")
    outcomes = result.parseoutcomes()
    # correct: unbiased.exact, unbiased.monte_carlo, budget, kernel_matches_reference pass;
    # broken: unbiased.exact and unbiased.monte_carlo fail (the budget and the sampler's
    # agreement with its own reference still hold)
    assert outcomes.get("failed") == 2 and outcomes.get("passed") == 4 + 2 + 1, result.stdout.str()
    out = result.stdout.str()
    assert "test_laocheck[broken-unbiased.exact" in out
    assert "laocheck failures" in out and "broken.unbiased.exact" in out
    assert "rerun: pytest" in out and "--laocheck-seed 5" in out
    assert "smallest detectable violation" in out


def test_the_rng_fixture_is_keyed_by_seed_and_test(pytester):
    pytester.makepyfile(user_estimators=USER_CODE, test_suite=SUITE)

    def draw(seed):
        result = pytester.runpytest_subprocess(*_plugin_args(), "-p", "no:cacheprovider", "-s",
                                               "-q", "--laocheck-seed", str(seed),
                                               "test_suite.py::test_rng")
        line = [ln for ln in result.stdout.lines if ln.startswith("DRAW")][0]
        return line.split()[1:]
    first, again, other = draw(3), draw(3), draw(4)
    assert first == again and first[1] == "3"
    assert first[0] != other[0]


def test_a_suite_without_laocheck_is_untouched(pytester):
    pytester.makepyfile(test_plain="def test_ok():\n    assert 1 + 1 == 2\n")
    result = pytester.runpytest_subprocess(*_plugin_args(), "-p", "no:cacheprovider", "-q")
    result.assert_outcomes(passed=1)
    assert "laocheck" not in result.stdout.str()


def test_bad_options_are_usage_errors(pytester):
    pytester.makepyfile(test_plain="def test_ok():\n    pass\n")
    result = pytester.runpytest_subprocess(*_plugin_args(), "--laocheck-delta", "0.1")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "laocheck-delta" in result.stderr.str()


ZOO_SUITE = '''
from laocheck.testing import parametrize_with_checks
from mutants import UNALTERED, ZOO, claims_of

ESTIMATORS = [make() for _, make, _ in ZOO] + [make() for _, make in UNALTERED]


@parametrize_with_checks(ESTIMATORS, claims=claims_of)
def test_zoo(estimator, check):
    check(estimator)
'''


def _citation(est):
    """The citation a failure line must show: the wrapped spec's, else the user's own."""
    spec = getattr(est, "spec", None)
    return spec.citation if spec is not None else est.citation


@pytest.mark.slow
def test_every_zoo_mutant_is_caught_through_the_plugin(pytester):
    """Issue 12's acceptance: each mutant of the zoo caught through the pytest plugin (one
    pytest run of parametrize_with_checks over every mutant and every unaltered wrapper):
    each mutant has a failed test for every check that must catch it, every test of an
    unaltered wrapper passes, and the failure summary gives each failing check's citation
    and the command reproducing it. The statistical checks of the unaltered wrappers have
    δ = 1e-6 each (5 of them: family-wise 5e-6)."""
    relative = "from .user_estimators import UserAERRGradient"
    assert ZOO_CODE.count(relative) == 1
    pytester.makepyfile(user_estimators=USER_CODE, mutants=ZOO_CODE, test_zoo=ZOO_SUITE)
    start = time.perf_counter()
    result = pytester.runpytest_subprocess(*_plugin_args(), "-p", "no:cacheprovider", "-q",
                                           "--junitxml=zoo.xml")
    seconds = time.perf_counter() - start
    out = result.stdout.str()
    outcomes = {}                                   # test id -> "passed" / "failed" / ...
    for case in ET.parse(pytester.path / "zoo.xml").getroot().iter("testcase"):
        test_id = case.get("name")[len("test_zoo["):-1]
        kinds = {child.tag for child in case} & {"failure", "error", "skipped"}
        outcomes[test_id] = kinds.pop() if kinds else "passed"
    assert "error" not in outcomes.values() and "skipped" not in outcomes.values(), outcomes

    def of(est):
        return {t[len(est.name) + 1:]: o for t, o in outcomes.items()
                if t.startswith(est.name + "-")}       # ids <label>-<property>

    assert len(ZOO) >= 10
    for zoo_id, make, catches in ZOO:
        est = make()
        mine = of(est)
        failed = {prop for prop, o in mine.items() if o == "failure"}
        assert catches <= failed, (zoo_id, mine)
        for prop in failed:
            check_id, test_id = f"{est.name}.{prop}", f"{est.name}-{prop}"
            assert f"{check_id} ({_citation(est)})" in out, (check_id, out)
            assert f"rerun: pytest 'test_zoo.py::test_zoo[{test_id}]' --laocheck-seed 0" \
                in out, (test_id, out)
    for wrapper_id, make in UNALTERED:
        est = make()
        mine = of(est)
        assert mine and set(mine.values()) == {"passed"}, (wrapper_id, mine)
    assert "smallest detectable violation" in out
    print(f"zoo through the plugin: {len(outcomes)} tests in {seconds:.1f} s")
