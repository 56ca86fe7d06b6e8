"""The learner sampler checks (laocheck.checks.algorithms.learner_samplers): every one PASSes on
laocheck's learners and FAILs on a learner whose recorded draws or output are altered at the
Python level (a subclass wrapping ``fit``), so each check can fail."""
import dataclasses

import numpy as np
import pytest

from laocheck import checks
from laocheck.checks.algorithms import learner_samplers
from laocheck.checks.algorithms.learner_samplers import _algorithm_of
from laocheck.experiments.theorems import learner_specs
from laocheck.learners import AERR, GAELR
from laocheck.reference import learners as ref

SPECS = learner_specs()
NAMES = [spec.name for _cls, spec in SPECS]
CLASSES = {spec.name: cls for cls, spec in SPECS}


def _with_learner(check_id, learner):
    check = checks.get(check_id)
    return dataclasses.replace(check, kwargs={**check.kwargs, "learner": learner})


def _excluding_last(cls):
    """``cls`` whose recorded draws never show the last attribute (mapped to index 0)."""

    class Mutated(cls):
        def fit(self, X, y):
            super().fit(X, y)
            last = X.shape[1] - 1
            for attr in ("draws_", "phase1_draws_", "phase2_draws_"):
                draws = getattr(self, attr, None)
                if draws is not None:
                    draws = np.array(draws)
                    draws[draws == last] = 0
                    setattr(self, attr, draws)
            return self

    Mutated.__name__ = f"ExcludingLast{cls.__name__}"
    return Mutated


def _perturbed_output(cls, factor=1 + 1e-8):
    """``cls`` whose output (coef_, or Baseline's Ā) is off by a relative 1e-8."""

    class Mutated(cls):
        def fit(self, X, y):
            super().fit(X, y)
            if hasattr(self, "A_bar_"):
                self.A_bar_ = self.A_bar_ * factor
            else:
                self.coef_ = self.coef_ * factor
            return self

    return Mutated


def _rotated_draws(cls):
    """``cls`` whose record names attribute i + 1 (mod d) where it drew i: the estimate would
    read another attribute than the one recorded."""

    class Mutated(cls):
        def fit(self, X, y):
            super().fit(X, y)
            d = X.shape[1]
            draws = np.array(self.draws_)
            draws[draws >= 0] = (draws[draws >= 0] + 1) % d
            self.draws_ = draws
            return self

    return Mutated


def test_every_learner_spec_has_both_checks():
    ids = {c.id for c in checks.checks()}
    assert len(NAMES) >= 11
    for name in NAMES:
        assert f"{name}.steps_match_reference" in ids
        assert f"{name}.attribute_inclusion" in ids


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("part", ["steps_match_reference", "attribute_inclusion"])
def test_passes_on_laocheck_learners(name, part):
    record = checks.run(checks.get(f"{name}.{part}"), seed=0, effort="fast", catch=False)
    assert record.status == "PASS", record


@pytest.mark.parametrize("name", NAMES)
def test_inclusion_fails_when_the_last_attribute_is_never_drawn(name):
    cls = CLASSES[name]
    mutated = _excluding_last(cls)
    assert _algorithm_of(mutated) == cls.__name__
    record = checks.run(_with_learner(f"{name}.attribute_inclusion", mutated), seed=0,
                        effort="fast", catch=False)
    assert record.status == "FAIL", record


@pytest.mark.parametrize("name", [n for n in NAMES if n != "HK12.AESVR"])
def test_inclusion_names_the_last_index(name):
    """Where the draws are a fixed array layout (all but AESVR's flat stream), the refuted
    index reported is the one never drawn."""
    record = checks.run(_with_learner(f"{name}.attribute_inclusion",
                                      _excluding_last(CLASSES[name])),
                        seed=0, effort="fast", catch=False)
    run = record.counterexample["part"].split(".")[0]        # a second run's part is prefixed
    d = record.figures[run]["d"] if run in record.figures else record.figures["d"]
    assert record.counterexample["index"] == d - 1
    assert record.counterexample["frequency"] == 0.0


@pytest.mark.parametrize("name", NAMES)
def test_replay_fails_when_the_output_is_off_by_1e_8(name):
    record = checks.run(_with_learner(f"{name}.steps_match_reference",
                                      _perturbed_output(CLASSES[name])),
                        seed=0, effort="fast", catch=False)
    assert record.status == "FAIL", record


@pytest.mark.parametrize("cls", [AERR, GAELR])
def test_replay_fails_when_the_recorded_attribute_is_not_the_one_read(cls):
    name = cls.spec.name
    record = checks.run(_with_learner(f"{name}.steps_match_reference", _rotated_draws(cls)),
                        seed=0, effort="fast", catch=False)
    assert record.status == "FAIL", record


def test_reusing_a_draw_fails_inclusion():
    """i_2 = i_1 in every step: the marginal of each draw is still uniform, but the first two
    draws coincide in every step instead of w.p. 1/d."""

    class Reusing(AERR):
        def fit(self, X, y):
            super().fit(X, y)
            draws = np.array(self.draws_)
            draws[:, 1] = draws[:, 0]
            self.draws_ = draws
            return self

    record = checks.run(_with_learner("HK12.AERR.attribute_inclusion", Reusing), seed=0,
                        effort="fast", catch=False)
    assert record.status == "FAIL"
    assert record.counterexample["part"] == "x_tilde.first_two_equal"


def test_same_seed_same_figures():
    check = checks.get("KS15.GAERR.attribute_inclusion")
    a = checks.run(check, seed=3, effort="fast", catch=False)
    b = checks.run(check, seed=3, effort="fast", catch=False)
    assert a.figures == b.figures


@pytest.mark.parametrize("name", ["TwoPhaseDDAERR", "AdaTwoPhaseDDAERR"])
def test_replay_fails_when_the_literal_box_forms_another_phase2_q(name, monkeypatch):
    """Line 11's ε with its division turned into a product (ε times (k + 1) m₁² larger): the
    replay follows the recorded draws, so for AdaTwoPhaseDDAERR the output cannot show it (its
    AdaGrad steps normalise the weights 1/q_i away); the check compares the box's q with lines
    2-12 computed apart."""
    def with_eps_times_m1(X, Y, k, B, m1, delta, *rest):
        d = X.shape[1]
        A, seen1 = ref._phase1_moments(np.asarray(X, dtype=float), k, m1, rest[-1])
        eps = d * np.log(2 * d / delta) * ((k + 1) * m1)                 # the slip
        q = np.sqrt(A + 13 / 6 * eps) / np.sum(np.sqrt(A + 13 / 6 * eps))
        if name == "AdaTwoPhaseDDAERR":
            eta0, w1, src = rest
            w_bar, seen2 = ref.ada_gaerr(X[m1:], Y[m1:], k, B, eta0, w1, src, q=q)
        else:
            w1, src = rest
            m2 = X.shape[0] - m1
            w_bar, seen2 = ref.gaerr(X[m1:], Y[m1:], k, B, 1 / np.sqrt(m2), w1, src, q=q)
        return w_bar, np.concatenate([seen1, seen2])

    attribute = "ada_two_phase_ddaerr" if name.startswith("Ada") else "two_phase_ddaerr"
    monkeypatch.setattr(learner_samplers, attribute, with_eps_times_m1)
    record = checks.run(checks.get(f"KS15.{name}.steps_match_reference"), seed=0)
    assert record.status == "FAIL", record
    assert record.figures["phase2_q_max_relative_difference"] > 1e-3, record.figures
