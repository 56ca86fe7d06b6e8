"""Effort profiles (laocheck.effort): one registry read by verify, check_estimator, check_learner,
the reports and the experiments; a user's own profile; the spellings before 0.1 (``budget``)
still working with a DeprecationWarning that names ``effort``."""
import json
import sys
import warnings

import numpy as np
import pytest

from laocheck import checks, effort
from laocheck.checks import Result, Status, _registry, register
from laocheck.cli import main
from laocheck.effort import Effort, get_profile, register_profile
from laocheck.exceptions import InvalidParameterError
from laocheck.experiments import papers
from laocheck.learners import AERR
from laocheck.report import KINDS, SPECS_DIR, Context, build_report, load_spec
from laocheck.testing import check_estimator, check_learner

from .user_estimators import UserAERRGradient

#: a cheap exact check and a cheap statistical one of the catalog (seconds at the fast counts)
CHEAP = ["HK12.Lemma3.3.eq9", "HK12.Lemma3.3.unbiased"]


@pytest.fixture
def registry():
    """The profile registry as the test found it, restored afterwards (a test registers its
    own profiles as a user's conftest.py would)."""
    before = dict(effort._PROFILES)
    yield effort
    effort._PROFILES.clear()
    effort._PROFILES.update(before)


@pytest.fixture
def scratch_checks(monkeypatch):
    checks.checks()
    monkeypatch.setattr(_registry, "_CHECKS", dict(_registry._CHECKS))


def _numbers(records):
    return [(r.id, r.status, r.figures, r.detects) for r in records]


def test_builtin_profiles_are_one_frozen_object_each():
    fast = get_profile("fast")
    assert effort.profiles()[:3] == ("tiny", "fast", "full")
    assert get_profile("fast") is fast and fast.checks == "fast" and fast.runs == 24
    assert get_profile("tiny").checks == "fast" and get_profile("full").checks == "full"
    assert fast.n(10, 1000) == 10 and get_profile("full").n(10, 1000) == 1000
    with pytest.raises(AttributeError):
        fast.runs = 3                                     # frozen: a run cannot change it
    assert fast.experiment() is not fast.experiment()     # the experiments get a copy


@pytest.mark.parametrize("call, parameter", [
    (lambda: get_profile("nope"), "effort"),
    (lambda: checks.run("HK12.Lemma3.3.eq9", effort="nope"), "effort"),
    (lambda: check_estimator(UserAERRGradient(k=2), effort="nope"), "effort"),
    (lambda: check_learner(AERR(k=2), effort="nope"), "effort"),
    (lambda: papers.ks15_synthetic(effort="nope"), "effort"),
    (lambda: Context(effort="nope"), "effort"),
    (lambda: register_profile("mine", parent="nope"), "parent"),
])
def test_an_unknown_profile_names_the_parameter_the_value_and_the_known_names(call, parameter):
    with pytest.raises(InvalidParameterError) as exc:
        call()
    message = str(exc.value)
    assert f"`{parameter}`" in message and f"{parameter}='nope'" in message
    assert "['tiny', 'fast', 'full']" in message


def test_a_registration_is_checked(registry):
    with pytest.raises(InvalidParameterError, match="`name` must not be a built-in profile"):
        register_profile("fast", runs=3)
    with pytest.raises(InvalidParameterError, match="`rnus` is not a field"):
        register_profile("mine", rnus=3)
    with pytest.raises(InvalidParameterError, match="`checks` must be one of"):
        register_profile("mine", checks="huge")
    with pytest.raises(InvalidParameterError, match="`runs` must be an integer >= 1"):
        register_profile("mine", runs=0)
    with pytest.raises(InvalidParameterError, match="`name` must be a plain name"):
        register_profile("my profile")
    assert "mine" not in effort.profiles()


