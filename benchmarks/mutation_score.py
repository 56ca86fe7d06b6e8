"""Mutation score of the catalog: cosmic-ray's mutants of the code the catalog is about, each
judged by the catalog checks that exercise or cite the mutated unit (issue 47, item 2).

The engine is cosmic-ray (``benchmarks/mutation.toml`` names its operators): ``cosmic-ray
init`` writes the mutants of each module into a sqlite session, cosmic-ray applies one mutant
at a time to the file and runs a test command with a timeout, and its tools (``cr-report``,
``cr-html``) read the session. laocheck's "tests" are its catalog checks, so the test command
is this script's ``judge``: it imports the mutated package, runs the selected checks at seed 0
and the fast effort profile, and exits non-zero (KILLED) as soon as one verdict differs from that
check's seed-0 verdict on the unmutated package.

Two things are laocheck's own, both explained in ``docs/explanation/mutation.md``:

* **Where mutants live.** cosmic-ray edits files in place. The package is copied (its ``.py``
  files and the compiled ``.so`` beside them: the copy imports exactly like the original,
  installed or in ``src/``) to a scratch folder, mutated there, and the judge runs with
  ``PYTHONPATH`` on the copy: the working tree is never touched, even by an interrupted run.
* **Test selection** (``map``): one unmutated run of every check under coverage.py with one
  dynamic context per check gives, for each function of a module in scope, the checks that
  execute it; a recorder on :class:`laocheck.bounds.Formula` gives, for each formula of
  ``laocheck.bounds``, the checks that read it, and the string constants of a check's code (and
  its parameters) give the checks that cite a formula by id. A mutant of a function is judged
  by the checks that execute the function; a mutant at module level of ``bounds/_formulas.py``
  by the checks that read or cite a formula whose expression the mutant changes (the judge
  compares every expression with the map's). A mutant of ``estimators/_families.py`` (the
  estimator specs: module-level declarations, and the helpers that build them at import) is
  judged, besides the checks that execute its function, by the checks of every
  :class:`~laocheck.estimators.EstimatorSpec` whose value the mutant changes (the judge
  compares each spec's :func:`spec_signature` with the map's): the spec's property checks
  (ids ``<spec name>.*``) and the checks that read the spec while they run. The map also
  keeps each check's seed-0 verdict.

Usage::

    python benchmarks/mutation_score.py map                       # minutes: the whole catalog once
    python benchmarks/mutation_score.py map --only 'KS15.Sec3.*' --merge   # new checks only
    python benchmarks/mutation_score.py run laocheck/bounds/_formulas.py
    python benchmarks/mutation_score.py run --share 3/7 laocheck/bounds/_formulas.py
    python benchmarks/mutation_score.py table                     # the docs' table from the JSON

``run`` writes ``benchmarks/results/mutation/score.json`` (merged per module with earlier runs:
a module's row is replaced by the new run's) and ``docs/benchmarks/mutation.md``. Equivalent
mutants are listed with their argument in ``tests/mutation/equivalent.toml``; the table
subtracts them.
"""
import argparse
import ast
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
import time
import tomllib
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: a folder of its own: the docs' generic benchmarks page tabulates the JSON files of
#: benchmarks/results/ itself, and this one has its own page (docs/benchmarks/mutation.md)
RESULTS = ROOT / "benchmarks" / "results" / "mutation"
MAP_PATH = RESULTS / "map.json"
SCORE_PATH = RESULTS / "score.json"
DOC_PATH = ROOT / "docs" / "benchmarks" / "mutation.md"
CONFIG_PATH = ROOT / "benchmarks" / "mutation.toml"
EQUIVALENT_PATH = ROOT / "tests" / "mutation" / "equivalent.toml"

#: the modules the catalog is about (paths inside the package's parent folder); generated
#: files (bounds/_numeric.py, rendered from _formulas.py) and the Cython kernels are not
SCOPE = (
    "laocheck/reference/estimators.py", "laocheck/reference/learners.py",
    "laocheck/bounds/_formulas.py",
    "laocheck/estimators/_families.py", "laocheck/estimators/_spec.py",
    "laocheck/learners/_base.py", "laocheck/learners/_specs.py", "laocheck/learners/adaptive.py",
    "laocheck/learners/aer.py", "laocheck/learners/aesvr.py",
    "laocheck/learners/full_information.py", "laocheck/learners/lasso.py",
    "laocheck/learners/ridge.py", "laocheck/learners/two_phase.py",
)
FORMULAS_MODULE = "laocheck/bounds/_formulas.py"
#: modules whose module-level code declares the estimator specs: their mutants are judged by
#: the checks of the specs whose signature (:func:`spec_signature`) they change
SPEC_MODULES = ("laocheck/estimators/_families.py",)
#: the fields of an EstimatorSpec that say which spec it is, not what it claims: a check that
#: reads only these (an estimator looking its spec up by name) does not read the spec
SPEC_NAME_FIELDS = frozenset({"name", "algorithm", "part", "paper", "__class__"})

