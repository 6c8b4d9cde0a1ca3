"""What the case must hold and carry away: its power supply bays, and the heat of stacked
open-air cards against its airflow.

**Power supply bays.** Several ATX supplies (not a server's redundant modules, which the
chassis is built for) need a bay each. The case's ``psu_bays`` decides when known; most
towers hold one ATX supply and a few two (the open data holds no count, so an unknown
tower is judged on that: two warn, three or more fail); an open frame mounts several.

**Airflow.** Every watt the build draws ends as heat; open-air cards blow all of theirs
into the case, a blower card most of its through the bracket. The air a case moves
carries away ``rho * cp * flow * rise``: 1.2 kg/m^3 x 1,005 J/(kg K) x flow x 15 K, i.e.
8.5 W per CFM for the case air at 15 K over the room (the GPUs then breathe 40 C air in a
25 C room). A fan's flow in a case (filters, mesh, radiators) is taken as half its
free-air rating (60 CFM for a 120 mm fan, 80 for 140 mm, 110 for 200 mm), with a +-30 %
band for what the case's resistance does to it. With the fan count known (the case's
"fans included", or entered from the box) the band is the case's; unknown, a typical
airflow tower with three 140 mm intake fans is assumed and said. At or below the band's
low end: pass; above it: warn (the cards throttle). Judged when two or more open-air
cards share the case; a single card is what every tower is built for.
"""

from __future__ import annotations

from dlhw_desktop.core.checks._util import counted, missing, watts
from dlhw_desktop.core.checks.basis import use
from dlhw_desktop.core.checks.budget import budget_of
from dlhw_desktop.core.checks.context import CheckContext
from dlhw_desktop.core.verdict import CheckResult, FigureUse, Status

AIR_W_PER_CFM = 1.2 * 1005 * 4.719e-4 * 15  # 8.54 W per CFM at a 15 K rise
FREE_AIR_CFM = {120: 60.0, 140: 80.0, 200: 110.0}
IN_CASE_FRACTION = 0.5
BAND = 0.3
BLOWER_INSIDE = 0.2
"""Share of a blower card's heat left in the case (most leaves through its bracket)."""
ASSUMED_FANS, ASSUMED_FAN_MM = 3, 140


def fan_cfm(size_mm: float) -> float:
    """Free-air flow of one fan of this size (the nearest size in the table, scaled by
    area beyond it)."""
    nearest = min(FREE_AIR_CFM, key=lambda size: abs(size - size_mm))
    return FREE_AIR_CFM[nearest] * (size_mm / nearest) ** 2


def airflow_band(fans: int, size_mm: float) -> tuple[float, float]:
    """(low, high) heat in W the case's air removes at a 15 K rise."""
    centre = fans * fan_cfm(size_mm) * IN_CASE_FRACTION * AIR_W_PER_CFM
    return centre * (1 - BAND), centre * (1 + BAND)


