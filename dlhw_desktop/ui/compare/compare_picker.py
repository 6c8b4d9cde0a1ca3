"""The Compare tab's search box: type a name, pick an accelerator from the popup."""

from __future__ import annotations

from collections.abc import Callable, Container

from PySide6.QtCore import QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QCompleter, QLineEdit, QWidget

from dlhw_desktop.catalog.part_query import Filter, PartQuery
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.compare.scatter import part_tooltip
from dlhw_desktop.core.fields import Category
from dlhw_desktop.ui.compare.compare_widgets import ID_ROLE

SEARCH_DELAY_MS = 80
PICKER_LIMIT = 20
# Compare weighs chips: a board-partner card (a row with a chip_id) has its chip's figures.
CHIPS_ONLY = Filter("chip_id", "null", True)


class AcceleratorPicker(QLineEdit):
    """Searches catalog accelerators as you type; ``part_chosen(id)`` on a pick or Enter
    (the best match), ``no_match(text)`` when Enter finds nothing to add.

    It offers chips, not their board-partner cards (forty RTX 4090 cards share one set
    of figures); ``include_cards`` offers the cards too. The Catalog tab lists a chip's
    cards."""

    part_chosen = Signal(str)
    no_match = Signal(str)

    def __init__(self, catalog: Catalog, compared: Container[str],
                 precision: Callable[[], str],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent, objectName="compare_search")
        self.catalog = catalog
        self._compared = compared
        self._precision = precision  # the comparison's precision, read at each search
        self.include_cards = False
        self.setPlaceholderText("Add an accelerator: type a name…")
        self.setClearButtonEnabled(True)
        self.completions = QStandardItemModel(self)
        self.completer = QCompleter(self.completions, self)
        self.completer.setCompletionMode(QCompleter.CompletionMode.UnfilteredPopupCompletion)
        self.completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.completer.setMaxVisibleItems(12)
        self.setCompleter(self.completer)
        self.completer.activated[QModelIndex].connect(self._completion_activated)
        self._timer = QTimer(self, singleShot=True, interval=SEARCH_DELAY_MS)
        self._timer.timeout.connect(self.update_completions)
        self.textEdited.connect(lambda _t: self._timer.start())
        self.returnPressed.connect(self.add_best_match)

    def update_completions(self) -> None:
        """Search catalog accelerators for the text; show them in the popup."""
        self._timer.stop()
        text = self.text().strip()
        self.completions.clear()
        if not text:
            return
        precision = self._precision()
        filters = () if self.include_cards else (CHIPS_ONLY,)
        query = PartQuery(category=Category.ACCELERATOR, text=text, filters=filters)
        for part in self.catalog.search(query, limit=PICKER_LIMIT):
            item = QStandardItem(part.display_name)
            item.setData(part.id, ID_ROLE)
            item.setToolTip(part_tooltip(part, precision))
            if part.id in self._compared:
                item.setEnabled(False)
                item.setText(part.display_name + "  (compared)")
            self.completions.appendRow(item)
        if self.hasFocus() and self.completions.rowCount():
            self.completer.complete()

    def _completion_activated(self, index: QModelIndex) -> None:
        part_id = index.data(ID_ROLE)
        if part_id:
            self.part_chosen.emit(part_id)
            # The completer writes the chosen name into the box after this signal: the
            # box is emptied on the next turn, ready for the next name.
            QTimer.singleShot(0, self._emptied)

    def _emptied(self) -> None:
        self.clear()
        self.completions.clear()

    def add_best_match(self) -> None:
        """Enter adds the best match for the typed text."""
        text = self.text().strip()
        if not text:
            return
        self.update_completions()
        for row in range(self.completions.rowCount()):
            item = self.completions.item(row)
            if item.isEnabled():
                self.clear()
                self.completions.clear()
                self.completer.popup().hide()
                self.part_chosen.emit(item.data(ID_ROLE))
                return
        self.no_match.emit(text)
