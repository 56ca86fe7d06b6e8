"""What a user meets when a check of their own sampler fails (issue 49, item 3): one block of
at most 15 lines — what was claimed, what was measured, the instance (w, x, y, k) and a line of
Python that rebuilds it — with laocheck's own frames hidden from pytest's traceback."""
import os
import pathlib
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import sympy as sp

from laocheck import bounds
from laocheck.checks import CheckRecord, checks
from laocheck.checks._common import instance_counterexample, reproduce_instance
from laocheck.estimators.instances import INSTANCES, as_float
from laocheck.testing import (CheckFailure, check_estimator, estimator_checks,
                              learner_checks_generator)
from laocheck.testing._checks import MAX_MESSAGE_LINES, _explain

from .learner_zoo.abs_aerr import AbsAERR

d_, k_, m_, B_ = sp.symbols("d k m B", positive=True)

ROOT = pathlib.Path(__file__).resolve().parents[2]

#: A user's importance sampler written in plain numpy, with the bug every user makes once:
#: the 1/(k/d) reweighting forgotten, so E[sample] = (k/d)·x instead of x.
USER_SAMPLER = '''
import numpy as np


class ForgotTheWeight:
    """Reads k coordinates of x uniformly, returns them unweighted (should be x_i · d / k)."""

    def __init__(self, k):
        self.k = k
        self.budget = k

    def target(self, w, x, y):
        return x

    def sample(self, w, x, y, n, rng):
        d = len(x)
        values = np.zeros((n, d))
        for t in range(n):
            idx = rng.choice(d, size=self.k, replace=False)
            values[t, idx] = x[idx]
        return values, np.full(n, self.k)
'''


def _user_class(source=USER_SAMPLER, name="ForgotTheWeight"):
    namespace = {}
    exec(compile(source, "user_sampler.py", "exec"), namespace)
    return namespace[name]


def _rebuilt(line):
    """The names a reproduce line defines, run in a fresh namespace as a user pastes it."""
    namespace = {}
    exec(line, namespace)
    return namespace


@pytest.mark.parametrize("instance", sorted(INSTANCES))
def test_the_reproduce_line_rebuilds_the_instance_exactly(instance):
    q = np.full(len(INSTANCES[instance][0]), 1 / len(INSTANCES[instance][0]))
    line = reproduce_instance(instance, k=2, q=q)
    assert "\n" not in line and "laocheck" not in line          # one line, plain numpy
    got = _rebuilt(line)
    w, x, y = as_float(INSTANCES[instance])
    assert np.array_equal(got["w"], w) and np.array_equal(got["x"], x) and got["y"] == y
    assert got["k"] == 2 and np.array_equal(got["q"], q)
    ce = instance_counterexample({"coordinate": 0}, instance, k=2, q=q)
    assert ce["coordinate"] == 0 and ce["instance"] == instance and ce["reproduce"] == line
    assert ce["w"] == w.tolist() and ce["x"] == x.tolist() and ce["y"] == y and ce["k"] == 2


