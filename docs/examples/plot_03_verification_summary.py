"""
A verification summary: the checks of HK12 Lemmas 3.3 and 3.8
===============================================================

``laocheck verify`` runs every check of the catalog; here the checks of two lemmas run from
Python (:func:`laocheck.checks.run`), at seed 0 and the fast effort profile, and the figure counts
their statuses: PASS, FAIL, ERRATUM (the statement as printed is false; its corrected
statement is a check of its own) and INCONCLUSIVE. ``laocheck verify --only 'HK12.Lemma3.3*'``
prints the same records.
"""
from collections import Counter

import matplotlib.pyplot as plt

from laocheck import checks

selected = checks.checks("HK12.Lemma3.3*") + checks.checks("HK12.Lemma3.8*")
records = [checks.run(check, seed=0, effort="fast") for check in selected]

for r in records:
    print(f"{r.status:8s} {r.id:38s} {r.citation}")        # fits the page: 8 + 38 + 38

colours = {"PASS": "#1a7f37", "FAIL": "#cf222e", "ERRATUM": "#9a6700",
           "INCONCLUSIVE": "#6e7781"}
counts = Counter(r.status for r in records)
fig, (left, right) = plt.subplots(1, 2, figsize=(9, 4), width_ratios=[1, 2],
                               layout="constrained")
# horizontal bars: the status names are read level, never slanted into one another
left.barh(list(colours), [counts.get(s, 0) for s in colours], color=list(colours.values()))
left.set_xlabel("checks")
left.set_title("statuses at seed 0")
left.invert_yaxis()
right.barh([r.id for r in records], [r.seconds for r in records],
           color=[colours[r.status] for r in records])
right.set_xlabel("seconds")
right.set_title("each check, coloured by status")
right.invert_yaxis()
