"""Robustness, third round (issue 36): files, claims, reports and the command line under
hostile input.

Every file laocheck reads (baselines, ``verify --json`` files given to ``report --from``,
results logs read by ``verify --resume``, ``--claims``, report specs, IDX files) goes through
:mod:`laocheck._files`; every file it writes through :mod:`laocheck._io`. The rules checked
here, for any input:

* the command exits 0, 1 or 2; on 2 exactly one line on stderr, never a traceback;
* nothing is written outside the output folder; a symbolic link, FIFO or device named as an
  output is refused (exit 2) and left as it was; nothing laocheck did not write is deleted;
* every text from a file reaches report.md and index.html escaped; statuses from files are
  accepted only from the closed set;
* size parameters are bounded before any work, and reading a file costs memory bounded by
  what its header promises.

The deterministic tests reproduce the issue's examples; the hypothesis tests (fixed examples:
derandomized, no database, so the suite cannot flake) mutate valid files and arguments. The
CLI runs in-process (``laocheck.cli.main``); the whole module takes well under a minute.
"""
import contextlib
import gzip
import io
import json
import os
import re
import resource
import signal
import stat
import struct
import sys
import threading
import time
import warnings
from pathlib import Path
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from laocheck import learners
from laocheck._execution import LocalExecutor, ResultLog
from laocheck._files import parse_json, read_json
from laocheck._io import check_output_path, write_json_atomic
from laocheck.bounds import theorem_bounds
from laocheck.checks import CheckRecord, get, run
from laocheck.checks import _runner as runner_module            # verify runs its checks there
from laocheck.experiments import theorems as theorems_module   # the command reads run_bounds there
from laocheck.cli import main
from laocheck.cli import verify as verify_module
from laocheck.data.distributions import digits_distribution
from laocheck.data.idx import load_idx
from laocheck.estimators import get as get_estimator
from laocheck.exceptions import InvalidParameterError
from laocheck.report import KINDS, build_report, load_spec
from laocheck.report._document import Paragraph, Section, Table, to_html, to_markdown
from laocheck.testing.baseline import load_baseline

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])
#: for the examples that render a report (figures: about a second each)
SLOW_SETTINGS = settings(SETTINGS, max_examples=10)
#: one cheap check of the catalog (a sympy identity, milliseconds)
CHECK = "KS15.LemmaB.4"
STATUSES = ("PASS", "FAIL", "ERRATUM", "INCONCLUSIVE")


