"""The buyer's price book, the pure part: read a quote or price list, match its rows to
parts, and say what would be saved before anything is.

A price list arrives in whatever shape the vendor chose: a header row, one row per line
item, a part number and/or a description, a unit price, maybe a currency and a date. This
module reads the text (any of UTF-8, UTF-8 with BOM, UTF-16 with BOM or Windows-1252;
comma, semicolon or tab separated), maps its columns, checks every row and matches it to
a part: by part id, then by manufacturer part number found in a part's name, then by
normalised name. The result is a
preview: matched, ambiguous, unmatched rows and per-row errors. Saving is the storage
layer's business (``catalog.pricebook``), and only after the preview.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from dlhw_desktop.core.errors import DlhwError
from dlhw_desktop.core.limits import MAX_FIGURE, MAX_ID_CHARS, MAX_TEXT_CHARS
from dlhw_desktop.core.numbers import NumberError, NumberField
from dlhw_desktop.core.parts import FigureSource, Part
from dlhw_desktop.core.prices.kinds import CURRENCIES, PriceKind, parse_price_date
from dlhw_desktop.core.rows import RowError, number_of, text_of


class PriceBookError(DlhwError):
    """A price, a price list or the price book itself cannot be used."""


@dataclass(frozen=True, slots=True)
class UserPrice:
    """A price the user entered or imported for one part: it wins over the catalog's."""

    part_id: str
    amount: float
    currency: str = "USD"
    price_date: str = ""
    note: str = ""
    source: str = "your quote"


@dataclass(frozen=True, slots=True)
class Rate:
    """US dollars per unit of ``currency``, as the user set it on ``rate_date``."""

    currency: str
    usd_per_unit: float
    rate_date: str


AMOUNT = NumberField("amount", "Price", 0.0, MAX_FIGURE, low_open=True)
"""A price: above zero, at most a billion (``limits.MAX_FIGURE``), in its currency."""

RATE = NumberField("usd_per_unit", "Rate", 0.0, 100_000.0, low_open=True,
                   unit="USD per unit")
"""US dollars per unit of a currency: above zero (a rate of 0 would make every price
free); the dearest currency unit is a few dollars, so 100,000 is a typo."""

_CODES = "|".join(sorted(c.lower() for c in CURRENCIES))
_CURRENCY_AFFIX = re.compile(  # any code a price may be in, or a sign, before or after
    rf"(?i)^({_CODES}|us\$|\$|€|£|¥)\s*|\s*({_CODES}|\$|€|£|¥)$")
_POINT_DECIMAL = re.compile(r"(?:[1-9]\d{0,2}(?:,\d{3})+|\d+)(?:\.\d+)?", re.ASCII)
_COMMA_DECIMAL = re.compile(r"(?:[1-9]\d{0,2}(?:\.\d{3})+|\d+)(?:,\d+)?", re.ASCII)


def amount_readings(text: str) -> tuple[float | None, float | None]:
    """What ``text`` is worth with a decimal point (``1,799.00``) and with a decimal comma
    (``1.799,00``), ``None`` where it is not a number that way. ``1.799`` is both 1.799 and
    1799; ``0,001`` only 0.001 (a thousands group never starts with a zero)."""
    cleaned = _CURRENCY_AFFIX.sub("", text.strip())
    cleaned = cleaned.replace("\u00a0", "").replace("\u202f", "").replace(" ", "")
    cleaned = cleaned.replace("'", "")
    if len(cleaned) > 40:
        return None, None
    point = (float(cleaned.replace(",", "")) if _POINT_DECIMAL.fullmatch(cleaned)
             else None)
    comma = (float(cleaned.replace(".", "").replace(",", "."))
             if _COMMA_DECIMAL.fullmatch(cleaned) else None)
    return point, comma


def decimal_of(text: str) -> str | None:
    """``"."`` or ``","`` when ``text`` is a number only with that decimal mark, else
    ``None`` (not a number, or the same either way, or ambiguous)."""
    point, comma = amount_readings(text)
    if point is not None and comma is None:
        return "."
    if comma is not None and point is None:
        return ","
    return None


