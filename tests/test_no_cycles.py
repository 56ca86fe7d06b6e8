"""No import cycle between the modules of one folder of laocheck.

The graph is read from the source with ``ast`` (nothing is imported): an arrow A -> B for every
``import``/``from ... import`` in A, at module level or inside a function (a function-local
import is a dependency too, only a later one), that names B, a module of A's own folder
(``from . import B``, ``from .B import x``, ``from laocheck.pkg.B import x``, and the folder's
``__init__`` for ``from . import x`` of a name that is not a module). A cycle is a strongly
connected component of two or more modules.
"""
import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "laocheck"


def _module_name(path):
    rel = path.relative_to(SRC.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _modules():
    """{dotted name: (path, package dotted name)} of every module of laocheck."""
    out = {}
    for path in sorted(SRC.rglob("*.py")):
        name = _module_name(path)
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        out[name] = (path, package)
    return out


def _resolve(module, package, level, target):
    """The absolute name of ``from <level dots><target> import ...`` written in ``module``."""
    if level == 0:
        return target
    base = package.split(".")
    if level > 1:
        base = base[:len(base) - (level - 1)]
    return ".".join(base + ([target] if target else []))


def import_graph(modules=None):
    """{module: set of modules of the same folder it imports}."""
    modules = _modules() if modules is None else modules
    graph = {}
    for name, (path, package) in modules.items():
        edges = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(name, package, node.level, node.module or "")
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                           for alias in node.names]
            else:
                continue
            for target in targets:
                while target and target not in modules:       # a name inside a module
                    target = target.rpartition(".")[0]
                if target and target != name and modules[target][1] == package:
                    edges.add(target)
        graph[name] = edges
    return graph


def cycles(graph):
    """The import cycles of ``graph``: each a sorted list of modules (Tarjan's strongly
    connected components of size >= 2)."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def test_no_cycle_between_the_modules_of_one_folder():
    found = cycles(import_graph())
    assert not found, "import cycles inside a folder: " + "; ".join(
        " <-> ".join(c) for c in found)


def test_the_graph_sees_a_planted_cycle(tmp_path):
    """The reader finds a cycle written the ways laocheck's were: a module-level relative
    import one way and a function-local import (or a late import at the bottom) the other."""
    pkg = tmp_path / "laocheck" / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .b import helper\n")
    (pkg / "b.py").write_text("def helper():\n    from . import a  # late\n    return a\n")
    (pkg / "c.py").write_text("from laocheck.pkg import a\nfrom . import VERSION\n")
    modules = {}
    for path in sorted(pkg.glob("*.py")):
        name = "laocheck.pkg" if path.name == "__init__.py" else f"laocheck.pkg.{path.stem}"
        modules[name] = (path, "laocheck.pkg")
    graph = import_graph(modules)
    assert graph["laocheck.pkg.c"] == {"laocheck.pkg.a", "laocheck.pkg"}
    assert cycles(graph) == [["laocheck.pkg.a", "laocheck.pkg.b"]]


def test_the_reader_resolves_relative_imports():
    assert _resolve("laocheck.checks.x", "laocheck.checks", 2, "stats") == "laocheck.stats"
    assert _resolve("laocheck.checks.x", "laocheck.checks", 1, "") == "laocheck.checks"
