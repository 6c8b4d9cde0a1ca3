"""A vendor's quote or price list read as a table: its text, its separator, its header row
(found under any letterhead, or the one the user picks), its columns mapped to ours, and
the currency its header or letterhead names.

A reseller's quote starts with lines of company name, address and quote number; its
header may say ``Unit price (EUR)``, ``Preis (€)``, ``Price USD`` or ``Prix HT``. The
header is the first row, among the first :data:`HEADER_SEARCH_ROWS`, that names a price
and a part column once a currency in a column name is set aside; when none does, the
first row as wide as the table below it. The user can always pick another row.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from dlhw_desktop.core.files.csv_cells import restore_cell
from dlhw_desktop.core.limits import MAX_PRICE_LIST_ROWS
from dlhw_desktop.core.prices.book import PriceBookError
from dlhw_desktop.core.prices.kinds import CURRENCIES

FIELD_ALIASES: dict[str, tuple[str, ...]] = {
    "part_id": ("part_id", "id", "part id", "catalog id"),
    "part_number": ("part number", "part_number", "partnumber", "mpn", "manufacturer part number",
                    "mfr part number", "mfr. part #", "mfg part #", "mfg part number",
                    "manufacturer part #", "sku", "p/n", "pn", "product code",
                    "model number", "article number", "art. nr.", "artikelnummer", "art.-nr.",
                    "herstellernummer", "hersteller-artikelnummer", "référence", "mfr",
                    "vendor part number", "oem part number", "model no", "part no",
                    "part #", "oem", "hersteller-nr.", "réf.", "référence fabricant",
                    "mfr p/n", "mfg #", "manufacturer part no", "mfr. part no.", "herst.-nr.",
                    "hersteller art.-nr.", "herstellerartikelnummer", "vendor sku",
                    "oem part no", "réf. fabricant", "código", "codice"),
    "name": ("name", "description", "product", "item", "product name", "item description",
             "model", "bezeichnung", "artikel", "beschreibung", "désignation", "libellé",
             "product description", "item name", "artikelbezeichnung", "produkt",
             "designation", "descripción", "descrizione"),
    # A unit price before an amount or a cost (a quote's "Amount" is often the line total).
    "price": ("price", "unit price", "unit cost", "net price",
              "net unit price", "unit price net", "unit price excl. vat", "price excl. vat",
              "preis", "prix", "einzelpreis", "stückpreis", "nettopreis", "preis netto",
              "einzelpreis netto", "ep", "prix unitaire", "prix ht", "prix unitaire ht",
              "pu ht", "precio", "prezzo", "price per unit", "price/unit", "price each",
              "your price", "quoted price", "offer price", "sale price", "selling price",
              "angebotspreis", "vk-preis", "prix de vente", "precio unitario",
              "prezzo unitario", "amount", "cost"),
    "currency": ("currency", "curr", "ccy", "währung", "devise", "monnaie"),
    "date": ("date", "quote date", "price date", "valid from", "datum"),
    "vendor": ("vendor", "supplier", "reseller", "manufacturer", "brand", "lieferant",
               "fournisseur"),
    "note": ("note", "notes", "comment", "remarks", "bemerkung", "remarque"),
}

HEADER_SEARCH_ROWS = 200
"""Rows searched for the header: a letterhead of company, address, contact, quote number,
terms and a greeting is a few dozen lines at most."""

MAX_FIELD_CHARS = 100_000
"""Characters of one cell: a long description is a few hundred; past this the file is not
a price list (Python's csv module stops at 128 KB with an error of its own)."""

_SIGNS = {"$": "USD", "US$": "USD", "€": "EUR", "£": "GBP"}  # ¥ is yen and yuan: no code
_CODES = "|".join(sorted(CURRENCIES))
_HEADER_CURRENCY = re.compile(
    rf"(?i)\s*(?:[(\[]\s*(?:in\s+)?(?P<a>{_CODES}|US\$|\$|€|£|¥)\s*[)\]]"
    rf"|\b(?:in\s+)?(?P<b>{_CODES})\b|(?P<c>US\$|\$|€|£|¥))\s*")
_LETTERHEAD_CURRENCY = re.compile(
    rf"(?i)\b(?:currency|währung|devise|monnaie|prices?\s+(?:are\s+)?in|all\s+prices\s+in|"
    rf"alle\s+preise\s+in|preise\s+in|prix\s+en)\b\W{{0,3}}(?P<code>{_CODES}|€|\$|£)")


def currency_code(text: str) -> str | None:
    """``EUR``, ``€``, ``us$`` -> an ISO code this program knows; else ``None``."""
    key = text.strip().upper()
    code = _SIGNS.get(key, key)
    return code if code in CURRENCIES else None


def header_currency(name: str) -> tuple[str, str | None]:
    """A column name with its currency set aside: ``Unit price (EUR)`` -> (``Unit price``,
    ``EUR``), ``Preis (€)`` -> (``Preis``, ``EUR``), ``Price USD`` -> (``Price``, ``USD``).
    A name that is only a currency (``EUR``) or names none is returned as it is."""
    match = None
    for found in _HEADER_CURRENCY.finditer(name):
        match = found
    if match is None:
        return name, None
    rest = (name[:match.start()] + " " + name[match.end():]).strip()
    if not re.search(r"\w", rest):
        return name, None
    code = currency_code(match.group("a") or match.group("b") or match.group("c") or "")
    return (rest, code) if code else (name, None)


@dataclass(frozen=True, slots=True)
class ImportRow:
    line: int
    values: dict[str, str]
    problem: str = ""
    """Why the row cannot be read as it stands (more cells than the header has)."""


@dataclass(slots=True)
class QuoteTable:
    """A price list as a table: the header row and the rows below it."""

    header: list[str]
    rows: list[ImportRow]
    delimiter: str
    header_line: int
    """The file's line number of the header row (1 for a file without a letterhead)."""
    guessed: bool
    """Whether the header was found by its names (not by width alone, nor picked)."""
    lines: list[tuple[int, list[str]]] = field(default_factory=list)
    """The first non-empty rows of the file, the user's choice of header row among them."""
    letterhead_currency: str | None = None
    """A currency the lines above the header name ("All prices in EUR")."""


def read_table(text: str, header_line: int | None = None) -> QuoteTable:
    """The table of a CSV whose separator is a comma, semicolon or tab. The header is the
    row at file line ``header_line`` when given, else the first row that names a price and
    a part column (lines above it, a letterhead, are left out). Cells this program
    neutralised on export (``'=...``) read back as they were (``core.files.csv_cells``).
    ``PriceBookError`` for a file the csv module cannot read, a cell over
    :data:`MAX_FIELD_CHARS`, a header that names one column twice, or a ``header_line``
    that is not one of the file's rows."""
    if "\n" not in text and "\r" in text:  # an old Mac's CR-only line ends
        text = text.replace("\r", "\n")
    sample = text[:8192]
    try:
        sniffed = csv.Sniffer().sniff(sample, delimiters=",;\t").delimiter
    except csv.Error:
        sniffed = ";" if sample.count(";") > sample.count(",") else ","
    # A letterhead's commas ("ACME GmbH, Hauptstr. 5") can mislead the sniffer: the
    # separator is the one under which a header row is found.
    candidates = [sniffed, *(d for d in ",;\t" if d != sniffed and d in text[:65536])]
    chosen = sniffed
    if header_line is None:
        chosen = next((d for d in candidates if _named_header(_head(text, d)) is not None),
                      sniffed)
    return _table(_records(text, chosen), chosen, header_line)


def _head(text: str, delimiter: str) -> list[tuple[int, list[str]]]:
    """The first :data:`HEADER_SEARCH_ROWS` non-empty rows as ``delimiter`` splits them
    (fewer where the csv module cannot read on): enough to find the header."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    rows: list[tuple[int, list[str]]] = []
    try:
        for record in reader:
            if any(c.strip() for c in record):
                rows.append((reader.line_num, [c[:200] for c in record]))
                if len(rows) >= HEADER_SEARCH_ROWS:
                    break
    except csv.Error:
        pass
    return rows


def head_rows(text: str) -> list[tuple[int, list[str]]]:
    """The first non-empty rows of a file, as the sniffed separator splits them: the
    choices of header row when the table cannot be read with the guessed one (empty when
    the file is not CSV at all)."""
    if "\n" not in text and "\r" in text:
        text = text.replace("\r", "\n")
    try:
        delimiter = csv.Sniffer().sniff(text[:8192], delimiters=",;\t").delimiter
    except csv.Error:
        delimiter = ";" if text[:8192].count(";") > text[:8192].count(",") else ","
    try:
        return _records(text, delimiter)[:HEADER_SEARCH_ROWS]
    except PriceBookError:
        return []


def _records(text: str, delimiter: str) -> list[tuple[int, list[str]]]:
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
    return rows


def _named_header(rows: list[tuple[int, list[str]]]) -> int | None:
    """The index of the first row whose names give a price and a part column."""
    for index, (_, record) in enumerate(rows[:HEADER_SEARCH_ROWS]):
        names = guess_columns([c.strip() for c in record])
        if "price" in names and {"part_id", "part_number", "name"} & set(names):
            return index
    return None


def _widest_row(rows: list[tuple[int, list[str]]]) -> int:
    """No row names its columns as we know them: the first row as wide as the widest of
    the first rows (a letterhead line has a cell or two, the header the table's width)."""
    head = rows[:HEADER_SEARCH_ROWS]
    widths = [sum(1 for c in record if c.strip()) for _, record in head]
    widest = max(widths)
    return next(i for i, w in enumerate(widths) if w == widest)


def _table(rows: list[tuple[int, list[str]]], delimiter: str,
           header_line: int | None) -> QuoteTable:
    guessed = False
    if header_line is not None:
        start = next((i for i, (line, _) in enumerate(rows) if line == header_line), None)
        if start is None:
            raise PriceBookError(f"line {header_line:,} is not a row of the file (an empty "
                                 "line, or past its end): choose another header row")
    else:
        named = _named_header(rows)
        guessed = named is not None
        start = named if named is not None else _widest_row(rows)
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
    above = " ".join(" ".join(record) for _, record in rows[:start])
    found = _LETTERHEAD_CURRENCY.search(above)
    return QuoteTable(header, body, delimiter, rows[start][0], guessed,
                      rows[:HEADER_SEARCH_ROWS],
                      currency_code(found.group("code")) if found else None)


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


def _header_key(name: str) -> str:
    """``Mfg. Part #`` and ``mfg part#`` alike: lower case, letters, digits and ``#`` only
    (``Item #``, a line number, stays apart from ``Item``, a description)."""
    return re.sub(r"[^0-9a-zäöüéèß#]+", "", name.lower())


_EUROPEAN_PRICE = frozenset(_header_key_ for _header_key_ in (
    "preis", "einzelpreis", "stückpreis", "nettopreis", "preisnetto", "einzelpreisnetto",
    "ep", "prix", "prixunitaire", "prixht", "prixunitaireht", "puht", "precio", "prezzo",
    "betrag", "montant", "importe", "importo", "angebotspreis", "vkpreis", "prixdevente",
    "preciounitario", "prezzounitario"))


def european_price_column(name: str) -> bool:
    """A price column named in German, French, Spanish or Italian (``Preis``, ``Prix HT``):
    its prices are most likely not in US dollars."""
    return _header_key(header_currency(name)[0]) in _EUROPEAN_PRICE


def guess_columns(header: Sequence[str]) -> dict[str, str]:
    """Our field -> the file's column, by the aliases above alone (not checked); a header
    matches an alias whatever its spaces, dots and signs (``Mfg. Part#``, ``MFG PART #``)
    and whatever currency it names (``Unit price (EUR)`` is a price column)."""
    keyed: dict[str, str] = {}
    for h in header:
        if h.strip():
            keyed.setdefault(_header_key(h), h)
    for h in header:
        bare, code = header_currency(h)
        if code is not None:
            keyed.setdefault(_header_key(bare), h)
    mapping: dict[str, str] = {}
    for our, aliases in FIELD_ALIASES.items():
        for alias in aliases:
            found = keyed.get(_header_key(alias))
            if found is not None and found not in mapping.values():
                mapping[our] = found
                break
    return mapping


def map_columns(header: Sequence[str], overrides: dict[str, str] | None = None,
                picked: bool = False) -> dict[str, str]:
    """Our field -> the file's column, by the aliases above and the user's overrides.
    ``picked``: the user chose the header row, and the message says so when it lacks one."""
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
    columns = ", ".join(repr(h) for h in header if h) or "no names"
    if "price" not in mapping:
        if picked:
            raise PriceBookError(f"the header row you chose has no price column (its cells: "
                                 f"{columns}): choose its price column, or another row")
        raise PriceBookError(f"no price column among {columns} (name it 'price' or map it: "
                             "--column price=\"Unit Price\")")
    if not {"part_id", "part_number", "name"} & set(mapping):
        raise PriceBookError(f"no column names the part (part_id, part number or name) "
                             f"among {columns}")
    return mapping


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
