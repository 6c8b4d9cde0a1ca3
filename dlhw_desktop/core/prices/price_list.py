"""A vendor's price list or quote read into prices.

The file is read as it comes (a letterhead above the table, headers in English, German or
French, a currency in a column name, subtotal and tax lines: ``quote_table``); every row
is matched to a part (``part_index``) or said why not, and nothing is saved until the user
accepts the preview. An export of the price book (``book_csv``) reads back whole: its
rates, display currency and network-gear quotes too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field

from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.prices.book import (
    YEN_OR_YUAN,
    PriceBookError,
    Rate,
    UserPrice,
    decimal_of,
    parse_amount,
    parse_currency,
    parse_date,
)
from dlhw_desktop.core.prices.book_csv import (
    EXPORT_COLUMNS,
    BookContents,
    amount_text,
    prices_csv,
    read_book_export,
)
from dlhw_desktop.core.prices.part_index import PartIndex, listed_part_numbers, normalise
from dlhw_desktop.core.prices.quote_table import (
    FIELD_ALIASES,
    HEADER_SEARCH_ROWS,
    ImportRow,
    QuoteTable,
    currency_code,
    decode,
    european_price_column,
    guess_columns,
    header_currency,
    map_columns,
    read_table,
)

__all__ = [
    "EXPORT_COLUMNS",
    "FIELD_ALIASES",
    "HEADER_SEARCH_ROWS",
    "ImportPreview",
    "ImportRow",
    "PartIndex",
    "amount_text",
    "decode",
    "guess_columns",
    "listed_part_numbers",
    "map_columns",
    "normalise",
    "preview_import",
    "prices_csv",
    "read_table",
]

_TOTAL_LINE = re.compile(
    r"^\s*(sub-?total|total|grand total|summe|zwischensumme|gesamt|tax|vat|sales tax|mwst|"
    r"ust|tva|shipping|freight|handling|versand|fracht|discount|rabatt)\b", re.IGNORECASE)
_CELL_CURRENCY = re.compile(r"(?i)(?<![a-z])(usd|eur|gbp|chf|jpy|cny|cad|aud|sek|nok|dkk|"
                            r"pln|czk|inr|krw|twd|sgd|hkd|nzd)(?![a-z])|us\$|\$|€|£|¥")


@dataclass(slots=True)
class ImportPreview:
    """What importing a price list would do; nothing is saved until it is applied."""

    encoding: str
    delimiter: str
    columns: dict[str, str]
    decimal: str | None = None
    """The decimal mark the file's prices use, when they say (``"."`` or ``","``)."""
    currency: str = "USD"
    """The currency of a price whose cell and row name none (see ``currency_basis``)."""
    currency_basis: str = ""
    """Where :attr:`currency` comes from, as the user reads it."""
    header_line: int = 1
    header_guessed: bool = True
    lines: list[tuple[int, list[str]]] = field(default_factory=list)
    """The file's first rows: the choices of header row."""
    matched: list[tuple[ImportRow, UserPrice, Part]] = field(default_factory=list)
    ambiguous: list[tuple[ImportRow, list[Part]]] = field(default_factory=list)
    unmatched: list[ImportRow] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)
    skipped: list[tuple[int, str]] = field(default_factory=list)
    """Lines left out on purpose (a quote's subtotal, tax and shipping lines), with why."""
    in_build: dict[int, list[Part]] = field(default_factory=dict)
    """Lines matched to the part in the open build: the parts each could price, that one
    first (``resolve`` points such a line at another)."""
    book: BookContents | None = None
    """The file is an export of a price book: its prices, rates and display currency,
    restored as they were (``matched`` holds its part prices for the preview)."""

    @property
    def prices(self) -> list[UserPrice]:
        if self.book is not None:
            return list(self.book.prices)
        return [price for _, price, _ in self.matched]

    def resolve(self, line: int, part: Part) -> UserPrice:
        """The user says which of an ambiguous row's candidates it prices: the row moves to
        the matched rows. ``PriceBookError`` if the line is not ambiguous, the part is not
        one of its candidates, or another row already prices that part."""
        found = [i for i, (row, _) in enumerate(self.ambiguous) if row.line == line]
        chosen = [i for i, (row, _, _) in enumerate(self.matched) if row.line == line]
        if found:
            row, candidates = self.ambiguous[found[0]]
        elif chosen and line in self.in_build:
            row, candidates = self.matched[chosen[0]][0], self.in_build[line]
        else:
            raise PriceBookError(f"line {line} is not one of the ambiguous rows")
        if part.id not in {c.id for c in candidates}:
            raise PriceBookError(f"{part.display_name} is not one of line {line}'s candidates")
        for other, _, taken in self.matched:
            if taken.id == part.id and other.line != line:
                raise PriceBookError(f"line {other.line} already prices {part.display_name}")
        price = row_price(row, self.columns, part.id, self.decimal, self.currency)
        if found:
            del self.ambiguous[found[0]]
        else:
            del self.matched[chosen[0]]
        self.matched.append((row, price, part))
        self.matched.sort(key=lambda item: item[0].line)
        return price

    def summary(self) -> str:
        text = (f"{len(self.matched)} matched, {len(self.ambiguous)} ambiguous, "
                f"{len(self.unmatched)} unmatched, {len(self.errors)} with errors")
        return text + (f", {len(self.skipped)} total lines left out" if self.skipped else "")


