"""A user's learner run beside the papers' learners: the same distributions, m, seeds and data.

A user learner is named by a factory, ``"mypkg.mod:factory"`` (``laocheck report bounds
--learner mypkg.mod:factory``, or a ``[[learners]]`` table ``{factory = "...", name = "...",
params = {...}}`` in a report spec): a callable (a class, or a function) returning an object
with ``fit(X, y)`` and ``coef_``. It is called with ``random_state`` (a
``numpy.random.Generator`` spawned per replicate, as laocheck's learners get) and with those of
``k`` and ``B`` it accepts (the theorem's), plus ``params``.

:func:`user_sweep` runs it at each m of a theorem's sweep (:func:`laocheck.experiments.sweeps.
sweep`) on the replicates of the theorem's learner: child seed r of the same SeedSequence, so
replicate r of both learners sees the same sample (common random numbers). Beside its mean
excess risk with the interval at δ, each point holds the pairwise comparison with the
theorem's learner, decided as the papers' claims are (:func:`laocheck.experiments.papers.
claim_better`): from the paired replicates, a Clopper-Pearson interval at 2δ/points on
P(excess_user < excess_paper) — "better" when every point's interval lies above 1/2,
"worse" when one lies below, else "undecided". The claims of the paper are not applied to the
user's learner.
"""

from __future__ import annotations

import importlib
import inspect
import math
import sys
from dataclasses import dataclass, field

import numpy as np

from ..exceptions import InvalidParameterError
from ..stats import DEFAULT_DELTA, clopper_pearson
from ._runs import child_seeds, compare
from .theorems import LOSS, THEOREMS, default_distribution, run_theorem

__all__ = ["UserLearner", "load_learner", "check_factory", "user_sweep", "BETTER", "WORSE",
           "UNDECIDED"]

BETTER, WORSE, UNDECIDED = "better", "worse", "undecided"


def _import(path):
    if not isinstance(path, str) or path.count(":") != 1:
        raise InvalidParameterError(
            f"`learner` must read 'module:factory' (e.g. 'mypkg.learners:make'); got {path!r}.")
    module, attr = path.split(":")
    try:
        mod = importlib.import_module(module)
    except Exception as exc:           # any failure to import the user's module is theirs
        raise InvalidParameterError(
            f"`learner` {path!r}: module {module!r} cannot be imported ({type(exc).__name__}: "
            f"{exc}).") from None
    factory = mod
    for part in attr.split("."):
        factory = getattr(factory, part, None)
    if not callable(factory):
        raise InvalidParameterError(
            f"`learner` {path!r}: {module} has no callable {attr!r}.")
    return factory


def _standard_library(obj):
    """True for an object of Python's standard library or a builtin (``logging.basicConfig``,
    ``os.remove``): never a learner factory."""
    module = getattr(obj, "__module__", None) or ""
    return module.split(".")[0] in sys.stdlib_module_names or module == "builtins"


def check_factory(factory, path, *, keywords=(), where="`learner`"):
    """Refuse, before it is ever called, what cannot be a learner factory.

    Accepted: a class with a ``fit`` method (a learner class) or a plain Python function
    outside the standard library taking ``random_state`` by name (a function returning a
    learner; laocheck passes each replicate's generator); every keyword in ``keywords`` (a
    spec's ``params`` and ``grid`` names) must be a parameter of it (or it takes
    ``**kwargs``). A guard against naming the wrong thing, not a sandbox: the factory and its
    module are the user's code and run as such.

    Parameters
    ----------
    factory : object
        What the path resolved to.
    path : str
        ``"module:factory"``, for the messages.
    keywords : iterable of str
        The keywords it will be called with, besides ``random_state``, ``k`` and ``B``
        (passed only when accepted).
    where : str
        How messages name the setting (``"spec 'mine.toml': field `learners[0].factory`"``).

    Raises
    ------
    InvalidParameterError
        One line naming ``where``, ``path`` and the rule broken.
    """
    name = getattr(factory, "__qualname__", type(factory).__name__)
    rule = ("must name a learner class (with fit(X, y)) or a function returning a learner "
            "that takes random_state")
    if _standard_library(factory) or inspect.ismodule(factory):
        raise InvalidParameterError(
            f"{where} {path!r} {rule}; {name} is "
            + ("a module" if inspect.ismodule(factory) else
               f"part of Python's standard library ({getattr(factory, '__module__', '?')})")
            + ".")
    if isinstance(factory, type):
        if not callable(getattr(factory, "fit", None)):
            raise InvalidParameterError(f"{where} {path!r} {rule}; the class {name} has no fit.")
    elif not inspect.isfunction(factory):
        raise InvalidParameterError(
            f"{where} {path!r} {rule}; got {type(factory).__name__} {name}.")
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        raise InvalidParameterError(
            f"{where} {path!r} {rule}; the signature of {name} cannot be read.") from None
    named = {n for n, p in params.items() if p.kind in (p.POSITIONAL_OR_KEYWORD,
                                                        p.KEYWORD_ONLY)}
    anything = any(p.kind == p.VAR_KEYWORD for p in params.values())
    if "random_state" not in named and not (anything and isinstance(factory, type)):
        raise InvalidParameterError(
            f"{where} {path!r} {rule}; {name}{inspect.signature(factory)} takes no "
            "random_state (laocheck passes each replicate's generator).")
    unknown = [k for k in keywords if k not in named and not anything]
    if unknown:
        raise InvalidParameterError(
            f"{where} {path!r}: {name} takes no parameter {unknown[0]!r} (its parameters: "
            f"{', '.join(sorted(named)) or 'none'}).")


