"""``laocheck check module:object``: the claims of a user's own estimator or learner, checked.

``object`` is an estimator (an object with ``target``, ``sample`` and optionally ``budget``,
in plain numpy: no ``reference`` needed, its ``sample`` is enumerated exactly by driving its
``rng``), or a callable returning one (a class or a factory called without arguments). Its
claims come from its ``spec`` or ``--claims`` (JSON: ``{"unbiased": true, "second_moment":
"HK12.Lemma3.3.G2", "budget": 3, "budget_kind": "exact", "clipping": 0.5, "scaling":
"degree1", "range": [-4, 4], "k": 2}``; ``"second_moment_inf"`` bounds ‖E[v²]‖∞ and ``"q"``
gives the data-point distribution KS15's S-formulas read); see
``laocheck.testing.check_estimator``. The command parses, calls the engine
(``laocheck.testing.check_estimator``) and prints.

A learner (an object with ``fit(X, y)`` and ``coef_`` and no ``sample``, or a callable
returning one; or named with ``--learner``) is checked by ``laocheck.testing.check_learner``:
its claims come from its class's ``spec`` (laocheck's learners) or ``--claims`` (JSON:
``{"budget": 3, "constraint": "l2", "bound": "HK12.Thm3.1.bound", "step_size":
"HK12.Thm3.1.eta", "B": 1, "m": 100, "R": 10}``; ``bound`` and ``step_size`` are a formula
id of ``laocheck.bounds``, the name of a user bound its module registers when imported, a
number, or a formula in d, k, m, B, N_half, N_one, N_inf and the names of ``params``, e.g.
``"4*B**2*sqrt(2*d/(k*m))"``, read by :func:`laocheck.bounds.parse_formula`, never
evaluated); without either, the claims every learner makes (the same seed gives the same
coef_, scikit-learn's API where it has get_params).

The claims are data: a duplicated key, an unknown field, a count that is not an integer or
sizes beyond a report spec's (R·m·d <= 10^11) are refused with one line. ``MODULE:OBJECT`` is
code: its module is imported and the callable it names is called, as pytest runs a
``conftest.py`` (a callable of Python's standard library is refused).

Exit status: 0 when every check PASSes, 1 when one FAILs, when — unless
``--allow-inconclusive`` — one could not decide its claim (INCONCLUSIVE, printed with the
reason and what would decide it) or when nothing was checked at all, 2 on a usage error (an
object that cannot be found, a module with a syntax error, an object that does not implement
the protocol, claims that do not fit it or select no check), 4 when the user's code raised or
called ``sys.exit`` — on import of its module, in the named factory, or inside a check
(ERROR: the exception and the user's file and line, never a verdict). Unbiasedness for ``target`` is checked unless the claims say ``"unbiased":
false``; every property not checked is listed with the reason.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time

from .._files import (Bool, Int, List, Map, Null, Obj, OneOf, Real, Str, parse_json, read_text,
                      validate)
from .._io import check_output_path, write_json_atomic
from .._provenance import provenance
from ..checks import DEFAULT_DELTA, Status
from ..checks._guards import user_error, user_location
from ..checks._registry import error_note
from ..exceptions import InvalidParameterError
from ._common import add_effort_option, parse_seed
from .verify import print_table

EPILOG = """examples:
  laocheck check mypkg.samplers:MyGradient                the claims of its spec
  laocheck check mypkg.samplers:make --claims '{"unbiased": true, "budget": 3}'
  laocheck check mypkg.samplers:est --claims claims.json --json report.json --seed 7
  laocheck check --learner mypkg.learners:MyAERR --claims '{"budget": 3, "constraint": "l2"}'
  laocheck check mypkg.learners:make --claims learner_claims.json   (a learner: fit, coef_)

