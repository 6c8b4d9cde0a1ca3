"""Cooling: CPU cooler rating, case heat, open-air card spacing, passive cards."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.build.tiers import WorkloadTier
from dlhw_desktop.core.checks import CheckResult, run_checks

if TYPE_CHECKING:
    from tests.core.conftest import PartFactory

MakeBuild = Callable[..., Build]


def find(build: Build, check_id: str,
         tiers: dict[str, WorkloadTier] | None = None) -> CheckResult | None:
    found = [r for r in run_checks(build, tiers=tiers) if r.id == check_id]
    assert len(found) <= 1
    return found[0] if found else None


def one(build: Build, check_id: str,
        tiers: dict[str, WorkloadTier] | None = None) -> CheckResult:
    r = find(build, check_id, tiers)
    assert r is not None, f"no {check_id}"
    return r


@pytest.mark.parametrize(("capacity", "status"), [
    (270, "pass"), (170, "pass"), (169, "warn"), (136, "warn"), (135, "fail")])
def test_cpu_cooler_rating_boundaries(parts: PartFactory, make_build: MakeBuild,
                                      capacity: int, status: str) -> None:
    # 7950X: 170 W; warn below 170, fail below 80 % of it (136 W).
    cooler = parts.dark_rock_pro_5(cooling_capacity_w=capacity)
    assert one(make_build(parts.ryzen_9_7950x(), cooler), "cooling.cpu").status == status


def test_small_cooler_on_threadripper_fails(parts: PartFactory, make_build: MakeBuild) -> None:
    r = one(make_build(parts.tr_pro_7975wx(), parts.pure_rock_2()), "cooling.cpu")
    assert r.status == "fail" and "150 W" in r.message and "350 W" in r.message


def test_unrated_cooler_is_unknown_unless_the_tier_names_it(
        parts: PartFactory, make_build: MakeBuild, tiers: dict[str, WorkloadTier]) -> None:
    build = make_build(parts.ryzen_9_7950x(), parts.nh_d15(height_mm=None))
    r = one(build, "cooling.cpu")
    assert r.status == "unknown" and "rated heat capacity of Noctua NH-D15" in r.message
    assert r.needs == ((build.cooler.id, "cooling_capacity_w"),)  # offered to enter

    build.set_tier("demanding")
    named = one(build, "cooling.cpu", tiers)
    assert named.status == "pass" and "demanding tier names it" in named.message

    other = make_build(parts.ryzen_9_7950x(), parts.nh_d15(name="NH-D15S", height_mm=None),
                       tier="demanding")
    assert one(other, "cooling.cpu", tiers).status == "unknown"


def test_case_heat_rating_only_when_known(parts: PartFactory, workstation: Build) -> None:
    assert find(workstation, "cooling.case") is None
    workstation.add(parts.meshify_2(heat_capacity_w=600))
    r = one(workstation, "cooling.case")
    assert r.status == "warn" and "703 W" in r.message
    workstation.add(parts.meshify_2(heat_capacity_w=800))
    assert one(workstation, "cooling.case").status == "pass"


def test_stacked_open_air_4090s_warn(parts: PartFactory, make_build: MakeBuild) -> None:
    build = make_build((parts.rtx_4090(), 2), parts.proart_x670e(x16_slot_spacing=3),
                       parts.meshify_2())
    r = one(build, "cooling.card_spacing")
    assert r.status == "warn"
    assert "open-air" in r.message and "blower" in r.suggestion


def test_two_slot_cards_with_a_gap_pass(parts: PartFactory, make_build: MakeBuild) -> None:
    build = make_build((parts.rtx_4070(), 2), parts.proart_x670e(x16_slot_spacing=3))
    assert one(build, "cooling.card_spacing").status == "pass"


def test_blower_cards_may_touch(parts: PartFactory, make_build: MakeBuild) -> None:
    build = make_build((parts.rtx_a6000(), 4), parts.wrx90e_sage())
    assert find(build, "cooling.card_spacing") is None


def test_board_with_spare_slots_gets_placement_advice(parts: PartFactory,
                                                      make_build: MakeBuild) -> None:
    build = make_build((parts.rtx_4090(), 2), parts.wrx90e_sage(), parts.define_7_xl())
    r = one(build, "cooling.card_spacing")
    assert r.status == "pass" and "x16 slots 1, 5" in r.message


def test_passive_card_in_a_tower_fails(parts: PartFactory, make_build: MakeBuild) -> None:
    r = one(make_build(parts.a100_pcie_80gb(), parts.meshify_2()), "cooling.passive")
    assert r.status == "fail"
    assert "server airflow" in r.message and "tower" in r.message


def test_passive_card_without_a_case_warns(parts: PartFactory, make_build: MakeBuild) -> None:
    assert one(make_build(parts.a100_pcie_80gb()), "cooling.passive").status == "warn"


def test_passive_card_in_a_rackmount_passes(parts: PartFactory, make_build: MakeBuild) -> None:
    r = one(make_build(parts.a100_pcie_80gb(), parts.rackmount_4u()), "cooling.passive")
    assert r.status == "pass"


def test_passive_card_with_unknown_case_kind_is_unknown(parts: PartFactory,
                                                        make_build: MakeBuild) -> None:
    r = one(make_build(parts.l4(), parts.meshify_2(case_kind=None)), "cooling.passive")
    assert r.status == "unknown" and "kind of" in r.message


def test_three_stacked_open_air_cards_fail_when_one_is_sandwiched(
        parts: PartFactory, make_build: MakeBuild) -> None:
    # Three 3-slot cards in x16 slots 3 positions apart: the middle one has a card touching
    # it above and below, and the board leaves no room for gaps.
    board = parts.proart_x670e(pcie_x16_slots=3, x16_slot_spacing=3)
    r = one(make_build((parts.rtx_4090(), 3), board, parts.meshify_2()), "cooling.card_spacing")
    assert r.status == "fail" and "sandwiched" in r.message and "blower" in r.suggestion


def test_stacked_cards_with_no_board_are_judged_on_an_assumed_atx_board(
        parts: PartFactory, make_build: MakeBuild) -> None:
    # 3 + 3 slot positions before the last card leaves no free position on 7: on any ATX
    # board the three cards touch, whatever its x16 spacing.
    r = one(make_build((parts.rtx_4090(), 3)), "cooling.card_spacing")
    assert r.status == "fail" and "assumed" in r.message
    assert r.basis and r.basis[0].kind == "estimated"
    # Two-slot cards leave room for a free position below each: the spacing decides.
    assert find(make_build((parts.rtx_4070(), 3)), "cooling.card_spacing") is None


def test_unknown_spacing_on_a_small_board_is_bounded_by_its_form_factor(
        parts: PartFactory, make_build: MakeBuild) -> None:
    micro = parts.proart_x670e(name="B650M board", board_form_factor="Micro-ATX",
                               x16_slot_spacing=None)
    r = one(make_build((parts.rtx_4090(), 2), micro), "cooling.card_spacing")
    assert r.status == "warn" and "Micro-ATX" in r.message and "4 slot positions" in r.message
    # On an ATX board with the spacing unknown, the spacing decides: no verdict from here.
    atx = parts.proart_x670e(x16_slot_spacing=None)
    assert find(make_build((parts.rtx_4090(), 2), atx), "cooling.card_spacing") is None
