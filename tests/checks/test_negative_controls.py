"""Negative controls: deliberately broken estimators that the checks must FAIL (their power).

Each broken estimator implements the protocol the checks use (``name``, ``budget``, ``target``,
``reference(w, x, y, src)`` and ``sample``), as a user's own estimator would, and is run through
``check.with_estimator(broken)``. Every control lists the checks that must catch it; the count of
controls written and caught is asserted at the end.
"""
from fractions import Fraction as F

import numpy as np
import pytest

from laocheck import checks as catalog
from laocheck import estimators
from laocheck.estimators import Draws
from laocheck.stats.exact import RandomSource


class Broken:
    """A user-style estimator: a literal (broken) reference draw, sampled in Python."""

    def __init__(self, name, draw, *, budget, k=2, eta=None, target_of=None):
        self.name = f"broken:{name}"
        self.citation = "negative control"
        self.budget = budget
        self.budget_kind = "max"
        self.k = k
        if eta is not None:
            self.eta = eta
        self._draw = draw

    def reference(self, w, x, y, src):
        exact = any(isinstance(v, F) for v in list(w) + list(x))
        conv = (lambda v: v) if exact else float
        w = [conv(v) for v in w]
        x = [conv(v) for v in x]
        return self._draw(w, x, conv(y), src, exact)

    def sample(self, w, x, y, *, n=1, rng=None):
        src = RandomSource(rng)
        vals, att = [], []
        for _ in range(n):
            v, seen = self.reference(w, x, y, src)
            vals.append(np.asarray(v, dtype=float))
            att.append(len(seen))
        return Draws(np.array(vals), np.array(att, dtype=np.int64))


def _zeros(d, exact):
    return np.array([F(0)] * d, dtype=object) if exact else np.zeros(d)


def _data_point(x, k, src, exact, *, weight=None, draws=None, replace=True, support=None):
    d = len(x)
    weight = d if weight is None else weight
    out = _zeros(d, exact)
    seen = set()
    m = k if draws is None else draws
    idx = [src.uniform_int(d if support is None else support) for _ in range(m)] if replace \
        else list(src.subset(d, m))
    for i in idx:
        seen.add(i)
        out[i] = out[i] + weight * x[i]
    return out / m, seen


def _aerr_residual(w, x, y, src, *, abs_weights=False):
    ns = sum(v * v for v in w)
    probs = [abs(v) / sum(abs(u) for u in w) for v in w] if abs_weights else [v * v / ns for v in w]
    j = src.categorical(probs)
    return ns * x[j] / w[j] - y, {j}


# --------------------------------------------------------------------------- the controls
def wrong_importance_weight(k=2):
    """HK12 Alg. 1 line 5 with (d − 1)·x[i] in place of d·x[i]."""
    def draw(w, x, y, src, exact):
        v, seen = _data_point(x, k, src, exact, weight=len(x) - 1)
        return v, frozenset(seen)
    return Broken("wrong_importance_weight", draw, budget=k, k=k)


def wrong_sampling_probabilities():
    """HK12 Alg. 1 line 8 with j ∝ |w_j| (AELR's rule) but line 9's weight ‖w‖²/w_j."""
    def draw(w, x, y, src, exact):
        r, seen = _aerr_residual(w, x, y, src, abs_weights=True)
        return r, frozenset(seen)
    return Broken("wrong_sampling_probabilities", draw, budget=1)


def dropped_coordinate(k=2):
    """x̃ never samples the last coordinate (uniform on d − 1 indices, weight d − 1)."""
    def draw(w, x, y, src, exact):
        v, seen = _data_point(x, k, src, exact, weight=len(x) - 1, support=len(x) - 1)
        return v, frozenset(seen)
    return Broken("dropped_coordinate", draw, budget=k, k=k)


def without_instead_of_with_replacement(k=2):
    """HK12 Alg. 1 lines 3-7 with k distinct indices (a uniform k-subset)."""
    def draw(w, x, y, src, exact):
        v, seen = _data_point(x, k, src, exact, replace=False)
        return v, frozenset(seen)
    return Broken("without_instead_of_with_replacement", draw, budget=k, k=k)


