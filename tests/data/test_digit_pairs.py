"""A digit pair is selected from the grey levels as stored (uint8) before it becomes float64: the
full data set is never converted (Fashion-MNIST's 70,000 images: 55 MB instead of 440 MB).
Synthetic MNIST-format directories written in tmp_path; no installed data set is needed."""

import struct
import tracemalloc

import numpy as np
import pytest

from laocheck.data import (GreyRows, SourceUnavailable, check_digit_source, load_fashion_mnist,
                           load_mnist, load_sklearn_digits, max_row_norm, mean_squares)
from laocheck.data.sources import MNIST_FILES
from laocheck.exceptions import InvalidParameterError

SIDE = 28


def _write_idx(path, array):
    head = bytes([0, 0, 0x08, array.ndim]) + b"".join(struct.pack(">I", n) for n in array.shape)
    path.write_bytes(head + array.astype(np.uint8).tobytes())


def _mnist_dir(path, n_train, n_test, seed=0):
    """Four raw IDX files: random grey levels 0..255 (each image holds 0 and 255), labels
    cycling through 0..9 in a shuffled order."""
    rng = np.random.default_rng(seed)
    for i, n in ((0, n_train), (2, n_test)):
        images = rng.integers(0, 256, size=(n, SIDE, SIDE), dtype=np.uint8)
        images[:, 0, 0], images[:, 0, 1] = 0, 255
        labels = rng.permutation(np.arange(n) % 10).astype(np.uint8)
        _write_idx(path / MNIST_FILES[i], images)
        _write_idx(path / MNIST_FILES[i + 1], labels)
    return path


@pytest.mark.parametrize("loader", [load_mnist, load_fashion_mnist])
def test_pair_is_selected_from_the_stored_grey_levels(tmp_path, loader):
    """``grey`` is the files' uint8 array (training then test images); the pair's X is
    grey[rows] / 255 of exactly the two classes' rows, in order, equal bit for bit to the pixels
    ``X`` of the whole set, which the pair does not compute."""
    data = loader(str(_mnist_dir(tmp_path, 60, 40)))
    assert data.grey.dtype == np.uint8 and data.grey.shape == (100, SIDE * SIDE)
    pair = data.pair(3, 5)
    assert "X" not in vars(data)                       # the float64 copy of all images: never
    rows = np.flatnonzero((data.labels == 3) | (data.labels == 5))
    assert rows.size == 20 and pair.n == 20 and pair.d == SIDE * SIDE
    np.testing.assert_array_equal(pair.y, np.where(data.labels[rows] == 5, 1.0, -1.0))
    assert pair.X.dtype == np.float64
    np.testing.assert_array_equal(pair.X, data.grey[rows].astype(np.float64) / 255.0)
    np.testing.assert_array_equal(pair.X, data.X[rows])
    assert data.X.min() == 0.0 and data.X.max() == 1.0 and data.X is data.X   # kept once made


def test_pair_memory_is_that_of_the_pair(tmp_path):
    """Peak traced memory of loading 3,000 images and taking one pair stays below the float64
    size of all images, which the conversion before the selection allocated at least."""
    directory = str(_mnist_dir(tmp_path, 2400, 600))
    full_float64 = 3000 * SIDE * SIDE * 8                        # 18.8 MB
    tracemalloc.start()
    try:
        pair = load_mnist(directory).pair(3, 5)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert pair.n == 600
    assert peak < full_float64 / 2, f"peak {peak / 1e6:.1f} MB"


def test_sklearn_digits_pair_unchanged():
    """scikit-learn's digits: grey levels 0..16 as its bunch stores them, X = grey / 16."""
    data = load_sklearn_digits()
    assert data.grey.max() == 16 and data.pixel_scale == 16.0
    pair = data.pair(3, 5)
    rows = np.flatnonzero((data.labels == 3) | (data.labels == 5))
    np.testing.assert_array_equal(pair.X, data.grey[rows] / 16.0)


def test_max_row_norm_equals_the_whole_array_norm():
    """By blocks of rows (here three blocks and a part), the same value as the norms of all
    rows at once, bit for bit; no rows give 0.0, a NaN gives NaN, a bad `norm` is refused."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(3 * 4096 + 17, 5)) * rng.uniform(0.5, 2.0, size=(3 * 4096 + 17, 1))
    assert max_row_norm(X, "l2") == float(np.linalg.norm(X, axis=1).max())
    assert max_row_norm(X, "linf") == float(np.abs(X).max())
    assert max_row_norm(X[:0], "l2") == 0.0
    X[5000, 2] = np.nan
    assert np.isnan(max_row_norm(X, "l2"))
    with pytest.raises(InvalidParameterError, match="`norm`"):
        max_row_norm(X, "l1")


def test_mean_squares_equals_the_mean_of_x_squared():
    """E[x²] by blocks of rows (many blocks and a part) equals np.mean(X * X, axis=0) bit for
    bit, on an array and on grey levels read by rows; no rows or a NaN are refused."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(2600, 7)) * rng.uniform(0.1, 9.0, size=(2600, 1))
    np.testing.assert_array_equal(mean_squares(X), np.mean(X * X, axis=0))
    grey = rng.integers(0, 256, size=(2600, 7), dtype=np.uint8)
    rows = GreyRows(grey, (255.0, 3.7))
    np.testing.assert_array_equal(mean_squares(rows), np.mean((grey / 255.0 / 3.7) ** 2, axis=0))
    np.testing.assert_array_equal(rows[[4, 2, 2599]], grey[[4, 2, 2599]] / 255.0 / 3.7)
    with pytest.raises(InvalidParameterError, match="nonempty"):
        mean_squares(X[:0])
    X[2000, 3] = np.nan
    with pytest.raises(InvalidParameterError, match="finite"):
        mean_squares(X)


def test_check_digit_source_raises_what_loading_would(tmp_path):
    """The cheap check before a report: a missing directory or IDX file raises the loader's
    SourceUnavailable without reading data; present files and bundled sources pass."""
    with pytest.raises(SourceUnavailable, match="MNIST.*lacks"):
        check_digit_source("mnist", mnist=str(tmp_path))
    with pytest.raises(SourceUnavailable, match="MNIST.*lacks"):
        check_digit_source(None, mnist=str(tmp_path))
    with pytest.raises(SourceUnavailable, match="Fashion-MNIST"):
        check_digit_source("fashion-mnist", fashion_dir=str(tmp_path / "none"))
    with pytest.raises(InvalidParameterError, match="`source`"):
        check_digit_source("usps")
    check_digit_source("mnist", mnist=_mnist_dir(tmp_path, 20, 10))
    check_digit_source("sklearn-digits")
    check_digit_source(None)
