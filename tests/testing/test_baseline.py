"""Regression baselines (laocheck.testing.baseline, `laocheck baseline`, the laocheck_baseline
fixture): an unaltered estimator and an equivalent rewrite come out SAME DISTRIBUTION, a
re-weighted sampler that stays unbiased CHANGED BUT STILL CORRECT with the second-moment ratio
derived by hand below, a wrong importance weight BROKEN; bad files are refused."""
import json
import pathlib
import re
import shlex
import sys
from fractions import Fraction as F

import numpy as np
import pytest

from laocheck import estimators
from laocheck.cli import main
from laocheck.estimators import Draws
from laocheck.estimators.instances import INSTANCES, as_float
from laocheck.exceptions import InvalidParameterError
from laocheck.testing import compare_baseline, save_baseline
from laocheck.testing import baseline as bl

from .test_plugin import _plugin_args
from .user_estimators import SampleOnly, UserAERRGradient

pytest_plugins = ["pytester"]
CLAIMS = {"unbiased": True, "budget": 3}        # HK12 Alg. 1 with k = 2: k + 1 attributes


class FastAERR:
    """A faster rewrite of laocheck's HK12.AERR.gradient (HK12 Alg. 1 lines 3-10) as a user
    would write it: the k uniform draws as counts (np.bincount in ``sample``), φ̃ computed as
    (‖w‖²/w_j)·x_j − y. It inherits the registered estimator's claims through ``spec``."""

    def __init__(self, k=2):
        self.k = k
        self.spec = estimators.get("HK12.AERR.gradient", k=k).spec
        self.name = "fast"
        self.params = {"k": k}
        self.budget = k + 1

    def target(self, w, x, y):
        return self.spec.target(w, x, y, **self.params)

    def reference(self, w, x, y, src):
        d = len(x)
        counts = [0] * d
        for _ in range(self.k):
            counts[src.uniform_int(d)] += 1
        ns = sum(v * v for v in w)
        seen = {i for i in range(d) if counts[i]}
        if ns == 0:
            phi = -y
        else:
            j = src.categorical([v * v / ns for v in w])
            seen.add(j)
            phi = (ns / w[j]) * x[j] - y
        return [phi * (c * d * x[i] / self.k) for i, c in enumerate(counts)], frozenset(seen)

    def sample(self, w, x, y, *, n=1, rng=None):
        rng = np.random.default_rng(rng)
        w, x = np.asarray(w, float), np.asarray(x, float)
        d = x.shape[0]
        idx = rng.integers(d, size=(n, self.k))
        counts = np.zeros((n, d))
        np.add.at(counts, (np.repeat(np.arange(n), self.k), idx.ravel()), 1.0)
        ns = float(w @ w)
        seen = counts > 0
        if ns > 0:
            j = rng.choice(d, size=n, p=w * w / ns)
            phi = (ns / w[j]) * x[j] - y
            seen[np.arange(n), j] = True
        else:
            phi = np.full(n, -float(y))
        return Draws(phi[:, None] * counts * (d * x / self.k), seen.sum(axis=1).astype(np.int64))


def q_of(d):
    """A non-uniform sampling distribution: q_i = i / (1 + ... + d)."""
    total = d * (d + 1) // 2
    return [F(i, total) for i in range(1, d + 1)]


class Reweighted(UserAERRGradient):
    """HK12 Alg. 1 with x̃'s k draws from q instead of uniform, weighted x_i / (k q_i): still
    unbiased for (wᵀx − y)·x. ``slip=True`` keeps the uniform weight d x_i / k (biased)."""

    def __init__(self, k=2, *, slip=False):
        super().__init__(k, name="mutant" if slip else "reweighted")
        self.slip = slip

    def _w(self, q, d):
        return [F(d) if self.slip else 1 / qi for qi in q]

    def reference(self, w, x, y, src):
        d = len(x)
        q = q_of(d)
        weight = self._w(q, d)
        xt = [x[0] * 0] * d
        seen = set()
        for _ in range(self.k):
            i = src.categorical(q)
            seen.add(i)
            xt[i] = xt[i] + weight[i] * x[i] / self.k
        ns = sum(v * v for v in w)
        if ns == 0:
            phi = -y
        else:
            j = src.categorical([v * v / ns for v in w])
            seen.add(j)
            phi = ns * x[j] / w[j] - y
        return [phi * v for v in xt], frozenset(seen)

    def sample(self, w, x, y, *, n=1, rng=None):
        rng = np.random.default_rng(rng)
        w, x = np.asarray(w, float), np.asarray(x, float)
        d = x.shape[0]
        q = np.array([float(v) for v in q_of(d)])
        weight = np.array([float(v) for v in self._w(q_of(d), d)])
        idx = rng.choice(d, size=(n, self.k), p=q)
        xt = np.zeros((n, d))
        np.add.at(xt, (np.repeat(np.arange(n), self.k), idx.ravel()),
                  (weight[idx] * x[idx] / self.k).ravel())
        ns = float(w @ w)
        if ns > 0:
            j = rng.choice(d, size=n, p=w * w / ns)
            phi = ns * x[j] / w[j] - y
            seen = [len(set(row) | {jj}) for row, jj in zip(idx.tolist(), j.tolist())]
        else:
            phi = np.full(n, -float(y))
            seen = [len(set(row)) for row in idx.tolist()]
        return Draws(phi[:, None] * xt, np.array(seen, dtype=np.int64))