exit status: 0 every check PASSes; 1 a check FAILs, a claim is INCONCLUSIVE (unless
--allow-inconclusive) or nothing was checked; 2 usage error (the object cannot be found,
claims malformed or selecting no check); 4 ERROR: your code raised or called sys.exit on
import, in its factory or inside a check (the exception with your file and line; not a
verdict).
"""


def add_parser(subparsers):
    p = subparsers.add_parser(
        "check", help="check your own estimator or learner against the claims it makes",
        description="Run on a user's estimator every check its claims select (unbiasedness, "
        "the attribute budget, the sampler against its reference, second moment, clipping, "
        "scaling), or on a user's learner (fit, coef_) every check of its claims (attribute "
        "budget, constraint set, step size, excess-risk bound, determinism, scikit-learn's "
        "API).", epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("target", metavar="MODULE:OBJECT", nargs="?", default=None,
                   help="the estimator or learner, or a callable returning it (called without "
                   "arguments), as module.path:name; a learner is recognised by fit(X, y) "
                   "without sample")
    p.add_argument("--learner", metavar="MODULE:FACTORY", default=None,
                   help="check this learner (an object with fit(X, y) and coef_, or a "
                   "callable returning one) with laocheck.testing.check_learner; instead of "
                   "MODULE:OBJECT. Default: none.")
    p.add_argument("--claims", metavar="JSON", default=None,
                   help="the claims as a JSON object, or the path of a JSON file. Default: the "
                   "estimator's or learner's spec (a learner without one: determinism and "
                   "scikit-learn's API).")
    p.add_argument("--seed", type=parse_seed, default=0, help="run seed. Default: 0.")
    add_effort_option(p, "the sample counts of the checks")
    p.add_argument("--delta", type=_delta, default=DEFAULT_DELTA,
                   help=f"false-failure probability of each statistical check (<= 1e-6). "
                   f"Default: {DEFAULT_DELTA:g}.")
    p.add_argument("--json", metavar="PATH", default=None,
                   help="write the records (with provenance) as JSON to PATH. Default: none.")
    p.add_argument("--allow-inconclusive", action="store_true",
                   help="exit 0 even when a claim could not be decided (INCONCLUSIVE), as long "
                   "as some check decided. Default: such a claim makes the exit status 1.")
    p.set_defaults(func=cmd_check)
    return p


def _delta(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"`--delta` must be a number; got {text!r}") from None
    if not 0 < value <= 1e-6:
        raise argparse.ArgumentTypeError(f"`--delta` must satisfy 0 < delta <= 1e-6; got {text}")
    return value


def _one_line(exc, limit=300):
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


class UserCodeAtLoad(InvalidParameterError):
    """The user's module raised or called sys.exit while it was imported, or the named factory
    did when it was called: the user's code failed (ERROR, exit 4), not the command line."""


def load_object(spec):
    """The object named ``module.path:name`` (a callable without a ``sample`` is called)."""
    if not isinstance(spec, str) or spec.count(":") != 1:
        raise InvalidParameterError(
            f"`MODULE:OBJECT` must read 'module.path:name'; got {spec!r}.")
    module_name, attr = spec.split(":")
    if os.getcwd() not in sys.path:          # as `python -m`: modules of the current directory
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except (ImportError, ValueError) as exc:        # ValueError: an empty or relative name
        raise InvalidParameterError(
            f"`MODULE:OBJECT`={spec!r}: module {module_name!r} cannot be imported "
            f"({_one_line(exc)}).") from None
    except SyntaxError as exc:                      # IndentationError, TabError included
        raise InvalidParameterError(
            f"`MODULE:OBJECT`={spec!r}: module {module_name!r} has a syntax error "
            f"({exc.msg}, {exc.filename} line {exc.lineno}).") from None
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - the user's module raised or
        raise UserCodeAtLoad(               # called sys.exit while it was imported
            f"`MODULE:OBJECT`={spec!r}: importing module {module_name!r} "
            f"{_raised(exc)}.") from None
    obj = module
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise InvalidParameterError(
                f"`MODULE:OBJECT`={spec!r}: {module_name} has no {attr!r}.") from None
    if callable(obj) and (isinstance(obj, type) or not hasattr(obj, "sample")):
        # the named callable is called: never one of Python's own (`os:abort`,
        # `logging:basicConfig`), which cannot return an estimator or a learner
        owner = (getattr(obj, "__module__", None) or "").split(".")[0]
        if owner in sys.stdlib_module_names or owner == "builtins":
            raise InvalidParameterError(
                f"`MODULE:OBJECT`={spec!r} must be an estimator or learner, or a class or "
                f"factory of the user's returning one; it is part of Python's standard "
                f"library ({obj.__module__}), which laocheck does not call.")
        try:
            obj = obj()
        except TypeError as exc:
            raise InvalidParameterError(
                f"`MODULE:OBJECT`={spec!r} is a callable that needs arguments "
                f"({_one_line(exc)}); point at an estimator object or a factory without "
                "arguments.") from None
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - the user's factory raised
            raise UserCodeAtLoad(                   # or called sys.exit
                f"`MODULE:OBJECT`={spec!r}: calling it {_raised(exc)}.") from None
    return obj


