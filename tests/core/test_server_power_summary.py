"""A GPU server platform's vendor maximum system power is the build's wall draw."""

from __future__ import annotations

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.build.templates import template
from dlhw_desktop.core.checks import check_build
from dlhw_desktop.core.checks.budget import VENDOR_MAX_BASIS
from dlhw_desktop.reports.build_sheet import sheet_from_catalog


def _template(catalog: Catalog, key: str) -> Build:
    return template(key).build(catalog.get)


def test_dgx_h100_template_shows_the_vendor_10_2_kw(catalog: Catalog) -> None:
    # NVIDIA DGX H100/H200 User Guide: 10.2 kW maximum input (the parts' TDPs sum to ~7 kW
    # at the wall, which misses fans, NICs, NVSwitch and supply losses).
    build = _template(catalog, "dgx-h100")
    report = check_build(build)
    s = report.summary
    assert s.wall_w == 10_200 and s.heat_w == 10_200
    assert s.wall_basis == VENDOR_MAX_BASIS == "vendor maximum system power"
    assert s.yearly_kwh is not None and s.yearly_kwh > 10_200 * 8760 * 0.01 / 1000
    sheet = sheet_from_catalog(build, report, catalog, date="2026-01-15")
    wall = next(f for f in sheet.headline if f.key == "wall")
    assert (wall.value, wall.note) == ("10,200 W", "vendor maximum")
    total = next(f for f in sheet.totals if f.key == "wall_w")
    assert (total.value, total.note) == ("10,200 W", "vendor maximum system power")
    circuit = report.get("power.server_circuit")
    assert circuit is not None and circuit.figures["wall_w"] == 10_200


def test_a_workstation_still_sums_its_parts(catalog: Catalog) -> None:
    build = Build("one card")
    build.add(catalog.get("accelerator/nvidia-geforce-rtx-4090"))
    s = check_build(build).summary
    assert s.wall_basis == "" and s.wall_w is not None and s.wall_w < 1000
