"""``dlhw detect``: what is this computer, which catalog parts is it, what is unknown.

The first question most people ask is whether the machine they already have will do;
this answers the "what do I have" half and, with ``-o``, saves it as a build that the
app and ``dlhw check`` judge like any other.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from dlhw_desktop.commands.common import (
    add_force,
    checked_output,
    finite_float,
    open_catalog,
    print_json,
)
from dlhw_desktop.core.errors import DlhwError
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.limits import plural

if TYPE_CHECKING:
    from dlhw_desktop.catalog.matching import MatchRecord
    from dlhw_desktop.core.detect import DetectionReport


def register(sub: argparse._SubParsersAction) -> None:
    detect = sub.add_parser(
        "detect", help="detect this computer and match it to catalog parts",
        description="Detect this computer's CPU, memory, GPUs and drives, match them to "
        "catalog parts, and say what could not be learned. Parts the catalog does not "
        "have are kept as custom parts with the detected figures.")
    detect.add_argument("--json", action="store_true", help="print JSON")
    detect.add_argument("-o", "--output", type=Path, metavar="BUILD",
                        help="save the machine as a build file (e.g. mine.dlhw.json)")
    add_force(detect)
    detect.add_argument("--timeout", type=finite_float, default=5.0, metavar="SECONDS",
                        help="time limit for each outside command (default 5)")
    detect.add_argument("--record", type=Path, metavar="DIR",
                        help="also save the raw outputs read, to attach to a bug report")
    detect.add_argument("--replay", type=Path, metavar="DIR",
                        help="read recorded outputs from DIR instead of this computer")
    detect.set_defaults(func=cmd_detect)


def cmd_detect(args: argparse.Namespace) -> int:
    from dlhw_desktop.catalog.matching import detect_build
    from dlhw_desktop.core.build import buildfile
    from dlhw_desktop.core.detect import LiveHost, RecordedHost, RecordingHost

    if not 0 < args.timeout <= 120:
        raise DlhwError("--timeout must be between 0 and 120 seconds")
    if args.replay is not None and args.record is not None:
        raise DlhwError("use --record or --replay, not both")
    if args.output is not None:  # before detecting: never over the app's data or a file
        checked_output(args, args.output)
    catalog = open_catalog(args)
    host = None
    if args.replay is not None:
        try:
            host = RecordedHost.load(args.replay)
        except (OSError, ValueError) as exc:
            raise DlhwError(f"cannot replay {args.replay}: {exc}") from None
    elif args.record is not None:
        try:
            host = RecordingHost(LiveHost(args.timeout), args.record)
        except OSError as exc:
            raise DlhwError(f"cannot record into {args.record}: "
                            f"{exc.strerror or exc}") from None
    build, report, matches = detect_build(catalog, host=host, timeout=args.timeout)
    saved: Path | None = None
    if args.output is not None:
        saved = buildfile.save(build, args.output)
    if args.json:
        print_json({"report": report.to_dict(),
                    "matches": [m.to_dict() for m in matches],
                    "build": buildfile.to_dict(build),
                    "saved": str(saved) if saved else None})
    else:
        _print_text(report, matches, build.name, saved)
    refused = host.refused if isinstance(host, RecordingHost) else []
    if refused:  # a link planted in the folder is never written through
        more = f" (and {len(refused) - 1} more)" if len(refused) > 1 else ""
        print(f"dlhw: error: not recorded in {args.record}: {refused[0]}{more}",
              file=sys.stderr)
        return 2
    return 0


def _print_text(report: DetectionReport, matches: list[MatchRecord], build_name: str,
                saved: Path | None) -> None:
    os_ = report.os
    print(f"This computer: {os_.hostname or 'unnamed'}")
    release = (f"kernel {os_.release}" if os_.system == "Linux" and os_.release
               else os_.release)
    system = ", ".join(x for x in (os_.os_name, os_.machine, release) if x)
    if system:
        print(f"  {system}")
    if os_.virtualization:
        print(f"  virtual machine or container: {os_.virtualization}")
    print(f"  detected in {report.seconds:.2f} s")
    print()
    by_category: dict[Category, list[MatchRecord]] = {}
    for record in matches:
        by_category.setdefault(record.category, []).append(record)

    cpu = report.cpu
    if cpu is not None:
        counts = ", ".join(x for x in (
            _count(cpu.cores, "core"), _count(cpu.threads, "thread"),
            _count(cpu.sockets, "socket"),
            f"up to {cpu.max_clock_ghz:g} GHz" if cpu.max_clock_ghz else "") if x)
        _section("CPU", [f"{cpu.name}" + (f" ({counts})" if counts else "")],
                 by_category.get(Category.CPU, []))
    else:
        _section("CPU", ["not detected"], [])
    board_records = by_category.get(Category.MOTHERBOARD, [])
    if report.board is not None:
        label = " ".join(x for x in (report.board.vendor, report.board.name) if x)
        system_name = " ".join(x for x in (report.board.system_vendor,
                                           report.board.system_product) if x)
        line = label or system_name
        if label and system_name and system_name != label:
            line += f" (in {system_name})"
        if not board_records and os_.virtualization:
            line += " - virtual, not added"
        _section("Board", [line], board_records)
    memory = report.memory
    if memory is not None:
        bits = []
        if memory.usable_gib is not None:
            bits.append(f"{memory.usable_gib:.1f} GiB usable")
        if memory.installed_gb:
            bits.append(f"{memory.installed_gb:g} GB installed"
                        + (" (estimated)" if memory.installed_estimated else ""))
        if memory.modules:
            bits.append(plural(len(memory.modules), "module"))
        if memory.memory_type or memory.speed_mt_s:
            bits.append(" ".join(x for x in (memory.memory_type or "type unknown",
                                             f"{memory.speed_mt_s} MT/s" if memory.speed_mt_s
                                             else "speed unknown") if x))
        else:
            bits.append("type and speed unknown")
        if memory.ecc is not None:
            bits.append("ECC" if memory.ecc else "no ECC")
        _section("Memory", [", ".join(bits)], by_category.get(Category.MEMORY, []))
    else:
        _section("Memory", ["not detected"], [])
    gpu_groups: dict[tuple[str, float | None, float | None, str], list[str]] = {}
    for gpu in report.accelerators:
        key = (gpu.name, gpu.memory_gb, gpu.power_limit_w, gpu.source)
        gpu_groups.setdefault(key, []).append(gpu.bus_id)
    gpu_lines = []
    for (name, memory_gb, power_w, source), buses in gpu_groups.items():
        figures = ", ".join(x for x in (
            f"{memory_gb:g} GB" if memory_gb else "",
            f"power limit {power_w:g} W" if power_w else "", f"via {source}") if x)
        count = f"{len(buses)} x " if len(buses) > 1 else ""
        at = [b for b in buses if b]
        gpu_lines.append(f"{count}{name} ({figures})" + (f" at {', '.join(at)}" if at else ""))
    if not gpu_lines:
        unsure = any(u.what == "GPUs" for u in report.unknowns)
        gpu_lines = ["none found" + (" (but see 'Could not learn')" if unsure else "")]
    gpu_lines += [f"display only, not counted: {d.name} ({d.note or d.kind})"
                  for d in report.displays]
    _section("GPUs", gpu_lines, by_category.get(Category.ACCELERATOR, []))
    disk_groups: dict[tuple[str, str], list[str]] = {}
    for disk in report.disks:
        size = f"{disk.capacity_gb:g} GB" if disk.capacity_gb else "size unknown"
        desc = ", ".join(x for x in (disk.model, disk.interface, size,
                                     disk.storage_kind or "kind unknown") if x)
        disk_groups.setdefault((desc, disk.note), []).append(disk.name)
    disk_lines = []
    for (desc, note), names in disk_groups.items():
        count = f"{len(names)} x " if len(names) > 1 else ""
        disk_lines.append(f"{count}{desc} [{', '.join(names)}]"
                          + (f" ({note})" if note else ""))
    _section("Drives", disk_lines or ["none found"], by_category.get(Category.STORAGE, []))

    if report.unknowns:
        print("Could not learn")
        for unknown in report.unknowns:
            hint = f" - {unknown.hint}" if unknown.hint else ""
            print(f"  - {unknown.what}: {unknown.reason}{hint}")
        print()
    matched = sum(1 for m in matches if m.matched)
    print(f"Build \"{build_name}\": {plural(len(matches), 'part')}, {matched} from the catalog, "
          f"{len(matches) - matched} kept as detected (custom).")
    if saved is not None:
        print(f"Saved to {saved}")
    else:
        print("Save it with: dlhw detect -o this-computer.dlhw.json")


def _section(title: str, lines: list[str], records: list[MatchRecord]) -> None:
    for i, line in enumerate(lines):
        print(f"{title if i == 0 else '':<10} {line}")
    for record in records:
        quantity = f"{record.quantity} x " if record.quantity > 1 else ""
        if record.matched:
            head = (f"{quantity}{record.part.display_name}  [{record.part.id}] "
                    f"{record.method.value}, confidence {record.confidence:.2f}")
        else:
            head = f"{quantity}custom part \"{record.part.display_name}\"  [{record.part.id}]"
        print(f"{'':10} -> {head}")
        detail = record.reason
        if not record.matched:
            if record.alternatives:
                detail += "; similar catalog parts: " + ", ".join(record.alternatives)
        elif record.alternatives:
            detail += "; also fits: " + ", ".join(record.alternatives)
        if detail:
            print(f"{'':14}{detail}")
    print()


def _count(value: int | None, noun: str) -> str:
    if not value:
        return ""
    return f"{value} {noun}" + ("s" if value != 1 else "")
