"""The checks of the former derivations_more module (now in laocheck.checks.<paper>.derivations)
pass on the package and FAIL on the slips the mutation engine left alive in laocheck/reference/estimators.py (issue 47): each slip is planted
the way a maintainer types it, in a copy of the function, and the check must see it."""
import dataclasses
import inspect
import textwrap

import pytest
import sympy as sp

from laocheck import bounds, checks
from laocheck.bounds._formulas import FORMULAS
from laocheck.reference import estimators as ref_est

IDS = ["KS15.Sec3.improved_p.derivation", "CB11.Lemma11.data_point.unbiased_k",
       "HK12.eq7.coefficients.derivation"]


def _status(check_id):
    return checks.run(check_id, seed=0, catch=False).status


def _plant(monkeypatch, name, before, after):
    """Replace ``name`` in laocheck.reference.estimators by a copy whose source has ``before``
    typed as ``after`` (exactly one occurrence)."""
    source = textwrap.dedent(inspect.getsource(getattr(ref_est, name)))
    assert source.count(before) == 1, (name, before)
    namespace = dict(vars(ref_est))
    exec(compile(source.replace(before, after), ref_est.__file__, "exec"), namespace)
    monkeypatch.setattr(ref_est, name, namespace[name])


@pytest.mark.parametrize("check_id", IDS)
def test_passes_on_the_package(check_id):
    record = checks.run(check_id, seed=0, catch=False)
    assert record.status == "PASS", record
    assert record.delta == 0 and record.detects == 1.0


def test_improved_p_fails_when_exact_sqrt_takes_a_square_numerator_for_a_square(monkeypatch):
    # exact_sqrt(1/2) returned 1 (numerator square, denominator not): p no longer minimises
    _plant(monkeypatch, "exact_sqrt", "rn * rn == v.numerator and rd * rd == v.denominator",
           "rn * rn == v.numerator or rd * rd == v.denominator")
    assert ref_est.exact_sqrt(ref_est.Fraction(1, 2)) == 1      # the slip is planted
    assert _status("KS15.Sec3.improved_p.derivation") == "FAIL"


def test_improved_p_fails_on_p_proportional_to_w_squared(monkeypatch):
    # the user who forgets the square root: p ∝ w² E[x²] (a valid distribution, not the optimum)
    original = ref_est.ks15_inner_distribution

    def no_root(w, kind, second_moments=None):
        if kind != "improved":
            return original(w, kind, second_moments)
        weights = [wi * wi * m for wi, m in zip(w, second_moments)]
        return [v / sum(weights) for v in weights]

    monkeypatch.setattr(ref_est, "ks15_inner_distribution", no_root)
    assert _status("KS15.Sec3.improved_p.derivation") == "FAIL"


def test_data_point_fails_on_integer_division_in_the_float_branch(monkeypatch):
    # 2 // k is 1 at k = 2 (unseen there) and 0 at k >= 4
    _plant(monkeypatch, "cb11_aer", "else 2 / k) * d * x[j]", "else 2 // k) * d * x[j]")
    assert _status("CB11.Lemma11.data_point.unbiased_k") == "FAIL"


def test_data_point_fails_on_d_over_k_scaling(monkeypatch):
    # Fig. 1's d/k typed in Fig. 2's (2/k) d: biased by a factor 1/2 at every k
    _plant(monkeypatch, "cb11_aer", "(Fraction(2, k) if exact else 2 / k) * d",
           "(Fraction(1, k) if exact else 1 / k) * d")
    assert _status("CB11.Lemma11.data_point.unbiased_k") == "FAIL"


@pytest.mark.parametrize("before, after", [
    ("not 1 <= n_terms <= 341", "not 0 <= n_terms <= 341"),     # n_terms = 0 accepted
    ("not 1 <= n_terms <= 341", "not 2 <= n_terms <= 341"),     # n_terms = 1 refused
    ("not 1 <= n_terms <= 341", "not 1 <= n_terms <= 342"),     # n_terms = 342 accepted
    ("not 1 <= n_terms <= 341", "not 1 <= n_terms <= 340"),     # n_terms = 341 refused
    ("(-1) ** n /", "(-1) ** (n + 1) /"),                        # the sign of eq. (7) flipped
    ("(2 * n + 1))\n", "(2 * n + 3))\n"),                        # the 1/(2n + 1) shifted
])
def test_coefficients_fail_on_a_slip(monkeypatch, before, after):
    _plant(monkeypatch, "aesvr_coefficients", before, after)
    assert _status("HK12.eq7.coefficients.derivation") == "FAIL"


# ---- the formulas of laocheck.bounds: the slips the engine left alive ------------------------

FORMULA_IDS = ["CB11.Thm1.derivation", "KS15.Lemma3.11.derivation", "HK12.ThmB.1.derivation",
               "LAO.Tables.derivation", "LAO.Bounds.scaling.proof_exponent"]
d, k, m, eps, N_half = bounds.sym("d", "k", "m", "eps", "N_half")


@pytest.mark.parametrize("check_id", FORMULA_IDS)
def test_formula_checks_pass_on_the_package(check_id):
    record = checks.run(check_id, seed=0, catch=False)
    assert record.status == "PASS", record
    assert record.delta == 0


def _patched(monkeypatch, fid, **change):
    entry = FORMULAS[fid]
    monkeypatch.setitem(FORMULAS, fid, dataclasses.replace(entry, **change))


# (check, formula, the mutated expression or field): cosmic-ray's survivors, typed by hand
FORMULA_SLIPS = [
    ("CB11.Thm1.derivation", "CB11.Thm1.attributes",
     {"expr": sp.Rational(1, 2) * sp.floor(d / (95 * eps))}),
    ("KS15.Lemma3.11.derivation", "KS15.Lemma3.11.H_upper",
     {"expr": 8 * N_half - sp.Rational(34, 3) * d ** 2 * eps}),
    ("HK12.ThmB.1.derivation", "HK12.ThmB.1.attributes", {"expr": sp.floor(d / eps ** 2)}),
    ("LAO.Tables.derivation", "KS15.Table1.ridge_old", {"expr": sp.sqrt(sp.floor(d / (k * m)))}),
    ("LAO.Tables.derivation", "HK12.Thm4.4.samples",
     {"expr": d * k * sp.exp(bounds.sym("c") * sp.log(bounds.sym("B") / eps) ** 2)}),
    ("LAO.Tables.derivation", "HK12.Table1.prev_ridge",
     {"expr": d ** 3 * sp.log(d / eps) / (k * eps ** 2)}),
    ("LAO.Tables.derivation", "HK12.Table1.ridge", {"expr": d / (k * eps)}),
    ("LAO.Bounds.scaling.proof_exponent", "HK12.Thm3.4.eta", {"scaling": -2}),
    ("LAO.Bounds.scaling.proof_exponent", "HK12.Thm3.4.eta_proof", {"scaling": 1}),
]


@pytest.mark.parametrize("check_id, fid, change", FORMULA_SLIPS,
                         ids=[f"{c}:{f}" for c, f, _ in FORMULA_SLIPS])
def test_formula_check_fails_on_a_slip(monkeypatch, check_id, fid, change):
    _patched(monkeypatch, fid, **change)
    assert _status(check_id) == "FAIL"
