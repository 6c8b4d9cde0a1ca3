"""Figures that do not apply are not asked for: an AIO's height (its radiator is checked
against the case's radiator mounts instead), and the x16 slot spacing of a board with one
x16 slot. The coverage report counts parts by the same declaration."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import pytest

from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.checks import CheckResult, run_checks
from dlhw_desktop.core.checks.inputs import CHECK_INPUTS, applies_to
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part, make_part_id

if TYPE_CHECKING:
    from tests.core.conftest import PartFactory

MakeBuild = Callable[..., Build]


def _aio(**o: Any) -> Part:
    specs: dict[str, Any] = dict(cooler_kind="aio", radiator_mm=360, cooling_capacity_w=300,
                                 supported_sockets="AM5")
    specs.update(o)
    return Part(id=make_part_id(Category.COOLER, "ARCTIC", "Liquid Freezer III Pro 360"),
                category=Category.COOLER, vendor="ARCTIC", name="Liquid Freezer III Pro 360",
                source="test fixture", source_date="2025-01-15", specs=specs)


def _results(build: Build, check_id: str) -> list[CheckResult]:
    return [r for r in run_checks(build) if r.id == check_id]


def _spec(category: Category, name: str) -> Any:
    return next(s for s in CHECK_INPUTS[category] if s.field == name)


def test_an_aio_without_a_height_is_not_unknown_for_the_case_clearance(
        parts: PartFactory, make_build: MakeBuild) -> None:
    build = make_build(parts.ryzen_9_7950x(), _aio(), parts.nr200p(max_radiator_mm=280))
    assert _results(build, "compat.cooler_height") == []
    assert not any("Height" in r.message for r in run_checks(build))


def test_an_aio_radiator_too_large_for_the_case_fails(parts: PartFactory,
                                                       make_build: MakeBuild) -> None:
    [result] = _results(make_build(_aio(), parts.nr200p(max_radiator_mm=280)),
                        "compat.radiator")
    assert result.status == "fail"
    assert "360 mm" in result.message and "280 mm" in result.message
    assert "MasterBox NR200P" in result.message


def test_an_aio_radiator_that_fits_passes(parts: PartFactory, make_build: MakeBuild) -> None:
    [result] = _results(make_build(_aio(), parts.meshify_2(max_radiator_mm=360)),
                        "compat.radiator")
    assert result.status == "pass" and "360 mm" in result.message


def test_a_case_without_a_radiator_figure_says_unknown_by_name(
        parts: PartFactory, make_build: MakeBuild) -> None:
    # No radiator figure and no graphics clearance: no towers like it to read.
    case = parts.meshify_2(max_gpu_length_mm=None)
    [result] = _results(make_build(_aio(), case), "compat.radiator")
    assert result.status == "unknown"
    assert "largest radiator" in result.message.lower() and "Meshify 2" in result.message


def test_an_air_cooler_is_still_held_to_the_clearance_and_never_to_a_radiator(
        parts: PartFactory, make_build: MakeBuild) -> None:
    build = make_build(parts.dark_rock_pro_5(), parts.nr200p())
    assert [r.status for r in _results(build, "compat.cooler_height")] == ["fail"]
    assert _results(build, "compat.radiator") == []


@pytest.mark.parametrize(("kind", "height", "radiator"), [
    ("aio", False, True), ("AIO", False, True), ("custom-loop", False, False),
    ("air", True, False), (None, True, False)])
def test_cooler_inputs_apply_by_kind(kind: str | None, height: bool, radiator: bool) -> None:
    cooler = _aio(cooler_kind=kind)
    assert applies_to(_spec(Category.COOLER, "height_mm"), cooler) is height
    assert applies_to(_spec(Category.COOLER, "radiator_mm"), cooler) is radiator


@pytest.mark.parametrize("cards", [1, 2])
def test_a_one_slot_board_never_asks_for_the_spacing(
        parts: PartFactory, make_build: MakeBuild, cards: int) -> None:
    board = parts.proart_x670e(pcie_x16_slots=1)
    board = replace(board, specs={k: v for k, v in board.specs.items()
                                  if k != "x16_slot_spacing"})
    build = make_build(board, (parts.rtx_4090(), cards), parts.meshify_2())
    said = [r for r in run_checks(build) if "slot spacing" in r.message.lower()]
    assert said == []
    [slots] = _results(build, "compat.x16_slots")
    assert slots.status == ("pass" if cards == 1 else "fail")
