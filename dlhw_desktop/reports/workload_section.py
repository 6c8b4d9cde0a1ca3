"""The workload part of a build sheet: the build's workload -> a fit -> printable rows.

The workload is the build's (a typed ``BuildWorkload``) run on the build's own
accelerators (``core.build_fit``), costed with the build's own figures: its
whole price when every part has one, its measured power, and the electricity price and
utilisation the checks used.
"""

from __future__ import annotations

from typing import Any

from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.build.workload_fit import Finder, build_accelerators, fit_build
from dlhw_desktop.core.checks.summary import BuildSummary
from dlhw_desktop.core.formatting import (
    GIB,
    NA,
    count,
    duration,
    gib,
    money,
    number,
    percent,
    rate,
)
from dlhw_desktop.core.verdict import grouped
from dlhw_desktop.core.workload.build_workload import BuildWorkload
from dlhw_desktop.core.workload.cost import system_power_w
from dlhw_desktop.core.workload.errors import WorkloadError
from dlhw_desktop.core.workload.fit import CostAssumptions, FitResult, vram_bytes
from dlhw_desktop.core.workload.memory import MemoryEstimate
from dlhw_desktop.core.workload.precision import format_label
from dlhw_desktop.reports.sheet_model import (
    Bar,
    BarChart,
    CheckRow,
    Figure,
    Marker,
    Segment,
    WorkloadSection,
)

MODE_LABELS = {"inference": "Inference", "training": "Full training",
               "lora": "LoRA fine-tuning", "qlora": "QLoRA fine-tuning"}

MEMORY_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Weights", ("weights", "adapters", "master")),
    ("Optimizer + gradients", ("optimizer", "gradients")),
    ("Activations", ("activations",)),
    ("KV cache", ("kv_cache",)),
    ("Overhead", ("overhead",)),
)
"""How the per-GPU memory items stack in the chart, bottom first."""

MAX_GPU_BARS = 8


# --- the fit ---------------------------------------------------------------------------


def sheet_fit(build: Build, summary: BuildSummary | None = None,
              electricity_usd_per_kwh: float | None = None,
              utilisation: float | None = None,
              find: Finder | None = None) -> FitResult | None:
    """The build's workload on its accelerators, costed with the build's figures.

    ``None`` without a workload or accelerators; ``WorkloadError`` when the workload
    cannot be estimated. The whole machine's price is the cost basis when every part
    has a price; otherwise the accelerators' prices alone (``fit``'s own fallback).
    """
    pairs, offering = build_accelerators(build, find)
    changes: dict[str, Any] = {}
    if electricity_usd_per_kwh is not None:
        changes["electricity_usd_per_kwh"] = electricity_usd_per_kwh
    if utilisation is not None and utilisation > 0:
        changes["utilisation"] = utilisation
    if offering is None and summary is not None:
        if summary.price_usd is not None and summary.unknown_price_parts == 0:
            changes["hardware_price_usd"] = summary.price_usd
        gpu_w = system_power_w(pairs, base_w=0.0) if pairs else None
        if summary.sustained_w is not None and gpu_w is not None:
            changes["base_system_w"] = max(summary.sustained_w - gpu_w, 0.0)
    return fit_build(build, find, CostAssumptions(**changes))


# --- printable rows ---------------------------------------------------------------------


def workload_section(result: FitResult, price_basis: str = "") -> WorkloadSection:
    """``price_basis`` says what the amortised price covers (the machine or the GPUs)."""
    w = result.workload
    model = w.model
    title = f"{model.name}: {MODE_LABELS.get(w.mode, w.mode)}"
    return WorkloadSection(
        title=title,
        status=result.status,
        settings=_settings(result),
        memory=_memory_rows(result.memory),
        verdicts=tuple(CheckRow(c.id, c.kind, "Workload fit", c.status, c.message,
                                c.suggestion) for c, _ in grouped(result.checks)),
        estimates=_estimates(result, price_basis),
        notes=tuple(result.notes),
    )


def error_section(planned: BuildWorkload, error: WorkloadError | str) -> WorkloadSection:
    """The workload is set but cannot be estimated: say so instead of leaving it out."""
    if planned.workload is not None:
        name: object = planned.workload.model.name
    else:
        raw = dict(planned.raw)
        name = raw.get("model") or raw.get("params") or "the workload"
    return WorkloadSection(title=str(name), status="unknown", error=f"Not estimated: {error}")


def _settings(result: FitResult) -> tuple[Figure, ...]:
    w = result.workload
    model = w.model
    params = f"{model.params / 1e9:,.2f}B" if model.params >= 1e9 else count(model.params)
    rows = [
        Figure("Model", f"{model.name} ({params} parameters)", key="model"),
        Figure("Mode", MODE_LABELS.get(w.mode, w.mode), key="mode"),
        Figure("Precision", format_label(w.base_format) if w.base_format == w.compute
               else f"{format_label(w.base_format)} weights, {w.compute} compute",
               key="precision"),
        Figure("Batch x sequence", f"{w.batch} x {w.seq_len:,} tokens", key="batch"),
    ]
    if w.mode in ("lora", "qlora"):
        rows.append(Figure("LoRA rank", str(w.lora_rank), key="lora_rank"))
    if w.training:
        rows.append(Figure("Optimizer", w.optimizer + (", activation checkpointing"
                                                       if w.checkpointing else ""),
                           key="optimizer"))
    data = w.dataset_tokens
    rows.append(Figure("Dataset" if w.training else "Tokens to generate",
                       NA if data is None else f"{count(data)} tokens", key="tokens"))
    rows.append(Figure("GPUs", result.parallel.describe(), key="parallel"))
    if w.training:
        rows.append(Figure("Utilisation (MFU)", percent(w.mfu), key="mfu"))
    return tuple(rows)


