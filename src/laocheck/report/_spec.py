"""Report specs: one TOML file per report (read with the standard library's ``tomllib``).

A spec names the report (``name``, ``title``, ``kind``: which renderer of
:data:`laocheck.report.KINDS` draws it), its ``[settings]`` (what to run and which figures and
tables to draw) and one ``[effort.<profile>]`` table per effort profile (:mod:`laocheck.effort`)
whose keys override the settings; a profile without a table uses its parent's (a profile
registered with ``parent="full"`` uses ``[effort.full]``). The standard specs are installed with the package (:data:`SPECS_DIR`,
``laocheck/report/specs/``); ``laocheck report --specs DIR`` renders others.

A spec is data except for its ``[[learners]]`` tables: each names a factory
(``factory = "mypkg.learners:make"``) that laocheck imports and calls, so a spec that names a
learner runs that code, as a ``conftest.py`` does. The factory is checked when the spec is
loaded, before any work: a learner class (with ``fit``) or a function outside the standard
library taking ``random_state``, its ``params`` among its parameters
(:func:`laocheck.experiments.user_learners.check_factory`); anything else is refused with one
line naming the spec and the field.

A spec written before 0.1 names its tables ``[budgets.<name>]`` and may set
``checks_budget`` or ``experiment_budget``; they still work, with a :class:`DeprecationWarning`
(the tables are read as ``[effort.<name>]``; the two keys name the profile of the checks or of
the experiment in place of the report's).
"""

from __future__ import annotations

import math
import tomllib
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from .._files import (Int, List, Map, Obj, OneOf, Real, Schema, Str, read_text, show,
                      validate)
from .._io import MAX_NAME
from .._validation import check_memory
from ..effort import resolve
from ..exceptions import InvalidParameterError
from ..experiments.user_learners import load_learner

__all__ = ["ReportSpec", "load_spec", "find_specs", "SPECS_DIR"]

#: The standard specs (bounds, verification, rho), installed with the package.
SPECS_DIR = Path(__file__).resolve().with_name("specs")


#: Largest spec file read (bytes); the standard ones are about 2 KB.
MAX_SPEC_BYTES = 2**20
#: A report's name: its file name without .toml and the directory it is written to, so one
#: plain name (never '.', '..' or a path).
NAME_PATTERN = r"[A-Za-z0-9][A-Za-z0-9_-]{0,%d}" % (MAX_NAME - 1)
#: Largest d of a report (a row, the moments and an iterate are O(d) doubles: 8 MB at 10^6),
#: as ``laocheck bounds --d``
MAX_D = 10**6
#: Largest m (examples per run), R (runs) and the entries drawn per theorem R·m·d, as
#: ``laocheck bounds``
MAX_M, MAX_R, MAX_WORK = 10**9, 10**5, 10**11
#: Largest number of points of a curve, and of d × points (the ρ curve costs O(d) per point)
MAX_POINTS, MAX_CURVE_WORK = 10**4, 10**9


class _Plain(Schema):
    """Any TOML value of a setting: finite numbers, strings of at most 10,000 characters,
    lists of at most 10,000 entries, tables, nested at most 6 levels."""

    rule = ("be a finite number, a boolean, a string of at most 10000 characters, or a list "
            "or table of those (at most 10000 entries, 6 levels)")

    def check(self, value, field, depth=0):
        if depth > 6:
            self._bad(value, field)
        if isinstance(value, bool):
            return
        if isinstance(value, (int, float)):
            if not math.isfinite(value) or abs(value) > 2**63:
                self._bad(value, field)
            return
        if isinstance(value, str):
            if len(value) > 10_000:
                self._bad(value, field)
            return
        if isinstance(value, (list, dict)) and len(value) <= 10_000:
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for k, v in items:
                self.check(v, f"{field}.{k}" if isinstance(value, dict) else f"{field}[{k}]",
                           depth + 1)
            return
        self._bad(value, field)


