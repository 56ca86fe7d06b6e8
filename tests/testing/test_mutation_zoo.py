"""A zoo of realistic slips in samplers, written as user code around laocheck's estimators;
each must be caught by ``check_estimator`` (the claims inherited from the wrapped estimator's
spec), and the unaltered wrappers must pass.

Each mutant overrides the user's own sampler (``sample``) and, where a user would transcribe the
same slip, the reference too; a slip in the sampler only is caught against the reference.
False alarms: the unaltered wrappers on 20 seeds — every statistical check has δ = 1e-6, so the
family-wise false-FAIL probability of ``test_unaltered_wrappers_pass_on_20_seeds`` is at most
20 seeds × 3 wrappers × 2 statistical checks × 1e-6 = 1.2e-4 (the exact checks cannot
false-fail).
"""
import numpy as np
import pytest

from laocheck import estimators
from laocheck.estimators import Draws
from laocheck.stats.exact import RandomSource
from laocheck.testing import CheckFailure, check_estimator

from .user_estimators import UserAERRGradient


class Wrapper:
    """A user's wrapper of a registered estimator: forwards the protocol (and so its spec,
    whose claims it inherits); a mutant overrides ``sample`` and/or ``reference``."""

    def __init__(self, name, **params):
        self.inner = estimators.get(name, **params)
        self.name = f"user.{name}"
        self.spec = self.inner.spec
        self.params = self.inner.params
        self.budget = self.inner.budget
        self.citation = "user wrapper of " + self.inner.citation

    def target(self, w, x, y):
        return self.inner.target(w, x, y)

    def sample(self, w, x, y, *, n=1, rng=None):
        return self.inner.sample(w, x, y, n=n, rng=rng)

    def reference(self, w, x, y, src):
        return self.inner.reference(w, x, y, src)


class SignFlip(Wrapper):
    """φ̃ = y − ŷ instead of ŷ − y (a sign slip in the residual)."""

    def sample(self, w, x, y, *, n=1, rng=None):
        d = self.inner.sample(w, x, y, n=n, rng=rng)
        return Draws(-d.values, d.attributes)

    def reference(self, w, x, y, src):
        v, seen = self.inner.reference(w, x, y, src)
        return -v if not isinstance(v, list) else [-u for u in v], seen


class PeekOneMore(Wrapper):
    """Looks at one more attribute than the budget allows (the count is honest)."""

    def sample(self, w, x, y, *, n=1, rng=None):
        d = self.inner.sample(w, x, y, n=n, rng=rng)
        return Draws(d.values, d.attributes + 1)


class StaleClip(Wrapper):
    """HK12 Alg. 2 line 13 clipping at 2/η instead of 1/η (the sampler only)."""

    def sample(self, w, x, y, *, n=1, rng=None):
        base = estimators.get(self.spec.clipping.unclipped,
                              **{k: v for k, v in self.params.items() if k != "eta"})
        d = base.sample(w, x, y, n=n, rng=rng)
        c = 2 / self.params["eta"]
        return Draws(np.clip(d.values, -c, c), d.attributes)


