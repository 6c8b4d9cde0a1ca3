"""The cluster section of the sheet: what someone buying N servers reads, at any size."""

from __future__ import annotations

import pytest

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.build.templates import template
from dlhw_desktop.core.cluster.fabric import FABRICS
from dlhw_desktop.core.cluster.plan import ClusterSpec, GearPrice, gear_keys
from dlhw_desktop.reports.cluster_section import cluster_section
from dlhw_desktop.reports.cluster_sheet import plan_for_build, to_json


def _dgx(catalog: Catalog) -> Build:
    return template("dgx-h100").build(catalog.get)


def _table(section, title_start: str):
    return next(t for t in section.tables if t.title.startswith(title_start))


def test_the_section_does_not_grow_with_the_node_count(catalog: Catalog) -> None:
    build = _dgx(catalog)
    small = cluster_section(plan_for_build(build, ClusterSpec(nodes=32)), build.name)
    large = cluster_section(plan_for_build(build, ClusterSpec(nodes=2048)), build.name)
    assert sum(len(t.rows) for t in large.tables) <= sum(len(t.rows) for t in small.tables) + 2
    bom = _table(large, "Bill of materials")
    assert bom.rows[0][:2] == ("NVIDIA DGX H100 node (8x NVIDIA H100 SXM5 80 GB)", "2,048")
    fabric = _table(large, "Fabric")
    assert fabric.title.endswith("3 tier(s)")
    counts = {row[0]: row[1] for row in fabric.rows}
    assert (counts["Leaf"], counts["Spine"], counts["Core"]) == ("512", "512", "256")
    assert fabric.total[1] == "1,280"


def test_racks_table_counts_full_and_part_filled_racks(catalog: Catalog) -> None:
    build = _dgx(catalog)
    section = cluster_section(plan_for_build(build, ClusterSpec(nodes=32, rack_kw=40)),
                              build.name)
    racks = _table(section, "Racks")
    full, part, network = racks.rows
    assert full[:5] == ("Compute rack", "10", "3x NVIDIA DGX H100", "24 of 42 U", "30.6 kW")
    assert part[:5] == ("Compute rack (part-filled)", "1", "2x NVIDIA DGX H100",
                        "16 of 42 U", "20.4 kW")
    assert network[1:3] == ("1", "12x NVIDIA Quantum-2 QM9700")


def test_network_without_sourced_prices_is_na_never_zero(catalog: Catalog) -> None:
    build = _dgx(catalog)
    plan = plan_for_build(build, ClusterSpec(nodes=32))
    section = cluster_section(plan, build.name)
    cost = dict(_table(section, "Cost").rows)
    assert cost["Network"].startswith("n/a: add your quotes for the switch")
    assert "switch:qm9700" in cost["Network"]  # the key a quote is set under
    assert cost["Total capex"] == "n/a"
    assert to_json(plan)["cost"]["network_usd"] is None


def test_priced_gear_gives_network_and_total_capex_with_sources(catalog: Catalog) -> None:
    build = _dgx(catalog)
    switch, cable, optic = gear_keys(FABRICS["ib-ndr"])
    prices = {switch: GearPrice(30_000, "list", "2024-01", "https://example.org/switch"),
              cable: GearPrice(500, "list", "2024-01", "https://example.org/cable"),
              optic: GearPrice(1_000, "reported", "2024-01", "https://example.org/optic")}
    plan = plan_for_build(build, ClusterSpec(nodes=32), gear_prices=prices)
    net = plan.network
    expected = net.switches * 30_000 + net.cables * 500 + net.transceivers * 1_000
    assert plan.network_capex_usd == pytest.approx(expected)
    # The DGX H100's catalog price (a reported figure) and the network make the total.
    node = catalog.get("server/nvidia-dgx-h100").price_usd
    assert node is not None
    assert plan.capex_usd == pytest.approx(32 * node + expected)
    section = cluster_section(plan, build.name)
    assert any("https://example.org/optic" in s and "reported" in s for s in section.sources)
    assert dict(_table(section, "Cost").rows)["Network"].startswith(f"${expected:,.0f}")


def test_time_table_appears_with_a_workload(catalog: Catalog) -> None:
    build = _dgx(catalog)
    plan = plan_for_build(build, ClusterSpec(nodes=64, params=70e9, tokens=2e12, mfu=0.4))
    section = cluster_section(plan, build.name)
    rows = dict(_table(section, "Time to train").rows)
    assert rows["Time to train"].endswith("GPU-hours)") and "days" in rows["Time to train"]
    assert section.summary[-1][1].endswith("days")
