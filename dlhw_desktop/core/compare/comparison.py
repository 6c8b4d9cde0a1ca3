"""Comparing accelerators side by side: the selection, the metrics, presets, the scatter.

Pure Python (no Qt, no SQL): the Compare tab draws what this module computes, and the
tests check the arithmetic without a screen. The side-by-side table and its CSV and
Markdown forms are ``core.compare_table``. An unknown figure is ``None`` with a reason
("no FP8 figure", "price unknown"), never a zero: a chart leaves it out and says why.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from dlhw_desktop.core.errors import DlhwError
from dlhw_desktop.core.fields import FIELDS_BY_NAME, PRECISION_FIELDS
from dlhw_desktop.core.files import atomic
from dlhw_desktop.core.parts import Part

MAX_PARTS = 8
PRECISIONS: tuple[str, ...] = tuple(PRECISION_FIELDS)
DEFAULT_PRECISION = "BF16"
THROUGHPUT = "throughput"  # stands for the chosen precision's figure in a Metric


class CompareExportError(DlhwError):
    """A comparison table or chart that could not be written to a file."""


# --- metrics ---------------------------------------------------------------------------
def throughput_unit(precision: str) -> str:
    """``TOPS`` for integer precisions, ``TFLOPS`` for the floating-point ones."""
    return FIELDS_BY_NAME[PRECISION_FIELDS[precision]].unit


def throughput_label(precision: str) -> str:
    """``BF16 tensor``, ``INT8``, ``FP32`` (FP32 is the non-tensor figure)."""
    return FIELDS_BY_NAME[PRECISION_FIELDS[precision]].label


@dataclass(frozen=True, slots=True)
class MetricValue:
    """One part's value for one metric; ``value is None`` comes with a ``reason``."""

    value: float | None
    reason: str = ""

    @property
    def known(self) -> bool:
        return self.value is not None


@dataclass(frozen=True, slots=True)
class Metric:
    """A figure (or a ratio of two) a buyer compares; ``{p}``/``{u}`` name the precision."""

    key: str
    label: str
    unit: str
    higher_is_better: bool
    numerator: str  # a field name, or THROUGHPUT for the chosen precision's figure
    denominator: str | None = None
    scale: float = 1.0  # 1000 for "per 1,000 USD"
    short: str = ""  # a compact title for small panels and table rows

    @property
    def derived(self) -> bool:
        return self.denominator is not None

    def title(self, precision: str) -> str:
        return self._fill(self.label, precision)

    def short_title(self, precision: str) -> str:
        return self._fill(self.short or self.label, precision)

    def unit_for(self, precision: str) -> str:
        return self._fill(self.unit, precision)

    def axis_label(self, precision: str) -> str:
        """``BF16 tensor throughput (TFLOPS)``: the title with its unit."""
        return f"{self.title(precision)} ({self.unit_for(precision)})"

    def fields(self, precision: str) -> tuple[str, ...]:
        names = [_field(self.numerator, precision)]
        if self.denominator is not None:
            names.append(_field(self.denominator, precision))
        return tuple(names)

    def value(self, part: Part, precision: str) -> MetricValue:
        """The part's value; ``None`` with the reason when a figure is missing."""
        top = metric_figure(part, self.numerator, precision)
        if self.denominator is None:
            return top
        bottom = metric_figure(part, self.denominator, precision)
        if top.value is None or bottom.value is None:
            reasons = [v.reason for v in (top, bottom) if v.value is None]
            return MetricValue(None, ", ".join(reasons))
        return MetricValue(top.value / bottom.value * self.scale)

    def _fill(self, text: str, precision: str) -> str:
        return text.format(p=precision, u=throughput_unit(precision),
                           pl=throughput_label(precision))


def _field(name: str, precision: str) -> str:
    return PRECISION_FIELDS[precision] if name == THROUGHPUT else name


_MISSING_REASONS = {
    "memory_gb": "memory size unknown",
    "memory_bandwidth_gb_s": "bandwidth unknown",
    "tdp_w": "TDP unknown",
    "price_usd": "price unknown",
}


def metric_figure(part: Part, name: str, precision: str) -> MetricValue:
    """A positive figure, or ``None`` and why: a zero or negative figure is no figure."""
    value = part.number(_field(name, precision))
    if value is not None and value > 0 and math.isfinite(value):
        return MetricValue(value)
    if name == THROUGHPUT:
        return MetricValue(None, f"no {precision} figure")
    return MetricValue(None, _MISSING_REASONS.get(name, f"no {name} figure"))


M_THROUGHPUT = Metric("throughput", "{pl} throughput", "{u}", True, THROUGHPUT,
                      short="{p} throughput")
M_MEMORY = Metric("memory", "Memory", "GB", True, "memory_gb")
M_BANDWIDTH = Metric("bandwidth", "Memory bandwidth", "GB/s", True, "memory_bandwidth_gb_s",
                     short="Bandwidth")
