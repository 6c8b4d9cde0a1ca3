"""Cooling: the CPU cooler's rating, the case's heat budget and how the cards get air.

- CPU: ``tdp_w`` against the cooler's ``cooling_capacity_w``. At or above: pass. Within
  80 % of it: warn (the CPU holds clocks in bursts and throttles under sustained
  all-core load; it does not stop working). Below 80 %: fail. Many vendors (Noctua, for
  one) publish no watt rating; then a cooler the chosen workload tier names as an example
  (the seed article's "Noctua NH-D15") passes on the tier's word, anything else is unknown.
- Case: the sustained DC load, all of which ends as heat inside the case, against the
  case's ``heat_capacity_w`` when the catalog has one; above it: warn (parts run hot).
- Open-air cards (``cooling`` "active") blow their heat sideways into the next card when
  the cards touch, i.e. when ``x16_slot_spacing`` < card slot width + 1. If the board and
  case leave room to skip a slot below each open-air card, that is the advice (pass);
  if not, warn: use blower cards, or a board with wider spacing.
- Passive datacenter cards (``cooling`` "passive", PCIe) have no fans: they rely on a
  server chassis pushing air through their fins (NVIDIA's A100/H100 PCIe product briefs
  specify the airflow the server must provide). In a tower or open frame: fail; with no
  case chosen yet: warn.
"""

from __future__ import annotations

from dlhw_desktop.core.checks._util import counted, matches_name, missing, pct, unique, watts
from dlhw_desktop.core.checks.budget import budget_of
from dlhw_desktop.core.checks.context import CheckContext
from dlhw_desktop.core.checks.platform import ordered_cards, place_cards, slot_positions
from dlhw_desktop.core.verdict import CheckResult, Status

COOLER_WARN_FRACTION = 0.8


def check_cpu_cooler(ctx: CheckContext) -> list[CheckResult]:
    if ctx.cpu is None or ctx.cooler is None:
        return []
    cpu, cooler = ctx.cpu, ctx.cooler
    ids = (cpu.id, cooler.id)
    tdp, capacity = cpu.number("tdp_w"), cooler.number("cooling_capacity_w")
    figures = {"cpu_tdp_w": tdp, "cooling_capacity_w": capacity, "cpus": ctx.cpu_count,
               "coolers": ctx.cooler_count}
    if ctx.cooler_count < ctx.cpu_count:
        return [CheckResult(
            "cooling.cpu", "cooling", "fail",
            f"{ctx.cpu_label} but {counted(cooler, ctx.cooler_count)}: each CPU needs its "
            "own cooler", figures, ids, f"Fit {ctx.cpu_count} coolers.")]
    if tdp is None:
        return [CheckResult("cooling.cpu", "cooling", "unknown",
                            f"CPU heat unknown: {missing([(cpu, 'tdp_w')])}", figures, ids)]
    if capacity is None:
        tier = ctx.tier
        named = matches_name(cooler, tier.example_names("cooling")) if tier else None
        if tier is not None and named:
            return [CheckResult(
                "cooling.cpu", "cooling", "pass",
                f"{cooler.display_name} has no published watt rating; the {tier.label.lower()} "
                f"tier names it ({named}) as suitable cooling for a {watts(tdp)} CPU",
                figures, ids)]
        return [CheckResult("cooling.cpu", "cooling", "unknown",
                            f"{cpu.display_name} puts out {watts(tdp)}; "
                            f"{missing([(cooler, 'cooling_capacity_w')])}", figures, ids)]
    status: Status = "pass"
    if capacity < COOLER_WARN_FRACTION * tdp:
        status = "fail"
    elif capacity < tdp:
        status = "warn"
    text = {
        "pass": f"{cooler.display_name} is rated {watts(capacity)} for "
                f"{cpu.display_name}'s {watts(tdp)}",
        "warn": f"{cooler.display_name} is rated {watts(capacity)}, below "
                f"{cpu.display_name}'s {watts(tdp)}: it will throttle under sustained load",
        "fail": f"{cooler.display_name} is rated {watts(capacity)}, far below "
                f"{cpu.display_name}'s {watts(tdp)} ({pct(capacity / tdp)})",
    }[status]
    return [CheckResult("cooling.cpu", "cooling", status, text, figures, ids,
                        "" if status == "pass" else
                        f"Choose a cooler rated for at least {watts(tdp)}.")]


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


def check_card_spacing(ctx: CheckContext) -> list[CheckResult]:
    """Open-air cards stacked without a gap starve the upper card of air."""
    cards = ordered_cards(ctx)
    if len(cards) < 2 or ctx.board is None:
        return []
    open_air = [p for p in cards if p.text("cooling").lower() == "active"]
    if not open_air:
        unknown = [p for p in unique(cards) if not p.text("cooling")]
        if unknown:
            return [CheckResult("cooling.card_spacing", "cooling", "unknown",
                                f"Card airflow unknown: {missing((p, 'cooling') for p in unknown)}",
                                {}, tuple(p.id for p in unknown))]
        return []
    board = ctx.board
    ids = (*tuple(dict.fromkeys(p.id for p in open_air)), board.id)
    spacing, slots = board.number("x16_slot_spacing"), board.number("pcie_x16_slots")
    widths = [slot_positions(p) for p in cards]
    if spacing is None or slots is None or None in widths:
        return []  # check_x16_slots reports the missing figures
    known = [w or 0 for w in widths]
    tight = place_cards(known, int(spacing), int(slots))
    if len(tight) < len(cards):
        return []  # they do not fit at all; check_x16_slots fails
    touching = [cards[i] for i in range(len(cards) - 1)
                if cards[i] in open_air and tight[i + 1] - tight[i] < known[i] + 1]
    figures = {"x16_slot_spacing": spacing, "widest_card_slots": max(known)}
    if not touching:
        return [CheckResult("cooling.card_spacing", "cooling", "pass",
                            "Open-air cards have a free slot position below each "
                            f"(x16 slots {spacing:.0f} positions apart)", figures, ids)]
    gaps = [1 if p in open_air else 0 for p in cards]
    gapped = place_cards(known, int(spacing), int(slots), gaps)
    openings = ctx.case.number("expansion_slots") if ctx.case is not None else None
    if len(gapped) == len(cards) and (
            openings is None or gapped[-1] + known[-1] <= openings):
        used = ", ".join(str(start // int(spacing) + 1) for start in gapped)
        return [CheckResult(
            "cooling.card_spacing", "cooling", "pass",
            f"Open-air cards would touch in adjacent x16 slots; use x16 slots {used} to "
            "leave a gap below each", figures, ids)]
    name = touching[0]
    return [CheckResult(
        "cooling.card_spacing", "cooling", "warn",
        f"{counted(name, cards.count(name))} ({known[cards.index(name)]}-slot, open-air) sit "
        f"{spacing:.0f} slot positions apart: the cards touch and the upper one recirculates "
        "hot air", figures, ids,
        "Use blower-style cards, a board with wider x16 spacing, or risers.")]


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
