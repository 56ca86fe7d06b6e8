"""Sampled baselines: estimators without a finite support (HK12's AESVR and GenEst, whose random
series order is unbounded) or without a ``reference``.

δ: each comparison of an instance spends δ/2 on the two-sample tests of SAME DISTRIBUTION and
δ/2 on the claims (δ = 1e-6 per instance, the default): an unchanged estimator is SAME on an
instance except with probability <= 5e-7, and a correct one is BROKEN there with probability
<= 5e-7. The tests below compare over at most 3 instances each, so none of their assertions on
a correct estimator fails with probability above 3e-6 (nothing to loosen: the thresholds are
derived). The mutants are chosen far from the detectable differences the verdicts report."""
import json
import pathlib
import sys

import numpy as np
import pytest

from laocheck.cli import main
from laocheck.estimators import Draws
from laocheck.exceptions import InvalidParameterError
from laocheck.testing import baseline as bl
from laocheck.testing import compare_baseline, save_baseline

from .user_estimators import KernelOnly, SampleOnly, UserAERRGradient
from .mutants import Wrapper

UNBOUNDED = [("HK12.AESVR.gradient", {"B": 1.0, "k": 2, "eps": 0.5, "delta": 0.1}),
             ("HK12.AESVR.residual", {"B": 1.0, "eps": 0.5, "delta": 0.1}),
             ("HK12.GenEst.derivative", {"coefficients": [1.0, 0.5, -0.125, 0.0625], "B": 1.0})]
IDS = [name for name, _ in UNBOUNDED]


class Scaled(Wrapper):
    """A wrong weight: every draw times ``factor`` (AESVR's ½ of Alg. 4 forgotten: 2; GenEst's
    2^{n+1} written 2^n: ½)."""

    factor = 2.0

    def sample(self, w, x, y, *, n=1, rng=None):
        d = self.inner.sample(w, x, y, n=n, rng=rng)
        return Draws(self.factor * np.asarray(d.values), d.attributes)


class Halved(Scaled):
    factor = 0.5


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    root = tmp_path_factory.mktemp("sampled")
    out = {}
    for name, params in UNBOUNDED:
        path = root / f"{name}.json"
        out[name] = (save_baseline(Wrapper(name, label="mine", **params), path, seed=0), path)
    return out


@pytest.mark.parametrize("name,params", UNBOUNDED, ids=IDS)
def test_the_file_holds_a_sample_and_moments_with_intervals(saved, name, params):
    doc = json.loads(saved[name][1].read_text())
    assert doc["format_version"] == bl.FORMAT_VERSION == 2
    assert set(doc["instances"]) == {"d3", "d4", "w0"}
    for fp in doc["instances"].values():
        assert fp["kind"] == "sampled" and fp["n"] == bl.MOMENT_DRAWS["fast"]
        sample = np.asarray(fp["sample"])
        assert sample.shape[0] == bl.SAMPLE_SIZE == len(fp["sample_attributes"])
        assert sum(fp["attributes"].values()) == fp["n"]
        lower = fp["second_moment_lower"]
        assert lower["delta"] == 1e-6 and 0 < lower["low"] <= fp["second_moment"]
        iv = fp["mean_interval"]                     # a variance bound: the closed form
        assert iv is not None and all(lo <= m <= hi for lo, m, hi in
                                      zip(iv["low"], fp["mean"], iv["high"]))


@pytest.mark.parametrize("name,params", UNBOUNDED, ids=IDS)
def test_the_unaltered_estimator_is_same_on_another_seed(saved, name, params):
    results = compare_baseline(Wrapper(name, label="mine", **params), saved[name][1], seed=1)
    assert [r.instance for r in results] == ["d3", "d4", "w0", "checks"]
    assert {r.verdict for r in results} == {bl.SAME}, [r.to_dict() for r in results]
    assert "sup-distance of CDFs" in results[0].detectable


