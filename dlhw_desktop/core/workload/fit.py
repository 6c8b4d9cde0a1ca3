"""Does it fit, how long, what does it cost: one workload on a set of accelerators.

``fit`` combines the estimators for one set of accelerators (a build's GPUs, or a cloud
offering's): the per-GPU memory breakdown, a verdict per GPU as a ``CheckResult`` of kind
``workload`` (so it joins the planner's checks), the time of the job and its cost.
``rank_fits`` tries every catalog accelerator with 1 to 8 GPUs and every cloud offering
and returns what fits, cheapest first, as records the UI can show and add to a build.

Verdict per GPU: pass when the estimate is at most 90 % of the GPU's memory (the rest is
headroom for allocator fragmentation and peaks the estimate smooths over), warn from 90 %
to 100 %, fail above. GPU memory sizes are binary: a "24 GB" card holds 24 x 2^30 bytes,
because DRAM chips come in power-of-two densities.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, overload

from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.formatting import gib
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.prices import STALE_AFTER_MONTHS, PriceKind, is_stale, price_kind
from dlhw_desktop.core.verdict import CheckResult, Status, worst
from dlhw_desktop.core.workload.cost import (
    BASE_SYSTEM_W,
    DEFAULT_ELECTRICITY_USD_PER_KWH,
    DEFAULT_PUE,
    DEFAULT_UTILISATION,
    DEFAULT_YEARS,
    HOURS_PER_MONTH,
    OwnHardware,
    RunCost,
    cloud_usd_per_hour,
    run_cost,
    system_power_w,
    usd_per_million_tokens,
)
from dlhw_desktop.core.workload.errors import InvalidWorkloadError
from dlhw_desktop.core.workload.memory import GiB, MemoryEstimate, estimate_memory
from dlhw_desktop.core.workload.precision import peak_flops
from dlhw_desktop.core.workload.timing import (
    InferenceThroughput,
    TrainingTime,
    estimate_inference,
    estimate_training_time,
)
from dlhw_desktop.core.workload.workload import Parallelism, Workload, default_parallelism

PASS_FRACTION = 0.90
"""Up to this share of a GPU's memory the verdict is pass; up to 1.0 warn; above, fail."""

MAX_GPUS = 8
"""The most accelerators ``rank_fits`` tries in one machine (a common 8-GPU server)."""

Accelerators = Sequence[tuple[Part, int]]


def vram_bytes(part: Part) -> float | None:
    """A GPU's memory in bytes (catalog GB are binary, see the module docstring)."""
    gb = part.number("memory_gb")
    return None if gb is None or gb <= 0 else gb * GiB


def memory_status(needed: float, vram: float | None, complete: bool = True) -> Status:
    """pass <= 90 %, warn <= 100 %, fail above; ``unknown`` without a figure to compare.

    A lower-bound estimate (``complete`` False) can still fail or warn, but never pass:
    a missing figure must not read as a clean bill of health.
    """
    if vram is None:
        return "unknown"
    fraction = needed / vram
    if fraction > 1.0:
        return "fail"
    if fraction > PASS_FRACTION:
        return "warn"
    return "pass" if complete else "unknown"


def _suggestion(estimate: MemoryEstimate, status: Status) -> str:
    if status not in ("fail", "warn"):
        return ""
    w = estimate.workload
    if w.mode == "inference" and w.base_format in ("FP32", "TF32", "BF16", "FP16"):
        return "a quantised format (INT8, Q4_K_M, AWQ) or more GPUs would cut the weights"
    if w.mode == "training" and not w.checkpointing:
        return "activation checkpointing, ZeRO/FSDP sharding or LoRA/QLoRA would cut memory"
    if w.mode == "lora":
        return ("QLoRA (4-bit base) would cut memory" if w.checkpointing
                else "QLoRA (4-bit base) or activation checkpointing would cut memory")
    if w.training and not w.checkpointing:
        return "activation checkpointing would cut the activations"
    if w.batch > 1:
        return "a smaller batch (with gradient accumulation for training) would cut memory"
    return "more GPUs or GPUs with more memory"


def memory_check(estimate: MemoryEstimate, part: Part, index: int = 0,
                 check_id: str | None = None) -> CheckResult:
    """The verdict for one GPU: needed bytes against its memory, with the numbers."""
    return memory_checks(estimate, [part], start=index,
                         ids=None if check_id is None else [check_id])[0]


