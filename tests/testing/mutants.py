"""A zoo of realistic slips in samplers, written as user code around laocheck's estimators.

Used by ``test_mutation_zoo.py`` (each mutant caught by ``check_estimator``) and by
``test_plugin.py`` (each mutant caught through the pytest plugin: that test copies this file
and ``user_estimators.py`` into a pytester directory, so the one import of a sibling module
below falls back to the plain import there).

Each mutant overrides the user's own sampler (``sample``) and, where a user would transcribe the
same slip, the reference too; a slip in the sampler only is caught against the reference. Every
estimator of the zoo gets its own label (``name``), so that test ids and failure lines name it.
"""
import numpy as np

from laocheck import estimators
from laocheck.estimators import Draws

try:
    from .user_estimators import UserAERRGradient
except ImportError:          # copied next to user_estimators.py (test_plugin's pytester run)
    from user_estimators import UserAERRGradient


class Wrapper:
    """A user's wrapper of a registered estimator: forwards the protocol (and so its spec,
    whose claims it inherits); a mutant overrides ``sample`` and/or ``reference``."""

    def __init__(self, name, *, label=None, **params):
        self.inner = estimators.get(name, **params)
        self.name = label or f"user.{name}"
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


def _user(label, **kw):
    return UserAERRGradient(k=2, name=label, **kw)


class MutantAERR(UserAERRGradient):
    """The user's own HK12 Alg. 1 with one slip, in both sampler and reference (the sampler
    vectorised with NumPy, as a user would write it: the same slip, the same distribution)."""

    def __init__(self, slip, k=2):
        super().__init__(k=k, name=f"zoo.{slip}")
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
        rng = np.random.default_rng(rng)
        w, x = np.asarray(w, float), np.asarray(x, float)
        d = x.shape[0]
        draws = self.k + 1 if self.slip == "draws" else self.k
        span = d - 1 if self.slip == "index_range" else d
        idx = rng.integers(span, size=(n, draws))
        xt = np.zeros((n, d))
        np.add.at(xt, (np.repeat(np.arange(n), draws), idx.ravel()),
                  (span * x[idx] / self.k).ravel())
        ns = float(w @ w)
        if ns == 0:
            phi, read = np.full(n, -float(y)), idx
        else:
            if self.slip == "abs_weights":
                j = rng.choice(d, size=n, p=np.abs(w) / np.abs(w).sum())
            elif self.slip == "reuse":
                j = idx[:, -1]
            else:
                j = rng.choice(d, size=n, p=w * w / ns)
            with np.errstate(divide="ignore", invalid="ignore"):   # reuse: w_j = 0 possible
                phi = ns * x[j] / w[j] - y
            read = np.column_stack([idx, j])
        s = np.sort(read, axis=1)
        seen = 1 + (np.diff(s, axis=1) != 0).sum(axis=1)
        return Draws(phi[:, None] * xt, seen.astype(np.int64))


#: (id, factory, the checks that must catch it): each factory makes a fresh mutant labelled
#: ``zoo.<id>``.
ZOO = [
    ("weight_d_minus_1", lambda: _user("zoo.weight_d_minus_1", weight=lambda d: d - 1),
     {"unbiased.exact"}),                                                   # importance weight
    ("weight_d_plus_1", lambda: _user("zoo.weight_d_plus_1", weight=lambda d: d + 1),
     {"unbiased.exact"}),                                                   # off by one, up
    ("abs_weights", lambda: MutantAERR("abs_weights"), {"unbiased.exact"}),  # sampling probs
    ("draws", lambda: MutantAERR("draws"), {"unbiased.exact", "budget"}),   # number of draws
    ("index_range", lambda: MutantAERR("index_range"), {"unbiased.exact"}),  # index range
    ("reuse", lambda: MutantAERR("reuse"), {"unbiased.exact"}),             # reuse of draws
    ("sign_aerr", lambda: SignFlip("HK12.AERR.gradient", label="zoo.sign_aerr", k=2),
     {"unbiased.exact"}),                                                   # sign
    ("sign_cb11", lambda: SignFlip("CB11.AER.residual", label="zoo.sign_cb11", k=4),
     {"unbiased.exact"}),                                                   # sign, CB11
    ("peek_one_more", lambda: PeekOneMore("KS15.GAERR.gradient", label="zoo.peek_one_more",
                                          k=2, q=[0.1, 0.2, 0.3, 0.4]),
     {"budget", "kernel_matches_reference"}),                               # budget
    ("stale_clip", lambda: StaleClip("HK12.AELR.clipped_gradient", label="zoo.stale_clip", k=2,
                                     eta=4.0),
     {"clip_threshold", "kernel_matches_reference"}),                       # clip threshold
    ("stuck_draws", lambda: KernelOnlySlip("HK12.AELR.gradient", label="zoo.stuck_draws", k=2),
     {"kernel_matches_reference"}),                                         # draws not i.i.d.
]
#: (id, factory): the unaltered wrappers, which must pass every check.
UNALTERED = [
    ("wrap-aerr", lambda: Wrapper("HK12.AERR.gradient", label="zoo.wrap-aerr", k=2)),
    ("wrap-gaelr-clipped", lambda: Wrapper("KS15.GAELR.clipped_gradient",
                                           label="zoo.wrap-gaelr-clipped", k=2,
                                           q=[0.1, 0.2, 0.3, 0.4], eta=4.0)),
    ("user-aerr", lambda: _user("zoo.user-aerr")),
]


def claims_of(est):
    """The claims the zoo checks: the spec's for a wrapper, unbiasedness for the user's own."""
    return None if hasattr(est, "spec") else {"unbiased": True}
