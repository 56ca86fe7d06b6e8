"""The check registry contract: registration, seeding keyed by id, records, validation."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from laocheck.exceptions import InvalidParameterError
from laocheck.checks import Result, Status, _registry, check_seed, checks, register, run
from laocheck.checks._common import distinct_rows


@pytest.fixture
def scratch(monkeypatch):
    checks()                                  # discover the catalog before copying it
    monkeypatch.setattr(_registry, "_CHECKS", dict(_registry._CHECKS))
    return _registry._CHECKS


def test_register_run_and_seed_keyed_by_id(scratch):
    @register("Test.draw", citation="none", statement="a draw", method="monte carlo",
              delta=1e-6, detectable=0.1)
    def draw(ctx):
        return Result(Status.PASS, {"u": float(ctx.rng.random()), "effort": ctx.effort.name})

    check = _registry.get("Test.draw")
    a, b = run(check, seed=3), run(check, seed=3)
    assert a.figures == b.figures and a.status == "PASS"
    assert run(check, seed=4).figures["u"] != a.figures["u"]
    assert a.figures["effort"] == "fast" and run(check, 3, "full").figures["effort"] == "full"
    # the stream depends on (seed, id) only
    expected = float(np.random.default_rng(check_seed(3, "Test.draw")).random())
    assert a.figures["u"] == expected
    assert check_seed(3, "Test.draw").entropy == 3
    assert check_seed(3, "Test.other").generate_state(2).tolist() != \
        check_seed(3, "Test.draw").generate_state(2).tolist()
    for key in ("id", "status", "citation", "statement", "figures", "delta", "seconds"):
        assert key in a.to_dict()
    assert [c.id for c in checks("Test.*")] == ["Test.draw"]


def test_exception_in_a_check_is_a_fail_with_traceback(scratch):
    @register("Test.boom", citation="none", statement="s", method="m")
    def boom(ctx):
        raise RuntimeError("kaboom")

    record = run("Test.boom", seed=0)
    assert record.status == "FAIL" and "kaboom" in record.note
    with pytest.raises(RuntimeError):
        run("Test.boom", seed=0, catch=False)


def test_estimator_checks_rebind_to_a_user_estimator(scratch):
    @register("Test.est", citation="none", statement="s", method="m",
              estimator="HK12.AERR.gradient", params={"k": 2})
    def est_check(ctx, *, estimator):
        return Result(Status.PASS, {"name": getattr(estimator, "name", "mine")})

    check = _registry.get("Test.est")
    assert run(check).figures["name"] == "HK12.AERR.gradient"

    class Mine:
        def sample(self, *a, **k):  # pragma: no cover - never called
            raise AssertionError

    assert run(check.with_estimator(Mine())).figures["name"] == "mine"


@pytest.mark.parametrize("kwargs,word", [({"delta": 0.01}, "delta"), ({"delta": -1.0}, "delta")])
def test_register_validates(scratch, kwargs, word):
    with pytest.raises(InvalidParameterError, match=word):
        register("Test.bad", citation="c", statement="s", method="m", **kwargs)


def test_run_validates(scratch):
    register("Test.ok", citation="c", statement="s", method="m")(lambda ctx: Result("PASS"))
    with pytest.raises(InvalidParameterError, match="`effort` must be .* got effort='medium'"):
        run("Test.ok", seed=0, effort="medium")
    with pytest.raises(InvalidParameterError, match="seed"):
        check_seed(-1, "x")
    with pytest.raises(InvalidParameterError, match="id"):
        _registry.get("No.such.check")
    register("Test.twice", citation="c", statement="s", method="m")(lambda ctx: None)
    with pytest.raises(InvalidParameterError, match="unique"):
        register("Test.twice", citation="c", statement="s", method="m")(lambda ctx: None)


def test_run_on_a_users_estimator_object():
    """check_estimator style: every check taking an estimator, rebound to an object."""
    from laocheck import estimators
    from laocheck.checks import run_on
    est = estimators.get("HK12.AERR.gradient", k=2)
    records = run_on(est, "HK12.AERR.gradient.*", seed=2)
    assert {r.id for r in records} >= {"HK12.AERR.gradient.unbiased.exact",
                                           "HK12.AERR.gradient.budget"}
    assert all(r.status == "PASS" for r in records)
    with pytest.raises(InvalidParameterError, match="estimator"):
        checks("HK12.Lemma3.2")[0].with_estimator(est)


def test_catalog_modules_are_listed_explicitly_and_totally():
    """CHECK_MODULES names every public module of laocheck.checks and of its subpackages (none
    is left out of the catalog by accident) and nothing else."""
    import pkgutil

    import laocheck.checks as package
    public = {m.name for m in pkgutil.walk_packages(package.__path__, "laocheck.checks.")
              if not m.ispkg and not any(part.startswith("_") for part in m.name.split("."))}
    assert set(_registry.CHECK_MODULES) == public


def test_a_check_module_that_fails_to_import_stops_the_catalog(monkeypatch):
    """A broken check module raises with its name, never a silently partial catalog."""
    monkeypatch.setattr(_registry, "_DISCOVERED", False)
    monkeypatch.setattr(_registry, "CHECK_MODULES",
                        (*_registry.CHECK_MODULES, "laocheck.checks.no_such_module"))
    with pytest.raises(_registry.CatalogImportError, match="laocheck.checks.no_such_module"):
        checks()


def test_records_are_frozen_and_round_trip(scratch):
    register("Test.rt", citation="c", statement="s", method="m")(
        lambda ctx: Result(Status.PASS, {"x": 1.5}))
    record = run("Test.rt", seed=9)
    with pytest.raises(AttributeError):
        record.status = "FAIL"
    doc = record.to_dict()
    assert _registry.CheckRecord.from_dict(doc) == record
    assert doc["entropy"] == 9 and doc["spawn_key"] == list(check_seed(9, "Test.rt").spawn_key)
    # the record's seed material reruns the check alone
    seq = np.random.SeedSequence(record.entropy, spawn_key=record.spawn_key)
    assert seq.generate_state(2).tolist() == check_seed(9, "Test.rt").generate_state(2).tolist()
    with pytest.raises(InvalidParameterError, match="missing"):
        _registry.CheckRecord.from_dict({"id": "x"})


@settings(derandomize=True, max_examples=200, deadline=None)
@given(st.integers(0, 60), st.integers(1, 4), st.integers(1, 5), st.randoms(use_true_random=False))
def test_distinct_rows_groups_as_numpy_unique(n, width, levels, rnd):
    """``checks._common.distinct_rows`` (the multinomial checks' grouping of kernel draws) gives
    numpy.unique(axis=0)'s rows and counts, for rows drawn from a few levels (many repeats)."""
    table = np.array([[rnd.randrange(levels) / 4 - 0.5 for _ in range(width)] for _ in range(n)],
                     dtype=float).reshape(n, width)
    rows, counts = distinct_rows(table)
    want_rows, want_counts = np.unique(table, axis=0, return_counts=True)
    np.testing.assert_array_equal(rows, want_rows)
    np.testing.assert_array_equal(counts, want_counts)
    assert counts.sum() == n
