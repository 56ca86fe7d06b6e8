"""Issue 47 item 5: the instances sit on the boundaries of the papers' displayed conditions, and
a bug that moves a boundary (<= written <) makes the check of the statement FAIL.

The motivating bug: HK12 Procedure 3's line 3, ``n <= 2 log₂ N``, written ``n < 2 log₂ N`` in
the AESVR learner's step. No check saw it: the learner's check ran at ε = 0.4, where N = 100
and the order n = 13 on the boundary came up once in 16,000 GenEst calls.

The other boundaries planted here, each slip typed in the package's source (``_plant``): HK12
Sec. 4's 0 <= δ <= B at δ = 0 and δ = B (the AESVR estimators), KS15's q_i >= 0 at q_i = 0
(DDAERR/DDAELR learners and estimators), the two-phase q on its floor 13ε/6, phase 1's zero
counts and Alg. 4's ε capped at 1, CB11's k <= d at k = d (Baseline, AER). Each check FAILs
on its slip, and (where the test says so) PASSes on it without the boundary instance.
"""
import importlib.util
import inspect
import pathlib
import sys
import textwrap
from fractions import Fraction as F

import numpy as np
import pytest

import laocheck.learners._base as learners_base
import laocheck.learners.aer as aer
import laocheck.learners.two_phase as two_phase
import laocheck.reference.estimators as ref_est
from laocheck import checks
from laocheck.checks.algorithms import estimator_families, learner_samplers
from laocheck.checks.algorithms.estimator_families import _param_sets
from laocheck.checks.algorithms.estimator_properties import EXACT_INSTANCES
from laocheck.estimators import _families, spec_of
from laocheck.estimators.instances import BOUNDARY_INSTANCES, INSTANCES
from laocheck.learners.ridge import MomentsGiveQ

_BENCHMARKS = pathlib.Path(__file__).resolve().parents[2] / "benchmarks"
if str(_BENCHMARKS) not in sys.path:     # the script imports its sibling _results
    sys.path.append(str(_BENCHMARKS))
_spec = importlib.util.spec_from_file_location("boundaries", _BENCHMARKS / "boundaries.py")
boundaries = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(boundaries)


def _run(check_id):
    return checks.run(checks.get(check_id), seed=0, effort="fast").status


def test_the_boundary_instances_sit_on_their_boundaries():
    l2 = INSTANCES["l2_edge"]
    assert sum(t * t for t in l2[0]) == 1 and sum(t * t for t in l2[1]) == 1 and abs(l2[2]) == 1
    l1 = INSTANCES["l1_edge"]
    assert sum(abs(t) for t in l1[0]) == 1 and max(abs(t) for t in l1[1]) == 1
    assert abs(l1[2]) == 1 and F(0) in l1[0]
    kd = INSTANCES["kd_edge"]
    assert len(kd[1]) == 2 and sum(t * t for t in kd[1]) == 1 and abs(kd[2]) == 1
    w0 = INSTANCES["w0_edge"]
    assert not any(w0[0]) and sum(t * t for t in w0[1]) == 1 and len(w0[1]) == 4
    assert set(BOUNDARY_INSTANCES) <= set(EXACT_INSTANCES)


def test_the_learners_threshold_moved_to_strict_fails(monkeypatch):
    """``order <= threshold`` written ``order < threshold`` in the learner's Cython step is
    the threshold ⌊2 log₂ N⌋ lowered by one for the same comparison: planted through the
    constant the learner passes to its step."""
    import laocheck.learners.aesvr as aesvr_module
    assert _run("HK12.AESVR.steps_match_reference") == "PASS"
    exact = aesvr_module.genest_small_orders
    monkeypatch.setattr(aesvr_module, "genest_small_orders", lambda N: exact(N) - 1)
    assert _run("HK12.AESVR.steps_match_reference") == "FAIL"


def test_the_kernels_threshold_moved_to_strict_fails(monkeypatch):
    import laocheck.estimators._families as families
    exact = families.genest_small_orders
    monkeypatch.setattr(families, "genest_small_orders", lambda N: exact(N) - 1)
    assert _run("HK12.Proc3.line1.kernel") == "FAIL"


