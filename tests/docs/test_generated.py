"""The generated reference pages are complete: the CLI page has every subcommand and option of
the argparse parser, the catalog every check (under its paper and its statement), the formulas
page every formula of laocheck.bounds, the specs page every shipped spec. The pages are
produced by docs/_ext/laocheck_docs.py, as the docs build does, and also looked for in the
built site."""
import argparse
import html
import importlib.util
import inspect
import re
from pathlib import Path

import pytest

from laocheck import bounds, checks
from laocheck.cli import _build_parser

ROOT = Path(__file__).resolve().parents[2]
EXT = ROOT / "docs" / "_ext" / "laocheck_docs.py"


@pytest.fixture(scope="module")
def ext():
    spec = importlib.util.spec_from_file_location("laocheck_docs", EXT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _subparsers(parser, prefix="laocheck"):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield f"{prefix} {name}", sub
                yield from _subparsers(sub, f"{prefix} {name}")


def test_the_cli_page_has_every_subcommand_and_option(ext):
    page = ext.cli_page()
    subs = list(_subparsers(_build_parser()))
    assert len(subs) >= 7
    for command, sub in subs:
        assert f"`{command}`" in page, command
        section = page.split(f"`{command}`", 1)[1]
        for action in sub._actions:
            if action.help == argparse.SUPPRESS:
                continue
            for flag in action.option_strings:
                assert f"`{flag}`" in section, (command, flag)


def test_the_catalog_pages_list_every_check_under_its_statement(ext):
    pages = ext.catalog_pages()
    everything = checks.checks()
    assert len(everything) > 400
    for check in everything:
        page = pages[check.id.split(".", 1)[0]]
        statement = ext.statement_of(check.id)
        assert check.id.startswith(statement)
        assert f"\n## {statement}\n" in page, statement
        entry = page.split(f"\n### {check.id}\n", 1)
        assert len(entry) == 2, check.id
        body = entry[1].split("\n### ", 1)[0]
        assert "Citation\n:" in body and "Statement\n:" in body and "Method\n:" in body
        assert ("δ\n: 0 " in body) if not check.delta else (f"δ\n: {check.delta:g}" in body)
        assert f"Expected status\n: " in body and check.expected.value in body
        # the file and line of the check's source, where a reader of the page finds the code
        source = re.search(r"Source\n: `(src/laocheck/checks/[a-z0-9_/]+\.py):(\d+)`", body)
        assert source, check.id
        lines = (ROOT / source[1]).read_text(encoding="utf-8").splitlines()
        start = int(source[2]) - 1                  # the first decorator, or the def itself
        block = "\n".join(lines[start:start + 20]).split("\n\n", 1)[0]
        name = inspect.unwrap(check.func).__code__.co_name     # a factory's check: "check"
        assert f"def {name}(" in block or "lambda" in block, (check.id, source[0])


def test_statement_of_names_the_paper_s_label(ext):
    assert ext.statement_of("HK12.Lemma3.3.eq9_corrected") == "HK12.Lemma3.3"
    assert ext.statement_of("KS15.LemmaB.9") == "KS15.LemmaB.9"
    assert ext.statement_of("KS15.Thm3.12.empirical") == "KS15.Thm3.12"
    assert ext.statement_of("CB11.Fig1.objective") == "CB11.Fig1"


def test_the_formulas_page_has_every_formula_as_mathml(ext):
    page = ext.formulas_page()
    for fid in bounds.FORMULAS:
        assert f"### `{fid}`" in page, fid
    assert page.count("<math ") == len(bounds.FORMULAS)


def test_the_specs_page_shows_every_shipped_spec(ext):
    import laocheck.report

    page = ext.specs_page()
    specs = sorted((Path(laocheck.report.__file__).parent / "specs").glob("*.toml"))
    assert specs
    for spec in specs:
        assert f"## `{spec.name}`" in page and spec.read_text().strip() in page


def test_the_benchmarks_page_renders_each_json_result_with_its_provenance(ext, tmp_path):
    import json

    rows = [{"estimator": "HK12.AERR.gradient", "d": 100, "kernel": 2.5e7},
            {"estimator": "HK12.AELR.gradient", "d": 1000, "kernel": 2.4e7}]
    meta = {"date": "2026-11-25 20:00 UTC", "commit": "abc123", "machine": "x86_64",
            "load_average_at_end": 0.3}
    (tmp_path / "estimators.json").write_text(json.dumps({"meta": meta, "rows": rows}))
    page = ext.benchmarks_page(tmp_path)
    assert "## `estimators`" in page
    for key, value in meta.items():
        assert f"| {ext._md(key)} | {ext._cell(value)} |" in page
    assert "| estimator | d | kernel |" in page
    assert "| HK12.AERR.gradient | 100 | 2.5e+07 |" in page
    assert "No benchmark result" in ext.benchmarks_page(tmp_path / "none")


def test_the_benchmarks_page_states_the_catalogs_cost_from_the_durations_file(ext, tmp_path):
    """The catalog's time per budget in the docs comes from the file the runner schedules
    with, with the machine and date of the run that measured it."""
    import json

    doc = {"fast": {"meta": {"date": "2026-11-27 19:00 UTC", "commit": "5414cac4d8a0beef",
                             "machine": "x86_64", "cpu_count": 2, "jobs": 2,
                             "wall_seconds": 38.5, "load_average_at_end": 1.27},
                    "cpu_seconds": {"A.one": 3.0, "B.two": 1.0}},
           "full": {"meta": {"date": "2026-11-28 09:00 UTC", "jobs": 2, "wall_seconds": 400},
                    "cpu_seconds": {"A.one": 600.0, "C.three": 200.0}}}
    path = tmp_path / "durations.json"
    path.write_text(json.dumps(doc))
    page = "\n".join(ext.catalog_cost_section(path))
    assert ("| fast | 2 | 2 | 38.5 | 4.0 | `A.one` | 3.0 | 75.0 % | 2026-11-27 19:00 UTC | "
            f"5414cac4d8 | {ext._md('2 CPUs, x86_64')} | 1.27 |") in page
    assert "| full | 2 | 2 | 400 | 800.0 | `A.one` | 600.0 | 75.0 % |" in page
    assert "| 2026-11-28 09:00 UTC |  | ? CPUs, ? |  |" in page   # what the run did not say
    assert page.index("| `A.one` | 600.0 |") < page.index("| `C.three` | 200.0 |")
    # the shipped file: every budget it holds is stated, with its total CPU
    shipped = json.loads(ext.DURATIONS.read_text())
    section = "\n".join(ext.catalog_cost_section())
    for budget, entry in shipped.items():
        total = round(sum(entry["cpu_seconds"].values()), 1)
        assert f"| {budget} | {len(entry['cpu_seconds'])} |" in section
        assert f"| {total:.1f} |" in section


def test_the_built_site_has_the_generated_pages(site):
    for page in ("reference/generated/cli.html", "reference/generated/formulas.html",
                 "reference/generated/specs.html", "reference/errata.html",
                 "reference/generated/catalog/index.html", "benchmarks/index.html",
                 "reference/api.html", "gallery/index.html"):
        assert (site / page).is_file(), page
    # the errata page carries ERRATA.md: its count line and every entry's heading
    errata = (site / "reference" / "errata.html").read_text()
    source = (EXT.parents[2] / "ERRATA.md").read_text()
    count = re.search(r"^(\d+) errata \(", source, flags=re.M).group(1)
    assert f"{count} errata (" in errata
    for heading in re.findall(r"^### (.+)$", source, flags=re.M):
        plain = re.sub(r"[*`]", "", heading)
        assert plain.split(" (")[0] in errata, heading


#: statements whose formulas laocheck.bounds holds, one or more of each paper
MATH_STATEMENTS = ("HK12.Thm3.1", "HK12.Thm3.4", "HK12.Lemma3.3", "CB11.Thm12", "CB11.Thm6",
                   "KS15.Thm4.7", "KS15.Thm3.6", "KS15.Lemma3.4")
#: checks that are checks of one formula of that id (a step size, its proof's reading)
MATH_CHECKS = {"CB11.Thm12.lambda": "CB11.Thm12.lambda",
               "CB11.Thm12.lambda_proof": "CB11.Thm12.lambda_proof",
               "HK12.Thm3.4.eta": "HK12.Thm3.4.eta",
               "HK12.Thm3.4.eta_proof": "HK12.Thm3.4.eta_proof"}


def _section(page, heading, level="## "):
    """The text under ``heading`` up to the next heading of the same level or above."""
    body = page.split(f"\n{level}{heading}\n", 1)[1]
    return re.split(r"\n#{2,%d} " % len(level.strip()), body, maxsplit=1)[0]


def _maths(text):
    """{formula id: (alttext, MathML)} of the formula blocks in ``text``."""
    return {m.group(1): (m.group(2), m.group(3)) for m in re.finditer(
        r'data-formula="([^"]+)"><math display="block" alttext="([^"]*)">(.*?)</math>', text)}


def test_catalog_statements_show_their_formulas_as_the_formulas_page_does(ext):
    pages = ext.catalog_pages()
    formulas_page = _maths(ext.formulas_page())
    assert len(formulas_page) == len(bounds.FORMULAS)
    for label in MATH_STATEMENTS:
        intro = _section(pages[label.split(".")[0]], label).split("\n### ", 1)[0]
        shown = _maths(intro)
        expected = [fid for fid in bounds.FORMULAS if ext.statement_of(fid) == label]
        assert expected and list(shown) == expected, label
        for fid, (alt, mathml) in shown.items():
            # sympy's expression, the same markup as on the formulas page
            assert alt == html.escape(str(bounds.FORMULAS[fid].expr)), fid
            assert (alt, mathml) == formulas_page[fid]
            assert "<mfrac>" in mathml or "<msup>" in mathml or "<msqrt>" in mathml, fid
    for check_id, fid in MATH_CHECKS.items():
        entry = _section(pages[check_id.split(".")[0]], check_id, "### ")
        assert list(_maths(entry)) == [fid], check_id
        assert entry.index("Statement\n:") < entry.index(f"Formula\n: `{fid}`")


def test_statements_without_a_formula_of_laocheck_bounds_stay_text(ext):
    pages = ext.catalog_pages()
    # a lemma on clipping (no formula of laocheck.bounds) and a check of a statement that
    # has formulas but is not itself one (an empirical run of the theorem)
    assert "<math" not in _section(pages["HK12"], "HK12.LemmaA.2", "## ").split("\n### ")[0]
    for check_id in ("HK12.Lemma3.3.eq9", "HK12.Thm3.1.empirical", "KS15.LemmaB.4"):
        entry = _section(pages[check_id.split(".")[0]], check_id, "### ")
        assert "<math" not in entry and "Statement\n:" in entry, check_id
    # every formula shown in the catalog is one of laocheck.bounds, under its own statement
    every = {fid for page in pages.values() for fid in _maths(page)}
    assert every <= set(bounds.FORMULAS) and len(every) >= 60


def test_the_built_catalog_renders_statements_as_mathml(site):
    page = (site / "reference" / "generated" / "catalog" / "HK12.html").read_text()
    for fid in ("HK12.Thm3.1.bound", "HK12.Thm3.4.eta", "HK12.Lemma3.3.G2"):
        found = re.search(r'data-formula="%s"><math display="block" alttext="([^"]*)">'
                          % re.escape(fid), page)
        assert found and found.group(1) == html.escape(str(bounds.FORMULAS[fid].expr)), fid
