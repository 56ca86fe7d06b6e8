"""User-style samplers written in plain numpy, as a user would (no laocheck import).

Each module defines one estimator object ``est`` and, in ``CLAIMS``, what its author claims;
``BROKEN`` names the check that must catch it (None: a correct sampler). See
``tests/testing/test_zoo.py``.
"""
