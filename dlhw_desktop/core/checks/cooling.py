"""Cooling: the CPU cooler's rating, the case's heat budget and how the cards get air.

- CPU: the CPU's power as drawn (``checks.cpu_power``: sustained PL2/PPT where known, else
  base power, said so) against the cooler's capacity band (``checks.cooler_model``:
  measured by a review, else the maker's rating, else estimated from its height or
  radiator with the model's error). At or below the band's low end: pass; above its high
  end: fail; between: warn (the CPU throttles under sustained all-core load; it does not
  stop working). Without any of them, a cooler the chosen workload tier names as an
  example (the seed article's "Noctua NH-D15") passes on the tier's word; else unknown.
- Case: the sustained DC load, all of which ends as heat inside the case, against the
  case's ``heat_capacity_w`` when the catalog has one; above it: warn (parts run hot).
- Open-air cards stacked without a gap: ``checks.card_spacing``.
- Passive datacenter cards (``cooling`` "passive", PCIe) have no fans: they rely on a
  server chassis pushing air through their fins (NVIDIA's A100/H100 PCIe product briefs
  specify the airflow the server must provide). In a tower or open frame: fail; with no
  case chosen yet: warn.
"""

from __future__ import annotations

import math

from dlhw_desktop.core.checks._util import counted, matches_name, missing, watts
from dlhw_desktop.core.checks.basis import use
from dlhw_desktop.core.checks.budget import budget_of
from dlhw_desktop.core.checks.card_spacing import check_card_spacing
from dlhw_desktop.core.checks.context import CheckContext
from dlhw_desktop.core.checks.cooler_model import CoolerCapacity, cooler_capacity
from dlhw_desktop.core.checks.cpu_power import CpuPower, cpu_power
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.verdict import FIGURE_KINDS, CheckResult, FigureUse, Status


def check_cpu_cooler(ctx: CheckContext) -> list[CheckResult]:
    if ctx.cpu is None or ctx.cooler is None:
        return []
    cpu, cooler = ctx.cpu, ctx.cooler
    ids = (cpu.id, cooler.id)
    drawn = cpu_power(cpu)
    capacity = cooler_capacity(cooler, ctx.socket)
    figures: dict[str, float | int | str | None] = {
        "cpu_power_w": drawn.watts if drawn else None,
        "cpu_power_kind": drawn.basis if drawn else None,
        "cpu_tdp_w": cpu.number("tdp_w"),
        "cooler_capacity_low_w": round(capacity.low_w) if capacity else None,
        "cooler_capacity_high_w": (round(capacity.high_w) if capacity
                                   and math.isfinite(capacity.high_w) else None),
        "cooler_capacity_kind": capacity.kind if capacity else None,
        "cooling_capacity_w": cooler.number("cooling_capacity_w"),
        "cpus": ctx.cpu_count, "coolers": ctx.cooler_count}
    if ctx.cooler_count < ctx.cpu_count:
        return [CheckResult(
            "cooling.cpu", "cooling", "fail",
            f"{ctx.cpu_label} but {counted(cooler, ctx.cooler_count)}: each CPU needs its "
            "own cooler", figures, ids, f"Fit {ctx.cpu_count} coolers.")]
    if drawn is None:
        return [CheckResult("cooling.cpu", "cooling", "unknown",
                            f"CPU heat unknown: {missing([(cpu, 'tdp_w')])}", figures, ids)]
    heat = drawn.watts
    if capacity is None:
        tier = ctx.tier
        named = matches_name(cooler, tier.example_names("cooling")) if tier else None
        if tier is not None and named:
            return [CheckResult(
                "cooling.cpu", "cooling", "pass",
                f"{cooler.display_name} has no measured or published capacity; the "
                f"{tier.label.lower()} tier names it ({named}) as suitable cooling for a "
                f"{watts(heat)} CPU", figures, ids)]
        return [CheckResult("cooling.cpu", "cooling", "unknown",
                            f"{cpu.display_name} draws {drawn.describe()}; "
                            f"{missing([(cooler, 'cooling_capacity_w')])} (and no height or "
                            "radiator size to estimate it from)", figures, ids)]
    band = (f"at least {watts(capacity.low_w)}" if not math.isfinite(capacity.high_w)
            else f"{watts(capacity.low_w)}" if capacity.high_w - capacity.low_w < 1
            else f"{capacity.low_w:,.0f}–{watts(capacity.high_w)}")
    rated = cooler.number("cooling_capacity_w")
    entered = (" (your figure)" if cooler.figure_kind("cooling_capacity_w") == "your figure"
               else "")
    beside = (f"; its maker rates it {watts(rated)}{entered}"
              if rated is not None and capacity.kind not in ("vendor", "your figure") else "")
    holds = f"{cooler.display_name} holds {band} ({capacity.basis}{beside})"
    status: Status = ("pass" if heat <= capacity.low_w
                      else "fail" if heat > capacity.high_w else "warn")
    if status == "warn" and not math.isfinite(capacity.high_w):
        return [CheckResult(
            "cooling.cpu", "cooling", "unknown",
            f"{holds}; {cpu.display_name} draws {drawn.describe()}: whether it holds that "
            f"on this socket is unknown ({missing([(cooler, 'cooling_capacity_w')])}); "
            "enter the cooler's capacity from its maker's page or box to judge it",
            figures, ids)]
    basis = _cooler_basis(cpu, drawn, cooler, capacity, band)
    text = {
        "pass": f"{holds}; {cpu.display_name} draws {drawn.describe()}{drawn.board_note}",
        "warn": f"{holds}; {cpu.display_name} draws {drawn.describe()}: it will throttle "
                f"under sustained all-core load{drawn.board_note}",
        "fail": f"{holds}, below {cpu.display_name}'s {drawn.describe()}: it throttles "
                f"hard under all-core load{drawn.board_note}",
    }[status]
    return [CheckResult("cooling.cpu", "cooling", status, text, figures, ids,
                        "" if status == "pass" else
                        f"Choose a cooler that holds at least {watts(heat)}, or set the "
                        "CPU's power limit lower in the board's firmware.", basis)]


