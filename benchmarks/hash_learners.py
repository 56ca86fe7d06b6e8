"""A sha256 of what every learner of laocheck computes, to show that a change of the kernels'
source (not of their arithmetic) leaves every run bit-identical.

For each of the 20 learner classes of ``laocheck.learners.__all__`` (the 15 with a
``LearnerSpec`` and the 5 full-information baselines), 3 seeds and a few (d, k, m), the
script runs ``fit``, ``fit`` then ``partial_fit``, ``fit_stream`` (a pool of rows taken
cyclically) and ``fit_oracle`` (on ``EmpiricalOracle(sequential=True)`` and, at large d, on
``PowerLawBernoulli(...).oracle``) where the learner has them, and prints one line per run:
the sha256 of its fitted attributes (``coef_``, ``w_``, the attribute counts, the recorded
draws with ``record_draws=True``, phase-1 estimates, ...: every public attribute ending in
``_``) and of its kernel state's pickle (the state's internal arrays and counters). The
sizes d >= 2¹⁶ run the data-point sampling family on its sparse states (``SparseRidgeState``,
``SparseLassoState``), long enough to switch to the dense ones mid-run. Inputs as
``scipy.sparse`` CSR matrices are tried too: the learners refuse them (the line hashes the
error's type and message).

Usage (about a minute)::

    python benchmarks/hash_learners.py > before.txt
    # ... change the kernels, rebuild ...
    python benchmarks/hash_learners.py > after.txt
    cmp before.txt after.txt

The last line is a sha256 over all the others.
"""
import argparse
import hashlib
import inspect
import pickle
import sys
import warnings

import numpy as np
import scipy.sparse as sp

import laocheck.learners as L
from laocheck.data import PowerLawBernoulli
from laocheck.data._oracle import EmpiricalOracle

#: constructor arguments besides k and random_state (the learners that need them)
EXTRA = {"GAERR": dict(eta=0.1), "GAELR": dict(eta=0.1), "DDAERR": dict(second_moments=0.1),
         "DDAELR": dict(second_moments=0.1), "AdaDDAERR": dict(second_moments=0.1)}
#: the O(k + log d) learners run at d >= 2¹⁶ (their sparse states)
LARGE_D = ("AERR", "GAERR", "DDAERR", "AELR", "GAELR", "DDAELR", "TwoPhaseDDAERR",
           "TwoPhaseDDAELR", "AER")
SMALL = [(12, 2, 300), (40, 4, 500), (40, 6, 200)]
LARGE = [(2**16 + 5, 32, 1500), (2**16 + 5, 32, 300)]   # switches to the dense state; not
#: variants of the data-point sampling family: "Name[label]" -> extra arguments as a function
#: of d (n_inner > 1, a zero w_1, a non-uniform q)
VARIANTS = {
    "GAERR[n_inner=3]": lambda d: dict(n_inner=3), "GAELR[n_inner=3]": lambda d: dict(n_inner=3),
    "AERR[initial=zero]": lambda d: dict(initial="zero"),
    "GAERR[q]": lambda d: dict(q=np.linspace(1, 2, d) / np.linspace(1, 2, d).sum()),
    "GAELR[q]": lambda d: dict(q=np.linspace(1, 2, d) / np.linspace(1, 2, d).sum()),
}
SEEDS = (0, 1, 2)


def learner_classes():
    out = {}
    for name in L.__all__:
        obj = getattr(L, name)
        if inspect.isclass(obj) and hasattr(obj, "fit"):     # fit_stream etc. where it has them
            out[name] = obj
    for name in VARIANTS:
        out[name] = out[name.split("[")[0]]
    return out


def make(cls, name, k, seed, d):
    params = cls().get_params()
    base = name.split("[")[0]
    kw = dict(EXTRA.get(base, {}))
    if name in VARIANTS:
        kw.update(VARIANTS[name](d))
    if "k" in params:
        kw["k"] = k
    if "random_state" in params:
        kw["random_state"] = seed
    if "record_draws" in params:
        kw["record_draws"] = True
    return cls(**kw)


