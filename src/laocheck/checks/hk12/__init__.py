"""The checks of HK12's statements (ids ``HK12.<Label>[.<part>]``), one module per kind.

The modules register their checks when the catalog imports them
(:data:`laocheck.checks.CHECK_MODULES`); this package imports nothing itself.
"""
