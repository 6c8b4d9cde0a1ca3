"""The curated workstation and server rows agree with their platform and with themselves:
a typo in a lane count, a channel count or a module size shows up here, not in a build."""

from __future__ import annotations

from typing import Any

import pytest

from dlhw_desktop.catalog.platforms import FILLED_FIELDS, platform_for, read_platforms
from dlhw_desktop.catalog.sources import read_category
from dlhw_desktop.core.fields import Category
from dlhw_desktop.resources import catalog_sources_dir

DIMM_KINDS = {"UDIMM", "RDIMM", "LRDIMM", "SODIMM", "CUDIMM", "MRDIMM"}


def _rows(category: Category) -> list[dict[str, Any]]:
    return [row.values for row in read_category(catalog_sources_dir(), category)]


def test_every_curated_cpu_has_a_platform_and_agrees_with_it() -> None:
    platforms = read_platforms(catalog_sources_dir())
    disagreements = []
    for cpu in _rows(Category.CPU):
        platform = platform_for(cpu, platforms)
        assert platform is not None, f"{cpu['name']} ({cpu.get('socket')}) has no platform row"
        for field in FILLED_FIELDS:
            mine, theirs = cpu.get(field), platform.figures.get(field)
            if mine is not None and theirs is not None and mine != theirs:
                disagreements.append(f"{cpu['name']}: {field} {mine} vs {platform.name} "
                                     f"{theirs}")
    assert disagreements == []


def test_cpu_figures_are_plausible() -> None:
    for cpu in _rows(Category.CPU):
        assert cpu["threads"] >= cpu["cores"], cpu["name"]
        if cpu.get("boost_clock_ghz") and cpu.get("base_clock_ghz"):
            assert cpu["boost_clock_ghz"] >= cpu["base_clock_ghz"], cpu["name"]
        if cpu["name"].startswith("EPYC") and cpu["name"].endswith("P"):
            assert cpu.get("max_sockets") == 1, cpu["name"]  # AMD's P parts are 1P only


def test_server_parts_are_numerous_enough_to_plan_with() -> None:
    cpus = _rows(Category.CPU)
    sockets = {c.get("socket") for c in cpus}
    assert {"SP3", "SP5", "SP6", "sWRX8", "sTR5", "LGA3647", "LGA4189", "LGA4677",
            "LGA4710", "LGA7529", "LGA4926"} <= sockets
    ecc = [m for m in _rows(Category.MEMORY) if m.get("ecc")]
    assert {(m["memory_type"], m["registered"]) for m in ecc} >= {
        ("DDR4", True), ("DDR4", False), ("DDR5", True), ("DDR5", False)}
    assert sum(1 for p in _rows(Category.PSU) if p.get("redundant")) >= 10


@pytest.mark.parametrize("category", [Category.CPU, Category.MOTHERBOARD])
def test_dimm_kinds_name_known_module_kinds(category: Category) -> None:
    for row in _rows(category):
        kinds = row.get("dimm_kinds")
        if kinds:
            assert set(kinds.split(";")) <= DIMM_KINDS, (row["name"], kinds)


def test_memory_sets_add_up() -> None:
    for kit in _rows(Category.MEMORY):
        if kit.get("modules") and kit.get("module_size_gb") and kit.get("capacity_gb"):
            assert kit["modules"] * kit["module_size_gb"] == kit["capacity_gb"], kit["name"]
        if kit.get("registered"):
            assert kit.get("ecc"), kit["name"]  # no non-ECC registered DDR4/DDR5


def test_board_slot_layout_matches_its_slot_count() -> None:
    for board in _rows(Category.MOTHERBOARD):
        layout = board.get("pcie_slot_layout")
        if layout:
            assert len(layout.split("/")) == board["pcie_x16_slots"], board["name"]
