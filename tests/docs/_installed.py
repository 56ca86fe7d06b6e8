"""Only what a page installed: the ``sitecustomize`` that makes the environment the suite
runs in behave like a fresh virtual environment with ``pip install SPEC`` alone.

Used by tests/docs/test_blocks_run.py (each page's blocks) and tests/docs/conftest.py (the docs
build, with the ``docs`` extra alone). No dependency beyond the standard library and packaging
(pytest's), so that the docs build does not need the test runner's plugins.
"""
import json
import os
import re
import textwrap
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]

#: installed by every ``sitecustomize`` of :class:`Installed`: a module is imported only when it
#: is the standard library's, the reader's own (found outside site-packages: the page's
#: directory, ``PYTHONPATH``) or brought by what the page installed (the names in the file
#: ``$LAOCHECK_DOCS_INSTALLED``, read again when a name is not among them: a page may install
#: more on the way)
SITECUSTOMIZE = textwrap.dedent('''
    import importlib.abc, importlib.machinery, json, os, sys

    class _OnlyWhatThePageInstalled(importlib.abc.MetaPathFinder):
        allowed = set()

        def find_spec(self, name, path=None, target=None):
            top = name.partition(".")[0]
            if path is not None or top in self.allowed or top in sys.stdlib_module_names \\
                    or top.startswith("_"):
                return None
            with open(os.environ["LAOCHECK_DOCS_INSTALLED"], encoding="utf-8") as f:
                installed = json.load(f)
            self.allowed = set(installed["modules"])
            if top in self.allowed:
                return None
            own = [p for p in sys.path if "-packages" not in p]
            if importlib.machinery.PathFinder.find_spec(top, own) is not None:
                return None
            raise ModuleNotFoundError(
                f"No module named {name!r}: `pip install {installed['spec']}` does not "
                f"install it", name=name)

    sys.meta_path.insert(0, _OnlyWhatThePageInstalled())
''')


def _distributions(spec, pyproject):
    """The canonical names of the distributions ``pip install SPEC`` brings (the project's
    dependencies, the extras SPEC names, and their requirements, recursively, from the
    installed metadata)."""
    extras = re.fullmatch(r"\.(?:\[([\w,]+)\])?", spec)
    assert extras, f"an install from elsewhere than this repository: pip install {spec}"
    project = tomllib.loads(Path(pyproject).read_text(encoding="utf-8"))["project"]
    wanted = list(project["dependencies"])
    for extra in filter(None, (extras[1] or "").split(",")):
        wanted += project["optional-dependencies"][extra]
    seen, stack = set(), [Requirement(r) for r in wanted]
    while stack:
        req = stack.pop()
        name = canonicalize_name(req.name)
        if name in seen or (req.marker and not req.marker.evaluate({"extra": ""})):
            continue
        seen.add(name)
        try:
            dist = metadata.distribution(req.name)
        except metadata.PackageNotFoundError:
            continue                      # not installed here: nothing of it can be imported
        for r in dist.requires or ():
            r = Requirement(r)
            if r.marker is None or any(r.marker.evaluate({"extra": e})
                                       for e in ("",) + tuple(req.extras)):
                stack.append(r)
    return seen


class Installed:
    """What a page has installed so far, as a ``sitecustomize`` that refuses every other
    module in the page's interpreters (the Python blocks' and every ``python``, ``laocheck``
    and ``pytest`` its shell blocks start), the way a fresh virtual environment would."""

    def __init__(self, tmp, pyproject=ROOT / "pyproject.toml"):
        self.site = tmp / "site"
        self.site.mkdir(exist_ok=True)
        (self.site / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
        self.file = self.site / "installed.json"
        self.pyproject = pyproject
        self.specs, self.modules = [], {"laocheck"}

    def add(self, spec):
        dists = _distributions(spec, self.pyproject)
        self.specs.append(spec)
        self.modules |= {top for top, names in metadata.packages_distributions().items()
                         if any(canonicalize_name(n) in dists for n in names)}
        self.file.write_text(json.dumps({"spec": " ".join(self.specs),
                                         "modules": sorted(self.modules)}), encoding="utf-8")

    def env(self):
        path = [str(self.site)] + ([os.environ["PYTHONPATH"]]
                                   if os.environ.get("PYTHONPATH") else [])
        # hypothesis loads the plugins other installed distributions register; a fresh
        # environment has none of them
        return {"PYTHONPATH": os.pathsep.join(path), "LAOCHECK_DOCS_INSTALLED": str(self.file),
                "HYPOTHESIS_NO_PLUGINS": "1"}
