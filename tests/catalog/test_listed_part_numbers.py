"""The part numbers a built catalog lists, as a price list's rows match them: an OEM number
of a power supply (BuildCores OpenDB), a board partner's SKU, the part number of NVIDIA's
own card merged into its chip's row, and the id of a merged duplicate."""

from __future__ import annotations

from pathlib import Path

import pytest

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.prices.part_index import PartIndex


@pytest.fixture(scope="module")
def index(fresh_catalog_path: Path) -> PartIndex:
    catalog = Catalog.open(fresh_catalog_path)
    return PartIndex(catalog.part_names(leave_out=[Category.CLOUD]), catalog.aliases())


@pytest.mark.parametrize(("number", "part_id"), [
    ("CP-9020271-EU", "psu/corsair-rm1000x-2024-black-atx-1000w-fully-modular"),
    ("VCNRTX6000ADA-PB", "accelerator/pny-nvidia-rtx-6000-ada-generation-48gb-gddr6"),
    ("900-1G611-2550-000", "accelerator/nvidia-geforce-gtx-1080-ti"),  # a Founders Edition
])
def test_a_listed_part_number_finds_its_part(index: PartIndex, number: str,
                                              part_id: str) -> None:
    assert [p.id for p in index.match("", number, "")] == [part_id]


def test_a_merged_duplicates_id_finds_the_part_it_became(index: PartIndex) -> None:
    alias, kept = next(iter(sorted(index.aliases.items())))
    assert alias not in index.by_id
    assert [p.id for p in index.match(alias, "", "")] == [kept]
