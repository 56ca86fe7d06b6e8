"""The README's set-up commands and CI's script must not drift apart."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    start = ci.index("# --- README test command ---")
    end = ci.index("# --- end ---")
    command = "\n".join(ci[start + 1:end])
    readme = (ROOT / "README.md").read_text()
    assert f"```bash\n{command}\n```" in readme


def test_readme_has_exactly_two_setup_blocks():
    readme = (ROOT / "README.md").read_text()
    setup = readme.split("## Set up", 1)[1].split("\n## ", 1)[0]
    assert setup.count("```bash") == 2
