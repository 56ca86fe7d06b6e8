"""What every ``laocheck`` command shares: one-line usage errors, interruption, progress.

* :class:`ArgumentParser`: a usage error is one line on stderr, ``laocheck verify: error: ...``,
  exit status 2 (argparse's usage block is left to ``--help``).
* :class:`Terminated` (a ``KeyboardInterrupt``): raised in the main thread on SIGTERM, so a
  terminated run unwinds like Ctrl-C: joblib aborts and shuts its workers down, no
  half-written file is left. ``laocheck`` exits 130 after Ctrl-C and 143 after SIGTERM.
* :func:`add_scheduler_option` and :func:`reach_scheduler`: ``--scheduler ADDRESS`` (a Dask
  cluster, or ``$LAOCHECK_SCHEDULER``), checked by connecting once before any work; an
  unreachable scheduler is :class:`laocheck._execution.SchedulerError`, exit status 3.
* :func:`parse_seed`: the one parser of ``--seed`` (every command that takes one), with one
  message: "`--seed` must be an integer >= 0; got '<text>'".
* :func:`add_effort_option`: the one ``--effort PROFILE`` of every command (a registered
  :mod:`laocheck.effort` profile; ``--budget``, its spelling before 0.1, still works with a
  deprecation warning on stderr).
* :func:`progress`: a rich progress line on stderr (counts, elapsed time, ETA) that updates in
  place on a terminal; when stderr is not a terminal (CI logs, pipes, ``nohup``) plain lines
  instead, without carriage returns: one at the start, one at most every
  :data:`PLAIN_EVERY` seconds, and the final count, so a long run's log shows how far it is.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
import warnings

from .._execution import ENV_SCHEDULER, DaskExecutor, scheduler_address
from .._progress import EVERY, ProgressLines
from ..effort import deprecated, resolve
from ..exceptions import InvalidParameterError

__all__ = ["ArgumentParser", "Terminated", "sigterm_raises", "progress", "usage_error",
           "add_scheduler_option", "reach_scheduler", "parse_seed", "parse_effort",
           "add_effort_option", "PLAIN_EVERY"]

#: seconds between two progress lines when stderr is not a terminal
PLAIN_EVERY = EVERY


def parse_seed(text):
    """The value of ``--seed``: an integer >= 0 (the root of every SeedSequence of the run).

    Parameters
    ----------
    text : str
        The argument as typed.

    Returns
    -------
    int
        The seed.

    Raises
    ------
    argparse.ArgumentTypeError
        "`--seed` must be an integer >= 0; got '<text>'" (not an integer, or negative).
    """
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"`--seed` must be an integer >= 0; got {text!r}")
    return value


def parse_effort(text):
    """The value of ``--effort``: a registered effort profile (:mod:`laocheck.effort`).

    ``MODULE:NAME`` first imports ``MODULE`` (the current directory is searched), a module of
    the user's that registers ``NAME`` with :func:`laocheck.effort.register_profile`: a
    profile of one's own from the command line, as ``--learner MODULE:FACTORY`` a learner.

    Parameters
    ----------
    text : str
        The profile's name as typed, or ``MODULE:NAME``.

    Returns
    -------
    laocheck.effort.Effort
        The profile (the one object the run hands on).

    Raises
    ------
    argparse.ArgumentTypeError
        The name is not registered (the message lists the registered names), or ``MODULE``
        cannot be imported.
    """
    if ":" in text:
        module, _, text = text.partition(":")
        if os.getcwd() not in sys.path:
            sys.path.insert(0, os.getcwd())          # `--effort mymod:nightly` from here
        try:
            importlib.import_module(module)
        except Exception as exc:     # the user's module: its error, in one line
            raise argparse.ArgumentTypeError(
                f"`--effort` {module}:{text}: importing {module!r} raised "
                f"{type(exc).__name__}: {exc}") from None
    try:
        return resolve(text)
    except InvalidParameterError as exc:
        raise argparse.ArgumentTypeError(str(exc).replace("`effort`", "`--effort`", 1)) from None


def _deprecated_budget(text):
    """``--budget NAME``, the spelling of ``--effort`` before 0.1: warns, then as ``--effort``."""
    warnings.warn(deprecated("--budget", "--effort"), DeprecationWarning, stacklevel=1)
    return parse_effort(text)


def add_effort_option(parser, what, default="fast"):
    """Add ``--effort PROFILE`` (and its deprecated spelling ``--budget``, hidden from
    ``--help``): ``args.effort`` is the :class:`~laocheck.effort.Effort` (or None when
    ``default`` is None)."""
    parser.add_argument(
        "--effort", metavar="PROFILE", type=parse_effort, default=default,
        help=f"effort profile: {what}. Built in: tiny, fast (minutes), full (hours); "
        "MODULE:NAME imports your MODULE, which registers NAME with "
        "laocheck.effort.register_profile"
        + (f". Default: {default}." if default else "."))
    parser.add_argument("--budget", dest="effort", type=_deprecated_budget,
                        help=argparse.SUPPRESS)


class ArgumentParser(argparse.ArgumentParser):
    """argparse with one-line usage errors (``PROG: error: MESSAGE (see PROG --help)``)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


