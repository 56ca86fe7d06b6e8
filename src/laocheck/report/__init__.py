"""Reports: bound against empirical, the verification catalog and KS15's ρ, as a self-contained
HTML page with matplotlib figures, a Markdown page and a JSON file of every number shown.

Rendering only: the numbers come from :mod:`laocheck.experiments` (sweeps, step tuning, ρ), from
the catalog's :class:`laocheck.checks.CheckRecord` and from :mod:`laocheck.bounds` through them.
A report is a TOML spec (the standard ones are installed in ``laocheck/report/specs/``,
``laocheck.report._spec``) whose ``kind`` names one of :data:`KINDS`; :func:`build_report`
writes ``<out>/<name>/``: ``index.html``, ``report.md``, ``report.json`` (with
``laocheck._provenance.provenance``) and ``figures/*.png``, ``*.svg``, into a temporary
directory beside the target that replaces it only when complete
(``laocheck._io.atomic_directory``).
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass, replace
from pathlib import Path

from .. import __version__
from .._io import atomic_directory, child_path, write_json_atomic, write_text_atomic
from .._provenance import provenance
from ..effort import NOVALUE, resolve
from ..exceptions import InvalidParameterError
from ..experiments.user_learners import load_learner
from ._context import Context, run_checks_serially, stderr_progress
from ._document import Paragraph, fmt, to_html, to_markdown
from ._spec import SPECS_DIR, ReportSpec, find_specs, load_spec
from ._style import save
from . import bounds, paper, rho, verification
from .verification import VERIFY_SCHEMA

__all__ = ["SPECS_DIR", "KINDS", "VERIFY_SCHEMA", "check_report_target", "is_report_dir", "Context", "ReportSpec", "BuiltReport", "build_report", "find_specs",
           "load_spec", "run_checks_serially", "stderr_progress", "fmt"]

#: the renderers a spec's ``kind`` can name
KINDS = {"bounds": bounds, "verification": verification, "rho": rho, "paper": paper}


@dataclass(frozen=True)
class BuiltReport:
    """A written report: its directory, the JSON document and the figures drawn.

    Parameters
    ----------
    path : pathlib.Path
        The report's directory.
    doc : dict
        The document written to ``report.json``.
    figures : tuple
        The (FigureRef, matplotlib Figure, data) triples, kept for inspection.
    """

    path: Path
    doc: dict
    figures: tuple


def build_report(spec, out_dir, *, effort=None, ctx=None, from_doc=None, command=None,
                 budget=NOVALUE):
    """Collect the data of ``spec`` at an effort profile, render it and write
    ``out_dir/<name>/``.

    The directory holds ``index.html``, ``report.md``, ``report.json`` and ``figures/``; it is
    written atomically and replaces only a directory holding a report (:func:`is_report_dir`).

    Parameters
    ----------
    spec : ReportSpec
        The report's spec (:func:`load_spec`).
    out_dir : str or os.PathLike
        The directory the report's directory is written in.
    effort : Effort, str or None, default=None
        The effort profile (:mod:`laocheck.effort`) or its name, with a table in the spec (or a
        parent with one); None: ``ctx.effort`` (``"fast"`` without ``ctx``). The report reads
        the one profile of ``ctx``: giving both is refused unless they are the same profile.
    ctx : Context or None, default=None
        Seed, effort, workers, progress and runner; None: ``Context(effort=effort)``.
    from_doc : dict or None, default=None
        A ``laocheck verify --json`` document to report instead of running the checks
        (verification reports only).
    command : str or None, default=None
        The command line recorded in the provenance.
    budget : str, optional
        Deprecated spelling of ``effort`` (a :class:`DeprecationWarning`).

    Returns
    -------
    BuiltReport
        The directory, the document and the figures.

    Raises
    ------
    ValueError
        If ``effort`` has no table in the spec, a setting is missing or out of range, or the
        target exists and is not a report laocheck wrote.
    """
    if budget is not NOVALUE or effort is not None:
        effort = resolve(effort, budget=budget)
        if ctx is not None and ctx.effort != effort:
            raise InvalidParameterError(
                f"`effort` must be the profile of `ctx` ({ctx.effort.name!r}) or None; got "
                f"effort={effort.name!r}.")
    ctx = Context(effort=effort or "fast") if ctx is None else ctx
    if spec.source.get("learners"):           # a spec's [[learners]] tables
        ctx = replace(ctx, learners=tuple(ctx.learners) + tuple(
            load_learner(entry) for entry in spec.source["learners"]))
    module = KINDS[spec.kind]
    settings = spec.check_settings(ctx.effort, module.required)
    start = time.perf_counter()
    if spec.kind == "verification":
        data = module.collect(settings, ctx, from_doc=from_doc)
    else:
        data = module.collect(settings, ctx)
    intro, sections, figures, tables = module.render(data, settings)
    seconds = round(time.perf_counter() - start, 3)
    prov = provenance(seed=ctx.seed, effort=ctx.effort, command=command)
    target = child_path("name", out_dir, spec.name)
    with atomic_directory(target, replaceable=is_report_dir) as tmp:
        (tmp / "figures").mkdir()
        entries = []
        for ref, fig, fdata in figures:
            png, svg = save(fig, tmp / "figures", ref.name)
            entries.append({"name": ref.name, "title": ref.title, "caption": ref.caption,
                            "png": f"figures/{png}", "svg": f"figures/{svg}", "data": fdata})
        doc = {"report": spec.name, "title": spec.title, "kind": spec.kind,
               "description": spec.description, "effort": ctx.effort.name, "seed": ctx.seed,
               "seconds": seconds, "settings": settings, "provenance": prov, "data": data,
               "tables": [t.to_dict() for t in tables], "figures": entries}
        write_json_atomic(tmp / "report.json", _strict_json(doc))
        footer = (f"laocheck {__version__}, commit {prov['commit'] or 'unknown'}; seed "
                  f"{ctx.seed}, effort {ctx.effort.name}; {fmt(seconds)} s; command: {prov['command']}. "
                  "Every number on this page is in report.json.")
        intro = (*_description(spec), *intro)
        write_text_atomic(tmp / "index.html", to_html(spec.title, intro, sections, footer))
        write_text_atomic(tmp / "report.md", to_markdown(spec.title, intro, sections, footer))
    return BuiltReport(path=target, doc=doc, figures=tuple(figures))


def _strict_json(obj):
    """``obj`` with every non-finite float replaced as the experiments' results write them
    (NaN: None; ±inf: the strings "inf" and "-inf"), so that ``report.json`` is JSON as RFC 8259
    defines it (Python's ``json`` writes the non-standard NaN and Infinity, which JavaScript's
    ``JSON.parse`` and ``jq`` refuse)."""
    if isinstance(obj, dict):
        return {k: _strict_json(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_strict_json(v) for v in obj]
    if isinstance(obj, float) and not math.isfinite(obj):
        return None if math.isnan(obj) else ("inf" if obj > 0 else "-inf")
    return obj


#: the files of a written report directory (and ``figures/`` holding only *.png / *.svg)
REPORT_FILES = ("index.html", "report.md", "report.json")


def check_report_target(out_dir, name):
    """Where report ``name`` goes, ``out_dir/name``, checked before any work.

    One plain name inside ``out_dir``, and either new or a directory holding only a report
    (:func:`is_report_dir`); nothing there is touched.

    Parameters
    ----------
    out_dir : str or os.PathLike
        The output directory.
    name : str
        The report's name.

    Returns
    -------
    pathlib.Path
        ``out_dir/name``.

    Raises
    ------
    ValueError
        If ``name`` is not one plain name, or the target exists and is not a report laocheck
        wrote.
    """
    target = child_path("name", out_dir, name)
    if os.path.lexists(target) and (target.is_symlink() or not target.is_dir()
                                    or not is_report_dir(target)):
        raise InvalidParameterError(
            f"`--out` {str(out_dir)!r}: {str(target)!r} exists and is not a report laocheck "
            "wrote (a file, a link, or a directory with other files): it is left alone; remove "
            "it or choose another --out.")
    return target


def is_report_dir(path):
    """Whether ``path`` holds only what :func:`build_report` writes.

    Its three files and ``figures/*.png``, ``*.svg``, all regular files, no links: only such a
    directory is replaced by a new report; anything else there is never deleted.

    Parameters
    ----------
    path : str or os.PathLike
        A directory.

    Returns
    -------
    bool
        True for a report directory (False also when it cannot be read).
    """
    path = Path(path)
    try:
        for entry in os.scandir(path):
            if entry.is_symlink():
                return False
            if entry.name == "figures" and entry.is_dir(follow_symlinks=False):
                for fig in os.scandir(entry.path):
                    if fig.is_symlink() or not fig.is_file(follow_symlinks=False) or \
                            not fig.name.endswith((".png", ".svg")):
                        return False
            elif entry.name not in REPORT_FILES or not entry.is_file(follow_symlinks=False):
                return False
    except OSError:
        return False
    return True


def _description(spec):
    return (Paragraph(spec.description),) if spec.description else ()