def memory_checks(estimate: MemoryEstimate, gpus: Sequence[Part], *, start: int = 0,
                  ids: Sequence[str] | None = None) -> GpuChecks:
    """One verdict per GPU (``memory_check`` for each), judged once per distinct part.

    The per-GPU ``CheckResult`` records are made when they are read: 16,384 GPUs of one
    kind cost one comparison, and a fit on them answers in milliseconds (issue #19).
    """
    return GpuChecks(estimate, tuple(gpus), start, None if ids is None else tuple(ids))


class GpuChecks(Sequence[CheckResult]):
    """The per-GPU verdicts of one memory estimate, built on access (read-only)."""

    __slots__ = ("_built", "_estimate", "_gpus", "_ids", "_start", "_templates")

    def __init__(self, estimate: MemoryEstimate, gpus: tuple[Part, ...], start: int = 0,
                 ids: tuple[str, ...] | None = None) -> None:
        self._estimate, self._gpus, self._start, self._ids = estimate, gpus, start, ids
        needed = estimate.per_gpu_bytes
        self._templates: dict[int, tuple[Status, str, dict[str, Any], str]] = {}
        for part in gpus:
            if id(part) not in self._templates:
                self._templates[id(part)] = _memory_template(estimate, part, needed)
        self._built: dict[int, CheckResult] = {}

    @property
    def statuses(self) -> tuple[Status, ...]:
        """The verdict of each distinct accelerator (what ``worst`` needs)."""
        return tuple(t[0] for t in self._templates.values())

    def __len__(self) -> int:
        return len(self._gpus)

    def _make(self, offset: int) -> CheckResult:
        built = self._built.get(offset)
        if built is not None:
            return built
        part = self._gpus[offset]
        status, tail, figures, suggestion = self._templates[id(part)]
        index = self._start + offset
        many = self._estimate.parallel.gpus > 1
        label = f"{part.display_name} #{index + 1}" if many else part.display_name
        check = CheckResult(
            id=self._ids[offset] if self._ids is not None else f"workload.memory.gpu{index}",
            kind="workload", status=status, message=label + tail, figures=dict(figures),
            part_ids=(part.id,), suggestion=suggestion)
        self._built[offset] = check
        return check

    @overload
    def __getitem__(self, index: int) -> CheckResult: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[CheckResult, ...]: ...

    def __getitem__(self, index: int | slice) -> CheckResult | tuple[CheckResult, ...]:
        if isinstance(index, slice):
            return tuple(self._make(i) for i in range(*index.indices(len(self))))
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self._make(index)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return len(other) == len(self) and all(a == b for a, b in zip(self, other,
                                                                           strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"GpuChecks({len(self)} GPUs, {', '.join(self.statuses)})"


def _memory_template(estimate: MemoryEstimate, part: Part, needed: float
                     ) -> tuple[Status, str, dict[str, Any], str]:
    vram = vram_bytes(part)
    status = memory_status(needed, vram, estimate.complete)
    figures: dict[str, Any] = {
        "needed_bytes": round(needed),
        "vram_bytes": None if vram is None else round(vram),
        "fraction": None if vram is None else round(needed / vram, 4),
        "gpus": estimate.parallel.gpus,
        "complete": estimate.complete,
    }
    for item in estimate.items:
        figures[f"{item.key}_bytes"] = None if item.bytes is None else round(item.bytes)
    parts = ", ".join(
        f"{i.label.lower()} {gib(i.bytes)}" for i in estimate.items
    )
    if vram is None:
        tail = f": needs {gib(needed)}; its memory size is unknown ({parts})"
    else:
        bound = "at least " if not estimate.complete else ""
        tail = (f": needs {bound}{gib(needed)} of {gib(vram)} "
                f"({needed / vram:.0%}) - {parts}")
        if not estimate.complete:
            tail += f"; unknown: {', '.join(estimate.unknown)}"
    return status, tail, figures, _suggestion(estimate, status)


@dataclass(frozen=True, slots=True)
class CostAssumptions:
    """What the cost estimates assume about owning (see ``cost`` for the defaults)."""

    years: float = DEFAULT_YEARS
    electricity_usd_per_kwh: float = DEFAULT_ELECTRICITY_USD_PER_KWH
    pue: float = DEFAULT_PUE
    utilisation: float = DEFAULT_UTILISATION
    base_system_w: float = BASE_SYSTEM_W
    hardware_price_usd: float | None = None
    """The whole machine's price; ``None`` = the accelerators' prices only."""


@dataclass(frozen=True, slots=True)
class FitResult:
    """Everything the UI shows for one workload on one set of accelerators."""

    workload: Workload
    memory: MemoryEstimate
    gpus: tuple[Part, ...]
    checks: Sequence[CheckResult]
    training: TrainingTime | None = None
    inference: InferenceThroughput | None = None
    job_hours: float | None = None
    own: OwnHardware | None = None
    cloud_usd_per_hour: float | None = None
    cost: RunCost | None = None
    usd_per_million_tokens: float | None = None
    notes: tuple[str, ...] = ()

    @property
    def status(self) -> Status:
        if isinstance(self.checks, GpuChecks):
            return worst(self.checks.statuses) if len(self.checks) else "unknown"
        return worst(c.status for c in self.checks) if self.checks else "unknown"

    @property
    def parallel(self) -> Parallelism:
        return self.memory.parallel

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "memory": self.memory.to_dict(),
            "gpus": [p.id for p in self.gpus],
            "checks": [_check_dict(c) for c in self.checks],
            "training": None if self.training is None else self.training.to_dict(),
            "inference": None if self.inference is None else self.inference.to_dict(),
            "job_hours": self.job_hours,
            "own": None if self.own is None else self.own.to_dict(),
            "cloud_usd_per_hour": self.cloud_usd_per_hour,
            "cost": None if self.cost is None else self.cost.to_dict(),
            "usd_per_million_tokens": self.usd_per_million_tokens,
            "notes": list(self.notes),
        }


def _check_dict(check: CheckResult) -> dict[str, Any]:
    return {"id": check.id, "kind": check.kind, "status": check.status,
            "message": check.message, "figures": dict(check.figures),
            "part_ids": list(check.part_ids), "suggestion": check.suggestion}


def _expand(accelerators: Accelerators) -> tuple[Part, ...]:
    gpus: list[Part] = []
    for part, count in accelerators:
        if not isinstance(count, int) or count < 1:
            raise InvalidWorkloadError(f"count of {part.id} must be a positive integer, "
                                       f"got {count!r}")
        gpus.extend([part] * count)
    if not gpus:
        raise InvalidWorkloadError("no accelerators to fit the workload on")
    return tuple(gpus)


def _distinct(gpus: Sequence[Part]) -> list[Part]:
    """The different parts among ``gpus`` (by identity), in order."""
    seen: dict[int, Part] = {}
    for g in gpus:
        seen.setdefault(id(g), g)
    return list(seen.values())


def _min_figure(gpus: Sequence[Part], value: Any) -> float | None:
    """The slowest GPU's figure (synchronous parallel work waits for it); ``None`` if any
    is unknown."""
    values = [value(g) for g in gpus]
    return None if any(v is None for v in values) else min(values)


def fit(
    workload: Workload,
    accelerators: Accelerators,
    parallel: Parallelism | None = None,
    *,
    cloud_offering: Part | None = None,
    assumptions: CostAssumptions | None = None,
) -> FitResult:
    """Memory per GPU + verdicts + time + cost of ``workload`` on ``accelerators``.

    ``accelerators`` is a list of (part, count). Work is split evenly over all GPUs (the
    strategy of ``parallel``, default ``default_parallelism``); with mixed GPUs the time
    follows the slowest. Costs are for owning them, or for renting ``cloud_offering``
    (a part of category cloud) when given.
    """
    gpus = _expand(accelerators)
    parallel = parallel or default_parallelism(workload.mode, len(gpus))
    if parallel.gpus != len(gpus):
        raise InvalidWorkloadError(
            f"parallel layout is for {parallel.gpus} GPUs, {len(gpus)} given")
    memory = estimate_memory(workload, parallel)
    checks = memory_checks(memory, gpus)
    kinds = _distinct(gpus)
    notes = list(memory.notes)
    if not _layout_ok(workload, parallel):
        notes.append(f"{workload.model.heads} attention heads do not split evenly over "
                     f"{parallel.gpus} GPUs: tensor parallel serving needs a divisor "
                     "(llama.cpp-style layer split works, at the same memory)")
    peak = _min_figure(kinds, lambda g: peak_flops(g, workload.compute))
    bandwidth = _min_figure(
        kinds, lambda g: None if g.number("memory_bandwidth_gb_s") is None
        else g.number("memory_bandwidth_gb_s") * 1e9)  # type: ignore[operator]
    if peak is None:
        notes.append(f"{workload.compute} throughput unknown for "
                     + ", ".join(sorted({g.display_name for g in kinds
                                         if peak_flops(g, workload.compute) is None})))

    training: TrainingTime | None = None
    inference: InferenceThroughput | None = None
    job_hours: float | None = None
    fits = worst(checks.statuses) != "fail"
    if not fits:
        notes.append("does not fit in memory: no speed, time or cost is estimated for it")
    elif workload.training:
        training = estimate_training_time(workload, peak, len(gpus))
        job_hours = None if training is None else training.hours
    else:
        inference = estimate_inference(workload, bandwidth, peak, len(gpus))
        notes.extend(inference.notes)
        seconds: float | None = None
        if workload.tokens is not None:
            seconds = inference.seconds_for(workload.tokens)
        elif workload.samples is not None and inference.samples_per_s:
            seconds = workload.samples / inference.samples_per_s
        job_hours = None if seconds is None else seconds / 3600.0

    a = assumptions or CostAssumptions()
    own: OwnHardware | None = None
    hourly: float | None = None
    if cloud_offering is not None:
        hourly = cloud_usd_per_hour(cloud_offering)
    else:
        counted = [(g, sum(1 for x in gpus if x is g)) for g in kinds] if len(kinds) > 1 \
            else [(kinds[0], len(gpus))]
        prices = [(g.price_usd, n) for g, n in counted]
        price = a.hardware_price_usd if a.hardware_price_usd is not None else (
            None if any(p is None for p, _ in prices)
            else float(sum(p * n for p, n in prices)))  # type: ignore[operator,misc]
        power = system_power_w(counted, a.base_system_w)
        if price is not None and power is not None:
            own = OwnHardware(price, power, a.years, a.electricity_usd_per_kwh, a.pue,
                              a.utilisation)
    cost = None
    if job_hours is not None and (own is not None or hourly is not None):
        cost = run_cost(job_hours, own, hourly)
    per_mtok = None
    if inference is not None and inference.tokens_per_s:
        rate = hourly if hourly is not None else (own.usd_per_hour if own else None)
        if rate is not None:
            per_mtok = usd_per_million_tokens(inference.tokens_per_s, rate)
    return FitResult(workload, memory, gpus, checks, training, inference, job_hours, own,
                     hourly, cost, per_mtok, tuple(notes))


# --- what fits --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FitOption:
    """One way to run the workload: N of an accelerator to buy, or a cloud offering.

    ``part`` is what to add to a build (the accelerator, ``count`` times, or the cloud
    offering once); ``accelerator`` is the GPU inside either way.
    """

    kind: Literal["own", "cloud"]
    part: Part
    accelerator: Part
    count: int
    status: Status
    per_gpu_bytes: float
    vram_bytes: float | None
    job_hours: float | None
    cost_usd: float | None
    cost_basis: str
    usd_per_hour: float | None
    tokens_per_s: float | None
    result: FitResult = field(repr=False, compare=False)

    @property
    def part_id(self) -> str:
        return self.part.id

    @property
    def fraction(self) -> float | None:
        return None if not self.vram_bytes else self.per_gpu_bytes / self.vram_bytes

    @property
    def label(self) -> str:
        if self.kind == "cloud":
            return f"{self.part.display_name} ({self.count} x {self.accelerator.display_name})"
        return f"{self.count} x {self.accelerator.display_name}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "part_id": self.part.id, "accelerator_id": self.accelerator.id,
            "label": self.label, "count": self.count, "status": self.status,
            "per_gpu_bytes": round(self.per_gpu_bytes),
            "vram_bytes": None if self.vram_bytes is None else round(self.vram_bytes),
            "fraction": None if self.fraction is None else round(self.fraction, 4),
            "job_hours": self.job_hours, "cost_usd": self.cost_usd,
            "cost_basis": self.cost_basis, "usd_per_hour": self.usd_per_hour,
            "tokens_per_s": self.tokens_per_s,
        }


