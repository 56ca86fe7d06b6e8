"""User-style learners written in plain numpy (no laocheck import in the learners themselves).

* ``numpy_aerr.NumpyAERR``: HK12 Alg. 1 as a user would write it, with ``CLAIMS``;
* ``abs_aerr.AbsAERR``: the worked example, a new learner (φ̃ drawn from |w|) with its own
  theorem (bound and step size registered with ``laocheck.bounds.user_bound`` by the tests);
* ``broken.ZOO``: slips in NumpyAERR, each with the claim whose check must catch it (the last,
  ``broken.STREAM_ZOO``, in fit_stream alone); ``broken.raises_in_fit``: a factory whose fit
  raises (the paper reports record it).

See ``tests/testing/test_check_learner.py``.
"""
