"""The API reference: every cross-reference resolves (nitpicky), and the pages show what the
docstrings document (a learner's methods, a module's exceptions and data)."""
import importlib
import inspect
import re
import runpy
from pathlib import Path

import pytest
from docutils.frontend import get_default_settings
from docutils.parsers.rst import Parser
from sphinx.ext.autosummary import extract_summary

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture(scope="module")
def conf():
    return runpy.run_path(str(DOCS / "conf.py"))


def test_the_build_is_nitpicky_and_ignores_only_other_projects_names(conf):
    """No laocheck name is ignored: with nitpicky on, the -W build fails on any broken
    reference to one."""
    assert conf["nitpicky"] is True
    assert conf["nitpick_ignore"] == []          # every laocheck name resolves
    patterns = [pattern for _, pattern in conf["nitpick_ignore_regex"]]
    for external in ("numpy.random.SeedSequence", "np.ndarray", "sklearn.base.BaseEstimator",
                     "ValueError", "int", "hypothesis.strategies.SearchStrategy"):
        assert any(re.fullmatch(p, external) for p in patterns), external
    for ours in ("laocheck.learners.AERR", "AERR", "InvalidParameterError", "CheckFailure",
                 "laocheck.exceptions.InvalidParameterError", "Status", "run_catalog"):
        assert not any(re.fullmatch(p, ours) for p in patterns), ours


def test_a_learner_s_page_documents_its_inherited_methods(site):
    page = (site / "reference" / "generated" / "api" / "laocheck.learners.AERR.html").read_text(
        encoding="utf-8")
    for method in ("fit", "partial_fit", "fit_stream", "fit_oracle", "predict", "theory_step"):
        assert f'id="laocheck.learners.AERR.{method}"' in page, method
    assert 'id="laocheck.learners.AERR.set_params"' not in page      # scikit-learn's


def test_module_pages_document_their_exceptions_and_data(site):
    api = site / "reference" / "generated" / "api"
    assert (api / "laocheck.testing.CheckFailure.html").is_file()
    assert (api / "laocheck.exceptions.InvalidParameterError.html").is_file()
    checks = (api / "laocheck.checks.html").read_text(encoding="utf-8")
    assert 'id="laocheck.checks.DEFAULT_DELTA"' in checks
    # a datum shows its #: comment, never the docstring of its type (float's, tuple's)
    assert "Convert a string or number" not in checks
    assert "Built-in immutable sequence" not in checks
    report = (api / "laocheck.report.html").read_text(encoding="utf-8")
    assert "the renderers a spec" in report                  # the #: comment of KINDS


def _public_objects(modules):
    """(name, object) of each module of the API page, its ``__all__`` names and their public
    methods and properties."""
    for m in modules:
        mod = importlib.import_module(m)
        yield m, mod
        for n in getattr(mod, "__all__", []):
            obj = getattr(mod, n)
            yield f"{m}.{n}", obj
            if inspect.isclass(obj):
                for a, v in vars(obj).items():
                    if not a.startswith("_") and (inspect.isfunction(v) or isinstance(v, property)):
                        yield f"{m}.{n}.{a}", v


def test_no_summary_is_cut_inside_a_paper_label(conf):
    """The API tables' one-line summaries (autosummary's first sentence, with the docs'
    configuration: ``conf`` ran docs/conf.py) are whole: never "... (KS15 Alg." or "KS15
    Sec.", brackets balanced (issue 49)."""
    modules = re.findall(r"^   (laocheck[\w.]*)$", (DOCS / "reference" / "api.md").read_text(
        encoding="utf-8"), re.M)
    assert "laocheck.learners" in modules and "laocheck.experiments.papers" in modules
    settings = get_default_settings(Parser)
    settings.report_level, settings.language_code, settings.tab_width = 5, "en", 8
    cut, seen = [], 0
    for name, obj in _public_objects(modules):
        doc = inspect.getdoc(obj) if getattr(obj, "__doc__", None) else None
        if not doc:
            continue
        summary = extract_summary(doc.splitlines(), settings)
        seen += 1
        if (summary.count("(") != summary.count(")") or summary.count("[") != summary.count("]")
                or summary.endswith(conf["PAPER_ABBREVIATIONS"])):
            cut.append((name, summary))
    assert seen > 200
    assert cut == []
    # the cases issue 49 found, read whole
    aerr = extract_summary(inspect.getdoc(importlib.import_module("laocheck.learners").AERR)
                           .splitlines(), settings)
    assert aerr.startswith("HK12 Alg. 1") and aerr.endswith(".") and len(aerr) > 20
