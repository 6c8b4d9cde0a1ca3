"""A supply's cable counts judged from units like it when its own are not listed."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.checks import CheckResult, run_checks
from dlhw_desktop.core.checks.psu_connector_model import (
    CONNECTOR_BANDS,
    LEAVE_OUT_ERROR,
    connector_band,
)

if TYPE_CHECKING:
    from tests.core.conftest import PartFactory

MakeBuild = Callable[..., Build]


def connectors(build: Build) -> CheckResult:
    found = [r for r in run_checks(build) if r.id == "power.connectors"]
    assert len(found) == 1
    return found[0]


def older_unit(parts: PartFactory, wattage: int) -> object:
    """An ATX 2.x unit (no native 16-pin) that lists no PCIe 8-pin count."""
    return parts.evga_850_g5(wattage_w=wattage, connectors_pcie_8pin=None,
                             connectors_12vhpwr=None)


@pytest.mark.parametrize(("cards", "status"), [(1, "pass"), (2, "warn"), (5, "fail")])
def test_unlisted_8pins_get_a_verdict_from_units_like_it(
        parts: PartFactory, make_build: MakeBuild, cards: int, status: str) -> None:
    # Two 8-pins per RX 7900 XTX against 950-1,199 W units with no 16-pin.
    psu = older_unit(parts, 1000)
    r = connectors(make_build((parts.rx_7900_xtx(), cards), psu))
    low, high, units, _ = CONNECTOR_BANDS[("connectors_pcie_8pin", "no 16-pin", "950-1,199 W")]
    assert (2 * cards <= low) == (status == "pass")
    assert (2 * cards > high) == (status == "fail")
    assert r.status == status
    assert f"{units} units of 950-1,199 W with no 16-pin" in r.message
    assert f"{low:.0f}–{high:.0f}" in r.message and "estimated" in r.message
    assert [u.kind for u in r.basis] == ["estimated"]
    assert r.needs == ((psu.id, "connectors_pcie_8pin"),)  # still offered to enter


def test_a_16pin_card_on_an_older_unit_counts_its_adapter(
        parts: PartFactory, make_build: MakeBuild) -> None:
    r = connectors(make_build(parts.rtx_4090(), older_unit(parts, 650)))
    low, high, _, _ = CONNECTOR_BANDS[("connectors_pcie_8pin", "no 16-pin", "550-749 W")]
    assert low < 3 <= high  # a 450 W card's adapter takes three 8-pins
    assert r.status == "warn" and "16-pin adapters (3x 8-pin)" in r.message
    assert "no native 16-pin counted" in r.message and "ATX 2.52" in r.message


def test_a_small_class_is_pooled_with_the_classes_below_it(parts: PartFactory) -> None:
    # Few 1,500 W+ ATX 3.x units publish their 16-pin count: those of 950 W and up answer,
    # and the check says which units it read.
    band = connector_band(parts.prime_tx_1600(connectors_12vhpwr=None), "connectors_12vhpwr")
    low, high, units, span = CONNECTOR_BANDS[("connectors_12vhpwr", "ATX 3.x",
                                              "1,500 W and up")]
    assert band is not None and span == "950 W and up" and units >= 20
    assert (band.low, band.high, band.watt_class) == (low, high, span)
    assert "ATX 3.x units of 950 W and up" in band.describe()


def test_a_listed_count_wins_over_the_estimate(parts: PartFactory,
                                               make_build: MakeBuild) -> None:
    r = connectors(make_build((parts.rx_7900_xtx(), 2), parts.evga_850_g5()))
    assert r.status == "pass" and "estimated" not in r.message
    assert all(u.kind == "vendor" for u in r.basis) and not r.needs


def test_no_estimate_without_enough_units_like_it(parts: PartFactory) -> None:
    # A 16-pin count is estimated for ATX 3.x units only; and too few ATX 3.x units under
    # 750 W publish theirs for a band, even pooled.
    assert connector_band(parts.evga_850_g5(connectors_12vhpwr=None),
                          "connectors_12vhpwr") is None
    assert connector_band(parts.rm750e(wattage_w=650, connectors_12vhpwr=None),
                          "connectors_12vhpwr") is None
    assert connector_band(parts.prime_tx_1600(wattage_w=None),
                          "connectors_pcie_8pin") is None
    # A server's redundant module feeds a backplane: its cables are never estimated.
    module = parts.prime_tx_1600(connectors_pcie_8pin=None, redundant=True,
                                 psu_form_factor="1U redundant module")
    assert connector_band(module, "connectors_pcie_8pin") is None


@pytest.mark.catalog
def test_the_bands_are_the_fit_of_the_bundled_catalog(catalog_path: object) -> None:
    from dlhw_desktop.catalog.store import Catalog
    from dlhw_desktop.core.checks.psu_connector_model import bands, leave_out, rows
    from dlhw_desktop.core.fields import Category

    data = rows(Catalog.open(catalog_path).parts(Category.PSU))
    assert bands(data) == CONNECTOR_BANDS, "refit: python scripts/fit_estimates.py"
    error = leave_out(data)
    assert error["false_pass_share"] == LEAVE_OUT_ERROR["false_pass_share"]
    assert error["false_fail_share"] == LEAVE_OUT_ERROR["false_fail_share"]
