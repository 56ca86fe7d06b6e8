"""Sphinx extension: laocheck's reference pages, generated from the code at build time.

Nothing here is typed by hand: each page is written from what the code registers, when the
build starts (``builder-inited``), into ``docs/reference/generated/`` (git-ignored).

* ``cli.md``: every subcommand and option of ``laocheck.cli._build_parser()``;
* ``catalog/<PAPER>.md``: every registered check (``laocheck.checks.checks()``), one page per
  paper, each check a ``check`` object so that the search finds it by id (``HK12.Lemma3.3``),
  with the file and line of its source (``src/laocheck/checks/hk12/statements.py:123``);
  with its expected status and, when a ``laocheck verify --json`` record of the same version is
  given (``LAOCHECK_DOCS_VERIFY_JSON``, or ``docs/_build/verify.json``), its measured status;
* ``formulas.md``: every formula of ``laocheck.bounds.FORMULAS``, as MathML written by sympy;
* ``specs.md``: the report specs shipped in ``laocheck/report/specs``;
* ``benchmarks.md``: the tables of the benchmarks' JSON files in ``benchmarks/results/``.
"""
import functools
import html
import inspect
import json
import os
import re
import sys
from collections import defaultdict
from pathlib import Path

import sympy

# its sibling module, also when this file is loaded by path (the tests) rather than from
# conf.py's sys.path
sys.path.insert(0, str(Path(__file__).resolve().parent))
import laocheck_math  # noqa: E402

HERE = Path(__file__).resolve().parents[1]          # docs/
ROOT = HERE.parent                                  # the repository
OUT = HERE / "reference" / "generated"
PAPERS = {
    "CB11": "Cesa-Bianchi, Shalev-Shwartz, Shamir. *Efficient Learning with Partially Observed "
            "Attributes.* JMLR 12 (2011)",
    "HK12": "Hazan, Koren. *Linear Regression with Limited Observation.* ICML 2012",
    "KS15": "Kukliansky, Shamir. *Attribute Efficient Linear Regression with Data-Dependent "
            "Sampling.* ICML 2015",
    "LAO": "properties every estimator and learner must have (not a statement of a paper)",
}


def _write(path, text):
    """Write only when changed, so that Sphinx does not rebuild unchanged pages."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def _escape(text):
    """Text with every Markdown markup character escaped (whitespace kept as it is)."""
    return re.sub(r"([\\`*_\[\]<>#|$~])", r"\\\1", str(text))


def _md(text):
    """Plain text as one Markdown paragraph: no markup is interpreted."""
    return _escape(" ".join(str(text).split()))


def _math_md(text):
    """A catalog text (a statement, its assumptions, method, detectable violation) as one
    Markdown paragraph: the prose as :func:`_md` writes it, each piece of mathematics in it a
    ``{math}`` role, rendered as MathML like all the docs' math (``laocheck_math``)."""
    return laocheck_math.to_markdown(text, _escape)


# ------------------------------------------------------------------------------------ CLI
def _action_row(parser, action):
    flags = ", ".join(f"`{s}`" for s in action.option_strings) or f"`{action.dest}`"
    if action.nargs == 0:                         # a flag: store_true, store_const, help
        meta = ""
    elif isinstance(action.metavar, str):
        meta = action.metavar
    elif action.choices and not isinstance(action.choices, dict):
        meta = "{" + ",".join(str(c) for c in action.choices) + "}"
    else:
        meta = action.dest.upper() if action.option_strings else action.dest
    helptext = parser._get_formatter()._expand_help(action) if action.help else ""
    if action.choices and not isinstance(action.choices, dict):
        helptext += " Choices: " + ", ".join(str(c) for c in action.choices) + "."
    return f"| {flags} | {('`' + meta + '`') if meta else ''} | {_md(helptext)} |"


