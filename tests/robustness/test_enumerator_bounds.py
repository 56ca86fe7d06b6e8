"""Samplers written as users write them, against the exact enumerator (the choice tree):
numpy's axis and ``shuffle=False`` semantics are honoured (a correct sampler PASSes, a biased
one FAILs), and samplers the enumerator cannot or must not enumerate — rejection sampling, a
``while rng.random() < p`` loop, ``binomial(200000, .5)``, ``choice(10**9)``, 20,000 coin
flips — fall back to Monte Carlo with the reason in the record, in a subprocess whose address
space is capped (an allocation of GiBs would fail it) and whose wall time is guarded (a hang
would fail it). Speed is not asserted; the guards only keep a hang from hanging the suite."""

import json
import os
import resource
import signal
import subprocess
import sys
import textwrap
from fractions import Fraction as F

import numpy as np
import pytest

from laocheck.stats.choice_tree import NotEnumerable, enumerate_sampler
from laocheck.testing import check_estimator

#: Address space of the subprocess: enough for Python, numpy, scipy and laocheck; far below
#: the 7.5 GiB that choice(10**9) used to allocate.
ADDRESS_SPACE = 3 * 2 ** 30
#: Guard against a hang only (the cases take seconds).
GUARD_SECONDS = 600


class OneCoordinate:
    """x̃ = d·x_i·e_i with i uniform on the d coordinates: E[x̃] = x, one attribute read."""

    k = 1
    budget = 1

    def target(self, w, x, y):
        return x

    def pick(self, rng, d):
        return rng.integers(d)

    def sample(self, w, x, y, n=1, rng=None):
        rng = np.random.default_rng(rng)
        d = len(x)
        out = np.zeros((n, d), dtype=np.asarray(x).dtype)
        for r in range(n):
            i = self.pick(rng, d)
            out[r, i] = d * x[i]
        return out, np.ones(n, dtype=int)


class ColumnShuffle(OneCoordinate):
    def pick(self, rng, d):
        table = np.vstack([np.arange(d), 10 + np.arange(d)])
        rng.shuffle(table, axis=1)             # shuffles the columns
        return table[0, 0]


class ColumnChoice(OneCoordinate):
    def pick(self, rng, d):
        table = np.vstack([np.arange(d), 10 + np.arange(d)])
        return rng.choice(table, 2, axis=1)[0, 1]      # two columns, the second one


class ColumnPermutation(OneCoordinate):
    def pick(self, rng, d):
        table = np.vstack([np.arange(d), 10 + np.arange(d)])
        return rng.permutation(table, axis=1)[0, -1]


class PairWithoutShuffle(OneCoordinate):
    """Both of two distinct coordinates, weight d/2: the *set* numpy returns is uniform even
    with shuffle=False, so this is unbiased."""

    budget = 2

    def sample(self, w, x, y, n=1, rng=None):
        rng = np.random.default_rng(rng)
        d = len(x)
        out = np.zeros((n, d), dtype=np.asarray(x).dtype)
        for r in range(n):
            for i in rng.choice(d, 2, replace=False, shuffle=False):
                out[r, i] = d * x[i] / 2
        return out, np.full(n, 2)


class FirstWithoutShuffle(OneCoordinate):
    """The first of two distinct coordinates with shuffle=False, taken as uniform: biased,
    since numpy's Floyd order never puts the last coordinate first."""

    def pick(self, rng, d):
        return rng.choice(d, 2, replace=False, shuffle=False)[0]


@pytest.mark.parametrize("est", [ColumnShuffle(), ColumnChoice(), ColumnPermutation(),
                                 PairWithoutShuffle()], ids=lambda e: type(e).__name__)
def test_correct_samplers_using_axis_or_shuffle_false_pass(est):
    records = check_estimator(est, {"unbiased": True})      # raises on a FAIL
    exact = next(r for r in records if r.id.endswith("unbiased.exact"))
    assert exact.status == "PASS" and "choice tree" in " ".join(exact.figures["methods"])


def test_a_sampler_that_reads_shuffle_false_as_uniform_fails_exactly():
    records = check_estimator(FirstWithoutShuffle(), {"unbiased": True}, on_fail=None)
    exact = next(r for r in records if r.id.endswith("unbiased.exact"))
    assert exact.status == "FAIL"
    assert "choice tree" in " ".join(exact.figures["methods"])


