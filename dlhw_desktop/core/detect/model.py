"""What detection found, as plain data: devices, what it could not learn, and timings.

Every figure is what the machine reported, in the catalog's units (GB, W, MT/s); a
figure the machine did not report is ``None``, never a guess dressed as a fact. Where a
figure is derived (installed memory estimated from the usable total), a note says so.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Unknown:
    """Something detection could not learn, and why (a sentence a user can act on)."""

    what: str
    reason: str
    source: str = ""
    hint: str = ""


@dataclass(frozen=True, slots=True)
class Timing:
    """How long one source took and how it ended (``ok``, ``missing``, ``timeout``, ...)."""

    source: str
    seconds: float
    outcome: str


@dataclass(frozen=True, slots=True)
class DetectedCpu:
    name: str                      # as the system names it: "AMD Ryzen 9 7950X 16-Core Processor"
    vendor: str = ""
    sockets: int | None = None
    cores: int | None = None       # physical cores, all sockets
    threads: int | None = None     # logical processors, all sockets
    max_clock_ghz: float | None = None
    architecture: str = ""
    source: str = ""


@dataclass(frozen=True, slots=True)
class MemoryModule:
    """One installed module, as firmware tables (SMBIOS) describe it."""

    size_gb: float
    memory_type: str | None = None      # DDR4, DDR5, LPDDR5, ...
    speed_mt_s: int | None = None       # rated speed
    configured_mt_s: int | None = None  # speed it runs at
    manufacturer: str | None = None
    part_number: str | None = None
    registered: bool | None = None
    ecc: bool | None = None
    locator: str = ""


@dataclass(frozen=True, slots=True)
class DetectedMemory:
    usable_bytes: int | None = None     # what the OS can use (less than installed)
    installed_gb: float | None = None   # sum of modules, else estimated from usable
    installed_estimated: bool = True
    modules: tuple[MemoryModule, ...] = ()
    ecc: bool | None = None
    source: str = ""

    @property
    def usable_gib(self) -> float | None:
        return None if self.usable_bytes is None else self.usable_bytes / 2**30

    @property
    def memory_type(self) -> str | None:
        types = {m.memory_type for m in self.modules if m.memory_type}
        return types.pop() if len(types) == 1 else None

    @property
    def speed_mt_s(self) -> int | None:
        """The modules' rating, as kits are sold: the higher of the SPD speed and the
        configured one (an XMP/EXPO kit reports 4800 and runs at 6000); the slowest
        module when they differ."""
        speeds = [max(m.speed_mt_s or 0, m.configured_mt_s or 0) for m in self.modules]
        known = [s for s in speeds if s]
        return min(known) if known else None

    @property
    def registered(self) -> bool | None:
        flags = {m.registered for m in self.modules if m.registered is not None}
        return flags.pop() if len(flags) == 1 else None


@dataclass(frozen=True, slots=True)
class DetectedGpu:
    """One accelerator (or display adapter) as a vendor tool or the PCI bus names it."""

    name: str
    vendor: str = ""                    # NVIDIA, AMD, Intel, ...
    memory_gb: float | None = None
    power_limit_w: float | None = None
    bus_id: str = ""                    # normalised "0000:01:00.0"
    driver_version: str = ""
    pci_id: str = ""                    # "10de:2684"
    source: str = ""                    # nvidia-smi, rocm-smi, amd-smi, lspci, ...
    kind: str = "accelerator"           # accelerator, integrated, virtual, bmc, other
    alternatives: tuple[str, ...] = ()  # names the tool gave as "X/Y"
    note: str = ""

    @property
    def is_accelerator(self) -> bool:
        return self.kind == "accelerator"


@dataclass(frozen=True, slots=True)
class DetectedDisk:
    name: str                           # device name: nvme0n1, sda, vda
    model: str = ""
    capacity_gb: float | None = None    # decimal GB, as drives are sold
    storage_kind: str | None = None     # nvme, sata-ssd, hdd (None: cannot tell)
    interface: str = ""                 # NVMe, SATA, SAS, USB, virtio, ...
    rotational: bool | None = None
    removable: bool = False
    source: str = ""
    note: str = ""


@dataclass(frozen=True, slots=True)
class DetectedBoard:
    vendor: str = ""
    name: str = ""
    system_vendor: str = ""
    system_product: str = ""
    source: str = ""


@dataclass(frozen=True, slots=True)
class DetectedOs:
    system: str = ""
    os_name: str = ""
    release: str = ""
    machine: str = ""
    hostname: str = ""
    virtualization: str | None = None   # kvm, vmware, docker, ... (None: bare metal or unknown)
    is_admin: bool = False


@dataclass(slots=True)
class DetectionReport:
    """Everything one detection run learned, and everything it could not."""

    os: DetectedOs = field(default_factory=DetectedOs)
    cpu: DetectedCpu | None = None
    memory: DetectedMemory | None = None
    gpus: list[DetectedGpu] = field(default_factory=list)
    disks: list[DetectedDisk] = field(default_factory=list)
    board: DetectedBoard | None = None
    unknowns: list[Unknown] = field(default_factory=list)
    timings: list[Timing] = field(default_factory=list)
    seconds: float = 0.0
    started: str = ""

    @property
    def accelerators(self) -> list[DetectedGpu]:
        return [g for g in self.gpus if g.is_accelerator]

    @property
    def displays(self) -> list[DetectedGpu]:
        """Adapters that only drive a screen (virtual, server BMC, integrated)."""
        return [g for g in self.gpus if not g.is_accelerator]

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        if self.memory is not None:
            data["memory"]["usable_gib"] = (None if self.memory.usable_gib is None
                                            else round(self.memory.usable_gib, 2))
        return data
