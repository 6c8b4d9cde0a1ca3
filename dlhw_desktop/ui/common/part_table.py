"""The parts table view that the Catalog tab and the Build tab's picker share."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent, QPaintEvent
from PySide6.QtWidgets import QTableView

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
