"""The derivations of CB11 Lemmas 4, 8 and 9 (laocheck.checks.cb11.derivations): they
pass on the package, and a slip in the bound a coverage check evaluates (a constant, the logarithm of
the union bound, a power of B) or in the registered formula FAILs them, without statistics."""
import dataclasses
import math

import pytest
import sympy as sp

from laocheck import bounds, checks
from laocheck.bounds._formulas import FORMULAS
from laocheck.checks.cb11 import proof_lines as proofs_lines
from laocheck.checks.cb11 import statements as cb11

DERIVATIONS = ["CB11.Lemma8.derivation", "CB11.Lemma9.derivation", "CB11.Lemma4.derivation"]


def _run(check_id):
    return checks.run(check_id, seed=0, catch=False)


@pytest.mark.parametrize("check_id", DERIVATIONS)
def test_each_derivation_passes_exactly(check_id):
    record = _run(check_id)
    assert record.status == "PASS", record
    assert record.delta == 0
    assert all(row["equal"] for row in record.figures["compared"])
    assert all(record.figures["steps"].values())
    assert all(v["worst_relative_difference"] <= 1e-12
               for v in record.figures["numeric"].values())


def test_the_cited_constant_is_a_reading_with_a_passing_correction():
    record = _run("CB11.Lemma4.proof.rademacher_constant")
    assert record.status == "READING"
    assert "not derivable from the paper" in record.note
    assert "Kakade et al., 2008" in record.counterexample["missing_step"]
    assert _run(record.correction).status == "PASS"


@pytest.mark.parametrize("stat_id, derivation", [
    ("CB11.Lemma4.proof.rademacher", "CB11.Lemma4.derivation"),
    ("CB11.Lemma8.deviation_corrected", "CB11.Lemma8.derivation"),
    ("CB11.Lemma9.deviation", "CB11.Lemma9.derivation"),
    ("CB11.Lemma9.proof.step1_corrected", "CB11.Lemma9.derivation"),
])
def test_the_coverage_checks_name_their_derivation(stat_id, derivation):
    record = _run(stat_id)
    assert record.status == "PASS"
    assert record.figures["paired_with"] == derivation
    assert f"paired with {derivation}" in record.note


# a maintainer's slips in the bounds the coverage checks evaluate, typed as a user would
def lemma8_halved_constant(d, k, m, delta):
    return (d / k) ** 2 * math.sqrt(4.0 / m * math.log(2 * d * d / delta))


def lemma8_union_over_d(d, k, m, delta):
    return (d / k) ** 2 * math.sqrt(8.0 / m * math.log(2 * d / delta))


def lemma9_no_union(d, k, m, delta, B):
    return d * B / k * math.sqrt(8.0 / m * math.log(2 / delta))


def lemma9_b_squared(d, k, m, delta, B):
    return d * B * B / k * math.sqrt(8.0 / m * math.log(2 * d / delta))


def lemma4_log_d(d, m, dstmt, B):
    return 4 * B * B * math.sqrt(2 / m * math.log(d + 1)) + 4 * B * B * math.sqrt(
        math.log(2 / dstmt) / (2 * m))


@pytest.mark.parametrize("module, name, slip, check_id", [
    (cb11, "_lemma8_bound", lemma8_halved_constant, "CB11.Lemma8.derivation"),
    (cb11, "_lemma8_bound", lemma8_union_over_d, "CB11.Lemma8.derivation"),
    (cb11, "_lemma9_bound", lemma9_no_union, "CB11.Lemma9.derivation"),
    (cb11, "_lemma9_bound", lemma9_b_squared, "CB11.Lemma9.derivation"),
    (proofs_lines, "_l4_bound", lemma4_log_d, "CB11.Lemma4.derivation"),
])
def test_a_slip_in_the_checks_bound_fails_its_derivation(monkeypatch, module, name, slip,
                                                          check_id):
    monkeypatch.setattr(module, name, slip)
    record = _run(check_id)
    assert record.status == "FAIL"
    assert name in record.counterexample["bound"]
    assert record.counterexample["at"]["check's bound"] != pytest.approx(
        record.counterexample["at"]["derived"])


@pytest.mark.parametrize("value", [2, 3, 8])
def test_a_wrong_lipschitz_constant_fails_both_lemma4_checks(monkeypatch, value):
    monkeypatch.setattr(proofs_lines, "_L4_L_MAX", value)
    assert _run("CB11.Lemma4.derivation").status == "FAIL"
    assert _run("CB11.Lemma4.proof.rademacher_constant").status == "FAIL"


def test_a_wrong_loss_bound_fails_lemma4(monkeypatch):
    monkeypatch.setattr(proofs_lines, "_L4_LOSS_MAX", 1)     # ℓ_max = B² for 4B²
    record = _run("CB11.Lemma4.derivation")
    assert record.status == "FAIL"
    assert "ℓ_max" in record.counterexample["step"]


@pytest.mark.parametrize("fid, check_id, factor", [
    ("CB11.Lemma8.width", "CB11.Lemma8.derivation", 1 / 20),
    ("CB11.Lemma9.width", "CB11.Lemma9.derivation", 2),
])
def test_a_slip_in_the_registered_formula_fails(monkeypatch, fid, check_id, factor):
    entry = FORMULAS[fid]
    monkeypatch.setitem(FORMULAS, fid, dataclasses.replace(entry, expr=entry.expr * factor))
    assert _run(check_id).status == "FAIL"


def test_lemma4s_part_of_theorem6s_formula_with_ln_d_fails(monkeypatch):
    """Thm 6's explicit bound with Lemma 4's ln 2d typed ln d."""
    d = bounds.sym("d")
    entry = FORMULAS["CB11.Thm6.bound_proof"]
    slip = entry.expr.subs(sp.log(2 * d), sp.log(d))
    assert slip != entry.expr
    monkeypatch.setitem(FORMULAS, "CB11.Thm6.bound_proof", dataclasses.replace(entry, expr=slip))
    assert _run("CB11.Lemma4.derivation").status == "FAIL"
