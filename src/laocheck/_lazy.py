"""Lazy public attributes of a package (PEP 562): a name loads with its submodule on first use.

``laocheck --help`` and ``import laocheck.checks`` must not pay for scipy.stats, scikit-learn,
sympy or matplotlib; a package ``__init__`` therefore names where each public attribute lives
instead of importing it::

    __getattr__, __dir__ = attach(__name__, {
        "delta_split": ("DEFAULT_DELTA", "DeltaSplit"),
        "intervals": ("mean_interval",),
    })

``from laocheck.stats import DEFAULT_DELTA`` then imports ``laocheck.stats.delta_split`` only;
``laocheck.stats.mean_interval``, ``from laocheck.stats import *`` (its ``__all__``) and
``dir(laocheck.stats)`` work as with eager imports. The interface is scientific-python's SPEC 1
(``lazy_loader.attach``) without the dependency.

A module whose functions use a heavy library, but whose import must stay light (the check
modules: ``laocheck list`` reads their registrations, not their bodies), names it with
:func:`load` instead of importing it::

    sp = load("sympy")              # imported on the first ``sp.<name>``

(SPEC 1's ``lazy_loader.load``, as a plain stand-in object: ``sys.modules`` is not touched, so
whoever imports ``sympy`` for real gets the real module.)
"""

from __future__ import annotations

import importlib
import importlib.util
import sys

__all__ = ["attach", "load"]


def attach(package, submod_attrs, *, first=()):
    """``(__getattr__, __dir__)`` for the package named ``package``.

    ``submod_attrs`` maps a submodule (relative name, ``"_registry"``) to the public names it
    defines; every submodule of the package is also reachable as an attribute (as it was
    when the eager imports had loaded them all). ``first``: submodules imported
    before any attribute is resolved (a package whose submodules register themselves on import:
    the registry is complete whatever name is asked first). A resolved name is stored in the
    package, so ``__getattr__`` runs once per name.
    """
    where = {name: sub for sub, names in submod_attrs.items() for name in names}
    submodules = frozenset(submod_attrs)

    def __getattr__(name):
        if name in where:
            for sub in first:
                importlib.import_module(f"{package}.{sub}")
            value = getattr(importlib.import_module(f"{package}.{where[name]}"), name)
        elif name in submodules or (not name.startswith("__")
                                    and importlib.util.find_spec(f"{package}.{name}")):
            value = importlib.import_module(f"{package}.{name}")
        else:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        setattr(sys.modules[package], name, value)
        return value

    def __dir__():
        return sorted(set(vars(sys.modules[package])) | set(where) | submodules)

    return __getattr__, __dir__


class _Deferred:
    """Stands for the module ``name`` until an attribute is asked: then imports it and answers
    from it (see :func:`load`)."""

    __slots__ = ("_name", "_module")

    def __init__(self, name):
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_module", None)

    def __getattr__(self, attr):
        module = self._module
        if module is None:
            module = importlib.import_module(self._name)
            object.__setattr__(self, "_module", module)
        return getattr(module, attr)

    def __setattr__(self, attr, value):
        raise AttributeError(f"{self._name!r} is loaded on first use: set {attr!r} on the module "
                             "itself")

    def __dir__(self):
        return dir(importlib.import_module(self._name))

    def __repr__(self):
        state = "loaded" if self._module is not None else "not loaded yet"
        return f"<module {self._name!r} on first use ({state})>"


def load(name):
    """A stand-in for the module ``name`` (``"sympy"``, ``"scipy.optimize"``) that imports it
    on its first attribute access and then answers every attribute from it.

    Parameters
    ----------
    name : str
        The absolute name of the module.

    Returns
    -------
    object
        ``load("sympy").Symbol`` is ``sympy.Symbol``; nothing is imported before the first
        attribute access, and an unknown module raises ImportError there.
    """
    return _Deferred(name)
