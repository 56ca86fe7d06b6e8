"""The ``verification`` report: the whole check catalog, per paper, with the errata.

Data (:func:`collect`): the :class:`laocheck.checks.CheckRecord` of every check the spec selects,
run with the report's seed and effort profile (the numbers of
``laocheck verify --seed --effort``), or read from a ``laocheck verify --json`` file. Rendering
(:func:`render`) tabulates the records and draws the worst ratios the adversarial searches
found.
"""

from __future__ import annotations

from matplotlib.ticker import MaxNLocator

from .._files import Int, List, Obj, Str, validate
from ..checks import CheckRecord, Status, checks
from ..checks._slack import LOOSE, reason, tightness
from ..exceptions import InvalidParameterError
from ._document import (DETECTS_SHOWN_ABOVE, FigureRef, Paragraph, Section, Table, fmt,
                        record_verdict)
from ._style import COLORS, new_figure, styled

__all__ = ["collect", "render", "FIGURES", "TABLES", "key_figures"]

FIGURES = ("summary", "worst_ratios")
TABLES = ("summary", "checks", "errata", "readings", "slack")
STATUSES = tuple(s.value for s in Status)
_PAPERS = {"CB11": "CB11: Cesa-Bianchi, Shalev-Shwartz, Shamir (JMLR 2011)",
           "HK12": "HK12: Hazan, Koren (ICML 2012)",
           "KS15": "KS15: Kukliansky, Shamir (ICML 2015)",
           "LAO": "LAO: properties of all three papers"}
_STATUS_COLORS = {"PASS": COLORS["tuned"], "ERRATUM": COLORS["violation"],
                  "FAIL": COLORS["exact"], "INCONCLUSIVE": COLORS["neutral"],
                  "READING": COLORS["bound"], "ERROR": COLORS["printed"]}


def required(settings):
    """The settings keys this report needs (none: it defaults to the whole catalog)."""
    return []


#: a ``laocheck verify --json`` document as ``--from`` reads it (each record is then checked
#: against ``laocheck.checks.RECORD_SCHEMA``)
_PROFILE = Str(50, pattern=r"[A-Za-z0-9_-]+", what="be an effort profile's name")
VERIFY_SCHEMA = Obj(required={"checks": List(Obj(), max_len=100_000)},
                    optional={"run": Obj(optional={"seed": Int(0, 2**128),
                                                   "effort": _PROFILE,
                                                   "budget": _PROFILE,   # before 0.1
                                                   "provenance": Obj()})})


def collect(settings, ctx, from_doc=None):
    """The records (JSON-ready dicts) and where they come from."""
    if from_doc is not None:
        validate(from_doc, VERIFY_SCHEMA, "`--from`")
        records = [CheckRecord.from_dict(doc, f"`--from` checks[{i}]").to_dict()
                   for i, doc in enumerate(from_doc["checks"])]
        run = from_doc.get("run", {})
        return {"source": "file", "seed": run.get("seed"),
                "checks_effort": run.get("effort", run.get("budget")),
                "verify_provenance": run.get("provenance"), **_summary(records),
                "records": records}
    selected = checks(settings.get("only") or None)
    if not selected:
        raise InvalidParameterError(f"`only` of the spec matches no check: {settings.get('only')}.")
    ids = [c.id for c in selected]
    effort = ctx.checks_effort(settings)
    ctx.progress(f"{len(ids)} checks at effort {effort.name}")
    records = ctx.run_checks(ids, ctx.seed, effort)
    records = [r.to_dict() for r in records]
    return {"source": "run", "seed": ctx.seed, "checks_effort": effort.name,
            "verify_provenance": None, **_summary(records), "records": records}


def _summary(records):
    """Counts by status, per paper and in all, and the family-wise δ (the sum of the checks')."""
    by_paper = {}
    for r in records:
        by_paper.setdefault(paper_of(r["id"]), []).append(r["status"])
    return {"checks": len(records),
            "counts": {s: sum(r["status"] == s for r in records) for s in STATUSES},
            "counts_by_paper": {p: {s: st.count(s) for s in STATUSES}
                                for p, st in by_paper.items()},
            "family_wise_delta": sum(r["delta"] for r in records),
            "loose_threshold": LOOSE,
            "papers": {p: _PAPERS.get(p, p) for p in by_paper}}


def paper_of(check_id):
    return check_id.split(".", 1)[0]