_NAMES = List(Str(200), max_len=1000)
#: the settings with a type and a range (the size parameters bounded by what a run can do);
#: any other key must be a :class:`_Plain` value
SETTINGS = {
    "d": Int(1, MAX_D), "k": Int(1, MAX_D), "m": Int(1, MAX_M), "R": Int(1, MAX_R),
    "R_tune": Int(1, MAX_R), "R_eval": Int(1, MAX_R), "runs": Int(1, MAX_R),
    "curve_points": Int(2, MAX_POINTS),
    "curve_from": Real(-1000, 1000), "curve_to": Real(-1000, 1000),
    "alphas": List(Real(-1000, 1000), max_len=1000), "alpha": Real(-1000, 1000),
    "B": Real(1e-100, 1e100), "delta": Real(1e-300, 0.5),
    "m_values": List(Int(1, MAX_M), min_len=1, max_len=1000),
    "d_values": List(Int(1, MAX_D), min_len=1, max_len=1000),
    "k_values": List(Int(1, MAX_D), min_len=1, max_len=1000),
    "pairs": List(List(Int(0, 10**6), min_len=2, max_len=2), max_len=10_000),
    "figures": _NAMES, "tables": _NAMES, "theorems": _NAMES, "only": OneOf(Str(200), _NAMES),
    "errata": _NAMES, "scaling": _NAMES, "tune": _NAMES, "axes": _NAMES,
    "checks_budget": Str(50), "experiment_budget": Str(50), "experiment": Str(200),
    "dist": Str(50), "source": Str(50), "mnist": Str(4096), "covtype": Str(4096),
}
_SETTINGS = Obj(optional=SETTINGS, extra=_Plain())
_IDENTIFIER = Str(100, pattern=r"[A-Za-z_][A-Za-z0-9_]*", what="be a Python identifier")
#: a ``[[learners]]`` table: a user's learner run beside the papers' (its factory is code the
#: spec runs, checked by :func:`laocheck.experiments.user_learners.check_factory` on loading)
LEARNER_TABLE = Obj(
    required={"factory": Str(300, pattern=r"[A-Za-z_][A-Za-z0-9_.]*:[A-Za-z_][A-Za-z0-9_.]*",
                             what="be 'module.path:factory'")},
    optional={"name": Str(200), "params": Map(_IDENTIFIER, _Plain(), max_len=100),
              "grid": Map(_IDENTIFIER, List(Real(1e-300, 1e300), min_len=1, max_len=100),
                          max_len=20)},
    extra=None)
_TABLES = Map(Str(50, pattern=r"[A-Za-z0-9_-]+", what="be a plain name"), _SETTINGS,
              min_len=1, max_len=100)
#: the settings keys before 0.1 that named a profile for a part of a report (deprecated)
DEPRECATED_KEYS = {"checks_budget": "the report's effort profile (its `checks` tier)",
                   "experiment_budget": "the report's effort profile"}
SPEC_SCHEMA = Obj(
    required={"name": Str(MAX_NAME, pattern=NAME_PATTERN, what=(
        f"be a plain name: letters, digits, '_' or '-', starting with a letter or digit, at "
        f"most {MAX_NAME} characters")),
        "title": Str(500, pattern=r"[^\x00-\x1f]*\S[^\x00-\x1f]*", what=(
            "be a non-empty one-line string of at most 500 characters")),
        "kind": Str(50)},
    optional={"description": Str(20_000), "settings": _SETTINGS,
              "effort": _TABLES,
              "budgets": _TABLES,           # the tables' name before 0.1 (deprecated)
              "learners": List(LEARNER_TABLE, max_len=100)},
    extra=_Plain())


def _largest(settings, key, values_key):
    values = [settings[key]] if key in settings else []
    return max(values + list(settings.get(values_key, [])) or [1])


