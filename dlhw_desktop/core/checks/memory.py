"""System memory: type, slots, capacity limits, channels, RDIMM vs UDIMM, RAM vs VRAM.

- Type: a kit's DDR generation must be one the CPU and the board both take (Intel
  12th-14th gen CPUs take DDR4 or DDR5; the board decides).
- Slots and capacity: modules <= the board's ``memory_slots``; total capacity <= the
  smaller of the board's and the CPU's ``max_memory_gb``.
- Channels: fewer modules than the CPU has channels leaves bandwidth unused (warn); a
  count that is not a multiple of the channels populates them unevenly (warn). Two CPUs
  on a dual-socket board have twice the channels, and twice the CPU's memory limit.
- Registered or not: workstation/server sockets take RDIMMs, consumer sockets UDIMMs
  (see ``_util.RDIMM_SOCKETS`` / ``UDIMM_SOCKETS``); the wrong kind will not POST (fail).
- RAM vs VRAM: below 1x the total accelerator memory: warn (a framework loading a
  checkpoint, pinned-memory data loaders and CPU offload all stage through system RAM;
  Tim Dettmers, "A Full Hardware Guide to Deep Learning": at least as much RAM as your
  largest GPU). Puget Systems' machine-learning hardware recommendations give the common
  rule of thumb of at least 2x the total VRAM; between 1x and 2x passes with that note.
"""

from __future__ import annotations

from dlhw_desktop.core.checks._util import count_of, gb, join, missing
from dlhw_desktop.core.checks.context import CheckContext, kit_capacity_gb
from dlhw_desktop.core.compat.vocabulary import RDIMM_SOCKETS, UDIMM_SOCKETS, memory_types
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.verdict import CheckResult

RAM_VRAM_RULE = 2.0


def _kit_ids(ctx: CheckContext) -> tuple[str, ...]:
    return tuple(i.part.id for i in ctx.memory)


def check_memory_type(ctx: CheckContext) -> list[CheckResult]:
    platforms = [p for p in (ctx.cpu, ctx.board) if p is not None]
    if not ctx.memory or not platforms:
        return []
    ids = _kit_ids(ctx) + tuple(p.id for p in platforms)
    absent = [(i.part, "memory_type") for i in ctx.memory if not memory_types(
        i.part.text("memory_type"))]
    absent += [(p, "memory_type") for p in platforms if not memory_types(p.text("memory_type"))]
    if absent:
        return [CheckResult("memory.type", "memory", "unknown",
                            f"Memory type unknown: {missing(absent)}", {}, ids)]
    accepted = set.intersection(*(memory_types(p.text("memory_type")) for p in platforms))
    wrong = [i.part for i in ctx.memory
             if not memory_types(i.part.text("memory_type")) & accepted]
    figures = {"platform_takes": "/".join(sorted(accepted)) or None,
               "kits": ", ".join(i.part.text("memory_type") for i in ctx.memory)}
    platform = join(p.display_name for p in platforms)
    if not accepted:
        sides = "; ".join(f"{p.display_name} takes {p.text('memory_type')}" for p in platforms)
        return [CheckResult("memory.type", "memory", "fail",
                            f"{sides}: no memory fits both", figures, ids)]
    takes = "/".join(sorted(accepted))
    if wrong:
        kinds = join(p.text("memory_type") for p in wrong)
        return [CheckResult("memory.type", "memory", "fail",
                            f"{join(p.display_name for p in wrong)} is {kinds}; {platform} "
                            f"{'takes' if len(platforms) == 1 else 'take'} {takes} only: "
                            "the modules do not fit the slots",
                            figures, tuple(p.id for p in wrong) + tuple(p.id for p in platforms),
                            f"Choose a {takes} kit.")]
    return [CheckResult("memory.type", "memory", "pass",
                        f"{takes} memory on a {takes} platform", figures, ids)]