def hand_ratio(inst, k=2):
    """E‖g̃‖² new/old by hand. φ̃ and x̃ are independent, so E‖g̃‖² = E[φ̃²]·E‖x̃‖² and E[φ̃²]
    cancels. With k i.i.d. draws i_s ~ p and x̃ = (1/k) Σ_s x_{i_s}/p_{i_s} e_{i_s}:
    E‖x̃‖² = (1/k²)[k Σ_i x_i²/p_i + k(k−1) ‖x‖²] (diagonal terms, then pairs s ≠ t whose
    expectations are x and x). Uniform p_i = 1/d: (d/k + 1 − 1/k)‖x‖²."""
    _, x, _ = INSTANCES[inst]
    d = len(x)
    norm2 = sum(v * v for v in x)
    new = F(1, k) * sum(v * v / qi for v, qi in zip(x, q_of(d))) + (1 - F(1, k)) * norm2
    old = (F(d, k) + 1 - F(1, k)) * norm2
    return new / old


def _verdicts(results):
    return {r.instance: r.verdict for r in results}


@pytest.fixture(scope="module")
def laocheck_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("bl") / "registered.json"
    save_baseline(estimators.get("HK12.AERR.gradient", k=2), path, seed=0)
    return path


@pytest.fixture(scope="module")
def user_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("bl") / "user.json"
    save_baseline(UserAERRGradient(2), path, seed=0, claims=CLAIMS)
    return path


def test_the_file_is_versioned_with_exact_distributions(laocheck_file):
    doc = json.loads(laocheck_file.read_text())
    assert doc["format"] == "laocheck-baseline" and doc["format_version"] == 2
    assert {fp["kind"] for fp in doc["instances"].values()} == {"exact"}
    assert doc["provenance"]["seed"] == 0 and doc["laocheck"] == doc["provenance"]["laocheck"]
    assert set(doc["instances"]) == {"d3", "d4", "w0"}
    d3 = doc["instances"]["d3"]
    # k = 2 uniform draws from 3 and j ~ w_j²/‖w‖² on w = (1/2, -1/4, 0): one attribute read
    # when i1 = i2 = j: Σ_j P(j)·(1/3)² = 1/9; three when i1, i2, j are distinct:
    # Σ_j P(j)·(2/3)(1/3) = 2/9 (i1 ≠ j: 2/3, i2 the third index: 1/3)
    assert d3["attributes"] == {"1": "1/9", "2": "2/3", "3": "2/9"}
    assert sum(F(p) for p in d3["outcomes"].values()) == 1
    assert all(s == "PASS" for s in doc["checks"].values())


def test_the_unaltered_estimator_is_same(laocheck_file):
    results = compare_baseline(estimators.get("HK12.AERR.gradient", k=2), laocheck_file)
    assert _verdicts(results) == {"d3": bl.SAME, "d4": bl.SAME, "w0": bl.SAME,
                                  "checks": bl.SAME}
    assert all(r.detectable == 0 for r in results if r.instance != "checks")


def test_a_faster_equivalent_rewrite_is_same(laocheck_file):
    results = compare_baseline(FastAERR(2), laocheck_file)
    assert _verdicts(results) == {"d3": bl.SAME, "d4": bl.SAME, "w0": bl.SAME,
                                  "checks": bl.SAME}


def test_another_k_is_not_same(laocheck_file):
    """k = 3 is HK12 Alg. 1 too (unbiased) but reads up to 4 attributes: its own spec's
    budget is kept, the distribution differs."""
    verdicts = _verdicts(compare_baseline(FastAERR(3), laocheck_file))
    assert verdicts["d4"] == bl.CHANGED


