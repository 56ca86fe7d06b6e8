"""Robustness, fourth round (issue 48, users' side): files, data and the leftovers.

* A write that fails (a full disk ``ENOSPC``, a file over the size limit ``EFBIG``, a read-only
  directory) is one line naming the file and the OS error, exit status 2, and leaves no
  partial file: the target is absent or its old complete version, no temporary file remains.
  The full disk is simulated by making ``os.write`` / ``os.fsync`` / ``os.replace`` fail (a
  tmpfs needs a mount), ``EFBIG`` for real by ``RLIMIT_FSIZE`` in a subprocess.
* A ``.npy`` header is checked against the file's size before anything is allocated; an IDX
  header against a cap, the gzip trailer and numpy's dimension limit before anything is
  inflated; ``load_idx`` refuses a file descriptor without touching it.
* ``laocheck baseline`` runs on the README's own sampler (its ``target`` written for numpy
  arrays, its ``sample`` returning a ``(values, attributes)`` tuple).
* The hypothesis strategies never yield a non-finite vector, whatever the finite bound.
* ``accumulate`` stops on Ctrl-C; the literal references refuse a numpy ``Generator`` with a
  message saying what to pass.

The CLI runs in-process (``laocheck.cli.main``) except where a resource limit or a signal
needs a process of its own.
"""
import contextlib
import errno
import gzip
import io
import json
import math
import os
import resource
import signal
import struct
import subprocess
import sys
import tracemalloc
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numpy.lib import format as npy_format

from laocheck import _io
from laocheck._files import read_npy
from laocheck._io import WriteError, atomic_directory, write_json_atomic, write_text_atomic
from laocheck.cli import main
from laocheck.data import idx as idx_module
from laocheck.data.idx import MAX_NDIM, load_idx
from laocheck.estimators import get as get_estimator
from laocheck.exceptions import InvalidParameterError
from laocheck.reference import estimators as ref
from laocheck.reference import learners as ref_learners
from laocheck.stats.exact import RandomSource
from laocheck.testing import strategies

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])
#: one cheap check of the catalog (a sympy identity, milliseconds)
CHECK = "KS15.LemmaB.4"


