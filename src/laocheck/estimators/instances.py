"""Small exact instances for checking estimators: dyadic (w, x, y), exactly representable.

Used by laocheck's own tests and available to users who check their own estimator the same way:
the Cython kernels see the floats, the literal reference versions the equal Fractions.
"""
from fractions import Fraction as F

import numpy as np

from ._registry import names as estimator_names
from ._registry import spec_of
from ._spec import EstimatorSpec

__all__ = ["INSTANCES", "BOUNDARY_INSTANCES", "exact_moments", "params_for", "as_float", "k_values", "cases"]

# Dyadic rationals: exactly representable as floats, so the kernels (floats) and the literal
# reference versions (Fractions) see the very same instance.
INSTANCES = {
    "d3": ([F(1, 2), F(-1, 4), F(0)], [F(3, 4), F(-1, 2), F(1, 4)], F(1, 8)),
    "d4": ([F(1, 2), F(-1, 4), F(1, 8), F(3, 8)], [F(1, 2), F(1, 4), F(-3, 4), F(1, 8)], F(-1, 4)),
    "w0": ([F(0), F(0), F(0)], [F(1, 2), F(-1, 4), F(1, 4)], F(1, 4)),
    "d6": ([F(1, 2), F(-1, 4), F(1, 8), F(3, 8), F(0), F(-5, 8)],
           [F(1, 4), F(1, 4), F(-1, 2), F(1, 8), F(3, 8), F(-1, 8)], F(1, 16)),
    # the boundaries of the papers' displayed conditions (issue 47 item 5), at B = 1 (the
    # example parameters' B): ‖w‖₂ = B, ‖x‖₂ = 1, y = −B (HK12 Lemmas 3.3, 4.1; KS15 Lemmas
    # 3.2-3.4: ‖x‖₂ <= 1, |y| <= B, ‖w‖₂ <= B)
    "l2_edge": ([F(1, 2), F(-1, 2), F(1, 2), F(1, 2)], [F(1, 2), F(1, 2), F(-1, 2), F(1, 2)],
                F(-1)),
    # ‖w‖₁ = B, ‖x‖∞ = 1, y = B, w₄ = 0 (p₄ ∝ w₄² or |w₄| at its floor 0) (CB11 Lemma 11,
    # HK12 Lemma 3.8, KS15 Lemmas 4.2-4.5: ‖x‖∞ <= 1, |y| <= B, ‖w‖₁ <= B)
    "l1_edge": ([F(1, 2), F(-1, 4), F(1, 4), F(0)], [F(1), F(-1, 2), F(1, 4), F(-1)], F(1)),
    # k = d at the catalog's k = 2 (HK12/KS15: k <= d), ‖x‖₂ = ‖x‖∞ = 1, y = B
    "kd_edge": ([F(1, 2), F(-1, 4)], [F(0), F(1)], F(1)),
    # w = 0 (φ̃ without a draw) at d = 4, the dimension of the estimators built with four
    # second moments or a q of four entries, with ‖x‖₂ = 1 and y = −B
    "w0_edge": ([F(0), F(0), F(0), F(0)], [F(1, 2), F(1, 2), F(1, 2), F(-1, 2)], F(-1)),
}

#: The instances on the boundaries of the displayed conditions (equality cases).
BOUNDARY_INSTANCES = ("l2_edge", "l1_edge", "kd_edge", "w0_edge")


def exact_moments(d):
    """E[x_i²] = (i/8)²: their square roots are exact, so eq. (4)'s q is exact too."""
    return [float(F(i, 8) ** 2) for i in range(1, d + 1)]


def params_for(name, d, k):
    """The example parameters of estimator ``name`` (a registered name or an
    :class:`~laocheck.estimators.EstimatorSpec`) on an exact instance of dimension d, with the
    exact second moments of :func:`exact_moments`."""
    spec = name if isinstance(name, EstimatorSpec) else spec_of(name)
    params = spec.example_params(d, k=k)
    if "second_moments" in params:
        params["second_moments"] = exact_moments(d)
    return params


def as_float(instance):
    w, x, y = instance
    return np.array([float(v) for v in w]), np.array([float(v) for v in x]), float(y)


def k_values(name, d):
    """The budgets to test for an estimator on dimension d: its spec's ``exact_k`` that are
    valid in dimension d (``k_max``); at d = 6 only the largest, to keep the enumeration small."""
    ks = list(spec_of(name).k_values(d))
    return ks[-1:] if d >= 6 else ks


def cases(names=None, instances=("d3", "d4", "w0")):
    out = []
    for name in names or estimator_names():
        for inst in instances:
            d = len(INSTANCES[inst][0])
            for k in k_values(name, d):
                out.append((name, inst, k))
    return out
