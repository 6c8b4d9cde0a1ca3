"""The cards' power cables against the supply's: 16-pin (12V-2x6), PCIe 8-pin and EPS
counts, adapters, cables derived from board power when a card lists none, no native
16-pin on a supply older than ATX 3.0, and the counts of units like it where a supply
lists none (estimated, ``psu_connector_model``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from dlhw_desktop.core.checks._util import (
    SERVER_MODULE_FORMS,
    count_of,
    missing,
    unique,
)
from dlhw_desktop.core.checks.basis import use
from dlhw_desktop.core.checks.context import CheckContext
from dlhw_desktop.core.checks.psu_connector_model import HPWR, PCIE_8PIN, connector_band
from dlhw_desktop.core.compat.connectors import Connectors, parse_power_connectors
from dlhw_desktop.core.compat.psu_power import is_atx3
from dlhw_desktop.core.fields import field_label
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.verdict import CheckResult, FigureUse, Status

PCIE_8PIN_W = 150.0
HPWR_W = 600.0
SLOT_W = 75.0
"""PCIe CEM: watts a PCIe 8-pin, a 16-pin (12V-2x6) and the x16 slot carry."""

HPWR_FROM_W = 525.0
"""Above this board power a card cannot be fed by 8-pins within the slot's 75 W and three
150 W cables as cards are built (a 4x 8-pin board is rare); such cards use a 16-pin."""


def minimum_connectors(part: Part) -> Connectors | None:
    """The fewest cables a card of this board power needs when its connectors are not
    listed (derived, PCIe CEM: 75 W from the slot, 150 W per 8-pin, 600 W per 16-pin);
    ``None`` when the board power is unknown too."""
    tdp = part.number("tdp_w")
    if tdp is None:
        return None
    if tdp <= SLOT_W:
        return Connectors()
    if tdp > HPWR_FROM_W:
        return Connectors(hpwr=math.ceil((tdp - SLOT_W) / HPWR_W))
    return Connectors(pcie8=math.ceil((tdp - SLOT_W) / PCIE_8PIN_W))


def _adapter_8pins(part: Part) -> int:
    tdp = part.number("tdp_w")
    if tdp is None:
        return 4
    return max(2, min(4, math.ceil((tdp - SLOT_W) / PCIE_8PIN_W)))


def check_connectors(ctx: CheckContext) -> list[CheckResult]:
    """The cards' power cables against the PSU's 16-pin and PCIe 8-pin counts."""
    items = [i for i in ctx.accelerators
             if i.part.text("form_factor").lower() not in SERVER_MODULE_FORMS]
    if not items:
        return []
    ids = tuple(i.part.id for i in items) + ((ctx.psu.id,) if ctx.psu else ())
    need = Connectors()
    unreadable: list[Part] = []
    derived: list[Part] = []
    hpwr_cards: list[Part] = []
    for item in items:
        cables = parse_power_connectors(item.part.text("power_connectors") or None)
        if cables is None:
            cables = minimum_connectors(item.part)
            if cables is None:
                unreadable.append(item.part)
                continue
            derived.append(item.part)
        need += cables.times(item.quantity)
        if cables.hpwr:
            hpwr_cards.extend([item.part] * (item.quantity * cables.hpwr))
    figures: dict[str, float | int | str | None] = {
        "need_16pin": need.hpwr, "need_pcie_8pin": need.pcie8, "need_eps": need.eps}
    if derived:
        figures["connectors_derived_for"] = ", ".join(p.display_name for p in unique(derived))
    if unreadable:
        text = "; ".join(f"{p.display_name}: {p.text('power_connectors') or 'n/a'!s}"
                         for p in unreadable)
        return [CheckResult("power.connectors", "power", "unknown",
                            f"Power connectors unknown or unreadable ({text})", figures, ids)]
    if need == Connectors():
        return [CheckResult("power.connectors", "power", "pass",
                            "The accelerators need no PSU cables (slot power, up to 75 W)",
                            figures, ids)]
    if ctx.psu is None:
        return [CheckResult("power.connectors", "power", "unknown",
                            f"No power supply chosen; the cards need {need.describe()}",
                            figures, ids)]
    count = max(1, ctx.psu_count)
    have_h = ctx.psu.number("connectors_12vhpwr")
    have_8 = ctx.psu.number("connectors_pcie_8pin")
    have_h = have_h * count if have_h is not None else None
    have_8 = have_8 * count if have_8 is not None else None
    no_native = have_h is None and not is_atx3(ctx.psu.text("atx_version"))
    if no_native:  # 12VHPWR came with ATX 3.0 (2022): an older unit has no native 16-pin
        have_h = 0
        figures["psu_16pin_derived"] = "none: not an ATX 3.x unit"
    figures.update({"psu_16pin": have_h, "psu_pcie_8pin": have_8})
    demand = _Demand(need, hpwr_cards, derived, figures, ids, no_native)
    absent = []
    if need.hpwr and have_h is None:
        absent.append((ctx.psu, "connectors_12vhpwr"))
    if (need.pcie8 or need.eps or (need.hpwr and have_h is not None and have_h < need.hpwr)) \
            and have_8 is None:
        absent.append((ctx.psu, "connectors_pcie_8pin"))
    if absent:
        estimated = _estimated(ctx.psu, demand, count, have_h, have_8,
                               [f for _, f in absent])
        if estimated is not None:
            return [estimated]
        return [CheckResult("power.connectors", "power", "unknown",
                            f"The cards need {need.describe()}; {missing(absent)}",
                            figures, ids)]
    return [_judge(ctx.psu, demand, int(have_h or 0), int(have_8 or 0))]


@dataclass(frozen=True)
class _Demand:
    """What the cards ask of the supply, and how it was found."""

    need: Connectors
    hpwr_cards: list[Part]
    derived: list[Part]
    figures: dict[str, float | int | str | None]
    ids: tuple[str, ...]
    no_native: bool


def _judge(psu: Part, demand: _Demand, h: int, eight: int,
           psu_has: str | None = None) -> CheckResult:
    """The cards' needs against ``h`` 16-pin and ``eight`` PCIe 8-pin cables."""
    need, figures, ids, no_native = demand.need, dict(demand.figures), demand.ids, \
        demand.no_native
    spare = eight - need.pcie8
    psu_has = psu_has or f"the PSU has {h}x 16-pin and {eight}x PCIe 8-pin"
    if spare < 0:
        basis = " (derived from board power)" if demand.derived else ""
        return CheckResult("power.connectors", "power", "fail",
                           f"The cards need {need.describe()}{basis}; {psu_has}", figures, ids,
                           "Choose a PSU with more PCIe 8-pin cables.")
    notes: list[str] = []
    status: Status = "pass"
    short = max(0, need.hpwr - h)
    if short:
        adapted = sorted(demand.hpwr_cards, key=_adapter_8pins)[:short]
        adapter_need = sum(_adapter_8pins(p) for p in adapted)
        figures["adapter_pcie_8pin"] = adapter_need
        if adapter_need > spare:
            return CheckResult(
                "power.connectors", "power", "fail",
                f"The cards need {need.describe()}; {psu_has}, too few 8-pins left "
                f"({spare}) for {count_of(short, '16-pin adapter')} needing {adapter_need}"
                + (" (an older unit: no native 16-pin)" if no_native else ""),
                figures, ids, "Choose an ATX 3.x PSU with enough 12V-2x6 (16-pin) cables.")
        spare -= adapter_need
        status = "warn"
        notes.append(f"{count_of(short, '16-pin card')} must use an adapter from {adapter_need} "
                     "PCIe 8-pin cables")
    if need.eps:
        if spare >= 2 * need.eps:
            status = "warn"
            notes.append(f"{count_of(need.eps, 'EPS (CPU 8-pin) input')} "
                         f"{'needs' if need.eps == 1 else 'need'} the dual PCIe 8-pin to EPS "
                         "adapter")
        else:
            if status == "pass":
                status = "unknown"
            notes.append(f"{count_of(need.eps, 'EPS (CPU 8-pin) input')} "
                         f"{'needs' if need.eps == 1 else 'need'} a spare EPS cable; the "
                         "PSU's EPS count is unknown (the catalog has none; the board uses "
                         "one or two)")
    if status == "pass":
        message = f"The cards need {need.describe()}; {psu_has}"
    else:
        message = f"The cards need {need.describe()}; {psu_has}: {'; '.join(notes)}"
    if no_native and need.hpwr:
        message += _no_native_note(psu)
    if demand.derived:
        message += (f" (derived from board power: {figures['connectors_derived_for']} lists "
                    "no connectors, so the fewest its board power needs are counted: 75 W "
                    "from the slot, 150 W per 8-pin, 600 W per 16-pin)")
    suggestion = ""
    if short:
        suggestion = "An ATX 3.x PSU with native 12V-2x6 cables avoids the adapter."
    return CheckResult("power.connectors", "power", status, message, figures, ids, suggestion)


