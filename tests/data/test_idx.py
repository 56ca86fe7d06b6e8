"""The IDX loader on valid, truncated and foreign files written in tmp_path."""

import gzip
import struct

import numpy as np
import pytest

from laocheck.data import load_idx
from laocheck.exceptions import InvalidParameterError


def idx_bytes(array, code):
    """IDX bytes written by hand from the format's definition (independent of the loader)."""
    dtype = {0x08: ">u1", 0x09: ">i1", 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}[code]
    head = bytes([0, 0, code, array.ndim]) + b"".join(struct.pack(">I", n) for n in array.shape)
    return head + np.asarray(array, dtype=dtype).tobytes()


@pytest.mark.parametrize("zipped", [False, True])
def test_valid_images_and_labels(tmp_path, zipped):
    images = np.arange(2 * 3 * 4, dtype=np.uint8).reshape(2, 3, 4)
    labels = np.array([3, 5], dtype=np.uint8)
    for name, arr in (("img", images), ("lab", labels)):
        data = idx_bytes(arr, 0x08)
        (tmp_path / name).write_bytes(gzip.compress(data) if zipped else data)
    got = load_idx(tmp_path / "img")
    assert got.shape == (2, 3, 4) and got.dtype == np.uint8
    np.testing.assert_array_equal(got, images)
    np.testing.assert_array_equal(load_idx(str(tmp_path / "lab")), labels)


@pytest.mark.parametrize("code,values", [(0x09, [-1, 2]), (0x0B, [-300, 7]), (0x0C, [70000, -5]),
                                         (0x0D, [0.5, -1.25]), (0x0E, [1e-300, 2.5])])
def test_other_dtypes_big_endian(tmp_path, code, values):
    arr = np.array(values)
    (tmp_path / "f").write_bytes(idx_bytes(arr, code))
    got = load_idx(tmp_path / "f")
    np.testing.assert_array_equal(got, arr)
    assert got.dtype.isnative


def test_truncated_raw_file(tmp_path):
    data = idx_bytes(np.zeros((10, 28, 28), dtype=np.uint8), 0x08)
    (tmp_path / "t").write_bytes(data[:-1])
    with pytest.raises(InvalidParameterError, match=r"truncated.*7856 bytes.*7855") as err:
        load_idx(tmp_path / "t")
    assert str(tmp_path / "t") in str(err.value)


def test_trailing_bytes(tmp_path):
    (tmp_path / "t").write_bytes(idx_bytes(np.zeros(3, dtype=np.uint8), 0x08) + b"x")
    with pytest.raises(InvalidParameterError, match="trailing bytes"):
        load_idx(tmp_path / "t")


def test_truncated_gzip_stream(tmp_path):
    z = gzip.compress(idx_bytes(np.arange(1000, dtype=np.uint8) % 7, 0x08))
    (tmp_path / "t.gz").write_bytes(z[: len(z) // 2])
    with pytest.raises(InvalidParameterError, match="gzip stream is truncated") as err:
        load_idx(tmp_path / "t.gz")
    assert "t.gz" in str(err.value)


def test_truncated_header(tmp_path):
    (tmp_path / "h").write_bytes(bytes([0, 0, 8, 3]) + struct.pack(">I", 10))
    with pytest.raises(InvalidParameterError, match="announces 3 dimensions"):
        load_idx(tmp_path / "h")


@pytest.mark.parametrize("content,match", [
    (b"%PDF-1.4 not an idx file", "not 0x00 0x00"),
    (b"\x00\x00\x07\x01\x00\x00\x00\x01x", "unknown dtype code 0x07"),
    (b"\x00\x00\x08\x00", "0 dimensions"),
    (b"\x00\x00", "fewer than the 4-byte magic"),
    (b"\x1f\x8bnot really gzip", "gzip stream is corrupt"),
])
def test_foreign_files(tmp_path, content, match):
    (tmp_path / "foreign").write_bytes(content)
    with pytest.raises(InvalidParameterError, match=match) as err:
        load_idx(tmp_path / "foreign")
    assert "foreign" in str(err.value) and isinstance(err.value, ValueError)


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(InvalidParameterError, match="does not exist"):
        load_idx(tmp_path / "nope")
    with pytest.raises(InvalidParameterError, match="is a directory"):
        load_idx(tmp_path)
