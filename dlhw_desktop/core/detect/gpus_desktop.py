"""GPUs on Windows (WMI's Win32_VideoController) and macOS (system_profiler), where neither
vendor tools nor lspci are at hand."""

from __future__ import annotations

import re
from dataclasses import replace

from dlhw_desktop.core.detect.model import DetectedGpu
from dlhw_desktop.core.detect.pci import VENDOR_IDS, PciDevice, classify_pci
from dlhw_desktop.core.detect.values import json_document, memory_gb, parse_quantity


def parse_windows_video(text: str) -> list[DetectedGpu]:
    """``Get-CimInstance Win32_VideoController | ConvertTo-Json``. ``AdapterRAM`` is a
    32-bit field (wraps at 4 GB), so it is used only when clearly below that."""
    data = json_document(text)
    items = data if isinstance(data, list) else [data] if isinstance(data, dict) else []
    gpus: list[DetectedGpu] = []
    for item in items:
        if not isinstance(item, dict) or not item.get("Name"):
            continue
        name = re.sub(r"\s+", " ", str(item["Name"])).strip()
        pnp = str(item.get("PNPDeviceID") or "")
        ven = re.search(r"VEN_([0-9A-Fa-f]{4})", pnp)
        dev = re.search(r"DEV_([0-9A-Fa-f]{4})", pnp)
        vendor_id = ven.group(1).lower() if ven else ""
        device = PciDevice("", "VGA compatible controller", "0300",
                           VENDOR_IDS.get(vendor_id, ""), vendor_id, name,
                           dev.group(1).lower() if dev else "")
        gpu = classify_pci(device)
        ram = item.get("AdapterRAM")
        mem = None
        if isinstance(ram, int | float) and 0 < ram < 4 * 2**30 - 2**20:
            mem = memory_gb(float(ram), "B")
        gpus.append(replace(gpu, name=name, memory_gb=mem, source="Win32_VideoController",
                            driver_version=str(item.get("DriverVersion") or ""),
                            vendor=gpu.vendor or _vendor_from_name(name)))
    return gpus


def parse_macos_displays(text: str) -> list[DetectedGpu]:
    """``system_profiler SPDisplaysDataType -json``; Apple silicon GPUs share system
    memory, so they are listed as integrated."""
    data = json_document(text)
    entries = data.get("SPDisplaysDataType") if isinstance(data, dict) else None
    gpus: list[DetectedGpu] = []
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict):
            continue
        name = str(entry.get("sppci_model") or entry.get("_name") or "").strip()
        if not name:
            continue
        vendor = _vendor_from_name(name + " " + str(entry.get("spdisplays_vendor", "")))
        vram = parse_quantity(str(entry.get("spdisplays_vram")
                                  or entry.get("spdisplays_vram_shared") or ""), "MB")
        apple = vendor == "Apple" or name.lower().startswith("apple")
        cores = entry.get("sppci_cores")
        gpus.append(DetectedGpu(
            name=name, vendor=vendor, memory_gb=None if apple or not vram else memory_gb(*vram),
            source="system_profiler", kind="integrated" if apple else "accelerator",
            note=f"Apple silicon GPU ({cores} cores) sharing system memory" if apple else ""))
    return gpus


def _vendor_from_name(name: str) -> str:
    lowered = name.lower()
    for needle, vendor in (("nvidia", "NVIDIA"), ("geforce", "NVIDIA"), ("quadro", "NVIDIA"),
                           ("amd", "AMD"), ("radeon", "AMD"), ("intel", "Intel"),
                           ("apple", "Apple")):
        if needle in lowered:
            return vendor
    return ""
