"""The catalog's learner budget checks (``<spec>.budget``, laocheck.checks.algorithms.learner_records: the
engine's check_budget, the same check check_learner runs) judge a
learner's record of its reads by what its output depends on: a laocheck learner altered to read
more than its kernel records FAILs its budget check, with the example and attribute named; a
learner that records only counts is searched one entry at a time.

No false alarms: the checks are deterministic comparisons (bitwise equal outputs), δ = 0.
"""
import dataclasses

import numpy as np
import pytest

from laocheck import checks, learners
from laocheck.checks import run


def _check(cls):
    """The catalog's budget check of ``cls``'s spec, run on ``cls`` (a user's subclass)."""
    check = checks.get(f"{cls.spec.name}.budget")
    return dataclasses.replace(check, kwargs={**check.kwargs, "learner": cls})


class PeekingAERR(learners.AERR):
    """HK12's AERR, plus a "tiny" correction of coef_ from the mean of all of X."""

    def fit(self, X, y):
        super().fit(X, y)
        self.coef_ = self.coef_ + 1e-9 * float(np.mean(X))
        return self


class PeekingAESVR(learners.AESVR):
    """AESVR, plus a w_ nudged by the column sums of X (every attribute of every example)."""

    def fit(self, X, y):
        super().fit(X, y)
        self.w_ = self.w_ + 1e-9 * np.asarray(X).sum(axis=0)
        return self


def test_an_aerr_that_reads_all_of_x_fails_the_catalog_budget_check():
    record = run(_check(PeekingAERR), seed=0)
    assert record.status == "FAIL", (record.note, record.figures)
    ce = record.counterexample
    assert ce["kind"] == "unreported" and ce["output"] == "coef_"
    assert ce["attribute"] not in ce["reported_reads_of_example"]
    # the unaltered learner passes the same check, with one refit and the control for each of
    # fit, fit_stream and partial_fit
    record = run(_check(learners.AERR), seed=0)
    assert record.status == "PASS" and record.figures["refits"] == 3 * 2


def test_an_aesvr_that_reads_all_of_x_fails():
    """AESVR's draws are a flat record (x̃'s indices, then each GenEst call's order and j's),
    parsed step by step into the read set."""
    record = run(_check(learners.AESVR), seed=0)
    assert record.status == "PASS", (record.note, record.figures)
    assert record.figures["reads_from"] == "draws_ (record_draws=True)"
    record = run(_check(PeekingAESVR), seed=0)
    assert record.status == "FAIL", (record.note, record.figures)
    ce = record.counterexample
    assert ce["kind"] == "unreported" and ce["output"] == "w_"
    assert ce["attribute"] not in ce["reported_reads_of_example"]


class CountsOnlyAERR(learners.AERR):
    """AERR whose draws are not recorded (record_draws ignored): only its counts are known."""

    def fit(self, X, y):
        super().fit(X, y)
        self.draws_ = None
        return self


class CountsOnlyPeeking(CountsOnlyAERR):
    def fit(self, X, y):
        super().fit(X, y)
        self.coef_ = self.coef_ + 1e-9 * np.asarray(X).sum(axis=0)
        return self


def test_a_learner_with_counts_only_is_searched_one_entry_at_a_time():
    record = run(_check(CountsOnlyAERR), seed=0)
    assert record.status == "PASS", (record.note, record.figures)
    d = 8                                       # the check's d = max(8, 2k), k = 2
    assert 0 < record.figures["examples_searched"] <= 512 // d
    record = run(_check(CountsOnlyPeeking), seed=0)
    assert record.status == "FAIL"
    assert record.counterexample["kind"] == "over" and record.counterexample["count"] == d


@pytest.mark.parametrize("name", ["AERR", "AER", "TwoPhaseDDAERR", "Baseline"])
def test_laocheck_learners_pass_with_their_draws_as_the_read_set(name):
    record = run(_check(getattr(learners, name)), seed=0)
    assert record.status == "PASS", (record.note, record.figures)
    assert record.figures["reads_from"] == "draws_ (record_draws=True)"
