"""The catalog's layout can be guessed from a check's id (issue 50, item 6).

``laocheck.checks`` keeps its engine in ``_*.py`` and its content in one subpackage per paper
(``cb11``, ``hk12``, ``ks15``: one module per kind of check), ``lao`` for the statements about
all three papers (``LAO.*``) and ``algorithms`` for the properties of the estimators and learners
(``<PAPER>.<Algo>.*``, drawn from their specs). These tests find, for every id, the module that
registers it (in a fresh interpreter, before any check module is imported) and compare it with
the subpackage the id names.
"""

import json
import os
import subprocess
import sys

import pytest

from laocheck import checks, estimators
from laocheck.checks import CHECK_MODULES
from laocheck.learners._specs import SPECS

PAPERS = {"CB11": "cb11", "HK12": "hk12", "KS15": "ks15", "LAO": "lao"}
KINDS = ("statements", "proofs", "proof_lines", "boxes", "text_constants", "formulas",
         "empirical", "derivations", "empirical_baseline")

#: In a fresh interpreter: wrap ``register`` before the check modules import it, import them in
#: the catalog's order, and name for every id the module whose code registered it (the caller
#: of ``register``, or of the ``_kinds`` helper that called it, such as
#: ``register_theorems("KS15")``; or the module being imported when an id appears without it).
_PROBE = """
import importlib, json, sys
from laocheck.checks import _registry
real = _registry.register
site = {}
def register(id, **kw):
    frame = sys._getframe(1)
    while frame.f_globals["__name__"].startswith("laocheck.checks._kinds."):
        frame = frame.f_back
    site.setdefault(id, frame.f_globals["__name__"])
    return real(id, **kw)
_registry.register = register
for name in _registry.CHECK_MODULES:
    before = set(_registry._CHECKS)
    importlib.import_module(name)
    for id in set(_registry._CHECKS) - before:
        site.setdefault(id, name)
defined = {id: c.func.__module__ for id, c in _registry._CHECKS.items()}
json.dump({"site": site, "defined": defined}, sys.stdout)
"""


@pytest.fixture(scope="module")
def sites():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (os.path.dirname(os.path.dirname(
        checks.__file__)), env.get("PYTHONPATH")) if p)
    out = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True,
                         env=env, timeout=300, check=True)
    return json.loads(out.stdout)


def _algorithms():
    """The ``<PAPER>.<Algo>`` of every registered estimator and learner."""
    return ({".".join(name.split(".")[:2]) for name in estimators.names()}
            | {spec.name for spec in SPECS.values()})


def expected_package(check_id, algorithms):
    """The subpackage of ``laocheck.checks`` that holds the check ``check_id``, from its id."""
    paper = check_id.split(".")[0]
    if paper != "LAO" and ".".join(check_id.split(".")[:2]) in algorithms:
        return "laocheck.checks.algorithms"
    return f"laocheck.checks.{PAPERS[paper]}"


def test_every_check_is_registered_by_a_module_of_the_subpackage_its_id_names(sites):
    algorithms = _algorithms()
    ids = {c.id for c in checks.checks()}
    assert set(sites["site"]) == ids
    wrong = {i: m for i, m in sites["site"].items()
             if m.rsplit(".", 1)[0] != expected_package(i, algorithms)}
    assert not wrong
    # inside a paper's subpackage the module is one of the kinds (statements, proofs, ...)
    kinds = {m.rsplit(".", 1)[1] for i, m in sites["site"].items()
             if not m.startswith("laocheck.checks.algorithms.")}
    assert kinds <= set(KINDS)


def test_a_check_is_defined_where_it_is_registered_or_in_the_shared_helpers_of_its_kind(sites):
    """A check function lives in the subpackage that registers it, except a function
    registered under ids of several papers (one printed line in two papers) or made by a factory
    of them (the theorems' empirical checks): it lives in ``_kinds.<kind>`` of the registering
    module's kind."""
    shared = {}
    for i, m in sites["site"].items():
        defined = sites["defined"][i]
        if defined.rsplit(".", 1)[0] == m.rsplit(".", 1)[0]:
            continue
        kind = m.rsplit(".", 1)[1]
        assert defined == f"laocheck.checks._kinds.{kind}", (i, m, defined)
        shared.setdefault(defined, set()).add(i.split(".")[0])
    # each shared function serves more than one paper
    assert all(len(papers) > 1 for papers in shared.values()), shared


def test_the_rule_reads_the_id_not_the_module():
    """The expected subpackage is a function of the id alone (a newcomer's guess)."""
    algorithms = _algorithms()
    assert expected_package("HK12.Lemma3.3.eq9", algorithms) == "laocheck.checks.hk12"
    assert expected_package("KS15.LemmaB.9.proof.step3", algorithms) == "laocheck.checks.ks15"
    assert expected_package("LAO.Bounds.scaling", algorithms) == "laocheck.checks.lao"
    assert expected_package("HK12.AERR.budget", algorithms) == "laocheck.checks.algorithms"
    assert expected_package("KS15.DDAELR.residual.budget",
                            algorithms) == "laocheck.checks.algorithms"


def test_check_modules_are_the_kinds_of_each_paper_and_the_algorithms():
    papers = [m for m in CHECK_MODULES if m.split(".")[2] in PAPERS.values()]
    for paper in ("cb11", "hk12", "ks15"):
        mine = {m.rsplit(".", 1)[1] for m in papers if m.split(".")[2] == paper}
        assert set(KINDS) - {"empirical_baseline"} <= mine <= set(KINDS)
    assert all(m.split(".")[2] in (*PAPERS.values(), "algorithms") for m in CHECK_MODULES)
