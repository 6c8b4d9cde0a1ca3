"""The buyer's price book, stored: ``<app-data>/price_book.db`` (sqlite-utils).

Tables ``prices`` (one row per part: amount, currency, the date the price held, a note,
where it came from), ``rates`` (US dollars per unit of a currency, with the date the
user set it) and ``preferences`` (the currency totals are shown in).
The book lives beside the user's parts, not in the catalog, so it survives
catalog updates. Every write is one transaction: an import saves all of its rows or none.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.prices.book import PriceBookError, Rate, UserPrice, apply, parse_currency
from dlhw_desktop.core.prices.currency import DisplayCurrency
from dlhw_desktop.resources import user_data_dir

if TYPE_CHECKING:
    import sqlite_utils

PRICE_COLUMNS = {"part_id": str, "amount": float, "currency": str, "price_date": str,
                 "note": str, "source": str, "entered": str}


class PriceBook:
    """The user's prices and currency rates; created on first write."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or user_data_dir() / "price_book.db"
        self._db: sqlite_utils.Database | None = None
        self._cache: tuple[dict[str, UserPrice], dict[str, Rate]] | None = None
        self._currency: str | None = None  # the chosen currency, read once

    def _database(self, create: bool) -> sqlite_utils.Database | None:
        """The book opened for writing (sqlite-utils, imported on the first write: it pulls
        in numpy, which the app's start-up must not pay for)."""
        if self._db is not None:
            return self._db
        if not self.path.exists() and not create:
            return None
        import sqlite_utils

        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite_utils.Database(self.path)
            if "prices" not in db.table_names():
                db["prices"].create(PRICE_COLUMNS, pk="part_id")
            if "rates" not in db.table_names():
                db["rates"].create({"currency": str, "usd_per_unit": float, "rate_date": str},
                                   pk="currency")
            if "preferences" not in db.table_names():
                db["preferences"].create({"key": str, "value": str}, pk="key")
        except (OSError, sqlite3.DatabaseError) as exc:
            raise PriceBookError(f"your price book {self.path} cannot be used: {exc}") from exc
        self._db = db
        return db

    def _read(self, sql: str, args: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        """The rows of a query on the book, read-only with the standard library (no book
        yet or a table an older book lacks: no rows)."""
        if self._db is None and not self.path.exists():
            return []
        try:
            if self._db is not None:
                conn, own = self._db.conn, False
            else:
                conn = sqlite3.connect(self.path.resolve().as_uri() + "?mode=ro", uri=True)
                own = True
            try:
                cursor = conn.execute(sql, args)
                names = [d[0] for d in cursor.description]
                return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
            finally:
                if own:
                    conn.close()
        except sqlite3.OperationalError as exc:
            if "no such table" in str(exc):
                return []
            raise PriceBookError(f"your price book {self.path} cannot be read: {exc}") from exc
        except sqlite3.DatabaseError as exc:
            raise PriceBookError(f"your price book {self.path} is damaged: {exc}") from exc

    def _load(self) -> tuple[dict[str, UserPrice], dict[str, Rate]]:
        if self._cache is not None:
            return self._cache
        prices: dict[str, UserPrice] = {}
        rates: dict[str, Rate] = {}
        for r in self._read("SELECT * FROM prices"):
            prices[r["part_id"]] = UserPrice(r["part_id"], r["amount"], r["currency"],
                                             r["price_date"] or "", r["note"] or "",
                                             r["source"] or "your quote")
        for r in self._read("SELECT * FROM rates"):
            rates[r["currency"]] = Rate(r["currency"], r["usd_per_unit"], r["rate_date"])
        self._cache = (prices, rates)
        return self._cache

    def prices(self) -> list[UserPrice]:
        return sorted(self._load()[0].values(), key=lambda p: p.part_id)

    def rates(self) -> dict[str, Rate]:
        return dict(self._load()[1])

    def get(self, part_id: str) -> UserPrice | None:
        return self._load()[0].get(part_id)

    def save(self, prices: Iterable[UserPrice]) -> int:
        """Store prices (one per part; a new one replaces the old), all or none."""
        rows = [{"part_id": p.part_id, "amount": p.amount, "currency": p.currency,
                 "price_date": p.price_date, "note": p.note, "source": p.source,
                 "entered": date.today().isoformat()} for p in prices]
        if not rows:
            return 0
        db = self._database(create=True)
        assert db is not None
        try:
            with db.conn:
                db["prices"].upsert_all(rows, pk="part_id")
        except sqlite3.DatabaseError as exc:
            raise PriceBookError(f"cannot save to your price book {self.path}: {exc}") from exc
        self._cache = None
        return len(rows)

    def remove(self, part_id: str) -> bool:
        db = self._database(create=False)
        if db is None or self.get(part_id) is None:
            return False
        with db.conn:
            db["prices"].delete(part_id)
        self._cache = None
        return True

    def set_rate(self, currency: str, usd_per_unit: float, when: str | None = None) -> Rate:
        code = parse_currency(currency)
        if code == "USD":
            raise PriceBookError("USD is the base currency: its rate is 1")
        if not usd_per_unit > 0:
            raise PriceBookError("a rate must be above zero")
        rate = Rate(code, float(usd_per_unit), when or date.today().isoformat())
        db = self._database(create=True)
        assert db is not None
        with db.conn:
            db["rates"].upsert({"currency": rate.currency, "usd_per_unit": rate.usd_per_unit,
                                "rate_date": rate.rate_date}, pk="currency")
        self._cache = None
        return rate

    def apply(self, part: Part) -> Part:
        """The part with the user's price, when they set one (it wins over the catalog's)."""
        prices, rates = self._load()
        return apply(part, prices.get(part.id), rates)

    # --- the currency totals are shown in ------------------------------------------------
    def display_currency(self) -> DisplayCurrency:
        """The currency the user wants totals in, with its rate (US dollars by default)."""
        if self._currency is not None:
            return DisplayCurrency.choose(self._currency, self.rates())
        rows = self._read("SELECT value FROM preferences WHERE key = ?", ("display_currency",))
        code = (rows[0]["value"] if rows else None) or "USD"
        self._currency = code
        return DisplayCurrency.choose(code, self.rates())

    def set_display_currency(self, currency: str) -> DisplayCurrency:
        """Show totals in ``currency`` from now on (a rate is set separately, dated)."""
        code = parse_currency(currency)
        db = self._database(create=True)
        assert db is not None
        try:
            with db.conn:
                db["preferences"].upsert({"key": "display_currency", "value": code},
                                         pk="key")
        except sqlite3.DatabaseError as exc:
            raise PriceBookError(f"cannot save to your price book {self.path}: {exc}") from exc
        self._currency = code
        return self.display_currency()
