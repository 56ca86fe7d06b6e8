"""Atomic output: a result file is either the old one or the complete new one, never half.

Writes go to a temporary file in the target's directory, then ``os.replace`` (atomic on POSIX
and Windows within one file system), as pip and numpy's ``savez`` callers do.
"""

from __future__ import annotations

import json
import contextlib
import os
import shutil
import sys
import tempfile
from pathlib import Path

from .exceptions import InvalidParameterError

__all__ = ["atomic_directory", "check_output_path", "write_json_atomic", "write_text_atomic"]


def _umask():
    """The process umask (read by setting and restoring it: os has no getter)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _give_default_mode(path, *, directory=False):
    """mkstemp/mkdtemp create 0600/0700 entries; a result file or report directory gets the
    mode ``open``/``mkdir`` would give it (0666/0777 less the umask), so others can read it."""
    os.chmod(path, (0o777 if directory else 0o666) & ~_umask())


def check_output_path(name, path):
    """Validate an output path before any work: its directory exists and is writable, and the
    path is not a directory. Returns a :class:`pathlib.Path`; ``"-"`` (stdout) passes through."""
    if path == "-":
        return path
    p = Path(path)
    parent = p.parent if str(p.parent) else Path(".")
    if p.is_dir():
        raise InvalidParameterError(f"`{name}` must be a file path; got the directory {path!r}.")
    if not parent.is_dir():
        raise InvalidParameterError(
            f"`{name}` must be in an existing directory; got {path!r} ({str(parent)!r} does not "
            "exist).")
    if not os.access(parent, os.W_OK):
        raise InvalidParameterError(
            f"`{name}` must be in a writable directory; got {path!r} ({str(parent)!r} is not "
            "writable).")
    return p


def write_text_atomic(path, text):
    """Write ``text`` to ``path`` through a temporary file and ``os.replace``."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        _give_default_mode(tmp)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def write_json_atomic(path, doc, *, indent=1):
    """``json.dump`` of ``doc`` to ``path`` atomically (``"-"``: standard output)."""
    text = json.dumps(doc, indent=indent, ensure_ascii=False, default=str) + "\n"
    if path == "-":
        sys.stdout.write(text)
        return
    write_text_atomic(path, text)


@contextlib.contextmanager
def atomic_directory(path):
    """Build a directory in a temporary directory beside ``path``; on success it replaces
    ``path`` (an existing one is moved aside first, then removed), on any exception (Ctrl-C
    included) the temporary directory is removed and ``path`` is left as it was.

    Yields the temporary directory (a :class:`pathlib.Path`) to write into. Between the two
    renames of a replacement there is an instant with no ``path``, never a half-written one.
    """
    path = Path(path)
    parent = path.parent if str(path.parent) else Path(".")
    parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".tmp", dir=parent))
    try:
        yield tmp
        _give_default_mode(tmp, directory=True)
        old = None
        if path.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".old", dir=parent))
            os.replace(path, old / path.name)
        os.replace(tmp, path)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
