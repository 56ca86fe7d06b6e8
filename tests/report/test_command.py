"""``laocheck report`` on the command line, the report specs, and the atomic replacement of a
report directory."""

import json
from pathlib import Path

import pytest

from laocheck import report as report_pkg
from laocheck._io import atomic_directory
from laocheck.cli import main
from laocheck.exceptions import InvalidParameterError
from laocheck.report import KINDS, Context, build_report, load_spec

from .conftest import SPECS


def test_report_command_writes_a_report(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["report", "rho", "--effort", "tiny", "--out", str(out), "--specs", str(SPECS),
                 "--no-progress", "--seed", "5"]) == 0
    doc = json.loads((out / "rho" / "report.json").read_text(encoding="utf-8"))
    assert doc["seed"] == 5 and doc["effort"] == "tiny"
    assert (out / "rho" / "index.html").is_file()
    assert "rho:" in capsys.readouterr().out


def test_report_from_a_verify_json(tmp_path):
    verify = tmp_path / "verify.json"
    assert main(["verify", "--only", "HK12.Lemma3.3.eq9*", "--json", str(verify),
                 "--no-progress", "--seed", "2"]) in (0, 1)
    out = tmp_path / "out"
    assert main(["report", "verification", "--from", str(verify), "--out", str(out),
                 "--specs", str(SPECS), "--effort", "tiny", "--no-progress"]) == 0
    run = json.loads(verify.read_text(encoding="utf-8"))
    doc = json.loads((out / "verification" / "report.json").read_text(encoding="utf-8"))
    assert doc["data"]["records"] == run["checks"]
    assert doc["data"]["source"] == "file" and doc["data"]["seed"] == 2
    assert [r["id"] for r in doc["data"]["records"]] == ["HK12.Lemma3.3.eq9",
                                                         "HK12.Lemma3.3.eq9_corrected"]


@pytest.mark.parametrize("argv, message", [
    (["report", "nosuch"], "`NAME` must be one of"),
    (["report", "rho", "--from", "x.json"], "`--from` is only used by a verification report"),
    (["report", "verification", "--from", "/nonexistent.json"], "`--from` file"),
])
def test_report_usage_errors(argv, message, capsys, tmp_path):
    assert main([*argv, "--specs", str(SPECS), "--out", str(tmp_path)]) == 2
    assert message in capsys.readouterr().err


def test_report_effort_is_validated(capsys):
    """An unknown profile is a usage error naming the option, the value and the known names."""
    with pytest.raises(SystemExit) as exc:
        main(["report", "rho", "--effort", "huge"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "`--effort` must be an effort profile or one of the registered names" in err
    assert "'tiny', 'fast', 'full'" in err and "got effort='huge'" in err


def test_report_seed_is_validated(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["report", "--seed", "-1"])
    assert exc.value.code == 2
    assert "`--seed` must be an integer >= 0" in capsys.readouterr().err


def _spec(tmp_path, text, name="mine"):
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_spec_errors_name_the_key(tmp_path):
    ok = 'title = "t"\nkind = "rho"\n[effort.b]\ncurve_points = 3\n'
    with pytest.raises(InvalidParameterError, match="`kind`.*must be one of"):
        load_spec(_spec(tmp_path, 'name = "mine"\ntitle = "t"\nkind = "pie"\n[effort.b]\n'), KINDS)
    with pytest.raises(InvalidParameterError, match="`name`.*must equal its file name 'mine'"):
        load_spec(_spec(tmp_path, 'name = "other"\n' + ok), KINDS)
    with pytest.raises(InvalidParameterError, match="`title`"):
        load_spec(_spec(tmp_path, 'name = "mine"\nkind = "rho"\n[effort.b]\n'), KINDS)
    with pytest.raises(InvalidParameterError, match="`effort` of spec .* at least one table"):
        load_spec(_spec(tmp_path, 'name = "mine"\ntitle = "t"\nkind = "rho"\n'), KINDS)
    with pytest.raises(InvalidParameterError, match="not valid TOML"):
        load_spec(_spec(tmp_path, 'name = "mine\n'), KINDS)
    spec = load_spec(_spec(tmp_path, 'name = "mine"\n' + ok), KINDS)
    with pytest.raises(InvalidParameterError, match="`effort` must be a profile with a table in "
                       "report 'mine' \\(one of \\['b'\\]"):
        spec.settings_for("fast")


def test_a_spec_missing_a_setting_is_refused_before_any_run(tmp_path, capsys):
    _spec(tmp_path, 'name = "b"\ntitle = "t"\nkind = "bounds"\n[settings]\n'
          'theorems = ["HK12.Thm3.1"]\nd = 10\nk = 2\nm = 100\nB = 1.0\n[effort.fast]\nR = 2\n',
          name="b")
    assert main(["report", "b", "--specs", str(tmp_path), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "must set `m_values` (in [settings] or [effort.fast]) for a bounds report" in err
    assert not (tmp_path / "out").exists()


def test_a_new_spec_makes_a_new_report_without_python(tmp_path):
    """A user's spec: the rho report of another grid, under its own name."""
    path = _spec(tmp_path, 'name = "rho_coarse"\ntitle = "Coarse rho"\nkind = "rho"\n'
                 '[settings]\nd = 100\nalphas = [-1.0]\ncurve_from = -1.0\ncurve_to = 0.0\n'
                 '[effort.fast]\ncurve_points = 3\n', name="rho_coarse")
    built = build_report(load_spec(path, KINDS), tmp_path / "out", effort="fast")
    assert built.path.name == "rho_coarse"
    assert [(r["scenario"], r["alpha"]) for r in built.doc["data"]["curve"]] == [
        ("ridge", -1.0), ("ridge", -0.5), ("ridge", 0.0),
        ("lasso", -1.0), ("lasso", -0.5), ("lasso", 0.0)]
    assert "Coarse rho" in (built.path / "index.html").read_text(encoding="utf-8")


def test_interrupted_report_leaves_the_old_one(tmp_path, monkeypatch):
    spec = load_spec(SPECS / "rho.toml", KINDS)
    old = build_report(spec, tmp_path, effort="tiny", ctx=Context(seed=1, effort="tiny"))
    before = {p.relative_to(old.path): p.read_bytes() for p in old.path.rglob("*") if p.is_file()}

    def interrupted(fig, directory, name):
        (Path(directory) / f"{name}.png").write_bytes(b"half")
        raise KeyboardInterrupt

    monkeypatch.setattr(report_pkg, "save", interrupted)
    with pytest.raises(KeyboardInterrupt):
        build_report(spec, tmp_path, effort="tiny", ctx=Context(seed=2, effort="tiny"))
    after = {p.relative_to(old.path): p.read_bytes() for p in old.path.rglob("*") if p.is_file()}
    assert after == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rho"]


def test_atomic_directory_replaces_only_when_complete(tmp_path):
    target = tmp_path / "r"
    with atomic_directory(target) as tmp:
        (tmp / "a.txt").write_text("one")
        assert not target.exists()
    assert (target / "a.txt").read_text() == "one"
    with pytest.raises(RuntimeError):
        with atomic_directory(target) as tmp:
            (tmp / "a.txt").write_text("two")
            raise RuntimeError("crash")
    assert (target / "a.txt").read_text() == "one"
    with atomic_directory(target) as tmp:
        (tmp / "b.txt").write_text("three")
    assert sorted(p.name for p in target.iterdir()) == ["b.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r"]
