"""GPU server platforms (DGX, HGX and UBB systems): what the platform needs and supplies.

A platform part (category ``server``) brings its chassis, board, fans and power supplies,
and a GPU baseboard that takes one kind of module. These checks replace, for a build that
has one, the desktop checks that do not apply (the PCIe-card, case and ATX power checks):

- ``compat.server_complete``: a barebone still needs its CPUs and memory; a complete system
  (a DGX) only its modules. Drives are optional (the platform has its own bays).
- ``compat.server_modules``: the modules against the baseboard: their form (SXM or OAM),
  the models it takes (``supported_gpus``), all of one model, and exactly ``gpu_count``
  of them (HGX and UBB baseboards ship fully populated). A complete system whose GPU is
  built into its chip (``gpu_form_factor`` "integrated": a Mac Studio, a DGX Spark, a
  Ryzen AI Max machine) takes exactly its own GPU row, once.
- ``compat.server_parts``: a motherboard, case, ATX power supply or CPU cooler beside the
  platform is not used (the platform has its own).
- ``power.server_supplies``: the load against the supplies that carry it with the spares
  lost (not judged for a system with an integrated GPU: its maker sized the one supply
  for the one configuration it sells, and nothing in it can be changed).
  ``psu_redundancy`` "N+M" says N of the N+M modules carry the full load (NVIDIA's
  DGX H100 is 4+2, the DGX B200 5+1, Dell's XE9680 3+3); the load is the vendor's maximum
  system power when published (a worst case), else the sum of the parts.
- ``power.server_circuit``: the wall draw (the vendor's maximum input power when known)
  against the chosen circuit; a data-centre circuit that carries it is suggested
  (``settings.SERVER_MAINS``).
"""

from __future__ import annotations

import re

from dlhw_desktop.core.checks._util import (
    SERVER_MODULE_FORMS,
    counted,
    join,
    missing,
    redundancy,
    watts,
)
from dlhw_desktop.core.checks.budget import budget_of
from dlhw_desktop.core.checks.context import CheckContext
from dlhw_desktop.core.checks.settings import HOURS_PER_YEAR, MAINS, SERVER_MAINS
from dlhw_desktop.core.fields import field_label
from dlhw_desktop.core.limits import INTEGRATED_FORM
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.verdict import CheckResult, Status

SUPPLY_WARN_LOAD = 0.9
"""Above 90 % of the carrying supplies' output, one more fault or a hot room trips them."""


def module_forms(server: Part) -> set[str]:
    """``gpu_form_factor`` "sxm/oam" -> {"sxm", "oam"}."""
    return {f.strip().lower() for f in re.split(r"[/,;]", server.text("gpu_form_factor"))
            if f.strip()}


def integrated(server: Part) -> bool:
    """A complete system whose GPU is built into its chip (one GPU, its own)."""
    return INTEGRATED_FORM in module_forms(server)


def supported_ids(server: Part) -> tuple[str, ...]:
    return tuple(i.strip() for i in server.text("supported_gpus").split(";") if i.strip())


def _form_matches(module_form: str, forms: set[str]) -> bool:
    family = "sxm" if module_form.startswith("sxm") else module_form
    return family in forms or module_form in forms


def check_server_complete(ctx: CheckContext) -> list[CheckResult]:
    server = ctx.server
    if server is None:
        return []
    absent = []
    if not ctx.accelerators:
        absent.append("GPU modules")
    if server.get("complete_system") is not True:
        if ctx.cpu is None:
            absent.append("CPUs")
        if not ctx.memory:
            absent.append("memory")
    if not absent:
        return []
    return [CheckResult("compat.server_complete", "compatibility", "unknown",
                        f"Not yet chosen for {server.display_name}: {join(absent)}",
                        {"missing": ", ".join(absent)}, (server.id,))]


