"""A PSU's ATX version is read from its own product designation: name, series, part numbers.

The OpenDB has no ATX field; a vendor's product name or part number that says "ATX 3.1" or
"ATX12V v2.4" is the vendor's own statement. Anything else stays unknown (never guessed).
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from dlhw_desktop.catalog.opendb import rules
from dlhw_desktop.catalog.opendb.mappers import Cleaned, psu

EXTRACT = Path(__file__).resolve().parents[2] / "resources" / "catalog" / "opendb" / "PSU.csv"


@pytest.mark.parametrize(("name", "designations", "expected"), [
    # the name alone, as before
    ("Corsair RM850x (2024) ATX 3.1 850W", (), "3.1"),
    ("SeaSonic ATX3-FOCUS-GX White 850W Fully Modular 80+ Gold", (), "3.0"),
    ("1STPLAYER NGDP ATX 3.0 1000W Fully Modular 80+ Platinum Certified", (), "3.0"),
    # the series says what the name does not
    ("SeaSonic PRIME TX-1600 Noctua Edition Brown / Black 1600W Fully Modular",
     ("Prime TX ATX 3.1", "SSR-1600TR2"), "3.1"),
    # a part number states the minor version a bare "ATX 3" in the name leaves open
    ("SeaSonic Focus GX V4 ATX 3 (2024) 850W Fully Modular 80+ Gold Certified",
     ("", "FOCUS-GX-850-V4-WHITE;Focus GX-850 White ATX 3.1"), "3.1"),
    ("SeaSonic CORE GX ATX 3 (2024) Black 650W Fully Modular 80+ Gold Certified",
     ("", "CORE ATX 3 GX-650"), "3.0"),
    # a pre-ATX 3.0 unit whose name states its ATX12V revision
    ("CORSAIR TX-M Series TX550M CP-9020133-NA/RF 550 W ATX12V v2.4 / EPS 2.92 80 PLUS GOLD",
     (), "2.4"),
    ("Thermaltake Toughpower 550W 80+ Gold Semi Modular ATX 12V 2.31 Power Supply", (), "2.31"),
])
def test_the_designation_states_the_version(name: str, designations: tuple[str, ...],
                                            expected: str) -> None:
    assert rules.atx_version(name, *designations) == expected


@pytest.mark.parametrize(("name", "designations"), [
    ("Chieftec Polaris 3.0 Black ATX 850W Fully Modular 80+ Gold", ("Polaris 3.0",)),
    ("LC-Power LC1000P V3.0 Black ATX 1000W Fully Modular", ("", "LC1000P V3.0")),
    ("Athena Power AP-MFATX30 Silver Mini-ITX 300W Non-Modular", ("AP-MFATX30", "AP-MFATX30")),
    ("SeaSonic Prime Snow Silent 750 Titanium ATX12V & EPS12V Full Modular", ()),
    ("Corsair RM1000x (2021) ATX 1000W Fully Modular 80+ Gold Certified", ()),
])
def test_a_product_version_or_a_form_factor_is_not_an_atx_version(
        name: str, designations: tuple[str, ...]) -> None:
    assert rules.atx_version(name, *designations) is None


def test_the_psu_mapper_reads_series_and_part_numbers() -> None:
    values: dict[str, object] = {}
    psu({"wattage_w": "1000", "pcie_12vhpwr": "1", "name": "SeaSonic VERTEX PX-1000 Black",
         "series": "Vertex", "part_numbers": "VERTEX PX-1000;Vertex PX-1000 ATX 3.1"},
        values, Cleaned())
    assert values["atx_version"] == "3.1"


def test_the_committed_extract_gains_the_versions_its_designations_state() -> None:
    with EXTRACT.open(newline="", encoding="utf-8") as handle:
        rows = {row["name"]: row for row in csv.DictReader(handle)}

    def mapped(name: str) -> object:
        values: dict[str, object] = {}
        psu(rows[name], values, Cleaned())
        return values["atx_version"]

    assert mapped("SeaSonic VERTEX PX-1000 Black / Silver 1000W Fully Modular 80+ Platinum") \
        == "3.1"
    assert mapped("Super Flower Leadex Titanium ATX 2800W Fully Modular 80+ Titanium "
                  "Certified") == "3.1"
    assert mapped("Chieftec Polaris 3.0 Black ATX 850W Fully Modular 80+ Gold") is None