def check_sizes(settings, where):
    """The run sizes of ``settings`` within what a run can do: R·m·d <= MAX_WORK and d ×
    curve points <= MAX_CURVE_WORK, and the O(d) vectors within the available memory."""
    d = _largest(settings, "d", "d_values")
    m = _largest(settings, "m", "m_values")
    R = max(settings.get(key, 1) for key in ("R", "R_tune", "R_eval", "runs"))
    if R * m * d > MAX_WORK:
        raise InvalidParameterError(
            f"{where}: settings `R`, `m` and `d` must satisfy R·m·d <= {MAX_WORK:.0e} (the "
            f"entries drawn per theorem); got R={R}, m={m}, d={d}.")
    points = settings.get("curve_points", 0) + len(settings.get("alphas", ()))
    if d * points > MAX_CURVE_WORK:
        raise InvalidParameterError(
            f"{where}: settings `d` and `curve_points` must satisfy d × points <= "
            f"{MAX_CURVE_WORK:.0e} (a point costs O(d)); got d={d}, curve_points="
            f"{settings.get('curve_points')}.")
    check_memory("d", d, 64 * 8 * d)      # tens of O(d) float vectors per run


@dataclass(frozen=True)
class ReportSpec:
    """A report spec: the TOML file that names a report, its renderer and its settings per effort
    profile.

    Read by :func:`load_spec`; :meth:`settings_for` gives the settings at one profile.

    Parameters
    ----------
    name : str
        The report's name (the file name without ``.toml``).
    title : str
        The title of the report.
    kind : str
        The renderer, a key of :data:`KINDS`.
    description : str
        A paragraph shown under the title.
    settings : dict
        The ``[settings]`` table.
    effort_tables : dict
        ``[effort.<name>]`` tables, each updating the settings at the profile of that name.
    path : str, default=''
        The file the spec was read from.
    source : dict, optional
        The whole TOML document.
    """
    name: str
    title: str
    kind: str
    description: str
    settings: dict
    effort_tables: dict
    path: str = ""
    source: dict = field(default_factory=dict, repr=False)

    @property
    def budgets(self):
        """Deprecated: ``effort_tables``."""
        warnings.warn("`ReportSpec.budgets` is deprecated since laocheck 0.1 and will be removed "
                      "in the next release; use `ReportSpec.effort_tables` instead.",
                      DeprecationWarning, stacklevel=2)
        return self.effort_tables

    def table_for(self, effort):
        """The name of the ``[effort.<name>]`` table read at ``effort``: its own, else its
        parent's, and so on up (:meth:`laocheck.effort.Effort.lineage`)."""
        effort = resolve(effort)
        for name in effort.lineage():
            if name in self.effort_tables:
                return name
        raise InvalidParameterError(
            f"`effort` must be a profile with a table in report {self.name!r} (one of "
            f"{sorted(self.effort_tables)}, or a profile registered from one); got "
            f"effort={effort.name!r}.")

    def settings_for(self, effort):
        """The settings at ``effort`` (a profile or its name): ``[settings]`` updated by its
        ``[effort.<name>]`` table (:meth:`table_for`)."""
        return {**self.settings, **self.effort_tables[self.table_for(effort)]}

    def check_settings(self, effort, required):
        """The settings at ``effort``, after checking that every key of ``required(settings)``
        is set."""
        table = self.table_for(effort)
        settings = self.settings_for(effort)
        check_sizes(settings, f"spec {self.path or self.name!r} at effort {table!r}")
        missing = [key for key in required(settings) if key not in settings]
        if missing:
            raise InvalidParameterError(
                f"spec {self.path or self.name!r} must set {', '.join(f'`{k}`' for k in missing)} "
                f"(in [settings] or [effort.{table}]) for a {self.kind} report.")
        return settings