def run_cli(argv, cwd=None):
    """(exit status, stdout, stderr) of ``laocheck argv`` run in this process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.ExitStack() as stack:
        if cwd is not None:
            stack.enter_context(contextlib.chdir(cwd))
        stack.enter_context(contextlib.redirect_stdout(out))
        stack.enter_context(contextlib.redirect_stderr(err))
        stack.enter_context(warnings.catch_warnings())
        warnings.simplefilter("ignore")
        try:
            code = main([str(a) for a in argv])
        except SystemExit as exc:
            code = exc.code
    return code, out.getvalue(), err.getvalue()


def assert_clean_exit(code, err, allowed=(0, 1, 2)):
    """The exit-code promise: 0, 1 or 2; on 2 one line on stderr; never a traceback."""
    assert code in allowed, (code, err)
    assert "Traceback" not in err, err
    if code == 2:
        lines = [line for line in err.splitlines() if line.strip()]
        assert len(lines) == 1 and "error:" in lines[0], err


def assert_usage_error(argv, cwd=None, match=None):
    code, _, err = run_cli(argv, cwd)
    assert code == 2, (argv, code, err)
    assert_clean_exit(code, err)
    if match is not None:
        assert match in err, err
    return err


def tree(path):
    """Every entry under ``path`` with its kind and content (links not followed)."""
    out = {}
    for root, dirs, files in os.walk(path):
        for name in dirs + files:
            p = Path(root, name)
            st_ = os.lstat(p)
            if stat.S_ISLNK(st_.st_mode):
                out[str(p)] = ("link", os.readlink(p))
            elif stat.S_ISREG(st_.st_mode):
                out[str(p)] = ("file", p.read_bytes())
            else:
                out[str(p)] = (stat.S_IFMT(st_.st_mode), None)
    return out


@pytest.fixture(scope="module")
def verify_doc(tmp_path_factory):
    """A real ``laocheck verify --json`` document of one cheap check."""
    path = tmp_path_factory.mktemp("verify") / "v.json"
    code, _, err = run_cli(["verify", "--only", CHECK, "--json", path, "--no-progress"])
    assert code == 0, err
    return json.loads(path.read_text(encoding="utf-8"))


ESTIMATOR_MODULE = """
from laocheck.estimators import get
est = get("HK12.AERR.gradient", k=2)
"""


@pytest.fixture
def user_dir(tmp_path):
    """A folder with an importable estimator module (a fresh name per test)."""
    name = f"robust_est_{abs(hash(str(tmp_path))) % 10**8}"
    (tmp_path / f"{name}.py").write_text(ESTIMATOR_MODULE)
    yield tmp_path, f"{name}:est"
    sys.modules.pop(name, None)


# --- 1. reading files -------------------------------------------------------------------------

BAD_BYTES = {"non-UTF-8": b'{"a": "\xff\xfe"}', "deep": b"[" * 50_000 + b"]" * 50_000,
             "deep-object": b'{"a":' * 10_000 + b"1" + b"}" * 10_000,
             "long-number": b'{"a": 1' + b"0" * 5000 + b"}", "not JSON": b"{not json",
             "empty": b""}


@pytest.mark.parametrize("kind", sorted(BAD_BYTES))
def test_malformed_json_files_exit_2_with_one_line(tmp_path, user_dir, kind):
    """Issue 36: non-UTF-8 or deeply nested JSON in --claims, --from, baselines or results
    logs gave a traceback."""
    bad = tmp_path / "bad.json"
    bad.write_bytes(BAD_BYTES[kind])
    folder, target = user_dir
    assert_usage_error(["check", target, "--claims", bad], cwd=folder)
    assert_usage_error(["report", "verification", "--from", bad, "--out", tmp_path / "out",
                        "--effort", "tiny"])
    (tmp_path / "bl").mkdir()
    (tmp_path / "bl" / "b.json").write_bytes(BAD_BYTES[kind])
    assert_usage_error(["baseline", "compare", "b", "--estimator", target, "--dir",
                        tmp_path / "bl"], cwd=folder)
    (tmp_path / "v.results.jsonl").write_bytes(BAD_BYTES[kind])
    with mock.patch.object(runner_module, "_run_one", _no_work):
        code, _, err = run_cli(["verify", "--only", CHECK, "--json", tmp_path / "v.json",
                                "--resume", "--no-progress"])
    # a last line that is not JSON (without a newline) is a line cut by an interruption:
    # dropped, the check rerun (here the stub makes it a FAIL: exit 1); any other fault is a
    # usage error
    assert_clean_exit(code, err, (1,) if kind in ("not JSON", "empty") else (2,))


def _no_work(*args, **kwargs):
    raise AssertionError("work started")


@pytest.mark.parametrize("special", ["fifo", "dev", "dir"])
def test_special_files_are_refused_as_input(tmp_path, user_dir, special):
    """A FIFO (which would block), a device (/dev/zero never ends) or a directory named as an
    input file: exit 2 before reading."""
    if special == "fifo":
        path = tmp_path / "p.json"
        os.mkfifo(path)
    elif special == "dev":
        path = Path("/dev/zero")
    else:
        path = tmp_path
    folder, target = user_dir
    assert_usage_error(["check", target, "--claims", path], cwd=folder)
    assert_usage_error(["report", "verification", "--from", path, "--out", tmp_path / "o",
                        "--effort", "tiny"])
    with pytest.raises(InvalidParameterError, match="regular file|directory"):
        load_idx(path)


def test_a_file_larger_than_the_limit_is_refused_before_reading(tmp_path):
    big = tmp_path / "big.json"
    with open(big, "wb") as fh:
        fh.truncate(2**20 + 1)                        # sparse: no disk used
    with pytest.raises(InvalidParameterError, match="at most 1048576 bytes"):
        read_json(big, what="test file", limit=2**20)


def test_a_forged_status_in_a_results_log_is_refused(tmp_path):
    """Issue 36: `verify --resume` accepted the status `<script>` from a results log and
    exited 0."""
    out = tmp_path / "v.json"
    code, _, err = run_cli(["verify", "--only", CHECK, "--json", out, "--no-progress"])
    assert code == 0, err
    log = tmp_path / "v.results.jsonl"
    log.write_text(log.read_text().replace('"status": "PASS"', '"status": "<script>"'))
    err = assert_usage_error(["verify", "--only", CHECK, "--json", out, "--resume",
                              "--no-progress"], match="`status` must be one of")
    assert "v.results.jsonl" in err and "line 1" in err


@SETTINGS
@given(field=st.sampled_from(["status", "expected", "delta", "seed", "spawn_key", "id",
                              "figures", "effort"]),
       value=st.one_of(st.text(max_size=20), st.integers(), st.floats(), st.none(),
                       st.lists(st.integers(), max_size=3)))
def test_any_forged_record_field_is_accepted_only_within_its_schema(verify_doc, field, value):
    """A record read from a file is accepted only with every field of its type and range;
    the statuses only from the closed set."""
    doc = json.loads(json.dumps(verify_doc["checks"][0]))
    doc[field] = value
    try:
        rec = CheckRecord.from_dict(doc, "test")
    except InvalidParameterError as exc:
        assert "\n" not in str(exc) and f"`{field}`" in str(exc)
        return
    assert rec.status in STATUSES and rec.expected in STATUSES
    assert isinstance(rec.id, str) and "\n" not in rec.id


def _mutations(doc):
    """Strategies of edits of a JSON document: replace a value at a path by another JSON
    value, or delete a key."""
    paths = []

    def walk(node, path):
        paths.append(path)
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, path + (k,))
        elif isinstance(node, list):
            for i, v in enumerate(node[:3]):
                walk(v, path + (i,))
    walk(doc, ())
    values = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(),
                                    st.floats(allow_nan=False), st.text(max_size=10),
                                    st.sampled_from(["<script>", "1e1000000000", "nan", "inf",
                                                     "-1", "PASS", "3e8", "../x", "",
                                                     "$\\frac{$"])),
                          lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                  st.dictionaries(st.text(max_size=5), inner,
                                                                  max_size=3)),
                          max_leaves=6)
    return st.lists(st.tuples(st.sampled_from(paths), st.one_of(values, st.just("DELETE"))),
                    min_size=1, max_size=3)


def _apply(doc, edits):
    doc = json.loads(json.dumps(doc))
    for path, value in edits:
        if not path:
            doc = None if value == "DELETE" else value
            continue
        node = doc
        try:
            for key in path[:-1]:
                node = node[key]
            if value == "DELETE" and isinstance(node, dict):
                node.pop(path[-1], None)
            elif value != "DELETE":
                node[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    return doc


@SLOW_SETTINGS
@given(data=st.data())
def test_mutated_verify_files_render_escaped_or_exit_2(tmp_path, verify_doc, data):
    """`report verification --from F` on any edit of a valid file: exit 0 with every text
    escaped in report.md and index.html, or exit 2 with one line; nothing outside --out."""
    doc = _apply(verify_doc, data.draw(_mutations(verify_doc)))
    src = tmp_path / "from.json"
    src.write_text(json.dumps(doc))
    out = tmp_path / "out"
    outside = {k: v for k, v in tree(tmp_path).items() if not k.startswith(str(out))}
    code, _, err = run_cli(["report", "verification", "--from", src, "--out", out,
                            "--effort", "tiny", "--no-progress"])
    assert_clean_exit(code, err, (0, 2))
    after = {k: v for k, v in tree(tmp_path).items() if not k.startswith(str(out))}
    assert after == outside
    if code == 0:
        for page in ("report.md", "index.html"):
            text = (out / "verification" / page).read_text(encoding="utf-8")
            assert "<script>" not in text


@SETTINGS
@given(data=st.data())
def test_mutated_baselines_load_or_are_refused_in_one_line(tmp_path, data):
    """load_baseline on any edit of a valid baseline (exact or sampled): a document whose
    fields have their types and ranges, or one InvalidParameterError line, quickly (no
    1e1000000000 to expand, no n = 3e8 to draw)."""
    doc = data.draw(st.sampled_from([EXACT_BASELINE, SAMPLED_BASELINE]))
    doc = _apply(doc, data.draw(_mutations(doc)))
    path = tmp_path / "b.json"
    path.write_text(json.dumps(doc))
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            loaded = load_baseline(path)
        except InvalidParameterError as exc:
            assert "\n" not in str(exc) and "b.json" in str(exc)
        else:
            for fp in loaded["instances"].values():
                if fp.get("kind") == "sampled":
                    assert isinstance(fp["n"], int) and 2 <= fp["n"] <= 10**6
    assert time.perf_counter() - start < 10


def _sampled(n):
    return {"kind": "sampled", "n": n, "sample": [[0.5, -0.5], [1.0, 0.0]],
            "sample_attributes": [2, 3], "attributes": {"2": 5, "3": 5}, "mean": [0.1, 0.2],
            "mean_interval": None, "second_moment": 0.75}


EXACT_BASELINE = {"format": "laocheck-baseline", "format_version": 2, "laocheck": "0",
                  "estimator": "x", "seed": 0, "effort": "fast", "delta": 1e-6,
                  "instances": {"d3": {"kind": "exact",
                                       "outcomes": {'["1/2", "0"]': "1/2", '["0", "1"]': "1/2"},
                                       "attributes": {"2": "1"}, "mean": ["1/4", "1/2"],
                                       "second_moment": "5/8"}},
                  "checks": {"budget": "PASS"}}
SAMPLED_BASELINE = dict(EXACT_BASELINE, instances={"d3": _sampled(1000)})


@pytest.mark.parametrize("edit, match", [
    ({"second_moment": "1e1000000000"}, "`second_moment` must be an exact number"),
    ({"second_moment": "-1/2"}, "`second_moment` must be an exact number"),
    ({"outcomes": {"[" * 3000 + "]" * 3000: "1"}}, "`outcomes"),
])
def test_exact_baseline_numbers_are_bounded(tmp_path, edit, match):
    """Issue 36: `"second_moment": "1e1000000000"` made `compare` hang."""
    doc = json.loads(json.dumps(EXACT_BASELINE))
    doc["instances"]["d3"].update(edit)
    (tmp_path / "b.json").write_text(json.dumps(doc))
    with pytest.raises(InvalidParameterError, match=match):
        load_baseline(tmp_path / "b.json")


@pytest.mark.parametrize("n", [3e8, 300_000_000, 1, -5, "1000"])
def test_sampled_baseline_n_is_bounded(tmp_path, n):
    """Issue 36: a baseline's sampled `n` of 3e8 allocated 6.7 GiB."""
    doc = dict(EXACT_BASELINE, instances={"d3": _sampled(n)})
    (tmp_path / "b.json").write_text(json.dumps(doc))
    with pytest.raises(InvalidParameterError, match="`n` must be an integer >= 2 and <= 1000000"):
        load_baseline(tmp_path / "b.json")


