"""laocheck._io: atomic writes leave ordinary permissions (not mkstemp's 0600)."""

import os
import stat

import pytest

from laocheck._io import atomic_directory, write_json_atomic, write_text_atomic


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    yield
    os.umask(old)


def _mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def test_written_files_get_the_mode_open_would_give(tmp_path, umask_022):
    write_text_atomic(tmp_path / "a.txt", "x")
    write_json_atomic(tmp_path / "b.json", {"a": 1})
    assert _mode(tmp_path / "a.txt") == 0o644
    assert _mode(tmp_path / "b.json") == 0o644
    assert (tmp_path / "a.txt").read_text() == "x"


def test_a_report_directory_gets_the_mode_mkdir_would_give(tmp_path, umask_022):
    with atomic_directory(tmp_path / "out") as d:
        (d / "f.txt").write_text("y")
    assert _mode(tmp_path / "out") == 0o755
    assert (tmp_path / "out" / "f.txt").read_text() == "y"


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "c.json"
    write_json_atomic(target, {"old": True})

    def interrupted(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_json_atomic(target, {"new": True})
    assert target.read_text() == '{\n "old": true\n}\n'
    assert [p.name for p in tmp_path.iterdir()] == ["c.json"]
