"""The ``laocheck`` command line: help, version, list, usage errors (exit status 2)."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from laocheck import __version__, estimators
from laocheck.cli import main


def test_version_and_help(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert __version__ in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    assert "list" in capsys.readouterr().out


def test_list_shows_every_estimator_with_citation(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for name in estimators.names():
        assert name in out
    assert "HK12 Alg. 1" in out and "CB11 Fig. 2" in out and "expected" in out


def test_list_json_and_match(tmp_path, capsys):
    path = tmp_path / "list.json"
    assert main(["list", "--match", "GenEst", "--json", str(path)]) == 0
    rows = json.loads(path.read_text())["estimators"]
    assert [r["name"] for r in rows] == ["HK12.GenEst.derivative"]
    assert rows[0]["budget_kind"] == "expected"
    capsys.readouterr()
    assert main(["list", "--json", "-"]) == 0
    assert len(json.loads(capsys.readouterr().out)["estimators"]) == len(estimators.names())


@pytest.mark.parametrize("argv", [[], ["nonsense"], ["list", "--bogus"]])
def test_usage_errors_exit_2(argv):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2


def test_console_entry_point_runs(tmp_path):
    """The installed ``laocheck`` script (or ``python -m laocheck`` where no script is
    installed) runs outside the source tree, so the installed package is the one imported."""
    script = Path(sys.executable).with_name("laocheck")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "laocheck"]
    result = subprocess.run(command + ["list", "--match", "AERR.gradient"], capture_output=True,
                            text=True, check=False, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "HK12.AERR.gradient" in result.stdout
