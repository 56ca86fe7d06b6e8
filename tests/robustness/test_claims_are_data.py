"""Claims and specs are data (issue 48, item 5): nothing in a claims file runs, hangs or is
silently changed, and a report spec names only learners.

As a user (or an attacker) would, through ``laocheck check`` in a subprocess — its exit status
and stderr exactly as a shell or CI sees them — and through the Python API:

* a formula that smuggles code (``__import__('os').system('touch ...')``) is refused and the
  file it would create is not created; one that made ``sympify`` hang is refused at once;
* a duplicated key, a count of 1.9, ``true`` or ``"3"``, an unknown field, R = 10**7 or work
  R·m·d beyond a report spec's cap: exit 2, one line on stderr naming the field;
* a true bound of 10**400 PASSes (it was a false FAIL: an OverflowError in the check);
* a spec whose ``[[learners]]`` factory is ``logging:basicConfig`` is refused when the spec is
  loaded, and the file its ``params`` name is not touched.
"""
import contextlib
import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from laocheck.cli import main
from laocheck.exceptions import InvalidParameterError
from laocheck.report import KINDS, SPECS_DIR, find_specs
from laocheck.report import _spec as spec_module
from laocheck.testing import _claims_schema, check_estimator, check_learner

ROOT = Path(__file__).resolve().parents[2]
ZOO = ROOT / "tests" / "testing"                    # learner_zoo/, user_estimators.py

#: a user's own learner in plain numpy: averaged SGD on the squared loss, projected on the
#: l2 ball of radius B, reading every attribute (budget d)
MY_LEARNER = '''
import numpy as np


class MySGD:
    def __init__(self, B=1.0, eta=0.05, random_state=None):
        self.B, self.eta, self.random_state = B, eta, random_state

    def fit(self, X, y):
        X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
        w = np.zeros(X.shape[1])
        total = np.zeros_like(w)
        for x_t, y_t in zip(X, y):
            w = w - self.eta * (w @ x_t - y_t) * x_t
            norm = np.linalg.norm(w)
            if norm > self.B:
                w *= self.B / norm
            total += w
        self.coef_ = total / len(X)
        return self
'''


def laocheck_check(tmp_path, *args):
    """(exit status, stdout, stderr) of ``laocheck check ARGS`` run as a user runs it."""
    (tmp_path / "my_learners.py").write_text(MY_LEARNER, encoding="utf-8")
    # the installed laocheck (never ROOT/src: a non-editable install has no kernels there)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ZOO), str(tmp_path)])}
    proc = subprocess.run([sys.executable, "-m", "laocheck", "check", *args], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=600)
    return proc.returncode, proc.stdout, proc.stderr


def laocheck_check_in_process(tmp_path, *args):
    """The same, in this process (``laocheck.cli.main``): for the many cases of one kind."""
    (tmp_path / "my_learners.py").write_text(MY_LEARNER, encoding="utf-8")
    sys.modules.pop("my_learners", None)
    out, err = io.StringIO(), io.StringIO()
    sys.path.insert(0, str(tmp_path))
    try:
        with contextlib.chdir(tmp_path), contextlib.redirect_stdout(out), \
                contextlib.redirect_stderr(err):
            code = main(["check", *args])
    finally:
        sys.path.remove(str(tmp_path))
    return code, out.getvalue(), err.getvalue()


def assert_refused(tmp_path, claims, *words, target="my_learners:MySGD", in_process=False):
    run = laocheck_check_in_process if in_process else laocheck_check
    code, _, err = run(tmp_path, "--learner", target, "--claims", claims)
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2, (claims, code, err)
    assert len(lines) == 1 and "Traceback" not in err, err
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


# -- formulas are read, never run ------------------------------------------------------------
@pytest.mark.parametrize("formula", [
    "__import__('os').system('touch {marker}')",
    "().__class__.__bases__[0].__subclasses__()",
    "(lambda: __import__('os').system('touch {marker}'))()",
    "open('{marker}', 'w')",
    "[__import__('os').system('touch {marker}') for _ in (1,)]",
    "f'{{__import__(\"os\").system(\"touch {marker}\")}}'",
    "d.__class__", "d[0]"])