def cli_page():
    import argparse

    from laocheck.cli import _build_parser

    parser = _build_parser()
    lines = ["# Command line: `laocheck`", "",
             "Generated from the argparse parser of `laocheck.cli` when the documentation is "
             "built: every subcommand and every option, with the help text `--help` prints.", "",
             "```text", parser.format_help().rstrip(), "```", ""]
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, subparser in sub.choices.items():
        lines += [f"(cli-{name})=", f"## `laocheck {name}`", ""]
        if subparser.description:
            lines += [_md(subparser.description), ""]
        lines += ["```text", subparser.format_usage().strip(), "```", "",
                  "| option | value | what it does |", "| --- | --- | --- |"]
        lines += [_action_row(subparser, a) for a in subparser._actions
                  if a.help != argparse.SUPPRESS]
        nested = [a for a in subparser._actions if isinstance(a, argparse._SubParsersAction)]
        lines.append("")
        for group in nested:
            for subname, subsub in group.choices.items():
                lines += [f"### `laocheck {name} {subname}`", ""]
                if subsub.description:
                    lines += [_md(subsub.description), ""]
                lines += ["```text", subsub.format_usage().strip(), "```", "",
                          "| option | value | what it does |", "| --- | --- | --- |"]
                lines += [_action_row(subsub, a) for a in subsub._actions
                          if a.help != argparse.SUPPRESS]
                lines.append("")
        lines += ["Full `--help`:", "", "```text", subparser.format_help().rstrip(), "```", ""]
    return "\n".join(lines)


# -------------------------------------------------------------------------------- catalog
def _measured():
    """(statuses by id, a sentence on the run) of a ``laocheck verify --json`` file of this
    laocheck version; None when no such file is given."""
    import datetime

    import laocheck

    path = Path(os.environ.get("LAOCHECK_DOCS_VERIFY_JSON") or HERE / "_build" / "verify.json")
    if not path.is_file():
        return None
    doc = json.loads(path.read_text(encoding="utf-8"))
    run = doc.get("run", {})
    prov = run.get("provenance", {})
    if prov.get("laocheck") != laocheck.__version__:
        return None
    statuses = {r["id"]: r["status"] for r in doc.get("checks", [])}
    written = datetime.datetime.fromtimestamp(path.stat().st_mtime, datetime.timezone.utc)
    machine = prov.get("machine") or {}
    where = (f"laocheck {prov.get('laocheck')}, commit {prov.get('commit') or 'unknown'}, "
             f"seed {run.get('seed')}, effort {run.get('effort', run.get('budget'))}, written "
             f"{written:%Y-%m-%d %H:%M} UTC on {machine.get('platform', 'an unknown machine')} "
             f"with {machine.get('cpu_count', '?')} CPUs, {run.get('seconds', '?')} s")
    return statuses, run.get("seed"), where


def _status(status):
    return f'<span class="laocheck-status-{status}">{status}</span>'


_STATEMENT = re.compile(r"^([A-Z]+\d*)\.([A-Za-z]+\d*(?:\.\d+)*)")


def statement_of(check_id):
    """The paper's statement a check id belongs to: ``HK12.Lemma3.3`` for
    ``HK12.Lemma3.3.eq9``, ``KS15.LemmaB.9`` for ``KS15.LemmaB.9``, ``CB11.Fig1`` for
    ``CB11.Fig1.objective``."""
    match = _STATEMENT.match(check_id)
    return match.group(0) if match else check_id


def source_of(check):
    """Where the check's function is written, ``src/laocheck/checks/<...>.py:<line>`` (the path
    from the repository root, also when the docs are built against an installed, non-editable
    package: its files are the repository's ``src/laocheck``). A function that
    several papers' modules register, or that a factory makes, is shown where it is written
    (``checks/_kinds/<kind>.py``). None when it has no Python source."""
    func = check.func
    while isinstance(func, functools.partial):
        func = func.func
    func = inspect.unwrap(func)
    try:
        path = Path(inspect.getsourcefile(func)).resolve()
        line = inspect.getsourcelines(func)[1]
    except (TypeError, OSError):
        return None
    parts = path.parts
    start = max(i for i, part in enumerate(parts) if part == "laocheck")    # the package
    return f"src/{'/'.join(parts[start:])}:{line}"


