"""The catalogue of estimators: :func:`register`, :func:`get`, :func:`names`, :func:`specs`,
:func:`spec_of` and :func:`example_params`.

The estimators of CB11, HK12 and KS15 (:mod:`laocheck.estimators._families`, the classes
behind the protocol of :mod:`laocheck.estimators._protocol`) are registered on the first
lookup, so that importing the package or a light submodule (``instances``) loads no kernel. The
families do not import this module (they declare ``REGISTRATIONS``, read here): the arrows go
registry -> families -> protocol, never back.
"""

from __future__ import annotations

from ..exceptions import InvalidParameterError

__all__ = ["register", "names", "get", "spec_of", "specs", "example_params"]


_REGISTRY = {}
_SPECS = {}


def register(name, factory, *, spec=None):
    """Register ``factory(**params)`` under ``name``, with its :class:`EstimatorSpec`.

    :func:`get` then builds it, and the catalog's checks select from its spec.

    Parameters
    ----------
    name : str
        ``"<catalog id>.<part>"``, e.g. ``"HK12.AERR.gradient"``; not registered yet.
    factory : callable
        ``factory(**params)`` returns the estimator.
    spec : EstimatorSpec, optional
        The estimator's spec; its ``name`` must be ``name``.

    Raises
    ------
    InvalidParameterError
        ``name`` is already registered, or ``spec`` is the spec of another name.
    """
    if name in _REGISTRY:
        raise InvalidParameterError(f"an estimator named {name!r} is already registered")
    if spec is not None and spec.name != name:
        raise InvalidParameterError(
            f"`spec` must be the spec of {name!r}; got the spec of {spec.name!r}.")
    _REGISTRY[name] = factory
    if spec is not None:
        _SPECS[name] = spec


_LOADED = []


def _load_families():
    """Register the estimators of CB11, HK12 and KS15 (once; on the first lookup, so that
    importing the package or a light submodule loads no kernel and no scipy.special)."""
    if _LOADED:
        return
    # start-up: _families loads the kernels and scipy.special; read on the first lookup
    from ._families import REGISTRATIONS
    _LOADED.append(True)
    for name, factory, spec in REGISTRATIONS:
        register(name, factory, spec=spec)


def spec_of(name):
    """The :class:`EstimatorSpec` of the registered estimator ``name``.

    Parameters
    ----------
    name : str
        One of :func:`names`, e.g. ``"HK12.AERR.gradient"``.

    Returns
    -------
    EstimatorSpec
        Its citation, target, budget and the papers' claims about it.

    Raises
    ------
    InvalidParameterError
        ``name`` is not a registered estimator with a spec.
    """
    _load_families()
    try:
        return _SPECS[name]
    except KeyError:
        raise InvalidParameterError(
            f"`name` must be one of laocheck.estimators.names() with a spec; got {name!r}."
        ) from None


def specs():
    """The specs of every registered estimator, sorted by name.

    Returns
    -------
    list of EstimatorSpec
        One per registered estimator that has a spec.
    """
    _load_families()
    return [_SPECS[n] for n in sorted(_SPECS)]


def names():
    """The names of every registered estimator, sorted.

    Returns
    -------
    list of str
        The ``"<catalog id>.<part>"`` names (``"HK12.AERR.gradient"``, ...).
    """
    _load_families()
    return sorted(_REGISTRY)


def get(name, **params):
    """The estimator ``name`` built with ``params``.

    Parameters
    ----------
    name : str
        One of :func:`names`, e.g. ``"HK12.AERR.gradient"``.
    **params
        The estimator's parameters (validated; see its class, e.g. ``k``,
        ``check_assumptions``); :func:`example_params` gives a valid set.

    Returns
    -------
    Estimator
        The estimator, with its ``spec``, ``sample`` and ``accumulate``.

    Raises
    ------
    InvalidParameterError
        ``name`` is not registered, or a parameter's value is invalid for it.
    TypeError
        A parameter the estimator does not take.
    """
    _load_families()
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise InvalidParameterError(
            f"`name` must be one of laocheck.estimators.names(); got {name!r}."
        ) from None
    return factory(**params)


def example_params(name, d, *, k=2, B=1.0):
    """A valid parameter set for estimator ``name`` in dimension ``d``.

    For tests and examples: its spec's ``example_params``: q and the second moments are fixed, non-uniform, strictly
    positive vectors (q_i ∝ i, E[x_i²] ∝ i²); η = 1/(2B); AESVR uses ε = 0.5, δ = 0.1; GenEst
    estimates f′(z) = 1 + z/2 − z²/8 + z³/16, a cubic, so its expectation is finite to
    enumerate exactly.

    Parameters
    ----------
    name : str
        One of :func:`names`.
    d : int
        The dimension.
    k : int
        The budget parameter, for the estimators that take one (CB11's are rounded down to an
        even k >= 2). Default 2.
    B : float
        The norm bound (GenEst and AESVR take it; η = 1/(2B)). Default 1.

    Returns
    -------
    dict
        Keyword arguments for ``get(name, **params)``.

    Raises
    ------
    InvalidParameterError
        ``name`` is not a registered estimator.
    """
    return spec_of(name).example_params(d, k=k, B=B)