def _raised(exc):
    """``raised ValueError: message (file.py line 3)`` or ``called sys.exit(0) (...)``: what
    the user's code did, with the user's file and line (:func:`~laocheck.checks._guards.
    user_location`), on one line."""
    where = user_location(exc)
    at = f" ({where[0]} line {where[1]})" if where else ""
    if isinstance(exc, SystemExit):
        return f"called sys.exit({exc.code!r}){at}"
    return f"raised {type(exc).__name__}: {_one_line(exc)}{at}"


#: ``--claims`` as a file or text holds: an object; each known claim with its JSON type (its
#: meaning is checked by :func:`laocheck.testing.check_estimator`); any other key is refused
#: with the list of these
CLAIMS_SCHEMA = Obj(optional={
    "unbiased": Bool(), "finite_support": Bool(),
    "second_moment": OneOf(Str(200), Real(finite=False)),
    "second_moment_inf": OneOf(Str(200), Real(finite=False)),
    "budget": Int(0, 2**63), "budget_kind": Str(50),
    "clipping": OneOf(Real(finite=False), Null()), "scaling": OneOf(Str(50), Null()),
    "q": List(Real(finite=False), max_len=10**6), "k": Int(1, 10**6),
    "range": List(Real(), min_len=2, max_len=2),
    "params": Map(Str(100), Real(), max_len=1000)}, extra=None)


#: ``--claims`` of a learner: the keys of :func:`laocheck.testing.check_learner` that JSON can
#: hold (no callables or distributions); any other key is refused with the list of these. The
#: sizes are capped as a report spec's (d <= 10^6, m <= 10^9, R <= 10^5; R·m·d <= 10^11 is
#: checked by laocheck.testing's claims values)
LEARNER_CLAIMS_SCHEMA = Obj(optional={
    "budget": Int(0, 2**63), "budget_kind": Str(50), "constraint": OneOf(Str(10), Bool()),
    "geometry": Str(10), "B": Real(0), "k": Int(1, 10**6),
    "bound": OneOf(Str(2000), Real(0)), "step_size": OneOf(Str(2000), Real(0)),
    "deterministic": Bool(), "randomized": Bool(), "sklearn": Bool(),
    "params": Map(Str(100), Real(), max_len=1000), "loss": Str(20), "d": Int(2, 10**6),
    "m": OneOf(Int(1, 10**9), List(Int(1, 10**9), min_len=2, max_len=2)),
    "R": OneOf(Int(1, 10**5), List(Int(1, 10**5), min_len=2, max_len=2))}, extra=None)


#: the symbols a formula of ``--claims`` may use besides the names of its ``params``
FORMULA_SYMBOLS = ("d", "k", "m", "B", "N_half", "N_one", "N_inf", "delta", "eps")


