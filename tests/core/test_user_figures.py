"""Figures entered from the box: refused with the field's human name and range when they
cannot be used, and once applied, used by the checks and named as "your figure"."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.checks import run_checks
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.user_figures import (
    UserFigureError,
    apply_figures,
    figures_of,
    make_figure,
    settable_fields,
)
from tests.core.conftest import PartFactory


@pytest.mark.parametrize(("field", "value", "words"), [
    ("height_mm", "5000", "Height: '5000' is not a whole number of mm from 10 to 250"),
    ("height_mm", "nan", "Height"),
    ("height_mm", "1e308", "Height"),
    ("height_mm", "9" * 5000, "Height"),
    ("height_mm", "12.5", "whole number"),
    ("height_mm", "", "Height: empty"),
    ("cooling_capacity_w", "-5", "Rated heat capacity"),
    ("cooling_capacity_w", "inf", "from 10 to 2,000"),
    ("cooler_kind", "wind", "one of: air, aio, custom-loop"),
    ("price_usd", "5", "price book"),
    ("tdp_w", "100", "not a figure of a cpu cooler"),
    ("no_such_field", "1", "not a figure of a cpu cooler"),
])
def test_a_figure_that_cannot_be_used_is_refused_by_name(
        parts: PartFactory, field: str, value: str, words: str) -> None:
    with pytest.raises(UserFigureError) as caught:
        make_figure(parts.nh_d15(), field, value)
    assert words in str(caught.value)
    assert "_mm" not in str(caught.value).split(":")[0]  # the label, never the field name


def test_fields_are_named_by_label_and_choices_normalised(parts: PartFactory) -> None:
    psu = parts.rm850x()
    assert make_figure(psu, "ATX version", "ATX 3.1").value == "3.1"
    assert make_figure(psu, "atx_version", "2.X").value == "2.x"
    assert make_figure(psu, "PCIe 8-pin", " 4 ").value == 4
    with pytest.raises(UserFigureError, match="ATX version"):
        make_figure(psu, "atx_version", "4.0")
    card = parts.rtx_4090()
    assert make_figure(card, "cooling", "Blower").value == "blower"
    assert {s.name for s in settable_fields(Category.PSU)} >= {
        "atx_version", "connectors_pcie_8pin", "wattage_w"}


@given(st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(),
                 st.text(max_size=40), st.booleans(), st.none()))
def test_any_value_is_either_refused_or_a_finite_figure_in_range(value: object) -> None:
    from tests.core.conftest import PartFactory as Factory

    cooler = Factory().nh_d15()
    try:
        figure = make_figure(cooler, "cooling_capacity_w", value)
    except UserFigureError as exc:
        assert "Rated heat capacity" in str(exc)
        return
    assert isinstance(figure.value, int) and 10 <= figure.value <= 2000
    assert math.isfinite(figure.value)


def test_an_entered_cooler_rating_decides_the_cooling_verdict(parts: PartFactory) -> None:
    cooler = parts.nh_d15(height_mm=None)  # nothing to measure or estimate it from
    build = Build()
    build.add(parts.ryzen_9_7950x())
    build.add(cooler)
    before = next(r for r in run_checks(build) if r.id == "cooling.cpu")
    assert before.status == "unknown" and before.needs == ((cooler.id, "cooling_capacity_w"),)

    figure = make_figure(cooler, "cooling_capacity_w", "250", note="box", entered="2026-11-20")
    entered = apply_figures(cooler, [figure])
    assert entered.figure_kind("cooling_capacity_w") == "your figure"
    build.remove(cooler.id)
    build.add(entered)
    after = next(r for r in run_checks(build) if r.id == "cooling.cpu")
    assert after.status == "pass" and "your figure, entered 2026-11-20" in after.message
    held = [u for u in after.basis if u.part_id == cooler.id]
    assert held and held[0].kind == "your figure"
    assert {u.kind for u in after.basis if u.part_id != cooler.id} <= {"vendor", "derived"}
    assert figures_of(entered) == [figure]


def test_unknown_atx_version_is_judged_as_2x_and_offered_to_enter(
        parts: PartFactory) -> None:
    build = Build()
    build.add(parts.rtx_4090(), 3)
    build.add(parts.ryzen_9_7950x())
    psu = parts.prime_tx_1600(atx_version=None)
    build.add(psu)
    result = next(r for r in run_checks(build) if r.id == "power.transients")
    assert result.status == "warn" and (psu.id, "atx_version") in result.needs
    assert any(u.field == "atx_version" and u.kind == "derived" for u in result.basis)
    fixed = apply_figures(psu, [make_figure(psu, "atx_version", "3.1")])
    build.remove(psu.id)
    build.add(fixed)
    again = next(r for r in run_checks(build) if r.id == "power.transients")
    assert not again.needs
    assert any(u.field == "atx_version" and u.kind == "your figure" for u in again.basis)


def test_a_build_file_carries_the_figures_so_a_colleague_gets_the_same_verdict(
        parts: PartFactory) -> None:
    from dlhw_desktop.core.build import buildfile

    cooler = parts.nh_d15(height_mm=None)
    cpu = parts.ryzen_9_7950x()
    mine = apply_figures(cooler, [make_figure(cooler, "cooling_capacity_w", 250,
                                              entered="2026-11-20")])
    build = Build()
    build.add(cpu)
    build.add(mine)
    text = buildfile.dumps(build)
    verdict = next(r for r in run_checks(build) if r.id == "cooling.cpu").status

    catalog = {p.id: p for p in (cooler, cpu)}  # the colleague: no figures of their own
    opened = buildfile.loads(text, catalog.get)
    again = next(r for r in run_checks(opened.build) if r.id == "cooling.cpu")
    assert again.status == verdict == "pass" and not opened.warnings
    assert opened.build.cooler.figure_kind("cooling_capacity_w") == "your figure"

    theirs = {**catalog, cooler.id: apply_figures(cooler, [
        make_figure(cooler, "cooling_capacity_w", 150, entered="2026-11-21")])}
    opened = buildfile.loads(text, theirs.get)
    assert opened.build.cooler.number("cooling_capacity_w") == 150  # their own figure wins
    assert any("differs from yours" in w for w in opened.warnings)

    tampered = text.replace('"value": 250', '"value": 1e308')
    opened = buildfile.loads(tampered, catalog.get)
    assert opened.build.cooler.number("cooling_capacity_w") is None
    assert any("Rated heat capacity" in w for w in opened.warnings)
