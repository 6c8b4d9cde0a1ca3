"""The user's own parts (those the catalog lacks), in the app-data folder, and one resolver
that looks a part id up in the catalog first and then in the user's parts.

Stored with sqlite-utils in ``<app-data>/user_parts.db`` (one table ``parts`` with the
catalog's columns). Custom ids follow ``custom/<category>/<vendor-model>``.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Mapping
from contextlib import suppress
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import sqlite_utils

from dlhw_desktop.catalog.part_rows import row_to_part
from dlhw_desktop.catalog.price_store import PriceBook
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.catalog.user_figures_store import UserFiguresStore
from dlhw_desktop.core.errors import CatalogError, DlhwError, UnknownPartError
from dlhw_desktop.core.fields import ALL_FIELDS, FIELDS_BY_NAME, Category, fields_for
from dlhw_desktop.core.files.reading import FileReadError, check_regular_file
from dlhw_desktop.core.limits import MAX_FIGURE, MAX_NAME_CHARS, MAX_TEXT_CHARS, valid_text
from dlhw_desktop.core.parts import Part, make_part_id
from dlhw_desktop.core.prices.book import PriceBookError
from dlhw_desktop.resources import user_data_dir

CUSTOM_PREFIX = "custom/"
_TYPES = {"text": str, "int": int, "float": float, "bool": int}
USER_VERSION = 0x444C4857  # "DLHW": a parts database this app made
_KNOWN_COLUMNS = frozenset(f.name for f in ALL_FIELDS)
_REQUIRED_COLUMNS = frozenset({"id", "category", "name"})
_SQLITE_MAGIC = b"SQLite format 3\x00"


class UserPartsError(DlhwError):
    """The user's parts database cannot be read or written."""


def custom_id(category: Category, vendor: str, name: str) -> str:
    return CUSTOM_PREFIX + make_part_id(category, vendor, name)