# ---------------------------------------------------------------------------------------------
# units: the function (qualified name) or formula a line belongs to
# ---------------------------------------------------------------------------------------------


def function_spans(source):
    """``[(first_line, last_line, qualname)]`` of every function of a module, innermost last."""
    spans = []

    def visit(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = prefix + child.name
                if not isinstance(child, ast.ClassDef):
                    spans.append((child.lineno, child.end_lineno, name))
                visit(child, name + ".")
            else:
                visit(child, prefix)

    visit(ast.parse(source), "")
    return spans


def function_at(spans, line):
    """The innermost function containing ``line``, or None (module level)."""
    best = None
    for first, last, name in spans:
        if first <= line <= last and (best is None or first >= best[0]):
            best = (first, name)
    return None if best is None else best[1]


def sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


# ---------------------------------------------------------------------------------------------
# map: seed-0 verdicts, coverage per check, formulas read or cited per check
# ---------------------------------------------------------------------------------------------


def _code_strings(code):
    out = set()
    for const in code.co_consts:
        if isinstance(const, str):
            out.add(const)
        elif hasattr(const, "co_consts"):
            out |= _code_strings(const)
    return out


def cmd_map(args):
    # coverage is needed by this subcommand only (the `mutation` extra)
    import coverage

    import laocheck   # imported under coverage, below: the map sees the import too
    pkg_parent = Path(laocheck.__file__).resolve().parent.parent
    include = [str(pkg_parent / m) for m in SCOPE]
    cov = coverage.Coverage(data_file=None, include=include, branch=False)
    cov.start()
    from laocheck import bounds
    from laocheck.checks import checks, run
    Formula = bounds.Formula
    current = {"id": None}
    reads = {}

    def recording_getattribute(self, name):
        cid = current["id"]
        if cid is not None:
            reads.setdefault(object.__getattribute__(self, "id"), set()).add(cid)
        return object.__getattribute__(self, name)

    Formula.__getattribute__ = recording_getattribute
    from laocheck.estimators import EstimatorSpec
    spec_reads = {}

    def recording_spec_getattribute(self, name):
        cid = current["id"]
        # a lookup by name (an estimator finding its spec among its class's) reads no claim
        if cid is not None and name not in SPEC_NAME_FIELDS:
            spec_reads.setdefault(object.__getattribute__(self, "name"), set()).add(cid)
        return object.__getattribute__(self, name)

    EstimatorSpec.__getattribute__ = recording_spec_getattribute
    baseline = {}
    cites = {}
    globs = None if args.only is None else args.only.split(",")
    selected = [c for c in checks() if globs is None or any(re.fullmatch(
        g.replace(".", r"\.").replace("*", ".*"), c.id) for g in globs)]
    start = time.perf_counter()
    for i, check in enumerate(selected):
        strings = _code_strings(check.func.__code__)
        strings |= set(re.findall(r"'([^']+)'", repr((check.kwargs, check.params))))
        for fid in strings & set(bounds.FORMULAS):
            cites.setdefault(fid, set()).add(check.id)
        cov.switch_context(check.id)
        current["id"] = check.id
        rec = run(check, seed=0, effort="fast")
        current["id"] = None
        baseline[check.id] = {"status": rec.status, "seconds": rec.seconds}
        print(f"[{i + 1}/{len(selected)}] {check.id} {rec.status} {rec.seconds:.2f}s",
              flush=True)
    cov.switch_context("")
    cov.stop()
    del Formula.__getattribute__
    del EstimatorSpec.__getattribute__
    data = cov.get_data()
    functions = {}
    for module in SCOPE:
        path = str(pkg_parent / module)
        spans = function_spans(Path(path).read_text(encoding="utf-8"))
        by_function = {}
        for line, contexts in data.contexts_by_lineno(path).items():
            name = function_at(spans, line)
            if name is None:
                continue
            by_function.setdefault(name, set()).update(c for c in contexts if c)
        functions[module] = {"sha256": sha256(path),
                             "functions": {n: sorted(v) for n, v in sorted(by_function.items())}}
    formulas = {fid: {"signature": signature(f),
                      "checks": sorted(reads.get(fid, set()) | cites.get(fid, set()))}
                for fid, f in sorted(bounds.FORMULAS.items())}
    specs = {name: {"signature": sig,
                    "checks": sorted(spec_reads.get(name, set()) | {
                        c for c in baseline if c.startswith(name + ".")})}
             for name, sig in sorted(spec_signatures().items())}
    out = {"meta": _meta(seconds=round(time.perf_counter() - start, 1), only=args.only),
           "baseline": baseline, "modules": functions, "formulas": formulas, "specs": specs}
    if args.merge:
        out = merge_maps(json.loads(Path(args.out).read_text(encoding="utf-8")), out)
    RESULTS.mkdir(parents=True, exist_ok=True)
    _write_json(Path(args.out), out)
    print(f"wrote {args.out}: {len(baseline)} checks, {len(formulas)} formulas")


def merge_maps(old, new):
    """``old`` with the checks of ``new`` (a map of a few checks, ``map --only ... --merge``):
    their verdicts, the functions they execute and the formulas they read or cite. A module or
    formula that changed between the two maps is refused: make the whole map again."""
    for module, entry in new["modules"].items():
        if module in old["modules"] and old["modules"][module]["sha256"] != entry["sha256"]:
            raise SystemExit(f"{module} changed since the map was made: run `map` without --only")
    for fid, entry in new["formulas"].items():
        if fid in old["formulas"] and old["formulas"][fid]["signature"] != entry["signature"]:
            raise SystemExit(f"formula {fid} changed since the map was made: run `map`")
    out = json.loads(json.dumps(old))
    out["baseline"].update(new["baseline"])
    for module, entry in new["modules"].items():
        funcs = out["modules"].setdefault(module, {"sha256": entry["sha256"], "functions": {}})
        for name, ids in entry["functions"].items():
            funcs["functions"][name] = sorted(set(funcs["functions"].get(name, [])) | set(ids))
    for fid, entry in new["formulas"].items():
        f = out["formulas"].setdefault(fid, {"signature": entry["signature"], "checks": []})
        f["checks"] = sorted(set(f["checks"]) | set(entry["checks"]))
    for name, entry in new.get("specs", {}).items():
        old_spec = out.setdefault("specs", {}).get(name)
        if old_spec is not None and old_spec["signature"] != entry["signature"]:
            raise SystemExit(f"spec {name} changed since the map was made: run `map`")
        sp = out["specs"].setdefault(name, {"signature": entry["signature"], "checks": []})
        sp["checks"] = sorted(set(sp["checks"]) | set(entry["checks"]))
    out["meta"]["merged"] = out["meta"].get("merged", []) + [new["meta"]]
    return out


def signature(formula):
    """What a mutant of ``bounds/_formulas.py`` can change in a formula: its expression
    (``sympy.srepr``) and the fields a check reads (kind, literal, proof, scaling, erratum)."""
    # sympy is a dependency of laocheck; imported here, in the process that needs it
    import sympy
    return " | ".join([sympy.srepr(formula.expr), repr((formula.kind, formula.literal,
                       formula.proof, formula.scaling, bool(formula.erratum)))])


def _canon(value):
    """A deterministic, comparable text of a value a spec holds or returns: numbers exactly
    (``repr`` of a float, ``str`` of a Fraction), arrays with their dtype, dicts sorted,
    callables by qualified name (their values are compared where the spec calls them)."""
    # numpy: a dependency of laocheck, imported by the processes that compute signatures
    import numpy as np
    if isinstance(value, np.ndarray):
        return f"array[{value.dtype.str}]({_canon(value.tolist())})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {_canon(v)}" for k, v in sorted(value.items())) + "}"
    if isinstance(value, (list, tuple)):
        inner = ", ".join(_canon(v) for v in value)
        return f"[{inner}]" if isinstance(value, list) else f"({inner})"
    if isinstance(value, np.generic):
        return f"{type(value).__name__}({value.item()!r})"
    if callable(value) and not isinstance(value, type) and hasattr(value, "__qualname__"):
        return f"<{value.__module__}.{value.__qualname__}>"
    return repr(value)


