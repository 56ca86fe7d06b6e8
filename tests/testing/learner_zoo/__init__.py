"""User-style learners written in plain numpy (no laocheck import in the learners themselves).

* ``numpy_aerr.NumpyAERR``: HK12 Alg. 1 as a user would write it, with ``CLAIMS``;
* ``abs_aerr.AbsAERR``: the worked example, a new learner (φ̃ drawn from |w|) with its own
  theorem (bound and step size registered with ``laocheck.bounds.user_bound`` by the tests);
* ``broken.ZOO``: nine slips in NumpyAERR, each with the claim whose check must catch it.

See ``tests/testing/test_check_learner.py``.
"""
