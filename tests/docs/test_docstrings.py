"""numpydoc validation of the public API of the modules whose docstrings the docs own
(laocheck.bounds, stats, data, estimators, reference: every name in their ``__all__``).

Two tiers:

* the structural rules hold for every public function and class: a docstring exists (GL08),
  documented parameters exist and are in the signature's order (PR02, PR03), each has a
  type and a description (PR06-PR08, PR10), a Returns section is well-formed (RT02-RT04),
  the summary ends with a period (SS03);
* the completeness rules, every parameter documented (PR01) and a Returns section (RT01), with
  the exception list ``NOT_YET``, which may only shrink and is empty; the stricter tier
  ``COMPLETE`` (types, descriptions, section order, one-line summaries) holds for every name
  of these modules too.

The other public modules (``MODULES_2``: the top-level namespace, testing, checks, learners,
report, experiments, exceptions), the public methods of the learners (``LEARNER_METHODS``) and
the command's entry point ``laocheck.cli.main`` obey both tiers with no exception list.
"""
import enum
import importlib
import inspect

import pytest
from numpydoc.validate import validate

MODULES = ("laocheck.bounds", "laocheck.stats", "laocheck.stats.exact", "laocheck.data",
           "laocheck.estimators", "laocheck.reference")
STRICT = ("GL08", "PR02", "PR03", "PR06", "PR07", "PR08", "PR10", "RT02", "RT03", "RT04",
          "SS03")
NOT_YET = {
    "PR01": set(),
    "RT01": set(),
}


def _public():
    for module in MODULES:
        mod = importlib.import_module(module)
        for name in mod.__all__:
            obj = getattr(mod, name)
            if inspect.isfunction(obj) or inspect.isclass(obj):
                yield f"{module}.{name}"


PUBLIC = sorted(set(_public()))


@pytest.fixture(scope="module")
def errors():
    return {name: {code for code, _ in validate(name)["errors"]} for name in PUBLIC}


def test_the_public_api_is_found():
    assert len(PUBLIC) > 100


def test_structural_numpydoc_rules_hold_for_every_public_name(errors):
    broken = sorted((name, code) for name, codes in errors.items() for code in codes
                    if code in STRICT)
    assert broken == [], broken


@pytest.mark.parametrize("code", sorted(NOT_YET))
def test_completeness_rules_only_improve(errors, code):
    failing = {name for name, codes in errors.items() if code in codes}
    new = sorted(failing - NOT_YET[code])
    fixed = sorted(NOT_YET[code] - failing)
    assert new == [], f"{code} newly broken by {new}"
    assert fixed == [], f"{code} now holds for {fixed}: remove them from NOT_YET"


# The stricter tier: in these modules every public name is complete, so the completeness rules
# hold with no exception list: every parameter documented with a type (PR01, PR04), a Returns
# section (RT01), descriptions that end with a period (PR09, RT05), a one-line summary (SS01,
# SS06), known sections in numpydoc's order (GL06, GL07), no stray blank lines (GL01, GL03).
# Not required: an extended summary (ES01), See Also (SA01), Examples (EX01); nor a summary
# that starts with a capital letter or an infinitive verb (SS02, SS05: "x̃ = ...", "The formula
# ``id``."); nor GL02 (the Cython classes' docstrings, e.g. laocheck.estimators.AliasTable).
COMPLETE_MODULES = ("laocheck.bounds", "laocheck.stats", "laocheck.stats.exact", "laocheck.data",
                    "laocheck.estimators", "laocheck.reference")
COMPLETE = ("GL01", "GL03", "GL06", "GL07", "SS01", "SS06", "PR01", "PR04", "PR09", "RT01",
            "RT05")


def test_the_complete_modules_are_validated():
    assert set(COMPLETE_MODULES) <= set(MODULES)


def test_completeness_rules_hold_for_every_name_of_the_complete_modules(errors):
    broken = sorted((name, code) for name, codes in errors.items() for code in codes
                    if code in COMPLETE and name.rsplit(".", 1)[0] in COMPLETE_MODULES)
    assert broken == [], broken


# -- the second batch: every rule, no exception list ---------------------------------------

MODULES_2 = ("laocheck", "laocheck.effort", "laocheck.exceptions", "laocheck.testing",
             "laocheck.testing.strategies", "laocheck.checks", "laocheck.learners",
             "laocheck.report", "laocheck.experiments", "laocheck.experiments.papers")
#: the methods a user of a learner calls (scikit-learn's and the budgeted ones; ``score`` is
#: scikit-learn's RegressorMixin's, inherited unchanged with its own docstring)
LEARNER_METHODS = ("fit", "partial_fit", "fit_stream", "fit_oracle", "fit_moments", "predict",
                   "theory_step")
COMPLETE_2 = ("PR01", "RT01")


def _public_2():
    for module in MODULES_2:
        mod = importlib.import_module(module)
        for name in mod.__all__:
            obj = getattr(mod, name)
            if inspect.isfunction(obj) or inspect.isclass(obj):
                yield f"{module}.{name}"
                if module == "laocheck.learners" and inspect.isclass(obj):
                    yield from (f"{module}.{name}.{m}" for m in LEARNER_METHODS
                                if hasattr(obj, m))
    yield "laocheck.cli.main"


PUBLIC_2 = sorted(set(_public_2()))
#: an Enum's "parameters" are the enum machinery's (value, names, module, ...): its members are
#: documented as Attributes instead, and PR01 does not apply
ENUMS = {f"{module}.{name}" for module in MODULES_2
         for name in importlib.import_module(module).__all__
         if isinstance(getattr(importlib.import_module(module), name), enum.EnumMeta)}


def test_the_second_batch_is_found():
    names = set(PUBLIC_2)
    assert len(PUBLIC_2) > 200
    assert "laocheck.checks.Status" in ENUMS
    assert {"laocheck.LaocheckError", "laocheck.testing.check_estimator",
            "laocheck.checks.run_catalog", "laocheck.learners.AERR.fit_stream",
            "laocheck.report.build_report", "laocheck.experiments.compare"} <= names


def test_every_numpydoc_rule_holds_for_the_second_batch():
    broken = sorted((name, code, message) for name in PUBLIC_2
                    for code, message in validate(name)["errors"]
                    if code in STRICT + COMPLETE_2 and not (code == "PR01" and name in ENUMS))
    assert broken == [], broken