@pytest.mark.parametrize("name,params", UNBOUNDED, ids=IDS)
def test_a_doubled_weight_is_broken_by_its_second_moment(saved, name, params):
    """E‖v‖² grows fourfold: its lower confidence bound exceeds the closed form of HK12
    Procedure 3 (the claimed second moment) on every instance."""
    results = compare_baseline(Scaled(name, label="mine", **params), saved[name][1], seed=1)
    per_instance = [r for r in results if r.instance != "checks"]
    assert {r.verdict for r in per_instance} == {bl.BROKEN}
    assert {r.claim for r in per_instance} == {"second_moment"}
    for r in per_instance:
        assert r.counterexample["E|v|^2_lower_bound"] > r.counterexample["bound"]


@pytest.mark.parametrize("name,params", UNBOUNDED, ids=IDS)
def test_a_halved_weight_is_broken_by_its_bias(saved, name, params):
    """E‖v‖² shrinks (no second-moment claim is refuted), the mean halves: the target leaves
    the median-of-means interval on at least one instance, and no instance is SAME."""
    results = compare_baseline(Halved(name, label="mine", **params), saved[name][1], seed=1)
    per_instance = [r for r in results if r.instance != "checks"]
    assert bl.SAME not in {r.verdict for r in per_instance}
    broken = [r for r in per_instance if r.verdict == bl.BROKEN]
    assert broken and {r.claim for r in broken} == {"unbiased"}
    for r in broken:
        lo, hi = r.counterexample["interval"]
        assert not lo <= r.counterexample["target"] <= hi


class SampleOnlyMutant(SampleOnly):
    """The protocol's minimum (no reference) around the user's AERR with a wrong weight."""

    def __init__(self, k, weight):
        super().__init__(k)
        self._inner = UserAERRGradient(k, weight=weight)


def _g2(w, x, y):
    """HK12 Lemma 3.3: E‖g̃‖² <= 8B²d/k at k = 2, B = max(‖w‖₂, |y|)."""
    B = max(float(np.linalg.norm(w)), abs(float(y)))
    return 8 * B * B * len(x) / 2


def test_without_a_second_moment_bound_a_change_is_undecided(tmp_path):
    """Nothing bounds the mean of a sample-only estimator that cannot be enumerated (its draws
    come from a compiled kernel) claiming only unbiasedness: a change is CHANGED, CORRECTNESS
    UNDECIDED (never CHANGED BUT STILL CORRECT); with a second-moment claim the same slip is
    BROKEN (claim unbiased). A plain numpy sample-only estimator is enumerated exactly: its
    slip is BROKEN whatever it claims."""
    path = tmp_path / "so.json"
    claims = {"unbiased": True}
    save_baseline(KernelOnly(2), path, seed=0, claims=claims)
    same = compare_baseline(KernelOnly(2), path, seed=1, claims=claims)
    assert {r.verdict for r in same} == {bl.SAME}
    wrong = compare_baseline(KernelOnly(2, factor=3.0), path, seed=1, claims=claims)
    assert {r.verdict for r in wrong if r.instance != "checks"} == {bl.UNDECIDED}
    assert "cannot be decided" in wrong[0].counterexample["why"]

    bounded = {"unbiased": True, "second_moment": _g2}
    save_baseline(KernelOnly(2), path, seed=0, claims=bounded, force=True)
    wrong = compare_baseline(KernelOnly(2, factor=3.0), path, seed=1, claims=bounded)
    verdicts = {r.verdict for r in wrong if r.instance != "checks"}
    assert bl.BROKEN in verdicts and bl.SAME not in verdicts and bl.UNDECIDED not in verdicts
    save_baseline(SampleOnly(2), path, seed=0, claims=claims, force=True)
    exact = compare_baseline(SampleOnlyMutant(2, lambda d: 3 * d), path, seed=1, claims=claims)
    assert {r.verdict for r in exact if r.instance != "checks"} == {bl.BROKEN}