def test_a_formula_that_smuggles_code_is_refused_and_runs_nothing(tmp_path, formula):
    marker = tmp_path / "pwned"
    claims = json.dumps({"bound": formula.format(marker=marker), "B": 1})
    line = assert_refused(tmp_path, claims, "field `bound`", "is not allowed",
                          in_process="touch" not in formula)  # the shell command: as a user
    assert not marker.exists(), line


@pytest.mark.parametrize("formula", ["10**10**10*d", "factorial(10**8)", "9" * 10**6,
                                     "exp(exp(exp(d + 10)))*exp(10**4)"])
def test_a_formula_that_hung_sympify_is_refused_at_once(tmp_path, formula):
    path = tmp_path / "claims.json"               # a file: a megabyte is no argument
    path.write_text(json.dumps({"bound": formula, "B": 1}), encoding="utf-8")
    start = time.perf_counter()
    assert_refused(tmp_path, str(path), "`bound`")
    assert time.perf_counter() - start < 60                # the start-up of the interpreter


# -- claim values: one line, exit 2 ----------------------------------------------------------
@pytest.mark.parametrize("claims,words", [
    ('{"budget": 3, "budget": 1}', ("field `budget` appears twice",)),
    ('{"params": {"eta": 1, "eta": 2}}', ("field `eta` appears twice",)),
    ('{"budget": 1.9}', ("field `budget`", "integer", "1.9")),
    ('{"budget": true}', ("field `budget`", "integer")),
    ('{"budget": "3"}', ("field `budget`", "integer")),
    ('{"k": 1.9}', ("field `k`", "integer")),
    ('{"d": 2.5}', ("field `d`", "integer")),
    ('{"m": [100, 2.5]}', ("field `m`",)),
    ('{"budjet": 3}', ("field `budjet` must not be there", "the claims are", "budget")),
    ('{"R": 10000000}', ("field `R`", "<= 100000")),
    ('{"R": 100000, "m": 1000000}', ("R·m·d <=",)),
    ('{"d": 1000000, "m": [100, 1000000], "R": [2, 1000]}', ("R·m·d <=",)),
    ('{"B": "x"}', ("field `B`",)),
    ('{"params": {"eta": "x"}}', ("field `params.eta`",)),
    ('{"constraint": ["l2"]}', ("field `constraint`",)),
])
def test_a_malformed_claim_exits_2_with_one_line(tmp_path, claims, words):
    # the examples in a subprocess, as a shell sees them; the others in this process
    examples = ('{"budget": 3, "budget": 1}', '{"budget": 1.9}', '{"budjet": 3}',
                '{"R": 10000000}')
    assert_refused(tmp_path, claims, *words, in_process=claims not in examples)


def test_a_duplicated_key_in_a_claims_file_is_refused(tmp_path):
    path = tmp_path / "claims.json"
    path.write_text('{"budget": 3,\n "constraint": "l2",\n "budget": 30}', encoding="utf-8")
    assert_refused(tmp_path, str(path), "`--claims` file", "`budget` appears twice")


def test_an_estimators_claims_are_checked_the_same_way(tmp_path):
    (tmp_path / "my_samplers.py").write_text(
        "from user_estimators import UserAERRGradient\n"
        "mine = UserAERRGradient(k=2, name='mine')\n", encoding="utf-8")
    for claims, word in [('{"unbiased": true, "unbiased": false}', "appears twice"),
                         ('{"budget": 1.9}', "field `budget`"),
                         ('{"unbaised": true}', "the claims are")]:
        code, _, err = laocheck_check(tmp_path, "my_samplers:mine", "--claims", claims)
        assert code == 2 and len(err.strip().splitlines()) == 1 and word in err, err