class KernelOnlySlip(Wrapper):
    """The sampler reuses one draw for every row (draws not independent); the reference is
    right — a slip of a vectorised rewrite."""

    def sample(self, w, x, y, *, n=1, rng=None):
        d = self.inner.sample(w, x, y, n=max(1, n // 2), rng=rng)
        idx = np.arange(n) % d.values.shape[0]
        values = d.values[idx].copy()
        values[: n // 4] = values[0]                       # a stuck first block
        return Draws(values, d.attributes[idx])


def _user(**kw):
    return UserAERRGradient(k=2, name="user.aerr", **kw)


class MutantAERR(UserAERRGradient):
    """The user's own HK12 Alg. 1 with one slip, in both sampler and reference."""

    def __init__(self, slip, k=2):
        super().__init__(k=k, name=f"user.aerr.{slip}")
        self.slip = slip

    def reference(self, w, x, y, src):
        d = len(x)
        xt = [x[0] * 0] * d
        seen = set()
        draws = self.k + 1 if self.slip == "draws" else self.k
        for r in range(draws):
            i = src.uniform_int(d - 1 if self.slip == "index_range" else d)
            seen.add(i)
            weight = d - 1 if self.slip == "index_range" else d
            xt[i] = xt[i] + weight * x[i] / self.k
        ns = sum(v * v for v in w)
        if ns == 0:                                        # w = 0: φ̃ = −y, nothing observed
            return [-y * v for v in xt], frozenset(seen)
        if self.slip == "abs_weights":
            n1 = sum(abs(v) for v in w)
            j = src.categorical([abs(v) / n1 for v in w])
        elif self.slip == "reuse":
            j = i                                          # reuses x̃'s last draw as j
        else:
            j = src.categorical([v * v / ns for v in w])
        seen.add(j)
        phi = ns * x[j] / w[j] - y
        return [phi * v for v in xt], frozenset(seen)

    def sample(self, w, x, y, *, n=1, rng=None):
        src = RandomSource(np.random.default_rng(rng))   # the reference drives the sampler
        vals, att = [], []
        for _ in range(n):
            v, seen = self.reference(w, x, y, src)
            vals.append(np.asarray(v, dtype=float))
            att.append(len(seen))
        return Draws(np.array(vals), np.array(att, dtype=np.int64))


ZOO = [
    # (mutant, the checks that must catch it)
    (lambda: _user(weight=lambda d: d - 1), {"unbiased.exact"}),            # importance weight
    (lambda: _user(weight=lambda d: d + 1), {"unbiased.exact"}),            # off by one, up
    (lambda: MutantAERR("abs_weights"), {"unbiased.exact"}),                # sampling probs
    (lambda: MutantAERR("draws"), {"unbiased.exact", "budget"}),            # number of draws
    (lambda: MutantAERR("index_range"), {"unbiased.exact"}),                # index range
    (lambda: MutantAERR("reuse"), {"unbiased.exact"}),                      # reuse of draws
    (lambda: SignFlip("HK12.AERR.gradient", k=2), {"unbiased.exact"}),      # sign
    (lambda: SignFlip("CB11.AER.residual", k=4), {"unbiased.exact"}),       # sign, CB11
    (lambda: PeekOneMore("KS15.GAERR.gradient", k=2, q=[0.1, 0.2, 0.3, 0.4]),
     {"budget", "kernel_matches_reference"}),                               # budget
    (lambda: StaleClip("HK12.AELR.clipped_gradient", k=2, eta=4.0),
     {"clipping", "kernel_matches_reference"}),                             # clip threshold
    (lambda: KernelOnlySlip("HK12.AELR.gradient", k=2),
     {"kernel_matches_reference"}),                                         # draws not i.i.d.
]
def _claims(est):
    return None if hasattr(est, "spec") else {"unbiased": True}


@pytest.mark.slow
@pytest.mark.parametrize("make,catches", ZOO, ids=[f"mutant{i}" for i in range(len(ZOO))])
def test_every_mutant_is_caught(make, catches):
    est = make()
    with pytest.raises(CheckFailure) as info:
        check_estimator(est, _claims(est), seed=0)
    failing = {r.id[len(est.name) + 1:] for r in info.value.records}
    assert catches <= failing, (failing, [(r.id, r.figures) for r in info.value.records])


UNALTERED = [lambda: Wrapper("HK12.AERR.gradient", k=2),
             lambda: Wrapper("KS15.GAELR.clipped_gradient", k=2, q=[0.1, 0.2, 0.3, 0.4],
                             eta=4.0),
             lambda: _user()]


@pytest.mark.slow
@pytest.mark.parametrize("make", UNALTERED, ids=["wrap-aerr", "wrap-gaelr-clipped", "user-aerr"])
def test_unaltered_wrappers_pass_on_20_seeds(make):
    est = make()
    for seed in range(20):
        records = check_estimator(est, _claims(est), seed=seed)   # raises on any FAIL
        assert records and all(r.status == "PASS" for r in records), [
            (r.id, r.status, r.note) for r in records if r.status != "PASS"]
