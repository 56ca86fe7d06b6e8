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
    assert {"seed", "effort", "delta", "provenance"} <= set(doc["run"])
    assert doc["run"]["seed"] == 3 and doc["run"]["effort"] == "fast"
    prov = doc["run"]["provenance"]
    assert prov["laocheck"] == __version__ and prov["seed"] == 3 and prov["effort"] == "fast"
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


def test_progress_in_a_log_is_plain_lines_at_most_every_minute(monkeypatch, capsys):
    """stderr not a terminal (capsys, a CI log, nohup): no carriage returns, a line at the
    start, one when PLAIN_EVERY seconds have passed since the last, and the final count."""
    from laocheck import _progress
    from laocheck.cli import _common

    now = [100.0]
    monkeypatch.setattr(_progress.time, "monotonic", lambda: now[0])
    with _common.progress("checks", 4) as bar:
        for step in (10.0, 30.0, 25.0, 1.0):         # the second item ends at t = 40, ...
            now[0] += step
            bar.advance("a check", state="2 running")
    err = capsys.readouterr().err
    assert "\r" not in err
    assert err.splitlines() == [
        "checks: 0/4 (0%), elapsed 0:00:00",
        "checks: 3/4 (75%), elapsed 0:01:05, eta 0:00:22, 2 running",    # 65 s >= 60 s
        "checks: 4/4 (100%), elapsed 0:01:06, 2 running"]


