"""System memory: the usable total always; module type, speed and count where told.

The usable total (psutil, ``/proc/meminfo``) is a little under what is installed (the
kernel and firmware keep some), so the installed size is estimated by rounding up to a
size people actually fit, and marked as estimated. Module details come from SMBIOS
tables: ``dmidecode -t memory`` on Linux (root only), ``Win32_PhysicalMemory`` on
Windows, ``system_profiler`` on macOS. A virtual machine's tables describe no real DIMMs.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from dlhw_desktop.core.detect.host import Host, PsutilFacts, powershell_objects, run_powershell
from dlhw_desktop.core.detect.model import DetectedMemory, MemoryModule, Unknown

# Sizes machines are sold with, in GiB (what memory kits call "GB").
_COMMON_SIZES_GIB: tuple[int, ...] = (
    1, 2, 3, 4, 6, 8, 12, 16, 18, 24, 32, 36, 48, 64, 96, 128, 192, 256, 384, 512, 768,
    1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384,
)
_TYPES = ("LPDDR5X", "LPDDR5", "LPDDR4X", "LPDDR4", "LPDDR3", "DDR5", "DDR4", "DDR3",
          "DDR2", "HBM3", "HBM2")
# SMBIOS memory type codes (Win32_PhysicalMemory.SMBIOSMemoryType).
_SMBIOS_TYPES: dict[int, str] = {20: "DDR", 21: "DDR2", 24: "DDR3", 26: "DDR4",
                                 29: "LPDDR3", 30: "LPDDR4", 34: "DDR5", 35: "LPDDR5"}


def parse_meminfo(text: str) -> int | None:
    """``MemTotal`` from ``/proc/meminfo`` in bytes; ``None`` if absent or garbled."""
    match = re.search(r"^MemTotal:\s*(\d+)\s*(kB|KB|k)?\s*$", text, re.MULTILINE)
    if not match:
        return None
    value = int(match.group(1))
    return value * 1024 if value > 0 else None


def estimate_installed_gib(usable_bytes: int) -> float:
    """The installed size a usable total most likely comes from.

    Firmware, the kernel and (in laptops) integrated graphics keep from a few hundred MB
    up to ~10 %; so round up to the next common size if it is within 12 %, else to the
    next whole GiB (a VM can be given any amount).
    """
    gib = usable_bytes / 2**30
    for size in _COMMON_SIZES_GIB:
        if size >= gib:
            if size <= gib * 1.12:
                return float(size)
            break
    return float(max(1, math.ceil(gib)))


def parse_dmidecode_memory(text: str) -> tuple[list[MemoryModule], bool | None]:
    """Installed modules and whether the memory array uses ECC, from
    ``dmidecode -t memory`` (both the ``MT/s`` and older ``MHz`` spellings)."""
    modules: list[MemoryModule] = []
    ecc: bool | None = None
    for block in re.split(r"\n\s*\n", text.replace("\r\n", "\n")):
        header = re.search(r"^Handle 0x[0-9A-Fa-f]+, DMI type (\d+)", block, re.MULTILINE)
        if header is None:
            continue
        fields = _dmi_fields(block)
        if header.group(1) == "16":  # Physical Memory Array
            kind = fields.get("Error Correction Type", "").lower()
            if kind and kind not in ("unknown", "other"):
                ecc = bool(ecc) or kind != "none"
            continue
        if header.group(1) != "17":  # Memory Device
            continue
        size = _dmi_size_gb(fields.get("Size", ""))
        if size is None:
            continue
        memory_type = _known_type(fields.get("Type", ""))
        detail = fields.get("Type Detail", "").lower()
        total_width = _leading_int(fields.get("Total Width", ""))
        data_width = _leading_int(fields.get("Data Width", ""))
        module_ecc = (total_width > data_width) if total_width and data_width else None
        modules.append(MemoryModule(
            size_gb=size,
            memory_type=memory_type,
            speed_mt_s=_speed(fields.get("Speed", "")),
            configured_mt_s=_speed(fields.get("Configured Memory Speed")
                                   or fields.get("Configured Clock Speed", "")),
            manufacturer=_clean(fields.get("Manufacturer")),
            part_number=_clean(fields.get("Part Number")),
            # "Unbuffered (Unregistered)" must not read as registered.
            registered=(bool(re.search(r"\bregistered\b", detail))
                        if detail and detail not in ("unknown", "other") else None),
            ecc=module_ecc,
            locator=fields.get("Locator", ""),
        ))
    return modules, ecc


def parse_windows_memory(text: str) -> list[MemoryModule]:
    """``Get-CimInstance Win32_PhysicalMemory | ConvertTo-Json`` (object or list)."""
    items = powershell_objects(text)
    modules: list[MemoryModule] = []
    for item in items:
        capacity = _number(item.get("Capacity"))
        if not capacity:
            continue
        code = _number(item.get("SMBIOSMemoryType"))
        modules.append(MemoryModule(
            size_gb=round(capacity / 2**30, 2),
            memory_type=_SMBIOS_TYPES.get(int(code)) if code else None,
            speed_mt_s=int(_number(item.get("Speed")) or 0) or None,
            configured_mt_s=int(_number(item.get("ConfiguredClockSpeed")) or 0) or None,
            manufacturer=_clean(item.get("Manufacturer")),
            part_number=_clean(item.get("PartNumber")),
            locator=str(item.get("DeviceLocator") or ""),
        ))
    return modules


def parse_macos_memory(text: str) -> list[MemoryModule]:
    """``system_profiler SPMemoryDataType -json``: Apple silicon reports one unified
    block (``"SPMemoryDataType": "16 GB"``), Intel Macs one item per DIMM."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return []
    entries = data.get("SPMemoryDataType") if isinstance(data, dict) else None
    modules: list[MemoryModule] = []
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict):
            continue
        dimms = entry.get("_items")
        for dimm in dimms if isinstance(dimms, list) else [entry]:
            if not isinstance(dimm, dict):
                continue
            size = _dmi_size_gb(str(dimm.get("dimm_size") or dimm.get("SPMemoryDataType")
                                    or ""))
            if size is None:
                continue
            modules.append(MemoryModule(
                size_gb=size,
                memory_type=_known_type(str(dimm.get("dimm_type") or "")),
                speed_mt_s=_speed(str(dimm.get("dimm_speed") or "")),
                manufacturer=_clean(dimm.get("dimm_manufacturer")),
                locator=str(dimm.get("_name") or ""),
            ))
    return modules