def key_figures(record, limit=6):
    """The record's scalar figures (numbers, booleans, short strings), at most ``limit``; the
    full figures are in report.json."""
    out = {}
    for key, value in (record["figures"] or {}).items():
        if isinstance(value, (bool, int, float)) or (isinstance(value, str) and len(value) <= 40):
            out[key] = value
        if len(out) == limit:
            break
    return out


def worst_ratio_figure(records):
    """Horizontal bars on a log scale: the ratio lhs / rhs of every inequality check (the worst
    one its search found, or the empirical mean over the bound; ≤ 1: it holds; the gap to 1 is
    its slack), coloured by status; below the line at :data:`~laocheck.checks._slack.LOOSE` a
    bar is hatched when a reason for the slack is stated and outlined in black when not."""
    rows = sorted((r for r in records if tightness(r) is not None and tightness(r) > 0),
                  key=tightness)
    ids = [r["id"] for r in rows]
    ratios = [tightness(r) for r in rows]
    with styled():
        fig, axes = new_figure(size=(7.2, 1.0 + 0.24 * max(len(rows), 1)))
        ax = axes[0, 0]
        for status in STATUSES:
            idx = [i for i, r in enumerate(rows) if r["status"] == status]
            if idx:
                ax.barh(idx, [ratios[i] for i in idx], color=_STATUS_COLORS[status], height=0.7,
                        label=status)
        loose = [i for i, v in enumerate(ratios) if v < LOOSE]
        for i in loose:
            stated = reason(ids[i]) is not None
            ax.barh([i], [ratios[i]], height=0.7, fill=False,
                    hatch="///" if stated else None,
                    edgecolor=COLORS["exact"], linewidth=0.4 if stated else 1.5)
        ax.axvline(1.0, color=COLORS["bound"], linewidth=2, label="lhs = rhs (ratio 1)")
        ax.axvline(LOOSE, color=COLORS["neutral"], linewidth=1, linestyle="--",
                   label=f"loose below {LOOSE:g} (hatched: reason stated)")
        ax.set_xscale("log")
        ax.set_yticks(range(len(ids)), ids, fontsize=7, parse_math=False)   # ids from files
        ax.set_ylim(-0.6, len(ids) - 0.4)
        ax.set_xlim(min(ratios + [LOOSE]) / 2, max(ratios + [1.0]) * 1.5)
        ax.set_xlabel("ratio lhs / rhs (worst found; empirical: mean excess / bound), log scale")
        ax.set_title("How tight each inequality is (≤ 1 holds)")
        ax.legend(loc="lower right", fontsize=8)
    return fig, {"ids": ids, "worst_ratio": ratios, "status": [r["status"] for r in rows],
                 "loose": [ids[i] for i in loose],
                 "loose_without_reason": [ids[i] for i in loose if reason(ids[i]) is None]}


def summary_figure(counts):
    """Stacked horizontal bars: checks per paper by status."""
    papers = list(counts)
    with styled():
        fig, axes = new_figure(size=(7.2, 0.9 + 0.5 * len(papers)))
        ax = axes[0, 0]
        left = [0] * len(papers)
        for status in STATUSES:
            vals = [counts[p][status] for p in papers]
            if any(vals):
                ax.barh(range(len(papers)), vals, left=left, color=_STATUS_COLORS[status],
                        label=status, height=0.6)
            left = [a + b for a, b in zip(left, vals)]
        ax.set_yticks(range(len(papers)), papers, parse_math=False)     # names from files
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.invert_yaxis()
        ax.set_xlabel("checks")
        ax.set_title("Verdicts per paper")
        ax.legend(loc="lower right", fontsize=8)
    return fig, {"papers": papers, "counts": counts}


