"""One extract row (the dataset's flattened values) -> catalog field values, per category.

A mapper raises :class:`Skip` for a row that cannot be a part (no name, an inconsistent
kit, a PSU without a rating) and notes each cleaning it applied in ``cleaned``, so the
build's report can say what the rules changed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from dlhw_desktop.catalog.opendb import rules
from dlhw_desktop.catalog.opendb.chipsets import (
    CHIPSET_SOURCE_DATE,
    board_pcie_generation,
    chipset_source,
)
from dlhw_desktop.core.fields import Category

Record = dict[str, str]
Values = dict[str, Any]


class Skip(Exception):
    """A row that cannot become a part; the message is the reason users read."""


class Cleaned:
    """The cleaning rules applied to one row (rule -> how often)."""

    def __init__(self) -> None:
        self.rules: list[str] = []

    def note(self, rule: str) -> None:
        self.rules.append(rule)

    def drop(self, raw: str, value: Any, rule: str) -> Any:
        """``value`` (a cleaned ``raw``); a non-empty raw that became ``None`` is noted."""
        if value is None and raw.strip() not in ("", "0", "None", "null"):
            self.note(rule)
        return value


def _figure(record: Record, column: str, low: float, high: float, cleaned: Cleaned,
            label: str) -> int | None:
    raw = record.get(column, "")
    return cleaned.drop(raw, rules.whole(raw, low, high), f"{label} out of range: dropped")


def _max_memory(record: Record, cleaned: Cleaned) -> int | None:
    raw = record.get("max_memory_gb", "")
    value = cleaned.drop(raw, rules.max_memory_gb(raw), "max memory out of range: dropped")
    if value is not None and rules.number(raw) != value:
        cleaned.note("max memory given in TB: converted to GB")
    return value


def common(record: Record, category: Category, cleaned: Cleaned) -> Values:
    vendor = " ".join((record.get("manufacturer") or "").split())
    full_name = " ".join((record.get("name") or "").split())
    if not full_name:
        raise Skip("no name")
    if not vendor:
        raise Skip("no manufacturer")
    name = rules.part_name(full_name, vendor)
    if not name:
        raise Skip("name is only the manufacturer")
    raw_year = record.get("release_year", "")
    year = cleaned.drop(raw_year, rules.release_year(raw_year),
                        "impossible release year: dropped")
    return {"category": category.value, "vendor": vendor, "name": name,
            "family": " ".join((record.get("series") or "").split()) or None,
            "release_year": year}


def cpu(record: Record, values: Values, cleaned: Cleaned) -> None:
    socket, _count = rules.socket(record.get("socket"))
    if socket is None:
        raise Skip("no socket")
    cores = _figure(record, "cores", 1, 512, cleaned, "cores")
    threads = _figure(record, "threads", 1, 1024, cleaned, "threads")
    if cores is not None and threads is not None and threads < cores:
        cleaned.note("fewer threads than cores: threads dropped")
        threads = None
    base = rules.clock_ghz(record.get("base_clock"))
    boost = rules.clock_ghz(record.get("boost_clock"))
    if base is not None and boost is not None and boost < base:
        cleaned.note("boost clock below base clock: boost dropped")
        boost = None
    types = [t for t in (rules.memory_type(x) for x in (record.get("memory_types") or "")
                         .split(";")) if t]
    arch = " ".join((record.get("microarchitecture") or "").split())
    series = " ".join((record.get("cpu_series") or record.get("series") or "").split())
    family = f"{arch} ({series})" if arch and series else (arch or series or None)
    values["name"] = rules.cpu_name(values["name"]) or values["name"]
    values.update({
        "family": family, "socket": socket, "cores": cores, "threads": threads,
        "base_clock_ghz": base, "boost_clock_ghz": boost,
        "tdp_w": _figure(record, "tdp_w", 1, 1000, cleaned, "TDP"),
        # the open data's PPT / PL2 (0 stands for unknown there)
        "sustained_power_w": (None if (record.get("ppt_w") or "0").strip() in ("", "0")
                              else _figure(record, "ppt_w", 1, 1000, cleaned,
                                           "sustained power")),
        "memory_type": "/".join(sorted(set(types))) or None,
        "memory_channels": _figure(record, "memory_channels", 1, 16, cleaned,
                                   "memory channels"),
        "max_memory_gb": _max_memory(record, cleaned),
        "ecc_support": rules.yes_no(record.get("ecc_support")),
    })


_SLOT = re.compile(r"^(?P<gen>[\d.]*)x(?P<lanes>\d*)\*(?P<qty>\d*)$")


def board_slots(text: str) -> tuple[int | None, int | None]:
    """``"4.0x16*1;4.0x1*2"`` -> (x16 slots, the highest generation stated for them).

    The dataset has one width per slot; a slot listed as x16 is counted as an x16 slot."""
    x16, gen, _ = board_slot_counts(text)
    return x16, gen


def board_slot_counts(text: str) -> tuple[int | None, int | None, int | None]:
    """(x16 slots, their highest stated generation, slots listed as x4 or x8). The one
    width per slot is the link's: a full-length slot wired x4 is listed as x4, so the x16
    count is a floor and the x4/x8 count says how many more may take a card."""
    if not text:
        return None, None, None
    x16, wide, gens = 0, 0, []
    for item in text.split(";"):
        match = _SLOT.match(item.strip())
        if not match or not match["lanes"]:
            continue
        qty = int(match["qty"]) if match["qty"] else 1
        if int(match["lanes"]) == 16:
            x16 += qty
            if match["gen"]:
                gens.append(int(float(match["gen"])))
        elif int(match["lanes"]) in (4, 8):
            wide += qty
    return x16, max(gens) if gens else None, wide


def board(record: Record, values: Values, cleaned: Cleaned) -> None:
    socket, count = rules.socket(record.get("socket"))
    if socket is None:
        raise Skip("CPU soldered to the board (no socket)")
    chipset_raw = record.get("chipset") or ""
    chipset = rules.chipset_name(chipset_raw)
    x16, stated_gen, x4_x8 = board_slot_counts(record.get("pcie_slots") or "")
    generation = board_pcie_generation(chipset_raw, stated_gen)
    if stated_gen is not None and generation != stated_gen:
        cleaned.note("PCIe generation from the chipset, not the dataset's default")
    elif generation is not None and stated_gen is None:
        cleaned.note("PCIe generation from the chipset")
    if generation is not None:
        values["_derived"] = {"pcie_generation": (
            chipset_source(chipset_raw), CHIPSET_SOURCE_DATE,
            f"from the {chipset} chipset, not the dataset's slot default")}
    m2 = _figure(record, "m2_slots", 1, 12, cleaned, "M.2 slots")
    form = rules.board_form_factor(record.get("form_factor"))
    values.update({
        "socket": socket, "cpu_sockets": count, "chipset": chipset,
        "board_form_factor": form,
        "memory_type": rules.memory_type(record.get("memory_type")),
        "memory_slots": _figure(record, "memory_slots", 1, 48, cleaned, "memory slots"),
        "max_memory_gb": _max_memory(record, cleaned),
        "ecc_support": rules.yes_no(record.get("ecc_support")),
        "pcie_generation": generation,
        "pcie_x16_slots": x16 if x16 is None or x16 <= 10 else None,
        "pcie_x4_x8_slots": x4_x8 if x16 is not None and x16 <= 10 else None,
        "m2_slots": m2,
    })


def memory(record: Record, values: Values, cleaned: Cleaned) -> None:
    modules = _figure(record, "modules", 1, 16, cleaned, "modules")
    module_gb = _figure(record, "module_gb", 1, 512, cleaned, "module size")
    capacity = rules.in_range(record.get("capacity_gb"), 0.5, 8192)
    if modules and module_gb and capacity and modules * module_gb != capacity:
        raise Skip(f"inconsistent kit: {capacity:g} GB is not {modules} x {module_gb} GB")
    if capacity is None and modules and module_gb:
        capacity = float(modules * module_gb)
    ecc = {"ecc": True, "non-ecc": False}.get((record.get("ecc") or "").strip().lower())
    registered = {"registered": True, "unbuffered": False}.get(
        (record.get("registered") or "").strip().lower())
    speed = _figure(record, "speed", 100, 20000, cleaned, "speed")
    kind = rules.dimm_kind(record.get("form_factor"), registered)
    values.update({
        "memory_type": rules.memory_type(record.get("ram_type")), "speed_mt_s": speed,
        "modules": modules, "module_size_gb": module_gb, "capacity_gb": capacity,
        "ecc": ecc, "registered": registered,
    })
    if kind == "SODIMM":
        values["_note"] = "SO-DIMM modules (laptop / small-form-factor boards)"


def case(record: Record, values: Values, cleaned: Cleaned) -> None:
    cooler = _figure(record, "max_cooler_height_mm", 20, 300, cleaned, "cooler clearance")
    width = rules.in_range(record.get("width_mm"), 50, 1000)
    if cooler is not None and width is not None and cooler >= width:
        cleaned.note("cooler clearance not less than the case's width: unknown")
        cooler = None
    values.update({
        "case_kind": rules.case_kind(record.get("form_factor")),
        "max_gpu_length_mm": _figure(record, "max_gpu_length_mm", 100, 1000, cleaned,
                                     "GPU clearance"),
        "max_cooler_height_mm": cooler,
        "case_width_mm": round(width) if width is not None else None,
        "expansion_slots": _figure(record, "expansion_slots", 1, 20, cleaned,
                                   "expansion slots"),
        "supported_board_form_factors": rules.board_form_factors(
            record.get("board_form_factors")),
    })


def cooler(record: Record, values: Values, cleaned: Cleaned) -> None:
    liquid = rules.yes_no(record.get("water_cooled"))
    sockets = [s for s, _n in (rules.socket(x) for x in (record.get("sockets") or "")
                               .split(";")) if s]
    height = _figure(record, "height_mm", 10, 250, cleaned, "height")
    radiator = None
    if liquid:
        radiator = _figure(record, "radiator_mm", 80, 560, cleaned, "radiator")
        if height is not None:
            cleaned.note("liquid cooler: height (block or radiator, unstated) left empty")
            height = None
    values.update({
        "cooler_kind": None if liquid is None else ("aio" if liquid else "air"),
        "height_mm": height, "radiator_mm": radiator,
        "supported_sockets": "; ".join(dict.fromkeys(sockets)) or None,
    })


def psu(record: Record, values: Values, cleaned: Cleaned) -> None:
    watts = rules.whole(record.get("wattage_w"), 100, 4000)
    if watts is None:
        raise Skip("rated output missing or impossible")
    connectors = {}
    for field, column in (("connectors_eps", "eps_8pin"), ("connectors_pcie_8pin", "pcie_8pin"),
                          ("connectors_12vhpwr", "pcie_12vhpwr")):
        raw = record.get(column, "")
        count = rules.psu_connectors(raw)
        if count is None and raw.strip() == "0":
            cleaned.note("0 connectors: unknown")
        connectors[field] = count
    form = rules.psu_form_factor(record.get("form_factor"), record.get("name") or "",
                                 record.get("part_numbers") or "")
    if form != rules.psu_form_factor(record.get("form_factor")):
        cleaned.note("SFX-L by its own name or part number, filed as SFX")
    values.update({
        "wattage_w": watts, "efficiency_rating": rules.efficiency_rating(
            record.get("efficiency_rating")),
        "atx_version": rules.atx_version(record.get("name") or "",
                                          record.get("series") or "",
                                          record.get("part_numbers") or ""),
        "psu_form_factor": form,
        **connectors,
    })


_PCIE_GEN = re.compile(r"PCIe\s*(?:Gen\s*)?(\d)(?:\.\d)?", re.I)


def storage(record: Record, values: Values, cleaned: Cleaned) -> None:
    interface = " ".join((record.get("interface") or "").split())
    kind_raw = (record.get("type") or "").upper()
    nvme = rules.yes_no(record.get("nvme"))
    capacity = rules.capacity_gb(record.get("capacity_gb"))
    if capacity is None:
        raise Skip("capacity missing or impossible")
    if nvme or "PCIE" in interface.upper() or interface.upper().startswith("U.2"):
        kind = "nvme"
    elif kind_raw in ("HDD", "SSHD"):
        kind = "hdd"
    elif kind_raw == "SSD" and ("SATA" in interface.upper()):
        kind = "sata-ssd"
    else:
        kind = None
    match = _PCIE_GEN.search(interface)
    form = " ".join((record.get("form_factor") or "").split())
    values.update({
        "storage_kind": kind, "capacity_gb": capacity,
        "interface": ", ".join(x for x in (interface, form) if x) or None,
        "pcie_generation": int(match.group(1)) if match and kind == "nvme" else None,
    })


Mapper = Callable[[Record, Values, Cleaned], None]