def load_spec(path, kinds):
    """The :class:`ReportSpec` of the TOML file ``path``.

    Parameters
    ----------
    path : str or os.PathLike
        The spec file; its name must equal the spec's ``name``.
    kinds : collection of str
        The known renderers (:data:`KINDS`).

    Returns
    -------
    ReportSpec
        The spec.

    Raises
    ------
    ValueError
        If the file cannot be read, is not valid TOML, breaks the spec schema, names an unknown
        ``kind``, or has no ``[effort.<name>]`` table.
    """
    path = Path(path)
    where = f"spec {show(str(path), 200)}"
    text = read_text(path, what="spec", limit=MAX_SPEC_BYTES)
    try:
        doc = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError) as exc:
        raise InvalidParameterError(
            f"{where} is not valid TOML: {show(str(exc), 200)}.") from None
    validate(doc, SPEC_SCHEMA, where)
    if doc["kind"] not in kinds:
        raise InvalidParameterError(
            f"`kind` of spec {str(path)!r} must be one of {sorted(kinds)}; got {doc['kind']!r}.")
    if doc["name"] != path.stem:
        raise InvalidParameterError(
            f"`name` of spec {str(path)!r} must equal its file name {path.stem!r}; got "
            f"{doc['name']!r}.")
    for i, entry in enumerate(doc.get("learners", ())):
        # the factory resolved and checked now, before any work: a learner class or a function
        # returning one, its params among its parameters (logging:basicConfig is refused)
        try:
            load_learner(entry)
        except InvalidParameterError as exc:
            raise InvalidParameterError(
                f"{where}: field `learners[{i}].factory`: {exc}") from None
    tables = doc.get("effort", {})
    if "budgets" in doc:                         # the spelling before 0.1
        warnings.warn(f"{where}: `[budgets.<name>]` tables are deprecated since laocheck 0.1 "
                      "and will be refused in the next release; use `[effort.<name>]` "
                      "instead.", DeprecationWarning, stacklevel=2)
        if tables:
            raise InvalidParameterError(
                f"{where} must not have both [effort.<name>] and [budgets.<name>] tables.")
        tables = doc["budgets"]
    used = sorted({key for table in (doc.get("settings", {}), *tables.values())
                   for key in table if key in DEPRECATED_KEYS})
    for key in used:
        warnings.warn(f"{where}: the setting `{key}` is deprecated since laocheck 0.1 and will "
                      f"be refused in the next release; {DEPRECATED_KEYS[key]} is used when "
                      "it is left out.", DeprecationWarning, stacklevel=2)
    if not tables:
        raise InvalidParameterError(
            f"`effort` of spec {str(path)!r} must be at least one table [effort.<name>].")
    return ReportSpec(name=doc["name"], title=doc["title"], kind=doc["kind"],
                      description=doc.get("description", ""), settings=doc.get("settings", {}),
                      effort_tables=tables, path=str(path), source=doc)


def find_specs(directory, kinds, names=None):
    """The specs of ``directory`` (``*.toml``), by name.

    Parameters
    ----------
    directory : str or os.PathLike
        A directory of spec files.
    kinds : collection of str
        The known renderers (:data:`KINDS`).
    names : list of str or None, default=None
        The specs to read (only those are read); None: all.

    Returns
    -------
    list of ReportSpec
        The specs, in the order of ``names`` or of the file names.

    Raises
    ------
    ValueError
        If ``directory`` does not exist, a name has no spec, or a spec read is invalid.
    """
    directory = Path(directory)
    if not directory.is_dir():
        raise InvalidParameterError(
            f"`specs` must be a directory of report specs (*.toml); got {str(directory)!r}, "
            "which does not exist.")
    files = {p.stem: p for p in sorted(directory.glob("*.toml"))}
    if names:               # only the named specs are read (a broken other one is no matter)
        unknown = [n for n in names if n not in files]
        if unknown:
            raise InvalidParameterError(
                f"`NAME` must be one of {sorted(files)} (specs in {str(directory)!r}); got "
                f"{[show(n) for n in unknown]}.")
        return [load_spec(files[n], kinds) for n in names]
    return [load_spec(p, kinds) for p in files.values()]
