"""Math in the catalog is rendered as the rest of the docs' math: MathML written at build time.

The catalog's statements, assumptions and methods are Unicode transcriptions of the papers
(``E_t[‖x̃_t‖²₂] = (d + k − 1)/k·‖x_t‖²₂ <= 2d/k``). The pages cut each text into prose and
mathematics (docs/_ext/laocheck_math.py) and render the mathematics with the site's math
renderer (``html_math_renderer = "mathml"``: latex2mathml at build time), as the formulas beside
them (sympy's MathML): no raw LaTeX, no MathJax, the text itself unchanged.
"""
import html
import importlib.util
import re
from pathlib import Path

import pytest
from latex2mathml.converter import convert

from laocheck import bounds, checks

ROOT = Path(__file__).resolve().parents[2]
EXT = ROOT / "docs" / "_ext"
FIELDS = ("citation", "statement", "assumptions", "method", "detectable")
#: symbols that only mathematics uses: none may be left in the prose of a catalog text
MATH_SYMBOLS = re.compile(r"[‖√Σ≤≥∝²³ᵀ₁₂⟨⟩∞∇∈ḡŷ]|[a-z]̃|_\{|\^\{|<=|>=")
#: what a raw LaTeX formula leaves in a page's text
RAW_LATEX = re.compile(r"\$|\\\(|\\\[|\\(?:frac|sqrt|tilde|bar|hat|le|ge|sum|mathrm|"
                       r"operatorname|cdot|infty|propto|langle)\b|\\\||\{math\}|_\{|\^\{")