class Terminated(KeyboardInterrupt):
    """SIGTERM received: unwinds like Ctrl-C (exit status 143 instead of 130)."""


def _raise_terminated(signum, frame):
    raise Terminated()


class sigterm_raises:
    """Context manager: SIGTERM raises :class:`Terminated` in the main thread meanwhile."""

    def __enter__(self):
        try:
            self.previous = signal.signal(signal.SIGTERM, _raise_terminated)
        except ValueError:  # not the main thread (an embedding application): leave it alone
            self.previous = None
        return self

    def __exit__(self, *exc):
        if self.previous is not None:
            signal.signal(signal.SIGTERM, self.previous)
        return False


def add_scheduler_option(parser, what):
    """Add ``--scheduler ADDRESS``: run ``what`` on a Dask cluster instead of this machine."""
    parser.add_argument(
        "--scheduler", metavar="ADDRESS", default=None,
        help=f"run {what} on the Dask cluster of this scheduler (needs "
        "laocheck[distributed]; --jobs is then ignored); the results are identical to a local "
        f"run. Default: ${ENV_SCHEDULER} if set, else this machine (--jobs).")


def reach_scheduler(scheduler):
    """The Dask scheduler address the run will use (``scheduler``, else
    ``$LAOCHECK_SCHEDULER``), after connecting to it once, or None (this machine). Raises
    :class:`laocheck._execution.SchedulerError` (unreachable) or
    :class:`laocheck.exceptions.InvalidParameterError` (distributed not installed) before any
    work is done."""
    address = scheduler_address(scheduler)
    if address is not None:
        DaskExecutor(address).close()
    return address


def usage_error(prog, message):
    """Print a usage error in the parser's one-line format; returns the exit status 2."""
    sys.stderr.write(f"{prog}: error: {message}\n")
    return 2


def _stderr_line(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


class _Bar:
    """A rich progress line for ``total`` items (``advance(label)`` after each); plain lines
    when stderr is not a terminal."""

    def __init__(self, description, total, enabled):
        self._progress = None
        self._plain = None
        if not enabled:
            return
        # start-up: rich loads only when a progress line is shown
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress,  # start-up, as above
                                   TextColumn, TimeElapsedColumn, TimeRemainingColumn)
        console = Console(file=sys.stderr)
        if not console.is_terminal:
            self._plain = ProgressLines(description, total, _stderr_line, every=PLAIN_EVERY)
            return
        self._progress = Progress(
            TextColumn(f"[bold]{description}"), BarColumn(), MofNCompleteColumn(),
            TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(),
            TextColumn("{task.fields[state]}"), TextColumn("{task.fields[label]}"),
            console=console, transient=False)
        self._task = self._progress.add_task(description, total=total, label="", state="")
        self._progress.start()

    def advance(self, label="", state=""):
        """One more item done; ``label`` names it, ``state`` (optional) says e.g. how many
        tasks are running and how many failed."""
        if self._plain is not None:
            self._plain.advance(state)
        if self._progress is not None:
            self._progress.update(self._task, advance=1, label=str(label)[:40], state=state)

    def close(self):
        self._plain = None
        if self._progress is not None:
            self._progress.stop()
            self._progress = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def progress(description, total, enabled=True):
    """A progress line on stderr for ``total`` items; use as a context manager."""
    return _Bar(description, total, enabled)
