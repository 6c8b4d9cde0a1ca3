"""The build as a Qt item model: slot rows with their parts, quantities, prices, power.

It reads the Build and redraws from the adapter's signals only (``BuildAdapter``); the
tab sets its decorations (highlighted parts, worst check per part). ``build_view`` draws
it and turns edits into signals.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import (
    QColor,
    QFont,
    QGuiApplication,
    QPalette,
)

from dlhw_desktop.core.build.build import Build, BuildItem, Slot, quantity_limit
from dlhw_desktop.core.build.buildfile import is_placeholder
from dlhw_desktop.core.checks import STATUS_RANK
from dlhw_desktop.core.checks.cpu_power import cpu_power
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.formatting import price_range_text
from dlhw_desktop.core.parts import Part, format_value
from dlhw_desktop.core.prices.kinds import price_hover
from dlhw_desktop.ui.common.part_table_model import PART_ROLE
from dlhw_desktop.ui.common.status_icons import status_colour, status_icon
from dlhw_desktop.ui.planner.build_adapter import BuildAdapter

Index = QModelIndex | QPersistentModelIndex
COLUMNS = ("Part", "Qty", "Price each", "Power")
NAME, QTY, PRICE, POWER = range(len(COLUMNS))
SLOT_ROLE = Qt.ItemDataRole.UserRole + 2
HIGHLIGHT_ROLE = Qt.ItemDataRole.UserRole + 3
SUBTITLE_ROLE = Qt.ItemDataRole.UserRole + 4
"""The muted second line under a part's name (its key figures), or an empty slot's hint."""
LOCAL_SLOTS: tuple[Slot, ...] = tuple(s for s in Slot if s is not Slot.CLOUD)
MAX_QUANTITY = 64

_EMPTY_HINT = {
    Slot.CPU: "choose a CPU", Slot.MOTHERBOARD: "choose a motherboard",
    Slot.MEMORY: "add memory kits", Slot.ACCELERATOR: "add GPUs or other accelerators",
    Slot.STORAGE: "add drives", Slot.PSU: "choose a power supply",
    Slot.COOLER: "choose a CPU cooler", Slot.CASE: "choose a case",
}


def _fv(part: Part, name: str) -> str | None:
    value = part.get(name)
    return None if value is None or value == "" else format_value(name, value)


def key_figures(part: Part) -> str:
    """One line of the figures a buyer looks at first; unknown figures are left out."""
    c = part.category
    bits: list[str | None] = []
    if c is Category.ACCELERATOR:
        bf16 = part.number("bf16_tensor_tflops")
        width = part.number("slot_width")
        bits = [_fv(part, "memory_gb"), f"BF16 {bf16:,.0f} TFLOPS" if bf16 else None,
                f"{width:g}-slot" if width else None, _fv(part, "cooling"),
                _fv(part, "board_length_mm")]
    elif c is Category.SERVER:
        gpus = part.number("gpu_count")
        bits = [part.text("baseboard") or None,
                f"{gpus:.0f}x {_fv(part, 'gpu_form_factor') or 'GPU'}" if gpus else None,
                _fv(part, "max_power_w"), _fv(part, "rack_units")]
    elif c is Category.CPU:
        cores, threads = part.number("cores"), part.number("threads")
        lanes = part.number("pcie_lanes")
        bits = [f"{cores:.0f} cores / {threads:.0f} threads" if cores and threads else None,
                part.text("socket") or None, f"{lanes:.0f} PCIe lanes" if lanes else None,
                f"{part.number('memory_channels'):.0f}-ch memory"
                if part.number("memory_channels") else None]
    elif c is Category.MOTHERBOARD:
        slots = part.number("pcie_x16_slots")
        bits = [part.text("socket") or None, part.text("chipset") or None,
                part.text("memory_type") or None,
                f"{slots:.0f}x PCIe x16" if slots else None,
                f"{part.number('memory_slots'):.0f} DIMM slots"
                if part.number("memory_slots") else None,
                part.text("board_form_factor") or None]
    elif c is Category.MEMORY:
        registered = part.get("registered")
        bits = [_fv(part, "capacity_gb"),
                f"{part.number('modules'):.0f} x {part.number('module_size_gb'):.0f} GB"
                if part.number("modules") and part.number("module_size_gb") else None,
                part.text("memory_type") or None, _fv(part, "speed_mt_s"),
                None if registered is None else ("RDIMM" if registered else "UDIMM")]
    elif c is Category.STORAGE:
        read = part.number("read_mb_s")
        bits = [_fv(part, "capacity_gb"), _fv(part, "storage_kind"),
                f"read {read:,.0f} MB/s" if read else None]
    elif c is Category.PSU:
        hpwr = part.number("connectors_12vhpwr")
        bits = [part.text("efficiency_rating") or None,
                f"ATX {part.text('atx_version')}" if part.text("atx_version") else None,
                f"{hpwr:.0f}x 16-pin" if hpwr is not None else None]
    elif c is Category.COOLER:
        bits = [_fv(part, "cooler_kind"),
                f"measured {_fv(part, 'measured_capacity_w')}"
                if part.get("measured_capacity_w") else None,
                f"rated {_fv(part, 'cooling_capacity_w')}"
                if part.get("cooling_capacity_w") else None,
                f"{_fv(part, 'height_mm')} tall" if part.get("height_mm") else None,
                part.text("supported_sockets") or None]
    elif c is Category.CASE:
        gpu = part.number("max_gpu_length_mm")
        bits = [_fv(part, "case_kind"),
                f"{part.number('expansion_slots'):.0f} expansion slots"
                if part.number("expansion_slots") else None,
                f"GPUs up to {gpu:.0f} mm" if gpu else None]
    elif c is Category.CLOUD:
        bits = [part.text("provider") or None, _fv(part, "price_per_hour_usd")]
    return " · ".join(b for b in bits if b)


def power_text(part: Part) -> str:
    if part.category is Category.CPU:  # as drawn under load (PL2/PPT), as the checks count it
        drawn = cpu_power(part)
        return format_value("tdp_w", drawn.watts) if drawn is not None else "n/a"
    if part.category is Category.ACCELERATOR:
        return _fv(part, "tdp_w") or "n/a"
    if part.category is Category.STORAGE:
        return _fv(part, "power_w") or ""
    if part.category is Category.PSU:
        rated = _fv(part, "wattage_w")
        return f"{rated} out" if rated else "n/a"
    return ""


class BuildModel(QAbstractItemModel):
    """Slot rows (top level) holding part rows; the cloud slot shows only when used."""

    quantity_edit_requested = Signal(str, int)  # part id, new quantity
    price_edit_requested = Signal(str, str)  # part id, the price as typed ("" clears it)

    def __init__(self, adapter: BuildAdapter, parent: Any = None) -> None:
        super().__init__(parent)
        self._adapter = adapter
        self._build: Build = adapter.build
        self._slots: list[Slot] = []
        self._items: dict[Slot, tuple[BuildItem, ...]] = {}
        self._issues: dict[str, tuple[str, tuple[str, ...]]] = {}
        self._highlight: dict[str, str] = {}
        self._drop_slots: set[Slot] = set()
        self._muted = QColor(128, 128, 128)
        self._reload()
        adapter.part_added.connect(self._on_added)
        adapter.part_removed.connect(self._on_removed)
        adapter.part_replaced.connect(self._on_row_changed)
        adapter.quantity_changed.connect(self._on_quantity)
        adapter.reset.connect(self._on_reset)

    # --- state read from the build ------------------------------------------------
    def _reload(self) -> None:
        self._items = {slot: self._build.items(slot) for slot in Slot}
        self._slots = list(LOCAL_SLOTS) + ([Slot.CLOUD] if self._items[Slot.CLOUD] else [])

    def _slot_row(self, slot: Slot) -> int:
        return self._slots.index(slot)

    def _on_added(self, slot: Slot, index: int) -> None:
        if slot not in self._slots:
            self._on_reset()
            return
        row = self._slot_row(slot)
        self.beginInsertRows(self.index(row, 0), index, index)
        self._items[slot] = self._build.items(slot)
        self.endInsertRows()
        self._slot_changed(slot)

    def _on_removed(self, slot: Slot, index: int) -> None:
        if slot is Slot.CLOUD and len(self._items[slot]) == 1:
            self._on_reset()
            return
        row = self._slot_row(slot)
        self.beginRemoveRows(self.index(row, 0), index, index)
        self._items[slot] = self._build.items(slot)
        self.endRemoveRows()
        self._slot_changed(slot)

    def _on_row_changed(self, slot: Slot, index: int) -> None:
        self._items[slot] = self._build.items(slot)
        parent = self.index(self._slot_row(slot), 0)
        self.dataChanged.emit(self.index(index, 0, parent),
                              self.index(index, len(COLUMNS) - 1, parent))
        self._slot_changed(slot)

    def _on_quantity(self, slot: Slot, part_id: str) -> None:
        self._items[slot] = self._build.items(slot)
        rows = [i for i, item in enumerate(self._items[slot]) if item.part_id == part_id]
        for row in rows:
            self._on_row_changed(slot, row)

    def _on_reset(self) -> None:
        self.beginResetModel()
        self._reload()
        self.endResetModel()

    def _slot_changed(self, slot: Slot) -> None:
        row = self._slot_row(slot)
        self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))

    # --- decorations the tab sets ----------------------------------------------------
    def set_issues(self, issues: dict[str, tuple[str, tuple[str, ...]]]) -> None:
        """Per part id: the worst non-passing status of the checks naming it, and why."""
        if issues != self._issues:
            self._issues = issues
            self._all_parts_changed()

    def set_highlight(self, part_ids: Iterable[str], status: str = "unknown") -> None:
        """Tint the rows of these parts (the parts the selected check concerns)."""
        new = dict.fromkeys(part_ids, status)
        if new != self._highlight:
            self._highlight = new
            self._all_parts_changed()

    def highlighted_ids(self) -> tuple[str, ...]:
        return tuple(self._highlight)

    def set_drop_slots(self, slots: Iterable[Slot]) -> None:
        new = set(slots)
        if new != self._drop_slots:
            old, self._drop_slots = self._drop_slots, new
            for slot in old | new:
                if slot in self._slots:
                    self._slot_changed(slot)

    def _all_parts_changed(self) -> None:
        for row, slot in enumerate(self._slots):
            count = len(self._items[slot])
            if count:
                parent = self.index(row, 0)
                self.dataChanged.emit(self.index(0, 0, parent),
                                      self.index(count - 1, len(COLUMNS) - 1, parent))

    # --- lookups for views and tests ---------------------------------------------------
    def slot_index(self, slot: Slot) -> QModelIndex:
        return self.index(self._slot_row(slot), 0) if slot in self._slots else QModelIndex()

    def part_index(self, part_id: str, column: int = NAME) -> QModelIndex:
        for row, slot in enumerate(self._slots):
            for i, item in enumerate(self._items[slot]):
                if item.part_id == part_id:
                    return self.index(i, column, self.index(row, 0))
        return QModelIndex()

    def item_at(self, index: Index) -> BuildItem | None:
        if not index.isValid() or not index.internalId():
            return None
        slot = self._slots[index.internalId() - 1]
        items = self._items[slot]
        return items[index.row()] if index.row() < len(items) else None

    def slot_at(self, index: Index) -> Slot | None:
        if not index.isValid():
            return None
        row = index.internalId() - 1 if index.internalId() else index.row()
        return self._slots[row] if row < len(self._slots) else None

    # --- Qt model API ------------------------------------------------------------------
    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        if column < 0 or column >= len(COLUMNS) or row < 0:
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, column, 0) if row < len(self._slots) else QModelIndex()
        if parent.internalId():
            return QModelIndex()
        slot = self._slots[parent.row()]
        if row >= len(self._items[slot]):
            return QModelIndex()
        return self.createIndex(row, column, parent.row() + 1)

    def parent(self, index: Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        if not index.isValid() or not index.internalId():
            return QModelIndex()
        return self.createIndex(index.internalId() - 1, 0, 0)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        if not parent.isValid():
            return len(self._slots)
        if parent.internalId() or parent.column() != 0:
            return 0
        return len(self._items[self._slots[parent.row()]])

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.ItemIsDropEnabled
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        item = self.item_at(index)
        if item is not None and index.column() == QTY and item.slot.allows_quantity:
            flags |= Qt.ItemFlag.ItemIsEditable
        if item is not None and index.column() == PRICE and item.slot is not Slot.CLOUD \
                and not is_placeholder(item.part):
            flags |= Qt.ItemFlag.ItemIsEditable  # your own quote, kept in your price book
        return flags

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        item = self.item_at(index)
        if item is None:
            return self._slot_data(index, role)
        return self._part_data(item, index.column(), role)

    def setData(self, index: Index, value: Any,
                role: int = Qt.ItemDataRole.EditRole) -> bool:
        item = self.item_at(index)
        if item is not None and index.column() == PRICE and role == Qt.ItemDataRole.EditRole:
            self.price_edit_requested.emit(item.part_id, str(value).strip())
            return True
        if item is None or index.column() != QTY or role != Qt.ItemDataRole.EditRole:
            return False
        quantity = int(value)
        if quantity != item.quantity and 1 <= quantity <= quantity_limit(item.part).most:
            self.quantity_edit_requested.emit(item.part_id, quantity)
        return True

    def _slot_data(self, index: Index, role: int) -> Any:
        slot = self._slots[index.row()]
        items = self._items[slot]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == NAME:
                return slot.label
            return None
        if role == SUBTITLE_ROLE and column == NAME and not items:
            return f"empty: {_EMPTY_HINT.get(slot, 'drop a part here')}"
        if role == Qt.ItemDataRole.FontRole and column == NAME:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.BackgroundRole:
            palette = QGuiApplication.palette()
            if slot in self._drop_slots:
                colour = QColor(palette.color(QPalette.ColorRole.Highlight))
                colour.setAlpha(70)
                return colour
            return palette.color(QPalette.ColorRole.AlternateBase)
        if role == SLOT_ROLE:
            return slot
        if role == Qt.ItemDataRole.ToolTipRole:
            kind = "one part" if slot.single else "several parts"
            return f"{slot.label}: holds {kind}. Click to list the ones that fit; drag " \
                   "parts here, or select them in the list and press Enter."
        if role == Qt.ItemDataRole.TextAlignmentRole and column == QTY:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _part_data(self, item: BuildItem, column: int, role: int) -> Any:
        part = item.part
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            if column == NAME:
                suffix = ("  (not in the catalog)" if is_placeholder(part)
                          else "  (custom)" if part.custom else "")
                return part.display_name + suffix
            if column == QTY:
                return item.quantity if role == Qt.ItemDataRole.EditRole else str(item.quantity)
            if column == PRICE:
                if role == Qt.ItemDataRole.EditRole:  # the number alone, to type over
                    return "" if part.price_usd is None else f"{part.price_usd:g}"
                if part.price_high_usd is not None:
                    return price_range_text(part.price_usd, part.price_high_usd)
                return format_value("price_usd", part.price_usd)
            if column == POWER:
                return power_text(part)
            return None
        if role == SUBTITLE_ROLE and column == NAME:
            return key_figures(part) or "figures n/a"
        if role == PART_ROLE:
            return part
        if role == SLOT_ROLE:
            return item.slot
        if role == HIGHLIGHT_ROLE:
            return self._highlight.get(part.id)
        if role == Qt.ItemDataRole.DecorationRole and column == NAME:
            issue = self._issues.get(part.id)
            if is_placeholder(part):
                return status_icon("unknown")
            return status_icon(issue[0]) if issue else None
        if role == Qt.ItemDataRole.BackgroundRole and part.id in self._highlight:
            colour = status_colour(self._highlight[part.id])
            colour.setAlpha(60)
            return colour
        if role == Qt.ItemDataRole.ForegroundRole:
            if column == PRICE and part.price_usd is None:
                return self._muted
            if column == NAME and is_placeholder(part):
                return self._muted
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (QTY, PRICE, POWER):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            lines = [part.display_name, part.id]
            if is_placeholder(part):
                lines.append("Not in the catalog or your parts: its figures are unknown.")
            issue = self._issues.get(part.id)
            if issue:
                lines += [f"• {m}" for m in issue[1]]
            if column == QTY and item.slot.allows_quantity:
                lines.append("Double-click or F2 to change the quantity.")
            if column == PRICE and part.price_usd is not None:
                src = part.source_of("price_usd")
                lines.append(price_hover(part.price_kind, part.price_date, src.source,
                                         src.source_date, src.note))
            if column == PRICE and item.slot is not Slot.CLOUD:
                lines.append("Double-click to enter your own price (a quote); it is kept in "
                             "your price book and wins over the catalog's.")
            return "\n".join(lines)
        return None


def worst_issues(results: Iterable[Any],
                 all_ids: Iterable[str] = ()) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Per part id: the worst failing or warning status among results naming it, with
    their messages. A result about the whole machine (naming every part, e.g. the wall
    circuit) marks no part: a warning icon on every row would point nowhere."""
    everything = set(all_ids)
    found: dict[str, tuple[str, list[str]]] = {}
    for result in results:
        if result.status not in ("fail", "warn"):
            continue
        if len(everything) > 2 and everything <= set(result.part_ids):
            continue
        for part_id in result.part_ids:
            status, messages = found.get(part_id, ("pass", []))
            if STATUS_RANK[result.status] > STATUS_RANK[status]:
                status = result.status
            messages.append(result.message)
            found[part_id] = (status, messages)
    return {k: (s, tuple(m)) for k, (s, m) in found.items()}