def _layout_ok(workload: Workload, parallel: Parallelism) -> bool:
    """Tensor parallelism splits the attention heads evenly over the GPUs."""
    heads = workload.model.heads
    return parallel.tensor_parallel == 1 or not heads or heads % parallel.tensor_parallel == 0


def _ownable(part: Part) -> bool:
    """Accelerators one can put in a machine (cloud-only parts such as TPUs are rented)."""
    return (part.text("form_factor").lower() != "cloud"
            and part.text("market_segment").lower() != "cloud")


def _price_words(part: Part) -> str:
    """What a purchase price is, briefly: ``launch list price (MSRP) of 2022-10-12, older
    than 12 months``; a user's quote, a reported figure or an undated price says so."""
    kind = price_kind(part.price_kind)
    label = kind.label if kind else "price of unknown kind"
    if not part.price_date:
        return f"{label}, undated"
    old = f", older than {STALE_AFTER_MONTHS} months" if is_stale(part.price_date) else ""
    return f"{label} of {part.price_date}{old}"


def _option_from(result: FitResult, kind: Literal["own", "cloud"], part: Part,
                 accelerator: Part, count: int, horizon_hours: float) -> FitOption:
    tokens_per_s = result.inference.tokens_per_s if result.inference else None
    hours = result.job_hours
    if kind == "own":
        price = None if accelerator.price_usd is None else accelerator.price_usd * count
        basis = (f"purchase: {count} x {accelerator.display_name}, {_price_words(accelerator)}"
                 if price is not None else "price unknown")
        return FitOption("own", part, accelerator, count, result.status,
                         result.memory.per_gpu_bytes, vram_bytes(accelerator), hours, price,
                         basis, result.own.usd_per_hour if result.own else None,
                         tokens_per_s, result)
    hourly = result.cloud_usd_per_hour
    if hourly is None:
        cost, basis = None, "price unknown"
    elif hours is not None:
        cost, basis = hours * hourly, f"{hours:,.1f} h x ${hourly:,.2f}/h"
    else:
        cost = horizon_hours * hourly
        basis = f"{horizon_hours:,.0f} h (job length unknown) x ${hourly:,.2f}/h"
    if hourly is not None and part.price_kind == PriceKind.CLOUD_SPOT:
        basis += ", spot rate (can be reclaimed mid-job)"
    return FitOption("cloud", part, accelerator, count, result.status,
                     result.memory.per_gpu_bytes, vram_bytes(accelerator), hours, cost, basis,
                     hourly, tokens_per_s, result)


