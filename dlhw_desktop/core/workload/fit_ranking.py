"""What fits, cheapest first: ``rank_fits`` tries every catalog accelerator with 1 to 8
GPUs (a GPU built into a system's chip only once) and every cloud offering with
``fit.fit`` and returns the options that fit as ``FitOption`` records the UI can show
and add to a build; ``cheapest_cloud`` picks the cloud offer to compare a build with,
among those running the same software stack.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.limits import INTEGRATED_FORM
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.prices.kinds import STALE_AFTER_MONTHS, PriceKind, is_stale, price_kind
from dlhw_desktop.core.verdict import Status
from dlhw_desktop.core.workload.cost import HOURS_PER_MONTH
from dlhw_desktop.core.workload.errors import InvalidWorkloadError
from dlhw_desktop.core.workload.fit import (
    CostAssumptions,
    FitResult,
    fit,
    heads_split_evenly,
    memory_status,
    vram_bytes,
)
from dlhw_desktop.core.workload.memory import MemoryEstimate, estimate_memory
from dlhw_desktop.core.workload.workload import Parallelism, Workload, default_parallelism

MAX_GPUS = 8
"""The most accelerators ``rank_fits`` tries in one machine (a common 8-GPU server)."""


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
        own = result.own
        price = None if own is None else own.price_usd
        if own is None:
            basis = "price unknown"
        else:
            basis = f"{count} x {accelerator.display_name} ({_price_words(accelerator)})"
            rest = own.price_usd - (accelerator.price_usd or 0.0) * count
            if rest > 0.005:
                basis += f" + the rest of your build (${rest:,.0f})"
            if own.unpriced:
                basis += f"; no price for {', '.join(own.unpriced)}"
        return FitOption("own", part, accelerator, count, result.status,
                         result.memory.per_gpu_bytes, vram_bytes(accelerator), hours, price,
                         basis, own.usd_per_hour if own else None, tokens_per_s, result)
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
    include_own: bool = True,
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
    ``include_own`` False ranks the cloud offers alone (the rental a build is compared with).
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

    counts = [n for n in range(1, max_gpus + 1) if heads_split_evenly(workload, layout(n))]
    needed = required_stack(workload)
    options: list[FitOption] = []
    for part in accelerators if include_own else ():
        if part.category is not Category.ACCELERATOR or not _ownable(part):
            continue
        if needed and not runs_stack(part, needed):
            continue
        vram = vram_bytes(part)
        if vram is None:
            continue
        chosen: int | None = None
        tight: int | None = None
        # A GPU built into a system's chip comes one to a machine.
        one_only = part.text("form_factor").lower() == INTEGRATED_FORM
        for count in [n for n in counts if n == 1] if one_only else counts:
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


SOFTWARE_STACKS = ("CUDA", "ROCm", "XLA", "Neuron", "SynapseAI", "oneAPI", "Vitis", "Metal")


def software_stack(part: Part | None) -> str | None:
    """The software family a part's code runs on (CUDA, ROCm, XLA, ...), if known."""
    text = part.text("software").lower() if part is not None else ""
    return next((s for s in SOFTWARE_STACKS if s.lower() in text), None)


CUDA_ONLY_PRECISIONS = frozenset({"NF4", "NF4-DQ"})
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