def run_cli(argv, cwd=None):
    """(exit status, stdout, stderr) of ``laocheck argv`` run in this process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.ExitStack() as stack:
        if cwd is not None:
            stack.enter_context(contextlib.chdir(cwd))
        stack.enter_context(contextlib.redirect_stdout(out))
        stack.enter_context(contextlib.redirect_stderr(err))
        stack.enter_context(warnings.catch_warnings())
        warnings.simplefilter("ignore")
        try:
            code = main([str(a) for a in argv])
        except SystemExit as exc:
            code = exc.code
    return code, out.getvalue(), err.getvalue()


def one_error_line(err):
    lines = [line for line in err.splitlines() if line.strip() and ": 0/" not in line
             and "elapsed" not in line]             # progress lines are not errors
    assert len(lines) == 1 and "error:" in lines[0] and "Traceback" not in err, err
    return lines[0]


def listing(folder):
    return sorted(p.name for p in Path(folder).iterdir())


# --- 1. write failures ----------------------------------------------------------------------------

def _path_of(fd):
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return ""


@pytest.fixture
def full_disk(monkeypatch):
    """``full_disk(name)``: from now on, ``os.write`` to a file whose name contains ``name``
    fails with ENOSPC after writing ``partial`` bytes once (a disk filling up mid-write)."""
    real_write = os.write

    def arm(name, partial=10, err=errno.ENOSPC):
        state = {"partial": partial}

        def write(fd, data):
            if fd > 2 and name in _path_of(fd):
                if state["partial"]:
                    n, state["partial"] = state["partial"], 0
                    return real_write(fd, bytes(data[:n]))
                raise OSError(err, os.strerror(err))
            return real_write(fd, data)
        monkeypatch.setattr(os, "write", write)
    return arm


@pytest.mark.parametrize("old", [None, "the old complete file\n"])
@pytest.mark.parametrize("step", ["write", "fsync", "replace", "chmod"])
def test_a_failed_write_leaves_the_old_file_or_nothing(tmp_path, monkeypatch, full_disk, step,
                                                       old):
    target = tmp_path / "results.json"
    if old is not None:
        target.write_text(old)
    failure = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    if step == "write":
        full_disk("results.json")
    else:
        def fail(*args, **kwargs):
            raise failure
        monkeypatch.setattr(os, step, fail)
    with pytest.raises(WriteError) as info:
        write_json_atomic(target, {"records": list(range(10_000))})
    monkeypatch.undo()
    message = str(info.value)
    assert "\n" not in message and str(target) in message
    assert "No space left on device" in message and info.value.errno == errno.ENOSPC
    assert isinstance(info.value, OSError) and isinstance(info.value, InvalidParameterError)
    assert listing(tmp_path) == ([] if old is None else ["results.json"])  # no temporary file
    if old is not None:
        assert target.read_text() == old


def test_efbig_is_one_line_and_no_file(tmp_path):
    """A file over RLIMIT_FSIZE (EFBIG: Python ignores SIGXFSZ) in a process of its own."""
    code = ("import resource, sys\n"
            "resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))\n"
            "from laocheck._io import WriteError, write_text_atomic\n"
            "try:\n"
            "    write_text_atomic(sys.argv[1], 'x' * 100_000)\n"
            "except WriteError as exc:\n"
            "    print(exc)\n")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "big.txt")],
                         capture_output=True, text=True, timeout=120,
                         env=dict(os.environ))
    assert out.returncode == 0, out.stderr
    assert "File too large" in out.stdout and "big.txt" in out.stdout, out.stdout
    assert listing(tmp_path) == []


def test_a_read_only_directory_is_one_line(tmp_path, monkeypatch):
    """The temporary file cannot be created (EROFS; root ignores a chmod, so simulated)."""
    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))
    monkeypatch.setattr(_io.tempfile, "mkstemp", read_only)
    with pytest.raises(WriteError, match=r"cannot write .*out\.txt.*Read-only file system"):
        write_text_atomic(tmp_path / "out.txt", "text")
    monkeypatch.setattr(_io.tempfile, "mkdtemp", read_only)
    with pytest.raises(WriteError, match=r"cannot write .*report.*Read-only file system"):
        with atomic_directory(tmp_path / "report"):
            pass
    assert listing(tmp_path) == []


@pytest.mark.parametrize("existing", [False, True])
def test_a_report_directory_on_a_full_disk_is_left_as_it_was(tmp_path, full_disk, existing):
    target = tmp_path / "report"
    if existing:
        target.mkdir()
        (target / "index.html").write_text("old")
    full_disk("index.html", partial=0)
    with pytest.raises(WriteError) as info:
        with atomic_directory(target) as tmp:
            write_text_atomic(tmp / "report.md", "fits")
            write_text_atomic(tmp / "index.html", "<p>" * 1000)
    message = str(info.value)
    assert "\n" not in message and repr(str(target)) in message and ".tmp" not in message
    assert listing(tmp_path) == (["report"] if existing else [])
    if existing:
        assert listing(target) == ["index.html"] and (target / "index.html").read_text() == "old"


def test_verify_json_on_a_full_disk_exits_2_in_one_line(tmp_path, full_disk):
    """`laocheck verify --json F` on a full disk: one line naming F, exit 2 (not 1, the FAIL
    status), no F and no temporary file; the results log keeps only complete lines."""
    target = tmp_path / "v.json"
    full_disk(".v.json.")                               # the temporary file of v.json
    code, _, err = run_cli(["verify", "--only", CHECK, "--json", target, "--no-progress"])
    assert code == 2, err
    line = one_error_line(err)
    assert "v.json" in line and "No space left on device" in line
    assert listing(tmp_path) == ["v.results.jsonl"]
    for row in (tmp_path / "v.results.jsonl").read_text().splitlines():
        json.loads(row)


def test_a_results_log_on_a_full_disk_keeps_complete_lines(tmp_path, full_disk):
    target = tmp_path / "v.json"
    full_disk("v.results.jsonl", partial=25)            # cut inside the first line
    code, _, err = run_cli(["verify", "--only", CHECK, "--json", target, "--no-progress"])
    assert code == 2, err
    line = one_error_line(err)
    assert "v.results.jsonl" in line and "No space left on device" in line
    assert "nothing was written there" in line
    assert listing(tmp_path) == []          # the cut first line and the empty log: no file left


# --- 2. .npy headers ------------------------------------------------------------------------------

def _npy(path, shape, descr="<f8", body=b"", fortran=False):
    buf = io.BytesIO()
    npy_format.write_array_header_1_0(buf, {"descr": descr, "fortran_order": fortran,
                                            "shape": shape})
    path.write_bytes(buf.getvalue() + body)
    return path


def test_a_200_byte_npy_declaring_a_huge_array_is_refused_before_allocating(tmp_path):
    path = _npy(tmp_path / "X.npy", (10**9, 100))
    path.write_bytes(path.read_bytes().ljust(200, b"\0"))
    assert path.stat().st_size == 200
    tracemalloc.start()
    try:
        with pytest.raises(InvalidParameterError, match=r"declares shape \(1000000000, 100\)"):
            read_npy(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2**20
    code, _, err = run_cli(["bounds", "--rho", "--data", path])
    assert code == 2 and "declares shape (1000000000, 100)" in one_error_line(err)


def test_npy_files_load_as_saved_and_never_unpickle(tmp_path):
    X = np.arange(12.0).reshape(3, 4)
    for name, arr in (("c.npy", X), ("f.npy", np.asfortranarray(X)),
                      ("i.npy", np.arange(6, dtype=">i4").reshape(2, 3))):
        np.save(tmp_path / name, arr)
        got = read_npy(tmp_path / name)
        assert np.array_equal(got, arr) and got.dtype == arr.dtype
    np.save(tmp_path / "obj.npy", np.array([{"a": 1}], dtype=object), allow_pickle=True)
    with pytest.raises(InvalidParameterError, match="never loads pickled"):
        read_npy(tmp_path / "obj.npy")
    (tmp_path / "junk.npy").write_bytes(b"PK\x03\x04 not an npy")
    with pytest.raises(InvalidParameterError, match="not a valid .npy file"):
        read_npy(tmp_path / "junk.npy")


@SETTINGS
@given(shape=st.lists(st.integers(0, 2**40), max_size=3), extra=st.integers(-64, 64))
def test_any_npy_header_loads_or_is_refused_in_one_line(tmp_path, shape, extra):
    need = math.prod(shape) * 8
    body = bytes(max(0, min(need, 4096) + extra))
    path = _npy(tmp_path / "h.npy", tuple(shape), body=body)
    try:
        arr = read_npy(path)
    except InvalidParameterError as exc:
        assert "\n" not in str(exc)
        assert need != len(body)
    else:
        assert arr.shape == tuple(shape) and need == len(body)


# --- 3. IDX ---------------------------------------------------------------------------------------

def _idx_header(dims, code=0x08):
    return bytes([0, 0, code, len(dims)]) + b"".join(struct.pack(">I", d) for d in dims)


@pytest.fixture
def inflated(monkeypatch):
    """The number of decompressed bytes gzip handed out (GzipFile.read counted)."""
    count = {"bytes": 0}
    real = gzip.GzipFile.read

    def read(self, size=-1):
        out = real(self, size)
        count["bytes"] += len(out)
        return out
    monkeypatch.setattr(gzip.GzipFile, "read", read)
    return count


def test_a_padded_gzip_is_refused_before_inflating(tmp_path, inflated):
    """Issue 48: a 254 KB gzip that inflates to 269 MB: the gzip trailer's size is compared
    with the header's promise before the body is inflated."""
    path = tmp_path / "bomb.gz"
    with gzip.open(path, "wb", compresslevel=9) as fh:
        fh.write(_idx_header([10, 28, 28]) + bytes(10 * 28 * 28))
        for _ in range(64):
            fh.write(bytes(2**20))
    assert path.stat().st_size < 2**18
    with pytest.raises(InvalidParameterError, match="trailer gives the decompressed size"):
        load_idx(path)
    assert inflated["bytes"] <= 16                     # the magic number and the dimensions


