"""Power: sustained load against the PSU, GPU transients, cables, wall draw and energy.

Figures used (all DC watts unless said otherwise):

- Accelerators: ``tdp_w`` (board power) x count, SXM/OAM modules excluded (their server
  baseboard powers them; ``compat.baseboard`` fails them); CPU: its sustained package
  power (``sustained_power_w``: Intel's PL2, AMD's PPT) where known, else its base power
  (``tdp_w``), said so (``checks.cpu_power``).
- Platform allowances, deliberately round, for parts the catalog has no power figure for:

  * motherboard 50 W (consumer sockets) or 80 W (workstation/server sockets: more VRM
    phases, a BMC, 10 GbE): chipset(s), VRM losses, onboard controllers. AMD's X670E
    uses two chipset dies (~7 W each) and VRM losses at a 170-350 W CPU load add
    20-40 W, which is where these figures come from. Counted whenever the build has a
    CPU or a board, because the machine will have a board either way.
  * 5 W per DIMM: DDR5 modules draw about 3-6 W under load (Micron and Kingston DDR5
    module data sheets); RDIMMs sit at the top of that range. A kit whose module count
    is unknown counts as one module.
  * storage: the drive's own ``power_w`` when the catalog has it, else 8 W per NVMe SSD
    (PCIe 4.0 drives list 6-9 W peak in their data sheets), 8 W per 3.5" HDD (Seagate
    Exos / WD Ultrastar data sheets list 6-10 W operating), 4 W per SATA SSD, 0 W for a
    networked storage system (it is not in the box).
  * fans and pump 15 W, counted once a case is chosen (the case brings the fans): five
    140 mm fans at ~2-3 W each, or an AIO pump and fans.

- PSU load: sustained / rated output. Pass up to 80 %, warn above 80 % (no headroom for
  CPU boost, ageing capacitors or a warm room; efficiency also falls past ~50 % load),
  fail above 100 %.
- GPU transients. The PCIe CEM 5.0 / ATX 3.0 rules let an add-in card draw up to 3x its
  sustained power for up to 100 microseconds, and an ATX 3.x PSU must ride through a
  total excursion of 200 % of its rating for 100 microseconds (Intel, "ATX Version 3.0
  Multi Rail Desktop Platform Power Supply Design Guide", doc. 336521, section on power
  excursions; Intel's Stephen Eastman to PCWorld, April 2022). Older (ATX 2.x) units
  were not designed for this: Intel's own example is a 300 W GPU + 300 W CPU + 150 W rest
  that runs on a 750 W ATX 3.0 unit but may need ~1,100 W from an ATX 2.x unit. We
  model that as the cards momentarily at 2x board power (sustained + GPU power, 1,050 W
  in Intel's example) against the rating of an ATX 2.x unit, and the cards at 3x
  against 200 % of the rating of an ATX 3.x unit. Exceeding either is a warning (a
  possible shutdown under load), not a failure. A unit whose ATX version is unknown is
  judged as ATX 2.x (the stricter case; most units sold before 2022), and says so.
- Connectors: a PCIe 8-pin carries 150 W, a 12VHPWR / 12V-2x6 (16-pin) up to 600 W, the
  slot 75 W (PCIe CEM). A 16-pin card can run from 8-pin cables through the adapter
  shipped with it (NVIDIA's 4090 adapter takes 3-4 8-pins; we ask for
  ceil((board power - 75 W from the slot) / 150 W) of them, 2 to 4): a warning, not a
  failure, when enough 8-pins are spare. An "8-pin CPU (EPS)" card (A100/A6000 class)
  takes NVIDIA's dual PCIe 8-pin to EPS adapter, or a spare EPS cable the catalog cannot
  count.
- Wall draw: DC load / efficiency, the efficiency interpolated on the PSU's 80 PLUS
  curve at its load. 80 PLUS thresholds, 115 V internal non-redundant, at 20/50/100 %
  load (CLEAResult, "80 PLUS Power Supply Certification" program requirements):
  White 80/80/80, Bronze 82/85/82, Silver 85/88/85, Gold 87/90/87, Platinum 90/92/89,
  Titanium 92/94/90 (Titanium also 90 at 10 %). Below 20 % the 20 % figure is used,
  above 100 % the 100 % figure. These are minimums, so real units often do a little
  better; at 230 V units run 2-3 points better, which we ignore (conservative). With no
  PSU, or one without a rating, 80 % is assumed and the result says so.
- Energy: wall draw x 8,760 h x utilisation; idle draw is ignored (the machine is assumed
  off or asleep when not training), so the figure is the training energy.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable

from dlhw_desktop.core.checks._util import (
    SERVER_MODULE_FORMS,
    join,
    missing,
    pct,
    round_up,
    unique,
    watts,
)
from dlhw_desktop.core.checks.basis import use
from dlhw_desktop.core.checks.budget import budget_of
from dlhw_desktop.core.checks.connectors import SLOT_W, check_connectors, is_atx3
from dlhw_desktop.core.checks.context import CheckContext
from dlhw_desktop.core.checks.cpu_power import cpu_power
from dlhw_desktop.core.checks.settings import MAINS, Mains
from dlhw_desktop.core.compat.psu_power import (
    ATX3_CARD_SPIKE,
    ATX3_EXCURSION,
    LEGACY_CARD_SPIKE,
    PSU_FAIL_LOAD,
    PSU_WARN_LOAD,
)
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.verdict import CheckResult, FigureUse, Status

MIN_POWER_LIMIT = 0.5
"""Below half its rated power a card loses too much throughput to be a fix we suggest."""


# --- power-limit suggestion ------------------------------------------------------------


def power_limit_advice(ctx: CheckContext, target_dc_w: float,
                       outcome: Callable[[float], str]) -> tuple[str, float | None]:
    """A per-model GPU power limit that brings the DC load down to ``target_dc_w``.

    Every card is limited by the same fraction of its board power (what ``nvidia-smi -pl``
    per card amounts to), rounded down to 10 W. Returns ``(text, new sustained W)``; the
    text is empty when no limit can help (no cards, or below half power).
    """
    budget = budget_of(ctx)
    if budget.sustained_w is None or not budget.gpu_w:
        return "", None
    non_gpu = budget.sustained_w - budget.gpu_w
    fraction = (target_dc_w - non_gpu) / budget.gpu_w
    if fraction >= 1.0 or fraction < MIN_POWER_LIMIT:
        return "", None
    limits: list[tuple[Part, int, float]] = []
    for item in ctx.accelerators:
        if item.part.text("form_factor").lower() in SERVER_MODULE_FORMS:
            continue
        tdp = item.part.number("tdp_w") or 0.0
        limits.append((item.part, item.quantity, math.floor(tdp * fraction / 10 + 1e-9) * 10))
    new_sustained = non_gpu + sum(limit * qty for _, qty, limit in limits)
    if len(limits) == 1:
        part, qty, limit = limits[0]
        who = f"each {part.display_name}" if qty > 1 else f"the {part.display_name}"
        text = f"Power-limit {who} to {limit:,.0f} W"
    else:
        text = "Power-limit " + join(f"each {p.display_name} to {lim:,.0f} W"
                                     for p, _, lim in limits)
    return f"{text} to bring {outcome(new_sustained)}.", new_sustained


def _min_psu(sustained: float) -> float:
    return round_up(sustained / PSU_WARN_LOAD, 50)


# --- checks -----------------------------------------------------------------------------


def check_psu_load(ctx: CheckContext) -> list[CheckResult]:
    """Sustained load against the PSU's rated output."""
    if ctx.server is not None:
        return []  # a GPU server platform: checks.server judges its own supplies
    if not ctx.local_items:
        return []
    b = budget_of(ctx)
    if b.sustained_w == 0:
        return []  # nothing that draws power yet (e.g. only a PSU or a case)
    ids = tuple(i.part.id for i in ctx.accelerators)
    ids += tuple(p.id for p in (ctx.cpu, ctx.psu) if p is not None)
    figures = {"sustained_w": b.sustained_w, "gpu_w": b.gpu_w, "cpu_w": b.cpu_w,
               "platform_w": b.platform_w, "psu_w": b.psu_w,
               "load_pct": None if b.load is None else round(b.load * 100, 1)}
    if b.sustained_w is None:
        return [_psu_load_at_least(ctx, figures, ids)]
    if ctx.psu is None:
        return [CheckResult(
            "power.psu_load", "power", "unknown",
            f"No power supply chosen: the sustained load of {watts(b.sustained_w)} needs "
            f"at least {watts(_min_psu(b.sustained_w))} to stay under "
            f"{pct(PSU_WARN_LOAD)} load", figures, ids)]
    if b.psu_w is None:
        return [CheckResult(
            "power.psu_load", "power", "unknown",
            f"Sustained load {watts(b.sustained_w)}; {missing([(ctx.psu, 'wattage_w')])}",
            figures, ids)]
    load = b.load or 0.0
    split = split_loads(ctx, b.sustained_w)
    if split is not None:
        unit_w = b.psu_w / ctx.psu_count
        load = max(split) / unit_w
        figures["unit_loads_w"] = ", ".join(f"{w:.0f}" for w in split)
    status: Status = "pass"
    if load > PSU_FAIL_LOAD:
        status = "fail"
    elif load > PSU_WARN_LOAD:
        status = "warn"
    tail = {"pass": f"(warn above {pct(PSU_WARN_LOAD)})",
            "warn": f"(above the {pct(PSU_WARN_LOAD)} headroom line)",
            "fail": "(over its rating: it will shut down under load)"}[status]
    message = (f"Sustained load {watts(b.sustained_w)} is {pct(load)} of the "
               f"{watts(b.psu_w)} {ctx.psu_label} {tail}")
    if split is not None:
        others = ", ".join(watts(w) for w in split[1:])
        message = (f"Sustained load {watts(b.sustained_w)} on {ctx.psu_label}, split as "
                   f"they are cabled (supplies do not share load): the one on the board "
                   f"carries {watts(split[0])} (board, CPU, drives, slot power), the others "
                   f"{others} of cards' cables; the most loaded is at {pct(load)} of its "
                   f"{watts(unit_w)} {tail}")
    suggestion = ""
    if status != "pass":
        target = PSU_WARN_LOAD * b.psu_w
        psu_w = b.psu_w
        advice, _ = power_limit_advice(
            ctx, target, lambda s: f"the load to {pct(s / psu_w)}")
        bigger = f"choose a PSU of at least {watts(_min_psu(b.sustained_w))}"
        suggestion = (f"{advice[:-1]}, or {bigger}." if advice
                      else f"{bigger[0].upper()}{bigger[1:]}.")
    return [CheckResult("power.psu_load", "power", status, message, figures, ids, suggestion,
                        power_basis(ctx))]


