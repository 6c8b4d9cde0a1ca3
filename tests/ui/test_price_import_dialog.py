"""File > Import price list…: a vendor's quote previewed row by row, columns re-mapped,
an ambiguous row pointed at its part, and nothing saved until Save."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.price_store import PriceBook
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.prices.book import user_price
from dlhw_desktop.ui.prices.import_dialog import NOT_IN_FILE, PriceImportDialog
from dlhw_desktop.ui.prices.import_model import RowStatus
from dlhw_desktop.ui.prices.price_files import export_prices

RTX = "accelerator/nvidia-geforce-rtx-4090"
QUOTE = ("Pos.;Bezeichnung;Einzelpreis;Währung;Datum;Lieferant\n"
         "1;GeForce RTX 4090;1.649,00;EUR;2026-11-20;ACME GmbH\n"
         "2;RTX 4090;1.600,00;EUR;2026-11-20;ACME GmbH\n"
         "3;Mystery Widget 3000;10,00;EUR;2026-11-20;ACME GmbH\n"
         "4;GeForce RTX 4080;auf Anfrage;EUR;2026-11-20;ACME GmbH\n")


def open_dialog(qtbot: QtBot, catalog: Catalog, book: PriceBook, path: Path
                ) -> PriceImportDialog:
    dialog = PriceImportDialog(path, catalog, book)
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.preview is not None or bool(dialog.message.text()),
                    timeout=30_000)
    return dialog


def statuses(dialog: PriceImportDialog) -> dict[int, RowStatus]:
    return {line.line: line.status for line in dialog.model.lines}


def test_a_vendor_quote_is_previewed_and_saved_only_on_save(
        qtbot: QtBot, catalog: Catalog, tmp_path: Path) -> None:
    path = tmp_path / "angebot.csv"
    path.write_bytes(QUOTE.encode("cp1252"))
    book = PriceBook(tmp_path / "book.db")
    book.save([user_price(RTX, "1799", "USD", "2026-10-01", "older quote")])
    book.set_rate("EUR", "1.08", "2026-11-20")  # a quote in euros needs a rate to count
    dialog = open_dialog(qtbot, catalog, book, path)
    assert "read as cp1252, separated by semicolons" in dialog.file_label.text()
    assert dialog.combos["price"].currentText() == "Einzelpreis"
    assert dialog.combos["part_number"].currentText() == NOT_IN_FILE
    assert statuses(dialog) == {2: RowStatus.MATCHED, 3: RowStatus.AMBIGUOUS,
                                4: RowStatus.UNMATCHED, 5: RowStatus.ERROR}
    matched = dialog.model.lines[0]
    assert matched.price == "1,649.00 EUR, 2026-11-20"
    assert "replaces your 1,799.00 USD of 2026-10-01" in matched.remark
    assert "would replace a price you set before" in dialog.summary.text()
    assert "not a price" in dialog.model.lines[3].remark
    assert dialog.save_button.text() == "Save 1 price" and dialog.save_button.isEnabled()
    assert book.get(RTX).amount == 1799.0  # the preview saved nothing

    dialog.show_rows.setCurrentText(RowStatus.AMBIGUOUS.value)
    assert dialog.proxy.rowCount() == 1
    dialog.table.selectRow(0)
    assert dialog.choice.isVisibleTo(dialog) and dialog.choice.count() >= 2
    ids = [dialog.choice.itemData(i) for i in range(dialog.choice.count())]
    assert RTX in ids
    dialog.choice.setCurrentIndex(ids.index(RTX))
    dialog.use_choice.click()
    assert "line 2 already prices" in dialog.message.text()  # one price per part
    other = next(i for i in ids if i != RTX)
    dialog.choice.setCurrentIndex(ids.index(other))
    dialog.use_choice.click()
    assert statuses(dialog)[3] is RowStatus.MATCHED
    assert dialog.save_button.text() == "Save 2 prices"

    with qtbot.waitSignal(dialog.prices_saved) as saved:
        dialog.save_button.click()
    assert sorted(saved.args[0]) == sorted([RTX, other])
    mine = book.get(RTX)
    assert (mine.amount, mine.currency, mine.price_date) == (1649.0, "EUR", "2026-11-20")
    assert mine.note == "from ACME GmbH"
    assert book.get(other).amount == 1600.0


def test_a_file_that_is_not_a_price_list_is_named_and_nothing_is_saved(
        qtbot: QtBot, catalog: Catalog, tmp_path: Path) -> None:
    path = tmp_path / "quote.xlsx"
    path.write_bytes(b"PK\x03\x04" + b"\x00" * 64)
    book = PriceBook(tmp_path / "book.db")
    dialog = open_dialog(qtbot, catalog, book, path)
    assert "spreadsheet workbook" in dialog.message.text()
    assert not dialog.save_button.isEnabled() and dialog.model.rowCount() == 0
    assert book.prices() == []


def test_the_price_column_is_chosen_by_hand_when_its_name_is_unknown(
        qtbot: QtBot, catalog: Catalog, tmp_path: Path) -> None:
    path = tmp_path / "list.csv"
    path.write_text("Artikel,Betrag EUR netto\nGeForce RTX 4090,1500\n", encoding="utf-8")
    book = PriceBook(tmp_path / "book.db")
    book.set_rate("EUR", "1.08", "2026-11-20")
    dialog = open_dialog(qtbot, catalog, book, path)
    assert "no price column" in dialog.message.text()
    assert not dialog.save_button.isEnabled()
    dialog.combos["price"].setCurrentText("Betrag EUR netto")
    dialog.combos["name"].setCurrentText("Artikel")
    dialog.message.setText("")
    dialog.combos["price"].activated.emit(dialog.combos["price"].currentIndex())
    qtbot.waitUntil(lambda: dialog.preview is not None, timeout=30_000)
    assert statuses(dialog) == {2: RowStatus.MATCHED}
    assert dialog.model.lines[0].price.endswith("EUR, " + dialog.preview.prices[0].price_date)
    assert dialog.save_button.isEnabled()


def test_your_prices_export_to_a_csv_that_imports_back(
        qtbot: QtBot, catalog: Catalog, tmp_path: Path) -> None:
    book = PriceBook(tmp_path / "book.db")
    book.save([user_price(RTX, "1.499,00", "EUR", "2026-11-20", "quote from ACME")])
    target = tmp_path / "mine.csv"
    assert export_prices(None, book, choose=lambda: str(target)) == target  # type: ignore[arg-type]
    other = PriceBook(tmp_path / "other.db")
    dialog = open_dialog(qtbot, catalog, other, target)
    assert statuses(dialog) == {2: RowStatus.MATCHED}
    dialog.save_button.click()
    assert other.get(RTX).amount == pytest.approx(1499.0)


def test_an_imported_quote_reaches_the_build_totals_and_the_details_pane(
        qtbot: QtBot, catalog: Catalog, app_settings, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QFileDialog

    from dlhw_desktop.ui.shell.main_window import MainWindow

    path = tmp_path / "quote.csv"
    path.write_text("Description,Unit price,Currency\nGeForce RTX 4090,1400.00,USD\n",
                    encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))

    def confirm(dialog: PriceImportDialog) -> int:  # the user waits for the preview, saves
        qtbot.waitUntil(lambda: dialog.save_button.isEnabled(), timeout=30_000)
        dialog.save_button.click()
        return 1
    monkeypatch.setattr(PriceImportDialog, "exec", confirm)
    window = MainWindow(catalog, app_settings)
    qtbot.addWidget(window)
    window.finish_startup()
    window.add_to_build([RTX])
    assert window.build_tab.totals.value("price") == "$1,599"
    assert window.catalog_tab.select_part(RTX)
    window.findChild(QAction, "action_import_prices").trigger()
    assert window.build_tab.totals.value("price") == "$1,400"
    assert "your quote" in window.catalog_tab.details.toPlainText()
    assert "Saved 1 price" in window.statusBar().currentMessage()


def test_a_resellers_quote_under_a_letterhead_shows_its_total_lines_left_out(
        qtbot: QtBot, catalog: Catalog, tmp_path: Path) -> None:
    path = tmp_path / "acme-quote.csv"
    path.write_text("ACME Systems Inc.,,,,,,\nQuote 4471-22,,,,,,\n"
                    "Line,Mfg. Part#,ACME#,Description,Qty,Unit Price,Extended Price\n"
                    "1,,7713002,GeForce RTX 4090,2,\"$1,749.00\",\"$3,498.00\"\n"
                    ",,,Subtotal,,,\"$3,498.00\"\n,,,Sales Tax,,,$279.84\n",
                    encoding="utf-8")
    dialog = open_dialog(qtbot, catalog, PriceBook(tmp_path / "book.db"), path)
    assert "from line 4 (the lines above are its heading)" in dialog.file_label.text()
    assert statuses(dialog) == {4: RowStatus.MATCHED, 5: RowStatus.SKIPPED,
                                6: RowStatus.SKIPPED}
    assert "2 total lines left out" in dialog.summary.text()
    assert dialog.save_button.text() == "Save 1 price"


def test_an_unexpected_failure_is_said_and_nothing_is_saved(
        qtbot: QtBot, catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import dlhw_desktop.ui.prices.import_dialog as module

    def broken(*_args, **_kwargs):
        raise ValueError("index exploded")
    monkeypatch.setattr(module, "preview_import", broken)
    path = tmp_path / "quote.csv"
    path.write_text("Description,Price\nGeForce RTX 4090,1500\n", encoding="utf-8")
    book = PriceBook(tmp_path / "book.db")
    dialog = open_dialog(qtbot, catalog, book, path)
    assert "could not be read (ValueError: index exploded)" in dialog.message.text()
    assert not dialog.save_button.isEnabled() and book.prices() == []


def test_a_damaged_price_book_is_said_and_the_preview_still_shows(
        qtbot: QtBot, catalog: Catalog, tmp_path: Path) -> None:
    damaged = tmp_path / "book.db"
    damaged.write_bytes(b"not a database\n" * 200)
    path = tmp_path / "quote.csv"
    path.write_text("Description,Price\nGeForce RTX 4090,1500\n", encoding="utf-8")
    dialog = open_dialog(qtbot, catalog, PriceBook(damaged), path)
    assert statuses(dialog) == {2: RowStatus.MATCHED}
    assert "cannot be read" in dialog.message.text()
    dialog.save_button.click()
    assert dialog.message.text().startswith("Not saved:")
    assert damaged.read_bytes() == b"not a database\n" * 200  # nothing lost