def _load(name):
    spec = importlib.util.spec_from_file_location(name, EXT / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def lm():
    return _load("laocheck_math")


@pytest.fixture(scope="module")
def ext(lm):
    return _load("laocheck_docs")


def _texts():
    for check in checks.checks():
        for field in FIELDS:
            text = " ".join(str(getattr(check, field) or "").split())
            if text:
                yield check.id, field, text
    # the formulas' descriptions and citations, beside sympy's MathML (catalog, formulas page)
    for fid, formula in bounds.FORMULAS.items():
        for field in ("description", "citation", "assumptions", "note", "erratum"):
            text = " ".join(str(getattr(formula, field) or "").split())
            if text:
                yield fid, field, text


def test_every_catalog_text_is_cut_without_a_change_and_its_math_converts(lm):
    pieces = 0
    for cid, field, text in _texts():
        segments = lm.segments(text)
        # rendered, never rewritten: the pieces are the registered text
        assert "".join(piece for _, piece in segments) == text, (cid, field)
        for kind, piece in segments:
            if kind == "math":
                pieces += 1
                mathml = convert(lm.to_latex(piece))
                assert mathml.startswith("<math"), (cid, piece)
            else:
                # every symbol of mathematics is inside a piece of mathematics
                assert not MATH_SYMBOLS.search(piece), (cid, field, piece)
    assert pieces > 1000


@pytest.mark.parametrize("text, math, prose", [
    ("E_t[‖x̃_t‖²₂] = (d + k − 1)/k·‖x_t‖²₂ <= 2d/k (‖x‖₂ <= 1), HK12 eq. (9)",
     ["E_t[‖x̃_t‖²₂] = (d + k − 1)/k·‖x_t‖²₂ <= 2d/k (‖x‖₂ <= 1)"], [", HK12 eq. (9)"]),
    ("the sampler of KS15.GAELR.gradient is unbiased for its target", [],
     ["the sampler of KS15.GAELR.gradient is unbiased for its target"]),
    ("every draw of HK12.AELR.residual observes at most 1 attributes of x",
     ["x"], ["every draw of HK12.AELR.residual observes at most 1 attributes of "]),
    ("KS15.GAELR.gradient refuses a q with q_i = 0 where x_i ≠ 0, naming `q` (x̃ would be "
     "biased)", ["q", "q_i = 0", "x_i ≠ 0", "x̃"], ["naming `q` (", " would be biased)"]),
    ("(a − y)² − (b − y)² = (a − b)(a + b − 2y), attained at a = b = B",
     ["(a − y)² − (b − y)² = (a − b)(a + b − 2y)", "a = b = B"], [", attained at "]),
])
def test_prose_and_mathematics_are_told_apart(lm, text, math, prose):
    segments = lm.segments(text)
    assert [p for k, p in segments if k == "math"] == math
    for piece in prose:
        assert any(piece in p for k, p in segments if k == "text"), (piece, segments)


def test_the_latex_a_statement_reads_as(lm):
    def latex(text):
        return lm.to_latex(text).replace(" ", "")

    assert latex("E_t[‖x̃_t‖²₂] = (d + k − 1)/k·‖x_t‖²₂ <= 2d/k") == (
        r"E_{t}[\Vert\tilde{x}_{t}\Vert^{2}_{2}]=(d+k-1)/k\cdot\Vertx_{t}\Vert^{2}_{2}\le2d/k")
    # a space between two terms is a thin space, as "ln m" or "(9) E" are read
    assert latex("√((2/m) ln 2d)") == r"\sqrt{(2/m)\,\ln\,2d}"
    assert latex("L_max·B") == r"L_{\mathrm{max}}\cdotB"
    assert latex("w*ᵀḡ_t") == r"w^{*T}\bar{g}_{t}"
    assert latex("Σ_{c∈C} x_c") == r"\sum_{c\inC}\,x_{c}"
    assert latex("|y| <= B") == r"\verty\vert\leB"
    assert latex("E||g~||^2") == r"E\Vert\tilde{g}\Vert^{2}"
    # the ASCII transcriptions' notation: w-bar, y^_t, Greek letters written out, phi~
    assert latex("L(w-bar) <= c sqrt(ln(m/delta))") == (
        r"L(\bar{w})\lec\,\sqrt{\ln(m/\delta)}")
    assert latex("2(y^_t − y_t) E[phi~^2]") == r"2(\hat{y}_{t}-y_{t})\,E[\tilde{\phi}^{2}]"
    assert latex("L(w^) − min L") == r"L(\hat{w})-\min\,L"
    # no bar in the LaTeX: a Markdown table (the catalog's citations) would split a cell there
    assert "|" not in latex("(w = argmin_{‖u‖₁<=B}‖u − w‖, |y| <= B)")


def test_the_catalog_markdown_writes_statement_math_as_math_roles(ext):
    page = ext.catalog_pages()["HK12"]
    entry = page.split("\n### HK12.Lemma3.3.eq9_corrected\n", 1)[1].split("\n### ", 1)[0]
    statement = re.search(r"Statement\n: (.*)\n", entry).group(1)
    roles = re.findall(r"\{math\}`([^`]*)`", statement)
    assert len(roles) == 1 and r"\tilde{x}" in roles[0], statement
    # the prose between them stays escaped Markdown, with no mathematics of its own
    prose = re.sub(r"\{math\}`[^`]*`", "", statement)
    assert not MATH_SYMBOLS.search(prose), prose
    # the negative control: the text as the page wrote it before, plain, holds the symbols
    assert MATH_SYMBOLS.search(ext._md(checks.checks("HK12.Lemma3.3.eq9_corrected")[0].statement))


def _visible_text(page):
    """The page's prose: its text outside <math>, code, <script>, <style> and tags."""
    page = re.sub(r"<(math|script|style|code|pre)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"<[^>]+>", " ", page)
    return html.unescape(page)


def _statement_cells(page):
    return re.findall(r"<dt>Statement</dt>\s*<dd>(.*?)</dd>", page, flags=re.S)


def test_the_built_catalog_shows_statements_as_mathml_and_no_raw_latex(site):
    catalog = site / "reference" / "generated" / "catalog"
    formulas = (site / "reference" / "generated" / "formulas.html").read_text(encoding="utf-8")
    for paper in ("CB11", "HK12", "KS15", "LAO"):
        page = (catalog / f"{paper}.html").read_text(encoding="utf-8")
        text = _visible_text(page)
        raw = RAW_LATEX.search(text)
        assert raw is None, (paper, text[max(0, raw.start() - 80):raw.end() + 80])
        assert not re.search(r"mathjax|katex", page, flags=re.I), paper
        cells = _statement_cells(page)
        assert cells, paper
        # no statement shows a symbol of mathematics outside MathML
        for cell in cells:
            leftover = MATH_SYMBOLS.search(_visible_text(cell))
            assert leftover is None, (paper, _visible_text(cell)[:300])
        if paper != "LAO":
            assert sum("<math" in cell for cell in cells) > len(cells) / 2, paper
    # one renderer: inline statement math and the display formulas are both MathML elements,
    # written at build time, and the formulas page loads no math script either
    text = _visible_text(formulas)
    raw = RAW_LATEX.search(text)
    assert raw is None, text[max(0, raw.start() - 80):raw.end() + 80]
    assert not MATH_SYMBOLS.search(text), MATH_SYMBOLS.search(text)
    hk12 = (catalog / "HK12.html").read_text(encoding="utf-8")
    eq9 = hk12.split('id="check-hk12-lemma3-3-eq9-corrected"', 1)[1]
    cell = _statement_cells(eq9)[0]
    assert re.search(r'<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline">', cell)
    assert "<msubsup>" in cell and "<mover" in cell
    assert re.search(r'<math display="block"', hk12) and "<math" in formulas
    assert not re.search(r"mathjax|katex", formulas, flags=re.I)