def test_the_float_reading_of_the_threshold_is_caught_at_a_power_of_two(monkeypatch):
    """``n < 2 * math.log2(N)`` (the condition typed with a float and the wrong comparison)
    differs from ``n <= 2 log₂ N`` only where N is a power of two: the learner's check runs at
    N = 4."""
    import math

    import laocheck.learners.aesvr as aesvr_module
    # the largest n with n < 2 log₂ N
    monkeypatch.setattr(aesvr_module, "genest_small_orders",
                        lambda N: max(math.ceil(2 * math.log2(N)) - 1, 0))
    assert _run("HK12.AESVR.steps_match_reference") == "FAIL"


def test_a_sampler_wrong_only_on_the_boundary_is_caught():
    """A user's AERR residual that treats ‖w‖₂ = B as outside the ball (``>=`` for ``>``) and
    shrinks w there: right on d3, d4 and w0, wrong only on l2_edge."""
    import numpy as np

    from laocheck import estimators
    from laocheck.testing import check_estimator

    theirs = estimators.get("HK12.AERR.residual")

    class Shrinks:
        spec = theirs.spec

        def __getattr__(self, name):
            return getattr(theirs, name)

        def sample(self, w, x, y, n, rng):
            w = np.asarray(w, dtype=float)
            if np.linalg.norm(w) >= 1.0:           # the bug: >= where the ball is ‖w‖ <= B
                w = w / 2
            return theirs.sample(w, x, y, n=n, rng=rng)

    records = {r.id.rsplit(".", 1)[-1]: r
               for r in check_estimator(Shrinks(), on_fail=None)}
    kernel = records["kernel_matches_reference"]
    assert kernel.status == "FAIL", kernel
    assert kernel.figures["instance"] == "d4"            # right there, wrong on the boundary
    assert kernel.counterexample["instance"] == "l2_edge"
    assert "l2_edge" in kernel.figures["boundary_instances"]
    # the same sampler without the bug passes
    fine = {r.id.rsplit(".", 1)[-1]: r for r in check_estimator(theirs, on_fail=None)}
    assert fine["kernel_matches_reference"].status == "PASS"
    assert "l2_edge" in fine["kernel_matches_reference"].figures["instances_checked"]


def test_the_table_lists_every_gap():
    rows = boundaries.rows()
    missing = {(r["condition"], r["estimator"]) for r in rows if not r["present"]}
    assert not missing                     # issue 47 item 5: no gap left; keep it that way
    # the KS15 estimates that draw x̃ from a q of length 4 sit on k = d through k_equals_d
    kd = [r for r in rows if r["condition"] == "k <= d" and r["estimator"].startswith("KS15.")
          and r["estimator"] != "KS15.GAERR.residual"]
    assert kd and all(any(c.endswith(".k_equals_d") for c in r["checks"]) for r in kd
                      if r["instances"] == ["kd_edge at k = d = 2 (k_equals_d)"])
    for cond in ("k <= d", "‖x‖₂ <= 1", "‖w‖₂ <= B", "‖x‖∞ <= 1", "‖w‖₁ <= B", "|y| <= B",
                 "w = 0 (φ̃ without a draw)", "n <= 2 log₂ N", "0 <= δ <= B", "q_i >= 0",
                 "q_i ∝ √(A[i] + 13ε/6) (lasso: A[i] + 13ε/6)",
                 "A[i] = square_sums[i]/counts[i], else 0", "ε = min(d log(2d/δ)/((k+1)m₁), 1)"):
        assert any(r["condition"] == cond for r in rows), cond
        assert all(r["present"] for r in rows if r["condition"] == cond), cond
    delta = {r["estimator"]: r for r in rows if r["condition"] == "0 <= δ <= B"}
    assert set(delta) == {"HK12.AESVR.gradient", "HK12.AESVR.residual",
                          "HK12.AESVR.residual kernel", "learner AESVR"}
    learners_on_k_equals_d = {r["estimator"] for r in rows
                              if r["condition"] == "k <= d" and r["present"]}
    assert {"learner Baseline", "learner AER", "CB11.Baseline.loss"} <= learners_on_k_equals_d
    floors = {r["estimator"] for r in rows if r["boundary"] == "A[i] = 0 (q_i on its floor)"}
    assert floors == {"learner TwoPhaseDDAERR", "learner TwoPhaseDDAELR",
                      "learner AdaTwoPhaseDDAERR"}
    table = boundaries.markdown(rows)
    assert "n <= 2 log₂ N" in table and "\\|y\\| <= B" in table