def _anchor(kind, name):
    return f"{kind}-" + re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def formulas_of(label_or_id, formulas):
    """The formulas of ``laocheck.bounds`` a catalog entry carries, by id alone: for a
    statement (``HK12.Thm3.1``) every formula of that statement (``HK12.Thm3.1.eta``,
    ``HK12.Thm3.1.bound``, ...); for a check, the formula it is a check of (the check
    ``CB11.Thm12.lambda`` or ``HK12.Thm3.4.eta_proof.x`` carries the formula of that id)."""
    if label_or_id == statement_of(label_or_id):
        return [f for fid, f in formulas.items() if statement_of(fid) == label_or_id]
    return [f for fid, f in formulas.items()
            if label_or_id == fid or label_or_id.startswith(fid + ".")]


def _check_entry(c, statuses, seed, formulas=None):
    lines = [f"({_anchor('check', c.id)})=", f"### {c.id}", "",
             f"```{{check}} {c.id}", "```", "",
             f"Citation\n: {_math_md(c.citation)}", "",
             f"Statement\n: {_math_md(c.statement)}", ""]
    for f in formulas_of(c.id, formulas or {}):
        # the statement's formula as sympy holds it, in the formulas page's MathML
        lines += [f"Formula\n: `{f.id}`", "", *["  " + line if line else line
                                             for line in formula_block(f)]]
    if c.assumptions:
        lines += [f"Assumptions\n: {_math_md(c.assumptions)}", ""]
    lines += [f"Method\n: {_math_md(c.method)}", "",
              f"δ\n: {c.delta:g}" if c.delta else "δ\n: 0 (exact or symbolic: no false failures)",
              "", f"Smallest detectable violation\n: {_math_md(c.detectable)}", "",
              f"Expected status\n: {_status(c.expected.value)}", ""]
    if c.id in statuses:
        lines += [f"Status at seed {seed}\n: {_status(statuses[c.id])}", ""]
    if c.correction:
        lines += [f"Corrected statement\n: [`{c.correction}`](#{_anchor('check', c.correction)})",
                  ""]
    source = source_of(c)
    if source:
        lines += [f"Source\n: `{source}`", ""]
    lines += [f"Rerun\n: `laocheck verify --only '{c.id}'`", ""]
    return lines


def catalog_pages():
    from laocheck import bounds, checks

    measured = _measured()
    by_paper = defaultdict(list)
    for check in checks.checks():
        by_paper[check.id.split(".", 1)[0]].append(check)
    pages = {}
    seed = 0
    if measured:
        statuses, seed, where = measured
        source = (f"**status at seed {seed}** is the status each check had in the `laocheck "
                  f"verify --json` run given to this build ({_md(where)}).")
    else:
        statuses = {}
        source = ("no `laocheck verify --json` record was given to this build, so only the "
                  "**expected status** (what the catalog registers the check to give) is shown; "
                  "`laocheck verify --only ID` measures it.")
    for paper in sorted(by_paper, key=lambda p: (p not in PAPERS, p)):
        items = by_paper[paper]
        title = PAPERS.get(paper, paper)
        lines = [f"# {paper}: the catalog", "", _md(title) if paper not in PAPERS else title, "",
                 f"{len(items)} checks. Generated from `laocheck.checks.checks()` when the "
                 f"documentation was built; {source}", "",
                 "| check | citation | expected | " + (f"status at seed {seed} |" if statuses else "δ |"),
                 "| --- | --- | --- | --- |"]
        for c in items:
            # δ never breaks at its exponent's hyphen ("1e-" / "06") in the narrow column
            last = _status(statuses[c.id]) if c.id in statuses else (
                "(not run)" if statuses else
                f'<span class="laocheck-nowrap">{c.delta:g}</span>' if c.delta else "exact")
            lines.append(f"| [`{c.id}`](#{_anchor('check', c.id)}) | {_math_md(c.citation)} | "
                         f"{_status(c.expected.value)} | {last} |")
        lines.append("")
        groups = defaultdict(list)
        for c in items:
            groups[statement_of(c.id)].append(c)
        for label, members in groups.items():
            lines += [f"({_anchor('statement', label)})=", f"## {label}", "",
                      f"```{{statement}} {label}", "```", "",
                      f"{len(members)} check{'s' if len(members) > 1 else ''} of "
                      f"{_md(label)}: " + ", ".join(f"[`{c.id}`](#{_anchor('check', c.id)})"
                                                     for c in members) + ".", ""]
            mine = formulas_of(label, bounds.FORMULAS)
            if mine:
                lines += [f"{_md(label)} in `laocheck.bounds` (sympy's MathML, as on the "
                          f"[formulas page](../formulas.md)): "
                          + ", ".join(f"`{f.id}`" for f in mine) + ".", ""]
                for f in mine:
                    lines += [f"`{f.id}` ({_math_md(f.description)}):", "", *formula_block(f)]
            for c in members:
                lines += _check_entry(c, statuses, seed, bounds.FORMULAS)
        pages[paper] = "\n".join(lines)
    index = ["# Check catalog", "",
             "Every statement of CB11, HK12 and KS15 that laocheck checks, one page per paper, "
             "plus the properties (`LAO.*`) every estimator and learner must have. Each check "
             "can be found by its id in the search box (for example `HK12.Lemma3.3`).", "",
             "| paper | checks |", "| --- | ---: |"]
    index += [f"| [{p}]({p}.md) | {len(by_paper[p])} |" for p in pages]
    index += ["", "```{toctree}", ":hidden:", ""] + list(pages) + ["```", ""]
    pages["index"] = "\n".join(index)
    return pages


