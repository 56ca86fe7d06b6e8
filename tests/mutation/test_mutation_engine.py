"""The mutation engine (benchmarks/mutation_score.py, cosmic-ray): a planted slip in a formula
is killed by the checks that read it, and a rotating share of the mutants of the measured
modules is killed, or argued equivalent, or a known survivor (issue 47, item 2)."""
import datetime
import importlib.util
import json
import subprocess
import tomllib
import warnings
from pathlib import Path

import pytest

pytest.importorskip("cosmic_ray")   # the engine: the `test` extra installs it

import laocheck  # noqa: E402  (after the skip: the engine is what this module tests)

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
_spec = importlib.util.spec_from_file_location("mutation_score",
                                               ROOT / "benchmarks" / "mutation_score.py")
M = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(M)

#: the modules whose score the docs publish; the rotation draws from them
MODULES = ("laocheck/bounds/_formulas.py", "laocheck/reference/estimators.py")
#: mutants of MODULES fall in N_SHARES shares (about 8 each); this many of one share run here
N_SHARES, PER_RUN = 200, 3
FORMULAS = "laocheck/bounds/_formulas.py"


def _lines(name):
    return {line.split("#")[0].strip() for line in (HERE / name).read_text().splitlines()
            if line.split("#")[0].strip()}


#: survivors of the recorded run not yet argued equivalent nor killed by a check: the gaps of
#: the catalog (the list may only shrink; test_known_survivors_are_recorded_survivors)
KNOWN_SURVIVORS = _lines("known_survivors.txt")
EQUIVALENT = M.load_equivalents(HERE / "equivalent.toml")
MAP = json.loads(M.MAP_PATH.read_text(encoding="utf-8"))
PKG_PARENT = Path(laocheck.__file__).resolve().parent.parent


def _current(module):
    """Whether the map's test selection was made from this very file."""
    return MAP["modules"].get(module, {}).get("sha256") == M.sha256(PKG_PARENT / module)


def _share_key():
    """The day of the commit under test (the rotation moves through the shares one a day);
    today when the tree is not a git checkout."""
    try:
        out = subprocess.run(["git", "log", "-1", "--format=%cs"], cwd=HERE, text=True,
                             capture_output=True, timeout=10, check=True).stdout.strip()
        return datetime.date.fromisoformat(out).toordinal()
    except (OSError, subprocess.SubprocessError, ValueError):
        return datetime.date.today().toordinal()


def test_a_constant_of_a_bound_changed_by_one_is_killed(tmp_path):
    # the maintainer's slip: HK12 Lemma 3.3's E||g~||^2 <= 8 B^2 d/k typed with 9 (or 7)
    line = next(i for i, text in enumerate(
        (PKG_PARENT / FORMULAS).read_text(encoding="utf-8").splitlines(), 1)
        if text.startswith('_add("HK12.Lemma3.3.G2"'))
    names = {f"{FORMULAS}|core/NumberReplacer|{item.mutations[0].occurrence}"
             for item in M.work_items([str(PKG_PARENT / FORMULAS)], ["core/NumberReplacer"])
             if item.mutations[0].start_pos[0] == line}
    assert names
    rows = M.run_mutants([FORMULAS], only=set(sorted(names)[:1]), map_data=MAP,
                         workdir=tmp_path, log=lambda *a: None)
    assert len(rows) == 1 and "8" in rows[0]["before"]
    assert rows[0]["changed_formulas"] == ["HK12.Lemma3.3.G2"]
    assert rows[0]["outcome"] == "killed", rows[0]


def test_rotating_share_of_mutants_is_killed_or_explained(tmp_path):
    modules = [m for m in MODULES if _current(m)]
    for m in sorted(set(MODULES) - set(modules)):
        warnings.warn(f"{m} changed since benchmarks/results/mutation/map.json was made: not in "
                      "the rotation (python benchmarks/mutation_score.py map)", stacklevel=1)
    if not modules:
        pytest.skip("the test selection map is stale for every module of the rotation")
    key = _share_key()
    rows = []
    for step in range(N_SHARES):             # the first non-empty share from today's
        rows = M.run_mutants(modules, share=((key + step) % N_SHARES, N_SHARES),
                             limit=PER_RUN, map_data=MAP, workdir=tmp_path / str(step),
                             log=lambda *a: None)
        if rows:
            break
    assert rows
    assert not [r for r in rows if r["outcome"] == "error"], rows
    survived = {r["key"] for r in rows if r["outcome"] == "survived"}
    new = sorted(survived - set(EQUIVALENT) - KNOWN_SURVIVORS)
    assert not new, ("mutants that no check kills (kill them with a check, or argue them "
                     f"equivalent in tests/mutation/equivalent.toml): {new}")


def test_known_survivors_are_recorded_survivors():
    """The known survivors are survivors of the recorded run (the list cannot grow past it),
    and none is also argued equivalent."""
    score = json.loads(M.SCORE_PATH.read_text(encoding="utf-8"))
    recorded = {r["key"] for r in score["rows"] if r["outcome"] == "survived"}
    assert not sorted(KNOWN_SURVIVORS - recorded)
    assert not sorted(KNOWN_SURVIVORS & set(EQUIVALENT))


def test_equivalents_have_a_reason_and_the_table_is_current():
    with open(HERE / "equivalent.toml", "rb") as fh:
        entries = tomllib.load(fh).get("equivalent", [])
    for e in entries:
        assert set(e) == {"module", "operator", "before", "after", "reason"}, e
        assert len(e["reason"]) > 20 and "\n" not in e["reason"], e
    score = json.loads(M.SCORE_PATH.read_text(encoding="utf-8"))
    assert M.summarise(score["rows"], EQUIVALENT) == [
        {k: v for k, v in s.items() if k != "share"} for s in score["modules"]]
    assert (ROOT / "docs" / "benchmarks" / "mutation.md").read_text(encoding="utf-8") == \
        M.markdown(score)
