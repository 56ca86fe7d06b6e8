"""Every shell and Python block of the README and the documentation site runs as written.

Each page (the README and every hand-written page of ``docs/``) is one test: its ```python and
```bash blocks run in order, as a reader pastes them, in a fresh temporary directory with a
clean environment (``PATH`` with this interpreter's ``bin`` first, ``HOME`` and ``TMPDIR`` in the
temporary directory, ``PYTHONPATH`` only when the run was given one: the developer's way of
choosing the laocheck under test), in which only what the page has installed so far can be
imported (``Installed`` of ``tests/docs/_installed.py``: Getting started's ``pip install .``
until a block of the page installs more; a ``sitecustomize`` refuses every other distribution,
in the page's Python session and in every ``python``, ``laocheck`` and ``pytest`` its commands
start, as a fresh virtual environment would). A page's Python blocks share one interpreter,
started in that directory, as an interactive session would (a name defined in one block is
there in the next); its shell blocks run in ``bash -e -o pipefail`` in the same directory, so a
file a Python block writes is there for the command that reads it.

The tool: Sybil (``sybil.parsers.myst``, in the ``test`` extra). It parses the pages
as they are written, in MyST Markdown: fenced blocks, ``{code-block}`` directives, and its skip
markers in HTML comments, which neither GitHub (the README) nor MyST (the site) renders; it
gives each block its line, and evaluates a page's blocks in order through evaluators we supply
(here: a subprocess per shell block, one interpreter per page for the Python blocks). The other
Markdown runners fit less well: pytest-markdown-docs and phmdoctest run Python only, and in the
test process (not in a fresh directory and environment); pytest-codeblocks and pytest-examples
have no skip convention a MyST page can carry invisibly.

Conventions a page uses (each one a reader follows the same way):

* ``<!-- skip: next "REASON" -->`` before a block: not meant to run here (REASON says why and,
  when it runs elsewhere, where). :data:`NOT_RUN` lists every such block; a new one must be added
  there, so none is skipped unnoticed.
* a Python block whose first line is ``# NAME.py``: the listing of a file the reader saves as
  NAME.py (the block is written to that file, and run in the session, as the reader who pastes
  it too).
* a Python block whose first line is ``# in NAME.py, replace F by:``: an edit of that file (the
  top-level definition of F is replaced by the block).
* ``# exit status N`` after a command: the command must exit with status N.

Cheaper equivalents (:data:`EQUIVALENTS`), applied to a shell line and shown in a failure's
message; each keeps the command and its options and changes only its size:

* installing (``python3 -m venv .venv && . .venv/bin/activate && pip install SPEC``, or ``pip
  install SPEC``) does not download anything: the blocks run in the environment the suite runs
  in, which CI made with exactly those lines (``.ci/run``), restricted to what SPEC brings
  (:class:`Installed`); :func:`test_each_page_install_command_brings_what_its_blocks_import`
  also checks, without running them, that every module a page's blocks import is brought by
  the install before it (a fresh virtual environment per page would cost minutes each).
* ``laocheck verify`` without ``--only`` runs the whole catalog (~80 CPU-s): here it runs with
  ``--only 'HK12.Lemma3.3*'`` (the same code path on six checks); CI runs the whole catalog once,
  after the suite (``.ci/run``).
* ``laocheck report`` at the ``fast`` or ``full`` effort profile runs at ``--effort tiny`` (the
  profile the specs define for tests).
"""
import ast
import importlib.util
import json
import os
import re
import select
import shlex
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from mdit_py_plugins.colon_fence import colon_fence_plugin
from sybil import Sybil
from sybil.parsers.myst import CodeBlockParser, SkipParser

ROOT = Path(__file__).resolve().parents[2]


def _load(name):
    """A helper module beside this one (the tests are imported with --import-mode=importlib,
    which puts nothing on sys.path)."""
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


Installed = _load("_installed").Installed

