"""What owning a build costs, one way for every surface (issue #28).

``machine_of(build)`` reads a build into a ``cost.Machine``: the price of every local part
that has one (the user's quotes already won, through the part resolver), the names of
those without one, and the wall draw the power checks compute (``budget_of``), so the
own cost per hour is the whole machine's at its wall draw. ``job_assumptions`` adds the
electricity price and utilisation of the check settings (the ones the power checks and
the build sheet use) and the amortisation period: the Workload panel, the Advisor, What
fits, ``dlhw fit``, the build sheet, the shared text and the cluster plan all call it, so
the same job on the same build shows the same figures to the cent.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from dlhw_desktop.core.build.build import Build, Slot
from dlhw_desktop.core.build.workload_fit import fit_build
from dlhw_desktop.core.checks.budget import budget_of
from dlhw_desktop.core.checks.context import CheckContext
from dlhw_desktop.core.checks.settings import CheckSettings
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.prices.kinds import describe_price
from dlhw_desktop.core.workload.comparison import OwnVsRent, own_vs_rent
from dlhw_desktop.core.workload.cost import (
    ASSUMED_SUPPLY_EFFICIENCY,
    BASE_SYSTEM_W,
    DEFAULT_PUE,
    DEFAULT_YEARS,
    Machine,
)
from dlhw_desktop.core.workload.fit import CostAssumptions, FitResult
from dlhw_desktop.core.workload.fit_ranking import rank_fits
from dlhw_desktop.core.workload.workload import Workload

Finder = Callable[[str], "Part | None"]

_INCLUDED_SLOTS = (Slot.ACCELERATOR, Slot.CPU, Slot.MEMORY)
"""What a complete system's price (a DGX) covers besides the platform itself."""


def _names(items: list[tuple[str, int]]) -> tuple[str, ...]:
    return tuple(f"{n} x {name}" if n > 1 else name for name, n in items)


def machine_of(build: Build | None, settings: CheckSettings | None = None) -> Machine:
    """The build around its accelerators, as owning it costs (``cost.Machine``).

    A build without local parts (nothing, or only a cloud offering) is the default
    ``Machine()``: the GPUs alone, the rest named as unpriced at the assumed 250 W.
    """
    if build is None:
        return Machine()
    local = [i for i in build.items() if i.slot is not Slot.CLOUD]
    others = [i for i in local if i.slot is not Slot.ACCELERATOR]
    if not local:
        return Machine()
    server = build.server
    complete = (server is not None and server.get("complete_system") is True
                and server.price_usd is not None)
    priced = 0.0
    unpriced: list[tuple[str, int]] = []
    for item in others:
        if complete and item.slot in _INCLUDED_SLOTS:
            continue
        if item.part.price_usd is None:
            unpriced.append((item.part.display_name, item.quantity))
        else:
            priced += item.part.price_usd * item.quantity
    if complete:
        assert server is not None
        price_basis = (f"{server.display_name}: "
                       f"{describe_price(server.price_kind, server.price_date)}, for the "
                       "complete system with its GPUs, CPUs and memory")
    elif not others:
        unpriced.append(("the rest of the machine (CPU, board, memory, drives, supply, "
                         "case: not in the build)", 1))
        price_basis = "the GPUs; the build has no other part"
    elif unpriced:
        price_basis = "the parts with a price"
    else:
        price_basis = "every part of the build"
    if any(i.part.price_high_usd is not None and i.part.price_usd is not None
           for i in local):
        price_basis += " (a reported price range: its low end)"
    dc_w, efficiency, power_basis = _power(build, settings, bool(others))
    return Machine(priced, _names(unpriced), dc_w, efficiency, power_basis, price_basis,
                   included=tuple(i.part.id for i in build.accelerators) if complete else ())


def _power(build: Build, settings: CheckSettings | None,
           has_others: bool) -> tuple[float, float, str]:
    """The rest's DC draw and the supply's efficiency, from the power checks' budget, so
    that (GPU TDPs + rest) / efficiency is the planner's wall draw of the build."""
    if not has_others:
        return (BASE_SYSTEM_W, ASSUMED_SUPPLY_EFFICIENCY,
                f"GPU TDPs + {BASE_SYSTEM_W:.0f} W assumed for the rest of the machine, at "
                f"an assumed {ASSUMED_SUPPLY_EFFICIENCY:.0%} supply efficiency")
    budget = budget_of(CheckContext(build, settings))
    gpu_w = sum((i.part.number("tdp_w") or 0.0) * i.quantity for i in build.accelerators)
    sustained = budget.sustained_w if budget.sustained_w is not None \
        else budget.sustained_at_least_w
    wall = budget.wall_w if budget.wall_w is not None else budget.wall_at_least_w
    if not sustained or not wall:
        return (BASE_SYSTEM_W, ASSUMED_SUPPLY_EFFICIENCY,
                f"the build's power is unknown: GPU TDPs + {BASE_SYSTEM_W:.0f} W assumed "
                f"for the rest, at an assumed {ASSUMED_SUPPLY_EFFICIENCY:.0%} efficiency")
    bound = ", at least: a part's power is unknown" if budget.wall_w is None else ""
    basis = budget.wall_basis or "its parts' power through the supply's efficiency"
    return (max(sustained - gpu_w, 0.0), min(sustained / wall, 1.0),
            f"the machine's wall draw: {basis}{bound}")


def job_assumptions(build: Build | None = None, settings: CheckSettings | None = None, *,
                    years: float | None = None, pue: float | None = None,
                    electricity_usd_per_kwh: float | None = None,
                    utilisation: float | None = None) -> CostAssumptions:
    """The cost assumptions of a job on ``build``: one function behind every surface.

    Electricity price and utilisation are the check settings' (the power checks and the
    sheet's energy use the same), unless given; the period ``cost.DEFAULT_YEARS``, the
    PUE ``cost.DEFAULT_PUE`` (a machine at a desk) unless given; the machine is
    ``machine_of(build)``.
    """
    settings = settings or CheckSettings()
    price = (settings.price_per_kwh_usd if electricity_usd_per_kwh is None
             else electricity_usd_per_kwh)
    use = settings.utilisation if utilisation is None or utilisation <= 0 else utilisation
    if use <= 0:  # a check setting of 0 % use amortises over no hours: the default instead
        use = CheckSettings().utilisation
    return CostAssumptions(years=DEFAULT_YEARS if years is None else years,
                           electricity_usd_per_kwh=price,
                           pue=DEFAULT_PUE if pue is None else pue, utilisation=use,
                           machine=machine_of(build, settings))


def fit_job(build: Build, find: Finder | None = None,
            settings: CheckSettings | None = None, **overrides: float | None) -> FitResult | None:
    """The build's workload on its accelerators, costed by ``job_assumptions``."""
    return fit_build(build, find, job_assumptions(build, settings, **overrides))


def compare_job(result: FitResult | None, workload: Workload, assumptions: CostAssumptions,
                accelerators: Sequence[Part], cloud: Sequence[Part],
                reference: Part | None, find: Finder, prefer: str | None = None) -> OwnVsRent:
    """The job's own cost against the like-for-like rental (``comparison.own_vs_rent``),
    the offers ranked by ``rank_fits`` under the same assumptions."""
    options = rank_fits(workload, accelerators, cloud, max_gpus=1, assumptions=assumptions,
                        include_own=False) if cloud else []
    return own_vs_rent(result, options, reference, find, prefer)
