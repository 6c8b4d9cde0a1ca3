"""Network gear in the buyer's price book: the switches, cables and transceivers a
cluster's fabric counts, priced by the user's own quotes.

No public list price for this gear could be sourced (vendors quote it per deal), so the
network part of a cluster's capex comes from the buyer: a quote kept under a gear key
(``switch:qm9700``, ``cable:400``, ``transceiver:400``) in the same price book as their
part quotes, set in the Cluster tab or with ``dlhw price set switch:qm9700 24000``.
"""

from __future__ import annotations

from collections.abc import Iterable

from dlhw_desktop.core.cluster.fabric import FABRICS, Fabric
from dlhw_desktop.core.cluster.plan import GearPrice, gear_keys
from dlhw_desktop.core.prices.book import Rate, UserPrice, in_usd
from dlhw_desktop.core.prices.kinds import PriceKind

GEAR_KINDS = ("switch", "cable", "transceiver")


def gear_items() -> dict[str, str]:
    """Every gear key a price book may hold, with the item's name as a buyer reads it."""
    items: dict[str, str] = {}
    for fabric in FABRICS.values():
        switch = fabric.switch
        items[f"switch:{switch.key}"] = (f"{switch.name} switch ({switch.ports} x "
                                         f"{switch.port_gb_s} Gb/s)")
    for speed in sorted({f.gb_s for f in FABRICS.values()}):
        items[f"cable:{speed}"] = f"{speed} Gb/s cable"
        items[f"transceiver:{speed}"] = f"{speed} Gb/s transceiver"
    return items


def is_gear_key(key: str) -> bool:
    return key.partition(":")[0] in GEAR_KINDS and key in gear_items()


def fabric_gear(fabric: Fabric) -> list[tuple[str, str]]:
    """(key, name) of the switch, cable and transceiver one fabric counts."""
    names = gear_items()
    return [(key, names[key]) for key in gear_keys(fabric)]


def gear_prices(prices: Iterable[UserPrice], rates: dict[str, Rate]) -> dict[str, GearPrice]:
    """The user's gear quotes as the cluster plan reads them, in US dollars at the user's
    rates; a quote in a currency without a rate is left out (its item stays unpriced)."""
    found: dict[str, GearPrice] = {}
    for price in prices:
        if not is_gear_key(price.part_id):
            continue
        usd = in_usd(price, rates)
        if usd is None:
            continue
        amount = (f"{price.amount:,.2f} {price.currency}" if price.currency != "USD"
                  else f"${price.amount:,.2f}")
        note = f" ({price.note})" if price.note else ""
        found[price.part_id] = GearPrice(usd, PriceKind.USER_QUOTE.value, price.price_date,
                                         f"your quote of {amount}{note}")
    return found
