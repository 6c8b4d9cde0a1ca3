"""The price book written out as CSV, and read back whole.

An export holds every price (parts, network gear such as ``switch:qm9700``, your own
parts), every currency rate with its date, and the currency totals are shown in; amounts
and rates exactly (``float(text) == value``), notes and dates as they were. Every cell is
neutralised against spreadsheet formulas (``core.files.csv_cells``) and read back exactly.
Importing the export gives the same book: ``read_book_export`` knows it by its header.

The columns: ``part_id, price, currency, date, note, source, kind``; ``kind`` is ``price``,
``rate`` (``part_id`` is the currency, ``price`` its US dollars per unit) or ``display
currency`` (``currency`` is the one totals are shown in). An export of an earlier version
(without ``kind``) reads as prices.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from dlhw_desktop.core.files.csv_cells import csv_text, restore_cell
from dlhw_desktop.core.limits import MAX_ID_CHARS, MAX_TEXT_CHARS
from dlhw_desktop.core.numbers import NumberError
from dlhw_desktop.core.prices.book import (
    AMOUNT,
    RATE,
    PriceBookError,
    Rate,
    UserPrice,
    parse_currency,
)
from dlhw_desktop.core.prices.kinds import parse_price_date

EXPORT_COLUMNS = ("part_id", "price", "currency", "date", "note", "source")
"""The columns every export has had; ``kind`` follows them."""
KIND_COLUMN = "kind"
PRICE, RATE_KIND, DISPLAY = "price", "rate", "display currency"
MAX_SOURCE_CHARS = 200


@dataclass(slots=True)
class BookContents:
    """What a price book holds, as an export carries it."""

    prices: list[UserPrice] = field(default_factory=list)
    rates: list[Rate] = field(default_factory=list)
    display_currency: str | None = None
    lines: list[int] = field(default_factory=list)
    """The file line of each price (for the preview)."""


def checked_price(price: UserPrice) -> UserPrice:
    """``price`` if the book can keep it and read it back: an id, an amount
    :data:`AMOUNT` accepts, a known currency, an ISO date or none, a note and a source
    of a sane length without NUL characters; ``PriceBookError`` naming what is wrong."""
    if not price.part_id.strip() or len(price.part_id) > MAX_ID_CHARS:
        raise PriceBookError(f"{price.part_id[:40]!r} is not a part id")
    try:
        AMOUNT.check(price.amount)
    except NumberError as exc:
        raise PriceBookError(f"{price.part_id}: {exc}") from None
    parse_currency(price.currency)
    if price.price_date and parse_price_date(price.price_date) is None:
        raise PriceBookError(f"{price.part_id}: {price.price_date!r} is not a date")
    for name, text, most in (("note", price.note, MAX_TEXT_CHARS),
                             ("source", price.source, MAX_SOURCE_CHARS)):
        if len(text) > most:
            raise PriceBookError(f"{price.part_id}: the {name} has {len(text):,} characters "
                                 f"(at most {most:,})")
        if "\x00" in text or "\x00" in price.part_id:
            raise PriceBookError(f"{price.part_id[:40]!r}: a NUL character in the {name}")
    return price


def amount_text(amount: float) -> str:
    """An amount as an export writes it: exact (``float(text) == amount``), two decimals at
    least, never in exponent form, and never three decimals (``1.799`` could be read as
    1,799; ``1.7990`` cannot)."""
    text = format(Decimal(repr(float(amount))), "f")
    whole, _, fraction = text.partition(".")
    fraction = fraction.rstrip("0")
    if len(fraction) < 2:
        fraction = fraction.ljust(2, "0")
    elif len(fraction) == 3:
        fraction += "0"
    return f"{whole}.{fraction}"


def book_csv(prices: Iterable[UserPrice], rates: Iterable[Rate] = (),
             display_currency: str | None = None) -> str:
    """The price book as CSV text (UTF-8, comma separated, one header row), every cell
    neutralised against spreadsheet formulas, amounts and rates exact."""
    rows: list[list[object]] = [[*EXPORT_COLUMNS, KIND_COLUMN]]
    rows.extend([p.part_id, amount_text(p.amount), p.currency, p.price_date, p.note,
                 p.source, PRICE] for p in prices)
    rows.extend([r.currency, amount_text(r.usd_per_unit), "USD", r.rate_date, "", "",
                 RATE_KIND] for r in rates)
    if display_currency is not None:
        rows.append(["", "", display_currency, "", "", "", DISPLAY])
    return csv_text(rows)


def contents_csv(book: BookContents) -> str:
    """A book's contents as an export writes them (the CLI and File > Export alike)."""
    return book_csv(book.prices, book.rates, book.display_currency)


def prices_csv(prices: Iterable[UserPrice]) -> str:
    """Prices alone as CSV (see ``book_csv``)."""
    return book_csv(prices)


_EXACT = re.compile(r"\d+\.\d+", re.ASCII)


def _exact(text: str, what: str) -> float:
    if not _EXACT.fullmatch(text):
        raise PriceBookError(f"{what}: {text[:40]!r} is not a number as an export writes it")
    return float(text)


def read_book_export(text: str) -> BookContents | None:
    """The contents of a price book export, or ``None`` when ``text`` is not one (its
    first row is not the export's header). ``PriceBookError`` naming the line for a row
    that cannot be read: an export is restored whole or not at all."""
    first = text.split("\n", 1)[0].strip().lstrip("\ufeff").strip()
    cells = [c.strip() for c in first.split(",")]
    if tuple(cells[:len(EXPORT_COLUMNS)]) != EXPORT_COLUMNS or cells[len(EXPORT_COLUMNS):] \
            not in ([], [KIND_COLUMN]):
        return None
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff"), newline=""), strict=True)
    book = BookContents()
    seen: set[str] = set()
    try:
        next(reader)
        for record in reader:
            line = reader.line_num
            if not any(c.strip() for c in record):
                continue
            cells = [restore_cell(c) for c in record] + [""] * 7
            part_id, price, currency, when, note, source, kind = cells[:7]
            kind = kind.strip() or PRICE
            try:
                if kind == PRICE:
                    if part_id in seen:
                        raise PriceBookError(f"{part_id} is priced twice")
                    seen.add(part_id)
                    book.prices.append(checked_price(UserPrice(
                        part_id, _exact(price, "Price"), parse_currency(currency), when,
                        note, source or "your quote")))
                    book.lines.append(line)
                elif kind == RATE_KIND:
                    code = parse_currency(part_id)
                    if code == "USD" or (when and parse_price_date(when) is None):
                        raise PriceBookError(f"{part_id!r} {when!r} is not a dated rate")
                    book.rates.append(Rate(code, RATE.check(_exact(price, "Rate")), when))
                elif kind == DISPLAY:
                    book.display_currency = parse_currency(currency)
                else:
                    raise PriceBookError(f"{kind[:40]!r} is not a kind of row an export has")
            except (PriceBookError, NumberError) as exc:
                raise PriceBookError(f"line {line:,} of the price book export: {exc}") from None
    except csv.Error as exc:
        raise PriceBookError(f"line {reader.line_num:,} cannot be read as CSV ({exc})") from None
    return book
