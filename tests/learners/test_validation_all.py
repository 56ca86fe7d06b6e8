"""Malformed input to every learner gets a ValueError that names the problem (the issue's
list: NaN, wrong shapes, k > d, k < 1, B <= 0, empty X, a q that is not a distribution)."""
import numpy as np
import pytest

from laocheck import InvalidParameterError
from laocheck.learners import (AELR, AER, AERR, AESVR, DDAELR, DDAERR, GAELR, GAERR, AdaAERR,
                               AdaDDAERR, AdaGAERR, AdaOnlineRidge, AdaTwoPhaseDDAERR, Baseline,
                               OfflineLasso, OfflineRidge, OnlineLasso, OnlineRidge,
                               TwoPhaseDDAELR, TwoPhaseDDAERR)

D = 6
BUDGETED = {
    "AERR": lambda **kw: AERR(**kw), "AELR": lambda **kw: AELR(**kw),
    "GAERR": lambda **kw: GAERR(eta=0.1, **kw), "GAELR": lambda **kw: GAELR(eta=0.1, **kw),
    "DDAERR": lambda **kw: DDAERR(second_moments=0.1, **kw),
    "DDAELR": lambda **kw: DDAELR(second_moments=0.1, **kw),
    "AER": lambda **kw: AER(**kw), "Baseline": lambda **kw: Baseline(**kw),
    "AESVR": lambda **kw: AESVR(**kw), "TwoPhaseDDAERR": lambda **kw: TwoPhaseDDAERR(**kw),
    "TwoPhaseDDAELR": lambda **kw: TwoPhaseDDAELR(**kw),
    "AdaAERR": lambda **kw: AdaAERR(**kw), "AdaGAERR": lambda **kw: AdaGAERR(**kw),
    "AdaDDAERR": lambda **kw: AdaDDAERR(second_moments=0.1, **kw),
    "AdaTwoPhaseDDAERR": lambda **kw: AdaTwoPhaseDDAERR(**kw),
}
FULL = {"OnlineRidge": OnlineRidge, "OnlineLasso": OnlineLasso, "OfflineRidge": OfflineRidge,
        "OfflineLasso": OfflineLasso, "AdaOnlineRidge": AdaOnlineRidge}


def data(m=60):
    rng = np.random.default_rng(0)
    X = rng.uniform(-1, 1, (m, D)) / np.sqrt(D)
    return X, X[:, 0] * 0.5


def all_learners():
    return [(name, lambda make=make: make(k=2)) for name, make in BUDGETED.items()] + \
        [(name, Model) for name, Model in FULL.items()]


@pytest.mark.parametrize("name,make", all_learners())
def test_malformed_data(name, make):
    X, y = data()
    bad = X.copy()
    bad[5] = np.nan        # a whole row: every step reads some attribute of its row
    with pytest.raises(ValueError, match="NaN"):
        make().fit(bad, y)
    bad_y = y.copy()
    bad_y[3] = np.inf
    with pytest.raises(ValueError, match="infinity|NaN"):
        make().fit(X, bad_y)
    with pytest.raises(ValueError, match="2D array"):
        make().fit(X[:, 0], y)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        make().fit(X, y[:-1])
    with pytest.raises(ValueError, match="0 sample"):
        make().fit(X[:0], y[:0])


@pytest.mark.parametrize("name", list(BUDGETED))
@pytest.mark.parametrize("k", [0, -1, D + 2, 2.5, True])
def test_bad_budget(name, k):
    X, y = data()
    with pytest.raises(InvalidParameterError, match="`k`"):
        BUDGETED[name](k=k).fit(X, y)


@pytest.mark.parametrize("name,make", all_learners())
@pytest.mark.parametrize("B", [0.0, -1.0, np.nan, np.inf])
def test_bad_radius(name, make, B):
    X, y = data()
    est = make()
    est.set_params(B=B)
    with pytest.raises(InvalidParameterError, match="`B`"):
        est.fit(X, y)


@pytest.mark.parametrize("Model", [GAERR, GAELR])
@pytest.mark.parametrize("q", [np.full(D, 0.5), np.r_[-0.1, np.full(D - 1, 1.1 / (D - 1))],
                               np.full(D - 1, 1 / (D - 1)), np.r_[np.nan, np.ones(D - 1)]])
def test_q_must_be_a_distribution(Model, q):
    X, y = data()
    with pytest.raises(InvalidParameterError, match="`q`"):
        Model(k=2, eta=0.1, q=q).fit(X, y)
