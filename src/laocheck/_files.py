"""Reading the files laocheck accepts: one place, with limits, for every input file.

Every file a user hands laocheck (a baseline, a ``verify --json`` file given to ``report
--from``, a results log read by ``verify --resume``, ``--claims``, a report spec, a ``.npy``
matrix, an IDX file) is read through :func:`read_bytes` / :func:`read_text` /
:func:`read_json`:

* only a regular file is read: a FIFO, a device, a socket or a directory is refused before a
  byte is read (opened with ``O_NONBLOCK``, so opening a FIFO cannot block, then ``fstat``);
* its size is checked against a limit before it is read, and never more than the limit is read
  (a file growing meanwhile is cut off and refused);
* text must be UTF-8; JSON is parsed only after its nesting depth is checked (the standard
  parser recurses), and numbers too long to be a value are refused;
* the parsed document is checked against a schema (:class:`Schema` and its kinds) with a type
  and a range for every field;
* a ``.npy`` array (:func:`read_npy`) has its header read with numpy's own
  ``numpy.lib.format`` readers and its shape × item size compared with the bytes that follow
  the header before anything is allocated; objects (pickles) are never loaded.

Every refusal is an :class:`~laocheck.exceptions.InvalidParameterError` whose message is one
line naming the file, the field and the rule, for example ``baseline file 'b.json': field
`instances.d3.n` must be an integer <= 1000000; got 300000000.``

Hand-written (a few hundred lines): jsonschema would validate the fields but checks neither file
kinds, sizes nor depth, and its messages are several lines.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from fractions import Fraction

import numpy as np
from numpy.lib import format as npy_format

from ._validation import check_memory
from .exceptions import InvalidParameterError

__all__ = ["open_regular", "read_bytes", "read_npy", "read_text", "read_json", "parse_json",
           "json_depth", "MAX_BYTES", "MAX_NPY_BYTES",
           "MAX_DEPTH", "Schema", "Int", "Real", "Str", "Bool", "Null", "List", "Obj", "Map",
           "AnyJSON", "OneOf", "FractionStr", "validate", "show"]

#: Largest file read by default (bytes): a baseline with sampled fingerprints is about 1 MB,
#: a full verify --json run about 2 MB.
MAX_BYTES = 64 * 2**20
#: Deepest JSON nesting accepted (laocheck's own files nest at most about 8 levels).
MAX_DEPTH = 64


def show(value, limit=60):
    """``repr(value)`` on one line, cut to ``limit`` characters."""
    text = repr(value).replace("\n", "\\n")
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _where(what, path):
    return f"{what} {show(os.fspath(path), 200)}"


def open_regular(path, *, what="file"):
    """The regular file ``path`` opened for binary reading (a file object), or
    InvalidParameterError: missing, a directory, a FIFO, a device or a socket (opened with
    ``O_NONBLOCK``, so a FIFO cannot block the open; refused after ``fstat``)."""
    where = _where(what, path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise InvalidParameterError(f"{where} does not exist.") from None
    except IsADirectoryError:
        raise InvalidParameterError(f"{where} is a directory, not a file.") from None
    except (OSError, ValueError, TypeError) as exc:   # permission, a NUL in the name, too long
        raise InvalidParameterError(f"{where} cannot be opened ({_reason(exc)}).") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise InvalidParameterError(f"{where} is a directory, not a file.")
        if not stat.S_ISREG(st.st_mode):
            raise InvalidParameterError(
                f"{where} must be a regular file; it is a {_kind(st.st_mode)}.")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bytes(path, *, what="file", limit=MAX_BYTES):
    """The bytes of the regular file ``path`` (at most ``limit``), or InvalidParameterError.

    ``what`` names the file in messages (``"baseline file"``, ``"`--from` file"``)."""
    where = _where(what, path)
    with open_regular(path, what=what) as fh:
        size = os.fstat(fh.fileno()).st_size
        if size > limit:
            raise InvalidParameterError(f"{where} must be at most {limit} bytes; it has {size}.")
        try:
            raw = fh.read(limit + 1)
        except OSError as exc:
            raise InvalidParameterError(f"{where} cannot be read ({_reason(exc)}).") from None
    if len(raw) > limit:
        raise InvalidParameterError(f"{where} must be at most {limit} bytes; it grew beyond.")
    return raw


#: Largest ``.npy`` array read by default (bytes of its items): a data matrix of 2^31 bytes is
#: 16 million rows of 16 doubles.
MAX_NPY_BYTES = 2**31


def read_npy(path, *, what="file", limit=MAX_NPY_BYTES):
    """The array of the ``.npy`` file ``path``, its header validated before any allocation.

    The magic string and the header are read with ``numpy.lib.format.read_magic`` and
    ``read_array_header_1_0`` / ``read_array_header_2_0``; the array must have a plain
    (non-object) dtype (``allow_pickle=False``, always), and its shape × item size must equal
    the bytes after the header exactly and be at most ``limit``, and fit in the memory
    available: a 200-byte file declaring a 10⁹ × 100 array is refused in one line, without
    allocating. Returns the array (native byte order unchanged, C or Fortran order as
    stored)."""
    where = _where(what, path)
    with open_regular(path, what=what) as fh:
        size = os.fstat(fh.fileno()).st_size
        try:
            version = npy_format.read_magic(fh)
            if version == (1, 0):
                shape, fortran, dtype = npy_format.read_array_header_1_0(fh)
            elif version == (2, 0):
                shape, fortran, dtype = npy_format.read_array_header_2_0(fh)
            else:
                raise ValueError(f"format version {version[0]}.{version[1]} is not read "
                                 "(1.0 and 2.0 are)")
        except (ValueError, EOFError, SyntaxError, TypeError, OSError) as exc:
            raise InvalidParameterError(
                f"{where} is not a valid .npy file ({' '.join(str(exc).split())[:200]}).") \
                from None
        if dtype.hasobject:
            raise InvalidParameterError(
                f"{where} holds Python objects (dtype {dtype}): laocheck never loads pickled "
                "data; save a numeric array.")
        items = math.prod(int(n) for n in shape)
        need = items * dtype.itemsize
        have = size - fh.tell()
        if need != have:
            raise InvalidParameterError(
                f"{where} declares shape {tuple(shape)} of {dtype} ({need} bytes) but has "
                f"{have} bytes after its header ({'truncated' if have < need else 'trailing bytes'}"
                ").")
        if need > limit:
            raise InvalidParameterError(
                f"{where} must hold at most {limit} bytes of data; shape {tuple(shape)} of "
                f"{dtype} has {need}.")
        check_memory("path", os.fspath(path), need)
        try:
            raw = fh.read(need)
        except OSError as exc:
            raise InvalidParameterError(f"{where} cannot be read ({_reason(exc)}).") from None
    if len(raw) != need:
        raise InvalidParameterError(f"{where} changed while it was read (truncated).")
    return np.frombuffer(raw, dtype=dtype, count=items).reshape(
        shape, order="F" if fortran else "C").copy(order="K")


def _reason(exc):
    return (getattr(exc, "strerror", None) or str(exc)).replace("\n", " ")


def _kind(mode):
    for test, name in ((stat.S_ISFIFO, "FIFO"), (stat.S_ISCHR, "character device"),
                       (stat.S_ISBLK, "block device"), (stat.S_ISSOCK, "socket")):
        if test(mode):
            return name
    return "special file"


def read_text(path, *, what="file", limit=MAX_BYTES):
    """The text of ``path``: :func:`read_bytes`, then strict UTF-8."""
    raw = read_bytes(path, what=what, limit=limit)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidParameterError(
            f"{_where(what, path)} must be UTF-8 text; byte {exc.start} is not "
            f"(0x{raw[exc.start]:02x}).") from None


_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
#: a number literal with more than this many characters is refused (Python's int parser
#: refuses 4300 digits with a ValueError; float("1e999999999") is just inf)
_MAX_NUMBER = 400


def json_depth(text):
    """The deepest nesting of ``[`` / ``{`` in JSON ``text`` (strings skipped)."""
    depth = deepest = 0
    for ch in _STRINGS.sub("", text):
        if ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
        elif ch in "]}":
            depth -= 1
    return deepest


def _brackets_depth(text):
    bare = _STRINGS.sub("", text)
    if "[" not in bare and "{" not in bare:
        return 0
    # fast path in C: remove everything but brackets, then walk the (short) remainder
    return json_depth(re.sub(r"[^\[\]{}]", "", bare))


class _LongNumber(ValueError):
    pass


def _number(text):
    if len(text) > _MAX_NUMBER:
        raise _LongNumber(len(text))
    return text


def parse_json(text, *, what="JSON", max_depth=MAX_DEPTH):
    """The JSON value of ``text``, after checking its depth; InvalidParameterError naming
    ``what`` for invalid JSON, too deep a nesting or a number of hundreds of digits."""
    depth = _brackets_depth(text)
    if depth > max_depth:
        raise InvalidParameterError(
            f"{what} must nest at most {max_depth} levels of arrays and objects; it nests "
            f"{depth}.")
    try:
        return json.loads(text, parse_int=lambda s: int(_number(s)),
                          parse_float=lambda s: float(_number(s)))
    except _LongNumber as exc:
        raise InvalidParameterError(
            f"{what} must have numbers of at most {_MAX_NUMBER} characters; it has one of "
            f"{exc.args[0]}.") from None
    except json.JSONDecodeError as exc:
        raise InvalidParameterError(
            f"{what} is not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})."
        ) from None
    except (ValueError, RecursionError) as exc:
        reason = " ".join(str(exc).split())[:100]
        raise InvalidParameterError(f"{what} is not valid JSON ({reason}).") \
            from None


def read_json(path, schema=None, *, what="file", limit=MAX_BYTES, max_depth=MAX_DEPTH):
    """The JSON document of file ``path``, read by :func:`read_text`, parsed by
    :func:`parse_json` and validated against ``schema`` (optional)."""
    where = _where(what, path)
    doc = parse_json(read_text(path, what=what, limit=limit), what=where, max_depth=max_depth)
    if schema is not None:
        validate(doc, schema, where)
    return doc


# --- schemas ---------------------------------------------------------------------------------

class _Invalid(Exception):
    def __init__(self, field, rule, value):
        super().__init__(field, rule, value)
        self.field, self.rule, self.value = field, rule, value


class Schema:
    """A kind of JSON value; :meth:`check` raises ``_Invalid`` naming the rule."""

    rule = "be a JSON value"

    def check(self, value, field):
        raise NotImplementedError

    def _bad(self, value, field, rule=None):
        raise _Invalid(field, rule or self.rule, value)


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _is_real(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class Int(Schema):
    def __init__(self, low=None, high=None):
        self.low, self.high = low, high
        parts = [f">= {low}"] if low is not None else []
        parts += [f"<= {high}"] if high is not None else []
        self.rule = "be an integer" + (" " + " and ".join(parts) if parts else "")

    def check(self, value, field):
        if not _is_int(value) or (self.low is not None and value < self.low) or \
                (self.high is not None and value > self.high):
            self._bad(value, field)


class Real(Schema):
    """A number; finite unless ``finite=False`` (the strings 'nan', 'inf', '-inf' of
    laocheck's JSON accepted then too)."""

    def __init__(self, low=None, high=None, *, finite=True):
        self.low, self.high, self.finite = low, high, finite
        parts = [f">= {low}"] if low is not None else []
        parts += [f"<= {high}"] if high is not None else []
        self.rule = ("be a finite number" if finite else "be a number") + \
            (" " + " and ".join(parts) if parts else "")

    def check(self, value, field):
        if not self.finite and value in ("nan", "inf", "-inf"):
            return
        if not _is_real(value):
            self._bad(value, field)
        try:
            v = float(value)
        except OverflowError:                       # an integer beyond the doubles
            v = math.copysign(math.inf, value)
        if (self.finite and not math.isfinite(v)) or \
                (self.low is not None and v < self.low) or (self.high is not None and v > self.high):
            self._bad(value, field)


class Str(Schema):
    def __init__(self, max_len=10_000, *, pattern=None, choices=None, what=None):
        self.max_len, self.choices = max_len, choices
        self.pattern = re.compile(pattern) if pattern else None
        if choices is not None:
            self.rule = f"be one of {list(choices)}"
        else:
            self.rule = what or f"be a string of at most {max_len} characters"

    def check(self, value, field):
        if not isinstance(value, str) or len(value) > self.max_len:
            self._bad(value, field)
        if self.choices is not None and value not in self.choices:
            self._bad(value, field)
        if self.pattern is not None and not self.pattern.fullmatch(value):
            self._bad(value, field)


class FractionStr(Schema):
    """An exact number as laocheck writes it: ``"p/q"``, an integer or a decimal (``fractions``'
    syntax), with at most ``max_digits`` digits and an exponent of at most 3 digits, so
    ``Fraction(value)`` is cheap (``"1e1000000000"`` would take forever)."""

    _SYNTAX = re.compile(r"\s*[-+]?(\d+(/\d+)?|\d*\.?\d+([eE][-+]?\d{1,3})?)\s*")

    def __init__(self, max_digits=4000, *, nonnegative=False):
        self.max_digits, self.nonnegative = max_digits, nonnegative
        self.rule = (f"be an exact number as a string ('p/q', an integer or a decimal with an "
                     f"exponent of at most 3 digits; at most {max_digits} digits)"
                     + ("; >= 0" if nonnegative else ""))

    def check(self, value, field):
        if not isinstance(value, str) or len(value) > self.max_digits + 20 or \
                not self._SYNTAX.fullmatch(value):
            self._bad(value, field)
        try:
            f = Fraction(value)
        except (ValueError, ZeroDivisionError):
            self._bad(value, field)
        if self.nonnegative and f < 0:
            self._bad(value, field)


class Bool(Schema):
    rule = "be true or false"

    def check(self, value, field):
        if not isinstance(value, bool):
            self._bad(value, field)


class Null(Schema):
    rule = "be null"

    def check(self, value, field):
        if value is not None:
            self._bad(value, field)


class AnyJSON(Schema):
    """Any JSON value (its depth is bounded by the parser's check)."""

    rule = "be a JSON value"

    def check(self, value, field):
        return


class OneOf(Schema):
    def __init__(self, *options, rule=None):
        self.options = options
        self.rule = rule or " or ".join(o.rule.removeprefix("be ") for o in options)
        self.rule = self.rule if self.rule.startswith("be ") else "be " + self.rule

    def check(self, value, field):
        for option in self.options:
            try:
                option.check(value, field)
                return
            except _Invalid:
                continue
        self._bad(value, field)


class List(Schema):
    def __init__(self, item, *, min_len=0, max_len=10**6):
        self.item, self.min_len, self.max_len = item, min_len, max_len
        self.rule = f"be a list of {min_len} to {max_len} entries"

    def check(self, value, field):
        if not isinstance(value, list) or not self.min_len <= len(value) <= self.max_len:
            self._bad(value, field)
        for i, v in enumerate(value):
            self.item.check(v, f"{field}[{i}]")


class Obj(Schema):
    """An object with named fields: ``required`` and ``optional`` map names to schemas;
    ``extra`` (a schema or None) is what other keys may hold (None: no other key)."""

    def __init__(self, required=None, optional=None, *, extra=AnyJSON()):
        self.required, self.optional, self.extra = required or {}, optional or {}, extra
        self.rule = "be an object"

    def check(self, value, field):
        if not isinstance(value, dict):
            self._bad(value, field)
        for name, schema in self.required.items():
            if name not in value:
                raise _Invalid(_join(field, name), "be present", _MISSING)
            schema.check(value[name], _join(field, name))
        for name, v in value.items():
            if name in self.required:
                continue
            if name in self.optional:
                self.optional[name].check(v, _join(field, name))
            elif self.extra is None:
                raise _Invalid(_join(field, name), "not be there (unknown field)", v)
            else:
                self.extra.check(v, _join(field, name))


class Map(Schema):
    """An object used as a mapping: keys matching ``key`` (a Str), values ``value``."""

    def __init__(self, key, value, *, min_len=0, max_len=10**6):
        self.key, self.value, self.min_len, self.max_len = key, value, min_len, max_len
        self.rule = f"be an object of {min_len} to {max_len} entries"

    def check(self, value, field):
        if not isinstance(value, dict) or not self.min_len <= len(value) <= self.max_len:
            self._bad(value, field)
        for k, v in value.items():
            try:
                self.key.check(k, _join(field, k))
            except _Invalid as exc:
                raise _Invalid(exc.field, f"be a known key (keys must {exc.rule})", k) from None
            self.value.check(v, _join(field, k))


_MISSING = object()


def _join(field, name):
    name = str(name)
    shown = name if re.fullmatch(r"[A-Za-z0-9_.\- ]{1,40}", name) else show(name, 40)
    return f"{field}.{shown}" if field else shown


def validate(doc, schema, where):
    """Check ``doc`` against ``schema``; InvalidParameterError ``"<where>: field `f` must
    <rule>; got <value>."`` (one line)."""
    try:
        schema.check(doc, "")
    except _Invalid as exc:
        field = f"field `{exc.field}`" if exc.field else "the document"
        got = "it is missing" if exc.value is _MISSING else f"got {show(exc.value)}"
        raise InvalidParameterError(f"{where}: {field} must {exc.rule}; {got}.") from None
    return doc