def test_a_header_beyond_max_bytes_is_refused_before_inflating(tmp_path, inflated):
    path = tmp_path / "big.gz"
    path.write_bytes(gzip.compress(_idx_header([60000, 28, 28]) + bytes(60000 * 784)))
    with pytest.raises(InvalidParameterError, match="more than max_bytes=1000000"):
        load_idx(path, max_bytes=10**6)
    assert inflated["bytes"] <= 16
    assert load_idx(path, max_bytes=60000 * 784).shape == (60000, 28, 28)
    with pytest.raises(InvalidParameterError, match="`max_bytes` must"):
        load_idx(path, max_bytes=0)


def test_load_idx_refuses_a_file_descriptor_without_touching_it(tmp_path):
    path = tmp_path / "labels.idx"
    path.write_bytes(_idx_header([3]) + b"\x01\x02\x03")
    fd = os.open(path, os.O_RDONLY)
    try:
        with pytest.raises(InvalidParameterError, match="file descriptor is not accepted"):
            load_idx(fd)
        assert os.lseek(fd, 0, os.SEEK_CUR) == 0       # not read, and still open
        assert os.read(fd, 4) == b"\x00\x00\x08\x01"
    finally:
        os.close(fd)
    with open(path, "rb") as fh, pytest.raises(InvalidParameterError, match="a file path"):
        load_idx(fh)
    assert load_idx(path).tolist() == [1, 2, 3]


