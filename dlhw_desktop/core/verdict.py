"""What a check says: ``CheckResult`` and how statuses rank into one verdict."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

Status = Literal["pass", "warn", "fail", "unknown"]
Kind = Literal["power", "cooling", "memory", "compatibility", "workload"]

STATUSES: tuple[Status, ...] = ("pass", "unknown", "warn", "fail")
KINDS: tuple[Kind, ...] = ("power", "cooling", "memory", "compatibility", "workload")

STATUS_RANK: dict[str, int] = {status: rank for rank, status in enumerate(STATUSES)}
"""fail > warn > unknown > pass.

``unknown`` ranks above ``pass`` because a build with a figure missing has not been shown
to work, and below ``warn`` because nothing is known to be wrong: a known problem must
never hide behind a gap in the data, and a gap must never read as a clean bill of health.
"""

Figure = float | int | str | bool | None

FigureKind = Literal["vendor", "measured", "estimated", "derived", "your figure"]
FIGURE_KINDS: tuple[FigureKind, ...] = ("vendor", "measured", "estimated", "derived",
                                        "your figure")
"""What a figure a verdict rests on is: the maker's published figure (as the catalog's
sources give it), a review's measurement, an estimate from a model (with its error), a
figure derived by a published rule, or a figure the user entered from the box."""


@dataclass(frozen=True, slots=True)
class FigureUse:
    """One figure a check used: whose, which, its value as shown, and what it is."""

    part_id: str
    part_name: str
    field: str
    label: str
    value: str
    kind: FigureKind
    source: str = ""

    def describe(self) -> str:
        """``"Core i9-13900K sustained power 253 W (vendor)"``."""
        return f"{self.part_name} {self.label} {self.value} ({self.kind})"

    def to_dict(self) -> dict[str, str]:
        return {"part_id": self.part_id, "part": self.part_name, "field": self.field,
                "label": self.label, "value": self.value, "kind": self.kind,
                "source": self.source}


@dataclass(frozen=True, slots=True)
class CheckResult:
    """One verdict about one aspect of a build.

    ``message`` is one line with the numbers that decided it; ``figures`` holds those
    numbers for reports and charts (``None`` = unknown); ``suggestion`` is an optional
    next step (e.g. a GPU power limit) shown under the message. ``basis`` is the figures
    the verdict rests on, each with its kind (vendor, measured, estimated, derived, your
    figure); ``needs`` the (part id, field) pairs whose absence left it unknown, so the
    user can be offered to enter each.
    """

    id: str
    kind: Kind
    status: Status
    message: str
    figures: Mapping[str, Figure] = field(default_factory=dict)
    part_ids: tuple[str, ...] = ()
    suggestion: str = ""
    basis: tuple[FigureUse, ...] = ()
    needs: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if self.status not in STATUS_RANK:
            raise ValueError(f"unknown status {self.status!r}")
        if self.kind not in KINDS:
            raise ValueError(f"unknown kind {self.kind!r}")


def worst(statuses: Iterable[str]) -> Status:
    """The worst of some statuses; ``pass`` when there are none."""
    result: Status = "pass"
    for status in statuses:
        if STATUS_RANK[status] > STATUS_RANK[result]:
            result = status  # type: ignore[assignment]
    return result


def verdict(results: Iterable[CheckResult]) -> Status:
    """The overall verdict: the worst status of all results (``unknown`` when there are
    none: an empty build has not been shown to work)."""
    results = list(results)
    if not results:
        return "unknown"
    return worst(r.status for r in results)


_UNIT_NUMBER = re.compile(r"^(?P<name>.+?) #\d+(?=:)")


def grouped(results: Iterable[CheckResult]) -> list[tuple[CheckResult, int]]:
    """Identical verdicts about identical parts once, with how many, in first-seen order.

    A workload fit judges every GPU ("RTX 4090 #1: needs ...", "#2", ...); eight identical
    GPUs give eight identical lines. Grouped, they are one line, "8x RTX 4090: needs ...",
    so what is printed grows with the distinct parts, not with the quantity.
    """
    firsts: dict[tuple[object, ...], tuple[CheckResult, str]] = {}
    counts: dict[tuple[object, ...], int] = {}
    for result in results:
        numbered = _UNIT_NUMBER.match(result.message) is not None
        message = _UNIT_NUMBER.sub(lambda m: m.group("name"), result.message, count=1)
        key = (result.kind, result.status, result.part_ids, message, result.suggestion,
               numbered)
        firsts.setdefault(key, (result, message))
        counts[key] = counts.get(key, 0) + 1
    out: list[tuple[CheckResult, int]] = []
    for key, (first, message) in firsts.items():
        count = counts[key]
        out.append((replace(first, message=f"{count:,}x {message}") if count > 1 else first,
                    count))
    return out