def test_baseline_names_and_dirs(tmp_path, user_dir):
    """Issue 36: a 300-character baseline NAME and a --dir naming a file gave tracebacks."""
    folder, target = user_dir
    assert_usage_error(["baseline", "save", "a" * 300, "--estimator", target], cwd=folder,
                       match="`NAME`")
    (tmp_path / "afile").write_text("x")
    assert_usage_error(["baseline", "save", "b", "--estimator", target, "--dir",
                        tmp_path / "afile"], cwd=folder, match="`--dir`")
    assert (tmp_path / "afile").read_text() == "x"


@SETTINGS
@given(claims=st.one_of(
    st.dictionaries(st.sampled_from(["unbiased", "budget", "budget_kind", "clipping",
                                     "second_moment", "scaling", "finite_support", "q", "zz"]),
                    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(),
                              st.text(max_size=8), st.lists(st.floats(), max_size=3)),
                    max_size=3).map(json.dumps),
    st.text(max_size=30)))
def test_any_claims_text_parses_or_exits_2(tmp_path, claims):
    """`--claims` text: a JSON object with typed claims, or exit 2 with one line. (The claims'
    meaning is checked by check_estimator: here the command stops before running it.)"""
    from laocheck.cli import check as check_module      # the module, to replace its loader
    import laocheck.testing                             # where the command finds its runner
    with mock.patch.object(laocheck.testing, "check_estimator", lambda *a, **k: []), \
            mock.patch.object(check_module, "load_object", lambda spec: object()):
        code, _, err = run_cli(["check", "m:o", "--claims", claims], cwd=tmp_path)
    assert_clean_exit(code, err, (0, 2))