def split_loads(ctx: CheckContext, sustained_w: float) -> list[float] | None:
    """How several ATX supplies (not redundant modules) share the load: they do not. The
    one on the board carries the board, CPU, memory, drives, fans and every card's slot
    power (75 W at most each); each card's cable power goes whole to one supply, placed
    where the load is least (a build is cabled that way). ``None`` for one supply."""
    if ctx.psu_redundant or ctx.psu_count < 2 or ctx.server is not None:
        return None
    cables = sorted((max(0.0, (p.number("tdp_w") or 0.0) - SLOT_W) for p in ctx.cards),
                    reverse=True)
    loads = [sustained_w - sum(cables)] + [0.0] * (ctx.psu_count - 1)
    heap = [(load, index) for index, load in enumerate(loads)]
    heapq.heapify(heap)
    for cable in cables:
        load, index = heapq.heappop(heap)
        loads[index] = load + cable
        heapq.heappush(heap, (loads[index], index))
    return loads


def power_basis(ctx: CheckContext) -> tuple[FigureUse, ...]:
    """The figures a power verdict rests on: the supply's rating, the CPU's power as
    drawn and each card's board power, each with its kind."""
    found: list[FigureUse] = []
    if ctx.psu is not None and ctx.psu.get("wattage_w") is not None:
        found.append(use(ctx.psu, "wattage_w"))
    if ctx.cpu is not None:
        drawn = cpu_power(ctx.cpu)
        if drawn is not None:
            found.append(use(ctx.cpu, "sustained_power_w" if drawn.sustained else "tdp_w"))
    for part in unique(i.part for i in ctx.accelerators):
        if part.get("tdp_w") is not None:
            found.append(use(part, "tdp_w"))
    return tuple(found)


