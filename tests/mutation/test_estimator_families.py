"""The checks of the estimator specs' own fields (laocheck.checks.algorithms.estimator_families): each
PASSes on laocheck's specs and FAILs on the slip it is named for, planted the way a maintainer
would type it in estimators/_families.py (issue 47, the mutation engine's spec survivors)."""
import dataclasses

import numpy as np
import pytest

from laocheck import estimators
from laocheck.checks import checks, run
from laocheck.estimators import Budget, _families
from laocheck.estimators._registry import _SPECS

FAMILY = (".example_params", ".declared_budget", ".exact_k", ".target_method",
          ".magnitude_bounds", ".target_derivative", ".q_support", ".q_array",
          ".moment_support", ".finite_range_edge",
          ".finite_range_refusal", ".q_zero", ".k_equals_d")


def _status(check_id):
    return run(check_id, seed=0, effort="fast").status


@pytest.fixture
def plant(monkeypatch):
    """Replace fields of a registered spec, as a slip in its declaration would."""
    def replace(name, **fields):
        monkeypatch.setitem(_SPECS, name, dataclasses.replace(_SPECS[name], **fields))
    estimators.specs()                       # the families are registered
    return replace


def test_every_spec_field_check_passes_on_laocheck_specs():
    ids = [c.id for c in checks() if c.id.endswith(FAMILY)]
    # five per spec, AESVR's two derivatives, the five KS15 GA* estimates that take q,
    # the improved inner product's q as an array and its residual's moment support,
    # GenEst's and AESVR's finite-range edges, Baseline's, GenEst's and AESVR's refusals,
    # q_j = 0 of the five DDAERR/DDAELR estimates that draw x̃ and the improved gradient, k = d
    # of the eleven KS15 estimates that draw x̃
    assert len(ids) == 5 * len(estimators.specs()) + 2 + 5 + 1 + 1 + 3 + 4 + 6 + 11
    assert {i: _status(i) for i in ids if _status(i) != "PASS"} == {}


