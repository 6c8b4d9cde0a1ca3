"""Several power supplies of one model: two load-sharing ATX units, or server modules."""

from __future__ import annotations

import pytest

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build import buildfile
from dlhw_desktop.core.build.build import Build, Slot
from dlhw_desktop.core.checks import check_build

RTX_4090 = "accelerator/nvidia-geforce-rtx-4090"
TR_PRO = "cpu/amd-ryzen-threadripper-pro-7975wx"


def four_gpu_rig(catalog: Catalog, psus: int) -> Build:
    build = Build(name="4x 4090 rig")
    build.add(catalog.get(TR_PRO))
    build.add(catalog.get(RTX_4090), 4)
    psu = next(p for p in catalog.parts() if p.id.startswith("psu/")
               and p.number("wattage_w") == 1600 and p.number("connectors_12vhpwr"))
    build.add(psu, psus)
    return build


def psu_load(build: Build) -> tuple[str, float | None]:
    report = check_build(build)
    result = next(r for r in report.results if r.kind == "power" and "%" in r.message
                  and "Sustained" in r.message)
    return result.status, report.summary.psu_load


def test_two_units_share_the_load(catalog: Catalog) -> None:
    one_status, one_load = psu_load(four_gpu_rig(catalog, 1))
    two_status, two_load = psu_load(four_gpu_rig(catalog, 2))
    assert one_status == "fail" and one_load is not None and one_load > 1.0
    assert two_load == pytest.approx(one_load / 2)
    assert two_status in ("pass", "warn")


def test_psu_counts_up_to_its_limit(catalog: Catalog) -> None:
    build = four_gpu_rig(catalog, 1)
    psu = build.items(Slot.PSU)[0].part
    build.set_quantity(psu.id, 2)
    assert build.items(Slot.PSU)[0].quantity == 2
    build.add(psu)  # the same model again keeps how many
    assert build.items(Slot.PSU)[0].quantity == 2
    build.set_quantity(TR_PRO, 2)  # the build takes it; compat.cpu_sockets fails it
    with pytest.raises(ValueError):
        build.set_quantity(TR_PRO, 3)
    with pytest.raises(ValueError):
        build.set_quantity(psu.id, Slot.PSU.max_count + 1)


def test_psu_count_survives_a_file(catalog: Catalog) -> None:
    build = four_gpu_rig(catalog, 2)
    again = buildfile.loads(buildfile.dumps(build), catalog.find).build
    assert again.items(Slot.PSU)[0].quantity == 2
