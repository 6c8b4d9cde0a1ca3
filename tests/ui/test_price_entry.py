"""Your price from the details pane, and totals in your currency: what a buyer sees."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.price_store import PriceBook
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.checks import CheckSettings
from dlhw_desktop.core.prices.book import Rate
from dlhw_desktop.core.prices.currency import DisplayCurrency
from dlhw_desktop.ui.catalog.catalog_tab import CatalogTab
from dlhw_desktop.ui.planner.currency_dialog import CurrencyDialog
from dlhw_desktop.ui.planner.totals_bar import tile_texts

RTX = "accelerator/nvidia-geforce-rtx-4090"


def make_tab(qtbot: QtBot, catalog: Catalog, book: PriceBook) -> CatalogTab:
    tab = CatalogTab(catalog, price_book=book)
    qtbot.addWidget(tab)
    tab.resize(1300, 800)
    tab.show()
    assert tab.select_part(RTX)
    return tab


def test_a_quote_set_in_the_details_pane_is_shown_dated_and_can_be_cleared(
        qtbot: QtBot, catalog: Catalog, tmp_path: Path) -> None:
    book = PriceBook(tmp_path / "book.db")
    tab = make_tab(qtbot, catalog, book)
    entry = tab.price_entry
    assert entry.set_button.isEnabled() and not entry.clear_button.isEnabled()
    assert "launch list price (MSRP)" in tab.details.toPlainText()
    dialog = entry.make_dialog()
    dialog.amount.setText("1.499,00 €")  # the build list's price-cell syntax, euros named
    dialog.when.setText("2026-11-20")
    dialog.note.setText("quote from ACME")
    with qtbot.waitSignal(tab.price_changed) as changed:
        assert entry.save(dialog.price())
    assert changed.args == [RTX]
    saved = book.get(RTX)
    assert saved is not None and (saved.amount, saved.currency) == (1499.0, "EUR")
    assert "Your quote: 1,499.00 EUR — your quote, 2026-11-20 (quote from ACME)" in (
        entry.label.text())
    assert "your quote, 2026-11-20" in tab.details.toPlainText()
    assert entry.clear_button.isEnabled()
    assert entry.clear()
    assert book.get(RTX) is None and "launch list price" in tab.details.toPlainText()


def test_a_bad_amount_is_said_and_nothing_is_saved(qtbot: QtBot, catalog: Catalog,
                                                   tmp_path: Path) -> None:
    book = PriceBook(tmp_path / "book.db")
    tab = make_tab(qtbot, catalog, book)
    dialog = tab.price_entry.make_dialog()
    qtbot.addWidget(dialog)
    for bad in ("twelve", "-5", "0"):
        dialog.amount.setText(bad)
        dialog.accept()
        assert dialog.message.text().startswith("Not saved:"), bad
        assert dialog.result() == 0
    dialog.amount.setText("100")
    dialog.when.setText("31/11/2026")
    dialog.accept()
    assert "is not a date" in dialog.message.text()
    assert book.prices() == []


def test_the_price_tile_shows_euros_with_the_rate_and_its_date() -> None:
    from dlhw_desktop.core.checks.summary import BuildSummary

    summary = BuildSummary(price_usd=3709.0, unknown_price_parts=0, sustained_w=None,
                           wall_w=None, heat_w=None, psu_load=None, vram_gb=None,
                           ram_gb=None, bf16_tflops=None, fp16_tflops=None, yearly_kwh=None,
                           yearly_cost_usd=None, accelerators=1, parts=2)
    euros = DisplayCurrency("EUR", Rate("EUR", 1 / 0.92, "2026-11-20"))
    value, caption = tile_texts(summary, CheckSettings(), euros)["price"]
    assert value == "€3,412" and caption.startswith("at 0.92 EUR/USD set 2026-11-20")
    value, caption = tile_texts(summary, CheckSettings(), DisplayCurrency("GBP"))["price"]
    assert value == "$3,709" and caption.startswith("no GBP rate set: in US dollars")


def test_the_currency_dialog_keeps_a_dated_rate_and_refuses_a_bad_one(
        qtbot: QtBot, tmp_path: Path) -> None:
    book = PriceBook(tmp_path / "book.db")
    dialog = CurrencyDialog(book)
    qtbot.addWidget(dialog)
    dialog.currency.setCurrentText("EUR")
    assert "No EUR rate yet" in dialog.message.text()
    dialog.rate.setText("abc")
    dialog.accept()
    assert dialog.message.text().startswith("Not saved:") and book.rates() == {}
    dialog.rate.setText("1.087")
    dialog.rate_date.setText("2026-11-20")
    dialog.accept()
    shown = book.display_currency()
    assert shown.converts and shown.basis() == "at 0.92 EUR/USD set 2026-11-20"
    assert PriceBook(tmp_path / "book.db").display_currency().code == "EUR"  # kept


def test_the_price_row_renders_its_kind_not_markup(catalog: Catalog) -> None:
    from dlhw_desktop.ui.catalog.part_details import part_html

    html = part_html(catalog.get(RTX))
    assert "&lt;span" not in html and "launch list price (MSRP), 2022-09-20" in html


def test_a_quote_from_the_details_pane_reaches_the_build_totals_in_euros(
        qtbot: QtBot, catalog: Catalog, app_settings) -> None:
    from dlhw_desktop.core.prices.book import UserPrice
    from dlhw_desktop.ui.shell.main_window import MainWindow

    window = MainWindow(catalog, app_settings)
    qtbot.addWidget(window)
    window.add_to_build([RTX])
    build_tab = window.build_tab
    build_tab.ask_save_changes = lambda: "discard"  # closing the window at teardown
    assert build_tab.totals.value("price") == "$1,599"
    assert window.catalog_tab.select_part(RTX)
    assert window.catalog_tab.price_entry.save(UserPrice(RTX, 1400.0, "USD", "2026-11-20"))
    assert build_tab.totals.value("price") == "$1,400"  # the same book, at once
    window.price_book.set_rate("EUR", 1.25, "2026-11-20")
    window.price_book.set_display_currency("EUR")
    build_tab.recheck()
    assert build_tab.totals.value("price") == "€1,120"
    assert "at 0.8 EUR/USD set 2026-11-20" in build_tab.totals.captions["price"].text()


def test_a_damaged_price_book_never_hides_a_part_and_is_said_on_save(
        qtbot: QtBot, catalog: Catalog, tmp_path: Path) -> None:
    from dlhw_desktop.core.prices.book import UserPrice

    damaged = tmp_path / "book.db"
    damaged.write_bytes(b"this is not a database, it is a note\n" * 50)
    tab = make_tab(qtbot, catalog, PriceBook(damaged))
    assert "GeForce RTX 4090" in tab.details.toPlainText()
    messages: list[str] = []
    tab.status_message.connect(messages.append)
    assert not tab.price_entry.save(UserPrice(RTX, 1400.0))
    assert messages and messages[-1].startswith("Price not saved:")


def test_reading_the_price_book_does_not_load_sqlite_utils() -> None:
    """Start-up shows the first part's details through the price book; the write library
    (sqlite-utils, which imports numpy) must not come with it."""
    import subprocess
    import sys

    code = ("import sys, tempfile, pathlib\n"
            "from dlhw_desktop.catalog.price_store import PriceBook\n"
            "book = PriceBook(pathlib.Path(tempfile.mkdtemp()) / 'b.db')\n"
            "book.get('x'); book.display_currency()\n"
            "print('sqlite_utils' in sys.modules, 'numpy' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False False"
