"""What each verdict rests on, and what it would need: given to the results by the runner.

- ``basis``: the figures a result used, each with its kind (vendor, measured, estimated,
  derived, your figure). A check that knows better (the cooling check's estimated cooler
  capacity, a card's connectors derived from its board power) sets its own; otherwise
  the figures a result reports that are a figure of one of its parts are read off them.
- ``needs``: the (part id, field) pairs ``missing`` named while the check ran and whose
  words are in the result's message, so the app can offer "Enter it…" for each.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from dlhw_desktop.core.fields import field_label, fields_for
from dlhw_desktop.core.parts import Part, format_value
from dlhw_desktop.core.verdict import CheckResult, FigureKind, FigureUse


def use(part: Part, field: str, value: str | None = None,
        kind: FigureKind | None = None) -> FigureUse:
    """One figure of a part as a check used it (its own kind unless the check says)."""
    label = field_label(field)
    shown = value if value is not None else format_value(field, part.get(field))
    figure_kind: FigureKind = kind or part.figure_kind(field)  # type: ignore[assignment]
    source = part.source_of(field)
    return FigureUse(part.id, part.display_name, field, label, shown, figure_kind,
                     source.source)


_NAMES: dict[str, frozenset[str]] = {}


def _field_names(part: Part) -> frozenset[str]:
    names = _NAMES.get(part.category)
    if names is None:
        names = _NAMES[part.category] = frozenset(s.name for s in fields_for(part.category))
    return names


def completed(result: CheckResult, parts: Mapping[str, Part],
              named: Iterable[tuple[Part, str]]) -> CheckResult:
    """The result with its basis (read off its figures when the check set none) and the
    figures it needs (those ``missing`` named that its message mentions)."""
    basis = result.basis
    if not basis and result.figures:
        found: list[FigureUse] = []
        for part_id in result.part_ids:
            part = parts.get(part_id)
            if part is None:
                continue
            fields = _field_names(part)
            for key, value in result.figures.items():
                if value is not None and key in fields and part.get(key) is not None:
                    found.append(use(part, key))
        basis = tuple(found)
    needs = result.needs
    if not needs and result.status != "pass":
        wanted: dict[tuple[str, str], None] = {}
        for part, field in named:
            if f"{field_label(field)} of {part.display_name}" in result.message:
                wanted[(part.id, field)] = None
        needs = tuple(wanted)
    if basis is result.basis and needs is result.needs:
        return result
    return replace(result, basis=basis, needs=needs)


def basis_text(result: CheckResult, notable_only: bool = False) -> str:
    """``"Core i9-13900K sustained power 253 W (vendor); ... heat capacity 95 W (your
    figure)"``: what a verdict rests on, in one line ("" when nothing is recorded).
    ``notable_only``: "" for a verdict that rests on makers' figures alone (a printed
    sheet says that once: figures are the makers' unless a check says otherwise)."""
    if notable_only and all(u.kind == "vendor" for u in result.basis):
        return ""
    return "; ".join(dict.fromkeys(u.describe() for u in result.basis))


def needs_text(result: CheckResult, names: Mapping[str, str]) -> list[str]:
    """``["rated heat capacity of Noctua NH-L9i", ...]``: each figure the result lacks
    (``names``: display names by part id)."""
    return [f"{field_label(field)} of {names.get(part_id, part_id)}"
            for part_id, field in result.needs]
