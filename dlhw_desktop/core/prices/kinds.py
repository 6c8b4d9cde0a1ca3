"""Prices a buyer can trust: every price has a kind, the date it held, a currency and a source.

A launch list price from 2020 is a fact about 2020, not today's price; a cloud rate changes
without notice. So a price is never shown bare: its kind and its age travel with it, and a
price older than :data:`STALE_AFTER_MONTHS` is marked as such (:func:`is_stale`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from enum import StrEnum

from dlhw_desktop.core.reader_notes import reader_note


class PriceKind(StrEnum):
    """What a price is. The catalog's sources use these exact values in ``price_kind``."""

    LIST = "list"
    """Launch list price / MSRP (SEP) from the vendor's announcement or a launch report
    citing it: what the vendor asked at launch, not what a shop asks today."""
    LIST_1KU = "list_1ku"
    """Vendor's recommended customer price per unit in 1,000-unit trays (server and
    workstation CPUs): a bulk list price, not a retail one."""
    STREET = "street"
    """A retail or reseller price seen on a date (never scraped; quoted by a source)."""
    REPORTED = "reported"
    """A figure a third party reports (press, analysts, a seed article) for parts without a
    public list price, e.g. a datacenter GPU: an estimate, never a list price."""
    CLOUD_ON_DEMAND = "cloud_on_demand"
    CLOUD_RESERVED = "cloud_reserved"
    CLOUD_SPOT = "cloud_spot"
    DEDICATED_MONTHLY = "dedicated_monthly"
    """A hosted (dedicated) server's monthly rate."""
    USER_QUOTE = "user_quote"
    """A price the user entered or imported (a vendor's quote, a price list)."""

    @property
    def label(self) -> str:
        return PRICE_KIND_LABELS[self]

    @property
    def purchase(self) -> bool:
        """A price to buy the part outright (as opposed to renting it by the hour)."""
        return self in PURCHASE_KINDS

    @property
    def rental(self) -> bool:
        return self in RENTAL_KINDS


PRICE_KIND_LABELS: dict[PriceKind, str] = {
    PriceKind.LIST: "launch list price (MSRP)",
    PriceKind.LIST_1KU: "list price per unit, 1,000-unit trays",
    PriceKind.STREET: "street price",
    PriceKind.REPORTED: "reported figure (not a list price)",
    PriceKind.CLOUD_ON_DEMAND: "cloud on-demand rate",
    PriceKind.CLOUD_RESERVED: "cloud reserved/committed rate",
    PriceKind.CLOUD_SPOT: "cloud spot/preemptible rate",
    PriceKind.DEDICATED_MONTHLY: "dedicated server, monthly rate",
    PriceKind.USER_QUOTE: "your quote",
}

PURCHASE_KINDS = frozenset({PriceKind.LIST, PriceKind.LIST_1KU, PriceKind.STREET,
                            PriceKind.REPORTED, PriceKind.USER_QUOTE})
RENTAL_KINDS = frozenset({PriceKind.CLOUD_ON_DEMAND, PriceKind.CLOUD_RESERVED,
                          PriceKind.CLOUD_SPOT, PriceKind.DEDICATED_MONTHLY})

# Which purchase price a part shows when the sources hold several: a list price first
# (the only kind comparable across parts), then a bulk list, a street price, a report.
HEADLINE_ORDER: tuple[PriceKind, ...] = (PriceKind.LIST, PriceKind.LIST_1KU,
                                         PriceKind.STREET, PriceKind.REPORTED)

STALE_AFTER_MONTHS = 12

CURRENCIES = frozenset({"USD", "EUR", "GBP", "JPY", "CNY", "CHF", "CAD", "AUD", "SEK", "NOK",
                        "DKK", "PLN", "CZK", "INR", "KRW", "TWD", "SGD", "HKD", "NZD"})
"""ISO 4217 codes a price may be in (the common ones; an unknown code is refused)."""


def price_kind(value: str | None) -> PriceKind | None:
    """``value`` as a kind; ``None`` when empty or not a known kind."""
    if not value:
        return None
    try:
        return PriceKind(value.strip())
    except ValueError:
        return None


