r"""Formula text read as data: an allow-list grammar builds the sympy expression, never evaluating.

A user's formula (``--claims '{"bound": "4*B^2*sqrt(2*d/(k*m))"}'``, ``user_bound(name,
"3*B**2*sqrt(d/(k*m))")``, an assumption ``"k <= d"``) is text from a file or a command line.
``sympy.sympify`` would *evaluate* it as Python (``__import__('os').system(...)`` runs;
``10**10**10*d`` or ``factorial(10**8)`` hangs while it parses). :func:`parse_formula` instead
reads the text with Python's own parser (:func:`ast.parse` in ``"eval"`` mode: the standard,
maintained grammar of Python expressions, so precedence, associativity and number syntax are
Python's and sympy's; no hand-written tokenizer) and walks the tree through an allow-list:

* numbers: integers (at most :data:`MAX_DIGITS` digits) and decimals or scientific notation
  (``0.5``, ``1e-3``; an exponent of at most 4 digits), all exact: sympy ``Integer`` and
  ``Rational`` (``0.1`` is 1/10, as :class:`fractions.Fraction` reads it, where ``sympify``
  would make a 15-digit ``Float``), so a formula means the same at any precision and
  ``parse_formula(str(expr)) == expr``;
* names: ``pi`` and ``E`` (sympy's constants), otherwise a symbol of that name (positive
  unless the caller's ``symbols`` map it to another), such as the documented d, k, m, B,
  N_half, N_one, N_inf, delta, eta, G and a user's own parameters;
* ``+ - * /``, ``^`` and ``**`` (powers; ``^`` is ``**`` as in ``sympify``, replaced before
  parsing: no string literal can survive the walk, so the textual replacement is exact),
  unary ``-`` and ``+``, parentheses;
* the functions ``sqrt``, ``log`` (``ln``; one argument, or a base), ``exp``, ``min``/``Min``
  and ``max``/``Max``, called with positional arguments;
* with ``relational=True`` (assumptions), one comparison or a chain (``1 <= k <= d``).

Anything else (attribute access, subscripts, calls of other names, keywords, lambdas,
comprehensions, strings and f-strings, bit operations, boolean operators, conditional
expressions, walrus, starred arguments, complex literals) is refused with the claim's name, the
text and what is not allowed, as one :class:`~laocheck.exceptions.InvalidParameterError` line.

Nothing can hang or grow without end: the text has at most :data:`MAX_CHARS` characters,
nests at most :data:`MAX_DEPTH` levels, integer literals have at most :data:`MAX_DIGITS`
digits, and a power is constructed only after its size is checked — a power of numbers whose
result would exceed 10^:data:`MAX_MAGNITUDE` in absolute value or fall below its inverse
(``10**10**10``, ``(1/2)**10**6``), a numeric exponent of a symbol beyond
:data:`MAX_EXPONENT`, or ``exp`` of a number beyond ``MAX_MAGNITUDE·ln 10`` is refused, so
sympy's automatic simplification (which multiplies out numbers) only ever handles numbers of a
few thousand digits. A formula that is not a finite real (``sqrt(-1)``, ``log(0)``, ``1/0``)
is refused too.
"""

from __future__ import annotations

import ast
import math
import re
from fractions import Fraction

import mpmath
import sympy as sp

from ..exceptions import InvalidParameterError

__all__ = ["parse_formula", "MAX_CHARS", "MAX_DEPTH", "MAX_DIGITS", "MAX_EXPONENT",
           "MAX_MAGNITUDE", "FUNCTIONS", "CONSTANTS"]

#: Longest formula text (characters); the claims schema's string fields are as long.
MAX_CHARS = 2000
#: Deepest nesting of operations and calls (a chain ``a + b + c`` nests one level per term).
MAX_DEPTH = 100
#: Most digits of an integer literal (as the JSON numbers laocheck reads: 400 characters).
MAX_DIGITS = 400
#: Largest |numeric exponent| of a power of a symbolic base (``d**100`` is allowed).
MAX_EXPONENT = 1000
#: Largest decimal order of magnitude of a power of numbers or of ``exp`` of a number:
#: ``10**1000`` is allowed, ``10**1001`` and ``2**10000`` are refused.
MAX_MAGNITUDE = 1000
#: Most arguments of ``min`` / ``max``.
MAX_ARGS = 16
#: Longest name of a symbol.
MAX_NAME = 100

