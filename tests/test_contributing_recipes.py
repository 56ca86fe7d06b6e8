"""CONTRIBUTING.md's recipes, followed in a scratch copy of the package, touch the files it says
(issue 50, item 7).

Each test copies ``src/laocheck`` into a temporary directory, makes there the edits a recipe of
CONTRIBUTING.md asks for (the code taken from CONTRIBUTING.md itself where it gives it), runs in a
fresh interpreter on the copy what the test suite requires of the new code (its checks give
their declared status, each has a witness that its check detects, the layout rule holds), and
counts the files that differ from the repository's. The counts are the true ones, named in
CONTRIBUTING.md: a paper's new check is one file; an estimator is three files written by hand
(its kernel in ``_kernels.pyx`` is left out here: it needs a compiler) and three regenerated
(the mutation map, its score and the page rendered from it).
"""

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import laocheck
from laocheck import checks
from laocheck.checks.algorithms.estimator_families import FAMILY_CHECKS

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = Path(laocheck.__file__).resolve().parent
CONTRIBUTING = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")


def _digests(root):
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts}


@pytest.fixture
def scratch(tmp_path):
    """A copy of the package (compiled kernels included) and the digests of its files."""
    dest = tmp_path / "src" / "laocheck"
    shutil.copytree(PACKAGE, dest, ignore=shutil.ignore_patterns("__pycache__"))
    return dest, _digests(dest)


def _touched(dest, before):
    after = _digests(dest)
    return sorted(f"src/laocheck/{p}" for p in set(before) | set(after)
                  if before.get(p) != after.get(p))


def _probe(dest, code):
    """Run ``code`` on the scratch copy in a fresh interpreter; its JSON output."""
    env = dict(os.environ, PYTHONPATH=str(dest.parent))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         timeout=300, cwd=dest.parent)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def _recipe_block(section, language="python"):
    """The first code block of ``language`` in CONTRIBUTING.md's ``section``."""
    text = CONTRIBUTING.split(section, 1)[1]
    block = re.search(rf"```{language}\n(.*?)```", text, re.S).group(1)
    return "\n".join(line[3:] if line.startswith("   ") else line for line in block.splitlines())


_CHECK_PROBE = """
import json
from laocheck import checks
from laocheck.checks import _witnesses as W
ids = {new!r}
out = {{}}
missing = set(W.missing())
for cid in ids:
    check = checks.get(cid)
    record = checks.run(check, seed=0, catch=False)
    witnesses = W.witnesses_of(check)
    out[cid] = {{"status": record.status, "expected": check.expected.value,
                "module": check.func.__module__, "missing": cid in missing,
                "witnesses": {{w.name: W.run_witness(check, w).killed for w in witnesses}}}}
print(json.dumps(out))
"""


def test_a_new_check_of_a_paper_s_statement_is_one_file(scratch):
    """CONTRIBUTING (b), step 1, verbatim: the example goes into the module its text names and
    needs nothing else; the same check with its constant written inline has no witness (step 2
    would add one in checks/_witnesses.py: two files)."""
    dest, before = scratch
    section = "### (b) A check of a new statement"
    code = _recipe_block(section)
    target = re.search(r"in `src/laocheck/checks/(\w+)/(\w+)\.py`", CONTRIBUTING.split(
        section, 1)[1]).group(0)[4:-1]
    new_id = re.search(r'@register\("([^"]+)"', code).group(1)
    assert new_id not in {c.id for c in checks.checks()}
    inline = (code.replace(new_id, new_id + "_inline")
              .replace("def check_lemma_b4_minimum", "def check_lemma_b4_minimum_inline")
              .replace("_B4_MIN_FACTOR * G", "2 * G"))
    inline = inline[inline.index("@register"):]
    module = dest.parent.parent / target
    module.write_text(module.read_text(encoding="utf-8") + "\n\n" + code, encoding="utf-8")
    assert _touched(dest, before) == [target]
    module.write_text(module.read_text(encoding="utf-8") + "\n\n" + inline, encoding="utf-8")

    out = _probe(dest, _CHECK_PROBE.format(new=[new_id, new_id + "_inline"]))
    one, inline_out = out[new_id], out[new_id + "_inline"]
    assert one["status"] == one["expected"] == "PASS"
    assert one["module"] == "laocheck.checks.ks15.statements"      # the layout rule: KS15.*
    assert not one["missing"]
    assert one["witnesses"] == {"transcription:ks15.statements._B4_MIN_FACTOR": True}
    assert inline_out["status"] == "PASS"
    assert inline_out["missing"] and inline_out["witnesses"] == {}   # step 2: a second file
    for name in (target, "src/laocheck/checks/_witnesses.py"):
        assert f"`{name}`" in CONTRIBUTING, name


_ESTIMATOR_REFERENCE = '''

def xy26_uniform(x, k, src):
    """XY26 Alg. 1: x̃ = (d/k) Σ_r x_{i_r} e_{i_r} from k uniform draws with replacement."""
    check_source(src, "uniform_int")
    d = len(x)
    observed = set()
    xt = _zeros(d, x)
    for _r in range(k):                               # 2: for r = 1 to k do
        i = src.uniform_int(d)                        # 3: pick i_r ∈ [d] uniformly, observe
        observed.add(i)
        xt[i] = xt[i] + Fraction(d, k) * x[i]         # 4: x̃ ← x̃ + (d/k) x[i_r] e_{i_r}
    return xt, frozenset(observed)
'''

