"""The OpenDB cleaning rules: each known defect of the dataset becomes unknown or right."""

from __future__ import annotations

from pathlib import Path

import pytest

from dlhw_desktop.catalog.opendb import rules
from dlhw_desktop.catalog.opendb.chipsets import board_pcie_generation
from dlhw_desktop.catalog.opendb.mappers import Cleaned, board_slot_counts, board_slots, psu


@pytest.mark.parametrize(("chipset", "stated", "expected"), [
    ("Intel G41", 4, 1),          # an LGA775 board the dataset calls "PCIe 4.0 x16"
    ("Intel Z97", 4, 3),
    ("Intel Z170", 4, 3),
    ("AMD B450", 4, 3),
    ("AMD B550", 4, 4),
    ("AMD B650", 5, 5),           # Gen 5 graphics is optional on B650: kept when stated
    ("AMD B650", 4, 4),
    ("AMD X670E", 4, 5),          # Gen 5 graphics on every X670E board
    ("Intel Z790", None, 4),
    ("AMD B840", 5, 3),           # entry AM5: Gen 3 graphics (TechPowerUp, AMD 800-series)
    ("Intel H999", 4, None),      # a chipset not in the table stays unknown
    (None, 4, None),
])
def test_pcie_generation_comes_from_the_chipset(chipset: str | None, stated: int | None,
                                                expected: int | None) -> None:
    assert board_pcie_generation(chipset, stated) == expected


def test_zero_connectors_are_unknown_at_any_wattage() -> None:
    assert rules.psu_connectors("0") is None  # the open data's default, not "none"
    assert rules.psu_connectors("4") == 4
    assert rules.psu_connectors("-1") is None


def test_psu_mapper_leaves_zero_counts_empty_and_says_so() -> None:
    values: dict[str, object] = {}
    cleaned = Cleaned()
    psu({"wattage_w": "850", "eps_8pin": "0", "pcie_8pin": "0", "pcie_12vhpwr": "1",
         "efficiency_rating": "80+ Gold", "form_factor": "ATX",
         "name": "Corsair RM850x (2024) ATX 3.1 850W"}, values, cleaned)
    assert values["connectors_eps"] is None and values["connectors_pcie_8pin"] is None
    assert values["connectors_12vhpwr"] == 1
    assert values["efficiency_rating"] == "Gold" and values["atx_version"] == "3.1"
    assert cleaned.rules.count("0 connectors: unknown") == 2


@pytest.mark.parametrize(("raw", "expected"), [
    (2023, 2023), ("2017", 2017), (20117, None), (0, None), (-2019, None), ("", None),
    ("soon", None),
])
def test_impossible_release_years_are_dropped(raw: object, expected: int | None) -> None:
    assert rules.release_year(raw) == expected


def test_units_are_normalised() -> None:
    assert rules.clock_ghz(3200) == 3.2 and rules.clock_ghz("4.7") == 4.7
    assert rules.clock_ghz(0) is None
    assert rules.capacity_gb("2TB") == 2000 and rules.capacity_gb("512 GB") == 512
    assert rules.capacity_gb(0) is None
    assert rules.max_memory_gb(2) == 2048 and rules.max_memory_gb(192) == 192
    assert rules.max_memory_gb(0) is None


def test_names_sockets_and_form_factors_read_like_the_curated_files() -> None:
    assert rules.part_name("Corsair RM1000x (2021) 1000W 80+ Gold", "Corsair") == \
        "RM1000x (2021) 1000W 80+ Gold"
    long = ("Inland Premium 512GB SSD M.2 2280 PCIe NVMe 3.0 x4 3D NAND Internal Solid "
            "State Drive, High-Speed Read/Write Speed up to 3100 MBps")
    assert rules.part_name(long, "Inland") == ("Premium 512GB SSD M.2 2280 PCIe NVMe 3.0 x4 "
                                               "3D NAND Internal Solid State Drive")
    assert rules.part_name("HYTE - Y70 Touch", "HYTE") == "Y70 Touch"
    assert rules.socket("LGA 1700") == ("LGA1700", 1)
    assert rules.socket("2 x LGA 2011-3 Narrow") == ("LGA2011-3", 2)
    assert rules.socket("Integrated Atom") == (None, 0)
    assert rules.board_form_factor("Micro ATX") == "Micro-ATX"
    assert rules.board_form_factor("EATX") == "E-ATX"
    assert rules.board_form_factors("ATX;Micro ATX;Mini-ITX") == "ATX; Micro-ATX; Mini-ITX"
    assert rules.chipset_name("Intel B760") == "B760"
    assert rules.chipset_name("CPU Integrated") is None
    assert rules.efficiency_rating("80+") == "White"
    assert rules.efficiency_rating("80+ Titanium") == "Titanium"
    assert rules.efficiency_rating(None) is None


def test_board_slots_count_x16_and_read_their_stated_generation() -> None:
    assert board_slots("4.0x16*1;4.0x1*2") == (1, 4)
    assert board_slots("5.0x16*2;4.0x16*1;3.0x4*1") == (3, 5)
    assert board_slots("") == (None, None)


def test_slots_listed_by_an_x4_or_x8_link_are_counted_apart() -> None:
    # The one width per slot is the link's: a full-length slot wired x4 reads "x4".
    assert board_slot_counts("4.0x16*1;4.0x4*1;4.0x1*2") == (1, 4, 1)
    assert board_slot_counts("5.0x16*2;4.0x8*1;3.0x4*2") == (2, 5, 3)
    assert board_slot_counts("") == (None, None, None)
    assert board_slots("garbage;x*") == (0, None)


def test_cpu_names_lose_clock_core_and_packaging_tails() -> None:
    assert rules.cpu_name("Xeon E5 2660 2.2 GHz 8-Core LGA2011 OEM/Tray") == "Xeon E5 2660"
    assert rules.cpu_name("Core i7 9700F OEM / Tray") == "Core i7 9700F"
    assert rules.cpu_name("Ryzen Threadripper 9980X") == "Ryzen Threadripper 9980X"


def test_amd_ppt_is_derived_by_amds_rule_and_labelled(catalog_path: Path) -> None:
    from dlhw_desktop.catalog.store import Catalog

    catalog = Catalog.open(catalog_path)
    ryzen = catalog.get("cpu/amd-ryzen-7-5800x3d")
    assert ryzen is not None and ryzen.number("tdp_w") == 105
    assert ryzen.number("sustained_power_w") == 142  # 1.35 x 105, AMD's own figure
    assert "derived" in ryzen.source_of("sustained_power_w").note
    intel = catalog.get("cpu/intel-core-i9-13900k")
    assert intel is not None and intel.number("sustained_power_w") == 253  # Intel's PL2