@pytest.mark.parametrize("ndim", [MAX_NDIM + 1, 64, 65, 255])
def test_too_many_dimensions_are_laochecks_own_error(tmp_path, ndim):
    path = tmp_path / "many.idx"
    path.write_bytes(_idx_header([1] * ndim) + b"\x07")   # a consistent file of one item
    with pytest.raises(InvalidParameterError, match=f"announces {ndim} dimensions, more than"):
        load_idx(path)
    path.write_bytes(_idx_header([1] * MAX_NDIM) + b"\x07")
    assert load_idx(path).shape == (1,) * MAX_NDIM


# --- 4. the README's sampler (section 2), as a user's module ----------------------------------------

README_SAMPLER = '''
import numpy as np

SCALE = lambda d: d            # the bug to plant: lambda d: d - 1

class RidgeGradient:                     # HK12 Alg. 1, lines 3-10, as you would write it
    k, budget = 2, 3
    def target(self, w, x, y):
        return (w @ x - y) * x
    def sample(self, w, x, y, n=1, rng=None):
        d = len(x)
        idx = rng.integers(d, size=(n, self.k))
        xt = np.zeros((n, d), dtype=x.dtype)
        for r in range(self.k):
            xt[np.arange(n), idx[:, r]] += x[idx[:, r]] * SCALE(d) / self.k
        s = w @ w
        j = rng.choice(d, size=n, p=w * w / s) if s > 0 else np.zeros(n, dtype=int)
        phi = s * x[j] / w[j] - y if s > 0 else np.full(n, -y)
        seen = [len(set(a) | {b}) for a, b in zip(idx.tolist(), j.tolist())]
        return phi[:, None] * xt, np.array(seen)

def make():
    return RidgeGradient()
'''


@pytest.fixture
def readme_sampler(tmp_path):
    """(folder, module, MODULE:make) of the README's RidgeGradient in a fresh module."""
    name = f"readme_ridge_{abs(hash(str(tmp_path))) % 10**8}"
    (tmp_path / f"{name}.py").write_text(README_SAMPLER)
    sys.path.insert(0, str(tmp_path))
    try:
        yield tmp_path, name, f"{name}:make"
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop(name, None)


def _plant_bug(name):
    sys.modules[name].SCALE = lambda d: d - 1      # (d - 1)/k: the README's planted bug


def test_baseline_compare_judges_the_readme_sampler(readme_sampler):
    """`baseline compare` called the sampler's target with Python lists (TypeError)."""
    folder, name, target = readme_sampler
    claims = '{"unbiased": true}'
    code, out, err = run_cli(["baseline", "save", "ridge", "--estimator", target, "--claims",
                              claims, "--dir", folder / "b"])
    assert code == 0, err
    code, out, err = run_cli(["baseline", "compare", "ridge", "--estimator", target,
                              "--claims", claims, "--dir", folder / "b"])
    assert code == 0 and out.count("SAME DISTRIBUTION") == 4, (out, err)
    _plant_bug(name)
    code, out, err = run_cli(["baseline", "compare", "ridge", "--estimator", target,
                              "--claims", claims, "--dir", folder / "b"])
    assert code == 1 and "Traceback" not in err, err
    d3 = next(line for line in out.splitlines() if line.startswith("d3"))
    assert "BROKEN  claim unbiased" in d3
    # the README's counterexample: mean ['3/16', '-1/8', '1/16'], target ['9/32', '-3/16', '3/32']
    assert '"target": ["9/32", "-3/16", "3/32"]' in d3 and '"3/16", "-1/8", "1/16"' in d3