def test_a_module_with_a_syntax_error_exits_2(tmp_path):
    """Issue 36: `laocheck check` on a module with a SyntaxError exited 1 with a traceback."""
    (tmp_path / "robust_syntax_err.py").write_text("def f(:\n    pass\n")
    (tmp_path / "robust_raises.py").write_text("raise RuntimeError('boom\\nsecond line')\n")
    assert_usage_error(["check", "robust_syntax_err:f"], cwd=tmp_path, match="syntax error")
    # a module that raises while it is imported ran: the user's code failed (ERROR, exit 4)
    code, _, err = run_cli(["check", "robust_raises:f"], cwd=tmp_path)
    assert code == 4 and "RuntimeError" in err and "ERROR" in err, (code, err)
    assert_clean_exit(code, err, (4,))


# --- report specs ------------------------------------------------------------------------------

SPEC = """name = "{name}"
kind = "rho"
title = "{title}"
description = "{description}"

[settings]
curve_from = -1.0
curve_to = 0.0
{settings}

[effort.tiny]
curve_points = {points}
"""


def _spec(folder, name, *, file=None, title="t", description="d", settings="", points=3):
    folder.mkdir(exist_ok=True)
    (folder / f"{file or name}.toml").write_text(SPEC.format(
        name=name, title=title, description=description, settings=settings, points=points))


def test_a_spec_named_dot_cannot_replace_the_out_folder(tmp_path):
    """Issue 36: a spec file `..toml` (name ".") made `laocheck report` replace the whole
    --out folder."""
    out = tmp_path / "out"
    (out / "other").mkdir(parents=True)
    (out / "other" / "keep.txt").write_text("keep")
    _spec(tmp_path / "specs", ".", file=".")
    before = tree(tmp_path)
    assert_usage_error(["report", "--specs", tmp_path / "specs", "--out", out, "--effort",
                        "tiny", "--no-progress"], match="`name`")
    assert tree(tmp_path) == before


