"""The build's prices as the user sees them (a mixin of ``BuildTab``): the currency its
totals are shown in, and quotes changed elsewhere (the Catalog tab's details pane)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QDialog

from dlhw_desktop.core.prices.book import PriceBookError
from dlhw_desktop.core.prices.currency import DisplayCurrency

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance

    from dlhw_desktop.catalog.userparts import PartResolver
    from dlhw_desktop.core.build.build import Build
    from dlhw_desktop.core.checks import CheckReport
    from dlhw_desktop.ui.planner.part_picker import PartPicker


class BuildPriceActions:
    """Build > Currency for totals…, and the build following the user's price book."""

    build: Build
    resolver: PartResolver
    picker: PartPicker
    status_message: SignalInstance

    def recheck(self) -> CheckReport: ...

    def display_currency(self) -> DisplayCurrency:
        """The currency totals are shown in (the price book's choice; dollars when the
        book cannot be read: a damaged book must not stop the totals)."""
        try:
            return self.resolver.price_book.display_currency()
        except PriceBookError:
            return DisplayCurrency()

    def edit_currency(self) -> None:
        from dlhw_desktop.ui.planner.currency_dialog import CurrencyDialog

        try:
            dialog = CurrencyDialog(self.resolver.price_book, self)  # type: ignore[arg-type]
        except PriceBookError as exc:
            self.status_message.emit(f"Currency not changed: {exc}", 8000)
            return
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.recheck()
            shown = self.display_currency()
            self.status_message.emit(
                f"Totals in {shown.code} {shown.basis()}" if shown.code != "USD"
                else "Totals in US dollars", 8000)

    def part_changed(self, part_id: str) -> None:
        """Another feature (the Catalog tab's details pane) changed the user's price or a
        figure of ``part_id``: the build shows the price and figures that now hold."""
        self.picker.catalog_model.reprice([part_id])
        if part_id in self.build:
            part = self.resolver.find(part_id)
            if part is not None:
                self.build.replace(part_id, part)