#: the pages: the README and the hand-written pages of the site (not the generated reference,
#: not the gallery, whose scripts the docs build runs)
PAGES = ("README.md",) + tuple(sorted(
    str(p.relative_to(ROOT)) for p in (ROOT / "docs").rglob("*.md")
    if not {"_build", "generated", "gallery"} & set(p.relative_to(ROOT).parts)))

TEST = "the README's test command: .ci/run runs it verbatim"
DOCS_BUILD = "the docs build: tests/docs/conftest.py and .ci/run run it"
CLUSTER = ("starts a Dask scheduler and workers on the machines of a cluster; "
           "tests/test_distributed.py runs a LocalCluster")
#: every block marked ``skip: next``: (page, the block's first line) -> why it is not run here
NOT_RUN = {
    ("README.md", 'python3 -m venv .venv && . .venv/bin/activate && pip install ".[test]"'): TEST,
    ("docs/getting_started.md",
     'python3 -m venv .venv && . .venv/bin/activate && pip install ".[test]"'): TEST,
    ("README.md",
     'pip install ".[docs]" && python -m sphinx -W --keep-going -b html docs docs/_build/html'):
        DOCS_BUILD,
    ("docs/getting_started.md",
     'pip install ".[docs]" && python -m sphinx -W --keep-going -b html docs docs/_build/html'):
        DOCS_BUILD,
    ("README.md", "laocheck baseline save onehot --estimator mysampler:make --claims "
                  "'{\"unbiased\": true, \"budget\": 1}'"):
        "each command runs on its tutorial's page, with the files it makes",
    ("docs/guide/cluster.md", 'pip install ".[distributed]"'): CLUSTER,
    ("docs/guide/cluster.md", "export DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED=False"): CLUSTER,
    ("docs/guide/reports.md",
     "laocheck report --all                    # those and the five papers' experiments below"):
        "the reports of the papers' experiments: each runs on the page Reproducing the papers' "
        "experiments",
    ("docs/tutorials/reproduce_figure.md",
     "laocheck report ks15_synthetic --jobs 2      # KS15 Sec. 5.1, Figs. 1-2 (synthetic, "
     "exact risk)"):
        "the same two commands run, once, on the page Reproducing the papers' experiments "
        "(docs/guide/papers.md)",
    ("docs/explanation/mutation.md",
     'pip install -e ".[mutation]"          # cosmic-ray and coverage.py'):
        "a mutation run takes hours; tests/mutation runs the engine on small modules",
}


# ------------------------------------------------------------------------- running a page
DRIVER = textwrap.dedent('''
    import json, os, sys, traceback
    status = os.fdopen(int(sys.argv[1]), "w")
    namespace = {"__name__": "__main__"}
    for line in sys.stdin:
        block = json.loads(line)
        try:
            exec(compile(block["source"], block["name"], "exec"), namespace)
            error = ""
        except SystemExit as exc:
            error = "" if exc.code in (0, None) else f"SystemExit({exc.code!r})"
        except BaseException:
            error = traceback.format_exc()
        sys.stdout.flush()
        sys.stderr.flush()
        status.write(json.dumps(error) + "\\n")
        status.flush()
''')

#: the install a page starts from when it names none: Getting started's ``pip install .``
DEFAULT_INSTALL = "."
INSTALL = re.compile(r"^(?:python3 -m venv \.venv && \. \.venv/bin/activate && )?"
                     r"pip install (?:-e )?(?P<spec>\S+)(?: && (?P<rest>.*))?$")
EXIT = re.compile(r"#\s*exit status (\d+)\s*$")
TIMEOUT = 600


def _equivalent(line):
    """(the line to run, the rule applied or None): :data:`EQUIVALENTS`."""
    match = INSTALL.match(line.split("#", 1)[0].strip())
    if match:
        rest, _ = _equivalent(match["rest"] or "true")
        return rest, "install: the suite's environment (see the install test)"
    words = line.split("#", 1)[0].split()
    if words[:2] == ["laocheck", "verify"] and "--only" not in words:
        return line.replace("laocheck verify", "laocheck verify --only 'HK12.Lemma3.3*'", 1), \
            "verify: one family of checks (the catalog runs once in .ci/run)"
    if words[:2] == ["laocheck", "report"] and "--from" not in words:
        code = line.split("#", 1)[0]
        if "--effort" in words:
            code = re.sub(r"--effort \w+", "--effort tiny", code)
        else:
            code = code.rstrip() + " --effort tiny"
        return code, "report: the specs' tiny profile"
    return line, None