def is_total_line(row: ImportRow, part_number: str, part_id: str) -> bool:
    """A subtotal, tax, shipping or discount line of a quote: it names no part number or
    id, and its first words say what it sums."""
    if part_number.strip() or part_id.strip():
        return False
    first = next((v for v in row.values.values() if v.strip()), "")
    return bool(_TOTAL_LINE.match(first))


PROGRESS_EVERY = 500
"""Rows between two calls of an import's ``progress`` callback."""


UNKNOWN_CURRENCY = ("the file names no currency and writes its prices the European way "
                    "(a decimal comma, or a German or French price column): choose the file's "
                    "currency (Prices in…, or --currency EUR); not saved")


def file_currency(table: QuoteTable, mapping: dict[str, str], chosen: str | None,
                  decimal: str | None = None) -> tuple[str, str]:
    """The currency of a price whose own cell and row name none, and where it comes from:
    the user's choice for the file, the price column's name, the letterhead; else US
    dollars, said as an assumption, unless the file looks European (a decimal comma, a
    ``Preis`` or ``Prix HT`` column): then ``""``, and such a row is not saved until the
    user says the currency (EUR amounts are never saved as dollars)."""
    if chosen:
        code = parse_currency(chosen)
        return code, f"{code}, as you chose for the file"
    code = header_currency(mapping["price"])[1]
    if code is not None:
        return code, f"{code}, as the column {mapping['price']!r} says"
    if table.letterhead_currency is not None:
        return (table.letterhead_currency,
                f"{table.letterhead_currency}, as the lines above the table say")
    if decimal == "," or european_price_column(mapping["price"]):
        return "", ("none: the file names no currency and writes its prices the European "
                    "way; choose the file's currency" + (
                        " (or fill its Currency column)" if "currency" in mapping else ""))
    if "currency" in mapping:
        return "USD", "the Currency column; US dollars where a row leaves it empty"
    return "USD", ("US dollars: the file names no currency (choose the file's currency "
                   "if its prices are in another)")


def preview_import(data: bytes, parts: Iterable[Part] | PartIndex,
                   overrides: dict[str, str] | None = None,
                   progress: Callable[[int, int], None] | None = None, *,
                   currency: str | None = None, header_line: int | None = None,
                   rates: Mapping[str, Rate] | None = None,
                   build: Collection[str] = (),
                   other_names: Mapping[str, str] | None = None) -> ImportPreview:
    """Read a price list and sort its rows into matched, ambiguous, unmatched and errors.

    ``currency``: the file's currency as the user chose it (a row's own currency cell or
    sign still wins). ``header_line``: the file line of the header row, when the user
    picked it. ``rates``: the user's rates; a row priced in a currency without one is an
    error (saved in no currency it is not in, and not as if it were dollars). ``build``:
    the part ids of the open build; a line that could be several parts prices the one in
    it. ``progress(done, total)`` is called every :data:`PROGRESS_EVERY` rows and at the
    end. ``other_names``: the names of priced items the catalog does not list (network
    gear), for an export of a price book. Nothing is saved here: the caller saves the
    preview once the user confirms."""
    text, encoding = decode(data)
    book = read_book_export(text) if header_line is None and not overrides else None
    if book is not None:
        return _book_preview(book, encoding, parts, other_names)
    table = read_table(text, header_line)
    mapping = map_columns(table.header, overrides, picked=header_line is not None)
    index = parts if isinstance(parts, PartIndex) else PartIndex(parts)
    rows = table.rows
    decimal = file_decimal(_cell(row, mapping, "price") for row in rows)
    fallback, basis = file_currency(table, mapping, currency, decimal)
    preview = ImportPreview(encoding, table.delimiter, mapping, decimal, fallback, basis,
                            table.header_line, table.guessed, table.lines)
    seen: dict[str, int] = {}
    held = frozenset(build)

    def cell(row: ImportRow, our: str) -> str:
        return _cell(row, mapping, our)

    for done, row in enumerate(rows):
        if progress is not None and done % PROGRESS_EVERY == 0:
            progress(done, len(rows))
        if is_total_line(row, cell(row, "part_number"), cell(row, "part_id")):
            preview.skipped.append((row.line, "a total, tax, shipping or discount line"))
            continue
        if row.problem:
            preview.errors.append((row.line, row.problem))
            continue
        try:
            amount = parse_amount(cell(row, "price"), decimal)
            code = row_currency(row, mapping, fallback)
            when = parse_date(cell(row, "date") or None)
        except PriceBookError as exc:
            preview.errors.append((row.line, str(exc)))
            continue
        found = index.match(cell(row, "part_id"), cell(row, "part_number"), cell(row, "name"))
        if not found:
            preview.unmatched.append(row)
            continue
        if rates is not None and code != "USD" and code not in rates:
            preview.errors.append((row.line, no_rate(code)))
            continue
        by_id = cell(row, "part_id") in index.by_id or cell(row, "part_id") in index.aliases
        chosen = None if by_id else index.in_build(found, held)
        if chosen is not None and chosen.id in seen:  # an earlier line prices it already
            chosen = None
        if chosen is not None and (len(found) > 1 or chosen.id != found[0].id):
            preview.in_build[row.line] = [chosen, *(p for p in found if p.id != chosen.id)]
            found = [chosen]
        if len(found) > 1:
            preview.ambiguous.append((row, found))
            continue
        part = found[0]
        if part.id in seen:
            preview.errors.append((row.line, f"duplicate: line {seen[part.id]} already prices "
                                             f"{part.display_name}"))
            continue
        seen[part.id] = row.line
        preview.matched.append((row, _price(row, mapping, part.id, amount, code, when),
                                part))
    if progress is not None:
        progress(len(rows), len(rows))
    return preview


