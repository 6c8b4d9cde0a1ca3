"""Your price, from the Catalog tab's details pane: "Set your price…" stores a quote in your
price book (amount, currency, the date it held, a note); "Clear" forgets it.

The quote then wins wherever the part is counted (builds, sheets, own-vs-rent) and the
pane shows it as "your quote, 2026-11-20". The amount is read by the same parser as the
build list's price cell (``core.pricebook.parse_quote``): ``$1,299.00``, ``1.099,00 €``.
"""

from __future__ import annotations

from datetime import date

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from dlhw_desktop.catalog.price_store import PriceBook
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.prices.book import PriceBookError, UserPrice, parse_date, parse_quote
from dlhw_desktop.core.prices.kinds import CURRENCIES

MAX_NOTE_CHARS = 500


def quote_text(price: UserPrice | None) -> str:
    """``Your quote: 1,299.00 EUR — your quote, 2026-11-20 (from ACME)``; or none yet."""
    if price is None:
        return "Your price: none (the catalog's price counts)"
    note = f" ({price.note})" if price.note else ""
    return (f"Your quote: {price.amount:,.2f} {price.currency} — your quote, "
            f"{price.price_date}{note}")


class PriceDialog(QDialog):
    """Amount (a currency named in it wins over the list), currency, date, note."""

    def __init__(self, part: Part, current: UserPrice | None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("price_dialog")
        self.setWindowTitle(f"Your price for {part.display_name}")
        self.part = part
        self.amount = QLineEdit(objectName="price_amount")
        self.amount.setPlaceholderText("e.g. 1,299.00 or 1.099,00 €")
        self.currency = QComboBox(objectName="price_currency")
        self.currency.addItems(["USD", *sorted(CURRENCIES - {"USD"})])
        self.when = QLineEdit(objectName="price_date")
        self.when.setPlaceholderText("YYYY-MM-DD: the day the price held")
        self.note = QLineEdit(objectName="price_note")
        self.note.setPlaceholderText('e.g. "quote from ACME, valid 30 days"')
        self.note.setMaxLength(MAX_NOTE_CHARS)
        self.message = QLabel(objectName="price_message")
        self.message.setWordWrap(True)
        if current is not None:
            self.amount.setText(f"{current.amount:.2f}")
            self.currency.setCurrentText(current.currency)
            self.when.setText(current.price_date)
            self.note.setText(current.note)
        else:
            self.when.setText(date.today().isoformat())
        form = QFormLayout()
        form.addRow("Price", self.amount)
        form.addRow("Currency", self.currency)
        form.addRow("Date", self.when)
        form.addRow("Note", self.note)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.message)
        layout.addWidget(buttons)

    def price(self) -> UserPrice:
        """The quote as entered; raises ``PriceBookError`` for anything that is not one."""
        amount, currency = parse_quote(self.amount.text(), self.currency.currentText())
        return UserPrice(self.part.id, amount, currency, parse_date(self.when.text()),
                         self.note.text().strip(), "your quote")

    def accept(self) -> None:
        try:
            self.price()
        except PriceBookError as exc:
            self.message.setText(f"Not saved: {exc}")
            return
        super().accept()


class PriceEntry(QWidget):
    """Under the details: the user's quote for the shown part, with Set and Clear."""

    price_changed = Signal(str)  # part id, after a quote was saved or cleared
    status_message = Signal(str)

    def __init__(self, book: PriceBook | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("price_entry")
        self.book = book
        self.part: Part | None = None
        self.label = QLabel(objectName="price_entry_label")
        self.label.setWordWrap(True)
        self.set_button = QPushButton("Set your price…", objectName="set_price_button")
        self.set_button.setToolTip("Keep your own quote for this part in your price book: "
                                   "it wins over the catalog's price in every build")
        self.clear_button = QPushButton("Clear", objectName="clear_price_button")
        self.clear_button.setToolTip("Forget your price; the catalog's price counts again")
        self.set_button.clicked.connect(self.edit)
        self.clear_button.clicked.connect(self.clear)
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.addWidget(self.set_button)
        buttons.addWidget(self.clear_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.addWidget(self.label)
        layout.addLayout(buttons)
        self.show_part(None)

    def current(self) -> UserPrice | None:
        if self.book is None or self.part is None:
            return None
        try:
            return self.book.get(self.part.id)
        except PriceBookError:
            return None

    def priced(self, part: Part) -> Part:
        """``part`` with the user's price, as every table and total shows it (the catalog's
        when the book cannot be read: a damaged book must not hide the part)."""
        if self.book is None:
            return part
        try:
            return self.book.apply(part)
        except PriceBookError:
            return part

    def show_part(self, part: Part | None) -> None:
        self.part = part
        usable = part is not None and self.book is not None and part.category.value != "cloud"
        self.setVisible(part is not None)
        quote = self.current()
        self.label.setText("" if part is None else
                           "Cloud rates are the provider's; your quotes are for parts you buy"
                           if part.category.value == "cloud" else quote_text(quote))
        self.set_button.setEnabled(usable)
        self.clear_button.setEnabled(usable and quote is not None)

    def make_dialog(self) -> PriceDialog:
        """The dialog ``edit`` opens (tests fill it in instead of clicking)."""
        assert self.part is not None
        return PriceDialog(self.part, self.current(), self)

    def edit(self) -> bool:
        if self.part is None or self.book is None:
            return False
        dialog = self.make_dialog()
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return False
        return self.save(dialog.price())

    def save(self, price: UserPrice) -> bool:
        """Keep ``price`` in the price book; a book that cannot be written is said."""
        assert self.book is not None
        try:
            self.book.save([price])
        except PriceBookError as exc:
            self.status_message.emit(f"Price not saved: {exc}")
            return False
        name = (self.part.display_name if self.part is not None
                and self.part.id == price.part_id else price.part_id)
        self.status_message.emit(
            f"Your price for {name}: {price.amount:,.2f} {price.currency} "
            f"(your quote, {price.price_date}), kept in your price book for every build")
        self._changed(price.part_id)
        return True

    def clear(self) -> bool:
        if self.part is None or self.book is None:
            return False
        try:
            removed = self.book.remove(self.part.id)
        except PriceBookError as exc:
            self.status_message.emit(f"Price not cleared: {exc}")
            return False
        if removed:
            self.status_message.emit(f"Your price for {self.part.display_name} removed; the "
                                     "catalog's price counts again")
            self._changed(self.part.id)
        return removed

    def _changed(self, part_id: str) -> None:
        self.price_changed.emit(part_id)
