"""Sphinx configuration of laocheck's documentation site.

Build it from the repository root with ``python -m sphinx -W --keep-going -b html docs docs/_build/html``
(after ``pip install ".[docs]"``). Nothing is fetched from the network at build or view time:
the theme's fonts are the system's, math is MathML written at build time (sympy), and no
MathJax is loaded.
"""
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

import laocheck  # noqa: E402
import laocheck_numbers  # noqa: E402
import sphinx.ext.autosummary as autosummary  # noqa: E402

project = "laocheck"
author = "the laocheck developers"
release = laocheck.__version__
version = release
copyright = "the laocheck developers"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
    "laocheck_docs",
]

# "--jobs" stays two hyphens (docutils would print an en dash in prose)
smartquotes = False

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "examples/README.txt", "**/README.md"]
templates_path = ["_templates"]

myst_enable_extensions = ["colon_fence", "deflist", "substitution"]
myst_heading_anchors = 3
# Every time, size or count the pages state is a substitution (``{{ verify_cpu }}``) read at
# build time from the JSON the benchmarks write, with the machine and the date beside it
# (docs/_ext/laocheck_numbers.py; tests/docs/test_numbers.py)
myst_substitutions = laocheck_numbers.figures()

# numpydoc: no member tables of every class (autosummary lists the public names)
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
autosummary_generate = True
autosummary_imported_members = True     # a package's API is its __all__
autosummary_ignore_module_all = False
#: a summary (autosummary's first sentence of a docstring) never ends inside a paper's label:
#: "(KS15 Alg. 1)", "(CB11 Sec. 4)", "KS15 eq. (13)" are read on past their period, as Sphinx
#: reads past "e.g." (its WELL_KNOWN_ABBREVIATIONS; tests/docs/test_api_pages.py checks every
#: public name's summary)
PAPER_ABBREVIATIONS = tuple(f"{before}{word}." for word in (
    "Sec", "Alg", "Thm", "App", "Fig", "Figs", "eq", "eqs", "Eq", "Eqs", "Lem", "Cor", "Prop",
    "Def", "Ch", "resp") for before in (" ", "("))
autosummary.WELL_KNOWN_ABBREVIATIONS = (*autosummary.WELL_KNOWN_ABBREVIATIONS,
                                        *PAPER_ABBREVIATIONS)
# (no autodoc_default_options: a default "members" overrides the templates' ``:members:``, and
# the class pages then showed no method, not even a learner's fit)
autodoc_typehints = "none"

#: the names of each API page's module data (``__all__`` minus classes, functions and modules),
#: documented on its page (autosummary lists only data with a ``#:`` comment in the module
#: itself, and laocheck's packages re-export theirs)
autosummary_context = {"module_data": {}}


def _module_data():
    import importlib
    import inspect
    import re as _re
    api = (HERE / "reference" / "api.md").read_text(encoding="utf-8")
    for name in _re.findall(r"^   (laocheck[\w.]*)$", api, flags=_re.M):
        mod = importlib.import_module(name)
        autosummary_context["module_data"][name] = [
            n for n in getattr(mod, "__all__", ())
            if not n.startswith("_") and not (inspect.isclass(getattr(mod, n))
                                              or inspect.isroutine(getattr(mod, n))
                                              or inspect.ismodule(getattr(mod, n)))]


_module_data()

# Every cross-reference must resolve: a broken reference to a laocheck name is an error
# (``-W``). There is no intersphinx (no network), so the names of other projects are ignored
# here, and only those: Python's, NumPy's, SciPy's, scikit-learn's, hypothesis', pytest's,
# matplotlib's, sympy's, joblib's and Dask's.
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r"(numpy|np|scipy|sklearn|hypothesis|pytest|matplotlib|sympy|joblib|dask|"
               r"pandas|fractions|functools|fnmatch|pathlib|os|typing|collections|enum|"
               r"dataclasses|argparse|tomllib|json|math|random)(\..*)?"),
    (r"py:.*", "(builtins\\.)?(" + "|".join(n for n in dir(__import__("builtins"))
                                          if not n.startswith("_")) + ")"),
]
# Every laocheck name must resolve (tests/docs/test_api_pages.py): nothing of ours is ignored.
nitpick_ignore = []
suppress_warnings = ["config.cache"]

html_theme = "furo"
html_title = f"laocheck {release}"
html_static_path = ["_static"]
html_css_files = ["laocheck.css"]
html_show_sourcelink = False
html_copy_source = False

# No MathJax: math is MathML written at build time (latex2mathml; see _ext/laocheck_docs.py),
# which the browser renders without fetching anything.
html_math_renderer = "mathml"

# The gallery runs at tiny sizes (every script < 1 minute); LAOCHECK_DOCS_GALLERY=0 skips
# running it (the pages are then built from what was last run).
sphinx_gallery_conf = {
    "examples_dirs": "examples",
    "gallery_dirs": "gallery",
    "filename_pattern": r"/plot_",
    "plot_gallery": os.environ.get("LAOCHECK_DOCS_GALLERY", "True"),
    "download_all_examples": False,
    "remove_config_comments": True,
    "show_signature": False,
    "image_scrapers": ("matplotlib",),
    "matplotlib_animations": False,
    "within_subsection_order": "FileNameSortKey",
    "abort_on_example_error": True,
    # its timing page loads DataTables and Bootstrap from a CDN: not written (nothing is
    # fetched at view time)
    "write_computation_times": False,
}
