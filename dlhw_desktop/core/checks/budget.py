"""The build's power budget: sustained DC load, PSU load, wall draw and yearly energy.

Shared by the power, cooling, server and summary checks through :func:`budget_of`, which
computes it once per ``CheckContext``; the figures and where they come from are described
in ``checks.power``'s docstring. The context knows nothing of the budget (it depends on
the context, never the other way).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from dlhw_desktop.core.checks._util import SERVER_MODULE_FORMS, carrying_w
from dlhw_desktop.core.checks.context import CheckContext
from dlhw_desktop.core.checks.cpu_power import cpu_power
from dlhw_desktop.core.checks.settings import HOURS_PER_YEAR
from dlhw_desktop.core.compat.vocabulary import RDIMM_SOCKETS
from dlhw_desktop.core.parts import Part

BOARD_W = 50.0
WORKSTATION_BOARD_W = 80.0
DIMM_W = 5.0
STORAGE_W: dict[str, float] = {"nvme": 8.0, "hdd": 8.0, "sata-ssd": 4.0, "system": 0.0}
UNKNOWN_STORAGE_W = 8.0
FANS_W = 15.0

ASSUMED_EFFICIENCY = 0.80

EFFICIENCY_CURVES: dict[str, tuple[float, float, float]] = {
    "white": (0.80, 0.80, 0.80),
    "bronze": (0.82, 0.85, 0.82),
    "silver": (0.85, 0.88, 0.85),
    "gold": (0.87, 0.90, 0.87),
    "platinum": (0.90, 0.92, 0.89),
    "titanium": (0.92, 0.94, 0.90),
}
"""80 PLUS 115 V internal non-redundant minimum efficiency at 20 %, 50 %, 100 % load."""

_CURVE_LOADS = (0.2, 0.5, 1.0)


def rating_key(text: str | None) -> str | None:
    """``"80 PLUS Gold"`` -> ``"gold"``; plain "80 PLUS"/"White"/"Standard" -> ``"white"``."""
    if not text:
        return None
    lowered = text.lower()
    for key in ("titanium", "platinum", "gold", "silver", "bronze", "white"):
        if key in lowered:
            return key
    if "80" in lowered or "standard" in lowered:
        return "white"
    return None


def efficiency_at(rating: str | None, load: float) -> float | None:
    """The 80 PLUS minimum efficiency at a load (fraction of rating), interpolated."""
    key = rating_key(rating)
    if key is None:
        return None
    curve = EFFICIENCY_CURVES[key]
    if load <= _CURVE_LOADS[0]:
        return curve[0]
    if load >= _CURVE_LOADS[-1]:
        return curve[-1]
    for i in range(len(_CURVE_LOADS) - 1):
        x0, x1 = _CURVE_LOADS[i], _CURVE_LOADS[i + 1]
        if load <= x1:
            y0, y1 = curve[i], curve[i + 1]
            return y0 + (y1 - y0) * (load - x0) / (x1 - x0)
    return curve[-1]  # pragma: no cover - the loop covers 0.2..1.0


@dataclass(frozen=True, slots=True)
class PowerBudget:
    """The build's power figures; ``None`` = unknown (a needed figure is missing)."""

    sustained_w: float | None
    gpu_w: float | None
    cpu_w: float | None
    platform_w: float
    missing: tuple[tuple[Part, str], ...]
    psu_w: float | None
    load: float | None
    efficiency: float | None
    efficiency_assumed: bool
    wall_w: float | None
    yearly_kwh: float | None
    yearly_cost_usd: float | None
    breakdown: tuple[tuple[str, float], ...] = field(default=())
    lower_bound: bool = False
    """A power figure is missing: the exact figures above are unknown (``None``) and the
    ``*_at_least`` ones below hold what the parts with a figure draw (never a pass)."""
    sustained_at_least_w: float | None = None
    wall_at_least_w: float | None = None
    yearly_kwh_at_least: float | None = None
    yearly_cost_at_least_usd: float | None = None
    unpowered_count: int = 0
    """Parts (counting quantities) without a power figure."""
    wall_basis: str = ""
    """How ``wall_w`` was reached when not from the parts: ``VENDOR_MAX_BASIS`` for a GPU
    server platform with the vendor's maximum system power."""

    @property
    def unpowered_names(self) -> tuple[str, ...]:
        """Display names of the parts without a power figure, each once."""
        return tuple(dict.fromkeys(part.display_name for part, _ in self.missing))


def storage_w(part: Part) -> float:
    own = part.number("power_w")
    if own is not None:
        return own
    return STORAGE_W.get(part.text("storage_kind").lower(), UNKNOWN_STORAGE_W)


VENDOR_MAX_BASIS = "vendor maximum system power"


_CACHE_KEY = "_power_budget"


def budget_of(ctx: CheckContext) -> PowerBudget:
    """The build's power budget, computed on first use and kept on ``ctx`` for the run."""
    cached = ctx.__dict__.get(_CACHE_KEY)
    if cached is None:
        cached = ctx.__dict__[_CACHE_KEY] = power_budget(ctx)
    return cached