def _call(func, *args, **kwargs):
    """``_canon(func(*args, **kwargs))``, or the exception's type and text when it raises."""
    try:
        return _canon(func(*args, **kwargs))
    except Exception as exc:   # noqa: BLE001 - a raising spec callable is a value too
        return f"raises {type(exc).__name__}: {exc}"


#: where a spec's callables are evaluated: dimensions, budgets k and norm bounds
SIGNATURE_D = (1, 2, 3, 4, 5, 6)
SIGNATURE_K = (1, 2, 3, 4, 5, 6)
SIGNATURE_B = (0.5, 1.0, 2.0)


def spec_signature(spec, factory=None):
    """What a mutant of ``estimators/_families.py`` can change in an
    :class:`~laocheck.estimators.EstimatorSpec`, as one text: every field, its callables
    evaluated (``example_params`` at every d, k, B of ``SIGNATURE_*``; ``target`` on every
    instance of :mod:`laocheck.estimators.instances` at the spec's example parameters for each
    of its ``exact_k`` and its ``check_k``; the budget formula at every k and n_inner of
    ``SIGNATURE_K``, and with its defaulted parameters left out; ``k_max`` at every d), and the
    factory the estimator is registered with.

    The judge compares it with the map's: equal texts mean the spec is the same value for
    every caller that uses it at those points (the catalog, the tests and ``laocheck list``).
    """
    # dataclasses and inspect: standard library, needed by the judge and the map only
    import dataclasses
    import inspect
    import itertools
    from laocheck.estimators.instances import INSTANCES
    parts = []
    for field in dataclasses.fields(spec):
        value = getattr(spec, field.name)
        if field.name == "example_params":
            text = [_call(value, d, k=k, B=B) for d in SIGNATURE_D for k in SIGNATURE_K
                    for B in SIGNATURE_B]
        elif field.name == "target":
            text = []
            for inst, (w, x, y) in sorted(INSTANCES.items()):
                for k in sorted(set(spec.exact_k) | {spec.check_k}):
                    try:
                        params = spec.example_params(len(w), k=k)
                    except Exception as exc:   # noqa: BLE001 - recorded as the value
                        text.append(f"{inst} k={k}: params raise {type(exc).__name__}")
                        continue
                    text.append(f"{inst} k={k}: " + _call(value, w, x, y, **params))
        elif field.name == "budget":
            params = inspect.signature(value.formula).parameters
            names = list(params)
            # every parameter given, and the defaulted ones left out (Budget.of passes only
            # the parameters an estimator has: a default is part of the formula)
            required = [n for n in names if params[n].default is inspect.Parameter.empty]
            text = [value.text, value.kind] + [
                _call(value.formula, **dict(zip(given, combo)))
                for given in (names, required)
                for combo in itertools.product(SIGNATURE_K, repeat=len(given))]
        elif field.name == "k_max":
            text = None if value is None else [_call(value, d) for d in SIGNATURE_D]
        else:
            text = _canon(value)
        parts.append(f"{field.name}={text}")
    parts.append(f"factory={_canon(factory)}")
    return " | ".join(parts)


