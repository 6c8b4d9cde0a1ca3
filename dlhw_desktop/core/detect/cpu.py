"""The processor: its name, sockets, cores and threads.

Linux: ``/proc/cpuinfo`` names the model and, on x86, the socket/core layout; psutil
fills in counts portably. Windows: the registry-backed CIM class through PowerShell
(``wmic`` where PowerShell is missing). macOS: ``sysctl``. aarch64 Linux names no model
in ``/proc/cpuinfo``, only implementer and part codes, mapped here for common server cores.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from dlhw_desktop.core.detect.host import Host, PsutilFacts, powershell_objects, run_powershell
from dlhw_desktop.core.detect.model import DetectedCpu, Unknown

# ARM "CPU implementer" / "CPU part" codes (Linux arch/arm64 cputype.h).
_IMPLEMENTERS: dict[str, str] = {
    "0x41": "ARM", "0x42": "Broadcom", "0x43": "Cavium", "0x46": "Fujitsu",
    "0x48": "HiSilicon", "0x4e": "NVIDIA", "0x50": "Applied Micro", "0x51": "Qualcomm",
    "0x61": "Apple", "0x6d": "Microsoft", "0xc0": "Ampere",
}
_ARM_PARTS: dict[tuple[str, str], str] = {
    ("0x41", "0xd03"): "Cortex-A53", ("0x41", "0xd07"): "Cortex-A57",
    ("0x41", "0xd08"): "Cortex-A72", ("0x41", "0xd0b"): "Cortex-A76",
    ("0x41", "0xd0c"): "Neoverse-N1", ("0x41", "0xd40"): "Neoverse-V1",
    ("0x41", "0xd49"): "Neoverse-N2", ("0x41", "0xd4f"): "Neoverse-V2",
    ("0x41", "0xd8e"): "Neoverse-N3", ("0x41", "0xd84"): "Neoverse-V3",
    ("0x48", "0xd01"): "Kunpeng-920", ("0x4e", "0x004"): "Carmel",
    ("0xc0", "0xac3"): "AmpereOne", ("0xc0", "0xac4"): "AmpereOne",
    ("0x43", "0x0af"): "ThunderX2",
}


@dataclass(slots=True)
class CpuInfo:
    """What ``/proc/cpuinfo`` says, before psutil adds its counts."""

    name: str = ""
    vendor: str = ""
    threads: int | None = None
    sockets: int | None = None
    cores: int | None = None
    max_mhz: float | None = None
    architecture: str = ""
    flags: frozenset[str] = field(default_factory=frozenset)

    @property
    def hypervisor(self) -> bool:
        return "hypervisor" in self.flags


def parse_cpuinfo(text: str) -> CpuInfo:
    """Parse ``/proc/cpuinfo`` (x86, aarch64, older ARM). Empty or odd text gives an
    empty ``CpuInfo`` rather than an error: the caller reports what is missing."""
    blocks: list[dict[str, str]] = []
    current: dict[str, str] = {}
    trailer: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            if current:
                blocks.append(current)
                current = {}
            continue
        if ":" not in line:
            continue
        key, _, value = line.partition(":")
        key, value = key.strip().lower(), value.strip()
        if key == "processor" and current and "processor" in current:
            blocks.append(current)
            current = {}
        current[key] = value
    if current:
        blocks.append(current)
    processors = [b for b in blocks if "processor" in b and _is_index(b["processor"])]
    # Trailing machine-wide keys (ARM "Hardware", "Model") sit in a block of their own.
    for block in blocks:
        if block not in processors:
            trailer.update(block)
    info = CpuInfo()
    if not processors:
        name = trailer.get("model name") or trailer.get("processor") or trailer.get("model", "")
        info.name = name if not _is_index(name) else ""
        return info
    first = processors[0]
    info.threads = len(processors)
    info.flags = frozenset((first.get("flags") or first.get("features") or "").split())
    vendor_id = first.get("vendor_id", "")
    info.vendor = {"GenuineIntel": "Intel", "AuthenticAMD": "AMD", "HygonGenuine": "Hygon",
                   "CentaurHauls": "Centaur"}.get(vendor_id, vendor_id)
    name = first.get("model name") or first.get("cpu model") or ""
    implementer = first.get("cpu implementer", "").lower()
    if implementer:
        info.architecture = "aarch64" if first.get("cpu architecture", "8") not in (
            "7", "6") else "arm"
        maker = _IMPLEMENTERS.get(implementer, f"implementer {implementer}")
        part = _ARM_PARTS.get((implementer, first.get("cpu part", "").lower()))
        info.vendor = info.vendor or maker
        if not name or name.lower().startswith(("armv", "arm processor")):
            name = f"{maker} {part}" if part else (name or f"{maker} CPU part "
                                                   f"{first.get('cpu part', '?')}")
    elif vendor_id:
        info.architecture = "x86_64" if "lm" in info.flags else "x86"
    info.name = re.sub(r"\s+", " ", name).strip()
    sockets = {b.get("physical id") for b in processors if "physical id" in b}
    if sockets:
        info.sockets = len(sockets)
        cores = {(b.get("physical id"), b.get("core id")) for b in processors
                 if "core id" in b}
        if cores:
            info.cores = len(cores)
    # "cpu MHz" is the current clock, not the maximum: leave max_mhz to psutil/Windows.
    return info


def parse_windows_processors(text: str) -> list[dict[str, object]]:
    """``Get-CimInstance Win32_Processor | ConvertTo-Json``: an object for one socket, a
    list for several. Also accepts ``wmic ... /format:list`` (``Key=Value`` blocks)."""
    text = text.strip().lstrip("\ufeff")
    if not text:
        return []
    if text[0] in "[{":
        return powershell_objects(text)
    items: list[dict[str, object]] = []
    current: dict[str, object] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            if current:
                items.append(current)
                current = {}
            continue
        key, sep, value = line.partition("=")
        if sep:
            if key in current:
                items.append(current)
                current = {}
            current[key.strip()] = value.strip()
    if current:
        items.append(current)
    return [i for i in items if i.get("Name")]


def vendor_from_name(name: str) -> str:
    lowered = name.lower()
    for needle, vendor in (("intel", "Intel"), ("amd", "AMD"), ("ryzen", "AMD"),
                           ("epyc", "AMD"), ("apple", "Apple"), ("ampere", "Ampere"),
                           ("neoverse", "ARM"), ("graviton", "AWS"), ("qualcomm", "Qualcomm"),
                           ("snapdragon", "Qualcomm")):
        if needle in lowered:
            return vendor
    return ""


def detect_cpu(host: Host, facts: PsutilFacts | None) -> tuple[DetectedCpu | None,
                                                                 list[Unknown]]:
    """The processor of ``host``, or ``None`` and why."""
    info = host.info()
    unknowns: list[Unknown] = []
    parsed = CpuInfo()
    source = ""
    if info.system == "Linux" or not info.system:
        result = host.read("/proc/cpuinfo")
        if result.ok:
            parsed = parse_cpuinfo(result.text)
            source = "/proc/cpuinfo"
        else:
            unknowns.append(Unknown("CPU model", result.reason, "/proc/cpuinfo"))
    elif info.system == "Windows":
        parsed, source, reason = _windows_cpu(host)
        if reason:
            unknowns.append(Unknown("CPU model", reason, source))
    elif info.system == "Darwin":
        result = host.run("sysctl-cpu", ["sysctl", "-n", "machdep.cpu.brand_string"])
        if result.ok and result.stdout.strip():
            parsed.name = result.stdout.strip().splitlines()[0].strip()
            source = "sysctl"
        else:
            unknowns.append(Unknown("CPU model", result.reason, "sysctl"))
        packages = host.run("sysctl-packages", ["sysctl", "-n", "hw.packages"])
        if packages.ok and packages.stdout.strip().isdigit():
            parsed.sockets = int(packages.stdout.strip())
    if facts is not None:
        # psutil's counts are authoritative where cpuinfo lacks the layout (VMs, ARM).
        parsed.threads = facts.logical_cpus or parsed.threads
        parsed.cores = parsed.cores or facts.physical_cores
        if facts.max_mhz:
            parsed.max_mhz = facts.max_mhz
        source = f"{source} + psutil" if source else "psutil"
    if not parsed.name and parsed.threads is None:
        return None, unknowns
    if not parsed.name:
        unknowns.append(Unknown("CPU model", "the system did not name its processor",
                                source))
    name = parsed.name or "Unknown processor"
    if parsed.sockets is None and parsed.threads:
        unknowns.append(Unknown("CPU sockets", "the system did not say how many processors "
                                "are fitted; assuming one", source))
    cpu = DetectedCpu(
        name=name,
        vendor=parsed.vendor if parsed.vendor in ("Intel", "AMD") else (
            vendor_from_name(name) or parsed.vendor),
        sockets=parsed.sockets,
        cores=parsed.cores,
        threads=parsed.threads,
        max_clock_ghz=round(parsed.max_mhz / 1000, 2) if parsed.max_mhz else None,
        architecture=parsed.architecture or info.machine,
        source=source,
    )
    return cpu, unknowns


def _windows_cpu(host: Host) -> tuple[CpuInfo, str, str]:
    script = ("Get-CimInstance Win32_Processor | Select-Object Name,Manufacturer,"
              "NumberOfCores,NumberOfLogicalProcessors,MaxClockSpeed | ConvertTo-Json")
    result = run_powershell(host, "powershell-cpu", script)
    source = "PowerShell Get-CimInstance"
    items = parse_windows_processors(result.stdout) if result.ok else []
    if not items:
        fallback = host.run("wmic-cpu", ["wmic", "cpu", "get",
                                         "Name,NumberOfCores,NumberOfLogicalProcessors,"
                                         "MaxClockSpeed", "/format:list"])
        items = parse_windows_processors(fallback.stdout) if fallback.ok else []
        source = "wmic"
        if not items:
            return CpuInfo(), source, f"{result.reason}; {fallback.reason}"
    info = CpuInfo(name=str(items[0].get("Name") or "").strip())
    info.sockets = len(items)
    info.cores = _sum_int(items, "NumberOfCores")
    info.threads = _sum_int(items, "NumberOfLogicalProcessors")
    info.max_mhz = _float(items[0].get("MaxClockSpeed"))
    return info, source, ""


def _sum_int(items: list[dict[str, object]], key: str) -> int | None:
    values = [_float(i.get(key)) for i in items]
    if not values or any(v is None for v in values):
        return None
    return int(sum(v for v in values if v is not None))


def _float(value: object) -> float | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        number = float(str(value).strip())
    except ValueError:
        return None
    return number if number > 0 else None


def _is_index(value: str) -> bool:
    return value.strip().isdigit()