def test_a_counterexample_of_a_users_sampler_carries_its_instance_and_reproduces_it():
    records = check_estimator(_user_class()(k=2), on_fail=None)
    failed = [r for r in records if r.status == "FAIL"]
    assert {r.id for r in failed} == {"ForgotTheWeight.unbiased.exact",
                                      "ForgotTheWeight.unbiased.monte_carlo"}
    for r in failed:
        ce = r.counterexample
        assert {"instance", "w", "x", "y", "k", "reproduce"} <= set(ce), (r.id, ce)
        w, x, y = as_float(INSTANCES[ce["instance"]])
        assert ce["w"] == w.tolist() and ce["x"] == x.tolist() and ce["y"] == y
        assert ce["k"] == 2
        # the line runs in a fresh interpreter without laocheck, and rebuilds the instance
        run = subprocess.run([sys.executable, "-c", ce["reproduce"] + "; print(repr((w.tolist(), "
                              "x.tolist(), y, k)))"], capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, run.stderr
        assert eval(run.stdout) == (ce["w"], ce["x"], ce["y"], 2)
    # the exact check's counterexample is the one a user reproduces: E[v] = (k/d)·x on d3
    exact = next(r for r in failed if r.id.endswith("unbiased.exact"))
    assert exact.counterexample["instance"] == "d3"
    assert exact.counterexample["exact_mean"] == ["1/2", "-1/3", "1/6"]      # (2/3)·x


def test_the_failure_message_is_one_block_of_at_most_15_lines():
    with pytest.raises(CheckFailure) as info:
        check_estimator(_user_class()(k=2))
    text = str(info.value)
    lines = text.splitlines()
    assert len(lines) <= MAX_MESSAGE_LINES, text
    assert lines[0].startswith("2 of 4 laocheck check(s) failed") and "seed 0" in lines[0]
    assert "  claimed:   E[ForgotTheWeight] = its target" in text
    assert "  measured:  exact_mean=[1/2, -1/3, 1/6], target=[3/4, -1/2, 1/4]" in text
    assert "  instance:  d3: w=[0.5, -0.25, 0], x=[0.75, -0.5, 0.25], y=0.125, k=2" in text
    reproduce = [ln.split("reproduce: ", 1)[1] for ln in lines if "reproduce: " in ln]
    assert len(reproduce) == 2
    assert np.array_equal(_rebuilt(reproduce[0])["x"], as_float(INSTANCES["d3"])[1])
    assert lines[-1].startswith("not checked: second_moment")


def test_many_failures_still_fit_in_15_lines_and_the_rest_are_named():
    # every claim wrong: budget 1 (reads 2), unbiased, a clipping of 0.1, E‖v‖² <= 1e-3
    claims = {"budget": 1, "clipping": 0.1, "second_moment": 1e-3}
    with pytest.raises(CheckFailure) as info:
        check_estimator(_user_class()(k=2), claims)
    text = str(info.value)
    failing = [r.id for r in info.value.records]
    assert len(failing) >= 4, failing
    assert len(text.splitlines()) <= MAX_MESSAGE_LINES, text
    also = [ln for ln in text.splitlines() if ln.startswith("also: ")]
    assert len(also) == 1 and all(cid in text for cid in failing), text


def test_a_users_pytest_failure_shows_one_block_without_laocheck_internals(tmp_path):
    (tmp_path / "my_sampler.py").write_text(USER_SAMPLER, encoding="utf-8")
    (tmp_path / "test_my_sampler.py").write_text(textwrap.dedent('''
        from laocheck.testing import check_estimator
        from my_sampler import ForgotTheWeight


        def test_my_sampler_is_unbiased():
            check_estimator(ForgotTheWeight(k=2))
    '''), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(tmp_path)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])}
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "test_my_sampler.py"], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=600)
    out = run.stdout
    assert run.returncode == 1, out + run.stderr
    block = [ln for ln in out.splitlines() if ln.startswith("E ")]
    assert 0 < len(block) <= MAX_MESSAGE_LINES, out
    assert "CheckFailure: 2 of 4 laocheck check(s) failed" in block[0]
    for hidden in ("_raise_on_failures", "run_checks", "def check_estimator", "laocheck/testing"):
        assert hidden not in out, (hidden, out)
    # the only source line pytest shows is the user's own call
    assert ">       check_estimator(ForgotTheWeight(k=2))" in out
    assert any(ln.startswith("E         claimed:   E[ForgotTheWeight]") for ln in block)
    assert any(ln.startswith("E         measured:  exact_mean=") for ln in block)
    line = next(ln.split("reproduce: ", 1)[1] for ln in block if "reproduce: " in ln)
    got = _rebuilt(line)
    w, x, y = as_float(INSTANCES["d3"])
    assert np.array_equal(got["w"], w) and np.array_equal(got["x"], x) and got["y"] == y
    # the plugin's section adds the command that reruns the test, not the figures again
    assert re.search(r"rerun: pytest 'test_my_sampler.py::test_my_sampler_is_unbiased' "
                     r"--laocheck-seed 0", out), out
    # pytest's own "short test summary info" repeats the message in full when it runs on CI
    # (the CI environment variable turns off its truncation to the terminal's width); the
    # figures appear once in the failure block and the plugin's section adds none.
    before_summary = out.split("short test summary info", 1)[0]
    assert before_summary.count("exact_mean=") == 1, out


