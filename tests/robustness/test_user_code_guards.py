"""A user's code cannot fool the checks, nor end the run (issue 48, items 2, 4 and 6).

Written the way a user (or a cheater) writes samplers: plain numpy classes, the README's
RidgeGradient as the honest one. Each hostile sampler is the README's with one change:

* its randomness does not come from the ``rng`` it is given (Python's ``random``, numpy's
  global ``np.random.rand``, a module-level ``GEN = np.random.default_rng(0)``, a generator
  kept in ``self``): FAIL with that reason, whatever its bias (a draw the exact checks cannot
  see would otherwise PASS with bias 0);
* it rewrites the caller's ``x`` in place: FAIL;
* it raises, or calls ``sys.exit(0)`` (in ``sample``, ``target``, a callable claim, a
  learner's ``fit``, or on import of its module): the status ERROR with the user's file and
  line, ``laocheck.testing.UserCodeError`` (not the AssertionError of a FAIL), exit status 4
  (2 when the module cannot even be imported), never exit 0 and never a traceback of
  laocheck's internals; Ctrl-C still interrupts, and a bug of laocheck itself stays a bug;
* without claims a biased sampler is checked for unbiasedness and FAILs; claims that select
  nothing, or a run where nothing decided, never pass.
"""
import inspect
import operator
import random
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from laocheck.checks.algorithms import estimator_properties
from laocheck.exceptions import InvalidParameterError
from laocheck.testing import CheckFailure, UserCodeError, check_estimator, check_learner

THIS_FILE = __file__.rsplit("/", 1)[-1]


class RidgeGradient:                     # the README's sampler, HK12 Alg. 1 lines 3-10
    k, budget = 2, 3

    def target(self, w, x, y):
        return (w @ x - y) * x

    def sample(self, w, x, y, n=1, rng=None):
        d = len(x)
        idx = rng.integers(d, size=(n, self.k))
        xt = np.zeros((n, d), dtype=x.dtype)
        for r in range(self.k):
            xt[np.arange(n), idx[:, r]] += x[idx[:, r]] * d / self.k
        s = w @ w
        j = rng.choice(d, size=n, p=w * w / s) if s > 0 else np.zeros(n, dtype=int)
        phi = s * x[j] / w[j] - y if s > 0 else np.full(n, -y)
        seen = [len(set(a) | {b}) for a, b in zip(idx.tolist(), j.tolist())]
        return phi[:, None] * xt, np.array(seen)


CLAIMS = {"unbiased": True, "budget": 3}
GEN = np.random.default_rng(0)           # a module-level generator: not the rng given


def statuses(records):
    return {r.id.split(".", 1)[1]: r.status for r in records}


def line_of(func, text):
    """The line of ``func``'s source containing ``text`` (a file:line a record must name)."""
    lines, first = inspect.getsourcelines(func)
    return first + next(i for i, line in enumerate(lines) if text in line)


# --- randomness that does not come from the rng ------------------------------------------------
class BiasedByRandom(RidgeGradient):
    def sample(self, w, x, y, n=1, rng=None):
        values, seen = super().sample(w, x, y, n=n, rng=rng)
        if random.random() < 0.25:                   # a quarter of the calls: doubled
            values = 2 * values
        return values, seen


class BiasedByNumpyGlobal(RidgeGradient):
    def sample(self, w, x, y, n=1, rng=None):
        values, seen = super().sample(w, x, y, n=n, rng=rng)
        return values * (1 + (np.random.rand(n, 1) < 0.25)), seen


class BiasedByModuleGenerator(RidgeGradient):
    def sample(self, w, x, y, n=1, rng=None):
        values, seen = super().sample(w, x, y, n=n, rng=rng)
        return values * (1 + (GEN.random((n, 1)) < 0.25)), seen


class BiasedBySelfGenerator(RidgeGradient):
    def __init__(self):
        self.noise = np.random.default_rng(12345)

    def sample(self, w, x, y, n=1, rng=None):
        values, seen = super().sample(w, x, y, n=n, rng=rng)
        return values * (1 + (self.noise.random((n, 1)) < 0.25)), seen


