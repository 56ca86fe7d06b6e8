"""The documented docs build needs nothing beyond ``pip install ".[docs]"``.

The README and ``docs/conf.py`` say the site builds after ``pip install ".[docs]"``; CI builds
it from the ``test`` extra, which installs more (hypothesis, pytest), so a module the build
imports through a package only the ``test`` extra brings went unseen (the API page of
``laocheck.testing.strategies`` imports hypothesis). Here the build's imports run in a
subprocess in which every top-level module is refused unless it belongs to the standard
library, to laocheck, or to a distribution that ``laocheck[docs]`` installs (its own
requirements and theirs, resolved from the installed metadata), the way a fresh virtual
environment with only that extra would refuse it.
"""
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = textwrap.dedent('''
    import importlib, importlib.abc, importlib.metadata as md, re, sys, tomllib
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    project = tomllib.loads(open(sys.argv[1], encoding="utf-8").read())["project"]
    wanted = list(project["dependencies"]) + list(project["optional-dependencies"]["docs"])
    seen, stack = set(), [Requirement(r) for r in wanted]
    while stack:
        req = stack.pop()
        name = canonicalize_name(req.name)
        if name in seen or (req.marker and not req.marker.evaluate({"extra": ""})):
            continue
        seen.add(name)
        try:
            dist = md.distribution(req.name)
        except md.PackageNotFoundError:
            continue                      # not installed here: nothing of it can be imported
        for r in dist.requires or ():
            r = Requirement(r)
            if r.marker is None or any(r.marker.evaluate({"extra": e}) for e in
                                       ("",) + tuple(req.extras)):
                stack.append(r)
    allowed = {"laocheck"} | set(sys.stdlib_module_names) | set(sys.builtin_module_names)
    for top, dists in md.packages_distributions().items():
        if any(canonicalize_name(d) in seen for d in dists):
            allowed.add(top)
    refused = []

    class Refuse(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            top = name.partition(".")[0]
            if top not in allowed and not top.startswith("_"):
                refused.append(name)
                raise ModuleNotFoundError(f"No module named {name!r} (not in laocheck[docs])",
                                          name=name)
            return None

    sys.meta_path.insert(0, Refuse())
    api = open(sys.argv[2], encoding="utf-8").read()
    modules = re.findall(r"^   (laocheck[\\w.]*)$", api, flags=re.M)
    for name in modules:
        importlib.import_module(name)
    print(len(modules), "modules imported; refused:", sorted(set(refused)))
''')


def _probe(pyproject, api):
    # hypothesis loads the plugins other installed distributions register (trio's, with the
    # test extra); a fresh environment with the docs extra has none of them
    env = {**os.environ, "HYPOTHESIS_NO_PLUGINS": "1"}
    return subprocess.run([sys.executable, "-c", PROBE, str(pyproject), str(api)],
                          capture_output=True, text=True, cwd=ROOT, timeout=600, env=env)


def test_every_module_of_the_api_pages_imports_with_the_docs_extra_alone():
    out = _probe(ROOT / "pyproject.toml", ROOT / "docs" / "reference" / "api.md")
    assert out.returncode == 0, out.stderr[-3000:]
    assert "modules imported" in out.stdout


def test_the_probe_refuses_a_module_the_docs_extra_does_not_bring(tmp_path):
    """The negative control: with hypothesis taken out of the ``docs`` extra, importing the
    strategies' API page fails, as it did in a fresh environment."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    docs = text.index("\ndocs = [")
    end = text.index("]", docs)
    block = text[docs:end]
    assert "hypothesis" in block, "the docs extra must bring hypothesis (laocheck.testing.strategies)"
    pyproject = tmp_path / "pyproject.toml"
    kept = "".join(line for line in block.splitlines(keepends=True) if "hypothesis" not in line)
    pyproject.write_text(text[:docs] + kept + text[end:], encoding="utf-8")
    out = _probe(pyproject, ROOT / "docs" / "reference" / "api.md")
    assert out.returncode != 0
    assert "hypothesis" in out.stderr and "not in laocheck[docs]" in out.stderr
