"""laocheck's pytest plugin (registered through the ``pytest11`` entry point).

Options: ``--laocheck-seed`` (default 0), ``--laocheck-effort`` (an effort profile of
:mod:`laocheck.effort`: ``tiny``, ``fast``, ``full`` or one the suite registers; default
``fast``; ``--laocheck-budget``, its spelling before 0.1, warns), ``--laocheck-delta`` (each
statistical check's false-failure probability, <= 1e-6). Fixtures:
``laocheck_rng`` (a ``numpy.random.Generator`` from ``SeedSequence(seed)`` with a spawn key
derived from the test's node id, so the same seed gives the same numbers whatever runs before),
``laocheck_options``, ``laocheck_baseline`` (compare an estimator with a saved baseline).
A failing laocheck check (``check_estimator``, ``parametrize_with_checks``)
adds a section with the command rerunning the test at the run's options (the failure's message
says what was claimed, what was measured and on which instance), and the terminal summary
lists them.

The plugin does nothing for a test suite that uses none of this: its hooks only look at
laocheck's own failures. Pytest loads it in every run of every project where laocheck is
installed, so, as hypothesis' plugin, it is a small module whose import costs nothing: it
imports neither numpy, sympy, scipy, matplotlib, scikit-learn nor laocheck's checks
(``tests/testing/test_plugin_import_cost.py``). Each is imported on first use: numpy by
``laocheck_rng``, the checks by an option given on the command line or a fixture that needs
them; a run whose options are the defaults sets nothing (``parametrize_with_checks`` starts
from the same defaults), and a CheckFailure can only have been raised once
``laocheck.testing._checks`` is imported.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
import warnings

import pytest

from ..effort import deprecated, profiles
from ..exceptions import InvalidParameterError

_FAILURES_KEY = pytest.StashKey[list]()
_GIVEN_KEY = pytest.StashKey[dict]()
#: the options' defaults (the delta's is ``laocheck.stats.DEFAULT_DELTA``, read on first use);
#: ``laocheck.testing._pytest.OPTIONS`` starts from the same values
_DEFAULTS = {"seed": 0, "effort": "fast"}
#: the module whose OPTIONS ``parametrize_with_checks`` reads, and the one defining CheckFailure
_PYTEST, _CHECKS = "laocheck.testing._pytest", "laocheck.testing._checks"


def _delta(text):
    value = float(text)
    if not 0 < value <= 1e-6:
        _fail(f"`--laocheck-delta` must satisfy 0 < delta <= 1e-6; got {text}.")
    return value


def _seed(text):
    value = int(text)
    if value < 0:
        _fail(f"`--laocheck-seed` must be an integer >= 0; got {text}.")
    return value


def _effort(text):
    # a plain name here; pytest_configure checks it is registered (after the conftest.py
    # files, which may register the suite's own profiles, are loaded)
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,50}", text):
        _fail(f"`--laocheck-effort` must name an effort profile (tiny, fast, full or a "
              f"registered one); got {text!r}.")
    return text


def _budget(text):
    # --laocheck-budget, deprecated: pytest_configure warns (pytest's own channel for it)
    return _effort(text)


class _Options(dict):
    """The run's options; the key ``"budget"`` (before 0.1) warns and reads ``"effort"``."""

    def __getitem__(self, key):
        if key == "budget":
            warnings.warn(deprecated("laocheck_options['budget']", "laocheck_options['effort']"),
                          DeprecationWarning, stacklevel=2)
            key = "effort"
        return super().__getitem__(key)


def _fail(message):
    raise InvalidParameterError(message)


def pytest_addoption(parser):
    group = parser.getgroup("laocheck", "laocheck: the papers' claims on your estimators")
    group.addoption("--laocheck-seed", type=_seed, default=None, metavar="SEED",
                    help="seed of laocheck's checks and of the laocheck_rng fixture. Default: 0.")
    group.addoption("--laocheck-effort", type=_effort, default=None, metavar="PROFILE",
                    help="effort profile of laocheck's checks (laocheck.effort: tiny, fast, "
                    "full or a registered one). Default: fast.")
    group.addoption("--laocheck-budget", type=_budget, default=None, dest="laocheck_budget",
                    help=argparse.SUPPRESS)
    group.addoption("--laocheck-delta", type=_delta, default=None, metavar="DELTA",
                    help="false-failure probability of each statistical check (<= 1e-6). "
                    "Default: laocheck.stats.DEFAULT_DELTA, 1e-06.")


