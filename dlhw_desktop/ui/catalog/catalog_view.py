"""How the Catalog tab's list reads: columns sized to what they hold, and a count line that
says where a search that finds nothing here does find parts.

Pure helpers over the tab's model and table (no state of their own), kept apart so the
tab stays a composition of widgets.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QHeaderView, QLabel, QLayout, QTableView, QWidget

from dlhw_desktop.catalog.part_query import PartQuery
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.errors import CatalogError
from dlhw_desktop.ui.common.elsewhere import elsewhere_text
from dlhw_desktop.ui.common.part_table_model import PartTableModel

NAME_MIN_PX = 230
NAME_MAX_PX = 460
FIGURE_MAX_PX = 180
"""A figure column is as wide as its header and its first rows' values, at most this."""
SAMPLE_ROWS = 60


def fit_columns(table: QTableView, model: PartTableModel) -> None:
    """Each column as wide as its header and values (measured on the first rows), the
    name the room that is left within limits; no column stretches to fill the table
    (a 470 px "Released" beside "Moth…oard" read as a bug)."""
    header = table.horizontalHeader()
    header.setStretchLastSection(False)
    metrics = table.fontMetrics()
    head_metrics = header.fontMetrics()
    rows = min(model.rowCount(), SAMPLE_ROWS)
    widths: list[int] = []
    for column in range(model.columnCount()):
        head = str(model.headerData(column, Qt.Orientation.Horizontal) or "")
        wanted = head_metrics.horizontalAdvance(head) + 30  # room for the sort arrow
        texts = {str(model.data(model.index(r, column)) or "") for r in range(rows)}
        if texts:
            wanted = max(wanted, max(metrics.horizontalAdvance(t) for t in texts) + 16)
        widths.append(wanted)
    if not widths:
        return
    for column, width in enumerate(widths[1:], 1):
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(column, min(width, FIGURE_MAX_PX))
    # the name as wide as the names (within limits: at 1280 px the figures stay in view);
    # when the figures leave more room, the name takes it (no empty band at the right)
    room = table.viewport().width()
    most = max(NAME_MIN_PX, min(NAME_MAX_PX, int(room * 0.45)))
    wanted = max(NAME_MIN_PX, min(most, widths[0]))
    spare = room - sum(min(w, FIGURE_MAX_PX) for w in widths[1:])
    header.resizeSection(0, max(wanted, spare))


class EmptyNote(QLabel):
    """What an empty list says, in the list itself ("No match here — 5 in Power
    supplies", the links live), where the eye is; hidden while there are rows."""

    def __init__(self, table: QTableView, on_link: Callable[[str], None]) -> None:
        super().__init__(table.viewport())
        self.setObjectName("catalog_empty_note")
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setWordWrap(True)
        self.setMargin(16)
        self.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignHCenter)
        self.linkActivated.connect(on_link)
        self._table = table
        self.hide()

    def say(self, text: str) -> None:
        """Show ``text`` over the empty list (empty text: hide)."""
        self.setText(text)
        self.setVisible(bool(text))
        if text:
            self.setGeometry(0, 0, self._table.viewport().width(), 120)
            self.raise_()


def clear_sort_indicator(table: QTableView) -> None:
    """No sort arrow: the list is in its default order (no column's)."""
    frozen = getattr(table, "frozen", None)
    for view in (table, frozen) if frozen is not None else (table,):
        header = view.horizontalHeader()
        header.blockSignals(True)
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        header.blockSignals(False)


def place_filter(bar: QLayout, label: QLabel, field: QWidget, joined: bool = False) -> None:
    """A filter's label and field as one item of the wrapping bar (``joined``: beside the
    previous one, as a price's upper bound beside its lower)."""
    last = bar.itemAt(bar.count() - 1) if bar.count() else None
    if joined and last is not None and last.widget() is not None:
        pair = last.widget()
    else:
        pair = QWidget()
        layout = QHBoxLayout(pair)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        bar.addWidget(pair)
    pair.layout().addWidget(label)
    pair.layout().addWidget(field)


def count_text(catalog: Catalog, model: PartTableModel, chip_name: str | None) -> str:
    """The count beside the search: "3,716 parts", or when nothing matches here, where
    the typed words do match ("No match here — 12 in Power supplies", a link)."""
    total = model.total
    if chip_name is not None:
        return f"{total:,} board-partner card{'s' if total != 1 else ''} of {escape(chip_name)}"
    if total:
        return f"{total:,} part{'s' if total != 1 else ''}"
    query = model.query
    try:
        if not query.text.strip():
            return escape(_nothing_here(catalog, query))
        return _elsewhere(catalog, query)
    except CatalogError as exc:
        return escape(str(exc))


def _nothing_here(catalog: Catalog, query: PartQuery) -> str:
    if query.filters and catalog.count(replace(query, filters=())):
        return "No match with these filters"
    return "0 parts"


def _elsewhere(catalog: Catalog, query: PartQuery) -> str:
    if query.filters:
        without = catalog.count(replace(query, filters=()))
        if without:
            return f"No match with these filters — {without:,} without them"
    return elsewhere_text(catalog, query.text, query.category)