def test_second_moments_floor_divided_fail_example_params(plant):
    # `weights ** 2 // np.sum(weights ** 2)`: every E[x_i²] rounds down to 0
    def example_params(d, *, k=2, B=1.0):
        w = np.arange(1, d + 1, dtype=float)
        return {"k": k, "second_moments": w ** 2 // np.sum(w ** 2)}
    plant("KS15.DDAERR.gradient", example_params=example_params)
    assert _status("KS15.DDAERR.gradient.example_params") == "FAIL"


@pytest.mark.parametrize("name, fields", [
    ("HK12.AERR.gradient", {"exact_k": (1, 2, 2)}),       # k = d = 3 no longer enumerated
    ("HK12.AERR.gradient", {"check_k": 1}),               # kd_edge off its boundary k = d
    ("HK12.AESVR.gradient", {"check_k": 3}),
    ("CB11.Baseline.loss", {"exact_k": (1, 4)}),          # k = 1 is built as k = 2
    ("HK12.GenEst.derivative", {"exact_k": (1,)}),        # GenEst takes no k: (0,)
])
def test_exact_k_slips_fail(plant, name, fields):
    plant(name, **fields)
    assert _status(f"{name}.exact_k") == "FAIL"


def test_swapped_budgets_fail_declared_budget(plant):
    # `if part != "gradient"`: AESVR's gradient declared with the residual's budget 6
    plant("HK12.AESVR.gradient", budget=Budget("6", lambda: 6, kind="expectation"))
    assert _status("HK12.AESVR.gradient.declared_budget") == "FAIL"


def test_aesvr_target_divided_by_x_fails_target_derivative(plant):
    # `[fprime / float(xi) for xi in x]` (a zero x_i left at 0 to keep the slip finite)
    residual = _SPECS["HK12.AESVR.residual"]

    def target(w, x, y, **params):
        fprime = residual.target(w, x, y, **params)
        return [fprime / float(xi) if xi else 0.0 for xi in x]
    plant("HK12.AESVR.gradient", target=target)
    assert _status("HK12.AESVR.gradient.target_derivative") == "FAIL"


def test_aer_target_method_with_parts_swapped_fails(monkeypatch):
    # AEREstimator._target with `if self.part != "data_point"`
    def wrong(self, w, x, y):
        return x.copy() if self.part != "data_point" else float(w @ x) - y
    monkeypatch.setattr(_families.AEREstimator, "_target", wrong)
    assert _status("CB11.AER.data_point.target_method") == "FAIL"


def test_a_zero_product_made_negative_fails_magnitude_bounds(monkeypatch):
    # `_mul`'s `np.where(zero, -1.0, out)`: a magnitude with a zero factor (w = 0) below 0
    real = _families._mul

    def slipped(*factors):
        out = real(*factors)
        zero = np.zeros(np.shape(out), dtype=bool)
        for f in factors:
            zero = zero | (np.asarray(f, dtype=float) == 0)
        return np.where(zero, -1.0, out)
    monkeypatch.setattr(_families, "_mul", slipped)
    assert _status("HK12.AERR.gradient.magnitude_bounds") == "FAIL"


def test_a_bound_halved_below_the_draws_fails_magnitude_bounds(monkeypatch):
    real = _families.ImportanceEstimator._magnitude

    def halved(self, w, x, y):
        return [(b / 4, text) for b, text in real(self, w, x, y)]
    monkeypatch.setattr(_families.ImportanceEstimator, "_magnitude", halved)
    assert _status("HK12.AERR.gradient.magnitude_bounds") == "FAIL"


def test_aer_refusing_its_boundary_k_fails_exact_k(monkeypatch):
    # AEREstimator._validate_dims with `if self.k // 2 >= d`: k/2 = d draws refused
    def strict(self, d):
        if self.k // 2 >= d:
            raise _families.InvalidParameterError("`k` too large")
    monkeypatch.setattr(_families.AEREstimator, "_validate_dims", strict)
    assert _status("CB11.AER.gradient.exact_k") == "FAIL"


@pytest.mark.parametrize("cls, name", [(_families.BaselineEstimator, "CB11.Baseline.loss"),
                                       (_families.ImportanceEstimator, "KS15.GAERR.gradient")])
def test_params_not_given_back_fail_example_params(monkeypatch, cls, name):
    # `[("k", self.k)] - [...]` (a TypeError), or n_inner = 1 listed although it is the default
    real = cls._params
    monkeypatch.setattr(cls, "_params", lambda self: real(self) + [("n_inner", 1)])
    assert _status(f"{name}.example_params") == "FAIL"


def test_a_q_missing_the_support_accepted_fails_q_support(monkeypatch):
    # `missing = (self.q == 1) & (x != 0)` and `nz = self.q > -1`: q_i = 0 where x_i != 0 is
    # no longer refused naming `q`; planted as the q floored (never 0) before the check
    real = _families.ImportanceEstimator._data_point_distribution

    def floored(self, q):
        out = real(self, q)
        return None if out is None else (out + 0.01) / (out + 0.01).sum()
    monkeypatch.setattr(_families.ImportanceEstimator, "_data_point_distribution", floored)
    assert _status("KS15.GAERR.gradient.q_support") == "FAIL"


def test_a_q_array_read_with_the_wrong_length_fails_q_array(monkeypatch):
    # `check_distribution("q", q, d=m.shape[1])`: an IndexError for every array q
    real = _families.ImportanceEstimator._data_point_distribution

    def wrong(self, q):
        if q is not None and not isinstance(q, str):
            raise IndexError("tuple index out of range")
        return real(self, q)
    monkeypatch.setattr(_families.ImportanceEstimator, "_data_point_distribution", wrong)
    assert _status("KS15.ImprovedInnerProduct.gradient.q_array") == "FAIL"


@pytest.mark.parametrize("slip", ["w / x", "message"])
def test_moment_support_slips_fail(monkeypatch, slip):
    # `contribution = np.abs(w / x)` (x_j = 0 then refused) or the message's w[i] / x[i]
    real = _families.ImportanceEstimator._check_inner_support

    def slipped(self, p, w, x):
        if slip == "w / x":
            with np.errstate(divide="ignore", invalid="ignore"):
                if np.any((p == 0) & (np.abs(w / x) > 0)):
                    raise _families.InvalidParameterError("`second_moments` must be positive")
        try:
            real(self, p, w, x)
        except _families.InvalidParameterError as exc:
            raise _families.InvalidParameterError(str(exc).split("w[")[0]) from None
    monkeypatch.setattr(_families.ImportanceEstimator, "_check_inner_support", slipped)
    assert _status("KS15.ImprovedInnerProduct.residual.moment_support") == "FAIL"


@pytest.mark.parametrize("cls, method, name", [
    # `def _genest_magnitude(..., k=-1)`: GenEst lists d·max|x_i| (x̃), which it never forms
    (_families.GenEstEstimator, "_magnitude", "HK12.GenEst.derivative"),
    # `(2.0 / self.eps, "1/ε ...")` and `_mul(2.0, _top(np.abs(x)))`: AESVR's guard doubled
    (_families.AESVREstimator, "_magnitude", "HK12.AESVR.residual"),
    (_families.AESVREstimator, "_magnitude", "HK12.AESVR.gradient"),
])
def test_a_looser_guard_fails_finite_range_edge(monkeypatch, cls, method, name):
    real = getattr(cls, method)

    def looser(self, w, x, y):
        out = real(self, w, x, y)
        return out + [(2 * np.max(np.abs(x)), "d·max|x_i| (x̃)"), (2 / getattr(self, "eps", 1.0),
                                                               "1/ε")]
    monkeypatch.setattr(cls, method, looser)
    assert _status(f"{name}.finite_range_edge") == "FAIL"


@pytest.mark.parametrize("cls, name, slip", [
    # `_mul(1.0, abs(y), ratio, top)`: the bound of 2y·v halved
    (_families.BaselineEstimator, "CB11.Baseline.loss", lambda b, t: b / 2 if "2y·v" in t else b),
    # `coef = np.abs(norm_sq * w[nz])`: the factor bound ‖w‖²·|w_j| for ‖w‖²/|w_j|
    (_families.GenEstEstimator, "HK12.GenEst.derivative",
     lambda b, t: min(b, 1.0) if "w_j" in t or "Θ" in t or "N·" in t else b),
    # `labels = [shifted * self.eps]`: the labels' bound (|y| + δ)·ε, so Θ misses them
    (_families.AESVREstimator, "HK12.AESVR.residual",
     lambda b, t: b - 0.6 * _families.MAX_MAGNITUDE if t.startswith("Θ") else b),
])
def test_a_tighter_guard_fails_finite_range_refusal(monkeypatch, cls, name, slip):
    real = cls._magnitude
    monkeypatch.setattr(cls, "_magnitude", lambda self, w, x, y: [
        (slip(b, t), t) for b, t in real(self, w, x, y)])
    assert _status(f"{name}.finite_range_refusal") == "FAIL"
