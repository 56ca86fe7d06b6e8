"""A learner's settings as a report shows them (issue 49): its constructor parameters and its
scalar fitted attributes, read the same way for laocheck's learners and a user's, so that two
learners compared in a report can be told apart by what they were given."""

from __future__ import annotations

import numpy as np

from ._runs import _fit, child_seeds

__all__ = ["learner_settings", "estimator_settings", "SEED_POLICY"]


#: the seed policy of every run of :func:`replicate` (and so of every learner in a report)
SEED_POLICY = ("run r draws from child r of the point's SeedSequence (spawned by run index, the "
               "same for every n_jobs), split in two: its sample from the first, the learner's "
               "random_state (a numpy Generator) from the second; a user's learner gets the "
               "same samples and seeds as the theorem's learner it is compared with")


def _setting_value(v):
    """A parameter's value as JSON: numbers, strings, bools and None as they are, an array by
    its shape and range (``array(d=10, min 0, max 0.2)``), anything else by its repr."""
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        return float(v)
    if isinstance(v, np.ndarray):
        if v.size == 0:
            return f"array(shape={v.shape})"
        return f"array(d={v.shape[0]}, min {float(np.min(v)):.4g}, max {float(np.max(v)):.4g})"
    return repr(v)


def learner_settings(spec, distribution, m, seed=0):
    """The settings of one learner as a report shows them: its constructor parameters
    (``get_params()`` of a scikit-learn style estimator, else its public attributes) and the
    scalar fitted attributes (``eta_``, ``lam_``, ``eps_``, ...) of one fit on m examples.

    The same reading for laocheck's learners and a user's, so that two learners compared in a
    report can be told apart by what they were given (initial point, step size, radius, k).

    Parameters
    ----------
    spec : object
        The learner: a :class:`LearnerConfig`, a user's learner of a report, or anything with
        ``build(random_state)`` returning an estimator.
    distribution : Distribution
        The distribution of the one fit.
    m : int
        The examples of the one fit.
    seed : int or numpy.random.SeedSequence, default=0
        The seed of the one fit (data and learner).

    Returns
    -------
    dict
        ``class``, ``params`` (name -> JSON value), ``fitted`` (name -> JSON value, the scalar
        fitted attributes; empty when the fit failed), ``fit_error`` (str or None),
        ``seed_policy``.
    """
    data_seed, learner_seed = child_seeds(seed, 2)
    learner = spec.build(np.random.default_rng(learner_seed))      # as a run's (_runs._one)
    error = None
    try:
        learner = _fit(spec, distribution, m, np.random.default_rng(data_seed),
                       np.random.default_rng(learner_seed))
    except Exception as exc:     # shown in the report beside the parameters, never hidden
        error = f"{type(exc).__name__}: {exc}"
    out = estimator_settings(learner)
    if error is not None:
        out["fitted"] = {}
    return {**out, "fit_error": error, "seed_policy": SEED_POLICY}


def estimator_settings(learner):
    """The settings of one (fitted or unfitted) learner object.

    Its constructor parameters (``get_params()`` of a scikit-learn style estimator, else its
    public attributes without a trailing underscore; ``random_state`` left out: the seed
    policy says where it comes from) and its scalar fitted attributes (``eta_``, ``lam_``,
    ``n_steps_``, ...; arrays such as ``coef_`` left out).

    Parameters
    ----------
    learner : object
        The learner.

    Returns
    -------
    dict
        ``class`` (module and qualified name), ``params`` and ``fitted`` (name -> JSON value:
        numbers, strings, booleans and None as they are, an array by its shape and range).
    """
    cls = type(learner)
    if callable(getattr(learner, "get_params", None)):
        raw = learner.get_params()
    else:
        raw = {k: v for k, v in vars(learner).items() if not k.startswith("_")
               and not k.endswith("_")}
    params = {k: _setting_value(v) for k, v in sorted(raw.items()) if k != "random_state"}
    fitted = {k: _setting_value(v) for k, v in sorted(vars(learner).items())
              if k.endswith("_") and not k.startswith("_") and k not in ("coef_", "w_")
              and isinstance(v, (int, float, str, bool, np.integer, np.floating))}
    return {"class": f"{cls.__module__}.{cls.__qualname__}", "params": params,
            "fitted": fitted}
