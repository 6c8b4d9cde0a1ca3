"""The workload part of a build sheet: the build's workload -> a fit -> printable rows.

The workload is the build's (a typed ``BuildWorkload``) run on the build's own
accelerators (``core.build_fit``), costed with the build's own figures: its
whole price when every part has one, its measured power, and the electricity price and
utilisation the checks used.
"""

from __future__ import annotations

from collections.abc import Sequence

from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.build.workload_fit import Finder, build_accelerators
from dlhw_desktop.core.checks.own_cost import compare_job, fit_job, job_assumptions
from dlhw_desktop.core.checks.settings import CheckSettings
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
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.verdict import grouped
from dlhw_desktop.core.workload.build_workload import BuildWorkload
from dlhw_desktop.core.workload.comparison import OwnVsRent, own_vs_rent
from dlhw_desktop.core.workload.cost_text import cost_figures
from dlhw_desktop.core.workload.errors import WorkloadError
from dlhw_desktop.core.workload.fit import FitResult, vram_bytes
from dlhw_desktop.core.workload.memory import MemoryEstimate
from dlhw_desktop.core.workload.precision import format_label
from dlhw_desktop.core.workload.workload import recipe_text
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
    """The build's workload on its accelerators, costed by ``own_cost.job_assumptions``
    (the function the panel and ``dlhw fit`` use) with the checks' electricity price and
    utilisation. ``None`` without a workload or accelerators; ``WorkloadError`` when the
    workload cannot be estimated."""
    return fit_job(build, find, sheet_settings(electricity_usd_per_kwh, utilisation))


def sheet_settings(electricity_usd_per_kwh: float | None,
                   utilisation: float | None) -> CheckSettings:
    """The check settings the sheet's figures were computed with."""
    defaults = CheckSettings()
    return CheckSettings(
        price_per_kwh_usd=defaults.price_per_kwh_usd if electricity_usd_per_kwh is None
        else electricity_usd_per_kwh,
        utilisation=defaults.utilisation if utilisation is None else utilisation)


def sheet_comparison(build: Build, result: FitResult, accelerators: Sequence[Part],
                     cloud: Sequence[Part], find: Finder | None,
                     settings: CheckSettings) -> OwnVsRent:
    """Own against the like-for-like rental, as the panel computes it."""
    pairs, _ = build_accelerators(build, find)
    by_id = {p.id: p for p in accelerators}
    return compare_job(result, result.workload, job_assumptions(build, settings),
                       accelerators, cloud, pairs[0][0] if pairs else None,
                       find or by_id.get)


# --- printable rows ---------------------------------------------------------------------


def workload_section(result: FitResult, comparison: OwnVsRent | None = None
                     ) -> WorkloadSection:
    """``comparison``: own against rent (``sheet_comparison``); without it, the own cost
    alone."""
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
        estimates=_estimates(result, comparison),
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
        rows.append(Figure("Optimizer", recipe_text(w.checkpointing, w.optimizer, w.mode),
                           key="optimizer"))
    data = w.dataset_tokens
    rows.append(Figure("Dataset" if w.training else "Tokens to generate",
                       NA if data is None else f"{count(data)} tokens", key="tokens"))
    rows.append(Figure("GPUs", result.parallel.describe(), key="parallel"))
    if w.training:
        t = result.training
        rows.append(Figure("Utilisation (MFU)", percent(w.mfu if t is None else t.mfu),
                           "" if t is None else t.mfu_basis, key="mfu"))
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


def _estimates(result: FitResult, comparison: OwnVsRent | None) -> tuple[Figure, ...]:
    w = result.workload
    rows: list[Figure] = []
    if result.training is not None:
        t = result.training
        rows.append(Figure("Training time", duration(t.hours, keep_hours=True),
                           f"{t.rule} = {t.flops:.3g} FLOPs at {percent(t.mfu)} MFU on "
                           f"{t.gpus} GPU" + ("s" if t.gpus != 1 else "")
                           + (f"; {t.scaling}" if t.scaling else ""), key="training_time"))
        rows.append(Figure("GPU-hours", number(t.gpu_hours, 0), key="gpu_hours"))
    elif w.training:
        why = ("the job does not fit in these GPUs' memory" if result.status == "fail"
               else "no dataset size in the workload" if w.dataset_tokens is None
               else f"the GPUs' {w.compute} throughput is not in the catalog")
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
    rented = result.cloud_usd_per_hour is not None
    if rented:
        rows.append(Figure("Rented setup per hour", money(result.cloud_usd_per_hour, "h"),
                           key="cloud_per_hour"))
    c = comparison or own_vs_rent(result, (), None, lambda _id: None)
    rows += [Figure(f.label, f.value, f.note, key=f.key)
             for f in cost_figures(c, rented=rented)]
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