# -- planting a slip in the package's source ---------------------------------------------------

def _plant(monkeypatch, owner, name, before, after, *, also=(), replace=()):
    """Replace ``owner.name`` (a module's function or a class's method) by a copy whose source
    has ``before`` typed as ``after`` (exactly one occurrence), compiled under the package
    file's name (the slip is laocheck's own code, not a user's); ``also``: other modules that
    imported the function by name; ``replace``: further (old, new) edits that only make the
    copy compile outside its class (a zero-argument ``super()``)."""
    module = sys.modules[owner.__module__] if isinstance(owner, type) else owner
    source = textwrap.dedent(inspect.getsource(getattr(owner, name)))
    assert source.count(before) == 1, (name, before)
    source = source.replace(before, after)
    for old, new in replace:
        source = source.replace(old, new)
    namespace = dict(vars(module))
    exec(compile(source, module.__file__, "exec"), namespace)
    for target in (owner,) + tuple(also):
        monkeypatch.setattr(target, name, namespace[name])


# -- HK12 Sec. 4's 0 <= δ <= B at both ends (the AESVR estimators' spec checks) ----------------

@pytest.mark.parametrize("guard, end", [
    ("if self.delta <= 0:", "δ = 0"),                        # `<=` typed for `<`
    ("if not 0 <= self.delta < self.B:", "δ = B"),           # Sec. 4's δ <= B typed δ < B
])
@pytest.mark.parametrize("part", ["residual", "gradient"])
def test_a_delta_guard_moved_onto_the_boundary_fails(monkeypatch, guard, end, part):
    """HK12 Sec. 4 assumes 0 <= δ <= B: the AESVR estimator's guard ``if self.delta < 0``
    typed so that it refuses one end."""
    check_id = f"HK12.AESVR.{part}.target_method"
    assert _run(check_id) == "PASS"
    _plant(monkeypatch, _families.AESVREstimator, "__init__", "if self.delta < 0:", guard,
           replace=[("super().__init__(", "_GenEstBase.__init__(self, ")])
    record = checks.run(checks.get(check_id), seed=0, effort="fast")
    assert record.status == "FAIL" and end in record.counterexample, record
    assert _run(f"HK12.AESVR.{part}.magnitude_bounds") == "FAIL"
    # the example δ = 1/10 alone (before issue 47 item 5) does not see the slip
    monkeypatch.setattr(estimator_families, "_param_sets",
                        lambda spec, d, k: [("", spec.example_params(d, k=k))])
    assert _run(check_id) == "PASS"


def test_the_aesvr_spec_checks_run_at_both_ends_of_delta():
    for name in ("HK12.AESVR.residual", "HK12.AESVR.gradient"):
        spec = spec_of(name)
        deltas = [p["delta"] for _, p in _param_sets(spec, 4, spec.check_k)]
        assert deltas == [0.1, 0.0, spec.example_params(4)["B"]]
    # the other estimators take no δ: their parameter sets are the example ones only
    spec = spec_of("HK12.AERR.gradient")
    assert len(_param_sets(spec, 4, spec.check_k)) == 1


# -- KS15's q on its floor (two-phase) and at q_i = 0 (data-dependent learners) ---------------

def _no_boundary_data(monkeypatch):
    """The learner sampler checks as before issue 47 item 5: no attribute identically 0, one
    run each (CB11 only at d = 5, the two-phase learners only at m₁ = 20,000)."""
    monkeypatch.setattr(learner_samplers, "_ZERO_COLUMN_LEARNERS", ())
    monkeypatch.setattr(learner_samplers, "K_EQUALS_D", {})
    monkeypatch.setattr(learner_samplers, "_runs", lambda algorithm: [(learner_samplers.D, "",
                                                                        None)])


