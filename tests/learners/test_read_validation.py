"""Validation where the attribute is read (issue 35 item 1): the budgeted learners check each
entry of X and y that a step reads (finite, |value| <= 1e100) and never scan X. A bad entry a
step reads raises the clear error (row, column, value, limit) and leaves the learner unfitted;
one that no step reads changes nothing, bit for bit."""
import numpy as np
import pytest
from sklearn.exceptions import NotFittedError
from sklearn.utils.validation import check_is_fitted

from laocheck.learners import (AELR, AER, AERR, AESVR, DDAELR, DDAERR, GAERR, AdaAERR,
                               AdaTwoPhaseDDAERR, Baseline, TwoPhaseDDAELR, TwoPhaseDDAERR)
from laocheck.learners._base import BadEntryError

D = 12
MAKERS = {
    "AERR": lambda: AERR(k=2, random_state=1),
    "AELR": lambda: AELR(k=2, random_state=1),
    "GAERR": lambda: GAERR(k=2, eta=0.05, q=np.linspace(1, 2, D) / np.linspace(1, 2, D).sum(),
                           random_state=1),
    "DDAERR": lambda: DDAERR(k=2, second_moments=0.1, n_inner=2, random_state=1),
    "DDAELR": lambda: DDAELR(k=2, second_moments=0.1, random_state=1),
    "AER": lambda: AER(k=2, random_state=1),
    "Baseline": lambda: Baseline(k=2, random_state=1),
    "AESVR": lambda: AESVR(k=2, random_state=1),
    "TwoPhaseDDAERR": lambda: TwoPhaseDDAERR(k=2, random_state=1),
    "TwoPhaseDDAELR": lambda: TwoPhaseDDAELR(k=2, variant="practical", random_state=1),
    "AdaAERR": lambda: AdaAERR(k=2, random_state=1),
    "AdaTwoPhaseDDAERR": lambda: AdaTwoPhaseDDAERR(k=2, random_state=1),
}


def data(m=80, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, (m, D)) / np.sqrt(D)
    return X, X[:, 0] * 0.5 + 0.01 * rng.normal(size=m)


def assert_unfitted(model):
    with pytest.raises(NotFittedError):
        check_is_fitted(model)
    assert not hasattr(model, "_state")


@pytest.mark.parametrize("name", list(MAKERS))
@pytest.mark.parametrize("value", [np.nan, 1e308, -np.inf])
def test_a_bad_entry_a_step_reads_raises_and_leaves_the_learner_unfitted(name, value):
    """A whole row 5 bad: every step reads at least one attribute of its example (row 5 is in
    phase 1 of the two-phase learners, whose theory variant reads k + 1 of its attributes)."""
    X, y = data()
    X[5] = value
    model = MAKERS[name]()
    with pytest.raises(BadEntryError, match=r"`X` must be finite with max\|X\| <= 1e\+100") \
            as info:
        model.fit(X, y)
    assert info.value.row == 5 and 0 <= info.value.col < D
    assert f"X[5, {info.value.col}]" in str(info.value)
    assert_unfitted(model)
    # the same through fit_stream (row 5 of the pool) and after a clean first partial_fit
    with pytest.raises(BadEntryError):
        MAKERS[name]().fit_stream(X, y, 200)
    model = MAKERS[name]()
    model.n_total = 160
    Xc, yc = data(seed=1)
    model.partial_fit(Xc, yc)
    with pytest.raises(BadEntryError, match=r"X\[5, "):
        model.partial_fit(X, y)
    assert_unfitted(model)


@pytest.mark.parametrize("name", [n for n in MAKERS if "TwoPhase" not in n])
def test_a_label_beyond_the_limit_raises(name):
    """y is read by every step of these learners (the two-phase learners' phase 1 reads no y)."""
    X, y = data()
    y[7] = -1e200
    model = MAKERS[name]()
    with pytest.raises(BadEntryError, match=r"got y\[7\]=-1e\+200"):
        model.fit(X, y)
    assert_unfitted(model)