def rank_fits(
    workload: Workload,
    accelerators: Sequence[Part],
    cloud: Sequence[Part] = (),
    *,
    max_gpus: int = MAX_GPUS,
    strategy: str | None = None,
    include_warn: bool = True,
    include_unknown: bool = True,
    horizon_hours: float = HOURS_PER_MONTH,
    assumptions: CostAssumptions | None = None,
) -> list[FitOption]:
    """Everything that runs ``workload``, cheapest job first.

    Own hardware: for each accelerator the smallest count from 1 to ``max_gpus`` whose
    verdict is pass, else the smallest that is warn (with ``include_warn``), costed at
    its purchase price. Tensor-parallel layouts only use counts that divide the
    attention heads evenly (Megatron-LM splits heads across GPUs, Shoeybi et al. 2019).
    Cloud: each offering whose accelerator (``accelerator_id``, looked up among
    ``accelerators``) fits at its ``accelerator_count``, costed at job hours x $/h, or at
    ``horizon_hours`` x $/h (default one month) when the job length is unknown. Options
    with an unknown cost come last; ties go to the verdict (pass first), then the time.
    ``unknown`` verdicts (the known part fits, a figure such as activations is missing) are
    kept by default so models with unpublished figures still get an answer, marked so.
    """
    if max_gpus < 1:
        raise InvalidWorkloadError("max_gpus must be at least 1")
    ok: set[str] = {"pass"}
    if include_warn:
        ok.add("warn")
    if include_unknown:
        ok.add("unknown")
    estimates: dict[int, MemoryEstimate] = {}

    def layout(count: int) -> Parallelism:
        if strategy is None or count == 1:
            return default_parallelism(workload.mode, count)
        return Parallelism(count, strategy)

    def per_gpu(count: int) -> MemoryEstimate:
        if count not in estimates:
            estimates[count] = estimate_memory(workload, layout(count))
        return estimates[count]

    counts = [n for n in range(1, max_gpus + 1) if _layout_ok(workload, layout(n))]
    needed = required_stack(workload)
    options: list[FitOption] = []
    for part in accelerators:
        if part.category is not Category.ACCELERATOR or not _ownable(part):
            continue
        if needed and not runs_stack(part, needed):
            continue
        vram = vram_bytes(part)
        if vram is None:
            continue
        chosen: int | None = None
        tight: int | None = None
        for count in counts:
            estimate = per_gpu(count)
            status = memory_status(estimate.per_gpu_bytes, vram, estimate.complete)
            if status == "warn" and tight is None:
                tight = count
            if status in ("pass", "unknown"):
                chosen = count
                break
        if chosen is None and include_warn:
            chosen = tight
        if chosen is None:
            continue
        result = fit(workload, [(part, chosen)], layout(chosen), assumptions=assumptions)
        if result.status in ok:
            options.append(_option_from(result, "own", part, part, chosen, horizon_hours))
    by_id = {p.id: p for p in accelerators}
    for offering in cloud:
        if offering.price_kind == "cloud_reserved":
            continue  # a 1- or 3-year commitment is not a price per job
        accelerator = by_id.get(offering.text("accelerator_id"))
        count = offering.number("accelerator_count")
        if accelerator is None or count is None or count < 1:
            continue
        if needed and not runs_stack(accelerator, needed):
            continue
        n = int(count)
        result = fit(workload, [(accelerator, n)], layout(n), cloud_offering=offering,
                     assumptions=assumptions)
        if result.status in ok:
            options.append(_option_from(result, "cloud", offering, accelerator, n,
                                        horizon_hours))
    status_rank = {"pass": 0, "warn": 1, "unknown": 2}
    options.sort(key=lambda o: (
        o.cost_usd is None, o.cost_usd or 0.0, status_rank.get(o.status, 2),
        o.job_hours if o.job_hours is not None else float("inf"), o.label))
    return options