#: the rules of :func:`_equivalent`, for the record
EQUIVALENTS = ("install: the suite's environment", "verify: --only 'HK12.Lemma3.3*'",
               "report: --effort tiny")


def _clean_env(home):
    env = {"PATH": os.pathsep.join([str(Path(sys.executable).parent), os.defpath]),
           "HOME": str(home), "TMPDIR": str(home), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
           "MPLBACKEND": "Agg"}
    if os.environ.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return env


class Page:
    """The reader's session on one page: a fresh directory, a clean environment with only what
    the page installed (:class:`Installed`; Getting started's ``pip install .`` until the page
    installs something), one Python interpreter for the Python blocks and bash for the shell
    blocks."""

    def __init__(self, name, tmp):
        self.name = name
        self.cwd = tmp / "page"
        self.logs = tmp / "logs"
        self.cwd.mkdir()
        self.logs.mkdir()
        home = tmp / "home"
        home.mkdir()
        self.installed = Installed(tmp)
        self.installed.add(DEFAULT_INSTALL)
        self.env = {**_clean_env(home), **self.installed.env()}
        self.python_process = None
        self.ran, self.applied, self.seconds = [], [], []

    # -- python
    def _interpreter(self):
        if self.python_process is None:
            read, write = os.pipe()
            self.status = os.fdopen(read)
            self.out = open(self.logs / "python.out", "w+")
            self.python_process = subprocess.Popen(
                [sys.executable, "-u", "-c", DRIVER, str(write)], cwd=self.cwd, env=self.env,
                stdin=subprocess.PIPE, stdout=self.out, stderr=subprocess.STDOUT, text=True,
                pass_fds=(write,))
            os.close(write)
        return self.python_process

    def python(self, example):
        source = example.parsed
        first = source.split("\n", 1)[0].strip()
        where = f"{self.name}:{example.line}"
        self.ran.append(where)
        listing = re.fullmatch(r"#\s*([\w/]+\.py)", first)
        if listing:
            (self.cwd / listing[1]).write_text(source, encoding="utf-8")
        edit = re.fullmatch(r"#\s*in ([\w/]+\.py), replace (\w+) by:", first)
        if edit:
            return self._edit(edit[1], edit[2], source, where)
        process = self._interpreter()
        process.stdin.write(json.dumps({"source": source, "name": where}) + "\n")
        process.stdin.flush()
        ready, _, _ = select.select([self.status], [], [], TIMEOUT)
        if not ready:
            return f"{where}: no answer within {TIMEOUT} s"
        line = self.status.readline()
        if not line:
            return f"{where}: the interpreter exited:\n{self._output()}"
        error = json.loads(line)
        return f"{where} failed:\n{source}\n{error}\n{self._output()}" if error else None

    def _output(self):
        self.out.flush()
        return (self.logs / "python.out").read_text(errors="replace")[-3000:]

    def _edit(self, filename, name, source, where):
        path = self.cwd / filename
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        node = next((n for n in tree.body if getattr(n, "name", None) == name), None)
        if node is None:
            return f"{where}: {filename} has no top-level {name} to replace"
        lines = text.split("\n")
        new = source.split("\n", 1)[1].rstrip("\n").split("\n")
        lines[node.lineno - 1:node.end_lineno] = new
        path.write_text("\n".join(lines), encoding="utf-8")
        return None

    # -- shell
    def bash(self, example):
        where = f"{self.name}:{example.line}"
        self.ran.append(where)
        script = ["set -e -o pipefail"]
        for line in example.parsed.rstrip("\n").split("\n"):
            code, rule = _equivalent(line)
            install = INSTALL.match(line.split("#", 1)[0].strip())
            if install:
                self.installed.add(install["spec"].strip("\"'"))
            if rule:
                self.applied.append((where, line, code, rule))
            expected = EXIT.search(line)
            if expected and expected[1] != "0":
                script += ["set +e", code, "status=$?", "set -e",
                           f'test $status -eq {expected[1]} || {{ echo "exit status $status, '
                           f'the page says {expected[1]}: {shlex.quote(line)}" >&2; exit 1; }}']
            else:
                script.append(code)
        result = subprocess.run(["bash", "-c", "\n".join(script)], cwd=self.cwd, env=self.env,
                                capture_output=True, text=True, timeout=TIMEOUT)
        if result.returncode != 0:
            return (f"{where} failed (exit status {result.returncode}):\n" + "\n".join(script)
                    + f"\n--- stdout\n{result.stdout[-3000:]}"
                    + f"\n--- stderr\n{result.stderr[-3000:]}")
        return None

    def close(self):
        if self.python_process is not None:
            self.python_process.stdin.close()
            self.python_process.wait(timeout=60)
            self.status.close()
            self.out.close()