def spec_signatures():
    """``{name: spec_signature}`` of every registered estimator of laocheck, with the
    ``specs`` each estimator class declares (a spec a class no longer lists is a change)."""
    from laocheck import estimators
    from laocheck.estimators import _families
    out = {}
    for name, factory, spec in _families.REGISTRATIONS:
        out[name] = spec_signature(spec, factory=factory)
    for name in estimators.names():
        out.setdefault(name, "registered elsewhere")
    classes = {cls.__name__: [s.name for s in cls.specs] for cls in (
        _families.ImportanceEstimator, _families.AEREstimator, _families.BaselineEstimator,
        _families.GenEstEstimator, _families.AESVREstimator)}
    for name in out:
        out[name] += " | class=" + ",".join(sorted(c for c, n in classes.items() if name in n))
    return out


# ---------------------------------------------------------------------------------------------
# judge: the test command of one mutant
# ---------------------------------------------------------------------------------------------


def cmd_judge(args):
    """Exit 0 (SURVIVED) when every selected check keeps its seed-0 verdict, else 1 (KILLED).

    Prints one JSON line: the changed formulas, the checks run and the first changed verdict.
    """
    spec = json.loads(Path(args.spec).read_text(encoding="utf-8"))
    report = {"changed_formulas": [], "ran": [], "killed_by": None}
    try:
        from laocheck import bounds
        from laocheck.checks import run
    except Exception as exc:   # the mutant breaks the import: every check would fail
        report["killed_by"] = f"import: {type(exc).__name__}: {exc}"
        print(json.dumps(report))
        return 1
    selected = list(spec["checks"])
    if spec.get("formulas"):
        for fid, entry in spec["formulas"].items():
            now = bounds.FORMULAS.get(fid)
            if now is None or signature(now) != entry["signature"]:
                report["changed_formulas"].append(fid)
                selected += entry["checks"]
        for fid in set(bounds.FORMULAS) - set(spec["formulas"]):
            report["changed_formulas"].append(fid)
    if spec.get("specs"):
        report["changed_specs"] = []
        try:
            now = spec_signatures()
        except Exception as exc:   # the mutant breaks the specs: every check of them would fail
            report["killed_by"] = f"specs: {type(exc).__name__}: {exc}"
            print(json.dumps(report))
            return 1
        for name, entry in spec["specs"].items():
            if now.get(name) != entry["signature"]:
                report["changed_specs"].append(name)
                selected += entry["checks"]
        report["changed_specs"] += sorted(set(now) - set(spec["specs"]))
    baseline = spec["baseline"]
    selected = sorted(set(selected) & set(baseline), key=lambda c: (baseline[c]["seconds"], c))
    from laocheck.checks import checks
    registered = {c.id for c in checks()}
    for cid in selected:
        if cid not in registered:
            report["killed_by"] = f"{cid}: {baseline[cid]['status']} -> no longer registered"
            break
        rec = run(cid, seed=0, effort="fast")
        report["ran"].append([cid, rec.status])
        if rec.status != baseline[cid]["status"]:
            report["killed_by"] = f"{cid}: {baseline[cid]['status']} -> {rec.status}"
            break
    print(json.dumps(report))
    return 1 if report["killed_by"] else 0


