r"""A user's own theorem: its bound registered as a sympy expression, evaluated like the papers'.

A researcher who proves an excess-risk bound for a new learner registers it once::

    >>> import sympy as sp
    >>> from laocheck import bounds
    >>> d, k, m, B = sp.symbols("d k m B", positive=True)
    >>> mine = bounds.user_bound("mine.Thm1", 3 * B**2 * sp.sqrt(d / (k * m)),
    ...                          assumptions=[k <= d], citation="my paper, Thm 1")
    >>> mine.args
    ('d', 'k', 'm', 'B')
    >>> round(mine(d=16, k=4, m=100, B=1.0), 6)
    0.6
    >>> print(mine.latex())
    \frac{3 B^{2} \sqrt{d}}{\sqrt{k} \sqrt{m}}

and names it wherever laocheck takes a formula id (``check_learner(..., claims={"bound":
"mine.Thm1"})``). The symbols are matched by name: those of :data:`laocheck.bounds.SYMBOLS`
(d, k, m, B, N_half, N_one, N_inf, eta, G, delta, ...) keep laocheck's meaning (the checks
supply them: d, k, m, B from the run, N_half, N_one, N_inf from the distribution's exact
second moments); any other symbol is a parameter the user supplies. Values are validated as
the papers' formulas' are (d, k, m integers >= 1, 0 < delta < 1, the others > 0), then each
assumption is checked: an evaluation outside them raises
:class:`~laocheck.exceptions.InvalidParameterError` naming the assumption and the values.

The registry is separate from :data:`laocheck.bounds.FORMULAS` (the papers' formulas, which
the catalog verifies symbolically and prints into ``laocheck.bounds._numeric``).
"""

from __future__ import annotations

import fnmatch
import math
import sys
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import sympy as sp

from ..exceptions import InvalidParameterError
from ._args import INTEGER_SYMBOLS, validated
from ._formulas import FORMULAS, SYMBOLS
from ._grammar import _shown, parse_formula

__all__ = ["UserBound", "user_bound", "user_bounds", "get_user_bound", "USER_BOUNDS",
           "resolve_bound", "parse_formula"]

#: The registered user bounds, by name.
USER_BOUNDS: dict[str, "UserBound"] = {}


def _relational(name, value, symbols):
    """An assumption as a sympy relational (a string is parsed with the bound's symbols)."""
    if isinstance(value, str):          # read by the allow-list grammar, never evaluated
        value = parse_formula(value, key=f"`assumptions` of {name!r}", symbols=symbols,
                              relational=True)
    if not isinstance(value, (sp.core.relational.Relational, sp.logic.boolalg.Boolean)):
        raise InvalidParameterError(
            f"`assumptions` of {name!r} must be sympy relations such as k <= d; got {value!r}.")
    return value