def test_a_reweighted_sampler_is_changed_but_correct_with_the_hand_ratio(user_file):
    results = compare_baseline(Reweighted(2), user_file, claims=CLAIMS)
    by = {r.instance: r for r in results}
    for inst in ("d3", "d4", "w0"):
        assert by[inst].verdict == bl.CHANGED, by[inst]
        assert F(by[inst].figures["second_moment_ratio"]) == hand_ratio(inst)
        assert hand_ratio(inst) != 1
    assert by["checks"].verdict in (bl.SAME, bl.CHANGED)


def test_a_wrong_importance_weight_is_broken(user_file):
    results = compare_baseline(Reweighted(2, slip=True), user_file, claims=CLAIMS)
    by = {r.instance: r for r in results}
    for inst in ("d3", "d4", "w0"):
        assert by[inst].verdict == bl.BROKEN and by[inst].claim == "unbiased"
        assert by[inst].counterexample["instance"] == inst
        assert any(F(b) != 0 for b in by[inst].counterexample["bias"])
    assert by["checks"].verdict == bl.BROKEN
    assert by["checks"].claim == "mutant.unbiased.exact"


def test_a_budget_slip_is_broken(user_file):
    class PeekAll(UserAERRGradient):
        def reference(self, w, x, y, src):
            value, _ = super().reference(w, x, y, src)
            return value, frozenset(range(len(x)))       # reads every attribute
    by = {r.instance: r for r in compare_baseline(PeekAll(2), user_file, claims=CLAIMS)}
    assert by["d4"].verdict == bl.BROKEN and by["d4"].claim == "budget"
    ce = by["d4"].counterexample
    assert {k: ce[k] for k in ("instance", "attributes", "budget", "budget_kind")} == {
        "instance": "d4", "attributes": "4", "budget": 3, "budget_kind": "exact"}
    # the full instance, and a line of Python that rebuilds it
    w, x, y = as_float(INSTANCES["d4"])
    assert ce["w"] == w.tolist() and ce["x"] == x.tolist() and ce["y"] == y and ce["k"] == 2
    namespace = {}
    exec(ce["reproduce"], namespace)
    assert np.array_equal(namespace["x"], x) and namespace["k"] == 2
    # w0 (d = 3): reading all 3 attributes keeps the budget of 3; the count distribution changed
    assert by["w0"].verdict == bl.CHANGED and F(by["w0"].figures["second_moment_ratio"]) == 1


def test_no_overwrite_without_force(tmp_path):
    path = tmp_path / "b.json"
    save_baseline(UserAERRGradient(2), path, claims=CLAIMS)
    before = path.read_text()
    with pytest.raises(InvalidParameterError, match="exists.*force"):
        save_baseline(Reweighted(2), path, claims=CLAIMS)
    assert path.read_text() == before
    save_baseline(Reweighted(2), path, claims=CLAIMS, force=True)
    assert path.read_text() != before


@pytest.mark.parametrize("text, fault", [
    ("{not json", "is not valid JSON"),
    ('{"hello": 1}', "not a laocheck baseline"),
    ('[1, 2]', "not a laocheck baseline"),
    ('{"format": "laocheck-baseline", "format_version": 99}', "format version 99"),
    ('{"format": "laocheck-baseline", "format_version": 1, "instances": {"d3": {}}, '
     '"checks": {}}', "instance 'd3': field `outcomes` must be present"),
])
def test_bad_files_are_refused_naming_the_file_and_fault(tmp_path, text, fault):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(InvalidParameterError, match="bad.json") as err:
        compare_baseline(UserAERRGradient(2), path, claims=CLAIMS)
    assert fault in str(err.value)


def test_a_missing_file_is_refused(tmp_path):
    with pytest.raises(InvalidParameterError, match="does not exist"):
        compare_baseline(UserAERRGradient(2), tmp_path / "nope.json", claims=CLAIMS)


def test_another_laocheck_version_warns_and_compares(tmp_path, user_file):
    doc = json.loads(user_file.read_text())
    doc["laocheck"] = "0.0.1"
    path = tmp_path / "old.json"
    path.write_text(json.dumps(doc))
    with pytest.warns(bl.BaselineVersionWarning, match="0.0.1"):
        results = compare_baseline(UserAERRGradient(2), path, claims=CLAIMS)
    assert {r.verdict for r in results} == {bl.SAME}