def pytest_configure(config):
    given = {name: config.getoption(f"laocheck_{name}") for name in ("seed", "effort", "delta")}
    if config.getoption("laocheck_budget") is not None:      # the spelling before 0.1
        config.issue_config_time_warning(DeprecationWarning(
            deprecated("--laocheck-budget", "--laocheck-effort")), stacklevel=2)
        if given["effort"] is None:
            given["effort"] = config.getoption("laocheck_budget")
    config.stash[_GIVEN_KEY] = {name: v for name, v in given.items() if v is not None}
    if given["effort"] is not None and given["effort"] not in profiles():
        raise pytest.UsageError(
            f"`--laocheck-effort` must be one of the registered effort profiles "
            f"{list(profiles())} (laocheck.effort.register_profile in a conftest.py adds one); "
            f"got {given['effort']!r}.")
    config.stash[_FAILURES_KEY] = []
    # parametrize_with_checks reads laocheck.testing._pytest.OPTIONS, which starts from the
    # defaults: set them when an option was given, or when it is loaded already (an earlier
    # in-process run may have changed them)
    if config.stash[_GIVEN_KEY] or _PYTEST in sys.modules:
        _options(config)


def _options(config):
    """The run's ``{"seed", "effort", "delta"}``, also set as what ``parametrize_with_checks``
    reads (``laocheck.testing._pytest.OPTIONS``)."""
    # start-up time: laocheck's checks load on first use, not with the plugin
    from . import _pytest
    from ..stats import DEFAULT_DELTA  # start-up time (numpy)
    options = {**_DEFAULTS, "delta": DEFAULT_DELTA, **config.stash[_GIVEN_KEY]}
    _pytest.OPTIONS.update(options)
    return _Options(options)


@pytest.fixture
def laocheck_options(request):
    """The run's ``{"seed", "effort", "delta"}`` (``"effort"``: the profile's name)."""
    return _options(request.config)


@pytest.fixture
def laocheck_rng(request):
    """A Generator from ``SeedSequence(--laocheck-seed)`` with a spawn key derived from the
    test's node id (SHA-256): reproducible, independent across tests and of their order."""
    # start-up time: numpy is imported by the first test that asks for the fixture
    import numpy as np
    seed = request.config.stash[_GIVEN_KEY].get("seed", _DEFAULTS["seed"])
    digest = hashlib.sha256(request.node.nodeid.encode("utf-8")).digest()
    key = tuple(int.from_bytes(digest[i:i + 4], "little") for i in range(0, 16, 4))
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=key))


@pytest.fixture
def laocheck_baseline(request):
    """``laocheck_baseline(estimator, name, claims=None, directory=<rootdir>/laocheck-baselines)``
    compares ``estimator`` with baseline ``name`` (:func:`laocheck.testing.baseline.
    compare_baseline`) and returns the comparisons; an AssertionError lists the BROKEN ones and
    those CHANGED, CORRECTNESS UNDECIDED (a sampled baseline without a second-moment bound). A
    missing baseline is saved and the test fails once, asking to review and commit it."""
    # start-up time: the baselines load with the first test that asks for the fixture
    from .baseline import BROKEN, UNDECIDED, baseline_path, compare_baseline, save_baseline

    def compare(estimator, name, *, claims=None, directory=None):
        path = baseline_path(name, directory or request.config.rootpath / "laocheck-baselines")
        o = _options(request.config)
        if not path.exists():
            save_baseline(estimator, path, seed=o["seed"], effort=o["effort"], claims=claims,
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


def _reproduce(config, nodeid):
    o = _options(config)
    return (f"pytest '{nodeid}' --laocheck-seed {o['seed']} --laocheck-effort {o['effort']} "
            f"--laocheck-delta {o['delta']:g}")


def _check_failure(excinfo):
    """Whether ``excinfo`` is a laocheck CheckFailure or UserCodeError (none can be before
    laocheck's checks are imported, so nothing is imported to tell)."""
    checks = sys.modules.get(_CHECKS)
    return (excinfo is not None and checks is not None
            and isinstance(excinfo.value, (checks.CheckFailure, checks.UserCodeError)))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if not _check_failure(call.excinfo) or report.outcome != "failed":
        return
    # the exception's message already says what was claimed, measured and on which instance:
    # the section adds only the command that reruns this test at the run's options
    report.sections.append(("laocheck", f"rerun: {_reproduce(item.config, item.nodeid)}"))
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
        terminalreporter.write_line(f"    rerun: {_reproduce(config, nodeid)}")
