"""The kernel code written once in Tempita templates (setup.py's ``TEMPLATES``).

The four state classes of the data-point sampling learners (ridge/lasso × dense/sparse) and
their step loops are generated from ``learners/_states.pxi.tp`` and ``learners/_steps.pxi.tp``;
no ``.pyx`` module defines a state class by hand, the rendered files are not committed
(.gitignore) and the templates ship in the sdist (MANIFEST.in).
"""
import ast
import fnmatch
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from Cython import Tempita

import laocheck.learners._lasso as lasso_kernels
import laocheck.learners._ridge as ridge_kernels

ROOT = Path(__file__).resolve().parents[2]
PKG = ROOT / "src" / "laocheck"
STATE_CLASSES = {"_ridge": ("RidgeState", "SparseRidgeState"),
                 "_lasso": ("LassoState", "SparseLassoState")}



def templates():
    """setup.py's ``TEMPLATES`` (read from its source: importing setup.py would run setup())."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "TEMPLATES" for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError("setup.py defines no TEMPLATES")


def hand_written_classes(source):
    """The names of the ``cdef class`` statements in a Cython source text."""
    return re.findall(r"^\s*cdef\s+class\s+([^\s:(]+)", source, flags=re.MULTILINE)


def includes(source):
    return re.findall(r'^include\s+"([^"]+)"', source, flags=re.MULTILINE)


def module_functions(source):
    """The names of the module-level ``cdef`` functions in a Cython source text (not the
    ``cdef inline`` helpers)."""
    return re.findall(r"^cdef\s+(?!inline\b|class\b)[^(\n]*?(\S+)\(", source,
                      flags=re.MULTILINE)


def test_the_class_finder_sees_a_hand_written_state():
    # the bug the next test is named for: a state class copied by hand into a module
    source = (PKG / "learners" / "_ridge.pyx").read_text(encoding="utf-8")
    planted = source + ('\n\n@cython.final\ncdef class SparseRidgeState:\n'
                        '    cdef public double s\n')
    assert hand_written_classes(planted) == ["SparseRidgeState"]
    assert hand_written_classes("# cdef class in a comment is prose\nx = 1\n") == []


@pytest.mark.parametrize("module", sorted(STATE_CLASSES))
def test_no_state_class_is_written_by_hand(module):
    source = (PKG / "learners" / f"{module}.pyx").read_text(encoding="utf-8")
    assert hand_written_classes(source) == []
    assert f"{module}_states.pxi" in includes(source)
    assert f"{module}_steps.pxi" in includes(source)


def test_every_state_class_comes_from_one_template():
    table = templates()
    for module, classes in STATE_CLASSES.items():
        target = f"learners/{module}_states.pxi"
        assert target in table, f"TEMPLATES renders no {target}"
        template, variables = table[target]
        assert template == "learners/_states.pxi.tp"
        assert variables == {"family": module.lstrip("_")}
        text = (PKG / template).read_text(encoding="utf-8")
        # the template holds one class statement, written once for both layouts and families
        assert hand_written_classes(text) == ["{{Name}}"]
    compiled = {"_ridge": ridge_kernels, "_lasso": lasso_kernels}
    for module, classes in STATE_CLASSES.items():
        for name in classes:
            assert isinstance(getattr(compiled[module], name), type)


def test_the_function_finder_sees_a_second_hand_written_loop():
    # the bug the next test is named for: a layout's step loop copied by hand into the template
    text = (PKG / "learners" / "_steps.pxi.tp").read_text(encoding="utf-8")
    planted = text + ("\n\ncdef long sparse_steps(SparseRidgeState self, object rng,\n"
                      "                       long m) except -1:\n    return 0\n")
    assert module_functions(planted)[-1] == "sparse_steps"
    assert module_functions("cdef inline double eg_cell(double* cl) noexcept nogil:\n") == []


def test_the_step_loop_is_written_once_for_both_layouts():
    """``_steps.pxi.tp`` holds one function statement, rendered per family into the dense and
    the sparse layout's loops (the names the state classes call)."""
    table = templates()
    for module in STATE_CLASSES:
        template, variables = table[f"learners/{module}_steps.pxi"]
        assert template == "learners/_steps.pxi.tp"
        assert variables == {"family": module.lstrip("_")}
        assert module_functions((PKG / template).read_text(encoding="utf-8")) == ["{{Name}}"]
        assert module_functions(rendered(template, variables)) == ["dense_steps", "sparse_steps"]


def in_tree_build():
    """The compiled kernels imported are the source tree's (``build_ext --inplace`` or an
    editable install), so the build rendered the templates there."""
    return Path(ridge_kernels.__file__).resolve().parent == (PKG / "learners").resolve()


def rendered(template, variables):
    """A template's text as setup.py renders it (Tempita ships with Cython)."""
    source = PKG / template
    return Tempita.Template(source.read_text(encoding="utf-8"),
                            name=str(source)).substitute(**variables)


def test_the_templates_render_the_four_state_classes_and_the_kernels_carry_them():
    """Rendered here from the templates (no build needed): each family's file defines its two
    state classes, and the compiled modules imported carry them."""
    seen = {}
    for target, (template, variables) in templates().items():
        head = rendered(template, variables)
        assert f"Generated by setup.py from {Path(template).name}" in head
        assert f'family="{variables["family"]}"' in head
        seen[Path(target).name] = hand_written_classes(head)
    for module, classes in STATE_CLASSES.items():
        assert seen[f"{module}_states.pxi"] == list(classes)
        kernels = ridge_kernels if module == "_ridge" else lasso_kernels
        assert all(isinstance(getattr(kernels, c), type) for c in classes)


def test_a_rendered_file_in_the_tree_is_the_template_s_output():
    """After an in-tree build (an editable install, ``build_ext --inplace``, or pip building
    in the clone) the rendered files are the templates' output; an installed copy built
    elsewhere has none in the tree, and then its kernels were checked above."""
    present = [(t, v) for t, v in templates().items() if (PKG / t).exists()]
    assert present or not in_tree_build(), "an in-tree build rendered no template"
    for target, (template, variables) in present:
        text = (PKG / target).read_text(encoding="utf-8")
        assert text == rendered(template, variables), f"{target} is stale: rebuild"


def test_rendered_files_are_ignored_and_templates_ship_in_the_sdist():
    ignored = set((ROOT / ".gitignore").read_text(encoding="utf-8").split("\n"))
    manifest = (ROOT / "MANIFEST.in").read_text(encoding="utf-8").splitlines()
    shipped = [line.split()[2:] for line in manifest
               if line.split()[:2] == ["recursive-include", "src/laocheck"]]
    patterns = [p for line in shipped for p in line]
    for target, (template, _) in templates().items():
        assert f"src/laocheck/{target}" in ignored, f"{target} is not in .gitignore"
        assert any(fnmatch.fnmatch(Path(template).name, p) for p in patterns), \
            f"MANIFEST.in does not ship {template}"
        assert not target.endswith(".tp") and template.endswith(".tp")


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(),
                    reason="not a git checkout")
def test_no_rendered_file_is_committed():
    targets = [f"src/laocheck/{t}" for t in templates()]
    tracked = subprocess.run(["git", "ls-files", "--", *targets], cwd=ROOT, capture_output=True,
                             text=True, check=True, timeout=60).stdout.split()
    assert tracked == []
    templates_tracked = subprocess.run(
        ["git", "ls-files", "--", *sorted({f"src/laocheck/{t}" for t, _ in
                                           templates().values()})],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=60).stdout.split()
    assert len(templates_tracked) == len({t for t, _ in templates().values()})
