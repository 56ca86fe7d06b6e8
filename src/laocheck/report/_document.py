"""A report as a document: sections of paragraphs, tables and figures, written once as
self-contained HTML and once as GitHub Markdown. Every number shown goes through :func:`fmt`,
and every table's raw values are also in ``report.json`` (``tables``), so the two renderings
show exactly the numbers of the JSON.

Hand-written (about a hundred lines) rather than a template engine: the pages are a few
tables and images, and no dependency is needed for that.
"""

from __future__ import annotations

import html
import math
import re
from dataclasses import dataclass, field

__all__ = ["fmt", "md_text", "verdict", "Paragraph", "Table", "FigureRef", "Section", "to_html",
           "to_markdown", "section_id", "record_verdict", "NO_POWER", "DETECTS_SHOWN_ABOVE"]

#: a PASS whose power factor ``detects`` exceeds this shows it beside the verdict: at its
#: settings only a bound wrong by more than this factor would have been refuted
DETECTS_SHOWN_ABOVE = 2.0

#: the sentence beside a claim whose lower confidence bound is <= 0
NO_POWER = "lower bound ≤ 0: no power at these settings"


def verdict(status, detects=None, lower=None):
    """A verdict as the report tables show it: the status, with "detects ≥ F×" beside a PASS
    whose power factor F (:class:`laocheck.checks.Result`'s ``detects``) exceeds
    :data:`DETECTS_SHOWN_ABOVE`, and :data:`NO_POWER` beside a PASS whose claim's lower
    confidence bound ``lower`` is ≤ 0 (nothing was shown to hold, only not refuted).

    Parameters
    ----------
    status : str
        The status (``"PASS"``, ``"FAIL"``, ...).
    detects : float or None, default=None
        The power factor (≥ 1; 1 for exact checks; None when the check states none).
    lower : float or None, default=None
        The lower confidence bound of the claim's margin, when it has one.

    Returns
    -------
    str
        The cell's text, starting with the status.
    """
    notes = []
    if status == "PASS" and detects is not None and math.isfinite(detects) \
            and detects > DETECTS_SHOWN_ABOVE:
        notes.append(f"detects ≥ {fmt(float(detects))}×")
    elif status == "PASS" and detects is not None and math.isinf(detects):
        notes.append("detects no finite factor")
    if status == "PASS" and lower is not None and lower <= 0:
        notes.append(NO_POWER)
    return f"{status} ({'; '.join(notes)})" if notes else status


def record_verdict(record):
    """:func:`verdict` of a check record's dict (``laocheck verify --json``): its ``detects``
    and, for an excess-risk claim, the lower confidence bound ``excess_low`` of its figures."""
    figures = record.get("figures") or {}
    lower = figures.get("excess_low")
    return verdict(record["status"], record.get("detects"),
                   lower if isinstance(lower, (int, float)) and not isinstance(lower, bool)
                   else None)


def section_id(title):
    """The anchor of a section: its title lower-cased, runs of other characters as '-'."""
    return "s-" + (re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "section")


def fmt(value):
    """The text of one value in a report.

    4 significant digits for floats, integers as they are, yes/no for booleans, lists element by
    element, None as an en dash.

    Parameters
    ----------
    value : object
        A number, bool, None, string or list of them.

    Returns
    -------
    str
        The text.
    """
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "∞" if value > 0 else "−∞"
        return f"{value:.4g}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(fmt(v) for v in value) + "]"
    if isinstance(value, dict):
        return ", ".join(f"{k} = {fmt(v)}" for k, v in value.items())
    return str(value)


@dataclass(frozen=True)
class Paragraph:
    text: str
    code: bool = False            # a command line, shown as code


@dataclass(frozen=True)
class Table:
    """A table; ``rows`` hold raw values (formatted by :func:`fmt`), ``key`` names the column
    whose value identifies a row (``data-key`` in HTML)."""

    name: str
    columns: tuple
    rows: tuple
    key: int = 0
    code_columns: tuple = ()      # columns shown as code (commands)

    def to_dict(self):
        return {"name": self.name, "columns": list(self.columns),
                "rows": [list(r) for r in self.rows]}


@dataclass(frozen=True)
class FigureRef:
    name: str                     # the file stem under figures/
    title: str
    caption: str


@dataclass(frozen=True)
class Section:
    title: str
    blocks: tuple = field(default_factory=tuple)