def _psu_load_at_least(ctx: CheckContext, figures: dict[str, float | None],
                       ids: tuple[str, ...]) -> CheckResult:
    """A part lacks its power figure: what the others draw is a lower bound, which may
    already fail or warn but can never pass."""
    b = budget_of(ctx)
    known = b.sustained_at_least_w
    figures["sustained_at_least_w"] = known
    if not known or ctx.psu is None or not b.psu_w:
        return CheckResult("power.psu_load", "power", "unknown",
                           f"Sustained load unknown: {missing(b.missing)}", figures, ids)
    load = known / b.psu_w
    figures["load_at_least_pct"] = round(load * 100, 1)
    status: Status = ("fail" if load > PSU_FAIL_LOAD
                      else "warn" if load > PSU_WARN_LOAD else "unknown")
    head = (f"Sustained load at least {watts(known)}, {pct(load)} of the {watts(b.psu_w)} "
            f"{ctx.psu_label}")
    tail = {"fail": " already (over its rating: it will shut down under load)",
            "warn": f" already (above the {pct(PSU_WARN_LOAD)} headroom line)",
            "unknown": ""}[status]
    suggestion = ("" if status == "unknown" else
                  f"Choose a PSU of at least {watts(_min_psu(known))}.")
    return CheckResult("power.psu_load", "power", status,
                       f"{head}{tail}; {missing(b.missing)}", figures, ids, suggestion)


