"""File > Import price list…: read a quote or price list (CSV), show what it would do,
row by row, and save the matched prices into the user's price book only when asked.

The reading and matching run on a worker thread with progress (the catalog's names are
read once per session and kept: 26,000 parts take about a second, a 10,000-row list is
matched in a fifth of that). The columns can be re-mapped by hand and an ambiguous row
pointed at the part it prices; "Save" writes every matched row at once, or none.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from pathlib import Path

from PySide6.QtCore import QObject, QSortFilterProxyModel, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from dlhw_desktop.catalog.price_store import PriceBook
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.cluster.gear import gear_items
from dlhw_desktop.core.errors import DlhwError
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.files.reading import read_bounded
from dlhw_desktop.core.limits import MAX_PRICE_LIST_BYTES
from dlhw_desktop.core.prices.book import PriceBookError, Rate
from dlhw_desktop.core.prices.price_list import (
    ImportPreview,
    PartIndex,
    decode,
    guess_columns,
    preview_import,
    read_table,
)
from dlhw_desktop.core.prices.quote_table import QuoteTable, head_rows
from dlhw_desktop.ui.common.background import run_in_background
from dlhw_desktop.ui.prices.file_options import FileOptions
from dlhw_desktop.ui.prices.import_model import PreviewModel, RowStatus, preview_lines

log = logging.getLogger(__name__)

FIELD_LABELS: dict[str, str] = {
    "price": "Price", "part_number": "Part number", "name": "Name or description",
    "part_id": "Catalog id", "currency": "Currency", "date": "Price date",
    "vendor": "Supplier", "note": "Note",
}
"""Our fields as the user reads them, in the order the mapping form shows them."""

NOT_IN_FILE = "(not in the file)"
ALL_ROWS = "All rows"

_INDEXES: dict[str, PartIndex] = {}
"""The catalog's names by catalog file, built once per session (a second import is quick).
Cloud offers are left out: a price list prices things one buys, a rental has its rate."""


def part_index(catalog: Catalog) -> PartIndex:
    """Every catalog part by id and normalised name; runs on a worker thread."""
    key = str(catalog.path)
    if key not in _INDEXES:
        _INDEXES[key] = PartIndex(catalog.part_names(leave_out=[Category.CLOUD]),
                                  catalog.aliases())
    return _INDEXES[key]


class _Progress(QObject):
    """Made on the GUI thread: the worker's emits arrive queued."""

    changed = Signal(str, int, int)