def _cooler_basis(cpu: Part, drawn: CpuPower, cooler: Part, capacity: CoolerCapacity,
                  band: str) -> tuple[FigureUse, ...]:
    """The CPU's power figure and the cooler's capacity, each with its kind."""
    power_field = "sustained_power_w" if drawn.sustained else "tdp_w"
    field = {"vendor": "cooling_capacity_w"}.get(capacity.kind, "")
    if not field:
        field = ("measured_capacity_w" if cooler.get("measured_capacity_w") is not None
                 else "measured_capacity_at_least_w" if capacity.kind != "estimated"
                 else "height_mm" if cooler.get("height_mm") is not None
                 else "radiator_mm")
    kind = capacity.kind if capacity.kind in FIGURE_KINDS else "estimated"
    held = FigureUse(cooler.id, cooler.display_name, field, "heat capacity", band,
                     kind,  # type: ignore[arg-type]
                     cooler.source_of(field).source if kind != "estimated" else capacity.basis)
    return (use(cpu, power_field), held)


def check_case_heat(ctx: CheckContext) -> list[CheckResult]:
    if ctx.case is None:
        return []
    capacity = ctx.case.number("heat_capacity_w")
    heat = budget_of(ctx).sustained_w
    at_least = budget_of(ctx).sustained_at_least_w
    if capacity is None or (heat is None and not at_least):
        return []  # "when known": most cases publish no heat figure
    ids = (ctx.case.id,)
    if heat is None:  # a part lacks its power figure: a lower bound never passes
        assert at_least is not None
        figures = {"heat_at_least_w": at_least, "heat_capacity_w": capacity}
        absent = missing(budget_of(ctx).missing)
        if at_least > capacity:
            return [CheckResult(
                "cooling.case", "cooling", "warn",
                f"At least {watts(at_least)} of heat already exceeds "
                f"{ctx.case.display_name}'s {watts(capacity)} airflow rating; {absent}",
                figures, ids, "Choose a case with more airflow, or power-limit the GPUs.")]
        return [CheckResult(
            "cooling.case", "cooling", "unknown",
            f"At least {watts(at_least)} of heat against {ctx.case.display_name}'s "
            f"{watts(capacity)} airflow rating; {absent}", figures, ids)]
    figures = {"heat_w": heat, "heat_capacity_w": capacity}
    if heat <= capacity:
        return [CheckResult("cooling.case", "cooling", "pass",
                            f"{watts(heat)} of heat is within {ctx.case.display_name}'s "
                            f"{watts(capacity)} airflow rating", figures, ids)]
    return [CheckResult("cooling.case", "cooling", "warn",
                        f"{watts(heat)} of heat exceeds {ctx.case.display_name}'s "
                        f"{watts(capacity)} airflow rating: parts will run hot and throttle",
                        figures, ids, "Choose a case with more airflow, or power-limit the GPUs.")]


def check_passive_cards(ctx: CheckContext) -> list[CheckResult]:
    passive = [i for i in ctx.accelerators
               if i.part.text("cooling").lower() == "passive"
               and i.part.text("form_factor").lower() in ("pcie", "")]
    if not passive:
        return []
    names = ", ".join(counted(i.part, i.quantity) for i in passive)
    ids = tuple(i.part.id for i in passive)
    if ctx.case is None:
        return [CheckResult("cooling.passive", "cooling", "warn",
                            f"{names} is passively cooled: it needs the forced airflow of a "
                            "rackmount server chassis", {"case_kind": None}, ids,
                            "Choose a rackmount GPU server chassis.")]
    kind = ctx.case.text("case_kind").lower()
    ids += (ctx.case.id,)
    if not kind:
        return [CheckResult("cooling.passive", "cooling", "unknown",
                            f"{names} is passively cooled; "
                            f"{missing([(ctx.case, 'case_kind')])}", {"case_kind": None}, ids)]
    if kind == "rackmount":
        return [CheckResult("cooling.passive", "cooling", "pass",
                            f"{names} is passively cooled; {ctx.case.display_name} is a "
                            "rackmount chassis with server airflow", {"case_kind": kind}, ids)]
    return [CheckResult("cooling.passive", "cooling", "fail",
                        f"{names} has no fans and needs server airflow; "
                        f"{ctx.case.display_name} is a {kind}: it will overheat and throttle "
                        "or shut down", {"case_kind": kind}, ids,
                        "Choose a rackmount GPU chassis, or an actively cooled card "
                        "(e.g. a workstation blower card).")]


CHECKS = (check_cpu_cooler, check_case_heat, check_card_spacing, check_passive_cards)
