"""A reseller's quote in the import dialog (issue #28 item 6): a letterhead above a header
naming its currency, an OEM part number, the open build's card first, the header row and
the file's currency chosen by hand, a currency without a rate refused per row, and your
price in the Catalog table at once; the price book exported and imported back whole."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.price_store import PriceBook
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.prices.book import Rate, UserPrice
from dlhw_desktop.ui.catalog.catalog_tab import CatalogTab
from dlhw_desktop.ui.prices.import_dialog import NOT_IN_FILE, PriceImportDialog
from dlhw_desktop.ui.prices.import_model import RowStatus
from dlhw_desktop.ui.prices.price_files import export_prices

PSU = "psu/corsair-rm1000x-2024-black-atx-1000w-fully-modular"
CHIP = "accelerator/nvidia-rtx-6000-ada-generation"
QUOTE = ("ACME Systemhaus GmbH\nHauptstraße 5, 80331 München\nAngebot Nr. 2026-1142;;;\n"
         "Datum: 20.11.2026\n;;;\nPos;Art.-Nr.;Bezeichnung;Unit price (EUR)\n"
         "1;CP-9020271-EU;Corsair Netzteil;189,90\n2;;RTX 6000 Ada;6.899,00\n"
         "Summe;;;7.088,90\n")


def open_dialog(qtbot: QtBot, catalog: Catalog, book: PriceBook, path: Path,
                build: set[str] | None = None) -> PriceImportDialog:
    dialog = PriceImportDialog(path, catalog, book, build_ids=build or set())
    qtbot.addWidget(dialog)
    wait(qtbot, dialog)
    return dialog


def wait(qtbot: QtBot, dialog: PriceImportDialog) -> None:
    qtbot.waitUntil(lambda: dialog.preview is not None or bool(dialog.message.text()),
                    timeout=30_000)


def statuses(dialog: PriceImportDialog) -> dict[int, RowStatus]:
    return {line.line: line.status for line in dialog.model.lines}


def test_a_quote_under_a_letterhead_in_euros_with_an_oem_number_and_the_builds_card(
        qtbot: QtBot, catalog: Catalog, tmp_path: Path) -> None:
    path = tmp_path / "angebot.csv"
    path.write_text(QUOTE, encoding="utf-8")
    book = PriceBook(tmp_path / "book.db")
    book.set_rate("EUR", "1.08", "2026-11-20")
    dialog = open_dialog(qtbot, catalog, book, path, {CHIP})
    assert dialog.options.header_row.currentData() == 6
    assert dialog.combos["price"].currentText() == "Unit price (EUR)"
    assert "EUR, as the column 'Unit price (EUR)' says" in dialog.options.basis.text()
    assert statuses(dialog) == {7: RowStatus.MATCHED, 8: RowStatus.MATCHED,
                                9: RowStatus.SKIPPED}
    psu, card = dialog.model.lines[0], dialog.model.lines[1]
    assert psu.price.startswith("189.90 EUR") and "RM1000x" in psu.part
    assert card.part == "NVIDIA RTX 6000 Ada Generation" and "your open build" in card.remark
    assert book.prices() == []  # nothing before Save
    dialog.save_button.click()
    assert {p.part_id: p.currency for p in book.prices()} == {PSU: "EUR", CHIP: "EUR"}


def test_without_a_rate_each_row_says_so_and_nothing_can_be_saved(
        qtbot: QtBot, catalog: Catalog, tmp_path: Path) -> None:
    path = tmp_path / "angebot.csv"
    path.write_text(QUOTE, encoding="utf-8")
    book = PriceBook(tmp_path / "book.db")
    dialog = open_dialog(qtbot, catalog, book, path, {CHIP})
    errors = [line for line in dialog.model.lines if line.status is RowStatus.ERROR]
    assert [e.line for e in errors] == [7, 8]
    assert all("no EUR rate" in e.remark for e in errors)
    assert not dialog.save_button.isEnabled() and book.prices() == []


def test_the_header_row_and_the_files_currency_chosen_by_hand(
        qtbot: QtBot, catalog: Catalog, tmp_path: Path) -> None:
    path = tmp_path / "devis.csv"
    path.write_text("Société Exemple SARL\nDevis 88;;\nCode;Texte;Montant;Remise\n"
                    "CP-9020271-EU;Alimentation;189,90;0\nSoit;;;\n", encoding="utf-8")
    book = PriceBook(tmp_path / "book.db")
    book.set_rate("EUR", "1.08", "2026-11-20")
    dialog = open_dialog(qtbot, catalog, book, path)
    assert "no price column" in dialog.message.text()  # guessed row 3, names unknown
    header = dialog.options.header_row
    header.setCurrentIndex(header.findData(2))  # the user tries "Devis 88"
    header.activated.emit(header.currentIndex())
    dialog.message.setText("")
    wait(qtbot, dialog)
    assert "header row you chose has no price column" in dialog.message.text()
    header.setCurrentIndex(header.findData(3))
    header.activated.emit(header.currentIndex())
    dialog.message.setText("")
    qtbot.waitUntil(lambda: dialog.combos["price"].count() == 5, timeout=30_000)
    offered = [dialog.combos["price"].itemText(i) for i in range(5)]
    assert offered == [NOT_IN_FILE, "Code", "Texte", "Montant", "Remise"]
    dialog.combos["price"].setCurrentText("Montant")
    dialog.combos["part_number"].setCurrentText("Code")
    dialog.combos["price"].activated.emit(dialog.combos["price"].currentIndex())
    wait(qtbot, dialog)
    assert statuses(dialog)[4] is RowStatus.ERROR  # a decimal comma, no currency named:
    assert "names no currency" in dialog.model.lines[0].remark  # never saved as dollars
    assert "names no currency" in dialog.options.basis.text()
    assert not dialog.save_button.isEnabled()
    dialog.options.currency.setCurrentText("EUR")
    dialog.preview = None
    dialog.options.currency.activated.emit(dialog.options.currency.currentIndex())
    wait(qtbot, dialog)
    assert statuses(dialog)[4] is RowStatus.MATCHED
    assert dialog.model.lines[0].price.startswith("189.90 EUR")
    dialog.save_button.click()
    assert book.get(PSU).currency == "EUR"


def test_the_price_book_exports_and_imports_back_whole(
        qtbot: QtBot, catalog: Catalog, tmp_path: Path) -> None:
    book = PriceBook(tmp_path / "book.db")
    book.save([UserPrice(PSU, 189.90000000000001, "EUR", "2026-11-20", "=HYPERLINK(1)"),
               UserPrice("switch:qm9700", 24000.0, "USD", "2026-11", "per deal")],
              [Rate("EUR", 1.0825, "2026-11-20"), Rate("GBP", 1.27, "2026-10-01")], "GBP")
    target = tmp_path / "mine.csv"
    assert export_prices(None, book, choose=lambda: str(target)) == target  # type: ignore[arg-type]
    other = PriceBook(tmp_path / "other.db")
    dialog = open_dialog(qtbot, catalog, other, target)
    assert statuses(dialog) == {2: RowStatus.MATCHED, 3: RowStatus.MATCHED}
    assert "QM9700" in dialog.model.lines[1].part  # the gear's name, not its key
    assert "2 prices, 2 rates and the display currency (GBP)" in dialog.options.basis.text()
    dialog.save_button.click()
    assert other.contents() == book.contents()


def test_your_price_shows_in_the_catalog_table_and_the_status_bar_names_the_part(
        qtbot: QtBot, catalog: Catalog, tmp_path: Path) -> None:
    book = PriceBook(tmp_path / "book.db")
    tab = CatalogTab(catalog, price_book=book)
    qtbot.addWidget(tab)
    assert tab.select_part(PSU)
    column = tab.model.columns.index("price_usd")
    row = tab.model.row_of(PSU)
    assert tab.model.index(row, column).data() == "n/a"  # the catalog has no price
    messages: list[str] = []
    tab.status_message.connect(messages.append)
    assert tab.price_entry.save(UserPrice(PSU, 189.0, "USD", "2026-11-20"))
    assert tab.model.index(row, column).data() == "$189"
    assert messages[-1].startswith("Your price for Corsair RM1000x (2024)")
    assert PSU not in messages[-1]
    tip = tab.model.index(row, column).data(Qt.ItemDataRole.ToolTipRole)
    assert "quote" in tip.lower()
    assert tab.price_entry.clear()
    assert tab.model.index(row, column).data() == "n/a"
    book.save([UserPrice(PSU, 200.0, "USD", "2026-11-21")])  # as an import would
    tab.prices_changed([PSU])
    assert tab.model.index(row, column).data() == "$200"


def test_your_price_reaches_the_comparison_at_once(qtbot: QtBot, catalog: Catalog,
                                                   app_settings) -> None:
    from dlhw_desktop.ui.shell.main_window import MainWindow

    gpu = "accelerator/nvidia-geforce-rtx-4090"
    window = MainWindow(catalog, app_settings)
    qtbot.addWidget(window)
    window.compare_tab.add_parts([gpu])
    listed = {p.id: p.price_usd for p in window.compare_tab.parts()}
    assert listed[gpu] == 1599.0  # the catalog's launch price
    window.finish_startup()
    assert window.catalog_tab.select_part(gpu)
    assert window.catalog_tab.price_entry.save(UserPrice(gpu, 1400.0, "USD", "2026-11-20"))
    assert {p.id: p.price_usd for p in window.compare_tab.parts()}[gpu] == 1400.0
    window._prices_imported([gpu])  # an import names the parts it priced: one redraw
    assert {p.id: p.price_usd for p in window.compare_tab.parts()}[gpu] == 1400.0


def test_a_price_typed_in_the_builds_list_reaches_the_catalog_table_and_the_comparison(
        qtbot: QtBot, catalog: Catalog, app_settings) -> None:
    from dlhw_desktop.ui.shell.main_window import MainWindow

    gpu = "accelerator/nvidia-geforce-rtx-4090"
    window = MainWindow(catalog, app_settings)
    qtbot.addWidget(window)
    window.finish_startup()
    window.add_to_build([gpu])
    window.build_tab.ask_save_changes = lambda: "discard"  # closing at teardown
    window.compare_tab.add_parts([gpu])
    tab = window.catalog_tab
    assert tab.select_part(gpu)
    row, column = tab.model.row_of(gpu), tab.model.columns.index("price_usd")
    assert tab.model.index(row, column).data() == "$1,599"
    assert window.build_tab.set_user_price(gpu, "1,350")
    assert tab.model.index(row, column).data() == "$1,350"
    assert "your quote" in tab.details.toPlainText()
    assert {p.id: p.price_usd for p in window.compare_tab.parts()}[gpu] == 1350.0
