"""``CheckContext``: one build's parts and derived figures, computed once per run.

Every check (built in or joined through ``extra_checks``) receives the same context, so a
figure such as the sustained power draw is computed once and read by the power check,
the circuit check, the case-heat check and the summary alike.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from functools import cached_property

from dlhw_desktop.core.build.build import Build, BuildItem, Slot
from dlhw_desktop.core.build.tiers import WorkloadTier
from dlhw_desktop.core.checks._util import SERVER_MODULE_FORMS
from dlhw_desktop.core.checks.settings import CheckSettings
from dlhw_desktop.core.compat.vocabulary import norm_socket
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.verdict import CheckResult


class CheckContext:
    """The build as the checks see it: local parts split by slot, plus shared figures."""

    def __init__(self, build: Build, settings: CheckSettings | None = None,
                 tiers: Mapping[str, WorkloadTier] | None = None) -> None:
        self.build = build
        self.settings = settings or CheckSettings()
        self.tiers: Mapping[str, WorkloadTier] = tiers or {}
        self.cpu: Part | None = build.cpu
        self.server: Part | None = build.server
        """A GPU server platform; it is also the board the CPU and memory checks read
        (socket, sockets, memory slots and type) when no motherboard is chosen."""
        self.board: Part | None = build.motherboard or self.server
        self.psu: Part | None = build.psu
        self.psu_count: int = build.count(Slot.PSU)
        self.cpu_count: int = build.count(Slot.CPU)
        self.cooler: Part | None = build.cooler
        self.cooler_count: int = build.count(Slot.COOLER)
        self.case: Part | None = build.case
        self.accelerators: tuple[BuildItem, ...] = build.accelerators
        self.memory: tuple[BuildItem, ...] = build.memory
        self.storage: tuple[BuildItem, ...] = build.storage
        self.cloud: tuple[BuildItem, ...] = build.cloud

    @property
    def psu_redundant(self) -> bool:
        """The power supply is a server's hot-swap module, fitted beside spares."""
        return self.psu is not None and self.psu.get("redundant") is True

    @property
    def psu_carrying(self) -> int:
        """How many of the fitted units carry the load: all of them for ATX units sharing
        it, half (rounded up) of a server's redundant modules — what survives losing one
        module or one of two power feeds (1+1, 2+2, 3+3)."""
        count = max(1, self.psu_count)
        return math.ceil(count / 2) if self.psu_redundant else count

    @property
    def psu_label(self) -> str:
        """``Corsair HX1500i``, ``2x Corsair HX1500i`` (load-sharing units) or
        ``2x Supermicro PWS-2K04A-1R (1+1 redundant)``."""
        if self.psu is None:
            return ""
        name = self.psu.display_name
        if self.psu_count <= 1:
            return name
        if self.psu_redundant:
            spare = self.psu_count - self.psu_carrying
            return f"{self.psu_count}x {name} ({self.psu_carrying}+{spare} redundant)"
        return f"{self.psu_count}x {name}"

    @property
    def cpu_label(self) -> str:
        """``AMD EPYC 7443`` or ``2x AMD EPYC 7443`` (a dual-socket board)."""
        if self.cpu is None:
            return ""
        name = self.cpu.display_name
        return f"{self.cpu_count}x {name}" if self.cpu_count > 1 else name

    @cached_property
    def local_items(self) -> tuple[BuildItem, ...]:
        """Everything that would sit in the machine (cloud offerings excluded)."""
        return tuple(i for i in self.build.items() if i.slot is not Slot.CLOUD)

    @cached_property
    def tier(self) -> WorkloadTier | None:
        name = self.build.tier
        return self.tiers.get(name) if name else None

    @cached_property
    def cards(self) -> tuple[Part, ...]:
        """Accelerators that go in a PCIe slot, one entry per physical card, in build
        order (SXM/OAM modules excluded: they never sit in a slot)."""
        if self.server is not None:
            return ()  # the platform supplies the GPU slots; its own check judges them
        return tuple(
            item.part for item in self.accelerators
            if item.part.text("form_factor").lower() not in SERVER_MODULE_FORMS
            for _ in range(item.quantity)
        )

    @cached_property
    def accelerator_count(self) -> int:
        return sum(item.quantity for item in self.accelerators)

    @cached_property
    def socket(self) -> str:
        """The platform's socket (the CPU's, else the board's), normalised; "" unknown."""
        for part in (self.cpu, self.board):
            if part is not None and part.text("socket"):
                return norm_socket(part.text("socket"))
        return ""

    @cached_property
    def module_count(self) -> int | None:
        """DIMMs in the build; ``None`` when a kit's module count is unknown."""
        total = 0
        for item in self.memory:
            modules = item.part.number("modules")
            if modules is None:
                return None
            total += int(modules) * item.quantity
        return total

    @cached_property
    def ram_gb(self) -> float | None:
        """System RAM in GB; ``None`` when any kit's capacity is unknown or there is none."""
        if not self.memory:
            return None
        total = 0.0
        for item in self.memory:
            capacity = kit_capacity_gb(item.part)
            if capacity is None:
                return None
            total += capacity * item.quantity
        return total

    @cached_property
    def vram_gb(self) -> float | None:
        """Accelerator memory in GB over every local accelerator; ``None`` when unknown."""
        if not self.accelerators:
            return None
        total = 0.0
        for item in self.accelerators:
            memory = item.part.number("memory_gb")
            if memory is None:
                return None
            # a multi-GPU board's memory is per GPU (A16: 4 x 16 GB)
            total += memory * (item.part.number("board_gpus") or 1) * item.quantity
        return total


def kit_capacity_gb(part: Part) -> float | None:
    """A memory kit's capacity: ``capacity_gb``, else modules x module size."""
    capacity = part.number("capacity_gb")
    if capacity is not None:
        return capacity
    modules, size = part.number("modules"), part.number("module_size_gb")
    if modules is not None and size is not None:
        return modules * size
    return None


Check = Callable[[CheckContext], Iterable[CheckResult] | CheckResult | None]
"""A check: reads the context, returns results (any number, a single one, or None)."""
