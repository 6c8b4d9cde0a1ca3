"""The user's own parts (those the catalog lacks), in the app-data folder, and one resolver
that looks a part id up in the catalog first and then in the user's parts.

Stored with sqlite-utils in ``<app-data>/user_parts.db`` (one table ``parts`` with the
catalog's columns). Custom ids follow ``custom/<category>/<vendor-model>``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from datetime import date
from pathlib import Path
from typing import Any

import sqlite_utils

from dlhw_desktop.catalog.pricebook import PriceBook
from dlhw_desktop.catalog.store import Catalog, row_to_part
from dlhw_desktop.core.errors import CatalogError, DlhwError, UnknownPartError
from dlhw_desktop.core.fields import ALL_FIELDS, FIELDS_BY_NAME, Category, fields_for
from dlhw_desktop.core.parts import Part, make_part_id
from dlhw_desktop.core.pricebook import PriceBookError
from dlhw_desktop.resources import user_data_dir

CUSTOM_PREFIX = "custom/"
_TYPES = {"text": str, "int": int, "float": float, "bool": int}


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
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite_utils.Database(self.path)
            if "parts" not in db.table_names():
                db["parts"].create({f.name: _TYPES[f.kind] for f in ALL_FIELDS}, pk="id")
            else:
                existing = set(db["parts"].columns_dict)
                for spec in ALL_FIELDS:
                    if spec.name not in existing:
                        db["parts"].add_column(spec.name, _TYPES[spec.kind])
        except (OSError, sqlite3.DatabaseError) as exc:
            raise UserPartsError(f"your parts database {self.path} cannot be used: {exc}") \
                from exc
        self._db = db
        return db

    def add(self, category: Category, vendor: str, name: str,
            figures: Mapping[str, Any] | None = None, *, price_usd: float | None = None,
            notes: str = "", source: str = "Entered by the user") -> Part:
        """Store a new custom part (or overwrite the one with the same vendor and name)."""
        vendor, name = vendor.strip(), name.strip()
        if not vendor or not name:
            raise UserPartsError("a custom part needs a vendor and a name")
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
        except sqlite3.DatabaseError as exc:
            raise UserPartsError(f"your parts database {self.path} is damaged: {exc}") from exc
        return row_to_part(rows[0], custom=True) if rows else None

    def all(self, category: Category | None = None) -> list[Part]:
        db = self._database(create=False)
        if db is None:
            return []
        where, args = ("category = ?", [category.value]) if category else (None, [])
        try:
            rows = db["parts"].rows_where(where, args, order_by="name")
            return [row_to_part(r, custom=True) for r in rows]
        except sqlite3.DatabaseError as exc:
            raise UserPartsError(f"your parts database {self.path} is damaged: {exc}") from exc

    def remove(self, part_id: str) -> None:
        db = self._database(create=False)
        if db is not None:
            db["parts"].delete_where("id = ?", [part_id])


def _checked(key: str, value: Any) -> Any:
    if value is None or value == "":
        return None
    kind = FIELDS_BY_NAME[key].kind
    try:
        if kind == "int":
            return int(value)
        if kind == "float":
            return float(value)
        if kind == "bool":
            return int(bool(value))
    except (TypeError, ValueError):
        raise UserPartsError(f"{FIELDS_BY_NAME[key].label}: {value!r} is not a number") \
            from None
    return str(value)


class PartResolver:
    """Look a part up by id: the catalog first, then the user's own parts. The user's price
    book is applied on the way out, so their quote wins wherever the part is used."""

    def __init__(self, catalog: Catalog, user_parts: UserParts | None = None,
                 price_book: PriceBook | None = None) -> None:
        self.catalog = catalog
        self.user_parts = user_parts or UserParts()
        self.price_book = price_book or PriceBook()

    def find(self, part_id: str) -> Part | None:
        part = self._find(part_id)
        if part is None:
            return None
        try:
            return self.price_book.apply(part)
        except PriceBookError:
            return part  # a damaged price book must not hide the part

    def _find(self, part_id: str) -> Part | None:
        if part_id.startswith(CUSTOM_PREFIX):
            try:
                return self.user_parts.find(part_id)
            except UserPartsError:
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
