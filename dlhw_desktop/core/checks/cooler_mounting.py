"""Will the CPU cooler mount: its socket, its height under the case's side panel, its
radiator in the case's radiator mounts.
"""

from __future__ import annotations

from dlhw_desktop.core.checks._util import (
    missing,
)
from dlhw_desktop.core.checks.case_clearance_model import ClearanceBand, clearance_band
from dlhw_desktop.core.checks.context import CheckContext
from dlhw_desktop.core.checks.radiator_model import RadiatorGroup, radiator_group
from dlhw_desktop.core.compat.vocabulary import socket_list
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.verdict import CheckResult, FigureUse, Status

LIQUID_COOLER_KINDS = frozenset({"aio", "custom-loop"})
"""Cooler kinds whose CPU block is a low pump block: the case's cooler clearance does not
apply to them (an AIO's radiator must fit a radiator mount instead; a custom loop's
radiators are parts of their own)."""


def check_cooler_height(ctx: CheckContext) -> list[CheckResult]:
    if ctx.cooler is None or ctx.case is None:
        return []
    cooler, case = ctx.cooler, ctx.case
    if cooler.text("cooler_kind").lower() in LIQUID_COOLER_KINDS:
        return []  # the pump block sits on the CPU; check_radiator judges an AIO
    ids = (cooler.id, case.id)
    height, clearance = cooler.number("height_mm"), case.number("max_cooler_height_mm")
    absent = [(p, f) for p, f, v in ((cooler, "height_mm", height),
                                     (case, "max_cooler_height_mm", clearance)) if v is None]
    figures = {"height_mm": height, "max_cooler_height_mm": clearance}
    if height is not None and clearance is None:
        band = clearance_band(case)
        if band is not None:
            return [_estimated_fit(cooler, case, height, band)]
    if absent:
        return [CheckResult("compat.cooler_height", "compatibility", "unknown",
                            f"Cooler height fit unknown: {missing(absent)}", figures, ids)]
    assert height is not None and clearance is not None
    if height <= clearance:
        return [CheckResult("compat.cooler_height", "compatibility", "pass",
                            f"{cooler.display_name} ({height:.0f} mm) fits "
                            f"{case.display_name}'s {clearance:.0f} mm clearance",
                            figures, ids)]
    return [CheckResult("compat.cooler_height", "compatibility", "fail",
                        f"{cooler.display_name} is {height:.0f} mm tall; "
                        f"{case.display_name} takes coolers up to {clearance:.0f} mm",
                        figures, ids, "Choose a lower cooler, an AIO, or a wider case.")]


def _estimated_fit(cooler: Part, case: Part, height: float,
                   band: ClearanceBand) -> CheckResult:
    """The cooler against the clearances of towers like this one (its own is unknown)."""
    size = f"{band.board} towers" + (
        "" if band.gpu_bin == "all" else f" with {band.gpu_bin} mm for a graphics card")
    shown = f"{band.low_mm:.0f}–{band.high_mm:.0f} mm"
    basis = (FigureUse(case.id, case.display_name, "max_cooler_height_mm", "cooler clearance",
                       shown, "estimated",
                       f"5th-95th percentile of {band.cases} {size} in the catalog"),)
    figures = {"height_mm": height, "max_cooler_height_mm": None,
               "estimated_clearance_low_mm": band.low_mm,
               "estimated_clearance_high_mm": band.high_mm}
    head = (f"{cooler.display_name} ({height:.0f} mm) in {case.display_name}, whose cooler "
            f"clearance is not in the catalog: {band.cases} {size} clear {shown} "
            "(5th-95th percentile)")
    status: Status
    if height <= band.low_mm:
        status, verdict = "pass", "95 % of them take it"
    elif height > band.high_mm:
        status, verdict = "fail", "fewer than 5 % of them take it"
    else:
        status, verdict = "warn", "some do not take it; check the case's specification"
    return CheckResult(
        "compat.cooler_height", "compatibility", status, f"{head}: {verdict}", figures,
        (cooler.id, case.id),
        "" if status == "pass" else "Enter the case's cooler clearance, or choose a lower "
        "cooler or an AIO.", basis, ((case.id, "max_cooler_height_mm"),))


