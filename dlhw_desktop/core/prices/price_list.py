"""A vendor's price list or quote read into prices, and the price book written out as CSV.

The file is read as it comes (a letterhead above the table, headers in English, German or
French, subtotal and tax lines); every row is matched to a part or said why not, and
nothing is saved until the user accepts the preview.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from dlhw_desktop.core.files.csv_cells import csv_text, restore_cell
from dlhw_desktop.core.limits import MAX_PRICE_LIST_ROWS
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.prices.book import (
    PriceBookError,
    UserPrice,
    decimal_of,
    parse_amount,
    parse_currency,
    parse_date,
)

# --- importing a price list ------------------------------------------------------------

FIELD_ALIASES: dict[str, tuple[str, ...]] = {
    "part_id": ("part_id", "id", "part id", "catalog id"),
    "part_number": ("part number", "part_number", "partnumber", "mpn", "manufacturer part number",
                    "mfr part number", "mfr. part #", "mfg part #", "mfg part number",
                    "manufacturer part #", "sku", "p/n", "pn", "product code",
                    "model number", "article number", "art. nr.", "artikelnummer", "art.-nr.",
                    "herstellernummer", "hersteller-artikelnummer", "référence", "mfr",
                    "vendor part number", "oem part number", "model no"),
    "name": ("name", "description", "product", "item", "product name", "item description",
             "model", "bezeichnung", "artikel", "beschreibung", "désignation"),
    "price": ("price", "unit price", "amount", "unit cost", "cost", "price (usd)",
              "net price", "unit price (usd)", "preis", "prix", "einzelpreis", "stückpreis",
              "prix unitaire", "precio", "prezzo"),
    "currency": ("currency", "curr", "ccy", "währung", "devise"),
    "date": ("date", "quote date", "price date", "valid from", "datum"),
    "vendor": ("vendor", "supplier", "reseller", "manufacturer", "brand", "lieferant",
               "fournisseur"),
    "note": ("note", "notes", "comment", "remarks"),
}


@dataclass(frozen=True, slots=True)
class ImportRow:
    line: int
    values: dict[str, str]
    problem: str = ""
    """Why the row cannot be read as it stands (more cells than the header has)."""


@dataclass(slots=True)
class ImportPreview:
    """What importing a price list would do; nothing is saved until it is applied."""

    encoding: str
    delimiter: str
    columns: dict[str, str]
    decimal: str | None = None
    """The decimal mark the file's prices use, when they say (``"."`` or ``","``)."""
    matched: list[tuple[ImportRow, UserPrice, Part]] = field(default_factory=list)
    ambiguous: list[tuple[ImportRow, list[Part]]] = field(default_factory=list)
    unmatched: list[ImportRow] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)
    skipped: list[tuple[int, str]] = field(default_factory=list)
    """Lines left out on purpose (a quote's subtotal, tax and shipping lines), with why."""

    @property
    def prices(self) -> list[UserPrice]:
        return [price for _, price, _ in self.matched]

    def resolve(self, line: int, part: Part) -> UserPrice:
        """The user says which of an ambiguous row's candidates it prices: the row moves to
        the matched rows. ``PriceBookError`` if the line is not ambiguous, the part is not
        one of its candidates, or another row already prices that part."""
        found = [i for i, (row, _) in enumerate(self.ambiguous) if row.line == line]
        if not found:
            raise PriceBookError(f"line {line} is not one of the ambiguous rows")
        index = found[0]
        row, candidates = self.ambiguous[index]
        if part.id not in {c.id for c in candidates}:
            raise PriceBookError(f"{part.id} is not one of line {line}'s candidates")
        for other, _, taken in self.matched:
            if taken.id == part.id:
                raise PriceBookError(f"line {other.line} already prices {part.display_name}")
        price = row_price(row, self.columns, part.id, self.decimal)
        del self.ambiguous[index]
        self.matched.append((row, price, part))
        self.matched.sort(key=lambda item: item[0].line)
        return price

    def summary(self) -> str:
        text = (f"{len(self.matched)} matched, {len(self.ambiguous)} ambiguous, "
                f"{len(self.unmatched)} unmatched, {len(self.errors)} with errors")
        return text + (f", {len(self.skipped)} total lines left out" if self.skipped else "")


