"""The checks of the statements about all three papers at once (ids ``LAO.*``): how the bounds
scale and the tables that compare them, one module per kind.

The modules register their checks when the catalog imports them
(:data:`laocheck.checks.CHECK_MODULES`); this package imports nothing itself.
"""