@pytest.mark.parametrize("argv", [
    ["verify", "--effort", "medium"], ["verify", "--jobs", "0"], ["verify", "--seed", "-1"],
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


def test_long_checks_are_submitted_first_and_records_stay_in_id_order(monkeypatch):
    """verify submits the long checks (replicates, long samplers) first, so a run on a few
    workers does not end with one of them alone; the records come back in id order."""
    from laocheck import _execution
    from laocheck.checks import checks
    from laocheck.checks import _runner as verify_module   # the runner moved below the cli
    selected = checks("HK12.Thm3.1*") + checks("HK12.Lemma3.3*")
    submitted = []
    real = _execution.LocalExecutor.imap_unordered

    def spy(self, fn, arglist, names=None):
        arglist = list(arglist)
        submitted.extend(args[0] for args in arglist)
        return real(self, fn, arglist, names)

    monkeypatch.setattr(_execution.LocalExecutor, "imap_unordered", spy)
    monkeypatch.setattr(verify_module, "run", lambda check, seed, effort: check.id)
    ids = [c.id for c in selected]
    assert verify_module.run_catalog(selected, 0, "fast", 1) == ids
    # longest first by the recorded CPU seconds (checks/_durations.json)
    known = verify_module.recorded_durations("fast")
    assert set(ids) <= set(known)
    assert submitted == sorted(ids, key=lambda i: (-known[i], i))
    assert known[submitted[0]] > known[submitted[-1]]


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


# ------------------------------------------------- issue 13, section 4: one test per defect
def _one_line(err):
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    return lines[0]


def test_verify_unwritable_json_is_a_usage_error_before_any_work(monkeypatch, capsys):
    from laocheck.cli import verify as verify_module

    def never(*args, **kwargs):
        raise AssertionError("the catalog ran although the output path is unwritable")

    monkeypatch.setattr(verify_module, "run_catalog", never)
    assert main(["verify", "--json", "/no/such/dir/out.json", "--no-progress"]) == 2
    line = _one_line(capsys.readouterr().err)
    assert "`--json`" in line and "/no/such/dir" in line and "Traceback" not in line


@pytest.mark.parametrize("argv", [["list", "--json", "/no/such/dir/l.json"],
                                  ["bounds", "--json", "/no/such/dir/b.json"],
                                  ["bounds", "--rho", "--json", "/no/such/dir/b.json"]])
def test_every_writing_command_checks_its_output_path_first(argv, capsys):
    assert main(argv) == 2
    assert "`--json`" in _one_line(capsys.readouterr().err)


def test_atomic_write_leaves_the_old_file_whole_when_interrupted(tmp_path, monkeypatch):
    from laocheck import _io

    path = tmp_path / "out.json"
    path.write_text('{"old": true}\n')

    def interrupted(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(_io.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        _io.write_json_atomic(path, {"new": list(range(10 ** 5))})
    assert json.loads(path.read_text()) == {"old": True}
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]      # no temporary file left


def test_ctrl_c_exits_130_with_one_line_saying_what_finished(scratch_registry, capsys):
    from laocheck.checks import Result, Status, register

    @register("Test.a_done", citation="none", statement="true", method="m")
    def done(ctx):
        return Result(Status.PASS, {"x": 1})

    @register("Test.b_interrupted", citation="none", statement="true", method="m")
    def interrupted(ctx):
        raise KeyboardInterrupt

    assert main(["verify", "--only", "Test.*", "--no-progress"]) == 130
    line = _one_line(capsys.readouterr().err)
    assert "interrupted by Ctrl-C" in line and "1 of 2 checks" in line
    assert "Traceback" not in line


def test_sigterm_exits_143_with_one_line(scratch_registry, capsys):
    import os
    import signal

    from laocheck.checks import Result, Status, register

    @register("Test.terminated", citation="none", statement="true", method="m")
    def terminated(ctx):
        os.kill(os.getpid(), signal.SIGTERM)
        return Result(Status.PASS, {})

    previous = signal.getsignal(signal.SIGTERM)
    assert main(["verify", "--only", "Test.*", "--no-progress"]) == 143
    assert "interrupted by SIGTERM" in _one_line(capsys.readouterr().err)
    assert signal.getsignal(signal.SIGTERM) == previous           # the handler is restored


def test_sigterm_with_two_jobs_shuts_the_workers_down_cleanly(tmp_path):
    """A real ``laocheck verify --jobs 2`` terminated while its workers run: status 143, one
    line on stderr, no leaked-semaphore warning, no traceback, no JSON file."""
    import signal
    import time

    script = Path(sys.executable).with_name("laocheck")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "laocheck"]
    out = tmp_path / "v.json"
    proc = subprocess.Popen(command + ["verify", "--jobs", "2", "--no-progress", "--json",
                                       str(out)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=tmp_path, text=True)
    deadline = time.monotonic() + 240
    # wait for the two workers (the children named LokyProcess: the two resource trackers
    # are children too, and a worker still starting when the signal comes may leave a
    # semaphore behind) ...
    while time.monotonic() < deadline:
        workers = subprocess.run(["pgrep", "-P", str(proc.pid), "-f", "LokyProcess"],
                                 capture_output=True, text=True).stdout.split()
        if len(workers) >= 2:
            break
        time.sleep(0.5)
    log = tmp_path / "v.results.jsonl"                 # ... and for two finished checks
    while time.monotonic() < deadline and proc.poll() is None:
        if log.exists() and log.read_text().count("\n") >= 2:
            break
        time.sleep(0.05)
    assert proc.poll() is None, "the run ended before it could be terminated"
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 143, err
    assert "interrupted by SIGTERM" in _one_line(err)
    assert "leaked" not in err and "Traceback" not in err
    assert not out.exists()


@pytest.mark.parametrize("argv, rule", [
    (["--d", "0"], "`--d` must be an integer >= 1"),
    (["--B", "-1"], "`--B` must be a number with 1e-40 <= B <= 1e+40"),
    (["--B", "nan"], "`--B` must be a number with 1e-40 <= B <= 1e+40"),
    (["--delta", "2"], "`--delta` must be a number with 0 < delta < 1"),
    (["--R", "0"], "`--R` must be an integer >= 1"),
    (["--jobs", "0"], "`--jobs` must be an integer >= 1"),
    (["--k", "5", "--d", "3"], "`--k` must satisfy 1 <= k <= d"),
])
def test_bounds_rejects_bad_arguments_with_the_allowed_range(argv, rule, capsys):
    try:
        code = main(["bounds"] + argv)
    except SystemExit as exc:
        code = exc.code
    assert code == 2
    assert rule in _one_line(capsys.readouterr().err)


def test_bounds_shows_progress_without_carriage_returns(capsys):
    assert main(["bounds", "--d", "4", "--k", "2", "--m", "20", "--R", "2"]) == 0
    captured = capsys.readouterr()
    assert "HK12.Thm3.1" in captured.out
    assert "bounds" in captured.err and "/10" in captured.err and "\r" not in captured.err


def test_verify_failure_summary_ends_the_output(scratch_registry, capsys):
    from laocheck.checks import Result, Status, register

    @register("Test.refuted", citation="Paper Lemma 9", statement="E[X] <= 1", method="m")
    def refuted(ctx):
        return Result(Status.FAIL, {"lower_confidence_bound": 1.5, "bound": 1.0},
                      counterexample={"x": [1, 2]})

    assert main(["verify", "--only", "test.REFUTED", "--seed", "4", "--no-progress"]) == 1
    out = capsys.readouterr().out
    summary = out[out.index("Failures (1)"):]
    assert out.rstrip().endswith(summary.rstrip())
    for text in ("Test.refuted", "Paper Lemma 9", "lower_confidence_bound=1.5", "bound=1",
                 '{"x": [1, 2]}', "laocheck verify --only Test.refuted --seed 4 --effort fast"):
        assert text in summary


def test_verify_progress_is_not_carriage_return_spam_off_a_terminal(scratch_registry, capsys):
    from laocheck.checks import Result, Status, register

    for i in range(3):
        register(f"Test.p{i}", citation="none", statement="true", method="m")(
            lambda ctx: Result(Status.PASS, {}))
    assert main(["verify", "--only", "Test.p*"]) == 0
    err = capsys.readouterr().err
    assert "3/3" in err and "\r" not in err and len(err.splitlines()) <= 2


def test_list_match_is_case_insensitive_and_nothing_matched_is_an_error(capsys):
    assert main(["list", "--match", "genest"]) == 0
    assert "HK12.GenEst.derivative" in capsys.readouterr().out
    assert main(["list", "--match", "hk12.lemma3.3.EQ9", "--checks"]) == 0
    assert "HK12.Lemma3.3.eq9" in capsys.readouterr().out
    assert main(["list", "--match", "no-such-name"]) == 2
    assert "matches no" in _one_line(capsys.readouterr().err)


def test_verify_only_is_case_insensitive(capsys):
    assert main(["verify", "--only", "hk12.lemma3.3.EQ9", "--no-progress"]) == 0
    assert "HK12.Lemma3.3.eq9" in capsys.readouterr().out


def test_checks_and_run_on_refuse_a_pattern_matching_nothing():
    from laocheck import checks as catalog
    from laocheck.exceptions import InvalidParameterError

    assert [c.id for c in catalog.checks("hk12.lemma3.3.eq9")] == ["HK12.Lemma3.3.eq9"]
    with pytest.raises(InvalidParameterError, match="`pattern` 'nope\\*' matches no check"):
        catalog.checks("nope*")
    est = estimators.get("HK12.AERR.gradient", k=2)
    with pytest.raises(ValueError, match="`pattern`"):
        catalog.run_on(est, "nope*")
    with pytest.raises(ValueError, match="`pattern`"):
        catalog.run_on(est, "CB11.Lemma8.expectation")          # matches, but takes no estimator


@pytest.mark.parametrize("counts,allow,status", [
    ({"PASS": 3}, False, 0),
    ({"PASS": 2, "FAIL": 1}, False, 1),
    ({"PASS": 2, "INCONCLUSIVE": 1}, False, 1),
    ({"PASS": 2, "INCONCLUSIVE": 1}, True, 0),
    ({"INCONCLUSIVE": 3}, True, 1),              # nothing decided: never exit 0 (issue 48)
    ({"PASS": 2, "FAIL": 1, "ERROR": 1}, False, 4),   # the user's code raised: not a verdict
])
def test_check_exit_status(counts, allow, status, capsys):
    from laocheck.cli.check import exit_status
    assert exit_status(counts, allow) == status
    if status != 0 and "FAIL" not in counts:
        assert f"exit {status}" in capsys.readouterr().out       # the line saying why


def test_verify_and_check_document_the_exit_statuses():
    for command in ("verify", "check"):
        out = subprocess.run([sys.executable, "-m", "laocheck", command, "--help"],
                             capture_output=True, text=True, check=True).stdout
        assert "4" in out and "ERROR" in out and "exit status" in out, command
