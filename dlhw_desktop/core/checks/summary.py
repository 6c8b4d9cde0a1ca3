"""Totals for a build: price, power, heat, VRAM, tensor throughput, energy per year."""

from __future__ import annotations

from dataclasses import dataclass

from dlhw_desktop.core.build.build import Slot
from dlhw_desktop.core.checks.budget import budget_of
from dlhw_desktop.core.checks.context import CheckContext


@dataclass(frozen=True, slots=True)
class BuildSummary:
    """The headline figures; ``None`` = unknown (never 0 for unknown).

    Price covers local parts only (cloud offerings are priced per hour, not bought) and
    counts the parts whose price is unknown, so a partial sum is never taken for the
    whole. Heat equals the wall draw: every watt drawn ends as heat in the room.
    Throughput is dense tensor TFLOPS summed over the accelerators.
    """

    price_usd: float | None
    unknown_price_parts: int
    sustained_w: float | None
    wall_w: float | None
    heat_w: float | None
    psu_load: float | None
    vram_gb: float | None
    ram_gb: float | None
    bf16_tflops: float | None
    fp16_tflops: float | None
    yearly_kwh: float | None
    yearly_cost_usd: float | None
    accelerators: int
    parts: int
    power_breakdown: tuple[tuple[str, float], ...] = ()
    """DC watts by consumer (cpu, accelerators, motherboard, memory, storage, fans)."""
    price_high_usd: float | None = None
    """The top of the price when a part's price is a reported range (``price_usd`` is
    then the bottom): the total runs "from $X to $Y"."""
    power_lower_bound: bool = False
    """A part lacks its power figure: sustained, wall, heat and energy above are unknown
    and the ``*_at_least`` figures hold what the other parts draw."""
    sustained_at_least_w: float | None = None
    wall_at_least_w: float | None = None
    heat_at_least_w: float | None = None
    yearly_kwh_at_least: float | None = None
    yearly_cost_at_least_usd: float | None = None
    unpowered_parts: int = 0
    """Parts (counting quantities) without a power figure."""
    unpowered_names: tuple[str, ...] = ()
    wall_basis: str = ""
    """Set when the wall draw is not from the parts (the vendor's maximum system power)."""


def _throughput(ctx: CheckContext, field: str) -> float | None:
    if not ctx.accelerators:
        return None
    total = 0.0
    for item in ctx.accelerators:
        value = item.part.number(field)
        if value is None:
            return None
        # a multi-GPU board's figures are per GPU (A16: 4 GPUs on one card)
        total += value * (item.part.number("board_gpus") or 1) * item.quantity
    return total


def summarize_context(ctx: CheckContext) -> BuildSummary:
    known = 0.0
    high = 0.0
    ranged = False
    unknown = 0
    any_known = False
    for item in ctx.build.items():
        if item.slot is Slot.CLOUD:
            continue
        if item.part.price_usd is None:
            unknown += 1
        else:
            any_known = True
            known += item.part.price_usd * item.quantity
            top = item.part.price_high_usd
            ranged = ranged or top is not None
            high += (top if top is not None else item.part.price_usd) * item.quantity
    b = budget_of(ctx)
    return BuildSummary(
        price_usd=known if any_known else None,
        price_high_usd=high if ranged else None,
        unknown_price_parts=unknown,
        sustained_w=b.sustained_w,
        wall_w=b.wall_w,
        heat_w=b.wall_w,
        psu_load=b.load,
        vram_gb=ctx.vram_gb,
        ram_gb=ctx.ram_gb,
        bf16_tflops=_throughput(ctx, "bf16_tensor_tflops"),
        fp16_tflops=_throughput(ctx, "fp16_tensor_tflops"),
        yearly_kwh=b.yearly_kwh,
        yearly_cost_usd=b.yearly_cost_usd,
        accelerators=ctx.accelerator_count,
        parts=sum(i.quantity for i in ctx.local_items),
        power_breakdown=b.breakdown,
        power_lower_bound=b.lower_bound,
        sustained_at_least_w=b.sustained_at_least_w,
        wall_at_least_w=b.wall_at_least_w,
        heat_at_least_w=b.wall_at_least_w,
        yearly_kwh_at_least=b.yearly_kwh_at_least,
        yearly_cost_at_least_usd=b.yearly_cost_at_least_usd,
        unpowered_parts=b.unpowered_count,
        unpowered_names=b.unpowered_names if b.lower_bound else (),
        wall_basis=b.wall_basis,
    )
