"""Workload tier: each component against the chosen tier's minimum and recommended rows.

Grading: below the minimum fails; at or above the minimum but below the recommendation
warns (the build works, with less headroom than the tier's source advises); at or above
the recommendation passes. A tier with only a recommended row (cooling, storage in the
seed article) warns below it. A missing figure makes the result unknown.

What is compared: CPU cores and threads; the largest single accelerator's memory (a model
that does not fit one card needs model parallelism, which "multiple A100s" also implies);
total system RAM; the largest drive of the primary kind, then the other drives of the
secondary kinds together; PSU rated output and 80 PLUS tier; the cooler by the tier's
example names, or by kind as the row describes it (liquid: an AIO or custom loop; air:
an air cooler rated for the CPU's ``tdp_w``). Rows naming parts
without a figure (e.g. "H100 or multiple A100s") are matched by name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from dlhw_desktop.core.build.tiers import TierRequirement
from dlhw_desktop.core.checks._util import gb, matches_name, missing, num
from dlhw_desktop.core.checks.budget import rating_key
from dlhw_desktop.core.checks.context import CheckContext, kit_capacity_gb
from dlhw_desktop.core.field_values import value_label
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.verdict import CheckResult, Figure, Status

EFFICIENCY_ORDER = ("white", "bronze", "silver", "gold", "platinum", "titanium")

Met = Callable[[TierRequirement], bool | None]
Want = Callable[[TierRequirement], str]


def _grade(ctx: CheckContext, component: str, label: str, have: str, met: Met, want: Want,
           figures: dict[str, Figure], ids: tuple[str, ...],
           gaps: Sequence[tuple[Part, str]] = ()) -> list[CheckResult]:
    tier = ctx.tier
    assert tier is not None
    rows = [r for r in tier.levels(component) if r is not None and want(r)]
    if not rows:
        return []
    check_id = f"tier.{component}"
    outcome = {r.level: met(r) for r in rows}
    minimum = next((r for r in rows if r.level == "minimum"), None)
    recommended = next((r for r in rows if r.level == "recommended"), None)
    figures = {**figures, "tier": tier.name,
               "minimum": want(minimum) if minimum else None,
               "recommended": want(recommended) if recommended else None}
    name = tier.label.lower()
    if None in outcome.values():
        why = missing(gaps) if gaps else "a figure is missing"
        return [CheckResult(check_id, "workload", "unknown",
                            f"{label}: {have} cannot be compared with the {name} tier: {why}",
                            figures, ids)]
    status: Status
    if recommended is not None and outcome["recommended"]:
        status = "pass"
        text = f"meets the {name} recommendation ({want(recommended)})"
    elif minimum is not None and not outcome["minimum"]:
        status = "fail"
        text = f"below the {name} minimum ({want(minimum)})"
    elif minimum is not None:
        status = "warn" if recommended is not None else "pass"
        text = f"meets the {name} minimum ({want(minimum)})"
        if recommended is not None:
            text += f", below the recommendation ({want(recommended)})"
    else:
        assert recommended is not None
        status = "warn"
        text = f"below the {name} recommendation ({want(recommended)})"
    return [CheckResult(check_id, "workload", status, f"{label}: {have} {text}", figures, ids)]


def _at_least(value: float | None, wanted: float | None) -> bool | None:
    if wanted is None:
        return True
    if value is None:
        return None
    return value >= wanted


def _all(*results: bool | None) -> bool | None:
    if any(r is False for r in results):
        return False
    if any(r is None for r in results):
        return None
    return True


def _absent(component: str, label: str, ctx: CheckContext) -> list[CheckResult]:
    tier = ctx.tier
    assert tier is not None
    if not any(tier.levels(component)):
        return []
    return [CheckResult(f"tier.{component}", "workload", "unknown",
                        f"{label}: none chosen yet for the {tier.label.lower()} tier",
                        {"tier": tier.name})]


def _name_match(parts: Sequence[Part], names: Sequence[str]) -> bool:
    return any(matches_name(p, names) for p in parts)


def check_tier_cpu(ctx: CheckContext) -> list[CheckResult]:
    if ctx.cpu is None:
        return _absent("cpu", "CPU", ctx)
    cpu = ctx.cpu
    cores, threads = cpu.number("cores"), cpu.number("threads")
    if ctx.cpu_count > 1:  # a dual-socket board: the system's cores
        cores = cores * ctx.cpu_count if cores is not None else None
        threads = threads * ctx.cpu_count if threads is not None else None

    def want(r: TierRequirement) -> str:
        bits = []
        if r.cores is not None:
            bits.append(f"{r.cores} cores")
        if r.threads is not None:
            bits.append(f"{r.threads} threads")
        if not bits and r.example_part_names:
            return "e.g. " + " / ".join(r.example_part_names)
        return " / ".join(bits)

    def met(r: TierRequirement) -> bool | None:
        if r.cores is None and r.threads is None:
            return _name_match([cpu], r.example_part_names)
        return _all(_at_least(cores, r.cores), _at_least(threads, r.threads))

    have = (f"{ctx.cpu_label} ({num(cores) if cores else 'n/a'} cores / "
            f"{num(threads) if threads else 'n/a'} threads)")
    gaps = [(cpu, f) for f, v in (("cores", cores), ("threads", threads)) if v is None]
    return _grade(ctx, "cpu", "CPU", have, met, want,
                  {"cores": cores, "threads": threads}, (cpu.id,), gaps)


def check_tier_gpu(ctx: CheckContext) -> list[CheckResult]:
    if not ctx.accelerators:
        return _absent("gpu", "GPU", ctx)
    parts = [i.part for i in ctx.accelerators]
    sizes = [p.number("memory_gb") for p in parts]
    largest = None if None in sizes else max(s or 0.0 for s in sizes)

    def want(r: TierRequirement) -> str:
        if r.memory_gb is not None:
            return f"{gb(r.memory_gb)} on one card"
        return "e.g. " + " / ".join(r.example_part_names) if r.example_part_names else ""

    def met(r: TierRequirement) -> bool | None:
        if r.memory_gb is None:
            return _name_match(parts, r.example_part_names)
        return _at_least(largest, r.memory_gb)

    best = max(parts, key=lambda p: p.number("memory_gb") or 0.0)
    have = (f"largest card {gb(largest)} ({best.display_name})" if largest is not None
            else "card memory unknown (memory size missing)")
    return _grade(ctx, "gpu", "GPU", have, met, want,
                  {"largest_card_gb": largest, "vram_gb": ctx.vram_gb},
                  tuple(p.id for p in parts),
                  [(p, "memory_gb") for p in parts if p.number("memory_gb") is None])


def check_tier_ram(ctx: CheckContext) -> list[CheckResult]:
    if not ctx.memory:
        return _absent("ram", "RAM", ctx)
    ram = ctx.ram_gb

    def want(r: TierRequirement) -> str:
        return gb(r.ram_gb) if r.ram_gb is not None else ""

    have = gb(ram) if ram is not None else "capacity unknown (capacity missing)"
    return _grade(ctx, "ram", "RAM", have, lambda r: _at_least(ram, r.ram_gb), want,
                  {"ram_gb": ram}, tuple(i.part.id for i in ctx.memory),
                  [(i.part, "capacity_gb") for i in ctx.memory
                   if kit_capacity_gb(i.part) is None])


def _drives(ctx: CheckContext) -> list[Part]:
    return [i.part for i in ctx.storage for _ in range(i.quantity)]


def _kind_ok(part: Part, req: TierRequirement) -> bool:
    kinds = req.storage_kinds
    return not kinds or part.text("storage_kind").lower() in kinds


def _storage_want(r: TierRequirement) -> str:
    bits = []
    if r.capacity_gb is not None:
        bits.append(gb(r.capacity_gb))
    if r.storage_kind:
        bits.append(" or ".join(value_label("storage_kind", k) for k in r.storage_kinds))
    return " ".join(bits)


def _primary(ctx: CheckContext, req: TierRequirement | None) -> Part | None:
    drives = [d for d in _drives(ctx) if req is None or _kind_ok(d, req)]
    return max(drives, key=lambda d: d.number("capacity_gb") or 0.0, default=None)


def check_tier_storage(ctx: CheckContext) -> list[CheckResult]:
    tier = ctx.tier
    assert tier is not None
    if not ctx.storage:
        return _absent("storage_primary", "Primary storage", ctx)
    results: list[CheckResult] = []
    ids = tuple(i.part.id for i in ctx.storage)
    gaps = [(i.part, f) for i in ctx.storage for f in ("capacity_gb", "storage_kind")
            if i.part.get(f) in (None, "")]
    lo, hi = tier.levels("storage_primary")
    chosen = _primary(ctx, hi or lo)

    def met_primary(r: TierRequirement) -> bool | None:
        drive = _primary(ctx, r)
        if drive is None:  # none of the kind asked for; a drive of unknown kind may be
            return None if any(not d.text("storage_kind") for d in _drives(ctx)) else False
        return _at_least(drive.number("capacity_gb"), r.capacity_gb)

    if chosen is not None:
        size = chosen.number("capacity_gb")
        have = f"{chosen.display_name} ({gb(size) if size else 'capacity n/a'} " \
               f"{value_label('storage_kind', chosen.text('storage_kind')) or 'kind n/a'})"
    else:
        have = "no drive of the kind asked for"
    results += _grade(ctx, "storage_primary", "Primary storage", have, met_primary,
                      _storage_want, {"primary_gb": chosen.number("capacity_gb")
                                      if chosen else None}, ids, gaps)

    rest = _drives(ctx)
    if chosen is not None:
        rest.remove(chosen)

    def secondary_total(r: TierRequirement) -> float | None:
        picked = [d for d in rest if _kind_ok(d, r)]
        sizes = [d.number("capacity_gb") for d in picked]
        return None if None in sizes else sum(s or 0.0 for s in sizes)

    def met_secondary(r: TierRequirement) -> bool | None:
        return _at_least(secondary_total(r), r.capacity_gb)

    lo2, hi2 = tier.levels("storage_secondary")
    probe = hi2 or lo2
    if probe is not None:
        total = secondary_total(probe)
        have2 = (f"{gb(total)} on other drives" if total else "no other drive of that kind")
        results += _grade(ctx, "storage_secondary", "Secondary storage", have2, met_secondary,
                          _storage_want, {"secondary_gb": total}, ids, gaps)
    return results


def check_tier_psu(ctx: CheckContext) -> list[CheckResult]:
    if ctx.psu is None:
        return _absent("psu", "PSU", ctx)
    psu = ctx.psu
    wattage = psu.number("wattage_w")
    if wattage is not None and ctx.psu_count > 1:
        wattage *= ctx.psu_carrying
    rating = rating_key(psu.text("efficiency_rating"))

    def want(r: TierRequirement) -> str:
        bits = []
        if r.wattage_w is not None:
            bits.append(f"{r.wattage_w:,} W")
        if r.efficiency_rating:
            bits.append(r.efficiency_rating)
        return " ".join(bits)

    def met(r: TierRequirement) -> bool | None:
        needed = rating_key(r.efficiency_rating)
        eff: bool | None = True
        if needed is not None:
            eff = None if rating is None else (
                EFFICIENCY_ORDER.index(rating) >= EFFICIENCY_ORDER.index(needed))
        return _all(_at_least(wattage, r.wattage_w), eff)

    have = (f"{ctx.psu_label} ({num(wattage) + ' W' if wattage else 'wattage n/a'}, "
            f"{psu.text('efficiency_rating') or 'rating n/a'})")
    gaps = [(psu, f) for f, v in (("wattage_w", wattage), ("efficiency_rating", rating))
            if v is None]
    return _grade(ctx, "psu", "PSU", have, met, want,
                  {"wattage_w": wattage, "efficiency_rating": psu.text("efficiency_rating")
                   or None}, (psu.id,), gaps)


_LIQUID_KINDS = ("aio", "custom-loop")


def check_tier_cooling(ctx: CheckContext) -> list[CheckResult]:
    if ctx.cooler is None:
        return _absent("cooling", "Cooling", ctx)
    cooler = ctx.cooler
    kind = cooler.text("cooler_kind").lower()

    def want(r: TierRequirement) -> str:
        return r.description or ("e.g. " + " / ".join(r.example_part_names)
                                 if r.example_part_names else "")

    def met(r: TierRequirement) -> bool | None:
        if matches_name(cooler, r.example_part_names):
            return True
        text = r.description.lower()
        if "liquid" in text and kind in _LIQUID_KINDS:
            return True
        if "air" in text and kind == "air":
            # "Top-tier" / "high-end" air, read as: rated for the CPU's heat.
            capacity = cooler.number("cooling_capacity_w")
            tdp = ctx.cpu.number("tdp_w") if ctx.cpu is not None else None
            if capacity is None or tdp is None:
                return None
            return capacity >= tdp
        return False if kind else None

    have = f"{cooler.display_name} ({value_label('cooler_kind', kind) or 'kind n/a'})"
    gaps: list[tuple[Part, str]] = []
    if not kind:
        gaps.append((cooler, "cooler_kind"))
    elif kind == "air":
        if cooler.number("cooling_capacity_w") is None:
            gaps.append((cooler, "cooling_capacity_w"))
        if ctx.cpu is not None and ctx.cpu.number("tdp_w") is None:
            gaps.append((ctx.cpu, "tdp_w"))
    return _grade(ctx, "cooling", "Cooling", have, met, want, {"cooler_kind": kind or None},
                  (cooler.id,), gaps)


def check_tier(ctx: CheckContext) -> list[CheckResult]:
    """Every component against the build's tier (nothing when no tier is chosen)."""
    if ctx.build.tier is None:
        return []
    if ctx.tier is None:
        return [CheckResult("tier.unavailable", "workload", "unknown",
                            f"The {ctx.build.tier} tier is not in the catalog",
                            {"tier": ctx.build.tier})]
    results: list[CheckResult] = []
    for check in (check_tier_cpu, check_tier_gpu, check_tier_ram, check_tier_storage,
                  check_tier_psu, check_tier_cooling):
        results += check(ctx)
    return results


CHECKS = (check_tier,)
