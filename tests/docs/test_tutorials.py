"""The regression-testing tutorial run as a reader follows it: its ``mysampler.py`` written
from the first python block, each "replace ... by" block applied to that file, and each
``laocheck baseline`` command run in a shell, with the exit status the tutorial's comment
announces (``# exit status N``)."""
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = ROOT / "docs" / "tutorials" / "regression_testing.md"


def _blocks(text):
    return re.findall(r"```(python|bash)\n(.*?)```", text, flags=re.S)


def test_the_regression_testing_tutorial_runs_as_written(tmp_path):
    steps = _blocks(TUTORIAL.read_text())
    kinds = [k for k, _ in steps]
    assert kinds[:2] == ["python", "bash"] and kinds.count("bash") >= 3
    module = tmp_path / "mysampler.py"
    ran = []
    for kind, body in steps:
        if kind == "python":
            first = body.splitlines()[0]
            if first.strip() == "# mysampler.py":
                module.write_text(body)
            else:
                assert first.startswith("# in mysampler.py, replace"), first
                # a later definition of the same name wins when the module is imported
                module.write_text(module.read_text() + "\n\n" + body)
            continue
        for line in body.strip().splitlines():
            command, _, comment = line.partition("#")
            expected = re.search(r"exit status (\d+)", comment)
            argv = shlex.split(command)
            assert argv[0] == "laocheck", line
            result = subprocess.run([sys.executable, "-m", "laocheck", *argv[1:]], cwd=tmp_path,
                                    capture_output=True, text=True, timeout=900,
                                    env={**os.environ, "PYTHONPATH": os.pathsep.join(
                                        [str(tmp_path)] + os.environ.get("PYTHONPATH", "")
                                        .split(os.pathsep))})
            want = int(expected.group(1)) if expected else 0
            assert result.returncode == want, (line, result.stdout[-2000:], result.stderr[-2000:])
            ran.append((argv[2], result.stdout))
    assert [a for a, _ in ran] == ["save", "compare", "compare"]
    # the verdicts the tutorial describes: CHANGED BUT STILL CORRECT, then BROKEN on `unbiased`
    changed = [line for line in ran[1][1].splitlines() if line.startswith(("d3", "d4", "w0"))]
    broken = [line for line in ran[2][1].splitlines() if line.startswith(("d3", "d4", "w0"))]
    assert len(changed) == 3 and all("CHANGED BUT STILL CORRECT" in line for line in changed)
    assert len(broken) == 3 and all("BROKEN" in line and "unbiased" in line for line in broken)