def test_a_user_profile_runs_verify_check_estimator_and_check_learner(registry, tmp_path,
                                                                      capsys):
    """A user registers "nightly" (the fast sample counts, more experiment runs) and runs
    everything with it: the numbers are the fast profile's, the records name "nightly"."""
    nightly = register_profile("nightly", parent="fast", runs=48)
    assert get_profile("nightly") is nightly and nightly.parent == "fast"
    assert nightly.runs == 48 and nightly.checks == "fast"

    fast = checks.run_catalog([checks.get(i) for i in CHEAP], 0, "fast", 1)
    mine = checks.run_catalog([checks.get(i) for i in CHEAP], 0, "nightly", 1)
    assert _numbers(mine) == _numbers(fast) and {r.effort for r in mine} == {"nightly"}

    out = tmp_path / "v.json"
    assert main(["verify", "--only", CHEAP[0], "--effort", "nightly", "--json", str(out),
                 "--no-progress"]) == 0
    doc = json.loads(out.read_text())
    assert doc["run"]["effort"] == "nightly" and doc["checks"][0]["effort"] == "nightly"
    assert "effort nightly" in capsys.readouterr().out

    est = UserAERRGradient(k=2)
    by_name = check_estimator(est, seed=0, effort="nightly", on_fail=None)
    by_object = check_estimator(est, seed=0, effort=nightly, on_fail=None)
    plain = check_estimator(est, seed=0, effort="fast", on_fail=None)
    assert _numbers(by_name) == _numbers(by_object) == _numbers(plain)
    assert {r.effort for r in by_name} == {"nightly"}

    learner = check_learner(AERR(k=2), claims={"budget": 3}, seed=0, effort="nightly",
                            on_fail=None)
    assert {r.effort for r in learner} == {"nightly"} and len(learner) > 0


def test_the_profile_sets_the_sample_counts_of_a_check(registry, scratch_checks):
    """``ctx.n(fast, full)`` reads the profile's ``checks`` tier: a user's profile on the full
    counts runs them; the profile travels to joblib workers as the object itself (the workers
    never registered it) and gives the records of one job."""
    @register("Test.counts", citation="none", statement="a count", method="count",
              delta=0.0, detectable=0.0)
    def counts(ctx):
        return Result(Status.PASS, {"n": ctx.n(3, 7), "full": ctx.full,
                                    "profile": ctx.effort.name})

    deep = register_profile("deep", parent="tiny", checks="full")
    assert checks.run("Test.counts", effort="tiny").figures == {"n": 3, "full": False,
                                                                "profile": "tiny"}
    assert checks.run("Test.counts", effort=deep).figures == {"n": 7, "full": True,
                                                              "profile": "deep"}
    wide = register_profile("wide", parent="fast", runs=5)   # registered here, not in workers
    selected = [checks.get(i) for i in CHEAP]
    one = checks.run_catalog(selected, 0, "fast", 1)
    two = checks.run_catalog(selected, 0, wide, 2)
    assert _numbers(one) == _numbers(two) and {r.effort for r in two} == {"wide"}


def test_a_user_profile_runs_the_experiments_and_the_reports(registry, tmp_path):
    """The experiments read the profile's sizes; a report spec without a table for the
    profile uses its parent's ([effort.tiny] here)."""
    quick = register_profile("quick", parent="tiny", runs=3)
    result = papers.ks15_synthetic(effort="quick", seed=1, alphas=(-1.0,), d=12, m=60)
    assert result.effort == "quick" and result.runs == 3
    assert result.claims_design["runs"] == 3
    spec = load_spec(SPECS_DIR / "rho.toml", KINDS)
    assert spec.table_for(quick) == "tiny"
    built = build_report(spec, tmp_path, ctx=Context(seed=0, effort=quick))
    doc = json.loads((built.path / "report.json").read_text())
    assert doc["effort"] == "quick" and doc["provenance"]["effort"] == "quick"
    assert doc["settings"] == spec.settings_for("tiny")


def test_a_report_reads_one_profile(tmp_path):
    """build_report reads the profile of its context: a second, different one is refused."""
    spec = load_spec(SPECS_DIR / "rho.toml", KINDS)
    with pytest.raises(InvalidParameterError, match="`effort` must be the profile of `ctx`"):
        build_report(spec, tmp_path, effort="full", ctx=Context(effort="tiny"))


# -- the spellings before 0.1 -----------------------------------------------------------------


def test_budget_keyword_of_check_estimator_and_check_learner_warns_and_works():
    est = UserAERRGradient(k=2)
    with pytest.warns(DeprecationWarning, match="use `effort` instead"):
        old = check_estimator(est, seed=0, budget="fast", on_fail=None)
    assert _numbers(old) == _numbers(check_estimator(est, seed=0, effort="fast", on_fail=None))
    with pytest.warns(DeprecationWarning, match="`budget` as the effort profile is deprecated"):
        check_learner(AERR(k=2), claims={"budget": 3}, seed=0, budget="fast", on_fail=None)
    with pytest.warns(DeprecationWarning, match="use `effort` instead"):
        record = checks.run(CHEAP[0], seed=0, budget="full")
    assert record.effort == "full"


