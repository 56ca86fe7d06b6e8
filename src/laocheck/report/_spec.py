"""Report specs: one TOML file per report (read with the standard library's ``tomllib``).

A spec names the report (``name``, ``title``, ``kind``: which renderer of
:data:`laocheck.report.KINDS` draws it), its ``[settings]`` (what to run and which figures and
tables to draw) and one ``[budgets.<budget>]`` table per budget whose keys override the
settings. The standard specs are installed with the package (:data:`SPECS_DIR`,
``laocheck/report/specs/``); ``laocheck report --specs DIR`` renders others.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ..exceptions import InvalidParameterError

__all__ = ["ReportSpec", "load_spec", "find_specs", "SPECS_DIR"]

#: The standard specs (bounds, verification, rho), installed with the package.
SPECS_DIR = Path(__file__).resolve().with_name("specs")


@dataclass(frozen=True)
class ReportSpec:
    name: str
    title: str
    kind: str
    description: str
    settings: dict
    budgets: dict
    path: str = ""
    source: dict = field(default_factory=dict, repr=False)

    def settings_for(self, budget):
        """The settings at ``budget``: ``[settings]`` updated by ``[budgets.<budget>]``."""
        if budget not in self.budgets:
            raise InvalidParameterError(
                f"`budget` must be one of {sorted(self.budgets)} for report {self.name!r}; "
                f"got budget={budget!r}.")
        return {**self.settings, **self.budgets[budget]}

    def check_settings(self, budget, required):
        """The settings at ``budget``, after checking that every key of ``required(settings)``
        is set."""
        settings = self.settings_for(budget)
        missing = [key for key in required(settings) if key not in settings]
        if missing:
            raise InvalidParameterError(
                f"spec {self.path or self.name!r} must set {', '.join(f'`{k}`' for k in missing)} "
                f"(in [settings] or [budgets.{budget}]) for a {self.kind} report.")
        return settings


def load_spec(path, kinds):
    """The :class:`ReportSpec` of the TOML file ``path``; ``kinds``: the known renderers."""
    path = Path(path)
    try:
        with open(path, "rb") as fh:
            doc = tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidParameterError(f"`spec` {str(path)!r} is not valid TOML: {exc}.") from None
    for key in ("name", "title", "kind"):
        if not isinstance(doc.get(key), str) or not doc[key]:
            raise InvalidParameterError(
                f"`spec` {str(path)!r} must set `{key}` to a non-empty string; got "
                f"{doc.get(key)!r}.")
    if doc["kind"] not in kinds:
        raise InvalidParameterError(
            f"`kind` of spec {str(path)!r} must be one of {sorted(kinds)}; got {doc['kind']!r}.")
    if doc["name"] != path.stem:
        raise InvalidParameterError(
            f"`name` of spec {str(path)!r} must equal its file name {path.stem!r}; got "
            f"{doc['name']!r}.")
    budgets = doc.get("budgets", {})
    if not isinstance(budgets, dict) or not budgets or not all(
            isinstance(v, dict) for v in budgets.values()):
        raise InvalidParameterError(
            f"`budgets` of spec {str(path)!r} must be at least one table [budgets.<name>].")
    return ReportSpec(name=doc["name"], title=doc["title"], kind=doc["kind"],
                      description=doc.get("description", ""), settings=doc.get("settings", {}),
                      budgets=budgets, path=str(path), source=doc)


def find_specs(directory, kinds, names=None):
    """The specs of ``directory`` (``*.toml``), by name; ``names`` selects (all by default)."""
    directory = Path(directory)
    if not directory.is_dir():
        raise InvalidParameterError(
            f"`specs` must be a directory of report specs (*.toml); got {str(directory)!r}, "
            "which does not exist.")
    specs = {p.stem: load_spec(p, kinds) for p in sorted(directory.glob("*.toml"))}
    if names:
        unknown = [n for n in names if n not in specs]
        if unknown:
            raise InvalidParameterError(
                f"`NAME` must be one of {sorted(specs)} (specs in {str(directory)!r}); got "
                f"{unknown}.")
        return [specs[n] for n in names]
    return list(specs.values())
