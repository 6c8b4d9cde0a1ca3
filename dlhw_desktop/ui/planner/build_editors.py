"""The build's name, workload tier and notes: editors that follow the model.

Each commits as one undoable edit through the callbacks the Build tab gives (``set_name``,
``set_tier``, ``set_notes``), and shows the model's value again when it changes (undo,
open, a template), without committing it back. Notes are committed a moment after the
last keystroke (one undo step per pause, not per letter).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QComboBox, QLineEdit, QPlainTextEdit, QWidget

from dlhw_desktop.core import limits
from dlhw_desktop.core.build.build import DEFAULT_NAME, Build
from dlhw_desktop.core.build.tiers import TIER_LABELS
from dlhw_desktop.core.limits import bounded_notes

NOTES_DELAY_MS = 700


class NotesEdit(QPlainTextEdit):
    """Tab moves to the next control, as in every other field of the tab; Ctrl+Tab types
    a tab character (before, Tab characters ended up in saved files)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, objectName="build_notes")
        self.setTabChangesFocus(True)
        self.setPlaceholderText("Notes: what this machine is for, quotes, open questions… "
                                "(Ctrl+Tab types a tab)")
        self.setMaximumHeight(72)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Tab and \
                event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self.insertPlainText("\t")
            event.accept()
            return
        super().keyPressEvent(event)


class BuildEditors(QObject):
    """The name field, the tier choice and the notes box of one build."""

    def __init__(self, build: Build, set_name: Callable[[str], None],
                 set_tier: Callable[[str | None], None], set_notes: Callable[[str], None],
                 said: Callable[[str], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.build = build
        self._set_name, self._set_tier, self._set_notes = set_name, set_tier, set_notes
        self._said = said
        self.name_edit = QLineEdit(build.name, objectName="build_name")
        self.name_edit.setPlaceholderText(DEFAULT_NAME)
        self.name_edit.setMaxLength(limits.MAX_NAME_CHARS)
        self.name_edit.setToolTip("The build's name (saved in the file and shown in the title)")
        self.tier_combo = QComboBox(objectName="build_tier")
        self.tier_combo.addItem("No workload tier", None)
        for name, label in TIER_LABELS.items():
            self.tier_combo.addItem(f"{label} workloads", name)
        self.tier_combo.setToolTip("Compare each part with the seed article's minimum and "
                                   "recommended specs for this kind of workload")
        self.notes_edit = NotesEdit()
        self._notes_timer = QTimer(self, singleShot=True, interval=NOTES_DELAY_MS)
        self.name_edit.editingFinished.connect(self.commit_name)
        self.tier_combo.currentIndexChanged.connect(
            lambda _i: self._set_tier(self.tier_combo.currentData()))
        self.notes_edit.textChanged.connect(self._notes_timer.start)
        self._notes_timer.timeout.connect(self.commit_notes)

    # --- editor -> model ----------------------------------------------------------------
    def commit_name(self) -> None:
        self._set_name(self.name_edit.text())
        if not self.name_edit.text().strip():
            self.name_edit.setText(self.build.name)

    def commit_notes(self) -> None:
        self._notes_timer.stop()
        text = self.notes_edit.toPlainText()
        kept = bounded_notes(text)
        if kept != text:  # what a build file may hold (core.limits): said, then trimmed
            self.notes_edit.setPlainText(kept)
            self._said(f"Notes hold at most {limits.MAX_NOTES_CHARS:,} characters and "
                       f"{limits.MAX_NOTES_LINES:,} lines (a few pages on the build sheet); "
                       "the rest was not kept")
        self._set_notes(kept)

    def flush(self) -> None:
        """Commit what is typed but not yet committed (before a save or a new build)."""
        if self._notes_timer.isActive():
            self.commit_notes()
        if self.name_edit.isModified() and self.name_edit.text().strip() != self.build.name:
            self.commit_name()

    # --- model -> editor ----------------------------------------------------------------
    def show_name(self, name: str) -> None:
        if self.name_edit.text() != name:
            self.name_edit.setText(name)
        self.name_edit.setModified(False)

    def show_notes(self, notes: str) -> None:
        if self.notes_edit.toPlainText() != notes:
            self.notes_edit.blockSignals(True)
            self.notes_edit.setPlainText(notes)
            self.notes_edit.blockSignals(False)

    def show_tier(self, tier: str | None) -> None:
        index = self.tier_combo.findData(tier)
        if index != self.tier_combo.currentIndex():
            self.tier_combo.blockSignals(True)
            self.tier_combo.setCurrentIndex(max(0, index))
            self.tier_combo.blockSignals(False)

    def show_all(self) -> None:
        self.show_name(self.build.name)
        self.show_notes(self.build.notes)
        self.show_tier(self.build.tier)