def test_the_two_phase_floor_dropped_fails_attribute_inclusion(monkeypatch):
    """KS15 Alg. 2 line 12's q_i ∝ √(A[i] + 13ε/6) typed q_i ∝ √A[i] (the floor dropped): the
    attribute with A[1] = 0 is never drawn in phase 2."""
    assert _run("KS15.TwoPhaseDDAERR.attribute_inclusion") == "PASS"
    _plant(monkeypatch, two_phase, "two_phase_ridge_phase2",
           "root = np.sqrt(A + 13.0 / 6.0 * eps)", "root = np.sqrt(A)")
    assert _run("KS15.TwoPhaseDDAERR.attribute_inclusion") == "FAIL"
    # the m₁ = 20,000 run alone: its attribute 1 (A[1] = 0) is never drawn in phase 2 (the
    # m₁ = 1 run refuses to fit: q_i = 0 where phase 1 missed a nonzero attribute)
    monkeypatch.setattr(learner_samplers, "_runs", lambda algorithm: [(learner_samplers.D, "",
                                                                        None)])
    record = checks.run(checks.get("KS15.TwoPhaseDDAERR.attribute_inclusion"), seed=0,
                        effort="fast")
    assert record.status == "FAIL"
    assert record.counterexample["part"] == "phase2_x_tilde.index"
    assert record.counterexample["index"] == 1 and record.counterexample["frequency"] == 0.0
    # no attribute on the floor: the check of the sampling line misses it (q moves by under a
    # percent), only the replay's weights 1/(k q_i) show it
    _no_boundary_data(monkeypatch)
    assert _run("KS15.TwoPhaseDDAERR.attribute_inclusion") == "PASS"
    assert _run("KS15.TwoPhaseDDAERR.steps_match_reference") == "FAIL"


def test_the_lasso_floor_constant_mistyped_fails_attribute_inclusion(monkeypatch):
    """KS15 Alg. 4 line 12's A[i] + 13ε/6 typed A[i] + 7ε/6 (eq. (15)'s other constant): q
    moves by a fraction of a percent where A[i] > 0, by about half on the floor."""
    _plant(monkeypatch, two_phase, "two_phase_lasso_phase2",
           "q = (A + 13.0 / 6.0 * eps) / (A + 13.0 / 6.0 * eps).sum()",
           "q = (A + 7.0 / 6.0 * eps) / (A + 7.0 / 6.0 * eps).sum()")
    assert _run("KS15.TwoPhaseDDAELR.attribute_inclusion") == "FAIL"
    monkeypatch.setattr(learner_samplers, "_runs", lambda algorithm: [(learner_samplers.D, "",
                                                                        None)])
    record = checks.run(checks.get("KS15.TwoPhaseDDAELR.attribute_inclusion"), seed=0,
                        effort="fast")
    assert record.status == "FAIL" and record.counterexample["index"] == 1   # the floor
    _no_boundary_data(monkeypatch)              # no attribute on the floor: not seen
    assert _run("KS15.TwoPhaseDDAELR.attribute_inclusion") == "PASS"


@pytest.mark.parametrize("name", ["KS15.DDAERR", "KS15.DDAELR"])
def test_q_i_zero_refused_where_x_i_is_zero_fails(monkeypatch, name):
    """KS15 Lemmas 3.2/4.2 take q_i >= 0: q_i = 0 is fine where x_i = 0 always. The learner's
    guard typed as q_i > 0 everywhere (``missing = q == 0``, the ``& (x != 0)`` dropped)
    refuses E[x_1²] = 0."""

    _plant(monkeypatch, MomentsGiveQ, "_check_q", "missing = (self.q_ == 0) & nonzero()",
           "missing = self.q_ == 0")
    assert _run(f"{name}.steps_match_reference") == "FAIL"
    _no_boundary_data(monkeypatch)
    assert _run(f"{name}.steps_match_reference") == "PASS"


# -- CB11's k <= d at k = d (the learners Baseline and AER) ------------------------------------

@pytest.mark.parametrize("name, slip", [
    # Fig. 1's k-subset of [d]: the learners' shared guard check_k typed k < d
    ("CB11.Baseline", (learners_base, "check_k", "if k > d:", "if k >= d:", (aer,))),
    # Thm 12's λ takes k of the d attributes: AER's guard typed k < d
    ("CB11.AER", (aer.AER, "_theory_step", "if config > d:", "if config >= d:", ())),
])
def test_k_equals_d_refused_fails(monkeypatch, name, slip):
    """CB11's k <= d typed k < d: refused at k = d."""
    owner, func, before, after, also = slip
    assert _run(f"{name}.steps_match_reference") == "PASS"
    _plant(monkeypatch, owner, func, before, after, also=also)
    assert _run(f"{name}.steps_match_reference") == "FAIL"
    assert _run(f"{name}.attribute_inclusion") == "FAIL"
    _no_boundary_data(monkeypatch)
    assert _run(f"{name}.steps_match_reference") == "PASS"


