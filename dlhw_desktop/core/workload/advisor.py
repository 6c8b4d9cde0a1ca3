"""The second seed article's questions -> three proposals, each with its reasons.

The article ("Deep Learning Hardware [Architecture + Requirements]", section "How to
Choose the Best Hardware for Deep Learning") asks, in order: how big and complex is the
model; what batch size; training or inference; cloud or on-premise, given the budget;
and, under on-premise, whether data security keeps the data in house. ``QUESTIONS`` holds
them for the UI; ``advise`` answers them from the estimators and the catalog parts it is
given (pure: no catalog access here).

Proposals, when the catalog allows three distinct ones:

Options whose price is unknown are left out while any priced option remains.

1. **Best value**: the cheapest option that fits (pass before warn) within the budget.
2. **Faster / more headroom**: the quickest job (highest throughput for serving) among the
   rest within the budget; when times are unknown, the one with the most memory to spare.
3. **The other route**: if renting is allowed and the first two are bought hardware, the
   best cloud offering (or the best purchase if the first two are cloud), so the user
   sees both sides of the article's cloud/on-premise trade-off; else the next cheapest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from dlhw_desktop.core.formatting import duration, gib, rate
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.workload.comparison import OwnVsRent, own_vs_rent
from dlhw_desktop.core.workload.cost_text import cost_figures
from dlhw_desktop.core.workload.errors import InvalidWorkloadError
from dlhw_desktop.core.workload.fit import CostAssumptions
from dlhw_desktop.core.workload.fit_ranking import FitOption, rank_fits
from dlhw_desktop.core.workload.workload import MODE_NAMES, Workload

Deployment = Literal["either", "cloud", "on-premise"]
DEPLOYMENTS: tuple[str, ...] = ("either", "cloud", "on-premise")

SEED_ARTICLE = ("Cherry Servers, \"Deep Learning Hardware [Architecture + Requirements]\", "
                "section \"How to Choose the Best Hardware for Deep Learning\"")


@dataclass(frozen=True, slots=True)
class Question:
    """One question the advisor asks, with the article's reason for asking it."""

    key: str
    text: str
    why: str


QUESTIONS: tuple[Question, ...] = (
    Question("model", "Which model, and how large is it?",
             "Model size and complexity are \"perhaps the most important factors\": more "
             "parameters need more memory and compute."),
    Question("batch", "What batch size (and sequence length)?",
             "\"Large batch sizes require a lot of memory, especially VRAM.\""),
    Question("mode", "Training, fine-tuning (LoRA/QLoRA) or inference?",
             "Training needs far more compute and memory than inference."),
    Question("budget", "What is the budget (US dollars)?",
             "The choice \"will largely depend on ... your project's budget\"."),
    Question("deployment", "Cloud, on-premise, or either?",
             "Cloud avoids upfront cost and scales; on-premise can cost less in the long "
             "run for ongoing workloads."),
    Question("data_private", "Must the data stay on your own premises?",
             "\"On-premise setups can also be beneficial for data security.\""),
)


@dataclass(frozen=True, slots=True)
class Answers:
    """The user's answers to ``QUESTIONS``: the workload (model, batch, job, ...) and
    what only the advisor asks (budget, deployment, data privacy, hours of use)."""

    workload: Workload
    budget_usd: float | None = None
    deployment: str = "either"
    data_private: bool = False
    hours_per_month: float | None = None

    def __post_init__(self) -> None:
        if self.deployment not in DEPLOYMENTS:
            raise InvalidWorkloadError(
                f"deployment must be one of {', '.join(DEPLOYMENTS)}, got {self.deployment!r}")
        if self.budget_usd is not None and self.budget_usd <= 0:
            raise InvalidWorkloadError(f"budget must be positive, got {self.budget_usd!r}")
        if self.hours_per_month is not None and not 0 < self.hours_per_month <= 744:
            raise InvalidWorkloadError("hours per month must be in (0, 744]")

    @property
    def cloud_allowed(self) -> bool:
        return self.deployment != "on-premise" and not self.data_private

    @property
    def own_allowed(self) -> bool:
        return self.deployment != "cloud"