@pytest.mark.parametrize("settings, points, match", [
    ("", 100_000_000, "`effort.tiny.curve_points` must be an integer >= 2 and <= 10000"),
    ("d = 3000000000", 3, "`settings.d` must be an integer >= 1 and <= 1000000"),
    ("d = 1000000", 5000, "d × points"),
    ("alphas = [nan]", 3, "`settings.alphas[0]` must be a finite number"),
    ("d = 1e3", 3, "`settings.d` must be an integer"),
])
def test_spec_sizes_are_bounded_before_any_work(tmp_path, settings, points, match):
    """Issue 36: `curve_points = 1e8` hung and `d = 3e9` asked for 22 GiB."""
    _spec(tmp_path / "specs", "r", settings=settings, points=points)
    with mock.patch.dict(KINDS["rho"].__dict__, {"collect": _no_work}):
        assert_usage_error(["report", "r", "--specs", tmp_path / "specs", "--out",
                            tmp_path / "out", "--effort", "tiny"], match=match)
    assert not (tmp_path / "out").exists()


HOSTILE = ['<script>alert(1)</script>', '<img src=x onerror=alert(1)>',
           '[x](javascript:alert(1))', '![i](http://example.invalid/x.png)', 'a | b', '`code`']


def test_spec_and_from_texts_are_escaped(tmp_path, verify_doc):
    """Issue 36: spec titles and descriptions, and check ids and statements read with
    --from, went into report.md unescaped."""
    _spec(tmp_path / "specs", "r", title=" ".join(HOSTILE).replace('"', "'"),
          description=" ".join(HOSTILE).replace('"', "'"))
    doc = json.loads(json.dumps(verify_doc))
    doc["checks"][0]["statement"] = " ".join(HOSTILE)
    doc["checks"][0]["citation"] = HOSTILE[1]
    doc["checks"][0]["id"] = "$\\frac{$.LemmaX"        # matplotlib's mathtext must not parse it
    doc["checks"][0]["figures"]["worst_ratio"] = 0.5    # so the id is a label of a figure
    (tmp_path / "from.json").write_text(json.dumps(doc))
    code, _, err = run_cli(["report", "r", "--specs", tmp_path / "specs", "--out",
                            tmp_path / "out", "--effort", "tiny", "--no-progress"])
    assert code == 0, err
    code, _, err = run_cli(["report", "verification", "--from", tmp_path / "from.json",
                            "--out", tmp_path / "out", "--effort", "tiny", "--no-progress"])
    assert code == 0, err
    for name in ("r", "verification"):
        md = (tmp_path / "out" / name / "report.md").read_text(encoding="utf-8")
        page = (tmp_path / "out" / name / "index.html").read_text(encoding="utf-8")
        assert not re.search(r"(?<!\\)<", md)              # every < escaped: no HTML
        assert not re.search(r"(?<!\\)\]\((javascript|http)", md)
        assert "\\<script\\>" in md and "\\[x\\]" in md
        assert "<script" not in page and "<img src=x" not in page
        assert "&lt;script&gt;" in page


def test_markdown_shows_any_text_literally():
    """Every markup character of a text is escaped in report.md, and line breaks cannot end
    a table row, a heading or a code block."""
    hostile = "\n".join(HOSTILE) + "\n# heading\n| x |"
    md = to_markdown(hostile, [Paragraph(hostile), Paragraph(hostile, code=True)],
                     [Section(hostile, (Table("t", (hostile,), ((hostile, 1.5),)),))], hostile)
    lines = md.splitlines()
    assert [line[:3] for line in lines if line.startswith("#")] == ["# <"[:2] + "\\", "## "]
    code = [line for line in lines if line.startswith("    ")]
    assert len(code) == len(hostile.splitlines())      # each line of the code block indented
    for line in lines:
        if line.startswith("    "):       # inside an indented code block nothing is markup
            continue
        assert not re.search(r"(?<!\\)[<`]", line) and not re.search(r"(?<!\\)\]\(", line)
        assert not line.startswith(("|", "#")) or line.startswith(("| ", "# ", "## "))
    rows = [line for line in lines if line.startswith("| ")]
    assert len(rows) == 3
    assert [len(re.split(r"(?<!\\)\|", row)) - 2 for row in rows] == [1, 1, 2]   # cells
    html = to_html(hostile, [Paragraph(hostile)], [], hostile)
    assert "<script>" not in html and "<img" not in html


# --- 2. writing files --------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["symlink", "dangling", "fifo", "device", "directory"])
def test_json_outputs_never_replace_links_fifos_or_devices(tmp_path, kind):
    """Issue 36: --json at a FIFO, a symlink or a device node replaced it with a regular
    file. Refused, exit 2, the entry untouched."""
    target = tmp_path / "elsewhere.json"
    target.write_text("precious")
    path = tmp_path / "out.json"
    if kind == "symlink":
        path.symlink_to(target)
    elif kind == "dangling":
        path.symlink_to(tmp_path / "missing.json")
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        path = Path("/dev/null")
    else:
        path.mkdir()
    before = os.lstat(path)
    for argv in (["list", "--json", path], ["verify", "--only", CHECK, "--json", path],
                 ["bounds", "--rho", "--json", path], ["errata", "--output", path]):
        with mock.patch.object(verify_module, "run_catalog", _no_work):
            assert_usage_error(argv)
    after = os.lstat(path)
    assert (stat.S_IFMT(after.st_mode), after.st_ino) == (stat.S_IFMT(before.st_mode),
                                                          before.st_ino)
    assert target.read_text() == "precious"
    assert not (tmp_path / "missing.json").exists()


