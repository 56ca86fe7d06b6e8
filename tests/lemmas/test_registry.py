"""The check registry contract: registration, seeding keyed by id, records, validation."""
import numpy as np
import pytest

from laocheck.exceptions import InvalidParameterError
from laocheck.lemmas import Result, Status, _registry, check_seed, checks, register, run


@pytest.fixture
def scratch(monkeypatch):
    checks()                                  # discover the catalog before copying it
    monkeypatch.setattr(_registry, "_CHECKS", dict(_registry._CHECKS))
    return _registry._CHECKS


def test_register_run_and_seed_keyed_by_id(scratch):
    @register("Test.draw", citation="none", statement="a draw", method="monte carlo",
              delta=1e-6, detectable=0.1)
    def draw(ctx):
        return Result(Status.PASS, {"u": float(ctx.rng.random()), "budget": ctx.budget})

    check = _registry.get("Test.draw")
    a, b = run(check, seed=3), run(check, seed=3)
    assert a["figures"] == b["figures"] and a["status"] == "PASS"
    assert run(check, seed=4)["figures"]["u"] != a["figures"]["u"]
    assert a["figures"]["budget"] == "fast" and run(check, 3, "full")["figures"]["budget"] == "full"
    # the stream depends on (seed, id) only
    expected = float(np.random.default_rng(check_seed(3, "Test.draw")).random())
    assert a["figures"]["u"] == expected
    assert check_seed(3, "Test.draw").entropy == 3
    assert check_seed(3, "Test.other").generate_state(2).tolist() != \
        check_seed(3, "Test.draw").generate_state(2).tolist()
    for key in ("id", "status", "citation", "statement", "figures", "delta", "seconds"):
        assert key in a
    assert [c.id for c in checks("Test.*")] == ["Test.draw"]


def test_exception_in_a_check_is_a_fail_with_traceback(scratch):
    @register("Test.boom", citation="none", statement="s", method="m")
    def boom(ctx):
        raise RuntimeError("kaboom")

    record = run("Test.boom", seed=0)
    assert record["status"] == "FAIL" and "kaboom" in record["note"]
    with pytest.raises(RuntimeError):
        run("Test.boom", seed=0, catch=False)


def test_estimator_checks_rebind_to_a_user_estimator(scratch):
    @register("Test.est", citation="none", statement="s", method="m",
              estimator="HK12.AERR.gradient", params={"k": 2})
    def est_check(ctx, *, estimator):
        return Result(Status.PASS, {"name": getattr(estimator, "name", "mine")})

    check = _registry.get("Test.est")
    assert run(check)["figures"]["name"] == "HK12.AERR.gradient"

    class Mine:
        def sample(self, *a, **k):  # pragma: no cover - never called
            raise AssertionError

    assert run(check.with_estimator(Mine()))["figures"]["name"] == "mine"


@pytest.mark.parametrize("kwargs,word", [({"delta": 0.01}, "delta"), ({"delta": -1.0}, "delta")])
def test_register_validates(scratch, kwargs, word):
    with pytest.raises(InvalidParameterError, match=word):
        register("Test.bad", citation="c", statement="s", method="m", **kwargs)


def test_run_validates(scratch):
    register("Test.ok", citation="c", statement="s", method="m")(lambda ctx: Result("PASS"))
    with pytest.raises(InvalidParameterError, match="budget"):
        run("Test.ok", seed=0, budget="medium")
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
    from laocheck.lemmas import run_on
    est = estimators.get("HK12.AERR.gradient", k=2)
    records = run_on(est, "Estimators.HK12.AERR.gradient.*", seed=2)
    assert {r["id"] for r in records} >= {"Estimators.HK12.AERR.gradient.unbiased.exact",
                                           "Estimators.HK12.AERR.gradient.budget"}
    assert all(r["status"] == "PASS" for r in records)
    with pytest.raises(InvalidParameterError, match="estimator"):
        checks("HK12.Lemma3.2")[0].with_estimator(est)
