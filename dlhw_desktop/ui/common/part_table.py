"""The parts table view that the Catalog tab and the Build tab's picker share.

The name column stays in view when the table scrolls sideways (a second view over the
first column, Qt's "frozen column" pattern, sharing the model and the selection), and a
name too long for its column is elided in the middle ("Ryzen Thr…7970X"), whole on hover.
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, Qt, Signal
from PySide6.QtGui import QKeyEvent, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

from dlhw_desktop.core.parts import Part
from dlhw_desktop.ui.common.part_table_model import PART_ROLE

SEARCH_DELAY_MS = 60  # coalesce keystrokes typed faster than this


class PartTable(QTableView):
    """The parts table; Enter adds the selection to the build (the keyboard twin of a drag)."""

    activated_parts = Signal(list)
    first_painted = Signal()  # rows are on screen: the app is ready for its user

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._painted = False
        self.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        # Rows are parts, not cells to fill in: Tab leaves the list (arrows move within it);
        # with Qt's default, Tab walked cell to cell and a keyboard user was trapped here.
        self.setTabKeyNavigation(False)
        self.frozen = FrozenColumn(self)
        self.horizontalHeader().sectionResized.connect(self._section_resized)
        self.verticalScrollBar().valueChanged.connect(self.frozen.verticalScrollBar().setValue)
        self.frozen.verticalScrollBar().valueChanged.connect(self.verticalScrollBar().setValue)

    def setModel(self, model: QAbstractItemModel | None) -> None:
        super().setModel(model)
        self.frozen.follow(model)

    def setSortingEnabled(self, enable: bool) -> None:
        super().setSortingEnabled(enable)
        # The frozen column's header starts at Qt's default (descending) indicator: give it
        # the table's, or enabling sorting on it re-sorts, and re-queries, the whole model.
        header = self.horizontalHeader()
        self.frozen.horizontalHeader().setSortIndicator(header.sortIndicatorSection(),
                                                        header.sortIndicatorOrder())
        self.frozen.setSortingEnabled(enable)

    def setDragEnabled(self, enable: bool) -> None:
        super().setDragEnabled(enable)
        self.frozen.setDragEnabled(enable)
        self.frozen.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)

    def _section_resized(self, logical: int, _old: int, new: int) -> None:
        if logical == 0:
            self.frozen.setColumnWidth(0, new)
            self.frozen.place()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.frozen.place()


    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if not self._painted:
            self._painted = True
            self.first_painted.emit()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            ids = self.selected_ids()
            if ids:
                self.activated_parts.emit(ids)
                return
        super().keyPressEvent(event)

    def selected_ids(self) -> list[str]:
        model = self.model()
        rows = sorted({i.row() for i in self.selectionModel().selectedRows()})
        parts = [model.index(r, 0).data(PART_ROLE) for r in rows]
        return [p.id for p in parts if isinstance(p, Part)]


class FrozenColumn(QTableView):
    """The name column drawn over the table's own, fixed while the table scrolls sideways.

    It shares the table's model and selection, so a click, a drag or a sort on it is one
    on the table; the keyboard stays with the table.
    """

    def __init__(self, table: PartTable) -> None:
        super().__init__(table)
        self._table = table
        self.setObjectName(f"{table.objectName() or 'parts_table'}_frozen")
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.verticalHeader().hide()
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.setWordWrap(False)
        self.setFrameShape(QTableView.Shape.NoFrame)
        table.viewport().stackUnder(self)
        self.doubleClicked.connect(table.doubleClicked)
        self.hide()

    def follow(self, model: QAbstractItemModel | None) -> None:
        """Show ``model``'s first column, with the table's selection."""
        self.setModel(model)
        if model is None:
            self.hide()
            return
        self.setSelectionModel(self._table.selectionModel())
        self.setSelectionMode(self._table.selectionMode())
        self.setAlternatingRowColors(self._table.alternatingRowColors())
        self.verticalHeader().setDefaultSectionSize(
            self._table.verticalHeader().defaultSectionSize())
        model.columnsInserted.connect(self._hide_others)
        model.modelReset.connect(self._hide_others)
        model.layoutChanged.connect(self._hide_others)
        self._hide_others()
        self.show()

    def _hide_others(self, *_args: object) -> None:
        model = self.model()
        if model is None:
            return
        for column in range(1, model.columnCount()):
            self.setColumnHidden(column, True)
        self.setColumnWidth(0, self._table.columnWidth(0))
        self.place()

    def place(self) -> None:
        table = self._table
        self.setGeometry(table.verticalHeader().width() + table.frameWidth(),
                         table.frameWidth(), table.columnWidth(0),
                         table.viewport().height() + table.horizontalHeader().height())
        self.verticalHeader().setDefaultSectionSize(
            table.verticalHeader().defaultSectionSize())
