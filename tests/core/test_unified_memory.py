"""Unified-memory machines (Mac Studio, DGX Spark, Ryzen AI Max systems) as complete systems.

Their GPU is built into the chip (form factor ``integrated``): a build of the system and
its GPU is judged like a DGX, without PCIe slot, card length, power-connector or supply
demands, and a model fits when it fits the memory the GPU may use (``memory_gb``: 75 % of
a Mac's unified memory by default, 96 of 128 GB on a Ryzen AI Max+ 395 under Windows, all
128 GB on GB10). Figures below are the catalog rows' (resources/catalog/accelerators.csv).
"""

from __future__ import annotations

import pytest

from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.checks import CheckSettings, check_build
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.workload.fit import fit
from dlhw_desktop.core.workload.fit_ranking import rank_fits
from dlhw_desktop.core.workload.model_presets import preset
from dlhw_desktop.core.workload.workload import Workload


def gpu(key: str, vendor: str, name: str, usable_gb: float, bandwidth: float,
        tdp: int | None, software: str) -> Part:
    return Part(id=f"accelerator/{key}", category=Category.ACCELERATOR, vendor=vendor,
                name=name, source="test", source_date="2026-11-26",
                specs={"memory_gb": usable_gb, "memory_bandwidth_gb_s": bandwidth,
                       "tdp_w": tdp, "form_factor": "integrated", "software": software,
                       "accelerator_type": "gpu", "market_segment": "workstation"})


def system(key: str, vendor: str, name: str, chip: Part, memory_gb: int,
           price: float | None = None, **more: float | str) -> Part:
    specs: dict[str, float | int | str | bool | None] = {
        "gpu_form_factor": "integrated", "gpu_count": 1, "supported_gpus": chip.id,
        "complete_system": True, "max_memory_gb": memory_gb}
    specs.update(more)
    return Part(id=f"server/{key}", category=Category.SERVER, vendor=vendor, name=name,
                source="test", source_date="2026-11-26", price_usd=price,
                price_kind="list" if price else None, specs=specs)


GB10 = gpu("nvidia-gb10-128gb", "NVIDIA", "GB10 (128 GB unified memory)", 128, 273, 140,
           "CUDA")
STRIX = gpu("amd-ryzen-ai-max-395-128gb", "AMD", "Ryzen AI Max+ 395 (128 GB unified memory)",
            96, 256, 120, "ROCm, Vulkan")
M3_ULTRA_512 = gpu("apple-m3-ultra-80-core-gpu-512gb", "Apple",
                   "M3 Ultra 80-core GPU (512 GB unified memory)", 384, 819.2, 180, "Metal")
M3_ULTRA_256 = gpu("apple-m3-ultra-256gb", "Apple", "M3 Ultra (256 GB unified memory)", 192,
                   819.2, None, "Metal")
M2_MAX_32 = gpu("apple-m2-max-30-core-gpu-32gb", "Apple", "M2 Max 30-core GPU (32 GB)", 21.3,
                400, None, "Metal")
DGX_SPARK = system("nvidia-dgx-spark-128gb", "NVIDIA", "DGX Spark", GB10, 128, 3999,
                   psu_count=1, psu_unit_w=240, psu_redundancy="1+0")
MAC_STUDIO = system("apple-mac-studio-m3-ultra-512gb", "Apple", "Mac Studio M3 Ultra 512 GB",
                    M3_ULTRA_512, 512)
FRAMEWORK = system("framework-desktop-ryzen-ai-max-395-128gb", "Framework",
                   "Framework Desktop", STRIX, 128)
MAC_M2 = system("apple-mac-studio-m2-max-32gb", "Apple", "Mac Studio M2 Max 32 GB", M2_MAX_32,
                32, 1999)
PCIE_4090 = Part(id="accelerator/nvidia-geforce-rtx-4090", category=Category.ACCELERATOR,
                 vendor="NVIDIA", name="GeForce RTX 4090", source="test",
                 source_date="2026-11-26",
                 specs={"memory_gb": 24, "form_factor": "pcie", "tdp_w": 450,
                        "slot_width": 3, "board_length_mm": 304, "cooling": "active"})


def q4(model: str) -> Workload:
    return Workload(preset(model), precision="Q4_K_M", seq=4096)


# --- fit: the memory the GPU may use decides -----------------------------------------


