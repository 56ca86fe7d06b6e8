"""Build the Cython kernels of laocheck (metadata lives in pyproject.toml).

The kernels compile without bounds checks; set LAOCHECK_CYTHON_DEBUG=1 at build time to turn
bounds checking, wraparound and initialised-memory checks back on (used to test the kernels).

Some kernel code is written once in a Tempita template (``*.tp``; Tempita ships with Cython as
``Cython.Tempita``, as in scikit-learn's ``_sgd_fast.pyx.tp`` and ``_seq_dataset.pyx.tp``) and
rendered here, before Cython runs, into the files the ``.pyx`` modules include (``TEMPLATES``:
the four ridge/lasso × dense/sparse state classes and their step loops). Every build renders
them (``pip install .``, ``pip install -e .``, ``python setup.py build_ext --inplace``); they
are not committed (.gitignore) and the sdist carries the templates (MANIFEST.in).
"""
import os
import re
import subprocess
from pathlib import Path

import numpy as np
from Cython.Build import cythonize
from Cython.Tempita import Template
from setuptools import Extension, setup
from setuptools.command.build_py import build_py

DEBUG = os.environ.get("LAOCHECK_CYTHON_DEBUG", "0") not in ("", "0")
DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": True,
    "embedsignature": True,
}
MODULES = ["estimators._samplers", "estimators._kernels", "learners._ridge", "learners._lasso",
           "learners._aer", "learners._adaptive", "learners._full", "data._oracle"]

#: generated file -> (template, the template's variables), paths under src/laocheck/.
#: ``_states.pxi.tp`` holds the four state classes of the data-point sampling learners once
#: (ridge/lasso x dense/sparse: rendered per family, it writes both layouts' classes) and
#: ``_steps.pxi.tp`` their step loops; ``learners/_ridge.pyx`` and ``_lasso.pyx`` include the
#: rendered files and define no state class by hand (tests/learners/test_templates.py).
TEMPLATES = {
    "learners/_ridge_states.pxi": ("learners/_states.pxi.tp", {"family": "ridge"}),
    "learners/_lasso_states.pxi": ("learners/_states.pxi.tp", {"family": "lasso"}),
    "learners/_ridge_steps.pxi": ("learners/_steps.pxi.tp", {"family": "ridge"}),
    "learners/_lasso_steps.pxi": ("learners/_steps.pxi.tp", {"family": "lasso"}),
}


def render_templates(root=Path(__file__).resolve().parent / "src" / "laocheck"):
    """Render every template of ``TEMPLATES``; a file is written only when its text changed
    (Cython rebuilds the modules that include it from its modification time)."""
    for target, (template, variables) in TEMPLATES.items():
        source = root / template
        text = Template(source.read_text(encoding="utf-8"), name=str(source)).substitute(
            **variables)
        out = root / target
        if not out.exists() or out.read_text(encoding="utf-8") != text:
            out.write_text(text, encoding="utf-8")


render_templates()

extensions = [
    Extension(
        f"laocheck.{name}",
        [f"src/laocheck/{name.replace('.', '/')}.pyx"],
        include_dirs=[np.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_9_API_VERSION")],
        extra_compile_args=["-O3"] if not DEBUG else ["-O0", "-g"],
    )
    for name in MODULES
]



def source_commit():
    """(commit, dirty) of the git checkout being built, or (None, None) outside one (an sdist).
    The same reading as ``laocheck._provenance._checkout_commit``, which a build cannot import
    (the package is not built yet)."""
    here = Path(__file__).resolve().parent
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                              cwd=here, timeout=10, check=False)
        status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                                capture_output=True, text=True, cwd=here, timeout=10,
                                check=False)
    except (OSError, subprocess.SubprocessError):
        return None, None
    commit = head.stdout.strip()
    if head.returncode != 0 or not re.fullmatch(r"[0-9a-f]{40}", commit):
        return None, None
    return commit, bool(status.stdout.strip()) if status.returncode == 0 else None


class BuildPyWithCommit(build_py):
    """Also write laocheck/_build_commit.py: the commit (and whether tracked files differed from
    it) that a non-editable install was built from, for the provenance of its result files
    (the installed package is no git checkout)."""

    def run(self):
        super().run()
        commit, dirty = source_commit()
        target = Path(self.build_lib) / "laocheck" / "_build_commit.py"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text('"""Written by setup.py when the package was built."""\n'
                          f"COMMIT = {commit!r}\nDIRTY = {dirty!r}\n")


setup(ext_modules=cythonize(extensions, compiler_directives=DIRECTIVES),
      cmdclass={"build_py": BuildPyWithCommit})
