"""``resources/catalog/prices.csv``: sourced purchase prices, each with its kind and date.

Columns ``part_id, amount, currency, price_kind, price_date, source, source_date, note``.
``price_date`` is when the price held (a launch day, a price-cut announcement);
``source_date`` is when the source was read. A part may have several prices (a launch
price and a later official cut, a list price and a reported street figure); the build keeps
them all in the ``prices`` table and shows one on the part (``core.prices.headline``).
"""

from __future__ import annotations

import csv
import dataclasses
from pathlib import Path
from typing import Any

from dlhw_desktop.catalog.rule_log import RuleLog
from dlhw_desktop.catalog.sources import _check_date
from dlhw_desktop.core.errors import CatalogSourceError
from dlhw_desktop.core.prices.kinds import CURRENCIES, PURCHASE_KINDS, Price, PriceKind, price_kind

PRICES_FILE = "prices.csv"
PENDING_PRICES_FILE = "prices_pending.csv"
"""Launch prices for parts the catalog may not hold yet (e.g. mainstream CPUs an open-data
import adds under the same slug ids): applied when the part exists, else skipped and
counted. ``prices.csv`` stays strict, so a mistyped id there still stops the build."""
REPORTED_PRICES_FILE = "research/prices_reported.csv"
"""Prices third parties report (analysts, articles, retailer listings), gathered by
research: each row priced as a ``reported`` (or ``street``) price when its part exists; a
row for a part the catalog lacks, of another kind, or the same as a ``prices.csv`` row is
reported by the build with its file and line, never an error and never silently kept."""
COLUMNS = ("part_id", "amount", "currency", "price_kind", "price_date", "source",
           "source_date", "note")
RANGE_COLUMN = "amount_high"
"""Optional column: the top of a low-high range (``amount`` is its bottom)."""


def read_prices(directory: Path, name: str = PRICES_FILE) -> list[Price]:
    """Every sourced price in ``name``, validated (an absent file is no prices)."""
    path = directory / name
    if not path.exists():
        return []
    prices: list[Price] = []
    seen: dict[tuple[str, str, str, str], str] = {}
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        names = tuple(reader.fieldnames or ())
        if sorted(names) not in (sorted(COLUMNS), sorted((*COLUMNS, RANGE_COLUMN))):
            raise CatalogSourceError(f"{path.name}: columns must be {', '.join(COLUMNS)} "
                                     f"(and optionally {RANGE_COLUMN})")
        for line, record in enumerate(reader, start=2):
            origin = f"{name}:{line}"
            if None in record:
                raise CatalogSourceError(f"{origin}: more cells than columns")
            cell = {k: (record.get(k) or "").strip() for k in COLUMNS}
            for required in COLUMNS[:-1]:
                if not cell[required]:
                    raise CatalogSourceError(f"{origin}: {required} is empty")
            try:
                amount = float(cell["amount"].replace(",", ""))
            except ValueError:
                raise CatalogSourceError(
                    f"{origin}: amount {cell['amount']!r} is not a number") from None
            if not amount > 0:
                raise CatalogSourceError(f"{origin}: amount must be above zero")
            high = _amount_high(record.get(RANGE_COLUMN), amount, origin)
            currency = cell["currency"].upper()
            if currency not in CURRENCIES:
                raise CatalogSourceError(f"{origin}: unknown currency {cell['currency']!r}")
            kind = price_kind(cell["price_kind"])
            if kind is None or kind not in PURCHASE_KINDS or kind is PriceKind.USER_QUOTE:
                raise CatalogSourceError(
                    f"{origin}: price_kind {cell['price_kind']!r} is not one of list, list_1ku, "
                    "street, reported (cloud rates belong in cloud.csv)")
            _check_date(cell["price_date"], origin, "price_date")
            _check_date(cell["source_date"], origin, "source_date")
            key = (cell["part_id"], kind.value, cell["price_date"], currency)
            if key in seen:
                raise CatalogSourceError(f"{origin}: duplicate of {seen[key]}")
            seen[key] = origin
            prices.append(Price(cell["part_id"], amount, currency, kind, cell["price_date"],
                                cell["source"], cell["source_date"], cell["note"], high))
    return prices


def _amount_high(raw: str | None, amount: float, origin: str) -> float | None:
    text = (raw or "").strip().replace(",", "")
    if not text:
        return None
    try:
        high = float(text)
    except ValueError:
        raise CatalogSourceError(f"{origin}: amount_high {raw!r} is not a number") from None
    if not high > amount:
        raise CatalogSourceError(f"{origin}: amount_high must be above amount (a range "
                                 "runs from low to high)")
    return high


_REPORT_KINDS = (PriceKind.REPORTED, PriceKind.STREET)


def take_reported_prices(parts: dict[str, dict[str, Any]], prices: list[Price],
                         reported: list[Price], log: RuleLog) -> list[Price]:
    """The rows of ``research/prices_reported.csv`` the catalog takes: a price of a part it
    holds, not already given, as a ``reported`` price (a ``street`` one stays street; a
    "list" figure research found in an aggregator or an article is a report of a list
    price, not the vendor's announcement, and says so). Each row not taken is reported
    (file, line, rule), never silently kept or dropped."""
    keys = {(p.part_id, p.kind.value, p.price_date, p.currency) for p in prices}
    taken = []
    for line, price in enumerate(reported, start=2):
        origin = f"{REPORTED_PRICES_FILE}:{line}"
        key = (price.part_id, price.kind.value, price.price_date, price.currency)
        values = parts.get(price.part_id)
        if values is None:
            log.report(origin, price.part_id, "reported price", "no such part: skipped")
        elif (price.kind not in _REPORT_KINDS and (
                price.part_id, PriceKind.REPORTED.value, price.price_date, price.currency
        ) in keys) or key in keys or (values.get("price_usd") == price.amount
                             and values.get("price_date") == price.price_date):
            log.report(origin, price.part_id, "reported price",
                       "the same price is already in the catalog: skipped")
        else:
            if price.kind not in _REPORT_KINDS:
                log.change(f"{REPORTED_PRICES_FILE}: a {price.kind.value} figure research "
                           "found is taken as a reported price", price.part_id)
                price = dataclasses.replace(
                    price, kind=PriceKind.REPORTED,
                    note=f"reported as the {price.kind.label}: {price.note}".strip())
                key = (price.part_id, price.kind.value, price.price_date, price.currency)
            keys.add(key)
            taken.append(price)
            log.change(f"price from {REPORTED_PRICES_FILE} (kept with its kind and date)",
                       f"{price.part_id} {price.price_date}")
    return taken
