"""A tower's cooler clearance judged from towers like it when its own is not published."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.checks import CheckResult, run_checks
from dlhw_desktop.core.checks.case_clearance_model import (
    CLEARANCE_BANDS,
    LEAVE_OUT_ERROR,
    clearance_band,
)

if TYPE_CHECKING:
    from tests.core.conftest import PartFactory

MakeBuild = Callable[..., Build]


def height_check(build: Build) -> CheckResult:
    found = [r for r in run_checks(build) if r.id == "compat.cooler_height"]
    assert len(found) == 1
    return found[0]


@pytest.mark.parametrize(("height", "status"), [(150, "pass"), (180, "warn"), (200, "fail")])
def test_unpublished_clearance_gets_a_verdict_from_towers_like_it(
        parts: PartFactory, make_build: MakeBuild, height: int, status: str) -> None:
    case = parts.meshify_2(max_cooler_height_mm=None, max_gpu_length_mm=400)
    build = make_build(parts.nh_d15(height_mm=height), case)
    r = height_check(build)
    low, high, cases = CLEARANCE_BANDS[("E-ATX", "380-420")]
    assert r.status == status
    assert f"{cases} E-ATX towers" in r.message and f"{low:.0f}–{high:.0f} mm" in r.message
    assert r.basis[0].kind == "estimated"
    assert r.needs == ((case.id, "max_cooler_height_mm"),)  # still offered to enter


def test_a_published_clearance_wins_over_the_estimate(parts: PartFactory,
                                                      make_build: MakeBuild) -> None:
    r = height_check(make_build(parts.nh_d15(height_mm=168),
                                parts.meshify_2(max_cooler_height_mm=185)))
    assert r.status == "pass" and "185 mm clearance" in r.message
    assert all(use.kind == "vendor" for use in r.basis) and not r.needs


def test_no_estimate_for_what_is_not_a_tower(parts: PartFactory) -> None:
    assert clearance_band(parts.rackmount_4u(max_cooler_height_mm=None)) is None
    unknown_boards = parts.meshify_2(supported_board_form_factors="")
    assert clearance_band(unknown_boards) is None


def test_small_bins_fall_back_to_the_whole_class(parts: PartFactory) -> None:
    # No bin row for micro-ATX towers over 420 mm: the class as a whole answers.
    band = clearance_band(parts.meshify_2(supported_board_form_factors="mATX, Mini-ITX",
                                          max_gpu_length_mm=450))
    assert band is not None and band.gpu_bin == "all" and band.board == "Micro-ATX"


@pytest.mark.catalog
def test_the_bands_are_the_fit_of_the_bundled_catalog(catalog_path: object) -> None:
    from dlhw_desktop.catalog.store import Catalog
    from dlhw_desktop.core.checks.case_clearance_model import bands, leave_out, rows
    from dlhw_desktop.core.fields import Category

    data = rows(Catalog.open(catalog_path).parts(Category.CASE))
    assert bands(data) == CLEARANCE_BANDS, "refit: python scripts/fit_estimates.py"
    error = leave_out(data)
    for key, share in LEAVE_OUT_ERROR.items():
        assert error[key] == pytest.approx(share, abs=0.002), (key, error)
