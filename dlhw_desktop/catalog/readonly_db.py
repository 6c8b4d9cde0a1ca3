"""Opening one of the user's stores (price book, your figures) to read it, also when it
sits on a read-only disk or folder.

A store written in WAL mode leaves ``-wal``/``-shm`` files beside it; a reader then needs
to write the ``-shm`` file, and on a read-only folder SQLite says "unable to open database
file" although the book is whole. When the ``-wal`` file is absent or empty (every change
is in the main file: nothing can be missed), the store is opened ``immutable`` instead;
with changes still in the ``-wal`` file the error stands (reading without them would show
an old book as if it were the current one).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

_CANNOT_OPEN = ("unable to open database file", "readonly", "read-only")


def open_read_only(path: Path, timeout_s: float) -> sqlite3.Connection:
    """A read-only connection to ``path`` that has been checked to read."""
    uri = path.resolve().as_uri()
    conn = sqlite3.connect(uri + "?mode=ro", uri=True, timeout=timeout_s,
                           isolation_level=None)
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.OperationalError as exc:
        conn.close()
        if not any(text in str(exc) for text in _CANNOT_OPEN) or _pending_wal(path):
            raise
    conn = sqlite3.connect(uri + "?mode=ro&immutable=1", uri=True, timeout=timeout_s,
                           isolation_level=None)
    return conn


def _pending_wal(path: Path) -> bool:
    wal = path.with_name(path.name + "-wal")
    try:
        return wal.stat().st_size > 0
    except OSError:
        return False


def write_reason(exc: BaseException) -> str:
    """Why a store cannot be written, as the user can act on it."""
    if isinstance(exc, FileExistsError | NotADirectoryError) and exc.filename:
        return f"{exc.filename} is a file where its folder should be"
    text = str(exc)
    if "readonly" in text or "read-only" in text:
        return "it is read-only (make the file and its folder writable)"
    if "unable to open database file" in text:
        return ("it or its folder cannot be written (SQLite writes a journal beside the "
                "file): make both writable")
    return text
