"""A board-partner card's other records fill its gaps; its name may tell its cooling."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pytest

from dlhw_desktop.catalog.partner_card_extract import EXTRACT_COLUMNS
from dlhw_desktop.catalog.partner_cards import ImportReport, import_partner_cards, summary_lines
from dlhw_desktop.catalog.partner_siblings import cooling_from_name, model_words
from dlhw_desktop.catalog.source_refs import expand
from dlhw_desktop.core.parts import make_part_id


def chip(vendor: str, name: str, memory: float, tdp: int) -> dict[str, Any]:
    return {"id": make_part_id("accelerator", vendor, name), "category": "accelerator",
            "vendor": vendor, "name": name, "memory_gb": float(memory), "tdp_w": tdp,
            "form_factor": "pcie", "board_length_mm": 285, "power_connectors": "2x 8-pin",
            "cooling": "active", "source": "https://nvidia.example/3080",
            "source_date": "2026-01-01", "release_year": 2020}


RTX_3080 = chip("NVIDIA", "GeForce RTX 3080", 10, 320)
RTX_3080_12 = chip("NVIDIA", "GeForce RTX 3080 12 GB", 12, 350)


def row(opendb_id: str, name: str, *, maker: str = "ASUS", chipset: str = "GeForce RTX 3080",
        memory: str = "10", eight_pin: str = "0", cooling: str = "3 Fans",
        length: str = "319", tdp: str = "320") -> dict[str, str]:
    cells = dict.fromkeys(EXTRACT_COLUMNS, "")
    cells.update({"opendb_id": opendb_id, "manufacturer": maker, "name": name,
                  "chipset_manufacturer": "NVIDIA", "chipset": chipset, "memory_gb": memory,
                  "length_mm": length, "tdp_w": tdp, "total_slot_width": "2.7",
                  "cooling": cooling, "pcie_6_pin": "0", "pcie_8_pin": eight_pin,
                  "pcie_12vhpwr": "0", "pcie_12v_2x6": "0", "release_year": "2021"})
    return cells


def run(tmp_path: Path, rows: list[dict[str, str]]
        ) -> tuple[dict[str, dict[str, Any]], dict[tuple[str, str], tuple[str, ...]],
                   ImportReport]:
    path = tmp_path / "GPU.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=EXTRACT_COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    parts = {c["id"]: dict(c) for c in (RTX_3080, RTX_3080_12)}
    figure_sources: dict[tuple[str, str], tuple[str, ...]] = {}
    report = import_partner_cards(path, parts, figure_sources)
    return parts, figure_sources, report


def card(parts: dict[str, dict[str, Any]], vendor: str, name: str) -> dict[str, Any]:
    return parts[make_part_id("accelerator", vendor, name)]


BLACK = "Asus ROG STRIX GAMING OC V2 GeForce RTX 3080 LHR 10GB GDDR6X Black"
PLAIN = "Asus ROG STRIX GAMING OC V2 GeForce RTX 3080 10GB GDDR6X"


# --- the model's words --------------------------------------------------------------------

@pytest.mark.parametrize("variant", [
    "ROG STRIX GAMING OC V2 GeForce RTX 3080 10GB GDDR6X",
    "ROG STRIX GAMING OC V2 GeForce RTX 3080 LHR 10GB GDDR6X White / Silver",
    "GeForce RTX 3080 ROG STRIX GAMING OC V2 10G",  # another order, another memory spelling
    "ROG STRIX GAMING OC V2 GeForce RTX 3080 (LHR) 10 GB Limited Edition",
    "ROG STRIX OC V2 GeForce RTX 3080 10GB PCI Express 4.0 x16 Graphics Card",  # ASUS
])
def test_colour_memory_lhr_and_edition_variants_are_one_model(variant: str) -> None:
    assert model_words(variant, "GeForce RTX 3080", "ASUS") == model_words(
        BLACK, "GeForce RTX 3080", "ASUS")
    assert model_words(BLACK, "GeForce RTX 3080", "ASUS") == ("oc", "rog", "strix", "v2")


@pytest.mark.parametrize(("one", "other"), [
    ("ROG STRIX GAMING OC V2 GeForce RTX 3080", "ROG STRIX GAMING V2 GeForce RTX 3080"),
    ("ROG STRIX GAMING OC V2 GeForce RTX 3080", "ROG STRIX GAMING OC GeForce RTX 3080"),
    ("XC BLACK GAMING GeForce RTX 3080", "XC GAMING GeForce RTX 3080"),  # EVGA's tier
    ("Red Devil Radeon RX 6800", "Devil Radeon RX 6800"),  # PowerColor's line
    ("EAGLE OC ICE GeForce RTX 3080", "EAGLE OC GeForce RTX 3080"),  # a model word
    ("GAMING OC GeForce RTX 3080", "OC GeForce RTX 3080"),  # two Gigabyte cards
    ("OC GeForce RTX 3080 Graphics Card (Rev 2.0)", "OC GeForce RTX 3080"),  # a revision
])
def test_other_model_words_are_other_models(one: str, other: str) -> None:
    assert model_words(one, "GeForce RTX 3080", "Gigabyte") != model_words(
        other, "GeForce RTX 3080", "Gigabyte")


def test_a_name_that_is_the_chips_alone_names_no_model() -> None:
    assert model_words("GeForce RTX 3080 10GB GDDR6X Black", "GeForce RTX 3080") == ()
    assert model_words("Radeon RX 6800 16GB GDDR6 Black / Silver", "Radeon RX 6800") == ()


# --- filling from siblings ----------------------------------------------------------------

def test_a_colour_variant_takes_the_connectors_its_sibling_has(tmp_path: Path) -> None:
    parts, sources, report = run(tmp_path, [
        row("a1", BLACK), row("b2", PLAIN, eight_pin="3")])
    black = card(parts, "ASUS", BLACK.removeprefix("Asus "))
    assert black["power_connectors"] == "3x 8-pin"
    source = sources[(black["id"], "power_connectors")]
    assert expand(source[2]).endswith("/open-db/GPU/b2.json") and source[3] == "2026-08-17"
    assert source[4] == (f"from the same card's ASUS {PLAIN.removeprefix('Asus ')} record "
                         "(BuildCores OpenDB b2)")
    assert report.from_siblings == {"power_connectors": 1}
    assert any("from another record of the same card: power connectors 1" in line
               for line in summary_lines(report))


def test_length_and_cooling_come_the_same_way(tmp_path: Path) -> None:
    parts, sources, report = run(tmp_path, [
        row("a1", BLACK, eight_pin="3", cooling="", length="0"),
        row("b2", PLAIN, eight_pin="3", length="318")])
    black = card(parts, "ASUS", BLACK.removeprefix("Asus "))
    assert (black["cooling"], black["board_length_mm"]) == ("active", 318)
    assert report.from_siblings == {"cooling": 1, "board_length_mm": 1}
    assert (black["id"], "power_connectors") not in sources  # its own: no sibling note


def test_siblings_that_disagree_fill_nothing(tmp_path: Path) -> None:
    parts, _, report = run(tmp_path, [
        row("a1", BLACK), row("b2", PLAIN, eight_pin="3"),
        row("c3", BLACK.replace("Black", "White"), eight_pin="2")])
    assert card(parts, "ASUS", BLACK.removeprefix("Asus "))["power_connectors"] is None
    assert not report.from_siblings


@pytest.mark.parametrize(("other", "maker", "chipset", "memory"), [
    ("Asus ROG STRIX GAMING V2 GeForce RTX 3080 10GB GDDR6X", "ASUS",
     "GeForce RTX 3080", "10"),  # not the OC model
    ("Asus TUF GAMING OC V2 GeForce RTX 3080 10GB GDDR6X", "ASUS",
     "GeForce RTX 3080", "10"),  # another model
    ("MSI ROG STRIX GAMING OC V2 GeForce RTX 3080 10GB GDDR6X", "MSI",
     "GeForce RTX 3080", "10"),  # another board partner
    ("Asus ROG STRIX GAMING OC V2 GeForce RTX 3080 12GB GDDR6X", "ASUS",
     "GeForce RTX 3080 12 GB", "12"),  # another chip
])
def test_another_model_partner_or_chip_is_no_source(tmp_path: Path, other: str, maker: str,
                                                    chipset: str, memory: str) -> None:
    parts, _, report = run(tmp_path, [
        row("a1", BLACK), row("b2", other, maker=maker, chipset=chipset, memory=memory,
                              eight_pin="3", tdp="350")])
    assert card(parts, "ASUS", BLACK.removeprefix("Asus "))["power_connectors"] is None
    assert not report.from_siblings


def test_a_card_named_by_its_chip_alone_takes_nothing(tmp_path: Path) -> None:
    """"ASUS GeForce RTX 3080 10GB Black" names no model: the reference card's figures
    and another plain record are no source."""
    name = "Asus GeForce RTX 3080 10GB GDDR6X Black"
    parts, _, _ = run(tmp_path, [
        row("a1", name), row("b2", "Asus GeForce RTX 3080 10GB GDDR6X", eight_pin="2")])
    assert card(parts, "ASUS", name.removeprefix("Asus "))["power_connectors"] is None


def test_connectors_that_cannot_power_the_card_are_not_taken(tmp_path: Path) -> None:
    # the sibling lists one 8-pin (225 W with the slot, enough for its 225 W); this
    # record says 320 W
    parts, _, report = run(tmp_path, [
        row("a1", BLACK), row("b2", PLAIN, eight_pin="1", tdp="225")])
    assert card(parts, "ASUS", PLAIN.removeprefix("Asus "))["power_connectors"] == "1x 8-pin"
    assert card(parts, "ASUS", BLACK.removeprefix("Asus "))["power_connectors"] is None
    assert not report.from_siblings


# --- cooling from the name ----------------------------------------------------------------

@pytest.mark.parametrize(("vendor", "name", "dataset", "kind"), [
    ("ASUS", "Turbo GeForce RTX 3090 24GB GDDR6X Black", "1 Fan", "blower"),
    ("Gigabyte", "TURBO GeForce RTX 3080 10GB", "", "blower"),
    ("PNY", "Blower GeForce RTX 2080 Ti 11GB GDDR6 Black", "1 Fan", "blower"),
    ("Gigabyte", "AORUS WATERFORCE GeForce GTX 1080 Ti", "1 Fan", "liquid"),
    ("EVGA", "HYBRID GAMING GeForce GTX 1070", "1 Fan", "hybrid"),
    ("ASUS", "Turbo GeForce RTX 3090", "3 Fans", None),  # the record says otherwise
    ("MSI", "Turbo GeForce RTX 3090", "1 Fan", None),  # not a blower line of MSI's
    ("MSI", "AERO GeForce RTX 2080 Ti", "1 Fan", None),  # AERO: blower or open-air
    ("Gigabyte", "AERO OC GeForce RTX 4070", "", None),
    ("MSI", "SUPRIM LIQUID X GeForce RTX 4090", "", None),  # Liquid: hybrid or block
    ("ASUS", "ROG STRIX GeForce RTX 3090", "1 Fan", None),
])
def test_a_name_tells_the_cooling_only_when_unambiguous(vendor: str, name: str, dataset: str,
                                                       kind: str | None) -> None:
    said = cooling_from_name(vendor, name, dataset)
    assert (said[0] if said else None) == kind
    if said:
        assert said[1].startswith("from the card's name: ")


def test_a_blower_listed_as_one_fan_is_a_blower_with_its_source(tmp_path: Path) -> None:
    name = "Asus Turbo GeForce RTX 3080 10GB GDDR6X Black"
    parts, sources, report = run(tmp_path, [row("a1", name, cooling="1 Fan",
                                                eight_pin="2")])
    turbo = card(parts, "ASUS", name.removeprefix("Asus "))
    assert turbo["cooling"] == "blower"  # "1 Fan" alone reads as open-air ("active")
    assert "'TURBO'" in sources[(turbo["id"], "cooling")][4]
    assert report.cooling_from_name == 1


def test_slot_width_and_board_power_come_the_same_way(tmp_path: Path) -> None:
    plain = row("b2", PLAIN, eight_pin="3")
    black = row("a1", BLACK, eight_pin="3", tdp="0")
    black["total_slot_width"] = "0"
    parts, _, report = run(tmp_path, [black, plain])
    card_black = card(parts, "ASUS", BLACK.removeprefix("Asus "))
    assert (card_black["slot_width"], card_black["tdp_w"]) == (2.7, 320)
    assert report.from_siblings == {"slot_width": 1, "tdp_w": 1}
    assert any(line.endswith("same card: slot width 1, board power 1")
               for line in summary_lines(report))


def test_a_figure_is_credited_to_the_record_that_has_it(tmp_path: Path) -> None:
    """Two records without connectors and one with: both cite the one that has them, not
    each other (a filled figure is not passed on as the filled record's own)."""
    white = BLACK.replace("Black", "White")
    parts, sources, report = run(tmp_path, [
        row("a1", BLACK), row("b2", white), row("c3", PLAIN, eight_pin="3")])
    for name in (BLACK, white):
        filled = card(parts, "ASUS", name.removeprefix("Asus "))
        assert filled["power_connectors"] == "3x 8-pin"
        assert sources[(filled["id"], "power_connectors")][4].endswith("(BuildCores OpenDB c3)")
    assert report.from_siblings == {"power_connectors": 2}


def test_a_figure_that_is_another_models_gives_way_to_the_cards_own_records(
        tmp_path: Path) -> None:
    """A "VENTUS 2X" record filed with the "VENTUS 3X"'s length, while two other records of
    the 2X agree on their own: the 2X keeps the 2X's length, the 3X its own."""
    two = "MSI GeForce RTX 3080 10G VENTUS 2X OC"
    parts, sources, _ = run(tmp_path, [
        row("a1", two, maker="MSI", length="308"),
        row("b2", f"{two} Black", maker="MSI", length="242"),
        row("c3", f"{two} White", maker="MSI", length="242"),
        row("d4", "MSI GeForce RTX 3080 10G VENTUS 3X OC", maker="MSI", length="308")])
    assert card(parts, "MSI", two.removeprefix("MSI "))["board_length_mm"] == 242
    three = card(parts, "MSI", "GeForce RTX 3080 10G VENTUS 3X OC")
    assert three["board_length_mm"] == 308
    note = sources[(make_part_id("accelerator", "MSI", two.removeprefix("MSI ")),
                    "board_length_mm")][4]
    assert "another model's" in note


def test_a_2x_never_takes_a_3x_figure_it_lacks(tmp_path: Path) -> None:
    """Siblings share every model word: a 2X without a length stays without one beside a
    3X that has it (the figure is set by the word that differs)."""
    two = "MSI GeForce RTX 3080 10G VENTUS 2X OC"
    parts, _, _ = run(tmp_path, [
        row("a1", two, maker="MSI", length=""),
        row("d4", "MSI GeForce RTX 3080 10G VENTUS 3X OC", maker="MSI", length="308")])
    assert card(parts, "MSI", two.removeprefix("MSI "))["board_length_mm"] is None


def test_an_lhr_card_is_the_2021_revision() -> None:
    from dlhw_desktop.catalog.partner_siblings import LHR_SOURCE, lhr_release_year

    rtx_3070 = {"release_year": 2020}
    cards = [({"id": "accelerator/zotac-3070-lhr", "name": "GAMING Twin Edge OC RTX 3070 LHR",
               "release_year": 2020}, rtx_3070),
             ({"id": "accelerator/zotac-3070-lhr-2", "name": "RTX 3070 LHR 8GB",
               "release_year": None}, rtx_3070),
             ({"id": "accelerator/zotac-3070", "name": "GAMING Twin Edge OC RTX 3070",
               "release_year": 2020}, rtx_3070),
             # an LHR card of a 2022 chip keeps the year it inherits
             ({"id": "accelerator/evga-3080-12gb-lhr", "name": "RTX 3080 12GB LHR",
               "release_year": None}, {"release_year": 2022})]
    sources: dict[tuple[str, str], tuple[str, ...]] = {}
    changed = lhr_release_year(cards, sources)
    assert [c["release_year"] for c, _ in cards] == [2021, 2021, 2020, None]
    assert len(changed) == 2 and "2020 -> 2021" in changed[0]
    assert sources[("accelerator/zotac-3070-lhr", "release_year")][2] == LHR_SOURCE
