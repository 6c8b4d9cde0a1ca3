"""Realistic parts for the core tests, built without the catalog.

Figures are the vendors' published ones where we know them (board power, memory, slot
width, length, connectors, sockets, channels, lanes); a figure we could not pin down is
left ``None``, as the catalog would. A few board/PSU layout figures (x16 slot spacing,
PSU cable counts) vary between revisions: tests that hinge on them pass them explicitly
(``parts.proart_x670e(x16_slot_spacing=2)``), so the factory can later be swapped for
catalog look-ups without changing what a test means.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.build.tiers import WorkloadTier, tiers_from_rows
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part, make_part_id

SOURCE = "vendor product page (test fixture)"
SOURCE_DATE = "2025-01-15"


def make_part(category: Category, vendor: str, name: str, price: float | None = None,
              **specs: Any) -> Part:
    """Any part; ``specs`` are figures by field name (``None`` values dropped)."""
    return Part(
        id=make_part_id(category, vendor, name), category=category, vendor=vendor,
        name=name, source=SOURCE, source_date=SOURCE_DATE, price_usd=price,
        specs={k: v for k, v in specs.items() if v is not None},
    )


def _make(category: Category, vendor: str, name: str, overrides: dict[str, Any],
          figures: dict[str, Any]) -> Part:
    """A factory part with ``overrides`` applied (``name``/``vendor``/``price`` included;
    a changed name gives a new id, as a different product would have)."""
    merged = {**figures, **overrides}
    vendor = merged.pop("vendor", vendor)
    name = merged.pop("name", name)
    return make_part(category, vendor, name, **merged)


class PartFactory:
    """One method per real part; keyword overrides replace figures (``price`` too)."""

    # --- accelerators ---------------------------------------------------------------
    def rtx_4090(self, **o: Any) -> Part:
        return _make(Category.ACCELERATOR, "NVIDIA", "GeForce RTX 4090", o, dict(
            price=1599, accelerator_type="gpu", market_segment="consumer", memory_gb=24,
            memory_type="GDDR6X", memory_bandwidth_gb_s=1008, fp32_tflops=82.6,
            bf16_tensor_tflops=165.2, fp16_tensor_tflops=165.2, tdp_w=450,
            form_factor="pcie", slot_width=3, board_length_mm=304, cooling="active",
            power_connectors="1x 16-pin", suggested_psu_w=850, pcie_generation=4))

    def rtx_4080(self, **o: Any) -> Part:
        return _make(Category.ACCELERATOR, "NVIDIA", "GeForce RTX 4080", o, dict(
            price=1199, accelerator_type="gpu", market_segment="consumer", memory_gb=16,
            memory_type="GDDR6X", tdp_w=320, form_factor="pcie", slot_width=3,
            board_length_mm=310, cooling="active", power_connectors="1x 16-pin",
            suggested_psu_w=750))

    def rtx_4070(self, **o: Any) -> Part:
        return _make(Category.ACCELERATOR, "NVIDIA", "GeForce RTX 4070", o, dict(
            price=599, accelerator_type="gpu", market_segment="consumer", memory_gb=12,
            memory_type="GDDR6X", tdp_w=200, form_factor="pcie", slot_width=2,
            board_length_mm=244, cooling="active", power_connectors="1x 16-pin",
            suggested_psu_w=650))

    def rx_7900_xtx(self, **o: Any) -> Part:
        return _make(Category.ACCELERATOR, "AMD", "Radeon RX 7900 XTX", o, dict(
            price=999, accelerator_type="gpu", market_segment="consumer", memory_gb=24,
            memory_type="GDDR6", tdp_w=355, form_factor="pcie", slot_width=2.5,
            board_length_mm=287, cooling="active", power_connectors="2x 8-pin",
            suggested_psu_w=800))

    def rtx_a6000(self, **o: Any) -> Part:
        return _make(Category.ACCELERATOR, "NVIDIA", "RTX A6000", o, dict(
            price=4650, accelerator_type="gpu", market_segment="workstation", memory_gb=48,
            memory_type="GDDR6", tdp_w=300, form_factor="pcie", slot_width=2,
            board_length_mm=267, cooling="blower", power_connectors="1x 8-pin CPU (EPS)",
            ecc=True))

    def a100_pcie_80gb(self, **o: Any) -> Part:
        return _make(Category.ACCELERATOR, "NVIDIA", "A100 PCIe 80 GB", o, dict(
            accelerator_type="gpu", market_segment="datacenter", memory_gb=80,
            memory_type="HBM2e", memory_bandwidth_gb_s=1935, tf32_tensor_tflops=156,
            bf16_tensor_tflops=312, fp16_tensor_tflops=312, tdp_w=300, form_factor="pcie",
            slot_width=2, board_length_mm=267, cooling="passive",
            power_connectors="1x 8-pin CPU (EPS)", ecc=True))

    def h100_sxm(self, **o: Any) -> Part:
        return _make(Category.ACCELERATOR, "NVIDIA", "H100 SXM5 80 GB", o, dict(
            accelerator_type="gpu", market_segment="datacenter", memory_gb=80,
            memory_type="HBM3", memory_bandwidth_gb_s=3350, bf16_tensor_tflops=989.4,
            fp16_tensor_tflops=989.4, tdp_w=700, form_factor="sxm", cooling="passive",
            ecc=True))

    def l4(self, **o: Any) -> Part:
        return _make(Category.ACCELERATOR, "NVIDIA", "L4", o, dict(
            accelerator_type="gpu", market_segment="datacenter", memory_gb=24,
            memory_type="GDDR6", bf16_tensor_tflops=121, fp16_tensor_tflops=121, tdp_w=72,
            form_factor="pcie", slot_width=1, board_length_mm=169, cooling="passive",
            power_connectors="None"))

    def tpu_v5e(self, **o: Any) -> Part:
        return _make(Category.ACCELERATOR, "Google", "Cloud TPU v5e", o, dict(
            accelerator_type="tpu", market_segment="cloud", memory_gb=16,
            memory_type="HBM2e", bf16_tensor_tflops=197, int8_tops=394,
            form_factor="cloud"))

    def aws_p4d(self, **o: Any) -> Part:
        return _make(Category.CLOUD, "Amazon Web Services", "p4d.24xlarge", o, dict(
            provider="AWS", instance_type="p4d.24xlarge", offering_kind="cloud",
            accelerator_count=8, vcpus=96, ram_gb=1152, price_per_hour_usd=32.77,
            region="us-east-1"))

    # --- CPUs -----------------------------------------------------------------------
    def ryzen_9_7950x(self, **o: Any) -> Part:
        return _make(Category.CPU, "AMD", "Ryzen 9 7950X", o, dict(
            price=699, cores=16, threads=32, base_clock_ghz=4.5, boost_clock_ghz=5.7,
            tdp_w=170, socket="AM5", memory_type="DDR5", memory_channels=2,
            max_memory_gb=192, pcie_lanes=28, pcie_generation=5))

    def ryzen_7_7700x(self, **o: Any) -> Part:
        return _make(Category.CPU, "AMD", "Ryzen 7 7700X", o, dict(
            price=399, cores=8, threads=16, tdp_w=105, socket="AM5", memory_type="DDR5",
            memory_channels=2, max_memory_gb=192, pcie_lanes=28, pcie_generation=5))

    def core_i7_14700k(self, **o: Any) -> Part:
        return _make(Category.CPU, "Intel", "Core i7-14700K", o, dict(
            price=409, cores=20, threads=28, tdp_w=125, socket="LGA1700",
            memory_type="DDR4/DDR5", memory_channels=2, max_memory_gb=192, pcie_lanes=20,
            pcie_generation=5))

    def tr_pro_7975wx(self, **o: Any) -> Part:
        return _make(Category.CPU, "AMD", "Ryzen Threadripper PRO 7975WX", o, dict(
            price=3899, cores=32, threads=64, tdp_w=350, socket="sTR5", memory_type="DDR5",
            memory_channels=8, max_memory_gb=2048, pcie_lanes=128, pcie_generation=5))

    def tr_pro_5955wx(self, **o: Any) -> Part:
        return _make(Category.CPU, "AMD", "Ryzen Threadripper PRO 5955WX", o, dict(
            price=1049, cores=16, threads=32, tdp_w=280, socket="sWRX8", memory_type="DDR4",
            memory_channels=8, max_memory_gb=2048, pcie_lanes=128, pcie_generation=4))

    def epyc_7443(self, **o: Any) -> Part:
        return _make(Category.CPU, "AMD", "EPYC 7443", o, dict(
            price=2010, cores=24, threads=48, tdp_w=200, socket="SP3", memory_type="DDR4",
            memory_channels=8, max_memory_gb=4096, pcie_lanes=128, pcie_generation=4,
            max_sockets=2))

    def epyc_7402p(self, **o: Any) -> Part:
        return _make(Category.CPU, "AMD", "EPYC 7402P", o, dict(
            price=1250, cores=24, threads=48, tdp_w=180, socket="SP3", memory_type="DDR4",
            memory_channels=8, max_memory_gb=4096, pcie_lanes=128, pcie_generation=4,
            max_sockets=1))

    def xeon_gold_6230r(self, **o: Any) -> Part:
        return _make(Category.CPU, "Intel", "Xeon Gold 6230R", o, dict(
            price=1894, cores=26, threads=52, tdp_w=150, socket="LGA3647",
            memory_type="DDR4", memory_channels=6, max_memory_gb=1024, pcie_lanes=48,
            pcie_generation=3, max_sockets=2))

    # --- motherboards -----------------------------------------------------------------
    def h12dsi_n6(self, **o: Any) -> Part:
        return _make(Category.MOTHERBOARD, "Supermicro", "H12DSi-N6", o, dict(
            socket="SP3", cpu_sockets=2, memory_type="DDR4", memory_slots=16,
            max_memory_gb=4096, board_form_factor="E-ATX", pcie_generation=4))

    def h12ssl_i(self, **o: Any) -> Part:
        return _make(Category.MOTHERBOARD, "Supermicro", "H12SSL-i", o, dict(
            socket="SP3", cpu_sockets=1, memory_type="DDR4", memory_slots=8,
            max_memory_gb=2048, board_form_factor="ATX", pcie_generation=4))

    def x11dpi_n(self, **o: Any) -> Part:
        return _make(Category.MOTHERBOARD, "Supermicro", "X11DPi-N", o, dict(
            socket="LGA3647", cpu_sockets=2, memory_type="DDR4", memory_slots=16,
            max_memory_gb=4096, board_form_factor="E-ATX", pcie_generation=3))

    def proart_x670e(self, **o: Any) -> Part:
        return _make(Category.MOTHERBOARD, "ASUS", "ProArt X670E-CREATOR WIFI", o, dict(
            price=499, chipset="X670E", socket="AM5", memory_type="DDR5", memory_slots=4,
            max_memory_gb=192, pcie_x16_slots=2, x16_slot_spacing=3, m2_slots=4,
            board_form_factor="ATX", pcie_generation=5))

    def wrx90e_sage(self, **o: Any) -> Part:
        return _make(Category.MOTHERBOARD, "ASUS", "Pro WS WRX90E-SAGE SE", o, dict(
            price=1299, chipset="WRX90", socket="sTR5", memory_type="DDR5", memory_slots=8,
            max_memory_gb=2048, pcie_x16_slots=7, x16_slot_spacing=1, m2_slots=4,
            board_form_factor="EEB", pcie_generation=5))

    # --- memory kits ------------------------------------------------------------------
    def ddr5_64gb_kit(self, **o: Any) -> Part:
        return _make(Category.MEMORY, "Corsair", "Vengeance 64GB (2x32GB) DDR5-6000", o, dict(
            price=190, memory_type="DDR5", speed_mt_s=6000, modules=2, module_size_gb=32,
            capacity_gb=64, registered=False, ecc=False))

    def ddr5_96gb_kit(self, **o: Any) -> Part:
        return _make(Category.MEMORY, "G.Skill", "Flare X5 96GB (2x48GB) DDR5-6000", o, dict(
            price=290, memory_type="DDR5", speed_mt_s=6000, modules=2, module_size_gb=48,
            capacity_gb=96, registered=False, ecc=False))

    def ddr4_32gb_kit(self, **o: Any) -> Part:
        return _make(Category.MEMORY, "Corsair", "Vengeance LPX 32GB (2x16GB) DDR4-3200", o,
                     dict(price=70, memory_type="DDR4", speed_mt_s=3200, modules=2,
                          module_size_gb=16, capacity_gb=32, registered=False, ecc=False))

    def ddr5_rdimm_32gb(self, **o: Any) -> Part:
        return _make(Category.MEMORY, "Kingston", "Server Premier 32GB DDR5-4800 ECC RDIMM", o,
                     dict(memory_type="DDR5", speed_mt_s=4800, modules=1, module_size_gb=32,
                          capacity_gb=32, registered=True, ecc=True))

    # --- storage ----------------------------------------------------------------------
    def samsung_990_pro_2tb(self, **o: Any) -> Part:
        return _make(Category.STORAGE, "Samsung", "990 PRO 2TB", o, dict(
            price=170, storage_kind="nvme", interface="PCIe 4.0 x4 NVMe", capacity_gb=2000,
            read_mb_s=7450, write_mb_s=6900, pcie_generation=4))

    def samsung_990_pro_1tb(self, **o: Any) -> Part:
        return _make(Category.STORAGE, "Samsung", "990 PRO 1TB", o, dict(
            price=110, storage_kind="nvme", interface="PCIe 4.0 x4 NVMe", capacity_gb=1000,
            read_mb_s=7450, write_mb_s=6900, pcie_generation=4))

    def samsung_870_evo_4tb(self, **o: Any) -> Part:
        return _make(Category.STORAGE, "Samsung", "870 EVO 4TB", o, dict(
            price=280, storage_kind="sata-ssd", interface="SATA 6Gb/s", capacity_gb=4000,
            read_mb_s=560, write_mb_s=530))

    def exos_x18_16tb(self, **o: Any) -> Part:
        return _make(Category.STORAGE, "Seagate", "Exos X18 16TB", o, dict(
            price=300, storage_kind="hdd", interface="SATA 6Gb/s", capacity_gb=16000,
            read_mb_s=270))

    # --- power supplies ---------------------------------------------------------------
    def rm850x(self, **o: Any) -> Part:
        return _make(Category.PSU, "Corsair", "RM850x (2024)", o, dict(
            price=150, wattage_w=850, efficiency_rating="80 PLUS Gold", atx_version="3.1",
            connectors_12vhpwr=1, connectors_pcie_8pin=3))

    def rm750e(self, **o: Any) -> Part:
        return _make(Category.PSU, "Corsair", "RM750e (2023)", o, dict(
            price=100, wattage_w=750, efficiency_rating="80 PLUS Gold", atx_version="3.0",
            connectors_12vhpwr=1, connectors_pcie_8pin=2))

    def evga_850_g5(self, **o: Any) -> Part:
        return _make(Category.PSU, "EVGA", "SuperNOVA 850 G5", o, dict(
            price=130, wattage_w=850, efficiency_rating="80 PLUS Gold", atx_version="2.52",
            connectors_12vhpwr=0, connectors_pcie_8pin=6))

    def prime_tx_1600(self, **o: Any) -> Part:
        return _make(Category.PSU, "Seasonic", "PRIME TX-1600", o, dict(
            price=500, wattage_w=1600, efficiency_rating="80 PLUS Titanium",
            atx_version="3.0", connectors_12vhpwr=2, connectors_pcie_8pin=6))

    # --- coolers ----------------------------------------------------------------------
    def nh_d15(self, **o: Any) -> Part:
        return _make(Category.COOLER, "Noctua", "NH-D15", o, dict(
            price=110, cooler_kind="air", height_mm=165,
            supported_sockets="AM4, AM5, LGA1700, LGA1851, LGA1200, LGA115x, LGA2066"))

    def dark_rock_pro_5(self, **o: Any) -> Part:
        return _make(Category.COOLER, "be quiet!", "Dark Rock Pro 5", o, dict(
            price=100, cooler_kind="air", cooling_capacity_w=270, height_mm=168,
            supported_sockets="AM4, AM5, LGA1700, LGA1200, LGA115x"))

    def pure_rock_2(self, **o: Any) -> Part:
        return _make(Category.COOLER, "be quiet!", "Pure Rock 2", o, dict(
            price=45, cooler_kind="air", cooling_capacity_w=150, height_mm=155,
            supported_sockets="AM4, AM5, LGA1700, LGA1200, LGA115x"))

    def nh_u14s_tr5(self, **o: Any) -> Part:
        return _make(Category.COOLER, "Noctua", "NH-U14S TR5-SP6", o, dict(
            price=150, cooler_kind="air", height_mm=165, supported_sockets="sTR5, SP6"))

    # --- cases --------------------------------------------------------------------------
    def meshify_2(self, **o: Any) -> Part:
        return _make(Category.CASE, "Fractal Design", "Meshify 2", o, dict(
            price=160, case_kind="tower", max_gpu_length_mm=467, max_cooler_height_mm=185,
            expansion_slots=7, supported_board_form_factors="E-ATX, ATX, mATX, Mini-ITX"))

    def define_7_xl(self, **o: Any) -> Part:
        return _make(Category.CASE, "Fractal Design", "Define 7 XL", o, dict(
            price=230, case_kind="tower", max_gpu_length_mm=491, max_cooler_height_mm=185,
            expansion_slots=9,
            supported_board_form_factors="SSI-EEB, E-ATX, ATX, mATX, Mini-ITX"))

    def nr200p(self, **o: Any) -> Part:
        return _make(Category.CASE, "Cooler Master", "MasterBox NR200P", o, dict(
            price=100, case_kind="tower", max_gpu_length_mm=330, max_cooler_height_mm=155,
            expansion_slots=3, supported_board_form_factors="Mini-ITX"))

    def rackmount_4u(self, **o: Any) -> Part:
        return _make(Category.CASE, "Rosewill", "RSV-L4500U", o, dict(
            price=190, case_kind="rackmount", max_gpu_length_mm=None, expansion_slots=7,
            supported_board_form_factors="E-ATX, ATX, mATX"))


TIER_ROWS: list[dict[str, Any]] = [
    # The first seed article's tables, as the catalog's workload_tiers rows would hold them.
    dict(tier="demanding", component="cpu", level="minimum", cores=16, threads=32,
         description="16-core / 32-thread",
         example_part_names="AMD Ryzen Threadripper 5955WX; Intel Xeon W-3345"),
    dict(tier="demanding", component="cpu", level="recommended", cores=32,
         description="32-core+", example_part_names="AMD Threadripper PRO 7995WX"),
    dict(tier="demanding", component="gpu", level="minimum", memory_gb=24,
         description="NVIDIA RTX 4090 (24 GB) / NVIDIA A100 (40-80 GB)",
         example_part_names="NVIDIA GeForce RTX 4090; NVIDIA A100"),
    dict(tier="demanding", component="gpu", level="recommended", memory_gb=80,
         description="H100 or multiple A100s", example_part_names="NVIDIA H100; NVIDIA A100"),
    dict(tier="demanding", component="ram", level="minimum", ram_gb=128,
         description="128 GB DDR5 RAM"),
    dict(tier="demanding", component="ram", level="recommended", ram_gb=256,
         description="256 GB or more"),
    dict(tier="demanding", component="storage_primary", level="recommended",
         capacity_gb=2000, storage_kind="nvme", description="2 TB NVMe Gen 4 SSD"),
    dict(tier="demanding", component="storage_secondary", level="recommended",
         capacity_gb=4000, storage_kind="sata-ssd/hdd",
         description="4-8 TB SATA SSD / Enterprise HDD"),
    dict(tier="demanding", component="psu", level="minimum", wattage_w=1200,
         efficiency_rating="Platinum", description="1200W Platinum-rated PSU"),
    dict(tier="demanding", component="psu", level="recommended", wattage_w=1600,
         efficiency_rating="Platinum", description="1600W Platinum PSU for multi-GPU"),
    dict(tier="demanding", component="cooling", level="recommended",
         description="Custom liquid cooling or top-tier air cooling (e.g. Noctua NH-D15)",
         example_part_names="Noctua NH-D15"),
    dict(tier="less-demanding", component="cpu", level="minimum", cores=8, threads=16,
         description="8-core / 16-thread", example_part_names="AMD Ryzen 7 7700X"),
    dict(tier="less-demanding", component="cpu", level="recommended", cores=12, threads=24,
         description="12-core / 24-thread", example_part_names="Intel Core i7-14700K"),
    dict(tier="less-demanding", component="gpu", level="minimum", memory_gb=12,
         description="NVIDIA RTX 4070 (12 GB) / RTX 4080 (16 GB)"),
    dict(tier="less-demanding", component="gpu", level="recommended", memory_gb=24,
         description="NVIDIA L4 GPU for efficient AI inference", example_part_names="NVIDIA L4"),
    dict(tier="less-demanding", component="ram", level="minimum", ram_gb=32,
         description="32 GB DDR5 RAM"),
    dict(tier="less-demanding", component="ram", level="recommended", ram_gb=64,
         description="64 GB RAM for larger batch sizes"),
    dict(tier="less-demanding", component="storage_primary", level="recommended",
         capacity_gb=1000, storage_kind="nvme", description="1 TB NVMe SSD"),
    dict(tier="less-demanding", component="storage_secondary", level="recommended",
         capacity_gb=2000, storage_kind="hdd", description="2-4 TB HDD"),
    dict(tier="less-demanding", component="psu", level="minimum", wattage_w=750,
         efficiency_rating="Gold", description="750W Gold-rated PSU"),
    dict(tier="less-demanding", component="psu", level="recommended", wattage_w=850,
         description="850W PSU for upgrade flexibility"),
    dict(tier="less-demanding", component="cooling", level="recommended",
         description="High-end air cooling, with temperature monitoring"),
]
for _row in TIER_ROWS:
    _row.setdefault("source", "seed article 001: Deep Learning Hardware [Architecture + "
                              "Requirements] (Cherry Servers)")
    _row.setdefault("source_date", "2025-02-08")


@pytest.fixture
def parts() -> PartFactory:
    return PartFactory()


@pytest.fixture
def tiers() -> dict[str, WorkloadTier]:
    return tiers_from_rows(TIER_ROWS)


@pytest.fixture(scope="session")
def part_factory() -> PartFactory:
    """Session-wide factory, for property tests (parts are immutable, so sharing is safe)."""
    return PartFactory()


@pytest.fixture(scope="session")
def tier_set() -> dict[str, WorkloadTier]:
    return tiers_from_rows(TIER_ROWS)


def build_of(*items: Part | tuple[Part, int], tier: str | None = None) -> Build:
    """A build from parts (or ``(part, quantity)`` pairs)."""
    build = Build("Test build", tier=tier)
    for entry in items:
        part, quantity = entry if isinstance(entry, tuple) else (entry, 1)
        build.add(part, quantity)
    return build


@pytest.fixture
def make_build() -> Callable[..., Build]:
    return build_of


@pytest.fixture
def workstation(parts: PartFactory) -> Build:
    """A complete, sensible single-4090 machine: everything should pass or be noted."""
    return build_of(
        parts.ryzen_9_7950x(), parts.proart_x670e(), (parts.ddr5_64gb_kit(), 1),
        parts.rtx_4090(), parts.samsung_990_pro_2tb(), parts.rm850x(),
        parts.dark_rock_pro_5(), parts.meshify_2())
