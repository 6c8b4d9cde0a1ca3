"""Own against rent, like for like: one comparison behind every surface (issue #28).

``own_vs_rent`` takes the fit of a job on the user's machine and the ranked options of
``fit_ranking.rank_fits`` and answers: the machine's cost per hour and per run, the
cloud offer that can run the same job (it fits at its own GPU count, runs the same
software stack, at an on-demand rate) and why it qualifies, what that offer costs for
the same work, and the break-even.

Like for like: an hour of the machine's work is compared with what the offer charges for
the same work, not with its hourly rate: rent per own hour = the offer's cost of the
job / the machine's job hours (or, serving, its $/h x own tokens/s / its tokens/s). An
8-GPU instance that does the job in a quarter of the time is charged a quarter of the
hours. Only when neither speed is known is the hourly rate compared as it is (said so).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.workload.cost import BreakEven, OwnHardware, break_even
from dlhw_desktop.core.workload.fit import FitResult
from dlhw_desktop.core.workload.fit_ranking import FitOption, cheapest_cloud


@dataclass(frozen=True, slots=True)
class OwnVsRent:
    """The machine's cost of the job against the like-for-like rental."""

    own: OwnHardware | None
    job_hours: float | None
    own_run_usd: float | None
    offer: FitOption | None
    why: str
    rent_run_usd: float | None
    rent_usd_per_own_hour: float | None
    basis: str
    break_even: BreakEven | None
    why_no_own: str = ""

    @property
    def at_least(self) -> bool:
        """Unpriced parts: own figures (and the break-even) are lower bounds."""
        return self.own is not None and not self.own.complete

    def to_dict(self) -> dict[str, Any]:
        return {
            "own": None if self.own is None else self.own.to_dict(),
            "job_hours": self.job_hours, "own_run_usd": self.own_run_usd,
            "offer_id": None if self.offer is None else self.offer.part.id,
            "offer": None if self.offer is None else self.offer.label,
            "why": self.why, "rent_run_usd": self.rent_run_usd,
            "rent_usd_per_own_hour": self.rent_usd_per_own_hour, "basis": self.basis,
            "break_even": None if self.break_even is None else self.break_even.to_dict(),
        }


def qualifies(option: FitOption) -> str:
    """Why an offer can run the job: its GPUs hold it in the layout it needs."""
    layout = option.result.parallel.describe()
    fraction = "" if option.fraction is None else f", {option.fraction:.0%} of its memory"
    return (f"{option.count} x {option.accelerator.display_name} hold the job "
            f"({layout}{fraction})")


def why_no_own(result: FitResult | None) -> str:
    """Why the machine has no own cost: the GPUs without a price or a power figure."""
    if result is None:
        return "no GPU in the build"
    if result.status == "fail":
        return "the job does not fit in these GPUs' memory"
    names = sorted({g.display_name for g in result.gpus
                    if g.price_usd is None or g.number("tdp_w") is None})
    return (f"no price for {', '.join(names)}" if names
            else "a price or power figure is unknown")


def own_vs_rent(result: FitResult | None, options: Sequence[FitOption],
                reference: Part | None, find: Callable[[str], Part | None],
                prefer: str | None = None) -> OwnVsRent:
    """The comparison for ``result`` (the job on the user's machine); ``options`` as
    ``rank_fits`` returns them (only its cloud options are read). ``prefer``: the id of
    an offer the user chose (the Advisor's rent proposal), used when it runs the job."""
    own = result.own if result is not None else None
    hours = result.job_hours if result is not None else None
    own_run = result.cost.own_usd if result is not None and result.cost is not None \
        and own is not None else None
    chosen = [o for o in options if o.kind == "cloud" and o.part.id == prefer]
    offer = chosen[0] if chosen else cheapest_cloud(options, reference, find)
    if offer is None or offer.usd_per_hour is None:
        return OwnVsRent(own, hours, own_run, offer, "no priced cloud offer runs this job",
                         None, None, "", None, why_no_own(result) if own is None else "")
    rent_run = offer.job_hours * offer.usd_per_hour if offer.job_hours is not None else None
    per_hour, basis = offer.usd_per_hour, "its hourly rate: the speeds are unknown"
    own_tps = result.inference.tokens_per_s if result and result.inference else None
    if hours and rent_run is not None:
        per_hour = rent_run / hours
        basis = f"the job takes {offer.job_hours:,.1f} h there, {hours:,.1f} h here"
    elif own_tps and offer.tokens_per_s:
        per_hour = offer.usd_per_hour * own_tps / offer.tokens_per_s
        basis = "its rate scaled by the two speeds"
    even = break_even(own, per_hour) if own is not None and per_hour > 0 else None
    why = qualifies(offer) + ("; the offer you chose in the Advisor" if chosen else "")
    return OwnVsRent(own, hours, own_run, offer, why, rent_run, per_hour, basis, even,
                     why_no_own(result) if own is None else "")
