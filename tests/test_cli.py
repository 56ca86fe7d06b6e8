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


# ------------------------------------------------------------------ list (checks) and verify
def test_list_shows_every_check_with_citation(capsys):
    from laocheck import checks as catalog
    assert main(["list", "--checks"]) == 0
    out = capsys.readouterr().out
    for check in catalog.checks():
        assert check.id in out
    assert "HK12 Lemma 3.3" in out and "ERRATUM" in out
    capsys.readouterr()
    assert main(["list", "--json", "-"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert len(doc["checks"]) == len(catalog.checks()) and doc["estimators"]


@pytest.fixture
def scratch_registry(monkeypatch):
    from laocheck.checks import _registry
    _registry.checks()                                   # discover the catalog first
    monkeypatch.setattr(_registry, "_CHECKS", dict(_registry._CHECKS))
    return _registry


def test_verify_json_schema_and_exit_0(tmp_path, capsys):
    path = tmp_path / "v.json"
    code = main(["verify", "--only", "HK12.Lemma3.3.*", "--only", "CB11.Lemma11.*", "--seed", "3",
                 "--json", str(path), "--no-progress"])
    assert code == 0
    out = capsys.readouterr().out
    assert "HK12.Lemma3.3.eq9" in out and "Errata (2)" in out and "ERRATUM" in out
    doc = json.loads(path.read_text())
    assert {"seed", "budget", "delta", "provenance"} <= set(doc["run"])
    assert doc["run"]["seed"] == 3 and doc["run"]["budget"] == "fast"
    prov = doc["run"]["provenance"]
    assert prov["laocheck"] == __version__ and prov["seed"] == 3 and prov["budget"] == "fast"
    assert {"commit", "machine", "versions", "python"} <= set(prov)
    assert prov["machine"]["cpu_count"] >= 1 and prov["versions"]["numpy"]
    ids = [c["id"] for c in doc["checks"]]
    assert ids == sorted(ids) and "CB11.Lemma11.text" in ids
    for c in doc["checks"]:
        assert {"id", "status", "citation", "statement", "figures", "delta", "seconds",
                "entropy", "spawn_key"} <= set(c)
    assert {r["id"] for r in doc["errata"]} == {"HK12.Lemma3.3.eq9", "CB11.Lemma11.text"}
    assert all(set(r) == {"id", "literal", "counterexample", "correction"} for r in doc["errata"])


def test_verify_exit_1_on_fail_and_progress_on_stderr(scratch_registry, capsys):
    from laocheck.checks import Result, Status, register

    @register("Test.always_fails", citation="none", statement="false", method="m")
    def always_fails(ctx):
        return Result(Status.FAIL, {"x": 1})

    assert main(["verify", "--only", "Test.*"]) == 1
    captured = capsys.readouterr()
    assert "Test.always_fails" in captured.out and "FAIL" in captured.out
    assert "1/1" in captured.err                       # the progress bar


@pytest.mark.parametrize("argv", [
    ["verify", "--budget", "medium"], ["verify", "--jobs", "0"], ["verify", "--seed", "-1"],
    ["verify", "--seed", "x"], ["verify", "--bogus"],
])
def test_verify_usage_errors_exit_2(argv):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2


def test_verify_only_matching_nothing_exits_2(capsys):
    assert main(["verify", "--only", "No.such.*", "--no-progress"]) == 2
    assert "matches no check" in capsys.readouterr().err


def test_verify_same_results_for_any_jobs(tmp_path, capsys):
    paths = [tmp_path / "j1.json", tmp_path / "j2.json"]
    for jobs, path in zip((1, 2), paths):
        assert main(["verify", "--only", "CB11.Lemma9.*", "--only", "KS15.Eq15", "--jobs",
                     str(jobs), "--seed", "11", "--json", str(path), "--no-progress"]) == 0
    a, b = (json.loads(p.read_text())["checks"] for p in paths)
    assert [(r["id"], r["status"], r["figures"]) for r in a] == \
        [(r["id"], r["status"], r["figures"]) for r in b]


def test_a_closed_pipe_ends_quietly(tmp_path):
    """``laocheck list | head -1``: no BrokenPipeError traceback, status 141 (128 + SIGPIPE).
    Run outside the source tree, so that the installed package is the one imported."""
    script = Path(sys.executable).with_name("laocheck")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "laocheck"]
    proc = subprocess.Popen(command + ["list"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=tmp_path)
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=120)
    assert "Traceback" not in err and "BrokenPipeError" not in err
    assert proc.returncode in (0, 141)
