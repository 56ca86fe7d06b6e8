"""The power factor ``detects`` of a check's result travels into its record and its JSON
(issue "every PASS is evidence, catalog side", item 6)."""
import json
import math

import pytest

from laocheck.checks import _registry
from laocheck.checks._registry import CheckRecord, Result, Status, register, run
from laocheck.exceptions import InvalidParameterError


@pytest.mark.parametrize("bad", [0.5, 0.0, -3.0, math.nan])
def test_a_factor_below_one_is_refused(bad):
    with pytest.raises(InvalidParameterError, match=r"`detects` must be a factor >= 1"):
        Result(Status.PASS, {"n": 1}, detects=bad)


def test_the_factor_reaches_the_record_and_reads_back(monkeypatch):
    _registry.checks()                    # discover the catalog first: the copy keeps it
    monkeypatch.setattr(_registry, "_CHECKS", dict(_registry._CHECKS))

    @register("Test.detects.field", citation="none", statement="s", method="m", delta=1e-6,
              detectable="text")
    def my_check(ctx):
        return Result(Status.PASS, {"n": 10}, detects=3.25)

    rec = run("Test.detects.field")
    assert rec.detects == 3.25
    doc = json.loads(json.dumps(rec.to_dict()))
    assert CheckRecord.from_dict(doc).detects == 3.25
    del doc["detects"]                         # a record written before the field was kept
    assert CheckRecord.from_dict(doc).detects is None
    doc["detects"] = 0.9
    with pytest.raises(InvalidParameterError, match="detects"):
        CheckRecord.from_dict(doc)
