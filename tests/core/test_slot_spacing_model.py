"""x16 slot spacing a board does not publish: derived on all-x16 workstation boards,
estimated for two cards on ATX boards from the boards whose layout is published."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.checks import CheckResult, run_checks
from dlhw_desktop.core.checks.slot_spacing_model import LEAVE_OUT_ERROR, SPACING_ATX
from dlhw_desktop.core.fields import Category

if TYPE_CHECKING:
    from tests.core.conftest import PartFactory

MakeBuild = Callable[..., Build]


def slots_check(build: Build) -> CheckResult:
    found = [r for r in run_checks(build) if r.id == "compat.x16_slots"]
    assert len(found) == 1
    return found[0]


@pytest.mark.parametrize(("width", "status"), [(2, "pass"), (2.5, "warn"), (3, "warn"),
                                               (4, "warn")])
def test_two_cards_on_an_atx_board_without_its_spacing(
        parts: PartFactory, make_build: MakeBuild, width: float, status: str) -> None:
    board = parts.proart_x670e(x16_slot_spacing=None)
    r = slots_check(make_build(board, (parts.rtx_4090(slot_width=width), 2)))
    assert r.status == status
    assert r.basis[0].kind == "estimated" and r.basis[0].field == "x16_slot_spacing"
    assert f"{SPACING_ATX[0]:.0f}-{SPACING_ATX[1]:.0f} positions apart" in r.message
    assert r.needs == ((board.id, "x16_slot_spacing"),)  # "Enter it…" stays offered
    assert (width <= SPACING_ATX[0]) == (status == "pass")


def test_one_slot_cards_fit_whatever_the_spacing(parts: PartFactory,
                                                 make_build: MakeBuild) -> None:
    board = parts.proart_x670e(x16_slot_spacing=None)
    r = slots_check(make_build(board, (parts.rtx_4090(slot_width=1), 2)))
    assert r.status == "pass" and r.basis[0].kind == "derived"


def test_the_estimate_never_fails_and_stops_at_two_cards(
        parts: PartFactory, make_build: MakeBuild) -> None:
    board = parts.proart_x670e(x16_slot_spacing=None, pcie_x16_slots=3)
    assert slots_check(make_build(board, (parts.rtx_4090(slot_width=4), 2))).status == "warn"
    three = slots_check(make_build(board, (parts.rtx_4090(slot_width=2), 3)))
    assert three.status == "unknown"  # later gaps close up on many boards


def test_other_forms_stay_unknown(parts: PartFactory, make_build: MakeBuild) -> None:
    board = parts.proart_x670e(x16_slot_spacing=None, board_form_factor="Micro-ATX")
    assert slots_check(make_build(board, (parts.rtx_4090(), 2))).status == "unknown"


@pytest.mark.parametrize(("cards", "width", "status", "fitting"),
                         [(4, 3, "fail", 3), (5, 2, "fail", 4), (3, 3, "pass", 3),
                          (7, 1, "pass", 7)])
def test_an_all_x16_workstation_board_has_spacing_one(
        parts: PartFactory, make_build: MakeBuild, cards: int, width: int, status: str,
        fitting: int) -> None:
    board = parts.wrx90e_sage(x16_slot_spacing=None)  # 7 x16 slots on a 7-position EEB
    r = slots_check(make_build(board, (parts.rtx_4090(slot_width=width), cards)))
    assert r.status == status
    assert r.basis[0].kind == "derived"
    if status == "fail":  # side by side they run past the board's last position
        assert "7 x16 slots" in r.basis[0].source and f"{cards * width} slot" in r.message
        assert r.message.startswith(f"Only {fitting} of {cards} cards fit")


@pytest.mark.catalog
def test_the_band_is_the_fit_of_the_bundled_catalog(catalog_path: object) -> None:
    from dlhw_desktop.catalog.store import Catalog
    from dlhw_desktop.core.checks.slot_spacing_model import fit, leave_out, models

    data = models(Catalog.open(catalog_path).parts(Category.MOTHERBOARD))
    assert fit(data) == SPACING_ATX
    assert leave_out(data) == LEAVE_OUT_ERROR
