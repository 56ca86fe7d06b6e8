"""Witnesses of :mod:`laocheck.checks.algorithms.estimator_families`: the slip each check of an
estimator spec's own fields is named for, planted one at a time (the same slips as
tests/mutation/test_estimator_families.py). Declared one id at a time (``specific``), so the
generic families (a callee times 5/4, the estimators' reference shifted) do not apply: these
checks read the spec, not a reference or a formula."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
from fractions import Fraction

import numpy as np

from .. import estimators
from .algorithms import estimator_families as EF
from ._witness import Witness
from ._witnesses_common import specific


@contextlib.contextmanager
def _spec_replaced(check, **fields):
    """The check run with its spec's ``fields`` replaced (a slip in the spec's declaration):
    a field's value, or ``field=callable(spec)`` computing it (the target: its value)."""
    name = check.kwargs["spec_name"]
    real = EF._spec_of
    spec = real(name)
    slipped = dataclasses.replace(spec, **{
        key: value(spec) if callable(value) else value for key, value in fields.items()})
    EF._spec_of = lambda n: slipped if n == name else real(n)
    try:
        yield check
    finally:
        EF._spec_of = real


def _scaled(value):
    """A target's value times 5/4 (numbers, lists of numbers, nested lists)."""
    if isinstance(value, (list, tuple)):
        return [_scaled(v) for v in value]
    return value * Fraction(5, 4) if isinstance(value, Fraction) else value * 1.25


def _with_extra_param(spec):
    def example_params(d, *, k=2, B=1.0):
        return {**spec.example_params(d, k=k, B=B), "n_inner": 2}
    return example_params


def _budget_plus_one(spec):
    formula = spec.budget.formula

    @functools.wraps(formula)          # the same parameters: Budget.of reads the signature
    def plus_one(*args, **kwargs):
        return formula(*args, **kwargs) + 1
    return dataclasses.replace(spec.budget, text=spec.budget.text + " + 1", formula=plus_one)


def _exact_k_slipped(spec):
    """exact_k without its boundary k; (0,) swapped with k = 1, 2, 3 where no k is built."""
    if "k" in spec.example_params(4, k=spec.check_k) and len(spec.exact_k) > 1:
        return tuple(spec.exact_k)[:-1]
    return (1, 2, 3) if tuple(spec.exact_k) == (0,) else (0,)


def _target_scaled(spec):
    def target(w, x, y, **params):
        return _scaled(spec.target(w, x, y, **params))
    return target


@contextlib.contextmanager
def _magnitude_negated(check):
    """The estimator's finite-range bounds with their sign dropped (``-b`` for ``b``)."""
    spec = EF._spec_of(check.kwargs["spec_name"])
    cls = type(estimators.get(spec.name, **spec.example_params(4, k=spec.check_k)))
    real = cls._magnitude

    def negated(self, w, x, y):
        return [(-b, text) for b, text in real(self, w, x, y)]
    cls._magnitude = negated
    try:
        yield check
    finally:
        cls._magnitude = real


@contextlib.contextmanager
def _q_floored(check):
    """q_i = 0 silently raised to 1/(8d) and q renormalised (no refusal of a q missing x's
    support)."""
    cls = estimators.get(check.kwargs["spec_name"], **EF._spec_of(
        check.kwargs["spec_name"]).example_params(4)).__class__
    real = cls._data_point_distribution

    def floored(self, q):
        out = real(self, q)
        if out is None:
            return out
        out = np.maximum(out, 1.0 / (8 * out.shape[0]))
        return out / out.sum()
    cls._data_point_distribution = floored
    try:
        yield check
    finally:
        cls._data_point_distribution = real


@contextlib.contextmanager
def _q_array_ignored(check):
    """A q given as an array replaced by the uniform distribution."""
    cls = type(estimators.get(check.kwargs["spec_name"], **EF._spec_of(
        check.kwargs["spec_name"]).example_params(4)))
    real = cls._data_point_distribution

    def ignored(self, q):
        out = real(self, q)
        if q is None or isinstance(q, str):
            return out
        return np.full(out.shape[0], 1.0 / out.shape[0])
    cls._data_point_distribution = ignored
    try:
        yield check
    finally:
        cls._data_point_distribution = real