@pytest.mark.parametrize("cls,source", [
    (BiasedByRandom, "Python's `random` module"),
    (BiasedByNumpyGlobal, "numpy's global generator"),
    (BiasedByModuleGenerator, "the generator `GEN` of module"),
    (BiasedBySelfGenerator, "the generator `noise` of the estimator (self)"),
])
def test_randomness_not_from_the_rng_fails_with_the_reason(cls, source):
    records = check_estimator(cls(), CLAIMS, on_fail=None)
    assert records and all(r.status == "FAIL" for r in records), statuses(records)
    for r in records:
        assert f"sample() drew from {source}" in r.note, r.note
        assert "not from the rng it was given" in r.note
    with pytest.raises(CheckFailure, match="drew from"):
        check_estimator(cls(), CLAIMS)


class BiasedOnlyInBatches(RidgeGradient):
    """Draws from `random` only when asked for many draws: after the calls of one draw that
    the exact enumeration makes, so only the comparison over the whole check sees it."""

    def sample(self, w, x, y, n=1, rng=None):
        values, seen = super().sample(w, x, y, n=n, rng=rng)
        if n > 1 and random.random() < 0.5:
            values = 1.01 * values
        return values, seen


def test_a_late_draw_from_random_is_found_over_the_check():
    records = check_estimator(BiasedOnlyInBatches(), CLAIMS, on_fail=None)
    got = statuses(records)
    assert got["unbiased.monte_carlo"] == got["budget"] == "FAIL", got
    note = next(r.note for r in records if r.id.endswith("budget"))
    assert note.startswith("sample() drew from Python's `random` module")
    assert "during the check" in note


def test_the_global_states_are_compared_not_reset():
    """The guards only read the global states: a seeded user program keeps its stream."""
    random.seed(7)
    np.random.seed(7)
    expected = (random.random(), np.random.rand())
    random.seed(7)
    np.random.seed(7)
    check_estimator(RidgeGradient(), CLAIMS)
    assert (random.random(), np.random.rand()) == expected


# --- inputs rewritten ---------------------------------------------------------------------------
class ScalesXInPlace(RidgeGradient):
    def sample(self, w, x, y, n=1, rng=None):
        x *= 2                                       # the caller's x, rewritten
        values, seen = super().sample(w, x, y, n=n, rng=rng)
        return values / 4, seen                      # and compensated: the mean is right


def test_a_sampler_rewriting_x_fails():
    records = check_estimator(ScalesXInPlace(), CLAIMS, on_fail=None)
    assert records and all(r.status == "FAIL" for r in records), statuses(records)
    assert all("changed its input `x` in place" in r.note for r in records)
    assert records[0].counterexample["input"] == "x"


# --- the user's code raises or exits: ERROR -----------------------------------------------------
class ChoiceWithoutReplacementBug(RidgeGradient):
    def sample(self, w, x, y, n=1, rng=None):
        d = len(x)
        # the k coordinates of all n draws without replacement: fine for n = 1, a ValueError
        # from numpy as soon as n * k > d
        idx = rng.choice(d, size=(n, self.k), replace=False)
        xt = np.zeros((n, d), dtype=x.dtype)
        for r in range(self.k):
            xt[np.arange(n), idx[:, r]] += x[idx[:, r]] * d / self.k
        return ((w @ x - y) * xt), np.full(n, self.k)


def test_a_sampler_raising_valueerror_is_an_error_with_its_line():
    records = check_estimator(ChoiceWithoutReplacementBug(), CLAIMS, on_fail=None)
    errors = [r for r in records if r.status == "ERROR"]
    assert errors, statuses(records)
    line = line_of(ChoiceWithoutReplacementBug.sample, "replace=False)")
    for r in errors:
        assert r.figures["exception"] == "ValueError"
        assert r.figures["where"].endswith(f"{THIS_FILE}:{line}"), r.figures
        assert "Traceback" not in r.note and "laocheck/" not in r.note
    assert {r.status for r in records} <= {"PASS", "ERROR"}      # never a FAIL, never a verdict
    with pytest.raises(UserCodeError, match=f"{THIS_FILE}:{line}") as info:
        check_estimator(ChoiceWithoutReplacementBug(), CLAIMS)
    assert not isinstance(info.value, AssertionError)            # not the FAIL of a claim


