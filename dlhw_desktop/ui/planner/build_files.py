"""The Build tab's file and machine actions: new, open, save, recent files, the build
sheet, "Detect this computer", custom parts, and the questions they ask the user.

A mixin of ``BuildTab`` (it reads the tab's document, build, undo stack and picker), kept
apart so the tab's module holds its layout and its edits. The ``ask_*`` methods are the
only dialogs; tests replace them.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QDialog, QFileDialog, QMessageBox

from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.errors import DlhwError
from dlhw_desktop.core.parts import Part
from dlhw_desktop.ui.common.dialogs import show_error
from dlhw_desktop.ui.planner.part_picker import CUSTOM

if TYPE_CHECKING:
    from collections.abc import Sequence

    from PySide6.QtCore import SignalInstance
    from PySide6.QtGui import QUndoStack

    from dlhw_desktop.catalog.store import Catalog
    from dlhw_desktop.catalog.userparts import PartResolver, UserParts
    from dlhw_desktop.core.checks import CheckReport
    from dlhw_desktop.ui.common.settings import AppSettings
    from dlhw_desktop.ui.planner.build_document import BuildDocument
    from dlhw_desktop.ui.planner.part_picker import PartPicker
    from dlhw_desktop.ui.planner.user_parts_notice import UserPartsNotice

FILE_FILTER = "DL Hardware builds (*.dlhw.json);;JSON files (*.json);;All files (*)"


class BuildFileActions:
    """Files, export, detection and custom parts for ``BuildTab`` (a mixin)."""

    # what the mixin reads of the tab
    document: BuildDocument
    build: Build
    catalog: Catalog
    settings: AppSettings
    undo_stack: QUndoStack
    picker: PartPicker
    user_parts: UserParts
    resolver: PartResolver
    user_parts_notice: UserPartsNotice
    status_message: SignalInstance
    price_changed: SignalInstance
    _report: CheckReport | None

    def _flush_editors(self) -> None: ...

    def _show_notice(self, warnings: Sequence[str]) -> None: ...

    def add_parts(self, part_ids: Sequence[str]) -> int: ...

    # --- files --------------------------------------------------------------------------------
    def new_build(self) -> bool:
        if not self.maybe_save():
            return False
        self.document.reset()
        self._show_notice(())
        return True

    def open_build(self) -> bool:
        if not self.maybe_save():
            return False
        path = self.ask_open_path()
        return self.open_build_file(path, ask=False) if path is not None else False

    def open_build_file(self, path: Path | str, ask: bool = True) -> bool:
        """Open a build file; a bad file is an error dialog and the current build stays."""
        if ask and not self.maybe_save():
            return False
        try:
            loaded = self.document.open(Path(path))
        except DlhwError as exc:
            show_error(self, "Cannot open the build", str(exc))
            return False
        self._show_notice(loaded.warnings)
        if self.resolver.problem:
            self.user_parts_notice.check(self.resolver.problem)
        self.status_message.emit(f"Opened {Path(path).name}", 4000)
        return True

    def load_plan_build(self, build: Build, file_name: str) -> bool:
        """A cluster plan's node build, opened from the Cluster tab: it replaces the build
        as one undo step (untitled: saving it asks where, never over the plan file);
        False when the user keeps unsaved changes."""
        if not self.maybe_save():
            return False
        self.document.replace_untitled(build.snapshot(), f"Open cluster plan {file_name}")
        self.status_message.emit(f"Opened the node build of {file_name}", 4000)
        return True

    def save_build(self) -> bool:
        if self.document.path is None:
            return self.save_build_as()
        return self._save_to(self.document.path)

    def save_build_as(self) -> bool:
        path = self.ask_save_path()
        return self._save_to(path) if path is not None else False

    def _save_to(self, path: Path) -> bool:
        self._flush_editors()
        try:
            target = self.document.save(path)
        except DlhwError as exc:
            show_error(self, "Cannot save the build", str(exc))
            return False
        self.status_message.emit(f"Saved {target.name}", 4000)
        return True

    def maybe_save(self) -> bool:
        """Before the build is replaced or the app closes: False means "stay"."""
        self._flush_editors()
        if not self.document.modified:
            return True
        answer = self.ask_save_changes()
        if answer == "save":
            return self.save_build()
        return answer == "discard"

    def recent_files(self) -> list[str]:
        return self.document.recent_files()

    # --- export and detection (imported on first use) ----------------------------------------
    def export_sheet(self) -> None:
        from dlhw_desktop.ui.pdf.export_job import export_build_sheet

        # beside the open build when it has a file, else where the last sheet went
        remembered = self.settings.get("export/sheet_folder")
        folder = (self.document.path.parent if self.document.path is not None
                  else Path(remembered) if remembered else None)
        chosen = export_build_sheet(self, self.build, self._report, self.catalog, folder)
        if chosen is not None:
            self.settings.set("export/sheet_folder", str(chosen.parent))

    def set_user_price(self, part_id: str, text: str) -> bool:
        """The price cell as edited: the user's own price (a quote, in US dollars) for the
        part, kept in their price book (it wins over the catalog's in every build); empty
        text removes it. Price book entries are the user's data, like custom parts, so
        this is not a step of the build's undo history."""
        from datetime import date

        from dlhw_desktop.core.prices.book import PriceBookError, UserPrice, parse_quote

        book = self.resolver.price_book
        try:
            if text:
                # a currency named in the text is kept (a rate set with `dlhw price rate`
                # converts it); plain numbers and $ are US dollars
                amount, currency = parse_quote(text)
                book.save([UserPrice(part_id, amount, currency, date.today().isoformat(),
                                     note="entered in the build")])
            elif not book.remove(part_id):
                return False
        except PriceBookError as exc:
            self.status_message.emit(f"Price not changed: {exc}", 8000)
            return False
        self.picker.catalog_model.reprice([part_id])
        self.price_changed.emit(part_id)  # the Catalog and Compare tabs show it too
        part = self.resolver.find(part_id)
        if part is None or part_id not in self.build:
            return False
        self.build.replace(part_id, part)  # the same part, with the price that now holds
        shown = (f"${part.price_usd:,.0f}" if part.price_usd is not None
                 else "not counted in US dollars until you set its currency's rate"
                 if text else "no price")
        self.status_message.emit(
            f"Your price for {part.display_name}: {shown}"
            + (" (your quote, kept in your price book for every build)" if text else
               " (your price removed; the catalog's holds)"), 8000)
        return True

    def share_text(self, fmt: str) -> str:
        """The build as Markdown, BBCode or plain text (``reports.build_share``), from the
        same sheet the PDF prints."""
        from dlhw_desktop.reports.build_share import share_text
        from dlhw_desktop.ui.pdf.export_job import make_sheet

        return share_text(make_sheet(self.build, self._report, self.catalog), fmt)

    def copy_share(self, fmt: str) -> None:
        """Edit > Copy build as …: the text on the clipboard, said in the status bar."""
        from PySide6.QtGui import QGuiApplication

        from dlhw_desktop.reports.build_share import FORMATS

        try:
            text = self.share_text(fmt)
        except DlhwError as exc:
            show_error(self, "Cannot share the build", str(exc))
            return
        QGuiApplication.clipboard().setText(text)
        self.status_message.emit(f"Copied the build as {FORMATS[fmt]}: paste it in a post, "
                                 "an issue or a mail", 6000)

    def detect_computer(self) -> None:
        """Make a build from this machine (issue 10), off the GUI thread; undoable."""
        from dlhw_desktop.catalog.matching import detect_build
        from dlhw_desktop.ui.common.background import run_in_background

        if not self.maybe_save():  # the machine opens as a new, untitled build
            return
        state = (self.undo_stack.index(), self.undo_stack.count())
        self.status_message.emit("Detecting this computer…", 0)
        run_in_background(lambda: detect_build(self.catalog),
                          lambda detected: self._detected(detected, state),
                          lambda exc: show_error(self, "Cannot detect this computer",
                                                 str(exc)), self)

    def _detected(self, detected: object, state: tuple[int, int] | None = None) -> None:
        build = getattr(detected, "build", detected)
        assert isinstance(build, Build)
        edited = state != (self.undo_stack.index(), self.undo_stack.count())
        if state is not None and edited and not self.maybe_save():
            self.status_message.emit("Detection result not opened: your build was kept", 6000)
            return
        self.document.replace_untitled(build.snapshot(), "Detect this computer")
        self.status_message.emit(f"Detected {build.name}: {len(build)} parts; add a power "
                                 "supply, cooler and case to check it fully", 8000)

    def new_custom_part(self) -> Part | None:
        """Describe a part the catalog lacks; it is stored and listed, and added to the
        build when the user leaves "Add it to the build" ticked."""
        from dlhw_desktop.ui.planner.custom_part_dialog import CustomPartDialog

        category = self.picker.current_category()
        dialog = CustomPartDialog(self.user_parts, parent=self,
                                  vocabulary=self.catalog.distinct, **(
            {"category": category} if category not in (None, CUSTOM) else {}))
        if dialog.exec() != QDialog.DialogCode.Accepted or dialog.part is None:
            return None
        self.picker.set_category(CUSTOM)
        self.picker.refresh()
        if dialog.add_to_build.isChecked():
            self.add_parts([dialog.part.id])
        else:
            self.status_message.emit(f"Saved {dialog.part.display_name} to your parts "
                                     "(Custom in the picker); not added to the build", 6000)
        return dialog.part

    # --- questions (tests replace these) -----------------------------------------------------
    def ask_save_changes(self) -> str:
        """"save", "discard" or "cancel"."""
        box = QMessageBox(QMessageBox.Icon.Question, "Unsaved changes",
                          f"Save the changes to “{self.build.name}”?",
                          QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                          | QMessageBox.StandardButton.Cancel, self)
        box.setObjectName("save_changes_dialog")
        box.setDefaultButton(QMessageBox.StandardButton.Save)
        answer = box.exec()
        return {QMessageBox.StandardButton.Save: "save",
                QMessageBox.StandardButton.Discard: "discard"}.get(
            QMessageBox.StandardButton(answer), "cancel")

    def ask_open_path(self) -> Path | None:
        folder = self.settings.get("build/last_folder") or str(Path.home())
        path, _ = QFileDialog.getOpenFileName(self, "Open build", folder, FILE_FILTER)
        return Path(path) if path else None

    def ask_save_path(self) -> Path | None:
        start = str(self.document.path or self.document.suggested_path())
        path, _ = QFileDialog.getSaveFileName(self, "Save build", start, FILE_FILTER)
        return Path(path) if path else None