@contextlib.contextmanager
def _support_unchecked(check):
    """The improved inner product's refusal of p_j = 0 where w_j·x_j ≠ 0 removed."""
    cls = type(estimators.get(check.kwargs["spec_name"], **EF._spec_of(
        check.kwargs["spec_name"]).example_params(4)))
    real = cls._check_inner_support
    cls._check_inner_support = lambda self, p, w, x: None
    try:
        yield check
    finally:
        cls._check_inner_support = real


@contextlib.contextmanager
def _magnitude_doubled(check):
    """The estimator's finite-range bounds doubled, with 2·d·max|x_i| listed (x̃ of a GenEst
    that forms none): a guard looser than its numbers."""
    spec = EF._spec_of(check.kwargs["spec_name"])
    cls = type(estimators.get(spec.name, **spec.example_params(4, k=spec.check_k)))
    real = cls._magnitude

    def doubled(self, w, x, y):
        return [(2 * b, text) for b, text in real(self, w, x, y)] + [
            (2.0 * x.shape[0] * float(np.max(np.abs(x))), "2·d·max|x_i|")]
    cls._magnitude = doubled
    try:
        yield check
    finally:
        cls._magnitude = real


@contextlib.contextmanager
def _magnitude_removed(check):
    """The estimator's finite-range guard removed (no bound listed)."""
    spec = EF._spec_of(check.kwargs["spec_name"])
    cls = type(estimators.get(spec.name, **spec.example_params(4, k=spec.check_k)))
    real = cls._magnitude
    cls._magnitude = lambda self, w, x, y: []
    try:
        yield check
    finally:
        cls._magnitude = real


_WITNESSES = {
    "example_params": ("undocumented_parameter", "n_inner = 2 slipped into the example "
                       "parameters",
                       lambda c: _spec_replaced(c, example_params=_with_extra_param)),
    "declared_budget": ("budget_plus_one", "the spec's budget formula + 1",
                        lambda c: _spec_replaced(c, budget=_budget_plus_one)),
    "exact_k": ("exact_k_slipped", "exact_k without its boundary k (or (0,) swapped with a k)",
                lambda c: _spec_replaced(c, exact_k=_exact_k_slipped)),
    "target_method": ("target_times_5_4", "the spec's target times 5/4",
                      lambda c: _spec_replaced(c, target=_target_scaled)),
    "target_derivative": ("target_times_5_4", "the spec's target times 5/4",
                          lambda c: _spec_replaced(c, target=_target_scaled)),
    "magnitude_bounds": ("bound_sign_dropped", "every finite-range bound negated",
                         _magnitude_negated),
    "q_array": ("q_array_ignored", "a q given as an array replaced by the uniform q",
                _q_array_ignored),
    "moment_support": ("support_unchecked", "p_j = 0 where w_j·x_j ≠ 0 no longer refused",
                       _support_unchecked),
    "finite_range_edge": ("bounds_doubled", "every finite-range bound doubled, 2·d·max|x_i| "
                          "listed",
                          _magnitude_doubled),
    "finite_range_refusal": ("guard_removed", "no finite-range bound listed",
                             _magnitude_removed),
    "q_support": ("q_floored", "q_i = 0 raised to 1/(8d) (q renormalised) instead of refused",
                  _q_floored),
    "q_zero": ("q_floored", "q_i = 0 raised to 1/(8d) (q renormalised): E[x_j²] = 0 no longer "
               "puts q_j on 0", _q_floored),
}


def _declare():
    for spec in estimators.specs():
        props = list(EF.FAMILY_CHECKS)
        if spec.name.startswith("HK12.AESVR."):
            props.append("target_derivative")
        if spec.name.startswith(("HK12.AESVR.", "HK12.GenEst.")):
            props.append("finite_range_edge")
        if spec.name in ("CB11.Baseline.loss", "HK12.GenEst.derivative") or \
                spec.name.startswith("HK12.AESVR."):
            props.append("finite_range_refusal")
        if "q" in spec.example_params(4, k=spec.check_k):
            props.append("q_support")
        if spec.name.startswith(("KS15.DDAE", "KS15.ImprovedInnerProduct.")) and \
                spec.part != "residual":
            props.append("q_zero")
        if spec.name == "KS15.ImprovedInnerProduct.gradient":
            props.append("q_array")
        if spec.name == "KS15.ImprovedInnerProduct.residual":
            props.append("moment_support")
        for prop in props:
            name, description, apply = _WITNESSES[prop]
            specific(f"{spec.name}.{prop}")(
                lambda check, w=Witness(name, description, apply): [w])


_declare()
