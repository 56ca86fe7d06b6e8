"""The gallery's bound-against-empirical claim has power at the settings it runs.

``docs/examples/plot_02_bound_against_empirical.py`` says "the bound lies above the interval";
that says something only when a bound a few times too small would have been refuted at the
same settings. Its ``detects`` F must be the checks' own (``interval_detects_factor``, the
power the empirical checks report), small, and close to the best any number of runs gives
there (bound / mean excess risk).
"""
import runpy
from pathlib import Path

import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

from laocheck.checks._kinds.empirical import interval_detects_factor  # noqa: E402
from laocheck.experiments.theorems import run_theorem  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "docs" / "examples" / "plot_02_bound_against_empirical.py"

#: the largest F the example may report at its best point: HK12 Thm 3.1's bound is about 3.5
#: times the mean excess risk on its hard instance, so no number of runs gives F below that
MAX_DETECTS = 4.5


def _run():
    plt.close("all")
    try:
        return runpy.run_path(str(SCRIPT), run_name="__main__")
    finally:
        plt.close("all")


def test_the_example_s_claim_has_power_and_says_so(capsys):
    scope = _run()
    results, factors = scope["results"], scope["factors"]
    assert len(results) == len(factors) >= 3
    # the example's F is the checks' detects, not a formula of its own
    for comparison, F in zip(results, factors):
        assert np.isclose(F, interval_detects_factor(comparison), rtol=1e-12, atol=0)
        assert not comparison.violation
    best = min(factors)
    assert best <= MAX_DETECTS, factors
    # within 30 % of what any number of runs could give at that point (bound / mean)
    at = int(np.argmin(factors))
    assert best <= 1.3 * results[at].bound / results[at].mean
    # and it prints it beside each verdict
    out = capsys.readouterr().out
    assert out.count("detects F = ") == len(results) and out.count("holds") == len(results)


def test_the_former_settings_had_no_power():
    """The negative control: the example's former settings (KS15's power-law data, R = 10)
    refute no bound however small; the threshold above would have caught them."""
    comparison, _ = run_theorem("HK12.Thm3.1", d=20, k=4, m=1000, R=10, seed=0)
    assert interval_detects_factor(comparison) > 100 * MAX_DETECTS
