"""Build > Currency for totals…: the currency the build's totals are shown in, and its
dated rate (kept in the user's price book, beside their quotes)."""

from __future__ import annotations

from datetime import date

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from dlhw_desktop.catalog.price_store import PriceBook
from dlhw_desktop.core.prices.book import PriceBookError, checked_rate, parse_date
from dlhw_desktop.core.prices.currency import DisplayCurrency
from dlhw_desktop.core.prices.kinds import CURRENCIES


class CurrencyDialog(QDialog):
    """Pick a currency; for anything but US dollars, say what one unit is worth in dollars
    and on which day. OK saves both; a bad rate or date is said and nothing is saved."""

    def __init__(self, book: PriceBook, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("currency_dialog")
        self.setWindowTitle("Currency for totals")
        self.book = book
        self._rates = book.rates()
        current = book.display_currency()
        self.currency = QComboBox(objectName="currency_choice")
        self.currency.addItems(["USD", *sorted(CURRENCIES - {"USD"})])
        self.currency.setCurrentText(current.code)
        self.rate = QLineEdit(objectName="currency_rate")
        self.rate.setPlaceholderText("e.g. 1.087")
        self.rate_date = QLineEdit(objectName="currency_rate_date")
        self.rate_date.setPlaceholderText("YYYY-MM-DD (empty: today)")
        self.rate_label = QLabel()
        self.message = QLabel(objectName="currency_message")
        self.message.setWordWrap(True)
        form = QFormLayout()
        form.addRow("Show totals in", self.currency)
        form.addRow(self.rate_label, self.rate)
        form.addRow("Rate set on", self.rate_date)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("The catalog prices in US dollars. Totals, the build sheet and "
                                "shared builds can show your currency instead, at the rate "
                                "you give here (never guessed)."))
        layout.addLayout(form)
        layout.addWidget(self.message)
        layout.addWidget(buttons)
        self.currency.currentTextChanged.connect(self._currency_changed)
        self._currency_changed(self.currency.currentText())

    def _currency_changed(self, code: str) -> None:
        dollars = code == "USD"
        self.rate.setEnabled(not dollars)
        self.rate_date.setEnabled(not dollars)
        self.rate_label.setText("Rate" if dollars else f"1 {code} in US dollars")
        known = self._rates.get(code)
        self.rate.setText("" if dollars or known is None else f"{known.usd_per_unit:g}")
        self.rate_date.setText("" if dollars or known is None else known.rate_date)
        self.message.setText("" if dollars or known is not None else
                             f"No {code} rate yet: give one, or totals stay in US dollars.")

    def save(self) -> DisplayCurrency:
        """Store the choice (and the rate, when one is given); raises ``PriceBookError``
        for a rate or date that is not one, before anything is saved."""
        code = self.currency.currentText()
        text = self.rate.text().strip()
        if code != "USD" and text:
            usd_per_unit = checked_rate(text)
            when = parse_date(self.rate_date.text() or date.today().isoformat())
            known = self._rates.get(code)
            if known is None or (known.usd_per_unit, known.rate_date) != (usd_per_unit, when):
                self.book.set_rate(code, usd_per_unit, when)
        return self.book.set_display_currency(code)

    def accept(self) -> None:
        try:
            self.save()
        except PriceBookError as exc:
            self.message.setText(f"Not saved: {exc}")
            return
        super().accept()