# -- a true bound beyond the doubles PASSes --------------------------------------------------
def test_a_true_bound_of_10_to_the_400_passes(tmp_path):
    claims = {"budget": 3, "constraint": "l2", "B": 1, "k": 2, "m": 100, "R": 10,
              "bound": "10**400"}
    code, out, err = laocheck_check(tmp_path, "--learner", "learner_zoo.numpy_aerr:NumpyAERR",
                                    "--claims", json.dumps(claims))
    assert code == 0, out + err
    assert "NumpyAERR.excess_risk    PASS" in out
    # the same bound from Python, as an int; a planted false bound beyond the doubles FAILs
    from learner_zoo.numpy_aerr import NumpyAERR
    records = check_learner(NumpyAERR(k=2), {**claims, "bound": 10**400}, on_fail=None)
    assert {r.id: r.status for r in records}["NumpyAERR.excess_risk"] == "PASS"
    records = check_learner(NumpyAERR(k=2), {**claims, "bound": "-10**400"}, on_fail=None)
    assert {r.id: r.status for r in records}["NumpyAERR.excess_risk"] == "FAIL"


@pytest.fixture
def zoo_importable():
    sys.path.insert(0, str(ZOO))
    yield
    sys.path.remove(str(ZOO))


def test_a_clipping_threshold_beyond_the_doubles_is_no_overflow(zoo_importable):
    from user_estimators import UserAERRGradient
    records = check_estimator(UserAERRGradient(k=2, name="mine"), {"clipping": 10**400},
                              on_fail=None)
    assert {r.id: r.status for r in records}["mine.clipping"] == "PASS"
    records = check_estimator(UserAERRGradient(k=2, name="mine"), {"clipping": 10**-6},
                              on_fail=None)
    assert {r.id: r.status for r in records}["mine.clipping"] == "FAIL"


@pytest.mark.parametrize("claims,name", [
    ({"budget": 1.9}, "budget"), ({"budget": True}, "budget"), ({"budget": "3"}, "budget"),
    ({"k": 2.0}, "k"), ({"d": "8"}, "d"), ({"m": [1, 2, 3]}, "m"), ({"R": 10**7}, "R"),
    ({"B": 10**400}, "B"), ({"B": "x"}, "B"), ({"params": {"eta": [1]}}, "params.eta"),
    ({"params": [1]}, "params"), ({"deterministic": "yes"}, "deterministic"),
    ({"randomized": 1}, "randomized"), ({"loss": ["half"]}, "loss"),
    ({"bound": True}, "bound")])
def test_a_malformed_learner_claim_from_python_is_one_line(claims, name):
    from learner_zoo.numpy_aerr import NumpyAERR   # noqa: F401 - imported by the fixture's path
    with pytest.raises(InvalidParameterError) as info:
        check_learner(_plain_learner(), claims, on_fail=None)
    assert f"`claims[{name!r}]`" in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize("claims,name", [
    ({"budget": 1.9}, "budget"), ({"k": True}, "k"), ({"range": "ab"}, "range"),
    ({"range": [0, "x"]}, "range"), ({"params": {"k": "x"}}, "params.k"), ({"q": "abc"}, "q"),
    ({"clipping": "big"}, "clipping"), ({"clipping": -1}, "clipping"),
    ({"scaling": 3}, "scaling"), ({"finite_support": "no"}, "finite_support")])
def test_a_malformed_estimator_claim_from_python_is_one_line(zoo_importable, claims, name):
    from user_estimators import UserAERRGradient
    with pytest.raises(InvalidParameterError) as info:
        check_estimator(UserAERRGradient(k=2, name="mine"), claims, on_fail=None)
    assert f"`claims[{name!r}]`" in str(info.value) and "\n" not in str(info.value)


def _plain_learner():
    namespace = {}
    exec(compile(MY_LEARNER, "my_learners.py", "exec"), namespace)
    return namespace["MySGD"]()


