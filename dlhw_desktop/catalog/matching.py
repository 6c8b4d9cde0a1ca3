"""Match what detection found to catalog parts, and turn the machine into a Build.

A detected name is rarely the catalog's: ``NVIDIA A100-SXM4-80GB`` is the catalog's
``A100 SXM4 80 GB``, ``AMD Ryzen 9 7950X 16-Core Processor`` its ``Ryzen 9 7950X``. Names
are reduced to a key (model numbers, distinguishing words, memory size, form factor),
brand words that tools add or drop (NVIDIA, GeForce, Tesla, Intel, Core) are ignored,
and words that make another product (Ti, SUPER, D, Laptop, NVL) must agree. When several
variants share a name, the reported memory, then the power limit, decides; each match
records how it was made and how sure it is. That name matching is ``catalog.name_matching``;
this module turns a whole detection report into records and a Build.

Whatever cannot be matched becomes a custom part carrying the detected figures, marked
as detected, so the machine is judged with what is known instead of silently losing a
device. Memory and drives are always described by what was detected (a total is not a
kit) unless a catalog memory kit matches module for module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, NamedTuple

from dlhw_desktop.catalog.name_matching import Matcher, MatchMethod, PartSource
from dlhw_desktop.core import limits
from dlhw_desktop.core.build.build import Build, Slot, quantity_limit
from dlhw_desktop.core.detect import (
    DetectedCpu,
    DetectedDisk,
    DetectedGpu,
    DetectedMemory,
    DetectionReport,
    Host,
    detect_all,
)
from dlhw_desktop.core.detect.runner import DEFAULT_TIMEOUT_S
from dlhw_desktop.core.detect.storage import storage_vendor
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.name_keys import clean_name, name_key
from dlhw_desktop.core.parts import Part, Value, slugify

DETECTED_NOTE = "Detected on this computer"
DETECTED_PREFIX = "custom/"


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """How one detected device (or group of identical devices) became a build part."""

    category: Category
    detected: str                    # the name as the machine reported it
    part: Part                       # the catalog part, or a custom detected part
    quantity: int = 1
    method: MatchMethod = MatchMethod.NONE
    confidence: float = 0.0          # 0..1; 0 for an unmatched (custom) part
    reason: str = ""
    alternatives: tuple[str, ...] = ()   # other catalog ids that fit as well
    figures: dict[str, Value] = field(default_factory=dict)  # detected figures

    @property
    def matched(self) -> bool:
        return self.method is not MatchMethod.NONE

    def to_dict(self) -> dict[str, Any]:
        return {
            "category": self.category.value, "detected": self.detected,
            "part_id": self.part.id, "part_name": self.part.display_name,
            "custom": self.part.custom, "quantity": self.quantity,
            "method": self.method.value, "confidence": round(self.confidence, 2),
            "reason": self.reason, "alternatives": list(self.alternatives),
            "figures": dict(self.figures),
        }


class DetectedBuild(NamedTuple):
    """What ``detect_build`` returns: unpack as ``build, report, matches``."""

    build: Build
    report: DetectionReport
    matches: list[MatchRecord]


# --- from a report to a build --------------------------------------------------------------


def custom_id(category: Category, text: str) -> str:
    """``custom/<category>/detected-<slug>``: the build-file convention for custom parts,
    stable across runs so detecting the same machine twice gives the same ids."""
    return f"{DETECTED_PREFIX}{category.value}/detected-{slugify(text) or 'device'}"


def _custom(category: Category, vendor: str, name: str, slug: str, source: str,
            specs: dict[str, Value], detail: str = "") -> Part:
    return Part(
        id=custom_id(category, slug), category=category, vendor=vendor, name=name,
        source=f"detected by {source}" if source else "detected", source_date=date.today()
        .isoformat(), notes=f"{DETECTED_NOTE}" + (f": {detail}" if detail else ""),
        specs={k: v for k, v in specs.items() if v is not None}, custom=True)


def match_cpu(matcher: Matcher, cpu: DetectedCpu) -> MatchRecord:
    found = matcher.match(Category.CPU, cpu.name, vendor=cpu.vendor)
    figures: dict[str, Value] = {"cores": cpu.cores, "threads": cpu.threads,
                                 "sockets": cpu.sockets, "max_clock_ghz": cpu.max_clock_ghz}
    most = Slot.CPU.max_count or 1
    count = min(cpu.sockets or 1, most)  # a dual-socket machine: two CPUs in the build
    socket_note = ""
    if cpu.sockets and cpu.sockets > most:
        socket_note = (f"{cpu.sockets} sockets: the build holds at most {most} CPUs, so "
                       f"figures for the other {cpu.sockets - most} are not counted")
    if found.part is not None:
        reason = "; ".join(r for r in (found.reason, socket_note) if r)
        return MatchRecord(Category.CPU, cpu.name, found.part, count, found.method,
                           found.confidence, reason, found.alternatives, figures)
    name = clean_name(cpu.name)
    vendor = cpu.vendor or ""
    display = name[len(vendor):].strip() if vendor and name.startswith(vendor) else name

    def per_socket(count: int | None) -> int | None:
        # A CPU part describes one package; the build's CPU slot holds one.
        sockets = cpu.sockets or 1
        return count // sockets if count and sockets > 1 else count

    part = _custom(Category.CPU, vendor, display or name, f"{vendor} {display}", cpu.source,
                   {"cores": per_socket(cpu.cores), "threads": per_socket(cpu.threads),
                    "boost_clock_ghz": cpu.max_clock_ghz},
                   "; ".join(x for x in (f"architecture {cpu.architecture}"
                                         if cpu.architecture else "",
                                         socket_note) if x))
    reason = found.reason
    suggestions = matcher.suggestions(Category.CPU, cpu.name)
    return MatchRecord(Category.CPU, cpu.name, part, count, MatchMethod.NONE, 0.0,
                       "; ".join(r for r in (reason, socket_note) if r), suggestions, figures)


def match_gpus(matcher: Matcher, gpus: Iterable[DetectedGpu]) -> list[MatchRecord]:
    """One record per group of identical accelerators (8 x H100 is one line, quantity 8)."""
    groups: dict[tuple[str, float | None, float | None], list[DetectedGpu]] = {}
    for gpu in gpus:
        if not gpu.is_accelerator:
            continue
        memory = round(gpu.memory_gb) if gpu.memory_gb else None
        groups.setdefault((gpu.name, memory, gpu.power_limit_w), []).append(gpu)
    records: list[MatchRecord] = []
    for (name, _, _), members in groups.items():
        gpu = members[0]
        figures: dict[str, Value] = {"memory_gb": gpu.memory_gb,
                                     "power_limit_w": gpu.power_limit_w,
                                     "driver_version": gpu.driver_version or None,
                                     "source": gpu.source}
        found = matcher.match(Category.ACCELERATOR, name, vendor=gpu.vendor,
                              memory_gb=gpu.memory_gb, power_w=gpu.power_limit_w,
                              alternatives=gpu.alternatives)
        reason = "; ".join(r for r in (found.reason, gpu.note) if r)
        if found.part is not None:
            records.append(MatchRecord(Category.ACCELERATOR, name, found.part, len(members),
                                       found.method, found.confidence, reason,
                                       found.alternatives, figures))
            continue
        key = name_key(name)
        vendor = gpu.vendor or ""
        display = name[len(vendor):].strip() if vendor and name.startswith(vendor) else name
        memory_text = f"{round(gpu.memory_gb)} GB" if gpu.memory_gb else ""
        part = _custom(
            Category.ACCELERATOR, vendor, display or name,
            f"{vendor} {display} {memory_text}", gpu.source,
            {"accelerator_type": "gpu", "memory_gb": gpu.memory_gb,
             "tdp_w": round(gpu.power_limit_w) if gpu.power_limit_w else None,
             "form_factor": key.form},
            "; ".join(x for x in (f"power limit {gpu.power_limit_w:g} W" if gpu.power_limit_w
                                  else "", f"driver {gpu.driver_version}"
                                  if gpu.driver_version else "", gpu.note) if x))
        records.append(MatchRecord(Category.ACCELERATOR, name, part, len(members),
                                   MatchMethod.NONE, 0.0, reason,
                                   matcher.suggestions(Category.ACCELERATOR, name), figures))
    return records


def match_memory(matcher: Matcher, memory: DetectedMemory) -> MatchRecord:
    """A catalog kit only when modules, size, type and speed all agree; else the
    detected total as a custom part (a total alone does not say which kit it is)."""
    figures: dict[str, Value] = {
        "usable_gib": round(memory.usable_gib, 2) if memory.usable_gib else None,
        "installed_gb": memory.installed_gb, "modules": len(memory.modules) or None,
        "memory_type": memory.memory_type, "speed_mt_s": memory.speed_mt_s}
    kit = _matching_kit(matcher, memory)
    if kit is not None:
        return MatchRecord(Category.MEMORY, _memory_label(memory), kit, 1, MatchMethod.EXACT,
                           1.0, "modules, size, type and speed match this kit", (), figures)
    sizes = sorted({m.size_gb for m in memory.modules})
    module_size = sizes[0] if len(sizes) == 1 else None
    capacity = memory.installed_gb
    name = _memory_label(memory)
    detail_bits = []
    if memory.usable_gib is not None:
        detail_bits.append(f"{memory.usable_gib:.1f} GiB usable")
    if memory.installed_estimated and capacity:
        detail_bits.append(f"{capacity:g} GB installed is estimated from that")
    makers = {m.manufacturer for m in memory.modules if m.manufacturer}
    part = _custom(
        Category.MEMORY, makers.pop() if len(makers) == 1 else "", name,
        name.removeprefix("Detected memory "), memory.source,
        {"capacity_gb": capacity, "memory_type": memory.memory_type,
         "speed_mt_s": memory.speed_mt_s, "modules": len(memory.modules) or None,
         "module_size_gb": int(module_size) if module_size and float(module_size).is_integer()
         else None, "ecc": memory.ecc, "registered": memory.registered},
        "; ".join(detail_bits))
    reason = ("kept as detected: no catalog kit has these modules" if memory.modules
              else "kept as detected: a total alone does not identify a catalog kit")
    return MatchRecord(Category.MEMORY, name, part, 1, MatchMethod.NONE, 0.0, reason, (),
                       figures)


def _memory_label(memory: DetectedMemory) -> str:
    size = f"{memory.installed_gb:g} GB" if memory.installed_gb else "Memory"
    bits = [size]
    if memory.memory_type:
        bits.append(memory.memory_type + (f"-{memory.speed_mt_s}" if memory.speed_mt_s else ""))
    sizes = sorted({m.size_gb for m in memory.modules})
    if memory.modules and len(sizes) == 1:
        bits.append(f"({len(memory.modules)} x {sizes[0]:g} GB)")
    if memory.registered:
        bits.append("RDIMM")
    return "Detected memory " + " ".join(bits)


def _matching_kit(matcher: Matcher, memory: DetectedMemory) -> Part | None:
    if not memory.modules or not memory.memory_type:
        return None
    sizes = {m.size_gb for m in memory.modules}
    if len(sizes) != 1:
        return None
    size = sizes.pop()
    count = len(memory.modules)
    for entry in matcher._entries(Category.MEMORY):
        kit = entry.part
        if (kit.number("modules") == count and kit.number("module_size_gb") == size
                and kit.text("memory_type").upper() == memory.memory_type
                and _speed_fits(kit.number("speed_mt_s"), memory)
                and (kit.get("registered") is None or memory.registered is None
                     or bool(kit.get("registered")) == memory.registered)):
            return kit
    return None


def _speed_fits(kit_speed: float | None, memory: DetectedMemory) -> bool:
    if kit_speed is None:
        return True
    rated = {m.speed_mt_s for m in memory.modules} | {m.configured_mt_s for m in memory.modules}
    return kit_speed == memory.speed_mt_s or kit_speed in rated


def match_disks(disks: Iterable[DetectedDisk]) -> list[MatchRecord]:
    """Drives become custom storage parts (capacity and kind as detected); identical
    drives are one line with a quantity."""
    groups: dict[tuple[str, float | None, str | None, str], list[DetectedDisk]] = {}
    for disk in disks:
        groups.setdefault((disk.model, disk.capacity_gb, disk.storage_kind, disk.interface),
                          []).append(disk)
    records: list[MatchRecord] = []
    for (model, capacity, kind, interface), members in groups.items():
        disk = members[0]
        label = model or (f"{interface} disk" if interface else "Disk")
        size = _capacity_text(capacity)
        name = f"{label} {size}".strip() if size and size.replace(" ", "") not in \
            label.replace(" ", "") else label
        vendor = storage_vendor(model) if model else ""
        part = _custom(Category.STORAGE, vendor, name, f"{label} {capacity or ''}",
                       disk.source, {"capacity_gb": capacity, "storage_kind": kind,
                                     "interface": interface or None},
                       "; ".join(x for x in (", ".join(d.name for d in members), disk.note)
                                 if x))
        reason = "kept as detected (drives are not matched to catalog models)"
        if kind is None:
            reason += "; its kind (NVMe, SATA SSD, hard disk) could not be told"
        records.append(MatchRecord(Category.STORAGE, model or disk.name, part, len(members),
                                   MatchMethod.NONE, 0.0, reason, (),
                                   {"capacity_gb": capacity, "storage_kind": kind,
                                    "interface": interface or None}))
    return records


def _capacity_text(capacity: float | None) -> str:
    if not capacity:
        return ""
    if capacity >= 1000:
        return f"{capacity / 1000:.3g} TB"
    return f"{capacity:.0f} GB"


def match_board(matcher: Matcher, report: DetectionReport) -> MatchRecord | None:
    board = report.board
    if board is None or not board.name:
        return None
    found = matcher.match(Category.MOTHERBOARD, board.name, vendor=board.vendor)
    if found.part is not None:
        return MatchRecord(Category.MOTHERBOARD, f"{board.vendor} {board.name}".strip(),
                           found.part, 1, found.method, found.confidence, found.reason,
                           found.alternatives)
    if report.os.virtualization:
        return None  # a VM's "board" is the hypervisor's; it says nothing about hardware
    vendor = board.vendor
    part = _custom(Category.MOTHERBOARD, vendor, board.name, f"{vendor} {board.name}",
                   board.source, {}, (f"in {board.system_vendor} {board.system_product}"
                                      .strip() if board.system_product else ""))
    return MatchRecord(Category.MOTHERBOARD, f"{vendor} {board.name}".strip(), part, 1,
                       MatchMethod.NONE, 0.0, found.reason)


def match_report(catalog: PartSource, report: DetectionReport) -> list[MatchRecord]:
    """Every detected device as a build part, matched where the catalog allows."""
    matcher = Matcher(catalog)
    records: list[MatchRecord] = []
    if report.cpu is not None:
        records.append(match_cpu(matcher, report.cpu))
    board = match_board(matcher, report)
    if board is not None:
        records.append(board)
    if report.memory is not None and report.memory.installed_gb:
        records.append(match_memory(matcher, report.memory))
    records.extend(match_gpus(matcher, report.gpus))
    records.extend(match_disks(report.disks))
    return records


def build_name(report: DetectionReport, records: Sequence[MatchRecord]) -> str:
    """``<hostname> (<CPU>)``: the machine as its owner knows it."""
    host = report.os.hostname or "This computer"
    cpu = next((r for r in records if r.category is Category.CPU), None)
    if cpu is None:
        return host
    cpu_name = cpu.part.display_name if cpu.matched else clean_name(cpu.detected)
    return f"{host} ({cpu_name})"


def build_from_matches(report: DetectionReport, records: Sequence[MatchRecord]) -> Build:
    build = Build(name=build_name(report, records))
    left_out: list[str] = []
    for record in records:
        if build.would_replace(record.part) is not None:
            continue  # a second part for a single slot never replaces the first
        quantity = record.quantity if not _single(record) else 1
        room = build.room_for(record.part)
        if quantity > room:  # a machine beyond a build's limits (core.limits): say so
            kind = quantity_limit(record.part)
            left_out.append(f"{quantity - max(room, 0):,} of {record.part.display_name} "
                            f"left out: {kind.message(build.total(kind) + quantity)}")
            quantity = room
        if quantity >= 1:
            build.add(record.part, quantity)
    notes = build_notes(report, records)
    build.set_notes(limits.bounded_notes("\n".join([notes, *left_out]) if left_out
                                         else notes))
    return build


def _single(record: MatchRecord) -> bool:
    """A record whose slot takes one part only (a CPU record carries its socket count)."""
    return record.category is Category.MOTHERBOARD


def build_notes(report: DetectionReport, records: Sequence[MatchRecord]) -> str:
    lines = [f"{DETECTED_NOTE} ({report.os.hostname or 'unnamed'}) on "
             f"{report.started[:10] or date.today().isoformat()}."]
    system = ", ".join(x for x in (report.os.os_name, report.os.machine) if x)
    if system:
        lines.append(f"System: {system}.")
    if report.os.virtualization:
        lines.append(f"Virtual machine or container ({report.os.virtualization}): CPU, "
                     "memory and disks are what the host gives it.")
    for record in records:
        if record.category is Category.CPU and "sockets" in record.reason:
            lines.append(f"CPU: {record.reason}.")
    custom = [r for r in records if not r.matched]
    if custom:
        lines.append("Not in the catalog, kept with the detected figures: "
                     + ", ".join(r.part.name for r in custom) + ".")
    for unknown in report.unknowns:
        lines.append(f"Not detected: {unknown.what} ({unknown.reason}).")
    return "\n".join(lines)


def detect_build(catalog: PartSource, host: Host | None = None,
                 timeout: float = DEFAULT_TIMEOUT_S,
                 progress: Callable[[str], None] | None = None) -> DetectedBuild:
    """Detect this computer (or ``host``) and assemble it as a Build.

    Safe to call off the GUI thread (``Catalog`` keeps one connection per thread); takes
    seconds at most and never raises for anything the machine does.
    """
    report = detect_all(host, timeout=timeout, progress=progress)
    records = match_report(catalog, report)
    return DetectedBuild(build_from_matches(report, records), report, records)
