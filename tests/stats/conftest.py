"""Shared fixtures of the statistics-engine tests.

Every statistical assertion in tests/stats has false-failure probability <= 1e-6 (stated in
each docstring), so the suite does not flake; randomness comes from fixed SeedSequences.
"""

import numpy as np
import pytest

#: False-failure probability of each statistical assertion in these tests.
TEST_DELTA = 1e-6


@pytest.fixture
def rng(request):
    """A Generator seeded from the test's name (reproducible, independent across tests)."""
    entropy = [ord(c) for c in request.node.name]
    return np.random.default_rng(np.random.SeedSequence(entropy))