def _evaluate(kind):
    def evaluator(example):
        page = example.namespace["page"]
        start = time.perf_counter()
        try:
            return getattr(page, kind)(example)
        finally:
            page.seconds.append((f"{page.name}:{example.line}", time.perf_counter() - start))
    return evaluator


SYBIL = Sybil(parsers=[SkipParser(),
                       CodeBlockParser("python", evaluator=_evaluate("python")),
                       CodeBlockParser("bash", evaluator=_evaluate("bash"))],
              path=str(ROOT))


def _examples(name):
    document = SYBIL.parse(ROOT / name)
    return document, list(document)


def _skipped(name):
    """(first line of each block marked ``skip: next``, the reason given)."""
    text = (ROOT / name).read_text(encoding="utf-8")
    return re.findall(r'<!-- skip: next "([^"]*)" -->\n+```[\w-]*\n([^\n]*)', text)


def _has_blocks(name):
    return any(e.region.evaluator is not None and not isinstance(e.parsed, tuple)
               for e in _examples(name)[1])


@pytest.mark.parametrize("name", [p for p in PAGES if _has_blocks(p)])
def test_the_blocks_of_the_page_run_as_written(name, tmp_path):
    document, examples = _examples(name)
    page = Page(name, tmp_path)
    document.namespace["page"] = page
    skipped = []
    try:
        for example in examples:
            try:
                example.evaluate()
            except pytest.skip.Exception:
                raise
            except Exception as exc:      # Sybil's skip raises unittest.SkipTest
                if type(exc).__name__ == "SkipTest":
                    skipped.append((example.line, str(exc)))
                    continue
                raise
    finally:
        page.close()
        for where, seconds in page.seconds:
            print(f"{seconds:7.1f} s  {where}")
        for where, reason in skipped:
            print(f"   skipped  {name}:{where}: {reason}")
    assert page.ran or skipped


def test_every_block_not_run_is_marked_listed_and_counted():
    """The blocks marked ``skip: next`` are exactly those of :data:`NOT_RUN`, each with its
    reason; printed with ``-s``."""
    found = {(name, first): reason for name in PAGES for reason, first in _skipped(name)}
    # a block skipped because another page runs it: that page has the same lines
    for (name, first), reason in found.items():
        elsewhere = re.search(r"\((docs/[\w/]+\.md)\)$", reason)
        if elsewhere:
            assert first in (ROOT / elsewhere[1]).read_text(encoding="utf-8"), (name, first)
    for (name, first), reason in sorted(found.items()):
        print(f"not run: {name}: {first}  -- {reason}")
    assert found == NOT_RUN
    total = sum(1 for name in PAGES for e in _examples(name)[1]
                if not isinstance(e.parsed, tuple))
    print(f"{len(found)} of {total} blocks not run")
    assert len(found) == 10 and total > 40