def check_server_modules(ctx: CheckContext) -> list[CheckResult]:
    server = ctx.server
    if server is None or not ctx.accelerators:
        return []
    ids = (server.id, *(i.part.id for i in ctx.accelerators))
    forms, wanted = module_forms(server), server.number("gpu_count")
    board = server.text("baseboard") or "its baseboard"
    count = sum(i.quantity for i in ctx.accelerators)
    figures: dict[str, float | int | str | None] = {
        "modules": count, "baseboard_positions": wanted,
        "baseboard": server.text("baseboard") or None,
        "gpu_link_gb_s": server.number("gpu_link_gb_s")}
    cards = [i for i in ctx.accelerators
             if i.part.text("form_factor").lower() not in SERVER_MODULE_FORMS]
    if cards:
        names = join(counted(i.part, i.quantity) for i in cards)
        return [CheckResult(
            "compat.server_modules", "compatibility", "fail",
            f"{names} {'is a card' if len(cards) == 1 and cards[0].quantity == 1 else 'are cards'}"
            f" ({join(sorted({i.part.text('form_factor') or 'form n/a' for i in cards}))}), "
            f"not modules: {server.display_name}'s {board} takes "
            f"{'/'.join(sorted(forms)).upper() or 'n/a'} modules", figures, ids,
            "Choose the SXM/OAM version of the GPU, or a PCIe server instead of a "
            "baseboard platform.")]
    if not forms:
        return [CheckResult("compat.server_modules", "compatibility", "unknown",
                            f"{server.display_name}: the module form its baseboard takes is "
                            f"unknown ({missing([(server, 'gpu_form_factor')])})",
                            figures, ids)]
    wrong_form = [i for i in ctx.accelerators
                  if not _form_matches(i.part.text("form_factor").lower(), forms)]
    if wrong_form and integrated(server):
        part = wrong_form[0].part
        return [CheckResult(
            "compat.server_modules", "compatibility", "fail",
            f"{server.display_name} has its GPU built into its chip: {part.display_name} "
            "cannot be added to it", figures, ids,
            f"Choose its own GPU ({join(supported_ids(server)) or 'n/a'}), or another "
            "system.")]
    if wrong_form:
        part = wrong_form[0].part
        form = part.text("form_factor").upper()
        return [CheckResult(
            "compat.server_modules", "compatibility", "fail",
            f"{part.display_name} is an {form} module; {server.display_name}'s {board} "
            f"takes {'/'.join(sorted(forms)).upper()} modules: it does not mount",
            figures, ids, "Choose a module the baseboard takes, or a platform built for "
            f"{form} modules.")]
    if len(ctx.accelerators) > 1:
        return [CheckResult(
            "compat.server_modules", "compatibility", "fail",
            f"{join(i.part.display_name for i in ctx.accelerators)}: a baseboard carries "
            "one model of module", figures, ids, "Keep one model of GPU module.")]
    item = ctx.accelerators[0]
    allowed = supported_ids(server)
    if allowed and item.part.id not in allowed and integrated(server):
        return [CheckResult(
            "compat.server_modules", "compatibility", "fail",
            f"{item.part.display_name} is not {server.display_name}'s GPU: its GPU is "
            f"built into its chip ({join(allowed)})", figures, ids,
            "Choose the system's own GPU, or the system built on this one.")]
    if allowed and item.part.id not in allowed:
        return [CheckResult(
            "compat.server_modules", "compatibility", "fail",
            f"{item.part.display_name} is not a module {server.display_name}'s {board} "
            f"takes (it takes {join(allowed)})", figures, ids,
            "Choose one of the listed modules, or another platform.")]
    if wanted is None:
        return [CheckResult("compat.server_modules", "compatibility", "unknown",
                            f"{counted(item.part, count)} on {server.display_name}: the "
                            f"baseboard's module count is unknown "
                            f"({missing([(server, 'gpu_count')])})", figures, ids)]
    if count != wanted and integrated(server):
        return [CheckResult(
            "compat.server_modules", "compatibility", "fail",
            f"{counted(item.part, count)} on {server.display_name}, which has "
            f"{wanted:.0f} GPU built into its chip", figures, ids,
            f"Set the GPU count to {wanted:.0f}.")]
    if count != wanted:
        return [CheckResult(
            "compat.server_modules", "compatibility", "fail",
            f"{counted(item.part, count)} on {server.display_name}'s {board}, which is "
            f"populated with {wanted:.0f}: baseboards ship fully populated",
            figures, ids, f"Set the module count to {wanted:.0f}.")]
    if integrated(server):
        return [CheckResult("compat.server_modules", "compatibility", "pass",
                            f"{item.part.display_name} is {server.display_name}'s own GPU "
                            "(built into its chip)", figures, ids)]
    link = server.number("gpu_link_gb_s")
    tail = f", {link:,.0f} GB/s GPU-to-GPU per GPU" if link is not None else ""
    return [CheckResult("compat.server_modules", "compatibility", "pass",
                        f"{counted(item.part, count)} fill {server.display_name}'s "
                        f"{board}{tail}", figures, ids)]


def check_server_parts(ctx: CheckContext) -> list[CheckResult]:
    server = ctx.server
    if server is None:
        return []
    extra = [p for p in (ctx.build.motherboard, ctx.case, ctx.psu, ctx.cooler) if p is not None]
    if server.get("complete_system") is True:
        extra += [p for p in (ctx.cpu,) if p is not None]
        extra += [i.part for i in ctx.memory]
    if not extra:
        return []
    return [CheckResult(
        "compat.server_parts", "compatibility", "warn",
        f"{server.display_name} brings its own board, chassis, power supplies and cooling"
        f"{' and comes with its CPUs and memory' if server.get('complete_system') else ''}"
        f": {join(p.display_name for p in extra)} would not be used",
        {"unused": len(extra)}, (server.id, *(p.id for p in extra)),
        "Remove the parts the platform already has.")]


