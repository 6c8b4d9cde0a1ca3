"""Autosave of the current build, and recovery after a crash.

While the build has unsaved changes it is written (atomically, as a normal build file) a
moment after each change to this instance's own recovery file,
``<app-data>/autosave/<pid>-<random>.dlhw.json``, beside a lock file ``<same>.lock`` that
the instance holds (``QLockFile``) from before the first write until it quits. Saving,
returning to the saved state or quitting normally removes both.

At start-up the app offers only the recovery files whose owner is gone: the lock can be
taken (its process no longer runs, or there is no lock, as for an older version's
``current.dlhw.json``). Taking the lock makes this instance their owner, so a second
instance starting at the same time does not offer them too, and a running instance's
file is never touched. A file is deleted only by its owner: on a normal quit, or once the
user restored or declined it. One that cannot be restored is moved aside to
``autosave/not-restored/`` (and the user told where), never deleted.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QLockFile, QObject, QTimer
from PySide6.QtGui import QUndoStack

from dlhw_desktop.core.build import buildfile
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.errors import BuildFileError
from dlhw_desktop.resources import user_data_dir

AUTOSAVE_DELAY_MS = 1500
SUFFIX = ".dlhw.json"
NOT_RESTORED = "not-restored"
_NAME_READ_LIMIT = 8 * 1024 * 1024  # a recovery file bigger than this is named "unnamed"
_instance_id: str | None = None


def autosave_dir() -> Path:
    return user_data_dir() / "autosave"


def instance_id() -> str:
    """This running instance's name for its recovery file: ``<pid>-<random>``."""
    global _instance_id
    if _instance_id is None or not _instance_id.startswith(f"{os.getpid()}-"):
        _instance_id = f"{os.getpid()}-{secrets.token_hex(4)}"
    return _instance_id


def autosave_path() -> Path:
    """This instance's own recovery file."""
    return autosave_dir() / f"{instance_id()}{SUFFIX}"


def pending_autosave() -> Path | None:
    """This instance's recovery file, if it holds an unsaved build now."""
    path = autosave_path()
    return path if path.is_file() and path.stat().st_size > 0 else None


def _lock_for(path: Path) -> QLockFile:
    lock = QLockFile(str(path.with_name(path.name.removesuffix(SUFFIX) + ".lock")))
    lock.setStaleLockTime(0)  # stale only when its process is gone, never by age
    return lock


class RecoveryFile:
    """This instance's recovery file and the lock that says its owner is alive."""

    def __init__(self) -> None:
        self.path = autosave_path()
        self._lock = _lock_for(self.path)

    def write(self, build: Build) -> None:
        """Raises ``OSError`` or ``BuildFileError``."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if not self._lock.isLocked() and not self._lock.tryLock(0):
            raise OSError(f"cannot lock {self._lock.fileName()} (error {self._lock.error()})")
        buildfile.save(build, self.path)

    def discard(self) -> None:
        self.path.unlink(missing_ok=True)

    def close(self) -> None:
        """The file first, then the lock: a file never exists without its owner's lock."""
        self.discard()
        if self._lock.isLocked():
            self._lock.unlock()


@dataclass
class Recovery:
    """A recovery file left by an instance that is gone, taken over by this one."""

    path: Path
    name: str
    saved_at: float
    lock: QLockFile = field(repr=False)

    @property
    def saved_text(self) -> str:
        return datetime.fromtimestamp(self.saved_at).strftime("%Y-%m-%d %H:%M")

    def discard(self) -> None:
        """Restored or declined: the file goes, then its lock."""
        self.path.unlink(missing_ok=True)
        self.release()

    def release(self) -> None:
        """Not handled now (offered again at a later start)."""
        if self.lock.isLocked():
            self.lock.unlock()

    def keep_aside(self) -> Path:
        """It could not be restored: move it where it is kept and not offered again."""
        folder = self.path.parent / NOT_RESTORED
        target = folder / self.path.name
        try:
            folder.mkdir(parents=True, exist_ok=True)
            n = 1
            while target.exists():
                n += 1
                target = folder / f"{self.path.name.removesuffix(SUFFIX)}-{n}{SUFFIX}"
            os.replace(self.path, target)
        except OSError:
            target = self.path  # cannot move it: it stays where it is (offered again)
        self.release()
        return target