def parse_price_date(value: str | None) -> date | None:
    """An ISO date ``YYYY-MM-DD`` or ``YYYY-MM`` (the first of the month); ``None`` if not."""
    if not value:
        return None
    parts = value.strip().split("-")
    if not all(p.isascii() and p.isdigit() for p in parts):  # no "+2026", "0_1", "２０"
        return None
    try:
        numbers = [int(p) for p in parts]
        if len(numbers) == 2:
            return date(numbers[0], numbers[1], 1)
        if len(numbers) == 3:
            return date(numbers[0], numbers[1], numbers[2])
    except ValueError:
        return None
    return None


def months_between(earlier: date, later: date) -> int:
    """Whole calendar months from ``earlier`` to ``later`` (negative if in the future)."""
    months = (later.year - earlier.year) * 12 + later.month - earlier.month
    if later.day < earlier.day:
        months -= 1
    return months


def price_age_months(price_date: str | None, today: date | None = None) -> int | None:
    """How many whole months ago the price held; ``None`` when its date is unknown."""
    held = parse_price_date(price_date)
    if held is None:
        return None
    return months_between(held, today or date.today())


def is_stale(price_date: str | None, today: date | None = None,
             months: int = STALE_AFTER_MONTHS) -> bool:
    """True when the price held more than ``months`` months ago, or its date is unknown:
    an undated price cannot be trusted to be current either."""
    age = price_age_months(price_date, today)
    return age is None or age >= months


@dataclass(frozen=True, slots=True)
class Price:
    """One price of one part: amount in ``currency`` of a ``kind``, as it held on ``price_date``.

    ``source_date`` is when the source was read, which is not when the price held.
    """

    part_id: str
    amount: float
    currency: str
    kind: PriceKind
    price_date: str
    source: str
    source_date: str
    note: str = ""
    amount_high: float | None = None
    """The top of a low-high range a source gives ("$25,000 to $30,000"); None for a
    single figure."""

    def stale(self, today: date | None = None) -> bool:
        return is_stale(self.price_date, today)

    def describe(self, today: date | None = None) -> str:
        return describe_price(self.kind, self.price_date, today)


def describe_price(kind: PriceKind | str | None, price_date: str | None,
                   today: date | None = None) -> str:
    """The hover text of a price: ``launch list price (MSRP), 2022-10-12 (older than 12
    months)``. A price without a kind or a date says so."""
    parsed = kind if isinstance(kind, PriceKind) else price_kind(kind)
    label = parsed.label if parsed else "price of unknown kind"
    if not price_date:
        return f"{label}, undated"
    age = price_age_months(price_date, today)
    if age is not None and age >= STALE_AFTER_MONTHS:
        years = age / 12
        when = f"{years:.0f} years ago" if years >= 2 else f"{age} months ago"
        return f"{label}, {price_date} ({when}: older than {STALE_AFTER_MONTHS} months)"
    return f"{label}, {price_date}"


def headline(prices: list[Price]) -> Price | None:
    """The purchase price a part shows: in USD, the best kind by :data:`HEADLINE_ORDER`,
    the most recent of that kind."""
    usd = [p for p in prices if p.currency == "USD" and p.kind in HEADLINE_ORDER]
    if not usd:
        return None
    return min(usd, key=lambda p: (HEADLINE_ORDER.index(p.kind), _neg_date(p.price_date)))


def _neg_date(value: str) -> int:
    held = parse_price_date(value)
    return -held.toordinal() if held else 0


PRICE_FIELDS = ("price_usd", "price_per_hour_usd", "price_per_month_usd")
"""The fields that hold a price; their hover text says kind, date and age."""


def price_hover(kind: str | None, price_date: str | None, source: str, source_date: str,
                note: str = "", today: date | None = None) -> str:
    """A price's tooltip: what kind of price, when it held (and whether that is over 12
    months ago), where it comes from and when that was read."""
    described = describe_price(kind, price_date, today)
    lines = [described[:1].upper() + described[1:],
             f"Source: {source} (read {source_date})"]
    if note:
        lines.append(reader_note(note))
    return "\n".join(lines)
