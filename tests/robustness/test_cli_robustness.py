"""Robustness of the ``laocheck`` command line (issue 13, section 4).

The rule, for every command (``list``, ``verify``, ``bounds``): an invocation with a bad
argument exits with status 2 and exactly one line on stderr that names the argument, before
any work (the catalog and the experiments are replaced by functions that fail the test if
called), never with a traceback. Hypothesis combines one bad argument with any number of
valid ones; the examples are fixed (derandomized), so the suite cannot flake.
"""
import contextlib
import io
import json
import os
import re
import signal
import string
import subprocess
import sys
import time
from pathlib import Path
from unittest import mock

import pytest

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from laocheck.experiments import rho as rho_module                # the command imports its workers
from laocheck.experiments import theorems as theorems_module      # where it runs them (start-up)
from laocheck.cli.bounds import MAX_D, MAX_M, MAX_R, MAX_WORK
from laocheck.cli import main
from laocheck.cli import verify as verify_module

SETTINGS = settings(max_examples=80, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])

words = st.text(alphabet=string.ascii_letters + string.digits + "_.-/ é∞", max_size=12)
not_ints = st.one_of(st.sampled_from(["", "x", "1.5", "nan", "inf", "1e400", "0x10", "one",
                                      "--", "١"]),
                     words.filter(lambda t: not t.strip().lstrip("+-").isdigit()))
non_positive_ints = st.integers(max_value=0).map(str)
negative_ints = st.integers(max_value=-1).map(str)
too_many_jobs = st.integers(min_value=1025, max_value=10 ** 400).map(str)
bad_reals = st.sampled_from(["nan", "inf", "-inf", "x", "", "1e400", "-1e400", "NaN"])
bad_paths = st.one_of(words.map(lambda w: f"/no-such-dir-laocheck/{w or 'x'}.json"),
                      st.sampled_from([".", "/", "/tmp", ""]))
no_match = words.map(lambda w: "zz-no-such-id-" + w.replace("*", "").replace("?", "")
                     .replace("[", ""))


def _bad(option, values):
    return st.tuples(st.just(option), values)


BAD = {
    "list": st.one_of(_bad("--match", no_match), _bad("--json", bad_paths),
                      st.just(("--estimators", "--checks")), st.just(("--bogus",))),
    "verify": st.one_of(_bad("--seed", st.one_of(not_ints, negative_ints)),
                        _bad("--jobs", st.one_of(not_ints, non_positive_ints, too_many_jobs)),
                        _bad("--effort", words.filter(lambda w: w not in ("fast", "full"))),
                        _bad("--only", no_match), _bad("--json", bad_paths),
                        st.just(("--bogus",)), st.just(("--only",))),
    "bounds": st.one_of(*[_bad(f"--{name}", st.one_of(not_ints, non_positive_ints))
                          for name in ("d", "k", "m", "R")],
                        _bad("--seed", st.one_of(not_ints, negative_ints)),
                        _bad("--jobs", st.one_of(not_ints, non_positive_ints, too_many_jobs)),
                        _bad("--B", st.one_of(bad_reals, st.sampled_from(["0", "-1", "-1e-300"]))),
                        _bad("--delta", st.one_of(bad_reals, st.sampled_from(["0", "1", "2",
                                                                             "-0.5"]))),
                        _bad("--alpha", bad_reals),
                        _bad("--dist", words.filter(lambda w: w not in ("powerlaw", "hard",
                                                                        "digits"))),
                        _bad("--json", bad_paths),
                        words.map(lambda w: ("--rho", "--data", f"/no-such-dir/{w}.npy")),
                        st.just(("--k", "7", "--d", "3")), st.just(("--bogus",))),
}
GOOD = {
    "list": st.sampled_from([(), ("--checks",), ("--estimators",), ("--match", "HK12")]),
    "verify": st.sampled_from([(), ("--seed", "3"), ("--effort", "full"), ("--jobs", "2"),
                               ("--no-progress",), ("--only", "HK12.*")]),
    "bounds": st.sampled_from([(), ("--d", "20"), ("--m", "100"), ("--B", "2.5"),
                               ("--delta", "0.01"), ("--dist", "hard"), ("--no-progress",),
                               ("--R", "3")]),
}


def _no_work(*args, **kwargs):
    raise AssertionError("work started although an argument is bad")


def run_cli(argv):
    """(exit status, stderr) of ``laocheck argv``, with the catalog and experiments disabled."""
    err = io.StringIO()
    with mock.patch.object(verify_module, "run_catalog", _no_work), \
            mock.patch.object(theorems_module, "run_bounds", _no_work), \
            mock.patch.object(rho_module, "rho_table", _no_work), \
            contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code
    return code, err.getvalue()


def assert_usage_error(argv):
    code, err = run_cli(argv)
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2, (argv, code, err)
    assert len(lines) == 1, (argv, err)
    assert "error:" in lines[0] and "Traceback" not in err, (argv, err)


@SETTINGS
@given(command=st.sampled_from(sorted(BAD)), data=st.data())
def test_a_bad_argument_exits_2_with_one_line_before_any_work(command, data):
    bad = data.draw(BAD[command], label="bad")
    good = data.draw(st.lists(GOOD[command], max_size=2), label="good")
    argv = [command] + [token for option in good for token in option] + list(bad)
    assert_usage_error(argv)