# ------------------------------------------------------------------------------- formulas
#: laocheck.bounds' symbol names that sympy would print as words: the Greek letters they are
GREEK_SYMBOLS = {"lam": "lambda", "eps": "epsilon"}


def formula_block(f):
    """The Markdown lines of one formula of ``laocheck.bounds`` as display MathML, printed by
    sympy from its expression (``sympy.mathml``, presentation markup) at build time, with the
    plain text as ``alttext``: the formulas page and the catalog show the same markup."""
    # sympy prints a Greek letter for its name (``delta``, ``eta``), not for laocheck's short
    # names of λ and ε: those are renamed for the display only (the alttext keeps the code's)
    shown = f.expr.xreplace({sym: sympy.Symbol(GREEK_SYMBOLS[sym.name], **sym.assumptions0)
                             for sym in f.expr.free_symbols if sym.name in GREEK_SYMBOLS})
    mathml = sympy.mathml(shown, printer="presentation")
    return ["```{raw} html",
            f'<div class="laocheck-formula" data-formula="{html.escape(f.id)}"><math '
            f'display="block" alttext="{html.escape(str(f.expr))}">{mathml}</math></div>',
            "```", ""]


def formulas_page():
    from laocheck import bounds

    lines = ["# Formulas of `laocheck.bounds`", "",
             "Every formula of the three papers as laocheck holds it: one sympy expression each, "
             "from which the numbers, the learners' `eta=\"theory\"` and the symbolic checks are "
             "computed. The mathematics below is MathML printed by sympy when the documentation "
             "was built. `laocheck bounds` evaluates them.", ""]
    by_paper = defaultdict(list)
    for fid, f in bounds.FORMULAS.items():
        by_paper[fid.split(".", 1)[0]].append(f)
    for paper in sorted(by_paper):
        lines += [f"## {paper}", ""]
        for f in by_paper[paper]:
            lines += [f"### `{f.id}`", "", f"{_math_md(f.citation)}: {_math_md(f.description)} "
                      f"({_md(f.kind)}; arguments {', '.join(f'`{a}`' for a in f.args)}).", "",
                      *formula_block(f), f"Plain text: `{f.expr}`", ""]
            for label, value in (("Assumptions", f.assumptions), ("Note", f.note),
                                 ("Erratum", f.erratum)):
                if value:
                    lines += [f"{label}: {_math_md(value)}", ""]
            if not f.literal:
                lines += ["Not literally as printed in the paper (see the note).", ""]
    return "\n".join(lines)


# ---------------------------------------------------------------------------------- specs
def specs_page():
    import laocheck.report

    specs = Path(laocheck.report.__file__).parent / "specs"
    readme = (specs / "README.md").read_text(encoding="utf-8")
    readme = re.sub(r"^# .*\n", "", readme, count=1)
    lines = ["# Report specs", "",
             "The specs installed with laocheck (`laocheck/report/specs/`), each rendered by "
             "`laocheck report NAME`; shown here as shipped.", "", readme.strip(), ""]
    for path in sorted(specs.glob("*.toml")):
        lines += [f"## `{path.name}`", "", "```toml", path.read_text(encoding="utf-8").rstrip(),
                  "```", ""]
    return "\n".join(lines)


