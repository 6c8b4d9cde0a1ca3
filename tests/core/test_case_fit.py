"""What the case must hold and carry away: supplies against its bays, the load split as
several supplies are cabled, and stacked open-air cards' heat against its airflow."""

from __future__ import annotations

import pytest

from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.checks import run_checks
from dlhw_desktop.core.checks.case_fit import AIR_W_PER_CFM, airflow_band
from dlhw_desktop.core.verdict import CheckResult
from tests.core.conftest import PartFactory


def result(build: Build, check_id: str) -> CheckResult | None:
    return next((r for r in run_checks(build) if r.id == check_id), None)


def four_card_tower(parts: PartFactory, psus: int = 1, **case: object) -> Build:
    build = Build()
    build.add(parts.tr_pro_7975wx())
    build.add(parts.wrx90e_sage())
    build.add(parts.rtx_4090(), 4)
    build.add(parts.prime_tx_1600(), psus)
    build.add(parts.define_7_xl(**case))
    return build


def test_the_air_removes_what_physics_says() -> None:
    # 1.2 kg/m^3 x 1,005 J/(kg K) x 1 CFM (0.000472 m^3/s) x 15 K = 8.5 W
    assert pytest.approx(8.54, abs=0.01) == AIR_W_PER_CFM
    low, high = airflow_band(3, 140)  # 3 x 80 CFM free air, half of it in a case
    assert (low + high) / 2 == pytest.approx(3 * 40 * AIR_W_PER_CFM)


def test_three_supplies_in_a_tower_fail_and_the_bay_count_decides(
        parts: PartFactory) -> None:
    three = result(four_card_tower(parts, psus=3), "power.psu_bays")
    assert three is not None and three.status == "fail" and "none 3" in three.message
    two = result(four_card_tower(parts, psus=2), "power.psu_bays")
    assert two is not None and two.status == "warn" and two.needs
    roomy = result(four_card_tower(parts, psus=2, psu_bays=2), "power.psu_bays")
    assert roomy is not None and roomy.status == "pass"
    assert result(four_card_tower(parts, psus=1), "power.psu_bays") is None


def test_several_supplies_carry_the_load_as_they_are_cabled(parts: PartFactory) -> None:
    load = result(four_card_tower(parts, psus=2, psu_bays=2), "power.psu_load")
    assert load is not None
    shares = [float(w) for w in str(load.figures["unit_loads_w"]).split(", ")]
    assert len(shares) == 2 and sum(shares) == pytest.approx(load.figures["sustained_w"])
    # 4 cards' cables (375 W each) go whole to one supply: never an even split
    assert max(shares) > sum(shares) / 2
    assert "supplies do not share load" in load.message
    assert f"{max(shares) / 1600:.0%}".replace("%", " %") in load.message


def test_stacked_open_air_cards_warn_against_the_case_airflow(parts: PartFactory) -> None:
    unknown_fans = result(four_card_tower(parts), "cooling.case_airflow")
    assert unknown_fans is not None and unknown_fans.status == "warn"
    assert "assumed 3 intake fans of 140 mm" in unknown_fans.message
    assert unknown_fans.needs and unknown_fans.needs[0][1] == "fans_included"
    many_fans = result(four_card_tower(parts, fans_included=12, case_fan_mm=140),
                       "cooling.case_airflow")
    assert many_fans is not None and many_fans.status == "pass"
    assert "12 fans of 140 mm" in many_fans.message
    single = Build()
    single.add(parts.rtx_4090())
    single.add(parts.define_7_xl())
    assert result(single, "cooling.case_airflow") is None  # one card: what towers are for
