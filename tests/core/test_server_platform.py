"""GPU server platforms in the planner: modules against the baseboard, supplies with their
spares lost, server circuits. Figures are the catalog's (each row cites its source)."""

from __future__ import annotations

import pytest

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build.build import Build, Slot
from dlhw_desktop.core.checks import CheckSettings, check_build
from dlhw_desktop.core.checks.settings import MAINS

DGX_H100 = "server/nvidia-dgx-h100"
H100 = "accelerator/nvidia-h100-sxm5-80-gb"


def _build(catalog: Catalog, *parts: tuple[str, int]) -> Build:
    build = Build("server test")
    for part_id, quantity in parts:
        build.add(catalog.get(part_id), quantity)
    return build


def test_dgx_h100_figures_match_nvidias_user_guide(catalog: Catalog) -> None:
    # NVIDIA DGX H100/H200 User Guide (quoted by unanswered.io): eight H100 80 GB = 640 GB,
    # six 3,300 W supplies, 4+2, 10.2 kW maximum input.
    dgx = catalog.get(DGX_H100)
    gpu = catalog.get(H100)
    assert dgx.number("gpu_count") == 8
    assert dgx.number("gpu_count") * gpu.number("memory_gb") == 640
    assert dgx.number("max_power_w") == 10_200
    assert (dgx.number("psu_count"), dgx.number("psu_unit_w")) == (6, 3300)
    assert dgx.text("psu_redundancy") == "4+2"
    assert dgx.number("rack_units") == 8


def test_a_server_takes_its_modules_in_full(catalog: Catalog) -> None:
    build = _build(catalog, (DGX_H100, 1), (H100, 8))
    assert build.server is not None and build.count(Slot.SERVER) == 1
    report = check_build(build, CheckSettings(mains="208V-60A-3ph"))
    assert report.get("compat.server_modules").status == "pass"
    assert report.get("compat.baseboard") is None  # the old "needs a baseboard" is gone
    assert report.verdict == "pass"


@pytest.mark.parametrize(("module", "count", "why"), [
    ("accelerator/amd-instinct-mi300x", 8, "OAM module"),
    (H100, 4, "populated with 8"),
    ("accelerator/nvidia-h200-sxm-141-gb", 8, "not a module"),
    ("accelerator/nvidia-h100-pcie-80-gb", 8, "not modules"),
])
def test_a_wrong_module_fails_with_the_reason(catalog: Catalog, module: str, count: int,
                                              why: str) -> None:
    report = check_build(_build(catalog, (DGX_H100, 1), (module, count)))
    result = report.get("compat.server_modules")
    assert result.status == "fail" and why in result.message


def test_supplies_are_judged_with_the_spares_lost(catalog: Catalog) -> None:
    report = check_build(_build(catalog, ("server/nvidia-dgx-b200", 1),
                                ("accelerator/nvidia-b200", 8)))
    supplies = report.get("power.server_supplies")
    # 5+1 x 3.3 kW: five carry 16.5 kW against the 14.3 kW maximum.
    assert supplies.status == "pass"
    assert supplies.figures["carrying_w"] == 16_500
    assert "1 of 6 supplies lost" in supplies.message


def test_a_household_circuit_is_not_enough_and_a_server_circuit_is_named(
        catalog: Catalog) -> None:
    build = _build(catalog, (DGX_H100, 1), (H100, 8))
    on_wall = check_build(build, CheckSettings()).get("power.server_circuit")
    assert on_wall.status == "warn" and "three-phase" in on_wall.suggestion
    assert check_build(build, CheckSettings(mains="208V-60A-3ph")).get(
        "power.server_circuit").status == "pass"
    # sqrt(3) x 208 V x 60 A x 0.8 (NEC continuous) = 17.3 kW
    assert round(MAINS["208V-60A-3ph"].limit_w) == 17_293


def test_a_barebone_asks_for_cpus_and_memory_and_no_pcie_checks_apply(
        catalog: Catalog) -> None:
    build = _build(catalog, ("server/supermicro-as-8125gs-tnmr2", 1),
                   ("accelerator/amd-instinct-mi300x", 8))
    report = check_build(build)
    assert "CPUs" in report.get("compat.server_complete").message
    assert report.get("compat.complete") is None
    assert not [r for r in report.results if r.id in ("compat.x16_slots", "compat.pcie_lanes",
                                                       "compat.case_slots")]
    build.add(catalog.get("cpu/amd-epyc-9654"), 2)
    build.add(catalog.get("cpu/amd-epyc-9654"), 2)
    assert check_build(build).get("compat.cpu_sockets").status == "pass"


def test_a_missing_baseboard_figure_is_named_by_its_label(catalog: Catalog) -> None:
    import dataclasses

    dgx = catalog.get(DGX_H100)
    bare = dataclasses.replace(dgx, specs={k: v for k, v in dgx.specs.items()
                                           if k != "gpu_count"})
    build = Build("unknown count")
    build.add(bare)
    build.add(catalog.get(H100), 8)
    (result,) = [r for r in check_build(build).results if r.id == "compat.server_modules"]
    assert result.status == "unknown"
    assert "gpu_count" not in result.message and "missing" in result.message