def server_load_w(ctx: CheckContext) -> tuple[float | None, str]:
    """The load the supplies must carry and where it comes from."""
    server = ctx.server
    assert server is not None
    vendor = server.number("max_power_w")
    if vendor is not None:
        return vendor, "the vendor's maximum system power"
    sustained = budget_of(ctx).sustained_w
    if sustained is None or not ctx.accelerators:
        return None, ""
    return sustained, "the parts' sustained draw (no vendor maximum published)"


def check_server_supplies(ctx: CheckContext) -> list[CheckResult]:
    server = ctx.server
    if server is None or integrated(server):
        return []
    count, unit, scheme = server.number("psu_count"), server.number("psu_unit_w"), \
        redundancy(server)
    load, basis = server_load_w(ctx)
    figures: dict[str, float | int | str | None] = {
        "psu_count": count, "psu_unit_w": unit,
        "psu_redundancy": server.text("psu_redundancy") or None, "load_w": load}
    ids = (server.id,)
    absent = [f for f, v in (("psu_count", count), ("psu_unit_w", unit),
                             ("psu_redundancy", scheme)) if v is None]
    if absent or load is None:
        what = (missing((server, f) for f in absent) if absent else
                f"missing {field_label('max_power_w')} of {server.display_name} (or the "
                "power of its parts)")
        return [CheckResult("power.server_supplies", "power", "unknown",
                            f"{server.display_name}'s power supplies cannot be judged: "
                            f"{what}", figures, ids)]
    assert unit is not None and scheme is not None
    carrying, spare = scheme
    capacity = carrying * unit
    load_frac = load / capacity
    figures.update({"carrying_w": capacity, "load_pct": round(load_frac * 100, 1)})
    status: Status = "pass"
    if load_frac > 1.0:
        status = "fail"
    elif load_frac > SUPPLY_WARN_LOAD:
        status = "warn"
    lost = f"with {spare} of {carrying + spare} supplies lost ({carrying}+{spare})"
    message = (f"{watts(load)} ({basis}) is {load_frac:.0%} of the {watts(capacity)} the "
               f"{carrying} carrying supplies give {lost}")
    suggestion = ""
    if status == "fail":
        message += ": losing a supply would drop the load"
        suggestion = "Cap the GPUs' power, or choose a platform with more supply headroom."
    elif status == "warn":
        message += ": little headroom after a fault"
    return [CheckResult("power.server_supplies", "power", status, message, figures, ids,
                        suggestion)]


def check_server_circuit(ctx: CheckContext) -> list[CheckResult]:
    server = ctx.server
    if server is None:
        return []
    vendor = server.number("max_power_w")
    b = budget_of(ctx)
    wall = vendor if vendor is not None else b.wall_w
    if wall is None:
        return []
    basis = ("the vendor's maximum input power" if vendor is not None else
             "estimated from the parts at an assumed 80 % supply efficiency")
    mains = ctx.settings.circuit
    limit = mains.limit_w
    kwh = wall * HOURS_PER_YEAR * ctx.settings.utilisation / 1000.0
    cost = kwh * ctx.settings.price_per_kwh_usd
    figures = {"wall_w": round(wall, 1), "circuit_limit_w": round(limit, 1),
               "yearly_kwh": round(kwh, 1), "yearly_cost_usd": round(cost, 2)}
    energy = (f"; {kwh:,.0f} kWh/year, ${cost:,.0f}/year at "
              f"{ctx.settings.utilisation:.0%} use")
    if wall <= limit:
        return [CheckResult("power.server_circuit", "power", "pass",
                            f"{watts(wall)} ({basis}) is within a {mains.label}'s "
                            f"{watts(limit)}{energy}", figures, (server.id,))]
    fits = next((MAINS[k] for k in SERVER_MAINS if MAINS[k].limit_w >= wall), None)
    advice = (f"Feed it from a {fits.label} ({watts(fits.limit_w)}) or larger; rack PDUs "
              "take three-phase feeds." if fits else
              "Split the load over several circuits.")
    return [CheckResult("power.server_circuit", "power", "warn",
                        f"{watts(wall)} ({basis}) exceeds a {mains.label}'s "
                        f"{watts(limit)}{energy}", figures, (server.id,), advice)]


def server_rated_w(server: Part) -> float | None:
    """Total output of every supply fitted (N+M x rating), for reports."""
    count, unit = server.number("psu_count"), server.number("psu_unit_w")
    return None if count is None or unit is None else count * unit


def supplies_label(server: Part) -> str:
    """``6x 3,300 W (4+2)``; ``n/a`` parts left out."""
    count, unit = server.number("psu_count"), server.number("psu_unit_w")
    if count is None or unit is None:
        return "n/a"
    scheme = server.text("psu_redundancy")
    return f"{count:.0f}x {unit:,.0f} W" + (f" ({scheme})" if scheme else "")


CHECKS = (check_server_complete, check_server_modules, check_server_parts,
          check_server_supplies, check_server_circuit)
