"""The README's set-up commands and CI's script must not drift apart."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    start = ci.index("# --- README test command ---")
    end = ci.index("# --- end ---")
    command = "\n".join(ci[start + 1:end])
    readme = (ROOT / "README.md").read_text()
    assert f"```bash\n{command}\n```" in readme


def test_readme_has_exactly_two_setup_blocks():
    readme = (ROOT / "README.md").read_text()
    setup = readme.split("## Set up", 1)[1].split("\n## ", 1)[0]
    assert setup.count("```bash") == 2


# ------------------------------------------------------- issue 13, section 5: first contact
import ast                                                     # noqa: E402
import fnmatch                                                 # noqa: E402
import io                                                      # noqa: E402
import re                                                      # noqa: E402
import shlex                                                   # noqa: E402
from contextlib import redirect_stdout                         # noqa: E402

# the hand-written pages of the documentation site (docs/), as the README: their python blocks
# run, their ids exist, their links stay in the repository, their commands parse
SITE = tuple(sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").rglob("*.md")
                    if not {"_build", "generated", "gallery"} & set(p.relative_to(ROOT).parts)))
DOCS = ("README.md", "CONTRIBUTING.md") + SITE
ID = re.compile(r"\b(?:CB11|HK12|KS15|LAO)\.[A-Za-z0-9_.*?\-]*[A-Za-z0-9_*?]")


def _python_blocks(name):
    text = (ROOT / name).read_text()
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def _is_template(block):
    """A block whose body is elided with ``...`` is a template to copy, not a program."""
    return any(line.strip() == "..." for line in block.splitlines())


#: CONTRIBUTING's example of a new check: tests/test_contributing_recipes.py runs it in the
#: module CONTRIBUTING names (a scratch copy of the package), so its ids are not in the catalog
RECIPE_IDS = [i for b in _python_blocks("CONTRIBUTING.md") if not _is_template(b)
              for i in re.findall(r'@register\("([^"]+)"', b)]


def test_the_docs_have_python_blocks_to_run():
    runnable = [b for name in DOCS for b in _python_blocks(name) if not _is_template(b)]
    assert len(runnable) >= 2          # README's estimator and learner examples
    # every tutorial but the index teaches with code that runs
    for name in SITE:
        if name.startswith("docs/tutorials/") and not name.endswith("index.md"):
            text = (ROOT / name).read_text()
            assert "```python" in text or "```bash" in text, name
    # CONTRIBUTING's python blocks are templates, but for the example of a new check, which
    # tests/test_contributing_recipes.py runs where CONTRIBUTING says it goes
    examples = [b for b in _python_blocks("CONTRIBUTING.md") if not _is_template(b)]
    assert len(examples) == 1 and RECIPE_IDS == ["KS15.LemmaB.4.minimum"]


#: tutorials whose blocks run, in order and with their printed results asserted, in a test
#: of their own (not run twice)
TUTORIAL_TESTS = {"docs/tutorials/own_learner.md": "tests/testing/test_own_learner_doc.py"}


def test_the_tutorials_tested_elsewhere_are_tested():
    for name, test in TUTORIAL_TESTS.items():
        assert (ROOT / name).exists() and name[len("docs/"):] in (ROOT / test).read_text() or \
            name.rsplit("/", 1)[1] in (ROOT / test).read_text(), (name, test)


# Every python and bash block of these pages runs, page by page, in a fresh directory with
# only what the page installs: tests/docs/test_blocks_run.py.


def _help_texts():
    from laocheck.cli import _build_parser

    parser = _build_parser()
    texts = {"laocheck": parser.format_help()}
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    for command, subparser in sub.choices.items():
        texts[f"laocheck {command}"] = subparser.format_help()
    return texts


def _docstrings():
    out = {}
    for path in sorted((ROOT / "src" / "laocheck").rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in [tree] + [n for n in ast.walk(tree) if isinstance(
                n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]:
            doc = ast.get_docstring(node)
            if doc:
                where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 1)}"
                out[where] = doc
    return out


def _known_names():
    """Check ids; and the other registered names that share the id scheme: estimators, the
    formulas of laocheck.bounds, and the ids of check_learner's records of laocheck's learners
    (``<learner spec>.<property>``)."""
    from laocheck import bounds, checks, estimators
    from laocheck.checks.algorithms.learner_properties import LEARNER_PROPERTIES
    from laocheck.experiments.theorems import learner_specs

    ids = [c.id for c in checks.checks()] + RECIPE_IDS
    ids += [f"{spec.name}.{prop}" for _, spec in learner_specs() for prop in LEARNER_PROPERTIES]
    return ids, list(estimators.names()) + list(bounds.FORMULAS)


def _exists(token, ids, names):
    """A check id, an estimator name, a glob matching one, or the prefix of a family of ids
    (``HK12.Thm3.4`` for ``HK12.Thm3.4.eta_proof``)."""
    every = ids + names
    if any(c in token for c in "*?["):
        return any(fnmatch.fnmatchcase(n, token) for n in every)
    return token in every or any(n.startswith(token + ".") for n in every)


def test_every_check_id_named_in_the_docs_help_and_docstrings_exists():
    ids, names = _known_names()
    sources = {name: (ROOT / name).read_text() for name in DOCS}
    sources.update(_help_texts())
    sources.update(_docstrings())
    # a placeholder such as ``step<N>`` or ``KS15.<Label>`` stands for any value: a glob
    sources = {where: re.sub(r"<[A-Za-z]+>", "*", text) for where, text in sources.items()}
    missing = sorted({(where, token) for where, text in sources.items()
                      for token in ID.findall(text) if not _exists(token, ids, names)})
    assert not missing, f"ids named but not registered: {missing}"


def test_help_texts_name_no_file_outside_the_repository():
    for command, text in _help_texts().items():
        assert "/work" not in text and "shared/" not in text, command
        # a file the command writes (``DIR/<name>/report.md``) is not a document it points to
        for doc in re.findall(r"(?<![\w./>-])[\w.-][\w./-]*\.md\b", text):
            assert (ROOT / doc).is_file(), f"{command} --help names {doc}, not in the repository"


# pages the documentation build writes (generated reference, gallery): checked in the built
# site by tests/docs/test_links.py
BUILT = ("docs/reference/generated/", "docs/gallery/")


def test_the_docs_link_only_to_files_in_the_repository():
    for name in DOCS:
        text = (ROOT / name).read_text()
        assert "/work/" not in text and "shared/" not in text, name
        for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
            if re.match(r"[a-z]+://", target):
                continue
            path = ((ROOT / name).parent / target).resolve()
            assert path.is_relative_to(ROOT), f"{name} links to {target}, outside the repository"
            rel = str(path.relative_to(ROOT))
            assert path.exists() or rel.startswith(BUILT), \
                f"{name} links to {target}, not in the repository"


def test_the_readme_commands_name_existing_subcommands_and_options():
    """Every ``laocheck ...`` command shown in the README and the site's pages parses (no
    unknown option)."""
    from laocheck.cli import _build_parser

    commands = []
    for name in ("README.md",) + SITE:
        readme = (ROOT / name).read_text()
        commands += re.findall(r"^\s*(laocheck [^\n#`|]*?)\s*(?:#.*)?$", readme, flags=re.M)
        commands += re.findall(r"`(laocheck [^`]+)`", readme)
    commands = [c for c in commands if "[" not in c and "..." not in c]   # not synopses
    assert len(commands) > 10
    for command in commands:
        argv = shlex.split(command)[1:]
        with redirect_stdout(io.StringIO()):
            try:
                _build_parser().parse_args(argv)
            except SystemExit as exc:
                assert exc.code == 0, f"README command does not parse: {command}"
