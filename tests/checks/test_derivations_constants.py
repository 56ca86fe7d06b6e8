"""The derivations added for issue 47 item 1's remainder: HK12 Thm 4.4's bound in G, KS15 Thm
4.7's almost-sure constant 61, CB11 Thm 6's O-form constant, KS15 Thm 3.12's high-probability
bound and Lemma 3.11's upper estimate, KS15 Lemmas 3.7 and 4.8's moment bounds and the
improvement ratios of eqs. (11)-(12). Each PASSes on laocheck.bounds as it is, and a
maintainer's slip in the formula it is named for FAILs it."""
import dataclasses

import pytest
import sympy as sp

from laocheck import bounds, checks
from laocheck.bounds._formulas import FORMULAS

B, m, d, k, delta = bounds.sym("B", "m", "d", "k", "delta")
N_half, N_one, N_inf, eps = bounds.sym("N_half", "N_one", "N_inf", "eps")

NEW = ["HK12.Thm4.4.derivation", "KS15.Thm4.7.derivation.as", "CB11.Thm6.derivation.constant",
       "KS15.Thm3.12.derivation.hp", "KS15.Lemma3.7.derivation", "KS15.Lemma4.8.derivation",
       "KS15.Eq11-12.derivation", "HK12.Thm2.1.derivation"]


def _status(check_id):
    return checks.run(check_id, seed=0, catch=False).status


def _patched(monkeypatch, fid, change):
    entry = FORMULAS[fid]
    monkeypatch.setitem(FORMULAS, fid, dataclasses.replace(entry, expr=change(entry.expr)))


@pytest.mark.parametrize("check_id", NEW)
def test_passes_as_registered(check_id):
    record = checks.run(check_id, seed=0, catch=False)
    assert record.status == "PASS", record
    assert record.delta == 0 and all(record.figures["steps"].values())


SLIPS = [
    # the reading of the previous session: the display's O-form d/k taken with constant 1
    ("HK12.Thm4.4.derivation", "HK12.Thm4.4.bound_G", lambda e: e / sp.sqrt(2)),
    ("HK12.Thm4.4.derivation", "HK12.Thm4.4.bound_G", lambda e: e / B),            # B² -> B
    ("KS15.Thm4.7.derivation.as", "KS15.Thm4.7.bound_as", lambda e: e * sp.Rational(60, 61)),
    ("KS15.Thm4.7.derivation.as", "KS15.Thm4.7.bound_as", lambda e: e.subs(d, 1)),  # √d lost
    ("CB11.Thm6.derivation.constant", "CB11.Thm6.bound", lambda e: e / d),           # d² -> d
    ("CB11.Thm6.derivation.constant", "CB11.Thm6.bound",
     lambda e: e.subs(d / delta, 1 / delta)),                                         # ln(1/δ)
    ("KS15.Thm3.12.derivation.hp", "KS15.Lemma3.11.H_upper",                           # + -> −
     lambda e: 8 * N_half - sp.Rational(34, 3) * d ** 2 * eps),
    ("KS15.Thm3.12.derivation.hp", "KS15.Thm3.12.bound_hp_proof", lambda e: e.subs(k, 1)),
    ("KS15.Thm3.12.derivation.hp", "KS15.Thm3.12.bound_hp_proof", lambda e: e / 2),
    ("KS15.Lemma3.7.derivation", "KS15.Lemma3.7.S_as", lambda e: 4 * d),             # 5d -> 4d
    ("KS15.Lemma3.7.derivation", "KS15.Lemma3.7.S_hp", lambda e: e.subs(eps, eps ** 2)),
    ("KS15.Lemma4.8.derivation", "KS15.Lemma4.8.S_inf", lambda e: e - 2 * N_one),     # 4 -> 2
    ("KS15.Eq11-12.derivation", "KS15.Eq11.rho_ridge", lambda e: e * d),               # d lost
    ("KS15.Eq11-12.derivation", "KS15.Eq12.rho_lasso", lambda e: N_one / N_inf),
    ("HK12.Thm2.1.derivation", "HK12.Thm2.1.samples", lambda e: e / eps),           # 1/ε²
    ("HK12.Thm2.1.derivation", "HK12.Thm2.1.samples", lambda e: e * d),             # d²
    ("HK12.Thm2.1.derivation", "CB11.Thm1.attributes", lambda e: e / d),
]


@pytest.mark.parametrize("check_id,fid,change", SLIPS,
                         ids=[f"{c}:{f}:{i}" for i, (c, f, _) in enumerate(SLIPS)])
def test_a_slip_in_the_formula_fails(monkeypatch, check_id, fid, change):
    _patched(monkeypatch, fid, change)
    assert _status(check_id) == "FAIL"


def test_a_looser_61_is_still_proved(monkeypatch):
    """The almost-sure bound is an inequality of the proof: a larger constant holds too."""
    _patched(monkeypatch, "KS15.Thm4.7.bound_as", lambda e: e * sp.Rational(62, 61))
    assert _status("KS15.Thm4.7.derivation.as") == "PASS"


def test_the_o_form_of_hk12_thm44_is_a_reading_naming_its_missing_step():
    record = checks.run("HK12.Thm4.4.form_constant", seed=0, catch=False)
    assert record.status == "READING"
    assert "explicit constant c" in record.counterexample["missing_step"]
    assert record.correction == "HK12.Thm4.4.derivation"
    assert checks.get(record.correction).expected.value == "PASS"


@pytest.mark.parametrize("fid,change", [
    ("HK12.Thm4.4.samples", lambda e: e * k ** 2),                 # d/k -> d·k (the survivor)
    ("HK12.Thm4.4.bound", lambda e: e / sp.sqrt(m)),               # √(d/(km)) -> √(d/k)/m
    ("HK12.Table1.svr", lambda e: e * d),                          # d -> d²
])
def test_a_slip_in_an_o_form_fails_the_reading(monkeypatch, fid, change):
    _patched(monkeypatch, fid, change)
    assert _status("HK12.Thm4.4.form_constant") == "FAIL"


def test_the_lower_bound_constant_of_hk12_thmb1_is_a_reading():
    record = checks.run("HK12.ThmB.1.form_constant", seed=0, catch=False)
    assert record.status == "READING"
    assert "Fact B.2" in record.counterexample["missing_step"]
    assert checks.get(record.correction).expected.value == "PASS"


@pytest.mark.parametrize("fid,change", [
    ("HK12.Thm2.2.samples", lambda e: e * k),                      # the 1/k of 2.2 dropped
    ("HK12.ThmB.1.attributes", lambda e: e * eps),                 # 1/ε² -> 1/ε
])
def test_a_slip_in_a_lower_bound_form_fails_the_reading(monkeypatch, fid, change):
    _patched(monkeypatch, fid, change)
    assert _status("HK12.ThmB.1.form_constant") == "FAIL"