def _formula_text(text, key, params=()):
    """A formula id, a user bound's name, or a formula in d, k, m, B, N_half, N_one, N_inf,
    delta, eps and the names of ``params`` (read by :func:`laocheck.bounds.parse_formula`:
    an allow-list grammar, never evaluated) as the claim's value."""
    # start-up: sympy and the bounds load only for a learner's claims
    from ..bounds import FORMULAS, USER_BOUNDS, parse_formula
    if text in FORMULAS or text in USER_BOUNDS:
        return text
    return parse_formula(text, key=f"`--claims` field `{key}`",
                         names={*FORMULA_SYMBOLS, *params})


def _learner_claims(text):
    """The ``--claims`` of a learner: a dict for check_learner (None: its spec)."""
    doc = _claims(text, LEARNER_CLAIMS_SCHEMA)
    if doc is None:
        return None
    out = dict(doc)
    for key in ("bound", "step_size"):
        if isinstance(out.get(key), str):
            out[key] = _formula_text(out[key], key, out.get("params") or ())
        elif isinstance(out.get(key), (int, float)):
            # start-up, as in _formula_text: a constant claim as a sympy number
            import sympy as sp
            out[key] = sp.Float(out[key]) if out[key] else sp.Integer(0)
    for key in ("m", "R"):
        if isinstance(out.get(key), list):
            out[key] = tuple(out[key])
    return out


class _Duplicate(ValueError):
    pass


def _no_duplicates(pairs):
    """``object_pairs_hook`` of :func:`json.loads`: an object, or _Duplicate naming the key
    that appears twice (JSON allows it; the last one would silently win)."""
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise _Duplicate(key)
        seen[key] = value
    return seen


def _claims(text, schema=None):
    """The ``--claims`` JSON object (text or file): no duplicated key, no unknown field (the
    message lists the known ones), each value of its schema's type; None without ``--claims``."""
    schema = CLAIMS_SCHEMA if schema is None else schema
    if text is None:
        return None
    if text.lstrip().startswith(("{", "[", '"')) and not os.path.lexists(text) \
            or not text.strip():
        where = "`--claims`"
        source = text
    elif not os.path.lexists(text):
        raise InvalidParameterError(
            f"`--claims` must be a JSON object or the path of a JSON file; got {text!r}.")
    else:
        where = f"`--claims` file {text!r}"
        source = read_text(text, what="`--claims` file", limit=2**24)
    doc = parse_json(source, what=where)      # depth and number lengths checked first
    if not isinstance(doc, dict):
        raise InvalidParameterError(f"{where} must be a JSON object; got {type(doc).__name__}.")
    try:
        json.loads(source, object_pairs_hook=_no_duplicates)
    except _Duplicate as exc:
        raise InvalidParameterError(
            f"{where}: field `{_one_line(exc.args[0], 60)}` appears twice (JSON would keep the "
            "last silently); give each claim once.") from None
    known = sorted({*schema.optional, *schema.required})
    unknown = [k for k in doc if k not in known]
    if unknown:
        raise InvalidParameterError(
            f"{where}: field `{_one_line(unknown[0], 60)}` must not be there (unknown field); "
            f"the claims are {', '.join(known)}.")
    return validate(doc, schema, where)