def detect_memory(host: Host, facts: PsutilFacts | None) -> tuple[DetectedMemory | None,
                                                                    list[Unknown]]:
    info = host.info()
    unknowns: list[Unknown] = []
    usable: int | None = facts.memory_total_bytes if facts else None
    source = "psutil" if usable else ""
    if info.system in ("Linux", ""):
        result = host.read("/proc/meminfo")
        parsed = parse_meminfo(result.text) if result.ok else None
        if parsed is not None:
            usable, source = usable or parsed, source or "/proc/meminfo"
        elif usable is None:
            unknowns.append(Unknown("memory size", result.reason if not result.ok
                                    else "/proc/meminfo has no MemTotal line", "/proc/meminfo"))
    modules: list[MemoryModule] = []
    ecc: bool | None = None
    module_source = ""
    what = "memory type, speed and modules"
    if info.system in ("Linux", ""):
        if not info.is_admin:
            unknowns.append(Unknown(what, "reading them (dmidecode) needs administrator "
                                    "rights", "dmidecode",
                                    hint="run 'sudo dlhw detect' to include them"))
        else:
            result = host.run("dmidecode-memory", ["dmidecode", "-t", "memory"])
            if result.ok:
                modules, ecc = parse_dmidecode_memory(result.stdout)
                module_source = "dmidecode"
                if not modules:
                    unknowns.append(Unknown(what, "the firmware tables list no memory "
                                            "modules (usual in a virtual machine)",
                                            "dmidecode"))
            else:
                hint = ("install it (e.g. 'apt install dmidecode')"
                        if result.outcome.value == "missing" else "")
                unknowns.append(Unknown(what, result.reason, "dmidecode", hint))
    elif info.system == "Windows":
        script = ("Get-CimInstance Win32_PhysicalMemory | Select-Object Capacity,Speed,"
                  "ConfiguredClockSpeed,SMBIOSMemoryType,Manufacturer,PartNumber,"
                  "DeviceLocator | ConvertTo-Json")
        result = run_powershell(host, "powershell-memory", script)
        modules = parse_windows_memory(result.stdout) if result.ok else []
        module_source = "PowerShell Get-CimInstance"
        if not modules:
            unknowns.append(Unknown(what, result.reason if not result.ok else
                                    "Windows listed no memory modules", module_source))
    elif info.system == "Darwin":
        result = host.run("system_profiler-memory",
                          ["system_profiler", "SPMemoryDataType", "-json"], timeout=10.0)
        modules = parse_macos_memory(result.stdout) if result.ok else []
        module_source = "system_profiler"
        if not modules:
            unknowns.append(Unknown(what, result.reason if not result.ok else
                                    "macOS listed no memory modules", module_source))
    installed_from_tables: float | None = None
    if modules and all(m.memory_type is None for m in modules):
        # A virtual machine's tables (QEMU: "Type: RAM") describe no real modules: keep
        # the size they give, not the modules, nor the ECC they claim.
        installed_from_tables = round(sum(m.size_gb for m in modules), 2)
        modules, ecc = [], None
        unknowns.append(Unknown("memory type and speed", "the firmware tables name no "
                                "memory type (usual in a virtual machine)", module_source))
    if modules:
        if any(m.memory_type is None for m in modules):
            unknowns.append(Unknown("memory type", "the firmware tables do not name the "
                                    "memory type of every module", module_source))
        if ecc is None:
            flags = {m.ecc for m in modules if m.ecc is not None}
            ecc = flags.pop() if len(flags) == 1 else None
    if usable is None and not modules and installed_from_tables is None:
        return None, unknowns
    installed: float | None
    if modules:
        installed = round(sum(m.size_gb for m in modules), 2)
        estimated = False
    elif installed_from_tables:
        installed, estimated = installed_from_tables, False
    else:
        installed = estimate_installed_gib(usable) if usable else None
        estimated = True
    sources = " + ".join(s for s in (source, module_source) if s)
    return DetectedMemory(usable_bytes=usable, installed_gb=installed,
                          installed_estimated=estimated, modules=tuple(modules), ecc=ecc,
                          source=sources), unknowns