def parse_amount(text: str, decimal: str | None = None) -> float:
    """A price as typed or exported: ``1299``, ``1,299.00``, ``1.299,00``, ``$1 299``,
    ``EUR 899,90``. ``decimal`` (``"."`` or ``","``) says how to read a number that could
    be either (``1.799``: 1,799 in a German list, 1.799 in an English one). Without it,
    ``24,000`` is twenty-four thousand (a price is never written to three decimals with a
    comma), but ``1.799`` is refused, never guessed: 1,799 in German, and a price of 1.799
    is not unheard of in English (a rate, a cloud hour). Raises ``PriceBookError`` for
    anything that is not a price, zero, a negative, or above :data:`AMOUNT`'s range."""
    raw = text.strip()
    point, comma = amount_readings(raw)
    if point is None and comma is None:
        if raw.startswith("-") or raw.startswith("−"):
            raise PriceBookError(f"{_cut(raw)}: a price must be above zero")
        raise PriceBookError(f"{_cut(raw)} is not a price")
    if point is not None and comma is not None and point != comma:
        if decimal == ".":
            comma = None
        elif decimal == ",":
            point = None
        elif "," in raw:  # 24,000: thousands
            comma = None
        else:
            mark = "." if "." in raw else ","
            thousands, fraction = (comma, point) if mark == "." else (point, comma)
            raise PriceBookError(
                f"{_cut(raw)} is ambiguous: {thousands:g} if {mark!r} separates thousands, "
                f"{fraction:g} if it is the decimal mark (write {thousands:g}, or "
                f"{raw}0 for {fraction:g})")
    value = point if point is not None else comma
    assert value is not None
    try:
        return float(AMOUNT.check(value))
    except NumberError as exc:
        raise PriceBookError(f"{_cut(raw)}: {str(exc).split(': ', 1)[-1]}") from None


def _cut(raw: str) -> str:
    return repr(raw if len(raw) <= 40 else raw[:37] + "...")


YEN_OR_YUAN = ("JPY", "CNY")
"""The currencies written ¥: a ¥ price takes its code from the row or the file."""
_NAMED_CURRENCY = re.compile(rf"(?i)\b({_CODES})\b|us\$|\$|€|£|¥")


def parse_quote(text: str, default_currency: str = "USD") -> tuple[float, str]:
    """A price as a person types it (the build list's price cell, the details pane):
    ``$1,299.00`` -> (1299.0, "USD"), ``1.099,00 €`` -> (1099.0, "EUR"); a plain number is
    in ``default_currency``. Raises ``PriceBookError`` for anything that is not a price."""
    from dlhw_desktop.core import limits

    amount = parse_amount(text)
    if amount > limits.MAX_FIGURE:
        raise PriceBookError(f"{text.strip()!r} is more than a part costs")
    named = _NAMED_CURRENCY.search(text)
    if named and named.group(0) == "¥":  # yen and yuan alike: never guessed
        if default_currency.upper() not in YEN_OR_YUAN:
            raise PriceBookError(f"{text.strip()!r}: ¥ is the sign of both yen and yuan; "
                                 "choose JPY or CNY as the currency")
        named = None
    return amount, parse_currency(named.group(0) if named else default_currency)


def parse_currency(text: str | None) -> str:
    code = (text or "USD").strip().upper() or "USD"
    code = {"$": "USD", "US$": "USD", "€": "EUR", "£": "GBP"}.get(code, code)
    if code not in CURRENCIES:
        raise PriceBookError(f"unknown currency {text!r} (use an ISO code such as USD, EUR)")
    return code


_DOTTED = re.compile(r"(\d{1,2})\.(\d{1,2})\.(\d{4})", re.ASCII)
_SLASHED = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})", re.ASCII)
_ISO = re.compile(r"(\d{4})-(\d{1,2})(?:-(\d{1,2}))?", re.ASCII)


def parse_date(text: str | None) -> str:
    """A date as a quote writes it, as ISO text: ``2026-11-20`` or ``2026-11``; the
    European ``20.11.2026``; ``20/11/2026`` or ``11/20/2026`` when the day says which
    (``05/11/2026`` could be either and is refused). Empty means today."""
    if not text or not text.strip():
        return date.today().isoformat()
    value = text.strip()
    if len(value) > 40:
        raise PriceBookError(f"{value[:37]!r}... is not a date (use YYYY-MM-DD)")
    if (iso := _ISO.fullmatch(value)) is not None:  # ASCII digits only: no "+2026-0_1"
        try:
            year, month = int(iso[1]), int(iso[2])
            if iso[3] is None:
                return date(year, month, 1).isoformat()[:7]
            return date(year, month, int(iso[3])).isoformat()
        except ValueError:
            raise PriceBookError(f"{value!r} is not a date (use YYYY-MM-DD)") from None
    day_month: tuple[int, int, int] | None = None
    if (dotted := _DOTTED.fullmatch(value)) is not None:
        day_month = (int(dotted[1]), int(dotted[2]), int(dotted[3]))
    elif (slashed := _SLASHED.fullmatch(value)) is not None:
        first, second, year = int(slashed[1]), int(slashed[2]), int(slashed[3])
        if first > 12 >= second:
            day_month = (first, second, year)
        elif second > 12 >= first:
            day_month = (second, first, year)
        elif first == second:
            day_month = (first, second, year)
        else:
            raise PriceBookError(f"{value!r} could be day/month or month/day: write it as "
                                 "YYYY-MM-DD")
    if day_month is not None:
        day, month, year = day_month
        try:
            return date(year, month, day).isoformat()
        except ValueError:
            pass
    raise PriceBookError(f"{value!r} is not a date (use YYYY-MM-DD)")


