"""The lemma catalog: one registered check per statement of shared/CATALOG.md, section 2.

>>> from laocheck import lemmas
>>> ids = [c.id for c in lemmas.checks("HK12.Lemma3.3.*")]          # doctest: +SKIP
>>> lemmas.run(lemmas.get("HK12.Lemma3.3.unbiased.exact"), seed=0)["status"]  # doctest: +SKIP
'PASS'

See :mod:`laocheck.lemmas._registry` for the contract (Status, Result, Context, register,
checks, run) and ``laocheck verify`` for the command line.
"""

from ._registry import (BUDGETS, DEFAULT_DELTA, ERRATA_FIELDS, Check, Context, Result, Status,
                        check_seed, checks, errata, get, register, run, run_on)

__all__ = ["BUDGETS", "DEFAULT_DELTA", "ERRATA_FIELDS", "Check", "Context", "Result", "Status",
           "check_seed", "checks", "errata", "get", "register", "run", "run_on"]
