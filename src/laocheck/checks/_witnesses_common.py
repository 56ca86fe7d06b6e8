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
from ._kinds import boxes as _kinds_boxes
from ._kinds import empirical as _kinds_empirical
from ._kinds import formulas as _kinds_formulas
from ._kinds import proof_lines as _kinds_proof_lines
from ._kinds import text_constants as _kinds_text_constants
from ._witness import Witness, declare
from .cb11 import boxes as _cb11_boxes
from .cb11 import empirical as _cb11_empirical
from .cb11 import formulas as _cb11_formulas
from .cb11 import proof_lines as _cb11_proof_lines
from .cb11 import text_constants as _cb11_text_constants
from .hk12 import boxes as _hk12_boxes
from .hk12 import empirical as _hk12_empirical
from .hk12 import formulas as _hk12_formulas
from .hk12 import proof_lines as _hk12_proof_lines
from .hk12 import text_constants as _hk12_text_constants
from .ks15 import boxes as _ks15_boxes
from .ks15 import empirical as _ks15_empirical
from .ks15 import formulas as _ks15_formulas
from .ks15 import proof_lines as _ks15_proof_lines
from .ks15 import text_constants as _ks15_text_constants
from .lao import empirical as _lao_empirical
from .lao import formulas as _lao_formulas

__all__ = ["MutantEstimator", "KERNEL_BIASED", "REFERENCE_SHIFTED", "formula_witness",
           "specific", "KindModules", "KIND_MODULES"]


class KindModules:
    """The modules of one kind of check (``boxes`` of every paper and the helpers they share in
    ``_kinds``) seen as one module by the witnesses.

    Reading an attribute reads it in the first module that binds it; setting one sets it in every
    module that binds it (the module that defines a constant and those that import it), so a
    witness patches a paper's constant wherever a check or a shared helper reads it.
    """

    def __init__(self, *modules):
        object.__setattr__(self, "modules", modules)

    def _binding(self, name):
        hits = [m for m in self.modules if name in vars(m)]
        if not hits:
            raise AttributeError(f"no module of {[m.__name__ for m in self.modules]} binds {name!r}")
        return hits

    def __getattr__(self, name):
        return getattr(self._binding(name)[0], name)

    def __setattr__(self, name, value):
        for module in self._binding(name):
            setattr(module, name, value)


#: kind -> the modules of that kind of check, seen as one (:class:`KindModules`)
KIND_MODULES = {
    "boxes": KindModules(_cb11_boxes, _hk12_boxes, _ks15_boxes, _kinds_boxes),
    "empirical": KindModules(_cb11_empirical, _hk12_empirical, _ks15_empirical, _lao_empirical,
                             _kinds_empirical),
    "formulas": KindModules(_cb11_formulas, _hk12_formulas, _ks15_formulas, _lao_formulas,
                            _kinds_formulas),
    "proof_lines": KindModules(_cb11_proof_lines, _hk12_proof_lines, _ks15_proof_lines,
                               _kinds_proof_lines),
    "text_constants": KindModules(_cb11_text_constants, _hk12_text_constants,
                                  _ks15_text_constants, _kinds_text_constants),
}


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