def check_memory_slots(ctx: CheckContext) -> list[CheckResult]:
    if not ctx.memory or ctx.board is None:
        return []
    board = ctx.board
    ids = (*_kit_ids(ctx), board.id)
    slots, modules = board.number("memory_slots"), ctx.module_count
    figures = {"modules": modules, "memory_slots": slots}
    absent = [(i.part, "modules") for i in ctx.memory if i.part.number("modules") is None]
    if slots is None:
        absent.append((board, "memory_slots"))
    if absent:
        return [CheckResult("memory.slots", "memory", "unknown",
                            f"Slot count unknown: {missing(absent)}", figures, ids)]
    assert modules is not None and slots is not None
    if modules <= slots:
        return [CheckResult("memory.slots", "memory", "pass",
                            f"{modules} modules in {board.display_name}'s {slots:.0f} slots",
                            figures, ids)]
    return [CheckResult("memory.slots", "memory", "fail",
                        f"{modules} modules but {board.display_name} has {slots:.0f} slots",
                        figures, ids, "Use fewer, larger modules.")]


def check_memory_capacity(ctx: CheckContext) -> list[CheckResult]:
    platforms = [p for p in (ctx.cpu, ctx.board) if p is not None]
    if not ctx.memory or not platforms:
        return []
    ids = _kit_ids(ctx) + tuple(p.id for p in platforms)
    total = ctx.ram_gb

    def limit_of(part: Part) -> float | None:
        value = part.number("max_memory_gb")  # a CPU's is per socket
        if value is not None and part is ctx.cpu:
            value *= ctx.cpu_count
        return value

    limits = [(p, limit_of(p)) for p in platforms]
    known = [(p, v) for p, v in limits if v is not None]
    absent = [(i.part, "capacity_gb") for i in ctx.memory if kit_capacity_gb(i.part) is None]
    figures = {"ram_gb": total, "max_memory_gb": min(v for _, v in known) if known else None}
    if known and total is not None:
        part, limit = min(known, key=lambda pv: pv[1])
        who = ctx.cpu_label if part is ctx.cpu else part.display_name
        if total > limit:  # over a known limit already: the other limit cannot save it
            return [CheckResult("memory.capacity", "memory", "fail",
                                f"{gb(total)} exceeds {who}'s {gb(limit)} maximum",
                                figures, ids, f"Stay at or below {gb(limit)}.")]
    # Within one limit says nothing about the other (a CPU may take less than its board).
    absent += [(p, "max_memory_gb") for p, v in limits if v is None]
    if absent:
        return [CheckResult("memory.capacity", "memory", "unknown",
                            f"Capacity limit unknown: {missing(absent)}", figures, ids)]
    assert total is not None
    part, limit = min(known, key=lambda pv: pv[1])
    who = ctx.cpu_label if part is ctx.cpu else part.display_name
    if total <= limit:
        return [CheckResult("memory.capacity", "memory", "pass",
                            f"{gb(total)} is within {who}'s {gb(limit)} maximum",
                            figures, ids)]
    return [CheckResult("memory.capacity", "memory", "fail",
                        f"{gb(total)} exceeds {who}'s {gb(limit)} maximum",
                        figures, ids, f"Stay at or below {gb(limit)}.")]


def check_memory_channels(ctx: CheckContext) -> list[CheckResult]:
    if not ctx.memory or ctx.cpu is None:
        return []
    cpu = ctx.cpu
    ids = (*_kit_ids(ctx), cpu.id)
    channels, modules = cpu.number("memory_channels"), ctx.module_count
    figures = {"modules": modules, "memory_channels": channels}
    absent = [(i.part, "modules") for i in ctx.memory if i.part.number("modules") is None]
    if channels is None:
        absent.append((cpu, "memory_channels"))
    if absent:
        return [CheckResult("memory.channels", "memory", "unknown",
                            f"Channel population unknown: {missing(absent)}", figures, ids)]
    assert modules is not None and channels is not None
    ch = int(channels) * ctx.cpu_count  # each socket has its own channels
    who = ctx.cpu_label
    if modules < ch:
        return [CheckResult(
            "memory.channels", "memory", "warn",
            f"{count_of(modules, 'module')} {'fills' if modules == 1 else 'fill'} {modules} of "
            f"{who}'s {ch} memory channels: "
            f"about {modules / ch:.0%} of its memory bandwidth", figures, ids,
            f"Use at least {ch} modules (smaller ones for the same capacity).")]
    if modules % ch:
        return [CheckResult(
            "memory.channels", "memory", "warn",
            f"{modules} modules on {ch} channels populate them unevenly", figures, ids,
            f"Use a multiple of {ch} modules.")]
    return [CheckResult("memory.channels", "memory", "pass",
                        f"{modules} modules fill all {ch} channels of {who}",
                        figures, ids)]