@dataclass(frozen=True, slots=True)
class Proposal:
    """One recommended way to run the workload and why."""

    title: str
    option: FitOption
    reasons: tuple[str, ...]
    caveats: tuple[str, ...] = ()
    comparison: OwnVsRent | None = None
    """For a machine to buy: its own cost against the like-for-like rental, the same
    comparison the Workload panel and the sheet show (``comparison.own_vs_rent``)."""

    @property
    def buys(self) -> bool:
        """A machine to buy (goes into the build); else a cloud offer to rent (shown in
        the cost comparison, never put into the build)."""
        return self.option.kind == "own"

    def to_dict(self) -> dict[str, Any]:
        return {"title": self.title, "option": self.option.to_dict(),
                "reasons": list(self.reasons), "caveats": list(self.caveats),
                "own_vs_rent": None if self.comparison is None
                else self.comparison.to_dict()}


@dataclass(frozen=True, slots=True)
class Advice:
    """Up to three proposals, plus notes when fewer could be made."""

    answers: Answers
    workload: Workload
    proposals: tuple[Proposal, ...]
    notes: tuple[str, ...] = ()
    considered: int = 0
    options: tuple[FitOption, ...] = field(default=(), repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {"proposals": [p.to_dict() for p in self.proposals],
                "notes": list(self.notes), "considered": self.considered}


_STATUS_ORDER = {"pass": 0, "warn": 1, "unknown": 2}


def _within_budget(option: FitOption, budget: float | None) -> bool:
    return budget is None or (option.cost_usd is not None and option.cost_usd <= budget)


def _speed_key(option: FitOption) -> tuple[float, float]:
    """Smaller is better: job hours, else inverse throughput, then memory used."""
    if option.job_hours is not None:
        primary = option.job_hours
    elif option.tokens_per_s:
        primary = 1.0 / option.tokens_per_s
    else:
        primary = float("inf")
    return (primary, option.fraction if option.fraction is not None else 1.0)


def _reasons(option: FitOption, answers: Answers, workload: Workload,
             comparison: OwnVsRent | None) -> tuple[list[str], list[str]]:
    reasons: list[str] = []
    caveats: list[str] = []
    model = workload.model
    fraction = option.fraction
    memory = option.result.memory
    fit_text = (f"needs {gib(option.per_gpu_bytes)} per GPU of "
                f"{gib(option.vram_bytes)}")
    if fraction is not None:
        fit_text += f" ({fraction:.0%})"
    reasons.append(f"{model.name} ({model.params / 1e9:,.2f}B params, "
                   f"{MODE_NAMES.get(workload.mode, 'inference')}, "
                   f"{workload.base_format}) {fit_text}")
    acts = memory.bytes_of("activations")
    if acts is not None and workload.batch > 1:
        reasons.append(f"batch {workload.batch}: activations take {gib(acts)} per GPU "
                       "(they grow with batch and sequence length)")
    if option.result.training is not None:
        t = option.result.training
        reasons.append(f"training {t.flops:.2e} FLOPs ({t.rule}) takes about "
                       f"{duration(t.hours)} on {t.gpus} GPU(s) at {t.mfu:.0%} MFU"
                       + (f", {t.mfu_basis}" if t.mfu_basis else "")
                       + (f"; {t.scaling}" if t.scaling else ""))
    elif option.tokens_per_s:
        i = option.result.inference
        basis = f"{i.bound}-bound, {i.basis}" if i else "unknown bound"
        reasons.append(f"serves {rate(option.tokens_per_s)} tokens/s at batch "
                       f"{workload.batch} ({basis})")
    if option.kind == "own":
        if option.cost_usd is not None:
            bound = "" if option.result.own is None or option.result.own.complete \
                else "at least "
            reasons.append(f"upfront {bound}${option.cost_usd:,.0f}: {option.cost_basis}")
        if answers.data_private:
            reasons.append("data stays on your premises, as you asked")
        if comparison is not None and comparison.offer is not None:
            for figure in cost_figures(comparison):
                if figure.key == "own_per_hour":
                    reasons.append(f"own machine: {figure.value}")
                elif figure.key == "break_even" and figure.value == "never":
                    caveats.append(f"renting the same work on "
                                   f"{comparison.offer.part.display_name} costs less per "
                                   "hour than this machine's electricity: owning never "
                                   "pays back")
                elif figure.key == "break_even":
                    reasons.append(f"pays back against "
                                   f"{comparison.offer.part.display_name} after "
                                   f"{figure.value} ({figure.note})")
        if option.count > 1:
            caveats.append(f"{option.count} GPUs need a board with {option.count} x16 slots, "
                           "a large PSU and strong airflow: check the build")
    else:
        reasons.append(f"no upfront cost; {option.cost_basis}"
                       + (f" = ${option.cost_usd:,.0f}" if option.cost_usd is not None else ""))
        if answers.hours_per_month and option.usd_per_hour:
            reasons.append(f"at {answers.hours_per_month:,.0f} h a month: "
                           f"${option.usd_per_hour * answers.hours_per_month:,.0f}/month")
    if answers.budget_usd is not None and option.cost_usd is not None:
        reasons.append(f"within your budget of ${answers.budget_usd:,.0f}")
    if option.status == "warn":
        caveats.append("tight: over 90 % of GPU memory; a smaller batch or sequence helps")
    elif option.status == "unknown":
        caveats.append("memory is a lower bound: "
                       + ", ".join(memory.unknown) + " not known for this model")
    return reasons, caveats


def advise(answers: Answers, accelerators: Sequence[Part], cloud: Sequence[Part] = (),
           assumptions: CostAssumptions | None = None) -> Advice:
    """Three proposals (fewer when the catalog cannot give three) with their reasons."""
    workload = answers.workload
    options = rank_fits(workload, accelerators, cloud if answers.cloud_allowed else (),
                        assumptions=assumptions)
    notes: list[str] = []
    if answers.data_private and cloud:
        notes.append("cloud offerings left out: the data must stay on your premises")
    elif answers.deployment == "on-premise" and cloud:
        notes.append("cloud offerings left out: you asked for on-premise")
    allowed = [o for o in options
               if (o.kind == "own" and answers.own_allowed)
               or (o.kind == "cloud" and answers.cloud_allowed)]
    priced = [o for o in allowed if o.cost_usd is not None] or allowed
    affordable = [o for o in priced if _within_budget(o, answers.budget_usd)]
    if allowed and not affordable:
        cheapest = allowed[0]
        price = ("an unknown price" if cheapest.cost_usd is None
                 else f"${cheapest.cost_usd:,.0f}")
        notes.append(f"nothing fits the budget of ${answers.budget_usd:,.0f}; the cheapest "
                     f"option that fits is {cheapest.label} at {price}")
    if not allowed:
        notes.append(_nothing_fits_note(workload))
    chosen: list[tuple[str, FitOption]] = []

    def distinct(option: FitOption) -> bool:
        return all(option.accelerator.id != c.accelerator.id or option.kind != c.kind
                   for _, c in chosen)

    # cheapest first within each verdict: pass, then warn, then unknown
    pool = sorted(affordable, key=lambda o: _STATUS_ORDER.get(o.status, 3))
    if pool:
        chosen.append(("Best value", pool[0]))
        rest = [o for o in pool if distinct(o)]
        if rest:
            best_status = min(_STATUS_ORDER.get(o.status, 3) for o in rest)
            same = [o for o in rest if _STATUS_ORDER.get(o.status, 3) == best_status]
            chosen.append(("Faster, more headroom", min(same, key=_speed_key)))
        rest = [o for o in pool if distinct(o)]
        kinds = {c.kind for _, c in chosen}
        other = [o for o in rest if o.kind not in kinds]
        if other:
            label = "Rent instead" if other[0].kind == "cloud" else "Buy instead"
            chosen.append((label, other[0]))
        elif rest:
            chosen.append(("Alternative", rest[0]))
    by_id = {p.id: p for p in accelerators}
    proposals = []
    for title, option in chosen:
        comparison = (own_vs_rent(option.result, options, option.accelerator, by_id.get)
                      if option.kind == "own" else None)
        reasons, caveats = _reasons(option, answers, workload, comparison)
        proposals.append(Proposal(title, option, tuple(reasons), tuple(caveats),
                                  comparison))
    if workload.mode == "training" and len(proposals) < 3:
        notes.append("fine-tuning with LoRA or QLoRA needs far less memory than full "
                     "training and widens the choice")
    return Advice(answers, workload, tuple(proposals), tuple(notes), len(options),
                  tuple(options))


def _nothing_fits_note(workload: Workload) -> str:
    if workload.mode == "inference":
        return ("nothing in the catalog fits with up to 8 GPUs: try a 4-bit format "
                "(Q4_K_M, AWQ), a shorter context or a smaller batch")
    return ("nothing in the catalog fits with up to 8 GPUs: try QLoRA, activation "
            "checkpointing or a smaller batch")
