"""Chart series of a build sheet: power by part group, memory, the GPUs against alternatives.

Unknown values are ``None`` segments: a renderer prints "n/a" for them and draws nothing,
so a missing figure never looks like a zero-length bar.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.checks.summary import BuildSummary
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.formatting import NA, gigabytes, number, watts
from dlhw_desktop.core.parts import Part
from dlhw_desktop.reports.sheet_model import Bar, BarChart, Marker, Segment

POWER_GROUPS: tuple[tuple[str, str], ...] = (
    ("cpu", "CPU"), ("accelerators", "Accelerators"), ("motherboard", "Motherboard"),
    ("memory", "Memory"), ("storage", "Storage"), ("fans", "Case fans"),
)
THROUGHPUT_FIELD = "bf16_tensor_tflops"
ALTERNATIVES = 5
"""How many catalog accelerators the build's GPUs are set against."""


def _single(label: str, value: float | None, text: str, highlight: bool = False) -> Bar:
    return Bar(label, (Segment(label, value),), highlight, text if value is not None else NA)


def power_chart(build: Build, summary: BuildSummary) -> BarChart:
    """Sustained DC watts per part group; a group whose figure is missing reads n/a."""
    known = dict(summary.power_breakdown)
    expected: set[str] = set(known)
    if build.cpu is not None:
        expected.add("cpu")
    if build.accelerators:
        expected.add("accelerators")
    bars = [_single(label, known.get(key), watts(known.get(key)))
            for key, label in POWER_GROUPS if key in expected]
    notes: list[str] = []
    missing = [b.label for b in bars if not b.known]
    if missing:
        notes.append(f"n/a: {', '.join(missing)} (power figure unknown)")
    psu = build.psu.number("wattage_w") if build.psu is not None else None
    markers: tuple[Marker, ...] = ()
    notes.append(f"Sustained total {watts(summary.sustained_w)}; wall draw "
                 f"{watts(summary.wall_w)}; PSU rated {watts(psu)}")
    return BarChart("power", "Sustained power by part group (W)", "W", tuple(bars), (), markers,
                    tuple(notes))


def system_memory_chart(build: Build, summary: BuildSummary) -> BarChart:
    """Without a workload: system RAM against GPU memory, with the common 2x rule."""
    cards = [f"{item.quantity} x {gigabytes(item.part.number('memory_gb'))}"
             for item in build.accelerators]
    bars = (
        _single("System RAM", summary.ram_gb, gigabytes(summary.ram_gb)),
        _single("GPU memory (all cards)", summary.vram_gb,
                gigabytes(summary.vram_gb) + (f" ({', '.join(cards)})" if cards else "")),
    )
    markers: tuple[Marker, ...] = ()
    if summary.vram_gb:
        markers = (Marker("2 x GPU memory (rule of thumb for RAM)", 2 * summary.vram_gb),)
    return BarChart("memory", "System RAM and GPU memory (GB)", "GB", bars, (), markers)


def _ownable(part: Part) -> bool:
    return (part.category is Category.ACCELERATOR
            and part.text("form_factor").lower() != "cloud"
            and part.text("market_segment").lower() != "cloud")


def comparable_accelerators(build_gpus: Sequence[Part], candidates: Sequence[Part],
                            n: int = ALTERNATIVES) -> list[Part]:
    """Catalog accelerators nearest the build's main GPU in price and memory.

    Only parts with a known BF16 figure and price qualify (throughput per dollar is
    the comparison); the nearest on a log scale, so $999 and $1,999 are equally far
    from $1,400.
    """
    if not build_gpus:
        return []
    ref = max(build_gpus, key=lambda p: (p.price_usd or 0.0, p.number("memory_gb") or 0.0))
    own_ids = {p.id for p in build_gpus}
    pool = [p for p in candidates if _ownable(p) and p.id not in own_ids
            and p.number(THROUGHPUT_FIELD) and p.price_usd]
    seen: set[str] = set()
    unique = []
    for part in pool:
        if part.display_name not in seen:
            seen.add(part.display_name)
            unique.append(part)

    def distance(part: Part) -> float:
        score = 0.0
        if ref.price_usd and part.price_usd:
            score += abs(math.log(part.price_usd / ref.price_usd))
        else:
            score += abs(math.log((part.number(THROUGHPUT_FIELD) or 1.0)
                                  / (ref.number(THROUGHPUT_FIELD) or 1.0)))
        ref_mem, mem = ref.number("memory_gb"), part.number("memory_gb")
        if ref_mem and mem:
            score += 0.5 * abs(math.log(mem / ref_mem))
        return score

    return sorted(unique, key=lambda p: (distance(p), p.display_name))[:n]


def _per_price(part: Part) -> float | None:
    tflops = part.number(THROUGHPUT_FIELD)
    return None if tflops is None or not part.price_usd else tflops / part.price_usd * 1000


def _per_watt(part: Part) -> float | None:
    tflops, tdp = part.number(THROUGHPUT_FIELD), part.number("tdp_w")
    return None if tflops is None or not tdp else tflops / tdp * 100


def alternatives_charts(build: Build, candidates: Sequence[Part],
                        n: int = ALTERNATIVES) -> tuple[BarChart, ...]:
    """The build's accelerators against comparable catalog ones: BF16 TFLOPS per $1,000
    of launch price and per 100 W of TDP. Empty when the build has no accelerators."""
    own: dict[str, Part] = {}
    for item in build.accelerators:
        own.setdefault(item.part.id, item.part)
    if not own:
        return ()
    others = comparable_accelerators(list(own.values()), candidates, n)
    charts = []
    for key, title, unit, value in (
        ("per_dollar", "BF16 TFLOPS per $1,000 of launch price", "TFLOPS/$1k", _per_price),
        ("per_watt", "BF16 TFLOPS per 100 W of board power", "TFLOPS/100 W", _per_watt),
    ):
        rows = [(p, value(p), p.id in own) for p in (*own.values(), *others)]
        rows.sort(key=lambda r: (r[1] is None, -(r[1] or 0.0)))
        bars = tuple(_single(p.display_name + (" (this build)" if mine else ""), v,
                             number(v, 1), mine) for p, v, mine in rows)
        notes = ("Dense BF16 tensor figures from the catalog; comparable = nearest in "
                 "price and memory.",) if key == "per_dollar" else ()
        charts.append(BarChart(f"alternatives_{key}", title, unit, bars, (), (), notes))
    return tuple(charts)