def take_stale_recoveries(folder: Path | None = None) -> list[Recovery]:
    """Recovery files whose owner is gone, newest first, each now locked by this instance
    (call ``discard``, ``release`` or ``keep_aside`` on every one)."""
    folder = folder or autosave_dir()
    found: list[Recovery] = []
    try:
        candidates = sorted(folder.glob(f"*{SUFFIX}"))
    except OSError:
        return []
    for path in candidates:
        if path == autosave_path() or not _regular_nonempty(path):
            continue
        lock = _lock_for(path)
        if not lock.tryLock(0):
            continue  # its owner runs (or another instance took it over)
        if not _regular_nonempty(path):  # its owner quit normally in the meantime
            lock.unlock()
            continue
        found.append(Recovery(path, _build_name(path), path.stat().st_mtime, lock))
    found.sort(key=lambda r: r.saved_at, reverse=True)
    _remove_stale_lonely_locks(folder)
    return found


def _remove_stale_lonely_locks(folder: Path) -> None:
    """The lock of a crashed instance whose build had been saved (no recovery file)."""
    with suppress(OSError):
        for lock_path in folder.glob("*.lock"):
            if lock_path.with_name(lock_path.stem + SUFFIX).exists():
                continue
            lock = QLockFile(str(lock_path))
            lock.setStaleLockTime(0)
            if lock.tryLock(0):  # its owner is gone: taking and releasing removes it
                lock.unlock()


def _regular_nonempty(path: Path) -> bool:
    try:
        return path.is_file() and not path.is_symlink() and path.stat().st_size > 0
    except OSError:
        return False


def _build_name(path: Path) -> str:
    """The build's name as saved, for the question (never raises)."""
    try:
        if path.stat().st_size <= _NAME_READ_LIMIT:
            name = json.loads(path.read_bytes()).get("name")
            if isinstance(name, str) and name.strip():
                text = " ".join(name.split())
                return text if len(text) <= 80 else text[:79] + "…"
    except (OSError, ValueError, AttributeError, RecursionError):
        pass
    return "unnamed build"


class Autosaver(QObject):
    """Writes the build a moment after each unsaved change; removes the file when clean."""

    def __init__(self, build: Build, undo_stack: QUndoStack,
                 on_error: Callable[[str], None] | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._build = build
        self._stack = undo_stack
        self._on_error = on_error
        self.recovery = RecoveryFile()
        self._stopped = False
        self._timer = QTimer(self, singleShot=True, interval=AUTOSAVE_DELAY_MS)
        self._timer.timeout.connect(self.save_now)
        self._unsubscribe = build.subscribe(lambda _event: self._timer.start())
        undo_stack.cleanChanged.connect(self._clean_changed)

    def save_now(self) -> None:
        self._timer.stop()
        if self._stack.isClean():
            self.recovery.discard()
            return
        try:
            self.recovery.write(self._build)
        except (OSError, BuildFileError) as exc:
            if self._on_error is not None:
                self._on_error(f"Autosave failed: {exc}")

    def _clean_changed(self, clean: bool) -> None:
        if clean:
            self._timer.stop()
            self.recovery.discard()

    def stop(self) -> None:
        """Normal end of the session: nothing to recover next time."""
        self._timer.stop()
        if self._stopped:
            return
        self._stopped = True
        self._unsubscribe()
        with suppress(RuntimeError, TypeError):  # already gone with the stack
            self._stack.cleanChanged.disconnect(self._clean_changed)
        self.recovery.close()
