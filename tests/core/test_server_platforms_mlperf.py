"""Server platforms sourced from the system descriptions their vendors filed with MLPerf
results (mlcommons/inference_results_v4.x, training_results_v3.0/v4.0): the planner takes the
configuration the vendor ran, and says "unknown" where those files give no figure (their
power-supply fields are blank), never a pass. Needs the catalog rebuilt from the sources."""

from __future__ import annotations

import pytest

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.checks import CheckSettings, check_build

H100 = "accelerator/nvidia-h100-sxm5-80-gb"
H200 = "accelerator/nvidia-h200-sxm-141-gb"
XEON_8592 = "cpu/intel-xeon-platinum-8592"  # the Xeon Platinum 8592+ Giga Computing and ASUS ran
MLPERF_BAREBONES = ("server/lenovo-thinksystem-sr680a-v3", "server/hpe-cray-xd670",
                    "server/gigabyte-g593-sd0", "server/gigabyte-g593-sd1",
                    "server/asus-esc-n8-e11")


def _build(catalog: Catalog, *parts: tuple[str, int]) -> Build:
    build = Build("mlperf platform")
    for part_id, quantity in parts:
        build.add(catalog.get(part_id), quantity)
    return build


def test_lenovo_sr680a_v3_as_lenovo_submitted_it(catalog: Catalog) -> None:
    # Lenovo_8xH200_TRT.json: 8x H200-SXM-141GB, 2x Xeon Platinum 8568Y+, 32x 64 GB, air.
    sr680a = catalog.get("server/lenovo-thinksystem-sr680a-v3")
    assert sr680a.number("gpu_count") == 8
    assert sr680a.text("supported_gpus") == H200
    assert sr680a.number("gpu_link_gb_s") == 900
    assert (sr680a.text("socket"), sr680a.number("cpu_sockets")) == ("LGA4677", 2)
    assert sr680a.number("memory_slots") == 32
    assert sr680a.text("system_cooling") == "air"
    report = check_build(_build(catalog, ("server/lenovo-thinksystem-sr680a-v3", 1), (H200, 8)))
    assert report.get("compat.server_modules").status == "pass"


@pytest.mark.parametrize("server", ["server/gigabyte-g593-sd1", "server/asus-esc-n8-e11"])
def test_the_cpus_the_vendor_ran_fit_its_sockets(catalog: Catalog, server: str) -> None:
    build = _build(catalog, (server, 1), (H100, 8), (XEON_8592, 2))
    report = check_build(build)
    assert report.get("compat.socket").status == "pass"
    assert report.get("compat.cpu_sockets").status == "pass"


@pytest.mark.parametrize("server", MLPERF_BAREBONES)
def test_supplies_no_document_gives_stay_unknown(catalog: Catalog, server: str) -> None:
    platform = catalog.get(server)
    assert platform.number("psu_count") is None and platform.number("psu_unit_w") is None
    assert platform.number("max_memory_gb") is None
    report = check_build(_build(catalog, (server, 1), (platform.text("supported_gpus"), 8)),
                         CheckSettings(mains="208V-60A-3ph"))
    assert report.get("power.server_supplies").status == "unknown"
