"""Autosave of the current build, and recovery after a crash.

While the build has unsaved changes it is written (atomically, as a normal build file)
to ``<app-data>/autosave/current.dlhw.json`` a moment after each change. Saving, or
returning to the saved state, or quitting normally removes it; so a file found there at
start-up means the last session ended without saving, and the app offers to restore it.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from pathlib import Path

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QUndoStack

from dlhw_desktop.core import buildfile
from dlhw_desktop.core.build import Build
from dlhw_desktop.core.errors import BuildFileError
from dlhw_desktop.resources import user_data_dir

AUTOSAVE_DELAY_MS = 1500


def autosave_path() -> Path:
    return user_data_dir() / "autosave" / "current.dlhw.json"


def pending_autosave() -> Path | None:
    """The autosave a previous session left behind, if any."""
    path = autosave_path()
    return path if path.is_file() and path.stat().st_size > 0 else None


def discard_autosave() -> None:
    autosave_path().unlink(missing_ok=True)


class Autosaver(QObject):
    """Writes the build a moment after each unsaved change; removes the file when clean."""

    def __init__(self, build: Build, undo_stack: QUndoStack,
                 on_error: Callable[[str], None] | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._build = build
        self._stack = undo_stack
        self._on_error = on_error
        self._timer = QTimer(self, singleShot=True, interval=AUTOSAVE_DELAY_MS)
        self._timer.timeout.connect(self.save_now)
        self._unsubscribe = build.subscribe(lambda _event: self._timer.start())
        undo_stack.cleanChanged.connect(self._clean_changed)

    def save_now(self) -> None:
        self._timer.stop()
        if self._stack.isClean():
            discard_autosave()
            return
        target = autosave_path()
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            buildfile.save(self._build, target)
        except (OSError, BuildFileError) as exc:
            if self._on_error is not None:
                self._on_error(f"Autosave failed: {exc}")

    def _clean_changed(self, clean: bool) -> None:
        if clean:
            self._timer.stop()
            discard_autosave()

    def stop(self) -> None:
        """Normal end of the session: nothing to recover next time."""
        self._timer.stop()
        self._unsubscribe()
        with suppress(RuntimeError, TypeError):  # already gone with the stack
            self._stack.cleanChanged.disconnect(self._clean_changed)
        discard_autosave()
