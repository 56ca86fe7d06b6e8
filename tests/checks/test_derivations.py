"""The derivation checks (laocheck.checks.<paper>.derivations): each formula of laocheck.bounds they
cover is rebuilt from its proof's pieces, and a maintainer's slip in a formula (B² typed as B,
a constant divided by 20, the 1/m of a rate dropped, a square root lost) FAILs without any
statistics."""
import dataclasses

import pytest
import sympy as sp

from laocheck import bounds, checks
from laocheck.bounds._formulas import FORMULAS
from laocheck.checks._kinds import derivations

#: the checks that derive a formula with derivations.derive (each paper's derivations module)
DERIVATIONS = [c for c in checks.checks("*.derivation*")
               if c.func.__module__.endswith(".derivations") and "derive" in c.func.__code__.co_names]
B, m, d = bounds.sym("B", "m", "d")


def _status(check_id):
    return checks.run(check_id, seed=0, catch=False).status


def _patched(monkeypatch, fid, change):
    entry = FORMULAS[fid]
    monkeypatch.setitem(FORMULAS, fid, dataclasses.replace(entry, expr=change(entry.expr)))


def test_every_derivation_passes_exactly():
    assert len(DERIVATIONS) >= 20
    for check in DERIVATIONS:
        record = checks.run(check, seed=0, catch=False)
        assert record.status == "PASS", record
        assert record.delta == 0
        assert all(row["equal"] for row in record.figures["compared"])
        assert all(record.figures["steps"].values())


# the realistic slips of the audit (issue 47), one per row: (check, formula, mutation)
SLIPS = [
    ("HK12.Thm3.1.derivation", "HK12.Thm3.1.bound", lambda e: e / B),              # B² -> B
    ("HK12.Thm3.4.derivation", "HK12.Thm3.4.bound", lambda e: e / 20),             # constant / 20
    ("KS15.Thm3.1.derivation", "KS15.Thm3.1.generic", lambda e: e.subs(m, 1)),     # 1/m dropped
    ("KS15.Thm4.6.derivation", "KS15.Thm4.6.bound",
     lambda e: e.replace(lambda x: x.is_Pow and x.exp == sp.Rational(1, 2), lambda x: x.base)),
    ("HK12.Lemma3.3.derivation", "HK12.Lemma3.3.G2", lambda e: e * 2),             # 8 -> 16
    ("HK12.Lemma3.8.derivation", "HK12.Lemma3.8.G2", lambda e: e / B),
    ("KS15.Lemma3.4.derivation", "KS15.Lemma3.4.G2", lambda e: e / 4),
    ("KS15.Thm3.5.derivation", "KS15.Thm3.5.eta", lambda e: 2 * e),                # η doubled
    ("KS15.Lemma3.8.derivation", "KS15.Lemma3.8.eta", lambda e: e.subs(d, d ** 2)),  # exponent
    ("KS15.Lemma3.10.derivation", "KS15.Lemma3.10.bound_hp", lambda e: e * sp.sqrt(2)),
    ("KS15.Thm3.6.derivation", "KS15.Thm3.6.bound_hp_proof", lambda e: e / 20),
    ("CB11.Thm12.derivation", "CB11.Thm12.lambda_proof", lambda e: e * sp.Rational(3, 4)),
    ("CB11.Thm12.derivation", "CB11.Thm12.bound_proof", lambda e: e.subs(m, 1)),
    ("CB11.Lemma10.derivation.hoeffding", "CB11.Lemma10.bound", lambda e: e / 20),
    ("CB11.Thm6.derivation", "CB11.Thm6.bound_proof", lambda e: e / B),
    ("CB11.Thm12.derivation.constant", "CB11.Thm12.bound", lambda e: e * sp.Rational(4, 5)),
    ("KS15.Thm3.12.derivation", "KS15.Thm3.12.eta",                               # 2H -> 4H
     lambda e: e.subs(bounds.SYMBOLS["H"], 2 * bounds.SYMBOLS["H"])),
    ("KS15.Thm4.7.derivation", "KS15.Thm4.7.bound_hp",                          # 16 -> 12
     lambda e: e.subs(bounds.SYMBOLS["N_one"], sp.Rational(3, 4) * bounds.SYMBOLS["N_one"])),
]


@pytest.mark.parametrize("check_id, fid, change", SLIPS, ids=[f"{c}:{f}" for c, f, _ in SLIPS])
def test_a_slip_in_the_formula_fails_its_derivation(monkeypatch, check_id, fid, change):
    assert _status(check_id) == "PASS"
    _patched(monkeypatch, fid, change)
    record = checks.run(check_id, seed=0, catch=False)
    assert record.status == "FAIL"
    assert record.counterexample.get("formula", fid) == fid


def test_the_erratum_relations_are_exact(monkeypatch):
    """A printed formula recorded as an erratum is checked through its exact relation to the
    derived one: doubling the printed step size of HK12 Thm 3.4 FAILs too."""
    _patched(monkeypatch, "HK12.Thm3.4.eta", lambda e: 2 * e)
    assert _status("HK12.Thm3.4.derivation") == "FAIL"


def test_a_changed_proof_constant_fails_the_step(monkeypatch):
    """The pieces come from the proof inventory: a 6 typed for the 5 of Lemmas 3.6 + 3.7 is a
    failed step, not a silent change of the derived formula."""
    from laocheck.checks.hk12 import proofs as proofs_hk12
    monkeypatch.setattr(proofs_hk12, "_T34_VARIANCE", 6)
    record = checks.run("HK12.Thm3.4.derivation", seed=0, catch=False)
    assert record.status == "FAIL" and record.counterexample["proved"] is False


def test_same_is_not_fooled_by_a_sign_or_a_factor():
    x = sp.Symbol("x", positive=True)
    assert derivations.same(sp.sqrt(x ** 2 * B ** 2), x * B)
    assert not derivations.same(-sp.sqrt(x), sp.sqrt(x))
    assert not derivations.same(sp.sqrt(2 * x), sp.sqrt(x))
    assert not derivations.same(sp.Max(x, 2 * x), sp.Max(x, 3 * x))
    assert derivations.nonnegative(d - 1, d=1 + x)
    assert not derivations.nonnegative(1 - d)