def test_a_results_log_that_is_a_link_is_refused(tmp_path):
    (tmp_path / "v.results.jsonl").symlink_to(tmp_path / "x")
    with pytest.raises(InvalidParameterError, match="symbolic link"):
        ResultLog(tmp_path / "v.results.jsonl")
    assert not (tmp_path / "x").exists()


def test_a_report_never_deletes_what_it_did_not_write(tmp_path):
    """out/<name> is replaced only when it holds nothing but a report; a user's file in it,
    or a link in its place, stops the run before any work (exit 2) and stays."""
    _spec(tmp_path / "specs", "r")
    argv = ["report", "r", "--specs", tmp_path / "specs", "--out", tmp_path / "out",
            "--effort", "tiny", "--no-progress"]
    code, _, err = run_cli(argv)
    assert code == 0, err
    code, _, err = run_cli(argv)                        # a report replaces a report
    assert code == 0, err
    (tmp_path / "out" / "r" / "notes.txt").write_text("mine")
    assert_usage_error(argv, match="not a report laocheck wrote")
    assert (tmp_path / "out" / "r" / "notes.txt").read_text() == "mine"
    (tmp_path / "out" / "r" / "notes.txt").unlink()
    os.rename(tmp_path / "out" / "r", tmp_path / "moved")
    (tmp_path / "out" / "r").symlink_to(tmp_path / "moved")
    assert_usage_error(argv)
    assert (tmp_path / "out" / "r").is_symlink() and (tmp_path / "moved" / "index.html").exists()


@SETTINGS
@given(name=st.text(alphabet="./\\ab\x00 -_", min_size=0, max_size=6))
def test_any_spec_name_writes_inside_the_out_folder(tmp_path, name):
    """A spec's name is one plain name: whatever it is, nothing is written outside --out."""
    specs = tmp_path / "specs"
    specs.mkdir(exist_ok=True)
    for f in specs.iterdir():
        f.unlink()
    (specs / "s.toml").write_text(SPEC.format(name=json.dumps(name)[1:-1], title="t",
                                              description="d", settings="", points=3))
    before = {k: v for k, v in tree(tmp_path).items() if not k.startswith(str(tmp_path / "o"))}
    code, _, err = run_cli(["report", "--specs", specs, "--out", tmp_path / "o" / "out",
                            "--effort", "tiny", "--no-progress"])
    assert_clean_exit(code, err, (0, 2))
    after = {k: v for k, v in tree(tmp_path).items() if not k.startswith(str(tmp_path / "o"))}
    assert after == before


# --- 3. sizes ---------------------------------------------------------------------------------

def _maxrss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def test_a_gzip_bomb_idx_costs_what_its_header_promises(tmp_path):
    """Issue 36: load_idx on a 254 KB gzip grew by 512 MB before refusing it. Decompression
    stops one byte past the header's promise."""
    header = b"\x00\x00\x08\x03" + struct.pack(">III", 10, 28, 28)
    with gzip.open(tmp_path / "bomb.gz", "wb", compresslevel=9) as fh:
        fh.write(header + bytes(10 * 28 * 28))
        for _ in range(512):
            fh.write(bytes(2**20))
    assert (tmp_path / "bomb.gz").stat().st_size < 2**20
    before = _maxrss_mb()
    with pytest.raises(InvalidParameterError, match="trailing bytes"):
        load_idx(tmp_path / "bomb.gz")
    assert _maxrss_mb() - before < 100
    good = tmp_path / "good.gz"
    good.write_bytes(gzip.compress(header + bytes(range(256)) * 30 + bytes(10 * 28 * 28 - 7680)))
    assert load_idx(good).shape == (10, 28, 28)


@SETTINGS
@given(code=st.sampled_from([0x08, 0x0D, 0x0E, 0x07]), dims=st.lists(
    st.integers(0, 2**32 - 1), min_size=0, max_size=4), extra=st.integers(-20, 20),
    zipped=st.booleans())
def test_any_idx_header_loads_or_is_refused_within_memory(tmp_path, code, dims, extra, zipped):
    """load_idx on any header (up to 2^32 per dimension) and a body a little short or long:
    the array, or one InvalidParameterError line; never more memory than the body read."""
    body = max(0, min(4096, int(np.prod(dims, dtype=object) if dims else 0)) + extra)
    raw = bytes([0, 0, code, len(dims)]) + b"".join(struct.pack(">I", d) for d in dims) + \
        bytes(body)
    path = tmp_path / "f.idx"
    path.write_bytes(gzip.compress(raw) if zipped else raw)
    before = _maxrss_mb()
    try:
        arr = load_idx(path)
    except InvalidParameterError as exc:
        assert "\n" not in str(exc)
    else:
        assert arr.shape == tuple(dims)
    assert _maxrss_mb() - before < 64


