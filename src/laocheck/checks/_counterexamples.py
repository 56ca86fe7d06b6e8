"""A counterexample's instance, spelled out: the values a user rebuilds it from.

A check that finds a counterexample on one of the exact instances of
:mod:`laocheck.estimators.instances` names it (``{"instance": "d3"}``);
:func:`instance_counterexample` adds the instance's ``w``, ``x``, ``y`` (the floats the
sampler was called with; the instances are dyadic, so each float is the exact value), ``k``
and ``q`` when known, and ``reproduce``, one line of Python that rebuilds them without
laocheck. :func:`laocheck.checks.run` applies it to every record whose counterexample names
an instance and does not carry its values (:func:`complete_instance`), so a verify JSON
alone reproduces every counterexample.
"""

from __future__ import annotations

import numpy as np

from .._files import List, Obj, Real, Schema, Str
from ..estimators.instances import INSTANCES, as_float

__all__ = ["instance_counterexample", "reproduce_instance", "complete_instance",
           "COUNTEREXAMPLE_SCHEMA"]


def _literal(values):
    """A float list as a numpy literal (``np.array([0.5, -0.25])``): the instances are dyadic,
    so ``repr`` of each float is its exact value."""
    return "np.array([" + ", ".join(repr(float(v)) for v in values) + "])"


def reproduce_instance(instance, *, k=None, q=None):
    """One line of Python that rebuilds ``INSTANCES[instance]`` as the floats a sampler is
    called with (``w``, ``x``, ``y``), and ``k`` and ``q`` when given, without laocheck::

        import numpy as np; w = np.array([0.5, -0.25, 0.0]); x = ...; y = 0.125; k = 2
    """
    w, x, y = as_float(INSTANCES[instance])
    parts = ["import numpy as np", f"w = {_literal(w)}", f"x = {_literal(x)}",
             f"y = {float(y)!r}"]
    if k is not None:
        parts.append(f"k = {k!r}")
    if q is not None:
        parts.append(f"q = {_literal(q)}")
    return "; ".join(parts)


def _plain_number(value):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        return None
    return int(value)


def _distribution(q):
    """``q`` as a list of floats when it is a probability vector, else None."""
    try:
        arr = np.asarray(q, dtype=float)
    except (TypeError, ValueError):
        return None
    if arr.ndim != 1 or arr.size == 0 or not np.all(np.isfinite(arr)):
        return None
    return arr.tolist()


def instance_counterexample(counterexample, instance, *, k=None, q=None):
    """``counterexample`` (a dict) with the full instance it was found on: ``instance`` (its
    name in :mod:`laocheck.testing.instances`), ``w``, ``x``, ``y`` (the floats the sampler
    was called with, exact dyadics), ``k`` and ``q`` (the sampling distribution) when known,
    and ``reproduce``: one line of Python rebuilding them (:func:`reproduce_instance`).
    The keys the check set come first and are kept."""
    w, x, y = as_float(INSTANCES[instance])
    k = _plain_number(k)
    q = None if q is None else _distribution(q)
    out = dict(counterexample or {})
    out["instance"] = instance
    out.update({"w": w.tolist(), "x": x.tolist(), "y": float(y)})
    if k is not None:
        out["k"] = k
    if q is not None and len(q) == len(w):
        out["q"] = q
    else:
        q = None
    out["reproduce"] = reproduce_instance(instance, k=k, q=q)
    return out


def complete_instance(counterexample, *, k=None):
    """``counterexample`` with its instance's values (:func:`instance_counterexample`) when it
    is a dict that names an instance of :mod:`laocheck.estimators.instances` by its name
    (``"instance": "d3"``) and does not already carry ``w``; anything else unchanged. The
    counterexample's own ``k`` and ``q`` are kept and go into the reproduce line; ``k`` (the
    check's estimator's) is used when the counterexample has none."""
    if not isinstance(counterexample, dict) or "w" in counterexample:
        return counterexample
    name = counterexample.get("instance")
    if not isinstance(name, str) or name not in INSTANCES:
        return counterexample
    return instance_counterexample(counterexample, name, k=counterexample.get("k", k),
                                   q=counterexample.get("q"))


class _Counterexample(Schema):
    """A record's ``counterexample`` as files hold it: any JSON value, except that one naming
    an exact instance (an object whose ``instance`` is a name of
    :mod:`laocheck.estimators.instances`) and carrying any of the values
    :func:`complete_instance` adds must carry all of them: ``w``, ``x`` (lists of the
    instance's length), ``y`` and ``reproduce`` (its other keys, ``k`` and ``q`` among them,
    are any JSON). One that carries
    none of them (a file written before they were stored) is accepted and completed by
    :meth:`CheckRecord.from_dict`."""

    rule = "be a JSON value"
    _INSTANCE = Obj(required={"instance": Str(100), "w": List(Real(), min_len=1, max_len=10_000),
                              "x": List(Real(), min_len=1, max_len=10_000), "y": Real(),
                              "reproduce": Str(100_000)})

    def check(self, value, field):
        if not isinstance(value, dict) or value.get("instance") not in INSTANCES:
            return
        if not {"w", "x", "y", "reproduce"} & value.keys():
            return          # a file from before the values were stored: completed on reading
        self._INSTANCE.check(value, field)
        w, x, _ = INSTANCES[value["instance"]]
        if len(value["w"]) != len(w) or len(value["x"]) != len(x):
            self._bad(value["w"], f"{field}.w", f"have the {len(w)} entries of the instance "
                      f"{value['instance']}")


#: the schema of a record's ``counterexample`` (``laocheck.checks.RECORD_SCHEMA``)
COUNTEREXAMPLE_SCHEMA = _Counterexample()
