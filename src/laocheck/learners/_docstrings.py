"""The numpydoc entries the learner classes share (scikit-learn's and numpy's docstring
templates): each class writes ``%(name)s`` on its own line where an entry of
:data:`SHARED_DOCS` goes, and :func:`shared_docstring` substitutes it, indented as the
placeholder. An entry is shared only where its text is the same for every class that uses it;
a class whose parameter means something else writes its own entry.
"""

from __future__ import annotations

import re

__all__ = ["SHARED_DOCS", "shared_docstring"]

#: ``{name: numpydoc entry}``: the parameters and attributes several learners document alike
SHARED_DOCS = {
    "attributes_per_example_": """\
attributes_per_example_ : ndarray of shape (n_steps,) or None
    Attributes observed per step (None after a long ``fit_stream`` that did not keep them).""",
    "B": """\
B : float, default=1.0
    Radius of the L2 ball of the predictors, in [1e-100, 1e100].""",
    "coef_": """\
coef_ : ndarray of shape (n_features,)
    The averaged iterate w̄, the output.""",
    "delta": """\
delta : float, default=0.05
    The confidence δ in (0, 1) of ε (Alg. 2 line 11).""",
    "draws_": """\
draws_ : ndarray or None
    The drawn indices, with ``record_draws`` (else None).""",
    "eps_": """\
eps_ : float
    The confidence width ε (line 11; 0 in the practical variant).""",
    "eta": """\
eta : "theory" or float, default="theory"
    The constant η₀ of KS15 eq. (13): η_{t,i} = η₀/√(Σ_{s<=t} g̃_{s,i}²); ``"theory"`` is
    √2·B (``ADAGRAD_CONSTANT``; AdaGrad's D_∞/√2, module docstring).""",
    "eta_": """\
eta_ : float
    The step size used.""",
    "G_": """\
G_ : ndarray of shape (n_features,)
    Σ_s g̃_{s,i}², the accumulated squares of eq. (13).""",
    "initial": """\
initial : "uniform", "zero" or array_like, default="uniform"
    The initial point w_1. HK12/KS15 line 1: "Initialize w_1 ≠ 0, ‖w_1‖₂ <= B arbitrarily";
    ``"uniform"`` is w_1 = (B/√d)·1, ``"zero"`` starts at 0, where the residual of the first
    step is −y without a draw (laocheck's fallback); an array must lie in the ball.""",
    "k": """\
k : int, default=4
    Attributes sampled for x̃ per example, 1 <= k <= d; one more is sampled for φ̃ (budget
    k + 1, or k + ``n_inner``).""",
    "m1": """\
m1 : int or None, default=None
    Phase 1's examples; None: m/10 (KS15 Sec. 5).""",
    "max_attributes_per_example_": """\
max_attributes_per_example_ : int
    The most attributes observed for one example.""",
    "moments_": """\
moments_ : ndarray of shape (n_features,)
    A, phase 1's estimate of E[x_i²].""",
    "n_attributes_seen_": """\
n_attributes_seen_ : int
    Attributes observed in total.""",
    "n_features_in_": """\
n_features_in_ : int
    The dimension d seen by ``fit``.""",
    "n_inner": """\
n_inner : int, default=1
    Draws j averaged in φ̃ (budget k + n_inner). 1 is the papers' boxes (HK12 Alg. 1 line 8,
    KS15 Alg. 1 line 8); KS15 Sec. 5 splits the budget "evenly" between x̃ and φ̃ (no
    formula in the paper: ``n_inner`` is laocheck's reading of that split).""",
    "n_steps_": """\
n_steps_ : int
    The number of steps made.""",
    "n_total": """\
n_total : int or None, default=None
    The m of the theory step size when the run is fed by ``partial_fit`` (else the rows of
    ``fit`` or ``n_steps``).""",
    "phase1_draws_": """\
phase1_draws_ : ndarray or None
    Phase 1's draws, with ``record_draws``.""",
    "phase2_draws_": """\
phase2_draws_ : ndarray or None
    Phase 2's draws, with ``record_draws``.""",
    "q": """\
q : array_like of shape (n_features,) or None, default=None
    Data-point distribution (KS15 Alg. 1 line 4), positive wherever x can be nonzero; None
    is uniform.""",
    "q_": """\
q_ : ndarray of shape (n_features,) or None
    The data-point distribution used (None: uniform).""",
    "random_state": """\
random_state : None, int, SeedSequence or Generator, default=None
    The source of the learner's random draws (None: fresh entropy, the learner is then
    non-deterministic).""",
    "record_draws": """\
record_draws : bool, default=False
    Keep the drawn indices in ``draws_`` (shape (m, k + n_inner), the j's −1 when none were
    drawn) for replay by the literal reference.""",
    "second_moments": """\
second_moments : array_like of shape (n_features,), float or None, default=None
    E[x_i²], for the theory step size (and, where the class says so, for q). A float is the
    same moment for every attribute.""",
    "variant": """\
variant : "theory" or "practical", default="theory"
    The algorithm box, or what KS15 Sec. 5 ran (module docstring).""",
    "w_": """\
w_ : ndarray of shape (n_features,)
    The last iterate.""",
}

_PLACEHOLDER = re.compile(r"^( *)%\((\w+)\)s$", re.MULTILINE)


def _indented(match):
    indent, name = match.groups()
    if name not in SHARED_DOCS:
        raise KeyError(f"no shared docstring entry {name!r} (laocheck.learners._docstrings)")
    return "\n".join(indent + line if line else line
                     for line in SHARED_DOCS[name].splitlines())


def shared_docstring(cls):
    """Class decorator: every ``%(name)s`` line of ``cls.__doc__`` replaced by the entry
    ``SHARED_DOCS[name]`` at the placeholder's indentation.

    Parameters
    ----------
    cls : type
        A class whose docstring holds placeholders (or none: left as it is; ``python -OO``
        strips docstrings).

    Returns
    -------
    type
        ``cls``, its docstring substituted.

    Raises
    ------
    KeyError
        If a placeholder names no entry of :data:`SHARED_DOCS`.
    """
    if cls.__doc__:
        cls.__doc__ = _PLACEHOLDER.sub(_indented, cls.__doc__)
    return cls