@dataclass(frozen=True)
class UserBound:
    """A user's bound: ``expr`` (sympy) in named symbols, with its assumptions.

    Call it with keyword values (``bound(d=16, k=4, m=100, B=1.0)``); ``latex()``,
    :meth:`simplified` and ``describe()`` as for the papers' :class:`~laocheck.bounds.Formula`.
    Usually made by :func:`user_bound`, which validates and registers it.

    Parameters
    ----------
    id : str
        The bound's name (its key in :data:`USER_BOUNDS`).
    expr : sympy.Expr
        The bound, in named positive symbols.
    assumptions : tuple of sympy relations, default ()
        Relations such as ``k <= d``, checked at every evaluation.
    citation : str, default ""
        Where the bound comes from (``"my paper, Thm 1"``), shown in reports.
    description : str, default ""
        What the bound is, shown in reports.
    kind : str, default "bound"
        The kind of formula, as for :class:`~laocheck.bounds.Formula`.
    literal : bool, default True
        Whether the expression is the source's statement as written.
    erratum : str, default ""
        A correction to the source, if any.
    note : str, default ""
        A remark shown with the bound.
    _symbols : dict, optional
        Internal: a cache of the expression's symbols by name (not compared).
    """

    id: str
    expr: sp.Expr
    assumptions: tuple = ()
    citation: str = ""
    description: str = ""
    kind: str = "bound"
    literal: bool = True
    erratum: str = ""
    note: str = ""
    _symbols: dict = field(default_factory=dict, compare=False, repr=False)

    @cached_property
    def args(self):
        """The names of the expression's symbols: laocheck's in their canonical order, then
        the user's own, sorted."""
        names = {s.name for s in self.expr.free_symbols}
        own = [n for n in SYMBOLS if n in names]
        return tuple(own + sorted(names - set(own)))

    @cached_property
    def _func(self):
        symbols = {s.name: s for s in self.expr.free_symbols}
        return sp.lambdify([symbols[n] for n in self.args], self.expr, modules=["numpy"])

    def check_assumptions(self, values):
        """Raise :class:`~laocheck.exceptions.InvalidParameterError` naming the first assumption the values break."""
        symbols = {s.name: s for a in self.assumptions for s in a.free_symbols}
        for a in self.assumptions:
            needed = sorted(s.name for s in a.free_symbols)
            if not all(n in values for n in needed):
                continue                    # an assumption on symbols not evaluated here
            truth = a.subs({symbols[n]: values[n] for n in needed})
            if truth is not sp.true and not bool(truth):
                shown = ", ".join(f"{n}={values[n]!r}" for n in needed)
                raise InvalidParameterError(
                    f"the bound {self.id!r} assumes {a}; got {shown}.")

    def __call__(self, **values):
        missing = [n for n in self.args if n not in values]
        if missing:
            raise InvalidParameterError(
                f"`{missing[0]}` is required by the bound {self.id!r}; it depends on "
                f"{', '.join(self.args)}.")
        known = {n: values[n] for n in self.args if n in SYMBOLS or n in INTEGER_SYMBOLS}
        vals = {**{n: float(values[n]) for n in self.args}, **validated(known)}
        self.check_assumptions({**{n: values[n] for n in values}, **vals})
        try:
            with np.errstate(all="ignore"):
                out = float(self._func(*[vals[n] for n in self.args]))
        except OverflowError:
            # a number beyond the doubles (10**400): evaluated exactly, then rounded
            out = self._exact(vals)
        return out

    def _exact(self, vals):
        """The value at ``vals`` evaluated by sympy (exact numbers, 30 digits), rounded to a
        double: a value beyond the doubles is ±inf (10**400 is no less than every double, so
        comparing a finite double with it or with inf gives the same answer)."""
        symbols = {s.name: s for s in self.expr.free_symbols}
        value = self.expr.xreplace({symbols[n]: sp.Rational(v) if isinstance(v, int) else
                                    sp.Float(v, 30) for n, v in vals.items() if n in symbols})
        value = value.evalf(30)
        if not value.is_extended_real:
            return math.nan
        if value.is_infinite or abs(value) > sys.float_info.max:
            return math.copysign(math.inf, float(sp.sign(value)))
        return float(value)

    def simplified(self):
        """``sympy.simplify`` of the expression (positive symbols)."""
        return sp.simplify(self.expr)

    def latex(self):
        return sp.latex(self.expr)

    def subs(self, **exprs):
        symbols = {s.name: s for s in self.expr.free_symbols}
        return self.expr.subs({symbols[n]: v for n, v in exprs.items() if n in symbols})

    def describe(self):
        return {"id": self.id, "citation": self.citation, "kind": self.kind,
                "description": self.description, "literal": self.literal,
                "erratum": self.erratum, "proof": None, "expr": str(self.expr),
                "latex": self.latex(), "args": list(self.args),
                "assumptions": [str(a) for a in self.assumptions], "note": self.note,
                "user": True}


def _positive(expr):
    """The expression with every symbol replaced by a positive one of the same name (laocheck's
    where the name is one of :data:`SYMBOLS`), so simplification knows d, k, m, B > 0."""
    mapping = {s: SYMBOLS.get(s.name, sp.Symbol(s.name, positive=True))
               for s in expr.free_symbols}
    return expr.xreplace(mapping), mapping


def user_bound(name, expr, *, symbols=None, assumptions=(), citation="", description="",
               replace=False):
    """Register (and return) a user's bound ``expr`` under ``name``.

    Parameters
    ----------
    name : str
        Its id (not one of :data:`laocheck.bounds.FORMULAS`).
    expr : sympy expression or str
        The bound, in named symbols (a string is read by :func:`parse_formula`, the
        allow-list grammar that never evaluates it, with ``symbols`` and laocheck's).
    symbols : iterable of str or sympy Symbols, optional
        The symbols the bound may use; an expression with another symbol is refused (a typo
        such as ``kk`` would otherwise become a parameter). Default: the expression's own.
    assumptions : iterable of sympy relations or str
        Such as ``k <= d`` or ``"m >= 10"`` (a string read by :func:`parse_formula`),
        checked at every evaluation.
    citation, description : str
        Shown in reports (``"my paper, Thm 1"``).
    replace : bool
        Allow registering ``name`` again.

    Returns
    -------
    UserBound
        The registered bound, also stored in :data:`USER_BOUNDS` under ``name``.

    Raises
    ------
    InvalidParameterError
        If ``name`` is empty, one of :data:`laocheck.bounds.FORMULAS` or already registered
        (without ``replace``), if ``expr`` does not parse, is not an expression, has no symbol
        or uses a symbol outside ``symbols``, or if an assumption is not a relation.
    """
    if not isinstance(name, str) or not name:
        raise InvalidParameterError(f"`name` must be a nonempty string; got {name!r}.")
    if name in FORMULAS:
        raise InvalidParameterError(
            f"`name` must not be a formula of the papers; {name!r} is laocheck.bounds."
            f"FORMULAS[{name!r}].")
    if name in USER_BOUNDS and not replace:
        raise InvalidParameterError(
            f"`name` {name!r} is already a registered user bound; pass replace=True.")
    allowed = None
    if symbols is not None:
        allowed = {s if isinstance(s, str) else s.name for s in symbols}
    scope = {**SYMBOLS, **{n: sp.Symbol(n, positive=True) for n in (allowed or ())
                           if n not in SYMBOLS}}
    if isinstance(expr, str):           # read by the allow-list grammar, never evaluated
        expr = parse_formula(expr, key=f"`expr` of {name!r}", symbols=scope)
    if not isinstance(expr, sp.Expr):
        raise InvalidParameterError(
            f"`expr` of {name!r} must be a sympy expression or a string; got {expr!r}.")
    if not expr.free_symbols:
        raise InvalidParameterError(
            f"`expr` of {name!r} must depend on some symbol (d, k, m, B, ...); got {expr}.")
    names = {s.name for s in expr.free_symbols}
    if allowed is not None and not names <= allowed:
        raise InvalidParameterError(
            f"`expr` of {name!r} uses {sorted(names - allowed)}, not among `symbols` "
            f"{sorted(allowed)}.")
    expr, mapping = _positive(expr)
    by_name = {s.name: t for s, t in mapping.items()}
    scope.update(by_name)
    rels = []
    for a in assumptions or ():
        rel = _relational(name, a, scope)
        rels.append(rel.xreplace({s: by_name.get(s.name, SYMBOLS.get(
            s.name, sp.Symbol(s.name, positive=True))) for s in rel.free_symbols}))
    out = UserBound(id=name, expr=expr, assumptions=tuple(rels), citation=citation,
                    description=description or f"user bound {name}")
    USER_BOUNDS[name] = out
    return out