# -- samplers the enumerator must refuse, in a capped subprocess --------------------------------
SAMPLERS = textwrap.dedent('''
    import json
    import sys

    import numpy as np

    from laocheck.testing import check_estimator


    class Base:
        k = 1
        budget = 1

        def target(self, w, x, y):
            return x

        def sample(self, w, x, y, n=1, rng=None):
            rng = np.random.default_rng(rng)
            d = len(x)
            out = np.zeros((n, d))
            for r in range(n):
                out[r] = self.one(rng, np.asarray(x, dtype=float), d)
            return out, np.ones(n, dtype=int)


    class Rejection(Base):
        """Textbook rejection sampling of i with P(i) proportional to |x_i|; the uniform is
        scaled, so it is used as a number (not enumerable)."""
        def one(self, rng, x, d):
            top = np.abs(x).max()
            while True:
                i = rng.integers(d)
                if rng.random() * top < abs(x[i]):     # the uniform used as a number
                    break
            v = np.zeros(d)
            v[i] = np.sign(x[i]) * np.abs(x).sum()
            return v


    class RejectionScaled(Rejection):
        """The same, the threshold scaled instead: only comparisons, but no bound on the
        number of rounds."""
        def one(self, rng, x, d):
            top = np.abs(x).max()
            while True:
                i = rng.integers(d)
                if rng.random() < abs(x[i]) / top:
                    break
            v = np.zeros(d)
            v[i] = np.sign(x[i]) * np.abs(x).sum()
            return v


    class WhileLoop(Base):
        """i = the number of heads before the first tail, wrapped around d."""
        def one(self, rng, x, d):
            heads = 0
            while rng.random() < 0.5:
                heads += 1
            v = np.zeros(d)
            v[heads % d] = x[heads % d]
            return v


    class HugeBinomial(Base):
        def one(self, rng, x, d):
            return x * rng.binomial(200000, 0.5) / 100000


    class HugeChoice(Base):
        def one(self, rng, x, d):
            return x * (rng.choice(10**9) % 2) * 2


    class ManyFlipsArray(Base):
        def one(self, rng, x, d):
            return x * np.mean(rng.random(20000) < 0.5) * 2


    class ManyFlipsIntegers(Base):
        def one(self, rng, x, d):
            return x * rng.integers(2, size=20000).mean() * 2


    est = globals()[sys.argv[1]]()
    records = check_estimator(est, {"unbiased": True}, on_fail=None)
    print(json.dumps({r.id.rsplit(".", 2)[-2] + "." + r.id.rsplit(".", 1)[-1]
                      if r.id.endswith("exact") or r.id.endswith("carlo") else r.id:
                      [str(r.status), r.note] for r in records}))
''')


def _capped():
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


@pytest.fixture(scope="module")
def samplers_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("users") / "samplers.py"
    path.write_text(SAMPLERS)
    return path


@pytest.mark.parametrize("name, reason", [
    ("Rejection", "used as a number"),
    ("RejectionScaled", "draws on one path"),
    ("WhileLoop", "paths of random choices"),
    ("HugeBinomial", "outcomes per draw"),
    ("HugeChoice", "outcomes per draw"),
    ("ManyFlipsArray", "draws on one path"),
    ("ManyFlipsIntegers", "draws on one path"),
])
def test_unenumerable_samplers_fall_back_with_the_reason(samplers_file, name, reason):
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
           "MKL_NUM_THREADS": "1"}
    done = subprocess.run([sys.executable, str(samplers_file), name], capture_output=True,
                          text=True, timeout=GUARD_SECONDS, preexec_fn=_capped, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    records = json.loads(done.stdout.strip().splitlines()[-1])
    status, note = records["unbiased.exact"]
    assert status in ("PASS", "INCONCLUSIVE")                # Monte Carlo, or not decided
    assert "Monte Carlo" in note and reason in note, note


def test_the_address_space_cap_catches_an_allocation_of_gibs(samplers_file):
    """The guard has teeth: under the cap, allocating what choice(10**9) used to fails."""
    done = subprocess.run([sys.executable, "-c", "import numpy as np; np.arange(10**9)"],
                          capture_output=True, text=True, timeout=GUARD_SECONDS,
                          preexec_fn=_capped)
    assert done.returncode != 0 and "MemoryError" in done.stderr


def _alarm(signum, frame):
    raise TimeoutError("the enumerator hung")


def test_20000_coin_flips_in_a_python_loop_are_refused_not_crashed():
    """20,000 flips per call used to crash on Python's int-to-string limit (the predicted
    number of paths, 2**20000, in the message). Enumerated directly: Monte Carlo of such a
    sampler is slow by itself, whatever the enumerator does."""
    def sample(w, x, y, n=1, rng=None):
        heads = sum(rng.random() < 0.5 for _ in range(20000))
        return np.array([[x[0] * heads / 10000]])
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(GUARD_SECONDS)
    try:
        with pytest.raises(NotEnumerable, match="paths of random choices") as refusal:
            enumerate_sampler(sample, [F(1, 2)], [F(1, 4)], F(0))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert len(refusal.value.reason) < 300
