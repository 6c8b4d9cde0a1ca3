"""Write a sheet to a file: the whole PDF or nothing under the chosen name.

The PDF is rendered in memory, written to a temporary file in the target's folder,
flushed to disk, then renamed over the target (``os.replace``, atomic on one file
system). A full disk, a read-only folder or a file another program holds open leaves
any earlier file with that name as it was, and no temporary file behind.
"""

from __future__ import annotations

import errno
import os
import tempfile
import time
from collections.abc import Iterable
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from dlhw_desktop.core.files.atomic import UnsafeTargetError
from dlhw_desktop.core.files.atomic import check_target as check_replaceable
from dlhw_desktop.reports.sheet_model import BuildSheet
from dlhw_desktop.ui.pdf.errors import SheetExportError
from dlhw_desktop.ui.pdf.render import render_build_sheet

_WINDOWS_SHARING_VIOLATION = 32
_WINDOWS_LOCK_VIOLATION = 33


@dataclass(frozen=True, slots=True)
class PdfInfo:
    """What was written: where, how many pages, how big, how long it took."""

    path: Path
    pages: int
    size_bytes: int
    paper: str
    seconds: float
    missing_glyphs: str = ""


def write_build_sheet_pdf(sheet: BuildSheet, path: str | os.PathLike[str],
                          paper: str = "a4",
                          protect: Iterable[str | os.PathLike[str] | None] = ()) -> PdfInfo:
    """Render ``sheet`` and write it to ``path`` atomically; ``SheetExportError`` on failure.

    ``protect``: files that must not be replaced (the build file the sheet comes from).
    Needs a ``QGuiApplication``; may run on any thread.
    """
    start = time.perf_counter()
    target = Path(path)
    check_target(target, protect)  # before the work of rendering
    rendered = render_build_sheet(sheet, paper)
    write_atomic(check_target(target, protect), rendered.data)
    return PdfInfo(target, rendered.pages, len(rendered.data), rendered.paper,
                   time.perf_counter() - start, rendered.missing_glyphs)


def check_target(target: Path,
                 protect: Iterable[str | os.PathLike[str] | None] = ()) -> Path:
    """Fail before rendering when the path cannot be a file we write (a folder, a device,
    a FIFO, a read-only file, the input itself: ``core.atomic.check_target``); returns the
    file to replace (a symbolic link's target)."""
    try:
        real = check_replaceable(target, protect)
    except UnsafeTargetError as exc:
        raise SheetExportError(describe(exc, target)) from None
    if target.is_dir():
        raise SheetExportError(f"cannot write {target}: it is a folder; choose a file name")
    parent = target.parent
    if parent.exists() and not parent.is_dir():
        raise SheetExportError(f"cannot write {target.name}: {parent} is a file, not a folder")
    if not parent.exists():
        raise SheetExportError(f"cannot write {target.name}: the folder {parent} does not exist")
    return real


def describe(exc: OSError, target: Path) -> str:
    """One line that says what happened and what to do about it."""
    name = target.name
    if isinstance(exc, UnsafeTargetError):
        return f"cannot write {name}: {exc.strerror}"
    code = exc.errno
    winerror = getattr(exc, "winerror", None)
    if winerror in (_WINDOWS_SHARING_VIOLATION, _WINDOWS_LOCK_VIOLATION) \
            or code in (errno.EBUSY, errno.ETXTBSY):
        return (f"cannot write {name}: the file is open in another program; close it there "
                "and export again")
    if code in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        return (f"cannot write {name}: the disk is full; free some space or choose another "
                "folder (nothing was written)")
    if code in (errno.EACCES, errno.EPERM):
        return (f"cannot write {name}: permission denied; the folder {target.parent} is not "
                "writable for you, or the file is open in another program. Choose another "
                "folder or close the file")
    if code == errno.EROFS:
        return f"cannot write {name}: the disk is read-only; choose another folder"
    if code == errno.EISDIR:
        return f"cannot write {target}: it is a folder; choose a file name"
    if code == errno.ENOTDIR:
        return f"cannot write {name}: {target.parent} is not a folder"
    if code == errno.ENOENT:
        return f"cannot write {name}: the folder {target.parent} does not exist"
    if code == errno.ENAMETOOLONG:
        return f"cannot write {name}: the file name is too long"
    return f"cannot write {name}: {exc.strerror or exc}"


def write_atomic(target: Path, data: bytes) -> None:
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part",
                                   dir=target.parent)
    except OSError as exc:
        raise SheetExportError(describe(exc, target)) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        mode = 0o644
        with suppress(OSError):
            mode = target.stat().st_mode & 0o777
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except OSError as exc:
        with suppress(OSError):
            os.unlink(tmp)
        raise SheetExportError(describe(exc, target)) from None
    except BaseException:
        with suppress(OSError):
            os.unlink(tmp)
        raise