#: The functions a formula may call: name -> (sympy constructor, fewest, most arguments).
FUNCTIONS = {
    "sqrt": (sp.sqrt, 1, 1), "exp": (sp.exp, 1, 1), "log": (sp.log, 1, 2),
    "ln": (sp.log, 1, 1), "min": (sp.Min, 1, MAX_ARGS), "Min": (sp.Min, 1, MAX_ARGS),
    "max": (sp.Max, 1, MAX_ARGS), "Max": (sp.Max, 1, MAX_ARGS)}
#: The constants a formula may name (as sympy prints them).
CONSTANTS = {"pi": sp.pi, "E": sp.E}

_RELATIONS = {ast.Lt: sp.StrictLessThan, ast.LtE: sp.LessThan, ast.Gt: sp.StrictGreaterThan,
              ast.GtE: sp.GreaterThan, ast.Eq: sp.Eq, ast.NotEq: sp.Ne}
#: what each refused kind of node is, in the message
_REFUSED = {
    ast.Attribute: "attribute access ('.')", ast.Subscript: "subscripts ('[...]')",
    ast.Lambda: "lambda", ast.ListComp: "comprehensions", ast.SetComp: "comprehensions",
    ast.DictComp: "comprehensions", ast.GeneratorExp: "comprehensions",
    ast.JoinedStr: "f-strings", ast.FormattedValue: "f-strings", ast.IfExp: "'if ... else'",
    ast.BoolOp: "'and' / 'or'", ast.NamedExpr: "':='", ast.Starred: "'*' arguments",
    ast.List: "lists", ast.Tuple: "tuples (a ',' outside a call)", ast.Set: "sets",
    ast.Dict: "dicts", ast.Await: "await", ast.Yield: "yield", ast.YieldFrom: "yield",
    ast.Slice: "slices"}
_OPERATORS = {ast.BitXor: "'^'", ast.BitOr: "'|'",
              ast.BitAnd: "'&'", ast.LShift: "'<<'", ast.RShift: "'>>'", ast.Mod: "'%'",
              ast.FloorDiv: "'//'", ast.MatMult: "'@'"}
_NUMBER = re.compile(r"(\d+)(\.\d*)?([eE][-+]?\d{1,4})?|\.\d+([eE][-+]?\d{1,4})?")
#: names sympify reads as infinities, NaN or the imaginary unit: refused, never symbols
_SPECIAL = frozenset({"oo", "zoo", "nan", "NaN", "inf", "Infinity", "infinity", "I"})
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_LN10 = math.log(10)


class _Refused(Exception):
    """A part of the text outside the grammar (turned into one InvalidParameterError line)."""


def _shown(text, limit=80):
    text = " ".join(text.split())
    return repr(text if len(text) <= limit else text[:limit - 3] + "...")


