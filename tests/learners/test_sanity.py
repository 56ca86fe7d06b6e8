"""Every learner's excess risk falls with m on a distribution with exact risk (the issue's
sanity run; the theorem checks live in laocheck.experiments). Deterministic: fixed seeds, the
mean over three of them, at m = 1000 and m = 50000 (``benchmarks/sanity_excess_risk.py``
prints the full table)."""
import importlib.util
import pathlib
import sys

import pytest

_BENCHMARKS = pathlib.Path(__file__).resolve().parents[2] / "benchmarks"
# the script imports its sibling _results as `python benchmarks/sanity_excess_risk.py` would
if str(_BENCHMARKS) not in sys.path:
    sys.path.append(str(_BENCHMARKS))
_spec = importlib.util.spec_from_file_location("sanity_excess_risk",
                                               _BENCHMARKS / "sanity_excess_risk.py")
sanity = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sanity)


@pytest.mark.parametrize("name", list(sanity.learners()))
def test_excess_risk_decreases_with_m(name):
    small, large = sanity.excess_risks(sanity.learners()[name], [1_000, 50_000], seeds=range(3))
    assert large < small