# ---------------------------------------------------------------------------------------------
# run: cosmic-ray over the modules, on a scratch copy of the package
# ---------------------------------------------------------------------------------------------


def load_config(path=CONFIG_PATH):
    with open(path, "rb") as fh:
        return tomllib.load(fh)["mutation"]


def operator_names(config):
    """cosmic-ray's operators whose name matches one of the config's ``operators`` patterns."""
    import cosmic_ray.plugins   # the engine: the `mutation` and `test` extras
    pats = [re.compile(p) for p in config["operators"]]
    return sorted(n for n in cosmic_ray.plugins.operator_names()
                  if any(p.fullmatch(n) for p in pats))


def copy_package(dest):
    """Copy the imported laocheck package (``.py`` and compiled ``.so``) under ``dest``."""
    import laocheck   # imported by the runner only: the judge imports the mutated copy
    src = Path(laocheck.__file__).resolve().parent
    shutil.copytree(src, Path(dest) / "laocheck",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.c", "*.html"))
    return Path(dest)


def share_of(job_key, share):
    """Whether a mutant is in share ``(K, N)``: sha256 of its name mod N == K."""
    k, n = share
    return int(hashlib.sha256(job_key.encode()).hexdigest(), 16) % n == k


def work_items(modules, operators, share=None, only=None):
    """cosmic-ray's work items (one mutant each) of ``modules`` for the given operators only.

    What ``cosmic-ray init`` does (``cosmic_ray.commands.init``), restricted to the configured
    operators (its own filter, ``cr-filter-operators``, would first create every operator's
    mutants: 8,000 for two modules) and to a share: a mutant is in share (K, N) when its name
    ``module|operator|occurrence`` hashes to K mod N.
    """
    # the engine: an optional dependency (the `mutation` and `test` extras)
    import cosmic_ray.plugins
    from cosmic_ray.ast import ast_nodes, get_ast_from_path
    from cosmic_ray.ast.ast_query import ASTQuery
    from cosmic_ray.work_item import MutationSpec, WorkItem

    for module in modules:
        module_ast = get_ast_from_path(Path(module))
        for name in operators:
            if only is not None and not any(o.startswith(f"{module}|{name}|") for o in only):
                continue
            operator = cosmic_ray.plugins.get_operator(name)()
            positions = ((node, a, b) for node in ast_nodes(module_ast)
                         for a, b in operator.mutation_positions(node))
            for occurrence, (node, start, end) in enumerate(positions):
                name_key = f"{module}|{name}|{occurrence}"
                if share is not None and not share_of(name_key, share):
                    continue
                if only is not None and name_key not in only:
                    continue
                spec = MutationSpec(module_path=module, operator_name=name, operator_args={},
                                    occurrence=occurrence, start_pos=start, end_pos=end,
                                    definition_name=ASTQuery(node).get_definition_name())
                yield WorkItem.single(job_id=hashlib.sha1(name_key.encode()).hexdigest(),
                                      mutation=spec)


def mutant_key(module, operator, line, before, after):
    """A stable name of a mutant: module, operator and the mutated line before and after."""
    return f"{module}|{operator}|{before.strip()}|{after.strip()}"


def changed_line(text, mutated):
    """``(line number, line before, line after)`` of the first line a mutant changes."""
    a, b = text.splitlines(), mutated.splitlines()
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i + 1, x, y
    i = min(len(a), len(b))
    return i + 1, a[i] if i < len(a) else "", b[i] if i < len(b) else ""


def describe_mutant(root, module, operator_name, occurrence):
    """``(line, before, after)`` of mutant ``occurrence`` of an operator in ``root/module``."""
    # the engine: an optional dependency (the `mutation` and `test` extras)
    import cosmic_ray.plugins
    from cosmic_ray.mutating import mutate_code
    text = (Path(root) / module).read_text(encoding="utf-8")
    mutated = mutate_code(text, cosmic_ray.plugins.get_operator(operator_name)(), occurrence)
    return changed_line(text, mutated)


def run_mutants(modules, *, share=None, only=None, limit=None, timeout_factor=10.0,
                timeout_min=60.0, map_data=None, config=None, log=print, workdir=None,
                catalog_wide=False):
    """Create cosmic-ray's session of ``modules`` and judge its mutants; return the rows.

    Parameters
    ----------
    modules : list of str
        Paths inside the package's parent (``laocheck/bounds/_formulas.py``).
    share : tuple (K, N) or None
        Judge only the mutants whose name (``module|operator|occurrence``) falls in share K of N.
    only : set of str or None
        Judge only the mutants of these names.
    limit : int or None
        Judge at most this many mutants (after the share), in session order.
    timeout_factor, timeout_min : float
        A mutant's timeout: ``max(timeout_min, timeout_factor × seed-0 seconds of its checks)``;
        a mutant past it is KILLED (outcome ``timeout``).
    catalog_wide : bool
        Judge each survivor again by every check of the map (minutes per survivor): the
        row's ``catalog`` says whether some other check of the catalog catches it.
    """
    # the engine: an optional dependency (the `mutation` and `test` extras)
    import cosmic_ray.plugins
    from cosmic_ray.mutating import mutate_and_test, mutate_code
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome

    map_data = map_data or json.loads(MAP_PATH.read_text(encoding="utf-8"))
    config = config or load_config()
    baseline = map_data["baseline"]
    rows = []
    tmp = Path(workdir or tempfile.mkdtemp(prefix="laocheck-mutation-"))
    root = copy_package(tmp / "pkg")
    old_cwd, old_pp = os.getcwd(), os.environ.get("PYTHONPATH")
    os.chdir(root)
    os.environ["PYTHONPATH"] = str(root)
    try:
        with use_db(str(tmp / "session.sqlite"), WorkDB.Mode.create) as db:
            db.clear()
            db.add_work_items(work_items(modules, operator_names(config), share, only))
            todo = list(db.pending_work_items)
            todo.sort(key=lambda it: (str(it.mutations[0].module_path), it.mutations[0].start_pos,
                                      it.mutations[0].operator_name, it.mutations[0].occurrence))
            spans = {m: function_spans((root / m).read_text(encoding="utf-8")) for m in modules}
            judged = 0
            for item in todo:
                mut = item.mutations[0]
                module = str(mut.module_path)
                line = mut.start_pos[0]
                text = (root / module).read_text(encoding="utf-8")
                op = cosmic_ray.plugins.get_operator(mut.operator_name)(**mut.operator_args)
                mutated = mutate_code(text, op, mut.occurrence)
                if mutated is None:
                    continue
                line, before, after = changed_line(text, mutated)
                key = mutant_key(module, mut.operator_name, line, before, after)
                if limit is not None and judged >= limit:
                    break
                judged += 1
                unit = function_at(spans[module], line)
                checks = []
                formulas = None
                specs = None
                mod_map = map_data["modules"].get(module, {"functions": {}})
                if unit is not None:
                    checks = mod_map["functions"].get(unit, [])
                elif module == FORMULAS_MODULE:
                    formulas = map_data["formulas"]
                if module in SPEC_MODULES:
                    if "specs" not in map_data:
                        raise SystemExit(f"the map has no specs (made before they were "
                                         f"mapped): run `map` before judging {module}")
                    specs = map_data["specs"]
                row = {"key": key, "module": module, "line": line, "operator": mut.operator_name,
                       "occurrence": mut.occurrence, "unit": unit, "before": before.strip(),
                       "after": after.strip()}
                if not checks and formulas is None and specs is None:
                    row.update(outcome="survived", reason="no check executes this unit",
                               checks=0)
                    rows.append(row)
                    log(f"{row['outcome']:9s} {module}:{line} {mut.operator_name} (unexercised)")
                    continue
                spec = {"checks": checks, "baseline": baseline, "formulas": formulas,
                        "specs": specs}
                spec_path = tmp / "judge.json"
                spec_path.write_text(json.dumps(spec), encoding="utf-8")
                secs = sum(baseline[c]["seconds"] for c in checks if c in baseline)
                if formulas is not None:
                    secs += 30.0
                if specs is not None:     # at most every check of every spec, and the import
                    secs += 3.0 + sum(baseline[c]["seconds"] for c in set().union(
                        *(set(e["checks"]) for e in specs.values())) if c in baseline)
                timeout = max(timeout_min, timeout_factor * secs)
                command = (f"{sys.executable} {Path(__file__).resolve()} judge "
                           f"--spec {spec_path}")
                t0 = time.perf_counter()
                result = mutate_and_test([mut], command, timeout)
                db.set_result(item.job_id, result)
                row["seconds"] = round(time.perf_counter() - t0, 1)
                row["timeout"] = round(timeout, 1)
                if result.worker_outcome != WorkerOutcome.NORMAL:
                    row.update(outcome="error", reason=(result.output or "")[-300:])
                elif result.output == "timeout":
                    row.update(outcome="killed", reason="timeout")
                else:
                    report = _last_json(result.output)
                    killed = result.test_outcome.value == "killed"
                    row.update(outcome="killed" if killed else "survived",
                               reason=(report or {}).get("killed_by") or
                               ("" if report else (result.output or "")[-300:]),
                               checks=len((report or {}).get("ran", [])),
                               ran=[c for c, _ in (report or {}).get("ran", [])],
                               changed_formulas=(report or {}).get("changed_formulas", []))
                    if specs is not None:
                        row["changed_specs"] = (report or {}).get("changed_specs", [])
                    if not killed and report:
                        changed = row["changed_formulas"] + row.get("changed_specs", [])
                        row["reason"] = (
                            f"{row['checks']} checks kept their verdicts" if row["checks"]
                            else "no check reads or cites " + ", ".join(changed)
                            if changed else "no formula expression changed"
                            if formulas is not None else "no spec changed and no check "
                            "executes this unit")
                if catalog_wide and row["outcome"] == "survived":
                    spec_path.write_text(json.dumps(
                        {"checks": sorted(baseline), "baseline": baseline, "formulas": None}),
                        encoding="utf-8")
                    wide = mutate_and_test([mut], command, max(timeout_min, timeout_factor * sum(
                        b["seconds"] for b in baseline.values())))
                    rep = _last_json(wide.output) or {}
                    row["catalog"] = ("timeout" if wide.output == "timeout" else
                                      rep.get("killed_by") or "survived")
                rows.append(row)
                log(f"{row['outcome']:9s} {module}:{line} {mut.operator_name} "
                    f"{row.get('reason', '')[:90]} ({row['seconds']}s)")
    finally:
        os.chdir(old_cwd)
        if old_pp is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = old_pp
        if workdir is None:
            shutil.rmtree(tmp, ignore_errors=True)
    return rows


def _last_json(output):
    for line in reversed((output or "").splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                return json.loads(line)
            except ValueError:
                return None
    return None


# ---------------------------------------------------------------------------------------------
# equivalents, scores, the table
# ---------------------------------------------------------------------------------------------


def load_equivalents(path=EQUIVALENT_PATH):
    """``{key: reason}`` of the mutants argued equivalent (``tests/mutation/equivalent.toml``)."""
    with open(path, "rb") as fh:
        data = tomllib.load(fh)
    return {mutant_key(e["module"], e["operator"], 0, e["before"], e["after"]): e["reason"]
            for e in data.get("equivalent", [])}


def summarise(rows, equivalents):
    """Per module: mutants, killed (of which by timeout), survived, equivalent, score."""
    out = {}
    for row in rows:
        s = out.setdefault(row["module"], {"module": row["module"], "mutants": 0, "killed": 0,
                                           "timeout": 0, "survived": 0, "equivalent": 0,
                                           "error": 0})
        s["mutants"] += 1
        if row["outcome"] == "killed":
            s["killed"] += 1
            s["timeout"] += row.get("reason") == "timeout"
        elif row["outcome"] == "error":
            s["error"] += 1
        elif row["key"] in equivalents:
            s["equivalent"] += 1
        else:
            s["survived"] += 1
    for s in out.values():
        live = s["killed"] + s["survived"]
        s["score"] = round(s["killed"] / live, 4) if live else None
    return [out[m] for m in sorted(out)]


def markdown(score):
    meta = score["meta"]
    lines = [
        "# Mutation score",
        "",
        "Generated by `python benchmarks/mutation_score.py` from "
        "`benchmarks/results/mutation/score.json`; do not edit by hand. How mutants are made and "
        "judged: {doc}`../explanation/mutation`.",
        "",
        f"Engine: cosmic-ray {meta.get('cosmic_ray')}, operators of `benchmarks/mutation.toml`. "
        f"Measured {meta['date']} on {meta['machine']} ({meta['cpu_count']} cores, load "
        f"{meta['load_average_at_end']}), commit `{(meta['commit'] or '')[:12]}`.",
        "",
        "A mutant is *killed* when a check that executes (or reads, for a formula) the mutated "
        "unit changes its seed-0 verdict at the fast profile, or when it runs past its timeout; "
        "*equivalent* mutants are those argued in `tests/mutation/equivalent.toml`. "
        "Score = killed / (killed + survived).",
        "",
        "| module | mutants | killed | of which timeout | survived | equivalent | score | share |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for s in score["modules"]:
        sc = "–" if s["score"] is None else f"{100 * s['score']:.1f} %"
        lines.append(f"| `{s['module']}` | {s['mutants']} | {s['killed']} | {s['timeout']} | "
                     f"{s['survived']} | {s['equivalent']} | {sc} | {s.get('share', 'all')} |")
    surv = [r for r in score["rows"] if r["outcome"] == "survived"]
    lines += ["", "## Survivors", ""]
    if not surv:
        lines.append("None.")
    else:
        lines += ["| module:line | unit | operator | mutated line | status | whole catalog |",
                  "| --- | --- | --- | --- | --- | --- |"]
        eq = score.get("equivalents", {})
        for r in surv:
            status = ("equivalent: " + eq[r["key"]]) if r["key"] in eq else (
                "open: " + (r.get("reason") or "no check changed verdict"))
            after = r["after"].replace("|", "\\|")
            lines.append(f"| `{r['module']}:{r['line']}` | {r['unit'] or '(module level)'} | "
                         f"{r['operator'].split('/')[-1]} | `{after}` | {status} | "
                         f"{r.get('catalog', 'not run')} |")
    return "\n".join(lines) + "\n"


def _meta(**extra):
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _results import meta   # the benchmarks' shared provenance (imports laocheck)
    out = meta(**extra)
    try:
        out["cosmic_ray"] = version("cosmic-ray")
    except Exception:
        out["cosmic_ray"] = None
    return out


def _write_json(path, data):
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def cmd_run(args):
    share = None
    if args.share:
        k, n = (int(v) for v in args.share.split("/"))
        share = (k, n)
    map_data = json.loads(Path(args.map).read_text(encoding="utf-8"))
    only = None
    old = {"rows": []}
    if SCORE_PATH.exists() and not args.fresh:
        old = json.loads(SCORE_PATH.read_text(encoding="utf-8"))
    if args.survivors:
        only = {f"{r['module']}|{r['operator']}|{r['occurrence']}" for r in old["rows"]
                if r["outcome"] == "survived" and r["module"] in args.modules}
    rows = run_mutants(args.modules, share=share, only=only, limit=args.limit,
                       map_data=map_data, timeout_factor=args.timeout_factor,
                       timeout_min=args.timeout_min, workdir=args.keep,
                       catalog_wide=args.catalog_wide)
    shares = {r["module"]: r.get("share", "all") for r in old.get("modules", [])}
    if only is not None:                 # the survivors judged again: replace those rows only
        new = {r["key"]: r for r in rows}
        all_rows = [new.get(r["key"], r) for r in old["rows"]]
    else:
        done = set(args.modules)
        all_rows = [r for r in old["rows"] if r["module"] not in done] + rows
        for m in done:
            shares[m] = args.share or "all"
    _finish(all_rows, shares, args)


def _finish(rows, shares, args):
    equivalents = load_equivalents()
    modules = summarise(rows, equivalents)
    for s in modules:
        s["share"] = shares.get(s["module"], "all")
    score = {"meta": _meta(), "modules": modules, "rows": rows,
             "equivalents": {r["key"]: equivalents[r["key"]] for r in rows
                             if r["key"] in equivalents}}
    RESULTS.mkdir(parents=True, exist_ok=True)
    _write_json(SCORE_PATH, score)
    DOC_PATH.write_text(markdown(score), encoding="utf-8")
    print(f"wrote {SCORE_PATH} and {DOC_PATH}")


def cmd_table(args):
    old = json.loads(SCORE_PATH.read_text(encoding="utf-8"))
    shares = {s["module"]: s.get("share", "all") for s in old["modules"]}
    _finish(old["rows"], shares, args)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    pm = sub.add_parser("map", help="seed-0 verdicts and test selection (coverage per check)")
    pm.add_argument("--only", default=None,
                    help="globs over check ids, comma-separated. Default: every check.")
    pm.add_argument("--out", default=str(MAP_PATH), help=f"Default: {MAP_PATH.relative_to(ROOT)}")
    pm.add_argument("--merge", action="store_true",
                    help="merge the checks mapped (--only) into the map at --out instead of "
                    "replacing it (new checks, without mapping the whole catalog again)")
    pj = sub.add_parser("judge", help="the test command of one mutant (internal)")
    pj.add_argument("--spec", required=True)
    pr = sub.add_parser("run", help="judge the mutants of modules")
    pr.add_argument("modules", nargs="*", default=list(SCOPE),
                    help="paths inside the package's parent. Default: the whole scope.")
    pr.add_argument("--share", default=None, help="K/N: the mutants whose key hashes to K mod N")
    pr.add_argument("--limit", type=int, default=None, help="at most this many mutants")
    pr.add_argument("--timeout-factor", type=float, default=10.0,
                    help="timeout = factor × the checks' seed-0 seconds. Default: 10")
    pr.add_argument("--timeout-min", type=float, default=60.0, help="Default: 60 s")
    pr.add_argument("--map", default=str(MAP_PATH), help="the map. Default: %(default)s")
    pr.add_argument("--keep", default=None, metavar="DIR",
                    help="keep the package copy and cosmic-ray's session.sqlite in DIR "
                    "(cr-report DIR/session.sqlite). Default: a temporary folder, removed")
    pr.add_argument("--survivors", action="store_true",
                    help="judge again only the recorded survivors of the modules")
    pr.add_argument("--catalog-wide", action="store_true",
                    help="judge each survivor again by the whole catalog (minutes each)")
    pr.add_argument("--fresh", action="store_true", help="forget earlier modules' rows")
    sub.add_parser("table", help="regenerate the docs' table from the JSON")
    args = p.parse_args(argv)
    return {"map": cmd_map, "judge": cmd_judge, "run": cmd_run, "table": cmd_table}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