# ----------------------------------------------------------------------------- benchmarks
def _cell(value):
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, (list, dict)):
        return _md(json.dumps(value))
    return _md(value)


DURATIONS = ROOT / "src" / "laocheck" / "checks" / "_durations.json"


def catalog_cost_section(path=DURATIONS):
    """The catalog's cost per effort profile (issue "the catalog stays fast"): checks, wall and CPU
    seconds of the run that measured them, the slowest checks and their share of the CPU, with
    the machine, date, commit and load of that run (``benchmarks/catalog_durations.py`` writes
    the file; the runner reads it to submit the longest checks first)."""
    if not Path(path).exists():
        return ["## The catalog's cost per effort profile", "", "Not measured yet.", ""]
    doc = json.loads(Path(path).read_text(encoding="utf-8"))
    lines = ["## The catalog's cost per effort profile", "",
             "`laocheck verify` at each effort profile, measured by `benchmarks/catalog_durations.py` "
             "(CPU seconds per check from `time.process_time`, less sensitive to other "
             "processes than the wall time).", "",
             "| effort | checks | jobs | wall s | CPU s | slowest check | its CPU s | share "
             "| date | commit | machine | load at end |",
             "| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | --- | --- | --- | ---: |"]
    tops = {}
    for budget in sorted(doc):
        meta, seconds = doc[budget].get("meta", {}), doc[budget].get("cpu_seconds", {})
        total = sum(seconds.values())
        ranked = sorted(seconds.items(), key=lambda kv: (-kv[1], kv[0]))
        tops[budget] = ranked[:10]
        slow, slow_cpu = ranked[0] if ranked else ("", 0.0)
        share = f"{100 * slow_cpu / total:.1f} %" if total else ""
        cells = [_md(budget), str(len(seconds)), _md(meta.get("jobs", "")),
                 _md(meta.get("wall_seconds", "")), f"{total:.1f}", f"`{slow}`",
                 f"{slow_cpu:.1f}", share, _md(meta.get("date", "")),
                 _md(str(meta.get("commit", ""))[:10]),
                 _md(f"{meta.get('cpu_count', '?')} CPUs, {meta.get('machine', '?')}"),
                 _md(meta.get("load_average_at_end", ""))]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    for budget, ranked in tops.items():
        lines += [f"The ten slowest checks at the effort `{budget}`:", "", "| check | CPU s |",
                  "| --- | ---: |"]
        lines += [f"| `{cid}` | {cpu:.1f} |" for cid, cpu in ranked]
        lines.append("")
    return lines


def benchmarks_page(directory=ROOT / "benchmarks" / "results", durations=DURATIONS):
    results = sorted(Path(directory).glob("*.json"))
    lines = ["# Measured benchmarks", "",
             "Generated from the JSON files the benchmarks write (`--json PATH`), committed in "
             "`benchmarks/results/`; each table gives the machine, date and commit of its run. "
             "Speed is measured by the benchmarks, never asserted by a test.", ""]
    lines += catalog_cost_section(durations)
    if not results:
        lines += ["No benchmark result is committed yet.", ""]
    for path in results:
        doc = json.loads(path.read_text(encoding="utf-8"))
        # a benchmark that writes its run's facts at the top level (bench_fit_path.py): those
        meta = doc.get("meta") or doc.get("provenance") or {
            k: v for k, v in doc.items() if k not in ("rows", "results")}
        rows = doc.get("rows") or doc.get("results") or []
        lines += [f"## `{path.stem}`", ""]
        if meta:
            lines += ["| run | |", "| --- | --- |"]
            lines += [f"| {_md(k)} | {_cell(v)} |" for k, v in meta.items()]
            lines.append("")
        if rows and isinstance(rows, list) and isinstance(rows[0], dict):
            keys = list(dict.fromkeys(k for r in rows for k in r))
            lines += ["| " + " | ".join(_md(k) for k in keys) + " |",
                      "| " + " | ".join("---" for _ in keys) + " |"]
            lines += ["| " + " | ".join(_cell(r.get(k, "")) for k in keys) + " |" for r in rows]
        else:
            lines += ["```json", json.dumps(doc, indent=2)[:20000], "```"]
        lines.append("")
    return "\n".join(lines)


