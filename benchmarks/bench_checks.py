"""A full check of a 20-part build (every built-in check, tiers, summary): goal < 5 ms.

The build is deliberately busy: a workstation platform, four kinds of accelerator (one an
SXM module, one passive), several memory kits and drives, a cloud offering, and a tier,
so every check has something to say. Parts are built here from core types only, so the
figure does not depend on the catalog's contents.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import emit, summarize, time_ms

from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.build.tiers import tiers_from_rows
from dlhw_desktop.core.checks import check_build
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part, make_part_id

GOAL_MS = 5.0


def _part(category: Category, vendor: str, name: str, price: float | None = None,
          **specs: Any) -> Part:
    return Part(make_part_id(category, vendor, name), category, vendor, name, "bench", "",
                price_usd=price, specs=specs)


def _gpu(name: str, tdp: int, memory: int, width: float, cooling: str, plugs: str,
         form: str = "pcie") -> Part:
    return _part(Category.ACCELERATOR, "NVIDIA", name, 1000, tdp_w=tdp, memory_gb=memory,
                 slot_width=width, board_length_mm=300, cooling=cooling,
                 power_connectors=plugs, form_factor=form, bf16_tensor_tflops=100.0)


def _kit(name: str, modules: int, size: int) -> Part:
    return _part(Category.MEMORY, "Kingston", name, 150, memory_type="DDR5", modules=modules,
                 module_size_gb=size, capacity_gb=modules * size, registered=True)


def _drive(name: str, kind: str, capacity: int) -> Part:
    return _part(Category.STORAGE, "Samsung", name, 200, storage_kind=kind,
                 capacity_gb=capacity)


def twenty_part_build() -> Build:
    build = Build("bench", tier="demanding")
    items: list[tuple[Part, int]] = [
        (_part(Category.CPU, "AMD", "Threadripper PRO 7975WX", 3899, cores=32, threads=64,
               tdp_w=350, socket="sTR5", memory_type="DDR5", memory_channels=8,
               max_memory_gb=2048, pcie_lanes=128), 1),
        (_part(Category.MOTHERBOARD, "ASUS", "WRX90E-SAGE", 1299, socket="sTR5",
               memory_type="DDR5", memory_slots=8, max_memory_gb=2048, pcie_x16_slots=7,
               x16_slot_spacing=1, board_form_factor="EEB"), 1),
        (_part(Category.PSU, "Seasonic", "TX-1600", 500, wattage_w=1600,
               efficiency_rating="80 PLUS Titanium", atx_version="3.0", connectors_12vhpwr=2,
               connectors_pcie_8pin=6), 1),
        (_part(Category.COOLER, "Noctua", "NH-U14S TR5-SP6", 150, cooler_kind="air",
               height_mm=165, supported_sockets="sTR5, SP6"), 1),
        (_part(Category.CASE, "Fractal", "Define 7 XL", 230, case_kind="tower",
               max_gpu_length_mm=491, max_cooler_height_mm=185, expansion_slots=9,
               supported_board_form_factors="SSI-EEB, EEB, E-ATX, ATX",
               heat_capacity_w=1500), 1),
        (_gpu("RTX 4090", 450, 24, 3, "active", "1x 16-pin"), 2),
        (_gpu("RTX A6000", 300, 48, 2, "blower", "1x 8-pin CPU (EPS)"), 1),
        (_gpu("A100 PCIe", 300, 80, 2, "passive", "1x 8-pin CPU (EPS)"), 1),
        (_gpu("H100 SXM", 700, 80, 0, "passive", "", form="sxm"), 1),
        (_gpu("L4", 72, 24, 1, "passive", "None"), 1),
        (_kit("32GB RDIMM A", 1, 32), 2),
        (_kit("32GB RDIMM B", 1, 32), 2),
        (_kit("64GB RDIMM", 1, 64), 2),
        (_kit("16GB RDIMM", 1, 16), 2),
        (_drive("990 PRO 2TB", "nvme", 2000), 1),
        (_drive("990 PRO 4TB", "nvme", 4000), 1),
        (_drive("870 EVO 4TB", "sata-ssd", 4000), 1),
        (_drive("Exos X18", "hdd", 16000), 2),
        (_drive("Exos X20", "hdd", 20000), 1),
        (_part(Category.CLOUD, "AWS", "p4d.24xlarge", provider="AWS"), 1),
    ]
    for part, quantity in items:
        build.add(part, quantity)
    assert len(build) == 20
    return build


TIER_ROWS = [
    {"tier": "demanding", "component": c, "level": lvl, "description": d, **fig,
     "source": "seed article 001", "source_date": "2025-02-08"}
    for c, lvl, d, fig in (
        ("cpu", "minimum", "16/32", {"cores": 16, "threads": 32}),
        ("cpu", "recommended", "32+", {"cores": 32}),
        ("gpu", "minimum", "24 GB", {"memory_gb": 24}),
        ("gpu", "recommended", "80 GB", {"memory_gb": 80}),
        ("ram", "minimum", "128 GB", {"ram_gb": 128}),
        ("ram", "recommended", "256 GB", {"ram_gb": 256}),
        ("storage_primary", "recommended", "2 TB NVMe", {"capacity_gb": 2000,
                                                         "storage_kind": "nvme"}),
        ("storage_secondary", "recommended", "4-8 TB", {"capacity_gb": 4000,
                                                        "storage_kind": "sata-ssd/hdd"}),
        ("psu", "minimum", "1200 W Platinum", {"wattage_w": 1200,
                                               "efficiency_rating": "Platinum"}),
        ("psu", "recommended", "1600 W Platinum", {"wattage_w": 1600,
                                                   "efficiency_rating": "Platinum"}),
        ("cooling", "recommended", "liquid or top-tier air (e.g. Noctua NH-D15)",
         {"example_part_names": "Noctua NH-D15"}),
    )
]


def run(runs: int = 50) -> dict[str, object]:
    build = twenty_part_build()
    tiers = tiers_from_rows(TIER_ROWS)
    report = check_build(build, tiers=tiers)
    for _ in range(5):  # warm up
        check_build(build, tiers=tiers)
    result: dict[str, object] = dict(summarize(time_ms(lambda: check_build(build,
                                                                           tiers=tiers), runs)))
    result.update({"results_per_run": len(report.results), "goal_ms": GOAL_MS})
    return result


if __name__ == "__main__":
    emit("full check of a 20-part build", run())