def parse_formula(text, *, key="formula", symbols=None, names=None, relational=False):
    """The sympy expression of formula ``text``, read through the allow-list grammar.

    Parameters
    ----------
    text : str
        The formula, such as ``"4*B^2*sqrt(2*d/(k*m))"``.
    key : str, default "formula"
        How messages name the claim or parameter (``"`--claims` field `bound`"``).
    symbols : dict of str to sympy.Symbol, optional
        The symbols of given names (laocheck's :data:`~laocheck.bounds.SYMBOLS`, say); any
        other name becomes ``sympy.Symbol(name, positive=True)``.
    names : collection of str, optional
        The only symbol names allowed (a typo such as ``kk`` is then refused with the list);
        default: any name.
    relational : bool, default False
        Read a comparison (``"k <= d"``, ``"1 <= k <= d"``: a sympy relation, a chain their
        ``And``) instead of an expression.

    Returns
    -------
    sympy.Expr or sympy relation
        The expression, built by sympy's constructors (never by evaluating the text).

    Raises
    ------
    InvalidParameterError
        If the text is not a string, too long, not in the grammar, nests too deeply, has a
        number too large, or is not a finite real expression; one line naming ``key``, the
        text and what is not allowed.
    """
    if not isinstance(text, str):
        raise InvalidParameterError(f"{key} must be a formula (a string); got "
                                    f"{type(text).__name__}.")
    if len(text) > MAX_CHARS:
        raise InvalidParameterError(
            f"{key} must be a formula of at most {MAX_CHARS} characters; got one of {len(text)}.")
    if not text.strip():
        raise InvalidParameterError(f"{key} must be a formula; got an empty string.")
    where = f"{key} {_shown(text)}"
    source = text.replace("^", "**")
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except SyntaxError as exc:
        raise InvalidParameterError(
            f"{where} is not a formula ({exc.msg}; allowed: numbers, names, + - * / ^ **, "
            "parentheses, sqrt, log, exp, min, max).") from None
    except (ValueError, RecursionError, MemoryError) as exc:    # a NUL byte; deep nesting
        raise InvalidParameterError(f"{where} is not a formula ({type(exc).__name__}).") \
            from None
    try:
        expr = _Builder(source.strip(), symbols or {}, names, relational).build(tree.body, 0)
    except _Refused as exc:
        raise InvalidParameterError(f"{where} is not allowed: {exc}.") from None
    except (ValueError, TypeError, ArithmeticError) as exc:   # sympy refusing, e.g. min(pi/0)
        raise InvalidParameterError(
            f"{where} is not a finite real expression (sympy: {_shown(str(exc))}).") from None
    logical = (sp.core.relational.Relational, sp.logic.boolalg.BooleanFunction,
               sp.logic.boolalg.BooleanAtom)       # (a Symbol is a sympy Boolean too)
    if relational:
        if not isinstance(expr, logical):
            raise InvalidParameterError(
                f"{where} must be a comparison such as 'k <= d'; got an expression.")
        return expr
    if isinstance(expr, logical) or not isinstance(expr, sp.Expr):
        raise InvalidParameterError(f"{where} must be an expression, not a comparison.")
    _check_numbers(expr, where)
    if expr.has(sp.zoo, sp.oo, -sp.oo, sp.nan, sp.I):
        raise InvalidParameterError(
            f"{where} is not a finite real expression (it has a division by zero, a logarithm "
            "of 0, an infinity or the imaginary unit).")
    return expr


