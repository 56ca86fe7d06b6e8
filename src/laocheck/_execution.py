"""Where laocheck's independent tasks run: on this machine (joblib) or on a Dask cluster.

One function chooses, :func:`executor`: a scheduler address (``laocheck verify --scheduler
ADDRESS``, the ``scheduler=`` argument of the experiments) or, when none is given, the
environment variable ``LAOCHECK_SCHEDULER`` selects a Dask ``distributed`` cluster; otherwise
the tasks run here, in joblib processes (``jobs > 1``) or in this process (``jobs = 1``).
``laocheck verify`` submits one task per check; :func:`laocheck.experiments.replicate` one task
per block of replicates of one configuration (:meth:`Executor.blocks`).

Same seed, same numbers: a task's randomness comes only from its arguments (numpy SeedSequence
children keyed by the task: a check's id, a replicate's index), never from where or when it
runs, so every executor gives identical results. A task started inside another task runs
serially inside it (a check that runs replicates on a worker does not submit to the cluster
again, and joblib workers do not start joblib workers).

Faults:

* a task lost with a Dask worker is recomputed on another worker by the scheduler; its result
  depends only on its arguments, so it is identical;
* a task that raises (or kills every worker it is tried on: Dask's ``KilledWorker``) gives an
  :class:`Outcome` carrying the traceback from :meth:`Executor.imap_unordered`; the caller
  decides what it means (``laocheck verify``: that check's FAIL). :meth:`Executor.map`
  re-raises it instead;
* losing the scheduler (or not reaching it) raises :class:`SchedulerError`, naming the address.

Resumable output: :class:`ResultLog` appends one JSON line per finished task to a file, flushed
as the task finishes, and reads it back keyed by (task key, laocheck version), so an interrupted
run continues where it stopped.

Memory allocation inside tasks: laocheck's checks make many large, short-lived NumPy
temporaries (an m × d sample per replicate). glibc serves a freed block's size again from its
heap only while its *dynamic* mmap threshold is on; setting ``MALLOC_TRIM_THRESHOLD_`` or
``MALLOC_MMAP_THRESHOLD_`` in the environment turns it off, and a Dask nanny sets
``MALLOC_TRIM_THRESHOLD_=65536`` in every worker it starts (Dask's config
``distributed.nanny.pre-spawn-environ``). Every temporary over 128 KiB is then a fresh ``mmap``
whose pages fault in one by one, and the replicate-heavy checks run 2-3× slower on a Dask worker
than in a joblib process. So while a task runs in a process whose environment fixes those
thresholds (:func:`_array_friendly_malloc`), laocheck raises them with ``mallopt`` (mmap threshold
32 MiB, trim threshold 256 MiB) and restores the environment's values, then ``malloc_trim(0)``,
when the process's last running task ends: between tasks the worker keeps the memory behaviour
its operator chose. Elsewhere (another C library, no such variable) nothing is changed.

Written here rather than taken from a library, and why: the JSON-lines log (a few lines; neither
joblib nor distributed keeps results in a user's file across runs), the choice between the
two executors, and the ``mallopt`` calls above (no maintained library sets glibc's thresholds
for the duration of a task). Scheduling, retries on lost workers and transport are joblib's and distributed's.
``dask`` and ``distributed`` are optional (``pip install 'laocheck[distributed]'``).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import contextvars
import ctypes
import json
import math
import os
import threading
import time
import traceback
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ._files import parse_json, read_text
from ._io import check_output_path, write_error, write_text_atomic
from ._version import __version__
from .exceptions import InvalidParameterError, LaocheckError

__all__ = ["ENV_SCHEDULER", "Outcome", "SchedulerError", "Executor", "LocalExecutor",
           "DaskExecutor", "executor", "scheduler_address", "in_task", "ResultLog"]

#: environment variable naming the Dask scheduler when no address is passed
ENV_SCHEDULER = "LAOCHECK_SCHEDULER"

#: tasks per worker thread when work is cut into blocks (load balance against per-task overhead)
BLOCKS_PER_WORKER = 4

#: seconds to wait for the scheduler when connecting
CONNECT_TIMEOUT = 20

# what the client raises when the scheduler is gone: its comm closed (an OSError), a timeout,
# or our futures cancelled (laocheck never cancels its own tasks; the client cancels them all
# when it loses the scheduler)
_LOST = (OSError, TimeoutError, concurrent.futures.CancelledError)

_IN_TASK = contextvars.ContextVar("laocheck_in_task", default=False)


class SchedulerError(LaocheckError, RuntimeError):
    """The Dask scheduler cannot be reached, or was lost during the run."""


@dataclass(frozen=True)
class Outcome:
    """One finished task of :meth:`Executor.imap_unordered`.

    ``index``: its position in the submitted list; ``value``: its return value (None when it
    failed); ``error``: the traceback text when it raised or was lost for good, else None;
    ``running``: how many tasks of the batch were running when it finished (for progress)."""

    index: int
    value: Any = None
    error: str | None = None
    running: int = 0


def in_task():
    """True inside a task started by an executor (nested work then runs serially)."""
    return _IN_TASK.get()


# glibc's mallopt parameters (malloc.h) and the values laocheck uses during its tasks
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
TASK_MMAP_THRESHOLD = 32 * 2**20       # glibc's largest: HEAP_MAX_SIZE / 2 on 64-bit systems
TASK_TRIM_THRESHOLD = 256 * 2**20
_GLIBC_DEFAULT_THRESHOLD = 128 * 2**10  # both thresholds' glibc default (DEFAULT_MMAP_THRESHOLD_MIN)


def _fixed_malloc_thresholds():
    """``(libc, trim, mmap)``: the thresholds this process's environment fixed for glibc's
    malloc (so its dynamic mmap threshold is off), or None when it fixed none, when the C
    library is not glibc, or when a value cannot be read (then laocheck leaves malloc alone)."""
    names = ("MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_")
    if not any(name in os.environ for name in names):
        return None
    try:
        if not os.confstr("CS_GNU_LIBC_VERSION"):
            return None
        trim, mmap = (int(os.environ.get(name, _GLIBC_DEFAULT_THRESHOLD)) for name in names)
        libc = ctypes.CDLL(None)
        libc.mallopt, libc.malloc_trim  # noqa: B018 - both must exist
    except (ValueError, OSError, AttributeError):
        return None
    return libc, trim, mmap


class _MallocState:
    lock = threading.Lock()
    running = 0
    fixed = None
    read = False


@contextlib.contextmanager
def _array_friendly_malloc():
    """While at least one task runs in this process: glibc's mmap and trim thresholds at
    :data:`TASK_MMAP_THRESHOLD` / :data:`TASK_TRIM_THRESHOLD` when the environment had fixed
    them (see the module docstring); the environment's values and a ``malloc_trim(0)`` when
    the last running task ends. A no-op where the environment fixes neither."""
    state = _MallocState
    with state.lock:
        if not state.read:
            state.fixed, state.read = _fixed_malloc_thresholds(), True
        if state.fixed is not None and state.running == 0:
            libc = state.fixed[0]
            libc.mallopt(_M_MMAP_THRESHOLD, TASK_MMAP_THRESHOLD)
            libc.mallopt(_M_TRIM_THRESHOLD, TASK_TRIM_THRESHOLD)
        state.running += 1
    try:
        yield
    finally:
        with state.lock:
            state.running -= 1
            if state.fixed is not None and state.running == 0:
                libc, trim, mmap = state.fixed
                libc.mallopt(_M_MMAP_THRESHOLD, mmap)
                libc.mallopt(_M_TRIM_THRESHOLD, trim)
                libc.malloc_trim(0)


def _call(fn, *args):
    token = _IN_TASK.set(True)
    try:
        with _array_friendly_malloc():
            return fn(*args)
    finally:
        _IN_TASK.reset(token)


def _guarded(fn, *args):
    """``(True, fn(*args))``, or ``(False, traceback)`` when it raises: a raising task is a
    result, never the end of the batch."""
    token = _IN_TASK.set(True)
    try:
        with _array_friendly_malloc():
            return True, fn(*args)
    except Exception:
        return False, traceback.format_exc()
    finally:
        _IN_TASK.reset(token)


def _value(value):
    """A task holding ``value`` (shared arguments on Dask: recomputable, unlike scattered data)."""
    return value


def _noted(value, on_result):
    """``value``, after telling ``on_result`` (if any) that one more result has arrived."""
    if on_result is not None:
        on_result()
    return value


def _indexed(index, fn, *args):
    return index, _guarded(fn, *args)


def scheduler_address(scheduler=None):
    """The Dask scheduler to use: ``scheduler`` if given, else ``$LAOCHECK_SCHEDULER``, else
    None (run here). Inside a task always None."""
    if in_task():
        return None
    if scheduler is None:
        scheduler = os.environ.get(ENV_SCHEDULER) or None
    if scheduler is None:
        return None
    if not isinstance(scheduler, str) or not scheduler.strip():
        raise InvalidParameterError(
            f"`scheduler` must be a Dask scheduler address such as 'tcp://HOST:8786'; "
            f"got scheduler={scheduler!r}.")
    return scheduler.strip()


def executor(jobs=1, scheduler=None):
    """The executor for this run: Dask at :func:`scheduler_address` (``scheduler``, or
    ``$LAOCHECK_SCHEDULER``) when there is one, else joblib with ``jobs`` processes (-1: all
    cores; 1: this process). Inside a task: always this process, serially."""
    address = scheduler_address(scheduler)
    if address is not None:
        return DaskExecutor(address)
    return LocalExecutor(1 if in_task() else jobs)


class Executor:
    """Runs independent tasks ``fn(*shared, *args)``; use as a context manager."""

    kind = "abstract"

    def workers(self):
        """Worker threads available (for sizing blocks)."""
        raise NotImplementedError

    def blocks(self, n):
        """Cut ``range(n)`` into contiguous (start, stop) blocks: one block here with one
        worker, else about :data:`BLOCKS_PER_WORKER` per worker, never empty."""
        if n <= 0:
            return []
        w = self.workers()
        count = 1 if w <= 1 else min(n, BLOCKS_PER_WORKER * w)
        size = math.ceil(n / max(count, 1))
        return [(a, min(a + size, n)) for a in range(0, n, size)]

    def map(self, fn, arglist, shared=(), on_result=None):
        """``[fn(*shared, *args) for args in arglist]`` in order; the first failure raises.
        ``on_result`` (optional) is called with no argument once per task whose result has
        arrived (for progress lines; results still come back in order)."""
        raise NotImplementedError

    def imap_unordered(self, fn, arglist, names=None):
        """:class:`Outcome` of ``fn(*args)`` for each ``args`` of ``arglist``, as tasks finish;
        a task that raises gives an Outcome with its traceback."""
        raise NotImplementedError

    def describe(self):
        return self.kind

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


#: Memory one joblib worker process takes (bytes; about 156 MB measured for a catalog check):
#: no more workers start than the available memory holds
WORKER_MEMORY = 200 * 2**20


class LocalExecutor(Executor):
    """This machine: joblib processes (loky) for ``jobs != 1``, this process for ``jobs == 1``."""

    kind = "local"

    def __init__(self, jobs=1):
        if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs == 0 or jobs < -1:
            raise InvalidParameterError(
                f"`jobs` must be an integer >= 1 or -1 (all cores); got jobs={jobs!r}.")
        self.jobs = jobs

    def workers(self):
        return (os.cpu_count() or 1) if self.jobs == -1 else self.jobs

    def describe(self):
        return f"local, {self.jobs} job{'s' if self.jobs != 1 else ''}"

    def processes(self, tasks):
        """The worker processes a run of ``tasks`` tasks starts: ``jobs``, but at most one per
        task, per CPU and per :data:`WORKER_MEMORY` bytes of available memory (a worker
        beyond those would only wait or swap; results do not depend on it)."""
        # start-up: numpy (through _validation) only when a run starts, not for `laocheck --help`
        from ._validation import available_memory
        n = min(self.workers(), tasks, os.cpu_count() or 1)
        free = available_memory()
        if free is not None:
            n = min(n, max(1, int(free // WORKER_MEMORY)))
        return max(1, n)

    def map(self, fn, arglist, shared=(), on_result=None):
        arglist = list(arglist)
        jobs = self.processes(len(arglist))
        if jobs == 1:
            return [_noted(_call(fn, *shared, *args), on_result) for args in arglist]
        # start-up: joblib (loky, asyncio) loads only when work runs in parallel
        from joblib import Parallel, delayed
        parallel = Parallel(n_jobs=jobs, return_as="generator")
        return [_noted(value, on_result)
                for value in parallel(delayed(_call)(fn, *shared, *args) for args in arglist)]

    def imap_unordered(self, fn, arglist, names=None):
        arglist = list(arglist)
        jobs = self.processes(len(arglist))
        if jobs == 1:
            for i, args in enumerate(arglist):
                ok, value = _guarded(fn, *args)
                yield Outcome(i, value if ok else None, None if ok else value, running=1)
            return
        # start-up: joblib (loky, asyncio) loads only when work runs in parallel
        from joblib import Parallel, delayed
        parallel = Parallel(n_jobs=jobs, return_as="generator_unordered", batch_size=1)
        remaining = len(arglist)
        for i, (ok, value) in parallel(delayed(_indexed)(i, fn, *args)
                                       for i, args in enumerate(arglist)):
            remaining -= 1
            yield Outcome(i, value if ok else None, None if ok else value,
                          running=min(remaining, jobs))


def _lost_scheduler(address, exc):
    return SchedulerError(
        f"lost the Dask scheduler at {address} ({type(exc).__name__}: {exc}); the tasks "
        "finished so far are kept (laocheck verify --json ... --resume continues the run).")


class DaskExecutor(Executor):
    """A Dask ``distributed`` cluster at ``address`` (``dask scheduler`` / ``dask worker``)."""

    kind = "dask"

    def __init__(self, address, timeout=None):
        try:
            # optional dependency: pip install 'laocheck[distributed]'
            import distributed
        except ImportError as exc:
            raise InvalidParameterError(
                f"`scheduler`={address!r} needs Dask distributed, which is not installed "
                f"({exc}); install it with: pip install 'laocheck[distributed]'.") from None
        self._distributed = distributed
        self.address = address
        try:
            wait = CONNECT_TIMEOUT if timeout is None else timeout
            self.client = distributed.Client(address, timeout=wait, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            raise SchedulerError(
                f"cannot reach the Dask scheduler at {address!r} ({type(exc).__name__}: {exc}); "
                "start one with `dask scheduler` and workers with `dask worker ADDRESS`, or run "
                "without --scheduler (and unset LAOCHECK_SCHEDULER).") from None

    def workers(self):
        try:
            return max(1, sum(self.client.nthreads().values()))
        except (OSError, TimeoutError) as exc:
            raise _lost_scheduler(self.address, exc) from None

    def describe(self):
        return f"dask at {self.address}"

    def close(self):
        try:
            self.client.close(timeout=5)
        except Exception:  # noqa: BLE001 - closing a client whose scheduler is gone
            pass

    def map(self, fn, arglist, shared=(), on_result=None):
        arglist = list(arglist)
        if not arglist:
            return []
        token = uuid.uuid4().hex[:12]
        name = getattr(fn, "__name__", "task")
        try:
            # shared arguments travel once, as tasks of their own (not scattered data: a
            # task's result lost with a worker is recomputed, scattered data would be gone)
            held = [self.client.submit(_value, v, pure=False, key=f"laocheck-shared-{j}-{token}")
                    for j, v in enumerate(shared)]
            futures = [self.client.submit(_call, fn, *held, *args, pure=False,
                                          key=f"laocheck-{name}-{i}-{token}")
                       for i, args in enumerate(arglist)]
            if on_result is None:
                return self.client.gather(futures)
            return [_noted(fut.result(), on_result) for fut in futures]
        except _LOST as exc:
            raise _lost_scheduler(self.address, exc) from None

    def imap_unordered(self, fn, arglist, names=None):
        arglist = list(arglist)
        if not arglist:
            return
        dist = self._distributed
        token = uuid.uuid4().hex[:12]
        names = names or [getattr(fn, "__name__", "task")] * len(arglist)
        try:
            futures = [self.client.submit(_guarded, fn, *args, pure=False,
                                          key=f"laocheck-{names[i]}-{i}-{token}")
                       for i, args in enumerate(arglist)]
        except _LOST as exc:
            raise _lost_scheduler(self.address, exc) from None
        index = {f.key: i for i, f in enumerate(futures)}
        remaining = len(futures)
        threads, threads_at = None, 0.0
        try:
            for fut in dist.as_completed(futures, loop=self.client.loop):
                remaining -= 1
                i = index[fut.key]
                if time.monotonic() - threads_at > 2.0 or threads is None:
                    try:
                        threads, threads_at = self.workers(), time.monotonic()
                    except SchedulerError:
                        threads = threads or 1
                running = min(remaining, threads)
                if fut.status == "cancelled":
                    raise _lost_scheduler(self.address, RuntimeError("its tasks were cancelled"))
                try:
                    ok, value = fut.result()
                except _LOST as exc:
                    raise _lost_scheduler(self.address, exc) from None
                except Exception as exc:  # noqa: BLE001 - e.g. KilledWorker: this task's error
                    ok, value = False, "".join(traceback.format_exception(exc))
                yield Outcome(i, value if ok else None, None if ok else value, running=running)
                fut.release()
        finally:
            for f in futures:
                f.release()


class ResultLog:
    """A JSON-lines log of finished tasks: one line ``{"key": [...], "laocheck": VERSION,
    "result": {...}}`` appended and flushed as each task finishes.

    ``resume=False`` starts an empty log; ``resume=True`` reads the existing one (a last line
    cut by an interruption is dropped) and :meth:`get` returns the result logged for a key by
    this laocheck version, so those tasks are not run again.
    """

    def __init__(self, path, *, resume=False):
        self.path = Path(path)
        self._fd = None
        self._done = {}
        self._lines = {}
        check_output_path("--json", self.path)     # never a link, FIFO or device
        if resume and self.path.exists():
            text = read_text(self.path, what="results log")
            lines = text.splitlines()
            good = []
            for number, line in enumerate(lines, 1):
                where = f"results log {str(self.path)!r} line {number}"
                try:
                    doc = parse_json(line, what=where)
                    key = tuple(doc["key"])
                    version, result = doc["laocheck"], doc["result"]
                    hashable = self._hashable(key)
                except (ValueError, KeyError, TypeError) as exc:
                    # only the last line can be cut by an interruption (no newline after it);
                    # any other fault is a corrupt or foreign log: refused, never rewritten
                    if number == len(lines) and not text.endswith("\n") and \
                            "is not valid JSON" in str(exc):
                        continue
                    rule = str(exc) if isinstance(exc, InvalidParameterError) else \
                        f"{where} must be an object with 'key', 'laocheck' and 'result'."
                    raise InvalidParameterError(rule) from None
                good.append(line)
                if version == __version__:
                    self._done[hashable] = result
                    self._lines[hashable] = number
            if text and (not text.endswith("\n") or len(good) != len(text.splitlines())):
                write_text_atomic(self.path, "".join(line + "\n" for line in good))
        else:
            write_text_atomic(self.path, "")
        self._created = not (resume and self._done)     # a new (empty) log of this run
        try:
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0))
        except OSError as exc:
            raise write_error(self.path, exc) from None

    def where(self, key):
        """Where the logged result of ``key`` comes from, for messages (file and line)."""
        line = self._lines.get(self._hashable(key))
        return f"results log {str(self.path)!r}" + (f" line {line}" if line else "")

    @staticmethod
    def _hashable(key):
        return json.dumps(list(key), sort_keys=True)

    def __len__(self):
        return len(self._done)

    def get(self, key):
        """The logged result of ``key`` (a tuple of JSON values) by this version, or None."""
        return self._done.get(self._hashable(key))

    def append(self, key, result):
        """Log ``result`` (JSON-ready) for ``key`` and flush it to the file."""
        data = (json.dumps({"key": list(key), "laocheck": __version__, "result": result},
                           ensure_ascii=False, default=str) + "\n").encode("utf-8")
        start = os.fstat(self._fd).st_size
        try:
            view = memoryview(data)
            while view:                          # os.write may write less than asked
                view = view[os.write(self._fd, view):]
        except OSError as exc:                   # a full disk: no cut line is left behind
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, start)
            if start == 0 and self._created:     # nothing of this run in it: no empty file
                self.close()
                with contextlib.suppress(OSError):
                    os.unlink(self.path)
                raise write_error(self.path, exc, "nothing was written there") from None
            raise write_error(self.path, exc, "its complete lines are kept (--resume reuses "
                              "them)") from None
        self._done[self._hashable(key)] = result

    def close(self):
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
