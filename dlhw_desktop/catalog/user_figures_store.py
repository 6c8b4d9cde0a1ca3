"""The figures the user entered from the box, stored: ``<app-data>/your_figures.db``.

One table, ``figures`` (part id, field, value as JSON, the date entered, a note), beside
the price book and the user's own parts, so it survives catalog updates. Every write is
one transaction, so a crash leaves the old figures whole; writers wait for each other
(a busy timeout) instead of failing. Reading checks every row again: a row that no longer
fits (a damaged value, a field this version does not know) is reported by name and
skipped, never the whole store dropped; a damaged file is reported and never written over.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from pathlib import Path

from dlhw_desktop.catalog.readonly_db import open_read_only, write_reason
from dlhw_desktop.core.errors import DlhwError
from dlhw_desktop.core.files.reading import FileReadError, check_regular_file
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.user_figures import (
    MAX_FIGURES,
    UserFigure,
    UserFigureError,
    apply_figures,
    from_mapping,
    revalidated,
)
from dlhw_desktop.resources import user_data_dir

BUSY_TIMEOUT_S = 10.0
MAX_STORE_BYTES = 64 * 2**20
_SCHEMA = ("CREATE TABLE IF NOT EXISTS figures (part_id TEXT NOT NULL, field TEXT NOT NULL, "
           "value TEXT NOT NULL, entered TEXT NOT NULL, note TEXT NOT NULL DEFAULT '', "
           "PRIMARY KEY (part_id, field))")


class UserFiguresError(DlhwError):
    """The store of the user's figures cannot be read or written."""


class UserFiguresStore:
    """The user's figures by part; created on the first figure entered."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or user_data_dir() / "your_figures.db"
        self._cache: dict[str, list[UserFigure]] | None = None
        self._signature: tuple[int, int] | None = None  # the file's (mtime, size) read
        self.problems: list[str] = []
        """Rows skipped on the last read, each in one line (shown once, never silent)."""
        self.damaged: str | None = None
        """Why the whole store cannot be read (its figures are not applied; never
        written over)."""

    # --- reading --------------------------------------------------------------------
    def _check_file(self) -> None:
        """A regular file of a sane size (a FIFO or device must not hang a command)."""
        try:
            check_regular_file(self.path)
        except FileReadError as exc:
            raise UserFiguresError(f"your figures {self.path}: {exc}") from None
        size = self.path.stat().st_size
        if size > MAX_STORE_BYTES:
            raise UserFiguresError(f"your figures {self.path} is {size / 2**20:,.0f} MB; at "
                                   f"most {MAX_STORE_BYTES / 2**20:,.0f} MB is read")

    def _rows(self) -> list[tuple[object, ...]]:
        if not self.path.exists():
            return []
        self._check_file()
        try:
            conn = open_read_only(self.path, BUSY_TIMEOUT_S)
            try:
                return conn.execute(
                    "SELECT part_id, field, value, entered, note FROM figures "
                    f"LIMIT {MAX_FIGURES + 1}").fetchall()
            finally:
                conn.close()
        except sqlite3.OperationalError as exc:
            if "no such table" in str(exc):
                return []
            raise UserFiguresError(f"your figures {self.path} cannot be read: {exc}") from exc
        except sqlite3.DatabaseError as exc:
            raise UserFiguresError(f"your figures {self.path} is damaged: {exc}") from exc

    def _file_signature(self) -> tuple[int, int] | None:
        try:
            info = self.path.stat()
        except OSError:
            return None
        return (info.st_mtime_ns, info.st_size)

    def _load(self) -> dict[str, list[UserFigure]]:
        """The figures by part, read again whenever the file changed (another window, or
        ``dlhw part set`` while the app is open, sees the same figures)."""
        signature = self._file_signature()
        if self._cache is not None and signature == self._signature:
            return self._cache
        self._signature = signature
        self.problems, self.damaged = [], None
        by_part: dict[str, list[UserFigure]] = {}
        try:
            rows = self._rows()
        except (UserFiguresError, OSError) as exc:
            self.damaged = str(exc)
            rows = []
        if len(rows) > MAX_FIGURES:
            self.problems.append(f"your figures hold more than {MAX_FIGURES:,} rows; the "
                                 f"first {MAX_FIGURES:,} are used")
            rows = rows[:MAX_FIGURES]
        for number, row in enumerate(rows, start=1):
            try:
                figure = _figure(row)
            except UserFigureError as exc:
                self.problems.append(f"your figure #{number} skipped: {exc}")
                continue
            by_part.setdefault(figure.part_id, []).append(figure)
        self._cache = by_part
        return by_part

    def figures(self) -> list[UserFigure]:
        """Every figure as stored (each is checked against its part when applied)."""
        return [f for part_id in sorted(self._load()) for f in self._load()[part_id]]

    def for_part(self, part_id: str) -> list[UserFigure]:
        return list(self._load().get(part_id, ()))

    def apply(self, part: Part) -> Part:
        """The part with the user's figures for it; one that no longer fits the part (a
        field its category lacks, a value out of range) is skipped and reported."""
        mine = self._load().get(part.id)
        if not mine:
            return part
        good: list[UserFigure] = []
        for figure in mine:
            try:
                good.append(revalidated(part, figure))
            except UserFigureError as exc:
                problem = f"your figure for {part.display_name} skipped: {exc}"
                if problem not in self.problems:
                    self.problems.append(problem)
        return apply_figures(part, good)

    # --- writing --------------------------------------------------------------------
    def _write(self, sql: str, rows: Iterable[tuple[object, ...]]) -> None:
        self._load()
        if self.damaged is not None:
            raise UserFiguresError(f"{self.damaged}; it was left as it is (move it aside to "
                                   "start a new one)")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if self.path.exists():
                self._check_file()
            conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S)
            try:
                conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
                with conn:
                    conn.execute(_SCHEMA)
                    conn.executemany(sql, rows)
            finally:
                conn.close()
        except (OSError, sqlite3.DatabaseError) as exc:
            raise UserFiguresError(f"cannot save to your figures {self.path}: "
                                   f"{write_reason(exc)}") from exc
        finally:
            self._cache = None

    def save(self, figures: Iterable[UserFigure]) -> int:
        """Store figures (a new one for a part's field replaces the old), all or none."""
        rows = [(f.part_id, f.field, json.dumps(f.value), f.entered, f.note) for f in figures]
        if rows:
            self._write("INSERT OR REPLACE INTO figures VALUES (?, ?, ?, ?, ?)", rows)
        return len(rows)

    def remove(self, part_id: str, field: str | None = None) -> int:
        """Forget one figure of a part (or all of them); how many were removed."""
        gone = [f for f in self.for_part(part_id) if field is None or f.field == field]
        if gone:
            self._write("DELETE FROM figures WHERE part_id = ? AND field = ?",
                        [(f.part_id, f.field) for f in gone])
        return len(gone)


def _figure(row: tuple[object, ...]) -> UserFigure:
    part_id, field, value, entered, note = row
    if not isinstance(value, str):
        raise UserFigureError(f"the value of {field!r} for {part_id!r} is not stored as text")
    try:
        decoded = json.loads(value)
    except (ValueError, RecursionError):
        raise UserFigureError(f"the value of {field!r} for {part_id!r} is damaged") from None
    if isinstance(decoded, dict | list):
        raise UserFigureError(f"the value of {field!r} for {part_id!r} is not a figure")
    return from_mapping({"part_id": part_id, "field": field, "value": decoded,
                         "entered": entered, "note": note if note is not None else ""})
