"""Own hardware against cloud: amortisation, electricity, break-even, per-token cost."""

from __future__ import annotations

import pytest

from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.workload.cost import (
    HOURS_PER_MONTH,
    OwnHardware,
    break_even,
    cloud_usd_per_hour,
    run_cost,
    system_power_w,
    usd_per_million_tokens,
)
from dlhw_desktop.core.workload.errors import InvalidWorkloadError


def test_own_cost_per_hour_is_amortised_price_plus_energy() -> None:
    own = OwnHardware(price_usd=8760.0, power_w=1000.0, years=1.0,
                      electricity_usd_per_kwh=0.20, pue=1.5, utilisation=1.0)
    assert own.amortised_usd_per_hour == pytest.approx(1.0)
    assert own.energy_usd_per_hour == pytest.approx(0.30)
    assert own.usd_per_hour == pytest.approx(1.30)
    half = own.but(utilisation=0.5)
    assert half.amortised_usd_per_hour == pytest.approx(2.0)


def test_break_even_hours_and_months() -> None:
    own = OwnHardware(price_usd=2000.0, power_w=500.0, electricity_usd_per_kwh=0.20,
                      utilisation=0.5)
    be = break_even(own, cloud_usd_per_hour=1.10)
    # 2000 / (1.10 - 0.10) = 2000 h; at 50 % of 730 h a month: 5.48 months
    assert be.hours == pytest.approx(2000.0)
    assert be.months == pytest.approx(2000.0 / (HOURS_PER_MONTH * 0.5))


def test_never_breaks_even_when_cloud_costs_less_than_electricity() -> None:
    own = OwnHardware(price_usd=2000.0, power_w=2000.0, electricity_usd_per_kwh=0.50)
    be = break_even(own, cloud_usd_per_hour=0.50)
    assert be.never and be.months is None


def test_run_cost_and_cost_per_million_tokens() -> None:
    own = OwnHardware(price_usd=8760.0, power_w=1000.0, years=1.0,
                      electricity_usd_per_kwh=0.20, utilisation=1.0)
    cost = run_cost(10.0, own, cloud_usd_per_hour=2.0)
    assert cost.energy_usd == pytest.approx(2.0)
    assert cost.amortised_usd == pytest.approx(10.0)
    assert cost.own_usd == pytest.approx(12.0)
    assert cost.cloud_usd == pytest.approx(20.0)
    # 1000 tokens/s for an hour = 3.6M tokens for $3.60 -> $1 per million
    assert usd_per_million_tokens(1000.0, 3.60) == pytest.approx(1.0)
    assert usd_per_million_tokens(0.0, 3.60) is None


def test_cloud_price_hourly_or_monthly() -> None:
    def offer(**specs: float) -> Part:
        return Part("cloud/x", Category.CLOUD, "C", "X", "test", "2025-01-01", specs=specs)

    assert cloud_usd_per_hour(offer(price_per_hour_usd=2.5)) == 2.5
    assert cloud_usd_per_hour(offer(price_per_month_usd=730.0)) == pytest.approx(1.0)
    assert cloud_usd_per_hour(offer()) is None


def test_system_power_adds_the_rest_of_the_machine() -> None:
    gpu = Part("accelerator/g", Category.ACCELERATOR, "V", "G", "t", "2025", specs={"tdp_w": 450})
    assert system_power_w([(gpu, 2)], base_w=250) == 1150
    unknown = Part("accelerator/u", Category.ACCELERATOR, "V", "U", "t", "2025")
    assert system_power_w([(unknown, 1)]) is None


@pytest.mark.parametrize("kwargs", [
    {"price_usd": -1.0}, {"years": 0.0}, {"pue": 0.9}, {"utilisation": 0.0},
    {"utilisation": 1.5},
])
def test_bad_cost_inputs(kwargs: dict[str, float]) -> None:
    base = {"price_usd": 1000.0, "power_w": 500.0}
    base.update(kwargs)
    with pytest.raises(InvalidWorkloadError):
        OwnHardware(**base)