def check_transients(ctx: CheckContext) -> list[CheckResult]:
    """Millisecond GPU power excursions against what the PSU generation is built for."""
    if ctx.server is not None:
        return []  # a GPU server platform: checks.server judges its own supplies
    b = budget_of(ctx)
    if ctx.psu is None or not b.gpu_w or b.sustained_w is None or b.psu_w is None:
        return []
    ids = (*tuple(i.part.id for i in ctx.accelerators), ctx.psu.id)
    version = ctx.psu.text("atx_version").strip()
    atx3 = is_atx3(version)
    legacy_peak = b.sustained_w + (LEGACY_CARD_SPIKE - 1) * b.gpu_w
    if atx3:
        peak = b.sustained_w + (ATX3_CARD_SPIKE - 1) * b.gpu_w
        limit = ATX3_EXCURSION * b.psu_w
        figures = {"peak_w": peak, "limit_w": limit, "atx_version": version}
        basis = (use(ctx.psu, "atx_version"), *power_basis(ctx))
        if peak <= limit:
            return [CheckResult(
                "power.transients", "power", "pass",
                f"GPU power spikes up to ~{watts(peak)} (cards at 3x for 100 µs) are within "
                f"the {watts(limit)} (200 %) an ATX {version} PSU must ride through",
                figures, ids, basis=basis)]
        return [CheckResult(
            "power.transients", "power", "warn",
            f"GPU power spikes up to ~{watts(peak)} exceed the {watts(limit)} (200 %) an "
            f"ATX {version} {watts(b.psu_w)} PSU is specified for: it may shut down "
            "under load", figures, ids,
            f"Choose a PSU of at least {watts(round_up(peak / ATX3_EXCURSION, 50))}.",
            basis)]
    figures = {"peak_w": legacy_peak, "limit_w": b.psu_w, "atx_version": version or None,
               "atx_version_assumed": None if version else "2.x"}
    version_use = (use(ctx.psu, "atx_version") if version else
                   use(ctx.psu, "atx_version", "judged as 2.x (not known)", "derived"))
    basis = (version_use, *power_basis(ctx))
    needs = () if version else ((ctx.psu.id, "atx_version"),)
    if legacy_peak <= b.psu_w:
        judged = "" if version else " (its ATX version is unknown, so judged as ATX 2.x)"
        return [CheckResult(
            "power.transients", "power", "pass",
            f"GPU power spikes up to ~{watts(legacy_peak)} (cards at 2x) fit within the "
            f"{watts(b.psu_w)} rating even of a pre-ATX 3.0 unit{judged}", figures, ids,
            basis=basis)]
    advice = (f"Choose an ATX 3.x PSU, or one of at least "
              f"{watts(round_up(legacy_peak, 50))}.")
    if not version:
        return [CheckResult(
            "power.transients", "power", "warn",
            f"GPU power spikes may reach ~{watts(legacy_peak)} (cards at 2x), above the "
            f"{watts(b.psu_w)} rating; the ATX version of {ctx.psu.display_name} is unknown, "
            "so it is judged as ATX 2.x, which is not built for these excursions: it may "
            "shut down under load", figures, ids,
            advice + " If the box says ATX 3.x, enter it: the spikes are then judged "
                     "against 200 % of the rating.", basis, needs)]
    return [CheckResult(
        "power.transients", "power", "warn",
        f"GPU power spikes may reach ~{watts(legacy_peak)} (cards at 2x), above the "
        f"{watts(b.psu_w)} rating of this ATX {version} PSU, which is not built for "
        "ATX 3.0 excursions: it may shut down under load", figures, ids, advice, basis)]