@pytest.mark.parametrize("name", list(MAKERS))
def test_a_bad_entry_no_step_reads_changes_nothing(name):
    """NaN and 1e308 planted in entries of one row, one at a time: either a step reads it (the
    clear error) or the run is bit for bit the clean one. With k = 2 of d = 12 attributes read
    per example, most entries are never read: at least one of them must not raise."""
    X, y = data()
    clean = MAKERS[name]().fit(X, y).coef_
    unread = 0
    for col in range(D):
        for value in (np.nan, 1e308):
            bad = X.copy()
            bad[40, col] = value
            try:
                coef = MAKERS[name]().fit(bad, y).coef_
            except BadEntryError as exc:
                assert (exc.row, exc.col) == (40, col)
                continue
            unread += 1
            assert np.array_equal(coef.view(np.int64), clean.view(np.int64))
    assert unread >= 2


def test_unread_entries_for_the_recorded_draws():
    """AERR's recorded draws name the attributes each step read: NaN everywhere else changes
    nothing, bit for bit."""
    X, y = data()
    model = AERR(k=2, random_state=3, record_draws=True).fit(X, y)
    bad = np.full_like(X, np.nan)
    for t, drawn in enumerate(model.draws_):
        read = drawn[drawn >= 0]
        bad[t, read] = X[t, read]
    again = AERR(k=2, random_state=3).fit(bad, y)
    assert np.array_equal(again.coef_.view(np.int64), model.coef_.view(np.int64))


def test_aer_step_ratio_is_checked_on_the_entries_read():
    """CB11 Fig. 2's first-step bound (``AER_MAX_STEP_RATIO``) on the largest |x|, |y| read: a
    large entry in a row every step reads raises the lam error; the learner is unfitted."""
    X, y = data()
    X[3] = 1e6
    model = AER(k=2, lam=0.1, random_state=0)
    with pytest.raises(ValueError, match="`lam`=0.1 is too small for the entries read"):
        model.fit(X, y)
    assert_unfitted(model)


def test_ada_learners_raise_when_the_sum_of_squares_overflows():
    """Issue 36: data scaled by 1e80 (within the documented 1e100) made Σ g̃² overflow, so each
    step η₀ g̃/√G was 0 and AdaAERR returned its starting point silently; it raises now."""
    X, y = data()
    model = AdaAERR(k=2, random_state=0)
    with pytest.raises(ValueError, match="non-finite iterate"):
        model.fit(X * 1e80, y * 1e80)
    assert_unfitted(model)


# ------------------------------------------------------------------ long runs (issue 36)
@pytest.mark.parametrize("name", ["AERR", "AELR", "AER", "Baseline", "AESVR", "AdaAERR"])
def test_a_run_in_chunks_is_the_run_in_one_call(name):
    """fit, fit_stream (pool smaller and larger than a chunk) and partial_fit split into
    kernel calls of 7 steps give the coefficients, attributes and draws of one call, bit for
    bit."""
    X, y = data()
    for call in (lambda m: m.fit(X, y), lambda m: m.fit_stream(X, y, 333),
                 lambda m: m.fit_stream(X[:5], y[:5], 61)):
        whole = MAKERS[name]()
        whole.record_draws = True
        call(whole)
        split = MAKERS[name]()
        split.record_draws = True
        split._chunk = 7
        call(split)
        assert np.array_equal(whole.coef_.view(np.int64), split.coef_.view(np.int64))
        assert np.array_equal(whole.attributes_per_example_, split.attributes_per_example_)
        assert np.array_equal(whole.draws_, split.draws_)


def test_fit_stream_keeps_no_per_step_buffer_unless_asked():
    """fit_stream(X, y, 10**9) asked for 16 bytes a step (7.45 GiB); the per-step record is
    kept only when asked (or for n_steps <= 2**20), the totals are exact either way, and the
    memory of a long run does not grow with its steps."""
    import tracemalloc                   # only this test measures allocations
    X, y = data()
    kept = AERR(k=2, random_state=4).fit_stream(X, y, 5000)
    lean = AERR(k=2, random_state=4).fit_stream(X, y, 5000, keep_attributes=False)
    assert lean.attributes_per_example_ is None
    assert lean.n_attributes_seen_ == kept.attributes_per_example_.sum()
    assert lean.max_attributes_per_example_ == kept.attributes_per_example_.max()
    assert np.array_equal(lean.coef_, kept.coef_)
    model = AERR(k=2, random_state=4)
    model._chunk = 1000
    tracemalloc.start()
    model.fit_stream(X, y, 400_000, keep_attributes=False)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 400_000 * 8 / 4          # a per-step int64 record would be 3.2 MB
    assert model.n_steps_ == 400_000
    with pytest.raises(ValueError, match="`keep_attributes`"):
        AERR(k=2).fit_stream(X, y, 10, keep_attributes="yes")