def _no_native_note(psu: Part) -> str:
    version = psu.text("atx_version").strip()
    return (f" (no native 16-pin counted: {psu.display_name} is "
            + (f"ATX {version}" if version else "of unknown ATX version, judged as 2.x")
            + "; the 16-pin 12VHPWR connector came with ATX 3.0)")


def _cables(h: int, eight: int) -> str:
    return f"{h}x 16-pin and {eight}x PCIe 8-pin" if h else f"{eight}x PCIe 8-pin"


def _estimated(psu: Part, demand: _Demand, count: int, have_h: float | None,
               have_8: float | None, fields: list[str]) -> CheckResult | None:
    """The cards judged at both ends of the counts of units like this one, where the unit
    lists none (``psu_connector_model``); None when no band applies."""
    if have_8 is None and PCIE_8PIN not in fields:
        fields = [*fields, PCIE_8PIN]  # a 16-pin short of the need is fed by 8-pin adapters
    found = {field: connector_band(psu, field) for field in fields}
    bands = {field: band for field, band in found.items() if band is not None}
    if len(bands) < len(fields):
        return None

    def at(end: str, field: str, known: float | None) -> int:
        band = bands.get(field)
        if band is None:
            return int(known or 0)
        return (band.low if end == "low" else band.high) * count

    low = (at("low", HPWR, have_h), at("low", PCIE_8PIN, have_8))
    high = (at("high", HPWR, have_h), at("high", PCIE_8PIN, have_8))
    each = "" if count == 1 else f" ({count} units)"
    what = "; ".join(
        f"{psu.display_name} lists no {field_label(f)} count; {b.describe()} in the "
        f"catalog have {b.low}–{b.high}, 5th–95th percentile" for f, b in bands.items())
    uses = tuple(
        FigureUse(psu.id, psu.display_name, f, field_label(f), f"{b.low}–{b.high}",
                  "estimated", f"5th–95th percentile of {b.describe()} in the catalog")
        for f, b in bands.items())
    uses += tuple(use(psu, f) for f in (HPWR, PCIE_8PIN)
                  if f not in bands and psu.get(f) is not None)
    needs = tuple((psu.id, f) for f in bands)
    figures = dict(demand.figures)
    figures.update({"estimated_pcie_8pin_low": low[1], "estimated_pcie_8pin_high": high[1]})
    at_low = _judge(psu, demand, *low,
                    psu_has=f"units like the PSU have at least {_cables(*low)}{each}")
    if at_low.status != "fail":
        return replace(at_low, message=f"{at_low.message} (estimated: {what})",
                       figures=figures, basis=uses, needs=needs)
    at_high = _judge(psu, demand, *high,
                     psu_has=f"units like the PSU have at most {_cables(*high)}{each}")
    if at_high.status == "fail":
        return replace(at_high, message=f"{at_high.message} (estimated: {what})",
                       figures=figures, basis=uses, needs=needs)
    adapters = at_low.figures.get("adapter_pcie_8pin")
    spread = (f"{low[1]}–{high[1]}x PCIe 8-pin" if low[0] == high[0] == 0 else
              f"from {_cables(*low)} to {_cables(*high)}")
    return CheckResult(
        "power.connectors", "power", "warn",
        f"The cards need {demand.need.describe()}; units like the PSU have {spread}{each}, "
        "so it may have too few"
        + (f" for the 16-pin adapters ({adapters}x 8-pin)" if adapters else "")
        + (_no_native_note(psu) if demand.no_native and demand.need.hpwr else "")
        + f" (estimated: {what})",
        figures, demand.ids, "Check the unit's cables: enter its cable counts from its "
        "manual or box.", uses, needs)