def no_rate(code: str) -> str:
    return (f"priced in {code}, and you have no {code} rate: not saved (set one under Build "
            f"> Currency for totals, or dlhw price rate {code} USD_PER_UNIT, then import "
            "again)")


def row_currency(row: ImportRow, mapping: dict[str, str], fallback: str) -> str:
    """A row's currency: the one its price cell names (``€1.299,00``, ``1,299 USD``), or its
    Currency cell, else ``fallback``. ``PriceBookError`` when the two disagree."""
    named = _CELL_CURRENCY.search(_cell(row, mapping, "price"))
    sign = currency_code(named.group(0)) if named else None
    column_text = _cell(row, mapping, "currency")
    column = parse_currency(column_text) if column_text else None
    if named and named.group(0) == "¥":  # yen and yuan alike: the row or file says which
        said = column or fallback
        if said not in YEN_OR_YUAN:
            raise PriceBookError("¥ is the sign of both yen and yuan: give the Currency "
                                 "column or choose the file's currency (JPY or CNY)")
        sign = said
    if sign and column and sign != column:
        raise PriceBookError(f"the price says {sign} but the Currency column says {column}")
    code = sign or column or fallback
    if not code:
        raise PriceBookError(UNKNOWN_CURRENCY)
    return code


def _book_preview(book: BookContents, encoding: str, parts: Iterable[Part] | PartIndex,
                  other_names: Mapping[str, str] | None) -> ImportPreview:
    """An export of a price book: every price goes back as it was (parts the catalog does
    not have, such as network gear and your own parts, included; a price in a currency
    without a rate too: the book it came from held it so, not counted in dollar totals)."""
    index = parts if isinstance(parts, PartIndex) else PartIndex(parts)
    preview = ImportPreview(encoding, ",", {"part_id": "part_id", "price": "price"},
                            ".", "USD", "an export of a price book: each price in its own "
                            "currency", book=book)
    for line, price in zip(book.lines, book.prices, strict=True):
        part = index.by_id.get(price.part_id) or Part(  # network gear, a part of yours
            price.part_id, Category.SERVER, "", (other_names or {}).get(
                price.part_id, price.part_id), "", "")
        row = ImportRow(line, {"part_id": price.part_id, "price": str(price.amount)})
        preview.matched.append((row, price, part))
    return preview


def _cell(row: ImportRow, mapping: dict[str, str], our: str) -> str:
    return row.values.get(mapping[our], "") if our in mapping else ""


def _price(row: ImportRow, mapping: dict[str, str], part_id: str, amount: float,
           currency: str, when: str) -> UserPrice:
    vendor = _cell(row, mapping, "vendor")
    note = "; ".join(x for x in (vendor and f"from {vendor}", _cell(row, mapping, "note"))
                     if x)
    return UserPrice(part_id, amount, currency, when, note, "imported price list")


def file_decimal(cells: Iterable[str]) -> str | None:
    """The decimal mark a file's prices use, from the prices that can only be read one way
    (``1.199,00`` says comma, ``1,799.00`` or ``1.80`` says point); ``None`` when none say
    or they disagree: a price that could be read either way is then refused, not guessed."""
    said = {decimal_of(cell) for cell in cells} - {None}
    return said.pop() if len(said) == 1 else None


def row_price(row: ImportRow, mapping: dict[str, str], part_id: str,
              decimal: str | None = None, currency: str = "USD") -> UserPrice:
    """The price one row of a price list gives ``part_id`` (``PriceBookError`` if its
    price, currency or date cannot be read)."""
    if row.problem:
        raise PriceBookError(row.problem)
    return _price(row, mapping, part_id, parse_amount(_cell(row, mapping, "price"), decimal),
                  row_currency(row, mapping, currency),
                  parse_date(_cell(row, mapping, "date") or None))