class AlwaysRaises(RidgeGradient):
    def sample(self, w, x, y, n=1, rng=None):
        raise ValueError("not implemented yet")


def test_a_sampler_raising_on_every_instance_is_an_error():
    records = check_estimator(AlwaysRaises(), CLAIMS, on_fail=None)
    assert records and {r.status for r in records} == {"ERROR"}
    assert all("on every exact instance" in r.note and "not implemented yet" in r.note
               for r in records)


class ExitsInSample(RidgeGradient):
    def sample(self, w, x, y, n=1, rng=None):
        sys.exit(0)


def test_sys_exit_in_sample_is_an_error_not_the_end_of_the_run():
    records = check_estimator(ExitsInSample(), CLAIMS, on_fail=None)
    assert records and {r.status for r in records} == {"ERROR"}
    line = line_of(ExitsInSample.sample, "sys.exit(0)")
    assert all(r.figures["exception"] == "SystemExit" and
               r.figures["where"].endswith(f"{THIS_FILE}:{line}") for r in records)
    with pytest.raises(UserCodeError, match="sys.exit"):
        check_estimator(ExitsInSample(), CLAIMS)


class InterruptedSample(RidgeGradient):
    def sample(self, w, x, y, n=1, rng=None):
        raise KeyboardInterrupt


def test_ctrl_c_in_the_users_code_still_interrupts():
    with pytest.raises(KeyboardInterrupt):
        check_estimator(InterruptedSample(), CLAIMS, on_fail=None)


class TargetRaises(RidgeGradient):
    def target(self, w, x, y):
        return (w @ x[1:] - y) * x                           # shapes do not align


def test_a_target_raising_is_an_error():
    records = check_estimator(TargetRaises(), CLAIMS, on_fail=None)
    got = statuses(records)
    assert got["unbiased.exact"] == got["unbiased.monte_carlo"] == "ERROR", got
    assert got["budget"] == "PASS"                           # the budget claim still decided
    r = records[0]
    assert r.figures["call"] == "target()" and r.figures["exception"] == "ValueError"
    assert r.figures["where"].endswith(f"{THIS_FILE}:{line_of(TargetRaises.target, 'x[1:]')}")


def my_target(w, x, y):
    raise RuntimeError("my target is not ready")


def test_a_callable_claim_raising_is_an_error():
    records = check_estimator(RidgeGradient(), {"unbiased": my_target, "budget": 3},
                              on_fail=None)
    got = statuses(records)
    assert got["unbiased.exact"] == "ERROR" and got["budget"] == "PASS", got
    assert "my target is not ready" in records[0].note


class FitRaises:
    def fit(self, X, y):
        raise ValueError("shapes do not align, says my fit")


class FitExits:
    def fit(self, X, y):
        sys.exit(0)


@pytest.mark.parametrize("cls", [FitRaises, FitExits])
def test_a_learner_raising_or_exiting_in_fit_is_an_error(cls):
    records = check_learner(cls(), on_fail=None)
    assert records and {r.status for r in records} == {"ERROR"}, statuses(records)
    assert all(r.figures["function"] == "fit" and THIS_FILE in r.figures["where"]
               for r in records)
    with pytest.raises(UserCodeError):
        check_learner(cls())


def test_a_bug_of_laocheck_stays_a_bug(monkeypatch):
    """An exception raised by laocheck's own code (here planted in the exact target: a
    TypeError with no frame of the user's) is a FAIL with laocheck's traceback, not an ERROR
    blamed on the user."""
    monkeypatch.setattr(estimator_properties, "exact_target", operator.truediv)
    records = check_estimator(RidgeGradient(), CLAIMS, on_fail=None)
    got = statuses(records)
    assert got["unbiased.exact"] == "FAIL", got
    assert records[0].note.startswith("error:") and "TypeError" in records[0].note


