"""The check catalog behind ``laocheck verify``: every statement of CB11, HK12 and KS15 and the
properties of every estimator and learner, as registered checks.

>>> from laocheck import checks
>>> [c.id for c in checks.checks("HK12.Lemma3.3.eq9*")]
['HK12.Lemma3.3.eq9', 'HK12.Lemma3.3.eq9_corrected']
>>> checks.run("HK12.Lemma3.3.eq9", seed=0).status
'ERRATUM'

See ``laocheck.checks._registry`` for the contract (:class:`Status`, :class:`Result`,
:class:`Context`, :func:`register`, :func:`checks`, :func:`run`, :class:`CheckRecord`) and the id
scheme; ``laocheck verify`` is the command line. :func:`proof_inventory` lists every displayed line
of the papers' proofs with the checks (or the reason) that account for it, and
:func:`proof_coverage` / :func:`proof_coverage_table` summarise it (``laocheck list
--proof-coverage``).
"""

from ._coverage import coverage as proof_coverage
from ._coverage import coverage_table as proof_coverage_table
from ._coverage import inventory as proof_inventory
from ._registry import (CHECK_MODULES, CHECK_TIERS, DEFAULT_DELTA, ERRATA_FIELDS,
                        CatalogImportError,
                        Check, CheckRecord, Context, Result, Status, check_seed, checks, errata,
                        get, register, run, run_on)
from ._runner import results_path, run_catalog
from . import _registry

__all__ = ["CHECK_MODULES", "CHECK_TIERS", "DEFAULT_DELTA", "ERRATA_FIELDS", "CatalogImportError",
           "Check", "CheckRecord", "Context", "Result", "Status", "check_seed", "checks", "errata",
           "get", "register", "run", "run_on", "run_catalog", "results_path", "proof_inventory",
           "proof_coverage", "proof_coverage_table"]


def __getattr__(name):
    if name == "BUDGETS":           # deprecated since 0.1: warns in _registry's __getattr__
        return _registry.__getattr__(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