# the class of CONTRIBUTING (a) with its kernel's draws written in numpy (a new kernel in
# _kernels.pyx needs a compiler), registered as _families.py registers its classes
_ESTIMATOR_CLASS = '''


class UniformEstimator:
    """XY26 Alg. 1 (scratch copy of tests/test_contributing_recipes.py)."""

    specs = (XY26_UNIFORM,)
    spec = XY26_UNIFORM
    name, citation, geometry, budget_kind = XY26_UNIFORM.name, "XY26 Alg. 1", "l2", "max"

    def __init__(self, *, k):
        self.k = k
        self.budget = k

    @property
    def params(self):
        return {"k": self.k}

    def target(self, w, x, y):
        return np.asarray(x, dtype=float)

    def reference(self, w, x, y, src):
        return ref.xy26_uniform(x, self.k, src)

    def sample(self, w, x, y, *, n=1, rng=None):
        rng = np.random.default_rng(rng)
        x = np.asarray(x, dtype=float)
        d = x.shape[0]
        idx = rng.integers(d, size=(n, self.k))
        values = np.zeros((n, d))
        np.add.at(values, (np.repeat(np.arange(n), self.k), idx.ravel()),
                  (x[idx] * d / self.k).ravel())
        return Draws(values, np.array([len(set(r)) for r in idx.tolist()], dtype=np.int64))


REGISTRATIONS = (*REGISTRATIONS, (XY26_UNIFORM.name, UniformEstimator, XY26_UNIFORM))
'''

_ESTIMATOR_PROBE = """
import json
from laocheck import checks
from laocheck.checks import _witnesses as W
new = [c for c in checks.checks("XY26.*")]
missing = set(W.missing())
out = {c.id: {"status": checks.run(c, seed=0, catch=False).status,
              "missing": c.id in missing, "witnesses": len(W.witnesses_of(c))} for c in new}
print(json.dumps(out))
"""


def test_a_new_estimator_is_three_files_by_hand_and_three_regenerated(scratch):
    """CONTRIBUTING (a): the literal transcription in reference/estimators.py, the class and
    its spec (the recipe's XY26 example) in estimators/_families.py (and the kernel in
    _kernels.pyx, not compiled here); the catalog then runs its property checks, each with
    the engine's witnesses. The two edited modules are modules of the mutation engine: its map
    is then stale (three generated files to rewrite)."""
    dest, before = scratch
    section = "### (a) An estimator"
    spec_code = _recipe_block(section)
    spec_code = spec_code[spec_code.index("XY26_UNIFORM = EstimatorSpec("):
                          spec_code.index("class UniformEstimator")]
    reference = dest / "reference" / "estimators.py"
    reference.write_text(reference.read_text(encoding="utf-8") + _ESTIMATOR_REFERENCE,
                         encoding="utf-8")
    families = dest / "estimators" / "_families.py"
    families.write_text(families.read_text(encoding="utf-8")
                        + "\n\nfrom ._protocol import Draws  # noqa: E402\n"
                        + "from ._spec import data_point_target  # noqa: E402\n\n"
                        + spec_code.rstrip() + _ESTIMATOR_CLASS, encoding="utf-8")
    touched = _touched(dest, before)
    assert touched == ["src/laocheck/estimators/_families.py",
                       "src/laocheck/reference/estimators.py"]
    by_hand = [*touched, "src/laocheck/estimators/_kernels.pyx"]

    out = _probe(dest, _ESTIMATOR_PROBE)
    prefix = "XY26.Uniform.data_point."
    # the property checks its spec's claims select, and the checks of the spec's own fields
    # (laocheck.checks.algorithms.estimator_families); the recipe's class draws with numpy and
    # declares no finite-range bounds, which magnitude_bounds reports (INCONCLUSIVE, not PASS)
    properties = ("unbiased.exact", "unbiased.monte_carlo", "budget", "kernel_matches_reference",
                  "scaling")
    assert set(out) == {prefix + p for p in properties + FAMILY_CHECKS}, sorted(out)
    statuses = {cid: r["status"] for cid, r in out.items()}
    assert statuses.pop(prefix + "magnitude_bounds") == "INCONCLUSIVE", out
    assert set(statuses.values()) == {"PASS"}, out
    assert all(not r["missing"] and r["witnesses"] for r in out.values()), out

    # the mutation engine's modules changed: map.json, then score.json and the page, regenerate
    with open(ROOT / "benchmarks" / "mutation.toml", "rb") as fh:
        modules = tomllib.load(fh)["mutation"]["modules"]
    mapped = json.loads((ROOT / "benchmarks" / "results" / "mutation" / "map.json").read_text())
    stale = sorted(m for m in modules if mapped["modules"].get(m, {}).get("sha256") !=
                   hashlib.sha256((dest.parent / m).read_bytes()).hexdigest())
    assert stale == ["laocheck/estimators/_families.py", "laocheck/reference/estimators.py"]
    regenerated = ["benchmarks/results/mutation/map.json",
                   "benchmarks/results/mutation/score.json", "docs/benchmarks/mutation.md"]
    assert len(by_hand) == 3 and len(regenerated) == 3
    for name in ("reference/estimators.py", "estimators/_kernels.pyx", "estimators/_families.py",
                 "map.json", "score.json", "docs/benchmarks/mutation.md"):
        assert name in CONTRIBUTING, name