# --- defaults that check ------------------------------------------------------------------------
class OffByOne(RidgeGradient):
    def sample(self, w, x, y, n=1, rng=None):
        values, seen = super().sample(w, x, y, n=n, rng=rng)
        return values * (len(x) - 1) / len(x), seen          # (d - 1)/k instead of d/k


def test_without_claims_a_biased_sampler_is_checked_for_unbiasedness():
    records = check_estimator(OffByOne(), on_fail=None)
    assert statuses(records)["unbiased.exact"] == "FAIL"
    assert "second_moment" in records.unchecked              # what was not checked, and why
    with pytest.raises(CheckFailure, match="not checked: second_moment"):
        check_estimator(OffByOne())


class Gaussian:
    """A continuous sampler: not enumerable, no range or bound claimed: nothing decides."""

    def target(self, w, x, y):
        return np.asarray(x, dtype=float)

    def sample(self, w, x, y, n=1, rng=None):
        return np.asarray(x, dtype=float) + rng.normal(size=(n, len(x)))


def test_claims_selecting_nothing_are_refused():
    with pytest.raises(InvalidParameterError, match="select no check"):
        check_estimator(Gaussian(), {"unbiased": False})


def test_a_run_where_nothing_decided_is_not_a_pass():
    records = check_estimator(Gaussian(), on_fail=None)
    assert records and {r.status for r in records} == {"INCONCLUSIVE"}
    with pytest.raises(CheckFailure, match="nothing was checked"):
        check_estimator(Gaussian(), allow_inconclusive=True)


# --- the command line ---------------------------------------------------------------------------
README_MODULE = textwrap.dedent('''
    import sys
    import numpy as np

    class RidgeGradient:
        k, budget = 2, 3
        def target(self, w, x, y):
            return (w @ x - y) * x
        def sample(self, w, x, y, n=1, rng=None):
            d = len(x)
            idx = rng.integers(d, size=(n, self.k))
            xt = np.zeros((n, d), dtype=x.dtype)
            for r in range(self.k):
                xt[np.arange(n), idx[:, r]] += x[idx[:, r]] * d / self.k
            s = w @ w
            j = rng.choice(d, size=n, p=w * w / s) if s > 0 else np.zeros(n, dtype=int)
            phi = s * x[j] / w[j] - y if s > 0 else np.full(n, -y)
            seen = [len(set(a) | {b}) for a, b in zip(idx.tolist(), j.tolist())]
            return phi[:, None] * xt, np.array(seen)

    class Quits(RidgeGradient):
        def sample(self, w, x, y, n=1, rng=None):
            sys.exit(0)
    ''')


def laocheck(tmp_path, *args):
    """(exit status, stdout, stderr) of ``python -m laocheck ARGS`` in ``tmp_path``."""
    out = subprocess.run([sys.executable, "-m", "laocheck", *args], cwd=tmp_path,
                         capture_output=True, text=True, timeout=600)
    return out.returncode, out.stdout, out.stderr


def test_cli_the_readme_sampler_passes_and_an_exiting_one_is_exit_4(tmp_path):
    (tmp_path / "ridge_user.py").write_text(README_MODULE)
    code, out, err = laocheck(tmp_path, "check", "ridge_user:RidgeGradient")
    assert code == 0, (out, err)
    assert "unbiased.exact" in out and "not checked:" in out
    code, out, err = laocheck(tmp_path, "check", "ridge_user:Quits")
    assert code == 4, (code, out, err)
    assert "ERROR" in out and "sys.exit(0)" in out and "ridge_user.py:" in out
    assert "Traceback" not in out + err


def test_cli_a_module_calling_sys_exit_on_import_is_not_exit_0(tmp_path):
    (tmp_path / "quits_on_import.py").write_text(
        "import sys\n\nsys.exit(0)\n\nclass Est:\n    pass\n")
    code, out, err = laocheck(tmp_path, "check", "quits_on_import:Est")
    assert code == 4, (code, out, err)             # ERROR: the user's code exited
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "sys.exit(0)" in lines[0] and "quits_on_import.py line 3" in \
        lines[0], err