def test_a_corrupt_sample_is_refused(saved, tmp_path):
    doc = json.loads(saved["HK12.GenEst.derivative"][1].read_text())
    doc["instances"]["d3"]["sample_attributes"] = [1, 2]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(InvalidParameterError, match=r"bad.json.*corrupt.*sample"):
        compare_baseline(Wrapper("HK12.GenEst.derivative", label="mine",
                                 **UNBOUNDED[2][1]), path)


CLI_MODULE = '''
import numpy as np

from laocheck import estimators
from laocheck.estimators import Draws
from user_estimators import KernelOnly


def genest():
    return estimators.get("HK12.GenEst.derivative", coefficients=[1.0, 0.5, -0.125, 0.0625],
                          B=1.0)


class _Halved:
    def __init__(self):
        self.inner = genest()
        self.spec, self.params, self.budget = self.inner.spec, self.inner.params, 3
        self.name = self.inner.name

    def target(self, w, x, y):
        return self.inner.target(w, x, y)

    def sample(self, w, x, y, *, n=1, rng=None):
        d = self.inner.sample(w, x, y, n=n, rng=rng)
        return Draws(0.5 * np.asarray(d.values), d.attributes)


def halved():
    return _Halved()


def sample_only():
    return KernelOnly(2)


def sample_only_mutant():
    return KernelOnly(2, factor=3.0)
'''


def test_the_cli_with_sampled_baselines(tmp_path, monkeypatch, capsys):
    (tmp_path / "user_estimators.py").write_text(
        pathlib.Path(__file__).with_name("user_estimators.py").read_text())
    (tmp_path / "sbmod.py").write_text(CLI_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    try:
        assert main(["baseline", "save", "gen", "--estimator", "sbmod:genest"]) == 0
        assert main(["baseline", "compare", "gen", "--estimator", "sbmod:genest",
                     "--seed", "3"]) == 0
        assert main(["baseline", "compare", "gen", "--estimator", "sbmod:halved"]) == 1
        assert "BROKEN  claim unbiased" in capsys.readouterr().out
        claims = ["--claims", '{"unbiased": true}']
        assert main(["baseline", "save", "so", "--estimator", "sbmod:sample_only",
                     *claims]) == 0
        assert main(["baseline", "compare", "so", "--estimator", "sbmod:sample_only_mutant",
                     *claims]) == 1
        out = capsys.readouterr().out
        assert "CHANGED, CORRECTNESS UNDECIDED" in out and "3 UNDECIDED" in out
    finally:
        for name in ("sbmod", "user_estimators"):
            sys.modules.pop(name, None)


def test_a_finite_support_can_be_sampled_when_asked(tmp_path):
    """fingerprint='sampled' (``--sampled``) for a finite support too large to enumerate:
    the unaltered estimator is SAME, the d − 1 slip not (its spec claims HK12 Lemma 3.3's G²,
    so unbiasedness is decidable)."""
    path = tmp_path / "aerr.json"
    doc = save_baseline(Wrapper("HK12.AERR.gradient", label="mine", k=2), path, seed=0,
                        fingerprint="sampled")
    assert {fp["kind"] for fp in doc["instances"].values()} == {"sampled"}
    same = compare_baseline(Wrapper("HK12.AERR.gradient", label="mine", k=2), path, seed=1)
    assert {r.verdict for r in same} == {bl.SAME}
    slip = UserAERRGradient(2, name="mine", weight=lambda d: d - 1)
    slip.spec = Wrapper("HK12.AERR.gradient", k=2).spec
    changed = [r for r in compare_baseline(slip, path, seed=1) if r.instance != "checks"]
    assert bl.SAME not in {r.verdict for r in changed}
    assert bl.UNDECIDED not in {r.verdict for r in changed}
    with pytest.raises(InvalidParameterError, match="fingerprint"):
        save_baseline(KernelOnly(2), tmp_path / "x.json", claims={"unbiased": True},
                      fingerprint="exact")
    with pytest.raises(InvalidParameterError, match="fingerprint"):
        save_baseline(SampleOnly(2), tmp_path / "y.json", claims={"unbiased": True},
                      fingerprint="approximate")
