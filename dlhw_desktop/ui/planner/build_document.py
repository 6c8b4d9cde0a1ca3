"""The build as a document: its file, save and open through ``core.buildfile``, recent files.

No widgets here: the tab asks the questions (which file? save changes?) and shows errors;
this object does the file work and keeps the undo stack's clean state in step with the
file on disk ("modified" = the stack is not clean).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from dlhw_desktop.core.build import buildfile
from dlhw_desktop.core.build.build import Build, BuildSnapshot
from dlhw_desktop.core.build.buildfile import LoadedBuild, Resolver
from dlhw_desktop.core.checks import check_build
from dlhw_desktop.core.errors import BuildFileError
from dlhw_desktop.ui.common.settings import AppSettings

MAX_RECENT = 10


class BuildDocument(QObject):
    """One Build for the tab's lifetime; opening a file restores its state into it."""

    path_changed = Signal(object)  # Path | None

    def __init__(self, build: Build, undo_stack: QUndoStack, settings: AppSettings,
                 resolve: Resolver, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.build = build
        self.undo_stack = undo_stack
        self.settings = settings
        self.resolve = resolve
        self._path: Path | None = None

    @property
    def path(self) -> Path | None:
        return self._path

    def _set_path(self, path: Path | None, remember: bool = True) -> None:
        self._path = path
        if path is not None and remember:
            self.remember(path)
        self.path_changed.emit(path)

    @property
    def modified(self) -> bool:
        return not self.undo_stack.isClean()

    def reset(self) -> None:
        """An empty, unmodified build with no file."""
        self.build.restore(Build().snapshot())
        self.undo_stack.clear()
        self._set_path(None)

    def replace_untitled(self, snapshot: BuildSnapshot, text: str) -> None:
        """Replace the build with a new, untitled one (a template, a detected computer, a
        recovered autosave), as one undo step.

        The file is forgotten, so the next Save asks where: a template never lands in the
        file that was open. Undo brings the former build back with its file. The caller
        asks about unsaved changes first (``maybe_save``).
        """
        self.undo_stack.push(ReplaceDocumentCommand(self, snapshot, text))

    def open(self, path: Path) -> LoadedBuild:
        """Read ``path`` (``BuildFileError`` leaves the current build untouched).

        All or nothing: the new build is checked before it replaces the current one, so
        a figure the checks cannot use is an error dialog, never a half-redrawn window.
        """
        loaded = buildfile.load(path, self.resolve)
        try:
            check_build(loaded.build)
        except (ArithmeticError, ValueError, TypeError) as exc:
            raise BuildFileError(f"cannot open {Path(path).name}: a figure in it cannot be "
                                 f"checked ({exc})") from None
        self.build.restore(loaded.build.snapshot())
        self.undo_stack.clear()
        self._set_path(Path(path))
        return loaded

    def save(self, path: Path | None = None) -> Path:
        """Write atomically to ``path`` (or the current file); marks the stack clean."""
        if path is None and self._path is None:
            raise ValueError("no file to save to")
        target = Path(path if path is not None else self._path)  # type: ignore[arg-type]
        if not target.name.endswith(buildfile.SUFFIX):
            target = target.with_name(target.name.removesuffix(".json") + buildfile.SUFFIX)
        buildfile.save(self.build, target)
        self.undo_stack.setClean()
        self._set_path(target)
        return target

    # --- recent files -----------------------------------------------------------------
    def recent_files(self) -> list[str]:
        return [f for f in self.settings.get("build/recent_files") if f][:MAX_RECENT]

    def remember(self, path: Path) -> None:
        text = str(Path(path).resolve())
        files = [text] + [f for f in self.recent_files() if f != text]
        self.settings.set("build/recent_files", files[:MAX_RECENT])
        self.settings.set("build/last_folder", str(Path(text).parent))

    def suggested_path(self) -> Path:
        folder = self.settings.get("build/last_folder") or str(Path.home())
        stem = "".join(c if c.isalnum() or c in "-_ " else "_" for c in self.build.name)
        return Path(folder) / f"{stem.strip() or 'build'}{buildfile.SUFFIX}"


class ReplaceDocumentCommand(QUndoCommand):
    """The whole build replaced and the document made untitled; undo restores both."""

    def __init__(self, document: BuildDocument, snapshot: BuildSnapshot, text: str) -> None:
        super().__init__(text)
        self._document = document
        self._old, self._new = document.build.snapshot(), snapshot
        self._old_path = document.path

    def redo(self) -> None:
        self._document.build.restore(self._new)
        self._document._set_path(None, remember=False)

    def undo(self) -> None:
        self._document.build.restore(self._old)
        self._document._set_path(self._old_path, remember=False)