def render(data, settings):
    records = data["records"]
    draw = set(settings.get("figures", FIGURES))
    show = set(settings.get("tables", TABLES))
    by_paper = {}
    for r in records:
        by_paper.setdefault(paper_of(r["id"]), []).append(r)
    counts, total, family = data["counts_by_paper"], data["counts"], data["family_wise_delta"]
    figures, sections, tables = [], [], []
    intro = (Paragraph(
        f"{data['checks']} checks ({', '.join(f'{s} {total[s]}' for s in STATUSES)}), seed "
        f"{fmt(data['seed'])}, effort {fmt(data['checks_effort'])}, from "
        f"{'this run' if data['source'] == 'run' else 'a laocheck verify --json file'}. "
        f"PASS: the statement holds (exactly, or at the stated δ); ERRATUM: the literal "
        f"statement of the paper is false (counterexample given; its correction is a check of "
        f"its own); READING: false only as a text extraction reads it, or not derivable from "
        f"what the paper displays (not an erratum); FAIL: "
        f"refuted; INCONCLUSIVE: the sample sizes cannot decide; ERROR: the code under test raised "
        f"or exited (not a verdict). Family-wise "
        f"false-FAIL probability ≤ {fmt(family)} (the sum of the checks' δ). "
        f"'PASS (detects ≥ F×)': the check's power at its settings; only a bound F times too "
        f"small would have been refuted at the check's stated power (shown when F > "
        f"{fmt(DETECTS_SHOWN_ABOVE)}); 'lower bound ≤ 0: no power at these settings': the "
        f"excess risk measured is not told apart from 0."),)
    summary_rows = tuple([p, *[counts[p][s] for s in STATUSES], len(by_paper[p])]
                         for p in by_paper)
    t_sum = Table("summary", ("paper", *STATUSES, "checks"), summary_rows)
    tables.append(t_sum)
    blocks = [t_sum] if "summary" in show else []
    if "summary" in draw:
        fig, fdata = summary_figure(counts)
        ref = FigureRef("summary", "Verdicts per paper", "number of checks of each paper by "
                        "status (LAO: properties shared by the three papers).")
        figures.append((ref, fig, fdata))
        blocks.append(ref)
    if "worst_ratios" in draw:
        fig, fdata = worst_ratio_figure(records)
        ref = FigureRef("worst_ratios", "Worst ratios of the adversarial searches",
                        "for each inequality checked by a seeded adversarial search, the largest "
                        "lhs / rhs found; ≤ 1 means it holds there, the gap to 1 is how tight "
                        "the inequality is (a ratio of 1 is attained).")
        figures.append((ref, fig, fdata))
        blocks.append(ref)
    sections.append(Section("Summary", tuple(blocks)))

    statements = {r["id"]: r["statement"] for r in records}
    erratum_rows = tuple(
        [r["id"], r["statement"], r["counterexample"], r["correction"],
         statements.get(r["correction"], ""),
         f"laocheck verify --only '{r['id']}' --seed {fmt(data['seed'])}"]
        for r in records if r["status"] == Status.ERRATUM.value)
    t_err = Table("errata", ("check", "literal statement", "counterexample", "correction",
                             "corrected statement", "reproduce"), erratum_rows, code_columns=(5,))
    tables.append(t_err)
    if "errata" in show:
        sections.append(Section(f"Errata ({len(erratum_rows)})", (Paragraph(
            "Literal statements of the papers that are false, with the counterexample found, "
            "the check of the corrected statement and the command that reproduces it."),
            t_err)))
    reading_rows = tuple(
        [r["id"], r["statement"], r["note"], r["correction"]]
        for r in records if r["status"] == Status.READING.value)
    t_read = Table("readings", ("check", "statement as extracted", "why it is a reading",
                                "the typeset reading"), reading_rows)
    tables.append(t_read)
    if "readings" in show and reading_rows:
        sections.append(Section(f"Readings ({len(reading_rows)})", (Paragraph(
            "Statements false only as one text extraction of the paper reads them; the typeset "
            "paper reads otherwise. Not errata, and not counted as such."), t_read)))
    slack_rows = tuple(
        [r["id"], tightness(r), reason(r["id"]) or ("adversarial search" if "adversarial" in
                                                     r["method"].lower() else "none stated")]
        for r in records if tightness(r) is not None and tightness(r) < LOOSE)
    t_slack = Table("slack", ("check", "ratio", "why the bound is loose"), slack_rows)
    tables.append(t_slack)
    if "slack" in show and slack_rows:
        sections.append(Section(f"Loose bounds ({len(slack_rows)})", (Paragraph(
            f"Inequality checks whose ratio lhs / rhs is below {LOOSE:g}: a bound wrong by a "
            "factor up to 1/ratio passes them. Each has an adversarial search or a stated "
            "reason."), t_slack)))
    for p, rs in by_paper.items():
        rows = tuple([r["id"], record_verdict(r), r["expected"], r["citation"], r["statement"],
                      r["method"], r["delta"], r["detectable"], key_figures(r)] for r in rs)
        t = Table(f"checks_{p}", ("check", "status", "expected", "citation", "statement",
                                  "method", "δ", "smallest detectable violation",
                                  "key figures"), rows)
        tables.append(t)
        if "checks" in show:
            sections.append(Section(f"{data['papers'][p]}: {len(rs)} checks", (t,)))
    return intro, sections, figures, tables
