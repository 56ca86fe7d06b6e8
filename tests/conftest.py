"""Fixtures shared by the tests."""
import pytest

from laocheck.learners._base import DataPointSampling


@pytest.fixture(params=["dense", "sparse"])
def state_kind(request, monkeypatch):
    """Run a test on the dense states and on the sparse ones (``_sparse_min_d`` forced to 1:
    the sparse state at every d, for a named initial point); the value names the kind."""
    if request.param == "sparse":
        monkeypatch.setattr(DataPointSampling, "_sparse_min_d", 1)
    return request.param
