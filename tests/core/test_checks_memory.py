"""System memory: type, slots, capacity, channels, RDIMM vs UDIMM, RAM vs VRAM."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.checks import CheckResult, run_checks

if TYPE_CHECKING:
    from tests.core.conftest import PartFactory

MakeBuild = Callable[..., Build]


def one(build: Build, check_id: str) -> CheckResult:
    found = [r for r in run_checks(build) if r.id == check_id]
    assert len(found) == 1, f"expected one {check_id}, got {found}"
    return found[0]


def test_ddr4_kit_on_ddr5_board_fails(parts: PartFactory, make_build: MakeBuild) -> None:
    build = make_build(parts.ryzen_9_7950x(), parts.proart_x670e(), parts.ddr4_32gb_kit())
    r = one(build, "memory.type")
    assert r.status == "fail" and "DDR4" in r.message and "DDR5" in r.message
    assert parts.ddr4_32gb_kit().id in r.part_ids


def test_cpu_taking_both_generations_follows_the_board(parts: PartFactory,
                                                       make_build: MakeBuild) -> None:
    ddr5_board = parts.proart_x670e(socket="LGA1700")
    ok = make_build(parts.core_i7_14700k(), ddr5_board, parts.ddr5_64gb_kit())
    assert one(ok, "memory.type").status == "pass"
    ddr4_board = parts.proart_x670e(socket="LGA1700", memory_type="DDR4")
    bad = make_build(parts.core_i7_14700k(), ddr4_board, parts.ddr5_64gb_kit())
    assert one(bad, "memory.type").status == "fail"


def test_cpu_and_board_that_share_no_memory_type_fail(parts: PartFactory,
                                                      make_build: MakeBuild) -> None:
    build = make_build(parts.tr_pro_5955wx(), parts.wrx90e_sage(), parts.ddr5_rdimm_32gb())
    assert one(build, "memory.type").status == "fail"


def test_too_many_modules_fail(parts: PartFactory, make_build: MakeBuild) -> None:
    build = make_build(parts.ryzen_9_7950x(), parts.proart_x670e(), (parts.ddr5_64gb_kit(), 3))
    r = one(build, "memory.slots")
    assert r.status == "fail" and "6 modules" in r.message and "4 slots" in r.message
    build.set_quantity(parts.ddr5_64gb_kit().id, 2)
    assert one(build, "memory.slots").status == "pass"


def test_capacity_above_the_platform_maximum_fails(parts: PartFactory,
                                                   make_build: MakeBuild) -> None:
    build = make_build(parts.ryzen_9_7950x(), parts.proart_x670e(max_memory_gb=128),
                       (parts.ddr5_96gb_kit(), 2))
    r = one(build, "memory.capacity")
    assert r.status == "fail" and "192 GB exceeds" in r.message and "128 GB" in r.message


def test_capacity_exactly_at_the_maximum_passes(parts: PartFactory,
                                                make_build: MakeBuild) -> None:
    build = make_build(parts.ryzen_9_7950x(), parts.proart_x670e(), (parts.ddr5_96gb_kit(), 2))
    assert one(build, "memory.capacity").status == "pass"


def test_half_the_channels_warns(parts: PartFactory, make_build: MakeBuild) -> None:
    build = make_build(parts.tr_pro_7975wx(), parts.wrx90e_sage(), (parts.ddr5_rdimm_32gb(), 4))
    r = one(build, "memory.channels")
    assert r.status == "warn" and "4 of" in r.message and "8 memory channels" in r.message
    build.set_quantity(parts.ddr5_rdimm_32gb().id, 8)
    assert one(build, "memory.channels").status == "pass"


def test_uneven_population_warns(parts: PartFactory, make_build: MakeBuild) -> None:
    single = parts.ddr5_64gb_kit(modules=1, capacity_gb=32, name="Vengeance 32GB DDR5-6000")
    build = make_build(parts.ryzen_9_7950x(), (single, 3))
    assert "unevenly" in one(build, "memory.channels").message


def test_udimm_on_threadripper_fails(parts: PartFactory, make_build: MakeBuild) -> None:
    r = one(make_build(parts.tr_pro_7975wx(), parts.ddr5_64gb_kit()), "memory.registered")
    assert r.status == "fail" and "RDIMM" in r.message


def test_rdimm_on_am5_fails(parts: PartFactory, make_build: MakeBuild) -> None:
    r = one(make_build(parts.ryzen_9_7950x(), parts.ddr5_rdimm_32gb()), "memory.registered")
    assert r.status == "fail" and "UDIMM" in r.message


def test_rdimm_on_threadripper_passes(parts: PartFactory, make_build: MakeBuild) -> None:
    build = make_build(parts.tr_pro_7975wx(), (parts.ddr5_rdimm_32gb(), 8))
    assert one(build, "memory.registered").status == "pass"


def test_unknown_registered_flag_is_unknown(parts: PartFactory, make_build: MakeBuild) -> None:
    kit = parts.ddr5_64gb_kit(registered=None)
    r = one(make_build(parts.ryzen_9_7950x(), kit), "memory.registered")
    assert r.status == "unknown" and "registered (RDIMM) of" in r.message


def test_less_ram_than_vram_warns(parts: PartFactory, make_build: MakeBuild) -> None:
    r = one(make_build(parts.ddr4_32gb_kit(), (parts.rtx_4090(), 2)), "memory.ram_vs_vram")
    assert r.status == "warn" and "32 GB" in r.message and "48 GB" in r.message
    assert "96 GB" in r.suggestion


def test_between_one_and_two_times_vram_passes_with_the_rule(
        parts: PartFactory, make_build: MakeBuild) -> None:
    r = one(make_build(parts.ddr5_64gb_kit(), (parts.rtx_4090(), 2)), "memory.ram_vs_vram")
    assert r.status == "pass" and "2x" in r.message
    r2 = one(make_build((parts.ddr5_64gb_kit(), 2), (parts.rtx_4090(), 2)), "memory.ram_vs_vram")
    assert "meets the common 2x" in r2.message
