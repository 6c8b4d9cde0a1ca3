"""File > Import price list… and Export your prices…: the price book to and from CSV."""

from __future__ import annotations

from collections.abc import Callable, Collection
from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QWidget

from dlhw_desktop.catalog.price_store import PriceBook
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.errors import DlhwError
from dlhw_desktop.core.files.atomic import write_atomic
from dlhw_desktop.core.files.output_guard import Protected, check_output
from dlhw_desktop.core.prices.book_csv import contents_csv
from dlhw_desktop.ui.common.dialogs import show_error
from dlhw_desktop.ui.prices.import_dialog import PriceImportDialog

CSV_FILTER = "Price lists (*.csv *.txt *.tsv);;All files (*)"


def import_price_list(parent: QWidget, catalog: Catalog, book: PriceBook,
                      on_saved: Callable[[list[str]], None],
                      choose: Callable[[], str] | None = None,
                      build_ids: Collection[str] = ()) -> PriceImportDialog | None:
    """Ask for a CSV file and show its preview; ``on_saved(part_ids)`` after Save. Returns
    the dialog once it has closed (``None`` when no file was chosen). ``build_ids``: the
    open build's parts, which a line that could be several parts prices first."""
    chosen = (choose or (lambda: QFileDialog.getOpenFileName(
        parent, "Import price list", "", CSV_FILTER)[0]))()
    if not chosen:
        return None
    dialog = PriceImportDialog(Path(chosen), catalog, book, parent, build_ids)
    dialog.prices_saved.connect(on_saved)
    dialog.exec()
    return dialog


def export_prices(parent: QWidget, book: PriceBook,
                  choose: Callable[[], str] | None = None) -> Path | None:
    """Write the user's prices to a CSV file they choose (the file dialog asks before
    replacing one); the file is written whole or not at all."""
    chosen = (choose or (lambda: QFileDialog.getSaveFileName(
        parent, "Export your prices", "my-prices.csv", CSV_FILTER)[0]))()
    if not chosen:
        return None
    path = Path(chosen)
    try:  # the dialog asked about replacing; never over the book itself, by any name
        check_output(path, [Protected(book.path, "your price book", side_files=True)],
                     force=True)
        write_atomic(path, contents_csv(book.contents()).encode("utf-8"))
    except OSError as exc:
        show_error(parent, "Prices not exported",
                   f"Cannot write {path}: {exc.strerror or exc}")
        return None
    except DlhwError as exc:  # a damaged price book
        show_error(parent, "Prices not exported", str(exc))
        return None
    return path
