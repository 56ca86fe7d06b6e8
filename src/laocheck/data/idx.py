"""MNIST-format IDX files (LeCun et al.'s format of MNIST and Fashion-MNIST), gzip or raw.

Why hand-written: the format is a 4-byte magic number, big-endian uint32 dimensions and the raw
big-endian array, which ``numpy.frombuffer`` reads in one line; none of numpy, scipy or
scikit-learn reads it, and the packages that do (``idx2numpy``, ``python-mnist``) check neither
the dtype code nor the file length. laocheck validates everything, so a truncated download or a
foreign file is refused with a message naming the file and what is wrong, instead of giving a
silently short or garbled array.

The format (http://yann.lecun.com/exdb/mnist/, "THE IDX FILE FORMAT"):

=========  ==================================================================
bytes      content
=========  ==================================================================
0-1        0x00 0x00
2          dtype code: 0x08 ubyte, 0x09 sbyte, 0x0B int16, 0x0C int32,
           0x0D float32, 0x0E float64 (all big-endian)
3          number of dimensions n (>= 1)
4 .. 4n+3  the n sizes, big-endian uint32
then       prod(sizes) items of the dtype, row-major; nothing after them
=========  ==================================================================
"""

from __future__ import annotations

import gzip
import os
import zlib

import numpy as np

from .._files import open_regular
from .._validation import check_int, check_memory
from ..exceptions import InvalidParameterError

__all__ = ["load_idx", "IDX_DTYPES", "MAX_BYTES", "MAX_NDIM"]

#: IDX dtype codes and the big-endian numpy dtypes they denote.
IDX_DTYPES = {0x08: np.dtype(">u1"), 0x09: np.dtype(">i1"), 0x0B: np.dtype(">i2"),
              0x0C: np.dtype(">i4"), 0x0D: np.dtype(">f4"), 0x0E: np.dtype(">f8")}

_GZIP_MAGIC = b"\x1f\x8b"
#: Refuse headers announcing more than this many items (2^34, 16 GiB of bytes): a foreign file
#: whose bytes happen to start with 0x00 0x00 would otherwise ask for an absurd allocation.
_MAX_ITEMS = 2 ** 34
#: Default cap on the bytes of the items a header may announce (1 GiB; MNIST's training images
#: are 47 MB, EMNIST ByClass's 547 MB): checked before anything is inflated or allocated.
MAX_BYTES = 2 ** 30
#: Most dimensions a header may announce (numpy 1.x arrays have at most 32; IDX data sets 1-4).
MAX_NDIM = 32


def _fail(path, what):
    raise InvalidParameterError(f"`path` {os.fspath(path)!r} is not a valid IDX file: {what}.")


def _read_exactly(fh, n, path, zipped):
    """At most ``n`` bytes of ``fh`` (decompressing only as much as that needs)."""
    try:
        return fh.read(n)
    except EOFError:
        _fail(path, "the gzip stream is truncated (the compressed file ends early)")
    except (gzip.BadGzipFile, zlib.error, OSError) as exc:
        _fail(path, f"the gzip stream is corrupt ({exc})" if zipped else
              f"the file cannot be read ({exc})")


def _gzip_size(raw_fh):
    """ISIZE, the gzip trailer's size of the uncompressed content modulo 2^32 (RFC 1952, the
    last 4 bytes, little-endian), or None when the file is too short to have one."""
    size = os.fstat(raw_fh.fileno()).st_size
    if size < 18:                                 # 10-byte header + 8-byte trailer at least
        return None
    raw_fh.seek(size - 4)
    isize = int.from_bytes(raw_fh.read(4), "little")
    raw_fh.seek(0)
    return isize