class _Builder:
    """The walk of the allow-list: one method per kind of node, each returning sympy."""

    def __init__(self, source, symbols, names, relational):
        self.source, self.symbols, self.relational = source, symbols, relational
        self.names = None if names is None else frozenset(names)

    def build(self, node, depth):
        if depth > MAX_DEPTH:
            raise _Refused(f"nesting deeper than {MAX_DEPTH} levels (a chain of terms or "
                           "factors nests one level per term)")
        kind = type(node)
        if kind is ast.Constant:
            return self.number(node)
        if kind is ast.Name:
            return self.name(node.id)
        if kind is ast.UnaryOp:
            if isinstance(node.op, ast.USub):
                return -self.build(node.operand, depth + 1)
            if isinstance(node.op, ast.UAdd):
                return self.build(node.operand, depth + 1)
            raise _Refused("'not' and '~'")
        if kind is ast.BinOp:
            return self.binop(node, depth)
        if kind is ast.Call:
            return self.call(node, depth)
        if kind is ast.Compare:
            return self.compare(node, depth)
        raise _Refused(_REFUSED.get(kind, f"{kind.__name__} expressions"))

    def number(self, node):
        value = node.value
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            what = {str: "strings", bytes: "bytes", complex: "complex numbers"}.get(
                type(value), f"the constant {value!r}")
            raise _Refused(what)
        literal = ast.get_source_segment(self.source, node) or ""
        match = _NUMBER.fullmatch(literal)
        if not match:
            raise _Refused(f"the number {literal[:40]!r} (write decimal digits, an optional "
                           "'.', an exponent e±N of at most 4 digits)")
        if isinstance(value, int):
            if len(literal) > MAX_DIGITS:
                raise _Refused(f"integers of more than {MAX_DIGITS} digits (got {len(literal)})")
            return sp.Integer(value)
        digits = len(match.group(1) or "") + len(match.group(2) or "")
        if digits > MAX_DIGITS:
            raise _Refused(f"numbers of more than {MAX_DIGITS} digits")
        exact = Fraction(literal)                 # a decimal is exact: 0.1 is 1/10
        return sp.Rational(exact.numerator, exact.denominator)

    def name(self, name):
        if name in CONSTANTS:
            return CONSTANTS[name]
        if name in FUNCTIONS:
            raise _Refused(f"the function {name!r} without a call")
        if name in _SPECIAL:
            raise _Refused(f"the name {name!r} (infinities, NaN and the imaginary unit are "
                           "not finite reals)")
        if len(name) > MAX_NAME or not _NAME.fullmatch(name):
            raise _Refused(f"the name {name[:40]!r} (a symbol is a letter, then letters, "
                           f"digits or '_', at most {MAX_NAME} characters)")
        if self.names is not None and name not in self.names:
            raise _Refused(f"the name {name[:40]!r} (the symbols are "
                           f"{', '.join(sorted(self.names))})")
        symbol = self.symbols.get(name)
        return symbol if symbol is not None else sp.Symbol(name, positive=True)

    def factors(self, node, depth):
        """The factors of a chain of ``*``, ``/`` and unary minus (``-(d + k)*log(d)``:
        -1, d + k, log(d)), multiplied at once as sympy's printer writes them: sympy
        distributes a number over a sum only in a product of two, so multiplying pairwise
        would read back ``-(d + k)*log(d)`` as ``(-d - k)*log(d)``."""
        if depth > MAX_DEPTH:
            raise _Refused(f"nesting deeper than {MAX_DEPTH} levels (a chain of terms or "
                           "factors nests one level per term)")
        if isinstance(node, ast.BinOp) and type(node.op) in (ast.Mult, ast.Div):
            left = self.factors(node.left, depth + 1)
            right = self.factors(node.right, depth + 1)
            if isinstance(node.op, ast.Div):
                right = [sp.Mul(*right)**-1]
            return left + right
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return [sp.Integer(-1)] + self.factors(node.operand, depth + 1)
        value = self.build(node, depth)
        if not isinstance(value, sp.Expr):
            raise _Refused("arithmetic on a comparison")
        return [value]

    def binop(self, node, depth):
        op = type(node.op)
        if op in _OPERATORS:
            raise _Refused(_OPERATORS[op])
        if op in (ast.Mult, ast.Div):
            return sp.Mul(*self.factors(node, depth))
        left = self.build(node.left, depth + 1)
        right = self.build(node.right, depth + 1)
        for side in (left, right):
            if not isinstance(side, sp.Expr):
                raise _Refused("arithmetic on a comparison")
        if op is ast.Add:
            return left + right
        if op is ast.Sub:
            return left - right
        if op is ast.Mult:
            return left * right
        if op is ast.Div:
            return left / right
        if op is ast.Pow:
            return _power(left, right)
        raise _Refused(f"the operator {op.__name__}")             # pragma: no cover

    def call(self, node, depth):
        if not isinstance(node.func, ast.Name):
            raise _Refused(_REFUSED.get(type(node.func), "calls of anything but a function "
                                        "name"))
        name = node.func.id
        if name not in FUNCTIONS:
            raise _Refused(f"the function {name[:40]!r} (allowed: sqrt, log, exp, min, max)")
        if node.keywords:
            raise _Refused(f"keyword arguments (in {name})")
        func, fewest, most = FUNCTIONS[name]
        if not fewest <= len(node.args) <= most:
            raise _Refused(f"{name} with {len(node.args)} arguments (it takes "
                           f"{fewest if fewest == most else f'{fewest} to {most}'})")
        args = [self.build(a, depth + 1) for a in node.args]
        if not all(isinstance(a, sp.Expr) for a in args):
            raise _Refused(f"a comparison inside {name}")
        if any(a.has(sp.zoo, sp.oo, -sp.oo, sp.nan, sp.I) for a in args):
            raise _Refused(f"an argument of {name} that is not finite and real (a division by "
                           "zero, a logarithm of 0, an infinity or the imaginary unit)")
        if func is sp.exp and args[0].is_number:
            size = _magnitude(args[0])
            if size > MAX_MAGNITUDE * _LN10:
                raise _Refused(f"exp of a number beyond {MAX_MAGNITUDE}·ln 10 (the result "
                               f"would exceed 10^{MAX_MAGNITUDE})")
        return func(*args)

    def compare(self, node, depth):
        if not self.relational:
            raise _Refused("comparisons (a formula is an expression)")
        terms = [self.build(node.left, depth + 1)] + [
            self.build(c, depth + 1) for c in node.comparators]
        out = []
        for op, a, b in zip(node.ops, terms, terms[1:]):
            if type(op) not in _RELATIONS:
                raise _Refused(f"the comparison {type(op).__name__}")
            if not (isinstance(a, sp.Expr) and isinstance(b, sp.Expr)):
                raise _Refused("a comparison of comparisons")
            out.append(_RELATIONS[type(op)](a, b))
        return out[0] if len(out) == 1 else sp.And(*out)


