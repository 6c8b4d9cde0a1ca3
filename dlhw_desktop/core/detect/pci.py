"""GPUs on the PCI bus (``lspci -nn``): every card, even one whose driver is broken.

The bus gives only a name and vendor/device ids; these parsers tell a discrete
accelerator from integrated graphics, a virtual display adapter or a server's BMC.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dlhw_desktop.core.detect.model import DetectedGpu

VENDOR_IDS: dict[str, str] = {
    "10de": "NVIDIA", "1002": "AMD", "8086": "Intel", "1da3": "Habana Labs",
    "1e52": "Tenstorrent", "1e26": "Graphcore", "1ed5": "Moore Threads",
}
_VIRTUAL_VENDORS = {"1af4", "1b36", "1234", "15ad", "80ee", "1414", "1013", "5853", "1ab8"}
_BMC_VENDORS = {"1a03", "102b", "19e5"}  # ASPEED, Matrox (server G200), Huawei iBMC
_VIRTUAL_WORDS = ("virtio", "qxl", "bochs", "vmware svga", "svga ii", "virtualbox",
                  "hyper-v", "cirrus", "qemu", "virtual", "basic display",
                  "remote display", "parallels")
_BMC_WORDS = ("aspeed", "g200e", "mga g200", "ibmc")
# AMD APU graphics (integrated; the PCI bus names them by codename only).
_AMD_IGPU_WORDS = ("raphael", "granite ridge", "renoir", "cezanne", "lucienne", "barcelo",
                   "rembrandt", "phoenix", "hawk point", "strix", "picasso", "raven",
                   "mendocino", "van gogh", "radeon vega series", "radeon vega mobile",
                   "radeon graphics", "krackan")
_INTEL_DGPU = re.compile(r"\b(arc|data center gpu|dg1|dg2|alchemist|battlemage|ponte vecchio|"
                         r"flex \d+|max \d+)\b", re.IGNORECASE)


def normalise_bus_id(text: str) -> str:
    """``00000000:01:00.0`` (nvidia-smi), ``0000:01:00.0`` or ``01:00.0`` (lspci) ->
    ``0000:01:00.0``, so the same card seen by two tools is counted once."""
    match = re.search(r"(?:([0-9a-fA-F]{1,8}):)?([0-9a-fA-F]{2}):([0-9a-fA-F]{2})\.([0-7])",
                      text or "")
    if not match:
        return ""
    domain = (match.group(1) or "0").lower()[-4:].rjust(4, "0")
    return f"{domain}:{match.group(2).lower()}:{match.group(3).lower()}.{match.group(4)}"


@dataclass(frozen=True, slots=True)
class PciDevice:
    slot: str
    class_name: str
    class_code: str      # "0300"; "" without -nn
    vendor_name: str
    vendor_id: str       # "10de"
    device_name: str
    device_id: str
    subsystem: str = ""


def _split_code(field: str) -> tuple[str, str]:
    """``"NVIDIA Corporation [10de]"`` -> ("NVIDIA Corporation", "10de")."""
    match = re.match(r"^(.*?)\s*\[([0-9a-fA-F]{4})\]$", field.strip())
    if match:
        return match.group(1).strip(), match.group(2).lower()
    return field.strip(), ""


def parse_lspci(text: str) -> list[PciDevice]:
    """``lspci -mm -nn`` (also plain ``-mm``): one quoted record per line; a line that does
    not parse is skipped, not fatal."""
    devices: list[PciDevice] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or '"' not in line:
            continue
        slot = line.split(None, 1)[0]
        if not re.match(r"^([0-9a-fA-F]{4,8}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]$", slot):
            continue
        fields = re.findall(r'"((?:[^"\\]|\\.)*)"', line)
        if len(fields) < 3:
            continue
        class_name, class_code = _split_code(fields[0])
        vendor_name, vendor_id = _split_code(fields[1])
        device_name, device_id = _split_code(fields[2])
        subsystem = " ".join(_split_code(f)[0] for f in fields[3:5] if f)
        devices.append(PciDevice(slot, class_name, class_code, vendor_name, vendor_id,
                                 device_name, device_id, subsystem))
    return devices


_DISPLAY_CLASSES = ("0300", "0302", "0380")
_DISPLAY_CLASS_NAMES = ("vga compatible controller", "3d controller", "display controller")


def is_gpu_candidate(device: PciDevice) -> bool:
    """Display controllers, and processing accelerators (class 12xx: Instinct MI300,
    Gaudi) from vendors that make training hardware (not laptop NPUs)."""
    code, name = device.class_code, device.class_name.lower()
    if code in _DISPLAY_CLASSES or name in _DISPLAY_CLASS_NAMES:
        return True
    if code.startswith("12") or name.startswith("processing accelerator"):
        vendor = vendor_of(device)
        return vendor in ("AMD", "NVIDIA", "Habana Labs", "Tenstorrent", "Graphcore") or (
            vendor == "Intel" and "gaudi" in device.device_name.lower())
    return False


_VIRTUAL_VENDOR_NAMES = {"1234": "QEMU", "1af4": "Red Hat (virtio)", "1b36": "Red Hat (QEMU)",
                         "15ad": "VMware", "80ee": "VirtualBox", "1414": "Microsoft",
                         "5853": "Xen", "1013": "Cirrus Logic"}


def vendor_of(device: PciDevice) -> str:
    if device.vendor_id in VENDOR_IDS:
        return VENDOR_IDS[device.vendor_id]
    if device.vendor_id in _VIRTUAL_VENDOR_NAMES and (
            not device.vendor_name or device.vendor_name.lower().startswith("device")):
        return _VIRTUAL_VENDOR_NAMES[device.vendor_id]
    lowered = device.vendor_name.lower()
    for needle, vendor in (("nvidia", "NVIDIA"), ("advanced micro devices", "AMD"),
                           ("amd/ati", "AMD"), ("intel", "Intel"), ("habana", "Habana Labs")):
        if needle in lowered:
            return vendor
    return device.vendor_name.replace(" Corporation", "").replace(", Inc.", "").strip()


def bracketed_name(device_name: str) -> str:
    """The marketing name pci.ids gives in brackets: ``AD102 [GeForce RTX 4090]``."""
    match = re.search(r"\[([^\[\]]+)\]\s*$", device_name)
    return match.group(1).strip() if match else ""


def split_alternatives(name: str) -> tuple[str, ...]:
    """``Radeon RX 7900 XT/7900 XTX/7900 GRE`` -> three full names (the later ones take
    the words before the first's model number: ``Radeon RX``)."""
    pieces = [p.strip() for p in name.split("/") if p.strip()]
    if len(pieces) <= 1:
        return (name.strip(),)
    words = pieces[0].split()
    prefix_words: list[str] = []
    for word in words:
        if any(c.isdigit() for c in word):
            break
        prefix_words.append(word)
    prefix = " ".join(prefix_words)
    result = [pieces[0]]
    for piece in pieces[1:]:
        has_prefix = prefix and piece.lower().startswith(prefix.lower())
        starts_with_model = bool(piece) and (piece[0].isdigit() or re.match(r"^[A-Z]+\d", piece))
        result.append(piece if has_prefix or not prefix or not starts_with_model
                      else f"{prefix} {piece}")
    return tuple(result)


def classify_pci(device: PciDevice) -> DetectedGpu:
    """A PCI display/accelerator device as a DetectedGpu with its kind decided."""
    vendor = vendor_of(device)
    marketing = bracketed_name(device.device_name)
    alternatives = split_alternatives(marketing) if marketing else ()
    haystack = f"{device.vendor_name} {device.device_name} {device.subsystem}".lower()
    pci_id = f"{device.vendor_id}:{device.device_id}" if device.vendor_id else ""
    kind = "accelerator"
    note = ""
    if device.vendor_id in _VIRTUAL_VENDORS or any(w in haystack for w in _VIRTUAL_WORDS):
        kind, note = "virtual", "a virtual machine's display adapter"
    elif device.vendor_id in _BMC_VENDORS or any(w in haystack for w in _BMC_WORDS):
        kind, note = "bmc", "the server management controller's display"
    elif _integrated(vendor, device.device_name, haystack):
        kind, note = "integrated", "graphics built into the processor"
    elif vendor not in VENDOR_IDS.values():
        kind, note = "other", "a display adapter of unknown use"
    if alternatives:
        name = alternatives[0]
    elif marketing:
        name = marketing
    elif device.device_name and not device.device_name.lower().startswith("device"):
        name = device.device_name
    else:
        name = f"{vendor} {'display adapter' if kind != 'accelerator' else 'device'} "\
               f"{pci_id}".strip()
    return DetectedGpu(
        name=name, vendor=vendor, bus_id=normalise_bus_id(device.slot), pci_id=pci_id,
        source="lspci", kind=kind,
        alternatives=alternatives if len(alternatives) > 1 else (), note=note)


def _integrated(vendor: str, device_name: str, haystack: str) -> bool:
    if vendor == "Intel":
        return not _INTEL_DGPU.search(device_name) and "gaudi" not in haystack
    if vendor == "AMD":
        return any(w in device_name.lower() for w in _AMD_IGPU_WORDS)
    return False


def gpus_from_lspci(text: str) -> list[DetectedGpu]:
    return [classify_pci(d) for d in parse_lspci(text) if is_gpu_candidate(d)]
