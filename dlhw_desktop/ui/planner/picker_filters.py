"""The part picker's filters: a few figures per category that narrow the list as you type.

Text filters match a part of the value ("cors" finds Corsair, "ddr5" finds "DDR5; DDR4")
and offer the catalog's values to complete; number filters keep parts at or above what
was typed; the 80 PLUS filter keeps a tier and the better ones. The bar only says what
changed (``changed``); the picker debounces it like the search and runs the query.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QCompleter,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from dlhw_desktop.catalog.part_query import Filter
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.errors import CatalogError
from dlhw_desktop.core.fields import FIELDS_BY_NAME, Category
from dlhw_desktop.core.numbers import parse_number

FilterKind = Literal["text", "min", "tier"]
TIERS = ("White", "Bronze", "Silver", "Gold", "Platinum", "Titanium")
"""80 PLUS tiers, worst to best."""


@dataclass(frozen=True, slots=True)
class FilterSpec:
    field: str
    kind: FilterKind = "text"
    label: str = ""

    @property
    def text(self) -> str:
        if self.label:
            return self.label
        spec = FIELDS_BY_NAME[self.field]
        if self.kind == "min":
            return f"{spec.label} at least" + (f" ({spec.unit})" if spec.unit else "")
        return spec.label


VENDOR = FilterSpec("vendor")
CATEGORY_FILTERS: dict[Category | None, tuple[FilterSpec, ...]] = {
    None: (VENDOR,),
    Category.ACCELERATOR: (VENDOR, FilterSpec("memory_gb", "min"),
                           FilterSpec("form_factor")),
    Category.CPU: (VENDOR, FilterSpec("socket"), FilterSpec("cores", "min")),
    Category.MEMORY: (VENDOR, FilterSpec("memory_type", label="DDR type"),
                      FilterSpec("capacity_gb", "min")),
    Category.STORAGE: (VENDOR, FilterSpec("storage_kind"), FilterSpec("capacity_gb", "min")),
    Category.PSU: (VENDOR, FilterSpec("wattage_w", "min"),
                   FilterSpec("efficiency_rating", "tier", "80 PLUS tier at least"),
                   FilterSpec("psu_form_factor")),
    Category.COOLER: (VENDOR, FilterSpec("cooler_kind"),
                      FilterSpec("supported_sockets", label="Socket")),
    Category.MOTHERBOARD: (VENDOR, FilterSpec("socket"), FilterSpec("chipset"),
                           FilterSpec("board_form_factor")),
    Category.CASE: (VENDOR, FilterSpec("case_kind"), FilterSpec("max_gpu_length_mm", "min")),
    Category.CLOUD: (FilterSpec("provider"), FilterSpec("accelerator_count", "min")),
    Category.SERVER: (VENDOR, FilterSpec("gpu_form_factor"), FilterSpec("gpu_count", "min")),
}


def parse_min(text: str, unit: str = "") -> float | None:
    """``"1,000"``, ``"1.5k"`` or ``"850 W"`` -> 1000.0 / 1500.0 / 850.0 (the one number
    reading of ``core.numbers``); ``None`` for empty; ``ValueError`` for anything else."""
    if not text.strip():
        return None
    value = parse_number(text, unit)
    if value is None:
        raise ValueError(text)
    return value


def to_filter(spec: FilterSpec, text: str) -> Filter | None:
    """The query filter for what was typed; ``None`` when empty; ``ValueError`` if bad."""
    text = text.strip()
    if not text or text == "Any":
        return None
    if spec.kind == "min":
        value = parse_min(text, FIELDS_BY_NAME[spec.field].unit)
        return None if value is None else Filter(spec.field, "ge", value)
    if spec.kind == "tier":
        if text not in TIERS:
            raise ValueError(text)
        return Filter(spec.field, "in", TIERS[TIERS.index(text):])
    return Filter(spec.field, "like", text[:100])


class FilterBar(QWidget):
    """A "Filters" toggle over a small form of the category's filters, with Clear."""

    changed = Signal()

    def __init__(self, catalog: Catalog, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("picker_filters")
        self.catalog = catalog
        self._category: Category | None = None
        self._values: dict[tuple[Category | None, str], str] = {}
        self._editors: dict[str, QLineEdit | QComboBox] = {}
        self._specs: tuple[FilterSpec, ...] = ()

        self.toggle = QToolButton(objectName="picker_filters_toggle")
        self.toggle.setCheckable(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.toggle.setToolTip("Show or hide the filters for this category")
        self.toggle.toggled.connect(self._show_form)
        self.clear_button = QPushButton("Clear filters", objectName="picker_clear_filters")
        self.clear_button.setToolTip("Remove every filter of this category")
        self.clear_button.clicked.connect(self.clear)
        self.form_box = QWidget(objectName="picker_filters_form")
        self.form = QFormLayout(self.form_box)
        self.form.setContentsMargins(0, 0, 0, 0)
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.form_box.hide()

        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.toggle)
        top.addStretch(1)
        top.addWidget(self.clear_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(top)
        layout.addWidget(self.form_box)
        self._update_toggle()

    # --- public API ---------------------------------------------------------------------
    def set_category(self, category: Category | None) -> None:
        """Show ``category``'s filters, with what was typed there before."""
        self._category = category
        while self.form.rowCount():
            self.form.removeRow(0)
        self._editors = {}
        self._specs = CATEGORY_FILTERS.get(category, CATEGORY_FILTERS[None])
        for spec in self._specs:
            editor = self._make_editor(spec)
            self._editors[spec.field] = editor
            self.form.addRow(spec.text, editor)
        self._update_toggle()

    def filters(self) -> tuple[Filter, ...]:
        """The filters that apply now; a bad entry is marked and left out."""
        result: list[Filter] = []
        for spec in self._specs:
            text = self._values.get((self._category, spec.field), "")
            try:
                flt = to_filter(spec, text)
            except ValueError:
                continue
            if flt is not None:
                result.append(flt)
        return tuple(result)

    def active(self) -> int:
        return len(self.filters())

    def set_value(self, field: str, text: str) -> None:
        """Type ``text`` into ``field``'s filter (as a user would)."""
        editor = self._editors[field]
        if isinstance(editor, QComboBox):
            editor.setCurrentText(text)
        else:
            editor.setText(text)

    def clear(self) -> None:
        had = self.active()
        for key in [k for k in self._values if k[0] == self._category]:
            del self._values[key]
        for editor in self._editors.values():
            editor.blockSignals(True)
            if isinstance(editor, QComboBox):
                editor.setCurrentIndex(0)
            else:
                editor.clear()
                editor.setToolTip("")
                editor.setStyleSheet("")
            editor.blockSignals(False)
        self._update_toggle()
        if had:
            self.changed.emit()

    # --- internals ----------------------------------------------------------------------
    def _make_editor(self, spec: FilterSpec) -> QLineEdit | QComboBox:
        name = f"picker_filter_{spec.field}"
        value = self._values.get((self._category, spec.field), "")
        if spec.kind == "tier":
            combo = QComboBox(objectName=name)
            combo.addItems(["Any", *TIERS])
            combo.setCurrentText(value or "Any")
            combo.currentTextChanged.connect(lambda text, s=spec: self._edited(s, text))
            return combo
        edit = QLineEdit(objectName=name)
        edit.setClearButtonEnabled(True)
        edit.setText(value)
        if spec.kind == "min":
            edit.setPlaceholderText("any")
        else:
            edit.setPlaceholderText("any (type a part of it)")
            values = self._distinct(spec.field)
            if values:
                completer = QCompleter(values, edit)
                completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
                completer.setFilterMode(Qt.MatchFlag.MatchContains)
                edit.setCompleter(completer)
        edit.textChanged.connect(lambda text, s=spec: self._edited(s, text))
        return edit

    def _distinct(self, field: str) -> list[str]:
        if self._category is None:
            return []
        try:
            return self.catalog.distinct(self._category, field)[:500]
        except CatalogError:
            return []

    def _edited(self, spec: FilterSpec, text: str) -> None:
        self._values[(self._category, spec.field)] = text
        editor = self._editors.get(spec.field)
        if isinstance(editor, QLineEdit):
            try:
                to_filter(spec, text)
            except ValueError:
                editor.setStyleSheet("QLineEdit { border: 1px solid palette(highlight); }")
                editor.setToolTip(f"“{text}” is not a number; this filter is left out")
            else:
                editor.setStyleSheet("")
                editor.setToolTip("")
        self._update_toggle()
        self.changed.emit()

    def _show_form(self, shown: bool) -> None:
        self.form_box.setVisible(shown)
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)

    def _update_toggle(self) -> None:
        count = self.active() if self._specs else 0
        self.toggle.setText(f"Filters ({count})" if count else "Filters")
        self.clear_button.setEnabled(count > 0)