@pytest.fixture(autouse=True)
def _zoo_path():
    if str(ZOO) not in sys.path:
        sys.path.append(str(ZOO))
    yield


def test_the_claims_caps_are_the_report_specs():
    assert (_claims_schema.MAX_D, _claims_schema.MAX_M, _claims_schema.MAX_R,
            _claims_schema.MAX_WORK) == (spec_module.MAX_D, spec_module.MAX_M,
                                         spec_module.MAX_R, spec_module.MAX_WORK)


# -- report specs name only learners ---------------------------------------------------------
def _spec_with(tmp_path, table):
    text = (SPECS_DIR / "bounds.toml").read_text(encoding="utf-8").replace(
        'name = "bounds"', 'name = "mine"')
    folder = tmp_path / "specs"
    folder.mkdir(exist_ok=True)
    (folder / "mine.toml").write_text(text + "\n[[learners]]\n" + table + "\n",
                                      encoding="utf-8")
    return folder


@pytest.mark.parametrize("table,words", [
    ('factory = "logging:basicConfig"\nparams = {{filename = "{victim}", filemode = "w"}}',
     ("standard library",)),
    ('factory = "os:remove"\nparams = {{path = "{victim}"}}', ("standard library",)),
    ('factory = "shutil:rmtree"', ("standard library",)),
    ('factory = "numpy:savez"\nparams = {{file = "{victim}"}}', ("must name a learner class",)),
    ('factory = "learner_zoo.abs_aerr:make"\nparams = {{filename = "{victim}"}}',
     ("takes no parameter 'filename'",)),
    ('factory = "learner_zoo.abs_aerr:AbsAERR.fit"', ("takes no random_state",)),
    ('factory = "learner_zoo.abs_aerr"', ("must be 'module.path:factory'",)),
    ('factory = "learner_zoo.abs_aerr:make"\ncode = "import os"', ("unknown field",)),
])
def test_a_spec_names_only_learners(tmp_path, zoo_importable, table, words):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me", encoding="utf-8")
    folder = _spec_with(tmp_path, table.format(victim=victim))
    with pytest.raises(InvalidParameterError) as info:
        find_specs(folder, KINDS, ["mine"])
    message = str(info.value)
    assert "mine.toml" in message and "learners[0]" in message and "\n" not in message
    for word in words:
        assert word in message, message
    assert victim.read_text(encoding="utf-8") == "keep me"


def test_a_spec_naming_a_learner_class_or_factory_loads(tmp_path, zoo_importable):
    for table in ('factory = "learner_zoo.abs_aerr:make"',
                  'factory = "learner_zoo.abs_aerr:AbsAERR"\nparams = {k = 2}\n'
                  'grid = {eta = [0.1, 1.0]}'):
        spec, = find_specs(_spec_with(tmp_path, table), KINDS, ["mine"])
        assert spec.source["learners"][0]["factory"].startswith("learner_zoo.abs_aerr:")


def test_laocheck_report_refuses_the_spec_with_one_line(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me", encoding="utf-8")
    folder = _spec_with(tmp_path, f'factory = "logging:basicConfig"\n'
                                  f'params = {{filename = "{victim}", filemode = "w"}}')
    env = dict(os.environ)
    proc = subprocess.run([sys.executable, "-m", "laocheck", "report", "--specs", str(folder),
                           "mine", "--effort", "tiny", "--out", str(tmp_path / "out")],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert proc.returncode == 2 and len(lines) == 1, proc.stderr
    assert "logging:basicConfig" in lines[0] and "learners[0]" in lines[0]
    assert victim.read_text(encoding="utf-8") == "keep me"


def test_laocheck_check_never_calls_a_standard_library_callable(tmp_path):
    for target in ("os:abort", "logging:basicConfig"):
        code, _, err = laocheck_check(tmp_path, target)
        assert code == 2 and "standard library" in err and len(err.strip().splitlines()) == 1