def get_user_bound(name):
    """Return the registered user bound called ``name``.

    Parameters
    ----------
    name : str
        The name under which :func:`user_bound` registered the bound.

    Returns
    -------
    UserBound
        The bound registered as ``name``.

    Raises
    ------
    InvalidParameterError
        If no user bound is registered as ``name`` (the message lists those that are).
    """
    try:
        return USER_BOUNDS[name]
    except KeyError:
        raise InvalidParameterError(
            f"`name` must be a registered user bound; got {name!r} (registered: "
            f"{sorted(USER_BOUNDS)}).") from None


def user_bounds(pattern="*"):
    """Return the registered user bounds whose name matches a glob pattern.

    Parameters
    ----------
    pattern : str, default "*"
        A glob pattern (:func:`fnmatch.fnmatchcase`, case-sensitive) matched against the names.

    Returns
    -------
    list of UserBound
        The registered user bounds whose name matches ``pattern``, sorted by name.
    """
    return [USER_BOUNDS[n] for n in sorted(USER_BOUNDS) if fnmatch.fnmatchcase(n, pattern)]


def resolve_bound(value, what="`bound`"):
    """Return the Formula or UserBound that a value names or gives.

    A bound named by a formula id of the papers, a registered user bound, or given as a
    formula (text read by :func:`parse_formula`, never evaluated) or a sympy expression
    (an anonymous ``UserBound`` with the expression as its id): the Formula or UserBound.

    Parameters
    ----------
    value : str, sympy.Expr, UserBound or Formula
        A formula id of :data:`laocheck.bounds.FORMULAS`, the name of a registered user
        bound, a formula (``"4*B^2*sqrt(2*d/(k*m))"``), a sympy expression, or a bound
        object (returned as is).
    what : str, optional
        How the error message names ``value``; default ``"`bound`"``.

    Returns
    -------
    Formula or UserBound
        The papers' formula, the registered user bound, or an anonymous
        :class:`UserBound` for a sympy expression.

    Raises
    ------
    InvalidParameterError
        If ``value`` is a string that names no formula or user bound and is no formula of the
        grammar, or is of another type.
    """
    if isinstance(value, str):
        if value in FORMULAS:
            return FORMULAS[value]
        if value in USER_BOUNDS:
            return USER_BOUNDS[value]
        try:                            # a formula, read by the grammar (never evaluated)
            expr = parse_formula(value, key=what, symbols=SYMBOLS)
        except InvalidParameterError as exc:
            reason = str(exc).removeprefix(f"{what} {_shown(value)} ").rstrip(".")
            raise InvalidParameterError(
                f"{what} must be a formula id of laocheck.bounds.FORMULAS, a registered user "
                f"bound (laocheck.bounds.user_bound), a formula, a sympy expression or a "
                f"callable; got {_shown(value)} (as a formula it {reason}).") from None
        return resolve_bound(expr, what)
    if isinstance(value, sp.Expr):
        expr, _ = _positive(value)
        return UserBound(id=str(value), expr=expr, description="a sympy expression")
    if isinstance(value, (UserBound,)) or hasattr(value, "expr") and hasattr(value, "args"):
        return value
    raise InvalidParameterError(
        f"{what} must be a formula id, a user bound or a sympy expression; got {value!r}.")