@SETTINGS
@given(argv=st.lists(words, max_size=3))
def test_any_unknown_command_exits_2_with_one_line(argv):
    if argv and argv[0] in ("list", "verify", "bounds"):
        argv = ["x" + argv[0]] + argv[1:]
    if argv and argv[0] in ("-h", "--help", "--version"):
        return
    assert_usage_error(argv)


def test_the_bad_bounds_arguments_of_the_issue():
    """Issue 13: `laocheck bounds --d 0` etc. exited 0 and printed "not run"."""
    for argv in (["--d", "0"], ["--B", "-1"], ["--B", "nan"], ["--delta", "2"], ["--R", "0"],
                 ["--jobs", "0"]):
        code, err = run_cli(["bounds"] + argv)
        assert code == 2 and f"`{argv[0]}` must be" in err, (argv, err)


def test_huge_sizes_are_refused_before_any_work():
    """Issue 13 (robustness, second round): `laocheck bounds --d 10**12` was accepted and then
    allocated and ran for ever. Each size has a documented maximum, and R·m·d (the entries
    drawn per theorem) too: exit 2, one line naming the option, its value and the range."""
    for option, value, limit in (("--d", 10**12, MAX_D), ("--m", 10**10, MAX_M),
                                 ("--R", 10**6, MAX_R), ("--d", MAX_D + 1, MAX_D),
                                 ("--m", 10**400, MAX_M)):
        code, err = run_cli(["bounds", option, str(value)])
        lines = [line for line in err.splitlines() if line.strip()]
        assert code == 2 and len(lines) == 1, (option, value, err)
        assert f"`{option}`" in err and str(value) in err and f"<= {limit}" in err, err
    for argv, product in ((["--d", str(MAX_D), "--m", "100000"], 50 * 100000 * MAX_D),
                          (["--dist", "digits", "--m", str(MAX_M), "--R", "2"], 2 * MAX_M * 64)):
        code, err = run_cli(["bounds", *argv])
        lines = [line for line in err.splitlines() if line.strip()]
        assert code == 2 and len(lines) == 1, (argv, err)
        assert "`--R`, `--m` and `--d`" in err and f"{product:.3g}" in err, err
        assert f"{MAX_WORK:.0e}" in err, err


@SETTINGS
@given(option=st.sampled_from(["--d", "--m", "--R"]),
       value=st.integers(min_value=MAX_M + 1, max_value=10**40))
def test_any_huge_size_exits_2_with_one_line(option, value):
    """Sizes beyond the maxima (or whose R·m·d is beyond MAX_WORK) never start work."""
    assert_usage_error(["bounds", option, str(value)])


def test_the_largest_allowed_sizes_reach_the_work():
    """The maxima are not off by one: R·m·d = MAX_WORK exactly is accepted (the work, here
    replaced by a stub, is reached)."""
    called = []

    def stub(**kwargs):
        called.append(kwargs)
        return []
    with mock.patch.object(theorems_module, "run_bounds", stub), \
            contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        code = main(["bounds", "--d", "1000", "--m", str(MAX_WORK // 1000 // 100), "--R", "100",
                     "--no-progress"])
    assert code == 0 and called and called[0]["d"] == 1000


@pytest.mark.parametrize("signum, status, name", [(signal.SIGINT, 130, "Ctrl-C"),
                                                  (signal.SIGTERM, 143, "SIGTERM")])
def test_interrupting_verify_with_two_jobs_stops_cleanly(tmp_path, signum, status, name):
    """Issue 13, section 4: `laocheck verify --jobs 2` interrupted while its workers run (SIGINT
    as Ctrl-C sends it, or SIGTERM) exits 130 / 143 with one line on stderr saying what had
    finished, no traceback, no leaked-semaphore warning, and no --json file (neither whole nor
    half-written; the results log of the finished checks stays, for --resume).

    The run is the estimators' budget checks (quick) and the 13 empirical theorem checks (tens
    of seconds each); the signal is sent as soon as the results log holds a first record
    (polled, generous timeout), so the workers are up and the slow checks are still running."""
    out = tmp_path / "v.json"
    log = tmp_path / "v.results.jsonl"
    script = Path(sys.executable).with_name("laocheck")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "laocheck"]

    def default_sigint():            # a shell without job control may pass SIGINT ignored
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    proc = subprocess.Popen(command + ["verify", "--jobs", "2", "--only", "*.budget",
                                       "--only", "*.empirical", "--no-progress", "--json",
                                       str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path,
                            text=True, start_new_session=True, preexec_fn=default_sigint)
    try:
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline and proc.poll() is None:
            if log.exists() and log.read_text().count("\n") >= 1:
                break
            time.sleep(0.05)
        assert proc.poll() is None, "the run ended before it could be interrupted"
        assert log.exists(), "no check finished within 600 s"
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:                      # never leave the run behind
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    lines = [line for line in err.splitlines() if line.strip()]
    assert proc.returncode == status, err
    assert len(lines) == 1, err
    assert f"interrupted by {name}" in lines[0], err
    finished = re.search(r"(\d+) of (\d+) checks had finished", lines[0])
    assert finished and 1 <= int(finished[1]) < int(finished[2]), err
    assert "Traceback" not in err and "leaked" not in err, err
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == [log.name]     # no temporary file
    for record in log.read_text().splitlines():                          # the log is whole
        assert json.loads(record)