def decode(data: bytes) -> tuple[str, str]:
    """The text of a price list and the encoding it was read in; a binary file is refused."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):  # Excel's "Unicode text" and other UTF-16
        try:
            return data.decode("utf-16"), "utf-16"
        except UnicodeDecodeError:
            raise PriceBookError("the file says it is UTF-16 text but is not") from None
    for magic, what in ((b"PK\x03\x04", "a spreadsheet workbook (.xlsx/.ods)"),
                        (b"%PDF", "a PDF"), (b"\xd0\xcf\x11\xe0", "an old Excel workbook")):
        if data.startswith(magic):
            raise PriceBookError(f"this is {what}, not a CSV file: save the price list as "
                                 "CSV (comma or semicolon separated) and import that")
    if b"\x00" in data[:4096]:
        raise PriceBookError("this is not a CSV file (it holds binary data); export the "
                             "price list as CSV")
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding), encoding
        except UnicodeDecodeError:
            continue
    raise PriceBookError("the file is neither UTF-8 nor Windows-1252 text")  # pragma: no cover


HEADER_SEARCH_ROWS = 30
"""A quote's table may start below a letterhead (company, quote number, date): its header
is the first of these rows whose names give a price and a part column."""

_TOTAL_LINE = re.compile(
    r"^\s*(sub-?total|total|grand total|summe|zwischensumme|gesamt|tax|vat|sales tax|mwst|"
    r"ust|tva|shipping|freight|handling|versand|fracht|discount|rabatt)\b", re.IGNORECASE)


MAX_FIELD_CHARS = 100_000
"""Characters of one cell: a long description is a few hundred; past this the file is not
a price list (Python's csv module stops at 128 KB with an error of its own)."""


def read_table(text: str) -> tuple[list[str], list[ImportRow], str]:
    """Header and rows of a CSV whose separator is a comma, semicolon or tab. Lines above
    the header (a letterhead) are left out; the header is the first row, among the first
    :data:`HEADER_SEARCH_ROWS`, that names a price and a part column. Cells this program
    neutralised on export (``'=...``) read back as they were (``core.files.csv_cells``).
    ``PriceBookError`` for a file the csv module cannot read, a cell over
    :data:`MAX_FIELD_CHARS` or a header that names one column twice."""
    if "\n" not in text and "\r" in text:  # an old Mac's CR-only line ends
        text = text.replace("\r", "\n")
    sample = text[:8192]
    try:
        delimiter = csv.Sniffer().sniff(sample, delimiters=",;\t").delimiter
    except csv.Error:
        delimiter = ";" if sample.count(";") > sample.count(",") else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    rows: list[tuple[int, list[str]]] = []
    try:
        for record in reader:
            if any(len(cell) > MAX_FIELD_CHARS for cell in record):
                raise PriceBookError(f"line {reader.line_num:,}: a cell of more than "
                                     f"{MAX_FIELD_CHARS:,} characters: this is not a price "
                                     "list (or a quote is never closed)")
            if len(rows) > MAX_PRICE_LIST_ROWS:
                raise PriceBookError(f"more than {MAX_PRICE_LIST_ROWS:,} rows: too many for "
                                     "one price list (split it)")
            if any(c.strip() for c in record):
                rows.append((reader.line_num, [restore_cell(c) for c in record]))
    except csv.Error as exc:
        raise PriceBookError(f"line {reader.line_num:,} cannot be read as CSV ({exc}); "
                             "is a quote never closed?") from None
    if len(rows) < 2:
        raise PriceBookError("this is not a price list: it needs a header row and at least "
                             "one price row")
    start = 0
    for index, (_, record) in enumerate(rows[:HEADER_SEARCH_ROWS]):
        names = guess_columns([c.strip() for c in record])
        if "price" in names and {"part_id", "part_number", "name"} & set(names):
            start = index
            break
    if start >= len(rows) - 1:
        raise PriceBookError("this is not a price list: no price rows below its header")
    header = [h.strip() for h in rows[start][1]]
    _refuse_repeated_columns(header)
    body = []
    for line, record in rows[start + 1:]:
        padded = record + [""] * (len(header) - len(record))
        extra = [c for c in padded[len(header):] if c.strip()]
        problem = (f"{len(header) + len(extra)} cells under a header of {len(header)}: "
                   "a number with an unquoted separator (1,799.00 in a comma-separated "
                   "file)? Quote it or remove the separator") if extra else ""
        body.append(ImportRow(line, {h: padded[i].strip() for i, h in enumerate(header)
                                     if h}, problem))
    return header, body, delimiter


def _refuse_repeated_columns(header: Sequence[str]) -> None:
    """Two columns of one name: which of them holds the price cannot be told."""
    seen: dict[str, int] = {}
    for number, name in enumerate(header, start=1):
        key = name.strip().lower()
        if not key:
            continue
        if key in seen:
            raise PriceBookError(f"the header names the column {name!r} twice (columns "
                                 f"{seen[key]} and {number}): rename one, so it is clear "
                                 "which one is meant")
        seen[key] = number


def is_total_line(row: ImportRow, part_number: str, part_id: str) -> bool:
    """A subtotal, tax, shipping or discount line of a quote: it names no part number or
    id, and its first words say what it sums."""
    if part_number.strip() or part_id.strip():
        return False
    first = next((v for v in row.values.values() if v.strip()), "")
    return bool(_TOTAL_LINE.match(first))


def _header_key(name: str) -> str:
    """``Mfg. Part #`` and ``mfg part#`` alike: lower case, letters, digits and ``#`` only
    (``Item #``, a line number, stays apart from ``Item``, a description)."""
    return re.sub(r"[^0-9a-zäöüéè#]+", "", name.lower())


def guess_columns(header: Sequence[str]) -> dict[str, str]:
    """Our field -> the file's column, by the aliases above alone (not checked); a header
    matches an alias whatever its spaces, dots and signs (``Mfg. Part#``, ``MFG PART #``)."""
    keyed: dict[str, str] = {}
    for h in header:
        if h.strip():
            keyed.setdefault(_header_key(h), h)
    mapping: dict[str, str] = {}
    for our, aliases in FIELD_ALIASES.items():
        for alias in aliases:
            found = keyed.get(_header_key(alias))
            if found is not None:
                mapping[our] = found
                break
    return mapping


def map_columns(header: Sequence[str], overrides: dict[str, str] | None = None) -> dict[str, str]:
    """Our field -> the file's column, by the aliases above and the user's overrides."""
    lowered = {h.strip().lower(): h for h in header if h.strip()}
    mapping = guess_columns(header)
    for our, theirs in (overrides or {}).items():
        if our not in FIELD_ALIASES:
            raise PriceBookError(f"unknown field {our!r} in the column map "
                                 f"(known: {', '.join(FIELD_ALIASES)})")
        if not theirs.strip():  # the user says the file has no such column
            mapping.pop(our, None)
            continue
        if theirs.strip().lower() not in lowered:
            raise PriceBookError(f"the file has no column {theirs!r}")
        mapping[our] = lowered[theirs.strip().lower()]
    if "price" not in mapping:
        raise PriceBookError(f"no price column among {', '.join(h for h in header if h)} "
                             "(name it 'price' or map it: --column price=\"Unit Price\")")
    if not {"part_id", "part_number", "name"} & set(mapping):
        raise PriceBookError("no column names the part (part_id, part number or name)")
    return mapping


def normalise(text: str) -> str:
    """Lower case, letters and digits only: ``RTX-4090 (24GB)`` -> ``rtx409024gb``."""
    return re.sub(r"[^a-z0-9]+", "", text.lower())


class PartIndex:
    """Parts by id, by normalised display name, and by the three-letter pieces of those
    names, so "which names contain this part number" looks at a few candidates instead of
    every name (a 10,000-row price list against a catalog of thousands stays quick)."""

    def __init__(self, parts: Iterable[Part]) -> None:
        self.by_id: dict[str, Part] = {}
        self.by_name: dict[str, list[Part]] = {}
        shown: dict[str, list[Part]] = {}
        for part in parts:
            self.by_id[part.id] = part
            full = normalise(part.display_name)
            self.by_name.setdefault(full, []).append(part)
            name = normalise(part.name)
            if name != full:
                self.by_name.setdefault(name, []).append(part)
            # The display name is the vendor and the name: a key inside the name is inside
            # it too, so the containment search needs the display names alone.
            shown.setdefault(full, []).append(part)
        self._names = list(shown.items())
        grams: dict[str, list[int]] = {}
        for i, (key, _) in enumerate(self._names):
            for gram in {key[j:j + 3] for j in range(len(key) - 2)}:
                found = grams.get(gram)
                if found is None:
                    grams[gram] = [i]
                else:
                    found.append(i)
        self._grams = grams

    def _containing(self, key: str) -> list[Part]:
        """Parts whose normalised name contains ``key`` (at least 3 characters), in the
        order the parts were given."""
        postings = []
        for gram in {key[j:j + 3] for j in range(len(key) - 2)}:
            found = self._grams.get(gram)
            if not found:
                return []
            postings.append(found)
        postings.sort(key=len)
        candidates = set(postings[0])
        for more in postings[1:]:
            candidates.intersection_update(more)
            if not candidates:
                return []
        hits: dict[str, Part] = {}
        # Closest first: the name with the fewest characters beyond the key ("GeForce RTX
        # 4090" before "Gigabyte AORUS GeForce RTX 4090 Master 24G"), then by name.
        for i in sorted(candidates, key=lambda i: (len(self._names[i][0]), self._names[i][0])):
            name, parts = self._names[i]
            if key in name:
                hits.update((p.id, p) for p in parts)
        return list(hits.values())

    def match(self, part_id: str, part_number: str, name: str) -> list[Part]:
        if part_id and part_id in self.by_id:
            return [self.by_id[part_id]]
        if part_number:
            key = normalise(part_number)
            if len(key) >= 5:
                found = self._containing(key)
                if found:
                    return found
        if name:
            key = normalise(name)
            if key in self.by_name:
                return list({p.id: p for p in self.by_name[key]}.values())
            if len(key) >= 6:  # "RTX 4090" names several parts: the preview says which
                return self._containing(key)
        return []


PROGRESS_EVERY = 500
"""Rows between two calls of an import's ``progress`` callback."""


def preview_import(data: bytes, parts: Iterable[Part] | PartIndex,
                   overrides: dict[str, str] | None = None,
                   progress: Callable[[int, int], None] | None = None) -> ImportPreview:
    """Read a price list and sort its rows into matched, ambiguous, unmatched and errors.

    ``progress(done, total)`` is called every :data:`PROGRESS_EVERY` rows and at the end.
    Nothing is saved here: the caller saves ``preview.prices`` once the user confirms."""
    text, encoding = decode(data)
    header, rows, delimiter = read_table(text)
    mapping = map_columns(header, overrides)
    index = parts if isinstance(parts, PartIndex) else PartIndex(parts)
    decimal = file_decimal(_cell(row, mapping, "price") for row in rows)
    preview = ImportPreview(encoding, delimiter, mapping, decimal)
    seen: dict[str, int] = {}

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
            currency = parse_currency(cell(row, "currency") or None)
            when = parse_date(cell(row, "date") or None)
        except PriceBookError as exc:
            preview.errors.append((row.line, str(exc)))
            continue
        found = index.match(cell(row, "part_id"), cell(row, "part_number"), cell(row, "name"))
        if not found:
            preview.unmatched.append(row)
            continue
        if len(found) > 1:
            preview.ambiguous.append((row, found))
            continue
        part = found[0]
        if part.id in seen:
            preview.errors.append((row.line, f"duplicate: line {seen[part.id]} already prices "
                                             f"{part.id}"))
            continue
        seen[part.id] = row.line
        preview.matched.append((row, _price(row, mapping, part.id, amount, currency, when),
                                part))
    if progress is not None:
        progress(len(rows), len(rows))
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
              decimal: str | None = None) -> UserPrice:
    """The price one row of a price list gives ``part_id`` (``PriceBookError`` if its
    price, currency or date cannot be read)."""
    if row.problem:
        raise PriceBookError(row.problem)
    return _price(row, mapping, part_id, parse_amount(_cell(row, mapping, "price"), decimal),
                  parse_currency(_cell(row, mapping, "currency") or None),
                  parse_date(_cell(row, mapping, "date") or None))


EXPORT_COLUMNS = ("part_id", "price", "currency", "date", "note", "source")
"""The columns of an exported price book; an export imports back unchanged."""


def prices_csv(prices: Iterable[UserPrice]) -> str:
    """The user's prices as CSV text (UTF-8, comma separated, one header row), every cell
    neutralised against spreadsheet formulas, amounts exact (``amount_text``)."""
    rows: list[list[object]] = [list(EXPORT_COLUMNS)]
    rows.extend([p.part_id, amount_text(p.amount), p.currency, p.price_date, p.note,
                 p.source] for p in prices)
    return csv_text(rows)


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