def test_kernel_matches_reference_says_what_it_compares_for_a_sampler_without_reference():
    own = next(c for c in estimator_checks(_user_class()(k=2))
               if c.id.endswith("kernel_matches_reference"))
    assert "its reference" not in own.statement
    assert "its own single draw" in own.statement and "no reference" in own.statement
    assert "exact enumeration of one draw of sample()" in own.method
    # laocheck's own estimator keeps the comparison with its literal reference
    catalog = checks(["HK12.AERR.gradient.kernel_matches_reference"])[0]
    assert "exact distribution of its reference" in catalog.statement


def test_the_tutorial_shows_the_failure_block_pytest_prints():
    """docs/tutorials/own_sampler.md shows the block of its slipped sampler as pytest prints
    it (``E`` and 7 spaces before each line): it must be the message of today's laocheck."""
    page = (ROOT / "docs" / "tutorials" / "own_sampler.md").read_text(encoding="utf-8")
    section = page[page.index("## A slip, and its report"):page.index("## The fix")]
    source = textwrap.dedent(re.search(r"write_text\(textwrap\.dedent\('''(.*?)'''\)\)", section,
                                       re.S).group(1))
    shown = re.search(r"```text\n(E .*?)```", section, re.S).group(1).splitlines()
    assert all(ln.startswith("E       ") for ln in shown), shown
    shown = [ln[len("E       "):] for ln in shown]
    assert shown[0].startswith("laocheck.testing._checks.CheckFailure: ")
    shown[0] = shown[0][len("laocheck.testing._checks.CheckFailure: "):]
    namespace = {}
    exec(compile(source, "slipped.py", "exec"), namespace)
    with pytest.raises(CheckFailure) as info:
        check_estimator(namespace["est"], {"unbiased": True, "second_moment": "HK12.Lemma3.3.G2"})
    assert str(info.value).splitlines() == shown


#: what the spy learner of the next test was fitted on: (X, y, random_state) per fit
FITS = []


def test_a_learners_counterexample_rebuilds_the_run_it_names():
    """The excess-risk counterexample's reproduce line rebuilds the distribution, the very
    training set of the run it names and the learner's random_state (a spy records them)."""
    small = bounds.user_bound("AbsAERR.test_too_small", B_**2 * sp.sqrt(d_ / (k_ * m_)) / 10,
                              replace=True)

    class Spy(AbsAERR):
        def fit(self, X, y):
            FITS.append((np.array(X, copy=True), np.array(y, copy=True), self.random_state))
            return super().fit(X, y)

    FITS.clear()
    learner, check = next((lrn, c) for lrn, c in learner_checks_generator(
        Spy(k=2), {"bound": small.id, "B": 1.0, "R": (40, 100)})
        if c.__name__.endswith("excess_risk"))
    with pytest.raises(CheckFailure) as info:
        check(learner)
    text = str(info.value)
    assert len(text.splitlines()) <= MAX_MESSAGE_LINES, text
    assert "  data:      distribution=HK12HardInstance(d=8, eps=0.5), d=8, m=200, R=40" in text
    ce = info.value.records[0].counterexample
    assert ce["run"] == "0 of 40" and f"  reproduce: {ce['reproduce']}" in text
    got = _rebuilt(ce["reproduce"])
    X, y, seed = FITS[0]                       # the first run on the first distribution
    assert np.array_equal(got["X"], X) and np.array_equal(got["y"], y)
    assert got["random_state"] == seed == ce["random_state"]
    assert got["dist"].name == ce["distribution"]


def test_a_record_naming_only_its_instance_is_shown_with_its_values():
    """A check of the catalog rebound to a user's estimator may name its instance only
    (``{"instance": "d4", "k": 2}``): the block still shows the values and the line."""
    record = CheckRecord(id="HK12.Lemma3.3.literal", status="FAIL", expected="PASS",
                         citation="HK12 Lemma 3.3", statement="E‖g̃‖² <= G²", assumptions="",
                         method="exact", delta=0.0, detectable=0.0, figures={},
                         counterexample={"instance": "d4", "k": 2}, correction=None, note="",
                         seconds=0.0, seed=0, effort="fast", entropy=0, spawn_key=())
    lines = _explain(record)
    assert lines[-2] == ("  instance:  d4: w=[0.5, -0.25, 0.125, 0.375], x=[0.5, 0.25, -0.75, "
                         "0.125], y=-0.25, k=2")
    assert lines[-1] == "  reproduce: " + reproduce_instance("d4", k=2)
