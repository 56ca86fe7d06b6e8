"""The helpers shared by the checks of one kind (``boxes``, ``proof_lines``, ``empirical``, ...)
in several papers' subpackages: one module per kind, named after the papers' modules it serves
(``laocheck.checks.cb11.boxes`` and ``laocheck.checks.hk12.boxes`` import from
``laocheck.checks._kinds.boxes``). A check registered under ids of several papers (one printed
line in two papers) is defined here and registered by each paper's module. Nothing here
registers a check.
"""
