"""laocheck._execution without a cluster: glibc's malloc thresholds during a task.

A process whose environment fixes ``MALLOC_TRIM_THRESHOLD_`` (as every Dask worker's does) serves
each large temporary with a fresh ``mmap`` unless laocheck raises the thresholds for the task;
the tests observe it through glibc's ``mallinfo2().hblks`` (the count of mmapped blocks) in a
fresh interpreter, the only place where the environment variable takes effect.
"""
import os
import subprocess
import sys
import textwrap


from laocheck import _execution

# One fresh interpreter: whether a new 4 MiB array is mmapped outside a task, inside a task
# (laocheck's _call) and outside again, as "True False True".
PROBE = textwrap.dedent("""
    import ctypes
    import numpy as np
    from laocheck import _execution

    class MallInfo2(ctypes.Structure):
        _fields_ = [(n, ctypes.c_size_t) for n in (
            "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost").split()]

    libc = ctypes.CDLL(None)
    libc.mallinfo2.restype = MallInfo2

    def mmapped():
        before = libc.mallinfo2().hblks
        a = np.ones(2**19)
        grew = libc.mallinfo2().hblks > before
        del a
        return grew

    print(mmapped(), _execution._call(mmapped), mmapped())
""")


def _probe(**env):
    clean = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    out = subprocess.run([sys.executable, "-c", PROBE], env={**clean, **env},
                         capture_output=True, text=True, check=True)
    return out.stdout.split()


try:
    GLIBC = bool(os.confstr("CS_GNU_LIBC_VERSION"))
except (ValueError, OSError):     # a C library without that name: not glibc
    GLIBC = False


def test_a_task_gets_large_arrays_from_the_heap_where_the_environment_fixed_thresholds():
    """Dask's default worker environment (MALLOC_TRIM_THRESHOLD_=65536): a 4 MiB array is
    mmapped outside a task, not inside one, and is mmapped again once the task has ended (the
    environment's thresholds restored). (On another C library laocheck leaves malloc alone:
    test_thresholds_are_read_from_the_environment.)"""
    if not GLIBC:
        return
    assert _probe(MALLOC_TRIM_THRESHOLD_="65536") == ["True", "False", "True"]
    assert _probe(MALLOC_MMAP_THRESHOLD_="131072") == ["True", "False", "True"]


def test_malloc_is_left_alone_without_such_a_variable():
    """No variable: glibc's dynamic threshold is on and laocheck changes nothing (the first
    4 MiB array is mmapped, then the raised dynamic threshold keeps later ones on the heap)."""
    if not GLIBC:
        return
    assert _probe() == ["True", "False", "False"]


def test_thresholds_are_read_from_the_environment(monkeypatch):
    monkeypatch.delenv("MALLOC_TRIM_THRESHOLD_", raising=False)
    monkeypatch.delenv("MALLOC_MMAP_THRESHOLD_", raising=False)
    assert _execution._fixed_malloc_thresholds() is None
    monkeypatch.setenv("MALLOC_TRIM_THRESHOLD_", "65536")
    fixed = _execution._fixed_malloc_thresholds()
    if GLIBC:
        assert fixed[1:] == (65536, _execution._GLIBC_DEFAULT_THRESHOLD)
    else:
        assert fixed is None
    monkeypatch.setenv("MALLOC_TRIM_THRESHOLD_", "not a number")
    assert _execution._fixed_malloc_thresholds() is None


def test_nested_and_concurrent_tasks_restore_once(monkeypatch):
    """The thresholds are raised by the first running task and restored by the last one."""
    calls = []

    class FakeLibc:
        def mallopt(self, param, value):
            calls.append((param, value))
            return 1

        def malloc_trim(self, pad):
            calls.append(("trim", pad))
            return 1

    monkeypatch.setattr(_execution._MallocState, "read", True)
    monkeypatch.setattr(_execution._MallocState, "fixed", (FakeLibc(), 65536, 131072))
    monkeypatch.setattr(_execution._MallocState, "running", 0)
    with _execution._array_friendly_malloc():
        with _execution._array_friendly_malloc():
            assert _execution._MallocState.running == 2
        assert len(calls) == 2                      # raised once, not restored yet
    assert calls == [(-3, _execution.TASK_MMAP_THRESHOLD), (-1, _execution.TASK_TRIM_THRESHOLD),
                     (-3, 131072), (-1, 65536), ("trim", 0)]
    assert _execution._MallocState.running == 0
