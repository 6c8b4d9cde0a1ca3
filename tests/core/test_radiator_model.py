"""A tower's largest radiator judged from towers like it when its own is not published."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.checks import CheckResult, run_checks
from dlhw_desktop.core.checks.radiator_model import (
    LEAVE_OUT_ERROR,
    RADIATOR_GROUPS,
    radiator_group,
)
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part, make_part_id

if TYPE_CHECKING:
    from tests.core.conftest import PartFactory

MakeBuild = Callable[..., Build]


def aio(radiator_mm: int) -> Part:
    specs: dict[str, Any] = dict(cooler_kind="aio", radiator_mm=radiator_mm,
                                 cooling_capacity_w=300, supported_sockets="AM5")
    name = f"Liquid Freezer III Pro {radiator_mm}"
    return Part(id=make_part_id(Category.COOLER, "ARCTIC", name), category=Category.COOLER,
                vendor="ARCTIC", name=name, source="test fixture", source_date="2025-01-15",
                specs=specs)


def radiator_check(build: Build) -> CheckResult:
    found = [r for r in run_checks(build) if r.id == "compat.radiator"]
    assert len(found) == 1
    return found[0]


@pytest.mark.parametrize(("radiator", "status"), [(240, "pass"), (360, "pass"),
                                                   (420, "warn"), (480, "warn")])
def test_a_big_tower_without_a_figure_is_judged_by_towers_like_it(
        parts: PartFactory, make_build: MakeBuild, radiator: int, status: str) -> None:
    case = parts.meshify_2()  # 467 mm for a graphics card, no radiator figure
    r = radiator_check(make_build(aio(radiator), case))
    low, high, models = RADIATOR_GROUPS["over 420"]
    assert (radiator <= low) == (status == "pass")
    assert r.status == status  # never a failure from a handful of models
    assert f"{models} tower models" in r.message and f"{low:.0f}–{high:.0f} mm" in r.message
    assert [u.kind for u in r.basis] == ["estimated"]
    assert r.needs == ((case.id, "max_radiator_mm"),)  # still offered to enter


def test_a_published_figure_wins(parts: PartFactory, make_build: MakeBuild) -> None:
    r = radiator_check(make_build(aio(420), parts.meshify_2(max_radiator_mm=360)))
    assert r.status == "fail" and "estimated" not in r.message


def test_small_towers_and_other_cases_stay_unknown(parts: PartFactory) -> None:
    assert radiator_group(parts.nr200p()) is None  # too few small towers publish theirs
    assert radiator_group(parts.rackmount_4u()) is None
    assert radiator_group(parts.meshify_2(max_gpu_length_mm=None)) is None


@pytest.mark.catalog
def test_the_groups_are_the_fit_of_the_bundled_catalog(catalog_path: object) -> None:
    from dlhw_desktop.catalog.store import Catalog
    from dlhw_desktop.core.checks.radiator_model import fit, leave_out, models

    data = models(Catalog.open(catalog_path).parts(Category.CASE))
    assert fit(data) == RADIATOR_GROUPS
    assert leave_out(data) == LEAVE_OUT_ERROR
