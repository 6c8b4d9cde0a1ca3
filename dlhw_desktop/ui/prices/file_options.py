"""The price-list dialog's choices for the whole file: which row is its header (when the
guess under a letterhead is wrong) and which currency its prices are in (when the file
does not say)."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QWidget

from dlhw_desktop.core.prices.kinds import CURRENCIES

AS_THE_FILE_SAYS = "As the file says"
MAX_ROW_TEXT = 90


def row_text(line: int, cells: list[str]) -> str:
    """``Line 6: Pos | Art.-Nr. | Bezeichnung | Unit price (EUR)``, cut to one line."""
    text = " | ".join(c.strip() for c in cells if c.strip())
    if len(text) > MAX_ROW_TEXT:
        text = text[:MAX_ROW_TEXT - 1] + "…"
    return f"Line {line:,}: {text}"


class FileOptions(QWidget):
    """Header row and file currency; each change asks for a new preview."""

    header_chosen = Signal(int)  # the file line the user says is the header
    currency_chosen = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.header_row = QComboBox(objectName="import_header_row")
        self.header_row.setToolTip("The row that names the columns. Quotes often start "
                                   "with a letterhead (company, address, quote number): "
                                   "pick the row with the column names if the guess is "
                                   "wrong; the column choices then offer its columns")
        self.header_row.setMinimumContentsLength(50)
        self.header_row.activated.connect(
            lambda _i: self.header_chosen.emit(int(self.header_row.currentData())))
        self.currency = QComboBox(objectName="import_currency")
        self.currency.setToolTip("The currency of the file's prices, when neither a price, "
                                 "its row nor the column name says (a price's own sign or "
                                 "Currency cell still wins)")
        self.currency.addItems([AS_THE_FILE_SAYS, "USD", *sorted(CURRENCIES - {"USD"})])
        self.currency.activated.connect(lambda _i: self.currency_chosen.emit())
        self.basis = QLabel(objectName="import_currency_basis")
        self.basis.setWordWrap(True)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel("Header row"))
        layout.addWidget(self.header_row, 2)
        layout.addWidget(QLabel("Prices in"))
        layout.addWidget(self.currency)
        layout.addWidget(self.basis, 1)

    def set_rows(self, rows: list[tuple[int, list[str]]], current: int | None) -> None:
        """The file's first rows to choose from, ``current`` (a line) selected."""
        self.header_row.clear()
        for line, cells in rows:
            self.header_row.addItem(row_text(line, cells), line)
        if current is not None:
            index = self.header_row.findData(current)
            if index >= 0:
                self.header_row.setCurrentIndex(index)

    def chosen_currency(self) -> str | None:
        text = self.currency.currentText()
        return None if text == AS_THE_FILE_SAYS else text