def _read_bytes(path, max_bytes):
    """The header and the items of the IDX file ``path`` (raw bytes, decompressed if gzip),
    reading (and decompressing) no more than the header promises plus one byte, after
    checking that size against ``max_bytes``, :data:`_MAX_ITEMS`, the gzip trailer's size
    and the memory available."""
    with open_regular(path, what="`path`") as raw_fh:
        zipped = raw_fh.read(2) == _GZIP_MAGIC
        raw_fh.seek(0)
        isize = _gzip_size(raw_fh) if zipped else None
        fh = gzip.GzipFile(fileobj=raw_fh, mode="rb") if zipped else raw_fh
        kind = "decompressed content" if zipped else "file"
        head = _read_exactly(fh, 4, path, zipped)
        if len(head) < 4:
            _fail(path, f"the {kind} has {len(head)} bytes, fewer than the 4-byte magic number")
        if head[0] != 0 or head[1] != 0:
            _fail(path, f"the magic number starts with bytes 0x{head[0]:02x} 0x{head[1]:02x}, "
                        "not 0x00 0x00 (not an IDX file)")
        code, ndim = head[2], head[3]
        if code not in IDX_DTYPES:
            known = ", ".join(f"0x{c:02X}" for c in IDX_DTYPES)
            _fail(path, f"unknown dtype code 0x{code:02X} in the magic number (known: {known})")
        if ndim == 0:
            _fail(path, "the magic number announces 0 dimensions")
        if ndim > MAX_NDIM:
            _fail(path, f"the magic number announces {ndim} dimensions, more than {MAX_NDIM}")
        dims_raw = _read_exactly(fh, 4 * ndim, path, zipped)
        header = 4 + 4 * ndim
        if len(dims_raw) < 4 * ndim:
            _fail(path, f"the header announces {ndim} dimensions ({header} header bytes) but "
                        f"the {kind} has only {4 + len(dims_raw)} bytes")
        dims = tuple(int(v) for v in np.frombuffer(dims_raw, dtype=">u4", count=ndim))
        items = 1
        for v in dims:
            items *= v
        if items > _MAX_ITEMS:
            _fail(path, f"the header announces dimensions {dims} ({items} items), more than "
                        f"{_MAX_ITEMS}")
        dtype = IDX_DTYPES[code]
        need = items * dtype.itemsize
        if need > max_bytes:
            _fail(path, f"the header announces dimensions {dims} of {dtype.itemsize}-byte items, "
                        f"{need} bytes, more than max_bytes={max_bytes}")
        if zipped and isize is not None and isize != (header + need) % 2**32:
            # checked before inflating: a truncated, padded or foreign stream costs nothing
            _fail(path, f"the gzip stream is truncated or has trailing bytes: its trailer "
                        f"gives the decompressed size {isize} (mod 2^32), dimensions {dims} of "
                        f"{dtype.itemsize}-byte items need {header + need} bytes (checked "
                        "before inflating; a file of several gzip members: decompress it "
                        "first)")
        if not zipped:
            size = os.fstat(raw_fh.fileno()).st_size
            if size != header + need:
                what = "truncated" if size < header + need else "has trailing bytes"
                _fail(path, f"{what}: dimensions {dims} of {dtype.itemsize}-byte items need "
                            f"{header + need} bytes, the {kind} has {size}")
        check_memory("path", os.fspath(path), 2 * need)    # the bytes and the native copy
        body = _read_exactly(fh, need + 1, path, zipped)   # one more: trailing bytes?
        if len(body) != need:
            what = "truncated" if len(body) < need else "has trailing bytes"
            got = f"{header + len(body)}" if len(body) <= need else "more"
            _fail(path, f"{what}: dimensions {dims} of {dtype.itemsize}-byte items need "
                        f"{header + need} bytes, the {kind} has {got}")
        if zipped:                       # the rest of the stream must be valid and empty
            _read_exactly(fh, 1, path, zipped)
    return head + dims_raw + body, zipped


def load_idx(path, *, max_bytes=MAX_BYTES):
    """Read an IDX file (gzip-compressed or raw) into a numpy array.

    Parameters
    ----------
    path : str or os.PathLike
        The file, e.g. ``train-images-idx3-ubyte.gz``; gzip is recognised by its magic bytes,
        not by the name. A file descriptor (an int) or a file object is refused: the file is
        opened, checked and closed here.
    max_bytes : int, default=MAX_BYTES (2^30)
        The most bytes of items a header may announce; a larger one is refused before
        anything is inflated or allocated.

    Returns
    -------
    numpy.ndarray
        Shape = the header's dimensions, dtype = the header's dtype in native byte order
        (``uint8`` for MNIST images and labels).

    Raises
    ------
    InvalidParameterError
        (a ``ValueError``) naming the file when it does not exist, its gzip stream is truncated
        or corrupt, the magic number does not start with two zero bytes, the dtype code is not
        one of ``IDX_DTYPES``, the number of dimensions is 0 or above ``MAX_NDIM``, the header
        is cut short, the items would exceed ``max_bytes``, the gzip trailer's size disagrees
        with the header (checked before inflating), or the file length differs from header +
        prod(dimensions) × item size (truncated, or trailing bytes); or when ``path`` is not a
        path.

    Examples
    --------
    >>> images = load_idx("train-images-idx3-ubyte.gz")   # doctest: +SKIP
    >>> images.shape, images.dtype                          # doctest: +SKIP
    ((60000, 28, 28), dtype('uint8'))
    """
    if not isinstance(path, (str, bytes, os.PathLike)):
        # an int would be taken by os.open's relatives as a descriptor of the caller's
        raise InvalidParameterError(
            f"`path` must be a file path (str or os.PathLike); got {type(path).__name__} "
            f"{path!r:.60}" + (" (a file descriptor is not accepted: pass the file's path)."
                              if isinstance(path, int) else "."))
    max_bytes = check_int("max_bytes", max_bytes, low=1)
    raw, zipped = _read_bytes(path, max_bytes)
    ndim = raw[3]
    header = 4 + 4 * ndim
    dims = tuple(int(v) for v in np.frombuffer(raw, dtype=">u4", count=ndim, offset=4))
    dtype = IDX_DTYPES[raw[2]]
    items = (len(raw) - header) // dtype.itemsize
    data = np.frombuffer(raw, dtype=dtype, count=items, offset=header).reshape(dims)
    return data.astype(dtype.newbyteorder("="), copy=True)
