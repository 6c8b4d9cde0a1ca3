"""Totals for what is known (issue 20): one part without a power figure leaves a lower
bound, never a blank, and the checks against a limit stay honest with it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.checks import CheckResult, run_checks, summarize

if TYPE_CHECKING:
    from tests.core.conftest import PartFactory

MakeBuild = Callable[..., Build]


def result(build: Build, check_id: str) -> CheckResult:
    found = [r for r in run_checks(build) if r.id == check_id]
    assert len(found) == 1, f"expected one {check_id}, got {found}"
    return found[0]


def test_one_unknown_tdp_gives_a_lower_bound_and_an_unknown_psu_check(
        parts: PartFactory, make_build: MakeBuild) -> None:
    # a custom card without TDP beside a 4090, a 7950X and a 1,600 W unit
    mystery = parts.rtx_4080(name="Mystery Card", tdp_w=None)
    build = make_build(parts.rtx_4090(), mystery, parts.ryzen_9_7950x(),
                       parts.proart_x670e(), parts.prime_tx_1600())
    summary = summarize(build)
    assert summary.sustained_w is None and summary.wall_w is None  # the whole is unknown
    assert summary.power_lower_bound
    assert summary.sustained_at_least_w == 670  # 450 + 170 + 50 W board
    assert summary.wall_at_least_w is not None and summary.wall_at_least_w > 670
    assert summary.heat_at_least_w == summary.wall_at_least_w
    assert summary.yearly_kwh_at_least is not None and summary.yearly_kwh_at_least > 0
    assert summary.unpowered_parts == 1
    assert summary.unpowered_names == ("NVIDIA Mystery Card",)
    assert ("accelerators", 450) in summary.power_breakdown

    r = result(build, "power.psu_load")
    assert r.status == "unknown"  # 670 W of 1,600 W proves nothing: it cannot pass
    assert "at least 670 W" in r.message
    assert "missing TDP of NVIDIA Mystery Card" in r.message  # the human label
    assert "tdp_w" not in r.message
    circuit = result(build, "power.circuit")
    assert circuit.status == "unknown" and "TDP of NVIDIA Mystery Card" in circuit.message


def test_known_parts_alone_overload_the_psu_so_it_fails(parts: PartFactory,
                                                        make_build: MakeBuild) -> None:
    mystery = parts.rtx_4080(name="Mystery Card", tdp_w=None)
    build = make_build((parts.rtx_4090(), 2), mystery, parts.ryzen_9_7950x(),
                       parts.rm850x())
    r = result(build, "power.psu_load")
    assert r.status == "fail"  # 900 + 170 + 50 W > 850 W whatever the mystery card draws
    assert "at least 1,120 W" in r.message and "TDP of NVIDIA Mystery Card" in r.message
    assert r.suggestion.startswith("Choose a PSU of at least")
    assert r.figures["sustained_at_least_w"] == 1120


def test_known_parts_past_the_headroom_line_warn(parts: PartFactory,
                                                 make_build: MakeBuild) -> None:
    mystery = parts.rtx_4080(name="Mystery Card", tdp_w=None)
    build = make_build(parts.rtx_4090(), mystery, parts.ryzen_9_7950x(), parts.rm750e())
    r = result(build, "power.psu_load")
    assert r.status == "warn"  # 670 W is 89 % of 750 W already
    assert "89 %" in r.message and "TDP of NVIDIA Mystery Card" in r.message


def test_a_cpu_without_tdp_is_counted_too(parts: PartFactory, make_build: MakeBuild) -> None:
    build = make_build(parts.rtx_4090(), parts.ryzen_9_7950x(tdp_w=None), parts.rm850x())
    summary = summarize(build)
    assert summary.power_lower_bound and summary.sustained_at_least_w == 500
    assert summary.unpowered_names == ("AMD Ryzen 9 7950X",)


def test_a_known_build_is_exact_and_carries_no_lower_bound(parts: PartFactory,
                                                           make_build: MakeBuild) -> None:
    build = make_build(parts.rtx_4090(), parts.ryzen_9_7950x(), parts.rm850x())
    summary = summarize(build)
    assert summary.sustained_w == 670 and not summary.power_lower_bound
    assert summary.sustained_at_least_w is None and summary.unpowered_parts == 0
    assert summary.unpowered_names == ()


@pytest.mark.parametrize(("capacity", "status"), [(400, "warn"), (2000, "unknown")])
def test_case_heat_with_a_lower_bound(parts: PartFactory, make_build: MakeBuild,
                                      capacity: int, status: str) -> None:
    mystery = parts.rtx_4080(name="Mystery Card", tdp_w=None)
    build = make_build(parts.rtx_4090(), mystery, parts.ryzen_9_7950x(), parts.rm850x(),
                       parts.meshify_2(heat_capacity_w=capacity))
    r = result(build, "cooling.case")
    assert r.status == status and "TDP of NVIDIA Mystery Card" in r.message