# -- KS15 Alg. 2/4 lines 2-11 at m₁ = 1: counts[i] = 0 and Alg. 4's ε = min(·, 1) at its cap --

@pytest.mark.filterwarnings("ignore:invalid value encountered in divide:RuntimeWarning")
@pytest.mark.parametrize("name", ["KS15.TwoPhaseDDAERR", "KS15.TwoPhaseDDAELR"])
def test_a_zero_count_divided_fails(monkeypatch, name):
    """A = square_sums/counts guarded ``where=counts > 0`` typed ``>= 0``: an attribute phase 1
    never drew gets 0/0 (Alg. 2 line 2 leaves it at 0)."""
    _plant(monkeypatch, two_phase._TwoPhase, "_moments", "where=st.counts > 0",
           "where=st.counts >= 0")
    assert _run(f"{name}.steps_match_reference") == "FAIL"
    _no_boundary_data(monkeypatch)              # m₁ = 20,000: every count > 0
    assert _run(f"{name}.steps_match_reference") == "PASS"


def test_the_lasso_eps_without_its_cap_fails(monkeypatch):
    """KS15 Alg. 4 line 11's ε = min(d log(2d/δ)/((k+1)m₁), 1) typed as Alg. 2's ε (no min):
    the same ε wherever the min is inactive."""
    _plant(monkeypatch, two_phase, "two_phase_lasso_phase2", '"KS15.Alg4.eps"',
           '"KS15.Alg2.eps"')
    record = checks.run(checks.get("KS15.TwoPhaseDDAELR.steps_match_reference"), seed=0,
                        effort="fast")
    assert record.status == "FAIL" and record.counterexample["run"] == "m1_equals_1"
    _no_boundary_data(monkeypatch)
    assert _run("KS15.TwoPhaseDDAELR.steps_match_reference") == "PASS"


# -- KS15 Lemmas 3.2/4.2's q_i >= 0 at q_i = 0 in the estimators ---------------------------------

@pytest.mark.parametrize("name", ["KS15.DDAERR.gradient", "KS15.DDAELR.data_point",
                                  "KS15.ImprovedInnerProduct.gradient"])
def test_q_zero_refused_where_x_is_zero_fails_q_zero(monkeypatch, name):
    """The estimators' guard ``(q == 0) & (x != 0)`` typed ``q == 0``: q_i >= 0 read as
    q_i > 0, an E[x_j²] = 0 refused even where x_j = 0."""
    assert _run(f"{name}.q_zero") == "PASS"
    _plant(monkeypatch, _families.ImportanceEstimator, "_prepare",
           "missing = (self.q == 0) & (x != 0)", "missing = self.q == 0")
    record = checks.run(checks.get(f"{name}.q_zero"), seed=0, effort="fast")
    assert record.status == "FAIL" and "refused" in record.counterexample


# -- KS15's importance-sampled estimates at k = d (kd_edge, a q of length 2) ---------------------

def test_the_ks15_estimates_run_their_property_checks_at_k_equals_d():
    ids = sorted(c.id for c in checks.checks() if c.id.endswith(".k_equals_d"))
    assert len(ids) == 11                  # GA*, DDA* (all but the residuals), improved gradient
    record = checks.run(checks.get("KS15.DDAERR.gradient.k_equals_d"), seed=0, effort="fast")
    assert record.status == "PASS"
    assert record.figures["unbiased.exact"]["instances_checked"] == ["kd_edge"]
    assert {"budget", "kernel_matches_reference", "second_moment"} <= set(record.figures)


def test_a_draw_short_of_k_fails_k_equals_d(monkeypatch):
    """KS15 Alg. 1 line 3's ``for r = 1 to k`` typed ``range(k - 1)`` in the literal reference:
    x̃ averages k − 1 draws over k."""
    _plant(monkeypatch, ref_est, "ks15_data_point", "for _r in range(k):",
           "for _r in range(k - 1):")
    assert _run("KS15.GAERR.data_point.k_equals_d") == "FAIL"