@dataclass(frozen=True)
class UserLearner:
    """A user's learner factory (picklable when given by its path): ``build(random_state)``
    gives a learner, as :class:`laocheck.experiments.LearnerConfig` does.

    ``path`` is ``"module:factory"``, or the factory itself (a class or function, from Python:
    ``ks15_synthetic(learners=[MyLearner])``; then ``path`` reads ``module:qualname`` and
    the factory travels with the object, so a factory defined in a script or notebook can be
    run in one process; joblib's workers get it by value through cloudpickle)."""

    path: str
    name: str = ""
    params: dict = field(default_factory=dict)
    #: hyperparameters cross-validated in the papers' experiment reports beside B (``grid =
    #: {eta = [0.01, 0.1]}`` in a ``[[learners]]`` table): distinct finite numbers > 0, a
    #: geometric grid extended at an end as the papers' (laocheck.experiments.papers)
    grid: dict = field(default_factory=dict)
    #: the factory itself when it was given as an object (None: imported from ``path``)
    given: object = field(default=None, compare=False, repr=False)

    def __post_init__(self):
        if callable(self.path) and not isinstance(self.path, str):
            factory = self.path
            qualname = getattr(factory, "__qualname__", type(factory).__name__)
            object.__setattr__(self, "given", factory)
            object.__setattr__(self, "path",
                               f"{getattr(factory, '__module__', None) or '?'}:{qualname}")
            if not self.name:
                object.__setattr__(self, "name", qualname)
        elif self.given is None:
            _import(self.path)              # refused now, with the path named
        if not self.name:
            module, attr = self.path.split(":")
            object.__setattr__(self, "name", f"{module.rsplit('.', 1)[-1]}:{attr}")
        if not isinstance(self.grid, dict):
            raise InvalidParameterError(f"`grid` of learner {self.path!r} must be a table "
                                        f"{{name = [values]}}; got {self.grid!r}.")
        for key, values in self.grid.items():
            ok = isinstance(values, (list, tuple)) and len(values) > 0 and all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                and v > 0 for v in values) and len(set(values)) == len(values)
            if not ok:
                raise InvalidParameterError(
                    f"`grid.{key}` of learner {self.path!r} must be a non-empty list of distinct "
                    f"finite numbers > 0 (a geometric grid); got {values!r}.")
            if not self.accepts(key):
                raise InvalidParameterError(
                    f"`grid.{key}` of learner {self.path!r}: its factory takes no parameter "
                    f"{key!r}.")

    def accepts(self, name):
        """Whether the factory takes the keyword ``name`` (or any keyword)."""
        try:
            params = inspect.signature(self.factory).parameters
        except (TypeError, ValueError):
            return False
        return name in params or any(p.kind == p.VAR_KEYWORD for p in params.values())

    @property
    def factory(self):
        return self.given if self.given is not None else _import(self.path)

    def build(self, random_state):
        factory = self.factory
        try:
            accepted = inspect.signature(factory).parameters
        except (TypeError, ValueError):
            accepted = {}
        kwargs = {k: v for k, v in self.params.items()
                  if k in accepted or any(p.kind == p.VAR_KEYWORD for p in accepted.values())}
        learner = factory(**kwargs, random_state=random_state)
        if not callable(getattr(learner, "fit", None)):
            raise InvalidParameterError(
                f"`learner` {self.path!r} must return an object with fit(X, y); got "
                f"{type(learner).__name__}.")
        return learner

    def describe(self):
        return f"{self.name} ({self.path})"

    def at(self, **params):
        """The same factory with more parameters (those it accepts are passed)."""
        return UserLearner(self.path, self.name, {**params, **self.params}, self.grid,
                           self.given)