def check_case_airflow(ctx: CheckContext) -> list[CheckResult]:
    case = ctx.case
    if case is None or case.number("heat_capacity_w") is not None:
        return []  # no case, or a rated case: checks.cooling judges its rating
    if case.text("case_kind").lower() in ("rackmount", "open-frame"):
        return []  # a server's fans, or open air
    open_air = [p for p in ctx.cards if p.text("cooling").lower() == "active"]
    if len(open_air) < 2:
        return []
    budget = budget_of(ctx)
    if budget.sustained_w is None:
        return []  # checks.power names the missing power figure
    blowers = [p for p in ctx.cards if p.text("cooling").lower() == "blower"]
    left_out = sum((p.number("tdp_w") or 0.0) * (1 - BLOWER_INSIDE) for p in blowers)
    heat = budget.sustained_w - left_out
    fans = case.number("fans_included")
    size = case.number("case_fan_mm")
    basis: list[FigureUse] = [use(p, "tdp_w") for p in {p.id: p for p in open_air}.values()]
    needs: tuple[tuple[str, str], ...] = ()
    if fans:
        low, high = airflow_band(int(fans), size or 120)
        what = (f"{fans:.0f} fans of {size or 120:.0f} mm"
                + ("" if size else " (size assumed)"))
        basis.append(use(case, "fans_included"))
    else:
        low, high = airflow_band(ASSUMED_FANS, ASSUMED_FAN_MM)
        what = (f"assumed {ASSUMED_FANS} intake fans of {ASSUMED_FAN_MM} mm, a typical "
                "airflow tower: its fan count is not in the catalog")
        needs = ((case.id, "fans_included"),)
    band = f"{low:,.0f}–{watts(high)}"
    basis.append(FigureUse(case.id, case.display_name, "fans_included", "airflow", band,
                           "estimated", "physics: 8.5 W per CFM at a 15 K rise"))
    cards = counted(open_air[0], len(open_air)) if len({p.id for p in open_air}) == 1 \
        else f"{len(open_air)} open-air cards"
    figures = {"heat_in_case_w": round(heat), "airflow_low_w": round(low),
               "airflow_high_w": round(high), "fans": fans, "fan_mm": size}
    ids = (case.id, *dict.fromkeys(p.id for p in open_air))
    status: Status = "pass" if heat <= low else "warn"
    head = (f"{watts(heat)} of heat in {case.display_name} ({cards} blow theirs into the "
            f"case); its air removes about {band} at a 15 K rise ({what})")
    if status == "pass":
        return [CheckResult("cooling.case_airflow", "cooling", "pass", head, figures, ids,
                            basis=tuple(basis), needs=needs)]
    worse = "well beyond" if heat > high else "near or beyond"
    return [CheckResult(
        "cooling.case_airflow", "cooling", "warn",
        f"{head}: {worse} what it carries away, so the cards breathe hot air and throttle",
        figures, ids,
        "Use blower cards, more or larger intake fans, power-limit the cards, or an open "
        "frame or rackmount chassis.", tuple(basis), needs)]


def check_psu_bays(ctx: CheckContext) -> list[CheckResult]:
    case, psu = ctx.case, ctx.psu
    if case is None or psu is None or ctx.psu_redundant or ctx.psu_count < 2:
        return []
    count = ctx.psu_count
    kind = case.text("case_kind").lower()
    bays = case.number("psu_bays")
    ids = (case.id, psu.id)
    figures = {"psu_count": count, "psu_bays": bays}
    supplies = f"{count} ATX power supplies"
    if bays is not None:
        if count <= bays:
            return [CheckResult("power.psu_bays", "power", "pass",
                                f"{supplies} fit {case.display_name}'s {bays:.0f} bays",
                                figures, ids, basis=(use(case, "psu_bays"),))]
        return [CheckResult(
            "power.psu_bays", "power", "fail",
            f"{supplies} but {case.display_name} holds {bays:.0f}", figures, ids,
            "Choose one larger supply, a case with more bays, or an open frame.",
            (use(case, "psu_bays"),))]
    if kind == "open-frame":
        return [CheckResult("power.psu_bays", "power", "pass",
                            f"{supplies} on an open frame, which mounts several",
                            figures, ids)]
    needs = ((case.id, "psu_bays"),)
    assumed = FigureUse(case.id, case.display_name, "psu_bays", "power supply bays",
                        "1 (most towers; a few 2)", "estimated", "")
    if count == 2:
        return [CheckResult(
            "power.psu_bays", "power", "warn",
            f"{supplies}: most towers hold one and only a few (e.g. Phanteks Enthoo Pro 2, "
            f"Corsair 1000D) two; {missing([(case, 'psu_bays')])}", figures, ids,
            "Check the case's manual for a second PSU mount, or choose one larger supply.",
            (assumed,), needs)]
    return [CheckResult(
        "power.psu_bays", "power", "fail",
        f"{supplies}: a tower holds one, a few two, none {count}; "
        f"{missing([(case, 'psu_bays')])}", figures, ids,
        "Choose one or two larger supplies, an open frame, or a server chassis with "
        "redundant modules.", (assumed,), needs)]


CHECKS = (check_psu_bays, check_case_airflow)
