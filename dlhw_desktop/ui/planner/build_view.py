"""The build, slot by slot: a tree of slot rows with their parts, a quantity editor,
Delete and a context menu to remove, and drops of part ids from anywhere.

The model reads the Build and redraws from the adapter's signals only; edits (a new
quantity, a removal, a drop) leave as signals so the tab can push undo commands.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    QRect,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import (
    QAction,
    QColor,
    QDragEnterEvent,
    QDragLeaveEvent,
    QDragMoveEvent,
    QDropEvent,
    QFont,
    QFontMetrics,
    QGuiApplication,
    QKeyEvent,
    QPainter,
    QPalette,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHeaderView,
    QMenu,
    QSpinBox,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeView,
    QWidget,
)

from dlhw_desktop.core.build import Build, BuildItem, Slot
from dlhw_desktop.core.buildfile import is_placeholder
from dlhw_desktop.core.checks import STATUS_RANK
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part, format_value
from dlhw_desktop.ui.common.dnd import PART_MIME, part_ids_from_mime
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
                f"{width:g}-slot" if width else None, part.text("cooling") or None,
                _fv(part, "board_length_mm")]
    elif c is Category.SERVER:
        gpus = part.number("gpu_count")
        bits = [part.text("baseboard") or None,
                f"{gpus:.0f}x {part.text('gpu_form_factor').upper()}" if gpus else None,
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
        bits = [_fv(part, "capacity_gb"), part.text("storage_kind").upper() or None,
                f"read {read:,.0f} MB/s" if read else None]
    elif c is Category.PSU:
        hpwr = part.number("connectors_12vhpwr")
        bits = [part.text("efficiency_rating") or None,
                f"ATX {part.text('atx_version')}" if part.text("atx_version") else None,
                f"{hpwr:.0f}x 16-pin" if hpwr is not None else None]
    elif c is Category.COOLER:
        bits = [part.text("cooler_kind") or None,
                f"rated {_fv(part, 'cooling_capacity_w')}"
                if part.get("cooling_capacity_w") else None,
                f"{_fv(part, 'height_mm')} tall" if part.get("height_mm") else None,
                part.text("supported_sockets") or None]
    elif c is Category.CASE:
        gpu = part.number("max_gpu_length_mm")
        bits = [part.text("case_kind") or None,
                f"{part.number('expansion_slots'):.0f} expansion slots"
                if part.number("expansion_slots") else None,
                f"GPUs up to {gpu:.0f} mm" if gpu else None]
    elif c is Category.CLOUD:
        bits = [part.text("provider") or None, _fv(part, "price_per_hour_usd")]
    return " · ".join(b for b in bits if b)


def power_text(part: Part) -> str:
    if part.category in (Category.ACCELERATOR, Category.CPU):
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
        if item is None or index.column() != QTY or role != Qt.ItemDataRole.EditRole:
            return False
        quantity = int(value)
        if quantity != item.quantity and 1 <= quantity <= MAX_QUANTITY:
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
            return f"{slot.label}: holds {kind}. Drag parts here, or select them in the " \
                   "list and press Enter."
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


class PartNameDelegate(QStyledItemDelegate):
    """The part column: the name, and under it the key figures in a muted, smaller line;
    a slot row shows its label with the empty-slot hint beside it."""

    def _fonts(self, option: QStyleOptionViewItem) -> tuple[QFont, QFont]:
        small = QFont(option.font)
        small.setBold(False)
        small.setPointSizeF(max(7.0, option.font.pointSizeF() * 0.9))
        return option.font, small

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        size = super().sizeHint(option, index)
        if index.internalId() and index.data(SUBTITLE_ROLE):
            lines = QFontMetrics(option.font).height() + QFontMetrics(
                self._fonts(option)[1]).height()
            return QSize(size.width(), lines + 8)
        return QSize(size.width(), max(size.height(), QFontMetrics(option.font).height() + 8))

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        subtitle = index.data(SUBTITLE_ROLE)
        if not subtitle:
            super().paint(painter, option, index)
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        title = opt.text
        opt.text = ""
        widget = opt.widget
        style = widget.style() if widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, opt, widget)
        rect = rect.adjusted(2, 0, -2, 0)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        group = QPalette.ColorGroup.Normal
        main = opt.palette.color(group, QPalette.ColorRole.HighlightedText if selected
                                 else QPalette.ColorRole.Text)
        foreground = index.data(Qt.ItemDataRole.ForegroundRole)
        if isinstance(foreground, QColor) and not selected:
            main = foreground
        muted = QColor(main)
        muted.setAlphaF(0.62)
        title_font, small = self._fonts(opt)
        painter.save()
        if index.internalId():  # a part: two lines
            top = QFontMetrics(title_font)
            below = QFontMetrics(small)
            y = rect.top() + (rect.height() - top.height() - below.height()) // 2
            painter.setFont(title_font)
            painter.setPen(main)
            painter.drawText(QRect(rect.left(), y, rect.width(), top.height()),
                             int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                             top.elidedText(title, Qt.TextElideMode.ElideRight, rect.width()))
            painter.setFont(small)
            painter.setPen(muted)
            painter.drawText(QRect(rect.left(), y + top.height(), rect.width(), below.height()),
                             int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                             below.elidedText(subtitle, Qt.TextElideMode.ElideRight,
                                              rect.width()))
        else:  # an empty slot: label, then the hint
            metrics = QFontMetrics(title_font)
            painter.setFont(title_font)
            painter.setPen(main)
            flags = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
            painter.drawText(rect, flags, title)
            left = rect.left() + metrics.horizontalAdvance(title) + 12
            painter.setFont(small)
            painter.setPen(muted)
            hint_rect = QRect(left, rect.top(), max(0, rect.right() - left), rect.height())
            painter.drawText(hint_rect, flags, QFontMetrics(small).elidedText(
                subtitle, Qt.TextElideMode.ElideRight, hint_rect.width()))
        painter.restore()


class QuantityDelegate(QStyledItemDelegate):
    """A spin box for the quantity column: 1 to the slot's limit (2 CPUs, 4 power
    supplies), or to 64 where a slot takes any number."""

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem,
                     index: Index) -> QWidget:
        editor = QSpinBox(parent)
        editor.setObjectName("quantity_editor")
        model = index.model()
        item = model.item_at(index) if isinstance(model, BuildModel) else None
        limit = item.slot.max_count if item is not None else None
        editor.setRange(1, limit or MAX_QUANTITY)
        editor.setFrame(False)
        editor.setAlignment(Qt.AlignmentFlag.AlignRight)
        return editor

    def setEditorData(self, editor: QWidget, index: Index) -> None:
        assert isinstance(editor, QSpinBox)
        editor.setValue(int(index.data(Qt.ItemDataRole.EditRole) or 1))

    def setModelData(self, editor: QWidget, model: QAbstractItemModel,
                     index: Index) -> None:
        assert isinstance(editor, QSpinBox)
        editor.interpretText()
        model.setData(index, editor.value(), Qt.ItemDataRole.EditRole)


class BuildTreeView(QTreeView):
    """The build tree: accepts part drops anywhere, Delete removes, right-click menu."""

    parts_dropped = Signal(list)  # part ids
    remove_requested = Signal(list)  # part ids
    quantity_step_requested = Signal(str, int)  # part id, +1 / -1

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("build_view")
        self.slots_for_ids: Callable[[list[str]], set[Slot]] | None = None
        self.setAcceptDrops(True)
        self.viewport().setAcceptDrops(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DropOnly)
        self.setDropIndicatorShown(False)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                             | QAbstractItemView.EditTrigger.EditKeyPressed
                             | QAbstractItemView.EditTrigger.SelectedClicked)
        self.setItemDelegateForColumn(QTY, QuantityDelegate(self))
        self.setItemDelegateForColumn(NAME, PartNameDelegate(self))
        self.setUniformRowHeights(False)
        self.setAnimated(False)
        self.setExpandsOnDoubleClick(False)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._context_menu)

        # Delete is handled in keyPressEvent; the menu only shows it.
        self.action_remove = QAction("Remove from build\tDel", self)
        self.action_remove.setObjectName("action_remove_from_build")
        self.action_remove.triggered.connect(self._emit_remove)

    def setModel(self, model: QAbstractItemModel | None) -> None:
        super().setModel(model)
        if model is None:
            return
        model.modelReset.connect(self.expandAll)
        model.rowsInserted.connect(lambda parent, *_: self.expand(parent))
        self.expandAll()
        header = self.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(NAME, QHeaderView.ResizeMode.Stretch)
        for column, width in ((QTY, 44), (PRICE, 84), (POWER, 96)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(column, width)

    @property
    def build_model(self) -> BuildModel:
        model = self.model()
        assert isinstance(model, BuildModel)
        return model

    def selected_part_ids(self) -> list[str]:
        ids: list[str] = []
        for index in self.selectionModel().selectedRows():
            item = self.build_model.item_at(index)
            if item is not None and item.part_id not in ids:
                ids.append(item.part_id)
        current = self.build_model.item_at(self.currentIndex())
        if not ids and current is not None:
            ids.append(current.part_id)
        return ids

    # --- keyboard and menu -------------------------------------------------------------
    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace) \
                and self.state() != QAbstractItemView.State.EditingState:
            self._emit_remove()
            event.accept()
            return
        if event.key() in (Qt.Key.Key_Plus, Qt.Key.Key_Minus):
            ids = self.selected_part_ids()
            if len(ids) == 1:
                self.quantity_step_requested.emit(ids[0], 1 if event.key() == Qt.Key.Key_Plus
                                                  else -1)
                event.accept()
                return
        super().keyPressEvent(event)

    def _emit_remove(self) -> None:
        ids = self.selected_part_ids()
        if ids:
            self.remove_requested.emit(ids)

    def _context_menu(self, pos: QPoint) -> None:
        index = self.indexAt(pos)
        item = self.build_model.item_at(index)
        if item is None:
            return
        if item.part_id not in self.selected_part_ids():
            self.setCurrentIndex(index)
        menu = QMenu(self)
        menu.setObjectName("build_context_menu")
        menu.addAction(self.action_remove)
        if item.slot.allows_quantity:
            more = menu.addAction("One more (+)")
            more.triggered.connect(lambda: self.quantity_step_requested.emit(item.part_id, 1))
            fewer = menu.addAction("One fewer (−)")
            fewer.setEnabled(item.quantity > 1)
            fewer.triggered.connect(lambda: self.quantity_step_requested.emit(item.part_id, -1))
        menu.addSeparator()
        copy = menu.addAction("Copy part id")
        copy.triggered.connect(lambda: QGuiApplication.clipboard().setText(item.part_id))
        menu.exec(self.viewport().mapToGlobal(pos))

    # --- drops ---------------------------------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if not event.mimeData().hasFormat(PART_MIME):
            event.ignore()
            return
        event.setDropAction(Qt.DropAction.CopyAction)
        event.accept()
        if self.slots_for_ids is not None:
            self.build_model.set_drop_slots(
                self.slots_for_ids(part_ids_from_mime(event.mimeData())))

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        if event.mimeData().hasFormat(PART_MIME):
            event.setDropAction(Qt.DropAction.CopyAction)
            event.accept()
        else:
            event.ignore()

    def dragLeaveEvent(self, event: QDragLeaveEvent) -> None:
        self.build_model.set_drop_slots(())
        event.accept()

    def dropEvent(self, event: QDropEvent) -> None:
        self.build_model.set_drop_slots(())
        ids = part_ids_from_mime(event.mimeData())
        if not ids:
            event.ignore()
            return
        event.setDropAction(Qt.DropAction.CopyAction)
        event.accept()
        self.parts_dropped.emit(ids)
