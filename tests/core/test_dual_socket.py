"""Dual-socket boards: two CPUs (and two coolers) in one build, and what doubles."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from dlhw_desktop.core.build.build import Build, Slot
from dlhw_desktop.core.build.buildfile import dumps, loads
from dlhw_desktop.core.build.tiers import WorkloadTier
from dlhw_desktop.core.checks import CheckResult, run_checks
from dlhw_desktop.core.checks.budget import budget_of
from dlhw_desktop.core.checks.context import CheckContext

if TYPE_CHECKING:
    from tests.core.conftest import PartFactory

MakeBuild = Callable[..., Build]


def one(build: Build, check_id: str) -> CheckResult:
    found = [r for r in run_checks(build) if r.id == check_id]
    assert len(found) == 1, f"expected one {check_id}, got {found}"
    return found[0]


def ids(build: Build) -> set[str]:
    return {r.id for r in run_checks(build)}


def test_a_build_takes_two_cpus_and_two_coolers_but_not_three(parts: PartFactory) -> None:
    build = Build("server")
    build.add(parts.epyc_7443(), 2)
    build.add(parts.nh_u14s_tr5(), 2)
    assert [i.quantity for i in build.items(Slot.CPU)] == [2]
    assert Slot.CPU.max_count == 2 and Slot.COOLER.max_count == 2
    with pytest.raises(ValueError, match="at most 2"):
        build.set_quantity(parts.epyc_7443().id, 3)


def test_two_dual_socket_cpus_on_a_dual_socket_board_pass(parts: PartFactory,
                                                           make_build: MakeBuild) -> None:
    r = one(make_build((parts.epyc_7443(), 2), parts.h12dsi_n6()), "compat.cpu_sockets")
    assert r.status == "pass" and "2x AMD EPYC 7443" in r.message
    assert r.figures["board_sockets"] == 2


def test_two_cpus_on_a_single_socket_board_fail(parts: PartFactory,
                                                make_build: MakeBuild) -> None:
    r = one(make_build((parts.epyc_7443(), 2), parts.h12ssl_i()), "compat.cpu_sockets")
    assert r.status == "fail" and "1 socket" in r.message


def test_two_single_socket_only_parts_fail_even_on_a_dual_board(parts: PartFactory,
                                                                make_build: MakeBuild) -> None:
    r = one(make_build((parts.epyc_7402p(), 2), parts.h12dsi_n6()), "compat.cpu_sockets")
    assert r.status == "fail" and "single-socket" in r.message
    assert "P suffix" in r.suggestion


def test_unknown_socket_capability_is_unknown_not_a_guess(parts: PartFactory,
                                                          make_build: MakeBuild) -> None:
    cpu = parts.epyc_7443(max_sockets=None)
    r = one(make_build((cpu, 2), parts.h12dsi_n6()), "compat.cpu_sockets")
    assert r.status == "unknown" and "max sockets" in r.message


def test_one_cpu_on_a_dual_socket_board_warns_about_dead_slots(parts: PartFactory,
                                                               make_build: MakeBuild) -> None:
    r = one(make_build(parts.epyc_7443(), parts.h12dsi_n6()), "compat.cpu_sockets")
    assert r.status == "warn" and "empty socket" in r.message


def test_one_cpu_on_a_single_socket_board_says_nothing(parts: PartFactory,
                                                       make_build: MakeBuild) -> None:
    assert "compat.cpu_sockets" not in ids(make_build(parts.epyc_7402p(), parts.h12ssl_i()))


def test_both_cpus_count_in_the_power_budget(parts: PartFactory,
                                             make_build: MakeBuild) -> None:
    single = budget_of(CheckContext(make_build(parts.epyc_7443(), parts.h12dsi_n6())))
    dual = budget_of(CheckContext(make_build((parts.epyc_7443(), 2), parts.h12dsi_n6())))
    assert single.cpu_w == 200 and dual.cpu_w == 400
    assert dual.sustained_w is not None and single.sustained_w is not None
    assert dual.sustained_w - single.sustained_w == pytest.approx(200)


def test_each_cpu_needs_its_own_cooler(parts: PartFactory, make_build: MakeBuild) -> None:
    cooler = parts.nh_u14s_tr5(cooling_capacity_w=250, supported_sockets="SP3, sTR5")
    short = one(make_build((parts.epyc_7443(), 2), parts.h12dsi_n6(), cooler), "cooling.cpu")
    assert short.status == "fail" and "own cooler" in short.message
    enough = one(make_build((parts.epyc_7443(), 2), parts.h12dsi_n6(), (cooler, 2)),
                 "cooling.cpu")
    assert enough.status == "pass"


def test_two_sockets_have_twice_the_memory_channels(parts: PartFactory,
                                                    make_build: MakeBuild) -> None:
    kit = parts.ddr4_32gb_kit(registered=True, ecc=True)  # 2 modules per kit
    half = one(make_build((parts.epyc_7443(), 2), parts.h12dsi_n6(), (kit, 4)),
               "memory.channels")
    assert half.status == "warn" and "8 of 2x AMD EPYC 7443's 16" in half.message
    full = one(make_build((parts.epyc_7443(), 2), parts.h12dsi_n6(), (kit, 8)),
               "memory.channels")
    assert full.status == "pass" and "16 channels" in full.message


def test_the_cpu_memory_limit_is_per_socket(parts: PartFactory, make_build: MakeBuild) -> None:
    cpu = parts.xeon_gold_6230r()  # 1 TB per socket
    kit = parts.ddr4_32gb_kit(capacity_gb=256, module_size_gb=128, registered=True)
    one_cpu = one(make_build(cpu, parts.x11dpi_n(), (kit, 6)), "memory.capacity")
    two_cpus = one(make_build((cpu, 2), parts.x11dpi_n(), (kit, 6)), "memory.capacity")
    assert one_cpu.status == "fail" and two_cpus.status == "pass"  # 1.5 TB


@pytest.mark.parametrize(("cpu", "board", "lanes"), [
    ("xeon_gold_6230r", "x11dpi_n", 96),  # Intel: each socket brings its own 48
    ("epyc_7443", "h12dsi_n6", 128),  # EPYC: 64 of each CPU's 128 link the sockets
])
def test_two_socket_pcie_lanes_by_vendor(parts: PartFactory, make_build: MakeBuild,
                                         cpu: str, board: str, lanes: int) -> None:
    build = make_build((getattr(parts, cpu)(), 2), getattr(parts, board)(),
                       (parts.a100_pcie_80gb(), 4))
    r = one(build, "compat.pcie_lanes")
    assert r.figures["cpu_lanes"] == lanes
    assert "2x" in r.message


def test_tier_check_counts_both_cpus_cores(parts: PartFactory, make_build: MakeBuild,
                                           tiers: dict[str, WorkloadTier]) -> None:
    """The demanding tier recommends 32 cores: one 24-core EPYC 7443 is below it, two are
    48 cores."""

    def graded(count: int) -> CheckResult:
        build = make_build((parts.epyc_7443(), count), parts.h12dsi_n6(), tier="demanding")
        return next(r for r in run_checks(build, tiers=tiers) if r.id == "tier.cpu")

    assert graded(1).status == "warn"
    two = graded(2)
    assert two.status == "pass" and "2x AMD EPYC 7443 (48 cores" in two.message


def test_two_cpus_survive_a_save_and_three_are_read_as_two(parts: PartFactory,
                                                           make_build: MakeBuild) -> None:
    build = make_build((parts.epyc_7443(), 2), parts.h12dsi_n6())
    resolver = {p.id: p for p in (parts.epyc_7443(), parts.h12dsi_n6())}
    text = dumps(build)
    loaded = loads(text, resolver.get)
    assert [(i.part.id, i.quantity) for i in loaded.build.items(Slot.CPU)] == [
        (parts.epyc_7443().id, 2)]
    tripled = text.replace('"quantity": 2', '"quantity": 3')
    again = loads(tripled, resolver.get)
    assert again.build.items(Slot.CPU)[0].quantity == 2
    assert any("at most 2" in w for w in again.warnings)


def test_a_lane_short_server_is_not_told_to_buy_a_threadripper(
        parts: PartFactory, make_build: MakeBuild) -> None:
    build = make_build((parts.epyc_7443(), 2), parts.h12dsi_n6(), (parts.a100_pcie_80gb(), 8))
    r = one(build, "compat.pcie_lanes")
    assert r.status == "warn" and "Threadripper" not in r.suggestion
    assert "PCIe switches" in r.suggestion