def check_radiator(ctx: CheckContext) -> list[CheckResult]:
    """An AIO's radiator against the largest radiator the case mounts."""
    if ctx.cooler is None or ctx.case is None:
        return []
    cooler, case = ctx.cooler, ctx.case
    if cooler.text("cooler_kind").lower() != "aio":
        return []
    ids = (cooler.id, case.id)
    radiator, mount = cooler.number("radiator_mm"), case.number("max_radiator_mm")
    figures = {"radiator_mm": radiator, "max_radiator_mm": mount}
    absent = [(p, f) for p, f, v in ((cooler, "radiator_mm", radiator),
                                     (case, "max_radiator_mm", mount)) if v is None]
    if radiator is not None and mount is None:
        group = radiator_group(case)
        if group is not None:
            return [_estimated_radiator(cooler, case, radiator, group)]
    if absent:
        return [CheckResult("compat.radiator", "compatibility", "unknown",
                            f"Radiator fit unknown: {missing(absent)}", figures, ids)]
    assert radiator is not None and mount is not None
    if radiator <= mount:
        return [CheckResult("compat.radiator", "compatibility", "pass",
                            f"{cooler.display_name}'s {radiator:.0f} mm radiator fits "
                            f"{case.display_name} (radiators up to {mount:.0f} mm)",
                            figures, ids)]
    return [CheckResult("compat.radiator", "compatibility", "fail",
                        f"{cooler.display_name} has a {radiator:.0f} mm radiator; "
                        f"{case.display_name} mounts radiators up to {mount:.0f} mm",
                        figures, ids,
                        "Choose an AIO with a smaller radiator, an air cooler, or a larger "
                        "case.")]


def _estimated_radiator(cooler: Part, case: Part, radiator: float,
                        group: RadiatorGroup) -> CheckResult:
    """The radiator against the towers like this case whose largest radiator is published
    (``radiator_model``); passes only where every one of them takes it, else warns."""
    towers = f"{group.models} tower models with {group.gpu_bin} mm for a graphics card"
    shown = f"{group.low_mm:.0f}–{group.high_mm:.0f} mm"
    basis = (FigureUse(case.id, case.display_name, "max_radiator_mm", "largest radiator",
                       shown, "estimated",
                       f"smallest and largest of {towers} in the catalog"),)
    figures = {"radiator_mm": radiator, "max_radiator_mm": None,
               "estimated_radiator_low_mm": group.low_mm,
               "estimated_radiator_high_mm": group.high_mm}
    head = (f"{cooler.display_name}'s {radiator:.0f} mm radiator in {case.display_name}, "
            f"whose largest radiator is not in the catalog: the {towers} whose figure is "
            f"published mount {shown}")
    if radiator <= group.low_mm:
        status: Status = "pass"
        verdict = "every one of them takes it (estimated)"
    else:
        status = "warn"
        verdict = "not all of them take it; check the case's specification"
    return CheckResult(
        "compat.radiator", "compatibility", status, f"{head}: {verdict}", figures,
        (cooler.id, case.id),
        "" if status == "pass" else "Enter the case's largest radiator, or choose a "
        "smaller radiator or an air cooler.", basis, ((case.id, "max_radiator_mm"),))


def check_cooler_socket(ctx: CheckContext) -> list[CheckResult]:
    if ctx.cooler is None or (ctx.cpu is None and ctx.board is None):
        return []
    cooler = ctx.cooler
    platform = ctx.cpu or ctx.board
    assert platform is not None
    ids = (cooler.id, platform.id)
    supported = socket_list(cooler.text("supported_sockets"))
    absent = []
    if not ctx.socket:
        absent.append((platform, "socket"))
    if not supported:
        absent.append((cooler, "supported_sockets"))
    figures = {"socket": platform.text("socket") or None,
               "supported_sockets": cooler.text("supported_sockets") or None}
    if absent:
        return [CheckResult("compat.cooler_socket", "compatibility", "unknown",
                            f"Cooler mounting unknown: {missing(absent)}", figures, ids)]
    socket = platform.text("socket")
    if ctx.socket in supported:
        return [CheckResult("compat.cooler_socket", "compatibility", "pass",
                            f"{cooler.display_name} mounts on {socket}", figures, ids)]
    return [CheckResult("compat.cooler_socket", "compatibility", "fail",
                        f"{cooler.display_name} supports {cooler.text('supported_sockets')}, "
                        f"not {socket}", figures, ids,
                        f"Choose a cooler with a {socket} mounting kit.")]
