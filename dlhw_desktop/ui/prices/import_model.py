"""The rows of a price-list preview as a table: one line of the file per row, with what
importing it would do (matched, ambiguous, no match, error), sorted by line."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.prices.book import UserPrice
from dlhw_desktop.core.prices.price_list import ImportPreview, ImportRow


class RowStatus(Enum):
    MATCHED = "Matched"
    AMBIGUOUS = "Choose a part"
    UNMATCHED = "No match"
    ERROR = "Error"
    SKIPPED = "Left out"


@dataclass(frozen=True, slots=True)
class PreviewLine:
    line: int
    status: RowStatus
    in_file: str
    price: str
    part: str
    remark: str
    candidates: tuple[Part, ...] = ()


Index = QModelIndex | QPersistentModelIndex
COLUMNS = ("Line", "Status", "In the file", "Price", "Catalog part", "Remark")
MAX_CANDIDATES_NAMED = 3


def _in_file(row: ImportRow, columns: dict[str, str]) -> str:
    """What the file says the item is: part number and name (or id) as written."""
    cells = [row.values.get(columns[key], "") for key in ("part_number", "name", "part_id")
             if key in columns]
    return " · ".join(c for c in cells if c) or " / ".join(v for v in row.values.values() if v)


def _price_text(price: UserPrice) -> str:
    amount = (f"${price.amount:,.2f}" if price.currency == "USD"  # cents, as quoted
              else f"{price.amount:,.2f} {price.currency}")
    return f"{amount}, {price.price_date}"


def preview_lines(preview: ImportPreview,
                  current: dict[str, UserPrice]) -> list[PreviewLine]:
    """Every line of the preview, sorted by line number. ``current``: the user's prices
    now, so a row that would replace one says so (nothing is overwritten unseen)."""
    lines: list[PreviewLine] = []
    columns = preview.columns
    for row, price, part in preview.matched:
        old = current.get(part.id)
        remarks = [] if old is None else [
            f"replaces your {old.amount:,.2f} {old.currency} of {old.price_date}"]
        choices = preview.in_build.get(row.line, [])
        if choices:
            others = ", ".join(c.display_name for c in choices if c.id != part.id)
            remarks.insert(0, ("the part in your open build" if part.id == choices[0].id
                               else "chosen by you") + f"; it could also be {others} "
                              "(select the row to choose)")
        lines.append(PreviewLine(row.line, RowStatus.MATCHED, _in_file(row, columns),
                                 _price_text(price), part.display_name, "; ".join(remarks),
                                 tuple(choices)))
    for row, candidates in preview.ambiguous:
        names = ", ".join(c.display_name for c in candidates[:MAX_CANDIDATES_NAMED])
        more = len(candidates) - MAX_CANDIDATES_NAMED
        lines.append(PreviewLine(
            row.line, RowStatus.AMBIGUOUS, _in_file(row, columns), "",
            f"{len(candidates)} parts: {names}{f' and {more} more' if more > 0 else ''}",
            "select the row and choose which part it prices", tuple(candidates)))
    for row in preview.unmatched:
        lines.append(PreviewLine(row.line, RowStatus.UNMATCHED, _in_file(row, columns), "",
                                 "", "no catalog part has this part number or name"))
    for line, message in preview.errors:
        lines.append(PreviewLine(line, RowStatus.ERROR, "", "", "", message))
    for line, reason in preview.skipped:
        lines.append(PreviewLine(line, RowStatus.SKIPPED, "", "", "", reason))
    lines.sort(key=lambda item: item.line)
    return lines


class PreviewModel(QAbstractTableModel):
    """The preview's lines; the status column filters through a proxy."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[PreviewLine] = []

    def set_lines(self, lines: list[PreviewLine]) -> None:
        self.beginResetModel()
        self.lines = lines
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.lines)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return COLUMNS[section]
        return None

    def data(self, index: Index,
             role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        item = self.lines[index.row()]
        values = (item.line, item.status.value, item.in_file, item.price, item.part,
                  item.remark)
        if role == Qt.ItemDataRole.DisplayRole:
            value = values[index.column()]
            return f"{value:,}" if isinstance(value, int) else value
        if role == Qt.ItemDataRole.ToolTipRole and index.column() in (2, 4, 5):
            return str(values[index.column()]) or None
        if role == Qt.ItemDataRole.UserRole:
            return item.status.value
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() == 0:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None