def load_learner(entry):
    """A :class:`UserLearner` from ``"module:factory"``, the factory itself, or a table
    ``{"factory": ...,
    "name": ..., "params": {...}, "grid": {...}}`` (``grid``: the papers' experiment reports
    only)."""
    if isinstance(entry, UserLearner):
        return entry
    if isinstance(entry, str) or callable(entry):
        out = UserLearner(entry)
        check_factory(out.factory, out.path)
        return out
    if isinstance(entry, dict):
        unknown = set(entry) - {"factory", "name", "params", "grid"}
        if unknown or "factory" not in entry:
            raise InvalidParameterError(
                f"a [[learners]] table must have `factory` (and optionally `name`, `params`, "
                f"`grid`); got {sorted(entry)}.")
        params = entry.get("params", {})
        if not isinstance(params, dict):
            raise InvalidParameterError(f"`params` of learner {entry['factory']!r} must be a "
                                        f"table; got {params!r}.")
        out = UserLearner(entry["factory"], entry.get("name", ""), dict(params),
                          dict(entry.get("grid", {})))
        check_factory(out.factory, out.path, keywords=[*out.params, *out.grid])
        return out
    raise InvalidParameterError(
        f"`learner` must be 'module:factory', a table or a callable returning a learner; got "
        f"{type(entry).__name__}.")


def _decide(counts, runs, delta, points):
    """The papers' claims' decision (:func:`laocheck.experiments.papers.claim_order`) of
    "better at every point" from counts of paired wins."""
    low, high = clopper_pearson(np.asarray(counts), runs, 2 * delta / points)
    low, high = np.atleast_1d(low), np.atleast_1d(high)
    if np.all(low > 0.5):
        status = BETTER
    elif np.any(high < 0.5):
        status = WORSE
    else:
        status = UNDECIDED
    return status, [float(v) for v in low], [float(v) for v in high]


def user_sweep(learner, theorem, m_values, *, d=100, k=4, B=1.0, R=50, delta=DEFAULT_DELTA,
               seed=0, kind="hard", alpha=-1.0, n_jobs=1, scheduler=None):
    """``learner`` (a :class:`UserLearner` or its path) at each m of ``theorem``'s m sweep, on
    the replicates of the theorem's learner (same seeds: :func:`laocheck.experiments.sweeps.
    sweep`'s children); a JSON-ready dict with its points and the pairwise decision."""
    learner = load_learner(learner)
    if theorem not in THEOREMS:
        raise InvalidParameterError(f"`theorem` must be one of {sorted(THEOREMS)}; got {theorem!r}.")
    norm = THEOREMS[theorem][0]
    config = learner.at(k=k, B=B)
    points, wins = [], []
    for m, child in zip(m_values, child_seeds(seed, len(m_values))):
        paper, _ = run_theorem(theorem, d=d, k=k, m=m, B=B, R=R, delta=delta, seed=child,
                               n_jobs=n_jobs, alpha=alpha, kind=kind, scheduler=scheduler)
        dist = default_distribution(theorem, d, B, alpha, kind)
        runs_seed = child_seeds(child, 2)[0]           # run_theorem's replicates' seed
        try:
            comp = compare(f"{learner.name} beside {theorem}", config, dist, m, paper.bound,
                           norm=norm, B=B, R=R, delta=delta, seed=runs_seed, n_jobs=n_jobs,
                           loss=LOSS.get(theorem, "half"), scheduler=scheduler)
        except (RuntimeError, InvalidParameterError, ValueError) as exc:
            return {"learner": learner.name, "path": learner.path, "theorem": theorem,
                    "not_run": f"{type(exc).__name__}: {exc}"}
        win = int(np.sum(comp.excess < paper.excess))
        wins.append(win)
        points.append({"m": int(m), "value": float(m), "mean": comp.mean,
                       "low": float(comp.interval.low), "high": float(comp.interval.high),
                       "paper_mean": paper.mean, "bound": float(paper.bound),
                       "wins": win, "runs": R})
    status, low, high = _decide(wins, R, delta, len(points))
    for p, lo, hi in zip(points, low, high):
        p["p_better_low"], p["p_better_high"] = lo, hi
    return {"learner": learner.name, "path": learner.path, "theorem": theorem,
            "paper_learner": THEOREMS[theorem][1], "distribution": dist.name, "d": d, "k": k,
            "B": B, "R": R, "delta": delta, "points": points,
            "decision": status,
            "decision_text": (f"{learner.name} {'better than' if status == BETTER else 'worse than' if status == WORSE else 'not separated from'} "
                              f"{THEOREMS[theorem][1]} (P(excess lower) > 1/2 at every m: "
                              f"Clopper-Pearson at 2δ/{len(points)} per m)"),
            "finite": all(math.isfinite(p["mean"]) for p in points)}