# --- helpers ---------------------------------------------------------------------------


def _dmi_fields(block: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    for line in block.splitlines():
        if line[:1].isspace() and ":" in line and not line.startswith("\t\t"):
            key, _, value = line.strip().partition(":")
            fields.setdefault(key.strip(), value.strip())
    return fields


def _dmi_size_gb(text: str) -> float | None:
    match = re.match(r"\s*(\d+(?:\.\d+)?)\s*(TB|GB|MB|KB|kB|GiB|MiB)\b", text)
    if not match:
        return None
    value = float(match.group(1))
    unit = match.group(2).upper().replace("I", "")
    factor = {"TB": 1024.0, "GB": 1.0, "MB": 1 / 1024, "KB": 1 / 1024**2}[unit]
    size = round(value * factor, 3)
    return size if size > 0 else None


def _known_type(text: str) -> str | None:
    upper = text.upper().replace("-", "")
    for name in _TYPES:
        if name in upper.split() or upper == name:
            return name
    return None


def _speed(text: str) -> int | None:
    match = re.match(r"\s*(\d+)\s*(MT/s|MHz)", text or "")
    return int(match.group(1)) if match and int(match.group(1)) > 0 else None


def _leading_int(text: str) -> int | None:
    match = re.match(r"\s*(\d+)", text or "")
    return int(match.group(1)) if match else None


_PLACEHOLDERS = {"", "unknown", "not specified", "none", "n/a", "to be filled by o.e.m.",
                 "undefined", "manufacturer0", "partnum0", "0000", "00000000"}


def _clean(value: Any) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    return None if text.lower() in _PLACEHOLDERS else text


def _number(value: Any) -> float | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        return None