def test_every_command_is_in_a_block_that_runs_or_is_marked():
    """A shell command shown in an indented or unlabelled code block would be neither run nor
    counted: every code block whose lines are commands is a fenced ``bash`` block."""
    md = MarkdownIt("commonmark").use(colon_fence_plugin)
    for name in PAGES:
        for token in md.parse((ROOT / name).read_text(encoding="utf-8")):
            # a Python or shell block under another name would be neither run nor counted
            assert token.info.strip() not in ("py", "python3", "pycon", "sh", "shell", "console",
                                              "zsh", "ipython"), f"{name}:{token.map[0] + 1}"
            if token.type in ("fence", "code_block") and token.info not in ("bash", "python"):
                first = token.content.lstrip().split("\n", 1)[0]
                assert not re.match(r"(laocheck|pip|python3?|pytest|dask) ", first), \
                    f"{name}:{token.map[0] + 1}: a command outside a bash block: {first}"


def test_the_equivalents_change_only_the_size():
    assert _equivalent("laocheck verify --jobs 2 --json verify.json")[0] == \
        "laocheck verify --only 'HK12.Lemma3.3*' --jobs 2 --json verify.json"
    assert _equivalent("laocheck verify --only 'X*'")[1] is None
    assert _equivalent("laocheck report ks15_synthetic --jobs 2      # KS15")[0] == \
        "laocheck report ks15_synthetic --jobs 2 --effort tiny"
    assert _equivalent("laocheck report bounds --effort full --jobs 2")[0] == \
        "laocheck report bounds --effort tiny --jobs 2"
    assert _equivalent("python3 -m venv .venv && . .venv/bin/activate && pip install . && "
                       "laocheck verify")[0] == "laocheck verify --only 'HK12.Lemma3.3*'"
    assert _equivalent('pip install ".[docs]"')[0] == "true"


def test_a_failing_block_fails_its_page(tmp_path):
    """The negative control: a page whose command exits 1 where it says 0, whose Python raises,
    or whose edit names no definition, fails with the block's line."""
    messages = _run_page('''
        ```python
        # m.py
        def f():
            return 1
        ```

        ```python
        # in m.py, replace g by:
        def g():
            return 2
        ```

        ```bash
        python -c "import sys; sys.exit(3)"   # exit status 0
        ```

        ```python
        import m
        assert m.f() == 2, "the listing is what runs"
        ```
        ''', tmp_path)
    assert len(messages) == 3, messages
    assert "has no top-level g" in messages[0]
    assert "exit status 3" in messages[1]
    assert "the listing is what runs" in messages[2]


# ------------------------------------------------------------ what each page tells to install

#: a command -> the module it runs (its console script's or its package's)
COMMANDS = {"laocheck": "laocheck.cli", "pytest": "pytest", "dask": "distributed.cli.dask_worker",
            "cr-report": "cosmic_ray"}


def _imports(kind, source):
    """The modules a block needs: its imports, ``python -m X`` and ``[..., "-m", "X"]``, and the
    module behind each command it runs."""
    out = set(re.findall(r"""["']-m["'],\s*["']([\w.]+)["']""", source))
    if kind == "python":
        first = source.split("\n", 1)[0]
        if re.fullmatch(r"#\s*in [\w/]+\.py, replace \w+ by:", first.strip()):
            source = source.split("\n", 1)[1]
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                out |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                out.add(node.module)
        # a file the page writes and then imports is the reader's own: not installed
        return out
    for command in re.split(r"&&|\|\||[|;\n]", source):
        words = command.split("#", 1)[0].split()
        if not words or words[0] in (".", "export", "true", "cd") or "=" in words[0]:
            continue
        if words[0].startswith("python") and words[1:2] == ["-m"] and len(words) > 2:
            out.add(words[2])
        elif words[0] in COMMANDS:
            out.add(COMMANDS[words[0]])
    return out


