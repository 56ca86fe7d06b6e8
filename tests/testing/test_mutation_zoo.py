"""A zoo of realistic slips in samplers (``mutants.py``), written as user code around laocheck's
estimators; each must be caught by ``check_estimator`` (the claims inherited from the wrapped
estimator's spec), and the unaltered wrappers must pass. ``test_plugin.py`` runs the same zoo
through the pytest plugin.

False alarms: the unaltered wrappers on 20 seeds. The statistical checks that can false-FAIL
are ``unbiased.monte_carlo`` and ``kernel_matches_reference`` (δ = 1e-6 each; ``budget`` of the
exact kind, the exact enumerations and ``clipping`` cannot false-FAIL): 2 for wrap-aerr, 1 for
wrap-gaelr-clipped (it claims no unbiasedness), 2 for user-aerr, so the family-wise false-FAIL
probability of ``test_unaltered_wrappers_pass_on_20_seeds`` is at most
20 seeds × 5 checks × 1e-6 = 1e-4.
"""
import pytest

from laocheck.testing import CheckFailure, UserCodeError, check_estimator

from .mutants import UNALTERED, ZOO, claims_of


def test_the_zoo_has_ten_distinct_mutants_with_distinct_labels():
    labels = [make().name for _, make, _ in ZOO] + [make().name for _, make in UNALTERED]
    assert len(ZOO) >= 10 and len(set(labels)) == len(labels)


@pytest.mark.slow
@pytest.mark.parametrize("make,catches", [(m, c) for _, m, c in ZOO], ids=[i for i, _, _ in ZOO])
def test_every_mutant_is_caught(make, catches):
    est = make()
    # a mutant whose own code then raises (reuse: its reference divides by w_j = 0) is the
    # status ERROR, with the mutant's file and line (issue 48): caught, as an error
    with pytest.raises((CheckFailure, UserCodeError)) as info:
        check_estimator(est, claims_of(est), seed=0)
    failing = {r.id[len(est.name) + 1:] for r in info.value.records}
    assert catches <= failing, (failing, [(r.id, r.figures) for r in info.value.records])


@pytest.mark.slow
@pytest.mark.parametrize("make", [m for _, m in UNALTERED], ids=[i for i, _ in UNALTERED])
def test_unaltered_wrappers_pass_on_20_seeds(make):
    est = make()
    for seed in range(20):
        records = check_estimator(est, claims_of(est), seed=seed)   # raises on any FAIL
        assert records and all(r.status == "PASS" for r in records), [
            (r.id, r.status, r.note) for r in records if r.status != "PASS"]