def with_instead_of_without_replacement(k=2):
    """CB11 Fig. 1 with C drawn with replacement (k uniform draws) instead of a k-subset."""
    def draw(w, x, y, src, exact):
        d = len(x)
        ratio = F(d, k) if exact else d / k
        C = [src.uniform_int(d) for _ in range(k)]
        v = _zeros(d, exact)
        A = np.array([_zeros(d, exact) for _ in range(d)])
        for c in C:
            v[c] = v[c] + ratio * x[c]
        I, J = C[: k // 2], C[k // 2:]
        for i in I:
            for j in J:
                A[i, j] = A[i, j] + 2 * ratio ** 2 * x[i] * x[j]
                A[j, i] = A[j, i] + 2 * ratio ** 2 * x[i] * x[j]
        return np.vstack([A, (2 * y * v)[None, :]]), frozenset(C)
    return Broken("with_instead_of_without_replacement", draw, budget=k, k=k)


def wrong_clipping_threshold(k=2, eta=4.0):
    """HK12 Alg. 2 line 13 clipping at 1/(2η) instead of 1/η."""
    def draw(w, x, y, src, exact):
        v, seen = _data_point(x, k, src, exact)
        n1 = sum(abs(u) for u in w)
        j = src.categorical([abs(u) / n1 for u in w])
        phi = n1 * (1 if w[j] > 0 else -1) * x[j] - y
        c = 1 / (2 * (F(eta) if exact else eta))
        g = np.array([max(min(phi * e, c), -c) for e in v], dtype=object if exact else float)
        return g, frozenset(seen | {j})
    return Broken("wrong_clipping_threshold", draw, budget=k + 1, k=k, eta=eta)


def off_by_one_budget(k=2):
    """HK12 Alg. 1 with k + 1 draws for x̃ (unbiased, but k + 2 attributes)."""
    def draw(w, x, y, src, exact):
        v, seen = _data_point(x, k, src, exact, draws=k + 1)
        r, seen_r = _aerr_residual(w, x, y, src)
        return r * v, frozenset(seen | seen_r)
    return Broken("off_by_one_budget", draw, budget=k + 1, k=k)


CONTROLS = [
    (wrong_importance_weight, ["HK12.AERR.data_point.unbiased.exact",
                               "HK12.AERR.data_point.unbiased.monte_carlo",
                               "HK12.Lemma3.3.eq9_corrected"]),
    (wrong_sampling_probabilities, ["HK12.AERR.residual.unbiased.exact",
                                    "HK12.AERR.residual.unbiased.monte_carlo"]),
    (dropped_coordinate, ["HK12.AERR.data_point.unbiased.exact",
                          "HK12.Lemma3.3.eq9_corrected"]),
    (without_instead_of_with_replacement, ["HK12.Lemma3.3.eq9_corrected"]),
    (with_instead_of_without_replacement, ["CB11.Lemma8.expectation_corrected"]),
    (wrong_clipping_threshold, ["HK12.AELR.clipped_gradient.clip_threshold"]),
    (off_by_one_budget, ["HK12.AERR.gradient.budget"]),
]
CASES = [(make, cid) for make, ids in CONTROLS for cid in ids]


@pytest.mark.parametrize("make,check_id", CASES,
                         ids=[f"{m.__name__}-{c}" for m, c in CASES])
def test_control_is_caught(make, check_id):
    record = catalog.run(catalog.get(check_id).with_estimator(make()), seed=0, effort="fast",
                        catch=False)
    assert record.status == "FAIL", record


def test_every_control_is_caught_and_the_count():
    """7 controls written (6 kinds; replacement in both directions), all caught."""
    caught = 0
    for make, ids in CONTROLS:
        statuses = [catalog.run(catalog.get(i).with_estimator(make()), seed=1).status
                    for i in ids[:1]]
        caught += all(s == "FAIL" for s in statuses)
    assert (len(CONTROLS), caught) == (7, 7)


@pytest.mark.parametrize("name,check_id", [
    ("HK12.AERR.data_point", "HK12.AERR.data_point.unbiased.exact"),
    ("HK12.AERR.residual", "HK12.AERR.residual.unbiased.monte_carlo"),
    ("HK12.AELR.clipped_gradient", "HK12.AELR.clipped_gradient.clip_threshold"),
])
def test_the_unbroken_python_estimator_passes(name, check_id):
    """The harness itself is sound: a correct user-style estimator passes the same checks."""
    est = estimators.get(name, **catalog.get(check_id).params)

    class Wrapped:
        budget, budget_kind, citation, k = est.budget, "max", "control", 2
        eta = getattr(est, "eta", None)
        reference = staticmethod(est.reference)
        sample = staticmethod(est.sample)
    Wrapped.name = "user:" + name
    record = catalog.run(catalog.get(check_id).with_estimator(Wrapped()), seed=0, catch=False)
    assert record.status == "PASS", record
