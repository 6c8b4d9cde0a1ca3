"""Every system the seed articles name is in the catalog, with the figures a buyer needs."""

from __future__ import annotations

import pytest

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.fields import Category

# ../shared/seeds: 000 (A100, TPU v4, MI200, FPGA, ZK-Storage WS5000), 001 (tier tables,
# hosted servers, cloud), 002 (A100, RTX 4090, Quadro RTX 8000, Radeon VII).
SEED_ACCELERATORS = [
    "nvidia-a100-pcie-40-gb", "nvidia-a100-sxm4-40-gb", "nvidia-a100-pcie-80-gb",
    "nvidia-a100-sxm4-80-gb", "google-tpu-v3", "google-tpu-v4", "amd-instinct-mi210",
    "amd-instinct-mi250", "amd-instinct-mi250x", "amd-alveo-u250", "nvidia-h100-sxm5-80-gb",
    "nvidia-h100-pcie-80-gb", "nvidia-geforce-rtx-4070", "nvidia-geforce-rtx-4080",
    "nvidia-geforce-rtx-4090", "nvidia-l4", "nvidia-a10", "nvidia-a2", "nvidia-a40",
    "nvidia-tesla-p4", "nvidia-quadro-k2200", "nvidia-quadro-k4200", "nvidia-v100-pcie-16-gb",
    "nvidia-v100-sxm2-32-gb", "nvidia-geforce-rtx-3060-12-gb", "nvidia-geforce-rtx-3090",
    "nvidia-quadro-rtx-8000", "amd-radeon-vii",
]
SEED_CPUS = [
    "amd-ryzen-threadripper-pro-5955wx", "intel-xeon-w-3345",
    "amd-ryzen-threadripper-pro-7995wx", "amd-ryzen-7-7700x", "intel-core-i7-14700k",
    "amd-epyc-7402p", "amd-epyc-7443", "intel-xeon-gold-6230r",
]
TODAY = [
    "accelerator/nvidia-h200-sxm-141-gb", "accelerator/nvidia-b200",
    "accelerator/amd-instinct-mi300x", "accelerator/intel-gaudi-3",
    "accelerator/nvidia-geforce-rtx-5090", "accelerator/nvidia-rtx-6000-ada-generation",
    "cpu/amd-ryzen-9-9950x", "cpu/intel-core-ultra-9-285k",
]


@pytest.mark.parametrize("slug", SEED_ACCELERATORS)
def test_seed_accelerators_are_present_with_memory(catalog: Catalog, slug: str) -> None:
    part = catalog.get(f"accelerator/{slug}")
    assert part.number("memory_gb") or part.get("accelerator_type") == "fpga"


@pytest.mark.parametrize("slug", SEED_CPUS)
def test_seed_cpus_are_present(catalog: Catalog, slug: str) -> None:
    part = catalog.get(f"cpu/{slug}")
    assert part.number("cores") and part.get("socket")


@pytest.mark.parametrize("part_id", TODAY)
def test_current_parts_are_present(catalog: Catalog, part_id: str) -> None:
    catalog.get(part_id)


def test_seed_headline_figures(catalog: Catalog) -> None:
    """The first seed article's figures, checked against the vendor datasheets we carry."""
    a100 = catalog.get("accelerator/nvidia-a100-pcie-40-gb")
    assert a100.number("bf16_tensor_tflops") == 312  # dense, NVIDIA A100 datasheet
    assert a100.number("memory_bandwidth_gb_s") == pytest.approx(1555, abs=5)
    assert catalog.get("accelerator/google-tpu-v4").number("bf16_tensor_tflops") == 275


def test_sparse_figures_are_never_in_dense_columns(catalog: Catalog) -> None:
    for part in catalog.parts(Category.ACCELERATOR):
        for dense in ("fp16_tensor_tflops", "fp8_tensor_tflops", "int8_tops"):
            sparse = part.number(dense + "_sparse")
            value = part.number(dense)
            if sparse is not None and value is not None:
                assert value < sparse, part.id


def test_seed_storage_system_is_marked_as_vendor_claim(catalog: Catalog) -> None:
    ws5000 = catalog.get("storage/zk-storage-ws5000")
    assert "claim" in (ws5000.notes or "").lower()


def test_every_platform_category_is_stocked(catalog: Catalog) -> None:
    counts = catalog.info().counts
    for category in Category:
        assert counts[category.value] >= 10, category


def test_hosted_configurations_of_the_seed(catalog: Catalog) -> None:
    hosted = [p for p in catalog.parts(Category.CLOUD) if p.get("offering_kind") == "dedicated"]
    cpus = " ".join(p.text("cpu_model") + " " + p.name for p in hosted)
    for cpu in ("7402P", "7443", "6230R"):
        assert cpu in cpus
    providers = {p.get("provider") or p.vendor for p in catalog.parts(Category.CLOUD)}
    assert {"AWS", "Google Cloud", "Microsoft Azure"} <= providers


def test_workload_tiers_cover_both_tiers_and_every_component(catalog: Catalog) -> None:
    rows = catalog.tier_rows()
    for tier in ("demanding", "less-demanding"):
        components = {r["component"] for r in rows if r["tier"] == tier}
        assert {"cpu", "gpu", "ram", "storage_primary", "psu", "cooling"} <= components


def test_cloud_offerings_point_at_real_accelerators(catalog: Catalog) -> None:
    for offer in catalog.parts(Category.CLOUD):
        ref = offer.get("accelerator_id")
        if ref:
            assert catalog.get(str(ref)).category == Category.ACCELERATOR