# ------------------------------------------------------------------------------ the hooks
def generate(app=None):
    _write(OUT / "cli.md", cli_page())
    for name, text in catalog_pages().items():
        _write(OUT / "catalog" / f"{name}.md", text)
    _write(OUT / "formulas.md", formulas_page())
    _write(OUT / "specs.md", specs_page())
    _write(OUT / "benchmarks.md", benchmarks_page())


# ------------------------------------------------------------- math without MathJax
def _mathml(latex, display):
    """LaTeX as MathML, converted at build time (latex2mathml): the browser renders it, so no
    MathJax is loaded and nothing is fetched when a page is viewed."""
    from latex2mathml.converter import convert

    return convert(latex, display="block" if display else "inline")


def _visit_math(self, node):
    self.body.append(_mathml(node.astext(), display=False))
    raise _SkipNode


def _visit_displaymath(self, node):
    self.body.append('<div class="math-display">' + _mathml(node.astext(), display=True)
                     + "</div>\n")
    raise _SkipNode


class _SkipNode(Exception):
    pass


_BACKTICKS = re.compile(r"(`+[^`]*`+)")


def _escape_bars(app, what, name, obj, options, lines):
    """Docstrings write absolute values and norms as ``|y|``, which reStructuredText reads as a
    substitution reference; outside backticks and tables, a bar is a literal bar."""
    for n, line in enumerate(lines):
        if "|" not in line or line.lstrip().startswith(("| ", "+-", "+=")):
            continue
        parts = _BACKTICKS.split(line)
        lines[n] = "".join(p if p.startswith("`") else re.sub(r"(?<!\\)\|", r"\\|", p)
                           for p in parts)


def _data_comment(app, what, name, obj, options, lines):
    """A datum's documentation is its ``#:`` comment. A package re-exports its modules'
    constants: a datum documented on a package's page takes the comment of the module that
    defines it (the first laocheck module, the package's own first, holding the same object
    under that name); without one it gets no text (never the docstring of its type, such as
    float's or tuple's)."""
    if what != "data":
        return

    from sphinx.errors import PycodeError
    from sphinx.pycode import ModuleAnalyzer

    package, _, attr = name.rpartition(".")
    own = sorted(m for m in list(sys.modules) if m == package or m.startswith(package + "."))
    rest = sorted(m for m in list(sys.modules) if m.startswith("laocheck.") and m not in own)
    for modname in own + rest:
        if getattr(sys.modules[modname], attr, None) is not obj:
            continue
        try:
            comment = ModuleAnalyzer.for_module(modname).find_attr_docs().get(("", attr))
        except PycodeError:
            continue
        if comment:
            lines[:] = list(comment)
            return
    if getattr(obj, "__doc__", None) == getattr(type(obj), "__doc__", None):
        lines[:] = []


def _skip_foreign_member(app, what, name, obj, skip, options):
    """The methods scikit-learn adds to every estimator (``set_params``,
    ``set_fit_request``, ...) are documented by scikit-learn, not here."""
    module = getattr(obj, "__module__", None) or ""
    if module.startswith("sklearn"):
        return True
    return None


def setup(app):
    from docutils import nodes

    global _SkipNode
    _SkipNode = nodes.SkipNode
    app.add_html_math_renderer("mathml", (_visit_math, None), (_visit_displaymath, None))
    app.add_object_type("check", "check", indextemplate="pair: %s; check",
                        objname="laocheck check")
    app.add_object_type("statement", "statement", indextemplate="pair: %s; statement",
                        objname="statement of a paper")
    app.connect("builder-inited", generate)
    app.connect("autodoc-skip-member", _skip_foreign_member)
    app.connect("autodoc-process-docstring", _data_comment)
    app.connect("autodoc-process-docstring", _escape_bars)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