NEAR_LIMIT_MARGIN = 0.05
"""A load within 5 % of a limit warns: the wall draw is an estimate from rated TDPs and an
(often assumed) efficiency, and mains voltage sags a few percent under load, so a margin
smaller than that is not shown to hold."""


def check_circuit(ctx: CheckContext) -> list[CheckResult]:
    """Wall draw against a household circuit, with the energy and cost per year."""
    if ctx.server is not None:
        return []  # a GPU server platform: checks.server judges its own supplies
    b = budget_of(ctx)
    if b.lower_bound:
        return _circuit_at_least(ctx)
    if b.wall_w is None or b.sustained_w is None or b.efficiency is None:
        return []
    mains = ctx.settings.circuit
    limit = mains.limit_w
    figures = {"wall_w": round(b.wall_w, 1), "efficiency_pct": round(b.efficiency * 100, 1),
               "circuit_limit_w": limit, "yearly_kwh": round(b.yearly_kwh or 0.0, 1),
               "yearly_cost_usd": round(b.yearly_cost_usd or 0.0, 2),
               "price_per_kwh_usd": ctx.settings.price_per_kwh_usd,
               "utilisation_pct": ctx.settings.utilisation * 100}
    how = ("efficiency assumed 80 %: " + ("no PSU chosen" if ctx.psu is None
                                         else "PSU 80 PLUS rating unknown")
           if b.efficiency_assumed else f"{pct(b.efficiency)} efficient")
    energy = (f"; {b.yearly_kwh:,.0f} kWh/year, ${b.yearly_cost_usd:,.0f}/year at "
              f"{pct(ctx.settings.utilisation)} use")
    ids = tuple(i.part.id for i in ctx.local_items)
    if limit * (1 - NEAR_LIMIT_MARGIN) < b.wall_w <= limit:
        return [CheckResult(
            "power.circuit", "power", "warn",
            f"Wall draw ~{watts(b.wall_w)} ({how}) is within {pct(NEAR_LIMIT_MARGIN)} of a "
            f"{mains.label}'s {watts(limit)} continuous limit: the estimate (rated TDPs, "
            f"efficiency) is not that precise, so the breaker may trip{energy}", figures, ids,
            "Leave more headroom: a dedicated or higher-rated circuit, or a GPU power "
            "limit.")]
    if b.wall_w <= limit:
        return [CheckResult(
            "power.circuit", "power", "pass",
            f"Wall draw ~{watts(b.wall_w)} ({how}) is within a {mains.label}'s "
            f"{watts(limit)} continuous limit{energy}", figures, ids)]
    efficiency = b.efficiency
    advice, _ = power_limit_advice(
        ctx, limit * efficiency,
        lambda s: f"the wall draw to ~{watts(s / efficiency)}")
    carrier = circuit_for(b.wall_w)
    figures["circuit_needed"] = carrier.key if carrier else None
    needed = (f"a {carrier.label} ({watts(carrier.limit_w)} continuous) carries it"
              if carrier else "no single circuit in the list carries it: split the load")
    return [CheckResult(
        "power.circuit", "power", "fail",
        f"Wall draw ~{watts(b.wall_w)} ({how}) exceeds a {mains.label}'s {watts(limit)} "
        f"continuous limit: the breaker will trip under sustained load; {needed}{energy}",
        figures, ids,
        advice or f"Put the machine on {'a ' + carrier.label if carrier else 'more circuits'}.")]