M_TDP = Metric("tdp", "Board power (TDP)", "W", False, "tdp_w", short="TDP")
M_PRICE = Metric("price", "Price", "USD", False, "price_usd")
M_THROUGHPUT_PER_KUSD = Metric("throughput_per_kusd", "{p} throughput per $1,000",
                               "{u} per 1,000 USD", True, THROUGHPUT, "price_usd", 1000.0,
                               short="{p} {u} per $1,000")
M_THROUGHPUT_PER_W = Metric("throughput_per_w", "{p} throughput per watt", "{u}/W", True,
                            THROUGHPUT, "tdp_w", short="{p} {u} per watt")
M_MEMORY_PER_KUSD = Metric("memory_per_kusd", "Memory per $1,000", "GB per 1,000 USD", True,
                           "memory_gb", "price_usd", 1000.0, short="Memory GB per $1,000")
M_BANDWIDTH_PER_W = Metric("bandwidth_per_w", "Bandwidth per watt", "GB/s per W", True,
                           "memory_bandwidth_gb_s", "tdp_w", short="Bandwidth GB/s per watt")

BASE_METRICS: tuple[Metric, ...] = (M_THROUGHPUT, M_MEMORY, M_BANDWIDTH, M_TDP, M_PRICE)
DERIVED_METRICS: tuple[Metric, ...] = (M_THROUGHPUT_PER_KUSD, M_THROUGHPUT_PER_W,
                                       M_MEMORY_PER_KUSD, M_BANDWIDTH_PER_W)
METRICS: dict[str, Metric] = {m.key: m for m in BASE_METRICS + DERIVED_METRICS}
# The groups of the normalised view: every base figure and the two throughput ratios.
NORMALISED_METRICS: tuple[Metric, ...] = (*BASE_METRICS, M_THROUGHPUT_PER_KUSD,
                                          M_THROUGHPUT_PER_W)


def metric_values(parts: Sequence[Part], metric: Metric, precision: str) -> list[MetricValue]:
    """One value per part, in the parts' order."""
    return [metric.value(part, precision) for part in parts]


def normalise(values: Sequence[float | None], baseline: int | None) -> list[float | None]:
    """Each value over the baseline's (baseline = 1.0); all ``None`` when it is unknown."""
    if baseline is None or not 0 <= baseline < len(values):
        return [None] * len(values)
    base = values[baseline]
    if base is None or base == 0:
        return [None] * len(values)
    return [None if v is None else v / base for v in values]


@dataclass(frozen=True, slots=True)
class NormalisedGroup:
    """One metric of the normalised view: raw values and ratios to the baseline."""

    metric: Metric
    values: tuple[MetricValue, ...]
    ratios: tuple[float | None, ...]

    @property
    def baseline_known(self) -> bool:
        return any(r is not None for r in self.ratios)


def normalised_groups(parts: Sequence[Part], precision: str, baseline: int | None,
                      metrics: Sequence[Metric] = NORMALISED_METRICS) -> list[NormalisedGroup]:
    """Every metric relative to the baseline part (its value = 1.0)."""
    groups: list[NormalisedGroup] = []
    for metric in metrics:
        values = metric_values(parts, metric, precision)
        ratios = normalise([v.value for v in values], baseline)
        groups.append(NormalisedGroup(metric, tuple(values), tuple(ratios)))
    return groups


def best_indices(values: Sequence[float | None], higher_is_better: bool) -> frozenset[int]:
    """Positions of the best known value (ties share it); empty when fewer than two known."""
    known = [(i, v) for i, v in enumerate(values) if v is not None]
    if len(known) < 2:
        return frozenset()
    target = max(v for _, v in known) if higher_is_better else min(v for _, v in known)
    return frozenset(i for i, v in known if math.isclose(v, target, rel_tol=1e-9))


def absent_notes(names: Sequence[str], values: Sequence[MetricValue]) -> list[str]:
    """``No FP8 figure: Radeon VII, TPU v4``, one line per reason, in first-seen order."""
    by_reason: dict[str, list[str]] = {}
    for name, value in zip(names, values, strict=True):
        if value.value is None:
            by_reason.setdefault(value.reason or "unknown", []).append(name)
    return [f"{reason[:1].upper()}{reason[1:]}: {', '.join(who)}"
            for reason, who in by_reason.items()]


def format_metric(value: float | None, metric: Metric) -> str:
    """Bar-label text: ``$11,000``, ``1,555``, ``28.4``, ``0.78``; ``n/a`` when unknown."""
    if value is None:
        return "n/a"
    if metric.numerator == "price_usd" and not metric.derived:
        return f"${value:,.0f}"
    return format_number(value)


def format_number(value: float) -> str:
    """Three significant figures below 100, whole numbers with separators above."""
    if abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}".rstrip("0").rstrip(".")
    if abs(value) >= 1:
        return f"{value:.2f}".rstrip("0").rstrip(".")
    return f"{value:.3g}"


