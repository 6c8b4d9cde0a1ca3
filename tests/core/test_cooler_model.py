"""CPU power as drawn and cooler capacity from measurements: what a buyer of a flagship CPU
under a small cooler is told, and that the model's constants are what its data gives."""

from __future__ import annotations

import csv
import math
from collections.abc import Callable

import pytest

from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.checks import check_build
from dlhw_desktop.core.checks import cooler_model as cm
from dlhw_desktop.core.checks.cpu_power import cpu_power
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part
from dlhw_desktop.resources import catalog_sources_dir
from tests.core.conftest import PartFactory, make_part

MakeBuild = Callable[..., Build]

MEASUREMENTS = catalog_sources_dir() / "research" / "cooler_measurements.csv"


def _rows() -> list[cm.Measurement]:
    with MEASUREMENTS.open(newline="", encoding="utf-8") as handle:
        return cm.measurements(csv.DictReader(handle))


def test_the_air_model_is_what_the_measurements_give() -> None:
    rows = _rows()
    intercept, slope = cm.fit_air(rows)
    assert intercept == pytest.approx(cm.AIR_INTERCEPT_W, abs=0.1)
    assert slope == pytest.approx(cm.AIR_W_PER_MM, abs=0.001)
    errors = cm.air_leave_one_out(rows)
    assert len(errors) == cm.AIR_MEASURED
    rms = math.sqrt(sum(e * e for e in errors) / len(errors))
    assert rms == pytest.approx(cm.AIR_BAND_W, abs=0.5)
    assert sum(errors) / len(errors) == pytest.approx(cm.AIR_LOO_MEAN_ABS_W, abs=0.1)


def test_the_liquid_model_is_what_the_measurements_give() -> None:
    rows = _rows()
    assert cm.fit_liquid(rows) == pytest.approx(cm.LIQUID_REF_W, abs=0.1)
    errors = cm.liquid_leave_one_out(rows)
    assert len(errors) == cm.LIQUID_MEASURED
    rms = math.sqrt(sum(e * e for e in errors) / len(errors))
    assert rms == pytest.approx(cm.LIQUID_BAND_FRACTION, abs=0.005)


def test_every_measurement_has_a_review_a_test_cpu_or_condition_and_a_date() -> None:
    with MEASUREMENTS.open(newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            assert row["source"].startswith("http") and row["source_date"]
            assert row["review"] and (row["test_cpu"] or row["condition"])
            assert row["bound"] in ("at-limit", "lower", "upper")


def _cooler(**specs: object) -> Part:
    return make_part(Category.COOLER, "Test", "Cooler " + "-".join(map(str, specs.values())),
                     **specs)


def test_estimates_say_what_they_are_estimated_from() -> None:
    aio = cm.cooler_capacity(_cooler(cooler_kind="aio", radiator_mm=360))
    assert aio is not None and aio.kind == "estimated" and "360 mm radiator" in aio.basis
    assert aio.low_w < cm.LIQUID_REF_W < aio.high_w
    small = cm.cooler_capacity(_cooler(cooler_kind="aio", radiator_mm=240))
    assert small is not None and small.high_w < aio.high_w
    tower = cm.cooler_capacity(_cooler(cooler_kind="air", height_mm=158))
    assert tower is not None and tower.low_w < 230 < tower.high_w  # the NH-U12S redux
    assert cm.cooler_capacity(_cooler(cooler_kind="air")) is None  # nothing to go on


def test_a_measurement_wins_over_the_makers_rating() -> None:
    both = cm.cooler_capacity(_cooler(cooler_kind="air", height_mm=155, cooling_capacity_w=300,
                                      measured_capacity_w=220))
    assert both is not None and both.kind == "measured" and both.high_w < 300


def test_a_light_load_held_does_not_lower_the_models_band() -> None:
    # A 158 mm tower that held a 150 W test load: the model already says more.
    light = cm.cooler_capacity(_cooler(cooler_kind="air", height_mm=158,
                                       measured_capacity_at_least_w=150))
    model = cm.estimated_capacity(_cooler(cooler_kind="air", height_mm=158))
    assert light is not None and model is not None and model.low_w > 150
    assert (light.low_w, light.high_w, light.kind) == (model.low_w, model.high_w, "estimated")
    assert "holding 150 W" in light.basis
    # A heavy load held raises the low end above the model's.
    heavy = cm.cooler_capacity(_cooler(cooler_kind="air", height_mm=158,
                                       measured_capacity_at_least_w=275))
    assert heavy is not None and heavy.low_w == 275 and heavy.kind == "measured"
    assert heavy.high_w >= 275


def test_on_a_threadripper_a_desktop_estimate_is_only_a_lower_bound() -> None:
    tower = _cooler(cooler_kind="air", height_mm=165)
    band = cm.cooler_capacity(tower, "STR5")
    assert band is not None and math.isinf(band.high_w)


def test_a_flagship_cpu_under_a_low_profile_cooler_fails(parts: PartFactory,
                                                         make_build: MakeBuild) -> None:
    """The documented failure: an i9-13900K (253 W) under Noctua's 37 mm NH-L9i-17xx."""
    cpu = parts.ryzen_9_7950x(name="Core i9-13900K", vendor="Intel", tdp_w=125,
                              sustained_power_w=253, socket="LGA1700")
    cooler = make_part(Category.COOLER, "Noctua", "NH-L9i-17xx", cooler_kind="air",
                       height_mm=37, measured_capacity_w=119, supported_sockets="LGA1700")
    result = check_build(make_build(cpu, cooler)).get("cooling.cpu")
    assert result.status == "fail"
    assert "253 W sustained" in result.message and "measured" in result.message
    assert result.figures["cpu_power_kind"] == "sustained package power"


def test_the_cpu_is_judged_as_it_draws_power(parts: PartFactory, make_build: MakeBuild) -> None:
    cpu = parts.ryzen_9_7950x(sustained_power_w=230)
    drawn = cpu_power(cpu)
    assert drawn is not None and drawn.watts == 230 and drawn.sustained
    summary = check_build(make_build(cpu)).summary
    base = check_build(make_build(parts.ryzen_9_7950x(sustained_power_w=None))).summary
    assert summary.sustained_w is not None and base.sustained_w is not None
    assert summary.sustained_w - base.sustained_w == pytest.approx(230 - 170)
    no_sustained = cpu_power(parts.ryzen_9_7950x(sustained_power_w=None))
    assert no_sustained is not None and "base power" in no_sustained.describe()