def circuit_for(wall_w: float) -> Mains | None:
    """The smallest circuit in :data:`MAINS` whose continuous limit carries ``wall_w``."""
    fits = [m for m in MAINS.values() if m.limit_w >= wall_w]
    return min(fits, key=lambda m: m.limit_w) if fits else None


def _circuit_at_least(ctx: CheckContext) -> list[CheckResult]:
    """Wall draw when a part lacks its power figure: over the limit (or near it) already
    warns; below it the circuit check is unknown, never a pass."""
    b = budget_of(ctx)
    wall = b.wall_at_least_w
    if not wall:
        return []
    mains = ctx.settings.circuit
    limit = mains.limit_w
    figures = {"wall_at_least_w": round(wall, 1), "circuit_limit_w": limit}
    ids = tuple(i.part.id for i in ctx.local_items)
    head = f"Wall draw at least ~{watts(wall)}"
    if wall > limit * (1 - NEAR_LIMIT_MARGIN):
        where = ("exceeds" if wall > limit
                 else f"is within {pct(NEAR_LIMIT_MARGIN)} of")
        return [CheckResult(
            "power.circuit", "power", "fail" if wall > limit else "warn",
            f"{head} already {where} a {mains.label}'s {watts(limit)} continuous limit; "
            f"{missing(b.missing)}", figures, ids,
            "Put the machine on a dedicated or higher-rated circuit.")]
    return [CheckResult(
        "power.circuit", "power", "unknown",
        f"{head}, below a {mains.label}'s {watts(limit)} continuous limit so far; "
        f"{missing(b.missing)}", figures, ids)]


def check_redundancy(ctx: CheckContext) -> list[CheckResult]:
    """A server's redundant modules: say whether a spare is fitted."""
    if ctx.server is not None:
        return []  # a GPU server platform: checks.server judges its own supplies
    if not ctx.psu_redundant:
        return []
    assert ctx.psu is not None
    count, carrying = max(1, ctx.psu_count), ctx.psu_carrying
    figures = {"modules": count, "carrying": carrying, "spare": count - carrying}
    if count == 1:
        return [CheckResult(
            "power.redundancy", "power", "warn",
            f"One {ctx.psu.display_name}: a redundant module with no spare beside it, so "
            "one failure stops the machine", figures, (ctx.psu.id,),
            "Fit a second module (1+1) as the chassis intends.")]
    return [CheckResult(
        "power.redundancy", "power", "pass",
        f"{ctx.psu_label}: {carrying} module{'s carry' if carrying > 1 else ' carries'} the load, "
        f"{count - carrying} spare{'s' if count - carrying > 1 else ''}; the load check "
        f"counts {carrying}", figures, (ctx.psu.id,))]


CHECKS = (check_psu_load, check_redundancy, check_transients, check_connectors,
          check_circuit)
