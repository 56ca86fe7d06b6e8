"""laocheck's pytest plugin (registered through the ``pytest11`` entry point).

Options: ``--laocheck-seed`` (default 0), ``--laocheck-budget`` (``fast`` or ``full``),
``--laocheck-delta`` (each statistical check's false-failure probability, <= 1e-6). Fixtures:
``laocheck_rng`` (a ``numpy.random.Generator`` from ``SeedSequence(seed)`` with a spawn key
derived from the test's node id, so the same seed gives the same numbers whatever runs before),
``laocheck_options``, ``laocheck_baseline`` (compare an estimator with a saved baseline).
A failing laocheck check (``check_estimator``, ``parametrize_with_checks``)
adds a section with its citation, figures and the command reproducing it, and the terminal
summary lists them.

The plugin does nothing for a test suite that uses none of this: its hooks only look at
laocheck's own failures.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from ..checks import BUDGETS
from ..exceptions import InvalidParameterError
from ..stats import DEFAULT_DELTA
from . import _pytest
from ._checks import CheckFailure, UserCodeError
from .baseline import BROKEN, UNDECIDED, baseline_path, compare_baseline, save_baseline

_FAILURES_KEY = pytest.StashKey[list]()


def _delta(text):
    value = float(text)
    if not 0 < value <= 1e-6:
        raise InvalidParameterError(
            f"`--laocheck-delta` must satisfy 0 < delta <= 1e-6; got {text}.")
    return value


def _seed(text):
    value = int(text)
    if value < 0:
        raise InvalidParameterError(f"`--laocheck-seed` must be an integer >= 0; got {text}.")
    return value


def pytest_addoption(parser):
    group = parser.getgroup("laocheck", "laocheck: the papers' claims on your estimators")
    group.addoption("--laocheck-seed", type=_seed, default=0, metavar="SEED",
                    help="seed of laocheck's checks and of the laocheck_rng fixture. Default: 0.")
    group.addoption("--laocheck-budget", choices=BUDGETS, default="fast",
                    help="sample sizes of laocheck's checks. Default: fast.")
    group.addoption("--laocheck-delta", type=_delta, default=DEFAULT_DELTA, metavar="DELTA",
                    help="false-failure probability of each statistical check (<= 1e-6). "
                    f"Default: {DEFAULT_DELTA:g}.")


def pytest_configure(config):
    _pytest.OPTIONS.update(seed=config.getoption("laocheck_seed"),
                           budget=config.getoption("laocheck_budget"),
                           delta=config.getoption("laocheck_delta"))
    config.stash[_FAILURES_KEY] = []


@pytest.fixture
def laocheck_options():
    """The run's ``{"seed", "budget", "delta"}``."""
    return dict(_pytest.OPTIONS)


@pytest.fixture
def laocheck_rng(request):
    """A Generator from ``SeedSequence(--laocheck-seed)`` with a spawn key derived from the
    test's node id (SHA-256): reproducible, independent across tests and of their order."""
    digest = hashlib.sha256(request.node.nodeid.encode("utf-8")).digest()
    key = tuple(int.from_bytes(digest[i:i + 4], "little") for i in range(0, 16, 4))
    return np.random.default_rng(np.random.SeedSequence(_pytest.OPTIONS["seed"], spawn_key=key))


@pytest.fixture
def laocheck_baseline(request):
    """``laocheck_baseline(estimator, name, claims=None, directory=<rootdir>/laocheck-baselines)``
    compares ``estimator`` with baseline ``name`` (:func:`laocheck.testing.baseline.
    compare_baseline`) and returns the comparisons; an AssertionError lists the BROKEN ones and
    those CHANGED, CORRECTNESS UNDECIDED (a sampled baseline without a second-moment bound). A
    missing baseline is saved and the test fails once, asking to review and commit it."""
    def compare(estimator, name, *, claims=None, directory=None):
        path = baseline_path(name, directory or request.config.rootpath / "laocheck-baselines")
        o = _pytest.OPTIONS
        if not path.exists():
            save_baseline(estimator, path, seed=o["seed"], budget=o["budget"], claims=claims,
                          delta=o["delta"])
            pytest.fail(f"laocheck baseline {name!r} did not exist; written to {path}: review "
                        "it, commit it and run again.")
        results = compare_baseline(estimator, path, seed=o["seed"], claims=claims,
                                   delta=o["delta"])
        broken = [r for r in results if r.verdict in (BROKEN, UNDECIDED)]
        assert not broken, f"baseline {name!r}: " + "; ".join(
            f"{r.instance}: {r.verdict}, claim {r.claim}, counterexample {r.counterexample}"
            for r in broken)
        return results
    return compare


def _reproduce(nodeid):
    o = _pytest.OPTIONS
    return (f"pytest '{nodeid}' --laocheck-seed {o['seed']} --laocheck-budget {o['budget']} "
            f"--laocheck-delta {o['delta']:g}")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if call.excinfo is None or not isinstance(call.excinfo.value, (CheckFailure, UserCodeError)):
        return
    if report.outcome != "failed":
        return
    lines = []
    for record in call.excinfo.value.records:
        lines.append(f"{record.id}: {record.status} — {record.citation}")
        lines.append(f"    figures: {record.figures}")
        lines.append(f"    delta {record.delta:g}; smallest detectable violation: "
                     f"{record.detectable}")
    lines.append(f"reproduce: {_reproduce(item.nodeid)}")
    report.sections.append(("laocheck", "\n".join(lines)))
    item.config.stash[_FAILURES_KEY].append(
        (item.nodeid, [(r.id, r.citation) for r in call.excinfo.value.records]))


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    failures = config.stash.get(_FAILURES_KEY, [])
    if not failures:
        return
    terminalreporter.section("laocheck failures")
    for nodeid, records in failures:
        for cid, citation in records:
            terminalreporter.write_line(f"{cid} ({citation})")
        terminalreporter.write_line(f"    reproduce: {_reproduce(nodeid)}")
