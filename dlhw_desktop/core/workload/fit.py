"""Does it fit, how long, what does it cost: one workload on a set of accelerators.

``fit`` combines the estimators for one set of accelerators (a build's GPUs, or a cloud
offering's): the per-GPU memory breakdown, a verdict per GPU as a ``CheckResult`` of kind
``workload`` (so it joins the planner's checks), the time of the job and its cost.
Which accelerators or cloud offerings fit, cheapest first (``rank_fits``), is in
``fit_ranking``.

Verdict per GPU: pass when the estimate is at most 90 % of the GPU's memory (the rest is
headroom for allocator fragmentation and peaks the estimate smooths over), warn from 90 %
to 100 %, fail above. GPU memory sizes are binary: a "24 GB" card holds 24 x 2^30 bytes,
because DRAM chips come in power-of-two densities.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, overload

from dlhw_desktop.core.formatting import gib
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.verdict import CheckResult, Status, worst
from dlhw_desktop.core.workload.cost import (
    DEFAULT_ELECTRICITY_USD_PER_KWH,
    DEFAULT_PUE,
    DEFAULT_UTILISATION,
    DEFAULT_YEARS,
    Machine,
    OwnHardware,
    RunCost,
    cloud_usd_per_hour,
    own_machine,
    run_cost,
    usd_per_million_tokens,
)
from dlhw_desktop.core.workload.decode_model import (
    link_bandwidth,
    llama_cpp_backend,
    memory_class,
)
from dlhw_desktop.core.workload.errors import InvalidWorkloadError
from dlhw_desktop.core.workload.inference import InferenceThroughput, estimate_inference
from dlhw_desktop.core.workload.memory import GiB, MemoryEstimate, estimate_memory
from dlhw_desktop.core.workload.precision import peak_flops
from dlhw_desktop.core.workload.scaling import gpu_link
from dlhw_desktop.core.workload.timing import TrainingTime, estimate_training_time
from dlhw_desktop.core.workload.workload import Parallelism, Workload, default_parallelism

NO_BUILD = Machine()
"""The machine when there is no build: the GPUs alone, the rest named as unpriced."""

PASS_FRACTION = 0.90
"""Up to this share of a GPU's memory the verdict is pass; up to 1.0 warn; above, fail."""

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
    machine: Machine = NO_BUILD
    """Everything around the accelerators (``cost.Machine``); the default is no build:
    the GPUs alone, the rest named as unpriced."""

    def own(self, accelerators: Accelerators) -> OwnHardware | None:
        """``cost.own_machine`` of ``accelerators`` under these assumptions."""
        return own_machine(accelerators, self.machine, years=self.years,
                           electricity_usd_per_kwh=self.electricity_usd_per_kwh,
                           pue=self.pue, utilisation=self.utilisation)


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
    if not heads_split_evenly(workload, parallel):
        notes.append(f"{workload.model.heads} attention heads do not split evenly over "
                     f"{parallel.gpus} GPUs: tensor parallel serving needs a divisor "
                     "(llama.cpp-style layer split works, at the same memory)")
    peak = _min_figure(kinds, lambda g: training_peak(g, workload))
    if workload.training and workload.compute == "BF16" and peak is not None and any(
            peak_flops(g, "BF16") is None for g in kinds):
        notes.append("no BF16 tensor rate: the job computes in FP16 mixed precision on "
                     + ", ".join(sorted({g.display_name for g in kinds
                                         if peak_flops(g, "BF16") is None})))
    bandwidth = _min_figure(
        kinds, lambda g: None if g.number("memory_bandwidth_gb_s") is None
        else g.number("memory_bandwidth_gb_s") * 1e9)  # type: ignore[operator]
    if peak is None:
        notes.append(f"{workload.compute} throughput unknown for "
                     + ", ".join(sorted({g.display_name for g in kinds
                                         if training_peak(g, workload) is None})))

    training: TrainingTime | None = None
    inference: InferenceThroughput | None = None
    job_hours: float | None = None
    fits = worst(checks.statuses) != "fail"
    if not fits:
        notes.append("does not fit in memory: no speed, time or cost is estimated for it")
    elif workload.training:
        links = [gpu_link(g) for g in kinds]
        link = None if any(x is None for x in links) else min(
            links, key=lambda x: x.bytes_per_s)  # type: ignore[union-attr]
        training = estimate_training_time(workload, peak, len(gpus), parallel, link)
        job_hours = None if training is None else training.hours
    else:
        inference = estimate_inference(
            workload, bandwidth, peak, len(gpus), parallel=parallel,
            memory_class=memory_class(kinds[0].text("memory_type")),
            backend=llama_cpp_backend(kinds[0].vendor),
            link_bandwidth=_min_figure(kinds, link_bandwidth))
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
        own = a.own(counted)
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


def training_peak(part: Part, workload: Workload) -> float | None:
    """The dense peak a job computes at on ``part``: its compute precision, and for a
    BF16 training job on a GPU without BF16 (V100, T4) FP16 mixed precision, as
    PyTorch's autocast and bitsandbytes' compute dtype run there."""
    peak = peak_flops(part, workload.compute)
    if peak is None and workload.training and workload.compute == "BF16":
        return peak_flops(part, "FP16")
    return peak


def heads_split_evenly(workload: Workload, parallel: Parallelism) -> bool:
    """Tensor parallelism splits the attention heads evenly over the GPUs."""
    heads = workload.model.heads
    return parallel.tensor_parallel == 1 or not heads or heads % parallel.tensor_parallel == 0
