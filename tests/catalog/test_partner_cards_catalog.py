"""Board-partner cards in a catalog built from the project's sources: linked to their chip,
found by the chip's name, checked on their own figures, run workloads on the chip's."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from dlhw_desktop.catalog.part_query import Filter, PartQuery
from dlhw_desktop.catalog.partner_card_extract import EXTRACT_FILE, extract_gpu_csv
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.checks import run_checks
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.workload.fit import fit
from dlhw_desktop.core.workload.model_presets import preset
from dlhw_desktop.core.workload.workload import Workload
from dlhw_desktop.resources import catalog_sources_dir

CHIP = "accelerator/nvidia-geforce-rtx-4090"
STRIX = "accelerator/asus-rog-strix-gaming-oc-geforce-rtx-4090-24gb-gddr6x-black"
SNAPSHOT = (Path(__file__).resolve().parents[3] / "shared" / "datasets"
            / "buildcores-open-db-136a77a.tar.gz")


@pytest.fixture(scope="module")
def cards_catalog(fresh_catalog_path: Path) -> Catalog:
    return Catalog.open(fresh_catalog_path)


def test_cards_are_linked_to_their_chip(cards_catalog: Catalog) -> None:
    cards = cards_catalog.search(PartQuery(category=Category.ACCELERATOR,
                                           filters=(Filter("chip_id", "eq", CHIP),)),
                                 limit=500)
    assert len(cards) >= 40
    assert {c.vendor for c in cards} >= {"ASUS", "MSI", "Gigabyte", "Zotac"}
    assert all(c.get("chip_id") == CHIP for c in cards)
    chips = cards_catalog.count(PartQuery(category=Category.ACCELERATOR,
                                          filters=(Filter("chip_id", "null", True),)))
    total = cards_catalog.info().counts["accelerator"]
    assert total - chips > 3000  # thousands of cards, each linked


def test_a_card_has_its_own_size_and_the_chips_figures_with_their_source(
        cards_catalog: Catalog) -> None:
    chip, strix = cards_catalog.get(CHIP), cards_catalog.get(STRIX)
    assert (chip.number("board_length_mm"), strix.number("board_length_mm")) == (304, 358)
    assert strix.number("slot_width") == 3.5
    assert strix.text("power_connectors") == "1x 16-pin (12VHPWR)"
    for name in ("memory_gb", "memory_bandwidth_gb_s", "bf16_tensor_tflops", "fp8_tensor_tflops",
                 "architecture", "software", "market_segment", "form_factor"):
        assert strix.get(name) == chip.get(name) is not None, name
        source = strix.source_of(name)
        assert source.source == chip.source_of(name).source
        assert source.note.startswith(f"inherited from chip {CHIP}")
    own = strix.source_of("board_length_mm")
    assert own.source.startswith("https://github.com/buildcores/buildcores-open-db/blob/")
    assert own.source_date == "2026-08-17" and not own.note
    assert strix.price_usd is None  # the chip's launch price is the reference card's
    # the same provenance whichever way the card is read
    listed = next(p for p in cards_catalog.parts(Category.ACCELERATOR) if p.id == STRIX)
    assert listed.source_of("bf16_tensor_tflops") == strix.source_of("bf16_tensor_tflops")
    (many,) = cards_catalog.get_many([STRIX])
    assert many.source_of("memory_gb") == strix.source_of("memory_gb")


def test_searching_a_chip_name_lists_the_chip_and_its_cards(cards_catalog: Catalog) -> None:
    found = cards_catalog.search(PartQuery(category=Category.ACCELERATOR, text="4090"),
                                 limit=500)
    ids = {p.id for p in found}
    assert CHIP in ids and STRIX in ids
    assert sum(1 for p in found if p.get("chip_id") == CHIP) >= 40


def test_chips_only_leaves_the_cards_out(cards_catalog: Catalog) -> None:
    chips = cards_catalog.parts(Category.ACCELERATOR, chips_only=True)
    assert chips and not any(p.get("chip_id") for p in chips)
    assert CHIP in {p.id for p in chips}
    picker = cards_catalog.search(PartQuery(
        category=Category.ACCELERATOR, text="rtx 4090",
        filters=(Filter("chip_id", "null", True),)))
    assert [p.name for p in picker] == ["GeForce RTX 4090", "GeForce RTX 4090 D"]


def case(clearance_mm: int) -> Part:
    return Part(id="case/test-340", category=Category.CASE, vendor="Test", name="340 mm case",
                source="test", source_date="2026-01-01",
                specs={"max_gpu_length_mm": clearance_mm, "case_kind": "tower",
                       "expansion_slots": 7})


def gpu_length(card: Part, clearance_mm: int) -> str:
    build = Build()
    build.add(card)
    build.add(case(clearance_mm))
    (result,) = [r for r in run_checks(build) if r.id == "compat.gpu_length"]
    return result.status


def test_a_long_card_fails_a_case_the_reference_card_fits(cards_catalog: Catalog) -> None:
    chip, strix = cards_catalog.get(CHIP), cards_catalog.get(STRIX)
    assert gpu_length(strix, 340) == "fail"  # 358 mm
    assert gpu_length(chip, 340) == "pass"  # 304 mm reference card


def test_a_workload_runs_on_the_cards_inherited_memory(cards_catalog: Catalog) -> None:
    chip, strix = cards_catalog.get(CHIP), cards_catalog.get(STRIX)
    workload = Workload(preset("llama-3.1-8b"), seq=4096)
    on_chip, on_card = fit(workload, [(chip, 1)]), fit(workload, [(strix, 1)])
    (chip_check,), (card_check,) = on_chip.checks, on_card.checks
    assert card_check.status == chip_check.status == "pass"
    assert card_check.figures["vram_bytes"] == chip_check.figures["vram_bytes"] == 24 * 2**30


@pytest.mark.skipif(not SNAPSHOT.exists(), reason="the OpenDB snapshot is not on this machine")
def test_the_committed_extract_is_what_the_script_makes(tmp_path: Path) -> None:
    fresh = tmp_path / "GPU.csv"
    extract_gpu_csv(SNAPSHOT, fresh)
    committed = catalog_sources_dir() / EXTRACT_FILE
    assert hashlib.sha256(fresh.read_bytes()).hexdigest() == hashlib.sha256(
        committed.read_bytes()).hexdigest(), "run scripts/extract_partner_cards.py"
