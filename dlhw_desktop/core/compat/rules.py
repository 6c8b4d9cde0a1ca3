"""The vocabulary of the picker's compatibility rules: verdicts, the three kinds of rule,
a part's fit, and the rule set for one category (``CompatFilter``).

Pure logic (no Qt, no SQL); ``compat_filter`` builds the rules for a build, the catalog
(``catalog.part_filters``) turns them into a WHERE clause.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from dlhw_desktop.core.fields import Category, field_label
from dlhw_desktop.core.parts import Part

FitStatus = Literal["ok", "unknown", "incompatible"]
Values = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Verdict:
    """One rule's answer for one part."""

    status: FitStatus
    reason: str = ""


OK = Verdict("ok")


def unknown(label: str) -> Verdict:
    return Verdict("unknown", f"not checked: {label} unknown")


def no(reason: str) -> Verdict:
    return Verdict("incompatible", reason)


@dataclass(frozen=True, slots=True, eq=False)
class ValueRule:
    """A judgement on the candidate's ``fields`` (values as ``Part.get`` returns them)."""

    key: str
    fields: tuple[str, ...]
    judge: Callable[[Values], Verdict]

    def verdict_of(self, values: Values) -> Verdict:
        return self.judge(values)


@dataclass(frozen=True, slots=True)
class LimitRule:
    """The candidate's number ``field`` must be at most (``le``) or at least (``ge``)
    ``limit``; ``why`` says what the limit is ("Fractal North takes cards up to 355 mm")."""

    key: str
    field: str
    op: Literal["le", "ge"]
    limit: float
    why: str

    @property
    def fields(self) -> tuple[str, ...]:
        return (self.field,)

    def verdict_of(self, values: Values) -> Verdict:
        value = values.get(self.field)
        if isinstance(value, bool) or not isinstance(value, int | float):
            return unknown(field_label(self.field))
        fits = value <= self.limit if self.op == "le" else value >= self.limit
        return OK if fits else no(self.why)


@dataclass(frozen=True, slots=True)
class MarkRule:
    """A figure of the build is unknown: every candidate is shown, marked with ``reason``."""

    key: str
    reason: str
    fields: tuple[str, ...] = ()

    def verdict_of(self, values: Values) -> Verdict:
        return Verdict("unknown", self.reason)


Rule = ValueRule | LimitRule | MarkRule

FIT_FIELDS: dict[Category, tuple[str, ...]] = {
    Category.ACCELERATOR: ("form_factor", "board_length_mm", "power_connectors"),
    Category.CPU: ("socket", "memory_type", "dimm_kinds"),
    Category.MOTHERBOARD: ("socket", "memory_type", "dimm_kinds", "board_form_factor"),
    Category.SERVER: ("socket", "memory_type", "dimm_kinds"),
    Category.MEMORY: ("memory_type", "registered"),
    Category.COOLER: ("supported_sockets", "height_mm"),
    Category.CASE: ("supported_board_form_factors", "max_gpu_length_mm",
                    "max_cooler_height_mm"),
    Category.PSU: ("connectors_12vhpwr", "connectors_pcie_8pin", "wattage_w", "atx_version"),
}
"""Every field a rule of each category may read: the catalog groups a category's parts by
these once, so a build change counts the parts that fit without scanning them."""


@dataclass(frozen=True, slots=True)
class PartFit:
    """Why one part is hidden (``reasons``) or marked (``unchecked``)."""

    status: FitStatus
    reasons: tuple[str, ...] = ()
    unchecked: tuple[str, ...] = ()

    def describe(self) -> str:
        """Hover text: what does not fit, then what could not be checked."""
        lines = [f"Does not fit: {r}" for r in self.reasons]
        lines += [r[:1].upper() + r[1:] for r in self.unchecked]
        return "\n".join(lines)


FITS = PartFit("ok")


@dataclass(frozen=True, slots=True, eq=False)
class CompatFilter:
    """The rules a candidate of ``category`` must meet to fit the build."""

    category: Category
    rules: tuple[Rule, ...] = ()

    @property
    def fields(self) -> tuple[str, ...]:
        """Every field the rules read, in a fixed order per category (``FIT_FIELDS``)."""
        used = {f for rule in self.rules for f in rule.fields}
        known = FIT_FIELDS.get(self.category, ())
        return tuple(f for f in known if f in used) + tuple(sorted(used - set(known)))

    def judge(self, part: Part) -> PartFit:
        if part.category is not self.category or not self.rules:
            return FITS
        return self.judge_values({f: part.get(f) for f in self.fields})

    def judge_values(self, values: Values) -> PartFit:
        """The fit of a part with these values (a row of the catalog, or a group of them)."""
        reasons: list[str] = []
        unchecked: list[str] = []
        for rule in self.rules:
            verdict = rule.verdict_of(values)
            if verdict.status == "incompatible":
                reasons.append(verdict.reason)
            elif verdict.status == "unknown":
                unchecked.append(verdict.reason)
        status: FitStatus = "incompatible" if reasons else "unknown" if unchecked else "ok"
        return PartFit(status, tuple(reasons), tuple(dict.fromkeys(unchecked)))


def is_active(compat: CompatFilter | None) -> bool:
    """Whether the filter can hide anything (mark-only rules hide nothing)."""
    return compat is not None and any(not isinstance(r, MarkRule) for r in compat.rules)
