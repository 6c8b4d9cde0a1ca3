"""Where a command may write: never over one of its own inputs or the app's own data (the
price book, the user's parts, the catalog, the settings), whatever name or link leads
there, and never over an existing file unless the user says ``--force``.

Identity, not names: two paths are the same file when they are the same inode on the same
device (a symbolic link, a hard link, ``./x`` and ``x`` and ``../dir/x`` all compare
equal); a file that does not exist yet is compared by its resolved real path (a link
whose target is the price book not yet created). A SQLite store's side files
(``-journal``, ``-wal``, ``-shm``) are protected with it.

``check_output`` is the one call every ``-o``/``--markdown``/export option makes before
any work; the GUI, whose save dialog has already asked about replacing, passes
``force=True`` and still gets the identity check. Errors are ``OutputRefusedError`` (a
``DlhwError``): one line, exit status 2 in the CLI.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from dlhw_desktop.core.errors import DlhwError
from dlhw_desktop.core.files.atomic import UnsafeTargetError, check_target

SQLITE_SIDE_FILES = ("-journal", "-wal", "-shm")


class OutputRefusedError(DlhwError):
    """An output path that would destroy an input, the app's data, or an existing file."""


@dataclass(frozen=True, slots=True)
class Protected:
    """A file no output may be: ``what`` says what it is (``your price book``)."""

    path: Path
    what: str
    side_files: bool = False
    """A SQLite database: its journal and WAL are protected too."""


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return info.st_dev, info.st_ino


def _real(path: Path) -> str:
    try:
        return os.path.normcase(os.path.realpath(path))
    except (OSError, ValueError):
        return str(path)


def _expand(protected: Iterable[Protected | str | os.PathLike[str] | None]
            ) -> list[Protected]:
    out: list[Protected] = []
    for item in protected:
        if item is None:
            continue
        entry = item if isinstance(item, Protected) else Protected(
            Path(item), f"the input file {Path(item).name}")
        out.append(entry)
        if entry.side_files:
            out.extend(Protected(Path(f"{entry.path}{suffix}"), f"{entry.what}'s {suffix[1:]}")
                       for suffix in SQLITE_SIDE_FILES)
    return out


def same_file(first: str | os.PathLike[str], second: str | os.PathLike[str]) -> bool:
    """True when both paths lead to one file (same inode, or the same real path for a file
    not there yet)."""
    a, b = Path(first), Path(second)
    ida, idb = _identity(a), _identity(b)
    if ida is not None and idb is not None:
        return ida == idb
    return _real(a) == _real(b)


def check_output(path: str | os.PathLike[str],
                 protected: Iterable[Protected | str | os.PathLike[str] | None] = (),
                 *, force: bool = False) -> Path:
    """The file to write for ``path``, or ``OutputRefusedError`` saying why not: it is one
    of ``protected`` (inputs as plain paths, the app's data as ``Protected``), it exists
    and ``force`` is not set, or ``atomic.check_target`` refuses it (a folder, a device, a
    FIFO, a read-only file, a link to nothing)."""
    target = Path(path)
    for kept in _expand(protected):
        if same_file(target, kept.path):
            raise OutputRefusedError(f"will not write {_name(target)}: it is {kept.what}; "
                                     "choose another file name")
    try:
        real = check_target(target)
    except UnsafeTargetError as exc:
        raise OutputRefusedError(f"cannot write {_name(target)}: {exc.strerror}") from None
    if not force and os.path.lexists(target):
        raise OutputRefusedError(f"{_name(target)} exists: choose another name, or add "
                                 "--force to replace it")
    return real


def _name(path: Path) -> str:
    text = str(path)
    return text if len(text) <= 80 else "..." + text[-77:]