def test_ctx_budget_warns_and_reads_the_profile(scratch_checks):
    @register("Test.old_spelling", citation="none", statement="ctx.budget", method="count",
              delta=0.0, detectable=0.0)
    def old_spelling(ctx):
        return Result(Status.PASS, {"budget": ctx.budget})

    with pytest.warns(DeprecationWarning, match="`ctx.budget` as the effort profile is "
                      "deprecated.*use `ctx.effort`"):
        record = checks.run("Test.old_spelling", effort="full", catch=False)
    assert record.figures == {"budget": "full"}
    with pytest.warns(DeprecationWarning, match="use `effort` instead"):
        ctx = checks.Context(np.random.default_rng(0), budget="full")
    assert ctx.effort is get_profile("full") and ctx.n(1, 2) == 2


def test_budget_option_warns_on_stderr_and_runs_as_effort(tmp_path, capsys):
    out = tmp_path / "v.json"
    with pytest.warns(DeprecationWarning, match="use `--effort` instead"):
        code = main(["verify", "--only", CHEAP[0], "--budget", "full", "--json", str(out),
                     "--no-progress"])
    assert code == 0
    err = capsys.readouterr().err
    assert "laocheck verify: warning: `--budget` as the effort profile is deprecated" in err
    assert json.loads(out.read_text())["run"]["effort"] == "full"


def test_old_names_of_the_effort_tables_warn():
    with pytest.warns(DeprecationWarning, match="laocheck.effort.get_profile"):
        table = papers.BUDGETS
    assert table["full"] == get_profile("full").experiment()
    with pytest.warns(DeprecationWarning, match="CHECK_TIERS"):
        assert checks.BUDGETS == ("fast", "full")


def test_budget_keyword_of_the_experiments_and_reports_warns(tmp_path):
    kw = dict(seed=1, alphas=(-1.0,), d=12, m=60)
    with pytest.warns(DeprecationWarning, match="use `effort` instead"):
        old = papers.ks15_synthetic(budget="tiny", **kw)
    new = papers.ks15_synthetic(effort="tiny", **kw)
    strip = ("seconds",)
    assert {k: v for k, v in old.to_dict().items() if k not in strip} == \
        {k: v for k, v in new.to_dict().items() if k not in strip}
    with pytest.warns(DeprecationWarning, match="use `effort` instead"):
        ctx = Context(seed=0, budget="tiny")
    with pytest.warns(DeprecationWarning, match="use `ctx.effort`"):
        assert ctx.budget == "tiny"
    spec = load_spec(SPECS_DIR / "rho.toml", KINDS)
    with pytest.warns(DeprecationWarning, match="use `effort` instead"):
        built = build_report(spec, tmp_path, budget="tiny")
    assert json.loads((built.path / "report.json").read_text())["effort"] == "tiny"


def test_a_spec_written_before_0_1_still_loads(tmp_path):
    """``[budgets.<name>]`` tables and ``checks_budget`` warn and work as before."""
    path = tmp_path / "old.toml"
    path.write_text('name = "old"\ntitle = "t"\nkind = "rho"\n[settings]\nd = 20\n'
                    'alphas = [-1.0]\ncurve_from = -1.0\ncurve_to = 0.0\n'
                    '[budgets.tiny]\ncurve_points = 3\nchecks_budget = "fast"\n')
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        spec = load_spec(path, KINDS)
    messages = [str(w.message) for w in caught if w.category is DeprecationWarning]
    assert any("use `[effort.<name>]` instead" in m for m in messages)
    assert any("`checks_budget` is deprecated" in m for m in messages)
    assert spec.settings_for("tiny")["curve_points"] == 3
    with pytest.warns(DeprecationWarning, match="effort_tables"):
        assert spec.budgets == spec.effort_tables


def test_the_effort_class_is_the_one_public_type():
    assert isinstance(get_profile("tiny"), Effort)
    assert effort.resolve(get_profile("tiny")) is get_profile("tiny")


def test_a_user_profile_reaches_the_command_line(registry, tmp_path, monkeypatch, capsys):
    """``--effort MODULE:NAME`` imports the user's module that registers the profile (as
    ``--learner MODULE:FACTORY``); an import that fails is a usage error naming the module."""
    (tmp_path / "my_profiles.py").write_text(
        "from laocheck import effort\n"
        "effort.register_profile('nightly', parent='fast', runs=48)\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    out = tmp_path / "v.json"
    assert main(["verify", "--only", CHEAP[0], "--effort", "my_profiles:nightly", "--json",
                 str(out), "--no-progress"]) == 0
    assert json.loads(out.read_text())["run"]["effort"] == "nightly"
    with pytest.raises(SystemExit) as exc:
        main(["verify", "--effort", "no_such_module_here:nightly"])
    assert exc.value.code == 2
    assert "importing 'no_such_module_here' raised ModuleNotFoundError" in capsys.readouterr().err
    sys.modules.pop("my_profiles", None)