def cmd_check(args):
    # start-up: the estimator and learner checks (scipy, the kernels) load only when they run
    from ..testing import check_estimator, check_learner
    from ..testing._learners import is_learner  # start-up, as above
    try:
        if (args.target is None) == (args.learner is None):
            raise InvalidParameterError(
                "give the object to check once: MODULE:OBJECT or --learner MODULE:FACTORY; got "
                + ("neither." if args.target is None else
                   f"both ({args.target!r} and {args.learner!r})."))
        target = args.learner or args.target
        if args.json:
            check_output_path("--json", args.json)
        est = load_object(target)
        learner = is_learner(est)
        if args.learner is not None and not learner:
            raise InvalidParameterError(
                f"`--learner` {target!r} must be a learner (fit(X, y), coef_, no sample) or a "
                f"callable returning one; got {type(est).__name__}.")
        start = time.perf_counter()
        if learner:
            records = check_learner(est, _learner_claims(args.claims), seed=args.seed,
                                    effort=args.effort, delta=args.delta, on_fail=None)
        else:
            records = check_estimator(est, _claims(args.claims), seed=args.seed,
                                      effort=args.effort, delta=args.delta, on_fail=None)
    except UserCodeAtLoad as exc:            # the user's module or factory raised: ERROR
        sys.stderr.write(f"laocheck check: error: {exc} (ERROR, not a verdict)\n")
        return 4
    except InvalidParameterError as exc:
        sys.stderr.write(f"laocheck check: error: {exc}\n")
        return 2
    except (Exception, SystemExit) as exc:   # the user's code, outside any check (claims)
        error = user_error(exc)
        if error is None:
            raise                            # laocheck's own: a bug, with its traceback
        sys.stderr.write(f"laocheck check: error: {error_note(error)}\n")
        return 4
    wall = time.perf_counter() - start
    if not records:                          # nothing would be checked: a usage error
        sys.stderr.write(f"laocheck check: error: no claim selects a check of {target}: give "
                         f"the {'learner' if learner else 'estimator'} a spec or pass "
                         "--claims.\n")
        return 2
    counts = {s.value: sum(r.status == s.value for r in records) for s in Status}
    print_table(records)
    print(f"\n{len(records)} checks of {'learner ' if learner else ''}{target}: "
          + ", ".join(f"{k} {v}" for k, v in counts.items())
          + f". seed {args.seed}, effort {args.effort.name}, {wall:.1f} s.")
    skipped = getattr(records, "unchecked", {})
    if skipped:
        print("\nnot checked:\n" + "\n".join(f"    {prop}: {why}"
                                             for prop, why in skipped.items()))
    for r in records:
        if r.status == Status.FAIL.value:
            print(f"\n{r.id}: FAIL\n    counterexample: "
                  f"{json.dumps(r.counterexample, ensure_ascii=False)}\n    figures: "
                  f"{json.dumps(r.figures, ensure_ascii=False)}")
            if r.note and not r.note.startswith("error:"):
                print(f"    note: {r.note}")
            elif r.note:
                print(f"    error: {r.note.strip().splitlines()[-1][:300]}")
        elif r.status == Status.INCONCLUSIVE.value:
            print(f"\n{r.id}: INCONCLUSIVE\n    {r.note}")
        elif r.status == Status.ERROR.value:
            print(f"\n{r.id}: ERROR\n    {r.note}")
    if args.json:
        write_json_atomic(args.json, {
            "run": {"target": target, "kind": "learner" if learner else "estimator",
                    "seed": args.seed, "effort": args.effort.name,
                    "delta": args.delta, "counts": counts, "seconds": round(wall, 3),
                    "provenance": provenance(seed=args.seed, effort=args.effort)},
            "checks": [r.to_dict() for r in records], "unchecked": skipped})
    return exit_status(counts, args.allow_inconclusive)


def exit_status(counts, allow_inconclusive=False):
    """The exit status of ``laocheck check`` from the counts per status, with the line saying
    why when it is not 0: 4 when the user's code raised or exited in a check (ERROR), 1 when a
    check FAILs, when a claim could not be decided (INCONCLUSIVE, unless
    ``allow_inconclusive``), or when nothing was checked (no PASS or FAIL at all), else 0."""
    if counts.get(Status.ERROR.value):
        print(f"\n{counts[Status.ERROR.value]} check(s) could not run: the code under test "
              "raised or exited (ERROR, not a verdict): exit 4.")
        return 4
    undecided = counts.get(Status.INCONCLUSIVE.value) and not allow_inconclusive
    if undecided:
        print(f"\n{counts[Status.INCONCLUSIVE.value]} claim(s) could not be decided: exit 1 "
              "(--allow-inconclusive accepts them).")
    decided = sum(counts.get(s.value, 0) for s in (Status.PASS, Status.FAIL, Status.ERRATUM))
    if not decided and not undecided:
        print("\nNothing was checked (no check decided its claim): exit 1.")
        return 1
    return 1 if counts.get(Status.FAIL.value) or undecided else 0
