"""The own-vs-rent figures as every surface words them: one list of (key, label, value,
note), read by the Workload panel, the build sheet and its shared text, and ``dlhw fit``,
so the same job reads the same to the cent wherever it is shown."""

from __future__ import annotations

from dataclasses import dataclass

from dlhw_desktop.core.formatting import NA, money, percent
from dlhw_desktop.core.workload.comparison import OwnVsRent


@dataclass(frozen=True, slots=True)
class CostFigure:
    key: str
    label: str
    value: str
    note: str = ""


def _bound(text: str, at_least: bool) -> str:
    return f"at least {text}" if at_least and text != NA else text


def own_basis(c: OwnVsRent) -> str:
    """What the own cost per hour rests on, with the parts it could not price."""
    o = c.own
    if o is None:
        return ""
    unpriced = ""
    if o.unpriced:
        n = len(o.unpriced)
        unpriced = f"; {n} part{'s' if n != 1 else ''} without a price: {', '.join(o.unpriced)}"
    text = (f"{_bound(money(o.price_usd), c.at_least)} ({o.price_basis}{unpriced}), "
            f"{o.years:g} years at {percent(o.utilisation)} use + "
            f"{money(o.energy_usd_per_hour)}/h energy at {o.power_w:,.0f} W wall draw, "
            f"${o.electricity_usd_per_kwh:.2f}/kWh")
    return text + (f", PUE {o.pue:g}" if o.pue != 1 else "")


def cost_figures(c: OwnVsRent, *, rented: bool = False, why_no_own: str = "") -> list[CostFigure]:
    """The figures in the order they are shown. ``rented``: the build is a cloud offer
    (no own machine to compare)."""
    rows: list[CostFigure] = []
    if not rented:
        if c.own is not None:
            rows.append(CostFigure("own_per_hour", "Own machine per hour",
                                   _bound(money(c.own.usd_per_hour, "h"), c.at_least),
                                   own_basis(c)))
        else:
            rows.append(CostFigure("own_per_hour", "Own machine per hour", NA,
                                   why_no_own or c.why_no_own))
        if c.own_run_usd is not None:
            rows.append(CostFigure("run_cost", "One run on this machine",
                                   _bound(money(c.own_run_usd), c.at_least),
                                   "energy + the price's share"))
    if c.offer is not None and c.offer.usd_per_hour is not None:
        offer = c.offer
        value = (f"{money(c.rent_run_usd)} a run" if c.rent_run_usd is not None
                 else money(offer.usd_per_hour, "h"))
        rows.append(CostFigure(
            "rent", "Rent instead", value,
            f"{offer.part.display_name} at {money(offer.usd_per_hour, 'h')}; it qualifies: "
            f"{c.why}"))
    else:
        rows.append(CostFigure("rent", "Rent instead", NA, c.why))
    if not rented and c.own is None:
        rows.append(CostFigure("break_even", "Break-even", NA,
                               f"no own cost: {why_no_own or c.why_no_own}"))
    if not rented and c.own is not None and c.offer is not None:
        be = c.break_even
        if be is None or be.months is None:
            rows.append(CostFigure("break_even", "Break-even", "never",
                                   "renting the same work costs less than this machine's "
                                   "electricity"))
        else:
            rows.append(CostFigure(
                "break_even", "Break-even", _bound(f"{be.months:,.1f} months", c.at_least),
                f"{_bound(f'{be.hours:,.0f} h', c.at_least)} of use; the same work rented: "
                f"{money(c.rent_usd_per_own_hour)} an hour ({c.basis})"))
    return rows