def test_baseline_save_sampled_takes_the_documented_tuple(readme_sampler):
    """`baseline save --sampled` read `.values` of the `(values, attributes)` tuple."""
    folder, name, target = readme_sampler
    claims = '{"unbiased": true, "second_moment": "HK12.Lemma3.3.G2"}'
    args = ["--estimator", target, "--claims", claims, "--dir", folder / "b"]
    code, out, err = run_cli(["baseline", "save", "ridge", "--sampled", *args])
    assert code == 0, err
    doc = json.loads((folder / "b" / "ridge.json").read_text())
    assert {fp["kind"] for fp in doc["instances"].values()} == {"sampled"}
    code, out, err = run_cli(["baseline", "compare", "ridge", *args])
    assert code == 0 and out.count("SAME DISTRIBUTION") == 4, (out, err)
    _plant_bug(name)
    code, out, err = run_cli(["baseline", "compare", "ridge", *args])
    assert code == 1 and "BROKEN" in out and "Traceback" not in err, (out, err)


def test_baseline_save_on_a_full_disk_exits_2(readme_sampler, full_disk):
    folder, name, target = readme_sampler
    full_disk(".ridge.json.", partial=0)
    code, _, err = run_cli(["baseline", "save", "ridge", "--estimator", target, "--claims",
                            '{"unbiased": true}', "--dir", folder / "b"])
    assert code == 2
    assert "No space left on device" in one_error_line(err)
    assert listing(folder / "b") == []


def test_baseline_save_over_the_file_size_limit_exits_2(readme_sampler):
    """EFBIG for real: `laocheck baseline save` under RLIMIT_FSIZE (a process of its own)."""
    folder, name, target = readme_sampler

    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (2048, 2048))
    out = subprocess.run(
        [sys.executable, "-m", "laocheck", "baseline", "save", "ridge", "--estimator", target,
         "--claims", '{"unbiased": true}', "--dir", str(folder / "b")],
        capture_output=True, text=True, timeout=600, preexec_fn=limit, cwd=folder,
        env={**os.environ, "PYTHONPATH": str(folder),
             "PYTHONDONTWRITEBYTECODE": "1"})
    assert out.returncode == 2, out.stderr
    line = one_error_line(out.stderr)
    assert "ridge.json" in line and "File too large" in line
    assert listing(folder / "b") == []


# --- 5. strategies --------------------------------------------------------------------------------

@SETTINGS
@given(bound=st.floats(min_value=5e-324, max_value=np.finfo(np.float64).max),
       norm=st.sampled_from(["l1", "l2"]), data=st.data())
def test_strategies_yield_finite_vectors_within_any_finite_bound(bound, norm, data):
    w = data.draw(strategies.weight_vectors(4, norm=norm, bound=bound))
    assert np.all(np.isfinite(w))
    size = math.fsum(abs(w)) if norm == "l1" else math.hypot(*w)
    assert size <= bound
    w, x, y, B = data.draw(strategies.problem_instances(max_d=4, norm=norm, bound=bound))
    assert np.all(np.isfinite(w)) and np.all(np.isfinite(x)) and math.isfinite(y)
    assert abs(y) <= B == bound


@pytest.mark.parametrize("bound", [math.inf, -math.inf, math.nan, 10**400, 0, -1.0, True, "1"])
def test_strategies_refuse_non_finite_bounds(bound):
    with pytest.raises(InvalidParameterError, match="`bound` must be a finite number > 0"):
        strategies.weight_vectors(3, bound=bound)
    with pytest.raises(InvalidParameterError, match="`bound` must be"):
        strategies.problem_instances(bound=bound)