def test_estimators_without_an_exact_fingerprint_get_a_sampled_one(tmp_path):
    """Unbounded support (AESVR) or draws that cannot be enumerated (a compiled kernel with no
    reference): the sampled fingerprint (test_baseline_sampled.py tests its verdicts). A plain
    numpy sampler without a reference is enumerated by the choice tree: exact (issue 34)."""
    a = save_baseline(estimators.get("HK12.AESVR.gradient", B=1.0, k=2, eps=0.5, delta=0.1),
                      tmp_path / "a.json")
    kernel = estimators.get("HK12.AERR.gradient", k=2)
    kernel.reference = None
    b = save_baseline(kernel, tmp_path / "b.json", claims=CLAIMS)
    for doc in (a, b):
        assert {fp["kind"] for fp in doc["instances"].values()} == {"sampled"}
    c = save_baseline(SampleOnly(2), tmp_path / "c.json", claims=CLAIMS)
    assert {fp["kind"] for fp in c["instances"].values()} == {"exact"}


def test_an_estimator_without_a_target_is_refused(tmp_path):
    with pytest.raises(InvalidParameterError, match="claims no target"):
        save_baseline(UserAERRGradient(2), tmp_path / "c.json",
                      claims={"budget": 3, "unbiased": False})   # (unbiased is the default)
    assert not list(tmp_path.iterdir())


MODULE = '''
from laocheck import estimators
from user_estimators import UserAERRGradient


def registered():
    return estimators.get("HK12.AERR.gradient", k=2)


def mutant():
    est = UserAERRGradient(2, name="HK12.AERR.gradient", weight=lambda d: d - 1)
    est.spec = registered().spec            # it claims what laocheck's estimator claims
    return est
'''


