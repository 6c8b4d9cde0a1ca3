"""The buyer's quotes for network gear price a cluster's fabric: no public list price
exists for switches, cables and transceivers, so without them network capex is unknown,
and with them the total capex is the nodes plus the network, counted per unit."""

from __future__ import annotations

import pytest

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build.templates import template
from dlhw_desktop.core.cluster.gear import gear_items, gear_prices, is_gear_key
from dlhw_desktop.core.cluster.node import node_from_build
from dlhw_desktop.core.cluster.plan import ClusterSpec, plan_cluster
from dlhw_desktop.core.prices.book import Rate, UserPrice


def _node(catalog: Catalog, key: str = "dgx-h100"):
    return node_from_build(template(key).build(catalog.get))


def test_every_fabric_names_its_gear() -> None:
    items = gear_items()
    assert items["switch:qm9700"] == "NVIDIA Quantum-2 QM9700 switch (64 x 400 Gb/s)"
    assert items["cable:400"] == "400 Gb/s cable"
    assert items["transceiver:800"] == "800 Gb/s transceiver"
    assert is_gear_key("switch:sn5600") and not is_gear_key("switch:nope")
    assert not is_gear_key("accelerator/nvidia-h100-sxm5-80-gb")


def test_without_quotes_the_network_is_unknown_and_says_which_keys(catalog: Catalog) -> None:
    plan = plan_cluster(ClusterSpec(nodes=64, fabric="ib-ndr"), _node(catalog))
    assert plan.network_capex_usd is None and plan.capex_usd is None
    assert "switch:qm9700" in plan.network_price_basis
    assert "transceiver:400" in plan.network_price_basis


def test_quotes_price_every_switch_cable_and_transceiver(catalog: Catalog) -> None:
    rates = {"EUR": Rate("EUR", 1.10, "2026-11-20")}
    quotes = [UserPrice("switch:qm9700", 20_000.0, "EUR", "2026-11-20", "ACME"),
              UserPrice("cable:400", 300.0, "USD", "2026-11-20"),
              UserPrice("transceiver:400", 900.0, "USD", "2026-11-20"),
              UserPrice("transceiver:800", 1.0, "GBP", "2026-11-20"),  # no GBP rate: left out
              UserPrice("accelerator/nvidia-h100-sxm5-80-gb", 25_000.0)]  # not gear
    prices = gear_prices(quotes, rates)
    assert set(prices) == {"switch:qm9700", "cable:400", "transceiver:400"}
    assert prices["switch:qm9700"].amount_usd == pytest.approx(22_000.0)
    assert prices["switch:qm9700"].kind == "user_quote"
    assert "20,000.00 EUR" in prices["switch:qm9700"].source
    node = _node(catalog)
    plan = plan_cluster(ClusterSpec(nodes=64, fabric="ib-ndr"), node, gear_prices=prices)
    net = plan.network
    expected = net.switches * 22_000.0 + net.cables * 300.0 + net.transceivers * 900.0
    assert plan.network_capex_usd == pytest.approx(expected)
    assert plan.network_price_basis.startswith("your quotes")
    # the kind in words and the date (marked once it is over 12 months old)
    assert plan.price_sources[0].startswith("Switch price: $22,000 (your quote, 2026-11-20")
    if node.price_usd is not None:
        assert plan.capex_usd == pytest.approx(64 * node.price_usd + expected)
    other = plan_cluster(ClusterSpec(nodes=64, fabric="roce-400"), node, gear_prices=prices)
    assert other.network_capex_usd is None  # the Ethernet switch has no quote
    assert "switch:sn5600-400" in other.network_price_basis
