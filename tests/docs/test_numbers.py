"""The numbers the README and the documentation state come from the benchmarks' JSON.

``docs/_ext/laocheck_numbers.py`` reads them (the verify run's wall and CPU time and its number
of checks from ``src/laocheck/checks/_durations.json``; the install's from
``benchmarks/results/install.json``), with the machine and the date; the site states them
through MyST substitutions (``{{ verify_cpu }}``, made in ``docs/conf.py``), and the README,
which Sphinx does not build, states them literally: here its sentences are compared with the
JSON, and a new measurement fails the test until the README says it. The times still written by
hand (dated records of single runs: the benchmarks' history, the papers' experiments) are
counted per page in :data:`BY_HAND`, so that a new one is noticed.
"""
import importlib.util
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXT = ROOT / "docs" / "_ext" / "laocheck_numbers.py"
PAGES = ("README.md",) + tuple(sorted(
    str(p.relative_to(ROOT)) for p in (ROOT / "docs").rglob("*.md")
    if not {"_build", "generated", "gallery"} & set(p.relative_to(ROOT).parts)))


@pytest.fixture(scope="module")
def numbers():
    spec = importlib.util.spec_from_file_location("laocheck_numbers", EXT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _norm(text):
    return " ".join(text.split())


def test_the_readme_states_the_measured_numbers(numbers):
    readme = _norm((ROOT / "README.md").read_text(encoding="utf-8"))
    for sentence in numbers.readme_sentences():
        assert _norm(sentence) in readme, f"the README must say: {sentence}"


def test_a_new_measurement_fails_the_readme_test(numbers, tmp_path):
    """The negative control: the verify run measured again (its wall time 1 s longer, one more
    check) gives sentences the README does not have."""
    durations = json.loads(numbers.DURATIONS.read_text(encoding="utf-8"))
    durations["fast"]["meta"]["wall_seconds"] += 1
    durations["fast"]["meta"]["checks_measured"] += 1
    changed = tmp_path / "durations.json"
    changed.write_text(json.dumps(durations), encoding="utf-8")
    readme = _norm((ROOT / "README.md").read_text(encoding="utf-8"))
    sentences = numbers.readme_sentences(durations=changed)
    assert sentences != numbers.readme_sentences()
    assert not any(_norm(s) in readme for s in sentences)


def test_every_figure_names_its_machine_and_date(numbers):
    values = numbers.figures()
    for source in ("verify", "install"):
        measured = values[f"{source}_measured"]
        assert re.match(r"\d{4}-\d\d-\d\d, \d+-core \S+ machine, load average", measured)
        assert (ROOT / values[f"{source}_source"].strip("`")).is_file()


def test_the_pages_use_only_substitutions_that_exist(numbers):
    values = numbers.figures()
    used = {name for page in PAGES
            for name in re.findall(r"\{\{\s*(\w+)\s*\}\}", (ROOT / page).read_text("utf-8"))}
    assert {"verify_cpu", "verify_wall", "verify_checks", "install_wall"} <= used
    assert used <= set(values), used - set(values)
    # a substitution inside inline code is not replaced: it would show as written
    for page in PAGES:
        assert not re.search(r"`[^`\n]*\{\{[^`\n]*`", (ROOT / page).read_text("utf-8")), page


#: the times still stated by hand, per page: dated records of single runs (history of the
#: benchmarks, the papers' experiments at the full budget, the cluster comparison, the reports'
#: and data sets' costs), each with its machine and date in its sentence or table; a new one
#: changes a count here
BY_HAND = {
    "docs/benchmarks/history.md": 105,
    "docs/explanation/experimental_claims.md": 1,
    "docs/explanation/mutation.md": 3,          # a time limit (60 s), "0 seconds" of a run,
                                                # one share's run time (a dated record)
    "docs/getting_started.md": 1,               # the gallery: about half a minute
    "docs/guide/cluster.md": 13,
    "docs/guide/papers.md": 110,
    "docs/guide/reports.md": 8,
    "docs/reference/data.md": 1,
    "docs/tutorials/own_sampler.md": 1,         # a default limit (MAX_SECONDS), not a time taken
}
TIME = re.compile(r"\b\d[\d,.]*\s?(?:s|ms|min|minutes?|seconds?|h|hours?|CPU-seconds|"
                  r"CPU-minutes|CPU s)\b|\b(?:a few|half an?|about an?) (?:seconds?|minutes?|"
                  r"hours?)\b")


def _prose(text):
    """The text outside fenced code blocks and HTML comments."""
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    return re.sub(r"^(```|~~~).*?^\1", "", text, flags=re.S | re.M)


def test_the_times_written_by_hand_are_counted(numbers):
    """The README's generated sentences (compared with the JSON above) are not counted."""
    generated = [_norm(s) for s in numbers.readme_sentences()]
    counts = {}
    for page in PAGES:
        text = _norm(_prose((ROOT / page).read_text("utf-8")))
        for sentence in generated:
            text = text.replace(sentence, "")
        counts[page] = len(TIME.findall(text))
    counts = {page: n for page, n in counts.items() if n}
    assert counts == BY_HAND


def test_the_built_pages_show_the_numbers(numbers, site):
    values = numbers.figures()
    for page in ("guide/verify.html", "getting_started.html"):
        html = (site / page).read_text(encoding="utf-8")
        assert "{{" not in html, page
        text = _norm(re.sub(r"<[^>]+>", "", html))
        assert f"{values['verify_cpu']} CPU-seconds" in text, page
        assert values["verify_measured"] in text, page