def power_budget(ctx: CheckContext) -> PowerBudget:
    """Sustained DC load, PSU load, wall draw and yearly energy of a build.

    A GPU server platform with the vendor's maximum system power uses that figure for the
    wall draw (and heat and energy): the vendor's input figure covers fans, NICs, NVSwitch
    and supply losses that a sum of the parts' TDPs misses."""
    budget = _parts_budget(ctx)
    vendor = ctx.server.number("max_power_w") if ctx.server is not None else None
    if vendor is None:
        return budget
    kwh = vendor * HOURS_PER_YEAR * ctx.settings.utilisation / 1000.0
    cost = kwh * ctx.settings.price_per_kwh_usd
    return replace(
        budget, wall_w=vendor, yearly_kwh=kwh, yearly_cost_usd=cost,
        load=vendor / budget.psu_w if budget.psu_w else None, efficiency=None,
        efficiency_assumed=False, lower_bound=False, wall_at_least_w=None,
        yearly_kwh_at_least=None, yearly_cost_at_least_usd=None,
        wall_basis=VENDOR_MAX_BASIS)


def _parts_budget(ctx: CheckContext) -> PowerBudget:
    absent: list[tuple[Part, str]] = []
    unpowered = 0
    gpu_w: float | None = 0.0
    gpu_known = 0.0
    for item in ctx.accelerators:
        if item.part.text("form_factor").lower() in SERVER_MODULE_FORMS \
                and ctx.server is None:
            continue  # powered by a server baseboard, not this PSU (compat.baseboard fails it)
        tdp = item.part.number("tdp_w")
        if tdp is None:
            absent.append((item.part, "tdp_w"))
            unpowered += item.quantity
            gpu_w = None
        else:
            gpu_known += tdp * item.quantity
            if gpu_w is not None:
                gpu_w += tdp * item.quantity
    cpu_w: float | None = 0.0
    if ctx.cpu is not None:
        drawn = cpu_power(ctx.cpu)  # sustained (PL2/PPT) where known, else base power
        cpu_w = drawn.watts if drawn is not None else None
        if cpu_w is None:
            absent.append((ctx.cpu, "tdp_w"))
            unpowered += max(1, ctx.cpu_count)
        else:
            cpu_w *= ctx.cpu_count  # a dual-socket board: both CPUs
    breakdown: list[tuple[str, float]] = []
    platform = 0.0
    if ctx.cpu is not None or ctx.board is not None:
        board = WORKSTATION_BOARD_W if ctx.socket in RDIMM_SOCKETS else BOARD_W
        breakdown.append(("motherboard", board))
        platform += board
    modules = sum(int(i.part.number("modules") or 1) * i.quantity for i in ctx.memory)
    if modules:
        breakdown.append(("memory", modules * DIMM_W))
        platform += modules * DIMM_W
    drives = sum(storage_w(i.part) * i.quantity for i in ctx.storage)
    if ctx.storage:
        breakdown.append(("storage", drives))
        platform += drives
    if ctx.case is not None:
        breakdown.append(("fans", FANS_W))
        platform += FANS_W
    if gpu_known:
        breakdown.insert(0, ("accelerators", gpu_known))
    if cpu_w:
        breakdown.insert(0, ("cpu", cpu_w))

    unit_w = ctx.psu.number("wattage_w") if ctx.psu is not None else None
    # Several ATX units share the load (their sum is what they deliver together); of a
    # server's redundant modules, only those that must carry it on their own count.
    psu_w = unit_w * ctx.psu_carrying if unit_w is not None else None
    if ctx.server is not None:  # a GPU server's own supplies: those that carry the load
        psu_w = carrying_w(ctx.server)
    rating = (ctx.psu.text("efficiency_rating")
              if ctx.psu is not None and ctx.server is None else None)
    sustained = wall = kwh = cost = None
    efficiency = None
    exact = bool(ctx.local_items) and gpu_w is not None and cpu_w is not None
    known = gpu_known + (cpu_w or 0.0) + platform if ctx.local_items else None
    if known is not None:
        # Wall draw grows with the DC load on every 80 PLUS curve (the efficiency never
        # rises faster than the load), so the known parts' wall draw is a lower bound too.
        load_known = known / psu_w if psu_w else None
        efficiency = efficiency_at(rating, load_known if load_known is not None else 0.5)
        wall = known / (efficiency or ASSUMED_EFFICIENCY)
        kwh = wall * HOURS_PER_YEAR * ctx.settings.utilisation / 1000.0
        cost = kwh * ctx.settings.price_per_kwh_usd
        sustained = known
    assumed = sustained is not None and efficiency is None
    if assumed:
        efficiency = ASSUMED_EFFICIENCY
    if exact or sustained is None:
        load = sustained / psu_w if sustained is not None and psu_w else None
        return PowerBudget(sustained, gpu_w, cpu_w, platform, tuple(absent), psu_w, load,
                           efficiency, assumed, wall, kwh, cost, tuple(breakdown))
    return PowerBudget(None, gpu_w, cpu_w, platform, tuple(absent), psu_w, None,
                       efficiency, assumed, None, None, None, tuple(breakdown),
                       lower_bound=True, sustained_at_least_w=sustained,
                       wall_at_least_w=wall, yearly_kwh_at_least=kwh,
                       yearly_cost_at_least_usd=cost, unpowered_count=unpowered)
