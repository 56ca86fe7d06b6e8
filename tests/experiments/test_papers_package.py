"""laocheck.experiments.papers as a package (issue 50 item 1): its layout (no module over 600
lines, no function over 80, no import cycle, every public name importable from the package)
and its wiring: an experiment's numbers are the engine's (learning_curves and the claim
deciders, called directly on the experiment's documented protocol), so a description module
cannot drift from the protocol it states."""
import ast
import pathlib

import numpy as np
import pytest

from laocheck.data import PowerLawBernoulli
from laocheck.experiments import child_seeds, papers
from laocheck.effort import get_profile
from laocheck.experiments.papers import (Algorithm, claim_better, claim_converges,
                                         ks15_synthetic, learning_curves)
from laocheck.learners import DDAERR, GAERR, OfflineRidge, OnlineRidge, TwoPhaseDDAERR

EXPERIMENTS = pathlib.Path(papers.__file__).resolve().parents[1]
PACKAGE = pathlib.Path(papers.__file__).resolve().parent


def _functions(tree):
    return [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


@pytest.mark.parametrize("path", sorted(EXPERIMENTS.rglob("*.py")),
                         ids=lambda p: str(p.relative_to(EXPERIMENTS)))
def test_modules_and_functions_are_small(path):
    """At most 600 lines a module and 80 a function (its docstring included)."""
    text = path.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 600
    long = {f.name: f.end_lineno - f.lineno + 1 for f in _functions(ast.parse(text))
            if f.end_lineno - f.lineno + 1 > 80}
    assert long == {}


def _imports(path):
    """The modules of the package that ``path`` imports (relative ``from .x import``)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                out.add(node.module.split(".")[0])
            else:
                out.update(a.name for a in node.names)
    return out


def test_the_package_has_no_import_cycle():
    graph = {p.stem: _imports(p) for p in PACKAGE.glob("_*.py")}
    graph.pop("__init__", None)
    done, stack = set(), []

    def visit(module):
        assert module not in stack, " -> ".join(stack + [module])
        if module in done:
            return
        stack.append(module)
        for other in sorted(graph.get(module, ())):
            visit(other)
        stack.pop()
        done.add(module)

    for module in sorted(graph):
        visit(module)
    assert {"_records", "_effort", "_curves", "_claims"} <= set(graph)
    assert _imports(PACKAGE / "_records.py") == set()        # the bottom: imports nothing


def test_every_public_name_is_importable_from_the_package():
    for name in papers.__all__:
        obj = getattr(papers, name)
        if isinstance(obj, type):                    # documented and pickled under that name
            assert obj.__module__ == "laocheck.experiments.papers", name
        elif callable(obj):
            assert obj.__module__.startswith("laocheck.experiments.papers._"), name
    assert set(papers.EXPERIMENTS) == {"ks15_synthetic", "hk12_mnist", "cb11_mnist",
                                       "ks15_real", "ks15_adaptive"}
    assert all(callable(f) and f is getattr(papers, n) for n, f in papers.EXPERIMENTS.items())
    assert "BUDGETS" not in papers.__all__     # the profiles are laocheck.effort's (one registry)


def test_an_experiment_s_numbers_are_the_engine_s_on_its_protocol():
    """KS15 Sec. 5.1's ridge panel (d = 20, alpha = -1, tiny profile), recomputed by hand from
    what the module documents: the five ridge learners with the budget split 3 + 2 of
    k + 1 = 5, the exact E[x_i²] as DDAERR's prior knowledge, the panel's seed the first child
    of the experiment's, the budget-matched curves at 5 attributes, and the two claims."""
    result = ks15_synthetic(effort="tiny", seed=11, alphas=(-1.0,), d=20)
    dist = PowerLawBernoulli(20, -1.0, scenario="ridge")
    mom = dist.second_moments
    learners = (
        Algorithm("DDAERR", lambda c: DDAERR(k=3, n_inner=2, second_moments=mom), "KS15"),
        Algorithm("Two-Phased DDAERR", lambda c: TwoPhaseDDAERR(k=4, variant="practical"),
                  "KS15"),
        Algorithm("AERR", lambda c: GAERR(k=3, n_inner=2), "HK12"),
        Algorithm("Online ridge", lambda c: OnlineRidge(), "full information"),
        Algorithm("Offline ridge", lambda c: OfflineRidge(), "full information"))
    tiny = get_profile("tiny").experiment()
    panel_seed = child_seeds(11, 2)[0]
    curves, _ = learning_curves(
        learners, distribution=dist, m=tiny["synthetic_m"], k=4, runs=tiny["runs"],
        prefixes=tiny["prefixes"], folds=tiny["folds"], grid=tiny["grid"],
        step_scales=tiny["step_scales"], grid_extensions=tiny["grid_extensions"],
        seed=panel_seed, budget=5)
    panel = result.panels[0]
    assert panel.figure == "KS15 Fig. 1, alpha = -1"
    assert [c.algorithm for c in panel.curves] == [c.algorithm for c in curves]
    for theirs, mine in zip(panel.curves, curves):
        for field in ("examples", "attributes", "mean", "sd", "low", "high", "per_run",
                      "tuned", "budget_matched"):
            assert getattr(theirs, field) == getattr(mine, field), (mine.algorithm, field)
    src = panel.source
    better = claim_better(curves, "DDAERR", "AERR", claim="c", citation="c", source=src,
                          stand_in=False)
    converges = claim_converges(curves, "Two-Phased DDAERR", "DDAERR", claim="c",
                                citation="c", source=src, stand_in=False)
    decided = [c for c in result.claims if c.source == src]
    assert len(decided) == 2
    for theirs, mine in zip(decided, (better, converges)):
        assert (theirs.status, theirs.counts, theirs.low, theirs.high, theirs.formal) == \
            (mine.status, mine.counts, mine.low, mine.high, mine.formal)
    assert np.isfinite(panel.curves[0].mean).all()
