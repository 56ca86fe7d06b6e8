"""``laocheck list --profiles``: the registered effort profiles (laocheck.effort) with their
parent and what they change, a user's profile loaded with ``--effort MODULE:NAME`` among them."""
import json
import sys

import pytest

from laocheck import effort
from laocheck.cli import main


@pytest.fixture
def registry():
    """The profile registry as the test found it, restored afterwards."""
    before = dict(effort._PROFILES)
    yield effort
    effort._PROFILES.clear()
    effort._PROFILES.update(before)


@pytest.fixture
def my_profiles(registry, tmp_path, monkeypatch):
    """A user's module registering two profiles, importable from the current directory."""
    (tmp_path / "my_profiles.py").write_text(
        "from laocheck import effort\n"
        "effort.register_profile('nightly', parent='full', runs=200)\n"
        "effort.register_profile('quick', parent='nightly', checks='fast', grid=(1.0, 4.0))\n")
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    sys.modules.pop("my_profiles", None)


def _rows(out):
    """{name: (parent, rest of the line)} of the table printed by ``list --profiles``."""
    rows = {}
    for line in out.splitlines()[1:]:
        if not line.strip():
            break
        name, parent, rest = line.split(None, 2)
        rows[name] = (parent, rest)
    return rows


def test_the_builtin_profiles_are_listed_with_all_their_fields(registry, capsys):
    assert main(["list", "--profiles"]) == 0
    rows = _rows(capsys.readouterr().out)
    assert list(rows) == ["tiny", "fast", "full"]
    assert all(parent == "-" for parent, _ in rows.values())
    assert rows["tiny"][1].startswith("checks=fast runs=2 prefixes=(0.5, 1.0) folds=2 ")
    assert "checks=full runs=90 " in rows["full"][1] and "max_train=None" in rows["full"][1]


def test_a_profile_loaded_with_effort_module_name_shows_what_differs(my_profiles, capsys):
    assert main(["list", "--profiles", "--effort", "my_profiles:nightly"]) == 0
    out = capsys.readouterr().out
    rows = _rows(out)
    assert list(rows) == ["tiny", "fast", "full", "nightly", "quick"]
    assert rows["nightly"] == ("full", "runs=200")
    assert rows["quick"] == ("nightly", "checks=fast grid=(1.0, 4.0)")
    assert "5 effort profiles" in out


def test_the_json_listing_has_fields_and_changes(my_profiles, capsys):
    assert main(["list", "--profiles", "--effort", "my_profiles:quick", "--match", "q*",
                 "--json", "-"]) == 0
    doc = json.loads(capsys.readouterr().out)
    (row,) = doc["profiles"]
    assert row["name"] == "quick" and row["parent"] == "nightly" and not row["builtin"]
    assert row["changes"] == {"checks": "fast", "grid": [1.0, 4.0]}
    assert row["fields"]["runs"] == 200 and row["fields"]["folds"] == 10
    assert doc["provenance"]["command"] == ["laocheck", "list", "--profiles", "--match", "q*"]


def test_a_profile_equal_to_its_parent_says_so(registry, capsys):
    effort.register_profile("copy", parent="tiny")
    assert main(["list", "--profiles", "--match", "copy"]) == 0
    assert _rows(capsys.readouterr().out) == {"copy": ("tiny", "(the same as its parent)")}


@pytest.mark.parametrize("argv, message", [
    (["list", "--effort", "fast"], "--effort only applies to --profiles"),
    (["list", "--profiles", "--match", "nothing-like-it"], "matches no effort profile"),
])
def test_usage_errors(argv, message, capsys):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_an_unknown_profile_or_module_is_a_usage_error(registry, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["list", "--profiles", "--effort", "no_such_module_here:nightly"])
    assert exc.value.code == 2
    assert "importing 'no_such_module_here' raised ModuleNotFoundError" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["list", "--profiles", "--checks"])          # one listing at a time