def _memory_rows(memory: MemoryEstimate) -> tuple[Figure, ...]:
    rows = [Figure(i.label, gib(i.bytes), i.note, key=i.key) for i in memory.items]
    total = gib(memory.per_gpu_bytes)
    rows.append(Figure("Total per GPU", total if memory.complete else f"at least {total}",
                       "" if memory.complete else f"unknown: {', '.join(memory.unknown)}",
                       key="total"))
    for item in memory.host_items:
        rows.append(Figure(f"Host RAM: {item.label}", gib(item.bytes), item.note,
                           key=f"host_{item.key}"))
    return tuple(rows)


def _estimates(result: FitResult, price_basis: str) -> tuple[Figure, ...]:
    w = result.workload
    rows: list[Figure] = []
    if result.training is not None:
        t = result.training
        rows.append(Figure("Training time", duration(t.hours, keep_hours=True),
                           f"6ND = {t.flops:.3g} FLOPs at {percent(t.mfu)} MFU on {t.gpus} GPU"
                           + ("s" if t.gpus != 1 else ""), key="training_time"))
        rows.append(Figure("GPU-hours", number(t.gpu_hours, 0), key="gpu_hours"))
    elif w.training:
        why = ("no dataset size in the workload" if w.dataset_tokens is None
               else "the GPUs' throughput is unknown")
        rows.append(Figure("Training time", NA, why, key="training_time"))
    if result.inference is not None:
        i = result.inference
        rows.append(Figure("Serving speed", f"{rate(i.tokens_per_s)} tokens/s",
                           f"{i.basis}; {i.stack}, {i.bound} bound, {i.batch} concurrent "
                           "sequence" + ("s" if i.batch != 1 else "") if i.tokens_per_s
                           else "", key="tokens_per_s"))
        if result.job_hours is not None:
            rows.append(Figure("Job length", duration(result.job_hours, keep_hours=True),
                               key="job_hours"))
    if result.own is not None:
        o = result.own
        rows.append(Figure("Own hardware per hour", money(o.usd_per_hour, "h"),
                           f"{money(o.price_usd)}{f' ({price_basis})' if price_basis else ''}"
                           f" over {o.years:g} years at "
                           f"{percent(o.utilisation)} use + energy at {o.power_w:,.0f} W, "
                           f"${o.electricity_usd_per_kwh:.2f}/kWh", key="own_per_hour"))
    else:
        rows.append(Figure("Own hardware per hour", NA,
                           "a price or power figure of the GPUs is unknown",
                           key="own_per_hour"))
    if result.cost is not None:
        c = result.cost
        rows.append(Figure("Cost of one run", money(c.own_usd),
                           f"energy {money(c.energy_usd)} + amortised "
                           f"{money(c.amortised_usd)}", key="run_cost"))
    elif w.training or result.job_hours is not None:
        rows.append(Figure("Cost of one run", NA, "job length or hourly cost unknown",
                           key="run_cost"))
    if result.usd_per_million_tokens is not None:
        rows.append(Figure("Per million tokens", money(result.usd_per_million_tokens),
                           key="usd_per_mtok"))
    return tuple(rows)


# --- memory chart ------------------------------------------------------------------------


def memory_chart(result: FitResult) -> BarChart:
    """VRAM per GPU stacked by weights / optimizer / activations / KV cache / overhead."""
    memory = result.memory
    series = tuple(name for name, keys in MEMORY_GROUPS
                   if any(memory.item(k) is not None for k in keys))
    segments: list[Segment] = []
    unknown: list[str] = []
    for name in series:
        keys = dict(MEMORY_GROUPS)[name]
        items = [memory.item(k) for k in keys if memory.item(k) is not None]
        values = [i.bytes for i in items if i is not None]
        if any(v is None for v in values):
            unknown.append(name)
            segments.append(Segment(name, None))
        else:
            segments.append(Segment(name, sum(v for v in values if v is not None) / GIB))
    gpus = list(result.gpus)
    distinct = {g.id: g for g in gpus}
    bars: list[Bar] = []
    notes: list[str] = []
    if len(gpus) > MAX_GPU_BARS:
        labelled = [(f"Each {g.display_name}", g) for g in distinct.values()]
    elif len(distinct) == 1:
        labelled = [(f"GPU {i + 1}", g) for i, g in enumerate(gpus)]
        notes.append(f"Each GPU: {gpus[0].display_name}, "
                     f"{gib(vram_bytes(gpus[0]))} of memory.")
    else:
        labelled = [(f"GPU {i + 1}: {g.display_name}", g) for i, g in enumerate(gpus)]
    needed = memory.per_gpu_bytes
    bound = "" if memory.complete else "at least "
    for label, gpu in labelled:
        vram = vram_bytes(gpu)
        text = (f"{bound}{needed / GIB:,.1f} GiB"
                + (f" (of {NA})" if vram is None else f" ({percent(needed / vram)})"))
        bars.append(Bar(label, tuple(segments), text=text))
    markers: tuple[Marker, ...] = ()
    sizes = {vram_bytes(g) for g in gpus}
    if len(sizes) == 1 and None not in sizes:
        size = next(iter(sizes)) or 0.0
        markers = (Marker(f"{size / GIB:,.0f} GiB per GPU", size / GIB),
                   Marker("90 % (pass limit)", 0.9 * size / GIB))
    notes += [f"{name}: n/a (not published for this model)" for name in unknown]
    return BarChart("memory", "GPU memory needed per GPU (GiB)", "GiB", tuple(bars), series,
                    markers, tuple(notes))
