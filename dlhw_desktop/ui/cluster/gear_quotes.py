"""The Cluster tab's "Your network quotes": the buyer's prices for the fabric's switch,
cable and transceiver, kept in their price book (no public list price exists for this
gear), so the cluster's network capex and total are known once they are entered."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFormLayout, QGroupBox, QLabel, QLineEdit, QPushButton, QWidget

from dlhw_desktop.core.cluster.fabric import Fabric
from dlhw_desktop.core.cluster.gear import fabric_gear, gear_prices
from dlhw_desktop.core.cluster.plan import GearPrice
from dlhw_desktop.core.prices.book import PriceBookError, UserPrice, parse_quote, user_price

if TYPE_CHECKING:
    from dlhw_desktop.catalog.price_store import PriceBook

KIND_LABELS = {"switch": "Switch", "cable": "Cable", "transceiver": "Transceiver"}


class GearQuotes(QGroupBox):
    """Three price fields for the current fabric's gear and a Save button. An empty field
    forgets the quote; a bad one is said and nothing is saved."""

    changed = Signal()

    def __init__(self, book: PriceBook | None, parent: QWidget | None = None) -> None:
        super().__init__("Your network quotes", parent)
        self.setObjectName("gear_quotes")
        self.book = book
        self.keys: list[str] = []
        self.edits: list[QLineEdit] = []
        self.labels: list[QLabel] = []
        form = QFormLayout(self)
        for kind in KIND_LABELS.values():
            edit = QLineEdit(objectName=f"gear_quote_{kind.lower()}")
            edit.setPlaceholderText("n/a, e.g. 24000 or 21.500 EUR")
            label = QLabel(kind)
            self.edits.append(edit)
            self.labels.append(label)
            form.addRow(label, edit)
            edit.returnPressed.connect(self.save)
        self.save_button = QPushButton("Save quotes", objectName="gear_quote_save")
        self.save_button.setToolTip("Keep these prices in your price book: each is one unit "
                                    "(one switch, one cable, one transceiver)")
        self.save_button.clicked.connect(self.save)
        self.message = QLabel(objectName="gear_quote_message", wordWrap=True)
        form.addRow(self.save_button)
        form.addRow(self.message)
        self.setEnabled(book is not None)

    def _mine(self) -> dict[str, UserPrice]:
        if self.book is None:
            return {}
        try:
            return {p.part_id: p for p in self.book.prices()}
        except PriceBookError as exc:
            self.message.setText(f"Your price book cannot be read: {exc}")
            return {}

    def show_fabric(self, fabric: Fabric) -> None:
        """Show the quotes for this fabric's gear (on every fabric change)."""
        gear = fabric_gear(fabric)
        keys = [key for key, _ in gear]
        if keys == self.keys:
            return
        self.keys = keys
        mine = self._mine()
        for (key, name), edit, label in zip(gear, self.edits, self.labels, strict=True):
            label.setToolTip(name)
            edit.setToolTip(f"Your price for one {name}")
            quote = mine.get(key)
            edit.setText("" if quote is None else
                         f"{quote.amount:,.2f}" + ("" if quote.currency == "USD"
                                                   else f" {quote.currency}"))
        self.message.setText("")

    def prices(self) -> dict[str, GearPrice]:
        """The quotes the plan reads, in US dollars at the user's rates."""
        if self.book is None:
            return {}
        try:
            return gear_prices(self.book.prices(), self.book.rates())
        except PriceBookError:
            return {}

    def save(self) -> bool:
        """Store the fields: every one is checked before anything is written."""
        if self.book is None:
            return False
        to_save: list[UserPrice] = []
        to_forget: list[str] = []
        for key, edit, label in zip(self.keys, self.edits, self.labels, strict=True):
            text = edit.text().strip()
            if not text:
                to_forget.append(key)
                continue
            try:
                amount, currency = parse_quote(text)
                to_save.append(user_price(key, amount, currency, None, "network quote"))
            except PriceBookError as exc:
                self.message.setText(f"Not saved: {label.text().lower()}: {exc}")
                return False
        try:
            self.book.save(to_save)
            for key in to_forget:
                self.book.remove(key)
        except PriceBookError as exc:
            self.message.setText(f"Not saved: {exc}")
            return False
        rates = self.book.rates()
        unrated = sorted({p.currency for p in to_save
                          if p.currency != "USD" and p.currency not in rates})
        self.message.setText(
            "Saved." + (f" Set a rate for {', '.join(unrated)} (Build > Currency for totals) "
                        "to count it in dollars." if unrated else ""))
        self.changed.emit()
        return True