def test_strategies_at_the_largest_bound_reach_it():
    """Not only finite: at bound 1e308 the vectors are as large as the ball allows."""
    largest = {"size": 0.0}

    @settings(max_examples=50, derandomize=True, database=None, deadline=None)
    @given(strategies.weight_vectors(3, bound=1e308))
    def draw(w):
        largest["size"] = max(largest["size"], math.hypot(*w))
    draw()
    assert 1e307 < largest["size"] <= 1e308


# --- 6. accumulate and Ctrl-C ---------------------------------------------------------------------

ACCUMULATE = """
import sys, numpy as np
from laocheck.checks.algorithms.estimator_properties import catalog_params
from laocheck.estimators import get, spec_of
from laocheck.estimators.instances import INSTANCES, as_float
est = get(sys.argv[1], **catalog_params(spec_of(sys.argv[1])))
w, x, y = as_float(INSTANCES["d4"])
print("started", flush=True)
try:
    est.accumulate(w, x, y, n=10**10, rng=np.random.default_rng(0))
except KeyboardInterrupt:
    print("KeyboardInterrupt", flush=True)
"""


#: one estimator per kernel family (ImportanceEstimator, AER, Baseline, GenEst, AESVR)
@pytest.mark.parametrize("name", ["KS15.DDAERR.gradient", "CB11.AER.gradient",
                                  "CB11.Baseline.loss", "HK12.GenEst.derivative",
                                  "HK12.AESVR.gradient"])
def test_accumulate_stops_on_sigint(name):
    """Issue 48 (left from issue 36): a process running accumulate(n=10**10) and sent SIGINT
    after a second ends with KeyboardInterrupt (the guard timeout is not a timed assertion:
    10^10 draws take minutes)."""
    proc = subprocess.Popen([sys.executable, "-c", ACCUMULATE, name],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ),
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert proc.stdout.readline().strip() == "started"
        proc.poll()
        assert proc.returncode is None
        subprocess.run(["sleep", "1"], check=True)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert out.strip() == "KeyboardInterrupt", (out, err)


def test_accumulate_beyond_its_bound_is_refused_in_one_line():
    est = get_estimator("HK12.AERR.gradient", k=2)
    w = np.full(4, 0.25)
    with pytest.raises(InvalidParameterError, match="`n` must satisfy 1 <= n <= 10000000000"):
        est.accumulate(w, w, 0.125, n=10**11, rng=0)
    with pytest.raises(InvalidParameterError, match="`n` must be an integer"):
        est.accumulate(w, w, 0.125, n=1e11, rng=0)


# --- 7. the literal references and a numpy Generator ----------------------------------------------

W, X = np.array([0.5, -0.25, 0.25, 0.5]), np.array([0.25, 0.5, -0.5, 0.25])
REFERENCE_CALLS = {
    "cb11_baseline": lambda src: ref.cb11_baseline(X, 0.5, 2, src),
    "cb11_aer": lambda src: ref.cb11_aer(W, X, 0.5, 2, src),
    "hk12_gradient": lambda src: ref.hk12_gradient(W, X, 0.5, 2, src),
    "hk12_genest": lambda src: ref.hk12_genest(W, X, 0.5, [0.0, 1.0], 1.0, src),
    "ks15_gradient": lambda src: ref.ks15_gradient(W, X, 0.5, 2, np.full(4, 0.25), src),
    "gaerr": lambda src: ref_learners.gaerr(np.array([X, X]), np.array([0.5, -0.5]), 2, 1.0,
                                            0.1, np.zeros(4), src),
}


@pytest.mark.parametrize("name", sorted(REFERENCE_CALLS))
def test_references_refuse_a_generator_and_say_what_to_pass(name):
    """A Generator raised AttributeError deep inside; hk12_genest would even have drawn from
    numpy's own geometric (support from 1, the reference's from 0)."""
    call = REFERENCE_CALLS[name]
    with pytest.raises(InvalidParameterError, match=r"`src` must be a randomness source.*"
                       r"RandomSource\(rng\).*got a numpy Generator"):
        call(np.random.default_rng(0))
    value, observed = call(RandomSource(np.random.default_rng(0)))
    assert np.all(np.isfinite(np.asarray(value, dtype=float)))
