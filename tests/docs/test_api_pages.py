"""The API reference: every cross-reference resolves (nitpicky), and the pages show what the
docstrings document (a learner's methods, a module's exceptions and data)."""
import re
import runpy
from pathlib import Path

import pytest

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
