"""The buyer's price book, stored: ``<app-data>/price_book.db`` (SQLite).

Tables ``prices`` (one row per part: amount, currency, the date the price held, a note,
where it came from), ``rates`` (US dollars per unit of a currency, with the date the
user set it) and ``preferences`` (the currency totals are shown in).
The book lives beside the user's parts, not in the catalog, so it survives
catalog updates. Every write is one transaction: an import saves all of its rows or none.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from datetime import date
from pathlib import Path
from typing import Any

from dlhw_desktop.catalog.readonly_db import open_read_only, write_reason
from dlhw_desktop.core.files.reading import FileReadError, check_regular_file
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.prices.book import (
    PriceBookError,
    Rate,
    UserPrice,
    apply,
    checked_rate,
    parse_currency,
    parse_date,
    price_from_row,
    rate_from_row,
)
from dlhw_desktop.core.prices.book_csv import BookContents, checked_price
from dlhw_desktop.core.prices.currency import DisplayCurrency
from dlhw_desktop.core.prices.price_list import ImportPreview
from dlhw_desktop.core.rows import RowProblem, read_rows
from dlhw_desktop.resources import user_data_dir

PRICE_COLUMNS = {"part_id": str, "amount": float, "currency": str, "price_date": str,
                 "note": str, "source": str, "entered": str}

BUSY_TIMEOUT_MS = 10_000
"""How long a writer waits for another one (the app and a ``dlhw price`` at once, or a
script running twenty): every write lands instead of failing with "database is locked"."""

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS [prices] ([part_id] TEXT PRIMARY KEY, [amount] FLOAT, "
    "[currency] TEXT, [price_date] TEXT, [note] TEXT, [source] TEXT, [entered] TEXT)",
    "CREATE TABLE IF NOT EXISTS [rates] ([currency] TEXT PRIMARY KEY, [usd_per_unit] FLOAT, "
    "[rate_date] TEXT)",
    "CREATE TABLE IF NOT EXISTS [preferences] ([key] TEXT PRIMARY KEY, [value] TEXT)",
)
"""The tables as sqlite-utils made them in earlier versions (the same file reads on)."""


class PriceBook:
    """The user's prices and currency rates; created on first write.

    Read row by row: a row of the wrong type (a text, NULL or blob amount, an unknown
    currency) is left out and said in ``problems()``, the rest of the book still counts.
    Writes wait for each other (``BUSY_TIMEOUT_MS``, WAL where the folder allows it, each
    one an immediate transaction), so concurrent writers all land.
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or user_data_dir() / "price_book.db"
        self._cache: tuple[dict[str, UserPrice], dict[str, Rate]] | None = None
        self._failed: str | None = None  # why the book cannot be read (until a write)
        self._problems: list[RowProblem] = []
        self._currency: str | None = None  # the chosen currency, read once

    def _check_file(self) -> bool:
        """Whether the book exists; ``PriceBookError`` when its name leads to a FIFO, a
        device or a folder (SQLite would block on it or write a journal beside it)."""
        if not os.path.lexists(self.path):
            return False
        try:
            check_regular_file(self.path)
        except FileReadError as exc:
            raise PriceBookError(f"your price book {self.path} cannot be used: "
                                 f"{str(exc).split(': ', 1)[-1]}") from None
        return True

    def _connect(self, *, write: bool) -> sqlite3.Connection:
        uri = self.path.resolve().as_uri() + ("?mode=rw" if write else "?mode=ro")
        conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000,
                               isolation_level=None)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        return conn

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """One immediate transaction on the book (created with its tables if missing);
        every failure is a ``PriceBookError`` (a read-only book says so in one line)."""
        exists = self._check_file()
        try:
            if not exists:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000).close()
            conn = self._connect(write=True)
        except (OSError, sqlite3.Error) as exc:
            raise PriceBookError(f"your price book {self.path} cannot be written: "
                                 f"{_reason(exc)}") from None
        try:
            with suppress(sqlite3.Error):  # WAL: readers and writers do not block each
                conn.execute("PRAGMA journal_mode = WAL")  # other (not in a read-only dir)
            conn.execute("BEGIN IMMEDIATE")
            for statement in _SCHEMA:
                conn.execute(statement)
            yield conn
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            with suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            raise PriceBookError(f"cannot save to your price book {self.path}: "
                                 f"{_reason(exc)}") from None
        finally:
            conn.close()
        self._cache = self._failed = None

    def _read(self, sql: str, args: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        """The rows of a query on the book, read-only (no book yet or a table an older
        book lacks: no rows)."""
        if not self._check_file():
            return []
        try:
            conn = open_read_only(self.path, BUSY_TIMEOUT_MS / 1000)
            try:
                cursor = conn.execute(sql, args)
                names = [d[0] for d in cursor.description]
                return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
            finally:
                conn.close()
        except sqlite3.OperationalError as exc:
            if "no such table" in str(exc):
                return []
            raise PriceBookError(f"your price book {self.path} cannot be read: "
                                 f"{_reason(exc)}") from None
        except sqlite3.DatabaseError as exc:
            raise PriceBookError(f"your price book {self.path} is damaged: "
                                 f"{_reason(exc)}") from None

    def _load(self) -> tuple[dict[str, UserPrice], dict[str, Rate]]:
        if self._cache is not None:
            return self._cache
        if self._failed is not None:  # not read again for every table row
            raise PriceBookError(self._failed)
        try:
            return self._read_all()
        except PriceBookError as exc:
            self._failed = str(exc)
            raise

    def _read_all(self) -> tuple[dict[str, UserPrice], dict[str, Rate]]:
        prices, price_problems = read_rows(self._read("SELECT * FROM prices"),
                                           price_from_row, "your price book", "part_id")
        rates, rate_problems = read_rows(self._read("SELECT * FROM rates"), rate_from_row,
                                         "your price book's rates", "currency")
        self._problems = price_problems + rate_problems
        self._cache = ({p.part_id: p for p in prices}, {r.currency: r for r in rates})
        return self._cache

    def problems(self) -> list[str]:
        """The rows left out because they cannot be read, each named, one line each."""
        self._load()
        return [str(p) for p in self._problems]

    def prices(self) -> list[UserPrice]:
        return sorted(self._load()[0].values(), key=lambda p: p.part_id)

    def rates(self) -> dict[str, Rate]:
        return dict(self._load()[1])

    def get(self, part_id: str) -> UserPrice | None:
        return self._load()[0].get(part_id)

    def save(self, prices: Iterable[UserPrice], rates: Iterable[Rate] = (),
             display_currency: str | None = None) -> int:
        """Store prices (one per part; a new one replaces the old), and with them rates and
        the display currency (an export of a book read back), all or none. Every price is
        checked first (``checked_price``): one the book could not read back is refused."""
        today = date.today().isoformat()
        rows = [(p.part_id, p.amount, p.currency, p.price_date, p.note, p.source, today)
                for p in map(checked_price, prices)]
        rate_rows = [(r.currency, checked_rate(r.usd_per_unit), r.rate_date) for r in rates]
        code = parse_currency(display_currency) if display_currency else None
        if not rows and not rate_rows and code is None:
            return 0
        with self._writing() as conn:
            conn.executemany("INSERT OR REPLACE INTO [prices] (part_id, amount, currency, "
                             "price_date, note, source, entered) VALUES (?, ?, ?, ?, ?, ?, "
                             "?)", rows)
            conn.executemany("INSERT OR REPLACE INTO [rates] (currency, usd_per_unit, "
                             "rate_date) VALUES (?, ?, ?)", rate_rows)
            if code is not None:
                conn.execute("INSERT OR REPLACE INTO [preferences] (key, value) VALUES (?, ?)",
                             ("display_currency", code))
        if code is not None:
            self._currency = code
        return len(rows)

    def save_import(self, preview: ImportPreview) -> int:
        """Save what an import preview would: its matched prices, and for an export of a
        price book also its rates and display currency (the CLI and the dialog alike)."""
        book = preview.book
        if book is not None:
            return self.save(preview.prices, book.rates, book.display_currency)
        return self.save(preview.prices)

    def contents(self) -> BookContents:
        """Everything the book holds, as an export writes it."""
        return BookContents(self.prices(), sorted(self.rates().values(),
                                                  key=lambda r: r.currency),
                            self.display_currency().code)

    def remove(self, part_id: str) -> bool:
        if not self._check_file():
            return False
        with self._writing() as conn:
            removed = conn.execute("DELETE FROM [prices] WHERE part_id = ?",
                                   (part_id,)).rowcount
        return removed > 0

    def set_rate(self, currency: str, usd_per_unit: object, when: str | None = None) -> Rate:
        code = parse_currency(currency)
        if code == "USD":
            raise PriceBookError("USD is the base currency: its rate is 1")
        rate = Rate(code, checked_rate(usd_per_unit), parse_date(when))
        with self._writing() as conn:
            conn.execute("INSERT OR REPLACE INTO [rates] (currency, usd_per_unit, rate_date) "
                         "VALUES (?, ?, ?)", (rate.currency, rate.usd_per_unit,
                                              rate.rate_date))
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
        value = rows[0]["value"] if rows else None
        try:
            code = parse_currency(value) if isinstance(value, str) and value else "USD"
        except PriceBookError:
            code = "USD"
            self._problems.append(RowProblem("your price book's preferences",
                                             "display_currency",
                                             f"{value!r} is not a currency; US dollars used"))
        self._currency = code
        return DisplayCurrency.choose(code, self.rates())

    def set_display_currency(self, currency: str) -> DisplayCurrency:
        """Show totals in ``currency`` from now on (a rate is set separately, dated)."""
        code = parse_currency(currency)
        with self._writing() as conn:
            conn.execute("INSERT OR REPLACE INTO [preferences] (key, value) VALUES (?, ?)",
                         ("display_currency", code))
        self._currency = code
        return self.display_currency()


def _reason(exc: BaseException) -> str:
    return write_reason(exc)
