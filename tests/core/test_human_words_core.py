"""The words a user reads for stored codes, counts and catalog notes."""

from __future__ import annotations

import pytest

from dlhw_desktop.core.field_values import code_label, value_label
from dlhw_desktop.core.fields import Category, category_noun, figure_label
from dlhw_desktop.core.parts import format_value
from dlhw_desktop.core.reader_notes import UNVERIFIED, reader_note


@pytest.mark.parametrize(("field", "code", "shown"), [
    ("accelerator_type", "gpu", "GPU"), ("market_segment", "consumer", "Consumer"),
    ("form_factor", "pcie", "PCIe card"), ("form_factor", "oam", "OAM module"),
    ("storage_kind", "sata-ssd", "SATA SSD"), ("cooler_kind", "aio", "All-in-one liquid (AIO)"),
    ("case_kind", "open-frame", "Open frame"), ("offering_kind", "dedicated",
                                                "Dedicated server (monthly)")])
def test_a_stored_code_is_shown_by_its_words(field: str, code: str, shown: str) -> None:
    assert value_label(field, code) == shown == format_value(field, code)


def test_a_value_outside_the_list_is_shown_as_written() -> None:
    assert format_value("form_factor", "MXM") == "MXM"
    assert format_value("memory_type", "DDR5") == "DDR5"
    assert code_label("rackmount") == "Rackmount" and code_label("8 slots") == "8 slots"


@pytest.mark.parametrize(("category", "count", "words"), [
    (Category.CPU, 706, "CPUs"), (Category.CPU, 1, "CPU"), (Category.STORAGE, 2, "drives"),
    (Category.PSU, 3, "power supplies"), (Category.MEMORY, 1, "memory kit"),
    (Category.SERVER, 5, "GPU server platforms"), (Category.CLOUD, 2, "cloud offers")])
def test_counted_parts_read_as_english(category: Category, count: int, words: str) -> None:
    assert category_noun(category, count) == words


def test_a_checks_figure_key_reads_as_words() -> None:
    assert figure_label("need_pcie_8pin") == "Need PCIe 8-pin"
    assert figure_label("cpus") == "CPUs"
    assert figure_label("wall_w") == "Wall (W)"


def test_notes_for_maintainers_never_reach_a_reader() -> None:
    note = ("ECC DDR5 RDIMM only, 8 channels. Unverified: the cited page was not opened when "
            "this row was written (offline sandbox); the figures are the vendor's published "
            "ones as the engineer knew them.")
    shown = reader_note(note)
    assert shown == f"ECC DDR5 RDIMM only, 8 channels. {UNVERIFIED}"
    for text in ("Intel ARK 'Processor Base Power' 270 W; cpus.csv tdp_w = 270.",
                 "memory_gb is the 96 GB the GPU may use",
                 "opendb name: Deepcool AK400 (opendb height_mm 155).",
                 "x 8 (see figure_sources_cloud.csv).",
                 '("accelerator_interconnect": "18x 4th Gen NVLink")',
                 "inherited from chip accelerator/nvidia-geforce-rtx-4090"):
        shown = reader_note(text)
        for word in ("sandbox", "engineer", ".csv", "tdp_w", "memory_gb", "height_mm",
                     "opendb", "accelerator_interconnect", "accelerator/"):
            assert word not in shown, (text, shown)
    assert reader_note("memory_gb is the 96 GB") == "Memory is the 96 GB"
    assert reader_note(None) == ""