def _page_needs(name):
    """{install spec: modules its blocks need}: each block is paired with the last ``pip
    install`` before it on the page, else :data:`DEFAULT_INSTALL`."""
    document, examples = _examples(name)
    spec, needs, own = DEFAULT_INSTALL, {}, set()
    for example in examples:
        if isinstance(example.parsed, tuple):
            continue
        kind = example.region.lexemes.get("arguments")
        source = str(example.parsed)
        if kind == "bash":
            for line in source.split("\n"):
                match = INSTALL.match(line.split("#", 1)[0].strip())
                if match:
                    spec = match["spec"].strip("\"'")
        # the reader's own files (``# mysampler.py``, ``Path("my_learners.py").write_text``)
        own |= set(re.findall(r"#\s*([\w]+)\.py\b", source.split("\n", 1)[0]))
        own |= set(re.findall(r"""Path\(["'](\w+)\.py["']\)""", source))
        needs.setdefault(spec, set()).update(_imports(kind, source))
    return {s: {m for m in ms if m.partition(".")[0] not in own} for s, ms in needs.items()}


def _probe(spec, modules, tmp, pyproject=ROOT / "pyproject.toml"):
    """{module: error} of the modules that do not import where only ``pip install SPEC``
    brought anything (:class:`Installed`)."""
    installed = Installed(tmp, pyproject)
    installed.add(spec)
    script = ("import importlib, json, sys\nmissing = {}\nfor m in json.loads(sys.argv[1]):\n"
              "    try:\n        importlib.import_module(m)\n"
              "    except ImportError as exc:\n        missing[m] = str(exc)\n"
              "print(json.dumps(missing))\n")
    out = subprocess.run([sys.executable, "-c", script, json.dumps(sorted(modules))],
                         capture_output=True, text=True, cwd=tmp, timeout=600,
                         env={**_clean_env(tmp), **installed.env()})
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_each_page_install_command_brings_what_its_blocks_import(tmp_path):
    """A fresh environment per page would cost minutes each: instead, every module a page's
    blocks import (or run with ``python -m``, or as a command) is imported in a subprocess that
    refuses every distribution the page's ``pip install`` does not bring (the project's
    dependencies and the extras it names, resolved through the installed metadata)."""
    by_spec = {}
    for name in PAGES:
        for spec, modules in _page_needs(name).items():
            for module in modules:
                by_spec.setdefault(spec, {}).setdefault(module, []).append(name)
    assert {".", ".[test]", ".[docs]"} <= set(by_spec)
    problems = []
    for spec, modules in by_spec.items():
        for module, error in _probe(spec, modules, tmp_path).items():
            problems.append(f"pip install {spec} does not bring {module} ({error}), "
                            f"used by {sorted(set(modules[module]))}")
    assert not problems, "\n".join(problems)


def test_the_install_probe_refuses_what_an_extra_does_not_bring(tmp_path):
    """The negative control: ``pip install .`` brings no pytest (the pytest plugin needs the
    test extra), and a module no distribution provides is refused too."""
    missing = _probe(".", {"pytest", "laocheck.testing.plugin", "numpy", "no_such_module"},
                     tmp_path)
    assert set(missing) == {"pytest", "laocheck.testing.plugin", "no_such_module"}
    assert _probe(".[test]", {"pytest", "laocheck.testing.plugin"}, tmp_path) == {}


def _run_page(text, tmp_path):
    page_file = tmp_path / "page.md"
    page_file.write_text(textwrap.dedent(text), encoding="utf-8")
    document = SYBIL.parse(page_file)
    page = Page("page.md", tmp_path)
    document.namespace["page"] = page
    messages = []
    try:
        for example in document:
            try:
                example.evaluate()
            except Exception as exc:
                messages.append(str(exc))
    finally:
        page.close()
    return messages


def test_a_page_imports_only_what_it_installed(tmp_path):
    """The negative control of :class:`Installed`: pytest (the ``test`` extra) is refused to a
    page that installed only laocheck, in its session and in a command it starts, and is there
    once the page installs the extra."""
    messages = _run_page('''
        ```python
        import pytest
        ```

        ```bash
        python -m pytest --version
        ```

        ```bash
        pip install ".[test]"
        ```

        ```python
        import pytest
        ```
        ''', tmp_path)
    assert len(messages) == 2, messages
    assert "`pip install .` does not install it" in messages[0]
    assert "No module named" in messages[1] and "pytest" in messages[1]