class PriceImportDialog(QDialog):
    """Preview a price list and save its matched rows; nothing is written before Save."""

    prices_saved = Signal(list)  # the part ids whose price the import set

    def __init__(self, path: Path, catalog: Catalog, book: PriceBook,
                 parent: QWidget | None = None, build_ids: Collection[str] = ()) -> None:
        super().__init__(parent)
        self.setObjectName("price_import_dialog")
        self.setWindowTitle(f"Import price list: {path.name}")
        self.resize(1100, 640)
        self.path, self.catalog, self.book = path, catalog, book
        self.build_ids = frozenset(build_ids)
        """The open build's parts: a line that could be several parts prices its one."""
        self.data = b""
        self.header: list[str] = []
        self.header_line: int | None = None  # the user's choice; None: guessed
        self.preview: ImportPreview | None = None
        self._generation = 0
        self._progress = _Progress(self)
        self._progress.changed.connect(self._show_progress)

        self.file_label = QLabel(objectName="import_file_label")
        self.file_label.setWordWrap(True)
        self.combos: dict[str, QComboBox] = {}
        mapping = QGridLayout()
        for i, (field, label) in enumerate(FIELD_LABELS.items()):
            combo = QComboBox(objectName=f"column_{field}")
            combo.setToolTip(f"The file's column that holds the {label.lower()}")
            combo.activated.connect(self._remap)
            self.combos[field] = combo
            form = QFormLayout()
            form.setContentsMargins(0, 0, 0, 0)
            form.addRow(label, combo)
            mapping.addLayout(form, i // 4, i % 4)
        self.options = FileOptions(self)
        self.options.header_chosen.connect(self._choose_header)
        self.options.currency_chosen.connect(self._remap)
        self.progress = QProgressBar(objectName="import_progress")
        self.progress.setTextVisible(True)
        self.summary = QLabel(objectName="import_summary")
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.show_rows = QComboBox(objectName="import_row_filter")
        self.show_rows.addItems([ALL_ROWS, *(s.value for s in RowStatus)])
        self.show_rows.currentTextChanged.connect(self._filter_rows)
        top = QHBoxLayout()
        top.addWidget(self.summary, 1)
        top.addWidget(QLabel("Show"))
        top.addWidget(self.show_rows)

        self.model = PreviewModel()
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterRole(Qt.ItemDataRole.UserRole)
        self.proxy.setFilterKeyColumn(1)
        self.table = QTableView(objectName="import_table")
        self.table.setModel(self.proxy)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for column, width in enumerate((56, 110, 280, 190, 320)):
            self.table.setColumnWidth(column, width)
        self.table.selectionModel().currentRowChanged.connect(lambda *_: self._row_selected())

        self.choice = QComboBox(objectName="import_candidate")
        self.choice.setMinimumContentsLength(40)
        self.use_choice = QPushButton("Use this part", objectName="import_use_candidate")
        self.use_choice.clicked.connect(self._resolve)
        self.choice_label = QLabel("An ambiguous row prices:")
        choose = QHBoxLayout()
        choose.addWidget(self.choice_label)
        choose.addWidget(self.choice, 1)
        choose.addWidget(self.use_choice)
        self._show_choice(False)

        self.message = QLabel(objectName="import_message")
        self.message.setWordWrap(True)
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.save_button = self.buttons.addButton("Save prices",
                                                  QDialogButtonBox.ButtonRole.AcceptRole)
        self.save_button.setObjectName("import_save")
        self.save_button.setEnabled(False)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(self.file_label)
        layout.addWidget(self.options)
        layout.addLayout(mapping)
        layout.addWidget(self.progress)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        layout.addLayout(choose)
        layout.addWidget(self.message)
        layout.addWidget(self.buttons)
        self._read_file()

    # --- reading ------------------------------------------------------------------------
    def _read_file(self, header_line: int | None = None) -> None:
        """Read the file and its header on a worker thread (a bounded read: a regular file
        of at most ``MAX_PRICE_LIST_BYTES``, never a FIFO or a device), then preview.
        ``header_line``: the row the user says is the header."""
        self.progress.show()
        self._show_progress(f"Reading {self.path.name}", 0, 0)
        self.save_button.setEnabled(False)
        path, data = self.path, self.data

        def work() -> tuple[bytes, str, QuoteTable | None, str, list[tuple[int, list[str]]]]:
            raw = data or read_bounded(path, MAX_PRICE_LIST_BYTES)
            text, encoding = decode(raw)
            try:
                table = read_table(text, header_line)
            except PriceBookError as exc:  # the rows are still offered as header choices
                return raw, encoding, None, str(exc), head_rows(text)
            return raw, encoding, table, "", table.lines

        run_in_background(work, self._file_read, self._file_failed, self)

    def _choose_header(self, line: int) -> None:
        self.header_line = line
        self._read_file(line)

    def _file_failed(self, exc: BaseException) -> None:
        if isinstance(exc, DlhwError):
            self._fail(f"{self.path.name}: {exc}")
            return
        log.error("price list could not be read", exc_info=exc)
        self._fail(f"{self.path.name} could not be read ({type(exc).__name__}: {exc}); "
                   "nothing was saved")

    def _file_read(self, result: tuple[bytes, str, QuoteTable | None, str,
                                       list[tuple[int, list[str]]]]) -> None:
        self.data, encoding, table, problem, rows = result
        self.options.set_rows(rows, table.header_line if table else self.header_line)
        if table is None:
            self._fail(f"{self.path.name}: {problem}\nChoose the header row above, or "
                       "Cancel.")
            self.options.setEnabled(bool(rows))
            return
        self.header = table.header
        separator = {",": "commas", ";": "semicolons", "\t": "tabs"}.get(table.delimiter,
                                                                          table.delimiter)
        above = (f" from line {table.header_line + 1:,} (the lines above are its heading)"
                 if table.header_line > 1 else "")
        how = ("" if table.guessed or self.header_line is not None else
               " No row names its columns as expected: the widest row is taken as the "
               "header; choose another under Header row if it is not.")
        self.file_label.setText(f"{self.path} — {len(table.rows):,} rows{above}, read as "
                                f"{encoding}, separated by {separator}. Nothing is saved "
                                f"until you press Save.{how}")
        guessed = guess_columns(self.header)
        for field, combo in self.combos.items():
            combo.clear()
            combo.addItems([NOT_IN_FILE, *[h for h in self.header if h]])
            combo.setCurrentText(guessed.get(field, NOT_IN_FILE))
            combo.setEnabled(True)
        self._run_preview({})

    def _overrides(self) -> dict[str, str]:
        return {field: ("" if combo.currentText() == NOT_IN_FILE else combo.currentText())
                for field, combo in self.combos.items()}

    def _remap(self) -> None:
        self._run_preview(self._overrides())

    def _run_preview(self, overrides: dict[str, str]) -> None:
        self._generation += 1
        generation = self._generation
        self.preview = None
        self.save_button.setEnabled(False)
        self.message.setText("")
        self.progress.show()
        self._show_progress("Reading the catalog's part names", 0, 0)
        data, catalog, emit = self.data, self.catalog, self._progress.changed.emit
        header_line, currency, build = (self.header_line, self.options.chosen_currency(),
                                        self.build_ids)
        rates = self._rates()

        def work() -> ImportPreview:
            index = part_index(catalog)

            def rows_done(done: int, total: int) -> None:
                emit("Matching rows", done, total)
            return preview_import(data, index, overrides, progress=rows_done,
                                  currency=currency, header_line=header_line, rates=rates,
                                  build=build, other_names=gear_items())

        run_in_background(work, lambda result: self._previewed(generation, result),
                          lambda exc: self._preview_failed(generation, exc), self)

    def _rates(self) -> dict[str, Rate]:
        """The user's rates: a row in a currency without one is not saved."""
        try:
            return self.book.rates()
        except PriceBookError:
            return {}

    def _show_progress(self, what: str, done: int, total: int) -> None:
        self.progress.setRange(0, total)  # 0..0: busy, no count yet
        self.progress.setValue(done)
        self.progress.setFormat(f"{what}: {done:,} of {total:,}" if total else what)

    def _previewed(self, generation: int, preview: ImportPreview) -> None:
        if generation != self._generation:
            return  # the columns changed while this preview ran
        self.preview = preview
        self.progress.hide()
        for field, combo in self.combos.items():
            combo.setCurrentText(preview.columns.get(field, NOT_IN_FILE))
        self.options.basis.setText(f"Prices without a currency of their own: "
                                   f"{preview.currency_basis}")
        if preview.book is not None:  # an export of a price book reads back as it is
            self.options.setEnabled(False)
            for combo in self.combos.values():
                combo.setEnabled(False)
            book = preview.book
            self.options.basis.setText(
                f"An export of a price book: {len(book.prices):,} prices, {len(book.rates):,} "
                f"rates and the display currency ({book.display_currency or 'not given'}) "
                "are restored as they were")
        self._refresh()

    def _preview_failed(self, generation: int, exc: BaseException) -> None:
        if generation != self._generation:
            return
        if not isinstance(exc, DlhwError):  # a bug, not the file: said, logged, kept
            log.error("price list preview failed", exc_info=exc)
            self._fail(f"{self.path.name} could not be read ({type(exc).__name__}: {exc}); "
                       "nothing was saved")
            return
        self._fail(f"{self.path.name}: {exc}", keep_mapping=True)

    def _fail(self, message: str, keep_mapping: bool = False) -> None:
        self.progress.hide()
        self.preview = None
        self.model.set_lines([])
        self.summary.setText("Nothing to import.")
        self.message.setText(message + ("\nChoose the columns above, or Cancel." if
                                        keep_mapping else ""))
        self.save_button.setEnabled(False)
        for combo in self.combos.values():
            combo.setEnabled(keep_mapping)
        self.options.basis.setText("")

    # --- showing ------------------------------------------------------------------------
    def _refresh(self) -> None:
        preview = self.preview
        assert preview is not None
        try:
            current = {p.part_id: p for p in self.book.prices()}
        except PriceBookError as exc:  # a damaged book: the preview still shows; Save says
            current = {}
            self.message.setText(f"Your price book cannot be read: {exc}")
        lines = preview_lines(preview, current)
        self.model.set_lines(lines)
        replaced = sum(1 for _, _, part in preview.matched if part.id in current)
        self.summary.setText(
            f"{len(preview.matched):,} matched, {len(preview.ambiguous):,} to choose, "
            f"{len(preview.unmatched):,} without a match, {len(preview.errors):,} with "
            f"errors" + (f", {len(preview.skipped):,} total lines left out" if
                         preview.skipped else "")
            + (f"; {replaced:,} would replace a price you set before" if replaced else ""))
        count = len(preview.matched)
        self.save_button.setText(f"Save {count:,} price{'s' if count != 1 else ''}")
        self.save_button.setEnabled(count > 0)
        if not count:
            self.message.setText("No row matches a catalog part yet: check the columns "
                                 "above, or choose a part for an ambiguous row.")
        self._row_selected()

    def _filter_rows(self, text: str) -> None:
        self.proxy.setFilterFixedString("" if text == ALL_ROWS else text)

    def _selected_line(self) -> int | None:
        index = self.proxy.mapToSource(self.table.currentIndex())
        if not index.isValid():
            return None
        return index.row()

    def _row_selected(self) -> None:
        row = self._selected_line()
        line = self.model.lines[row] if row is not None else None
        if line is None or len(line.candidates) < 2:
            self._show_choice(False)
            return
        self.choice_label.setText(f"Line {line.line:,} prices:")
        self.choice.clear()
        names = [part.display_name for part in line.candidates]
        for part, name in zip(line.candidates, names, strict=True):
            twin = names.count(name) > 1  # two parts of one name: their kind tells them apart
            self.choice.addItem(f"{name} ({part.category.label})" if twin else name, part.id)
        self._show_choice(True)

    def _show_choice(self, visible: bool) -> None:
        for widget in (self.choice_label, self.choice, self.use_choice):
            widget.setVisible(visible)

    def _resolve(self) -> None:
        row = self._selected_line()
        if self.preview is None or row is None:
            return
        line = self.model.lines[row]
        chosen = self.choice.currentData()
        part = next((p for p in line.candidates if p.id == chosen), None)
        if part is None:
            return
        try:
            self.preview.resolve(line.line, part)
        except PriceBookError as exc:
            self.message.setText(f"Line {line.line:,}: {exc}")
            return
        self.message.setText(f"Line {line.line:,} now prices {part.display_name}.")
        self._refresh()

    # --- saving -------------------------------------------------------------------------
    def accept(self) -> None:
        if self.preview is None or not self.preview.matched:
            return
        prices = self.preview.prices
        try:  # an export of a price book brings its rates and display currency too
            self.book.save_import(self.preview)
        except PriceBookError as exc:
            self.message.setText(f"Not saved: {exc}")
            return
        self.prices_saved.emit([p.part_id for p in prices])
        super().accept()