def user_price(part_id: str, amount: str | float, currency: str | None = None,
               when: str | None = None, note: str = "") -> UserPrice:
    """A checked ``UserPrice`` from what the user typed."""
    if isinstance(amount, str):
        value = parse_amount(amount)
    else:
        try:
            value = float(AMOUNT.check(amount))
        except NumberError as exc:
            raise PriceBookError(str(exc)) from None
    if len(note) > MAX_TEXT_CHARS:
        raise PriceBookError(f"the note has {len(note):,} characters (at most "
                             f"{MAX_TEXT_CHARS:,})")
    return UserPrice(part_id, value, parse_currency(currency), parse_date(when),
                     note.strip())


def checked_rate(usd_per_unit: object) -> float:
    """A currency rate as given (typed text or a number), checked by :data:`RATE`:
    above zero, finite, at most 100,000 US dollars per unit; ``PriceBookError`` naming
    the rate otherwise. Typed text reads its point as a decimal point (``1.087``, a rate's
    usual four digits, is never 1,087), a lone comma as a decimal comma (``1,087``)."""
    value = usd_per_unit
    if isinstance(value, str):
        point, comma = amount_readings(value)
        if point is None and comma is None:
            raise PriceBookError(f"{RATE.name}: {_cut(value.strip())} is not a number")
        value = point if point is not None and "," not in value.strip() else comma
        if value is None:
            value = point
    try:
        return float(RATE.check(value))
    except NumberError as exc:
        raise PriceBookError(str(exc)) from None


def price_from_row(row: Mapping[str, Any]) -> UserPrice:
    """A stored price row as a ``UserPrice``; ``RowError``/``PriceBookError`` naming the
    field when a value has the wrong type or is out of range (``rows.read_rows`` then
    reports the row and leaves it out)."""
    part_id = text_of(row, "part_id", most=MAX_ID_CHARS)
    amount = number_of(row, "amount", AMOUNT)
    currency = parse_currency(text_of(row, "currency"))
    when = text_of(row, "price_date", required=False, most=40)
    if when and parse_price_date(when) is None:
        raise RowError(f"price_date {when!r} is not a date")
    return UserPrice(part_id, float(amount), currency, when,
                     text_of(row, "note", required=False), text_of(
                         row, "source", required=False, most=200) or "your quote")


def rate_from_row(row: Mapping[str, Any]) -> Rate:
    """A stored rate row as a ``Rate`` (see ``price_from_row``)."""
    code = parse_currency(text_of(row, "currency", most=10))
    if code == "USD":
        raise RowError("USD is the base currency: it has no rate")
    return Rate(code, float(number_of(row, "usd_per_unit", RATE)),
                text_of(row, "rate_date", required=False, most=40))


def in_usd(price: UserPrice, rates: dict[str, Rate]) -> float | None:
    """The price in US dollars at the user's rate; ``None`` when no rate is set."""
    if price.currency == "USD":
        return price.amount
    rate = rates.get(price.currency)
    return None if rate is None else price.amount * rate.usd_per_unit


def apply(part: Part, price: UserPrice | None, rates: dict[str, Rate]) -> Part:
    """The part as the user prices it: their quote wins over the catalog's price, shown as
    a ``user_quote`` of its date; a quote in a currency without a rate leaves the part
    unpriced (its total cannot be counted in dollars) and says why."""
    if price is None:
        return part
    usd = in_usd(price, rates)
    sources = dict(part.figure_sources)
    amount_text = f"{price.amount:,.2f} {price.currency}"
    note = f"your quote, {price.price_date}: {amount_text}" + (
        f"; {price.note}" if price.note else "")
    if usd is None:
        note += f" (no {price.currency} rate set: not counted in USD totals)"
    sources["price_usd"] = FigureSource(price.source, price.price_date, note)
    return replace(part, price_usd=usd, price_high_usd=None,  # a quote is one price
                   price_date=price.price_date,
                   price_kind=PriceKind.USER_QUOTE.value, figure_sources=sources)