@pytest.mark.parametrize("name", ["AERR", "AELR", "AER", "AdaAERR", "AESVR", "Baseline"])
def test_ctrl_c_stops_a_long_run_and_leaves_the_learner_unfitted(name, ctrl_c):
    """A run of 10¹² steps (hours) interrupted after 0.2 s (``_thread.interrupt_main``, as
    Ctrl-C): a KeyboardInterrupt between two kernel calls (a chunk is 2¹⁶ steps, well under
    a second), and no half-updated state."""
    import _thread                       # only this test simulates Ctrl-C
    import threading
    X, y = data()
    model = MAKERS[name]()
    timer = threading.Timer(0.2, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            model.fit_stream(X, y, 10**12)
    finally:
        timer.cancel()
    assert_unfitted(model)


# ------------------------------------------------------------------ unpickling (issue 36)
def _states():
    """A fitted learner's state of each class: (name, state)."""
    X, y = data(300)
    wide = np.random.default_rng(0).uniform(-1e-3, 1e-3, (40, 70_000))   # d >= 2**16: sparse
    out = [("RidgeState", AERR(k=2, random_state=0).fit(X, y)._state),
           ("LassoState", AELR(k=2, random_state=0).fit(X, y)._state),
           ("AERState", AER(k=4, random_state=0).fit(X, y)._state),
           ("SparseRidgeState", AERR(k=2, random_state=0).fit(wide, wide[:, 0])._state),
           ("SparseLassoState", AELR(k=2, random_state=0).fit(wide, wide[:, 0])._state)]
    assert [type(s).__name__ for _, s in out] == [n for n, _ in out]
    return out


def _corruptions(args):
    """Copies of a state's reduce arguments with one array cut short or one index wrong."""
    for a, value in enumerate(args):
        if isinstance(value, np.ndarray) and value.size > 1:
            yield args[:a] + (value[: value.size // 2],) + args[a + 1:]
            if value.dtype.kind == "i":
                bad = value.copy()
                bad.flat[0] = np.iinfo(value.dtype).max
                yield args[:a] + (bad,) + args[a + 1:]
        if isinstance(value, bytes) and len(value) > 8:
            yield args[:a] + (value[:-8],) + args[a + 1:]
            bad = bytearray(value)
            bad[:8] = (2**40).to_bytes(8, "little")   # a node's count or child far out
            yield args[:a] + (bytes(bad),) + args[a + 1:]


def test_a_corrupted_pickled_state_is_refused_not_a_segfault():
    """A pickled learner state rebuilt with a short array segfaulted on partial_fit: every
    state class checks what it unpickles (shapes, indices, the AER tree) and refuses with a
    ValueError; a clean round trip still works."""
    import pickle                        # only this test round-trips states
    for name, state in _states():
        restore, args = state.__reduce__()
        again = pickle.loads(pickle.dumps(state))
        assert np.array_equal(again.coef(), state.coef()), name
        n = 0
        for bad in _corruptions(args):
            n += 1
            try:
                restore(*bad)
            except (ValueError, MemoryError):
                continue
            raise AssertionError(f"{name}: a corrupted pickle was accepted")
        assert n >= 1, name


@pytest.mark.parametrize("Model", [TwoPhaseDDAERR, AdaTwoPhaseDDAERR])
def test_two_phase_fit_that_ends_in_phase_1_is_refused(Model):
    """Issue 36: TwoPhaseDDAERR(n_total=10**6) on 200 rows returned coef_ = 0 without a word
    (m1 = n_total/10 took every row). fit and fit_stream refuse, naming n_total; partial_fit
    (the blocks of a long run) goes on; an n_total the rows reach phase 2 with still fits."""
    X, y = data(200)
    with pytest.raises(ValueError, match=r"`n_total`=1000000 puts phase 1 at m1=100000"):
        Model(k=2, n_total=10**6).fit(X, y)
    with pytest.raises(ValueError, match="`n_total`"):
        Model(k=2, n_total=10**6).fit_stream(X, y, 5000)
    model = Model(k=2, n_total=10**6).partial_fit(X, y)     # blocks of a long run: allowed
    assert model.n_steps_ == 200 and not np.any(model.coef_)
    assert Model(k=2, n_total=1999, random_state=0).fit(X, y).n_steps_ == 200
