"""The unified-memory systems (issue #30): every machine of the research table is a complete
system in the built catalog, on its own GPU row, with each figure sourced.

The research table (``research/unified_memory_systems.csv``) is what the rows were made
from: its total memory is the system's memory, its GPU-usable share the GPU's
``memory_gb``.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from dlhw_desktop.catalog.part_query import PartQuery
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.checks import CheckSettings, check_build
from dlhw_desktop.resources import catalog_sources_dir

RESEARCH = catalog_sources_dir() / "research" / "unified_memory_systems.csv"
TENSOR_FIELDS = ("tf32_tensor_tflops", "bf16_tensor_tflops", "fp16_tensor_tflops",
                 "fp8_tensor_tflops", "int8_tops")
OWN_SOURCE_FIELDS = ("memory_gb", "fp32_tflops", "tdp_w", "fp4_tensor_tflops")
"""Figures that never come from the row's own page: each has its own figure source."""


def research_rows() -> list[dict[str, str]]:
    with RESEARCH.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


ROWS = research_rows()


@pytest.fixture(scope="module")
def fresh(fresh_catalog_path: Path) -> Catalog:
    return Catalog.open(fresh_catalog_path)


def test_the_research_table_has_every_machine() -> None:
    assert len(ROWS) == 22
    chips = {r["chip"].split(" (")[0] for r in ROWS}
    assert {"Apple M2 Max", "Apple M2 Ultra", "Apple M3 Max", "Apple M3 Ultra",
            "Apple M4 Max", "NVIDIA GB10 Grace Blackwell", "AMD Ryzen AI Max+ 395"} <= chips


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_each_system_resolves_with_its_gpu_and_sourced_figures(fresh: Catalog,
                                                                row: dict[str, str]) -> None:
    system = fresh.get("server/" + row["id"].split("/", 1)[1])
    assert system.get("complete_system") is True
    assert system.text("gpu_form_factor") == "integrated" and system.number("gpu_count") == 1
    assert system.number("max_memory_gb") == float(row["memory_gb"])
    assert system.source == row["source"] and system.source_date
    if row["price_usd"] and row["price_date"]:
        assert (system.price_usd, system.price_kind) == (float(row["price_usd"]),
                                                         row["price_kind"])
    elif system.price_usd is not None:  # a reported price from the research file
        assert system.price_kind == "reported" and system.price_date
    # (an undated price in the systems table is never recorded: a price needs its date)

    gpu = fresh.get(system.text("supported_gpus"))
    assert gpu.text("form_factor") == "integrated"
    assert gpu.number("memory_gb") == float(row["gpu_usable_memory_gb"])
    assert gpu.number("memory_gb") <= system.number("max_memory_gb")
    if row["memory_bandwidth_gb_s"]:
        assert gpu.number("memory_bandwidth_gb_s") == pytest.approx(
            float(row["memory_bandwidth_gb_s"]), abs=0.5)
    for name in OWN_SOURCE_FIELDS:
        if gpu.number(name) is not None:
            assert name in gpu.figure_sources, f"{gpu.id}: {name} has no figure source"
            assert gpu.figure_sources[name].source.startswith("http")
    assert "GPU-usable share" in gpu.source_of("memory_gb").note
    # No tensor figure is published for these GPUs (GB10 only FP4, derived); none is 0.
    assert all(gpu.number(name) is None for name in TENSOR_FIELDS)
    assert all(gpu.number(name) != 0 for name in gpu.specs)
    assert all(system.number(name) != 0 for name in system.specs)


def test_gb10_fp4_is_the_dense_half_of_nvidias_sparse_petaflop(fresh: Catalog) -> None:
    gb10 = fresh.get("accelerator/nvidia-gb10-128gb")
    assert gb10.number("fp4_tensor_tflops") == 500
    assert "derived" in gb10.source_of("fp4_tensor_tflops").note
    assert gb10.text("software") == "CUDA"


def test_apple_publishes_shader_tflops_only(fresh: Catalog) -> None:
    m3u = fresh.get("accelerator/apple-m3-ultra-80-core-gpu-512gb")
    assert m3u.number("fp32_tflops") == 28.4 and m3u.number("bf16_tensor_tflops") is None
    assert "FP32 shader" in m3u.source_of("fp32_tflops").note
    assert m3u.number("memory_gb") == 384  # 75 % of 512 GB, macOS's default GPU limit


def test_a_real_system_with_its_gpu_passes_the_checks(fresh: Catalog) -> None:
    for system_id in ("server/nvidia-dgx-spark-128gb",
                      "server/apple-mac-studio-m3-ultra-512gb",
                      "server/framework-desktop-ryzen-ai-max-395-128gb"):
        system = fresh.get(system_id)
        build = Build("unified memory")
        build.add(system)
        build.add(fresh.get(system.text("supported_gpus")))
        report = check_build(build, CheckSettings())
        assert report.verdict == "pass", [(r.id, r.message) for r in report.results]
        assert not [r for r in report.results if r.status != "pass"]


@pytest.mark.parametrize(("query", "expected"), [
    ("DGX Spark", "server/nvidia-dgx-spark-128gb"),
    ("GB10", "accelerator/nvidia-gb10-128gb"),
    ("M3 Ultra", "server/apple-mac-studio-m3-ultra-512gb"),
    ("Ryzen AI Max", "server/framework-desktop-ryzen-ai-max-395-128gb"),
])
def test_find_names_them_and_whole_words_win(fresh: Catalog, query: str,
                                            expected: str) -> None:
    found = [p.id for p in fresh.search(PartQuery(text=query), limit=50)]
    assert expected in found
    if query == "GB10":  # a FirePro's "8 GB (100-505724)" indexes "gb100": after them
        assert set(found[:5]) == {
            "accelerator/nvidia-gb10-128gb", "server/nvidia-dgx-spark-128gb",
            "server/lenovo-thinkstation-pgx-128gb", "server/dell-pro-max-gb10-128gb",
            "server/asus-ascent-gx10-128gb"}
        assert any("firepro" in i for i in found[5:])