SOFTWARE_STACKS = ("CUDA", "ROCm", "XLA", "Neuron", "SynapseAI", "oneAPI", "Vitis")


def software_stack(part: Part | None) -> str | None:
    """The software family a part's code runs on (CUDA, ROCm, XLA, ...), if known."""
    text = part.text("software").lower() if part is not None else ""
    return next((s for s in SOFTWARE_STACKS if s.lower() in text), None)


CUDA_ONLY_PRECISIONS = frozenset({"NF4"})
"""Weight formats whose kernels exist for CUDA only (bitsandbytes' 4-bit NormalFloat)."""


def required_stack(workload: Workload) -> str | None:
    """The software stack a job cannot run without, if any: QLoRA and NF4 weights use
    bitsandbytes' CUDA kernels (Dettmers et al. 2023), so they never go to a TPU,
    Trainium, Gaudi or a GPU whose stack is unknown."""
    if workload.mode == "qlora" or workload.precision.upper() in CUDA_ONLY_PRECISIONS:
        return "CUDA"
    return None


def runs_stack(part: Part, stack: str) -> bool:
    """Whether ``part`` runs ``stack``; an NVIDIA GPU without a stated stack runs CUDA."""
    own = software_stack(part)
    if own is None and stack == "CUDA" and part.vendor.upper() == "NVIDIA":
        own = "CUDA"
    return own == stack


def cheapest_cloud(options: Sequence[FitOption], reference: Part | None,
                   find: Callable[[str], Part | None]) -> FitOption | None:
    """The cloud offer to compare a build with: the cheapest comfortable fit (a tight one
    only when nothing fits comfortably), among offers that run the same software as the
    build's accelerator ``reference`` (a CUDA build is not priced against Trainium or TPUs)
    when any of them fits. ``options`` come ranked by cost, as ``rank_fits`` returns them.
    """
    clouds = [o for o in options if o.kind == "cloud" and o.usd_per_hour is not None]
    # Like for like: an on-demand rate, not a spot rate that can vanish mid-job.
    clouds = [o for o in clouds if o.part.price_kind != "cloud_spot"] or clouds
    stack = software_stack(reference)
    if stack:
        def offer_stack(option: FitOption) -> str | None:
            ref = option.part.get("accelerator_id")
            return software_stack(find(str(ref)) if ref else None)

        clouds = [o for o in clouds if offer_stack(o) == stack] or clouds
    return next((o for o in clouds if o.status == "pass"), clouds[0] if clouds else None)
