"""Workload tiers: parsing catalog rows, and each component graded against them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.build.tiers import WorkloadTier, tiers_from_rows
from dlhw_desktop.core.checks import CheckResult, run_checks
from dlhw_desktop.core.errors import CatalogError

if TYPE_CHECKING:
    from tests.core.conftest import PartFactory

MakeBuild = Callable[..., Build]
Tiers = dict[str, WorkloadTier]


def graded(build: Build, tiers: Tiers, check_id: str) -> CheckResult:
    found = [r for r in run_checks(build, tiers=tiers) if r.id == check_id]
    assert len(found) == 1, f"expected one {check_id}, got {found}"
    return found[0]


# --- parsing ------------------------------------------------------------------------------

def test_rows_become_tiers(tiers: Tiers) -> None:
    assert set(tiers) == {"demanding", "less-demanding"}
    minimum, recommended = tiers["demanding"].levels("cpu")
    assert minimum is not None and minimum.cores == 16 and minimum.threads == 32
    assert recommended is not None and recommended.cores == 32
    assert minimum.example_part_names == ("AMD Ryzen Threadripper 5955WX", "Intel Xeon W-3345")
    assert tiers["demanding"].levels("cooling")[0] is None
    assert tiers["demanding"].label == "Demanding"


def _row(**values: Any) -> dict[str, Any]:
    base = dict(tier="demanding", component="ram", level="minimum", description="x",
                source="s", source_date="2025-01-01")
    base.update(values)
    return base


def test_numbers_may_arrive_as_text() -> None:
    tier = tiers_from_rows([_row(ram_gb="128")])["demanding"]
    req = tier.get("ram", "minimum")
    assert req is not None and req.ram_gb == 128.0


@pytest.mark.parametrize("bad", [
    {"tier": "extreme"}, {"component": "gpus"}, {"level": "ideal"}, {"ram_gb": "lots"},
    {"cores": -4},
])
def test_malformed_rows_raise_catalog_error(bad: dict[str, Any]) -> None:
    with pytest.raises(CatalogError):
        tiers_from_rows([_row(**bad)])


def test_duplicate_rows_raise_catalog_error() -> None:
    with pytest.raises(CatalogError, match="twice"):
        tiers_from_rows([_row(ram_gb=128), _row(ram_gb=256)])


def test_secondary_storage_kinds_split() -> None:
    tier = tiers_from_rows([_row(component="storage_secondary", level="recommended",
                                 storage_kind="sata-ssd/hdd", capacity_gb=4000)])
    req = tier["demanding"].get("storage_secondary", "recommended")
    assert req is not None and req.storage_kinds == ("sata-ssd", "hdd")


# --- grading ------------------------------------------------------------------------------

@pytest.mark.parametrize(("cpu", "status"), [
    ("ryzen_7_7700x", "fail"),      # 8 cores < 16
    ("ryzen_9_7950x", "warn"),      # exactly the 16/32 minimum
    ("tr_pro_7975wx", "pass"),      # 32 cores: the recommendation
])
def test_cpu_against_demanding(parts: PartFactory, make_build: MakeBuild, tiers: Tiers,
                               cpu: str, status: str) -> None:
    build = make_build(getattr(parts, cpu)(), tier="demanding")
    assert graded(build, tiers, "tier.cpu").status == status


def test_cpu_threads_count_too(parts: PartFactory, make_build: MakeBuild, tiers: Tiers) -> None:
    # 12 cores but only 16 threads: meets less-demanding minimum (8/16), not 12/24.
    cpu = parts.ryzen_7_7700x(cores=12, threads=16)
    r = graded(make_build(cpu, tier="less-demanding"), tiers, "tier.cpu")
    assert r.status == "warn" and "12 cores / 24 threads" in r.message


@pytest.mark.parametrize(("card", "status"), [
    ("rtx_4070", "fail"), ("rtx_4090", "warn"), ("a100_pcie_80gb", "pass")])
def test_gpu_memory_against_demanding(parts: PartFactory, make_build: MakeBuild,
                                      tiers: Tiers, card: str, status: str) -> None:
    build = make_build(getattr(parts, card)(), tier="demanding")
    assert graded(build, tiers, "tier.gpu").status == status


def test_gpu_is_judged_per_card_not_summed(parts: PartFactory, make_build: MakeBuild,
                                           tiers: Tiers) -> None:
    build = make_build((parts.rtx_4070(), 2), tier="demanding")  # 24 GB total, 12 per card
    r = graded(build, tiers, "tier.gpu")
    assert r.status == "fail" and "12 GB" in r.message


@pytest.mark.parametrize(("kits", "status"), [(1, "fail"), (2, "warn"), (4, "pass")])
def test_ram_thresholds(parts: PartFactory, make_build: MakeBuild, tiers: Tiers,
                        kits: int, status: str) -> None:
    build = make_build((parts.ddr5_64gb_kit(), kits), tier="demanding")  # 64/128/256 GB
    r = graded(build, tiers, "tier.ram")
    assert r.status == status
    assert f"{64 * kits} GB" in r.message


@pytest.mark.parametrize(("psu", "status"), [
    ({"wattage_w": 1600, "efficiency_rating": "80 PLUS Titanium"}, "pass"),
    ({"wattage_w": 1300, "efficiency_rating": "80 PLUS Platinum"}, "warn"),
    ({"wattage_w": 1200, "efficiency_rating": "80 PLUS Gold"}, "fail"),
    ({"wattage_w": 1000, "efficiency_rating": "80 PLUS Titanium"}, "fail"),
])
def test_psu_wattage_and_efficiency(parts: PartFactory, make_build: MakeBuild, tiers: Tiers,
                                    psu: dict[str, Any], status: str) -> None:
    build = make_build(parts.prime_tx_1600(**psu), tier="demanding")
    assert graded(build, tiers, "tier.psu").status == status


def test_psu_without_rating_is_unknown(parts: PartFactory, make_build: MakeBuild,
                                       tiers: Tiers) -> None:
    build = make_build(parts.rm850x(efficiency_rating=None), tier="less-demanding")
    r = graded(build, tiers, "tier.psu")
    assert r.status == "unknown" and "80 PLUS of Corsair RM850x (2024)" in r.message


def test_storage_primary_and_secondary(parts: PartFactory, make_build: MakeBuild,
                                       tiers: Tiers) -> None:
    build = make_build(parts.samsung_990_pro_2tb(), tier="demanding")
    assert graded(build, tiers, "tier.storage_primary").status == "pass"
    assert graded(build, tiers, "tier.storage_secondary").status == "warn"
    build.add(parts.samsung_870_evo_4tb())
    assert graded(build, tiers, "tier.storage_secondary").status == "pass"


def test_small_or_wrong_kind_primary_drive_warns(parts: PartFactory, make_build: MakeBuild,
                                                 tiers: Tiers) -> None:
    small = make_build(parts.samsung_990_pro_1tb(), tier="demanding")
    assert graded(small, tiers, "tier.storage_primary").status == "warn"
    sata = make_build(parts.samsung_870_evo_4tb(), tier="less-demanding")
    assert graded(sata, tiers, "tier.storage_primary").status == "warn"


def test_two_nvme_drives_one_counts_as_primary(parts: PartFactory, make_build: MakeBuild,
                                               tiers: Tiers) -> None:
    # The secondary row wants HDDs; a second NVMe drive does not satisfy it.
    build = make_build((parts.samsung_990_pro_2tb(), 2), tier="less-demanding")
    assert graded(build, tiers, "tier.storage_secondary").status == "warn"
    build.add(parts.exos_x18_16tb())
    assert graded(build, tiers, "tier.storage_secondary").status == "pass"


def test_cooling_by_example_name_and_by_rating(parts: PartFactory, make_build: MakeBuild,
                                               tiers: Tiers) -> None:
    named = make_build(parts.ryzen_9_7950x(), parts.nh_d15(), tier="demanding")
    assert graded(named, tiers, "tier.cooling").status == "pass"
    weak = make_build(parts.ryzen_9_7950x(), parts.pure_rock_2(), tier="demanding")
    assert graded(weak, tiers, "tier.cooling").status == "warn"  # 150 W air for 170 W
    strong = make_build(parts.ryzen_9_7950x(), parts.dark_rock_pro_5(), tier="less-demanding")
    assert graded(strong, tiers, "tier.cooling").status == "pass"


def test_absent_component_is_unknown(parts: PartFactory, make_build: MakeBuild,
                                     tiers: Tiers) -> None:
    r = graded(make_build(parts.ryzen_9_7950x(), tier="demanding"), tiers, "tier.gpu")
    assert r.status == "unknown" and "none chosen" in r.message


def test_no_tier_means_no_tier_results(parts: PartFactory, workstation: Build,
                                       tiers: Tiers) -> None:
    assert not [r for r in run_checks(workstation, tiers=tiers) if r.kind == "workload"]


def test_tier_missing_from_catalog_is_unknown(workstation: Build) -> None:
    workstation.set_tier("demanding")
    results = [r for r in run_checks(workstation, tiers={}) if r.kind == "workload"]
    assert [(r.id, r.status) for r in results] == [("tier.unavailable", "unknown")]