_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 2em auto;
       max-width: 72em; padding: 0 1em; color: #111; line-height: 1.45; }
h1 { font-size: 1.6em; } h2 { font-size: 1.3em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.88em; max-width: 100%; }
td { overflow-wrap: break-word; } td code { white-space: normal; }
/* check ids and other dotted names break only after a dot (<wbr>), never mid-word */
.id { word-break: keep-all; overflow-wrap: normal; }
nav.toc { border: 1px solid #ddd; background: #fafafa; padding: 0.4em 1em; margin: 1em 0; }
nav.toc ol { margin: 0.2em 0; padding-left: 1.4em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.5em; text-align: left; vertical-align: top; }
th { background: #f2f2f2; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
figure { margin: 1em 0; } figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { font-size: 0.9em; color: #333; max-width: 60em; }
code { background: #f5f5f5; padding: 0 0.2em; }
.status-PASS { color: #006b4f; } .status-FAIL { color: #b03000; font-weight: bold; }
.status-ERRATUM { color: #a3470a; font-weight: bold; } .status-INCONCLUSIVE { color: #555; }
.status-READING { color: #555; } .status-ERROR { color: #8a1f6a; font-weight: bold; }
footer { margin-top: 3em; font-size: 0.8em; color: #555; }
"""

_STATUSES = ("PASS", "FAIL", "ERRATUM", "INCONCLUSIVE", "READING", "ERROR")


#: an id (a check id ``HK12.Lemma3.3.eq9``, a theorem ``KS15.Thm3.1``, a laocheck path):
#: breakable only after its dots; other dotted text (file names, prose) is left alone
_DOTTED = re.compile(r"(?<![\w.])((?:[A-Z]{2,}\d*|laocheck)(?:\.[\w*-]+)+)(?![\w*-]|\.[\w*-])")


def _breakable(text):
    """Escaped ``text`` with each dotted name wrapped in ``<span class="id">`` and a ``<wbr>``
    after each of its dots: a narrow column breaks such a name only at a dot."""
    out, end = [], 0
    for match in _DOTTED.finditer(text):
        out.append(html.escape(text[end:match.start()]))
        name = html.escape(match.group(1)).replace(".", ".<wbr>")
        out.append(f'<span class="id">{name}</span>')
        end = match.end()
    out.append(html.escape(text[end:]))
    return "".join(out)


#: a name in backticks in a message or a setting (``no `initial` parameter``, an
#: InvalidParameterError's `theorem`): shown as code, not as backticks
_CODE = re.compile(r"`([^`]+)`")


def _inline(text, escape=_breakable):
    """``text`` through ``escape`` (by default :func:`_breakable`: ids break only at a dot),
    with its `code` spans as ``<code>``."""
    out, end = [], 0
    for match in _CODE.finditer(text):
        out.append(escape(text[end:match.start()]))
        out.append(f"<code>{escape(match.group(1))}</code>")
        end = match.end()
    out.append(escape(text[end:]))
    return "".join(out)


def _cell_html(value, code=False):
    text = fmt(value)
    if code:
        return f"<td><code>{html.escape(text)}</code></td>"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f'<td class="num">{html.escape(text)}</td>'
    status = text.split(" ", 1)[0] if isinstance(value, str) else None
    if status in _STATUSES and (text == status or text.startswith(status + " (")):
        return f'<td class="status-{status}">{html.escape(text)}</td>'
    return f"<td>{_inline(text)}</td>"


def _table_html(t):
    head = "".join(f"<th>{html.escape(c)}</th>" for c in t.columns)
    body = []
    for row in t.rows:
        cells = "".join(_cell_html(v, i in t.code_columns) for i, v in enumerate(row))
        body.append(f'<tr data-key="{html.escape(fmt(row[t.key]))}">{cells}</tr>')
    return (f'<table data-table="{html.escape(t.name)}"><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(body)}</tbody></table>")


def _block_html(b):
    if isinstance(b, Paragraph):
        if b.code:
            return f"<p><code>{html.escape(b.text)}</code></p>"
        return f"<p>{_inline(b.text, html.escape)}</p>"
    if isinstance(b, Table):
        return _table_html(b)
    if isinstance(b, FigureRef):
        return (f'<figure id="fig-{html.escape(b.name)}"><img src="figures/{html.escape(b.name)}.png" '
                f'alt="{html.escape(b.title)}">'
                f"<figcaption><b>{html.escape(b.title)}.</b> {html.escape(b.caption)} "
                f'(<a href="figures/{html.escape(b.name)}.svg">SVG</a>)</figcaption></figure>')
    raise TypeError(f"unknown block {b!r}")


def to_html(title, intro, sections, footer):
    """The self-contained page: inline CSS, no script, images under figures/."""
    parts = [f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
             f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
             f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>",
             f"<h1>{html.escape(title)}</h1>"]
    parts += [_block_html(b) for b in intro]
    ids = _section_ids(sections)
    if sections:
        items = "".join(f'<li><a href="#{i}">{html.escape(s.title)}</a></li>'
                        for s, i in zip(sections, ids))
        parts.append(f'<nav class="toc" aria-label="Contents"><b>Contents</b><ol>{items}</ol>'
                     "</nav>")
    for s, i in zip(sections, ids):
        parts.append(f'<section id="{i}"><h2>{html.escape(s.title)}</h2>')
        parts += [_block_html(b) for b in s.blocks]
        parts.append("</section>")
    parts.append(f"<footer>{html.escape(footer)}</footer></body></html>\n")
    return "\n".join(parts)


def _section_ids(sections):
    """One unique anchor per section (:func:`section_id`, numbered when titles repeat)."""
    ids, seen = [], {}
    for s in sections:
        base = section_id(s.title)
        seen[base] = seen.get(base, 0) + 1
        ids.append(base if seen[base] == 1 else f"{base}-{seen[base]}")
    return ids


#: characters that Markdown (CommonMark / GitHub) would read as markup or raw HTML: each is
#: shown literally when preceded by a backslash
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|&])")


def md_text(text):
    """``text`` as literal Markdown on one line: every character Markdown would read as markup
    or HTML (``<script>``, ``[a](b)``, ``|``, ``*``, ...) backslash-escaped, line breaks and
    other control characters as spaces. Rendered, it shows ``text`` as it is."""
    text = _CONTROL.sub(" ", str(text))
    return _MD_SPECIAL.sub(r"\\\1", text)


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _md_code(text):
    """``text`` as an inline code span: a backtick fence longer than any run of backticks
    in it, ``|`` escaped (GitHub tables split cells at it even inside code)."""
    text = _CONTROL.sub(" ", str(text))
    fence = "`" * (max((len(m) for m in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text.replace('|', chr(92) + '|')}{pad}{fence}"


def _block_md(b):
    if isinstance(b, Paragraph):
        if b.code:                  # an indented code block: nothing in it is markup
            lines = [_CONTROL.sub(" ", line) for line in b.text.splitlines() or [""]]
            return "".join(f"    {line}\n" for line in lines)
        return f"{md_text(b.text)}\n"
    if isinstance(b, Table):
        lines = ["| " + " | ".join(md_text(c) for c in b.columns) + " |",
                 "| " + " | ".join("---" for _ in b.columns) + " |"]
        for row in b.rows:
            cells = [_md_code(fmt(v)) if i in b.code_columns and v else md_text(fmt(v))
                     for i, v in enumerate(row)]
            lines.append("| " + " | ".join(cells) + " |")
        return "\n".join(lines) + "\n"
    if isinstance(b, FigureRef):
        name = _safe_file_name(b.name)
        return (f"![{md_text(b.title)}](figures/{name}.png)\n\n*{md_text(b.title)}.* "
                f"{md_text(b.caption)} ([SVG](figures/{name}.svg))\n")
    raise TypeError(f"unknown block {b!r}")


def _safe_file_name(name):
    """A figure's file stem, which must be a plain name (it is also a path under figures/)."""
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", name):
        raise ValueError(f"`name` of a figure must be a plain file name; got {name!r}.")
    return name


def to_markdown(title, intro, sections, footer):
    """The same document as GitHub Markdown (figures as relative PNG links), with the list of
    its sections after the introduction."""
    parts = [f"# {md_text(title)}\n"] + [_block_md(b) for b in intro]
    if sections:
        parts.append("Contents:\n\n" + "".join(
            f"{n}. {md_text(s.title)}\n" for n, s in enumerate(sections, 1)))
    for s in sections:
        parts.append(f"## {md_text(s.title)}\n")
        parts += [_block_md(b) for b in s.blocks]
    parts.append(f"---\n{md_text(footer)}\n")
    return "\n".join(parts)
