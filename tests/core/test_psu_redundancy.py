"""Redundant server power modules: half of them (rounded up) carry the load."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.checks import CheckResult, run_checks
from dlhw_desktop.core.checks.budget import budget_of
from dlhw_desktop.core.checks.context import CheckContext

if TYPE_CHECKING:
    from tests.core.conftest import PartFactory

MakeBuild = Callable[..., Build]


def found(build: Build, check_id: str) -> list[CheckResult]:
    return [r for r in run_checks(build) if r.id == check_id]


def module(parts: PartFactory):  # type: ignore[no-untyped-def]
    return parts.prime_tx_1600(name="PWS-2K04A-1R 2000W redundant module", wattage_w=2000,
                               atx_version=None, redundant=True)


@pytest.mark.parametrize(("count", "carrying", "usable_w"), [
    (1, 1, 2000), (2, 1, 2000), (3, 2, 4000), (4, 2, 4000)])
def test_redundant_modules_count_what_must_carry_the_load(
        parts: PartFactory, make_build: MakeBuild, count: int, carrying: int,
        usable_w: int) -> None:
    ctx = CheckContext(make_build((parts.epyc_7443(), 2), parts.h12dsi_n6(),
                                  (module(parts), count)))
    assert ctx.psu_carrying == carrying
    assert budget_of(ctx).psu_w == usable_w


def test_atx_units_still_share_the_load(parts: PartFactory, make_build: MakeBuild) -> None:
    ctx = CheckContext(make_build(parts.ryzen_9_7950x(), (parts.prime_tx_1600(), 2)))
    assert ctx.psu_carrying == 2 and budget_of(ctx).psu_w == 3200
    assert found(make_build(parts.ryzen_9_7950x(), (parts.prime_tx_1600(), 2)),
                 "power.redundancy") == []


def test_one_module_without_a_spare_warns(parts: PartFactory, make_build: MakeBuild) -> None:
    (r,) = found(make_build(parts.epyc_7443(), module(parts)), "power.redundancy")
    assert r.status == "warn" and "no spare" in r.message


def test_a_pair_is_one_plus_one(parts: PartFactory, make_build: MakeBuild) -> None:
    build = make_build(parts.epyc_7443(), (module(parts), 2), (parts.a100_pcie_80gb(), 4))
    (r,) = found(build, "power.redundancy")
    assert r.status == "pass" and "(1+1 redundant)" in r.message
    (load,) = found(build, "power.psu_load")
    assert "of the 2,000 W 2x" in load.message  # one module's capacity, not two
