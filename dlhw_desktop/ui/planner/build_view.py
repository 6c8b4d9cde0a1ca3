"""The build, slot by slot: a tree of slot rows with their parts (``build_model``), a
quantity editor, Delete and a context menu to remove, and drops of part ids from anywhere.

Edits (a new quantity, a removal, a drop) leave as signals so the tab can push undo
commands.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import (
    QAbstractItemModel,
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

from dlhw_desktop.core.build.build import Slot, quantity_limit
from dlhw_desktop.ui.common.dnd import PART_MIME, part_ids_from_mime
from dlhw_desktop.ui.planner.build_model import (
    MAX_QUANTITY,
    NAME,
    POWER,
    PRICE,
    QTY,
    SUBTITLE_ROLE,
    BuildModel,
    Index,
)


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
    """A spin box for the quantity column: 1 to the kind's limit (2 CPUs, 4 power
    supplies, 20 PCIe cards, ...: ``core.limits``); beyond the room left in the build the
    tab says so instead of changing it."""

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem,
                     index: Index) -> QWidget:
        editor = QSpinBox(parent)
        editor.setObjectName("quantity_editor")
        model = index.model()
        item = model.item_at(index) if isinstance(model, BuildModel) else None
        limit = quantity_limit(item.part).most if item is not None else MAX_QUANTITY
        editor.setRange(1, limit)
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
    slot_requested = Signal(object, bool)  # Slot, and whether to move the focus to the list
    """A slot row was clicked (False), double-clicked or given Enter (True): list its
    parts in the picker ("CPU — empty: choose a CPU" opens the CPUs that fit)."""

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
        self.clicked.connect(lambda index: self._slot_row_used(index, False))
        self.doubleClicked.connect(lambda index: self._slot_row_used(index, True))

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

    def _slot_row_used(self, index: Index, focus: bool) -> bool:
        if not index.isValid() or index.internalId():  # a part row, not a slot row
            return False
        slot = self.build_model.slot_at(index)
        if slot is not None:
            self.slot_requested.emit(slot, focus)
        return slot is not None

    # --- keyboard and menu -------------------------------------------------------------
    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) \
                and self.state() != QAbstractItemView.State.EditingState \
                and self._slot_row_used(self.currentIndex(), True):
            event.accept()
            return
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
