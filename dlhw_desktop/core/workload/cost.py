"""What it costs: own hardware (amortised + electricity) against cloud by the hour.

Own hardware per hour of use = price / (years x 8760 h x utilisation)
                              + power (kW) x PUE x electricity price.

The price is the whole machine's (``Machine``: every part with a price, the user's quotes
first; the parts without one are named and the price reads "at least"); the power is the
machine's wall draw (the accelerators' TDPs plus the rest of the machine, through the
supply's efficiency). ``own_machine`` is the one place that puts them together, for the
build, the advisor, What fits, the CLI, the sheet and the cluster alike.
Cloud per hour = the offering's price per hour (a monthly dedicated server: month / 730 h).
Break-even: the hours H at which price + H x energy = H x cloud, so
H = price / (cloud per hour - energy per hour); never when the cloud costs less per hour
than the electricity alone.

The defaults are round figures a user is expected to replace with their own.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.workload.errors import InvalidWorkloadError

HOURS_PER_YEAR = 8760.0
HOURS_PER_MONTH = HOURS_PER_YEAR / 12.0  # 730

DEFAULT_YEARS = 3.0
"""Amortisation period: a common useful life for accelerators before they are outclassed."""

DEFAULT_ELECTRICITY_USD_PER_KWH = 0.17
"""Roughly the US average residential retail price of 2024 (US EIA, Electric Power Monthly,
table 5.6.A: 16.5 ct/kWh); the same default as the planner's checks
(``core.checks.settings.CheckSettings``) and the app's settings, so that the app, the CLI
and the build sheet cost the same job the same. Europe is often twice that."""

DEFAULT_PUE = 1.0
"""Power usage effectiveness of a workstation at a desk (no separate cooling plant)."""

SERVER_ROOM_PUE = 1.58
"""Average data-centre PUE, Uptime Institute Global Data Center Survey 2023; use it for
racks with their own cooling."""

DEFAULT_UTILISATION = 0.5
"""Share of the year the hardware does useful work; amortisation is spread over those hours."""

BASE_SYSTEM_W = 250.0
"""Power of everything around the accelerators (CPU, board, memory, drives, fans) under load,
an assumption for a single-socket workstation when no build says; a dual-socket server
draws more."""

ASSUMED_SUPPLY_EFFICIENCY = 0.80
"""Wall draw = DC load / efficiency when no power supply says (the planner's own
assumption, ``checks.budget.ASSUMED_EFFICIENCY``: 80 PLUS's floor)."""

REST_UNPRICED = "the rest of the machine (CPU, board, memory, drives, supply, case)"


def _check(name: str, value: float, *, allow_zero: bool = False) -> None:
    if value < 0 or (value == 0 and not allow_zero):
        raise InvalidWorkloadError(f"{name} must be {'>= 0' if allow_zero else 'positive'}, "
                                   f"got {value!r}")


@dataclass(frozen=True, slots=True)
class Machine:
    """Everything in the machine but its accelerators, as owning it costs.

    ``priced_usd`` is what the parts with a price cost (the user's quotes already won);
    ``unpriced`` names the parts without one (the price is then "at least"); ``dc_w`` is
    their sustained draw and ``efficiency`` the supply's, so the wall draw of N GPUs is
    (N x TDP + ``dc_w``) / ``efficiency``. ``included``: the accelerators a complete
    system's price covers (a DGX's own modules). The default is no build at all: the GPUs alone, the
    rest named as unpriced and drawing the assumed 250 W.
    """

    priced_usd: float = 0.0
    unpriced: tuple[str, ...] = (REST_UNPRICED,)
    dc_w: float = BASE_SYSTEM_W
    efficiency: float = ASSUMED_SUPPLY_EFFICIENCY
    power_basis: str = (f"GPU TDPs + {BASE_SYSTEM_W:.0f} W assumed for the rest, at an "
                        f"assumed {ASSUMED_SUPPLY_EFFICIENCY:.0%} supply efficiency")
    price_basis: str = "the GPUs; no other part of the machine is priced"
    included: tuple[str, ...] = ()
    """Ids of the accelerators ``priced_usd`` already covers (a DGX's own modules)."""

    def __post_init__(self) -> None:
        _check("price of the other parts", self.priced_usd, allow_zero=True)
        _check("power of the other parts", self.dc_w, allow_zero=True)
        if not 0 < self.efficiency <= 1:
            raise InvalidWorkloadError(f"supply efficiency must be in (0, 1], got "
                                       f"{self.efficiency!r}")


@dataclass(frozen=True, slots=True)
class OwnHardware:
    """Owning a machine: what it cost, what it draws, and the assumptions to amortise it.

    ``unpriced`` names the parts whose price is unknown: ``price_usd`` (and every figure
    from it) is then a lower bound and reads "at least"."""

    price_usd: float
    power_w: float
    years: float = DEFAULT_YEARS
    electricity_usd_per_kwh: float = DEFAULT_ELECTRICITY_USD_PER_KWH
    pue: float = DEFAULT_PUE
    utilisation: float = DEFAULT_UTILISATION
    unpriced: tuple[str, ...] = ()
    price_basis: str = ""
    power_basis: str = ""

    @property
    def complete(self) -> bool:
        """Every part has a price: the figures are the machine's, not a lower bound."""
        return not self.unpriced

    def __post_init__(self) -> None:
        _check("price", self.price_usd, allow_zero=True)
        _check("power", self.power_w, allow_zero=True)
        _check("years", self.years)
        _check("electricity price", self.electricity_usd_per_kwh, allow_zero=True)
        if self.pue < 1:
            raise InvalidWorkloadError(f"PUE is at least 1, got {self.pue!r}")
        if not 0 < self.utilisation <= 1:
            raise InvalidWorkloadError(f"utilisation must be in (0, 1], got {self.utilisation!r}")

    @property
    def energy_usd_per_hour(self) -> float:
        return self.power_w / 1000.0 * self.pue * self.electricity_usd_per_kwh

    @property
    def amortised_usd_per_hour(self) -> float:
        """Purchase price spread over the hours of use in the amortisation period."""
        return self.price_usd / (self.years * HOURS_PER_YEAR * self.utilisation)

    @property
    def usd_per_hour(self) -> float:
        return self.amortised_usd_per_hour + self.energy_usd_per_hour

    def but(self, **changes: Any) -> OwnHardware:
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return {"price_usd": self.price_usd, "power_w": self.power_w, "years": self.years,
                "electricity_usd_per_kwh": self.electricity_usd_per_kwh, "pue": self.pue,
                "utilisation": self.utilisation,
                "energy_usd_per_hour": self.energy_usd_per_hour,
                "amortised_usd_per_hour": self.amortised_usd_per_hour,
                "usd_per_hour": self.usd_per_hour, "complete": self.complete,
                "unpriced": list(self.unpriced), "price_basis": self.price_basis,
                "power_basis": self.power_basis}


@dataclass(frozen=True, slots=True)
class BreakEven:
    """When owning starts to cost less than renting."""

    hours: float | None
    months: float | None
    cloud_usd_per_hour: float
    own_energy_usd_per_hour: float

    @property
    def never(self) -> bool:
        return self.hours is None

    def to_dict(self) -> dict[str, Any]:
        return {"hours": self.hours, "months": self.months,
                "cloud_usd_per_hour": self.cloud_usd_per_hour,
                "own_energy_usd_per_hour": self.own_energy_usd_per_hour}


def break_even(own: OwnHardware, cloud_usd_per_hour: float) -> BreakEven:
    """Hours (and calendar months at ``own.utilisation``) after which owning is cheaper.

    H = price / (cloud per hour - own electricity per hour); months = H / (730 x
    utilisation). ``hours`` is ``None`` when the cloud is cheaper per hour than the
    electricity alone: owning never pays back.
    """
    _check("cloud price per hour", cloud_usd_per_hour)
    margin = cloud_usd_per_hour - own.energy_usd_per_hour
    if margin <= 0:
        return BreakEven(None, None, cloud_usd_per_hour, own.energy_usd_per_hour)
    hours = own.price_usd / margin
    return BreakEven(hours, hours / (HOURS_PER_MONTH * own.utilisation),
                     cloud_usd_per_hour, own.energy_usd_per_hour)


@dataclass(frozen=True, slots=True)
class RunCost:
    """The cost of one job of ``hours`` on own hardware or in the cloud."""

    hours: float
    energy_usd: float
    amortised_usd: float
    cloud_usd: float | None = None

    @property
    def own_usd(self) -> float:
        return self.energy_usd + self.amortised_usd

    def to_dict(self) -> dict[str, Any]:
        return {"hours": self.hours, "energy_usd": self.energy_usd,
                "amortised_usd": self.amortised_usd, "own_usd": self.own_usd,
                "cloud_usd": self.cloud_usd}


def run_cost(hours: float, own: OwnHardware | None = None,
             cloud_usd_per_hour: float | None = None) -> RunCost:
    """One run of ``hours``: electricity and the amortised share of the price, and/or cloud."""
    _check("hours", hours, allow_zero=True)
    energy = hours * own.energy_usd_per_hour if own else 0.0
    amortised = hours * own.amortised_usd_per_hour if own else 0.0
    cloud = None if cloud_usd_per_hour is None else hours * cloud_usd_per_hour
    return RunCost(hours, energy, amortised, cloud)


def usd_per_million_tokens(tokens_per_s: float, usd_per_hour: float) -> float | None:
    """Serving cost: $/hour / (tokens/s x 3600) x 1e6. ``None`` when nothing is served."""
    if tokens_per_s <= 0:
        return None
    return usd_per_hour / (tokens_per_s * 3600.0) * 1e6


def cloud_usd_per_hour(offering: Part) -> float | None:
    """An offering's hourly price; monthly dedicated servers as month / 730 h."""
    hourly = offering.number("price_per_hour_usd")
    if hourly is not None and hourly > 0:
        return hourly
    monthly = offering.number("price_per_month_usd")
    if monthly is not None and monthly > 0:
        return monthly / HOURS_PER_MONTH
    return None


def own_machine(accelerators: Iterable[tuple[Part, int]], machine: Machine, *,
                years: float = DEFAULT_YEARS,
                electricity_usd_per_kwh: float = DEFAULT_ELECTRICITY_USD_PER_KWH,
                pue: float = DEFAULT_PUE,
                utilisation: float = DEFAULT_UTILISATION) -> OwnHardware | None:
    """Owning ``accelerators`` in ``machine``: the one function every own cost comes from.

    Price: the accelerators' prices + the priced rest (a complete system's price alone
    when it covers the GPUs). Power: (TDPs + the rest's DC draw) / supply efficiency, the
    wall draw. ``None`` when an accelerator has no price (the bulk of the machine would be
    missing: no lower bound worth showing) or no TDP.
    """
    pairs = list(accelerators)
    gpu_usd = 0.0
    gpu_w = 0.0
    for part, count in pairs:
        tdp = part.number("tdp_w")
        if tdp is None:
            return None
        gpu_w += tdp * count
        if part.id not in machine.included:
            if part.price_usd is None:
                return None
            gpu_usd += part.price_usd * count
    return OwnHardware(gpu_usd + machine.priced_usd,
                       (gpu_w + machine.dc_w) / machine.efficiency, years,
                       electricity_usd_per_kwh, pue, utilisation, machine.unpriced,
                       machine.price_basis, machine.power_basis)


def system_power_w(accelerators: Iterable[tuple[Part, int]],
                   base_w: float = BASE_SYSTEM_W) -> float | None:
    """Accelerator board power (TDP x count) plus ``base_w`` for the rest; ``None`` if a TDP
    is unknown."""
    total = base_w
    for part, count in accelerators:
        tdp = part.number("tdp_w")
        if tdp is None:
            return None
        total += tdp * count
    return total
