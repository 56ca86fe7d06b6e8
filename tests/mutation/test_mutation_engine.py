"""The mutation engine (benchmarks/mutation_score.py, cosmic-ray): a planted slip in a formula
is killed by the checks that read it, and a rotating few of the recorded mutants keep their
recorded verdicts: kills stay kills, survivors are argued equivalent or known (issue 47)."""
import datetime
import importlib.util
import json
import subprocess
import tomllib
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

#: the modules whose score the docs publish (benchmarks/mutation.toml); the rotation draws
#: from them
MODULES = tuple(M.load_config()["modules"])
#: this many mutants of the recorded run are judged again here, rotating with the commit day
PER_RUN = 3
FORMULAS = "laocheck/bounds/_formulas.py"


def _lines(name):
    """The non-comment lines of a file (a mutant's name may itself contain '#')."""
    return {line.strip() for line in (HERE / name).read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")}


#: survivors of the recorded run not yet argued equivalent nor killed by a check: the gaps of
#: the catalog (the list may only shrink; test_known_survivors_are_recorded_survivors)
KNOWN_SURVIVORS = _lines("known_survivors.txt")
EQUIVALENT = M.load_equivalents(HERE / "equivalent.toml")
MAP = json.loads(M.MAP_PATH.read_text(encoding="utf-8"))
SCORE = json.loads(M.SCORE_PATH.read_text(encoding="utf-8"))
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
    # HK12 Thm 4.4's G is built from Lemma 3.3's E||g~||^2 (the proof repeats it): it changes too
    assert rows[0]["changed_formulas"] in (["HK12.Lemma3.3.G2"],
                                           ["HK12.Lemma3.3.G2", "HK12.Thm4.4.bound_G"])
    assert rows[0]["outcome"] == "killed", rows[0]


def test_a_slip_in_an_estimator_spec_is_judged_by_the_checks_of_that_spec(tmp_path):
    # the maintainer's slip at module level of estimators/_families.py: the importance
    # gradient's budget "k + n_inner" declared with n_inner = 0 (or 2) as its default
    families = "laocheck/estimators/_families.py"
    line = next(i for i, text in enumerate(
        (PKG_PARENT / families).read_text(encoding="utf-8").splitlines(), 1)
        if text.strip().startswith('"gradient": Budget("k + n_inner"'))
    names = {f"{families}|core/NumberReplacer|{item.mutations[0].occurrence}"
             for item in M.work_items([str(PKG_PARENT / families)], ["core/NumberReplacer"])
             if item.mutations[0].start_pos[0] == line}
    assert len(names) == 2
    rows = M.run_mutants([families], only=names, map_data=MAP, workdir=tmp_path,
                         log=lambda *a: None)
    assert len(rows) == 2 and all(r["unit"] is None for r in rows)     # module level
    for row in rows:
        assert "KS15.GAERR.gradient" in row["changed_specs"], row
        assert "KS15.GAERR.data_point" not in row["changed_specs"], row
        assert row["outcome"] == "killed", row


def test_spec_signatures_are_deterministic_and_see_each_field():
    import dataclasses
    from laocheck import estimators
    sig = M.spec_signatures()
    assert sig == M.spec_signatures() and set(sig) == set(estimators.names())
    spec = estimators.spec_of("HK12.AERR.gradient")
    base = M.spec_signature(spec)
    assert M.spec_signature(dataclasses.replace(spec)) == base      # an equal value
    for field, value in [("exact_k", (1, 2)), ("check_k", 1), ("scaling", None),
                         ("target", lambda w, x, y, **p: [0 for _ in x]),
                         ("example_params", lambda d, *, k=2, B=1.0: {"k": k + 1}),
                         ("budget", dataclasses.replace(spec.budget, formula=lambda k, n_inner=2:
                                                        k + n_inner))]:
        assert M.spec_signature(dataclasses.replace(spec, **{field: value})) != base, field


def test_rotating_share_of_recorded_mutants_keeps_its_verdicts(tmp_path):
    """A few mutants of the recorded run (benchmarks/results/mutation/score.json), rotating
    with the commit day, are made and judged again: a recorded kill must still be a kill (a
    check that stopped catching a slip is a regression), and every survivor must be argued
    equivalent or be a known survivor. A module edited since the map was made fails this test
    until the map and its score are refreshed."""
    # a module edited since the map was made would leave the rotation unjudged: a failure
    # (refresh the map and the score), never a skip or a warning
    stale = sorted(m for m in MODULES if not _current(m))
    assert not stale, (f"{stale} changed since benchmarks/results/mutation/map.json was made: "
                       "python benchmarks/mutation_score.py map, then run --share for the "
                       "module, then table")
    recorded = [r for r in SCORE["rows"] if r["module"] in MODULES]
    assert recorded
    start = _share_key() * PER_RUN
    picked = [recorded[(start + i) % len(recorded)] for i in range(min(PER_RUN, len(recorded)))]
    names = {f"{r['module']}|{r['operator']}|{r['occurrence']}": r for r in picked}
    rows = M.run_mutants(sorted({r["module"] for r in picked}), only=set(names), map_data=MAP,
                         workdir=tmp_path, log=lambda *a: None)
    assert rows
    assert not [r for r in rows if r["outcome"] == "error"], rows
    for row in rows:
        was = names[f"{row['module']}|{row['operator']}|{row['occurrence']}"]
        if row["key"] != was["key"]:
            continue                        # the file changed under this occurrence number
        if was["outcome"] == "killed":
            assert row["outcome"] == "killed", (
                f"a recorded kill survives now (which check stopped catching it?): {row}")
        else:
            assert row["outcome"] == "killed" or row["key"] in set(EQUIVALENT) | \
                KNOWN_SURVIVORS, row


def test_known_survivors_are_recorded_survivors():
    """The known survivors are survivors of the recorded run (the list cannot grow past it),
    and none is also argued equivalent."""
    recorded = {r["key"] for r in SCORE["rows"] if r["outcome"] == "survived"}
    assert not sorted(KNOWN_SURVIVORS - recorded)
    assert not sorted(KNOWN_SURVIVORS & set(EQUIVALENT))


def test_equivalents_have_a_reason_and_the_table_is_current():
    with open(HERE / "equivalent.toml", "rb") as fh:
        entries = tomllib.load(fh).get("equivalent", [])
    for e in entries:
        assert set(e) == {"module", "operator", "before", "after", "reason"}, e
        assert len(e["reason"]) > 20 and "\n" not in e["reason"], e
    assert M.summarise(SCORE["rows"], EQUIVALENT) == [
        {k: v for k, v in s.items() if k != "share"} for s in SCORE["modules"]]
    assert (ROOT / "docs" / "benchmarks" / "mutation.md").read_text(encoding="utf-8") == \
        M.markdown(SCORE)