# --- the selection ---------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class AddResult:
    """What ``Comparison.add`` did: added, already there, and turned away (full)."""

    added: tuple[str, ...] = ()
    duplicates: tuple[str, ...] = ()
    rejected: tuple[str, ...] = ()


Listener = Callable[[str], None]


class Comparison:
    """The accelerators being compared (at most ``MAX_PARTS``, ordered), precision, baseline.

    Listeners hear ``"parts"``, ``"precision"`` or ``"baseline"`` after a real change only.
    """

    def __init__(self, ids: Iterable[str] = (), precision: str = DEFAULT_PRECISION,
                 baseline: str | None = None, max_parts: int = MAX_PARTS) -> None:
        self.max_parts = max_parts
        self._ids: list[str] = list(dict.fromkeys(ids))[:max_parts]
        self._precision = precision if precision in PRECISIONS else DEFAULT_PRECISION
        self._baseline = baseline or None
        self._listeners: list[Listener] = []
        self._colours: dict[str, int] = {}
        self._assign_colours()

    def _assign_colours(self) -> None:
        """A part keeps its colour while it is compared (removing or moving another part
        recolours nothing); a new one takes the first colour no compared part has."""
        self._colours = {k: v for k, v in self._colours.items() if k in self._ids}
        taken = set(self._colours.values())
        for part_id in self._ids:
            if part_id not in self._colours:
                free = next(i for i in range(len(self._ids) + len(taken) + 1)
                            if i not in taken)
                self._colours[part_id] = free
                taken.add(free)

    def colour_index(self, part_id: str) -> int:
        """The part's colour among the chart colours (0 for a part not compared)."""
        return self._colours.get(part_id, 0)

    # --- events ----------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def _emit(self, what: str) -> None:
        for listener in list(self._listeners):
            listener(what)

    # --- parts -----------------------------------------------------------------------
    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(self._ids)

    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, part_id: object) -> bool:
        return part_id in self._ids

    @property
    def full(self) -> bool:
        return len(self._ids) >= self.max_parts

    def add(self, ids: Iterable[str]) -> AddResult:
        added: list[str] = []
        duplicates: list[str] = []
        rejected: list[str] = []
        for part_id in dict.fromkeys(ids):
            if part_id in self._ids:
                duplicates.append(part_id)
            elif len(self._ids) >= self.max_parts:
                rejected.append(part_id)
            else:
                self._ids.append(part_id)
                added.append(part_id)
        if added:
            self._assign_colours()
            self._emit("parts")
        return AddResult(tuple(added), tuple(duplicates), tuple(rejected))

    def remove(self, part_id: str) -> bool:
        if part_id not in self._ids:
            return False
        self._ids.remove(part_id)
        self._assign_colours()
        self._emit("parts")
        return True

    def move(self, part_id: str, delta: int) -> bool:
        """Move a part ``delta`` places (negative = earlier); False when it cannot move."""
        if part_id not in self._ids:
            return False
        old = self._ids.index(part_id)
        new = max(0, min(len(self._ids) - 1, old + delta))
        if new == old:
            return False
        self._ids.insert(new, self._ids.pop(old))
        self._emit("parts")
        return True

    def set_ids(self, ids: Iterable[str]) -> AddResult:
        """Replace the selection (a preset); ids beyond the limit are turned away."""
        wanted = list(dict.fromkeys(ids))
        kept, rejected = wanted[:self.max_parts], wanted[self.max_parts:]
        if kept != self._ids:
            self._ids = kept
            self._assign_colours()
            self._emit("parts")
        return AddResult(tuple(kept), (), tuple(rejected))

    def clear(self) -> None:
        self.set_ids(())

    # --- precision and baseline --------------------------------------------------------
    @property
    def precision(self) -> str:
        return self._precision

    def set_precision(self, precision: str) -> None:
        if precision not in PRECISIONS:
            raise ValueError(f"unknown precision {precision!r}; one of {', '.join(PRECISIONS)}")
        if precision != self._precision:
            self._precision = precision
            self._emit("precision")

    @property
    def baseline(self) -> str | None:
        """The chosen baseline while it is compared, else the first part (or ``None``)."""
        if self._baseline in self._ids:
            return self._baseline
        return self._ids[0] if self._ids else None

    @property
    def baseline_index(self) -> int | None:
        baseline = self.baseline
        return None if baseline is None else self._ids.index(baseline)

    def set_baseline(self, part_id: str | None) -> None:
        before = self.baseline
        self._baseline = part_id or None
        if self.baseline != before:
            self._emit("baseline")


# --- files -----------------------------------------------------------------------------
def write_atomic(path: str | os.PathLike[str], data: bytes | str) -> Path:
    """Write a whole file or nothing (``core.atomic``), as a ``CompareExportError``."""
    target = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        return atomic.write_atomic(target, payload)
    except OSError as exc:
        raise CompareExportError(f"cannot write {target}: {exc.strerror or exc}") from None
