"""Search finds a part by the name a published parts list gives it.

Parts lists write "32GB (2 x 16GB)", "8 GB", "850 EVO-Series", "Corsair RMx 850W",
"NVIDIA RTX 3090 24GB" and "Scythe CPU Cooler Mugen 5"; catalog names write "2x16GB",
"8GB", "850 EVO", "RM850x", "GeForce RTX 3090" (memory in its own field) and "Mugen 5".
"""

from __future__ import annotations

import pytest

from dlhw_desktop.catalog.part_query import PartQuery
from dlhw_desktop.catalog.search import fts_query, search_text, series_aliases, tokens
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.fields import Category


def test_module_counts_and_units_join_as_names_write_them() -> None:
    assert tokens("Vengeance LPX 32GB (2 x 16GB) DDR4-3200") == [
        "vengeance", "lpx", "32gb", "2x16gb", "ddr4", "3200"]
    assert tokens("CT8G4DFS8266 8 GB") == ["ct8g4dfs8266", "8gb"]
    assert tokens("Straight Power 11 750 W") == ["straight", "power", "11", "750w"]
    assert tokens("2 × 32 GB") == ["2x32gb"]
    assert tokens("2,000 W, native 12V-2x6") == ["2000w", "native", "12v", "2x6"]


def test_words_that_are_not_a_count_and_a_size_stay_apart() -> None:
    assert tokens("2x 8-pin") == ["2x", "8", "pin"]  # a cable count, not memory
    assert tokens("B550 x 2") == ["b550", "x", "2"]
    assert tokens("RTX 4090") == ["rtx", "4090"]


def test_series_is_filler_unless_it_is_the_only_word() -> None:
    assert fts_query("850 EVO-Series 500GB") == '"850"* AND "evo"* AND "500gb"*'
    assert fts_query("Series") == '"series"*'


def test_a_model_number_is_also_indexed_as_its_series() -> None:
    assert series_aliases(["rm850x", "hx1000i", "b550", "x670e", "rtx", "4090"]) == [
        "rmx", "hxi"]
    assert "rmx" in search_text("Corsair", "RM850x (2018) ATX 850W").split()


@pytest.mark.parametrize(("category", "published", "part_id"), [
    (Category.MEMORY, "Corsair Vengeance LPX 32GB (2 x 16GB) DDR4-3200",
     "memory/corsair-vengeance-lpx-black-yellow-ddr4-3200-cl16-32gb-2x16gb"),
    (Category.MEMORY, "Crucial CT8G4DFS8266 8 GB",
     "memory/crucial-ct8g4dfs8266-green-black-ddr4-2666-cl19-8gb-1x8gb"),
    (Category.STORAGE, "Samsung 850 EVO-Series 500GB",
     "storage/samsung-850-evo-500gb-ssd-2-5-sata-6-0-gb-s"),
])
def test_published_names_find_their_part(catalog: Catalog, category: Category,
                                         published: str, part_id: str) -> None:
    found = {p.id for p in catalog.search(PartQuery(category=category, text=published),
                                          limit=400, with_sources=False)}
    assert part_id in found


@pytest.mark.parametrize(("category", "published", "part_id"), [
    (Category.PSU, "Corsair RMx 850W",
     "psu/corsair-rm850x-atx-850w-fully-modular-80-gold-certified"),
    (Category.ACCELERATOR, "NVIDIA RTX 3090 24GB", "accelerator/nvidia-geforce-rtx-3090"),
    (Category.COOLER, "Scythe CPU Cooler Mugen 5 PCGH Edition",
     "cooler/scythe-mugen-5-pcgh-edition-air-155mm-43-03-cfm-silver-black"),
])
def test_published_names_find_their_part_through_the_index(
        catalog: Catalog, category: Category, published: str, part_id: str) -> None:
    """These need the index words the builder adds (a catalog built from this tree)."""
    found = {p.id for p in catalog.search(PartQuery(category=category, text=published),
                                          limit=400, with_sources=False)}
    assert part_id in found