def test_accumulate_is_bounded_and_stops_on_ctrl_c(ctrl_c):
    """Issue 36: accumulate(n=10**11) ran about 70 minutes and ignored Ctrl-C."""
    est = get_estimator("HK12.AERR.gradient", k=2)
    w, x, y = np.full(4, 0.1), np.full(4, 0.2), 0.3
    with pytest.raises(InvalidParameterError, match="`n` must satisfy 1 <= n <= 10000000000"):
        est.accumulate(w, x, y, n=10**11, rng=0)
    reference = est.accumulate(w, x, y, n=70_000, rng=1)    # crosses one look for signals
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            est.accumulate(w, x, y, n=10**10, rng=0)
    finally:
        timer.cancel()
    assert time.monotonic() - start < 5
    again = est.accumulate(w, x, y, n=70_000, rng=1)        # a look changes no draw
    assert np.array_equal(again.sum, reference.sum) and again.n == reference.n


def test_jobs_are_bounded_by_tasks_and_cpus():
    """Issue 36: `verify --jobs 24` on 5 checks started 26 workers."""
    ex = LocalExecutor(24)
    assert ex.processes(5) <= min(5, os.cpu_count() or 1)
    assert ex.processes(1) == 1
    assert LocalExecutor(1).processes(100) == 1


# --- 5. library arguments ----------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, match", [
    ({"second_moments": [1, 2]}, "`second_moments` must have length d=5"),
    ({"k": 6}, "`k` must satisfy 1 <= k <= d"),
    ({"m": 1}, "`m` must satisfy m >= 2"),
    ({"m1": 100}, "`m1` must satisfy 1 <= m1 <= m - 1"),
    ({"second_moments": [1, 1, -1, 1, 1]}, "`second_moments` must be >= 0"),
])
def test_theorem_bounds_validates(kwargs, match):
    """Issue 36: theorem_bounds(d=5, second_moments=[1, 2]) was accepted."""
    with pytest.raises(InvalidParameterError, match=match):
        theorem_bounds(**{"d": 5, "k": 2, "m": 100, "B": 1.0, **kwargs})


@pytest.mark.parametrize("digits, match", [((3, 11), "`digits` must satisfy 0 <= digits <= 9"),
                                           ((3, 3), "two distinct"), ((3,), "two distinct"),
                                           ("35", "two distinct")])
def test_digits_distribution_needs_two_classes(digits, match):
    """Issue 36: digits_distribution((3, 11)) (one class) was accepted."""
    with pytest.raises(InvalidParameterError, match=match):
        digits_distribution(digits)


# --- 6. one line, naming the user's argument ---------------------------------------------------

@pytest.mark.parametrize("argv, match", [
    (["--B", "1e-320"], "`--B`"), (["--alpha", "5"], "`--alpha`"), (["--m", "1"], "`--m`"),
    (["--B", "1e300"], "`--B`"), (["--alpha=-1e9"], "`--alpha`"),
])
def test_bounds_arguments_no_theorem_can_use_exit_2(argv, match):
    """Issue 36: `bounds --B 1e-320` or `--alpha 5` exited 0 with every theorem "not run"."""
    with mock.patch.object(theorems_module, "run_bounds", _no_work):
        assert_usage_error(["bounds", *argv], match=match)


def test_bounds_exits_2_when_no_theorem_runs():
    rows = [{"theorem": t, "status": "not run", "reason": f"`x` broken ({t})"}
            for t in ("a", "b")]
    with mock.patch.object(theorems_module, "run_bounds", lambda **kw: rows):
        assert_usage_error(["bounds", "--no-progress"], match="no theorem can run")


X = np.random.default_rng(0).uniform(-1, 1, (40, 6)) / 3
Y = np.random.default_rng(1).uniform(-1, 1, 40)


@pytest.mark.parametrize("name", ["DDAERR", "DDAELR"])
@pytest.mark.parametrize("moments", [[1e308, 1e-308, 1, 1, 1, 1], [1e308] * 6,
                                     [1, 0, 1, 1, 1, 1]])
def test_dda_errors_name_second_moments(name, moments):
    """Issue 36: DDAERR's errors said `S` or `G`, DDAELR's `q`: parameters the user never
    passed (both derive them from second_moments)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(InvalidParameterError) as err:
            getattr(learners, name)(k=2, second_moments=moments).fit(X, Y)
    assert str(err.value).startswith("`second_moments`"), err.value


def test_two_phase_theory_step_names_eta_theory():
    """Issue 36: TwoPhaseDDAELR blamed `eta` (never passed) when its theory step was out of
    range."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(InvalidParameterError, match="`eta`='theory' \\(the default\\)"):
            learners.TwoPhaseDDAELR(k=2, B=1e90).fit(X * 1e80, Y)


