"""hk12_mnist's data path (issue 35 item 5): the "3 vs 5" pair stays as its uint8 grey levels,
read by rows (:class:`laocheck.data.GreyRows`); neither the pair nor the ridge panel's copy
scaled to the unit L2 ball is made as a float64 array, and every number is the one the float64
arrays gave. Synthetic MNIST-format files written in tmp_path; no installed data set needed."""

import struct
import tracemalloc

import numpy as np

from laocheck.data import GreyRows, digit_source, max_row_norm, scale_to_unit_ball
from laocheck.data.sources import MNIST_FILES
from laocheck.experiments import papers
from laocheck.experiments.papers import Algorithm, _common, learning_curves
from laocheck.learners import AERR, OfflineRidge


def _write_idx(path, array):
    head = bytes([0, 0, 0x08, array.ndim]) + b"".join(struct.pack(">I", n) for n in array.shape)
    path.write_bytes(head + array.astype(np.uint8).tobytes())


def _mnist_dir(path, n_train, n_test, side, seed=0):
    rng = np.random.default_rng(seed)
    for i, n in ((0, n_train), (2, n_test)):
        _write_idx(path / MNIST_FILES[i], rng.integers(0, 256, size=(n, side, side)))
        _write_idx(path / MNIST_FILES[i + 1], rng.permutation(np.arange(n) % 10))
    return str(path)


def test_data_path_never_makes_the_pair_as_float64(tmp_path):
    """Taking the pair, scaling it for the ridge panel, the max norms learning_curves bounds
    its intervals with and both panels' rho (E[x²] by blocks): peak traced memory below half
    the pair's float64 size (the float64 pair alone was 1x; with the scaled copy and
    the x*x temporary of E[x²], 3x; now the pair's uint8 grey levels, 1/8, and blocks of rows).
    As many images as MNIST, of 14x14 pixels; the data set is loaded before tracing."""
    digits = digit_source("mnist", mnist=_mnist_dir(tmp_path, 60000, 10000, 14))
    rows = np.flatnonzero((digits.labels == 3) | (digits.labels == 5))
    pair_float64 = rows.size * 14 * 14 * 8                         # 22 MB
    tracemalloc.start()
    try:
        pair = digits.pair(3, 5, lazy=True)
        ridge, factor = scale_to_unit_ball(pair, "l2")
        for data in (pair, ridge):
            max_row_norm(data.X, "l2")
            max_row_norm(data.X, "linf")
            _common._rhos(data.X)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert isinstance(pair.X, GreyRows) and isinstance(ridge.X, GreyRows)
    assert pair.X.grey.dtype == np.uint8 and pair.n == rows.size == 14000
    assert peak < pair_float64 / 2, f"peak {peak / 1e6:.1f} MB of {pair_float64 / 1e6:.1f} MB"


def test_lazy_pair_gives_the_same_numbers(tmp_path):
    """The lazy pair and its scaled form equal the float64 arrays bit for bit (X, factor,
    preprocessing, rho), and learning curves on them (random splits read by rows, CV, prefixes)
    are identical to those on the arrays for the same seed."""
    digits = digit_source("mnist", mnist=_mnist_dir(tmp_path, 600, 200, 6))
    lazy, eager = digits.pair(3, 5, lazy=True), digits.pair(3, 5)
    assert isinstance(eager.X, np.ndarray)
    np.testing.assert_array_equal(np.asarray(lazy.X), eager.X)
    assert (lazy.y == eager.y).all() and lazy.preprocessing == eager.preprocessing
    lazy_r, f_lazy = scale_to_unit_ball(lazy, "l2")
    eager_r, f_eager = scale_to_unit_ball(eager, "l2")
    assert f_lazy == f_eager and lazy_r.preprocessing == eager_r.preprocessing
    np.testing.assert_array_equal(lazy_r.X[7:90], eager_r.X[7:90])
    np.testing.assert_array_equal(np.asarray(lazy_r.X), eager_r.X)
    assert _common._rhos(lazy_r.X) == _common._rhos(eager_r.X)
    algs = (Algorithm("AERR", lambda c: AERR(k=4), "HK12 Alg. 1"),
            Algorithm("Offline ridge", lambda c: OfflineRidge(), "full information"))
    kw = dict(k=4, runs=2, prefixes=(0.5, 1.0), folds=2, grid=(1.0, 4.0), seed=3, budget=5,
              max_train=60)
    curves_lazy, _ = learning_curves(algs, data=lazy_r, **kw)
    curves_eager, _ = learning_curves(algs, data=eager_r, **kw)
    assert curves_lazy == curves_eager


class _Stop(Exception):
    pass


def test_hk12_mnist_runs_on_the_lazy_pairs(tmp_path, monkeypatch):
    """hk12_mnist hands learning_curves the pair as grey levels (both panels: the ridge one
    with the unit-ball factor as a second divisor), not float64 arrays."""
    seen, original = [], papers.learning_curves

    def record(algorithms, *, data, **kw):
        seen.append(data)
        if len(seen) == 2:
            raise _Stop
        return original(algorithms, data=data, **kw)

    # every panel of an experiment runs its curves through _common.Experiment.curves
    monkeypatch.setattr(_common, "learning_curves", record)
    try:
        papers.hk12_mnist(effort="tiny", source="mnist",
                          mnist=_mnist_dir(tmp_path, 400, 100, 6))
    except _Stop:
        pass
    assert len(seen) == 2 and all(isinstance(d.X, GreyRows) for d in seen)
    assert len(seen[0].X.divisors) == 1 and len(seen[1].X.divisors) == 2
    assert seen[1].X.grey is seen[0].X.grey
