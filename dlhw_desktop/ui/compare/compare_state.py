"""What the Compare tab compares and how: its state, apart from its widgets.

``CompareState`` holds the comparison (``core.compare.Comparison``: parts, precision,
baseline), the chart kind, the bar metric, the scatter's x axis and the log scales; it
keeps them in the settings, looks parts up in the catalog once, words what an addition
did, and writes the spec table. ``CompareTab`` draws it and turns clicks into calls here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.compare.comparison import (
    MAX_PARTS,
    METRICS,
    AddResult,
    Comparison,
    write_atomic,
)
from dlhw_desktop.core.compare.presets import PRESETS_BY_NAME, resolve_preset
from dlhw_desktop.core.compare.scatter import SCATTER_X
from dlhw_desktop.core.compare.table import SpecTable, spec_table, table_csv, table_markdown
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part
from dlhw_desktop.ui.common.settings import AppSettings

CHART_KINDS: dict[str, str] = {"bars": "Bars", "normalised": "Normalised",
                               "derived": "Per $ and per watt", "scatter": "Whole catalog"}
LOG_SETTINGS = {"scatter": "compare/log", "normalised": "compare/log_normalised"}
"""The charts with a log-scale switch, and the setting each keeps it in."""


class CompareState:
    """The comparison and the way it is charted, kept across restarts."""

    def __init__(self, catalog: Catalog, settings: AppSettings,
                 priced: Callable[[Part], Part] | None = None) -> None:
        self.catalog = catalog
        self.settings = settings
        self._priced = priced or (lambda part: part)
        """The part with the user's price: the per-dollar figures use the price that counts."""
        self._parts: dict[str, Part] = {}
        self._all_accelerators: list[Part] | None = None
        stored = [i for i in settings.get("compare/part_ids") if isinstance(i, str)]
        self.comparison = Comparison(self.accelerator_ids(stored),
                                     settings.get("compare/precision"),
                                     settings.get("compare/baseline") or None)
        kind = settings.get("compare/chart")
        self.kind = kind if kind in CHART_KINDS else "bars"
        metric = settings.get("compare/metric")
        self.metric = metric if metric in METRICS else "throughput"
        x_key = settings.get("compare/scatter_x")
        self.scatter_x = x_key if x_key in SCATTER_X else "tdp"
        self.log = {kind: bool(settings.get(key)) for kind, key in LOG_SETTINGS.items()}
        self.comparison.subscribe(self._persist)

    # --- parts ----------------------------------------------------------------------------
    def parts(self) -> list[Part]:
        """The compared parts, in order (looked up once, then cached)."""
        missing = [i for i in self.comparison.ids if i not in self._parts]
        if missing:
            for part in self.catalog.get_many(missing):
                self._parts[part.id] = self._priced(part)
        return [self._parts[i] for i in self.comparison.ids if i in self._parts]

    def accelerators(self) -> list[Part]:
        """Every catalog accelerator (the scatter's points), read once."""
        if self._all_accelerators is None:
            self._all_accelerators = [self._priced(p) for p in self.catalog.parts(
                Category.ACCELERATOR, chips_only=True)]
        return self._all_accelerators

    def reprice(self, part_ids: Sequence[str]) -> None:
        """The user's price of these parts changed: they are looked up again."""
        for part_id in part_ids:
            self._parts.pop(part_id, None)
        self._all_accelerators = None

    def accelerator_ids(self, ids: Sequence[str]) -> list[str]:
        parts = self.catalog.get_many(list(ids))
        self._parts.update({p.id: self._priced(p) for p in parts})
        return [p.id for p in parts if p.category == Category.ACCELERATOR]

    def name(self, part_id: str) -> str:
        part = self._parts.get(part_id)
        return part.display_name if part else part_id

    def add(self, part_ids: Sequence[str]) -> tuple[AddResult, str]:
        """Add accelerators; the result and one message saying what happened."""
        ids = list(dict.fromkeys(part_ids))
        found = {p.id: self._priced(p) for p in self.catalog.get_many(ids)}
        self._parts.update(found)
        accelerators = [i for i in ids if i in found
                        and found[i].category == Category.ACCELERATOR]
        skipped = [i for i in ids if i not in accelerators]
        result = self.comparison.add(accelerators)
        lines: list[str] = []
        if result.added:
            lines.append("Added " + ", ".join(self.name(i) for i in result.added) + ".")
        if result.duplicates:
            lines.append("Already compared: "
                         + ", ".join(self.name(i) for i in result.duplicates) + ".")
        if result.rejected:
            lines.append(f"The comparison holds at most {MAX_PARTS} accelerators; not added: "
                         + ", ".join(self.name(i) for i in result.rejected)
                         + ". Remove one first.")
        if skipped:
            lines.append("Only accelerators can be compared; skipped "
                         + ", ".join(found[i].display_name if i in found else i
                                     for i in skipped) + ".")
        return result, " ".join(lines)

    def load_preset(self, name: str) -> tuple[list[str], str]:
        """Compare a preset's parts (those the catalog has); its ids and a message."""
        preset = PRESETS_BY_NAME[name]
        ids = resolve_preset(preset, lambda i: self.catalog.find(i) is not None)
        if preset.precision:
            self.comparison.set_precision(preset.precision)
        self.comparison.set_ids(ids)
        self.comparison.set_baseline(ids[0] if ids else None)
        return ids, f"Loaded “{preset.name}”: {preset.description}."

    # --- how it is charted ------------------------------------------------------------------
    def set_kind(self, kind: str) -> None:
        if kind not in CHART_KINDS:
            raise ValueError(f"unknown chart kind {kind!r}")
        self.kind = kind
        self.settings.set("compare/chart", kind)

    def set_metric(self, key: str | None) -> bool:
        """True when the bar metric changed."""
        if key is None or key not in METRICS or key == self.metric:
            return False
        self.metric = key
        self.settings.set("compare/metric", key)
        return True

    def set_scatter_x(self, key: str | None) -> bool:
        if key is None or key not in SCATTER_X or key == self.scatter_x:
            return False
        self.scatter_x = key
        self.settings.set("compare/scatter_x", key)
        return True

    def set_log(self, on: bool) -> str | None:
        """Switch the current chart's log scale; the chart kind that changed, if any."""
        kind = self.kind if self.kind in self.log else None
        if kind is None or self.log[kind] == on:
            return None
        self.log[kind] = on
        self.settings.set(LOG_SETTINGS[kind], on)
        return kind

    # --- the spec table -------------------------------------------------------------------
    def current_table(self) -> SpecTable:
        return spec_table(self.parts(), self.comparison.precision)

    def table_text(self, fmt: str) -> str:
        table = self.current_table()
        return table_csv(table) if fmt == "csv" else table_markdown(
            table, self.comparison.precision)

    def export_table_csv(self, path: str | Path) -> Path:
        return write_atomic(path, table_csv(self.current_table()))

    def export_table_markdown(self, path: str | Path) -> Path:
        return write_atomic(path, table_markdown(self.current_table(),
                                                 self.comparison.precision))

    def _persist(self, what: str) -> None:
        comparison = self.comparison
        if what == "parts":
            self.settings.set("compare/part_ids", list(comparison.ids))
        elif what == "precision":
            self.settings.set("compare/precision", comparison.precision)
        elif what == "baseline":
            self.settings.set("compare/baseline", comparison.baseline or "")