def test_the_cli(tmp_path, monkeypatch, capsys):
    (tmp_path / "user_estimators.py").write_text(
        pathlib.Path(__file__).with_name("user_estimators.py").read_text())
    (tmp_path / "blmod.py").write_text(MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    assert main(["baseline", "save", "grad", "--estimator", "blmod:registered"]) == 0
    assert (tmp_path / "laocheck-baselines" / "grad.json").is_file()
    assert main(["baseline", "save", "grad", "--estimator", "blmod:registered"]) == 2
    assert "--force" in capsys.readouterr().err
    assert main(["baseline", "compare", "grad", "--estimator", "blmod:registered",
                 "--json", "cmp.json"]) == 0
    doc = json.loads((tmp_path / "cmp.json").read_text())
    assert {c["verdict"] for c in doc["comparisons"]} == {bl.SAME}
    assert "provenance" in doc["run"]
    assert main(["baseline", "compare", "grad", "--estimator", "blmod:mutant"]) == 1
    assert "BROKEN  claim unbiased" in capsys.readouterr().out
    assert main(["baseline", "compare", "nope", "--estimator", "blmod:registered"]) == 2
    assert main(["baseline", "compare", "../x", "--estimator", "blmod:registered"]) == 2
    assert main(["baseline", "compare", "grad", "--estimator", "blmod:absent"]) == 2
    assert main(["baseline", "save", "g2", "--estimator", "blmod:registered", "--dir",
                 "sub/dir"]) == 0
    assert (tmp_path / "sub" / "dir" / "g2.json").is_file()
    for name in ("blmod", "user_estimators"):
        sys.modules.pop(name, None)


SUITE = '''
from laocheck import estimators
from user_estimators import UserAERRGradient


def test_registered(laocheck_baseline):
    results = laocheck_baseline(estimators.get("HK12.AERR.gradient", k=2), "grad")
    assert {r.verdict for r in results} == {"SAME DISTRIBUTION"}


def test_mutant(laocheck_baseline):
    laocheck_baseline(UserAERRGradient(2, name="HK12.AERR.gradient", weight=lambda d: d - 1),
                      "grad", claims={"unbiased": True, "budget": 3})
'''


def test_the_fixture(pytester):
    pytester.makepyfile(user_estimators=pathlib.Path(__file__).with_name(
        "user_estimators.py").read_text(), test_suite=SUITE)
    args = (*_plugin_args(), "-p", "no:cacheprovider", "test_suite.py::test_registered")
    first = pytester.runpytest_subprocess(*args)
    first.assert_outcomes(failed=1)
    first.stdout.fnmatch_lines(["*baseline 'grad' did not exist*"])
    assert (pytester.path / "laocheck-baselines" / "grad.json").is_file()
    pytester.runpytest_subprocess(*args).assert_outcomes(passed=1)
    result = pytester.runpytest_subprocess(*_plugin_args(), "-p", "no:cacheprovider",
                                           "test_suite.py::test_mutant")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*BROKEN*claim unbiased*"])


# the tutorial that was the README's section "I changed a sampler — is it still right?"
TUTORIAL = pathlib.Path(__file__).resolve().parents[2] / "docs" / "tutorials" / \
    "regression_testing.md"


def _blocks():
    text = TUTORIAL.read_text(encoding="utf-8")
    return re.findall(r"```(python|bash)\n(.*?)```", text, flags=re.S)


def test_the_readme_tutorial_runs(tmp_path, monkeypatch, capsys):
    """Every block of the tutorial, in order: the file, the edits, the commands with the exit
    status each states."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    monkeypatch.syspath_prepend(str(tmp_path))
    source = tmp_path / "mysampler.py"
    statuses = []
    for kind, body in _blocks():
        first, rest = body.split("\n", 1)
        if kind == "python" and first == "# mysampler.py":
            source.write_text(rest)
        elif kind == "python":
            name = re.fullmatch(r"# in mysampler\.py, replace (\w+) by:", first).group(1)
            old = source.read_text()
            new, count = re.subn(rf"def {name}\(.*?\n(?:    .*\n)+", rest, old)
            assert count == 1
            source.write_text(new)
        else:
            for line in body.splitlines():
                expected = re.search(r"# exit status (\d)", line)
                argv = shlex.split(line, comments=True)
                assert argv[0] == "laocheck"
                sys.modules.pop("mysampler", None)
                status = main(argv[1:])
                statuses.append(status)
                assert status == (int(expected.group(1)) if expected else 0), \
                    capsys.readouterr()
    assert statuses == [0, 0, 1]
    out = capsys.readouterr().out
    # the change: q_i = 2i / (d(d + 1)); E‖x̃‖² = Σ x_i²/q_i against d Σ x_i² (uniform)
    _, x, _ = INSTANCES["d4"]
    q = [F(2 * i, 20) for i in range(1, 5)]
    ratio = sum(v * v / qi for v, qi in zip(x, q)) / (4 * sum(v * v for v in x))
    assert f"d4      {bl.CHANGED}  (E‖v‖² new/old = {ratio})" in out
    assert f"d4      {bl.BROKEN}  claim unbiased" in out
    sys.modules.pop("mysampler", None)


@pytest.mark.parametrize("kwargs, match", [({"effort": "huge"}, "`effort`"),
                                           ({"seed": -1}, "`seed`"), ({"delta": 0.5}, "`delta`")])
def test_bad_parameters_are_refused_before_writing(tmp_path, kwargs, match):
    with pytest.raises(InvalidParameterError, match=match):
        save_baseline(UserAERRGradient(2), tmp_path / "a.json", claims=CLAIMS, **kwargs)
    assert not (tmp_path / "a.json").exists()


@pytest.mark.parametrize("name", ["../x", "a/b", "", ".hidden", 3])
def test_baseline_names_are_plain(name):
    with pytest.raises(InvalidParameterError, match="`NAME`"):
        bl.baseline_path(name)


def test_the_cli_reports_a_version_mismatch_and_a_foreign_file(tmp_path, monkeypatch, capsys,
                                                               user_file):
    (tmp_path / "blmod2.py").write_text(
        "from laocheck import estimators\n\n\ndef registered():\n"
        "    return estimators.get('HK12.AERR.gradient', k=2)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    assert main(["baseline", "save", "g", "--estimator", "blmod2:registered"]) == 0
    path = tmp_path / "laocheck-baselines" / "g.json"
    doc = json.loads(path.read_text())
    doc["laocheck"] = "0.0.1"
    path.write_text(json.dumps(doc))
    capsys.readouterr()
    assert main(["baseline", "compare", "g", "--estimator", "blmod2:registered"]) == 0
    assert "warning: baseline file" in capsys.readouterr().err
    path.write_text('{"format": "something-else"}')
    assert main(["baseline", "compare", "g", "--estimator", "blmod2:registered"]) == 2
    assert "is not a laocheck baseline" in capsys.readouterr().err
    sys.modules.pop("blmod2", None)


def test_a_rewrite_returning_floats_is_same(user_file):
    """0.0 and Fraction(0), 0.5 and Fraction(1, 2) are the same outcome (dyadic instances)."""
    class Floats(UserAERRGradient):
        def reference(self, w, x, y, src):
            value, seen = super().reference(w, x, y, src)
            return [float(v) for v in value], seen
    results = compare_baseline(Floats(2), user_file, claims=CLAIMS)
    assert {r.instance: r.verdict for r in results if r.instance != "checks"} == {
        "d3": bl.SAME, "d4": bl.SAME, "w0": bl.SAME}
