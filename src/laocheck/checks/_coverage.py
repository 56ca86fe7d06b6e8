"""The proof inventory: every displayed line of every proof and derivation of CB11, HK12 and
KS15, and what accounts for it.

The inventory ships with the package as data (``_proof_inventory/{cb11,hk12,ks15}.toml``), one
entry per displayed line (an equation, an inequality, one row of a chain), in printed order, with
the id ``<PAPER>.<Label>.proof.line<N>`` and the line as printed (LaTeX of the text
extraction). Each line has either the ids of the checks that verify it (``checks``) or one
reason of the closed list :data:`REASONS`:

* ``definition`` (``detail``: what it defines);
* ``restatement`` of a checked statement (``of``: the check id of that statement);
* ``sympy``: algebra verified by sympy in a check (``check``: its id);
* ``follows`` from earlier lines of the same proof (``from``: their numbers) by a named rule
  (``rule``);
* ``prose`` (``detail``): not a mathematical claim.

``instance_dependent`` marks a line whose truth depends on the instance (an inequality between
random quantities, a bound with constants): such a line should have a check of its own.
:func:`problems` lists every entry that breaks these rules (the test suite asserts there are
none); :func:`coverage` and :func:`coverage_table` summarise the inventory per paper and per
proof (``laocheck list --proof-coverage``).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from importlib import resources

from ..exceptions import InvalidParameterError
from ._registry import checks as _catalog

__all__ = ["REASONS", "PAPERS", "ProofLine", "inventory", "problems", "coverage",
           "coverage_table"]

#: The closed list of reasons a line may carry instead of check ids.
REASONS = ("definition", "restatement", "sympy", "follows", "prose")

#: The papers of the inventory, in the order of the tables.
PAPERS = ("CB11", "HK12", "KS15")


@dataclass(frozen=True)
class ProofLine:
    """One displayed line of a proof: ``id``, ``paper``, ``proof`` (the label), ``number``
    (its position in the proof, from 1), ``latex`` (as printed), ``checks`` (ids) or ``reason``
    with its fields (``detail``, ``of``, ``check``, ``sources``, ``rule``), and
    ``instance_dependent``."""

    id: str
    paper: str
    proof: str
    number: int
    latex: str
    instance_dependent: bool
    checks: tuple = ()
    reason: str | None = None
    detail: str = ""
    of: str = ""
    check: str = ""
    sources: tuple = ()
    rule: str = ""

    @property
    def checked(self):
        return bool(self.checks)


def _read(paper):
    text = resources.files(__package__).joinpath("_proof_inventory", f"{paper.lower()}.toml") \
        .read_text(encoding="utf-8")
    data = tomllib.loads(text)
    out = []
    for raw in data["lines"]:
        ident = raw["id"]
        number = int(ident.rsplit(".line", 1)[1])
        out.append(ProofLine(
            id=ident, paper=data["paper"], proof=raw["proof"], number=number, latex=raw["latex"],
            instance_dependent=bool(raw.get("instance_dependent", False)),
            checks=tuple(raw.get("checks", ())), reason=raw.get("reason"),
            detail=raw.get("detail", ""), of=raw.get("of", ""), check=raw.get("check", ""),
            sources=tuple(raw.get("from", ())), rule=raw.get("rule", "")))
    return out


def inventory(paper=None):
    """The inventory's lines of the papers' proofs, of one paper or of all.

    Each line of a displayed proof, with whether a check covers it and which.

    Parameters
    ----------
    paper : {"CB11", "HK12", "KS15"} or None, default=None
        The paper; None: all three.

    Returns
    -------
    list
        The lines, in printed order.

    Raises
    ------
    ValueError
        If ``paper`` is not one of the three.
    """
    if paper is not None and paper not in PAPERS:
        raise InvalidParameterError(f"`paper` must be one of {PAPERS}; got paper={paper!r}.")
    return [line for p in ((paper,) if paper else PAPERS) for line in _read(p)]


def problems(lines=None, known_ids=None):
    """Every rule the inventory breaks, one message per problem (empty when it is sound):
    a line with neither check ids nor a reason, or with both; a reason outside :data:`REASONS`;
    a check id that is not in the catalog; a ``follows`` that names no earlier line of its
    proof or no rule; ids that are not ``<PAPER>.<proof>.proof.line<N>`` numbered 1, 2, …"""
    lines = inventory() if lines is None else lines
    known = {c.id for c in _catalog()} if known_ids is None else set(known_ids)
    out = []
    seen, numbers = set(), {}
    for ln in lines:
        where = ln.id
        if ln.id in seen:
            out.append(f"{where}: duplicate id")
        seen.add(ln.id)
        if ln.id != f"{ln.paper}.{ln.proof}.proof.line{ln.number}":
            out.append(f"{where}: the id is not <paper>.<proof>.proof.line<N>")
        numbers.setdefault((ln.paper, ln.proof), []).append(ln.number)
        if not ln.latex.strip():
            out.append(f"{where}: no line as printed")
        if not ln.checks and ln.reason is None:
            out.append(f"{where}: neither check ids nor a reason")
        if ln.checks and ln.reason is not None:
            out.append(f"{where}: both check ids and a reason")
        for cid in ln.checks:
            if cid not in known:
                out.append(f"{where}: check id {cid!r} is not in the catalog")
        if ln.reason is None:
            continue
        if ln.reason not in REASONS:
            out.append(f"{where}: reason {ln.reason!r} is not one of {REASONS}")
        elif ln.reason == "restatement" and ln.of not in known:
            out.append(f"{where}: restatement of {ln.of!r}, which is not a check id")
        elif ln.reason == "sympy" and ln.check not in known:
            out.append(f"{where}: sympy in check {ln.check!r}, which is not a check id")
        elif ln.reason == "follows" and (not ln.sources or not ln.rule.strip() or
                                         any(not 1 <= n < ln.number for n in ln.sources)):
            out.append(f"{where}: follows needs earlier line numbers of its proof and a rule")
        elif ln.reason in ("definition", "prose") and not ln.detail.strip():
            out.append(f"{where}: a {ln.reason} needs a detail")
    for (paper, proof), nums in numbers.items():
        if nums != list(range(1, len(nums) + 1)):
            out.append(f"{paper}.{proof}: lines are not numbered 1..{len(nums)} in order")
    return out


def coverage(paper=None):
    """Per paper, per proof (in printed order): how many lines are checked and by which checks.

    Parameters
    ----------
    paper : {"CB11", "HK12", "KS15"} or None, default=None
        The paper; None: all three.

    Returns
    -------
    dict
        ``{paper: {proof: {...}}}`` with ``lines``, ``checked``, ``reasoned``,
        ``instance_dependent``, ``instance_dependent_checked`` and the sorted ``check_ids``.

    Raises
    ------
    ValueError
        If ``paper`` is not one of the three.
    """
    out = {}
    for ln in inventory(paper):
        row = out.setdefault(ln.paper, {}).setdefault(ln.proof, {
            "lines": 0, "checked": 0, "reasoned": 0, "instance_dependent": 0,
            "instance_dependent_checked": 0, "check_ids": set()})
        row["lines"] += 1
        row["checked"] += ln.checked
        row["reasoned"] += not ln.checked
        row["instance_dependent"] += ln.instance_dependent
        row["instance_dependent_checked"] += ln.instance_dependent and ln.checked
        row["check_ids"].update(ln.checks)
    for proofs in out.values():
        for row in proofs.values():
            row["check_ids"] = sorted(row["check_ids"], key=_natural)
    return out


def _natural(text):
    """Sort key with numbers compared as numbers (``step9`` before ``step10``)."""
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", text)]


_COLS = ("lines", "checked", "reasoned", "instance_dependent", "instance_dependent_checked")
_HEAD = ("lines", "checked", "reasoned", "inst.-dep.", "inst.-dep. checked")


def coverage_table(*, markdown=False, with_ids=True):
    """The proof coverage as text: one table per paper and the check ids per proof.

    One row per proof and a total row.

    Parameters
    ----------
    markdown : bool, default=False
        Markdown tables (the docs' page is this rendering) instead of plain text.
    with_ids : bool, default=True
        Include the column of check ids.

    Returns
    -------
    str
        The tables.
    """
    cov = coverage()
    parts = []
    totals = {p: {c: sum(r[c] for r in cov.get(p, {}).values()) for c in _COLS} for p in PAPERS}
    if markdown:
        parts.append("### All papers\n")
        parts.append("| paper | proofs | " + " | ".join(_HEAD) + " |")
        parts.append("|---|---:|" + "|".join(["---:"] * len(_COLS)) + "|")
        for p in PAPERS:
            parts.append(f"| {p} | {len(cov.get(p, {}))} | " +
                         " | ".join(str(totals[p][c]) for c in _COLS) + " |")
        parts.append("")
    for paper in PAPERS:
        proofs = cov.get(paper, {})
        total = {c: sum(r[c] for r in proofs.values()) for c in _COLS}
        rows = [(proof, *(r[c] for c in _COLS), ", ".join(r["check_ids"]))
                for proof, r in proofs.items()]
        rows.append(("total", *(total[c] for c in _COLS), ""))
        head = ("proof", *_HEAD) + (("check ids",) if with_ids else ())
        if markdown:
            parts.append(f"### {paper}\n")
            parts.append("| " + " | ".join(head) + " |")
            parts.append("|" + "|".join(["---"] + ["---:"] * len(_COLS) +
                                         (["---"] if with_ids else [])) + "|")
            for r in rows:
                cells = [f"`{r[0]}`" if r[0] != "total" else "**total**",
                         *(str(v) for v in r[1:6])]
                if with_ids:
                    cells.append(", ".join(f"`{i}`" for i in r[6].split(", ")) if r[6] else "")
                parts.append("| " + " | ".join(cells) + " |")
            parts.append("")
        else:
            width = max(len(r[0]) for r in rows) + 2
            parts.append(f"{paper}")
            parts.append(f"  {'proof':<{width}}" + "".join(f"{h:>12}" for h in _HEAD[:3]) +
                         f"{'inst.-dep.':>12}{'checked':>9}")
            for r in rows:
                parts.append(f"  {r[0]:<{width}}" + "".join(f"{v:>12}" for v in r[1:5]) +
                             f"{r[5]:>9}")
                if with_ids and r[6]:
                    parts.append(f"      checks: {r[6]}")
            parts.append("")
    return "\n".join(parts).rstrip() + "\n"