@pytest.mark.parametrize("chip", [GB10, STRIX], ids=["GB10", "Strix Halo"])
def test_a_70b_model_at_4_bit_fits_the_128_gb_machines(chip: Part) -> None:
    result = fit(q4("llama-3.1-70b"), [(chip, 1)])
    assert result.status == "pass"
    assert result.checks[0].figures["vram_bytes"] == chip.number("memory_gb") * 2**30


def test_the_m3_ultra_512_gb_holds_a_400b_4_bit_model_and_the_256_gb_does_not() -> None:
    # Llama 4 Maverick (400B) at Q4_K_M: about 240 GB of weights, within the 384 GB macOS
    # lets the GPU use on a 512 GB Mac Studio, beyond the 192 GB of a 256 GB one.
    workload = q4("llama-4-maverick")
    big = fit(workload, [(M3_ULTRA_512, 1)])
    assert big.status == "pass"
    assert big.checks[0].figures["weights_bytes"] > 200e9
    assert fit(workload, [(M3_ULTRA_256, 1)]).status == "fail"


def test_a_405b_4_bit_model_does_not_fit_one_128_gb_machine() -> None:
    assert fit(q4("llama-3.1-405b"), [(GB10, 1)]).status == "fail"


def test_the_ranking_offers_a_built_in_gpu_once_never_several() -> None:
    options = rank_fits(q4("llama-3.1-70b"), [M2_MAX_32, GB10, M3_ULTRA_512])
    owned = {o.accelerator.id: o.count for o in options if o.kind == "own"}
    assert owned[GB10.id] == 1 and owned[M3_ULTRA_512.id] == 1
    assert M2_MAX_32.id not in owned  # 21.3 GB usable: it would take four "M2 Max" chips


# --- checks: a complete system, no PCIe or supply demands -----------------------------


def _build(*parts: tuple[Part, int]) -> Build:
    build = Build("unified memory")
    for part, quantity in parts:
        build.add(part, quantity)
    return build


@pytest.mark.parametrize(("machine", "chip"), [(DGX_SPARK, GB10), (MAC_STUDIO, M3_ULTRA_512),
                                               (FRAMEWORK, STRIX), (MAC_M2, M2_MAX_32)],
                         ids=["DGX Spark", "Mac Studio", "Framework Desktop", "M2 Max"])
def test_a_system_with_its_own_gpu_passes_without_pcie_or_supply_demands(
        machine: Part, chip: Part) -> None:
    report = check_build(_build((machine, 1), (chip, 1)), CheckSettings())
    assert report.verdict == "pass"
    modules = report.get("compat.server_modules")
    assert modules.status == "pass" and "built into its chip" in modules.message
    ids = {r.id for r in report.results}
    # no slot, length, spacing, connector, ATX supply or redundant-supply checks
    assert not ids & {"compat.baseboard", "compat.x16_slots", "compat.case_slots",
                      "compat.gpu_length", "cooling.card_spacing", "power.connectors",
                      "power.psu_load", "power.server_supplies", "compat.server_complete"}
    assert not [r for r in report.results if r.status == "unknown"]


def test_a_second_gpu_or_another_gpu_fails_with_the_reason() -> None:
    two = check_build(_build((DGX_SPARK, 1), (GB10, 2))).get("compat.server_modules")
    assert two.status == "fail" and "1 GPU built into its chip" in two.message
    card = check_build(_build((DGX_SPARK, 1), (PCIE_4090, 1))).get("compat.server_modules")
    assert card.status == "fail" and "is a card" in card.message
    other = check_build(_build((DGX_SPARK, 1), (STRIX, 1))).get("compat.server_modules")
    assert other.status == "fail" and "built into its chip" in other.message


def test_a_built_in_gpu_on_a_desktop_board_is_refused_in_words() -> None:
    board = Part(id="motherboard/test-board", category=Category.MOTHERBOARD, vendor="Test",
                 name="Board", source="test", source_date="2026-11-26",
                 specs={"pcie_x16_slots": 2, "socket": "AM5"})
    result = check_build(_build((board, 1), (GB10, 1))).get("compat.baseboard")
    assert result.status == "fail"
    assert "built into a complete system's chip" in result.message
    assert "SXM" not in result.message and "baseboard (HGX" not in result.message
