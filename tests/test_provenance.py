"""The commit in every result file's provenance (``laocheck._provenance.git_commit``): a source
checkout's own, else the one recorded when ``pip install .`` built the package, never a guess."""

import re
import sys
import types

import pytest

from laocheck import _provenance


def _fake_build(monkeypatch, commit, dirty):
    module = types.ModuleType("laocheck._build_commit")
    module.COMMIT, module.DIRTY = commit, dirty
    monkeypatch.setitem(sys.modules, "laocheck._build_commit", module)
    monkeypatch.setattr(_provenance, "_checkout_commit", lambda: None)


def test_an_installed_package_reports_the_commit_it_was_built_from(monkeypatch):
    _fake_build(monkeypatch, "a" * 40, False)
    assert _provenance.git_commit() == "a" * 40
    assert _provenance.provenance(seed=1)["commit"] == "a" * 40


def test_a_build_from_a_modified_checkout_is_marked_dirty(monkeypatch):
    _fake_build(monkeypatch, "b" * 40, True)
    assert _provenance.git_commit() == "b" * 40 + "+dirty"


def test_a_build_outside_git_reports_no_commit(monkeypatch):
    _fake_build(monkeypatch, None, None)
    assert _provenance.git_commit() is None


def test_the_checkout_wins_over_a_stale_build_record(monkeypatch):
    """An editable install runs the checkout's code: its HEAD, not what a build once saw."""
    module = types.ModuleType("laocheck._build_commit")
    module.COMMIT, module.DIRTY = "c" * 40, False
    monkeypatch.setitem(sys.modules, "laocheck._build_commit", module)
    monkeypatch.setattr(_provenance, "_checkout_commit", lambda: "d" * 40)
    assert _provenance.git_commit() == "d" * 40


def test_the_running_package_knows_its_commit():
    """This test suite runs from a git checkout, installed editable or with ``pip install .``:
    either way the commit is known (the non-editable install through the build record)."""
    commit = _provenance.git_commit()
    assert commit is not None and re.fullmatch(r"[0-9a-f]{40}(\+dirty)?", commit)


@pytest.mark.parametrize("value, expected", [("0123456789abcdef" * 2 + "01234567", True),
                                             ("x" * 40, False), ("0" * 39, False)])
def test_the_checkout_commit_is_only_a_full_hash(monkeypatch, value, expected):
    class Done:
        returncode, stdout = 0, value + "\n"

    monkeypatch.setattr(_provenance.subprocess, "run", lambda *a, **k: Done())
    assert _provenance._checkout_commit() == (value if expected else None)