def check_registered(ctx: CheckContext) -> list[CheckResult]:
    if not ctx.memory or not ctx.socket:
        return []
    platform = ctx.cpu or ctx.board
    assert platform is not None
    socket = platform.text("socket")
    ids = (*_kit_ids(ctx), platform.id)
    if ctx.socket in RDIMM_SOCKETS:
        wants, label = True, "registered (RDIMM)"
    elif ctx.socket in UDIMM_SOCKETS:
        wants, label = False, "unbuffered (UDIMM)"
    else:
        return []  # a socket we do not classify: say nothing rather than guess
    figures = {"socket": socket, "platform_takes_rdimm": wants}
    unknown = [i.part for i in ctx.memory if i.part.get("registered") is None]
    wrong = [i.part for i in ctx.memory
             if i.part.get("registered") is not None and bool(i.part.get("registered")) != wants]
    if wrong:
        have = "registered" if not wants else "unbuffered"
        return [CheckResult("memory.registered", "memory", "fail",
                            f"{join(p.display_name for p in wrong)} is {have}; {socket} takes "
                            f"{label} memory only: the system will not start",
                            figures, (*tuple(p.id for p in wrong), platform.id),
                            f"Choose {label} modules.")]
    if unknown:
        return [CheckResult("memory.registered", "memory", "unknown",
                            f"{socket} takes {label} memory; "
                            f"{missing((p, 'registered') for p in unknown)}", figures, ids)]
    return [CheckResult("memory.registered", "memory", "pass",
                        f"{label[0].upper()}{label[1:]} modules, as {socket} requires",
                        figures, ids)]


def check_ram_vs_vram(ctx: CheckContext) -> list[CheckResult]:
    if not ctx.memory or not ctx.accelerators:
        return []
    ram, vram = ctx.ram_gb, ctx.vram_gb
    ids = _kit_ids(ctx) + tuple(i.part.id for i in ctx.accelerators)
    figures = {"ram_gb": ram, "vram_gb": vram,
               "ratio": None if not ram or not vram else round(ram / vram, 2)}
    if ram is None or vram is None:
        absent = [(i.part, "capacity_gb") for i in ctx.memory if kit_capacity_gb(i.part) is None]
        absent += [(i.part, "memory_gb") for i in ctx.accelerators
                   if i.part.number("memory_gb") is None]
        return [CheckResult("memory.ram_vs_vram", "memory", "unknown",
                            f"RAM to VRAM ratio unknown: {missing(absent)}", figures, ids)]
    rule = RAM_VRAM_RULE * vram
    if ram < vram:
        return [CheckResult(
            "memory.ram_vs_vram", "memory", "warn",
            f"{gb(ram)} of system RAM is less than the {gb(vram)} of accelerator memory: "
            "loading checkpoints and feeding the GPUs will swap", figures, ids,
            f"Aim for {gb(rule)} (2x VRAM, a common rule of thumb).")]
    note = ("meets the common 2x rule of thumb" if ram >= rule else
            f"at least 1x; the common rule of thumb is 2x ({gb(rule)})")
    return [CheckResult("memory.ram_vs_vram", "memory", "pass",
                        f"{gb(ram)} of system RAM for {gb(vram)} of VRAM: {note}",
                        figures, ids)]


CHECKS = (check_memory_type, check_memory_slots, check_memory_capacity, check_memory_channels,
          check_registered, check_ram_vs_vram)