# --- 7. the CLI's arguments, fuzzed ------------------------------------------------------------

ARG_VALUES = st.one_of(st.sampled_from(["", "-", ".", "..", "/", "/dev/null", "/dev/zero",
                                        "nan", "1e-320", "1e400", "-1", "0", "24", "x" * 300,
                                        "<script>", "a\nb"]),
                       st.text(max_size=8))
COMMANDS = {"list": ["--match", "--json"], "bounds": ["--B", "--alpha", "--m", "--d",
                                                      "--k", "--json", "--data"],
            "verify": ["--only", "--jobs", "--json", "--seed"],
            "baseline": ["--dir", "--claims", "--json"], "errata": ["--output"],
            "report": ["--out", "--from", "--specs", "--effort", "--jobs"]}


@SETTINGS
@given(data=st.data())
def test_any_arguments_exit_0_1_2_and_write_only_inside_the_folder(tmp_path, data):
    """Random options and values for every command (the work itself replaced by stubs):
    exit 0, 1 or 2, one line on 2, no traceback, nothing written outside the folder the
    command runs in, the process's peak memory below 1 GiB more than before."""
    command = data.draw(st.sampled_from(sorted(COMMANDS)))
    options = data.draw(st.lists(st.tuples(st.sampled_from(COMMANDS[command]), ARG_VALUES),
                                 max_size=3))
    argv = [command] + (["save", "n", "--estimator", "m:o"] if command == "baseline" else []) \
        + [token for pair in options for token in pair]
    if command in ("verify", "report", "bounds"):
        argv.append("--no-progress")
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)
    outside = {k: v for k, v in tree(tmp_path).items() if not k.startswith(str(work))}
    before = _maxrss_mb()
    from laocheck.cli import baseline as baseline_module
    import laocheck.report
    import laocheck.testing.baseline
    # the commands import their workers where they run them (start-up): replaced at the source
    with mock.patch.object(verify_module, "run_catalog", lambda *a, **k: []), \
            mock.patch.object(theorems_module, "run_bounds", lambda **k: []), \
            mock.patch.object(laocheck.report, "build_report", _no_work), \
            mock.patch.object(laocheck.testing.baseline, "save_baseline", _no_work), \
            mock.patch.object(baseline_module, "load_object", lambda spec: object()):
        try:
            code, _, err = run_cli(argv, cwd=work)
        except AssertionError as exc:               # a stub reached: the arguments were valid
            assert "work started" in str(exc)
            code, err = 0, ""
    assert_clean_exit(code, err)
    after = {k: v for k, v in tree(tmp_path).items() if not k.startswith(str(work))}
    assert after == outside
    assert _maxrss_mb() - before < 1024
    assert stat.S_ISCHR(os.lstat("/dev/null").st_mode)        # never replaced by a file


TOML_VALUES = st.one_of(st.integers(-10, 10**12).map(str), st.sampled_from(
    ["nan", "inf", "-inf", "1e8", "3e9", "true", '"x"', "[]", "[nan]", "[1, 2]", "{a = 1}",
     "[[1, 2], [3]]", '"' + "x" * 20_000 + '"', "1_000_000_000"]))


@SETTINGS
@given(key=st.sampled_from(["d", "curve_points", "alphas", "curve_from", "m", "R", "k",
                            "only", "figures", "B", "delta", "pairs", "zz"]),
       value=TOML_VALUES, where=st.sampled_from(["settings", "budget"]))
def test_any_spec_setting_is_typed_and_bounded_before_any_work(tmp_path, key, value, where):
    """A spec's setting of any type or size: exit 2 with one line before any work, or (valid
    and within the bounds) the work is reached."""
    settings, points = (f"{key} = {value}", 3) if where == "settings" else ("", 3)
    text = SPEC.format(name="r", title="t", description="d", settings=settings, points=points)
    if where == "budget":
        text += f"{key} = {value}\n" if key != "curve_points" else ""
        text = text.replace("curve_points = 3", f"curve_points = {value}") \
            if key == "curve_points" else text
    (tmp_path / "specs").mkdir(exist_ok=True)
    (tmp_path / "specs" / "r.toml").write_text(text)
    with mock.patch.dict(KINDS["rho"].__dict__, {"collect": _no_work}):
        try:
            code, _, err = run_cli(["report", "r", "--specs", tmp_path / "specs", "--out",
                                    tmp_path / "out", "--effort", "tiny"])
        except AssertionError as exc:
            assert "work started" in str(exc)
            return
    assert_clean_exit(code, err, (2,))
