"""Witnesses of :mod:`laocheck.checks.lao.boxes` (``LAO.FullInformation.*``): the slips of a
full-information baseline each check is named for, planted one at a time in the learner
(``specific``: the generic families, a constant of the check's own module scaled, do not
apply; the L1 projection keeps its callee witnesses, the package functions times 5/4)."""

from __future__ import annotations

import contextlib

import numpy as np

from .. import learners
from ._witness import Witness
from ._witnesses_common import specific


@contextlib.contextmanager
def _class_attr(cls, name, value):
    """``cls.name = value``, the raw class-dict entry restored after (a staticmethod stays
    one: ``attr_patch`` would restore the function ``getattr`` returns, now bound)."""
    had = name in vars(cls)
    old = vars(cls).get(name)
    setattr(cls, name, value)
    try:
        yield
    finally:
        if had:
            setattr(cls, name, old)
        else:
            delattr(cls, name)


def _theory_replaced(cls, theory, name, description):
    """``cls``'s ``eta="theory"`` replaced by ``theory(m, d, B)``."""
    def apply(check):
        @contextlib.contextmanager
        def cm():
            with _class_attr(cls, "_theory", staticmethod(theory)):
                yield check
        return cm()
    return Witness(name, description, apply)


def _last_iterate_output(cls):
    """The online learner's output the last iterate w_{m+1} instead of the average."""
    real = cls._kernel

    def kernel(self, X, y, rows, B, eta):
        real(self, X, y, rows, B, eta)
        self.coef_ = self.w_.copy()

    def apply(check):
        @contextlib.contextmanager
        def cm():
            with _class_attr(cls, "_kernel", kernel):
                yield check
        return cm()
    return Witness("last_iterate_output", "coef_ is the last iterate, not the average", apply)


@specific("LAO.FullInformation.online_ridge")
def _online_ridge(check):
    return [_theory_replaced(learners.OnlineRidge, lambda m, d, B: 2.0 / np.sqrt(m),
                             "eta_theory_doubled", "eta='theory' is 2/√m"),
            _last_iterate_output(learners.OnlineRidge)]


@specific("LAO.FullInformation.online_lasso")
def _online_lasso(check):
    return [_theory_replaced(learners.OnlineLasso,
                             lambda m, d, B: np.sqrt(np.log(2 * d) / (20 * B * m)),
                             "eta_B_squared_as_B", "η = √(log 2d/(20Bm)): B² written B"),
            _theory_replaced(learners.OnlineLasso,
                             lambda m, d, B: np.sqrt(np.log(2 * d) / (5 * B ** 2 * m)),
                             "eta_G_squared_as_B_squared", "η = √(log 2d/(5B²m)): G² = B²")]


@specific("LAO.FullInformation.online_ridge_adagrad")
def _online_ridge_adagrad(check):
    return [_theory_replaced(learners.AdaOnlineRidge, lambda m, d, B: 2.0 * B,
                             "eta0_2B", "η₀ = 2B (D_∞ = 2B without the 1/√2)"),
            _last_iterate_output(learners.AdaOnlineRidge)]


def _solve_shrunk(cls, factor):
    real = cls._solve

    def solve(self, H, b, m, d, spectrum):
        out = real(self, H, b, m, d, spectrum)
        out.coef_ = out.coef_ * factor
        return out

    def apply(check):
        @contextlib.contextmanager
        def cm():
            with _class_attr(cls, "_solve", solve):
                yield check
        return cm()
    return apply


@specific("LAO.FullInformation.offline_ridge")
def _offline_ridge(check):
    return [Witness("secular_root_off", "the secular equation solved for ‖w‖ = 0.999·B "
                    "(and an interior solution shrunk by 0.999)",
                    _solve_shrunk(learners.OfflineRidge, 0.999))]


@specific("LAO.FullInformation.offline_lasso")
def _offline_lasso(check):
    real = learners.OfflineLasso._solve

    def solve(self, H, b, m, d, spectrum):
        return real(self, H, b / 2, m, d, spectrum)

    def apply(check):
        @contextlib.contextmanager
        def cm():
            with _class_attr(learners.OfflineLasso, "_solve", solve):
                yield check
        return cm()
    return [Witness("b_halved", "the solver's b = Xᵀy/m written Xᵀy/(2m)", apply)]
