"""Serving capacity: how many users a set of GPUs holds, how fast each one is served,
how long each waits for its first token, and what a million output tokens cost.

For a request of ``input`` prompt tokens and ``output`` generated tokens (issue #30):

- **Concurrency the KV budget holds**: the stack keeps a share of each GPU's memory
  (``inference.ServingStack``: vLLM's gpu_memory_utilization 0.9 of the whole GPU,
  TensorRT-LLM's 0.9 of what the weights leave) less the weights, the framework overhead
  and one prefill chunk's activations, in pages of ``block_tokens``; a request holds its
  whole length (reserving stacks) or on average its prompt plus half its output (paged
  stacks that grow the cache as they go). The stack's batch limit caps it too.
- **Step time at concurrency B**: ``decode_model.step_time``, the roofline of weight and
  KV reads against 2 x active params x B FLOPs at the workload's MFU, plus the fixed
  costs. Other users' prompts are computed in chunks between and inside the decode steps
  (chunked prefill); a step carrying a chunk is compute-bound by it, so each token also
  waits for B / output prompts' worth of compute (checked against NVIDIA NIM's
  concurrency sweep: ``serving_check``).
- **Per user**: one token per step. **Time to first token**: the prompt's compute
  (``inference.prefill_flops_per_token`` at peak x MFU) plus the wait for other prompts
  in flight (a share B x prefill / request time of the GPU is busy with them, half of it
  waited on average), solved in closed form; past the concurrency the memory holds, new
  users queue for a free slot: (B - B_max) / B_max request times.
- **Aggregate output tokens/s** = B x output / (first token + output x step): every slot
  cycles through a prompt and its answer (closed-loop load, as benchmark clients drive).
- **Cost per million output tokens**: the build's cost per hour owned (``cost``) or
  rented (the offering's rate, or the cheapest on-demand rate per GPU-hour of the same
  GPU in the catalog x the GPU count) over the aggregate rate.

Every user-typed number is checked (``ServingRequest``) and every search is a bisection
over a bounded range: nothing loops over users or GPUs.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.workload.fit import FitResult
from dlhw_desktop.core.workload.serving_model import (
    Copy,
    ServingPoint,
    copy_for,
    max_concurrency,
    point,
)
from dlhw_desktop.core.workload.serving_request import (
    MAX_USERS,
    NO_REQUEST,
    ServingRequest,
)


@dataclass(frozen=True, slots=True)
class TargetAnswer:
    """Whether a target is met, up to which concurrency, and if not, the nearest reached."""

    kind: str
    """``"tps"`` (tokens/s per user, at least) or ``"ttft"`` (seconds, at most)."""
    target: float
    met: bool
    concurrency: int | None
    """The most users served at the target (``None``: not even one)."""
    nearest: float
    """Without ``met``: the best the setup reaches (at one user)."""

    def describe(self) -> str:
        what = (f"{self.target:,.3g} tokens/s per user" if self.kind == "tps"
                else f"a first token within {_seconds(self.target)}")
        if self.met and self.concurrency is not None:
            return f"{what}: up to {self.concurrency:,} concurrent users"
        reached = (f"{self.nearest:,.1f} tokens/s" if self.kind == "tps"
                   else _seconds(self.nearest))
        return f"{what}: no concurrency reaches it; the nearest is {reached} at 1 user"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "target": self.target, "met": self.met,
                "concurrency": self.concurrency, "nearest": self.nearest,
                "text": self.describe()}


def _seconds(value: float) -> str:
    return f"{value * 1000:,.0f} ms" if value < 1 else f"{value:,.2f} s"


@dataclass(frozen=True, slots=True)
class ServingEstimate:
    """The answer for one model, set of GPUs, stack and request."""

    stack: str
    input_tokens: int
    output_tokens: int
    copy: Copy
    max_concurrency: int
    limit: str
    """What caps the concurrency: ``"memory"`` (the KV budget) or ``"batch"`` (the stack's
    batch limit), or ``"weights"`` when nothing is left for a KV cache."""
    at: ServingPoint | None
    """The point reported: at ``users``, else at the targets' concurrency, else at the
    most the memory holds (``None`` when no user fits)."""
    targets: tuple[TargetAnswer, ...] = ()
    own_usd_per_hour: float | None = None
    rented_usd_per_hour: float | None = None
    rented_basis: str = ""
    basis: str = "estimate"
    notes: tuple[str, ...] = field(default=())

    @property
    def own_usd_per_million(self) -> float | None:
        return _per_million(self.own_usd_per_hour, self.at)

    @property
    def rented_usd_per_million(self) -> float | None:
        return _per_million(self.rented_usd_per_hour, self.at)

    def point_at(self, users: float) -> ServingPoint:
        """The throughput, speed per user and first-token time at ``users``."""
        return point(self.copy, users, self.max_concurrency)

    def curve(self, points: int = 48) -> list[ServingPoint]:
        """Points from 1 user to past the most the memory holds, evenly on a log scale
        (for a chart); ``points`` of them whatever the concurrency."""
        top = max(2.0, self.max_concurrency * 1.5)
        if self.at is not None:
            top = max(top, self.at.concurrency * 1.2)
        step = math.log(top) / max(points - 1, 1)
        return [self.point_at(math.exp(i * step)) for i in range(points)]

    def to_dict(self) -> dict[str, Any]:
        return {"stack": self.stack, "input_tokens": self.input_tokens,
                "output_tokens": self.output_tokens,
                "max_concurrency": self.max_concurrency, "limit": self.limit,
                "kv_bytes_per_sequence": self.copy.kv_bytes_per_seq_held,
                "kv_budget_bytes_per_gpu": self.copy.kv_budget_per_gpu,
                "gpus_per_copy": self.copy.layout.gpus_per_copy,
                "replicas": self.copy.layout.replicas,
                "at": None if self.at is None else self.at.to_dict(),
                "targets": [t.to_dict() for t in self.targets],
                "own_usd_per_hour": self.own_usd_per_hour,
                "own_usd_per_million_output_tokens": self.own_usd_per_million,
                "rented_usd_per_hour": self.rented_usd_per_hour,
                "rented_basis": self.rented_basis,
                "rented_usd_per_million_output_tokens": self.rented_usd_per_million,
                "basis": self.basis, "estimate": True, "notes": list(self.notes)}


def _per_million(usd_per_hour: float | None, at: ServingPoint | None) -> float | None:
    if usd_per_hour is None or at is None or at.aggregate_tokens_per_s <= 0:
        return None
    return usd_per_hour / (at.aggregate_tokens_per_s * 3600.0) * 1e6


def _largest(ok: Any, low: int, high: int) -> int | None:
    """The largest n in [low, high] with ok(n), for ok true up to a point and false
    after it (bisection: log2(high) evaluations); ``None`` when ok(low) is false."""
    if not ok(low):
        return None
    if ok(high):
        return high
    while high - low > 1:
        middle = (low + high) // 2
        if ok(middle):
            low = middle
        else:
            high = middle
    return low


def answer_targets(copy: Copy, most: int, request: ServingRequest
                   ) -> tuple[TargetAnswer, ...]:
    """Each target the request sets: met up to which concurrency, or the nearest reached.

    Speed per user falls and the first-token time grows with concurrency; past the
    memory's limit more users only queue (slower first tokens, the same speed), so the
    speed target is searched up to the limit and the first-token target up to
    ``MAX_USERS``, both by bisection.
    """
    answers: list[TargetAnswer] = []
    first = point(copy, 1, most)
    if request.target_tps is not None:
        target = request.target_tps
        n = _largest(lambda c: point(copy, c, most).per_user_tokens_per_s >= target,
                     1, max(most, 1))
        answers.append(TargetAnswer("tps", target, n is not None, n,
                                    first.per_user_tokens_per_s))
    if request.target_ttft_s is not None and copy.prefill_s is not None:
        target = request.target_ttft_s
        # past the memory's limit newcomers queue, and a patient target admits them:
        # the search runs to the largest user count there is (30 halvings)
        n = _largest(lambda c: (point(copy, c, most).ttft_s or 0.0) <= target, 1, MAX_USERS)
        answers.append(TargetAnswer("ttft", target, n is not None, n, first.ttft_s))
    return tuple(answers)


def estimate_serving(copy: Copy, request: ServingRequest, *, stack_name: str,
                     own_usd_per_hour: float | None = None,
                     rented_usd_per_hour: float | None = None, rented_basis: str = "",
                     notes: Sequence[str] = ()) -> ServingEstimate:
    """The serving answer for one copy layout (see ``serving_model.copy_for``)."""
    most, limit = max_concurrency(copy)
    targets = answer_targets(copy, most, request) if most else ()
    extra = list(notes)
    if most == 0:
        at = None
        extra.append("the weights leave no memory for a KV cache: no user can be served")
    elif request.users is not None:
        at = point(copy, request.users, most)
        if request.users > most:
            extra.append(f"the memory holds {most:,} concurrent requests; the other "
                         f"{request.users - most:,} users wait in the queue")
    else:
        met = [t.concurrency for t in targets if t.concurrency is not None]
        # a target no concurrency meets: the point where the setup comes nearest, 1 user
        chosen = 1 if len(met) < len(targets) else min(met) if met else most
        at = point(copy, chosen, most)
    return ServingEstimate(stack_name, copy.input_tokens, copy.output_tokens, copy, most,
                           limit, at, targets, own_usd_per_hour, rented_usd_per_hour,
                           rented_basis, copy.basis, tuple(extra))


def rented_rate(gpus: Sequence[Part], offerings: Iterable[Part]
                ) -> tuple[float | None, str]:
    """The cheapest on-demand price per GPU-hour of the same accelerator (board-partner
    cards by their chip) x the GPU count, with the offering it comes from."""
    if not gpus:
        return None, ""
    ids = {gpus[0].id, gpus[0].text("chip_id")} - {""}
    best: tuple[float, Part] | None = None
    for offer in offerings:
        if offer.text("accelerator_id") not in ids or offer.price_kind == "cloud_spot":
            continue
        per_gpu = offer.number("price_per_accelerator_hour_usd")
        if per_gpu is not None and per_gpu > 0 and (best is None or per_gpu < best[0]):
            best = (per_gpu, offer)
    if best is None:
        return None, ""
    count = len(gpus)
    return best[0] * count, (f"{count:,} x ${best[0]:,.2f}/GPU-hour "
                             f"({best[1].display_name})")


def serving_for_fit(result: FitResult, request: ServingRequest = NO_REQUEST,
                    offerings: Iterable[Part] = ()) -> ServingEstimate | None:
    """The serving answer for a fit's workload on its GPUs; ``None`` for jobs that are
    not serving a generating model. The own cost per hour is the fit's (``cost``); the
    rented one the fit's cloud offering, else ``rented_rate`` over ``offerings``.
    Raises ``InvalidWorkloadError`` when the model, GPUs or request cannot be estimated.
    """
    workload = result.workload
    if workload.mode != "inference" or not workload.model.autoregressive:
        return None
    kinds = list({id(g): g for g in result.gpus}.values())
    copy = copy_for(workload, kinds, len(result.gpus), result.parallel,
                    request.input_tokens, request.output_tokens)
    if result.cloud_usd_per_hour is not None:
        rented, basis = result.cloud_usd_per_hour, "this cloud offering's rate"
    else:
        rented, basis = rented_rate(result.gpus, offerings)
    notes: list[str] = []
    if copy.layout.tensor > 8:
        notes.append(f"tensor parallel over {copy.layout.tensor} GPUs crosses nodes; "
                     "replicas (strategy ddp) of a smaller group usually serve more")
    if copy.prefill_s is None:
        notes.append(f"{workload.compute} throughput unknown: no time to first token")
    return estimate_serving(copy, request, stack_name=copy.stack.name,
                            own_usd_per_hour=result.own.usd_per_hour if result.own else None,
                            rented_usd_per_hour=rented, rented_basis=basis, notes=notes)


__all__ = ["MAX_USERS", "NO_REQUEST", "Copy", "ServingEstimate", "ServingPoint",
           "ServingRequest", "TargetAnswer", "answer_targets", "copy_for",
           "estimate_serving", "rented_rate", "serving_for_fit"]