def digest(est):
    h = hashlib.sha256()
    for key in sorted(vars(est)):
        if not key.endswith("_") or key.startswith("_"):
            continue
        h.update(key.encode())
        h.update(_bytes(getattr(est, key)))
    state = getattr(est, "_state", None)
    if state is not None:
        try:
            h.update(pickle.dumps(state, protocol=4))
        except Exception as exc:        # noqa: BLE001 - a state without pickling: its name
            h.update(type(exc).__name__.encode())
    return h.hexdigest()


def _bytes(value):
    if isinstance(value, np.ndarray):
        return f"{value.dtype}{value.shape}".encode() + np.ascontiguousarray(value).tobytes()
    if isinstance(value, (list, tuple)):
        return b"(" + b",".join(_bytes(v) for v in value) + b")"
    if isinstance(value, dict):
        return b"{" + b",".join(_bytes(k) + b":" + _bytes(v) for k, v in sorted(value.items()))\
            + b"}"
    return repr(value).encode()


def data(d, m, seed, kind):
    rng = np.random.default_rng(1000 + seed)
    if kind == "uniform":
        X = rng.uniform(-1, 1, (m, d)) / np.sqrt(d)
    else:                               # 0/1 attributes (many x_i = 0: x̃_i = 0 paths)
        X = (rng.random((m, d)) < 0.3) / np.sqrt(d)
    y = X @ rng.uniform(-1, 1, d) / np.sqrt(d) + 0.01 * rng.standard_normal(m)
    return np.ascontiguousarray(X), y


def run(name, cls, d, k, m, seed, kind, large):
    lines = []

    def record(method, fn):
        est = make(cls, name, k, seed, d)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                fn(est)
            h = digest(est)
        except Exception as exc:        # noqa: BLE001 - the refusal is part of the behaviour
            h = "raised " + hashlib.sha256(
                f"{type(exc).__name__}: {exc}".encode()).hexdigest()
        lines.append(f"{name} {method} d={d} k={k} m={m} seed={seed} {kind} {h}")

    if large:
        P = 16
        X, y = data(d, P, seed, kind)
        record("fit_stream", lambda e: e.fit_stream(X, y, m))
        if L.has_oracle_path(cls):
            dist = PowerLawBernoulli(d, -1.0)
            record("fit_oracle_powerlaw",
                   lambda e: e.fit_oracle(dist.oracle(np.random.default_rng(seed)), m))
        return lines
    X, y = data(d, m, seed, kind)
    record("fit", lambda e: e.fit(X, y))
    h = m // 2
    if not hasattr(cls, "partial_fit"):
        record("fit_csr", lambda e: e.fit(sp.csr_matrix(X), y))
        return lines
    record("partial_fit", lambda e: e.fit(X[:h], y[:h]).partial_fit(X[h:], y[h:]))
    record("partial_fit2", lambda e: e.partial_fit(X[:h], y[:h]).partial_fit(X[h:], y[h:]))
    P = 37
    record("fit_stream", lambda e: e.fit_stream(X[:P], y[:P], 3 * m))
    if L.has_oracle_path(cls):
        record("fit_oracle", lambda e: e.fit_oracle(
            EmpiricalOracle(X, y, np.random.default_rng(seed), None, sequential=True), m))
    record("fit_csr", lambda e: e.fit(sp.csr_matrix(X), y))
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--names", nargs="*", help="only these learners")
    args = parser.parse_args(argv)
    total = hashlib.sha256()
    n = 0
    for name, cls in learner_classes().items():
        if args.names and name not in args.names:
            continue
        cases = [(c, False) for c in SMALL]
        if name.split("[")[0] in LARGE_D:
            cases += [(c, True) for c in LARGE]
        for (d, k, m), large in cases:
            for seed in SEEDS:
                for kind in ("uniform", "binary"):
                    for line in run(name, cls, d, k, m, seed, kind, large):
                        print(line, flush=True)
                        total.update(line.encode() + b"\n")
                        n += 1
    print(f"TOTAL {n} runs {total.hexdigest()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
