"""The helpers that both witness declaration modules use (:mod:`laocheck.checks._witnesses`
and :mod:`laocheck.checks._witnesses_cb11`): the mutated estimator, the formula and attribute
patches, and :func:`specific`, the declaration of one check's own witnesses. Kept apart so that
the two declaration modules import it and not each other (no import cycle in the folder).
"""

from __future__ import annotations

import contextlib
import dataclasses
from fractions import Fraction

import numpy as np
import sympy as sp

from .. import estimators as _estimators
from ..bounds._formulas import FORMULAS
from ..estimators import Draws
from . import _witness as W
from ._witness import Witness, declare

__all__ = ["MutantEstimator", "KERNEL_BIASED", "REFERENCE_SHIFTED", "formula_witness",
           "specific"]


class MutantEstimator:
    """An estimator of the protocol that delegates to ``base`` except for one mutation:
    ``kernel`` maps the kernel's draw values (float arrays), ``reference`` maps the literal
    reference's value (exact arrays) given ``y``, ``extra_attribute`` adds one attribute read
    (or that many, an int) to every draw (kernel and reference). ``accumulate`` is withheld, so the checks' moments
    come from the mutated ``sample``."""

    def __init__(self, base, *, kernel=None, reference=None, extra_attribute=False,
                 kernel_y=None):
        self._base = base
        self._kernel = kernel
        self._kernel_y = kernel_y                    # maps (values, y): a shift that moves with y
        self._reference_map = reference
        self._extra = int(extra_attribute)          # True: one more; an int: that many more

    def __getattr__(self, name):
        if name == "accumulate":
            raise AttributeError(name)
        return getattr(self._base, name)

    def sample(self, w, x, y, *, n=1, rng=None):
        draws = self._base.sample(w, x, y, n=n, rng=rng)
        values = draws.values if self._kernel is None else self._kernel(draws.values)
        if self._kernel_y is not None:
            values = self._kernel_y(values, y)
        return Draws(values, np.asarray(draws.attributes) + int(self._extra))

    def reference(self, w, x, y, src):
        value, seen = self._base.reference(w, x, y, src)
        if self._reference_map is not None:
            value = self._reference_map(value, y)
        if self._extra:
            seen = list(seen) + [("witness", len(seen) + i) for i in range(self._extra)]
        return value, seen


def _biased_kernel(values):
    return np.asarray(values, dtype=float) * 1.1 + 0.05


def _shift_reference(value, y):
    arr = np.asarray(value, dtype=object)
    return arr + Fraction(1, 8)


KERNEL_BIASED = ("kernel_biased", "the kernel's draws mapped v -> 1.1 v + 0.05")


REFERENCE_SHIFTED = ("reference_shifted", "the literal reference's value shifted by 1/8")


@contextlib.contextmanager
def _estimators_mutated(check, **mutation):
    original = _estimators.get

    def get(name, **params):
        return MutantEstimator(original(name, **params), **mutation)
    with W.attr_patch(_estimators, "get", get):
        yield check


@contextlib.contextmanager
def _formula_scaled(check, key, factor):
    entry = FORMULAS[key]
    mutated = dataclasses.replace(entry, expr=entry.expr * sp.nsimplify(factor))
    with W.dict_patch(FORMULAS, key, mutated):
        yield check


def formula_witness(key, factor=W.FACTOR, name=None, both=True):
    """The formula ``key`` of laocheck.bounds times ``factor`` (``both``: or divided by it)."""
    alt = (lambda c: _formula_scaled(c, key, 1 / factor),) if both else ()
    return Witness(name or f"formula:{key}", f"laocheck.bounds formula {key} times {factor}"
                   + (" (or divided by it)" if both else ""),
                   lambda c: _formula_scaled(c, key, factor), alternatives=alt)


#: ids whose witnesses are declared one by one below (the callee family skips them)
_SPECIFIC: set[str] = set()


def specific(id):
    """Decorator: the witnesses of one check ``id`` (``gen(check) -> list[Witness]``)."""
    _SPECIFIC.add(id)
    return declare(id)


def _patch_witness(name, description, module, attr, value, must="FAIL"):
    def apply(check):
        @contextlib.contextmanager
        def cm():
            with W.attr_patch(module, attr, value):
                yield check
        return cm()
    return Witness(name, description, apply, must=must)


def _scaled_part(func, part, factor):
    """``func`` (a reference estimate) with the value of ``part`` scaled by ``factor``."""
    def mutated(*args, **kwargs):
        value, seen = func(*args, **kwargs)
        if kwargs.get("part", "gradient") == part:
            value = W.scaled(value, factor)
        return value, seen
    return mutated


@contextlib.contextmanager
def _formula_times(check, key, factor_expr):
    entry = FORMULAS[key]
    with W.dict_patch(FORMULAS, key, dataclasses.replace(entry, expr=entry.expr * factor_expr)):
        yield check
