"""Widgets of the Compare tab: the parts list, the spec table, colour swatches."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor, QDropEvent, QFont, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QListWidget,
    QTableWidget,
    QTableWidgetItem,
)

from dlhw_desktop.core.compare.scatter import short_name
from dlhw_desktop.core.compare.table import SpecTable
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.tensor_math import COMPUTED_NOTE_PREFIX, ESTIMATE_MARK
from dlhw_desktop.ui.compare.charts.base import SLOT_COLOURS

ESTIMATE_NOTE = f"— {COMPUTED_NOTE_PREFIX}"  # how a computed figure's source text reads

ID_ROLE = Qt.ItemDataRole.UserRole


def swatch(colour: str, size: int = 12) -> QIcon:
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setBrush(QColor(colour))
    painter.setPen(Qt.PenStyle.NoPen)
    painter.drawRoundedRect(0, 0, size, size, 3, 3)
    painter.end()
    return QIcon(pixmap)


class PartList(QListWidget):
    """The compared parts in order; drag to reorder, Delete removes."""

    reordered = Signal(list)

    def dropEvent(self, event: QDropEvent) -> None:
        super().dropEvent(event)
        self.reordered.emit([self.item(r).data(ID_ROLE) for r in range(self.count())])


class SpecTableView(QTableWidget):
    """The compared parts' figures: read-only, selectable, sources on hover."""

    def __init__(self) -> None:
        super().__init__(objectName="spec_table")
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ContiguousSelection)
        self.setAlternatingRowColors(True)
        self.verticalHeader().setDefaultSectionSize(22)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.setWordWrap(False)

    def show_table(self, parts: Sequence[Part], table: SpecTable, dark: bool,
                   colours: Sequence[str] = ()) -> None:
        """One column per part, one row per figure; the best value of a row marked."""
        widget = self
        widget.setUpdatesEnabled(False)
        widget.clear()
        widget.setColumnCount(len(parts))
        widget.setRowCount(len(table.rows))
        for column, part in enumerate(parts):
            colour = colours[column] if column < len(colours) else SLOT_COLOURS[column]
            header = QTableWidgetItem(swatch(colour), short_name(part))
            header.setToolTip(f"{part.display_name}\n{part.id}")
            widget.setHorizontalHeaderItem(column, header)
        best_brush = QBrush(QColor(46, 125, 50, 110 if dark else 60))
        muted = QBrush(QColor(150, 154, 160) if dark else QColor(120, 124, 130))
        bold = QFont(widget.font())
        bold.setBold(True)
        for row_index, row in enumerate(table.rows):
            header = QTableWidgetItem(row.label)
            if row.emphasised:
                header.setFont(bold)
                header.setToolTip("The precision charted above")
            elif row.derived:
                header.setToolTip("Derived from two catalog figures")
            widget.setVerticalHeaderItem(row_index, header)
            for column, text in enumerate(row.texts):
                item = QTableWidgetItem(text)
                value = row.values[column]
                item.setData(ID_ROLE, value)
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                      | Qt.AlignmentFlag.AlignVCenter
                                      if isinstance(value, float) or text == "n/a" else
                                      Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
                if text == "n/a":
                    item.setForeground(muted)
                    item.setToolTip("No figure in the catalog")
                else:
                    item.setToolTip(f"Source: {row.sources[column]}")
                    if ESTIMATE_NOTE in row.sources[column]:
                        item.setText(ESTIMATE_MARK + text)  # a computed estimate
                if column in row.best:
                    item.setBackground(best_brush)
                    item.setFont(bold)
                    item.setToolTip(item.toolTip() + "\nBest in this row")
                widget.setItem(row_index, column, item)
        widget.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        widget.setUpdatesEnabled(True)
