"""A lazy table of catalog parts: filtered and sorted in SQL, fetched in chunks.

The model asks the catalog for rows (it never runs SQL itself). Display text goes in
``DisplayRole``, the raw value in ``UserRole`` and the figure's source in the tooltip.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QMimeData,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QColor

from dlhw_desktop.catalog.part_query import RELEVANCE, PartQuery
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.fields import FIELDS_BY_NAME, LIST_COLUMNS, Category
from dlhw_desktop.core.formatting import price_range_text
from dlhw_desktop.core.parts import Part, format_value
from dlhw_desktop.core.prices.kinds import PRICE_FIELDS, price_hover
from dlhw_desktop.core.reader_notes import reader_note
from dlhw_desktop.ui.common.dnd import PART_MIME, part_ids_to_mime

CHUNK = 100
PART_ROLE = Qt.ItemDataRole.UserRole + 1
Index = QModelIndex | QPersistentModelIndex

# Roles as plain ints: a table repaint asks ``data`` ~1,000 times, and comparing with
# ``Qt.ItemDataRole.X`` looks the enum member up on every call.
_DISPLAY = int(Qt.ItemDataRole.DisplayRole)
_USER = int(Qt.ItemDataRole.UserRole)
_PART = int(PART_ROLE)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
_ALIGNMENT = int(Qt.ItemDataRole.TextAlignmentRole)
_FOREGROUND = int(Qt.ItemDataRole.ForegroundRole)
_SERVED = frozenset({_DISPLAY, _USER, _PART, _TOOLTIP, _ALIGNMENT, _FOREGROUND})
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_LEFT = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)


class PartRowsModel(QAbstractTableModel):
    """A table whose rows are parts (``self._rows``): each row drags as its part id."""

    _rows: list[Part]
    _row_flags: Qt.ItemFlag | None = None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return super().flags(index)
        if self._row_flags is None:  # the same for every cell: computed once
            self._row_flags = super().flags(index) | Qt.ItemFlag.ItemIsDragEnabled
        return self._row_flags

    def mimeTypes(self) -> list[str]:
        return [PART_MIME]

    def mimeData(self, indexes: list[QModelIndex]) -> QMimeData:
        rows = sorted({i.row() for i in indexes if i.isValid()})
        return part_ids_to_mime([self._rows[r].id for r in rows if r < len(self._rows)])

    def supportedDragActions(self) -> Qt.DropAction:
        return Qt.DropAction.CopyAction


class PartTableModel(PartRowsModel):
    """Rows of a ``PartQuery``; ``canFetchMore``/``fetchMore`` page through the result."""

    def __init__(self, catalog: Catalog, parent: Any = None) -> None:
        super().__init__(parent)
        self._catalog = catalog
        self._query = PartQuery()
        self._columns: tuple[str, ...] = LIST_COLUMNS[None]
        self.vendor_in_name = False
        """The name column also names the maker (a list that hides the Vendor column)."""
        self._rows: list[Part] = []
        self._plain: list[Part] = []  # as the catalog has them, before ``adjust``
        self._total = 0
        self._full: dict[str, Part] = {}
        self._muted = QColor(128, 128, 128)
        self._adjust: Callable[[Part], Part] | None = None

    def set_adjust(self, adjust: Callable[[Part], Part] | None) -> None:
        """How a row is shown: the part with the user's price (``PriceBook.apply``), so the
        price column says the price that counts. Sorting and the price filters stay on the
        catalog's prices (they run in SQL)."""
        self._adjust = adjust
        self._full.clear()
        self._rows = [self._shown(p) for p in self._plain]
        if self._rows:
            self.dataChanged.emit(self.index(0, 0),
                                  self.index(len(self._rows) - 1, len(self._columns) - 1))

    def _shown(self, part: Part) -> Part:
        return part if self._adjust is None else self._adjust(part)

    def reprice(self, part_ids: Iterable[str]) -> None:
        """The user's price of these parts changed: their rows show the new one now."""
        wanted = set(part_ids)
        for part_id in wanted:
            self._full.pop(part_id, None)
        for row, part in enumerate(self._plain):
            if part.id in wanted:
                self._rows[row] = self._shown(part)
                self.dataChanged.emit(self.index(row, 0),
                                      self.index(row, len(self._columns) - 1))

    # --- the query --------------------------------------------------------------
    @property
    def query(self) -> PartQuery:
        return self._query

    @property
    def total(self) -> int:
        """Rows matching the query (not only those fetched so far)."""
        return self._total

    @property
    def columns(self) -> tuple[str, ...]:
        return self._columns

    def set_query(self, query: PartQuery) -> None:
        """Run a new query: count it and fetch the first chunk."""
        self.beginResetModel()
        if query.category != self._query.category or not self._rows:
            self._columns = self.columns_for(query.category)
        if query.sort_field not in (*self._columns, "name", RELEVANCE):
            query = replace(query, sort_field="name", descending=False)
        self._query = query
        self._total = self._catalog.count(query)
        self._plain = self._catalog.search(query, 0, CHUNK, total=self._total,
                                           with_sources=False)
        self._rows = [self._shown(p) for p in self._plain]
        self.endResetModel()

    def refresh(self) -> None:
        self.set_query(self._query)

    def columns_for(self, category: Category | None) -> tuple[str, ...]:
        """The fields a category's rows show, in order (a narrower list picks its own)."""
        return LIST_COLUMNS[category]

    # --- lazy fetching ---------------------------------------------------------------
    def canFetchMore(self, parent: Index = QModelIndex()) -> bool:  # noqa: B008
        return not parent.isValid() and len(self._rows) < self._total

    def fetchMore(self, parent: Index = QModelIndex()) -> None:  # noqa: B008
        if parent.isValid():
            return
        more = self._catalog.search(self._query, len(self._rows), CHUNK, total=self._total,
                                    with_sources=False)
        if not more:
            self._total = len(self._rows)
            return
        first = len(self._rows)
        self.beginInsertRows(QModelIndex(), first, first + len(more) - 1)
        self._plain.extend(more)
        self._rows.extend(self._shown(p) for p in more)
        self.endInsertRows()

    # --- Qt model API ----------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._columns)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self._columns):
            return None
        spec = FIELDS_BY_NAME[self._columns[section]]
        if role == Qt.ItemDataRole.DisplayRole:
            return spec.header
        if role == Qt.ItemDataRole.ToolTipRole:
            return spec.description or spec.header
        if role == Qt.ItemDataRole.UserRole:
            return spec.name
        return None

    def data(self, index: Index, role: int = _DISPLAY) -> Any:
        if role not in _SERVED:
            return None
        row = index.row()
        if not index.isValid() or row >= len(self._rows):
            return None
        part = self._rows[row]
        name = self._columns[index.column()]
        value = part.get(name)
        if role == _DISPLAY:
            if name == "name":  # the maker after the name: the list is sorted by name
                shown = (f"{part.name} · {part.vendor}" if self.vendor_in_name and part.vendor
                         and part.display_name != part.name else part.name)
                return shown + ("  (custom)" if part.custom else "")
            if name == "category":
                return Category(value).label if value else "n/a"
            if name == "price_usd" and part.price_high_usd is not None:
                return price_range_text(part.price_usd, part.price_high_usd)
            return _cell_text(name, value)
        if role == _USER:
            return value
        if role == _PART:
            return self.full_part(part)
        if role == _TOOLTIP:
            if name == "name":
                return f"{part.display_name}\n{part.id}" + (
                    f"\n{reader_note(part.text('dl_note'))}" if part.get("dl_note") else "")
            src = self.full_part(part).source_of(name)
            if name in PRICE_FIELDS and value is not None:
                return price_hover(part.price_kind, part.price_date, src.source,
                                   src.source_date, src.note)
            return f"Source: {src.source} (read {src.source_date})" + (
                f"\n{reader_note(src.note)}" if src.note else "")
        if role == _ALIGNMENT:
            spec = FIELDS_BY_NAME[name]
            return _RIGHT if spec.numeric and name != "release_year" else _LEFT
        if role == _FOREGROUND and value is None:
            return self._muted
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < len(self._columns):
            return
        field = self._columns[column]
        if field == "category":
            field = "name"
        descending = order == Qt.SortOrder.DescendingOrder
        if (field, descending) == (self._query.sort_field, self._query.descending):
            return  # e.g. setSortingEnabled(True) re-announcing the current order
        self.set_query(replace(self._query, sort_field=field,
                               descending=order == Qt.SortOrder.DescendingOrder))

    # --- helpers for views -------------------------------------------------------------------
    def full_part(self, part: Part) -> Part:
        """The part with its per-figure sources (list pages are fetched without them)."""
        if part.custom or part.figure_sources:
            return part
        cached = self._full.get(part.id)
        if cached is None:
            found = self._catalog.find(part.id)
            cached = self._shown(found) if found is not None else part
            if len(self._full) > 256:
                self._full.clear()
            self._full[part.id] = cached
        return cached

    def part_at(self, row: int) -> Part | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def row_of(self, part_id: str) -> int:
        for row, part in enumerate(self._rows):
            if part.id == part_id:
                return row
        return -1


def _cell_text(name: str, value: Any) -> str:
    if value is None:
        return "n/a"
    spec = FIELDS_BY_NAME[name]
    if spec.numeric and name not in ("release_year",) and not name.endswith("_usd"):
        # The unit is in the header; cells show the number alone.
        if isinstance(value, float) and not value.is_integer():
            return f"{value:,.1f}" if value >= 100 else f"{value:,.2f}".rstrip("0").rstrip(".")
        return f"{int(value):,}"
    return format_value(name, value)