class UserParts:
    """Custom parts a user added; created on first write."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or user_data_dir() / "user_parts.db"
        self._db: sqlite_utils.Database | None = None

    def _database(self, create: bool) -> sqlite_utils.Database | None:
        if self._db is not None:
            return self._db
        if not self.path.exists() and not create:
            return None
        if self.path.exists():
            self._check_file()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite_utils.Database(self.path)
            tables = db.table_names()
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if "parts" not in tables:
                if tables or version not in (0, USER_VERSION):
                    raise UserPartsError(self._foreign(f"tables {', '.join(tables)}"))
                db["parts"].create({f.name: _TYPES[f.kind] for f in ALL_FIELDS}, pk="id")
            else:
                existing = set(db["parts"].columns_dict)
                unknown = existing - _KNOWN_COLUMNS
                if (version not in (0, USER_VERSION) or unknown
                        or not existing >= _REQUIRED_COLUMNS):
                    what = (f"unknown columns {', '.join(sorted(unknown)[:5])}" if unknown
                            else f"user_version {version}" if version not in (0, USER_VERSION)
                            else "no id, category or name column")
                    raise UserPartsError(self._foreign(what))
                # Ours (an older version's): bring it up to this version's columns.
                for spec in ALL_FIELDS:
                    if spec.name not in existing:
                        db["parts"].add_column(spec.name, _TYPES[spec.kind])
            if version != USER_VERSION:
                db.execute(f"PRAGMA user_version = {USER_VERSION}")
        except OSError as exc:  # the folder, not the file: nothing is damaged
            raise UserPartsError(f"your parts database {self.path} cannot be used: "
                                 f"{exc.strerror or exc}") from exc
        except sqlite3.DatabaseError as exc:
            raise UserPartsError(self._damaged(str(exc))) from exc
        self._db = db
        return db

    def _check_file(self) -> None:
        """A regular file that starts like SQLite, before SQLite is let near it."""
        try:
            check_regular_file(self.path)
            with self.path.open("rb") as handle:
                header = handle.read(16)
        except (FileReadError, OSError) as exc:
            raise UserPartsError(self._damaged(str(exc))) from None
        if header and header != _SQLITE_MAGIC:
            raise UserPartsError(self._damaged("not a SQLite database"))

    def _damaged(self, why: str) -> str:
        return (f"your parts database {self.path} is damaged or unreadable ({why}); your "
                "custom parts are unavailable. It is kept as it is: move it aside to start "
                "afresh (the app offers to), or restore it from a backup")

    def _foreign(self, what: str) -> str:
        return (f"your parts database {self.path} was not made by this app ({what}); it is "
                "left untouched and your custom parts are unavailable. Move it aside to "
                "start afresh")

    def problem(self) -> str | None:
        """Why the parts database cannot be used, or ``None`` (also when there is none)."""
        try:
            self._database(create=False)
            self.all()
        except UserPartsError as exc:
            return str(exc)
        return None

    def move_aside(self) -> Path:
        """Rename an unusable database to ``user_parts.db.damaged-<timestamp>`` (kept, never
        deleted) so the next write starts a fresh one; returns the new path."""
        self.close()
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        target = self.path.with_name(f"{self.path.name}.damaged-{stamp}")
        try:
            self.path.rename(target)
        except OSError as exc:
            raise UserPartsError(f"cannot move {self.path} aside: {exc.strerror or exc}") \
                from None
        return target

    def close(self) -> None:
        if self._db is not None:
            with suppress(sqlite3.Error):
                self._db.conn.close()
            self._db = None

    def add(self, category: Category, vendor: str, name: str,
            figures: Mapping[str, Any] | None = None, *, price_usd: float | None = None,
            notes: str = "", source: str = "Entered by the user") -> Part:
        """Store a new custom part (or overwrite the one with the same vendor and name)."""
        vendor, name = vendor.strip(), name.strip()
        if not vendor or not name:
            raise UserPartsError("a custom part needs a vendor and a name")
        _checked_text("Vendor", vendor, MAX_NAME_CHARS)
        _checked_text("Name", name, MAX_NAME_CHARS)
        _checked_text("Notes", notes, MAX_TEXT_CHARS)
        if price_usd is not None:
            price_usd = _checked("price_usd", price_usd)
        allowed = {f.name for f in fields_for(category)}
        row: dict[str, Any] = {
            "id": custom_id(category, vendor, name), "category": category.value,
            "vendor": vendor, "name": name, "price_usd": price_usd, "notes": notes or None,
            "source": source, "source_date": date.today().isoformat(),
        }
        for key, value in (figures or {}).items():
            if key not in allowed or key in row:
                raise UserPartsError(f"{key!r} is not a figure of a {category.label.lower()}")
            row[key] = _checked(key, value)
        db = self._database(create=True)
        assert db is not None
        try:
            db["parts"].upsert(row, pk="id")
        except sqlite3.DatabaseError as exc:
            raise UserPartsError(f"cannot save the part in {self.path}: {exc}") from exc
        return self.get(row["id"])

    def add_part(self, part: Part) -> Part:
        """Store a Part built elsewhere (a detected device, a part from a build file)."""
        figures = {k: v for k, v in part.specs.items() if v is not None}
        return self.add(part.category, part.vendor, part.name, figures,
                        price_usd=part.price_usd, notes=part.notes or "", source=part.source)

    def get(self, part_id: str) -> Part:
        part = self.find(part_id)
        if part is None:
            raise UnknownPartError(part_id)
        return part

    def find(self, part_id: str) -> Part | None:
        db = self._database(create=False)
        if db is None:
            return None
        try:
            rows = list(db["parts"].rows_where("id = ?", [part_id]))
            return row_to_part(rows[0], custom=True) if rows else None
        except (sqlite3.DatabaseError, CatalogError) as exc:
            raise UserPartsError(self._damaged(str(exc))) from exc

    def all(self, category: Category | None = None) -> list[Part]:
        db = self._database(create=False)
        if db is None:
            return []
        where, args = ("category = ?", [category.value]) if category else (None, [])
        try:
            rows = db["parts"].rows_where(where, args, order_by="name")
            return [row_to_part(r, custom=True) for r in rows]
        except (sqlite3.DatabaseError, CatalogError) as exc:
            raise UserPartsError(self._damaged(str(exc))) from exc

    def remove(self, part_id: str) -> None:
        db = self._database(create=False)
        if db is not None:
            db["parts"].delete_where("id = ?", [part_id])


def _checked(key: str, value: Any) -> Any:
    if value is None or value == "":
        return None
    kind = FIELDS_BY_NAME[key].kind
    label = FIELDS_BY_NAME[key].label
    try:
        if kind == "bool":
            return int(bool(value))
        if kind in ("int", "float"):
            number = float(value)
            if not math.isfinite(number) or not 0 <= number <= MAX_FIGURE:
                raise UserPartsError(f"{label}: {value!r} is not a number from 0 to "
                                     f"{MAX_FIGURE:,.0f}")
            return int(number) if kind == "int" else number
    except (TypeError, ValueError, OverflowError):
        raise UserPartsError(f"{label}: {value!r} is not a number") from None
    return _checked_text(label, str(value), MAX_TEXT_CHARS)


def _checked_text(label: str, text: str, most: int) -> str:
    if not valid_text(text):
        raise UserPartsError(f"{label}: holds an invalid character (a lone surrogate)")
    if len(text) > most:
        raise UserPartsError(f"{label}: {len(text):,} characters; at most {most:,}")
    return text


class PartResolver:
    """Look a part up by id: the catalog first, then the user's own parts. The user's
    figures and price book are applied on the way out, so their figure and their quote win
    wherever the part is used."""

    def __init__(self, catalog: Catalog, user_parts: UserParts | None = None,
                 price_book: PriceBook | None = None,
                 user_figures: UserFiguresStore | None = None) -> None:
        self.catalog = catalog
        self.user_parts = user_parts or UserParts()
        self.price_book = price_book or PriceBook()
        self.user_figures = user_figures or UserFiguresStore()
        """The figures the user entered from the box: applied to every part looked up,
        so every check and estimate uses them."""
        self.problem: str | None = None
        """Why the user's parts could not be read, once one lookup found out (a caller
        says so once, instead of every custom part reading as "not in the catalog")."""
        self.book_problem: str | None = None
        """Why the price book could not be read at all, once a lookup found out."""

    def find(self, part_id: str) -> Part | None:
        part = self._find(part_id)
        if part is None:
            return None
        part = self.user_figures.apply(part)  # a damaged store applies nothing, and says so
        try:
            return self.price_book.apply(part)
        except PriceBookError as exc:  # a damaged price book must not hide the part
            self.book_problem = self.book_problem or (
                f"{exc}; your own prices are not counted")
            return part

    def priced(self, part: Part) -> Part:
        """``part`` with the user's price (a table row shows the price that counts)."""
        try:
            return self.price_book.apply(part)
        except PriceBookError:
            return part

    def price_book_problems(self) -> list[str]:
        """What could not be read of the price book, once a lookup used it: the whole
        book (not a database) or the rows left out (each named); empty when all is well."""
        if self.book_problem:
            return [self.book_problem]
        try:
            return self.price_book.problems()
        except PriceBookError as exc:
            return [f"{exc}; your own prices are not counted"]

    def _find(self, part_id: str) -> Part | None:
        if part_id.startswith(CUSTOM_PREFIX):
            try:
                return self.user_parts.find(part_id)
            except UserPartsError as exc:
                self.problem = self.problem or str(exc)
                return None
        try:
            return self.catalog.find(part_id)
        except CatalogError:
            return None

    __call__ = find

    def get(self, part_id: str) -> Part:
        part = self.find(part_id)
        if part is None:
            raise UnknownPartError(part_id)
        return part
