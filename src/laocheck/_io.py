"""Atomic output: a result file is either the old one or the complete new one, never half.

Writes go to a temporary file in the target's directory, then ``os.replace`` (atomic on POSIX
and Windows within one file system), as pip and numpy's ``savez`` callers do.

A write that fails (a full disk, ``ENOSPC``; a file over the size limit, ``EFBIG``; a
read-only file system or directory, ``EROFS`` / ``EACCES``; any ``OSError`` of the write, the
flush, the ``fsync``, the ``chmod`` or the rename) removes its temporary file and raises
:class:`WriteError`: one line naming the file and the OS error. The target is left as it was
(absent, or the old complete file). The command line turns it into exit status 2, as an
output path that cannot be written found before the work.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import stat
import sys
import tempfile
from pathlib import Path

from .exceptions import InvalidParameterError

__all__ = ["atomic_directory", "check_output_path", "child_path", "write_json_atomic",
           "write_text_atomic", "MAX_NAME", "WriteError"]


class WriteError(InvalidParameterError, OSError):
    """An output file could not be written (disk full, file too large, read-only, ...); nothing
    partial is left. Both an :class:`~laocheck.exceptions.InvalidParameterError` (so the
    command line reports it in one line with exit status 2) and an ``OSError`` (``errno`` is
    the OS error's)."""

    def __init__(self, message, errno=None, reason=""):
        super().__init__(message)
        self.errno = errno
        self.reason = reason


#: errno values of a failed write (full disk or quota, too large, read-only, denied, I/O)
_WRITE_ERRNOS = frozenset(getattr(errno, name) for name in (
    "ENOSPC", "EDQUOT", "EFBIG", "EROFS", "EACCES", "EPERM", "EIO") if hasattr(errno, name))


def _os_reason(exc):
    return " ".join(str(getattr(exc, "strerror", None) or exc).split())


def write_error(what, exc, left="nothing was written there"):
    """The :class:`WriteError` for OSError ``exc`` while writing ``what`` (a path)."""
    reason = exc.reason if isinstance(exc, WriteError) else _os_reason(exc)
    return WriteError(f"cannot write {str(what)!r} ({reason}); {left}.",
                      getattr(exc, "errno", None), reason)


def _umask():
    """The process umask (read by setting and restoring it: os has no getter)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _give_default_mode(path, *, directory=False):
    """mkstemp/mkdtemp create 0600/0700 entries; a result file or report directory gets the
    mode ``open``/``mkdir`` would give it (0666/0777 less the umask), so others can read it."""
    os.chmod(path, (0o777 if directory else 0o666) & ~_umask())


def _lstat(path):
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:       # a NUL in the name, a name too long, ...
        raise InvalidParameterError(
            f"output path {str(path)!r} cannot be used ({getattr(exc, 'strerror', None) or exc})."
        ) from None


def _kind(mode):
    for test, kind in ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISDIR, "a directory"),
                       (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "not a regular file"


def _refuse_special(name, path):
    """InvalidParameterError when ``path`` exists and is not a regular file: laocheck never
    follows or replaces a symbolic link, a FIFO, a device or a directory."""
    st = _lstat(path)
    if st is not None and not stat.S_ISREG(st.st_mode):
        kind = _kind(st.st_mode)
        if kind == "a directory":
            raise InvalidParameterError(f"`{name}` must be a file path; got the directory "
                                        f"{str(path)!r}.")
        raise InvalidParameterError(
            f"`{name}` must be a regular file or a new name; got {str(path)!r}, which is "
            f"{kind} (laocheck does not write through or replace it).")


def check_output_path(name, path):
    """Validate an output path before any work: it is new or a regular file (never a symbolic
    link, FIFO, device or directory), and its directory exists and is writable. Returns a
    :class:`pathlib.Path`; ``"-"`` (stdout) passes through."""
    if path == "-":
        return path
    if not isinstance(path, (str, os.PathLike)) or not os.fspath(path) or "\0" in os.fspath(path):
        raise InvalidParameterError(f"`{name}` must be a file path; got {path!r}.")
    p = Path(path)
    if p.name in ("", ".", ".."):
        raise InvalidParameterError(f"`{name}` must be a file path; got the directory {path!r}.")
    parent = p.parent if str(p.parent) else Path(".")
    _refuse_special(name, p)
    if not parent.is_dir():
        raise InvalidParameterError(
            f"`{name}` must be in an existing directory; got {path!r} ({str(parent)!r} does not "
            "exist).")
    if not os.access(parent, os.W_OK):
        raise InvalidParameterError(
            f"`{name}` must be in a writable directory; got {path!r} ({str(parent)!r} is not "
            "writable).")
    return p


#: Longest file or directory name laocheck writes (most file systems allow 255 bytes; a
#: temporary name adds a prefix and a suffix to it).
MAX_NAME = 200


def child_path(name, folder, child):
    """``folder / child`` for a ``child`` that is one plain name inside ``folder``: not empty,
    not ``.`` or ``..``, no path separator or NUL, at most :data:`MAX_NAME` characters, so the
    result never resolves outside ``folder`` or to it. ``name`` is the parameter named in the
    error."""
    if not isinstance(child, str) or child in ("", ".", "..") or "/" in child or \
            "\\" in child or "\0" in child or len(child) > MAX_NAME or child != child.strip():
        raise InvalidParameterError(
            f"`{name}` must be one plain file name (no '/', not '.' or '..', at most {MAX_NAME} "
            f"characters); got {child!r}.")
    return Path(folder) / child


def write_text_atomic(path, text):
    """Write ``text`` to ``path`` through a temporary file and ``os.replace``; a ``path``
    that is a symbolic link, FIFO, device or directory is refused (InvalidParameterError).

    Raises :class:`WriteError` when any step fails with an ``OSError`` (disk full, file too
    large, read-only): the temporary file is removed and ``path`` is left as it was."""
    path = Path(path)
    _refuse_special("path", path)
    left = "the old file is unchanged" if os.path.lexists(path) else "nothing was written there"
    data = text.encode("utf-8")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp",
                                   dir=path.parent or ".")
    except OSError as exc:                     # a read-only or vanished directory, no inodes
        raise write_error(path, exc, left) from None
    try:
        try:
            view = memoryview(data)
            while view:                          # os.write may write less than asked
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        _give_default_mode(tmp)
        _refuse_special("path", path)              # not swapped for a link meanwhile
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError) and not isinstance(exc, WriteError):
            raise write_error(path, exc, left) from None
        raise


def write_json_atomic(path, doc, *, indent=1):
    """``json.dump`` of ``doc`` to ``path`` atomically (``"-"``: standard output)."""
    text = json.dumps(doc, indent=indent, ensure_ascii=False, default=str) + "\n"
    if path == "-":
        sys.stdout.write(text)
        return
    write_text_atomic(path, text)


@contextlib.contextmanager
def atomic_directory(path, *, replaceable=None):
    """Build a directory in a temporary directory beside ``path``; on success it replaces
    ``path`` (an existing one is moved aside first, then removed), on any exception (Ctrl-C
    included) the temporary directory is removed and ``path`` is left as it was.

    ``path`` must name a directory inside its parent (not ``.``, ``..`` or a name ending in
    them); an existing ``path`` must be a real directory (never a symbolic link, which is
    refused), and with ``replaceable`` (a predicate) one it accepts: otherwise
    InvalidParameterError, before anything is written. Only what this call created and what
    ``replaceable`` accepted is ever removed.

    Yields the temporary directory (a :class:`pathlib.Path`) to write into. Between the two
    renames of a replacement there is an instant with no ``path``, never a half-written one.
    """
    path = Path(path)
    if path.name in ("", ".", "..") or os.fspath(path).rstrip("/").endswith(("/.", "/..")):
        raise InvalidParameterError(
            f"`path` must name a directory inside its parent; got {str(path)!r}.")
    st = _lstat(path)
    if st is not None and not stat.S_ISDIR(st.st_mode):
        raise InvalidParameterError(
            f"`path` {str(path)!r} exists and is {_kind(st.st_mode)}, not a directory laocheck "
            "wrote: it is left alone (remove it or choose another output directory).")
    if st is not None and replaceable is not None and not replaceable(path):
        raise InvalidParameterError(
            f"`path` {str(path)!r} exists and holds files laocheck did not write there: it is "
            "left alone (remove it or choose another output directory).")
    parent = path.parent if str(path.parent) else Path(".")
    left = "the old directory is unchanged" if st is not None else "nothing was written there"
    try:
        parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".tmp", dir=parent))
    except OSError as exc:
        raise write_error(path, exc, left) from None
    try:
        yield tmp
        _give_default_mode(tmp, directory=True)
        old = None
        st = _lstat(path)
        if st is not None:
            if not stat.S_ISDIR(st.st_mode) or (replaceable is not None and
                                                not replaceable(path)):
                raise InvalidParameterError(
                    f"`path` {str(path)!r} changed while laocheck wrote beside it; left alone.")
            old = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".old", dir=parent))
            os.replace(path, old / path.name)
        os.replace(tmp, path)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        if isinstance(exc, WriteError) or (isinstance(exc, OSError) and
                                           exc.errno in _WRITE_ERRNOS):
            # named by the directory the user asked for, not the temporary one
            raise write_error(path, exc, left) from None
        raise