def _check_numbers(expr, where):
    """Refuse an expression holding a number beyond 10^±MAX_MAGNITUDE (a product of many
    allowed powers): its text, its lambdified code and its evaluation stay small."""
    limit = MAX_MAGNITUDE * math.log2(10) + 2
    for atom in expr.atoms(sp.Number):
        if atom.is_finite is not True:              # nan, zoo, oo: refused after this
            continue
        if isinstance(atom, sp.Rational):
            big = max(abs(atom.p), atom.q).bit_length() > limit
        else:
            big = atom != 0 and abs(_log10_abs(atom)) > MAX_MAGNITUDE
        if big:
            raise InvalidParameterError(
                f"{where} is not allowed: a number beyond 10^{MAX_MAGNITUDE} (or below its "
                "inverse).")


def _magnitude(number):
    """|value| of a numeric sympy expression as a float (inf beyond the doubles), computed
    with 15 digits by ``evalf`` (cheap: the numbers are bounded by the grammar's caps)."""
    value = number.evalf(15)
    if value.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        return math.inf
    try:
        return float(abs(value))
    except (TypeError, OverflowError):                 # complex, or beyond the doubles
        return math.inf


def _log10_abs(number):
    """log10 |value| of a nonzero numeric sympy expression (15 digits)."""
    value = number.evalf(15)
    if not value.is_Number:                      # complex: its modulus
        value = sp.Abs(value).evalf(15)
    if value.is_zero:
        return -math.inf
    if not (value.is_Float or value.is_Rational):   # not a finite real number: beyond caps
        return math.inf
    return float(mpmath.log10(abs(mpmath.mpf(sp.Float(value, 15)._mpf_))))


def _power(base, exponent):
    """``base ** exponent``, constructed only when its size is bounded: a power of numbers
    within 10^±MAX_MAGNITUDE, a numeric exponent of a symbol within ±MAX_EXPONENT."""
    if exponent.is_number:
        e = _magnitude(exponent)
        if base.is_number:
            if base.is_zero or e == 0:
                return sp.Pow(base, exponent)
            size = e * abs(_log10_abs(base))
            if not size <= MAX_MAGNITUDE:
                raise _Refused(f"a power of numbers beyond 10^{MAX_MAGNITUDE} (or below its "
                               "inverse), such as 10**10**10")
        elif not e <= MAX_EXPONENT:
            raise _Refused(f"a power with a numeric exponent beyond {MAX_EXPONENT}")
        if isinstance(exponent, sp.Rational) and exponent.q > MAX_EXPONENT:
            raise _Refused(f"a fractional exponent with a denominator beyond {MAX_EXPONENT}")
    return sp.Pow(base, exponent)
