"""A board's M.2 slots are those a drive can use: the open data lists the Wi-Fi card's E-key
slot among them (595 of 3,699 boards), and the extract leaves it out."""

from __future__ import annotations

from dlhw_desktop.catalog.opendb.extract import EXTRACTORS


def board_row(slots: list[dict[str, str]]) -> dict[str, object]:
    extractor = next(e for e in EXTRACTORS if e.directory == "Motherboard")
    return extractor.row({"m2_slots": slots})


def test_an_e_key_slot_is_not_a_drive_slot() -> None:
    row = board_row([{"key": "M", "interface": "PCIe 5.0 x4"},
                     {"key": "M", "interface": "PCIe 4.0 x4"},
                     {"key": "E", "interface": "PCIe 4.0 x1"}])
    assert row["m2_slots"] == 2
    assert row["m2_interfaces"] == "PCIe 5.0 x4;PCIe 4.0 x4"


def test_a_slot_of_unstated_key_still_counts_and_no_list_is_unknown() -> None:
    assert board_row([{"key": None, "interface": "PCIe 3.0 x4"}])["m2_slots"] == 1
    extractor = next(e for e in EXTRACTORS if e.directory == "Motherboard")
    assert extractor.row({})["m2_slots"] is None

